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
    assert!(
        o.status.success(),
        "stderr: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    serde_json::from_slice(&o.stdout).unwrap()
}

#[test]
fn play_json_has_the_play_shape_and_the_winner_earns_two_experience() {
    let dir = tempfile::tempdir().unwrap();
    for seed in ["1", "2", "7"] {
        let d = json(&play(
            dir.path(),
            &["--seed", seed, "--policy", "random", "--json"],
        ));
        assert_eq!(d["game"], "arcadia");
        assert_eq!(d["ended"], "victory");
        let w = d["winner"].as_str().unwrap();
        assert!(w == "a" || w == "b");
        assert!(d["turns"].as_u64().unwrap() >= 1);
        assert!(d["dice_used"].as_u64().unwrap() >= 2);
        let log = d["log"].as_array().unwrap();
        assert_eq!(log[0]["type"], "first_roll");
        assert!(
            log.iter()
                .all(|e| e["type"].is_string() && e["text"].is_string())
        );
        assert_eq!(log.last().unwrap()["type"], "end");
        assert_eq!(
            log.iter().filter(|e| e["type"] == "day").count() as u64,
            d["turns"].as_u64().unwrap()
        );
        for side in ["a", "b"] {
            let s = &d["sides"][side];
            for key in [
                "league",
                "merits_exhausted",
                "merits_discarded",
                "quests_done",
                "experience",
            ] {
                assert!(!s[key].is_null(), "sides.{side}.{key} missing");
            }
            let gained = if side == w { 2 } else { 0 };
            assert_eq!(s["experience_gained"], gained);
        }
        let winner = &d["sides"][w];
        assert_eq!(
            winner["quests_done"].as_array().unwrap().len(),
            winner["quests"].as_array().unwrap().len()
        );
        // Player b of the example earned 4 experience before this quest.
        assert_eq!(
            d["sides"]["b"]["experience"],
            4 + if w == "b" { 2 } else { 0 }
        );
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
    let a = play(
        dir.path(),
        &[
            "--seed",
            "3",
            "--policy-a",
            "random",
            "--policy-b",
            "greedy",
        ],
    );
    let text = String::from_utf8(a.stdout).unwrap();
    assert!(text.contains("Day 1: "));
    assert!(text.contains("Side a (Sir Bramwell)"));
    assert!(
        !text.contains("\x1b["),
        "no colour when stdout is not a terminal"
    );
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
    let o = run(
        dir.path(),
        &["play", "arcadia", bad.to_str().unwrap(), "--json"],
    );
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
    let o = run(
        dir.path(),
        &[
            "play",
            "arcadia",
            "examples/arcadia/illegal-budgets.setup.toml",
        ],
    );
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
            &[
                "sim",
                "arcadia",
                EXAMPLE,
                "--games",
                "40",
                "--seed",
                "9",
                "--ai",
                "random",
                "--threads",
                threads,
                "--json",
            ],
        );
        let d = json(&o);
        (
            d["wins"].clone(),
            d["mean_turns"].clone(),
            d["game"].clone(),
            d["games"].clone(),
        )
    };
    let one = sim("1");
    assert_eq!(one, sim("2"));
    assert_eq!(one.2, "arcadia");
    assert_eq!(one.3, 40);
    let w = &one.0;
    assert_eq!(
        w["a"].as_u64().unwrap() + w["b"].as_u64().unwrap() + w["draw"].as_u64().unwrap(),
        40
    );
    for args in [
        &["sim", "arcadia"][..],
        &["sim", "arcadia", EXAMPLE, "--field"],
        &["sim", "arcadia", EXAMPLE, "--games", "0"],
    ] {
        let o = run(dir.path(), args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
    }
}

#[test]
fn play_and_sim_into_closed_pipe_do_not_panic() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("cat.sqlite");
    let setup = root().join(EXAMPLE);
    let setup = setup.to_str().unwrap();
    for args in [
        &[
            "play", "arcadia", setup, "--seed", "2", "--policy", "greedy",
        ][..],
        &["play", "arcadia", setup, "--seed", "2", "--json"],
        &["sim", "arcadia", setup, "--games", "20", "--ai", "random"],
        &[
            "sim", "arcadia", setup, "--games", "20", "--ai", "random", "--json",
        ],
    ] {
        crate::cli::closed_pipe::assert_quiet(&db, args, 0);
    }
}

#[test]
fn a_turn_limit_beyond_the_maximum_is_refused_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    let o = play(dir.path(), &["--turn-limit", "100001"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("1..=100000"));
    assert!(o.stdout.is_empty());
}

