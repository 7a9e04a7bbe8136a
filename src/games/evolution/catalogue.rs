//! The Evolution check catalogue: one [`RuleInfo`] per row of
//! `shared/rules/evolution.md` §8, the shared `io.*` ids included with the
//! severities this game gives them.
//!
//! The `spec` strings state each rule the row checks (the table's column
//! describes the violation, which the finding's message already tells); a
//! test re-reads the table and fails if an id or a severity drifts. Where a row says "fail (warn if …)", the severity here is
//! the default (`fail`) and the game lowers it in the situation named.

use crate::shared_rules::{self, Catalogue};
use crate::verdict::{RuleInfo, Severity};

pub static IO_NO_CONNECT: RuleInfo = RuleInfo {
    id: "io.no-connect",
    severity: Severity::Fail,
    spec: "The bot connects to protocheck's port on 127.0.0.1 within the startup timeout (Evolution's default: 30 s from spawn to connect; the reference client, compiled, takes 1.2–5.3 s on 2 shared cores, 9.5 s uncompiled). The 5 s sign-up limit starts at the connection.",
};

pub static IO_TIMEOUT: RuleInfo = shared_rules::IO_TIMEOUT.worded(
    "The sign-up starts within 5 s of the connection and is complete within 5 s more, and each reply to `choose`/`feedNext` is complete within 1 s; the reference drops a player that is late.",
);

pub static IO_CRASH: RuleInfo = shared_rules::IO_CRASH
    .worded("The bot keeps running, and keeps its connection open, while the game is still running.");

pub static IO_UNEXPECTED_OUTPUT: RuleInfo = shared_rules::IO_UNEXPECTED_OUTPUT.worded_as(
    Severity::Warn,
    "The bot sends only what the server reads: no bytes are left unread when protocheck closes the connection (the reference never reads them).",
);

pub static IO_INVALID_UTF8: RuleInfo = shared_rules::IO_INVALID_UTF8
    .worded("Everything the bot sends is UTF-8; the reference's reader rejects anything else.");

pub static IO_MESSAGE_TOO_LARGE: RuleInfo = RuleInfo {
    id: "io.message-too-large",
    severity: Severity::Fail,
    spec: "Each value is at most 64 KiB long and at most 128 levels deep; legal replies are far smaller.",
};

pub static IO_NO_EXIT: RuleInfo = shared_rules::IO_NO_EXIT.worded(
    "After the server closes the connection, the bot process exits within the grace period.",
);

pub static FRAME_UNDELIMITED_NUMBER: RuleInfo = RuleInfo {
    id: "evolution.frame.undelimited-number",
    severity: Severity::Fail,
    spec: "A reply that is a bare number (or literal) is followed by a whitespace byte, so that the reference sees where it ends (without one, it drops the player after 1 s).",
};

pub static FRAME_INVALID_JSON: RuleInfo = RuleInfo {
    id: "evolution.frame.invalid-json",
    severity: Severity::Fail,
    spec: "Where a value starts or continues, the bytes are JSON: no garbage, truncated value, trailing comma, `NaN`, single quotes, leading zero or bare word.",
};

pub static FRAME_NON_JSON_WHITESPACE: RuleInfo = RuleInfo {
    id: "evolution.frame.non-json-whitespace",
    severity: Severity::Fail,
    spec: "Only JSON whitespace (space, tab, LF, CR) comes before and between values: no byte-order mark, form feed, vertical tab, NBSP or other whitespace.",
};

pub static FRAME_CONTROL_CHAR_IN_STRING: RuleInfo = RuleInfo {
    id: "evolution.frame.control-char-in-string",
    severity: Severity::Warn,
    spec: "The sign-up string holds no raw control character; JSON forbids it, the reference accepts it.",
};

pub static SIGNUP_NOT_A_STRING: RuleInfo = RuleInfo {
    id: "evolution.signup.not-a-string",
    severity: Severity::Fail,
    spec: "The first value the bot sends is a JSON string; the reference never answers anything else and never seats the player.",
};

pub static SIGNUP_EXTRA_CONNECTION: RuleInfo = RuleInfo {
    id: "evolution.signup.extra-connection",
    severity: Severity::Warn,
    spec: "The bot opens one connection; only the first is played.",
};

pub static FLOW_EARLY_REPLY: RuleInfo = RuleInfo {
    id: "evolution.flow.early-reply",
    severity: Severity::Warn,
    spec: "The bot sends a value only when one is asked for, one per request, and none in reply to `start` or `\"ok\"`; an early value is judged as the reply to the next request, as the reference would read it.",
};

