//! One Evolution game against one client, as protocheck tracks it: the
//! sign-up, then whole turns dealt by [`Table`], every reply read back from
//! the framer's pieces (see `games::evolution::framer`) and judged against the
//! catalogue. Scripted `start`/`choose` messages set up the bot's situation
//! (checked for consistency); feeding is always computed (§9.0).

use super::catalogue as c;
use super::dealer::{Relayed, Request, Style, Table};
use super::engine::FeedOption;
use super::messages::State;
use super::model::to_compact;
use crate::games::{Drawn, Judged, Next, Outgoing, ScriptError, Scripted, Session};
use crate::scenario_model::Expect;
use crate::games::evolution::framer::completes_value;
use crate::games::evolution::json_stream::{JsonStreamReader, Pending};
use crate::transport::{ConnectionEvent, ExitStatus};
use crate::verdict::Violation;
use serde_json::Value;
use std::time::Duration;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    /// The client's sign-up is due.
    Signup,
    /// Between turns (or before the first): the dealer acts next.
    Dealing,
    /// A scripted `start` was sent; `choose` comes next.
    Started,
    AwaitAction,
    /// The feeding cycle goes on without the bot.
    Feeding,
    AwaitFeed,
    /// A client at another seat must move first (`protocheck match`).
    Waiting,
    Finished,
}

pub struct EvolutionSession {
    table: Table,
    players: usize,
    seat: usize,
    phase: Phase,
    /// The State and options of the outstanding `feedNext`.
    asked: Option<(State, Vec<FeedOption>)>,
    /// The situations reached (the coverage report).
    situations: crate::coverage::Reached,
    /// Pieces of the due reply so far (for the deadline's diagnosis).
    partial: Vec<u8>,
    /// Values that arrived while nothing was asked, not yet taken as replies.
    early: usize,
    /// Values still unread when the connection was closed.
    leftover: usize,
    closed: bool,
    dropped: bool,
    /// The move the last judged reply made, as other seats' sessions take
    /// it (`Session::played`).
    played: Option<String>,
}

impl EvolutionSession {
    pub fn new(players: usize, seat: usize, styles: &[Style], seed: u64) -> EvolutionSession {
        EvolutionSession::seated(players, seat, &[], styles, seed)
    }

    /// The session of one client at a table where the players at the seats
    /// `relayed` (0-based, in the first turn's order) are other clients,
    /// their moves relayed through `opponent`; the rest are built-in. Every
    /// session of one table is given the same `seed`: the deck is shuffled
    /// by the session's own generator from it, and the built-in players
    /// choose without chance, so every session deals the same game.
    pub fn seated(
        players: usize,
        seat: usize,
        relayed: &[usize],
        styles: &[Style],
        seed: u64,
    ) -> EvolutionSession {
        let mut rng = fastrand::Rng::with_seed(seed);
        EvolutionSession {
            table: Table::new(players, seat, styles, &mut rng)
                .with_relayed(relayed.iter().map(|&s| s as u64)),
            players,
            seat,
            phase: Phase::Signup,
            asked: None,
            situations: {
                let mut r = crate::coverage::Reached::new();
                crate::games::evolution::coverage::players(&mut r, players);
                r
            },
            partial: Vec::new(),
            early: 0,
            leftover: 0,
            closed: false,
            dropped: false,
            played: None,
        }
    }

    fn request(&mut self, request: Request) -> Result<Vec<Outgoing>, ScriptError> {
        Ok(match request {
            Request::Turn(start, choose) => {
                self.phase = Phase::AwaitAction;
                vec![
                    Outgoing::silent(to_compact(&start)),
                    Outgoing::asking(to_compact(&choose)),
                ]
            }
            Request::Start(start) => {
                self.phase = Phase::Waiting;
                vec![Outgoing::silent(to_compact(&start))]
            }
            Request::Choose(choose) => {
                self.phase = Phase::AwaitAction;
                vec![Outgoing::asking(to_compact(&choose))]
            }
            Request::Feed(state, options) => {
                let text = to_compact(&state);
                crate::games::evolution::coverage::feeding_asked(
                    &mut self.situations,
                    &state.1,
                    &options,
                );
                self.asked = Some((state, options));
                self.phase = Phase::AwaitFeed;
                vec![Outgoing::asking(text)]
            }
            Request::Wait(_) => {
                self.phase = Phase::Waiting;
                Vec::new()
            }
            Request::End => {
                self.phase = Phase::Finished;
                Vec::new()
            }
            Request::Disagree(e) => {
                return Err(format!(
                    "internal: the sessions of this table disagree: {e}"
                ).into());
            }
        })
    }

