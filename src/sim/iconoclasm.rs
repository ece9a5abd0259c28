//! Iconoclasm games for the sim runner: one seeded game with a fresh deal. Its outcome's
//! winner is the winning seat (0 to 3) with players; solo, seat 0 when the goal is met and
//! no result when it is missed. Every game ends with all cards placed.

/// Endings in [`super::Tally::ended`] order.
pub const ENDINGS: [&str; 1] = ["all_placed"];

pub use crate::games::iconoclasm::options::Run;
