//! One Evolution game against one client, as protocheck tracks it: the
//! sign-up, then whole turns dealt by [`Table`], every reply read back from
//! the framer's pieces (see `transport::json_framer`) and judged against the
//! catalogue. Scripted `start`/`choose` messages set up the bot's situation
//! (checked for consistency); feeding is always computed (§9.0).

use super::action4::{Action4, Finding, abbreviate};
use super::catalogue as c;
use super::dealer::{Request, Style, Table};
use super::engine::FeedOption;
use super::feeding::{self, FeedingChoice};
use super::messages::{OK, State};
use super::model::{Species, parse_boards, parse_cards, to_compact};
use crate::games::{Judged, Next, Outgoing, ScriptError, Session};
use crate::scenario::{Expect, Step, Token};
use crate::transport::json_framer::completes_value;
use crate::transport::json_stream::{JsonStreamError, JsonStreamReader, Pending};
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
    Finished,
}

pub struct EvolutionSession {
    table: Table,
    players: usize,
    seat: usize,
    phase: Phase,
    /// The State and options of the outstanding `feedNext`.
    asked: Option<(State, Vec<FeedOption>)>,
    /// Pieces of the due reply so far (for the deadline's diagnosis).
    partial: Vec<u8>,
    /// Values that arrived while nothing was asked, not yet taken as replies.
    early: usize,
    /// Values still unread when the connection was closed.
    leftover: usize,
    closed: bool,
    dropped: bool,
}

impl EvolutionSession {
    pub fn new(players: usize, seat: usize, styles: &[Style], seed: u64) -> EvolutionSession {
        let mut rng = fastrand::Rng::with_seed(seed);
        EvolutionSession {
            table: Table::new(players, seat, styles, &mut rng),
            players,
            seat,
            phase: Phase::Signup,
            asked: None,
            partial: Vec::new(),
            early: 0,
            leftover: 0,
            closed: false,
            dropped: false,
        }
    }

    fn request(&mut self, request: Request) -> Vec<Outgoing> {
        match request {
            Request::Turn(start, choose) => {
                self.phase = Phase::AwaitAction;
                vec![
                    Outgoing::silent(to_compact(&start)),
                    Outgoing::asking(to_compact(&choose)),
                ]
            }
            Request::Feed(state, options) => {
                let text = to_compact(&state);
                self.asked = Some((state, options));
                self.phase = Phase::AwaitFeed;
                vec![Outgoing::asking(text)]
            }
            Request::End => {
                self.phase = Phase::Finished;
                Vec::new()
            }
        }
    }

    /// A scripted `start` `[wh, bag, boards, hand]`: deals the turn, then
    /// gives the bot these boards, hand and bag and sets the watering hole.
    fn scripted_start(&mut self, items: &[Value]) -> Result<Outgoing, ScriptError> {
        if self.phase != Phase::Dealing {
            return Err(format!(
                "a `start` can only be sent between turns (now: {})",
                self.phase_word()
            ));
        }
        if !self.table.can_deal() {
            return Err("the deck cannot deal another turn".into());
        }
        let natural = |v: &Value, what: &str| {
            v.as_u64()
                .filter(|&n| n <= 10_000)
                .map(|n| n as u32)
                .ok_or_else(|| format!("start: {what} {v} is not a natural number"))
        };
        let wh = natural(&items[0], "the watering hole")?;
        let bag = natural(&items[1], "the bag")?;
        let boards = parse_boards(&items[2]).map_err(|e| format!("start: boards: {e}"))?;
        let hand = parse_cards(&items[3]).map_err(|e| format!("start: hand: {e}"))?;
        check_boards(&boards).map_err(|e| format!("start: {e}"))?;
        if boards.is_empty() {
            return Err("start: the bot has at least one board at `start` (§2.4)".into());
        }
        if hand.len() < 4 {
            return Err(format!(
                "start: a hand of {} cards; every `choose` comes with at least 4 (§3.10, §9.0)",
                hand.len()
            ));
        }
        self.table.deal_turn();
        let b = self.table.bot_index().ok_or("the bot is not seated")?;
        let dealer = &mut self.table.dealer;
        // The bot's dealt cards go back; the scripted ones come out of the
        // deck or, if a built-in player holds one, are swapped for the top card.
        let dealt = std::mem::take(&mut dealer.players[b].hand);
        dealer.deck.extend(dealt);
        for card in &hand {
            if let Some(i) = dealer.deck.iter().position(|d| d == card) {
                dealer.deck.remove(i);
                continue;
            }
            let holder = dealer
                .players
                .iter()
                .position(|p| p.hand.contains(card))
                .ok_or_else(|| format!("start: card {} is not in the deck", to_compact(card)))?;
            let top = dealer.deck.pop_front().ok_or("start: the deck ran out")?;
            let slot = dealer.players[holder].hand.iter().position(|d| d == card);
            if let Some(slot) = slot {
                dealer.players[holder].hand[slot] = top;
            }
        }
        dealer.players[b].hand = hand;
        dealer.players[b].boards = boards;
        dealer.players[b].bag = bag;
        dealer.watering_hole = wh;
        self.table.remember_start();
        self.phase = Phase::Started;
        let (start, _) = self.table.turn_messages();
        Ok(Outgoing::silent(to_compact(&start)))
    }

