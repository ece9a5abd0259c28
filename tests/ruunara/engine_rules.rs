//! The rulings of `spec/ruunara.md`, each in a scenario with scripted dice.

use deckwright::games::ruunara::engine::{
    CaptureKind, DeathKind, Event, Opt, Reason, RollKind, Status,
};
use deckwright::games::ruunara::mission::{Facing, Objective, SceneryKind};

use super::common::*;

fn far_enemy() -> deckwright::games::ruunara::mission::Placed {
    at(enemy("far", 4, "1D6+"), 44.0, 32.0, Facing::N)
}

#[test]
fn a_climb_that_does_not_fit_is_illegal_and_one_that_fits_costs_its_height() {
    for (height, fits) in [(4.0, false), (2.0, true)] {
        let sc = scenario(
            vec![at(hero("h", 6, "2D4+"), 10.0, 10.0, Facing::E)],
            vec![far_enemy()],
            vec![piece(12.0, 5.0, 1.0, 10.0, height, SceneryKind::Wall)],
            Objective::Eliminate,
        );
        let s = setup(&sc);
        let mut d = Drive::new(&s, "");
        d.roll();
        // On top of the wall: 2.5" and the wall's height.
        let on_top = d.g.legal_move_to(0, 12.5, 10.0);
        assert_eq!(on_top.is_some(), fits, "height {height}");
        if let Some(p) = on_top {
            assert!((p.cost - (2.5 + height)).abs() < 1e-9);
        }
        // Over it and beyond: 3.5" + 2" = 5.5" is more than the 5" of movement.
        assert!(d.g.legal_move_to(0, 13.5, 10.0).is_none());
        // Short of it: flat ground.
        assert!(d.g.legal_move_to(0, 11.0, 10.0).is_some());
        // Not with its base half into the wall.
        assert!(d.g.legal_move_to(0, 11.5, 10.0).is_none());
        // Moving east as far as it goes stops short of a wall it cannot climb.
        d.pick(|o| *o == Opt::Line(Facing::E));
        let x = d.g.st.figs[0].at.x;
        if fits {
            assert!((12.0..=13.0).contains(&x), "{x}");
        } else {
            // Its base stops clear of the wall.
            assert!(x <= 12.0 - 0.68 + 1e-9, "{x}");
        }
    }
}

#[test]
fn a_wall_that_hides_blocks_the_shot_and_one_that_only_covers_cancels_on_3_plus() {
    let archer = with_ranged(hero("archer", 6, "1D4+"), "2D4+", 12);
    let run = |height: f64, wall_x: f64, dice: &str| {
        let sc = scenario(
            vec![at(archer.clone(), 10.0, 18.0, Facing::E)],
            vec![
                at(enemy("e", 4, "1D6+"), 20.0, 18.0, Facing::E),
                far_enemy(),
            ],
            vec![piece(wall_x, 16.0, 0.5, 4.0, height, SceneryKind::Wall)],
            Objective::Eliminate,
        );
        let s = setup(&sc);
        let mut d = Drive::new(&s, dice);
        d.pick(|o| *o == Opt::Done);
        let shot = d.offered(|o| *o == Opt::Ranged(1));
        if shot {
            d.pick(|o| *o == Opt::Ranged(1));
        }
        (shot, d.g.st.figs[1].hp, d.log.clone())
    };
    // 3" high: it hides the target, no shot.
    let (shot, hp, _) = run(3.0, 18.0, "");
    assert!(!shot);
    assert_eq!(hp, 4);
    // 1.5" high within 1" of the target's base: two hits, the cover dice 3 and 1 cancel one.
    let (shot, hp, log) = run(1.5, 18.0, "5 6 3 1");
    assert!(shot);
    assert_eq!(hp, 3);
    assert!(log.contains(&Event::Covered {
        target: 1,
        cancelled: 1
    }));
    // The same wall far from the target gives no cover: both hits land.
    let (shot, hp, log) = run(1.5, 13.0, "5 6");
    assert!(shot);
    assert_eq!(hp, 2);
    assert!(!log.iter().any(|e| matches!(e, Event::Covered { .. })));
}

