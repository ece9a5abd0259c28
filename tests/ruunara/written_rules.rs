//! Issue 29: the enemies moving as written, the spec's endings, spells in the combat phase,
//! noise from shots and a log that can be checked, each in a scenario with scripted dice.

use deckwright::games::ruunara::engine::{Event, Opt, Pt, Reason, RuunaraEnding, Status};
use deckwright::games::ruunara::mission::{Facing, Objective, PlacedNeutral, SceneryKind, Zone};

use super::common::*;

/// Hero `i` acts next (when the choice is still open: the last one acts by itself).
fn act(d: &mut Drive, i: u8) {
    d.roll();
    if d.offered(|o| *o == Opt::Activate(i)) {
        d.pick(|o| *o == Opt::Activate(i));
    }
}

fn skill_opt(o: &Opt) -> bool {
    matches!(o, Opt::Skill { .. })
}

/// The moves of `fig` in the log: (reason, start, end, toward).
fn moves_of(d: &Drive, fig: u8) -> Vec<(Reason, Pt, Pt, Option<u8>)> {
    d.log
        .iter()
        .filter_map(|e| match e {
            Event::Moved {
                fig: f,
                path,
                why,
                toward,
                ..
            } if *f == fig => Some((*why, path[0], *path.last().unwrap(), *toward)),
            _ => None,
        })
        .collect()
}

/// The angle (radians) between the move `a`-`b` and the bearing from `a` to `goal`.
fn off_bearing(a: Pt, b: Pt, goal: Pt) -> f64 {
    let m = (b.y - a.y).atan2(b.x - a.x);
    let g = (goal.y - a.y).atan2(goal.x - a.x);
    let d = (m - g).abs() % std::f64::consts::TAU;
    d.min(std::f64::consts::TAU - d)
}

#[test]
fn a_noise_walk_ends_nearer_the_fight_along_its_bearing_when_a_fighter_bars_the_straight_way() {
    // The hero stands on the straight way to the fight: the walk still goes east, nearer.
    let sc = scenario(
        vec![at(hero("h", 10, "1D6+"), 17.3, 18.0, Facing::E)],
        vec![
            at(enemy("fighter", 10, "1D6+"), 18.67, 18.0, Facing::W),
            at(enemy("listener", 4, "1D6+"), 9.0, 18.0, Facing::W),
        ],
        vec![],
        Objective::Survive { rounds: 6 },
    );
    let s = setup(&sc);
    let mut d = Drive::new(&s, "1 1");
    d.pick(|o| *o == Opt::Close(1));
    let fight = d
        .log
        .iter()
        .find_map(|e| match e {
            Event::Heard { fig: 2, at } => Some(*at),
            _ => None,
        })
        .expect("the listener hears the fight");
    // Its walk, before the hero it then sees draws the rest of its move.
    let walks = moves_of(&d, 2);
    let (why, a, b, _) = walks[0];
    assert_eq!(why, Reason::Noise);
    assert!(b.dist(fight) < a.dist(fight) - 1.5, "{}", d.text());
    assert!(off_bearing(a, b, fight) < 0.5, "{}", d.text());
}

#[test]
fn an_enemy_that_sees_a_hero_advances_toward_it_between_two_allies_and_past_a_third() {
    // The wraith is flanked by two gnawers and a third ally stands 0.9" off its way: it
    // does not hide the archer, but bars the straight walk.
    let mut wraith = enemy("wraith", 5, "2D3+");
    wraith.vision = 9;
    let sc = scenario(
        vec![at(hero("archer", 6, "1D6+"), 12.0, 18.0, Facing::E)],
        vec![
            at(wraith, 20.0, 18.0, Facing::W),
            at(enemy("gnawer-a", 4, "1D6+"), 20.0, 19.37, Facing::E),
            at(enemy("gnawer-b", 4, "1D6+"), 20.0, 16.63, Facing::E),
            at(enemy("beside", 4, "1D6+"), 17.0, 18.9, Facing::E),
        ],
        vec![],
        Objective::Survive { rounds: 6 },
    );
    let s = setup(&sc);
    let mut d = Drive::new(&s, "");
    d.idle_until(2);
    let m = moves_of(&d, 1);
    assert_eq!(m.len(), 1, "{}", d.text());
    let (why, a, b, toward) = m[0];
    assert_eq!((why, toward), (Reason::Sighted, Some(0)));
    let hero = Pt::new(12.0, 18.0);
    assert!(b.dist(hero) < a.dist(hero) - 1.5, "{}", d.text());
}

