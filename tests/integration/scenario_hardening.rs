//! Hostile and broken scenario files: each one is refused with exit status 2
//! and an error that names the file at a line and column, quickly and with
//! bounded memory (the bad files are generated here, never committed).

use assert_cmd::Command;
use std::path::{Path, PathBuf};
use std::time::Duration;

const HEADER: &str = "name: bad\ngame: kalah\n";

fn protocheck() -> Command {
    let mut c = Command::cargo_bin("protocheck").unwrap();
    // Generous: a hang (a FIFO read, an alias bomb expanding) fails the
    // test instead of blocking it; no assertion on speed.
    c.timeout(Duration::from_secs(60));
    c
}

/// A fresh folder for one test's files.
fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "protocheck-scenario-hardening-{}-{name}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `protocheck lint` on `path`: exit 2, and stderr names `path:line:col`;
/// returns (line, col, message line).
fn refused(path: &Path) -> (u32, u32, String) {
    refused_at(path, path)
}

/// `protocheck lint` on `arg` (a file or folder) names `file:line:col`.
fn refused_at(arg: &Path, file: &Path) -> (u32, u32, String) {
    let out = protocheck()
        .args(["lint", "--game", "kalah"])
        .arg(arg)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    assert_eq!(out.status.code(), Some(2), "{}: {stderr}", arg.display());
    let prefix = format!("{}:", file.display());
    let line = stderr
        .lines()
        .find(|l| l.contains(&prefix))
        .unwrap_or_else(|| panic!("no `{prefix}` in stderr: {stderr}"));
    let rest = &line[line.find(&prefix).unwrap() + prefix.len()..];
    let mut parts = rest.splitn(3, ':');
    let l: u32 = parts.next().unwrap().parse().unwrap_or_else(|_| {
        panic!("no line number after the file name: {line}");
    });
    let c: u32 = parts.next().unwrap().parse().unwrap_or_else(|_| {
        panic!("no column after the line number: {line}");
    });
    assert!(l >= 1 && c >= 1, "{line}");
    assert!(
        stderr.len() < 64 * 1024,
        "the error is {} bytes long",
        stderr.len()
    );
    (l, c, line.to_string())
}

fn write(dir: &Path, name: &str, text: impl AsRef<[u8]>) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

#[test]
fn an_alias_bomb_is_refused() {
    let dir = temp_dir("alias");
    // "Billion laughs": each level nine aliases of the one before.
    let mut yaml = String::from(HEADER);
    yaml.push_str("about: &a0 \"lol\"\n");
    for i in 1..=9 {
        let prev = format!("*a{}", i - 1);
        let list = vec![prev; 9].join(", ");
        yaml.push_str(&format!("x{i}: &a{i} [{list}]\n"));
    }
    yaml.push_str("steps:\n  - send: \"START;South\"\n");
    let (_, _, msg) = refused(&write(&dir, "bomb.yaml", yaml));
    assert!(!msg.is_empty());
}

#[test]
fn an_alias_bomb_inside_a_step_is_refused() {
    let dir = temp_dir("alias-step");
    let mut yaml = String::from(HEADER);
    yaml.push_str("steps:\n  - send: &a0 \"START;South\"\n");
    for i in 1..=12 {
        yaml.push_str(&format!(
            "  - &a{i} [*a{p}, *a{p}, *a{p}, *a{p}]\n",
            p = i - 1
        ));
    }
    refused(&write(&dir, "bomb.yaml", yaml));
}

#[test]
fn aliases_that_expand_to_valid_steps_hit_the_budget() {
    let dir = temp_dir("alias-budget");
    // Many aliases of one step: the alias count.
    let mut yaml = format!("{HEADER}steps:\n  - &s {{ send: \"START;South\" }}\n");
    yaml.push_str(&"  - *s\n".repeat(5000));
    let (l, _, msg) = refused(&write(&dir, "many.yaml", yaml));
    assert!(l > 1000, "{msg}");
    assert!(msg.contains("too many aliases"), "{msg}");
    // A large anchored text replayed: the bytes of text.
    let mut yaml = format!("{HEADER}steps:\n  - send: &s \"{}\"\n", "M".repeat(60_000));
    yaml.push_str(&"  - send: *s\n".repeat(999));
    let (_, _, msg) = refused(&write(&dir, "wide.yaml", yaml));
    assert!(msg.contains("too large"), "{msg}");
}

#[test]
fn a_file_over_the_size_limit_is_refused_before_it_is_read() {
    let dir = temp_dir("big");
    let path = dir.join("big.yaml");
    let f = std::fs::File::create(&path).unwrap();
    // Sparse: 100 MB on paper, nothing on disk.
    f.set_len(100 * 1024 * 1024).unwrap();
    let (l, c, msg) = refused(&path);
    assert_eq!((l, c), (1, 1));
    assert!(msg.contains("over the limit"), "{msg}");
}

