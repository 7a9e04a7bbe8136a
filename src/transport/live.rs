//! The registry of live bots: every process group protocheck started and
//! has not yet reaped, with what the monitor learns of each ([`Watch`]),
//! and protocheck's own stop once a signal came. The spawner registers
//! (`process`), the monitor and the sweeps read it (`guard`), an interrupt
//! kills what it holds; it depends on neither, so neither depends on the
//! other through it.

use super::limits::{LimitHit, ResourceLimits};
use super::sandbox::DiskCap;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Instant;

/// What protocheck knows about one running bot: its tag, its limits, the
/// peak usage seen, and the first limit it hit.
#[derive(Debug)]
pub struct Watch {
    pub tag: String,
    pub limits: ResourceLimits,
    hit: Mutex<Option<LimitHit>>,
    pub(super) peak_memory: AtomicU64,
    /// The bot's disk cap, which the monitor measures now and then.
    pub disk: Option<Arc<DiskCap>>,
}

impl Watch {
    pub fn new(tag: String, limits: ResourceLimits, disk: Option<Arc<DiskCap>>) -> Watch {
        Watch {
            tag,
            limits,
            hit: Mutex::new(None),
            peak_memory: AtomicU64::new(0),
            disk,
        }
    }

    /// The first limit the monitor saw the bot hit.
    pub fn hit(&self) -> Option<LimitHit> {
        self.hit.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// The largest VmPeak seen among the bot's processes, in bytes.
    pub fn peak_memory(&self) -> u64 {
        self.peak_memory.load(Ordering::Relaxed)
    }

    #[cfg(target_os = "linux")]
    pub(super) fn record_hit(&self, hit: LimitHit) {
        let mut slot = self.hit.lock().unwrap_or_else(|e| e.into_inner());
        if slot.is_none() {
            *slot = Some(hit);
        }
    }
}

/// Bots that are alive right now (by main pid = process group id), so an
/// interrupt can kill them all and the monitor can watch them; and the
/// interrupt, once one has happened (then nothing new may start).
#[derive(Default)]
pub(super) struct Live {
    pub(super) groups: HashMap<i32, Arc<Watch>>,
    pub(super) interrupted: Option<Interrupt>,
}

impl Live {
    /// protocheck is being stopped by `signal` (the first one counts).
    pub(super) fn interrupt(&mut self, signal: i32) {
        if self.interrupted.is_none() {
            self.interrupted = Some(Interrupt {
                signal,
                at: Instant::now(),
            });
            INTERRUPTED.store(true, Ordering::SeqCst);
        }
    }
}

/// protocheck's own stop: the signal that ended the run, and when.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Interrupt {
    pub signal: i32,
    pub at: Instant,
}

fn live() -> &'static Mutex<Live> {
    static LIVE: OnceLock<Mutex<Live>> = OnceLock::new();
    LIVE.get_or_init(|| Mutex::new(Live::default()))
}

pub(super) fn lock_live() -> std::sync::MutexGuard<'static, Live> {
    live().lock().unwrap_or_else(|e| e.into_inner())
}

/// Set with `Live::interrupted`, for loops that look often (a TCP accept
/// loop) without taking the lock.
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// Whether protocheck is being stopped (`process::kill_all_live_groups`
/// has run).
pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::SeqCst)
}

/// The stop, once `process::kill_all_live_groups` has run.
pub fn interruption() -> Option<Interrupt> {
    lock_live().interrupted
}
