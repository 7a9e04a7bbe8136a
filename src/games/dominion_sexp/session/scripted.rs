//! The capabilities of a SexpSession beside judging: `Scripted` (the lint, `record` and saved games carry steps out without a bot).

use super::*;

impl Scripted for SexpSession {
    fn assume(&mut self, pinned: Option<&str>) -> Result<Vec<Outgoing>, ScriptError> {
        if !self.known {
            return Ok(Vec::new());
        }
        self.move_due = false;
        let Some(text) = pinned else {
            self.known = false;
            return Ok(Vec::new());
        };
        self.judge_play(text.as_bytes()).assumed(text)
    }

    fn state_known(&self) -> bool {
        self.known
    }

    fn last_opponent_step(&self) -> Option<Step> {
        self.last_opponent.clone().map(|m| Step::Opponent(Token(m)))
    }

    /// At a built-in seat's turn: each play legal for it, in the rule
    /// engine's order (mines, adds, buys, cleans). Elsewhere none: what
    /// protocheck sends at the bot's turn (`opponent: auto`, its
    /// `(move …)`) holds no choice.
    fn own_moves(&self) -> Vec<String> {
        let current = self.game.current;
        if !self.known
            || self.move_due
            || self.game_over()
            || current == self.bot
            || self.relayed.at(current)
        {
            return Vec::new();
        }
        let mut moves = Vec::new();
        self.game.for_each_legal(|p| moves.push(p.to_string()));
        moves
    }
}
