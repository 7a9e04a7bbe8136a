use super::*;
use crate::games::Session;

mod assembly;

fn setup() -> QtpSession {
    let mut s = QtpSession::new(Colour::Black, Strategy::Greedy);
    for c in ["boardsize 9", "clear_board", "walls 10"] {
        assert_eq!(s.send(c).unwrap().replies, 1);
        let j = s
            .judge(b"=\n\n", &Expect::LegalMove, Duration::ZERO)
            .unwrap();
        assert!(j.violations.is_empty(), "{c}: {:?}", j.violations);
    }
    s
}

fn answer(s: &mut QtpSession, cmd: &str, reply: &str) -> Vec<&'static str> {
    let out = s.send(cmd).unwrap();
    assert_eq!(out.replies, 1, "{cmd}");
    s.judge(reply.as_bytes(), &Expect::LegalMove, Duration::ZERO)
        .unwrap()
        .violations
        .iter()
        .map(|v| v.rule)
        .collect()
}

#[test]
fn legal_and_illegal_moves_are_judged_against_the_true_state() {
    let mut s = setup();
    assert!(answer(&mut s, "playmove black E8", "=\n\n").is_empty());
    assert_eq!(
        answer(&mut s, "playmove black E5", "=\n\n"),
        vec!["quoridor.playmove.rejects-illegal"]
    );
    assert!(answer(&mut s, "playmove black E5", "? illegal move\n\n").is_empty());
    assert_eq!(
        answer(&mut s, "playmove white E9", "? Illegal move\n\n"),
        vec!["quoridor.error.text"]
    );
    assert!(answer(&mut s, "name", "= x\n\n").is_empty());
    assert_eq!(
        answer(&mut s, "playmove white E2", "? illegal move\n\n"),
        vec!["quoridor.playmove.accepts-legal"]
    );
}

fn setup_with(size: u32, walls: u32) -> QtpSession {
    let mut s = QtpSession::new(Colour::Black, Strategy::Greedy);
    for c in [
        format!("boardsize {size}"),
        "clear_board".into(),
        format!("walls {walls}"),
    ] {
        s.send(&c).unwrap();
        assert!(
            s.judge(b"=\n\n", &Expect::LegalMove, Duration::ZERO)
                .unwrap()
                .violations
                .is_empty()
        );
    }
    s
}

#[test]
fn a_refused_wall_that_cost_a_wall_is_diagnosed_as_state_change() {
    let mut s = setup_with(9, 1);
    assert!(answer(&mut s, "playwall white E1 horizontal", "? illegal move\n\n").is_empty());
    assert_eq!(
        answer(&mut s, "playwall white A5 horizontal", "? illegal move\n\n"),
        vec!["quoridor.state.failed-unchanged"]
    );
    // The same refused line twice in a row is still a refusal just before.
    let mut s = setup_with(9, 1);
    for _ in 0..2 {
        assert!(answer(&mut s, "playwall white E1 horizontal", "? illegal move\n\n").is_empty());
    }
    assert_eq!(
        answer(&mut s, "playwall white A5 horizontal", "? illegal move\n\n"),
        vec!["quoridor.state.failed-unchanged"]
    );
    // With walls to spare, a refusal after a refusal is the wall rule itself.
    let mut s = setup_with(9, 10);
    assert!(answer(&mut s, "playwall white E1 horizontal", "? illegal move\n\n").is_empty());
    assert_eq!(
        answer(&mut s, "playwall white A5 horizontal", "? illegal move\n\n"),
        vec!["quoridor.playwall.accepts-legal"]
    );
}

#[test]
fn an_undo_that_took_back_too_little_is_diagnosed_at_the_next_undo() {
    let mut s = setup_with(5, 3);
    for m in [
        "playmove black C4",
        "playmove white C2",
        "playmove black C3",
    ] {
        assert!(answer(&mut s, m, "=\n\n").is_empty());
    }
    assert!(answer(&mut s, "undo 2", "=\n\n").is_empty());
    assert_eq!(
        answer(&mut s, "undo 2", "=\n\n"),
        vec!["quoridor.undo.restores"]
    );
}

