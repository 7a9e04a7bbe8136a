//! `--bot-time-limit`: a cap on one bot's whole run (set by `grade` for
//! each bot's protocheck). A scenario counts only when it finished before
//! the deadline; one still running then is cut (its bot killed) and, with
//! every scenario not yet started, listed as not run with the reason. A
//! cut scenario is never a failure: which scenarios fit depends on the
//! machine's load, a verdict must depend on the bot alone.

use crate::controller::ScenarioRun;
use crate::outcome::{Direction, Status, TranscriptLine};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Condvar, Mutex};
use std::time::{Duration, Instant};

/// The budget of one run: how long, and until when.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    pub limit: Duration,
    pub deadline: Instant,
}

impl Budget {
    /// A budget of `limit` from now.
    pub fn starting_now(limit: Duration) -> Budget {
        Budget {
            limit,
            deadline: Instant::now() + limit,
        }
    }

    /// Why a scenario was not run, for the reports (and `grade`, which
    /// counts the scenarios with this reason).
    pub fn reason(&self) -> String {
        reason(self.limit)
    }

    /// Whether a scenario that ended at `ended` finished in time: one
    /// that ended at the deadline or later does not count.
    pub fn counts(&self, ended: Instant) -> bool {
        ended < self.deadline
    }

    pub fn spent(&self) -> bool {
        !self.counts(Instant::now())
    }
}

/// `not run: --bot-time-limit 2m spent`.
pub fn reason(limit: Duration) -> String {
    format!("not run: --bot-time-limit {} spent", show(limit))
}

/// `2m`, `90s`, `1h 30m`, `1s 500ms`: as a user writes it.
pub fn show(limit: Duration) -> String {
    // Whole milliseconds: finer parts were never asked for.
    let ms = Duration::from_millis(limit.as_millis() as u64);
    humantime::format_duration(ms).to_string()
}

/// A scenario that was still running when the budget was spent: no
/// verdict, no findings (its bot was killed, or it would have been); the
/// transcript so far stays, with a note saying why it ends.
pub fn cut(run: &mut ScenarioRun, budget: &Budget) {
    let result = &mut run.result;
    result.status = Status::Skipped;
    result.error = None;
    result.skip_reason = Some(budget.reason());
    result.violations.clear();
    result.omitted.clear();
    result.frames.clear();
    result.replay = None;
    result.transcript.push(TranscriptLine {
        dir: Direction::Note,
        text: format!(
            "--bot-time-limit {} spent while this scenario ran: protocheck stopped the bot",
            show(budget.limit)
        ),
        ms: result.duration_ms,
    });
    run.replay_steps.clear();
    run.startup_failure = None;
}

/// The suite's workers, counted so the watcher knows when they are done.
pub struct Workers {
    left: Mutex<usize>,
    changed: Condvar,
}

impl Workers {
    pub fn new(n: usize) -> Workers {
        Workers {
            left: Mutex::new(n),
            changed: Condvar::new(),
        }
    }

    /// A worker leaves (on every path out of its loop: see [`Leaving`]).
    pub fn leaving(&self) -> Leaving<'_> {
        Leaving(self)
    }

    /// Wait until every worker has left or `until` comes; whether they
    /// have all left.
    fn all_left_by(&self, until: Instant) -> bool {
        let mut left = self.left.lock().unwrap_or_else(|e| e.into_inner());
        while *left > 0 {
            let now = Instant::now();
            if now >= until {
                return false;
            }
            left = self
                .changed
                .wait_timeout(left, until - now)
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
        true
    }
}

/// Dropped when a worker's loop ends, however it ends.
pub struct Leaving<'a>(&'a Workers);

impl Drop for Leaving<'_> {
    fn drop(&mut self) {
        let mut left = self.0.left.lock().unwrap_or_else(|e| e.into_inner());
        *left = left.saturating_sub(1);
        self.0.changed.notify_all();
    }
}

/// How often the bots are killed again once the budget is spent.
const KILL_AGAIN: Duration = Duration::from_millis(20);

/// Wait for the deadline (or for the workers to end before it); at the
/// deadline set `spent`, `halt` the suite (no scenario starts any more) and
/// kill the bots still running, again and again while a worker is left (a
/// bot started just as the deadline came is killed by the next round).
/// `kill`: [`kill_running_bots`] (a test's stand-in elsewhere).
pub fn watch(
    budget: &Budget,
    workers: &Workers,
    spent: &AtomicBool,
    halt: &dyn Fn(),
    kill: &dyn Fn(),
) {
    if workers.all_left_by(budget.deadline) {
        return;
    }
    spent.store(true, Ordering::SeqCst);
    halt();
    loop {
        kill();
        if workers.all_left_by(Instant::now() + KILL_AGAIN) {
            return;
        }
    }
}

