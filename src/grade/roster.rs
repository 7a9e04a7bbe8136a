//! The roster: which bots to grade, each with an id, a command line and a
//! working folder. Read from paths/globs on the command line or from a CSV
//! file (`id,command[,workdir]`), and checked as a whole before anything
//! runs: every problem is reported at its file:line (or argument number).

use std::path::{Path, PathBuf};

/// One bot to grade.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// Unique in the roster; the name of the bot's folder in the output.
    pub id: String,
    /// The command line, as shell words, run in `workdir`.
    pub command: Vec<String>,
    /// Absolute.
    pub workdir: PathBuf,
    /// Where the entry was given: `roster.csv:4` or `argument 2`.
    pub origin: String,
    /// The files whose change means the bot changed (for resuming).
    pub files: Vec<PathBuf>,
}

/// A roster problem, located; all of them are reported together.
pub type Problems = Vec<String>;

/// Bots given as paths or globs: the id is the name of the bot's folder
/// (`submissions/alice/bot` → `alice`), the working folder that folder.
pub fn from_paths(args: &[String], cwd: &Path) -> Result<Vec<Entry>, Problems> {
    let (entries, mut problems) = collect(args, cwd);
    problems.extend(duplicates(&entries));
    if problems.is_empty() {
        Ok(entries)
    } else {
        Err(problems)
    }
}

/// The bots of a match or a tournament, given as paths or globs: named by
/// their folders when those differ, else by their file names (sample bots
/// share one folder); the same program given again is told apart by `#2`,
/// `#3`, … (a bot may play itself).
pub fn programs(args: &[String], cwd: &Path) -> Result<Vec<Entry>, Problems> {
    let (mut entries, problems) = collect(args, cwd);
    if !problems.is_empty() {
        return Err(problems);
    }
    if !duplicates(&entries).is_empty() {
        for e in &mut entries {
            if let Some(name) = e.files.first().and_then(|f| f.file_name()) {
                e.id = name.to_string_lossy().into_owned();
            }
        }
    }
    let bases: Vec<String> = entries.iter().map(|e| e.id.clone()).collect();
    for (i, e) in entries.iter_mut().enumerate() {
        let earlier = bases[..i].iter().filter(|b| **b == bases[i]).count();
        if earlier > 0 {
            e.id = format!("{}#{}", bases[i], earlier + 1);
        }
    }
    Ok(entries)
}

/// Every entry the arguments name, and the problems of those that name none.
fn collect(args: &[String], cwd: &Path) -> (Vec<Entry>, Problems) {
    let mut entries = Vec::new();
    let mut problems = Vec::new();
    for (i, arg) in args.iter().enumerate() {
        let origin = format!("argument {} (`{arg}`)", i + 1);
        let paths = match expand(arg, cwd) {
            Ok(paths) => paths,
            Err(e) => {
                problems.push(format!("{origin}: {e}"));
                continue;
            }
        };
        for path in paths {
            match path_entry(&path, &origin) {
                Ok(entry) => entries.push(entry),
                Err(e) => problems.push(e),
            }
        }
    }
    (entries, problems)
}

/// A path argument, or the files a glob in it matches (sorted; a glob that
/// matches nothing is an error, as a typo must not grade nobody).
fn expand(arg: &str, cwd: &Path) -> Result<Vec<PathBuf>, String> {
    let absolute = cwd.join(arg);
    if !arg.contains(['*', '?', '[']) {
        return Ok(vec![absolute]);
    }
    let pattern = absolute.to_string_lossy().into_owned();
    let paths = glob::glob(&pattern).map_err(|e| format!("not a valid glob: {e}"))?;
    let mut found: Vec<PathBuf> = paths.filter_map(Result::ok).collect();
    found.sort();
    if found.is_empty() {
        return Err("the glob matches no file".into());
    }
    Ok(found)
}

fn path_entry(path: &Path, origin: &str) -> Result<Entry, String> {
    let shown = path.display();
    check_program(path).map_err(|e| format!("{origin}: `{shown}` {e}"))?;
    // Named as given, not as resolved: a submission may be a symlink to a
    // shared build, and its folder is still the student's.
    let program = normalise(path);
    let folder = program.parent().map(Path::to_path_buf).unwrap_or_default();
    let id = folder
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .ok_or_else(|| format!("{origin}: `{shown}` is in no folder to name it by"))?;
    check_id(&id).map_err(|e| format!("{origin}: the folder name {e}"))?;
    Ok(Entry {
        id,
        command: vec![program.display().to_string()],
        workdir: folder,
        origin: origin.to_string(),
        files: vec![program],
    })
}