#[test]
fn wall_rules_have_their_own_ids() {
    let mut s = setup();
    assert!(answer(&mut s, "playwall white C5 horizontal", "=\n\n").is_empty());
    assert_eq!(
        answer(&mut s, "playwall black D5 horizontal", "=\n\n"),
        vec!["quoridor.playwall.overlap"]
    );
    // Accepting an illegal wall written in short form is still the wall rule:
    // the engine understood the line.
    assert_eq!(
        answer(&mut s, "playwall black I5 v", "=\n\n"),
        vec!["quoridor.playwall.anchor"]
    );
    // Refusing a legal one written in short form points at the input rule.
    assert_eq!(
        answer(&mut s, "playwall black A9 h", "? illegal move\n\n"),
        vec!["quoridor.input.argument-case"]
    );
}

#[test]
fn genmove_is_parsed_checked_and_applied() {
    let mut s = setup();
    assert!(answer(&mut s, "genmove black", "= E8\n\n").is_empty());
    assert_eq!(
        s.board.as_ref().unwrap().pawn(Colour::Black),
        super::super::rules::Cell::new(4, 7)
    );
    assert_eq!(
        answer(&mut s, "genmove white", "= A5\n\n"),
        vec!["quoridor.genmove.illegal"]
    );
    // The same pawn move again must now be refused: it was played.
    assert_eq!(
        answer(&mut s, "playmove black E8", "=\n\n"),
        vec!["quoridor.genmove.applied"]
    );
}

#[test]
fn winner_and_its_reset() {
    let mut s = QtpSession::new(Colour::Black, Strategy::Greedy);
    for c in ["boardsize 3", "clear_board", "walls 0"] {
        s.send(c).unwrap();
        s.judge(b"=\n\n", &Expect::LegalMove, Duration::ZERO)
            .unwrap();
    }
    assert!(answer(&mut s, "winner", "= false\n\n").is_empty());
    assert!(answer(&mut s, "playmove white B2", "=\n\n").is_empty());
    assert!(answer(&mut s, "playmove black A3", "=\n\n").is_empty());
    assert!(answer(&mut s, "playmove white B3", "=\n\n").is_empty());
    assert!(answer(&mut s, "winner", "= true white\n\n").is_empty());
    assert_eq!(
        answer(&mut s, "winner", "= t w\n\n"),
        vec!["quoridor.winner.answer"]
    );
    assert!(answer(&mut s, "undo", "=\n\n").is_empty());
    assert_eq!(
        answer(&mut s, "winner", "= true white\n\n"),
        vec!["quoridor.winner.reset"]
    );
}

#[test]
fn undo_beyond_history_must_be_refused() {
    let mut s = setup();
    assert_eq!(
        answer(&mut s, "undo", "=\n\n"),
        vec!["quoridor.setup.reset"]
    );
    let mut s = setup();
    assert!(answer(&mut s, "playmove black E8", "=\n\n").is_empty());
    assert!(answer(&mut s, "undo 2", "? cannot undo\n\n").is_empty());
    assert!(answer(&mut s, "undo 1", "=\n\n").is_empty());
}

#[test]
fn input_features_take_their_own_rule_ids() {
    let mut s = setup();
    assert_eq!(
        answer(&mut s, "name\r", "? unknown command\n\n"),
        vec!["quoridor.input.crlf"]
    );
    assert_eq!(
        answer(&mut s, "playmove  black   e8 ", "? illegal move\n\n"),
        vec!["quoridor.input.whitespace"]
    );
    assert_eq!(
        answer(&mut s, "playmove w e2", "? illegal move\n\n"),
        vec!["quoridor.input.argument-case"]
    );
    assert!(answer(&mut s, "name # a comment", "= x\n\n").is_empty());
}

#[test]
fn reference_engine_input_departures_are_warnings_under_their_own_ids() {
    let mut s = setup();
    let warned = |s: &mut QtpSession, cmd: &str, reply: &str| {
        s.send(cmd).unwrap();
        let j = s
            .judge(reply.as_bytes(), &Expect::LegalMove, Duration::ZERO)
            .unwrap();
        j.violations
            .iter()
            .map(|v| (v.rule, v.severity))
            .collect::<Vec<_>>()
    };
    let leading = vec![("quoridor.input.leading-whitespace", Severity::Warn)];
    let glued = vec![("quoridor.input.glued-comment", Severity::Warn)];
    assert_eq!(warned(&mut s, "  name", "? invalid syntax\n\n"), leading);
    assert_eq!(
        warned(&mut s, "\tknown_command winner", "? invalid syntax\n\n"),
        leading
    );
    assert_eq!(
        warned(&mut s, "  playmove white E2", "? invalid syntax\n\n"),
        leading
    );
    let mut s = setup();
    assert_eq!(warned(&mut s, "name#x", "? unknown command\n\n"), glued);
    assert_eq!(
        warned(&mut s, "known_command winner#x", "= false\n\n"),
        glued
    );
    // Understood correctly: nothing to report.
    assert!(warned(&mut s, "  name", "= x\n\n").is_empty());
    assert!(warned(&mut s, "name#x", "= x\n\n").is_empty());
    // A comment after whitespace and repeated inner spaces stay failures.
    assert_eq!(
        warned(&mut s, "name # x", "? unknown command\n\n"),
        vec![("quoridor.input.comment", Severity::Fail)]
    );
    assert_eq!(
        warned(&mut s, "known_command  name", "= false\n\n"),
        vec![("quoridor.input.whitespace", Severity::Fail)]
    );
}

