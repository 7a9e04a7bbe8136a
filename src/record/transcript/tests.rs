use super::*;
use crate::scenario::{Expect, Step, Token};

fn write(name: &str, text: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("protocheck-record-unit-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

fn convert_text(
    game: &str,
    name: &str,
    text: &str,
) -> Result<(Recorded, Option<String>), TranscriptError> {
    let path = write(name, text);
    convert(&Request {
        path: &path,
        game: crate::games::by_id(game).unwrap(),
        options: Options::default(),
        name: "t".into(),
        scenario: None,
        player: 1,
    })
}

fn steps(rec: &Recorded) -> Vec<Step> {
    rec.steps.iter().map(|(s, _)| s.clone()).collect()
}

#[test]
fn plain_lines_take_report_stamps_and_name_the_line_of_an_error() {
    let entries =
        plain_entries("   12ms > START;South\n\n< MOVE;1\n# a note\n<\n", "f.log").unwrap();
    assert_eq!(entries.len(), 4);
    assert_eq!(entries[0].text, "START;South");
    assert_eq!(entries[0].dir, Direction::Sent);
    assert_eq!(entries[1].line, 3);
    assert_eq!(entries[3].text, "");
    let err = plain_entries("> START;South\nMOVE;1\n", "f.log")
        .unwrap_err()
        .to_string();
    assert!(err.starts_with("f.log:2: expected `> `"), "{err}");
    assert!(plain_entries("\n\n", "f.log").is_err());
}

#[test]
fn a_kalah_log_skips_the_change_protocheck_sends_itself_and_pins_legal_replies() {
    let log = "> START;South\n< MOVE;1\n> CHANGE;1;7,7,7,7,7,7,7,0,0,8,8,8,8,8,8,1;OPP\n> CHANGE;2;7,0,8,8,8,8,8,1,1,8,8,8,8,8,8,1;YOU\n< MOVE;2\n";
    let (rec, stopped) = convert_text("kalah", "k.log", log).unwrap();
    assert_eq!(stopped, None);
    assert_eq!(
        steps(&rec),
        vec![
            Step::Send("START;South".into()),
            Step::Expect(Expect::Reply("MOVE;1".into())),
            Step::Send("CHANGE;2;7,0,8,8,8,8,8,1,1,8,8,8,8,8,8,1;YOU".into()),
            Step::Expect(Expect::Reply("MOVE;2".into())),
        ]
    );
}

#[test]
fn conversion_stops_at_the_first_failing_reply_as_a_run_does() {
    let log = "> START;South\n< MOVE;0\n> END\n";
    let (rec, stopped) = convert_text("kalah", "k0.log", log).unwrap();
    assert_eq!(
        steps(&rec),
        vec![
            Step::Send("START;South".into()),
            Step::Expect(Expect::LegalMove)
        ]
    );
    let why = stopped.unwrap();
    assert!(
        why.contains("k0.log:2") && why.contains("kalah.move.hole-range"),
        "{why}"
    );
}

#[test]
fn an_impossible_sent_line_is_an_error_at_its_line() {
    let log = "> START;South\n< MOVE;1\n> START;North\n";
    let err = convert_text("kalah", "k1.log", log)
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("k1.log:3: `START;North` cannot be sent here"),
        "{err}"
    );
}

#[test]
fn a_qtp_log_assembles_responses_up_to_their_empty_line() {
    let log = "> boardsize 9\n< =\n<\n> clear_board\n< =\n<\n> walls 10\n< =\n<\n> genmove black\n< = E8\n<\n> playmove black E5\n< ? illegal move\n<\n> quit\n< =\n<\n";
    let (rec, stopped) = convert_text("quoridor", "q.log", log).unwrap();
    assert_eq!(stopped, None);
    let s = steps(&rec);
    assert_eq!(s.len(), 13, "{s:?}");
    assert_eq!(s[7], Step::Expect(Expect::Reply("= E8".into())));
    assert_eq!(s[9], Step::Expect(Expect::Reply("? illegal move".into())));
    assert_eq!(s[12], Step::Expect(Expect::Exit));
}

#[test]
fn json_reports_pick_a_scenario_and_restore_folded_lines() {
    let report = r#"{"scenarios":[
        {"name":"a","status":"passed","transcript":[{"dir":"sent","text":"START;North","ms":0}]},
        {"name":"b","status":"failed","transcript":[
            {"dir":"sent","text":"x","ms":0},{"dir":"note","text":"… the same line 2 more times","ms":0}]}]}"#;
    let (entries, name) = json_entries(report, "r.json", None).unwrap();
    assert_eq!(name, "b");
    assert_eq!(entries.len(), 3);
    assert!(entries.iter().all(|e| e.text == "x"));
    let (_, name) = json_entries(report, "r.json", Some("a")).unwrap();
    assert_eq!(name, "a");
    let err = json_entries(report, "r.json", Some("zz"))
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("no scenario named `zz`") && err.contains("a, b"),
        "{err}"
    );
    let err = json_entries("{\n  \"scenarios\": [1,\n", "r.json", None)
        .unwrap_err()
        .to_string();
    assert!(err.starts_with("r.json:"), "{err}");
}

