//! Shared player of the dominion-text sample bots.
//!
//! Every dominion-text sample bot is this one player, [`run`] with a
//! [`Flaw`]. With [`Flaw::None`] it follows `shared/rules/dominion-text.md`
//! exactly; every other variant changes exactly one behaviour, the one
//! documented on the variant. Section and decision numbers refer to that
//! document. Standalone: `std` only, as a bot author would write it.
//!
//! The player tracks nothing it is not told: the supply from the last
//! `supply` line, its seat from the name request, and which kingdom cards it
//! has gained from its own `gained` lines. Strategy: play actions (villages,
//! markets and cellars first, then one terminal), then buy province (8),
//! duchy late in the game, gold (6), one of each kingdom card it does not
//! own yet (the dearest affordable), silver (3), estates at the very end;
//! every extra buy the same way with the money left. Against militia it
//! reveals a moat when it holds one, otherwise discards its worst cards.
//!
//! Environment: `DTEXT_BOT_TRACE` set (to anything) makes the player write,
//! at exit, the cards it played and gained to stderr (protocheck never
//! judges stderr).

// Each example uses one variant and a subset of the helpers.
#![allow(dead_code)]

mod cards;

use cards::{Kind, SUPPLY, cost, is_action, is_treasure, take, treasure_value, worst_cards};
use std::collections::BTreeSet;
use std::io::{self, BufRead, BufWriter, Write};

/// The one thing a sample bot does differently from `dtext-correct`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Flaw {
    /// Fully conforming.
    None,
    /// Conforming but untidy: separates tokens with tabs and ends lines with
    /// CR LF (`frame.whitespace`, `frame.crlf`: warnings only, §1.2).
    CrlfTabs,
    /// Plays no action; buys the first affordable entry of the supply line
    /// (curse first, then copper …): legal however poor (§9.2, D26).
    FirstAffordable,
    /// At end of input keeps looping on its read, which returns at once
    /// (sleeping 1 ms per round to spare the machine): never exits.
    NoExit,
    /// Reads the discard count of an attack request after a misspelled
    /// keyword (`discrad`) and panics when it is missing.
    AttackCrash,
    /// Computes its attack reply but never writes it.
    AttackSilent,
    /// Answers its own `gained` line (the end-of-turn summary) with `ok`.
    AnswersInfo,
    /// Writes through a 64 KiB buffer that is flushed only at exit.
    NoFlush,
    /// Answers the version request with `player <seat> version 2`.
    VersionEcho,
    /// Answers the name request with `player <name>`, without the seat.
    NameReply,
    /// Capitalises the card names it buys (`buy Silver`).
    Case,
    /// Writes silver as `silvers` in its buys.
    UnknownCard,
    /// Treats workshop like a buy: names the card it wants and then silver
    /// (`action workshop smithy silver`).
    ExtraTokens,
    /// Answers attack requests with `play-reply pass`.
    AttackPass,
    /// Ignores the actions counter: plays action cards while it holds any.
    NoActions,
    /// With actions left and no action card in hand, "plays" a treasure:
    /// `action copper`.
    ActionTreasure,
    /// Lists the cellar itself first among cellar's discards (it checks
    /// against the hand of the request, which still holds the cellar).
    CellarSelf,
    /// Mine trashes the first treasure in hand and gains the dearest stocked
    /// treasure (gold while there is one), whatever the trashed one costs.
    MineToGold,
    /// Remodel turns an estate into a duchy (cost 2 → 5).
    RemodelEstateDuchy,
    /// Workshop gains cards costing up to 5.
    WorkshopFive,
    /// Against militia it discards all but n cards instead of n cards.
    AttackKeepsN,
    /// Against militia it discards n curses, held or not.
    AttackCurses,
    /// Against militia it always reveals a moat, held or not.
    MoatAlways,
    /// Plays workshop with the document's typo form
    /// `play-reply reply workshop <card>` (D19).
    WorkshopTypo,
    /// Once a `supply` line shows fewer estates and duchies than the first
    /// one did (someone gained one: this player buys them only once 3
    /// provinces or fewer are left, the built-in seats hardly ever), plays an action card it does not hold (the first
    /// of its preferences missing from its hand): a bug only a long game
    /// reaches (the one shrinking makes shorter).
    LateBlunder,
}

