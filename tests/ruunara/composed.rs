//! Every bundled skill that issue #25 found shown and not played, now played from its data
//! (the composed forms of `docs/cards.md`, "Skill effects"): each in a scenario with
//! scripted dice, on the bundled card itself.

use deckwright::cards::Card;
use deckwright::games::game::{Game, Turn};
use deckwright::games::ruunara::engine::{
    CaptureKind, DeathKind, Event, Opt, Phase, RollKind, Status,
};
use deckwright::games::ruunara::mission::{Facing, Objective, Scenario};
use deckwright::games::ruunara::model::{Figure, StateKind};

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

/// An enemy far away that never sees anyone, so that an `eliminate` mission goes on.
fn far() -> deckwright::games::ruunara::mission::Placed {
    let mut f = enemy("far", 4, "1D6+");
    f.vision = 1;
    at(f, 44.0, 32.0, Facing::N)
}

/// Heroes and enemies with the far enemy added, eliminate.
fn mission(
    heroes: Vec<deckwright::games::ruunara::mission::Placed>,
    mut enemies: Vec<deckwright::games::ruunara::mission::Placed>,
) -> Scenario {
    enemies.push(far());
    scenario(heroes, enemies, vec![], Objective::Eliminate)
}

/// Takes `Done` until the active hero's combat phase.
fn to_combat(d: &mut Drive<'_>) {
    d.roll();
    while !matches!(d.g.st.phase, Phase::Combat(_)) {
        d.pick(|o| *o == Opt::Done);
    }
}

fn skill_opt(o: &Opt) -> bool {
    matches!(o, Opt::Skill { .. })
}

fn rolled(d: &Drive<'_>, fig: u8, kind: RollKind) -> Vec<(u8, Vec<u8>)> {
    d.log
        .iter()
        .filter_map(|e| match e {
            Event::Rolled {
                fig: f,
                kind: k,
                need,
                faces,
                ..
            } if *f == fig && *k == kind => Some((*need, faces.as_slice().to_vec())),
            _ => None,
        })
        .collect()
}

#[test]
fn skulk_covers_the_slinger_only_while_no_hero_is_within_8_inches() {
    for (x, covered) in [(20.0, true), (17.0, false)] {
        let archer = with_ranged(hero("archer", 6, "1D6+"), "2D4+", 12);
        let sc = mission(
            vec![at(archer, 10.0, 18.0, Facing::E)],
            vec![at(bundled("ru-bogspawn-slinger"), x, 18.0, Facing::N)],
        );
        let s = setup(&sc);
        // Two hits; apart, the cover roll 3 1 cancels one.
        let mut d = Drive::new(&s, "4 4 3 1");
        to_combat(&mut d);
        d.pick(|o| *o == Opt::Ranged(1));
        let cover = d
            .log
            .iter()
            .any(|e| matches!(e, Event::Covered { target: 1, .. }));
        assert_eq!(cover, covered, "{}", d.text());
        assert_eq!(d.g.st.figs[1].hp, if covered { 3 } else { 2 });
    }
}

#[test]
fn half_there_cancels_each_ranged_hit_on_a_4_plus_and_no_close_hit() {
    let archer = with_ranged(hero("archer", 6, "1D6+"), "3D4+", 12);
    let sc = mission(
        vec![at(archer, 10.0, 18.0, Facing::E)],
        vec![at(bundled("ru-fen-wraith"), 18.0, 18.0, Facing::N)],
    );
    let s = setup(&sc);
    // Three hits; the saves 4 6 1 cancel two.
    let mut d = Drive::new(&s, "4 5 6 4 6 1 1 1 1 1 1 1");
    to_combat(&mut d);
    d.pick(|o| *o == Opt::Ranged(1));
    assert_eq!(rolled(&d, 1, RollKind::Save), vec![(4, vec![4, 6, 1])]);
    assert!(d.log.contains(&Event::Saved {
        target: 1,
        cancelled: 2
    }));
    assert_eq!(d.g.st.figs[1].hp, 4, "{}", d.text());
    // In close combat no save is rolled.
    let sc = mission(
        vec![at(hero("h", 9, "2D4+"), 20.0, 18.0, Facing::E)],
        vec![at(bundled("ru-fen-wraith"), 21.37, 18.0, Facing::W)],
    );
    let s = setup(&sc);
    let mut d = Drive::new(&s, "4 4 1 1 1 1");
    to_combat(&mut d);
    d.pick(|o| *o == Opt::Close(1));
    assert_eq!(d.g.st.figs[1].hp, 3, "{}", d.text());
}

