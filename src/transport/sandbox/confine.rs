//! One bot start's confinement: its private temporary folder, its disk
//! cap, and (Linux) the Landlock ruleset and seccomp filter its child
//! applies before `exec`. Prepared per start by the launcher
//! (`ProcessGroup::spawn`); dropped after the bot's process group is gone,
//! which removes the temporary folder or gives it back to the run's pool
//! (`tmp`).

use super::folders::{self, Folders, Start};
use super::tmp::{PrivateTmp, TmpPool};
use super::{Layers, SandboxOptions};
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::SystemTime;

/// What confines one bot start.
pub struct Confinement {
    /// The layers in force for this bot.
    pub layers: Layers,
    tmp: Option<PrivateTmp>,
    disk: Option<Arc<DiskCap>>,
    #[cfg(target_os = "linux")]
    ruleset: Option<Arc<std::os::fd::OwnedFd>>,
    #[cfg(target_os = "linux")]
    filter: Option<&'static seccompiler::BpfProgram>,
}

impl Confinement {
    /// No confinement: `--sandbox off`, or a client protocheck does not start.
    pub fn none(layers: Layers) -> Confinement {
        Confinement {
            layers,
            tmp: None,
            disk: None,
            #[cfg(target_os = "linux")]
            ruleset: None,
            #[cfg(target_os = "linux")]
            filter: None,
        }
    }

    /// Prepare the confinement of `command` (program, arguments, folder and
    /// environment as the bot will get them), which may connect to
    /// `connect_port` only. Sets the bot's `TMPDIR` on `command`.
    pub fn prepare(
        options: &SandboxOptions,
        command: &mut Command,
        connect_port: Option<u16>,
    ) -> std::io::Result<Confinement> {
        let layers = super::settle(options).map_err(std::io::Error::other)?;
        if !layers.any() {
            return Ok(Confinement::none(layers));
        }
        let workdir = match command.get_current_dir() {
            Some(dir) if dir.is_absolute() => dir.to_path_buf(),
            Some(dir) => std::env::current_dir()?.join(dir),
            None => std::env::current_dir()?,
        };
        let tmp = TmpPool::of_run().take()?;
        command.env("TMPDIR", tmp.path());
        let folders = folders_for(command, &workdir, tmp.path(), &options.allow_read);
        let disk = options.max_disk.map(|cap| {
            Arc::new(DiskCap {
                folders: folders.write.clone(),
                cap,
                since: SystemTime::now(),
                used: AtomicU64::new(0),
            })
        });
        #[cfg(target_os = "linux")]
        {
            let ruleset = if layers.files || layers.tcp || layers.signals {
                Some(super::rules::ruleset(&folders, connect_port, &layers)?)
            } else {
                None
            };
            let filter = if layers.scheduling {
                super::scheduling::filter()
            } else {
                None
            };
            Ok(Confinement {
                layers,
                tmp: Some(tmp),
                disk,
                ruleset,
                filter,
            })
        }
        #[cfg(not(target_os = "linux"))]
        {
            let _ = (connect_port, folders);
            Ok(Confinement {
                layers,
                tmp: Some(tmp),
                disk,
            })
        }
    }

    /// The disk cap the monitor checks, if any.
    pub fn disk(&self) -> Option<Arc<DiskCap>> {
        self.disk.clone()
    }

    /// The largest file the bot may write (RLIMIT_FSIZE): the disk cap,
    /// which stops one huge file at once, before any look of the monitor.
    pub fn file_size_limit(&self) -> Option<u64> {
        self.disk.as_ref().map(|d| d.cap)
    }

    /// The bot's private temporary folder, while it lives.
    pub fn tmp(&self) -> Option<&Path> {
        self.tmp.as_ref().map(|t| t.path())
    }

    /// Every process of the bot has ended and been reaped: its private
    /// temporary folder may serve another start, if the bot left it empty
    /// and unchanged (see `tmp`).
    pub fn processes_gone(&mut self) {
        if let Some(tmp) = &mut self.tmp {
            tmp.processes_gone();
        }
    }

    /// What the child applies before `exec`; valid while `self` lives.
    pub fn for_child(&self) -> ChildRules {
        ChildRules {
            #[cfg(target_os = "linux")]
            ruleset_fd: {
                use std::os::fd::AsRawFd;
                self.ruleset.as_ref().map_or(-1, |fd| fd.as_raw_fd())
            },
            #[cfg(target_os = "linux")]
            filter: self.filter,
            // A bot with a Landlock ruleset run as root keeps no capability.
            #[cfg(target_os = "linux")]
            drop_capabilities: self.ruleset.is_some(),
            file_size: self.file_size_limit(),
        }
    }
}

