//! Resource limits for the bot (address space, CPU time, number of
//! processes) and how hitting one is reported. Hitting a limit is a verdict
//! on the bot (`io.resource-limit`, or the game's own memory rule), never a
//! failure of protocheck.

use crate::verdict::{RuleInfo, Severity, Violation};
use std::time::Duration;

/// The shared rule for a bot that exceeded one of protocheck's resource
/// limits. Every game's catalogue lists it among the harness limits
/// (`shared_rules::HARNESS`), which the rules digests do not.
pub static IO_RESOURCE_LIMIT: RuleInfo = RuleInfo {
    id: "io.resource-limit",
    severity: Severity::Fail,
    spec: "The bot stays within protocheck's resource limits for one scenario: address space (`--memory-limit`), CPU time over all its processes (`--cpu-limit`), processes and threads alive at once (`--max-processes`) and bytes written to the folders it may write (`--max-disk`).",
};

/// Limits applied to every bot process (`None`: no limit).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ResourceLimits {
    /// RLIMIT_AS of every bot process, in bytes.
    pub memory: Option<u64>,
    /// CPU time of all the bot's processes together, per scenario.
    pub cpu: Option<Duration>,
    /// Tasks (processes and threads, as the kernel counts them) of one bot
    /// alive at the same time, the bot included.
    pub processes: Option<usize>,
}

/// 8 GiB: a JVM reserves about 3.5 GiB of address space just to start (it
/// fails to start under 3 GiB), and a wrong "out of memory" verdict on a
/// correct bot is worse than a generous limit.
pub const DEFAULT_MEMORY: u64 = 8 << 30;
/// 10 minutes per scenario: well above what a single-threaded bot can use
/// answering every reply of a whole game within the default timeouts.
pub const DEFAULT_CPU: Duration = Duration::from_secs(600);
/// 512 tasks: a JVM starts about 20 threads on 2 cores and over 200 on a
/// 256-core grading server (its GC and compiler threads grow with the
/// cores), and a wrong verdict on a correct bot is worse than a generous
/// limit; a fork bomb still stops in a fraction of a second.
pub const DEFAULT_PROCESSES: usize = 512;

impl Default for ResourceLimits {
    fn default() -> Self {
        ResourceLimits {
            memory: Some(DEFAULT_MEMORY),
            cpu: Some(DEFAULT_CPU),
            processes: Some(DEFAULT_PROCESSES),
        }
    }
}

/// Which limit a bot hit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LimitKind {
    Memory,
    Cpu,
    Processes,
    Disk,
}

/// A limit the bot hit, with a sentence naming the limit and the usage.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LimitHit {
    pub kind: LimitKind,
    pub message: String,
}

impl LimitHit {
    /// The violation: the game's own memory rule for memory where it has
    /// one (Quoridor's 950 MB rule), `io.resource-limit` otherwise.
    pub fn violation(&self, game_memory_rule: Option<&'static RuleInfo>) -> Violation {
        let rule = match (self.kind, game_memory_rule) {
            (LimitKind::Memory, Some(rule)) => rule,
            _ => &IO_RESOURCE_LIMIT,
        };
        rule.violation(self.message.clone())
    }
}

/// Whether a stderr tail reads like a failed allocation (Rust, C++, Java,
/// Python, Go, Node and perror all say one of these).
pub fn mentions_out_of_memory(stderr_tail: &str) -> bool {
    let lower = stderr_tail.to_ascii_lowercase();
    // The JVM's own limits (the heap's -Xmx, by default a quarter of the
    // machine's memory; metaspace) are not protocheck's: such an error is
    // the bot's own crash, which a real match would see too. (Seen with a
    // course agent whose search filled its heap after 146 s.)
    if ["java heap space", "gc overhead limit exceeded", "metaspace"]
        .iter()
        .any(|own| lower.contains(own))
    {
        return false;
    }
    [
        "memory allocation of",
        "bad_alloc",
        "outofmemoryerror",
        "memoryerror",
        "out of memory",
        "cannot allocate memory",
        // ld.so, when the limit is too low to even load the libraries.
        "failed to map segment",
    ]
    .iter()
    .any(|needle| lower.contains(needle))
}

/// Why a limit flag's value (`--memory-limit`, `--cpu-limit`,
/// `--max-processes`, `--max-output`, `--max-disk`) was refused; `text` is
/// the value as given.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum LimitValueError {
    #[error("`{text}` is not a size (write e.g. 512M, 2G, 64MiB or 1000000)")]
    NotASize { text: String },
    #[error("unknown size unit `{unit}` in `{text}` (use K, M, G, T, KiB…TiB or kB…TB)")]
    UnknownUnit { unit: String, text: String },
    #[error("`{text}` is out of range (at least 1 byte)")]
    OutOfRange { text: String },
    #[error("`{text}`: {source}")]
    NotADuration {
        text: String,
        #[source]
        source: humantime::DurationError,
    },
    #[error("`{text}` is not a number of processes")]
    NotACount {
        text: String,
        #[source]
        source: std::num::ParseIntError,
    },
}

