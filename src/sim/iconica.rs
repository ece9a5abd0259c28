//! Iconica matches for the sim runner: one seeded AI-vs-AI match, and the `--field` sweep.

use crate::games::iconica::ai::{Agent, PolicyKind, Table};
use crate::games::iconica::engine::{play_match, Ended, NoLog, RngDice, Setup, State, Winner};

use super::{game_seed, MatchResult};

/// Endings in [`super::Summary::ended`] order.
pub const ENDINGS: [&str; 3] = ["victory", "turn_limit", "dice_exhausted"];

/// The index of an ending in [`ENDINGS`] (Iconica's and Arcadia's).
pub fn ending(e: Ended) -> u8 {
    match e {
        Ended::Victory => 0,
        Ended::TurnLimit => 1,
        Ended::DiceExhausted => 2,
    }
}

/// Plays game `index` of a run: dice and both policies seeded from (seed, index).
pub fn play_one(setup: &Setup, a: PolicyKind, b: PolicyKind, seed: u64, index: u64) -> MatchResult {
    let s = game_seed(seed, index);
    let mut io = Table::new(
        RngDice::new(s),
        Agent::new(a, s ^ 0xA5A5_A5A5_A5A5_A5A5),
        Agent::new(b, s ^ 0x5A5A_5A5A_5A5A_5A5A),
    );
    let mut st = State::new(setup);
    play_match(setup, &mut st, &mut io, &mut NoLog);
    result(&st)
}

/// The runner's view of a finished state.
pub fn result(st: &State) -> MatchResult {
    let (ended, winner) = st.ended.unwrap_or((Ended::DiceExhausted, None));
    MatchResult {
        outcome: match winner {
            Some(Winner::Side(0)) => 0,
            Some(Winner::Side(_)) => 1,
            Some(Winner::Draw) => 2,
            None => 3,
        },
        turns: st.turn,
        ended: ending(ended),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ending_indexes_the_name_of_the_ending() {
        for e in [Ended::Victory, Ended::TurnLimit, Ended::DiceExhausted] {
            assert_eq!(ENDINGS[usize::from(ending(e))], e.as_str());
        }
    }
}
