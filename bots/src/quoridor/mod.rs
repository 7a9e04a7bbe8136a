//! Shared engine of the sample QTP (Quoridor Text Protocol) bots.
//!
//! Every Quoridor sample bot is this one engine, [`run`] with a [`Flaw`]. With
//! [`Flaw::None`] it follows `shared/rules/quoridor.md` exactly; every other
//! variant changes exactly one behaviour, the one documented on the variant.
//!
//! The rules are protocheck's own (`protocheck::games::quoridor::rules`), the
//! command parser is the library's `parse_command` on a line preprocessed as
//! in quoridor.md §1.3.
//!
//! Choices where the document leaves room (all within quoridor.md):
//!
//! * Empty success results are written `= ` LF LF, as the reference engine
//!   does; `list_commands` and `showboard` are written `=` LF followed by one
//!   line per entry and the empty line.
//! * Malformed arguments are answered `? invalid syntax` (the reference
//!   engine's text). Surplus arguments are ignored (`playmove white E2 h` plays
//!   `E2`), as the reference engine does.
//! * `walls W` accepts every int (0 ..= 2^31−1); the count is kept exactly.
//!   It sets both colours' remaining walls and leaves the position and history
//!   alone. `clear_board` restores the last `walls` count (after `boardsize`,
//!   the referee's default for that size). The underlying rule engine stores
//!   at most 255 placements per colour, so with W > 255 a colour's 256th wall
//!   would be refused; no board up to 25×25 reaches that in a real game.
//! * `undo` with an empty history is `? cannot undo` for every k, `undo 0`
//!   included (the document: "fails if … no moves are played"); `undo 0` with
//!   moves played succeeds and changes nothing.
//! * Play after a win is not defined by the document and not tested: moves are
//!   then refused with `? illegal move`, and `genmove` answers `? game over`.
//! * Command-line arguments are ignored except `-seed <n>` (or `--seed <n>`),
//!   which seeds the move choice; without it the seed is 0. The same seed and
//!   the same commands give the same moves.

// Each example uses one variant and a subset of the helpers.
#![allow(dead_code)]

use protocheck::games::quoridor::notation::{
    Command, CommandError, ERR_CANNOT_UNDO, ERR_ILLEGAL_MOVE, ERR_UNACCEPTABLE_SIZE,
    ERR_UNKNOWN_COMMAND, QTP_COMMANDS, parse_command,
};
use protocheck::games::quoridor::rules::{
    Action, Board, Cell, Colour, DEFAULT_SIZE, Direction, MAX_SIZE, MIN_SIZE, Wall, default_walls,
    goal_row,
};
use std::io::{self, BufRead, Write};
use std::process;

