//! The search, game-independent: given protocheck's choices in a failing
//! game and a way to play a list of choices against the bot, find a shorter
//! game that fails the same way. It knows nothing of bots or games: a
//! candidate is a [`Plan`], and `play` says whether it failed and how.
//!
//! Passes, repeated while one improves: the other frames (seat, deal) with
//! the same choices; deleting runs of choices, halving the run length down
//! to one (delta debugging); replacing one choice by another that was legal
//! there. A game that is played on after its choices run out is cut there
//! by `play`, so a failing candidate holds exactly the choices made before
//! the failure, and the best one is always written as it was played.

/// protocheck's side of one game: the frame it is played in (seat, deal;
/// frame 0 is the game as generated) and its choices, in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan<T> {
    pub frame: usize,
    pub choices: Vec<T>,
}

/// A plan that failed, as it was played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure<T> {
    /// What must repeat for a candidate to count (the rule's id).
    pub rule: String,
    /// How long the game was when it failed (moves); smaller is better.
    pub size: usize,
    /// The choices actually made up to the failure (an illegal choice of the
    /// candidate replaced, the ones after the failure dropped).
    pub played: Plan<T>,
    /// For each choice made, the others that were legal there.
    pub alternatives: Vec<Vec<T>>,
}

/// How hard to look.
#[derive(Clone, Copy, Debug)]
pub struct Settings {
    /// A candidate counts only when every one of this many runs fails with
    /// the rule at the same size.
    pub reruns: usize,
    /// Frames a plan may be played in (1: only the game's own).
    pub frames: usize,
    /// At most this many other choices are tried in one place (the game
    /// lists the likeliest first: QTP its pawn steps before its walls).
    pub alternatives: usize,
    /// Replace choices before deleting runs of them (a game where an
    /// earlier choice, not fewer choices, shortens the game most).
    pub replace_first: bool,
}

/// Where the search ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome<T> {
    /// The shortest failure found (perhaps the original), and whether
    /// every pass ran to its end (`false`: the budget ran out first).
    Shrunk {
        original: usize,
        best: Failure<T>,
        runs: usize,
        complete: bool,
    },
    /// Played again, the original game did not fail the same way every
    /// time: the bot is not deterministic, and no shorter game is claimed.
    NotRepeatable { runs: usize, seen: String },
    /// The budget ran out before the original was played again.
    NoTime { runs: usize },
}

/// Searches within a budget; `out_of_time` is asked before every run.
pub struct Search<'a, T, P> {
    settings: Settings,
    out_of_time: &'a mut dyn FnMut() -> bool,
    play: P,
    runs: usize,
    _choice: std::marker::PhantomData<T>,
}