#[test]
fn known_command_without_a_name_takes_any_well_framed_answer() {
    for reply in [
        "= false\n\n",
        "? false\n\n",
        "? invalid syntax\n\n",
        "= \n\n",
    ] {
        let mut s = setup();
        assert!(
            answer(&mut s, "known_command", reply).is_empty(),
            "{reply:?}"
        );
    }
    let mut s = setup();
    assert_eq!(
        answer(&mut s, "known_command", "false\n\n"),
        vec!["quoridor.framing.status"]
    );
}

#[test]
fn a_crash_or_hang_on_warn_level_input_still_fails() {
    use crate::transport::ExitStatus;
    for line in ["  name", "name#x", "   \nname"] {
        let mut s = setup();
        s.send(line).unwrap();
        let crash = s.closed(Some(ExitStatus::Code(1)), None).unwrap();
        assert_eq!(
            (crash.rule, crash.severity),
            ("io.crash", Severity::Fail),
            "{line:?}"
        );
        let hang = s.timed_out(Duration::from_secs(1));
        assert_eq!(hang.severity, Severity::Fail, "{line:?}: {}", hang.rule);
    }
}

#[test]
fn time_rules_give_both_figures_and_leave_the_start_up_to_its_own_limit() {
    let secs = Duration::from_secs_f64;
    // An acknowledgement: the bot's own time decides, both figures shown.
    let mut s = setup();
    s.send("clear_board").unwrap();
    s.reply_took(secs(4.1), Some(secs(3.8)), false);
    let j = s.judge(b"=\n\n", &Expect::LegalMove, secs(3.8)).unwrap();
    assert_eq!(j.violations.len(), 1, "{:?}", j.violations);
    let v = &j.violations[0];
    assert_eq!((v.rule, v.severity), ("quoridor.time.ack", Severity::Warn));
    assert_eq!(
        v.message,
        "`clear_board` took 4.1 s wall, 3.8 s of the bot's own time (the machine was busy: the rest it waited for a CPU); the referee stops waiting after 2 s"
    );
    let t = v.timing.unwrap();
    assert_eq!((t.wall_ms, t.own_ms, t.limit_ms), (4100, Some(3800), 2000));
    // 3.8 s wall but 1.5 s of its own: the machine was busy, no finding.
    s.send("clear_board").unwrap();
    s.reply_took(secs(3.8), Some(secs(1.5)), false);
    let j = s.judge(b"=\n\n", &Expect::LegalMove, secs(1.5)).unwrap();
    assert!(j.violations.is_empty(), "{:?}", j.violations);
    // The first reply includes the start-up: `--startup-timeout` covers it.
    let mut s = QtpSession::new(Colour::Black, Strategy::Greedy);
    s.send("boardsize 9").unwrap();
    s.reply_took(secs(3.8), Some(secs(3.8)), true);
    let j = s.judge(b"=\n\n", &Expect::LegalMove, secs(3.8)).unwrap();
    assert!(j.violations.is_empty(), "{:?}", j.violations);
    // The game's genmove time: both totals; the next game starts afresh.
    let mut s = setup_with(7, 5);
    let mut reported = Vec::new();
    for (i, colour) in ["black", "white", "black"].iter().enumerate() {
        s.send(&format!("genmove {colour}")).unwrap();
        s.reply_took(secs(60.0), Some(secs(50.0)), false);
        let answer = ["= D6\n\n", "= D2\n\n", "= D5\n\n"][i];
        let j = s
            .judge(answer.as_bytes(), &Expect::LegalMove, secs(50.0))
            .unwrap();
        reported.extend(j.violations);
    }
    assert_eq!(reported.len(), 1, "{reported:?}");
    assert_eq!(reported[0].rule, "quoridor.time.game");
    assert_eq!(
        reported[0].message,
        "genmove answers in this game took 180.0 s wall, 150.0 s of the bot's own time (the machine was busy: the rest it waited for a CPU), over the referee's 140 s (20·N)"
    );
    s.send("clear_board").unwrap();
    s.judge(b"=\n\n", &Expect::LegalMove, Duration::ZERO)
        .unwrap();
    s.send("walls 5").unwrap();
    s.judge(b"=\n\n", &Expect::LegalMove, Duration::ZERO)
        .unwrap();
    s.send("genmove black").unwrap();
    s.reply_took(secs(60.0), Some(secs(50.0)), false);
    let j = s.judge(b"= D6\n\n", &Expect::LegalMove, secs(50.0)).unwrap();
    assert!(j.violations.is_empty(), "{:?}", j.violations);
}

