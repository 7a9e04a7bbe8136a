//! Test support: the sessions of one match table driven in process, as
//! `controller::relay` drives them, without bots or a controller.

use super::{Next, Session};
use crate::scenario_model::Expect;
use std::collections::VecDeque;
use std::time::Duration;

/// Play one table to its end: one action per seat per pass; a reply the
/// seat's bot owes is `reply(seat, session, rng)` (it must be legal), and
/// the move it made (`Relay::played`) goes to every other seat's queue;
/// a seat that awaits a relayed move takes the next from its queue, any
/// other `opponent` step is `auto`. One random-number source serves every
/// seat, as a match's run shares its one. `judged(seat, reply, played)`
/// sees each reply and what it made. Returns what each seat was sent by
/// `opponent`. Panics if the table stalls or takes over `passes` passes.
pub(crate) fn play_relayed<S: Session>(
    sessions: &mut [S],
    passes: usize,
    mut reply: impl FnMut(usize, &S, &mut fastrand::Rng) -> Vec<u8>,
    mut judged: impl FnMut(usize, &[u8], Option<&str>),
) -> Vec<Vec<String>> {
    let n = sessions.len();
    let mut inbound: Vec<VecDeque<String>> = vec![VecDeque::new(); n];
    let mut sent: Vec<Vec<String>> = vec![Vec::new(); n];
    let mut rng = fastrand::Rng::with_seed(99);
    for _pass in 0..passes {
        let mut progressed = false;
        for seat in 0..n {
            let s = &mut sessions[seat];
            match s.next() {
                Next::Finished => continue,
                Next::Bot => {
                    let bytes = reply(seat, s, &mut rng);
                    let verdict = s.judge(&bytes, &Expect::LegalMove, Duration::ZERO).unwrap();
                    assert!(
                        verdict.violations.is_empty(),
                        "seat {}: {}: {:?}",
                        seat + 1,
                        String::from_utf8_lossy(&bytes),
                        verdict.violations
                    );
                    let played = s.relay().and_then(|r| r.played());
                    judged(seat, &bytes, played.as_deref());
                    if let Some(mv) = played {
                        for (other, queue) in inbound.iter_mut().enumerate() {
                            if other != seat {
                                queue.push_back(mv.clone());
                            }
                        }
                    }
                }
                Next::Opponent => {
                    let choice = if s.relay().is_some_and(|r| r.awaits_relay()) {
                        match inbound[seat].pop_front() {
                            Some(mv) => mv,
                            None => continue,
                        }
                    } else {
                        "auto".to_string()
                    };
                    let outs = s.opponent(&choice, &mut rng).unwrap();
                    sent[seat].extend(outs.into_iter().map(|o| o.text));
                }
            }
            progressed = true;
        }
        if sessions.iter().all(|s| s.next() == Next::Finished) {
            return sent;
        }
        assert!(progressed, "every seat waits for another");
    }
    panic!("the table did not finish in {passes} passes");
}
