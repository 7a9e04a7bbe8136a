//! Golden replays: the six Kalah(7,7) games recorded from the Manchester
//! reference engine, copied from the project's shared oracle folder into
//! `tests/fixtures/kalah/oracle/` (see `tests/fixtures/kalah/README.md`), so
//! the test runs in a clone of this repository alone.
//!
//! Each agent's own recorded output (`raw/<game>.pN.agent_to_engine.txt`) is
//! fed through protocheck's rule engine and message formatter, with the
//! engine's sending order rebuilt here from its fixed rules. Every
//! engine→agent line must then equal the recording byte for byte, both in the
//! global order of `<game>.jsonl` and in each agent's raw stream, and the
//! result must match `games.json`. This is the end-to-end check that what
//! protocheck sends a bot is what the reference would send it.

use protocheck::games::kalah::grammar::{
    BotMessage, Turn, classify_bot_line, format_change, format_end, format_start,
};
use protocheck::games::kalah::rules::{Move, Position, Side};
use serde::Deserialize;
use serde_json::Value;
use std::path::{Path, PathBuf};

const ORACLE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/kalah/oracle");

/// One line of `<game>.jsonl`.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
struct Record {
    seq: usize,
    from: String,
    to: String,
    /// The side of the agent named in `from`/`to` when the message was sent.
    side: String,
    line: String,
}

fn oracle_dir() -> PathBuf {
    let dir = PathBuf::from(ORACLE);
    assert!(
        dir.join("games.json").is_file(),
        "the Kalah oracle data is missing: expected {}/games.json (it is part \
         of the repository; see tests/fixtures/kalah/README.md)",
        dir.display()
    );
    dir
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

/// The LF-terminated lines of a raw stream; every message ends in exactly
/// one LF and none contains a CR (README), which this asserts too.
fn raw_lines(path: &Path) -> Vec<String> {
    let text = read(path);
    assert!(!text.contains('\r'), "{} contains a CR", path.display());
    let body = text
        .strip_suffix('\n')
        .unwrap_or_else(|| panic!("{} does not end with LF", path.display()));
    body.split('\n').map(str::to_string).collect()
}

fn player(i: usize) -> String {
    format!("p{}", i + 1)
}

/// What the replay produced, plus statistics the README states about the data.
struct Replay {
    records: Vec<Record>,
    /// Everything protocheck would have written to p1 and p2.
    to_agent: [Vec<String>; 2],
    position: Position,
    /// The side each player ends on.
    side_of: [Side; 2],
    messages: [usize; 2],
    /// Captures that did not end the game, and those that did.
    captures: usize,
    final_captures: usize,
    lap_captures: usize,
    extra_turns: usize,
    /// `(seq of the agent message, seeds sown, captured)` for every move.
    moves: Vec<(usize, u32, u32)>,
}

impl Replay {
    /// The player now on `side`.
    fn on(&self, side: Side) -> usize {
        self.side_of.iter().position(|&s| s == side).unwrap()
    }

    /// Records an engine message to player `to`, with `to`'s current side.
    fn emit(&mut self, to: usize, line: String) {
        self.records.push(Record {
            seq: self.records.len() + 1,
            from: "engine".into(),
            to: player(to),
            side: self.side_of[to].as_str().into(),
            line: line.clone(),
        });
        self.to_agent[to].push(line);
    }

    fn emit_to_side(&mut self, side: Side, line: String) {
        self.emit(self.on(side), line);
    }
}

/// Plays the game: whoever is to move sends its next recorded line, and the
/// engine's messages follow in the reference's fixed order (README, "How the
/// global order was obtained"; kalah.md §4).
fn replay(game: &str, agent_lines: [Vec<String>; 2], holes: usize, seeds: u32) -> Replay {
    let mut r = Replay {
        records: Vec::new(),
        to_agent: [Vec::new(), Vec::new()],
        position: Position::new(holes, seeds),
        side_of: [Side::South, Side::North], // p1 always starts as South
        messages: [0, 0],
        captures: 0,
        final_captures: 0,
        lap_captures: 0,
        extra_turns: 0,
        moves: Vec::new(),
    };
    // START goes to North, then South.
    r.emit_to_side(Side::North, format_start(Side::North));
    r.emit_to_side(Side::South, format_start(Side::South));

    while !r.position.is_over() {
        let p = r.on(r.position.to_move());
        let line = agent_lines[p].get(r.messages[p]).unwrap_or_else(|| {
            panic!(
                "{game}: {} is to move but its recorded output has only {} lines",
                player(p),
                r.messages[p]
            )
        });
        r.messages[p] += 1;
        r.records.push(Record {
            seq: r.records.len() + 1,
            from: player(p),
            to: "engine".into(),
            side: r.side_of[p].as_str().into(), // a SWAP is recorded with the old side
            line: line.clone(),
        });
        let seq = r.records.len();
        let msg = classify_bot_line(line.as_bytes(), holes)
            .unwrap_or_else(|e| panic!("{game} seq {seq}: `{line}` rejected: {}", e.detail));
        assert!(
            !matches!(
                msg,
                BotMessage::Move {
                    non_canonical: true,
                    ..
                }
            ),
            "{game} seq {seq}: `{line}` is not canonical"
        );
        let mv = msg.to_move();
        let out = r
            .position
            .play(mv)
            .unwrap_or_else(|e| panic!("{game} seq {seq}: {mv:?} is illegal: {e:?}"));
        if mv == Move::Swap {
            // The players exchange sides; only the original starter, now
            // North, is told. The swapper gets nothing.
            r.side_of.swap(0, 1);
            let starter = r.on(Side::North);
            let text = format_change(Move::Swap, r.position.board(), Turn::You);
            r.emit(starter, text);
            continue;
        }
        r.captures += usize::from(out.captured > 0 && !out.game_over);
        r.final_captures += usize::from(out.captured > 0 && out.game_over);
        r.lap_captures += usize::from(out.captured > 0 && out.sown == 2 * holes as u32 + 1);
        r.extra_turns += usize::from(out.extra_turn && !out.game_over);
        r.moves.push((seq, out.sown, out.captured));
        // The same CHANGE to both: first to the agent that does not move next,
        // then to the one that does. After the final move "next" is still
        // the side the rules would give the move to, and both get `END`.
        let next = r.position.to_move();
        for recipient in [r.on(next.opposite()), r.on(next)] {
            let turn = match () {
                _ if out.game_over => Turn::End,
                _ if r.side_of[recipient] == next => Turn::You,
                _ => Turn::Opp,
            };
            let text = format_change(mv, r.position.board(), turn);
            r.emit(recipient, text);
        }
    }
    // After a regular end, `END` goes to North, then South (sides after any swap).
    r.emit_to_side(Side::North, format_end().to_string());
    r.emit_to_side(Side::South, format_end().to_string());

    for (p, lines) in agent_lines.iter().enumerate() {
        assert_eq!(
            r.messages[p],
            lines.len(),
            "{game}: {} wrote lines after the game ended",
            player(p)
        );
    }
    r
}

/// Compares record lists and reports the first difference with context, so a
/// failure says which message of which game went wrong.
fn assert_same_records(game: &str, got: &[Record], want: &[Record]) {
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        if g != w {
            let from = i.saturating_sub(3);
            let context: Vec<String> = want[from..i].iter().map(|r| format!("  {r:?}")).collect();
            panic!(
                "{game}: first difference at record {}\n  after:\n{}\n  protocheck: {g:?}\n  recorded:   {w:?}",
                i + 1,
                context.join("\n")
            );
        }
    }
    assert_eq!(got.len(), want.len(), "{game}: number of records");
}

