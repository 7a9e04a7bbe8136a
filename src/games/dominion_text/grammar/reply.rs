//! Classification of the lines a bot writes (§1.2 framing, §2.2 grammar
//! and its five ordered steps, §4.1 handshake echo rules). The result is a
//! typed [`Reply`] (or none) plus the findings, each naming its §8 rule;
//! the game rules (§3) are judged elsewhere, on the typed reply.

use super::Seat;
use crate::games::dominion_text::cards::{self, Card};
use crate::games::dominion_text::catalogue as cat;
use crate::verdict::{RuleInfo, Violation};

/// The message a reply is due for (§1.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Request {
    /// `player <seat> name`
    Name(Seat),
    /// `player <seat> version 1`
    Version(Seat),
    /// `play-request play-turn …`
    PlayTurn,
    /// `play-request attack …`
    Attack,
}

/// A reply as the server reads it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    /// The name the bot goes by: its own, or `PLAYERN` after a name reply
    /// of the wrong shape (§4.1).
    Name(String),
    /// The exact version echo.
    Version,
    /// `play-reply pass`, and `play-reply buy` with no card (§2.2).
    Pass,
    /// `play-reply buy <card>+`, in the order given.
    Buy(Vec<Card>),
    /// `play-reply action <card> <arg>*` (and the workshop typo form). The
    /// card may be any of the 17: `action copper` is a rule failure, not a
    /// grammar one.
    Action { card: Card, args: Vec<Card> },
    /// `play-reply discard <card>*`
    Discard(Vec<Card>),
    /// `play-reply reaction moat`
    ReactionMoat,
}

/// What the line does to the exchange.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Blank (or whitespace-only): ignored, the reply is still due.
    Ignored,
    /// A reply the server acts on (warnings may come with it).
    Reply(Reply),
    /// A malformed reply to a `play-request` (grammar failure: the recovery
    /// of §3.5 / §3.6 applies), a failed version echo (the game stops), or
    /// bytes that are not UTF-8 (the game stops).
    Invalid,
}

/// One finding about a line: its rule and what exactly was wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    pub rule: &'static RuleInfo,
    pub detail: String,
}

impl Finding {
    fn new(rule: &'static RuleInfo, detail: impl Into<String>) -> Finding {
        Finding {
            rule,
            detail: detail.into(),
        }
    }
    pub fn to_violation(&self) -> Violation {
        self.rule.violation(self.detail.clone())
    }
}

/// The outcome and the findings (framing warnings first, in line order).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Judgement {
    pub outcome: Outcome,
    pub findings: Vec<Finding>,
}

impl Judgement {
    /// The rule ids found, in order (for tests and reports).
    pub fn rule_ids(&self) -> Vec<&'static str> {
        self.findings.iter().map(|f| f.rule.id).collect()
    }
}

/// The line after framing (§1.2): its tokens and the raw text, or why
/// there is none.
struct Framed<'a> {
    text: &'a str,
    tokens: Vec<&'a str>,
}

/// Applies §1.2 to one line as read (its LF, if any, included): removes
/// the LF and a CR before it, splits at ASCII whitespace, and records the
/// framing warnings.
fn frame<'a>(line: &'a [u8], findings: &mut Vec<Finding>) -> Option<Framed<'a>> {
    let line = line.strip_suffix(b"\n").unwrap_or(line);
    let line = match line.strip_suffix(b"\r") {
        Some(rest) => {
            findings.push(Finding::new(
                &cat::FRAME_CRLF,
                "the line ends with CR LF; the CR is removed",
            ));
            rest
        }
        None => line,
    };
    let Ok(text) = std::str::from_utf8(line) else {
        findings.push(Finding::new(
            &cat::IO_INVALID_UTF8,
            "the line is not valid UTF-8",
        ));
        return None;
    };
    let tokens: Vec<&str> = text.split_ascii_whitespace().collect();
    if tokens.is_empty() {
        findings.push(Finding::new(
            &cat::FRAME_BLANK_LINE,
            "an empty or whitespace-only line (ignored)",
        ));
        return Some(Framed { text, tokens });
    }
    if text.len() != tokens.iter().map(|t| t.len() + 1).sum::<usize>() - 1
        || text.bytes().any(|b| b != b' ' && b.is_ascii_whitespace())
    {
        findings.push(Finding::new(
            &cat::FRAME_WHITESPACE,
            "tokens are not separated by single spaces (tabs, runs of spaces, or leading or trailing whitespace)",
        ));
    }
    Some(Framed { text, tokens })
}

