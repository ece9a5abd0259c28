//! The computer decides from its own seat's view (`Game::determinize`, `seat-greedy`,
//! `seat-mcts`): a determinization keeps everything the seat sees and re-draws the rest, a
//! seat-view policy decides the same whatever the hidden facts are, and a hosted match's
//! computer seat plays the seat-view policy.

use deckwright::cards::{Card, parse_card};
use deckwright::games::ai::{Agent, Budget, Evaluated, Policy};
use deckwright::games::arcadia::character::CharacterFile;
use deckwright::games::arcadia::engine::state::{DEFEATED, FOUND, IN_HAND, UNPLACED};
use deckwright::games::arcadia::engine::{ArcadiaGame, Match, Phase};
use deckwright::games::arcadia::setup::SetupFile;
use deckwright::games::conformance::check_determinization;
use deckwright::games::game::{Game, Turn};
use deckwright::games::iconica::engine::{IconicaGame, Rules, Setup};
use deckwright::games::iconoclasm::engine::{Deck, Goal, IconoclasmGame, deal};
use deckwright::games::iconoclasm::model::ClashTable;
use deckwright::games::session::Seat;
use deckwright::net::host::Sitter;
use proptest::prelude::*;
use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn arcadia(file: &str) -> Match {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("examples/arcadia")
        .join(file);
    let setup = SetupFile::parse(&std::fs::read_to_string(&path).unwrap(), file).unwrap();
    let chars: Vec<CharacterFile> = setup
        .character_paths(&path)
        .iter()
        .map(|p| CharacterFile::parse(&std::fs::read_to_string(p).unwrap(), "c").unwrap())
        .collect();
    let cards: Vec<Card> = deckwright::cards::bundled()
        .into_iter()
        .filter_map(|(p, t)| parse_card(t, &p).ok())
        .collect();
    Match::new(&setup, &chars, &cards, 60).unwrap()
}

/// Player b's treasures lying face down (hidden in a league, never seen).
fn face_down(m: &Match, g: &ArcadiaGame<'_>) -> Vec<usize> {
    let h = &g.st.heroes[1];
    (0..m.players[1].treasures())
        .filter(|&t| usize::from(h.treasure_at[t]) < m.leagues.len() && h.shown & (1 << t) == 0)
        .collect()
}

/// A position of a seeded random match where player a moves, player b has at least two
/// treasures face down and a waylay in hand: where hidden facts matter to player a.
fn arcadia_position(m: &Match) -> ArcadiaGame<'_> {
    for seed in 0..200u64 {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut g = ArcadiaGame::new(m);
        for _ in 0..400 {
            match g.turn() {
                Turn::Over => break,
                Turn::Chance(c) => g.apply(rng.random_range(0..c.outcomes())),
                Turn::Seat { seat, options } => {
                    let holds = (0..m.waylays.len())
                        .any(|w| m.waylay_owner[w] == 1 && g.st.waylay_at[w] == IN_HAND);
                    if seat == 0
                        && options > 1
                        && g.st.phase == Phase::Move
                        && face_down(m, &g).len() >= 2
                        && holds
                    {
                        return g;
                    }
                    g.apply(rng.random_range(0..options));
                }
            }
        }
    }
    panic!("no position with hidden facts in 200 seeded matches");
}

