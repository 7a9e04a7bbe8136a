//! `attack-write-grades`: plays Kalah as `kalah-correct`, and first writes
//! into the results beside the submissions (`../../grades/` of `grade`,
//! `../../tournament/` of `tournament`, the tests' layout): its own
//! `report.json`, each classmate's `report.json`, `grades.csv`, and the
//! tournament's `standings.csv`. Each write appends a forged line.
//!
//! protocheck must: refuse every write (a bot writes only in its own folder
//! and its private TMPDIR); the bot passes and every results file is as
//! protocheck wrote it.

use protocheck_sample_bots::attack as common;

const FORGED: &str = "\nforged by attack-write-grades\n";

fn attack(a: &common::Attack) {
    let class = common::class_folder();
    let grades = class.join("grades");
    common::try_write(
        a,
        &grades.join(common::own_id()).join("report.json"),
        FORGED,
    );
    let classmates = common::some_classmates();
    if classmates.is_empty() {
        a.no_target("no classmate named on the machine's command lines");
    }
    for other in classmates {
        common::try_write(a, &grades.join(other).join("report.json"), FORGED);
    }
    common::try_write(a, &grades.join("grades.csv"), FORGED);
    common::try_write(a, &class.join("tournament").join("standings.csv"), FORGED);
}

fn main() {
    common::run("write-grades", attack)
}