/// A size or `none` (also `0`), for `--memory-limit`: see [`parse_bytes`].
pub fn parse_size(text: &str) -> Result<Option<u64>, LimitValueError> {
    let t = text.trim();
    if t.eq_ignore_ascii_case("none") || t == "0" {
        return Ok(None);
    }
    parse_bytes(t).map(Some)
}

/// A number of bytes with an optional unit, the one size syntax of every
/// flag: `4096`, `500k`, `512M`, `1.5GiB`, `2MB`. Binary units (K, M, G, T,
/// with or without `iB`) are powers of 1024; the SI spellings kB, MB, GB and
/// TB are powers of 1000. At least one byte.
pub fn parse_bytes(text: &str) -> Result<u64, LimitValueError> {
    let t = text.trim();
    let split = t
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(t.len());
    let (number, unit) = t.split_at(split);
    let number: f64 = number.parse().map_err(|_| LimitValueError::NotASize {
        text: text.to_string(),
    })?;
    let scale: u64 = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 1,
        "k" | "kib" => 1 << 10,
        "m" | "mib" => 1 << 20,
        "g" | "gib" => 1 << 30,
        "t" | "tib" => 1 << 40,
        "kb" => 1_000,
        "mb" => 1_000_000,
        "gb" => 1_000_000_000,
        "tb" => 1_000_000_000_000,
        other => {
            return Err(LimitValueError::UnknownUnit {
                unit: other.to_string(),
                text: text.to_string(),
            });
        }
    };
    let bytes = number * scale as f64;
    if !(bytes.is_finite() && bytes >= 1.0 && bytes < u64::MAX as f64) {
        return Err(LimitValueError::OutOfRange {
            text: text.to_string(),
        });
    }
    Ok(bytes as u64)
}

/// A duration (`90s`, `10m`) or `none`.
pub fn parse_optional_duration(text: &str) -> Result<Option<Duration>, LimitValueError> {
    if text.trim().eq_ignore_ascii_case("none") {
        return Ok(None);
    }
    let d =
        humantime::parse_duration(text.trim()).map_err(|source| LimitValueError::NotADuration {
            text: text.to_string(),
            source,
        })?;
    Ok((!d.is_zero()).then_some(d))
}

/// A process count or `none`.
pub fn parse_count(text: &str) -> Result<Option<usize>, LimitValueError> {
    if text.trim().eq_ignore_ascii_case("none") {
        return Ok(None);
    }
    let n: usize = text
        .trim()
        .parse()
        .map_err(|source| LimitValueError::NotACount {
            text: text.to_string(),
            source,
        })?;
    Ok((n > 0).then_some(n))
}

/// Bytes for humans, to a tenth: `256 MiB`, `8 GiB`, `1.5 GiB`.
pub fn format_size(bytes: u64) -> String {
    const GIB: u64 = 1 << 30;
    const MIB: u64 = 1 << 20;
    if bytes >= GIB {
        format!("{} GiB", trim_float(bytes as f64 / GIB as f64))
    } else if bytes >= MIB {
        format!("{} MiB", trim_float(bytes as f64 / MIB as f64))
    } else {
        format!("{bytes} bytes")
    }
}

fn trim_float(x: f64) -> String {
    let s = format!("{x:.1}");
    s.strip_suffix(".0").map(str::to_string).unwrap_or(s)
}

/// setrlimit, never above the limits protocheck itself runs under (raising
/// a hard limit needs privileges; a stricter outer limit wins). Both ways
/// of starting a bot set its limits with it (`process`, `vfork_spawn`).
pub(super) fn lower_limit(resource: LimitResource, soft: u64, hard: u64) -> std::io::Result<()> {
    let mut current = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit/setrlimit write/read only the struct passed.
    unsafe {
        if libc::getrlimit(resource, &mut current) != 0 {
            return Err(std::io::Error::last_os_error());
        }
        let max = (hard as libc::rlim_t).min(current.rlim_max);
        let wanted = libc::rlimit {
            rlim_cur: (soft as libc::rlim_t).min(max),
            rlim_max: max,
        };
        if libc::setrlimit(resource, &wanted) != 0 {
            return Err(std::io::Error::last_os_error());
        }
    }
    Ok(())
}

