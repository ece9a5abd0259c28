//! Racial skills (spec/ruunara.md, "Added in the third round"; `src/games/ruunara/races.toml`;
//! docs/rulings.md, "Racial skills"): every squad member deployed by a mission has its race's
//! two skills beside its own, used within their cycles like any skill.

use deckwright::games::game::Game;
use deckwright::games::ruunara::engine::{Event, Opt, Setup, Status};
use deckwright::games::ruunara::mission::{Facing, Objective};
use deckwright::games::ruunara::model::Allegiance;
use deckwright::games::ruunara::races::{racial_skills, with_racial_skills};

use super::common::*;

/// The slot of the skill named `name` on figure `i`.
fn slot(s: &Setup, i: usize, name: &str) -> u8 {
    (0..6)
        .find(|&k| s.figs[i].skills[k].is_some() && s.figs[i].skill_name(k) == name)
        .unwrap_or_else(|| panic!("{} has no {name}", s.figs[i].name)) as u8
}

#[test]
fn a_mission_deploys_each_member_with_its_races_two_skills_after_its_own() {
    let sc = example("eliminate.mission.toml", "legal-free-play-mix.squad.toml");
    let s = Setup::new(&sc).unwrap();
    for (i, p) in sc.heroes.iter().enumerate() {
        let race = racial_skills(&p.card.race);
        assert_eq!(race.len(), 2, "{}", p.card.race);
        let names: Vec<&str> = p.card.skills.iter().map(|k| k.name.as_str()).collect();
        let own = names.len() - 2;
        assert_eq!(
            &names[own..],
            &[race[0].name.as_str(), race[1].name.as_str()]
        );
        // Both are applied by the engine (each has an effect and a cycle).
        for k in race {
            slot(&s, i, &k.name);
        }
    }
    // The enemies have none.
    for p in &sc.enemies {
        assert!(racial_skills(&p.card.race).is_empty());
    }
}

/// A Sanbari hero engaged with an enemy of 5 hp.
fn sanbari_duel() -> Setup {
    let mut h = fig("blade", Allegiance::Ally, 8, 5, 10, "1D6+");
    h.race = "sanbari".into();
    setup(&scenario(
        vec![at(with_racial_skills(h), 20.0, 18.0, Facing::E)],
        vec![at(enemy("e", 5, "1D6+"), 21.37, 18.0, Facing::W)],
        vec![],
        Objective::Eliminate,
    ))
}

#[test]
fn the_sanbari_silent_blade_kills_on_a_6_once_a_game() {
    let s = sanbari_duel();
    let blade = slot(&s, 0, "Silent Blade");
    let mut d = Drive::new(&s, "6");
    d.pick(|o| {
        *o == Opt::Skill {
            slot: blade,
            target: u8::MAX,
        }
    });
    d.pick(|o| *o == Opt::Done); // no more skills
    d.pick(|o| *o == Opt::Close(1));
    assert_eq!(d.g.st.figs[1].status, Status::Dead, "{}", d.text());
    assert!(d.log.iter().any(|e| matches!(
        e,
        Event::Died {
            fig: 1,
            how: deckwright::games::ruunara::engine::DeathKind::InstantKill,
            ..
        }
    )));
}

#[test]
fn the_silent_blade_is_not_offered_again_in_the_same_game() {
    let s = sanbari_duel();
    let blade = slot(&s, 0, "Silent Blade");
    // A 1 misses; the enemy's 1 misses; next round the skill is spent.
    let mut d = Drive::new(&s, "1 1");
    let used = Opt::Skill {
        slot: blade,
        target: u8::MAX,
    };
    d.pick(|o| *o == used);
    d.pick(|o| *o == Opt::Done);
    d.pick(|o| *o == Opt::Close(1));
    // The combat phase may offer spells after the roll (issue 29): none taken.
    while d.round() < 2 && d.offered(|o| *o == Opt::Done) {
        d.pick(|o| *o == Opt::Done);
    }
    assert_eq!(d.round(), 2, "{}", d.text());
    assert!(!d.offered(|o| *o == used), "{:?}", d.g.options());
    // Shadow Walk (once a fight) is still there.
    let walk = slot(&s, 0, "Shadow Walk");
    assert!(d.offered(|o| matches!(o, Opt::Skill { slot, .. } if *slot == walk)));
}

#[test]
fn the_ardann_forge_fury_strikes_every_enemy_engaged_with_the_hero() {
    let mut h = fig("smith", Allegiance::Ally, 10, 5, 10, "1D6+");
    h.race = "ardann".into();
    let s = setup(&scenario(
        vec![at(with_racial_skills(h), 20.0, 18.0, Facing::E)],
        vec![
            at(enemy("e1", 1, "1D6+"), 21.37, 18.0, Facing::W),
            at(enemy("e2", 1, "1D6+"), 18.63, 18.0, Facing::E),
            at(enemy("far", 1, "1D6+"), 40.0, 30.0, Facing::W),
        ],
        vec![],
        Objective::Eliminate,
    ));
    let fury = slot(&s, 0, "Forge Fury");
    // One die for each enemy struck: a 4 and a 6 (1D4+) hit both.
    let mut d = Drive::new(&s, "4 6");
    d.pick(|o| matches!(o, Opt::Skill { slot, .. } if *slot == fury));
    assert_eq!(d.g.st.figs[1].status, Status::Dead, "{}", d.text());
    assert_eq!(d.g.st.figs[2].status, Status::Dead, "{}", d.text());
    assert_eq!(d.g.st.figs[3].status, Status::Free);
    // Once a fight: that fight is over, and the skill is not offered again in it.
    assert!(!d.offered(|o| matches!(o, Opt::Skill { slot, .. } if *slot == fury)));
    assert_eq!(d.g.seats(), 2);
}

#[test]
fn the_kangara_spirit_mending_heals_an_ally_within_6_inches() {
    let mut h = fig("shaman", Allegiance::Ally, 8, 5, 10, "1D6+");
    h.race = "kangara".into();
    let s = setup(&scenario(
        vec![
            at(with_racial_skills(h), 10.0, 10.0, Facing::N),
            at(hero("hurt", 10, "1D6+"), 15.0, 10.0, Facing::N),
        ],
        vec![at(enemy("far", 1, "1D6+"), 40.0, 30.0, Facing::W)],
        vec![],
        Objective::Eliminate,
    ));
    let mend = slot(&s, 0, "Spirit Mending");
    let mut d = Drive::new(&s, "");
    d.g.st.figs[1].hp = 5;
    d.pick(|o| *o == Opt::Activate(0));
    d.pick(|o| {
        *o == Opt::Skill {
            slot: mend,
            target: 1,
        }
    });
    assert_eq!(d.g.st.figs[1].hp, 7, "{}", d.text());
}
