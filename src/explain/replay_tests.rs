//! The example exchanges are protocol, and a wrong "right" exchange would
//! teach a wrong protocol: replay them through the games' own judges.
//! Kalah, Quoridor, dominion-sexp and Evolution (`start`/`choose`)
//! exchanges run through a real session (the state protocheck tracks);
//! dominion-text bot lines through its reply grammar. An exchange is
//! replayed up to its first note (`#`: a timeout, an exit, which no judge of
//! single messages can see). The right exchange must draw no finding; a
//! wrong exchange without notes must draw its rule.

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
            ..
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
        // An empty command: a reply due without a message (a sign-up).
        if command.is_empty() {
            r.owed += 1;
        } else {
            r.send(command)?;
        }
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

/// Replay every entry of `game_id` whose right exchange starts with a line
/// `replayable` accepts (the others show what no session of single
/// messages sees: an exit, a connection, a notification before the game).
/// Returns how many were replayed.
fn check_game(
    game_id: &str,
    preamble: &[(&str, &str)],
    prepare: fn(&[Line]) -> Vec<Line>,
    replayable: fn(&Line) -> bool,
) -> usize {
    let game = games::by_id(game_id).expect("registered");
    let mut problems = Vec::new();
    let mut replayed = 0;
    for rule in game.catalogue() {
        let Some(entry) = super::entry(game_id, rule.id) else {
            continue;
        };
        if !entry.right.first().is_some_and(replayable)
            || NOT_REPLAYABLE.iter().any(|(id, _)| *id == entry.id)
        {
            continue;
        }
        replayed += 1;
        check_entry(game, preamble, prepare, entry, &mut problems);
    }
    assert!(problems.is_empty(), "{game_id}:\n{}", problems.join("\n"));
    replayed
}

fn as_written(lines: &[Line]) -> Vec<Line> {
    lines.to_vec()
}

/// Examples no scripted session can replay, and why (they are checked by
/// reading instead).
const NOT_REPLAYABLE: &[(&str, &str)] = &[(
    "dominion-sexp.add.no-buys",
    "buys 0 with a treasure in hand arises only from the bot's own adds and buy; \
     the session refuses to script it (dominion-sexp.md §9.1)",
)];

