//! Shared player of the sample Dominion v1 bots (S-expression protocol,
//! `shared/rules/dominion-sexp.md`).
//!
//! Every Dominion sample bot is this one player, [`run`] with a [`Flaw`].
//! With [`Flaw::None`] it follows the rules document exactly; every other
//! variant changes exactly one behaviour, the one documented on the variant
//! (and at the top of the example's file).
//!
//! Input is read as a byte stream with protocheck's own streaming reader
//! (`protocheck::games::dominion_sexp::sexp::Reader`), so notifications may
//! come in any framing: no trailing newline, several per write, split across
//! writes, padded or spread over lines, with comments or brackets. A
//! `(move state)` gets exactly one play; `(moved name play)` gets nothing.
//! The state is read with the library's `State::from_datum` (it knows the
//! later kingdom cards the reference server stocks, so the player also runs
//! on Flatt's server) and every play the strategy picks is checked with the
//! library's rule engine (`DominionTable::from_state(..).check(..)`) before it is
//! written.
//!
//! Command line (or environment, for drivers that cannot pass arguments,
//! such as Flatt's `text-driver.rkt`):
//!
//! * `-seed <n>` / `--seed <n>` (`DSX_BOT_SEED`): seed of the choices left to
//!   chance (copper buys at 0–2 coins, which card `(clean card)` shows). The
//!   same seed and the same notifications give the same plays. Default 0.
//! * `-framing <style>` / `--framing <style>` (`DSX_BOT_FRAMING`): how a play
//!   is written. `newline` (default): `(add copper)` LF. `bare`: no newline,
//!   as Flatt's players write. `split`: `(add` flushed, 20 ms pause, then
//!   LF ` copper)` LF. `padded`: `  (  add` LF HT `copper )` LF. All four are
//!   conforming (§1.2).
//!
//! At end of input the player exits 0 without writing anything.

// Each example uses one variant and a subset of the helpers.
#![allow(dead_code)]

mod strategy;

use protocheck::games::dominion_sexp::messages::State;
use protocheck::games::dominion_sexp::sexp::{Datum, Reader, read_one};
use std::io::{self, BufWriter, Read, Write};
use std::process;
use std::time::Duration;
use strategy::Player;

/// The one thing a sample bot does wrong.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Flaw {
    /// Fully conforming.
    None,
    /// Never flushes (like [`Flaw::NoFlush`]), and waits for input the way
    /// GHC's I/O manager does: asleep in `poll()` on stdin with a timeout,
    /// in a loop, reading only once stdin is readable; so it is never
    /// blocked in `read` and uses no CPU while its play is due.
    PollNoFlush,
    /// Like [`Flaw::LineReader`], but each line it cannot parse gets a
    /// parse error on stdout, written without a flush (its plays are
    /// flushed): the errors come out only when it exits.
    LineReaderStdoutErrors,
    /// Never adds its treasures: buys with the value of the treasures in its
    /// hand as if they counted automatically (§3.3: coins come only from
    /// `add`), e.g. `(buy silver)` at `(coins 0)`.
    UnplayedCoins,
    /// After its buy, spends what is left: buys a copper (cost 0) with
    /// `(buys 0)`.
    SecondBuy,
    /// Adds treasures one at a time and buys as soon as it can afford a silver
    /// or better, then adds the treasures still in hand (`(add …)` with
    /// `(buys 0)`, decision D2).
    AddAfterBuy,
    /// Off by one in its add loop: after adding every treasure in hand it
    /// adds one more copper.
    ExtraAdd,
    /// Mine trashes its cheapest treasure and gains the most expensive
    /// treasure in the supply, ignoring the "cost + 3" limit: copper → gold.
    MineToGold,
    /// Plays treasures before actions: with a mine and a treasure in hand it
    /// first adds one treasure, then plays the mine (actions are 0 after an
    /// add).
    MineAfterAdd,
    /// Looks for the mine in the supply instead of the hand: plays
    /// `(act mine copper silver)` without a mine in hand.
    MineFromSupply,
    /// Thinks mine trashes any card, as remodel does: with a mine and an
    /// estate in hand, `(act mine estate silver)`.
    MineAnyCard,
    /// Ends every turn with a bare `(clean)`, cards in hand or not.
    BareClean,
    /// Shows at clean-up the first card of the hand it was dealt at the start
    /// of the turn, although that card may have been added since.
    StaleClean,
    /// Writes the keyword capitalised: `(Add copper)`, `(Buy silver)`.
    Capitalised,
    /// A version-2 player: buys `village` (cost 3) where it would buy silver.
    V2Buys,
    /// Shows its whole remaining hand at clean-up: `(clean estate estate)`.
    ShowHand,
    /// Writes every play as a string literal, `"(add copper)"` (the
    /// printed `repr` of the text).
    QuotedString,
    /// Writes a `#`-comment line before each play (`# thinking` LF), shell
    /// style; S-expressions have no such comment.
    HashComment,
    /// Writes all its adds at once in one write, `(add copper)(add copper)…`,
    /// then stays silent for the `(move …)`s those extra plays answer.
    AllAddsAtOnce,
    /// Acknowledges every `(moved name play)` by echoing the play.
    AnswersMoved,
    /// Writes through a buffer that is flushed only at exit.
    NoFlush,
    /// Exits with status 0 right after its first `(clean …)`.
    ExitsAfterTurn,
    /// Ignores end of input: keeps running (idle) after stdin is closed.
    IgnoresEof,
    /// Writes plays in square brackets, `[add copper]`.
    Brackets,
    /// Plays treasures with `act`, as it plays actions: `(act copper)`
    /// instead of `(add copper)`.
    ActTreasures,
    /// Holding a mine, always plays `(act mine silver gold)` without checking
    /// that a silver is in hand.
    MineUnchecked,
    /// Follows the document's "a name is a sequence of letters" literally:
    /// a state whose player names hold other characters (`0-player-v1`) is
    /// refused (logged on stderr, no reply).
    LettersOnlyNames,
    /// Reads one notification per input line: a notification spread over
    /// several lines is not understood (logged on stderr, no reply).
    LineReader,
    /// Once a state's supply holds fewer estates and duchies than the first
    /// state's did (someone gained one: this player buys duchies only late,
    /// big money never), opens each turn with `(buy province)` before
    /// adding any treasure: a bug only a long game reaches (the one
    /// shrinking makes shorter).
    LateBlunder,
}

