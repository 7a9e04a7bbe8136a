use super::*;
use crate::games::dominion_sexp::catalogue as cat;
use crate::games::dominion_sexp::messages::{Card, State};
use crate::games::dominion_sexp::rules;
use crate::scenario::builtin;
use crate::verdict::Severity;
use std::collections::BTreeSet;

fn session(players: usize, seat: usize) -> SexpSession {
    SexpSession::new(players, seat - 1, 7, Some(BuiltInPlayer::BigMoney))
        .with_asked_players(Some(players))
}

/// A consistent 2-player state with this hand, the rest of the bot's ten
/// starting cards in its deck.
fn deal_text(hand: &[Card]) -> String {
    let mut game = deal::fresh(2, &mut fastrand::Rng::with_seed(1));
    let mut rest = vec![Card::Copper; 7];
    rest.extend([Card::Estate; 3]);
    for c in hand {
        let i = rest.iter().position(|r| r == c).expect("a starting card");
        rest.remove(i);
    }
    game.players[0].hand = hand.to_vec();
    game.players[0].deck = rest;
    Notification::Move(game.snapshot()).to_string()
}

fn starting_hand() -> Vec<Card> {
    vec![
        Card::Copper,
        Card::Copper,
        Card::Estate,
        Card::Copper,
        Card::Estate,
    ]
}

#[test]
fn a_consistent_scripted_deal_is_adopted_and_the_bot_plays_on_it() {
    let mut s = session(2, 1);
    let text = deal_text(&starting_hand());
    let out = s.send(&text).expect("adopted");
    assert_eq!((out.text.as_str(), out.replies), (text.as_str(), 1));
    assert!(s.robust.is_none());
    let judged = s
        .judge(b"(add copper)", &Expect::LegalMove, Duration::ZERO)
        .unwrap();
    assert!(judged.violations.is_empty(), "{:?}", judged.violations);
    let next = State::parse(
        judged.follow_ups[0]
            .text
            .strip_prefix("(move ")
            .unwrap()
            .strip_suffix(')')
            .unwrap(),
    )
    .unwrap();
    assert_eq!((next.coins, next.actions, next.plays.len()), (1, 0, 1));
}

#[test]
fn impossible_scripted_states_are_scenario_errors_that_say_why() {
    let good = deal_text(&starting_hand());
    let cases = [
        // One copper too many in the hand: the cards do not add up.
        (
            good.replacen("(hand copper", "(hand copper copper", 1),
            "do not add up",
        ),
        (good.replace("(coins 0)", "(coins 3)"), "coins 3"),
        (
            good.replace("(actions 1)", "(actions 2)"),
            "actions and buys",
        ),
        (
            good.replace(
                "(deck copper copper copper copper estate)",
                "(deck estate copper copper copper copper)",
            ),
            "not sorted",
        ),
        (good.replace("alpha bravo", "alpha alpha"), "twice"),
        (good.replace("alpha bravo", "alpha Bravo2"), "not a name"),
        (
            good.replace("(supply copper", "(supply silver copper"),
            "pile by pile",
        ),
        ("(move (oops))".to_string(), "ten sections"),
    ];
    for (text, why) in cases {
        let err = session(2, 1).send(&text).expect_err(&text);
        assert!(err.contains(why), "{err} (wanted {why:?})");
    }
    // Three players asked for, two named.
    let err = session(3, 1).send(&good).unwrap_err();
    assert!(err.contains("players: 3"), "{err}");
}

#[test]
fn an_unfair_state_is_refused_buys_zero_with_a_treasure_in_hand() {
    // §9.1: the reference players add every treasure before buying, so
    // (buys 0) with a treasure in hand is never injected.
    let mut game = deal::fresh(2, &mut fastrand::Rng::with_seed(1));
    game.players[0].hand = vec![Card::Copper, Card::Estate, Card::Estate, Card::Estate];
    game.players[0].deck = vec![Card::Copper; 5];
    game.players[0].discard = vec![Card::Copper];
    game.supply = rules::Supply::from_piles(&[
        (Card::Copper, 45),
        (Card::Silver, 40),
        (Card::Gold, 30),
        (Card::Estate, 8),
        (Card::Duchy, 8),
        (Card::Province, 8),
        (Card::Mine, 10),
    ]);
    game.play_area = vec![Card::Copper];
    game.buys = 0;
    game.actions = 0;
    game.coins = 1;
    let text = Notification::Move(game.snapshot()).to_string();
    let err = session(2, 1).send(&text).unwrap_err();
    assert!(err.contains("unfair"), "{err}");
}

