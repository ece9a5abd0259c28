//! Ruunara's skill effects and mission files (`spec/ruunara.md`, "Skills as data" and
//! "Missions"): every form loads, every mistake is an error naming file, line, column and
//! key (with the key path in its message), the bundled cards and example missions load, and
//! the examples of docs/cards.md are what the reader loads.

use std::path::{Path, PathBuf};

use deckwright::cards::{self, Card, CardError};
use deckwright::catalogue::bundled_cards;
use deckwright::games::ruunara::mission::{
    Deploy, MissionFile, Objective, ObjectiveKind, SceneryKind,
};
use deckwright::games::ruunara::model::{
    AttackKind, Dice, EffectTarget, Figure, Lasts, SkillEffect, StateKind,
};
use deckwright::games::ruunara::rules::check_squad;
use deckwright::games::ruunara::squad::SquadFile;

const HERO: &str = "game = \"ruunara\"\nkind = \"hero\"\nid = \"ruu-h\"\nname = \"H\"\nrace = \"ardann\"\nfaction = \"ally\"\nhp = 4\nmovement = 6\nvision = 12\nclose = \"3D4+\"\n\n[[skills]]\nname = \"Stand\"\ncycle = \"constant\"\n\n[[skills]]\nname = \"Aim\"\ncycle = \"1/F\"\n";
/// The line of the first key added after `HERO` (its second skill).
const SECOND_SKILL_LINE: usize = 19;

fn hero_with(second: &str) -> String {
    format!("{HERO}{second}")
}

fn figure(text: &str) -> Figure {
    match cards::parse_card(text, "card.toml").unwrap_or_else(|e| panic!("{e}\n{text}")) {
        Card::Ruunara(f) => f,
        other => panic!("not a figure: {other:?}"),
    }
}

fn err(text: &str) -> CardError {
    cards::parse(text, "card.toml").expect_err("should be rejected")
}

/// The error is at `line` on `key`, and its message names the key path `path`.
fn at(e: &CardError, line: usize, key: &str, path: &str) {
    assert_eq!((e.line, e.key.as_deref()), (line, Some(key)), "{e}");
    assert!(e.column >= 1, "{e}");
    assert!(e.message.contains(path), "`{path}` not in: {e}");
    assert!(
        e.to_string().starts_with(&format!("card.toml:{line}:")),
        "{e}"
    );
}

