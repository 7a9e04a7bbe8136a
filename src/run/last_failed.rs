//! `--rerun-failed`: which scenarios failed in the last run of this bot,
//! kept in a small JSON file so the next run can run only those (pytest's
//! `--lf`). One file per run key — game, bot command and scenario sources —
//! so runs of other bots or suites never mix, and parallel runs of
//! different bots never write the same file.
//!
//! The files live in `.protocheck/` beside the `protocheck.toml` the run
//! used, else in the user's cache folder (`$XDG_CACHE_HOME/protocheck`,
//! `~/.cache/protocheck`; `~/Library/Caches/protocheck` on macOS). Keeping
//! this state is a convenience: a folder that cannot be written costs a
//! warning, never the run.
//!
//! The record is merged, as pytest does: a scenario that ran and passed
//! leaves it, one that failed (or ended in a scenario error) enters it, and
//! one that did not run this time (filtered out, skipped, interrupted) keeps
//! its entry. Entries for scenarios the suite no longer has are dropped.

use super::RunSpec;
use crate::coverage::Aims;
use crate::outcome::{ScenarioResult, Status};
use crate::scenario::{Origin, Scenario};
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// The folder beside `protocheck.toml` that holds protocheck's state
/// (`init` writes a `.gitignore` line for it).
pub const STATE_FOLDER: &str = ".protocheck";

/// What one run is, for the record: runs with the same key share it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunKey {
    pub game: String,
    /// The bot's command line as protocheck starts it.
    pub bot: String,
    /// `builtin` and the scenario paths given (absolute where they exist).
    pub sources: Vec<String>,
}

impl RunKey {
    /// The key's file name: a stable 64-bit FNV-1a hash of its fields (the
    /// standard library's hasher may change between Rust releases).
    fn file_name(&self) -> String {
        let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
        let fields = std::iter::once(&self.game)
            .chain(std::iter::once(&self.bot))
            .chain(&self.sources);
        for field in fields {
            for byte in field.bytes().chain(std::iter::once(0)) {
                hash ^= u64::from(byte);
                hash = hash.wrapping_mul(0x0100_0000_01b3);
            }
        }
        format!("last-failed-{hash:016x}.json")
    }
}

/// A scenario that failed, as the next run finds it again: by name, and a
/// generated game by its seed and index too (its name alone repeats from
/// seed to seed).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct FailedScenario {
    pub name: String,
    /// As the report shows it (a file, `builtin:…`, `generated: --seed …`).
    pub source: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub generated: Option<GeneratedGame>,
    /// A generated game's aims (docs/coverage.md): the situations the run
    /// had reached before it, so `--rerun-failed` plays it again alone
    /// exactly as it was played, without the games before it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub aimed_past: Option<Vec<String>>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct GeneratedGame {
    pub seed: u64,
    /// 0-based: the last game of `--games index+1 --seed seed`.
    pub index: usize,
}

impl FailedScenario {
    fn of(scenario: &Scenario, aims: Option<&Aims>) -> FailedScenario {
        FailedScenario {
            name: scenario.name.clone(),
            source: scenario.source.clone(),
            generated: generated_game(scenario),
            aimed_past: aims.map(|a| a.reached().map(str::to_string).collect()),
        }
    }

    /// The aims its game is played again with.
    pub fn aims(&self) -> Option<Aims> {
        let past = self.aimed_past.as_ref()?;
        Some(Aims::past(past.iter().map(String::as_str)))
    }

    /// Whether `scenario` is the one this entry names.
    pub fn names(&self, scenario: &Scenario) -> bool {
        self.name == scenario.name && self.generated == generated_game(scenario)
    }
}

fn generated_game(scenario: &Scenario) -> Option<GeneratedGame> {
    match scenario.origin {
        Origin::Generated { seed, index } => Some(GeneratedGame { seed, index }),
        Origin::File | Origin::Builtin => None,
    }
}

/// The file's content.
#[derive(Debug, Serialize, Deserialize)]
struct Record {
    /// The format of this file, for a later protocheck that changes it.
    version: u32,
    key: RunKey,
    failed: Vec<FailedScenario>,
}

const VERSION: u32 = 1;

/// Where the records of a run are kept: `.protocheck/` beside the project
/// file the run used, else the user's cache folder (`None` when there is
/// none, e.g. no HOME).
pub fn state_folder(project_file: Option<&Path>) -> Option<PathBuf> {
    match project_file {
        Some(file) => Some(file.parent().unwrap_or(Path::new(".")).join(STATE_FOLDER)),
        None => user_cache_folder().map(|c| c.join("protocheck")),
    }
}

