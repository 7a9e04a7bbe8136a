//! The QTP situations a run should reach (issue 30), as data, and the rules
//! a conforming answer to one planned command has kept: the coverage report
//! counts both (`crate::coverage`).

use super::catalogue as rule;
use super::expect::Outcome;
use super::notation::Command;
use super::rules::{Action, Board, Cell, Colour, Illegal};
use crate::coverage::{Reached, Situation};
use crate::verdict::{RuleId, RuleInfo};

pub static JUMP: Situation = Situation {
    id: "quoridor.pawn.jump",
    what: "a pawn jumped straight over the other pawn",
};
pub static SIDE_STEP: Situation = Situation {
    id: "quoridor.pawn.side-step",
    what: "a pawn stepped diagonally beside the other pawn",
};
pub static WALL_BLOCKS_PATH: Situation = Situation {
    id: "quoridor.wall.path-refused",
    what: "a wall that would block a path was refused",
};
pub static UNDO_PAST_HISTORY: Situation = Situation {
    id: "quoridor.undo.past-history",
    what: "an undo past the start of the history was refused",
};
pub static SIZE_DEFAULT: Situation = Situation {
    id: "quoridor.size.9",
    what: "a game on the default 9×9 board",
};
pub static SIZE_SMALL: Situation = Situation {
    id: "quoridor.size.small",
    what: "a game on a board smaller than 9×9",
};
pub static SIZE_LARGE: Situation = Situation {
    id: "quoridor.size.large",
    what: "a game on a board larger than 9×9",
};

pub static SITUATIONS: &[&Situation] = &[
    &JUMP,
    &SIDE_STEP,
    &WALL_BLOCKS_PATH,
    &UNDO_PAST_HISTORY,
    &SIZE_DEFAULT,
    &SIZE_SMALL,
    &SIZE_LARGE,
];

/// A pawn moved from `from` to `to` (a legal step, by either colour).
pub fn stepped(reached: &mut Reached, from: Cell, to: Cell) {
    let dc = from.col.abs_diff(to.col);
    let dr = from.row.abs_diff(to.row);
    match (dc, dr) {
        (2, 0) | (0, 2) => reached.hit(&JUMP),
        (1, 1) => reached.hit(&SIDE_STEP),
        _ => {}
    }
}

/// Generated play aiming at what is missing (`coverage::Aims`): what
/// protocheck may send for `colour`, to move on `board`, each with the
/// situations it would reach: the probes a conforming engine refuses and
/// that leave the turn with protocheck (an undo past the history; a wall
/// that would cut a pawn off, while `colour` has walls left), then its pawn
/// steps. Its legal walls reach none, so they are left to the usual choice.
pub fn choices_ahead(board: &Board, colour: Colour) -> Vec<(String, Vec<&'static Situation>)> {
    let mut choices = Vec::new();
    let past = u32::try_from(board.history_len() + 1).unwrap_or(u32::MAX);
    choices.push((Command::Undo(Some(past)).to_string(), vec![&UNDO_PAST_HISTORY]));
    if board.walls_left(colour) > 0
        && let Some(w) = board.wall_slots().find(|&w| {
            matches!(
                board.clone().play(colour, Action::Place(w)),
                Err(Illegal::PathBlocked(_))
            )
        })
    {
        choices.push((
            Command::PlayWall(colour, w).to_string(),
            vec![&WALL_BLOCKS_PATH],
        ));
    }
    let from = board.pawn(colour);
    for to in board.legal_pawn_moves(colour) {
        let mut r = Reached::new();
        stepped(&mut r, from, to);
        let reaches = [&JUMP, &SIDE_STEP]
            .into_iter()
            .filter(|s| r.has(s))
            .collect();
        choices.push((Command::PlayMove(colour, to).to_string(), reaches));
    }
    choices
}

