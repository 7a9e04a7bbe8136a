//! `protocheck record`: its configuration, and the command run from it.

use crate::config::{BotLimits, RunConfigBuilder};
use crate::fatal::Fatal;
use crate::games::Game;
use crate::games::options::GameOptionValues;
use crate::record::RecordError;
use crate::scenario::{Options, Scenario};
use crate::transport::BotCommand;
use crate::transport::environment::EnvPolicy;
use std::path::PathBuf;
use std::time::Duration;

/// What `protocheck record` records (the command line's help says what
/// each option means).
#[derive(Debug)]
pub struct RecordConfig {
    /// Where to write the scenario.
    pub output: PathBuf,
    pub bot: Option<String>,
    pub bot_args: Vec<String>,
    pub bot_cmd: Option<String>,
    /// Make the scenario from this transcript instead of playing.
    pub from_transcript: Option<PathBuf>,
    /// JSON reports: the scenario whose transcript to take.
    pub scenario: Option<String>,
    /// ManKalah.jar logs: the bot's player number.
    pub player: u8,
    /// The scenario's name (default: from the output file's name).
    pub name: Option<String>,
    pub force: bool,
    pub timeout: Option<Duration>,
    pub silence: Option<Duration>,
    /// The game's own options.
    pub game_options: GameOptionValues,
    /// Seed of the built-in opponent's `auto` choices.
    pub seed: Option<u64>,
    /// The bot's environment.
    pub env: EnvPolicy,
    /// The limits of the bot's processes.
    pub limits: BotLimits,
}

/// Run `protocheck record` for `game` (already looked up from `--game`).
/// Every error is the user's to fix: a usage error (exit status 2).
pub fn run(
    args: &RecordConfig,
    game: &'static dyn Game,
    stop: &crate::pool::StopToken,
) -> Result<i32, Fatal> {
    record(args, game, stop).map_err(|e| Fatal::usage(e.to_string()))
}

fn record(
    args: &RecordConfig,
    game: &'static dyn Game,
    stop: &crate::pool::StopToken,
) -> Result<i32, RecordError> {
    if args.output.exists() && !args.force {
        return Err(RecordError::OutputExists(args.output.clone()));
    }
    let name = args
        .name
        .clone()
        .unwrap_or_else(|| crate::record::name_from_path(&args.output));
    let options = Options {
        seed: args.seed,
        // In the file, so that a replay waits as long as the recording did.
        timeout: args.timeout,
        silence: args.silence,
        game: args.game_options.clone(),
    };
    // The options are checked before any bot starts.
    game.session(&options)
        .map_err(|e| RecordError::Options(e.to_string()))?;
    if let Some(path) = &args.from_transcript {
        let req = crate::record::transcript::Request {
            path,
            game,
            options,
            name,
            scenario: args.scenario.as_deref(),
            player: args.player,
        };
        let (recorded, stopped) = crate::record::transcript::convert(&req)?;
        if let Some(why) = stopped {
            eprintln!("note: the scenario ends at {why}");
        }
        crate::record::write_checked(&args.output, &recorded, game)?;
        eprintln!(
            "wrote {} ({} steps); run it with: protocheck --game {} <BOT> --scenarios {}",
            args.output.display(),
            recorded.steps.len(),
            game.id(),
            args.output.display()
        );
        return Ok(0);
    }
    let bot = bot_command(args)?;
    // `--timeout` and `--silence` are in the scenario's options; the
    // recorder shows the text board (pictures are for the HTML report).
    let cfg = RunConfigBuilder::new(bot.clone(), &args.limits, stop).build();
    // Before the bot starts: `--sandbox require` on a system without every
    // layer stops here.
    crate::transport::sandbox::settle(&cfg.limits.sandbox)?;
    let scenario = Scenario {
        name: name.clone(),
        game: game.id().to_string(),
        about: Some(format!(
            "Recorded with protocheck record against `{}`.",
            bot.display()
        )),
        rules: Vec::new(),
        spec: None,
        options,
        source: args.output.display().to_string(),
        steps: Vec::new(),
        origin: crate::scenario::Origin::File,
    };
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let mut out = std::io::stdout();
    let (recorded, result) =
        crate::record::interactive::record(&scenario, game, &cfg, &mut input, &mut out)?;
    crate::record::write_checked(&args.output, &recorded, game)?;
    println!(
        "wrote {} ({} steps, {}); replay it with: protocheck --game {} {} --scenarios {}",
        args.output.display(),
        recorded.steps.len(),
        status_word(&result.result),
        game.id(),
        bot.display(),
        args.output.display()
    );
    Ok(0)
}

fn status_word(r: &crate::outcome::ScenarioResult) -> String {
    let rules: Vec<&str> = r.violations.iter().map(|v| v.rule).collect();
    match (r.status, rules.is_empty()) {
        (_, false) => format!("{:?}: {}", r.status, rules.join(", ")).to_lowercase(),
        (status, true) => format!("{status:?}").to_lowercase(),
    }
}

fn bot_command(args: &RecordConfig) -> Result<BotCommand, RecordError> {
    let words: Vec<String> = match (&args.bot, &args.bot_cmd) {
        (Some(bot), None) => std::iter::once(bot.clone())
            .chain(args.bot_args.iter().cloned())
            .collect(),
        (None, Some(cmd)) => {
            let mut w = shell_words::split(cmd).map_err(RecordError::BotCmd)?;
            w.extend(args.bot_args.iter().cloned());
            w
        }
        _ => {
            return Err(RecordError::NoBot);
        }
    };
    let (program, rest) = words.split_first().ok_or(RecordError::EmptyBotCmd)?;
    Ok(BotCommand {
        program: crate::run::bot_path::resolve(program)?,
        args: rest.to_vec(),
        env: crate::transport::environment::BotEnv {
            policy: args.env.clone(),
            game: Vec::new(),
        },
        workdir: None,
    })
}
