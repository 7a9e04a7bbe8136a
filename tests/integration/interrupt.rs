//! Runs that end early: protocheck stopped by a signal still writes the
//! report it was asked for (scenarios cut short are `interrupted`, never the
//! bot's failure), and a bot whose first scenarios all fail the same way at
//! start-up stops the run after them (`--keep-going` runs them all).

use crate::common;
use common::*;
use serde_json::Value;
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Output, Stdio};
use std::time::Duration;

/// Three scenarios, run in this order with `--jobs 1`: the first passes at
/// once (North waits in silence), the second waits for the bot's opening
/// move, the third would too.
fn write_scenarios(dir: &Path) {
    // The first scenario listens a whole second (an explicit `silence` is
    // not cut short by the idle proof), so that its bot lives long enough to
    // be seen between two looks at a loaded machine: with 100 ms, a CI run
    // missed it and waited in vain for a second bot.
    std::fs::write(
        dir.join("a-quiet.yaml"),
        "name: a-quiet\ngame: kalah\nabout: North says nothing before South moves.\n\
         options: { silence: 1s }\nsteps:\n  - send: \"START;North\"\n  - expect: silence\n",
    )
    .unwrap();
    for name in ["b-waits", "c-later"] {
        std::fs::write(
            dir.join(format!("{name}.yaml")),
            format!(
                "name: {name}\ngame: kalah\nabout: The bot opens as South.\n\
                 options: {{ timeout: 600s }}\nsteps:\n  - send: \"START;South\"\n  - expect: legal-move\n"
            ),
        )
        .unwrap();
    }
}

/// Processes of this test's `kalah-slow` bots that are alive now.
fn slow_bots(tag: &str, protocheck: u32) -> Vec<u32> {
    live_processes_with(tag)
        .into_iter()
        .filter(|&p| p != protocheck)
        .filter(|p| {
            std::fs::read(format!("/proc/{p}/cmdline"))
                .map(|c| String::from_utf8_lossy(&c).contains("kalah-slow"))
                .unwrap_or(false)
        })
        .collect()
}

/// Start protocheck on the three scenarios against `kalah-slow` (which
/// takes 10 minutes per reply), and wait (bounded) until the second
/// scenario's bot runs: the first scenario is done by then (one job), and
/// the second is waiting for a reply that cannot come before the signal.
fn start_and_reach_the_second_scenario(tag: &str, dir: &Path, extra: &[&str]) -> Child {
    let scenarios = dir.join("scenarios");
    std::fs::create_dir_all(&scenarios).unwrap();
    write_scenarios(&scenarios);
    let child = std::process::Command::new(env!("CARGO_BIN_EXE_protocheck"))
        .args(["--game", "kalah", "--jobs", "1", "--color", "never"])
        .arg("--scenarios")
        .arg(&scenarios)
        .args(["--startup-timeout", "600s"])
        .args(extra)
        .arg(bot("kalah-slow"))
        .args([
            "--pass-env",
            "PROTOCHECK_TEST_MARKER",
            "--pass-env",
            "KALAH_BOT_DELAY_MS",
        ])
        .env("PROTOCHECK_TEST_MARKER", tag)
        .env("KALAH_BOT_DELAY_MS", "600000")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let me = child.id();
    let mut seen: Vec<u32> = Vec::new();
    for _ in 0..2400 {
        for p in slow_bots(tag, me) {
            if !seen.contains(&p) {
                seen.push(p);
            }
        }
        if seen.len() >= 2 {
            break;
        }
        std::thread::sleep(Duration::from_millis(25));
    }
    assert!(seen.len() >= 2, "the second scenario's bot did not start");
    // The second bot has read START once it sleeps over its reply: only
    // then is the scenario surely past its start-up window.
    let second = seen[1];
    for _ in 0..400 {
        if sleeping_over_its_reply(second) {
            break;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    child
}

/// Whether `pid` sleeps in `nanosleep`/`clock_nanosleep` (x86-64 numbers;
/// elsewhere, after a moment, assume so).
fn sleeping_over_its_reply(pid: u32) -> bool {
    if !cfg!(target_arch = "x86_64") {
        std::thread::sleep(Duration::from_millis(300));
        return true;
    }
    std::fs::read_to_string(format!("/proc/{pid}/syscall"))
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse::<i64>().ok())
        .is_some_and(|n| n == 35 || n == 230)
}

/// Send `signal` to protocheck and wait for it to end; check that no bot
/// outlives it.
fn stop(child: Child, tag: &str, signal: i32) -> Output {
    let me = child.id();
    // SAFETY: sending a signal to our own child.
    unsafe { libc::kill(me as i32, signal) };
    let out = child.wait_with_output().unwrap();
    let mut left = slow_bots(tag, me);
    for _ in 0..100 {
        if left.is_empty() {
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
        left = slow_bots(tag, me);
    }
    assert!(left.is_empty(), "bots left running: {left:?}");
    out
}

fn scenario<'a>(report: &'a Value, name: &str) -> &'a Value {
    report["scenarios"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == name)
        .unwrap_or_else(|| panic!("no scenario {name} in {report}"))
}

