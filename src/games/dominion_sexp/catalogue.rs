//! The dominion-sexp check catalogue: one [`RuleInfo`] per row of
//! `shared/rules/dominion-sexp.md` §8, the shared `io.*` ids included with
//! the severities this game gives them.
//!
//! The `spec` strings are the table's requirement sentences verbatim
//! (markdown backticks and escapes included); a test re-reads the table and
//! fails if an id, a severity or a sentence drifts.

use crate::shared_rules::{self, Catalogue};
use crate::verdict::{RuleInfo, Severity};

pub static IO_TIMEOUT: RuleInfo = shared_rules::IO_TIMEOUT.worded(
    "A complete reply must arrive within `--timeout` of each `(move …)` (`--startup-timeout` for the first); an S-expression still open at the deadline counts as no reply, and so does a write to the bot that blocks past the deadline.",
);

pub static IO_UNEXPECTED_OUTPUT: RuleInfo = shared_rules::IO_UNEXPECTED_OUTPUT.worded(
    "The bot writes nothing but whitespace except one play after each `(move …)`: no answer to `(moved …)`, no second play, no stray text.",
);

pub static IO_CRASH: RuleInfo = shared_rules::IO_CRASH.worded(
    "The bot must not exit, close its stdout or close its stdin before the game is over, whatever its exit status.",
);

pub static IO_NO_EXIT: RuleInfo = shared_rules::IO_NO_EXIT.worded(
    "After protocheck closes the bot's stdin at the end of the game, the bot should exit within the grace period (default 2 s); any exit status is fine.",
);

pub static IO_LINE_TOO_LONG: RuleInfo = shared_rules::IO_LINE_TOO_LONG.worded(
    "One reply may not exceed 64 KiB from its first non-whitespace byte to its closing parenthesis.",
);

pub static IO_INVALID_UTF8: RuleInfo = shared_rules::IO_INVALID_UTF8
    .worded("Everything the bot writes to stdout must be valid UTF-8.");

pub static FRAME_SYNTAX: RuleInfo = RuleInfo {
    id: "dominion-sexp.frame.syntax",
    severity: Severity::Fail,
    spec: "The reply must be a readable S-expression: no stray `)`, no mismatched brackets, no unsupported `#` syntax, no unterminated string or comment.",
};

pub static FRAME_NONSTANDARD_SYNTAX: RuleInfo = RuleInfo {
    id: "dominion-sexp.frame.nonstandard-syntax",
    severity: Severity::Warn,
    spec: "The reply should use only parentheses, symbols and ASCII whitespace; brackets, braces, comments, dotted pairs, `\\|…\\|` symbols or Unicode spaces are accepted by the reference but are not in the document's grammar.",
};

pub static GRAMMAR_NOT_A_PLAY: RuleInfo = RuleInfo {
    id: "dominion-sexp.grammar.not-a-play",
    severity: Severity::Fail,
    spec: "The reply must be a list headed by `act`, `add`, `buy` or `clean` (not an atom, string, number, empty list, quoted form, or another head such as `pass`).",
};

pub static GRAMMAR_CASE: RuleInfo = RuleInfo {
    id: "dominion-sexp.grammar.case",
    severity: Severity::Fail,
    spec: "Keywords and card names must be lowercase exactly as in the grammar (`(Add copper)` and `(add Copper)` are rejected).",
};

pub static GRAMMAR_ARITY: RuleInfo = RuleInfo {
    id: "dominion-sexp.grammar.arity",
    severity: Severity::Fail,
    spec: "Each play must have exactly its grammar's elements: `(act mine t t)`, `(add t)`, `(buy c)`, `(clean)` or `(clean c)`.",
};

pub static GRAMMAR_UNKNOWN_ACTION: RuleInfo = RuleInfo {
    id: "dominion-sexp.grammar.unknown-action",
    severity: Severity::Fail,
    spec: "`act` must name `mine`, the only action card of version 1.",
};

pub static GRAMMAR_UNKNOWN_CARD: RuleInfo = RuleInfo {
    id: "dominion-sexp.grammar.unknown-card",
    severity: Severity::Fail,
    spec: "Every card slot must hold one of copper, silver, gold, estate, duchy, province, mine (no curse, no later-version card, no string or number).",
};

pub static GRAMMAR_NOT_TREASURE: RuleInfo = RuleInfo {
    id: "dominion-sexp.grammar.not-treasure",
    severity: Severity::Fail,
    spec: "The cards of `(add …)` and both cards of `(act mine …)` must be treasures.",
};

pub static MINE_NOT_IN_HAND: RuleInfo = RuleInfo {
    id: "dominion-sexp.mine.not-in-hand",
    severity: Severity::Fail,
    spec: "`(act mine …)` requires a mine card in hand.",
};

pub static MINE_NO_ACTIONS: RuleInfo = RuleInfo {
    id: "dominion-sexp.mine.no-actions",
    severity: Severity::Fail,
    spec: "`(act mine …)` requires actions ≥ 1 (none are left after an `add`, a `buy` or an earlier mine).",
};

pub static MINE_TRASH_NOT_IN_HAND: RuleInfo = RuleInfo {
    id: "dominion-sexp.mine.trash-not-in-hand",
    severity: Severity::Fail,
    spec: "The treasure to trash must be in hand.",
};

