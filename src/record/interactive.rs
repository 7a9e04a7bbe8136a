//! The interactive recorder: reads steps from the user, runs each at once
//! through the controller's step-wise run (the runner's own transport,
//! limits and judging), shows the bot's replies and their verdicts, and
//! keeps the steps that replay the session.

use super::command::{self, Input, Sharpen};
use super::{RecordError, Recorded};
use crate::controller::{RunConfig, ScenarioRun, Stepwise};
use crate::games::Game;
use crate::outcome::Direction;
use crate::scenario::{Expect, OwnExpect, Scenario, Step};
use crate::verdict::Violation;
use std::io::{BufRead, Write};

/// Record one session. Reading stops at `quit` or end of input; the bot is
/// then stopped as the runner stops it. `Err`: the bot could not be started.
pub fn record(
    scenario: &Scenario,
    game: &dyn Game,
    cfg: &RunConfig,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
) -> Result<(Recorded, ScenarioRun), RecordError> {
    let mut run = match Stepwise::start(scenario, game, cfg) {
        Err(e) => {
            return Err(RecordError::Start {
                program: e.program,
                source: e.error,
            });
        }
        Ok(Err(not_run)) => {
            return Err(RecordError::NotRun(
                not_run
                    .result
                    .error
                    .unwrap_or_else(|| "the scenario's options give no game".into()),
            ));
        }
        Ok(Ok(run)) => run,
    };
    let mut screen = Screen {
        out,
        shown: Vec::new(),
    };
    screen.say(&format!(
        "recording a {} scenario against `{}`; type `help` for the steps, `quit` or Ctrl-D to save",
        game.id(),
        cfg.bot.display()
    ));
    // Replies to each step, paired with the `expect:` steps for comments.
    let mut comments: Vec<Option<String>> = Vec::new();
    let mut last_reply: Option<String> = None;
    // What the bot did at start-up (output nobody asked for, a crash).
    screen.show(&mut run);
    if run.reply_due() {
        // The bot speaks first.
        let before = run.replay_steps().len();
        if let Err(msg) = run.settle() {
            screen.say(&format!("scenario error: {msg}"));
        }
        last_reply = screen.show(&mut run);
        note_comments(&run, before, &mut comments, last_reply.as_deref());
    }
    while !run.is_ended() {
        screen.hint(&run);
        let mut line = String::new();
        match input.read_line(&mut line) {
            Ok(0) | Err(_) => {
                screen.say("");
                break;
            }
            Ok(_) => {}
        }
        match command::parse(&line) {
            Err(msg) => screen.say(&format!("? {msg}")),
            Ok(Input::Empty) => {}
            Ok(Input::Quit) => break,
            Ok(Input::Help) => {
                screen.say(command::HELP);
                screen.choices(&run, true);
            }
            Ok(Input::Board) => match run.session().board() {
                Some(b) => screen.say(&b),
                None => screen.say("(no board to show here)"),
            },
            Ok(Input::Sharpen(sharpen)) => {
                match sharpened(sharpen, last_reply.as_deref(), &run, game) {
                    Ok(step) => {
                        screen.say(&format!("  ok: {}", step_text(&step)));
                        run.amend_last(step);
                    }
                    Err(msg) => screen.say(&format!("? {msg}")),
                }
            }
            Ok(Input::Step(Step::Expect(Expect::LegalMove))) => screen
                .say("  every reply is judged as `expect: legal-move` at once; nothing is due now"),
            Ok(Input::Step(step)) => {
                let before = run.replay_steps().len();
                match run.step(&step) {
                    Ok(()) => {
                        last_reply = screen.show(&mut run);
                        note_comments(&run, before, &mut comments, last_reply.as_deref());
                    }
                    Err(msg) => {
                        // Whatever was judged before the refusal is shown.
                        screen.show(&mut run);
                        note_comments(&run, before, &mut comments, None);
                        screen.say(&format!("refused, not sent: {msg}"));
                    }
                }
            }
        }
    }
    if run.is_ended() {
        screen.say("the scenario ends here, as a run of it would: protocheck stops the bot");
    }
    let steps: Vec<(Step, Option<String>)> = run
        .replay_steps()
        .iter()
        .cloned()
        .zip(comments.into_iter().chain(std::iter::repeat(None)))
        .collect();
    let result = run.finish();
    // Findings of the ending (the bot's exit, stderr, limits) not shown yet.
    for v in &result.result.violations {
        if !screen
            .shown
            .iter()
            .any(|(r, m)| *r == v.rule && *m == v.message)
        {
            screen.verdict(v);
        }
    }
    let recorded = Recorded {
        name: scenario.name.clone(),
        game: game.id().to_string(),
        about: scenario.about.clone().unwrap_or_default(),
        options: scenario.options.clone(),
        steps,
    };
    Ok((recorded, result))
}

/// Comments for the steps added since `before`: the reply each `expect:`
/// pinned (the last reply, for the last of them).
fn note_comments(
    run: &Stepwise,
    before: usize,
    comments: &mut Vec<Option<String>>,
    last_reply: Option<&str>,
) {
    let steps = run.replay_steps();
    comments.resize(before, None);
    for (i, step) in steps.iter().enumerate().skip(before) {
        let is_last_expect = matches!(step, Step::Expect(Expect::LegalMove))
            && !steps[i + 1..]
                .iter()
                .any(|s| matches!(s, Step::Expect(Expect::LegalMove)));
        comments.push(match (is_last_expect, last_reply) {
            (true, Some(r)) => Some(format!("the bot replied: {r}")),
            _ => None,
        });
    }
}

