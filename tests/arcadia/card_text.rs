//! Card text as data (issue 14): every league effect, waylay failure effect, flaw condition
//! and `then` objective as a scripted-dice scenario, and every bundled card that uses one.

use crate::support::*;
use deckwright::games::arcadia::engine::{Event, Match, Opt, State, Winner};
use deckwright::games::arcadia::model::{Failure, TestKind};

const N: Opt = Opt::Go(0);
const E: Opt = Opt::Go(1);
const W: Opt = Opt::Go(3);

fn woods_with(at: (usize, usize), id: &'static str) -> [[&'static str; 5]; 2] {
    let mut g = WOODS;
    g[at.1][at.0] = id;
    g
}

/// Ann (base (0, 0)) walks east into (1, 0), a league of `id`, where Bob may play `waylays`.
fn into(id: &'static str, a: Who, waylays: &[&'static str], days: u32) -> Match {
    game_limit(
        woods_with((1, 0), id),
        a,
        Who::new((4, 1)).waylays(waylays),
        days,
    )
}

fn offered(seen: &[(u8, Vec<Opt>)], o: Opt) -> bool {
    seen.iter().any(|(_, opts)| opts.contains(&o))
}

fn scores(log: &[Event]) -> Vec<[i32; 2]> {
    log.iter()
        .filter_map(|e| {
            if let Event::TestResult { scores, .. } = e {
                Some(*scores)
            } else {
                None
            }
        })
        .collect()
}

fn failures(log: &[Event]) -> Vec<Failure> {
    log.iter()
        .filter_map(|e| {
            if let Event::TrialFailure { effect, .. } = e {
                Some(*effect)
            } else {
                None
            }
        })
        .collect()
}

// ---- league effects ----

#[test]
fn forbidden_merit_types_give_nothing_in_the_league_but_may_still_pay_a_loss() {
    // Ann loses to the forest waylay (3 + 1 + 1 against 3 + 6 + 6) holding a retest Art and a
    // standing +1 Might Art.
    let a = Who::new((0, 0)).merits(&["t-art-retest", "t-art-steady"]);
    let (st, log, seen) = run(
        &into("t-l-noart", a.clone(), &["t-w-forest"], 1),
        "1 2 1 1 6 6",
        &[E, Opt::Play(0), Opt::Exhaust(0)],
    );
    assert!(!offered(&seen, Opt::Retest(0)), "no Art is used here");
    assert_eq!(
        scores(&log),
        vec![[5, 15]],
        "the standing Art bonus does not count"
    );
    assert_eq!(
        st.heroes[0].exhausted, 1,
        "an Art may still be exhausted to pay a lost test"
    );

    // In a plain wood both Arts work.
    let (_, log, seen) = run(
        &into("t-l", a, &["t-w-forest"], 1),
        "1 2 1 1 6 6 6 6 1 1",
        &[E, Opt::Play(0), Opt::Retest(0)],
    );
    assert!(offered(&seen, Opt::Retest(0)));
    assert_eq!(scores(&log), vec![[16, 5]]);
}

#[test]
fn bundled_brassgate_ward_forbids_arts() {
    // Brassgate Ward (city, road; enter Savvy 6) at (1, 1): Ann walks south-east... from (0, 1).
    let mut grid = WOODS;
    grid[1][1] = "arc-l-brassgate-ward";
    let a = Who {
        base: (0, 1),
        ..Who::new((0, 1))
    }
    .merits(&["arc-m-mirror-of-seeming", "t-plain"]);
    let m = game_limit(grid, a.clone(), Who::new((4, 0)).waylays(&["t-w-city"]), 1);
    // Enter trial 2 + 6 = 8 passes; the City Waylay (Might 3) wins 3 + 6 + 6 to 3 + 1 + 1.
    let (st, _, seen) = run(&m, "1 2 6 1 1 6 6", &[E, Opt::Play(0), Opt::Exhaust(1)]);
    assert!(
        !offered(&seen, Opt::Retest(0)),
        "Mirror of Seeming is an Art: no retest in Brassgate Ward"
    );
    assert_eq!(st.heroes[0].exhausted, 0b10);

    // The same loss in a wood: the Mirror retests.
    let m = into(
        "t-l",
        Who::new((0, 0)).merits(&["arc-m-mirror-of-seeming", "t-plain"]),
        &["t-w-forest"],
        1,
    );
    let (_, _, seen) = run(
        &m,
        "1 2 1 1 6 6 6 6 1 1",
        &[E, Opt::Play(0), Opt::Retest(0)],
    );
    assert!(offered(&seen, Opt::Retest(0)));
}

#[test]
fn forbidden_ratings_cannot_be_played_in_the_league() {
    // Bob holds a rating-1 and a rating-2 forest waylay.
    let (_, _, seen) = run(
        &into(
            "t-l-norate",
            Who::new((0, 0)),
            &["t-w-forest", "t-w-high"],
            1,
        ),
        "1 2",
        &[E, Opt::Hold],
    );

    let play = seen.iter().find(|(p, _)| *p == 1).unwrap();
    assert_eq!(play.1, vec![Opt::Play(1), Opt::Hold]);
    let (_, _, seen) = run(
        &into("t-l", Who::new((0, 0)), &["t-w-forest", "t-w-high"], 1),
        "1 2",
        &[E, Opt::Hold],
    );
    let play = seen.iter().find(|(p, _)| *p == 1).unwrap();
    assert_eq!(play.1, vec![Opt::Play(0), Opt::Play(1), Opt::Hold]);
}

