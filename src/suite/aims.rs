//! Generated games aim at what is missing (docs/coverage.md): each
//! generated game of a run is told what the generated games before it
//! reached, so protocheck's own choices prefer the situations still
//! missing. Which earlier games a game sees is fixed by its place among the
//! run's generated games, [`AIM_LAG`] behind it, never by `--jobs` or by
//! which game happened to finish first: a game waits until those games have
//! ended.

use crate::coverage::{AIM_LAG, Aims, Coverage};
use crate::scenario::Scenario;
use std::sync::{Condvar, Mutex};
use std::time::Duration;

/// The generated games of a suite, what each that ended reached, and a way
/// to wait for earlier ones.
pub struct AimGate {
    /// Per scenario: its place among the suite's generated games.
    place: Vec<Option<usize>>,
    /// The suite index of each generated game, in order.
    generated: Vec<usize>,
    /// Per scenario: what it reached, once it ended (a skipped game ended
    /// reaching nothing).
    reached: Mutex<Vec<Option<Coverage>>>,
    ended: Condvar,
    /// Per scenario: aims given in advance (`--rerun-failed` plays a failed
    /// game again with the aims it was played with), not waited for.
    pinned: Vec<Option<Aims>>,
    /// Per scenario: the aims it was given.
    given: Mutex<Vec<Option<Aims>>>,
}

impl AimGate {
    pub fn new(scenarios: &[Scenario]) -> AimGate {
        let mut generated = Vec::new();
        let place = scenarios
            .iter()
            .enumerate()
            .map(|(i, s)| {
                super::is_generated(s).then(|| {
                    generated.push(i);
                    generated.len() - 1
                })
            })
            .collect();
        AimGate {
            place,
            generated,
            reached: Mutex::new(vec![None; scenarios.len()]),
            ended: Condvar::new(),
            pinned: vec![None; scenarios.len()],
            given: Mutex::new(vec![None; scenarios.len()]),
        }
    }

    /// The gate, with the aims of some generated games given in advance
    /// (by suite index; `None`: from the games before it, as usual).
    pub fn pinned(scenarios: &[Scenario], pinned: &[Option<Aims>]) -> AimGate {
        let mut gate = AimGate::new(scenarios);
        for (slot, aims) in gate.pinned.iter_mut().zip(pinned) {
            *slot = aims.clone();
        }
        gate
    }

    /// The aims each scenario was given (by suite index), for the record
    /// `--rerun-failed` reads.
    pub fn given(&self) -> Vec<Option<Aims>> {
        self.given.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    fn give(&self, index: usize, aims: Aims) -> Option<Aims> {
        let mut given = self.given.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(slot) = given.get_mut(index) {
            *slot = Some(aims.clone());
        }
        Some(aims)
    }

    /// The suite indices of the games whose coverage scenario `index` sees
    /// (empty for one that is not generated, or among the first
    /// [`AIM_LAG`]).
    pub fn sees(&self, index: usize) -> &[usize] {
        match self.place.get(index).copied().flatten() {
            Some(p) if p >= AIM_LAG => &self.generated[..=p - AIM_LAG],
            _ => &[],
        }
    }

    /// Wait until the games scenario `index` sees have ended, and give its
    /// aims; `None` for a scenario that is not generated, or when the suite
    /// stops first (`stopping`). The suite starts its scenarios in index
    /// order, so every game waited for has started and will end.
    pub fn wait(&self, index: usize, stopping: &dyn Fn() -> bool) -> Option<Aims> {
        self.place.get(index).copied().flatten()?;
        if let Some(aims) = self.pinned.get(index).cloned().flatten() {
            return self.give(index, aims);
        }
        let earlier = self.sees(index);
        let mut reached = self.reached.lock().unwrap_or_else(|e| e.into_inner());
        loop {
            if earlier.iter().all(|&j| reached[j].is_some()) {
                let aims = Aims::after(earlier.iter().filter_map(|&j| reached[j].as_ref()));
                drop(reached);
                return self.give(index, aims);
            }
            if stopping() {
                return None;
            }
            // Bounded, so a stop nobody announces here is still seen.
            reached = self
                .ended
                .wait_timeout(reached, Duration::from_millis(100))
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
    }

    /// Scenario `index` ended, reaching `coverage`: wake the games waiting
    /// for it.
    pub fn ended(&self, index: usize, coverage: &Coverage) {
        if self.place.get(index).copied().flatten().is_none() {
            return; // no generated game waits for a scenario that is none
        }
        let mut reached = self.reached.lock().unwrap_or_else(|e| e.into_inner());
        reached[index] = Some(coverage.clone());
        self.ended.notify_all();
    }
}

/// A scenario's end, told to the gate once: with what it reached, or, when
/// it stops without a result (the suite halted, a spawn error, a panic),
/// with nothing, so no generated game waits for it in vain.
pub struct Ending<'a> {
    gate: &'a AimGate,
    index: usize,
    told: bool,
}

impl<'a> Ending<'a> {
    pub fn new(gate: &'a AimGate, index: usize) -> Ending<'a> {
        Ending {
            gate,
            index,
            told: false,
        }
    }

    pub fn ended(&mut self, coverage: &Coverage) {
        self.gate.ended(self.index, coverage);
        self.told = true;
    }
}

impl Drop for Ending<'_> {
    fn drop(&mut self) {
        if !self.told {
            self.gate.ended(self.index, &Coverage::default());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::controller::ScenarioRun;
    use crate::scenario::Origin;

    fn scenario(name: &str, origin: Origin) -> Scenario {
        Scenario {
            name: name.into(),
            game: "kalah".into(),
            about: None,
            rules: Vec::new(),
            spec: None,
            options: Default::default(),
            source: "s".into(),
            steps: Vec::new(),
            origin,
        }
    }

    #[test]
    fn a_generated_game_sees_the_games_at_least_the_lag_before_it() {
        let mut all = vec![scenario("builtin", Origin::Builtin)];
        for index in 0..7 {
            all.push(scenario(
                &format!("generated-{index}"),
                Origin::Generated { seed: 1, index },
            ));
        }
        let gate = AimGate::new(&all);
        assert!(gate.sees(0).is_empty(), "a built-in scenario sees nothing");
        for p in 0..AIM_LAG {
            assert!(gate.sees(1 + p).is_empty(), "game {p}");
        }
        // Suite index 1 + p is generated game p.
        assert_eq!(gate.sees(1 + AIM_LAG), &[1]);
        assert_eq!(gate.sees(1 + 6), &[1, 2, 3]);
        // Its aims are what those games reached, once they have ended.
        assert_eq!(gate.wait(0, &|| false), None, "not generated");
        // A stop ends the wait with no aims.
        assert_eq!(gate.wait(1 + AIM_LAG, &|| true), None);
        let mut run = ScenarioRun::not_run(&all[1], crate::outcome::Status::Passed);
        run.result.coverage.reached("kalah.capture.any", 1);
        gate.ended(1, &run.result.coverage);
        let aims = gate.wait(1 + AIM_LAG, &|| false).expect("aims");
        let own = crate::coverage::Reached::new();
        let capture = crate::games::kalah::coverage::CAPTURE;
        assert!(!aims.wants(&capture, &own));
        assert!(aims.wants(&crate::games::kalah::coverage::PAST_STORE, &own));
        assert!(gate.wait(1, &|| false).expect("aims").wants(&capture, &own));
    }
}
