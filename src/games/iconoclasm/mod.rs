//! Iconoclasm: card model, rules engine and AI.

pub mod ai;
pub mod engine;
pub mod model;
