//! Checking a scenario before any bot runs: every scripted message is played
//! through the game's rules in the tracked state, so a CHANGE whose board is
//! not what the move produces is reported at its file:line:col (exit 2).

use super::expect_word;
use crate::games::Game;
use crate::scenario::{Expect, LoadError, Play, Scenario, Step, Token};

/// All problems of one scenario (empty when it is valid).
pub fn lint(scenario: &Scenario, game: &dyn Game) -> Vec<LoadError> {
    let mut errors = Vec::new();
    let at = |span, msg: String| LoadError::new(&scenario.source, span, msg);
    let first_span = scenario
        .steps
        .first()
        .map(|(_, s)| s.clone())
        .unwrap_or(crate::scenario::Span { line: 1, column: 1 });
    for (key, value) in [
        ("timeout", &scenario.options.timeout),
        ("silence", &scenario.options.silence),
    ] {
        if let Some(v) = value
            && let Err(e) = humantime::parse_duration(v)
        {
            errors.push(at(
                &first_span,
                format!("options.{key}: bad duration `{v}`: {e} (write e.g. `2s` or `500ms`)"),
            ));
        }
    }
    let mut session = match game.session(&scenario.options) {
        Ok(s) => s,
        Err(e) => {
            errors.push(at(&first_span, format!("options: {e}")));
            return errors;
        }
    };
    let mut rng = fastrand::Rng::with_seed(0);
    // A client that speaks first (Evolution's sign-up) owes a reply at once.
    let mut pending: usize = usize::from(session.next() == crate::games::Next::Bot);
    let mut over = false;
    for (step, span) in &scenario.steps {
        if over {
            if !matches!(
                step,
                Step::Expect(Expect::Exit | Expect::Silence) | Step::Wait(_) | Step::CloseInput
            ) {
                errors.push(at(span, "after `play: to-end` the game is over: only `expect: exit`, `expect: silence`, `wait` and `close-input` may follow".into()));
            }
            continue;
        }
        // A due reply is settled before the next message is sent.
        let settle = |session: &mut Box<dyn crate::games::Session>,
                      pending: &mut usize|
         -> Result<(), String> {
            // Bounded: a game could keep asking (Kalah extra turns).
            for _ in 0..10_000 {
                if *pending == 0 {
                    break;
                }
                *pending -= 1;
                let outs = session.assume(None)?;
                *pending += outs.iter().map(|o| o.replies).sum::<usize>();
            }
            Ok(())
        };
        let result: Result<(), String> = (|| {
            match step {
                Step::Send(text) => {
                    if session.interrupts(text) {
                        pending = 0;
                    } else {
                        settle(&mut session, &mut pending)?;
                    }
                    pending = session.send(text)?.replies;
                }
                Step::Opponent(Token(choice)) => {
                    settle(&mut session, &mut pending)?;
                    let outs = session.opponent(choice, &mut rng)?;
                    pending = outs.iter().map(|o| o.replies).sum();
                }
                Step::Expect(Expect::Silence) if pending > 0 && session.state_known() => {
                    return Err("`expect: silence` where a reply is due: it can never pass".into());
                }
                Step::Expect(Expect::Silence) => {}
                Step::Expect(Expect::Exit) => settle(&mut session, &mut pending)?,
                Step::Expect(expect) => {
                    if pending == 0 && !session.state_known() {
                        // The bot's reply count is unknown here; nothing to check.
                    } else if pending == 0 {
                        return Err(format!(
                            "`expect: {}` where no reply is due (nothing sent asks the bot for one)",
                            expect_word(expect)
                        ));
                    }
                    if let Expect::Matches(p) = expect {
                        crate::scenario::load::compile_pattern(p)?;
                    }
                    let pinned = match expect {
                        Expect::Reply(r) => Some(r.as_str()),
                        _ => None,
                    };
                    pending = pending.saturating_sub(1);
                    let outs = session.assume(pinned)?;
                    pending += outs.iter().map(|o| o.replies).sum::<usize>();
                }
                Step::Play(Play::ToEnd) => over = true,
                Step::Wait(d) => {
                    settle(&mut session, &mut pending)?;
                    humantime::parse_duration(d)
                        .map_err(|e| format!("bad duration `{d}`: {e} (write e.g. `300ms`)"))?;
                }
                Step::CloseInput => settle(&mut session, &mut pending)?,
            }
            Ok(())
        })();
        if let Err(msg) = result {
            errors.push(at(span, msg));
            // Later steps would only repeat the confusion.
            break;
        }
    }
    errors
}
