//! Iconoclasm games for the sim runner: one seeded game with a fresh deal. Its outcome's
//! winner is the winning seat (0 to 3) with players; solo, seat 0 when the goal is met and
//! no result when it is missed. Every game ends with all cards placed.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::games::game::Outcome;
use crate::games::iconoclasm::ai::PolicyKind;
use crate::games::iconoclasm::engine::{
    Deck, Goal, IconoclasmEnding, IconoclasmGame, NoLog, Pile, SetupError, deal,
};
use crate::games::iconoclasm::model::ClashTable;

use super::{game_seed, play_seeded};

/// Endings in [`super::Tally::ended`] order.
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
    /// The typed outcome of game `index` of a run seeded `seed`: the deal and each seat's
    /// policy are seeded from (seed, index).
    pub fn outcome(&self, seed: u64, index: u64) -> Result<Outcome<IconoclasmEnding>, SetupError> {
        let s = game_seed(seed, index);
        let setup = deal(
            self.deck.clone(),
            &self.table,
            self.players,
            self.goal,
            &mut ChaCha8Rng::seed_from_u64(s),
        )?;
        let o = play_seeded(
            IconoclasmGame::start(&setup, &mut NoLog),
            Pile::new(&setup),
            &self.policies,
            s,
        );
        Ok(o)
    }
}
