//! The sandbox against hostile students (issue 27): a class of the hostile
//! sample bots (`bots/examples/attack-*.rs`, each `kalah-correct` plus one attack) and a
//! victim (`kalah-correct` with a `solution.txt`), graded with `protocheck
//! grade` and played in `protocheck tournament`, all attackers in one run
//! each. For every attack: it is refused (the attacker's own log and, under
//! grade, the stderr tail in its report say so), the victim's verdict and
//! files are unchanged, the results files, the instructor's folder and the
//! protocheck program are intact, and the attacker gets its verdict: pass,
//! or `io.resource-limit` for the disk and thread attacks.
//!
//! The class layout (a temporary folder):
//!
//! ```text
//! class/submissions/<id>/bot     each bot, a copy of its example
//! class/submissions/victim/solution.txt
//! class/instructor/secret.txt    the hidden tests
//! class/tools/protocheck         a copy of protocheck, which grade and the
//!                                tournament run from (an attack may replace it)
//! class/grades/, class/tournament/   the results
//! ```
//!
//! The same runs with `--sandbox off` show each attack getting through
//! (they prove every assertion here can fail).
#![cfg(target_os = "linux")]

use crate::common;

use serde_json::Value;
use std::collections::BTreeMap;
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// The class: each id and the sample bot it submits.
const CLASS: &[(&str, &str)] = &[
    ("victim", "kalah-correct"),
    ("read-sibling", "attack-read-sibling"),
    ("read-instructor", "attack-read-instructor"),
    ("write-grades", "attack-write-grades"),
    ("write-classmate", "attack-write-classmate"),
    ("replace-protocheck", "attack-replace-protocheck"),
    ("signal-parent", "attack-signal-parent"),
    ("signal-guardian", "attack-signal-guardian"),
    ("signal-classmate", "attack-signal-classmate"),
    ("ptrace-parent", "attack-ptrace-parent"),
    ("proc-environ", "attack-proc-environ"),
    ("proc-mem", "attack-proc-mem"),
    ("tcp-listen", "attack-tcp-listen"),
    ("tcp-connect", "attack-tcp-connect"),
    ("collude-tmp", "attack-collude-tmp"),
    ("collude-socket", "attack-collude-socket"),
    ("collude-socket-2", "attack-collude-socket"),
    ("fill-disk", "attack-fill-disk"),
    ("thread-burst", "attack-thread-burst"),
    ("demote-classmate", "attack-demote-classmate"),
];

/// The attacks whose verdict is `io.resource-limit` (the attack is the
/// resource use itself, so they are judged by their verdict).
const RESOURCE_ATTACKS: &[&str] = &["fill-disk", "thread-burst"];

/// The victim's solution and the instructor's secret.
const SOLUTION: &str = "victim's solution: always play the rightmost hole\n";
const SECRET: &str = "instructor's hidden tests: north-opening-8\n";
/// In the environment of grade and the tournament: what a CI token is.
const TOKEN: (&str, &str) = ("PROTOCHECK_TEST_CI_TOKEN", "ci-token-do-not-leak");

/// The run options every bot of grade gets: three scenarios; a small disk
/// cap so that the disk attack's 24 MiB is past it.
const RUN_OPTIONS: &[&str] = &[
    "--game",
    "kalah",
    "--filter",
    "north-opening-[1-3]",
    "--max-disk",
    "8M",
];

struct Class {
    root: PathBuf,
    protocheck: PathBuf,
    program_len: u64,
    /// Keeps a port listening for `tcp-connect` to find.
    _listener: TcpListener,
}

impl Class {
    fn new(test: &str) -> Class {
        let root = std::env::temp_dir().join(format!(
            "protocheck-attacks-{test}-{}-{}",
            std::process::id(),
            fastrand::u32(..)
        ));
        for (id, example) in CLASS {
            let folder = root.join("submissions").join(id);
            std::fs::create_dir_all(&folder).unwrap();
            link_or_copy(common::bot(example), &folder.join("bot"));
        }
        std::fs::write(root.join("submissions/victim/solution.txt"), SOLUTION).unwrap();
        std::fs::create_dir_all(root.join("instructor")).unwrap();
        std::fs::write(root.join("instructor/secret.txt"), SECRET).unwrap();
        std::fs::create_dir_all(root.join("tools")).unwrap();
        let protocheck = root.join("tools/protocheck");
        link_or_copy(env!("CARGO_BIN_EXE_protocheck"), &protocheck);
        let program_len = std::fs::metadata(&protocheck).unwrap().len();
        Class {
            root,
            protocheck,
            program_len,
            _listener: TcpListener::bind("127.0.0.1:0").unwrap(),
        }
    }

    fn bots(&self) -> Vec<String> {
        CLASS
            .iter()
            .map(|(id, _)| self.folder(id).join("bot").display().to_string())
            .collect()
    }