/// Judges one line that arrived while `request` was due. `line` is the raw
/// bytes as read, LF included if it came; this never panics on any bytes.
pub fn judge_reply(request: Request, line: &[u8]) -> Judgement {
    let mut findings = Vec::new();
    let outcome = match frame(line, &mut findings) {
        None => Outcome::Invalid,
        Some(framed) if framed.tokens.is_empty() => Outcome::Ignored,
        Some(framed) => match request {
            Request::Name(seat) => Outcome::Reply(name_reply(seat, &framed, &mut findings)),
            Request::Version(seat) => version_reply(seat, &framed.tokens, &mut findings),
            Request::PlayTurn | Request::Attack => {
                match play_reply(request == Request::Attack, &framed.tokens) {
                    Ok((reply, warning)) => {
                        findings.extend(warning);
                        Outcome::Reply(reply)
                    }
                    Err(f) => {
                        findings.push(f);
                        Outcome::Invalid
                    }
                }
            }
        },
    };
    Judgement { outcome, findings }
}

/// A line that arrived while no reply was due (§1.3): a blank one is only
/// the blank-line warning, anything else `io.unexpected-output`.
pub fn judge_unexpected(line: &[u8]) -> Judgement {
    let mut findings = Vec::new();
    match frame(line, &mut findings) {
        Some(framed) if framed.tokens.is_empty() => {}
        _ => findings.push(Finding::new(
            &cat::IO_UNEXPECTED_OUTPUT,
            "a line arrived while no reply was due; it is discarded",
        )),
    }
    Judgement {
        outcome: Outcome::Ignored,
        findings,
    }
}

/// `player <seat> <bot-name>`; anything else names the bot `PLAYERN`
/// with a warning. The name is the rest of the line after the seat token.
fn name_reply(seat: Seat, framed: &Framed<'_>, findings: &mut Vec<Finding>) -> Reply {
    let tokens = &framed.tokens;
    if tokens.len() >= 3 && tokens[0] == "player" && tokens[1] == seat.to_string() {
        let after_seat = framed
            .text
            .trim_start_matches(|c: char| c.is_ascii_whitespace())
            .strip_prefix("player")
            .map(|r| r.trim_start_matches(|c: char| c.is_ascii_whitespace()))
            .and_then(|r| r.strip_prefix(tokens[1]))
            .map(|r| r.trim_matches(|c: char| c.is_ascii_whitespace()));
        if let Some(name) = after_seat.filter(|n| !n.is_empty()) {
            return Reply::Name(name.to_string());
        }
    }
    let assigned = format!("PLAYER{}", seat.number());
    findings.push(Finding::new(
        &cat::HANDSHAKE_NAME_REPLY,
        format!("expected `player {seat} <bot-name>`; the bot is named {assigned}"),
    ));
    Reply::Name(assigned)
}

/// The exact echo, compared token by token after the framing tolerances.
fn version_reply(seat: Seat, tokens: &[&str], findings: &mut Vec<Finding>) -> Outcome {
    let seat_name = seat.to_string();
    if tokens == ["player", seat_name.as_str(), "version", "1"] {
        Outcome::Reply(Reply::Version)
    } else {
        findings.push(Finding::new(
            &cat::HANDSHAKE_VERSION_ECHO,
            format!("expected the exact echo `player {seat} version 1`; the game stops"),
        ));
        Outcome::Invalid
    }
}

const TURN_VERBS: [&str; 4] = ["pass", "buy", "action", "reply"];
const ATTACK_VERBS: [&str; 2] = ["discard", "reaction"];

