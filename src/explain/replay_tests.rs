//! The example exchanges are protocol, and a wrong "right" exchange would
//! teach a wrong protocol: replay them through the games' own judges.
//! Kalah and Quoridor exchanges run through a real session (the state
//! protocheck tracks); dominion-text bot lines through its reply grammar.
//! An exchange is replayed up to its first note (`#`: a timeout, an exit,
//! which no judge of single messages can see). The right exchange must draw
//! no finding; a wrong exchange without notes must draw its rule.

use super::data::{Entry, Line};
use super::render::unescape;
use crate::games::{self, Assembly, Game, Judged};
use crate::scenario::{Expect, Options};
use std::time::Duration;

/// The judge's findings on one complete reply, and what protocheck sends
/// because of it.
struct Replay {
    session: Box<dyn games::Session>,
    owed: usize,
    reply: Vec<u8>,
    follow_ups: Vec<String>,
    found: Vec<&'static str>,
}

impl Replay {
    fn judge(&mut self) -> Result<(), String> {
        let Judged {
            violations,
            follow_ups,
            still_due,
        } = self
            .session
            .judge(&self.reply, &Expect::LegalMove, Duration::ZERO)?;
        self.found.extend(violations.iter().map(|v| v.rule));
        self.follow_ups
            .extend(follow_ups.into_iter().map(|o| o.text));
        if !still_due {
            self.owed -= 1;
        }
        self.reply.clear();
        Ok(())
    }

    fn send(&mut self, write: &str) -> Result<(), String> {
        self.owed += self.session.send(write)?.replies;
        Ok(())
    }
}

/// Findings of replaying `lines` in a fresh session of `game` (`Err`: the
/// session refused a line protocheck sends, so the exchange is impossible).
/// Kalah: one line per reply, and a sent line that is protocheck's own
/// report of the bot's move is not sent again. QTP: consecutive sent lines
/// are one write.
fn replay(
    game: &dyn Game,
    preamble: &[(&str, &str)],
    lines: &[Line],
) -> Result<Vec<&'static str>, String> {
    let session = game
        .session(&Options::default())
        .map_err(|e| format!("no session: {e}"))?;
    let mut r = Replay {
        session,
        owed: 0,
        reply: Vec::new(),
        follow_ups: Vec::new(),
        found: Vec::new(),
    };
    for (command, reply) in preamble {
        r.send(command)?;
        r.reply = reply.as_bytes().to_vec();
        r.judge()?;
    }
    let qtp = game.id() == "quoridor";
    let mut write: Option<String> = None;
    for (i, line) in lines.iter().enumerate() {
        if !matches!(line, Line::Sent(_))
            && let Some(w) = write.take()
        {
            r.send(&w)?;
        }
        match line {
            Line::Note(_) => break,
            Line::Sent(text) => {
                if !r.reply.is_empty() {
                    r.judge()?;
                }
                if r.follow_ups.first() == Some(text) {
                    r.follow_ups.remove(0);
                    continue;
                }
                let text = String::from_utf8_lossy(&unescape(text)).into_owned();
                if qtp {
                    write = Some(match write.take() {
                        Some(w) => format!("{w}\n{text}"),
                        None => text,
                    });
                } else {
                    r.send(&text)?;
                }
            }
            Line::Received(text) => {
                let mut bytes = unescape(text);
                bytes.push(b'\n');
                if r.owed == 0 {
                    let v = r.session.unexpected(&bytes);
                    r.found.extend(v.map(|v| v.rule));
                    continue;
                }
                // Assembled as the controller assembles it: a piece that
                // may end the reply ends it unless the next line is the
                // bot's too.
                match r.session.reply_part(&r.reply, &bytes) {
                    Assembly::More => r.reply.extend_from_slice(&bytes),
                    Assembly::StartsNext => {
                        r.judge()?;
                        r.reply = bytes;
                    }
                    Assembly::Complete => {
                        r.reply.extend_from_slice(&bytes);
                        r.judge()?;
                    }
                    Assembly::CompleteUnlessMore(_) => {
                        r.reply.extend_from_slice(&bytes);
                        if !matches!(lines.get(i + 1), Some(Line::Received(_))) {
                            r.judge()?;
                        }
                    }
                }
            }
        }
    }
    if let Some(w) = write.take() {
        r.send(&w)?;
    }
    if !r.reply.is_empty() {
        r.judge()?;
    }
    Ok(r.found)
}

