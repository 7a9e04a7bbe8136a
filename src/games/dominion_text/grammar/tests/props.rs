use crate::games::dominion_text::cards::{Card, SUPPLY_ORDER};
use crate::games::dominion_text::grammar::*;
use proptest::prelude::*;

// ---- properties ---------------------------------------------------------------

fn any_card() -> impl Strategy<Value = Card> + Clone {
    (0..SUPPLY_ORDER.len()).prop_map(|i| SUPPLY_ORDER[i])
}

fn any_seat() -> impl Strategy<Value = Seat> {
    (1u8..=4).prop_map(|n| Seat::new(n).unwrap())
}

fn any_server_message() -> impl Strategy<Value = ServerMessage> {
    let cards = proptest::collection::vec(any_card(), 0..8);
    let some_cards = proptest::collection::vec(any_card(), 1..8);
    let kind = (0..4usize).prop_map(|i| CardListKind::ALL[i]);
    prop_oneof![
        any_seat().prop_map(ServerMessage::NameRequest),
        any_seat().prop_map(ServerMessage::VersionRequest),
        Just(ServerMessage::Kingdom),
        proptest::array::uniform17(any::<u32>()).prop_map(ServerMessage::Supply),
        (any_seat(), kind, some_cards).prop_map(|(seat, kind, cards)| ServerMessage::CardList {
            seat,
            kind,
            cards
        }),
        (any_seat(), proptest::option::of(any_card()))
            .prop_map(|(s, card)| ServerMessage::TopDiscard(s, card)),
        (any_seat(), any_card()).prop_map(|(s, card)| ServerMessage::Revealed(s, card)),
        (any::<u32>(), any::<u32>(), any::<u32>(), cards.clone()).prop_map(
            |(actions, buys, extra_money, hand)| ServerMessage::PlayTurn {
                actions,
                buys,
                extra_money,
                hand
            }
        ),
        (any::<u32>(), cards).prop_map(|(discard, hand)| ServerMessage::Attack { discard, hand }),
    ]
}

fn any_request() -> impl Strategy<Value = Request> {
    prop_oneof![
        any_seat().prop_map(Request::Name),
        any_seat().prop_map(Request::Version),
        Just(Request::PlayTurn),
        Just(Request::Attack),
    ]
}

proptest! {
    #[test]
    fn every_server_message_prints_and_parses_back(m in any_server_message()) {
        let text = m.to_string();
        prop_assert!(!text.contains("  ") && !text.ends_with(' ') && !text.contains('\n'));
        prop_assert_eq!(parse_server(&text), Ok(m));
    }

    #[test]
    fn classification_never_panics_and_is_deterministic(
        request in any_request(),
        bytes in proptest::collection::vec(any::<u8>(), 0..64),
    ) {
        let first = judge_reply(request, &bytes);
        prop_assert_eq!(&first, &judge_reply(request, &bytes));
        // Every finding is a rule of this game's catalogue.
        for f in &first.findings {
            prop_assert!(crate::games::dominion_text::catalogue::CATALOGUE.by_id(f.rule.id).is_some());
        }
        let _ = judge_unexpected(&bytes);
        if let Ok(text) = std::str::from_utf8(&bytes) {
            let _ = parse_server(text);
        }
    }

    #[test]
    fn replies_made_of_reply_words_never_panic(
        request in any_request(),
        words in proptest::collection::vec(
            prop_oneof![
                Just("play-reply"), Just("pass"), Just("buy"), Just("action"), Just("reply"),
                Just("workshop"), Just("discard"), Just("reaction"), Just("moat"), Just("Gold"),
                Just("gold"), Just("player"), Just("player1"), Just("version"), Just("1"),
                Just(" "), Just("\t"), Just("\r"),
            ],
            0..8,
        ),
    ) {
        let line = words.join(" ");
        let j = judge_reply(request, line.as_bytes());
        prop_assert_eq!(&j, &judge_reply(request, line.as_bytes()));
        // A reply to a play-request is a play-reply; failures carry exactly
        // one grammar/handshake finding after the framing warnings.
        let non_framing = j
            .findings
            .iter()
            .filter(|f| !f.rule.id.starts_with("dominion-text.frame."))
            .count();
        if j.outcome == Outcome::Invalid {
            prop_assert_eq!(non_framing, 1);
        }
    }
}
