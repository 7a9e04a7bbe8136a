//! `protocheck merge`: the output folders of grade's shards
//! (`--partition K/N` on several machines) joined into one: every bot's
//! reports, one `grades.csv`/`grades.json` and one class page.

use super::table::{self, Grades, GradesFileError};
use std::path::{Path, PathBuf};

/// Why the shards' folders cannot be merged.
#[derive(Debug, thiserror::Error)]
pub enum MergeError {
    #[error("name the output folders of the shards to merge")]
    NoFolders,
    #[error(transparent)]
    Grades(#[from] GradesFileError),
    #[error(
        "{} and {} were graded differently ({first_run} against {run}): their grades cannot be compared",
        first.display(), folder.display()
    )]
    GradedDifferently {
        first: PathBuf,
        folder: PathBuf,
        /// The protocheck and its options: "0.1.0 `--games 20`".
        first_run: String,
        run: String,
    },
    #[error(
        "{} and {} were graded with different time limits (--bot-time-limit {first_limit} against {limit}): their grades cannot be compared",
        first.display(), folder.display()
    )]
    TimeLimits {
        first: PathBuf,
        folder: PathBuf,
        first_limit: String,
        limit: String,
    },
    #[error("bot `{id}` is graded in both {} and {}", first.display(), second.display())]
    GradedTwice {
        id: String,
        first: PathBuf,
        second: PathBuf,
    },
    #[error("cannot {doing} {}: {source}", path.display())]
    Files {
        /// `create`, `read` or `copy`.
        doing: &'static str,
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
}

fn files(doing: &'static str, path: &Path) -> impl FnOnce(std::io::Error) -> MergeError {
    let path = path.to_path_buf();
    move |source| MergeError::Files {
        doing,
        path,
        source,
    }
}

pub fn merge(folders: &[PathBuf], out: &Path) -> Result<Grades, MergeError> {
    if folders.is_empty() {
        return Err(MergeError::NoFolders);
    }
    let mut shards = Vec::new();
    for folder in folders {
        shards.push((folder, table::read(folder)?));
    }
    let (first_folder, first) = &shards[0];
    for (folder, grades) in &shards[1..] {
        if grades.options != first.options || grades.protocheck != first.protocheck {
            return Err(MergeError::GradedDifferently {
                first: first_folder.to_path_buf(),
                folder: folder.to_path_buf(),
                first_run: format!("{} `{}`", first.protocheck, first.options.join(" ")),
                run: format!("{} `{}`", grades.protocheck, grades.options.join(" ")),
            });
        }
        if grades.bot_time_limit != first.bot_time_limit {
            let show = |l: &Option<String>| l.clone().unwrap_or_else(|| "none".into());
            return Err(MergeError::TimeLimits {
                first: first_folder.to_path_buf(),
                folder: folder.to_path_buf(),
                first_limit: show(&first.bot_time_limit),
                limit: show(&grades.bot_time_limit),
            });
        }
    }
    let mut merged = Grades {
        protocheck: first.protocheck.clone(),
        game: first.game.clone(),
        options: first.options.clone(),
        partition: None,
        bot_time_limit: first.bot_time_limit.clone(),
        compared_with: first.compared_with.clone(),
        bots: Vec::new(),
    };
    let mut from: Vec<(&str, &Path)> = Vec::new();
    for (folder, grades) in &shards {
        for row in &grades.bots {
            if let Some((_, other)) = from.iter().find(|(id, _)| *id == row.id) {
                return Err(MergeError::GradedTwice {
                    id: row.id.clone(),
                    first: other.to_path_buf(),
                    second: folder.to_path_buf(),
                });
            }
            from.push((row.id.as_str(), folder.as_path()));
        }
    }
    std::fs::create_dir_all(out).map_err(files("create", out))?;
    for (folder, grades) in &shards {
        let same = std::fs::canonicalize(folder).ok() == std::fs::canonicalize(out).ok();
        for row in &grades.bots {
            if !same {
                copy_folder(&folder.join(&row.id), &out.join(&row.id))?;
            }
            merged.bots.push(row.clone());
        }
    }
    Ok(merged)
}

/// A bot's files (reports, log, kept grade): a flat folder.
fn copy_folder(from: &Path, to: &Path) -> Result<(), MergeError> {
    if !from.is_dir() {
        // A bot that never started has no folder.
        return Ok(());
    }
    std::fs::create_dir_all(to).map_err(files("create", to))?;
    let entries = std::fs::read_dir(from).map_err(files("read", from))?;
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_file() {
            std::fs::copy(&path, to.join(entry.file_name())).map_err(files("copy", &path))?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn merge_errors_read_as_before_and_keep_their_cause() {
        assert_eq!(
            merge(&[], Path::new("out")).unwrap_err().to_string(),
            "name the output folders of the shards to merge"
        );
        let missing = PathBuf::from("/no/such/protocheck/shard");
        let e = merge(std::slice::from_ref(&missing), Path::new("out")).unwrap_err();
        assert!(
            e.to_string()
                .starts_with("cannot read /no/such/protocheck/shard/grades.json: "),
            "{e}"
        );
        assert!(std::error::Error::source(&e).is_some());
        let twice = MergeError::GradedTwice {
            id: "ada".into(),
            first: "a".into(),
            second: "b".into(),
        };
        assert_eq!(twice.to_string(), "bot `ada` is graded in both a and b");
    }
}
