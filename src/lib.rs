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
pub mod net;
pub mod picture;
pub mod print;
pub mod safe_io;
pub mod search;
pub mod sheet;
pub mod sim;

pub use cards::{Card, CardError, CardFile, CardLookup, Game};

/// `n` things in words, singular or plural: `count(1, "card", "cards")` is "1 card",
/// `count(2, "card", "cards")` "2 cards". Both faces count this way.
pub fn count(n: impl Into<u64>, one: &str, many: &str) -> String {
    let n = n.into();
    format!("{n} {}", if n == 1 { one } else { many })
}

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
