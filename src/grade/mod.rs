//! `protocheck grade`: every bot of a class run on the same selection, one
//! protocheck process per bot (`child`), several at once (`schedule`); a
//! folder of per-bot reports, a grades table (`table`) and a class page
//! (`summary`). `protocheck merge` joins the folders of shards (`merge`).
//!
//! Exit status: 0 every bot was graded (failing bots included: grading is
//! not a gate), 1 with `--fail-on-any` when a bot did not pass, 2 bad
//! input (nothing runs) or grade was stopped.

mod child;
mod compare;
mod folder;
mod merge;
pub mod options;
mod progress;
pub(crate) mod roster;
mod schedule;
mod scores;
mod sha256;
mod summary;
mod summary_coverage;
mod table;

pub use options::{GivenOption, ParsedRunOptions, RunOptions};

use crate::fatal::{Fatal, IoError, UsageError};
use crate::run::RunSpec;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// What `protocheck grade` grades, and how (the command line's help says
/// what each means).
#[derive(Debug)]
pub struct GradeConfig {
    /// Bot programs as paths or globs (or none, with `roster`).
    pub bots: Vec<String>,
    /// A CSV roster, `id,command[,workdir]` per line.
    pub roster: Option<PathBuf>,
    /// The folder grade runs in: every path is relative to it.
    pub cwd: PathBuf,
    /// The output folder.
    pub out: PathBuf,
    /// Bots graded at once (their scenarios get the jobs no bot needs).
    pub jobs: usize,
    pub force: bool,
    /// `K/N`, `count:K/N` or `hash:K/N`: the shard of the roster graded.
    pub partition: Option<String>,
    pub fail_on_any: bool,
    pub gradebook_csv: Option<PathBuf>,
    /// An earlier output folder to compare with.
    pub compare: Option<PathBuf>,
    /// The longest one bot's whole grading may take.
    pub bot_time_limit: Option<Duration>,
    /// The run options as given, grade's limit flags after them (as
    /// grades.json records them).
    pub run_options: Vec<String>,
    /// The same, checked: what every bot's run is given.
    pub options: RunOptions,
    /// The run the options select, checked once before any bot runs, or
    /// why the options (with the project file they name) make none.
    pub selection: Result<RunSpec, String>,
}

/// Which shard folders `protocheck merge` joins, and where.
#[derive(Debug)]
pub struct MergeConfig {
    pub folders: Vec<PathBuf>,
    pub out: PathBuf,
}

/// `protocheck grade`: the exit status (0, or 1 with `fail_on_any` when a
/// bot did not pass, 2 when grade was stopped).
pub fn grade(args: &GradeConfig, stop: &crate::pool::StopToken) -> Result<i32, Fatal> {
    let (cwd, options) = (&args.cwd, &args.options);
    // Before any bot starts: `--sandbox require` on a system without every
    // layer stops here, not in each bot's run.
    crate::transport::sandbox::settle(&options.sandbox).map_err(|e| Fatal::usage(e.to_string()))?;
    let partition = args
        .partition
        .as_deref()
        .map(shard)
        .transpose()
        .map_err(Fatal::usage)?;
    let entries = match (&args.roster, args.bots.is_empty()) {
        (Some(_), false) => {
            return Err(Fatal::usage(
                "give the bots either as paths or as --roster FILE, not both",
            ));
        }
        (None, true) => {
            return Err(Fatal::usage(
                "no bots to grade: protocheck grade <BOT>... -- <RUN OPTIONS> (or --roster FILE)",
            ));
        }
        (Some(file), true) => roster::from_csv(file, cwd),
        (None, false) => roster::from_paths(&args.bots, cwd),
    }
    .map_err(|problems| Fatal::usage(problems.join("\nerror: ")))?;
    check_selection(&args.selection)?;
    let entries: Vec<_> = match partition {
        Some(p) => p.select(entries, |e| &e.id),
        None => entries,
    };
    let out = cwd.join(&args.out);
    if let Some(old) = &args.compare {
        compare::check(&cwd.join(old), old, &out).map_err(|e| Fatal::usage(e.to_string()))?;
    }
    std::fs::create_dir_all(&out)
        .map_err(|e| Fatal::io(format!("cannot create {}", out.display()), e))?;
    let jobs = args.jobs;
    // From here a stop is passed on to the running bots, whose reports
    // are still written, and so is the table.
    stop.set_on_stop(crate::pool::OnStop::PassOn);
    let mut rows = schedule::grade_all(&schedule::Plan {
        entries: &entries,
        options: &options.args,
        out: &out,
        jobs,
        force: args.force,
        budget: args.bot_time_limit,
        stop,
    });
    match &args.compare {
        Some(old) => compare::compare_all(&mut rows, &cwd.join(old), &out),
        // A kept row never carries an earlier comparison.
        None => rows.iter_mut().for_each(|r| r.compared = None),
    }
    let mut grades = table::Grades {
        protocheck: crate::build_info::LONG.into(),
        game: options.game.clone(),
        options: args.run_options.clone(),
        partition: partition.map(|p| format!("{}/{}", p.shard, p.total)),
        bot_time_limit: args.bot_time_limit.map(crate::suite::budget::show),
        compared_with: args.compare.as_ref().map(|old| old.display().to_string()),
        bots: rows,
    };
    write_outputs(&out, &mut grades)?;
    if let Some(path) = &args.gradebook_csv {
        table::write_file(&cwd.join(path), &table::gradebook_csv(&grades.bots))
            .map_err(|e| Fatal::Io(IoError::Said(e.to_string())))?;
    }
    eprintln!(
        "protocheck: {}; class page {}",
        summary_counts(&grades.bots),
        out.join("index.html").display()
    );
    if stop.is_stopped() {
        return Ok(2);
    }
    let all_passed = grades.bots.iter().all(|r| r.status == "passed");
    Ok(if args.fail_on_any && !all_passed {
        1
    } else {
        0
    })
}

