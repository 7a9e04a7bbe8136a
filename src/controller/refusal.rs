//! A sandboxed bot that ended (crashed, exited, fell silent) right after the
//! sandbox refused it something: the finding says so, so that it never reads
//! like the student's own bug (issue 27.6).
//!
//! The evidence is the bot's stderr tail: the last few blocks (an error line
//! with its stack trace or continuation lines) must show a refusal, in the
//! words of the runtime that met it: `Permission denied` / `EACCES` (C,
//! shells, Python's `PermissionError`, Rust, Node, GHC, Racket's `system
//! error`), Java's `AccessDeniedException`, `Operation not permitted` /
//! `EPERM` on a path, a signal or a scheduling call. A refusal earlier in the
//! tail, followed by more of the bot's own output, is not what ended it.
//! `ECONNREFUSED` ("Connection refused") is the peer's answer, not the
//! sandbox's, and is never taken for one.
//!
//! A denial of a path the sandbox allows (anything in the bot's working
//! folder; a read in a folder it may read) is the file's own permissions, not
//! the sandbox: no diagnosis then. The path is named only where the stderr
//! shows it.

use super::Run;
use crate::transport::BotCommand;
use crate::transport::sandbox::folders::{self, Start};
use crate::transport::sandbox::{Layers, settle};
use std::ffi::OsString;
use std::path::{Component, Path, PathBuf};

impl Run<'_> {
    /// Each finding about how a bot ended or fell silent, where its stderr
    /// shows the sandbox refused it something just before, leads with that
    /// refusal and the option that allows it.
    pub(super) fn explain_refusals(&mut self) {
        let Ok(layers) = settle(&self.cfg.limits.sandbox) else {
            return;
        };
        if !layers.any() || self.ledger.ending_findings.is_empty() {
            return;
        }
        for seat in self.seat_ids() {
            // Called once every bot is gone: its stderr to the end.
            let (_, tail) = self.seats[seat].inbox.conn.stderr_of_ended_bot();
            if tail.is_empty() {
                continue;
            }
            let own = OwnFolders::of(
                &self.seats[seat].command,
                &self.cfg.limits.sandbox.allow_read,
            );
            let Some(refusal) = diagnose(&tail, &layers, &own).filter(unconfined_may) else {
                continue;
            };
            for &index in &self.ledger.ending_findings {
                if self.ledger.finding_seats.get(index) != Some(&seat) {
                    continue;
                }
                if let Some(v) = self.ledger.findings.kept_get_mut(index) {
                    v.message = refusal.reword(&v.message);
                }
            }
        }
    }
}

/// What the sandbox refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Access {
    Read,
    Write,
    /// A file the stderr does not say whether the bot read or wrote.
    File,
    /// A TCP connection.
    Connect,
    /// A signal or ptrace aimed outside the bot's own sandbox.
    Signal,
    /// A scheduling or priority change of another process.
    Scheduling,
}

/// A refusal by the sandbox that the bot's stderr shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    pub access: Access,
    /// The path the stderr names (file refusals only), made absolute
    /// against the bot's working folder, so the option that allows it
    /// works from wherever protocheck is run.
    pub path: Option<String>,
}

/// The folders the sandbox opens to a bot: its working folder (read and
/// write) and the folders it may read (system and toolchain folders, its
/// program's, those of command words naming files, `--allow-read`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OwnFolders {
    pub workdir: PathBuf,
    pub readable: Vec<PathBuf>,
}

