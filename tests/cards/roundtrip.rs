//! Properties of card files: load -> write -> load gives the same card, for generated cards
//! of every kind of every game; arbitrary text never panics the card parser or the
//! collection CSV reader.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use deckwright::cards::{self, Card, CardFile};
use deckwright::catalogue::Catalogue;
use deckwright::games::arcadia::model as arc;
use deckwright::games::iconica::model as ico;
use deckwright::games::iconoclasm::model::{Element, ElementCard};
use deckwright::games::ruunara::model as ruu;
use proptest::prelude::*;
use proptest::sample::select;

/// Any text: printable Unicode, or the characters TOML must escape.
fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        "\\PC{0,24}",
        "[a-z \\n\\t\\r\"'\\\\#=\\[\\]{}]{0,24}",
        "[A-Za-z ]{1,12}"
    ]
}

fn id() -> impl Strategy<Value = String> {
    "[a-z0-9-]{1,20}"
}

fn opt<T: std::fmt::Debug + Clone + 'static>(
    s: impl Strategy<Value = T> + 'static,
) -> impl Strategy<Value = Option<T>> {
    proptest::option::of(s)
}

// ---- Iconica ----

fn target() -> impl Strategy<Value = ico::Target> {
    use ico::Target::*;
    select(vec![
        Foe, AllFoes, RandomFoe, Myself, Ally, Friend, AllAllies, AllFriends, Same,
    ])
}

fn action_kind() -> impl Strategy<Value = ico::ActionKind> {
    use ico::ActionKind::*;
    select(vec![Melee, Ranged, Status, Stance, Support, Healing])
}

fn roll_condition() -> impl Strategy<Value = ico::RollCondition> {
    use ico::RollCondition::*;
    prop_oneof![
        Just(Odd),
        Just(Even),
        (1u8..=6).prop_map(AtLeast),
        proptest::collection::vec(1u8..=6, 1..4).prop_map(Faces),
    ]
}

fn effect() -> impl Strategy<Value = ico::Effect> {
    use ico::{Effect, Status};
    let leaf = prop_oneof![
        (0u32..200, target()).prop_map(|(damage, target)| Effect::Damage { damage, target }),
        (0u32..200, target()).prop_map(|(heal, target)| Effect::Heal { heal, target }),
        (
            select(vec![
                Status::Poison,
                Status::Fear,
                Status::Confusion,
                Status::Blind,
                Status::Stun
            ]),
            target()
        )
            .prop_map(|(inflict, target)| Effect::Inflict { inflict, target }),
        (select(vec![Status::Restoration, Status::Siphon]), target())
            .prop_map(|(grant, target)| Effect::Grant { grant, target }),
        (any::<bool>(), target()).prop_map(|(dispel, target)| Effect::Dispel { dispel, target }),
    ];
    leaf.prop_recursive(3, 12, 3, |inner| {
        prop_oneof![
            (
                roll_condition(),
                proptest::collection::vec(inner.clone(), 0..3),
                proptest::collection::vec(inner.clone(), 0..2)
            )
                .prop_map(|(roll, then, otherwise)| ico::Effect::Roll {
                    roll,
                    then,
                    otherwise
                }),
            (action_kind(), proptest::collection::vec(inner, 0..3))
                .prop_map(|(watch, then)| ico::Effect::Watch { watch, then }),
        ]
    })
}

/// Tiles strictly between 0 and `start`, multiples of 10, each once, in any order.
fn tiles(start: u32) -> impl Strategy<Value = Vec<u32>> {
    proptest::collection::btree_set(1..start / 10, 0..3)
        .prop_map(|s| s.into_iter().map(|t| t * 10).collect::<Vec<_>>())
        .prop_shuffle()
}

