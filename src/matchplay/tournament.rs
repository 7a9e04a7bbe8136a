//! `protocheck tournament`: a round robin, every ordered pair of bots one
//! match (so each pair plays in both seat orders), `--jobs` matches at a
//! time. Results are kept in schedule order, so the standings (and Elo,
//! updated game by game in that order) never depend on `--jobs`. The
//! output folder holds each match (`matches/NN-A-vs-B.json`) and the
//! standings (`standings.json`, `standings.csv`, `standings.txt`), each
//! match's page (`matches/NN-A-vs-B.html`) and `index.html` (the standings
//! with an SVG chart of the points, the head-to-head table and every match
//! with its result and links); the pages draw the board at each line only
//! for an HTML report (`--report html…`, `--format html`: drawing costs
//! time). The reports asked for are written from the same record.

use super::report::{MatchLine, MatchReport, Meeting, TournamentReport};
use super::standings::{self, HeadToHead};
use super::table::Player;
use super::{MatchFormat, Setup, TableConfig, write_file};
use crate::fatal::Fatal;
use std::path::{Path, PathBuf};

/// A round robin (the command line's help says what each option means).
#[derive(Debug)]
pub struct TournamentConfig {
    pub table: TableConfig,
    /// Bot programs, as paths or globs; at least two.
    pub bots: Vec<String>,
    /// Games per match.
    pub games: usize,
    /// Matches played at once.
    pub jobs: Option<usize>,
    /// Add an Elo rating to the standings.
    pub elo: bool,
    /// The output folder.
    pub out: PathBuf,
    /// As a match's: how long to look for a shorter forfeit.
    pub shrink_time: std::time::Duration,
}

pub fn tournament(args: &TournamentConfig, stop: &crate::pool::StopToken) -> Result<i32, Fatal> {
    let reports = super::report::plan(&args.table.report, args.table.format)
        .map_err(|e| Fatal::usage(e.to_string()))?;
    let (setup, cwd, players) = super::seat_players(&args.table, args.games, &args.bots, stop)?;
    if players.len() < 2 {
        return Err(Fatal::usage(format!(
            "a tournament needs at least two bots; {} given",
            players.len()
        )));
    }
    // Every match is a table of two.
    setup.check_table(2)?;
    let schedule: Vec<(usize, usize)> = (0..players.len())
        .flat_map(|i| {
            (0..players.len())
                .filter(move |&j| j != i)
                .map(move |j| (i, j))
        })
        .collect();
    let jobs = super::jobs(args.jobs);
    let out = cwd.join(&args.out);
    let matches_dir = out.join("matches");
    std::fs::create_dir_all(&matches_dir)
        .map_err(|e| Fatal::io(format!("cannot create {}", matches_dir.display()), e))?;
    let sandbox = crate::transport::sandbox::settle(&setup.cfg.limits.sandbox)
        .map_err(|e| Fatal::usage(e.to_string()))?;
    let reports_played = play_all(
        &setup,
        &sandbox,
        &players,
        &schedule,
        (args.games, args.shrink_time),
        jobs,
    )?;

    let ids: Vec<String> = players.iter().map(|p| p.id.clone()).collect();
    let games: Vec<_> = reports_played.iter().flat_map(|r| &r.games).collect();
    let rows = standings::standings(&ids, &games, args.elo);
    let h2h = HeadToHead::new(&ids, &games);
    let mut lines = Vec::with_capacity(reports_played.len());
    let mut pages = Vec::new();
    for (n, (report, &(i, j))) in reports_played.iter().zip(&schedule).enumerate() {
        let stem = format!(
            "matches/{:02}-{}-vs-{}",
            n + 1,
            players[i].id,
            players[j].id
        );
        let file = format!("{stem}.json");
        write_file(&out.join(&file), &report.json())?;
        let page = format!("{stem}.html");
        write_file(&out.join(&page), &report.html())?;
        let wins = |id: &str| {
            report
                .games
                .iter()
                .filter(|g| g.winner.as_ref().is_some_and(|w| w.bot == id))
                .count()
        };
        // A finished game no bot won: a draw, unless every bot at it lost
        // (a built-in player won).
        let (built_in_wins, finished_draws) = report
            .games
            .iter()
            .filter(|g| g.winner.is_none() && g.outcome == super::table::Outcome::Finished)
            .partition::<Vec<_>, _>(|g| {
                g.seats
                    .iter()
                    .all(|s| s.result == Some(crate::games::EndResult::Lost))
            });
        let (built_in_wins, finished_draws) = (built_in_wins.len(), finished_draws.len());
        let forfeits = report.games.iter().filter(|g| g.forfeit.is_some()).count();
        let (first, second) = (players[i].id.clone(), players[j].id.clone());
        let (first_wins, second_wins) = (wins(&first), wins(&second));
        let result = format!("{first} {first_wins}, {second} {second_wins}")
            + &[
                (finished_draws, "drawn"),
                (built_in_wins, "won by a built-in player"),
                (forfeits, "by forfeit"),
            ]
            .iter()
            .filter(|(n, _)| *n > 0)
            .map(|(n, what)| format!("; {n} {what}"))
            .collect::<String>();
        pages.push(super::page::Linked {
            number: n + 1,
            first: first.clone(),
            second: second.clone(),
            result: result.clone(),
            page: page.clone(),
            json: file.clone(),
        });
        lines.push(MatchLine {
            number: n + 1,
            first,
            second,
            first_wins,
            second_wins,
            draws: finished_draws,
            built_in_wins,
            forfeits,
            result,
            file,
            page,
        });
    }
    // Every ordered pair that met, both in the order of the standings.
    let ranked: Vec<usize> = rows
        .iter()
        .filter_map(|r| ids.iter().position(|b| *b == r.bot))
        .collect();
    let mut head_to_head = Vec::new();
    for &i in &ranked {
        for &j in &ranked {
            if j != i && h2h.games[i][j] > 0 {
                head_to_head.push(Meeting {
                    bot: ids[i].clone(),
                    against: ids[j].clone(),
                    games: h2h.games[i][j],
                    points: h2h.points[i][j],
                });
            }
        }
    }
    let record = TournamentReport {
        protocheck: crate::build_info::LONG.into(),
        game: setup.game.id().into(),
        sandbox: sandbox.clone(),
        games_per_match: args.games,
        matches: lines,
        standings: rows.clone(),
        head_to_head,
    };
    let json = record.json();
    write_file(&out.join("standings.json"), &json)?;
    write_file(&out.join("standings.csv"), &standings::csv(&rows))?;
    let table = standings::table(&rows);
    write_file(&out.join("standings.txt"), &table)?;
    let index = out.join("index.html");
    // The page, its links to the matches' pages and JSON seen from `dir`.
    let page_in = |dir: &Path| {
        let up = relative(dir, &out);
        let linked: Vec<_> = pages
            .iter()
            .map(|l| super::page::Linked {
                page: format!("{up}{}", l.page),
                json: format!("{up}{}", l.json),
                ..l.clone()
            })
            .collect();
        super::page::index(setup.game.id(), &sandbox, &rows, &h2h, &ids, &linked)
    };
    write_file(&index, &page_in(&out))?;
    let written = crate::report::request::write_all(&reports, |kind, file| {
        match kind {
            // On standard output, where the page is (beside its matches);
            // in a file of its own, the page linking to them.
            MatchFormat::Html => match file {
                None => format!("{}\n", index.display()),
                Some(file) => {
                    let dir = cwd.join(file);
                    let dir = dir.parent().unwrap_or(&cwd);
                    page_in(dir)
                }
            },
            MatchFormat::Human => {
                let mut text = String::new();
                for line in &record.matches {
                    text += &format!("match {:>2}: {}\n", line.number, line.result);
                }
                text += &format!(
                    "\n{table}{}\n\nsaved in {} (the page: {})\n",
                    sandbox.line(),
                    out.display(),
                    index.display()
                );
                text
            }
            MatchFormat::Json => json.clone(),
            MatchFormat::Junit => {
                let suites: Vec<_> = reports_played
                    .iter()
                    .zip(&record.matches)
                    .map(|(m, line)| {
                        (
                            Some(format!(
                                "match {:02}: {} vs {}",
                                line.number, line.first, line.second
                            )),
                            m,
                        )
                    })
                    .collect();
                super::junit::render(&suites)
            }
        }
    });
    written.map_err(|e| Fatal::Io(crate::fatal::IoError::Said(e.to_string())))?;
    Ok(reports_played
        .iter()
        .map(MatchReport::exit_code)
        .max()
        .unwrap_or(0))
}