impl OwnFolders {
    /// The folders of the bot `command` starts, with `allow_read`: the
    /// lists the sandbox itself confines it to (`sandbox::folders`).
    pub fn of(command: &BotCommand, allow_read: &[PathBuf]) -> OwnFolders {
        let workdir = command
            .workdir
            .clone()
            .or_else(|| std::env::current_dir().ok())
            .unwrap_or_default();
        let workdir = absolute(Path::new("/"), &workdir);
        let started = command.command();
        let variable = |name: &str| -> Option<OsString> {
            match started.get_envs().find(|(k, _)| *k == name) {
                Some((_, value)) => value.map(|v| v.to_os_string()),
                None => std::env::var_os(name),
            }
        };
        let home = variable("HOME").map(PathBuf::from);
        let path = variable("PATH");
        let lookup = |name: &str| variable(name).map(PathBuf::from);
        let listed = folders::folders(&Start {
            program: &command.program,
            args: &command.args,
            workdir: &workdir,
            // Its private TMPDIR is gone by now; a denial there is rare.
            tmp: &workdir,
            home: home.as_deref(),
            path: path.as_deref(),
            variable: &lookup,
            allow_read,
        });
        OwnFolders {
            workdir,
            readable: listed.readable().cloned().collect(),
        }
    }
}

/// How many blocks at the end of the stderr tail may hold the refusal: the
/// error that ended the bot, the exception that wrapped it, a last word.
const LAST_BLOCKS: usize = 3;

/// The refusal that the stderr tail shows ended the bot, where the run's
/// `layers` were the ones to refuse it; `None` when the tail shows none, the
/// layer that would refuse it was off, or the path is one the sandbox allows.
pub fn diagnose(tail: &str, layers: &Layers, own: &OwnFolders) -> Option<Refusal> {
    let blocks = blocks(tail);
    let first = blocks.len().saturating_sub(LAST_BLOCKS);
    if let Some(refusal) = unreadable_jar(&blocks[first..], layers, own) {
        return Some(refusal);
    }
    let at = (first..blocks.len())
        .rev()
        .find(|&i| blocks[i].iter().any(|l| marker(l).is_some()))?;
    let block = &blocks[at];
    let line = block.iter().rev().find(|l| marker(l).is_some())?;
    let (start, end, eperm) = marker(line)?;
    // The block before the refusal often shows the call (a Python
    // traceback's last frame).
    let context: Vec<&str> = at
        .checked_sub(1)
        .map(|i| blocks[i].clone())
        .unwrap_or_default()
        .into_iter()
        .chain(block.iter().copied())
        .collect();
    let mentions = |words: &[&str]| {
        context.iter().any(|l| {
            let lower = l.to_ascii_lowercase();
            words.iter().any(|w| lower.contains(w))
        })
    };
    let path = path_in_line(line, start, end).or_else(|| path_line(block));
    if path.is_none() {
        if mentions(CONNECT_WORDS) {
            return layers.tcp.then_some(Refusal {
                access: Access::Connect,
                path: None,
            });
        }
        if eperm && mentions(SIGNAL_WORDS) {
            return layers.signals.then_some(Refusal {
                access: Access::Signal,
                path: None,
            });
        }
        if eperm && mentions(SCHEDULING_WORDS) {
            return layers.scheduling.then_some(Refusal {
                access: Access::Scheduling,
                path: None,
            });
        }
        if eperm {
            // EPERM without a path or a call is too vague to blame the
            // sandbox, whose file refusals are EACCES.
            return None;
        }
    }
    if !layers.files {
        return None;
    }
    let access = if mentions(WRITE_WORDS) {
        Access::Write
    } else if mentions(READ_WORDS) {
        Access::Read
    } else {
        Access::File
    };
    let path = path.map(|p| absolute(&own.workdir, Path::new(&p)));
    if let Some(file) = &path {
        if file.starts_with(&own.workdir) {
            return None;
        }
        if own.readable.iter().any(|f| file.starts_with(f)) {
            // Reading there is allowed: only a write can have been refused
            // by the sandbox, and an access not told to be one is not
            // blamed on it.
            if access != Access::Write {
                return None;
            }
        }
    }
    Some(Refusal {
        access,
        path: path.map(|p| p.to_string_lossy().into_owned()),
    })
}