#[test]
fn every_effect_form_loads_with_its_parameters() {
    let cases: Vec<(&str, SkillEffect)> = vec![
        (
            "trigger = \"5+\"\neffect = \"instant_kill\"\n",
            SkillEffect::InstantKill {
                on: 5,
                attack: None,
                spell: false,
            },
        ),
        (
            "trigger = \"6+\"\neffect = \"instant_kill\"\nattack = \"ranged\"\n",
            SkillEffect::InstantKill {
                on: 6,
                attack: Some(AttackKind::Ranged),
                spell: false,
            },
        ),
        (
            "effect = \"extra_attack\"\ndice = \"1D4+\"\nattack = \"ranged\"\n",
            SkillEffect::ExtraAttack {
                dice: Dice { count: 1, min: 4 },
                attack: AttackKind::Ranged,
                damage: 1,
            },
        ),
        (
            "effect = \"extra_attack\"\ndice = \"1D5+\"\nattack = \"close\"\ndamage = 2\n",
            SkillEffect::ExtraAttack {
                dice: Dice { count: 1, min: 5 },
                attack: AttackKind::Close,
                damage: 2,
            },
        ),
        ("effect = \"flee\"\n", SkillEffect::Flee { distance: None }),
        (
            "effect = \"heal\"\namount = 3\n",
            SkillEffect::Heal {
                amount: 3,
                target: EffectTarget::Own,
                range: 0.0,
                execution: None,
            },
        ),
        (
            "effect = \"heal\"\namount = 2\ntarget = \"ally\"\nrange = 2.5\n",
            SkillEffect::Heal {
                amount: 2,
                target: EffectTarget::Ally,
                range: 2.5,
                execution: None,
            },
        ),
        (
            "effect = \"area\"\ndice = \"2D5+\"\n",
            SkillEffect::Area {
                dice: Dice { count: 2, min: 5 },
                radius: None,
                range: None,
                damage: 1,
            },
        ),
        (
            "effect = \"area\"\ndice = \"2D5+\"\ndamage = 10\n",
            SkillEffect::Area {
                dice: Dice { count: 2, min: 5 },
                radius: None,
                range: None,
                damage: 10,
            },
        ),
        (
            "effect = \"area\"\ndice = \"1D4+\"\nrange = 12.0\nradius = 4.0\n",
            SkillEffect::Area {
                dice: Dice { count: 1, min: 4 },
                radius: Some(4.0),
                range: Some(12.0),
                damage: 1,
            },
        ),
        (
            "effect = \"stealth\"\nradius = 4.0\n",
            SkillEffect::Stealth { radius: 4.0 },
        ),
        (
            "effect = \"cover\"\nradius = 1.0\n",
            SkillEffect::Cover {
                radius: 1.0,
                own: false,
                apart: None,
                until_move: false,
            },
        ),
        ("effect = \"reroll\"\n", SkillEffect::Reroll),
        // The composed forms of issue #25.
        (
            "trigger = \"5+\"\neffect = \"instant_kill\"\ntarget = \"enemy\"\n",
            SkillEffect::InstantKill {
                on: 5,
                attack: None,
                spell: true,
            },
        ),
        (
            "effect = \"flee\"\ndistance = 4.0\n",
            SkillEffect::Flee {
                distance: Some(4.0),
            },
        ),
        (
            "effect = \"heal\"\namount = 4\nwhen = \"execution\"\nradius = 6.0\n",
            SkillEffect::Heal {
                amount: 4,
                target: EffectTarget::Own,
                range: 0.0,
                execution: Some(6.0),
            },
        ),
        (
            "effect = \"cover\"\ntarget = \"self\"\ncondition = \"apart\"\ndistance = 8.0\n",
            SkillEffect::Cover {
                radius: 0.0,
                own: true,
                apart: Some(8.0),
                until_move: false,
            },
        ),
        (
            "effect = \"save\"\nagainst = \"close\"\nhits = 1\n",
            SkillEffect::Save {
                against: Some(AttackKind::Close),
                on: 0,
                hits: 1,
                ward: None,
            },
        ),
        (
            "trigger = \"4+\"\neffect = \"save\"\nagainst = \"ranged\"\n",
            SkillEffect::Save {
                against: Some(AttackKind::Ranged),
                on: 4,
                hits: 0,
                ward: None,
            },
        ),
        (
            "effect = \"save\"\ntarget = \"ally\"\nrange = 6.0\n",
            SkillEffect::Save {
                against: None,
                on: 0,
                hits: 0,
                ward: Some(6.0),
            },
        ),
        (
            "trigger = \"4+\"\neffect = \"state\"\nstate = \"hexed\"\ntarget = \"enemy\"\nscore = 6\nlasts = \"fight\"\n",
            SkillEffect::State {
                state: StateKind::Hexed,
                target: EffectTarget::Enemy,
                radius: None,
                range: None,
                on: 4,
                lasts: Lasts::Fight,
                score: 6,
                face: false,
            },
        ),
        (
            "effect = \"hit_bonus\"\namount = 1\nradius = 6.0\ntarget = \"kin\"\n",
            SkillEffect::HitBonus {
                amount: 1,
                radius: 6.0,
                kin: true,
            },
        ),
        (
            "effect = \"vision\"\namount = 1\nradius = 3.0\n",
            SkillEffect::Vision {
                amount: 1,
                radius: 3.0,
            },
        ),
        (
            "trigger = \"6+\"\neffect = \"capture_clock\"\namount = 1\ntarget = \"engaged\"\n",
            SkillEffect::CaptureClock { amount: 1, on: 6 },
        ),
        (
            "effect = \"hold_out\"\namount = 6\n",
            SkillEffect::HoldOut { rounds: 6 },
        ),
        ("effect = \"silent\"\n", SkillEffect::Silent),
        (
            "effect = \"hunt\"\ncondition = \"wounded\"\n",
            SkillEffect::Hunt,
        ),
        (
            "effect = \"keep_away\"\nradius = 3.0\n",
            SkillEffect::KeepAway { radius: 3.0 },
        ),
    ];
    for (keys, want) in cases {
        let text = hero_with(keys);
        let f = figure(&text);
        assert_eq!(f.skills[1].resolved_effect(), Some(want), "{keys}");
        assert_eq!(f.skills[0].resolved_effect(), None, "a text-only skill");
        // Written back and read again, the effect is the same.
        let again = figure(&Card::Ruunara(f.clone()).to_toml());
        assert_eq!(again, f, "{keys}");
    }
}

