//! Invariants of the Kalah grammar on arbitrary input, shared by the cargo-fuzz
//! target in `fuzz/` (libFuzzer, nightly) and the proptests below (stable,
//! in `cargo test`). Each function takes raw bytes, must not panic for any
//! input, and panics (with the offending input) when an invariant fails: more
//! than "no crash", each checks that a parse prints back to the same bytes or
//! that judging twice gives the same verdict.

use super::grammar::{BotMessage, classify_bot_line, format_bot_message, parse_engine_message};
use super::rules::Move;

/// The Kalah grammar: an engine line that parses prints back to exactly
/// itself; a bot line that is accepted names a hole in range, and is the
/// canonical text of its move unless flagged non-canonical; classifying is
/// deterministic.
pub fn grammar(data: &[u8]) {
    let Some((&size, line)) = data.split_first() else {
        return;
    };
    let holes = usize::from(size % 12) + 1;
    if let Ok(text) = std::str::from_utf8(line)
        && let Ok(message) = parse_engine_message(text, holes)
    {
        assert_eq!(message.to_line(), text, "engine line does not round-trip");
        assert_eq!(parse_engine_message(&message.to_line(), holes), Ok(message));
    }
    let verdict = classify_bot_line(line, holes);
    assert_eq!(verdict, classify_bot_line(line, holes), "not deterministic");
    match verdict {
        Ok(BotMessage::Swap) => assert_eq!(line, b"SWAP"),
        Ok(BotMessage::Move {
            hole,
            non_canonical,
        }) => {
            assert!((1..=holes).contains(&usize::from(hole)), "hole {hole}");
            let canonical = format_bot_message(Move::Hole(hole));
            assert_eq!(
                line == canonical.as_bytes(),
                !non_canonical,
                "{:?}",
                String::from_utf8_lossy(line)
            );
            // The canonical form is accepted as canonical.
            assert_eq!(
                classify_bot_line(canonical.as_bytes(), holes),
                Ok(BotMessage::Move {
                    hole,
                    non_canonical: false
                })
            );
        }
        Err(rejection) => assert!(!rejection.detail.is_empty()),
    }
}

#[cfg(test)]
mod proptests {
    //! The fuzz target's invariant with a few thousand generated inputs:
    //! arbitrary bytes, and text shaped like the protocol.
    use super::*;
    use proptest::prelude::*;


    proptest! {
        #![proptest_config(crate::testing::fuzz_config(3000))]

        #[test]
        fn kalah_grammar_bytes(data in prop::collection::vec(any::<u8>(), 0..40)) {
            grammar(&data);
        }

        #[test]
        fn kalah_grammar_shaped(
            size in any::<u8>(),
            line in "(MOVE;|SWAP|START;|CHANGE;|END|North|South|YOU|OPP|SWAP;|[0-9]{1,3}|,|;|\\+|-|0|\r| )*"
        ) {
            let mut data = vec![size];
            data.extend_from_slice(line.as_bytes());
            grammar(&data);
        }
    }
}
