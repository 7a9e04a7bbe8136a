//! Sessions with relayed seats (`protocheck match`): every session of one
//! table deals the same game, and a relayed move is applied to the seat
//! that made it, at the point the reference server takes it.

use super::EvolutionSession;
use super::Phase;
use crate::games::evolution::dealer::Style;
use crate::games::evolution::model::Species;
use crate::games::evolution::strategy::{self, FatRequest};
use crate::games::{EndResult, Next, Relay, Session};
use crate::scenario_model::Expect;
use std::time::Duration;

/// How a test client chooses: the reference strategy, only a food card, or
/// the reference's Action4 and the last of its feeding options.
#[derive(Clone, Copy)]
enum Plays {
    Reference,
    FoodCardOnly,
    LastFeedOption,
}

/// The reply the session's client sends to what is due.
fn reply(s: &EvolutionSession, plays: Plays) -> Vec<u8> {
    let text = match s.phase {
        Phase::Signup => "\"tester\"".to_string(),
        Phase::AwaitAction => match plays {
            Plays::FoodCardOnly => "[0,[],[],[],[]]".to_string(),
            Plays::Reference | Plays::LastFeedOption => {
                strategy::choose(&s.table.start_boards, &s.table.start_hand)
                    .unwrap()
                    .to_json()
                    .to_string()
            }
        },
        Phase::AwaitFeed if matches!(plays, Plays::LastFeedOption) => {
            let (_, options) = s.asked.as_ref().unwrap();
            options.last().unwrap().to_json().to_string()
        }
        Phase::AwaitFeed => {
            let (state, _) = s.asked.as_ref().unwrap();
            let others: Vec<&[Species]> = state.4.iter().map(Vec::as_slice).collect();
            strategy::feed(&state.1, &others, FatRequest::Room)
                .unwrap()
                .to_json()
                .to_string()
        }
        other => panic!("no reply is due while {other:?}"),
    };
    format!("{text} ").into_bytes()
}

/// Drive the sessions of one table as `controller::relay` does
/// (`games::table_tests::play_relayed`). Returns every message each client
/// was sent.
fn play_table(sessions: &mut [EvolutionSession], plays: &[Plays]) -> Vec<Vec<String>> {
    play_table_counting(sessions, plays).0
}

/// `play_table`, and how many feeding choices were relayed.
fn play_table_counting(
    sessions: &mut [EvolutionSession],
    plays: &[Plays],
) -> (Vec<Vec<String>>, usize) {
    let mut feeds = 0;
    let sent = crate::games::table_tests::play_relayed(
        sessions,
        100_000,
        |seat, s, _| reply(s, plays[seat]),
        |_, _, played| {
            if let Some(mv) = played {
                let json = mv.split_once(": ").unwrap().1;
                let value: serde_json::Value = serde_json::from_str(json).unwrap();
                if value.as_array().is_none_or(|a| a.len() != 5) {
                    feeds += 1;
                }
            }
        },
    );
    (sent, feeds)
}

const STYLES: &[Style] = &[Style::Reference, Style::Simple];

#[test]
fn every_session_of_one_table_deals_the_same_game_and_ends_with_the_same_scores() {
    let mut feeds = 0;
    for players in 3..=5usize {
        for seed in [1u64, 2, 3] {
            let seats: Vec<usize> = (0..3).collect();
            let mut sessions: Vec<EvolutionSession> = seats
                .iter()
                .map(|&seat| EvolutionSession::seated(players, seat, &seats, STYLES, seed))
                .collect();
            // Unlike the built-in players of those seats (seat 1 and 3
            // Reference, seat 2 Simple; all feed by the reference strategy):
            // a session that did not take the relayed moves would play
            // another game.
            let plays = [Plays::FoodCardOnly, Plays::Reference, Plays::LastFeedOption];
            feeds += play_table_counting(&mut sessions, &plays).1;
            let first = &sessions[0].table.dealer;
            for s in &sessions[1..] {
                assert_eq!(&s.table.dealer, first, "{players} players, seed {seed}");
                assert_eq!(s.table.turn, sessions[0].table.turn);
            }
            let endings: Vec<_> = sessions.iter().map(|s| s.ending().unwrap()).collect();
            for (seat, e) in endings.iter().enumerate() {
                assert_eq!(e.score, endings[0].score);
                assert_eq!(e.position, endings[0].position);
                assert_eq!(e.side, format!("seat {}", seat + 1));
                assert_eq!(e.score.len(), players);
            }
            let winners = endings
                .iter()
                .filter(|e| e.result == EndResult::Won)
                .count();
            assert!(winners <= 1, "{players} players, seed {seed}");
            assert!(sessions[0].table.turn >= 2);
        }
    }
    assert!(feeds > 0, "no feeding choice was relayed");
}

