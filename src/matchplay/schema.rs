//! The JSON Schemas of a match's report (`docs/match.schema.json`,
//! [`MatchReport`]) and a tournament's `standings.json`
//! (`docs/tournament.schema.json`, [`TournamentReport`]), generated as the
//! single run's is (`report::schema::of`). They live here, not beside that
//! one, because the match's types sit above `report`.

use super::{MatchReport, TournamentReport};
use crate::report::schema::of;
use schemars::json_schema;

/// Where a match's schema is committed, from the repository's root.
pub const MATCH_PATH: &str = "docs/match.schema.json";
/// Where a tournament's schema is committed.
pub const TOURNAMENT_PATH: &str = "docs/tournament.schema.json";

/// A match's schema, as committed (ending in a newline).
pub fn generate_match() -> String {
    of::<MatchReport>(json_schema!({
        "$id": "https://protocheck.invalid/match.schema.json",
        "title": "protocheck match report",
        "description": "What `protocheck match --report json` (or `--format json`, `--out FILE`) writes, and each match of a tournament (`matches/NN-A-vs-B.json`).",
    }))
}

/// A tournament's schema, as committed.
pub fn generate_tournament() -> String {
    of::<TournamentReport>(json_schema!({
        "$id": "https://protocheck.invalid/tournament.schema.json",
        "title": "protocheck tournament standings",
        "description": "What `protocheck tournament` writes as standings.json (and prints with `--report json`).",
    }))
}

#[cfg(test)]
mod tests {
    use crate::report::schema::tests::committed_is;

    #[test]
    fn the_committed_match_schema_is_the_generated_one() {
        committed_is(super::MATCH_PATH, super::generate_match());
    }

    #[test]
    fn the_committed_tournament_schema_is_the_generated_one() {
        committed_is(super::TOURNAMENT_PATH, super::generate_tournament());
    }
}
