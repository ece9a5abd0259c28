//! Match files from the command line: `play GAME ... --record FILE` writes what `replay FILE`
//! prints again byte for byte (text and JSON) for every game, `--to` stops part way, a
//! damaged file is refused naming its first bad step (exit 1), a newer format or another
//! engine with exit 2; and the records kept in `records/` still replay (a rule change that
//! plays them differently fails here, and its commit must say so).

use std::path::{Path, PathBuf};
use std::process::Output;

use deckwright::games::record::MatchRecord;
use deckwright::games::registry;

use crate::cli;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn ex(p: &str) -> String {
    root().join("examples").join(p).display().to_string()
}

fn run(db: &Path, args: &[&str]) -> Output {
    cli::deckwright(db, args)
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// One `play` command of every game, with the shapes that matter: dice scripts (one that
/// runs out), a solo deal with chance picks, zone deployment, mcts.
fn plays() -> Vec<(&'static str, Vec<String>)> {
    let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
    vec![
        (
            "iconica",
            s(&[
                "play",
                "iconica",
                &ex("iconica/legal-legion-raiders.party.toml"),
                &ex("iconica/legal-protectorate-wardens.party.toml"),
                "--seed",
                "4",
                "--policy",
                "greedy",
            ]),
        ),
        (
            "iconica-dice",
            s(&[
                "play",
                "iconica",
                &ex("iconica/legal-legion-raiders.party.toml"),
                &ex("iconica/legal-independents.party.toml"),
                "--dice",
                "3 5 2 6 4 4",
                "--policy",
                "first",
            ]),
        ),
        (
            "arcadia",
            s(&[
                "play",
                "arcadia",
                &ex("arcadia/legal-laid-in-play.setup.toml"),
                "--seed",
                "4",
                "--policy",
                "greedy",
            ]),
        ),
        (
            "iconoclasm-solo",
            s(&[
                "play",
                "iconoclasm",
                "--players",
                "1",
                "--goal",
                "balance",
                "--policy",
                "greedy",
            ]),
        ),
        (
            "iconoclasm",
            s(&[
                "play",
                "iconoclasm",
                "--players",
                "3",
                "--seed",
                "7",
                "--policy-a",
                "mcts:20",
            ]),
        ),
        (
            "ruunara",
            s(&[
                "play",
                "ruunara",
                &ex("ruunara/rescue.mission.toml"),
                &ex("ruunara/legal-ardann-story.squad.toml"),
                "--seed",
                "3",
                "--policy",
                "greedy",
            ]),
        ),
    ]
}

#[test]
fn every_game_replays_what_play_printed_text_and_json() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("c.sqlite");
    for (name, args) in plays() {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let file = dir.path().join(format!("{name}.match.toml"));
        let f = file.to_str().unwrap();
        let played = run(&db, &args);
        assert!(played.status.success(), "{name}: {}", stderr(&played));
        let recorded = run(&db, &[&args[..], &["--record", f]].concat());
        assert_eq!(
            stdout(&recorded),
            stdout(&played),
            "{name}: --record plays the same"
        );
        let replayed = run(&db, &["replay", f]);
        assert!(replayed.status.success(), "{name}: {}", stderr(&replayed));
        assert_eq!(
            stdout(&replayed),
            stdout(&played),
            "{name}: replay prints play's text"
        );
        let json = run(&db, &[&args[..], &["--json"]].concat());
        let rjson = run(&db, &["replay", f, "--json"]);
        assert_eq!(
            stdout(&rjson),
            stdout(&json),
            "{name}: replay prints play's JSON"
        );
        let r = MatchRecord::load(&file).unwrap();
        assert_eq!(r.format, 2);
        assert_eq!(r.engine, registry::find(&r.game).unwrap().engine);
        assert_eq!(r.checks.len(), r.inputs.len(), "{name}: a check a step");
        // The record alone replays: no catalogue behind it.
        registry::replay(&r, None, &Vec::new()).unwrap();
    }
}

#[test]
fn a_script_that_runs_out_is_recorded_and_replays_to_the_same_stop() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("c.sqlite");
    let file = dir.path().join("short.match.toml");
    let f = file.to_str().unwrap();
    let args = [
        "play",
        "arcadia",
        &ex("arcadia/legal-starter.setup.toml"),
        "--dice",
        "2 5 3",
        "--policy",
        "first",
        "--json",
    ];
    let played = run(&db, &args);
    let doc: serde_json::Value = serde_json::from_slice(&played.stdout).unwrap();
    assert_eq!(doc["ended"], "dice_exhausted");
    run(&db, &[&args[..], &["--record", f]].concat());
    assert!(MatchRecord::load(&file).unwrap().exhausted);
    let replayed = run(&db, &["replay", f, "--json"]);
    assert_eq!(stdout(&replayed), stdout(&played));
}

