//! The Evolution table as a picture for the HTML report: the watering hole,
//! one row per player (in seat order, which stays put while the turn order
//! rotates) with its species boards — population, body, food, fat store and
//! traits — the bot's row marked with its bag, and the bot's hand below
//! (the bag and the hand are what `start` tells the bot; the others' are
//! not drawn). What stays the same all game (the rows and their names, the
//! places, the labels) comes first, so the report draws it once for all
//! the steps; the size of the drawing depends only on the number of
//! players.

use super::dealer::Table;
use super::model::{Card, Species, Trait};
use crate::outcome::{Ink, Picture, Shape};

const MARGIN: i32 = 12;
const GAP: i32 = 6;
/// The watering hole's band at the top.
const HEADER: i32 = 56;
const NAME_W: i32 = 80;
const SPECIES_W: i32 = 88;
const SPECIES_H: i32 = 74;
/// Boards drawn per player; more are counted under the player's name.
const SPECIES_SLOTS: usize = 5;
const ROW_H: i32 = SPECIES_H + 4;
const CARD_W: i32 = 62;
const CARD_H: i32 = 40;
/// Cards drawn of the bot's hand; more are counted in the last slot.
const CARD_SLOTS: usize = 8;
const LABEL_BAND: i32 = 20;
const WIDTH: i32 = MARGIN + NAME_W + GAP + SPECIES_SLOTS as i32 * (SPECIES_W + GAP) - GAP + MARGIN;

/// The game as the dealer tracks it, for a game of `seats` players (those
/// dropped keep their row); `None` before the first turn is dealt.
pub fn picture(table: &Table, seats: usize) -> Option<Picture> {
    if table.turn == 0 {
        return None;
    }
    let dealer = &table.dealer;
    let rows_top = MARGIN + HEADER;
    let hand_top = rows_top + seats as i32 * (ROW_H + GAP) + LABEL_BAND;
    let height = hand_top + CARD_H + MARGIN;
    let text = |x: i32, y: i32, size: u32, text: String, ink: Ink| Shape::Text {
        x,
        y,
        size,
        text,
        ink,
    };
    let mut shapes = vec![Shape::board(WIDTH, height, 12)];
    let mut changing = Vec::new();
    let hole = (MARGIN + 30, MARGIN + HEADER / 2 - 2);
    shapes.push(Shape::Circle {
        x: hole.0,
        y: hole.1,
        r: 24,
        ink: Ink::Store,
    });
    shapes.push(text(
        hole.0 + 80,
        hole.1,
        12,
        "watering hole".into(),
        Ink::Label,
    ));
    changing.push(text(
        hole.0,
        hole.1,
        18,
        dealer.watering_hole.to_string(),
        Ink::Count,
    ));
    for id in 0..seats {
        let top = rows_top + id as i32 * (ROW_H + GAP);
        let bot = id as u64 == table.bot;
        shapes.push(Shape::Rect {
            x: MARGIN,
            y: top,
            w: (WIDTH - 2 * MARGIN) as u32,
            h: ROW_H as u32,
            round: 6,
            ink: if bot { Ink::Marked } else { Ink::Store },
        });
        let name = if bot {
            "the bot".to_string()
        } else {
            format!("player {}", id + 1)
        };
        let name_x = MARGIN + NAME_W / 2;
        shapes.push(text(name_x, top + 18, 12, name, Ink::Label));
        // The places of the boards: a step draws only what is on them.
        for k in 0..SPECIES_SLOTS {
            shapes.push(Shape::Rect {
                x: species_x(k),
                y: top + 2,
                w: SPECIES_W as u32,
                h: SPECIES_H as u32,
                round: 4,
                ink: Ink::Place,
            });
        }
        let Some(player) = dealer.players.iter().find(|p| p.id == id as u64) else {
            changing.push(text(
                name_x,
                top + 40,
                10,
                "out of the game".into(),
                Ink::Label,
            ));
            continue;
        };
        // Only the bot is told its bag (`start`); the others' stay unsaid.
        if bot {
            changing.push(text(
                name_x,
                top + 40,
                11,
                format!("bag {}", player.bag),
                Ink::Count,
            ));
        }
        if player.boards.is_empty() {
            changing.push(text(
                MARGIN + NAME_W + GAP + SPECIES_W / 2,
                top + ROW_H / 2,
                11,
                "no species".into(),
                Ink::Label,
            ));
        }
        if player.boards.len() > SPECIES_SLOTS {
            changing.push(text(
                name_x,
                top + 60,
                10,
                format!("+{} more boards", player.boards.len() - SPECIES_SLOTS),
                Ink::Label,
            ));
        }
        for (k, species) in player.boards.iter().take(SPECIES_SLOTS).enumerate() {
            species_board(&mut changing, species_x(k), top + 2, species);
        }
    }
    shapes.push(text(
        MARGIN + 48,
        hand_top - LABEL_BAND / 2,
        12,
        "the bot's hand".into(),
        Ink::Label,
    ));
    for i in 0..CARD_SLOTS {
        shapes.push(Shape::Rect {
            x: card_x(i),
            y: hand_top,
            w: CARD_W as u32,
            h: CARD_H as u32,
            round: 4,
            ink: Ink::Place,
        });
    }
    let hand = table
        .bot_index()
        .map_or(&[][..], |b| dealer.players[b].hand.as_slice());
    hand_row(&mut changing, hand_top, hand);
    shapes.append(&mut changing);
    let first = match table.bot_index() {
        Some(b) => format!(
            "the bot plays {} of {} this turn",
            ordinal(b + 1),
            dealer.players.len()
        ),
        None => "the bot is out of the game".to_string(),
    };
    Some(Picture {
        width: WIDTH as u32,
        height: height as u32,
        shapes,
        caption: Some(format!("turn {}; {first}", table.turn)),
    })
}