    fn folder(&self, id: &str) -> PathBuf {
        self.root.join("submissions").join(id)
    }

    /// Runs protocheck and keeps it going: `attack-signal-parent` stops
    /// its protocheck and resumes it 50 ms later, but without the sandbox
    /// `attack-signal-classmate` may kill it (or `demote-classmate` starve
    /// it) in between, and the run stayed stopped for good (seen in a
    /// fresh-clone CI: the tournament test hung). A SIGCONT every 100 ms
    /// resumes it; a stop still shows as delivered in the attack's log.
    fn protocheck(&self, args: &[&str], extra: &[String]) -> Output {
        let child = Command::new(&self.protocheck)
            .current_dir(&self.root)
            .args(args)
            .args(extra)
            .env(TOKEN.0, TOKEN.1)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("run protocheck");
        let pid = child.id() as i32;
        let done = AtomicBool::new(false);
        std::thread::scope(|scope| {
            scope.spawn(|| {
                while !done.load(Ordering::SeqCst) {
                    // SAFETY: kill has no memory-safety preconditions.
                    unsafe { libc::kill(pid, libc::SIGCONT) };
                    std::thread::sleep(Duration::from_millis(100));
                }
            });
            let out = child.wait_with_output().expect("wait for protocheck");
            done.store(true, Ordering::SeqCst);
            out
        })
    }

    /// `protocheck grade` over the class, all bots at once.
    fn grade(&self, sandbox: &[&str]) -> Output {
        let mut bots = self.bots();
        bots.push("--".into());
        bots.extend(RUN_OPTIONS.iter().map(|s| s.to_string()));
        bots.extend(sandbox.iter().map(|s| s.to_string()));
        let jobs = CLASS.len().to_string();
        self.protocheck(&["grade", "--out", "grades", "--jobs", &jobs], &bots)
    }

    /// `protocheck tournament` over the class, one game per match.
    fn tournament(&self, sandbox: &[&str]) -> Output {
        let mut args: Vec<String> = sandbox.iter().map(|s| s.to_string()).collect();
        args.extend(self.bots());
        self.protocheck(
            &[
                "tournament",
                "--game",
                "kalah",
                "--silence",
                "0",
                "--jobs",
                "4",
                "--max-disk",
                "8M",
                "--out",
                "tournament",
            ],
            &args,
        )
    }

    /// The lines of an attacker's `attack.log`.
    fn attack_log(&self, id: &str) -> String {
        std::fs::read_to_string(self.folder(id).join("attack.log")).unwrap_or_default()
    }

    /// Every file under the results folders, with its text.
    fn results(&self) -> BTreeMap<PathBuf, String> {
        let mut found = BTreeMap::new();
        for dir in ["grades", "tournament"] {
            collect(&self.root.join(dir), &mut found);
        }
        found
    }
}

/// A hard link where it can (no attack writes into a program file: the
/// trojan is renamed over the link, which leaves the linked file as it
/// was), else a copy: the machine's disk is spared.
fn link_or_copy(from: impl AsRef<Path>, to: &Path) {
    if std::fs::hard_link(from.as_ref(), to).is_err() {
        std::fs::copy(from.as_ref(), to).unwrap();
    }
}

impl Drop for Class {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.root);
        // What `attack-collude-tmp` leaves where the sandbox is off: its
        // meeting place is named by a hash of the submissions folder
        // (bots/src/attack, `meeting_place`).
        let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
        for byte in self.root.join("submissions").to_string_lossy().bytes() {
            hash = (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
        }
        let _ = std::fs::remove_file(format!("/tmp/protocheck-collusion-{hash:016x}.txt"));
    }
}

fn collect(dir: &Path, found: &mut BTreeMap<PathBuf, String>) {
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.is_dir() {
            collect(&path, found);
        } else {
            let text = String::from_utf8_lossy(&std::fs::read(&path).unwrap()).into_owned();
            found.insert(path, text);
        }
    }
}

/// The attack an attacker's lines are about (`attack <name>: …`).
fn attack_of(id: &str) -> &str {
    id.trim_end_matches("-2")
}

fn is_attacker(id: &str) -> bool {
    id != "victim"
}

