//! Standings of a tournament (or the tally of one match): per bot its
//! wins, draws, losses and forfeits (a forfeit is also a loss), points
//! (win 1, draw ½) and, as an option, an Elo rating updated game by game in
//! the schedule's order (so it never depends on which match finished
//! first).

use super::table::{GameRecord, Outcome};
use crate::games::EndResult;
use crate::verdict::Severity;
use serde::{Deserialize, Serialize};

/// Elo: every bot starts here, and this is the most one game moves it.
pub const ELO_START: f64 = 1500.0;
pub const ELO_K: f64 = 32.0;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Row {
    pub bot: String,
    pub games: u32,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    /// Losses by forfeit (counted in `losses` too).
    pub forfeits: u32,
    /// Failing findings that forfeited no game: found after the game's
    /// result was known, which stood (a wrong `winner` answer, say).
    pub failures: u32,
    /// Findings at warning level.
    pub warnings: u32,
    pub points: f64,
    /// `--elo`: the rating after the last game (absent without it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub elo: Option<f64>,
}

impl Row {
    fn new(bot: &str, elo: bool) -> Row {
        Row {
            bot: bot.to_string(),
            games: 0,
            wins: 0,
            draws: 0,
            losses: 0,
            forfeits: 0,
            failures: 0,
            warnings: 0,
            points: 0.0,
            elo: elo.then_some(ELO_START),
        }
    }
}

/// Each bot's score in one game, by its index in the bot list: 1 a win, ½
/// a draw or a shared top, 0 a loss; a bot the game did not finish for (it
/// did not finish, or another bot at a larger table forfeited) is absent.
/// A game at a table of more than two bots, or with built-in players at it,
/// scores each seat by its own result (both bots may lose to a built-in
/// player); a game of two bots alone by its winner.
fn game_scores(index: &dyn Fn(&str) -> Option<usize>, game: &GameRecord) -> Vec<(usize, f64)> {
    if game.seats.len() > 2 || game.seats.iter().any(|s| s.result.is_some()) {
        return game
            .seats
            .iter()
            .filter_map(|seat| {
                let score = match seat.result? {
                    EndResult::Won => 1.0,
                    EndResult::Drew => 0.5,
                    EndResult::Lost => 0.0,
                };
                Some((index(&seat.bot)?, score))
            })
            .collect();
    }
    let (Some(a), Some(b)) = (
        game.seats.first().and_then(|s| index(&s.bot)),
        game.seats.get(1).and_then(|s| index(&s.bot)),
    ) else {
        return Vec::new();
    };
    let score_a = match (&game.winner, game.outcome) {
        (Some(w), _) if w.seat == 1 => 1.0,
        (Some(_), _) => 0.0,
        (None, Outcome::Finished) => 0.5,
        (None, _) => return Vec::new(),
    };
    vec![(a, score_a), (b, 1.0 - score_a)]
}

/// Every finding of the game but the one that forfeited it, as its bot's
/// failure or warning: a finding in a match is a forfeit or is counted.
fn count_findings(rows: &mut [Row], index: &dyn Fn(&str) -> Option<usize>, game: &GameRecord) {
    let forfeiting = game.forfeit.as_ref().map(|f| f.finding);
    for (i, f) in game.findings.iter().enumerate() {
        let Some(me) = index(&f.bot) else { continue };
        if Some(i) == forfeiting {
            continue;
        }
        match f.violation.severity {
            Severity::Fail => rows[me].failures += 1,
            Severity::Warn => rows[me].warnings += 1,
        }
    }
}

/// What each bot scored against each other: `points[i][j]` the points bot
/// `i` scored in the games it played with bot `j` at the table, `games[i][j]`
/// how many. Sums only, so it does not depend on the order of the games.
#[derive(Clone, Debug, PartialEq)]
pub struct HeadToHead {
    pub points: Vec<Vec<f64>>,
    pub games: Vec<Vec<u32>>,
}