#[test]
fn a_noise_walk_that_ends_engaged_fights_there_rather_than_charging_a_hero_it_sees() {
    let sc = scenario(
        vec![
            at(hero("a", 10, "1D6+"), 5.0, 18.0, Facing::E),
            at(hero("b", 10, "1D6+"), 12.0, 19.6, Facing::S),
            at(hero("c", 10, "1D6+"), 8.0, 20.5, Facing::E),
        ],
        vec![
            at(enemy("fighter", 10, "1D6+"), 6.37, 18.0, Facing::W),
            at(enemy("listener", 4, "1D6+"), 14.0, 18.0, Facing::E),
        ],
        vec![],
        Objective::Survive { rounds: 6 },
    );
    let s = setup(&sc);
    let mut d = Drive::new(&s, "1 1 1");
    act(&mut d, 0);
    d.pick(|o| *o == Opt::Close(3));
    act(&mut d, 1);
    d.pick(|o| *o == Opt::Done);
    act(&mut d, 2);
    d.pick(|o| *o == Opt::Done);
    d.roll();
    let m = moves_of(&d, 4);
    assert_eq!(m.len(), 1, "{}", d.text());
    assert_eq!(m[0].0, Reason::Noise);
    // Engaged with b by its walk, it attacks b and stays.
    assert!(
        d.log.iter().any(|e| matches!(
            e,
            Event::Rolled {
                fig: 4,
                target: Some(1),
                ..
            }
        )),
        "{}",
        d.text()
    );
    assert!(d.g.st.engaged_with(4, 1), "{}", d.text());
}

#[test]
fn a_climb_is_charged_once_when_a_paths_waypoint_stands_on_the_piece() {
    let sc = scenario(
        vec![at(hero("h", 6, "2D4+"), 10.0, 10.0, Facing::E)],
        vec![at(enemy("far", 4, "1D6+"), 44.0, 32.0, Facing::N)],
        vec![piece(12.0, 5.0, 1.0, 10.0, 1.5, SceneryKind::Wall)],
        Objective::Eliminate,
    );
    let s = setup(&sc);
    let d = Drive::new(&s, "");
    let (a, w, b) = (
        Pt::new(10.0, 10.0),
        Pt::new(12.5, 10.0),
        Pt::new(13.7, 10.0),
    );
    let up = d.g.st.seg_cost(&s, 0, a, w).unwrap();
    let down = d.g.st.seg_cost(&s, 0, w, b).unwrap();
    let straight = d.g.st.seg_cost(&s, 0, a, b).unwrap();
    assert!((up - (2.5 + 1.5)).abs() < 1e-9, "{up}");
    assert!((down - 1.2).abs() < 1e-9, "{down}");
    assert!(
        (up + down - straight).abs() < 1e-9,
        "{up} {down} {straight}"
    );
}

