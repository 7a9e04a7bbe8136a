//! Reading a Rust source for the module graph: comments, literals and
//! test-only code left out, then every `crate::`/`super::`/`self::` path it
//! names (use trees expanded, inline modules followed) and its `pub use`
//! re-exports.

/// A module's path from the crate root (`["transport", "sandbox"]`).
pub(super) type Module = Vec<String>;

/// The source without comments, string and character literals (their
/// contents could look like paths). Every line break is kept, so a line
/// number in the result is one in the source (`typed_errors_tests`).
pub(crate) fn strip(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'/' if b.get(i + 1) == Some(&b'/') => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                let mut depth = 0;
                while i < b.len() {
                    if b[i..].starts_with(b"/*") {
                        depth += 1;
                        i += 2;
                    } else if b[i..].starts_with(b"*/") {
                        depth -= 1;
                        i += 2;
                        if depth == 0 {
                            break;
                        }
                    } else {
                        i += 1;
                    }
                }
            }
            b'r' if matches!(b.get(i + 1), Some(b'"' | b'#'))
                && (i == 0 || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_')) =>
            {
                let hashes = b[i + 1..].iter().take_while(|&&c| c == b'#').count();
                if b.get(i + 1 + hashes) != Some(&b'"') {
                    out.push('r');
                    i += 1;
                    continue;
                }
                let close: Vec<u8> = std::iter::once(b'"')
                    .chain(std::iter::repeat_n(b'#', hashes))
                    .collect();
                i += 2 + hashes;
                while i < b.len() && !b[i..].starts_with(&close) {
                    i += 1;
                }
                i += close.len();
                out.push_str("\"\"");
            }
            b'"' => {
                i += 1;
                while i < b.len() && b[i] != b'"' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
                i += 1;
                out.push_str("\"\"");
            }
            // A character literal ('a', '\n', '"'), not a lifetime ('a).
            b'\'' if b.get(i + 1) == Some(&b'\\') => {
                i += 2;
                while i < b.len() && b[i] != b'\'' {
                    i += 1;
                }
                i += 1;
            }
            b'\'' if b.get(i + 2) == Some(&b'\'') => i += 3,
            c => {
                // Keep every line break, so nothing else moves.
                let len = text[i..].chars().next().map_or(1, char::len_utf8);
                if c.is_ascii() {
                    out.push(c as char);
                } else {
                    out.push_str(&text[i..i + len]);
                }
                i += len;
            }
        }
    }
    out
}

/// The source without its test-only items (`#[cfg(test)]` or
/// `#[cfg(all(test, …))]`), and the names of the test-only modules it
/// declares in files of their own. The line breaks of what goes stay, so
/// lines keep their numbers (`typed_errors_tests` names them).
pub(crate) fn without_tests(text: &str) -> (String, Vec<String>) {
    let mut out = String::new();
    let mut test_modules = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find("#[cfg(") {
        out.push_str(&rest[..at]);
        let attr_end = rest[at..].find(']').map_or(rest.len(), |e| at + e + 1);
        let attr = &rest[at..attr_end];
        let test_only = attr.starts_with("#[cfg(test)") || attr.starts_with("#[cfg(all(test");
        if !test_only {
            out.push_str(attr);
            rest = &rest[attr_end..];
            continue;
        }
        let item = &rest[attr_end..];
        let trimmed = item.trim_start();
        // `mod name;`, after any visibility (`pub(crate)`).
        let mut words = trimmed
            .split(|c: char| !(c.is_alphanumeric() || c == '_'))
            .filter(|w| !w.is_empty())
            .skip_while(|w| matches!(*w, "pub" | "crate" | "super" | "in" | "self"));
        let module = match (words.next(), words.next()) {
            (Some("mod"), Some(name)) => Some(name),
            _ => None,
        };
        // The item ends at its `;` or its closing brace, whichever comes
        // first at depth 0.
        let mut depth = 0usize;
        let mut end = item.len();
        for (i, c) in item.char_indices() {
            match c {
                '{' => depth += 1,
                '}' => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        end = i + 1;
                        break;
                    }
                }
                ';' if depth == 0 => {
                    if let Some(name) = module {
                        test_modules.push(name.to_string());
                    }
                    end = i + 1;
                    break;
                }
                _ => {}
            }
        }
        out.extend(rest[at..attr_end + end].matches('\n').map(|_| '\n'));
        rest = &item[end..];
    }
    out.push_str(rest);
    (out, test_modules)
}