#[test]
fn an_effect_missing_a_parameter_names_the_key_path() {
    let line = SECOND_SKILL_LINE;
    at(
        &err(&hero_with("effect = \"extra_attack\"\ndice = \"1D4+\"\n")),
        line,
        "effect",
        "skills[1].attack",
    );
    at(
        &err(&hero_with("effect = \"heal\"\n")),
        line,
        "effect",
        "skills[1].amount",
    );
    at(
        &err(&hero_with("effect = \"area\"\n")),
        line,
        "effect",
        "skills[1].dice",
    );
    at(
        &err(&hero_with("effect = \"stealth\"\n")),
        line,
        "effect",
        "skills[1].radius",
    );
    at(
        &err(&hero_with("effect = \"instant_kill\"\n")),
        line,
        "effect",
        "skills[1].trigger",
    );
    at(
        &err(&hero_with(
            "effect = \"heal\"\namount = 1\ntarget = \"ally\"\n",
        )),
        line + 2,
        "target",
        "skills[1].range",
    );
    at(
        &err(&hero_with(
            "effect = \"area\"\ndice = \"1D4+\"\nradius = 3.0\n",
        )),
        line + 2,
        "radius",
        "skills[1].range",
    );
    // The composed forms: what each needs, and a target or a condition they do not take.
    at(
        &err(&hero_with("effect = \"state\"\ntarget = \"engaged\"\n")),
        line,
        "effect",
        "skills[1].state",
    );
    at(
        &err(&hero_with(
            "effect = \"state\"\nstate = \"held\"\ntarget = \"enemies\"\n",
        )),
        line + 2,
        "target",
        "skills[1].radius",
    );
    at(
        &err(&hero_with("effect = \"save\"\ntarget = \"engaged\"\n")),
        line + 1,
        "target",
        "skills[1].target",
    );
    at(
        &err(&hero_with(
            "effect = \"cover\"\ntarget = \"self\"\ncondition = \"apart\"\n",
        )),
        line + 2,
        "condition",
        "skills[1].distance",
    );
    at(
        &err(&hero_with(
            "effect = \"heal\"\namount = 2\nwhen = \"execution\"\n",
        )),
        line + 2,
        "when",
        "skills[1].radius",
    );
}

#[test]
fn a_parameter_the_effect_does_not_take_or_with_no_effect_is_an_error() {
    let line = SECOND_SKILL_LINE;
    at(
        &err(&hero_with("effect = \"flee\"\ndice = \"1D4+\"\n")),
        line + 1,
        "dice",
        "skills[1].dice",
    );
    at(
        &err(&hero_with("effect = \"cover\"\nradius = 1.0\namount = 2\n")),
        line + 2,
        "amount",
        "skills[1].amount",
    );
    at(
        &err(&hero_with("effect = \"heal\"\namount = 1\nrange = 2.0\n")),
        line + 2,
        "range",
        "skills[1].range",
    );
    // `attack` belongs to `extra_attack` and `instant_kill` only.
    at(
        &err(&hero_with("effect = \"flee\"\nattack = \"close\"\n")),
        line + 1,
        "attack",
        "skills[1].attack",
    );
    // No effect: a parameter applies to nothing.
    at(
        &err(&hero_with("radius = 2.0\n")),
        line,
        "radius",
        "skills[1].radius",
    );
    // The first skill's path is skills[0].
    let e = err(&HERO.replacen(
        "cycle = \"constant\"\n",
        "cycle = \"constant\"\nattack = \"close\"\n",
        1,
    ));
    at(&e, 15, "attack", "skills[0].attack");
    // `damage` belongs to `extra_attack` and `area` only.
    for (keys, at_line) in [
        ("effect = \"heal\"\namount = 1\ndamage = 2\n", line + 2),
        ("damage = 2\n", line),
        (
            "trigger = \"5+\"\neffect = \"instant_kill\"\ndamage = 2\n",
            line + 2,
        ),
        ("effect = \"stealth\"\nradius = 2.0\ndamage = 2\n", line + 2),
    ] {
        at(
            &err(&hero_with(keys)),
            at_line,
            "damage",
            "skills[1].damage",
        );
    }
    // An effect outside its set is the reader's error, on its line.
    let e = err(&hero_with("effect = \"teleport\"\n"));
    assert_eq!((e.line, e.key.as_deref()), (line, Some("effect")), "{e}");
}

