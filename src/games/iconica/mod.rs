//! Iconica: card model, construction rules, engine and AI.

pub mod ai;
pub mod engine;
pub mod model;
pub mod party;
pub mod rules;