/// Clients that play exactly as the built-in players of those seats would
/// make exactly the single run's game: so each relayed Action4 and feeding
/// choice was applied to its own seat, at the point the built-in one is.
#[test]
fn relayed_clients_playing_as_the_built_in_players_make_the_single_runs_game() {
    for seed in [4u64, 5, 6, 7] {
        // Seat 1 and 2 are clients; seat 3 built-in. The single run's seat
        // 2 is a Simple player (food card only), seat 3 a Reference one.
        let mut single = [EvolutionSession::new(3, 0, STYLES, seed)];
        let single_sent = play_table(&mut single, &[Plays::Reference]);
        let mut table = [
            EvolutionSession::seated(3, 0, &[0, 1], STYLES, seed),
            EvolutionSession::seated(3, 1, &[0, 1], STYLES, seed),
        ];
        let sent = play_table(&mut table, &[Plays::Reference, Plays::FoodCardOnly]);
        assert_eq!(table[0].table.dealer, single[0].table.dealer, "seed {seed}");
        assert_eq!(table[1].table.dealer, single[0].table.dealer, "seed {seed}");
        // The first client is sent what the single run's bot is sent.
        assert_eq!(sent[0], single_sent[0], "seed {seed}");
        assert_eq!(table[0].ending(), single[0].ending());
    }
}

#[test]
fn a_later_seat_gets_start_first_and_choose_only_after_the_earlier_client_chose() {
    let mut s = EvolutionSession::seated(3, 1, &[0, 1], STYLES, 8);
    let mut rng = fastrand::Rng::with_seed(0);
    s.judge(b"\"me\" ", &Expect::LegalMove, Duration::ZERO)
        .unwrap();
    let outs = s.opponent("auto", &mut rng).unwrap();
    assert_eq!(outs.len(), 1, "start alone");
    assert_eq!(outs[0].replies, 0);
    assert!(s.awaits_relay());
    assert_eq!(s.next(), Next::Opponent);
    // Seat 1's Action4 comes in: now `choose`.
    let outs = s.opponent("seat 1: [0,[],[],[],[]]", &mut rng).unwrap();
    assert_eq!(outs.len(), 1);
    assert!(outs[0].text.starts_with("[[[[[\"food\""), "{}", outs[0].text);
    assert_eq!(s.next(), Next::Bot);
}

#[test]
fn a_move_for_a_seat_that_is_not_another_client_is_refused() {
    let mut rng = fastrand::Rng::with_seed(0);
    let mut s = EvolutionSession::seated(3, 1, &[0, 1], STYLES, 8);
    s.judge(b"\"me\" ", &Expect::LegalMove, Duration::ZERO)
        .unwrap();
    s.opponent("auto", &mut rng).unwrap();
    for (choice, says) in [
        ("seat 3: [0,[],[],[],[]]", "seat 3 is not another client's"),
        ("seat 2: [0,[],[],[],[]]", "seat 2 is not another client's"),
        ("seat 1: [0,[],[]]", "not a feeding choice"),
        ("[0,[],[],[],[]]", "only play `auto`"),
    ] {
        let e = s.opponent(choice, &mut rng).unwrap_err();
        assert!(e.contains(says), "{choice}: {e}");
    }
    // A single run's session refuses every relayed move.
    let mut single = EvolutionSession::new(3, 1, STYLES, 8);
    let e = single
        .opponent("seat 1: [0,[],[],[],[]]", &mut rng)
        .unwrap_err();
    assert!(e.contains("not another client's"), "{e}");
}

#[test]
fn played_names_the_move_of_the_last_judged_reply_only() {
    let mut rng = fastrand::Rng::with_seed(0);
    let mut s = EvolutionSession::seated(3, 0, &[0, 1], STYLES, 8);
    s.judge(b"\"me\" ", &Expect::LegalMove, Duration::ZERO)
        .unwrap();
    assert_eq!(s.played(), None, "a sign-up is no move");
    s.opponent("auto", &mut rng).unwrap();
    s.judge(b"[0,[],[],[],[]] ", &Expect::LegalMove, Duration::ZERO)
        .unwrap();
    assert_eq!(s.played().as_deref(), Some("seat 1: [0,[],[],[],[]]"));
    // Seat 2's Action4 is still out: the turn waits for it.
    assert!(s.opponent("auto", &mut rng).unwrap().is_empty());
    assert!(s.awaits_relay());
}