/// The one thing a sample bot does wrong.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Flaw {
    /// Fully conforming.
    None,
    /// Never flushes stdout: its responses stay in a 64 KiB buffer that is
    /// written out only at exit (at `quit` or end of input), as C stdio does
    /// on a pipe.
    NoFlush,
    /// `playmove` also accepts a diagonal side-step across a wall between the
    /// two pawns, when the straight jump is blocked too (a wall or the edge
    /// behind the other pawn) and the side cell is open from the other pawn.
    SidestepThroughWall,
    /// Never checks or decrements the remaining walls: `playwall` succeeds
    /// with no walls left, and `genmove` keeps placing walls.
    NoWallSupply,
    /// Plays correctly, but `genmove` answers the cell its own pawn stands
    /// on whenever the other pawn stands on the centre cell of the board (a
    /// bug in code only some games reach).
    LateBlunder,
    /// `winner` reports the last win until that winning move is undone;
    /// `clear_board` and `boardsize` do not reset it.
    StickyWinner,
    /// Vertices of `playmove`/`playwall` are understood only with an
    /// upper-case letter: `e2` is taken as a column far off the board and
    /// answered `? illegal move`.
    UppercaseOnly,
    /// Input preprocessing does not delete CR, so a command name followed by
    /// CR LF (`name\r`) is an unknown command. Arguments are read leniently
    /// (a trailing CR is ignored there, as `atoi` would).
    KeepsCr,
    /// Failure responses (`? …`) end with a single LF: no empty line.
    NoTerminator,
    /// Failure texts are printed without the `?` status: `Error! illegal move`
    /// and the empty line.
    ErrorWithoutStatus,
    /// Answers `quit` with `= ` and the empty line, then keeps running: it
    /// goes on answering commands and never exits, not even at EOF.
    NoExitOnQuit,
    /// Walls are named the algebraic (south-west) way: the row of a `playwall`
    /// vertex and of a `genmove` wall is one lower than in QTP.
    AlgebraicWalls,
    /// `genmove` answers a legal move but does not play it.
    GenmoveNotApplied,
    /// Sleeps before every `genmove` answer, 3 s by default
    /// (`QTP_BOT_DELAY_MS` overrides it): a search too slow for the limit,
    /// busy, never blocked reading its input.
    SlowGenmove,
    /// Exits with status 1 when asked `genmove`, before answering.
    CrashOnGenmove,
    /// `genmove` answers the square its own pawn stands on (never a legal
    /// move) and plays nothing.
    IllegalGenmove,
    /// `undo k` takes back one move whatever k is (k > history is still
    /// refused with `? cannot undo`).
    UndoOneOnly,
    /// A `playwall` refused as illegal still uses up one of that colour's
    /// walls.
    FailedWallCosts,
    /// `winner` answers with the short forms `= f`, `= t w`, `= t b`.
    ShortWinner,
    /// Standard error texts are capitalised: `? Illegal move`,
    /// `? Unknown command`, `? Cannot undo`, `? Unacceptable size`,
    /// `? Invalid syntax`.
    CapitalErrors,
    /// Exits with status 1 on an empty input line (nothing before the LF but
    /// CR). Whitespace-only and comment-only lines are still handled.
    CrashOnEmptyLine,
    /// `list_commands` is answered `= ` LF LF, followed by the names, one per
    /// line, and another empty line.
    ListCommandsBlank,
    /// The parser works on tokens, not lines: an unknown first token is
    /// answered `? unknown command` and the rest of the line is then read as a
    /// new command, so `1 name` gets two responses.
    TokenParser,
    /// Before each `genmove` answer, writes a debug line starting with `=` to
    /// stderr (the referee merges stderr into stdout).
    StderrEquals,
    /// `known_command` without a name is answered `= false` ("never fails";
    /// the reference engine answers `? false`). Not a flaw: a departure
    /// protocheck must accept.
    KnownCommandFalse,
    /// Like the reference engine: a command with arguments after leading
    /// whitespace (`  playmove white E2`, a tab first) is answered
    /// `? invalid syntax`; a bare command name (`  name`) works.
    LeadingWhitespace,
    /// Like the reference engine: a `#` glued to a token (`name#x`,
    /// `horizontal#c`) does not start a comment; it stays part of the token.
    /// A `#` at the start of a token does.
    GluedComment,
    /// Writes a `# thinking` comment line before each `genmove` response.
    ThinkingComment,
    /// Writes a debug line (`DEBUG genmove black`, no `#`) before each
    /// `genmove` response, in a write of its own.
    StrayBeforeAnswer,
    /// After each `genmove` answer, writes a debug line (`DEBUG played E8`,
    /// no `#`) late: when the next command arrives, before answering it, as
    /// an engine whose logging lags behind its answers.
    StrayAfterAnswer,
    /// Dies of SIGSEGV on `known_command` without a command name (reads
    /// the missing argument), as two public C engines do.
    CrashOnBareKnownCommand,
    /// Not a flaw: computes for `QTP_BOT_CPU_MS` (default 1500) of its own
    /// CPU time before answering each `boardsize`, as an engine that builds
    /// its tables there would: within the referee's 2 s on an idle machine,
    /// longer by the wall clock on a busy one.
    CpuBoundBoardsize,
    /// Sleeps `QTP_BOT_DELAY_MS` (default 3000) before answering each
    /// `boardsize`: slower than the referee's 2 s whatever the load.
    SlowBoardsize,
    /// The `showboard` diagram has an empty line in its middle, so the rest
    /// of the diagram follows the empty line.
    ShowboardSplit,
    /// Once its input ends (EOF without `quit`), writes its last response
    /// again and again, forever, as fast as it can: a read loop that ignores
    /// end-of-file and re-runs the last command (the public engine
    /// giorgosnikolaou/Quoridor-Engine does this).
    RepeatsAtEof,
    /// Exits with status 0 on `quit` without answering it (no `=`, no
    /// empty line).
    QuitWithoutResponse,
    /// Exits with status 0 as soon as a pawn has reached its goal row:
    /// right after its response to the winning move (its own `genmove` or
    /// the other colour's `playmove`), before `winner` and `quit`.
    ExitsAfterWin,
}

