//! `protocheck record --from-transcript FILE`: a scenario from what was
//! exchanged in an earlier session, with no bot. Three inputs:
//! - the JSON report (`--format json`): one scenario's `transcript`;
//! - a plain log: `> ` lines protocheck (or an engine) sent, `< ` lines the
//!   bot sent, `# ` notes (the human report's transcript lines, with their
//!   `123ms` stamps, are accepted as they are);
//! - the log the Kalah reference engine ManKalah.jar prints on stderr
//!   (`Move: South - 3`, `Move: Swap`, boards, `WINNER: …`).
//!
//! The lines are played through the game's session exactly as the runner
//! would see them: sent lines become `send:` steps (checked against the
//! rules), messages protocheck sends by itself (Kalah: the CHANGE for the
//! bot's own move) are recognised and left out, and every reply is judged
//! like a run judges it: a legal one becomes an exact `expect: {reply}`
//! step, the first failing one an `expect: legal-move` step, where the
//! scenario ends (a run stops there).

use super::Recorded;
use crate::games::{Assembly, Game, Next, Session};
use crate::outcome::Direction;
use crate::scenario::{Expect, Options, Step};
use crate::verdict::Severity;
use std::collections::VecDeque;
use std::path::Path;
use std::time::Duration;

/// One line of a transcript and where it stands in its file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    pub dir: Direction,
    pub text: String,
    /// 1-based line in the file (JSON: the entry's index in the transcript,
    /// shown as such).
    pub line: usize,
}

/// What to convert, from the command line.
pub struct Request<'a> {
    pub path: &'a Path,
    pub game: &'a dyn Game,
    pub options: Options,
    pub name: String,
    /// JSON reports: the scenario to take (default: the first that failed,
    /// else the first).
    pub scenario: Option<&'a str>,
    /// ManKalah logs: the bot is player 1 (starts South) or 2.
    pub player: u8,
}

/// Why a transcript does not become a scenario. `at` is where in the file:
/// `f.log:12` or `r.json: scenario `a`, transcript entry 3`.
#[derive(Debug, thiserror::Error)]
pub enum TranscriptError {
    #[error("cannot read {file}: {source}")]
    Read {
        file: String,
        #[source]
        source: std::io::Error,
    },
    #[error("{file}: not UTF-8 text (byte {} is invalid)", .source.utf8_error().valid_up_to())]
    NotUtf8 {
        file: String,
        #[source]
        source: std::string::FromUtf8Error,
    },
    #[error("{file}: this is a {log}, a {title} log; use --game {game}")]
    OtherGamesLog {
        file: String,
        log: &'static str,
        title: &'static str,
        game: &'static str,
    },
    /// In the words of the game's reader of its engine's log (the games
    /// keep that error as text).
    #[error("{0}")]
    EngineLog(String),
    /// The game refuses the options (its own words, as text).
    #[error("options: {0}")]
    Options(String),
    #[error("{at}: `{text}` cannot be sent here: {source}")]
    CannotSend {
        at: String,
        text: String,
        #[source]
        source: crate::games::ScriptError,
    },
    #[error(
        "{at}: the report left transcript lines out here ({note}); run the scenario alone (--filter) for a whole transcript"
    )]
    LinesLeftOut { at: String, note: String },
    #[error("{at}: {source}")]
    Judge {
        at: String,
        #[source]
        source: crate::games::ScriptError,
    },
    #[error("{file}:{}:{}: not a JSON report: {source}", .source.line(), .source.column())]
    NotJson {
        file: String,
        #[source]
        source: serde_json::Error,
    },
    #[error("{file}: not a protocheck JSON report (no `scenarios` list)")]
    NoScenarioList { file: String },
    #[error("{file}: no scenario named `{name}` (the report has: {})", .names.join(", "))]
    NoScenarioNamed {
        file: String,
        name: String,
        names: Vec<String>,
    },
    #[error("{file}: the report has no scenarios")]
    NoScenarios { file: String },
    #[error("{file}: scenario `{name}` has no transcript")]
    NoTranscript { file: String, name: String },
    #[error(
        "{file}: scenario `{name}`, transcript entry {entry}: `dir` is {dir:?}, not sent/received/note"
    )]
    BadDirection {
        file: String,
        name: String,
        entry: usize,
        dir: Option<String>,
    },
    #[error("{file}: scenario `{name}`, transcript entry {entry}: no `text`")]
    NoText {
        file: String,
        name: String,
        entry: usize,
    },
    #[error(
        "{file}:{line}: expected `> ` (a message sent to the bot), `< ` (a line the bot wrote) or `# ` (a note), got `{got}`"
    )]
    BadLine {
        file: String,
        line: usize,
        got: String,
    },
    #[error("{file}: no transcript lines (`> `, `< `) in it")]
    NoLines { file: String },
}