#[test]
fn effect_values_out_of_range_are_errors() {
    let line = SECOND_SKILL_LINE;
    for (keys, key, at_line) in [
        ("effect = \"cover\"\nradius = 0.0\n", "radius", line + 1),
        ("effect = \"stealth\"\nradius = -2.0\n", "radius", line + 1),
        ("effect = \"stealth\"\nradius = nan\n", "radius", line + 1),
        (
            "effect = \"stealth\"\nradius = 1000.0\n",
            "radius",
            line + 1,
        ),
        (
            "effect = \"heal\"\namount = 1\ntarget = \"ally\"\nrange = 0.0\n",
            "range",
            line + 3,
        ),
        ("effect = \"heal\"\namount = 0\n", "amount", line + 1),
        (
            "effect = \"area\"\ndice = \"1D4+\"\ndamage = 0\n",
            "damage",
            line + 2,
        ),
        (
            "effect = \"extra_attack\"\ndice = \"1D4+\"\nattack = \"close\"\ndamage = 11\n",
            "damage",
            line + 3,
        ),
    ] {
        at(
            &err(&hero_with(keys)),
            at_line,
            key,
            &format!("skills[1].{key}"),
        );
    }
    // A negative amount is the wrong type for the reader.
    let e = err(&hero_with("effect = \"heal\"\namount = -1\n"));
    assert_eq!(e.key.as_deref(), Some("amount"), "{e}");
    for bad in ["-1", "\"2\"", "1.5"] {
        let e = err(&hero_with(&format!(
            "effect = \"area\"\ndice = \"1D4+\"\ndamage = {bad}\n"
        )));
        assert_eq!(
            (e.line, e.key.as_deref()),
            (line + 2, Some("damage")),
            "{bad}: {e}"
        );
    }
}

#[test]
fn bundled_cards_carry_effects_that_resolve() {
    let figures: Vec<Figure> = bundled_cards()
        .unwrap()
        .into_iter()
        .filter_map(|c| match c {
            Card::Ruunara(f) => Some(f),
            _ => None,
        })
        .collect();
    let mut with_effect = 0;
    for f in &figures {
        for s in &f.skills {
            if s.effect.is_some() {
                with_effect += 1;
                assert!(s.resolved_effect().is_some(), "{}: {}", f.id, s.name);
                assert!(s.text.is_some(), "{}: {} keeps its text", f.id, s.name);
            }
        }
    }
    assert!(with_effect >= 8, "only {with_effect} skills with effects");
    let skill = |id: &str, name: &str| {
        figures
            .iter()
            .find(|f| f.id == id)
            .and_then(|f| f.skills.iter().find(|s| s.name == name))
            .unwrap_or_else(|| panic!("{id}: {name}"))
            .resolved_effect()
    };
    assert_eq!(
        skill("ru-yrsa-coalmantle", "Molten Edge"),
        Some(SkillEffect::InstantKill {
            on: 6,
            attack: Some(AttackKind::Close),
            spell: false,
        })
    );
    assert_eq!(
        skill("ru-sanbari-tracker", "Tainted Arrows"),
        Some(SkillEffect::InstantKill {
            on: 6,
            attack: Some(AttackKind::Ranged),
            spell: false,
        })
    );
    assert_eq!(
        skill("ru-mother-ysolde", "Hedge Remedy"),
        Some(SkillEffect::Heal {
            amount: 3,
            target: EffectTarget::Ally,
            range: 2.0,
            execution: None,
        })
    );
    assert_eq!(
        skill("ru-miri-stormcall", "Windstep"),
        Some(SkillEffect::Flee {
            distance: Some(4.0)
        })
    );
    assert_eq!(
        skill("ru-ghoul-gnawer", "Ravenous"),
        Some(SkillEffect::Hunt)
    );
    // Every bundled skill says what it does (issue #25).
    for f in &figures {
        for s in &f.skills {
            assert!(s.resolved_effect().is_some(), "{}: {}", f.id, s.name);
        }
    }
    // Call Lightning: each struck loses 2 hit points a hit.
    assert_eq!(
        skill("ru-miri-stormcall", "Call Lightning"),
        Some(SkillEffect::Area {
            dice: Dice { count: 1, min: 4 },
            radius: Some(4.0),
            range: Some(12.0),
            damage: 2,
        })
    );
    // Hammer Blow: one die, on 5+ the engaged enemy loses 2 hit points.
    assert_eq!(
        skill("ru-ardann-smithguard", "Hammer Blow"),
        Some(SkillEffect::ExtraAttack {
            dice: Dice { count: 1, min: 5 },
            attack: AttackKind::Close,
            damage: 2,
        })
    );
}

// ---- missions ----

