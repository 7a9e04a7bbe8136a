//! Invariants of QTP's response parser and assembly on arbitrary input, shared by the cargo-fuzz
//! targets in `fuzz/` (libFuzzer, nightly) and the proptests below (stable,
//! in `cargo test`). Each function takes raw bytes, must not panic for any
//! input, and panics (with the offending input) when an invariant fails: more
//! than "no crash", each checks that a parse prints back to the same bytes or
//! that judging twice gives the same verdict.

use super::notation::{self, Response};
use crate::games::{Assembly, Game, Session};
use crate::scenario_model::{Expect, Options};
use std::time::Duration;

/// QTP response parsing: a parsed response printed back (`= text` plus the
/// empty line) parses to the same response, with no finding.
pub fn response(data: &[u8]) {
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
pub fn assembly(data: &[u8]) {
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
        let game = &super::QUORIDOR;
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
    //! each: arbitrary bytes, and text shaped like the protocol.
    use super::*;
    use proptest::prelude::*;


    proptest! {
        #![proptest_config(crate::testing::fuzz_config(3000))]

        #[test]
        fn qtp_response_bytes(data in prop::collection::vec(any::<u8>(), 0..60)) {
            response(&data);
        }

        #[test]
        fn qtp_response_shaped(
            text in "(= |=|\\? |\\?|[a-iA-I][1-9]|[a-i][1-9] [hv]|true|false|white|black|illegal move|#|\t|\r|\n| |\u{7})*"
        ) {
            response(text.as_bytes());
        }

        #[test]
        fn qtp_assembly_shaped(
            pick in any::<u8>(),
            text in "(= |=|\\? |[a-i][1-9]|[a-i][1-9] [hv]|true|false|name|#c|\r|\n|\n\n| )*"
        ) {
            let mut data = vec![pick];
            data.extend_from_slice(text.as_bytes());
            assembly(&data);
        }
    }
}