/// The scenario, and a remark when conversion stopped early.
pub fn convert(req: &Request) -> Result<(Recorded, Option<String>), TranscriptError> {
    let file = req.path.display().to_string();
    let bytes = std::fs::read(req.path).map_err(|source| TranscriptError::Read {
        file: file.clone(),
        source,
    })?;
    let text = String::from_utf8(bytes).map_err(|source| TranscriptError::NotUtf8 {
        file: file.clone(),
        source,
    })?;
    let (entries, where_, about) = if text.trim_start().starts_with('{') {
        let (entries, picked) = json_entries(&text, &file, req.scenario)?;
        let about = format!("Recorded from the transcript of scenario `{picked}` in {file}.");
        (entries, Where::Json(picked), about)
    } else if let Some((owner, log)) = crate::games::ALL.iter().find_map(|g| {
        g.engine_log()
            .filter(|log| log.looks_like(&text))
            .map(|log| (*g, log))
    }) {
        if owner.id() != req.game.id() {
            return Err(TranscriptError::OtherGamesLog {
                file,
                log: log.name(),
                title: owner.facts().title,
                game: owner.id(),
            });
        }
        let (steps, stopped) = log
            .steps(&text, &file, req.player, &req.options)
            .map_err(|e| TranscriptError::EngineLog(e.to_string()))?;
        let about = format!(
            "Recorded from the {} {file}, the bot as player {}.",
            log.name(),
            req.player
        );
        let rec = Recorded {
            name: req.name.clone(),
            game: req.game.id().to_string(),
            about,
            options: req.options.clone(),
            steps,
        };
        return Ok((rec, stopped));
    } else {
        let about = format!("Recorded from the log {file}.");
        (plain_entries(&text, &file)?, Where::Lines, about)
    };
    let session = req
        .game
        .session(&req.options)
        .map_err(|e| TranscriptError::Options(e.to_string()))?;
    let mut conv = Converter {
        session,
        steps: Vec::new(),
        owed: 0,
        automatic: VecDeque::new(),
        reply: Vec::new(),
        reply_state: None,
        stopped: None,
        file: file.clone(),
        where_,
    };
    conv.owed = usize::from(conv.session.next() == Next::Bot);
    for entry in &entries {
        conv.entry(entry)?;
        if conv.stopped.is_some() {
            break;
        }
    }
    if conv.stopped.is_none() {
        conv.finish_reply(entries.last().map_or(0, |e| e.line))?;
        if conv.stopped.is_none()
            && (conv.session.is_over() || conv.session.next() == Next::Finished)
            && conv.owed == 0
        {
            conv.steps.push((Step::Expect(Expect::Exit), None));
        }
    }
    let rec = Recorded {
        name: req.name.clone(),
        game: req.game.id().to_string(),
        about,
        options: req.options.clone(),
        steps: conv.steps,
    };
    Ok((rec, conv.stopped))
}

enum Where {
    Json(String),
    Lines,
}

struct Converter {
    session: Box<dyn Session>,
    steps: Vec<(Step, Option<String>)>,
    /// Replies the bot owes.
    owed: usize,
    /// Messages protocheck sends by itself after a reply, expected next.
    automatic: VecDeque<String>,
    /// The reply being assembled, piece by piece.
    reply: Vec<u8>,
    reply_state: Option<Assembly>,
    /// Why conversion stopped before the end of the transcript.
    stopped: Option<String>,
    file: String,
    where_: Where,
}

impl Converter {
    fn at(&self, line: usize) -> String {
        match &self.where_ {
            Where::Json(name) => {
                format!("{}: scenario `{name}`, transcript entry {line}", self.file)
            }
            Where::Lines => format!("{}:{line}", self.file),
        }
    }