/// Issue 14's case: `play arcadia legal-long-road --seed 15 --policy random` had an Art
/// exhausted to retest in Brassgate Ward, whose card forbids Arts there. Checked over that
/// seed and others, and over the setup laid in play, which has Starfall Orchard: no rating-1
/// waylay is played there.
#[test]
fn regression_league_specials_hold_in_played_matches() {
    let dir = tempfile::tempdir().unwrap();
    let card = |id: &str| -> toml::Table {
        toml::from_str(
            &std::fs::read_to_string(root().join(format!("cards/arcadia/{id}.toml"))).unwrap(),
        )
        .unwrap()
    };
    let mut checked = (0, 0, 0);
    let runs = [15, 1, 2, 3, 4, 5, 6, 7]
        .map(|s| ("legal-long-road", s))
        .into_iter()
        .chain((1..=12).map(|s| ("legal-laid-in-play", s)));
    for (setup, seed) in runs {
        let seed = seed.to_string();
        let file = format!("examples/arcadia/{setup}.setup.toml");
        let d = json(&run(
            dir.path(),
            &[
                "play", "arcadia", &file, "--seed", &seed, "--policy", "random", "--json",
            ],
        ));
        let mut at = [
            d["sides"]["a"]["base_camp"].as_str().unwrap().to_string(),
            d["sides"]["b"]["base_camp"].as_str().unwrap().to_string(),
        ];
        for e in d["log"].as_array().unwrap() {
            let p = usize::from(e["player"] == "b");
            match e["type"].as_str().unwrap() {
                "moves" | "pushed" | "ruined" | "sent_back" => {
                    at[p] = e["to"].as_str().unwrap().to_string();
                    checked.1 +=
                        usize::from(e["type"] == "moves" && e["to"] == "arc-l-brassgate-ward");
                    checked.2 +=
                        usize::from(e["type"] == "moves" && e["to"] == "arc-l-starfall-orchard");
                }
                "retest" | "bonus" | "changes_test" => {
                    let art =
                        card(e["merit"].as_str().unwrap())["merit_type"].as_str() == Some("art");
                    assert!(
                        !(art && at[p] == "arc-l-brassgate-ward"),
                        "seed {seed}: {}",
                        e["text"]
                    );
                    checked.0 += usize::from(art);
                }
                "waylay_played" => {
                    let rating = card(e["waylay"].as_str().unwrap())["rating"].as_integer();
                    assert!(
                        !(rating == Some(1) && e["league"] == "arc-l-starfall-orchard"),
                        "seed {seed}: {}",
                        e["text"]
                    );
                }
                _ => {}
            }
        }
    }
    assert!(
        checked.0 > 0 && checked.1 > 0 && checked.2 > 0,
        "the runs used Arts and entered Brassgate Ward and Starfall Orchard: {checked:?}"
    );
}