#[test]
fn bundled_starfall_orchard_takes_no_rating_1_waylay() {
    let a = Who::new((0, 0));
    let b = Who::new((4, 1)).waylays(&["arc-w-smog-bank", "t-w-high"]);
    let m = game_limit(woods_with((1, 0), "arc-l-starfall-orchard"), a, b, 1);
    let (_, _, seen) = run(&m, "1 2", &[E, Opt::Hold]);
    let play = seen.iter().find(|(p, _)| *p == 1).unwrap();
    assert_eq!(
        play.1,
        vec![Opt::Play(1), Opt::Hold],
        "Smog Bank (rating 1) is not offered"
    );
}

#[test]
fn a_modified_test_changes_the_characters_score_in_the_league() {
    // Might 3 - 2 + 1 + 1 against 3 + 1 + 1: lost here, a Stalemate elsewhere... here 3 to 5.
    let (_, log, _) = run(
        &into(
            "t-l-mod",
            Who::new((0, 0)).merits(&["t-plain"]),
            &["t-w-forest"],
            1,
        ),
        "1 2 1 1 1 1",
        &[E, Opt::Play(0)],
    );
    assert_eq!(scores(&log), vec![[3, 5]]);
    let (_, log, _) = run(
        &into(
            "t-l",
            Who::new((0, 0)).merits(&["t-plain"]),
            &["t-w-forest"],
            1,
        ),
        "1 2 1 1 1 1",
        &[E, Opt::Play(0)],
    );
    assert_eq!(scores(&log), vec![[5, 5]]);
}

#[test]
fn a_stay_trial_is_rolled_by_a_character_that_stays_and_failing_ends_its_day() {
    // Ann's Base Camp is the restless wood; she stays: Resolve 1 + die against 5.
    let m = game_limit(
        woods_with((0, 0), "t-l-stay"),
        Who::new((0, 0)).merits(&["t-plain"]),
        Who::new((4, 1)),
        1,
    );
    let (_, log, _) = run(&m, "1 2 3", &[Opt::Stay]);
    assert!(log.iter().any(|e| matches!(
        e,
        Event::Trial {
            total: 4,
            pass: false,
            ..
        }
    )));
    assert!(
        !log.iter().any(|e| matches!(e, Event::Rests { .. })),
        "a failed stay trial ends the Day"
    );
    let (_, log, _) = run(&m, "1 2 4", &[Opt::Stay]);
    assert!(log.iter().any(|e| matches!(
        e,
        Event::Trial {
            total: 5,
            pass: true,
            ..
        }
    )));
    assert!(log.iter().any(|e| matches!(e, Event::Rests { .. })));
    // Moving in rolls no stay trial.
    let (_, log, _) = run(&into("t-l-stay", Who::new((0, 0)), &[], 1), "1 2", &[E]);
    assert!(!log.iter().any(|e| matches!(e, Event::Trial { .. })));
}

/// Ruling: a league rolls one extra trial an occasion, the first listed; a second on the
/// same occasion is never rolled (the card editor's form says so).
#[test]
fn of_two_stay_trials_only_the_first_is_rolled() {
    let m = game_limit(
        woods_with((0, 0), "t-l-stay-twice"),
        Who::new((0, 0)).merits(&["t-plain"]),
        Who::new((4, 1)),
        1,
    );
    let trials = |log: &[Event]| -> Vec<(i32, bool)> {
        log.iter()
            .filter_map(|e| match e {
                Event::Trial { total, pass, .. } => Some((*total, *pass)),
                _ => None,
            })
            .collect()
    };
    // Resolve 1 + 3 fails the first (difficulty 5) and would pass the second (2): the Day ends.
    let (_, log, _) = run(&m, "1 2 3", &[Opt::Stay]);
    assert_eq!(trials(&log), vec![(4, false)]);
    assert!(!log.iter().any(|e| matches!(e, Event::Rests { .. })));
    // Passing the first is enough: no second trial follows.
    let (_, log, _) = run(&m, "1 2 4 1", &[Opt::Stay]);
    assert_eq!(trials(&log), vec![(5, true)]);
    assert!(log.iter().any(|e| matches!(e, Event::Rests { .. })));
}

#[test]
fn a_rest_trial_must_be_passed_to_rest() {
    let a = Who::new((0, 0)).merits(&["t-art"]);
    let m = into("t-l-resttrial", a, &[], 1);
    let mut st = State::new(&m);
    st.heroes[0].exhausted = 1;
    let (st2, log, _) = run_from(&m, st, "1 2 3", &[E]);
    assert!(
        log.iter()
            .any(|e| matches!(e, Event::Trial { pass: false, .. }))
    );
    assert_eq!(
        st2.heroes[0].exhausted, 1,
        "no Rest after a failed rest trial"
    );
    let (st2, _, _) = run_from(&m, st, "1 2 4", &[E]);
    assert_eq!(st2.heroes[0].exhausted, 0);
}

