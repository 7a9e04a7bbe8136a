//! Invariants of protocheck's parsers on arbitrary input, shared by the
//! cargo-fuzz targets in `fuzz/` (libFuzzer, nightly) and the proptests
//! below (stable, in `cargo test`). Each function takes raw bytes, must not
//! panic for any input, and panics (with the offending input) when an
//! invariant fails: more than "no crash", each checks that a parse prints back
//! to the same bytes or that judging twice gives the same verdict.

use crate::games::kalah::grammar::{
    BotMessage, classify_bot_line, format_bot_message, parse_engine_message,
};
use crate::games::kalah::rules::Move;
use crate::games::quoridor::notation::{self, Response};
use crate::games::{Assembly, Game, Session};
use crate::scenario::load::{MAX_PATTERN_BYTES, MAX_TEXT_BYTES, parse};
use crate::scenario::{Expect, Options, Step};
use crate::suite::lint::lint;
use std::time::Duration;

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

/// The Kalah grammar: an engine line that parses prints back to exactly
/// itself; a bot line that is accepted names a hole in range, and is the
/// canonical text of its move unless flagged non-canonical; classifying is
/// deterministic.
pub fn kalah_grammar(data: &[u8]) {
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

/// QTP response parsing: a parsed response printed back (`= text` plus the
/// empty line) parses to the same response, with no finding.
pub fn qtp_response(data: &[u8]) {
    let first = notation::parse_response(data);
    assert_eq!(first, notation::parse_response(data), "not deterministic");
    let Ok(parsed) = first else { return };
    let printed = print_response(&parsed.response);
    let again = notation::parse_response(printed.as_bytes())
        .unwrap_or_else(|f| panic!("{printed:?} does not parse again: {}", f.message));
    assert_eq!(again.response, parsed.response, "printed as {printed:?}");
    assert_eq!(again.findings, vec![], "printed as {printed:?}");
    if let Response::Success(text) = &parsed.response {
        let _ = notation::parse_genmove(text, 9);
        let _ = notation::parse_winner(text);
        let _ = notation::parse_list_commands(text);
    }
}

/// A response as a conforming engine writes it: `= text` and the empty
/// line; a payload that starts with a space goes on the line after a bare
/// `=` (after `= ` the parser would take the space for the separator).
fn print_response(r: &Response) -> String {
    let status = if r.is_success() { '=' } else { '?' };
    let text = r.text();
    let sep = if text.is_empty() {
        ""
    } else if text.starts_with(' ') {
        "\n"
    } else {
        " "
    };
    format!("{status}{sep}{text}\n\n")
}

/// QTP response assembly and judging: the bytes, cut into lines, are fed to
/// a session as the reply to a command chosen by the first byte; assembly
/// never panics, and two fresh sessions that assemble and judge the same
/// bytes reach the same verdicts.
pub fn qtp_assembly(data: &[u8]) {
    let Some((&pick, output)) = data.split_first() else {
        return;
    };
    const COMMANDS: &[&str] = &[
        "name",
        "list_commands",
        "genmove black",
        "playmove white E2",
        "playwall black A1 h",
        "winner",
        "showboard",
        "known_command genmove",
        "undo",
        "quit",
    ];
    let command = COMMANDS[usize::from(pick) % COMMANDS.len()];
    let run = || {
        let game = &crate::games::quoridor::QUORIDOR;
        let mut session = game.session(&Options::default()).expect("default options");
        let mut verdicts = Vec::new();
        // A defined position first, as a scenario would set it up.
        for setup in ["boardsize 9", "clear_board", "walls 10"] {
            session.send(setup).expect("a setup command");
            let mut due = 1;
            judge(&mut *session, b"= \n\n", &mut verdicts, &mut due);
            assert_eq!(due, 0, "{verdicts:?}");
        }
        let out = session.send(command).expect("a valid command");
        let mut due = out.replies;
        let mut reply: Vec<u8> = Vec::new();
        for piece in output.split_inclusive(|&b| b == b'\n') {
            if due == 0 {
                verdicts.push(format!("unexpected {:?}", session.unexpected(piece)));
                continue;
            }
            let assembly = session.reply_part(&reply, piece);
            verdicts.push(format!("{assembly:?}"));
            let complete = match assembly {
                Assembly::More | Assembly::CompleteUnlessMore(_) => {
                    reply.extend_from_slice(piece);
                    false
                }
                Assembly::Complete => {
                    reply.extend_from_slice(piece);
                    true
                }
                // The next reply starts here; with one due, this is the end.
                Assembly::StartsNext => true,
            };
            if complete {
                judge(&mut *session, &reply, &mut verdicts, &mut due);
                reply.clear();
            }
        }
        if due > 0 && !reply.is_empty() {
            judge(&mut *session, &reply, &mut verdicts, &mut due);
        }
        verdicts
    };
    assert_eq!(run(), run(), "the same reply was judged differently");
}

fn judge(session: &mut dyn Session, reply: &[u8], verdicts: &mut Vec<String>, due: &mut usize) {
    match session.judge(reply, &Expect::LegalMove, Duration::from_millis(1)) {
        Ok(j) => {
            if !j.still_due {
                *due -= 1;
            }
            let rules: Vec<&str> = j.violations.iter().map(|v| v.rule).collect();
            verdicts.push(format!("{rules:?} {}", j.follow_ups.len()));
        }
        Err(e) => verdicts.push(format!("script error {e}")),
    }
}

#[cfg(test)]
mod proptests {
    //! The fuzz targets' invariants with a few thousand generated inputs
    //! each: arbitrary bytes, and text shaped like each protocol so that the
    //! interesting branches are reached.
    use super::*;
    use proptest::prelude::*;

    fn config() -> ProptestConfig {
        ProptestConfig {
            cases: 3000,
            failure_persistence: None,
            ..ProptestConfig::default()
        }
    }

    proptest! {
        #![proptest_config(config())]

        #[test]
        fn kalah_grammar_bytes(data in prop::collection::vec(any::<u8>(), 0..40)) {
            kalah_grammar(&data);
        }

        #[test]
        fn kalah_grammar_shaped(
            size in any::<u8>(),
            line in "(MOVE;|SWAP|START;|CHANGE;|END|North|South|YOU|OPP|SWAP;|[0-9]{1,3}|,|;|\\+|-|0|\r| )*"
        ) {
            let mut data = vec![size];
            data.extend_from_slice(line.as_bytes());
            kalah_grammar(&data);
        }

        #[test]
        fn qtp_response_bytes(data in prop::collection::vec(any::<u8>(), 0..60)) {
            qtp_response(&data);
        }

        #[test]
        fn qtp_response_shaped(
            text in "(= |=|\\? |\\?|[a-iA-I][1-9]|[a-i][1-9] [hv]|true|false|white|black|illegal move|#|\t|\r|\n| |\u{7})*"
        ) {
            qtp_response(text.as_bytes());
        }

        #[test]
        fn qtp_assembly_shaped(
            pick in any::<u8>(),
            text in "(= |=|\\? |[a-i][1-9]|[a-i][1-9] [hv]|true|false|name|#c|\r|\n|\n\n| )*"
        ) {
            let mut data = vec![pick];
            data.extend_from_slice(text.as_bytes());
            qtp_assembly(&data);
        }

    }

    // Fewer cases: each parses twice per game and lints what it accepts.
    proptest! {
        #![proptest_config(ProptestConfig { cases: 600, ..config() })]

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