const INVALID_SYNTAX: &str = "invalid syntax";

/// [`Flaw::SlowGenmove`]'s sleep: `QTP_BOT_DELAY_MS`, else 3 s.
fn genmove_delay() -> std::time::Duration {
    let ms = std::env::var("QTP_BOT_DELAY_MS")
        .ok()
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or(3000);
    std::time::Duration::from_millis(ms)
}
/// Walls the rule engine's board is given; the real supply is kept in
/// [`Engine::walls_left`].
const BOARD_WALLS: u8 = u8::MAX;

/// One protocol-level history entry.
#[derive(Clone, Copy, Debug)]
struct Entry {
    /// Entries of the rule engine's history that make up this move (more than
    /// one only for [`Flaw::SidestepThroughWall`]'s emulated side-step).
    board_entries: usize,
    /// The colour whose wall `undo` gives back.
    refund: Option<Colour>,
    /// The winner before this move ([`Flaw::StickyWinner`] only).
    sticky_before: Option<Colour>,
}

/// A command's result before framing.
enum Reply {
    /// `= text` (one line; empty text gives `= `).
    Ok(String),
    /// `=` LF then these lines (no empty line among them, except for
    /// [`Flaw::ShowboardSplit`]).
    Lines(String),
    /// `? message`.
    Err(&'static str),
}

struct Engine {
    flaw: Flaw,
    name: String,
    rng: fastrand::Rng,
    board: Board,
    /// The last `walls` count (or the default of the size), restored by
    /// `clear_board`.
    walls_conf: u32,
    /// Remaining walls, black then white.
    walls_left: [u32; 2],
    history: Vec<Entry>,
    /// [`Flaw::StickyWinner`]'s winner flag.
    sticky: Option<Colour>,
    /// `quit` was answered ([`Flaw::NoExitOnQuit`]).
    quit_seen: bool,
    /// The last response written ([`Flaw::RepeatsAtEof`] only).
    last_response: Vec<u8>,
    /// The debug line still to write ([`Flaw::StrayAfterAnswer`] only).
    stray_owed: Option<String>,
    /// Flushed after every response, except with [`Flaw::NoFlush`].
    out: io::BufWriter<io::StdoutLock<'static>>,
}

fn ci(c: Colour) -> usize {
    match c {
        Colour::Black => 0,
        Colour::White => 1,
    }
}

/// `-seed <n>` / `--seed <n>`; any other argument is ignored. A seed that is
/// not a decimal u64 is hashed.
fn seed_from_args() -> u64 {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut seed = 0u64;
    for (i, a) in args.iter().enumerate() {
        if (a == "-seed" || a == "--seed")
            && let Some(v) = args.get(i + 1)
        {
            seed = v.parse::<u64>().unwrap_or_else(|_| {
                v.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
                    (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
                })
            });
        }
    }
    seed
}

/// Runs the engine on stdin/stdout until `quit` or EOF, then exits the process
/// with status 0. `name` is the answer to `name`.
pub fn run(name: &str, flaw: Flaw) -> ! {
    let mut engine = Engine::new(name, flaw);
    let stdin = io::stdin();
    let mut input = stdin.lock();
    let mut line: Vec<u8> = Vec::with_capacity(256);
    loop {
        line.clear();
        match input.read_until(b'\n', &mut line) {
            Ok(0) => engine.at_eof(),
            Ok(_) => engine.handle_raw(&line),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(_) => engine.at_eof(),
        }
    }
}

