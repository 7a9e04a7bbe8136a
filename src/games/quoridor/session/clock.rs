//! The rules that judge time (quoridor.md §6, decision 22): an
//! acknowledgement slower than the referee's 2 s (`quoridor.time.ack`,
//! warn) and more `genmove` time in one game than the referee's 20·N s
//! (`quoridor.time.game`). Both judge the bot's own time, as `io.timeout`
//! does (the wall time less what the bot waited for a CPU), and give both
//! figures.

use super::plan::Pending;
use super::{ACK_LIMIT, QtpSession};
use crate::games::quoridor::catalogue as rule;
use crate::games::quoridor::expect::Outcome;
use crate::verdict::{ReplyTiming, TimeFigure, Violation};
use std::time::Duration;

/// How long one reply took, as the controller measured it.
#[derive(Clone, Copy, Debug)]
pub(super) struct Took {
    pub(super) wall: Duration,
    /// `None` where the bot's own time cannot be measured.
    pub(super) own: Option<Duration>,
    /// The session's first reply: it includes the engine's start-up.
    pub(super) first: bool,
}

/// One game's `genmove` time.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct GameClock {
    /// The time judged: the bot's own time where measured, else the wall.
    judged: Duration,
    wall: Duration,
    /// Some answer's own time could not be measured: the wall decided.
    unmeasured: bool,
    reported: bool,
}

fn millis(d: Duration) -> u64 {
    d.as_millis() as u64
}

impl QtpSession {
    /// The time findings on the reply to `p`, which took `waited` of the
    /// bot's own time (the wall time where that cannot be measured); `took`
    /// has both figures, as the controller measured them.
    pub(super) fn judge_time(
        &mut self,
        p: &Pending,
        waited: Duration,
        took: Option<Took>,
    ) -> Option<Violation> {
        // A direct call (lint, tests) has only `waited`.
        let took = took.unwrap_or(Took {
            wall: waited,
            own: Some(waited),
            first: false,
        });
        let decided_by = if took.own.is_some() {
            TimeFigure::OwnTime
        } else {
            TimeFigure::WallTime
        };
        if matches!(p.outcome, Outcome::Genmove(_)) {
            let game = &mut self.game_clock;
            game.judged += waited;
            game.wall += took.wall;
            game.unmeasured |= took.own.is_none();
            let limit = Duration::from_secs(20 * u64::from(self.size.unwrap_or(9)));
            if game.judged <= limit || game.reported {
                return None;
            }
            game.reported = true;
            let timing = ReplyTiming {
                wall_ms: millis(game.wall),
                own_ms: (!game.unmeasured).then(|| millis(game.judged)),
                limit_ms: millis(limit),
                decided_by: if game.unmeasured {
                    TimeFigure::WallTime
                } else {
                    TimeFigure::OwnTime
                },
            };
            return Some(
                rule::TIME_GAME
                    .violation(format!(
                        "genmove answers in this game took {}, over the referee's {} s (20·N)",
                        timing.describe(),
                        limit.as_secs()
                    ))
                    .with_timing(timing),
            );
        }
        // The first reply includes the engine's start-up, which the
        // start-up timeout covers (as for `io.timeout`): not its pace.
        if took.first || waited <= ACK_LIMIT {
            return None;
        }
        let timing = ReplyTiming {
            wall_ms: millis(took.wall),
            own_ms: took.own.map(millis),
            limit_ms: millis(ACK_LIMIT),
            decided_by,
        };
        Some(
            rule::TIME_ACK
                .violation(format!(
                    "`{}` took {}; the referee stops waiting after 2 s",
                    p.line,
                    timing.describe()
                ))
                .with_timing(timing),
        )
    }
}
