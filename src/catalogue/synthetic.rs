//! Generated cards for benchmarks and tests: valid cards of every kind of every game,
//! deterministic for a seed. Ids are `syn-<n>`, names are pronounceable words.
//!
//! `fill(&mut catalogue, 100_000, 1)` fills a catalogue quickly (rows built in parallel,
//! written in one transaction); `write_files(dir, n, seed)` writes card files to import.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;

use super::{Catalogue, Result, store};
use crate::cards::Card;
use crate::games::arcadia::model as arc;
use crate::games::iconica::model as ico;
use crate::games::iconoclasm::model::{Element, ElementCard};
use crate::games::ruunara::model as ruu;

const SYLLABLES: [&str; 24] = [
    "ka", "ro", "mi", "zen", "tal", "vor", "eth", "ira", "gul", "sha", "dor", "lin", "qua", "bel",
    "nyx", "tor", "ae", "fen", "rak", "sol", "um", "ves", "wyn", "xal",
];
const WORDS: [&str; 16] = [
    "fire", "shield", "strike", "poison", "quake", "iron", "shadow", "storm", "blade", "heal",
    "ward", "arrow", "frost", "venom", "light", "stone",
];

fn pick<'a, T: ?Sized>(rng: &mut ChaCha8Rng, items: &[&'a T]) -> &'a T {
    items[rng.random_range(0..items.len())]
}

fn word(rng: &mut ChaCha8Rng) -> String {
    let n = rng.random_range(2..4);
    let mut s: String = (0..n).map(|_| pick(rng, &SYLLABLES)).collect();
    if let Some(f) = s.get_mut(0..1) {
        f.make_ascii_uppercase();
    }
    s
}

fn sentence(rng: &mut ChaCha8Rng) -> String {
    let n = rng.random_range(4..10);
    let words: Vec<&str> = (0..n).map(|_| pick(rng, &WORDS)).collect();
    format!("{}.", words.join(" "))
}

/// The generated card number `i` of a seed (of a game and kind picked by the seed).
pub fn card(i: u64, seed: u64) -> Card {
    let mut rng = ChaCha8Rng::seed_from_u64(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ i);
    let id = format!("syn-{i}");
    let name = format!("{} {}", word(&mut rng), word(&mut rng));
    match rng.random_range(0..10) {
        0..=3 => Card::Iconica(character(&mut rng, id, name)),
        4..=6 => Card::Arcadia(arcadia(&mut rng, id, name)),
        7 => Card::Iconoclasm(element(&mut rng, id, name)),
        _ => Card::Ruunara(figure(&mut rng, id, name)),
    }
}

/// `n` generated cards (`syn-0` ... `syn-<n-1>`).
pub fn cards(n: u64, seed: u64) -> Vec<Card> {
    (0..n).into_par_iter().map(|i| card(i, seed)).collect()
}

/// Adds `n` generated cards to the catalogue in one transaction (replacing cards with
/// the same ids). Returns how many were written.
pub fn fill(cat: &mut Catalogue, n: u64, seed: u64) -> Result<u64> {
    const CHUNK: u64 = 8192;
    let tx = cat.conn_mut().transaction()?;
    store::with_bulk_fts(&tx, || {
        let mut from = 0;
        while from < n {
            let to = (from + CHUNK).min(n);
            let rows: Vec<store::CardRow> = (from..to)
                .into_par_iter()
                .map(|i| store::CardRow::new(&card(i, seed)))
                .collect();
            for r in &rows {
                store::upsert(&tx, r)?;
            }
            from = to;
        }
        Ok(())
    })?;
    tx.commit()?;
    Ok(n)
}

/// Writes `n` generated cards as `dir/<game>/<id>.toml`. Returns the paths written.
pub fn write_files(dir: &Path, n: u64, seed: u64) -> std::io::Result<Vec<PathBuf>> {
    for g in crate::cards::Game::ALL {
        std::fs::create_dir_all(dir.join(g.as_str()))?;
    }
    (0..n)
        .into_par_iter()
        .map(|i| {
            let c = card(i, seed);
            let p = dir.join(c.game().as_str()).join(format!("{}.toml", c.id()));
            std::fs::write(&p, c.to_toml())?;
            Ok(p)
        })
        .collect()
}

fn tiles_below(rng: &mut ChaCha8Rng, start: u32, max: usize) -> Vec<u32> {
    let steps = start / 10 - 1;
    let mut v: Vec<u32> = (0..rng.random_range(0..=max))
        .map(|_| rng.random_range(1..=steps) * 10)
        .collect();
    v.sort_unstable_by(|a, b| b.cmp(a));
    v.dedup();
    v
}

