//! The dominion-text check catalogue: one [`RuleInfo`] per row of
//! `shared/rules/dominion-text.md` §8, the shared `io.*` ids included with
//! the severities this game gives them, plus protocheck's harness limits.
//!
//! The `spec` strings are the table's requirement sentences verbatim
//! (markdown backticks included); a test re-reads the table and fails if an
//! id, a severity or a sentence drifts.

use crate::shared_rules::{self, Catalogue};
use crate::verdict::{RuleInfo, Severity};

pub static IO_TIMEOUT: RuleInfo = shared_rules::IO_TIMEOUT.worded(
    "Each reply line (name, version, play-turn, attack) must be complete, LF included, within `--timeout` (`--startup-timeout` for the first); missing it disqualifies the bot, and so does a write to the bot that blocks past the deadline.",
);

pub static IO_UNEXPECTED_OUTPUT: RuleInfo = shared_rules::IO_UNEXPECTED_OUTPUT.worded(
    "The bot must write no non-blank line when no reply is due: nothing in answer to `supply`, info lines or `game kingdom-cards`, and no second line after a reply.",
);

pub static IO_CRASH: RuleInfo = shared_rules::IO_CRASH.worded(
    "The bot must not exit, close its stdout or close its stdin before the game is over, whatever its exit status.",
);

pub static IO_NO_EXIT: RuleInfo = shared_rules::IO_NO_EXIT.worded(
    "After protocheck closes its stdin at the end of the game, the bot should exit within the grace period (default 2 s); any exit status is fine.",
);

pub static IO_LINE_TOO_LONG: RuleInfo =
    shared_rules::IO_LINE_TOO_LONG.worded("No line written by the bot may exceed 64 KiB.");

pub static IO_INVALID_UTF8: RuleInfo = shared_rules::IO_INVALID_UTF8
    .worded("Everything the bot writes to stdout must be valid UTF-8.");

pub static FRAME_CRLF: RuleInfo = RuleInfo {
    id: "dominion-text.frame.crlf",
    severity: Severity::Warn,
    spec: "Lines should end with LF alone, not CR LF.",
};

pub static FRAME_WHITESPACE: RuleInfo = RuleInfo {
    id: "dominion-text.frame.whitespace",
    severity: Severity::Warn,
    spec: "Tokens should be separated by single spaces, with no tabs and no leading or trailing whitespace.",
};

pub static FRAME_BLANK_LINE: RuleInfo = RuleInfo {
    id: "dominion-text.frame.blank-line",
    severity: Severity::Warn,
    spec: "The bot should not write empty or whitespace-only lines (they are ignored).",
};

pub static HANDSHAKE_NAME_REPLY: RuleInfo = RuleInfo {
    id: "dominion-text.handshake.name-reply",
    severity: Severity::Warn,
    spec: "The answer to `player <seat> name` should be `player <seat> <bot-name>` with the seat received and a non-empty name; otherwise the bot is named `PLAYERN`.",
};

pub static HANDSHAKE_VERSION_ECHO: RuleInfo = RuleInfo {
    id: "dominion-text.handshake.version-echo",
    severity: Severity::Fail,
    spec: "The answer to `player <seat> version 1` must repeat it exactly; otherwise the game stops.",
};

pub static GRAMMAR_NOT_A_REPLY: RuleInfo = RuleInfo {
    id: "dominion-text.grammar.not-a-reply",
    severity: Severity::Fail,
    spec: "A reply to a request must be `play-reply` followed by a verb this request allows (`pass`, `buy`, `action`; or `discard`, `reaction moat`).",
};

pub static GRAMMAR_WRONG_CONTEXT: RuleInfo = RuleInfo {
    id: "dominion-text.grammar.wrong-context",
    severity: Severity::Fail,
    spec: "`discard` and `reaction` answer only attack requests; `pass`, `buy` and `action` answer only play-turn requests.",
};

pub static GRAMMAR_CASE: RuleInfo = RuleInfo {
    id: "dominion-text.grammar.case",
    severity: Severity::Fail,
    spec: "Keywords and card names must be lowercase.",
};

pub static GRAMMAR_UNKNOWN_CARD: RuleInfo = RuleInfo {
    id: "dominion-text.grammar.unknown-card",
    severity: Severity::Fail,
    spec: "Every card token must be one of the 17 supply card names.",
};

pub static GRAMMAR_EXTRA_TOKENS: RuleInfo = RuleInfo {
    id: "dominion-text.grammar.extra-tokens",
    severity: Severity::Fail,
    spec: "No tokens beyond the grammar: none after `pass`, none after market/militia/moat/smithy/village/woodcutter, at most two after mine/remodel, at most one after workshop.",
};

pub static GRAMMAR_WORKSHOP_TYPO: RuleInfo = RuleInfo {
    id: "dominion-text.grammar.workshop-typo",
    severity: Severity::Warn,
    spec: "Workshop should be played as `play-reply action workshop <card>`; the document's typo form `play-reply reply workshop <card>` is accepted with this warning.",
};