/// `protocheck merge`.
pub fn merge(args: &MergeConfig) -> Result<i32, Fatal> {
    let mut grades =
        merge::merge(&args.folders, &args.out).map_err(|e| Fatal::usage(e.to_string()))?;
    write_outputs(&args.out, &mut grades)?;
    eprintln!(
        "protocheck: merged {}: {}",
        counted(args.folders.len(), "folder", "folders"),
        summary_counts(&grades.bots)
    );
    Ok(0)
}

fn write_outputs(out: &Path, grades: &mut table::Grades) -> Result<(), Fatal> {
    table::write(out, grades).map_err(|e| Fatal::Io(IoError::Said(e.to_string())))?;
    table::write_file(&out.join("index.html"), &summary::render(grades))
        .map_err(|e| Fatal::Io(IoError::Said(e.to_string())))
}

fn summary_counts(rows: &[table::Row]) -> String {
    let count = |s: &str| rows.iter().filter(|r| r.status == s).count();
    let mut line = format!(
        "{} graded: {} passed, {} failed, {}, {} interrupted",
        counted(rows.len(), "bot", "bots"),
        count("passed"),
        count("failed"),
        counted(count("error"), "error", "errors"),
        count("interrupted")
    );
    let cut = rows.iter().filter(|r| r.not_run > 0).count();
    if cut > 0 {
        line += &format!("; {cut} cut by --bot-time-limit");
    }
    line
}

/// `1 bot`, `2 bots`, `0 bots`.
fn counted(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// `K/N` (or nextest's `count:K/N`, `hash:K/N`, the hash taken of the id).
fn shard(text: &str) -> Result<crate::suite::partition::Partition, String> {
    let full = if text.contains(':') {
        text.to_string()
    } else {
        format!("count:{text}")
    };
    full.parse().map_err(|e| format!("--partition {e}"))
}

/// The selection itself (game, scenario files, filter) is checked once,
/// as `--list` would check it, before any bot runs: a typo in the options
/// is one error, not one per bot.
fn check_selection(selection: &Result<RunSpec, String>) -> Result<(), Fatal> {
    let said = match selection {
        Ok(spec) => match crate::run::check_selection(spec) {
            Ok(()) => return Ok(()),
            Err(fatal) => fatal.to_string(),
        },
        Err(said) => said.clone(),
    };
    let said = said.trim().trim_start_matches("error: ");
    Err(Fatal::Usage(UsageError::RunOptions(said.into())))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rows(statuses: &[&str]) -> Vec<table::Row> {
        statuses
            .iter()
            .enumerate()
            .map(|(i, s)| {
                let mut row = table::row(&format!("b{i}"), table::Ended::Code(0), None, "", 0.0);
                row.status = s.to_string();
                row
            })
            .collect()
    }

    /// The selection is checked in this process, from the typed run, with
    /// the words a protocheck listing it would have said.
    #[test]
    fn the_selection_is_checked_from_the_typed_run() {
        let spec = |game: &str, filter: Option<&str>| RunSpec {
            game: Some(game.into()),
            filter: filter.map(String::from),
            ..RunSpec::default()
        };
        assert!(check_selection(&Ok(spec("kalah", None))).is_ok());
        let said = |selection| match check_selection(&selection) {
            Err(Fatal::Usage(m @ UsageError::RunOptions(_))) => m.to_string(),
            other => panic!("{other:?}"),
        };
        assert_eq!(
            said(Ok(spec("kalah", Some("no-such-scenario")))),
            "the run options after `--`: no scenario selected (check --filter)"
        );
        assert!(said(Ok(spec("kalha", None))).starts_with(
            "the run options after `--`: unknown game `kalha` (did you mean `kalah`?)"
        ),);
        assert_eq!(
            said(Err("error: --config x.toml: no such file".into())),
            "the run options after `--`: --config x.toml: no such file"
        );
    }

    #[test]
    fn counts_say_one_bot_and_two_bots() {
        assert_eq!(
            summary_counts(&rows(&["passed"])),
            "1 bot graded: 1 passed, 0 failed, 0 errors, 0 interrupted"
        );
        assert_eq!(
            summary_counts(&rows(&["error", "failed"])),
            "2 bots graded: 0 passed, 1 failed, 1 error, 0 interrupted"
        );
        let mut cut = rows(&["passed", "error"]);
        cut[1].not_run = 3;
        assert_eq!(
            summary_counts(&cut),
            "2 bots graded: 1 passed, 0 failed, 1 error, 0 interrupted; 1 cut by --bot-time-limit"
        );
        assert_eq!(counted(0, "bot", "bots"), "0 bots");
    }
}
