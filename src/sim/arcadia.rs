//! Arcadia matches for the sim runner: one seeded AI-vs-AI quest.

use crate::games::ai::Policy as PolicyKind;
use crate::games::arcadia::engine::{ArcadiaGame, Ended, Match, RngDice};
use crate::games::game::Outcome;

use super::{game_seed, play_seeded};

pub use super::iconica::ENDINGS;

/// Plays game `index` of a run: dice and both policies seeded from (seed, index).
pub fn play_one(m: &Match, a: PolicyKind, b: PolicyKind, seed: u64, index: u64) -> Outcome<Ended> {
    let s = game_seed(seed, index);
    play_seeded(ArcadiaGame::new(m), RngDice::new(s), &[a, b], s)
}
