//! Byte-exact replay of the complete games recorded against the reference
//! server (`tests/fixtures/evolution/games/`, see its README): every server
//! message protocheck's engine would send is compared with the recorded
//! bytes (compact JSON and one space), the clients' recorded replies are
//! framed with the streaming JSON reader and judged with the reference's
//! 1 s limit, drops happen where the reference dropped, and the final
//! scores match `results.txt`.

use protocheck::games::evolution::action4::Action4;
use protocheck::games::evolution::engine::{Dealer, FeedOption};
use protocheck::games::evolution::feeding::{FeedingChoice, judge};
use protocheck::games::evolution::json_stream::JsonStreamReader;
use protocheck::games::evolution::messages::{Choose, Start, State, wire};
use protocheck::games::evolution::model::Species;
use serde_json::Value;
use std::path::{Path, PathBuf};

/// The reference's reply limit.
const REPLY_LIMIT: f64 = 1.0;

fn game_dir(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/evolution/games")
        .join(name)
}

/// One recorded connection.
struct Conn {
    /// `(time, offset after the chunk)` for each server → client read.
    to_client: Vec<(f64, usize)>,
    sent: Vec<u8>,
    /// The client's values with the time each became complete.
    replies: Vec<(Value, f64)>,
    next_reply: usize,
    /// Bytes the engine sends on this connection.
    expected: Vec<u8>,
}

impl Conn {
    fn load(path: &Path) -> Conn {
        let text = std::fs::read_to_string(path).unwrap();
        let mut reader = JsonStreamReader::default();
        let (mut to_client, mut sent, mut replies) = (Vec::new(), Vec::new(), Vec::new());
        let drain = |r: &mut JsonStreamReader, t: f64, out: &mut Vec<(Value, f64)>| {
            while let Ok(Some(frame)) = r.next_frame() {
                out.push((frame.value, t));
            }
        };
        for line in text.lines() {
            let event: Value = serde_json::from_str(line).unwrap();
            let t = event["t"].as_f64().unwrap();
            let client = event["dir"] == "C->S";
            match (client, event["bytes"].as_str()) {
                (true, Some(bytes)) => {
                    reader.feed(bytes.as_bytes());
                    drain(&mut reader, t, &mut replies);
                }
                (true, None) => {
                    reader.close();
                    drain(&mut reader, t, &mut replies);
                }
                (false, Some(bytes)) => {
                    sent.extend_from_slice(bytes.as_bytes());
                    to_client.push((t, sent.len()));
                }
                (false, None) => {}
            }
        }
        Conn {
            to_client,
            sent,
            replies,
            next_reply: 0,
            expected: Vec::new(),
        }
    }

    /// When the server finished writing the bytes sent so far (by the engine).
    fn written_at(&self) -> Option<f64> {
        let end = self.expected.len();
        self.to_client.iter().find(|(_, o)| *o >= end).map(|c| c.0)
    }

    fn send(&mut self, bytes: Vec<u8>) {
        self.expected.extend(bytes);
    }

    /// The reply to the request just sent: the next value on the stream, if
    /// it was complete within the limit.
    fn reply(&mut self) -> Option<Value> {
        let asked = self.written_at()?;
        let (value, at) = self.replies.get(self.next_reply)?.clone();
        self.next_reply += 1;
        (at <= asked + REPLY_LIMIT).then_some(value)
    }
}

struct Replay {
    conns: Vec<Conn>,
    /// Connection index of each player id (id = seat in the first turn).
    conn_of: Vec<usize>,
    names: Vec<String>,
    dealer: Dealer,
    drops: Vec<(String, &'static str)>,
}

impl Replay {
    fn conn(&mut self, id: u64) -> &mut Conn {
        &mut self.conns[self.conn_of[id as usize]]
    }

    fn others_boards(d: &Dealer, p: usize) -> Vec<Vec<Species>> {
        d.others(p)
            .into_iter()
            .map(|o| d.players[o].boards.clone())
            .collect()
    }