pub static ACTION_NO_ACTIONS: RuleInfo = RuleInfo {
    id: "dominion-text.action.no-actions",
    severity: Severity::Fail,
    spec: "An action may be played only while actions ≥ 1; otherwise the turn ends without a buy.",
};

pub static ACTION_NOT_ACTION_CARD: RuleInfo = RuleInfo {
    id: "dominion-text.action.not-action-card",
    severity: Severity::Fail,
    spec: "The card after `action` must be an action card (one action is consumed otherwise).",
};

pub static ACTION_NOT_IN_HAND: RuleInfo = RuleInfo {
    id: "dominion-text.action.not-in-hand",
    severity: Severity::Fail,
    spec: "The action card played must be in hand (one action is consumed otherwise).",
};

pub static CELLAR_NO_VALID_CARDS: RuleInfo = RuleInfo {
    id: "dominion-text.cellar.no-valid-cards",
    severity: Severity::Fail,
    spec: "A non-empty cellar list must start with a card in hand (else the cellar and the action are consumed with no effect).",
};

pub static CELLAR_CARD_NOT_IN_HAND: RuleInfo = RuleInfo {
    id: "dominion-text.cellar.card-not-in-hand",
    severity: Severity::Warn,
    spec: "Every card in a cellar list should be in the remaining hand; the server discards only the valid prefix.",
};

pub static MINE_MISSING_CARD: RuleInfo = RuleInfo {
    id: "dominion-text.mine.missing-card",
    severity: Severity::Fail,
    spec: "Mine must name a treasure to trash whenever the hand holds one.",
};

pub static MINE_NOT_TREASURE: RuleInfo = RuleInfo {
    id: "dominion-text.mine.not-treasure",
    severity: Severity::Fail,
    spec: "Both cards named by mine must be treasures.",
};

pub static MINE_TRASH_NOT_IN_HAND: RuleInfo = RuleInfo {
    id: "dominion-text.mine.trash-not-in-hand",
    severity: Severity::Fail,
    spec: "The treasure mine trashes must be in hand.",
};

pub static MINE_MISSING_GAIN: RuleInfo = RuleInfo {
    id: "dominion-text.mine.missing-gain",
    severity: Severity::Fail,
    spec: "Mine may omit the treasure to gain only when no treasure costing up to 3 more is available.",
};

pub static MINE_GAIN_UNAVAILABLE: RuleInfo = RuleInfo {
    id: "dominion-text.mine.gain-unavailable",
    severity: Severity::Fail,
    spec: "The treasure mine gains must have a non-empty pile.",
};

pub static MINE_TOO_EXPENSIVE: RuleInfo = RuleInfo {
    id: "dominion-text.mine.too-expensive",
    severity: Severity::Fail,
    spec: "The treasure mine gains may cost at most the trashed treasure's cost plus 3.",
};

pub static REMODEL_MISSING_CARD: RuleInfo = RuleInfo {
    id: "dominion-text.remodel.missing-card",
    severity: Severity::Fail,
    spec: "Remodel must name a card to trash whenever the hand is not empty.",
};

pub static REMODEL_TRASH_NOT_IN_HAND: RuleInfo = RuleInfo {
    id: "dominion-text.remodel.trash-not-in-hand",
    severity: Severity::Fail,
    spec: "The card remodel trashes must be in hand (the played remodel is not).",
};

pub static REMODEL_MISSING_GAIN: RuleInfo = RuleInfo {
    id: "dominion-text.remodel.missing-gain",
    severity: Severity::Fail,
    spec: "Remodel may omit the card to gain only when no card costing up to 2 more is available.",
};

pub static REMODEL_GAIN_UNAVAILABLE: RuleInfo = RuleInfo {
    id: "dominion-text.remodel.gain-unavailable",
    severity: Severity::Fail,
    spec: "The card remodel gains must have a non-empty pile.",
};

pub static REMODEL_TOO_EXPENSIVE: RuleInfo = RuleInfo {
    id: "dominion-text.remodel.too-expensive",
    severity: Severity::Fail,
    spec: "The card remodel gains may cost at most the trashed card's cost plus 2.",
};

pub static WORKSHOP_MISSING_GAIN: RuleInfo = RuleInfo {
    id: "dominion-text.workshop.missing-gain",
    severity: Severity::Fail,
    spec: "Workshop must name a card to gain unless no card costing up to 4 is available.",
};

pub static WORKSHOP_GAIN_UNAVAILABLE: RuleInfo = RuleInfo {
    id: "dominion-text.workshop.gain-unavailable",
    severity: Severity::Fail,
    spec: "The card workshop gains must have a non-empty pile.",
};

pub static WORKSHOP_TOO_EXPENSIVE: RuleInfo = RuleInfo {
    id: "dominion-text.workshop.too-expensive",
    severity: Severity::Fail,
    spec: "The card workshop gains may cost at most 4.",
};

pub static BUY_EMPTY: RuleInfo = RuleInfo {
    id: "dominion-text.buy.empty",
    severity: Severity::Warn,
    spec: "`play-reply buy` should name at least one card (an empty list is treated as a pass).",
};

