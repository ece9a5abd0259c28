//! The setup played (issue 14; rules card 3, "Setting the Stage", 3-5): a setup whose
//! players bring their leagues is laid in play, the lower roll first, by turns, by the edge
//! rules (a contested Unique league to the player with fewer character points); treasures
//! one at a time; each player chooses the other's Base Camp. Scripted scenarios, then
//! properties: every map laid passes `validate`'s placement rules, every treasure rule holds.

use crate::engine_props::{checked_play, example, policy};
use crate::support::*;
use deckwright::games::arcadia::engine::setup::NO_BASE;
use deckwright::games::arcadia::engine::state::{FOUND, UNPLACED};
use deckwright::games::arcadia::engine::{Event, Match, Opt, Phase, State};
use deckwright::games::arcadia::rules::check_setup;
use deckwright::games::arcadia::setup::LaidLeague;
use proptest::prelude::*;

const WOOD5: [&str; 5] = ["t-l"; 5];

fn laid(log: &[Event]) -> Vec<(u8, u8, i8, i8)> {
    log.iter()
        .filter_map(|e| {
            if let Event::LeagueLaid {
                player,
                league,
                x,
                y,
            } = e
            {
                Some((*player, *league, *x, *y))
            } else {
                None
            }
        })
        .collect()
}

/// Runs the setup only: stops when the first Day begins.
fn setup_only(m: &Match, dice: &str, choices: &[Opt]) -> Ran {
    let m1 = Match {
        turn_limit: 1,
        ..m.clone()
    };
    run(&m1, dice, choices)
}

#[test]
fn the_lower_roll_lays_first_and_the_players_take_turns() {
    let m = brought(Who::new((0, 0)), Who::new((0, 0)), &WOOD5, &WOOD5, 1);
    let (st, log, _) = setup_only(&m, "2 5", &[]);
    let who: Vec<u8> = laid(&log).iter().map(|l| l.0).collect();
    assert_eq!(who, vec![0, 1, 0, 1, 0, 1, 0, 1, 0, 1]);
    assert_eq!(
        laid(&log)[0],
        (0, 0, 0, 0),
        "the first league lies at (0, 0)"
    );
    assert_eq!(st.n_laid, 10);
    assert!(matches!(
        log.iter().find(|e| matches!(e, Event::Day { .. })),
        Some(Event::Day { day: 1, player: 0 })
    ));

    let (_, log, _) = setup_only(&m, "5 2", &[]);
    assert_eq!(laid(&log)[0].0, 1, "Bob rolled lower: he lays first");
    assert!(matches!(
        log.iter().find(|e| matches!(e, Event::Day { .. })),
        Some(Event::Day { day: 1, player: 1 })
    ));
}

#[test]
fn a_league_is_laid_where_the_player_chooses_among_the_places_that_fit() {
    let m = brought(Who::new((0, 0)), Who::new((0, 0)), &WOOD5, &WOOD5, 1);
    let (_, log, seen) = setup_only(&m, "2 5", &[Opt::At(-1, 0)]);
    // Bob's second league: every side of Ann's first.
    assert!(seen.iter().any(|(p, o)| *p == 1
        && o == &vec![Opt::At(0, -1), Opt::At(1, 0), Opt::At(0, 1), Opt::At(-1, 0)]));
    assert_eq!(laid(&log)[1], (1, 5, -1, 0));
}

#[test]
fn a_league_that_fits_nowhere_is_set_aside_and_its_player_passes() {
    // Kelpdeep Shallows has ocean on every side: it never lies beside a forest.
    let lb = ["arc-l-kelpdeep-shallows", "t-l", "t-l", "t-l", "t-l"];
    let m = brought(Who::new((0, 0)), Who::new((0, 0)), &WOOD5, &lb, 1);
    let (st, log, seen) = setup_only(&m, "2 5", &[]);
    assert!(
        seen.iter().all(|(_, o)| !o.contains(&Opt::Lay(5))),
        "never offered"
    );
    assert_eq!(st.n_laid, 9);
    assert!(!st.in_play(5));
    assert_eq!(laid(&log).iter().filter(|l| l.0 == 1).count(), 4);
}

