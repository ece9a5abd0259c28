//! Iconoclasm policies: `first` (the first legal move in the documented order of
//! [`State::moves`]), `random`, `greedy` (the best score right after the move) and `mcts` (the
//! generic search of `games::ai` over [`SearchView`], seeded with greedy's values; with 3 or
//! 4 players the paranoid reduction of [`SearchView`]).

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::engine::scoring::{counts, goal_progress};
use super::engine::{player_scores, Move, NoLog, SearchView, State};
use crate::games::ai::{mcts_choose_with_prior, MctsConfig};
pub use crate::games::iconica::ai::PolicyKind;

/// UCT exploration for Iconoclasm's win/loss returns.
pub const MCTS_C: f64 = 0.7;

/// Virtual visits of greedy's values at an MCTS root.
pub const MCTS_PRIOR_VISITS: f64 = 4.0;

/// A seated policy with its own random stream.
#[derive(Debug, Clone)]
pub struct Agent {
    pub kind: PolicyKind,
    rng: ChaCha8Rng,
}

impl Agent {
    pub fn new(kind: PolicyKind, seed: u64) -> Agent {
        Agent { kind, rng: ChaCha8Rng::seed_from_u64(seed) }
    }

    /// The index of the chosen move among `moves` (the legal moves of `st`).
    pub fn choose(&mut self, st: &State, moves: &[Move]) -> usize {
        if moves.len() <= 1 {
            return 0;
        }
        match self.kind {
            PolicyKind::First => 0,
            PolicyKind::Random => self.rng.random_range(0..moves.len()),
            PolicyKind::Greedy => best(&greedy_values(st, moves)),
            PolicyKind::Mcts(cfg) => {
                let values = greedy_values(st, moves);
                let (lo, hi) = values.iter().fold((f64::MAX, f64::MIN), |(l, h), v| (l.min(*v), h.max(*v)));
                let prior: Vec<f64> =
                    values.iter().map(|v| if hi > lo { 0.25 + 0.5 * (v - lo) / (hi - lo) } else { 0.5 }).collect();
                let view = SearchView::with_moves(*st, st.to_move, moves.to_vec());
                let cfg = MctsConfig { budget: cfg.budget, c: MCTS_C };
                mcts_choose_with_prior(&view, &cfg, &prior, MCTS_PRIOR_VISITS, &mut self.rng)
            }
        }
    }
}

/// The first index of the largest value.
fn best(values: &[f64]) -> usize {
    let mut b = 0;
    for (i, v) in values.iter().enumerate() {
        if *v > values[b] {
            b = i;
        }
    }
    b
}

/// Greedy's value of each move for the player making it, taken right after the move: with
/// players, the points they would score if the game ended now, then (as a fraction) the
/// face-up cards of their elements minus those of everyone else's; solo, the progress
/// towards the goal.
pub fn greedy_values(st: &State, moves: &[Move]) -> Vec<f64> {
    let me = st.to_move;
    moves
        .iter()
        .map(|mv| {
            let mut after = *st;
            if after.apply(mv, &mut NoLog).is_err() {
                return f64::MIN;
            }
            if let Some(goal) = st.goal {
                return goal_progress(&after, goal);
            }
            let points = player_scores(&after).get(me as usize).map_or(0, |s| s.points);
            let n = counts(&after);
            let margin: i32 = after
                .owner
                .iter()
                .zip(n)
                .map(|(o, c)| if *o == Some(me) { i32::from(c) } else { -i32::from(c) })
                .sum();
            f64::from(points) + f64::from(margin + 16) / 64.0
        })
        .collect()
}
