//! The one game interface from the outside: a fifth game that lives in this folder and needs
//! no change anywhere else (`race.rs`), and the interface's promises checked for every game
//! (`conformance.rs`); match files played, recorded and replayed (`replay.rs`).

#[path = "../common/cli.rs"]
mod cli;
mod conformance;
mod fifth;
mod layering;
mod race;
mod replay;