/// `a/./b/../c` as `a/c`, without following symlinks.
fn normalise(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            std::path::Component::CurDir => {}
            std::path::Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

/// The absolute, normalised path of an executable file, or why it is not one.
fn check_program(path: &Path) -> Result<PathBuf, String> {
    use std::os::unix::fs::PermissionsExt;
    let meta = std::fs::metadata(path).map_err(|e| format!("names no executable: {e}"))?;
    if meta.is_dir() {
        return Err("names no executable: it is a folder".into());
    }
    if meta.permissions().mode() & 0o111 == 0 {
        return Err("names no executable: it is not executable (chmod +x it, or give its command line in a CSV roster)".into());
    }
    std::fs::canonicalize(path).map_err(|e| format!("names no executable: {e}"))
}

/// Ids become folder names and URLs: no separators, no hidden or relative
/// names, nothing invisible.
fn check_id(id: &str) -> Result<(), String> {
    if id.is_empty() {
        return Err("`` is not a usable id: it is empty".into());
    }
    if id.starts_with('.') || id.contains(['/', '\\']) || id.chars().any(char::is_control) {
        return Err(format!(
            "`{}` is not a usable id: it may not start with `.` or contain `/`, `\\` or control characters",
            id.escape_debug()
        ));
    }
    Ok(())
}

fn duplicates(entries: &[Entry]) -> Problems {
    let mut problems = Vec::new();
    for (i, e) in entries.iter().enumerate() {
        if let Some(first) = entries[..i].iter().find(|f| f.id == e.id) {
            problems.push(format!(
                "{}: duplicate id `{}` (also {}); give each bot its own folder, or name them in a CSV roster",
                e.origin, e.id, first.origin
            ));
        }
    }
    problems
}

/// A CSV roster: `id,command[,workdir]` per line, a header line
/// `id,command…` optional, `#` lines and blank lines ignored. The command is
/// one shell-quoted command line; `workdir` is relative to the CSV's folder
/// (default: the program's folder when the command names it by path, else
/// the CSV's folder).
pub fn from_csv(file: &Path, cwd: &Path) -> Result<Vec<Entry>, Problems> {
    let shown = file.display().to_string();
    let text = std::fs::read(file).map_err(|e| vec![format!("{shown}: cannot read: {e}")])?;
    let text = String::from_utf8(text).map_err(|e| {
        vec![format!(
            "{shown}: not UTF-8 text (byte {})",
            e.utf8_error().valid_up_to()
        )]
    })?;
    // A spreadsheet's "CSV UTF-8" starts with a byte-order mark, which is
    // not part of the first field (else a header is taken for a bot).
    let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
    let base = cwd
        .join(file)
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_default();
    let mut entries = Vec::new();
    let mut problems = Vec::new();
    for record in records(text) {
        let at = format!("{shown}:{}", record.line);
        let fields = match record.fields {
            Ok(fields) => fields,
            Err(e) => {
                problems.push(format!("{at}: {e}"));
                continue;
            }
        };
        if fields.iter().all(|f| f.trim().is_empty()) || fields[0].trim_start().starts_with('#') {
            continue;
        }
        if entries.is_empty() && problems.is_empty() && is_header(&fields) {
            continue;
        }
        match csv_entry(&fields, &base, &at) {
            Ok(entry) => entries.push(entry),
            Err(e) => problems.push(format!("{at}: {e}")),
        }
    }
    problems.extend(duplicates(&entries));
    if problems.is_empty() && entries.is_empty() {
        problems.push(format!("{shown}: the roster names no bot"));
    }
    if problems.is_empty() {
        Ok(entries)
    } else {
        Err(problems)
    }
}

fn is_header(fields: &[String]) -> bool {
    fields.len() >= 2
        && fields[0].trim().eq_ignore_ascii_case("id")
        && fields[1].trim().eq_ignore_ascii_case("command")
}

fn csv_entry(fields: &[String], base: &Path, at: &str) -> Result<Entry, String> {
    if fields.len() < 2 || fields.len() > 3 {
        return Err(format!(
            "expected `id,command[,workdir]`, found {} field{}",
            fields.len(),
            if fields.len() == 1 { "" } else { "s" }
        ));
    }
    let id = fields[0].trim().to_string();
    check_id(&id)?;
    let command = shell_words::split(&fields[1])
        .map_err(|e| format!("the command `{}` does not parse: {e}", fields[1]))?;
    let program = command
        .first()
        .ok_or_else(|| "the command is empty: it names no executable".to_string())?;
    let workdir = match fields.get(2).map(|w| w.trim()).filter(|w| !w.is_empty()) {
        Some(w) => base.join(w),
        None if program.contains('/') => base
            .join(program)
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_else(|| base.to_path_buf()),
        None => base.to_path_buf(),
    };
    let workdir = std::fs::canonicalize(&workdir)
        .ok()
        .filter(|w| w.is_dir())
        .ok_or_else(|| format!("the working folder `{}` does not exist", workdir.display()))?;
    // A program named by path is taken from the working folder, as the
    // child protocheck (run there) will take it.
    let program_path = if program.contains('/') {
        Some(workdir_relative(program, &workdir, base))
    } else if workdir.join(program).is_file() {
        Some(workdir.join(program))
    } else {
        None
    };
    let mut command = command.clone();
    let files = match program_path {
        Some(path) => {
            let checked = check_program(&path).map_err(|e| format!("`{program}` {e}"))?;
            command[0] = checked.display().to_string();
            let mut files = vec![checked];
            files.extend(arguments_that_are_files(&command[1..], &workdir));
            files
        }
        None => {
            if !on_path(program) {
                return Err(format!(
                    "`{program}` names no executable: not a file in {} and not found in PATH",
                    workdir.display()
                ));
            }
            // An interpreter: the bot is the script it is given.
            arguments_that_are_files(&command[1..], &workdir)
        }
    };
    Ok(Entry {
        id,
        command,
        workdir,
        origin: at.to_string(),
        files,
    })
}

/// `./bot` in the command means the working folder's `bot` when a workdir
/// is given; otherwise the path is relative to the CSV's folder.
fn workdir_relative(program: &str, workdir: &Path, base: &Path) -> PathBuf {
    let in_workdir = workdir.join(program);
    if in_workdir.exists() {
        in_workdir
    } else {
        base.join(program)
    }
}

fn arguments_that_are_files(args: &[String], workdir: &Path) -> Vec<PathBuf> {
    args.iter()
        .map(|a| workdir.join(a))
        .filter(|p| p.is_file())
        .collect()
}

fn on_path(program: &str) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::env::var_os("PATH").is_some_and(|path| {
        std::env::split_paths(&path).any(|dir| {
            std::fs::metadata(dir.join(program))
                .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
        })
    })
}