fn target(rng: &mut ChaCha8Rng) -> ico::Target {
    use ico::Target::*;
    [
        Foe, AllFoes, RandomFoe, Myself, Ally, Friend, AllAllies, AllFriends, Same,
    ][rng.random_range(0..9)]
}

fn effect(rng: &mut ChaCha8Rng, depth: u32) -> ico::Effect {
    use ico::{ActionKind, Effect, RollCondition, Status};
    let negative = [
        Status::Poison,
        Status::Fear,
        Status::Confusion,
        Status::Blind,
        Status::Stun,
    ];
    match rng.random_range(0..if depth > 0 { 5 } else { 7 }) {
        0 => Effect::Damage {
            damage: rng.random_range(1..6) * 10,
            target: target(rng),
        },
        1 => Effect::Heal {
            heal: rng.random_range(1..4) * 10,
            target: target(rng),
        },
        2 => Effect::Inflict {
            inflict: negative[rng.random_range(0..5)],
            target: target(rng),
        },
        3 => Effect::Grant {
            grant: if rng.random_bool(0.5) {
                Status::Restoration
            } else {
                Status::Siphon
            },
            target: target(rng),
        },
        4 => Effect::Dispel {
            dispel: true,
            target: target(rng),
        },
        5 => Effect::Roll {
            roll: match rng.random_range(0..4) {
                0 => RollCondition::Odd,
                1 => RollCondition::Even,
                2 => RollCondition::AtLeast(rng.random_range(1..=6)),
                _ => RollCondition::Faces(vec![rng.random_range(1..=3), rng.random_range(4..=6)]),
            },
            then: vec![effect(rng, depth + 1)],
            otherwise: if rng.random_bool(0.5) {
                vec![effect(rng, depth + 1)]
            } else {
                Vec::new()
            },
        },
        _ => Effect::Watch {
            watch: ActionKind::Melee,
            then: vec![effect(rng, depth + 1)],
        },
    }
}

fn character(rng: &mut ChaCha8Rng, id: String, name: String) -> ico::Character {
    use ico::*;
    let start = rng.random_range(6..=16) * 10;
    let mut reaction = BTreeMap::new();
    for t in tiles_below(rng, start, 2) {
        reaction.insert(t.to_string(), rng.random_range(1..=3) * 10);
    }
    let health = Health {
        start,
        parry: tiles_below(rng, start, 2),
        antidote: tiles_below(rng, start, 1),
        courage: tiles_below(rng, start, 1),
        evasion: tiles_below(rng, start, 1),
        focus: tiles_below(rng, start, 1),
        clarity: tiles_below(rng, start, 1),
        reaction,
    };
    // Split 1..=6 into consecutive groups.
    let mut actions = Vec::new();
    let mut n = 1u8;
    while n <= 6 {
        let len = rng.random_range(1..=3u8).min(7 - n);
        let roll = if len == 1 && rng.random_bool(0.5) {
            Roll::One(n)
        } else {
            Roll::Many((n..n + len).collect())
        };
        let kinds = [
            ActionKind::Melee,
            ActionKind::Ranged,
            ActionKind::Status,
            ActionKind::Stance,
            ActionKind::Support,
            ActionKind::Healing,
        ];
        actions.push(Action {
            roll,
            name: word(rng),
            kind: kinds[rng.random_range(0..6)],
            text: sentence(rng),
            effects: (0..rng.random_range(0..3))
                .map(|_| effect(rng, 0))
                .collect(),
        });
        n += len;
    }
    let strengths = (0..rng.random_range(0..2))
        .map(|_| Strength {
            against: Against {
                archetype: Some(word(rng)),
                race: None,
                class: None,
            },
            actions: vec![rng.random_range(1..=6)],
            text: sentence(rng),
            effects: vec![Effect::Damage {
                damage: 20,
                target: Target::Same,
            }],
        })
        .collect();
    let factions = [Faction::Legion, Faction::Protectorate, Faction::Independent];
    let classes = [
        Class::Offensive,
        Class::Defensive,
        Class::Disruptive,
        Class::Supportive,
        Class::Adaptive,
    ];
    let rarities = [
        Rarity::Common,
        Rarity::Uncommon,
        Rarity::Rare,
        Rarity::Legend,
        Rarity::Special,
    ];
    Character {
        game: "iconica".into(),
        kind: "character".into(),
        id,
        name,
        series: "Synthetic".into(),
        number: format!("{:03}", rng.random_range(1..1000)),
        faction: factions[rng.random_range(0..3)],
        race: pick(rng, &["human", "sarion", "carapid", "android"]).to_string(),
        archetype: word(rng),
        class: classes[rng.random_range(0..5)],
        rarity: rarities[rng.random_range(0..5)],
        affiliation: rng.random_bool(0.3).then(|| word(rng)),
        influence: rng.random_bool(0.5).then(|| rng.random_range(0..5)),
        description: rng.random_bool(0.5).then(|| sentence(rng)),
        portrait: None,
        action_break: rng.random_bool(0.7).then(|| rng.random_range(1..=6)),
        health,
        actions,
        strengths,
        final_act: rng.random_bool(0.5).then(|| FinalAct {
            text: sentence(rng),
            effects: vec![effect(rng, 0)],
        }),
    }
}