#[test]
fn grave_chill_on_a_5_plus_silences_the_engaged_hero_for_the_rest_of_the_fight() {
    for (die, silenced) in [("5", true), ("4", false)] {
        let sc = mission(
            vec![at(bundled("ru-haskar-emberfist"), 20.0, 18.0, Facing::E)],
            vec![at(bundled("ru-fen-wraith"), 21.37, 18.0, Facing::W)],
        );
        let s = setup(&sc);
        // Round 1: Haskar waits; the wraith's Grave Chill die, then its attack 1 1.
        let mut d = Drive::new(&s, &format!("{die} 1 1"));
        assert!(d.offered(skill_opt), "Anvil Roar before the chill");
        d.idle_until(2);
        assert_eq!(d.g.st.in_state(0, StateKind::Silenced), silenced);
        assert_eq!(rolled(&d, 1, RollKind::Trigger).len(), 1, "{}", d.text());
        // Round 2: Anvil Roar (1/F, unused) is refused only when silenced.
        d.roll();
        assert_eq!(d.offered(skill_opt), !silenced, "{}", d.text());
    }
}

#[test]
fn ravenous_goes_for_the_wounded_hero_before_the_nearer_whole_one() {
    let sc = mission(
        vec![
            at(hero("whole", 10, "1D6+"), 21.0, 15.0, Facing::E),
            at(hero("wounded", 10, "1D6+"), 22.0, 19.5, Facing::E),
        ],
        vec![at(bundled("ru-ghoul-gnawer"), 25.0, 15.0, Facing::W)],
    );
    let s = setup(&sc);
    let mut d = Drive::new(&s, "1 1");
    d.g.st.figs[1].hp = 6;
    d.idle_until(2);
    let toward = d.log.iter().find_map(|e| match e {
        Event::Moved { fig: 2, toward, .. } => Some(*toward),
        _ => None,
    });
    assert_eq!(toward, Some(Some(1)), "{}", d.text());
}

#[test]
fn drag_down_on_a_6_brings_the_capture_a_round_sooner() {
    for (die, captured_in) in [("6", 4), ("5", 5)] {
        let sc = mission(
            vec![
                at(hero("h", 30, "1D6+"), 20.0, 18.0, Facing::E),
                at(hero("away", 9, "1D6+"), 2.0, 2.0, Facing::N),
            ],
            vec![at(bundled("ru-ghoul-gnawer"), 21.37, 18.0, Facing::W)],
        );
        let s = setup(&sc);
        // Each enemy turn: the Gnawer's attack 1 1 (Drag Down's die first, once a fight).
        let mut d = Drive::new(&s, &format!("{die} 1 1 1 1 1 1 1 1 1 1"));
        d.idle_until(captured_in);
        let at_round = d.log.iter().rev().find_map(|e| match e {
            Event::Captured {
                fig: 0,
                how: CaptureKind::Held,
                ..
            } => Some(d.round()),
            _ => None,
        });
        assert_eq!(at_round, Some(captured_in), "{}", d.text());
    }
}

#[test]
fn tempered_hide_ignores_the_first_close_hit_of_each_fight() {
    let sc = mission(
        vec![at(bundled("ru-haskar-emberfist"), 20.0, 18.0, Facing::E)],
        vec![at(enemy("brute", 9, "2D4+"), 21.37, 18.0, Facing::W)],
    );
    let s = setup(&sc);
    // Round 1: the brute's two hits, the first ignored; round 2: one hit, not ignored.
    let mut d = Drive::new(&s, "4 4 4 1");
    d.idle_until(3);
    assert_eq!(d.g.st.figs[0].hp, 10 - 1 - 1, "{}", d.text());
    assert_eq!(
        d.log
            .iter()
            .filter(|e| matches!(e, Event::Saved { target: 0, .. }))
            .count(),
        1
    );
}

#[test]
fn spirit_ward_makes_the_next_enemy_attack_on_an_ally_within_6_inches_land_no_hit() {
    let sc = mission(
        vec![
            at(hero("front", 9, "1D6+"), 20.0, 18.0, Facing::E),
            at(bundled("ru-kangara-spirit-warden"), 16.0, 18.0, Facing::E),
        ],
        vec![at(enemy("brute", 9, "2D4+"), 21.37, 18.0, Facing::W)],
    );
    let s = setup(&sc);
    let mut d = Drive::new(&s, "4 4 4 4");
    d.pick(|o| *o == Opt::Activate(1));
    d.pick(|o| *o == Opt::Skill { slot: 0, target: 0 });
    assert!(d.g.st.figs[0].ward);
    d.idle_until(2);
    assert!(d.log.contains(&Event::Saved {
        target: 0,
        cancelled: 2
    }));
    assert_eq!(d.g.st.figs[0].hp, 9, "{}", d.text());
    // The ward is spent: the next attack lands.
    d.idle_until(3);
    assert_eq!(d.g.st.figs[0].hp, 7, "{}", d.text());
}