/// The per-user cache folder, as the platform names it.
fn user_cache_folder() -> Option<PathBuf> {
    let absolute = |v: std::ffi::OsString| Some(PathBuf::from(v)).filter(|p| p.is_absolute());
    let home = std::env::var_os("HOME").and_then(absolute);
    if cfg!(target_os = "macos") {
        return home.map(|h| h.join("Library/Caches"));
    }
    if cfg!(windows) {
        return std::env::var_os("LOCALAPPDATA").and_then(absolute);
    }
    std::env::var_os("XDG_CACHE_HOME")
        .and_then(absolute)
        .or_else(|| home.map(|h| h.join(".cache")))
}

/// The scenarios of `key` that failed when it last ran; empty when there is
/// no record, or it cannot be read (a warning then: the run goes on).
pub fn read(folder: &Path, key: &RunKey) -> Vec<FailedScenario> {
    let path = folder.join(key.file_name());
    let text = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Vec::new(),
        Err(e) => {
            eprintln!("protocheck: warning: cannot read {}: {e}", path.display());
            return Vec::new();
        }
    };
    match serde_json::from_str::<Record>(&text) {
        // A record of another key under the same hash is not this run's.
        Ok(record) if record.version == VERSION && record.key == *key => record.failed,
        Ok(_) => Vec::new(),
        Err(e) => {
            eprintln!(
                "protocheck: warning: ignoring {}: {e} (it is rewritten after this run)",
                path.display()
            );
            Vec::new()
        }
    }
}

/// The record after a run: `before` less the scenarios that ran and did not
/// fail, plus those that failed (a generated game with the aims it was
/// played with, `aims`, by `ran`'s index); entries of file and built-in
/// scenarios the suite no longer has (`suite_names`) are dropped. Sorted, so
/// the file changes only when the failures do.
pub fn merge(
    before: Vec<FailedScenario>,
    ran: &[Scenario],
    results: &[ScenarioResult],
    aims: &[Option<Aims>],
    suite_names: &BTreeSet<String>,
) -> Vec<FailedScenario> {
    let mut failed: BTreeSet<FailedScenario> = before
        .into_iter()
        .filter(|f| f.generated.is_some() || suite_names.contains(&f.name))
        .collect();
    for (i, (scenario, result)) in ran.iter().zip(results).enumerate() {
        let entry = FailedScenario::of(scenario, aims.get(i).and_then(Option::as_ref));
        match result.status {
            Status::Failed | Status::Error => {
                failed.retain(|f| !f.names(scenario));
                failed.insert(entry);
            }
            Status::Passed => {
                failed.retain(|f| !f.names(scenario));
            }
            // Not judged this time: what was known stays.
            Status::Skipped | Status::Interrupted => {}
        }
    }
    failed.into_iter().collect()
}

/// Write the record of `key` (through a temporary file and a rename, so a
/// reader never sees half a file). An error is for a warning, not the run.
pub fn write(folder: &Path, key: &RunKey, failed: Vec<FailedScenario>) -> std::io::Result<PathBuf> {
    std::fs::create_dir_all(folder)?;
    let path = folder.join(key.file_name());
    let record = Record {
        version: VERSION,
        key: key.clone(),
        failed,
    };
    let mut text = serde_json::to_string_pretty(&record).map_err(std::io::Error::other)?;
    text.push('\n');
    let temporary = folder.join(format!(".{}.{}.tmp", key.file_name(), std::process::id()));
    std::fs::write(&temporary, text)?;
    std::fs::rename(&temporary, &path).inspect_err(|_| {
        let _ = std::fs::remove_file(&temporary);
    })?;
    Ok(path)
}

/// The record of one run: read before the scenarios are chosen, written
/// once they have run.
pub struct LastFailed {
    folder: Option<PathBuf>,
    key: RunKey,
    before: Vec<FailedScenario>,
    /// The names of the file and built-in scenarios the suite has (before
    /// `--filter`), so entries of scenarios gone from it can be dropped.
    suite_names: BTreeSet<String>,
}

impl LastFailed {
    /// The record for this command line, with the scenarios it loaded.
    pub fn open(spec: &RunSpec, game: &str, loaded: &[Scenario]) -> LastFailed {
        let folder = state_folder(spec.project_file.as_deref());
        let key = run_key(spec, game);
        let before = folder.as_deref().map(|f| read(f, &key)).unwrap_or_default();
        let suite_names = loaded
            .iter()
            .filter(|s| generated_game(s).is_none())
            .map(|s| s.name.clone())
            .collect();
        LastFailed {
            folder,
            key,
            before,
            suite_names,
        }
    }

