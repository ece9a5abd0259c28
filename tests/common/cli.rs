//! Running the `deckwright` binary, for the test binaries of several areas (each includes
//! this file with `#[path = "../common/cli.rs"]`).

use std::path::Path;
use std::process::{Command, Output};

/// Runs `deckwright --db DB ARGS...` and returns its status and what it printed.
pub fn deckwright(db: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_deckwright"))
        .arg("--db")
        .arg(db)
        .args(args)
        .output()
        .unwrap()
}

/// Running the binary with nobody reading its stdout (`deckwright ... | head -c0`); not
/// every area that includes this file uses it.
#[allow(dead_code)]
pub mod closed_pipe {
    use std::path::Path;
    use std::process::{Command, Stdio};

    /// Runs `deckwright --db DB ARGS...` with its stdout a pipe whose reading end is closed
    /// before the program writes, and asserts that it ends quietly: exit `code` (the status
    /// it has with a reader), no panic (exit 101) and no message about the pipe.
    pub fn assert_quiet(db: &Path, args: &[&str], code: i32) {
        let mut child = Command::new(env!("CARGO_BIN_EXE_deckwright"))
            .arg("--db")
            .arg(db)
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        drop(child.stdout.take());
        let out = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(code), "{args:?}: {err}");
        for said in ["panicked", "failed printing", "Broken pipe", "error"] {
            assert!(!err.contains(said), "{args:?}: {err}");
        }
    }
}
