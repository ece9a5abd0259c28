//! The enemies' skills with a cycle, used by the rules (`docs/rulings.md`, "Ruunara engine"):
//! extra attacks after the attack of their kind, instant kills readied on an attack, heals
//! of the most wounded, areas that strike heroes, rerolls of failed dice; and a skill's
//! `damage` (hit points a hit) in play, in the duel and in the odds.

use deckwright::cards::Card;
use deckwright::games::dice::ScriptDice;
use deckwright::games::ruunara::duel::{DuelEnd, duel_setup, play_duel};
use deckwright::games::ruunara::engine::RuunaraEval;
use deckwright::games::ruunara::engine::{DeathKind, Event, Opt, RollKind};
use deckwright::games::ruunara::mission::{Facing, Objective};
use deckwright::games::ruunara::model::Figure;

use super::common::*;

/// A bundled card by id.
fn bundled(id: &str) -> Figure {
    deckwright::catalogue::bundled_cards()
        .unwrap()
        .into_iter()
        .find_map(|c| match c {
            Card::Ruunara(f) if f.id == id => Some(f),
            _ => None,
        })
        .unwrap_or_else(|| panic!("no bundled {id}"))
}

/// The skill uses of figure `fig` in the log: (slot, target).
fn uses(log: &[Event], fig: u8) -> Vec<(u8, Option<u8>)> {
    log.iter()
        .filter_map(|e| match e {
            Event::Skill {
                fig: f,
                slot,
                target,
            } if *f == fig => Some((*slot, *target)),
            _ => None,
        })
        .collect()
}

/// The faces of figure `fig`'s rolls of `kind`, in order.
fn rolls(log: &[Event], fig: u8, kind: RollKind) -> Vec<Vec<u8>> {
    log.iter()
        .filter_map(|e| match e {
            Event::Rolled {
                fig: f,
                kind: k,
                faces,
                ..
            } if *f == fig && *k == kind => Some(faces.as_slice().to_vec()),
            _ => None,
        })
        .collect()
}

/// One hero engaged with one enemy (east of it), both facing each other, and a far enemy
/// that never sees anyone so that an `eliminate` mission goes on.
fn duelists(h: Figure, e: Figure) -> deckwright::games::ruunara::mission::Scenario {
    let mut far = enemy("far", 4, "1D6+");
    far.vision = 1;
    scenario(
        vec![at(h, 20.0, 18.0, Facing::E)],
        vec![
            at(e, 21.37, 18.0, Facing::W),
            at(far, 44.0, 32.0, Facing::N),
        ],
        vec![],
        Objective::Eliminate,
    )
}

#[test]
fn the_bundled_slinger_fires_mud_volley_after_its_shot_once_per_fight() {
    let slinger = bundled("ru-bogspawn-slinger");
    let sc = scenario(
        vec![at(hero("h", 20, "1D6+"), 10.0, 18.0, Facing::E)],
        vec![at(slinger, 18.0, 18.0, Facing::W)],
        vec![],
        Objective::Survive { rounds: 5 },
    );
    let s = setup(&sc);
    // Round 1: the shot 4 1 (one hit), Mud Volley 5 2 (one hit). Round 2: the shot 1 1
    // and no volley. Round 3: the shot 4 4.
    let mut d = Drive::new(&s, "4 1 5 2 1 1 4 4");
    d.idle_until(4);
    assert_eq!(uses(&d.log, 1), vec![(0, Some(0))], "{}", d.text());
    assert_eq!(
        rolls(&d.log, 1, RollKind::Ranged),
        vec![vec![4, 1], vec![5, 2], vec![1, 1], vec![4, 4]],
        "{}",
        d.text()
    );
    // The volley comes right after the shot it follows.
    let at = |p: &dyn Fn(&Event) -> bool| d.log.iter().position(p).unwrap();
    let first_hit = at(&|e| matches!(e, Event::Hit { by: 1, .. }));
    let volley = at(&|e| matches!(e, Event::Skill { fig: 1, .. }));
    assert!(first_hit < volley, "{}", d.text());
    assert_eq!(d.g.st.figs[0].hp, 20 - 1 - 1 - 2);
}