/// The files (relative to `src`) that `#[cfg(test)] #[path = "…"] mod x;`
/// declares, read from the source before its strings are stripped.
pub(crate) fn test_path_files(path: &str, raw: &str) -> Vec<String> {
    let dir = path.rsplit_once('/').map_or("", |(dir, _)| dir);
    let mut found = Vec::new();
    let mut rest = raw;
    while let Some(at) = rest.find("#[cfg(test)]") {
        let after = rest[at + "#[cfg(test)]".len()..].trim_start();
        rest = &rest[at + 1..];
        let Some(value) = after.strip_prefix("#[path") else {
            continue;
        };
        let value = value.trim_start().trim_start_matches('=').trim_start();
        let Some(value) = value.strip_prefix('"') else {
            continue;
        };
        if let Some(end) = value.find('"') {
            let file = &value[..end];
            found.push(if dir.is_empty() {
                file.to_string()
            } else {
                format!("{dir}/{file}")
            });
        }
    }
    found
}

/// The module a file is (`transport/idle.rs` and `transport/idle/mod.rs`:
/// `["transport", "idle"]`; `lib.rs`: the root).
pub(super) fn module_of(path: &str) -> Module {
    let mut module: Module = path
        .trim_end_matches(".rs")
        .split('/')
        .map(str::to_string)
        .collect();
    if module
        .last()
        .is_some_and(|m| matches!(m.as_str(), "mod" | "lib" | "main"))
    {
        module.pop();
    }
    module
}

