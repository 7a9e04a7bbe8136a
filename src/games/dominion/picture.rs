//! The Dominion table as a picture for the HTML report, for both protocols:
//! the supply piles with their counts, whose turn it is with its actions,
//! buys and coins, the cards played this turn (the latest one marked), and
//! the bot's hand with the sizes of its deck and discard pile, from the
//! shared [`DominionTable`] ([`table_picture`]). What stays the same
//! all game (the piles and their names, the section labels) comes first, so
//! the report draws it once for all the steps; the size of the drawing
//! depends only on the number of piles.

use super::engine::Newest;
use super::{Card, DominionTable, Ending, Supply};
use crate::outcome::{Ink, Picture, Shape};

/// The table seen from the bot's seat (`bot`, 0-based), the turn's coins
/// under the protocol's own word for them (`coins`, `extra-money`).
pub fn table_picture(game: &DominionTable, bot: usize, money_word: &'static str) -> Picture {
    let player = &game.players[bot];
    // The drawing wants the latest play last, whichever end the table keeps
    // it at.
    let mut played = game.play_area.clone();
    if game.rules.newest == Newest::First {
        played.reverse();
    }
    picture(&TableView {
        supply: &game.supply,
        current: game.current_name(),
        bot: &player.name,
        actions: game.actions,
        buys: game.buys,
        money: (game.coins, money_word),
        played,
        hand: &player.hand,
        deck: player.deck.len(),
        discard: player.discard.len(),
        ended: game.ended,
    })
}

/// What the picture shows, as one protocol's state gives it.
pub struct TableView<'a> {
    pub supply: &'a Supply,
    /// Who plays now, as the protocol names the seat.
    pub current: &'a str,
    /// The bot's seat as the protocol names it.
    pub bot: &'a str,
    pub actions: u32,
    pub buys: u32,
    /// The money of the turn so far, and what the protocol calls it
    /// (`coins`; the line protocol's `extra-money`, which treasures join
    /// only at the buy).
    pub money: (u32, &'static str),
    /// The cards played this turn, the latest last.
    pub played: Vec<Card>,
    pub hand: &'a [Card],
    pub deck: usize,
    pub discard: usize,
    pub ended: Option<Ending>,
}

const MARGIN: i32 = 12;
const WIDTH: i32 = 500;
const INNER: i32 = WIDTH - 2 * MARGIN;
const PILE_COLUMNS: i32 = 6;
const GAP: i32 = 6;
const PILE_W: i32 = (INNER - (PILE_COLUMNS - 1) * GAP) / PILE_COLUMNS;
const PILE_H: i32 = 46;
/// Card slots per row (the played cards and the hand).
const CARD_SLOTS: usize = 7;
const CARD_W: i32 = 62;
const CARD_H: i32 = 38;
/// Room for a section's label above its row.
const LABEL_BAND: i32 = 20;

