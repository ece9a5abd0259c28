//! `deckwright validate` run as a real binary: exit codes 0/1/2, JSON shape, human output,
//! and the bundled examples.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

fn examples() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("examples")
}

fn validate(db: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_deckwright"))
        .arg("--db")
        .arg(db)
        .arg("validate")
        .args(args)
        .output()
        .expect("the binary runs")
}

fn ex(p: &str) -> String {
    examples().join(p).display().to_string()
}

fn json(out: &Output) -> Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "stdout is JSON ({e}): {}",
            String::from_utf8_lossy(&out.stdout)
        )
    })
}

#[test]
fn a_legal_party_exits_0_with_the_json_shape() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("c.sqlite");
    let out = validate(
        &db,
        &[&ex("iconica/legal-legion-raiders.party.toml"), "--json"],
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v = json(&out);
    assert_eq!(v["game"], "iconica");
    assert_eq!(v["legal"], true);
    assert_eq!(v["violations"], Value::Array(vec![]));
    assert!(
        v["file"]
            .as_str()
            .unwrap()
            .ends_with("legal-legion-raiders.party.toml")
    );
}

#[test]
fn a_violation_exits_1_and_names_rule_cards_and_source() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("c.sqlite");
    let out = validate(
        &db,
        &[&ex("iconica/illegal-faction-mix.party.toml"), "--json"],
    );
    assert_eq!(out.status.code(), Some(1));
    let v = json(&out);
    assert_eq!(v["legal"], false);
    let viol = &v["violations"][0];
    assert_eq!(viol["rule"], "faction-mix");
    assert_eq!(
        viol["cards"],
        serde_json::json!(["ico-kethra-voss", "ico-anwen-halloway"])
    );
    assert!(viol["message"].as_str().unwrap().contains("Kethra Voss"));
    assert!(
        viol["source"]
            .as_str()
            .unwrap()
            .contains("Selecting Your Party Members")
    );
}

#[test]
fn several_files_give_an_array_and_shared_legends_are_caught_on_the_later_file() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("c.sqlite");
    let out = validate(
        &db,
        &[
            &ex("iconica/legal-protectorate-wardens.party.toml"),
            &ex("iconica/shares-legend-with-wardens.party.toml"),
            "--json",
        ],
    );
    assert_eq!(out.status.code(), Some(1));
    let v = json(&out);
    let files = v.as_array().expect("an array for several files");
    assert_eq!(files.len(), 2);
    assert_eq!(files[0]["legal"], true);
    assert_eq!(files[1]["violations"][0]["rule"], "shared-legend-special");
    assert_eq!(
        files[1]["violations"][0]["cards"],
        serde_json::json!(["ico-teodric-vale"])
    );
}

#[test]
fn every_example_is_as_its_name_says() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("c.sqlite");
    for game in ["iconica", "arcadia", "ruunara"] {
        for entry in std::fs::read_dir(examples().join(game)).unwrap() {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().to_string();
            if !name.ends_with(".toml") {
                continue;
            }
            if name.ends_with(".mission.toml") {
                continue; // checked against a squad below
            }
            let out = validate(&db, &[&path.display().to_string(), "--json"]);
            let want = if name.starts_with("legal-") || name.starts_with("shares-") {
                0
            } else {
                1
            };
            assert_eq!(
                out.status.code(),
                Some(want),
                "{name}: {}",
                String::from_utf8_lossy(&out.stdout)
            );
            let v = json(&out);
            assert_eq!(v["game"], game, "{name}");
            if let Some(rule) = name
                .strip_prefix("illegal-")
                .and_then(|n| n.split('.').next())
            {
                let rules: Vec<&str> = v["violations"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|x| x["rule"].as_str().unwrap())
                    .collect();
                let expected: &[&str] = match rule {
                    "faction-mix" => &["faction-mix"],
                    "duplicate" if game == "iconica" => &["duplicate"],
                    "duplicate" => &["squad-duplicate"],
                    "two-legends" => &["legend-special-limit"],
                    "party-size" => &["party-size"],
                    "unknown-card" => &["unknown-card"],
                    "flaw-cap" => &["flaw-cap"],
                    "over-budget" => &["merit-budget"],
                    "court-undeclared" => &["court-undeclared"],
                    "court-mismatch" => &["court-mismatch"],
                    "wrong-kind" => &["wrong-kind"],
                    "no-icon" => &["icon-count"],
                    "league-placement" => &["league-placement"],
                    "unique-league" => &["unique-league"],
                    "league-count" => &["league-count"],
                    "budgets" => &["waylay-budget", "treasure-budget"],
                    "story-mixed-races" => &["story-single-race"],
                    "enemy-in-squad" => &["squad-playable"],
                    other => panic!("example {name}: no expectation for `{other}`"),
                };
                let mut got = rules.clone();
                got.dedup();
                assert_eq!(got, expected, "{name}");
            }
        }
    }
}

