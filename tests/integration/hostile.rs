//! Hostile bots, part two: processes that escape the process group, blow
//! resource limits, abuse the pipes, and protocheck itself killed mid-run.
//! Every test asserts the verdict (rule id) *and* that nothing carrying the
//! test's marker is alive afterwards. (Part one, the first seven hostile
//! bots and Ctrl-C, is in tests/integration/transport.rs.)

use crate::common;
use common::*;
use std::process::{Child, Stdio};
use std::time::Duration;

/// Processes of a test still alive: carrying the marker in their
/// environment, or (for bots that wipe their environment) in their
/// command line. Polled for a moment, because on a loaded machine a killed
/// process may need some CPU to finish dying.
fn leftovers(tag: &str, except: &[u32]) -> Vec<u32> {
    let mut left = Vec::new();
    for _ in 0..100 {
        left = live_processes_with(tag);
        left.extend(processes_with_cmdline(tag));
        left.retain(|p| !except.contains(p));
        if left.is_empty() {
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    left
}

/// Live processes whose command line contains `needle`.
fn processes_with_cmdline(needle: &str) -> Vec<u32> {
    let me = std::process::id();
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").into_iter().flatten().flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        let Ok(cmdline) = std::fs::read(entry.path().join("cmdline")) else {
            continue;
        };
        if pid != me
            && cmdline
                .windows(needle.len())
                .any(|w| w == needle.as_bytes())
        {
            found.push(pid);
        }
    }
    found
}

/// Run a hostile bot on one fixture with the given extra options; return
/// the report and whatever of the bot is still alive.
fn hostile_on(fixture_path: &str, game: &str, name: &str, extra: &[&str]) -> (Outcome, Vec<u32>) {
    let tag = marker(name);
    let bot = bot(name);
    let scenario = fixture(fixture_path);
    let mut args = vec![
        "--game",
        game,
        "--scenarios",
        &scenario,
        "--exit-grace",
        "300ms",
    ];
    args.extend_from_slice(extra);
    args.push(&bot);
    let out = run_json(&args, &[("PROTOCHECK_TEST_MARKER", &tag)]);
    (out, leftovers(&tag, &[]))
}

/// A Kalah whole game against a hostile bot. `limit` is the reply timeout:
/// short for bots about timeouts, generous otherwise, so that a loaded
/// machine cannot turn their verdict into a timeout.
fn hostile(name: &str, limit: &str, extra: &[&str]) -> (Outcome, Vec<u32>) {
    let mut args = vec!["--timeout", limit, "--startup-timeout", limit];
    args.extend_from_slice(extra);
    hostile_on("kalah/south-game.yaml", "kalah", name, &args)
}

fn assert_verdict(out: &Outcome, rule: &str, left: &[u32]) {
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert!(out.has_rule(rule), "{rule} not in {:?}", out.rules());
    assert!(left.is_empty(), "left running: {left:?}");
}

#[test]
fn setsid_grandchildren_are_found_and_killed() {
    let (out, left) = hostile("hostile-setsid", "500ms", &[]);
    assert_verdict(&out, "io.timeout", &left);
}

#[test]
fn double_forking_daemon_is_killed() {
    let (out, left) = hostile("hostile-daemon", "10s", &[]);
    assert_verdict(&out, "io.crash", &left);
}

#[test]
fn child_in_a_process_group_of_its_own_is_killed() {
    let (out, left) = hostile("hostile-setpgid", "10s", &[]);
    assert_verdict(&out, "io.crash", &left);
}

#[test]
fn escapee_without_the_tag_is_killed_too() {
    let (out, left) = hostile("hostile-env-wipe", "10s", &[]);
    assert_verdict(&out, "io.crash", &left);
}

