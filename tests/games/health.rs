//! `deckwright health`: every game's setup checked under two policies, and every warning that
//! names a match replayed with the `play` command it gives, which must show what it warns of.

use std::path::PathBuf;

use serde_json::Value;

use crate::cli;

fn ex(p: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("examples")
        .join(p)
        .display()
        .to_string()
}

fn json(o: &std::process::Output, what: &str) -> Value {
    assert_eq!(
        o.status.code(),
        Some(0),
        "{what}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("{what}: {e}"))
}

/// The words of a finding's `play` command, without the program's name.
fn words(command: &str) -> Vec<String> {
    let rest = command
        .strip_prefix("deckwright ")
        .expect("a deckwright command");
    rest.split(' ').map(str::to_string).collect()
}

#[test]
fn every_games_warnings_replay_with_the_play_they_name() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("c.sqlite");
    let runs: Vec<(&str, Vec<String>)> = vec![
        (
            "iconica",
            vec![
                ex("iconica/legal-legion-raiders.party.toml"),
                ex("iconica/legal-protectorate-wardens.party.toml"),
            ],
        ),
        ("arcadia", vec![ex("arcadia/legal-long-road.setup.toml")]),
        ("iconoclasm", vec!["--players".into(), "3".into()]),
        (
            "ruunara",
            vec![
                ex("ruunara/survive.mission.toml"),
                ex("ruunara/legal-ardann-story.squad.toml"),
            ],
        ),
    ];
    let mut replayed = 0;
    for (game, files) in runs {
        let mut args: Vec<&str> = vec!["health", game];
        args.extend(files.iter().map(String::as_str));
        args.extend(["--games", "24", "--seed", "5", "--json"]);
        let report = json(&cli::deckwright(&db, &args), game);
        let policies: Vec<&str> = report["runs"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["policy"].as_str().unwrap())
            .collect();
        assert_eq!(policies, ["random", "greedy"], "{game}");
        for r in report["runs"].as_array().unwrap() {
            assert_eq!(r["games"], 24, "{game}");
            let ended: u64 = r["ended"]
                .as_object()
                .unwrap()
                .values()
                .map(|v| v.as_u64().unwrap())
                .sum();
            assert_eq!(ended, 24, "{game}: every match ends one way");
        }
        for f in report["findings"].as_array().unwrap() {
            let Some(command) = f["command"].as_str() else {
                assert!(f["seed"].is_null(), "{game}: a seed without a command: {f}");
                continue;
            };
            let seed = f["seed"].as_u64().unwrap();
            assert!((5..29).contains(&seed), "{game}: {f}");
            let mut w = words(command);
            w.push("--json".into());
            let w: Vec<&str> = w.iter().map(String::as_str).collect();
            let played = json(&cli::deckwright(&db, &w), command);
            match f["kind"].as_str().unwrap() {
                "turn_limit" => {
                    let ended = played["ended"].as_str().unwrap();
                    assert!(ended.ends_with("_limit"), "{command}: ended {ended}");
                    replayed += 1;
                }
                "seat_favoured" if game != "iconoclasm" => {
                    let side = if f["text"].as_str().unwrap().starts_with("player 1") {
                        "a"
                    } else {
                        "b"
                    };
                    let winner = &played["winner"];
                    assert!(
                        winner == side || (game == "ruunara" && winner == "heroes"),
                        "{command}: won by {winner}, the warning says {side}"
                    );
                    replayed += 1;
                }
                "always_reached" => {
                    let said = f["text"].as_str().unwrap();
                    let ended = played["ended"].as_str().unwrap();
                    assert!(said.ends_with(ended), "{command}: {ended}; {said}");
                    replayed += 1;
                }
                _ => {}
            }
        }
    }
    assert!(
        replayed > 0,
        "no warning was replayed: the test proves nothing"
    );
}

