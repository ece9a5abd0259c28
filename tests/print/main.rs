//! Print and play: the card renderer, PDF sheets read back with lopdf, and `deckwright export`.
//!
//! One test binary per area (one link, one process) keeps builds small; each file below was
//! its own binary before.

mod art;
mod cli;
mod faces;
mod pdf;
mod presets;
mod press;
mod render;
mod vector;