fn health() -> impl Strategy<Value = ico::Health> {
    (2u32..=30).prop_flat_map(|s| {
        let start = s * 10;
        (
            tiles(start),
            tiles(start),
            tiles(start),
            tiles(start),
            tiles(start),
            tiles(start),
            proptest::collection::btree_map(
                (1..s).prop_map(|t| (t * 10).to_string()),
                0u32..60,
                0..3,
            ),
        )
            .prop_map(
                move |(parry, antidote, courage, evasion, focus, clarity, reaction)| ico::Health {
                    start,
                    parry,
                    antidote,
                    courage,
                    evasion,
                    focus,
                    clarity,
                    reaction,
                },
            )
    })
}

/// Rolls: each of 1..=6 assigned to one group; every group becomes an action's roll.
fn rolls() -> impl Strategy<Value = Vec<ico::Roll>> {
    (proptest::collection::vec(0usize..6, 6), any::<bool>()).prop_map(|(groups, single_as_one)| {
        let mut by_group: BTreeMap<usize, Vec<u8>> = BTreeMap::new();
        for (n, g) in groups.into_iter().enumerate() {
            by_group.entry(g).or_default().push(n as u8 + 1);
        }
        by_group
            .into_values()
            .map(|v| {
                if v.len() == 1 && single_as_one {
                    ico::Roll::One(v[0])
                } else {
                    ico::Roll::Many(v)
                }
            })
            .collect()
    })
}

fn action(roll: ico::Roll) -> impl Strategy<Value = ico::Action> {
    (
        text(),
        action_kind(),
        text(),
        proptest::collection::vec(effect(), 0..3),
    )
        .prop_map(move |(name, kind, text, effects)| ico::Action {
            roll: roll.clone(),
            name,
            kind,
            text,
            effects,
        })
}

fn class() -> impl Strategy<Value = ico::Class> {
    use ico::Class::*;
    select(vec![Offensive, Defensive, Disruptive, Supportive, Adaptive])
}

fn strength() -> impl Strategy<Value = ico::Strength> {
    let against = prop_oneof![
        text().prop_map(|a| ico::Against {
            archetype: Some(a),
            race: None,
            class: None
        }),
        text().prop_map(|r| ico::Against {
            archetype: None,
            race: Some(r),
            class: None
        }),
        class().prop_map(|c| ico::Against {
            archetype: None,
            race: None,
            class: Some(c)
        }),
    ];
    (
        against,
        proptest::collection::vec(1u8..=6, 0..3),
        text(),
        proptest::collection::vec(effect(), 0..2),
    )
        .prop_map(|(against, actions, text, effects)| ico::Strength {
            against,
            actions,
            text,
            effects,
        })
}

fn character() -> impl Strategy<Value = Card> {
    use ico::*;
    let head = (
        id(),
        text(),
        text(),
        text(),
        select(vec![
            Faction::Legion,
            Faction::Protectorate,
            Faction::Independent,
        ]),
        text(),
        text(),
        class(),
        select(vec![
            Rarity::Common,
            Rarity::Uncommon,
            Rarity::Rare,
            Rarity::Legend,
            Rarity::Special,
        ]),
    );
    let tail = (
        opt(text()),
        opt(-10_000i64..=10_000),
        opt(text()),
        opt(text()),
        opt(1u8..=6),
        health(),
        rolls().prop_flat_map(|rs| rs.into_iter().map(action).collect::<Vec<_>>()),
        proptest::collection::vec(strength(), 0..3),
        opt((text(), proptest::collection::vec(effect(), 0..3))
            .prop_map(|(text, effects)| FinalAct { text, effects })),
    );
    (head, tail).prop_map(
        |(
            (id, name, series, number, faction, race, archetype, class, rarity),
            (
                affiliation,
                influence,
                description,
                portrait,
                action_break,
                health,
                actions,
                strengths,
                final_act,
            ),
        )| {
            Card::Iconica(Character {
                game: "iconica".into(),
                kind: "character".into(),
                id,
                name,
                series,
                number,
                faction,
                race,
                archetype,
                class,
                rarity,
                affiliation,
                influence,
                description,
                portrait,
                action_break,
                health,
                actions,
                strengths,
                final_act,
            })
        },
    )
}

