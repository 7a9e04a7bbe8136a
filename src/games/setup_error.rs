//! Why options make no game or no match table: the error of
//! `Game::session`, `Seating::seat` and the option and table checks they
//! share. Each variant reads as the message the user has always been given.

/// A game's options that the game or its table cannot take.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    /// An option the game does not take, or a value it cannot read.
    #[error(transparent)]
    Options(#[from] OptionError),
    /// A number outside what the game allows (`holes`, `seeds`, Evolution's
    /// `players` and `seat`, a match's `--players`).
    #[error("{what} must be between {min} and {max}, not {value}")]
    OutOfRange {
        what: &'static str,
        min: u64,
        max: u64,
        value: u64,
    },
    /// A Dominion table of other than 2 to 4 players; `why` cites where
    /// that bound comes from.
    #[error("players must be 2, 3 or 4 ({why}), not {players}")]
    DominionPlayers { why: &'static str, players: u32 },
    /// A Dominion seat past the table's players.
    #[error("seat must be between 1 and {players} (the number of players), not {seat}")]
    DominionSeat { players: u32, seat: u32 },
    /// A seat of a two-player game past the second; `why` is the game's
    /// own sentence about its two players.
    #[error("{why}")]
    TwoPlayers { why: &'static str },
    /// QTP's `colour` option names no colour.
    #[error("colour must be `black` or `white`, not `{given}`")]
    Colour { given: String },
    /// An option value a game's own rules refuse, in the game's words
    /// (QTP's board size: `quoridor::rules::SizeError`).
    #[error(transparent)]
    Rules(RulesError),
    /// A match's `--board-size` QTP does not allow.
    #[error("--board-size {size}: {source}")]
    MatchBoardSize {
        size: u32,
        #[source]
        source: RulesError,
    },
    /// `--seat` given to a match, where the bots take the seats in order.
    #[error(
        "--seat {seat} means nothing in a match: the bots take seats 1 to {bots} in the order given, rotating each game"
    )]
    SeatInMatch { seat: u32, bots: usize },
    /// A match's `--players` below the number of bots.
    #[error("--players {players} seats fewer players than the {bots} bots given")]
    FewerPlayersThanBots { players: usize, bots: usize },
    /// An Evolution seat (0-based `seat`) past the clients at the table.
    #[error("seat {} of a table of {bots} clients", seat + 1)]
    SeatPastClients { seat: usize, bots: usize },
}

/// An error a game's own rules module defines, kept whole (its type, its
/// source) behind a shared pointer, so that this error, which every game
/// uses, names no game's types (an import of one game from here would tie
/// `games/` in a circle through that game).
#[derive(Clone, Debug)]
pub struct RulesError(std::sync::Arc<dyn std::error::Error + Send + Sync>);

impl RulesError {
    pub fn new(error: impl std::error::Error + Send + Sync + 'static) -> RulesError {
        RulesError(std::sync::Arc::new(error))
    }

    /// The game's own error, to look at as its type (`downcast_ref`).
    pub fn get(&self) -> &(dyn std::error::Error + Send + Sync + 'static) {
        &*self.0
    }
}

impl std::fmt::Display for RulesError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

impl std::error::Error for RulesError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.0.source()
    }
}

/// Two are equal when the game's errors read the same.
impl PartialEq for RulesError {
    fn eq(&self, other: &RulesError) -> bool {
        self.to_string() == other.to_string()
    }
}

impl Eq for RulesError {}

/// A game option refused or unreadable.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum OptionError {
    /// An option the game does not take: the refusal as
    /// `options::refusal` words it (the same text the scenario loader and
    /// the command line give, built from the game tables).
    #[error("{0}")]
    Refused(String),
    /// A value the game's typed options cannot read: serde's message as
    /// `scenario_model::read` gives it (text from the deserializer).
    #[error("{0}")]
    Unreadable(String),
}

/// Where a caller still reports errors as text (the command line, the
/// scenario loader, `record`), the message.
impl From<SetupError> for String {
    fn from(error: SetupError) -> Self {
        error.to_string()
    }
}

/// As [`SetupError`]'s.
impl From<OptionError> for String {
    fn from(error: OptionError) -> Self {
        error.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::quoridor::rules::SizeError;
    use std::error::Error;

    #[test]
    fn each_setup_error_reads_as_the_message_users_were_given() {
        let range = SetupError::OutOfRange {
            what: "seeds",
            min: 1,
            max: 10_000,
            value: 0,
        };
        assert_eq!(
            range.to_string(),
            "seeds must be between 1 and 10000, not 0"
        );
        assert_eq!(
            SetupError::SeatInMatch { seat: 2, bots: 2 }.to_string(),
            "--seat 2 means nothing in a match: the bots take seats 1 to 2 in the order given, rotating each game"
        );
        assert_eq!(
            SetupError::DominionSeat {
                players: 2,
                seat: 3
            }
            .to_string(),
            "seat must be between 1 and 2 (the number of players), not 3"
        );
        assert_eq!(
            SetupError::SeatPastClients { seat: 2, bots: 2 }.to_string(),
            "seat 3 of a table of 2 clients"
        );
        let size = SetupError::MatchBoardSize {
            size: 8,
            source: RulesError::new(SizeError::Even { size: 8 }),
        };
        assert_eq!(
            size.to_string(),
            "--board-size 8: unacceptable size 8: protocheck uses odd board sizes only"
        );
        assert_eq!(
            size.source().map(|s| s.to_string()),
            Some("unacceptable size 8: protocheck uses odd board sizes only".to_string())
        );
        assert_eq!(OptionError::Unreadable("bad".into()).to_string(), "bad");
        let rules = SetupError::from(SizeError::OutOfRange { size: 27 });
        let SetupError::Rules(kept) = &rules else {
            panic!("{rules:?}")
        };
        assert_eq!(
            kept.get().downcast_ref::<SizeError>(),
            Some(&SizeError::OutOfRange { size: 27 })
        );
    }
}