#[test]
fn sigterm_still_writes_the_json_report_with_the_unfinished_scenarios_interrupted() {
    let dir = tempdir();
    let tag = marker("sigterm-json");
    let report_file = dir.join("report.json");
    let child = start_and_reach_the_second_scenario(
        &tag,
        &dir,
        &[
            "--format",
            "json",
            "--output",
            report_file.to_str().unwrap(),
        ],
    );
    let out = stop(child, &tag, libc::SIGTERM);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("stopped by SIGTERM"), "{stderr}");
    let text = std::fs::read_to_string(&report_file).expect("the report was written");
    let report: Value = serde_json::from_str(&text).expect("the report is valid JSON");
    assert_eq!(scenario(&report, "a-quiet")["status"], "passed");
    let cut = scenario(&report, "b-waits");
    assert_eq!(cut["status"], "interrupted", "{cut}");
    assert_eq!(
        cut["skip_reason"],
        "interrupted: protocheck was stopped by SIGTERM while this scenario ran"
    );
    // What happened before the signal stays; the bot's death is no finding.
    let transcript = cut["transcript"].to_string();
    assert!(transcript.contains("START;South"), "{transcript}");
    assert!(
        transcript.contains("protocheck was stopped by SIGTERM and killed the bot"),
        "{transcript}"
    );
    let later = scenario(&report, "c-later");
    assert_eq!(later["status"], "interrupted", "{later}");
    assert_eq!(
        later["skip_reason"],
        "not run: protocheck was stopped by SIGTERM"
    );
    assert!(findings(&report).is_empty(), "{:?}", findings(&report));
    assert_eq!(report["totals"]["passed"], 1);
    assert_eq!(report["totals"]["failed"], 0);
    assert_eq!(report["totals"]["interrupted"], 2);
}

#[test]
fn sigint_still_writes_the_junit_report_with_the_unfinished_scenarios_skipped() {
    let dir = tempdir();
    let tag = marker("sigint-junit");
    let report_file = dir.join("report.xml");
    let child = start_and_reach_the_second_scenario(
        &tag,
        &dir,
        &[
            "--format",
            "junit",
            "--output",
            report_file.to_str().unwrap(),
        ],
    );
    let out = stop(child, &tag, libc::SIGINT);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("stopped by SIGINT"), "{stderr}");
    let xml = std::fs::read_to_string(&report_file).expect("the report was written");
    assert!(xml.ends_with("</testsuites>\n"), "{xml}");
    assert!(
        xml.contains("tests=\"3\" failures=\"0\" errors=\"0\" skipped=\"2\""),
        "{xml}"
    );
    assert!(
        xml.contains(
            "<skipped message=\"interrupted: protocheck was stopped by SIGINT while this scenario ran\"/>"
        ),
        "{xml}"
    );
    assert!(
        xml.contains("<skipped message=\"not run: protocheck was stopped by SIGINT\"/>"),
        "{xml}"
    );
    assert!(!xml.contains("<failure"), "{xml}");
    assert!(!xml.contains("io.crash"), "{xml}");
}