#[test]
fn a_later_scripted_move_must_be_the_one_the_dealer_would_send() {
    let mut s = session(2, 2);
    // Seat 2: the built-in seat plays its turn first (no reply due) ...
    let mut rng = fastrand::Rng::with_seed(3);
    let outs = s.opponent("auto", &mut rng).unwrap();
    assert!(
        outs.iter()
            .all(|o| o.text.starts_with("(moved alpha ") && o.replies == 0)
    );
    assert_eq!(s.next(), Next::Opponent);
    // ... then the bot's (move …) is dealt, by `opponent: auto` or scripted.
    let want = Notification::Move(s.game.snapshot()).to_string();
    let wrong = want.replace("(coins 0)", "(coins 1)");
    assert!(s.send(&wrong).unwrap_err().contains("does not follow"));
    let out = s.send(&want).unwrap();
    assert_eq!(out.replies, 1);
    assert_eq!(s.next(), Next::Bot);
    // A second one while the play is due is refused.
    assert!(s.send(&want).is_err());
    assert!(s.opponent("auto", &mut rng).is_err());
}

#[test]
fn scripted_moved_lines_must_be_legal_plays_of_the_player_whose_turn_it_is() {
    let mut s = session(2, 2);
    assert!(
        s.send("(moved bravo (buy copper))")
            .unwrap_err()
            .contains("alpha's turn")
    );
    assert!(
        s.send("(moved alpha (buy province))")
            .unwrap_err()
            .contains("cannot play")
    );
    let out = s.send("(moved alpha (buy copper))").unwrap();
    assert_eq!(out.replies, 0);
    assert_eq!(s.next(), Next::Opponent);
}

#[test]
fn padded_notifications_and_reference_names_turn_on_the_robustness_rules() {
    let text = deal_text(&starting_hand());
    let mut s = session(2, 1);
    s.send(&text.replace(") (", ")\n\t (")).unwrap();
    assert_eq!(
        s.robust.map(|r| r.id),
        Some(cat::ROBUST_EXTRA_WHITESPACE.id)
    );
    // Before any legal play, a reply that cannot be read is the probe's
    // warning: the bot may not have read the padded notification.
    let mut unread = session(2, 1);
    unread.send(&text.replace(") (", ")\n\t (")).unwrap();
    let judged = unread
        .judge(b"(add copper]", &Expect::LegalMove, Duration::ZERO)
        .unwrap();
    assert_eq!(judged.violations[0].rule, cat::ROBUST_EXTRA_WHITESPACE.id);
    assert_eq!(judged.violations[0].severity, Severity::Warn);
    assert!(judged.violations[0].message.contains(cat::FRAME_SYNTAX.id));
    assert_eq!(unread.next(), Next::Finished);
    // Later notifications are padded too.
    let judged = s
        .judge(b"(add copper)", &Expect::LegalMove, Duration::ZERO)
        .unwrap();
    assert!(judged.follow_ups[0].text.contains('\n'));
    // A play the bot wrote is an answer: an illegal one is its own rule
    // (issue 26.7; before: the warning `robust.extra-whitespace`).
    let judged = s
        .judge(b"(clean)", &Expect::LegalMove, Duration::ZERO)
        .unwrap();
    assert_eq!(judged.violations[0].rule, cat::CLEAN_CARD_REQUIRED.id);
    assert_eq!(judged.violations[0].severity, Severity::Fail);
    // Once it has answered a padded notification legally, it reads them: a
    // crash or a silence is its own too.
    assert_eq!(s.closed(None, None).unwrap().rule, cat::IO_CRASH.id);
    assert_eq!(s.timed_out(Duration::from_secs(1)).rule, cat::IO_TIMEOUT.id);

    let mut s = session(2, 1);
    s.send(&text.replace("alpha bravo", "0-player-v1 1-player-v1"))
        .unwrap();
    assert_eq!(s.robust.map(|r| r.id), Some(cat::ROBUST_REFERENCE_NAMES.id));
}