    /// `seat N: <move>` (N 1-based), as `played` writes it: the move of a
    /// client at another seat.
    fn relayed(&self, choice: &str) -> Result<(u64, Relayed), ScriptError> {
        let (seat, json) = choice
            .strip_prefix("seat ")
            .and_then(|rest| rest.split_once(": "))
            .ok_or_else(|| {
                format!("`opponent: {choice}`: Evolution's built-in players only play `auto`")
            })?;
        let id = seat
            .parse::<u64>()
            .ok()
            .and_then(|n| n.checked_sub(1))
            .filter(|&id| self.table.is_relayed(id))
            .ok_or_else(|| format!("`{choice}`: seat {seat} is not another client's"))?;
        let value: Value =
            serde_json::from_str(json).map_err(|e| format!("`{choice}`: not JSON: {e}"))?;
        let mv = match &value {
            Value::Array(items) if items.len() == 5 => {
                Relayed::Action(super::action4::Action4::parse(&value).map_err(|f| {
                    format!("`{choice}`: not an Action4: {}", f.detail)
                })?)
            }
            _ => Relayed::Feed(
                super::feeding::FeedingChoice::parse(&value)
                    .ok()
                    .and_then(|c| c.option())
                    .ok_or_else(|| format!("`{choice}`: not a feeding choice"))?,
            ),
        };
        Ok((id, mv))
    }

    fn phase_word(&self) -> &'static str {
        match self.phase {
            Phase::Signup => "the sign-up is due",
            Phase::Dealing => "between turns",
            Phase::Started => "after `start`",
            Phase::AwaitAction => "an Action4 is due",
            Phase::Feeding => "feeding",
            Phase::AwaitFeed => "a FeedingChoice is due",
            Phase::Waiting => "another player is to move",
            Phase::Finished => "the game is over",
        }
    }

    fn undelimited(&self) -> bool {
        if self.partial.is_empty() {
            return false;
        }
        let mut r = JsonStreamReader::default();
        r.feed(&self.partial);
        matches!(r.next_frame(), Ok(None)) && r.pending() == Pending::UndelimitedScalar
    }
}

impl Session for EvolutionSession {
    // `exited_after_end` keeps its default: an exit status after the close is
    // not judged (§5).
    fn send(&mut self, text: &str) -> Result<Outgoing, ScriptError> {
        let value: Value = serde_json::from_str(text)
            .map_err(|e| format!("not a JSON value: {e} (write the message as compact JSON)"))?;
        match &value {
            Value::Array(items) if items.len() == 4 => self.scripted_start(items),
            Value::Array(items) if items.len() == 2 => self.scripted_choose(items),
            Value::Array(items) if items.len() == 5 => Err(
                "a `feedNext` is never scripted: the dealer computes it from the tracked state (§9.0); use `opponent: auto`".into(),
            ),
            Value::String(_) => Err("`\"ok\"` is sent by protocheck after a valid sign-up".into()),
            _ => Err("the dealer sends `start` (4 elements) or `choose` (2 elements)".into()),
        }
    }

    fn opponent(
        &mut self,
        choice: &str,
        _rng: &mut fastrand::Rng,
    ) -> Result<Vec<Outgoing>, ScriptError> {
        // The built-in players choose without chance (the deck was shuffled
        // by the session's own generator), so `_rng`, which every seat of a
        // match shares, is never drawn from: every session deals alike.
        if choice != "auto" {
            let (id, mv) = self.relayed(choice)?;
            self.table.relay(id, mv);
            if self.phase != Phase::Waiting {
                return Ok(Vec::new());
            }
        }
        match self.phase {
            Phase::Dealing | Phase::Feeding | Phase::Waiting => {
                let request = self.table.advance();
                self.request(request)
            }
            Phase::Started => {
                self.phase = Phase::AwaitAction;
                let (_, choose) = self.table.turn_messages();
                Ok(vec![Outgoing::asking(to_compact(&choose))])
            }
            _ => Err(format!("`opponent: auto` while {}", self.phase_word()).into()),
        }
    }

    fn next(&self) -> Next {
        match self.phase {
            Phase::Signup | Phase::AwaitAction | Phase::AwaitFeed => Next::Bot,
            Phase::Finished => Next::Finished,
            _ if self.closed || self.dropped => Next::Finished,
            _ => Next::Opponent,
        }
    }

