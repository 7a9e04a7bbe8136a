//! What grade says while it runs, on stderr: a line per graded bot (in CI
//! logs too) and, on a terminal, a live line under them — bots done,
//! failing so far, and the bot that has been running longest.

use super::table::Row;
use std::io::{IsTerminal, Write};
use std::time::{Duration, Instant};

pub struct Progress {
    total: usize,
    done: usize,
    failing: usize,
    live: bool,
    drawn: bool,
    last_draw: Option<Instant>,
}

impl Progress {
    pub fn start(total: usize) -> Progress {
        let dumb = std::env::var("TERM").is_ok_and(|t| t == "dumb");
        Progress {
            total,
            done: 0,
            failing: 0,
            live: std::io::stderr().is_terminal() && !dumb,
            drawn: false,
            last_draw: None,
        }
    }

    /// Whether the live line is drawn (stderr is a terminal).
    pub fn live(&self) -> bool {
        self.live
    }

    /// A bot has its grade (`how`: e.g. why it was kept).
    pub fn done(&mut self, row: &Row, how: &str) {
        self.done += 1;
        if row.status != "passed" {
            self.failing += 1;
        }
        let what = match (&row.first_failing_rule, &row.note) {
            (Some(rule), _) => format!("{} ({rule})", row.status),
            (None, Some(note)) => format!("{} ({note})", row.status),
            _ => row.status.clone(),
        };
        let how = if how.is_empty() {
            format!("{:.1} s", row.seconds)
        } else {
            how.to_string()
        };
        self.erase();
        let _ = writeln!(
            std::io::stderr(),
            "[{}/{}] {}: {what}, {how}",
            self.done,
            self.total,
            row.id.escape_debug()
        );
    }

    /// Redraw the live line (at most a few times a second).
    pub fn running<'a>(&mut self, running: impl Iterator<Item = (&'a str, Instant)>) {
        if !self.live
            || self
                .last_draw
                .is_some_and(|t| t.elapsed() < Duration::from_millis(250))
        {
            return;
        }
        self.last_draw = Some(Instant::now());
        let slowest = running.min_by_key(|(_, started)| *started);
        let mut line = format!(
            "grading: {}/{} done, {} not passing",
            self.done,
            super::counted(self.total, "bot", "bots"),
            self.failing
        );
        if let Some((id, started)) = slowest {
            line += &format!(
                "; slowest running: {} ({} s)",
                id.escape_debug(),
                started.elapsed().as_secs()
            );
        }
        let width = 100;
        let line: String = line.chars().take(width).collect();
        let _ = write!(std::io::stderr(), "\r\x1b[2K{line}");
        self.drawn = true;
    }

    fn erase(&mut self) {
        if self.drawn {
            let _ = write!(std::io::stderr(), "\r\x1b[2K");
            self.drawn = false;
        }
    }

    pub fn finish(mut self) {
        self.erase();
    }
}