#[test]
fn a_short_winner_answer_says_once_what_the_referee_compares() {
    let mut s = setup();
    s.send("winner").unwrap();
    let j = s
        .judge(b"= f\n\n", &Expect::LegalMove, Duration::ZERO)
        .unwrap();
    assert_eq!(j.violations.len(), 1, "{:?}", j.violations);
    let v = &j.violations[0];
    assert_eq!(v.rule, "quoridor.winner.answer");
    assert_eq!(
        v.message,
        "`winner`: \"f\" is none of \"false\", \"true white\", \"true black\" (the referee compares exactly these strings)"
    );
    assert_eq!(v.message.matches('(').count(), 1, "{}", v.message);
}

#[test]
fn the_board_in_reports_draws_vertical_walls_distinctly_with_a_legend() {
    use crate::games::Drawn;
    let mut s = setup();
    let empty = Drawn::board(&s).unwrap();
    assert!(!empty.contains("walls drawn"), "{empty}");
    assert!(answer(&mut s, "playwall black C5 vertical", "=\n\n").is_empty());
    assert!(answer(&mut s, "playwall black E3 horizontal", "=\n\n").is_empty());
    let drawn = Drawn::board(&s).unwrap();
    assert!(drawn.contains(" 5 |   |   |   ‖   |"), "{drawn}");
    assert!(drawn.contains("+---+---+---‖---+"), "{drawn}");
    assert!(drawn.contains("+=======+"), "{drawn}");
    // No `H` but the column letter.
    let letters = "     A   B   C   D   E   F   G   H   I";
    assert!(
        drawn
            .lines()
            .filter(|l| *l != letters)
            .all(|l| !l.contains('H')),
        "{drawn}"
    );
    assert!(
        drawn.ends_with("; walls drawn `===` horizontal, `‖` vertical)"),
        "{drawn}"
    );
}

#[test]
fn unexpected_output_is_classified() {
    let mut s = setup();
    assert!(s.unexpected(b"\n").is_none());
    assert_eq!(
        s.unexpected(b"= 1\n").unwrap().rule,
        "quoridor.framing.extra-response"
    );
    assert_eq!(
        s.unexpected(b"# thinking\n").unwrap().severity,
        Severity::Warn
    );
}

#[test]
fn lint_tracks_unknown_genmove_until_undone() {
    let mut s = setup();
    s.send("genmove black").unwrap();
    s.assume(None).unwrap();
    assert!(s.board().is_ok());
    s.send("undo").unwrap();
    s.assume(None).unwrap();
    assert_eq!(s.unknown, 0);
    // Known again: an illegal move is planned as a refusal.
    s.send("playmove black E1").unwrap();
    assert!(matches!(
        s.pending.back().unwrap().outcome,
        Outcome::Refuse { .. }
    ));
}

#[test]
fn scripts_that_cannot_be_judged_are_scenario_errors() {
    let mut s = QtpSession::new(Colour::Black, Strategy::Greedy);
    assert!(
        s.send("playmove black E8")
            .unwrap_err()
            .contains("undefined")
    );
    let mut s = setup();
    assert!(
        s.send("genmove black\nname")
            .unwrap_err()
            .contains("pipelined after `genmove`")
    );
}

