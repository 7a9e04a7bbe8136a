//! The dominion-text wire format (`shared/rules/dominion-text.md` §1, §2):
//! every server→bot message with its exact printing and a strict parser
//! (for scripted messages), and the classification of every line a bot
//! writes ([`reply`]).
//!
//! Two standards, on purpose. What protocheck sends must be byte-exact
//! (§1.1: single spaces, lowercase, no leading zeros), so [`ServerMessage`]
//! prints only that form and [`parse_server`] accepts nothing else. What a
//! bot sends is judged with the document's tolerances (§1.2, §2.2).

pub mod reply;
#[cfg(test)]
mod tests;

pub use reply::{Finding, Judgement, Outcome, Reply, Request, judge_reply, judge_unexpected};

use super::cards::{Card, KINGDOM, SUPPLY_ORDER};
use std::fmt;

/// A seat, `player1` to `player4`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Seat(u8);

impl Seat {
    /// Seat `n`, 1 to 4.
    pub fn new(n: u8) -> Option<Seat> {
        (1..=4).contains(&n).then_some(Seat(n))
    }
    pub fn number(self) -> u8 {
        self.0
    }
    /// `player1` … `player4`, exactly.
    pub fn parse(s: &str) -> Option<Seat> {
        let digit = s.strip_prefix("player")?;
        match digit.as_bytes() {
            [d @ b'1'..=b'4'] => Some(Seat(d - b'0')),
            _ => None,
        }
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "player{}", self.0)
    }
}

/// The per-turn info lines that list one or more cards (§2.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CardListKind {
    Gained,
    Played,
    Trashed,
    Discarded,
}

impl CardListKind {
    pub const ALL: [CardListKind; 4] = [
        CardListKind::Gained,
        CardListKind::Played,
        CardListKind::Trashed,
        CardListKind::Discarded,
    ];
    pub fn keyword(self) -> &'static str {
        match self {
            CardListKind::Gained => "gained",
            CardListKind::Played => "played",
            CardListKind::Trashed => "trashed",
            CardListKind::Discarded => "discarded",
        }
    }
}

/// A message protocheck sends to a bot (§2.1). Printing (`Display`) gives
/// the exact line without its LF.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ServerMessage {
    /// `player <seat> name`
    NameRequest(Seat),
    /// `player <seat> version 1`
    VersionRequest(Seat),
    /// `game kingdom-cards cellar … workshop`
    Kingdom,
    /// `supply curse n copper n …`: the 17 pile counts in supply order.
    Supply([u32; 17]),
    /// `<seat> gained|played|trashed|discarded <card>+`
    CardList {
        seat: Seat,
        kind: CardListKind,
        cards: Vec<Card>,
    },
    /// `<seat> top-discard [<card>]`
    TopDiscard(Seat, Option<Card>),
    /// `<seat> revealed hand <card>` (always moat in version 1).
    Revealed(Seat, Card),
    /// `play-request play-turn actions n buys n extra-money n hand <card>*`
    PlayTurn {
        actions: u32,
        buys: u32,
        extra_money: u32,
        hand: Vec<Card>,
    },
    /// `play-request attack discard n hand <card>*`
    Attack { discard: u32, hand: Vec<Card> },
}

impl ServerMessage {
    /// The reply this message asks for, if any (§1.3): only the two
    /// handshake requests and the `play-request`s; the rest is information.
    pub fn request(&self) -> Option<Request> {
        match self {
            ServerMessage::NameRequest(s) => Some(Request::Name(*s)),
            ServerMessage::VersionRequest(s) => Some(Request::Version(*s)),
            ServerMessage::PlayTurn { .. } => Some(Request::PlayTurn),
            ServerMessage::Attack { .. } => Some(Request::Attack),
            _ => None,
        }
    }
}

fn write_cards(f: &mut fmt::Formatter<'_>, cards: &[Card]) -> fmt::Result {
    cards.iter().try_for_each(|c| write!(f, " {c}"))
}

