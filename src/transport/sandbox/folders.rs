//! Which files a sandboxed bot may read and write. Decided from the bot's
//! command, its working folder and the toolchains on this machine, before
//! the bot starts; the rules layer (Landlock) then enforces the lists.
//!
//! The aim: everything a Python, Java, Racket, Haskell, C or Rust bot needs
//! to start and play, and nothing of a classmate's, the instructor's or
//! protocheck's own. A bot that needs more is named by `--allow-read`.

use std::collections::HashMap;
use std::ffi::OsStr;
use std::path::{Component, Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

/// System folders every bot may read (and run programs from): the
/// compilers, interpreters, libraries, certificates and the kernel's views
/// of itself (`/proc`, `/sys`). Missing ones are skipped.
pub const SYSTEM: &[&str] = &[
    "/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc", "/opt", "/proc",
    "/sys", "/dev", "/nix", "/snap",
];

/// Device files every bot may also write: the sinks and sources that
/// shells and runtimes open for writing (`> /dev/null` needs it).
pub const WRITABLE_DEVICES: &[&str] = &["/dev/null", "/dev/zero", "/dev/full", "/dev/tty"];

/// Toolchain folders in the home folder, readable when present: version
/// managers and per-user package stores (pyenv's shims, Racket's user
/// packages, rustup, ghcup, sdkman, Maven's and Gradle's caches, …). The
/// rest of the home folder stays closed.
pub const HOME_TOOLCHAINS: &[&str] = &[
    ".pyenv",
    ".local",
    ".cargo",
    ".rustup",
    ".ghcup",
    ".ghc",
    ".cabal",
    ".stack",
    ".sdkman",
    ".nvm",
    ".racket",
    ".m2",
    ".gradle",
    ".ivy2",
    ".sbt",
    ".opam",
    ".rbenv",
    ".gem",
    ".julia",
    ".dotnet",
    ".bun",
    ".deno",
    ".conda",
    "miniconda3",
    "anaconda3",
    "miniforge3",
];

/// Environment variables that name a toolchain's root: readable when set.
pub const TOOLCHAIN_VARIABLES: &[&str] = &[
    "JAVA_HOME",
    "PYENV_ROOT",
    "VIRTUAL_ENV",
    "CONDA_PREFIX",
    "RUSTUP_HOME",
    "CARGO_HOME",
    "GHCUP_INSTALL_BASE_PREFIX",
    "PLTADDONDIR",
    "PLTCOLLECTS",
    "PLTUSERHOME",
    "GEM_HOME",
    "GOPATH",
    "GOROOT",
];

/// What one bot may touch.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Folders {
    /// Read and run programs from: the machine's folders, the same for
    /// every bot of a run with the same `HOME`, `PATH` and toolchain
    /// variables (looked up once per run: see [`machine_folders`]).
    pub machine: Arc<Vec<PathBuf>>,
    /// Read and run programs from: this bot's own (folders, or files).
    pub read: Vec<PathBuf>,
    /// Read, write, create and delete in (its working folder and TMPDIR).
    pub write: Vec<PathBuf>,
    /// Single device files it may also write.
    pub devices: Vec<PathBuf>,
}

/// Where a bot starts, as the sandbox sees it.
pub struct Start<'a> {
    pub program: &'a str,
    pub args: &'a [String],
    /// Its working folder (absolute).
    pub workdir: &'a Path,
    /// Its private temporary folder.
    pub tmp: &'a Path,
    /// The home folder (`HOME` of protocheck's environment).
    pub home: Option<&'a Path>,
    /// The `PATH` the bot's program is looked up in.
    pub path: Option<&'a OsStr>,
    /// The bot's environment, for [`TOOLCHAIN_VARIABLES`].
    pub variable: &'a dyn Fn(&str) -> Option<PathBuf>,
    /// `--allow-read`.
    pub allow_read: &'a [PathBuf],
}

/// The lists for one bot start. Only paths that exist are listed (a rule
/// needs an open file), each once.
pub fn folders(start: &Start) -> Folders {
    let machine = machine_folders(start);
    let mut read = Vec::new();
    for word in std::iter::once(start.program).chain(start.args.iter().map(String::as_str)) {
        for named in named_paths(word, start.workdir) {
            // A symbolic link (`~/bin/mybot` → `~/code/mybot/run`) opens
            // the folder of what it points to as well.
            let real = named.canonicalize().ok().filter(|real| *real != named);
            read.extend(own_folder(&named, start.home));
            read.extend(real.iter().flat_map(|real| own_folder(real, start.home)));
        }
    }
    read.extend(start.allow_read.iter().cloned());
    let write = vec![start.workdir.to_path_buf(), start.tmp.to_path_buf()];
    let devices = WRITABLE_DEVICES.iter().map(PathBuf::from).collect();
    Folders {
        read: existing_once(read)
            .into_iter()
            .filter(|p| !machine.contains(p))
            .collect(),
        machine,
        write: existing_once(write),
        devices: existing_once(devices),
    }
}

impl Folders {
    /// Every folder or file the bot may read.
    pub fn readable(&self) -> impl Iterator<Item = &PathBuf> {
        self.machine.iter().chain(&self.read)
    }
}