    fn turn(&mut self) {
        self.dealer.step1();
        for p in 0..self.dealer.players.len() {
            let pl = &self.dealer.players[p];
            let msg = wire(&Start(
                self.dealer.watering_hole,
                pl.bag,
                pl.boards.clone(),
                pl.hand.clone(),
            ));
            let id = pl.id;
            self.conn(id).send(msg);
        }
        let mut actions = Vec::new();
        let mut p = 0;
        while p < self.dealer.players.len() {
            let d = &self.dealer;
            let before: Vec<Vec<Species>> =
                d.players[..p].iter().map(|q| q.boards.clone()).collect();
            let after: Vec<Vec<Species>> =
                d.players[p..].iter().map(|q| q.boards.clone()).collect();
            let (id, boards, hand) = (
                d.players[p].id,
                d.players[p].boards.clone(),
                d.players[p].hand.clone(),
            );
            self.conn(id).send(wire(&Choose(before, after)));
            let verdict = match self.conn(id).reply() {
                None => Err("no reply within 1 s"),
                Some(v) => Action4::parse(&v)
                    .and_then(|a| a.validate(&boards, &hand).map(|()| a))
                    .map_err(|f| f.rule.id),
            };
            match verdict {
                Ok(a) => {
                    actions.push(a);
                    p += 1;
                }
                Err(why) => {
                    self.drops.push((self.names[id as usize].clone(), why));
                    self.dealer.players.remove(p);
                }
            }
        }
        self.dealer.apply_actions(&actions);
        let mut dealer = std::mem::take(&mut self.dealer);
        let mut ask = |d: &Dealer, p: usize, _: &[FeedOption]| -> Option<FeedOption> {
            let me = &d.players[p];
            let others = Self::others_boards(d, p);
            let state = State(
                me.bag,
                me.boards.clone(),
                me.hand.clone(),
                d.watering_hole,
                others.clone(),
            );
            self.conn(me.id).send(wire(&state));
            let others: Vec<&[Species]> = others.iter().map(Vec::as_slice).collect();
            let verdict = match self.conn(me.id).reply() {
                None => Err("no reply within 1 s"),
                Some(v) => FeedingChoice::parse(&v)
                    .and_then(|c| judge(c, &me.boards, &others))
                    .map(|j| j.choice)
                    .map_err(|f| f.rule.id),
            };
            verdict
                .map_err(|why| self.drops.push((self.names[me.id as usize].clone(), why)))
                .ok()
        };
        dealer.feeding_cycle(&mut ask);
        dealer.cleanup();
        dealer.rotate();
        self.dealer = dealer;
    }
}

/// Replay one game; returns the drops (name, reason).
fn replay(name: &str) -> Vec<(String, &'static str)> {
    let dir = game_dir(name);
    let mut conns: Vec<Conn> = (1..)
        .map(|i| dir.join(format!("conn-{i}.jsonl")))
        .take_while(|p| p.exists())
        .map(|p| Conn::load(&p))
        .collect();
    // Seated: sign-up was a string. The server reads sign-ups one at a time
    // in accept order (= connection number; the relay's clock cannot order
    // them), and seats in reverse: the last to sign up plays first.
    let mut signed: Vec<(usize, usize, String)> = conns
        .iter()
        .enumerate()
        .filter_map(|(i, c)| {
            let (v, _) = c.replies.first()?;
            let name = v.as_str()?.to_string();
            Some((i, i, name))
        })
        .collect();
    signed.reverse();
    for (_, i, _) in &signed {
        conns[*i].send(b"\"ok\" ".to_vec());
        conns[*i].next_reply = 1;
    }
    let names: Vec<String> = signed
        .iter()
        .enumerate()
        .map(|(seat, (_, _, n))| format!("{n}#{}", seat + 1))
        .collect();
    let mut r = Replay {
        conns,
        conn_of: signed.iter().map(|s| s.1).collect(),
        names,
        dealer: Dealer::new(0..signed.len() as u64),
        drops: Vec::new(),
    };
    while !r.dealer.over_reference() {
        r.turn();
    }
    for (i, c) in r.conns.iter().enumerate() {
        let common = c
            .expected
            .iter()
            .zip(&c.sent)
            .take_while(|(a, b)| a == b)
            .count();
        assert!(
            c.expected == c.sent,
            "{name} conn-{}: first difference at byte {common}\n engine:   {}\n recorded: {}",
            i + 1,
            String::from_utf8_lossy(
                &c.expected[common.saturating_sub(60)..(common + 100).min(c.expected.len())]
            ),
            String::from_utf8_lossy(
                &c.sent[common.saturating_sub(60)..(common + 100).min(c.sent.len())]
            ),
        );
    }
    let results = std::fs::read_to_string(dir.join("results.txt")).unwrap();
    let mut ranked = 0;
    for line in results.lines().filter(|l| l.contains("player id:")) {
        let (who, score) = line
            .split_once(" player id: ")
            .unwrap()
            .1
            .rsplit_once(" score: ")
            .unwrap();
        let seat = r
            .names
            .iter()
            .position(|n| n == who)
            .unwrap_or_else(|| panic!("{name}: {who}"));
        let player = r
            .dealer
            .players
            .iter()
            .find(|p| p.id == seat as u64)
            .unwrap();
        assert_eq!(
            Dealer::score_reference(player).to_string(),
            score,
            "{name}: {who}"
        );
        ranked += 1;
    }
    assert_eq!(ranked, r.dealer.players.len(), "{name}: ranked players");
    r.drops
}

#[test]
fn reference_clients_only_3_to_8_players() {
    for game in ["ref-3p", "ref-4p", "ref-5p", "ref-6p", "ref-7p", "ref-8p"] {
        assert_eq!(replay(game), vec![], "{game}");
    }
}

#[test]
fn sign_ups_that_are_not_strings_are_never_seated() {
    assert_eq!(replay("signup-rejects"), vec![]);
}

#[test]
fn an_illegal_action4_and_a_silent_client_are_dropped() {
    assert_eq!(
        replay("drops-illegal-and-silent"),
        vec![
            (
                "bad pop growth 0#3".to_string(),
                "evolution.choose.board-out-of-range"
            ),
            ("bad feed 1#4".to_string(), "no reply within 1 s"),
        ]
    );
}

#[test]
fn an_undelimited_number_is_dropped_at_the_limit() {
    assert_eq!(
        replay("undelimited-number"),
        vec![("jack#3".to_string(), "no reply within 1 s")]
    );
}

#[test]
fn the_tagged_growth_format_is_dropped() {
    assert_eq!(
        replay("tagged-growth"),
        vec![("hi#3".to_string(), "evolution.choose.tagged-growth")]
    );
}
