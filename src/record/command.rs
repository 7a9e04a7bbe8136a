//! What the user types at the `record>` prompt: a scenario step in the
//! scenario file's own words (`send: START;South`, `opponent: 3`,
//! `expect: silence`, `wait: 300ms`), a few shortcuts (a bare hole number or
//! `swap` or `auto` is an opponent move, `> TEXT` or any other bare line is
//! a message to send), or a command of the recorder itself.

use crate::scenario::{Expect, Step, Token};

/// How long a bare `wait` listens.
pub const DEFAULT_WAIT: &str = "300ms";

#[derive(Debug, PartialEq, Eq)]
pub enum Input {
    /// Nothing typed.
    Empty,
    Help,
    Board,
    Quit,
    /// A step to run now.
    Step(Step),
    /// A sharper expectation for the reply just judged (`expect: reply`,
    /// `matches`, `success`, `error`); `Reply(None)` pins it exactly.
    Sharpen(Sharpen),
}

#[derive(Debug, PartialEq, Eq)]
pub enum Sharpen {
    Reply(Option<String>),
    Matches(String),
    Success,
    Error(String),
}

/// What cannot be read at the prompt, with what to type instead.
#[derive(Debug, thiserror::Error)]
pub enum CommandError {
    #[error("`opponent:` needs a move, e.g. `opponent: auto`")]
    OpponentNeedsMove,
    #[error("bad duration `{text}`: {source} (write e.g. `wait: 300ms`)")]
    BadDuration {
        text: String,
        #[source]
        source: humantime::DurationError,
    },
    #[error("write `play: to-end`")]
    Play,
    #[error("`expect: {word}` needs {what}")]
    ExpectNeeds { word: String, what: &'static str },
    #[error(
        "unknown expectation `{0}`: write legal-move, silence, exit, reply [TEXT], matches REGEX, success or error TEXT"
    )]
    UnknownExpectation(String),
}

pub fn parse(line: &str) -> Result<Input, CommandError> {
    let line = line.trim_end_matches(['\n', '\r']);
    let trimmed = line.trim();
    match trimmed {
        "" => return Ok(Input::Empty),
        "help" | "?" | "h" => return Ok(Input::Help),
        "board" => return Ok(Input::Board),
        "quit" | "exit" | "q" | ":q" => return Ok(Input::Quit),
        "auto" | "swap" => return Ok(Input::Step(Step::Opponent(Token(trimmed.into())))),
        "wait" => return Ok(Input::Step(Step::Wait(DEFAULT_WAIT.into()))),
        "close-input" | "eof" => return Ok(Input::Step(Step::CloseInput)),
        _ => {}
    }
    if trimmed.bytes().all(|b| b.is_ascii_digit()) {
        return Ok(Input::Step(Step::Opponent(Token(trimmed.into()))));
    }
    // A message is sent verbatim: spaces and characters YAML would read
    // differently (`#`, `: `) are kept as typed.
    let start = line.trim_start();
    if let Some(rest) = start.strip_prefix("send:") {
        return Ok(Input::Step(Step::Send(strip_one_space(rest).into())));
    }
    if let Some(rest) = start.strip_prefix('>') {
        return Ok(Input::Step(Step::Send(strip_one_space(rest).into())));
    }
    if let Some(rest) = start.strip_prefix("opponent:") {
        let choice = rest.trim();
        if choice.is_empty() {
            return Err(CommandError::OpponentNeedsMove);
        }
        return Ok(Input::Step(Step::Opponent(Token(choice.into()))));
    }
    if let Some(rest) = start.strip_prefix("wait:") {
        let d = rest.trim();
        humantime::parse_duration(d).map_err(|source| CommandError::BadDuration {
            text: d.to_string(),
            source,
        })?;
        return Ok(Input::Step(Step::Wait(d.into())));
    }
    if let Some(rest) = start.strip_prefix("expect:") {
        return expect(rest.trim());
    }
    if start.starts_with("play:") {
        return match serde_saphyr::from_str::<Step>(start) {
            Ok(step) => Ok(Input::Step(step)),
            Err(_) => Err(CommandError::Play),
        };
    }
    Ok(Input::Step(Step::Send(line.into())))
}

fn strip_one_space(s: &str) -> &str {
    s.strip_prefix(' ').unwrap_or(s)
}

