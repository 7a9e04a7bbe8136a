use super::*;

fn start() -> Position {
    Position::new(7, 7)
}

fn play_all(moves: &[u8]) -> Position {
    let mut p = start();
    for &h in moves {
        p.play(Move::Hole(h)).unwrap();
    }
    p
}

/// One simulated scenario: the bot plays uniformly random legal moves
/// (as North it swaps with probability `swap_chance` when it may), and each
/// opponent move takes the next word of `words` (then `Pass`). Returns every
/// move as (mover is the opponent, outcome, sown).
fn simulate(
    bot: Side,
    words: &[Aim],
    swap_chance: f64,
    rng: &mut fastrand::Rng,
) -> Vec<(bool, MoveOutcome)> {
    let mut p = start();
    let mut bot_side = bot;
    let mut words = words.iter().copied();
    let mut log = Vec::new();
    while !p.is_over() && log.len() < 400 {
        let mover_is_opponent = p.to_move() != bot_side;
        let mv = if mover_is_opponent {
            choose(&p, words.next().unwrap_or(Aim::Pass))
        } else if p.swap_allowed() && rng.f64() < swap_chance {
            Move::Swap
        } else {
            let holes: Vec<Move> = p
                .legal_moves()
                .filter(|m| matches!(m, Move::Hole(_)))
                .collect();
            holes[rng.usize(..holes.len())]
        };
        if mv == Move::Swap {
            // The swapper (either player) is South from now on.
            bot_side = if mover_is_opponent {
                Side::North
            } else {
                Side::South
            };
        }
        let o = p.play(mv).unwrap();
        log.push((mover_is_opponent, o));
    }
    log
}

/// The longest run of opponent moves the bot sees as `…;OPP` in a row
/// (the opponent's own extra turns), counting moves that keep the turn.
fn longest_opponent_chain(log: &[(bool, MoveOutcome)]) -> usize {
    let (mut best, mut run) = (0, 0);
    for &(opp, o) in log {
        if opp && o.extra_turn && !o.game_over {
            run += 1;
            best = best.max(run);
        } else {
            run = 0;
        }
    }
    best
}

#[test]
fn words_parse_and_others_do_not() {
    for w in Aim::WORDS {
        assert!(Aim::parse(w).is_some(), "{w}");
    }
    assert_eq!(Aim::parse("auto"), None);
    assert_eq!(Aim::parse("Extra-Turn"), None);
}

#[test]
fn extra_turn_takes_the_move_into_the_store() {
    // After South's opening 1, North hole 1 holds 7: exactly to the store.
    let p = play_all(&[1]);
    assert_eq!(choose(&p, Aim::ExtraTurn), Move::Hole(1));
    // After opening 2 no North move reaches the store; the choice is still a
    // legal hole, and the same every time.
    let p = play_all(&[2]);
    let m = choose(&p, Aim::ExtraTurn);
    assert!(p.check(m).is_ok() && m != Move::Swap);
    assert_eq!(m, choose(&p, Aim::ExtraTurn));
}

#[test]
fn pass_never_keeps_the_turn() {
    let p = play_all(&[1]);
    let m = choose(&p, Aim::Pass);
    let mut after = p;
    let o = after.play(m).unwrap();
    assert!(!o.extra_turn && !o.game_over, "{m:?}");
    assert_eq!(m, Move::Hole(2));
}

#[test]
fn capture_takes_the_biggest_capture() {
    // kalah.md §3.9: South 2, North 3, South 4, North 1, then South 2
    // captures North 4 (10 + 1).
    let p = play_all(&[2, 3, 4, 1]);
    let m = choose(&p, Aim::Capture);
    let mut after = p;
    let o = after.play(m).unwrap();
    assert!(o.captured >= 11, "{m:?} captured {}", o.captured);
}

#[test]
fn steering_reaches_the_situations_against_random_bots() {
    // The 7×7 scenarios repeat a word for a handful of opponent moves; against
    // a bot playing at random they must reach the situation in nearly every
    // game (here: 200 games each, fixed seeds).
    let games = 200;
    let mut rng = fastrand::Rng::with_seed(7);
    let mut chain3 = 0;
    let mut chain3_north = 0;
    let mut laps = 0;
    let mut captures = 0;
    let mut empty_row = 0;
    for _ in 0..games {
        let log = simulate(Side::South, &[Aim::ExtraTurn; 24], 0.0, &mut rng);
        if longest_opponent_chain(&log) >= 3 {
            chain3 += 1;
        }
        let log = simulate(Side::North, &[Aim::ExtraTurn; 24], 0.5, &mut rng);
        if longest_opponent_chain(&log) >= 3 {
            chain3_north += 1;
        }
        let log = simulate(Side::North, &[Aim::Lap; 30], 0.0, &mut rng);
        if log.iter().any(|&(opp, o)| opp && o.sown >= 15) {
            laps += 1;
        }
        let log = simulate(Side::South, &[Aim::Capture; 10], 0.0, &mut rng);
        if log.iter().take(16).any(|&(opp, o)| opp && o.captured > 0) {
            captures += 1;
        }
        let log = simulate(Side::North, &[Aim::EmptyRow; 60], 0.0, &mut rng);
        let last = log.last().unwrap();
        if last.0 && last.1.game_over && last.1.captured == 0 {
            empty_row += 1;
        }
    }
    eprintln!(
        "chain3 {chain3}/{chain3_north} laps {laps} captures {captures} empty_row {empty_row} of {games}"
    );
    assert!(chain3 >= games * 8 / 10, "chains of 3: {chain3}/{games}");
    assert!(
        chain3_north >= games * 8 / 10,
        "chains of 3 (bot North): {chain3_north}/{games}"
    );
    assert!(laps >= games * 9 / 10, "laps: {laps}/{games}");
    assert!(captures >= games * 9 / 10, "captures: {captures}/{games}");
    // Who ends the game depends on the bot as much: the bot's own moves
    // (emptying its row, capturing the last seeds) end most of the rest.
    assert!(empty_row >= games / 7, "empty row: {empty_row}/{games}");
}