// ---- Arcadia ----

fn test_kind() -> impl Strategy<Value = arc::TestKind> {
    use arc::TestKind::*;
    select(vec![Might, Savvy, Resolve, Combat])
}

fn court() -> impl Strategy<Value = arc::Court> {
    select(vec![arc::Court::Seelie, arc::Court::Unseelie])
}

fn arc_effects() -> impl Strategy<Value = Vec<arc::Effect>> {
    let e = (
        opt(-5i32..10),
        opt(-5i32..10),
        opt(test_kind()),
        opt(any::<bool>()),
        opt(any::<bool>()),
        opt(any::<bool>()),
        opt(text()),
        opt(any::<bool>()),
    )
        .prop_map(
            |(bonus, penalty, test, retest, change_test, exhaust, terrain, lost_only)| {
                let mut e = arc::Effect {
                    bonus,
                    penalty,
                    test,
                    retest,
                    change_test,
                    exhaust,
                    terrain,
                    lost_only,
                };
                // Only the effects the strict reader takes (issue #27 item 4): an effect does
                // something, and a retest or a change of test exhausts the card.
                if e.retest == Some(true) || e.change_test == Some(true) {
                    e.exhaust = Some(true);
                }
                if e.problem().is_some() {
                    e.bonus = Some(e.bonus.unwrap_or(1));
                }
                e
            },
        );
    proptest::collection::vec(e, 0..3)
}

fn strings() -> impl Strategy<Value = Vec<String>> {
    proptest::collection::vec(text(), 0..4)
}

fn objective() -> impl Strategy<Value = arc::Objective> {
    use arc::Objective::*;
    let leaf = prop_oneof![
        text().prop_map(Reach),
        text().prop_map(ReachTerrain),
        (0u32..=10_000).prop_map(|n| CollectTreasures(n % 1000)),
        (0u32..=10_000).prop_map(|n| DefeatWaylays(n % 1000)),
        any::<bool>().prop_map(ReturnToBase),
        (0u32..=10_000).prop_map(|n| HoldTreasures(n % 1000)),
        text().prop_map(InTerrain),
    ];
    leaf.prop_recursive(3, 10, 3, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..3).prop_map(All),
            proptest::collection::vec(inner.clone(), 0..3).prop_map(Any),
            proptest::collection::vec(inner, 0..3).prop_map(Then),
        ]
    })
}

fn common() -> impl Strategy<Value = (String, String, String)> {
    (id(), text(), text())
}

fn merit_types() -> impl Strategy<Value = Vec<arc::MeritType>> {
    proptest::collection::vec(select(arc::MeritType::ALL.to_vec()), 0..3)
}

/// A waylay trial's failure effect: one form a table.
fn failure_effect() -> impl Strategy<Value = arc::FailureEffect> {
    use arc::FailureEffect as F;
    prop_oneof![
        merit_types().prop_map(|t| F {
            exhaust: Some(t),
            ..F::default()
        }),
        merit_types().prop_map(|t| F {
            discard: Some(t),
            ..F::default()
        }),
        Just(F {
            skip_day: Some(true),
            ..F::default()
        }),
        Just(F {
            return_to_base: Some(true),
            ..F::default()
        }),
        Just(F {
            lose_treasure: Some(true),
            ..F::default()
        }),
        Just(F {
            none: Some(true),
            ..F::default()
        }),
    ]
}

