//! Build files that are not files: a FIFO would make a reader wait for ever, `/dev/zero`
//! never ends, a huge file fills the memory. `validate`, `play` and `sim` refuse them at
//! once (exit 2, naming the file), before reading.

use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// A hang guard, not a speed limit: far beyond what a refusal takes on the busiest machine.
const HANG: Duration = Duration::from_secs(240);

/// Runs the binary with a hang guard: a command that waits on a FIFO fails the test instead
/// of hanging it.
fn run(db: &Path, args: &[&str]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_deckwright"))
        .arg("--db")
        .arg(db)
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if started.elapsed() > HANG {
            child.kill().unwrap();
            panic!("{args:?} still running after {HANG:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().unwrap()
}

fn refused(db: &Path, args: &[&str], says: &[&str]) {
    let out = run(db, args);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    assert!(out.stdout.is_empty(), "{args:?}");
    for s in says {
        assert!(err.contains(s), "{args:?}: {err}");
    }
}

fn fifo(path: &Path) {
    let made = Command::new("mkfifo").arg(path).status().unwrap();
    assert!(made.success());
}

#[test]
fn a_fifo_as_a_party_file_is_refused_not_waited_on() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("cat.sqlite");
    let pipe = dir.path().join("pipe.party.toml");
    fifo(&pipe);
    let pipe = pipe.to_str().unwrap();
    let not_a_file = &["pipe.party.toml", "is not a regular file"][..];
    refused(&db, &["validate", pipe], not_a_file);
    refused(&db, &["play", "iconica", pipe, pipe], not_a_file);
    refused(
        &db,
        &["sim", "iconica", pipe, pipe, "--games", "1"],
        not_a_file,
    );

    // A setup's character file too.
    let setup = dir.path().join("fifo.setup.toml");
    std::fs::write(
        &setup,
        "game = \"arcadia\"\n[[players]]\ncharacter = \"pipe.party.toml\"\n[[players]]\ncharacter = \"pipe.party.toml\"\n",
    )
    .unwrap();
    let setup = setup.to_str().unwrap();
    refused(&db, &["play", "arcadia", setup], not_a_file);
    refused(&db, &["sim", "arcadia", setup, "--games", "1"], not_a_file);
    refused(&db, &["validate", setup], not_a_file);
}

#[test]
fn validate_dev_zero_is_refused_not_read() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("cat.sqlite");
    refused(
        &db,
        &["validate", "/dev/zero"],
        &["/dev/zero: is not a regular file"],
    );
    refused(
        &db,
        &["play", "iconica", "/dev/zero", "/dev/zero"],
        &["/dev/zero: is not a regular file"],
    );
}

#[test]
fn a_build_file_beyond_the_size_limit_is_refused_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("cat.sqlite");
    let big = dir.path().join("big.party.toml");
    std::fs::write(&big, format!("# {}\n", "x".repeat(1 << 20))).unwrap();
    refused(
        &db,
        &["validate", big.to_str().unwrap()],
        &["larger than the 1 MiB a build file may be"],
    );
    let folder = dir.path().to_str().unwrap();
    refused(&db, &["validate", folder], &["is a folder, not a file"]);
}
