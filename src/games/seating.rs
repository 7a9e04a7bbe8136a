//! `protocheck match` as a game declares it: how many real bots one table
//! seats and how each is seated (its side, its session, its opening). The
//! relay itself (`controller::relay`) and the match reports
//! (`matchplay`) know no game.

use super::{Session, SetupError};
use crate::scenario_model::Options;

/// `protocheck match`: how a game seats real bots at one table. Each bot is
/// refereed by the game's own single-run session, which takes the other
/// seats' moves relayed (`Relay::played` → `Session::opponent`).
pub struct Seating {
    /// How many real bots one table seats (Kalah, QTP: exactly 2).
    pub bots: std::ops::RangeInclusive<usize>,
    /// Seat `seat` (0-based) of a table of `bots` real bots. `table` holds
    /// the match's options: the game's own flags given to `match` (e.g.
    /// `--board-size`) and `seed`, the game's number. `Err`: options that
    /// make no table (said as to the user).
    pub seat: fn(seat: usize, bots: usize, table: &Options) -> Result<SeatedBot, SetupError>,
}

/// One bot's seat at a match table, as its game sets it.
pub struct SeatedBot {
    /// The side the bot starts on, as reports name it (Kalah `South`, QTP
    /// `black`).
    pub side: String,
    /// The session that referees it: the game's single-run session, told
    /// which other seats are real bots (their moves come relayed).
    pub session: Box<dyn Session>,
    /// What protocheck tells the bot before play, message by message.
    pub opening: Vec<String>,
    /// How many built-in players sit at the table beside the real bots
    /// (Dominion, Evolution: the seats `--players` adds). With any, a
    /// forfeit names no winner: who would have won is not known.
    pub built_in_players: usize,
}

/// The players at a match table of `bots` real bots, for a game whose
/// tables seat `allowed` players, built-in players taking the seats past
/// the bots: `--players` when given, else `default`. `--seat` is refused:
/// the bots take seats 1 to `bots` in the order given, rotating each game.
pub fn table_players(
    bots: usize,
    players: Option<u32>,
    seat: Option<u32>,
    allowed: std::ops::RangeInclusive<usize>,
    default: usize,
) -> Result<usize, SetupError> {
    if let Some(seat) = seat {
        return Err(SetupError::SeatInMatch { seat, bots });
    }
    let players = players.map_or(default, |p| p as usize);
    if !allowed.contains(&players) {
        return Err(SetupError::OutOfRange {
            what: "--players",
            min: *allowed.start() as u64,
            max: *allowed.end() as u64,
            value: players as u64,
        });
    }
    if players < bots {
        return Err(SetupError::FewerPlayersThanBots { players, bots });
    }
    Ok(players)
}

#[cfg(test)]
mod tests {
    use super::table_players;

    #[test]
    fn a_table_takes_the_players_asked_for_within_the_game_and_never_fewer_than_the_bots() {
        assert_eq!(table_players(2, None, None, 2..=4, 2), Ok(2));
        assert_eq!(table_players(2, Some(4), None, 2..=4, 2), Ok(4));
        assert_eq!(table_players(2, None, None, 3..=8, 3), Ok(3));
        let err = |r: Result<usize, crate::games::SetupError>| r.unwrap_err().to_string();
        assert!(err(table_players(2, Some(5), None, 2..=4, 2)).contains("between 2 and 4, not 5"));
        assert!(
            err(table_players(3, Some(2), None, 2..=4, 3))
                .contains("fewer players than the 3 bots")
        );
        assert!(err(table_players(2, None, Some(1), 2..=4, 2)).contains("--seat 1 means nothing"));
    }
}
