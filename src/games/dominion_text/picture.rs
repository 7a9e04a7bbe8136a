//! The line protocol's table as a picture for the HTML report: the shared
//! Dominion drawing ([`crate::games::dominion::picture`]) filled from the
//! server's state, the seats named `player1` to `player4` as the protocol
//! names them.

use super::grammar::Seat;
use crate::games::dominion::kingdom::DominionTable;
use crate::games::dominion::picture::{TableView, picture as draw};
use crate::outcome::Picture;

fn seat_name(index: usize) -> String {
    Seat::new(index as u8 + 1).map_or_else(|| format!("seat {}", index + 1), |s| s.to_string())
}

/// The game as the server tracks it; `bot`: the bot's seat (0-based).
pub fn picture(game: &DominionTable, bot: usize) -> Picture {
    let player = &game.players[bot];
    draw(&TableView {
        supply: &game.supply,
        current: &seat_name(game.current),
        bot: &seat_name(bot),
        actions: game.actions,
        buys: game.buys,
        money: (game.coins, "extra-money"),
        played: game.play_area.clone(),
        hand: &player.hand,
        deck: player.deck.len(),
        discard: player.discard.len(),
        ended: game.ended,
    })
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