#[test]
fn a_game_with_no_check_or_the_wrong_files_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("c.sqlite");
    let o = cli::deckwright(&db, &["health", "chess"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("chess"));
    let o = cli::deckwright(&db, &["health", "arcadia"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("required"));
    let o = cli::deckwright(&db, &["health", "iconoclasm", "--share", "1.5"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn the_strongest_parties_found_are_legal_ranked_and_win_at_least_as_much_as_the_start() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("c.sqlite");
    let (a, b) = (
        ex("iconica/legal-legion-raiders.party.toml"),
        ex("iconica/legal-protectorate-wardens.party.toml"),
    );
    let args = [
        "health", "iconica", &a, &b, "--games", "4", "--ai", "random", "--builds", "30", "--json",
    ];
    let report = json(&cli::deckwright(&db, &args), "builds");
    let builds = report["builds"].as_array().unwrap();
    assert_eq!(builds.len(), 3, "{report}");
    let rates: Vec<f64> = builds
        .iter()
        .map(|b| b["win_rate"].as_f64().unwrap())
        .collect();
    assert!(rates.windows(2).all(|w| w[0] >= w[1]), "{rates:?}");
    for b in builds {
        let (lo, hi) = (
            b["ci95"][0].as_f64().unwrap(),
            b["ci95"][1].as_f64().unwrap(),
        );
        let r = b["win_rate"].as_f64().unwrap();
        assert!(lo <= r && r <= hi && b["games"] == 30, "{b}");
        assert_eq!(b["path"][0], "start");
        // Each build found is a legal party: `validate` agrees.
        let names: Vec<&str> = b["build"].as_str().unwrap().split(", ").collect();
        let party = dir.path().join("found.party.toml");
        let members: Vec<String> = names.iter().map(|n| format!("{n:?}")).collect();
        std::fs::write(
            &party,
            format!("game = \"iconica\"\nmembers = [{}]\n", members.join(", ")),
        )
        .unwrap();
        let v = cli::deckwright(&db, &["validate", party.to_str().unwrap()]);
        assert_eq!(
            v.status.code(),
            Some(0),
            "{b}: {}",
            String::from_utf8_lossy(&v.stdout)
        );
    }
    // The same seed finds the same builds.
    let again = json(&cli::deckwright(&db, &args), "builds");
    assert_eq!(again["builds"], report["builds"]);
    // A game with no builds says so and still reports its health.
    let o = cli::deckwright(
        &db,
        &[
            "health",
            "iconoclasm",
            "--players",
            "2",
            "--games",
            "2",
            "--builds",
            "10",
        ],
    );
    assert_eq!(o.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&o.stderr).contains("no builds to search"));
}

/// The builds of a `--builds` report, each checked: ranked, measured over `games`, its
/// interval around its rate, its path from the build given, the start's rate never above
/// the best's.
fn checked_builds(report: &Value, games: u64) -> Vec<Value> {
    let builds = report["builds"].as_array().unwrap().clone();
    assert!(!builds.is_empty(), "{report}");
    let rate = |b: &Value| b["win_rate"].as_f64().unwrap();
    assert!(
        builds.windows(2).all(|w| rate(&w[0]) >= rate(&w[1])),
        "{report}"
    );
    for b in &builds {
        let (lo, hi) = (
            b["ci95"][0].as_f64().unwrap(),
            b["ci95"][1].as_f64().unwrap(),
        );
        assert!(lo <= rate(b) && rate(b) <= hi && b["games"] == games, "{b}");
        assert_eq!(b["path"][0], "start");
        assert!(
            b["path"].as_array().unwrap().len() <= 4,
            "at most 3 moves: {b}"
        );
    }
    let measured = report["builds_measured"].as_u64().unwrap();
    assert!(
        measured as usize >= builds.len() && measured <= 1 + 3 * 40,
        "{report}"
    );
    builds
}

#[test]
fn the_strongest_arcadia_characters_found_are_legal_in_the_setup_and_the_same_again() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("c.sqlite");
    let setup = ex("arcadia/legal-long-road.setup.toml");
    let args = [
        "health",
        "arcadia",
        &setup,
        "--games",
        "2",
        "--builds",
        "6",
        "--build-seat",
        "2",
        "--json",
    ];
    let report = json(&cli::deckwright(&db, &args), "arcadia builds");
    assert_eq!(report["build_seat"], 2);
    assert!(
        report["builds_against"]
            .as_str()
            .unwrap()
            .contains("Sir Bramwell"),
        "{report}"
    );
    // Each character found, in the setup in place of the second, passes `validate`.
    let text = std::fs::read_to_string(&setup).unwrap();
    let theirs = "legal-hobgallant-knight.character.toml";
    std::fs::copy(ex(&format!("arcadia/{theirs}")), dir.path().join(theirs)).unwrap();
    let found_setup = dir.path().join("found.setup.toml");
    std::fs::write(
        &found_setup,
        text.replace(
            "legal-veteran-with-experience.character.toml",
            "found.character.toml",
        ),
    )
    .unwrap();
    for b in checked_builds(&report, 6) {
        std::fs::write(
            dir.path().join("found.character.toml"),
            b["file"].as_str().unwrap(),
        )
        .unwrap();
        let v = cli::deckwright(&db, &["validate", found_setup.to_str().unwrap()]);
        assert_eq!(
            v.status.code(),
            Some(0),
            "{b}: {}",
            String::from_utf8_lossy(&v.stdout)
        );
    }
    // The same seed finds the same builds; the text report shows them too.
    let again = json(&cli::deckwright(&db, &args), "arcadia builds again");
    assert_eq!(again["builds"], report["builds"]);
    let text_args: Vec<&str> = args[..args.len() - 1].to_vec();
    let o = cli::deckwright(&db, &text_args);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("strongest builds found for seat 2"), "{out}");
}

#[test]
fn the_strongest_ruunara_squads_found_are_legal_on_the_mission() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("c.sqlite");
    let mission = ex("ruunara/reach.mission.toml");
    let squad = ex("ruunara/legal-free-play-mix.squad.toml");
    let args = [
        "health", "ruunara", &mission, &squad, "--games", "2", "--builds", "4", "--json",
    ];
    let report = json(&cli::deckwright(&db, &args), "ruunara builds");
    let builds = checked_builds(&report, 4);
    assert!(builds.len() > 1, "a free squad has moves: {report}");
    let found = dir.path().join("found.squad.toml");
    for b in builds {
        std::fs::write(&found, b["file"].as_str().unwrap()).unwrap();
        let v = cli::deckwright(&db, &["validate", &mission, found.to_str().unwrap()]);
        assert_eq!(
            v.status.code(),
            Some(0),
            "{b}: {}",
            String::from_utf8_lossy(&v.stdout)
        );
    }
    // A squad is seat 1: seat 2 is refused, said whole.
    let o = cli::deckwright(
        &db,
        &[
            "health",
            "ruunara",
            &mission,
            &squad,
            "--games",
            "2",
            "--builds",
            "4",
            "--build-seat",
            "2",
        ],
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("seat 1"));
}