#[test]
fn fork_bomb_hits_the_process_cap_and_protocheck_carries_on() {
    let (out, left) = hostile("hostile-fork-bomb", "10s", &["--max-processes", "16"]);
    assert_verdict(&out, "io.resource-limit", &left);
    // protocheck killed it: that is the limit, not a crash of the bot's.
    assert!(!out.has_rule("io.crash"), "{:?}", out.rules());
    assert!(
        out.messages().contains("--max-processes"),
        "{}",
        out.messages()
    );
    // protocheck keeps working: the same run goes on to the next scenario.
    let tag = marker("fork-bomb-twice");
    let bot = bot("hostile-fork-bomb");
    let scenario = fixture("kalah/south-game.yaml");
    let north = fixture("kalah/north-game.yaml");
    let out = run_json(
        &[
            "--game",
            "kalah",
            "--scenarios",
            &scenario,
            "--scenarios",
            &north,
            "--jobs",
            "1",
            "--timeout",
            "10s",
            "--max-processes",
            "16",
            &bot,
        ],
        &[("PROTOCHECK_TEST_MARKER", &tag)],
    );
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert_eq!(out.statuses(), ["failed", "failed"]);
    assert_eq!(
        out.rules()
            .iter()
            .filter(|r| *r == "io.resource-limit")
            .count(),
        2,
        "{:?}",
        out.rules()
    );
    assert!(leftovers(&tag, &[]).is_empty());
}

#[test]
fn memory_balloon_is_a_resource_limit_verdict() {
    let (out, left) = hostile("hostile-memory-balloon", "10s", &["--memory-limit", "256M"]);
    assert_verdict(&out, "io.resource-limit", &left);
    assert!(out.messages().contains("256 MiB"), "{}", out.messages());
}

#[test]
fn memory_balloon_is_quoridors_memory_rule() {
    let (out, left) = hostile_on(
        "quoridor/name.yaml",
        "quoridor",
        "hostile-memory-balloon",
        &["--timeout", "10s", "--memory-limit", "256M"],
    );
    assert_verdict(&out, "quoridor.process.memory", &left);
    assert!(!out.has_rule("io.resource-limit"), "{:?}", out.rules());
}

#[test]
fn cpu_spin_hits_the_cpu_limit() {
    let (out, left) = hostile("hostile-cpu-spin", "60s", &["--cpu-limit", "1s"]);
    assert_verdict(&out, "io.resource-limit", &left);
    assert!(out.messages().contains("--cpu-limit"), "{}", out.messages());
    assert!(!out.has_rule("io.timeout"), "{:?}", out.rules());
}

#[test]
fn cpu_spin_without_a_tight_limit_times_out() {
    let (out, left) = hostile("hostile-cpu-spin", "500ms", &[]);
    assert_verdict(&out, "io.timeout", &left);
    assert!(!out.has_rule("io.resource-limit"), "{:?}", out.rules());
}

#[test]
fn closed_stdout_is_a_crash_and_the_bot_is_killed() {
    let (out, left) = hostile("hostile-close-stdout", "10s", &[]);
    assert_verdict(&out, "io.crash", &left);
}

#[test]
fn closed_stdin_makes_writes_fail_without_failing_protocheck() {
    // The scenario listens first, so the bot has closed its input before
    // protocheck's first write, which then fails with EPIPE.
    let (out, left) = hostile_on(
        "kalah/silence-first.yaml",
        "kalah",
        "hostile-close-stdin",
        &["--timeout", "10s", "--silence", "300ms"],
    );
    assert_verdict(&out, "io.crash", &left);
    let transcript = out.report["scenarios"][0]["transcript"].to_string();
    assert!(
        transcript.contains("Broken pipe") || transcript.contains("writing to the bot failed"),
        "{transcript}"
    );
}

#[test]
fn one_byte_per_second_is_a_timeout() {
    let (out, left) = hostile("hostile-slowloris", "1500ms", &[]);
    assert_verdict(&out, "io.timeout", &left);
}

