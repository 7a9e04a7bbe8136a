//! The Kalah(n, s) rule engine with the pie rule, exactly as the Manchester
//! reference engine applies it (`shared/rules/kalah.md` §3).
//!
//! Everything here is pure: no I/O, and no heap allocation on the hot path
//! ([`Position::play`], [`Position::check`], [`Position::legal_moves`]), so the
//! controller can simulate and the property tests can run many thousands of
//! games. A wrong verdict is the worst bug protocheck can have, and most
//! verdicts ("empty hole", "swap not allowed", "expected silence") are decided
//! here, so the rules are spelled out in the doc comments next to the code that
//! implements them.
//!
//! The model is *side-based*: a [`Position`] knows which side (North/South) is
//! to move, never which player sits where. After a swap the players exchange
//! sides; tracking that is the caller's business.

mod draw;
mod legal_moves;
mod sowing;

pub use legal_moves::LegalMoves;
use std::fmt;

#[cfg(test)]
mod tests;

/// protocheck supports 1..=32 holes per side. The limit keeps [`Board`] a
/// fixed-size `Copy` value and lets [`LegalMoves`] be a bit mask.
pub const MAX_HOLES: usize = 32;

/// Pits in the fixed array: two rows of `MAX_HOLES` holes plus two stores.
const MAX_PITS: usize = 2 * (MAX_HOLES + 1);

/// One of the two sides of the board. South moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    North,
    South,
}

impl Side {
    pub fn opposite(self) -> Side {
        match self {
            Side::North => Side::South,
            Side::South => Side::North,
        }
    }

    /// The spelling used on the wire (`START;North`) and in reports.
    pub fn as_str(self) -> &'static str {
        match self {
            Side::North => "North",
            Side::South => "South",
        }
    }

    /// `N` or `S`, the prefix of pit names in reports (`N3`, `S7`).
    pub fn letter(self) -> char {
        match self {
            Side::North => 'N',
            Side::South => 'S',
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A pit: one of a side's holes (1-based) or its store. Used to say where the
/// last seed of a move landed, which is what extra turns and captures hinge on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Pit {
    Hole(Side, u8),
    Store(Side),
}

impl fmt::Display for Pit {
    /// `N3`, `S7`, `North store`: the names used in kalah.md's examples.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Pit::Hole(side, h) => write!(f, "{}{}", side.letter(), h),
            Pit::Store(side) => write!(f, "{} store", side.as_str()),
        }
    }
}

/// The board: `n` holes per side and two stores, kept in **wire order** (North
/// holes 1..n, North store, South holes 1..n, South store), because that is the
/// order of the `CHANGE` state string and of `kalah.md`'s examples, so a board
/// can be compared with a recording without any reshuffling.
///
/// Invariant: pits at index `2(n+1)` and beyond are always 0, so the derived
/// `PartialEq`/`Hash` compare exactly the meaningful counts.
/// A Kalah size protocheck cannot play, or a mid-game position no game
/// reaches (`Display`: in words fit for a command-line message).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    #[error("{holes} holes per side is not supported (1..={MAX_HOLES})")]
    Holes { holes: usize },
    #[error("{seeds} seeds per hole is too many: the total must fit in 32 bits")]
    Seeds { seeds: u32 },
    #[error("the {} row is empty but the other is not; after such a move the game is over and the board swept", if *empty == Side::North { "North" } else { "South" })]
    OneRowEmpty { empty: Side },
    #[error("South makes the first move")]
    NorthFirst,
    #[error("the opening move never earns an extra turn: North moves at ply 1")]
    SouthAtPlyOne,
    #[error("a swap is the second ply, so it needs plies >= 2")]
    EarlySwap,
}

#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Board {
    n: u8,
    pits: [u32; MAX_PITS],
}

impl Board {
    /// The start position of Kalah(`holes`, `seeds`): every hole holds `seeds`,
    /// both stores 0.
    ///
    /// # Panics
    /// If `holes` is outside `1..=MAX_HOLES`, or if the total `2·holes·seeds`
    /// does not fit in a `u32`. Callers validate user input with
    /// [`Board::check_size`] first.
    pub fn new(holes: usize, seeds: u32) -> Board {
        if let Err(e) = Board::check_size(holes, seeds) {
            panic!("Board::new: {e}");
        }
        let mut pits = [0; MAX_PITS];
        for side in [Side::North, Side::South] {
            let base = base(holes, side);
            pits[base..base + holes].fill(seeds);
        }
        Board {
            n: holes as u8,
            pits,
        }
    }