/// The Java launcher's own words for a jar it cannot open, which name no
/// cause (`Error: Unable to access jarfile /x.jar`): the sandbox's refusal
/// where the jar is there, outside the bot's folders (a wrapper script in
/// one folder running `java -jar` on a jar in another). A missing jar is
/// the bot's own mistake.
fn unreadable_jar(blocks: &[Vec<&str>], layers: &Layers, own: &OwnFolders) -> Option<Refusal> {
    const WORDS: &str = "Unable to access jarfile ";
    if !layers.files {
        return None;
    }
    let line = blocks.iter().flatten().rev().find(|l| l.contains(WORDS))?;
    let named = line[line.find(WORDS)? + WORDS.len()..].trim();
    let jar = absolute(&own.workdir, Path::new(named));
    let inside = jar.starts_with(&own.workdir) || own.readable.iter().any(|f| jar.starts_with(f));
    (jar.is_file() && !inside).then(|| Refusal {
        access: Access::Read,
        path: Some(jar.to_string_lossy().into_owned()),
    })
}

/// Whether protocheck itself, outside the sandbox, may make the access the
/// bot was refused: where it may not, the file's own permissions refused
/// the bot too, and the sandbox is not to blame. Unknown (no path, nothing
/// there, not Unix): yes.
#[cfg(not(unix))]
pub fn unconfined_may(_: &Refusal) -> bool {
    true
}

/// See the other `unconfined_may`: asked with access(2).
#[cfg(unix)]
pub fn unconfined_may(refusal: &Refusal) -> bool {
    let Some(path) = &refusal.path else {
        return true;
    };
    let path = Path::new(path);
    let (target, mode) = match refusal.access {
        Access::Write if path.exists() => (path, libc::W_OK),
        // A file to be created: its folder must take it.
        Access::Write => match path.parent() {
            Some(folder) => (folder, libc::W_OK),
            None => return true,
        },
        _ => (path, libc::R_OK),
    };
    let Ok(c_path) = std::ffi::CString::new(target.as_os_str().as_encoded_bytes()) else {
        return true;
    };
    // SAFETY: `c_path` is a valid NUL-terminated string; access(2) only
    // reads it.
    let denied = unsafe { libc::access(c_path.as_ptr(), mode) } != 0
        && std::io::Error::last_os_error().raw_os_error() == Some(libc::EACCES);
    !denied
}

impl Refusal {
    /// What the sandbox refused, e.g. "the sandbox refused this bot access
    /// to /x (reading outside its folder)".
    pub fn what(&self) -> String {
        let target = match &self.path {
            Some(p) => format!(" to {p}"),
            None => String::new(),
        };
        match self.access {
            Access::Read => {
                format!("the sandbox refused this bot access{target} (reading outside its folder)")
            }
            Access::Write => {
                format!("the sandbox refused this bot access{target} (writing outside its folder)")
            }
            Access::File => format!(
                "the sandbox refused this bot access{target} (a file outside its folder)"
            ),
            Access::Connect => {
                "the sandbox refused this bot a TCP connection (to a port other than protocheck's)"
                    .to_string()
            }
            Access::Signal => "the sandbox refused this bot a signal or ptrace to a process outside its own sandbox".to_string(),
            Access::Scheduling => "the sandbox refused this bot a change to another process's scheduling or priority".to_string(),
        }
    }

    /// What the user can do about it.
    pub fn remedy(&self) -> String {
        const LAST: &str = "--sandbox off runs it unconfined, as a last resort on your own machine (docs/sandbox.md)";
        let read_option = match &self.path {
            Some(p) => format!("--allow-read {}", shell_word(p)),
            None => "--allow-read PATH naming what it reads".to_string(),
        };
        match self.access {
            Access::Read => format!("if the bot needs it, run with {read_option}; {LAST}"),
            Access::Write => format!(
                "a sandboxed bot may write only in its working folder and its TMPDIR; have it write there, or {LAST}"
            ),
            Access::File => format!(
                "if the bot needs to read it, run with {read_option}; a sandboxed bot may write only in its working folder and its TMPDIR; {LAST}"
            ),
            Access::Connect => format!(
                "a sandboxed bot may connect only to protocheck's own port for the game; {LAST}"
            ),
            Access::Signal | Access::Scheduling => {
                format!("a sandboxed bot may act only on its own processes; {LAST}")
            }
        }
    }