#[test]
fn a_fight_heard_is_answered_in_the_next_turn_only_never_two_rounds_later() {
    // The chaser pursues a hero who fled while a fight it hears ends; once its pursuit is
    // over it does not walk to that old fight.
    let mut runner = with_skill(
        hero("runner", 10, "1D6+"),
        "name = 'Vanish'\ncycle = '1/G'\neffect = 'flee'",
    );
    runner.movement = 7;
    let mut chaser = enemy("chaser", 6, "1D6+");
    chaser.vision = 1;
    let sc = scenario(
        vec![
            at(runner, 30.0, 18.0, Facing::E),
            at(hero("f", 10, "1D6+"), 35.0, 25.0, Facing::N),
        ],
        vec![
            at(chaser, 31.37, 18.0, Facing::W),
            at(enemy("g", 1, "1D6+"), 35.0, 26.37, Facing::S),
        ],
        vec![],
        Objective::Survive { rounds: 8 },
    );
    let s = setup(&sc);
    let mut d = Drive::new(&s, "6");
    act(&mut d, 0);
    d.pick(skill_opt);
    d.pick(|o| *o == Opt::Line(Facing::W));
    act(&mut d, 1);
    d.pick(|o| *o == Opt::Close(3));
    assert_eq!(d.g.st.figs[3].status, Status::Dead);
    act(&mut d, 0);
    d.pick(|o| *o == Opt::Line(Facing::W));
    d.idle_until(5);
    let pursuits = moves_of(&d, 2)
        .iter()
        .filter(|m| m.0 == Reason::Pursuit)
        .count();
    assert_eq!(pursuits, 2, "{}", d.text());
    assert!(
        !d.log
            .iter()
            .any(|e| matches!(e, Event::Heard { fig: 2, .. })),
        "{}",
        d.text()
    );
    assert!(moves_of(&d, 2).iter().all(|m| m.0 != Reason::Noise));
}

#[test]
fn a_rally_comes_only_from_within_4_inches_of_the_ally_when_it_is_made() {
    // The ally shot at charges the archer first: the other, now 6" from it, stays.
    let archer = with_ranged(hero("archer", 6, "1D4+"), "2D4+", 12);
    let sc = scenario(
        vec![at(archer, 11.0, 18.0, Facing::E)],
        vec![
            at(enemy("shot", 4, "1D6+"), 20.0, 18.0, Facing::W),
            at(enemy("near", 4, "1D6+"), 23.0, 19.0, Facing::E),
        ],
        vec![],
        Objective::Survive { rounds: 6 },
    );
    let s = setup(&sc);
    let mut d = Drive::new(&s, "1 5");
    d.pick(|o| *o == Opt::Done);
    d.pick(|o| *o == Opt::Ranged(1));
    d.idle_until(2);
    assert_eq!(moves_of(&d, 1)[0].0, Reason::Sighted, "{}", d.text());
    assert!(moves_of(&d, 2).is_empty(), "{}", d.text());
}

#[test]
fn a_rally_is_not_carried_to_a_later_round_when_noise_comes_first() {
    // Shot at, its neighbour both rallies and hears a fight nearby: the fight (step 3)
    // comes first, and the rally is not made a round late.
    let archer = with_ranged(hero("archer", 6, "1D4+"), "2D4+", 12);
    let mut near = enemy("near", 4, "1D6+");
    near.vision = 1;
    let sc = scenario(
        vec![
            at(archer, 10.0, 20.0, Facing::E),
            at(hero("h", 10, "1D6+"), 28.0, 14.0, Facing::E),
        ],
        vec![
            at(enemy("shot", 4, "1D6+"), 20.0, 20.0, Facing::N),
            at(near, 23.0, 18.0, Facing::N),
            at(enemy("fighter", 1, "1D6+"), 29.37, 14.0, Facing::W),
        ],
        vec![],
        Objective::Survive { rounds: 6 },
    );
    let s = setup(&sc);
    // Round 1: the shot hits, h and the fighter miss; round 2: h kills the fighter.
    let mut d = Drive::new(&s, "1 5 1 1 6");
    act(&mut d, 0);
    d.pick(|o| *o == Opt::Done);
    d.pick(|o| *o == Opt::Ranged(2));
    act(&mut d, 1);
    d.pick(|o| *o == Opt::Close(4));
    d.idle_until(2);
    act(&mut d, 0);
    d.pick(|o| *o == Opt::Done);
    if d.offered(|o| *o == Opt::Done) {
        d.pick(|o| *o == Opt::Done);
    }
    act(&mut d, 1);
    d.pick(|o| *o == Opt::Close(4));
    assert_eq!(d.g.st.figs[4].status, Status::Dead, "{}", d.text());
    d.idle_until(3);
    let m = moves_of(&d, 3);
    assert!(!m.is_empty(), "{}", d.text());
    assert_eq!(m[0].0, Reason::Noise, "{}", d.text());
    assert!(m.iter().all(|m| m.0 != Reason::Rally), "{}", d.text());
}