#[test]
fn an_extra_close_attack_follows_the_enemys_close_attack_at_its_target() {
    let e = with_skill(
        enemy("brute", 9, "1D6+"),
        "name = 'Second Swing'\ncycle = '1/F'\neffect = 'extra_attack'\ndice = '2D4+'\nattack = 'close'\ndamage = 2",
    );
    let sc = duelists(hero("h", 20, "1D6+"), e);
    let s = setup(&sc);
    // Round 1: the hero waits; the brute's attack 6 (a hit), its swing 4 1 (one hit, 2 hp).
    // Round 2: the attack 1, no swing in the same fight.
    let mut d = Drive::new(&s, "6 4 1 1");
    d.idle_until(3);
    assert_eq!(uses(&d.log, 1), vec![(0, Some(0))], "{}", d.text());
    assert_eq!(
        rolls(&d.log, 1, RollKind::Close),
        vec![vec![6], vec![4, 1], vec![1]]
    );
    assert!(d.log.contains(&Event::Hit {
        by: 1,
        target: 0,
        hits: 1,
        damage: 2,
        ranged: false,
        hp: 17
    }));
    assert_eq!(d.g.st.figs[0].hp, 17);
}

#[test]
fn an_enemys_instant_kill_is_readied_on_its_attack_within_its_cycle() {
    let killer = || {
        with_skill(
            enemy("assassin", 9, "1D5+"),
            "name = 'Throat Cut'\ncycle = '1/G'\ntrigger = '5+'\neffect = 'instant_kill'",
        )
    };
    let two_heroes = |e: Figure| {
        let mut sc = duelists(hero("h", 10, "1D6+"), e);
        sc.heroes
            .push(at(hero("spare", 10, "1D6+"), 4.0, 4.0, Facing::S));
        sc
    };
    // A 5 kills the engaged hero outright.
    let sc = two_heroes(killer());
    let s = setup(&sc);
    let mut d = Drive::new(&s, "5");
    d.idle_until(2);
    assert_eq!(uses(&d.log, 2), vec![(0, Some(0))], "{}", d.text());
    assert!(
        d.log.contains(&Event::Died {
            fig: 0,
            by: Some(2),
            how: DeathKind::InstantKill
        }),
        "{}",
        d.text()
    );
    // Readied on the first attack (a miss), once a game: the next 5 is a plain hit.
    let sc = two_heroes(killer());
    let s = setup(&sc);
    let mut d = Drive::new(&s, "2 5");
    d.idle_until(3);
    assert_eq!(uses(&d.log, 2), vec![(0, Some(0))], "{}", d.text());
    assert_eq!(d.g.st.figs[0].hp, 9, "{}", d.text());
    assert!(
        !d.log
            .iter()
            .any(|e| matches!(e, Event::Died { fig: 0, .. }))
    );
}

#[test]
fn an_enemy_rerolls_only_an_attack_with_failed_dice_once_per_fight() {
    let e = with_skill(
        enemy("grim", 9, "2D4+"),
        "name = 'Grim Resolve'\ncycle = '1/F'\neffect = 'reroll'",
    );
    let sc = duelists(hero("h", 20, "1D6+"), e);
    let s = setup(&sc);
    // Round 1: 5 5, nothing failed, no reroll. Round 2: 1 5, the 1 rolled again: 6.
    // Round 3: 1 1, the skill is spent for this fight.
    let mut d = Drive::new(&s, "5 5 1 5 6 1 1");
    d.idle_until(4);
    assert_eq!(uses(&d.log, 1), vec![(0, Some(0))], "{}", d.text());
    assert_eq!(rolls(&d.log, 1, RollKind::Reroll), vec![vec![6]]);
    assert_eq!(d.g.st.figs[0].hp, 20 - 2 - 2);
    // The use is logged between the roll and its reroll.
    let skill = d
        .log
        .iter()
        .position(|e| matches!(e, Event::Skill { fig: 1, .. }))
        .unwrap();
    assert!(matches!(
        d.log[skill - 1],
        Event::Rolled {
            kind: RollKind::Close,
            ..
        }
    ));
    assert!(matches!(
        d.log[skill + 1],
        Event::Rolled {
            kind: RollKind::Reroll,
            ..
        }
    ));
}

