//! No import circles among the modules of any folder of `src/` (issue 31):
//! at every level (the top-level modules of `src/`, the children of
//! `transport/`, of `transport/sandbox/`, of `report/html/`...), the child
//! modules of one module must not import each other in a circle. A source
//! scan resolves every `crate::`, `super::` and `self::` path (use trees,
//! inline modules and the `pub use` re-exports of a module included, test-only
//! code left out) to the module it reaches; an import counts in the folder
//! where the importing and the imported module part, between the two
//! children they go through there. A cycle fails the test, named with its
//! folder and the file of each import on it.

pub(crate) mod source;

use source::{Module, absolute, module_of, scan, strip, test_path_files, without_tests};
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Imports allowed to close a circle: (folder, from, to, why), the folder
/// as a module path (`""` for `src/` itself, `report/html`). Each must
/// still exist, so an exception goes as soon as it is no longer needed.
/// None now (issue 31).
const ALLOWED: &[(&str, &str, &str, &str)] = &[];

/// For each folder, the imports among its children, each with the first
/// file that makes it (`folder -> from -> to -> file`).
type Edges = BTreeMap<Module, BTreeMap<String, BTreeMap<String, String>>>;

/// One import edge of a cycle: from, to, the file that makes it.
type Step = (String, String, String);

/// Every module, and the imports among the children of each, of the
/// sources under `src` (paths relative to it, `/`-separated), test-only
/// code left out.
fn edges(files: &BTreeMap<String, String>) -> Edges {
    let mut cleaned = BTreeMap::new();
    let mut test_files: Vec<String> = Vec::new();
    for (path, text) in files {
        let (code, test_modules) = without_tests(&strip(text));
        let module = module_of(path);
        for m in test_modules {
            let mut prefix = module.clone();
            prefix.push(m);
            test_files.push(prefix.join("/"));
        }
        test_files.extend(
            test_path_files(path, text)
                .iter()
                .map(|f| f.trim_end_matches(".rs").to_string()),
        );
        cleaned.insert(path.clone(), code);
    }
    let mut modules: BTreeSet<Module> = BTreeSet::new();
    let mut scans = Vec::new();
    for (path, code) in &cleaned {
        let stem = path.trim_end_matches(".rs");
        let test_only = test_files
            .iter()
            .any(|t| stem == t || path.starts_with(&format!("{t}/")));
        if test_only || matches!(path.as_str(), "main.rs") {
            continue;
        }
        let module = module_of(path);
        let found = scan(code, &module);
        modules.insert(module.clone());
        modules.extend(found.inline.iter().cloned());
        scans.push((path.clone(), found));
    }
    // Each module's re-exports: (module, name) -> the absolute path.
    let mut reexports: BTreeMap<(Module, String), Module> = BTreeMap::new();
    for (_, found) in &scans {
        for (module, name, p) in &found.reexports {
            let target = absolute(module, p).or_else(|| {
                // `pub use child::X` names a child of the module.
                let mut full = module.clone();
                full.extend(p.iter().cloned());
                modules.contains(&full[..module.len() + 1]).then_some(full)
            });
            if let Some(target) = target {
                reexports.insert((module.clone(), name.clone()), target);
            }
        }
    }
    // The path with every re-exported name on it replaced by what it stands
    // for, as long as it goes through modules.
    let resolve = |mut target: Module| -> Module {
        let mut hops = 0;
        let mut i = 0;
        while i < target.len() && hops < 16 {
            if modules.contains(&target[..=i]) {
                i += 1;
                continue;
            }
            let key = (target[..i].to_vec(), target[i].clone());
            match reexports.get(&key) {
                Some(to) if to[..] != target[..=i] => {
                    target = to
                        .iter()
                        .cloned()
                        .chain(target[i + 1..].iter().cloned())
                        .collect();
                    hops += 1;
                    i = 0;
                }
                _ => break,
            }
        }
        target
    };
    let mut edges = Edges::new();
    for (path, found) in &scans {
        for (from_module, p) in &found.paths {
            let Some(target) = absolute(from_module, p) else {
                continue;
            };
            let target = resolve(target);
            let common = from_module
                .iter()
                .zip(&target)
                .take_while(|(a, b)| a == b)
                .count();
            if common >= from_module.len() || common >= target.len() {
                continue;
            }
            let folder = from_module[..common].to_vec();
            if !modules.contains(&target[..=common]) {
                continue;
            }
            edges
                .entry(folder)
                .or_default()
                .entry(from_module[common].clone())
                .or_default()
                .entry(target[common].clone())
                .or_insert_with(|| path.clone());
        }
    }
    edges
}

