//! Oracle tests for `dominion-sexp`: the data recorded from Matthew Flatt's
//! reference server, copied into `tests/fixtures/dominion-sexp/` (see its
//! README) so the test runs in a clone of this repository alone.
//!
//! - `legality.jsonl`: every case's plays go through protocheck's streaming
//!   reader, play grammar and rule engine; the verdict (pass, warn or the
//!   failing rule id and play index) must equal the case's `protocheck`
//!   field, and every state after an accepted play must equal the
//!   reference's `states_after` byte for byte.
//! - `game-*.jsonl` and `abort-*.jsonl`: the recorded games are replayed
//!   through the engine; every message the server sent (each `(move …)`
//!   state, each `(moved …)`, in order) must equal what the engine produces,
//!   and the final scores must match. The shuffles are Racket's, so the
//!   replay takes each draw order from the next hand the recording shows.

use protocheck::games::dominion_sexp::catalogue as cat;
use protocheck::games::dominion_sexp::messages::{Card, Notification, Play, State, classify};
use protocheck::games::dominion_sexp::rules::{DominionTable, Ending, Outcome, Shuffler, Supply};
use protocheck::games::dominion_sexp::sexp::{Reader, Reply};
use serde_json::Value;
use std::collections::VecDeque;

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/dominion-sexp");

fn read_jsonl(name: &str) -> Vec<Value> {
    let path = format!("{FIXTURES}/{name}");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!("cannot read {path}: {e} (the oracle data is part of the repository)")
    });
    text.lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{path}: {e}")))
        .collect()
}

/// What protocheck's reader and grammar make of one complete reply text;
/// written one byte at a time it must read the same.
fn read_reply(raw: &str) -> Result<Reply, &'static protocheck::verdict::RuleInfo> {
    let whole = read_reply_in(raw, raw.len().max(1));
    assert_eq!(read_reply_in(raw, 1), whole, "{raw:?} read byte by byte");
    whole
}

fn read_reply_in(raw: &str, chunk: usize) -> Result<Reply, &'static protocheck::verdict::RuleInfo> {
    let mut reader = Reader::new();
    let mut outcome = None;
    let mut used = 0;
    for piece in raw.as_bytes().chunks(chunk) {
        let (n, o) = reader.feed(piece);
        used += n;
        if o.is_some() {
            outcome = o;
            break;
        }
    }
    let reply = match outcome.or_else(|| reader.finish()) {
        Some(Ok(reply)) => reply,
        Some(Err(e)) => return Err(e.rule()),
        // Nothing but whitespace: end of output where a reply was due.
        None => return Err(&cat::IO_CRASH),
    };
    let (_, more) = reader.feed(&raw.as_bytes()[used..]);
    assert!(
        more.or_else(|| reader.finish()).is_none(),
        "{raw:?}: text after the reply"
    );
    Ok(reply)
}

/// protocheck's verdict on one legality case, and the snapshots after each
/// accepted play (`"turn over"` after a clean), as the oracle writes them.
fn judge(state: &State, plays: &[Value]) -> (String, Option<usize>, Vec<String>) {
    let mut game = DominionTable::from_state(state);
    let mut rng = fastrand::Rng::with_seed(1);
    let mut warning = None;
    let mut after = Vec::new();
    for (i, raw) in plays.iter().enumerate() {
        let raw = raw.as_str().expect("a play text");
        let reply = match read_reply(raw) {
            Ok(r) => r,
            Err(rule) => return (format!("fail {}", rule.id), Some(i), after),
        };
        if reply.nonstandard.is_some() {
            warning = Some(cat::FRAME_NONSTANDARD_SYNTAX.id);
        }
        let play = match classify(&reply.datum) {
            Ok(p) => p,
            Err(g) => return (format!("fail {}", g.rule.id), Some(i), after),
        };
        match game.apply(play, &mut rng) {
            Ok(Outcome::Continue) => after.push(game.snapshot().to_string()),
            Ok(_) => after.push("turn over".to_string()),
            Err(illegal) => return (format!("fail {}", illegal.rule.id), Some(i), after),
        }
    }
    let verdict = match warning {
        Some(id) => format!("warn {id}"),
        None => "pass".to_string(),
    };
    (verdict, None, after)
}

