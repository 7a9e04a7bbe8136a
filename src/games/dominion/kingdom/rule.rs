//! The rule ids the engine reports (`rules/dominion-text.md` §8), typed.

/// A §8 rule the engine judged broken or tolerated; [`Rule::id`] gives the
/// stable id, [`Rule::is_warning`] its severity.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Rule {
    ActionNoActions,
    ActionNotActionCard,
    ActionNotInHand,
    CellarNoValidCards,
    CellarCardNotInHand,
    MineMissingCard,
    MineNotTreasure,
    MineTrashNotInHand,
    MineMissingGain,
    MineGainUnavailable,
    MineTooExpensive,
    RemodelMissingCard,
    RemodelTrashNotInHand,
    RemodelMissingGain,
    RemodelGainUnavailable,
    RemodelTooExpensive,
    WorkshopMissingGain,
    WorkshopGainUnavailable,
    WorkshopTooExpensive,
    BuyEmpty,
    BuyMoreThanBuys,
    BuyUnaffordable,
    BuyPileEmpty,
    AttackWrongCount,
    AttackNotInHand,
    AttackMoatNotInHand,
}

impl Rule {
    pub fn id(self) -> &'static str {
        match self {
            Rule::ActionNoActions => "dominion-text.action.no-actions",
            Rule::ActionNotActionCard => "dominion-text.action.not-action-card",
            Rule::ActionNotInHand => "dominion-text.action.not-in-hand",
            Rule::CellarNoValidCards => "dominion-text.cellar.no-valid-cards",
            Rule::CellarCardNotInHand => "dominion-text.cellar.card-not-in-hand",
            Rule::MineMissingCard => "dominion-text.mine.missing-card",
            Rule::MineNotTreasure => "dominion-text.mine.not-treasure",
            Rule::MineTrashNotInHand => "dominion-text.mine.trash-not-in-hand",
            Rule::MineMissingGain => "dominion-text.mine.missing-gain",
            Rule::MineGainUnavailable => "dominion-text.mine.gain-unavailable",
            Rule::MineTooExpensive => "dominion-text.mine.too-expensive",
            Rule::RemodelMissingCard => "dominion-text.remodel.missing-card",
            Rule::RemodelTrashNotInHand => "dominion-text.remodel.trash-not-in-hand",
            Rule::RemodelMissingGain => "dominion-text.remodel.missing-gain",
            Rule::RemodelGainUnavailable => "dominion-text.remodel.gain-unavailable",
            Rule::RemodelTooExpensive => "dominion-text.remodel.too-expensive",
            Rule::WorkshopMissingGain => "dominion-text.workshop.missing-gain",
            Rule::WorkshopGainUnavailable => "dominion-text.workshop.gain-unavailable",
            Rule::WorkshopTooExpensive => "dominion-text.workshop.too-expensive",
            Rule::BuyEmpty => "dominion-text.buy.empty",
            Rule::BuyMoreThanBuys => "dominion-text.buy.more-than-buys",
            Rule::BuyUnaffordable => "dominion-text.buy.unaffordable",
            Rule::BuyPileEmpty => "dominion-text.buy.pile-empty",
            Rule::AttackWrongCount => "dominion-text.attack.wrong-count",
            Rule::AttackNotInHand => "dominion-text.attack.not-in-hand",
            Rule::AttackMoatNotInHand => "dominion-text.attack.moat-not-in-hand",
        }
    }

    /// Warn-level in §8: tolerated by the document, failures only under
    /// `--strict`.
    pub fn is_warning(self) -> bool {
        matches!(
            self,
            Rule::CellarCardNotInHand
                | Rule::BuyEmpty
                | Rule::BuyMoreThanBuys
                | Rule::BuyUnaffordable
                | Rule::BuyPileEmpty
        )
    }
}