#[test]
fn to_stops_part_way_and_says_the_match_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("c.sqlite");
    let file = dir.path().join("r.match.toml");
    let f = file.to_str().unwrap();
    let (_, args) = plays().pop().unwrap();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    run(&db, &[&args[..], &["--record", f]].concat());
    let whole = run(&db, &["replay", f, "--json"]);
    let part = run(&db, &["replay", f, "--json", "--to", "12"]);
    assert!(part.status.success(), "{}", stderr(&part));
    let whole: serde_json::Value = serde_json::from_slice(&whole.stdout).unwrap();
    let part: serde_json::Value = serde_json::from_slice(&part.stdout).unwrap();
    assert!(part["log"].as_array().unwrap().len() < whole["log"].as_array().unwrap().len());
    assert_eq!(part["winner"], serde_json::Value::Null);
    let text = run(&db, &["replay", f, "--to", "12"]);
    assert!(
        stdout(&text).contains("the match goes on"),
        "{}",
        stdout(&text)
    );
    let n = MatchRecord::load(&file).unwrap().inputs.len();
    let over = run(&db, &["replay", f, "--to", &(n + 1).to_string()]);
    assert_eq!(over.status.code(), Some(2));
    assert!(stderr(&over).contains(&format!("has {n} inputs")));
}

#[test]
fn a_changed_step_exits_1_naming_it_and_a_foreign_file_exits_2() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("c.sqlite");
    let file = dir.path().join("a.match.toml");
    let f = file.to_str().unwrap();
    let (_, args) = plays().swap_remove(2);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    run(&db, &[&args[..], &["--record", f]].concat());
    let r = MatchRecord::load(&file).unwrap();
    let bad = dir.path().join("bad.match.toml");
    let b = bad.to_str().unwrap();
    // Another legal die at a chance step plays differently from there: its step is named.
    let mut changed = r.clone();
    let g = deckwright::games::arcadia::matchfile::compile_record(&r.options, &Vec::new()).unwrap();
    let mut game = deckwright::games::arcadia::engine::ArcadiaGame::new(&g);
    let mut at = None;
    for (k, &i) in r.inputs.iter().enumerate() {
        use deckwright::games::game::{Game, Turn};
        if matches!(game.turn(), Turn::Chance(_)) && k > 3 {
            at = Some(k);
            break;
        }
        game.apply(i);
    }
    let at = at.expect("a die is rolled");
    changed.inputs[at] = (changed.inputs[at] + 1) % 6;
    changed.save(&bad).unwrap();
    let out = run(&db, &["replay", b]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(
        stderr(&out).contains(&format!("step {at} of the match file no longer replays")),
        "{}",
        stderr(&out)
    );
    // An option that does not exist there.
    let mut illegal = r.clone();
    illegal.inputs[0] = 999;
    illegal.save(&bad).unwrap();
    let out = run(&db, &["replay", b]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("input 0 of the match file (999) is not a legal input there"));
    // A newer format, another engine, not a record at all: exit 2, nothing on stdout.
    let text = std::fs::read_to_string(&file).unwrap();
    for (content, says) in [
        (text.replacen("format = 2", "format = 9", 1), "newer"),
        (
            text.replacen("engine = 1", "engine = 99", 1),
            "engine version 99",
        ),
        ("name = \"not a match\"\n".to_string(), "not a match record"),
        (
            text.replacen("game = \"arcadia\"", "game = \"chess\"", 1),
            "not a game",
        ),
    ] {
        std::fs::write(&bad, content).unwrap();
        let out = run(&db, &["replay", b]);
        assert_eq!(out.status.code(), Some(2), "{says}: {}", stderr(&out));
        assert!(stderr(&out).contains(says), "{says}: {}", stderr(&out));
        assert!(out.stdout.is_empty());
    }
}

#[test]
fn the_kept_records_of_every_game_still_replay() {
    let dir = root().join("tests/games/records");
    let mut games = Vec::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let r = MatchRecord::load(&path).unwrap();
        let report = registry::replay(&r, None, &Vec::new())
            .unwrap_or_else(|e| panic!("{}: {}", path.display(), deckwright::error_chain(&e)));
        assert!(!report.log.is_empty());
        games.push(r.game);
    }
    games.sort();
    games.dedup();
    assert_eq!(
        games,
        ["arcadia", "iconica", "iconoclasm", "pig", "ruunara"]
    );
}
