//! Quoridor acknowledgements under load (moved from
//! tests/integration/quoridor_engines.rs: its CPU hogs keep every core busy,
//! so it runs in tests/load/, where no other test's verdict runs under them).

use crate::common;
use common::*;

fn setup_only(engine: &str, envs: &[(&str, &str)]) -> Outcome {
    let bot = bot(engine);
    let scenario = fixture("quoridor/setup.yaml");
    run_json(
        &[
            "--game",
            "quoridor",
            "--scenarios",
            &scenario,
            "--timeout",
            "10s",
            "--startup-timeout",
            "10s",
            &bot,
        ],
        envs,
    )
}

/// `quoridor.time.ack` judges the bot's own time, as `io.timeout` does (the
/// wall time less the time it waited for a CPU): an engine that computes
/// 1.5 s on `boardsize` never gets it, however loaded the machine; one that
/// sleeps 3 s always does. Every run happens while CPU hogs keep every core
/// busy, two pairs at once. No timing assertions: verdicts and figures only.
#[test]
fn acknowledgements_are_timed_by_the_bots_own_time_under_load() {
    let _alone = cpu_hogs_alone();
    if !measures_cpu_wait() {
        eprintln!("skipped: this system does not tell how long a process waited for a CPU");
        return;
    }
    let _hogs = CpuHogs::start(2);
    let rounds: Vec<Vec<(Outcome, Outcome)>> = (0..3)
        .map(|_| {
            std::thread::scope(|s| {
                let pairs: Vec<_> = (0..2)
                    .map(|_| {
                        let c = s.spawn(|| setup_only("qtp-cpu-bound-boardsize", &[]));
                        let z = s.spawn(|| setup_only("qtp-slow-boardsize", &[]));
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
            "run {i}: 1.5 s of computing on `boardsize` is within the referee's 2 s\n{}",
            computing.messages()
        );
        assert_eq!(sleeping.code, 0, "run {i}: a warning only");
        assert_eq!(sleeping.rules(), ["quoridor.time.ack"], "run {i}");
        let v = &sleeping.report["scenarios"][0]["violations"][0];
        let timing = &v["timing"];
        assert!(
            timing["own_ms"].as_u64() >= Some(2000)
                && timing["wall_ms"].as_u64() >= timing["own_ms"].as_u64(),
            "run {i}: {v}"
        );
        let message = v["message"].as_str().unwrap();
        assert!(
            message.contains(" wall") && message.contains("own time"),
            "run {i}: {message}"
        );
    }
}
