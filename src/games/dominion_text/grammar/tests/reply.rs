use super::{c, seat};
use crate::games::dominion_text::cards::Card;
use crate::games::dominion_text::grammar::*;

// ---- bot -> server: framing --------------------------------------------------

fn judge(request: Request, line: &str) -> Judgement {
    judge_reply(request, line.as_bytes())
}

fn turn(line: &str) -> (Outcome, Vec<&'static str>) {
    let j = judge(Request::PlayTurn, line);
    let ids = j.rule_ids();
    (j.outcome, ids)
}

fn attack(line: &str) -> (Outcome, Vec<&'static str>) {
    let j = judge(Request::Attack, line);
    let ids = j.rule_ids();
    (j.outcome, ids)
}

fn ok(reply: Reply) -> (Outcome, Vec<&'static str>) {
    (Outcome::Reply(reply), vec![])
}

fn invalid(id: &'static str) -> (Outcome, Vec<&'static str>) {
    (Outcome::Invalid, vec![id])
}

#[test]
fn crlf_is_removed_with_a_warning() {
    assert_eq!(
        turn("play-reply pass\r\n"),
        (
            Outcome::Reply(Reply::Pass),
            vec!["dominion-text.frame.crlf"]
        )
    );
    assert_eq!(turn("play-reply pass\n"), ok(Reply::Pass));
    // Without its LF (as a framer may hand it over) the line reads the same.
    assert_eq!(turn("play-reply pass"), ok(Reply::Pass));
}

#[test]
fn runs_of_spaces_tabs_and_edges_are_tolerated_with_a_warning() {
    for line in [
        "play-reply  buy gold\n",
        "play-reply\tbuy gold\n",
        " play-reply buy gold\n",
        "play-reply buy gold \n",
        "play-reply buy gold\t\n",
    ] {
        assert_eq!(
            turn(line),
            (
                Outcome::Reply(Reply::Buy(vec![c(Card::Gold)])),
                vec!["dominion-text.frame.whitespace"]
            ),
            "{line:?}"
        );
    }
    assert_eq!(
        turn("play-reply  pass\r\n").1,
        vec!["dominion-text.frame.crlf", "dominion-text.frame.whitespace"]
    );
}

#[test]
fn blank_lines_are_ignored_with_a_warning() {
    for line in ["\n", "   \n", "\t\n", ""] {
        for request in [
            Request::Name(seat(1)),
            Request::Version(seat(1)),
            Request::PlayTurn,
            Request::Attack,
        ] {
            let j = judge(request, line);
            assert_eq!(j.outcome, Outcome::Ignored, "{line:?}");
            assert_eq!(j.rule_ids(), vec!["dominion-text.frame.blank-line"]);
            assert_eq!(j.findings[0].rule.severity, crate::verdict::Severity::Warn);
        }
    }
    assert_eq!(
        turn("\r\n"),
        (
            Outcome::Ignored,
            vec!["dominion-text.frame.crlf", "dominion-text.frame.blank-line"]
        )
    );
}

#[test]
fn invalid_utf8_is_its_io_failure() {
    let j = judge_reply(Request::PlayTurn, b"play-reply buy g\xffld\n");
    assert_eq!(j.outcome, Outcome::Invalid);
    assert_eq!(j.rule_ids(), vec!["io.invalid-utf8"]);
}

#[test]
fn a_line_while_no_reply_is_due_is_unexpected_output() {
    // E.g. an answer to `supply`, an info line or `game kingdom-cards`.
    for line in ["play-reply pass\n", "ok\n", "play-reply buy gold\r\n"] {
        let j = judge_unexpected(line.as_bytes());
        assert_eq!(j.outcome, Outcome::Ignored);
        assert!(
            j.rule_ids().ends_with(&["io.unexpected-output"]),
            "{line:?}"
        );
    }
    // A blank line is never unexpected output, only the blank-line warning.
    assert_eq!(
        judge_unexpected(b"  \n").rule_ids(),
        vec!["dominion-text.frame.blank-line"]
    );
    assert_eq!(
        judge_unexpected(b"\xff\n").rule_ids(),
        vec!["io.invalid-utf8", "io.unexpected-output"]
    );
}

// ---- bot -> server: handshake -------------------------------------------------