#[test]
fn deep_nesting_is_refused() {
    let dir = temp_dir("deep");
    let depth = 10_000;
    let mut yaml = String::from(HEADER);
    yaml.push_str("steps:\n  - send: ");
    yaml.push_str(&"[".repeat(depth));
    yaml.push_str(&"]".repeat(depth));
    yaml.push('\n');
    refused(&write(&dir, "flow.yaml", yaml));
    // Block style, on one line.
    let yaml = format!("{HEADER}steps:\n  - {}x\n", "- ".repeat(depth));
    refused(&write(&dir, "block.yaml", yaml));
    // Nested mappings where options are expected.
    let yaml = format!(
        "{HEADER}options: {}1{}\nsteps: [close-input]\n",
        "{a: ".repeat(depth),
        "}".repeat(depth)
    );
    refused(&write(&dir, "map.yaml", yaml));
}

#[test]
fn invalid_utf8_is_located() {
    let dir = temp_dir("utf8");
    let mut bytes = HEADER.as_bytes().to_vec();
    bytes.extend_from_slice(b"steps:\n  - send: \"ab\xff\"\n");
    let (l, c, msg) = refused(&write(&dir, "latin1.yaml", bytes));
    assert_eq!((l, c), (4, 14), "{msg}");
    assert!(msg.contains("UTF-8"), "{msg}");
}

#[test]
fn a_huge_regular_expression_is_refused_at_its_step() {
    let dir = temp_dir("regex");
    // Long text.
    let long = "a".repeat(100_000);
    let yaml = format!(
        "{HEADER}steps:\n  - send: \"START;South\"\n  - expect:\n      matches: \"{long}\"\n"
    );
    let (l, _, msg) = refused(&write(&dir, "long.yaml", yaml));
    assert_eq!(l, 5, "{msg}");
    assert!(msg.contains("regular expression"), "{msg}");
    // Short text that compiles to something huge.
    let yaml = format!(
        "{HEADER}steps:\n  - send: \"START;South\"\n  - expect: {{ matches: \"(\\\\w{{100}}){{100}}\" }}\n"
    );
    let (l, _, msg) = refused(&write(&dir, "blowup.yaml", yaml));
    assert_eq!(l, 5, "{msg}");
    assert!(msg.contains("regular expression"), "{msg}");
}

#[test]
fn a_ten_megabyte_send_is_refused_at_its_step() {
    let dir = temp_dir("send");
    let yaml = format!(
        "{HEADER}steps:\n  - send: \"{}\"\n",
        "M".repeat(10 * 1024 * 1024)
    );
    let (l, c, msg) = refused(&write(&dir, "send.yaml", yaml));
    assert_eq!((l, c), (4, 5), "{msg}");
    assert!(msg.contains("over the limit"), "{msg}");
}

#[test]
fn duplicate_keys_are_refused() {
    let dir = temp_dir("dup");
    let yaml = format!("{HEADER}name: again\nsteps:\n  - send: \"START;South\"\n");
    let (l, _, msg) = refused(&write(&dir, "dup.yaml", yaml));
    assert_eq!(l, 3, "{msg}");
    let yaml =
        format!("{HEADER}options: {{ seed: 1, seed: 2 }}\nsteps:\n  - send: \"START;South\"\n");
    refused(&write(&dir, "dup-options.yaml", yaml));
}

#[test]
fn a_directory_named_as_a_file_is_refused() {
    let dir = temp_dir("dir");
    let inner = dir.join("inner.yaml");
    std::fs::create_dir(&inner).unwrap();
    write(
        &inner,
        "ok.yaml",
        format!("{HEADER}steps:\n  - send: \"START;South\"\n  - expect: legal-move\n"),
    );
    // A folder, even one named like a file, is searched for scenarios.
    protocheck()
        .args(["lint", "--game", "kalah"])
        .arg(&inner)
        .assert()
        .success();
    // The loader itself refuses to read one as a file.
    let e = protocheck::scenario::load::load_file(&inner, Some("kalah")).unwrap_err();
    assert_eq!((e.line, e.column), (1, 1), "{e}");
    assert!(e.message.contains("directory"), "{e}");
}

#[cfg(unix)]
#[test]
fn a_fifo_is_refused_without_blocking() {
    let dir = temp_dir("fifo");
    let fifo = dir.join("pipe.yaml");
    let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
    // SAFETY: a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
    let (l, c, msg) = refused(&fifo);
    assert_eq!((l, c), (1, 1));
    assert!(msg.contains("not a regular file"), "{msg}");
    // Found inside a folder, too.
    let (l, _, _) = refused_at(&dir, &fifo);
    assert_eq!(l, 1);
}
