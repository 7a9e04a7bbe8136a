//! Shared engine of the sample Kalah bots.
//!
//! Every Kalah sample bot is this one bot, [`run`] with a [`Flaw`]. With
//! [`Flaw::None`] it follows `shared/rules/kalah.md` exactly; every other
//! variant changes exactly one behaviour, the one documented on the variant.
//!
//! The bot reads the board from the state string of every `CHANGE` (it does not
//! simulate), so it works for any number of holes n = (values − 2) / 2.
//!
//! Environment variables (read by every Kalah sample bot):
//!
//! * `KALAH_BOT_SEED`: seed of the xorshift that picks among legal moves
//!   (a decimal `u64`, or any other text, which is hashed). Default fixed.
//! * `KALAH_BOT_SWAP`: `always` (swap as North whenever allowed), `never`, or
//!   unset/anything else: swap only when South opened with hole 1.
//! * `KALAH_BOT_DELAY_MS`: only for [`Flaw::Slow`], the sleep before every
//!   reply (default 3000).
//! * `KALAH_BOT_STARVED_ON_CPU`: a CPU number. The bot pins itself to that
//!   CPU with the idle scheduling policy (Linux), so the machine keeps it
//!   waiting whenever anything else wants that CPU: a test's stand-in for
//!   a bot graded on a heavily loaded machine. Ignored elsewhere.

// Each example uses one variant and a subset of the helpers.
#![allow(dead_code)]

mod simulate;

use std::io::{self, BufRead, BufWriter, Write};
use std::process;
use std::time::Duration;

/// The one thing a sample bot does wrong.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Flaw {
    /// Fully conforming.
    None,
    /// Prints holes 0-based: `MOVE;0` for hole 1, `MOVE;h-1` for hole h.
    ZeroBased,
    /// After `CHANGE;SWAP;…;YOU` it keeps reading its holes from the South row.
    /// It prefers a hole that is non-empty in the South row and empty in the
    /// North row, so it names an empty hole as soon as one exists.
    IgnoresSwap,
    /// As South, after `CHANGE;<opening>;…;OPP` for its own opening move whose
    /// last seed reached its store, it sends a second move at once.
    OpeningExtraTurn,
    /// Sends `SWAP` as its first message as South.
    SwapAsSouth,
    /// As the original North it never swaps on its first move, and sends
    /// `SWAP` as its second message.
    LateSwap,
    /// Ends every line with CR LF.
    Crlf,
    /// Prints `hello from bot` on stdout at start-up.
    Banner,
    /// Writes through a 64 KiB `BufWriter` that is only flushed at exit.
    NoFlush,
    /// Sends one more move after `CHANGE;…;END`, or after a bare `END`.
    MoveAfterEnd,
    /// Never exits after `END`: sleeps forever.
    Lingers,
    /// Hard-codes n = 7: takes the move field as the single 8th character of
    /// the line and the state as exactly 16 numbers (extra values dropped,
    /// missing ones read as 0), North row = values 1..7, South row = values
    /// 9..15.
    FixedSeven,
    /// Exits with status 3 after `END`.
    ExitNonzero,
    /// Writes 8 KiB of debug text to stderr before every reply.
    ChattyStderr,
    /// Writes holes with a plus sign: `MOVE;+3`.
    PlusSign,
    /// Sleeps `KALAH_BOT_DELAY_MS` (default 3000) before every reply.
    Slow,
    /// Exits with status 0 right after writing its 3rd message, without
    /// waiting for the `CHANGE` that answers it.
    ExitsEarly,
    /// Tracks the board itself, starting from 7 seeds per hole (n is taken
    /// from the first state string), applies the move of every `CHANGE` to
    /// it, and exits with status 1 ("board mismatch") when the state string
    /// disagrees. It still plays from the state string.
    SevenSeeds,
    /// Thinks `KALAH_BOT_DELAY_MS` (default 30) before every move, and takes
    /// every `…;OPP` for its own move as its turn again: it thinks as long,
    /// then sends another move.
    SlowOppReply,
    /// After an extra turn (`…;YOU` right after its own move) it sends its
    /// move twice, in one write.
    DoubleMoveAfterExtraTurn,
    /// As the original North it sends `SWAP` and then, at once, a move.
    MoveAfterSwap,
    /// Computes for `KALAH_BOT_CPU_MS` (default 1500) of its own CPU time
    /// before every reply, as a search would: it needs that long on an idle
    /// machine, and longer by the wall clock on a busy one.
    CpuBound,
    /// As South it waits for North's move before its own: after
    /// `START;South` it reads on and never answers.
    WaitsForever,
    /// When its input ends before `END`, prints
    /// `error: unexpected end of input` on stdout, then exits 0.
    EofMessage,
    /// Plays correctly until protocheck's store holds
    /// [`LATE_BLUNDER_STORE`] seeds or more; from then on it names the
    /// leftmost empty hole of its row, if it has one (a bug in endgame code
    /// that only a long game reaches).
    LateBlunder,
    /// Seeds its generator from the clock and, on about one reply in ten,
    /// names the leftmost empty hole of its row, if it has one: it fails at
    /// another move in every run.
    Flaky,
}