/// The machine's folders a bot may read: the system's, the toolchains in
/// the home folder, those the toolchain variables name, and the `PATH`
/// entries. Looked up once per run for each `HOME`, `PATH` and set of
/// variables (every bot of a run has the same): a bot start then costs
/// no look at them (issue 27's target: the sandbox under 5 % of a game).
pub fn machine_folders(start: &Start) -> Arc<Vec<PathBuf>> {
    type Key = (
        Option<PathBuf>,
        Option<std::ffi::OsString>,
        Vec<Option<PathBuf>>,
    );
    static SEEN: OnceLock<Mutex<HashMap<Key, Arc<Vec<PathBuf>>>>> = OnceLock::new();
    let key: Key = (
        start.home.map(Path::to_path_buf),
        start.path.map(OsStr::to_os_string),
        TOOLCHAIN_VARIABLES
            .iter()
            .map(|name| (start.variable)(name))
            .collect(),
    );
    let seen = SEEN.get_or_init(Mutex::default);
    if let Some(found) = seen.lock().unwrap_or_else(|e| e.into_inner()).get(&key) {
        return Arc::clone(found);
    }
    let mut read: Vec<PathBuf> = SYSTEM.iter().map(PathBuf::from).collect();
    if let Some(home) = start.home {
        read.extend(HOME_TOOLCHAINS.iter().map(|name| home.join(name)));
    }
    read.extend(key.2.iter().flatten().filter(|p| p.is_absolute()).cloned());
    if let Some(path) = start.path {
        for entry in std::env::split_paths(path).filter(|e| e.is_absolute()) {
            read.extend(toolchain_root(&entry, start.home));
            read.push(entry);
        }
    }
    let found = Arc::new(existing_once(read));
    seen.lock()
        .unwrap_or_else(|e| e.into_inner())
        .insert(key, Arc::clone(&found));
    found
}

/// The root of the toolchain a `PATH` entry belongs to, for entries named
/// `bin`, `sbin` or `shims` (`/opt/racket/bin` → `/opt/racket`,
/// `~/.linuxbrew/bin` → `~/.linuxbrew`): its libraries sit beside it. Never
/// the file-system root or the home folder itself.
fn toolchain_root(entry: &Path, home: Option<&Path>) -> Option<PathBuf> {
    let name = entry.file_name()?.to_str()?;
    if !matches!(name, "bin" | "sbin" | "shims") {
        return None;
    }
    let parent = entry.parent()?;
    (!too_wide(parent, home)).then(|| parent.to_path_buf())
}

/// The existing paths a command word names: the word itself, the part
/// after `=` (`--data=maps/a.txt`) and each part of a `:` list
/// (`-cp lib/a.jar:lib/b.jar`), relative ones taken from the working folder.
fn named_paths(word: &str, workdir: &Path) -> Vec<PathBuf> {
    let mut texts = vec![word];
    if let Some((_, value)) = word.split_once('=') {
        texts.push(value);
    }
    let lists: Vec<&str> = texts.iter().flat_map(|t| t.split(':')).collect();
    texts.extend(lists);
    let mut out = Vec::new();
    for text in texts {
        if text.is_empty() || text.starts_with('-') && !text.contains('/') {
            continue;
        }
        let path = Path::new(text);
        let path = if path.is_absolute() {
            path.to_path_buf()
        } else {
            workdir.join(path)
        };
        if path.exists() && !out.contains(&path) {
            out.push(path);
        }
    }
    out
}

/// What a named path opens to the bot: a folder itself; a file with the
/// folder it sits in (a script imports its neighbours, a program reads the
/// data beside it), or the file alone where that folder is too wide.
fn own_folder(path: &Path, home: Option<&Path>) -> Vec<PathBuf> {
    let path = normalized(path);
    if path.is_dir() {
        return if too_wide(&path, home) {
            Vec::new()
        } else {
            vec![path]
        };
    }
    match path.parent() {
        Some(parent) if !too_wide(parent, home) => vec![parent.to_path_buf()],
        _ => vec![path],
    }
}

/// The file-system root, the home folder and the folders directly under
/// the root (`/home`, `/tmp`, `/work`) hold other people's files: a command
/// word never opens them whole.
fn too_wide(folder: &Path, home: Option<&Path>) -> bool {
    let folder = normalized(folder);
    let depth = folder
        .components()
        .filter(|c| matches!(c, Component::Normal(_)))
        .count();
    depth < 2 || home.is_some_and(|h| normalized(h) == folder)
}

