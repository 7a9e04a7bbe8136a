//! The table both Dominion games seat: 2 to 4 players, the bot in one seat,
//! the others built in. Checked the same way in both games, and generated
//! games go round the same tables.

use crate::scenario_model::Strategy;

/// The options of both Dominion games (scenario `options:`; `--players`,
/// `--seat`).
#[derive(Debug, Default, serde::Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct TableOptions {
    /// Players in all, the bot included; the other seats are built-in
    /// players.
    #[schemars(range(min = 1))]
    pub players: Option<u32>,
    /// The bot's seat in turn order, 1 = plays first; generated games vary
    /// it when not given.
    #[schemars(range(min = 1))]
    pub seat: Option<u32>,
    /// The built-in players' strategy (`greedy`: big money).
    pub strategy: Option<Strategy>,
}

/// The options table of both Dominion games.
pub static TABLE_OPTIONS: crate::games::options::Typed<TableOptions> =
    crate::games::options::Typed::new(&["players", "seat"], &[]);

/// The players and the bot's seat (1-based) these options ask for, checked;
/// `why` is the reason 2 to 4 players are allowed, quoted in the error.
pub fn seating(
    options: &TableOptions,
    default_players: u32,
    why: &'static str,
) -> Result<(u32, u32), crate::games::SetupError> {
    let players = options.players.unwrap_or(default_players);
    if !(2..=4).contains(&players) {
        return Err(crate::games::SetupError::DominionPlayers { why, players });
    }
    let seat = options.seat.unwrap_or(1);
    if !(1..=players).contains(&seat) {
        return Err(crate::games::SetupError::DominionSeat { players, seat });
    }
    Ok((players, seat))
}

/// The tables generated games go round: every seat of every player count,
/// each pinned by `--players`/`--seat` when given. Never empty: options that
/// allow no table give that impossible table, which the session then
/// reports for every game.
pub fn generated_tables(options: &TableOptions) -> Vec<(u32, u32)> {
    let mut tables = Vec::new();
    for players in 2..=4u32 {
        if options.players.is_some_and(|p| p != players) {
            continue;
        }
        for seat in 1..=players {
            if options.seat.is_some_and(|s| s != seat) {
                continue;
            }
            tables.push((players, seat));
        }
    }
    if tables.is_empty() {
        tables.push((options.players.unwrap_or(0), options.seat.unwrap_or(0)));
    }
    tables
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generated_tables_cover_every_seat_unless_pinned() {
        let all = generated_tables(&TableOptions::default());
        assert_eq!(all.len(), 2 + 3 + 4);
        let three = TableOptions {
            players: Some(3),
            ..TableOptions::default()
        };
        assert_eq!(generated_tables(&three), vec![(3, 1), (3, 2), (3, 3)]);
        let impossible = TableOptions {
            players: Some(5),
            ..TableOptions::default()
        };
        assert_eq!(generated_tables(&impossible), vec![(5, 0)]);
        assert!(
            seating(&impossible, 2, "why")
                .unwrap_err()
                .to_string()
                .contains("(why)")
        );
    }
}
