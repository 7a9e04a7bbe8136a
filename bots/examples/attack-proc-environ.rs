//! `attack-proc-environ`: plays Kalah as `kalah-correct`, and first reads
//! the environment of the protocheck that runs it, `/proc/<parent>/environ`
//! (where a CI token would be), and names the variables it read.
//!
//! protocheck must: refuse the read (Landlock's ptrace scoping covers it);
//! the bot passes.

use protocheck_sample_bots::attack as common;

fn attack(a: &common::Attack) {
    let path = format!("/proc/{}/environ", common::parent());
    a.outcome(&path, std::fs::read(&path), |data| {
        let names: Vec<String> = data
            .split(|b| *b == 0)
            .filter_map(|v| v.split(|b| *b == b'=').next())
            .map(|n| String::from_utf8_lossy(n).into_owned())
            .filter(|n| !n.is_empty())
            .collect();
        format!("{} variables: {}", names.len(), names.join(" "))
    });
}

fn main() {
    common::run("proc-environ", attack)
}
