//! `deckwright balance ruunara`: a hero against the example missions with and without it,
//! paired; a skill the engine does not play measures exactly nothing and is said aloud.

use std::process::Command;

use serde_json::Value;

fn balance(args: &[&str]) -> (Option<i32>, Value, String) {
    let dir = tempfile::tempdir().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_deckwright"))
        .arg("--db")
        .arg(dir.path().join("c.sqlite"))
        .args(["balance", "ruunara"])
        .args(args)
        .output()
        .unwrap();
    let json = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
    (
        out.status.code(),
        json,
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn a_hero_is_measured_on_every_example_mission_with_and_without_it() {
    let (code, r, err) = balance(&["ru-haskar-emberfist", "--max-games", "80", "--json"]);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(r["games"], 80);
    // Every example mission is played by every example squad that has him, his own
    // deployment zone dropped where a mission gives each member one.
    assert_eq!(r["skipped"].as_array().unwrap().len(), 0, "{r}");
    let matchups = r["matchups"].as_array().unwrap();
    assert_eq!(matchups.len(), 8, "two squads on four missions");
    let games: u64 = matchups.iter().map(|m| m["games"].as_u64().unwrap()).sum();
    assert_eq!(games, 80);
    // The paired difference is the two rates' difference.
    let d = r["delta"].as_f64().unwrap();
    let with = r["win_rate"].as_f64().unwrap();
    let without = r["against"]["win_rate"].as_f64().unwrap();
    assert!((d - (with - without)).abs() < 1e-9, "{r}");
    // His text-only skill is said aloud.
    let said = r["not_played"].to_string();
    assert!(said.contains("Tempered Hide"), "{said}");
}

#[test]
fn a_skill_the_engine_does_not_play_measures_exactly_nothing() {
    let (code, r, err) = balance(&[
        "Haskar Emberfist",
        "--skill",
        "Tempered Hide",
        "--max-games",
        "60",
        "--json",
    ]);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(r["skill"], "Tempered Hide");
    assert_eq!(r["delta"].as_f64(), Some(0.0), "{r}");
    assert_eq!(r["win_rate"], r["against"]["win_rate"]);
    assert_eq!(r["not_played"].as_array().unwrap().len(), 1, "{r}");
}

#[test]
fn an_unknown_skill_or_a_squad_without_the_hero_is_refused() {
    let (code, _, err) = balance(&["ru-haskar-emberfist", "--skill", "Nope"]);
    assert_eq!(code, Some(2));
    assert!(
        err.contains("has no skill `Nope`") && err.contains("Tempered Hide"),
        "{err}"
    );
    let squad = format!(
        "{}/examples/ruunara/legal-free-play-mix.squad.toml",
        env!("CARGO_MANIFEST_DIR")
    );
    let (code, _, err) = balance(&["ru-fen-wraith", "--squad", &squad]);
    assert_eq!(code, Some(2));
    assert!(err.contains("has no"), "{err}");
}