pub static VALUE_NOT_NATURAL: RuleInfo = RuleInfo {
    id: "evolution.value.not-natural",
    severity: Severity::Fail,
    spec: "A number where a Natural or Nat+ is required is a whole number, not negative, written without a fraction or an exponent.",
};

pub static CHOOSE_SHAPE: RuleInfo = RuleInfo {
    id: "evolution.choose.shape",
    severity: Severity::Fail,
    spec: "The reply to `choose` is `[Natural, [GP…], [GB…], [BT…], [RT…]]`, with GPs and GBs as pairs, BTs of 1–4 elements and RTs as triples.",
};

pub static CHOOSE_TAGGED_GROWTH: RuleInfo = RuleInfo {
    id: "evolution.choose.tagged-growth",
    severity: Severity::Fail,
    spec: "A GP or GB is a plain pair, not the older tagged form `[\"population\", b, c]` / `[\"body\", b, c]`.",
};

pub static CHOOSE_CARD_OUT_OF_RANGE: RuleInfo = RuleInfo {
    id: "evolution.choose.card-out-of-range",
    severity: Severity::Fail,
    spec: "Every card index is smaller than the size of the hand sent in the latest `start`.",
};

pub static CHOOSE_CARD_REUSED: RuleInfo = RuleInfo {
    id: "evolution.choose.card-reused",
    severity: Severity::Fail,
    spec: "Each card index is used at most once in a reply (food card, GP, GB, BT or RT).",
};

pub static CHOOSE_BOARD_OUT_OF_RANGE: RuleInfo = RuleInfo {
    id: "evolution.choose.board-out-of-range",
    severity: Severity::Fail,
    spec: "A GP, GB or RT names a board index smaller than the number of existing boards plus the BTs in the same reply.",
};

pub static CHOOSE_POPULATION_OVERFLOW: RuleInfo = RuleInfo {
    id: "evolution.choose.population-overflow",
    severity: Severity::Fail,
    spec: "The GPs raise no board's population above 7.",
};

pub static CHOOSE_BODY_OVERFLOW: RuleInfo = RuleInfo {
    id: "evolution.choose.body-overflow",
    severity: Severity::Fail,
    spec: "The GBs raise no board's body above 7 (reference: at most 6 GBs on a board created in the same reply).",
};

pub static CHOOSE_DUPLICATE_TRAIT: RuleInfo = RuleInfo {
    id: "evolution.choose.duplicate-trait",
    severity: Severity::Fail,
    spec: "No board ends up holding the same trait twice: not through two BT cards of one trait, an RT whose new trait already sits at *another* position of that board (the replaced position does not count, so replacing a trait with another card of the same trait is legal and the reference client does it routinely), RTs that together do so, or a two-RT swap.",
};

pub static CHOOSE_TRAIT_POSITION: RuleInfo = RuleInfo {
    id: "evolution.choose.trait-position",
    severity: Severity::Fail,
    spec: "An RT names a position the board's trait list has; traits can be replaced but not added.",
};

pub static FEED_SHAPE: RuleInfo = RuleInfo {
    id: "evolution.feed.shape",
    severity: Severity::Fail,
    spec: "The reply to `feedNext` is a Natural, `[Natural, Nat+]`, `[Natural, Natural, Natural]` or `false`.",
};

pub static FEED_FALSE_REPLY: RuleInfo = RuleInfo {
    id: "evolution.feed.false-reply",
    severity: Severity::Fail,
    spec: "The reply to `feedNext` names a feeding, never `false`: the document allows `false`, but the reference never accepts it when it asks.",
};

pub static FEED_SPECIES_OUT_OF_RANGE: RuleInfo = RuleInfo {
    id: "evolution.feed.species-out-of-range",
    severity: Severity::Fail,
    spec: "A species or attacker index is smaller than the number of the player's boards.",
};

pub static FEED_VEGETARIAN_IS_CARNIVORE: RuleInfo = RuleInfo {
    id: "evolution.feed.vegetarian-is-carnivore",
    severity: Severity::Fail,
    spec: "A VegetarianChoice names a species without the carnivore trait.",
};

pub static FEED_NOT_HUNGRY: RuleInfo = RuleInfo {
    id: "evolution.feed.not-hungry",
    severity: Severity::Fail,
    spec: "A VegetarianChoice, and the attacker of a CarnivoreChoice, name a hungry species: its food is below its population.",
};

pub static FEED_NO_FAT_TISSUE: RuleInfo = RuleInfo {
    id: "evolution.feed.no-fat-tissue",
    severity: Severity::Fail,
    spec: "A FatTissueChoice names a species with fat-tissue.",
};

