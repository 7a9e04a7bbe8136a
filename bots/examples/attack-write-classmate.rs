//! `attack-write-classmate`: plays Kalah as `kalah-correct`, and first
//! writes into each classmate's submission: a new file `pwned.txt` in
//! `../<classmate>/`, and a line appended to its `solution.txt` when there
//! is one (a real attacker would replace the program; appending keeps a run
//! without the sandbox going).
//!
//! protocheck must: refuse both writes; the bot passes, the classmate's
//! folder is unchanged.

use protocheck_sample_bots::attack as common;

fn attack(a: &common::Attack) {
    let classmates = common::some_classmates();
    if classmates.is_empty() {
        return a.no_target("no classmate named on the machine's command lines");
    }
    for classmate in classmates {
        let folder = common::submissions().join(classmate);
        let text = "written by attack-write-classmate\n";
        common::try_write(a, &folder.join("pwned.txt"), text);
        if folder.join("solution.txt").exists() {
            let text = "\n# changed by attack-write-classmate\n";
            common::try_write(a, &folder.join("solution.txt"), text);
        }
    }
}

fn main() {
    common::run("write-classmate", attack)
}