pub static MINE_GAIN_NOT_IN_SUPPLY: RuleInfo = RuleInfo {
    id: "dominion-sexp.mine.gain-not-in-supply",
    severity: Severity::Fail,
    spec: "The treasure to gain must still be in the supply.",
};

pub static MINE_TOO_EXPENSIVE: RuleInfo = RuleInfo {
    id: "dominion-sexp.mine.too-expensive",
    severity: Severity::Fail,
    spec: "The gained treasure may cost at most the trashed treasure's cost plus 3 (silver→gold is legal).",
};

pub static ADD_NOT_IN_HAND: RuleInfo = RuleInfo {
    id: "dominion-sexp.add.not-in-hand",
    severity: Severity::Fail,
    spec: "The added treasure must be in hand (each copy can be added once).",
};

pub static ADD_NO_BUYS: RuleInfo = RuleInfo {
    id: "dominion-sexp.add.no-buys",
    severity: Severity::Fail,
    spec: "`(add …)` requires buys ≥ 1; adding after the turn's buy is refused.",
};

pub static BUY_NO_BUYS: RuleInfo = RuleInfo {
    id: "dominion-sexp.buy.no-buys",
    severity: Severity::Fail,
    spec: "`(buy …)` requires buys ≥ 1 (one buy per turn in version 1).",
};

pub static BUY_NOT_IN_SUPPLY: RuleInfo = RuleInfo {
    id: "dominion-sexp.buy.not-in-supply",
    severity: Severity::Fail,
    spec: "The bought card must still be in the supply.",
};

pub static BUY_TOO_EXPENSIVE: RuleInfo = RuleInfo {
    id: "dominion-sexp.buy.too-expensive",
    severity: Severity::Fail,
    spec: "The bought card's cost must not exceed the coins in the state.",
};

pub static CLEAN_CARD_REQUIRED: RuleInfo = RuleInfo {
    id: "dominion-sexp.clean.card-required",
    severity: Severity::Fail,
    spec: "`(clean)` is allowed only with an empty hand; otherwise the bot must name a card with `(clean card)`.",
};

pub static CLEAN_TOP_NOT_IN_HAND: RuleInfo = RuleInfo {
    id: "dominion-sexp.clean.top-not-in-hand",
    severity: Severity::Fail,
    spec: "The card named in `(clean card)` must be in hand (an empty hand requires bare `(clean)`).",
};

pub static ROBUST_EXTRA_WHITESPACE: RuleInfo = RuleInfo {
    id: "dominion-sexp.robust.extra-whitespace",
    severity: Severity::Warn,
    spec: "The bot should still play correctly when notifications contain extra spaces, tabs or line breaks between tokens, which the document allows (robustness scenario only).",
};

pub static ROBUST_REFERENCE_NAMES: RuleInfo = RuleInfo {
    id: "dominion-sexp.robust.reference-names",
    severity: Severity::Warn,
    spec: "The bot should still play correctly when player names look like the reference's (`0-player-v1`) instead of letters only (robustness scenario only).",
};

/// The dominion-sexp rows, in the order of the table in dominion-sexp.md §8 (the shared `io.*`
/// ids as dominion-sexp words them); `shared_rules::Catalogue` adds the rest.
pub static CATALOGUE: Catalogue = Catalogue::new(&[
    &IO_TIMEOUT,
    &IO_UNEXPECTED_OUTPUT,
    &IO_CRASH,
    &IO_NO_EXIT,
    &IO_LINE_TOO_LONG,
    &IO_INVALID_UTF8,
    &FRAME_SYNTAX,
    &FRAME_NONSTANDARD_SYNTAX,
    &GRAMMAR_NOT_A_PLAY,
    &GRAMMAR_CASE,
    &GRAMMAR_ARITY,
    &GRAMMAR_UNKNOWN_ACTION,
    &GRAMMAR_UNKNOWN_CARD,
    &GRAMMAR_NOT_TREASURE,
    &MINE_NOT_IN_HAND,
    &MINE_NO_ACTIONS,
    &MINE_TRASH_NOT_IN_HAND,
    &MINE_GAIN_NOT_IN_SUPPLY,
    &MINE_TOO_EXPENSIVE,
    &ADD_NOT_IN_HAND,
    &ADD_NO_BUYS,
    &BUY_NO_BUYS,
    &BUY_NOT_IN_SUPPLY,
    &BUY_TOO_EXPENSIVE,
    &CLEAN_CARD_REQUIRED,
    &CLEAN_TOP_NOT_IN_HAND,
    &ROBUST_EXTRA_WHITESPACE,
    &ROBUST_REFERENCE_NAMES,
]);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::catalogue_check;

    #[test]
    fn ids_are_unique_lowercase_and_dotted() {
        catalogue_check::ids_are_well_formed(CATALOGUE.all(), "dominion-sexp");
        assert_eq!(
            CATALOGUE.by_id("dominion-sexp.mine.too-expensive"),
            Some(&MINE_TOO_EXPENSIVE)
        );
        assert_eq!(CATALOGUE.by_id("dominion-sexp.nope"), None);
    }

    #[test]
    fn catalogue_matches_the_rules_md_table() {
        catalogue_check::matches_rules_doc(
            CATALOGUE.own(),
            "dominion-sexp.md",
            "## 8. Catalogue of checks",
            20,
        );
    }
}
