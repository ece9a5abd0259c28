//! The one game interface from the outside: the fifth game, Pig, played by the shared
//! policies and runner (`pig.rs`), and the interface's promises checked for every game
//! (`conformance.rs`); match files played, recorded and replayed (`replay.rs`); the computer
//! deciding from its own seat's view (`seat_view.rs`).

mod balance_shards;
#[path = "../common/cli.rs"]
mod cli;
mod conformance;
mod fifth;
mod health;
mod layering;
mod pig;
mod registry;
mod replay;
mod seat_view;
mod session;
mod shards;
