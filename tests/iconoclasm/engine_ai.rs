//! Iconoclasm policies: `first` takes the first option, `greedy` the best immediate score,
//! and `mcts` (through the two-sided `SearchView`) finds a winning last move for either seat.

use deckwright::games::iconoclasm::ai::{Agent, PolicyKind};
use deckwright::games::iconoclasm::engine::eval::move_values;
use deckwright::games::iconoclasm::engine::*;
use deckwright::games::iconoclasm::model::ClashTable;
use deckwright::games::{GameState, Node};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// A 2-player game played by `random` until `left` placements remain.
fn near_end(seed: u64, left: u16) -> State {
    let setup = deal(Deck::standard(), &ClashTable::standard(), 2, Goal::Dominance, &mut ChaCha8Rng::seed_from_u64(seed)).unwrap();
    let mut st = State::new(&setup, &mut NoLog);
    let mut agent = Agent::new(PolicyKind::Random, seed);
    while st.turn < 16 - left {
        let moves = st.moves();
        let i = agent.choose(&st, &moves);
        st.apply(&moves[i], &mut NoLog).unwrap();
    }
    st
}

fn wins(st: &State, mv: &Move) -> bool {
    let mut after = *st;
    after.apply(mv, &mut NoLog).unwrap();
    assert!(after.is_over());
    winner(&after) == Some(st.to_move)
}

#[test]
fn mcts_and_greedy_take_a_winning_last_move_when_there_is_one() {
    let mut checked = 0;
    for seed in 0..40 {
        let st = near_end(seed, 1);
        let moves = st.moves();
        let winning: Vec<bool> = moves.iter().map(|m| wins(&st, m)).collect();
        if !winning.iter().any(|w| *w) || winning.iter().all(|w| *w) {
            continue;
        }
        checked += 1;
        let mut mcts = Agent::new(PolicyKind::parse("mcts:50").unwrap(), seed);
        assert!(winning[mcts.choose(&st, &moves)], "mcts, seed {seed}");
        let mut greedy = Agent::new(PolicyKind::Greedy, seed);
        assert!(winning[greedy.choose(&st, &moves)], "greedy, seed {seed}");
    }
    assert!(checked >= 3, "only {checked} positions with a choice that matters");
}

#[test]
fn first_takes_option_zero_and_greedy_the_best_value() {
    let st = near_end(3, 6);
    let moves = st.moves();
    assert_eq!(Agent::new(PolicyKind::First, 1).choose(&st, &moves), 0);
    let values = move_values(&st, &moves);
    let g = Agent::new(PolicyKind::Greedy, 1).choose(&st, &moves);
    assert!(values.iter().all(|v| *v <= values[g]));
    assert!(values[..g].iter().all(|v| *v < values[g]), "ties go to the earlier option");
}

#[test]
fn the_search_view_takes_the_point_of_view_of_its_player() {
    let st = near_end(5, 2);
    for me in 0..2u8 {
        let view = SearchView::new(st, me);
        match view.node() {
            Node::Decision { player, actions } => {
                assert_eq!(player, usize::from(st.to_move != me));
                assert!(actions >= 1 && actions <= game::SEARCH_WIDTH);
            }
            other => panic!("expected a decision, got {other:?}"),
        }
        let mut end = view.clone();
        while end.node() != Node::Terminal {
            end.apply(0);
        }
        let r = end.returns();
        assert!((r[0] + r[1] - 1.0).abs() < 1e-9);
        let won = winner(&end.st) == Some(me);
        assert_eq!(r[0] >= 0.75, won, "a win is worth at least 0.75 to its player");
    }
}

#[test]
fn solo_search_draws_by_chance_and_never_reads_the_pile() {
    let setup = deal(Deck::standard(), &ClashTable::standard(), 1, Goal::Balance, &mut ChaCha8Rng::seed_from_u64(2)).unwrap();
    let st = State::new(&setup, &mut NoLog);
    let view = SearchView::new(st, 0);
    assert_eq!(view.node(), Node::Chance(16));
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let r = view.clone().rollout(&mut rng);
    assert!((0.0..=1.0).contains(&r[0]));
}
