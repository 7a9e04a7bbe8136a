//! The legal moves of a position, as a bit set that needs no heap.

use super::*;

pub(super) const SWAP_BIT: u64 = 1 << MAX_HOLES;

/// The legal moves of a position as a bit set (bit h-1 for hole h, bit 32 for
/// SWAP), so it is `Copy` and needs no heap. Iterates holes ascending, then
/// SWAP.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LegalMoves {
    mask: u64,
}

impl LegalMoves {
    pub fn contains(&self, mv: Move) -> bool {
        match mv {
            Move::Swap => self.mask & SWAP_BIT != 0,
            Move::Hole(h) => (1..=MAX_HOLES as u8).contains(&h) && self.mask & (1 << (h - 1)) != 0,
        }
    }

    pub fn len(&self) -> usize {
        self.mask.count_ones() as usize
    }

    pub fn is_empty(&self) -> bool {
        self.mask == 0
    }
}

impl Iterator for LegalMoves {
    type Item = Move;

    fn next(&mut self) -> Option<Move> {
        if self.mask == 0 {
            return None;
        }
        let bit = self.mask.trailing_zeros();
        self.mask &= self.mask - 1;
        Some(if 1u64 << bit == SWAP_BIT {
            Move::Swap
        } else {
            Move::Hole(bit as u8 + 1)
        })
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.len(), Some(self.len()))
    }
}

impl ExactSizeIterator for LegalMoves {}

impl Position {
    /// The legal moves: holes ascending, then SWAP if allowed. Empty once the
    /// game is over (there is no pass: the game ends before a side could be
    /// left without a move).
    pub fn legal_moves(&self) -> LegalMoves {
        if self.over {
            return LegalMoves { mask: 0 };
        }
        let mut mask = 0u64;
        for h in 1..=self.board.holes() {
            if self.board.seeds_in(self.to_move, h) > 0 {
                mask |= 1 << (h - 1);
            }
        }
        if self.swap_allowed() {
            mask |= SWAP_BIT;
        }
        LegalMoves { mask }
    }
}
