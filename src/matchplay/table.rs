//! One game of a match: each bot seated as its game sets it
//! (`games::Seating`: Kalah South and North, each told its side; QTP black
//! and white, each set up the way the referee does it), the game played by
//! `controller::play_match`, and what came of it: the winner, the score, a
//! forfeit, each bot's findings.

use super::Setup;
use crate::controller::{MatchGame, SeatPlan, play_match};
use crate::games::EndResult;
use crate::outcome::{Direction, ScenarioResult, Status, TranscriptLine};
use crate::scenario::{Options, Origin, Scenario};
use crate::transport::{BotCommand, SpawnError};
use crate::verdict::{Severity, Violation};
use serde::{Deserialize, Serialize};

/// A bot in a match: its id in reports and its command line.
#[derive(Clone, Debug, Serialize)]
pub struct Player {
    pub id: String,
    pub command: String,
    #[serde(skip)]
    pub bot: BotCommand,
}

/// What became of one game.
#[derive(Clone, Debug, Serialize, Deserialize, schemars::JsonSchema)]
pub struct GameRecord {
    pub number: usize,
    /// The bots at seat 1, seat 2, …, with the side each started on.
    pub seats: Vec<SeatRecord>,
    pub outcome: Outcome,
    /// The winning seat (1-based) and bot; `None` for a draw, a win shared
    /// or a built-in player's, a forfeit at a table of more than two, or a
    /// game that did not finish.
    pub winner: Option<SeatRef>,
    /// As the game counts it (Kalah: each side's store; QTP: each colour's
    /// walls left), at the end or when the game stopped.
    pub score: Vec<Score>,
    /// The final position in the game's notation (Kalah: the counts of a
    /// CHANGE's state field; QTP: where the pawns stand).
    pub position: Option<String>,
    pub moves: usize,
    pub forfeit: Option<Forfeit>,
    /// `match --shrink-time`: how shrinking the forfeit went ("shrunk from
    /// 58 moves to 7 in 23 runs: game 5 …").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shrunk: Option<String>,
    /// Every finding at the table, each naming its bot.
    pub findings: Vec<Finding>,
    /// Protocheck's own trouble (the game could not be played): exit 2.
    pub error: Option<String>,
    pub duration_ms: u64,
    /// Every line at the table, each saying its seat.
    pub transcript: Vec<TranscriptLine>,
    /// The game as the HTML report shows it (a scenario of the page, with
    /// the board drawn at each line when pictures were asked for).
    #[serde(skip)]
    pub page: Option<ScenarioResult>,
}

#[derive(Clone, Debug, Serialize, Deserialize, schemars::JsonSchema)]
pub struct SeatRecord {
    pub seat: usize,
    pub bot: String,
    /// The side the bot started on (seat 1: Kalah South, QTP black).
    pub side: String,
    /// Its side when the game ended (Kalah: after a swap, the other one).
    pub side_at_end: Option<String>,
    /// At a table of more than two bots, or with built-in players at it,
    /// its own result (`winner` names only a bot that won alone): `won`,
    /// `lost`, `drew` (it shares the top with others), `lost` for the bot
    /// that forfeited; none when the game did not finish for it. Absent at
    /// a table of two bots alone.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<EndResult>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct SeatRef {
    pub seat: usize,
    pub bot: String,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Outcome {
    /// Played to the end by the rules: a winner or a draw.
    Finished,
    /// A bot broke a rule: it lost by forfeit.
    Forfeit,
    /// Neither: every seat waited for another, or protocheck's own trouble.
    Unfinished,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Score {
    pub side: String,
    /// The bot on that side at the end.
    pub bot: Option<String>,
    /// What is counted: Kalah `store`, QTP `walls left`, Dominion
    /// `victory points` (below 0 with curses).
    pub counts: String,
    pub value: i32,
}

#[derive(Clone, Debug, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Forfeit {
    pub seat: usize,
    pub bot: String,
    pub rule: String,
    pub message: String,
    /// The bot's message that broke the rule, as shown (none for a silence
    /// or a crash).
    pub actual: Option<String>,
    /// Its line in the transcript (1-based), where it is one.
    pub line: Option<usize>,
    pub board: Option<String>,
    /// The game had reached its end by the rules when the bot broke the
    /// rule (it was gone before protocheck ended its session): the result
    /// it would have had does not count.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub after_result: bool,
    /// Its index in the game's `findings` (not written: a match report
    /// read back finds it again, `MatchReport::read`).
    #[serde(skip)]
    pub finding: usize,
}

#[derive(Clone, Debug, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Finding {
    pub seat: usize,
    pub bot: String,
    #[serde(flatten)]
    pub violation: Violation,
}

