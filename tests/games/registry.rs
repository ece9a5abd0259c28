//! The faces enumerate the registry: every registered game is a subcommand of `play` and of
//! `sim` (built from its registration: its line of help, its options struct's arguments),
//! and the fifth game, Pig, plays and simulates through the same driver as the four others.

use clap::Command;
use deckwright::games::registry::GAMES;
use serde_json::Value;

use crate::cli;

fn text(o: &std::process::Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// The long options a registration's options struct declares.
fn longs(args: fn(Command) -> Command) -> Vec<String> {
    args(Command::new("x"))
        .get_arguments()
        .filter_map(|a| a.get_long().map(|l| format!("--{l}")))
        .collect()
}

#[test]
fn every_registered_game_is_a_subcommand_of_play_and_sim() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("c.sqlite");
    let play = cli::deckwright(&db, &["play", "--help"]);
    assert!(play.status.success());
    let sim = cli::deckwright(&db, &["sim", "--help"]);
    assert!(sim.status.success());
    for g in GAMES {
        let line = text(&play)
            .lines()
            .find(|l| l.trim_start().starts_with(&format!("{} ", g.name)))
            .map(str::to_string)
            .unwrap_or_else(|| panic!("`play --help` lists no {}:\n{}", g.name, text(&play)));
        assert!(line.contains(g.options.about), "{line}");
        // Its own help shows its options struct's arguments and the ones every game takes.
        let own = cli::deckwright(&db, &["play", g.name, "--help"]);
        assert!(own.status.success(), "play {} --help", g.name);
        let own = text(&own);
        for long in longs(g.options.args) {
            assert!(own.contains(&long), "play {} --help lacks {long}", g.name);
        }
        assert!(own.contains("--seed") && own.contains("--record"), "{own}");
        assert_eq!(own.contains("--dice"), g.options.dice, "{own}");
        let sim_line = text(&sim)
            .lines()
            .find(|l| l.trim_start().starts_with(&format!("{} ", g.name)))
            .map(str::to_string);
        match g.options.sim {
            Some(run) => {
                let line = sim_line.unwrap_or_else(|| panic!("`sim --help` lists no {}", g.name));
                assert!(line.contains(run.about), "{line}");
                let own = text(&cli::deckwright(&db, &["sim", g.name, "--help"]));
                for long in longs(g.options.args) {
                    assert!(own.contains(&long), "sim {} --help lacks {long}", g.name);
                }
                assert!(own.contains("--games") && own.contains("--shard"), "{own}");
            }
            None => assert!(sim_line.is_none(), "{sim_line:?}"),
        }
    }
    // `balance` names every registered game: a subcommand, or one it does not measure yet.
    let balance = text(&cli::deckwright(&db, &["balance", "--help"]));
    let note = balance
        .lines()
        .find(|l| l.starts_with("Not measured yet:"))
        .unwrap_or("");
    for g in GAMES {
        let listed = balance
            .lines()
            .any(|l| l.trim_start().starts_with(&format!("{} ", g.name)));
        assert!(
            listed != note.contains(g.name),
            "balance --help and {}:\n{balance}",
            g.name
        );
    }
    // A name that is no registered game is a usage error.
    for face in ["play", "sim"] {
        let out = cli::deckwright(&db, &[face, "chess"]);
        assert_eq!(out.status.code(), Some(2), "{face} chess");
    }
}

#[test]
fn pig_simulates_through_the_one_runner() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("c.sqlite");
    let run = |threads: &str| {
        let out = cli::deckwright(
            &db,
            &[
                "sim",
                "pig",
                "--games",
                "400",
                "--seed",
                "3",
                "--ai-a",
                "greedy",
                "--ai-b",
                "random",
                "--threads",
                threads,
                "--json",
            ],
        );
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let mut v: Value = serde_json::from_slice(&out.stdout).unwrap();
        v.as_object_mut().unwrap().remove("games_per_sec");
        v
    };
    let one = run("1");
    // The same counts at any thread count: the runner's promise, kept for Pig as for all.
    assert_eq!(one, run("2"));
    assert_eq!(one["game"], "pig");
    assert_eq!(one["games"], 400);
    assert_eq!(one["ai"]["a"], "greedy");
    let (a, b, draw) = (
        one["wins"]["a"].as_u64().unwrap(),
        one["wins"]["b"].as_u64().unwrap(),
        one["wins"]["draw"].as_u64().unwrap(),
    );
    assert!(a + b + draw <= 400 && a + b + draw > 0, "{one}");
    // Pig's own endings, named by its registration.
    let ended = one["ended"].as_object().unwrap();
    let names: Vec<&str> = ended.keys().map(String::as_str).collect();
    for n in ["goal", "turn_limit", "dice_exhausted"] {
        assert!(names.contains(&n), "{names:?}");
    }
    assert_eq!(ended["goal"].as_u64().unwrap(), a + b);
    // Greedy banks what it rolls; random rolls on or holds at a coin's toss: greedy wins
    // more often.
    assert!(a > b, "greedy {a}, random {b}");
    // The text report is the two-sided one.
    let out = cli::deckwright(&db, &["sim", "pig", "--games", "50"]);
    let t = text(&out);
    assert!(
        t.starts_with("pig: 50 games, seed 1, greedy (a) vs greedy (b)"),
        "{t}"
    );
    assert!(t.contains("ended: goal "), "{t}");
}

#[test]
fn balance_has_a_subcommand_for_each_game_the_registry_says_is_balanced() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("c.sqlite");
    let help = cli::deckwright(&db, &["balance", "--help"]);
    assert!(help.status.success());
    for g in GAMES {
        let listed = text(&help)
            .lines()
            .find(|l| l.trim_start().starts_with(&format!("{} ", g.name)))
            .map(str::to_string);
        match g.balance {
            Some(b) => {
                let line = listed.unwrap_or_else(|| panic!("no balance {}", g.name));
                assert!(line.contains(b.about), "{line}");
                // Its help shows the game's balance options and the run's.
                let own = cli::deckwright(&db, &["balance", g.name, "--help"]);
                assert!(own.status.success(), "balance {} --help", g.name);
                let own = text(&own);
                for long in longs(b.args)
                    .iter()
                    .chain(&["--ai".into(), "--seed".into()])
                {
                    assert!(own.contains(long.as_str()), "balance {}: {long}", g.name);
                }
            }
            None => {
                assert!(listed.is_none(), "balance lists {}", g.name);
                assert!(text(&help).contains("Not measured yet: pig"));
                let out = cli::deckwright(&db, &["balance", g.name]);
                assert_eq!(out.status.code(), Some(2), "balance {}", g.name);
            }
        }
    }
}

#[test]
fn a_balanced_game_measures_only_its_declared_kinds() {
    let card = |game: &str, kind: &str| {
        deckwright::cards::bundled()
            .into_iter()
            .filter_map(|(p, t)| deckwright::cards::parse_card(t, &p).ok())
            .find(|c| c.game().as_str() == game && c.kind() == kind)
            .unwrap()
    };
    let iconica = deckwright::games::registry::find("iconica").unwrap();
    let arcadia = deckwright::games::registry::find("arcadia").unwrap();
    let pig = deckwright::games::registry::find("pig").unwrap();
    assert!(iconica.measures(&card("iconica", "character")));
    assert!(!arcadia.measures(&card("iconica", "character")));
    assert!(arcadia.measures(&card("arcadia", "merit")));
    assert!(!arcadia.measures(&card("arcadia", "quest")));
    assert!(!pig.measures(&card("iconica", "character")));
}
