//! `protocheck match --game evolution`: 2 to 8 clients at one table, each
//! over its own TCP connection and refereed by its own single-run session.
//! The clients take seats 1 to N of the first turn's order; built-in
//! players take the seats after them up to `--players` (default: the
//! clients, at least 3).

use super::dealer::Style;
use super::session::EvolutionSession;
use super::{EVOLUTION, EvolutionOptions};
use crate::games::SeatedBot;
use crate::scenario_model::{Options, Strategy};

/// Clients one table seats: a match is between at least two; a game seats
/// at most 8 players.
pub const BOTS: std::ops::RangeInclusive<usize> = 2..=8;

/// Seat `seat` (0-based) of a table of `bots` clients.
pub fn match_seat(
    seat: usize,
    bots: usize,
    table: &Options,
) -> Result<SeatedBot, crate::games::SetupError> {
    let own: EvolutionOptions = crate::games::options::typed(&EVOLUTION, table)?;
    // At least 3 players: built-in players fill a table of 2 clients.
    let players = crate::games::seating::table_players(bots, own.players, own.seat, 3..=8, bots.max(3))?;
    if seat >= bots {
        return Err(crate::games::SetupError::SeatPastClients { seat, bots });
    }
    let styles: &[Style] = match own.strategy {
        Some(Strategy::Random) => &[Style::Simple],
        Some(Strategy::Greedy) => &[Style::Reference],
        None => &[Style::Reference, Style::Simple],
    };
    let clients: Vec<usize> = (0..bots).collect();
    Ok(SeatedBot {
        side: super::session::side(seat as u64),
        session: Box::new(EvolutionSession::seated(
            players,
            seat,
            &clients,
            styles,
            table.seed.unwrap_or(0),
        )),
        // The client speaks first (its sign-up).
        opening: Vec::new(),
        built_in_players: players - bots,
    })
}