    fn entry(&mut self, e: &Entry) -> Result<(), TranscriptError> {
        match e.dir {
            Direction::Sent => {
                self.finish_reply(e.line)?;
                if self.stopped.is_some() {
                    return Ok(());
                }
                if self.automatic.front() == Some(&e.text) {
                    self.automatic.pop_front();
                    return Ok(());
                }
                self.automatic.clear();
                if self.owed > 0 {
                    self.stopped = Some(format!(
                        "{}: `{}` was sent while the bot owed a reply (it never came): a run stops there",
                        self.at(e.line),
                        e.text
                    ));
                    return Ok(());
                }
                let out =
                    self.session
                        .send(&e.text)
                        .map_err(|source| TranscriptError::CannotSend {
                            at: self.at(e.line),
                            text: e.text.clone(),
                            source,
                        })?;
                self.owed += out.replies;
                self.steps.push((Step::Send(e.text.clone()), None));
            }
            Direction::Received if is_cut(&e.text) => {
                // The report keeps at most 4 KiB of a line: the reply cannot
                // be pinned, nor judged here; a run judges it again.
                self.finish_reply(e.line)?;
                if self.stopped.is_some() {
                    return Ok(());
                }
                if self.owed == 0 {
                    self.stopped = Some(format!(
                        "{}: a long line the bot wrote while no reply was due: a run stops there",
                        self.at(e.line)
                    ));
                    return Ok(());
                }
                self.owed -= 1;
                self.steps.push((
                    Step::Expect(Expect::LegalMove),
                    Some("the reply is cut short in the transcript".into()),
                ));
            }
            Direction::Received => {
                // A JSON entry is one whole reply (its lines, without the
                // final line end); a plain log line is one piece.
                let pieces: Vec<String> = e.text.split('\n').map(|p| format!("{p}\n")).collect();
                for piece in pieces {
                    self.piece(piece.as_bytes(), e.line)?;
                    if self.stopped.is_some() {
                        return Ok(());
                    }
                }
                if matches!(self.where_, Where::Json(_)) {
                    self.complete_json_reply(e.line)?;
                }
            }
            Direction::Note if e.text.starts_with("… ") => {
                // The report left lines out here: what follows cannot be
                // replayed, and a scenario that stopped short would not
                // reach the verdict of the run.
                return Err(TranscriptError::LinesLeftOut {
                    at: self.at(e.line),
                    note: e.text.clone(),
                });
            }
            Direction::Note => {
                if e.text == "protocheck closed the bot's input (EOF)" {
                    self.finish_reply(e.line)?;
                    if self.stopped.is_none() {
                        self.session.input_closed();
                        self.steps.push((Step::CloseInput, None));
                    }
                }
            }
        }
        Ok(())
    }

    /// A JSON entry lost its terminating empty line, if it had one: offer
    /// one where the game's framing still waits for it (QTP).
    fn complete_json_reply(&mut self, line: usize) -> Result<(), TranscriptError> {
        if matches!(
            self.reply_state,
            Some(Assembly::More | Assembly::CompleteUnlessMore(_))
        ) {
            self.piece(b"\n", line)?;
        }
        self.finish_reply(line)
    }

    fn piece(&mut self, piece: &[u8], line: usize) -> Result<(), TranscriptError> {
        if self.reply_state.is_none() && self.owed == 0 {
            // Output nobody asked for: a run fails here unless the game
            // tolerates it (a blank line between QTP responses).
            if let Some(v) = self.session.unexpected(piece)
                && v.severity == Severity::Fail
            {
                self.stopped = Some(format!(
                    "{}: the bot wrote output nobody asked for ({}): a run stops there",
                    self.at(line),
                    v.rule
                ));
            }
            return Ok(());
        }
        let state = self.session.reply_part(&self.reply, piece);
        if state == Assembly::StartsNext {
            self.finish_reply(line)?;
            if self.stopped.is_some() {
                return Ok(());
            }
            return self.piece(piece, line);
        }
        self.reply.extend_from_slice(piece);
        self.reply_state = Some(state);
        if state == Assembly::Complete {
            self.finish_reply(line)?;
        }
        Ok(())
    }

    /// Judge the reply assembled so far, as the runner would.
    fn finish_reply(&mut self, line: usize) -> Result<(), TranscriptError> {
        if self.reply_state.take().is_none() {
            return Ok(());
        }
        let reply = std::mem::take(&mut self.reply);
        let judged = self
            .session
            .judge(&reply, &Expect::LegalMove, Duration::ZERO)
            .map_err(|source| TranscriptError::Judge {
                at: self.at(line),
                source,
            })?;
        if judged.still_due {
            return Ok(());
        }
        self.owed = self.owed.saturating_sub(1);
        let shown = self.session.reply_as_read(&reply);
        if let Some(v) = judged
            .violations
            .iter()
            .find(|v| v.severity == Severity::Fail)
        {
            // Judged again on replay; a pinned illegal reply would not lint.
            self.steps.push((
                Step::Expect(Expect::LegalMove),
                Some(format!("the bot replied: {shown}")),
            ));
            self.stopped = Some(format!(
                "{}: the reply `{shown}` breaks {}: a run stops there",
                self.at(line),
                v.rule
            ));
            return Ok(());
        }
        // A legal reply is pinned exactly: the scenario is a regression test
        // of this bot, and the tracked state stays known for the lint (Kalah:
        // the CHANGEs after it are checked against the board).
        self.steps.push((Step::Expect(Expect::Reply(shown)), None));
        for out in judged.follow_ups {
            self.owed += out.replies;
            self.automatic.push_back(out.text);
        }
        Ok(())
    }
}

