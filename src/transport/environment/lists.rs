//! The lists the environment policy is made of: what a bot gets from
//! protocheck's environment by default ([`ALLOWED`], [`LOCATORS`]) and the
//! variables that never come with it unless named ([`IO_SWITCHES`]). Each
//! entry says why; docs/environment.md has the same tables.

/// A variable that changes a runtime's I/O, and why it is removed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IoSwitch {
    pub name: &'static str,
    pub runtime: &'static str,
    /// What it changes on the bot's standard streams (for the docs and
    /// the unit tests).
    pub effect: &'static str,
}

/// The variables that never reach a bot unless `--pass-env` names them
/// (docs/environment.md has the same table).
pub const IO_SWITCHES: &[IoSwitch] = &[
    IoSwitch {
        name: "PYTHONUNBUFFERED",
        runtime: "Python",
        effect: "stdout and stderr unbuffered: a reply arrives without a flush",
    },
    IoSwitch {
        name: "PYTHONIOENCODING",
        runtime: "Python",
        effect: "the encoding and error handler of stdin, stdout and stderr",
    },
    IoSwitch {
        name: "PYTHONUTF8",
        runtime: "Python",
        effect: "UTF-8 mode: the standard streams' encoding and error handler",
    },
    IoSwitch {
        name: "PYTHONINSPECT",
        runtime: "Python",
        effect: "after the script ends, an interactive prompt reads stdin instead of exiting",
    },
    IoSwitch {
        name: "PERLIO",
        runtime: "Perl",
        effect: "the I/O layers of every handle: `:unix` writes each print unbuffered",
    },
    IoSwitch {
        name: "PERL_UNICODE",
        runtime: "Perl",
        effect: "as -C: UTF-8 layers on the standard streams",
    },
    IoSwitch {
        name: "PERL5OPT",
        runtime: "Perl",
        effect: "switches for every perl: -C (stream encodings), -M (modules loaded first)",
    },
    IoSwitch {
        name: "RUBYOPT",
        runtime: "Ruby",
        effect: "options for every ruby: -E (stream encodings), -r (libraries loaded first)",
    },
    IoSwitch {
        name: "JAVA_TOOL_OPTIONS",
        runtime: "JVM",
        effect: "options for every JVM (stream encodings, heap size), announced on stderr",
    },
    IoSwitch {
        name: "_JAVA_OPTIONS",
        runtime: "JVM",
        effect: "options for every JVM (stream encodings, heap size), announced on stderr",
    },
    IoSwitch {
        name: "JDK_JAVA_OPTIONS",
        runtime: "JVM",
        effect: "options for every `java` launch (stream encodings, heap size), announced on stderr",
    },
    IoSwitch {
        name: "GHCRTS",
        runtime: "GHC",
        effect: "runtime options for every Haskell program (heap limit, threads), or a warning on stderr",
    },
    IoSwitch {
        name: "PLTSTDOUT",
        runtime: "Racket",
        effect: "log events written to stdout, among the replies",
    },
    IoSwitch {
        name: "PLTSTDERR",
        runtime: "Racket",
        effect: "which log events go to stderr: at `debug`, enough to pass Kalah's 64 KiB stderr bound",
    },
    IoSwitch {
        name: "GFORTRAN_UNBUFFERED_ALL",
        runtime: "gfortran",
        effect: "every unit unbuffered: a reply arrives without a flush",
    },
    IoSwitch {
        name: "GFORTRAN_UNBUFFERED_PRECONNECTED",
        runtime: "gfortran",
        effect: "the standard streams unbuffered: a reply arrives without a flush",
    },
    IoSwitch {
        name: "_STDBUF_I",
        runtime: "stdbuf",
        effect: "stdin's buffering in every C stdio program that inherits libstdbuf in LD_PRELOAD",
    },
    IoSwitch {
        name: "_STDBUF_O",
        runtime: "stdbuf",
        effect: "stdout's buffering (`stdbuf -oL`: a line at a time) in every C stdio program that inherits libstdbuf",
    },
    IoSwitch {
        name: "_STDBUF_E",
        runtime: "stdbuf",
        effect: "stderr's buffering in every C stdio program that inherits libstdbuf",
    },
    IoSwitch {
        name: "FORCE_COLOR",
        runtime: "Node and others",
        effect: "colour escapes on a pipe: Node's console.log colours numbers and objects",
    },
    IoSwitch {
        name: "CLICOLOR_FORCE",
        runtime: "many libraries",
        effect: "colour escapes on a pipe",
    },
];

/// The I/O switch named `name`, if it is one.
pub fn io_switch(name: &str) -> Option<&'static IoSwitch> {
    IO_SWITCHES.iter().find(|s| s.name == name)
}

/// A variable a bot gets from protocheck's environment by default, and why.
/// A name ending in `*` stands for every name with that prefix.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Allowed {
    pub name: &'static str,
    pub why: &'static str,
}