/// A league effect: one form a table.
fn league_effect() -> impl Strategy<Value = arc::LeagueEffect> {
    use arc::LeagueEffect as L;
    let on = select(vec![arc::TrialOn::Stay, arc::TrialOn::Rest]);
    prop_oneof![
        merit_types().prop_map(|t| L {
            forbid_merits: Some(t),
            ..L::default()
        }),
        proptest::collection::vec(-10_000i32..=10_000, 0..3).prop_map(|r| L {
            forbid_ratings: Some(r),
            ..L::default()
        }),
        ((-10_000i32..=10_000), test_kind()).prop_map(|(n, t)| L {
            modify: Some(n),
            test: Some(t),
            ..L::default()
        }),
        (league_trial(), on).prop_map(|(t, on)| L {
            trial: Some(t),
            on: Some(on),
            ..L::default()
        }),
        ((0u32..=10_000), merit_types()).prop_map(|(n, t)| L {
            rest_extra: Some(n),
            types: Some(t),
            ..L::default()
        }),
        (0u32..=10_000).prop_map(|n| L {
            look_at_treasures: Some(n),
            ..L::default()
        }),
    ]
}

fn league_trial() -> impl Strategy<Value = arc::LeagueTrial> {
    (test_kind(), (-10_000i32..=10_000)).prop_map(|(attribute, difficulty)| arc::LeagueTrial {
        attribute,
        difficulty,
    })
}

fn arcadia() -> impl Strategy<Value = Card> {
    use arc::*;
    let attr = select(vec![Attribute::Might, Attribute::Savvy, Attribute::Resolve]);
    let icon = (
        common(),
        text(),
        text(),
        (-10_000i32..=10_000),
        (-10_000i32..=10_000),
        (-10_000i32..=10_000),
        text(),
        arc_effects(),
    )
        .prop_map(
            |((id, name, text), race, gender, might, savvy, resolve, ability, effects)| {
                ArcadiaCard::Icon(Icon {
                    art: None,
                    game: "arcadia".into(),
                    kind: "icon".into(),
                    id,
                    name,
                    text,
                    race,
                    gender,
                    might,
                    savvy,
                    resolve,
                    ability,
                    effects,
                })
            },
        );
    let merit_type = select(vec![
        MeritType::Ability,
        MeritType::Advantage,
        MeritType::Ally,
        MeritType::Art,
        MeritType::Treasure,
    ]);
    let merit = (
        common(),
        merit_type,
        0i32..20,
        attr,
        court(),
        opt(text()),
        opt(-10_000i32..=10_000),
        arc_effects(),
        any::<bool>(),
    )
        .prop_map(
            |(
                (id, name, text),
                merit_type,
                cost,
                attribute,
                court,
                art,
                combat,
                effects,
                extra,
            )| {
                let ability = merit_type == MeritType::Ability;
                ArcadiaCard::Merit(Merit {
                    portrait: None,
                    game: "arcadia".into(),
                    kind: "merit".into(),
                    id,
                    name,
                    text,
                    merit_type,
                    cost,
                    attribute: (ability || extra).then_some(attribute),
                    court: (ability || extra).then_some(court),
                    art,
                    combat,
                    effects,
                })
            },
        );
    let flaw_type = select(vec![FlawType::Curse, FlawType::Enemy, FlawType::Weakness]);
    let flaw = (
        common(),
        flaw_type,
        0i32..20,
        court(),
        any::<bool>(),
        arc_effects(),
    )
        .prop_map(
            |((id, name, text), flaw_type, points, court, extra, effects)| {
                ArcadiaCard::Flaw(Flaw {
                    art: None,
                    game: "arcadia".into(),
                    kind: "flaw".into(),
                    id,
                    name,
                    text,
                    flaw_type,
                    points,
                    court: (flaw_type == FlawType::Weakness || extra).then_some(court),
                    effects,
                })
            },
        );
    let trial = (
        test_kind(),
        (-10_000i32..=10_000),
        opt(text()),
        opt(failure_effect()),
    )
        .prop_map(|(attribute, difficulty, failure, effect)| Trial {
            attribute,
            difficulty,
            failure,
            effect,
        });
    let waylay = (
        common(),
        (-10_000i32..=10_000),
        strings(),
        proptest::collection::vec(test_kind(), 0..4),
        (
            opt(-10_000i32..=10_000),
            opt(-10_000i32..=10_000),
            opt(-10_000i32..=10_000),
            opt(-10_000i32..=10_000),
        ),
        opt(trial),
    )
        .prop_map(
            |((id, name, text), rating, terrain, tests, (might, resolve, savvy, combat), trial)| {
                ArcadiaCard::Waylay(Waylay {
                    art: None,
                    game: "arcadia".into(),
                    kind: "waylay".into(),
                    id,
                    name,
                    text,
                    rating,
                    terrain,
                    tests,
                    might,
                    resolve,
                    savvy,
                    combat,
                    trial,
                })
            },
        );
    let rest = proptest::collection::vec(
        select(vec![
            "ability",
            "advantage",
            "ally",
            "art",
            "treasure",
            "flaw",
        ]),
        0..4,
    )
    .prop_map(|v| v.into_iter().map(String::from).collect::<Vec<_>>());
    let league = (
        common(),
        strings(),
        (strings(), strings(), strings(), strings()),
        opt(league_trial()),
        opt(league_trial()),
        rest,
        any::<bool>(),
        (
            opt(text()),
            proptest::collection::vec(league_effect(), 0..3),
        ),
    )
        .prop_map(
            |(
                (id, name, text),
                terrain,
                (north, east, south, west),
                enter,
                leave,
                rest,
                unique,
                (special, effects),
            )| {
                ArcadiaCard::League(League {
                    art: None,
                    game: "arcadia".into(),
                    kind: "league".into(),
                    id,
                    name,
                    text,
                    terrain,
                    sides: Sides {
                        north,
                        east,
                        south,
                        west,
                    },
                    enter,
                    leave,
                    rest,
                    unique,
                    special,
                    effects,
                })
            },
        );
    let quest = (
        common(),
        (-10_000i32..=10_000),
        (-10_000i32..=10_000),
        (-10_000i32..=10_000),
        objective(),
        opt(0u32..=10_000),
    )
        .prop_map(
            |(
                (id, name, text),
                waylay_rating,
                treasure_rating,
                experience,
                objective,
                time_limit,
            )| {
                ArcadiaCard::Quest(Quest {
                    art: None,
                    game: "arcadia".into(),
                    kind: "quest".into(),
                    id,
                    name,
                    text,
                    waylay_rating,
                    treasure_rating,
                    experience,
                    objective,
                    time_limit,
                })
            },
        );
    prop_oneof![icon, merit, flaw, waylay, league, quest].prop_map(Card::Arcadia)
}