/// The transcript of one scenario of a JSON report.
fn json_entries(
    text: &str,
    file: &str,
    wanted: Option<&str>,
) -> Result<(Vec<Entry>, String), TranscriptError> {
    let file_ = || file.to_string();
    let report: serde_json::Value =
        serde_json::from_str(text).map_err(|source| TranscriptError::NotJson {
            file: file_(),
            source,
        })?;
    let scenarios = report["scenarios"]
        .as_array()
        .ok_or_else(|| TranscriptError::NoScenarioList { file: file_() })?;
    let name_of = |s: &serde_json::Value| s["name"].as_str().unwrap_or("").to_string();
    let picked = match wanted {
        Some(name) => scenarios
            .iter()
            .find(|s| s["name"] == name)
            .ok_or_else(|| TranscriptError::NoScenarioNamed {
                file: file_(),
                name: name.to_string(),
                names: scenarios.iter().map(name_of).collect(),
            })?,
        None => scenarios
            .iter()
            .find(|s| s["status"] == "failed")
            .or_else(|| scenarios.first())
            .ok_or_else(|| TranscriptError::NoScenarios { file: file_() })?,
    };
    let name = name_of(picked);
    let lines = picked["transcript"]
        .as_array()
        .ok_or_else(|| TranscriptError::NoTranscript {
            file: file_(),
            name: name.clone(),
        })?;
    let mut entries: Vec<Entry> = Vec::new();
    for (i, l) in lines.iter().enumerate() {
        let dir = match l["dir"].as_str() {
            Some("sent") => Direction::Sent,
            Some("received") => Direction::Received,
            Some("note") => Direction::Note,
            other => {
                return Err(TranscriptError::BadDirection {
                    file: file_(),
                    name,
                    entry: i + 1,
                    dir: other.map(str::to_string),
                });
            }
        };
        let text = l["text"].as_str().ok_or_else(|| TranscriptError::NoText {
            file: file_(),
            name: name.clone(),
            entry: i + 1,
        })?;
        // `… the same line N more times`: the report folded a run of
        // identical lines; they are restored.
        if dir == Direction::Note
            && let Some(n) = folded_repeats(text)
            && let Some(previous) = entries.last().cloned()
        {
            for _ in 0..n.min(MAX_UNFOLD) {
                entries.push(Entry {
                    line: i + 1,
                    ..previous.clone()
                });
            }
            continue;
        }
        entries.push(Entry {
            dir,
            text: text.to_string(),
            line: i + 1,
        });
    }
    Ok((entries, name))
}

/// `> sent`, `< received`, `# note` lines, each optionally after a
/// `123ms` stamp as the human report prints them; blank lines are skipped.
pub fn plain_entries(text: &str, file: &str) -> Result<Vec<Entry>, TranscriptError> {
    let mut entries = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let mut rest = raw.trim_start();
        if rest.is_empty() {
            continue;
        }
        if let Some((stamp, after)) = rest.split_once(' ')
            && stamp
                .strip_suffix("ms")
                .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
        {
            rest = after.trim_start();
        }
        let (dir, body) = match rest.as_bytes().first() {
            Some(b'>') => (Direction::Sent, &rest[1..]),
            Some(b'<') => (Direction::Received, &rest[1..]),
            Some(b'#') => (Direction::Note, &rest[1..]),
            _ => {
                return Err(TranscriptError::BadLine {
                    file: file.to_string(),
                    line,
                    got: cut(raw),
                });
            }
        };
        let body = body.strip_prefix(' ').unwrap_or(body);
        entries.push(Entry {
            dir,
            text: body.trim_end_matches('\r').to_string(),
            line,
        });
    }
    if entries.is_empty() {
        return Err(TranscriptError::NoLines {
            file: file.to_string(),
        });
    }
    Ok(entries)
}

/// Most repeats of one line restored from a fold (the report folds after
/// a few; a bot that floods is stopped long before this many).
const MAX_UNFOLD: u64 = 100_000;

/// `… the same line 3 more times` → 3.
fn folded_repeats(note: &str) -> Option<u64> {
    let rest = note.strip_prefix("… the same line ")?;
    let (n, tail) = rest.split_once(' ')?;
    if !tail.starts_with("more time") {
        return None;
    }
    n.replace(',', "").parse().ok()
}

/// A line the report cut to its 4 KiB (`shown::cut_text`).
fn is_cut(text: &str) -> bool {
    text.len() > crate::shown::TRANSCRIPT_LINE_BYTES
        && text.ends_with(" bytes in all)")
        && text.contains("… (")
}

fn cut(s: &str) -> String {
    if s.chars().count() > 60 {
        s.chars().take(60).collect::<String>() + "…"
    } else {
        s.to_string()
    }
}

#[cfg(test)]
mod tests;