#[test]
fn ember_chant_adds_1_to_the_vision_of_allies_within_3_inches() {
    for (warden_y, sees) in [(20.0, true), (28.0, false)] {
        // The enemy 11" away (10.64" base to base): beyond the archer's vision of 10.
        let mut archer = with_ranged(hero("archer", 6, "1D6+"), "2D4+", 12);
        archer.vision = 10;
        let sc = mission(
            vec![
                at(archer, 10.0, 18.0, Facing::E),
                at(
                    bundled("ru-kangara-spirit-warden"),
                    10.0,
                    warden_y,
                    Facing::W,
                ),
            ],
            vec![at(enemy("e", 4, "1D6+"), 22.0, 18.0, Facing::W)],
        );
        let s = setup(&sc);
        let mut d = Drive::new(&s, "");
        d.pick(|o| *o == Opt::Activate(0));
        to_combat(&mut d);
        assert_eq!(d.offered(|o| *o == Opt::Ranged(2)), sees, "{warden_y}");
    }
}

#[test]
fn warding_circle_keeps_an_enemy_from_ending_its_move_within_3_inches() {
    let sc = mission(
        vec![at(bundled("ru-mother-ysolde"), 20.0, 18.0, Facing::E)],
        vec![at(enemy("e", 4, "1D6+"), 25.0, 18.0, Facing::W)],
    );
    let s = setup(&sc);
    let mut d = Drive::new(&s, "");
    d.idle_until(2);
    let gap = d.g.st.figs[0].at.dist(d.g.st.figs[1].at) - 2.0 * 0.68;
    assert!(gap > 3.0, "{gap}: {}", d.text());
    assert!(
        d.log
            .iter()
            .any(|e| matches!(e, Event::Moved { fig: 1, .. })),
        "it still comes as near as it may: {}",
        d.text()
    );
}

#[test]
fn earthen_grasp_on_a_5_plus_holds_the_engaged_enemy_from_attacking_this_turn() {
    for (die, held) in [("5", true), ("4", false)] {
        let sc = mission(
            vec![at(bundled("ru-oruk-stonesinger"), 20.0, 18.0, Facing::E)],
            vec![at(enemy("e", 9, "1D6+"), 21.37, 18.0, Facing::W)],
        );
        let s = setup(&sc);
        let mut d = Drive::new(&s, &format!("{die} 1 1"));
        d.pick(|o| *o == Opt::Skill { slot: 0, target: 1 });
        d.idle_until(2);
        assert_eq!(
            rolled(&d, 1, RollKind::Close).is_empty(),
            held,
            "{}",
            d.text()
        );
        // Round 2: the hold is over.
        d.idle_until(3);
        assert!(!rolled(&d, 1, RollKind::Close).is_empty(), "{}", d.text());
    }
}

#[test]
fn rootbound_is_captured_only_after_6_rounds_engaged() {
    let sc = mission(
        vec![
            at(bundled("ru-oruk-stonesinger"), 20.0, 18.0, Facing::E),
            at(hero("away", 9, "1D6+"), 2.0, 2.0, Facing::N),
        ],
        // The enemy holds out longer still: only Oruk's capture is counted.
        vec![at(
            with_skill(
                enemy("e", 9, "1D6+"),
                "name = 'Stubborn'\ncycle = 'constant'\neffect = 'hold_out'\namount = 20",
            ),
            21.37,
            18.0,
            Facing::W,
        )],
    );
    let s = setup(&sc);
    let mut d = Drive::new(&s, "1 1 1 1 1 1 1 1");
    d.idle_until(6);
    assert_eq!(d.g.st.figs[0].status, Status::Free, "{}", d.text());
    d.idle_until(7);
    assert_eq!(d.g.st.figs[0].status, Status::Captured, "{}", d.text());
}

