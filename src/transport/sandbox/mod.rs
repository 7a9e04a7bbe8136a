//! The sandbox every bot runs in: which files it may read and write, which
//! TCP ports it may reach, which processes it may signal, and whose
//! scheduling it may change. A grade must depend on the bot alone, so a
//! bot must not be able to read a classmate's submission, forge a report,
//! kill the referee or slow a classmate down.
//!
//! On Linux the layers are Landlock (files, TCP, signals and abstract Unix
//! sockets; no root and no user namespace needed) and a seccomp filter
//! (scheduling calls on other processes). Both are prepared by protocheck
//! before a bot starts and applied by the started child just before `exec`
//! (see `vfork_spawn`), so they bind the bot and everything it starts.
//! Elsewhere (macOS, old kernels) `--sandbox auto` runs bots as before and
//! says so once; `--sandbox require` refuses to run. docs/sandbox.md says
//! what each layer does and what it cannot do.

mod confine;
pub mod folders;
#[cfg(target_os = "linux")]
pub mod inherited;
#[cfg(target_os = "linux")]
mod rules;
#[cfg(target_os = "linux")]
mod scheduling;
mod tmp;

pub use confine::{ChildRules, Confinement, DiskCap};
use serde::{Deserialize, Serialize};
use std::path::PathBuf;
pub use tmp::run_folder_of;

/// `--sandbox`: whether bots run sandboxed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Mode {
    /// Every layer this kernel has; runs as before where it has none.
    #[default]
    Auto,
    /// Every layer, or protocheck exits 2 before any bot starts.
    Require,
    /// No sandbox: bots run with protocheck's own rights.
    Off,
}

impl Mode {
    pub const NAMES: [&'static str; 3] = ["auto", "require", "off"];

    pub fn name(self) -> &'static str {
        match self {
            Mode::Auto => "auto",
            Mode::Require => "require",
            Mode::Off => "off",
        }
    }
}

/// Why the sandbox settings cannot be had: a `--sandbox` word that names no
/// mode, or `--sandbox require` on a system without every layer.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SandboxError {
    #[error("unknown sandbox mode `{mode}`: expected auto, require or off")]
    UnknownMode { mode: String },
    /// `layers`: what this system does offer.
    #[error(
        "--sandbox require: this system cannot confine {} ({}); run each submission in a container instead (docs/sandbox.md)",
        .missing.join(", "),
        .layers.line()
    )]
    RequireUnmet {
        missing: Vec<&'static str>,
        layers: Layers,
    },
}

impl std::str::FromStr for Mode {
    type Err = SandboxError;
    fn from_str(text: &str) -> Result<Mode, SandboxError> {
        match text {
            "auto" => Ok(Mode::Auto),
            "require" => Ok(Mode::Require),
            "off" => Ok(Mode::Off),
            other => Err(SandboxError::UnknownMode {
                mode: other.to_string(),
            }),
        }
    }
}

/// 256 MiB: far more than logs and caches of a game bot, far less than
/// what fills a shared grading machine.
pub const DEFAULT_MAX_DISK: u64 = 256 << 20;

/// The run's sandbox settings: one for every bot the run starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SandboxOptions {
    pub mode: Mode,
    /// `--allow-read PATH`: more files or folders a bot may read.
    pub allow_read: Vec<PathBuf>,
    /// `--max-disk`: bytes a bot may add to the folders it may write
    /// (`None`: no cap).
    pub max_disk: Option<u64>,
}

impl Default for SandboxOptions {
    fn default() -> Self {
        SandboxOptions {
            mode: Mode::Auto,
            allow_read: Vec::new(),
            max_disk: Some(DEFAULT_MAX_DISK),
        }
    }
}

impl SandboxOptions {
    /// The options as command-line words, for the commands a report prints
    /// to run a bot again and for `grade`'s runs of each bot. Defaults are
    /// left out.
    pub fn words(&self) -> Vec<String> {
        let mut words = Vec::new();
        if self.mode != Mode::Auto {
            words.extend(["--sandbox".to_string(), self.mode.name().to_string()]);
        }
        for path in &self.allow_read {
            words.extend([
                "--allow-read".to_string(),
                path.to_string_lossy().into_owned(),
            ]);
        }
        if self.max_disk != Some(DEFAULT_MAX_DISK) {
            let size = match self.max_disk {
                Some(bytes) => bytes.to_string(),
                None => "none".to_string(),
            };
            words.extend(["--max-disk".to_string(), size]);
        }
        words
    }
}

