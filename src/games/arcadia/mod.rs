//! Arcadia: card model, construction rules, engine and AI.

pub mod ai;
pub mod character;
pub mod edit;
pub mod engine;
pub mod examples;
pub mod game;
pub mod model;
pub mod rules;
pub mod setup;