pub fn picture(view: &TableView) -> Picture {
    let piles = view.supply.piles();
    let pile_rows = (piles.len() as i32 + PILE_COLUMNS - 1) / PILE_COLUMNS;
    let supply_top = MARGIN + LABEL_BAND;
    let status_y = supply_top + pile_rows * (PILE_H + GAP) + 12;
    let played_top = status_y + 12 + LABEL_BAND;
    let hand_top = played_top + CARD_H + LABEL_BAND;
    let piles_top = hand_top + CARD_H + GAP;
    let height = piles_top + PILE_H + MARGIN;
    let label = |x: i32, y: i32, text: &str| Shape::Text {
        x,
        y,
        size: 12,
        text: text.to_string(),
        ink: Ink::Label,
    };
    let mut shapes = vec![Shape::board(WIDTH, height, 12)];
    let mut changing = Vec::new();
    shapes.push(label(MARGIN + 24, MARGIN + LABEL_BAND / 2, "supply"));
    for (i, &card) in piles.iter().enumerate() {
        let (row, column) = (i as i32 / PILE_COLUMNS, i as i32 % PILE_COLUMNS);
        let x = MARGIN + column * (PILE_W + GAP);
        let y = supply_top + row * (PILE_H + GAP);
        shapes.push(Shape::Rect {
            x,
            y,
            w: PILE_W as u32,
            h: PILE_H as u32,
            round: 4,
            ink: Ink::Store,
        });
        shapes.push(Shape::Text {
            x: x + PILE_W / 2,
            y: y + 12,
            size: 11,
            text: card.name().to_string(),
            ink: Ink::Label,
        });
        changing.push(Shape::Text {
            x: x + PILE_W / 2,
            y: y + 32,
            size: 17,
            text: view.supply.count(card).to_string(),
            ink: Ink::Count,
        });
    }
    shapes.push(label(
        MARGIN + 56,
        played_top - LABEL_BAND / 2,
        "played this turn",
    ));
    shapes.push(label(
        MARGIN + 52,
        hand_top - LABEL_BAND / 2 + 2,
        "the bot's hand",
    ));
    // The card places of both rows: the cards are their names on them, so
    // a step draws only names (and the mark of the card just played).
    for top in [played_top, hand_top] {
        for i in 0..CARD_SLOTS {
            shapes.push(Shape::Rect {
                x: slot_x(i),
                y: top,
                w: CARD_W as u32,
                h: CARD_H as u32,
                round: 4,
                ink: Ink::Place,
            });
        }
    }
    // The bot's deck and discard pile, counted.
    let half = (INNER - GAP) / 2;
    for (k, (name, count)) in [("deck", view.deck), ("discard", view.discard)]
        .into_iter()
        .enumerate()
    {
        let x = MARGIN + k as i32 * (half + GAP);
        shapes.push(Shape::Rect {
            x,
            y: piles_top,
            w: half as u32,
            h: PILE_H as u32,
            round: 4,
            ink: Ink::Store,
        });
        shapes.push(Shape::Text {
            x: x + half / 2,
            y: piles_top + 12,
            size: 11,
            text: format!("the bot's {name}"),
            ink: Ink::Label,
        });
        changing.push(Shape::Text {
            x: x + half / 2,
            y: piles_top + 32,
            size: 17,
            text: count.to_string(),
            ink: Ink::Count,
        });
    }
    changing.push(Shape::Text {
        x: WIDTH / 2,
        y: status_y,
        size: 13,
        text: status(view),
        ink: Ink::Count,
    });
    // The latest plays, so that the one just played is always drawn.
    let played = &view.played;
    let skipped = played.len().saturating_sub(CARD_SLOTS);
    card_row(
        &mut changing,
        played_top,
        &played[skipped..],
        skipped,
        "earlier",
        true,
    );
    let held = &view.hand;
    let (shown, more) = if held.len() > CARD_SLOTS {
        (&held[..CARD_SLOTS - 1], held.len() + 1 - CARD_SLOTS)
    } else {
        (&held[..], 0)
    };
    card_row(&mut changing, hand_top, shown, more, "more", false);
    shapes.append(&mut changing);
    Picture {
        width: WIDTH as u32,
        height: height as u32,
        shapes,
        caption: Some(caption(view)),
    }
}

fn slot_x(i: usize) -> i32 {
    MARGIN + i as i32 * (CARD_W + GAP)
}