/// quoridor.md §1.3: delete CR (unless `keep_cr`) and the other control
/// characters except HT and LF, cut at `#` (with `glued_hash_kept`, only at a
/// `#` that starts a token; a glued one becomes `¤`), HT → SPACE, trim. `None` for a line that is then
/// empty or whitespace-only: it gets no response.
fn preprocess(raw: &[u8], keep_cr: bool, glued_hash_kept: bool) -> Option<String> {
    let mut bytes: Vec<u8> = Vec::with_capacity(raw.len());
    for &b in raw {
        match b {
            // Kept as `¤`, which the library's parser (it deletes from any
            // `#`) leaves in the token.
            b'#' if glued_hash_kept && bytes.last().is_some_and(|&p| p != b' ') => {
                bytes.extend_from_slice("¤".as_bytes())
            }
            b'#' => break,
            b'\t' => bytes.push(b' '),
            b'\r' if keep_cr => bytes.push(b),
            b'\n' => {}
            b if b < 32 || b == 127 => {}
            b => bytes.push(b),
        }
    }
    let text = String::from_utf8_lossy(&bytes);
    let t = text.trim_matches(' ');
    (!t.is_empty()).then(|| t.to_string())
}

impl Engine {
    fn new(name: &str, flaw: Flaw) -> Engine {
        let walls = u32::from(default_walls(DEFAULT_SIZE));
        Engine {
            flaw,
            name: name.to_string(),
            rng: fastrand::Rng::with_seed(seed_from_args()),
            board: Board::new(DEFAULT_SIZE, BOARD_WALLS).expect("default size"),
            walls_conf: walls,
            walls_left: [walls; 2],
            history: Vec::new(),
            sticky: None,
            quit_seen: false,
            last_response: Vec::new(),
            stray_owed: None,
            out: io::BufWriter::with_capacity(1 << 16, io::stdout().lock()),
        }
    }

    fn at_eof(&mut self) -> ! {
        let _ = self.out.flush();
        if self.flaw == Flaw::RepeatsAtEof {
            let last = std::mem::take(&mut self.last_response);
            loop {
                // `write` exits once protocheck has closed the pipe.
                self.write(&last);
            }
        }
        if self.flaw == Flaw::NoExitOnQuit && self.quit_seen {
            loop {
                std::thread::sleep(std::time::Duration::from_secs(3600));
            }
        }
        self.exit()
    }

    /// Exit 0, writing out what is still buffered first (as C's `exit`).
    fn exit(&mut self) -> ! {
        let _ = self.out.flush();
        process::exit(0)
    }

    fn write(&mut self, bytes: &[u8]) {
        if self
            .out
            .write_all(bytes)
            .and_then(|_| {
                if self.flaw == Flaw::NoFlush {
                    Ok(())
                } else {
                    self.out.flush()
                }
            })
            .is_err()
        {
            // The controller is gone.
            process::exit(0);
        }
    }

    fn handle_raw(&mut self, raw: &[u8]) {
        if self.flaw == Flaw::CrashOnEmptyLine && raw.iter().all(|&b| b == b'\n' || b == b'\r') {
            process::exit(1);
        }
        let Some(line) = preprocess(
            raw,
            self.flaw == Flaw::KeepsCr,
            self.flaw == Flaw::GluedComment,
        ) else {
            return;
        };
        if self.flaw == Flaw::LeadingWhitespace
            && (raw.starts_with(b" ") || raw.starts_with(b"\t"))
            && line.contains(' ')
        {
            self.respond(false, Reply::Err(INVALID_SYNTAX));
            return;
        }
        self.handle_line(&line);
    }