#[test]
fn name_reply_echoes_the_seat_and_gives_a_name() {
    let name = |line: &str| {
        let j = judge(Request::Name(seat(2)), line);
        {
            let ids = j.rule_ids();
            (j.outcome, ids)
        }
    };
    assert_eq!(
        name("player player2 mybot\n"),
        ok(Reply::Name("mybot".into()))
    );
    // The name is the rest of the line and may be any UTF-8.
    assert_eq!(
        name("player player2 Big Money ünd Co\n"),
        ok(Reply::Name("Big Money ünd Co".into()))
    );
    let renamed = (
        Outcome::Reply(Reply::Name("PLAYER2".into())),
        vec!["dominion-text.handshake.name-reply"],
    );
    for wrong in [
        "player mybot\n",
        "player player1 mybot\n",
        "player player2\n",
        "Player player2 mybot\n",
        "mybot\n",
        "play-reply pass\n",
    ] {
        assert_eq!(name(wrong), renamed, "{wrong:?}");
    }
    assert_eq!(
        name("player  player2 my bot\r\n"),
        (
            Outcome::Reply(Reply::Name("my bot".into())),
            vec!["dominion-text.frame.crlf", "dominion-text.frame.whitespace"]
        )
    );
    assert_eq!(
        crate::games::dominion_text::catalogue::HANDSHAKE_NAME_REPLY.severity,
        crate::verdict::Severity::Warn
    );
}

#[test]
fn version_reply_is_the_exact_echo() {
    let version = |line: &str| {
        let j = judge(Request::Version(seat(3)), line);
        {
            let ids = j.rule_ids();
            (j.outcome, ids)
        }
    };
    assert_eq!(version("player player3 version 1\n"), ok(Reply::Version));
    // Compared token by token after the framing tolerances.
    assert_eq!(
        version("player player3  version 1\r\n"),
        (
            Outcome::Reply(Reply::Version),
            vec!["dominion-text.frame.crlf", "dominion-text.frame.whitespace"]
        )
    );
    for wrong in [
        "player player3 version 2\n",
        "player player1 version 1\n",
        "player player3 version\n",
        "player player3 version 1 1\n",
        "Player player3 version 1\n",
        "player player3 version 01\n",
        "version 1\n",
    ] {
        assert_eq!(
            version(wrong),
            invalid("dominion-text.handshake.version-echo"),
            "{wrong:?}"
        );
    }
}

// ---- bot -> server: play-turn replies -----------------------------------------

#[test]
fn every_turn_reply_shape() {
    assert_eq!(turn("play-reply pass"), ok(Reply::Pass));
    assert_eq!(
        turn("play-reply buy gold silver curse"),
        ok(Reply::Buy(vec![
            c(Card::Gold),
            c(Card::Silver),
            Card::Curse
        ]))
    );
    assert_eq!(
        turn("play-reply buy"),
        (Outcome::Reply(Reply::Pass), vec!["dominion-text.buy.empty"])
    );
    for card in [
        Card::Market,
        Card::Militia,
        Card::Moat,
        Card::Smithy,
        Card::Village,
        Card::Woodcutter,
        Card::Mine,
        Card::Remodel,
        Card::Workshop,
        Card::Cellar,
    ] {
        assert_eq!(
            turn(&format!("play-reply action {card}")),
            ok(Reply::Action {
                card: c(card),
                args: vec![]
            })
        );
    }
    assert_eq!(
        turn("play-reply action cellar estate estate copper gold"),
        ok(Reply::Action {
            card: c(Card::Cellar),
            args: vec![
                c(Card::Estate),
                c(Card::Estate),
                c(Card::Copper),
                c(Card::Gold)
            ]
        })
    );
    assert_eq!(
        turn("play-reply action mine silver gold"),
        ok(Reply::Action {
            card: c(Card::Mine),
            args: vec![c(Card::Silver), c(Card::Gold)]
        })
    );
    assert_eq!(
        turn("play-reply action remodel estate"),
        ok(Reply::Action {
            card: c(Card::Remodel),
            args: vec![c(Card::Estate)]
        })
    );
    assert_eq!(
        turn("play-reply action workshop smithy"),
        ok(Reply::Action {
            card: c(Card::Workshop),
            args: vec![c(Card::Smithy)]
        })
    );
    // Not an action card: grammatical, left to `action.not-action-card`.
    assert_eq!(
        turn("play-reply action copper"),
        ok(Reply::Action {
            card: c(Card::Copper),
            args: vec![]
        })
    );
}

#[test]
fn workshop_typo_is_accepted_with_a_warning() {
    assert_eq!(
        turn("play-reply reply workshop smithy"),
        (
            Outcome::Reply(Reply::Action {
                card: c(Card::Workshop),
                args: vec![c(Card::Smithy)]
            }),
            vec!["dominion-text.grammar.workshop-typo"]
        )
    );
    assert_eq!(
        crate::games::dominion_text::catalogue::GRAMMAR_WORKSHOP_TYPO.severity,
        crate::verdict::Severity::Warn
    );
    assert_eq!(
        turn("play-reply reply workshop"),
        invalid("dominion-text.grammar.not-a-reply")
    );
    assert_eq!(
        turn("play-reply reply smithy"),
        invalid("dominion-text.grammar.not-a-reply")
    );
    assert_eq!(
        turn("play-reply reply"),
        invalid("dominion-text.grammar.not-a-reply")
    );
    assert_eq!(
        turn("play-reply reply Workshop smithy"),
        invalid("dominion-text.grammar.case")
    );
    assert_eq!(
        turn("play-reply reply workshop Smithy"),
        invalid("dominion-text.grammar.case")
    );
    assert_eq!(
        turn("play-reply reply workshop smithies"),
        invalid("dominion-text.grammar.unknown-card")
    );
    assert_eq!(
        turn("play-reply reply workshop smithy gold"),
        invalid("dominion-text.grammar.extra-tokens")
    );
    // The typo verb is a play-turn verb: in an attack it is the wrong context.
    assert_eq!(
        attack("play-reply reply workshop smithy"),
        invalid("dominion-text.grammar.wrong-context")
    );
}

