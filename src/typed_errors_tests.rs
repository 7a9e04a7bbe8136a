//! Every public fallible function returns a typed error (issue 31): a
//! source scan of `src/` fails on each non-test function with a visibility
//! modifier (`pub`, `pub(crate)`, `pub(super)`…), and each method declared
//! in a `pub trait`, whose return type holds a `Result<…, String>`, and
//! names it with its file and line.

use crate::module_graph_tests::read_tree;
use crate::module_graph_tests::source::{strip, test_path_files, without_tests};
use std::collections::BTreeMap;
use std::path::Path;

/// `file:line: fn name` for each offender among `files` (paths under
/// `src/`, `/`-separated), test-only code left out.
fn offenders(files: &BTreeMap<String, String>) -> Vec<String> {
    let mut cleaned = BTreeMap::new();
    let mut test_files = Vec::new();
    // `#[cfg(test)] #[path = "table_tests.rs"] mod tests;`: named as files.
    let mut test_path: Vec<String> = Vec::new();
    for (path, text) in files {
        test_path.extend(test_path_files(path, text));
        let (code, test_modules) = without_tests(&strip(text));
        let dir = match path.rsplit_once('/') {
            Some((dir, "mod.rs" | "lib.rs" | "main.rs")) => dir.to_string(),
            Some((dir, file)) => format!("{dir}/{}", file.trim_end_matches(".rs")),
            None if matches!(path.as_str(), "lib.rs" | "main.rs") => String::new(),
            None => path.trim_end_matches(".rs").to_string(),
        };
        for m in test_modules {
            test_files.push(if dir.is_empty() {
                m
            } else {
                format!("{dir}/{m}")
            });
        }
        cleaned.insert(path.clone(), code);
    }
    let mut found = Vec::new();
    for (path, code) in &cleaned {
        let test_only = test_path.contains(path)
            || test_files
                .iter()
                .any(|t| path == &format!("{t}.rs") || path.starts_with(&format!("{t}/")));
        if test_only {
            continue;
        }
        for (line, name) in string_errors(code) {
            found.push(format!("src/{path}:{line}: fn {name}"));
        }
    }
    found
}

/// The line and name of each function in `code` (comments, literals and
/// test code already gone) that is public or declared in a `pub trait` and
/// returns a `Result<…, String>`.
fn string_errors(code: &str) -> Vec<(usize, String)> {
    let traits = pub_trait_bodies(code);
    let mut found = Vec::new();
    for at in word_starts(code, "fn") {
        let after = &code[at + 2..];
        let name: String = after
            .trim_start()
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        // `fn(u8) -> T` is a type, not a function.
        if name.is_empty() || !after.starts_with(char::is_whitespace) {
            continue;
        }
        let public = is_public(&code[..at]) || traits.iter().any(|r| r.contains(&at));
        if public && returns_string_error(signature_return(after)) {
            found.push((code[..at].matches('\n').count() + 1, name));
        }
    }
    found
}

/// The byte offsets in `code` where the word `word` starts.
fn word_starts(code: &str, word: &str) -> Vec<usize> {
    let ident = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
    code.match_indices(word)
        .map(|(at, _)| at)
        .filter(|&at| {
            !ident(code[..at].chars().next_back()) && !ident(code[at + word.len()..].chars().next())
        })
        .collect()
}

/// Whether the item whose `fn` follows `before` has a visibility modifier,
/// over any `const`, `async`, `unsafe` or `extern ""` in between.
fn is_public(before: &str) -> bool {
    let mut rest = before.trim_end();
    loop {
        let stripped = ["const", "async", "unsafe", "\"\"", "extern"]
            .iter()
            .find_map(|q| rest.strip_suffix(q));
        match stripped {
            Some(r) => rest = r.trim_end(),
            None => break,
        }
    }
    if let Some(r) = rest.strip_suffix(')') {
        // `pub(crate)`, `pub(super)`, `pub(in path)`.
        return r
            .rfind('(')
            .is_some_and(|open| r[..open].trim_end().ends_with("pub"));
    }
    rest.ends_with("pub")
        && !rest[..rest.len() - 3]
            .chars()
            .next_back()
            .is_some_and(|c| c.is_alphanumeric() || c == '_')
}

/// The byte ranges of the bodies of the `pub trait`s (any visibility) in
/// `code`.
fn pub_trait_bodies(code: &str) -> Vec<std::ops::Range<usize>> {
    let mut bodies = Vec::new();
    for at in word_starts(code, "trait") {
        if !is_public(&code[..at]) {
            continue;
        }
        let Some(open) = code[at..].find('{').map(|o| at + o) else {
            continue;
        };
        let mut depth = 0usize;
        for (i, c) in code[open..].char_indices() {
            match c {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        bodies.push(open..open + i);
                        break;
                    }
                }
                _ => {}
            }
        }
    }
    bodies
}

