//! What a bot's grade depends on in its working folder: every file in it
//! (and every file its command names outside it), each by its content.
//! `grade` takes this manifest before a bot runs and again after, and keeps
//! an earlier grade only while the folder is as it was then, so that a
//! changed `engine.py` beside the bot is graded again, while the bot's own
//! writes during grading (a log) do not make it look new
//! (docs/grading.md, Resuming).
//!
//! Nothing here follows a symlink to a folder (a link to `/` or a loop
//! would hash the world); a symlink to a file counts by its target's path
//! and content. FIFOs, sockets and devices count by their kind only (never
//! opened); an unreadable file or folder counts by the error, so it never
//! stops grading and a change of its readability is a change.

use super::sha256::Sha256;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::io::Read;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

/// A file's content is trusted unchanged without reading it again only
/// when its inode, size, mtime and ctime are as recorded and it had not
/// been touched for this long before the manifest was taken (a write in the
/// same clock tick as the look could leave the times as they were).
const SETTLED_NS: i128 = 2_000_000_000;

/// Past this many bytes a file counts by its size and times instead of
/// its content: a link to `/proc/kcore` or a file that keeps growing must
/// not stall grade.
const MOST_READ: u64 = 1 << 30;

/// Every file the bot depends on, by path relative to its folder
/// (absolute for named files outside it).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Manifest {
    /// When it was taken, in ns since the epoch.
    pub taken_ns: i128,
    pub files: BTreeMap<String, Item>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Item {
    /// `sha256:<hex>`, `symlink <target>[ sha256:<hex>]`, `fifo`,
    /// `unreadable: <error>`, …: what the key compares.
    pub what: String,
    /// For reusing `what` without reading the file again; not compared.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stat: Option<Stat>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stat {
    ino: u64,
    size: u64,
    mtime_ns: i128,
    ctime_ns: i128,
}

impl Stat {
    fn of(meta: &std::fs::Metadata) -> Stat {
        Stat {
            ino: meta.ino(),
            size: meta.size(),
            mtime_ns: meta.mtime() as i128 * 1_000_000_000 + meta.mtime_nsec() as i128,
            ctime_ns: meta.ctime() as i128 * 1_000_000_000 + meta.ctime_nsec() as i128,
        }
    }
}

impl Manifest {
    /// Whether two manifests describe the same content.
    pub fn same_content(&self, other: &Manifest) -> bool {
        self.files.len() == other.files.len()
            && self
                .files
                .iter()
                .zip(&other.files)
                .all(|((p, a), (q, b))| p == q && a.what == b.what)
    }
}

/// The manifest of `folder` and of `named` files outside it, leaving out
/// `skip` (grade's output folder, when it lies inside). `earlier`
/// manifests let unchanged files go unread.
pub fn manifest(
    folder: &Path,
    named: &[PathBuf],
    skip: &[PathBuf],
    earlier: &[&Manifest],
) -> Manifest {
    let taken_ns = now_ns();
    let mut files = BTreeMap::new();
    let reuse = |key: &str, stat: Stat| -> Option<String> {
        earlier.iter().find_map(|m| {
            let item = m.files.get(key)?;
            (item.stat == Some(stat) && stat.ctime_ns.max(stat.mtime_ns) + SETTLED_NS <= m.taken_ns)
                .then(|| item.what.clone())
        })
    };
    // Told by device and inode: `folder` and `skip` may be spelled
    // differently (symlinks, `..`).
    let skipped: Vec<(u64, u64)> = skip
        .iter()
        .filter_map(|s| std::fs::metadata(s).ok())
        .map(|m| (m.dev(), m.ino()))
        .collect();
    let mut stack = vec![folder.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let entries = match std::fs::read_dir(&dir) {
            Ok(entries) => entries,
            Err(e) => {
                let key = relative(folder, &dir);
                files.insert(key, item(format!("unreadable folder: {}", e.kind()), None));
                continue;
            }
        };
        for entry in entries {
            let path = match entry {
                Ok(entry) => entry.path(),
                Err(e) => {
                    let key = format!("{}/?", relative(folder, &dir));
                    files.insert(key, item(format!("unreadable entry: {}", e.kind()), None));
                    continue;
                }
            };
            let meta = match std::fs::symlink_metadata(&path) {
                Ok(meta) => meta,
                Err(e) => {
                    files.insert(
                        relative(folder, &path),
                        item(format!("unreadable: {}", e.kind()), None),
                    );
                    continue;
                }
            };
            if meta.is_dir() {
                if !skipped.contains(&(meta.dev(), meta.ino())) {
                    stack.push(path);
                }
                continue;
            }
            let key = relative(folder, &path);
            let described = describe(&path, &meta, |stat| reuse(&key, stat));
            files.insert(key, described);
        }
    }
    for path in named {
        if path.starts_with(folder) {
            continue;
        }
        let key = path.display().to_string();
        let described = match std::fs::symlink_metadata(path) {
            Ok(meta) => describe(path, &meta, |stat| reuse(&key, stat)),
            Err(e) => item(format!("unreadable: {}", e.kind()), None),
        };
        files.insert(key, described);
    }
    Manifest { taken_ns, files }
}

