//! `protocheck merge`: the output folders of grade's shards
//! (`--partition K/N` on several machines) joined into one: every bot's
//! reports, one `grades.csv`/`grades.json` and one class page.

use super::table::{self, Grades};
use std::path::{Path, PathBuf};

pub fn merge(folders: &[PathBuf], out: &Path) -> Result<Grades, String> {
    if folders.is_empty() {
        return Err("name the output folders of the shards to merge".into());
    }
    let mut shards = Vec::new();
    for folder in folders {
        shards.push((folder, table::read(folder)?));
    }
    let (first_folder, first) = &shards[0];
    for (folder, grades) in &shards[1..] {
        if grades.options != first.options || grades.protocheck != first.protocheck {
            return Err(format!(
                "{} and {} were graded differently ({} `{}` against {} `{}`): their grades cannot be compared",
                first_folder.display(),
                folder.display(),
                first.protocheck,
                first.options.join(" "),
                grades.protocheck,
                grades.options.join(" "),
            ));
        }
        if grades.bot_time_limit != first.bot_time_limit {
            let show = |l: &Option<String>| l.clone().unwrap_or_else(|| "none".into());
            return Err(format!(
                "{} and {} were graded with different time limits (--bot-time-limit {} against {}): their grades cannot be compared",
                first_folder.display(),
                folder.display(),
                show(&first.bot_time_limit),
                show(&grades.bot_time_limit),
            ));
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
                return Err(format!(
                    "bot `{}` is graded in both {} and {}",
                    row.id,
                    other.display(),
                    folder.display()
                ));
            }
            from.push((row.id.as_str(), folder.as_path()));
        }
    }
    std::fs::create_dir_all(out).map_err(|e| format!("cannot create {}: {e}", out.display()))?;
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
fn copy_folder(from: &Path, to: &Path) -> Result<(), String> {
    if !from.is_dir() {
        // A bot that never started has no folder.
        return Ok(());
    }
    std::fs::create_dir_all(to).map_err(|e| format!("cannot create {}: {e}", to.display()))?;
    let entries =
        std::fs::read_dir(from).map_err(|e| format!("cannot read {}: {e}", from.display()))?;
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_file() {
            std::fs::copy(&path, to.join(entry.file_name()))
                .map_err(|e| format!("cannot copy {}: {e}", path.display()))?;
        }
    }
    Ok(())
}
