//! `attack-replace-protocheck`: plays Kalah as `kalah-correct`, and first
//! replaces the program of the protocheck that runs it (its parent): it
//! finds the program through `/proc/<parent>/exe` (else the parent's
//! `argv[0]`), writes a trojan beside it, and renames the trojan over it.
//! The trojan is the program's own bytes plus a marker line, so a run
//! without the sandbox goes on working (a real attacker would put anything
//! there).
//!
//! protocheck must: refuse (a bot writes only in its own folder and its
//! private TMPDIR, and cannot look into protocheck's `/proc` entries); the
//! bot passes and the program is unchanged.

use protocheck_sample_bots::attack as common;

use std::path::PathBuf;

pub const MARKER: &[u8] = b"\ntrojan written by attack-replace-protocheck\n";

fn attack(a: &common::Attack) {
    let parent = common::parent();
    let exe = format!("/proc/{parent}/exe");
    let program = match std::fs::read_link(&exe) {
        Ok(path) => path,
        Err(e) => {
            a.error(&format!("{exe} (readlink)"), &e);
            let Some(argv0) = common::cmdline(parent).into_iter().next() else {
                return a.no_target("the parent's command line is empty");
            };
            PathBuf::from(argv0)
        }
    };
    let bytes = match std::fs::read(&exe).or_else(|_| std::fs::read(&program)) {
        Ok(mut bytes) => {
            bytes.extend_from_slice(MARKER);
            bytes
        }
        Err(e) => {
            a.error(&program.display().to_string(), &e);
            MARKER.to_vec()
        }
    };
    let trojan = program.with_extension("trojan");
    let result = std::fs::write(&trojan, &bytes)
        .and_then(|()| {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&trojan, std::fs::Permissions::from_mode(0o755))
        })
        .and_then(|()| std::fs::rename(&trojan, &program));
    let _ = std::fs::remove_file(&trojan);
    a.outcome(&program.display().to_string(), result, |()| {
        format!("replaced by a trojan of {} bytes", bytes.len())
    });
}

fn main() {
    common::run("replace-protocheck", attack)
}
