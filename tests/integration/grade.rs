//! `protocheck grade` and `protocheck merge` end to end: the real binary,
//! the sample bots copied into a temporary class folder.

use crate::common;

use assert_cmd::Command;
use common::bot;
use serde_json::Value;
use std::path::{Path, PathBuf};

/// A fresh folder for one test.
fn class_folder(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "protocheck-grade-{tag}-{}-{}",
        std::process::id(),
        fastrand::u64(..)
    ));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A passing test leaves nothing behind (the bot copies are large); a
/// failing one keeps its folder to look at.
fn clean(class: &Path) {
    let _ = std::fs::remove_dir_all(class);
}

/// `submissions/<id>/bot`, a copy of the sample bot `example`.
fn submit(class: &Path, id: &str, example: &str) -> PathBuf {
    let dir = class.join("submissions").join(id);
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("bot");
    std::fs::copy(bot(example), &path).unwrap();
    path
}

fn protocheck(class: &Path, args: &[&str]) -> std::process::Output {
    Command::cargo_bin("protocheck")
        .unwrap()
        .current_dir(class)
        .args(args)
        .timeout(std::time::Duration::from_secs(300))
        .output()
        .unwrap()
}

fn grades_json(dir: &Path) -> Value {
    let text = std::fs::read_to_string(dir.join("grades.json")).unwrap();
    serde_json::from_str(&text).unwrap()
}