#[test]
fn rest_extra_recovers_more_merits_of_its_types() {
    // The kind wood lists no Rest, but recovers one Ally more: the first exhausted one.
    let a = Who::new((0, 0)).merits(&["t-ally", "t-ally-2", "t-plain"]);
    let m = into("t-l-restextra", a, &[], 1);
    let mut st = State::new(&m);
    st.heroes[0].exhausted = 0b111;
    let (st2, _, _) = run_from(&m, st, "1 2", &[E]);
    assert_eq!(st2.heroes[0].exhausted, 0b110);
}

#[test]
fn bundled_hollowhill_barrows_rests_abilities_and_one_ally() {
    // Hollowhill Barrows at (1, 1): its Rest recovers abilities, and its special text one
    // exhausted Ally more ("in addition to the Rest"): the first; the second Ally and the
    // advantage stay exhausted.
    let a = Who::new((0, 1)).merits(&["t-ally", "t-ally-2", "t-plain", "arc-m-oakheart-vigor"]);
    let m = game_limit(
        woods_with((1, 1), "arc-l-hollowhill-barrows"),
        a,
        Who::new((4, 0)),
        1,
    );
    let mut st = State::new(&m);
    st.heroes[0].exhausted = 0b1111;
    let (st2, _, _) = run_from(&m, st, "1 2", &[E]);
    assert_eq!(
        st2.heroes[0].exhausted, 0b0110,
        "the second Ally and the advantage stay exhausted"
    );
}

// ---- waylay trial failure effects ----

/// Ann (Might 3) fails the Might 6 trial of Bob's waylay `w` with a 1, then faces its test.
fn fail_trial(w: &'static str, a: Who, dice: &str, choices: &[Opt]) -> Ran {
    let m = into("t-l", a, &[w], 1);
    let mut all = vec![E, Opt::Play(0)];
    all.extend_from_slice(choices);
    run(&m, dice, &all)
}

#[test]
fn a_failure_that_exhausts_given_types_takes_only_those() {
    let a = Who::new((0, 0)).merits(&["t-plain", "t-ally", "t-art"]);
    // Trial 1 + 3 fails: only the Art may be exhausted (one option, taken); then the test, won.
    let (st, log, _) = fail_trial("t-w-ex-art", a.clone(), "1 2 1 6 6 1 1", &[]);
    assert_eq!(failures(&log), vec![Failure::Exhaust(0b01000)]);
    assert_eq!(st.heroes[0].exhausted, 0b100);
    // With the Art already exhausted, it is discarded.
    let m = into("t-l", a, &["t-w-ex-art"], 1);
    let mut st = State::new(&m);
    st.heroes[0].exhausted = 0b100;
    let (st, _, _) = run_from(&m, st, "1 2 1 6 6 1 1", &[E, Opt::Play(0)]);
    assert_eq!((st.heroes[0].exhausted, st.heroes[0].discarded), (0, 0b100));
    // Without an Art, nothing is lost.
    let (st, _, _) = fail_trial(
        "t-w-ex-art",
        Who::new((0, 0)).merits(&["t-plain", "t-ally"]),
        "1 2 1 6 6 1 1",
        &[],
    );
    assert_eq!((st.heroes[0].exhausted, st.heroes[0].discarded), (0, 0));
}

#[test]
fn bundled_riddling_heron_exhausts_an_art_or_ability_never_an_ally() {
    // The Heron (river, swamp; Savvy trial 7) in the wild wood; Ann: Savvy 2 + 1 fails.
    let a = Who::new((0, 0)).merits(&["t-ally", "t-art", "arc-m-oakheart-vigor"]);
    let m = game_limit(
        woods_with((1, 0), "t-l-wild"),
        a,
        Who::new((4, 1)).waylays(&["arc-w-riddling-heron"]),
        1,
    );
    let (st, log, seen) = run(
        &m,
        "1 2 1 6 6 1 1",
        &[E, Opt::Play(0), Opt::Exhaust(2), Opt::Test(TestKind::Savvy)],
    );
    assert_eq!(
        failures(&log),
        vec![Failure::Exhaust(0b01001)],
        "ability and art"
    );
    let lose = seen
        .iter()
        .find(|(_, o)| o.contains(&Opt::Exhaust(2)))
        .unwrap();
    assert_eq!(
        lose.1,
        vec![Opt::Exhaust(1), Opt::Exhaust(2)],
        "the Art or the Ability, not the Ally"
    );
    assert_eq!(st.heroes[0].exhausted, 0b100);
}

#[test]
fn bundled_marshlight_lure_and_thorn_maze_exhaust_a_merit_of_any_type() {
    for (w, trial_die) in [("arc-w-marshlight-lure", "1"), ("arc-w-thorn-maze", "1")] {
        let a = Who::new((0, 0)).merits(&["t-ally", "t-art"]);
        let m = into("t-l", a, &[w], 1);
        let (st, log, seen) = run(
            &m,
            &format!("1 2 {trial_die} 6 6 1 1"),
            &[E, Opt::Play(0), Opt::Exhaust(0)],
        );
        assert_eq!(failures(&log), vec![Failure::Exhaust(0b11111)], "{w}");
        assert!(
            seen.iter()
                .any(|(_, o)| o == &vec![Opt::Exhaust(0), Opt::Exhaust(1)]),
            "{w}"
        );
        assert_eq!(st.heroes[0].exhausted, 1, "{w}");
    }
}