/// §2.2's classification of a reply to a `play-request`, steps 1 to 5 in
/// order; `Ok` may carry the one warning a well-formed reply can get.
fn play_reply(attack: bool, tokens: &[&str]) -> Result<(Reply, Option<Finding>), Finding> {
    let expected = if attack {
        "`play-reply discard …` or `play-reply reaction moat`"
    } else {
        "`play-reply pass`, `play-reply buy …` or `play-reply action …`"
    };
    // Step 1: the reply keyword.
    let head = tokens[0];
    if head != "play-reply" {
        let rule = if head.eq_ignore_ascii_case("play-reply") {
            &cat::GRAMMAR_CASE
        } else {
            &cat::GRAMMAR_NOT_A_REPLY
        };
        return Err(Finding::new(
            rule,
            format!("`{head}` is not `play-reply`; expected {expected}"),
        ));
    }
    // Step 2: a verb of this request.
    let Some(&verb) = tokens.get(1) else {
        return Err(Finding::new(
            &cat::GRAMMAR_NOT_A_REPLY,
            format!("`play-reply` without a verb; expected {expected}"),
        ));
    };
    let (own, other): (&[&str], &[&str]) = if attack {
        (&ATTACK_VERBS, &TURN_VERBS)
    } else {
        (&TURN_VERBS, &ATTACK_VERBS)
    };
    if !own.contains(&verb) {
        let (rule, why) = if other.contains(&verb) {
            let request = if attack { "an attack" } else { "a play-turn" };
            (
                &cat::GRAMMAR_WRONG_CONTEXT,
                format!("`{verb}` does not answer {request} request"),
            )
        } else if TURN_VERBS
            .iter()
            .chain(&ATTACK_VERBS)
            .any(|v| v.eq_ignore_ascii_case(verb))
        {
            (&cat::GRAMMAR_CASE, format!("`{verb}` must be lowercase"))
        } else {
            (&cat::GRAMMAR_NOT_A_REPLY, format!("`{verb}` is not a verb"))
        };
        return Err(Finding::new(rule, format!("{why}; expected {expected}")));
    }
    let rest = &tokens[2..];
    match verb {
        "pass" => match rest.first() {
            None => Ok((Reply::Pass, None)),
            Some(t) => Err(extra(format!("`{t}` after `pass`"))),
        },
        "buy" => {
            let cards = cards(rest)?;
            if cards.is_empty() {
                Ok((
                    Reply::Pass,
                    Some(Finding::new(
                        &cat::BUY_EMPTY,
                        "`play-reply buy` names no card; treated as a pass",
                    )),
                ))
            } else {
                Ok((Reply::Buy(cards), None))
            }
        }
        "action" => {
            let Some(first) = rest.first() else {
                return Err(Finding::new(
                    &cat::GRAMMAR_NOT_A_REPLY,
                    "`play-reply action` names no card",
                ));
            };
            let card = one_card(first)?;
            let args = cards(&rest[1..])?;
            check_arg_count(card, &args)?;
            Ok((Reply::Action { card, args }, None))
        }
        "reply" => {
            // Step 5, after steps 3 and 4 on the card that follows.
            match rest.first() {
                Some(&"workshop") => {}
                Some(w) if w.eq_ignore_ascii_case("workshop") => {
                    return Err(Finding::new(
                        &cat::GRAMMAR_CASE,
                        format!("`{w}` must be lowercase"),
                    ));
                }
                _ => {
                    return Err(Finding::new(
                        &cat::GRAMMAR_NOT_A_REPLY,
                        "`play-reply reply` is accepted only as `play-reply reply workshop <card>`",
                    ));
                }
            }
            let workshop = Card::Workshop;
            let args = cards(&rest[1..])?;
            check_arg_count(workshop, &args)?;
            if args.is_empty() {
                return Err(Finding::new(
                    &cat::GRAMMAR_NOT_A_REPLY,
                    "`play-reply reply workshop` without the card to gain",
                ));
            }
            Ok((
                Reply::Action {
                    card: workshop,
                    args,
                },
                Some(Finding::new(
                    &cat::GRAMMAR_WORKSHOP_TYPO,
                    "the document's typo form `play-reply reply workshop <card>` is read as `play-reply action workshop <card>`",
                )),
            ))
        }
        "discard" => Ok((Reply::Discard(cards(rest)?), None)),
        _ => {
            // "reaction": exactly `moat` must follow.
            if rest == ["moat"] {
                Ok((Reply::ReactionMoat, None))
            } else {
                Err(Finding::new(
                    &cat::GRAMMAR_NOT_A_REPLY,
                    "`play-reply reaction` must be followed by exactly `moat`",
                ))
            }
        }
    }
}

fn extra(detail: String) -> Finding {
    Finding::new(&cat::GRAMMAR_EXTRA_TOKENS, detail)
}

/// Step 3 for one token where a card belongs.
fn one_card(token: &str) -> Result<Card, Finding> {
    Card::from_lowercase_name(token).ok_or_else(|| match cards::from_name_ignoring_case(token) {
        Some(card) => Finding::new(
            &cat::GRAMMAR_CASE,
            format!("`{token}` must be written `{card}`"),
        ),
        None => Finding::new(
            &cat::GRAMMAR_UNKNOWN_CARD,
            format!("`{token}` is not one of the 17 card names"),
        ),
    })
}

fn cards(tokens: &[&str]) -> Result<Vec<Card>, Finding> {
    tokens.iter().map(|t| one_card(t)).collect()
}

/// Step 4: the most arguments each card takes (§2.2 `action-play`); a card
/// that is not an action card is left to the rule check (its arguments are
/// not judged here).
fn check_arg_count(card: Card, args: &[Card]) -> Result<(), Finding> {
    let most = match card {
        Card::Cellar => return Ok(()),
        Card::Mine | Card::Remodel => 2,
        Card::Workshop => 1,
        Card::Market
        | Card::Militia
        | Card::Moat
        | Card::Smithy
        | Card::Village
        | Card::Woodcutter => 0,
        _ => return Ok(()),
    };
    if args.len() > most {
        Err(extra(format!(
            "{card} takes at most {most} card{}; the reply names {}",
            if most == 1 { "" } else { "s" },
            args.len()
        )))
    } else {
        Ok(())
    }
}
