//! A bot's private temporary folder (its `TMPDIR`), taken from a pool of
//! the run's folders.
//!
//! Making a folder and removing it cost 150 to 500 µs each on an ext4
//! disk (issue 27: the sandbox's cost per bot start), more than anything
//! else the sandbox does. So a folder whose bot has ended is kept for the
//! next start instead, but only when that cannot let one bot see another's
//! files or settings:
//! - every process of its bot is gone (the launcher says so after the
//!   group's kill, reap and sweep: [`PrivateTmp::processes_gone`]), so no
//!   one can write in it any more: its Landlock rule allows only that
//!   bot's processes in;
//! - it is empty, and exactly as it was made: a folder, not a link, mode
//!   0700, owned by protocheck's user and group, with no extended attribute
//!   (ACLs) and the same inode flags (no `chattr`).
//!
//! Any other folder is removed, as every folder was before. The run's folder
//! itself stays until protocheck exits (or its guardian removes it).

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, OnceLock};

/// The folder of this run's private temporary folders (the guardian
/// removes it if protocheck is killed).
pub fn run_folder() -> PathBuf {
    run_folder_of(crate::transport::tag::run_tag())
}

/// The private temporary folders of the run tagged `run`.
pub fn run_folder_of(run: &str) -> PathBuf {
    std::env::temp_dir().join(format!("protocheck-{run}"))
}

/// The private temporary folders of one run: `<base>/<n>`.
pub struct TmpPool {
    base: PathBuf,
    /// Folders of ended bots, empty and as made, ready for the next start.
    free: Mutex<Vec<Made>>,
    next: AtomicU64,
}

/// A folder as the pool made it: what a reused one must still match.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Made {
    path: PathBuf,
    /// Its inode (a folder removed and made again by someone else differs).
    inode: u64,
    /// Its inode flags (`FS_IOC_GETFLAGS`; `None` where the file system has
    /// none).
    flags: Option<i64>,
}

/// A bot's own temporary folder: only its owner may enter, empty when the
/// bot starts, removed or given back to the pool when it has ended.
pub struct PrivateTmp {
    made: Made,
    pool: &'static TmpPool,
    /// Set once no process of the bot can be alive.
    gone: bool,
}

impl TmpPool {
    pub const fn new_at(base: PathBuf) -> TmpPool {
        TmpPool {
            base,
            free: Mutex::new(Vec::new()),
            next: AtomicU64::new(0),
        }
    }

    /// The pool of this run, in `run_folder()`; that folder is
    /// removed when protocheck exits.
    pub fn of_run() -> &'static TmpPool {
        static POOL: OnceLock<TmpPool> = OnceLock::new();
        POOL.get_or_init(|| {
            extern "C" fn remove_run_folder() {
                let _ = std::fs::remove_dir_all(run_folder());
            }
            // SAFETY: registers a plain function run at `exit`.
            unsafe { libc::atexit(remove_run_folder) };
            TmpPool::new_at(run_folder())
        })
    }

    /// A folder for a bot about to start: a free one, else a new one.
    pub fn take(&'static self) -> std::io::Result<PrivateTmp> {
        let made = loop {
            let reused = self.free.lock().unwrap_or_else(|e| e.into_inner()).pop();
            match reused {
                // Checked again as it is handed out, not only when it was
                // given back: where bots are not confined to their own
                // folders (no Landlock file rules), another bot of this run
                // could have written into it meanwhile.
                Some(made) if as_made(&made) => break made,
                Some(made) => {
                    // Ours but changed: removed. Someone else's at that
                    // path (a cleaner of the temp folder was by): left alone.
                    if still_there(&made) {
                        let _ = std::fs::remove_dir_all(&made.path);
                    }
                    continue;
                }
                None => break self.make()?,
            }
        };
        Ok(PrivateTmp {
            made,
            pool: self,
            gone: false,
        })
    }

    fn make(&self) -> std::io::Result<Made> {
        use std::os::unix::fs::{DirBuilderExt, MetadataExt};
        let path = self
            .base
            .join(self.next.fetch_add(1, Ordering::Relaxed).to_string());
        let made = std::fs::DirBuilder::new().mode(0o700).create(&path);
        if made
            .as_ref()
            .is_err_and(|e| e.kind() == std::io::ErrorKind::NotFound)
        {
            // The run's folder is made with the first bot (or was removed
            // from under the run, by a cleaner of the temp folder).
            std::fs::DirBuilder::new()
                .recursive(true)
                .mode(0o700)
                .create(&self.base)?;
            std::fs::DirBuilder::new().mode(0o700).create(&path)?;
        } else {
            made?;
        }
        let inode = std::fs::symlink_metadata(&path)?.ino();
        #[cfg(target_os = "linux")]
        let flags = open_folder(&path).and_then(|dir| inode_flags(&dir));
        #[cfg(not(target_os = "linux"))]
        let flags = None;
        Ok(Made { flags, path, inode })
    }

    /// How many ended bots' folders wait for reuse.
    #[cfg(test)]
    fn free_count(&self) -> usize {
        self.free.lock().unwrap_or_else(|e| e.into_inner()).len()
    }
}