    fn silence_matters(&self) -> bool {
        false
    }

    fn reply_part(&mut self, so_far: &[u8], piece: &[u8]) -> crate::games::Assembly {
        if completes_value(piece) {
            self.partial.clear();
            crate::games::Assembly::Complete
        } else {
            self.partial = [so_far, piece].concat();
            crate::games::Assembly::More
        }
    }

    fn judge(
        &mut self,
        reply: &[u8],
        expect: &Expect,
        _waited: Duration,
    ) -> Result<Judged, ScriptError> {
        let _ = expect;
        self.partial.clear();
        self.played = None;
        let early = self.early > 0;
        self.early = self.early.saturating_sub(1);
        let frame = match self.read(reply) {
            Ok(f) => f,
            Err(v) => {
                self.dropped = true;
                return Ok(Judged {
                    violations: vec![*v],
                    ..Judged::default()
                });
            }
        };
        Ok(match self.phase {
            Phase::Signup => self.judge_signup(&frame),
            Phase::AwaitAction => self.judge_action(&frame.value, early),
            Phase::AwaitFeed => self.judge_feed(&frame.value, early),
            _ => Judged::default(),
        })
    }

    fn reply_as_read(&self, reply: &[u8]) -> String {
        String::from_utf8_lossy(reply.strip_suffix(b"\n").unwrap_or(reply)).into_owned()
    }

    fn unexpected(&mut self, bytes: &[u8]) -> Option<Violation> {
        if !completes_value(bytes) {
            return None;
        }
        let shown = self.reply_as_read(bytes);
        if self.closed {
            self.leftover += 1;
            return None;
        }
        self.early += 1;
        Some(
            c::FLOW_EARLY_REPLY
                .violation(format!(
                    "`{shown}` arrived while nothing was asked ({}); it is taken as the reply to the next request",
                    self.phase_word()
                ))
                .with_actual(shown),
        )
    }

    fn connection(&mut self, event: &ConnectionEvent) -> Option<Violation> {
        Some(match event {
            ConnectionEvent::NeverConnected { waited, exited } => {
                let how = match exited {
                    Some(status) => format!("the bot ended ({status}) without connecting"),
                    None => format!(
                        "no connection within {}",
                        humantime::format_duration(*waited)
                    ),
                };
                c::IO_NO_CONNECT.violation(format!(
                    "{how}. The client must connect to 127.0.0.1 on the port in PROTOCHECK_PORT (or `{{port}}` in its arguments); `localhost` may resolve to ::1 first, and the course's default port 45678 is not protocheck's"
                ))
            }
            ConnectionEvent::Connected { .. }
            | ConnectionEvent::Stranger { .. }
            | ConnectionEvent::Gone { .. } => return None,
            ConnectionEvent::Extra { peer } => c::SIGNUP_EXTRA_CONNECTION.violation(format!(
                "a second connection from {peer}; only the first is played, this one was closed"
            )),
        })
    }

    fn timed_out(&self, limit: Duration) -> Violation {
        let limit = humantime::format_duration(limit);
        if self.undelimited() {
            let shown = String::from_utf8_lossy(&self.partial).into_owned();
            return c::FRAME_UNDELIMITED_NUMBER
                .violation(format!(
                    "`{shown}` has no whitespace after it, so its end cannot be seen (the reference waits for more digits and drops the player after 1 s): write a space or newline after every value"
                ))
                .with_actual(shown);
        }
        let what = match self.phase {
            Phase::Signup => "sign-up",
            Phase::AwaitAction => "Action4 (reply to `choose`)",
            _ => "FeedingChoice (reply to `feedNext`)",
        };
        if self.partial.is_empty() {
            c::IO_TIMEOUT.violation(format!("no {what} within {limit}"))
        } else {
            let shown = String::from_utf8_lossy(&self.partial).into_owned();
            c::IO_TIMEOUT
                .violation(format!(
                    "the {what} was not complete within {limit} (partial value received)"
                ))
                .with_actual(shown)
        }
    }

