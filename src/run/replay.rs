//! What a failing generated game leaves for its author: the command that
//! replays it, its scenario file (`--save-failures`) and a shorter game
//! that fails the same way (`--shrink-time`).

use super::RunSpec;
use crate::controller::RunConfig;
use crate::fatal::Fatal;
use crate::outcome::ScenarioResult;
use crate::scenario::{self, Scenario};
use crate::suite;
use crate::transport::BotCommand;

/// Save a failing generated game (with --save-failures) and write the
/// command that replays it.
pub(super) fn attach_replay(
    spec: &RunSpec,
    bot: &BotCommand,
    seed: u64,
    scenario: &Scenario,
    run: &crate::controller::ScenarioRun,
    result: &mut ScenarioResult,
) -> Result<(), Fatal> {
    // The bot's environment can decide a verdict: the replay keeps its flags.
    let env_words: String = bot
        .env
        .policy
        .words()
        .iter()
        .map(|w| format!("{} ", crate::transport::shell_quote(w)))
        .collect();
    let bot_words = match &spec.bot_cmd {
        Some(cmd) => format!(
            "{env_words}--bot-cmd {}",
            crate::transport::shell_quote(cmd)
        ),
        None => format!("{env_words}{}", bot.display()),
    };
    let game = &scenario.game;
    match &spec.save_failures {
        Some(dir) => {
            let path = suite::save_failure(dir, scenario, run)
                .map_err(|e| Fatal::io(format!("cannot save failure in {}", dir.display()), e))?;
            let shown = path.display().to_string();
            result.replay = Some(format!(
                "protocheck --game {game} --scenarios {} {bot_words}",
                crate::transport::shell_quote(&shown)
            ));
            result.saved_to = Some(shown);
        }
        None => {
            // A game `--rerun-failed` played again from the record is
            // replayed from its own seed, not this run's.
            let (n, seed) = match scenario.origin {
                scenario::Origin::Generated { seed: own, index }
                    if spec.games.is_none() || own != seed =>
                {
                    (index + 1, own)
                }
                _ => (spec.games.unwrap_or(0), seed),
            };
            // A game that aimed past what earlier generated games reached
            // (docs/coverage.md) plays the same only after them: no filter.
            let aimed = matches!(scenario.origin, scenario::Origin::Generated { index, .. } if index >= crate::coverage::AIM_LAG);
            let filter = if aimed {
                String::new()
            } else {
                format!("--filter {} ", scenario.name)
            };
            result.replay = Some(format!(
                "protocheck --game {game} --games {n} --seed {seed} {filter}{bot_words}   (add --save-failures DIR to get a scenario file)"
            ));
        }
    }
    Ok(())
}

/// With --save-failures and a --shrink-time: look for a shorter game that
/// fails with the same rule, save it beside the original, and make the
/// replay command play it (docs/shrinking.md).
pub(super) fn shrink_saved(
    spec: &RunSpec,
    game: &dyn crate::games::Game,
    cfg: &RunConfig,
    scenario: &Scenario,
    run: &crate::controller::ScenarioRun,
    result: &mut ScenarioResult,
) -> Result<(), Fatal> {
    let (Some(dir), Some(saved)) = (&spec.save_failures, result.saved_to.clone()) else {
        return Ok(());
    };
    // `--bot-time-limit` bounds the bot's whole run: no re-runs past it.
    if spec.shrink_time.is_zero()
        || spec.bot_time_limit.is_some()
        || cfg.stop.is_stopped()
        || crate::shrink::for_game(game.id()).is_none()
    {
        return Ok(());
    }
    eprintln!(
        "protocheck: shrinking {} (up to {}; --shrink-time 0 skips it)",
        scenario.name,
        humantime::format_duration(spec.shrink_time)
    );
    let shrinking = crate::shrink::shrink(game, cfg, scenario, run, spec.shrink_time);
    let summary = shrinking.summary(spec.shrink_time);
    let replay = result.replay.take().unwrap_or_default();
    result.replay = Some(match shrinking {
        crate::shrink::Shrinking::Shrunk(shrunk) if shrunk.to < shrunk.from => {
            let path = suite::save_shrunk(dir, scenario, &shrunk)
                .map_err(|e| Fatal::io(format!("cannot save failure in {}", dir.display()), e))?;
            let shown = crate::transport::shell_quote(&path.display().to_string());
            let saved = crate::transport::shell_quote(&saved);
            // The original's command with the shrunk file in its place.
            format!(
                "{}   ({summary}; the whole game: {saved})",
                replay.replacen(&saved, &shown, 1)
            )
        }
        _ => format!("{replay}   ({summary})"),
    });
    Ok(())
}