    /// `--rerun-failed`: keep only the scenarios that failed last time
    /// (generated games are played again from their recorded seed). With
    /// nothing recorded, or nothing of it left in this suite, everything
    /// runs, as pytest's `--lf` does, and stderr says so.
    /// `generate(count, seed)`: the game's first `count` generated games.
    pub fn select(
        &self,
        scenarios: &mut Vec<Scenario>,
        generate: impl Fn(usize, u64) -> Vec<Scenario>,
    ) {
        if self.folder.is_none() {
            eprintln!(
                "protocheck: --rerun-failed: no cache folder to keep the record in (HOME is not set); running all"
            );
            return;
        }
        if self.before.is_empty() {
            eprintln!("protocheck: --rerun-failed: no previously failed scenarios; running all");
            return;
        }
        let mut counts: std::collections::BTreeMap<u64, usize> = Default::default();
        for game in self.before.iter().filter_map(|f| f.generated) {
            let count = counts.entry(game.seed).or_default();
            *count = (*count).max(game.index + 1);
        }
        let mut kept: Vec<Scenario> = scenarios
            .iter()
            .filter(|s| generated_game(s).is_none() && self.failed_before(s))
            .cloned()
            .collect();
        for (seed, count) in counts {
            kept.extend(
                generate(count, seed)
                    .into_iter()
                    .filter(|s| self.failed_before(s)),
            );
        }
        if kept.is_empty() {
            eprintln!(
                "protocheck: --rerun-failed: none of the {} scenario{} that failed last time is in this suite; running all",
                self.before.len(),
                if self.before.len() == 1 { "" } else { "s" }
            );
            return;
        }
        eprintln!(
            "protocheck: --rerun-failed: running the {} scenario{} that failed last time",
            kept.len(),
            if kept.len() == 1 { "" } else { "s" }
        );
        *scenarios = kept;
    }

    fn failed_before(&self, scenario: &Scenario) -> bool {
        self.before.iter().any(|f| f.names(scenario))
    }

    /// `--rerun-failed`: the aims a generated game that failed last time
    /// was played with, so it plays the same again alone.
    pub fn aims_of(&self, scenario: &Scenario) -> Option<Aims> {
        self.before
            .iter()
            .find(|f| f.names(scenario))
            .and_then(FailedScenario::aims)
    }

    /// Record how `ran` went (`results` and the generated games' `aims` in
    /// the same order). A folder that cannot be written gets a warning; the
    /// run goes on as it was.
    pub fn record(self, ran: &[Scenario], results: &[ScenarioResult], aims: &[Option<Aims>]) {
        // No cache folder (no HOME): nowhere to keep it, which
        // `--rerun-failed` says when it is asked for.
        let Some(folder) = self.folder else {
            return;
        };
        let failed = merge(self.before, ran, results, aims, &self.suite_names);
        if let Err(e) = write(&folder, &self.key, failed) {
            eprintln!(
                "protocheck: warning: cannot record the failed scenarios in {}: {e} (--rerun-failed will not know them)",
                folder.display()
            );
        }
    }
}