#[test]
fn reading_grammar_and_nonstandard_syntax_give_their_rules() {
    let cases: [(&[u8], &str); 6] = [
        (b"(add copper]", cat::FRAME_SYNTAX.id),
        (b"(Add copper)", cat::GRAMMAR_CASE.id),
        (b"(add estate)", cat::GRAMMAR_NOT_TREASURE.id),
        (b"(buy curse)", cat::GRAMMAR_UNKNOWN_CARD.id),
        (b"(add \xff)", cat::IO_INVALID_UTF8.id),
        (b"pass", cat::GRAMMAR_NOT_A_PLAY.id),
    ];
    for (reply, rule) in cases {
        let mut s = session(2, 1);
        s.send(&deal_text(&starting_hand())).unwrap();
        let judged = s.judge(reply, &Expect::LegalMove, Duration::ZERO).unwrap();
        assert_eq!(
            judged.violations[0].rule,
            rule,
            "{:?}",
            String::from_utf8_lossy(reply)
        );
    }
    let mut s = session(2, 1);
    s.send(&deal_text(&starting_hand())).unwrap();
    let judged = s
        .judge(b"[add copper]", &Expect::LegalMove, Duration::ZERO)
        .unwrap();
    assert_eq!(judged.violations.len(), 1);
    assert_eq!(judged.violations[0].rule, cat::FRAME_NONSTANDARD_SYNTAX.id);
    assert_eq!(
        judged.follow_ups.len(),
        1,
        "a warning does not stop the game"
    );
}

/// Plays a whole game through the session, the bot's side played by
/// `bot`, the built-in seats by the session; returns the finished session.
fn play_out(
    players: usize,
    seat: usize,
    builtin: BuiltInPlayer,
    bot: BuiltInPlayer,
    seed: u64,
) -> SexpSession {
    let mut s = SexpSession::new(players, seat - 1, seed, Some(builtin));
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut bot_rng = fastrand::Rng::with_seed(seed ^ 1);
    for _ in 0..100_000 {
        match s.next() {
            Next::Finished => return s,
            Next::Opponent => {
                s.opponent("auto", &mut rng).unwrap();
            }
            Next::Bot => {
                let play = bot.choose(&s.game, &mut bot_rng).to_string();
                let judged = s
                    .judge(play.as_bytes(), &Expect::LegalMove, Duration::ZERO)
                    .unwrap();
                assert!(judged.violations.is_empty(), "{:?}", judged.violations);
            }
        }
    }
    panic!("the game did not end");
}

#[test]
fn whole_games_end_by_provinces_or_the_turn_cap_in_every_seat() {
    for players in 2..=4 {
        for seat in 1..=players {
            let s = play_out(
                players,
                seat,
                BuiltInPlayer::BigMoney,
                BuiltInPlayer::BigMoney,
                seat as u64,
            );
            assert_eq!(s.game.ended, Some(rules::Ending::ProvincesGone));
            let s = play_out(
                players,
                seat,
                BuiltInPlayer::RandomLegal,
                BuiltInPlayer::RandomLegal,
                9,
            );
            match s.game.ended {
                Some(rules::Ending::TurnCap) => assert!(
                    s.game
                        .players
                        .iter()
                        .all(|seat| seat.turns == rules::DEFAULT_TURN_CAP)
                ),
                Some(rules::Ending::ProvincesGone) => {
                    assert!(!s.game.supply.contains(Card::Province))
                }
                Some(rules::Ending::ThreePilesEmpty) => {
                    panic!("version 1 has no three-pile ending")
                }
                None => panic!("not ended"),
            }
        }
    }
}

/// Ids that are checked on every reply of every scenario (reading, grammar,
/// timing, process), so no particular state is needed to exercise them.
const ON_EVERY_REPLY: &[&str] = &[
    "io.timeout",
    "io.unexpected-output",
    "io.crash",
    "io.no-exit",
    "io.line-too-long",
    "io.invalid-utf8",
    "io.output-flood",
    "io.output-limit",
    "io.resource-limit",
    "scenario.expect.reply",
    "scenario.expect.matches",
    "dominion-sexp.frame.syntax",
    "dominion-sexp.frame.nonstandard-syntax",
    "dominion-sexp.grammar.not-a-play",
    "dominion-sexp.grammar.case",
    "dominion-sexp.grammar.arity",
    "dominion-sexp.grammar.unknown-action",
    "dominion-sexp.grammar.unknown-card",
];

/// Every version-1 play shape with any cards, legal or not.
fn every_play() -> Vec<Play> {
    let mut plays = vec![Play::Clean(None)];
    for a in Card::V1 {
        plays.extend([Play::Add(a), Play::Buy(a), Play::Clean(Some(a))]);
        for b in Card::V1 {
            plays.push(Play::Mine { trash: a, gain: b });
        }
    }
    plays
}

