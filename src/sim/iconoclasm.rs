//! Iconoclasm games for the sim runner: one seeded game with a fresh deal.
//!
//! [`MatchResult::outcome`] is the winning seat (0 to 3) with players; solo, 0 when the goal is
//! met and 3 when it is missed. Every game ends with all cards placed (ending 0).

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::games::iconoclasm::ai::{Agent, PolicyKind};
use crate::games::iconoclasm::engine::{deal, play_match, winner, Deck, Goal, NoLog, SetupError};
use crate::games::iconoclasm::model::ClashTable;

use super::{game_seed, MatchResult};

/// Endings in [`super::Summary::ended`] order.
pub const ENDINGS: [&str; 1] = ["all_placed"];

/// What every game of a run shares.
#[derive(Debug, Clone)]
pub struct Run {
    pub deck: Deck,
    pub table: ClashTable,
    pub players: u8,
    pub goal: Goal,
    /// Policy per seat.
    pub policies: Vec<PolicyKind>,
}

impl Run {
    /// Plays game `index` of a run seeded `seed`: the deal and each seat's policy are seeded
    /// from (seed, index).
    pub fn play_one(&self, seed: u64, index: u64) -> Result<MatchResult, SetupError> {
        let s = game_seed(seed, index);
        let setup = deal(self.deck.clone(), &self.table, self.players, self.goal, &mut ChaCha8Rng::seed_from_u64(s))?;
        let mut agents: Vec<Agent> = self
            .policies
            .iter()
            .enumerate()
            .map(|(k, p)| Agent::new(*p, game_seed(s, k as u64 + 1)))
            .collect();
        let st = play_match(&setup, &mut |seat, st, moves| agents[seat as usize].choose(st, moves), &mut NoLog);
        Ok(MatchResult { outcome: winner(&st).unwrap_or(3), turns: u32::from(st.turn), ended: 0 })
    }
}
