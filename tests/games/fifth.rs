//! A fifth game is a folder: Pig lives in `src/games/pig/` and is named outside it only by
//! the registry's line, yet `play pig` plays it, `replay` replays its match file, and the
//! Match screen's generic board plays it (`tests/app/generic_board.rs`).

use std::path::Path;

use crate::layering::rust_files;

use deckwright::games::record::MatchRecord;
use deckwright::games::registry;

use crate::cli;

#[test]
fn pig_is_named_only_in_its_folder_and_the_registry_line() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut named = Vec::new();
    for f in &files {
        let rel = f
            .strip_prefix(&src)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        if rel.starts_with("games/pig/") {
            continue;
        }
        let text = std::fs::read_to_string(f).unwrap();
        for (i, line) in text.lines().enumerate() {
            if line.contains("pig::") || line.contains("mod pig") {
                named.push(format!("{rel}:{}: {}", i + 1, line.trim()));
            }
        }
    }
    // The module line and the registry's line, nothing else.
    let allowed = [
        "games/mod.rs: pub mod pig;",
        "games/registry.rs: super::pig::REGISTRATION,",
    ];
    for n in &named {
        let (place, line) = n.split_once(": ").unwrap();
        let file = place.split(':').next().unwrap();
        assert!(
            allowed.contains(&format!("{file}: {line}").as_str()),
            "pig named outside its folder: {n}"
        );
    }
    assert_eq!(named.len(), 2, "{named:?}");
}

#[test]
fn play_pig_records_what_replay_prints_again() {
    assert!(registry::find("pig").is_some_and(|g| g.generic.is_some()));
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("c.sqlite");
    let file = dir.path().join("pig.match.toml");
    let f = file.to_str().unwrap();
    let args = [
        "play",
        "pig",
        "--seed",
        "5",
        "--policy-a",
        "greedy",
        "--policy-b",
        "mcts:50",
    ];
    let played = cli::deckwright(&db, &args);
    assert!(
        played.status.success(),
        "{}",
        String::from_utf8_lossy(&played.stderr)
    );
    let text = String::from_utf8_lossy(&played.stdout).into_owned();
    assert!(
        text.contains("wins (goal)") || text.contains("A draw"),
        "{text}"
    );
    let recorded = cli::deckwright(&db, &[&args[..], &["--record", f]].concat());
    assert_eq!(recorded.stdout, played.stdout);
    let replayed = cli::deckwright(&db, &["replay", f]);
    assert_eq!(String::from_utf8_lossy(&replayed.stdout), text);
    let json = cli::deckwright(&db, &[&args[..], &["--json"]].concat());
    let rjson = cli::deckwright(&db, &["replay", f, "--json"]);
    assert_eq!(rjson.stdout, json.stdout);
    let r = MatchRecord::load(&file).unwrap();
    assert_eq!((r.game.as_str(), r.seats.len()), ("pig", 2));
    // A changed roll is named at its step.
    let mut bad = r.clone();
    let k = (0..bad.inputs.len())
        .find(|&k| bad.inputs[k] >= 2)
        .expect("a roll of 3 or more");
    bad.inputs[k] -= 1;
    bad.save(&file).unwrap();
    let out = cli::deckwright(&db, &["replay", f]);
    assert_eq!(out.status.code(), Some(1));
    // An unknown game or option is a usage error.
    for args in [&["play", "chess"][..], &["play", "pig", "--bogus"][..]] {
        let out = cli::deckwright(&db, args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
    }
}