#[test]
fn sighup_still_prints_the_human_report() {
    let dir = tempdir();
    let tag = marker("sighup-human");
    let child = start_and_reach_the_second_scenario(&tag, &dir, &[]);
    let out = stop(child, &tag, libc::SIGHUP);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("stopped by SIGHUP"), "{stderr}");
    assert!(stdout.contains("PASS  a-quiet"), "{stdout}");
    assert!(
        stdout.contains(
            "INTR  b-waits  (interrupted: protocheck was stopped by SIGHUP while this scenario ran)"
        ),
        "{stdout}"
    );
    assert!(
        stdout.contains("INTR  c-later  (not run: protocheck was stopped by SIGHUP)"),
        "{stdout}"
    );
    assert!(
        stdout.contains("1 passed, 0 failed, 2 interrupted"),
        "{stdout}"
    );
    assert!(!stdout.contains("io.crash"), "{stdout}");
}

/// Names of the scenarios with `status`.
fn named(out: &Outcome, status: &str) -> Vec<String> {
    out.report["scenarios"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["status"] == status)
        .map(|s| s["name"].as_str().unwrap().to_string())
        .collect()
}

/// Scenarios skipped with a reason containing `text`.
fn skipped_for(out: &Outcome, text: &str) -> usize {
    out.report["scenarios"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["status"] == "skipped")
        .filter(|s| s["skip_reason"].as_str().unwrap_or("").contains(text))
        .count()
}

/// The scenarios of the game's default run (`--list` marks the others).
fn default_run(game: &str) -> Vec<String> {
    let out = assert_cmd::Command::cargo_bin("protocheck")
        .unwrap()
        .args(["--game", game, "--list", "some-bot"])
        .output()
        .unwrap();
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter(|l| !l.contains("(skipped:"))
        .filter_map(|l| l.split_whitespace().next().map(str::to_string))
        .collect()
}

#[test]
fn a_bot_that_crashes_at_start_up_stops_the_suite_after_three_scenarios_whatever_the_jobs() {
    let runnable = default_run("kalah");
    assert!(runnable.len() > 3);
    let mut failed_by_jobs = Vec::new();
    for jobs in ["1", "4"] {
        let out = run_json(
            &["--game", "kalah", "--jobs", jobs, "--bot-cmd", "false"],
            &[],
        );
        assert_eq!(out.code, 1, "--jobs {jobs}: {}", out.stderr);
        let failed = named(&out, "failed");
        // The first three of the suite, in order, whatever finished first.
        assert_eq!(failed, runnable[..3], "--jobs {jobs}");
        assert!(
            out.rules().iter().all(|r| r == "io.crash"),
            "{:?}",
            out.rules()
        );
        assert_eq!(
            skipped_for(
                &out,
                "not run: the first 3 scenarios all failed at start-up with io.crash (--keep-going runs every scenario)"
            ),
            runnable.len() - 3,
            "--jobs {jobs}: {}",
            out.report
        );
        assert!(
            out.stderr.contains(&format!(
                "stopped early: the first 3 scenarios all failed at start-up with io.crash; {} not run",
                runnable.len() - 3
            )),
            "{}",
            out.stderr
        );
        failed_by_jobs.push(failed);
    }
    assert_eq!(failed_by_jobs[0], failed_by_jobs[1]);
}

#[test]
fn keep_going_runs_every_scenario_of_a_bot_that_crashes_at_start_up() {
    let runnable = default_run("kalah");
    let out = run_json(
        &[
            "--game",
            "kalah",
            "--jobs",
            "2",
            "--keep-going",
            "--bot-cmd",
            "false",
        ],
        &[],
    );
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert_eq!(named(&out, "failed"), runnable);
    assert_eq!(skipped_for(&out, "--keep-going"), 0);
    assert!(!out.stderr.contains("stopped early"), "{}", out.stderr);
}

