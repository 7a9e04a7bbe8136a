//! Generated games aim at what is missing (docs/coverage.md): each
//! generated game of a run is told what the generated games before it
//! reached, so protocheck's own choices prefer the situations still
//! missing. Which earlier games a game sees is fixed by its place among the
//! run's generated games, [`AIM_LAG`] behind it, never by `--jobs` or by
//! which game happened to finish first: a game waits until those games have
//! ended.

use crate::controller::ScenarioRun;
use crate::coverage::{AIM_LAG, Aims};
use crate::scenario::Scenario;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Condvar, Mutex};
use std::time::Duration;

/// The generated games of a suite, and a way to wait for earlier ones.
pub struct AimGate {
    /// Per scenario: its place among the suite's generated games.
    place: Vec<Option<usize>>,
    /// The suite index of each generated game, in order.
    generated: Vec<usize>,
    lock: Mutex<()>,
    ended: Condvar,
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
            lock: Mutex::new(()),
            ended: Condvar::new(),
        }
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
    /// stops first (`stopping`).
    pub fn wait(
        &self,
        index: usize,
        slots: &[Mutex<Option<ScenarioRun>>],
        stopping: &dyn Fn() -> bool,
    ) -> Option<Aims> {
        self.place.get(index).copied().flatten()?;
        let earlier = self.sees(index);
        let mut guard = self.lock.lock().unwrap_or_else(|e| e.into_inner());
        loop {
            let runs: Vec<_> = earlier
                .iter()
                .map(|&j| slots[j].lock().unwrap_or_else(|e| e.into_inner()))
                .collect();
            if runs.iter().all(|r| r.is_some()) {
                return Some(Aims::after(
                    runs.iter()
                        .flat_map(|r| r.as_ref())
                        .map(|r| &r.result.coverage),
                ));
            }
            drop(runs);
            if stopping() {
                return None;
            }
            // Bounded, so a stop nobody announces here is still seen.
            guard = self
                .ended
                .wait_timeout(guard, Duration::from_millis(100))
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
    }

    /// A scenario's slot was filled: wake the games waiting for it.
    pub fn ended(&self) {
        let _guard = self.lock.lock().unwrap_or_else(|e| e.into_inner());
        self.ended.notify_all();
    }
}

/// Whether the suite is stopping (for [`AimGate::wait`]).
pub fn stopping(stop: &AtomicBool, budget_spent: bool) -> bool {
    stop.load(Ordering::SeqCst) || budget_spent || crate::transport::process::interrupted()
}

#[cfg(test)]
mod tests {
    use super::*;
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
        let slots: Vec<Mutex<Option<ScenarioRun>>> = all.iter().map(|_| Mutex::new(None)).collect();
        assert_eq!(gate.wait(0, &slots, &|| false), None, "not generated");
        // A stop ends the wait with no aims.
        assert_eq!(gate.wait(1 + AIM_LAG, &slots, &|| true), None);
        let mut run = ScenarioRun::not_run(&all[1], crate::outcome::Status::Passed);
        run.result.coverage.reached("kalah.capture.any", 1);
        *slots[1].lock().unwrap() = Some(run);
        let aims = gate.wait(1 + AIM_LAG, &slots, &|| false).expect("aims");
        let own = crate::coverage::Reached::new();
        let capture = crate::games::kalah::coverage::CAPTURE;
        assert!(!aims.wants(&capture, &own));
        assert!(aims.wants(&crate::games::kalah::coverage::PAST_STORE, &own));
        assert!(
            gate.wait(1, &slots, &|| false)
                .expect("aims")
                .wants(&capture, &own)
        );
    }
}