fn hostile_neutral(x: f64, y: f64) -> PlacedNeutral {
    PlacedNeutral {
        card: enemy("beast", 4, "1D6+"),
        x,
        y,
        facing: Facing::N,
        hostile: true,
    }
}

fn ending(d: &Drive) -> Option<(RuunaraEnding, u32)> {
    d.log.iter().find_map(|e| match e {
        Event::Ended { ending, round } => Some((*ending, *round)),
        _ => None,
    })
}

#[test]
fn eliminate_counts_a_captured_enemy_only_when_no_enemy_is_left_free_to_rescue_it() {
    let archer = with_ranged(hero("archer", 6, "1D4+"), "2D4+", 12);
    for neutral in [false, true] {
        let mut sc = scenario(
            vec![at(archer.clone(), 10.0, 18.0, Facing::E)],
            vec![at(enemy("e", 1, "1D6+"), 18.0, 18.0, Facing::E)],
            vec![],
            Objective::Eliminate,
        );
        if neutral {
            sc.neutrals.push(hostile_neutral(42.0, 32.0));
        }
        let s = setup(&sc);
        let mut d = Drive::new(&s, "4 4");
        d.pick(|o| *o == Opt::Done);
        d.pick(|o| *o == Opt::Ranged(1));
        assert_eq!(d.g.st.figs[1].status, Status::Captured);
        d.idle_until(9);
        let expect = if neutral {
            // The hostile neutral could still rescue it: won once it is executed.
            (RuunaraEnding::Eliminated, 5)
        } else {
            (RuunaraEnding::Eliminated, 1)
        };
        assert_eq!(ending(&d), Some(expect), "{}", d.text());
    }
}

#[test]
fn reach_needs_a_captured_hero_freed_or_executed_first() {
    let slinger = with_ranged(enemy("slinger", 4, "1D6+"), "2D6+", 10);
    let sc = scenario(
        vec![
            at(hero("b", 1, "1D6+"), 10.0, 18.0, Facing::W),
            at(hero("a", 6, "1D6+"), 40.0, 18.0, Facing::E),
        ],
        vec![at(slinger, 16.0, 18.0, Facing::W)],
        vec![],
        Objective::Reach {
            exit: Zone {
                x: 38.0,
                y: 14.0,
                w: 8.0,
                d: 8.0,
            },
        },
    );
    let s = setup(&sc);
    let mut d = Drive::new(&s, "6 6");
    d.idle_until(2);
    assert_eq!(d.g.st.figs[0].status, Status::Captured, "{}", d.text());
    d.idle_until(9);
    // Reached only once the captive is executed, at the start of round 5.
    assert_eq!(
        ending(&d),
        Some((RuunaraEnding::Reached, 5)),
        "{}",
        d.text()
    );
}

#[test]
fn a_freed_captive_returns_with_6_hp_or_its_cards_if_fewer_after_a_ranged_defeat() {
    for (card_hp, collapsed, had, expect) in [(10, true, 0, 6), (4, true, 0, 4), (10, false, 3, 3)]
    {
        let sc = scenario(
            vec![
                at(hero("h", 10, "1D6+"), 22.74, 18.0, Facing::W),
                at(hero("c", card_hp, "1D6+"), 20.0, 18.0, Facing::E),
            ],
            vec![at(enemy("guard", 1, "1D6+"), 21.37, 18.0, Facing::E)],
            vec![],
            Objective::Survive { rounds: 8 },
        );
        let s = setup(&sc);
        let mut d = Drive::new(&s, "6");
        {
            let c = &mut d.g.st.figs[1];
            c.status = Status::Captured;
            c.collapsed = collapsed;
            c.hp = had;
            c.guards = 1 << 2;
            c.execute_round = 5;
        }
        act(&mut d, 0);
        d.pick(|o| *o == Opt::Close(2));
        assert!(
            d.log.contains(&Event::Freed { fig: 1, hp: expect }),
            "{card_hp} {collapsed}: {}",
            d.text()
        );
    }
}

