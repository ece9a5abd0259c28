//! Arcadia matches for the sim runner: one seeded AI-vs-AI quest.

use crate::games::ai::Policy as PolicyKind;
use crate::games::arcadia::engine::{ArcadiaGame, Ended, Match, RngDice, State, Winner};

use super::{MatchResult, game_seed, play_seeded};

pub use super::iconica::ENDINGS;
use super::iconica::ending;

/// Plays game `index` of a run: dice and both policies seeded from (seed, index).
pub fn play_one(m: &Match, a: PolicyKind, b: PolicyKind, seed: u64, index: u64) -> MatchResult {
    let s = game_seed(seed, index);
    MatchResult::from(play_seeded(
        ArcadiaGame::new(m),
        RngDice::new(s),
        &[a, b],
        s,
    ))
}

/// The runner's view of a finished state.
pub fn result(st: &State) -> MatchResult {
    let (ended, winner) = st.ended.unwrap_or((Ended::DiceExhausted, None));
    MatchResult {
        outcome: match winner {
            Some(Winner::Player(0)) => 0,
            Some(Winner::Player(_)) => 1,
            Some(Winner::Draw) => 2,
            None => 3,
        },
        turns: st.day,
        ended: ending(ended),
    }
}
