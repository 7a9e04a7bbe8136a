//! The start-up gate: unless `--keep-going`, the first scenarios to run
//! (in suite order) decide alone whether the rest of the suite runs. When
//! all of them failed at start-up with the same rule, the rest are not run
//! (a bot that cannot get going gets one verdict, not one per scenario).

use std::sync::{Condvar, Mutex};

/// How many scenarios, in suite order, decide whether a bot fails every
/// scenario the same way at start-up (fewer when the suite is smaller).
pub const STARTUP_SAMPLE: usize = 3;

/// A run stopped early: its first scenarios all failed at start-up with
/// the same rule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StartupStop {
    pub rule: &'static str,
    /// Scenarios that decided it (the first ones to run, in suite order).
    pub sample: usize,
    /// Scenarios left out because of it.
    pub not_run: usize,
}

impl StartupStop {
    /// Why a scenario was not run, for the reports.
    pub fn reason(&self) -> String {
        format!(
            "not run: the first {} scenarios all failed at start-up with {} (--keep-going runs every scenario)",
            self.sample, self.rule
        )
    }
}

/// The first scenarios to run, in suite order, and what they say about
/// the rest (see [`super::run_all`]).
pub(super) struct StartupGate {
    /// Indices of the scenarios that decide.
    pub(super) sample: Vec<usize>,
    state: Mutex<GateState>,
    decided: Condvar,
}

#[derive(Default)]
struct GateState {
    /// Per sample scenario: its start-up failure rule, `None` for any
    /// other result; `None` outside while it has not finished.
    seen: Vec<Option<Option<&'static str>>>,
    /// `Some(true)`: the rest run; `Some(false)`: they do not.
    go: Option<bool>,
}

impl StartupGate {
    /// `None` when there is nothing to decide (no scenario runs).
    pub(super) fn new(skip_reasons: &[Option<String>]) -> Option<StartupGate> {
        let sample: Vec<usize> = skip_reasons
            .iter()
            .enumerate()
            .filter(|(_, skip)| skip.is_none())
            .map(|(i, _)| i)
            .take(STARTUP_SAMPLE)
            .collect();
        if sample.is_empty() {
            return None;
        }
        Some(StartupGate {
            state: Mutex::new(GateState {
                seen: vec![None; sample.len()],
                go: None,
            }),
            sample,
            decided: Condvar::new(),
        })
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, GateState> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Wait, for a scenario after the sample, until the sample has decided;
    /// false when the rest is not to run (or the suite is `halted`: whoever
    /// halts it calls [`StartupGate::wake`]).
    pub(super) fn may_start(&self, index: usize, halted: &dyn Fn() -> bool) -> bool {
        if self.sample.contains(&index) || index < self.sample[0] {
            return true;
        }
        let mut state = self.lock();
        loop {
            if let Some(go) = state.go {
                return go;
            }
            if halted() {
                return false;
            }
            state = self.decided.wait(state).unwrap_or_else(|e| e.into_inner());
        }
    }

    /// The suite halted or protocheck stopped: the scenarios waiting look
    /// again.
    pub(super) fn wake(&self) {
        let _state = self.lock();
        self.decided.notify_all();
    }

    /// A scenario ended: its start-up failure rule, `None` for any other
    /// result (or when it did not run).
    pub(super) fn record(&self, index: usize, startup_failure: Option<&'static str>) {
        let Some(at) = self.sample.iter().position(|&i| i == index) else {
            return;
        };
        let mut state = self.lock();
        if state.seen[at].is_some() {
            return;
        }
        state.seen[at] = Some(startup_failure);
        if state.seen.iter().all(Option::is_some) {
            let first = state.seen[0].flatten();
            let same = first.is_some() && state.seen.iter().all(|s| *s == Some(first));
            state.go = Some(!same);
            self.decided.notify_all();
        }
    }

    /// The early stop, when the sample decided on one.
    pub(super) fn stopped(&self) -> Option<StartupStop> {
        let sample = self.sample.len();
        let state = self.lock();
        match state.go {
            Some(false) => Some(StartupStop {
                rule: state.seen[0].flatten()?,
                sample,
                not_run: 0,
            }),
            _ => None,
        }
    }
}

/// What a scenario of the sample says to the gate, said when it is
/// dropped: on every way out of the scenario, a panic's too, so the
/// scenarios waiting at the gate never wait for one that will not say.
pub(super) struct GateVerdict<'a> {
    pub(super) gate: &'a StartupGate,
    pub(super) index: usize,
    pub(super) startup_failure: Option<&'static str>,
}