#[test]
fn crashes_and_silences_are_blamed_on_the_most_specific_cause() {
    use crate::transport::ExitStatus;
    // Dies before its first answer: the start-up arguments.
    let mut s = QtpSession::new(Colour::Black, Strategy::Greedy);
    s.send("name").unwrap();
    assert_eq!(
        s.closed(Some(ExitStatus::Code(2)), None).unwrap().rule,
        "quoridor.process.seed-arg"
    );
    // Dies on an off-spec size.
    let mut s = setup();
    s.send("boardsize 4").unwrap();
    assert_eq!(
        s.closed(Some(ExitStatus::Signal(6)), None).unwrap().rule,
        "quoridor.boardsize.off-spec"
    );
    // Hangs on malformed arguments.
    let mut s = setup();
    s.send("playmove white").unwrap();
    assert_eq!(
        s.timed_out(Duration::from_secs(1)).rule,
        "quoridor.syntax.malformed"
    );
    // Dies right after an empty line.
    let mut s = setup();
    s.send("").unwrap();
    assert_eq!(
        s.closed(Some(ExitStatus::Code(1)), None).unwrap().rule,
        "quoridor.input.empty-line"
    );
    // An ordinary crash is an ordinary crash.
    let mut s = setup();
    s.send("showboard").unwrap();
    assert_eq!(
        s.closed(Some(ExitStatus::Code(1)), None).unwrap().rule,
        "io.crash"
    );
    // After quit or EOF, leaving is fine.
    s.input_closed();
    assert!(s.closed(Some(ExitStatus::Code(0)), None).is_none());
}

/// Issue 26.7: in a probe scenario (`53-input-argument-case`) a failure is
/// the probe's rule only where the probe's question got a wrong answer.
#[test]
fn a_probed_genmove_line_names_the_probe_only_for_a_wrong_answer_to_it() {
    use crate::transport::ExitStatus;
    // A `?` to `genmove B`: `B` was not understood.
    let mut s = setup();
    assert_eq!(
        answer(&mut s, "genmove B", "? invalid color\n\n"),
        vec!["quoridor.input.argument-case"]
    );
    // Without a probed argument, a `?` is genmove's own rule.
    let mut s = setup();
    assert_eq!(
        answer(&mut s, "genmove black", "? invalid color\n\n"),
        vec!["quoridor.genmove.syntax"]
    );
    // A crash or a hang while `genmove B` is due: the search's as likely as
    // the line's, so io.crash / io.timeout (before: the probe's rule).
    let mut s = setup();
    s.send("genmove B").unwrap();
    assert_eq!(
        s.closed(Some(ExitStatus::Code(1)), None).unwrap().rule,
        "io.crash"
    );
    assert_eq!(s.timed_out(Duration::from_secs(1)).rule, "io.timeout");
    // A refused command answered with `?` by a line whose argument case is
    // probed still names the probe, and so does a crash right after it.
    let mut s = setup();
    assert_eq!(
        answer(&mut s, "playmove white e2", "? illegal move\n\n"),
        vec!["quoridor.input.argument-case"]
    );
    let mut s = setup();
    s.send("playmove white e2").unwrap();
    assert_eq!(
        s.closed(Some(ExitStatus::Code(1)), None).unwrap().rule,
        "quoridor.input.argument-case"
    );
}

#[test]
fn an_illegal_genmove_after_a_refusal_is_the_state_rule_only_where_the_refusal_explains_it() {
    // 53-input-argument-case: `playmove Black e8` (black is already there)
    // is refused; an illegal genmove after it is just illegal (before:
    // quoridor.state.failed-unchanged).
    let mut s = setup();
    assert!(answer(&mut s, "playmove black E8", "=\n\n").is_empty());
    assert!(answer(&mut s, "playmove black E8", "? illegal move\n\n").is_empty());
    assert_eq!(
        answer(&mut s, "genmove black", "= A1\n\n"),
        vec!["quoridor.genmove.illegal"]
    );
    // A refused pawn move elsewhere, and a genmove that steps on from that
    // square: the refusal moved the engine's pawn.
    let mut s = setup();
    assert!(answer(&mut s, "playmove black E7", "? illegal move\n\n").is_empty());
    assert_eq!(
        answer(&mut s, "genmove black", "= E6\n\n"),
        vec!["quoridor.state.failed-unchanged"]
    );
    // The same refusal, and a move nowhere near it: illegal.
    let mut s = setup();
    assert!(answer(&mut s, "playmove black E7", "? illegal move\n\n").is_empty());
    assert_eq!(
        answer(&mut s, "genmove black", "= A2\n\n"),
        vec!["quoridor.genmove.illegal"]
    );
}
