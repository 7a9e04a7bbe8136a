//! FeedingChoice, the reply to `feedNext` (rules digest §2.8, §3.5, §8):
//! shape, then the semantic checks that say why a reply is not one of the
//! dealer's options, then the warning the published trait texts add.

use super::action4::{Finding, abbreviate};
use super::catalogue as c;
use super::engine::{FeedOption, attackable, attackable_by_rules, options};
use super::model::{Species, Trait, natural};
use serde_json::Value;

/// A reply as written: one of the three forms, or `false`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FeedingChoice {
    Vegetarian(u64),
    Fat(u64, u64),
    Attack(u64, u64, u64),
    False,
}

fn number(v: &Value, what: &str) -> Result<u64, Finding> {
    match v {
        Value::Number(_) => {
            natural(v).map_err(|_| Finding::new(&c::VALUE_NOT_NATURAL, format!("{what} is {v}")))
        }
        _ => Err(Finding::new(
            &c::FEED_SHAPE,
            format!("{what} is {v}, not a natural number"),
        )),
    }
}

impl FeedingChoice {
    pub fn parse(v: &Value) -> Result<FeedingChoice, Finding> {
        match v {
            Value::Bool(false) => Ok(FeedingChoice::False),
            Value::Number(_) => Ok(FeedingChoice::Vegetarian(number(v, "the species")?)),
            Value::Array(items) => match items.as_slice() {
                [s, n] => {
                    let s = number(s, "the species")?;
                    let n = number(n, "the fat amount")?;
                    if !(1..=7).contains(&n) {
                        return Err(Finding::new(
                            &c::FEED_SHAPE,
                            format!("the fat amount {n} is not a Nat+ (1–7)"),
                        ));
                    }
                    Ok(FeedingChoice::Fat(s, n))
                }
                [a, p, s] => Ok(FeedingChoice::Attack(
                    number(a, "the attacker")?,
                    number(p, "the player")?,
                    number(s, "the target")?,
                )),
                _ => Err(Finding::new(
                    &c::FEED_SHAPE,
                    format!("{} has {} elements, not 2 or 3", abbreviate(v), items.len()),
                )),
            },
            _ => Err(Finding::new(
                &c::FEED_SHAPE,
                format!("{} is not a FeedingChoice", abbreviate(v)),
            )),
        }
    }
}

impl FeedingChoice {
    /// The option this choice names, as a legal one is applied (`false`
    /// names none).
    pub fn option(self) -> Option<FeedOption> {
        let index = |n: u64| usize::try_from(n).ok();
        Some(match self {
            FeedingChoice::Vegetarian(s) => FeedOption::Vegetarian(index(s)?),
            FeedingChoice::Fat(s, n) => FeedOption::Fat {
                species: index(s)?,
                amount: u32::try_from(n).ok()?,
            },
            FeedingChoice::Attack(a, p, t) => FeedOption::Attack {
                attacker: index(a)?,
                player: index(p)?,
                target: index(t)?,
            },
            FeedingChoice::False => return None,
        })
    }
}

/// The verdict on a reply: the option it selects (with the requested fat
/// amount), plus warnings; or the first failure.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Judged {
    pub choice: FeedOption,
    pub warnings: Vec<Finding>,
}