#[test]
fn characters_show_derived_figures() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("c.sqlite");
    let out = validate(
        &db,
        &[
            &ex("arcadia/legal-veteran-with-experience.character.toml"),
            "--json",
        ],
    );
    assert_eq!(out.status.code(), Some(0));
    let d = &json(&out)["derived"];
    assert_eq!(d["points_available"], 15);
    assert_eq!(d["points_spent"], 15);
    assert_eq!(d["points_left"], 0);
    assert_eq!(d["court"], "seelie");
    assert_eq!(d["court_decided_by"], "majority");
    assert_eq!(d["xp_spent"], 4);
    assert_eq!(d["waylay_bonus"], 2);
    let text = validate(
        &db,
        &[&ex("arcadia/legal-veteran-with-experience.character.toml")],
    );
    let text = String::from_utf8(text.stdout).unwrap();
    assert!(text.contains(": legal"), "{text}");
    assert!(
        text.contains("15 available, 15 spent, 0 left") && text.contains("Waylay Rating bonus: +2"),
        "{text}"
    );
}

#[test]
fn human_output_lists_violations_with_rule_ids() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("c.sqlite");
    let out = validate(&db, &[&ex("arcadia/illegal-league-placement.setup.toml")]);
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("league-placement: Gullcry Cliffs"), "{text}");
    assert!(
        text.contains("north side [border]") && text.contains("Thimbleford Crossing"),
        "{text}"
    );
}

#[test]
fn bad_input_exits_2_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("c.sqlite");
    let write = |name: &str, text: &str| {
        let p = dir.path().join(name);
        std::fs::write(&p, text).unwrap();
        p.display().to_string()
    };
    let legal = ex("iconica/legal-legion-raiders.party.toml");
    let cases = [
        (
            write(
                "syntax.party.toml",
                "game = \"iconica\"\nmembers = [\"a\",\n",
            ),
            "syntax.party.toml:",
        ),
        (
            write(
                "extra.party.toml",
                "game = \"iconica\"\nmembers = []\ncolour = \"red\"\n",
            ),
            "extra.party.toml:3:1",
        ),
        (
            write("game.party.toml", "game = \"chess\"\nmembers = []\n"),
            "chess",
        ),
        (write("nogame.party.toml", "members = []\n"), "game"),
        (
            dir.path().join("missing.party.toml").display().to_string(),
            "missing.party.toml",
        ),
        (
            write(
                "bad.setup.toml",
                "game = \"arcadia\"\n[[players]]\ncharacter = \"nowhere.character.toml\"\n[[players]]\ncharacter = \"nowhere.character.toml\"\n",
            ),
            "nowhere.character.toml",
        ),
        (
            write(
                "mode.squad.toml",
                "game = \"ruunara\"\nmode = \"campaign\"\nmembers = []\n",
            ),
            "mode.squad.toml:2",
        ),
    ];
    for (file, needle) in cases {
        // A good file first: still nothing is written when a later file is bad.
        let out = validate(&db, &[&legal, &file, "--json"]);
        assert_eq!(out.status.code(), Some(2), "{file}");
        assert!(
            out.stdout.is_empty(),
            "{file}: {}",
            String::from_utf8_lossy(&out.stdout)
        );
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(err.contains(needle), "{file}: {err}");
    }
}