#[test]
fn an_enemy_heals_itself_when_wounded_and_an_ally_heals_the_most_wounded_in_range() {
    let mut hidden = hero("h", 10, "1D6+");
    hidden.vision = 1;
    let menders = |a: Figure, b: Figure, c: Figure| {
        scenario(
            vec![at(hidden.clone(), 4.0, 4.0, Facing::S)],
            vec![
                at(a, 30.0, 18.0, Facing::N),
                at(b, 32.0, 18.0, Facing::N),
                at(c, 40.0, 18.0, Facing::N),
            ],
            vec![],
            Objective::Survive { rounds: 5 },
        )
    };
    // Itself: unwounded it waits; wounded it heals, once a game.
    let own = with_skill(
        enemy("troll", 8, "1D6+"),
        "name = 'Regrow'\ncycle = '1/G'\neffect = 'heal'\namount = 3",
    );
    let sc = menders(own, enemy("b", 8, "1D6+"), enemy("c", 8, "1D6+"));
    let s = setup(&sc);
    let mut d = Drive::new(&s, "");
    d.idle_until(2);
    assert_eq!(uses(&d.log, 1), vec![]);
    d.g.st.figs[1].hp = 2;
    d.idle_until(4);
    assert_eq!(uses(&d.log, 1), vec![(0, Some(1))], "{}", d.text());
    assert_eq!(d.g.st.figs[1].hp, 5);
    // An ally: the most wounded within range (c is out of it), never above its card.
    let priest = with_skill(
        enemy("priest", 8, "1D6+"),
        "name = 'Dark Mend'\ncycle = '2/G'\neffect = 'heal'\namount = 4\ntarget = 'ally'\nrange = 3.0",
    );
    let sc = menders(priest, enemy("b", 8, "1D6+"), enemy("c", 8, "1D6+"));
    let s = setup(&sc);
    let mut d = Drive::new(&s, "");
    d.g.st.figs[1].hp = 7;
    d.g.st.figs[2].hp = 3;
    d.g.st.figs[3].hp = 1;
    d.idle_until(2);
    assert_eq!(uses(&d.log, 1), vec![(0, Some(2))], "{}", d.text());
    assert_eq!(d.g.st.figs[2].hp, 7);
    // Round 2: both have lost 1; the lower index first.
    d.idle_until(3);
    assert_eq!(uses(&d.log, 1), vec![(0, Some(2)), (0, Some(1))]);
    assert_eq!((d.g.st.figs[1].hp, d.g.st.figs[2].hp), (8, 7));
    assert!(d.log.contains(&Event::Healed {
        fig: 1,
        target: 1,
        amount: 1,
        hp: 8
    }));
    assert_eq!(d.g.st.figs[3].hp, 1, "out of range");
}