#[test]
fn a_trial_without_a_failure_effect_costs_nothing() {
    for w in ["t-w-none", "t-w-silent"] {
        let (st, log, _) = fail_trial(
            w,
            Who::new((0, 0)).merits(&["t-plain"]),
            "1 2 1 6 6 1 1",
            &[],
        );
        assert_eq!(failures(&log), vec![Failure::Nothing], "{w}");
        assert_eq!(st.heroes[0].exhausted, 0, "{w}");
        assert!(
            log.iter()
                .any(|e| matches!(e, Event::WaylayDefeated { .. })),
            "{w}: the test follows"
        );
    }
    // The bundled Squall Front (no failure text) in the wild wood (fields): Resolve 1 + 1 fails.
    let m = game_limit(
        woods_with((1, 0), "t-l-wild"),
        Who::new((0, 0)).merits(&["t-plain"]),
        Who::new((4, 1)).waylays(&["arc-w-squall-front"]),
        1,
    );
    let (st, log, _) = run(
        &m,
        "1 2 1 6 6 1 1",
        &[E, Opt::Play(0), Opt::Test(TestKind::Might)],
    );
    assert_eq!(failures(&log), vec![Failure::Nothing]);
    assert_eq!(st.heroes[0].exhausted, 0);
}

#[test]
fn a_discard_failure_discards_a_merit_of_its_types_ready_or_not() {
    let a = Who::new((0, 0)).merits(&["t-ally", "t-plain", "t-plain-2"]);
    let (st, _, seen) = fail_trial("t-w-discard", a, "1 2 1 6 6 1 1", &[Opt::Discard(2)]);
    assert!(
        seen.iter()
            .any(|(_, o)| o == &vec![Opt::Discard(1), Opt::Discard(2)])
    );
    assert_eq!((st.heroes[0].exhausted, st.heroes[0].discarded), (0, 0b100));
}

#[test]
fn a_skip_day_failure_skips_the_next_day_and_the_test_follows() {
    let m = into(
        "t-l",
        Who::new((0, 0)).merits(&["t-plain"]),
        &["t-w-skip"],
        3,
    );
    let (st, log, _) = run(&m, "1 2 1 6 6 1 1", &[E, Opt::Play(0), Opt::Stay]);
    assert!(
        log.iter()
            .any(|e| matches!(e, Event::WaylayDefeated { .. }))
    );
    assert!(
        log.iter()
            .any(|e| matches!(e, Event::SkipsDay { player: 0 })),
        "Day 3 is skipped"
    );
    assert!(!st.heroes[0].skip);
}

#[test]
fn a_return_to_base_failure_sends_the_character_home_and_ends_its_day() {
    let m = into(
        "t-l",
        Who::new((0, 0)).merits(&["t-plain"]),
        &["t-w-home"],
        1,
    );
    let (st, log, _) = run(&m, "1 2 1", &[E, Opt::Play(0)]);
    assert!(
        log.iter()
            .any(|e| matches!(e, Event::SentBack { player: 0, to: 0 }))
    );
    assert_eq!(st.heroes[0].at, 0);
    assert!(
        !log.iter().any(|e| matches!(e, Event::Faces { .. })),
        "no test: the Day ends"
    );
    assert_eq!(st.waylay_at[0], 1, "the waylay stays where it was played");
    assert!(!st.heroes[0].skip, "not a ruin: no Day skipped");
}

/// Ann's treasure is hidden at (1, 0); she finds it on Day 1, then on Day 3 walks east into
/// (2, 0) where Bob plays a lose-treasure waylay: the match, its dice and its choices.
fn lose_treasure_scenario() -> (Match, &'static str, [Opt; 7]) {
    let a = Who::new((0, 0))
        .merits(&["t-plain"])
        .treasures(&["t-treasure"]);
    let m = game_limit(WOODS, a, Who::new((4, 1)).waylays(&["t-w-lose-t"]), 3);
    let choices = [
        Opt::Hide(1),
        E,
        Opt::Hold,
        Opt::Treasure,
        Opt::Stay,
        E,
        Opt::Play(0),
    ];
    (m, "1 2 1 6 6 1 1", choices)
}

#[test]
fn a_lose_treasure_failure_drops_a_found_treasure_where_the_character_stands() {
    let (m, dice, choices) = lose_treasure_scenario();
    let (st, log, _) = run(&m, dice, &choices);
    assert!(
        log.iter()
            .any(|e| matches!(e, Event::TreasureFound { player: 0, .. }))
    );
    assert!(log.iter().any(|e| matches!(
        e,
        Event::TreasureLost {
            player: 0,
            treasure: 0,
            league: 2
        }
    )));
    let h = &st.heroes[0];
    assert_eq!((h.treasures_found, h.treasure_at[0], h.owned), (0, 2, 1));
}

#[test]
fn a_lose_treasure_failure_takes_no_treasure_already_discarded() {
    // Regression (issue #25 item 7): the scenario above, but Ann has discarded her treasure
    // before Bob's waylay. A failed trial took the discarded treasure and put it back on the
    // league, where it could be found and used again; discarded merits do not return until
    // the next game (rule card 4).
    let (m, dice, choices) = lose_treasure_scenario();
    let bit = 1u32 << m.players[0].own;
    let (st, log, _) = run_arranged(&m, State::new(&m), dice, &choices, |st, next| {
        if next == Opt::Play(0) {
            st.heroes[0].discarded |= bit;
        }
    });
    assert!(
        log.iter()
            .any(|e| matches!(e, Event::TrialFailure { player: 0, .. })),
        "the trial is failed"
    );
    assert!(
        !log.iter().any(|e| matches!(e, Event::TreasureLost { .. })),
        "no treasure is held to lose"
    );
    let h = &st.heroes[0];
    assert_eq!(
        h.treasure_at[0],
        deckwright::games::arcadia::engine::state::FOUND
    );
    assert_eq!(h.discarded & bit, bit, "still discarded");
    assert_eq!(h.treasures_found, 1);
}