fn species_x(k: usize) -> i32 {
    MARGIN + NAME_W + GAP + k as i32 * (SPECIES_W + GAP)
}

fn card_x(i: usize) -> i32 {
    MARGIN + i as i32 * (CARD_W + GAP)
}

/// What one species board shows, on its place: population, body, food
/// (and fat store), traits.
fn species_board(out: &mut Vec<Shape>, x: i32, y: i32, s: &Species) {
    let centre = x + SPECIES_W / 2;
    let mut line = |dy: i32, size: u32, text: String, ink: Ink| {
        out.push(Shape::Text {
            x: centre,
            y: y + dy,
            size,
            text,
            ink,
        })
    };
    line(
        13,
        11,
        format!("pop {} body {}", s.population, s.body),
        Ink::Count,
    );
    let fat = if s.has(Trait::FatTissue) {
        format!(" fat {}", s.fat_food)
    } else {
        String::new()
    };
    line(27, 11, format!("food {}{fat}", s.food), Ink::Count);
    for (k, t) in s.traits.iter().enumerate() {
        line(42 + 12 * k as i32, 10, t.name().to_string(), Ink::Label);
    }
}

/// The bot's cards, written on their places.
fn hand_row(out: &mut Vec<Shape>, top: i32, hand: &[Card]) {
    let slot_x = card_x;
    if hand.is_empty() {
        out.push(Shape::Text {
            x: slot_x(0) + CARD_W / 2,
            y: top + CARD_H / 2,
            size: 11,
            text: "(none)".into(),
            ink: Ink::Label,
        });
    }
    let (shown, more) = if hand.len() > CARD_SLOTS {
        (&hand[..CARD_SLOTS - 1], hand.len() + 1 - CARD_SLOTS)
    } else {
        (hand, 0)
    };
    for (i, card) in shown.iter().enumerate() {
        let x = slot_x(i);
        out.push(Shape::Text {
            x: x + CARD_W / 2,
            y: top + 14,
            size: 12,
            text: format!("{:+}", card.food),
            ink: Ink::Count,
        });
        out.push(Shape::Text {
            x: x + CARD_W / 2,
            y: top + 30,
            size: 10,
            text: card.trait_.name().to_string(),
            ink: Ink::Label,
        });
    }
    if more > 0 {
        out.push(Shape::Text {
            x: slot_x(shown.len()) + CARD_W / 2,
            y: top + CARD_H / 2,
            size: 11,
            text: format!("+{more} more"),
            ink: Ink::Label,
        });
    }
}