#[test]
fn the_figure_in_the_foreground_takes_the_ranged_hits() {
    let archer = with_ranged(hero("archer", 6, "1D4+"), "2D4+", 12);
    let sc = scenario(
        vec![at(archer, 10.0, 18.0, Facing::E)],
        vec![
            at(enemy("front", 4, "1D6+"), 14.0, 18.0, Facing::E),
            at(enemy("back", 4, "1D6+"), 18.0, 18.0, Facing::E),
            far_enemy(),
        ],
        vec![],
        Objective::Eliminate,
    );
    let s = setup(&sc);
    let mut d = Drive::new(&s, "5 5");
    d.pick(|o| *o == Opt::Done);
    d.pick(|o| *o == Opt::Ranged(2));
    assert!(
        d.log.contains(&Event::Foreground {
            by: 0,
            aimed: 2,
            target: 1
        }),
        "{}",
        d.text()
    );
    assert_eq!(d.g.st.figs[1].hp, 2);
    assert_eq!(d.g.st.figs[2].hp, 4);
}

#[test]
fn a_group_rallies_to_an_ally_shot_at_and_faces_the_shooter() {
    let archer = with_ranged(hero("archer", 6, "1D4+"), "2D4+", 12);
    let sc = scenario(
        vec![at(archer, 10.0, 18.0, Facing::E)],
        vec![
            at(enemy("shot", 4, "1D6+"), 20.0, 18.0, Facing::E),
            at(enemy("near", 4, "1D6+"), 23.0, 19.0, Facing::E),
            at(enemy("far", 4, "1D6+"), 30.0, 18.0, Facing::E),
        ],
        vec![],
        Objective::Eliminate,
    );
    let s = setup(&sc);
    let mut d = Drive::new(&s, "1 5");
    d.pick(|o| *o == Opt::Done);
    d.pick(|o| *o == Opt::Ranged(1));
    let rally: Vec<_> = d
        .log
        .iter()
        .filter_map(|e| match e {
            Event::Moved {
                fig,
                why: Reason::Rally,
                path,
                ..
            } => Some((*fig, *path.last().unwrap())),
            _ => None,
        })
        .collect();
    assert_eq!(rally.len(), 1, "{}", d.text());
    assert_eq!(rally[0].0, 2);
    // In base contact with the ally shot at, facing the archer.
    let near = d.g.st.figs[2];
    assert!(near.at.dist(d.g.st.figs[1].at) < 1.4, "{:?}", near.at);
    assert_eq!(near.facing, Facing::W);
    assert_eq!(d.g.st.figs[3].at.x, 30.0);
}

#[test]
fn noise_draws_an_enemy_2_inches_a_round_and_it_returns_when_the_fight_ends() {
    let sc = scenario(
        vec![at(hero("h", 10, "2D4+"), 18.6, 18.0, Facing::E)],
        vec![
            at(enemy("fighter", 1, "1D6+"), 20.0, 18.0, Facing::W),
            at(enemy("listener", 4, "1D6+"), 20.0, 25.0, Facing::N),
        ],
        vec![piece(16.0, 20.5, 8.0, 2.5, 8.0, SceneryKind::Building)],
        Objective::Survive { rounds: 6 },
    );
    let s = setup(&sc);
    // Round 1: the hero misses (1 1), the fighter misses (1); round 2: the hero kills it (6 1).
    let mut d = Drive::new(&s, "1 1 1 6 1");
    d.pick(|o| *o == Opt::Close(1));
    assert!(
        d.log.contains(&Event::Heard {
            fig: 2,
            at: deckwright::games::ruunara::engine::Pt::new(19.3, 18.0)
        }),
        "{}",
        d.text()
    );
    let moves = |d: &Drive, why: Reason| -> Vec<f64> {
        d.log
            .iter()
            .filter_map(|e| match e {
                Event::Moved {
                    fig: 2,
                    why: w,
                    cost,
                    ..
                } if *w == why => Some(*cost),
                _ => None,
            })
            .collect()
    };
    let noise = moves(&d, Reason::Noise);
    assert_eq!(noise.len(), 1, "{}", d.text());
    assert!(noise[0] > 1.5 && noise[0] <= 2.0 + 1e-9, "{noise:?}");
    let drawn = d.g.st.figs[2].at;
    d.pick(|o| *o == Opt::Close(1));
    assert_eq!(d.g.st.figs[1].status, Status::Dead);
    let back = moves(&d, Reason::Return);
    assert_eq!(back.len(), 1, "{}", d.text());
    assert!(back[0] <= 2.0 + 1e-9 && back[0] > 1.0, "{back:?}");
    let post = s.figs[2].start;
    assert!(d.g.st.figs[2].at.dist(post) < drawn.dist(post));
}