// ---- Iconoclasm and Ruunara ----

fn element() -> impl Strategy<Value = Card> {
    let e = select(Element::ALL.to_vec());
    (id(), text(), e.clone(), e.clone(), e, opt(text())).prop_map(
        |(id, name, front, back, set, art)| {
            Card::Iconoclasm(ElementCard {
                game: "iconoclasm".into(),
                kind: "element".into(),
                id,
                name,
                front,
                back,
                set,
                art,
            })
        },
    )
}

fn dice() -> impl Strategy<Value = ruu::Dice> {
    (1u32..100, 1u8..=6).prop_map(|(count, min)| ruu::Dice { count, min })
}

fn skill() -> impl Strategy<Value = ruu::Skill> {
    let cycle = prop_oneof![
        Just("constant".to_string()),
        (0u32..20, select(vec!["F", "G"])).prop_map(|(n, u)| format!("{n}/{u}"))
    ];
    (
        text(),
        cycle,
        opt((1u8..=6).prop_map(|k| format!("{k}+"))),
        opt(text()),
        opt(skill_effect()),
    )
        .prop_map(|(name, cycle, trigger, text, effect)| {
            let mut skill = ruu::Skill {
                name,
                cycle,
                trigger,
                text,
                ..ruu::Skill::default()
            };
            if let Some(e) = effect {
                if e.effect == Some(ruu::EffectKind::InstantKill) && skill.trigger.is_none() {
                    skill.trigger = Some("6+".into());
                }
                skill = ruu::Skill {
                    name: skill.name,
                    cycle: skill.cycle,
                    trigger: skill.trigger,
                    text: skill.text,
                    ..e
                };
            }
            skill
        })
}