fn item(what: String, stat: Option<Stat>) -> Item {
    Item { what, stat }
}

/// One entry that is not a folder.
fn describe(path: &Path, meta: &std::fs::Metadata, reuse: impl Fn(Stat) -> Option<String>) -> Item {
    let kind = meta.file_type();
    if kind.is_symlink() {
        let target = match std::fs::read_link(path) {
            Ok(t) => t,
            Err(e) => return item(format!("unreadable symlink: {}", e.kind()), None),
        };
        let shown = target.as_os_str().as_bytes().escape_ascii().to_string();
        // A link to a file counts by the file's content too (a submission
        // may link a shared build); a link to a folder by its target only.
        return match std::fs::metadata(path) {
            Ok(to) if to.is_file() => {
                // The stat kept is the target's: that is what `reuse` checks.
                let stat = Stat::of(&to);
                let prefix = format!("symlink {shown} ");
                let what = reuse(stat)
                    .and_then(|w| w.strip_prefix(&prefix).map(str::to_string))
                    .unwrap_or_else(|| content(path));
                item(format!("{prefix}{what}"), Some(stat))
            }
            Ok(_) => item(format!("symlink {shown}"), None),
            Err(e) => item(format!("symlink {shown} (dangling: {})", e.kind()), None),
        };
    }
    if kind.is_file() {
        let stat = Stat::of(meta);
        let what = reuse(stat).unwrap_or_else(|| content(path));
        return item(what, Some(stat));
    }
    use std::os::unix::fs::FileTypeExt;
    let what = if kind.is_fifo() {
        "fifo"
    } else if kind.is_socket() {
        "socket"
    } else if kind.is_char_device() {
        "character device"
    } else if kind.is_block_device() {
        "block device"
    } else {
        "unknown kind"
    };
    item(what.to_string(), None)
}

/// `sha256:<hex>` of a regular file, or why it could not be read. Opened
/// without blocking: a file swapped for a FIFO since the look is not read.
fn content(path: &Path) -> String {
    use std::os::unix::fs::OpenOptionsExt;
    let file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path);
    let mut file = match file {
        Ok(f) => f,
        Err(e) => return format!("unreadable: {}", e.kind()),
    };
    let meta = match file.metadata() {
        Ok(m) if m.is_file() => m,
        Ok(_) => return "not a regular file".into(),
        Err(e) => return format!("unreadable: {}", e.kind()),
    };
    let by_stat = || {
        let stat = Stat::of(&meta);
        format!(
            "larger than {MOST_READ} bytes: {} bytes, modified {} ns",
            stat.size, stat.mtime_ns
        )
    };
    if meta.len() > MOST_READ {
        return by_stat();
    }
    let mut digest = Sha256::default();
    let mut buffer = vec![0u8; 1 << 16];
    let mut read = 0u64;
    loop {
        match file.read(&mut buffer) {
            Ok(0) => break,
            Ok(_) if read > MOST_READ => return by_stat(),
            Ok(n) => {
                read += n as u64;
                digest.update(&buffer[..n]);
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return format!("unreadable: {}", e.kind()),
        }
    }
    format!("sha256:{}", digest.hex())
}

