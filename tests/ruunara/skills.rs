//! Every skill effect form, used within its cycle and refused beyond it.

use deckwright::games::ruunara::engine::{DeathKind, Event, Opt, Phase, Reason, RollKind};
use deckwright::games::ruunara::mission::{Facing, Objective};

use super::common::*;

fn skill_opt(o: &Opt) -> bool {
    matches!(o, Opt::Skill { .. })
}

/// A hero at (20, 18) with one skill, engaged with `foes` enemies east of it (and one far
/// away so that the mission goes on).
fn engaged_with(
    skill: &str,
    foes: &[(u32, &str)],
) -> deckwright::games::ruunara::mission::Scenario {
    let h = with_skill(hero("h", 10, "2D4+"), skill);
    let spots = [(21.37, 18.0), (20.0, 19.37), (20.0, 16.63)];
    let mut enemies: Vec<_> = foes
        .iter()
        .zip(spots)
        .enumerate()
        .map(|(k, ((hp, close), (x, y)))| at(enemy(&format!("e{k}"), *hp, close), x, y, Facing::W))
        .collect();
    enemies.push(at(enemy("far", 4, "1D6+"), 44.0, 32.0, Facing::N));
    scenario(
        vec![at(h, 20.0, 18.0, Facing::E)],
        enemies,
        vec![],
        Objective::Eliminate,
    )
}

#[test]
fn instant_kill_once_per_game_kills_on_its_trigger_then_is_refused() {
    let sc = engaged_with(
        "name = 'Hard like Steel'\ncycle = '1/G'\ntrigger = '5+'\neffect = 'instant_kill'",
        &[(9, "1D6+"), (9, "1D6+")],
    );
    let s = setup(&sc);
    // Round 1: 5 kills e0 outright, 1 misses; e1 misses (1). Round 2: no skill offered.
    let mut d = Drive::new(&s, "5 1 1");
    assert!(d.offered(skill_opt));
    d.pick(skill_opt);
    d.pick(|o| *o == Opt::Close(1));
    assert!(
        d.log.contains(&Event::Died {
            fig: 1,
            by: Some(0),
            how: DeathKind::InstantKill
        }),
        "{}",
        d.text()
    );
    assert_eq!(d.round(), 2);
    assert!(!d.offered(skill_opt));
    assert_eq!(d.g.st.phase, Phase::Combat(0));
}

#[test]
fn a_constant_instant_kill_needs_no_use() {
    let sc = engaged_with(
        "name = 'Poisoned Edge'\ncycle = 'constant'\ntrigger = '6+'\neffect = 'instant_kill'",
        &[(9, "1D6+")],
    );
    let s = setup(&sc);
    let mut d = Drive::new(&s, "6 4");
    assert_eq!(d.g.st.phase, Phase::Combat(0), "no tactical decision");
    d.pick(|o| *o == Opt::Close(1));
    assert!(d.log.contains(&Event::Died {
        fig: 1,
        by: Some(0),
        how: DeathKind::InstantKill
    }));
}

#[test]
fn an_instant_kill_of_one_attack_kind_serves_only_that_kind() {
    // Tainted Arrows: "The Tracker's ranged attacks instantly kill the target on a 6+".
    let arrows = "name = 'Tainted Arrows'\ncycle = 'constant'\ntrigger = '6+'\neffect = 'instant_kill'\nattack = 'ranged'";
    // In close combat a 6 is a hit like any other: 6 6 are two hits, the enemy's 1 misses.
    let sc = engaged_with(arrows, &[(9, "1D6+")]);
    let s = setup(&sc);
    let mut d = Drive::new(&s, "6 6 1");
    d.pick(|o| *o == Opt::Close(1));
    assert_eq!(d.g.st.figs[1].hp, 7, "{}", d.text());
    assert!(!d.log.iter().any(|e| matches!(e, Event::Died { .. })));
    // A shot: the 6 kills outright.
    let archer = with_skill(with_ranged(hero("archer", 6, "1D6+"), "1D4+", 12), arrows);
    let sc = scenario(
        vec![at(archer, 10.0, 18.0, Facing::E)],
        vec![
            at(enemy("a", 9, "1D6+"), 18.0, 18.0, Facing::E),
            at(enemy("far", 4, "1D6+"), 44.0, 32.0, Facing::N),
        ],
        vec![],
        Objective::Eliminate,
    );
    let s = setup(&sc);
    let mut d = Drive::new(&s, "6");
    d.pick(|o| *o == Opt::Done);
    d.pick(|o| *o == Opt::Ranged(1));
    assert!(
        d.log.contains(&Event::Died {
            fig: 1,
            by: Some(0),
            how: DeathKind::InstantKill
        }),
        "{}",
        d.text()
    );
}

