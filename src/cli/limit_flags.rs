//! The limits every bot runs under: memory, CPU time, processes, output,
//! message length and the sandbox (`--sandbox`, `--allow-read`,
//! `--max-disk`). One set of flags, the same in a single run, `record`,
//! `grade` (given to each bot's run), `match` and `tournament`, turned into
//! `transport::Limits` by one function, so every command starts its bots
//! under the same policy.

use crate::transport::Limits;
use crate::transport::limits::{self, ResourceLimits};
use crate::transport::sandbox::{self, Mode, SandboxOptions};
use clap::builder::{PossibleValuesParser, TypedValueParser};
use std::path::PathBuf;
use std::time::Duration;

/// The defaults as the flags spell them (a unit test ties each to the
/// constant it stands for).
const MEMORY_DEFAULT: &str = "8G";
const CPU_DEFAULT: &str = "10m";
const PROCESSES_DEFAULT: &str = "512";
const OUTPUT_DEFAULT: &str = "64MiB";
const MAX_DISK_DEFAULT: &str = "256MiB";
const MAX_LINE_DEFAULT: usize = 64 * 1024;

// `std::option::Option` below: spelled out so that clap takes the field as
// a flag with a default whose value may be `none`, not as an optional flag.
#[derive(Clone, Debug, PartialEq, Eq, clap::Args)]
pub struct LimitFlags {
    /// Longest message accepted from the bot, in bytes.
    #[arg(long, value_name = "BYTES", default_value_t = MAX_LINE_DEFAULT)]
    pub max_line: usize,
    /// Address-space limit (RLIMIT_AS) of every bot process, e.g. 512M,
    /// 2G, or none.
    #[arg(long, value_name = "SIZE", default_value = MEMORY_DEFAULT, value_parser = limits::parse_size)]
    pub memory_limit: std::option::Option<u64>,
    /// CPU time of all the bot's processes together, per scenario (per
    /// game in a match), e.g. 30s, or none.
    #[arg(long, value_name = "DURATION", default_value = CPU_DEFAULT, value_parser = limits::parse_optional_duration)]
    pub cpu_limit: std::option::Option<Duration>,
    /// Processes and threads the bot may have alive at once (itself included; the kernel counts each thread), or none.
    #[arg(long, value_name = "N", default_value = PROCESSES_DEFAULT, value_parser = limits::parse_count)]
    pub max_processes: std::option::Option<usize>,
    /// Most bytes the bot may write to stdout in one scenario, e.g. 64MiB or 500k; past it the bot is stopped (`io.output-limit`).
    #[arg(long, value_name = "SIZE", default_value = OUTPUT_DEFAULT, value_parser = limits::parse_bytes)]
    pub max_output: u64,
    /// Run every bot in a sandbox (docs/sandbox.md): auto, every layer this
    /// system has (none on macOS); require, every layer or exit 2 before
    /// any bot starts; off, bots run with protocheck's own rights.
    #[arg(
        long,
        value_name = "MODE",
        default_value = "auto",
        value_parser = PossibleValuesParser::new(Mode::NAMES).try_map(|name| name.parse::<Mode>())
    )]
    pub sandbox: Mode,
    /// Let every bot read this file or folder too (besides the system
    /// folders, its own folder and its program's). Repeat for more.
    #[arg(long = "allow-read", value_name = "PATH", value_parser = existing_path)]
    pub allow_read: Vec<PathBuf>,
    /// Bytes a bot may add to the folders it may write (its working folder
    /// and its TMPDIR), e.g. 1G, or none; past it the bot is stopped
    /// (`io.resource-limit`).
    #[arg(long, value_name = "SIZE", default_value = MAX_DISK_DEFAULT, value_parser = limits::parse_size)]
    pub max_disk: std::option::Option<u64>,
}

impl Default for LimitFlags {
    fn default() -> Self {
        LimitFlags {
            max_line: MAX_LINE_DEFAULT,
            memory_limit: Some(limits::DEFAULT_MEMORY),
            cpu_limit: Some(limits::DEFAULT_CPU),
            max_processes: Some(limits::DEFAULT_PROCESSES),
            max_output: crate::controller::bounds::DEFAULT_MAX_OUTPUT,
            sandbox: Mode::Auto,
            allow_read: Vec::new(),
            max_disk: Some(sandbox::DEFAULT_MAX_DISK),
        }
    }
}

impl LimitFlags {
    /// The limits of every bot the command starts (`--max-output` is the
    /// run's, `RunConfig::max_output`).
    pub fn limits(&self) -> Limits {
        Limits {
            message_cap: self.max_line,
            resources: ResourceLimits {
                memory: self.memory_limit,
                cpu: self.cpu_limit,
                processes: self.max_processes,
            },
            sandbox: self.sandbox_options(),
            ..Limits::default()
        }
    }

    /// The limits and `--max-output`, as every command takes them.
    pub fn bot_limits(&self) -> crate::config::BotLimits {
        crate::config::BotLimits {
            limits: self.limits(),
            max_output: self.max_output,
        }
    }

