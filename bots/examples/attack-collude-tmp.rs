//! `attack-collude-tmp`: plays Kalah as `kalah-correct`, and first passes a
//! message to a colluding classmate through the shared `/tmp`: it appends
//! its id to `/tmp/protocheck-collusion-<class>.txt` (`common::meeting_place`) and reads what the others
//! wrote there (two classmates run this same program).
//!
//! protocheck must: refuse the write and the read (a bot writes only in its
//! own folder and a private TMPDIR of its own); the bot passes.

use protocheck_sample_bots::attack as common;

use std::path::Path;

fn attack(a: &common::Attack) {
    let path = Path::new("/tmp").join(format!("{}.txt", common::meeting_place()));
    let path = path.as_path();
    common::try_write(a, path, &format!("{} was here\n", common::own_id()));
    common::try_read(a, path);
}

fn main() {
    common::run("collude-tmp", attack)
}