#[test]
fn an_extra_attack_once_per_fight_follows_the_attack_then_is_refused_in_that_fight() {
    let sc = engaged_with(
        "name = 'Twin Strike'\ncycle = '1/F'\neffect = 'extra_attack'\ndice = '1D4+'\nattack = 'close'",
        &[(9, "1D6+")],
    );
    let s = setup(&sc);
    let mut d = Drive::new(&s, "1 1 5 1 1 1 1");
    d.pick(|o| *o == Opt::Close(1));
    assert!(d.offered(|o| matches!(o, Opt::Extra { .. })));
    d.pick(|o| matches!(o, Opt::Extra { .. }));
    assert_eq!(d.g.st.figs[1].hp, 8);
    // Round 2, the same fight: the attack, then no extra attack.
    assert_eq!(d.round(), 2);
    d.pick(|o| *o == Opt::Close(1));
    assert!(
        !d.offered(|o| matches!(o, Opt::Extra { .. })),
        "{:?}",
        d.g.options()
    );
}

#[test]
fn a_reroll_rolls_the_failed_dice_of_one_attack_once_per_fight() {
    let sc = engaged_with(
        "name = 'Second Wind'\ncycle = '1/F'\neffect = 'reroll'",
        &[(9, "1D6+")],
    );
    let s = setup(&sc);
    // 1 fails, 5 hits; the 1 rolled again: 6.
    let mut d = Drive::new(&s, "1 5 6 1");
    d.pick(skill_opt);
    d.pick(|o| *o == Opt::Close(1));
    assert!(d.log.iter().any(|e| matches!(e, Event::Rolled { kind: RollKind::Reroll, faces, .. } if faces.as_slice() == [6])), "{}", d.text());
    assert_eq!(d.g.st.figs[1].hp, 7);
    assert!(!d.offered(skill_opt));
}

#[test]
fn an_area_skill_strikes_every_enemy_engaged_once_per_fight() {
    let sc = engaged_with(
        "name = 'Anvil Roar'\ncycle = '1/F'\neffect = 'area'\ndice = '2D4+'",
        &[(5, "1D6+"), (5, "1D6+")],
    );
    let s = setup(&sc);
    // The dice rolled for each enemy struck in turn: 5 5 (two hits), then 5 1 (one).
    let mut d = Drive::new(&s, "5 5 5 1 1 1");
    d.pick(skill_opt);
    assert_eq!(
        (d.g.st.figs[1].hp, d.g.st.figs[2].hp),
        (3, 4),
        "{}",
        d.text()
    );
    let area_rolls = d
        .log
        .iter()
        .filter(|e| {
            matches!(
                e,
                Event::Rolled {
                    kind: RollKind::Area,
                    ..
                }
            )
        })
        .count();
    assert_eq!(area_rolls, 2, "one roll for each enemy struck");
    d.pick(|o| *o == Opt::Done);
    assert_eq!(d.round(), 2);
    assert!(!d.offered(skill_opt));
}