    pub fn sandbox_options(&self) -> SandboxOptions {
        SandboxOptions {
            mode: self.sandbox,
            allow_read: self.allow_read.clone(),
            max_disk: self.max_disk,
        }
    }

    /// The flags not at their default, as words another protocheck parses
    /// to the same values: how `grade` gives them to each bot's run.
    pub fn words(&self) -> Vec<String> {
        let default = LimitFlags::default();
        let mut words = Vec::new();
        let mut push = |name: &str, value: String| {
            words.extend([format!("--{name}"), value]);
        };
        let none = || "none".to_string();
        if self.max_line != default.max_line {
            push("max-line", self.max_line.to_string());
        }
        if self.memory_limit != default.memory_limit {
            push(
                "memory-limit",
                self.memory_limit.map_or_else(none, |b| b.to_string()),
            );
        }
        if self.cpu_limit != default.cpu_limit {
            push(
                "cpu-limit",
                self.cpu_limit
                    .map_or_else(none, |d| humantime::format_duration(d).to_string()),
            );
        }
        if self.max_processes != default.max_processes {
            push(
                "max-processes",
                self.max_processes.map_or_else(none, |n| n.to_string()),
            );
        }
        if self.max_output != default.max_output {
            push("max-output", self.max_output.to_string());
        }
        words.extend(self.sandbox_options().words());
        words
    }
}

/// `--allow-read`: a path that exists, made absolute and free of links, so
/// it means the same in a bot's working folder (grade's runs) and the
/// sandbox rule names the real file.
fn existing_path(text: &str) -> Result<PathBuf, String> {
    std::fs::canonicalize(text).map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => "no such file or folder".to_string(),
        _ => e.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Debug, Parser)]
    struct Flags {
        #[command(flatten)]
        limits: LimitFlags,
    }

    fn parse(words: &[&str]) -> Result<LimitFlags, clap::Error> {
        Flags::try_parse_from(std::iter::once("protocheck").chain(words.iter().copied()))
            .map(|f| f.limits)
    }

    #[test]
    fn defaults_are_the_transport_defaults() {
        let given = parse(&[]).unwrap();
        assert_eq!(given, LimitFlags::default());
        let limits = given.limits();
        assert_eq!(limits.resources, ResourceLimits::default());
        assert_eq!(limits.sandbox, SandboxOptions::default());
        assert_eq!(limits.message_cap, Limits::default().message_cap);
        assert!(given.words().is_empty());
    }

    #[test]
    fn every_flag_reaches_the_limits() {
        let dir = std::env::temp_dir();
        let given = parse(&[
            "--max-line",
            "100",
            "--memory-limit",
            "512M",
            "--cpu-limit",
            "none",
            "--max-processes",
            "3",
            "--max-output",
            "1k",
            "--sandbox",
            "off",
            "--allow-read",
            dir.to_str().unwrap(),
            "--max-disk",
            "none",
        ])
        .unwrap();
        let limits = given.limits();
        assert_eq!(limits.message_cap, 100);
        assert_eq!(
            limits.resources,
            ResourceLimits {
                memory: Some(512 << 20),
                cpu: None,
                processes: Some(3),
            }
        );
        assert_eq!(given.max_output, 1024);
        assert_eq!(
            limits.sandbox,
            SandboxOptions {
                mode: Mode::Off,
                allow_read: vec![std::fs::canonicalize(&dir).unwrap()],
                max_disk: None,
            }
        );
    }

    #[test]
    fn words_parse_back_to_the_same_flags() {
        let dir = std::env::temp_dir();
        for words in [
            vec!["--cpu-limit", "90s", "--memory-limit", "none"],
            vec!["--max-processes", "none", "--max-disk", "1G"],
            vec![
                "--sandbox",
                "require",
                "--allow-read",
                dir.to_str().unwrap(),
            ],
            vec![
                "--max-line",
                "10",
                "--max-output",
                "2MB",
                "--cpu-limit",
                "1m 30s",
            ],
        ] {
            let given = parse(&words).unwrap();
            let again: Vec<String> = given.words();
            let again: Vec<&str> = again.iter().map(String::as_str).collect();
            assert_eq!(parse(&again).unwrap(), given, "{words:?} -> {again:?}");
        }
    }

    #[test]
    fn a_bad_mode_or_a_missing_path_is_a_usage_error() {
        let e = parse(&["--sandbox", "bogus"]).unwrap_err();
        assert_eq!(e.kind(), clap::error::ErrorKind::InvalidValue);
        assert!(e.to_string().contains("auto, require, off"), "{e}");
        let e = parse(&["--allow-read", "/no/such/folder"]).unwrap_err();
        assert!(e.to_string().contains("/no/such/folder"), "{e}");
        assert!(e.to_string().contains("no such file or folder"), "{e}");
    }

    #[test]
    fn a_relative_path_is_stored_absolute() {
        let given = parse(&["--allow-read", "."]).unwrap();
        assert_eq!(
            given.allow_read,
            [std::fs::canonicalize(std::env::current_dir().unwrap()).unwrap()]
        );
    }
}
