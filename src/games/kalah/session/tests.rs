use super::*;
use crate::transport::ExitStatus;
use crate::verdict::Severity;

fn session() -> KalahSession {
    KalahSession::new(7, 7, Strategy::Greedy, SwapPolicy::Never)
}

fn judge(s: &mut KalahSession, line: &str) -> Judged {
    s.judge(
        format!("{line}\n").as_bytes(),
        &Expect::LegalMove,
        Duration::ZERO,
    )
    .unwrap()
}

fn rules(j: &Judged) -> Vec<&'static str> {
    j.violations.iter().map(|v| v.rule).collect()
}

#[test]
fn scripted_change_must_follow_from_the_rules_and_name_the_right_turn() {
    let mut s = session();
    assert_eq!(s.send("START;North").unwrap().replies, 0);
    let e = s
        .send("CHANGE;1;8,8,8,8,8,8,8,0,0,8,8,8,8,8,8,1;YOU")
        .unwrap_err();
    assert!(e.contains("does not follow from the rules"), "{e}");
    let mut s = session();
    s.send("START;North").unwrap();
    let e = s
        .send("CHANGE;1;7,7,7,7,7,7,7,0,0,8,8,8,8,8,8,1;OPP")
        .unwrap_err();
    assert!(e.contains("must be YOU"), "{e}");
    let mut s = session();
    s.send("START;North").unwrap();
    assert_eq!(
        s.send("CHANGE;1;7,7,7,7,7,7,7,0,0,8,8,8,8,8,8,1;YOU")
            .unwrap()
            .replies,
        1
    );
}

#[test]
fn the_bots_own_move_is_reported_with_the_right_turn() {
    let mut s = session();
    s.send("START;South").unwrap();
    let j = judge(&mut s, "MOVE;1");
    assert!(j.violations.is_empty());
    // The opening move never earns an extra turn.
    assert_eq!(
        j.follow_ups,
        vec![Outgoing::silent(
            "CHANGE;1;7,7,7,7,7,7,7,0,0,8,8,8,8,8,8,1;OPP"
        )]
    );
    // Speaking now is the opening-extra-turn mistake.
    assert_eq!(
        s.unexpected(b"MOVE;2\n").unwrap().rule,
        "kalah.turn.no-extra-turn"
    );
}

#[test]
fn swaps_are_judged_and_sides_exchanged() {
    let mut s = session();
    s.send("START;South").unwrap();
    assert_eq!(
        rules(&judge(&mut s, "SWAP")),
        vec!["kalah.swap.not-allowed"]
    );
    let mut s = session();
    s.send("START;North").unwrap();
    s.send("CHANGE;1;7,7,7,7,7,7,7,0,0,8,8,8,8,8,8,1;YOU")
        .unwrap();
    let j = judge(&mut s, "SWAP");
    assert!(
        j.violations.is_empty() && j.follow_ups.is_empty(),
        "the swapper is told nothing"
    );
    assert_eq!(s.bot, Some(Side::South));
    assert_eq!(
        s.unexpected(b"MOVE;2\n").unwrap().rule,
        "kalah.turn.move-after-swap"
    );
    assert_eq!(s.next(), Next::Opponent);
}

#[test]
fn being_swapped_is_announced_and_a_silence_then_is_a_missed_turn() {
    let mut s = session();
    s.send("START;South").unwrap();
    judge(&mut s, "MOVE;1");
    let out = s
        .opponent("swap", &mut fastrand::Rng::with_seed(1))
        .unwrap();
    assert_eq!(
        out,
        vec![Outgoing::asking(
            "CHANGE;SWAP;7,7,7,7,7,7,7,0,0,8,8,8,8,8,8,1;YOU"
        )]
    );
    assert_eq!(
        s.timed_out(Duration::from_secs(1)).rule,
        "kalah.turn.missed-turn"
    );
    // Now North: South hole 2 is full but North hole 2 is not empty either;
    // North hole 1..7 hold 7 each, so any hole is legal.
    assert!(judge(&mut s, "MOVE;2").violations.is_empty());
}

#[test]
fn an_empty_hole_that_is_full_on_the_other_side_gets_the_swap_hint_after_a_swap() {
    let mut s = session();
    s.send("START;North").unwrap();
    // North to move, North hole 1 empty, South hole 1 not.
    let counts = [0, 8, 8, 8, 8, 8, 8, 1, 3, 8, 8, 8, 8, 8, 8, 2];
    let board = Board::from_counts(7, &counts).unwrap();
    // No swap in this game: the hint would name a cause the transcript
    // does not show.
    s.position = Position::from_parts(board, Side::North, 5, false).unwrap();
    let j = judge(&mut s, "MOVE;1");
    assert_eq!(rules(&j), vec!["kalah.move.empty-hole"]);
    assert_eq!(j.violations[0].message, "North hole 1 is empty");
    // A swap happened: the hint.
    s.position = Position::from_parts(board, Side::North, 5, true).unwrap();
    let j = judge(&mut s, "MOVE;1");
    assert_eq!(rules(&j), vec!["kalah.move.empty-hole"]);
    assert!(
        j.violations[0].message.contains("did the bot miss a swap?"),
        "{}",
        j.violations[0].message
    );
    // A hole empty on both sides gets no hint.
    let counts = [0, 8, 8, 8, 8, 8, 8, 1, 0, 8, 8, 8, 8, 8, 8, 5];
    s.position = Position::from_parts(
        Board::from_counts(7, &counts).unwrap(),
        Side::North,
        5,
        false,
    )
    .unwrap();
    let j = judge(&mut s, "MOVE;1");
    assert!(!j.violations[0].message.contains("miss a swap"));
}

