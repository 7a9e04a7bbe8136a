//! `protocheck init --platform gradescope|prairielearn`: what course staff
//! upload to a grading platform, each submission then graded by one
//! protocheck run that writes the platform's results.json itself
//! (`--report gradescope=…`, `--report prairielearn=…`).

use super::{PYPI_NAME, ProjectFileError, io_error};
use std::path::{Path, PathBuf};

/// A grading platform `init` writes the autograder files of.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Platform {
    /// setup.sh, run_autograder and protocheck.toml (zip them, upload).
    Gradescope,
    /// The grader's entry script and protocheck.toml in
    /// serverFilesCourse/protocheck/, and the info.json fragment.
    Prairielearn,
}

/// The files, relative to the folder `init` runs in, and whether each is
/// a program (made executable).
pub fn files(platform: Platform, game: &str, bot: &str) -> Vec<(PathBuf, String, bool)> {
    let project = super::init::project_file(game, bot) + GRADING;
    match platform {
        Platform::Gradescope => vec![
            ("protocheck.toml".into(), project, false),
            ("setup.sh".into(), setup_sh(), true),
            ("run_autograder".into(), run_autograder(bot), true),
        ],
        Platform::Prairielearn => vec![
            (
                "serverFilesCourse/protocheck/protocheck.toml".into(),
                project,
                false,
            ),
            (
                "serverFilesCourse/protocheck/run.sh".into(),
                prairielearn_entry(bot),
                true,
            ),
            ("info.json.fragment".into(), info_fragment(), false),
        ],
    }
}

/// Write the files under `dir`; none is written when one exists, unless
/// `force`. The programs are made executable.
pub fn write(
    dir: &Path,
    platform: Platform,
    game: &str,
    bot: &str,
    force: bool,
) -> Result<Vec<PathBuf>, ProjectFileError> {
    let files = files(platform, game, bot);
    let existing: Vec<String> = files
        .iter()
        .map(|(p, _, _)| dir.join(p))
        .filter(|p| p.exists())
        .map(|p| p.display().to_string())
        .collect();
    if !force && !existing.is_empty() {
        return Err(ProjectFileError::Exists(existing));
    }
    let mut written = Vec::new();
    for (path, text, program) in files {
        let path = dir.join(path);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(io_error("create", parent, ""))?;
        }
        std::fs::write(&path, text).map_err(io_error("write", &path, ""))?;
        if program {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755))
                .map_err(io_error("make", &path, " executable"))?;
        }
        written.push(path);
    }
    Ok(written)
}

/// What `init` says it wrote, and what to do next.
pub fn next_steps(platform: Platform) -> &'static str {
    match platform {
        Platform::Gradescope => {
            "next: set the [grading] table in protocheck.toml, then zip setup.sh, run_autograder and protocheck.toml (the files, not their folder) and upload the zip as the assignment's autograder"
        }
        Platform::Prairielearn => {
            "next: copy serverFilesCourse/protocheck/ into your course's serverFilesCourse/, merge info.json.fragment into the question's info.json, and install protocheck in the grader image (see run.sh)"
        }
    }
}

/// The grading policy, commented: the default until staff set it.
const GRADING: &str = r#"
# How the run becomes points (docs/grading.md, "Scores: the grading policy").
# Without this table: 1 point per scenario that passed.
[grading]
points-per-scenario = 1
# warnings = "ignore"        # or "fail", or a share off per warning (0.25)
# per-clean-game = 1         # generated games: per game with no failure
# per-game-won = 1           # ... and per game won without any finding
# [[grading.group]]
# name = "openings"
# scenarios = ["*opening*"]  # globs on scenario names, or rules = ["kalah.swap.*"]
# points = 10
# hidden-until = "2026-12-01T23:59:00Z"
"#;

