//! `deckwright balance iconoclasm` from the outside: each seat's rate and the first
//! player's edge, the same report at one and two threads, a clash table file, bad input.

use std::path::Path;
use std::process::Output;

use serde_json::Value;

use crate::cli::deckwright;

fn run(dir: &Path, args: &[&str]) -> Output {
    let mut all = vec!["balance", "iconoclasm"];
    all.extend_from_slice(args);
    deckwright(&dir.join("cat.sqlite"), &all)
}

fn f(v: &Value) -> f64 {
    v.as_f64().unwrap()
}

#[test]
fn seats_sum_to_one_and_replay_at_any_thread_count() {
    let dir = tempfile::tempdir().unwrap();
    let table = Path::new(env!("CARGO_MANIFEST_DIR")).join("cards/iconoclasm/clashes.toml");
    let args = [
        "--ai",
        "random",
        "--precision",
        "0.04",
        "--clashes",
        table.to_str().unwrap(),
        "--json",
        "--threads",
    ];
    let one = run(dir.path(), &[&args[..], &["1"]].concat());
    let two = run(dir.path(), &[&args[..], &["2"]].concat());
    assert_eq!(one.status.code(), Some(0), "{one:?}");
    assert_eq!(one.stdout, two.stdout);
    let doc: Value = serde_json::from_slice(&one.stdout).unwrap();
    assert_eq!(doc["game"], "iconoclasm");
    assert_eq!(doc["ai"], "random");
    assert_eq!(doc["draws"], "half a win");
    assert_eq!(doc["stopped"], "precision");
    let seats = doc["seats"].as_array().unwrap();
    assert_eq!(seats.len(), 2);
    // Two players: one wins or both draw, so the rates (draws as half) sum to one.
    let sum: f64 = seats.iter().map(|s| f(&s["win_rate"])).sum();
    assert!((sum - 1.0).abs() < 1e-9, "{doc}");
    for s in seats {
        let ci = &s["ci95"];
        assert!(f(&ci[1]) - f(&ci[0]) <= 0.08 + 1e-9, "{s}");
    }
    let edge = &doc["first_player_edge"];
    assert!((f(&edge["edge"]) - (f(&seats[0]["win_rate"]) - 0.5)).abs() < 1e-12);
}

#[test]
fn a_cap_is_reported_and_bad_input_exits_2() {
    let dir = tempfile::tempdir().unwrap();
    let out = run(
        dir.path(),
        &[
            "--ai",
            "first",
            "--players",
            "3",
            "--max-games",
            "200",
            "--precision",
            "0.001",
            "--json",
        ],
    );
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        (doc["stopped"].as_str(), doc["games"].as_u64()),
        (Some("max_games"), Some(200))
    );
    assert_eq!(doc["seats"].as_array().unwrap().len(), 3);
    let card = Path::new(env!("CARGO_MANIFEST_DIR")).join("cards/iconoclasm/icl-air-earth.toml");
    for args in [
        vec!["--clashes", card.to_str().unwrap()],
        vec!["--precision", "0"],
        vec!["--players", "1"],
    ] {
        let out = run(dir.path(), &args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {out:?}");
        assert!(!out.stderr.is_empty());
    }
}