fn examples() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/ruunara")
}

fn read(name: &str) -> String {
    std::fs::read_to_string(examples().join(name)).unwrap()
}

fn squad(name: &str, cards: &dyn deckwright::cards::CardLookup) -> Vec<Figure> {
    let s = SquadFile::parse(&read(name), name).unwrap();
    let report = check_squad(&s, cards);
    assert!(report.is_legal(), "{name}: {:?}", report.violations);
    report.members
}

#[test]
fn every_example_mission_loads_and_deploys_both_bundled_squads() {
    let cards = bundled_cards().unwrap();
    let squads = [
        squad("legal-ardann-story.squad.toml", &cards),
        squad("legal-free-play-mix.squad.toml", &cards),
    ];
    let mut objectives = Vec::new();
    for name in [
        "eliminate.mission.toml",
        "rescue.mission.toml",
        "reach.mission.toml",
        "survive.mission.toml",
    ] {
        let m = MissionFile::parse(&read(name), name).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            name.split('.').next().unwrap(),
            deckwright::games::word(&m.objective)
        );
        objectives.push(m.objective);
        for kind in [
            SceneryKind::Wall,
            SceneryKind::Rock,
            SceneryKind::Building,
            SceneryKind::Cliff,
        ] {
            assert!(
                m.scenery.iter().any(|s| s.kind == kind),
                "{name} has no {kind:?}"
            );
        }
        assert!(!m.enemies.is_empty(), "{name}");
        for members in &squads {
            let s = m
                .resolve(members, &cards)
                .unwrap_or_else(|v| panic!("{name}: {v:?}"));
            assert_eq!(s.heroes.len(), members.len());
            assert_eq!(
                s.heroes
                    .iter()
                    .map(|h| h.card.id.as_str())
                    .collect::<Vec<_>>(),
                members.iter().map(|f| f.id.as_str()).collect::<Vec<_>>(),
                "squad order"
            );
            assert_eq!(s.enemies.len(), m.enemies.len());
            assert!(
                s.enemies
                    .iter()
                    .all(|e| matches!(e.deploy, Deploy::Point { .. }))
            );
            match s.objective {
                Objective::Rescue { target, .. } => {
                    assert_eq!(s.neutrals[target].card.id, "ru-mother-ysolde");
                    assert!(!s.neutrals[target].hostile);
                }
                Objective::Reach { exit } => assert!(exit.w > 0.0),
                Objective::Survive { rounds } => assert!(rounds <= s.round_limit),
                Objective::Eliminate => {}
            }
        }
        // Written back and read again, the mission is the same.
        assert_eq!(MissionFile::parse(&m.to_toml(), "again").unwrap(), m);
    }
    assert_eq!(
        objectives,
        [
            ObjectiveKind::Eliminate,
            ObjectiveKind::Rescue,
            ObjectiveKind::Reach,
            ObjectiveKind::Survive
        ]
    );
}

#[test]
fn malformed_example_missions_name_file_line_column_and_key() {
    for (name, line, key, says) in [
        (
            "illegal-overlap.mission.toml",
            22,
            "x",
            "overlaps the base of enemy 1",
        ),
        (
            "illegal-off-table.mission.toml",
            16,
            "x",
            "reaches past the 48 x 36 table",
        ),
        (
            "illegal-unknown-key.mission.toml",
            14,
            "heigth",
            "unknown field `heigth`",
        ),
        (
            "illegal-on-building.mission.toml",
            17,
            "x",
            "stands on the building scenery[0]",
        ),
    ] {
        let e = MissionFile::parse(&read(name), name).expect_err(name);
        assert_eq!(e.file, name);
        assert_eq!((e.line, e.key.as_deref()), (line, Some(key)), "{e}");
        assert_eq!(e.column, 1, "{e}");
        assert!(e.message.contains(says), "{e}");
    }
}

const MISSION: &str = "game = \"ruunara\"\nkind = \"mission\"\nid = \"m\"\nname = \"M\"\nobjective = \"eliminate\"\n\n[[deploy]]\nx = 2.0\ny = 2.0\nfacing = \"n\"\n\n[[enemies]]\ncard = \"ru-ghoul-gnawer\"\nx = 20.0\ny = 20.0\nfacing = \"s\"\n";

fn mission_err(text: &str) -> CardError {
    MissionFile::parse(text, "m.mission.toml").expect_err("should be rejected")
}

