//! Properties of the Arcadia engine over random seeds and policies: every match ends, the
//! state invariants hold after every step, and the same inputs replay the same log.

use crate::support::*;
use deckwright::cards::{Card, parse_card};
use deckwright::games::ai::Evaluated;
use deckwright::games::arcadia::ai::Agent;
use deckwright::games::arcadia::character::CharacterFile;
use deckwright::games::arcadia::engine::{ArcadiaGame, Dice, Event, Match, Node, RngDice, State};
use deckwright::games::arcadia::setup::SetupFile;
use deckwright::games::iconica::ai::PolicyKind;
use proptest::prelude::*;

/// The bundled cards.
pub fn bundled() -> Vec<Card> {
    deckwright::cards::bundled()
        .into_iter()
        .filter(|(p, _)| p.starts_with("cards/arcadia/"))
        .map(|(p, t)| parse_card(t, &p).unwrap())
        .collect()
}

/// The match of `examples/arcadia/NAME.setup.toml` over the bundled cards.
pub fn example(name: &str, turn_limit: u32) -> Match {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let path = root.join(format!("examples/arcadia/{name}.setup.toml"));
    let setup = SetupFile::parse(&std::fs::read_to_string(&path).unwrap(), "setup").unwrap();
    let chars: Vec<CharacterFile> = setup
        .character_paths(&path)
        .iter()
        .map(|p| CharacterFile::parse(&std::fs::read_to_string(p).unwrap(), "c").unwrap())
        .collect();
    Match::new(&setup, &chars, &bundled(), turn_limit).unwrap()
}

/// A busier test match: waylays, treasures, trials, flaws and effects on both sides.
fn busy(turn_limit: u32) -> Match {
    let mut grid = WOODS;
    grid[0][0] = "t-l-steep";
    grid[0][2] = "t-l-gate";
    grid[1][1] = "t-l-city";
    grid[1][3] = "t-l-goal";
    let a = Who::new((0, 0))
        .merits(&["t-bonus", "t-retest", "t-change", "t-ally", "t-steady"])
        .flaws(&["t-flaw"])
        .quests(&["t-q-home"])
        .treasures(&["t-treasure", "t-treasure"])
        .waylays(&["t-w-forest", "t-w-trial", "t-w-city", "t-w-any"]);
    let b = Who::new((4, 1))
        .icon("t-icon-b")
        .merits(&["t-plain", "t-art", "t-bonus"])
        .flaws(&["t-flaw"])
        .quests(&["t-q-goal"])
        .treasures(&["t-treasure"])
        .waylays(&["t-w-high", "t-w-combat", "t-w-any"]);
    game_limit(grid, a, b, turn_limit)
}

pub fn policy(i: u8) -> PolicyKind {
    match i % 4 {
        0 => PolicyKind::First,
        1 | 2 => PolicyKind::Random,
        _ => PolicyKind::Greedy,
    }
}

/// Plays step by step checking the invariants; returns the log.
pub fn checked_play(m: &Match, seed: u64, pa: PolicyKind, pb: PolicyKind) -> (State, Vec<Event>) {
    let mut st = State::new(m);
    let mut log = Vec::new();
    let mut seats = [Agent::new(pa, seed ^ 1), Agent::new(pb, seed ^ 2)];
    let mut rng = RngDice::new(seed);
    let mut steps = 0u32;
    loop {
        st.check(m).unwrap();
        match st.node(m) {
            Node::Terminal => break,
            Node::Chance(n) => {
                assert_eq!(n, 6);
                let f = rng.die().unwrap();
                st.apply(m, usize::from(f - 1), &mut log);
            }
            Node::Decision { player, actions } => {
                assert!(actions >= 2, "single options are taken by the engine");
                assert_eq!(player as u8, st.decider());
                let a = seats[player & 1].choose(&ArcadiaGame { m, st }, player, actions);
                assert!(a < actions);
                st.apply(m, a, &mut log);
            }
        }
        steps += 1;
        assert!(steps < 1_000_000, "the match does not end");
    }
    (st, log)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn every_match_ends_keeping_the_invariants_and_replays(seed in any::<u64>(), pa in 0u8..4, pb in 0u8..4, which in 0u8..3) {
        let m = match which {
            0 => example("legal-starter", 300),
            1 => busy(300),
            _ => example("legal-laid-in-play", 300),
        };
        let (st, log) = checked_play(&m, seed, policy(pa), policy(pb));
        prop_assert!(st.ended.is_some());
        prop_assert!(st.day <= 300);
        let ends = matches!(log.last(), Some(Event::End { .. }));
        prop_assert!(ends);
        let days = log.iter().filter(|e| matches!(e, Event::Day { .. })).count() as u32;
        prop_assert_eq!(days, st.day);
        // The game interface's whole-match path gives the same log as the step-by-step
        // loop, every time.
        for _ in 0..2 {
            let mut log2 = Vec::new();
            let mut g = ArcadiaGame::start(&m, &mut log2);
            let mut seats = [Agent::new(policy(pa), seed ^ 1), Agent::new(policy(pb), seed ^ 2)];
            g.play_out(&mut RngDice::new(seed), &mut seats, Some(&mut log2));
            prop_assert_eq!(&log2, &log);
            prop_assert_eq!(g.st, st);
        }
    }
}

#[test]
fn mcts_plays_a_match_to_the_end() {
    let m = busy(120);
    let mcts = PolicyKind::parse("mcts:10").unwrap();
    let (st, _) = checked_play(&m, 5, mcts, PolicyKind::Random);
    assert!(st.ended.is_some());
}

#[test]
fn the_bundled_example_plays_to_a_victory_under_every_policy() {
    let m = example("legal-starter", 500);
    for p in [PolicyKind::First, PolicyKind::Random, PolicyKind::Greedy] {
        for seed in 0..4 {
            let (st, _) = checked_play(&m, seed, p, p);
            assert_eq!(
                st.ended.map(|e| e.0),
                Some(deckwright::games::arcadia::engine::Ended::Victory),
                "{p:?} seed {seed}"
            );
        }
    }
}

#[test]
fn greedy_beats_random_from_either_seat() {
    let m = example("legal-long-road", 500);
    let (g, r) = (PolicyKind::Greedy, PolicyKind::Random);
    let as_a = (0..30)
        .filter(|i| won_by(deckwright::sim::arcadia::play_one(&m, g, r, 4, *i), 0))
        .count();
    let as_b = (0..30)
        .filter(|i| won_by(deckwright::sim::arcadia::play_one(&m, r, g, 4, *i), 1))
        .count();
    assert!(
        as_a >= 24 && as_b >= 24,
        "greedy won {as_a}/30 as a and {as_b}/30 as b"
    );
}

/// Whether `seat` won the match.
fn won_by(o: deckwright::games::game::Outcome<deckwright::games::Ended>, seat: usize) -> bool {
    matches!(o.verdict, deckwright::games::game::Verdict::Won(w) if w.contains(seat))
}
