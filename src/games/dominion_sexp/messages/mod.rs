//! The messages of Dominion Protocol v1 (`rules/dominion-sexp.md` §2): cards,
//! the five play shapes with the document's grammar classification (§2.2),
//! and the two notifications with their canonical printing (§1.1, §2.1).

use super::catalogue as cat;
use super::sexp::{Datum, FrameError, read_one};
use crate::verdict::RuleInfo;
use std::fmt;

/// The one card model shared with the line protocol; re-exported so every
/// `dominion_sexp::messages::Card` path keeps working.
pub use crate::games::dominion::Card;

/// The S-expression specifics: which cards version 1 accepts, and which
/// symbols a state may hold. The first seven are version 1; the rest are the
/// later kingdom cards the reference server stocks, which appear only in
/// recorded oracle states (never in a play protocheck accepts, never sent to
/// a bot). The curse is not among them: the reference never stocks it.
impl Card {
    /// The version-1 cards in supply pile order.
    pub const V1: [Card; 7] = [
        Card::Copper,
        Card::Silver,
        Card::Gold,
        Card::Estate,
        Card::Duchy,
        Card::Province,
        Card::Mine,
    ];
    pub const ALL: [Card; 16] = [
        Card::Copper,
        Card::Silver,
        Card::Gold,
        Card::Estate,
        Card::Duchy,
        Card::Province,
        Card::Mine,
        Card::Cellar,
        Card::Market,
        Card::Remodel,
        Card::Smithy,
        Card::Village,
        Card::Woodcutter,
        Card::Workshop,
        Card::Militia,
        Card::Moat,
    ];

    /// Any card symbol a state may hold, exactly (states).
    pub fn from_name(s: &str) -> Option<Card> {
        Card::ALL.into_iter().find(|c| c.name() == s)
    }

    /// A version-1 card symbol, exactly (plays).
    pub fn v1_from_name(s: &str) -> Option<Card> {
        Card::V1.into_iter().find(|c| c.name() == s)
    }
}

/// A well-formed version-1 play (§2.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Play {
    /// `(act mine trash gain)`.
    Mine {
        trash: Card,
        gain: Card,
    },
    Add(Card),
    Buy(Card),
    /// `(clean)` or `(clean card)`.
    Clean(Option<Card>),
}

impl fmt::Display for Play {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Play::Mine { trash, gain } => write!(f, "(act mine {trash} {gain})"),
            Play::Add(c) => write!(f, "(add {c})"),
            Play::Buy(c) => write!(f, "(buy {c})"),
            Play::Clean(None) => f.write_str("(clean)"),
            Play::Clean(Some(c)) => write!(f, "(clean {c})"),
        }
    }
}

/// A reply that is a datum but not a play: the rule it breaks and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GrammarError {
    pub rule: &'static RuleInfo,
    pub detail: String,
}

fn grammar(rule: &'static RuleInfo, detail: impl Into<String>) -> GrammarError {
    GrammarError {
        rule,
        detail: detail.into(),
    }
}

const HEADS: [&str; 4] = ["act", "add", "buy", "clean"];

