//! Verdicts that do not depend on the machine's load: a reply is timed as
//! the bot would have needed on an idle machine (its own time: the wall time
//! less the time it waited for a CPU), so a course grading many bots side by
//! side, or a busy CI runner, gets the verdicts a quiet machine gives. Every
//! run here happens while CPU hogs keep every core busy. No timing
//! assertions: only verdicts, rule ids and the figures' consistency.

use crate::common;
use common::*;

const RUNS: usize = 20;
const PAIRS_AT_ONCE: usize = 4;

fn one_move(bot_name: &str, envs: &[(&str, &str)]) -> Outcome {
    let bot = bot(bot_name);
    let scenario = fixture("kalah/one-move.yaml");
    run_json(
        &[
            "--game",
            "kalah",
            "--scenarios",
            &scenario,
            "--timeout",
            "2s",
            "--startup-timeout",
            "2s",
            &bot,
        ],
        envs,
    )
}

#[test]
fn a_bot_that_computes_within_its_time_passes_under_load_and_a_sleeper_still_times_out() {
    let _alone = cpu_hogs_alone();
    if !measures_cpu_wait() {
        eprintln!("skipped: this system does not tell how long a process waited for a CPU");
        return;
    }
    let _hogs = CpuHogs::start(2);
    // Four pairs at once, as `--jobs 8` would have them (the computing bots
    // compete with each other as well as with the hogs): 20 runs of each
    // bot in five rounds.
    let rounds: Vec<Vec<(Outcome, Outcome)>> = (0..RUNS / PAIRS_AT_ONCE)
        .map(|_| {
            std::thread::scope(|s| {
                let pairs: Vec<_> = (0..PAIRS_AT_ONCE)
                    .map(|_| {
                        let c = s
                            .spawn(|| one_move("kalah-cpu-bound", &[("KALAH_BOT_CPU_MS", "1500")]));
                        let z =
                            s.spawn(|| one_move("kalah-slow", &[("KALAH_BOT_DELAY_MS", "3000")]));
                        (c, z)
                    })
                    .collect();
                pairs
                    .into_iter()
                    .map(|(c, z)| (c.join().unwrap(), z.join().unwrap()))
                    .collect()
            })
        })
        .collect();
    for (i, (computing, sleeping)) in rounds.into_iter().flatten().enumerate() {
        assert_eq!(
            (computing.code, computing.rules()),
            (0, vec![]),
            "run {i}: 1.5 s of computing under --timeout 2s must pass on a loaded machine\n{}",
            findings(&computing.report).join("\n")
        );
        let rules = sleeping.rules();
        assert_eq!(sleeping.code, 1, "run {i}: the sleeper must fail");
        assert_eq!(
            rules.first().map(String::as_str),
            Some("io.timeout"),
            "run {i}: {rules:?}"
        );
        let timing = &sleeping.report["scenarios"][0]["violations"][0]["timing"];
        assert_eq!(timing["decided_by"], "own-time", "run {i}: {timing}");
        assert!(
            timing["own_ms"].as_u64() >= Some(2000)
                && timing["wall_ms"].as_u64() >= timing["own_ms"].as_u64(),
            "run {i}: {timing}"
        );
        // It was sleeping, not blocked: never called unflushed.
        assert!(
            !sleeping.messages().contains("not flushed"),
            "run {i}: {}",
            sleeping.messages()
        );
    }
}