#[test]
fn a_figure_engaged_more_than_4_rounds_is_captured_and_executed_at_the_start_of_the_4th_round_held()
{
    let sc = scenario(
        vec![
            at(hero("held", 20, "1D6+"), 20.0, 18.0, Facing::E),
            at(hero("away", 6, "1D6+"), 4.0, 4.0, Facing::S),
        ],
        vec![at(enemy("captor", 20, "1D6+"), 21.37, 18.0, Facing::W)],
        vec![],
        Objective::Eliminate,
    );
    let s = setup(&sc);
    let mut d = Drive::new(&s, "1 1 1 1");
    d.idle_until(6);
    let captured: Vec<_> = d
        .log
        .iter()
        .filter(|e| matches!(e, Event::Captured { .. }))
        .cloned()
        .collect();
    assert_eq!(
        captured,
        vec![Event::Captured {
            fig: 0,
            how: CaptureKind::Held,
            guards: vec![2],
            execute: 9
        }],
        "{}",
        d.text()
    );
    // Captured at the start of round 5 (its 5th engaged round).
    let pos = |d: &Drive, pred: &dyn Fn(&Event) -> bool| d.log.iter().position(pred).unwrap();
    let cap = pos(&d, &|e| matches!(e, Event::Captured { .. }));
    let r5 = pos(&d, &|e| *e == Event::Round { round: 5 });
    assert!(cap > r5);
    assert!(
        !d.log[r5..cap]
            .iter()
            .any(|e| matches!(e, Event::Activate { .. }))
    );
    d.idle_until(8);
    assert_eq!(d.g.st.figs[0].status, Status::Captured, "{}", d.text());
    d.idle_until(9);
    assert_eq!(d.g.st.figs[0].status, Status::Dead);
    let died = pos(&d, &|e| {
        matches!(
            e,
            Event::Died {
                fig: 0,
                how: DeathKind::ClockRanOut,
                ..
            }
        )
    });
    let r9 = pos(&d, &|e| *e == Event::Round { round: 9 });
    assert!(
        died > r9
            && !d.log[r9..died]
                .iter()
                .any(|e| matches!(e, Event::Activate { .. }))
    );
}

#[test]
fn killing_the_guard_frees_a_collapsed_hero_with_6_hit_points() {
    let slinger = with_ranged(enemy("slinger", 4, "1D6+"), "8D2+", 10);
    let sc = scenario(
        vec![
            at(hero("shot", 8, "1D6+"), 10.0, 18.0, Facing::E),
            at(hero("rescuer", 8, "3D4+"), 10.0, 26.0, Facing::S),
        ],
        vec![
            at(slinger, 18.0, 18.0, Facing::W),
            at(enemy("guard", 1, "1D6+"), 12.5, 22.0, Facing::N),
        ],
        vec![],
        Objective::Eliminate,
    );
    let s = setup(&sc);
    let mut d = Drive::new(&s, "6 6 6 6 6 6 6 6 6 1 1 1 1 1 1 1 1 1 1");
    d.idle_until(2);
    assert_eq!(d.g.st.figs[0].status, Status::Captured, "{}", d.text());
    assert!(
        d.log.contains(&Event::Captured {
            fig: 0,
            how: CaptureKind::Collapsed,
            guards: vec![3],
            execute: 5
        }),
        "{}",
        d.text()
    );
    assert!(d.log.iter().any(|e| matches!(
        e,
        Event::Moved {
            fig: 3,
            why: Reason::Guard,
            ..
        }
    )));
    d.pick(|o| *o == Opt::Engage(3));
    d.pick(|o| *o == Opt::Close(3));
    assert!(
        d.log.contains(&Event::Freed { fig: 0, hp: 6 }),
        "{}",
        d.text()
    );
    assert_eq!(d.g.st.figs[0].status, Status::Free);
    let _ = RollKind::Cover;
}

