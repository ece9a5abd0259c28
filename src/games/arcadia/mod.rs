//! Arcadia: card model, construction rules, engine and AI.

pub mod model;
pub mod character;
pub mod rules;
pub mod setup;