/// The run's key: a bot or scenario path counts as the file it names,
/// wherever the run starts from.
fn run_key(spec: &RunSpec, game: &str) -> RunKey {
    let words: Vec<String> = match (&spec.bot, &spec.bot_cmd) {
        (Some(bot), _) => std::iter::once(bot.clone())
            .chain(spec.bot_args.iter().cloned())
            .collect(),
        (None, Some(cmd)) => shell_words::split(cmd)
            .unwrap_or_else(|_| vec![cmd.clone()])
            .into_iter()
            .chain(spec.bot_args.iter().cloned())
            .collect(),
        (None, None) => vec!["(client started by the user)".into()],
    };
    let bot = words
        .iter()
        .enumerate()
        .map(|(i, w)| {
            let named_file = i == 0 && (w.contains('/') || Path::new(w).is_file());
            let w = match named_file.then(|| std::fs::canonicalize(w)) {
                Some(Ok(path)) => path.display().to_string(),
                _ => w.clone(),
            };
            crate::transport::shell_quote(&w)
        })
        .collect::<Vec<_>>()
        .join(" ");
    let mut sources = Vec::new();
    if spec.scenarios.is_empty() || spec.with_builtin {
        sources.push("builtin".to_string());
    }
    for path in &spec.scenarios {
        let path = std::fs::canonicalize(path).unwrap_or_else(|_| path.clone());
        sources.push(path.display().to_string());
    }
    RunKey {
        game: game.to_string(),
        bot,
        sources,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::Options;

    fn scenario(name: &str, origin: Origin) -> Scenario {
        Scenario {
            name: name.into(),
            game: "kalah".into(),
            about: None,
            rules: Vec::new(),
            spec: None,
            options: Options::default(),
            source: format!("builtin:kalah/{name}.yaml"),
            steps: Vec::new(),
            origin,
        }
    }

    fn result(name: &str, status: Status) -> ScenarioResult {
        ScenarioResult::new(name, "kalah", "", status)
    }

    fn key() -> RunKey {
        RunKey {
            game: "kalah".into(),
            bot: "./my-bot".into(),
            sources: vec!["builtin".into()],
        }
    }

    #[test]
    fn a_pass_clears_a_failure_and_what_did_not_run_keeps_its_entry() {
        let (a, b, c) = (
            scenario("a", Origin::Builtin),
            scenario("b", Origin::Builtin),
            scenario("c", Origin::Builtin),
        );
        let suite: BTreeSet<String> = ["a", "b", "c"].map(String::from).into();
        let first = merge(
            Vec::new(),
            &[a.clone(), b.clone(), c.clone()],
            &[
                result("a", Status::Failed),
                result("b", Status::Error),
                result("c", Status::Passed),
            ],
            &[],
            &suite,
        );
        let names = |f: &[FailedScenario]| f.iter().map(|f| f.name.clone()).collect::<Vec<_>>();
        assert_eq!(names(&first), ["a", "b"]);
        // A rerun of `a` alone that passes; `b` did not run.
        let second = merge(first, &[a], &[result("a", Status::Passed)], &[], &suite);
        assert_eq!(names(&second), ["b"]);
        // Skipped or interrupted is not judged.
        let third = merge(
            second.clone(),
            &[b],
            &[result("b", Status::Skipped)],
            &[],
            &suite,
        );
        assert_eq!(third, second);
        // `b` is gone from the suite (renamed): its entry goes.
        let fourth = merge(third, &[], &[], &[], &["a".to_string()].into());
        assert!(fourth.is_empty(), "{fourth:?}");
    }

    #[test]
    fn a_generated_game_is_known_by_its_seed_too() {
        let seven = scenario("generated-001", Origin::Generated { seed: 7, index: 0 });
        let eight = scenario("generated-001", Origin::Generated { seed: 8, index: 0 });
        let failed = merge(
            Vec::new(),
            std::slice::from_ref(&seven),
            &[result("generated-001", Status::Failed)],
            &[Some(Aims::past(["kalah.capture.any"]))],
            &BTreeSet::new(),
        );
        assert!(failed[0].names(&seven));
        assert!(!failed[0].names(&eight));
        // It is played again with the aims it was played with.
        assert_eq!(failed[0].aims(), Some(Aims::past(["kalah.capture.any"])));
        // A pass with another seed says nothing about seed 7's game.
        let after = merge(
            failed.clone(),
            &[eight],
            &[result("generated-001", Status::Passed)],
            &[None],
            &BTreeSet::new(),
        );
        assert_eq!(after, failed);
        // Failing again with other aims (a run of more games) keeps one
        // entry, with the new aims; passing clears it whatever the aims.
        let again = merge(
            after,
            std::slice::from_ref(&seven),
            &[result("generated-001", Status::Failed)],
            &[Some(Aims::default())],
            &BTreeSet::new(),
        );
        assert_eq!(again.len(), 1);
        assert_eq!(again[0].aims(), Some(Aims::default()));
        let cleared = merge(
            again,
            std::slice::from_ref(&seven),
            &[result("generated-001", Status::Passed)],
            &[None],
            &BTreeSet::new(),
        );
        assert!(cleared.is_empty());
    }

    #[test]
    fn a_record_is_read_back_only_for_its_own_key() {
        let folder =
            std::env::temp_dir().join(format!("protocheck-last-failed-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&folder);
        let failed = vec![FailedScenario::of(&scenario("a", Origin::Builtin), None)];
        assert!(read(&folder, &key()).is_empty(), "no record yet");
        let path = write(&folder, &key(), failed.clone()).unwrap();
        assert!(path.starts_with(&folder));
        assert_eq!(read(&folder, &key()), failed);
        let other = RunKey {
            bot: "./other-bot".into(),
            ..key()
        };
        assert!(read(&folder, &other).is_empty());
        // A damaged file is ignored (with a warning), not an error.
        std::fs::write(&path, "{ not json").unwrap();
        assert!(read(&folder, &key()).is_empty());
        std::fs::remove_dir_all(&folder).unwrap();
    }

    #[test]
    fn the_state_sits_beside_the_project_file() {
        assert_eq!(
            state_folder(Some(Path::new("/repo/protocheck.toml"))),
            Some(PathBuf::from("/repo/.protocheck"))
        );
    }
}
