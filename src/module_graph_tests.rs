//! No import circles among the top-level modules of `src/` (issue 31): a
//! source scan of every `crate::X` (and `super::` up to the crate root) per
//! module, test-only code left out, fails on a cycle and names it, with the
//! file of each import on it.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Imports allowed to close a circle, each for a reason said here. Each
/// must still exist, so an exception goes as soon as it is no longer
/// needed. None now: the commands' imports of `cli` went when the commands
/// became library functions behind a thin command line (issue 31).
const ALLOWED: &[(&str, &str)] = &[];

/// For each module, the modules it imports, each with the first file that
/// does (`from -> to -> file`).
type Edges = BTreeMap<String, BTreeMap<String, String>>;

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

/// The top-level modules this source (of the module at `path`: `games`,
/// `kalah`, `session`) names through `crate::` or enough `super::`s.
fn imports(text: &str, path: &[String]) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    let b = text.as_bytes();
    let ident = |from: usize| -> &str {
        let end = text[from..]
            .find(|c: char| !(c.is_alphanumeric() || c == '_'))
            .map_or(text.len(), |e| from + e);
        &text[from..end]
    };
    let mut i = 0;
    while i < b.len() {
        let boundary =
            i == 0 || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_' || b[i - 1] == b':');
        if boundary && b[i..].starts_with(b"crate::") {
            let at = i + "crate::".len();
            if b.get(at) == Some(&b'{') {
                // `crate::{a::b, c}`: the first name of each part at depth 1.
                let mut depth = 0;
                let mut expect_name = true;
                for (j, c) in text[at..].char_indices() {
                    match c {
                        '{' => {
                            depth += 1;
                            expect_name = depth == 1;
                        }
                        '}' => {
                            depth -= 1;
                            if depth == 0 {
                                break;
                            }
                        }
                        ',' if depth == 1 => expect_name = true,
                        c if expect_name && depth == 1 && (c.is_alphanumeric() || c == '_') => {
                            found.insert(ident(at + j).to_string());
                            expect_name = false;
                        }
                        _ => {}
                    }
                }
            } else {
                found.insert(ident(at).to_string());
            }
            i = at;
            continue;
        }
        if boundary && b[i..].starts_with(b"super::") {
            let mut at = i;
            let mut ups = 0;
            while b[at..].starts_with(b"super::") {
                at += "super::".len();
                ups += 1;
            }
            if ups >= path.len() {
                found.insert(ident(at).to_string());
            }
            i = at;
            continue;
        }
        i += 1;
    }
    found.remove("");
    found.remove("self");
    found
}

/// The imports between the top-level modules of the sources under `src`
/// (paths relative to it, `/`-separated), test-only code left out.
fn edges(files: &BTreeMap<String, String>) -> Edges {
    let mut cleaned = BTreeMap::new();
    let mut test_files = Vec::new();
    for (path, text) in files {
        let (code, test_modules) = without_tests(&strip(text));
        let dir = match path.rsplit_once('/') {
            Some((dir, "mod.rs" | "lib.rs" | "main.rs")) => dir.to_string(),
            Some((dir, file)) => format!("{dir}/{}", file.trim_end_matches(".rs")),
            None if matches!(path.as_str(), "lib.rs" | "main.rs") => String::new(),
            None => path.trim_end_matches(".rs").to_string(),
        };
        for m in test_modules {
            let prefix = if dir.is_empty() {
                m
            } else {
                format!("{dir}/{m}")
            };
            test_files.push(prefix);
        }
        cleaned.insert(path.clone(), code);
    }
    let mut edges = Edges::new();
    for (path, code) in &cleaned {
        let test_only = test_files
            .iter()
            .any(|t| path == &format!("{t}.rs") || path.starts_with(&format!("{t}/")));
        if test_only || matches!(path.as_str(), "lib.rs" | "main.rs") {
            continue;
        }
        let mut module: Vec<String> = path
            .trim_end_matches(".rs")
            .split('/')
            .map(str::to_string)
            .collect();
        if module.last().is_some_and(|m| m == "mod") {
            module.pop();
        }
        let from = module[0].clone();
        for to in imports(code, &module) {
            if to != from {
                edges
                    .entry(from.clone())
                    .or_default()
                    .entry(to)
                    .or_insert_with(|| path.clone());
            }
        }
    }
    edges
}