#[test]
fn an_enemys_area_strikes_the_heroes_it_is_engaged_with_once_per_fight() {
    let e = with_skill(
        enemy("howler", 9, "1D6+"),
        "name = 'Howl'\ncycle = '1/F'\neffect = 'area'\ndice = '1D4+'\ndamage = 2",
    );
    let mut sc = duelists(hero("h", 10, "1D6+"), e);
    sc.heroes
        .push(at(hero("g", 10, "1D6+"), 21.37, 19.37, Facing::S));
    let s = setup(&sc);
    // Round 1: the area, a die for each hero: 4 (h loses 2) and 1 (g none); then its attack
    // 1. Round 2: the attack 1.
    let mut d = Drive::new(&s, "4 1 1 1");
    d.idle_until(3);
    assert_eq!(uses(&d.log, 2), vec![(0, None)], "{}", d.text());
    assert_eq!(rolls(&d.log, 2, RollKind::Area), vec![vec![4], vec![1]]);
    assert_eq!((d.g.st.figs[0].hp, d.g.st.figs[1].hp), (8, 10));
    assert_eq!(rolls(&d.log, 2, RollKind::Close), vec![vec![1], vec![1]]);
}

#[test]
fn an_enemys_area_at_a_point_goes_where_it_catches_the_most_heroes() {
    let mut e = with_skill(
        enemy("shaman", 9, "1D6+"),
        "name = 'Hail'\ncycle = '1/G'\neffect = 'area'\ndice = '1D4+'\nrange = 8.0\nradius = 1.0",
    );
    e.movement = 1;
    let sc = scenario(
        vec![
            at(hero("lone", 10, "1D6+"), 24.0, 24.0, Facing::S),
            at(hero("a", 10, "1D6+"), 24.0, 12.0, Facing::N),
            at(hero("b", 10, "1D6+"), 25.4, 12.0, Facing::N),
        ],
        vec![at(e, 30.0, 18.0, Facing::W)],
        vec![],
        Objective::Survive { rounds: 5 },
    );
    let s = setup(&sc);
    let mut d = Drive::new(&s, "4 4");
    d.idle_until(2);
    let used = uses(&d.log, 3);
    assert_eq!(used.len(), 1, "{}", d.text());
    assert!(matches!(used[0], (0, Some(1 | 2))), "{used:?}");
    let hp: Vec<i16> = (0..3).map(|i| d.g.st.figs[i].hp).collect();
    assert_eq!(hp, vec![10, 9, 9], "{}", d.text());
}

#[test]
fn an_enemy_never_flees() {
    let e = with_skill(
        enemy("coward", 9, "1D6+"),
        "name = 'Scurry'\ncycle = '1/F'\neffect = 'flee'",
    );
    let sc = duelists(hero("h", 20, "1D6+"), e);
    let s = setup(&sc);
    let mut d = Drive::new(&s, "1 1");
    d.idle_until(3);
    assert_eq!(uses(&d.log, 1), vec![]);
    assert!(!d.log.iter().any(|e| matches!(e, Event::Fled { .. })));
    assert!(d.g.st.engaged_with(0, 1));
}

#[test]
fn an_enemys_stealth_is_used_when_a_hero_sees_it_and_hides_it_through_the_heroes_turn() {
    let mut e = with_skill(
        enemy("shade", 4, "1D6+"),
        "name = 'Fade'\ncycle = '1/G'\neffect = 'stealth'\nradius = 2.0",
    );
    e.vision = 1;
    let archer = with_ranged(hero("archer", 6, "1D6+"), "2D4+", 12);
    let sc = scenario(
        vec![at(archer, 10.0, 18.0, Facing::E)],
        vec![at(e, 18.0, 18.0, Facing::E)],
        vec![],
        Objective::Survive { rounds: 5 },
    );
    let s = setup(&sc);
    let mut d = Drive::new(&s, "");
    // Round 1: the archer could shoot; it waits. The shade fades in its turn.
    d.pick(|o| *o == Opt::Done);
    assert!(d.offered(|o| *o == Opt::Ranged(1)));
    d.pick(|o| *o == Opt::Done);
    d.roll();
    assert_eq!(d.round(), 2);
    assert_eq!(uses(&d.log, 1), vec![(0, None)], "{}", d.text());
    // Round 2: the archer no longer sees it.
    d.pick(|o| *o == Opt::Done);
    assert!(!d.offered(|o| *o == Opt::Ranged(1)), "{:?}", d.g.options());
}

