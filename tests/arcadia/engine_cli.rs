//! `deckwright play arcadia` from the outside: the JSON shape, exit codes, bad input naming
//! file and line, scripted dice, and byte-for-byte replays.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

const EXAMPLE: &str = "examples/arcadia/legal-starter.setup.toml";

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn run(db: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_deckwright"))
        .current_dir(root())
        .arg("--db")
        .arg(db.join("cat.sqlite"))
        .args(args)
        .output()
        .unwrap()
}

fn play(db: &Path, extra: &[&str]) -> Output {
    let mut args = vec!["play", "arcadia", EXAMPLE];
    args.extend_from_slice(extra);
    run(db, &args)
}

fn json(o: &Output) -> Value {
    assert!(o.status.success(), "stderr: {}", String::from_utf8_lossy(&o.stderr));
    serde_json::from_slice(&o.stdout).unwrap()
}

#[test]
fn play_json_has_the_play_shape_and_the_winner_earns_two_experience() {
    let dir = tempfile::tempdir().unwrap();
    for seed in ["1", "2", "7"] {
        let d = json(&play(dir.path(), &["--seed", seed, "--policy", "random", "--json"]));
        assert_eq!(d["game"], "arcadia");
        assert_eq!(d["ended"], "victory");
        let w = d["winner"].as_str().unwrap();
        assert!(w == "a" || w == "b");
        assert!(d["turns"].as_u64().unwrap() >= 1);
        assert!(d["dice_used"].as_u64().unwrap() >= 2);
        let log = d["log"].as_array().unwrap();
        assert_eq!(log[0]["type"], "first_roll");
        assert!(log.iter().all(|e| e["type"].is_string() && e["text"].is_string()));
        assert_eq!(log.last().unwrap()["type"], "end");
        assert_eq!(log.iter().filter(|e| e["type"] == "day").count() as u64, d["turns"].as_u64().unwrap());
        for side in ["a", "b"] {
            let s = &d["sides"][side];
            for key in ["league", "merits_exhausted", "merits_discarded", "quests_done", "experience"] {
                assert!(!s[key].is_null(), "sides.{side}.{key} missing");
            }
            let gained = if side == w { 2 } else { 0 };
            assert_eq!(s["experience_gained"], gained);
        }
        let winner = &d["sides"][w];
        assert_eq!(winner["quests_done"].as_array().unwrap().len(), winner["quests"].as_array().unwrap().len());
        // Player b of the example earned 4 experience before this quest.
        assert_eq!(d["sides"]["b"]["experience"], 4 + if w == "b" { 2 } else { 0 });
    }
}

#[test]
fn the_same_seed_replays_byte_for_byte() {
    let dir = tempfile::tempdir().unwrap();
    for p in ["first", "random", "greedy", "mcts:8"] {
        for fmt in [&["--json"][..], &[][..]] {
            let mut args = vec!["--seed", "11", "--policy", p];
            args.extend_from_slice(fmt);
            let x = play(dir.path(), &args);
            let y = play(dir.path(), &args);
            assert!(x.status.success());
            assert_eq!(x.stdout, y.stdout, "policy {p}");
        }
    }
    let a = play(dir.path(), &["--seed", "3", "--policy-a", "random", "--policy-b", "greedy"]);
    let text = String::from_utf8(a.stdout).unwrap();
    assert!(text.contains("Day 1: "));
    assert!(text.contains("Side a (Sir Bramwell)"));
    assert!(!text.contains("\x1b["), "no colour when stdout is not a terminal");
}

#[test]
fn scripted_dice_that_run_out_end_the_match_with_dice_exhausted() {
    let dir = tempfile::tempdir().unwrap();
    let d = json(&play(dir.path(), &["--dice", "2 5 3", "--json"]));
    assert_eq!(d["ended"], "dice_exhausted");
    assert!(d["winner"].is_null());
    assert_eq!(d["dice_used"], 3, "all three faces: the roll and one trial");
    let log = d["log"].as_array().unwrap();
    assert_eq!(log[0]["first"], "a");
    assert_eq!(log.last().unwrap()["ended"], "dice_exhausted");
}

#[test]
fn a_turn_limit_ends_the_match_as_a_draw() {
    let dir = tempfile::tempdir().unwrap();
    // One Day cannot complete a quest of the example (both start on their Base Camps).
    let d = json(&play(dir.path(), &["--turn-limit", "1", "--json"]));
    assert_eq!(d["ended"], "turn_limit");
    assert_eq!(d["winner"], "draw");
    assert_eq!(d["turns"], 1);
}

#[test]
fn bad_input_exits_2_naming_the_file_and_line_with_nothing_on_stdout() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.setup.toml");
    std::fs::write(&bad, "game = \"arcadia\"\n[[players]]\ncharacter = 3\n").unwrap();
    let o = run(dir.path(), &["play", "arcadia", bad.to_str().unwrap(), "--json"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(o.stdout.is_empty());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("bad.setup.toml:3:"), "{err}");

    // A character file that is missing is named.
    let lone = dir.path().join("lone.setup.toml");
    std::fs::write(
        &lone,
        "game = \"arcadia\"\n[[players]]\ncharacter = \"nobody.character.toml\"\n[[players]]\ncharacter = \"nobody.character.toml\"\n",
    )
    .unwrap();
    let o = run(dir.path(), &["play", "arcadia", lone.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("nobody.character.toml"));

    // An illegal setup is refused naming its rule.
    let o = run(dir.path(), &["play", "arcadia", "examples/arcadia/illegal-budgets.setup.toml"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("waylay-budget"));

    for args in [
        &["play", "arcadia"][..],
        &["play", "arcadia", EXAMPLE, EXAMPLE],
        &["play", "arcadia", EXAMPLE, "--dice", "1 7"],
        &["play", "arcadia", EXAMPLE, "--policy", "clever"],
        &["play", "arcadia", EXAMPLE, "--ruleset", "v8"],
        &["play", "arcadia", EXAMPLE, "--turn-limit", "0"],
        &["play", "arcadia", "no-such.setup.toml"],
    ] {
        let o = run(dir.path(), args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(o.stdout.is_empty(), "{args:?}");
    }
}

#[test]
fn sim_arcadia_gives_the_same_counts_at_any_thread_count() {
    let dir = tempfile::tempdir().unwrap();
    let sim = |threads: &str| {
        let o = run(
            dir.path(),
            &["sim", "arcadia", EXAMPLE, "--games", "40", "--seed", "9", "--ai", "random", "--threads", threads, "--json"],
        );
        let d = json(&o);
        (d["wins"].clone(), d["mean_turns"].clone(), d["game"].clone(), d["games"].clone())
    };
    let one = sim("1");
    assert_eq!(one, sim("2"));
    assert_eq!(one.2, "arcadia");
    assert_eq!(one.3, 40);
    let w = &one.0;
    assert_eq!(w["a"].as_u64().unwrap() + w["b"].as_u64().unwrap() + w["draw"].as_u64().unwrap(), 40);
    for args in [&["sim", "arcadia"][..], &["sim", "arcadia", EXAMPLE, "--field"], &["sim", "arcadia", EXAMPLE, "--games", "0"]] {
        let o = run(dir.path(), args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
    }
}
