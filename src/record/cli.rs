//! `protocheck record`: its options, and the command run from them.

use crate::controller::{RunConfig, TcpConfig};
use crate::games::Game;
use crate::scenario::{Options, Scenario};
use crate::transport::BotCommand;
use std::path::PathBuf;
use std::time::Duration;

#[derive(Debug, clap::Args)]
pub struct RecordArgs {
    /// The game protocol.
    #[arg(long, value_name = "GAME")]
    pub game: String,
    /// Where to write the scenario.
    #[arg(long, short, value_name = "FILE")]
    pub output: PathBuf,
    /// The bot program (not with --from-transcript); its arguments go after `--`.
    #[arg(value_name = "BOT")]
    pub bot: Option<String>,
    #[arg(last = true, value_name = "BOT_ARGS")]
    pub bot_args: Vec<String>,
    /// The bot as one shell-quoted command line.
    #[arg(long, value_name = "CMD", conflicts_with = "bot")]
    pub bot_cmd: Option<String>,
    /// Make the scenario from this transcript instead of playing: a JSON
    /// report (`--format json`), a log of `> `/`< ` lines, or a ManKalah.jar log.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["bot", "bot_cmd"])]
    pub from_transcript: Option<PathBuf>,
    /// JSON reports: the scenario whose transcript to take (default: the
    /// first that failed, else the first).
    #[arg(long, value_name = "NAME", requires = "from_transcript")]
    pub scenario: Option<String>,
    /// ManKalah.jar logs: the bot is player 1 (starts as South) or 2.
    #[arg(
        long,
        value_name = "N",
        default_value_t = 1,
        requires = "from_transcript"
    )]
    pub player: u8,
    /// The scenario's name (default: from the output file's name).
    #[arg(long, value_name = "NAME")]
    pub name: Option<String>,
    /// Replace the output file if it exists.
    #[arg(long)]
    pub force: bool,
    /// Time limit per expected reply (default per game); written to the
    /// scenario's options.
    #[arg(long, value_name = "DURATION", value_parser = parse_duration)]
    pub timeout: Option<Duration>,
    /// How long `expect: silence` listens; written to the scenario's options.
    #[arg(long, value_name = "DURATION", value_parser = parse_duration)]
    pub silence: Option<Duration>,
    /// The game's own options (`--holes`, `--board-size`, `--players`, …);
    /// written to the scenario's options.
    #[command(flatten)]
    pub game_options: crate::cli::game_flags::GameFlags,
    /// Seed of the built-in opponent's `auto` choices (written to the file).
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,
    /// The bot's environment, as in a single run.
    #[command(flatten)]
    pub bot_env: crate::cli::env_flags::EnvFlags,
    /// The limits the bot runs under, and its sandbox, as in a single run.
    #[command(flatten)]
    pub limits: crate::cli::limit_flags::LimitFlags,
}

fn parse_duration(s: &str) -> Result<Duration, String> {
    humantime::parse_duration(s).map_err(|e| format!("{e} (write e.g. 2s, 500ms, 1m)"))
}

/// Run `protocheck record` for `game` (already looked up from `--game`).
/// `Err`: a message for exit status 2.
pub fn run(
    args: &RecordArgs,
    game: &'static dyn Game,
    stop: &crate::pool::StopToken,
) -> Result<i32, String> {
    if args.output.exists() && !args.force {
        return Err(format!(
            "{} exists (use --force to replace it)",
            args.output.display()
        ));
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
        game: args.game_options.values.clone(),
    };
    // The options are checked before any bot starts.
    game.session(&options)
        .map_err(|e| format!("options: {e}"))?;
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
    let cfg = RunConfig {
        bot: bot.clone(),
        limits: args.limits.limits(),
        // `--timeout` and `--silence` are in the scenario's options.
        timeout: None,
        startup_timeout: None,
        exit_grace: None,
        silence: None,
        strict: false,
        max_output: args.limits.max_output,
        tcp: TcpConfig::default(),
        // The recorder shows the text board; pictures are for the HTML report.
        pictures: false,
        stop: stop.clone(),
    };
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

fn bot_command(args: &RecordArgs) -> Result<BotCommand, String> {
    let words: Vec<String> = match (&args.bot, &args.bot_cmd) {
        (Some(bot), None) => std::iter::once(bot.clone())
            .chain(args.bot_args.iter().cloned())
            .collect(),
        (None, Some(cmd)) => {
            let mut w = shell_words::split(cmd).map_err(|e| format!("--bot-cmd: {e}"))?;
            w.extend(args.bot_args.iter().cloned());
            w
        }
        _ => {
            return Err(
                "no bot given: protocheck record --game <GAME> <BOT> --output <FILE> (or --from-transcript <FILE>)".into(),
            );
        }
    };
    let (program, rest) = words
        .split_first()
        .ok_or_else(|| "--bot-cmd is empty".to_string())?;
    Ok(BotCommand {
        program: crate::cli::bot_path::resolve(program)?,
        args: rest.to_vec(),
        env: crate::transport::environment::BotEnv {
            policy: args.bot_env.policy(),
            game: Vec::new(),
        },
        workdir: None,
    })
}