impl fmt::Display for ServerMessage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ServerMessage::NameRequest(s) => write!(f, "player {s} name"),
            ServerMessage::VersionRequest(s) => write!(f, "player {s} version 1"),
            ServerMessage::Kingdom => {
                f.write_str("game kingdom-cards")?;
                KINGDOM.iter().try_for_each(|c| write!(f, " {c}"))
            }
            ServerMessage::Supply(counts) => {
                f.write_str("supply")?;
                SUPPLY_ORDER
                    .iter()
                    .zip(counts)
                    .try_for_each(|(c, n)| write!(f, " {c} {n}"))
            }
            ServerMessage::CardList { seat, kind, cards } => {
                write!(f, "{seat} {}", kind.keyword())?;
                write_cards(f, cards)
            }
            ServerMessage::TopDiscard(s, None) => write!(f, "{s} top-discard"),
            ServerMessage::TopDiscard(s, Some(c)) => write!(f, "{s} top-discard {c}"),
            ServerMessage::Revealed(s, c) => write!(f, "{s} revealed hand {c}"),
            ServerMessage::PlayTurn {
                actions,
                buys,
                extra_money,
                hand,
            } => {
                write!(
                    f,
                    "play-request play-turn actions {actions} buys {buys} extra-money {extra_money} hand"
                )?;
                write_cards(f, hand)
            }
            ServerMessage::Attack { discard, hand } => {
                write!(f, "play-request attack discard {discard} hand")?;
                write_cards(f, hand)
            }
        }
    }
}

/// Why a scripted server message is not one protocheck could send, and
/// where: `column` is 1-based, in characters, for `file:line:col`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    pub column: usize,
    pub message: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "column {}: {}", self.column, self.message)
    }
}

/// The tokens of a strict line with their 1-based columns.
struct Tokens<'a> {
    items: Vec<(usize, &'a str)>,
    next: usize,
    end_column: usize,
}

impl<'a> Tokens<'a> {
    fn peek(&self) -> Option<&'a str> {
        self.items.get(self.next).map(|t| t.1)
    }
    fn column(&self) -> usize {
        self.items.get(self.next).map_or(self.end_column, |t| t.0)
    }
    fn error<T>(&self, message: impl Into<String>) -> Result<T, ParseError> {
        Err(ParseError {
            column: self.column(),
            message: message.into(),
        })
    }
    fn take(&mut self, what: &str) -> Result<&'a str, ParseError> {
        match self.peek() {
            Some(t) => {
                self.next += 1;
                Ok(t)
            }
            None => self.error(format!("expected {what}, found the end of the line")),
        }
    }
    fn keyword(&mut self, word: &str) -> Result<(), ParseError> {
        let column = self.column();
        let t = self.take(&format!("`{word}`"))?;
        if t == word {
            Ok(())
        } else {
            Err(ParseError {
                column,
                message: format!("expected `{word}`, found `{t}`"),
            })
        }
    }
    fn seat(&mut self) -> Result<Seat, ParseError> {
        let column = self.column();
        let t = self.take("a seat")?;
        Seat::parse(t).ok_or_else(|| ParseError {
            column,
            message: format!("`{t}` is not a seat (player1 to player4)"),
        })
    }
    fn number(&mut self) -> Result<u32, ParseError> {
        let column = self.column();
        let t = self.take("a number")?;
        let canonical = t.bytes().all(|b| b.is_ascii_digit()) && (t == "0" || !t.starts_with('0'));
        match t.parse::<u32>() {
            Ok(n) if canonical => Ok(n),
            _ => Err(ParseError {
                column,
                message: format!("`{t}` is not a decimal number without sign or leading zeros"),
            }),
        }
    }
    fn card(&mut self) -> Result<Card, ParseError> {
        let column = self.column();
        let t = self.take("a card")?;
        Card::from_lowercase_name(t).ok_or_else(|| ParseError {
            column,
            message: format!("`{t}` is not one of the 17 card names"),
        })
    }
    fn cards_to_end(&mut self) -> Result<Vec<Card>, ParseError> {
        let mut cards = Vec::new();
        while self.peek().is_some() {
            cards.push(self.card()?);
        }
        Ok(cards)
    }
    fn end(&self) -> Result<(), ParseError> {
        match self.peek() {
            None => Ok(()),
            Some(t) => self.error(format!("unexpected `{t}` after the end of the message")),
        }
    }
}