impl HeadToHead {
    pub fn new(bots: &[String], games: &[&GameRecord]) -> HeadToHead {
        let n = bots.len();
        let mut h2h = HeadToHead {
            points: vec![vec![0.0; n]; n],
            games: vec![vec![0; n]; n],
        };
        let index = |bot: &str| bots.iter().position(|b| b == bot);
        for game in games {
            let scores = game_scores(&index, game);
            for &(me, score) in &scores {
                for &(other, _) in &scores {
                    if other != me {
                        h2h.points[me][other] += score;
                        h2h.games[me][other] += 1;
                    }
                }
            }
        }
        h2h
    }

    /// The points bot `me` scored against the bots of `group`.
    fn within(&self, me: usize, group: &[usize]) -> f64 {
        group
            .iter()
            .filter(|&&o| o != me)
            .map(|&o| self.points[me][o])
            .sum()
    }
}

/// The standings after `games` (in schedule order), best first: by points,
/// then among bots with the same points by the points they scored in the
/// games between them (head to head), then by wins, then fewer forfeits,
/// then fewer other failures, then name. Nothing of it depends on the
/// order of the games or of the bots (Elo does, and ranks nothing).
pub fn standings(bots: &[String], games: &[&GameRecord], elo: bool) -> Vec<Row> {
    let mut rows: Vec<Row> = bots.iter().map(|b| Row::new(b, elo)).collect();
    let index = |bot: &str| bots.iter().position(|b| b == bot);
    for game in games {
        count_findings(&mut rows, &index, game);
        let scores = game_scores(&index, game);
        for &(me, score) in &scores {
            let row = &mut rows[me];
            row.games += 1;
            row.points += score;
            // Scores are 1, ½ or 0.
            if score > 0.75 {
                row.wins += 1;
            } else if score < 0.25 {
                row.losses += 1;
            } else {
                row.draws += 1;
            }
        }
        if let Some(f) = &game.forfeit
            && let Some(seat) = game.seats.iter().find(|s| s.seat == f.seat)
            && let Some(me) = index(&seat.bot)
            && scores.iter().any(|&(i, _)| i == me)
        {
            rows[me].forfeits += 1;
        }
        // Elo rates a game between two bots alone.
        let alone = game.seats.len() == 2 && game.seats.iter().all(|s| s.result.is_none());
        if elo
            && alone
            && let [(a, score_a), (b, _)] = scores[..]
        {
            let (ra, rb) = (
                rows[a].elo.unwrap_or(ELO_START),
                rows[b].elo.unwrap_or(ELO_START),
            );
            let (na, nb) = elo_update(ra, rb, score_a);
            rows[a].elo = Some(na);
            rows[b].elo = Some(nb);
        }
    }
    let h2h = HeadToHead::new(bots, games);
    let mut order: Vec<usize> = (0..rows.len()).collect();
    order.sort_by(|&x, &y| rows[y].points.total_cmp(&rows[x].points));
    // Each run of equal points, ranked by the tie-break.
    let mut ranked = Vec::with_capacity(order.len());
    for tied in order.chunk_by(|&x, &y| rows[x].points == rows[y].points) {
        let mut tied = tied.to_vec();
        let group = tied.clone();
        tied.sort_by(|&x, &y| {
            let (rx, ry) = (&rows[x], &rows[y]);
            h2h.within(y, &group)
                .total_cmp(&h2h.within(x, &group))
                .then(ry.wins.cmp(&rx.wins))
                .then(rx.forfeits.cmp(&ry.forfeits))
                .then(rx.failures.cmp(&ry.failures))
                .then(rx.bot.cmp(&ry.bot))
        });
        ranked.extend(tied);
    }
    ranked.into_iter().map(|i| rows[i].clone()).collect()
}

/// Both ratings after one game in which A scored `score_a` (1, ½ or 0).
pub fn elo_update(ra: f64, rb: f64, score_a: f64) -> (f64, f64) {
    let expected_a = 1.0 / (1.0 + 10f64.powf((rb - ra) / 400.0));
    let delta = ELO_K * (score_a - expected_a);
    (ra + delta, rb - delta)
}