impl PrivateTmp {
    pub fn path(&self) -> &Path {
        &self.made.path
    }

    /// Every process of the bot has ended (killed and reaped, nothing left
    /// of it after the sweep): the folder may go back to the pool.
    pub fn processes_gone(&mut self) {
        self.gone = true;
    }
}

impl Drop for PrivateTmp {
    fn drop(&mut self) {
        if self.gone && as_made(&self.made) {
            self.pool
                .free
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .push(self.made.clone());
        } else {
            let _ = std::fs::remove_dir_all(&self.made.path);
        }
    }
}

/// Whether a free folder is still the one the pool made.
fn still_there(made: &Made) -> bool {
    use std::os::unix::fs::MetadataExt;
    std::fs::symlink_metadata(&made.path).is_ok_and(|m| m.is_dir() && m.ino() == made.inode)
}

/// Whether the folder is still exactly as the pool made it, and empty.
/// Every look goes through one descriptor of it, opened without following
/// a link: they all see the same folder (7 system calls, against 12 by
/// its name; this runs twice per bot start).
#[cfg(target_os = "linux")]
fn as_made(made: &Made) -> bool {
    use std::os::fd::AsRawFd;
    use std::os::unix::fs::{MetadataExt, PermissionsExt};
    let Some(dir) = open_folder(&made.path) else {
        return false;
    };
    let Ok(meta) = dir.metadata() else {
        return false;
    };
    let (uid, gid) = owner();
    // SAFETY: with a null buffer and size 0, flistxattr only returns the
    // size of the names' list; it writes nothing.
    let no_extended_attributes =
        || unsafe { libc::flistxattr(dir.as_raw_fd(), std::ptr::null_mut(), 0) } == 0;
    let untouched = meta.is_dir()
        && meta.ino() == made.inode
        && meta.permissions().mode() & 0o7777 == 0o700
        && meta.uid() == uid
        && meta.gid() == gid
        && meta.nlink() == 2
        && no_extended_attributes()
        && inode_flags(&dir) == made.flags;
    untouched && is_empty(&dir)
}

/// Elsewhere bots run unsandboxed: no folder is ever reused.
#[cfg(not(target_os = "linux"))]
fn as_made(_: &Made) -> bool {
    false
}

/// The folder at `path` itself (not a link's target), opened to look at.
#[cfg(target_os = "linux")]
fn open_folder(path: &Path) -> Option<std::fs::File> {
    use std::os::unix::fs::OpenOptionsExt;
    std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_DIRECTORY | libc::O_NOFOLLOW)
        .open(path)
        .ok()
}