/// The engine answered a planned command (`ok`: with `=`) and no finding
/// was made about it: the situations that answer reached, and the rules it
/// kept.
pub fn answered(
    reached: &mut Reached,
    outcome: &Outcome,
    command: Option<&Command>,
    input: Option<&'static RuleInfo>,
    ok: bool,
) -> Vec<RuleId> {
    let mut held: Vec<RuleId> = vec![
        rule::FRAMING_STATUS.id,
        rule::FRAMING_NO_TERMINATOR.id,
        rule::FRAMING_OUTPUT_CHARS.id,
    ];
    held.extend(input.map(|r| r.id));
    let own: &[&RuleInfo] = match outcome {
        Outcome::Name => &[&rule::NAME_RESPONSE],
        Outcome::Known(_) => &[&rule::KNOWN_COMMAND_ANSWER],
        Outcome::ListCommands => &[&rule::LIST_COMMANDS_CONTENT],
        Outcome::Quit => &[&rule::QUIT_RESPONSE],
        Outcome::Refuse { rule: r, .. } => {
            if !ok && r.id == rule::PLAYWALL_PATH.id {
                reached.hit(&WALL_BLOCKS_PATH);
            }
            if !ok && r.id == rule::UNDO_CANNOT.id {
                reached.hit(&UNDO_PAST_HISTORY);
            }
            held.push(r.id);
            &[&rule::ERROR_TEXT]
        }
        Outcome::Accept(r) | Outcome::AnyFailure(r) | Outcome::FailurePreferred(r) => {
            held.push(r.id);
            &[]
        }
        Outcome::SizeOffSpec => &[&rule::BOARDSIZE_OFF_SPEC],
        Outcome::Genmove(_) => &[
            &rule::GENMOVE_SYNTAX,
            &rule::GENMOVE_EXTRA_TOKENS,
            &rule::GENMOVE_ILLEGAL,
        ],
        Outcome::Winner(_) => &[&rule::WINNER_ANSWER],
        Outcome::ShowBoard => &[&rule::SHOWBOARD_FRAMING],
        Outcome::Anything | Outcome::GtpId => &[],
    };
    held.extend(own.iter().map(|r| r.id));
    if let (Some(Command::BoardSize(n)), true) = (command, ok) {
        reached.hit(match n {
            9 => &SIZE_DEFAULT,
            n if *n < 9 => &SIZE_SMALL,
            _ => &SIZE_LARGE,
        });
    }
    held
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_straight_jump_and_a_diagonal_step_are_told_apart() {
        let mut r = Reached::new();
        stepped(&mut r, Cell { col: 4, row: 2 }, Cell { col: 4, row: 4 });
        stepped(&mut r, Cell { col: 4, row: 2 }, Cell { col: 5, row: 3 });
        stepped(&mut r, Cell { col: 4, row: 2 }, Cell { col: 4, row: 3 });
        let got: Vec<_> = r.iter().collect();
        assert_eq!(got, vec![(JUMP.id, 1), (SIDE_STEP.id, 1)]);
    }

    #[test]
    fn generated_play_aims_at_probes_and_jumps_the_run_has_not_reached() {
        use crate::coverage::{Aims, Coverage};
        use crate::games::quoridor::notation::parse_vertex;
        let mut b = Board::new(9, 10).unwrap();
        for (c, to) in [
            (Colour::White, "E2"),
            (Colour::White, "E3"),
            (Colour::White, "E4"),
            (Colour::Black, "E8"),
            (Colour::Black, "E7"),
            (Colour::Black, "E6"),
            (Colour::Black, "E5"),
        ] {
            b.play(c, Action::Step(parse_vertex(to).unwrap())).unwrap();
        }
        let ahead = choices_ahead(&b, Colour::White);
        assert_eq!(ahead[0], ("undo 8".to_string(), vec![&UNDO_PAST_HISTORY]));
        // One wall cannot cut a pawn off an open board: no wall probe.
        assert!(ahead.iter().all(|(_, r)| !r.contains(&&WALL_BLOCKS_PATH)));
        let own = Reached::new();
        // Nothing reached yet: the first probe.
        assert_eq!(Aims::default().choose(&own, ahead.clone()).as_deref(), Some("undo 8"));
        // Both probes reached before: the straight jump over the black pawn.
        let mut before = Coverage::default();
        before.reached(UNDO_PAST_HISTORY.id, 1);
        before.reached(WALL_BLOCKS_PATH.id, 1);
        let aims = Aims::after([&before]);
        assert_eq!(aims.choose(&own, ahead.clone()).as_deref(), Some("playmove white E6"));
        // And the jump too: the usual choice.
        before.reached(JUMP.id, 1);
        assert_eq!(Aims::after([&before]).choose(&own, ahead), None);
        // Four walls along row 2: one more seals white in, and is the probe.
        let mut sealed = Board::new(9, 10).unwrap();
        for anchor in ["B2 h", "D2 h", "F2 h", "H2 h"] {
            let w = crate::games::quoridor::notation::parse_wall(anchor).unwrap();
            sealed.play(Colour::Black, Action::Place(w)).unwrap();
        }
        let ahead = choices_ahead(&sealed, Colour::White);
        assert_eq!(ahead[1].1, vec![&WALL_BLOCKS_PATH]);
        assert!(ahead[1].0.starts_with("playwall white "), "{:?}", ahead[1]);
        let mut probe = sealed.clone();
        let w = crate::games::quoridor::notation::parse_wall(&ahead[1].0["playwall white ".len()..]).unwrap();
        assert!(matches!(probe.play(Colour::White, Action::Place(w)), Err(Illegal::PathBlocked(_))));
        // Once the run had it, the wall probe is no aim.
        assert_eq!(aims.choose(&own, ahead), None);
    }

    #[test]
    fn a_refused_path_blocking_wall_and_an_undo_past_history_are_reached_only_when_refused() {
        let mut r = Reached::new();
        let wall = Outcome::Refuse {
            rule: &rule::PLAYWALL_PATH,
            text: "illegal move",
            why: String::new(),
        };
        answered(&mut r, &wall, None, None, true);
        assert_eq!(r.iter().count(), 0);
        let held = answered(&mut r, &wall, None, None, false);
        assert!(held.contains(&rule::PLAYWALL_PATH.id) && held.contains(&rule::ERROR_TEXT.id));
        let undo = Outcome::Refuse {
            rule: &rule::UNDO_CANNOT,
            text: "cannot undo",
            why: String::new(),
        };
        answered(&mut r, &undo, None, None, false);
        answered(&mut r, &Outcome::Accept(&rule::BOARDSIZE_ACCEPTS), Some(&Command::BoardSize(5)), None, true);
        let got: Vec<_> = r.iter().map(|(id, _)| id).collect();
        assert_eq!(got, vec![SIZE_SMALL.id, UNDO_PAST_HISTORY.id, WALL_BLOCKS_PATH.id]);
    }
}
