//! Time as the bot would have had it on an idle machine.
//!
//! A course grades hundreds of bots side by side, and CI runners are shared:
//! a bot that needs 4 s of computing may take 14 s of wall time to answer
//! when the machine is loaded. The reference engines run one match on a
//! quiet machine, so a verdict must not depend on the load. protocheck
//! therefore judges a reply's time as the wall time less the time the bot's
//! busiest task was ready to run but waited for a CPU (Linux's per-task
//! scheduler statistics, `transport::cpu_wait`). The wall clock stays a
//! backstop: past [`BACKSTOP_FACTOR`] times the limit protocheck stops
//! waiting whatever the bot's own time says, and says so. Where the bot's
//! own time cannot be measured (another OS, a client protocheck did not
//! start) the wall time decides, as it always did.
//!
//! A bot that sleeps, or waits for input that never comes, is not waiting
//! for a CPU: its own time runs with the wall clock, and it is caught at the
//! limit as before.

use crate::transport::BotConnection;
use crate::transport::cpu_wait::TaskTimes;
use crate::verdict::{ReplyTiming, TimeFigure};
use std::collections::HashMap;
use std::time::{Duration, Instant};

/// Past this many times the limit of wall time, a reply is late whatever
/// the bot's own time.
pub(super) const BACKSTOP_FACTOR: u32 = 10;

/// When the clock first looks at the bot after a reply became due (a bot
/// that answers sooner is never looked at), and how far apart later looks
/// may grow (tasks that end between looks keep the counters last seen).
const FIRST_LOOK: Duration = Duration::from_millis(5);
const LOOK_MAX: Duration = Duration::from_millis(250);

/// A listening window that ends while the bot (or protocheck's reader of
/// it) is ready to run but not running is extended in steps this long;
/// in all, a window goes on at most [`WINDOW_EXTENSION_CAP`] or
/// [`BACKSTOP_FACTOR`] times its length, whichever is longer: output the
/// bot was about to write when the machine made it wait is still out of
/// turn.
const WINDOW_STEP: Duration = Duration::from_millis(2);
const WINDOW_EXTENSION_CAP: Duration = Duration::from_secs(2);

/// A window whose bot the machine starves (a task ready to run, and the bot
/// given less than [`STARVED_CPU`] of CPU in all since the window's end) goes on
/// past [`WINDOW_EXTENSION_CAP`], up to this long: a bot pinned beside busy
/// threads at idle priority waited 0.3 s per wake-up on average and 3.9 s at
/// worst here, and the line it was about to write out of turn is still out
/// of turn. A bot that computes, or many processes that spin, use more than
/// [`STARVED_CPU`] at once and keep the ordinary cap, so they do not slow
/// their own grading further.
const STARVED_WINDOW_CAP: Duration = Duration::from_secs(30);
const STARVED_CPU: Duration = Duration::from_millis(5);

/// The bot's own time since a reply became due.
#[derive(Debug)]
pub(super) struct BotClock {
    /// Counters at the first look, by task id; `None` before it.
    first: Option<HashMap<i32, (u64, u64)>>,
    /// The latest counters seen of every task.
    latest: HashMap<i32, (u64, u64)>,
    /// The counters cannot be read here: the wall time decides.
    unmeasurable: bool,
    first_look_at: Option<Instant>,
    /// Tasks ready to run at every look since the one recorded here,
    /// without having run in between (the same CPU time): waiting for a CPU
    /// all along, a wait the kernel adds to the task's counters only when
    /// it runs. By task id: (that look, the CPU time then, the latest look).
    queued: HashMap<i32, (Instant, u64, Instant)>,
    next_look: Instant,
    interval: Duration,
}

impl BotClock {
    pub(super) fn new(now: Instant) -> BotClock {
        BotClock {
            first: None,
            latest: HashMap::new(),
            unmeasurable: false,
            first_look_at: None,
            queued: HashMap::new(),
            next_look: now + FIRST_LOOK,
            interval: FIRST_LOOK,
        }
    }

    /// When the clock wants to look next, bounded by `deadline`.
    pub(super) fn wake(&self, deadline: Instant) -> Instant {
        if self.unmeasurable {
            deadline
        } else {
            self.next_look.min(deadline)
        }
    }

    /// Look if it is time.
    pub(super) fn tick(&mut self, conn: &BotConnection) {
        let now = Instant::now();
        if now >= self.next_look {
            self.interval = (self.interval * 2).min(LOOK_MAX);
            self.next_look = now + self.interval;
            self.look(conn);
        }
    }

