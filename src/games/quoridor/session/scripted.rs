//! The capabilities of a QtpSession beside judging: `Scripted` (the lint, `record` and saved games carry steps out without a bot) and `Drawn` (the state drawn for humans).

use super::*;

impl Scripted for QtpSession {
    fn assume(&mut self, pinned: Option<&str>) -> Result<Vec<Outgoing>, ScriptError> {
        let Some(p) = self.pending.pop_front() else {
            return Ok(Vec::new());
        };
        if let Outcome::Genmove(c) = p.outcome {
            match pinned.and_then(|t| t.trim().strip_prefix('=').map(str::to_string)) {
                Some(answer) => {
                    let size = self.board()?.size();
                    let a = notation::parse_genmove(&answer, size).map_err(|f| {
                        format!(
                            "the expected answer `{}` is not a move: {}",
                            pinned.unwrap_or(""),
                            f.message
                        )
                    })?;
                    self.board_mut()?.play(c, a.action).map_err(|e| {
                        format!(
                            "the expected answer `{}` is illegal: {e}",
                            pinned.unwrap_or("")
                        )
                    })?;
                    self.last_genmove = Some((c, a.action));
                }
                None => self.unknown += 1,
            }
        }
        if p.outcome == Outcome::Quit {
            self.quit_answered = true;
        }
        Ok(Vec::new())
    }

    fn last_opponent_step(&self) -> Option<crate::scenario_model::Step> {
        self.last_own.clone().map(crate::scenario_model::Step::Send)
    }

    /// protocheck's colour's actions, pawn steps first, then walls.
    fn own_moves(&self) -> Vec<String> {
        let Ok(board) = self.board() else {
            return Vec::new();
        };
        let colour = self.turn();
        if self.quit_sent || self.eof || board.winner().is_some() || colour == self.bot_colour {
            return Vec::new();
        }
        let mut walls = Vec::new();
        board.legal_walls(colour, &mut walls);
        board
            .legal_pawn_moves(colour)
            .map(Action::Step)
            .chain(walls.into_iter().map(Action::Place))
            .map(|a| notation::action_command(colour, a).to_string())
            .collect()
    }

    fn legal_choices(&self) -> Vec<String> {
        if self.quit_sent || self.eof {
            return vec!["expect: exit".into()];
        }
        let others =
            "send: name | list_commands | known_command <name> | showboard | winner | undo | quit";
        let Ok(board) = self.board() else {
            let setup = if self.size.is_none() {
                "send: boardsize 9"
            } else if self.board.is_none() {
                "send: clear_board"
            } else {
                "send: walls 10"
            };
            return vec![setup.into(), others.into()];
        };
        let colour = self.turn();
        let mut choices = Vec::new();
        if board.winner().is_none() {
            let steps: Vec<String> = board
                .legal_pawn_moves(colour)
                .map(|cell| cell.to_string())
                .collect();
            choices.push(format!("send: playmove {colour} {}", steps.join(" | ")));
            let mut walls = Vec::new();
            board.legal_walls(colour, &mut walls);
            if let Some(first) = walls.first() {
                choices.push(format!(
                    "send: playwall {colour} <wall> ({} legal, e.g. {first})",
                    walls.len()
                ));
            }
            choices.push(format!("send: genmove {colour}"));
            choices.push("opponent: move | auto".into());
        }
        choices.push(others.into());
        choices
    }
}


impl Drawn for QtpSession {
    fn board(&self) -> Option<String> {
        let b = self
            .board
            .as_ref()
            .filter(|_| self.walls_set && self.unknown == 0)?;
        // The legend, once there are walls to read.
        let legend = if b.placed_walls().next().is_some() {
            format!(
                "; walls drawn `{h}{h}{h}` horizontal, `{v}` vertical",
                h = super::super::rules::draw::HORIZONTAL,
                v = super::super::rules::draw::VERTICAL
            )
        } else {
            String::new()
        };
        Some(format!(
            "{}\n(walls left: black {}, white {}; {} move(s) in the history{legend})",
            b.draw().trim_end(),
            b.walls_left(Colour::Black),
            b.walls_left(Colour::White),
            b.history_len()
        ))
    }

    fn picture(&self) -> Option<crate::outcome::Picture> {
        // Drawn from `clear_board` on; the wall supply may still change.
        let b = self.board.as_ref().filter(|_| self.unknown == 0)?;
        let mut p = super::super::picture::picture(b);
        if let Some(action) = self.named {
            super::super::picture::mark_named(&mut p, b, action);
        }
        Some(p)
    }
}