/// Run the player until end of input.
pub fn run(flaw: Flaw) {
    let out: Box<dyn Write> = if flaw == Flaw::NoFlush {
        Box::new(BufWriter::with_capacity(64 * 1024, io::stdout()))
    } else {
        Box::new(io::stdout())
    };
    let mut player = Player::new(flaw, out);
    let stdin = io::stdin();
    let mut input = stdin.lock();
    let mut line = Vec::with_capacity(512);
    loop {
        line.clear();
        match input.read_until(b'\n', &mut line) {
            Ok(0) => break,
            Ok(_) => player.handle(&String::from_utf8_lossy(&line)),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(_) => break,
        }
    }
    if flaw == Flaw::NoExit {
        // The starter bot's `while stdin is open: read a line` never sees
        // end of input: each read returns nothing, forever (§9.2).
        loop {
            line.clear();
            let _ = input.read_until(b'\n', &mut line);
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
    }
    player.finish();
}

struct Player {
    flaw: Flaw,
    name: String,
    out: Box<dyn Write>,
    /// `playerK`, from the name request.
    seat: Option<String>,
    /// Pile sizes in supply order, from the last `supply` line; every pile
    /// counts as stocked until one arrives.
    piles: [u32; 17],
    /// Kingdom cards this player has gained (its own `gained` lines).
    owned: BTreeSet<String>,
    /// For `DTEXT_BOT_TRACE`: the cards it played.
    played: BTreeSet<String>,
    /// The estates and duchies of the first `supply` line
    /// ([`Flaw::LateBlunder`]).
    first_small_victories: Option<u32>,
}

impl Player {
    fn new(flaw: Flaw, out: Box<dyn Write>) -> Player {
        let name = std::env::args()
            .next()
            .and_then(|p| {
                std::path::Path::new(&p)
                    .file_name()
                    .map(|f| f.to_string_lossy().to_string())
            })
            .filter(|n| !n.trim().is_empty())
            .unwrap_or_else(|| "dtext-bot".to_string());
        Player {
            flaw,
            name,
            out,
            seat: None,
            piles: [u32::MAX / 2; 17],
            owned: BTreeSet::new(),
            played: BTreeSet::new(),
            first_small_victories: None,
        }
    }

    fn handle(&mut self, line: &str) {
        let tokens: Vec<&str> = line.split_whitespace().collect();
        match tokens.as_slice() {
            ["player", seat, "name"] => {
                self.seat = Some(seat.to_string());
                let reply = if self.flaw == Flaw::NameReply {
                    format!("player {}", self.name)
                } else {
                    format!("player {seat} {}", self.name)
                };
                self.write(&reply);
            }
            ["player", seat, "version", version @ ..] => {
                let version = if self.flaw == Flaw::VersionEcho {
                    "2".to_string()
                } else {
                    version.join(" ")
                };
                self.write(&format!("player {seat} version {version}"));
            }
            ["supply", rest @ ..] => {
                for pair in rest.chunks(2) {
                    if let [card, count] = pair
                        && let Some(i) = SUPPLY.iter().position(|(n, _, _)| n == card)
                    {
                        self.piles[i] = count.parse().unwrap_or(0);
                    }
                }
                let small_victories = self.pile("estate") + self.pile("duchy");
                self.first_small_victories.get_or_insert(small_victories);
            }
            [subject, "gained", gained @ ..] if Some(*subject) == self.seat.as_deref() => {
                for card in gained.iter().filter(|c| is_action(c)) {
                    self.owned.insert(card.to_string());
                }
                if self.flaw == Flaw::AnswersInfo {
                    self.write("ok");
                }
            }
            [
                "play-request",
                "play-turn",
                "actions",
                a,
                "buys",
                b,
                "extra-money",
                m,
                "hand",
                hand @ ..,
            ] => {
                let hand: Vec<String> = hand.iter().map(|c| c.to_string()).collect();
                let reply = self.play_turn(number(a), number(b), number(m), hand);
                self.reply(reply);
            }
            ["play-request", "attack", rest @ ..] => {
                let reply = self.attack(rest);
                if self.flaw != Flaw::AttackSilent {
                    self.reply(reply);
                }
            }
            // Info lines (`game kingdom-cards`, `played`, `trashed`,
            // `top-discard`, `revealed`, `discarded`, others' `gained`)
            // and anything unknown: silence.
            _ => {}
        }
    }

    fn reply(&mut self, words: Vec<String>) {
        if matches!(words.get(1).map(String::as_str), Some("action" | "reply"))
            && let Some(card) = words.get(2)
        {
            self.played.insert(card.clone());
        }
        self.write(&words.join(" "));
    }

    fn write(&mut self, line: &str) {
        let bytes = if self.flaw == Flaw::CrlfTabs {
            format!("{}\r\n", line.replace(' ', "\t"))
        } else {
            format!("{line}\n")
        };
        // A closed stdout ends the game for us; nothing to report.
        let _ = self.out.write_all(bytes.as_bytes());
        if self.flaw != Flaw::NoFlush {
            let _ = self.out.flush();
        }
    }

    fn finish(&mut self) {
        let _ = self.out.flush();
        if std::env::var_os("DTEXT_BOT_TRACE").is_some() {
            eprintln!(
                "{}: played {:?}; gained kingdom cards {:?}",
                self.name, self.played, self.owned
            );
        }
    }

    fn pile(&self, card: &str) -> u32 {
        pile_in(&self.piles, card)
    }

    /// The reply to `play-request play-turn …`, as words.
    fn play_turn(&mut self, actions: u32, buys: u32, extra: u32, hand: Vec<String>) -> Vec<String> {
        let mut words = vec!["play-reply".to_string()];
        if self.flaw == Flaw::FirstAffordable {
            let money = extra + hand.iter().map(|c| treasure_value(c)).sum::<u32>();
            match SUPPLY
                .iter()
                .find(|(card, cost, _)| *cost <= money && self.pile(card) > 0)
            {
                Some((card, _, _)) => words.extend(["buy".to_string(), card.to_string()]),
                None => words.push("pass".to_string()),
            }
            return words;
        }
        if self.flaw == Flaw::LateBlunder
            && self
                .first_small_victories
                .is_some_and(|v| self.pile("estate") + self.pile("duchy") < v)
            && actions > 0
            && let Some(card) = cards::PLAY_PREFERENCE
                .iter()
                .find(|c| !hand.iter().any(|h| h == *c))
        {
            words.extend(["action".to_string(), card.to_string()]);
            return words;
        }
        if actions > 0 || self.flaw == Flaw::NoActions {
            if let Some(card) = cards::PLAY_PREFERENCE
                .iter()
                .find(|c| hand.iter().any(|h| h == *c))
            {
                words.extend(self.action(card, &hand));
                self.note_own_gain(&words);
                return words;
            }
            if self.flaw == Flaw::ActionTreasure
                && let Some(treasure) = hand.iter().find(|c| is_treasure(c))
            {
                words.extend(["action".to_string(), treasure.clone()]);
                return words;
            }
        }
        let bought = self.buys(
            buys,
            extra + hand.iter().map(|c| treasure_value(c)).sum::<u32>(),
        );
        if bought.is_empty() {
            words.push("pass".to_string());
        } else {
            words.push("buy".to_string());
            words.extend(bought.into_iter().map(|card| match self.flaw {
                Flaw::Case => capitalise(&card),
                Flaw::UnknownCard if card == "silver" => "silvers".to_string(),
                _ => card,
            }));
        }
        words
    }

    /// The supply line of this turn does not count what this turn's
    /// actions gain: take it off so that a later gain or buy does not name
    /// a pile this turn emptied.
    fn note_own_gain(&mut self, words: &[String]) {
        let gained = match words.iter().map(String::as_str).collect::<Vec<_>>()[1..] {
            [_, "mine" | "remodel", _, gain] | [_, "workshop", gain, ..] => gain.to_string(),
            _ => return,
        };
        if let Some(i) = SUPPLY.iter().position(|(n, _, _)| *n == gained) {
            self.piles[i] = self.piles[i].saturating_sub(1);
        }
    }

    /// `action`, `card` and its arguments, for `play-reply action …`.
    fn action(&self, card: &str, hand: &[String]) -> Vec<String> {
        // The played card has left the hand before its effect (§3.5).
        let mut rest = hand.to_vec();
        take(&mut rest, card);
        let mut words = vec!["action".to_string(), card.to_string()];
        match card {
            "cellar" => {
                if self.flaw == Flaw::CellarSelf {
                    words.push("cellar".to_string());
                }
                words.extend(
                    rest.iter()
                        .filter(|c| matches!(cards::kind(c), Some(Kind::Victory | Kind::Curse)))
                        .cloned(),
                );
            }
            "mine" => words.extend(self.mine(&rest)),
            "remodel" => words.extend(self.remodel(&rest)),
            "workshop" => {
                let limit = if self.flaw == Flaw::WorkshopFive {
                    5
                } else {
                    4
                };
                if let Some(gain) = self.gain(limit) {
                    if self.flaw == Flaw::WorkshopTypo {
                        return vec!["reply".to_string(), "workshop".to_string(), gain];
                    }
                    words.push(gain);
                    if self.flaw == Flaw::ExtraTokens {
                        words.push("silver".to_string());
                    }
                }
            }
            _ => {}
        }
        words
    }

    /// Mine's arguments for the hand without the mine (§3.5).
    fn mine(&self, rest: &[String]) -> Vec<String> {
        let treasures: Vec<&String> = rest.iter().filter(|c| is_treasure(c)).collect();
        let Some(first) = treasures.first() else {
            return Vec::new(); // no treasure in hand: `action mine` is legal
        };
        if self.flaw == Flaw::MineToGold {
            // The dearest stocked treasure, whatever the trashed one costs.
            if let Some(gain) = ["gold", "silver", "copper"]
                .into_iter()
                .find(|t| self.pile(t) > 0)
            {
                return vec![first.to_string(), gain.to_string()];
            }
        }
        // The dearest treasure with a stocked pile within cost + 3.
        let best_gain = |trashed: &str| {
            ["gold", "silver", "copper"]
                .into_iter()
                .find(|t| cost(t) <= cost(trashed) + 3 && self.pile(t) > 0)
        };
        let order = ["silver", "copper", "gold"];
        let held = || {
            order
                .into_iter()
                .filter(|t| treasures.iter().any(|h| h == t))
        };
        let upgrade = held().find_map(|t| {
            best_gain(t)
                .filter(|g| cost(g) > cost(t))
                .map(|g| vec![t.to_string(), g.to_string()])
        });
        let any = || held().find_map(|t| best_gain(t).map(|g| vec![t.to_string(), g.to_string()]));
        // No treasure within reach of any held one: naming the trashed
        // treasure alone is legal (and trashes it).
        upgrade
            .or_else(any)
            .unwrap_or_else(|| vec![first.to_string()])
    }

    /// Remodel's arguments for the hand without the remodel (§3.5).
    fn remodel(&self, rest: &[String]) -> Vec<String> {
        if rest.is_empty() {
            return Vec::new(); // an empty hand: `action remodel` is legal
        }
        let has = |card: &str| rest.iter().any(|c| c == card);
        if self.flaw == Flaw::RemodelEstateDuchy && has("estate") && self.pile("duchy") > 0 {
            return vec!["estate".to_string(), "duchy".to_string()];
        }
        if has("gold") && self.pile("province") > 0 {
            return vec!["gold".to_string(), "province".to_string()];
        }
        let trashed = worst_cards(rest, 1).remove(0);
        match self.gain(cost(&trashed) + 2) {
            Some(gain) => vec![trashed, gain],
            // Nothing costs little enough: naming the trashed card alone is
            // legal.
            None => vec![trashed],
        }
    }

    /// The card to gain costing at most `limit`, if any pile allows one.
    fn gain(&self, limit: u32) -> Option<String> {
        self.want(&self.piles, limit, &BTreeSet::new()).or_else(|| {
            cards::GAIN_PREFERENCE
                .iter()
                .find(|c| cost(c) <= limit && self.pile(c) > 0)
                .map(|c| c.to_string())
        })
    }

    /// The card worth having for `money`, if any; `taken` are kingdom cards
    /// already chosen this turn.
    fn want(&self, piles: &[u32; 17], money: u32, taken: &BTreeSet<String>) -> Option<String> {
        let stocked = |card: &str| pile_in(piles, card) > 0;
        let provinces = pile_in(piles, "province");
        let pick = |card: &str| Some(card.to_string());
        if money >= 8 && stocked("province") {
            return pick("province");
        }
        if money >= 5 && provinces <= 3 && stocked("duchy") {
            return pick("duchy");
        }
        if money >= 6 && stocked("gold") {
            return pick("gold");
        }
        let new_kingdom = SUPPLY
            .iter()
            .filter(|(card, c, kind)| {
                *kind == Kind::Action
                    && *c <= money
                    && stocked(card)
                    && !self.owned.contains(*card)
                    && !taken.contains(*card)
            })
            .max_by_key(|(_, c, _)| *c);
        if let Some((card, _, _)) = new_kingdom {
            return pick(card);
        }
        if money >= 3 && stocked("silver") {
            return pick("silver");
        }
        if money >= 2 && provinces <= 2 && stocked("estate") {
            return pick("estate");
        }
        None
    }

    /// The cards to buy with `buys` buys and `money`, left to right, each
    /// affordable with what the earlier ones left (§3.4).
    fn buys(&self, buys: u32, money: u32) -> Vec<String> {
        let mut left = money;
        let mut taken = BTreeSet::new();
        let mut bought = Vec::new();
        let mut piles = self.piles;
        for _ in 0..buys {
            let Some(card) = self.want(&piles, left, &taken) else {
                break;
            };
            if let Some(i) = SUPPLY.iter().position(|(n, _, _)| *n == card) {
                piles[i] -= 1;
            }
            left -= cost(&card);
            taken.insert(card.clone());
            bought.push(card);
        }
        bought
    }

    /// The reply to `play-request attack discard n hand …` (`rest` starts at
    /// `discard`), as words.
    fn attack(&self, rest: &[&str]) -> Vec<String> {
        let mut words = vec!["play-reply".to_string()];
        let count_after = |keyword: &str| {
            rest.iter()
                .position(|t| *t == keyword)
                .and_then(|i| rest.get(i + 1))
                .and_then(|n| n.parse::<usize>().ok())
        };
        let n = if self.flaw == Flaw::AttackCrash {
            // The starter bot's misspelled field (§9.2): an uncaught error.
            count_after("discrad").expect("attack request without a discard count")
        } else {
            count_after("discard").unwrap_or(0)
        };
        let hand: Vec<String> = rest
            .iter()
            .position(|t| *t == "hand")
            .map(|i| rest[i + 1..].iter().map(|c| c.to_string()).collect())
            .unwrap_or_default();
        if self.flaw == Flaw::AttackPass {
            words.push("pass".to_string());
            return words;
        }
        if self.flaw == Flaw::MoatAlways || hand.iter().any(|c| c == "moat") {
            words.extend(["reaction".to_string(), "moat".to_string()]);
            return words;
        }
        words.push("discard".to_string());
        match self.flaw {
            Flaw::AttackKeepsN => {
                words.extend(worst_cards(&hand, hand.len().saturating_sub(n)));
            }
            Flaw::AttackCurses => words.extend(std::iter::repeat_n("curse".to_string(), n)),
            _ => words.extend(worst_cards(&hand, n)),
        }
        words
    }
}

fn pile_in(piles: &[u32; 17], card: &str) -> u32 {
    SUPPLY
        .iter()
        .position(|(n, _, _)| *n == card)
        .map_or(0, |i| piles[i])
}

fn number(token: &str) -> u32 {
    token.parse().unwrap_or(0)
}

fn capitalise(card: &str) -> String {
    let mut chars = card.chars();
    match chars.next() {
        Some(first) => first.to_ascii_uppercase().to_string() + chars.as_str(),
        None => String::new(),
    }
}