fn has_note(lines: &[Line]) -> bool {
    lines.iter().any(|l| matches!(l, Line::Note(_)))
}

/// Rules whose wrong exchange a session cannot show (the finding comes from
/// whole-game bookkeeping or a later probe, not from the lines shown), with
/// the reason.
const WRONG_NOT_REPLAYABLE: &[(&str, &str)] = &[];

fn check_game(game_id: &str, preamble: &[(&str, &str)]) {
    let game = games::by_id(game_id).expect("registered");
    let mut problems = Vec::new();
    for rule in game.catalogue() {
        let Some(entry) = super::entry(game_id, rule.id) else {
            continue;
        };
        check_entry(game, preamble, entry, &mut problems);
    }
    assert!(problems.is_empty(), "{game_id}:\n{}", problems.join("\n"));
}

fn check_entry(
    game: &dyn Game,
    preamble: &[(&str, &str)],
    entry: &Entry,
    problems: &mut Vec<String>,
) {
    match replay(game, preamble, &entry.right) {
        Ok(found) if found.is_empty() => {}
        Ok(found) => problems.push(format!("{}: the right exchange draws {found:?}", entry.id)),
        Err(e) => problems.push(format!(
            "{}: the right exchange is impossible: {e}",
            entry.id
        )),
    }
    if has_note(&entry.wrong) || WRONG_NOT_REPLAYABLE.iter().any(|(id, _)| *id == entry.id) {
        return;
    }
    match replay(game, preamble, &entry.wrong) {
        Ok(found) if found.contains(&entry.id.as_str()) => {}
        Ok(found) => problems.push(format!("{}: the wrong exchange draws {found:?}", entry.id)),
        Err(e) => problems.push(format!(
            "{}: the wrong exchange is impossible: {e}",
            entry.id
        )),
    }
}

#[test]
fn kalah_exchanges_are_judged_as_they_say() {
    check_game("kalah", &[]);
}

#[test]
fn quoridor_exchanges_are_judged_as_they_say() {
    check_game(
        "quoridor",
        &[
            ("boardsize 9", "=\n\n"),
            ("clear_board", "=\n\n"),
            ("walls 10", "=\n\n"),
        ],
    );
}

#[test]
fn dominion_text_bot_lines_pass_or_fail_its_reply_grammar_as_they_say() {
    use crate::games::dominion_text::catalogue as cat;
    use crate::games::dominion_text::grammar::{parse_server, reply::judge_reply};
    // The rules the reply grammar decides by itself (the others need the
    // game state).
    let grammar_rules: Vec<&str> = [
        &cat::FRAME_BLANK_LINE,
        &cat::FRAME_CRLF,
        &cat::FRAME_WHITESPACE,
        &cat::GRAMMAR_CASE,
        &cat::GRAMMAR_EXTRA_TOKENS,
        &cat::GRAMMAR_NOT_A_REPLY,
        &cat::GRAMMAR_UNKNOWN_CARD,
        &cat::GRAMMAR_WORKSHOP_TYPO,
        &cat::GRAMMAR_WRONG_CONTEXT,
        &cat::HANDSHAKE_NAME_REPLY,
        &cat::HANDSHAKE_VERSION_ECHO,
        &cat::IO_INVALID_UTF8,
        &cat::BUY_EMPTY,
    ]
    .iter()
    .map(|r| r.id)
    .collect();
    let judged = |lines: &[Line]| -> Vec<&'static str> {
        let mut request = None;
        let mut found = Vec::new();
        for line in lines {
            match line {
                Line::Sent(text) => {
                    let msg = parse_server(text)
                        .unwrap_or_else(|e| panic!("protocheck never sends `{text}`: {e:?}"));
                    request = msg.request();
                }
                Line::Received(text) => {
                    if let Some(r) = request {
                        found.extend(judge_reply(r, &unescape(text)).rule_ids());
                    }
                }
                Line::Note(_) => break,
            }
        }
        found
    };
    let mut problems = Vec::new();
    for rule in cat::ALL {
        let entry = super::entry("dominion-text", rule.id).expect("an entry");
        let right = judged(&entry.right);
        if !right.is_empty() {
            problems.push(format!("{}: the right exchange draws {right:?}", rule.id));
        }
        if grammar_rules.contains(&rule.id) {
            let wrong = judged(&entry.wrong);
            if !wrong.contains(&rule.id) {
                problems.push(format!("{}: the wrong exchange draws {wrong:?}", rule.id));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
