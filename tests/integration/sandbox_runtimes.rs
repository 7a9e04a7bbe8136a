//! Bots of the runtimes students use pass the default (sandboxed) run
//! (issue 27): a sandbox that breaks a real bot is a wrong verdict. The bots
//! are in `bots/runtimes/`: a Python bot that reads a data file beside it, a
//! Java bot (compiled here into a temporary folder and run as a jar, as the
//! course's agents are), and a shell wrapper that runs the Rust sample bot
//! `kalah-correct` from its own folder. Each plays the built-in Kalah suite
//! and one generated game, with protocheck's default settings.
//!
//! A runtime that is missing skips its test with a printed reason.
#![cfg(unix)]

use crate::common;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn runtime_bot(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("bots/runtimes")
        .join(name)
}

/// Whether `program flag` runs.
fn has(program: &str, flag: &str) -> bool {
    Command::new(program)
        .arg(flag)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

fn skip(runtime: &str) {
    eprintln!("skipped: {runtime} is not installed here, so its sample bot cannot be run");
}

/// A temporary folder of this test, removed at the end.
struct Scratch(PathBuf);

impl Scratch {
    fn new(test: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!(
            "protocheck-runtimes-{test}-{}-{}",
            std::process::id(),
            fastrand::u32(..)
        ));
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Runs the Kalah suite and one generated game with the default settings
/// (the sandbox on where the kernel has it) and asserts every scenario ran
/// and passed.
fn assert_passes(bot: &[&str]) {
    let mut args = vec!["--game", "kalah", "--games", "1", "--seed", "5"];
    args.extend_from_slice(bot);
    let out = common::run_json(&args, &[]);
    let failing: Vec<String> = out.report["scenarios"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|s| !matches!(s["status"].as_str(), Some("passed") | Some("skipped")))
        .map(|s| {
            format!(
                "{}: {} {} {}",
                s["name"], s["status"], s["violations"], s["stderr_tail"]
            )
        })
        .collect();
    assert!(
        failing.is_empty(),
        "every scenario passes:\n{}\n{}",
        failing.join("\n"),
        out.stderr
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    let sandbox = &out.report["sandbox"];
    match sandbox["none_because"].as_str() {
        // Where the kernel has no Landlock the run is not sandboxed, and the
        // test shows only that the bot passes.
        Some(why) => eprintln!("note: the run was not sandboxed here ({why})"),
        None => assert_eq!(sandbox["files"], true, "the run was sandboxed: {sandbox}"),
    }
    assert!(
        out.statuses().iter().filter(|s| *s == "passed").count() > 20,
        "the suite ran: {:?}",
        out.statuses()
    );
}

#[test]
fn a_python_bot_that_reads_a_data_file_beside_it_passes() {
    if !has("python3", "--version") {
        return skip("python3");
    }
    let script = runtime_bot("kalah_bot.py");
    let command = format!("python3 {}", script.display());
    assert_passes(&["--bot-cmd", &command]);
}

#[test]
fn a_java_bot_run_as_a_jar_passes() {
    if !has("javac", "-version") || !has("java", "-version") || !has("jar", "--version") {
        return skip("a JDK (javac, java, jar)");
    }
    let scratch = Scratch::new("java");
    let classes = scratch.0.join("classes");
    let compiled = Command::new("javac")
        .arg("-d")
        .arg(&classes)
        .arg(runtime_bot("KalahBot.java"))
        .status()
        .unwrap();
    assert!(compiled.success(), "javac compiles KalahBot.java");
    let jar = scratch.0.join("kalah-bot.jar");
    let packed = Command::new("jar")
        .arg("--create")
        .arg("--file")
        .arg(&jar)
        .args(["--main-class", "KalahBot", "-C"])
        .arg(&classes)
        .arg(".")
        .status()
        .unwrap();
    assert!(packed.success(), "jar packs the classes");
    let command = format!("java -jar {}", jar.display());
    assert_passes(&["--bot-cmd", &command]);
}

#[test]
fn a_shell_wrapper_around_a_rust_bot_passes() {
    let scratch = Scratch::new("shell");
    let wrapper = scratch.0.join("run.sh");
    std::fs::copy(runtime_bot("run.sh"), &wrapper).unwrap();
    std::fs::copy(common::bot("kalah-correct"), scratch.0.join("kalah-bot")).unwrap();
    assert_passes(&[wrapper.to_str().unwrap()]);
}
