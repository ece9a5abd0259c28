//! Ruunara: card model, missions, construction rules, engine and AI.

pub mod edit;
pub mod mission;
pub mod model;
pub mod odds;
pub mod rules;
pub mod squad;