fn arc_effects(rng: &mut ChaCha8Rng) -> Vec<arc::Effect> {
    let tests = [
        arc::TestKind::Might,
        arc::TestKind::Savvy,
        arc::TestKind::Resolve,
        arc::TestKind::Combat,
    ];
    (0..rng.random_range(0..2))
        .map(|_| match rng.random_range(0..3) {
            0 => arc::Effect {
                bonus: Some(rng.random_range(1..4)),
                test: Some(tests[rng.random_range(0..4)]),
                ..Default::default()
            },
            1 => arc::Effect {
                retest: Some(true),
                exhaust: Some(true),
                ..Default::default()
            },
            _ => arc::Effect {
                change_test: Some(true),
                exhaust: Some(true),
                ..Default::default()
            },
        })
        .collect()
}

fn arcadia(rng: &mut ChaCha8Rng, id: String, name: String) -> arc::ArcadiaCard {
    use arc::*;
    let (game, text) = ("arcadia".to_string(), sentence(rng));
    let attrs = [Attribute::Might, Attribute::Savvy, Attribute::Resolve];
    let tests = [
        TestKind::Might,
        TestKind::Savvy,
        TestKind::Resolve,
        TestKind::Combat,
    ];
    let courts = [Court::Seelie, Court::Unseelie];
    let terrain = |rng: &mut ChaCha8Rng| -> Vec<String> {
        let all = [
            "forest",
            "road",
            "river",
            "hill",
            "ocean",
            "city-wall",
            "border",
        ];
        let mut v: Vec<String> = (0..rng.random_range(1..3))
            .map(|_| all[rng.random_range(0..all.len())].to_string())
            .collect();
        v.dedup();
        v
    };
    match rng.random_range(0..6) {
        0 => ArcadiaCard::Icon(Icon {
            art: None,
            game,
            kind: "icon".into(),
            id,
            name,
            text,
            race: pick(rng, &["naga", "sidhe", "troll"]).into(),
            gender: pick(rng, &["male", "female"]).into(),
            might: rng.random_range(1..5),
            savvy: rng.random_range(1..5),
            resolve: rng.random_range(1..5),
            ability: sentence(rng),
            effects: arc_effects(rng),
        }),
        1 => {
            let types = [
                MeritType::Ability,
                MeritType::Advantage,
                MeritType::Ally,
                MeritType::Art,
                MeritType::Treasure,
            ];
            let merit_type = types[rng.random_range(0..5)];
            let ability = merit_type == MeritType::Ability;
            ArcadiaCard::Merit(Merit {
                portrait: None,
                game,
                kind: "merit".into(),
                id,
                name,
                text,
                merit_type,
                cost: rng.random_range(0..6),
                attribute: ability.then(|| attrs[rng.random_range(0..3)]),
                court: ability.then(|| courts[rng.random_range(0..2)]),
                art: (merit_type == MeritType::Art)
                    .then(|| pick(rng, &["pyretics", "imagery"]).to_string()),
                combat: (merit_type == MeritType::Ally).then(|| rng.random_range(1..6)),
                effects: arc_effects(rng),
            })
        }
        2 => {
            let types = [FlawType::Curse, FlawType::Enemy, FlawType::Weakness];
            let flaw_type = types[rng.random_range(0..3)];
            ArcadiaCard::Flaw(Flaw {
                art: None,
                game,
                kind: "flaw".into(),
                id,
                name,
                text,
                flaw_type,
                points: rng.random_range(1..5),
                court: (flaw_type == FlawType::Weakness).then(|| courts[rng.random_range(0..2)]),
                effects: vec![Effect {
                    penalty: Some(rng.random_range(1..3)),
                    test: Some(tests[rng.random_range(0..4)]),
                    ..Default::default()
                }],
            })
        }
        3 => ArcadiaCard::Waylay(Waylay {
            art: None,
            game,
            kind: "waylay".into(),
            id,
            name,
            text,
            rating: rng.random_range(1..6),
            terrain: terrain(rng),
            tests: vec![TestKind::Might, TestKind::Combat],
            might: Some(rng.random_range(1..6)),
            resolve: None,
            savvy: rng.random_bool(0.5).then(|| rng.random_range(1..6)),
            combat: Some(rng.random_range(1..6)),
            trial: rng.random_bool(0.4).then(|| Trial {
                attribute: tests[rng.random_range(0..4)],
                difficulty: rng.random_range(3..9),
                failure: rng.random_bool(0.5).then(|| sentence(rng)),
                effect: None,
            }),
        }),
        4 => {
            let t = terrain(rng);
            ArcadiaCard::League(League {
                art: None,
                game,
                kind: "league".into(),
                id,
                name,
                text,
                sides: Sides {
                    north: t.clone(),
                    east: t.clone(),
                    south: vec!["road".into()],
                    west: t.clone(),
                },
                terrain: t,
                enter: rng.random_bool(0.3).then(|| LeagueTrial {
                    attribute: tests[rng.random_range(0..4)],
                    difficulty: rng.random_range(3..9),
                }),
                leave: None,
                rest: vec![pick(rng, &["ability", "ally", "flaw"]).to_string()],
                unique: rng.random_bool(0.2),
                special: rng.random_bool(0.2).then(|| sentence(rng)),
                effects: Vec::new(),
            })
        }
        _ => ArcadiaCard::Quest(Quest {
            art: None,
            game,
            kind: "quest".into(),
            id,
            name,
            text,
            waylay_rating: rng.random_range(3..10),
            treasure_rating: rng.random_range(1..5),
            experience: rng.random_range(1..4),
            time_limit: None,
            objective: Objective::All(vec![
                Objective::CollectTreasures(rng.random_range(1..3)),
                Objective::Any(vec![
                    Objective::ReachTerrain("forest".into()),
                    Objective::ReturnToBase(true),
                ]),
            ]),
        }),
    }
}