/// A scripted END waits for the due reply (the scenario judges the bot's
/// move first, issue 32): anything after END is output after END.
#[test]
fn end_waits_for_the_due_turn_and_nothing_after_it_is_forgiven() {
    let mut s = session();
    s.send("START;North").unwrap();
    s.send("CHANGE;1;7,7,7,7,7,7,7,0,0,8,8,8,8,8,8,1;YOU")
        .unwrap();
    assert!(judge(&mut s, "MOVE;3").violations.is_empty());
    s.send("END").unwrap();
    let v = s.unexpected(b"MOVE;4\n").unwrap();
    assert_eq!(
        (v.rule, v.severity),
        ("kalah.end.output-after-end", Severity::Warn)
    );
}

#[test]
fn process_endings() {
    let mut s = session();
    s.send("START;South").unwrap();
    assert_eq!(
        s.closed(None, Some(b"MOVE;3")).unwrap().rule,
        "kalah.framing.no-newline"
    );
    let v = s.closed(Some(ExitStatus::Signal(11)), None).unwrap();
    assert_eq!(v.rule, "io.crash");
    assert!(v.message.contains("SIGSEGV"), "{}", v.message);
    s.input_closed();
    assert!(
        s.closed(Some(ExitStatus::Code(0)), None).is_none(),
        "leaving at EOF is fine"
    );
    assert_eq!(crate::games::by_id("kalah").unwrap().facts().no_exit(s.exit_state(), Duration::from_secs(2)).rule, "kalah.process.eof");
    assert_eq!(
        s.finish(64 * 1024 + 1, "")[0].rule,
        "kalah.process.stderr-overflow"
    );
    assert!(s.finish(64 * 1024, "").is_empty());
    assert_eq!(
        crate::games::by_id("kalah").unwrap().facts().exited(s.exit_state(), ExitStatus::Code(3)).unwrap().rule,
        "kalah.end.exit-status"
    );
}

#[test]
fn lint_knows_the_board_only_while_the_bots_moves_are_pinned() {
    let mut s = session();
    s.send("START;South").unwrap();
    let outs = s.assume(Some("MOVE;1")).unwrap();
    assert_eq!(outs[0].text, "CHANGE;1;7,7,7,7,7,7,7,0,0,8,8,8,8,8,8,1;OPP");
    assert!(s.assume(Some("MOVE;9")).is_err() || s.state_known());
    let mut s = session();
    s.send("START;South").unwrap();
    s.assume(None).unwrap();
    assert!(!s.state_known());
    assert!(
        s.send("CHANGE;1;7,7,7,7,7,7,7,0,0,8,8,8,8,8,8,1;YOU")
            .unwrap_err()
            .contains("unknown")
    );
}

#[test]
fn steered_words_play_in_the_tracked_state_and_do_nothing_after_the_end() {
    let mut rng = fastrand::Rng::with_seed(1);
    let mut s = session();
    s.send("START;South").unwrap();
    // The bot's turn: a steered move is a script error, like a hole number.
    let e = s.opponent("extra-turn", &mut rng).unwrap_err();
    assert!(e.contains("the bot's turn"), "{e}");
    judge(&mut s, "MOVE;1");
    // North hole 1 holds 7: exactly to North's store, an extra turn (the
    // swap is open, but a steered move never swaps).
    let out = s.opponent("extra-turn", &mut rng).unwrap();
    assert_eq!(out[0].text, "CHANGE;1;0,8,8,8,8,8,8,1,0,8,8,8,8,8,8,1;OPP");
    assert_eq!(
        s.last_opponent_step(),
        Some(crate::scenario_model::Step::Opponent(crate::scenario_model::Token(
            "1".into()
        )))
    );
    let out = s.opponent("pass", &mut rng).unwrap();
    assert!(out[0].text.ends_with(";YOU"), "{}", out[0].text);
    let e = s.opponent("lapp", &mut rng).unwrap_err();
    assert!(
        e.contains("extra-turn, capture, lap, pass, empty-row"),
        "{e}"
    );
    // After the end, a steered word is a no-op (a hole number is an error).
    s.send("END").unwrap();
    assert!(s.opponent("empty-row", &mut rng).unwrap().is_empty());
    assert!(s.opponent("3", &mut rng).is_err());
}

#[test]
fn a_judged_move_lists_the_checks_it_kept_and_a_quiet_opp_checks_the_turn_rule() {
    let mut s = session();
    s.send("START;South").unwrap();
    assert_eq!(s.quiet_rule(), None);
    let j = judge(&mut s, "MOVE;3");
    assert!(j.violations.is_empty());
    for kept in [
        rule::MOVE_HOLE_RANGE.id,
        rule::MOVE_EMPTY_HOLE.id,
        rule::GRAMMAR_UNKNOWN.id,
    ] {
        assert!(j.passed.contains(&kept), "{kept}: {:?}", j.passed);
    }
    // The opening's CHANGE ends in OPP: output now would be a move out of turn.
    assert_eq!(s.quiet_rule(), Some(rule::TURN_NO_EXTRA_TURN.id));
    let bad = judge(&mut s, "MOVE;9");
    assert!(!bad.passed.contains(&rule::MOVE_HOLE_RANGE.id));
    assert!(s.reached().contains(&(crate::games::kalah::coverage::BOT_SOUTH.id, 1)));
}
