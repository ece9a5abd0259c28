//! deckwright: catalogue, author, build, playtest and print small-press tabletop card games.
//!
//! One core library with three thin faces: the egui app (`app`), the command line (`cli`)
//! and the tests. Each game owns its folder under `games/` (model, construction rules,
//! engine, AI); catalogue, search, print and sim are shared.

pub mod app;
pub mod cards;
pub mod catalogue;
pub mod cli;
pub mod games;
pub mod print;
pub mod search;
pub mod sheet;
pub mod sim;

pub use cards::{Card, CardError, CardFile, CardLookup, Game};