#[test]
fn every_legality_case_gets_the_reference_verdict() {
    let cases = read_jsonl("legality.jsonl");
    assert_eq!(cases.len(), 96);
    let (mut v1, mut agreed, mut v2) = (0, 0, 0);
    let mut disagreements = Vec::new();
    for case in &cases {
        let id = case["id"].as_str().unwrap();
        let Notification::Move(state) = Notification::parse(case["state"].as_str().unwrap())
            .unwrap_or_else(|e| panic!("{id}: the state does not parse: {e}"))
        else {
            panic!("{id}: not a (move …)");
        };
        // The notification prints back to the same bytes.
        assert_eq!(
            Notification::Move(state.clone()).to_string(),
            case["state"].as_str().unwrap(),
            "{id}"
        );
        let plays = case["plays"].as_array().unwrap();
        let (verdict, failed, after) = judge(&state, plays);
        if case["card_set"] == "v2" {
            // Later-version actions are outside version 1: protocheck's v1
            // grammar refuses them whatever the reference did.
            v2 += 1;
            assert_eq!(
                verdict,
                format!("fail {}", cat::GRAMMAR_UNKNOWN_ACTION.id),
                "{id}"
            );
            continue;
        }
        v1 += 1;
        let expected = case["protocheck"].as_str().unwrap();
        let reference_legal = case["verdict"] == "legal";
        let expected_failed = case["failed_play"].as_u64().map(|n| n as usize);
        let states: Vec<&str> = case["states_after"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s.as_str().unwrap())
            .collect();
        let ok = verdict == expected
            && failed == expected_failed
            && reference_legal == failed.is_none()
            && after == states;
        if ok {
            agreed += 1;
        } else {
            disagreements.push(format!(
                "{id}: got {verdict} at {failed:?}, expected {expected} at {expected_failed:?}; \
                 states {after:?} vs {states:?}"
            ));
        }
    }
    println!("legality: {agreed}/{v1} version-1 cases agree; {v2} version-2 cases refused");
    assert!(disagreements.is_empty(), "{}", disagreements.join("\n"));
    assert_eq!((v1, v2), (86, 10));
}

/// Arranges each shuffled pile so that the recorded draws come out first;
/// an empty queue leaves the pile as it is.
struct Replay {
    draws: VecDeque<Vec<Card>>,
    mismatch: Option<String>,
}

impl Shuffler for Replay {
    fn shuffle(&mut self, cards: &mut [Card]) {
        let Some(wanted) = self.draws.pop_front() else {
            return;
        };
        let mut rest: Vec<Card> = cards.to_vec();
        for c in &wanted {
            match rest.iter().position(|x| x == c) {
                Some(i) => {
                    rest.remove(i);
                }
                None => {
                    self.mismatch = Some(format!("the pile {cards:?} cannot yield {wanted:?}"));
                    return;
                }
            }
        }
        rest.extend(wanted.iter().rev());
        cards.copy_from_slice(&rest);
    }
}

/// The draw order that produced a hand: the last card drawn is first.
fn draws_of(state: &State) -> Vec<Card> {
    state.hand.iter().rev().copied().collect()
}

fn move_state(text: &str) -> Option<State> {
    match Notification::parse(text) {
        Ok(Notification::Move(s)) => Some(s),
        _ => None,
    }
}

struct Replayed {
    sends: usize,
    plays: usize,
    ending: Option<Ending>,
    rejected: Option<&'static str>,
    scores: Vec<i32>,
}

/// Replays one recorded game through the engine, asserting every message.
fn replay(name: &str) -> Replayed {
    let records = read_jsonl(name);
    let start = &records[0];
    assert_eq!(start["type"], "start");
    let names: Vec<&str> = start["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    let sends_to = |seat: &str, from: usize| {
        records[from..]
            .iter()
            .filter(|r| r["type"] == "send" && r["to"] == seat)
            .filter_map(|r| move_state(r["text"].as_str().unwrap()))
            .next()
    };
    // The opening hands are those of each seat's first (move …).
    let first = sends_to(names[0], 0).expect("a first state");
    let mut shuffler = Replay {
        draws: names
            .iter()
            .map(|n| sends_to(n, 0).map(|s| draws_of(&s)).unwrap_or_default())
            .collect(),
        mismatch: None,
    };
    let mut game = DominionTable::v1(&names, Supply::from_cards(&first.supply), &mut shuffler);
    // (recipient, text) of every message the server must send next.
    let mut expected: VecDeque<(String, String)> = VecDeque::new();
    expected.push_back((
        game.current_name().to_string(),
        Notification::Move(game.snapshot()).to_string(),
    ));
    let (mut sends, mut plays, mut rejected) = (0, 0, None);
    for (i, record) in records.iter().enumerate().skip(1) {
        let seq = &record["seq"];
        match record["type"].as_str().unwrap() {
            "send" => {
                let (to, text) = expected
                    .pop_front()
                    .unwrap_or_else(|| panic!("{name} #{seq}: the engine expects no send"));
                assert_eq!(record["to"], to.as_str(), "{name} #{seq}: recipient");
                assert_eq!(record["text"], text.as_str(), "{name} #{seq}");
                sends += 1;
            }
            "recv" => {
                let from = record["from"].as_str().unwrap();
                assert_eq!(from, game.current_name(), "{name} #{seq}");
                let reply = match read_reply(record["raw"].as_str().unwrap()) {
                    Ok(reply) => reply,
                    Err(rule) => {
                        rejected = Some(rule.id);
                        continue;
                    }
                };
                assert_eq!(reply.datum.to_string(), record["datum"], "{name} #{seq}");
                let play = classify(&reply.datum).expect("a well-formed play");
                assert_eq!(play.to_string(), record["datum"], "{name} #{seq}");
                if matches!(play, Play::Clean(_)) {
                    // The next hand of this seat reveals the draw order.
                    if let Some(next) = sends_to(from, i) {
                        let draws = draws_of(&next);
                        let seat = game.current;
                        let in_deck = game.players[seat].deck.len().min(draws.len());
                        assert!(
                            game.stack_deck(seat, &draws[..in_deck]),
                            "{name} #{seq}: the deck cannot yield {draws:?}"
                        );
                        if in_deck < draws.len() {
                            shuffler.draws.push_back(draws[in_deck..].to_vec());
                        }
                    }
                }
                let seat = game.current;
                match game.apply(play, &mut shuffler) {
                    Ok(outcome) => {
                        plays += 1;
                        let n = names.len();
                        let moved = Notification::Moved {
                            name: names[seat].to_string(),
                            play,
                        }
                        .to_string();
                        // Every other seat, in seat order after the player.
                        for k in 1..n {
                            expected.push_back((names[(seat + k) % n].to_string(), moved.clone()));
                        }
                        if !matches!(outcome, Outcome::GameOver(_)) {
                            expected.push_back((
                                game.current_name().to_string(),
                                Notification::Move(game.snapshot()).to_string(),
                            ));
                        }
                    }
                    Err(illegal) => rejected = Some(illegal.rule.id),
                }
                assert_eq!(shuffler.mismatch, None, "{name} #{seq}");
            }
            "result" => {
                assert!(game.ended.is_some(), "{name}: result before the end");
                for (seat, score) in game.scores().iter().enumerate() {
                    assert_eq!(
                        record["scores"][names[seat]].as_i64(),
                        Some(i64::from(*score)),
                        "{name}: score of {}",
                        names[seat]
                    );
                }
                let winners: Vec<&str> = game.winners().iter().map(|&s| names[s]).collect();
                let recorded: Vec<&str> = record["winners"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|v| v.as_str().unwrap())
                    .collect();
                assert_eq!(winners, recorded, "{name}: winners");
            }
            "abort" => assert!(rejected.is_some(), "{name}: the engine accepted the play"),
            "exit" => {}
            other => panic!("{name}: unknown record type {other}"),
        }
    }
    if rejected.is_none() {
        assert!(expected.is_empty(), "{name}: unsent messages {expected:?}");
    }
    Replayed {
        sends,
        plays,
        ending: game.ended,
        rejected,
        scores: game.scores(),
    }
}

