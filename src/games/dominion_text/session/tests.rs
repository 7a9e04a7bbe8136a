//! The session against scripted bot lines: handshake, info-line order,
//! every rule's verdict in the tracked state with the document's recovery,
//! militia with moat, blank and unexpected lines, and the end of the game.

use super::TextSession;
use crate::games::dominion_text::DOMINION_TEXT;
use crate::games::{Game, Next, Outgoing, Session};
use crate::scenario::Expect;
use std::time::Duration;

fn texts(out: &[Outgoing]) -> Vec<String> {
    out.iter().map(|o| o.text.clone()).collect()
}

struct Table {
    s: TextSession,
    rng: fastrand::Rng,
}

impl Table {
    fn new(players: usize, bot: usize) -> Table {
        Table {
            s: TextSession::new(players, bot, 7, None),
            rng: fastrand::Rng::with_seed(3),
        }
    }
    fn opponent(&mut self, choice: &str) -> Vec<String> {
        texts(&self.s.opponent(choice, &mut self.rng).expect("opponent"))
    }
    /// The bot's line; the violations' rule ids and what follows.
    fn reply(&mut self, line: &str) -> (Vec<&'static str>, Vec<String>, bool) {
        let judged = self
            .s
            .judge(line.as_bytes(), &Expect::LegalMove, Duration::ZERO)
            .expect("a reply is due");
        (
            judged.violations.iter().map(|v| v.rule).collect(),
            texts(&judged.follow_ups),
            judged.still_due,
        )
    }
    /// Through the handshake (the bot's seat is `seat`, 1-based).
    fn handshake(&mut self, seat: usize) {
        assert_eq!(self.opponent("auto"), [format!("player player{seat} name")]);
        let (rules, out, _) = self.reply(&format!("player player{seat} tester\n"));
        assert!(rules.is_empty());
        assert_eq!(out, [format!("player player{seat} version 1")]);
        let (rules, out, _) = self.reply(&format!("player player{seat} version 1\n"));
        assert!(rules.is_empty());
        assert_eq!(
            out,
            [
                "game kingdom-cards cellar market militia mine moat remodel smithy village woodcutter workshop"
            ]
        );
    }
}

#[test]
fn handshake_seat_by_seat_then_kingdom_once() {
    let mut t = Table::new(3, 1);
    assert_eq!(t.s.next(), Next::Opponent);
    t.handshake(2);
    assert_eq!(t.s.bot_name.as_deref(), Some("tester"));
    // A name without the seat is a warning and the bot is PLAYERN; a wrong
    // version echo stops the game.
    let mut t = Table::new(2, 0);
    t.opponent("auto");
    let (rules, out, _) = t.reply("player mybot\n");
    assert_eq!(rules, ["dominion-text.handshake.name-reply"]);
    assert_eq!(out, ["player player1 version 1"]);
    assert_eq!(t.s.bot_name.as_deref(), Some("PLAYER1"));
    let (rules, out, _) = t.reply("player player1 version 2\n");
    assert_eq!(rules, ["dominion-text.handshake.version-echo"]);
    assert!(out.is_empty());
    assert!(t.s.is_over());
}

#[test]
fn a_turn_sends_supply_then_requests_and_ends_with_gained_played_top_discard() {
    let mut t = Table::new(2, 0);
    t.opponent("bot-hand woodcutter gold gold copper copper");
    t.handshake(1);
    let start = t.opponent("auto");
    assert_eq!(
        start,
        [
            "supply curse 10 copper 46 silver 40 gold 30 estate 8 duchy 8 province 8 cellar 10 market 10 militia 10 mine 10 moat 10 remodel 10 smithy 10 village 10 woodcutter 10 workshop 10",
            "play-request play-turn actions 1 buys 1 extra-money 0 hand woodcutter gold gold copper copper",
        ]
    );
    let (rules, out, _) = t.reply("play-reply action woodcutter\n");
    assert!(rules.is_empty());
    assert_eq!(
        out,
        ["play-request play-turn actions 0 buys 2 extra-money 2 hand gold gold copper copper"]
    );
    // 8 in treasure + 2: province, then gold is unaffordable (warning).
    let (rules, out, _) = t.reply("play-reply buy province gold\n");
    assert_eq!(rules, ["dominion-text.buy.unaffordable"]);
    assert_eq!(
        out,
        [
            "player1 gained province",
            "player1 played woodcutter gold gold copper copper",
            "player1 top-discard copper",
        ]
    );
    assert_eq!(t.s.next(), Next::Opponent);
}

