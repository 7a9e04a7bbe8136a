//! protocheck's own stop (Ctrl-C, SIGTERM, SIGHUP), as a token: `main`
//! makes one, its signal handler (`transport::signals`) sets it, and it is
//! passed down to whatever must stop (the pool, the suite, the TCP accept
//! loop, grade's children) instead of a process-wide flag each reads. The
//! command under way says what a stop means for it ([`OnStop`]); the
//! handler acts on that.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Instant;

/// The stop: the signal that ended the run (the first one counts), and
/// when.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Interrupt {
    pub signal: i32,
    pub at: Instant,
}

/// What a stop means for the command under way.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum OnStop {
    /// Kill every bot and leave at once (exit 2): no report is written.
    #[default]
    Leave,
    /// Kill every bot; the suite marks what is left interrupted and the
    /// report is still written (a second signal, or a deadline, leaves
    /// without it).
    Report,
    /// `grade`: the stop is passed on to the bots' own protocheck
    /// processes (through [`StopToken::watch`]), whose reports are still
    /// written.
    PassOn,
}

/// A cheap handle (one `Arc`) on one stop, shared by every clone.
#[derive(Clone, Default)]
pub struct StopToken(Arc<Shared>);

#[derive(Default)]
struct Shared {
    /// Set with `State::stop`, for loops that look often without the lock.
    stopped: AtomicBool,
    next_watch: AtomicU64,
    state: Mutex<State>,
}

type Watcher = Box<dyn Fn(Interrupt) + Send>;

#[derive(Default)]
struct State {
    stop: Option<Interrupt>,
    on_stop: OnStop,
    watchers: Vec<(u64, Watcher)>,
}

impl std::fmt::Debug for StopToken {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("StopToken")
            .field(&self.interruption())
            .finish()
    }
}

impl StopToken {
    pub fn new() -> StopToken {
        StopToken::default()
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        self.0.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Stop by `signal` (only the first stop counts) and run the watchers;
    /// what the stop means for the command under way.
    pub fn stop(&self, signal: i32) -> OnStop {
        let mut state = self.lock();
        if state.stop.is_none() {
            let interrupt = Interrupt {
                signal,
                at: Instant::now(),
            };
            state.stop = Some(interrupt);
            self.0.stopped.store(true, Ordering::SeqCst);
            for (_, watcher) in &state.watchers {
                watcher(interrupt);
            }
        }
        state.on_stop
    }

    pub fn is_stopped(&self) -> bool {
        self.0.stopped.load(Ordering::SeqCst)
    }

    /// The stop, once there is one.
    pub fn interruption(&self) -> Option<Interrupt> {
        self.lock().stop
    }

    /// Say what a stop means from now on; no change once stopped (the
    /// stop was handled as it meant then).
    pub fn set_on_stop(&self, on_stop: OnStop) {
        let mut state = self.lock();
        if state.stop.is_none() {
            state.on_stop = on_stop;
        }
    }

    /// What a stop means (or meant, once stopped).
    pub fn on_stop(&self) -> OnStop {
        self.lock().on_stop
    }

    /// Call `watcher` at the stop, on the stopping thread (at once when
    /// stopped already), until the returned guard is dropped. It runs under
    /// the token's lock: once the guard is dropped it never runs again (and
    /// it must not use this token itself).
    pub fn watch(&self, watcher: impl Fn(Interrupt) + Send + 'static) -> Watching {
        let id = self.0.next_watch.fetch_add(1, Ordering::SeqCst);
        let mut state = self.lock();
        if let Some(interrupt) = state.stop {
            watcher(interrupt);
        }
        state.watchers.push((id, Box::new(watcher)));
        Watching {
            token: self.clone(),
            id,
        }
    }
}

/// A watcher registered with [`StopToken::watch`], removed on drop.
#[must_use = "the watcher is removed when this is dropped"]
pub struct Watching {
    token: StopToken,
    id: u64,
}

impl Drop for Watching {
    fn drop(&mut self) {
        self.token.lock().watchers.retain(|(id, _)| *id != self.id);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicUsize;

    #[test]
    fn the_first_stop_counts_and_every_clone_sees_it() {
        let token = StopToken::new();
        let other = token.clone();
        assert!(!other.is_stopped() && other.interruption().is_none());
        token.stop(libc::SIGTERM);
        token.stop(libc::SIGINT);
        assert!(other.is_stopped());
        assert_eq!(other.interruption().map(|i| i.signal), Some(libc::SIGTERM));
    }

    #[test]
    fn what_a_stop_means_is_fixed_once_stopped() {
        let token = StopToken::new();
        assert_eq!(token.stop(libc::SIGINT), OnStop::Leave);
        let token = StopToken::new();
        token.set_on_stop(OnStop::Report);
        assert_eq!(token.stop(libc::SIGINT), OnStop::Report);
        token.set_on_stop(OnStop::Leave);
        assert_eq!(token.on_stop(), OnStop::Report);
    }

    #[test]
    fn a_watcher_runs_once_at_the_stop_and_never_after_its_guard_is_dropped() {
        let token = StopToken::new();
        let seen = Arc::new(AtomicUsize::new(0));
        let count = |seen: &Arc<AtomicUsize>| {
            let seen = seen.clone();
            move |_: Interrupt| {
                seen.fetch_add(1, Ordering::SeqCst);
            }
        };
        let kept = token.watch(count(&seen));
        drop(token.watch(count(&seen)));
        token.stop(libc::SIGINT);
        token.stop(libc::SIGINT);
        assert_eq!(seen.load(Ordering::SeqCst), 1);
        // Registered after the stop: called at once.
        let _late = token.watch(count(&seen));
        assert_eq!(seen.load(Ordering::SeqCst), 2);
        drop(kept);
    }
}