fn check_game(dir: &Path, index: &Value, entry: &Value) -> Replay {
    let game = entry["name"].as_str().expect("game name");
    let holes = index["holes"].as_u64().expect("holes") as usize;
    let seeds = index["seeds"].as_u64().expect("seeds") as u32;
    let raw = |p: usize, dir_name: &str| {
        dir.join("raw")
            .join(format!("{game}.{}.{dir_name}.txt", player(p)))
    };

    let agent_lines = [0, 1].map(|p| raw_lines(&raw(p, "agent_to_engine")));
    let r = replay(game, agent_lines, holes, seeds);

    // The global order, byte for byte.
    let recorded: Vec<Record> = read(&dir.join(format!("{game}.jsonl")))
        .lines()
        .enumerate()
        .map(|(i, l)| {
            serde_json::from_str(l).unwrap_or_else(|e| panic!("{game}.jsonl line {}: {e}", i + 1))
        })
        .collect();
    assert_same_records(game, &r.records, &recorded);

    // Each agent's raw stream, byte for byte.
    for p in 0..2 {
        let path = raw(p, "engine_to_agent");
        let want = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let got: Vec<u8> = r.to_agent[p]
            .iter()
            .flat_map(|l| format!("{l}\n").into_bytes())
            .collect();
        if got != want {
            let want_lines = raw_lines(&path);
            let i = r.to_agent[p]
                .iter()
                .zip(&want_lines)
                .position(|(g, w)| g != w);
            panic!(
                "{game}: stream to {} differs from {} (first differing line: {:?}; {} lines vs {} recorded)",
                player(p),
                path.display(),
                i.map(|i| (i + 1, &r.to_agent[p][i], &want_lines[i])),
                r.to_agent[p].len(),
                want_lines.len()
            );
        }
    }

    // The result, as games.json has it.
    let board = r.position.board();
    let stores = &entry["final_stores"];
    assert_eq!(
        u64::from(board.store(Side::North)),
        stores["North"].as_u64().unwrap(),
        "{game}: North store"
    );
    assert_eq!(
        u64::from(board.store(Side::South)),
        stores["South"].as_u64().unwrap(),
        "{game}: South store"
    );
    assert_eq!(
        board.total(),
        2 * holes as u32 * seeds,
        "{game}: seeds conserved"
    );
    assert_eq!(
        Value::Bool(r.position.swapped()),
        entry["swap"],
        "{game}: swap"
    );
    for p in 0..2 {
        let name = player(p);
        assert_eq!(
            entry["final_sides"][&name].as_str(),
            Some(r.side_of[p].as_str()),
            "{game}: final side of {name}"
        );
        let counted = &entry["engine_result"]["messages_per_agent"][&name];
        assert_eq!(
            counted.as_u64(),
            Some(r.messages[p] as u64),
            "{game}: messages of {name}"
        );
    }
    assert_eq!(
        entry["agent_messages"].as_u64(),
        Some((r.messages[0] + r.messages[1]) as u64),
        "{game}"
    );
    assert_eq!(
        entry["records"].as_u64(),
        Some(r.records.len() as u64),
        "{game}: records"
    );
    // "WINNER: Player 2" names the engine's command-line agent, whatever its side.
    let winner = entry["engine_result"]["winner"].as_str().expect("winner");
    let winner_player: usize = winner
        .strip_prefix("WINNER: Player ")
        .and_then(|n| n.parse().ok())
        .expect(winner);
    assert_eq!(
        r.position.winner(),
        Some(r.side_of[winner_player - 1]),
        "{game}: {winner}"
    );
    let score = entry["engine_result"]["score"].as_str().expect("score");
    let diff = board.store(Side::North).abs_diff(board.store(Side::South));
    assert_eq!(score, format!("SCORE: {diff}"), "{game}");
    r
}

