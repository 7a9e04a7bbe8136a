//! Dealing: the game protocheck deals itself, and a scripted first
//! `(move state)` that a scenario deals instead, adopted only when it is a
//! state a real game could reach (every card accounted for, a turn the
//! rules can produce, fair to the reference players, §9.1).

use super::super::messages::{Card, State};
use super::super::rules::{DominionTable, SeatedPlayer, Shuffler, Supply};
use crate::games::dominion::{HAND_SIZE, STARTING_DECK};

/// Seat names (docs/games/dominion-sexp.md, decision 8): letters only, never a keyword or a card.
pub const NAMES: [&str; 4] = ["alpha", "bravo", "charlie", "delta"];

/// Every card of a game with `players` players, wherever it is: the
/// version-1 supply plus the starting decks (§3.2: the starting coppers come
/// out of the 60, the starting estates do not).
fn total(card: Card, players: usize) -> usize {
    Supply::v1(players).count(card) as usize + players * count(&STARTING_DECK, card)
}

fn count(cards: &[Card], card: Card) -> usize {
    cards.iter().filter(|&&c| c == card).count()
}

/// A fresh game: seat `bot` is the bot; everyone starts with 7 coppers and
/// 3 estates.
pub fn fresh(players: usize, shuffler: &mut dyn Shuffler) -> DominionTable {
    DominionTable::v1(&NAMES[..players], Supply::v1(players), shuffler)
}

/// Names in the reference's style (`0-player-v1`) are the robustness
/// scenario's; anything else must be letters only and not a keyword.
pub fn letters_only(name: &str) -> bool {
    !name.is_empty() && name.bytes().all(|b| b.is_ascii_alphabetic())
}

fn reference_style(name: &str) -> bool {
    let Some((index, program)) = name.split_once('-') else {
        return false;
    };
    !index.is_empty()
        && index.bytes().all(|b| b.is_ascii_digit())
        && !program.is_empty()
        && program
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-')
}

/// Why no real game reaches a scripted first `(move state)`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DealError {
    #[error("the state names {players} players; a game has 2 to 4")]
    Players { players: usize },
    #[error("the state names {players} players, but the options say `players: {asked}`")]
    PlayersAsked { players: usize, asked: usize },
    #[error("`seat: {}` does not exist in a {players}-player game", seat + 1)]
    Seat { seat: usize, players: usize },
    #[error("the player name `{0}` appears twice")]
    NameTwice(String),
    #[error("`{0}` is a keyword or a card, not a name")]
    NameIsKeyword(String),
    #[error("`{0}` is not a name: names are letters only (docs/games/dominion-sexp.md, decision 8), or in the reference's style `0-player-v1` for the robustness scenario")]
    NotAName(String),
    #[error("the supply is not listed pile by pile in the order copper, silver, gold, estate, duchy, province, mine")]
    SupplyOrder,
    #[error("the deck is not sorted by card name (the dealer always sends it sorted)")]
    DeckUnsorted,
    #[error("{0} is in the trash, but only mine trashes cards, and only treasures")]
    Trashed(Card),
    #[error("the bot owns {0} cards; everyone starts with 10 and never owns fewer")]
    TooFewOwned(usize),
    #[error("the cards do not add up: a {players}-player game has {total} {card} in all, this state accounts for {found} (supply {supply}, trash {trash}, the bot's {own}, the other players' starting cards {others})")]
    Count {
        players: usize,
        card: Card,
        total: usize,
        found: usize,
        supply: usize,
        trash: usize,
        own: usize,
        others: usize,
    },
    #[error("version 1 has no card that gives extra actions or buys: actions and buys are 0 or 1")]
    ExtraActionsOrBuys,
    #[error("{0} is in `plays` after the first play: only treasures are added, and only one mine can be played per turn")]
    PlayedAfterFirst(Card),
    #[error("actions {0} does not fit the turn: actions is 1 until the first mine, add or buy, then 0")]
    Actions(u32),
    #[error("buys is 0, so a card was bought, but the discard pile (where it goes) is empty")]
    BoughtNothing,
    #[error("coins {coins} does not follow from the plays: the treasures added give {value}{}", if *bought { format!(", minus {spent} for the card bought (the first of the discards)") } else { String::new() })]
    Coins {
        coins: u32,
        value: u32,
        spent: u32,
        bought: bool,
    },
    #[error("{hand} cards in hand and {plays} in plays: a turn starts with 5 cards in hand, and mine and add only move them (the mined treasure replaces the trashed one)")]
    HandSize { hand: usize, plays: usize },
    #[error("buys is 0 with {0} still in hand: an unfair state (docs/games/dominion-sexp.md), because players that add every treasure before buying never meet it, and the reference players answer it with an add")]
    UnfairTreasure(Card),
}