// ---- flaw conditions ----

#[test]
fn a_flaw_with_a_terrain_condition_is_used_only_there() {
    // Ann (Might 3) beats the forest waylay 3 + 2 + 2 to 3 + 1 + 2: Bob may use her flaw only
    // in a league with a river.
    for (league, offered_there) in [("t-l-wild", true), ("t-l", false)] {
        let m = into(
            league,
            Who::new((0, 0))
                .merits(&["t-plain"])
                .flaws(&["t-flaw-river"]),
            &["t-w-forest"],
            1,
        );
        let (_, _, seen) = run(&m, "1 2 2 2 1 2", &[E, Opt::Play(0)]);
        assert_eq!(offered(&seen, Opt::Penalty(0)), offered_there, "{league}");
    }
    // A merit's bonus with a terrain condition, the same way: +2 only by the river.
    for (league, score) in [("t-l-wild", 9), ("t-l", 7)] {
        let m = into(
            league,
            Who::new((0, 0)).merits(&["t-river-bonus"]),
            &["t-w-forest"],
            1,
        );
        let (_, log, _) = run(&m, "1 2 2 2 1 2", &[E, Opt::Play(0)]);
        assert_eq!(scores(&log)[0][0], score, "{league}");
    }
}

#[test]
fn bundled_salt_bound_is_used_only_by_a_river() {
    for (league, offered_there) in [("t-l-wild", true), ("t-l", false)] {
        let m = into(
            league,
            Who::new((0, 0))
                .merits(&["t-plain"])
                .flaws(&["arc-f-salt-bound"]),
            &["t-w-forest"],
            1,
        );
        let (_, _, seen) = run(&m, "1 2 2 2 1 2", &[E, Opt::Play(0)]);
        assert_eq!(offered(&seen, Opt::Penalty(0)), offered_there, "{league}");
    }
}

// ---- `then` objectives ----

#[test]
fn a_then_objective_counts_its_steps_in_order() {
    // The goal wood at (1, 0) is visited before the treasure (hidden at (2, 0)) is found:
    // the quest is done only when the goal is entered again afterwards.
    let mut grid = woods_with((1, 0), "t-l-goal");
    grid[0][2] = "t-l";
    let a = Who::new((0, 0))
        .quests(&["t-q-then"])
        .treasures(&["t-treasure"]);
    let b = Who::new((4, 1));
    let m = game_limit(grid, a.clone(), b.clone(), 5);
    let steps = [Opt::Hide(2), E, Opt::Stay, E, Opt::Treasure, Opt::Stay, W];
    let (st, _, _) = run(&m, "1 2", &steps[..6]);
    assert_eq!(
        (st.heroes[0].treasures_found, st.heroes[0].quests_done),
        (1, 0),
        "goal first, treasure second: not done"
    );
    let (st, log, _) = run(&m, "1 2", &steps);
    assert_eq!(st.heroes[0].quests_done, 1);
    assert!(
        log.iter()
            .any(|e| matches!(e, Event::QuestDone { player: 0, .. }))
    );
}

#[test]
fn a_then_nested_in_a_then_is_done_the_day_its_last_step_is() {
    // Regression (issue #25 item 7): the outer `then` waited a Day for the inner one. Ann
    // finds her treasure on Day 3 (hidden at (1, 0)): the quest is done at that Day's end.
    let a = Who::new((0, 0))
        .quests(&["t-q-then-inside"])
        .treasures(&["t-treasure"]);
    let m = game_limit(WOODS, a, Who::new((4, 1)), 5);
    let (st, log, _) = run(&m, "1 2", &[Opt::Hide(1), E, Opt::Treasure]);
    let found = log
        .iter()
        .position(|e| matches!(e, Event::TreasureFound { player: 0, .. }))
        .expect("the treasure is found");
    let done = log
        .iter()
        .position(|e| {
            matches!(
                e,
                Event::QuestDone {
                    player: 0,
                    quest: 0
                }
            )
        })
        .expect("the quest is done");
    assert!(
        !log[found..done]
            .iter()
            .any(|e| matches!(e, Event::Day { .. })),
        "done at the end of the Day the treasure is found: {:?}",
        &log[found..=done]
    );
    assert_eq!(st.heroes[0].quests_done, 1);
}