#[test]
fn a_contested_unique_league_is_laid_by_the_player_with_fewer_points() {
    let la = ["arc-l-starfall-orchard", "t-l", "t-l", "t-l", "t-l"];
    // Ann holds one merit (1 point), Bob two: only Ann may lay the Orchard.
    let a = Who::new((0, 0)).merits(&["t-plain"]);
    let b = Who::new((0, 0)).merits(&["t-plain", "t-plain-2"]);
    let m = brought(a.clone(), b.clone(), &la, &la, 1);
    let (st, _, seen) = setup_only(&m, "5 2", &[]);
    assert!(
        seen.iter()
            .all(|(p, o)| *p == 0 || !o.contains(&Opt::Lay(5))),
        "Bob's copy is discarded"
    );
    assert!(st.in_play(0) && !st.in_play(5));
    // The other way round: Bob lays it.
    let m = brought(b, a, &la, &la, 1);
    let (st, _, _) = setup_only(&m, "2 5", &[]);
    assert!(!st.in_play(0) && st.in_play(5));

    // On equal points whoever lays it first keeps it; the other copy goes.
    let a = Who::new((0, 0)).merits(&["t-plain"]);
    let m = brought(a.clone(), a, &la, &la, 1);
    let (st, log, seen) = setup_only(&m, "5 2", &[Opt::Lay(5)]);
    assert_eq!(laid(&log)[0], (1, 5, 0, 0));
    assert!(
        seen.iter()
            .all(|(p, o)| *p == 1 || !o.contains(&Opt::Lay(0)))
    );
    assert!(!st.in_play(0));
}

#[test]
fn treasures_are_hidden_one_at_a_time_then_each_chooses_the_others_base_camp() {
    let a = Who::new((0, 0)).treasures(&["t-treasure", "t-treasure"]);
    let b = Who::new((0, 0)).treasures(&["t-treasure"]);
    let m = brought(a, b, &WOOD5, &WOOD5, 1);
    let st0 = State::new(&m);
    assert_eq!(st0.heroes[0].base, NO_BASE);
    // Ann first: the map laid by first options; then treasures Ann, Bob, Ann; Ann picks
    // Bob's camp (league 7), Bob picks Ann's (league 2).
    let mut st = State::new(&m);
    let mut log = Vec::new();
    st.apply(&m, 1, &mut log);
    st.apply(&m, 4, &mut log);
    while matches!(st.phase, Phase::LayLeague { .. } | Phase::LayAt { .. }) {
        st.apply(&m, 0, &mut log);
    }
    assert_eq!(st.phase, Phase::PlaceTreasure { player: 0 });
    let (st, log, seen) = run_from(
        &m,
        st,
        "",
        &[
            Opt::Hide(0),
            Opt::Hide(5),
            Opt::Hide(1),
            Opt::Place(7),
            Opt::Place(2),
        ],
    );
    let hid: Vec<u8> = log
        .iter()
        .filter_map(|e| {
            if let Event::TreasureHidden { player, .. } = e {
                Some(*player)
            } else {
                None
            }
        })
        .collect();
    assert_eq!(hid, vec![0, 1, 0]);
    let chose: Vec<(u8, u8)> = log
        .iter()
        .filter_map(|e| {
            if let Event::BaseChosen { by, league } = e {
                Some((*by, *league))
            } else {
                None
            }
        })
        .collect();
    assert_eq!(chose, vec![(0, 7), (1, 2)]);
    assert_eq!((st.heroes[1].base, st.heroes[1].at), (7, 7));
    assert_eq!(st.heroes[0].base, 2);
    assert!(
        log.iter().any(|e| matches!(
            e,
            Event::Moves {
                player: 0,
                from: 2,
                ..
            }
        )),
        "Day 1 starts from the Base Camp"
    );
    // Every league laid is offered as a Base Camp, in the order laid.
    let bases = seen
        .iter()
        .find(|(p, o)| *p == 0 && o.contains(&Opt::Place(7)))
        .unwrap();
    assert_eq!(bases.1.len(), 10);
    // The first Day is the first player's.
    assert!(
        log.iter()
            .any(|e| matches!(e, Event::Day { day: 1, player: 0 }))
    );
}

#[test]
fn the_setup_phases_are_decisions_of_the_seats() {
    let m = brought(
        Who::new((0, 0)).treasures(&["t-treasure"]),
        Who::new((0, 0)),
        &WOOD5,
        &WOOD5,
        1,
    );
    let mut st = State::new(&m);
    let mut log = Vec::new();
    st.apply(&m, 1, &mut log);
    st.apply(&m, 4, &mut log);
    // Ann's first league is laid at once (one league kind, one place); Bob's is a decision.
    assert_eq!(st.phase, Phase::LayAt { player: 1, slot: 5 });
    assert_eq!(st.decider(), 1);
}

