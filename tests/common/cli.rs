//! Running the `deckwright` binary, for the test binaries of several areas (each includes
//! this file with `#[path = "../common/cli.rs"]`).

use std::path::Path;
use std::process::{Command, Output};

/// Runs `deckwright --db DB ARGS...` and returns its status and what it printed.
pub fn deckwright(db: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_deckwright")).arg("--db").arg(db).args(args).output().unwrap()
}
