//! `deckwright play iconoclasm` from the outside: exit codes, the JSON shape and its values,
//! the terminal report with its picture of the table, byte-for-byte replays, bad options.

use std::process::Output;

use serde_json::Value;

use crate::cli::{closed_pipe, deckwright};

struct Env {
    dir: tempfile::TempDir,
}

impl Env {
    fn new() -> Env {
        Env {
            dir: tempfile::tempdir().unwrap(),
        }
    }
    fn run(&self, args: &[&str]) -> Output {
        deckwright(&self.dir.path().join("cat.sqlite"), args)
    }
    fn play(&self, extra: &[&str]) -> Output {
        let mut args = vec!["play", "iconoclasm"];
        args.extend_from_slice(extra);
        self.run(&args)
    }
    fn json(&self, extra: &[&str]) -> Value {
        let mut args = extra.to_vec();
        args.push("--json");
        let out = self.play(&args);
        assert!(
            out.status.success(),
            "{extra:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        serde_json::from_slice(&out.stdout).unwrap()
    }
}

fn check_shape(doc: &Value, players: u64) {
    assert_eq!(doc["game"], "iconoclasm");
    assert_eq!(doc["players"], players);
    assert_eq!(doc["ended"], "all_placed");
    let turns = doc["turns"].as_u64().unwrap();
    assert_eq!(turns, if players == 3 { 15 } else { 16 });
    let scores = doc["scores"].as_array().unwrap();
    assert_eq!(scores.len() as u64, players);
    for (i, s) in scores.iter().enumerate() {
        assert_eq!(s["player"], i as u64 + 1);
        assert!(s["points"].is_u64() && s["face_up"].is_u64() && s["elements"].is_array());
    }
    let elements = doc["elements"].as_array().unwrap();
    assert_eq!(elements.len(), 4);
    let counts: u64 = elements.iter().map(|e| e["count"].as_u64().unwrap()).sum();
    assert_eq!(counts, 16, "every card is face up on the table");
    let points: Vec<u64> = elements
        .iter()
        .map(|e| e["points"].as_u64().unwrap())
        .collect();
    assert_eq!(points, vec![4, 3, 2, 1]);
    let grid = &doc["grid"];
    let (w, h) = (
        grid["width"].as_u64().unwrap(),
        grid["height"].as_u64().unwrap(),
    );
    assert!(w <= 7 && h <= 7);
    let rows = grid["rows"].as_array().unwrap();
    assert_eq!(rows.len() as u64, h);
    let mut ids: Vec<&str> = rows
        .iter()
        .flat_map(|r| {
            assert_eq!(r.as_array().unwrap().len() as u64, w);
            r.as_array()
                .unwrap()
                .iter()
                .filter(|c| !c.is_null())
                .map(|c| c["id"].as_str().unwrap())
        })
        .collect();
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), 16);
    let log = doc["log"].as_array().unwrap();
    let places = log.iter().filter(|e| e["type"] == "place").count() as u64;
    assert_eq!(places, turns);
    assert_eq!(log.last().unwrap()["type"], "end");
    assert!(log.iter().all(|e| e["text"].is_string()));
}

#[test]
fn every_player_count_plays_to_the_end_with_a_winner() {
    let env = Env::new();
    for n in 2..=4u64 {
        let doc = env.json(&[
            "--players",
            &n.to_string(),
            "--seed",
            "7",
            "--policy",
            "random",
        ]);
        check_shape(&doc, n);
        let w = doc["winner"].as_u64().expect("a winner with players");
        assert!((1..=n).contains(&w));
        let best = doc["scores"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["points"].as_u64().unwrap())
            .max()
            .unwrap();
        assert_eq!(doc["scores"][(w - 1) as usize]["points"], best);
        assert!(doc["goal"].is_null());
    }
}

#[test]
fn three_players_open_with_the_undrawn_single() {
    let doc = Env::new().json(&["--players", "3", "--seed", "2"]);
    let log = doc["log"].as_array().unwrap();
    let table = log.iter().find(|e| e["type"] == "table_card").unwrap();
    let owners: Vec<&Value> = doc["elements"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| &e["player"])
        .collect();
    assert_eq!(owners.iter().filter(|o| o.is_null()).count(), 1);
    assert!(table["card"].as_str().unwrap().starts_with("icl-"));
}

