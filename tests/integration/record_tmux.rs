//! `protocheck record` in a real terminal: tmux runs it in a pane,
//! send-keys types the steps as a user would, capture-pane reads what the
//! user sees. The scenario written at the end must lint clean and replay
//! to the verdicts seen while recording.

use crate::common;
use common::*;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

fn tmux(args: &[&str]) -> Option<std::process::Output> {
    Command::new("tmux").args(args).output().ok()
}

fn tmux_missing() -> bool {
    if tmux(&["-V"]).is_none_or(|o| !o.status.success()) {
        eprintln!("skipped: tmux is not installed (apt-get install tmux)");
        return true;
    }
    false
}

/// A tmux session running one command; killed on drop.
struct Pane {
    session: String,
}

impl Pane {
    fn start(test: &str, command: &str) -> Pane {
        let session = format!("protocheck-record-{test}-{}", std::process::id());
        let _ = tmux(&["kill-session", "-t", &session]);
        let shell = format!("{command}; echo EXIT-STATUS-$?; sleep 120");
        let started = tmux(&[
            "new-session",
            "-d",
            "-s",
            &session,
            "-x",
            "200",
            "-y",
            "60",
            "sh",
            "-c",
            &shell,
        ]);
        assert!(
            started.is_some_and(|o| o.status.success()),
            "tmux could not start"
        );
        Pane { session }
    }

    /// What the user sees, scrollback included.
    fn screen(&self) -> String {
        tmux(&[
            "capture-pane",
            "-p",
            "-J",
            "-S",
            "-500",
            "-t",
            &self.session,
        ])
        .map(|o| String::from_utf8_lossy(&o.stdout).into_owned())
        .unwrap_or_default()
    }

    /// Type a line and press Enter.
    fn type_line(&self, text: &str) {
        assert!(
            tmux(&["send-keys", "-t", &self.session, "-l", text])
                .is_some_and(|o| o.status.success())
        );
        assert!(
            tmux(&["send-keys", "-t", &self.session, "Enter"]).is_some_and(|o| o.status.success())
        );
    }

    fn press(&self, key: &str) {
        assert!(tmux(&["send-keys", "-t", &self.session, key]).is_some_and(|o| o.status.success()));
    }

    /// Wait until the screen satisfies `ready` (a minute at most: the
    /// machine may be loaded); the screen then.
    fn wait_for(&self, what: &str, ready: impl Fn(&str) -> bool) -> String {
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let screen = self.screen();
            if ready(&screen) {
                return screen;
            }
            assert!(
                Instant::now() < deadline,
                "waited a minute for {what}; the screen:\n{screen}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    fn wait_text(&self, text: &str) -> String {
        self.wait_for(&format!("`{text}`"), |s| s.contains(text))
    }

    /// Wait for the `n`-th prompt: the previous step is done.
    fn wait_prompt(&self, n: usize) -> String {
        self.wait_for(&format!("prompt {n}"), |s| {
            s.matches("record> ").count() >= n
        })
    }
}

impl Drop for Pane {
    fn drop(&mut self) {
        let _ = tmux(&["kill-session", "-t", &self.session]);
    }
}

fn output_file(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "protocheck-record-tmux-{test}-{}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(format!("{test}.yaml"))
}

fn record_command(game: &str, bot_name: &str, output: &Path) -> String {
    format!(
        "{} record --game {game} {} --output {}",
        env!("CARGO_BIN_EXE_protocheck"),
        bot(bot_name),
        output.display()
    )
}

fn lints_clean(game: &str, file: &Path) {
    let out = Command::new(env!("CARGO_BIN_EXE_protocheck"))
        .args(["lint", "--game", game])
        .arg(file)
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}\n{}",
        String::from_utf8_lossy(&out.stderr),
        std::fs::read_to_string(file).unwrap_or_default()
    );
}

fn replay(game: &str, bot_name: &str, file: &Path) -> Outcome {
    run_json(
        &[
            "--game",
            game,
            &bot(bot_name),
            "--scenarios",
            file.to_str().unwrap(),
        ],
        &[],
    )
}

