//! A Dominion table in a match (`protocheck match`, docs/match.md): which
//! seats other real bots take (their plays reach this seat's session
//! relayed from their own sessions), and how the game ended for this
//! session's bot. Shared by both protocols; each names its seats `seat N`.

use super::ending::Ending as Why;
use super::engine::DominionTable;
use super::table::TableOptions;
use crate::games::{EndResult, Ending, SeatedBot, Session};
use crate::scenario_model::{Options, Strategy};

/// How many real bots one Dominion table seats: 2 to 4, as a game has
/// players (dominion-text §3.2, dominion-sexp §3.2).
pub const BOTS: std::ops::RangeInclusive<usize> = 2..=4;

/// A match table: how many players it seats (the real bots at seats 1 to
/// `bots`, built-in players after them) and the built-in players' strategy
/// if the options name one. `game` reads the options as its single run
/// does; `Err` says what makes no table, as to the user.
pub fn match_table(
    game: &dyn crate::games::Game,
    bots: usize,
    table: &Options,
) -> Result<(usize, Option<Strategy>), crate::games::SetupError> {
    let own: TableOptions = crate::games::options::typed(game, table)?;
    let players = crate::games::seating::table_players(bots, own.players, own.seat, BOTS, bots)?;
    Ok((players, own.strategy))
}

/// A bot's seat at a Dominion match table, either protocol: the bots at
/// seats 1 to `bots` (seat 1 plays first), each refereed by its own session
/// with the other bots' seats relayed, built-in players at the seats after
/// them when `--players` asks for more; nothing is said before play (each
/// bot's handshake, if any, is its session's, as in a single run).
/// `session` builds the protocol's session from the table's players, this
/// seat, the seed, the real bots' seats and the built-in players' strategy.
pub fn seat_bot(
    game: &dyn crate::games::Game,
    (seat, bots, table): (usize, usize, &Options),
    default_seed: u64,
    session: impl FnOnce(usize, usize, u64, &[usize], Option<Strategy>) -> Box<dyn Session>,
) -> Result<SeatedBot, crate::games::SetupError> {
    let (players, strategy) = match_table(game, bots, table)?;
    let real: Vec<usize> = (0..bots).collect();
    let seed = table.seed.unwrap_or(default_seed);
    Ok(SeatedBot {
        side: side(seat),
        session: session(players, seat, seed, &real, strategy),
        opening: Vec::new(),
        built_in_players: players - bots,
    })
}

/// Which seats of the table are other real bots. Empty in a single run:
/// every seat but the bot's is built in.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Relayed(Vec<bool>);

impl Relayed {
    /// `seats` (0-based) of a table of `players` are real bots relayed
    /// here; seats beyond the table are ignored.
    pub fn new(players: usize, seats: &[usize]) -> Relayed {
        Relayed((0..players).map(|s| seats.contains(&s)).collect())
    }

    /// Whether `seat`'s plays come relayed.
    pub fn at(&self, seat: usize) -> bool {
        self.0.get(seat).copied().unwrap_or(false)
    }
}

/// A seat as match reports name it (1-based).
pub fn side(seat: usize) -> String {
    format!("seat {}", seat + 1)
}

/// How the game ended for the bot at `bot`, once it has: won alone, lost,
/// or drew when it shares the top (a tie the protocol's rules do not break:
/// dominion-sexp D7 shares every tie; dominion-text breaks it on fewer
/// turns first). The score is each seat's victory points.
pub fn ending(game: &DominionTable, bot: usize) -> Option<Ending> {
    let why = game.ended?;
    let winners = game.winners();
    let result = match (winners.contains(&bot), winners.len()) {
        (true, 1) => EndResult::Won,
        (true, _) => EndResult::Drew,
        (false, _) => EndResult::Lost,
    };
    let scores = game.scores();
    let standing: Vec<String> = game
        .players
        .iter()
        .zip(&scores)
        .enumerate()
        .map(|(seat, (p, points))| format!("{} {points} VP in {} turns", side(seat), p.turns))
        .collect();
    let why = match why {
        Why::ProvincesGone => "no province left",
        Why::ThreePilesEmpty => "three piles empty",
        Why::TurnCap => "the turn cap",
    };
    Some(Ending {
        result,
        side: side(bot),
        score: scores
            .iter()
            .enumerate()
            .map(|(seat, &points)| (side(seat), points))
            .collect(),
        score_counts: "victory points",
        position: format!("{why}: {}", standing.join(", ")),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::dominion::{Card, TableRules};

    fn table(rules: TableRules) -> DominionTable {
        let supply = crate::games::dominion::Supply::for_players(3);
        let mut game = DominionTable::new(
            rules,
            &["a", "b", "c"],
            supply,
            &mut fastrand::Rng::with_seed(1),
        );
        game.ended = Some(Why::ProvincesGone);
        game
    }

    #[test]
    fn a_shared_top_is_a_draw_for_those_who_share_it() {
        // Everyone holds the 3 estates dealt: 3 points each.
        let mut game = table(TableRules::V1);
        game.players[2].discard.push(Card::Curse);
        let results: Vec<EndResult> = (0..3).map(|b| ending(&game, b).unwrap().result).collect();
        assert_eq!(results, [EndResult::Drew, EndResult::Drew, EndResult::Lost]);
        let e = ending(&game, 1).unwrap();
        assert_eq!(e.side, "seat 2");
        assert_eq!(
            e.score,
            [
                ("seat 1".to_string(), 3),
                ("seat 2".to_string(), 3),
                ("seat 3".to_string(), 2)
            ]
        );
        assert_eq!(e.score_counts, "victory points");
        assert!(
            e.position
                .starts_with("no province left: seat 1 3 VP in 0 turns"),
            "{}",
            e.position
        );
        // The line protocol breaks the tie on fewer turns.
        let mut game = table(TableRules::LINE);
        game.players[0].turns = 1;
        let results: Vec<EndResult> = (0..3).map(|b| ending(&game, b).unwrap().result).collect();
        assert_eq!(results, [EndResult::Lost, EndResult::Drew, EndResult::Drew]);
        game.players[2].turns = 1;
        assert_eq!(ending(&game, 1).unwrap().result, EndResult::Won);
        // Curses take a seat below 0.
        game.players[1].discard.extend([Card::Curse; 5]);
        assert_eq!(ending(&game, 1).unwrap().score[1].1, -2);
        game.ended = None;
        assert_eq!(ending(&game, 1), None, "not over");
    }

    #[test]
    fn a_match_table_seats_the_bots_and_fills_the_rest() {
        let game = crate::games::by_id("dominion-text").unwrap();
        let flags = |players: Option<u32>, seat: Option<u32>| {
            let mut o = Options::default();
            if let Some(p) = players {
                o = o.with("players", p);
            }
            if let Some(s) = seat {
                o = o.with("seat", s);
            }
            o
        };
        assert_eq!(match_table(game, 3, &flags(None, None)), Ok((3, None)));
        assert_eq!(match_table(game, 2, &flags(Some(4), None)), Ok((4, None)));
        assert!(
            match_table(game, 3, &flags(Some(2), None))
                .unwrap_err()
                .to_string()
                .contains("fewer players than the 3 bots")
        );
        assert!(match_table(game, 2, &flags(Some(5), None)).is_err());
        assert!(
            match_table(game, 2, &flags(None, Some(1)))
                .unwrap_err()
                .to_string()
                .contains("--seat 1 means nothing")
        );
        assert_eq!(Relayed::new(3, &[0, 2]), Relayed(vec![true, false, true]));
        assert!(!Relayed::default().at(0));
    }
}