/// Issue 14: a setup whose players bring their leagues is laid, its treasures hidden and its
/// Base Camps chosen in play; `validate` reads it; a file that both lays and brings leagues
/// is bad input naming the line.
#[test]
fn a_setup_laid_in_play_plays_from_the_command_line() {
    let dir = tempfile::tempdir().unwrap();
    let ex = "examples/arcadia/legal-laid-in-play.setup.toml";
    let o = run(dir.path(), &["validate", ex]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stdout));
    for policy in ["first", "random", "greedy"] {
        let d = json(&run(
            dir.path(),
            &[
                "play", "arcadia", ex, "--seed", "3", "--policy", policy, "--json",
            ],
        ));
        let log = d["log"].as_array().unwrap();
        let kinds: Vec<&str> = log.iter().map(|e| e["type"].as_str().unwrap()).collect();
        let laid = kinds.iter().filter(|k| **k == "league_laid").count();
        // Ten leagues brought, Starfall Orchard by both: nine at most are laid.
        assert!((2..=9).contains(&laid), "{policy}: {laid} leagues laid");
        assert_eq!(
            kinds.iter().filter(|k| **k == "base_chosen").count(),
            2,
            "{policy}"
        );
        let first_day = kinds.iter().position(|k| *k == "day").unwrap();
        assert!(kinds[..first_day].iter().all(|k| {
            [
                "first_roll",
                "league_laid",
                "treasure_hidden",
                "base_chosen",
            ]
            .contains(k)
        }));
        assert_eq!(
            kinds[first_day - 1],
            "base_chosen",
            "{policy}: the Base Camps are chosen last"
        );
        for side in ["a", "b"] {
            assert!(d["sides"][side]["base_camp"].is_string(), "{policy}");
            assert!(d["sides"][side]["position"]["x"].is_i64());
        }
    }
    // Stopped by the dice before the Base Camps are chosen: the characters are nowhere yet.
    let d = json(&run(
        dir.path(),
        &[
            "play", "arcadia", ex, "--dice", "1", "--policy", "first", "--json",
        ],
    ));
    assert_eq!(d["ended"], "dice_exhausted");
    for side in ["a", "b"] {
        for key in ["league", "position", "base_camp"] {
            assert!(
                d["sides"][side][key].is_null(),
                "{side}.{key}: {}",
                d["sides"][side][key]
            );
        }
    }
    // The same seed replays byte for byte.
    let once = run(
        dir.path(),
        &["play", "arcadia", ex, "--seed", "9", "--policy", "random"],
    );
    let again = run(
        dir.path(),
        &["play", "arcadia", ex, "--seed", "9", "--policy", "random"],
    );
    assert_eq!(once.stdout, again.stdout);
    let text = String::from_utf8_lossy(&once.stdout);
    assert!(text.contains(" lays "));
    // Where a league is laid is said in words too: negative positions are west or north of
    // the first league, at (0, 0) (issue 27, item 5).
    let laid: Vec<&str> = text.lines().filter(|l| l.contains(" lays ")).collect();
    assert!(
        laid.iter()
            .any(|l| l.ends_with("at (0, 0), the first league's place"))
            && laid
                .iter()
                .all(|l| l.ends_with("of the first league")
                    || l.ends_with("the first league's place")),
        "{laid:?}"
    );
    assert!(
        laid.iter()
            .any(|l| l.contains("(-") && (l.contains(" west") || l.contains(" north"))),
        "{laid:?}"
    );
    // Leagues laid in play are labelled with their place, like a file's.
    let moves: Vec<&str> = text.lines().filter(|l| l.contains(" moves ")).collect();
    assert!(
        !moves.is_empty() && moves.iter().all(|l| l.ends_with(')')),
        "{moves:?}"
    );

    // Laying and bringing leagues in one file is bad input.
    let text = std::fs::read_to_string(root().join(ex)).unwrap()
        + "\n[[leagues]]\nid = \"arc-l-gloaming-wood\"\nowner = 1\nx = 0\ny = 0\n";
    let both = dir.path().join("both.setup.toml");
    std::fs::write(
        &both,
        text.replace(
            "legal-",
            &format!("{}/examples/arcadia/legal-", root().display()),
        ),
    )
    .unwrap();
    let o = run(dir.path(), &["play", "arcadia", both.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("both.setup.toml:") && err.contains("not both"),
        "{err}"
    );
}

#[test]
fn a_quest_past_its_time_limit_fails_in_the_log_and_in_sides() {
    // The long road with player a on The Lantern-Keeper's Errand (24 Days), whose Lantern
    // Market is never reached in the first 24 of a's Days under the `first` policy.
    let dir = tempfile::tempdir().unwrap();
    let ex = root().join("examples/arcadia");
    for f in [
        "legal-hobgallant-knight.character.toml",
        "legal-veteran-with-experience.character.toml",
    ] {
        std::fs::copy(ex.join(f), dir.path().join(f)).unwrap();
    }
    let setup = std::fs::read_to_string(ex.join("legal-long-road.setup.toml"))
        .unwrap()
        .replace(
            "quests = [\"arc-q-bottle-the-sea-wind\"]",
            "quests = [\"arc-q-lantern-keepers-errand\"]",
        );
    let file = dir.path().join("timed.setup.toml");
    std::fs::write(&file, setup).unwrap();
    let d = json(&run(
        dir.path(),
        &[
            "play",
            "arcadia",
            file.to_str().unwrap(),
            "--seed",
            "1",
            "--policy",
            "first",
            "--json",
            "--turn-limit",
            "60",
        ],
    ));
    let log = d["log"].as_array().unwrap();
    let failed: Vec<&Value> = log.iter().filter(|e| e["type"] == "quest_failed").collect();
    assert_eq!(failed.len(), 1, "{}", d["sides"]);
    assert_eq!(failed[0]["player"], "a");
    assert_eq!(failed[0]["quest"], "arc-q-lantern-keepers-errand");
    // The Day it failed was a's 24th.
    let days: Vec<&Value> = log
        .iter()
        .take_while(|e| e["type"] != "quest_failed")
        .filter(|e| e["type"] == "day" && e["player"] == "a")
        .collect();
    assert_eq!(days.len(), 24);
    let a = &d["sides"]["a"];
    assert_eq!(a["quests"][0]["failed"], true);
    assert_eq!(a["quests_failed"][0], "arc-q-lantern-keepers-errand");
    assert_ne!(d["winner"], "a");
}
