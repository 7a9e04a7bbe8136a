//! The Landlock ruleset of one bot: built by protocheck, handed to the
//! child as a file descriptor and enforced by it just before `exec`
//! (`landlock_restrict_self` needs no root once `no_new_privs` is set).

use super::Layers;
use super::folders::Folders;
use landlock::{
    ABI, Access, AccessFs, AccessNet, BitFlags, CompatLevel, Compatible, NetPort, PathBeneath,
    PathFd, Ruleset, RulesetAttr, RulesetCreatedAttr, Scope,
};
use std::collections::HashMap;
use std::os::fd::OwnedFd;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

/// The newest ABI whose rights the rules use (ABI 7 adds only logging).
const RULES_ABI: ABI = ABI::V6;

/// A file a rule binds: its device and inode.
type FileId = (u64, u64);

/// What a kept ruleset grants: the run's machine folders (by identity of
/// their list, which `machine_folders` keeps for the run), the bot's own
/// paths, and the layers.
#[derive(Clone, PartialEq, Eq, Hash)]
struct Grants {
    machine: usize,
    read: Vec<PathBuf>,
    write: Vec<PathBuf>,
    devices: Vec<PathBuf>,
    layers: (bool, bool, bool),
}

/// A kept ruleset, with the files (device, inode) its rules for the bot's
/// own paths bind, in the order of [`own_paths`]; `None` for a path that
/// had vanished.
struct Kept {
    files: Vec<Option<FileId>>,
    ruleset: Arc<OwnedFd>,
    /// Keeps the list alive, so that its address names it alone.
    _machine: Arc<Vec<PathBuf>>,
}

/// At most this many rulesets are kept (a class's bots, each with a few
/// private folders in turn); past it the store starts again.
const KEPT: usize = 64;

/// The ruleset for a bot with `folders` (see [`build`]). Building one costs
/// about 30 system calls; a bot started again (the next scenario, its
/// TMPDIR back from the run's pool) has the same grants, so rulesets are
/// kept for the run. A rule binds a file, not a name: a kept ruleset serves
/// only while each of the bot's own paths still names the file it was
/// built with. A ruleset with a TCP port (one per scenario) is not kept.
pub fn ruleset(
    folders: &Folders,
    connect_port: Option<u16>,
    layers: &Layers,
) -> std::io::Result<Arc<OwnedFd>> {
    static STORE: OnceLock<Mutex<HashMap<Grants, Kept>>> = OnceLock::new();
    kept_or_built(
        STORE.get_or_init(Mutex::default),
        folders,
        connect_port,
        layers,
    )
}

/// [`ruleset`] with its store.
fn kept_or_built(
    store: &Mutex<HashMap<Grants, Kept>>,
    folders: &Folders,
    connect_port: Option<u16>,
    layers: &Layers,
) -> std::io::Result<Arc<OwnedFd>> {
    if layers.tcp && connect_port.is_some() {
        return build(folders, connect_port, layers).map(|(fd, _)| Arc::new(fd));
    }
    let grants = Grants {
        machine: Arc::as_ptr(&folders.machine) as usize,
        read: folders.read.clone(),
        write: folders.write.clone(),
        devices: folders.devices.clone(),
        layers: (layers.files, layers.tcp, layers.signals),
    };
    let files: Vec<Option<FileId>> = own_paths(folders).map(|(p, _)| file_of(p)).collect();
    if let Some(kept) = store.lock().unwrap_or_else(|e| e.into_inner()).get(&grants)
        && kept.files == files
    {
        return Ok(Arc::clone(&kept.ruleset));
    }
    let (fd, files) = build(folders, connect_port, layers)?;
    let ruleset = Arc::new(fd);
    let mut store = store.lock().unwrap_or_else(|e| e.into_inner());
    if store.len() >= KEPT {
        store.clear();
    }
    store.insert(
        grants,
        Kept {
            files,
            ruleset: Arc::clone(&ruleset),
            _machine: Arc::clone(&folders.machine),
        },
    );
    Ok(ruleset)
}

/// The bot's own paths with their rights: what it may read, write, and
/// the devices it may write.
fn own_paths(folders: &Folders) -> impl Iterator<Item = (&PathBuf, BitFlags<AccessFs>)> {
    let read = AccessFs::from_read(RULES_ABI);
    let all = AccessFs::from_all(RULES_ABI);
    let device = read | AccessFs::WriteFile | AccessFs::Truncate | AccessFs::IoctlDev;
    (folders.read.iter().map(move |p| (p, read)))
        .chain(folders.write.iter().map(move |p| (p, all)))
        .chain(folders.devices.iter().map(move |p| (p, device)))
}

/// The file a path names now (symbolic links followed, as a rule's
/// opening follows them): device and inode.
fn file_of(path: &Path) -> Option<FileId> {
    use std::os::unix::fs::MetadataExt;
    std::fs::metadata(path).ok().map(|m| (m.dev(), m.ino()))
}