#[test]
fn a_then_nested_in_a_then_begins_once_the_steps_before_it_are_done() {
    // As `a_then_objective_counts_its_steps_in_order`, the goal inside a `then` of its own
    // (docs/rulings.md): visited before the treasure is found, it does not count; entered
    // again afterwards, it does.
    let mut grid = woods_with((1, 0), "t-l-goal");
    grid[0][2] = "t-l";
    let a = Who::new((0, 0))
        .quests(&["t-q-then-nested"])
        .treasures(&["t-treasure"]);
    let m = game_limit(grid, a, Who::new((4, 1)), 5);
    let steps = [Opt::Hide(2), E, Opt::Stay, E, Opt::Treasure, Opt::Stay, W];
    let (st, _, _) = run(&m, "1 2", &steps[..6]);
    assert_eq!(
        (st.heroes[0].treasures_found, st.heroes[0].quests_done),
        (1, 0),
        "goal first, treasure second: not done"
    );
    let (st, _, _) = run(&m, "1 2", &steps);
    assert_eq!(st.heroes[0].quests_done, 1);
}

#[test]
fn bundled_a_choice_of_roads_carries_two_treasures_to_the_mountains_in_that_order() {
    // The wild wood (mountains) at (1, 0); Ann's two treasures at (2, 0) and (3, 0).
    let a = Who::new((0, 0))
        .quests(&["arc-q-a-choice-of-roads"])
        .treasures(&["t-treasure", "t-treasure"]);
    let b = Who::new((4, 1)).quests(&["t-q-never"]);
    let m = game_limit(woods_with((1, 0), "t-l-wild"), a, b, 13);
    let s = Opt::Stay;
    let choices = [
        Opt::Hide(2),
        Opt::Hide(3),
        E,
        s,
        E,
        Opt::Treasure,
        s,
        E,
        Opt::Treasure,
        s,
        W,
        s,
        W,
    ];
    let (st, _, _) = run(&m, "1 2", &choices[..10]);
    assert_eq!(
        (st.heroes[0].treasures_found, st.heroes[0].quests_done),
        (2, 0),
        "the mountains came before the treasures"
    );
    let (st, log, _) = run(&m, "1 2", &choices);
    assert!(st.ended.is_some());
    assert!(log.iter().any(|e| matches!(
        e,
        Event::QuestDone {
            player: 0,
            quest: 0
        }
    )));
    assert!(matches!(
        log.iter().rev().find(|e| matches!(e, Event::Day { .. })),
        Some(Event::Day { day: 9, player: 0 })
    ));
    let _ = N;
}

#[test]
fn bundled_second_glance_retests_a_lost_test_not_a_stalemate() {
    let m = into(
        "t-l",
        Who::new((0, 0)).merits(&["arc-m-second-glance", "t-plain"]),
        &["t-w-forest"],
        1,
    );
    // A Stalemate (3 + 1 + 2 against 3 + 2 + 1): no retest offered.
    let (_, _, seen) = run(&m, "1 2 1 2 2 1", &[E, Opt::Play(0)]);
    assert!(!offered(&seen, Opt::Retest(0)));
    // A loss: offered, and taken.
    let (_, log, seen) = run(
        &m,
        "1 2 1 1 6 6 6 6 1 1",
        &[E, Opt::Play(0), Opt::Retest(0)],
    );
    assert!(offered(&seen, Opt::Retest(0)));
    assert_eq!(scores(&log), vec![[15, 5]]);
    // A plain retest merit (Mirror of Seeming) may still retest a Stalemate.
    let m = into(
        "t-l",
        Who::new((0, 0)).merits(&["arc-m-mirror-of-seeming", "t-plain"]),
        &["t-w-forest"],
        1,
    );
    let (_, _, seen) = run(&m, "1 2 1 2 2 1", &[E, Opt::Play(0), Opt::Accept]);
    assert!(offered(&seen, Opt::Retest(0)));
}

#[test]
fn a_typed_exhaust_failure_may_discard_an_exhausted_merit_of_its_types_and_an_untyped_one_ruins_a_character_with_none()
 {
    // Two Arts, the first exhausted: exhaust the second or discard the first.
    let m = into(
        "t-l",
        Who::new((0, 0)).merits(&["t-art", "t-art-steady", "t-plain"]),
        &["t-w-ex-art"],
        1,
    );
    let mut st = State::new(&m);
    st.heroes[0].exhausted = 0b001;
    let (st, _, seen) = run_from(&m, st, "1 2 1 6 6 1 1", &[E, Opt::Play(0), Opt::Discard(0)]);
    assert!(
        seen.iter()
            .any(|(_, o)| o == &vec![Opt::Exhaust(1), Opt::Discard(0)])
    );
    assert_eq!((st.heroes[0].exhausted, st.heroes[0].discarded), (0, 0b001));
    // "Exhaust one merit of your choice" with no merit at all: ruined, as by a lost test.
    let (st, log, _) = fail_trial("arc-w-thorn-maze", Who::new((0, 0)), "1 2 1", &[]);
    assert!(
        log.iter()
            .any(|e| matches!(e, Event::Ruined { player: 0, .. }))
    );
    assert!(st.heroes[0].skip);
}

// ---- quest time limits, "while held" objectives, looking at face-down treasures ----

/// Ann's quest: a goal wood at (`x`, 0) within 2 of her Days; she walks east every Day.
fn timed(x: usize, b: Who) -> Match {
    let a = Who::new((0, 0)).quests(&["t-q-timed"]);
    game_limit(woods_with((x, 0), "t-l-goal"), a, b, 6)
}

