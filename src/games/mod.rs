//! The games: each folder holds one game's card model, construction rules, engine and AI.

pub mod arcadia;
pub mod build;
pub mod iconica;
pub mod iconoclasm;
pub mod ruunara;
