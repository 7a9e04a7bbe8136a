//! The environment a bot starts with, decided in one place for every way
//! protocheck starts a bot (a single run, `record`, each bot's protocheck
//! under `grade`, `match`, `tournament`).
//!
//! A verdict must not depend on who runs protocheck. Docker images, IDE
//! terminals and CI runners set variables such as `PYTHONUNBUFFERED=1`;
//! passed on, one makes a Python bot that never flushes pass every
//! scenario on one machine and time out at its first reply on the course
//! server. So by default a bot gets protocheck's environment without the
//! variables that change how a runtime buffers, encodes or adds to its
//! standard streams ([`IO_SWITCHES`], each with why); `--pass-env NAME`
//! keeps one on purpose and `--env NAME=VALUE` sets one. The report lists
//! what was removed, kept and set ([`EnvNote`]).
//!
//! [`Base`] is where a bot's environment starts from; a fixed, documented
//! environment (`PATH`, `HOME`, `LANG`, `TMPDIR`, …) is another base to
//! come (issue 27). Besides what the policy decides, the launcher adds the
//! game's own variables (`PROTOCHECK_PORT`, [`BotEnv::game`]) and the tag
//! that finds a bot's escaped processes (`PROTOCHECK_BOT`, see
//! [`super::guard`]).

use serde::Serialize;
use std::collections::BTreeMap;
use std::ffi::{OsStr, OsString};
use std::process::Command;

/// A variable that changes a runtime's I/O, and why it is removed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IoSwitch {
    pub name: &'static str,
    pub runtime: &'static str,
    /// What it changes on the bot's standard streams (for the docs and
    /// the unit tests).
    pub effect: &'static str,
}

/// The variables removed by default (docs/hostile-bots.md, "The bot's
/// environment", has the same table).
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

/// Where a bot's environment starts from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Base {
    /// protocheck's own environment without the [`IO_SWITCHES`].
    #[default]
    InheritedWithoutIoSwitches,
}

/// The run's policy: one for every bot the run starts.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EnvPolicy {
    pub base: Base,
    /// `--pass-env NAME`: kept from protocheck's environment whatever the
    /// base leaves out (nothing when protocheck's environment lacks it).
    pub pass: Vec<String>,
    /// `--env NAME=VALUE`, over protocheck's own value.
    pub set: Vec<(String, String)>,
}

/// What the report says about the bots' environment: names only (a value
/// may be a secret).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct EnvNote {
    /// Variables of protocheck's environment the bots did not get.
    pub removed: Vec<String>,
    /// `--pass-env`: kept on purpose (those protocheck's environment has).
    pub passed: Vec<String>,
    /// `--env`: set for every bot.
    pub set: Vec<String>,
}

impl EnvNote {
    /// Nothing removed, passed or set: the bots got protocheck's own.
    pub fn is_plain(&self) -> bool {
        self.removed.is_empty() && self.passed.is_empty() && self.set.is_empty()
    }

    /// One line for the human reports, `None` when there is nothing to say.
    pub fn line(&self) -> Option<String> {
        if self.is_plain() {
            return None;
        }
        let mut parts = Vec::new();
        match self.removed.as_slice() {
            [] => {}
            [one] => parts.push(format!(
                "{one} left out (it changes how a runtime buffers, encodes or adds to its output; --pass-env {one} keeps it)"
            )),
            many => parts.push(format!(
                "{} left out (they change how a runtime buffers, encodes or adds to its output; --pass-env NAME keeps one)",
                many.join(", ")
            )),
        }
        if !self.passed.is_empty() {
            parts.push(format!("kept on purpose: {}", self.passed.join(", ")));
        }
        if !self.set.is_empty() {
            parts.push(format!("set with --env: {}", self.set.join(", ")));
        }
        Some(format!("bot environment: {}", parts.join("; ")))
    }
}

impl EnvPolicy {
    /// Whether the base leaves `name` out of a bot's environment.
    fn base_drops(&self, name: &OsStr) -> bool {
        match self.base {
            Base::InheritedWithoutIoSwitches => {
                name.to_str().is_some_and(|n| io_switch(n).is_some())
            }
        }
    }

    fn passes(&self, name: &OsStr) -> bool {
        self.pass.iter().any(|p| OsStr::new(p) == name)
    }

    /// The whole environment a bot gets, from protocheck's `inherited`
    /// one (the game's variables not included).
    pub fn environment(
        &self,
        inherited: impl IntoIterator<Item = (OsString, OsString)>,
    ) -> BTreeMap<OsString, OsString> {
        let mut env: BTreeMap<OsString, OsString> = inherited
            .into_iter()
            .filter(|(name, _)| !self.base_drops(name) || self.passes(name))
            .collect();
        for (name, value) in &self.set {
            env.insert(name.into(), value.into());
        }
        env
    }