#[test]
fn a_quest_done_on_the_last_day_of_its_time_limit_is_done() {
    let m = timed(2, Who::new((4, 1)));
    let (st, log, _) = run(&m, "1 2", &[E, Opt::Stay, E]);
    assert!(of_kind(&log, "quest_failed").is_empty());
    assert_eq!(st.heroes[0].quests_done, 1);
    assert_eq!(st.ended.map(|e| e.1), Some(Some(Winner::Player(0))));
}

#[test]
fn a_quest_not_done_by_its_time_limit_fails_and_can_no_longer_be_done() {
    // The goal three leagues away: at the end of Ann's second Day (Day 3) the quest fails;
    // Bob may still win, so the match goes on, and reaching the goal later does nothing.
    let m = timed(3, Who::new((4, 1)));
    let s = Opt::Stay;
    let (st, log, _) = run(&m, "1 2", &[E, s, E, s, E]);
    let failed = log
        .iter()
        .position(|e| {
            matches!(
                e,
                Event::QuestFailed {
                    player: 0,
                    quest: 0
                }
            )
        })
        .expect("the quest fails");
    assert!(matches!(
        log[..failed]
            .iter()
            .rev()
            .find(|e| matches!(e, Event::Day { .. })),
        Some(Event::Day { day: 3, player: 0 })
    ));
    assert_eq!(st.heroes[0].at, 3, "Ann reached the goal on Day 5");
    assert_eq!(
        (st.heroes[0].quests_done, st.heroes[0].quests_failed),
        (0, 1)
    );
    assert_eq!(
        st.ended.map(|e| e.1),
        Some(Some(Winner::Draw)),
        "the turn limit"
    );
    assert!(of_kind(&log, "quest_done").is_empty());
}

#[test]
fn when_no_character_can_complete_its_quests_the_match_is_a_draw_at_once() {
    // Both quests timed, both characters too slow: Ann's fails on Day 3, Bob's on Day 4,
    // and the match ends then, decided (no one can win), not at the turn limit.
    let m = timed(3, Who::new((4, 1)).quests(&["t-q-timed"]));
    let s = Opt::Stay;
    let (st, log, _) = run(&m, "1 2", &[E, s, E, s]);
    assert_eq!(of_kind(&log, "quest_failed").len(), 2);
    assert_eq!(st.day, 4);
    assert!(matches!(
        log.last(),
        Some(Event::End {
            ended: deckwright::games::Ended::Victory,
            winner: Some(Winner::Draw)
        })
    ));
}

#[test]
fn bundled_timed_quests_carry_their_limits() {
    let m = game_limit(
        WOODS,
        Who::new((0, 0)).quests(&["arc-q-lantern-keepers-errand"]),
        Who::new((4, 1)).quests(&["arc-q-the-scattered-hoard"]),
        1,
    );
    assert_eq!(m.players[0].quests[0].time_limit, Some(24));
    assert_eq!(m.players[1].quests[0].time_limit, Some(30));
}

/// Ann's treasure hidden at (2, 0), the goal wood at (1, 0): she walks through the goal,
/// finds the treasure, and walks back west into the goal with it.
fn carry_scenario() -> (Match, [Opt; 7]) {
    let a = Who::new((0, 0))
        .quests(&["t-q-carry"])
        .treasures(&["t-treasure"]);
    // The match stops after Day 5, Ann's walk back into the goal.
    let m = game_limit(woods_with((1, 0), "t-l-goal"), a, Who::new((4, 1)), 5);
    let s = Opt::Stay;
    (m, [Opt::Hide(2), E, s, E, Opt::Treasure, s, W])
}

#[test]
fn a_hold_objective_counts_only_treasures_still_held_where_they_are_carried() {
    let (m, choices) = carry_scenario();
    let (st, log, _) = run(&m, "1 2", &choices[..6]);
    assert_eq!(
        (st.heroes[0].treasures_found, st.heroes[0].quests_done),
        (1, 0),
        "the goal was passed before the treasure was held: {log:?}"
    );
    let (st, _, _) = run(&m, "1 2", &choices);
    assert_eq!(st.heroes[0].quests_done, 1, "carried to the goal");
    // The treasure discarded on the way: it is not carried, so the goal does nothing.
    let bit = 1u32 << m.players[0].own;
    let (st, log, _) = run_arranged(&m, State::new(&m), "1 2", &choices, |st, next| {
        if next == W {
            st.heroes[0].discarded |= bit;
        }
    });
    assert_eq!(
        (st.heroes[0].at, st.heroes[0].quests_done),
        (1, 0),
        "{log:?}"
    );
}

#[test]
fn bundled_a_choice_of_roads_needs_both_treasures_still_held_in_the_mountains() {
    // As `bundled_a_choice_of_roads_carries_two_treasures_to_the_mountains_in_that_order`,
    // but the first treasure is lost to a waylay's trial on the way back.
    let a = Who::new((0, 0))
        .quests(&["arc-q-a-choice-of-roads"])
        .treasures(&["t-treasure", "t-treasure"]);
    let b = Who::new((4, 1)).quests(&["t-q-never"]);
    // The match stops after Day 9, Ann's walk into the mountains.
    let m = game_limit(woods_with((1, 0), "t-l-wild"), a, b, 9);
    let s = Opt::Stay;
    let choices = [
        Opt::Hide(2),
        Opt::Hide(3),
        E,
        s,
        E,
        Opt::Treasure,
        s,
        E,
        Opt::Treasure,
        s,
        W,
        s,
        W,
    ];
    let own = m.players[0].own;
    let (st, _, _) = run_arranged(&m, State::new(&m), "1 2", &choices, |st, next| {
        if next == W && st.heroes[0].at == 2 {
            st.heroes[0].discarded |= 1 << own;
        }
    });
    assert_eq!(st.heroes[0].at, 1, "in the mountains");
    assert_eq!(st.heroes[0].quests_done, 0, "with one treasure only");
}

