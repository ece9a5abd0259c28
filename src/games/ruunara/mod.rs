//! Ruunara: card model, construction rules, engine and AI.

pub mod edit;
pub mod model;
pub mod odds;
pub mod rules;
pub mod squad;
