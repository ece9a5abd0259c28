//! Iconoclasm policies: `first` (the first legal move in the documented order of
//! [`State::moves`]), `random`, `greedy` (the best score right after the move) and `mcts` (the
//! generic search of `games::ai` over [`SearchView`]: greedy's best moves at each decision,
//! greedy's values as a prior at the root; with 3 or 4 players the paranoid reduction).

use rand::RngExt;

use super::engine::eval::{best_moves, move_values};
use super::engine::game::SEARCH_WIDTH;
use super::engine::{Move, SearchView, State};
use crate::games::ai::{first_best, mcts_choose_with_prior, MctsConfig, Seated};
pub use crate::games::iconica::ai::PolicyKind;

/// UCT exploration for Iconoclasm's win/loss returns.
pub const MCTS_C: f64 = 0.7;

/// Virtual visits of greedy's values at an MCTS root.
pub const MCTS_PRIOR_VISITS: f64 = 20.0;

/// A seated policy with its own random stream.
pub type Agent = Seated<PolicyKind>;

impl Agent {
    /// The index of the chosen move among `moves` (the legal moves of `st`).
    pub fn choose(&mut self, st: &State, moves: &[Move]) -> usize {
        if moves.len() <= 1 {
            return 0;
        }
        match self.kind {
            PolicyKind::First => 0,
            PolicyKind::Random => self.rng.random_range(0..moves.len()),
            PolicyKind::Greedy => first_best(&move_values(st, moves)),
            PolicyKind::Mcts(cfg) => {
                let top = best_moves(st, moves, SEARCH_WIDTH);
                let (lo, hi) = top.iter().fold((f64::MAX, f64::MIN), |(l, h), (_, v)| (l.min(*v), h.max(*v)));
                let prior: Vec<f64> =
                    top.iter().map(|(_, v)| if hi > lo { 0.25 + 0.5 * (v - lo) / (hi - lo) } else { 0.5 }).collect();
                let view = SearchView::with_moves(*st, st.to_move, top.iter().map(|(i, _)| moves[*i]).collect());
                let cfg = MctsConfig { budget: cfg.budget, c: MCTS_C };
                let pick = mcts_choose_with_prior(&view, &cfg, &prior, MCTS_PRIOR_VISITS, &mut self.rng);
                top.get(pick).map_or(0, |(i, _)| *i)
            }
        }
    }
}