#[test]
fn nul_and_binary_garbage_is_invalid_utf8() {
    let (out, left) = hostile("hostile-binary-garbage", "10s", &[]);
    assert_verdict(&out, "io.invalid-utf8", &left);
}

#[test]
fn ten_megabyte_line_is_cut_at_the_cap() {
    let (out, left) = hostile("hostile-huge-line", "10s", &[]);
    assert_verdict(&out, "io.line-too-long", &left);
    assert!(out.messages().contains("65536 bytes"), "{}", out.messages());
}

#[test]
fn stopped_bot_times_out_and_is_killed() {
    let (out, left) = hostile("hostile-self-stop", "500ms", &[]);
    assert_verdict(&out, "io.timeout", &left);
}

/// Start protocheck on the built-in Kalah suite against `bot_name` with a
/// long timeout, and wait (bounded) until at least `processes` bot
/// processes carry the marker. `--keep-going`: a bot that crashes at once
/// must keep the run going long enough to be seen, not stop it after three
/// scenarios.
fn start_long_run(tag: &str, bot_name: &str, processes: usize) -> Child {
    let bot = bot(bot_name);
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_protocheck"))
        .args([
            "--game",
            "kalah",
            "--keep-going",
            "--jobs",
            "2",
            "--timeout",
            "60s",
            "--startup-timeout",
            "60s",
            "--pass-env",
            "PROTOCHECK_TEST_MARKER",
            &bot,
        ])
        .env("PROTOCHECK_TEST_MARKER", tag)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let me = child.id();
    // Up to 30 s: on a loaded machine the escapees can take a while to
    // appear (the loop ends as soon as they have). A bot that leaves at
    // once may let the whole suite end between two looks (seen in a
    // fresh-clone CI once the Kalah suite ran faster): then the run is over
    // before any signal, and what is left of it is checked all the same.
    let mut ended = false;
    for _ in 0..1200 {
        if leftovers_now(tag, me) >= processes {
            break;
        }
        if child.try_wait().unwrap().is_some() {
            ended = true;
            break;
        }
        std::thread::sleep(Duration::from_millis(25));
    }
    assert!(
        ended || leftovers_now(tag, me) >= processes,
        "the bots did not start"
    );
    child
}

fn leftovers_now(tag: &str, protocheck: u32) -> usize {
    live_processes_with(tag)
        .into_iter()
        .filter(|&p| p != protocheck)
        .count()
}

/// Send `signal` to a running protocheck; return its exit status, stderr
/// and what is left of its bots.
fn signal_mid_run(
    bot_name: &str,
    processes: usize,
    signal: i32,
) -> (std::process::Output, Vec<u32>) {
    let tag = marker(&format!("{bot_name}-signal-{signal}"));
    let child = start_long_run(&tag, bot_name, processes);
    let me = child.id();
    // SAFETY: sending a signal to our own child.
    unsafe { libc::kill(me as i32, signal) };
    let out = child.wait_with_output().unwrap();
    (out, leftovers(&tag, &[me]))
}

#[test]
fn sigterm_kills_every_bot_and_exits_2() {
    let (out, left) = signal_mid_run("hostile-deaf", 2, libc::SIGTERM);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("stopped by SIGTERM"), "{stderr}");
    assert!(left.is_empty(), "left running: {left:?}");
}

#[test]
fn sighup_kills_every_bot_and_exits_2() {
    let (out, left) = signal_mid_run("hostile-deaf", 2, libc::SIGHUP);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("stopped by SIGHUP"), "{stderr}");
    assert!(left.is_empty(), "left running: {left:?}");
}

#[test]
fn sigterm_also_kills_setsid_escapees() {
    // Two bots, each with a setsid child and grandchild: six processes.
    let (out, left) = signal_mid_run("hostile-setsid", 6, libc::SIGTERM);
    assert_eq!(out.status.code(), Some(2));
    assert!(left.is_empty(), "left running: {left:?}");
}