/// A scripted state no game reaches is the scenario's error.
impl From<DealError> for crate::games::ScriptError {
    fn from(error: DealError) -> Self {
        crate::games::ScriptError(error.to_string())
    }
}

/// The game a scripted first `(move state)` describes, with the bot (the
/// first player named) in seat `seat` (0-based). The other seats hold their
/// starting cards, shuffled. `Err` says why no real game reaches the state.
pub fn adopt(
    state: &State,
    players: Option<usize>,
    seat: usize,
    shuffler: &mut dyn Shuffler,
) -> Result<(DominionTable, bool), DealError> {
    let n = state.players.len();
    if !(2..=4).contains(&n) {
        return Err(DealError::Players { players: n });
    }
    if let Some(p) = players
        && p != n
    {
        return Err(DealError::PlayersAsked {
            players: n,
            asked: p,
        });
    }
    if seat >= n {
        return Err(DealError::Seat { seat, players: n });
    }
    let mut reference_names = false;
    for (i, name) in state.players.iter().enumerate() {
        if state.players[..i].contains(name) {
            return Err(DealError::NameTwice(name.clone()));
        }
        if Card::from_name(name).is_some()
            || ["act", "add", "buy", "clean", "move", "moved"].contains(&name.as_str())
        {
            return Err(DealError::NameIsKeyword(name.clone()));
        }
        if !letters_only(name) {
            if reference_style(name) {
                reference_names = true;
            } else {
                return Err(DealError::NotAName(name.clone()));
            }
        }
    }
    // The supply is listed pile by pile, in pile order (§2.1).
    let order = |c: Card| Card::V1.iter().position(|&v| v == c).unwrap_or(usize::MAX);
    if state.supply.windows(2).any(|w| order(w[0]) > order(w[1])) {
        return Err(DealError::SupplyOrder);
    }
    let mut sorted = state.deck.clone();
    sorted.sort_by_key(|c| c.name());
    if sorted != state.deck {
        return Err(DealError::DeckUnsorted);
    }
    if let Some(c) = state.trash.iter().find(|c| !c.is_treasure()) {
        return Err(DealError::Trashed(*c));
    }
    // Every card is somewhere: supply, trash, the bot's cards, and the
    // other players' starting cards (7 coppers, 3 estates each).
    let own: Vec<Card> = [&state.deck, &state.hand, &state.plays, &state.discards]
        .into_iter()
        .flatten()
        .copied()
        .collect();
    if own.len() < 10 {
        return Err(DealError::TooFewOwned(own.len()));
    }
    for card in Card::V1 {
        let others = match card {
            Card::Copper => 7 * (n - 1),
            Card::Estate => 3 * (n - 1),
            _ => 0,
        };
        let found =
            count(&state.supply, card) + count(&state.trash, card) + count(&own, card) + others;
        if found != total(card, n) {
            return Err(DealError::Count {
                players: n,
                card,
                total: total(card, n),
                found,
                supply: count(&state.supply, card),
                trash: count(&state.trash, card),
                own: count(&own, card),
                others,
            });
        }
    }
    check_turn(state)?;
    let mut game = fresh(n, shuffler);
    for (k, name) in state.players.iter().enumerate() {
        let s = (seat + k) % n;
        game.players[s].name = name.clone();
    }
    let bot = &mut game.players[seat];
    *bot = SeatedPlayer {
        name: bot.name.clone(),
        // The draw order is hidden (the deck is shown sorted): shuffle it.
        deck: state.deck.clone(),
        hand: state.hand.clone(),
        discard: state.discards.clone(),
        turns: 0,
        reshuffles_mid_draw: 0,
    };
    shuffler.shuffle(&mut bot.deck);
    game.supply = Supply::from_cards(&state.supply);
    game.trash = state.trash.clone();
    game.current = seat;
    game.actions = state.actions;
    game.buys = state.buys;
    game.coins = state.coins;
    game.play_area = state.plays.clone();
    Ok((game, reference_names))
}