/// Play game `number` with `players[0]` at seat 1. `Err`: a bot could not be
/// started at all.
pub fn play(setup: &Setup, number: usize, players: &[&Player]) -> Result<GameRecord, SpawnError> {
    let game = setup.game;
    let table = Options {
        seed: Some(number as u64),
        ..setup.table.clone()
    };
    let scenario = Scenario {
        name: format!("game-{number}"),
        game: game.id().to_string(),
        about: None,
        rules: Vec::new(),
        spec: None,
        options: table.clone(),
        source: format!("match game {number}"),
        steps: Vec::new(),
        origin: Origin::File,
    };
    // Each seat as the game sets it; a seat it cannot set leaves the game
    // unplayed (checked before the match, so only a game's own trouble).
    let mut seats = Vec::with_capacity(players.len());
    let mut plans = Vec::with_capacity(players.len());
    let mut built_in = 0;
    for (i, player) in players.iter().enumerate() {
        let seated = match (setup.seating.seat)(i, players.len(), &table) {
            Ok(seated) => seated,
            Err(e) => return Ok(unplayed(number, seats, e.to_string())),
        };
        seats.push(SeatRecord {
            seat: i + 1,
            bot: player.id.clone(),
            side: seated.side,
            side_at_end: None,
            result: None,
        });
        built_in = seated.built_in_players;
        plans.push(SeatPlan {
            bot: player.bot.clone(),
            session: seated.session,
            opening: seated.opening,
        });
    }
    let played = play_match(&scenario, game, &setup.cfg, plans)?;
    Ok(record(number, seats, played, built_in))
}

fn unplayed(number: usize, seats: Vec<SeatRecord>, error: String) -> GameRecord {
    GameRecord {
        number,
        seats,
        outcome: Outcome::Unfinished,
        winner: None,
        score: Vec::new(),
        position: None,
        moves: 0,
        forfeit: None,
        shrunk: None,
        findings: Vec::new(),
        error: Some(error),
        duration_ms: 0,
        transcript: Vec::new(),
        page: None,
    }
}

/// What the table's result says of the game.
fn record(
    number: usize,
    mut seats: Vec<SeatRecord>,
    played: MatchGame,
    built_in: usize,
) -> GameRecord {
    let result = played.run.result;
    let page = ScenarioResult {
        name: format!(
            "game {number}: {}",
            seats
                .iter()
                .map(|s| {
                    // A game whose sides are its seats (Evolution) names them once.
                    if s.side == format!("seat {}", s.seat) {
                        format!("{} (seat {})", s.bot, s.seat)
                    } else {
                        format!("{} (seat {}, {})", s.bot, s.seat, s.side)
                    }
                })
                .collect::<Vec<_>>()
                .join(" vs ")
        ),
        ..result.clone()
    };
    for (seat, ending) in seats.iter_mut().zip(&played.endings) {
        seat.side_at_end = ending.as_ref().map(|e| e.side.clone());
    }
    let bot_at = |seat: usize| seats[seat].bot.clone();
    let findings: Vec<Finding> = result
        .violations
        .iter()
        .zip(&played.finding_seats)
        .map(|(v, &seat)| Finding {
            seat: seat + 1,
            bot: bot_at(seat),
            violation: v.clone(),
        })
        .collect();
    let ending = played.endings.iter().flatten().next().cloned();
    let ended: Vec<(usize, EndResult)> = played
        .endings
        .iter()
        .enumerate()
        .filter_map(|(seat, e)| e.as_ref().map(|e| (seat, e.result)))
        .collect();
    let finished = ended.len() == seats.len();
    let failing = |f: &&Finding| f.violation.severity == Severity::Fail;
    // The finding that forfeits the game. Before the result is known, the
    // first failure at the table ends the game against its bot. After it,
    // only a bot gone before protocheck ended its session (`io.crash` at
    // fail level) forfeits, as every reference engine stops with a dead
    // bot; other failures leave the result standing and are counted in
    // the standings (docs/match.md, "Forfeit").
    let forfeiting = if finished {
        findings
            .iter()
            .position(|f| failing(&f) && f.violation.rule == crate::shared_rules::IO_CRASH.id)
    } else {
        findings.iter().position(|f| failing(&f))
    };
    let (outcome, winner, forfeit) = if let Some(index) = forfeiting {
        let f = &findings[index];
        let forfeit = Forfeit {
            seat: f.seat,
            bot: f.bot.clone(),
            rule: f.violation.rule.to_string(),
            message: f.violation.message.clone(),
            actual: f.violation.actual.clone(),
            line: line_of(&result.transcript, f.seat, f.violation.actual.as_deref()),
            board: f.violation.board.clone(),
            after_result: finished,
            finding: index,
        };
        // Two at the table: the other bot wins. More, or built-in players
        // too: the game ends with no winner (who would have won is not
        // known).
        let winner = (seats.len() == 2 && built_in == 0).then(|| {
            let other = f.seat % 2;
            SeatRef {
                seat: other + 1,
                bot: bot_at(other),
            }
        });
        (Outcome::Forfeit, winner, Some(forfeit))
    } else if finished {
        let winner = ended
            .iter()
            .find(|(_, r)| *r == EndResult::Won)
            .map(|&(seat, _)| SeatRef {
                seat: seat + 1,
                bot: bot_at(seat),
            });
        (Outcome::Finished, winner, None)
    } else {
        (Outcome::Unfinished, None, None)
    };
    // With built-in players at the table, a bot may lose without another
    // bot winning: each seat says its own result, as at a larger table.
    // A forfeit counts only against its bot, also after the end.
    if seats.len() > 2 || built_in > 0 {
        for (i, seat) in seats.iter_mut().enumerate() {
            seat.result = match &forfeit {
                Some(f) if f.seat == i + 1 => Some(EndResult::Lost),
                Some(_) => None,
                None if finished => played
                    .endings
                    .get(i)
                    .and_then(Option::as_ref)
                    .map(|e| e.result),
                None => None,
            };
        }
    }
    let error = match (result.status, result.error) {
        (Status::Error, e) => Some(e.unwrap_or_else(|| "the game could not be played".into())),
        (_, e) => e,
    };
    let score = ending
        .as_ref()
        .map(|e| {
            e.score
                .iter()
                .map(|(side, value)| Score {
                    side: side.clone(),
                    bot: seats
                        .iter()
                        .find(|s| s.side_at_end.as_ref() == Some(side))
                        .map(|s| s.bot.clone()),
                    counts: e.score_counts.to_string(),
                    value: *value,
                })
                .collect()
        })
        .unwrap_or_default();
    GameRecord {
        number,
        seats,
        outcome,
        winner,
        score,
        position: ending.map(|e| e.position),
        moves: played.moves.len(),
        forfeit,
        shrunk: None,
        findings,
        error,
        duration_ms: result.duration_ms,
        transcript: result.transcript,
        page: Some(page),
    }
}

