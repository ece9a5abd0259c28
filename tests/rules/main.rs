//! Construction rules of every game (Iconica parties, Arcadia characters and setups, Ruunara
//! squads) and `deckwright validate`.
//!
//! One test binary per area (one link, one process) keeps builds small; each file below was
//! its own binary before.

mod fixtures;

mod arcadia;
mod cli;
mod closed_pipe;
mod gaps_cli;
mod iconica;
#[path = "../common/cli.rs"]
#[allow(dead_code)]
mod run_cli;
mod ruunara;
mod ruunara_cli;
mod special_files;