/// Bob hides two treasures, at (3, 0) and (3, 1); Ann rests in the lookout wood at (1, 0).
fn lookout(bob_treasures: &[&'static str]) -> Match {
    let a = Who::new((0, 0));
    let b = Who::new((4, 1)).treasures(bob_treasures);
    game_limit(woods_with((1, 0), "t-l-lookout"), a, b, 1)
}

#[test]
fn resting_in_a_lookout_league_looks_at_one_face_down_treasure_of_the_other() {
    use deckwright::games::arcadia::engine::ArcadiaGame;
    use deckwright::games::game::Game;
    use rand::SeedableRng;
    let m = lookout(&["t-treasure", "t-treasure"]);
    let (st, log, seen) = run(&m, "1 2", &[Opt::Hide(3), Opt::Hide(8), E, Opt::Look(8)]);
    assert!(
        seen.iter()
            .any(|(p, o)| *p == 0 && o == &[Opt::Look(3), Opt::Look(8)]),
        "Ann picks among the leagues holding Bob's face-down treasures: {seen:?}"
    );
    let e = log
        .iter()
        .find(|e| e.kind() == "treasure_seen")
        .expect("a treasure seen");
    assert_eq!(
        *e,
        Event::TreasureSeen {
            player: 0,
            treasure: 1,
            league: 8
        }
    );
    assert_eq!(st.heroes[1].peeked, 0b10);
    // Ann sees which treasure it is; Bob and spectators are told only where she looked.
    let g = ArcadiaGame { m: &m, st };
    let hidden = g.hidden(e).expect("hidden from the others");
    assert!(hidden.seen(Some(0)) && !hidden.seen(Some(1)) && !hidden.seen(None));
    assert!(g.event_text(e).contains("Test Treasure"));
    assert!(!hidden.text.contains("Test Treasure"), "{}", hidden.text);
    // Ann's determinization keeps the treasure she saw where it lies.
    for seed in 0..16 {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let d = st.seen_by(&m, 0, &mut rng);
        assert_eq!(d.heroes[1].treasure_at[1], 8, "seed {seed}");
    }
}

#[test]
fn a_lookout_with_one_face_down_treasure_looks_at_it_without_a_decision_and_with_none_looks_at_nothing()
 {
    let m = lookout(&["t-treasure"]);
    let (st, log, seen) = run(&m, "1 2", &[Opt::Hide(3), E]);
    assert!(
        !seen
            .iter()
            .any(|(_, o)| o.iter().any(|x| matches!(x, Opt::Look(_))))
    );
    assert_eq!(of_kind(&log, "treasure_seen").len(), 1);
    assert_eq!(st.heroes[1].peeked, 1);
    let m = lookout(&[]);
    let (_, log, _) = run(&m, "1 2", &[E]);
    assert!(of_kind(&log, "treasure_seen").is_empty());
    assert!(!of_kind(&log, "rests").is_empty());
}

#[test]
fn bundled_worlds_edge_scarp_looks_at_a_face_down_treasure_when_rested_in() {
    // Its borders keep it out of the test grid: its effect is the lookout wood's form.
    let scarp = cards()
        .into_iter()
        .find_map(|c| match c {
            deckwright::cards::Card::Arcadia(
                deckwright::games::arcadia::model::ArcadiaCard::League(l),
            ) if l.id == "arc-l-worlds-edge-scarp" => Some(l),
            _ => None,
        })
        .expect("bundled");
    assert_eq!(scarp.looks(), 1);
    assert_eq!(scarp.effects.len(), 1);
}

#[test]
fn every_bundled_league_effect_reads_as_one_tagged_form_that_writes_back_the_same_table() {
    use deckwright::games::arcadia::model::{ArcadiaCard, LeagueEffect, LeagueForm};
    let mut keys = Vec::new();
    for c in cards() {
        let deckwright::cards::Card::Arcadia(ArcadiaCard::League(l)) = c else {
            continue;
        };
        for e in &l.effects {
            let form = e.form().unwrap_or_else(|| panic!("{}: {e:?}", l.id));
            assert_eq!(&form.table(), e, "{}", l.id);
            keys.push(form.key());
        }
    }
    for key in [
        "forbid_merits",
        "forbid_ratings",
        "modify",
        "trial",
        "rest_extra",
        "look_at_treasures",
    ] {
        assert!(keys.contains(&key), "no test or bundled league has {key}");
    }
    // A table of two forms, or a form missing its partner key, is no form.
    let two = LeagueEffect {
        forbid_ratings: Some(vec![1]),
        look_at_treasures: Some(1),
        ..LeagueEffect::default()
    };
    let half = LeagueEffect {
        modify: Some(1),
        ..LeagueEffect::default()
    };
    assert_eq!((two.form(), half.form()), (None, None));
    assert_eq!(
        LeagueForm::LookAtTreasures(2).table().look_at_treasures,
        Some(2)
    );
}
