//! The dealer's scripted messages: a `start` that sets up the bot's
//! situation and the `choose` that follows it, each checked for consistency
//! with the tracked game (§9.0).

use super::super::model::{Species, parse_boards, parse_cards, to_compact};
use super::{EvolutionSession, Phase};
use crate::games::{Outgoing, ScriptError};
use serde_json::Value;

impl EvolutionSession {
    /// A scripted `start` `[wh, bag, boards, hand]`: deals the turn, then
    /// gives the bot these boards, hand and bag and sets the watering hole.
    pub(super) fn scripted_start(&mut self, items: &[Value]) -> Result<Outgoing, ScriptError> {
        if self.phase != Phase::Dealing {
            return Err(format!(
                "a `start` can only be sent between turns (now: {})",
                self.phase_word()
            ).into());
        }
        if !self.table.can_deal() {
            return Err("the deck cannot deal another turn".into());
        }
        let natural = |v: &Value, what: &str| {
            v.as_u64()
                .filter(|&n| n <= 10_000)
                .map(|n| n as u32)
                .ok_or_else(|| format!("start: {what} {v} is not a natural number"))
        };
        let wh = natural(&items[0], "the watering hole")?;
        let bag = natural(&items[1], "the bag")?;
        let boards = parse_boards(&items[2]).map_err(|e| format!("start: boards: {e}"))?;
        let hand = parse_cards(&items[3]).map_err(|e| format!("start: hand: {e}"))?;
        check_boards(&boards).map_err(|e| format!("start: {e}"))?;
        if boards.is_empty() {
            return Err("start: the bot has at least one board at `start` (§2.4)".into());
        }
        if hand.len() < 4 {
            return Err(format!(
                "start: a hand of {} cards; every `choose` comes with at least 4 (§3.10, §9.0)",
                hand.len()
            ).into());
        }
        self.table.deal_turn();
        let b = self.table.bot_index().ok_or("the bot is not seated")?;
        let dealer = &mut self.table.dealer;
        // The bot's dealt cards go back; the scripted ones come out of the
        // deck or, if a built-in player holds one, are swapped for the top card.
        let dealt = std::mem::take(&mut dealer.players[b].hand);
        dealer.deck.extend(dealt);
        for card in &hand {
            if let Some(i) = dealer.deck.iter().position(|d| d == card) {
                dealer.deck.remove(i);
                continue;
            }
            let holder = dealer
                .players
                .iter()
                .position(|p| p.hand.contains(card))
                .ok_or_else(|| format!("start: card {} is not in the deck", to_compact(card)))?;
            let top = dealer.deck.pop_front().ok_or("start: the deck ran out")?;
            let slot = dealer.players[holder].hand.iter().position(|d| d == card);
            if let Some(slot) = slot {
                dealer.players[holder].hand[slot] = top;
            }
        }
        dealer.players[b].hand = hand;
        dealer.players[b].boards = boards;
        dealer.players[b].bag = bag;
        dealer.watering_hole = wh;
        self.table.remember_start();
        self.phase = Phase::Started;
        let (start, _) = self.table.turn_messages();
        Ok(Outgoing::silent(to_compact(&start)))
    }

    /// A scripted `choose` `[before, after]`: sets the other players'
    /// boards; `after` begins with the bot's own boards.
    pub(super) fn scripted_choose(&mut self, items: &[Value]) -> Result<Outgoing, ScriptError> {
        if self.phase != Phase::Started {
            return Err("a scripted `choose` follows a scripted `start`".into());
        }
        let lob = |v: &Value, what: &str| -> Result<Vec<Vec<Species>>, ScriptError> {
            let list = v
                .as_array()
                .ok_or_else(|| format!("choose: {what} is not a list of boards"))?;
            list.iter()
                .map(|b| {
                    let boards = parse_boards(b).map_err(|e| format!("choose: {what}: {e}"))?;
                    check_boards(&boards).map_err(|e| format!("choose: {what}: {e}"))?;
                    if boards.is_empty() {
                        return Err(format!(
                            "choose: {what}: every player has a board at `choose`"
                        )
                        .into());
                    }
                    Ok(boards)
                })
                .collect()
        };
        let before = lob(&items[0], "before")?;
        let after = lob(&items[1], "after")?;
        if before.len() != self.seat {
            return Err(format!(
                "choose: `before` lists {} players, but the bot sits in seat {} (options.seat)",
                before.len(),
                self.seat + 1
            ).into());
        }
        if before.len() + after.len() != self.players {
            return Err(format!(
                "choose: {} players in all, but the game has {} (options.players)",
                before.len() + after.len(),
                self.players
            ).into());
        }
        if after[0] != self.table.start_boards {
            return Err(
                "choose: `after` begins with the bot's own boards as in its `start` (docs/games/evolution.md, decision 2)"
                    .into(),
            );
        }
        let b = self.seat;
        for (i, boards) in before.into_iter().chain(after).enumerate() {
            if i != b {
                self.table.dealer.players[i].boards = boards;
            }
        }
        self.phase = Phase::AwaitAction;
        let (_, choose) = self.table.turn_messages();
        Ok(Outgoing::asking(to_compact(&choose)))
    }
}

/// Boards protocheck shows must be ones every client can parse (§9.0):
/// distinct traits, fat food within the body.
fn check_boards(boards: &[Species]) -> Result<(), String> {
    for (i, s) in boards.iter().enumerate() {
        if s.traits
            .iter()
            .enumerate()
            .any(|(k, t)| s.traits[k + 1..].contains(t))
        {
            return Err(format!("board {i} repeats a trait"));
        }
        if s.fat_food > s.body {
            return Err(format!("board {i} stores more fat than its body"));
        }
    }
    Ok(())
}