/// One cycle through each group of modules that import each other
/// (`a -> b -> a`), each import with the file that makes it.
fn cycles(edges: &Edges) -> Vec<Vec<(String, String, String)>> {
    let mut found: Vec<Vec<(String, String, String)>> = Vec::new();
    let mut seen_in_cycle = BTreeSet::new();
    for start in edges.keys() {
        if seen_in_cycle.contains(start) {
            continue;
        }
        // Breadth-first from `start` back to it: the shortest cycle.
        let mut came_from: BTreeMap<&str, &str> = BTreeMap::new();
        let mut queue = std::collections::VecDeque::from([start.as_str()]);
        let mut closed = None;
        while let Some(m) = queue.pop_front() {
            for to in edges.get(m).into_iter().flat_map(|t| t.keys()) {
                if to == start {
                    closed = Some(m);
                    break;
                }
                if !came_from.contains_key(to.as_str()) {
                    came_from.insert(to, m);
                    queue.push_back(to);
                }
            }
            if closed.is_some() {
                break;
            }
        }
        let Some(last) = closed else { continue };
        let mut path = vec![start.as_str(), last];
        let mut at = last;
        while at != start {
            at = came_from[at];
            path.push(at);
        }
        path.reverse();
        let cycle: Vec<(String, String, String)> = path
            .windows(2)
            .map(|w| {
                (
                    w[0].to_string(),
                    w[1].to_string(),
                    edges[w[0]][w[1]].clone(),
                )
            })
            .collect();
        for (m, _, _) in &cycle {
            seen_in_cycle.insert(m.clone());
        }
        found.push(cycle);
    }
    found
}

pub(crate) fn read_tree(root: &Path) -> BTreeMap<String, String> {
    let mut files = BTreeMap::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap().flatten() {
            let p = entry.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|e| e == "rs") {
                let rel = p
                    .strip_prefix(root)
                    .unwrap()
                    .to_string_lossy()
                    .replace('\\', "/");
                files.insert(rel, std::fs::read_to_string(&p).unwrap());
            }
        }
    }
    files
}

fn shown(cycle: &[(String, String, String)]) -> String {
    let mut line = cycle[0].0.clone();
    for (_, to, _) in cycle {
        line.push_str(&format!(" -> {to}"));
    }
    let files: Vec<String> = cycle
        .iter()
        .map(|(from, to, file)| format!("    {from} -> {to}: src/{file}"))
        .collect();
    format!("{line}\n{}", files.join("\n"))
}

#[test]
fn no_import_cycles_among_the_top_level_modules() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut edges = edges(&read_tree(&src));
    for (from, to) in ALLOWED {
        assert!(
            edges.get_mut(*from).and_then(|t| t.remove(*to)).is_some(),
            "`{from}` no longer imports `{to}`: remove the exception from ALLOWED"
        );
    }
    let found = cycles(&edges);
    assert!(
        found.is_empty(),
        "import cycles among the modules of src/ (move what both sides need to the lower one):\n{}",
        found
            .iter()
            .map(|c| shown(c))
            .collect::<Vec<_>>()
            .join("\n")
    );
}

#[test]
fn a_cycle_is_found_and_named_with_its_files() {
    let files: BTreeMap<String, String> = [
        ("lib.rs", "pub mod a;\npub mod b;\npub mod c;\n"),
        ("a/mod.rs", "use crate::b::Thing;\n"),
        ("b.rs", "pub fn f() { crate::c::g() }\n"),
        ("c/inner.rs", "use super::super::a;\n"),
    ]
    .into_iter()
    .map(|(p, t)| (p.to_string(), t.to_string()))
    .collect();
    let found = cycles(&edges(&files));
    assert_eq!(found.len(), 1);
    assert_eq!(
        shown(&found[0]),
        "a -> b -> c -> a\n    a -> b: src/a/mod.rs\n    b -> c: src/b.rs\n    c -> a: src/c/inner.rs"
    );
}

#[test]
fn comments_strings_and_test_code_import_nothing() {
    let files: BTreeMap<String, String> = [
        (
            "a.rs",
            concat!(
                "use crate::{b::{x, y}, c};\n",
                "// crate::d::nothing\n",
                "/* crate::d::nothing */\n",
                "const S: &str = \"crate::d::nothing\";\n",
                "const R: &str = r#\"crate::d::\"nothing\"#;\n",
                "const Q: char = '\"'; fn f<'a>(x: &'a str) {}\n",
                "#[cfg(test)]\nmod tests { use crate::d::Thing; }\n",
                "#[cfg(all(test, target_os = \"linux\"))]\nfn g() { crate::d::h() }\n",
                "#[cfg(test)]\npub(crate) mod more_tests;\n",
                "#[cfg(unix)]\nfn kept() { crate::e::f() }\n",
            ),
        ),
        ("a/more_tests.rs", "use crate::d::Other;\n"),
    ]
    .into_iter()
    .map(|(p, t)| (p.to_string(), t.to_string()))
    .collect();
    let edges = edges(&files);
    let found: Vec<&String> = edges["a"].keys().collect();
    assert_eq!(found, ["b", "c", "e"]);
}