fn is_ident(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

fn skip_space(b: &[u8], mut i: usize) -> usize {
    while i < b.len() && b[i].is_ascii_whitespace() {
        i += 1;
    }
    i
}

/// The paths of the use tree (or plain path) at `i`, each as its
/// segments (`a::{b::c, d}`: `a::b::c` and `a::d`; a trailing `self` and a
/// glob leave the path before them), and where it ends.
fn use_tree(text: &str, mut i: usize) -> (Vec<Vec<String>>, usize) {
    let b = text.as_bytes();
    let mut segments: Vec<String> = Vec::new();
    loop {
        i = skip_space(b, i);
        if b.get(i) == Some(&b'{') {
            let mut paths = Vec::new();
            i += 1;
            loop {
                i = skip_space(b, i);
                match b.get(i) {
                    None => return (paths, i),
                    Some(b'}') => return (paths, i + 1),
                    Some(b',') => i += 1,
                    Some(_) => {
                        let (inner, end) = use_tree(text, i);
                        for p in inner {
                            paths.push(segments.iter().cloned().chain(p).collect());
                        }
                        // A stray character never stops the scan.
                        i = if end > i { end } else { i + 1 };
                    }
                }
            }
        }
        let start = i;
        while i < b.len() && is_ident(b[i]) {
            i += 1;
        }
        if i == start {
            return (vec![segments], i);
        }
        let word = &text[start..i];
        if word != "self" || segments.is_empty() {
            segments.push(word.to_string());
        }
        let next = skip_space(b, i);
        if b[next..].starts_with(b"::") {
            i = next + 2;
        } else {
            return (vec![segments], i);
        }
    }
}

/// The path `segments` names from inside module `at`, from the crate
/// root (`None`: a path that does not start at the crate, `self` or
/// `super`).
pub(super) fn absolute(at: &[String], segments: &[String]) -> Option<Module> {
    let mut out: Module;
    let mut rest = segments;
    match rest.first().map(String::as_str) {
        Some("crate") => {
            out = Vec::new();
            rest = &rest[1..];
        }
        Some("self") => {
            out = at.to_vec();
            rest = &rest[1..];
        }
        Some("super") => {
            out = at.to_vec();
            while rest.first().is_some_and(|s| s == "super") {
                out.pop()?;
                rest = &rest[1..];
            }
        }
        _ => return None,
    }
    out.extend(rest.iter().filter(|s| *s != "self").cloned());
    Some(out)
}

/// What one cleaned source says: the paths it names (each with the module
/// it is named from), its inline modules, and its re-exports (`pub use`:
/// the name in its module, and the path it stands for).
#[derive(Default)]
pub(super) struct Scan {
    pub(super) paths: Vec<(Module, Vec<String>)>,
    pub(super) inline: Vec<Module>,
    pub(super) reexports: Vec<(Module, String, Vec<String>)>,
}

pub(super) fn scan(code: &str, file_module: &[String]) -> Scan {
    let mut out = Scan::default();
    let b = code.as_bytes();
    // The inline modules the scan is in, each with the depth of its brace.
    let mut inline: Vec<(String, usize)> = Vec::new();
    let mut depth = 0usize;
    let here = |inline: &[(String, usize)]| -> Module {
        file_module
            .iter()
            .cloned()
            .chain(inline.iter().map(|(m, _)| m.clone()))
            .collect()
    };
    let word_at = |i: usize, word: &str| -> bool {
        b[i..].starts_with(word.as_bytes())
            && (i == 0 || !is_ident(b[i - 1]))
            && b.get(i + word.len()).is_none_or(|&c| !is_ident(c))
    };
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'{' => {
                depth += 1;
                i += 1;
                continue;
            }
            b'}' => {
                if inline.last().is_some_and(|(_, d)| *d == depth) {
                    inline.pop();
                }
                depth = depth.saturating_sub(1);
                i += 1;
                continue;
            }
            _ => {}
        }
        if word_at(i, "mod") {
            let name_start = skip_space(b, i + 3);
            let mut name_end = name_start;
            while name_end < b.len() && is_ident(b[name_end]) {
                name_end += 1;
            }
            let open = skip_space(b, name_end);
            if name_end > name_start && b.get(open) == Some(&b'{') {
                inline.push((code[name_start..name_end].to_string(), depth + 1));
                out.inline.push(here(&inline));
                depth += 1;
                i = open + 1;
                continue;
            }
        }
        if word_at(i, "use") {
            // `pub use` / `pub(crate) use`: a re-export.
            let before = code[..i].trim_end();
            let public = before.ends_with("pub")
                || (before.ends_with(')') && {
                    let open = before.rfind('(').unwrap_or(0);
                    code[..open].trim_end().ends_with("pub")
                });
            let (paths, end) = use_tree(code, i + 3);
            let module = here(&inline);
            if public {
                for p in &paths {
                    // The name it is known by: an `as` alias, or its last segment.
                    let after = code[end..].trim_start();
                    let name = match after.strip_prefix("as ") {
                        Some(alias) if paths.len() == 1 => alias
                            .trim_start()
                            .split(|c: char| !(c.is_alphanumeric() || c == '_'))
                            .next()
                            .unwrap_or_default()
                            .to_string(),
                        _ => p.last().cloned().unwrap_or_default(),
                    };
                    if !name.is_empty() {
                        out.reexports.push((module.clone(), name, p.clone()));
                    }
                }
            }
            for p in paths {
                out.paths.push((module.clone(), p));
            }
            i = end.max(i + 3);
            continue;
        }
        let boundary = i == 0 || !(is_ident(b[i - 1]) || b[i - 1] == b':');
        if boundary
            && (b[i..].starts_with(b"crate::")
                || b[i..].starts_with(b"super::")
                || b[i..].starts_with(b"self::"))
        {
            let (paths, end) = use_tree(code, i);
            let module = here(&inline);
            for p in paths {
                out.paths.push((module.clone(), p));
            }
            i = end.max(i + 1);
            continue;
        }
        i += 1;
    }
    out
}