/// `a/./b/../c` → `a/c`, without touching the file system (symbolic links
/// are resolved later, by the rule itself).
fn normalized(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

fn existing_once(paths: Vec<PathBuf>) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = Vec::new();
    for path in paths {
        let path = normalized(&path);
        if path.exists() && !out.contains(&path) {
            out.push(path);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn start_in<'a>(
        workdir: &'a Path,
        tmp: &'a Path,
        program: &'a str,
        args: &'a [String],
        allow: &'a [PathBuf],
    ) -> Start<'a> {
        Start {
            program,
            args,
            workdir,
            tmp,
            home: None,
            path: None,
            variable: &|_| None,
            allow_read: allow,
        }
    }

    fn tree() -> (tempfile_dir::Dir, PathBuf, PathBuf) {
        let dir = tempfile_dir::Dir::new();
        let alice = dir.path().join("class/alice");
        let bob = dir.path().join("class/bob");
        for d in [&alice, &bob] {
            std::fs::create_dir_all(d).unwrap();
        }
        std::fs::write(alice.join("bot.py"), "").unwrap();
        std::fs::write(bob.join("bot.py"), "").unwrap();
        (dir, alice, bob)
    }

    /// A temporary folder removed at the end of the test.
    mod tempfile_dir {
        pub struct Dir(std::path::PathBuf);
        impl Dir {
            pub fn new() -> Dir {
                static N: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
                let n = N.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let path = std::env::temp_dir().join(format!(
                    "protocheck-folders-test-{}-{n}",
                    std::process::id()
                ));
                std::fs::create_dir_all(&path).unwrap();
                Dir(path)
            }
            pub fn path(&self) -> &std::path::Path {
                &self.0
            }
        }
        impl Drop for Dir {
            fn drop(&mut self) {
                let _ = std::fs::remove_dir_all(&self.0);
            }
        }
    }

    #[test]
    fn a_bot_reads_its_own_folder_and_not_a_classmates() {
        let (dir, alice, bob) = tree();
        let tmp = dir.path().join("tmp");
        std::fs::create_dir_all(&tmp).unwrap();
        let args = vec!["bot.py".to_string()];
        let got = folders(&start_in(&alice, &tmp, "python3", &args, &[]));
        assert!(got.readable().any(|p| *p == alice), "{got:?}");
        assert!(got.write.contains(&alice) && got.write.contains(&tmp));
        assert!(
            !got.read
                .iter()
                .chain(&got.write)
                .any(|p| bob.starts_with(p))
        );
        assert!(got.readable().any(|p| p == Path::new("/usr")));
        assert!(got.devices.contains(&PathBuf::from("/dev/null")));
    }

    #[test]
    fn a_file_named_by_the_command_opens_its_folder_unless_that_is_too_wide() {
        let (dir, alice, bob) = tree();
        let args = vec!["-jar".to_string(), bob.join("bot.py").display().to_string()];
        let got = folders(&start_in(&alice, &alice, "java", &args, &[]));
        assert!(got.readable().any(|p| *p == bob), "{got:?}");
        // A word naming a top-level folder or the root opens nothing whole.
        let wide = vec!["/".to_string(), "/tmp".to_string(), "--x=/".to_string()];
        let got = folders(&start_in(&alice, &alice, "sh", &wide, &[]));
        assert!(
            !got.read
                .iter()
                .any(|p| p == Path::new("/") || p == Path::new("/tmp"))
        );
        drop(dir);
    }

    #[test]
    fn class_paths_and_option_values_name_files_too() {
        let (dir, alice, bob) = tree();
        let cp = format!("{}:lib.jar", bob.join("bot.py").display());
        let args = vec!["-cp".to_string(), cp, format!("--data={}", bob.display())];
        let got = folders(&start_in(&alice, &alice, "java", &args, &[]));
        assert_eq!(got.readable().filter(|p| **p == bob).count(), 1, "{got:?}");
        drop(dir);
    }

    #[test]
    fn toolchains_in_home_and_path_are_readable_but_home_is_not() {
        let (dir, alice, _) = tree();
        let home = dir.path().join("home");
        for d in [".pyenv/shims", ".cargo/bin", "secret"] {
            std::fs::create_dir_all(home.join(d)).unwrap();
        }
        let path =
            std::env::join_paths([home.join(".cargo/bin"), PathBuf::from("relative")]).unwrap();
        let start = Start {
            home: Some(&home),
            path: Some(&path),
            ..start_in(&alice, &alice, "bot", &[], &[])
        };
        let got = folders(&start);
        assert!(got.readable().any(|p| *p == home.join(".pyenv")), "{got:?}");
        assert!(got.readable().any(|p| *p == home.join(".cargo")));
        assert!(
            !got.read
                .iter()
                .any(|p| p == &home || home.join("secret").starts_with(p))
        );
    }

    #[test]
    fn a_program_reached_through_a_symbolic_link_opens_the_folder_it_points_to() {
        let (dir, alice, bob) = tree();
        let link = alice.join("bot");
        std::os::unix::fs::symlink(bob.join("bot.py"), &link).unwrap();
        let got = folders(&start_in(&alice, &alice, link.to_str().unwrap(), &[], &[]));
        assert!(got.readable().any(|p| *p == bob), "{got:?}");
        drop(dir);
    }

    #[test]
    fn allow_read_adds_exactly_what_it_names() {
        let (dir, alice, bob) = tree();
        let allow = vec![bob.clone(), dir.path().join("missing")];
        let got = folders(&start_in(&alice, &alice, "bot", &[], &allow));
        assert!(got.readable().any(|p| *p == bob));
        assert!(!got.readable().any(|p| *p == dir.path().join("missing")));
    }
}