/// The 1-based transcript line where the bot at `seat` sent `actual`: the
/// last line from that seat that shows it as written, else as the game
/// read it. A game may show the message otherwise than the transcript
/// keeps it: Evolution shows a value as compact JSON, cut after 80
/// characters with `…`, while the client may have written it with spaces
/// or over several lines; a reply cut short by a timeout is kept with
/// ` (incomplete)` after it.
fn line_of(transcript: &[TranscriptLine], seat: usize, actual: Option<&str>) -> Option<usize> {
    let actual = actual?;
    let prefix = format!("seat {seat}: ");
    fn sent_by<'a>(l: &'a TranscriptLine, prefix: &str) -> Option<&'a str> {
        (l.dir == Direction::Received)
            .then(|| l.text.strip_prefix(prefix))
            .flatten()
    }
    if let Some(i) = transcript
        .iter()
        .rposition(|l| sent_by(l, &prefix) == Some(actual))
    {
        return Some(i + 1);
    }
    let (shown, cut) = match actual.strip_suffix('…') {
        Some(head) => (head, true),
        None => (actual, false),
    };
    let want = squeezed(shown);
    if want.is_empty() {
        return None;
    }
    transcript
        .iter()
        .rposition(|l| {
            sent_by(l, &prefix).is_some_and(|text| {
                let text = text.strip_suffix(" (incomplete)").unwrap_or(text);
                let got = squeezed(text);
                got == want || (cut && got.starts_with(&want))
            })
        })
        .map(|i| i + 1)
}

/// Text without its whitespace and without the `\r` marks the transcript
/// shows for carriage returns, so that the same message written with other
/// spacing compares equal.
fn squeezed(text: &str) -> String {
    text.replace("\\r", "")
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn received(text: &str) -> TranscriptLine {
        TranscriptLine {
            dir: Direction::Received,
            text: text.into(),
            ms: 0,
        }
    }

    #[test]
    fn a_forfeits_line_is_found_however_the_message_was_spaced_or_cut() {
        let transcript = [
            received("seat 1: \"a\""),
            received("seat 2: [2, [[1, 3]], [], [[0, 1]], []]"),
            received("seat 2: [\\r\n  1,\\r\n  2\\r\n]"),
            received("seat 2: 1 (incomplete)"),
            received("seat 1: [2,[[1,3]],[],[[0,1]],[]]"),
        ];
        let line = |seat, actual: &str| line_of(&transcript, seat, Some(actual));
        assert_eq!(line(2, "[2,[[1,3]],[],[[0,1]],[]]"), Some(2));
        assert_eq!(line(1, "[2,[[1,3]],[],[[0,1]],[]]"), Some(5), "as written");
        assert_eq!(line(2, "[1,2]"), Some(3), "over lines, with CRs");
        assert_eq!(line(2, "1"), Some(4), "a reply cut short");
        assert_eq!(line(2, "[2,[[1,3]],[]…"), Some(2), "abbreviated");
        assert_eq!(line(2, "[9]"), None);
        assert_eq!(line(2, "(no reply within 10s)"), None);
        assert_eq!(line_of(&transcript, 2, None), None);
    }
}