/// Classifies a datum with the steps of §2.2, first match wins.
pub fn classify(datum: &Datum) -> Result<Play, GrammarError> {
    // Step 1: a non-empty proper list headed by a symbol.
    let Datum::List(items) = datum else {
        return Err(grammar(
            &cat::GRAMMAR_NOT_A_PLAY,
            format!("`{datum}` is not a list headed by act, add, buy or clean"),
        ));
    };
    let Some(head) = items.first().and_then(Datum::symbol) else {
        return Err(grammar(
            &cat::GRAMMAR_NOT_A_PLAY,
            format!("`{datum}` does not start with a symbol"),
        ));
    };
    // Step 2: the head.
    if !HEADS.contains(&head) {
        if HEADS.iter().any(|h| h.eq_ignore_ascii_case(head)) {
            return Err(grammar(
                &cat::GRAMMAR_CASE,
                format!("`{head}` must be written in lower case"),
            ));
        }
        return Err(grammar(
            &cat::GRAMMAR_NOT_A_PLAY,
            format!("`{head}` is not act, add, buy or clean"),
        ));
    }
    let args = &items[1..];
    // Step 3: act names mine and takes two treasures.
    let slots: &[Datum] = if head == "act" {
        let Some(action) = args.first() else {
            return Err(grammar(&cat::GRAMMAR_ARITY, "`act` needs an action card"));
        };
        match action.symbol() {
            Some("mine") => {}
            Some(s) if s.eq_ignore_ascii_case("mine") => {
                return Err(grammar(
                    &cat::GRAMMAR_CASE,
                    format!("`{s}` must be written in lower case"),
                ));
            }
            _ => {
                return Err(grammar(
                    &cat::GRAMMAR_UNKNOWN_ACTION,
                    format!("`{action}` is not an action of version 1 (only mine)"),
                ));
            }
        }
        if args.len() != 3 {
            return Err(grammar(
                &cat::GRAMMAR_ARITY,
                format!(
                    "`(act mine …)` takes exactly two treasures, not {}",
                    args.len() - 1
                ),
            ));
        }
        &args[1..]
    } else {
        // Step 4: element counts.
        let fits = match head {
            "clean" => args.len() <= 1,
            _ => args.len() == 1,
        };
        if !fits {
            let wanted = if head == "clean" {
                "zero or one card"
            } else {
                "exactly one card"
            };
            return Err(grammar(
                &cat::GRAMMAR_ARITY,
                format!("`{head}` takes {wanted}, not {}", args.len()),
            ));
        }
        args
    };
    // Step 5: every slot is a version-1 card.
    let mut cards = [Card::Copper; 2];
    for (slot, datum) in cards.iter_mut().zip(slots) {
        let symbol = datum.symbol().unwrap_or("");
        *slot = match Card::v1_from_name(symbol) {
            Some(c) => c,
            None if Card::V1
                .iter()
                .any(|c| c.name().eq_ignore_ascii_case(symbol)) =>
            {
                return Err(grammar(
                    &cat::GRAMMAR_CASE,
                    format!("`{symbol}` must be written in lower case"),
                ));
            }
            None => {
                return Err(grammar(
                    &cat::GRAMMAR_UNKNOWN_CARD,
                    format!("`{datum}` is not a card of version 1"),
                ));
            }
        };
    }
    // Step 6: treasure slots.
    let treasure_slots = match head {
        "act" | "add" => slots.len(),
        _ => 0,
    };
    if let Some(c) = cards[..treasure_slots].iter().find(|c| !c.is_treasure()) {
        return Err(grammar(
            &cat::GRAMMAR_NOT_TREASURE,
            format!("`{c}` is not a treasure"),
        ));
    }
    Ok(match (head, slots.len()) {
        ("act", _) => Play::Mine {
            trash: cards[0],
            gain: cards[1],
        },
        ("add", _) => Play::Add(cards[0]),
        ("buy", _) => Play::Buy(cards[0]),
        (_, 0) => Play::Clean(None),
        _ => Play::Clean(Some(cards[0])),
    })
}

/// The `state` of a `(move state)` notification, field by field (§2.1).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct State {
    /// The current player first, then turn order.
    pub players: Vec<String>,
    /// One card per card left, in pile order.
    pub supply: Vec<Card>,
    pub trash: Vec<Card>,
    pub actions: u32,
    pub buys: u32,
    pub coins: u32,
    /// Sorted by name.
    pub deck: Vec<Card>,
    pub hand: Vec<Card>,
    pub plays: Vec<Card>,
    pub discards: Vec<Card>,
}

fn section(f: &mut fmt::Formatter<'_>, key: &str, items: &[impl fmt::Display]) -> fmt::Result {
    f.write_str("(")?;
    f.write_str(key)?;
    for item in items {
        write!(f, " {item}")?;
    }
    f.write_str(")")
}

impl fmt::Display for State {
    /// The canonical form: single spaces, empty sections as `(key)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("(")?;
        section(f, "players", &self.players)?;
        f.write_str(" ")?;
        section(f, "supply", &self.supply)?;
        f.write_str(" ")?;
        section(f, "trash", &self.trash)?;
        write!(
            f,
            " (actions {}) (buys {}) (coins {}) ",
            self.actions, self.buys, self.coins
        )?;
        section(f, "deck", &self.deck)?;
        f.write_str(" ")?;
        section(f, "hand", &self.hand)?;
        f.write_str(" ")?;
        section(f, "plays", &self.plays)?;
        f.write_str(" ")?;
        section(f, "discards", &self.discards)?;
        f.write_str(")")
    }
}