/// The error is on `line` at `key` and says `says`.
fn mission_at(text: &str, line: usize, key: &str, says: &str) {
    let e = mission_err(text);
    assert_eq!((e.line, e.key.as_deref()), (line, Some(key)), "{e}\n{text}");
    assert!(e.message.contains(says), "`{says}` not in {e}");
    assert!(
        e.to_string()
            .starts_with(&format!("m.mission.toml:{line}:")),
        "{e}"
    );
}

#[test]
fn mission_headers_types_and_unknown_keys_are_strict() {
    MissionFile::parse(MISSION, "m").unwrap();
    mission_at(
        &MISSION.replace("\"ruunara\"", "\"arcadia\""),
        1,
        "game",
        "game = \"ruunara\"",
    );
    mission_at(
        &MISSION.replace("\"mission\"", "\"squad\""),
        2,
        "kind",
        "kind = \"mission\"",
    );
    mission_at(
        &MISSION.replace("id = \"m\"", "id = \"M M\""),
        3,
        "id",
        "a-z, 0-9",
    );
    mission_at(
        &MISSION.replace("\"eliminate\"", "\"escape\""),
        5,
        "objective",
        "eliminate",
    );
    mission_at(&MISSION.replace("y = 20.0", "y = \"20\""), 15, "y", "");
    mission_at(
        &MISSION.replace("facing = \"s\"", "facing = \"up\""),
        16,
        "facing",
        "",
    );
    mission_at(
        &format!("{MISSION}round = 3\n"),
        17,
        "round",
        "unknown field `round`",
    );
    // A deploy is a point or a zone, never a mix.
    let e = mission_err(&MISSION.replace("facing = \"n\"", "facing = \"n\"\nw = 4.0\nd = 4.0"));
    assert!(e.message.contains("a point"), "{e}");
    assert_eq!(e.line, 7, "{e}");
    let e = mission_err(&MISSION.replace("facing = \"n\"", "z = 1.0\nfacing = \"n\""));
    assert_eq!(e.key.as_deref(), Some("z"), "{e}");
}

#[test]
fn mission_positions_zones_and_the_table_are_checked() {
    // A base whose centre is on the table but whose edge is not.
    mission_at(&MISSION.replace("x = 2.0", "x = 0.5"), 8, "x", "deploy[0]");
    mission_at(
        &MISSION.replace(
            "[[deploy]]",
            "table = { width = 20.0, depth = 30.0 }\n\n[[deploy]]",
        ),
        16,
        "x",
        "enemies[0]",
    );
    // Two deploys on one spot.
    mission_at(
        &MISSION.replace(
            "\n[[enemies]]",
            "\n[[deploy]]\nx = 3.0\ny = 2.5\nfacing = \"e\"\n\n[[enemies]]",
        ),
        13,
        "x",
        "overlaps the base of deploy 1",
    );
    // Bases that touch do not overlap.
    MissionFile::parse(
        &MISSION.replace(
            "\n[[enemies]]",
            "\n[[deploy]]\nx = 3.36\ny = 2.0\nfacing = \"e\"\n\n[[enemies]]",
        ),
        "m",
    )
    .unwrap();
    // A zone too small for one base, or outside the table.
    let zone = |x: f64, w: f64| {
        MISSION.replace(
            "x = 2.0\ny = 2.0\nfacing = \"n\"",
            &format!("x = {x:?}\ny = 2.0\nw = {w:?}\nd = 4.0"),
        )
    };
    MissionFile::parse(&zone(2.0, 4.0), "m").unwrap();
    mission_at(&zone(2.0, 1.0), 10, "w", "at least 1.36");
    mission_at(&zone(46.0, 4.0), 8, "x", "outside the 48 x 36 table");
    // Scenery outside the table, with no size, or a negative height.
    let piece = |x: f64, w: f64, h: f64| {
        format!(
            "{MISSION}\n[[scenery]]\nkind = \"rock\"\nx = {x:?}\ny = 30.0\nw = {w:?}\nd = 2.0\nheight = {h:?}\n"
        )
    };
    MissionFile::parse(&piece(40.0, 8.0, 1.0), "m").unwrap();
    mission_at(&piece(41.0, 8.0, 1.0), 20, "x", "scenery[0]");
    mission_at(&piece(10.0, 0.0, 1.0), 22, "w", "more than 0");
    mission_at(&piece(10.0, 2.0, -1.0), 24, "height", "scenery[0].height");
    // A table of no size.
    let e = mission_err(&format!(
        "table = {{ width = 0.0, depth = 36.0 }}\n{MISSION}"
    ));
    assert_eq!(e.key.as_deref(), Some("width"), "{e}");
    // A base on a building; beside it is fine.
    let building = |x: f64| {
        format!(
            "{MISSION}\n[[scenery]]\nkind = \"building\"\nx = {x:?}\ny = 0.0\nw = 4.0\nd = 4.0\nheight = 3.0\n"
        )
    };
    mission_at(&building(2.5), 8, "x", "stands on the building");
    MissionFile::parse(&building(2.68), "m").unwrap();
}