#[test]
fn an_area_skill_at_a_point_strikes_every_enemy_within_its_radius() {
    let mage = with_skill(
        hero("mage", 6, "1D6+"),
        "name = 'Firestorm'\ncycle = '1/G'\neffect = 'area'\ndice = '1D2+'\nradius = 2.0\nrange = 12.0",
    );
    let sc = row_of_three(mage, 3, 26.0);
    let s = setup(&sc);
    // One die for each enemy within the radius: a rolls 4 (a hit), b rolls 1 (none).
    let mut d = Drive::new(&s, "4 1");
    d.pick(|o| *o == Opt::Skill { slot: 0, target: 1 });
    let hp: Vec<i16> = (1..4).map(|i| d.g.st.figs[i].hp).collect();
    assert_eq!(hp, vec![2, 3, 3], "{}", d.text());
}

#[test]
fn a_heal_on_an_ally_twice_per_game_then_refused() {
    let healer = with_skill(
        hero("healer", 6, "1D6+"),
        "name = 'Mend'\ncycle = '2/G'\neffect = 'heal'\namount = 3\ntarget = 'ally'\nrange = 6.0",
    );
    let mut wounded = hero("wounded", 10, "1D6+");
    wounded.hp = 10;
    let sc = scenario(
        vec![
            at(healer, 10.0, 18.0, Facing::E),
            at(wounded, 10.0, 21.0, Facing::E),
        ],
        vec![at(enemy("far", 4, "1D6+"), 44.0, 32.0, Facing::N)],
        vec![],
        Objective::Eliminate,
    );
    let s = setup(&sc);
    let mut d = Drive::new(&s, "");
    d.g.st.figs[1].hp = 1;
    for (round, hp) in [(1, 4), (2, 7)] {
        assert_eq!(d.round(), round);
        d.pick(|o| *o == Opt::Activate(0));
        d.pick(|o| *o == Opt::Skill { slot: 0, target: 1 });
        assert_eq!(d.g.st.figs[1].hp, hp);
        d.idle_until(round + 1);
    }
    d.pick(|o| *o == Opt::Activate(0));
    assert!(!d.offered(skill_opt), "a third heal: {:?}", d.g.options());
}

#[test]
fn a_flight_leaves_the_fight_and_the_enemy_pursues_5_inches_a_round_for_2_rounds_then_returns() {
    let mut runner = with_skill(
        hero("runner", 10, "1D6+"),
        "name = 'Vanish'\ncycle = '1/G'\neffect = 'flee'",
    );
    runner.movement = 7;
    let mut chaser = enemy("chaser", 6, "1D6+");
    chaser.vision = 1;
    let sc = scenario(
        vec![at(runner, 30.0, 18.0, Facing::E)],
        vec![at(chaser, 31.37, 18.0, Facing::W)],
        vec![],
        Objective::Survive { rounds: 8 },
    );
    let s = setup(&sc);
    let mut d = Drive::new(&s, "");
    d.pick(skill_opt);
    assert!(d.log.contains(&Event::Fled {
        fig: 0,
        pursuers: vec![1]
    }));
    d.pick(|o| *o == Opt::Line(Facing::W));
    d.pick(|o| *o == Opt::Line(Facing::W));
    assert!(!d.offered(skill_opt), "fled once a game");
    d.idle_until(5);
    let moves: Vec<(Reason, f64)> = d
        .log
        .iter()
        .filter_map(|e| match e {
            Event::Moved {
                fig: 1, why, cost, ..
            } => Some((*why, *cost)),
            _ => None,
        })
        .collect();
    assert_eq!(moves.len(), 4, "{}", d.text());
    assert_eq!(moves[0].0, Reason::Pursuit);
    assert_eq!(moves[1].0, Reason::Pursuit);
    assert_eq!(moves[2].0, Reason::Return);
    assert!(
        moves.iter().all(|(_, c)| (*c - 5.0).abs() < 1e-6),
        "{moves:?}"
    );
    assert_eq!(d.g.st.figs[1].at, s.figs[1].start);
}