/// How a conforming play is laid out on the wire (all conform to §1.2).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Framing {
    Newline,
    Bare,
    Split,
    Padded,
}

struct Options {
    seed: u64,
    framing: Framing,
}

fn parse_framing(s: &str) -> Option<Framing> {
    match s {
        "newline" => Some(Framing::Newline),
        "bare" => Some(Framing::Bare),
        "split" => Some(Framing::Split),
        "padded" => Some(Framing::Padded),
        _ => None,
    }
}

/// Arguments first, then the environment; unknown arguments are ignored
/// (reported on stderr) so that a driver's extra arguments do no harm.
fn options(name: &str) -> Options {
    let mut seed = std::env::var("DSX_BOT_SEED")
        .ok()
        .and_then(|s| s.trim().parse().ok())
        .unwrap_or(0);
    let mut framing = std::env::var("DSX_BOT_FRAMING")
        .ok()
        .and_then(|s| parse_framing(s.trim()))
        .unwrap_or(Framing::Newline);
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut i = 0;
    while i < args.len() {
        let (key, inline) = match args[i].split_once('=') {
            Some((k, v)) => (k, Some(v.to_string())),
            None => (args[i].as_str(), None),
        };
        let value = |i: &mut usize| {
            inline.clone().or_else(|| {
                *i += 1;
                args.get(*i).cloned()
            })
        };
        match key {
            "-seed" | "--seed" => match value(&mut i).and_then(|v| v.parse().ok()) {
                Some(s) => seed = s,
                None => eprintln!("{name}: -seed needs a number; keeping {seed}"),
            },
            "-framing" | "--framing" => match value(&mut i).as_deref().and_then(parse_framing) {
                Some(f) => framing = f,
                None => eprintln!("{name}: -framing is newline, bare, split or padded"),
            },
            other => eprintln!("{name}: ignoring argument {other:?}"),
        }
        i += 1;
    }
    Options { seed, framing }
}

/// Where plays go: flushed after every reply, except with [`Flaw::NoFlush`].
struct Out {
    writer: BufWriter<io::Stdout>,
    flush: bool,
}

impl Out {
    fn write(&mut self, pieces: &[&[u8]], pause_between: bool) {
        for (i, piece) in pieces.iter().enumerate() {
            if i > 0 && pause_between {
                std::thread::sleep(Duration::from_millis(20));
            }
            let written = self.writer.write_all(piece).and_then(|()| {
                if self.flush {
                    self.writer.flush()
                } else {
                    Ok(())
                }
            });
            if written.is_err() {
                // The reader is gone: nothing more to do.
                process::exit(1);
            }
        }
    }
}

