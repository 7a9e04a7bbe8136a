//! `protocheck init --game <GAME>`: a commented `protocheck.toml` for a bot
//! repository and, beside it, a GitHub Actions workflow that runs it on
//! every push and pull request (annotations and step summary included).

use super::{ProjectFileError, io_error};
use std::path::{Path, PathBuf};

/// The files `init` writes, relative to the folder it runs in.
pub fn files(game: &str, bot: &str) -> Vec<(PathBuf, String)> {
    vec![
        (PathBuf::from(super::FILE_NAME), project_file(game, bot)),
        (
            PathBuf::from(".github/workflows/protocheck.yml"),
            workflow(),
        ),
    ]
}

/// Write the files under `dir`; an existing file is kept unless `force`
/// (nothing is written then, so a half-initialised repository never results).
pub fn write(
    dir: &Path,
    game: &str,
    bot: &str,
    force: bool,
) -> Result<Vec<PathBuf>, ProjectFileError> {
    let files = files(game, bot);
    if !force {
        let existing: Vec<String> = files
            .iter()
            .map(|(p, _)| dir.join(p))
            .filter(|p| p.exists())
            .map(|p| p.display().to_string())
            .collect();
        if !existing.is_empty() {
            return Err(ProjectFileError::Exists(existing));
        }
    }
    let mut written = Vec::new();
    for (path, text) in files {
        let path = dir.join(path);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(io_error("create", parent, ""))?;
        }
        std::fs::write(&path, text).map_err(io_error("write", &path, ""))?;
        written.push(path);
    }
    Ok(written)
}

/// The line that keeps protocheck's state folder out of git.
const IGNORE_LINE: &str = ".protocheck/";

/// Make the `.gitignore` in `dir` ignore protocheck's state folder
/// (`.protocheck/`, the `--rerun-failed` record): written when there is
/// none, the line added to one that lacks it, nothing done to one that has
/// it. The file, when it was written or changed.
pub fn ignore_state(dir: &Path) -> Result<Option<PathBuf>, ProjectFileError> {
    let path = dir.join(".gitignore");
    let text = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(e) => return Err(io_error("read", &path, "")(e)),
    };
    let folder = crate::run::last_failed::STATE_FOLDER;
    let ignored = text.lines().any(|line| {
        let line = line.trim();
        let line = line.strip_prefix('/').unwrap_or(line);
        line.strip_suffix('/').unwrap_or(line) == folder
    });
    if ignored {
        return Ok(None);
    }
    let mut text = text;
    if !text.is_empty() && !text.ends_with('\n') {
        text.push('\n');
    }
    text.push_str("# protocheck's state (the scenarios that failed last time)\n");
    text.push_str(IGNORE_LINE);
    text.push('\n');
    std::fs::write(&path, text).map_err(io_error("write", &path, ""))?;
    Ok(Some(path))
}

pub(super) fn project_file(game: &str, bot: &str) -> String {
    format!(
        r#"# protocheck settings for this repository. A bare `protocheck` in this
# folder (or any folder below it) runs with them; options given on the
# command line override them. Every key is a long option of
# `protocheck --help`; relative paths are taken from this file's folder.

game = "{game}"

# The bot to check: a path (./build/my-bot), or a command name on PATH.
bot = "{bot}"
# Arguments for the bot (what you would write after `--`).
# bot-args = ["--depth", "3"]
# Or a whole command line instead of bot/bot-args:
# bot-cmd = "python3 bot.py --depth 3"

# Your own scenario files or folders, and whether the built-in suite runs too.
# scenarios = ["tests/protocheck"]
# with-builtin = true

# Whole generated games against built-in opponents, reproducible from the seed.
games = 10
seed = 1
# save-failures = "target/protocheck-failures"

# Time per reply (the game's default otherwise), and warnings as failures.
# timeout = "2s"
# strict = true
"#
    )
}

