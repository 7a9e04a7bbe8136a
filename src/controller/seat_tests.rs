//! A run with two bots at the table: each seat's messages go to its own bot,
//! each bot's output is read from its own seat, what one bot does is
//! reported against its seat only, and both process groups are killed at
//! the end.

use super::seat::{Lifecycle, SeatId};
use super::*;
use crate::games::Outgoing;
use crate::outcome::Direction;
use crate::transport::BotEvent;

fn sh(script: &str) -> BotCommand {
    BotCommand {
        program: "sh".into(),
        args: vec!["-c".into(), script.into()],
        env: Default::default(),
        workdir: None,
    }
}

fn config(bot: BotCommand) -> RunConfig {
    RunConfig {
        bot,
        limits: Limits::default(),
        timeout: None,
        startup_timeout: None,
        // Kept short so the end of the run does not wait long for the first
        // bot, which leaves only at end-of-input.
        exit_grace: Some(Duration::from_millis(200)),
        silence: None,
        strict: false,
        max_output: bounds::DEFAULT_MAX_OUTPUT,
        tcp: TcpConfig::default(),
        pictures: false,
        stop: Default::default(),
    }
}

/// A bound on waiting for a bot, not a speed expectation.
fn far() -> Instant {
    Instant::now() + Duration::from_secs(60)
}

fn message(event: Option<BotEvent>) -> String {
    match event {
        Some(BotEvent::Message { bytes, .. }) => String::from_utf8_lossy(&bytes).into_owned(),
        other => panic!("expected a message, got {other:?}"),
    }
}

#[cfg(target_os = "linux")]
fn running(pid: i32) -> bool {
    std::path::Path::new(&format!("/proc/{pid}")).exists()
}

#[test]
fn two_seats_route_messages_replies_and_a_crash_to_their_own_bot() {
    let game = crate::games::by_id("kalah").expect("kalah is a game");
    let scenario = crate::scenario::load::parse(
        "name: two-seats\ngame: kalah\nsteps:\n  - wait: 1ms\n",
        "two-seats.yaml",
        Some("kalah"),
    )
    .expect("the scenario loads");
    // Seat 1 echoes every line it reads; seat 2 answers one line, then
    // crashes.
    let cfg = config(sh(r#"while read l; do echo "first:$l"; done"#));
    let Ok(Ok(mut run)) = start_run(&scenario, game, &cfg) else {
        panic!("the first bot starts");
    };
    let second = run
        .seat_another(&sh(r#"read l; echo "second:$l"; exit 3"#))
        .expect("the second bot starts");
    assert_eq!(second, SeatId(1));
    let pids: Vec<i32> = run
        .seats
        .iter()
        .map(|s| s.inbox.conn.pid().expect("a spawned bot has a pid"))
        .collect();
    assert_ne!(pids[0], pids[1]);

    run.turn_to(SeatId(0));
    run.write(Outgoing::silent("to-the-first"));
    run.turn_to(second);
    run.write(Outgoing::silent("to-the-second"));

    // Each bot answers what was sent to it, read from its own seat (the
    // second is read first: a reply from the wrong connection shows).
    assert_eq!(message(run.next_event(far())), "second:to-the-second\n");
    run.turn_to(SeatId(0));
    assert_eq!(message(run.next_event(far())), "first:to-the-first\n");

    // The second bot crashes: it is gone, and the finding is about it.
    run.turn_to(second);
    for _ in 0..60 {
        if run.gone() {
            break;
        }
        run.listen_for_wait(Duration::from_secs(1));
    }
    assert!(run.seats[second].life.is_gone(), "the crash is seen");
    assert_eq!(run.seats[SeatId(0)].life, Lifecycle::Running);
    assert!(run.has_failure(), "a crash mid-game is a failure");
    assert!(!run.ledger.finding_seats.is_empty());
    assert!(
        run.ledger.finding_seats.iter().all(|&s| s == second),
        "every finding so far is about the second seat: {:?}",
        run.ledger.finding_seats
    );

    // The first bot is still there and still answers on its own seat.
    run.turn_to(SeatId(0));
    run.write(Outgoing::silent("again"));
    assert_eq!(message(run.next_event(far())), "first:again\n");

    let result = run.finish(None).result;
    let lines: Vec<(Direction, &str)> = result
        .transcript
        .iter()
        .map(|l| (l.dir, l.text.as_str()))
        .collect();
    for want in [
        (Direction::Sent, "seat 1: to-the-first"),
        (Direction::Sent, "seat 2: to-the-second"),
        (Direction::Note, "seat 2: the bot closed its output"),
        (Direction::Sent, "seat 1: again"),
    ] {
        assert!(lines.contains(&want), "{want:?} in {lines:#?}");
    }
    assert!(
        !lines.contains(&(Direction::Note, "seat 1: the bot closed its output")),
        "the first bot's output never closed mid-game: {lines:#?}"
    );
    assert_eq!(result.status, Status::Failed);
    // Both process groups were killed and reaped.
    #[cfg(target_os = "linux")]
    for pid in pids {
        assert!(!running(pid), "bot {pid} still runs after the run ended");
    }
}

#[test]
fn an_ordinary_run_has_one_seat_and_unlabelled_lines() {
    let game = crate::games::by_id("kalah").expect("kalah is a game");
    let scenario = crate::scenario::load::parse(
        "name: one-seat\ngame: kalah\nsteps:\n  - wait: 1ms\n",
        "one-seat.yaml",
        Some("kalah"),
    )
    .expect("the scenario loads");
    let cfg = config(sh(r#"while read l; do echo "only:$l"; done"#));
    let Ok(Ok(mut run)) = start_run(&scenario, game, &cfg) else {
        panic!("the bot starts");
    };
    assert_eq!(run.seats.len(), 1);
    run.write(Outgoing::silent("hello"));
    assert_eq!(message(run.next_event(far())), "only:hello\n");
    let result = run.finish(None).result;
    assert!(
        result
            .transcript
            .iter()
            .any(|l| l.dir == Direction::Sent && l.text == "hello"),
        "{:#?}",
        result.transcript
    );
}

#[test]
fn a_seat_refereed_by_its_own_session_keeps_it_across_turns() {
    let game = crate::games::by_id("kalah").expect("kalah is a game");
    let scenario = crate::scenario::load::parse(
        "name: own-sessions\ngame: kalah\nsteps:\n  - wait: 1ms\n",
        "own-sessions.yaml",
        Some("kalah"),
    )
    .expect("the scenario loads");
    let cfg = config(sh("cat > /dev/null"));
    let Ok(Ok(mut run)) = start_run(&scenario, game, &cfg) else {
        panic!("the first bot starts");
    };
    let session = game.session(&scenario.options).expect("a second session");
    let second = run
        .seat_refereed(&sh("cat > /dev/null"), session)
        .expect("the second bot starts");
    run.session.send("START;South").expect("seat 1 is South");
    run.turn_to(second);
    // A shared session would refuse a second START.
    run.session
        .send("START;North")
        .expect("seat 2 has its own session");
    assert_eq!(run.session.next(), crate::games::Next::Opponent);
    run.turn_to(SeatId(0));
    assert_eq!(
        run.session.next(),
        crate::games::Next::Bot,
        "South moves first"
    );
    run.turn_to(SeatId(0));
    assert_eq!(
        run.session.next(),
        crate::games::Next::Bot,
        "turning to the seat at hand keeps its session"
    );
    run.turn_to(second);
    assert_eq!(run.session.next(), crate::games::Next::Opponent);
    let _ = run.finish(None);
}