    /// Look now.
    pub(super) fn look(&mut self, conn: &BotConnection) {
        if self.unmeasurable {
            return;
        }
        match conn.task_times() {
            Some(tasks) => self.take(&tasks),
            // Never measured: it cannot be, here. Measured before: the bot
            // has gone, and what was seen last stands.
            None if self.first.is_none() => self.unmeasurable = true,
            None => {}
        }
    }

    /// Take a look made elsewhere (one look can serve several questions).
    pub(super) fn take(&mut self, tasks: &[TaskTimes]) {
        self.take_at(tasks, Instant::now());
    }

    fn take_at(&mut self, tasks: &[TaskTimes], now: Instant) {
        let first_look = self.first.is_none();
        if first_look {
            self.first_look_at = Some(now);
        }
        for t in tasks {
            match self.queued.get_mut(&t.tid) {
                Some((_, ran, latest)) if t.runnable && *ran == t.ran_ns => *latest = now,
                _ if t.runnable => {
                    self.queued.insert(t.tid, (now, t.ran_ns, now));
                }
                _ => {
                    self.queued.remove(&t.tid);
                }
            }
        }
        let first = self.first.get_or_insert_with(HashMap::new);
        for t in tasks {
            // A task first seen after the first look started meanwhile,
            // with its counters at zero.
            first.entry(t.tid).or_insert(if first_look {
                (t.ran_ns, t.waited_ns)
            } else {
                (0, 0)
            });
            self.latest.insert(t.tid, (t.ran_ns, t.waited_ns));
        }
    }

    /// How long the bot's busiest task (the one that wanted a CPU the most
    /// since the first look) waited for one. `None` before the first look
    /// or where it cannot be measured.
    pub(super) fn cpu_wait(&self) -> Option<Duration> {
        let first = self.first.as_ref()?;
        if self.latest.is_empty() {
            return None;
        }
        let since_first = self.latest.iter().map(|(tid, &(ran, waited))| {
            let (ran0, waited0) = first.get(tid).copied().unwrap_or((0, 0));
            // A wait still going on counts from the first look that saw it
            // (a lower bound): a bot the machine has not let run for the
            // whole limit is not late by its own time.
            let ongoing = self
                .queued
                .get(tid)
                .filter(|&&(_, queued_ran, _)| queued_ran == ran)
                .map_or(0, |&(since, _, latest)| {
                    latest.saturating_duration_since(since).as_nanos() as u64
                });
            (
                ran.saturating_sub(ran0),
                waited.saturating_sub(waited0) + ongoing,
            )
        });
        Some(crate::transport::cpu_wait::busiest_wait(since_first))
    }

    /// CPU time the bot's tasks used since the first look.
    pub(super) fn ran(&self) -> Option<Duration> {
        let first = self.first.as_ref()?;
        let ns: u64 = self
            .latest
            .iter()
            .map(|(tid, &(ran, _))| ran.saturating_sub(first.get(tid).map_or(0, |f| f.0)))
            .sum();
        Some(Duration::from_nanos(ns))
    }

    /// Whether the bot used a CPU for at least a quarter of its own time
    /// since the first look (the time its busiest task waited for a CPU
    /// does not count, so a loaded machine does not hide a computing bot):
    /// it was computing, not waiting for input.
    pub(super) fn computing(&self) -> bool {
        // One look alone shows nothing of the time between looks.
        let since = self.since_first_look();
        let own = since.saturating_sub(self.cpu_wait().unwrap_or_default());
        match self.ran() {
            Some(ran) if !since.is_zero() => ran * 4 >= own,
            _ => false,
        }
    }

    fn since_first_look(&self) -> Duration {
        self.first_look_at.map_or(Duration::ZERO, |t| t.elapsed())
    }

    /// The bot's own time out of `wall`; `None` where it cannot be measured.
    pub(super) fn own(&self, wall: Duration) -> Option<Duration> {
        if self.unmeasurable {
            return None;
        }
        Some(wall.saturating_sub(self.cpu_wait().unwrap_or_default()))
    }

    /// At the reply deadline: how much longer the bot may take (its own
    /// time has not reached `limit` because it waited for a CPU, and the
    /// backstop is not reached), or `None`: the reply is late.
    pub(super) fn time_left(
        &mut self,
        conn: &BotConnection,
        wall: Duration,
        limit: Duration,
    ) -> Option<Duration> {
        self.look(conn);
        let own = self.own(wall)?;
        if own >= limit || wall >= limit * BACKSTOP_FACTOR {
            return None;
        }
        let left = (limit - own).max(Duration::from_millis(1));
        Some(left.min(limit * BACKSTOP_FACTOR - wall))
    }

