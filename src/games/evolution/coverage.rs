//! The Evolution situations a run should reach (issue 30), as data, and the
//! rules a feeding reply kept: the coverage report counts both
//! (`crate::coverage`).

use super::catalogue as c;
use super::engine::FeedOption;
use super::model::{Card, Species, Trait};
use crate::coverage::{Aims, Reached, Situation};
use std::collections::VecDeque;
use crate::verdict::RuleId;

const fn s(id: &'static str, what: &'static str) -> Situation {
    Situation { id, what }
}

/// One per trait, in the order of `Trait::ALL`: a feeding decision where
/// one of the bot's species had it.
pub static TRAIT_IN_FEEDING: [Situation; 16] = [
    s("evolution.trait.ambush", "a feeding decision with ambush on the bot's board"),
    s("evolution.trait.burrowing", "a feeding decision with burrowing on the bot's board"),
    s("evolution.trait.carnivore", "a feeding decision with carnivore on the bot's board"),
    s("evolution.trait.climbing", "a feeding decision with climbing on the bot's board"),
    s("evolution.trait.cooperation", "a feeding decision with cooperation on the bot's board"),
    s("evolution.trait.fat-tissue", "a feeding decision with fat-tissue on the bot's board"),
    s("evolution.trait.fertile", "a feeding decision with fertile on the bot's board"),
    s("evolution.trait.foraging", "a feeding decision with foraging on the bot's board"),
    s("evolution.trait.hard-shell", "a feeding decision with hard-shell on the bot's board"),
    s("evolution.trait.herding", "a feeding decision with herding on the bot's board"),
    s("evolution.trait.horns", "a feeding decision with horns on the bot's board"),
    s("evolution.trait.long-neck", "a feeding decision with long-neck on the bot's board"),
    s("evolution.trait.pack-hunting", "a feeding decision with pack-hunting on the bot's board"),
    s("evolution.trait.scavenger", "a feeding decision with scavenger on the bot's board"),
    s("evolution.trait.symbiosis", "a feeding decision with symbiosis on the bot's board"),
    s("evolution.trait.warning-call", "a feeding decision with warning-call on the bot's board"),
];
pub static ATTACK_REFUSED: Situation = s(
    "evolution.feed.attack-refused",
    "the bot had a hungry carnivore but every attack was refused by the targets' traits",
);
pub static FAT_STORE: Situation = s(
    "evolution.feed.fat-store",
    "the bot stored food as fat tissue",
);
pub static FORAGING_CHAIN: Situation = s(
    "evolution.feed.foraging-chain",
    "the bot fed a species whose foraging took a second token and whose cooperation fed its neighbour",
);
/// In the order of the player counts 3–8.
pub static PLAYERS: [Situation; 6] = [
    s("evolution.players.3", "a game of 3 players"),
    s("evolution.players.4", "a game of 4 players"),
    s("evolution.players.5", "a game of 5 players"),
    s("evolution.players.6", "a game of 6 players"),
    s("evolution.players.7", "a game of 7 players"),
    s("evolution.players.8", "a game of 8 players"),
];

pub static SITUATIONS: [&Situation; 25] = [
    &TRAIT_IN_FEEDING[0],
    &TRAIT_IN_FEEDING[1],
    &TRAIT_IN_FEEDING[2],
    &TRAIT_IN_FEEDING[3],
    &TRAIT_IN_FEEDING[4],
    &TRAIT_IN_FEEDING[5],
    &TRAIT_IN_FEEDING[6],
    &TRAIT_IN_FEEDING[7],
    &TRAIT_IN_FEEDING[8],
    &TRAIT_IN_FEEDING[9],
    &TRAIT_IN_FEEDING[10],
    &TRAIT_IN_FEEDING[11],
    &TRAIT_IN_FEEDING[12],
    &TRAIT_IN_FEEDING[13],
    &TRAIT_IN_FEEDING[14],
    &TRAIT_IN_FEEDING[15],
    &ATTACK_REFUSED,
    &FAT_STORE,
    &FORAGING_CHAIN,
    &PLAYERS[0],
    &PLAYERS[1],
    &PLAYERS[2],
    &PLAYERS[3],
    &PLAYERS[4],
    &PLAYERS[5],
];

/// The bot is asked to feed with `boards`, and may choose among `options`.
pub fn feeding_asked(reached: &mut Reached, boards: &[Species], options: &[FeedOption]) {
    for (i, t) in Trait::ALL.iter().enumerate() {
        if boards.iter().any(|sp| sp.has(*t)) {
            reached.hit(&TRAIT_IN_FEEDING[i]);
        }
    }
    let hungry_carnivore = boards
        .iter()
        .any(|sp| sp.has(Trait::Carnivore) && sp.hungry());
    if hungry_carnivore && !options.iter().any(|o| matches!(o, FeedOption::Attack { .. })) {
        reached.hit(&ATTACK_REFUSED);
    }
}

