//! Pacing: how long protocheck listens for output the bot sends out of turn,
//! and how it tells early that a bot will never answer.
//!
//! Every listening window (start-up, `expect: silence`, `wait:`, the pause
//! before protocheck's own move in generated play) ends as soon as the bot is
//! *provably idle* (see `transport::idle`): it has read everything and sleeps
//! reading its input, so it cannot write anything until protocheck does. A
//! bot that wrote out of turn did so before going idle, and its line is in
//! the queue by then, so this shortcut never changes a verdict. The proof
//! covers the runtimes courses use (a JVM's threads, GHC's, Node's and
//! Racket's event loops, Python's threads: docs/performance.md, "Which waits
//! are idle"). Where idleness cannot be proved (a bot with a timer, a
//! socket, another OS) the window runs its
//! length: the game's full window where out-of-turn output is most likely,
//! elsewhere a window that follows the bot's own pace. An explicit
//! `--silence` (or scenario `silence:`) fixes the windows it sizes (start-up,
//! `expect: silence`, the end of the steps, the pauses of generated play):
//! those are exactly as long as asked. Scripted `wait:` windows, which the
//! silence does not size, still end as soon as the bot is provably idle, so
//! `--silence 0` is the fastest setting.
//!
//! On a loaded machine a window is the bot's own time, as a reply's is: the
//! time the machine kept the bot waiting for a CPU does not count, and a
//! window that ends while the bot is ready to run goes on a little
//! (`timing::WindowEnd`): what the machine delayed is still out of turn,
//! and a verdict must not depend on the load.

use super::Run;
use super::seat::{IdleSeed, SeatId};
use super::timing::WindowEnd;
use crate::transport::BotConnection;
use std::time::{Duration, Instant};

/// The pace window: this many times the bot's slowest reply so far, plus
/// the margin, clamped between the floor and the cap.
const PACE_FACTOR: u32 = 3;
const PACE_MARGIN: Duration = Duration::from_millis(10);
const PACE_FLOOR: Duration = Duration::from_millis(20);
const PACE_CAP: Duration = Duration::from_secs(1);

/// The longest the start-up window waits for a bot that has not run yet,
/// and how much longer it waits each time it finds it so.
const STARTUP_CAP: Duration = Duration::from_millis(500);
const STARTUP_STEP: Duration = Duration::from_millis(10);

/// How often a listening window looks at the bot (growing to the maximum).
const LISTEN_PROBE_FIRST: Duration = Duration::from_micros(200);
const LISTEN_PROBE_MAX: Duration = Duration::from_millis(4);
/// How often a wait for a due reply looks at the bot: a bot that answers
/// within a few milliseconds is never looked at.
const REPLY_PROBE_FIRST: Duration = Duration::from_millis(5);
const REPLY_PROBE_MAX: Duration = Duration::from_millis(40);

/// Successive looks at a bot, until it is proved idle: two looks in a row
/// that find all its tasks idle, with none of them run by the scheduler in
/// between (`transport::idle::Schedule`); where those counters cannot be
/// read, the two looks at least one probe interval apart with no CPU time
/// used in between.
pub(super) struct IdleWatch {
    next: Option<Instant>,
    interval: Duration,
    max: Duration,
    last_idle: Option<IdleSeed>,
    /// The latest look found the bot doing something (not idle).
    saw_busy: bool,
}

impl IdleWatch {
    pub(super) fn for_listening(enabled: bool) -> IdleWatch {
        IdleWatch::new(enabled, LISTEN_PROBE_FIRST, LISTEN_PROBE_MAX)
    }

    pub(super) fn for_reply(enabled: bool) -> IdleWatch {
        IdleWatch::new(enabled, REPLY_PROBE_FIRST, REPLY_PROBE_MAX)
    }

    fn new(enabled: bool, first: Duration, max: Duration) -> IdleWatch {
        IdleWatch {
            next: enabled.then(|| Instant::now() + first),
            interval: first,
            max,
            last_idle: None,
            saw_busy: false,
        }
    }

    /// When to look next, if at all, bounded by `deadline`.
    pub(super) fn wake(&self, deadline: Instant) -> Instant {
        self.next.map_or(deadline, |n| n.min(deadline))
    }

    /// Whether idleness can be told here (false once a look found it cannot
    /// be, or when the watch was never enabled).
    pub(super) fn can_tell(&self) -> bool {
        self.next.is_some()
    }

    /// Whether the latest look found the bot busy (running, ready to run,
    /// or asleep elsewhere than reading its input).
    pub(super) fn saw_busy(&self) -> bool {
        self.saw_busy
    }

    /// Start from an earlier look that found the bot idle (taken after
    /// everything protocheck sent it was delivered): the next look in this
    /// window that finds the bot still idle, with none of its tasks run in
    /// between, completes the proof. So a bot that went idle while
    /// protocheck dealt with another seat is proved idle at once, by the
    /// same two looks. Without the scheduler's counters that look comes at
    /// least one probe interval after the seed.
    pub(super) fn seed(&mut self, seed: IdleSeed) {
        if self.next.is_some() {
            self.last_idle = Some(seed);
            self.next = Some(match seed.schedule {
                Some(_) => seed.at,
                None => seed.at + self.interval,
            });
        }
    }