/// `g` with the hidden truth changed and nothing player a sees: player b's first two
/// face-down treasures swapped, and one of its waylays in hand out of the game.
fn other_truth<'m>(m: &Match, g: &ArcadiaGame<'m>) -> ArcadiaGame<'m> {
    let mut t = *g;
    let down = face_down(m, g);
    t.st.heroes[1].treasure_at.swap(down[0], down[1]);
    let w = (0..m.waylays.len())
        .find(|&w| m.waylay_owner[w] == 1 && g.st.waylay_at[w] == IN_HAND)
        .unwrap();
    t.st.waylay_at[w] = DEFEATED;
    assert_ne!(t.st, g.st);
    t
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(6))]

    /// Every determinization of every seat at every decision keeps the seat's view of the
    /// log, its turn, question and options, and plays on to an end.
    #[test]
    fn an_arcadia_determinization_keeps_what_the_seat_sees(seed in any::<u64>(), laid in any::<bool>()) {
        let m = arcadia(if laid { "legal-laid-in-play.setup.toml" } else { "legal-long-road.setup.toml" });
        let mut log = Vec::new();
        let g = ArcadiaGame::start(&m, &mut log);
        let checked = check_determinization(&g, &log, seed, 200_000);
        prop_assert!(matches!(checked, Ok(n) if n > 0), "{checked:?}");
    }

    /// Iconica and Iconoclasm (1 to 4 players, the solo pile included) hide nothing a
    /// policy reads: no determinization, and the check still plays the match through.
    #[test]
    fn games_that_hide_nothing_give_no_determinization(seed in any::<u64>(), players in 1u8..=4) {
        let all = deckwright::games::iconica::bundled_characters();
        let setup = Setup::duel(&all[0..3], &all[3..6], Rules::default()).unwrap();
        prop_assert_eq!(check_determinization(&IconicaGame::new(&setup), &[], seed, 200_000), Ok(0));
        let goal = if players == 1 { Goal::Balance } else { Goal::Dominance };
        let deal = deal(Deck::standard(), &ClashTable::standard(), players, goal, &mut ChaCha8Rng::seed_from_u64(seed)).unwrap();
        let mut log = Vec::new();
        let g = IconoclasmGame::start(&deal, &mut log);
        prop_assert_eq!(check_determinization(&g, &log, seed, 10_000), Ok(0));
    }
}

#[test]
fn an_arcadia_determinization_redraws_only_the_hidden_facts() {
    let m = arcadia("legal-long-road.setup.toml");
    let g = arcadia_position(&m);
    let down = face_down(&m, &g);
    let mut placements = std::collections::BTreeSet::new();
    for seed in 0..24 {
        let w = g
            .determinize(0, &mut ChaCha8Rng::seed_from_u64(seed))
            .expect("Arcadia determinizes");
        // What player a knows stays: its own character, treasures and hand, the board, the
        // Day, b's place, merits and the treasures b found.
        assert_eq!(w.st.heroes[0], g.st.heroes[0]);
        let (hw, hg) = (&w.st.heroes[1], &g.st.heroes[1]);
        assert_eq!(
            (hw.at, hw.owned, hw.exhausted),
            (hg.at, hg.owned, hg.exhausted)
        );
        for (t, (a, b)) in hw.treasure_at.iter().zip(&hg.treasure_at).enumerate() {
            if !down.contains(&t) {
                assert_eq!(a, b, "treasure {t} is seen");
            }
        }
        // The leagues holding b's face-down treasures are seen; which lies where is not.
        let mut lw: Vec<u8> = down.iter().map(|&t| hw.treasure_at[t]).collect();
        let mut lg: Vec<u8> = down.iter().map(|&t| hg.treasure_at[t]).collect();
        placements.insert(lw.clone());
        lw.sort();
        lg.sort();
        assert_eq!(lw, lg);
        assert!(lw.iter().all(|l| *l != UNPLACED && *l != FOUND));
        for wl in 0..m.waylays.len() {
            let (a, b) = (w.st.waylay_at[wl], g.st.waylay_at[wl]);
            if m.waylay_owner[wl] == 1 && b == IN_HAND {
                assert_eq!(a, DEFEATED, "b's hand is not read");
            } else {
                assert_eq!(a, b, "waylay {wl} is seen or a's own");
            }
        }
    }
    assert!(
        placements.len() > 1,
        "24 seeds dealt b's treasures one way only: {placements:?}"
    );
}

#[test]
fn a_seat_view_policy_decides_the_same_whatever_the_hidden_truth() {
    let m = arcadia("legal-long-road.setup.toml");
    let g = arcadia_position(&m);
    let t = other_truth(&m, &g);
    let Turn::Seat { seat, options } = g.turn() else {
        panic!("a decision")
    };
    assert_eq!(t.turn(), g.turn());
    for seed in 0..6 {
        let mut a = ChaCha8Rng::seed_from_u64(seed);
        let mut b = a.clone();
        assert_eq!(
            g.determinize(seat, &mut a).map(|w| w.st),
            t.determinize(seat, &mut b).map(|w| w.st),
            "seed {seed}: the worlds differ"
        );
        for policy in [Policy::SeatGreedy, Policy::SeatMcts(Budget::Playouts(12))] {
            let choose = |p: &ArcadiaGame<'_>| {
                Agent::<<ArcadiaGame<'_> as Evaluated>::Eval>::new(policy, seed)
                    .choose(p, seat, options)
            };
            assert_eq!(choose(&g), choose(&t), "{policy}, seed {seed}");
        }
    }
}

