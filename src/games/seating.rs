//! `protocheck match` as a game declares it: how many real bots one table
//! seats and how each is seated (its side, its session, its opening). The
//! relay itself (`controller::relay`) and the match reports
//! (`matchplay`) know no game.

use super::Session;
use crate::scenario::Options;

/// `protocheck match`: how a game seats real bots at one table. Each bot is
/// refereed by the game's own single-run session, which takes the other
/// seats' moves relayed (`Session::played` → `Session::opponent`).
pub struct Seating {
    /// How many real bots one table seats (Kalah, QTP: exactly 2).
    pub bots: std::ops::RangeInclusive<usize>,
    /// Seat `seat` (0-based) of a table of `bots` real bots. `table` holds
    /// the match's options: the game's own flags given to `match` (e.g.
    /// `--board-size`) and `seed`, the game's number. `Err`: options that
    /// make no table (said as to the user).
    pub seat: fn(seat: usize, bots: usize, table: &Options) -> Result<SeatedBot, String>,
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