/// A game of `players` players started.
pub fn players(reached: &mut Reached, players: usize) {
    if let Some(sit) = players.checked_sub(3).and_then(|i| PLAYERS.get(i)) {
        reached.hit(sit);
    }
}

/// Whether one feeding of species `s` on `boards`, with `watering_hole`
/// tokens left, is a foraging chain (rules §3.6): it takes a token, its
/// foraging a second (it is still hungry and a token is left), and then its
/// cooperation gives its hungry right neighbour a feeding from a token
/// still left.
pub fn foraging_chain(boards: &[Species], s: usize, watering_hole: u32) -> bool {
    let (Some(fed), Some(next)) = (boards.get(s), boards.get(s + 1)) else {
        return false;
    };
    fed.has(Trait::Foraging)
        && fed.has(Trait::Cooperation)
        && fed.population >= fed.food + 2
        && next.hungry()
        && watering_hole >= 3
}

/// Generated play aiming at what is missing (`coverage::Aims`): the
/// situations a card of trait `t` in the bot's hand makes reachable, if the
/// bot puts it on a board: a feeding decision with that trait; with fat
/// tissue a fat store; with carnivore an attack refused; with foraging or
/// cooperation a foraging chain.
pub fn card_reaches(t: Trait) -> Vec<&'static Situation> {
    let i = Trait::ALL.iter().position(|a| *a == t).unwrap_or(0);
    vec![&TRAIT_IN_FEEDING[i]]
}

/// What is already within the bot's reach, so no card is dealt for it:
/// what it reached (`own`), and the situations of the traits on its boards
/// (a foraging chain once one board holds both foraging and cooperation).
fn within_reach(own: &Reached, boards: &[Species]) -> Reached {
    let mut within = own.clone();
    for species in boards {
        for t in &species.traits {
            for s in card_reaches(*t) {
                if s.id != FORAGING_CHAIN.id {
                    within.hit(s);
                }
            }
        }
        if species.has(Trait::Foraging) && species.has(Trait::Cooperation) {
            within.hit(&FORAGING_CHAIN);
        }
    }
    within
}

/// Step 1 is about to deal the bot the cards at `slots` of `deck` (top
/// first); the bot has `boards`. The trait of the first card from there
/// down that makes the most wanted situations reachable is the aim, and
/// each of those slots in turn gets the card of that trait from there down
/// with the most food (the two swap places: the deck stays a shuffle, as the rules
/// want it, §3.3). A whole hand of one trait puts it on the bot's board
/// whichever card the bot trades for a board. When no card makes anything
/// wanted reachable, the deal is the seed's; no random number is drawn.
pub fn aim_deal(
    aims: &Aims,
    own: &Reached,
    boards: &[Species],
    deck: &mut VecDeque<Card>,
    slots: std::ops::Range<usize>,
) {
    let end = slots.end.min(deck.len());
    if slots.start >= end {
        return;
    }
    let within = within_reach(own, boards);
    let choices = (slots.start..deck.len()).map(|j| (j, card_reaches(deck[j].trait_)));
    let Some(best) = aims.choose(&within, choices) else {
        return;
    };
    let aim = deck[best].trait_;
    for slot in slots.start..end {
        // The most food first (the first of equals): the card the bot
        // gives up as food feeds the watering hole its species need.
        let most_food = (slot..deck.len())
            .filter(|&j| deck[j].trait_ == aim)
            .fold(None, |m: Option<usize>, j| match m {
                Some(m) if deck[m].food >= deck[j].food => Some(m),
                _ => Some(j),
            });
        if let Some(j) = most_food {
            deck.swap(slot, j);
        }
    }
}