/// `path` relative to `folder`, `/`-separated; names that are not UTF-8
/// are written with `\xNN` escapes.
fn relative(folder: &Path, path: &Path) -> String {
    let rel = path.strip_prefix(folder).unwrap_or(path);
    let bytes = rel.as_os_str().as_bytes();
    match std::str::from_utf8(bytes) {
        Ok("") => ".".into(),
        Ok(s) => s.to_string(),
        Err(_) => bytes.escape_ascii().to_string(),
    }
}

fn now_ns() -> i128 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as i128)
}

/// What differs between the folder `now` and both the submission that was
/// graded (`before`) and the folder its grading left (`after`), in words:
/// `engine.py changed`, `notes.txt added`, `old.py removed` (at most a few
/// named). A file as either of them left it is no change.
pub fn changes(now: &Manifest, before: &Manifest, after: &Manifest) -> String {
    let mut changed = Vec::new();
    let mut added = Vec::new();
    let mut removed = Vec::new();
    let paths: std::collections::BTreeSet<&String> = now
        .files
        .keys()
        .chain(before.files.keys())
        .chain(after.files.keys())
        .collect();
    let what = |m: &Manifest, p: &str| m.files.get(p).map(|i| i.what.clone());
    for path in paths {
        let (n, b, a) = (what(now, path), what(before, path), what(after, path));
        if n == b || n == a {
            continue;
        }
        match (n, b.is_some() || a.is_some()) {
            (None, _) => removed.push(path.as_str()),
            (Some(_), false) => added.push(path.as_str()),
            (Some(_), true) => changed.push(path.as_str()),
        }
    }
    if changed.is_empty() && added.is_empty() && removed.is_empty() {
        // Each file is as one of the two left it, but the whole is neither.
        let mixed: Vec<&str> = now
            .files
            .iter()
            .filter(|(p, i)| before.files.get(*p).map(|b| &b.what) != Some(&i.what))
            .map(|(p, _)| p.as_str())
            .collect();
        return format!(
            "{} as the bot left it, the rest as submitted",
            named(&mixed, "is", "are")
        );
    }
    let mut parts = Vec::new();
    for (list, verb) in [
        (&changed, "changed"),
        (&added, "added"),
        (&removed, "removed"),
    ] {
        if !list.is_empty() {
            parts.push(format!("{} {verb}", named(list, "", "")));
        }
    }
    parts.join(", ")
}

