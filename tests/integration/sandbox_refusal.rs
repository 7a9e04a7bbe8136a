//! A sandboxed bot that is refused gets a true diagnosis (issue 27.6): the
//! finding about its crash leads with the sandbox's refusal and the option
//! that allows the access; a bot that reads only what the sandbox allows
//! passes; without the sandbox nothing is blamed on it.

use crate::common;
use common::*;
use std::path::{Path, PathBuf};

/// Whether this kernel has Landlock (the files layer), without which no
/// run is sandboxed and no refusal is diagnosed.
fn landlock() -> bool {
    // SAFETY: with a null attribute and size 0 the call only returns the
    // ABI version (flag 1: LANDLOCK_CREATE_RULESET_VERSION).
    #[cfg(target_os = "linux")]
    let on = unsafe {
        libc::syscall(
            libc::SYS_landlock_create_ruleset,
            std::ptr::null::<libc::c_void>(),
            0usize,
            1u32,
        )
    } >= 1;
    #[cfg(not(target_os = "linux"))]
    let on = false;
    if !on {
        eprintln!("skipped: this kernel has no Landlock, so no run is sandboxed");
    }
    on
}

/// A class folder: `alice/` (the bot's working folder) and `other/book.txt`
/// beside it, a classmate's file.
fn class() -> (PathBuf, PathBuf, PathBuf) {
    let root = tempdir();
    let alice = root.join("alice");
    let other = root.join("other");
    std::fs::create_dir_all(&alice).unwrap();
    std::fs::create_dir_all(&other).unwrap();
    let book = other.join("book.txt");
    std::fs::write(&book, "MOVE;4\n").unwrap();
    (root, alice, book)
}

/// `protocheck` run in `dir` on one short Kalah scenario, as JSON.
fn run_in(dir: &Path, args: &[&str]) -> Outcome {
    let scenario = fixture("kalah/one-move.yaml");
    let mut cmd = assert_cmd::Command::cargo_bin("protocheck").unwrap();
    cmd.current_dir(dir)
        .args([
            "--game",
            "kalah",
            "--scenarios",
            &scenario,
            "--exit-grace",
            "500ms",
        ])
        .args(["--format", "json", "--color", "never"])
        .args(args)
        .timeout(std::time::Duration::from_secs(240));
    let out = cmd.output().unwrap();
    let (code, report, stderr) = json_outcome(&out);
    Outcome {
        code,
        report,
        stderr,
    }
}

fn crash_message(out: &Outcome) -> String {
    let v = out.report["scenarios"][0]["violations"]
        .as_array()
        .and_then(|vs| vs.iter().find(|v| v["rule"] == "io.crash"))
        .unwrap_or_else(|| panic!("no io.crash: {:?}\n{}", findings(&out.report), out.stderr));
    v["message"].as_str().unwrap_or("").to_string()
}

#[test]
fn a_bot_that_reads_a_data_file_beside_its_program_passes_sandboxed() {
    let (root, _, _) = class();
    let folder = root.join("bob");
    std::fs::create_dir_all(&folder).unwrap();
    let program = folder.join("kalah-reads-own-data");
    std::fs::copy(bot("kalah-reads-own-data"), &program).unwrap();
    std::fs::write(folder.join("kalah-data.txt"), "opening book\n").unwrap();
    // Run from elsewhere: its program's folder is not its working folder.
    let out = run_in(&root.join("alice"), &[program.to_str().unwrap()]);
    assert_eq!(out.code, 0, "{:?}\n{}", findings(&out.report), out.stderr);
}

#[test]
fn a_bot_that_reads_a_siblings_file_fails_with_the_sandboxs_diagnosis() {
    if !landlock() {
        return;
    }
    let (_, alice, book) = class();
    let bot = bot("kalah-reads-sibling");
    let out = run_in(&alice, &[&bot, "--", "--classmate=other"]);
    assert_eq!(out.code, 1, "{:?}\n{}", findings(&out.report), out.stderr);
    let message = crash_message(&out);
    let book = book.display().to_string();
    assert!(
        message.starts_with(&format!(
            "the sandbox refused this bot access to {book} (reading outside its folder), then the bot exited"
        )),
        "{message}"
    );
    assert!(
        message.contains(&format!("run with --allow-read {book}")),
        "{message}"
    );
    // With the read allowed it plays, and passes.
    let out = run_in(
        &alice,
        &["--allow-read", &book, &bot, "--", "--classmate=other"],
    );
    assert_eq!(out.code, 0, "{:?}\n{}", findings(&out.report), out.stderr);
}

/// A bot whose stderr says what a refused read says (as `cat` does), and
/// which exits: the words are the evidence the diagnosis reads, whoever
/// refused the read.
fn says_refused(folder: &Path, path: &Path) -> String {
    let script = folder.join("says-refused.sh");
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\nread line\necho \"cat: {}: Permission denied\" >&2\nexit 1\n",
            path.display()
        ),
    )
    .unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    script.display().to_string()
}

#[test]
fn a_crash_after_a_refused_read_leads_with_the_refusal() {
    if !landlock() {
        return;
    }
    let (_, alice, book) = class();
    let bot = says_refused(&alice, &book);
    let out = run_in(&alice, &[&bot]);
    assert_eq!(out.code, 1);
    let message = crash_message(&out);
    assert!(
        message.starts_with(&format!(
            "the sandbox refused this bot access to {} (reading outside its folder), then ",
            book.display()
        )),
        "{message}"
    );
    // A file in its own folder is the sandbox's to allow: its refusal is
    // the file's own permissions.
    let own = alice.join("notes.txt");
    std::fs::write(&own, "x").unwrap();
    let bot = says_refused(&alice, &own);
    let message = crash_message(&run_in(&alice, &[&bot]));
    assert!(!message.contains("sandbox"), "{message}");
}

#[test]
fn without_the_sandbox_a_refusal_is_not_blamed_on_it() {
    let (_, alice, book) = class();
    let bot = says_refused(&alice, &book);
    let out = run_in(&alice, &["--sandbox", "off", &bot]);
    assert_eq!(out.code, 1, "{:?}\n{}", findings(&out.report), out.stderr);
    let message = crash_message(&out);
    assert!(!message.contains("sandbox"), "{message}");
}
