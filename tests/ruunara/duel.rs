//! The close-combat duel: capture and execution round by round, chances by seed.

use deckwright::games::dice::ScriptDice;
use deckwright::games::ruunara::duel::{DuelEnd, duel, duel_setup, play_duel};

use super::common::*;

#[test]
fn a_duel_held_5_rounds_ends_in_capture_then_execution_4_rounds_later() {
    let a = hero("a", 20, "1D6+");
    let b = enemy("b", 20, "1D6+");
    let s = duel_setup(&a, std::slice::from_ref(&b)).unwrap();
    // Everyone misses: A is captured at the start of round 5, executed at the start of 9.
    let mut dice = ScriptDice::parse(&"1 ".repeat(40)).unwrap();
    let mut log = Vec::new();
    assert_eq!(
        play_duel(&s, &mut dice, Some(&mut log)),
        (DuelEnd::ACapturedExecuted, 9)
    );
}

#[test]
fn a_duel_lost_at_0_hit_points_in_close_combat_is_an_execution() {
    let a = hero("a", 1, "1D6+");
    let b = enemy("b", 5, "1D6+");
    let s = duel_setup(&a, &[b]).unwrap();
    // A misses (1), B hits (6): A at 0 hp, executed in round 1.
    let mut dice = ScriptDice::parse("1 6").unwrap();
    assert_eq!(play_duel(&s, &mut dice, None), (DuelEnd::AExecuted, 1));
    // Five 4D... five dice of 6 against 5 hp: A wins in round 1.
    let s = duel_setup(&hero("a", 10, "5D4+"), &[enemy("b", 5, "1D6+")]).unwrap();
    let mut dice = ScriptDice::parse("6 6 6 6 6").unwrap();
    assert_eq!(play_duel(&s, &mut dice, None), (DuelEnd::AWins, 1));
}

#[test]
fn duel_chances_sum_to_one_follow_the_odds_and_replay_by_seed() {
    let strong = hero("strong", 12, "4D3+");
    let weak = enemy("weak", 3, "1D5+");
    let r = duel(&strong, std::slice::from_ref(&weak), 400, 11).unwrap();
    assert_eq!(r.counts.iter().sum::<u32>(), 400);
    assert!(r.chance(DuelEnd::AWins) > 0.95, "{r:?}");
    assert!(r.mean_rounds() >= 1.0 && r.mean_rounds() < 3.0, "{r:?}");
    assert_eq!(
        duel(&strong, std::slice::from_ref(&weak), 400, 11).unwrap(),
        r
    );
    // One against three of its like: A loses far more often than it wins.
    let even = hero("even", 6, "2D4+");
    let foes = vec![
        enemy("f1", 6, "2D4+"),
        enemy("f2", 6, "2D4+"),
        enemy("f3", 6, "2D4+"),
    ];
    let r = duel(&even, &foes, 400, 3).unwrap();
    let lost = r.chance(DuelEnd::AExecuted) + r.chance(DuelEnd::ACapturedExecuted);
    assert!(lost > 0.8, "{r:?}");
    assert_ne!(duel(&even, &foes, 400, 4).unwrap(), r);
}

#[test]
fn up_to_six_foes_stand_in_base_contact_around_a_on_free_spots() {
    use deckwright::games::ruunara::engine::geom::{BASE_R, Base};
    let overlap = |a, b| Base::new(a, BASE_R).overlaps(Base::new(b, BASE_R));
    let a = hero("a", 10, "3D4+");
    for n in 1..=deckwright::games::ruunara::duel::MAX_AROUND {
        let bs = vec![enemy("b", 4, "2D4+"); n];
        let setup = duel_setup(&a, &bs).unwrap_or_else(|e| panic!("{n} foes: {e}"));
        let centre = setup.figs[0].start;
        for (i, b) in setup.figs.iter().enumerate().skip(1) {
            let d = b.start.dist(centre);
            assert!(
                (2.0 * BASE_R - 1e-9..=2.0 * BASE_R + 0.05).contains(&d),
                "{n} foes: foe {i} is {d} from A, not in base contact"
            );
            for c in &setup.figs[i + 1..] {
                assert!(!overlap(b.start, c.start), "{n} foes overlap");
            }
        }
    }
    let seven = vec![enemy("b", 4, "2D4+"); 7];
    assert!(duel_setup(&a, &seven).is_err());
}