#[test]
fn a_kalah_session_is_recorded_move_by_move_and_replays_the_same() {
    if tmux_missing() {
        return;
    }
    let file = output_file("kalah");
    let pane = Pane::start("kalah", &record_command("kalah", "kalah-correct", &file));
    let screen = pane.wait_prompt(1);
    // The legal choices are offered before anything is typed.
    assert!(screen.contains("legal now: send: START;South"), "{screen}");

    pane.type_line("send: START;South");
    pane.wait_prompt(2);
    let screen = pane.wait_text("< MOVE;1");
    assert!(screen.contains("ok: the reply is legal"), "{screen}");
    assert!(
        screen.contains("opponent: 1 | 2 | 3 | 4 | 5 | 6 | 7 | swap"),
        "{screen}"
    );

    // A hole number is the opponent's move: protocheck writes the CHANGE.
    pane.type_line("2");
    pane.wait_prompt(3);
    let screen = pane.wait_text("> CHANGE;2;7,0,8,8,8,8,8,1,1,8,8,8,8,8,8,1;YOU");
    assert_eq!(
        screen.matches("ok: the reply is legal").count(),
        2,
        "{screen}"
    );

    // An impossible message is refused with the reason, and not sent.
    pane.type_line("send: START;North");
    let screen = pane.wait_text("refused, not sent: START was already sent");
    assert!(!screen.contains("> START;North"), "{screen}");
    pane.wait_prompt(4);

    pane.type_line("opponent: auto");
    pane.wait_prompt(5);
    pane.type_line("quit");
    let screen = pane.wait_text("EXIT-STATUS-");
    assert!(screen.contains("EXIT-STATUS-0"), "{screen}");
    assert!(screen.contains("steps, passed)"), "{screen}");

    let text = std::fs::read_to_string(&file).unwrap();
    assert!(text.contains("- send: START;South\n"), "{text}");
    assert!(text.contains("- opponent: 2\n"), "{text}");
    assert!(!text.contains("START;North"), "{text}");
    assert!(
        !text.contains("opponent: auto"),
        "protocheck's own choice is written out:\n{text}"
    );
    assert_eq!(text.matches("expect: legal-move").count(), 3, "{text}");
    lints_clean("kalah", &file);
    let replayed = replay("kalah", "kalah-correct", &file);
    assert_eq!(
        replayed.statuses(),
        vec!["passed"],
        "{}",
        findings(&replayed.report).join("\n")
    );
}

#[test]
fn a_failing_reply_shows_its_verdict_at_once_and_the_scenario_fails_the_same_on_replay() {
    if tmux_missing() {
        return;
    }
    let file = output_file("kalah-fail");
    let pane = Pane::start(
        "kalah-fail",
        &record_command("kalah", "kalah-zero-based", &file),
    );
    pane.wait_prompt(1);
    pane.type_line("send: START;South");
    let screen = pane.wait_text("EXIT-STATUS-");
    assert!(screen.contains("FAIL kalah.move.hole-range"), "{screen}");
    assert!(screen.contains("the scenario ends here"), "{screen}");
    assert!(screen.contains("EXIT-STATUS-0"), "{screen}");
    lints_clean("kalah", &file);
    let replayed = replay("kalah", "kalah-zero-based", &file);
    assert_eq!(replayed.statuses(), vec!["failed"]);
    assert_eq!(replayed.rules(), vec!["kalah.move.hole-range"]);
}

#[test]
fn a_qtp_session_is_recorded_with_sharpened_expectations_and_ends_on_ctrl_d() {
    if tmux_missing() {
        return;
    }
    let file = output_file("qtp");
    let pane = Pane::start("qtp", &record_command("quoridor", "qtp-correct", &file));
    let screen = pane.wait_prompt(1);
    assert!(screen.contains("legal now: send: boardsize 9"), "{screen}");
    let mut prompts = 1;
    for line in ["boardsize 9", "clear_board", "walls 10"] {
        pane.type_line(line);
        prompts += 1;
        pane.wait_prompt(prompts);
    }
    let screen = pane.screen();
    assert!(screen.contains("send: playmove black"), "{screen}");
    assert!(screen.contains("send: genmove black"), "{screen}");

    pane.type_line("genmove black");
    prompts += 1;
    pane.wait_prompt(prompts);
    // An illegal move is a legitimate message in QTP: the bot must refuse it.
    pane.type_line("playmove black A1");
    prompts += 1;
    let screen = pane.wait_prompt(prompts);
    assert!(screen.contains("< ? illegal move"), "{screen}");
    pane.type_line("expect: error illegal move");
    prompts += 1;
    let screen = pane.wait_prompt(prompts);
    assert!(
        screen.contains("ok: expect: { error: \"illegal move\" }"),
        "{screen}"
    );
    // A sharper expectation that does not hold is refused.
    pane.type_line("expect: reply = A1");
    prompts += 1;
    let screen = pane.wait_prompt(prompts);
    assert!(
        screen.contains("the bot replied `? illegal move`, not `= A1`"),
        "{screen}"
    );

    pane.press("C-d");
    let screen = pane.wait_text("EXIT-STATUS-");
    assert!(screen.contains("EXIT-STATUS-0"), "{screen}");
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(text.contains("error: illegal move"), "{text}");
    assert!(!text.contains("= A1"), "{text}");
    lints_clean("quoridor", &file);
    let replayed = replay("quoridor", "qtp-correct", &file);
    assert_eq!(
        replayed.statuses(),
        vec!["passed"],
        "{}",
        findings(&replayed.report).join("\n")
    );
}
