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
mod options;
mod progress;
pub(crate) mod roster;
mod schedule;
mod scores;
mod sha256;
mod summary;
mod summary_coverage;
mod table;

use crate::cli::Fatal;
use std::path::{Path, PathBuf};

/// Grade a class: one report per bot, `grades.csv`, `grades.json` and a class page.
#[derive(Debug, clap::Args)]
#[command(after_help = GRADE_HELP)]
pub struct GradeArgs {
    /// Bot programs, as paths or globs (`submissions/*/bot`, expanded by
    /// protocheck when quoted); each bot's id is its folder's name, and it
    /// runs in that folder.
    #[arg(value_name = "BOT")]
    pub bots: Vec<String>,
    /// A CSV roster, `id,command[,workdir]` per line (header optional), for
    /// bots that need a command line; workdir is relative to the file.
    #[arg(long, value_name = "FILE")]
    pub roster: Option<PathBuf>,
    /// The output folder.
    #[arg(long, short = 'o', value_name = "DIR", default_value = "grades")]
    pub out: PathBuf,
    /// Jobs (default: CPUs): bots graded at once, one job each; when the
    /// bots left are fewer than the jobs, a bot's scenarios get the jobs no
    /// other bot needs (its run's own --jobs). Verdicts do not depend on it.
    #[arg(long, value_name = "N")]
    pub jobs: Option<usize>,
    /// Grade every bot again, also those kept because nothing they depend on
    /// changed.
    #[arg(long)]
    pub force: bool,
    /// Grade only shard K of N of the roster (dealt out round robin in
    /// roster order); join the shards' folders with `protocheck merge`.
    #[arg(long, value_name = "K/N")]
    pub partition: Option<String>,
    /// Exit with 1 when a bot did not pass (grading as a gate).
    #[arg(long)]
    pub fail_on_any: bool,
    /// Also write the CSV gradebooks import: `id,score`, one line per bot
    /// (the score by the run options' `--grading` policy, or the default;
    /// empty for a bot without a report).
    #[arg(long, value_name = "PATH")]
    pub gradebook_csv: Option<PathBuf>,
    /// The output folder of an earlier grade: each bot's previous score
    /// there and the rules it fixed or newly broke since, on the class page
    /// and in grades.csv/grades.json (read from its report there; a bot
    /// without one is new).
    #[arg(long, value_name = "OLD_DIR")]
    pub compare: Option<PathBuf>,
    /// The limits and the sandbox of every bot, given to each bot's run
    /// (the same flags after `--` do the same).
    #[command(flatten)]
    pub limits: crate::cli::limit_flags::LimitFlags,
    /// The longest one bot's whole grading may take (all its scenarios and
    /// generated games), e.g. 2m, or none (the default: every bot runs to
    /// the end, each reply bounded by its timeouts). When it is spent the
    /// bot's running scenarios are stopped; it is graded on the scenarios
    /// it finished, the rest listed as not run with the reason. A scenario
    /// cut short is never a failure.
    #[arg(long, value_name = "DURATION", default_value = "none", value_parser = crate::transport::limits::parse_optional_duration)]
    pub bot_time_limit: std::option::Option<std::time::Duration>,
    /// The options of a single run, given to every bot's run unchanged
    /// (game, scenarios, --games with --seed, timeouts, limits, …).
    #[arg(last = true, value_name = "RUN_OPTIONS")]
    pub run_options: Vec<String>,
}

const GRADE_HELP: &str = "Examples:\n  \
protocheck grade submissions/*/bot -- --game kalah\n  \
protocheck grade --roster roster.csv --out grades --jobs 4 -- --game kalah --games 20 --seed 2026\n  \
protocheck grade submissions/*/bot --out week2 --compare week1 -- --game kalah\n\
A bot graded before is kept while nothing it depends on changed: every file of its folder (by content), its command, \
the run options and protocheck's version; --force grades every bot again. A bot cut by --bot-time-limit is graded again \
when the limit changes; one that finished is kept while it finished within the new limit.\n\
The limit and sandbox options above are added to every bot's run options (give each on one side of `--` only).\n\
Exit status: 0 every bot was graded (failures included), 1 with --fail-on-any when a bot did not pass, \
2 bad input (nothing runs) or grade was stopped.";

/// Join the output folders of `grade --partition` shards.
#[derive(Debug, clap::Args)]
pub struct MergeArgs {
    /// The shards' output folders.
    #[arg(value_name = "FOLDER", required = true)]
    pub folders: Vec<PathBuf>,
    /// Where the merged folder goes.
    #[arg(long, short = 'o', value_name = "DIR", default_value = "grades")]
    pub out: PathBuf,
}