    /// Whether Kalah(`holes`, `seeds`) is a size protocheck can play; the error
    /// says why not, in words fit for a command-line message.
    pub fn check_size(holes: usize, seeds: u32) -> Result<(), PositionError> {
        if !(1..=MAX_HOLES).contains(&holes) {
            return Err(PositionError::Holes { holes });
        }
        if u32::try_from(2 * holes as u64 * u64::from(seeds)).is_err() {
            return Err(PositionError::Seeds { seeds });
        }
        Ok(())
    }

    /// A board from counts in wire order (North holes 1..n, North store,
    /// South holes 1..n, South store). `None` if `holes` is unsupported, the
    /// length is not `2(n+1)`, or the total does not fit in a `u32`.
    ///
    /// Any such board is accepted: whether it is *reachable* is not this
    /// function's concern.
    pub fn from_counts(holes: usize, counts: &[u32]) -> Option<Board> {
        if !(1..=MAX_HOLES).contains(&holes) || counts.len() != 2 * (holes + 1) {
            return None;
        }
        let total: u64 = counts.iter().map(|&c| u64::from(c)).sum();
        u32::try_from(total).ok()?;
        let mut pits = [0; MAX_PITS];
        pits[..counts.len()].copy_from_slice(counts);
        Some(Board {
            n: holes as u8,
            pits,
        })
    }

    /// Holes per side, `n`.
    pub fn holes(&self) -> usize {
        usize::from(self.n)
    }

    /// Seeds in `side`'s hole `hole` (1-based, from that side's own left).
    ///
    /// # Panics
    /// If `hole` is outside `1..=n`.
    pub fn seeds_in(&self, side: Side, hole: usize) -> u32 {
        assert!(
            (1..=self.holes()).contains(&hole),
            "hole {hole} outside 1..={}",
            self.n
        );
        self.pits[base(self.holes(), side) + hole - 1]
    }

    pub fn store(&self, side: Side) -> u32 {
        self.pits[base(self.holes(), side) + self.holes()]
    }

    /// All seeds on the board, stores included. Constant during a game.
    pub fn total(&self) -> u32 {
        self.counts().iter().sum()
    }

    /// Seeds in `side`'s holes (not its store).
    pub fn row_sum(&self, side: Side) -> u32 {
        self.row(side).iter().sum()
    }

    /// Whether all of `side`'s holes are empty: the end-of-game condition.
    pub fn row_is_empty(&self, side: Side) -> bool {
        self.row(side).iter().all(|&c| c == 0)
    }

    /// The counts in wire order, `2(n+1)` values.
    pub fn counts(&self) -> &[u32] {
        &self.pits[..2 * (self.holes() + 1)]
    }

    /// The `state` field of a CHANGE message: the counts in wire order,
    /// comma-separated, no spaces, no leading zeros.
    pub fn state_string(&self) -> String {
        let mut s = String::with_capacity(self.counts().len() * 3);
        for (i, c) in self.counts().iter().enumerate() {
            if i > 0 {
                s.push(',');
            }
            s.push_str(&c.to_string());
        }
        s
    }

    fn row(&self, side: Side) -> &[u32] {
        let b = base(self.holes(), side);
        &self.pits[b..b + self.holes()]
    }
}

impl fmt::Debug for Board {
    /// The state string: compact, and directly comparable with recordings.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.state_string())
    }
}

/// Index in wire order of `side`'s hole 1; its store is at `base + n`.
fn base(n: usize, side: Side) -> usize {
    match side {
        Side::North => 0,
        Side::South => n + 1,
    }
}

/// A move as the rules see it: a hole of the mover's own side, numbered 1..n
/// from the mover's own left, or the pie-rule swap.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    Hole(u8),
    Swap,
}

/// What a legal move did. Enough for the controller to build the CHANGE
/// messages in the reference's order and for reports to explain the result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveOutcome {
    /// The last seed landed in the mover's store and this was not the opening
    /// move, so by §3.4 the mover *earned* another move. It stays `true` when
    /// the same move ended the game, although the extra turn is then not
    /// played: the reference still orders the final `CHANGE;…;END` messages
    /// as if the mover were next (kalah.md §4, g4's last move), so callers
    /// need to know. Always `false` for SWAP.
    pub extra_turn: bool,
    /// Seeds moved into the mover's store by a capture: the opposite hole's
    /// seeds plus the capturing seed. 0 if there was no capture.
    pub captured: u32,
    /// Either row was empty after the move, so the game ended and both sides
    /// swept their own remaining seeds into their own stores.
    pub game_over: bool,
    /// Where the last seed landed (`None` for SWAP).
    pub last_pit: Option<Pit>,
    /// Seeds taken out of the hole (0 for SWAP).
    pub sown: u32,
}

/// Why a move is not legal in a position. Each maps to one check in the
/// catalogue (`kalah.move.hole-range`, `kalah.move.empty-hole`,
/// `kalah.swap.not-allowed`); `GameOver` means nobody may move at all.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Illegal {
    GameOver,
    HoleOutOfRange,
    EmptyHole,
    SwapNotAllowed,
}