#[test]
fn lines_left_out_by_the_report_are_an_error_not_a_shorter_scenario() {
    let report = r#"{"scenarios":[{"name":"a","status":"failed","transcript":[
        {"dir":"sent","text":"START;South","ms":0},{"dir":"received","text":"MOVE;1","ms":0},
        {"dir":"note","text":"… 900 transcript lines left out (protocheck keeps the first 200 and the last 200) …","ms":0}]}]}"#;
    let err = convert_text("kalah", "cut.json", report)
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("transcript entry 3") && err.contains("left transcript lines out"),
        "{err}"
    );
}

#[test]
fn folds_and_cuts_are_recognised() {
    assert_eq!(folded_repeats("… the same line 1 more time"), Some(1));
    assert_eq!(
        folded_repeats("… the same line 1,204 more times"),
        Some(1204)
    );
    assert_eq!(folded_repeats("the bot exited"), None);
    let mut long = "x".repeat(5000);
    crate::shown::cut_text(&mut long, crate::shown::TRANSCRIPT_LINE_BYTES);
    assert!(is_cut(&long));
    assert!(!is_cut("= E2"));
}

#[test]
fn mankalah_logs_give_opponent_steps_and_pinned_bot_moves() {
    let log = "0  --  7  7  7  7  7  7  7\n7  7  7  7  7  7  7  --  0\nMove: South - 1\n0  --  7  7  7  7  7  7  7\n0  8  8  8  8  8  8  --  1\nMove: Swap\nMove: North - 1\n";
    let path = write("mk.log", log);
    let req = |player| Request {
        path: &path,
        game: crate::games::by_id("kalah").unwrap(),
        options: Options::default(),
        name: "m".into(),
        scenario: None,
        player,
    };
    // The bot as player 2 starts North and swaps; the opponent (player 1)
    // is North after that, and its `Move: North - 1` is an opponent step.
    let (rec, stopped) = convert(&req(2)).unwrap();
    assert_eq!(stopped, None);
    assert_eq!(
        steps(&rec),
        vec![
            Step::Send("START;North".into()),
            Step::Opponent(Token("1".into())),
            Step::Expect(Expect::Reply("SWAP".into())),
            Step::Opponent(Token("1".into())),
        ]
    );
    let (rec, _) = convert(&req(1)).unwrap();
    assert_eq!(
        steps(&rec),
        vec![
            Step::Send("START;South".into()),
            Step::Expect(Expect::Reply("MOVE;1".into())),
            Step::Opponent(Token("swap".into())),
            Step::Expect(Expect::Reply("MOVE;1".into())),
        ]
    );
    let bad = write("mk-bad.log", "Move: South - 1\nMove: East - 2\n");
    let err = convert(&Request {
        path: &bad,
        ..req(1)
    })
    .unwrap_err()
    .to_string();
    assert!(err.contains("mk-bad.log:2: `East` is not a side"), "{err}");
    let wrong_game = convert(&Request {
        game: crate::games::by_id("quoridor").unwrap(),
        ..req(1)
    })
    .unwrap_err()
    .to_string();
    assert!(wrong_game.contains("use --game kalah"), "{wrong_game}");
}

#[test]
fn transcript_errors_read_as_before_and_keep_their_cause() {
    let err = plain_entries("\n", "f.log").unwrap_err();
    assert_eq!(
        err.to_string(),
        "f.log: no transcript lines (`> `, `< `) in it"
    );
    let err = json_entries("{\n  \"scenarios\": [1,\n", "r.json", None).unwrap_err();
    assert!(matches!(err, TranscriptError::NotJson { .. }));
    assert!(std::error::Error::source(&err).is_some());
    let err = convert(&Request {
        path: std::path::Path::new("/no/such/protocheck/log"),
        game: crate::games::by_id("kalah").unwrap(),
        options: Options::default(),
        name: "t".into(),
        scenario: None,
        player: 1,
    })
    .unwrap_err();
    assert!(
        err.to_string()
            .starts_with("cannot read /no/such/protocheck/log: "),
        "{err}"
    );
    assert!(std::error::Error::source(&err).is_some());
}