/// The store protocheck's side must reach before [`Flaw::LateBlunder`] errs.
const LATE_BLUNDER_STORE: u32 = 25;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Side {
    North,
    South,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum SwapPolicy {
    /// Swap when the opening was hole 1.
    OpeningOne,
    Always,
    Never,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Turn {
    You,
    Opp,
    End,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum MoveField {
    Hole(u32),
    Swap,
    /// Not a hole number we understand.
    Other,
}

/// What the bot decided to send.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Reply {
    Move(usize),
    Swap,
}

/// Bytes written to stderr before every reply by [`Flaw::ChattyStderr`].
const CHATTY_BYTES: usize = 8 * 1024;

struct Bot {
    flaw: Flaw,
    out: BufWriter<io::Stdout>,
    rng: u64,
    swap_policy: SwapPolicy,
    delay: Duration,
    /// CPU time to use before every reply ([`Flaw::CpuBound`]).
    cpu: Duration,
    /// Side given by START.
    original: Option<Side>,
    /// Current side (changes on a swap).
    side: Side,
    /// The bot was swapped (it received `CHANGE;SWAP;…;YOU`).
    swapped: bool,
    /// Messages written so far (moves and SWAP).
    sent: u32,
    /// `CHANGE` messages received so far.
    changes: u32,
    /// South's opening hole, as seen by the original North.
    opening: Option<u32>,
    /// The hole this bot opened with as South.
    my_opening: Option<usize>,
    /// The game is over (`CHANGE;…;END` or `END` received).
    over: bool,
    /// [`Flaw::MoveAfterEnd`] already sent its extra move.
    sent_after_end: bool,
    /// The next `CHANGE` reports this bot's own move.
    own_next: bool,
    /// Board: North holes 1..n, North store, South holes 1..n, South store.
    board: Vec<u32>,
    /// [`Flaw::SevenSeeds`]: its own board, in the same layout.
    tracked: Vec<u32>,
    /// The next `CHANGE` reports this bot's own move (it sent a MOVE since
    /// the last one), not the opponent's.
    moved_since_change: bool,
    scratch: Vec<u32>,
    chatter: Vec<u8>,
}

/// Runs the bot on stdin/stdout until `END` or EOF, then exits the process.
pub fn run(flaw: Flaw) -> ! {
    if let Ok(cpu) = std::env::var("KALAH_BOT_STARVED_ON_CPU") {
        starve_on(
            cpu.trim()
                .parse()
                .expect("KALAH_BOT_STARVED_ON_CPU: a CPU number"),
        );
    }
    let mut bot = Bot::new(flaw);
    if flaw == Flaw::Banner {
        bot.write_raw(b"hello from bot\n");
        bot.flush();
    }
    let stdin = io::stdin();
    let mut input = stdin.lock();
    let mut line: Vec<u8> = Vec::with_capacity(512);
    loop {
        line.clear();
        match input.read_until(b'\n', &mut line) {
            Ok(0) => bot.at_eof(),
            Ok(_) => bot.handle(&line),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(_) => bot.at_eof(),
        }
    }
}

/// Pin this process to `cpu` with `SCHED_IDLE`: it runs only when nothing
/// else wants that CPU.
#[cfg(target_os = "linux")]
fn starve_on(cpu: usize) {
    // SAFETY: plain system calls on this process with initialised arguments.
    unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        libc::CPU_SET(cpu, &mut set);
        assert_eq!(
            libc::sched_setaffinity(0, std::mem::size_of_val(&set), &set),
            0,
            "sched_setaffinity"
        );
        let param = libc::sched_param { sched_priority: 0 };
        assert_eq!(
            libc::sched_setscheduler(0, libc::SCHED_IDLE, &param),
            0,
            "sched_setscheduler"
        );
    }
}

#[cfg(not(target_os = "linux"))]
fn starve_on(_cpu: usize) {}

impl Bot {
    fn new(flaw: Flaw) -> Bot {
        let rng = match std::env::var("KALAH_BOT_SEED") {
            _ if flaw == Flaw::Flaky => clock_seed(),
            Ok(text) => seed_from(&text),
            Err(_) => 0x9E37_79B9_7F4A_7C15,
        };
        let swap_policy = match std::env::var("KALAH_BOT_SWAP").as_deref() {
            Ok("always") => SwapPolicy::Always,
            Ok("never") => SwapPolicy::Never,
            _ => SwapPolicy::OpeningOne,
        };
        let delay_ms = std::env::var("KALAH_BOT_DELAY_MS")
            .ok()
            .and_then(|v| v.trim().parse::<u64>().ok())
            .unwrap_or(if flaw == Flaw::SlowOppReply { 30 } else { 3000 });
        let chatter = if flaw == Flaw::ChattyStderr {
            let pattern = b"debug: evaluating board, considering every hole again ...\n";
            pattern.iter().copied().cycle().take(CHATTY_BYTES).collect()
        } else {
            Vec::new()
        };
        Bot {
            flaw,
            out: BufWriter::with_capacity(64 * 1024, io::stdout()),
            rng,
            swap_policy,
            delay: Duration::from_millis(delay_ms),
            cpu: Duration::from_millis(
                std::env::var("KALAH_BOT_CPU_MS")
                    .ok()
                    .and_then(|v| v.trim().parse::<u64>().ok())
                    .unwrap_or(1500),
            ),
            original: None,
            side: Side::South,
            swapped: false,
            sent: 0,
            changes: 0,
            opening: None,
            my_opening: None,
            over: false,
            sent_after_end: false,
            own_next: false,
            board: Vec::with_capacity(64),
            tracked: Vec::new(),
            moved_since_change: false,
            scratch: Vec::with_capacity(64),
            chatter,
        }
    }

    fn handle(&mut self, raw: &[u8]) {
        let line = raw.trim_ascii();
        if line.is_empty() {
            return;
        }
        if line == b"END" {
            self.on_end();
        } else if line == b"START;South" {
            self.on_start(Side::South);
        } else if line == b"START;North" {
            self.on_start(Side::North);
        } else if line.starts_with(b"CHANGE;") {
            self.on_change(line);
        }
        // Anything else is ignored.
    }

    fn at_eof(&mut self) -> ! {
        if self.flaw == Flaw::EofMessage && !self.over {
            self.write_raw(b"error: unexpected end of input\n");
            self.flush();
        }
        self.exit(0)
    }

    fn on_start(&mut self, side: Side) {
        self.original = Some(side);
        self.side = side;
        if side == Side::South && self.flaw != Flaw::WaitsForever {
            self.reply();
        }
    }

    fn on_change(&mut self, line: &[u8]) {
        let mut fields: [&[u8]; 4] = [&[]; 4];
        let mut count = 0;
        for field in line.split(|&b| b == b';') {
            if count == 4 {
                return; // malformed: too many fields
            }
            fields[count] = field;
            count += 1;
        }
        if count != 4 {
            return;
        }
        let turn = match fields[3] {
            b"YOU" => Turn::You,
            b"OPP" => Turn::Opp,
            b"END" => Turn::End,
            _ => return,
        };
        let moved = if self.flaw == Flaw::FixedSeven {
            // The 8th character of the line, whatever the field's length.
            match line.get(7) {
                Some(b'S') => MoveField::Swap,
                Some(&c) if c.is_ascii_digit() => MoveField::Hole(u32::from(c - b'0')),
                _ => MoveField::Other,
            }
        } else {
            parse_move_field(fields[1])
        };
        self.parse_state(fields[2]);
        if self.flaw == Flaw::SevenSeeds {
            self.check_tracked_board(moved);
        }
        self.moved_since_change = false;

        let first_change = self.changes == 0;
        self.changes += 1;
        let own = std::mem::take(&mut self.own_next);
        if first_change
            && self.original == Some(Side::North)
            && let MoveField::Hole(h) = moved
        {
            self.opening = Some(h);
        }
        if moved == MoveField::Swap {
            self.side = Side::North;
            self.swapped = true;
        }
        match turn {
            Turn::You if own && self.flaw == Flaw::DoubleMoveAfterExtraTurn => {
                let h = self.choose_hole();
                let _ = write!(self.out, "MOVE;{h}\nMOVE;{h}\n");
                self.flush();
                self.sent += 1;
                self.own_next = true;
            }
            Turn::You => self.reply(),
            Turn::Opp if own && self.flaw == Flaw::SlowOppReply => self.reply(),
            Turn::Opp => {
                if self.flaw == Flaw::OpeningExtraTurn
                    && first_change
                    && self.original == Some(Side::South)
                    && self.opening_reached_store()
                {
                    self.reply();
                }
            }
            Turn::End => {
                self.over = true;
                if self.flaw == Flaw::MoveAfterEnd && !self.sent_after_end {
                    self.sent_after_end = true;
                    self.send_move_anyway();
                }
            }
        }
    }

    fn on_end(&mut self) {
        self.over = true;
        match self.flaw {
            Flaw::MoveAfterEnd => {
                if !self.sent_after_end {
                    self.sent_after_end = true;
                    self.send_move_anyway();
                }
                self.exit(0)
            }
            Flaw::ExitNonzero => self.exit(3),
            Flaw::Lingers => {
                self.flush();
                loop {
                    std::thread::sleep(Duration::from_secs(3600));
                }
            }
            _ => self.exit(0),
        }
    }

    /// [`Flaw::SevenSeeds`]: apply the reported move to its own board (started
    /// with 7 seeds per hole) and stop if the engine's state differs.
    fn check_tracked_board(&mut self, moved: MoveField) {
        let Some(n) = self.holes() else { return };
        if self.tracked.is_empty() {
            self.tracked = vec![7; 2 * (n + 1)];
            self.tracked[n] = 0;
            self.tracked[2 * n + 1] = 0;
        }
        // The mover: this bot after its own MOVE, otherwise the opponent. A
        // swap changes sides, not the board.
        let me_north = self.side == Side::North;
        let north_moves = if self.moved_since_change {
            me_north
        } else {
            !me_north
        };
        let legal = match moved {
            MoveField::Hole(h) => simulate::apply(&mut self.tracked, north_moves, h as usize),
            MoveField::Swap => true,
            MoveField::Other => false,
        };
        if !legal || self.tracked != self.board {
            eprintln!(
                "board mismatch: I expected {:?}, the engine says {:?}",
                self.tracked, self.board
            );
            self.exit(1);
        }
    }

    /// Whether this bot's opening move (as South) put its last seed into the
    /// South store. The initial seeds per hole are total / 2n.
    fn opening_reached_store(&self) -> bool {
        let (Some(h), Some(n)) = (self.my_opening, self.holes()) else {
            return false;
        };
        if h == 0 || h > n {
            return false;
        }
        let total: u64 = self.board.iter().map(|&v| u64::from(v)).sum();
        let seeds = total / (2 * n as u64);
        lands_in_store(seeds, h, n)
    }

    /// Number of holes per side, if a state has been received.
    fn holes(&self) -> Option<usize> {
        if self.board.len() >= 4 {
            Some((self.board.len() - 2) / 2)
        } else {
            None
        }
    }

    fn parse_state(&mut self, text: &[u8]) {
        self.scratch.clear();
        for item in text.split(|&b| b == b',') {
            match parse_u32(item) {
                Some(v) => self.scratch.push(v),
                None => return, // malformed: keep the previous board
            }
        }
        if self.flaw == Flaw::FixedSeven {
            self.scratch.resize(16, 0);
        }
        if self.scratch.len() < 4 || !self.scratch.len().is_multiple_of(2) {
            return;
        }
        std::mem::swap(&mut self.board, &mut self.scratch);
    }

    /// The bot is to move: decide, then write the reply.
    fn reply(&mut self) {
        let decision = self.decide();
        if matches!(self.flaw, Flaw::Slow | Flaw::SlowOppReply) {
            self.flush();
            std::thread::sleep(self.delay);
        }
        if self.flaw == Flaw::CpuBound {
            self.flush();
            burn_cpu(self.cpu);
        }
        if self.flaw == Flaw::ChattyStderr {
            let mut err = io::stderr().lock();
            let _ = err.write_all(&self.chatter);
            let _ = err.flush();
        }
        if let Reply::Move(h) = decision
            && self.original == Some(Side::South)
            && self.sent == 0
        {
            self.my_opening = Some(h);
        }
        self.write_reply(decision);
        self.moved_since_change = matches!(decision, Reply::Move(_));
        self.sent += 1;
        self.own_next = decision != Reply::Swap;
        if decision == Reply::Swap {
            self.side = Side::South;
            if self.flaw == Flaw::MoveAfterSwap {
                let h = self.choose_hole();
                self.write_reply(Reply::Move(h));
                self.sent += 1;
            }
        }
        if self.flaw == Flaw::ExitsEarly && self.sent == 3 {
            self.exit(0);
        }
    }

    fn decide(&mut self) -> Reply {
        let original = self.original;
        // SWAP is legal only as the original North's first message.
        let first_as_north = original == Some(Side::North) && self.sent == 0 && !self.swapped;
        match self.flaw {
            Flaw::SwapAsSouth if original == Some(Side::South) && self.sent == 0 => {
                return Reply::Swap;
            }
            Flaw::LateSwap if original == Some(Side::North) && self.sent == 1 => {
                return Reply::Swap;
            }
            Flaw::LateSwap => {}
            _ => {
                if first_as_north && self.wants_swap() {
                    return Reply::Swap;
                }
            }
        }
        Reply::Move(self.choose_hole())
    }

    fn wants_swap(&self) -> bool {
        match self.swap_policy {
            SwapPolicy::Always => true,
            SwapPolicy::Never => false,
            SwapPolicy::OpeningOne => self.opening == Some(1),
        }
    }

    /// Picks a hole of the bot's own row (1-based).
    fn choose_hole(&mut self) -> usize {
        let Some(n) = self.holes() else {
            // No state yet (START;South): hole 1 exists for every n and is
            // full at the start.
            return 1;
        };
        let row_side = if self.flaw == Flaw::IgnoresSwap && self.swapped {
            Side::South // still thinks it owns the row it started with
        } else {
            self.side
        };
        let offset = match row_side {
            Side::North => 0,
            Side::South => n + 1,
        };
        if self.flaw == Flaw::IgnoresSwap && self.swapped {
            // Prefer a hole that is full in the old row and empty in the new.
            for h in 1..=n {
                if self.board[n + h] > 0 && self.board[h - 1] == 0 {
                    return h;
                }
            }
        }
        // The opponent's store: after the other row.
        let their_store = self.board[(offset + 2 * n + 1) % (2 * n + 2)];
        let blunder = match self.flaw {
            Flaw::LateBlunder => their_store >= LATE_BLUNDER_STORE,
            Flaw::Flaky => self.next_random().is_multiple_of(10),
            _ => false,
        };
        if blunder && let Some(empty) = self.board[offset..offset + n].iter().position(|&s| s == 0)
        {
            return empty + 1;
        }
        let row = &self.board[offset..offset + n];
        // 1. A move whose last seed lands in the own store (rightmost first).
        for h in (1..=n).rev() {
            let seeds = u64::from(row[h - 1]);
            if seeds > 0 && lands_in_store(seeds, h, n) {
                return h;
            }
        }
        // 2. A pseudo-random non-empty hole.
        let nonempty = row.iter().filter(|&&s| s > 0).count();
        if nonempty == 0 {
            return 1; // no legal move: cannot happen in a running game
        }
        let mut pick = (self.next_random() % nonempty as u64) as usize;
        let row = &self.board[offset..offset + n];
        for (i, &s) in row.iter().enumerate() {
            if s > 0 {
                if pick == 0 {
                    return i + 1;
                }
                pick -= 1;
            }
        }
        1
    }

    fn next_random(&mut self) -> u64 {
        // xorshift64
        let mut x = self.rng;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.rng = x;
        x
    }

    /// [`Flaw::MoveAfterEnd`]: "my turn" logic that ignores the end of game.
    fn send_move_anyway(&mut self) {
        let h = self.choose_hole();
        self.write_reply(Reply::Move(h));
        self.sent += 1;
    }

    fn write_reply(&mut self, reply: Reply) {
        let eol: &str = if self.flaw == Flaw::Crlf {
            "\r\n"
        } else {
            "\n"
        };
        let result = match reply {
            Reply::Swap => write!(self.out, "SWAP{eol}"),
            Reply::Move(h) => match self.flaw {
                Flaw::ZeroBased => write!(self.out, "MOVE;{}{eol}", h - 1),
                Flaw::PlusSign => write!(self.out, "MOVE;+{h}{eol}"),
                _ => write!(self.out, "MOVE;{h}{eol}"),
            },
        };
        if result.is_err() {
            process::exit(0); // the engine is gone
        }
        if self.flaw != Flaw::NoFlush {
            self.flush();
        }
    }

    fn write_raw(&mut self, bytes: &[u8]) {
        if self.out.write_all(bytes).is_err() {
            process::exit(0);
        }
    }

    fn flush(&mut self) {
        if self.out.flush().is_err() {
            process::exit(0);
        }
    }

    fn exit(&mut self, code: i32) -> ! {
        // Flushing here is also where [`Flaw::NoFlush`] finally writes.
        let _ = self.out.flush();
        process::exit(code)
    }
}

/// Whether `seeds` sown from hole `h` (1-based) of n holes end in the store.
/// One lap is 2n + 1 pits; the store is n − h + 1 pits away.
fn lands_in_store(seeds: u64, h: usize, n: usize) -> bool {
    let lap = 2 * n as u64 + 1;
    seeds > 0 && seeds % lap == (n - h + 1) as u64
}

fn parse_move_field(field: &[u8]) -> MoveField {
    if field == b"SWAP" {
        return MoveField::Swap;
    }
    match parse_u32(field) {
        Some(h) => MoveField::Hole(h),
        None => MoveField::Other,
    }
}

fn parse_u32(text: &[u8]) -> Option<u32> {
    if text.is_empty() {
        return None;
    }
    let mut value: u32 = 0;
    for &c in text {
        if !c.is_ascii_digit() {
            return None;
        }
        value = value.checked_mul(10)?.checked_add(u32::from(c - b'0'))?;
    }
    Some(value)
}

/// A seed that differs from run to run ([`Flaw::Flaky`]).
fn clock_seed() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64)
        .unwrap_or(1);
    (nanos ^ (u64::from(std::process::id()) << 20)) | 1
}

fn seed_from(text: &str) -> u64 {
    let seed = match text.trim().parse::<u64>() {
        Ok(v) => v,
        Err(_) => {
            // FNV-1a
            let mut h: u64 = 0xcbf2_9ce4_8422_2325;
            for b in text.bytes() {
                h ^= u64::from(b);
                h = h.wrapping_mul(0x0100_0000_01b3);
            }
            h
        }
    };
    // Mix so that small seeds differ, and never return 0 (xorshift's fixed point).
    let mixed = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ (seed >> 31);
    if mixed == 0 {
        0x2545_F491_4F6C_DD1D
    } else {
        mixed
    }
}

/// This thread's CPU time so far.
fn thread_cpu_time() -> Duration {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime writes one timespec into `ts`.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
}

/// Keep a CPU busy until this thread has used `amount` more CPU time.
fn burn_cpu(amount: Duration) {
    let until = thread_cpu_time() + amount;
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    while thread_cpu_time() < until {
        for _ in 0..10_000 {
            x = x.rotate_left(5) ^ x.wrapping_mul(0x2545_F491_4F6C_DD1D);
        }
        std::hint::black_box(x);
    }
}
