//! The session against scripted bot lines: handshake, info-line order,
//! every rule's verdict in the tracked state with the document's recovery,
//! militia with moat, blank and unexpected lines, and the end of the game.

use super::TextSession;
use crate::games::dominion_text::DOMINION_TEXT;
use crate::games::{Game, Next, Outgoing, Session};
use crate::scenario_model::Expect;
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
    // The attacker's turn goes on (`others` stops before the bot's turn),
    // then the bot's turn starts.
    let rest = t.opponent("others");
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
    let lines = t.opponent("others");
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
    assert_eq!(crate::games::by_id("dominion-text").unwrap().facts().no_exit(early.s.exit_state(), Duration::from_secs(2)).rule, "io.no-exit");
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
        assert_eq!(
            (DOMINION_TEXT.facts().failure_ends_game)(rule),
            ends,
            "{rule}"
        );
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

/// Plays the steps of a built-in scenario through the session, the bot's
/// side answering the handshake correctly and every request as the engine
/// player would; calls `probe` in every state where a turn or attack reply
/// is due (at most `limit` of them).
fn walk(scenario: &crate::scenario_model::Scenario, limit: usize, probe: &mut dyn FnMut(&TextSession)) {
    use crate::games::dominion_text::players::BuiltInPlayer;
    use crate::scenario_model::Strategy;
    use crate::scenario_model::{Play, Step};
    let o = &scenario.options;
    let table: crate::games::dominion::table::TableOptions = o.of_game().unwrap();
    let builtin = table.strategy.map(|s| match s {
        Strategy::Greedy => BuiltInPlayer::BigMoney,
        Strategy::Random => BuiltInPlayer::Random,
    });
    let mut s = TextSession::new(
        table.players.unwrap_or(2) as usize,
        table.seat.unwrap_or(1) as usize - 1,
        o.seed.unwrap_or(1),
        builtin,
    );
    let mut rng = fastrand::Rng::with_seed(0);
    let mut bot_rng = fastrand::Rng::with_seed(5);
    let mut probed = 0;
    let mut answer =
        |s: &mut TextSession, probed: &mut usize, probe: &mut dyn FnMut(&TextSession)| {
            let seat = s.bot + 1;
            let line = match s.due {
                Some(super::Due::Name) => format!("player player{seat} bot"),
                Some(super::Due::Version) => format!("player player{seat} version 1"),
                Some(super::Due::PlayTurn) => {
                    *probed += 1;
                    probe(s);
                    format!(
                        "play-reply {}",
                        BuiltInPlayer::Engine.choose(&s.game, &mut bot_rng)
                    )
                }
                Some(super::Due::Attack) => {
                    *probed += 1;
                    probe(s);
                    let hand = &s.game.players[s.bot].hand;
                    let n = hand.len() - 3;
                    match BuiltInPlayer::answer_attack(hand, n) {
                        crate::games::dominion_text::players::AttackAnswer::RevealMoat => {
                            "play-reply reaction moat".to_string()
                        }
                        crate::games::dominion_text::players::AttackAnswer::Discard(c) => format!(
                            "play-reply discard {}",
                            c.iter().map(|c| c.name()).collect::<Vec<_>>().join(" ")
                        ),
                    }
                }
                None => unreachable!(),
            };
            let judged = s
                .judge(
                    format!("{line}\n").as_bytes(),
                    &Expect::LegalMove,
                    Duration::ZERO,
                )
                .unwrap();
            assert!(
                judged.violations.is_empty(),
                "{}: `{line}`: {:?}",
                scenario.name,
                judged.violations
            );
        };
    for (step, _) in &scenario.steps {
        if probed >= limit {
            return;
        }
        match step {
            Step::Opponent(crate::scenario_model::Token(c)) => {
                s.opponent(c, &mut rng).unwrap();
            }
            Step::Send(text) => {
                s.send(text).unwrap();
            }
            Step::Expect(Expect::LegalMove) => answer(&mut s, &mut probed, probe),
            Step::Play(Play::ToEnd) => {
                while probed < limit {
                    match s.next() {
                        Next::Finished => break,
                        Next::Opponent => {
                            s.opponent("auto", &mut rng).unwrap();
                        }
                        Next::Bot => answer(&mut s, &mut probed, probe),
                    }
                }
            }
            _ => {}
        }
    }
}

/// Replies worth trying in a state: every shape of the grammar over the
/// cards that matter here (the hand, the treasures, the dearer cards).
fn candidate_replies(s: &TextSession) -> Vec<String> {
    use crate::games::dominion::Card;
    let mut out = Vec::new();
    if s.due == Some(super::Due::Attack) {
        let hand: Vec<&str> = s.game.players[s.bot]
            .hand
            .iter()
            .map(|c| c.name())
            .collect();
        out.push("play-reply reaction moat".to_string());
        out.push("play-reply pass".to_string());
        for k in 0..=hand.len() {
            out.push(format!("play-reply discard {}", hand[..k].join(" ")));
        }
        out.push("play-reply discard gold gold".to_string());
        return out;
    }
    let mut cards: Vec<Card> = s.game.hand().to_vec();
    cards.extend([
        Card::Copper,
        Card::Silver,
        Card::Gold,
        Card::Estate,
        Card::Duchy,
        Card::Province,
        Card::Mine,
        Card::Curse,
    ]);
    cards.sort();
    cards.dedup();
    out.push("play-reply pass".into());
    out.push("play-reply buy".into());
    for c in Card::SUPPLY {
        out.push(format!("play-reply buy {c}"));
        out.push(format!("play-reply buy {c} {c} {c}"));
        out.push(format!("play-reply buy copper {c}"));
    }
    for a in Card::SUPPLY {
        out.push(format!("play-reply action {a}"));
        for b in Card::SUPPLY {
            out.push(format!("play-reply action {a} {b}"));
            if a == Card::Mine || a == Card::Remodel || a == Card::Cellar {
                for c in &cards {
                    out.push(format!("play-reply action {a} {c} {b}"));
                }
            }
        }
    }
    out
}

