use super::*;
use std::sync::atomic::AtomicUsize;
use std::time::Duration;

/// A short, random nap: jobs then finish in an order of their own.
fn nap(rng: &std::sync::Mutex<fastrand::Rng>) {
    let ms = rng.lock().unwrap().u64(0..4);
    std::thread::sleep(Duration::from_millis(ms));
}

fn done<T>(outcomes: Vec<Outcome<T>>) -> Vec<Option<T>> {
    outcomes
        .into_iter()
        .map(|o| match o {
            Outcome::Done(v) => Some(v),
            _ => None,
        })
        .collect()
}

#[test]
fn results_come_back_by_index_whatever_order_the_jobs_finish_in() {
    let rng = std::sync::Mutex::new(fastrand::Rng::with_seed(7));
    let finished = std::sync::Mutex::new(Vec::new());
    let pool = Pool::new(4, &StopToken::new());
    let outcomes = pool.run(
        40,
        |job| {
            nap(&rng);
            finished.lock().unwrap().push(job.index);
            job.index * 10
        },
        &mut |_| {},
    );
    let want: Vec<Option<usize>> = (0..40).map(|i| Some(i * 10)).collect();
    assert_eq!(done(outcomes), want);
    // They did finish out of order (else the test proves nothing).
    let finished = finished.into_inner().unwrap();
    assert_ne!(finished, (0..40).collect::<Vec<_>>());
}

#[test]
fn no_more_than_jobs_run_at_once() {
    let rng = std::sync::Mutex::new(fastrand::Rng::with_seed(3));
    let (now, most) = (AtomicUsize::new(0), AtomicUsize::new(0));
    let pool = Pool::new(3, &StopToken::new());
    let outcomes = pool.run(
        30,
        |_| {
            let running = now.fetch_add(1, Ordering::SeqCst) + 1;
            most.fetch_max(running, Ordering::SeqCst);
            nap(&rng);
            now.fetch_sub(1, Ordering::SeqCst);
        },
        &mut |_| {},
    );
    assert_eq!(outcomes.len(), 30);
    assert!(outcomes.iter().all(|o| *o == Outcome::Done(())));
    let most = most.into_inner();
    assert!((1..=3).contains(&most), "{most} at once");
}

#[test]
fn a_stopped_token_stops_the_pool_taking_new_jobs() {
    let stop = StopToken::new();
    let pool = Pool::new(1, &stop);
    let outcomes = pool.run(
        6,
        |job| {
            if job.index == 2 {
                stop.stop(libc::SIGINT);
            }
            job.index
        },
        &mut |_| {},
    );
    assert_eq!(
        done(outcomes),
        vec![Some(0), Some(1), Some(2), None, None, None]
    );
    // Stopped before it starts: nothing runs.
    let ran = AtomicUsize::new(0);
    let outcomes = Pool::new(4, &stop).run(
        5,
        |_| {
            ran.fetch_add(1, Ordering::SeqCst);
        },
        &mut |_| {},
    );
    assert_eq!(ran.into_inner(), 0);
    assert!(outcomes.iter().all(|o| *o == Outcome::NotRun));
}

#[test]
fn a_halt_from_a_job_starts_nothing_more_and_keeps_the_token_as_it_was() {
    let stop = StopToken::new();
    let pool = Pool::new(1, &stop);
    let outcomes = pool.run(
        4,
        |job| {
            if job.index == 1 {
                pool.halt();
            }
        },
        &mut |_| {},
    );
    assert_eq!(
        outcomes,
        vec![
            Outcome::Done(()),
            Outcome::Done(()),
            Outcome::NotRun,
            Outcome::NotRun
        ]
    );
    assert!(!stop.is_stopped());
}

#[test]
fn a_panicking_job_is_its_own_outcome_and_the_others_finish() {
    let pool = Pool::new(2, &StopToken::new());
    let outcomes = pool.run(
        5,
        |job| {
            if job.index == 1 {
                panic!("job {} broke", job.index);
            }
            job.index
        },
        &mut |_| {},
    );
    assert_eq!(outcomes[1], Outcome::Panicked("job 1 broke".into()));
    assert_eq!(
        done(outcomes),
        vec![Some(0), None, Some(2), Some(3), Some(4)]
    );
}

#[test]
fn every_job_is_reported_started_then_finished_with_its_outcome() {
    let mut events = Vec::new();
    let pool = Pool::new(2, &StopToken::new());
    pool.run(4, |job| job.index + 100, &mut |event| {
        events.push(match event {
            Event::Started { index, .. } => (index, None),
            Event::Finished { index, outcome, .. } => (
                index,
                Some(match outcome {
                    Outcome::Done(v) => *v,
                    _ => 0,
                }),
            ),
        })
    });
    assert_eq!(events.len(), 8);
    for i in 0..4 {
        let started = events.iter().position(|e| *e == (i, None)).unwrap();
        let finished = events.iter().position(|e| *e == (i, Some(i + 100)));
        assert!(finished.is_some_and(|f| f > started), "{events:?}");
    }
}

#[test]
fn the_slots_no_later_job_needs_go_to_the_last_jobs() {
    let shares = |jobs: usize, count: usize| {
        let mut slots = vec![0; count];
        Pool::new(jobs, &StopToken::new())
            .spare_slots_to_the_last()
            .run(count, |_| {}, &mut |event| {
                if let Event::Started { index, slots: s } = event {
                    slots[index] = s;
                }
            });
        slots
    };
    // 3 jobs, 4 slots: 1, 1, then 2; 2 jobs, 8 slots: 4 each; 1 job: all.
    assert_eq!(shares(4, 3), vec![1, 1, 2]);
    assert_eq!(shares(8, 2), vec![4, 4]);
    assert_eq!(shares(4, 1), vec![4]);
    // Without it every job holds one slot.
    let mut slots = Vec::new();
    Pool::new(4, &StopToken::new()).run(2, |_| {}, &mut |event| {
        if let Event::Started { slots: s, .. } = event {
            slots.push(s);
        }
    });
    assert_eq!(slots, vec![1, 1]);
}

#[test]
fn a_job_s_share_is_one_slot_while_jobs_outnumber_the_free_slots() {
    // 10 jobs, 2 slots: one each.
    assert_eq!(share(2, 10), 1);
    assert_eq!(share(1, 9), 1);
    assert_eq!(share(4, 1), 4);
    assert_eq!([share(4, 3), share(3, 2), share(2, 1)], [1, 1, 2]);
    assert_eq!([share(8, 2), share(4, 1)], [4, 4]);
}