/// One CSV record and the line it starts on.
struct Record {
    line: usize,
    fields: Result<Vec<String>, String>,
}

/// RFC 4180 records: fields separated by commas, optionally in double
/// quotes (a quoted field may hold commas, newlines and `""` for a quote).
fn records(text: &str) -> Vec<Record> {
    let mut records = Vec::new();
    let mut chars = text.chars().peekable();
    let mut line = 1;
    while chars.peek().is_some() {
        let start = line;
        let mut fields = Vec::new();
        let mut field = String::new();
        let mut error = None;
        loop {
            match chars.next() {
                None => break,
                Some('\n') => {
                    line += 1;
                    break;
                }
                Some('\r') if chars.peek() == Some(&'\n') => {}
                Some(',') => fields.push(std::mem::take(&mut field)),
                Some('"') if field.trim().is_empty() => {
                    field.clear();
                    loop {
                        match chars.next() {
                            None => {
                                error = Some("a quoted field is not closed".to_string());
                                break;
                            }
                            Some('"') if chars.peek() == Some(&'"') => {
                                chars.next();
                                field.push('"');
                            }
                            Some('"') => break,
                            Some(c) => {
                                if c == '\n' {
                                    line += 1;
                                }
                                field.push(c);
                            }
                        }
                    }
                    while chars.peek().is_some_and(|c| *c == ' ' || *c == '\t') {
                        chars.next();
                    }
                    if !matches!(chars.peek(), None | Some(',') | Some('\n') | Some('\r'))
                        && error.is_none()
                    {
                        error = Some(
                            "text after a closing quote (write `\"\"` for a quote inside quotes)"
                                .into(),
                        );
                    }
                }
                Some(c) => field.push(c),
            }
        }
        fields.push(field);
        records.push(Record {
            line: start,
            fields: match error {
                Some(e) => Err(e),
                None => Ok(fields),
            },
        });
    }
    records
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fields(text: &str) -> Vec<(usize, Result<Vec<String>, String>)> {
        records(text)
            .into_iter()
            .map(|r| (r.line, r.fields))
            .collect()
    }

    #[test]
    fn quoted_fields_hold_commas_quotes_and_newlines() {
        let got = fields("a,\"b, c\",\"say \"\"hi\"\"\"\r\nx,\"two\nlines\",z\nlast,1");
        assert_eq!(
            got[0],
            (1, Ok(vec!["a".into(), "b, c".into(), "say \"hi\"".into()]))
        );
        assert_eq!(
            got[1],
            (2, Ok(vec!["x".into(), "two\nlines".into(), "z".into()]))
        );
        assert_eq!(got[2], (4, Ok(vec!["last".into(), "1".into()])));
    }

    #[test]
    fn an_unclosed_quote_is_an_error_at_its_line() {
        let got = fields("a,b\nc,\"open\n");
        assert_eq!(got[0].1, Ok(vec!["a".into(), "b".into()]));
        assert_eq!(got[1].0, 2);
        assert!(got[1].1.as_ref().unwrap_err().contains("not closed"));
    }

    #[test]
    fn a_symlinked_bot_is_named_by_its_own_folder() {
        let dir =
            std::env::temp_dir().join(format!("protocheck-roster-link-{}", std::process::id()));
        let shared = dir.join("build");
        std::fs::create_dir_all(&shared).unwrap();
        let exe = shared.join("bot");
        std::fs::write(&exe, "#!/bin/sh\n").unwrap();
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&exe, std::fs::Permissions::from_mode(0o755)).unwrap();
        for id in ["ann", "ben"] {
            std::fs::create_dir_all(dir.join("subs").join(id)).unwrap();
            std::os::unix::fs::symlink(&exe, dir.join("subs").join(id).join("bot")).unwrap();
        }
        let entries = from_paths(&["subs/*/./bot".into()], &dir).unwrap();
        let ids: Vec<&str> = entries.iter().map(|e| e.id.as_str()).collect();
        assert_eq!(ids, ["ann", "ben"]);
        assert_eq!(entries[0].workdir, dir.join("subs/ann"));
        assert_eq!(
            entries[0].command,
            [dir.join("subs/ann/bot").display().to_string()]
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_byte_order_mark_before_the_header_is_no_part_of_it() {
        use std::os::unix::fs::PermissionsExt;
        let dir =
            std::env::temp_dir().join(format!("protocheck-roster-bom-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("alice")).unwrap();
        let exe = dir.join("alice/bot");
        std::fs::write(&exe, "#!/bin/sh\n").unwrap();
        std::fs::set_permissions(&exe, std::fs::Permissions::from_mode(0o755)).unwrap();
        // As a spreadsheet saves "CSV UTF-8": BOM, header, CRLF lines.
        std::fs::write(
            dir.join("roster.csv"),
            "\u{feff}id,command,workdir\r\nalice,./bot,alice\r\n",
        )
        .unwrap();
        let entries = from_csv(&dir.join("roster.csv"), &dir).unwrap();
        let ids: Vec<&str> = entries.iter().map(|e| e.id.as_str()).collect();
        assert_eq!(ids, ["alice"]);
        // Without a header, the first bot's id does not carry the mark.
        std::fs::write(dir.join("roster.csv"), "\u{feff}alice,./bot,alice\n").unwrap();
        let entries = from_csv(&dir.join("roster.csv"), &dir).unwrap();
        assert_eq!(entries[0].id, "alice");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn ids_that_would_escape_the_output_folder_are_refused() {
        for bad in ["", ".hidden", "..", "a/b", "a\\b", "tab\there"] {
            assert!(check_id(bad).is_err(), "{bad:?}");
        }
        for good in ["alice", "bob.smith@uni", "<b>&co"] {
            assert!(check_id(good).is_ok(), "{good:?}");
        }
    }
}