fn check_entry(
    game: &dyn Game,
    preamble: &[(&str, &str)],
    prepare: fn(&[Line]) -> Vec<Line>,
    entry: &Entry,
    problems: &mut Vec<String>,
) {
    match replay(game, preamble, &prepare(&entry.right)) {
        Ok(found) if found.is_empty() => {}
        Ok(found) => problems.push(format!("{}: the right exchange draws {found:?}", entry.id)),
        Err(e) => problems.push(format!(
            "{}: the right exchange is impossible: {e}",
            entry.id
        )),
    }
    if has_note(&entry.wrong) {
        return;
    }
    match replay(game, preamble, &prepare(&entry.wrong)) {
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
    let replayed = check_game("kalah", &[], as_written, |_| true);
    assert!(replayed >= 24, "{replayed}");
}

#[test]
fn quoridor_exchanges_are_judged_as_they_say() {
    let replayed = check_game(
        "quoridor",
        &[
            ("boardsize 9", "=\n\n"),
            ("clear_board", "=\n\n"),
            ("walls 10", "=\n\n"),
        ],
        as_written,
        |_| true,
    );
    assert!(replayed >= 64, "{replayed}");
}

/// The dominion-sexp examples shorten the supply (`(supply copper … mine)`,
/// or `(supply copper … silver estate … mine)` for an empty gold pile); the
/// session wants every card accounted for, so fill it in from the rest of
/// the state (a two-player game: the other player holds its starting
/// cards), and put an emptied pile in the bot's discards.
fn dominion_sexp_full_state(text: &str) -> String {
    let Some(start) = text.find("(supply copper …") else {
        return text.to_string();
    };
    let end = start + text[start..].find(')').expect("a closed supply");
    let no_gold = text[start..end].contains("silver estate");
    let section = |name: &str| -> Vec<&str> {
        let open = format!("({name}");
        text.find(&open)
            .map(|i| {
                let rest = &text[i + open.len()..];
                rest[..rest.find(')').unwrap()].split_whitespace().collect()
            })
            .unwrap_or_default()
    };
    let owned: Vec<&str> = ["deck", "hand", "plays", "discards", "trash"]
        .iter()
        .flat_map(|s| section(s))
        .collect();
    // Two players: the other one holds its 7 coppers and 3 estates.
    let totals = [
        ("copper", 60 - 7),
        ("silver", 40),
        ("gold", 30),
        ("estate", 8 + 6 - 3),
        ("duchy", 8),
        ("province", 8),
        ("mine", 10),
    ];
    let mut supply = String::from("(supply");
    let mut extra_discards = String::new();
    for (card, total) in totals {
        let left = total - owned.iter().filter(|c| **c == card).count();
        if no_gold && card == "gold" {
            extra_discards += &" gold".repeat(left);
            continue;
        }
        supply += &format!(" {card}").repeat(left);
    }
    supply.push(')');
    let filled = format!("{}{supply}{}", &text[..start], &text[end + 1..]);
    filled.replacen("(discards", &format!("(discards{extra_discards}"), 1)
}

fn dominion_sexp_full_states(lines: &[Line]) -> Vec<Line> {
    lines
        .iter()
        .map(|l| match l {
            Line::Sent(t) => Line::Sent(dominion_sexp_full_state(t)),
            other => other.clone(),
        })
        .collect()
}

#[test]
fn dominion_sexp_exchanges_are_judged_as_they_say() {
    let replayed = check_game(
        "dominion-sexp",
        &[],
        dominion_sexp_full_states,
        |l| matches!(l, Line::Sent(t) if t.starts_with("(move ((players alpha bravo)")),
    );
    assert!(replayed >= 20, "{replayed}");
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
    for rule in cat::CATALOGUE.all() {
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

/// The Evolution examples shorten `choose` (`…` for the other players'
/// boards, and no `start` before it): fill in one fresh board for each of
/// the three other players of the default four-player game, and the `start`
/// that deals the bot the boards `choose` shows and four ambush cards.
fn evolution_full_turn(lines: &[Line]) -> Vec<Line> {
    const FRESH: &str = r#"[[["food",0],["body",0],["population",1],["traits",[]]]]"#;
    let mut out = Vec::new();
    let mut started = false;
    for l in lines {
        match l {
            Line::Sent(t) if t.starts_with("[0,0,") => {
                started = true;
                out.push(l.clone());
            }
            Line::Sent(t) if t.starts_with("[[],[") => {
                let full = t.replace(",…]]", &format!(",{FRESH},{FRESH},{FRESH}]]"));
                if !started {
                    let choose: serde_json::Value =
                        serde_json::from_str(&full).expect("a JSON choose");
                    let own = &choose[1][0];
                    out.push(Line::Sent(format!(
                        r#"[0,0,{own},[[-3,"ambush"],[-2,"ambush"],[-1,"ambush"],[0,"ambush"]]]"#
                    )));
                    started = true;
                }
                out.push(Line::Sent(full));
            }
            other => out.push(other.clone()),
        }
    }
    out
}

#[test]
fn evolution_choose_exchanges_are_judged_as_they_say() {
    // `feedNext` is never scripted (the dealer computes it), so only the
    // exchanges of a turn's `start` and `choose` are replayed.
    let replayed = check_game(
        "evolution",
        &[("", "\"bot\" ")],
        evolution_full_turn,
        |l| matches!(l, Line::Sent(t) if t.starts_with("[[],[") || t.starts_with("[0,0,")),
    );
    assert!(replayed >= 12, "{replayed}");
}
