//! Ruunara: card model, missions, construction rules, engine and AI.

pub mod duel;
pub mod edit;
pub mod engine;
pub mod mission;
pub mod model;
pub mod odds;
pub mod rules;
pub mod squad;