/// Kill every bot process this protocheck started (not the guardian): a
/// protocheck run by `grade` grades one bot, so they are all this bot's.
/// Elsewhere than Linux nothing is killed here: a running scenario ends by
/// its own timeouts and is then listed as not run, and `grade` stops a
/// protocheck that overruns its bot's budget (see `grade::schedule`).
pub fn kill_running_bots() {
    crate::transport::guard::sweep(None);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::{Origin, Scenario};
    use std::sync::atomic::AtomicUsize;

    fn run(status: Status) -> ScenarioRun {
        let scenario = Scenario {
            name: "s".into(),
            game: "kalah".into(),
            about: None,
            rules: Vec::new(),
            spec: None,
            options: Default::default(),
            source: "s.yaml".into(),
            steps: Vec::new(),
            origin: Origin::File,
        };
        let mut run = ScenarioRun::not_run(&scenario, status);
        run.startup_failure = Some("io.crash");
        run
    }

    #[test]
    fn the_reason_names_the_option_and_the_limit_as_written() {
        assert_eq!(
            reason(Duration::from_secs(120)),
            "not run: --bot-time-limit 2m spent"
        );
        assert_eq!(
            reason(Duration::from_millis(1500)),
            "not run: --bot-time-limit 1s 500ms spent"
        );
    }

    #[test]
    fn a_scenario_counts_only_when_it_ended_before_the_deadline() {
        let budget = Budget::starting_now(Duration::from_secs(60));
        assert!(budget.counts(budget.deadline - Duration::from_millis(1)));
        assert!(!budget.counts(budget.deadline));
        assert!(!budget.counts(budget.deadline + Duration::from_secs(1)));
        assert!(!budget.spent());
        let gone = Budget {
            limit: Duration::from_secs(1),
            deadline: Instant::now() - Duration::from_millis(1),
        };
        assert!(gone.spent());
    }

    #[test]
    fn a_cut_scenario_is_not_run_never_a_failure() {
        let budget = Budget::starting_now(Duration::from_secs(5));
        let mut failed = run(Status::Failed);
        failed.result.error = Some("bot crashed".into());
        cut(&mut failed, &budget);
        assert_eq!(failed.result.status, Status::Skipped);
        assert_eq!(
            failed.result.skip_reason.as_deref(),
            Some("not run: --bot-time-limit 5s spent")
        );
        assert!(failed.result.violations.is_empty() && failed.result.error.is_none());
        // It cannot feed the early stop on start-up failures either.
        assert_eq!(failed.startup_failure, None);
        let last = failed.result.transcript.last().unwrap();
        assert!(matches!(last.dir, Direction::Note));
        assert!(
            last.text.contains("--bot-time-limit 5s spent"),
            "{}",
            last.text
        );
    }

    #[test]
    fn the_watcher_returns_at_once_when_the_workers_are_done() {
        let budget = Budget::starting_now(Duration::from_secs(3600));
        let (spent, stop) = (AtomicBool::new(false), AtomicBool::new(false));
        let workers = Workers::new(1);
        drop(workers.leaving());
        watch(
            &budget,
            &workers,
            &spent,
            &|| stop.store(true, Ordering::SeqCst),
            &|| {},
        );
        assert!(!spent.load(Ordering::SeqCst) && !stop.load(Ordering::SeqCst));
    }

    #[test]
    fn a_spent_budget_stops_the_suite() {
        let budget = Budget {
            limit: Duration::from_secs(1),
            deadline: Instant::now(),
        };
        let (spent, stop) = (AtomicBool::new(false), AtomicBool::new(false));
        let workers = Workers::new(1);
        let kills = AtomicUsize::new(0);
        let kill = || {
            kills.fetch_add(1, Ordering::SeqCst);
        };
        std::thread::scope(|s| {
            s.spawn(|| {
                watch(
                    &budget,
                    &workers,
                    &spent,
                    &|| stop.store(true, Ordering::SeqCst),
                    &kill,
                )
            });
            // The worker sees the stop, then leaves.
            while !stop.load(Ordering::SeqCst) {
                std::thread::sleep(Duration::from_millis(1));
            }
            drop(workers.leaving());
        });
        assert!(spent.load(Ordering::SeqCst));
        assert!(kills.load(Ordering::SeqCst) >= 1);
    }
}