#[test]
fn every_catalogue_rule_is_exercised_by_a_builtin_scenario() {
    // A state rule is exercised when, in a state some built-in scenario
    // deals (or reaches after one legal play of the bot), some play breaks
    // exactly that rule; robustness rules by the scenario that turns them on.
    let mut reached: BTreeSet<&str> = ON_EVERY_REPLY.iter().copied().collect();
    let suite = builtin::suite("dominion-sexp").unwrap();
    assert!(suite.len() >= 30, "{} scenarios", suite.len());
    for scenario in &suite {
        let Some((Step::Send(text), _)) = scenario.steps.first() else {
            continue;
        };
        let mut s = SexpSession::new(2, 0, 1, None);
        let table: crate::games::dominion::table::TableOptions =
            scenario.options.of_game().unwrap();
        s.asked_players = table.players.map(|p| p as usize);
        s.bot = table.seat.map_or(0, |x| x as usize - 1);
        s.send(text).unwrap();
        if let Some(r) = s.robust {
            reached.insert(r.id);
        }
        let mut states = vec![s.game.clone()];
        for p in s.game.legal_plays() {
            let mut g = s.game.clone();
            if g.apply(p, &mut fastrand::Rng::with_seed(1)) == Ok(rules::Outcome::Continue) {
                states.push(g);
            }
        }
        for g in &states {
            for p in every_play() {
                if let Err(e) = g.check(p) {
                    reached.insert(e.rule.id);
                }
            }
        }
    }
    let missing: Vec<&str> = cat::CATALOGUE
        .all()
        .iter()
        .map(|r| r.id)
        .filter(|id| !reached.contains(id))
        .collect();
    assert!(
        missing.is_empty(),
        "not exercised by any built-in scenario: {missing:?}"
    );
}

#[test]
fn a_robustness_timeout_is_worded_under_the_probe() {
    // The controller files it as io.timeout where the bot is proved busy
    // or its play comes late (controller::attribution).
    let text = deal_text(&starting_hand());
    let mut s = session(2, 1);
    s.send(&text.replace("alpha bravo", "0-player-v1 1-player-v1"))
        .unwrap();
    let probe = s.timed_out(Duration::from_secs(1));
    assert_eq!(probe.rule, cat::ROBUST_REFERENCE_NAMES.id);
    assert_eq!(probe.severity, Severity::Warn);
    assert!(probe.message.starts_with("under io.timeout: "), "{}", probe.message);
    // The play arrived once the bot exited: it answered the probe's
    // notification, so the timeout is its own failure.
    let real = s
        .late_reply(&probe, b"(add copper)\n")
        .expect("the real finding");
    assert_eq!(real.rule, cat::IO_TIMEOUT.id);
    assert_eq!(real.severity, Severity::Fail);
    // Outside a robustness scenario the timeout already names itself.
    let mut s = session(2, 1);
    s.send(&text).unwrap();
    let timeout = s.timed_out(Duration::from_secs(1));
    assert_eq!(timeout.rule, cat::IO_TIMEOUT.id);
    assert!(s.late_reply(&timeout, b"(add copper)\n").is_none());
}

/// Issue 32: a line reader prints parse errors, unflushed, for each line of
/// a notification spread over lines; they come only at end of input. That
/// is no answer to the probe's notification: the probe's warning stands.
#[test]
fn a_robustness_timeout_whose_late_output_is_no_play_stays_the_probes_warning() {
    let text = deal_text(&starting_hand());
    let mut s = session(2, 1);
    s.send(&text.replace("alpha bravo", "0-player-v1 1-player-v1"))
        .unwrap();
    let probe = s.timed_out(Duration::from_secs(1));
    for late in [
        &b"parse error (line 1, column 6): unexpected end of input\n"[..],
        b"(buy province)\n",
    ] {
        let kept = s.late_reply(&probe, late).expect("the probe's finding");
        assert_eq!(
            (kept.rule, kept.severity),
            (cat::ROBUST_REFERENCE_NAMES.id, Severity::Warn),
            "{}",
            String::from_utf8_lossy(late)
        );
        assert!(kept.message.starts_with("under io.timeout: no legal play"), "{}", kept.message);
    }
}

#[test]
fn no_exit_says_the_input_was_closed_only_when_it_was() {
    let mut s = session(2, 1);
    s.send(&deal_text(&starting_hand())).unwrap();
    let grace = Duration::from_secs(2);
    assert_eq!(
        crate::games::by_id("dominion-sexp").unwrap().facts().no_exit(s.exit_state(), grace).message,
        "the bot was still running 2s where the scenario expects it to exit (its input is still open)"
    );
    s.input_closed();
    assert_eq!(
        crate::games::by_id("dominion-sexp").unwrap().facts().no_exit(s.exit_state(), grace).message,
        "the bot was still running 2s after protocheck closed its input"
    );
}
