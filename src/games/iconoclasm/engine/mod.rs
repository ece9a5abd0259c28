//! The Iconoclasm rules engine (`spec/other-games.md`, rule text 002): a `Copy` game state,
//! legal moves (card, face, position and clash order), clashes, the deal for 1 to 4 players
//! from a seeded source passed in, end scoring and solo goals, and an event log.
//!
//! No I/O, clock or global randomness: [`deal`] takes the random source, the rest is pure.

pub mod clash;
pub mod eval;
pub mod events;
pub mod game;
pub mod grid;
pub mod outcomes;
pub mod render;
pub mod scoring;
pub mod setup;
pub mod state;

pub use clash::Clashes;
pub use events::{Event, Log, NoLog};
pub use game::{IconoclasmEnding, IconoclasmGame, Pile, SEARCH_WIDTH};
pub use grid::{Grid, MAX_SPAN, Placed, Pos, Side};
pub use outcomes::CountTable;
pub use scoring::{ElementScore, PlayerScore, goal_met, player_scores, rank_elements, winner};
pub use setup::{CARDS, Deck, Goal, Setup, SetupError, deal};
pub use state::{IllegalMove, Move, State};
