//! Iconoclasm policies: `first` takes the first option, `greedy` the best immediate score,
//! and `mcts` (the shared search with Iconoclasm's evaluation) finds a winning last move for
//! either seat.

use deckwright::games::ai::Evaluator;
use deckwright::games::game::{Chance, Game, Turn};
use deckwright::games::iconoclasm::ai::{Agent, IconoclasmEval, PolicyKind};
use deckwright::games::iconoclasm::engine::eval::move_values;
use deckwright::games::iconoclasm::engine::*;
use deckwright::games::iconoclasm::model::ClashTable;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

fn two_players(seed: u64) -> Setup {
    deal(
        Deck::standard(),
        &ClashTable::standard(),
        2,
        Goal::Dominance,
        &mut ChaCha8Rng::seed_from_u64(seed),
    )
    .unwrap()
}

/// A 2-player game of `setup` played by `random` until `left` placements remain.
fn near_end(setup: &Setup, seed: u64, left: u16) -> State {
    let mut st = State::new(setup, &mut NoLog);
    let mut agent = Agent::new(PolicyKind::Random, seed);
    while st.turn < 16 - left {
        let moves = st.moves();
        let i = agent.choose_move(&IconoclasmGame::at(setup, st));
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
        let setup = two_players(seed);
        let st = near_end(&setup, seed, 1);
        let g = IconoclasmGame::at(&setup, st);
        let moves = st.moves();
        let winning: Vec<bool> = moves.iter().map(|m| wins(&st, m)).collect();
        if !winning.iter().any(|w| *w) || winning.iter().all(|w| *w) {
            continue;
        }
        checked += 1;
        let mut mcts = Agent::new(PolicyKind::parse("mcts:50").unwrap(), seed);
        assert!(winning[mcts.choose_move(&g)], "mcts, seed {seed}");
        let mut greedy = Agent::new(PolicyKind::Greedy, seed);
        assert!(winning[greedy.choose_move(&g)], "greedy, seed {seed}");
    }
    assert!(
        checked >= 3,
        "only {checked} positions with a choice that matters"
    );
}

#[test]
fn first_takes_option_zero_and_greedy_the_best_value() {
    let setup = two_players(3);
    let st = near_end(&setup, 3, 6);
    let moves = st.moves();
    let game = IconoclasmGame::at(&setup, st);
    assert_eq!(Agent::new(PolicyKind::First, 1).choose_move(&game), 0);
    let values = move_values(&st, &moves);
    let g = Agent::new(PolicyKind::Greedy, 1).choose_move(&game);
    assert!(values.iter().all(|v| *v <= values[g]));
    assert!(
        values[..g].iter().all(|v| *v < values[g]),
        "ties go to the earlier option"
    );
}

#[test]
fn the_search_expands_greedy_s_best_moves_and_scores_a_leaf_for_every_seat() {
    let setup = two_players(5);
    let st = near_end(&setup, 5, 2);
    let g = IconoclasmGame::at(&setup, st);
    let mut eval = IconoclasmEval;
    let mut cands = Vec::new();
    eval.candidates(&g, usize::from(st.to_move), g.moves().len(), &mut cands);
    assert!(!cands.is_empty() && cands.len() <= SEARCH_WIDTH);
    let values = move_values(&st, g.moves());
    assert!(
        cands.windows(2).all(|w| values[w[0]] >= values[w[1]]),
        "best first"
    );
    let mut end = g.clone();
    while end.turn() != Turn::Over {
        end.apply(0);
    }
    let r = eval.leaf(&end, &mut ChaCha8Rng::seed_from_u64(1));
    for (me, worth) in r.iter().enumerate().take(2) {
        let won = winner(&end.st) == Some(me as u8);
        assert_eq!(
            *worth >= 0.75,
            won,
            "a win is worth at least 0.75 to its player"
        );
    }
}

#[test]
fn solo_draws_are_chance_and_the_search_never_reads_the_pile() {
    let setup = deal(
        Deck::standard(),
        &ClashTable::standard(),
        1,
        Goal::Balance,
        &mut ChaCha8Rng::seed_from_u64(2),
    )
    .unwrap();
    let g = IconoclasmGame::start(&setup, &mut NoLog);
    assert_eq!(g.turn(), Turn::Chance(Chance::Pick(16)));
    let r = IconoclasmEval.leaf(&g, &mut ChaCha8Rng::seed_from_u64(1));
    assert!((0.0..=1.0).contains(&r[0]));
    // The pile answers each draw with its next card.
    let mut pile = Pile::new(&setup);
    let mut game = g.clone();
    let mut drawn = Vec::new();
    let mut log = Vec::new();
    while let Turn::Chance(c) = game.turn() {
        let k = c.draw(&mut pile).expect("a card");
        game.apply_logged(k, &mut log);
        drawn.extend(log.drain(..).filter_map(|e| {
            if let Event::Draw { card } = e {
                Some(card)
            } else {
                None
            }
        }));
        if let Turn::Seat { .. } = game.turn() {
            game.apply(0);
        }
    }
    assert_eq!(drawn, setup.draw_pile);
}