    fn handle_line(&mut self, line: &str) {
        if let Some(stray) = self.stray_owed.take() {
            self.write(stray.as_bytes());
        }
        let tokens: Vec<&str> = line.split(' ').filter(|t| !t.is_empty()).collect();
        if self.flaw == Flaw::KeepsCr {
            if tokens.first().is_some_and(|t| t.contains('\r')) {
                self.respond(false, Reply::Err(ERR_UNKNOWN_COMMAND));
                return;
            }
            let cleaned = line.replace('\r', "");
            if cleaned != line {
                return self.handle_line(&cleaned);
            }
        }
        let command = match parse_command(line) {
            Ok(c) => c,
            Err(CommandError::ExtraArguments { command, .. }) => command,
            Err(CommandError::Malformed { name, .. })
                if name == "known_command" && self.flaw == Flaw::CrashOnBareKnownCommand =>
            {
                // SAFETY: restoring the default action (Rust's runtime
                // handles SIGSEGV for stack overflows) and raising the
                // signal on this process, which ends it as the C engines'
                // crash does.
                unsafe {
                    libc::signal(libc::SIGSEGV, libc::SIG_DFL);
                    libc::raise(libc::SIGSEGV);
                }
                process::exit(139);
            }
            Err(CommandError::Malformed { name, .. })
                if name == "known_command" && self.flaw == Flaw::KnownCommandFalse =>
            {
                self.respond(false, Reply::Ok("false".into()));
                return;
            }
            Err(CommandError::Malformed { .. }) => {
                self.respond(false, Reply::Err(INVALID_SYNTAX));
                return;
            }
            Err(CommandError::Empty) => return,
        };
        if self.flaw == Flaw::TokenParser
            && matches!(command, Command::Other(_))
            && tokens.len() > 1
        {
            self.respond(false, Reply::Err(ERR_UNKNOWN_COMMAND));
            return self.handle_line(&tokens[1..].join(" "));
        }
        if self.flaw == Flaw::UppercaseOnly
            && matches!(command, Command::PlayMove(..) | Command::PlayWall(..))
            && tokens
                .get(2)
                .is_some_and(|v| v.starts_with(|ch: char| ch.is_ascii_lowercase()))
        {
            self.respond(false, Reply::Err(ERR_ILLEGAL_MOVE));
            return;
        }
        let list = matches!(command, Command::ListCommands);
        let quit = matches!(command, Command::Quit);
        if quit && self.flaw == Flaw::QuitWithoutResponse {
            process::exit(0);
        }
        if self.flaw == Flaw::ThinkingComment && matches!(command, Command::GenMove(_)) {
            self.write(b"# thinking\n");
        }
        if let Command::GenMove(c) = command {
            match self.flaw {
                Flaw::SlowGenmove => std::thread::sleep(genmove_delay()),
                Flaw::CrashOnGenmove => process::exit(1),
                Flaw::IllegalGenmove => {
                    let own = self.board.pawn(c).to_string();
                    self.respond(false, Reply::Ok(own));
                    return;
                }
                _ => {}
            }
        }
        if self.flaw == Flaw::StrayBeforeAnswer
            && let Command::GenMove(c) = &command
        {
            self.write(format!("DEBUG genmove {}\n", c.as_str()).as_bytes());
        }
        if matches!(command, Command::BoardSize(_)) {
            let ms = |var: &str, default: u64| {
                std::time::Duration::from_millis(
                    std::env::var(var)
                        .ok()
                        .and_then(|v| v.trim().parse().ok())
                        .unwrap_or(default),
                )
            };
            match self.flaw {
                Flaw::CpuBoundBoardsize => burn_cpu(ms("QTP_BOT_CPU_MS", 1500)),
                Flaw::SlowBoardsize => std::thread::sleep(ms("QTP_BOT_DELAY_MS", 3000)),
                _ => {}
            }
        }
        let genmove = matches!(command, Command::GenMove(_));
        let reply = self.execute(command);
        if self.flaw == Flaw::StrayAfterAnswer
            && genmove
            && let Reply::Ok(answer) = &reply
        {
            self.stray_owed = Some(format!("DEBUG played {answer}\n"));
        }
        self.respond(list, reply);
        if self.flaw == Flaw::ExitsAfterWin && self.board.winner().is_some() {
            process::exit(0);
        }
        if quit {
            if self.flaw == Flaw::NoExitOnQuit {
                self.quit_seen = true;
            } else {
                self.exit();
            }
        }
    }

    fn respond(&mut self, list_commands: bool, reply: Reply) {
        let text = match reply {
            Reply::Ok(t) => format!("= {t}\n\n"),
            Reply::Lines(t) if list_commands && self.flaw == Flaw::ListCommandsBlank => {
                format!("= \n\n{t}\n\n")
            }
            Reply::Lines(t) => format!("=\n{t}\n\n"),
            Reply::Err(msg) => match self.flaw {
                Flaw::NoTerminator => format!("? {msg}\n"),
                Flaw::ErrorWithoutStatus => format!("Error! {msg}\n\n"),
                Flaw::CapitalErrors => {
                    let mut m = msg.to_string();
                    m[..1].make_ascii_uppercase();
                    format!("? {m}\n\n")
                }
                _ => format!("? {msg}\n\n"),
            },
        };
        if self.flaw == Flaw::RepeatsAtEof {
            self.last_response = text.clone().into_bytes();
        }
        self.write(text.as_bytes());
    }

