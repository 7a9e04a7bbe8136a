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

/// A ruleset confining files to `folders`, TCP to connecting to
/// `connect_port` (nothing else: no listening), and signals, ptrace and
/// abstract Unix sockets to the bot's own sandbox, for the layers this
/// kernel has.
pub fn ruleset(
    folders: &Folders,
    connect_port: Option<u16>,
    layers: &Layers,
) -> std::io::Result<OwnedFd> {
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
    let all = AccessFs::from_all(RULES_ABI);
    let device = read | AccessFs::WriteFile | AccessFs::Truncate | AccessFs::IoctlDev;
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
    let grants = (folders.read.iter().map(|p| (p, read)))
        .chain(folders.write.iter().map(|p| (p, all)))
        .chain(folders.devices.iter().map(|p| (p, device)));
    for (path, access) in grants {
        let Some(rule) = rule(path, access) else {
            continue;
        };
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
    fd.ok_or_else(|| std::io::Error::other("landlock: this kernel made no ruleset"))
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

/// The rule for one path; a file gets only the rights a file can have.
/// `None` for a path that vanished since it was listed.
fn rule(path: &Path, access: BitFlags<AccessFs>) -> Option<PathBeneath<PathFd>> {
    let fd = PathFd::new(path).ok()?;
    let access = if path.is_dir() {
        access
    } else {
        access & AccessFs::from_file(RULES_ABI)
    };
    Some(PathBeneath::new(fd, access))
}