#[test]
fn call_lightning_costs_each_enemy_struck_2_hit_points_a_hit() {
    let sc = row_of_three(bundled("ru-miri-stormcall"), 4, 30.0);
    let s = setup(&sc);
    // "Roll one die for each enemy within 4 inches of the target; each loses 2 hit points on
    // 4+": a rolls 4, b rolls 3, c stands too far.
    let mut d = Drive::new(&s, "4 3");
    d.pick(|o| *o == Opt::Skill { slot: 0, target: 1 });
    let hp: Vec<i16> = (1..4).map(|i| d.g.st.figs[i].hp).collect();
    assert_eq!(hp, vec![2, 4, 4], "{}", d.text());
    assert_eq!(rolls(&d.log, 0, RollKind::Area), vec![vec![4], vec![3]]);
    let on: Vec<Option<u8>> = d
        .log
        .iter()
        .filter_map(|e| match e {
            Event::Rolled {
                kind: RollKind::Area,
                on,
                ..
            } => Some(*on),
            _ => None,
        })
        .collect();
    assert_eq!(
        on,
        vec![Some(1), Some(2)],
        "each roll names the enemy it is for"
    );
    assert!(d.log.contains(&Event::Hit {
        by: 0,
        target: 1,
        hits: 1,
        damage: 2,
        ranged: true,
        hp: 2
    }));
    assert!(d.text().contains("2 hp each"), "{}", d.text());
}

#[test]
fn hammer_blow_is_one_die_on_5_plus_costing_2_hit_points_once_per_fight() {
    let smith = bundled("ru-ardann-smithguard");
    for (die, hp) in [(5, 7), (4, 9)] {
        let sc = duelists(smith.clone(), enemy("e", 9, "1D6+"));
        let s = setup(&sc);
        // The Smithguard's attack 1 1 1 (3D4+: no hit), then Hammer Blow; the enemy's 1.
        // Round 2: both miss again.
        let mut d = Drive::new(&s, &format!("1 1 1 {die} 1 1 1 1 1"));
        d.pick(|o| *o == Opt::Close(1));
        d.pick(|o| matches!(o, Opt::Extra { slot: 1, target: 1 }));
        assert_eq!(d.g.st.figs[1].hp, hp, "{}", d.text());
        assert_eq!(d.round(), 2);
        d.pick(|o| *o == Opt::Close(1));
        assert!(
            !d.offered(|o| matches!(o, Opt::Extra { .. })),
            "{:?}",
            d.g.options()
        );
    }
}

#[test]
fn the_duel_counts_a_skills_damage() {
    // B has 2 hit points: the Smithguard's Hammer Blow (one hit of 2) kills it in round 1;
    // a blow of 1 hit point would not.
    let smith = bundled("ru-ardann-smithguard");
    let s = duel_setup(&smith, &[enemy("b", 2, "1D6+")]).unwrap();
    let mut dice = ScriptDice::parse("1 1 1 5").unwrap();
    assert_eq!(play_duel(&s, &mut dice, None), (DuelEnd::AWins, 1));
    let mut weak = smith.clone();
    weak.skills[1].damage = None;
    let s = duel_setup(&weak, &[enemy("b", 2, "1D6+")]).unwrap();
    // Round 1: 1 1 1, the blow 5 (B at 1), B's 1; round 2 (no blow in the same fight):
    // 4 1 1 finishes B.
    let mut dice = ScriptDice::parse("1 1 1 5 1 4 1 1").unwrap();
    assert_eq!(play_duel(&s, &mut dice, None), (DuelEnd::AWins, 2));
}

