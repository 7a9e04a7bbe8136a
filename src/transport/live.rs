//! The registry of live bots: every process group protocheck started and
//! has not yet reaped, with what the monitor learns of each ([`Watch`]),
//! and whether a stop has closed it to new bots. The spawner registers
//! (`process`), the monitor and the sweeps read it (`guard`), the signal
//! handler kills what it holds; it depends on neither, so neither depends
//! on the other through it. It is process-wide because the signal handler
//! must reach every bot; the stop itself is the run's `pool::StopToken`.

use super::limits::{LimitHit, ResourceLimits};
use super::sandbox::DiskCap;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

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

/// Bots that are alive right now (by main pid = process group id), so a
/// stop can kill them all and the monitor can watch them; and whether a
/// stop has killed them (then nothing new may start).
#[derive(Default)]
pub(super) struct Live {
    pub(super) groups: HashMap<i32, Arc<Watch>>,
    pub(super) closed: bool,
}

fn live() -> &'static Mutex<Live> {
    static LIVE: OnceLock<Mutex<Live>> = OnceLock::new();
    LIVE.get_or_init(|| Mutex::new(Live::default()))
}

pub(super) fn lock_live() -> std::sync::MutexGuard<'static, Live> {
    live().lock().unwrap_or_else(|e| e.into_inner())
}
