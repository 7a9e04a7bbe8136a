//! A forfeited match game made shorter (docs/shrinking.md, "Matches"):
//! the bots' moves are their own and both are re-run on each candidate, so
//! protocheck varies only what it sets at the table: the seats (each game
//! of a match rotates them) and the table's seed, which deals the cards and
//! drives the built-in seats' choices. A candidate is another game number
//! of the same match, played as `protocheck match … --games N` plays its
//! game N; it counts when the same bot forfeits with the same rule in fewer
//! moves, every one of [`super::RERUNS`] times.

use super::search::{self, Failure, Plan};
use std::time::{Duration, Instant};

/// The game numbers tried: 1 to this many.
pub const GAMES: usize = 16;

/// A forfeit as the shrinker compares it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Forfeit {
    pub bot: String,
    pub rule: String,
    /// Moves played before it.
    pub moves: usize,
}

/// How shrinking one forfeited game went.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MatchShrinking {
    /// The shortest game found that forfeits the same way: game `game` of
    /// the match (perhaps the original).
    Shrunk {
        game: usize,
        from: usize,
        to: usize,
        runs: usize,
        complete: bool,
    },
    NotRepeatable {
        runs: usize,
    },
    NoTime,
}

impl MatchShrinking {
    /// One sentence for the report.
    pub fn summary(&self, original: usize, budget: Duration) -> String {
        let budget = humantime::format_duration(budget);
        match self {
            MatchShrinking::Shrunk {
                game,
                from,
                to,
                runs,
                complete,
            } if to < from => format!(
                "shrunk from {from} moves to {to} in {runs} runs: game {game} of this match forfeits the same way (`--games {game}` plays it last){}",
                if *complete {
                    String::new()
                } else {
                    format!(", stopped by --shrink-time {budget}")
                }
            ),
            MatchShrinking::Shrunk { runs, complete, .. } => format!(
                "not shrunk: no other game of this match forfeited the same way sooner in {runs} runs{}",
                if *complete {
                    String::new()
                } else {
                    format!(" (--shrink-time {budget})")
                }
            ),
            MatchShrinking::NotRepeatable { runs } => format!(
                "not shrunk: played again, game {original} did not forfeit the same way (after {runs} run{}): are the bots deterministic?",
                if *runs == 1 { "" } else { "s" }
            ),
            MatchShrinking::NoTime => format!(
                "not shrunk: --shrink-time {budget} ran out before game {original} was played again"
            ),
        }
    }
}

/// Shrink the forfeit of game `original` within `budget`; `play(n)` plays
/// game `n` of the match again and says how it was forfeited, if it was.
pub fn shrink(
    original: usize,
    forfeit: &Forfeit,
    budget: Duration,
    stop: &crate::pool::StopToken,
    mut play: impl FnMut(usize) -> Option<Forfeit>,
) -> MatchShrinking {
    // Frame 0 is the original game; the others are the match's other games.
    let games: Vec<usize> = std::iter::once(original)
        .chain((1..=GAMES).filter(|&g| g != original))
        .collect();
    let same = |f: &Forfeit| format!("{}: {}", f.bot, f.rule);
    let deadline = Instant::now() + budget;
    let mut out_of_time = || Instant::now() >= deadline || stop.is_stopped();
    let settings = search::Settings {
        reruns: super::RERUNS,
        frames: games.len(),
        alternatives: 0,
        replace_first: false,
    };
    let first = Failure {
        rule: same(forfeit),
        size: forfeit.moves,
        played: Plan {
            frame: 0,
            choices: Vec::<()>::new(),
        },
        alternatives: Vec::new(),
    };
    let outcome = search::Search::new(settings, &mut out_of_time, |plan: &Plan<()>| {
        let f = play(games[plan.frame])?;
        Some(Failure {
            rule: same(&f),
            size: f.moves,
            played: plan.clone(),
            alternatives: Vec::new(),
        })
    })
    .run(first);
    match outcome {
        search::Outcome::Shrunk {
            original: from,
            best,
            runs,
            complete,
        } => MatchShrinking::Shrunk {
            game: games[best.played.frame],
            from,
            to: best.size,
            runs,
            complete,
        },
        search::Outcome::NotRepeatable { runs, .. } => MatchShrinking::NotRepeatable { runs },
        search::Outcome::NoTime { .. } => MatchShrinking::NoTime,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn forfeit(bot: &str, moves: usize) -> Forfeit {
        Forfeit {
            bot: bot.into(),
            rule: "kalah.move.empty-hole".into(),
            moves,
        }
    }

    #[test]
    fn the_game_that_forfeits_the_same_way_soonest_is_found() {
        // Game 3 forfeits after 40 moves; game 7 after 9, game 12 after 5
        // but by the other bot.
        let play = |g: usize| match g {
            3 => Some(forfeit("a", 40)),
            7 => Some(forfeit("a", 9)),
            12 => Some(forfeit("b", 5)),
            _ => None,
        };
        let got = shrink(
            3,
            &forfeit("a", 40),
            Duration::from_secs(60),
            &Default::default(),
            play,
        );
        let MatchShrinking::Shrunk { game, from, to, .. } = got else {
            panic!("{got:?}");
        };
        assert_eq!((game, from, to), (7, 40, 9));
        assert!(
            got.summary(3, Duration::from_secs(30))
                .starts_with("shrunk from 40 moves to 9 in ")
        );
    }

    #[test]
    fn a_game_that_does_not_forfeit_again_the_same_way_is_not_shrunk() {
        let mut n = 0;
        let play = |_g: usize| {
            n += 1;
            Some(forfeit("a", 40 + n))
        };
        let got = shrink(
            3,
            &forfeit("a", 40),
            Duration::from_secs(60),
            &Default::default(),
            play,
        );
        assert!(
            matches!(got, MatchShrinking::NotRepeatable { .. }),
            "{got:?}"
        );
    }
}