fn setup_sh() -> String {
    format!(
        r#"#!/usr/bin/env bash
# Gradescope runs this once, as root, when it builds the autograder image.
# It installs protocheck with pip, from the wheel the protocheck project
# publishes on PyPI as {pypi} (`pip install protocheck` installs an
# unrelated package), into its own virtual environment: newer Ubuntu images
# refuse pip installs into the system Python. PROTOCHECK_PIP may name
# another requirement, e.g. a wheel file shipped in this zip:
# /autograder/source/protocheck_harness-…-manylinux_2_17_x86_64.whl
set -euo pipefail
PROTOCHECK_PIP="${{PROTOCHECK_PIP:-{pypi}=={version}}}"
apt-get update -qq
apt-get install -y -qq python3-venv
python3 -m venv /opt/protocheck
/opt/protocheck/bin/pip install --quiet "$PROTOCHECK_PIP"
ln -sf /opt/protocheck/bin/protocheck /usr/local/bin/protocheck
protocheck --version
"#,
        pypi = PYPI_NAME,
        version = env!("CARGO_PKG_VERSION")
    )
}

fn run_autograder(bot: &str) -> String {
    format!(
        r#"#!/usr/bin/env bash
# Gradescope runs this for each submission: protocheck plays the game
# against the student's bot in /autograder/submission, with the settings and
# the [grading] policy of protocheck.toml, and writes the results students
# see to /autograder/results/results.json itself. Its human report goes to
# stdout, which only staff see.
set -uo pipefail
# The autograder's root (AUTOGRADER_ROOT: a folder laid out like it, to try
# this script elsewhere) and protocheck (PROTOCHECK: another program).
ROOT="${{AUTOGRADER_ROOT:-/autograder}}"
PROTOCHECK="${{PROTOCHECK:-protocheck}}"
# The bot, in the submission folder.
BOT="${{PROTOCHECK_BOT:-{bot}}}"
mkdir -p "$ROOT/results"
cd "$ROOT/submission" || exit 1
# Build the submission here if it needs building, e.g.: make
"$PROTOCHECK" --config "$ROOT/source/protocheck.toml" \
  --report gradescope="$ROOT/results/results.json" --report human \
  "$BOT"
status=$?
# 0: every scenario passed, 1: a failure (the score says how much); 2 with
# no results means protocheck itself could not run: say so, not a silent 0.
if [ ! -s "$ROOT/results/results.json" ]; then
  printf '{{"score": 0, "output": "protocheck could not grade this submission (exit status %s); the staff see why in the autograder output."}}\n' "$status" > "$ROOT/results/results.json"
fi
exit 0
"#
    )
}

fn prairielearn_entry(bot: &str) -> String {
    format!(
        r#"#!/usr/bin/env bash
# PrairieLearn's external grader runs this for each submission (the
# question's info.json names it as the entrypoint): protocheck plays the
# game against the student's bot in /grade/student, with the settings and
# the [grading] policy of protocheck.toml beside this script, and writes
# /grade/results/results.json itself. The grader image must have protocheck:
# install it in the image with pip (the wheel the protocheck project
# publishes on PyPI as {pypi}: `pip3 install {pypi}=={version}`; `pip
# install protocheck` installs an unrelated package).
set -uo pipefail
# The grading root (PL_GRADE_ROOT: a folder laid out like /grade, to try
# this script elsewhere) and protocheck (PROTOCHECK: another program).
ROOT="${{PL_GRADE_ROOT:-/grade}}"
PROTOCHECK="${{PROTOCHECK:-protocheck}}"
BOT="${{PROTOCHECK_BOT:-{bot}}}"
HERE="$(cd "$(dirname "$0")" && pwd)"
mkdir -p "$ROOT/results"
cd "$ROOT/student" || exit 1
"$PROTOCHECK" --config "$HERE/protocheck.toml" \
  --report prairielearn="$ROOT/results/results.json" --report human "$BOT"
status=$?
# No results: protocheck itself could not run. Not gradable, so the student
# keeps the attempt.
if [ ! -s "$ROOT/results/results.json" ]; then
  printf '{{"gradable": false, "format_errors": ["protocheck could not grade this submission (exit status %s)"]}}\n' "$status" > "$ROOT/results/results.json"
fi
exit 0
"#,
        pypi = PYPI_NAME,
        version = env!("CARGO_PKG_VERSION")
    )
}

fn info_fragment() -> String {
    r#"{
  "gradingMethod": "External",
  "externalGradingOptions": {
    "enabled": true,
    "image": "prairielearn/grader-python",
    "serverFilesCourse": ["protocheck/"],
    "entrypoint": "/grade/serverFilesCourse/protocheck/run.sh",
    "timeout": 120
  }
}
"#
    .to_string()
}
