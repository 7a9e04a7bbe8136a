//! What a match shows: JSON (the whole record, every game's transcript),
//! a human summary (each game's result, a forfeit with its rule, message,
//! board and the transcript around it, each bot's own verdict), one HTML
//! page and JUnit (`super::junit`). Only what the transcript shows is said.
//!
//! [`MatchReport`] and a tournament's [`TournamentReport`] are typed
//! results, written and read back (`read`): their findings, transcripts
//! and sandbox are the single run's own types (`verdict::Violation`,
//! `outcome::TranscriptLine`, `transport::sandbox::Layers`), a bot's
//! verdict the single run's status; their schemas are published beside
//! the single run's (`report::schema`).

use super::MatchFormat;
use super::standings::{self, Row};
use super::table::{GameRecord, Outcome, Player};
use crate::outcome::{Direction, Status};
use crate::report::request::{Request, RequestError};
use crate::transport::sandbox::Layers;
use crate::verdict::Severity;
use serde::{Deserialize, Serialize};

/// A match: its bots, its games and each bot's tally and verdict.
#[derive(Clone, Debug, Serialize, Deserialize, schemars::JsonSchema)]
pub struct MatchReport {
    pub protocheck: String,
    pub game: String,
    /// Which sandbox layers confined the bots (settled once for the run).
    pub sandbox: Layers,
    pub bots: Vec<BotVerdict>,
    pub games: Vec<GameRecord>,
}

/// One bot's own result over the match (its id is the tally's `bot`).
#[derive(Clone, Debug, Serialize, Deserialize, schemars::JsonSchema)]
pub struct BotVerdict {
    pub command: String,
    /// `passed`: no failing finding in any game; `failed` otherwise.
    pub verdict: Status,
    /// Every failing finding, the forfeits' included (the tally's
    /// `failures` are the others; its `warnings` are the warnings).
    pub failing_findings: usize,
    #[serde(flatten)]
    pub tally: Row,
}

/// A tournament's record (`standings.json`): the schedule with each
/// match's result and files, the standings and the head-to-head sums.
#[derive(Clone, Debug, Serialize, Deserialize, schemars::JsonSchema)]
pub struct TournamentReport {
    pub protocheck: String,
    pub game: String,
    /// Which sandbox layers confined the bots (settled once for the run).
    pub sandbox: Layers,
    pub games_per_match: usize,
    pub matches: Vec<MatchLine>,
    pub standings: Vec<Row>,
    /// Every ordered pair of bots that met, in the order of the standings.
    pub head_to_head: Vec<Meeting>,
}

/// What one bot scored against another over the tournament.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Meeting {
    pub bot: String,
    pub against: String,
    pub games: u32,
    pub points: f64,
}

/// One match in the schedule, with where it is saved.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct MatchLine {
    pub number: usize,
    pub first: String,
    pub second: String,
    /// Games won by each (first, second) and drawn.
    pub first_wins: usize,
    pub second_wins: usize,
    pub draws: usize,
    /// Games a built-in player won (both bots lost), where the game seats
    /// built-in players beside the bots.
    pub built_in_wins: usize,
    /// Games lost by forfeit.
    pub forfeits: usize,
    /// The result in words, as the page and the summary show it.
    pub result: String,
    /// Its JSON (a [`MatchReport`]), relative to the tournament's folder.
    pub file: String,
    /// Its page.
    pub page: String,
}

impl TournamentReport {
    pub fn json(&self) -> String {
        serde_json::to_string_pretty(self).expect("standings serialise") + "\n"
    }

    /// A tournament's JSON read back.
    pub fn read(text: &str) -> Result<TournamentReport, MatchReportError> {
        serde_json::from_str(text).map_err(MatchReportError::Json)
    }
}

impl MatchReport {
    pub fn new(
        game: &str,
        sandbox: &crate::transport::sandbox::Layers,
        players: &[Player],
        games: Vec<GameRecord>,
    ) -> MatchReport {
        let ids: Vec<String> = players.iter().map(|p| p.id.clone()).collect();
        let rows = standings::standings(&ids, &games.iter().collect::<Vec<_>>(), false);
        let bots = players
            .iter()
            .map(|p| {
                let failing = games
                    .iter()
                    .flat_map(|g| &g.findings)
                    .filter(|f| f.bot == p.id && f.violation.severity == Severity::Fail)
                    .count();
                BotVerdict {
                    command: p.command.clone(),
                    verdict: if failing == 0 {
                        Status::Passed
                    } else {
                        Status::Failed
                    },
                    failing_findings: failing,
                    tally: rows
                        .iter()
                        .find(|r| r.bot == p.id)
                        .cloned()
                        .expect("a row per bot"),
                }
            })
            .collect();
        MatchReport {
            protocheck: crate::build_info::LONG.into(),
            game: game.to_string(),
            sandbox: sandbox.clone(),
            bots,
            games,
        }
    }