/// protocheck's effective user and group, which own every folder it makes.
#[cfg(target_os = "linux")]
fn owner() -> (u32, u32) {
    static OWNER: OnceLock<(u32, u32)> = OnceLock::new();
    // SAFETY: geteuid/getegid have no preconditions.
    *OWNER.get_or_init(|| unsafe { (libc::geteuid(), libc::getegid()) })
}

/// Whether the open folder `dir` has no entry but `.` and `..`.
#[cfg(target_os = "linux")]
fn is_empty(dir: &std::fs::File) -> bool {
    use std::os::fd::AsRawFd;
    // linux_dirent64: d_ino (8), d_off (8), d_reclen (2), d_type (1), d_name.
    const NAME: usize = 19;
    let mut buf = [0u64; 256];
    loop {
        // SAFETY: getdents64 writes at most `size_of_val(&buf)` bytes into
        // `buf`, which is aligned for the records' 8-byte fields.
        let got = unsafe {
            libc::syscall(
                libc::SYS_getdents64,
                dir.as_raw_fd(),
                buf.as_mut_ptr(),
                std::mem::size_of_val(&buf),
            )
        };
        if got == 0 {
            return true;
        }
        let Ok(got) = usize::try_from(got) else {
            return false;
        };
        // SAFETY: the kernel filled `got` bytes of `buf`.
        let bytes = unsafe { std::slice::from_raw_parts(buf.as_ptr().cast::<u8>(), got.min(2048)) };
        let mut at = 0;
        while at + NAME < bytes.len() {
            let reclen = u16::from_ne_bytes([bytes[at + 16], bytes[at + 17]]) as usize;
            if reclen <= NAME {
                return false; // not a record the kernel writes
            }
            let name = &bytes[at + NAME..(at + reclen).min(bytes.len())];
            let name = &name[..name.iter().position(|&b| b == 0).unwrap_or(name.len())];
            if name != b"." && name != b".." {
                return false;
            }
            at += reclen;
        }
    }
}