    /// The figures of a late reply, after `wall` of waiting for it.
    pub(super) fn timing(&self, wall: Duration, limit: Duration) -> ReplyTiming {
        let own = self.own(wall);
        let decided_by = match own {
            None => TimeFigure::WallTime,
            Some(own) if own < limit => TimeFigure::Backstop,
            Some(_) => TimeFigure::OwnTime,
        };
        ReplyTiming {
            wall_ms: millis(wall),
            own_ms: own.map(millis),
            limit_ms: millis(limit),
            decided_by,
        }
    }
}

fn millis(d: Duration) -> u64 {
    d.as_millis() as u64
}

/// At the end of a listening window: whether it must go on, and for how
/// long. A window is the bot's own time, as a reply's is: it counts from
/// when protocheck's writer gave the bot its message, and the time the
/// bot's busiest task spent ready to run but waiting for a CPU does not
/// count (a bot that received `…;OPP`, waited 80 ms for a CPU, slept its
/// 30 ms and waited again still writes out of turn, and a 50 ms window of
/// wall time would have judged its line as the next reply). The window
/// also goes on while the bot has a task ready to run that the machine
/// keeps waiting (it has not run since the last look), or while
/// protocheck's own threads have not caught up (its writer has not yet
/// given the bot what protocheck sent, or its reader has not yet taken
/// what the bot wrote). It never goes on past [`WindowEnd::cap`].
pub(super) struct WindowEnd {
    window: Duration,
    opened: Instant,
    /// The bot's own time since the window opened.
    clock: BotClock,
    /// The last look's CPU time of each task (the first look at the end
    /// of the window only asks to look again).
    previous: Option<HashMap<i32, u64>>,
    /// CPU time of each task at the window's end (the first look past it).
    at_end: Option<HashMap<i32, u64>>,
    extended: Duration,
}

impl WindowEnd {
    /// Open a window of `window`. The bot's counters are read at the first
    /// [`WindowEnd::baseline`]: from then on, what the machine keeps it
    /// waiting is known.
    pub(super) fn open(window: Duration) -> WindowEnd {
        let opened = Instant::now();
        WindowEnd {
            window,
            opened,
            clock: BotClock::new(opened),
            previous: None,
            at_end: None,
            extended: Duration::ZERO,
        }
    }

    /// Read the bot's counters, once: at the first look that finds it
    /// busy (a window that ends because the bot is provably idle never
    /// needs them, and most windows do; a look costs tens of µs), or at
    /// once where idleness cannot be told. A wait for a CPU still going on
    /// at this look is counted whole when it ends (the kernel adds a wait
    /// when the task runs), so the wait of a bot woken by protocheck's
    /// message is not lost.
    pub(super) fn baseline(&mut self, conn: &BotConnection) {
        if !self.window.is_zero() && self.clock.first.is_none() {
            self.clock.look(conn);
        }
    }

    /// The most a window goes on past its length, whatever the load.
    fn cap(&self) -> Duration {
        WINDOW_EXTENSION_CAP.max(self.window * BACKSTOP_FACTOR)
    }

    /// How much longer the window listens (`None`: it ends now).
    pub(super) fn extension(&mut self, conn: &BotConnection) -> Option<Duration> {
        if self.window.is_zero() {
            return None;
        }
        // One look serves every question, so that "has not run since the
        // last look" always compares two looks in a row.
        let tasks = conn.task_times();
        let (more, cap) = match &tasks {
            Some(tasks) => {
                self.clock.take(tasks);
                let start = conn
                    .delivered_at()
                    .map_or(self.opened, |at| at.max(self.opened));
                let own = self.clock.own(start.elapsed());
                let short = own
                    .filter(|&own| own < self.window)
                    .map(|own| (self.window - own).max(WINDOW_STEP));
                let (waiting, cap) = self.waiting_and_cap(tasks);
                (short.or(waiting.then_some(WINDOW_STEP)), cap)
            }
            None => (None, self.cap()),
        };
        if self.extended >= cap {
            return None;
        }
        let more = more.or((conn.reader_busy() || conn.writes_pending()).then_some(WINDOW_STEP))?;
        let more = more.min(cap - self.extended);
        self.extended += more;
        Some(more)
    }

