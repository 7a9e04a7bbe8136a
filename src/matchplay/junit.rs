//! A match (or every match of a tournament) as JUnit XML: one testsuite
//! per match, one testcase per game per bot. A bot's testcase fails when
//! it had a failing finding in that game (its forfeit, or one after the
//! result), the first such finding's rule as the failure's type, as in a
//! single run's JUnit report; a game that could not be played is an error
//! of every bot's testcase at it. Warnings and the game's transcript are
//! the testcase's output.

use super::report::MatchReport;
use super::table::GameRecord;
use crate::outcome::Direction;
use crate::report::junit::{esc, sandbox_property, secs};
use crate::verdict::Severity;
use std::fmt::Write;

/// The matches, each with the name of its testsuite (`None`: the game and
/// its bots, `kalah: A vs B`).
pub fn render(matches: &[(Option<String>, &MatchReport)]) -> String {
    let cases = |m: &MatchReport| m.games.iter().map(|g| g.seats.len()).sum::<usize>();
    let failed = |m: &MatchReport| {
        m.games
            .iter()
            .filter(|g| g.error.is_none())
            .flat_map(|g| g.seats.iter().filter(|s| !failing(g, s.seat).is_empty()))
            .count()
    };
    let errors = |m: &MatchReport| {
        m.games
            .iter()
            .filter(|g| g.error.is_some())
            .map(|g| g.seats.len())
            .sum::<usize>()
    };
    let time = |m: &MatchReport| m.games.iter().map(|g| g.duration_ms).sum::<u64>();
    let sum = |f: &dyn Fn(&MatchReport) -> usize| matches.iter().map(|(_, m)| f(m)).sum::<usize>();
    let mut x = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let _ = writeln!(
        x,
        "<testsuites name=\"protocheck match\" tests=\"{}\" failures=\"{}\" errors=\"{}\" skipped=\"0\" time=\"{}\">",
        sum(&cases),
        sum(&failed),
        sum(&errors),
        secs(matches.iter().map(|(_, m)| time(m)).sum())
    );
    for (name, m) in matches {
        let name = name.clone().unwrap_or_else(|| {
            let bots: Vec<&str> = m.bots.iter().map(|b| b.tally.bot.as_str()).collect();
            format!("{}: {}", m.game, bots.join(" vs "))
        });
        let _ = writeln!(
            x,
            "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"{}\" skipped=\"0\" time=\"{}\">",
            esc(&name),
            cases(m),
            failed(m),
            errors(m),
            secs(time(m))
        );
        let _ = writeln!(
            x,
            "    <properties><property name=\"protocheck\" value=\"{}\"/><property name=\"game\" value=\"{}\"/>{}</properties>",
            esc(&m.protocheck),
            esc(&m.game),
            sandbox_property(&m.sandbox)
        );
        for game in &m.games {
            for seat in &game.seats {
                testcase(&mut x, &m.game, game, seat.seat);
            }
        }
        x.push_str("  </testsuite>\n");
    }
    x.push_str("</testsuites>\n");
    x
}

/// The failing findings of the bot at `seat`, in the order found.
fn failing(game: &GameRecord, seat: usize) -> Vec<&crate::verdict::Violation> {
    game.findings
        .iter()
        .filter(|f| f.seat == seat && f.violation.severity == Severity::Fail)
        .map(|f| &f.violation)
        .collect()
}

fn testcase(x: &mut String, game_id: &str, game: &GameRecord, seat: usize) {
    let Some(at) = game.seats.iter().find(|s| s.seat == seat) else {
        return;
    };
    let place = if at.side == format!("seat {seat}") {
        format!("seat {seat}")
    } else {
        format!("seat {seat}, {}", at.side)
    };
    let _ = writeln!(
        x,
        "    <testcase name=\"game {} ({place})\" classname=\"{}.{}\" time=\"{}\">",
        game.number,
        esc(game_id),
        esc(&at.bot),
        secs(game.duration_ms)
    );
    let mine: Vec<_> = game
        .findings
        .iter()
        .filter(|f| f.seat == seat)
        .map(|f| &f.violation)
        .collect();
    let mut body = String::new();
    if let Some(f) = game.forfeit.as_ref().filter(|f| f.seat == seat) {
        let _ = writeln!(body, "lost game {} by forfeit ({})", game.number, f.rule);
    }
    for v in &mine {
        let _ = writeln!(body, "[{}] {}: {}", v.severity.as_str(), v.rule, v.message);
        let _ = writeln!(body, "  spec: {}", v.spec);
        if let Some(e) = &v.expected {
            let _ = writeln!(body, "  expected: {e}");
        }
        if let Some(a) = &v.actual {
            let _ = writeln!(body, "  actual:   {a}");
        }
    }
    let fails = failing(game, seat);
    if let Some(e) = &game.error {
        let _ = writeln!(
            x,
            "      <error message=\"{}\" type=\"match.unplayed\">{}</error>",
            esc(e),
            esc(e)
        );
    } else if let Some(first) = fails.first() {
        let _ = writeln!(
            x,
            "      <failure message=\"{}: {}\" type=\"{}\">{}</failure>",
            esc(first.rule),
            esc(&first.message),
            esc(first.rule),
            esc(&body)
        );
    }
    // Without a failure, the bot's warnings lead the output; then every
    // line at the table, each saying its seat.
    let mut out = if fails.is_empty() {
        body
    } else {
        String::new()
    };
    for line in &game.transcript {
        let mark = match line.dir {
            Direction::Sent => '>',
            Direction::Received => '<',
            Direction::Note => '#',
        };
        let _ = writeln!(out, "{mark} {}", line.text);
    }
    if !out.is_empty() {
        let _ = writeln!(x, "      <system-out>{}</system-out>", esc(&out));
    }
    x.push_str("    </testcase>\n");
}
