//! `attack-read-instructor`: plays Kalah as `kalah-correct`, and first
//! reads the instructor's folder beside the submissions
//! (`../../instructor/`: every file in it, else `secret.txt`), where the
//! hidden tests are kept in the tests' class layout.
//!
//! protocheck must: refuse the reads; the bot passes.

use protocheck_sample_bots::attack as common;

fn attack(a: &common::Attack) {
    let folder = common::class_folder().join("instructor");
    match std::fs::read_dir(&folder) {
        Ok(entries) => {
            for entry in entries.flatten().filter(|e| e.path().is_file()) {
                common::try_read(a, &entry.path());
            }
        }
        Err(e) => {
            a.error(&folder.display().to_string(), &e);
            common::try_read(a, &folder.join("secret.txt"));
        }
    }
}

fn main() {
    common::run("read-instructor", attack)
}
