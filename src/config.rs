//! What every command's configuration is built from, written once: the
//! duration the command line takes (`--timeout 2s`), the default number of
//! jobs, and the `RunConfig` every bot of a run, `record` or `match` is
//! started with.

use crate::controller::{RunConfig, TcpConfig};
use crate::pool::StopToken;
use crate::transport::{BotCommand, Limits};
use std::time::Duration;

/// A duration on the command line: `2s`, `500ms`, `1m30s`.
pub fn parse_duration(s: &str) -> Result<Duration, DurationError> {
    humantime::parse_duration(s).map_err(DurationError)
}

/// A command-line duration that does not parse, with what to write.
#[derive(Debug, thiserror::Error)]
#[error("{0} (write e.g. 2s, 500ms, 1m)")]
pub struct DurationError(#[source] humantime::DurationError);

/// `--jobs`: as asked, by default one per CPU (one when the system cannot
/// tell).
pub fn jobs(asked: Option<usize>) -> usize {
    asked.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

/// The limits every bot process of a command runs under, and the most it
/// may write to stdout (`--max-output`, counted per scenario or game).
#[derive(Clone, Debug)]
pub struct BotLimits {
    pub limits: Limits,
    pub max_output: u64,
}

/// The time limits of a run; `None`: the game's own.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Timings {
    pub timeout: Option<Duration>,
    pub startup_timeout: Option<Duration>,
    pub exit_grace: Option<Duration>,
    pub silence: Option<Duration>,
}

/// A `RunConfig`: the bot, its limits and the run's stop token, then what
/// the command sets. Unless set: the game's own timings, not strict, no TCP
/// settings and no pictures.
pub struct RunConfigBuilder {
    cfg: RunConfig,
}

impl RunConfigBuilder {
    pub fn new(bot: BotCommand, limits: &BotLimits, stop: &StopToken) -> RunConfigBuilder {
        RunConfigBuilder {
            cfg: RunConfig {
                bot,
                limits: limits.limits.clone(),
                timeout: None,
                startup_timeout: None,
                exit_grace: None,
                silence: None,
                strict: false,
                max_output: limits.max_output,
                tcp: TcpConfig::default(),
                pictures: false,
                stop: stop.clone(),
            },
        }
    }

    pub fn timings(mut self, timings: Timings) -> Self {
        let Timings {
            timeout,
            startup_timeout,
            exit_grace,
            silence,
        } = timings;
        self.cfg.timeout = timeout;
        self.cfg.startup_timeout = startup_timeout;
        self.cfg.exit_grace = exit_grace;
        self.cfg.silence = silence;
        self
    }

    /// `--strict`: warnings count as failures.
    pub fn strict(mut self, strict: bool) -> Self {
        self.cfg.strict = strict;
        self
    }

    /// Games over TCP: `--port`, `--no-spawn`.
    pub fn tcp(mut self, tcp: TcpConfig) -> Self {
        self.cfg.tcp = tcp;
        self
    }

    /// Record the game's picture beside every transcript line.
    pub fn pictures(mut self, pictures: bool) -> Self {
        self.cfg.pictures = pictures;
        self
    }

    pub fn build(self) -> RunConfig {
        self.cfg
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bad_duration_says_what_to_write_and_keeps_the_parsers_error() {
        let e = parse_duration("soon").unwrap_err();
        assert_eq!(
            e.to_string(),
            "expected number at 0 (write e.g. 2s, 500ms, 1m)"
        );
        assert!(std::error::Error::source(&e).is_some());
    }

    #[test]
    fn durations_read_as_the_help_writes_them_and_a_bad_one_says_how() {
        assert_eq!(parse_duration("2s").unwrap(), Duration::from_secs(2));
        assert_eq!(parse_duration("500ms").unwrap(), Duration::from_millis(500));
        assert_eq!(parse_duration("1m30s").unwrap(), Duration::from_secs(90));
        let e = parse_duration("soon").unwrap_err().to_string();
        assert!(e.ends_with("(write e.g. 2s, 500ms, 1m)"), "{e}");
    }

    #[test]
    fn jobs_are_as_asked_else_one_per_cpu() {
        assert_eq!(jobs(Some(3)), 3);
        let cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
        assert_eq!(jobs(None), cpus);
        assert!(jobs(None) >= 1);
    }

    fn bot() -> BotCommand {
        BotCommand {
            program: "./bot".into(),
            args: vec!["-v".into()],
            env: Default::default(),
            workdir: None,
        }
    }

    #[test]
    fn a_run_config_has_the_games_timings_unless_set() {
        let limits = BotLimits {
            limits: Limits {
                message_cap: 10,
                ..Limits::default()
            },
            max_output: 99,
        };
        let cfg = RunConfigBuilder::new(bot(), &limits, &StopToken::new()).build();
        assert_eq!(cfg.bot.program, "./bot");
        assert_eq!(cfg.limits.message_cap, 10);
        assert_eq!(cfg.max_output, 99);
        assert_eq!(
            (
                cfg.timeout,
                cfg.startup_timeout,
                cfg.exit_grace,
                cfg.silence
            ),
            (None, None, None, None)
        );
        assert!(!cfg.strict && !cfg.pictures && !cfg.tcp.no_spawn && cfg.tcp.port == 0);
    }

    #[test]
    fn a_run_config_takes_what_the_command_sets() {
        let limits = BotLimits {
            limits: Limits::default(),
            max_output: 1,
        };
        let timings = Timings {
            timeout: Some(Duration::from_secs(2)),
            startup_timeout: Some(Duration::from_secs(5)),
            exit_grace: Some(Duration::from_millis(300)),
            silence: Some(Duration::ZERO),
        };
        let cfg = RunConfigBuilder::new(bot(), &limits, &StopToken::new())
            .timings(timings)
            .strict(true)
            .tcp(TcpConfig {
                port: 4000,
                no_spawn: true,
            })
            .pictures(true)
            .build();
        assert_eq!(cfg.timeout, timings.timeout);
        assert_eq!(cfg.startup_timeout, timings.startup_timeout);
        assert_eq!(cfg.exit_grace, timings.exit_grace);
        assert_eq!(cfg.silence, timings.silence);
        assert!(cfg.strict && cfg.pictures);
        assert_eq!((cfg.tcp.port, cfg.tcp.no_spawn), (4000, true));
    }
}