#[test]
fn solo_reports_its_goal_and_a_winner_only_when_met() {
    let env = Env::new();
    for seed in 0..6 {
        for goal in ["dominance", "balance"] {
            let doc = env.json(&[
                "--players",
                "1",
                "--goal",
                goal,
                "--seed",
                &seed.to_string(),
                "--policy",
                "greedy",
            ]);
            check_shape(&doc, 1);
            assert_eq!(doc["goal"], goal);
            let met = doc["goal_met"].as_bool().unwrap();
            assert_eq!(
                doc["winner"],
                if met { Value::from(1) } else { Value::Null }
            );
            let counts: Vec<u64> = doc["elements"]
                .as_array()
                .unwrap()
                .iter()
                .map(|e| e["count"].as_u64().unwrap())
                .collect();
            if goal == "balance" {
                assert_eq!(met, counts == vec![4, 4, 4, 4]);
            }
            let draws = doc["log"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|e| e["type"] == "draw")
                .count();
            assert_eq!(draws, 16);
        }
    }
}

#[test]
fn the_same_seed_replays_byte_for_byte_and_another_seed_differs() {
    let env = Env::new();
    for policy in ["random", "greedy", "mcts:30"] {
        let a = env.play(&[
            "--players",
            "2",
            "--seed",
            "11",
            "--policy",
            policy,
            "--json",
        ]);
        let b = env.play(&[
            "--players",
            "2",
            "--seed",
            "11",
            "--policy",
            policy,
            "--json",
        ]);
        assert!(a.status.success());
        assert_eq!(a.stdout, b.stdout, "{policy}");
    }
    let t1 = env.play(&["--players", "4", "--seed", "3", "--policy", "random"]);
    let t2 = env.play(&["--players", "4", "--seed", "3", "--policy", "random"]);
    assert_eq!(t1.stdout, t2.stdout);
    let other = env.play(&["--players", "4", "--seed", "4", "--policy", "random"]);
    assert_ne!(t1.stdout, other.stdout);
}

#[test]
fn the_terminal_report_shows_the_log_the_table_and_the_scores() {
    let out = Env::new().play(&["--players", "2", "--seed", "1"]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("Turn 1: player 1 places"));
    assert!(text.contains("Turn 16: player 2 places"));
    assert!(text.contains("Final table"));
    assert!(text.contains("Player 1:") && text.contains("Player 2:"));
    let picture: Vec<&str> = text.lines().filter(|l| l.contains('[')).collect();
    assert!(!picture.is_empty() && picture.len() <= 7);
    let cells: usize = picture.iter().map(|l| l.matches('[').count()).sum();
    assert_eq!(cells, 16);
}

#[test]
fn mcts_plays_every_player_count() {
    let env = Env::new();
    for n in ["1", "2", "3", "4"] {
        let doc = env.json(&["--players", n, "--seed", "5", "--policy", "mcts:20"]);
        check_shape(&doc, n.parse().unwrap());
        assert!(
            doc["policies"]
                .as_array()
                .unwrap()
                .iter()
                .all(|p| p == "mcts:20")
        );
    }
    let doc = env.json(&[
        "--players",
        "2",
        "--policy-a",
        "greedy",
        "--policy-b",
        "first",
    ]);
    assert_eq!(doc["policies"], serde_json::json!(["greedy", "first"]));
}