/// What a candidate's runs are held to besides the rule.
#[derive(Clone, Copy)]
enum Check<'b, T> {
    /// The original played again: the same game, failing at the same move.
    Same(&'b Failure<T>),
    /// A candidate: a shorter failure than the best so far.
    Shorter(&'b Failure<T>),
}

/// Why a candidate did not count.
enum Verdict<T> {
    Counts(Failure<T>),
    No,
    OutOfTime,
}

impl<'a, T, P> Search<'a, T, P>
where
    T: Clone + PartialEq,
    P: FnMut(&Plan<T>) -> Option<Failure<T>>,
{
    pub fn new(settings: Settings, out_of_time: &'a mut dyn FnMut() -> bool, play: P) -> Self {
        Search {
            settings,
            out_of_time,
            play,
            runs: 0,
            _choice: std::marker::PhantomData,
        }
    }

    /// Shrink the failure `original` (as first seen).
    pub fn run(mut self, original: Failure<T>) -> Outcome<T> {
        // The original itself must repeat, or nothing can be claimed.
        let mut best = match self.repeats(&original.played, &original.rule, Check::Same(&original))
        {
            Verdict::Counts(f) => f,
            Verdict::OutOfTime => return Outcome::NoTime { runs: self.runs },
            Verdict::No => {
                return Outcome::NotRepeatable {
                    runs: self.runs,
                    seen: original.rule,
                };
            }
        };
        let complete = loop {
            match self.pass(&mut best) {
                Some(true) => continue,
                Some(false) => break true,
                None => break false,
            }
        };
        Outcome::Shrunk {
            original: original.size,
            best,
            runs: self.runs,
            complete,
        }
    }

    /// One round of every pass; `Some(improved)`, `None`: out of time.
    fn pass(&mut self, best: &mut Failure<T>) -> Option<bool> {
        let mut improved = false;
        // Other frames, same choices.
        for frame in 0..self.settings.frames {
            if frame == best.played.frame {
                continue;
            }
            let plan = Plan {
                frame,
                choices: best.played.choices.clone(),
            };
            improved |= self.consider(plan, best)?;
        }
        if self.settings.replace_first {
            improved |= self.replace(best)?;
        }
        // Delete runs of choices, longest first.
        let mut chunk = best.played.choices.len() / 2;
        while chunk >= 1 {
            let mut start = 0;
            while start < best.played.choices.len() {
                let mut choices = best.played.choices.clone();
                let end = (start + chunk).min(choices.len());
                choices.drain(start..end);
                let plan = Plan {
                    frame: best.played.frame,
                    choices,
                };
                if self.consider(plan, best)? {
                    improved = true;
                    // The same place now holds later choices: try it again.
                } else {
                    start += chunk;
                }
            }
            chunk /= 2;
        }
        if !self.settings.replace_first {
            improved |= self.replace(best)?;
        }
        Some(improved)
    }

    /// Replace one choice by another that was legal there, from the first
    /// on; `Some(improved)`, `None`: out of time.
    fn replace(&mut self, best: &mut Failure<T>) -> Option<bool> {
        let mut improved = false;
        let mut at = 0;
        while at < best.played.choices.len() {
            let others = best.alternatives.get(at).cloned().unwrap_or_default();
            for other in others.into_iter().take(self.settings.alternatives) {
                if other == best.played.choices[at] {
                    continue;
                }
                let mut choices = best.played.choices.clone();
                choices[at] = other;
                let plan = Plan {
                    frame: best.played.frame,
                    choices,
                };
                if self.consider(plan, best)? {
                    improved = true;
                    break;
                }
            }
            at += 1;
        }
        Some(improved)
    }

    /// Try `plan`; true when it replaced `best`. `None`: out of time.
    fn consider(&mut self, plan: Plan<T>, best: &mut Failure<T>) -> Option<bool> {
        if plan == best.played {
            return Some(false);
        }
        let rule = best.rule.clone();
        match self.repeats(&plan, &rule, Check::Shorter(best)) {
            Verdict::OutOfTime => None,
            Verdict::No => Some(false),
            Verdict::Counts(f) => {
                *best = f;
                Some(true)
            }
        }
    }

    /// Play `plan` up to `reruns` times: it counts when every run fails
    /// with `rule` the same way, as `check` asks. A run that does not ends
    /// it at once, so a passing candidate costs one run.
    fn repeats(&mut self, plan: &Plan<T>, rule: &str, check: Check<'_, T>) -> Verdict<T> {
        let mut first: Option<Failure<T>> = None;
        for _ in 0..self.settings.reruns.max(1) {
            if (self.out_of_time)() {
                return Verdict::OutOfTime;
            }
            self.runs += 1;
            let Some(failure) = (self.play)(plan) else {
                return Verdict::No;
            };
            if failure.rule != rule {
                return Verdict::No;
            }
            let fits = match check {
                Check::Same(o) => failure.size == o.size && failure.played == o.played,
                Check::Shorter(b) => {
                    (failure.size, failure.played.choices.len()) < (b.size, b.played.choices.len())
                }
            };
            if !fits {
                return Verdict::No;
            }
            match &first {
                None => first = Some(failure),
                Some(f) if f.size != failure.size || f.played != failure.played => {
                    return Verdict::No;
                }
                Some(_) => {}
            }
        }
        first.map_or(Verdict::No, Verdict::Counts)
    }
}

#[cfg(test)]
mod tests;