/// Judge a parsed reply against the State the player was sent.
pub fn judge(
    choice: FeedingChoice,
    boards: &[Species],
    others: &[&[Species]],
) -> Result<Judged, Finding> {
    let own = |s: u64, what: &str| -> Result<&Species, Finding> {
        boards
            .get(s as usize)
            .filter(|_| s < boards.len() as u64)
            .ok_or_else(|| {
                Finding::new(
                    &c::FEED_SPECIES_OUT_OF_RANGE,
                    format!("{what} {s}, but the player has {} species", boards.len()),
                )
            })
    };
    let mut warnings = Vec::new();
    let option = match choice {
        FeedingChoice::False => {
            return Err(Finding::new(
                &c::FEED_FALSE_REPLY,
                "the reply is false (the document allows `false`; the reference drops the player)",
            ));
        }
        FeedingChoice::Vegetarian(s) => {
            let sp = own(s, "species")?;
            if sp.has(Trait::Carnivore) {
                return Err(Finding::new(
                    &c::FEED_VEGETARIAN_IS_CARNIVORE,
                    format!("species {s} is a carnivore"),
                ));
            }
            if !sp.hungry() {
                return Err(Finding::new(
                    &c::FEED_NOT_HUNGRY,
                    format!("species {s} has food {} = population", sp.food),
                ));
            }
            FeedOption::Vegetarian(s as usize)
        }
        FeedingChoice::Fat(s, n) => {
            let sp = own(s, "species")?;
            if !sp.has(Trait::FatTissue) {
                return Err(Finding::new(
                    &c::FEED_NO_FAT_TISSUE,
                    format!("species {s} has no fat-tissue"),
                ));
            }
            if n > sp.fat_room() as u64 {
                return Err(Finding::new(
                    &c::FEED_FAT_AMOUNT,
                    format!(
                        "{n} tokens asked, but species {s} can store {} more (the document's grammar allows it; the reference drops the player)",
                        sp.fat_room()
                    ),
                ));
            }
            FeedOption::Fat {
                species: s as usize,
                amount: n as u32,
            }
        }
        FeedingChoice::Attack(a, p, t) => {
            let attacker = own(a, "attacker")?;
            if !attacker.has(Trait::Carnivore) {
                return Err(Finding::new(
                    &c::FEED_NOT_CARNIVORE,
                    format!("species {a} is not a carnivore"),
                ));
            }
            if !attacker.hungry() {
                return Err(Finding::new(
                    &c::FEED_NOT_HUNGRY,
                    format!("attacker {a} is not hungry"),
                ));
            }
            let Some(victims) = others.get(p as usize).filter(|_| p < others.len() as u64) else {
                return Err(Finding::new(
                    &c::FEED_PLAYER_OUT_OF_RANGE,
                    format!("player {p}, but there are {} other players", others.len()),
                ));
            };
            if t >= victims.len() as u64 {
                return Err(Finding::new(
                    &c::FEED_TARGET_OUT_OF_RANGE,
                    format!("target {t}, but player {p} has {} species", victims.len()),
                ));
            }
            let t = t as usize;
            let left = t.checked_sub(1).map(|l| &victims[l]);
            let right = victims.get(t + 1);
            let by_rules = attackable_by_rules(attacker, &victims[t], left, right);
            if !attackable(attacker, &victims[t], left, right) {
                let note = if by_rules {
                    " (the published text would allow this attack)"
                } else {
                    ""
                };
                return Err(Finding::new(
                    &c::FEED_TARGET_NOT_ATTACKABLE,
                    format!("species {a} may not attack species {t} of player {p}{note}"),
                ));
            }
            if !by_rules {
                warnings.push(Finding::new(
                    &c::FEED_ATTACK_RULES_FORBID,
                    format!(
                        "the published trait texts forbid species {a} to attack species {t} of player {p}"
                    ),
                ));
            }
            FeedOption::Attack {
                attacker: a as usize,
                player: p as usize,
                target: t,
            }
        }
    };
    // The checks above mirror option enumeration; this guards the two from
    // drifting apart (a reply is legal exactly when it matches an option).
    debug_assert!(options(boards, others).iter().any(|o| o.accepts(option)));
    Ok(Judged {
        choice: option,
        warnings,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::evolution::model::Trait::*;
    use serde_json::json;

    fn sp(food: u32, body: u32, population: u32, traits: &[Trait]) -> Species {
        Species {
            food,
            body,
            population,
            traits: traits.to_vec(),
            fat_food: 0,
        }
    }

    fn verdict(
        reply: Value,
        boards: &[Species],
        others: &[&[Species]],
    ) -> Result<FeedOption, &'static str> {
        FeedingChoice::parse(&reply)
            .and_then(|c| judge(c, boards, others))
            .map(|j| j.choice)
            .map_err(|f| f.rule.id)
    }

    #[test]
    fn shapes_and_numbers() {
        let b = [sp(0, 0, 1, &[])];
        assert_eq!(verdict(json!(0), &b, &[]), Ok(FeedOption::Vegetarian(0)));
        for bad in [
            json!("0"),
            json!([0]),
            json!([0, 1, 2, 3]),
            json!({}),
            json!(null),
            json!(true),
            json!([0, 0]),
            json!([0, 8]),
        ] {
            assert_eq!(
                verdict(bad.clone(), &b, &[]),
                Err("evolution.feed.shape"),
                "{bad}"
            );
        }
        for bad in [json!(-1), json!(0.5), json!([0, 2.0]), json!([0, 0, -1])] {
            assert_eq!(
                verdict(bad.clone(), &b, &[]),
                Err("evolution.value.not-natural"),
                "{bad}"
            );
        }
        assert_eq!(
            verdict(json!(false), &b, &[]),
            Err("evolution.feed.false-reply")
        );
    }

    #[test]
    fn vegetarian_and_fat_choices() {
        let mut fat = sp(1, 3, 1, &[FatTissue]);
        fat.fat_food = 1;
        let b = [
            sp(0, 0, 2, &[]),
            sp(1, 0, 1, &[]),
            sp(0, 0, 1, &[Carnivore]),
            fat,
        ];
        assert_eq!(
            verdict(json!(4), &b, &[]),
            Err("evolution.feed.species-out-of-range")
        );
        assert_eq!(
            verdict(json!(99999999999u64), &b, &[]),
            Err("evolution.feed.species-out-of-range")
        );
        assert_eq!(verdict(json!(1), &b, &[]), Err("evolution.feed.not-hungry"));
        assert_eq!(
            verdict(json!(2), &b, &[]),
            Err("evolution.feed.vegetarian-is-carnivore")
        );
        assert_eq!(
            verdict(json!([0, 1]), &b, &[]),
            Err("evolution.feed.no-fat-tissue")
        );
        assert_eq!(
            verdict(json!([3, 2]), &b, &[]),
            Ok(FeedOption::Fat {
                species: 3,
                amount: 2
            })
        );
        assert_eq!(
            verdict(json!([3, 1]), &b, &[]),
            Ok(FeedOption::Fat {
                species: 3,
                amount: 1
            })
        );
        assert_eq!(
            verdict(json!([3, 3]), &b, &[]),
            Err("evolution.feed.fat-amount")
        );
    }

    #[test]
    fn carnivore_choices() {
        let b = [
            sp(0, 0, 1, &[Carnivore]),
            sp(1, 0, 1, &[Carnivore]),
            sp(0, 0, 1, &[]),
        ];
        let other = [
            sp(0, 0, 1, &[]),
            sp(0, 0, 1, &[WarningCall]),
            sp(0, 0, 1, &[]),
            sp(0, 1, 1, &[Symbiosis]),
            sp(0, 3, 1, &[]),
        ];
        let o: [&[Species]; 1] = [&other];
        assert_eq!(
            verdict(json!([0, 0, 1]), &b, &o),
            Ok(FeedOption::Attack {
                attacker: 0,
                player: 0,
                target: 1
            })
        );
        assert_eq!(
            verdict(json!([2, 0, 1]), &b, &o),
            Err("evolution.feed.not-carnivore")
        );
        assert_eq!(
            verdict(json!([1, 0, 1]), &b, &o),
            Err("evolution.feed.not-hungry")
        );
        assert_eq!(
            verdict(json!([3, 0, 1]), &b, &o),
            Err("evolution.feed.species-out-of-range")
        );
        assert_eq!(
            verdict(json!([0, 1, 1]), &b, &o),
            Err("evolution.feed.player-out-of-range")
        );
        assert_eq!(
            verdict(json!([0, 0, 5]), &b, &o),
            Err("evolution.feed.target-out-of-range")
        );
        assert_eq!(
            verdict(json!([0, 0, 0]), &b, &o),
            Err("evolution.feed.target-not-attackable")
        );
        // Symbiosis: the reference allows it, the trait text does not (warn).
        let j = judge(FeedingChoice::Attack(0, 0, 3), &b, &o).unwrap();
        assert_eq!(j.warnings.len(), 1);
        assert_eq!(j.warnings[0].rule.id, "evolution.feed.attack-rules-forbid");
        // Hard-shell at exactly 4: blocked, with the note.
        let shell = [sp(0, 2, 1, &[HardShell])];
        let big = [sp(0, 6, 1, &[Carnivore])];
        let f = judge(FeedingChoice::Attack(0, 0, 0), &big, &[&shell]).unwrap_err();
        assert_eq!(f.rule.id, "evolution.feed.target-not-attackable");
        assert!(f.detail.contains("published text would allow"));
    }
}