    /// 0 every bot played without a failing finding, 1 one did, 2 a game
    /// could not be played (protocheck's trouble).
    pub fn exit_code(&self) -> i32 {
        if self.games.iter().any(|g| g.error.is_some()) {
            2
        } else if self.bots.iter().any(|b| b.failing_findings > 0) {
            1
        } else {
            0
        }
    }

    pub fn json(&self) -> String {
        let mut text = serde_json::to_string_pretty(self).expect("a match report serialises");
        text.push('\n');
        text
    }

    /// A match's JSON read back. Each forfeit is found again among its
    /// game's findings (the first failing one of its seat and rule, as the
    /// game chose it), which the JSON does not say by index.
    pub fn read(text: &str) -> Result<MatchReport, MatchReportError> {
        let mut report: MatchReport = serde_json::from_str(text).map_err(MatchReportError::Json)?;
        for game in &mut report.games {
            let findings = &game.findings;
            if let Some(f) = &mut game.forfeit {
                f.finding = findings
                    .iter()
                    .position(|x| {
                        x.seat == f.seat
                            && x.violation.rule == f.rule
                            && x.violation.severity == Severity::Fail
                    })
                    .ok_or_else(|| MatchReportError::ForfeitNotFound {
                        game: game.number,
                        rule: f.rule.to_string(),
                        seat: f.seat,
                    })?;
            }
        }
        Ok(report)
    }

    /// One page stepping through every game (the single run's HTML report,
    /// each game a scenario of it).
    pub fn html(&self) -> String {
        let info = crate::report::RunInfo {
            version: self.protocheck.clone(),
            game: self.game.clone(),
            bot: self
                .bots
                .iter()
                .map(|b| b.tally.bot.as_str())
                .collect::<Vec<_>>()
                .join(" vs "),
            generated: None,
            strict: false,
            partition: None,
            workspace: None,
            environment: Default::default(),
            sandbox: self.sandbox.clone(),
            score: None,
            coverage: None,
        };
        // Each game's block says who won and why.
        let pages: Vec<_> = self
            .games
            .iter()
            .filter_map(|g| {
                let mut page = g.page.clone()?;
                page.about = Some(why_sentence(g));
                Some(page)
            })
            .collect();
        crate::report::html::render(&info, &pages)
    }

    pub fn human(&self) -> String {
        let mut out = format!(
            "protocheck match: {}, {} game{}\n",
            self.game,
            self.games.len(),
            if self.games.len() == 1 { "" } else { "s" }
        );
        for bot in &self.bots {
            out.push_str(&format!("  {}: {}\n", bot.tally.bot, bot.command));
        }
        out.push_str(&format!("{}\n", self.sandbox.line()));
        for game in &self.games {
            out.push('\n');
            out.push_str(&game_text(game));
        }
        out.push('\n');
        for bot in &self.bots {
            let t = &bot.tally;
            out.push_str(&format!(
                "{}: {} won, {} drawn, {} lost ({} by forfeit), points {}; {}",
                t.bot,
                t.wins,
                t.draws,
                t.losses,
                t.forfeits,
                t.points,
                verdict_word(bot.verdict)
            ));
            if bot.failing_findings > 0 || t.warnings > 0 {
                out.push_str(&format!(
                    " (forfeits {}, other failures {}, warnings {})",
                    t.forfeits, t.failures, t.warnings
                ));
            }
            out.push('\n');
        }
        out
    }
}

/// The reports asked for: every `--report`, and `--format`'s (human
/// without either), refused before any game is played when two would go
/// to standard output or to one file.
pub fn plan(
    reports: &[Request<MatchFormat>],
    format: Option<MatchFormat>,
) -> Result<Vec<Request<MatchFormat>>, RequestError> {
    crate::report::request::plan_or(reports, format, None, MatchFormat::Human)
}

/// Whether the games draw the board at each line: only for an HTML report
/// (drawing costs time).
pub fn draws_pictures(reports: &[Request<MatchFormat>], format: Option<MatchFormat>) -> bool {
    format == Some(MatchFormat::Html) || reports.iter().any(|r| r.format == MatchFormat::Html)
}