#[test]
fn the_guard_moves_to_its_captive_in_its_own_next_activation_not_in_the_shooters() {
    let slinger = with_ranged(enemy("slinger", 4, "1D6+"), "2D6+", 10);
    let sc = scenario(
        vec![
            at(hero("b", 1, "1D6+"), 10.0, 18.0, Facing::W),
            at(hero("a", 6, "1D6+"), 40.0, 30.0, Facing::N),
        ],
        vec![
            at(enemy("guard", 4, "1D6+"), 14.0, 22.0, Facing::N),
            at(slinger, 16.0, 18.0, Facing::W),
        ],
        vec![],
        Objective::Survive { rounds: 8 },
    );
    let s = setup(&sc);
    let mut d = Drive::new(&s, "6 6");
    d.idle_until(2);
    assert!(
        d.log.iter().any(|e| matches!(
            e,
            Event::Captured { fig: 0, guards, .. } if guards == &vec![2]
        )),
        "{}",
        d.text()
    );
    // Not moved inside the slinger's activation (the guard had acted already).
    assert!(moves_of(&d, 2).is_empty(), "{}", d.text());
    d.idle_until(3);
    let round2 = d
        .log
        .iter()
        .position(|e| *e == Event::Round { round: 2 })
        .unwrap();
    let act = d.log[round2..]
        .iter()
        .position(|e| *e == Event::Activate { fig: 2 })
        .unwrap()
        + round2;
    assert!(
        matches!(
            d.log[act + 1],
            Event::Moved {
                fig: 2,
                why: Reason::Guard,
                toward: Some(0),
                ..
            }
        ),
        "{}",
        d.text()
    );
    assert!(d.g.st.figs[2].at.dist(d.g.st.figs[0].at) < 1.4);
}

#[test]
fn a_captured_figure_neither_takes_nor_stops_a_shot() {
    let slinger = with_ranged(enemy("slinger", 4, "1D6+"), "1D6+", 12);
    let sc = scenario(
        vec![
            at(hero("a", 6, "1D6+"), 12.0, 18.0, Facing::E),
            at(hero("c", 6, "1D6+"), 15.0, 18.0, Facing::E),
        ],
        vec![at(slinger, 20.0, 18.0, Facing::W)],
        vec![],
        Objective::Survive { rounds: 8 },
    );
    let s = setup(&sc);
    let mut d = Drive::new(&s, "6");
    {
        let c = &mut d.g.st.figs[1];
        c.status = Status::Captured;
        c.collapsed = true;
        c.hp = 0;
        c.execute_round = 5;
    }
    act(&mut d, 0);
    d.idle_until(2);
    assert!(
        d.log.iter().any(|e| matches!(
            e,
            Event::Rolled {
                fig: 2,
                target: Some(0),
                ..
            }
        )),
        "{}",
        d.text()
    );
    assert_eq!(d.g.st.figs[0].hp, 5);
    assert_eq!(d.g.st.figs[1].hp, 0);
}

#[test]
fn a_shot_is_heard_and_the_listener_walks_toward_it_for_one_turn() {
    let archer = with_ranged(hero("archer", 6, "1D4+"), "2D4+", 12);
    let sc = scenario(
        vec![at(archer, 10.0, 18.0, Facing::E)],
        vec![
            at(enemy("target", 4, "1D6+"), 20.0, 18.0, Facing::E),
            at(enemy("listener", 4, "1D6+"), 20.0, 25.0, Facing::N),
        ],
        vec![],
        Objective::Survive { rounds: 6 },
    );
    let s = setup(&sc);
    let mut d = Drive::new(&s, "1 1");
    d.pick(|o| *o == Opt::Done);
    d.pick(|o| *o == Opt::Ranged(1));
    d.idle_until(3);
    let m = moves_of(&d, 2);
    assert!(
        d.log
            .iter()
            .any(|e| matches!(e, Event::Heard { fig: 2, .. })),
        "{}",
        d.text()
    );
    assert_eq!(m[0].0, Reason::Noise, "{}", d.text());
    // One walk toward the shot, then back to its post.
    assert_eq!(
        m.iter().filter(|m| m.0 == Reason::Noise).count(),
        1,
        "{}",
        d.text()
    );
    assert_eq!(m.last().unwrap().0, Reason::Return, "{}", d.text());
}