    fn reset(&mut self, size: u8) {
        self.board = Board::new(size, BOARD_WALLS).expect("validated size");
        self.walls_left = [self.walls_conf; 2];
        self.history.clear();
        if self.flaw != Flaw::StickyWinner {
            self.sticky = None;
        }
    }

    fn execute(&mut self, command: Command) -> Reply {
        match command {
            Command::Name => Reply::Ok(self.name.clone()),
            Command::KnownCommand(n) => Reply::Ok(QTP_COMMANDS.contains(&n.as_str()).to_string()),
            Command::ListCommands => Reply::Lines(QTP_COMMANDS.join("\n")),
            Command::Quit => Reply::Ok(String::new()),
            Command::BoardSize(n) => {
                if !(u32::from(MIN_SIZE)..=u32::from(MAX_SIZE)).contains(&n) || n % 2 == 0 {
                    return Reply::Err(ERR_UNACCEPTABLE_SIZE);
                }
                self.walls_conf = u32::from(default_walls(n as u8));
                self.reset(n as u8);
                Reply::Ok(String::new())
            }
            Command::ClearBoard => {
                self.reset(self.board.size());
                Reply::Ok(String::new())
            }
            Command::Walls(w) => {
                self.walls_conf = w;
                self.walls_left = [w; 2];
                Reply::Ok(String::new())
            }
            Command::PlayMove(c, v) => self.play_move(c, v),
            Command::PlayWall(c, w) => {
                let w = if self.flaw == Flaw::AlgebraicWalls {
                    match w.anchor.row.checked_add(1) {
                        Some(row) => Wall::new(Cell::new(w.anchor.col, row), w.orientation),
                        None => return Reply::Err(ERR_ILLEGAL_MOVE),
                    }
                } else {
                    w
                };
                self.play_wall(c, w)
            }
            Command::GenMove(c) => self.genmove(c),
            Command::Undo(k) => self.undo(k.unwrap_or(1) as usize),
            Command::Winner => {
                let w = if self.flaw == Flaw::StickyWinner {
                    self.sticky
                } else {
                    self.board.winner()
                };
                let short = self.flaw == Flaw::ShortWinner;
                Reply::Ok(match (w, short) {
                    (None, false) => "false".into(),
                    (None, true) => "f".into(),
                    (Some(c), false) => format!("true {c}"),
                    (Some(Colour::White), true) => "t w".into(),
                    (Some(Colour::Black), true) => "t b".into(),
                })
            }
            Command::ShowBoard if self.flaw == Flaw::ShowboardSplit => {
                let diagram = self.showboard();
                let lines: Vec<&str> = diagram.lines().collect();
                let (top, bottom) = lines.split_at(lines.len() / 2);
                Reply::Lines(format!("{}\n\n{}", top.join("\n"), bottom.join("\n")))
            }
            Command::ShowBoard => Reply::Lines(self.showboard()),
            Command::Other(_) => Reply::Err(ERR_UNKNOWN_COMMAND),
        }
    }

    /// Records a successful move of `board_entries` rule-engine entries.
    fn record(&mut self, board_entries: usize, refund: Option<Colour>) {
        let sticky_before = self.sticky;
        if let Some(w) = self.board.winner() {
            self.sticky = Some(w);
        }
        self.history.push(Entry {
            board_entries,
            refund,
            sticky_before,
        });
    }

    fn play_move(&mut self, c: Colour, v: Cell) -> Reply {
        if self.board.play(c, Action::Step(v)).is_ok() {
            self.record(1, None);
            return Reply::Ok(String::new());
        }
        if self.flaw == Flaw::SidestepThroughWall
            && let Some(steps) = self.sidestep_through_wall(c, v)
        {
            for s in &steps {
                self.board
                    .play(c, Action::Step(*s))
                    .expect("route of legal steps");
            }
            self.record(steps.len(), None);
            return Reply::Ok(String::new());
        }
        Reply::Err(ERR_ILLEGAL_MOVE)
    }

