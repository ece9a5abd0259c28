//! How good a move looks right after it is made: greedy's values, also the move ordering
//! and pruning of the search.

use super::events::NoLog;
use super::scoring::{goal_progress, rank_elements};
use super::state::{Move, State};

/// The value of each move for the player making it, taken right after the move: with
/// players, the points they would score if the game ended now, then (as fractions below 1)
/// the face-up cards of their elements minus everyone else's, then their best element rank
/// (the winner's tie-breaks); solo, the progress towards
/// the goal (0 to 1).
pub fn move_values(st: &State, moves: &[Move]) -> Vec<f64> {
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
            // One ranking gives both the player's score and the face-up margin.
            let ranks = rank_elements(&after);
            let (mut points, mut best_rank, mut margin) = (0u8, 5u8, 0i32);
            for e in &ranks {
                if e.owner == Some(me) {
                    points += e.points;
                    best_rank = best_rank.min(e.rank);
                    margin += i32::from(e.count);
                } else {
                    margin -= i32::from(e.count);
                }
            }
            f64::from(points)
                + f64::from(margin + 16) / 64.0
                + f64::from(5 - best_rank.min(5)) / 1024.0
        })
        .collect()
}

/// The indices of the `k` best moves by [`move_values`], best first (ties: earlier first),
/// with their values.
pub fn best_moves(st: &State, moves: &[Move], k: usize) -> Vec<(usize, f64)> {
    let values = move_values(st, moves);
    let mut ranked: Vec<(usize, f64)> = values.into_iter().enumerate().collect();
    ranked.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    ranked.truncate(k);
    ranked
}