/// The fixed part of every bot's environment: what a program needs to find
/// its runtime, its user and its locale. None of them holds a secret.
pub const ALLOWED: &[Allowed] = &[
    Allowed {
        name: "PATH",
        why: "finds the interpreter or compiler a bot's command names (python3, java, racket)",
    },
    Allowed {
        name: "HOME",
        why: "protocheck's own HOME, not the bot's folder: pyenv shims, Racket user-scope packages (~/.local/share/racket), rustup, ghcup and sdkman find themselves through it",
    },
    Allowed {
        name: "USER",
        why: "who runs the bot; some runtimes ask (the JVM's user.name)",
    },
    Allowed {
        name: "LOGNAME",
        why: "who runs the bot, as POSIX names it",
    },
    Allowed {
        name: "LANG",
        why: "the locale: the encoding a runtime gives its standard streams by default",
    },
    Allowed {
        name: "LANGUAGE",
        why: "the order of message languages (GNU gettext)",
    },
    Allowed {
        name: "LC_*",
        why: "the locale's parts (LC_ALL, LC_CTYPE, …): the encoding of the standard streams",
    },
    Allowed {
        name: "TZ",
        why: "the time zone of timestamps a bot logs",
    },
    Allowed {
        name: "TERM",
        why: "the terminal type some libraries ask for before they decide not to colour a pipe",
    },
    Allowed {
        name: "TMPDIR",
        why: "the temporary folder (the sandbox sets its own private one over it)",
    },
];

/// Toolchain locators: where an installed runtime or its packages live, or
/// which installed version to use. No secrets, and without them a bot that
/// runs on the grader's shell fails under protocheck. Left out on purpose:
/// search paths that put a project's own code ahead of the toolchain's
/// (`PYTHONPATH`, `NODE_PATH`, `CLASSPATH`, `PERL5LIB`, `RUBYLIB`,
/// `LD_LIBRARY_PATH`, `LD_PRELOAD`): set for the grader's own work, they
/// make a bot run code that is not the student's; `--pass-env` keeps one.
pub const LOCATORS: &[Allowed] = &[
    Allowed {
        name: "JAVA_HOME",
        why: "the JDK that `java` wrappers and Gradle or Maven scripts run",
    },
    Allowed {
        name: "PYENV_ROOT",
        why: "where pyenv and its shims live",
    },
    Allowed {
        name: "PYENV_VERSION",
        why: "which pyenv Python the shims run",
    },
    Allowed {
        name: "VIRTUAL_ENV",
        why: "the active Python virtual environment (its bin is on PATH)",
    },
    Allowed {
        name: "CONDA_PREFIX",
        why: "the active conda environment",
    },
    Allowed {
        name: "RUSTUP_HOME",
        why: "where rustup keeps its toolchains",
    },
    Allowed {
        name: "RUSTUP_TOOLCHAIN",
        why: "which rustup toolchain `cargo` and `rustc` run",
    },
    Allowed {
        name: "CARGO_HOME",
        why: "where cargo keeps its binaries and registry",
    },
    Allowed {
        name: "GHCUP_INSTALL_BASE_PREFIX",
        why: "where ghcup installed GHC, cabal and stack",
    },
    Allowed {
        name: "STACK_ROOT",
        why: "where stack keeps its compilers and packages",
    },
    Allowed {
        name: "CABAL_DIR",
        why: "where cabal keeps its packages",
    },
    Allowed {
        name: "PLTUSERHOME",
        why: "Racket's user folder, in place of HOME",
    },
    Allowed {
        name: "PLTADDONDIR",
        why: "where Racket's user-scope packages are installed",
    },
    Allowed {
        name: "PLTCOLLECTS",
        why: "where Racket finds its collections in an unusual installation",
    },
    Allowed {
        name: "GEM_HOME",
        why: "where Ruby's gems are installed",
    },
    Allowed {
        name: "GEM_PATH",
        why: "where Ruby looks for installed gems",
    },
    Allowed {
        name: "GOPATH",
        why: "where Go keeps modules and installed programs",
    },
    Allowed {
        name: "GOROOT",
        why: "the Go installation `go run` uses",
    },
    Allowed {
        name: "SDKMAN_DIR",
        why: "where sdkman installed Java, Kotlin or Scala",
    },
    Allowed {
        name: "NVM_DIR",
        why: "where nvm installed Node",
    },
    Allowed {
        name: "XDG_DATA_HOME",
        why: "the user data folder (Racket's user packages when PLTADDONDIR is unset)",
    },
    Allowed {
        name: "XDG_CONFIG_HOME",
        why: "the user configuration folder some runtimes read",
    },
];

/// Whether a bot gets `name` from protocheck's environment by default: it
/// is in [`ALLOWED`] or [`LOCATORS`] and is not an I/O switch.
pub fn allowed(name: &str) -> bool {
    io_switch(name).is_none()
        && ALLOWED
            .iter()
            .chain(LOCATORS)
            .any(|a| matches(a.name, name))
}

/// Whether `pattern` (a name, or a prefix followed by `*`) names `name`.
pub fn matches(pattern: &str, name: &str) -> bool {
    match pattern.strip_suffix('*') {
        Some(prefix) => name.starts_with(prefix),
        None => pattern == name,
    }
}