    /// Whether the machine keeps the bot waiting at this look, and how far
    /// past its length the window may go on: further while the bot is
    /// starved (see [`STARVED_WINDOW_CAP`]).
    fn waiting_and_cap(&mut self, tasks: &[TaskTimes]) -> (bool, Duration) {
        let kept_waiting = self.kept_waiting(tasks);
        // Ready to run and given next to no CPU since the window's end,
        // whether or not it ran a little since the last look (preempted
        // before its write, it is queued again).
        let starved = tasks.iter().any(|t| t.runnable) && self.ran_since_end(tasks) < STARVED_CPU;
        let waiting = kept_waiting || starved;
        let cap = if starved {
            self.cap().max(STARVED_WINDOW_CAP)
        } else {
            self.cap()
        };
        (waiting, cap)
    }

    /// CPU time the bot's tasks have had since the window's end (the first
    /// call is the end: it records the counters and answers zero; a task
    /// born since counts whole).
    fn ran_since_end(&mut self, tasks: &[TaskTimes]) -> Duration {
        let at_end = self
            .at_end
            .get_or_insert_with(|| tasks.iter().map(|t| (t.tid, t.ran_ns)).collect());
        let ns: u64 = tasks
            .iter()
            .map(|t| {
                t.ran_ns
                    .saturating_sub(at_end.get(&t.tid).copied().unwrap_or(0))
            })
            .sum();
        Duration::from_nanos(ns)
    }