    fn closed(&self, exit: Option<ExitStatus>, partial: Option<&[u8]>) -> Option<Violation> {
        if let Some(p) = partial {
            let shown = String::from_utf8_lossy(p).into_owned();
            return Some(
                c::FRAME_INVALID_JSON
                    .violation(format!(
                        "the connection ended inside a value: `{shown}` is truncated"
                    ))
                    .with_actual(shown),
            );
        }
        if self.closed || self.phase == Phase::Finished {
            return None;
        }
        let how = match exit {
            Some(status) => format!("the bot exited ({status})"),
            None => "the bot closed its connection".to_string(),
        };
        let due = matches!(
            self.phase,
            Phase::Signup | Phase::AwaitAction | Phase::AwaitFeed
        );
        // Between requests: whether another one would come is known only if
        // the game cannot deal another turn and no feeding is under way.
        let more = due || self.phase != Phase::Dealing || self.table.can_deal();
        let mut v = c::IO_CRASH.violation(format!(
            "{how} while the game was still running ({})",
            self.phase_word()
        ));
        if !more {
            v.severity = crate::verdict::Severity::Warn;
            v.message += "; no further request was due";
        }
        Some(v)
    }

    fn no_exit(&self, grace: Duration) -> Violation {
        c::IO_NO_EXIT.violation(format!(
            "the bot was still running {} after protocheck closed the connection",
            humantime::format_duration(grace)
        ))
    }

    fn input_closed(&mut self) {
        self.closed = true;
        self.leftover += self.early;
        self.early = 0;
    }

    fn abort(&mut self) -> Vec<Outgoing> {
        // A dropped client is told nothing (§6); the close comes at the end.
        self.dropped = true;
        Vec::new()
    }

    fn is_over(&self) -> bool {
        self.closed || self.phase == Phase::Finished
    }

    fn played(&self) -> Option<String> {
        self.played.clone()
    }

    fn awaits_relay(&self) -> bool {
        self.phase == Phase::Waiting
    }

    fn ending(&self) -> Option<crate::games::Ending> {
        (self.phase == Phase::Finished && !self.dropped).then(|| ending::ending(&self.table))
    }

    fn reached(&self) -> Vec<(&'static str, u64)> {
        self.situations.iter().collect()
    }

    fn finish(&mut self, _stderr_bytes: u64, _stderr_tail: &str) -> Vec<Violation> {
        let left = self.leftover + self.early;
        if left > 0 && !self.dropped {
            vec![c::IO_UNEXPECTED_OUTPUT.violation(format!(
                "{left} value(s) were still unread when protocheck closed the connection; the reference never reads them"
            ))]
        } else {
            Vec::new()
        }
    }
}

impl Scripted for EvolutionSession {
    // `last_opponent_step` keeps its default: `opponent: auto` as scripted,
    // the only move the built-in players make.
    fn assume(&mut self, pinned: Option<&str>) -> Result<Vec<Outgoing>, ScriptError> {
        let text = match (pinned, self.phase) {
            (Some(t), _) => t.to_string(),
            (None, Phase::Signup) => "\"lint\"".into(),
            (None, Phase::AwaitAction) => "[0,[],[],[],[]]".into(),
            (None, Phase::AwaitFeed) => {
                let (_, options) = self.asked.as_ref().ok_or("no feedNext outstanding")?;
                options[0].to_json().to_string()
            }
            (None, _) => return Ok(Vec::new()),
        };
        let mut reply = text.into_bytes();
        reply.push(b'\n');
        let judged = self.judge(&reply, &Expect::LegalMove, Duration::ZERO)?;
        if let Some(v) = judged
            .violations
            .iter()
            .find(|v| v.severity == crate::verdict::Severity::Fail)
        {
            return Err(format!(
                "the expected reply is not legal here: {}: {}",
                v.rule, v.message
            ).into());
        }
        Ok(judged.follow_ups)
    }
}

impl Drawn for EvolutionSession {
    fn board(&self) -> Option<String> {
        let b = self.table.bot_index()?;
        let me = &self.table.dealer.players[b];
        let mut text = format!(
            "turn {}, {} players, the bot plays seat {} of this turn; watering hole {}, deck {} cards\nbot: bag {}, hand {}\n",
            self.table.turn,
            self.table.dealer.players.len(),
            b + 1,
            self.table.dealer.watering_hole,
            self.table.dealer.deck.len(),
            me.bag,
            to_compact(&me.hand),
        );
        for (i, s) in me.boards.iter().enumerate() {
            text += &format!("  board {i}: {}\n", to_compact(s));
        }
        Some(text)
    }

    fn picture(&self) -> Option<crate::outcome::Picture> {
        super::picture::picture(&self.table, self.players)
    }
}

mod ending;
pub use ending::side;
mod judge;
#[cfg(test)]
mod relay_tests;
mod script;