#[test]
fn invalid_actions_are_consumed_and_the_request_repeated() {
    let mut t = Table::new(2, 0);
    t.opponent("bot-hand smithy copper copper copper estate");
    t.handshake(1);
    t.opponent("auto");
    let (rules, out, _) = t.reply("play-reply action copper\n");
    assert_eq!(rules, ["dominion-text.action.not-action-card"]);
    assert_eq!(
        out,
        [
            "play-request play-turn actions 0 buys 1 extra-money 0 hand smithy copper copper copper estate"
        ]
    );
    // With no action left the turn ends without a buy.
    let (rules, out, _) = t.reply("play-reply action smithy\n");
    assert_eq!(rules, ["dominion-text.action.no-actions"]);
    assert_eq!(out, ["player1 top-discard estate"]);
}

#[test]
fn grammar_failures_spend_an_action_and_blank_lines_are_not_replies() {
    let mut t = Table::new(2, 0);
    t.opponent("bot-hand cellar estate estate copper copper");
    t.handshake(1);
    t.opponent("auto");
    let (rules, out, still_due) = t.reply("\n");
    assert_eq!(rules, ["dominion-text.frame.blank-line"]);
    assert!(out.is_empty() && still_due);
    let (rules, out, _) = t.reply("play-reply action Cellar\n");
    assert_eq!(rules, ["dominion-text.grammar.case"]);
    assert_eq!(
        out,
        [
            "play-request play-turn actions 0 buys 1 extra-money 0 hand cellar estate estate copper copper"
        ]
    );
    let (rules, _, _) = t.reply("play-reply buy platinum\n");
    assert_eq!(rules, ["dominion-text.grammar.unknown-card"]);
    assert_eq!(t.s.game.current, 1, "the turn ended");
}

#[test]
fn cellar_partial_list_discards_the_valid_prefix_with_a_warning() {
    let mut t = Table::new(2, 0);
    t.opponent("bot-deck silver silver; bot-hand cellar estate estate copper copper");
    t.handshake(1);
    t.opponent("auto");
    let (rules, out, _) = t.reply("play-reply action cellar estate gold\n");
    assert_eq!(rules, ["dominion-text.cellar.card-not-in-hand"]);
    assert_eq!(
        out,
        [
            "player1 discarded estate",
            "player1 top-discard estate",
            "play-request play-turn actions 1 buys 1 extra-money 0 hand estate copper copper silver",
        ]
    );
}

#[test]
fn militia_attacks_the_bot_and_moat_is_revealed() {
    let mut t = Table::new(2, 1);
    t.opponent(
        "hand militia copper copper copper estate; bot-hand moat copper copper estate estate",
    );
    t.handshake(2);
    let attack = t.opponent("auto");
    assert_eq!(
        attack,
        ["play-request attack discard 2 hand moat copper copper estate estate"]
    );
    assert_eq!(t.s.next(), Next::Bot);
    let (rules, out, _) = t.reply("play-reply reaction moat\n");
    assert!(rules.is_empty());
    assert_eq!(out, ["player2 revealed hand moat"]);
    // The attacker's turn goes on, then the bot's turn starts.
    let rest = t.opponent("auto");
    assert_eq!(rest.last().unwrap(), "player1 top-discard copper");
    assert!(rest[0].starts_with("player1 gained"), "{rest:?}");
    let start = t.opponent("auto");
    assert!(start[0].starts_with("supply "));
    assert!(start[1].starts_with("play-request play-turn actions 1 buys 1 extra-money 0 hand moat copper copper estate estate"));
}