#[test]
fn sigkill_of_protocheck_takes_the_bots_with_it() {
    // Parent-death signal: the bots die with protocheck.
    let (out, left) = signal_mid_run("hostile-deaf", 2, libc::SIGKILL);
    assert_eq!(out.status.code(), None);
    assert!(left.is_empty(), "left running: {left:?}");
}

#[test]
fn sigkill_of_protocheck_takes_escapees_and_grandchildren_with_it() {
    // The guardian: setsid escapees, a same-group child (`sleep`) and a
    // setpgid child outlive a SIGKILLed protocheck only until the guardian
    // notices.
    for (bot_name, processes) in [
        ("hostile-setsid", 6),
        ("hostile-grandchild", 1),
        ("hostile-setpgid", 1),
    ] {
        let (out, left) = signal_mid_run(bot_name, processes, libc::SIGKILL);
        // The setsid bot waits for its 60 s timeout, so protocheck is
        // surely killed mid-run; the other two leave at once, so the run
        // may (rarely) be over before the signal lands.
        if bot_name == "hostile-setsid" {
            assert_eq!(out.status.code(), None);
        }
        assert!(left.is_empty(), "{bot_name}: left running: {left:?}");
    }
}

#[test]
fn timeout_command_with_term_hup_and_kill_leaves_nothing() {
    // Exactly as a CI runner uses it: `timeout -s SIG 3 protocheck …`
    // (timeout signals protocheck's whole process group).
    if std::process::Command::new("timeout")
        .arg("--version")
        .output()
        .is_err()
    {
        println!("note: no `timeout` command; test did not run");
        return;
    }
    let bot = bot("hostile-deaf");
    for signal in ["TERM", "HUP", "KILL"] {
        let tag = marker(&format!("timeout-{signal}"));
        let status = std::process::Command::new("timeout")
            .args(["-s", signal, "3"])
            .arg(env!("CARGO_BIN_EXE_protocheck"))
            .args(["--game", "kalah", "--jobs", "2", &bot])
            .args(["--pass-env", "PROTOCHECK_TEST_MARKER"])
            .env("PROTOCHECK_TEST_MARKER", &tag)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .unwrap();
        // timeout exits 124 when it had to signal; with KILL it signals its
        // own process group, itself included.
        use std::os::unix::process::ExitStatusExt;
        assert!(
            status.code() == Some(124) || status.signal() == Some(libc::SIGKILL),
            "{signal}: {status:?}"
        );
        let left = leftovers(&tag, &[]);
        assert!(left.is_empty(), "{signal}: left running: {left:?}");
    }
}

#[test]
fn sigkill_of_protocheck_kills_even_an_untagged_bot_by_parent_death_signal() {
    // `env -i` runs the deaf bot with an empty environment: no tag for the
    // guardian to find, so only the parent-death signal (which survives
    // exec) can take it down with protocheck. The marker is in its argv.
    let tag = marker("pdeathsig");
    let deaf = bot("hostile-deaf");
    let command = format!("env -i {deaf} {tag}");
    let child = std::process::Command::new(env!("CARGO_BIN_EXE_protocheck"))
        .args([
            "--game",
            "kalah",
            "--jobs",
            "2",
            "--timeout",
            "60s",
            "--startup-timeout",
            "60s",
            "--bot-cmd",
            &command,
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let me = child.id();
    let bots = || {
        processes_with_cmdline(&tag)
            .into_iter()
            .filter(|&p| p != me)
            .count()
    };
    for _ in 0..400 {
        if bots() >= 2 {
            break;
        }
        std::thread::sleep(Duration::from_millis(25));
    }
    assert_eq!(bots(), 2, "both bots should be running");
    // SAFETY: sending a signal to our own child.
    unsafe { libc::kill(me as i32, libc::SIGKILL) };
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), None);
    let left = leftovers(&tag, &[me]);
    assert!(left.is_empty(), "left running: {left:?}");
}
