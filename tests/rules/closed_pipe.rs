//! `validate`, `odds` and the Ruunara commands with nobody reading their stdout end quietly
//! with the status they have with a reader; `odds` refuses more dice than it takes, and
//! counts a hit's damage.

use std::path::Path;

use crate::run_cli::closed_pipe::assert_quiet;
use crate::run_cli::deckwright;

fn ex(p: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("examples")
        .join(p)
        .display()
        .to_string()
}

#[test]
fn validate_into_closed_pipe_does_not_panic() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("cat.sqlite");
    let legal = ex("iconica/legal-legion-raiders.party.toml");
    let illegal = ex("iconica/illegal-faction-mix.party.toml");
    assert_quiet(&db, &["validate", &legal], 0);
    assert_quiet(&db, &["validate", &legal, "--json"], 0);
    // A violation keeps its exit status 1 with nobody reading.
    assert_quiet(&db, &["validate", &illegal], 1);
    assert_quiet(&db, &["validate", &illegal, &legal, "--json"], 1);
}

#[test]
fn odds_into_closed_pipe_does_not_panic() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("cat.sqlite");
    assert_quiet(&db, &["odds", "ruunara", "3D4+"], 0);
    assert_quiet(
        &db,
        &["odds", "ruunara", "4D5+", "--cover", "--hp", "2", "--json"],
        0,
    );
}

#[test]
fn odds_beyond_the_dice_limit_are_refused_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("cat.sqlite");
    let out = deckwright(&db, &["odds", "ruunara", "1001D4+"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    assert!(String::from_utf8_lossy(&out.stderr).contains("the 1000 the calculator takes"));
    let out = deckwright(&db, &["odds", "ruunara", "1000D4+", "--json"]);
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["distribution"].as_array().unwrap().len(), 1001);
}

#[test]
fn odds_damage_divides_the_hits_a_kill_needs_and_is_checked() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("cat.sqlite");
    let kill = |extra: &[&str]| {
        let mut args = vec!["odds", "ruunara", "2D4+", "--hp", "3", "--json"];
        args.extend_from_slice(extra);
        let out = deckwright(&db, &args);
        assert!(out.status.success(), "{out:?}");
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        (v["kill_chance"].as_f64().unwrap(), v["damage"].clone())
    };
    // 3 hit points: two dice of 1 cannot kill; of 2 each, both hits (1/4) do.
    assert_eq!(kill(&[]), (0.0, serde_json::json!(1)));
    let (k, d) = kill(&["--damage", "2"]);
    assert!((k - 0.25).abs() < 1e-12, "{k}");
    assert_eq!(d, serde_json::json!(2));
    for bad in ["0", "11"] {
        let out = deckwright(&db, &["odds", "ruunara", "2D4+", "--damage", bad]);
        assert_eq!(out.status.code(), Some(2));
        assert!(String::from_utf8_lossy(&out.stderr).contains("--damage takes hit points"));
    }
}

#[test]
fn ruunara_play_sim_duel_and_mission_validate_into_closed_pipe_do_not_panic() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("cat.sqlite");
    let mission = ex("ruunara/eliminate.mission.toml");
    let squad = ex("ruunara/legal-ardann-story.squad.toml");
    assert_quiet(
        &db,
        &["play", "ruunara", &mission, &squad, "--seed", "2"],
        0,
    );
    assert_quiet(&db, &["play", "ruunara", &mission, &squad, "--json"], 0);
    assert_quiet(
        &db,
        &[
            "sim", "ruunara", &mission, &squad, "--games", "20", "--ai", "random",
        ],
        0,
    );
    assert_quiet(
        &db,
        &[
            "duel",
            "ruunara",
            "ru-yrsa-coalmantle",
            "ru-ghoul-gnawer",
            "--games",
            "50",
        ],
        0,
    );
    assert_quiet(&db, &["validate", &mission, &squad], 0);
    let bad = ex("ruunara/illegal-enemy-faction.mission.toml");
    assert_quiet(&db, &["validate", &bad, &squad, "--json"], 1);
}