#[test]
fn a_spell_may_be_cast_in_the_combat_phase() {
    let healer = with_skill(
        hero("healer", 8, "1D6+"),
        "name = 'Mend'\ncycle = '1/G'\neffect = 'heal'\namount = 2\ntarget = 'self'",
    );
    let sc = scenario(
        vec![at(healer, 10.0, 18.0, Facing::E)],
        vec![at(enemy("far", 4, "1D6+"), 44.0, 32.0, Facing::N)],
        vec![],
        Objective::Survive { rounds: 4 },
    );
    let s = setup(&sc);
    let mut d = Drive::new(&s, "");
    d.g.st.figs[0].hp = 3;
    d.pick(|o| *o == Opt::Done);
    // The combat phase offers it, the policy chooses.
    d.pick(skill_opt);
    assert!(d.log.contains(&Event::Healed {
        fig: 0,
        target: 0,
        amount: 2,
        hp: 5
    }));
}

#[test]
fn the_log_names_each_rolls_target_and_result_the_shooters_facing_and_the_fights_end() {
    let archer = with_ranged(hero("archer", 6, "1D4+"), "2D4+", 12);
    let sc = scenario(
        vec![at(archer, 10.0, 18.0, Facing::Ne)],
        vec![
            at(enemy("e", 4, "1D6+"), 18.0, 18.0, Facing::E),
            at(enemy("far", 4, "1D6+"), 44.0, 32.0, Facing::N),
        ],
        vec![],
        Objective::Eliminate,
    );
    let s = setup(&sc);
    let mut d = Drive::new(&s, "1 5");
    d.pick(|o| *o == Opt::Done);
    d.pick(|o| *o == Opt::Ranged(1));
    let turned = d
        .log
        .iter()
        .position(|e| {
            matches!(
                e,
                Event::Turned {
                    fig: 0,
                    facing: Facing::E,
                    ..
                }
            )
        })
        .expect("the shooter turns to its target");
    assert!(
        matches!(
            d.log[turned + 1],
            Event::Rolled {
                fig: 0,
                target: Some(1),
                hits: 1,
                facing: Some(Facing::E),
                ..
            }
        ),
        "{}",
        d.text()
    );
    let json = d.log[turned + 1].fields();
    assert_eq!(json["result"], "hit");
    assert_eq!(json["target"], 1);
    assert_eq!(json["facing"], "e");

    // A close fight that ends with a kill.
    let sc = scenario(
        vec![at(hero("h", 10, "1D6+"), 18.63, 18.0, Facing::E)],
        vec![
            at(enemy("e", 1, "1D6+"), 20.0, 18.0, Facing::W),
            at(enemy("far", 4, "1D6+"), 44.0, 32.0, Facing::N),
        ],
        vec![],
        Objective::Eliminate,
    );
    let s = setup(&sc);
    let mut d = Drive::new(&s, "1 1 6");
    d.pick(|o| *o == Opt::Close(1));
    let miss = d
        .log
        .iter()
        .find(|e| matches!(e, Event::Rolled { fig: 0, .. }))
        .unwrap()
        .fields();
    assert_eq!(miss["result"], "miss");
    d.pick(|o| *o == Opt::Close(1));
    let died = d
        .log
        .iter()
        .position(|e| matches!(e, Event::Died { fig: 1, .. }))
        .unwrap();
    assert_eq!(
        d.log[died + 1],
        Event::FightEnded {
            figs: vec![0],
            round: 2
        },
        "{}",
        d.text()
    );
}