#[test]
fn a_hero_dragged_within_its_movement_moves_there_and_not_beyond() {
    let sc = scenario(
        vec![at(hero("h", 6, "2D4+"), 10.0, 10.0, Facing::E)],
        vec![far_enemy()],
        vec![],
        Objective::Eliminate,
    );
    let s = setup(&sc);
    let mut d = Drive::new(&s, "");
    d.roll();
    assert!(
        d.g.legal_move_to(0, 16.0, 10.0).is_none(),
        "6\" is beyond 5\""
    );
    let p = d.g.legal_move_to(0, 13.0, 14.0).expect("5\" away");
    assert!(d.g.apply_path(p, &mut d.log));
    assert_eq!(
        d.g.st.figs[0].at,
        deckwright::games::ruunara::engine::Pt::new(13.0, 14.0)
    );
    assert!(d.log.iter().any(|e| matches!(
        e,
        Event::Moved {
            fig: 0,
            why: Reason::Chosen,
            facing: Facing::Ne,
            ..
        }
    )));
}

#[test]
fn a_rescue_is_won_when_the_neutral_met_by_a_hero_reaches_the_exit_and_a_reach_when_the_squad_does()
{
    use deckwright::games::game::Game;
    use deckwright::games::ruunara::engine::RuunaraEnding;
    use deckwright::games::ruunara::mission::{PlacedNeutral, Zone};
    use deckwright::games::ruunara::model::Allegiance;
    let exit = Zone {
        x: 0.0,
        y: 0.0,
        w: 4.0,
        d: 36.0,
    };
    let mut sc = scenario(
        vec![at(hero("h", 6, "2D4+"), 6.0, 22.0, Facing::S)],
        vec![far_enemy()],
        vec![],
        Objective::Rescue { target: 0, exit },
    );
    sc.neutrals.push(PlacedNeutral {
        card: fig("villager", Allegiance::Neutral, 3, 5, 6, "1D6+"),
        x: 6.0,
        y: 18.0,
        facing: Facing::W,
        hostile: false,
    });
    let s = setup(&sc);
    let mut d = Drive::new(&s, "");
    d.pick(|o| *o == Opt::ToTarget);
    assert!(d.log.contains(&Event::Joined { fig: 2 }), "{}", d.text());
    // Round 2: the villager, one of the squad now, walks out of the west exit.
    d.pick(|o| *o == Opt::Activate(2));
    d.pick(|o| *o == Opt::ToExit);
    d.roll();
    assert_eq!(
        d.g.outcome().map(|o| o.ended),
        Some(RuunaraEnding::Rescued),
        "{}",
        d.text()
    );

    let sc = scenario(
        vec![at(hero("h", 6, "2D4+"), 8.0, 18.0, Facing::E)],
        vec![far_enemy()],
        vec![],
        Objective::Reach { exit },
    );
    let s = setup(&sc);
    let mut d = Drive::new(&s, "");
    d.pick(|o| *o == Opt::ToExit);
    assert_eq!(
        d.g.outcome().map(|o| o.ended),
        Some(RuunaraEnding::Reached),
        "{}",
        d.text()
    );
}