/// A match's or a tournament's JSON that does not read back.
#[derive(Debug, thiserror::Error)]
pub enum MatchReportError {
    #[error("{0}")]
    Json(#[source] serde_json::Error),
    #[error("game {game}: its forfeit ({rule} by seat {seat}) is none of its findings")]
    ForfeitNotFound {
        game: usize,
        rule: String,
        seat: usize,
    },
}

/// The verdict as the summary says it (`passed`, `failed`).
fn verdict_word(status: Status) -> &'static str {
    match status {
        Status::Passed => "passed",
        Status::Failed => "failed",
        Status::Error => "error",
        Status::Skipped => "skipped",
        Status::Interrupted => "interrupted",
    }
}

/// How many transcript lines before a forfeit the summary shows.
const CONTEXT_LINES: usize = 8;

/// One game: seats, result, score; a forfeit with its rule, message, board
/// and the transcript up to it; every other finding in one line each.
pub fn game_text(game: &GameRecord) -> String {
    let seats: Vec<String> = game
        .seats
        .iter()
        .map(|s| format!("{} {}", s.bot, s.side))
        .collect();
    let mut out = format!("game {}: {}\n", game.number, seats.join(" vs "));
    let (result, score) = (result_words(game), score_words(game));
    out.push_str(&format!("  result: {result} after {} moves", game.moves));
    if !score.is_empty() {
        out.push_str(&format!(" ({score})"));
    }
    out.push('\n');
    if let Some(e) = &game.error {
        out.push_str(&format!("  error: {e}\n"));
    }
    if let Some(f) = &game.forfeit {
        out.push_str(&format!(
            "  forfeit: {} (seat {}) broke {}{}: {}\n",
            f.bot,
            f.seat,
            f.rule,
            if f.after_result {
                " after the game's result was known (that result no longer counts)"
            } else {
                ""
            },
            f.message
        ));
        if let Some(actual) = &f.actual {
            out.push_str(&format!("    actual: {actual}\n"));
        }
        if let Some(shrunk) = &game.shrunk {
            out.push_str(&format!("    {shrunk}\n"));
        }
        if let Some(board) = &f.board {
            for line in board.lines() {
                out.push_str(&format!("    | {line}\n"));
            }
        }
        let end = f.line.unwrap_or(game.transcript.len());
        let start = end.saturating_sub(CONTEXT_LINES);
        out.push_str("    transcript:\n");
        for (i, line) in game.transcript[start..end.min(game.transcript.len())]
            .iter()
            .enumerate()
        {
            let arrow = match line.dir {
                Direction::Sent => ">",
                Direction::Received => "<",
                Direction::Note => "#",
            };
            out.push_str(&format!("    {:>4} {arrow} {}\n", start + i + 1, line.text));
        }
    }
    let forfeit_rule = game.forfeit.as_ref().map(|f| (f.seat, f.rule.as_str()));
    let mut skipped_forfeit = false;
    for f in &game.findings {
        if !skipped_forfeit && forfeit_rule == Some((f.seat, f.violation.rule)) {
            skipped_forfeit = true;
            continue;
        }
        out.push_str(&format!(
            "  {} {} (seat {}): {}: {}\n",
            f.violation.severity.as_str(),
            f.bot,
            f.seat,
            f.violation.rule,
            f.violation.message
        ));
    }
    out
}

