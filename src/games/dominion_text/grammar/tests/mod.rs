//! Tests of the grammar: server messages (print exactly, parse back,
//! reject the rest) here; bot lines in `reply`; properties in `props`.

mod props;
mod reply;

use super::*;

pub(super) fn c(card: Card) -> Card {
    card
}

pub(super) fn seat(n: u8) -> Seat {
    Seat::new(n).unwrap()
}

/// Prints `m`, checks the exact text and that it parses back to `m`.
fn prints(m: ServerMessage, text: &str) {
    assert_eq!(m.to_string(), text);
    assert_eq!(parse_server(text), Ok(m), "{text}");
}

fn rejected(text: &str) -> ParseError {
    parse_server(text).expect_err(text)
}

// ---- server -> bot ----------------------------------------------------------

#[test]
fn handshake_and_kingdom_print_exactly() {
    prints(ServerMessage::NameRequest(seat(1)), "player player1 name");
    prints(
        ServerMessage::VersionRequest(seat(4)),
        "player player4 version 1",
    );
    prints(
        ServerMessage::Kingdom,
        "game kingdom-cards cellar market militia mine moat remodel smithy village woodcutter workshop",
    );
    assert_eq!(
        ServerMessage::NameRequest(seat(2)).request(),
        Some(Request::Name(seat(2)))
    );
    assert_eq!(
        ServerMessage::VersionRequest(seat(3)).request(),
        Some(Request::Version(seat(3)))
    );
    assert_eq!(ServerMessage::Kingdom.request(), None);
}

#[test]
fn supply_prints_all_17_piles_in_order() {
    // The document's own example (§4.3).
    let text = "supply curse 10 copper 46 silver 38 gold 30 estate 8 duchy 8 province 8 cellar 10 market 10 militia 9 mine 10 moat 10 remodel 10 smithy 9 village 10 woodcutter 10 workshop 10";
    let counts = [
        10, 46, 38, 30, 8, 8, 8, 10, 10, 9, 10, 10, 10, 9, 10, 10, 10,
    ];
    prints(ServerMessage::Supply(counts), text);
    assert_eq!(ServerMessage::Supply(counts).request(), None);
    prints(
        ServerMessage::Supply([0; 17]),
        "supply curse 0 copper 0 silver 0 gold 0 estate 0 duchy 0 province 0 cellar 0 market 0 militia 0 mine 0 moat 0 remodel 0 smithy 0 village 0 woodcutter 0 workshop 0",
    );
    // Piles out of order, missing, or counts not canonical.
    assert_eq!(
        rejected(&text.replace("curse 10 copper 46", "copper 46 curse 10")).column,
        8
    );
    assert!(parse_server(&text.replace(" workshop 10", "")).is_err());
    assert!(parse_server(&text.replace("gold 30", "gold 030")).is_err());
    assert!(parse_server(&text.replace("gold 30", "gold +30")).is_err());
    assert!(parse_server(&text.replace("gold 30", "gold -1")).is_err());
    assert!(parse_server(&format!("{text} curse 1")).is_err());
}

#[test]
fn info_lines_print_exactly() {
    for (kind, word) in [
        (CardListKind::Gained, "gained"),
        (CardListKind::Played, "played"),
        (CardListKind::Trashed, "trashed"),
        (CardListKind::Discarded, "discarded"),
    ] {
        let m = ServerMessage::CardList {
            seat: seat(2),
            kind,
            cards: vec![c(Card::Smithy), c(Card::Copper), Card::Curse],
        };
        assert_eq!(m.request(), None);
        prints(m, &format!("player2 {word} smithy copper curse"));
        // At least one card.
        assert_eq!(rejected(&format!("player2 {word}")).column, 9 + word.len());
    }
    prints(
        ServerMessage::TopDiscard(seat(1), Some(c(Card::Silver))),
        "player1 top-discard silver",
    );
    prints(
        ServerMessage::TopDiscard(seat(3), None),
        "player3 top-discard",
    );
    prints(
        ServerMessage::Revealed(seat(4), c(Card::Moat)),
        "player4 revealed hand moat",
    );
    assert!(parse_server("player1 top-discard silver gold").is_err());
    assert!(parse_server("player1 revealed moat").is_err());
    assert!(parse_server("player5 gained gold").is_err());
    assert!(parse_server("player1 bought gold").is_err());
}

#[test]
fn play_requests_print_exactly() {
    let turn = ServerMessage::PlayTurn {
        actions: 0,
        buys: 1,
        extra_money: 0,
        hand: vec![
            c(Card::Copper),
            c(Card::Estate),
            c(Card::Copper),
            c(Card::Silver),
        ],
    };
    assert_eq!(turn.request(), Some(Request::PlayTurn));
    prints(
        turn,
        "play-request play-turn actions 0 buys 1 extra-money 0 hand copper estate copper silver",
    );
    // An empty hand ends the line with `hand`.
    prints(
        ServerMessage::PlayTurn {
            actions: 2,
            buys: 2,
            extra_money: 1,
            hand: vec![],
        },
        "play-request play-turn actions 2 buys 2 extra-money 1 hand",
    );
    let attack = ServerMessage::Attack {
        discard: 2,
        hand: vec![
            c(Card::Copper),
            c(Card::Moat),
            c(Card::Estate),
            c(Card::Gold),
            c(Card::Estate),
        ],
    };
    assert_eq!(attack.request(), Some(Request::Attack));
    prints(
        attack,
        "play-request attack discard 2 hand copper moat estate gold estate",
    );
    prints(
        ServerMessage::Attack {
            discard: 0,
            hand: vec![],
        },
        "play-request attack discard 0 hand",
    );
    assert!(parse_server("play-request play-turn actions 1 buys 1 hand copper").is_err());
    assert!(parse_server("play-request attack discard 2 hand Copper").is_err());
    assert!(parse_server("play-request clean-up").is_err());
}

#[test]
fn scripted_messages_must_be_canonical() {
    // Framing of §1.1: single spaces, none leading or trailing, no tabs, no CR.
    assert_eq!(rejected("player  player1 name").column, 8);
    assert_eq!(rejected(" player player1 name").column, 1);
    assert_eq!(rejected("player player1 name ").column, 21);
    assert_eq!(rejected("player\tplayer1 name").column, 7);
    assert!(parse_server("player player1 name\r").is_err());
    assert!(parse_server("").is_err());
    assert!(parse_server("Player player1 name").is_err());
    assert!(parse_server("player player0 name").is_err());
    assert!(parse_server("player player1 version 2").is_err());
    assert!(parse_server("player player1 version 1 1").is_err());
    assert!(parse_server("game kingdom-cards cellar").is_err());
    // The column points at the offending token.
    assert_eq!(rejected("player1 gained gold platinum").column, 21);
    assert_eq!(
        rejected("play-request play-turn actions 1 buys x").column,
        39
    );
}