#[test]
fn not_a_reply() {
    for line in [
        "thinking...",
        "pass",
        "play-reply",
        "play-reply clean",
        "play-reply action",
        "player player1 mybot",
        "play_reply pass",
    ] {
        assert_eq!(
            turn(line),
            invalid("dominion-text.grammar.not-a-reply"),
            "{line}"
        );
    }
    for line in [
        "play-reply reaction",
        "play-reply reaction militia",
        "play-reply reaction moat moat",
        "play-reply reaction Moat",
        "play-reply moat",
    ] {
        assert_eq!(
            attack(line),
            invalid("dominion-text.grammar.not-a-reply"),
            "{line}"
        );
    }
}

#[test]
fn case_of_keywords_and_cards() {
    for line in [
        "Play-reply pass",
        "PLAY-REPLY pass",
        "play-reply Pass",
        "play-reply BUY gold",
        "play-reply buy Gold",
        "play-reply buy gold Province",
        "play-reply action Smithy",
        "play-reply action mine silver GOLD",
        "play-reply Discard estate",
    ] {
        assert_eq!(turn(line), invalid("dominion-text.grammar.case"), "{line}");
    }
    for line in [
        "play-reply discard Estate",
        "play-reply Reaction moat",
        "PLAY-REPLY discard",
    ] {
        assert_eq!(
            attack(line),
            invalid("dominion-text.grammar.case"),
            "{line}"
        );
    }
}

#[test]
fn unknown_cards() {
    for line in [
        "play-reply buy platinum",
        "play-reply buy gold platinum",
        "play-reply action witch",
        "play-reply action cellar estate coper",
        "play-reply action mine silver g0ld",
        // Step 3 before step 4: a bad name after a no-argument card.
        "play-reply action market potion",
    ] {
        assert_eq!(
            turn(line),
            invalid("dominion-text.grammar.unknown-card"),
            "{line}"
        );
    }
    assert_eq!(
        attack("play-reply discard estate estates"),
        invalid("dominion-text.grammar.unknown-card")
    );
}

#[test]
fn extra_tokens() {
    for line in [
        "play-reply pass now",
        "play-reply pass gold",
        "play-reply action market gold",
        "play-reply action militia copper",
        "play-reply action moat moat",
        "play-reply action smithy estate",
        "play-reply action village village",
        "play-reply action woodcutter gold",
        "play-reply action mine copper silver gold",
        "play-reply action remodel estate silver gold",
        "play-reply action workshop silver gold",
    ] {
        assert_eq!(
            turn(line),
            invalid("dominion-text.grammar.extra-tokens"),
            "{line}"
        );
    }
}

#[test]
fn replies_in_the_wrong_context() {
    for line in [
        "play-reply discard estate estate",
        "play-reply discard",
        "play-reply reaction moat",
    ] {
        assert_eq!(
            turn(line),
            invalid("dominion-text.grammar.wrong-context"),
            "{line}"
        );
    }
    for line in [
        "play-reply pass",
        "play-reply buy gold",
        "play-reply action moat",
    ] {
        assert_eq!(
            attack(line),
            invalid("dominion-text.grammar.wrong-context"),
            "{line}"
        );
    }
}

#[test]
fn every_attack_reply_shape() {
    assert_eq!(
        attack("play-reply discard estate copper"),
        ok(Reply::Discard(vec![c(Card::Estate), c(Card::Copper)]))
    );
    // The count is a rule check (`attack.wrong-count`), not grammar.
    assert_eq!(attack("play-reply discard"), ok(Reply::Discard(vec![])));
    assert_eq!(attack("play-reply reaction moat"), ok(Reply::ReactionMoat));
}

#[test]
fn findings_carry_the_catalogue_rule() {
    let j = judge(Request::PlayTurn, "play-reply buy Gold\r\n");
    let v: Vec<_> = j.findings.iter().map(Finding::to_violation).collect();
    assert_eq!(v[0].rule, "dominion-text.frame.crlf");
    assert_eq!(v[1].rule, "dominion-text.grammar.case");
    assert_eq!(v[1].severity, crate::verdict::Severity::Fail);
    assert!(v[1].message.contains("`Gold`"), "{}", v[1].message);
    for f in &j.findings {
        assert!(
            crate::games::dominion_text::catalogue::CATALOGUE
                .by_id(f.rule.id)
                .is_some()
        );
    }
}