#[test]
fn where_nothing_is_hidden_seat_mcts_plays_as_mcts() {
    let setup = deal(
        Deck::standard(),
        &ClashTable::standard(),
        2,
        Goal::Dominance,
        &mut ChaCha8Rng::seed_from_u64(4),
    )
    .unwrap();
    let mut log = Vec::new();
    let g = IconoclasmGame::start(&setup, &mut log);
    let Turn::Seat { seat, options } = g.turn() else {
        panic!("a decision")
    };
    for seed in 0..3 {
        let choose = |p: Policy| {
            Agent::<<IconoclasmGame<'_> as Evaluated>::Eval>::new(p, seed).choose(&g, seat, options)
        };
        assert_eq!(
            choose(Policy::SeatMcts(Budget::Playouts(8))),
            choose(Policy::Mcts(Budget::Playouts(8)))
        );
        assert_eq!(choose(Policy::SeatGreedy), choose(Policy::Greedy));
    }
}

/// Solo Iconoclasm: the dealt pile's order past the cards drawn is the hidden fact, and no
/// policy (the all-seeing `mcts` included) reads it: the same choice with the rest shuffled.
#[test]
fn no_policy_reads_the_solo_pile_s_order() {
    let setup = deal(
        Deck::standard(),
        &ClashTable::standard(),
        1,
        Goal::Balance,
        &mut ChaCha8Rng::seed_from_u64(9),
    )
    .unwrap();
    let mut log = Vec::new();
    let mut g = IconoclasmGame::start(&setup, &mut log);
    let mut rng = ChaCha8Rng::seed_from_u64(2);
    // On to a decision with a few cards drawn and more to come.
    let (seat, options) = loop {
        match g.turn() {
            Turn::Chance(c) => g.apply(g.dealt(c).unwrap()),
            Turn::Seat { seat, options } if g.st.undrawn.count_ones() < 10 && options > 1 => {
                break (seat, options);
            }
            Turn::Seat { options, .. } => g.apply(rng.random_range(0..options)),
            Turn::Over => panic!("over before a decision"),
        }
    };
    let mut shuffled = setup.clone();
    let drawn = shuffled.draw_pile.len() - g.st.undrawn.count_ones() as usize;
    shuffled.draw_pile[drawn..].shuffle(&mut rng);
    assert_ne!(shuffled.draw_pile, setup.draw_pile);
    let other = IconoclasmGame::at(&shuffled, g.st);
    for policy in [
        Policy::Greedy,
        Policy::Mcts(Budget::Playouts(24)),
        Policy::SeatMcts(Budget::Playouts(8)),
    ] {
        for seed in 0..3 {
            let choose = |p: &IconoclasmGame<'_>| {
                Agent::<<IconoclasmGame<'_> as Evaluated>::Eval>::new(policy, seed)
                    .choose(p, seat, options)
            };
            assert_eq!(choose(&g), choose(&other), "{policy}, seed {seed}");
        }
    }
}

#[test]
fn a_hosted_computer_seat_decides_from_its_seat_s_view() {
    let seat = |s: &str| Sitter::parse(s).unwrap().seat();
    assert_eq!(
        seat("mcts"),
        Seat::Computer(Policy::SeatMcts(Budget::Playouts(48)))
    );
    assert_eq!(
        seat("mcts:200"),
        Seat::Computer(Policy::SeatMcts(Budget::Playouts(200)))
    );
    assert_eq!(seat("greedy"), Seat::Computer(Policy::SeatGreedy));
    assert_eq!(seat("random"), Seat::Computer(Policy::Random));
    assert_eq!(seat("first"), Seat::Computer(Policy::First));
    assert_eq!(
        seat("seat-mcts:20ms"),
        Seat::Computer(Policy::SeatMcts(Budget::Millis(20)))
    );
    assert_eq!(seat("remote"), Seat::Person);
    assert_eq!(Sitter::Computer(Policy::Greedy).name(), "seat-greedy");
    for s in [
        "host",
        "remote",
        "first",
        "random",
        "greedy",
        "mcts",
        "seat-mcts:7",
    ] {
        match Sitter::parse(s).unwrap().seat() {
            Seat::Computer(p) => assert!(p.seat_only(), "{s} reads hidden facts"),
            Seat::Person => {}
        }
    }
}