    fn play_wall(&mut self, c: Colour, w: Wall) -> Reply {
        let supply = self.flaw != Flaw::NoWallSupply;
        if supply && self.walls_left[ci(c)] == 0 {
            return Reply::Err(ERR_ILLEGAL_MOVE);
        }
        match self.board.play(c, Action::Place(w)) {
            Ok(()) => {
                if supply {
                    self.walls_left[ci(c)] -= 1;
                }
                self.record(1, supply.then_some(c));
                Reply::Ok(String::new())
            }
            Err(_) => {
                if self.flaw == Flaw::FailedWallCosts {
                    self.walls_left[ci(c)] = self.walls_left[ci(c)].saturating_sub(1);
                }
                Reply::Err(ERR_ILLEGAL_MOVE)
            }
        }
    }

    fn undo(&mut self, k: usize) -> Reply {
        if self.history.is_empty() || k > self.history.len() {
            return Reply::Err(ERR_CANNOT_UNDO);
        }
        let k = if self.flaw == Flaw::UndoOneOnly {
            k.min(1)
        } else {
            k
        };
        for _ in 0..k {
            let e = self.history.pop().expect("checked length");
            for _ in 0..e.board_entries {
                self.board.undo();
            }
            if let Some(c) = e.refund {
                self.walls_left[ci(c)] += 1;
            }
            self.sticky = e.sticky_before;
        }
        Reply::Ok(String::new())
    }

    fn showboard(&self) -> String {
        let mut out = String::new();
        for line in self.board.draw().lines() {
            let patched = [
                ("  black walls:", Colour::Black),
                ("  white walls:", Colour::White),
            ]
            .iter()
            .find_map(|(label, c)| {
                line.find(label)
                    .map(|i| format!("{}{label} {:>2}", &line[..i], self.walls_left[ci(*c)]))
            });
            out.push_str(patched.as_deref().unwrap_or(line));
            out.push('\n');
        }
        out.trim_end_matches('\n').to_string()
    }

    fn genmove(&mut self, c: Colour) -> Reply {
        let centre = self.board.size() / 2;
        let other = self.board.pawn(c.opposite());
        if self.flaw == Flaw::LateBlunder && (other.col, other.row) == (centre, centre) {
            // "Moves" its pawn to the cell it stands on.
            return Reply::Ok(self.board.pawn(c).to_string());
        }
        let Some(action) = self.choose(c) else {
            return Reply::Err("game over");
        };
        if self.flaw == Flaw::StderrEquals {
            eprintln!(
                "= debug: {c} path length {:?}",
                self.board.shortest_path_len(c)
            );
        }
        if self.flaw != Flaw::GenmoveNotApplied {
            self.board.play(c, action).expect("chosen move is legal");
            let refund = match action {
                Action::Place(_) if self.flaw != Flaw::NoWallSupply => {
                    self.walls_left[ci(c)] -= 1;
                    Some(c)
                }
                _ => None,
            };
            self.record(1, refund);
        }
        let shown = match action {
            Action::Place(w) if self.flaw == Flaw::AlgebraicWalls => {
                // Row 1 of QTP anchors never occurs (row index ≥ 1).
                Action::Place(Wall::new(
                    Cell::new(w.anchor.col, w.anchor.row - 1),
                    w.orientation,
                ))
            }
            a => a,
        };
        Reply::Ok(shown.to_string())
    }

