//! `attack-fill-disk`: plays Kalah as `kalah-correct`, and first writes
//! 24 MiB in 1 MiB steps into a new file in its TMPDIR (its working folder
//! when TMPDIR is unset), holds it for a second, then deletes it and plays.
//! A real attacker would fill the grader's disk; 24 MiB is past a small
//! `--max-disk` and harmless on a run without the sandbox.
//!
//! protocheck must: stop it past `--max-disk` with `io.resource-limit`.

use protocheck_sample_bots::attack as common;

use std::io::Write;
use std::time::Duration;

const STEP: usize = 1 << 20;
const STEPS: usize = 24;

fn attack(a: &common::Attack) {
    let folder = std::env::var_os("TMPDIR")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(common::own_folder);
    let path = folder.join(format!("fill-{}.bin", std::process::id()));
    let chunk = vec![0x5au8; STEP];
    let mut written = 0;
    let result = std::fs::File::create(&path).and_then(|mut f| {
        for _ in 0..STEPS {
            f.write_all(&chunk)?;
            written += 1;
        }
        Ok(())
    });
    let what = path.display().to_string();
    match result {
        Ok(()) => a.succeeded(&what, format!("wrote {written} MiB")),
        Err(e) => a.error(&format!("{what} after {written} MiB"), &e),
    }
    std::thread::sleep(Duration::from_secs(1));
    let _ = std::fs::remove_file(&path);
}

fn main() {
    common::run("fill-disk", attack)
}
