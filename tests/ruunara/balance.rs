//! `deckwright balance ruunara`: a hero against the example missions with and without it,
//! paired; a skill the engine does not play measures exactly nothing and is said aloud.

use std::process::Command;

use serde_json::Value;

fn balance(args: &[&str]) -> (Option<i32>, Value, String) {
    balance_on(None, args)
}

/// `balance ruunara ARGS` on a catalogue that has `card` (a card file's text) imported over
/// the bundled cards.
fn balance_on(card: Option<&str>, args: &[&str]) -> (Option<i32>, Value, String) {
    let dir = tempfile::tempdir().unwrap();
    if let Some(card) = card {
        let file = dir.path().join("card.toml");
        std::fs::write(&file, card).unwrap();
        let out = Command::new(env!("CARGO_BIN_EXE_deckwright"))
            .arg("--db")
            .arg(dir.path().join("c.sqlite"))
            .arg("import")
            .arg(&file)
            .output()
            .unwrap();
        assert!(out.status.success(), "{out:?}");
    }
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
    // Both his skills are played (issue #25): nothing to say aloud.
    assert_eq!(r["not_played"].as_array().unwrap().len(), 0, "{r}");
}

/// Haskar's card as a catalogue made before Tempered Hide was played holds it: text only.
fn haskar_text_only() -> String {
    let card = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/cards/ruunara/ru-haskar-emberfist.toml"
    ))
    .unwrap();
    let cut = card.find("effect = \"save\"").unwrap();
    card[..cut].to_string()
}

#[test]
fn a_skill_the_engine_does_not_play_measures_exactly_nothing() {
    let card = haskar_text_only();
    let (code, r, err) = balance_on(
        Some(&card),
        &[
            "Haskar Emberfist",
            "--skill",
            "Tempered Hide",
            "--max-games",
            "60",
            "--json",
        ],
    );
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