    /// A legal move for `c`: usually the step that shortens its path most;
    /// sometimes (always when the opponent's path is shorter) the wall that
    /// lengthens the opponent's path most relative to its own, if one does.
    /// `None` only after a win.
    fn choose(&mut self, c: Colour) -> Option<Action> {
        let mut probe = self.board.clone();
        let pawn_moves: Vec<Cell> = self.board.legal_pawn_moves(c).collect();
        if pawn_moves.is_empty() {
            return None;
        }
        let mut best_step = pawn_moves[0];
        let mut best_len = u32::MAX;
        let mut ties = 0u32;
        for &m in &pawn_moves {
            probe.play(c, Action::Step(m)).expect("legal pawn move");
            let len = probe.shortest_path_len(c).unwrap_or(u32::MAX - 1);
            probe.undo();
            if len < best_len {
                (best_step, best_len, ties) = (m, len, 1);
            } else if len == best_len {
                ties += 1;
                if self.rng.u32(..ties) == 0 {
                    best_step = m;
                }
            }
        }
        if best_len == 0 || self.walls_left[ci(c)] == 0 {
            return Some(Action::Step(best_step));
        }
        let opp = c.opposite();
        let mine = self.board.shortest_path_len(c).unwrap_or(0);
        let theirs = self.board.shortest_path_len(opp).unwrap_or(0);
        if theirs >= mine && self.rng.u8(..4) != 0 {
            return Some(Action::Step(best_step));
        }
        let mut walls = Vec::new();
        self.board.legal_walls(c, &mut walls);
        let mut best: Option<(i64, Wall)> = None;
        let mut ties = 0u32;
        for w in walls {
            probe.play(c, Action::Place(w)).expect("legal wall");
            let m = probe.shortest_path_len(c).unwrap_or(mine);
            let t = probe.shortest_path_len(opp).unwrap_or(theirs);
            probe.undo();
            if t <= theirs {
                continue;
            }
            let score = i64::from(t - theirs) - i64::from(m.saturating_sub(mine));
            if score < 1 {
                continue;
            }
            match best {
                Some((s, _)) if score < s => {}
                Some((s, _)) if score == s => {
                    ties += 1;
                    if self.rng.u32(..ties) == 0 {
                        best = Some((score, w));
                    }
                }
                _ => {
                    best = Some((score, w));
                    ties = 1;
                }
            }
        }
        Some(match best {
            Some((_, w)) => Action::Place(w),
            None => Action::Step(best_step),
        })
    }

    /// [`Flaw::SidestepThroughWall`]: if `dest` is a side-step past the other
    /// pawn that is illegal only because of a wall between the pawns (with the
    /// jump blocked too), a route of legal single steps of `c` that reaches
    /// it, to emulate the wrong move with the correct rule engine.
    fn sidestep_through_wall(&self, c: Colour, dest: Cell) -> Option<Vec<Cell>> {
        let b = &self.board;
        let p = b.pawn(c);
        let q = b.pawn(c.opposite());
        if !b.on_board(dest) || b.winner().is_some() {
            return None;
        }
        let d = Direction::ALL
            .into_iter()
            .find(|&d| step(p, d) == Some(q))?;
        if b.edge_open(p, d) || b.edge_open(q, d) {
            return None;
        }
        let side = Direction::ALL
            .into_iter()
            .find(|&e| e != d && step(q, e) == Some(dest) && step(p, e) != Some(dest))?;
        if !b.edge_open(q, side) {
            return None;
        }
        // Breadth-first over the pawn's own legal moves, at most 6 steps,
        // never through the goal row before the destination.
        let goal = goal_row(b.size(), c);
        let mut frontier: Vec<Vec<Cell>> = vec![Vec::new()];
        let mut seen = vec![p];
        for _ in 0..6 {
            let mut next = Vec::new();
            for route in frontier {
                let mut probe = b.clone();
                for s in &route {
                    probe.play(c, Action::Step(*s)).ok()?;
                }
                for m in probe.legal_pawn_moves(c) {
                    if seen.contains(&m) {
                        continue;
                    }
                    seen.push(m);
                    let mut r = route.clone();
                    r.push(m);
                    if m == dest {
                        return Some(r);
                    }
                    if m.row != goal {
                        next.push(r);
                    }
                }
            }
            frontier = next;
        }
        None
    }
}

/// The neighbour of `c` in direction `d` (not checked against the far edges).
fn step(c: Cell, d: Direction) -> Option<Cell> {
    Some(match d {
        Direction::North => Cell::new(c.col, c.row.checked_add(1)?),
        Direction::South => Cell::new(c.col, c.row.checked_sub(1)?),
        Direction::East => Cell::new(c.col.checked_add(1)?, c.row),
        Direction::West => Cell::new(c.col.checked_sub(1)?, c.row),
    })
}

fn thread_cpu_time() -> std::time::Duration {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime writes one timespec into `ts`.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    std::time::Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
}

/// Keep a CPU busy until this thread has used `amount` more CPU time.
fn burn_cpu(amount: std::time::Duration) {
    let until = thread_cpu_time() + amount;
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    while thread_cpu_time() < until {
        for _ in 0..10_000 {
            x = x.rotate_left(5) ^ x.wrapping_mul(0x2545_F491_4F6C_DD1D);
        }
        std::hint::black_box(x);
    }
}