/// A message protocheck (the dealer) sends.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Notification {
    Move(State),
    Moved { name: String, play: Play },
}

impl fmt::Display for Notification {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Notification::Move(state) => write!(f, "(move {state})"),
            Notification::Moved { name, play } => write!(f, "(moved {name} {play})"),
        }
    }
}

/// Why a text is not a notification (reading recorded or scripted ones).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NotificationError {
    Frame(FrameError),
    Shape(String),
    Play(GrammarError),
}

impl fmt::Display for NotificationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NotificationError::Frame(e) => write!(f, "{e}"),
            NotificationError::Shape(s) => f.write_str(s),
            NotificationError::Play(g) => write!(f, "{}: {}", g.rule.id, g.detail),
        }
    }
}

fn shape(msg: impl Into<String>) -> NotificationError {
    NotificationError::Shape(msg.into())
}

/// The items of `(key item…)`.
fn keyed<'a>(datum: &'a Datum, key: &str) -> Result<&'a [Datum], NotificationError> {
    match datum {
        Datum::List(items) if items.first().and_then(Datum::symbol) == Some(key) => Ok(&items[1..]),
        other => Err(shape(format!("expected `({key} …)`, found `{other}`"))),
    }
}

fn cards(datum: &Datum, key: &str) -> Result<Vec<Card>, NotificationError> {
    keyed(datum, key)?
        .iter()
        .map(|d| {
            d.symbol()
                .and_then(Card::from_name)
                .ok_or_else(|| shape(format!("`{d}` in ({key} …) is not a card")))
        })
        .collect()
}

fn number(datum: &Datum, key: &str) -> Result<u32, NotificationError> {
    match keyed(datum, key)? {
        [Datum::Number(n)] => n
            .parse()
            .map_err(|_| shape(format!("({key} {n}) is not a count"))),
        _ => Err(shape(format!("`{datum}` is not ({key} number)"))),
    }
}

impl State {
    /// Reads the inner state datum (without the `(move …)` wrapper).
    pub fn from_datum(datum: &Datum) -> Result<State, NotificationError> {
        let Datum::List(sections) = datum else {
            return Err(shape(format!("`{datum}` is not a state list")));
        };
        let [
            players,
            supply,
            trash,
            actions,
            buys,
            coins,
            deck,
            hand,
            plays,
            discards,
        ] = sections.as_slice()
        else {
            return Err(shape(format!(
                "a state has ten sections, not {}",
                sections.len()
            )));
        };
        let players = keyed(players, "players")?
            .iter()
            .map(|d| {
                d.symbol()
                    .map(str::to_string)
                    .ok_or_else(|| shape(format!("`{d}` is not a player name")))
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(State {
            players,
            supply: cards(supply, "supply")?,
            trash: cards(trash, "trash")?,
            actions: number(actions, "actions")?,
            buys: number(buys, "buys")?,
            coins: number(coins, "coins")?,
            deck: cards(deck, "deck")?,
            hand: cards(hand, "hand")?,
            plays: cards(plays, "plays")?,
            discards: cards(discards, "discards")?,
        })
    }

    pub fn parse(text: &str) -> Result<State, NotificationError> {
        let reply = read_one(text).map_err(NotificationError::Frame)?;
        State::from_datum(&reply.datum)
    }
}

impl Notification {
    pub fn parse(text: &str) -> Result<Notification, NotificationError> {
        let reply = read_one(text).map_err(NotificationError::Frame)?;
        let Datum::List(items) = &reply.datum else {
            return Err(shape(format!("`{}` is not a notification", reply.datum)));
        };
        match (items.first().and_then(Datum::symbol), items.len()) {
            (Some("move"), 2) => Ok(Notification::Move(State::from_datum(&items[1])?)),
            (Some("moved"), 3) => {
                let name = items[1]
                    .symbol()
                    .ok_or_else(|| shape(format!("`{}` is not a player name", items[1])))?;
                let play = classify(&items[2]).map_err(NotificationError::Play)?;
                Ok(Notification::Moved {
                    name: name.to_string(),
                    play,
                })
            }
            _ => Err(shape(format!(
                "`{}` is neither (move state) nor (moved name play)",
                reply.datum
            ))),
        }
    }
}

#[cfg(test)]
mod tests;
