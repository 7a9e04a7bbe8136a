//! Invariants of the scenario loader on arbitrary input, shared by the cargo-fuzz
//! target in `fuzz/` (libFuzzer, nightly) and the proptests below (stable,
//! in `cargo test`). Each function takes raw bytes, must not panic for any
//! input, and panics (with the offending input) when an invariant fails: more
//! than "no crash", each checks that a parse prints back to the same bytes or
//! that judging twice gives the same verdict.

use crate::scenario::load::{MAX_PATTERN_BYTES, MAX_TEXT_BYTES, parse};
use crate::scenario::{Expect, Step};
use crate::suite::lint::lint;

/// The scenario loader: parsing is deterministic, what it accepts keeps the
/// loader's bounds, and linting an accepted scenario (which plays it through
/// the game's rules) never panics.
pub fn scenario_loader(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    for game in crate::games::ALL {
        let first = parse(text, "fuzz.yaml", Some(game.id()));
        let again = parse(text, "fuzz.yaml", Some(game.id()));
        assert_eq!(
            format!("{first:?}"),
            format!("{again:?}"),
            "parsing is not deterministic: {text:?}"
        );
        let Ok(scenario) = first else { continue };
        for (step, _) in &scenario.steps {
            match step {
                Step::Send(t) | Step::Expect(Expect::Reply(t)) => {
                    assert!(t.len() <= MAX_TEXT_BYTES, "{text:?}")
                }
                Step::Expect(Expect::Matches(p)) => {
                    assert!(p.len() <= MAX_PATTERN_BYTES, "{text:?}")
                }
                _ => {}
            }
        }
        let once = lint(&scenario, *game);
        assert_eq!(once, lint(&scenario, *game), "lint is not deterministic");
    }
}

#[cfg(test)]
mod proptests {
    //! The fuzz target's invariant on generated scenario-shaped text and
    //! on every built-in suite.
    use super::*;
    use proptest::prelude::*;

    // Fewer cases than the grammars': each input parses twice per game and
    // lints what it accepts.
    proptest! {
        #![proptest_config(crate::testing::fuzz_config(600))]

        #[test]
        fn scenario_loader_shaped(
            text in "(name: t\n|game: kalah\n|steps:\n|  - send: \"START;South\"\n|  - expect: legal-move\n|  - expect: \\{ matches: \"[a-z()*+]{0,8}\" \\}\n|  - opponent: [1-7]\n|  - play: to-end\n|  - close-input\n|  - send: \"name\"\n|options: \\{ holes: [0-9] \\}\n|&a |\\*a|\\[|\\]|\\{|\\}|: |- |\n|  ){0,24}"
        ) {
            scenario_loader(text.as_bytes());
        }
    }

    /// The complete built-in suites load and lint the same way twice.
    #[test]
    fn builtin_scenarios_keep_the_loader_invariants() {
        for (_, text) in crate::scenario::builtin::files() {
            scenario_loader(text.as_bytes());
        }
    }
}