/// The counters and `plays` must be what some sequence of legal plays
/// from the start of a turn leaves (§3.3: `[mine] add* [buy]`).
fn check_turn(state: &State) -> Result<(), DealError> {
    if state.actions > 1 || state.buys > 1 {
        return Err(DealError::ExtraActionsOrBuys);
    }
    // `plays` is most recent first: the mine, if any, was played first.
    let mut played = state.plays.iter().rev();
    let mine_played = state.plays.last() == Some(&Card::Mine);
    if mine_played {
        played.next();
    }
    let mut value = 0;
    for &c in played {
        if !c.is_treasure() {
            return Err(DealError::PlayedAfterFirst(c));
        }
        value += c.value();
    }
    let bought = state.buys == 0;
    let fresh_turn = state.plays.is_empty() && !bought;
    if (state.actions == 1) != fresh_turn {
        return Err(DealError::Actions(state.actions));
    }
    let spent = if bought {
        match state.discards.first() {
            Some(c) => c.cost(),
            None => {
                return Err(DealError::BoughtNothing);
            }
        }
    } else {
        0
    };
    if value < spent || state.coins != value - spent {
        return Err(DealError::Coins {
            coins: state.coins,
            value,
            spent,
            bought,
        });
    }
    if state.hand.len() + state.plays.len() != HAND_SIZE {
        return Err(DealError::HandSize {
            hand: state.hand.len(),
            plays: state.plays.len(),
        });
    }
    if bought && let Some(t) = state.hand.iter().find(|c| c.is_treasure()) {
        return Err(DealError::UnfairTreasure(*t));
    }
    Ok(())
}

/// The same notification with the extra whitespace the document allows
/// (decision D13): doubled spaces, a tab, line breaks between sections
/// and a blank line inside.
pub fn pad(canonical: &str) -> String {
    let mut s = canonical.replacen(' ', "  \t", 1);
    s = s.replace(") (", ")\n  (");
    match s.find('\n') {
        Some(i) => s.insert(i, '\n'),
        None => s = s.replacen(" (", "\n\n (", 1),
    }
    s
}

/// Whether two notification texts differ only in whitespace between tokens.
pub fn same_tokens(a: &str, b: &str) -> bool {
    let tokens = |s: &str| -> Vec<String> {
        s.replace('(', " ( ")
            .replace(')', " ) ")
            .split_whitespace()
            .map(str::to_string)
            .collect()
    };
    tokens(a) == tokens(b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_deal_error_reads_as_the_scenario_error_it_was() {
        assert_eq!(
            DealError::Seat {
                seat: 4,
                players: 3
            }
            .to_string(),
            "`seat: 5` does not exist in a 3-player game"
        );
        let coins = DealError::Coins {
            coins: 3,
            value: 5,
            spent: 3,
            bought: true,
        };
        assert_eq!(
            coins.to_string(),
            "coins 3 does not follow from the plays: the treasures added give 5, minus 3 for the card bought (the first of the discards)"
        );
        assert_eq!(
            crate::games::ScriptError::from(DealError::Trashed(Card::Estate)).to_string(),
            "estate is in the trash, but only mine trashes cards, and only treasures"
        );
    }
}