#[test]
fn the_example_setup_laid_in_play_plays_to_the_end_under_every_policy() {
    let m = example("legal-laid-in-play", 500);
    assert!(!m.laid);
    for p in 0..4u8 {
        let (st, log) = checked_play(&m, u64::from(p) + 7, policy(p), policy(p + 1));
        assert!(st.ended.is_some());
        assert!(log.iter().any(|e| matches!(e, Event::BaseChosen { .. })));
        // The Unique Starfall Orchard both bring is laid at most once.
        let orchards = laid(&log)
            .iter()
            .filter(|l| m.leagues[l.1 as usize].id == "arc-l-starfall-orchard")
            .count();
        assert!(orchards <= 1);
    }
}

/// The bundled leagues.
fn bundled_leagues() -> Vec<String> {
    let mut v: Vec<String> = crate::engine_props::bundled()
        .iter()
        .filter(|c| c.id().starts_with("arc-l-"))
        .map(|c| c.id().to_string())
        .collect();
    v.sort();
    v
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, ..ProptestConfig::default() })]

    /// Whatever the leagues brought and the policies, the map laid passes `validate`'s
    /// placement and Unique rules, and every treasure rule holds after the setup.
    #[test]
    fn a_laid_map_satisfies_validate_and_every_treasure_rule_holds(
        picks in proptest::collection::vec(proptest::sample::subsequence((0..14usize).collect::<Vec<_>>(), 5), 2),
        seed in any::<u64>(),
        pa in 0u8..4,
        pb in 0u8..4,
        treasures in (0usize..4, 0usize..4),
    ) {
        let all = bundled_leagues();
        let la: Vec<&str> = picks[0].iter().map(|i| all[*i].as_str()).collect();
        let lb: Vec<&str> = picks[1].iter().map(|i| all[*i].as_str()).collect();
        let a = Who::new((0, 0)).merits(&["t-plain"]).treasures(&["t-treasure"; 4][..treasures.0]);
        let b = Who::new((0, 0)).merits(&["t-plain"]).treasures(&["t-treasure"; 4][..treasures.1]);
        let (setup, characters) = brought_setup(a, b, &la, &lb);
        let m = Match::new(&setup, &characters, &cards(), 1).unwrap();
        let (st, log) = checked_play(&m, seed, policy(pa), policy(pb));

        // The map, written as a laid setup, passes validate's placement and Unique rules.
        let order = st.laid_order(&m);
        prop_assert!(!order.is_empty());
        let mut as_laid = setup.clone();
        for p in &mut as_laid.players {
            p.leagues.clear();
        }
        as_laid.leagues = order
            .iter()
            .map(|l| {
                let p = st.pos(&m, *l);
                LaidLeague { id: m.leagues[*l as usize].id.clone(), owner: m.league_owner[*l as usize] + 1, x: p.x, y: p.y }
            })
            .collect();
        let report = check_setup(&as_laid, &characters, &cards());
        let bad: Vec<_> = report.violations.iter().filter(|v| v.rule == "league-placement" || v.rule == "unique-league").collect();
        prop_assert!(bad.is_empty(), "{:?}", bad);
        // The lower roll lays first (the turns are the scenarios').
        let who: Vec<u8> = laid(&log).iter().map(|l| l.0).collect();
        prop_assert_eq!(who[0], st.first);

        // Treasures: each hidden in a league laid, one at a time by turns from the first
        // player; a league holds two only when every league holds one.
        let mut count = vec![0u32; m.leagues.len()];
        for (p, h) in st.heroes.iter().enumerate() {
            for t in &h.treasure_at[..m.players[p].treasures()] {
                prop_assert!(*t != UNPLACED);
                if *t != FOUND {
                    prop_assert!(st.in_play(*t));
                    count[*t as usize] += 1;
                }
            }
        }
        let most = order.iter().map(|l| count[*l as usize]).max().unwrap_or(0);
        let least = order.iter().map(|l| count[*l as usize]).min().unwrap_or(0);
        prop_assert!(most <= 1 || least >= 1, "a league holds {most} treasures while another holds none");
        let hid: Vec<u8> = log.iter().filter_map(|e| if let Event::TreasureHidden { player, .. } = e { Some(*player) } else { None }).collect();
        let both = 2 * treasures.0.min(treasures.1);
        for (i, p) in hid.iter().take(both).enumerate() {
            prop_assert_eq!(*p, if i % 2 == 0 { st.first } else { 1 - st.first });
        }
        // Both Base Camps chosen among the leagues laid.
        for h in &st.heroes {
            prop_assert!(h.base != NO_BASE && st.in_play(h.base));
        }
    }
}
