//! Where the bot program is, and whether it can be started at all, decided
//! before any scenario runs: a student's `protocheck kalah_bot.py` should get
//! one line that says what to type, not 25 identical crash reports.

use crate::transport::shell_quote;
use std::path::Path;

/// The program to start for `program` as the user wrote it. A name that is
/// an existing file in the current folder is that file (`kalah_bot.py` is
/// `./kalah_bot.py`, as the user means it); any other name without `/` is
/// looked up in PATH when the bot starts. A file is checked here: a folder,
/// a file without execute permission, and a file that is neither a native
/// binary nor a `#!` script are refused with the command that would work.
/// The error is one line without the `error: ` prefix.
pub fn resolve(program: &str) -> Result<String, BotPathError> {
    let path = Path::new(program);
    let resolved = if program.contains('/') {
        program.to_string()
    } else if path.is_file() || path.is_dir() {
        format!("./{program}")
    } else {
        return Ok(program.to_string());
    };
    check(&resolved)?;
    Ok(resolved)
}

/// Why the program given cannot be started; one line without the
/// `error: ` prefix.
#[derive(Debug, thiserror::Error)]
pub enum BotPathError {
    #[error("cannot start bot `{program}`: {source}")]
    Unreadable {
        program: String,
        #[source]
        source: std::io::Error,
    },
    #[error(
        "cannot start bot `{program}`: it is a folder, not a program; name the program inside it, or give the command with --bot-cmd '<command line>'"
    )]
    Folder { program: String },
    #[error(
        "cannot start bot `{program}`: it is not executable; run it with its interpreter: --bot-cmd {command} (or chmod +x it and start it with `#!`)"
    )]
    NotExecutable { program: String, command: String },
    #[error(
        "cannot start bot `{program}`: it is neither a compiled program nor a script starting with `#!` (the system would run it with /bin/sh); run it with its interpreter: --bot-cmd {command} (or make its first line e.g. `#!/usr/bin/env python3`)"
    )]
    NotAProgram { program: String, command: String },
}

fn check(program: &str) -> Result<(), BotPathError> {
    let meta = std::fs::metadata(program).map_err(|source| BotPathError::Unreadable {
        program: program.to_string(),
        source,
    })?;
    let program = program.to_string();
    if meta.is_dir() {
        return Err(BotPathError::Folder { program });
    }
    let command = suggested_command(&program);
    if !is_executable(&meta) {
        return Err(BotPathError::NotExecutable { program, command });
    }
    match first_bytes(&program) {
        // Unreadable but executable: the system decides when it starts.
        None => Ok(()),
        Some(head) if is_native(&head) || head.starts_with(b"#!") => Ok(()),
        Some(_) => Err(BotPathError::NotAProgram { program, command }),
    }
}

#[cfg(unix)]
fn is_executable(meta: &std::fs::Metadata) -> bool {
    use std::os::unix::fs::PermissionsExt;
    meta.permissions().mode() & 0o111 != 0
}

#[cfg(not(unix))]
fn is_executable(_meta: &std::fs::Metadata) -> bool {
    true
}

/// The first four bytes (fewer for a shorter file), or `None` when the file
/// cannot be read.
fn first_bytes(program: &str) -> Option<Vec<u8>> {
    use std::io::Read;
    let mut head = Vec::with_capacity(4);
    std::fs::File::open(program)
        .ok()?
        .take(4)
        .read_to_end(&mut head)
        .ok()?;
    Some(head)
}

/// ELF, Mach-O (either byte order, 32 or 64 bits, universal) and PE
/// executables.
fn is_native(head: &[u8]) -> bool {
    const MAGICS: [&[u8]; 7] = [
        b"\x7fELF",
        b"\xfe\xed\xfa\xce",
        b"\xfe\xed\xfa\xcf",
        b"\xce\xfa\xed\xfe",
        b"\xcf\xfa\xed\xfe",
        b"\xca\xfe\xba\xbe",
        b"MZ",
    ];
    MAGICS.iter().any(|m| head.starts_with(m))
}

/// `'python3 kalah_bot.py'`: the interpreter the file's extension implies,
/// quoted for the shell.
fn suggested_command(program: &str) -> String {
    let shown = program.strip_prefix("./").unwrap_or(program);
    let file = shell_quote(shown);
    let extension = Path::new(program)
        .extension()
        .and_then(|e| e.to_str())
        .unwrap_or("");
    let line = match extension {
        "py" => format!("python3 {file}"),
        "js" | "mjs" => format!("node {file}"),
        "rb" => format!("ruby {file}"),
        "pl" => format!("perl {file}"),
        "sh" => format!("sh {file}"),
        "jar" => format!("java -jar {file}"),
        "java" => format!("java {file}"),
        _ => format!("<interpreter> {file}"),
    };
    shell_quote(&line)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn native_magic_numbers_and_scripts_are_recognised() {
        assert!(is_native(b"\x7fELF"));
        assert!(is_native(b"\xcf\xfa\xed\xfe"));
        assert!(!is_native(b"impo"));
        assert!(!is_native(b""));
        assert!(!is_native(b"\x00\x00\x00\x00"));
    }

    #[test]
    fn the_suggestion_follows_the_extension() {
        assert_eq!(
            suggested_command("./kalah_bot.py"),
            "'python3 kalah_bot.py'"
        );
        assert_eq!(suggested_command("bot.jar"), "'java -jar bot.jar'");
    }

    #[test]
    fn a_folder_is_refused_in_the_old_words_and_a_missing_file_keeps_its_cause() {
        let dir = std::env::temp_dir();
        let shown = dir.display().to_string();
        assert_eq!(
            resolve(&shown).unwrap_err().to_string(),
            format!(
                "cannot start bot `{shown}`: it is a folder, not a program; name the program inside it, or give the command with --bot-cmd '<command line>'"
            )
        );
        let missing = resolve("./no-such-bot-protocheck").unwrap_err();
        assert!(
            missing
                .to_string()
                .starts_with("cannot start bot `./no-such-bot-protocheck`: "),
            "{missing}"
        );
        assert!(std::error::Error::source(&missing).is_some());
    }
}