/// `a`, `a and b`, `a, b and 3 more files`, with `is`/`are` after when asked.
fn named(paths: &[&str], one: &str, many: &str) -> String {
    const SHOWN: usize = 3;
    let mut text = match paths {
        [] => "no file".to_string(),
        [only] => only.to_string(),
        _ if paths.len() <= SHOWN => format!(
            "{} and {}",
            paths[..paths.len() - 1].join(", "),
            paths[paths.len() - 1]
        ),
        _ => format!(
            "{} and {} more files",
            paths[..SHOWN - 1].join(", "),
            paths.len() - (SHOWN - 1)
        ),
    };
    let verb = if paths.len() == 1 { one } else { many };
    if !verb.is_empty() {
        text.push(' ');
        text.push_str(verb);
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    fn scratch(tag: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!(
            "protocheck-folder-{tag}-{}-{}",
            std::process::id(),
            fastrand::u64(..)
        ));
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn every_file_counts_by_content_and_odd_entries_do_not_panic() {
        let dir = scratch("odd");
        std::fs::write(dir.join("bot"), "#!/bin/sh\n").unwrap();
        std::fs::create_dir_all(dir.join("lib/deep")).unwrap();
        std::fs::write(dir.join("lib/deep/engine.py"), "x = 1\n").unwrap();
        std::os::unix::fs::symlink("lib/deep/engine.py", dir.join("link")).unwrap();
        std::os::unix::fs::symlink(".", dir.join("loop")).unwrap();
        std::os::unix::fs::symlink("nowhere", dir.join("dangling")).unwrap();
        let fifo = std::ffi::CString::new(dir.join("pipe").as_os_str().as_bytes()).unwrap();
        // SAFETY: mkfifo reads the NUL-terminated path it is given.
        assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o600) }, 0);
        std::fs::write(dir.join("secret"), "s").unwrap();
        std::fs::set_permissions(dir.join("secret"), std::fs::Permissions::from_mode(0o000))
            .unwrap();
        std::fs::create_dir_all(dir.join("grades")).unwrap();
        std::fs::write(dir.join("grades/report.json"), "{}").unwrap();

        let m = manifest(&dir, &[], &[dir.join("grades")], &[]);
        let what = |p: &str| m.files[p].what.clone();
        assert_eq!(
            what("lib/deep/engine.py"),
            format!("sha256:{}", super::super::sha256::hex(b"x = 1\n"))
        );
        assert!(
            what("link").starts_with("symlink lib/deep/engine.py sha256:"),
            "{}",
            what("link")
        );
        assert_eq!(what("loop"), "symlink .");
        assert!(
            what("dangling").starts_with("symlink nowhere (dangling"),
            "{}",
            what("dangling")
        );
        assert_eq!(what("pipe"), "fifo");
        // Root reads anything; others get the error.
        assert!(what("secret").starts_with("sha256:") || what("secret").starts_with("unreadable"));
        assert!(!m.files.keys().any(|k| k.starts_with("grades")), "{m:?}");

        // Nothing changed: the same content, with or without the shortcut.
        assert!(manifest(&dir, &[], &[dir.join("grades")], &[]).same_content(&m));
        assert!(manifest(&dir, &[], &[dir.join("grades")], &[&m]).same_content(&m));
        // One byte in a file beside the bot: a change, named.
        std::fs::write(dir.join("lib/deep/engine.py"), "x = 2\n").unwrap();
        let now = manifest(&dir, &[], &[dir.join("grades")], &[&m]);
        assert!(!now.same_content(&m));
        assert_eq!(changes(&now, &m, &m), "lib/deep/engine.py and link changed");
        std::fs::set_permissions(dir.join("secret"), std::fs::Permissions::from_mode(0o600))
            .unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn an_unchanged_file_is_not_read_again_once_settled() {
        let dir = scratch("settled");
        std::fs::write(dir.join("big"), "content").unwrap();
        let mut first = manifest(&dir, &[], &[], &[]);
        // Pretend the look came long after the last write, and that the
        // content recorded then was other: reused, so not read.
        first.taken_ns += 10 * SETTLED_NS;
        first.files.get_mut("big").unwrap().what = "sha256:recorded".into();
        let again = manifest(&dir, &[], &[], &[&first]);
        assert_eq!(again.files["big"].what, "sha256:recorded");
        // Written since: read again, whatever the sizes say.
        std::fs::write(dir.join("big"), "CONTENT").unwrap();
        let later = manifest(&dir, &[], &[], &[&first]);
        assert!(
            later.files["big"].what.starts_with("sha256:")
                && later.files["big"].what != "sha256:recorded"
        );
        // Not settled at the earlier look: read again.
        let mut recent = manifest(&dir, &[], &[], &[]);
        recent.files.get_mut("big").unwrap().what = "sha256:recorded".into();
        assert_ne!(
            manifest(&dir, &[], &[], &[&recent]).files["big"].what,
            "sha256:recorded"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn changes_name_what_differs_from_both_the_submission_and_the_bot_s_writes() {
        let m = |pairs: &[(&str, &str)]| Manifest {
            taken_ns: 0,
            files: pairs
                .iter()
                .map(|(p, w)| (p.to_string(), item(w.to_string(), None)))
                .collect(),
        };
        let before = m(&[("bot", "1"), ("engine.py", "1")]);
        let after = m(&[("bot", "1"), ("engine.py", "1"), ("bot.log", "1")]);
        let now = m(&[
            ("bot", "1"),
            ("engine.py", "2"),
            ("bot.log", "1"),
            ("notes", "1"),
        ]);
        assert_eq!(
            changes(&now, &before, &after),
            "engine.py changed, notes added"
        );
        let now = m(&[("bot", "1")]);
        assert_eq!(changes(&now, &before, &after), "engine.py removed");
        let before = m(&[("a", "1"), ("b", "1")]);
        let after = m(&[("a", "2"), ("b", "2")]);
        let now = m(&[("a", "2"), ("b", "1")]);
        assert_eq!(
            changes(&now, &before, &after),
            "a is as the bot left it, the rest as submitted"
        );
        assert_eq!(
            named(&["a", "b", "c", "d", "e"], "", ""),
            "a, b and 3 more files"
        );
    }
}
