//! `attack-write-classmate`: plays Kalah as `kalah-correct`, and first
//! writes into a classmate's submission: a new file `pwned.txt` in
//! `../<classmate>/`, and a line appended to its `solution.txt` when there
//! is one (a real attacker would replace the program; appending keeps a run
//! without the sandbox going).
//!
//! protocheck must: refuse both writes; the bot passes, the classmate's
//! folder is unchanged.

#[path = "common/mod.rs"]
mod common;

fn attack(a: &common::Attack) {
    let Some(classmate) = common::some_classmate() else {
        return a.no_target("no classmate named on the machine's command lines");
    };
    let folder = common::submissions().join(classmate);
    common::try_write(
        a,
        &folder.join("pwned.txt"),
        "written by attack-write-classmate\n",
    );
    if folder.join("solution.txt").exists() {
        common::try_write(
            a,
            &folder.join("solution.txt"),
            "\n# changed by attack-write-classmate\n",
        );
    }
}

fn main() {
    common::run("write-classmate", attack)
}
