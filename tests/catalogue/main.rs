//! The SQLite catalogue: storage, the collection of owned cards, and the CLI around them.
//!
//! One test binary per area (one link, one process) keeps builds small; each file below was
//! its own binary before.

mod cli;
mod closed_pipe;
mod collection;
mod hostile;
mod hostile_files;
#[path = "../common/cli.rs"]
#[allow(dead_code)]
mod run_cli;
mod store;
