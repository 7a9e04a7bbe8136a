//! The log ManKalah.jar (the Kalah reference engine) prints on stderr: the
//! board after each move, `Move: South - 3` / `Move: Swap` lines, and at the
//! end `WINNER: …`, `SCORE: …` and one line per player. The bot is one of
//! its two players; the other player's moves become `opponent:` steps,
//! the bot's own moves exact `expect: {reply}` steps.

use crate::games::{CommentedSteps, EngineLog, Game, ScriptError, SetupError};
use crate::scenario_model::{Expect, Options, Step, Token};
use crate::verdict::Severity;
use std::time::Duration;

/// ManKalah.jar's log, for `record --from-transcript`.
pub struct ManKalahLog;

impl EngineLog for ManKalahLog {
    fn name(&self) -> &'static str {
        "ManKalah.jar log"
    }

    /// A ManKalah log has `Move:` lines.
    fn looks_like(&self, text: &str) -> bool {
        text.lines().any(|l| l.starts_with("Move: "))
    }

    fn steps(
        &self,
        text: &str,
        file: &str,
        player: u8,
        options: &Options,
    ) -> Result<(CommentedSteps, Option<String>), crate::games::EngineLogError> {
        Ok(steps(text, file, player, options)?)
    }
}

/// Why a ManKalah log makes no scenario; `at` is `file:line`.
#[derive(Debug, thiserror::Error)]
pub enum ManKalahError {
    #[error("options: {0}")]
    Options(#[source] SetupError),
    #[error("--player {0}: ManKalah has players 1 and 2")]
    Player(u8),
    #[error("{at}: {source}")]
    Script {
        at: String,
        #[source]
        source: ScriptError,
    },
    #[error(
        "{at}: not a line of ManKalah's log (`Move: South - 3`, `Move: Swap`, a board row, or the result): `{line}`"
    )]
    NotALogLine { at: String, line: String },
    #[error("{at}: expected `Move: <South|North> - <hole>` or `Move: Swap`, got `{line}`")]
    NotAMove { at: String, line: String },
    #[error("{at}: `{side}` is not a side (South or North)")]
    Side { at: String, side: String },
    #[error("{at}: `{hole}` is not a hole number")]
    Hole { at: String, hole: String },
    #[error("{at}: the opponent's move `{line}`: {source}")]
    OpponentMove {
        at: String,
        line: String,
        #[source]
        source: ScriptError,
    },
}

fn steps(
    text: &str,
    file: &str,
    player: u8,
    options: &Options,
) -> Result<(CommentedSteps, Option<String>), ManKalahError> {
    let mut session = super::KALAH
        .session(options)
        .map_err(ManKalahError::Options)?;
    let mut rng = fastrand::Rng::with_seed(0);
    // Player 1 starts as South.
    let mut bot_south = match player {
        1 => true,
        2 => false,
        n => return Err(ManKalahError::Player(n)),
    };
    let start = if bot_south {
        "START;South"
    } else {
        "START;North"
    };
    session
        .send(start)
        .map_err(|source| ManKalahError::Script {
            at: file.to_string(),
            source,
        })?;
    let mut steps = vec![(Step::Send(start.into()), None)];
    let mut finished = false;
    for (i, raw) in text.lines().enumerate() {
        let at = format!("{file}:{}", i + 1);
        let line = raw.trim();
        if line.is_empty() || is_board_row(line) || is_result(line) {
            finished |= line.starts_with("WINNER:") || line.starts_with("DRAW");
            continue;
        }
        let Some(mv) = line.strip_prefix("Move: ") else {
            return Err(ManKalahError::NotALogLine {
                at,
                line: line.to_string(),
            });
        };
        // (side that moves, the bot's message, the opponent's choice)
        let (south_moves, message, choice) = if mv.trim() == "Swap" {
            // Only North swaps, on its first turn.
            (false, "SWAP".to_string(), "swap".to_string())
        } else {
            let (side, hole) = mv.split_once(" - ").ok_or_else(|| ManKalahError::NotAMove {
                at: at.clone(),
                line: line.to_string(),
            })?;
            let south = match side.trim() {
                "South" => true,
                "North" => false,
                other => {
                    return Err(ManKalahError::Side {
                        at,
                        side: other.to_string(),
                    });
                }
            };
            let hole: u8 = hole
                .trim()
                .parse()
                .map_err(|_| ManKalahError::Hole {
                    at: at.clone(),
                    hole: hole.trim().to_string(),
                })?;
            (south, format!("MOVE;{hole}"), hole.to_string())
        };
        if south_moves == bot_south {
            let mut bytes = message.clone().into_bytes();
            bytes.push(b'\n');
            let judged = session
                .judge(&bytes, &Expect::LegalMove, Duration::ZERO)
                .map_err(|source| ManKalahError::Script {
                    at: at.clone(),
                    source,
                })?;
            if let Some(v) = judged
                .violations
                .iter()
                .find(|v| v.severity == Severity::Fail)
            {
                steps.push((
                    Step::Expect(Expect::LegalMove),
                    Some(format!("the bot replied: {message}")),
                ));
                return Ok((
                    steps,
                    Some(format!(
                        "{at}: the bot's `{message}` breaks {}: a run stops there",
                        v.rule
                    )),
                ));
            }
            steps.push((Step::Expect(Expect::Reply(message.clone())), None));
        } else {
            session
                .opponent(&choice, &mut rng)
                .map_err(|source| ManKalahError::OpponentMove {
                    at: at.clone(),
                    line: line.to_string(),
                    source,
                })?;
            steps.push((Step::Opponent(Token(choice)), None));
        }
        if message == "SWAP" {
            bot_south = !bot_south;
        }
    }
    if finished {
        steps.push((Step::Expect(Expect::Exit), None));
    }
    Ok((steps, None))
}

/// `0  --  7  7  7  7  7  7  7`: numbers and the `--` of the stores.
fn is_board_row(line: &str) -> bool {
    line.split_whitespace()
        .all(|t| t == "--" || t.bytes().all(|b| b.is_ascii_digit()))
}

fn is_result(line: &str) -> bool {
    line.starts_with("WINNER:")
        || line.starts_with("SCORE:")
        || line.starts_with("DRAW")
        // Per-player figures, and why a player lost (an illegal move, a
        // timeout): the move itself is not logged, a run judges it again.
        || line.starts_with("Player ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::error::Error;

    #[test]
    fn a_log_error_reads_as_before_and_keeps_the_scenario_error() {
        let e = ManKalahLog
            .steps("Move: West - 3\n", "game.log", 1, &Options::default())
            .unwrap_err();
        assert_eq!(
            e.to_string(),
            "game.log:1: `West` is not a side (South or North)"
        );
        let e = steps("", "game.log", 3, &Options::default()).unwrap_err();
        assert_eq!(e.to_string(), "--player 3: ManKalah has players 1 and 2");
        let e = steps("Move: North - 3\n", "game.log", 1, &Options::default()).unwrap_err();
        assert!(
            matches!(e, ManKalahError::OpponentMove { .. }),
            "{e}"
        );
        assert!(e.source().is_some());
    }
}