    /// The bot did something: what was seen so far proves nothing.
    pub(super) fn saw_activity(&mut self) {
        self.last_idle = None;
    }

    /// Look if it is time; true once the bot is proved idle.
    pub(super) fn proved(&mut self, conn: &BotConnection) -> bool {
        let Some(next) = self.next else {
            return false;
        };
        let now = Instant::now();
        if now < next {
            return false;
        }
        self.interval = (self.interval * 2).min(self.max);
        self.next = Some(now + self.interval);
        let sample = conn.idle_sample();
        self.saw_busy = sample.is_some_and(|s| !s.idle);
        match sample {
            None => {
                self.next = None; // cannot be told here: windows and timeouts decide
                false
            }
            Some(s) if s.idle => {
                // One look could catch a task between two of its reads
                // (seen under load: a reply proved missing that was on its
                // way). Two looks in a row prove it: with the scheduler's
                // counters, none of the tasks ran in between, so the second
                // may follow at once; without them, the second at least one
                // probe interval after the first, with no CPU time used.
                let look = IdleSeed {
                    at: now,
                    cpu: s.cpu,
                    schedule: s.schedule,
                };
                let proved = self.last_idle.is_some_and(|last| proves_idle(&last, &look));
                if look.schedule.is_some() && self.last_idle.is_none() {
                    self.next = Some(now); // the second look at once
                }
                self.last_idle = Some(look);
                proved
            }
            Some(_) => {
                self.last_idle = None;
                false
            }
        }
    }
}

/// Whether two looks that both found the bot idle prove it idle: none of
/// its tasks (nor protocheck's reader) ran in between, by the scheduler's
/// counters where both looks have them; otherwise no CPU tick used, the
/// second at least [`LISTEN_PROBE_FIRST`] after the first.
fn proves_idle(first: &IdleSeed, second: &IdleSeed) -> bool {
    match (first.schedule, second.schedule) {
        (Some(a), Some(b)) => a == b,
        _ => {
            first.cpu == second.cpu
                && second.at.saturating_duration_since(first.at) >= LISTEN_PROBE_FIRST
        }
    }
}