#[test]
fn blend_in_covers_the_tracker_until_it_next_moves() {
    let mut slinger = with_ranged(enemy("slinger", 4, "1D6+"), "2D4+", 12);
    slinger.vision = 1;
    let sc = mission(
        vec![at(bundled("ru-sanbari-tracker"), 10.0, 18.0, Facing::E)],
        vec![at(slinger, 20.0, 18.0, Facing::W)],
    );
    let s = setup(&sc);
    let mut d = Drive::new(&s, "");
    assert!(!d.g.st.covered(&s, 1, 0));
    d.pick(skill_opt);
    assert!(d.g.st.covered(&s, 1, 0));
    d.pick(|o| *o == Opt::Done);
    // Staying does not end it, into the next round.
    d.pick(|o| *o == Opt::Done);
    d.idle_until(2);
    assert!(d.g.st.covered(&s, 1, 0), "{}", d.text());
    // Its move does.
    d.pick(|o| *o == Opt::Line(Facing::N));
    assert!(!d.g.st.covered(&s, 1, 0), "{}", d.text());
}

#[test]
fn silent_step_close_combat_draws_no_enemy_by_noise() {
    for (silent, card) in [
        (true, bundled("ru-sethe-nightquill")),
        (false, hero("loud", 6, "3D3+")),
    ] {
        let sc = mission(
            vec![at(card, 20.0, 18.0, Facing::E)],
            vec![
                at(enemy("e", 9, "1D6+"), 21.37, 18.0, Facing::W),
                // Within 8", facing away: it does not see the fight.
                at(enemy("listener", 4, "1D6+"), 20.0, 24.0, Facing::N),
            ],
        );
        let s = setup(&sc);
        let mut d = Drive::new(&s, "1 1 1");
        to_combat(&mut d);
        let k =
            d.g.options()
                .iter()
                .position(|o| *o == Opt::Close(1))
                .unwrap();
        d.g.apply_logged(k, &mut d.log);
        // Its dice, then the enemies' turn waits on the next die (before the listener acts).
        while let Turn::Chance(c) = d.g.turn() {
            let Some(f) = c.draw(&mut d.dice) else {
                break;
            };
            d.g.apply_logged(f, &mut d.log);
        }
        assert_eq!(d.g.st.figs[2].heard.is_none(), silent, "{}", d.text());
    }
}

#[test]
fn bone_throne_lets_ghouls_within_6_inches_hit_on_one_less() {
    let mut wraith = enemy("wraith", 9, "2D4+");
    wraith.race = "wraith".into();
    let mut king = bundled("ru-the-marrow-king");
    king.vision = 1;
    let sc = mission(
        vec![
            at(hero("a", 20, "1D6+"), 20.0, 18.0, Facing::E),
            at(hero("b", 20, "1D6+"), 20.0, 10.0, Facing::E),
        ],
        vec![
            at(enemy("ghoul", 9, "2D4+"), 21.37, 18.0, Facing::W),
            at(wraith, 21.37, 10.0, Facing::W),
            at(king, 25.0, 14.0, Facing::E),
        ],
    );
    let s = setup(&sc);
    let mut d = Drive::new(&s, "1 1 1 1");
    d.idle_until(2);
    assert_eq!(rolled(&d, 2, RollKind::Close)[0].0, 3, "{}", d.text());
    assert_eq!(rolled(&d, 3, RollKind::Close)[0].0, 4, "not of its race");
}

#[test]
fn feast_of_the_fallen_heals_the_marrow_king_4_when_a_hero_is_executed_within_6_inches() {
    let mut king = bundled("ru-the-marrow-king");
    king.vision = 1;
    let sc = mission(
        vec![
            at(hero("doomed", 1, "1D6+"), 20.0, 18.0, Facing::E),
            at(hero("away", 9, "1D6+"), 2.0, 2.0, Facing::N),
        ],
        vec![
            at(enemy("ghoul", 9, "1D4+"), 21.37, 18.0, Facing::W),
            at(king, 25.0, 18.0, Facing::E),
        ],
    );
    let s = setup(&sc);
    let mut d = Drive::new(&s, "4");
    d.g.st.figs[3].hp = 5;
    d.idle_until(2);
    assert!(d.log.contains(&Event::Died {
        fig: 0,
        by: Some(2),
        how: DeathKind::Executed
    }));
    assert_eq!(d.g.st.figs[3].hp, 9, "{}", d.text());
}

