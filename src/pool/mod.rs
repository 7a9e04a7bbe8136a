//! The one worker pool: the suite's scenarios, grade's bots and match's
//! games all run on it. It runs jobs `0..count` on up to `jobs` threads,
//! each on a thread of its own, and gives their results back by index,
//! whatever order they finished in, so nothing built on it depends on
//! `--jobs`. It reports each start and end (for progress lines), starts
//! nothing more once protocheck is stopped ([`StopToken`]) or its owner
//! halts it, and turns a job's panic into that job's outcome, never a
//! crash of the others. It waits on a channel: it never polls.

mod stop;

pub use stop::{Interrupt, OnStop, StopToken, Watching};

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;

/// One job as it starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Job {
    pub index: usize,
    /// How many of the pool's slots it holds: 1, or more with
    /// [`Pool::spare_slots_to_the_last`].
    pub slots: usize,
}

/// How a job ended.
#[derive(Debug, PartialEq, Eq)]
pub enum Outcome<T> {
    Done(T),
    /// It panicked (the panic's message), or no thread could be started
    /// for it.
    Panicked(String),
    /// Never started: protocheck was stopped or the pool halted first.
    NotRun,
}

/// What a pool reports while it runs, on the thread that called
/// [`Pool::run`].
#[derive(Debug)]
pub enum Event<'a, T> {
    Started {
        index: usize,
        slots: usize,
    },
    Finished {
        index: usize,
        slots: usize,
        outcome: &'a Outcome<T>,
    },
}

pub struct Pool {
    jobs: usize,
    spare: bool,
    stop: StopToken,
    halted: AtomicBool,
}

impl Pool {
    /// Up to `jobs` jobs at once (at least one), none started after `stop`.
    pub fn new(jobs: usize, stop: &StopToken) -> Pool {
        Pool {
            jobs: jobs.max(1),
            spare: false,
            stop: stop.clone(),
            halted: AtomicBool::new(false),
        }
    }

    /// When fewer jobs are left than free slots, a job starts with the
    /// slots no job after it will need (see [`share`]): `grade` gives them
    /// to a bot's scenarios.
    pub fn spare_slots_to_the_last(mut self) -> Pool {
        self.spare = true;
        self
    }

    /// Start no job after this (from a job, or any thread); the running
    /// ones finish.
    pub fn halt(&self) {
        self.halted.store(true, Ordering::SeqCst);
    }

    /// Whether no job starts any more (halted, or protocheck stopped).
    pub fn halted(&self) -> bool {
        self.halted.load(Ordering::SeqCst) || self.stop.is_stopped()
    }

    /// Run `job` for every index below `count`; the outcomes by index.
    /// `observe` sees each start and end, on this thread.
    pub fn run<T, F>(
        &self,
        count: usize,
        job: F,
        observe: &mut dyn FnMut(Event<'_, T>),
    ) -> Vec<Outcome<T>>
    where
        T: Send,
        F: Fn(Job) -> T + Sync,
    {
        let mut outcomes: Vec<Outcome<T>> = (0..count).map(|_| Outcome::NotRun).collect();
        let (done_tx, done_rx) = mpsc::channel::<(Job, Outcome<T>)>();
        let job = &job;
        std::thread::scope(|scope| {
            let (mut free, mut next, mut running) = (self.jobs, 0, 0);
            loop {
                // Checked only here: a stop or halt that comes while every
                // slot is taken has nothing to prevent until one frees.
                while free > 0 && next < count && !self.halted() {
                    let slots = if self.spare {
                        share(free, count - next)
                    } else {
                        1
                    };
                    let started = Job { index: next, slots };
                    next += 1;
                    observe(Event::Started {
                        index: started.index,
                        slots,
                    });
                    let done = done_tx.clone();
                    let spawned = std::thread::Builder::new()
                        .name(format!("pool-{}", started.index))
                        .spawn_scoped(scope, move || {
                            let outcome =
                                match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                                    job(started)
                                })) {
                                    Ok(value) => Outcome::Done(value),
                                    Err(panic) => Outcome::Panicked(panic_message(&*panic)),
                                };
                            let _ = done.send((started, outcome));
                        });
                    match spawned {
                        Ok(_) => {
                            free -= slots;
                            running += 1;
                        }
                        Err(e) => {
                            let i = started.index;
                            outcomes[i] = Outcome::Panicked(format!("cannot start a thread: {e}"));
                            observe(Event::Finished {
                                index: i,
                                slots,
                                outcome: &outcomes[i],
                            });
                        }
                    }
                }
                if running == 0 {
                    break;
                }
                // Every running job holds a sender until it has sent.
                let Ok((ended, outcome)) = done_rx.recv() else {
                    break;
                };
                free += ended.slots;
                running -= 1;
                outcomes[ended.index] = outcome;
                observe(Event::Finished {
                    index: ended.index,
                    slots: ended.slots,
                    outcome: &outcomes[ended.index],
                });
            }
        });
        outcomes
    }
}

/// A job's share of the `free` slots when `waiting` jobs (it included)
/// are still to start: one each while there are more jobs than slots; the
/// slots no later job needs go to it, so a few jobs still use every slot.
pub fn share(free: usize, waiting: usize) -> usize {
    (free / waiting.max(1)).max(1)
}

/// What a panic said, when it said it as text.
pub fn panic_message(panic: &(dyn std::any::Any + Send)) -> String {
    panic
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_else(|| "unknown panic".into())
}

#[cfg(test)]
mod tests;