/// A position: the board plus whose turn it is and enough history for the two
/// history-dependent rules (the opening-move exception and the swap window).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    board: Board,
    to_move: Side,
    plies: u32,
    swapped: bool,
    over: bool,
}

impl Position {
    /// The start of Kalah(`holes`, `seeds`), South to move. With `seeds == 0`
    /// both rows are empty and the position is over from the start.
    ///
    /// # Panics
    /// As [`Board::new`].
    pub fn new(holes: usize, seeds: u32) -> Position {
        let board = Board::new(holes, seeds);
        Position {
            board,
            to_move: Side::South,
            plies: 0,
            swapped: false,
            over: seeds == 0,
        }
    }

    /// A mid-game position, for generated scenarios (for example "the bot has
    /// exactly one non-empty hole"). Rejects combinations that no game can
    /// reach by the history rules: ply 0 must be South's, ply 1 North's, and a
    /// swap needs at least 2 plies. A board with an empty row is accepted only
    /// if both rows are empty, the swept final position (`is_over()`).
    pub fn from_parts(
        board: Board,
        to_move: Side,
        plies: u32,
        swapped: bool,
    ) -> Result<Position, PositionError> {
        let (n_empty, s_empty) = (
            board.row_is_empty(Side::North),
            board.row_is_empty(Side::South),
        );
        if n_empty != s_empty {
            return Err(PositionError::OneRowEmpty {
                empty: if n_empty { Side::North } else { Side::South },
            });
        }
        match (plies, to_move) {
            (0, Side::North) => return Err(PositionError::NorthFirst),
            (1, Side::South) => return Err(PositionError::SouthAtPlyOne),
            _ => {}
        }
        if swapped && plies < 2 {
            return Err(PositionError::EarlySwap);
        }
        Ok(Position {
            board,
            to_move,
            plies,
            swapped,
            over: n_empty,
        })
    }

    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The side to move. Once the game is over this is the side that would
    /// have moved next had the game gone on (the mover if it earned an extra
    /// turn); the reference uses that to order the final messages.
    pub fn to_move(&self) -> Side {
        self.to_move
    }

    pub fn is_over(&self) -> bool {
        self.over
    }

    /// Moves made so far, SWAP included.
    pub fn plies(&self) -> u32 {
        self.plies
    }

    /// Whether a swap has happened in this game.
    pub fn swapped(&self) -> bool {
        self.swapped
    }

    /// True exactly when North is to reply to South's opening, i.e. the
    /// second message of the match. The reference counts agent messages and
    /// accepts SWAP only as the 2nd; since the opening never earns an extra
    /// turn, that message is always North's (§3.7).
    pub fn swap_allowed(&self) -> bool {
        !self.over && self.plies == 1
    }

    /// Whether `mv` is legal here, and if not, why. The order of the checks
    /// is the reference's: a finished game first, then range, then content.
    pub fn check(&self, mv: Move) -> Result<(), Illegal> {
        if self.over {
            return Err(Illegal::GameOver);
        }
        match mv {
            Move::Swap if self.swap_allowed() => Ok(()),
            Move::Swap => Err(Illegal::SwapNotAllowed),
            Move::Hole(h) if h == 0 || usize::from(h) > self.board.holes() => {
                Err(Illegal::HoleOutOfRange)
            }
            Move::Hole(h) if self.board.seeds_in(self.to_move, usize::from(h)) == 0 => {
                Err(Illegal::EmptyHole)
            }
            Move::Hole(_) => Ok(()),
        }
    }

    /// The side with more seeds in its store, once the game is over. `None`
    /// for a draw or a game still in progress.
    pub fn winner(&self) -> Option<Side> {
        if !self.over {
            return None;
        }
        let (n, s) = (self.board.store(Side::North), self.board.store(Side::South));
        match n.cmp(&s) {
            std::cmp::Ordering::Greater => Some(Side::North),
            std::cmp::Ordering::Less => Some(Side::South),
            std::cmp::Ordering::Equal => None,
        }
    }

    /// [`Board::draw`] plus one status line: who is to move, or the result.
    pub fn draw(&self) -> String {
        let status = if self.over {
            let (n, s) = (self.board.store(Side::North), self.board.store(Side::South));
            match self.winner() {
                Some(w) => format!(
                    "game over after ply {}: North {n}, South {s}, {w} wins",
                    self.plies
                ),
                None => format!(
                    "game over after ply {}: North {n}, South {s}, draw",
                    self.plies
                ),
            }
        } else {
            format!("{} to move (ply {})", self.to_move, self.plies + 1)
        };
        format!("{}\n{status}", self.board.draw())
    }
}