pub fn grade(args: &GradeArgs) -> Result<i32, Fatal> {
    let cwd = std::env::current_dir()
        .map_err(|e| Fatal::Io(format!("cannot tell the current folder: {e}")))?;
    let run_options =
        options::with_limits(&args.run_options, &args.limits.words()).map_err(Fatal::Usage)?;
    let options = options::check(&run_options, &cwd).map_err(Fatal::Usage)?;
    // Before any bot starts: `--sandbox require` on a system without every
    // layer stops here, not in each bot's run.
    crate::transport::sandbox::settle(&options.sandbox).map_err(Fatal::Usage)?;
    let partition = args
        .partition
        .as_deref()
        .map(shard)
        .transpose()
        .map_err(Fatal::Usage)?;
    let entries = match (&args.roster, args.bots.is_empty()) {
        (Some(_), false) => {
            return Err(Fatal::Usage(
                "give the bots either as paths or as --roster FILE, not both".into(),
            ));
        }
        (None, true) => {
            return Err(Fatal::Usage(
                "no bots to grade: protocheck grade <BOT>... -- <RUN OPTIONS> (or --roster FILE)"
                    .into(),
            ));
        }
        (Some(file), true) => roster::from_csv(file, &cwd),
        (None, false) => roster::from_paths(&args.bots, &cwd),
    }
    .map_err(|problems| Fatal::Usage(problems.join("\nerror: ")))?;
    check_selection(&options.args, &cwd)?;
    let entries: Vec<_> = match partition {
        Some(p) => p.select(entries, |e| &e.id),
        None => entries,
    };
    let out = cwd.join(&args.out);
    if let Some(old) = &args.compare {
        compare::check(&cwd.join(old), old, &out).map_err(Fatal::Usage)?;
    }
    std::fs::create_dir_all(&out)
        .map_err(|e| Fatal::Io(format!("cannot create {}: {e}", out.display())))?;
    let jobs = args.jobs.unwrap_or_else(|| {
        std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1)
    });
    // From here a stop is passed on to the running bots, whose reports
    // are still written, and so is the table.
    schedule::pass_stops_on();
    let mut rows = schedule::grade_all(&schedule::Plan {
        entries: &entries,
        options: &options.args,
        out: &out,
        jobs,
        force: args.force,
        budget: args.bot_time_limit,
    });
    match &args.compare {
        Some(old) => compare::compare_all(&mut rows, &cwd.join(old)),
        // A kept row never carries an earlier comparison.
        None => rows.iter_mut().for_each(|r| r.compared = None),
    }
    let mut grades = table::Grades {
        protocheck: crate::build_info::LONG.into(),
        game: options.game.clone(),
        options: run_options,
        partition: partition.map(|p| format!("{}/{}", p.shard, p.total)),
        bot_time_limit: args.bot_time_limit.map(crate::suite::budget::show),
        compared_with: args.compare.as_ref().map(|old| old.display().to_string()),
        bots: rows,
    };
    write_outputs(&out, &mut grades)?;
    if let Some(path) = &args.gradebook_csv {
        table::write_file(&cwd.join(path), &table::gradebook_csv(&grades.bots))
            .map_err(Fatal::Io)?;
    }
    eprintln!(
        "protocheck: {}; class page {}",
        summary_counts(&grades.bots),
        out.join("index.html").display()
    );
    if schedule::stopped_by().is_some() {
        return Ok(2);
    }
    let all_passed = grades.bots.iter().all(|r| r.status == "passed");
    Ok(if args.fail_on_any && !all_passed {
        1
    } else {
        0
    })
}

pub fn merge(args: &MergeArgs) -> Result<i32, Fatal> {
    let mut grades = merge::merge(&args.folders, &args.out).map_err(Fatal::Usage)?;
    write_outputs(&args.out, &mut grades)?;
    eprintln!(
        "protocheck: merged {}: {}",
        counted(args.folders.len(), "folder", "folders"),
        summary_counts(&grades.bots)
    );
    Ok(0)
}

fn write_outputs(out: &Path, grades: &mut table::Grades) -> Result<(), Fatal> {
    table::write(out, grades).map_err(Fatal::Io)?;
    table::write_file(&out.join("index.html"), &summary::render(grades)).map_err(Fatal::Io)
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
/// by a protocheck that lists it, before any bot runs: a typo in the
/// options is one error, not one per bot.
fn check_selection(run_options: &[String], cwd: &Path) -> Result<(), Fatal> {
    let exe = std::env::current_exe()
        .map_err(|e| Fatal::Io(format!("cannot find protocheck's own program: {e}")))?;
    let out = std::process::Command::new(exe)
        .args(run_options)
        .arg("--list")
        .current_dir(cwd)
        .stdin(std::process::Stdio::null())
        .output()
        .map_err(|e| Fatal::Io(format!("cannot run protocheck to check the options: {e}")))?;
    if out.status.success() {
        return Ok(());
    }
    let said = String::from_utf8_lossy(&out.stderr);
    let said = said.trim().trim_start_matches("error: ");
    Err(Fatal::Usage(format!("the run options after `--`: {said}")))
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

    #[derive(clap::Parser)]
    struct Grade {
        #[command(flatten)]
        args: GradeArgs,
    }

    fn bot_time_limit(words: &[&str]) -> Result<Option<std::time::Duration>, String> {
        use clap::Parser;
        let words = ["grade", "bot"].iter().chain(words);
        Grade::try_parse_from(words)
            .map(|g| g.args.bot_time_limit)
            .map_err(|e| e.to_string())
    }

    #[test]
    fn the_bot_time_limit_is_none_unless_given() {
        use std::time::Duration;
        assert_eq!(bot_time_limit(&[]), Ok(None));
        assert_eq!(bot_time_limit(&["--bot-time-limit", "none"]), Ok(None));
        assert_eq!(
            bot_time_limit(&["--bot-time-limit", "2m"]),
            Ok(Some(Duration::from_secs(120)))
        );
        assert_eq!(
            bot_time_limit(&["--bot-time-limit=1m30s"]),
            Ok(Some(Duration::from_secs(90)))
        );
        let e = bot_time_limit(&["--bot-time-limit", "soon"]).unwrap_err();
        assert!(e.contains("--bot-time-limit"), "{e}");
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