/// The part of a [`Confinement`] the started child applies itself.
#[derive(Clone, Copy, Debug, Default)]
pub struct ChildRules {
    /// The Landlock ruleset to enforce (`-1`: none).
    #[cfg(target_os = "linux")]
    pub ruleset_fd: std::os::fd::RawFd,
    /// The seccomp program to load.
    #[cfg(target_os = "linux")]
    pub filter: Option<&'static seccompiler::BpfProgram>,
    /// Empty the capability bounding set (where the bot holds any).
    #[cfg(target_os = "linux")]
    pub drop_capabilities: bool,
    /// RLIMIT_FSIZE.
    pub file_size: Option<u64>,
}

impl ChildRules {
    /// Rules that confine nothing.
    pub fn none() -> ChildRules {
        ChildRules {
            #[cfg(target_os = "linux")]
            ruleset_fd: -1,
            ..ChildRules::default()
        }
    }
}

/// The folders of `command`'s bot, from its own environment where it sets
/// a variable and protocheck's otherwise.
fn folders_for(command: &Command, workdir: &Path, tmp: &Path, allow: &[PathBuf]) -> Folders {
    let variable = |name: &str| -> Option<OsString> {
        match command.get_envs().find(|(k, _)| *k == name) {
            Some((_, value)) => value.map(|v| v.to_os_string()),
            None => std::env::var_os(name),
        }
    };
    let program = command.get_program().to_string_lossy().into_owned();
    let args: Vec<String> = command
        .get_args()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    let home = variable("HOME").map(PathBuf::from);
    let path = variable("PATH");
    let lookup = |name: &str| variable(name).map(PathBuf::from);
    folders::folders(&Start {
        program: &program,
        args: &args,
        workdir,
        tmp,
        home: home.as_deref(),
        path: path.as_deref(),
        variable: &lookup,
        allow_read: allow,
    })
}

/// How much a bot may add to the folders it may write, and how much it has.
#[derive(Debug)]
pub struct DiskCap {
    pub folders: Vec<PathBuf>,
    pub cap: u64,
    /// Files last changed before this are not the bot's doing.
    pub since: SystemTime,
    used: AtomicU64,
}

/// At most this many entries are looked at per folder and look: a working
/// folder with a huge tree is measured in part, never stalls the monitor.
const WALK_BUDGET: usize = 20_000;

impl DiskCap {
    /// Bytes (allocated blocks) of the files in the writable folders that
    /// changed since the bot started; remembered as the usage.
    pub fn measure(&self) -> u64 {
        let mut total = 0u64;
        for folder in &self.folders {
            total = total.saturating_add(changed_bytes(folder, self.since, WALK_BUDGET));
        }
        self.used.fetch_max(total, Ordering::Relaxed);
        total
    }

    /// The most the bot was seen using.
    pub fn used(&self) -> u64 {
        self.used.load(Ordering::Relaxed)
    }
}

/// Allocated bytes of regular files under `folder` changed since `since`
/// (symbolic links not followed), within `budget` entries.
fn changed_bytes(folder: &Path, since: SystemTime, budget: usize) -> u64 {
    use std::os::unix::fs::MetadataExt;
    let mut left = budget;
    let mut total = 0u64;
    let mut pending = vec![folder.to_path_buf()];
    while let Some(dir) = pending.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            if left == 0 {
                return total;
            }
            left -= 1;
            let Ok(meta) = entry.metadata() else {
                continue;
            };
            if meta.is_dir() {
                pending.push(entry.path());
            } else if meta.is_file() && meta.modified().is_ok_and(|m| m >= since) {
                total = total.saturating_add(meta.blocks() * 512);
            }
        }
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_files_changed_since_the_start_count() {
        let tmp = TmpPool::of_run().take().unwrap();
        std::fs::write(tmp.path().join("old"), vec![1u8; 64 * 1024]).unwrap();
        let since = SystemTime::now() + std::time::Duration::from_secs(3600);
        assert_eq!(changed_bytes(tmp.path(), since, 100), 0);
        std::fs::create_dir(tmp.path().join("sub")).unwrap();
        std::fs::write(tmp.path().join("sub/new"), vec![1u8; 64 * 1024]).unwrap();
        let earlier = SystemTime::UNIX_EPOCH;
        assert!(changed_bytes(tmp.path(), earlier, 100) >= 128 * 1024);
        // The budget bounds the walk.
        assert_eq!(changed_bytes(tmp.path(), earlier, 0), 0);
    }

    #[test]
    fn a_private_folder_is_the_owners_alone_and_goes_away() {
        use std::os::unix::fs::PermissionsExt;
        let tmp = TmpPool::of_run().take().unwrap();
        let path = tmp.path().to_path_buf();
        let mode = std::fs::metadata(&path).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o700);
        std::fs::write(path.join("x"), "x").unwrap();
        drop(tmp);
        assert!(!path.exists());
    }
}