/// The sample mission with every enemy given skills with cycles of every form.
fn skilled_mission() -> deckwright::games::ruunara::mission::Scenario {
    let mut sc = sample_mission();
    let skills = [
        "name = 'Mend'\ncycle = '1/G'\neffect = 'heal'\namount = 2\ntarget = 'ally'\nrange = 6.0",
        "name = 'Howl'\ncycle = '1/F'\neffect = 'area'\ndice = '1D4+'\ndamage = 2",
        "name = 'Hail'\ncycle = '2/G'\neffect = 'area'\ndice = '1D4+'\nrange = 10.0\nradius = 2.0",
        "name = 'Cut'\ncycle = '1/G'\ntrigger = '6+'\neffect = 'instant_kill'",
        "name = 'Grim'\ncycle = '1/F'\neffect = 'reroll'",
        "name = 'Fade'\ncycle = '2/G'\neffect = 'stealth'\nradius = 3.0",
        "name = 'Ward'\ncycle = '1/G'\neffect = 'cover'\nradius = 2.0",
        "name = 'Swing'\ncycle = '1/F'\neffect = 'extra_attack'\ndice = '1D4+'\nattack = 'close'\ndamage = 2",
    ];
    for (k, e) in sc.enemies.iter_mut().enumerate() {
        for s in [skills[k % 8], skills[(k + 3) % 8], skills[(k + 5) % 8]] {
            e.card = with_skill(e.card.clone(), s);
        }
    }
    sc
}

/// Plays a seeded random mission with its log.
fn random_logged(s: &deckwright::games::ruunara::engine::Setup, seed: u64) -> Vec<Event> {
    use deckwright::games::ai::{Agent, Policy};
    use deckwright::games::dice::RngDice;
    use deckwright::games::game::{Game, Turn};
    let mut log = Vec::new();
    let mut g = deckwright::games::ruunara::engine::RuunaraGame::start(s, &mut log);
    let mut dice = RngDice::new(seed);
    let mut agent: Agent<RuunaraEval> = Agent::new(Policy::Random, seed ^ 7);
    loop {
        let a = match g.turn() {
            Turn::Over => break,
            Turn::Chance(c) => c.draw(&mut dice).unwrap(),
            Turn::Seat { seat, options } => agent.choose(&g, seat, options),
        };
        g.apply_logged(a, &mut log);
    }
    log
}

#[test]
fn random_missions_never_use_an_enemys_skill_beyond_its_game_cycle() {
    use deckwright::games::ruunara::model::Cycle;
    let sc = skilled_mission();
    let s = setup(&sc);
    let mut used_any = 0;
    for seed in 0..40 {
        let log = random_logged(&s, seed);
        let mut count = std::collections::HashMap::new();
        for e in &log {
            if let Event::Skill { fig, slot, .. } = e
                && usize::from(*fig) >= s.heroes
            {
                *count.entry((*fig, *slot)).or_insert(0u32) += 1;
            }
        }
        for ((fig, slot), n) in count {
            used_any += n;
            let d = s.figs[usize::from(fig)].skills[usize::from(slot)].unwrap();
            assert_ne!(d.cycle, Cycle::Constant, "a constant skill is never used");
            if let Cycle::PerGame(max) = d.cycle {
                assert!(
                    n <= max,
                    "seed {seed}: fig {fig} slot {slot} used {n} of {max}"
                );
            }
        }
        // Every hit's hit points check out from the figure's hp before it.
        let mut hp: Vec<i16> = s.figs.iter().map(|f| f.hp).collect();
        for e in &log {
            match e {
                Event::Hit {
                    target,
                    hits,
                    damage,
                    hp: left,
                    ..
                } => {
                    let t = usize::from(*target);
                    let want = (hp[t] - i16::from(*hits) * i16::from(*damage)).max(0);
                    assert_eq!(*left, want, "seed {seed}: {e:?}");
                    hp[t] = *left;
                }
                Event::Healed { target, hp: h, .. } | Event::Freed { fig: target, hp: h } => {
                    hp[usize::from(*target)] = *h;
                }
                _ => {}
            }
        }
    }
    assert!(
        used_any > 40,
        "the enemies used their skills {used_any} times"
    );
}