/// The folders, the program and the results that no attack may change.
fn assert_intact(class: &Class) {
    let victim: Vec<String> = std::fs::read_dir(class.folder("victim"))
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    let mut victim = victim;
    victim.sort();
    assert_eq!(
        victim,
        ["bot", "solution.txt"],
        "the victim's folder holds only what it submitted"
    );
    assert_eq!(
        std::fs::read_to_string(class.folder("victim").join("solution.txt")).unwrap(),
        SOLUTION
    );
    for (id, _) in CLASS {
        assert!(
            !class.folder(id).join("pwned.txt").exists(),
            "nobody wrote into {id}'s folder"
        );
    }
    assert_eq!(
        std::fs::read_to_string(class.root.join("instructor/secret.txt")).unwrap(),
        SECRET
    );
    let tools: Vec<_> = std::fs::read_dir(class.root.join("tools"))
        .unwrap()
        .flatten()
        .map(|e| e.file_name())
        .collect();
    assert_eq!(
        tools.len(),
        1,
        "nothing was written beside protocheck: {tools:?}"
    );
    assert_eq!(
        std::fs::metadata(&class.protocheck).unwrap().len(),
        class.program_len,
        "protocheck's program is unchanged"
    );
    for (path, text) in class.results() {
        assert!(
            !text.contains("forged by attack"),
            "{} holds a forged line",
            path.display()
        );
    }
}

/// The lines of every attacker of `id`'s attack, joined: of the two
/// colluders only one may find the other listening, and only its connect is
/// refused.
fn together(id: &str, lines: impl Fn(&str) -> String) -> String {
    CLASS
        .iter()
        .filter(|(other, _)| attack_of(other) == attack_of(id))
        .map(|(other, _)| lines(other))
        .collect::<Vec<_>>()
        .join("\n")
}

/// An attacker's lines show a refusal and no success.
fn assert_refused(id: &str, lines: &str, place: &str) {
    let name = attack_of(id);
    let succeeded = format!("attack {name}: succeeded");
    assert!(
        !lines.contains(&succeeded),
        "{id}: the attack got through ({place}):\n{lines}"
    );
    assert!(
        lines.contains(&format!("attack {name}: refused")),
        "{id}: no refusal in {place}:\n{lines}"
    );
}

/// A grade row by id, from grades.json.
fn grade_rows(class: &Class) -> BTreeMap<String, Value> {
    let text = std::fs::read_to_string(class.root.join("grades/grades.json"))
        .expect("grades.json was written");
    let json: Value = serde_json::from_str(&text).unwrap();
    json["bots"]
        .as_array()
        .or_else(|| json["rows"].as_array())
        .or_else(|| json.as_array())
        .expect("the rows of grades.json")
        .iter()
        .map(|row| (row["id"].as_str().unwrap().to_string(), row.clone()))
        .collect()
}

/// Every scenario's stderr tail of a bot's report.json, joined.
fn stderr_tails(class: &Class, id: &str) -> String {
    let text = std::fs::read_to_string(class.root.join("grades").join(id).join("report.json"))
        .unwrap_or_default();
    let report: Value = serde_json::from_str(&text).unwrap_or(Value::Null);
    report["scenarios"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|s| s["stderr_tail"].as_str().unwrap_or("").to_string())
        .collect::<Vec<_>>()
        .join("\n")
}