/// id → (status, first failing rule) from grades.json.
fn verdicts(dir: &Path) -> Vec<(String, String, String)> {
    grades_json(dir)["bots"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| {
            (
                b["id"].as_str().unwrap().to_string(),
                b["status"].as_str().unwrap().to_string(),
                b["first_failing_rule"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect()
}

fn stderr(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// A few scenarios keep the runs short; the same for every bot.
const KALAH: &[&str] = &["--", "--game", "kalah", "--filter", "opening"];

fn grade(class: &Path, before: &[&str]) -> std::process::Output {
    let mut args = vec!["grade"];
    args.extend_from_slice(before);
    args.extend_from_slice(KALAH);
    protocheck(class, &args)
}

#[test]
fn a_class_with_hostile_bots_is_graded_right() {
    let class = class_folder("class");
    submit(&class, "alice", "kalah-correct");
    submit(&class, "bob", "kalah-zero-based");
    submit(&class, "deaf", "hostile-deaf");
    submit(&class, "flood", "hostile-flood-line");
    let out = grade(
        &class,
        &["--jobs", "4", "--out", "grades", "submissions/*/bot"],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let dir = class.join("grades");
    assert_eq!(
        verdicts(&dir),
        [
            ("alice".into(), "passed".into(), "".into()),
            (
                "bob".into(),
                "failed".into(),
                "kalah.move.hole-range".into()
            ),
            ("deaf".into(), "failed".into(), "io.timeout".into()),
            ("flood".into(), "failed".into(), "io.line-too-long".into()),
        ]
    );
    let csv = std::fs::read_to_string(dir.join("grades.csv")).unwrap();
    let mut lines = csv.lines();
    assert_eq!(
        lines.next(),
        Some(
            "id,status,passed,failed,warnings,skipped,first_failing_rule,seconds,report,note,failing_rules,warning_rules,skipped_because,sandbox,not_run,score,max_score"
        )
    );
    assert!(lines.next().unwrap().starts_with("alice,passed,"), "{csv}");
    assert!(lines.next().unwrap().starts_with("bob,failed,0,"), "{csv}");
    // Every bot has its three reports, and they agree.
    for id in ["alice", "bob", "deaf", "flood"] {
        let report: Value = serde_json::from_str(
            &std::fs::read_to_string(dir.join(id).join("report.json")).unwrap(),
        )
        .unwrap();
        assert_eq!(report["game"], "kalah");
        let text = std::fs::read_to_string(dir.join(id).join("report.txt")).unwrap();
        let html = std::fs::read_to_string(dir.join(id).join("report.html")).unwrap();
        assert!(html.starts_with("<!DOCTYPE html>"), "{id}");
        if let Some(rule) = report["scenarios"][0]["violations"][0]["rule"].as_str() {
            assert!(text.contains(rule) && html.contains(rule), "{id}: {rule}");
        }
    }
    // A failing bot's page steps through its game with the board, as a
    // single run's HTML report does (drawn from its JSON report's frames).
    let bob = std::fs::read_to_string(dir.join("bob").join("report.html")).unwrap();
    assert!(bob.contains("<figure class=\"board\""), "{bob}");
    assert!(!bob.contains("no picture in the report yet"), "{bob}");
    let page = std::fs::read_to_string(dir.join("index.html")).unwrap();
    assert!(page.contains("<svg"), "{page}");
    assert!(
        page.contains("data-rule=\"io.timeout\" data-bots=\"1\""),
        "{page}"
    );
    assert!(
        page.contains("data-rule=\"kalah.move.hole-range\" data-bots=\"1\""),
        "{page}"
    );
    assert!(
        page.contains("<a href=\"alice/report.html\">alice</a>"),
        "{page}"
    );
    clean(&class);
}

/// The `seconds` column left out: the rest of grades.csv must match.
fn without_times(csv: &str) -> Vec<String> {
    csv.lines()
        .map(|l| {
            let mut f: Vec<&str> = l.split(',').collect();
            f.remove(7);
            f.join(",")
        })
        .collect()
}

#[test]
fn a_second_run_keeps_unchanged_bots_and_regrades_touched_ones() {
    let class = class_folder("resume");
    submit(&class, "alice", "kalah-correct");
    let bob = submit(&class, "bob", "kalah-zero-based");
    let first = grade(&class, &["submissions/alice/bot", "submissions/bob/bot"]);
    assert_eq!(first.status.code(), Some(0), "{}", stderr(&first));
    assert!(!stderr(&first).contains("kept"), "{}", stderr(&first));

    let second = grade(&class, &["submissions/alice/bot", "submissions/bob/bot"]);
    let said = stderr(&second);
    assert!(said.contains("alice: passed, kept"), "{said}");
    assert!(
        said.contains("bob: failed (kalah.move.hole-range), kept"),
        "{said}"
    );

    // bob's file is touched, its content unchanged: still kept.
    let later = std::time::SystemTime::now() + std::time::Duration::from_secs(60);
    std::fs::File::options()
        .write(true)
        .open(&bob)
        .unwrap()
        .set_modified(later)
        .unwrap();
    let touched = grade(&class, &["submissions/alice/bot", "submissions/bob/bot"]);
    let said = stderr(&touched);
    assert!(
        said.contains("bob: failed (kalah.move.hole-range), kept: nothing it depends on changed"),
        "{said}"
    );
    // bob resubmits (another program), alice does not.
    std::fs::copy(bot("kalah-correct"), &bob).unwrap();
    let third = grade(&class, &["submissions/alice/bot", "submissions/bob/bot"]);
    let said = stderr(&third);
    assert!(said.contains("alice: passed, kept"), "{said}");
    assert!(
        said.contains("bob: passed, ") && said.contains(", graded again: bot changed"),
        "{said}"
    );

    // Grading is not a gate, unless asked.
    assert_eq!(second.status.code(), Some(0), "{}", stderr(&second));
    std::fs::copy(bot("kalah-zero-based"), &bob).unwrap();
    let gate = grade(
        &class,
        &[
            "--fail-on-any",
            "submissions/alice/bot",
            "submissions/bob/bot",
        ],
    );
    assert_eq!(gate.status.code(), Some(1), "{}", stderr(&gate));

    let forced = grade(
        &class,
        &["--force", "submissions/alice/bot", "submissions/bob/bot"],
    );
    assert!(!stderr(&forced).contains("kept"), "{}", stderr(&forced));
    assert!(
        stderr(&forced).contains("graded again: --force"),
        "{}",
        stderr(&forced)
    );
    assert_eq!(verdicts(&class.join("grades")).len(), 2);

    // Other options: nothing is kept.
    let other = protocheck(
        &class,
        &[
            "grade",
            "submissions/alice/bot",
            "--",
            "--game",
            "kalah",
            "--filter",
            "south",
        ],
    );
    assert!(!stderr(&other).contains("kept"), "{}", stderr(&other));
    assert!(
        stderr(&other).contains("graded again: the run options changed"),
        "{}",
        stderr(&other)
    );
    clean(&class);
}

/// Every scenario's status and rules in a bot's JSON report.
fn scenario_verdicts(report: &Path) -> Vec<(String, String, Vec<String>)> {
    let report: Value = serde_json::from_str(&std::fs::read_to_string(report).unwrap()).unwrap();
    report["scenarios"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            let rules = s["violations"]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| format!("{} {}", v["rule"], v["severity"]))
                .collect();
            (
                s["name"].as_str().unwrap().to_string(),
                s["status"].as_str().unwrap().to_string(),
                rules,
            )
        })
        .collect()
}

/// Issue 32.3: with fewer bots than jobs, a bot's scenarios run several at
/// once (its protocheck gets the jobs no other bot needs), and every
/// verdict is the one of `--jobs 1`.
#[test]
fn the_verdicts_do_not_depend_on_jobs_and_spare_jobs_go_to_scenarios() {
    let class = class_folder("jobs");
    submit(&class, "alice", "kalah-correct");
    submit(&class, "bob", "kalah-zero-based");
    submit(&class, "lin", "kalah-lingers");
    let run = |jobs: &str, out: &str| {
        protocheck(
            &class,
            &[
                "grade",
                "--jobs",
                jobs,
                "--out",
                out,
                "submissions/*/bot",
                "--",
                "--game",
                "kalah",
                "--filter",
                "*opening*",
            ],
        )
    };
    let one = run("1", "one");
    assert_eq!(one.status.code(), Some(0), "{}", stderr(&one));
    assert!(!stderr(&one).contains("at once"), "{}", stderr(&one));
    let six = run("6", "six");
    assert_eq!(six.status.code(), Some(0), "{}", stderr(&six));
    // 3 bots, 6 jobs: two scenarios at once for each.
    assert_eq!(
        stderr(&six).matches(" s (2 scenarios at once)").count(),
        3,
        "{}",
        stderr(&six)
    );
    let read = |d: &str| std::fs::read_to_string(class.join(d).join("grades.csv")).unwrap();
    assert_eq!(without_times(&read("one")), without_times(&read("six")));
    for id in ["alice", "bob", "lin"] {
        let report = |d: &str| scenario_verdicts(&class.join(d).join(id).join("report.json"));
        assert_eq!(report("one"), report("six"), "{id}");
    }
    assert_eq!(verdicts(&class.join("six"))[1].2, "kalah.move.hole-range");
    clean(&class);
}

/// Issue 32.3: a bot's warnings are in grades.csv, grades.json and on the
/// class page beside the rules it broke, and skipped scenarios say why.
#[test]
fn warnings_and_skip_reasons_reach_the_table_and_the_page() {
    let class = class_folder("warnings");
    submit(&class, "lin", "kalah-lingers");
    submit(&class, "ok", "kalah-correct");
    let out = protocheck(
        &class,
        &[
            "grade",
            "submissions/*/bot",
            "--",
            "--game",
            "kalah",
            "--filter",
            "*end*",
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let dir = class.join("grades");
    let csv = std::fs::read_to_string(dir.join("grades.csv")).unwrap();
    let lin = csv.lines().find(|l| l.starts_with("lin,")).unwrap();
    // The old columns as they were, then the rules broken and warned.
    assert!(lin.starts_with("lin,passed,1,0,1,"), "{csv}");
    assert!(lin.contains(",,io.no-exit,\"5 × Kalah(1,"), "{csv}");
    assert!(lin.contains("run with --all-sizes\","), "{csv}");
    let json = grades_json(&dir);
    let bots = json["bots"].as_array().unwrap();
    let lin = bots.iter().find(|b| b["id"] == "lin").unwrap();
    let ok = bots.iter().find(|b| b["id"] == "ok").unwrap();
    assert_eq!(lin["warning_rules"], serde_json::json!(["io.no-exit"]));
    assert_eq!(ok["warning_rules"], serde_json::json!([]));
    assert_eq!(lin["rules"], serde_json::json!([]), "old field kept");
    assert_eq!(lin["skipped_because"][0]["scenarios"], 5);
    let reason = lin["skipped_because"][0]["reason"].as_str().unwrap();
    assert!(
        reason.contains("a real match is always Kalah(7,7)") && reason.contains("--all-sizes"),
        "{reason}"
    );
    let page = std::fs::read_to_string(dir.join("index.html")).unwrap();
    assert!(
        page.contains("<g class=\"bar warning\" data-rule=\"io.no-exit\" data-bots=\"1\">"),
        "{page}"
    );
    assert!(page.contains("<td><code>io.no-exit</code></td>"), "{page}");
    assert!(
        page.contains("<h2>Why scenarios were skipped</h2>"),
        "{page}"
    );
    assert!(
        page.contains("5 scenarios skipped for every bot (2 bots): Kalah(1,"),
        "{page}"
    );
    assert!(page.contains(">5 <a href=\"#skip-1\""), "{page}");
    // Issue 30: the coverage table counts, per rule, the bots it was
    // checked on, held on, broken on and never checked on: the lingering
    // bot broke io.no-exit; the correct one's run never checked it.
    assert!(
        page.contains("<tr data-id=\"io.no-exit\"><td><code>io.no-exit</code></td><td>rule</td><td class=\"n\">1</td><td class=\"n\">0</td><td class=\"n\">1</td><td class=\"n\">1</td></tr>"),
        "{page}"
    );
    assert_eq!(
        lin["coverage"].as_array().map(|c| c.is_empty()),
        Some(false)
    );
    clean(&class);
}

/// Issue 26.4: a bot that imports `engine.py` is graded again when only
/// `engine.py` changed, though nothing is newer than its report; a bot
/// that writes a log into its own folder while graded is still kept when
/// nothing else changed, and a change beside its log is still seen.
#[test]
fn a_kept_grade_depends_on_every_file_of_the_bot_s_folder_by_content() {
    use std::os::unix::fs::PermissionsExt;
    let class = class_folder("content");
    let dir = class.join("submissions").join("alice");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy(bot("kalah-correct"), dir.join("player")).unwrap();
    // The bot: a wrapper that logs each start into its own folder.
    std::fs::write(
        dir.join("bot"),
        "#!/bin/sh\necho started >> bot.log\nexec ./player \"$@\"\n",
    )
    .unwrap();
    std::fs::set_permissions(dir.join("bot"), std::fs::Permissions::from_mode(0o755)).unwrap();
    let engine = dir.join("engine.py");
    std::fs::write(&engine, "DEPTH = 3\n").unwrap();
    let run = || grade(&class, &["submissions/alice/bot"]);

    let first = run();
    assert_eq!(first.status.code(), Some(0), "{}", stderr(&first));
    assert!(
        dir.join("bot.log").is_file(),
        "the wrapper ran in its folder"
    );
    // Issue 26.9: one bot is one bot.
    assert!(
        stderr(&first)
            .contains("protocheck: 1 bot graded: 1 passed, 0 failed, 0 errors, 0 interrupted"),
        "{}",
        stderr(&first)
    );
    let page = std::fs::read_to_string(class.join("grades/index.html")).unwrap();
    assert!(page.contains("<p>1 bot: 1 passed, 0 failed</p>"), "{page}");
    let said = stderr(&run());
    assert!(
        said.contains("alice: passed, kept: nothing it depends on changed"),
        "{said}"
    );

    // engine.py changes, its size and times as before: graded again, and
    // the bot's own log is not named as the change.
    let times = std::fs::metadata(&engine).unwrap();
    std::fs::write(&engine, "DEPTH = 4\n").unwrap();
    std::fs::File::options()
        .write(true)
        .open(&engine)
        .unwrap()
        .set_times(
            std::fs::FileTimes::new()
                .set_modified(times.modified().unwrap())
                .set_accessed(times.accessed().unwrap()),
        )
        .unwrap();
    let said = stderr(&run());
    assert!(
        said.contains("alice: passed, ") && said.contains(", graded again: engine.py changed"),
        "{said}"
    );
    assert!(!said.contains("kept"), "{said}");
    // Its log grew while graded; nothing else changed: kept.
    let said = stderr(&run());
    assert!(
        said.contains("alice: passed, kept: nothing it depends on changed"),
        "{said}"
    );
    // A new file beside the bot, in a subfolder: graded again.
    std::fs::create_dir_all(dir.join("lib")).unwrap();
    std::fs::write(dir.join("lib/helper.py"), "pass\n").unwrap();
    let said = stderr(&run());
    assert!(said.contains("graded again: lib/helper.py added"), "{said}");
    clean(&class);
}

#[test]
fn shards_merged_give_the_table_of_one_run() {
    let class = class_folder("shards");
    for (id, example) in [
        ("a", "kalah-correct"),
        ("b", "kalah-zero-based"),
        ("c", "kalah-correct"),
    ] {
        submit(&class, id, example);
    }
    let whole = grade(&class, &["--out", "whole", "submissions/*/bot"]);
    assert_eq!(whole.status.code(), Some(0), "{}", stderr(&whole));
    for k in ["1/2", "2/2"] {
        let out = format!("shard-{}", &k[..1]);
        let shard = grade(
            &class,
            &["--partition", k, "--out", &out, "submissions/*/bot"],
        );
        assert_eq!(shard.status.code(), Some(0), "{}", stderr(&shard));
    }
    assert_eq!(verdicts(&class.join("shard-1")).len(), 2);
    assert_eq!(verdicts(&class.join("shard-2")).len(), 1);
    let merged = protocheck(&class, &["merge", "--out", "merged", "shard-1", "shard-2"]);
    assert_eq!(merged.status.code(), Some(0), "{}", stderr(&merged));
    let read = |d: &str| std::fs::read_to_string(class.join(d).join("grades.csv")).unwrap();
    assert_eq!(
        without_times(&read("merged")),
        without_times(&read("whole"))
    );
    assert!(class.join("merged/b/report.html").is_file());
    let page = std::fs::read_to_string(class.join("merged/index.html")).unwrap();
    assert!(
        page.contains("data-rule=\"kalah.move.hole-range\" data-bots=\"1\""),
        "{page}"
    );

    // The same bot in two shards, or shards graded differently: refused.
    let twice = protocheck(&class, &["merge", "--out", "twice", "shard-1", "whole"]);
    assert_eq!(twice.status.code(), Some(2));
    assert!(
        stderr(&twice).contains("is graded in both"),
        "{}",
        stderr(&twice)
    );
    clean(&class);
}

/// Bad input: exit 2, the place named, and no bot run (no output folder).
fn refused(class: &Path, args: &[&str], expected: &str) {
    let out = protocheck(class, args);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
    assert!(
        stderr(&out).contains(expected),
        "{args:?}: {}",
        stderr(&out)
    );
    assert!(!class.join("grades").exists(), "{args:?} ran something");
}

#[test]
fn bad_rosters_are_refused_at_their_line_before_anything_runs() {
    let class = class_folder("bad");
    let alice = submit(&class, "alice", "kalah-correct");
    let alice = alice.display().to_string();
    let write = |name: &str, text: &str| std::fs::write(class.join(name), text).unwrap();
    write(
        "no-exe.csv",
        &format!("id,command\nalice,{alice}\nbob,./missing-bot\n"),
    );
    refused(
        &class,
        &["grade", "--roster", "no-exe.csv", "--", "--game", "kalah"],
        "no-exe.csv:3: `./missing-bot` names no executable",
    );
    write(
        "dup.csv",
        &format!("alice,{alice}\n# comment\nalice,{alice}\n"),
    );
    refused(
        &class,
        &["grade", "--roster", "dup.csv", "--", "--game", "kalah"],
        "dup.csv:3: duplicate id `alice` (also dup.csv:1)",
    );
    write("quote.csv", &format!("alice,\"{alice}\n"));
    refused(
        &class,
        &["grade", "--roster", "quote.csv", "--", "--game", "kalah"],
        "quote.csv:1: a quoted field is not closed",
    );
    refused(
        &class,
        &["grade", "--roster", "absent.csv", "--", "--game", "kalah"],
        "absent.csv: cannot read",
    );
    refused(
        &class,
        &["grade", "nobody/*/bot", "--", "--game", "kalah"],
        "argument 1 (`nobody/*/bot`): the glob matches no file",
    );
    refused(
        &class,
        &["grade", "submissions/alice/bot", "--", "--game", "kalha"],
        "unknown game `kalha`",
    );
    // Checked in grade's own process, in the words `--list` would say.
    refused(
        &class,
        &[
            "grade",
            "submissions/alice/bot",
            "--",
            "--game",
            "kalah",
            "--filter",
            "no-such-scenario",
        ],
        "error: the run options after `--`: no scenario selected (check --filter)",
    );
    refused(
        &class,
        &[
            "grade",
            "submissions/alice/bot",
            "--",
            "--game",
            "kalah",
            "--format",
            "html",
        ],
        "--format cannot be given to grade",
    );
    clean(&class);
}

#[test]
fn a_csv_roster_runs_command_lines_in_their_folders_and_escapes_ids() {
    let class = class_folder("csv");
    submit(&class, "alice", "kalah-correct");
    std::fs::write(
        class.join("roster.csv"),
        "id,command,workdir\n\"<b>&co\",./bot --unused-arg,submissions/alice\n",
    )
    .unwrap();
    let out = grade(&class, &["--roster", "roster.csv"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let dir = class.join("grades");
    assert_eq!(
        verdicts(&dir),
        [("<b>&co".into(), "passed".into(), "".into())]
    );
    let page = std::fs::read_to_string(dir.join("index.html")).unwrap();
    assert!(page.contains("&lt;b&gt;&amp;co"), "{page}");
    assert!(!page.contains("<b>&co"), "{page}");
    assert!(page.contains("href=\"%3Cb%3E%26co/report.html\""), "{page}");
    clean(&class);
}

/// The fenced block after `<!-- recipe: NAME -->` in docs/grading.md.
fn recipe(name: &str) -> String {
    let doc =
        std::fs::read_to_string(format!("{}/docs/grading.md", env!("CARGO_MANIFEST_DIR"))).unwrap();
    let start = doc.find(&format!("<!-- recipe: {name} -->")).unwrap();
    let block = &doc[start..];
    let body = &block[block.find("```").unwrap()..];
    let body = &body[body.find('\n').unwrap() + 1..];
    body[..body.find("```").unwrap()].to_string()
}

/// A class of two bots with a CSV roster, and PATH leading to protocheck.
fn tiny_class(tag: &str) -> (PathBuf, String) {
    let class = class_folder(tag);
    submit(&class, "alice", "kalah-correct");
    submit(&class, "bob", "kalah-zero-based");
    std::fs::write(
        class.join("roster.csv"),
        "id,command,workdir\nalice,./bot,submissions/alice\nbob,./bot,submissions/bob\n",
    )
    .unwrap();
    let bin = Path::new(env!("CARGO_BIN_EXE_protocheck"))
        .parent()
        .unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    (class, path)
}

/// Run a shell command line as a recipe step would; the selection is
/// narrowed (built-in suite → a few scenarios) to keep the test short.
fn sh(class: &Path, path: &str, line: &str, env: &[(&str, &str)]) {
    let line = line.replace("--game kalah", "--game kalah --filter opening");
    let out = std::process::Command::new("bash")
        .args(["-c", &line])
        .current_dir(class)
        .env("PATH", path)
        .envs(env.iter().copied())
        .output()
        .unwrap();
    assert!(out.status.success(), "{line}: {}", stderr(&out));
}

fn expected_class(dir: &Path) {
    assert_eq!(
        verdicts(dir),
        [
            ("alice".into(), "passed".into(), "".into()),
            (
                "bob".into(),
                "failed".into(),
                "kalah.move.hole-range".into()
            ),
        ]
    );
}

#[test]
fn the_github_matrix_recipe_grades_and_merges() {
    let (class, path) = tiny_class("github");
    let yaml = recipe("github");
    let runs: Vec<&str> = yaml
        .lines()
        .filter_map(|l| l.trim().strip_prefix("- run: "))
        .collect();
    assert_eq!(runs.len(), 2, "{yaml}");
    for shard in 1..=4 {
        let line = runs[0].replace("${{ matrix.shard }}", &shard.to_string());
        sh(&class, &path, &line, &[]);
        // download-artifact puts each artifact in a folder of its name.
        let from = class.join(format!("grades-{shard}"));
        let to = class.join("shards").join(format!("grades-{shard}"));
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        std::fs::rename(from, to).unwrap();
    }
    sh(&class, &path, runs[1], &[]);
    expected_class(&class.join("grades"));
    clean(&class);
}

#[test]
fn the_slurm_array_recipe_grades_and_merges() {
    let (class, path) = tiny_class("slurm");
    std::fs::write(class.join("grade.sh"), recipe("slurm")).unwrap();
    for task in ["1", "2", "3", "4"] {
        let script = std::fs::read_to_string(class.join("grade.sh")).unwrap();
        sh(
            &class,
            &path,
            &script,
            &[
                ("SLURM_ARRAY_TASK_ID", task),
                ("SLURM_ARRAY_TASK_COUNT", "4"),
                ("SLURM_CPUS_PER_TASK", "2"),
            ],
        );
    }
    sh(&class, &path, "protocheck merge --out grades grades-*", &[]);
    expected_class(&class.join("grades"));
    clean(&class);
}

#[test]
fn a_stopped_grade_stops_every_bot_and_still_writes_the_table() {
    let class = class_folder("stop");
    submit(&class, "deaf", "hostile-deaf");
    let tag = common::marker("grade-stop");
    let grade = std::process::Command::new(env!("CARGO_BIN_EXE_protocheck"))
        .current_dir(&class)
        .args(["grade", "submissions/deaf/bot", "--", "--game", "kalah"])
        .args(["--pass-env", "PROTOCHECK_TEST_MARKER"])
        .env("PROTOCHECK_TEST_MARKER", &tag)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Stop it once the bot runs (the deaf bot never answers by itself).
    let bot_path = class.join("submissions/deaf/bot").display().to_string();
    let waited = std::time::Instant::now();
    while !running(&bot_path) && waited.elapsed().as_secs() < 60 {
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    // SAFETY: kill has no memory-safety preconditions.
    unsafe { libc::kill(grade.id() as i32, libc::SIGTERM) };
    let out = grade.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let dir = class.join("grades");
    assert_eq!(
        verdicts(&dir),
        [("deaf".into(), "interrupted".into(), "".into())]
    );
    assert!(dir.join("deaf/report.json").is_file());
    // Every process of the run ends (grade waited for its children; a
    // child's own helper may take a moment after it).
    let mut left = common::live_processes_with(&tag);
    for _ in 0..100 {
        if left.is_empty() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
        left = common::live_processes_with(&tag);
    }
    assert_eq!(left, Vec::<u32>::new());
    assert!(!running(&bot_path));
    clean(&class);
}

/// Whether a process runs the program at `path`.
fn running(path: &str) -> bool {
    std::fs::read_dir("/proc")
        .into_iter()
        .flatten()
        .flatten()
        .any(|entry| {
            std::fs::read(entry.path().join("cmdline"))
                .is_ok_and(|c| c.split(|&b| b == 0).next() == Some(path.as_bytes()))
        })
}

/// Issue 27.5: `--bot-time-limit` caps one bot's whole grading. The slow
/// bot plays its first two scenarios at once (a wrapper runs a copy of
/// `kalah-correct` for its first two starts) and every later one with
/// `kalah-slow`, whose 3 s sleeps before each of its dozens of replies
/// alone outlast the limit: its third scenario is cut and the rest never
/// start, whatever the machine's load. It is graded on the two it
/// finished; the cut one is not run, never a failure (its killed bot
/// would otherwise read as a crash). The quick bot is unaffected. Graded
/// again with another limit, the cut bot runs again (and finishes nothing
/// within 1 s: no grade, not a pass).
#[test]
fn a_bot_over_its_time_limit_is_graded_on_what_it_finished_and_the_rest_not_run() {
    use std::os::unix::fs::PermissionsExt;
    let class = class_folder("budget");
    submit(&class, "quick", "kalah-correct");
    let slow = class.join("submissions/slow");
    std::fs::create_dir_all(&slow).unwrap();
    std::fs::copy(bot("kalah-slow"), slow.join("bot")).unwrap();
    std::fs::copy(bot("kalah-correct"), slow.join("fast")).unwrap();
    let wrapper = slow.join("run.sh");
    std::fs::write(
        &wrapper,
        "#!/bin/sh\n# Scenarios run one at a time (one job): the first two starts are quick.\n\
         mkdir -p starts\nn=$(ls starts | wc -l)\n: > starts/$$\n\
         if [ \"$n\" -lt 2 ]; then exec ./fast; fi\nexec ./bot\n",
    )
    .unwrap();
    std::fs::set_permissions(&wrapper, std::fs::Permissions::from_mode(0o755)).unwrap();
    std::fs::write(
        class.join("roster.csv"),
        "id,command,workdir\nquick,./bot,submissions/quick\nslow,./run.sh,submissions/slow\n",
    )
    .unwrap();
    let run = |limit: &str| {
        grade(
            &class,
            &[
                "--roster",
                "roster.csv",
                "--jobs",
                "2",
                "--bot-time-limit",
                limit,
            ],
        )
    };
    let out = run("20s");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let dir = class.join("grades");
    let json = grades_json(&dir);
    let bots = json["bots"].as_array().unwrap();
    let row = |id: &str| bots.iter().find(|b| b["id"] == id).unwrap().clone();
    let (quick, slow_row) = (row("quick"), row("slow"));
    // 8 scenarios run by default (2 more are outside the default board).
    assert_eq!(
        (&quick["status"], &quick["passed"], &quick["not_run"]),
        (&"passed".into(), &8.into(), &0.into())
    );
    let spent = "not run: --bot-time-limit 20s spent";
    assert_eq!(slow_row["status"], "passed", "{slow_row}");
    assert_eq!(
        (
            &slow_row["passed"],
            &slow_row["failed"],
            &slow_row["not_run"]
        ),
        (&2.into(), &0.into(), &6.into()),
        "{slow_row}"
    );
    assert_eq!(slow_row["skipped"], 8);
    assert_eq!(slow_row["first_failing_rule"], Value::Null);
    assert!(
        slow_row["skipped_because"]
            .as_array()
            .unwrap()
            .contains(&serde_json::json!({"reason": spent, "scenarios": 6})),
        "{slow_row}"
    );
    // Its report lists each with the reason, the cut one with a note.
    let report: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("slow/report.json")).unwrap())
            .unwrap();
    let not_run: Vec<&Value> = report["scenarios"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["skip_reason"] == spent)
        .collect();
    assert_eq!(not_run.len(), 6);
    assert!(not_run.iter().all(|s| s["status"] == "skipped"));
    // The one running when the limit was spent keeps its transcript, which
    // says why it ends; no finding describes the kill.
    let cut: Vec<&&Value> = not_run
        .iter()
        .filter(|s| {
            s["transcript"]
                .as_array()
                .and_then(|t| t.last())
                .and_then(|l| l["text"].as_str())
                .is_some_and(|t| {
                    t == "--bot-time-limit 20s spent while this scenario ran: protocheck stopped the bot"
                })
        })
        .collect();
    assert_eq!(cut.len(), 1, "{report}");
    assert_eq!(cut[0]["violations"], serde_json::json!([]));
    let text = std::fs::read_to_string(dir.join("slow/report.txt")).unwrap();
    assert!(text.contains(spent), "{text}");
    let csv = std::fs::read_to_string(dir.join("grades.csv")).unwrap();
    let line = csv.lines().find(|l| l.starts_with("slow,")).unwrap();
    assert!(line.starts_with("slow,passed,2,0,"), "{csv}");
    assert!(line.ends_with(",6,2,8"), "{csv}");
    assert!(line.contains(&format!("6 × {spent}\",")), "{csv}");
    let page = std::fs::read_to_string(dir.join("index.html")).unwrap();
    assert!(page.contains(spent), "{page}");
    assert!(page.contains("1 bot cut by --bot-time-limit"), "{page}");
    assert!(page.contains("<code>--bot-time-limit 20s</code>"), "{page}");
    assert_eq!(json["bot_time_limit"], "20s");
    assert!(
        stderr(&out).contains("slow: passed, ") && stderr(&out).contains(&format!("6 {spent}")),
        "{}",
        stderr(&out)
    );

    // Another limit: the cut bot runs again; it now starts slow and
    // finishes nothing within 1 s.
    let out = run("1s");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stderr(&out).contains(
            "graded again: its last grading was cut by --bot-time-limit (--bot-time-limit 20s → 1s)"
        ),
        "{}",
        stderr(&out)
    );
    let json = grades_json(&dir);
    let slow_row = json["bots"]
        .as_array()
        .unwrap()
        .iter()
        .find(|b| b["id"] == "slow")
        .unwrap()
        .clone();
    assert_eq!(
        (
            &slow_row["status"],
            &slow_row["passed"],
            &slow_row["not_run"]
        ),
        (&"error".into(), &0.into(), &8.into()),
        "{slow_row}"
    );
    assert_eq!(
        slow_row["note"],
        "not graded: --bot-time-limit 1s spent before any scenario finished"
    );
    clean(&class);
}

/// Issue 29: one grade run writes every report format for each bot, from
/// that bot's one run: the Gradescope and PrairieLearn results validate
/// against the schemas written from their specifications and carry the
/// bot's score, the JUnit file has its test cases, and the JSON report
/// validates against the published schema.
#[test]
fn one_grade_run_writes_every_report_format_for_each_bot() {
    let class = class_folder("formats");
    submit(&class, "ok", "kalah-correct");
    submit(&class, "zero", "kalah-zero-based");
    let out = grade(&class, &["submissions/*/bot", "--out", "g"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let validate = |path: &Path, schema: &Path| -> Value {
        let schema: Value =
            serde_json::from_str(&std::fs::read_to_string(schema).unwrap()).unwrap();
        let text =
            std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let doc: Value = serde_json::from_str(&text).unwrap();
        let validator = jsonschema::validator_for(&schema).unwrap();
        let errors: Vec<String> = validator.iter_errors(&doc).map(|e| e.to_string()).collect();
        assert!(errors.is_empty(), "{}: {errors:#?}", path.display());
        doc
    };
    let docs = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs");
    for (id, passes) in [("ok", true), ("zero", false)] {
        let dir = class.join("g").join(id);
        validate(&dir.join("report.json"), &docs.join("report.schema.json"));
        let gradescope = validate(
            &dir.join("gradescope.json"),
            Path::new(&common::fixture("gradescope-results.schema.json")),
        );
        let max: f64 = gradescope["tests"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["max_score"].as_f64().unwrap())
            .sum();
        assert!(max > 0.0, "{id}: {gradescope}");
        assert_eq!(
            gradescope["score"].as_f64().unwrap() == max,
            passes,
            "{id}: {gradescope}"
        );
        let prairielearn = validate(
            &dir.join("prairielearn.json"),
            Path::new(&common::fixture("prairielearn-results.schema.json")),
        );
        assert_eq!(prairielearn["gradable"], true, "{id}");
        assert_eq!(
            prairielearn["score"].as_f64().unwrap() == 1.0,
            passes,
            "{id}: {prairielearn}"
        );
        let junit = std::fs::read_to_string(dir.join("report.xml")).unwrap();
        assert!(
            junit.contains("<testsuite") && junit.contains("<testcase"),
            "{junit}"
        );
        assert_eq!(junit.contains("<failure"), !passes, "{id}: {junit}");
        for human in ["report.txt", "report.html"] {
            assert!(dir.join(human).is_file(), "{id}/{human}");
        }
    }
    clean(&class);
}