/// The folder's inode flags (`chattr`), `None` where there are none.
#[cfg(target_os = "linux")]
fn inode_flags(dir: &std::fs::File) -> Option<i64> {
    use std::os::fd::AsRawFd;
    let mut flags: libc::c_long = 0;
    // SAFETY: FS_IOC_GETFLAGS writes one long into `flags`.
    let got = unsafe { libc::ioctl(dir.as_raw_fd(), libc::FS_IOC_GETFLAGS, &mut flags) };
    (got == 0).then_some(flags as i64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    /// A pool of its own in a folder of its own, so that tests running at
    /// once never share folders.
    fn pool(name: &str) -> &'static TmpPool {
        let base =
            std::env::temp_dir().join(format!("protocheck-tmp-test-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&base);
        Box::leak(Box::new(TmpPool::new_at(base)))
    }

    #[test]
    fn an_ended_bots_empty_folder_is_reused_only_once_its_processes_are_gone() {
        let pool = pool("reuse");
        let mut first = pool.take().unwrap();
        let path = first.path().to_path_buf();
        first.processes_gone();
        drop(first);
        assert!(path.is_dir());
        assert_eq!(pool.free_count(), 1);
        let second = pool.take().unwrap();
        assert_eq!(second.path(), path, "reused");
        let mode = std::fs::metadata(&path).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o700);
        // Not proved gone (a kill that timed out, a failed start): removed.
        drop(second);
        assert!(!path.exists());
        assert_eq!(pool.free_count(), 0);
        // A free folder removed by someone else is not handed out.
        let mut third = pool.take().unwrap();
        let gone = third.path().to_path_buf();
        third.processes_gone();
        drop(third);
        std::fs::remove_dir(&gone).unwrap();
        let fourth = pool.take().unwrap();
        assert!(fourth.path().is_dir());
        let _ = std::fs::remove_dir_all(&pool.base);
    }

    #[test]
    fn a_folder_a_bot_wrote_in_or_changed_is_never_given_to_the_next() {
        let pool = pool("changed");
        type Change = fn(&Path);
        let changes: [(&str, Change); 4] = [
            ("a file", |p| std::fs::write(p.join("left"), "x").unwrap()),
            ("a sub-folder", |p| {
                std::fs::create_dir(p.join("d")).unwrap()
            }),
            ("its mode", |p| {
                std::fs::set_permissions(p, std::fs::Permissions::from_mode(0o777)).unwrap()
            }),
            ("a hidden file", |p| {
                std::fs::write(p.join(".x"), "").unwrap()
            }),
        ];
        for (what, change) in changes {
            let mut tmp = pool.take().unwrap();
            let path = tmp.path().to_path_buf();
            change(&path);
            tmp.processes_gone();
            drop(tmp);
            assert!(!path.exists(), "{what}: removed");
            let next = pool.take().unwrap();
            assert_ne!(next.path(), path, "{what}");
            assert!(std::fs::read_dir(next.path()).unwrap().next().is_none());
        }
        let _ = std::fs::remove_dir_all(&pool.base);
    }

    /// A folder written into while it waited in the pool (by a bot that is
    /// not confined to its own folders) is not handed out.
    #[cfg(target_os = "linux")]
    #[test]
    fn a_folder_changed_while_it_waits_in_the_pool_is_not_handed_out() {
        let pool = pool("waiting");
        let mut tmp = pool.take().unwrap();
        let path = tmp.path().to_path_buf();
        tmp.processes_gone();
        drop(tmp);
        assert_eq!(pool.free_count(), 1);
        std::fs::write(path.join("planted"), "x").unwrap();
        let next = pool.take().unwrap();
        assert_ne!(next.path(), path);
        assert!(!path.exists(), "the changed folder is removed");
        assert!(std::fs::read_dir(next.path()).unwrap().next().is_none());
        let _ = std::fs::remove_dir_all(&pool.base);
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_folder_with_an_extended_attribute_is_not_reused() {
        use std::os::unix::ffi::OsStrExt;
        let pool = pool("xattr");
        let mut tmp = pool.take().unwrap();
        let path = tmp.path().to_path_buf();
        let c_path = std::ffi::CString::new(path.as_os_str().as_bytes()).unwrap();
        // SAFETY: valid NUL-terminated name and value.
        let set = unsafe {
            libc::setxattr(
                c_path.as_ptr(),
                c"user.protocheck-test".as_ptr(),
                b"1".as_ptr().cast(),
                1,
                0,
            )
        };
        if set != 0 {
            return; // this file system has no user attributes
        }
        tmp.processes_gone();
        drop(tmp);
        assert!(!path.exists());
        let _ = std::fs::remove_dir_all(&pool.base);
    }

    #[test]
    fn bots_starting_and_ending_at_once_never_share_a_folder() {
        use std::collections::HashSet;
        let pool = pool("concurrent");
        let in_use: &'static Mutex<HashSet<PathBuf>> = Box::leak(Box::default());
        let workers: Vec<_> = (0..4)
            .map(|worker| {
                std::thread::spawn(move || {
                    for round in 0..300 {
                        let mut tmp = pool.take().expect("a private folder");
                        let path = tmp.path().to_path_buf();
                        assert!(in_use.lock().unwrap().insert(path.clone()), "shared");
                        assert!(std::fs::read_dir(&path).unwrap().next().is_none());
                        // Some bots leave files, some do not.
                        if (worker + round) % 3 == 0 {
                            std::fs::write(path.join("mine"), "x").unwrap();
                        }
                        in_use.lock().unwrap().remove(&path);
                        tmp.processes_gone();
                    }
                })
            })
            .collect();
        for worker in workers {
            worker.join().unwrap();
        }
        // At most one folder per worker was ever free at once.
        assert!(pool.free_count() <= 4);
        let _ = std::fs::remove_dir_all(&pool.base);
    }
}
