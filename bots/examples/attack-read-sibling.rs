//! `attack-read-sibling`: plays Kalah as `kalah-correct`, and first reads
//! every file of each classmate's folder (`../<classmate>/`, the
//! classmates found on the machine's command lines) that it can list, else
//! the classmate's `bot` (the name `grade`'s roster uses).
//!
//! protocheck must: refuse the reads (the sandbox lets a bot read only the
//! system folders, its own folder and `--allow-read`); the bot passes.

use protocheck_sample_bots::attack as common;

fn attack(a: &common::Attack) {
    let classmates = common::some_classmates();
    if classmates.is_empty() {
        return a.no_target("no classmate named on the machine's command lines");
    }
    for classmate in classmates {
        let folder = common::submissions().join(&classmate);
        match std::fs::read_dir(&folder) {
            Ok(entries) => {
                for entry in entries.flatten().filter(|e| e.path().is_file()) {
                    common::try_read(a, &entry.path());
                }
            }
            Err(e) => {
                a.error(&folder.display().to_string(), &e);
                common::try_read(a, &folder.join("bot"));
            }
        }
    }
}

fn main() {
    common::run("read-sibling", attack)
}