#[test]
fn bad_options_exit_2_with_a_message_and_no_json() {
    let env = Env::new();
    let cases: &[&[&str]] = &[
        &["--json"],
        &["--players", "0", "--json"],
        &["--players", "5", "--json"],
        &["--players", "x", "--json"],
        &["--players", "2", "--goal", "dominance", "--json"],
        &["--players", "1", "--goal", "glory", "--json"],
        &["--players", "2", "--policy", "clever", "--json"],
        &["--players", "2", "--dice", "1 2 3", "--json"],
        &["--players", "2", "--ruleset", "v8", "--json"],
        &["--players", "2", "some.party.toml", "--json"],
    ];
    for args in cases {
        let out = env.play(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
        assert!(!out.stderr.is_empty(), "{args:?}");
    }
}

#[test]
fn an_unusable_clash_table_never_reaches_a_game() {
    let env = Env::new();
    // Replace the clash table with one that breaks its rules: rows must be distinct.
    let dir = env.dir.path().join("bad");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("clashes.toml"),
        "game = \"iconoclasm\"\nkind = \"clashes\"\n[[clash]]\nelement = \"fire\"\nflips = \"earth\"\nmutual = \"water\"\n",
    )
    .unwrap();
    let imported = env.run(&["import", dir.to_str().unwrap()]);
    if imported.status.success() {
        let out = env.play(&["--players", "2"]);
        assert_eq!(
            out.status.code(),
            Some(2),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(String::from_utf8_lossy(&out.stderr).contains("clash table"));
    } else {
        // import refuses an incomplete table itself: the game then keeps the standard one.
        assert_eq!(imported.status.code(), Some(2));
        assert!(env.play(&["--players", "2"]).status.success());
    }
}

#[test]
fn sim_counts_wins_per_player_the_same_at_any_thread_count() {
    let env = Env::new();
    let run = |threads: &str| {
        let out = env.run(&[
            "sim",
            "iconoclasm",
            "--players",
            "3",
            "--games",
            "40",
            "--seed",
            "9",
            "--ai",
            "random",
            "--threads",
            threads,
            "--json",
        ]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        serde_json::from_slice::<Value>(&out.stdout).unwrap()
    };
    let (one, two) = (run("1"), run("2"));
    assert_eq!(one["wins"], two["wins"]);
    assert_eq!(one["game"], "iconoclasm");
    assert_eq!(one["games"], 40);
    let total: u64 = one["wins"]
        .as_object()
        .unwrap()
        .values()
        .map(|v| v.as_u64().unwrap())
        .sum();
    assert_eq!(total, 40, "every game has a winner");
    assert_eq!(one["mean_turns"], 15.0);
}

#[test]
fn sim_solo_counts_met_goals_and_refuses_bad_options() {
    let env = Env::new();
    let out = env.run(&[
        "sim",
        "iconoclasm",
        "--players",
        "1",
        "--goal",
        "balance",
        "--games",
        "20",
        "--ai",
        "first",
        "--json",
    ]);
    assert!(out.status.success());
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["goal"], "balance");
    assert!(doc["goal_met"].as_u64().unwrap() <= 20);
    assert_eq!(doc["wins"]["1"], doc["goal_met"]);
    for args in [
        &["--games", "5"][..],
        &["--players", "6"],
        &["--players", "2", "--goal", "balance"],
        &["--players", "2", "--ai", "nope"],
        &["--players", "2", "--games", "0"],
    ] {
        let mut all = vec!["sim", "iconoclasm", "--json"];
        all.extend_from_slice(args);
        let out = env.run(&all);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty());
    }
}

#[test]
fn play_and_sim_into_closed_pipe_do_not_panic() {
    let env = Env::new();
    let db = env.dir.path().join("cat.sqlite");
    for args in [
        &["play", "iconoclasm", "--players", "3", "--seed", "7"][..],
        &["play", "iconoclasm", "--players", "2", "--json"],
        &["sim", "iconoclasm", "--players", "4", "--games", "30"],
        &[
            "sim",
            "iconoclasm",
            "--players",
            "1",
            "--games",
            "30",
            "--json",
        ],
    ] {
        closed_pipe::assert_quiet(&db, args, 0);
    }
}

#[test]
fn players_and_goal_are_typed_options() {
    let env = Env::new();
    let out = env.play(&["--players", "5"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr)
            .contains("invalid value '5' for '--players <N>': 5 is not in 1..=4")
    );
    let out = env.play(&["--players", "1", "--goal", "glory"]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("[possible values: dominance, balance]"));
    let out = env.play(&[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--players <N>"));
}

/// One game of one player is said in the singular: "1 game, 1 player" (issue 27, item 5).
#[test]
fn the_sim_heading_counts_one_game_and_one_player_in_the_singular() {
    let env = Env::new();
    let o = env.run(&["sim", "iconoclasm", "--players", "1", "--games", "1"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(
        text.starts_with("iconoclasm: 1 game, 1 player, seed 1"),
        "{text}"
    );
}