    /// Whether the bot has a task ready to run that has not run since the
    /// last look (the first look only asks to look again: a runnable task
    /// may be running). A bot that computes out of turn runs, so it does
    /// not keep the window open.
    fn kept_waiting(&mut self, tasks: &[TaskTimes]) -> bool {
        let ran: HashMap<i32, u64> = tasks.iter().map(|t| (t.tid, t.ran_ns)).collect();
        let waiting = match &self.previous {
            None => tasks.iter().any(|t| t.runnable),
            Some(before) => tasks
                .iter()
                .any(|t| t.runnable && before.get(&t.tid) == Some(&t.ran_ns)),
        };
        self.previous = Some(ran);
        waiting
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn task(tid: i32, ran_ms: u64, waited_ms: u64) -> TaskTimes {
        TaskTimes {
            tid,
            ran_ns: ran_ms * 1_000_000,
            waited_ns: waited_ms * 1_000_000,
            runs: 1,
            runnable: false,
        }
    }

    fn queued(tid: i32, ran_us: u64) -> TaskTimes {
        TaskTimes {
            tid,
            ran_ns: ran_us * 1_000,
            waited_ns: 0,
            runs: 1,
            runnable: true,
        }
    }

    #[test]
    fn a_bot_the_machine_starves_keeps_its_window_open_past_the_ordinary_cap() {
        // Ready to run at every look and given 3 ms of CPU in all since the
        // window's end (it was preempted before its write): its line is
        // still out of turn, however long the machine makes it wait.
        let mut end = WindowEnd::open(Duration::from_millis(50));
        let ordinary = end.cap();
        assert_eq!(
            end.waiting_and_cap(&[queued(7, 1_000)]),
            (true, STARVED_WINDOW_CAP)
        );
        assert_eq!(
            end.waiting_and_cap(&[queued(7, 1_000)]),
            (true, STARVED_WINDOW_CAP)
        );
        assert_eq!(
            end.waiting_and_cap(&[queued(7, 4_000)]).1,
            STARVED_WINDOW_CAP
        );
        assert!(ordinary < STARVED_WINDOW_CAP);
    }

    #[test]
    fn a_bot_that_gets_the_cpu_keeps_the_ordinary_cap() {
        // Many processes that spin: one is always queued, but the bot as a
        // whole runs, so its window ends at the ordinary cap.
        let mut end = WindowEnd::open(Duration::from_millis(50));
        let ordinary = end.cap();
        end.waiting_and_cap(&[queued(7, 0), queued(8, 0)]);
        assert_eq!(
            end.waiting_and_cap(&[queued(7, 0), queued(8, 9_000)]),
            (true, ordinary)
        );
        // A bot asleep is not kept waiting at all.
        let mut end = WindowEnd::open(Duration::from_millis(50));
        let asleep = TaskTimes {
            runnable: false,
            ..queued(7, 0)
        };
        assert_eq!(end.waiting_and_cap(&[asleep]), (false, ordinary));
    }

    fn clock_after(looks: &[&[TaskTimes]]) -> BotClock {
        let mut c = BotClock::new(Instant::now());
        for l in looks {
            c.take(l);
        }
        c
    }

    #[test]
    fn a_wait_still_going_on_counts_from_the_first_look_that_saw_it() {
        // Ready to run at three looks over 9 s without running: the kernel
        // has not added that wait yet, but the bot has not had its time.
        let start = Instant::now();
        let queued = |ran_ms| TaskTimes {
            runnable: true,
            ..task(1, ran_ms, 50)
        };
        let mut c = BotClock::new(start);
        c.take_at(&[queued(100)], start);
        c.take_at(&[queued(100)], start + Duration::from_secs(4));
        c.take_at(&[queued(100)], start + Duration::from_secs(9));
        assert_eq!(c.cpu_wait(), Some(Duration::from_secs(9)));
        // Once it ran, the kernel's counters say it all.
        c.take_at(&[task(1, 101, 10_050)], start + Duration::from_secs(10));
        assert_eq!(c.cpu_wait(), Some(Duration::from_secs(10)));
        // Running between looks (its CPU time moved) is no wait.
        let mut c = BotClock::new(start);
        c.take_at(&[queued(100)], start);
        c.take_at(&[queued(900)], start + Duration::from_secs(1));
        assert_eq!(c.cpu_wait(), Some(Duration::ZERO));
    }

    #[test]
    fn own_time_is_the_wall_time_less_the_busiest_tasks_wait() {
        // Main thread computed 4 s and waited 10 s for a CPU; a helper
        // thread ran a little and waited more than either.
        let c = clock_after(&[
            &[task(1, 100, 50), task(2, 10, 10)],
            &[task(1, 4_100, 10_050), task(2, 30, 11_000)],
        ]);
        assert_eq!(c.cpu_wait(), Some(Duration::from_secs(10)));
        assert_eq!(
            c.own(Duration::from_millis(14_200)),
            Some(Duration::from_millis(4_200))
        );
    }

    #[test]
    fn computing_is_judged_in_the_bots_own_time() {
        // 1.5 s of CPU in 6.6 s of wall time, 5 s of it waiting for a CPU:
        // computing all its own time, on a loaded machine.
        let mut c = clock_after(&[&[task(1, 0, 0)], &[task(1, 1_500, 5_000)]]);
        c.first_look_at = Some(Instant::now() - Duration::from_millis(6_600));
        assert!(c.computing());
        // Asleep: no CPU used, nothing waited.
        let mut c = clock_after(&[&[task(1, 0, 0)], &[task(1, 0, 0)]]);
        c.first_look_at = Some(Instant::now() - Duration::from_millis(6_600));
        assert!(!c.computing());
        // A single look shows nothing.
        let c = clock_after(&[&[task(1, 0, 0)]]);
        assert!(!c.computing());
    }

    #[test]
    fn a_task_born_after_the_first_look_counts_from_zero() {
        let c = clock_after(&[&[task(1, 5, 0)], &[task(1, 6, 0), task(9, 900, 3_000)]]);
        assert_eq!(c.cpu_wait(), Some(Duration::from_secs(3)));
    }

    #[test]
    fn a_task_that_ended_keeps_what_was_seen_last() {
        let c = clock_after(&[
            &[task(1, 0, 0), task(2, 0, 0)],
            &[task(1, 0, 0), task(2, 500, 700)],
            &[task(1, 1, 0)],
        ]);
        assert_eq!(c.cpu_wait(), Some(Duration::from_millis(700)));
    }

    #[test]
    fn before_any_look_the_own_time_is_the_wall_time() {
        let c = BotClock::new(Instant::now());
        assert_eq!(c.cpu_wait(), None);
        assert_eq!(c.own(Duration::from_secs(3)), Some(Duration::from_secs(3)));
    }

    #[test]
    fn unmeasurable_means_the_wall_time_decides() {
        let mut c = BotClock::new(Instant::now());
        c.unmeasurable = true;
        assert_eq!(c.own(Duration::from_secs(3)), None);
        let t = c.timing(Duration::from_secs(3), Duration::from_secs(2));
        assert_eq!(t.decided_by, TimeFigure::WallTime);
        assert_eq!(t.own_ms, None);
    }

    #[test]
    fn the_figure_that_decided_is_named() {
        let busy = clock_after(&[&[task(1, 0, 0)], &[task(1, 3_000, 7_000)]]);
        let t = busy.timing(Duration::from_secs(10), Duration::from_secs(2));
        assert_eq!(
            t.decided_by,
            TimeFigure::OwnTime,
            "3 s of its own time is over 2 s"
        );
        let t = busy.timing(Duration::from_secs(10), Duration::from_secs(4));
        assert_eq!(t.decided_by, TimeFigure::Backstop);
        assert_eq!(t.own_ms, Some(3_000));
        let quiet = clock_after(&[&[task(1, 0, 0)], &[task(1, 2_000, 0)]]);
        let t = quiet.timing(Duration::from_secs(2), Duration::from_secs(2));
        assert_eq!(t.decided_by, TimeFigure::OwnTime);
    }
}
