//! The capabilities of a KalahSession beside judging: `Scripted` (the lint, `record` and saved games carry steps out without a bot) and `Drawn` (the state drawn for humans).

use super::*;

impl Scripted for KalahSession {
    fn assume(&mut self, pinned: Option<&str>) -> Result<Vec<Outgoing>, ScriptError> {
        if !self.known {
            return Ok(Vec::new());
        }
        let Some(text) = pinned else {
            self.known = false;
            return Ok(Vec::new());
        };
        let mut line = text.as_bytes().to_vec();
        line.push(b'\n');
        self.judge_move(&line).assumed(text)
    }

    fn state_known(&self) -> bool {
        self.known
    }

    fn last_opponent_step(&self) -> Option<crate::scenario_model::Step> {
        self.last_opponent
            .clone()
            .map(|m| crate::scenario_model::Step::Opponent(crate::scenario_model::Token(m)))
    }

    fn legal_choices(&self) -> Vec<String> {
        self.choices()
    }

    /// The opponent's legal moves (a hole, or `swap`) when it is to move.
    fn own_moves(&self) -> Vec<String> {
        if self.bot.is_none()
            || !self.known
            || self.over
            || self.eof
            || self.bot_to_move()
            || self.position.is_over()
        {
            return Vec::new();
        }
        self.position
            .legal_moves()
            .map(|mv| match mv {
                Move::Hole(h) => h.to_string(),
                Move::Swap => "swap".into(),
            })
            .collect()
    }
}


impl Drawn for KalahSession {
    fn board(&self) -> Option<String> {
        if !self.known {
            return None;
        }
        Some(format!(
            "{}\n({})",
            self.position.board().draw(),
            self.situation()
        ))
    }

    fn picture(&self) -> Option<crate::outcome::Picture> {
        let board = self.position.board();
        self.known.then(|| {
            let p = super::super::picture::picture(board, self.bot, self.situation());
            super::super::picture::with_named(p, board, self.named)
        })
    }
}
