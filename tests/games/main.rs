//! The one game interface from the outside: a fifth game that lives in this folder and needs
//! no change anywhere else (`race.rs`), and the interface's promises checked for every game
//! (`conformance.rs`).

mod conformance;
mod race;