    /// A scripted `choose` `[before, after]`: sets the other players'
    /// boards; `after` begins with the bot's own boards.
    fn scripted_choose(&mut self, items: &[Value]) -> Result<Outgoing, ScriptError> {
        if self.phase != Phase::Started {
            return Err("a scripted `choose` follows a scripted `start`".into());
        }
        let lob = |v: &Value, what: &str| -> Result<Vec<Vec<Species>>, ScriptError> {
            let list = v
                .as_array()
                .ok_or_else(|| format!("choose: {what} is not a list of boards"))?;
            list.iter()
                .map(|b| {
                    let boards = parse_boards(b).map_err(|e| format!("choose: {what}: {e}"))?;
                    check_boards(&boards).map_err(|e| format!("choose: {what}: {e}"))?;
                    if boards.is_empty() {
                        return Err(format!(
                            "choose: {what}: every player has a board at `choose`"
                        ));
                    }
                    Ok(boards)
                })
                .collect()
        };
        let before = lob(&items[0], "before")?;
        let after = lob(&items[1], "after")?;
        if before.len() != self.seat {
            return Err(format!(
                "choose: `before` lists {} players, but the bot sits in seat {} (options.seat)",
                before.len(),
                self.seat + 1
            ));
        }
        if before.len() + after.len() != self.players {
            return Err(format!(
                "choose: {} players in all, but the game has {} (options.players)",
                before.len() + after.len(),
                self.players
            ));
        }
        if after[0] != self.table.start_boards {
            return Err(
                "choose: `after` begins with the bot's own boards as in its `start` (docs/games/evolution.md, decision 2)"
                    .into(),
            );
        }
        let b = self.seat;
        for (i, boards) in before.into_iter().chain(after).enumerate() {
            if i != b {
                self.table.dealer.players[i].boards = boards;
            }
        }
        self.phase = Phase::AwaitAction;
        let (_, choose) = self.table.turn_messages();
        Ok(Outgoing::asking(to_compact(&choose)))
    }