/// Which layers confine the bots of this run: what every report states.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Layers {
    /// The Landlock ABI in force (`None`: not used).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub landlock: Option<u32>,
    /// Files: reads and writes confined to the bot's folders.
    pub files: bool,
    /// TCP: no listening, connecting only to protocheck's port.
    pub tcp: bool,
    /// Signals, ptrace and abstract Unix sockets confined to the bot.
    pub signals: bool,
    /// Scheduling calls on other processes refused (seccomp).
    pub scheduling: bool,
    /// Why there is no sandbox at all, when there is none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub none_because: Option<String>,
}

impl Layers {
    /// No layer at all, for `reason` ("--sandbox off", "macOS", …).
    pub fn none(reason: &str) -> Layers {
        Layers {
            none_because: Some(reason.to_string()),
            ..Layers::default()
        }
    }

    /// Whether any layer is active.
    pub fn any(&self) -> bool {
        self.files || self.tcp || self.signals || self.scheduling
    }

    /// The layers this kernel lacks, by name (for `--sandbox require`).
    pub fn missing(&self) -> Vec<&'static str> {
        [
            ("files", self.files),
            ("tcp", self.tcp),
            ("signals", self.signals),
            ("scheduling", self.scheduling),
        ]
        .into_iter()
        .filter(|(_, on)| !on)
        .map(|(name, _)| name)
        .collect()
    }

    /// The summary line every report shows, e.g. `sandbox: landlock v7
    /// (files, tcp, signals), seccomp (scheduling)` or `sandbox: none
    /// (macOS)`.
    pub fn line(&self) -> String {
        if !self.any() {
            let why = self.none_because.as_deref().unwrap_or("not available");
            return format!("sandbox: none ({why})");
        }
        let mut parts = Vec::new();
        if let Some(abi) = self.landlock {
            let confined: Vec<&str> = [
                ("files", self.files),
                ("tcp", self.tcp),
                ("signals", self.signals),
            ]
            .into_iter()
            .filter(|(_, on)| *on)
            .map(|(name, _)| name)
            .collect();
            parts.push(format!("landlock v{abi} ({})", confined.join(", ")));
        }
        if self.scheduling {
            parts.push("seccomp (scheduling)".to_string());
        }
        format!("sandbox: {}", parts.join(", "))
    }
}

/// The layers bots of a run with `options` get on this machine, or why the
/// run must not start (`--sandbox require` where a layer is missing).
/// Asked once per run: the answer is the kernel's and does not change.
pub fn settle(options: &SandboxOptions) -> Result<Layers, SandboxError> {
    let layers = match options.mode {
        Mode::Off => return Ok(Layers::none("--sandbox off")),
        Mode::Auto | Mode::Require => kernel_layers(),
    };
    if layers.signals {
        shield_this_process();
    }
    let missing = layers.missing();
    if options.mode == Mode::Require && !missing.is_empty() {
        return Err(SandboxError::RequireUnmet { missing, layers });
    }
    Ok(layers)
}

/// What this kernel offers: Landlock's ABI decides files (1), TCP (4) and
/// signals with abstract sockets (6); seccomp filters decide scheduling.
#[cfg(target_os = "linux")]
fn kernel_layers() -> Layers {
    static LAYERS: std::sync::OnceLock<Layers> = std::sync::OnceLock::new();
    LAYERS
        .get_or_init(|| {
            let abi = landlock_abi();
            let scheduling = seccomp_filters_available() && scheduling::filter().is_some();
            let layers = Layers {
                landlock: abi,
                files: abi.is_some_and(|v| v >= 1),
                tcp: abi.is_some_and(|v| v >= 4),
                signals: abi.is_some_and(|v| v >= 6),
                scheduling,
                none_because: None,
            };
            if layers.any() {
                layers
            } else {
                Layers::none("this kernel has neither Landlock nor seccomp")
            }
        })
        .clone()
}

#[cfg(not(target_os = "linux"))]
fn kernel_layers() -> Layers {
    Layers::none(if cfg!(target_os = "macos") {
        "macOS"
    } else {
        "not Linux"
    })
}

/// Make this protocheck process non-dumpable, so that no process of the
/// same user without `CAP_SYS_PTRACE` reads its `/proc/<pid>/environ`,
/// `maps`, `fd` or `cwd`. Landlock refuses a bot `ptrace` and
/// `/proc/<pid>/mem` of a process outside its sandbox, but lets it read
/// what needs only `PTRACE_MODE_READ`, and protocheck's environment may
/// hold the grader's secrets (a CI token). The started child drops every
/// capability from its bounding set, so this holds for a bot run as root
/// too. Every protocheck process of a run settles its sandbox before
/// a bot starts (`grade`'s own included), so each is shielded.
/// Once per process: nothing protocheck does sets the flag back (only an
/// `exec` or a change of user would), and `settle` runs at every start.
fn shield_this_process() {
    #[cfg(target_os = "linux")]
    {
        static SHIELDED: std::sync::Once = std::sync::Once::new();
        // SAFETY: PR_SET_DUMPABLE only flips a flag of this process.
        SHIELDED.call_once(|| unsafe {
            libc::prctl(libc::PR_SET_DUMPABLE, 0, 0, 0, 0);
        });
    }
}

