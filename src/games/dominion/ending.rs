//! How a Dominion game ends and who wins, for both protocols: the one
//! [`Ending`], protocheck's turn cap, and the rules that differ between the
//! line protocol (`rules/dominion-text.md` §3.8, D22) and the S-expression
//! protocol (`rules/dominion-sexp.md` §3.6, D6, D7) as the explicit
//! parameters of [`EndRules`].

/// protocheck's safety cap in turns per player (dominion-text D22,
/// dominion-sexp D6).
pub const DEFAULT_TURN_CAP: u32 = 100;

/// Why the game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// No province is left after a turn.
    ProvincesGone,
    /// Three supply piles are empty after a turn (line protocol only).
    ThreePilesEmpty,
    /// Every player has taken the turn cap.
    TurnCap,
}

/// The end-of-game rules of one protocol.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EndRules {
    /// Whether three empty supply piles end the game (dominion-text §3.8;
    /// version 1's seven piles have no such rule).
    pub three_piles_end: bool,
    /// Whether a tie on points goes to the player with fewer turns
    /// (dominion-text §3.8); version 1 shares the win (dominion-sexp D7).
    pub fewer_turns_break_ties: bool,
}

impl EndRules {
    /// The line protocol's rules (dominion-text §3.8).
    pub const LINE: EndRules = EndRules {
        three_piles_end: true,
        fewer_turns_break_ties: true,
    };
    /// The S-expression protocol's version 1 (dominion-sexp §3.6, D7).
    pub const V1: EndRules = EndRules {
        three_piles_end: false,
        fewer_turns_break_ties: false,
    };

    /// The end check after a turn: provinces first, then three empty piles
    /// (when these rules have it; `empty_piles` is only counted then), then
    /// the turn cap.
    pub fn ending(
        self,
        provinces_left: u32,
        empty_piles: impl FnOnce() -> usize,
        cap_reached: bool,
    ) -> Option<Ending> {
        if provinces_left == 0 {
            Some(Ending::ProvincesGone)
        } else if self.three_piles_end && empty_piles() >= 3 {
            Some(Ending::ThreePilesEmpty)
        } else if cap_reached {
            Some(Ending::TurnCap)
        } else {
            None
        }
    }

    /// The seats with the best standing, given each seat's `(points,
    /// turns)` in seat order: the highest points, then (when these rules
    /// break ties) the fewer turns; a tie that remains shares the win.
    pub fn winners(self, standings: impl Iterator<Item = (i32, u32)> + Clone) -> Vec<usize> {
        let key = |(points, turns): (i32, u32)| {
            let turns = if self.fewer_turns_break_ties {
                turns
            } else {
                0
            };
            (points, std::cmp::Reverse(turns))
        };
        let Some(top) = standings.clone().map(key).max() else {
            return Vec::new();
        };
        standings
            .enumerate()
            .filter(|&(_, s)| key(s) == top)
            .map(|(i, _)| i)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn three_empty_piles_end_only_the_line_protocols_game() {
        assert_eq!(
            EndRules::LINE.ending(8, || 3, false),
            Some(Ending::ThreePilesEmpty)
        );
        assert_eq!(EndRules::V1.ending(8, || 3, false), None);
        assert_eq!(EndRules::V1.ending(8, || 7, true), Some(Ending::TurnCap));
        for rules in [EndRules::LINE, EndRules::V1] {
            assert_eq!(rules.ending(0, || 3, true), Some(Ending::ProvincesGone));
            assert_eq!(rules.ending(1, || 2, false), None);
        }
    }

    #[test]
    fn fewer_turns_break_a_tie_only_in_the_line_protocol() {
        let standings = [(6, 3), (6, 2), (1, 1)];
        assert_eq!(EndRules::LINE.winners(standings.into_iter()), [1]);
        assert_eq!(EndRules::V1.winners(standings.into_iter()), [0, 1]);
        let even = [(6, 2), (6, 2)];
        assert_eq!(EndRules::LINE.winners(even.into_iter()), [0, 1]);
        assert!(EndRules::V1.winners(std::iter::empty()).is_empty());
    }
}
