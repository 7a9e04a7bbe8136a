//! The line protocol's table as a picture for the HTML report: the shared
//! Dominion drawing ([`crate::games::dominion::picture`]), the seats named
//! `player1` to `player4` as the protocol names them, the turn's money
//! called `extra-money`.

use crate::games::dominion::kingdom::DominionTable;
use crate::games::dominion::picture::table_picture;
use crate::outcome::Picture;

/// The game as the server tracks it; `bot`: the bot's seat (0-based).
pub fn picture(game: &DominionTable, bot: usize) -> Picture {
    table_picture(game, bot, "extra-money")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::dominion::Card;
    use crate::games::dominion::picture::probe::{marked_cards as marked, under};

    #[test]
    fn a_village_played_is_marked_and_its_actions_counted() {
        let mut rng = fastrand::Rng::with_seed(5);
        let mut game = DominionTable::line(3, &mut rng);
        game.players[0].hand = vec![Card::Village, Card::Market, Card::Copper];
        let before = picture(&game, 1);
        assert_eq!(
            before.caption.as_deref(),
            Some("player1's turn; the bot is player2")
        );
        assert!(
            before
                .texts()
                .contains(&"player1's turn: actions 1, buys 1, extra-money 0")
        );
        // 17 piles; three players: 20 curses, 39 coppers, 12 provinces.
        for (pile, count) in [
            ("curse", "20"),
            ("copper", "39"),
            ("province", "12"),
            ("militia", "10"),
        ] {
            assert_eq!(under(&before, pile), count, "{pile}");
        }
        game.play_action(Card::Village, &[], &mut rng);
        let village = picture(&game, 1);
        assert_eq!(marked(&village), ["village"]);
        assert!(
            village
                .texts()
                .contains(&"player1's turn: actions 2, buys 1, extra-money 0")
        );
        game.play_action(Card::Market, &[], &mut rng);
        let market = picture(&game, 1);
        assert_eq!(marked(&market), ["market"], "only the card just played");
        assert!(
            market
                .texts()
                .contains(&"player1's turn: actions 2, buys 2, extra-money 1")
        );
        // The bot's own hand, not the current player's.
        let bot_hand: Vec<&str> = game.players[1].hand.iter().map(|c| c.name()).collect();
        let t = market.texts();
        assert_eq!(t[t.len() - bot_hand.len()..], bot_hand[..]);
        assert_eq!(under(&market, "the bot's deck"), "5");
    }
}
