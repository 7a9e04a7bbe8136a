//! The live progress line of a long run, on a terminal only: scenarios
//! done/total, failures so far, elapsed time and the scenario that has been
//! running longest, redrawn in place on stderr and erased before the report
//! is printed. Never drawn when stderr is not a terminal (CI logs, pipes,
//! files), so it cannot end up in a saved report or a `--format json` pipe.

use crate::outcome::Status;
use crate::suite::SuiteEvent;
use std::collections::BTreeMap;
use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How often the line is redrawn.
const TICK: Duration = Duration::from_millis(120);

/// What the line shows, updated from the workers' events.
#[derive(Debug)]
pub struct Tally {
    total: usize,
    done: usize,
    failed: usize,
    /// Running scenarios by index, with when each started.
    running: BTreeMap<usize, (String, Instant)>,
    started: Instant,
}

impl Tally {
    pub fn new(total: usize, started: Instant) -> Tally {
        Tally {
            total,
            done: 0,
            failed: 0,
            running: BTreeMap::new(),
            started,
        }
    }

    pub fn record(&mut self, event: &SuiteEvent, at: Instant) {
        match event {
            SuiteEvent::Started { index, name } => {
                self.running.insert(*index, (name.to_string(), at));
            }
            SuiteEvent::Finished { index, status } => {
                self.running.remove(index);
                self.done += 1;
                if matches!(status, Status::Failed | Status::Error) {
                    self.failed += 1;
                }
            }
        }
    }

    /// The line at `now`, at most `width` characters.
    pub fn line(&self, now: Instant, width: usize) -> String {
        let elapsed = now.saturating_duration_since(self.started);
        let mut line = format!(
            "[{}/{}] {} failed · {}",
            self.done,
            self.total,
            self.failed,
            seconds(elapsed)
        );
        let longest = self.running.values().min_by_key(|(_, since)| *since);
        if let Some((name, since)) = longest {
            line += &format!(
                " · running {} ({})",
                name,
                seconds(now.saturating_duration_since(*since))
            );
            if self.running.len() > 1 {
                line += &format!(" +{} more", self.running.len() - 1);
            }
        }
        if line.chars().count() > width {
            let cut: String = line.chars().take(width.saturating_sub(1)).collect();
            cut + "…"
        } else {
            line
        }
    }
}

fn seconds(d: Duration) -> String {
    format!("{:.1}s", d.as_secs_f64())
}

/// The drawing thread; dropped or [`Progress::finish`]ed, it erases its line.
pub struct Progress {
    tally: Arc<Mutex<Tally>>,
    stop: Arc<AtomicBool>,
    painter: Option<std::thread::JoinHandle<()>>,
}

impl Progress {
    /// Draw progress for `total` scenarios if stderr is a terminal that can
    /// redraw a line (not `TERM=dumb`); otherwise a silent tally.
    pub fn start(total: usize) -> Progress {
        use std::io::IsTerminal;
        let dumb = std::env::var("TERM").is_ok_and(|t| t == "dumb");
        let draw = std::io::stderr().is_terminal() && !dumb;
        let tally = Arc::new(Mutex::new(Tally::new(total, Instant::now())));
        let stop = Arc::new(AtomicBool::new(false));
        let painter = draw.then(|| {
            let tally = Arc::clone(&tally);
            let stop = Arc::clone(&stop);
            std::thread::Builder::new()
                .name("progress".into())
                .spawn(move || paint(&tally, &stop))
                .ok()
        });
        Progress {
            tally,
            stop,
            painter: painter.flatten(),
        }
    }

    /// Feed a worker's event (called from the suite's worker threads).
    pub fn record(&self, event: &SuiteEvent) {
        let mut t = self.tally.lock().unwrap_or_else(|e| e.into_inner());
        t.record(event, Instant::now());
    }

    /// Stop drawing and erase the line.
    pub fn finish(mut self) {
        self.halt();
    }

    fn halt(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        if let Some(p) = self.painter.take() {
            let _ = p.join();
        }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.halt();
    }
}

fn paint(tally: &Mutex<Tally>, stop: &AtomicBool) {
    let mut drawn = false;
    // The first draw waits one tick, so a run that ends at once never
    // flickers a line.
    while !stop.load(Ordering::SeqCst) {
        std::thread::sleep(TICK);
        if stop.load(Ordering::SeqCst) {
            break;
        }
        let text = {
            let t = tally.lock().unwrap_or_else(|e| e.into_inner());
            t.line(Instant::now(), terminal_width().saturating_sub(1).max(20))
        };
        let mut err = std::io::stderr().lock();
        let _ = write!(err, "\r\x1b[2K{text}");
        let _ = err.flush();
        drawn = true;
    }
    if drawn {
        let mut err = std::io::stderr().lock();
        let _ = write!(err, "\r\x1b[2K");
        let _ = err.flush();
    }
}

/// Columns of the terminal on stderr (80 where that cannot be told).
fn terminal_width() -> usize {
    #[cfg(unix)]
    {
        // SAFETY: TIOCGWINSZ fills a winsize struct we own; a failure leaves
        // it zeroed, which falls back below.
        let mut size: libc::winsize = unsafe { std::mem::zeroed() };
        let ok = unsafe { libc::ioctl(libc::STDERR_FILENO, libc::TIOCGWINSZ, &mut size) } == 0;
        if ok && size.ws_col > 0 {
            return usize::from(size.ws_col);
        }
    }
    80
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_line_counts_and_names_the_longest_running_scenario() {
        let t0 = Instant::now();
        let mut t = Tally::new(5, t0);
        let ms = Duration::from_millis;
        t.record(
            &SuiteEvent::Started {
                index: 0,
                name: "alpha",
            },
            t0,
        );
        t.record(
            &SuiteEvent::Started {
                index: 1,
                name: "beta",
            },
            t0 + ms(300),
        );
        t.record(
            &SuiteEvent::Finished {
                index: 0,
                status: Status::Failed,
            },
            t0 + ms(900),
        );
        t.record(
            &SuiteEvent::Started {
                index: 2,
                name: "gamma",
            },
            t0 + ms(900),
        );
        assert_eq!(
            t.line(t0 + ms(2500), 200),
            "[1/5] 1 failed · 2.5s · running beta (2.2s) +1 more"
        );
        t.record(
            &SuiteEvent::Finished {
                index: 1,
                status: Status::Passed,
            },
            t0 + ms(2600),
        );
        t.record(
            &SuiteEvent::Finished {
                index: 2,
                status: Status::Skipped,
            },
            t0 + ms(2600),
        );
        assert_eq!(t.line(t0 + ms(3000), 200), "[3/5] 1 failed · 3.0s");
    }

    #[test]
    fn the_line_fits_the_terminal() {
        let t0 = Instant::now();
        let mut t = Tally::new(400, t0);
        t.record(
            &SuiteEvent::Started {
                index: 7,
                name: &"x".repeat(300),
            },
            t0,
        );
        let line = t.line(t0, 40);
        assert_eq!(line.chars().count(), 40);
        assert!(line.ends_with('…'));
    }

    #[test]
    fn without_a_terminal_nothing_is_drawn() {
        // Tests run with stderr captured or piped: the painter never starts.
        use std::io::IsTerminal;
        if std::io::stderr().is_terminal() {
            eprintln!("skipped: stderr is a terminal here");
            return;
        }
        let p = Progress::start(3);
        assert!(p.painter.is_none());
        p.finish();
    }
}
