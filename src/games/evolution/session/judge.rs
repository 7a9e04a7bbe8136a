//! Reading a completed reply back and judging it by what was asked: the
//! sign-up, an Action4 or a FeedingChoice.

use super::super::action4::{Action4, Finding, abbreviate};
use super::super::catalogue as c;
use crate::shared_rules::KeptAreas;
use super::super::feeding::{self, FeedingChoice};
use super::super::messages::OK;
use super::super::model::Species;
use super::{EvolutionSession, Phase};
use crate::games::{Judged, Outgoing};
use crate::games::evolution::json_stream::{JsonFrame, JsonStreamError, JsonStreamReader};
use crate::verdict::Violation;
use serde_json::Value;

impl EvolutionSession {
    /// Read a completed reply back: the value, or the framing failure.
    pub(super) fn read(&self, reply: &[u8]) -> Result<JsonFrame, Box<Violation>> {
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

    /// A move of this session's bot as other seats' sessions take it.
    fn relay_text(&self, value: &Value) -> String {
        format!("seat {}: {value}", self.seat + 1)
    }

    pub(super) fn judge_signup(&mut self, frame: &JsonFrame) -> Judged {
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
                judged.passed.push(c::SIGNUP_NOT_A_STRING.id);
                if !frame.control_chars {
                    judged.passed.push(c::FRAME_CONTROL_CHAR_IN_STRING.id);
                }
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

    pub(super) fn judge_action(&mut self, value: &Value, early: bool) -> Judged {
        let mut judged = Judged::default();
        let verdict = Action4::parse(value).and_then(|a| {
            a.validate(&self.table.start_boards, &self.table.start_hand)
                .map(|_| a)
        });
        match verdict {
            Ok(action) => {
                // A reply judged here was framed: the framing rules held too.
                static KEPT: KeptAreas = KeptAreas::new(&c::CATALOGUE, &["choose", "frame"]);
                judged.passed_areas = KEPT.sets().to_vec();
                judged.passed.push(c::VALUE_NOT_NATURAL.id);
                self.played = Some(self.relay_text(&action.to_json()));
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

    pub(super) fn judge_feed(&mut self, value: &Value, early: bool) -> Judged {
        let mut judged = Judged::default();
        let Some((state, _)) = self.asked.take() else {
            return judged;
        };
        let others: Vec<&[Species]> = state.4.iter().map(Vec::as_slice).collect();
        let verdict = FeedingChoice::parse(value)
            .and_then(|choice| feeding::judge(choice, &state.1, &others));
        match verdict {
            Ok(ok) => {
                judged.passed = crate::games::evolution::coverage::feeding_kept(
                    &mut self.table.reached,
                    ok.choice,
                    !ok.warnings.is_empty(),
                    &state.1,
                    state.3,
                );
                static FRAMED: KeptAreas = KeptAreas::new(&c::CATALOGUE, &["frame"]);
                judged.passed_areas.extend_from_slice(FRAMED.sets());
                for w in ok.warnings {
                    judged.violations.push(self.finding(w, value, early));
                }
                self.played = Some(self.relay_text(&ok.choice.to_json()));
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
}
