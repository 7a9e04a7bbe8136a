//! `attack-proc-mem`: plays Kalah as `kalah-correct`, and first reads the
//! memory of the protocheck that runs it: the first readable mapping named
//! in `/proc/<parent>/maps`, read through `/proc/<parent>/mem`.
//!
//! protocheck must: refuse both (Landlock's ptrace scoping); the bot passes.

use protocheck_sample_bots::attack as common;

use std::os::unix::fs::FileExt;

fn attack(a: &common::Attack) {
    let parent = common::parent();
    let maps = format!("/proc/{parent}/maps");
    let start = match std::fs::read_to_string(&maps) {
        Ok(text) => text
            .lines()
            .find(|l| {
                l.split_whitespace()
                    .nth(1)
                    .is_some_and(|p| p.starts_with('r'))
            })
            .and_then(|l| u64::from_str_radix(l.split('-').next()?, 16).ok()),
        Err(e) => {
            a.error(&maps, &e);
            None
        }
    };
    let mem = format!("/proc/{parent}/mem");
    let result = std::fs::File::open(&mem).and_then(|f| {
        let mut buf = [0u8; 64];
        let n = f.read_at(&mut buf, start.unwrap_or(0x400000))?;
        Ok(buf[..n].to_vec())
    });
    a.outcome(&mem, result, |d| format!("read {}", common::preview(&d)));
}

fn main() {
    common::run("proc-mem", attack)
}