    /// The finding `message` (what protocheck saw the bot do) with the
    /// refusal that caused it in front.
    pub fn reword(&self, message: &str) -> String {
        format!("{}, then {message}; {}", self.what(), self.remedy())
    }
}

/// A path as one shell word, quoted where it has to be.
fn shell_word(p: &str) -> String {
    if p.chars()
        .all(|c| c.is_ascii_alphanumeric() || "/._-+,:@%".contains(c))
    {
        p.to_string()
    } else {
        format!("'{}'", p.replace('\'', r"'\''"))
    }
}

const CONNECT_WORDS: &[&str] = &["connect", "socket"];
const SIGNAL_WORDS: &[&str] = &["kill", "signal", "ptrace"];
const SCHEDULING_WORDS: &[&str] = &[
    "sched_",
    "setpriority",
    "nice",
    "ioprio",
    "prlimit",
    "affinity",
    "migrate_pages",
];
const WRITE_WORDS: &[&str] = &[
    "output file",
    "open-output",
    "cannot create",
    "cannot touch",
    "cannot remove",
    "fileoutputstream",
    "filewriter",
    "newoutputstream",
    "newbufferedwriter",
    "files.write",
    "createfile",
    "createdirector",
    "mkdir",
    "writefile",
    "fs::write",
    "file::create",
    "unlink",
    "rename",
    ", 'w'",
    ", \"w\"",
    ", 'a'",
    ", \"a\"",
    "mode='w",
    "mode=\"w",
    "o_wronly",
    "o_rdwr",
    "o_creat",
    "write_text",
    "write_bytes",
];
const READ_WORDS: &[&str] = &[
    "input file",
    "open-input",
    "cat: ",
    "fileinputstream",
    "filereader",
    "newinputstream",
    "newbufferedreader",
    "readallbytes",
    "readalllines",
    "readstring",
    "read_to_string",
    "fs::read",
    "readfile",
    "cannot read",
    "cannot open",
    "scandir",
    "listdir",
    "opendir",
    "read_text",
    "read_bytes",
    // Python's `open(path)` (a write mode is found first).
    "open(",
    // Running a program (a shell's `exec: /x: Permission denied`):
    // --allow-read grants execution too.
    "exec:",
    "execve",
];

/// The tail's non-empty lines in blocks: a line that starts at the margin,
/// with the indented lines after it (stack frames, Racket's `path:` and
/// `system error:` lines, a traceback's frames).
fn blocks(tail: &str) -> Vec<Vec<&str>> {
    let mut blocks: Vec<Vec<&str>> = Vec::new();
    for line in tail.lines() {
        if line.trim().is_empty() {
            continue;
        }
        let continues = line.starts_with([' ', '\t']) || line.trim_start().starts_with("... ");
        match blocks.last_mut() {
            Some(block) if continues => block.push(line),
            _ => blocks.push(vec![line]),
        }
    }
    blocks
}

/// Where `line` says an access was refused: the byte range of the words,
/// and whether they are EPERM's (which the sandbox gives for signals and
/// scheduling, and the system for much else).
fn marker(line: &str) -> Option<(usize, usize, bool)> {
    let lower = line.to_ascii_lowercase();
    const MARKERS: &[(&str, bool)] = &[
        ("permission denied", false),
        ("accessdeniedexception", false),
        ("eacces", false),
        ("operation not permitted", true),
        ("eperm", true),
    ];
    MARKERS.iter().find_map(|&(word, eperm)| {
        lower.match_indices(word).find_map(|(at, _)| {
            let end = at + word.len();
            let before = lower[..at].chars().next_back();
            let after = lower[end..].chars().next();
            let bounded = !before
                .is_some_and(|c| c.is_ascii_alphanumeric() && word.starts_with('e'))
                && !after.is_some_and(|c| c.is_ascii_alphanumeric());
            bounded.then_some((at, end, eperm))
        })
    })
}

