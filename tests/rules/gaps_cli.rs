//! Card texts the engines do not play are said aloud wherever the cards are used: `lint`
//! lists them (exit 1 while there are any), and `validate`, `play` and `sim` name those of the
//! cards in use on stderr, leaving stdout and the exit status to the rules.

use std::path::Path;

use serde_json::Value;

use super::run_cli::deckwright;

fn ex(p: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("examples")
        .join(p)
        .display()
        .to_string()
}

fn stderr(o: &std::process::Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A bundled card as a catalogue made before the engine played one of its skills holds
/// it: the skill's effect keys cut (`cut` is the first of them), the skill text only.
fn text_only(dir: &Path, id: &str, cut: &str) -> String {
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("cards/ruunara/{id}.toml")),
    )
    .unwrap();
    let at = text.find(cut).unwrap();
    let end = text[at..]
        .find("\n\n[[skills]]")
        .map_or(text.len(), |e| at + e);
    let file = dir.join(format!("{id}.toml"));
    std::fs::write(&file, format!("{}{}", &text[..at], &text[end..])).unwrap();
    file.display().to_string()
}

#[test]
fn lint_lists_every_text_not_played_and_fails_while_there_are_any() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("c.sqlite");
    // Every bundled text is played (issue #25).
    let o = deckwright(&db, &["lint", "--json"]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
    let doc: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(doc["not_played"], serde_json::json!([]));
    assert!(doc["cards"].as_u64().unwrap() > 100);
    // A catalogue whose cards lack the data: each text named.
    let haskar = text_only(dir.path(), "ru-haskar-emberfist", "effect = \"save\"");
    let slinger = text_only(dir.path(), "ru-bogspawn-slinger", "effect = \"cover\"");
    let o = deckwright(&db, &["import", &haskar, &slinger]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let o = deckwright(&db, &["lint", "--json"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let doc: Value = serde_json::from_slice(&o.stdout).unwrap();
    let gaps = doc["not_played"].as_array().unwrap();
    for skill in ["Skulk", "Tempered Hide"] {
        assert!(
            gaps.iter().any(|g| g["part"] == skill),
            "{skill} is not named: {doc}"
        );
    }
    assert_eq!(gaps.len(), 2, "{doc}");
    for g in gaps {
        assert!(g["card"].is_string() && g["name"].is_string() && g["why"].is_string());
    }
    // A query narrows it: Iconica's texts are all played.
    let o = deckwright(&db, &["lint", "game:iconica"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(String::from_utf8_lossy(&o.stdout).contains("0 card texts of 16 cards"));
    let o = deckwright(&db, &["lint", "name:("]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn validate_play_and_sim_name_the_texts_not_played_of_the_cards_in_use() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("c.sqlite");
    let squad = ex("ruunara/legal-ardann-story.squad.toml");
    let mission = ex("ruunara/eliminate.mission.toml");
    // The bundled cards: every text played, nothing said.
    for args in [
        vec!["validate", &squad],
        vec!["play", "ruunara", &mission, &squad],
        vec!["sim", "ruunara", &mission, &squad, "--games", "3"],
    ] {
        let o = deckwright(&db, &args);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        assert!(
            !stderr(&o).contains("not fully played"),
            "{args:?}: {}",
            stderr(&o)
        );
    }
    let haskar = text_only(dir.path(), "ru-haskar-emberfist", "effect = \"save\"");
    let slinger = text_only(dir.path(), "ru-bogspawn-slinger", "effect = \"cover\"");
    let o = deckwright(&db, &["import", &haskar, &slinger]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let o = deckwright(&db, &["validate", &squad]);
    assert_eq!(o.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&o.stdout).contains("legal"));
    let said = stderr(&o);
    assert!(said.contains("Tempered Hide: shown, not played"), "{said}");
    // Only the cards in use: the squad's, not the enemies'.
    assert!(!said.contains("Skulk"), "{said}");
    for args in [
        vec!["play", "ruunara", &mission, &squad],
        vec!["sim", "ruunara", &mission, &squad, "--games", "3"],
    ] {
        let o = deckwright(&db, &args);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let said = stderr(&o);
        assert!(said.contains("Tempered Hide"), "{args:?}: {said}");
        assert!(
            said.contains("Skulk"),
            "the mission's enemies are in use: {said}"
        );
    }
    // Arcadia plays every bundled text (its quests' time limits included): nothing said.
    let o = deckwright(&db, &["lint", "game:arcadia"]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
    let o = deckwright(&db, &["validate", &ex("arcadia/legal-starter.setup.toml")]);
    assert!(!stderr(&o).contains("not fully played"), "{}", stderr(&o));
    // Iconica plays every text: nothing said.
    let o = deckwright(
        &db,
        &["validate", &ex("iconica/legal-legion-raiders.party.toml")],
    );
    assert!(!stderr(&o).contains("not fully played"), "{}", stderr(&o));
}

/// What the four lint tests below share: `lint game:GAME` passes on every bundled card of
/// the game; the bundled card `file` with `changes` made (its id among them, to `id`) is
/// imported, and `lint id:ID` exits 1 saying each of `lines`.
fn lint_flags(game: &str, file: &str, changes: &[(&str, &str)], id: &str, lines: &[&str]) {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("c.sqlite");
    let o = deckwright(&db, &["lint", &format!("game:{game}"), "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let doc: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(doc["disagree"], serde_json::json!([]));

    let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(file)).unwrap();
    let wrong = changes
        .iter()
        .fold(text.clone(), |t, (from, to)| t.replace(from, to));
    assert_ne!(wrong, text);
    let card = dir.path().join("wrong.toml");
    std::fs::write(&card, wrong).unwrap();
    let o = deckwright(&db, &["import", card.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let o = deckwright(&db, &["lint", &format!("id:{id}")]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let out = String::from_utf8_lossy(&o.stdout);
    for line in lines {
        assert!(out.contains(line), "{line}\n{out}");
    }
}

/// `lint` compares each text with its effects: an Iconica card whose action says 30 damage
/// but deals 20, and names Stun that no effect gives, is flagged part by part (exit 1); every
/// bundled Iconica card passes.
#[test]
fn lint_flags_a_text_that_disagrees_with_its_effects() {
    lint_flags(
        "iconica",
        "cards/iconica/ico-anwen-halloway.toml",
        &[
            ("id = \"ico-anwen-halloway\"", "id = \"ico-test-wrong\""),
            ("name = \"Anwen Halloway\"", "name = \"Wrong Words\""),
            (
                "text = \"Deal 20 damage to one opposing character.\"",
                "text = \"Deal 30 damage and Stun to one opposing character.\"",
            ),
        ],
        "ico-test-wrong",
        &[
            "Wrong Words (ico-test-wrong): actions[0] (Staff Sweep): the text says 30, but no effect does",
            "Wrong Words (ico-test-wrong): actions[0] (Staff Sweep): an effect has 20, but the text does not say it",
            "Wrong Words (ico-test-wrong): actions[0] (Staff Sweep): the text names stun, but no effect gives it",
            "3 texts of 1 card disagree with their effects",
        ],
    );
}

/// `lint` holds Arcadia texts to their data too (issue #25, item 4): every bundled Arcadia
/// card passes; a merit whose text says +3 on a Might test but whose effect gives +2 to
/// Savvy, standing (no exhausting), is flagged for the number, the test and the cost.
#[test]
fn lint_flags_an_arcadia_text_that_disagrees_with_its_effects() {
    lint_flags(
        "arcadia",
        "cards/arcadia/arc-m-borrowed-face.toml",
        &[
            ("id = \"arc-m-borrowed-face\"", "id = \"arc-m-test-wrong\""),
            ("name = \"Borrowed Face\"", "name = \"Wrong Face\""),
            (
                "effects = [ { bonus = 2, test = \"savvy\", exhaust = true } ]",
                "effects = [ { bonus = 2, test = \"savvy\" } ]",
            ),
            ("+2 on one Savvy test", "+3 on one Might test"),
        ],
        "arc-m-test-wrong",
        &[
            "Wrong Face (arc-m-test-wrong): text: the text says 3, but no effect does",
            "Wrong Face (arc-m-test-wrong): text: an effect has 2, but the text does not say it",
            "Wrong Face (arc-m-test-wrong): text: the text names Might tests, but no effect is aimed at them",
            "Wrong Face (arc-m-test-wrong): text: the text says to exhaust the card, but no effect costs that",
        ],
    );
}

/// `lint` holds a Ruunara skill's text to its data (issue #25): a text naming 4 inches for a
/// circle of 3 is flagged both ways; every bundled Ruunara card passes.
#[test]
fn lint_flags_a_ruunara_skill_whose_numbers_are_not_its_data() {
    lint_flags(
        "ruunara",
        "cards/ruunara/ru-mother-ysolde.toml",
        &[
            ("id = \"ru-mother-ysolde\"", "id = \"ru-test-wrong\""),
            ("name = \"Mother Ysolde\"", "name = \"Wrong Circle\""),
            ("within 3 inches of Mother Ysolde", "within 4 inches of her"),
        ],
        "ru-test-wrong",
        &[
            "Wrong Circle (ru-test-wrong): skills[1] (Warding Circle): the text says 4, but the skill's data does not",
            "Wrong Circle (ru-test-wrong): skills[1] (Warding Circle): its `radius` is 3, but the text does not say it",
        ],
    );
}

/// `lint` holds the targets a Ruunara skill's text names to its data's `target` (issue #25,
/// item 4): a Grave Chill whose text silences "one ally" where the data says the engaged
/// enemy is flagged both ways; every bundled Ruunara card passes.
#[test]
fn lint_flags_a_ruunara_skill_whose_text_names_another_target() {
    lint_flags(
        "ruunara",
        "cards/ruunara/ru-fen-wraith.toml",
        &[
            ("id = \"ru-fen-wraith\"", "id = \"ru-test-target\""),
            ("name = \"Fen Wraith\"", "name = \"Wrong Chill\""),
            ("the engaged hero cannot use", "one ally cannot use"),
        ],
        "ru-test-target",
        &[
            "Wrong Chill (ru-test-target): skills[1] (Grave Chill): its `target` is engaged, but the text does not name it",
            "Wrong Chill (ru-test-target): skills[1] (Grave Chill): the text names an ally, but the skill's `target` is engaged",
        ],
    );
}