/// Every match of the schedule on `jobs` threads; the reports in schedule
/// order whatever finished first.
fn play_all(
    setup: &Setup,
    sandbox: &crate::transport::sandbox::Layers,
    players: &[Player],
    schedule: &[(usize, usize)],
    (games, shrink_time): (usize, std::time::Duration),
    jobs: usize,
) -> Result<Vec<MatchReport>, Fatal> {
    super::in_order(schedule.len(), jobs, &setup.cfg.stop, |n| {
        let (i, j) = schedule[n];
        let (a, b) = (&players[i], &players[j]);
        // Seats alternate as in `match a b`.
        let play_game = |number: usize| {
            let seated = if number % 2 == 1 { [a, b] } else { [b, a] };
            setup.play(number, &seated)
        };
        let mut played: Result<Vec<_>, Fatal> = (1..=games).map(play_game).collect();
        if let Ok(records) = &mut played
            && !shrink_time.is_zero()
        {
            for record in records {
                super::shrink_forfeit(record, shrink_time, &setup.cfg.stop, &play_game);
            }
        }
        let report =
            played.map(|g| MatchReport::new(setup.game.id(), sandbox, &[a.clone(), b.clone()], g));
        eprintln!(
            "protocheck: match {} of {} ({} vs {}) played",
            n + 1,
            schedule.len(),
            a.id,
            b.id
        );
        report
    })
}

/// The way from folder `from` to folder `to` as a prefix of a link
/// (`""` when they are one folder, `../results/` …), both taken as they
/// are on disk where they exist.
fn relative(from: &Path, to: &Path) -> String {
    let real = |p: &Path| p.canonicalize().unwrap_or_else(|_| p.to_path_buf());
    let (from, to) = (real(from), real(to));
    let (a, b): (Vec<_>, Vec<_>) = (from.components().collect(), to.components().collect());
    let common = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let mut prefix = "../".repeat(a.len() - common);
    for part in &b[common..] {
        prefix += &format!("{}/", part.as_os_str().to_string_lossy());
    }
    prefix
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_link_prefix_climbs_to_the_common_folder_and_down() {
        use std::path::Path;
        let rel = |a: &str, b: &str| super::relative(Path::new(a), Path::new(b));
        assert_eq!(rel("/no/such/t", "/no/such/t"), "");
        assert_eq!(rel("/no/such", "/no/such/t"), "t/");
        assert_eq!(rel("/no/such/a/b", "/no/such/t"), "../../t/");
    }
}