/// A ruleset confining files to `folders`, TCP to connecting to
/// `connect_port` (nothing else: no listening), and signals, ptrace and
/// abstract Unix sockets to the bot's own sandbox, for the layers this
/// kernel has; with the files its rules for the bot's own paths bind.
fn build(
    folders: &Folders,
    connect_port: Option<u16>,
    layers: &Layers,
) -> std::io::Result<(OwnedFd, Vec<Option<FileId>>)> {
    let fail = |e: landlock::RulesetError| std::io::Error::other(format!("landlock: {e}"));
    let mut ruleset = Ruleset::default()
        .set_compatibility(CompatLevel::BestEffort)
        .handle_access(AccessFs::from_all(RULES_ABI))
        .map_err(fail)?;
    if layers.tcp {
        ruleset = ruleset
            .handle_access(AccessNet::BindTcp | AccessNet::ConnectTcp)
            .map_err(fail)?;
    }
    if layers.signals {
        ruleset = ruleset
            .scope(Scope::AbstractUnixSocket | Scope::Signal)
            .map_err(fail)?;
    }
    let mut created = ruleset.create().map_err(fail)?;
    let read = AccessFs::from_read(RULES_ABI);
    for path in folders.machine.iter() {
        let Some(fd) = opened(path) else {
            continue;
        };
        let access = if fd.1 {
            read
        } else {
            read & AccessFs::from_file(RULES_ABI)
        };
        created = created
            .add_rule(PathBeneath::new(&fd.0, access))
            .map_err(fail)?;
    }
    let mut files = Vec::new();
    for (path, access) in own_paths(folders) {
        let Some((rule, file)) = rule(path, access) else {
            files.push(None);
            continue;
        };
        files.push(Some(file));
        created = created.add_rule(rule).map_err(fail)?;
    }
    if layers.tcp
        && let Some(port) = connect_port
    {
        created = created
            .add_rule(NetPort::new(port, AccessNet::ConnectTcp))
            .map_err(fail)?;
    }
    let fd: Option<OwnedFd> = created.into();
    let fd = fd.ok_or_else(|| std::io::Error::other("landlock: this kernel made no ruleset"))?;
    Ok((fd, files))
}

/// An opened path, and whether it is a folder.
type Opened = (PathFd, bool);

/// A machine folder opened once per run (with whether it is a folder): a
/// rule takes the descriptor, and every bot of the run reads the same
/// system and toolchain folders.
fn opened(path: &Path) -> Option<Arc<Opened>> {
    static OPENED: OnceLock<Mutex<HashMap<PathBuf, Arc<Opened>>>> = OnceLock::new();
    let opened = OPENED.get_or_init(Mutex::default);
    let mut opened = opened.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(fd) = opened.get(path) {
        return Some(Arc::clone(fd));
    }
    let fd = Arc::new((PathFd::new(path).ok()?, path.is_dir()));
    opened.insert(path.to_path_buf(), Arc::clone(&fd));
    Some(fd)
}

/// The rule for one path, with the file it binds (device, inode); a file
/// gets only the rights a file can have. `None` for a path that vanished
/// since it was listed.
fn rule(path: &Path, access: BitFlags<AccessFs>) -> Option<(PathBeneath<PathFd>, FileId)> {
    use std::os::fd::{AsFd, AsRawFd};
    let fd = PathFd::new(path).ok()?;
    // The opened file itself, whatever the path names by now.
    // SAFETY: fstat fills `meta` for an open descriptor (O_PATH will do).
    let meta = unsafe {
        let mut meta: libc::stat = std::mem::zeroed();
        if libc::fstat(fd.as_fd().as_raw_fd(), &mut meta) != 0 {
            return None;
        }
        meta
    };
    let access = if meta.st_mode & libc::S_IFMT == libc::S_IFDIR {
        access
    } else {
        access & AccessFs::from_file(RULES_ABI)
    };
    let file = (meta.st_dev as u64, meta.st_ino as u64);
    Some((PathBeneath::new(fd, access), file))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_kept_ruleset_serves_the_same_grants_only_while_they_name_the_same_files() {
        let layers = super::super::kernel_layers();
        if !layers.files {
            return; // no Landlock on this kernel
        }
        let dir =
            std::env::temp_dir().join(format!("protocheck-rules-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let folders = Folders {
            machine: Arc::new(vec![PathBuf::from("/usr")]),
            read: vec![],
            write: vec![dir.clone()],
            devices: vec![PathBuf::from("/dev/null")],
        };
        let store = Mutex::default();
        let ruleset = |folders: &Folders| kept_or_built(&store, folders, None, &layers).unwrap();
        let first = ruleset(&folders);
        let again = ruleset(&folders);
        assert!(Arc::ptr_eq(&first, &again), "kept");
        // The same name, another folder: the old rule would bind the old one.
        std::fs::remove_dir(&dir).unwrap();
        std::fs::create_dir(&dir).unwrap();
        let remade = ruleset(&folders);
        assert!(!Arc::ptr_eq(&first, &remade), "built again");
        // Other grants, another ruleset.
        let other = Folders {
            devices: vec![],
            ..folders.clone()
        };
        assert!(!Arc::ptr_eq(&remade, &ruleset(&other)));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