fn ordinal(n: usize) -> String {
    let suffix = match (n % 10, n % 100) {
        (1, 11) | (2, 12) | (3, 13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::evolution::dealer::Style;

    fn table(players: usize, seat: usize) -> Table {
        let mut rng = fastrand::Rng::with_seed(9);
        let mut t = Table::new(players, seat, &[Style::Reference], &mut rng);
        t.deal_turn();
        t
    }

    #[test]
    fn nothing_is_drawn_before_the_first_turn() {
        let mut rng = fastrand::Rng::with_seed(9);
        let t = Table::new(3, 0, &[Style::Reference], &mut rng);
        assert_eq!(picture(&t, 3), None);
    }

    #[test]
    fn every_species_shows_its_population_body_food_and_traits() {
        let mut t = table(3, 1);
        t.dealer.watering_hole = 7;
        t.dealer.players[1].boards = vec![Species {
            food: 2,
            body: 4,
            population: 3,
            traits: vec![Trait::Carnivore, Trait::FatTissue],
            fat_food: 1,
        }];
        t.dealer.players[1].hand = vec![Card::new(-2, Trait::Horns), Card::new(3, Trait::Foraging)];
        t.dealer.players[1].bag = 5;
        t.dealer.players[2].bag = 6;
        let p = picture(&t, 3).unwrap();
        let all = p.texts();
        for wanted in [
            "7",
            "watering hole",
            "pop 3 body 4",
            "food 2 fat 1",
            "carnivore",
            "fat-tissue",
            "the bot",
            "player 1",
            "player 3",
            "bag 5",
        ] {
            assert!(all.contains(&wanted), "{wanted} missing in {all:?}");
        }
        assert!(!all.contains(&"bag 6"), "only the bot's bag is drawn");
        // The fresh boards of the others: population 1, body 0, food 0.
        assert_eq!(all.iter().filter(|t| **t == "pop 1 body 0").count(), 2);
        assert_eq!(all.iter().filter(|t| **t == "food 0").count(), 2);
        // The bot's hand last, each card's food value and trait.
        assert_eq!(all[all.len() - 4..], ["-2", "horns", "+3", "foraging"]);
        assert_eq!(
            p.caption.as_deref(),
            Some("turn 1; the bot plays 2nd of 3 this turn")
        );
        // The bot's row is marked, the others are not.
        let marked = p
            .shapes
            .iter()
            .filter(|s| {
                matches!(
                    s,
                    Shape::Rect {
                        ink: Ink::Marked,
                        ..
                    }
                )
            })
            .count();
        assert_eq!(marked, 1);
    }

    #[test]
    fn rows_stay_in_seat_order_and_a_dropped_player_keeps_its_row() {
        let mut t = table(4, 0);
        let a = picture(&t, 4).unwrap();
        t.dealer.rotate();
        t.dealer.players.retain(|p| p.id != 2);
        t.dealer.players[0].boards[0].population = 4;
        let b = picture(&t, 4).unwrap();
        assert_eq!((a.width, a.height), (b.width, b.height));
        // Board, watering hole and its label, four rows with their names
        // and board places, the hand's label and card places.
        let fixed = 1 + 2 + 4 * (2 + SPECIES_SLOTS) + 1 + CARD_SLOTS;
        assert_eq!(a.shapes[..fixed], b.shapes[..fixed]);
        assert!(b.texts().contains(&"out of the game"));
        assert!(b.texts().contains(&"pop 4 body 0"));
        assert!(a.shapes[..fixed].iter().all(|s| !matches!(
            s,
            Shape::Text {
                ink: Ink::Count,
                ..
            }
        )));
    }

    #[test]
    fn many_boards_and_cards_are_counted_not_drawn() {
        let mut t = table(3, 0);
        t.dealer.players[0].boards = vec![Species::fresh(Vec::new()); 7];
        t.dealer.players[0].hand = vec![Card::new(1, Trait::Ambush); 10];
        let p = picture(&t, 3).unwrap();
        let all = p.texts();
        assert!(all.contains(&"+2 more boards"));
        assert!(all.contains(&"+3 more"));
        assert_eq!(all.iter().filter(|t| **t == "ambush").count(), 7);
        p.assert_inside(MARGIN);
    }

    #[test]
    fn ordinals() {
        let said: Vec<String> = [1, 2, 3, 4, 8, 11, 12, 21].map(ordinal).to_vec();
        assert_eq!(
            said,
            ["1st", "2nd", "3rd", "4th", "8th", "11th", "12th", "21st"]
        );
    }
}