/// Runs the player until end of input.
pub fn run(name: &str, flaw: Flaw) {
    let options = options(name);
    let mut player = Player::new(flaw, options.seed);
    let mut out = Out {
        // Large enough that a whole game of plays stays in the buffer.
        writer: BufWriter::with_capacity(1 << 16, io::stdout()),
        flush: !matches!(flaw, Flaw::NoFlush | Flaw::PollNoFlush),
    };
    let mut stdin = io::stdin().lock();
    let mut buf = [0u8; 8192];
    let mut reader = Reader::new();
    let mut line = Vec::new();
    loop {
        if flaw == Flaw::PollNoFlush {
            wait_readable();
        }
        let n = match stdin.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => {
                eprintln!("{name}: cannot read stdin: {e}");
                process::exit(1);
            }
        };
        if matches!(flaw, Flaw::LineReader | Flaw::LineReaderStdoutErrors) {
            for &b in &buf[..n] {
                if b != b'\n' {
                    line.push(b);
                    continue;
                }
                let text = String::from_utf8_lossy(&line).into_owned();
                line.clear();
                match read_one(&text) {
                    Ok(reply) => handle(name, &mut player, &mut out, options.framing, &reply.datum),
                    Err(e) if flaw == Flaw::LineReaderStdoutErrors => {
                        // Unflushed: it stays in the buffer until the next
                        // play or the exit.
                        let _ = writeln!(out.writer, "parse error: {e}");
                    }
                    Err(e) => eprintln!("{name}: cannot parse line {text:?}: {e}"),
                }
            }
            continue;
        }
        let mut rest = &buf[..n];
        loop {
            let (used, outcome) = reader.feed(rest);
            rest = &rest[used..];
            match outcome {
                None => break,
                Some(Ok(reply)) => {
                    handle(name, &mut player, &mut out, options.framing, &reply.datum)
                }
                Some(Err(e)) => {
                    eprintln!("{name}: cannot read a notification: {e}");
                    process::exit(2);
                }
            }
        }
    }
    match reader.finish() {
        Some(Ok(reply)) => handle(name, &mut player, &mut out, options.framing, &reply.datum),
        Some(Err(e)) => eprintln!("{name}: input ended inside a notification: {e}"),
        None => {}
    }
    if flaw == Flaw::IgnoresEof {
        loop {
            std::thread::sleep(Duration::from_millis(100));
        }
    }
    // Dropping `out` flushes what NoFlush kept.
}

/// Sleep in `poll()` with a 100 ms timeout until stdin is readable (or at
/// end of input, or on an error: the read then tells).
fn wait_readable() {
    loop {
        let mut fd = libc::pollfd {
            fd: 0,
            events: libc::POLLIN,
            revents: 0,
        };
        // SAFETY: one valid pollfd, for the duration of the call.
        let ready = unsafe { libc::poll(&mut fd, 1, 100) };
        if ready != 0 {
            return;
        }
    }
}

fn handle(name: &str, player: &mut Player, out: &mut Out, framing: Framing, datum: &Datum) {
    let Datum::List(items) = datum else {
        eprintln!("{name}: ignoring {datum}: not a notification");
        return;
    };
    match (items.first().and_then(Datum::symbol), items.len()) {
        (Some("move"), 2) => {
            let state = match State::from_datum(&items[1]) {
                Ok(s)
                    if player.flaw() == Flaw::LettersOnlyNames
                        && s.players
                            .iter()
                            .any(|n| !n.chars().all(|c| c.is_ascii_alphabetic())) =>
                {
                    eprintln!("{name}: bad player name in {:?}", s.players);
                    return;
                }
                Ok(s) if !s.players.is_empty() => s,
                Ok(_) => {
                    eprintln!("{name}: a state with no players: {datum}");
                    process::exit(2);
                }
                Err(e) => {
                    eprintln!("{name}: cannot read the state: {e}");
                    process::exit(2);
                }
            };
            let replies = player.on_move(&state);
            write_replies(out, framing, player.flaw(), &replies);
            if player.flaw() == Flaw::ExitsAfterTurn && player.cleaned_once() {
                process::exit(0);
            }
        }
        (Some("moved"), 3) => {
            if player.flaw() == Flaw::AnswersMoved {
                out.write(&[format!("{}\n", items[2]).as_bytes()], false);
            }
        }
        _ => eprintln!("{name}: ignoring {datum}: neither (move state) nor (moved name play)"),
    }
}

/// Writes the plays for one `(move …)`; several only for
/// [`Flaw::AllAddsAtOnce`], then all in one write.
fn write_replies(out: &mut Out, framing: Framing, flaw: Flaw, replies: &[String]) {
    if replies.is_empty() {
        return;
    }
    if replies.len() > 1 {
        out.write(&[replies.concat().as_bytes()], false);
        return;
    }
    let play = &replies[0];
    if flaw != Flaw::None {
        // Broken bots keep the default layout; their flaw is elsewhere.
        out.write(&[format!("{play}\n").as_bytes()], false);
        return;
    }
    match framing {
        Framing::Newline => out.write(&[format!("{play}\n").as_bytes()], false),
        Framing::Bare => out.write(&[play.as_bytes()], false),
        Framing::Split => {
            // `(add copper)` → `(add` … `\n copper)\n`.
            let (head, tail) = play.split_once(' ').unwrap_or((play, ""));
            if tail.is_empty() {
                out.write(&[head.as_bytes(), b"\n"], true);
            } else {
                out.write(&[head.as_bytes(), format!("\n {tail}\n").as_bytes()], true);
            }
        }
        Framing::Padded => {
            let inner = play.trim_start_matches('(').trim_end_matches(')');
            let laid_out = inner.replacen(' ', "\n\t", 1);
            out.write(&[format!("  (  {laid_out} )\n").as_bytes()], false);
        }
    }
}
