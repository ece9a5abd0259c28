//! Arcadia matches for the sim runner: one seeded AI-vs-AI quest.

use crate::games::arcadia::ai::{Agent, Seats};
use crate::games::arcadia::engine::{play_match, Ended, Match, NoLog, RngDice, State, Winner};
use crate::games::iconica::ai::PolicyKind;

use super::{game_seed, MatchResult};

use super::iconica::ending;
pub use super::iconica::ENDINGS;

/// Plays game `index` of a run: dice and both policies seeded from (seed, index).
pub fn play_one(m: &Match, a: PolicyKind, b: PolicyKind, seed: u64, index: u64) -> MatchResult {
    let s = game_seed(seed, index);
    let mut seats = Seats([Agent::new(a, s ^ 0xA5A5_A5A5_A5A5_A5A5), Agent::new(b, s ^ 0x5A5A_5A5A_5A5A_5A5A)]);
    let mut st = State::new(m);
    play_match(m, &mut st, &mut RngDice::new(s), &mut seats, &mut NoLog);
    result(&st)
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
