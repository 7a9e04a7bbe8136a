//! The words of Kalah findings and scenario errors (moves, turn fields, why
//! a move is illegal) and of the steps `protocheck record` offers.

use super::super::grammar::Turn;
use super::super::rules::{Board, Illegal, Move, Position, Side};
use super::KalahSession;

impl KalahSession {
    /// Who plays which side and whose turn it is, said under a board.
    pub(super) fn situation(&self) -> String {
        let who = match self.bot {
            Some(side) => format!("bot plays {}", side.as_str()),
            None => "match not started".into(),
        };
        let next = if self.position.is_over() {
            "game over".to_string()
        } else {
            format!("{} to move", self.position.to_move().as_str())
        };
        format!("{who}; {next}")
    }
}

pub(super) fn move_text(mv: Move) -> String {
    match mv {
        Move::Hole(h) => h.to_string(),
        Move::Swap => "SWAP".into(),
    }
}

pub(super) fn move_line(mv: Move) -> String {
    match mv {
        Move::Hole(h) => format!("MOVE;{h}"),
        Move::Swap => "SWAP".into(),
    }
}

pub(super) fn turn_word(t: Turn) -> &'static str {
    match t {
        Turn::You => "YOU",
        Turn::Opp => "OPP",
        Turn::End => "END",
    }
}

pub(super) fn illegal_text(e: Illegal, board: &Board, side: Side, mv: Move) -> String {
    match e {
        Illegal::GameOver => "the game is over".into(),
        Illegal::HoleOutOfRange => format!("there is no hole {}", move_text(mv)),
        Illegal::EmptyHole => empty_hole_text(board, side, mv, false),
        Illegal::SwapNotAllowed => {
            "SWAP is legal only as North's first move, right after South's opening".into()
        }
    }
}

/// Why hole `mv` of `side` cannot be sown. The swap hint only where a swap
/// happened in this game (`swapped`) and the same hole on the other side
/// holds seeds: then a bot that missed it would name exactly this hole.
pub(super) fn empty_hole_text(board: &Board, side: Side, mv: Move, swapped: bool) -> String {
    let Move::Hole(h) = mv else {
        return String::new();
    };
    let mut text = format!("{} hole {h} is empty", side.as_str());
    if swapped && board.seeds_in(side.opposite(), usize::from(h)) > 0 {
        text.push_str(&format!(
            " (but {} hole {h} is not: did the bot miss a swap?)",
            side.opposite().as_str()
        ));
    }
    text
}

pub(super) fn swap_refusal(position: &Position, bot: Side) -> String {
    match (bot, position.plies()) {
        (Side::South, 0) => "SWAP as South's opening: only North may swap, as its first message".into(),
        (Side::South, _) => "SWAP from South: only North may swap, and only as its first message (after being swapped, the bot can never swap)".into(),
        (Side::North, _) => "SWAP after North's first message: the swap is only legal as North's first message, right after South's opening".into(),
    }
}

impl KalahSession {
    /// What may be scripted next, as `protocheck record` offers it.
    pub(super) fn choices(&self) -> Vec<String> {
        if self.bot.is_none() {
            return vec!["send: START;South".into(), "send: START;North".into()];
        }
        if self.over || self.eof {
            return vec!["expect: exit".into()];
        }
        let mut choices = Vec::new();
        if self.known && !self.bot_to_move() && !self.position.is_over() {
            let moves: Vec<String> = self
                .position
                .legal_moves()
                .map(|mv| match mv {
                    Move::Hole(h) => h.to_string(),
                    Move::Swap => "swap".into(),
                })
                .collect();
            choices.push(format!("opponent: {}", moves.join(" | ")));
            choices.push("opponent: auto".into());
        }
        choices.push("send: END".into());
        choices
    }
}