#[test]
fn the_two_player_game_replays_state_by_state() {
    let r = replay("game-2p-seed1.jsonl");
    assert_eq!(r.ending, Some(Ending::ProvincesGone));
    assert_eq!(r.rejected, None);
    assert_eq!(r.scores, vec![27, 27]);
    println!(
        "game-2p-seed1: {} sends and {} plays matched",
        r.sends, r.plays
    );
    assert!(r.plays > 200);
}

#[test]
fn the_three_player_game_replays_state_by_state() {
    let r = replay("game-3p-seed4.jsonl");
    assert_eq!(r.ending, Some(Ending::ProvincesGone));
    assert_eq!(r.rejected, None);
    assert_eq!(r.scores, vec![27, 33, 21]);
    println!(
        "game-3p-seed4: {} sends and {} plays matched",
        r.sends, r.plays
    );
    assert!(r.plays > 200);
}

#[test]
fn the_aborted_games_stop_at_the_rejected_play_with_its_rule() {
    for (file, rule) in [
        ("abort-bare-clean.jsonl", &cat::CLEAN_CARD_REQUIRED),
        ("abort-add-after-buy.jsonl", &cat::ADD_NO_BUYS),
        ("abort-bot-exits.jsonl", &cat::IO_CRASH),
    ] {
        let r = replay(file);
        assert_eq!(r.rejected, Some(rule.id), "{file}");
        assert_eq!(r.ending, None, "{file}");
    }
}

/// The sample players' whole stdout is their plays back to back with no
/// separator (`(add copper)(add copper)(buy silver)…`): framed as one
/// stream, in one write or byte by byte, it yields the recorded plays.
#[test]
fn a_players_whole_output_frames_into_its_recorded_plays() {
    for file in ["game-2p-seed1.jsonl", "game-3p-seed4.jsonl"] {
        let records = read_jsonl(file);
        let seat = records[0]["players"][1].as_str().unwrap();
        let recvs: Vec<&Value> = records
            .iter()
            .filter(|r| r["type"] == "recv" && r["from"] == seat)
            .collect();
        let stream: String = recvs.iter().map(|r| r["raw"].as_str().unwrap()).collect();
        let recorded: Vec<&str> = recvs.iter().map(|r| r["datum"].as_str().unwrap()).collect();
        for chunk in [stream.len(), 1, 7] {
            let mut reader = Reader::new();
            let mut framed = Vec::new();
            for piece in stream.as_bytes().chunks(chunk) {
                let mut rest = piece;
                loop {
                    let (n, outcome) = reader.feed(rest);
                    rest = &rest[n..];
                    match outcome {
                        Some(reply) => framed.push(reply.unwrap().datum.to_string()),
                        None => break,
                    }
                }
            }
            assert_eq!(reader.finish(), None);
            assert_eq!(framed, recorded, "{file}, chunks of {chunk}");
        }
        assert!(recorded.len() > 100);
    }
}