/// One row of cards, written on its places; `hidden` cards are counted in an extra slot (before
/// the cards when `latest_marked`, the row of plays, whose last card is
/// marked as the one just played; after them otherwise).
fn card_row(
    out: &mut Vec<Shape>,
    top: i32,
    cards: &[Card],
    hidden: usize,
    word: &str,
    latest_marked: bool,
) {
    let mut slot = 0;
    let count_slot = |out: &mut Vec<Shape>, slot: usize| {
        out.push(Shape::Text {
            x: slot_x(slot) + CARD_W / 2,
            y: top + CARD_H / 2,
            size: 11,
            text: format!("+{hidden} {word}"),
            ink: Ink::Label,
        })
    };
    if hidden > 0 && latest_marked {
        count_slot(out, slot);
        slot += 1;
    }
    if cards.is_empty() && hidden == 0 {
        out.push(Shape::Text {
            x: slot_x(0) + CARD_W / 2,
            y: top + CARD_H / 2,
            size: 11,
            text: "(none)".into(),
            ink: Ink::Label,
        });
    }
    for (i, card) in cards.iter().enumerate() {
        let x = slot_x(slot);
        if latest_marked && i + 1 == cards.len() {
            out.push(Shape::Rect {
                x,
                y: top,
                w: CARD_W as u32,
                h: CARD_H as u32,
                round: 4,
                ink: Ink::Marked,
            });
        }
        out.push(Shape::Text {
            x: x + CARD_W / 2,
            y: top + CARD_H / 2,
            size: 11,
            text: card.name().to_string(),
            ink: Ink::Label,
        });
        slot += 1;
    }
    if hidden > 0 && !latest_marked {
        count_slot(out, slot);
    }
}

fn status(view: &TableView) -> String {
    match view.ended {
        Some(ending) => format!("game over: {}", ending_words(ending)),
        None => format!(
            "{}'s turn: actions {}, buys {}, {} {}",
            view.current, view.actions, view.buys, view.money.1, view.money.0
        ),
    }
}

fn ending_words(ending: Ending) -> &'static str {
    match ending {
        Ending::ProvincesGone => "no province left",
        Ending::ThreePilesEmpty => "three piles empty",
        Ending::TurnCap => "every player took the turn cap",
    }
}

fn caption(view: &TableView) -> String {
    let whose = if view.ended.is_some() {
        "the game is over".to_string()
    } else if view.current == view.bot {
        "the bot's turn".to_string()
    } else {
        format!("{}'s turn", view.current)
    };
    format!("{whose}; the bot is {}", view.bot)
}

/// What the tests of both protocols read off a drawing.
#[cfg(test)]
pub(crate) mod probe {
    use crate::outcome::{Ink, Picture, Shape};

    /// The text drawn nearest below the label `above` (a pile's count under
    /// its name).
    pub fn under(p: &Picture, above: &str) -> String {
        let (ax, ay) = p
            .shapes
            .iter()
            .find_map(|s| match s {
                Shape::Text { x, y, text, .. } if text == above => Some((*x, *y)),
                _ => None,
            })
            .unwrap_or_else(|| panic!("{above} is not drawn"));
        p.shapes
            .iter()
            .filter_map(|s| match s {
                Shape::Text { x, y, text, .. } if *x == ax && *y > ay => Some((*y, text)),
                _ => None,
            })
            .min()
            .map(|(_, t)| t.clone())
            .unwrap()
    }

    pub fn marked_cards(p: &Picture) -> Vec<String> {
        let mut marked = Vec::new();
        for (i, s) in p.shapes.iter().enumerate() {
            if let Shape::Rect {
                ink: Ink::Marked, ..
            } = s
                && let Some(Shape::Text { text, .. }) = p.shapes.get(i + 1)
            {
                marked.push(text.clone());
            }
        }
        marked
    }
}

#[cfg(test)]
mod tests {
    use super::probe::{marked_cards, under};
    use super::*;
    use Card::*;