/// The path a refusal line names: quoted right after the words (Python's
/// `Permission denied: '/x'`, Node's `EACCES: permission denied, open
/// '/x'`), after Java's `AccessDeniedException: `, or in the last `: `
/// field before the words that holds a `/` (`cat: /x: Permission denied`,
/// `FileNotFoundException: /x (Permission denied)`).
fn path_in_line(line: &str, start: usize, end: usize) -> Option<String> {
    let after = &line[end..];
    let word = &line[start..end];
    if word.eq_ignore_ascii_case("accessdeniedexception") {
        let rest = after.strip_prefix(':')?.trim();
        // A two-path operation: `a -> b`.
        let first = rest.split(" -> ").next().unwrap_or(rest);
        return first.contains('/').then(|| first.to_string());
    }
    if after.trim_start().starts_with([':', ','])
        && let Some(p) = first_quoted(after)
    {
        return Some(p);
    }
    let before = line[..start]
        .trim_end()
        .trim_end_matches(['(', ':'])
        .trim_end();
    // The first field is most often the program's name; it is the path
    // only where it looks like one (GHC: `/x: openFile: …`).
    let mut fields = before.split(": ");
    let alone = !before.contains(": ");
    let first = fields
        .next()
        .filter(|f| alone || f.starts_with(['/', '.', '~']));
    let field = first
        .into_iter()
        .chain(fields)
        .filter(|f| f.contains('/'))
        .last()?;
    if let Some(p) = first_quoted(field) {
        return Some(p);
    }
    // From the word holding the first `/` (`cannot read /x`, `cannot
    // create ../x`) to the end of the field.
    let slash = field.find('/')?;
    let from = field[..slash]
        .rfind(char::is_whitespace)
        .map(|i| i + 1)
        .unwrap_or(0);
    Some(field[from..].trim().to_string())
}

/// Racket's error blocks name the path on a line of its own: `  path: /x`.
fn path_line(block: &[&str]) -> Option<String> {
    block.iter().find_map(|l| {
        let p = l.trim().strip_prefix("path: ")?.trim();
        p.contains('/').then(|| p.to_string())
    })
}

/// The first string in `text` quoted with ', " or ` that holds a `/`. A
/// quote opens after a non-letter (not the one in `can't`) and closes
/// before one (not the one in `it's`).
fn first_quoted(text: &str) -> Option<String> {
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    let word = |i: usize| chars.get(i).is_some_and(|&(_, c)| c.is_alphanumeric());
    for (k, &(open, quote)) in chars.iter().enumerate() {
        if !matches!(quote, '\'' | '"' | '`') || (k > 0 && word(k - 1)) {
            continue;
        }
        let close = (k + 1..chars.len()).find(|&j| chars[j].1 == quote && !word(j + 1));
        if let Some(j) = close {
            let inside = &text[open + 1..chars[j].0];
            if inside.contains('/') {
                return Some(inside.to_string());
            }
        }
    }
    None
}

/// `p` made absolute against `base`, with `.` and `..` resolved by name
/// (the bot's view: its folders need not exist here any more).
fn absolute(base: &Path, p: &Path) -> PathBuf {
    let joined = if p.is_absolute() {
        p.to_path_buf()
    } else {
        base.join(p)
    };
    let mut out = PathBuf::new();
    for part in joined.components() {
        match part {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

#[cfg(test)]
#[path = "refusal_tests.rs"]
mod tests;
