//! The Dominion situations a run should reach (issue 30), shared by both
//! protocols: each kingdom card played by the bot, a reshuffle in the
//! middle of a draw, each attack and reaction, and the game ending on
//! provinces or on three piles (the line protocol only: version 1 has no
//! three-pile ending, so dominion-sexp does not declare it).

use super::cards::Card;
use super::ending::Ending;
use super::engine::DominionTable;
use crate::coverage::{Reached, Situation};

const fn played(id: &'static str, what: &'static str) -> Situation {
    Situation { id, what }
}

/// In the order of `Card::KINGDOM`.
pub static PLAYED: [Situation; 10] = [
    played("dominion.play.cellar", "the bot played a cellar"),
    played("dominion.play.market", "the bot played a market"),
    played("dominion.play.militia", "the bot played a militia"),
    played("dominion.play.mine", "the bot played a mine"),
    played("dominion.play.moat", "the bot played a moat"),
    played("dominion.play.remodel", "the bot played a remodel"),
    played("dominion.play.smithy", "the bot played a smithy"),
    played("dominion.play.village", "the bot played a village"),
    played("dominion.play.woodcutter", "the bot played a woodcutter"),
    played("dominion.play.workshop", "the bot played a workshop"),
];
pub static RESHUFFLE_MID_DRAW: Situation = Situation {
    id: "dominion.draw.reshuffle-mid-draw",
    what: "the bot's deck ran out in the middle of a draw and its discards were reshuffled",
};
pub static ATTACKED_DISCARD: Situation = Situation {
    id: "dominion.attack.discarded",
    what: "the bot answered a militia by discarding",
};
pub static ATTACKED_MOAT: Situation = Situation {
    id: "dominion.reaction.moat",
    what: "the bot answered a militia by revealing a moat",
};
pub static END_PROVINCES: Situation = Situation {
    id: "dominion.end.provinces",
    what: "the game ended when the provinces ran out",
};
pub static END_THREE_PILES: Situation = Situation {
    id: "dominion.end.three-piles",
    what: "the game ended on three empty supply piles",
};

pub static LINE_SITUATIONS: [&Situation; 15] = [
    &PLAYED[0],
    &PLAYED[1],
    &PLAYED[2],
    &PLAYED[3],
    &PLAYED[4],
    &PLAYED[5],
    &PLAYED[6],
    &PLAYED[7],
    &PLAYED[8],
    &PLAYED[9],
    &RESHUFFLE_MID_DRAW,
    &ATTACKED_DISCARD,
    &ATTACKED_MOAT,
    &END_PROVINCES,
    &END_THREE_PILES,
];

/// Version 1: its one action card is the mine; no attack, no three-pile
/// ending.
pub static V1_SITUATIONS: [&Situation; 3] = [&PLAYED[3], &RESHUFFLE_MID_DRAW, &END_PROVINCES];

/// The bot played `card` and no finding was made about it.
pub fn card_played(reached: &mut Reached, card: Card) {
    if let Some(i) = Card::KINGDOM.iter().position(|&k| k == card) {
        reached.hit(&PLAYED[i]);
    }
}

/// What the session counted, with what the table shows at the end: the
/// bot's reshuffles in the middle of a draw and how the game ended.
pub fn reached(reached: &Reached, table: &DominionTable, bot: usize) -> Vec<(&'static str, u64)> {
    let mut all: Vec<(&'static str, u64)> = reached.iter().collect();
    if let Some(p) = table.players.get(bot)
        && p.reshuffles_mid_draw > 0
    {
        all.push((RESHUFFLE_MID_DRAW.id, u64::from(p.reshuffles_mid_draw)));
    }
    match table.ended {
        Some(Ending::ProvincesGone) => all.push((END_PROVINCES.id, 1)),
        Some(Ending::ThreePilesEmpty) => all.push((END_THREE_PILES.id, 1)),
        _ => {}
    }
    all
}

/// Generated play aiming at what is missing (`coverage::Aims`): what the
/// bot would answer to a built-in seat's militia played now: with a moat in
/// hand, the reveal (a bot may still choose to discard); otherwise a
/// discard; nothing when it holds 3 cards or fewer (no request is sent).
pub fn militia_reaches(table: &DominionTable, bot: usize) -> Vec<&'static Situation> {
    if table.attack_discard_count(bot).is_none() {
        return Vec::new();
    }
    if table.players[bot].hand.contains(&Card::Moat) {
        vec![&ATTACKED_MOAT]
    } else {
        vec![&ATTACKED_DISCARD]
    }
}

/// Generated play aiming at what is missing: a built-in seat's buy of a
/// province ends the game on provinces when it takes the last one.
pub fn province_buy_reaches(table: &DominionTable) -> Vec<&'static Situation> {
    if table.supply.count(Card::Province) == 1 {
        vec![&END_PROVINCES]
    } else {
        Vec::new()
    }
}