/// A skill holding only an effect with parameters it takes (every form of "Skills as data").
fn skill_effect() -> impl Strategy<Value = ruu::Skill> {
    use ruu::{AttackKind, EffectKind, EffectTarget, Skill};
    let inches = || (1u32..=2400).prop_map(|n| f64::from(n) / 10.0);
    let with = |effect: EffectKind| Skill {
        effect: Some(effect),
        ..Skill::default()
    };
    prop_oneof![
        Just(with(EffectKind::InstantKill)),
        Just(with(EffectKind::Flee)),
        Just(with(EffectKind::Reroll)),
        (
            dice(),
            select(vec![AttackKind::Close, AttackKind::Ranged]),
            opt(1u32..=10)
        )
            .prop_map(move |(d, a, damage)| Skill {
                dice: Some(d),
                attack: Some(a),
                damage,
                ..with(EffectKind::ExtraAttack)
            }),
        (1u32..=10_000, opt(inches()), any::<bool>()).prop_map(move |(amount, range, said)| {
            // `range` goes with an ally target; a heal of itself may say `self` or not.
            let target = match range {
                Some(_) => Some(EffectTarget::Ally),
                None => said.then_some(EffectTarget::Own),
            };
            Skill {
                amount: Some(amount),
                target,
                range,
                ..with(EffectKind::Heal)
            }
        }),
        (dice(), opt((inches(), inches())), opt(1u32..=10)).prop_map(move |(d, point, damage)| {
            Skill {
                dice: Some(d),
                range: point.map(|p| p.0),
                radius: point.map(|p| p.1),
                damage,
                ..with(EffectKind::Area)
            }
        }),
        (
            select(vec![EffectKind::Stealth, EffectKind::Cover]),
            inches()
        )
            .prop_map(move |(e, r)| Skill {
                radius: Some(r),
                ..with(e)
            }),
    ]
}

fn figure() -> impl Strategy<Value = Card> {
    use ruu::*;
    let faction = select(vec![
        Allegiance::Ally,
        Allegiance::Enemy,
        Allegiance::Neutral,
    ]);
    (
        id(),
        select(vec![FigureKind::Hero, FigureKind::Unit]),
        text(),
        faction,
        select(PLAYABLE_RACES.to_vec()),
        "[a-z]{1,10}",
        ((0u32..=10_000), (0u32..=10_000), (0u32..=10_000)),
        dice(),
        opt((dice(), (0u32..=10_000))),
        proptest::collection::vec(skill(), 0..3),
    )
        .prop_map(
            |(
                id,
                kind,
                name,
                faction,
                playable,
                other,
                (hp, movement, vision),
                close,
                ranged,
                skills,
            )| {
                let race = if faction == Allegiance::Ally {
                    playable.to_string()
                } else {
                    other
                };
                Card::Ruunara(Figure {
                    art: None,
                    game: "ruunara".into(),
                    kind,
                    id,
                    name,
                    race,
                    faction,
                    hp,
                    movement,
                    vision,
                    close,
                    ranged: ranged.map(|r| r.0),
                    ranged_range: ranged.map(|r| r.1),
                    skills,
                    base: None,
                })
            },
        )
}

pub(super) fn any_card() -> impl Strategy<Value = Card> {
    prop_oneof![character(), arcadia(), element(), figure()]
}