/// The standings as CSV (a header line, then one row per bot).
pub fn csv(rows: &[Row]) -> String {
    let mut out =
        String::from("rank,bot,games,wins,draws,losses,forfeits,failures,warnings,points,elo\n");
    for (i, r) in rows.iter().enumerate() {
        let elo = r.elo.map(|e| format!("{e:.0}")).unwrap_or_default();
        let bot = if r.bot.contains([',', '"', '\n']) {
            format!("\"{}\"", r.bot.replace('"', "\"\""))
        } else {
            r.bot.clone()
        };
        out.push_str(&format!(
            "{},{bot},{},{},{},{},{},{},{},{},{elo}\n",
            i + 1,
            r.games,
            r.wins,
            r.draws,
            r.losses,
            r.forfeits,
            r.failures,
            r.warnings,
            r.points
        ));
    }
    out
}

/// The standings as a human table.
pub fn table(rows: &[Row]) -> String {
    let width = rows
        .iter()
        .map(|r| r.bot.chars().count())
        .max()
        .unwrap_or(3)
        .max(3);
    let elo = rows.iter().any(|r| r.elo.is_some());
    let mut out = format!(
        "{:>4}  {:<width$}  {:>5}  {:>4}  {:>5}  {:>6}  {:>8}  {:>8}  {:>8}  {:>6}{}\n",
        "rank",
        "bot",
        "games",
        "wins",
        "draws",
        "losses",
        "forfeits",
        "failures",
        "warnings",
        "points",
        if elo { "     elo" } else { "" }
    );
    for (i, r) in rows.iter().enumerate() {
        out.push_str(&format!(
            "{:>4}  {:<width$}  {:>5}  {:>4}  {:>5}  {:>6}  {:>8}  {:>8}  {:>8}  {:>6}{}\n",
            i + 1,
            r.bot,
            r.games,
            r.wins,
            r.draws,
            r.losses,
            r.forfeits,
            r.failures,
            r.warnings,
            r.points,
            r.elo.map(|e| format!("  {e:>6.0}")).unwrap_or_default()
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::matchplay::table::{Forfeit, SeatRecord, SeatRef};

    fn game(a: &str, b: &str, winner: Option<usize>, forfeit: bool) -> GameRecord {
        let seat = |i: usize, bot: &str| SeatRecord {
            seat: i,
            bot: bot.into(),
            side: String::new(),
            side_at_end: None,
            result: None,
        };
        let name = |s: usize| if s == 1 { a } else { b };
        GameRecord {
            number: 1,
            seats: vec![seat(1, a), seat(2, b)],
            outcome: if forfeit {
                Outcome::Forfeit
            } else {
                Outcome::Finished
            },
            winner: winner.map(|s| SeatRef {
                seat: s,
                bot: name(s).into(),
            }),
            score: Vec::new(),
            position: None,
            moves: 0,
            forfeit: forfeit.then(|| {
                let loser = if winner == Some(1) { 2 } else { 1 };
                Forfeit {
                    seat: loser,
                    bot: name(loser).into(),
                    rule: "kalah.move.empty-hole".into(),
                    message: String::new(),
                    actual: None,
                    line: None,
                    board: None,
                    after_result: false,
                    finding: 0,
                }
            }),
            shrunk: None,
            findings: Vec::new(),
            error: None,
            duration_ms: 0,
            transcript: Vec::new(),
            page: None,
        }
    }

    /// A game at a table of three, each seat with its own result; a
    /// forfeit by `forfeit_seat` (1-based) when given.
    fn table_of_three(results: [Option<EndResult>; 3], forfeit_seat: Option<usize>) -> GameRecord {
        let mut g = game("a", "b", None, forfeit_seat.is_some());
        g.seats.push(SeatRecord {
            seat: 3,
            bot: "c".into(),
            side: String::new(),
            side_at_end: None,
            result: None,
        });
        for (seat, result) in g.seats.iter_mut().zip(results) {
            seat.result = result;
        }
        if let (Some(f), Some(seat)) = (&mut g.forfeit, forfeit_seat) {
            f.seat = seat;
            f.bot = g.seats[seat - 1].bot.clone();
        }
        g
    }

    #[test]
    fn a_table_of_three_counts_each_bots_own_result() {
        use EndResult::{Drew, Lost, Won};
        let bots: Vec<String> = ["a", "b", "c"].map(String::from).to_vec();
        let games = [
            table_of_three([Some(Won), Some(Lost), Some(Lost)], None),
            // a and c share the top.
            table_of_three([Some(Drew), Some(Lost), Some(Drew)], None),
            // b forfeits: the game counts for nobody else.
            table_of_three([None, Some(Lost), None], Some(2)),
        ];
        let rows = standings(&bots, &games.iter().collect::<Vec<_>>(), false);
        let (a, b, c) = (row(&rows, "a"), row(&rows, "b"), row(&rows, "c"));
        assert_eq!(
            (a.games, a.wins, a.draws, a.losses, a.points),
            (2, 1, 1, 0, 1.5)
        );
        assert_eq!((b.games, b.losses, b.forfeits, b.points), (3, 3, 1, 0.0));
        assert_eq!(
            (c.games, c.wins, c.draws, c.losses, c.points),
            (2, 0, 1, 1, 0.5)
        );
        assert_eq!(rows[0].bot, "a");
    }

    fn row<'a>(rows: &'a [Row], bot: &str) -> &'a Row {
        rows.iter().find(|r| r.bot == bot).expect("a row per bot")
    }

    #[test]
    fn wins_draws_losses_forfeits_and_points_add_up() {
        let bots: Vec<String> = ["a", "b", "c"].map(String::from).to_vec();
        let games = [
            game("a", "b", Some(1), false),
            game("b", "a", None, false),
            game("a", "c", Some(2), true),
            game("c", "b", Some(1), false),
        ];
        let rows = standings(&bots, &games.iter().collect::<Vec<_>>(), false);
        let (a, b, c) = (row(&rows, "a"), row(&rows, "b"), row(&rows, "c"));
        assert_eq!((a.wins, a.draws, a.losses, a.forfeits), (1, 1, 1, 1));
        assert_eq!((b.wins, b.draws, b.losses, b.forfeits), (0, 1, 2, 0));
        assert_eq!((c.wins, c.draws, c.losses, c.forfeits), (2, 0, 0, 0));
        assert_eq!((a.points, b.points, c.points), (1.5, 0.5, 2.0));
        let total: f64 = rows.iter().map(|r| r.points).sum();
        assert_eq!(total, games.len() as f64, "one point per game");
        assert_eq!(rows[0].bot, "c", "best first");
        assert!(rows.iter().all(|r| r.elo.is_none()));
    }

    #[test]
    fn a_forfeit_is_a_loss_and_a_forfeit_of_the_loser() {
        let bots: Vec<String> = ["a", "b"].map(String::from).to_vec();
        let games = [game("a", "b", Some(2), true)];
        let rows = standings(&bots, &games.iter().collect::<Vec<_>>(), false);
        let a = row(&rows, "a");
        assert_eq!((a.losses, a.forfeits, a.points), (1, 1, 0.0));
        assert_eq!(row(&rows, "b").wins, 1);
    }

    /// Issue 26.11: a tie in points is broken by the games between the tied
    /// bots, not by their names, the order the bots were given in or the
    /// schedule's order.
    #[test]
    fn a_tie_in_points_goes_to_the_head_to_head_winner_whatever_the_names_and_orders() {
        // y beat x; x beat z twice; y and z won one each: x and y both have
        // 2 points from 2 wins and no forfeit, and y won the game between
        // them.
        for (x, y, z) in [("alpha", "zulu", "mid"), ("zulu", "alpha", "mid")] {
            let games = [
                game(y, x, Some(1), false),
                game(x, z, Some(1), false),
                game(z, x, Some(2), false),
                game(y, z, Some(1), false),
                game(y, z, Some(2), false),
            ];
            for reversed_games in [false, true] {
                let mut order: Vec<&GameRecord> = games.iter().collect();
                if reversed_games {
                    order.reverse();
                }
                for bots in [[x, y, z], [z, y, x], [y, z, x]] {
                    let bots: Vec<String> = bots.map(String::from).to_vec();
                    let rows = standings(&bots, &order, true);
                    let ranked: Vec<&str> = rows.iter().map(|r| r.bot.as_str()).collect();
                    assert_eq!(
                        ranked,
                        [y, x, z],
                        "{bots:?}, games reversed: {reversed_games}"
                    );
                    assert_eq!(row(&rows, x).points, row(&rows, y).points);
                    assert_eq!(row(&rows, x).wins, row(&rows, y).wins);
                }
            }
        }
    }

    #[test]
    fn head_to_head_sums_what_each_scored_against_each() {
        let bots: Vec<String> = ["a", "b"].map(String::from).to_vec();
        let games = [
            game("a", "b", Some(1), false),
            game("b", "a", None, false),
            game("b", "a", Some(1), true),
        ];
        let h2h = HeadToHead::new(&bots, &games.iter().collect::<Vec<_>>());
        assert_eq!(h2h.points, [[0.0, 1.5], [1.5, 0.0]]);
        assert_eq!(h2h.games, [[0, 3], [3, 0]]);
    }

    #[test]
    fn elo_moves_by_k_times_the_surprise_and_keeps_the_sum() {
        let (a, b) = elo_update(1500.0, 1500.0, 1.0);
        assert_eq!((a, b), (1516.0, 1484.0));
        let (a, b) = elo_update(1500.0, 1500.0, 0.5);
        assert_eq!((a, b), (1500.0, 1500.0));
        // A 400-point favourite is expected to score 10/11.
        let (a, b) = elo_update(1900.0, 1500.0, 1.0);
        assert!((a - (1900.0 + 32.0 / 11.0)).abs() < 1e-9, "{a}");
        assert!((a + b - 3400.0).abs() < 1e-9);
        let bots: Vec<String> = ["a", "b"].map(String::from).to_vec();
        let games = [game("a", "b", Some(1), false)];
        let rows = standings(&bots, &games.iter().collect::<Vec<_>>(), true);
        assert_eq!(row(&rows, "a").elo, Some(1516.0));
        assert_eq!(row(&rows, "b").elo, Some(1484.0));
    }

    #[test]
    fn the_csv_has_a_header_and_a_row_per_bot() {
        let bots: Vec<String> = ["a", "b"].map(String::from).to_vec();
        let games = [game("a", "b", None, false)];
        let rows = standings(&bots, &games.iter().collect::<Vec<_>>(), false);
        assert_eq!(
            csv(&rows),
            "rank,bot,games,wins,draws,losses,forfeits,failures,warnings,points,elo\n1,a,1,0,1,0,0,0,0,0.5,\n2,b,1,0,1,0,0,0,0,0.5,\n"
        );
    }

    /// Two bots with built-in players at the table (Evolution, Dominion):
    /// each bot counts by its own result, so both may lose to a built-in
    /// player, and a forfeit is only the forfeiting bot's loss.
    #[test]
    fn two_bots_beside_built_in_players_count_by_their_own_results() {
        use crate::games::EndResult::{Drew, Lost};
        let bots: Vec<String> = ["a", "b"].map(String::from).to_vec();
        let mut lost_to_built_in = game("a", "b", None, false);
        lost_to_built_in.seats[0].result = Some(Lost);
        lost_to_built_in.seats[1].result = Some(Lost);
        let mut shared = game("b", "a", None, false);
        shared.seats[0].result = Some(Drew);
        shared.seats[1].result = Some(Lost);
        let mut forfeit = game("a", "b", None, true);
        forfeit.winner = None;
        forfeit.forfeit.as_mut().unwrap().seat = 1;
        forfeit.forfeit.as_mut().unwrap().bot = "a".into();
        forfeit.seats[0].result = Some(Lost);
        let games = [lost_to_built_in, shared, forfeit];
        let rows = standings(&bots, &games.iter().collect::<Vec<_>>(), true);
        let (a, b) = (row(&rows, "a"), row(&rows, "b"));
        assert_eq!(
            (a.games, a.wins, a.draws, a.losses, a.forfeits),
            (3, 0, 0, 3, 1)
        );
        assert_eq!(
            (b.games, b.wins, b.draws, b.losses, b.forfeits),
            (2, 0, 1, 1, 0)
        );
        assert_eq!((a.points, b.points), (0.0, 0.5));
        assert!(rows.iter().all(|r| r.elo == Some(ELO_START)), "{rows:?}");
    }
}