    fn view(supply: &Supply) -> TableView<'_> {
        TableView {
            supply,
            current: "player1",
            bot: "player2",
            actions: 1,
            buys: 1,
            money: (0, "coins"),
            played: Vec::new(),
            hand: &[Copper, Copper, Estate, Copper, Village],
            deck: 5,
            discard: 0,
            ended: None,
        }
    }

    #[test]
    fn every_pile_is_drawn_with_its_count() {
        let mut supply = Supply::for_players(2);
        supply.set(Smithy, 3);
        supply.set(Gold, 0);
        let p = picture(&view(&supply));
        for card in Card::SUPPLY {
            assert!(p.texts().contains(&card.name()), "{card} has no pile");
        }
        assert_eq!(under(&p, "smithy"), "3");
        assert_eq!(under(&p, "gold"), "0", "an empty pile keeps its place");
        assert_eq!(under(&p, "province"), "8");
        assert_eq!(under(&p, "the bot's deck"), "5");
        assert_eq!(under(&p, "the bot's discard"), "0");
        assert!(
            p.texts()
                .contains(&"player1's turn: actions 1, buys 1, coins 0")
        );
        assert_eq!(
            p.caption.as_deref(),
            Some("player1's turn; the bot is player2")
        );
        // The hand, in its order; nothing is played yet.
        let t = p.texts();
        let hand_at = t.iter().position(|t| *t == "(none)").unwrap() + 1;
        assert_eq!(
            t[hand_at..],
            ["copper", "copper", "estate", "copper", "village"]
        );
        assert!(marked_cards(&p).is_empty());
        p.assert_inside(MARGIN);
    }

    #[test]
    fn the_card_just_played_is_marked_and_the_latest_plays_are_shown() {
        let supply = Supply::v1(2);
        let mut v = view(&supply);
        v.current = "player2";
        v.money = (2, "coins");
        v.played = vec![Copper, Mine];
        let p = picture(&v);
        assert_eq!(marked_cards(&p), ["mine"]);
        assert!(
            p.texts()
                .contains(&"player2's turn: actions 1, buys 1, coins 2")
        );
        assert_eq!(
            p.caption.as_deref(),
            Some("the bot's turn; the bot is player2")
        );
        // Nine plays: the first two counted, the seven latest drawn.
        v.played = vec![Copper; 8];
        v.played.push(Silver);
        let p = picture(&v);
        assert!(p.texts().contains(&"+2 earlier"));
        assert_eq!(marked_cards(&p), ["silver"]);
        // Six in the plays, three in the hand, one pile.
        assert_eq!(
            p.texts().iter().filter(|t| **t == "copper").count(),
            6 + 3 + 1
        );
    }

    #[test]
    fn a_long_hand_is_cut_with_a_count() {
        let supply = Supply::v1(2);
        let hand = [Copper; 9];
        let mut v = view(&supply);
        v.hand = &hand;
        let p = picture(&v);
        assert!(p.texts().contains(&"+3 more"));
        // Six in the hand, one pile.
        assert_eq!(p.texts().iter().filter(|t| **t == "copper").count(), 6 + 1);
        v.ended = Some(Ending::ProvincesGone);
        let p = picture(&v);
        assert!(p.texts().contains(&"game over: no province left"));
        assert_eq!(
            p.caption.as_deref(),
            Some("the game is over; the bot is player2")
        );
    }

    #[test]
    fn what_a_game_never_changes_comes_first() {
        let supply = Supply::for_players(3);
        let mut later = supply.clone();
        later.take(Silver);
        let a = picture(&view(&supply));
        let mut v = view(&later);
        v.played = vec![Village];
        v.actions = 2;
        let b = picture(&v);
        assert_eq!((a.width, a.height), (b.width, b.height));
        // The board, 17 piles with their names, three labels, two rows of
        // seven card places, two piles of the bot's with their names.
        let fixed = 1 + 17 * 2 + 3 + 2 * 7 + 2 * 2;
        assert_eq!(a.shapes[..fixed], b.shapes[..fixed]);
        assert_ne!(a.shapes[fixed..], b.shapes[fixed..]);
        assert!(a.shapes[..fixed].iter().all(|s| !matches!(
            s,
            Shape::Text {
                ink: Ink::Count,
                ..
            }
        )));
    }
}