#[test]
fn an_unknown_card_is_a_violation_not_bad_input() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("c.sqlite");
    let p = dir.path().join("ghost.character.toml");
    std::fs::write(
        &p,
        "game = \"arcadia\"\nicon = \"arc-nobody\"\ncourt = \"seelie\"\n",
    )
    .unwrap();
    let out = validate(&db, &[&p.display().to_string(), "--json"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(json(&out)["violations"][0]["rule"], "unknown-card");
}

#[test]
fn an_arcadia_file_without_suffix_is_told_apart_by_its_keys() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("c.sqlite");
    let setup =
        std::fs::read_to_string(examples().join("arcadia/legal-starter.setup.toml")).unwrap();
    let ex_dir = examples().join("arcadia");
    let setup = setup.replace(
        "character = \"",
        &format!("character = \"{}/", ex_dir.display()),
    );
    let p = dir.path().join("my-game.toml");
    std::fs::write(&p, setup).unwrap();
    let out = validate(&db, &[&p.display().to_string(), "--json"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v = json(&out);
    assert_eq!(v["kind"], "setup");
    assert_eq!(v["characters"].as_array().unwrap().len(), 2);
}

/// Every Ruunara example mission, checked against each bundled legal squad: the playable ones
/// are legal, the malformed ones are bad input naming file, line, column and key (nothing on
/// stdout), and the one that breaks rules says which.
#[test]
fn every_example_mission_is_as_its_name_says() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("c.sqlite");
    let squads = [
        ex("ruunara/legal-ardann-story.squad.toml"),
        ex("ruunara/legal-free-play-mix.squad.toml"),
    ];
    let mut missions = 0;
    for entry in std::fs::read_dir(examples().join("ruunara")).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        if !name.ends_with(".mission.toml") {
            continue;
        }
        missions += 1;
        let file = path.display().to_string();
        let out = validate(&db, &[&file, &squads[0], &squads[1], "--json"]);
        let stderr = String::from_utf8_lossy(&out.stderr).to_string();
        match name.as_str() {
            "illegal-enemy-faction.mission.toml" => {
                assert_eq!(out.status.code(), Some(1), "{name}: {stderr}");
                let v = json(&out);
                let verdicts = v.as_array().unwrap();
                // The mission against each squad, then each squad.
                assert_eq!(verdicts.len(), 4);
                for (i, squad) in squads.iter().enumerate() {
                    assert_eq!(verdicts[i]["kind"], "mission");
                    assert_eq!(verdicts[i]["squad"], squad.as_str());
                    let rules: Vec<&str> = verdicts[i]["violations"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|x| x["rule"].as_str().unwrap())
                        .collect();
                    assert_eq!(rules, ["mission-enemy-faction", "mission-deploy"]);
                }
                assert_eq!(verdicts[2]["legal"], true);
            }
            n if n.starts_with("illegal-") => {
                assert_eq!(out.status.code(), Some(2), "{name}: {stderr}");
                assert!(out.stdout.is_empty(), "{name}: nothing on stdout");
                // file:line:column: key `k`: ...
                let at = format!("{file}:");
                let rest = stderr
                    .split(&at)
                    .nth(1)
                    .unwrap_or_else(|| panic!("{name}: {stderr}"));
                let mut parts = rest.splitn(3, ':');
                let line: usize = parts.next().unwrap().parse().expect("a line");
                let column: usize = parts.next().unwrap().parse().expect("a column");
                assert!(line > 1 && column >= 1, "{stderr}");
                assert!(
                    parts.next().unwrap().trim_start().starts_with("key `"),
                    "{stderr}"
                );
            }
            _ => {
                assert_eq!(out.status.code(), Some(0), "{name}: {stderr}");
                let v = json(&out);
                assert_eq!(v[0]["game"], "ruunara");
                assert_eq!(v[0]["kind"], "mission");
                assert_eq!(v[0]["legal"], true);
                assert_eq!(v[1]["legal"], true);
            }
        }
    }
    assert!(missions >= 8, "{missions} missions");
    // A mission alone is checked for its cards; text output names mission and squad.
    let out = validate(&db, &[&ex("ruunara/eliminate.mission.toml")]);
    assert_eq!(out.status.code(), Some(0));
    let out = validate(
        &db,
        &[
            &ex("ruunara/illegal-enemy-faction.mission.toml"),
            &squads[0],
        ],
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("illegal-enemy-faction.mission.toml with ")
            && text.contains("mission-enemy-faction: enemy 1 `ru-sanbari-tracker` is Sanbari Tracker (ru-sanbari-tracker), an ally card"),
        "{text}"
    );
}