/// One cycle through each group of modules that import each other
/// (`a -> b -> a`), each import with the file that makes it.
fn cycles(edges: &BTreeMap<String, BTreeMap<String, String>>) -> Vec<Vec<Step>> {
    let mut found: Vec<Vec<Step>> = Vec::new();
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
        let cycle: Vec<Step> = path
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

/// Every cycle of every folder, by folder.
fn all_cycles(edges: &Edges) -> Vec<(Module, Vec<Step>)> {
    edges
        .iter()
        .flat_map(|(folder, among)| cycles(among).into_iter().map(|c| (folder.clone(), c)))
        .collect()
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

fn shown(folder: &[String], cycle: &[Step]) -> String {
    let place = if folder.is_empty() {
        "src/".to_string()
    } else {
        format!("src/{}/", folder.join("/"))
    };
    let mut line = format!("in {place}: {}", cycle[0].0);
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
fn no_import_cycles_among_the_modules_of_any_folder() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut edges = edges(&read_tree(&src));
    for (folder, from, to, _why) in ALLOWED {
        let folder: Module = folder
            .split('/')
            .filter(|s| !s.is_empty())
            .map(str::to_string)
            .collect();
        assert!(
            edges
                .get_mut(&folder)
                .and_then(|among| among.get_mut(*from))
                .and_then(|t| t.remove(*to))
                .is_some(),
            "`{from}` no longer imports `{to}` in src/{}: remove the exception from ALLOWED",
            folder.join("/")
        );
    }
    let found = all_cycles(&edges);
    assert!(
        found.is_empty(),
        "import cycles among the modules of a folder of src/ (move what both sides need to the lower one):\n{}",
        found
            .iter()
            .map(|(folder, c)| shown(folder, c))
            .collect::<Vec<_>>()
            .join("\n")
    );
}

fn files(list: &[(&str, &str)]) -> BTreeMap<String, String> {
    list.iter()
        .map(|(p, t)| (p.to_string(), t.to_string()))
        .collect()
}

#[test]
fn a_cycle_is_found_and_named_with_its_files() {
    let files = files(&[
        ("lib.rs", "pub mod a;\npub mod b;\npub mod c;\n"),
        ("a/mod.rs", "use crate::b::Thing;\n"),
        ("b.rs", "pub fn f() { crate::c::g() }\n"),
        ("c/inner.rs", "use super::super::a;\n"),
        ("c/mod.rs", "mod inner;\n"),
    ]);
    let found = all_cycles(&edges(&files));
    assert_eq!(found.len(), 1);
    assert_eq!(
        shown(&found[0].0, &found[0].1),
        "in src/: a -> b -> c -> a\n    a -> b: src/a/mod.rs\n    b -> c: src/b.rs\n    c -> a: src/c/inner.rs"
    );
}

#[test]
fn a_cycle_inside_a_folder_is_found_at_every_level() {
    let files = files(&[
        ("lib.rs", "pub mod t;\n"),
        ("t/mod.rs", "pub mod s;\npub mod g;\npub mod live;\n"),
        // `g` reaches `s` through a grandchild's path, `s` reaches `g`
        // from its own child.
        (
            "t/g.rs",
            "use super::live::Watch;\nfn f() { crate::t::s::x::run() }\n",
        ),
        ("t/live.rs", "use super::{limits::A, g::Tag};\n"),
        ("t/s/mod.rs", "pub mod x;\npub mod y;\n"),
        ("t/s/x.rs", "fn f() { crate::t::g::tag(); super::y::z() }\n"),
        ("t/s/y.rs", "use super::x;\n"),
    ]);
    let found = all_cycles(&edges(&files));
    let shown: Vec<String> = found.iter().map(|(f, c)| shown(f, c)).collect();
    assert_eq!(
        shown,
        [
            "in src/t/: g -> live -> g\n    g -> live: src/t/g.rs\n    live -> g: src/t/live.rs",
            "in src/t/: s -> g -> s\n    s -> g: src/t/s/x.rs\n    g -> s: src/t/g.rs",
            "in src/t/s/: x -> y -> x\n    x -> y: src/t/s/x.rs\n    y -> x: src/t/s/y.rs",
        ]
    );
}

#[test]
fn inline_modules_and_reexports_resolve_to_the_module_they_reach() {
    let files = files(&[
        ("lib.rs", "pub mod t;\n"),
        // `super::w` inside the inline module is `t::i::w`, not `t::w`.
        ("t/i.rs", "mod linux { use super::w::Wait; }\npub mod w;\n"),
        ("t/i/w.rs", "use crate::t::ExitStatus;\n"),
        // `ExitStatus` is `p`'s, re-exported by `t`.
        (
            "t/mod.rs",
            "pub mod i;\npub mod p;\npub use p::{ExitStatus, Group as G};\n",
        ),
        ("t/p.rs", "use super::i::w;\nfn f(_: crate::t::G) {}\n"),
    ]);
    let edges = edges(&files);
    let among = |folder: &[&str]| -> Vec<String> {
        let folder: Module = folder.iter().map(|s| s.to_string()).collect();
        edges[&folder]
            .iter()
            .flat_map(|(from, to)| to.keys().map(move |t| format!("{from} -> {t}")))
            .collect()
    };
    assert_eq!(among(&["t", "i"]), ["linux -> w"]);
    assert_eq!(among(&["t"]), ["i -> p", "p -> i"]);
    assert_eq!(all_cycles(&edges).len(), 1);
}

#[test]
fn comments_strings_and_test_code_import_nothing() {
    let files = files(&[
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
                "#[cfg(test)]\n#[path = \"a_tests.rs\"]\nmod tests;\n",
                "#[cfg(unix)]\nfn kept() { crate::e::f() }\n",
            ),
        ),
        ("a/more_tests.rs", "use crate::d::Other;\n"),
        ("a_tests.rs", "use crate::d::Other;\n"),
        ("b.rs", ""),
        ("c.rs", ""),
        ("d.rs", ""),
        ("e.rs", ""),
    ]);
    let edges = edges(&files);
    let found: Vec<&String> = edges[&Vec::new()]["a"].keys().collect();
    assert_eq!(found, ["b", "c", "e"]);
}