fn expect(rest: &str) -> Result<Input, CommandError> {
    let (word, arg) = match rest.split_once([' ', ':']) {
        Some((w, a)) => (w, Some(a.trim().trim_start_matches(':').trim())),
        None => (rest, None),
    };
    let arg = arg.filter(|a| !a.is_empty()).map(unquote);
    let need = |what: &'static str| {
        arg.clone().ok_or_else(|| CommandError::ExpectNeeds {
            word: word.to_string(),
            what,
        })
    };
    Ok(match word {
        "legal-move" => Input::Step(Step::Expect(Expect::LegalMove)),
        "silence" => Input::Step(Step::Expect(Expect::Silence)),
        "exit" => Input::Step(Step::Expect(Expect::Exit)),
        "success" => Input::Sharpen(Sharpen::Success),
        "reply" => Input::Sharpen(Sharpen::Reply(arg)),
        "matches" => Input::Sharpen(Sharpen::Matches(need("a regular expression")?)),
        "error" => Input::Sharpen(Sharpen::Error(need("the error message")?)),
        other => {
            return Err(CommandError::UnknownExpectation(other.to_string()));
        }
    })
}

/// `"MOVE;3"` → `MOVE;3` (a quoted argument as in a scenario file).
fn unquote(s: &str) -> String {
    let quoted = s.len() >= 2
        && ((s.starts_with('"') && s.ends_with('"')) || (s.starts_with('\'') && s.ends_with('\'')));
    if quoted {
        s[1..s.len() - 1].to_string()
    } else {
        s.to_string()
    }
}

pub const HELP: &str = "\
Type one step at a time; it runs at once and the bot's replies are judged as they come.
  send: TEXT        send TEXT verbatim (also `> TEXT`, or any line that is not a command);
                    it is checked against the rules first, and refused with the reason if impossible
  opponent: MOVE    protocheck's side moves: a move in the game's notation or `auto`
                    (a bare hole number, `swap` or `auto` is the same)
  expect: silence   nothing may arrive for the silence window
  expect: exit      the bot must exit by itself
  expect: reply [TEXT] | matches REGEX | success | error TEXT
                    sharpen the expectation of the reply just received (checked against it;
                    `expect: reply` alone pins it exactly). Every reply is `expect: legal-move` otherwise
  wait [: 300ms]    listen; any output counts as unexpected
  close-input       close the bot's standard input (EOF)
  play: to-end      generated play until the game ends
  board             show the tracked state
  help, ?           this text and what is legal now
  quit, Ctrl-D      stop the bot and write the scenario file";

#[cfg(test)]
mod tests {
    use super::*;

    fn step(line: &str) -> Step {
        match parse(line).unwrap() {
            Input::Step(s) => s,
            other => panic!("{line}: {other:?}"),
        }
    }

    #[test]
    fn steps_in_scenario_words_and_shortcuts() {
        assert_eq!(step("send: START;South"), Step::Send("START;South".into()));
        assert_eq!(step("> genmove black"), Step::Send("genmove black".into()));
        assert_eq!(
            step("playmove white e8"),
            Step::Send("playmove white e8".into())
        );
        assert_eq!(step("send: # a: b"), Step::Send("# a: b".into()));
        assert_eq!(step("send:"), Step::Send(String::new()));
        assert_eq!(step("3"), Step::Opponent(Token("3".into())));
        assert_eq!(step("opponent: swap"), Step::Opponent(Token("swap".into())));
        assert_eq!(step("auto"), Step::Opponent(Token("auto".into())));
        assert_eq!(step("wait"), Step::Wait("300ms".into()));
        assert_eq!(step("wait: 1s"), Step::Wait("1s".into()));
        assert_eq!(step("close-input"), Step::CloseInput);
        assert_eq!(step("expect: silence"), Step::Expect(Expect::Silence));
        assert_eq!(
            step("play: to-end"),
            Step::Play(crate::scenario::Play::ToEnd)
        );
    }

    #[test]
    fn expectations_that_sharpen_the_last_reply() {
        assert_eq!(
            parse("expect: reply \"MOVE;3\"").unwrap(),
            Input::Sharpen(Sharpen::Reply(Some("MOVE;3".into())))
        );
        assert_eq!(
            parse("expect: reply").unwrap(),
            Input::Sharpen(Sharpen::Reply(None))
        );
        assert_eq!(
            parse("expect: error illegal move").unwrap(),
            Input::Sharpen(Sharpen::Error("illegal move".into()))
        );
        assert!(parse("expect: matches").is_err());
        assert!(parse("expect: nonsense").is_err());
        assert!(parse("wait: soon").is_err());
        assert_eq!(parse("  ").unwrap(), Input::Empty);
        assert_eq!(parse("quit").unwrap(), Input::Quit);
    }

    #[test]
    fn prompt_errors_read_as_before_and_keep_their_cause() {
        assert_eq!(
            parse("expect: matches").unwrap_err().to_string(),
            "`expect: matches` needs a regular expression"
        );
        assert_eq!(
            parse("expect: nonsense").unwrap_err().to_string(),
            "unknown expectation `nonsense`: write legal-move, silence, exit, reply [TEXT], matches REGEX, success or error TEXT"
        );
        let e = parse("wait: soon").unwrap_err();
        assert!(e.to_string().starts_with("bad duration `soon`: "), "{e}");
        assert!(std::error::Error::source(&e).is_some());
    }
}