/// Runs a property on its own thread: the generated card strategies are deep types whose
/// value trees need more stack in a debug build than a test thread has.
pub(super) fn check<S, F>(cases: u32, strategy: F, test: fn(S::Value) -> Result<(), TestCaseError>)
where
    S: Strategy + 'static,
    F: FnOnce() -> S + Send + 'static,
{
    let handle = std::thread::Builder::new()
        .stack_size(256 << 20)
        .spawn(move || {
            let mut runner = proptest::test_runner::TestRunner::new(ProptestConfig {
                cases,
                ..ProptestConfig::default()
            });
            if let Err(e) = runner.run(&strategy(), test) {
                panic!("{e}");
            }
        })
        .unwrap();
    if let Err(e) = handle.join() {
        std::panic::resume_unwind(e);
    }
}

#[test]
fn load_write_load_is_identity() {
    check(256, any_card, |card| {
        let written = card.to_toml();
        let loaded = cards::parse_card(&written, "generated.toml")
            .map_err(|e| TestCaseError::fail(format!("{e}\n---\n{written}")))?;
        prop_assert_eq!(&loaded, &card);
        // Writing is stable: the file a loaded card writes is the file it was loaded from.
        prop_assert_eq!(&loaded.to_toml(), &written);
        // The value the searchable fields come from is the written file's.
        let parsed: toml::Value = toml::from_str(&written).unwrap();
        prop_assert_eq!(card.to_value(), parsed);
        Ok(())
    });
}

#[test]
fn arbitrary_text_never_panics_the_parser() {
    check(
        512,
        || "\\PC*|[a-z_=\"\\[\\]{}\\n0-9., -]*",
        |text: String| {
            if let Err(e) = cards::parse(&text, "any.toml") {
                prop_assert!(e.line >= 1 && e.column >= 1);
                prop_assert!(e.line <= text.lines().count() + 1, "{}", e);
                prop_assert_eq!(e.file, "any.toml");
            }
            Ok(())
        },
    );
}

#[test]
fn damaged_card_files_give_positioned_errors() {
    check(
        256,
        || (any_card(), any::<prop::sample::Index>(), "[\\PC\\n]{1,6}"),
        |(card, at, junk)| {
            let mut written = card.to_toml();
            let mut i = at.index(written.len() + 1);
            while !written.is_char_boundary(i) {
                i -= 1;
            }
            written.insert_str(i, &junk);
            match cards::parse(&written, "damaged.toml") {
                Ok(CardFile::Card(c)) => {
                    let _ = c.to_toml();
                }
                Ok(CardFile::Clashes(_)) => {}
                Err(e) => {
                    prop_assert!(
                        e.line >= 1 && e.line <= written.lines().count() + 1,
                        "{}",
                        e
                    );
                    prop_assert!(e.column >= 1);
                }
            }
            Ok(())
        },
    );
}

#[test]
fn arbitrary_csv_never_panics_the_collection_reader() {
    let header = || {
        select(vec![
            "",
            "id,name,game,quantity\n",
            "Count,Name\n",
            "Quantity,Name,Set\n",
        ])
    };
    check(
        256,
        move || (proptest::collection::vec(any::<u8>(), 0..300), header()),
        |(data, header)| {
            let mut cat = Catalogue::open_empty_in_memory().unwrap();
            let mut bytes = header.as_bytes().to_vec();
            bytes.extend(data);
            let _ = cat.import_collection_bytes(&bytes, Path::new("any.csv"), false);
            let _ = cat.import_collection_bytes(&bytes, Path::new("any.csv"), true);
            Ok(())
        },
    );
}

#[test]
fn generators_cover_every_kind() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::deterministic();
    let strat = any_card();
    let mut kinds = BTreeSet::new();
    for _ in 0..400 {
        let c = strat.new_tree(&mut runner).unwrap().current();
        kinds.insert((c.game(), c.kind()));
    }
    assert_eq!(kinds.len(), 10, "{kinds:?}");
}