#[test]
fn golden_games_replay_byte_for_byte() {
    let dir = oracle_dir();
    let index: Value =
        serde_json::from_str(&read(&dir.join("games.json"))).expect("games.json is JSON");
    let games = index["games"]
        .as_array()
        .expect("games.json has a games array");
    assert_eq!(games.len(), 6, "games.json lists six games");
    let mut jsonl: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter_map(|n| n.strip_suffix(".jsonl").map(str::to_string))
        .collect();
    jsonl.sort();
    let mut listed: Vec<String> = games
        .iter()
        .map(|g| g["name"].as_str().unwrap().to_string())
        .collect();
    listed.sort();
    assert_eq!(
        jsonl, listed,
        "every recorded game is in games.json and vice versa"
    );

    let (mut captures, mut final_captures, mut lap_captures) = (0, 0, 0);
    for entry in games {
        let r = check_game(&dir, &index, entry);
        captures += r.captures;
        final_captures += r.final_captures;
        lap_captures += r.lap_captures;
        match entry["name"].as_str().unwrap() {
            "g1-ref-vs-ref" => {
                // Two 15-seed moves ending with a lap capture, at seq 33 and 75.
                for seq in [33, 75] {
                    let m = r
                        .moves
                        .iter()
                        .find(|m| m.0 == seq)
                        .expect("a move at that seq");
                    assert!(m.1 == 15 && m.2 > 0, "g1 seq {seq}: {m:?}");
                }
            }
            "g6-scripted-capture-empties-opponent" => {
                assert_eq!(r.final_captures, 1, "g6 ends with a capture");
            }
            "g2-ref-vs-jimmy-swap" => assert_eq!(r.extra_turns, 17, "g2 has 17 extra turns"),
            "g5-group35-vs-mankalah" => {
                let m = r.moves.iter().find(|m| m.0 == 207).expect("g5 seq 207");
                assert_eq!((m.1, m.2), (30, 0), "g5 seq 207: two full laps, no capture");
                for laps in [15, 17, 24, 30] {
                    assert!(
                        r.moves.iter().any(|m| m.1 == laps),
                        "g5 has a {laps}-seed move"
                    );
                }
            }
            _ => {}
        }
    }
    // README: "Between them the games contain 70 captures, 5 of them made by a
    // move of exactly 15 seeds". That count leaves out g6's last move, the
    // capture that empties South's row and ends the game (kalah.md §3.9 calls
    // it a capture, and every byte of it is reproduced above): 70 + 1.
    assert_eq!((captures, final_captures, lap_captures), (70, 1, 5));
}
