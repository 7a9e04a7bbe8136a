//! Why a move is illegal, as every refusal names it.

use super::Colour;
use std::fmt;

/// Why a move is illegal. Every refused `playmove`/`playwall` names one of
/// these in its report (§8 `quoridor.playmove.rejects-illegal` and the
/// `quoridor.playwall.*` rules).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Illegal {
    /// A pawn already stands on its goal row; protocheck does not play on
    /// after a win (§3.5).
    GameOver,
    /// The destination cell is not on the board.
    OffBoard,
    /// The destination is the pawn's own cell: a pawn may not stay in place.
    StayInPlace,
    /// The destination is the other pawn's cell.
    Occupied,
    /// The destination is not a step, a jump or a side-step away.
    NotAdjacent,
    /// A wall blocks the step to a neighbouring cell.
    Blocked,
    /// A jump over the other pawn with a wall between the pawns or behind the
    /// other pawn.
    JumpBlocked,
    /// A diagonal side-step although the straight jump is open.
    SideStepNotAllowed,
    /// A diagonal side-step across a wall: between the pawns, or between the
    /// other pawn and the side-step cell.
    SideStepBlocked,
    /// The wall's anchor is in row 1, in the last column or off the board.
    WallOutOfRange,
    /// The wall duplicates or overlaps (shares a cell edge with) a placed wall.
    WallOverlap,
    /// The wall crosses a placed wall (same centre, other orientation).
    WallCrossing,
    /// The colour has no walls left.
    NoWallsLeft,
    /// The wall would leave this colour's pawn without a path to its goal row.
    PathBlocked(Colour),
}

impl Illegal {
    /// One sentence for humans.
    pub fn describe(self) -> &'static str {
        match self {
            Illegal::GameOver => "the game is already won",
            Illegal::OffBoard => "the destination is off the board",
            Illegal::StayInPlace => "the pawn would stay in place",
            Illegal::Occupied => "the destination is occupied by the other pawn",
            Illegal::NotAdjacent => "the destination is not reachable in one move",
            Illegal::Blocked => "a wall blocks the step",
            Illegal::JumpBlocked => "the jump is blocked by a wall or the board edge",
            Illegal::SideStepNotAllowed => {
                "a side-step is only allowed when the straight jump is blocked"
            }
            Illegal::SideStepBlocked => "the side-step crosses a wall",
            Illegal::WallOutOfRange => {
                "the wall anchor is in row 1, in the last column or off the board"
            }
            Illegal::WallOverlap => "the wall duplicates or overlaps a placed wall",
            Illegal::WallCrossing => "the wall crosses a placed wall",
            Illegal::NoWallsLeft => "the colour has no walls left",
            Illegal::PathBlocked(Colour::Black) => "the wall leaves black without a path",
            Illegal::PathBlocked(Colour::White) => "the wall leaves white without a path",
        }
    }
}

impl fmt::Display for Illegal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.describe())
    }
}
