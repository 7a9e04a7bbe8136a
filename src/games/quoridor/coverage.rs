//! The QTP situations a run should reach (issue 30), as data, and the rules
//! a conforming answer to one planned command has kept: the coverage report
//! counts both (`crate::coverage`).

use super::catalogue as rule;
use super::expect::Outcome;
use super::notation::Command;
use super::rules::{Board, Cell, Colour};
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

/// Generated play aiming at what is missing (`coverage::Aims`): the pawn
/// steps protocheck may play for `colour`, to move on `board`, each with
/// the situations it would reach: a jump or side-step of its own, or, for a
/// step that ends beside the other pawn, the jump that invites. Its walls
/// reach none, so they are left to the usual choice. Generated games tell
/// the engine every move it did not generate and nothing else (rules §4),
/// so the situations only probes reach (a wall refused for cutting a path
/// off, an undo past the history) are not aimed at here: the built-in
/// probe scenarios reach them.
pub fn choices_ahead(board: &Board, colour: Colour) -> Vec<(String, Vec<&'static Situation>)> {
    let from = board.pawn(colour);
    let other = board.pawn(colour.opposite());
    board
        .legal_pawn_moves(colour)
        .map(|to| {
            let mut r = Reached::new();
            stepped(&mut r, from, to);
            let mut reaches: Vec<&'static Situation> =
                [&JUMP, &SIDE_STEP].into_iter().filter(|s| r.has(s)).collect();
            let beside = to.col.abs_diff(other.col) + to.row.abs_diff(other.row) == 1;
            if beside && reaches.is_empty() {
                reaches.push(&JUMP);
            }
            (Command::PlayMove(colour, to).to_string(), reaches)
        })
        .collect()
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
    fn generated_play_aims_at_jumps_the_run_has_not_reached() {
        use super::super::rules::Action;
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
        // White on E4 faces black on E5: the jump to E6 is its one aim.
        let ahead = choices_ahead(&b, Colour::White);
        let aimed: Vec<_> = ahead.iter().filter(|(_, r)| !r.is_empty()).collect();
        assert_eq!(aimed.len(), 1, "{ahead:?}");
        assert_eq!(aimed[0], &("playmove white E6".to_string(), vec![&JUMP]));
        let own = Reached::new();
        assert_eq!(Aims::default().choose(&own, ahead.clone()).as_deref(), Some("playmove white E6"));
        // Once the run had a jump: the usual choice.
        let mut before = Coverage::default();
        before.reached(JUMP.id, 1);
        assert_eq!(Aims::after([&before]).choose(&own, ahead), None);
        // A step beside the other pawn invites a jump; no probe is aimed at.
        let mut near = Board::new(5, 2).unwrap();
        near.play(Colour::Black, Action::Step(parse_vertex("C4").unwrap())).unwrap();
        near.play(Colour::White, Action::Step(parse_vertex("C2").unwrap())).unwrap();
        let ahead = choices_ahead(&near, Colour::Black);
        assert!(ahead.contains(&("playmove black C3".to_string(), vec![&JUMP])), "{ahead:?}");
        assert!(ahead.iter().all(|(c, _)| c.starts_with("playmove black ")));
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