#[test]
fn objective_parameters_belong_to_their_objective() {
    let with = |objective: &str, extra: &str| {
        MISSION.replace(
            "objective = \"eliminate\"\n",
            &format!("objective = \"{objective}\"\n{extra}"),
        )
    };
    let exit = "exit = { x = 40.0, y = 0.0, w = 8.0, d = 8.0 }\n";
    let neutral = "\n[[neutrals]]\ncard = \"ru-mother-ysolde\"\nx = 30.0\ny = 30.0\n";
    let rescue = format!(
        "{}{neutral}",
        with("rescue", &format!("target = \"ru-mother-ysolde\"\n{exit}"))
    );
    MissionFile::parse(&rescue, "m").unwrap();
    MissionFile::parse(&with("reach", exit), "m").unwrap();
    MissionFile::parse(&with("survive", "rounds = 5\n"), "m").unwrap();
    mission_at(&with("reach", ""), 5, "objective", "needs `exit`");
    mission_at(&with("survive", ""), 5, "objective", "needs `rounds`");
    mission_at(
        &format!("{}{neutral}", with("rescue", exit)),
        5,
        "objective",
        "needs `target`",
    );
    mission_at(&with("eliminate", exit), 6, "exit", "takes no `exit`");
    mission_at(
        &with("reach", &format!("{exit}rounds = 3\n")),
        7,
        "rounds",
        "takes no `rounds`",
    );
    mission_at(
        &with("survive", "rounds = 0\n"),
        6,
        "rounds",
        "from 1 to round_limit",
    );
    mission_at(
        &with("survive", "rounds = 25\n"),
        6,
        "rounds",
        "from 1 to round_limit (20)",
    );
    mission_at(
        &with("eliminate", "round_limit = 0\n"),
        6,
        "round_limit",
        "from 1",
    );
    // The target must be one of the mission's neutrals, and not a hostile one.
    mission_at(
        &with("rescue", &format!("target = \"ru-mother-ysolde\"\n{exit}")),
        6,
        "target",
        "none of the mission's neutrals",
    );
    mission_at(&format!("{rescue}hostile = true\n"), 6, "target", "hostile");
    // An exit too small for a base.
    mission_at(
        &with("reach", "exit = { x = 40.0, y = 0.0, w = 1.0, d = 8.0 }\n"),
        6,
        "w",
        "exit",
    );
}

#[test]
fn resolving_a_mission_reports_cards_factions_and_deployment() {
    let cards = bundled_cards().unwrap();
    let members = squad("legal-ardann-story.squad.toml", &cards);
    let rules = |text: &str, members: &[Figure]| -> Vec<&'static str> {
        let m = MissionFile::parse(text, "m").unwrap();
        match m.resolve(members, &cards) {
            Ok(_) => Vec::new(),
            Err(v) => v.iter().map(|v| v.rule).collect(),
        }
    };
    // One deploy for three members.
    assert_eq!(rules(MISSION, &members), ["mission-deploy"]);
    assert_eq!(rules(MISSION, &members[..1]), Vec::<&str>::new());
    assert_eq!(rules(MISSION, &[]), ["mission-deploy"]);
    // A single zone deploys the whole squad, if it holds them.
    let zone = |w: f64| {
        MISSION.replace(
            "x = 2.0\ny = 2.0\nfacing = \"n\"",
            &format!("x = 2.0\ny = 2.0\nw = {w:?}\nd = 1.5"),
        )
    };
    let m = MissionFile::parse(&zone(4.1), "m").unwrap();
    let s = m.resolve(&members, &cards).unwrap();
    assert!(s.heroes.iter().all(|h| h.deploy == m.deploy[0]));
    assert_eq!(rules(&zone(2.8), &members), ["mission-zone-capacity"]);
    // Enemies by exact name; an ally as an enemy; a card nobody has.
    assert_eq!(
        rules(
            &MISSION.replace("\"ru-ghoul-gnawer\"", "\"Ghoul Gnawer\""),
            &members[..1]
        ),
        Vec::<&str>::new()
    );
    assert_eq!(
        rules(
            &MISSION.replace("ru-ghoul-gnawer", "ru-sanbari-tracker"),
            &members[..1]
        ),
        ["mission-enemy-faction"]
    );
    assert_eq!(
        rules(
            &MISSION.replace("ru-ghoul-gnawer", "ru-no-such-ghoul"),
            &members[..1]
        ),
        ["unknown-card"]
    );
    let neutral =
        |card: &str| format!("{MISSION}\n[[neutrals]]\ncard = \"{card}\"\nx = 30.0\ny = 30.0\n");
    assert_eq!(
        rules(&neutral("ru-mother-ysolde"), &members[..1]),
        Vec::<&str>::new()
    );
    assert_eq!(
        rules(&neutral("ru-fen-wraith"), &members[..1]),
        ["mission-neutral-faction"]
    );
    // The cards alone, with no squad.
    let m = MissionFile::parse(MISSION, "m").unwrap();
    assert!(m.check(None, &cards).is_empty());
}