impl Run<'_> {
    /// Listen for a window the silence sizes (`expect: silence`, the end of
    /// the steps, the pauses of generated play); everything that arrives is
    /// out of turn. Ends early once the bot is provably idle, unless the
    /// user fixed the silence (`--silence`, `silence:`): then it is exactly
    /// as long as asked.
    pub(super) fn listen(&mut self, window: Duration) {
        self.listen_for(window, false, self.seats[self.at].time.explicit_silence);
    }

    /// Listen for a scripted `wait:`. The silence does not size it, so an
    /// explicit silence does not fix it either: it ends early once the bot
    /// is provably idle (`--silence 0` is the fast setting, not a slow one).
    pub(super) fn listen_for_wait(&mut self, window: Duration) {
        self.listen_for(window, false, false);
    }

    /// The start-up window: as [`Run::listen`], but while the bot has not
    /// run at all yet (no CPU time, not idle: on a loaded machine a process
    /// can take longer than the window to be scheduled) the window waits for
    /// it, up to [`STARTUP_CAP`], so a banner it prints at once is still seen
    /// before protocheck's first message. Where the bot cannot be looked at,
    /// the window is as asked.
    pub(super) fn listen_at_startup(&mut self, window: Duration) {
        self.listen_for(
            window,
            !self.seats[self.at].time.explicit_silence,
            self.seats[self.at].time.explicit_silence,
        );
    }

    fn listen_for(&mut self, window: Duration, until_started: bool, fixed: bool) {
        self.seats[self.at].inbox.unobserved_write = false;
        let opened = Instant::now();
        let mut deadline = opened + window;
        let mut watch = IdleWatch::for_listening(!fixed);
        // A look taken while another seat played counts only if nothing
        // was delivered to this bot after it.
        if let Some(seed) = self.seats[self.at].time.idle_seed.take()
            && self.seats[self.at]
                .inbox
                .conn
                .delivered_at()
                .is_none_or(|at| at <= seed.at)
        {
            watch.seed(seed);
        }
        let mut window_end = WindowEnd::open(window);
        if !watch.can_tell() {
            window_end.baseline(&self.seats[self.at].inbox.conn);
        }
        let mut heard = false;
        loop {
            match self.next_event(watch.wake(deadline)) {
                Some(event) => {
                    heard = true;
                    watch.saw_activity();
                    self.idle_event(event);
                    if self.gone() {
                        break;
                    }
                }
                None if Instant::now() >= deadline => {
                    let now = Instant::now();
                    // Output the machine kept the bot from writing in time
                    // is still out of turn: a bot kept waiting for a CPU at
                    // the window's end gets the window it was meant to have.
                    if let Some(more) = window_end.extension(&self.seats[self.at].inbox.conn) {
                        deadline = now + more;
                        continue;
                    }
                    let not_started = until_started
                        && !heard
                        && now < opened + STARTUP_CAP
                        && self.seats[self.at]
                            .inbox
                            .conn
                            .idle_sample()
                            .is_some_and(|s| !s.idle && s.cpu == 0);
                    if !not_started {
                        break;
                    }
                    deadline = (now + STARTUP_STEP).min(opened + STARTUP_CAP);
                }
                None => {
                    if watch.proved(&self.seats[self.at].inbox.conn) {
                        // Whatever the bot wrote before it went idle is
                        // queued already: take it, then stop listening.
                        while let Some(event) = self.next_event(Instant::now()) {
                            self.idle_event(event);
                            if self.gone() {
                                break;
                            }
                        }
                        break;
                    }
                    if watch.saw_busy() || !watch.can_tell() {
                        window_end.baseline(&self.seats[self.at].inbox.conn);
                    }
                }
            }
        }
        self.seats[self.at].time.listened += opened.elapsed();
        // A window the bot kept quiet checked the rule its output would
        // have broken (a window of no length checked nothing).
        if !heard
            && !window.is_zero()
            && !self.gone()
            && let Some(rule) = self.session.quiet_rule()
        {
            self.passed(&[rule]);
        }
    }

    /// `protocheck match`: look at a seat that waits for another seat's
    /// move; a look that finds it idle is the first of the two that prove
    /// it idle in its next window (the pause before that move is relayed
    /// to it), so the pause overlaps the other bot's turn instead of
    /// following it. The window is not shortened: it still ends only once
    /// the bot is proved idle, or at its length.
    pub(super) fn look_while_waiting(&mut self, seat: SeatId) {
        let time = &self.seats[seat].time;
        if time.explicit_silence || time.pause.is_zero() {
            // Fixed windows never end early; without pauses (QTP) there is
            // no window to prove: a look would be wasted.
            return;
        }
        let sample = self.seats[seat].inbox.conn.idle_sample();
        self.seats[seat].time.idle_seed = sample.filter(|s| s.idle).map(|s| IdleSeed {
            at: Instant::now(),
            cpu: s.cpu,
            schedule: s.schedule,
        });
    }

    /// How long to listen before protocheck's own move in generated play.
    pub(super) fn pause_window(&self) -> Duration {
        if self.seats[self.at].time.explicit_silence || self.seats[self.at].time.pause.is_zero() {
            return self.seats[self.at].time.pause;
        }
        let pace = (self.seats[self.at].time.slowest_reply * PACE_FACTOR + PACE_MARGIN)
            .clamp(PACE_FLOOR, PACE_CAP);
        if self.session.silence_matters() {
            pace.max(self.seats[self.at].time.pause)
        } else {
            pace
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_disabled_watch_never_proves_and_waits_for_the_deadline() {
        let deadline = Instant::now() + Duration::from_secs(3);
        let watch = IdleWatch::for_listening(false);
        assert_eq!(watch.wake(deadline), deadline);
    }

    fn look(after_us: u64, cpu: u64, runs: Option<u64>) -> IdleSeed {
        let start = *START.get_or_init(Instant::now);
        IdleSeed {
            at: start + Duration::from_micros(after_us),
            cpu,
            schedule: runs.map(|runs| crate::transport::idle::Schedule {
                tasks: 2,
                tids: 7,
                ran_ns: 1000,
                runs,
            }),
        }
    }
    static START: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();

    #[test]
    fn two_idle_looks_prove_idleness_by_the_scheduler_counters_or_else_by_time() {
        // Same counters: nothing ran in between, however close the looks.
        assert!(proves_idle(&look(0, 5, Some(9)), &look(1, 5, Some(9))));
        // A task was scheduled in between: no proof, even with the same
        // CPU ticks (ticks are 10 ms coarse).
        assert!(!proves_idle(&look(0, 5, Some(9)), &look(500, 5, Some(10))));
        // Without counters on either look: the ticks, and the spacing.
        assert!(proves_idle(&look(0, 5, None), &look(200, 5, Some(9))));
        assert!(!proves_idle(&look(0, 5, None), &look(100, 5, None)));
        assert!(!proves_idle(&look(0, 5, None), &look(300, 6, None)));
    }

    #[test]
    fn an_enabled_watch_looks_early_and_backs_off() {
        let deadline = Instant::now() + Duration::from_secs(3);
        let watch = IdleWatch::for_reply(true);
        assert!(watch.wake(deadline) < deadline);
        assert!(REPLY_PROBE_FIRST <= REPLY_PROBE_MAX && LISTEN_PROBE_FIRST <= LISTEN_PROBE_MAX);
    }
}