pub static BUY_MORE_THAN_BUYS: RuleInfo = RuleInfo {
    id: "dominion-text.buy.more-than-buys",
    severity: Severity::Warn,
    spec: "A buy should not name more cards than the buys available; the extra cards are ignored.",
};

pub static BUY_UNAFFORDABLE: RuleInfo = RuleInfo {
    id: "dominion-text.buy.unaffordable",
    severity: Severity::Warn,
    spec: "Each card in a buy should be affordable with the money left; buying stops at the first that is not.",
};

pub static BUY_PILE_EMPTY: RuleInfo = RuleInfo {
    id: "dominion-text.buy.pile-empty",
    severity: Severity::Warn,
    spec: "Each card in a buy should have a non-empty pile; buying stops at the first that does not.",
};

pub static ATTACK_WRONG_COUNT: RuleInfo = RuleInfo {
    id: "dominion-text.attack.wrong-count",
    severity: Severity::Fail,
    spec: "A discard reply must name exactly the requested number of cards.",
};

pub static ATTACK_NOT_IN_HAND: RuleInfo = RuleInfo {
    id: "dominion-text.attack.not-in-hand",
    severity: Severity::Fail,
    spec: "The discarded cards must be in hand, counted as a multiset.",
};

pub static ATTACK_MOAT_NOT_IN_HAND: RuleInfo = RuleInfo {
    id: "dominion-text.attack.moat-not-in-hand",
    severity: Severity::Fail,
    spec: "`play-reply reaction moat` is allowed only with a moat in hand.",
};

pub static ROBUST_SUPPLY_WHILE_WAITING: RuleInfo = RuleInfo {
    id: "dominion-text.robust.supply-while-waiting",
    severity: Severity::Warn,
    spec: "The bot should silently accept a `supply` line outside its own turn (robustness scenario only).",
};

/// The dominion-text rows, in the order of the table in dominion-text.md §8 (the shared `io.*`
/// ids as dominion-text words them); `shared_rules::Catalogue` adds the rest.
pub static CATALOGUE: Catalogue = Catalogue::new(&[
    &IO_TIMEOUT,
    &IO_UNEXPECTED_OUTPUT,
    &IO_CRASH,
    &IO_NO_EXIT,
    &IO_LINE_TOO_LONG,
    &IO_INVALID_UTF8,
    &FRAME_CRLF,
    &FRAME_WHITESPACE,
    &FRAME_BLANK_LINE,
    &HANDSHAKE_NAME_REPLY,
    &HANDSHAKE_VERSION_ECHO,
    &GRAMMAR_NOT_A_REPLY,
    &GRAMMAR_WRONG_CONTEXT,
    &GRAMMAR_CASE,
    &GRAMMAR_UNKNOWN_CARD,
    &GRAMMAR_EXTRA_TOKENS,
    &GRAMMAR_WORKSHOP_TYPO,
    &ACTION_NO_ACTIONS,
    &ACTION_NOT_ACTION_CARD,
    &ACTION_NOT_IN_HAND,
    &CELLAR_NO_VALID_CARDS,
    &CELLAR_CARD_NOT_IN_HAND,
    &MINE_MISSING_CARD,
    &MINE_NOT_TREASURE,
    &MINE_TRASH_NOT_IN_HAND,
    &MINE_MISSING_GAIN,
    &MINE_GAIN_UNAVAILABLE,
    &MINE_TOO_EXPENSIVE,
    &REMODEL_MISSING_CARD,
    &REMODEL_TRASH_NOT_IN_HAND,
    &REMODEL_MISSING_GAIN,
    &REMODEL_GAIN_UNAVAILABLE,
    &REMODEL_TOO_EXPENSIVE,
    &WORKSHOP_MISSING_GAIN,
    &WORKSHOP_GAIN_UNAVAILABLE,
    &WORKSHOP_TOO_EXPENSIVE,
    &BUY_EMPTY,
    &BUY_MORE_THAN_BUYS,
    &BUY_UNAFFORDABLE,
    &BUY_PILE_EMPTY,
    &ATTACK_WRONG_COUNT,
    &ATTACK_NOT_IN_HAND,
    &ATTACK_MOAT_NOT_IN_HAND,
    &ROBUST_SUPPLY_WHILE_WAITING,
]);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::catalogue_check;

    #[test]
    fn ids_are_unique_lowercase_and_dotted() {
        catalogue_check::ids_are_well_formed(CATALOGUE.all(), "dominion-text");
        assert_eq!(
            CATALOGUE.by_id("dominion-text.grammar.case"),
            Some(&GRAMMAR_CASE)
        );
        assert_eq!(CATALOGUE.by_id("dominion-text.nope"), None);
    }

    #[test]
    fn catalogue_matches_the_dominion_text_md_table() {
        catalogue_check::matches_rules_doc(
            CATALOGUE.own(),
            "dominion-text.md",
            "## 8. Catalogue of checks",
            44,
        );
    }
}