    fn phase_word(&self) -> &'static str {
        match self.phase {
            Phase::Signup => "the sign-up is due",
            Phase::Dealing => "between turns",
            Phase::Started => "after `start`",
            Phase::AwaitAction => "an Action4 is due",
            Phase::Feeding => "feeding",
            Phase::AwaitFeed => "a FeedingChoice is due",
            Phase::Finished => "the game is over",
        }
    }

    /// Read a completed reply back: the value, or the framing failure.
    fn read(
        &self,
        reply: &[u8],
    ) -> Result<crate::transport::json_stream::JsonFrame, Box<Violation>> {
        let bytes = reply.strip_suffix(b"\n").unwrap_or(reply);
        let mut reader = JsonStreamReader::default();
        reader.feed(bytes);
        reader.close();
        let shown = String::from_utf8_lossy(bytes).into_owned();
        match reader.next_frame() {
            Ok(Some(frame)) => Ok(frame),
            Ok(None) | Err(JsonStreamError::Closed) => Err(Box::new(
                c::FRAME_INVALID_JSON
                    .violation("no JSON value where one must start")
                    .with_actual(shown),
            )),
            Err(e) => {
                let rule = match e {
                    JsonStreamError::InvalidUtf8 { .. } => &c::IO_INVALID_UTF8,
                    JsonStreamError::NonJsonWhitespace { .. } => &c::FRAME_NON_JSON_WHITESPACE,
                    JsonStreamError::TooDeep { .. } | JsonStreamError::TooBig { .. } => {
                        &c::IO_MESSAGE_TOO_LARGE
                    }
                    _ => &c::FRAME_INVALID_JSON,
                };
                Err(Box::new(rule.violation(format!("{e}")).with_actual(shown)))
            }
        }
    }

    fn finding(&self, f: Finding, value: &Value, early: bool) -> Violation {
        let when = if early {
            " (this value was sent early, before the request, and read as its reply as the reference would)"
        } else {
            ""
        };
        f.rule
            .violation(format!("{}{when}", f.detail))
            .with_actual(abbreviate(value))
    }

    fn judge_signup(&mut self, frame: &crate::transport::json_stream::JsonFrame) -> Judged {
        let mut judged = Judged::default();
        match &frame.value {
            Value::String(_) => {
                if frame.control_chars {
                    judged.violations.push(
                        c::FRAME_CONTROL_CHAR_IN_STRING
                            .violation("the sign-up string holds a raw control character"),
                    );
                }
                self.phase = Phase::Dealing;
                judged.follow_ups.push(Outgoing::silent(OK));
            }
            v => {
                self.dropped = true;
                judged.violations.push(
                    c::SIGNUP_NOT_A_STRING
                        .violation(format!(
                            "the sign-up is {}, not a JSON string: the reference never answers it",
                            abbreviate(v)
                        ))
                        .with_actual(abbreviate(v)),
                );
            }
        }
        judged
    }

    fn judge_action(&mut self, value: &Value, early: bool) -> Judged {
        let mut judged = Judged::default();
        let verdict = Action4::parse(value).and_then(|a| {
            a.validate(&self.table.start_boards, &self.table.start_hand)
                .map(|_| a)
        });
        match verdict {
            Ok(action) => {
                self.table.apply_turn(action);
                self.phase = Phase::Feeding;
            }
            Err(f) => {
                self.dropped = true;
                judged.violations.push(self.finding(f, value, early));
            }
        }
        judged
    }

    fn judge_feed(&mut self, value: &Value, early: bool) -> Judged {
        let mut judged = Judged::default();
        let Some((state, _)) = self.asked.take() else {
            return judged;
        };
        let others: Vec<&[Species]> = state.4.iter().map(Vec::as_slice).collect();
        let verdict = FeedingChoice::parse(value)
            .and_then(|choice| feeding::judge(choice, &state.1, &others));
        match verdict {
            Ok(ok) => {
                for w in ok.warnings {
                    judged.violations.push(self.finding(w, value, early));
                }
                self.table.apply_bot_feed(ok.choice);
                self.phase = Phase::Feeding;
            }
            Err(f) => {
                self.dropped = true;
                judged.violations.push(self.finding(f, value, early));
            }
        }
        judged
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

/// Boards protocheck shows must be ones every client can parse (§9.0):
/// distinct traits, fat food within the body.
fn check_boards(boards: &[Species]) -> Result<(), String> {
    for (i, s) in boards.iter().enumerate() {
        if s.traits
            .iter()
            .enumerate()
            .any(|(k, t)| s.traits[k + 1..].contains(t))
        {
            return Err(format!("board {i} repeats a trait"));
        }
        if s.fat_food > s.body {
            return Err(format!("board {i} stores more fat than its body"));
        }
    }
    Ok(())
}

impl Session for EvolutionSession {
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
        if choice != "auto" {
            return Err(format!(
                "`opponent: {choice}`: Evolution's built-in players only play `auto`"
            ));
        }
        match self.phase {
            Phase::Dealing | Phase::Feeding => {
                let request = self.table.advance();
                Ok(self.request(request))
            }
            Phase::Started => {
                self.phase = Phase::AwaitAction;
                let (_, choose) = self.table.turn_messages();
                Ok(vec![Outgoing::asking(to_compact(&choose))])
            }
            _ => Err(format!("`opponent: auto` while {}", self.phase_word())),
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
            ConnectionEvent::Connected { .. } => return None,
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

    fn exited_after_end(&self, _status: ExitStatus) -> Vec<Violation> {
        // §5: an exit status after the close is not judged.
        Vec::new()
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
            ));
        }
        Ok(judged.follow_ups)
    }

    fn last_opponent_step(&self) -> Option<Step> {
        Some(Step::Opponent(Token("auto".into())))
    }
}