pub static FEED_FAT_AMOUNT: RuleInfo = RuleInfo {
    id: "evolution.feed.fat-amount",
    severity: Severity::Fail,
    spec: "A FatTissueChoice asks for at most the species' body minus its fat store, and only while that store is not full.",
};

pub static FEED_NOT_CARNIVORE: RuleInfo = RuleInfo {
    id: "evolution.feed.not-carnivore",
    severity: Severity::Fail,
    spec: "The attacker of a CarnivoreChoice has the carnivore trait.",
};

pub static FEED_PLAYER_OUT_OF_RANGE: RuleInfo = RuleInfo {
    id: "evolution.feed.player-out-of-range",
    severity: Severity::Fail,
    spec: "The player index of a CarnivoreChoice is smaller than the number of other players in the State.",
};

pub static FEED_TARGET_OUT_OF_RANGE: RuleInfo = RuleInfo {
    id: "evolution.feed.target-out-of-range",
    severity: Severity::Fail,
    spec: "The target index is smaller than that player's number of boards.",
};

pub static FEED_TARGET_NOT_ATTACKABLE: RuleInfo = RuleInfo {
    id: "evolution.feed.target-not-attackable",
    severity: Severity::Fail,
    spec: "A CarnivoreChoice attacks only a target the reference's attack test allows (warning-call, burrowing, climbing, herding, hard-shell, including hard-shell at exactly 4).",
};

pub static FEED_ATTACK_RULES_FORBID: RuleInfo = RuleInfo {
    id: "evolution.feed.attack-rules-forbid",
    severity: Severity::Warn,
    spec: "An attack is one the published trait texts allow as well as the reference (they forbid some it allows: symbiosis, and pack-hunting/hard-shell quirks).",
};

/// The evolution rows, in the order of the table in evolution.md §8 (the shared `io.*`
/// ids as evolution words them); `shared_rules::Catalogue` adds the rest.
pub static CATALOGUE: Catalogue = Catalogue::new(&[
    &IO_NO_CONNECT,
    &IO_TIMEOUT,
    &IO_CRASH,
    &IO_UNEXPECTED_OUTPUT,
    &IO_INVALID_UTF8,
    &IO_MESSAGE_TOO_LARGE,
    &IO_NO_EXIT,
    &FRAME_UNDELIMITED_NUMBER,
    &FRAME_INVALID_JSON,
    &FRAME_NON_JSON_WHITESPACE,
    &FRAME_CONTROL_CHAR_IN_STRING,
    &SIGNUP_NOT_A_STRING,
    &SIGNUP_EXTRA_CONNECTION,
    &FLOW_EARLY_REPLY,
    &VALUE_NOT_NATURAL,
    &CHOOSE_SHAPE,
    &CHOOSE_TAGGED_GROWTH,
    &CHOOSE_CARD_OUT_OF_RANGE,
    &CHOOSE_CARD_REUSED,
    &CHOOSE_BOARD_OUT_OF_RANGE,
    &CHOOSE_POPULATION_OVERFLOW,
    &CHOOSE_BODY_OVERFLOW,
    &CHOOSE_DUPLICATE_TRAIT,
    &CHOOSE_TRAIT_POSITION,
    &FEED_SHAPE,
    &FEED_FALSE_REPLY,
    &FEED_SPECIES_OUT_OF_RANGE,
    &FEED_VEGETARIAN_IS_CARNIVORE,
    &FEED_NOT_HUNGRY,
    &FEED_NO_FAT_TISSUE,
    &FEED_FAT_AMOUNT,
    &FEED_NOT_CARNIVORE,
    &FEED_PLAYER_OUT_OF_RANGE,
    &FEED_TARGET_OUT_OF_RANGE,
    &FEED_TARGET_NOT_ATTACKABLE,
    &FEED_ATTACK_RULES_FORBID,
]);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::catalogue_check;

    #[test]
    fn ids_are_unique_lowercase_and_dotted() {
        catalogue_check::ids_are_well_formed(CATALOGUE.all(), "evolution");
        assert_eq!(
            CATALOGUE.by_id("evolution.frame.undelimited-number"),
            Some(&FRAME_UNDELIMITED_NUMBER)
        );
        assert_eq!(CATALOGUE.by_id("evolution.nope"), None);
    }

    /// Ids and severities as in evolution.md §8; the sentences state each
    /// rule, where the table's column describes the violation (issue 26).
    #[test]
    fn catalogue_matches_the_evolution_md_table() {
        catalogue_check::ids_and_severities_match_rules_doc(
            CATALOGUE.own(),
            "evolution.md",
            "## 8. Check catalogue",
            30,
        );
    }
}