fn workflow() -> String {
    r#"# Runs protocheck on every push and pull request. Failures are annotated
# on the scenario lines of the pull request and summarised on the run page;
# the JUnit and HTML reports of the one run are kept as artifacts.
name: protocheck

on: [push, pull_request]

env:
  # protocheck is installed from its wheel on PyPI, {pypi} (`protocheck`
  # there is an unrelated package), at this version, so every run uses the
  # same checks: change it to upgrade.
  PROTOCHECK_VERSION: "{version}"
  # Or built from source instead (a course's own protocheck): set both,
  # PROTOCHECK_GIT the git address and PROTOCHECK_REV a commit of it (a full
  # hash). The build is cached per revision.
  PROTOCHECK_GIT: ""
  PROTOCHECK_REV: ""

jobs:
  protocheck:
    runs-on: ubuntu-latest
    # Split a long suite over several jobs with a matrix (then add the shard
    # to the artifact names below, which must be unique in a run):
    # strategy:
    #   matrix:
    #     shard: [1, 2, 3, 4]
    steps:
      - uses: actions/checkout@v4
      # Build your bot here if it needs building, e.g.:
      # - run: make
      - uses: dtolnay/rust-toolchain@stable
        if: env.PROTOCHECK_REV != ''
      - name: Restore the protocheck build
        id: protocheck-build
        if: env.PROTOCHECK_REV != ''
        uses: actions/cache@v4
        with:
          path: ~/.cargo/bin/protocheck
          key: protocheck-${{ runner.os }}-${{ env.PROTOCHECK_REV }}
      - name: Install protocheck
        if: steps.protocheck-build.outputs.cache-hit != 'true'
        run: |
          if [ -z "$PROTOCHECK_GIT" ] && [ -z "$PROTOCHECK_REV" ]; then
            pipx install "{pypi}==$PROTOCHECK_VERSION"
          elif [ -z "$PROTOCHECK_GIT" ] || [ -z "$PROTOCHECK_REV" ]; then
            echo "::error title=protocheck source half set::set both PROTOCHECK_GIT and PROTOCHECK_REV in the env block at the top of .github/workflows/protocheck.yml, or neither to install the wheel"
            exit 1
          else
            cargo install --locked --git "$PROTOCHECK_GIT" --rev "$PROTOCHECK_REV" protocheck
          fi
      - name: Check the bot
        id: check
        # Settings come from protocheck.toml. With the matrix above, add
        #   --partition hash:${{ matrix.shard }}/4
        run: protocheck --report human --report junit=protocheck-junit.xml --report html=protocheck-report.html
      - name: Keep the JUnit report
        if: always()
        uses: actions/upload-artifact@v4
        with:
          name: protocheck-junit
          path: protocheck-junit.xml
          if-no-files-found: ignore
      - name: Keep the HTML report
        if: always()
        uses: actions/upload-artifact@v4
        with:
          name: protocheck-html
          path: protocheck-report.html
          if-no-files-found: ignore
"#
    .replace("{pypi}", super::PYPI_NAME)
    .replace("{version}", env!("CARGO_PKG_VERSION"))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The written project file is one `protocheck` accepts as it is.
    #[test]
    fn the_project_file_is_valid_settings() {
        let (path, text) = &files("kalah", "./my-bot")[0];
        assert_eq!(path, Path::new("protocheck.toml"));
        let args = vec!["protocheck".to_string()];
        let words = super::super::merge(&args, Path::new("/r/protocheck.toml"), text).unwrap();
        assert_eq!(
            words.join(" "),
            "protocheck --game kalah --games 10 --seed 1 /r/./my-bot"
        );
    }

    #[test]
    fn the_gitignore_gets_the_state_folder_once() {
        let dir = std::env::temp_dir().join(format!("protocheck-ignore-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let gitignore = dir.join(".gitignore");
        assert_eq!(ignore_state(&dir).unwrap(), Some(gitignore.clone()));
        let written = std::fs::read_to_string(&gitignore).unwrap();
        assert!(written.lines().any(|l| l == ".protocheck/"), "{written}");
        // Again: nothing added.
        assert_eq!(ignore_state(&dir).unwrap(), None);
        assert_eq!(std::fs::read_to_string(&gitignore).unwrap(), written);
        // A file of the user's keeps its lines; the line is added after them.
        std::fs::write(&gitignore, "/target\n*.log").unwrap();
        ignore_state(&dir).unwrap();
        let text = std::fs::read_to_string(&gitignore).unwrap();
        assert!(text.starts_with("/target\n*.log\n"), "{text}");
        assert_eq!(text.matches(".protocheck/").count(), 1, "{text}");
        // One that already ignores it (written another way) is left alone.
        std::fs::write(&gitignore, "/.protocheck\n").unwrap();
        assert_eq!(ignore_state(&dir).unwrap(), None);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn nothing_is_overwritten_without_force() {
        let dir = std::env::temp_dir().join(format!("protocheck-init-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let written = write(&dir, "quoridor", "./engine", false).unwrap();
        assert_eq!(written.len(), 2);
        assert!(dir.join(".github/workflows/protocheck.yml").is_file());
        std::fs::write(dir.join("protocheck.toml"), "# mine\n").unwrap();
        let err = write(&dir, "kalah", "./b", false).unwrap_err().to_string();
        assert_eq!(
            err,
            format!(
                "{}, {} already exist: not overwritten (use --force to replace)",
                dir.join("protocheck.toml").display(),
                dir.join(".github/workflows/protocheck.yml").display()
            )
        );
        // A `.gitignore` that is a folder cannot be read: the cause is kept.
        let odd = dir.join("odd");
        std::fs::create_dir_all(odd.join(".gitignore")).unwrap();
        let e = ignore_state(&odd).unwrap_err();
        assert!(
            e.to_string().starts_with(&format!(
                "cannot read {}: ",
                odd.join(".gitignore").display()
            )),
            "{e}"
        );
        assert!(std::error::Error::source(&e).is_some());
        assert_eq!(
            std::fs::read_to_string(dir.join("protocheck.toml")).unwrap(),
            "# mine\n"
        );
        write(&dir, "kalah", "./b", true).unwrap();
        assert!(
            std::fs::read_to_string(dir.join("protocheck.toml"))
                .unwrap()
                .contains("game = \"kalah\"")
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