fn element(rng: &mut ChaCha8Rng, id: String, name: String) -> ElementCard {
    let front = Element::ALL[rng.random_range(0..4)];
    let back = Element::ALL[rng.random_range(0..4)];
    ElementCard {
        game: "iconoclasm".into(),
        kind: "element".into(),
        id,
        name,
        front,
        back,
        set: front,
        art: None,
    }
}

fn figure(rng: &mut ChaCha8Rng, id: String, name: String) -> ruu::Figure {
    use ruu::*;
    let faction =
        [Allegiance::Ally, Allegiance::Enemy, Allegiance::Neutral][rng.random_range(0..3)];
    let race = match faction {
        Allegiance::Ally => PLAYABLE_RACES[rng.random_range(0..3)].to_string(),
        _ => pick(rng, &["goblin", "wraith", "drake"]).to_string(),
    };
    let dice = |rng: &mut ChaCha8Rng| Dice {
        count: rng.random_range(1..6),
        min: rng.random_range(2..=6),
    };
    let ranged = rng.random_bool(0.5).then(|| dice(rng));
    let skill = |rng: &mut ChaCha8Rng| Skill {
        name: word(rng),
        cycle: pick(rng, &["1/F", "2/G", "constant"]).to_string(),
        trigger: rng
            .random_bool(0.3)
            .then(|| format!("{}+", rng.random_range(2..=6))),
        text: rng.random_bool(0.8).then(|| sentence(rng)),
        ..Skill::default()
    };
    Figure {
        art: None,
        game: "ruunara".into(),
        kind: if rng.random_bool(0.3) {
            FigureKind::Hero
        } else {
            FigureKind::Unit
        },
        id,
        name,
        race,
        faction,
        hp: rng.random_range(1..8),
        movement: rng.random_range(3..9),
        vision: rng.random_range(6..13),
        close: dice(rng),
        ranged_range: ranged.map(|_| rng.random_range(6..25)),
        ranged,
        skills: vec![skill(rng), skill(rng)],
        base: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generated_cards_load_back_identical_and_cover_every_game() {
        let mut games = std::collections::BTreeSet::new();
        for c in cards(300, 7) {
            let back = crate::cards::parse_card(&c.to_toml(), c.id())
                .unwrap_or_else(|e| panic!("{e}\n{}", c.to_toml()));
            assert_eq!(back, c);
            games.insert((c.game(), c.kind()));
        }
        assert_eq!(games.len(), 1 + 6 + 1 + 2, "{games:?}");
    }

    #[test]
    fn same_seed_same_cards() {
        assert_eq!(card(5, 1), card(5, 1));
        assert_ne!(card(5, 1), card(5, 2));
    }
}