    /// What the report says, for protocheck's `inherited` environment.
    pub fn note(&self, inherited: impl IntoIterator<Item = (OsString, OsString)>) -> EnvNote {
        let inherited: Vec<OsString> = inherited.into_iter().map(|(name, _)| name).collect();
        let has = |name: &str| inherited.iter().any(|n| n == name);
        let set = |name: &OsString| self.set.iter().any(|(n, _)| OsStr::new(n) == name);
        let mut removed: Vec<String> = inherited
            .iter()
            .filter(|n| self.base_drops(n) && !self.passes(n) && !set(n))
            .map(|n| n.to_string_lossy().into_owned())
            .collect();
        removed.sort();
        let passed = once_each(self.pass.iter().filter(|n| has(n)));
        let set = once_each(self.set.iter().map(|(n, _)| n));
        EnvNote {
            removed,
            passed,
            set,
        }
    }

    /// The note for protocheck's own environment now.
    pub fn note_here(&self) -> EnvNote {
        self.note(std::env::vars_os())
    }

    /// The policy as command-line words (`--pass-env NAME`, `--env
    /// NAME=VALUE`), for the commands a report prints to run a bot again.
    pub fn words(&self) -> Vec<String> {
        let mut words = Vec::new();
        for name in &self.pass {
            words.extend(["--pass-env".to_string(), name.clone()]);
        }
        for (name, value) in &self.set {
            words.extend(["--env".to_string(), format!("{name}={value}")]);
        }
        words
    }
}

/// The names in their first order, each once.
fn once_each<'a>(names: impl Iterator<Item = &'a String>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for name in names {
        if !out.contains(name) {
            out.push(name.clone());
        }
    }
    out
}

/// One bot's environment: the run's policy and the game's own variables
/// for this bot.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BotEnv {
    pub policy: EnvPolicy,
    /// The game's variables (Evolution: `PROTOCHECK_PORT`), set last: a
    /// user's `--env` cannot move the port protocheck listens on.
    pub game: Vec<(String, String)>,
}

impl BotEnv {
    /// The whole environment, from protocheck's `inherited` one.
    pub fn environment(
        &self,
        inherited: impl IntoIterator<Item = (OsString, OsString)>,
    ) -> BTreeMap<OsString, OsString> {
        let mut env = self.policy.environment(inherited);
        for (name, value) in &self.game {
            env.insert(name.into(), value.into());
        }
        env
    }

    /// Give `command` this environment. Written as removals and settings
    /// over protocheck's own (not `env_clear`), which both the standard
    /// library and `vfork_spawn` read from the command.
    pub fn apply(&self, command: &mut Command) {
        let inherited: Vec<(OsString, OsString)> = std::env::vars_os().collect();
        let env = self.environment(inherited.iter().cloned());
        for (name, _) in &inherited {
            if !env.contains_key(name) {
                command.env_remove(name);
            }
        }
        for (name, value) in env {
            if !inherited.iter().any(|(n, v)| *n == name && *v == value) {
                command.env(name, value);
            }
        }
    }
}

/// `--env NAME=VALUE`.
pub fn parse_setting(text: &str) -> Result<(String, String), String> {
    let (name, value) = text
        .split_once('=')
        .ok_or_else(|| format!("`{text}` is not NAME=VALUE"))?;
    parse_name(name)?;
    if value.contains('\0') {
        return Err("a value cannot hold a NUL byte".into());
    }
    Ok((name.to_string(), value.to_string()))
}