/// Every `toml` example of docs/cards.md's Ruunara part loads: cards as cards, missions as
/// missions, squads as squads.
#[test]
fn the_ruunara_examples_of_docs_cards_md_load() {
    let doc = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/cards.md"))
        .unwrap();
    let start = doc.find("## Ruunara").expect("a Ruunara section");
    let part = &doc[start..];
    let end = part.find("\n## The catalogue").unwrap_or(part.len());
    let part = &part[..end];
    let cards = bundled_cards().unwrap();
    let mut seen = (0, 0);
    for block in part.split("```toml\n").skip(1) {
        let text = block.split("```").next().unwrap();
        if text.contains("kind = \"mission\"") {
            let m =
                MissionFile::parse(text, "docs/cards.md").unwrap_or_else(|e| panic!("{e}\n{text}"));
            assert!(m.check(None, &cards).is_empty(), "{text}");
            seen.1 += 1;
        } else {
            figure(text);
            seen.0 += 1;
        }
    }
    assert!(seen.0 >= 1 && seen.1 >= 1, "examples seen: {seen:?}");
}

/// Enemies posted anywhere (on or off the table, close together or apart): the mission loads
/// exactly when every base lies on the table and no two bases overlap, reckoned here from
/// the spec (radius 0.68", touching allowed); a refusal names the line of an enemy's `x`.
#[test]
fn posts_load_exactly_when_every_base_is_on_the_table_and_apart() {
    use proptest::prelude::*;
    let posts = proptest::collection::vec((-20i32..=500, -20i32..=380), 1..6);
    proptest!(ProptestConfig::with_cases(256), |(posts in posts)| {
        // Tenths of an inch, so that exact touching (13.6 tenths) comes up.
        let pts: Vec<(f64, f64)> = posts
            .iter()
            .map(|&(x, y)| (f64::from(x) / 10.0, f64::from(y) / 10.0))
            .collect();
        let mut text = "game = \"ruunara\"\nkind = \"mission\"\nid = \"p\"\nname = \"P\"\nobjective = \"eliminate\"\n".to_string();
        for (x, y) in &pts {
            text.push_str(&format!(
                "\n[[enemies]]\ncard = \"ru-ghoul-gnawer\"\nx = {x:?}\ny = {y:?}\nfacing = \"s\"\n"
            ));
        }
        let r = 0.68;
        let on_table = |&(x, y): &(f64, f64)| {
            x - r >= -1e-9 && y - r >= -1e-9 && x + r <= 48.0 + 1e-9 && y + r <= 36.0 + 1e-9
        };
        let apart = pts.iter().enumerate().all(|(i, a)| {
            pts[..i]
                .iter()
                .all(|b| ((a.0 - b.0).powi(2) + (a.1 - b.1).powi(2)).sqrt() >= 1.36 - 1e-9)
        });
        let legal = pts.iter().all(on_table) && apart;
        match MissionFile::parse(&text, "p.mission.toml") {
            Ok(m) => {
                prop_assert!(legal, "accepted {pts:?}");
                prop_assert_eq!(m.enemies.len(), pts.len());
            }
            Err(e) => {
                prop_assert!(!legal, "refused {pts:?}: {e}");
                prop_assert_eq!(e.key.as_deref(), Some("x"), "{}", e);
                // The line of some enemy's `x`: 5 header lines, then 6 lines an enemy.
                prop_assert!(e.line >= 9 && (e.line - 9) % 6 == 0, "{}", e);
            }
        }
    });
}