#[test]
fn bad_attack_replies_fail_and_cards_are_discarded_at_random() {
    for (reply, rule) in [
        (
            "play-reply discard copper copper copper",
            "dominion-text.attack.wrong-count",
        ),
        (
            "play-reply discard gold silver",
            "dominion-text.attack.not-in-hand",
        ),
        (
            "play-reply reaction moat",
            "dominion-text.attack.moat-not-in-hand",
        ),
        ("play-reply pass", "dominion-text.grammar.wrong-context"),
    ] {
        let mut t = Table::new(2, 1);
        t.opponent(
            "hand militia copper copper copper estate; bot-hand copper copper estate estate silver",
        );
        t.handshake(2);
        t.opponent("auto");
        let (rules, out, _) = t.reply(&format!("{reply}\n"));
        assert_eq!(rules, [rule], "{reply}");
        assert_eq!(out.len(), 2, "{out:?}");
        assert!(out[0].starts_with("player2 discarded "));
        assert_eq!(t.s.game.players[1].hand.len(), 3);
    }
}

#[test]
fn a_hand_of_three_is_not_attacked_and_output_then_is_unexpected() {
    let mut t = Table::new(2, 1);
    t.opponent("hand militia copper copper copper estate; bot-hand copper estate silver");
    t.handshake(2);
    let lines = t.opponent("auto");
    assert!(
        lines.iter().all(|l| !l.starts_with("play-request")),
        "{lines:?}"
    );
    let v = t.s.unexpected(b"play-reply discard\n").expect("a finding");
    assert_eq!(v.rule, "io.unexpected-output");
    let v = t.s.unexpected(b"  \n").expect("a finding");
    assert_eq!(v.rule, "dominion-text.frame.blank-line");
}

#[test]
fn the_game_ends_and_the_bot_may_leave_once_input_is_closed() {
    let mut t = Table::new(2, 1);
    t.opponent("supply province 1; hand gold gold copper copper estate");
    t.handshake(2);
    let lines = t.opponent("buy province");
    assert_eq!(
        lines,
        [
            "player1 gained province",
            "player1 played gold gold copper copper",
            "player1 top-discard copper",
        ]
    );
    assert_eq!(t.s.next(), Next::Finished);
    assert!(t.s.closed(None, None).is_none());
    let mut early = Table::new(2, 0);
    early.opponent("auto");
    assert_eq!(early.s.closed(None, None).unwrap().rule, "io.crash");
    assert_eq!(early.s.no_exit(Duration::from_secs(2)).rule, "io.no-exit");
}

#[test]
fn only_io_failures_and_the_version_echo_end_the_game() {
    for (rule, ends) in [
        ("io.timeout", true),
        ("io.crash", true),
        ("io.invalid-utf8", true),
        ("io.line-too-long", true),
        ("io.unexpected-output", false),
        ("dominion-text.handshake.version-echo", true),
        ("dominion-text.grammar.not-a-reply", false),
        ("dominion-text.mine.too-expensive", false),
    ] {
        assert_eq!(DOMINION_TEXT.failure_ends_game(rule), ends, "{rule}");
    }
}

#[test]
fn robust_supply_while_waiting_is_a_warning() {
    let mut t = Table::new(2, 1);
    t.handshake(2);
    let supply = "supply curse 10 copper 46 silver 40 gold 30 estate 8 duchy 8 province 8 cellar 10 market 10 militia 10 mine 10 moat 10 remodel 10 smithy 10 village 10 woodcutter 10 workshop 10";
    let out = t.s.send(supply).expect("the piles as they are");
    assert_eq!(out.replies, 0);
    let v = t.s.unexpected(b"play-reply pass\n").expect("a finding");
    assert_eq!(v.rule, "dominion-text.robust.supply-while-waiting");
    assert_eq!(v.severity, crate::verdict::Severity::Warn);
}