/// The sharper expectation, if it holds for the reply just judged.
fn sharpened(
    sharpen: Sharpen,
    last_reply: Option<&str>,
    run: &Stepwise,
    game: &dyn Game,
) -> Result<Step, String> {
    // The last step is the reply's own `expect:` (perhaps sharpened
    // already: a new one replaces it).
    let reply = match (last_reply, run.replay_steps().last()) {
        (Some(r), Some(Step::Expect(e))) if !matches!(e, Expect::Silence | Expect::Exit) => r,
        _ => {
            return Err("no reply was just received: an `expect:` here sharpens the reply the last step made the bot send".into());
        }
    };
    let expect = match sharpen {
        Sharpen::Reply(None) => Expect::Reply(reply.to_string()),
        Sharpen::Reply(Some(want)) if want == reply => Expect::Reply(want),
        Sharpen::Reply(Some(want)) => {
            return Err(format!("the bot replied `{reply}`, not `{want}`"));
        }
        Sharpen::Matches(pattern) => {
            let re = crate::scenario::load::compile_pattern(&pattern).map_err(|e| e.to_string())?;
            if !re.is_match(reply) {
                return Err(format!("the reply `{reply}` does not match /{pattern}/"));
            }
            Expect::Matches(pattern)
        }
        // A game's own expectation (QTP: `=` is a success, `? text` a
        // failure): the game says whether it knows it and whether the reply
        // meets it.
        Sharpen::Success => own_expectation(game, "success", None, reply)?,
        Sharpen::Error(want) => own_expectation(game, "error", Some(want), reply)?,
    };
    Ok(Step::Expect(expect))
}

/// A game's own expectation, if the game knows it and the reply meets it.
fn own_expectation(
    game: &dyn Game,
    word: &str,
    text: Option<String>,
    reply: &str,
) -> Result<Expect, String> {
    let expect = Expect::Own(OwnExpect {
        word: word.to_string(),
        text: text.clone(),
    });
    if let Some(known) = crate::games::own_expectation(game, &expect)? {
        (known.holds)(text.as_deref(), reply)?;
    }
    Ok(expect)
}

/// A step on one line, as in a scenario file's flow style.
fn step_text(step: &Step) -> String {
    match step {
        Step::Expect(Expect::Reply(t)) => format!("expect: {{ reply: {t:?} }}"),
        Step::Expect(Expect::Matches(p)) => format!("expect: {{ matches: {p:?} }}"),
        Step::Expect(Expect::Own(OwnExpect {
            word,
            text: Some(t),
        })) => format!("expect: {{ {word}: {t:?} }}"),
        Step::Expect(e) => format!("expect: {}", crate::controller::expect_word(e)),
        other => format!("{other:?}"),
    }
}

struct Screen<'a> {
    out: &'a mut dyn Write,
    /// The findings shown so far (rule, message).
    shown: Vec<(&'static str, String)>,
}

impl Screen<'_> {
    fn say(&mut self, text: &str) {
        let _ = writeln!(self.out, "{text}");
        let _ = self.out.flush();
    }

    /// What happened since the last look; returns the last reply read.
    fn show(&mut self, run: &mut Stepwise) -> Option<String> {
        let live = run.take_live();
        for line in &live.lines {
            let mark = match line.dir {
                Direction::Sent => ">",
                Direction::Received => "<",
                Direction::Note => "#",
            };
            for (i, part) in line.text.split('\n').enumerate() {
                let mark = if i == 0 { mark } else { " " };
                let _ = writeln!(self.out, "  {mark} {part}");
            }
        }
        for v in &live.violations {
            self.verdict(v);
        }
        if live.violations.is_empty() && live.last_reply.is_some() {
            let _ = writeln!(self.out, "  ok: the reply is legal");
        }
        let _ = self.out.flush();
        live.last_reply
    }

    fn verdict(&mut self, v: &Violation) {
        self.shown.push((v.rule, v.message.clone()));
        let _ = writeln!(
            self.out,
            "  {} {}: {}",
            v.severity.as_str().to_uppercase(),
            v.rule,
            v.message
        );
    }

    /// The legal choices on one line, and the prompt.
    fn hint(&mut self, run: &Stepwise) {
        self.choices(run, false);
        let _ = write!(self.out, "record> ");
        let _ = self.out.flush();
    }

    fn choices(&mut self, run: &Stepwise, all: bool) {
        let choices = run.session().legal_choices();
        if choices.is_empty() {
            if all {
                self.say(
                    "legal now: (this game cannot list them; any `send:` is checked when entered)",
                );
            }
            return;
        }
        let text = if all {
            format!("legal now:\n  {}", choices.join("\n  "))
        } else {
            let mut line = format!("legal now: {}", choices.join("  ·  "));
            if line.chars().count() > 200 {
                line = line.chars().take(199).collect::<String>() + "…";
            }
            line
        };
        self.say(&text);
    }
}
