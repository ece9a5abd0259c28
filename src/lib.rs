//! deckwright: catalogue, author, build, playtest and print small-press tabletop card games.
//!
//! One core library with three thin faces: the egui app (`app`), the command line (`cli`)
//! and the tests. Each game owns its folder under `games/` (model, construction rules,
//! engine, AI); catalogue, search, print and sim are shared.

pub mod app;
pub mod balance;
pub mod cards;
pub mod catalogue;
pub mod cli;
pub mod games;
pub mod picture;
pub mod print;
pub mod safe_io;
pub mod search;
pub mod sheet;
pub mod sim;

pub use cards::{Card, CardError, CardFile, CardLookup, Game};

/// An error with its whole chain of causes, each once: the message, then every
/// `source()` whose text the message does not already hold, joined by `: `. Both faces
/// show errors this way.
pub fn error_chain(e: &dyn std::error::Error) -> String {
    let mut out = e.to_string();
    let mut next = e.source();
    while let Some(cause) = next {
        let text = cause.to_string();
        if !text.is_empty() && !out.contains(&text) {
            out.push_str(": ");
            out.push_str(&text);
        }
        next = cause.source();
    }
    out
}
