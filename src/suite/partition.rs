//! `--partition count:K/N|hash:K/N`: run one shard of the selected
//! scenarios, with cargo-nextest's meaning, so a CI matrix of N jobs (or N
//! graders) splits one suite without a scheduler of ours.
//!
//! - `count:K/N` deals the scenarios out in listing order, round robin: the
//!   first to shard 1, the second to shard 2, …; shard K gets every N-th one
//!   starting at the K-th. Balanced, but adding a scenario moves the ones
//!   after it to other shards.
//! - `hash:K/N` puts a scenario in shard `hash(name) mod N + 1`. A scenario
//!   stays in its shard whatever else is added or removed; shard sizes vary.
//!
//! The hash is 64-bit FNV-1a of the scenario name's UTF-8 bytes: fixed by
//! this file, not by a library's or a platform's choice, so every machine
//! and every protocheck version that keeps this function agrees.

use std::fmt;
use std::str::FromStr;

/// Which shard of how many, and how scenarios are dealt to shards.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Partition {
    pub kind: PartitionKind,
    /// 1-based, at most `total`.
    pub shard: u64,
    pub total: u64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PartitionKind {
    Count,
    Hash,
}

/// A `--partition` that names no shard.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum PartitionError {
    #[error("`{0}`: expected count:K/N or hash:K/N, e.g. hash:1/4")]
    Form(String),
    #[error("`{0}` is not a partition kind: use count:K/N or hash:K/N")]
    Kind(String),
    #[error("`{text}` is not a {what} (a whole number is expected)")]
    NotANumber { text: String, what: &'static str },
    #[error("the shard count N must be at least 1")]
    NoShards,
    #[error("shard {shard} of {total} does not exist: K counts from 1 to N")]
    NoSuchShard { shard: u64, total: u64 },
}

impl FromStr for Partition {
    type Err = PartitionError;

    fn from_str(text: &str) -> Result<Partition, PartitionError> {
        let usage = || PartitionError::Form(text.to_string());
        let (kind, rest) = text.split_once(':').ok_or_else(usage)?;
        let kind = match kind {
            "count" => PartitionKind::Count,
            "hash" => PartitionKind::Hash,
            other => return Err(PartitionError::Kind(other.to_string())),
        };
        let (shard, total) = rest.split_once('/').ok_or_else(usage)?;
        let number = |s: &str, what: &'static str| {
            s.parse::<u64>().map_err(|_| PartitionError::NotANumber {
                text: s.to_string(),
                what,
            })
        };
        let shard = number(shard, "shard number")?;
        let total = number(total, "shard count")?;
        if total == 0 {
            return Err(PartitionError::NoShards);
        }
        if shard == 0 || shard > total {
            return Err(PartitionError::NoSuchShard { shard, total });
        }
        Ok(Partition { kind, shard, total })
    }
}

impl fmt::Display for Partition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let kind = match self.kind {
            PartitionKind::Count => "count",
            PartitionKind::Hash => "hash",
        };
        write!(f, "{kind}:{}/{}", self.shard, self.total)
    }
}

impl Partition {
    /// Whether the scenario at `index` (0-based, in listing order) named
    /// `name` belongs to this shard.
    pub fn contains(&self, index: usize, name: &str) -> bool {
        let slot = match self.kind {
            PartitionKind::Count => index as u64 % self.total,
            PartitionKind::Hash => name_hash(name) % self.total,
        };
        slot + 1 == self.shard
    }

    /// Keep only this shard's items, in their order.
    pub fn select<T>(&self, items: Vec<T>, name: impl Fn(&T) -> &str) -> Vec<T> {
        items
            .into_iter()
            .enumerate()
            .filter(|(i, item)| self.contains(*i, name(item)))
            .map(|(_, item)| item)
            .collect()
    }
}

/// 64-bit FNV-1a: see the module documentation for why this one.
fn name_hash(name: &str) -> u64 {
    const OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
    const PRIME: u64 = 0x0000_0100_0000_01b3;
    name.bytes()
        .fold(OFFSET, |h, b| (h ^ u64::from(b)).wrapping_mul(PRIME))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(n: usize) -> Vec<String> {
        (0..n).map(|i| format!("scenario-{i:02}")).collect()
    }

    #[test]
    fn parses_both_kinds_and_prints_them_back() {
        for text in ["count:1/1", "count:2/3", "hash:4/4", "hash:1/100"] {
            assert_eq!(text.parse::<Partition>().unwrap().to_string(), text);
        }
    }

    #[test]
    fn rejects_what_names_no_shard() {
        for (text, why) in [
            ("count:0/3", "counts from 1"),
            ("count:4/3", "does not exist"),
            ("hash:1/0", "at least 1"),
            ("slice:1/2", "not a partition kind"),
            ("count:1-2", "expected count:K/N"),
            ("count", "expected count:K/N"),
            ("hash:x/2", "`x` is not a shard number"),
            ("hash:1/-2", "`-2` is not a shard count"),
        ] {
            let err = text.parse::<Partition>().unwrap_err().to_string();
            assert!(err.contains(why), "{text}: {err}");
        }
        assert_eq!(
            "count:4/3".parse::<Partition>().unwrap_err().to_string(),
            "shard 4 of 3 does not exist: K counts from 1 to N"
        );
    }

    /// Every scenario lands in exactly one shard, for both kinds and any N.
    #[test]
    fn shards_cover_the_suite_exactly_once() {
        let all = names(37);
        for kind in ["count", "hash"] {
            for total in 1..=8u64 {
                let mut seen = Vec::new();
                for shard in 1..=total {
                    let p: Partition = format!("{kind}:{shard}/{total}").parse().unwrap();
                    seen.extend(p.select(all.clone(), |s| s.as_str()));
                }
                seen.sort();
                assert_eq!(seen, all, "{kind} with {total} shards");
            }
        }
    }

    #[test]
    fn count_deals_round_robin_in_listing_order() {
        let p: Partition = "count:2/3".parse().unwrap();
        let picked = p.select(names(8), |s| s.as_str());
        assert_eq!(picked, ["scenario-01", "scenario-04", "scenario-07"]);
    }

    /// A scenario's hash shard does not depend on what else is selected, and
    /// the hash is the published FNV-1a (pinned values: another machine or
    /// version must put the same scenario in the same shard).
    #[test]
    fn hash_shards_are_stable() {
        assert_eq!(name_hash(""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(name_hash("a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(name_hash("foobar"), 0x8594_4171_f739_67e8);
        let p: Partition = "hash:3/5".parse().unwrap();
        let alone: Vec<_> = names(40)
            .into_iter()
            .filter(|n| p.select(vec![n.clone()], |s| s.as_str()).len() == 1)
            .collect();
        assert_eq!(alone, p.select(names(40), |s| s.as_str()));
        assert!(!alone.is_empty() && alone.len() < 40);
    }
}
