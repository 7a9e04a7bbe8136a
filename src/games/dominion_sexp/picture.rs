//! The version-1 table as a picture for the HTML report: the shared
//! Dominion drawing ([`crate::games::dominion::picture`]), the seats named
//! as the game names them, the turn's money called `coins`.

use super::rules::DominionTable;
use crate::games::dominion::picture::table_picture;
use crate::outcome::Picture;

/// The game as the dealer tracks it; `bot`: the bot's seat (0-based).
pub fn picture(game: &DominionTable, bot: usize) -> Picture {
    table_picture(game, bot, "coins")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::dominion::picture::probe::{marked_cards as marked, under};
    use crate::games::dominion_sexp::messages::{Card, Play};
    use crate::games::dominion_sexp::rules::Supply;

    #[test]
    fn a_buy_and_an_add_show_in_the_supply_the_coins_and_the_plays() {
        let mut rng = fastrand::Rng::with_seed(3);
        let mut game = DominionTable::v1(&["bot", "other"], Supply::v1(2), &mut rng);
        // A known hand for the bot, who plays first.
        game.players[0].hand = vec![Card::Copper, Card::Copper, Card::Estate];
        let before = picture(&game, 0);
        assert_eq!(
            before.caption.as_deref(),
            Some("the bot's turn; the bot is bot")
        );
        assert!(
            before
                .texts()
                .contains(&"bot's turn: actions 1, buys 1, coins 0")
        );
        assert_eq!(under(&before, "silver"), "40");
        assert!(marked(&before).is_empty());
        game.apply(Play::Add(Card::Copper), &mut rng).unwrap();
        game.apply(Play::Add(Card::Copper), &mut rng).unwrap();
        let added = picture(&game, 0);
        assert_eq!(marked(&added), ["copper"]);
        assert!(
            added
                .texts()
                .contains(&"bot's turn: actions 0, buys 1, coins 2")
        );
        game.apply(Play::Buy(Card::Estate), &mut rng).unwrap();
        let bought = picture(&game, 0);
        assert!(
            bought
                .texts()
                .contains(&"bot's turn: actions 0, buys 0, coins 0")
        );
        // Estate's pile went from 8 to 7; the bot's discard pile holds it.
        assert_eq!(
            (under(&before, "estate"), under(&bought, "estate")),
            ("8".into(), "7".into())
        );
        assert_eq!(under(&bought, "the bot's discard"), "1");
        // The other seat's turn: the bot's hand is still the one drawn.
        game.apply(Play::Clean(Some(Card::Estate)), &mut rng)
            .unwrap();
        let after = picture(&game, 0);
        assert_eq!(
            after.caption.as_deref(),
            Some("other's turn; the bot is bot")
        );
        assert!(
            after
                .texts()
                .contains(&"other's turn: actions 1, buys 1, coins 0")
        );
        assert!(marked(&after).is_empty(), "no play yet in the new turn");
        let hand: Vec<&str> = game.players[0].hand.iter().map(|c| c.name()).collect();
        let t = after.texts();
        assert_eq!(t[t.len() - hand.len()..], hand[..]);
    }
}