#[test]
fn hex_of_withering_on_a_4_plus_makes_the_target_hit_only_on_6() {
    let sc = mission(
        vec![at(bundled("ru-vaska-hexmarrow"), 20.0, 18.0, Facing::E)],
        vec![at(enemy("e", 9, "2D4+"), 21.37, 18.0, Facing::W)],
    );
    let s = setup(&sc);
    let mut d = Drive::new(&s, "4 5 5");
    d.pick(|o| *o == Opt::Skill { slot: 0, target: 1 });
    d.idle_until(2);
    assert!(d.g.st.in_state(1, StateKind::Hexed));
    assert_eq!(
        rolled(&d, 1, RollKind::Close),
        vec![(6, vec![5, 5])],
        "{}",
        d.text()
    );
    assert_eq!(d.g.st.figs[0].hp, 7, "5s miss");
}

#[test]
fn forge_sparks_turns_enemies_within_3_inches_to_face_yrsa_and_takes_their_shots() {
    let slinger = with_ranged(enemy("slinger", 9, "1D6+"), "2D4+", 12);
    let sc = mission(
        vec![at(bundled("ru-yrsa-coalmantle"), 20.0, 18.0, Facing::E)],
        vec![at(slinger, 24.0, 18.0, Facing::E)],
    );
    let s = setup(&sc);
    let mut d = Drive::new(&s, "1");
    d.pick(|o| matches!(o, Opt::Skill { slot: 1, .. }));
    assert_eq!(d.g.st.figs[1].facing, Facing::W);
    assert!(d.g.st.in_state(1, StateKind::Disarmed));
    d.idle_until(2);
    assert!(rolled(&d, 1, RollKind::Ranged).is_empty(), "{}", d.text());
    assert_eq!(
        rolled(&d, 1, RollKind::Close).len(),
        1,
        "it charges instead"
    );
}

#[test]
fn windstep_leaves_close_combat_with_a_move_of_at_most_4_inches() {
    let sc = mission(
        vec![at(bundled("ru-miri-stormcall"), 20.0, 18.0, Facing::E)],
        vec![at(enemy("e", 9, "1D6+"), 21.37, 18.0, Facing::W)],
    );
    let s = setup(&sc);
    let mut d = Drive::new(&s, "1 1 1 1");
    d.pick(|o| {
        *o == Opt::Skill {
            slot: 1,
            target: 255,
        }
    });
    d.pick(|o| *o == Opt::Line(Facing::W));
    let cost = d.log.iter().find_map(|e| match e {
        Event::Moved { fig: 0, cost, .. } => Some(*cost),
        _ => None,
    });
    assert!(cost.is_some_and(|c| c <= 4.0 + 1e-9 && c > 3.9), "{cost:?}");
}

#[test]
fn heart_piercer_is_a_spell_at_an_enemy_it_sees_killing_on_a_5_plus() {
    for (die, dies) in [("5", true), ("4", false)] {
        let sc = mission(
            vec![at(bundled("ru-sethe-nightquill"), 10.0, 18.0, Facing::E)],
            vec![at(enemy("e", 9, "1D6+"), 18.0, 18.0, Facing::W)],
        );
        let s = setup(&sc);
        let mut d = Drive::new(&s, die);
        d.pick(|o| *o == Opt::Skill { slot: 1, target: 1 });
        assert_eq!(
            d.log.contains(&Event::Died {
                fig: 1,
                by: Some(0),
                how: DeathKind::InstantKill
            }),
            dies,
            "{}",
            d.text()
        );
        assert_eq!(
            rolled(&d, 0, RollKind::Trigger),
            vec![(5, vec![die.parse().unwrap()])]
        );
    }
}

/// A move the seat drags is held to the same 4" as the engine's own options (regression: the
/// board checked a dragged flight against the figure's whole movement).
#[test]
fn a_dragged_windstep_flight_is_held_to_4_inches() {
    let sc = mission(
        vec![at(bundled("ru-miri-stormcall"), 20.0, 18.0, Facing::E)],
        vec![at(enemy("e", 9, "1D6+"), 21.37, 18.0, Facing::W)],
    );
    let s = setup(&sc);
    let mut d = Drive::new(&s, "1 1 1 1");
    d.pick(|o| {
        *o == Opt::Skill {
            slot: 1,
            target: 255,
        }
    });
    d.roll();
    assert!(
        s.figs[0].movement > 5.0,
        "her movement is more than the flight"
    );
    assert!(
        d.g.legal_move_to(0, 16.5, 18.0).is_some(),
        "3.5\" is within 4\""
    );
    assert!(
        d.g.legal_move_to(0, 15.0, 18.0).is_none(),
        "5\" is within her movement but not her flight"
    );
}