impl Drop for GateVerdict<'_> {
    fn drop(&mut self) {
        self.gate.record(self.index, self.startup_failure);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::controller::ScenarioRun;
    use crate::outcome::Status;
    use crate::scenario::{Origin, Scenario};
    use std::sync::atomic::{AtomicBool, Ordering};

    /// A finished run that failed at start-up with `rule` (`None`: any
    /// other result).
    fn finished(startup_failure: Option<&'static str>) -> ScenarioRun {
        let scenario = Scenario {
            name: "s".into(),
            game: "kalah".into(),
            about: None,
            rules: Vec::new(),
            spec: None,
            options: Default::default(),
            source: "s.yaml".into(),
            steps: Vec::new(),
            origin: Origin::File,
        };
        let status = if startup_failure.is_some() {
            Status::Failed
        } else {
            Status::Passed
        };
        let mut run = ScenarioRun::not_run(&scenario, status);
        run.startup_failure = startup_failure;
        run
    }

    /// The gate over `runnable` scenarios (`false`: outside the default
    /// run) after the sample finished with `results`, in suite order.
    fn decide(runnable: &[bool], results: &[Option<&'static str>]) -> (Vec<usize>, bool) {
        let skips: Vec<Option<String>> = runnable
            .iter()
            .map(|&r| (!r).then(|| "outside".to_string()))
            .collect();
        let gate = StartupGate::new(&skips).expect("something runs");
        let sample = gate.sample.clone();
        // Finishing out of order changes nothing.
        for (&i, r) in sample.iter().zip(results).rev() {
            gate.record(i, finished(*r).startup_failure);
        }
        let after = runnable.len();
        let go = gate.may_start(after, &|| false);
        (sample, go)
    }

    #[test]
    fn the_first_three_runnable_scenarios_decide() {
        let (sample, go) = decide(
            &[false, true, true, false, true, true, true],
            &[Some("io.crash"); 3],
        );
        assert_eq!(sample, vec![1, 2, 4]);
        assert!(!go);
    }

    #[test]
    fn the_rest_run_unless_all_failed_at_start_up_with_the_same_rule() {
        let all = [true; 6];
        assert!(decide(&all, &[Some("io.crash"), Some("io.crash"), None]).1);
        assert!(decide(&all, &[None, Some("io.crash"), Some("io.crash")]).1);
        assert!(
            decide(
                &all,
                &[Some("io.crash"), Some("io.timeout"), Some("io.crash")]
            )
            .1
        );
        assert!(!decide(&all, &[Some("io.timeout"); 3]).1);
    }

    #[test]
    fn the_early_stop_names_its_rule_and_the_option_that_runs_everything() {
        let skips = vec![None; 5];
        let gate = StartupGate::new(&skips).unwrap();
        for i in 0..3 {
            gate.record(i, finished(Some("io.no-connect")).startup_failure);
        }
        let stop = gate.stopped().expect("stopped");
        assert_eq!(stop.rule, "io.no-connect");
        assert_eq!(stop.sample, 3);
        assert_eq!(
            stop.reason(),
            "not run: the first 3 scenarios all failed at start-up with io.no-connect (--keep-going runs every scenario)"
        );
    }

    #[test]
    fn a_scenario_waiting_at_the_gate_leaves_when_the_suite_halts() {
        let gate = StartupGate::new(&[None, None, None, None]).unwrap();
        let halted = AtomicBool::new(false);
        std::thread::scope(|s| {
            let waiting = s.spawn(|| gate.may_start(3, &|| halted.load(Ordering::SeqCst)));
            halted.store(true, Ordering::SeqCst);
            gate.wake();
            assert!(!waiting.join().unwrap());
        });
        // A scenario of the sample that never ran counts as no start-up
        // failure: the rest run.
        let gate = StartupGate::new(&[None, None, None, None]).unwrap();
        for i in 0..3 {
            drop(GateVerdict {
                gate: &gate,
                index: i,
                startup_failure: (i > 0).then_some("io.crash"),
            });
        }
        assert!(gate.may_start(3, &|| false));
    }

    #[test]
    fn a_small_suite_is_its_own_sample_and_nothing_is_left_to_stop() {
        let gate = StartupGate::new(&[None, None]).unwrap();
        assert_eq!(gate.sample, vec![0, 1]);
        assert!(StartupGate::new(&[Some("outside".into())]).is_none());
    }
}