#[test]
fn fail_fast_keeps_its_meaning_for_a_bot_that_crashes_at_start_up() {
    let runnable = default_run("kalah");
    let out = run_json(
        &[
            "--game",
            "kalah",
            "--jobs",
            "1",
            "--fail-fast",
            "--bot-cmd",
            "false",
        ],
        &[],
    );
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert_eq!(named(&out, "failed"), runnable[..1]);
    assert_eq!(
        skipped_for(&out, "not run (--fail-fast after an earlier failure)"),
        runnable.len() - 1
    );
}

#[test]
fn an_evolution_client_that_never_connects_stops_the_suite_early() {
    let tag = marker("never-connects");
    let out = run_json(
        &[
            "--game",
            "evolution",
            "--jobs",
            "2",
            "--startup-timeout",
            "1s",
            "--bot-cmd",
            "sleep 100",
        ],
        &[("PROTOCHECK_TEST_MARKER", &tag)],
    );
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert_eq!(named(&out, "failed").len(), 3, "{}", out.report["totals"]);
    assert!(
        out.rules().iter().all(|r| r == "io.no-connect"),
        "{:?}",
        out.rules()
    );
    let total = out.report["scenarios"].as_array().unwrap().len();
    assert_eq!(
        skipped_for(&out, "all failed at start-up with io.no-connect"),
        total - 3
    );
    assert!(live_processes_with(&tag).is_empty());
}

#[test]
fn an_evolution_client_whose_sign_up_is_refused_stops_the_suite_early() {
    // The sign-up is the handshake: refused, the client never gets going.
    let out = run_json(&["--game", "evolution", &bot("evo-signup-object")], &[]);
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert_eq!(named(&out, "failed").len(), 3);
    let total = out.report["scenarios"].as_array().unwrap().len();
    assert_eq!(
        skipped_for(
            &out,
            "all failed at start-up with evolution.signup.not-a-string"
        ),
        total - 3
    );
}

/// A FIFO nobody opens for reading: writing the report to it blocks.
fn fifo(dir: &Path) -> std::path::PathBuf {
    let path = dir.join("nobody-reads");
    let c_path = std::ffi::CString::new(path.to_str().unwrap()).unwrap();
    // SAFETY: mkfifo reads a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(c_path.as_ptr(), 0o600) }, 0);
    path
}

#[test]
fn a_report_that_cannot_be_written_does_not_keep_a_stopped_protocheck_alive() {
    let dir = tempdir();
    let tag = marker("stuck-report");
    let stuck = fifo(&dir);
    let child =
        start_and_reach_the_second_scenario(&tag, &dir, &["--output", stuck.to_str().unwrap()]);
    let out = stop(child, &tag, libc::SIGTERM);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("the report was not written within 5 s of SIGTERM; leaving without it"),
        "{stderr}"
    );
}

#[test]
fn a_second_signal_ends_a_stopped_protocheck_at_once() {
    let dir = tempdir();
    let tag = marker("second-signal");
    let stuck = fifo(&dir);
    let mut child =
        start_and_reach_the_second_scenario(&tag, &dir, &["--output", stuck.to_str().unwrap()]);
    // SAFETY: sending a signal to our own child.
    unsafe { libc::kill(child.id() as i32, libc::SIGTERM) };
    // The second signal goes only once protocheck said it took the first:
    // two signals pending at once arrive in the kernel's order, not ours.
    let stderr = child.stderr.take().unwrap();
    let (said, heard) = std::sync::mpsc::channel();
    let reader = std::thread::spawn(move || {
        let mut all = String::new();
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            if line.contains("writing the report (a second signal") {
                let _ = said.send(());
            }
            all.push_str(&line);
            all.push('\n');
        }
        all
    });
    heard
        .recv_timeout(Duration::from_secs(30))
        .expect("protocheck never said it was writing the report after SIGTERM");
    let out = stop(child, &tag, libc::SIGINT);
    let stderr = reader.join().unwrap();
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("stopped by SIGTERM; all bot processes killed; writing the report"),
        "{stderr}"
    );
    assert!(stderr.contains("stopped by SIGINT again"), "{stderr}");
}