/// Each side's score at the end, in words ("A (South) store 55, …").
fn score_words(game: &GameRecord) -> String {
    game.score
        .iter()
        .map(|s| match &s.bot {
            Some(bot) => format!("{bot} ({}) {} {}", s.side, s.counts, s.value),
            None => format!("{} {} {}", s.side, s.counts, s.value),
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// Who won, in words ("A won", "a draw", "A won by forfeit", …).
fn result_words(game: &GameRecord) -> String {
    match (game.outcome, &game.winner) {
        (Outcome::Finished, Some(w)) => format!("{} won", w.bot),
        // Each seat's own result is known (a table of more than two, or
        // built-in players at it).
        (Outcome::Finished, None) if game.seats.iter().any(|s| s.result.is_some()) => {
            let sharing: Vec<&str> = game
                .seats
                .iter()
                .filter(|s| s.result == Some(crate::games::EndResult::Drew))
                .map(|s| s.bot.as_str())
                .collect();
            match sharing.as_slice() {
                [] => "no bot won (a built-in player did)".to_string(),
                // Another shares the top: a built-in player.
                [bot] => format!("{bot} shared the win with a built-in player"),
                bots => format!("{} shared the win", bots.join(" and ")),
            }
        }
        (Outcome::Finished, None) => "a draw".to_string(),
        (Outcome::Forfeit, Some(w)) => format!("{} won by forfeit", w.bot),
        (Outcome::Forfeit, None) => "ended by a forfeit".to_string(),
        _ => "not finished".to_string(),
    }
}

/// Who won and why, for the game's block on a match page: the result,
/// the score, and for a forfeit the bot, its seat and side, the rule, the
/// message it sent and its transcript line.
pub fn why_sentence(game: &GameRecord) -> String {
    let mut out = format!("Result: {} after {} moves", result_words(game), game.moves);
    let score = score_words(game);
    if !score.is_empty() {
        out.push_str(&format!(" ({score})"));
    }
    out.push('.');
    match &game.forfeit {
        Some(f) => {
            let side = game
                .seats
                .iter()
                .find(|s| s.seat == f.seat)
                .map(|s| s.side.as_str())
                .filter(|side| *side != format!("seat {}", f.seat))
                .map(|side| format!(", {side}"))
                .unwrap_or_default();
            out.push_str(&format!(
                " Why: {} (seat {}{side}) broke `{}`",
                f.bot, f.seat, f.rule
            ));
            if f.after_result {
                out.push_str(" after the game's result was known (that result no longer counts)");
            }
            if let Some(actual) = &f.actual {
                out.push_str(&format!(" with `{actual}`"));
            }
            if let Some(line) = f.line {
                out.push_str(&format!(" (transcript line {line})"));
            }
            out.push_str(&format!(": {}", f.message));
        }
        None if game.outcome == Outcome::Finished => {
            out.push_str(" Why: the game reached its end by the rules.");
        }
        None => {
            if let Some(e) = &game.error {
                out.push_str(&format!(" Why: {e}"));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The pinned match JSON (after its `---` header).
    fn pinned() -> String {
        let path = format!(
            "{}/snapshots/match-kalah-json.snap",
            env!("CARGO_MANIFEST_DIR")
        );
        let text = std::fs::read_to_string(&path).unwrap();
        text.splitn(3, "---\n").nth(2).unwrap().to_string()
    }

    #[test]
    fn a_match_report_reads_back_as_written() {
        let text = pinned();
        let report = MatchReport::read(&text).unwrap();
        assert_eq!(report.bots[0].verdict, Status::Failed);
        assert_eq!(report.bots[1].verdict, Status::Passed);
        let again: serde_json::Value = serde_json::from_str(&report.json()).unwrap();
        let pinned: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(again, pinned);
        // The standings of the games read back are the bots' tallies.
        let ids: Vec<String> = report.bots.iter().map(|b| b.tally.bot.clone()).collect();
        let rows = standings::standings(&ids, &report.games.iter().collect::<Vec<_>>(), false);
        for bot in &report.bots {
            assert_eq!(
                rows.iter().find(|r| r.bot == bot.tally.bot),
                Some(&bot.tally)
            );
        }
    }

    #[test]
    fn a_forfeit_read_back_is_its_games_first_failing_finding_of_its_seat_and_rule() {
        let text = pinned();
        let mut doc: serde_json::Value = serde_json::from_str(&text).unwrap();
        // A warning of the same bot before its forfeit.
        let finding = doc["games"][0]["findings"][0].clone();
        let mut warning = finding.clone();
        warning["severity"] = "warn".into();
        doc["games"][0]["findings"] = serde_json::json!([warning, finding]);
        let report = MatchReport::read(&doc.to_string()).unwrap();
        assert_eq!(report.games[0].forfeit.as_ref().unwrap().finding, 1);
        let ids: Vec<String> = report.bots.iter().map(|b| b.tally.bot.clone()).collect();
        let rows = standings::standings(&ids, &[&report.games[0]], false);
        let forfeiting = rows.iter().find(|r| r.bot == ids[0]).unwrap();
        assert_eq!(
            (
                forfeiting.forfeits,
                forfeiting.warnings,
                forfeiting.failures
            ),
            (1, 1, 0),
            "the warning counted, the forfeit not twice"
        );
        // A forfeit that is none of the findings is an error, not a guess.
        doc["games"][0]["findings"] = serde_json::json!([]);
        let e = MatchReport::read(&doc.to_string()).unwrap_err().to_string();
        assert!(e.contains("game 1: its forfeit"), "{e}");
    }

    #[test]
    fn a_bad_verdict_is_an_error() {
        let text = pinned().replacen("\"verdict\": \"failed\"", "\"verdict\": \"flailed\"", 1);
        let e = MatchReport::read(&text).unwrap_err();
        assert!(std::error::Error::source(&e).is_some());
        let e = e.to_string();
        assert!(e.contains("flailed"), "{e}");
    }
}