/// Splits at single spaces, rejecting anything but the canonical framing
/// of §1.1 (no empty token, hence no double, leading or trailing space).
fn strict_tokens(line: &str) -> Result<Tokens<'_>, ParseError> {
    let mut items = Vec::new();
    let mut column = 1;
    for token in line.split(' ') {
        if token.is_empty() {
            return Err(ParseError {
                column,
                message: "tokens are separated by exactly one space, with none leading or trailing"
                    .into(),
            });
        }
        if let Some(i) = token.find(|c: char| c.is_whitespace() || c.is_control()) {
            return Err(ParseError {
                column: column + token[..i].chars().count(),
                message: "only single spaces may separate tokens".into(),
            });
        }
        items.push((column, token));
        column += token.chars().count() + 1;
    }
    Ok(Tokens {
        items,
        next: 0,
        end_column: column.saturating_sub(1).max(1),
    })
}

/// Reads a scripted server message: exactly what [`ServerMessage`] prints,
/// nothing else (no terminator).
pub fn parse_server(line: &str) -> Result<ServerMessage, ParseError> {
    let mut t = strict_tokens(line)?;
    let first = t.take("a message")?;
    let message = match first {
        "player" => {
            let seat = t.seat()?;
            match t.take("`name` or `version`")? {
                "name" => ServerMessage::NameRequest(seat),
                "version" => {
                    let column = t.column();
                    if t.take("the version")? != "1" {
                        return Err(ParseError {
                            column,
                            message: "the only version is 1".into(),
                        });
                    }
                    ServerMessage::VersionRequest(seat)
                }
                other => {
                    t.next -= 1;
                    return t.error(format!("expected `name` or `version`, found `{other}`"));
                }
            }
        }
        "game" => {
            t.keyword("kingdom-cards")?;
            for card in KINGDOM {
                t.keyword(card.name())?;
            }
            ServerMessage::Kingdom
        }
        "supply" => {
            let mut counts = [0; 17];
            for (card, count) in SUPPLY_ORDER.iter().zip(counts.iter_mut()) {
                t.keyword(card.name())?;
                *count = t.number()?;
            }
            ServerMessage::Supply(counts)
        }
        "play-request" => match t.take("`play-turn` or `attack`")? {
            "play-turn" => {
                t.keyword("actions")?;
                let actions = t.number()?;
                t.keyword("buys")?;
                let buys = t.number()?;
                t.keyword("extra-money")?;
                let extra_money = t.number()?;
                t.keyword("hand")?;
                ServerMessage::PlayTurn {
                    actions,
                    buys,
                    extra_money,
                    hand: t.cards_to_end()?,
                }
            }
            "attack" => {
                t.keyword("discard")?;
                let discard = t.number()?;
                t.keyword("hand")?;
                ServerMessage::Attack {
                    discard,
                    hand: t.cards_to_end()?,
                }
            }
            other => {
                t.next -= 1;
                return t.error(format!("expected `play-turn` or `attack`, found `{other}`"));
            }
        },
        _ => {
            t.next -= 1;
            let seat = t.seat().map_err(|e| ParseError {
                message: format!(
                    "{}; a server message starts with player, game, supply, play-request or a seat",
                    e.message
                ),
                ..e
            })?;
            let keyword = t.take("an info keyword")?;
            if let Some(kind) = CardListKind::ALL
                .into_iter()
                .find(|k| k.keyword() == keyword)
            {
                if t.peek().is_none() {
                    return t.error(format!("`{keyword}` lists at least one card"));
                }
                ServerMessage::CardList {
                    seat,
                    kind,
                    cards: t.cards_to_end()?,
                }
            } else if keyword == "top-discard" {
                let card = match t.peek() {
                    None => None,
                    Some(_) => Some(t.card()?),
                };
                ServerMessage::TopDiscard(seat, card)
            } else if keyword == "revealed" {
                t.keyword("hand")?;
                ServerMessage::Revealed(seat, t.card()?)
            } else {
                t.next -= 1;
                return t.error(format!(
                    "`{keyword}` is not gained, played, trashed, discarded, top-discard or revealed"
                ));
            }
        }
    };
    t.end()?;
    Ok(message)
}