/// Rules any reply in any state can break (framing, grammar, timing,
/// process) or that every scenario's handshake offers.
const ON_EVERY_REPLY: &[&str] = &[
    "io.timeout",
    "io.unexpected-output",
    "io.crash",
    "io.no-exit",
    "io.line-too-long",
    "io.invalid-utf8",
    "dominion-text.frame.crlf",
    "dominion-text.frame.whitespace",
    "dominion-text.frame.blank-line",
    "dominion-text.handshake.name-reply",
    "dominion-text.handshake.version-echo",
    "dominion-text.grammar.not-a-reply",
    "dominion-text.grammar.case",
    "dominion-text.grammar.unknown-card",
    "dominion-text.grammar.extra-tokens",
    "dominion-text.grammar.workshop-typo",
    "dominion-text.grammar.wrong-context",
];

/// Every rule a built-in scenario names in its `about` can really be broken
/// in a state that scenario reaches (its first requests, the bot playing
/// on like the engine player): the "Rules:" lists are not just labels.
#[test]
fn every_rule_a_scenario_names_is_reachable_in_its_states() {
    use std::collections::BTreeSet;
    let suite = crate::scenario::builtin::suite("dominion-text").unwrap();
    let mut problems = Vec::new();
    for scenario in &suite {
        let about = scenario.about.clone().unwrap_or_default();
        let named: Vec<String> = about
            .split_once("Rules:")
            .map(|(_, l)| {
                l.trim()
                    .trim_end_matches('.')
                    .split(',')
                    .map(|r| r.trim().to_string())
                    .collect()
            })
            .unwrap_or_default();
        let mut reached: BTreeSet<String> = ON_EVERY_REPLY.iter().map(|r| r.to_string()).collect();
        if scenario
            .steps
            .iter()
            .any(|(s, _)| matches!(s, crate::scenario_model::Step::Send(t) if t.starts_with("supply ")))
        {
            reached.insert("dominion-text.robust.supply-while-waiting".into());
        }
        // The first three turns and every attack of the first 60 requests.
        let mut turns = 0;
        walk(scenario, 60, &mut |s| {
            if s.due == Some(super::Due::PlayTurn) {
                turns += 1;
                if turns > 3 {
                    return;
                }
            }
            for reply in candidate_replies(s) {
                let mut probe = s.clone();
                let judged = probe
                    .judge(
                        format!("{reply}\n").as_bytes(),
                        &Expect::LegalMove,
                        Duration::ZERO,
                    )
                    .unwrap();
                for v in judged.violations {
                    reached.insert(v.rule.to_string());
                }
            }
        });
        let missing: Vec<&String> = named.iter().filter(|r| !reached.contains(*r)).collect();
        if !missing.is_empty() {
            problems.push(format!(
                "{}: names {missing:?}, which no reply breaks in its first turns and attacks",
                scenario.name
            ));
        }
    }
    assert!(problems.is_empty(), "{problems:#?}");
}

/// Whole games through the session in every seat of every player count,
/// the bot's side played by the engine player: every reply is legal, every
/// game ends.
#[test]
fn whole_games_end_in_every_seat_with_no_finding_for_legal_play() {
    for players in 2..=4u32 {
        for seat in 1..=players {
            let scenario = crate::scenario_model::Scenario {
                name: format!("{players}p-seat{seat}"),
                game: "dominion-text".into(),
                about: None,
                rules: Vec::new(),
                spec: None,
                options: crate::scenario_model::Options {
                    seed: Some(u64::from(players * 10 + seat)),
                    ..Default::default()
                }
                .with("players", players)
                .with("seat", seat),
                source: "test".into(),
                steps: vec![(
                    crate::scenario_model::Step::Play(crate::scenario_model::Play::ToEnd),
                    crate::scenario_model::Span { line: 0, column: 0 },
                )],
                origin: crate::scenario_model::Origin::Builtin,
            };
            let mut requests = 0;
            walk(&scenario, usize::MAX, &mut |_| requests += 1);
            assert!(requests > 10, "{players}p seat {seat}: {requests} requests");
        }
    }
}

#[test]
fn no_exit_says_the_input_was_closed_only_when_it_was() {
    let mut t = Table::new(2, 0);
    let grace = Duration::from_secs(2);
    assert_eq!(
        crate::games::by_id("dominion-text").unwrap().facts().no_exit(t.s.exit_state(), grace).message,
        "the bot was still running 2s where the scenario expects it to exit (its input is still open)"
    );
    t.s.input_closed();
    assert_eq!(
        crate::games::by_id("dominion-text").unwrap().facts().no_exit(t.s.exit_state(), grace).message,
        "the bot was still running 2s after protocheck closed its input"
    );
}