/// The Landlock ABI version of this kernel (`None`: Landlock is missing
/// or disabled at boot).
#[cfg(target_os = "linux")]
fn landlock_abi() -> Option<u32> {
    const LANDLOCK_CREATE_RULESET_VERSION: libc::c_uint = 1;
    // SAFETY: with a null attribute and size 0 the call only returns the
    // ABI version; it reads and writes no memory.
    let version = unsafe {
        libc::syscall(
            libc::SYS_landlock_create_ruleset,
            std::ptr::null::<libc::c_void>(),
            0usize,
            LANDLOCK_CREATE_RULESET_VERSION,
        )
    };
    u32::try_from(version).ok().filter(|v| *v >= 1)
}

/// Whether seccomp filters exist: `PR_GET_SECCOMP` fails with `EINVAL` on a
/// kernel built without them.
#[cfg(target_os = "linux")]
fn seccomp_filters_available() -> bool {
    // SAFETY: PR_GET_SECCOMP only reads this thread's seccomp mode.
    unsafe { libc::prctl(libc::PR_GET_SECCOMP, 0, 0, 0, 0) >= 0 }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_line_names_each_active_layer() {
        let all = Layers {
            landlock: Some(7),
            files: true,
            tcp: true,
            signals: true,
            scheduling: true,
            none_because: None,
        };
        assert_eq!(
            all.line(),
            "sandbox: landlock v7 (files, tcp, signals), seccomp (scheduling)"
        );
        assert!(all.missing().is_empty());
        let old = Layers {
            landlock: Some(3),
            files: true,
            scheduling: true,
            ..Layers::default()
        };
        assert_eq!(
            old.line(),
            "sandbox: landlock v3 (files), seccomp (scheduling)"
        );
        assert_eq!(old.missing(), ["tcp", "signals"]);
        assert_eq!(Layers::none("macOS").line(), "sandbox: none (macOS)");
    }

    #[test]
    fn require_unmet_names_the_missing_layers_and_what_there_is() {
        let layers = Layers {
            landlock: Some(3),
            files: true,
            ..Layers::default()
        };
        let error = SandboxError::RequireUnmet {
            missing: layers.missing(),
            layers: layers.clone(),
        };
        assert_eq!(
            error.to_string(),
            format!(
                "--sandbox require: this system cannot confine tcp, signals, scheduling ({}); run each submission in a container instead (docs/sandbox.md)",
                layers.line()
            )
        );
    }

    #[test]
    fn off_is_no_sandbox_whatever_the_kernel_has() {
        let off = SandboxOptions {
            mode: Mode::Off,
            ..SandboxOptions::default()
        };
        assert_eq!(settle(&off), Ok(Layers::none("--sandbox off")));
    }

    #[test]
    fn require_refuses_exactly_when_a_layer_is_missing() {
        let require = SandboxOptions {
            mode: Mode::Require,
            ..SandboxOptions::default()
        };
        let auto = settle(&SandboxOptions::default()).expect("auto always runs");
        match settle(&require) {
            Ok(layers) => assert!(layers.missing().is_empty(), "{layers:?}"),
            Err(error) => {
                assert!(!auto.missing().is_empty());
                let message = error.to_string();
                assert!(message.contains(&auto.missing().join(", ")), "{message}");
            }
        }
    }

    #[test]
    fn modes_parse_by_name_and_defaults_make_no_words() {
        for name in Mode::NAMES {
            assert_eq!(name.parse::<Mode>().map(Mode::name), Ok(name));
        }
        assert_eq!(
            "on".parse::<Mode>().unwrap_err().to_string(),
            "unknown sandbox mode `on`: expected auto, require or off"
        );
        assert!(SandboxOptions::default().words().is_empty());
        let options = SandboxOptions {
            mode: Mode::Off,
            allow_read: vec![PathBuf::from("/data")],
            max_disk: None,
        };
        assert_eq!(
            options.words(),
            [
                "--sandbox",
                "off",
                "--allow-read",
                "/data",
                "--max-disk",
                "none"
            ]
        );
    }
}