/// The rules a feeding choice the referee accepted has kept (the checks
/// `feeding::judge` made on the way for that kind of choice); `boards` and
/// `watering_hole` are as the bot was asked.
pub fn feeding_kept(
    reached: &mut Reached,
    choice: FeedOption,
    warned: bool,
    boards: &[Species],
    watering_hole: u32,
) -> Vec<RuleId> {
    let mut kept = vec![
        c::FEED_SHAPE.id,
        c::FEED_FALSE_REPLY.id,
        c::FEED_SPECIES_OUT_OF_RANGE.id,
        c::VALUE_NOT_NATURAL.id,
    ];
    match choice {
        FeedOption::Vegetarian(s) => {
            if foraging_chain(boards, s, watering_hole) {
                reached.hit(&FORAGING_CHAIN);
            }
            kept.extend([c::FEED_VEGETARIAN_IS_CARNIVORE.id, c::FEED_NOT_HUNGRY.id])
        }
        FeedOption::Fat { .. } => {
            reached.hit(&FAT_STORE);
            kept.extend([c::FEED_NO_FAT_TISSUE.id, c::FEED_FAT_AMOUNT.id]);
        }
        FeedOption::Attack { .. } => {
            kept.extend([
                c::FEED_NOT_CARNIVORE.id,
                c::FEED_NOT_HUNGRY.id,
                c::FEED_PLAYER_OUT_OF_RANGE.id,
                c::FEED_TARGET_OUT_OF_RANGE.id,
                c::FEED_TARGET_NOT_ATTACKABLE.id,
            ]);
            if !warned {
                kept.push(c::FEED_ATTACK_RULES_FORBID.id);
            }
        }
    }
    kept
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_foraging_cooperating_species_fed_with_room_and_tokens_is_a_chain() {
        // The rules' §3.6 example: foraging+cooperation twice, then plain.
        let chain = |traits: &[Trait], pop| Species {
            food: 0,
            body: 1,
            population: pop,
            traits: traits.to_vec(),
            fat_food: 0,
        };
        let both = [Trait::Foraging, Trait::Cooperation];
        let boards = vec![chain(&both, 5), chain(&both, 5), chain(&[], 3)];
        let mut r = Reached::new();
        feeding_kept(&mut r, FeedOption::Vegetarian(0), false, &boards, 12);
        assert!(r.has(&FORAGING_CHAIN));
        // Not: the last board has no neighbour; too few tokens; no room
        // for a second token; foraging alone.
        assert!(!foraging_chain(&boards, 2, 12));
        assert!(!foraging_chain(&boards, 0, 2));
        let mut full = boards.clone();
        full[0].food = 4;
        assert!(!foraging_chain(&full, 0, 12));
        let lone = vec![chain(&[Trait::Foraging], 5), chain(&[], 3)];
        assert!(!foraging_chain(&lone, 0, 12));
        let mut r = Reached::new();
        feeding_kept(&mut r, FeedOption::Vegetarian(2), false, &boards, 12);
        assert!(!r.has(&FORAGING_CHAIN));
    }

    #[test]
    fn the_bot_is_dealt_a_hand_of_one_wanted_trait_with_the_most_food_first() {
        use crate::coverage::{Aims, Coverage};
        let (h, s) = (Trait::Horns, Trait::Scavenger);
        let deck: VecDeque<Card> = [
            Card::new(1, h),
            Card::new(-2, s),
            Card::new(0, h),
            Card::new(3, s),
            Card::new(2, s),
            Card::new(1, Trait::Burrowing),
        ]
        .into();
        // Horns was seen in a feeding decision before: the first wanted card
        // from the bot's first slot (1) down is a scavenger, so its three
        // slots get the scavengers, the most food first.
        let mut before = Coverage::default();
        before.reached(TRAIT_IN_FEEDING[10].id, 1);
        let mut aimed = deck.clone();
        aim_deal(&Aims::after([&before]), &Reached::new(), &[], &mut aimed, 1..4);
        let got: Vec<(i8, Trait)> = aimed.iter().map(|c| (c.food, c.trait_)).collect();
        assert_eq!(got, [(1, h), (3, s), (2, s), (-2, s), (0, h), (1, Trait::Burrowing)]);
        // A scavenger already on the bot's board: the burrowing card is the
        // aim; one card of it, the other slots as dealt.
        let mut on_board = deck.clone();
        let board = Species::fresh(vec![s]);
        aim_deal(&Aims::after([&before]), &Reached::new(), &[board], &mut on_board, 1..3);
        assert_eq!(on_board[1], Card::new(1, Trait::Burrowing));
        assert_eq!(on_board[2], Card::new(0, h));
        // Nothing wanted: the deal is the seed's.
        let mut all = Coverage::default();
        for sit in SITUATIONS {
            all.reached(sit.id, 1);
        }
        let mut unaimed = deck.clone();
        aim_deal(&Aims::after([&all]), &Reached::new(), &[], &mut unaimed, 0..6);
        assert_eq!(unaimed, deck);
    }

    #[test]
    fn each_trait_has_its_situation_in_order() {
        for (i, t) in Trait::ALL.iter().enumerate() {
            assert_eq!(
                TRAIT_IN_FEEDING[i].id,
                format!("evolution.trait.{}", t.name()),
                "{i}"
            );
        }
    }
}
