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
pub mod render;
pub mod scoring;
pub mod setup;
pub mod state;

pub use clash::Clashes;
pub use events::{Event, Log, NoLog};
pub use game::{play_match, SearchView};
pub use grid::{Grid, Placed, Pos, Side, MAX_SPAN};
pub use scoring::{goal_met, player_scores, rank_elements, winner, ElementScore, PlayerScore};
pub use setup::{deal, Deck, Goal, Setup, SetupError, CARDS};
pub use state::{IllegalMove, Move, State};