#[test]
fn stealth_hides_a_hero_beyond_its_radius_and_a_used_one_lasts_the_round() {
    for (skill, seen) in [
        (
            "name = 'Shadow'\ncycle = 'constant'\neffect = 'stealth'\nradius = 3.0",
            false,
        ),
        ("name = 'Loud'\ncycle = 'constant'", true),
    ] {
        let h = with_skill(hero("h", 10, "1D6+"), skill);
        let sc = scenario(
            vec![at(h, 10.0, 18.0, Facing::E)],
            vec![at(enemy("watch", 4, "1D6+"), 16.0, 18.0, Facing::W)],
            vec![],
            Objective::Survive { rounds: 5 },
        );
        let s = setup(&sc);
        let mut d = Drive::new(&s, "1");
        d.pick(|o| *o == Opt::Done);
        let sighted = d.log.iter().any(|e| {
            matches!(
                e,
                Event::Moved {
                    fig: 1,
                    why: Reason::Sighted,
                    ..
                }
            )
        });
        assert_eq!(sighted, seen, "{}", d.text());
    }
    // Once a game: on through the round it is used, then offered no more.
    let h = with_skill(
        hero("h", 10, "1D6+"),
        "name = 'Smoke'\ncycle = '1/G'\neffect = 'stealth'\nradius = 3.0",
    );
    let sc = scenario(
        vec![at(h, 10.0, 18.0, Facing::E)],
        vec![at(enemy("watch", 4, "1D6+"), 16.0, 18.0, Facing::W)],
        vec![],
        Objective::Survive { rounds: 5 },
    );
    let s = setup(&sc);
    let mut d = Drive::new(&s, "1 1");
    d.pick(skill_opt);
    d.pick(|o| *o == Opt::Done);
    assert!(
        !d.log
            .iter()
            .any(|e| matches!(e, Event::Moved { fig: 1, .. })),
        "{}",
        d.text()
    );
    assert!(!d.offered(skill_opt));
    d.pick(|o| *o == Opt::Done);
    assert!(
        d.log.iter().any(|e| matches!(
            e,
            Event::Moved {
                fig: 1,
                why: Reason::Sighted,
                ..
            }
        )),
        "{}",
        d.text()
    );
}

#[test]
fn a_cover_skill_puts_allies_within_its_radius_under_cover() {
    let archer = with_ranged(hero("archer", 6, "1D4+"), "2D4+", 12);
    let warden = with_skill(
        enemy("warden", 4, "1D6+"),
        "name = 'Shield Wall'\ncycle = 'constant'\neffect = 'cover'\nradius = 1.0",
    );
    let sc = scenario(
        vec![at(archer, 10.0, 18.0, Facing::E)],
        vec![
            at(enemy("e", 4, "1D6+"), 20.0, 18.0, Facing::E),
            at(warden, 21.5, 18.0, Facing::E),
        ],
        vec![],
        Objective::Eliminate,
    );
    let s = setup(&sc);
    let mut d = Drive::new(&s, "5 6 3 4");
    d.pick(|o| *o == Opt::Done);
    d.pick(|o| *o == Opt::Ranged(1));
    assert!(
        d.log.contains(&Event::Covered {
            target: 1,
            cancelled: 2
        }),
        "{}",
        d.text()
    );
    assert_eq!(d.g.st.figs[1].hp, 4);
}

#[test]
fn a_text_only_skill_is_never_applied() {
    let sc = engaged_with(
        "name = 'Old Song'\ncycle = '1/G'\ntext = 'Sing.'",
        &[(9, "1D6+")],
    );
    let s = setup(&sc);
    let d = Drive::new(&s, "");
    assert_eq!(d.g.st.phase, Phase::Combat(0));
    assert!(s.figs[0].skills.iter().all(|k| k.is_none()));
}