/// The type of setrlimit's resource argument differs between libcs.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
type LimitResource = libc::__rlimit_resource_t;
#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
type LimitResource = libc::c_int;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_parse_with_binary_units() {
        assert_eq!(parse_size("512M"), Ok(Some(512 << 20)));
        assert_eq!(parse_size("2G"), Ok(Some(2 << 30)));
        assert_eq!(parse_size("1.5GiB"), Ok(Some(3 << 29)));
        assert_eq!(parse_size("4096"), Ok(Some(4096)));
        assert_eq!(parse_size("none"), Ok(None));
        assert!(parse_size("lots").is_err());
        assert!(parse_size("5X").is_err());
        assert_eq!(format_size(256 << 20), "256 MiB");
        assert_eq!(format_size(8 << 30), "8 GiB");
    }

    #[test]
    fn durations_and_counts_accept_none() {
        assert_eq!(
            parse_optional_duration("90s"),
            Ok(Some(Duration::from_secs(90)))
        );
        assert_eq!(parse_optional_duration("none"), Ok(None));
        assert_eq!(parse_count("16"), Ok(Some(16)));
        assert_eq!(parse_count("none"), Ok(None));
        assert!(parse_count("-1").is_err());
    }

    #[test]
    fn memory_hits_use_the_games_rule_where_it_has_one() {
        static GAME_RULE: RuleInfo = RuleInfo {
            id: "game.process.memory",
            severity: Severity::Fail,
            spec: "x",
        };
        let memory = LimitHit {
            kind: LimitKind::Memory,
            message: "m".into(),
        };
        assert_eq!(
            memory.violation(Some(&GAME_RULE)).rule,
            "game.process.memory"
        );
        assert_eq!(memory.violation(None).rule, "io.resource-limit");
        let cpu = LimitHit {
            kind: LimitKind::Cpu,
            message: "c".into(),
        };
        assert_eq!(cpu.violation(Some(&GAME_RULE)).rule, "io.resource-limit");
    }

    #[test]
    fn out_of_memory_messages_are_recognised() {
        assert!(mentions_out_of_memory(
            "memory allocation of 16777216 bytes failed\n"
        ));
        assert!(mentions_out_of_memory(
            "fatal error: runtime: out of memory"
        ));
        assert!(mentions_out_of_memory(
            "bot: error while loading shared libraries: libc.so.6: failed to map segment from shared object"
        ));
        assert!(!mentions_out_of_memory("thinking about move 3"));
        assert!(!mentions_out_of_memory(
            "Exception in thread \"main\" java.lang.OutOfMemoryError: Java heap space\n\tat kalah.Grid.clone"
        ));
    }

    #[test]
    fn refused_values_say_why_in_the_flags_words() {
        use std::error::Error;
        let said = |e: LimitValueError| e.to_string();
        assert_eq!(
            said(parse_size("lots").unwrap_err()),
            "`lots` is not a size (write e.g. 512M, 2G, 64MiB or 1000000)"
        );
        assert_eq!(
            said(parse_bytes("5 parsecs").unwrap_err()),
            "unknown size unit `parsecs` in `5 parsecs` (use K, M, G, T, KiB…TiB or kB…TB)"
        );
        assert_eq!(
            said(parse_bytes("0").unwrap_err()),
            "`0` is out of range (at least 1 byte)"
        );
        let duration = parse_optional_duration("9 fortnights").unwrap_err();
        let humantime = humantime::parse_duration("9 fortnights").unwrap_err();
        assert_eq!(
            said(duration.clone()),
            format!("`9 fortnights`: {humantime}")
        );
        assert!(duration.source().is_some(), "humantime's error is kept");
        let count = parse_count("-1").unwrap_err();
        assert_eq!(said(count.clone()), "`-1` is not a number of processes");
        assert!(
            count.source().is_some(),
            "the integer's parse error is kept"
        );
    }

    #[test]
    fn byte_sizes_parse_with_binary_and_si_units() {
        assert_eq!(parse_bytes("64MiB"), Ok(64 << 20));
        assert_eq!(parse_bytes("500k"), Ok(500 << 10));
        assert_eq!(parse_bytes("2MB"), Ok(2_000_000));
        assert_eq!(parse_bytes("1000000"), Ok(1_000_000));
        assert_eq!(parse_bytes(" 3 G "), Ok(3 << 30));
        assert!(parse_bytes("0").is_err());
        assert!(parse_bytes("MiB").is_err());
        assert!(parse_bytes("5 parsecs").is_err());
        assert!(parse_bytes("99999999999999999999G").is_err());
        assert!(parse_bytes("18446744073709551615G").is_err());
    }
}