/// `--pass-env NAME`.
pub fn parse_name(name: &str) -> Result<String, String> {
    if name.is_empty() || name.contains(['=', '\0']) {
        return Err(format!(
            "`{name}` is not a variable name (non-empty, without `=`)"
        ));
    }
    Ok(name.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vars(pairs: &[(&str, &str)]) -> Vec<(OsString, OsString)> {
        pairs
            .iter()
            .map(|(k, v)| (OsString::from(k), OsString::from(v)))
            .collect()
    }

    fn names(env: &BTreeMap<OsString, OsString>) -> Vec<&str> {
        env.keys().map(|k| k.to_str().unwrap()).collect()
    }

    const GRADER: &[(&str, &str)] = &[
        ("HOME", "/home/grader"),
        ("PATH", "/usr/bin:/bin"),
        ("PYTHONUNBUFFERED", "1"),
        ("JAVA_TOOL_OPTIONS", "-Dfile.encoding=UTF8"),
        ("_STDBUF_O", "L"),
        ("LD_PRELOAD", "/usr/libexec/coreutils/libstdbuf.so"),
        ("CI", "true"),
    ];

    #[test]
    fn by_default_the_io_switches_are_removed_and_everything_else_is_kept() {
        let env = EnvPolicy::default().environment(vars(GRADER));
        assert_eq!(names(&env), ["CI", "HOME", "LD_PRELOAD", "PATH"]);
        assert_eq!(env[OsStr::new("HOME")], "/home/grader");
    }

    #[test]
    fn pass_env_keeps_one_and_env_sets_one() {
        let policy = EnvPolicy {
            pass: vec!["PYTHONUNBUFFERED".into(), "NOT_SET_HERE".into()],
            set: vec![
                ("GHCRTS".into(), "-M1g".into()),
                ("MODE".into(), "a=b".into()),
            ],
            ..EnvPolicy::default()
        };
        let env = policy.environment(vars(GRADER));
        assert_eq!(env[OsStr::new("PYTHONUNBUFFERED")], "1");
        assert_eq!(env[OsStr::new("GHCRTS")], "-M1g");
        assert_eq!(env[OsStr::new("MODE")], "a=b");
        assert!(!env.contains_key(OsStr::new("NOT_SET_HERE")));
        assert!(!env.contains_key(OsStr::new("JAVA_TOOL_OPTIONS")));
    }

    #[test]
    fn the_note_names_what_was_removed_kept_and_set() {
        let policy = EnvPolicy {
            pass: vec!["PYTHONUNBUFFERED".into(), "NOT_SET_HERE".into()],
            set: vec![("JAVA_TOOL_OPTIONS".into(), "-Xmx1g".into())],
            ..EnvPolicy::default()
        };
        let note = policy.note(vars(GRADER));
        assert_eq!(
            note,
            EnvNote {
                removed: vec!["_STDBUF_O".into()],
                passed: vec!["PYTHONUNBUFFERED".into()],
                set: vec!["JAVA_TOOL_OPTIONS".into()],
            }
        );
        assert_eq!(
            note.line().unwrap(),
            "bot environment: _STDBUF_O left out (it changes how a runtime buffers, encodes or adds to its output; --pass-env _STDBUF_O keeps it); kept on purpose: PYTHONUNBUFFERED; set with --env: JAVA_TOOL_OPTIONS"
        );
        let two = EnvPolicy::default().note(vars(GRADER)).line().unwrap();
        assert_eq!(
            two,
            "bot environment: JAVA_TOOL_OPTIONS, PYTHONUNBUFFERED, _STDBUF_O left out (they change how a runtime buffers, encodes or adds to its output; --pass-env NAME keeps one)"
        );
        let plain = EnvPolicy::default().note(vars(&[("PATH", "/bin")]));
        assert!(plain.is_plain() && plain.line().is_none());
    }

    #[test]
    fn a_name_given_twice_is_noted_once_and_the_flags_are_given_back_in_order() {
        let policy = EnvPolicy {
            pass: vec!["CI".into(), "HOME".into(), "CI".into()],
            set: vec![("A".into(), "1 2".into()), ("A".into(), "3".into())],
            ..EnvPolicy::default()
        };
        let note = policy.note(vars(GRADER));
        assert_eq!(note.passed, ["CI", "HOME"]);
        assert_eq!(note.set, ["A"]);
        assert_eq!(
            policy.words(),
            [
                "--pass-env",
                "CI",
                "--pass-env",
                "HOME",
                "--pass-env",
                "CI",
                "--env",
                "A=1 2",
                "--env",
                "A=3"
            ]
        );
    }

    #[test]
    fn the_games_variables_come_last() {
        let env = BotEnv {
            policy: EnvPolicy {
                set: vec![("PROTOCHECK_PORT".into(), "1".into())],
                ..EnvPolicy::default()
            },
            game: vec![("PROTOCHECK_PORT".into(), "40000".into())],
        };
        assert_eq!(
            env.environment(vars(GRADER))[OsStr::new("PROTOCHECK_PORT")],
            "40000"
        );
    }

    #[test]
    fn every_switch_is_named_once_and_explained() {
        for (i, s) in IO_SWITCHES.iter().enumerate() {
            assert!(
                IO_SWITCHES[..i].iter().all(|t| t.name != s.name),
                "{} twice",
                s.name
            );
            assert!(!s.effect.is_empty() && !s.runtime.is_empty(), "{}", s.name);
        }
        assert!(io_switch("PYTHONUNBUFFERED").is_some());
        assert!(io_switch("HOME").is_none());
    }

    #[test]
    fn settings_and_names_are_checked() {
        assert_eq!(
            parse_setting("A=b=c"),
            Ok(("A".to_string(), "b=c".to_string()))
        );
        assert_eq!(parse_setting("A="), Ok(("A".to_string(), String::new())));
        assert!(parse_setting("A").is_err());
        assert!(parse_setting("=b").is_err());
        assert!(parse_name("A=b").is_err());
        assert!(parse_name("").is_err());
        assert_eq!(
            parse_name("PYTHONUNBUFFERED").as_deref(),
            Ok("PYTHONUNBUFFERED")
        );
    }

    #[test]
    fn apply_removes_and_sets_over_protocheck_s_own() {
        // protocheck's own environment has PATH; a name it cannot have is
        // set, and one removal is checked through a switch it might have.
        let env = BotEnv {
            policy: EnvPolicy {
                set: vec![("PROTOCHECK_ENV_TEST".into(), "x".into())],
                ..EnvPolicy::default()
            },
            game: Vec::new(),
        };
        let mut command = Command::new("true");
        env.apply(&mut command);
        let changes: Vec<(&OsStr, Option<&OsStr>)> = command.get_envs().collect();
        assert!(changes.contains(&(OsStr::new("PROTOCHECK_ENV_TEST"), Some(OsStr::new("x")))));
        for (name, value) in &changes {
            if value.is_none() {
                assert!(io_switch(name.to_str().unwrap()).is_some(), "{name:?}");
            }
        }
    }
}
