//! Militia's attack and moat's reaction (§3.6, D20).

use super::super::cards::{Card, Shuffler};
use super::super::supply::counts_of;
use super::{DominionTable, MILITIA_KEEPS, Rule};

/// An attacked player's grammatical answer. A reply the grammar rejects is
/// `None` in [`DominionTable::resolve_attack`]: the grammar has its rule id, the
/// engine only discards at random.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AttackReply<'a> {
    Discard(&'a [Card]),
    RevealMoat,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AttackOutcome {
    pub rule: Option<Rule>,
    pub revealed_moat: bool,
    /// In order; the last is the new top of the discard pile.
    pub discarded: Vec<Card>,
}

impl DominionTable {
    /// The other players in the order militia handles them: seat order,
    /// starting with the seat after the current one (§3.6).
    pub fn attack_order(&self) -> impl Iterator<Item = usize> + use<> {
        let (n, current) = (self.players.len(), self.current);
        (1..n).map(move |k| (current + k) % n)
    }

    /// How many cards militia makes `seat` discard: hand size − 3, or `None`
    /// (nothing is sent) with 3 cards or fewer, or for the attacker (D20).
    pub fn attack_discard_count(&self, seat: usize) -> Option<usize> {
        let hand = self.players.get(seat)?.hand.len();
        (seat != self.current && hand > MILITIA_KEEPS).then(|| hand - MILITIA_KEEPS)
    }

    /// Judges an attacked player's reply (§3.6, checks 2–4; the grammar is
    /// check 1).
    pub fn check_attack(&self, seat: usize, reply: AttackReply<'_>) -> Result<(), Rule> {
        let hand = &self.players[seat].hand;
        match reply {
            AttackReply::Discard(cards) => {
                if Some(cards.len()) != self.attack_discard_count(seat) {
                    return Err(Rule::AttackWrongCount);
                }
                let mut counts = counts_of(hand);
                for c in cards {
                    let n = &mut counts[c.supply_index()];
                    if *n == 0 {
                        return Err(Rule::AttackNotInHand);
                    }
                    *n -= 1;
                }
                Ok(())
            }
            AttackReply::RevealMoat if hand.contains(&Card::Moat) => Ok(()),
            AttackReply::RevealMoat => Err(Rule::AttackMoatNotInHand),
        }
    }

    /// Resolves militia against `seat`: the valid discard or moat, or else
    /// (a rule broken, or `None` for a reply the grammar rejected) n cards
    /// chosen at random with `shuffler` (§3.6, D20). A seat not to be asked
    /// is left alone.
    pub fn resolve_attack(
        &mut self,
        seat: usize,
        reply: Option<AttackReply<'_>>,
        shuffler: &mut dyn Shuffler,
    ) -> AttackOutcome {
        let Some(n) = self.attack_discard_count(seat) else {
            return AttackOutcome::default();
        };
        let verdict = reply.map(|r| (r, self.check_attack(seat, r)));
        let rule = verdict.and_then(|(_, v)| v.err());
        let player = &mut self.players[seat];
        let discarded = match verdict {
            Some((AttackReply::RevealMoat, Ok(()))) => {
                return AttackOutcome {
                    rule: None,
                    revealed_moat: true,
                    discarded: Vec::new(),
                };
            }
            Some((AttackReply::Discard(cards), Ok(()))) => cards.to_vec(),
            _ => {
                let mut shuffled = player.hand.clone();
                shuffler.shuffle(&mut shuffled);
                shuffled.truncate(n);
                shuffled
            }
        };
        for &c in &discarded {
            player.remove_from_hand(c);
            player.discard.push(c);
        }
        AttackOutcome {
            rule,
            revealed_moat: false,
            discarded,
        }
    }
}