/// The return type of the signature that `after` (the text after `fn`)
/// begins: from the `->` after the parameters to the body, the `;` or the
/// `where`; empty when there is none.
fn signature_return(after: &str) -> &str {
    let (mut depth, mut arrow) = (0i32, None);
    let bytes = after.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            // An arrow inside the generics or the parameters is some
            // closure's or function pointer's, not this function's.
            b'-' if bytes.get(i + 1) == Some(&b'>') => {
                if depth == 0 && arrow.is_none() {
                    arrow = Some(i + 2);
                }
                i += 1;
            }
            b'(' | b'[' | b'<' => depth += 1,
            b')' | b']' | b'>' => depth -= 1,
            b'{' | b';' if depth == 0 => {
                let ret = arrow.map_or("", |a| &after[a..i]);
                return word_starts(ret, "where")
                    .first()
                    .map_or(ret, |w| &ret[..*w]);
            }
            _ => {}
        }
        i += 1;
    }
    ""
}

/// Whether `ty` holds a `Result` whose error type is `String`.
fn returns_string_error(ty: &str) -> bool {
    // Without spaces or a trailing comma: `Result<\n    T,\n    String,\n>`.
    let ty: String = ty.chars().filter(|c| !c.is_whitespace()).collect();
    let ty = ty.replace(",>", ">");
    word_starts(&ty, "Result").into_iter().any(|at| {
        let Some(args) = ty[at + "Result".len()..].strip_prefix('<') else {
            return false;
        };
        // The arguments up to the matching `>`, split at the top level.
        let (mut depth, mut last) = (0i32, 0);
        for (i, c) in args.char_indices() {
            match c {
                '<' | '(' | '[' => depth += 1,
                ')' | ']' => depth -= 1,
                ',' if depth == 0 => last = i + 1,
                '>' if depth == 0 => return &args[last..i] == "String" && last > 0,
                '>' => depth -= 1,
                _ => {}
            }
        }
        false
    })
}

#[test]
fn no_public_function_returns_a_string_error() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let files: BTreeMap<String, String> = read_tree(&src).into_iter().collect();
    let found = offenders(&files);
    assert!(
        found.is_empty(),
        "public functions that return `Result<_, String>` (return a thiserror enum of the module, issue 31):\n{}",
        found.join("\n")
    );
}

#[test]
fn each_public_string_error_is_named_with_its_file_and_line() {
    let files: BTreeMap<String, String> = [
        (
            "a.rs",
            concat!(
                "pub fn one() -> Result<(), String> { todo!() }\n",
                "pub(crate) fn two(\n    x: u8,\n) -> Result<\n    Vec<u8>,\n    String,\n> {\n",
                "    todo!()\n}\n",
                "pub(super) const fn three() -> Option<Result<(Option<String>, u8),String>>;\n",
                "pub trait Backend {\n    fn four(&mut self) -> Result<String, String>;\n",
                "    fn fine(&self) -> Result<(), Error>;\n}\n",
                "pub(in crate::a) async unsafe fn five<T: Fn() -> u8>() -> Result<T, String> where T: Default { todo!() }\n",
            ),
        ),
        ("b/mod.rs", "pub fn six() -> std::result::Result<u8, String> { todo!() }\n"),
    ]
    .into_iter()
    .map(|(p, t)| (p.to_string(), t.to_string()))
    .collect();
    assert_eq!(
        offenders(&files),
        [
            "src/a.rs:1: fn one",
            "src/a.rs:2: fn two",
            "src/a.rs:10: fn three",
            "src/a.rs:12: fn four",
            "src/a.rs:15: fn five",
            "src/b/mod.rs:1: fn six",
        ]
    );
}

#[test]
fn private_test_and_typed_functions_pass_the_scan() {
    let files: BTreeMap<String, String> = [
        (
            "a.rs",
            concat!(
                "fn private() -> Result<(), String> { todo!() }\n",
                "// pub fn comment() -> Result<(), String>\n",
                "const S: &str = \"pub fn literal() -> Result<(), String>\";\n",
                "pub fn typed(s: String) -> Result<String, Error> { todo!() }\n",
                "pub fn takes(f: impl Fn() -> Result<(), String>) -> u8 { todo!() }\n",
                "pub fn pointer(f: fn(u8) -> Result<(), String>) {}\n",
                "pub fn no_result() -> String { todo!() }\n",
                "trait Private { fn m(&self) -> Result<(), String>; }\n",
                "impl Private for u8 { fn m(&self) -> Result<(), String> { todo!() } }\n",
                "pub struct Held { pub field: Result<(), String> }\n",
                "#[cfg(test)]\nmod tests { pub fn t() -> Result<(), String> { todo!() } }\n",
                "#[cfg(test)]\nmod more_tests;\n",
                "pub fn last() -> Result<(), String> { todo!() }\n",
            ),
        ),
        (
            "a/more_tests.rs",
            "pub fn helper() -> Result<(), String> { todo!() }\n",
        ),
    ]
    .into_iter()
    .map(|(p, t)| (p.to_string(), t.to_string()))
    .collect();
    // Only the last one, on its own line after the test code.
    assert_eq!(offenders(&files), ["src/a.rs:15: fn last"]);
}