fn rules_of(row: &Value) -> String {
    format!(
        "{} {}",
        row["first_failing_rule"].as_str().unwrap_or(""),
        row["rules"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .collect::<Vec<_>>()
            .join(" ")
    )
}

#[test]
fn grade_refuses_every_attack_and_keeps_every_verdict() {
    let class = Class::new("grade");
    let out = class.grade(&[]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "grade ran:\n{stderr}");
    let rows = grade_rows(&class);
    assert_eq!(rows.len(), CLASS.len(), "every bot has a row:\n{stderr}");
    for (id, _) in CLASS {
        let row = &rows[*id];
        let status = row["status"].as_str().unwrap_or("");
        if RESOURCE_ATTACKS.contains(id) {
            assert_eq!(status, "failed", "{id}: {row}");
            assert!(
                rules_of(row).contains("io.resource-limit"),
                "{id} is stopped with io.resource-limit: {row}"
            );
            continue;
        }
        assert_eq!(status, "passed", "{id} played right and passes: {row}");
        if is_attacker(id) {
            let logs = together(id, |id| class.attack_log(id));
            assert_refused(id, &logs, "its attack.log");
            let tails = together(id, |id| stderr_tails(&class, id));
            assert_refused(id, &tails, "its report's stderr tail");
        }
    }
    assert_intact(&class);
}

#[test]
fn tournament_refuses_every_attack_and_keeps_every_verdict() {
    let class = Class::new("tournament");
    let out = class.tournament(&[]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let text = std::fs::read_to_string(class.root.join("tournament/standings.json"))
        .unwrap_or_else(|e| panic!("standings.json ({e}):\n{stderr}"));
    let standings: Value = serde_json::from_str(&text).unwrap();
    let rows: BTreeMap<String, Value> = standings["standings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r["bot"].as_str().unwrap().to_string(), r.clone()))
        .collect();
    assert_eq!(rows.len(), CLASS.len(), "every bot is ranked:\n{stderr}");
    let games = 2 * (CLASS.len() as u64 - 1);
    for (id, _) in CLASS {
        let row = &rows[*id];
        assert_eq!(row["games"], games, "{id} played every match: {row}");
        if RESOURCE_ATTACKS.contains(id) {
            assert!(
                row["forfeits"].as_u64().unwrap_or(0) > 0,
                "{id} forfeits games: {row}"
            );
            continue;
        }
        assert_eq!(row["forfeits"], 0, "{id} forfeits nothing: {row}");
        assert_eq!(row["failures"], 0, "{id} breaks no rule: {row}");
        if is_attacker(id) {
            let logs = together(id, |id| class.attack_log(id));
            assert_refused(id, &logs, "its attack.log");
        }
    }
    // Only the resource attackers have findings, and each is stopped by
    // io.resource-limit (a game it did not forfeit can end before that
    // finding: it then counts as a failure).
    let mut findings: BTreeMap<(String, String), usize> = BTreeMap::new();
    for entry in std::fs::read_dir(class.root.join("tournament/matches")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "json") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let report: Value = serde_json::from_str(&text).unwrap();
        for game in report["games"].as_array().into_iter().flatten() {
            for finding in game["findings"].as_array().into_iter().flatten() {
                let bot = finding["bot"].as_str().unwrap_or("");
                let rule = finding["rule"].as_str().unwrap_or("");
                assert!(
                    RESOURCE_ATTACKS.contains(&bot),
                    "{}: only the resource attackers have findings: {finding}",
                    path.display()
                );
                *findings.entry((bot.into(), rule.into())).or_default() += 1;
            }
        }
    }
    eprintln!("the resource attackers' findings: {findings:?}");
    for id in RESOURCE_ATTACKS {
        assert!(
            findings.contains_key(&(id.to_string(), "io.resource-limit".into())),
            "{id} is stopped with io.resource-limit: {findings:?}"
        );
    }
    assert_intact(&class);
}

/// The lines of every attacker that got through, by attack.
fn successes(class: &Class) -> BTreeMap<String, String> {
    CLASS
        .iter()
        .filter(|(id, _)| is_attacker(id))
        .filter_map(|(id, _)| {
            let log = class.attack_log(id);
            let name = attack_of(id);
            log.contains(&format!("attack {name}: succeeded"))
                .then(|| (name.to_string(), log))
        })
        .collect()
}

/// The attacks that need a sandbox to be stopped: without one each gets
/// through, so each assertion above can fail. (The resource attacks are
/// judged by their verdict and the signal and ptrace attacks on protocheck
/// leave it running, so they all show up here too.)
const GET_THROUGH: &[&str] = &[
    "read-sibling",
    "read-instructor",
    "write-grades",
    "write-classmate",
    "replace-protocheck",
    "signal-parent",
    "signal-guardian",
    "signal-classmate",
    "ptrace-parent",
    "proc-environ",
    "proc-mem",
    "tcp-listen",
    "tcp-connect",
    "collude-tmp",
    "collude-socket",
    "fill-disk",
    "thread-burst",
    "demote-classmate",
];

/// Every attack of [`GET_THROUGH`] got through. The socket colluders need
/// each other at the same moment: one listening while the other's bot
/// starts. When no run of either ever found the other (every line of both
/// logs "no target"), the run proves nothing about that attack either way,
/// and says so, rather than fail for the schedule (seen once at load in CI).
fn assert_through(class: &Class) {
    let through = successes(class);
    for name in GET_THROUGH {
        if *name == "collude-socket" && !through.contains_key(*name) {
            let logs = format!(
                "{}{}",
                class.attack_log("collude-socket"),
                class.attack_log("collude-socket-2")
            );
            let lines: Vec<&str> = logs.lines().filter(|l| !l.trim().is_empty()).collect();
            if !lines.is_empty() && lines.iter().all(|l| l.contains(": no target: ")) {
                println!(
                    "collude-socket: the colluders never met in this run (no target):\n{logs}"
                );
                continue;
            }
        }
        assert!(
            through.contains_key(*name),
            "{name} gets through without the sandbox:\n{}",
            class.attack_log(name)
        );
    }
}

#[test]
fn grade_without_the_sandbox_lets_the_attacks_through() {
    let class = Class::new("grade-off");
    let out = class.grade(&["--sandbox", "off"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_through(&class);
    assert!(
        std::fs::read_to_string(class.folder("victim").join("solution.txt"))
            .unwrap()
            .contains("changed by attack-write-classmate")
    );
}

#[test]
fn tournament_without_the_sandbox_lets_the_attacks_through() {
    let class = Class::new("tournament-off");
    let out = class.tournament(&["--sandbox", "off"]);
    assert!(
        class.root.join("tournament/standings.json").exists(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_through(&class);
}
