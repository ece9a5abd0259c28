//! `deckwright play ruunara`, `sim ruunara` and `duel ruunara` run as the real binary: the
//! JSON shapes, seeds and scripted dice that replay, the same counts at any thread count,
//! every example mission played by both bundled squads, and bad input (exit 2) naming file,
//! line, column and key with nothing on stdout.

use std::path::{Path, PathBuf};
use std::process::Output;

use serde_json::Value;

use super::run_cli::deckwright;

fn ex(p: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("examples/ruunara")
        .join(p)
        .display()
        .to_string()
}

struct Env {
    _dir: tempfile::TempDir,
    db: PathBuf,
}

impl Env {
    fn new() -> Env {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("c.sqlite");
        Env { _dir: dir, db }
    }
    fn run(&self, args: &[&str]) -> Output {
        deckwright(&self.db, args)
    }
    /// Runs and expects exit 0 and a JSON document on stdout.
    fn json(&self, args: &[&str]) -> Value {
        let o = self.run(args);
        assert_eq!(
            o.status.code(),
            Some(0),
            "{args:?}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        serde_json::from_slice(&o.stdout).unwrap_or_else(|e| {
            panic!(
                "{args:?}: not JSON ({e}): {}",
                String::from_utf8_lossy(&o.stdout)
            )
        })
    }
}

const ENDINGS: [&str; 8] = [
    "eliminated",
    "rescued",
    "reached",
    "survived",
    "squad_lost",
    "target_lost",
    "round_limit",
    "dice_exhausted",
];

#[test]
fn play_json_has_the_shape_rounds_and_a_self_contained_log() {
    let env = Env::new();
    let mission = ex("eliminate.mission.toml");
    let squad = ex("legal-ardann-story.squad.toml");
    let args = [
        "play", "ruunara", &mission, &squad, "--seed", "3", "--policy", "random", "--json",
    ];
    let v = env.json(&args);
    assert_eq!(v["game"], "ruunara");
    assert_eq!(v["mission"], "ghoul-warren");
    let ended = v["ended"].as_str().unwrap();
    assert!(ENDINGS.contains(&ended), "{ended}");
    let heroes_won = ["eliminated", "rescued", "reached", "survived"].contains(&ended);
    assert_eq!(v["winner"], if heroes_won { "heroes" } else { "enemies" });
    let rounds = v["rounds"].as_u64().unwrap();
    assert!((1..=12).contains(&rounds), "{rounds}");
    assert_eq!(v["turns"], v["rounds"]);
    assert!(v["dice_used"].as_u64().unwrap() > 0);
    // Every squad member in squad order, every enemy in mission order.
    let ids = |side: &str| -> Vec<String> {
        v["sides"][side]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f["id"].as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(
        ids("heroes"),
        [
            "ru-haskar-emberfist",
            "ru-yrsa-coalmantle",
            "ru-ardann-smithguard"
        ]
    );
    assert_eq!(
        ids("enemies"),
        ["ru-ghoul-gnawer", "ru-ghoul-gnawer", "ru-bogspawn-slinger"]
    );
    for f in v["sides"]["heroes"].as_array().unwrap() {
        assert!(["free", "captured", "dead"].contains(&f["status"].as_str().unwrap()));
        assert!(f["x"].is_number() && f["y"].is_number() && f["facing"].is_string());
    }
    if ended == "eliminated" {
        assert!(
            v["sides"]["enemies"]
                .as_array()
                .unwrap()
                .iter()
                .all(|f| f["status"] != "free")
        );
    }
    // The log names its figures by index: the document lists them, with the table.
    let figures = v["figures"].as_array().unwrap();
    assert_eq!(figures.len(), 6);
    assert_eq!(figures[0]["id"], "ru-haskar-emberfist");
    assert_eq!(figures[5]["side"], "enemy");
    // Each applied skill with its form and every parameter it is played with.
    assert_eq!(
        figures[5]["skills"],
        serde_json::json!([{"slot": 0, "name": "Mud Volley", "cycle": "1/F",
            "effect": "extra_attack", "dice": "2D4+", "damage": 1, "attack": "ranged"},
            {"slot": 1, "name": "Skulk", "cycle": "constant", "effect": "cover",
            "target": "self", "condition": "apart", "distance": 8.0}])
    );
    assert_eq!(v["table"]["width"], 48.0);
    assert_eq!(v["scenery"].as_array().unwrap().len(), 4);
    let log = v["log"].as_array().unwrap();
    assert!(log.len() > 5);
    for e in log {
        assert!(e["type"].is_string() && e["text"].is_string(), "{e}");
    }
    // Positions and facings after every move, the dice of every roll.
    fn of<'a>(log: &'a [Value], t: &'a str) -> impl Iterator<Item = &'a Value> + 'a {
        log.iter().filter(move |e| e["type"] == t)
    }
    assert!(of(log, "move").count() > 0, "some figure moves");
    for m in of(log, "move") {
        assert!(m["at"].is_object() || m["at"].is_array(), "{m}");
        assert!(m["facing"].is_string(), "{m}");
    }
    // Every enemy move says why, and the goal it made for.
    for m in of(log, "move").filter(|m| m["why"] != "chosen") {
        assert!(m["goal"].is_object(), "{m}");
    }
    // Every roll names its target, and an attack roll its hits: a hit or a miss.
    for r in of(log, "roll") {
        assert!(!r["dice"].as_array().unwrap().is_empty(), "{r}");
        assert!(r["target"].is_u64(), "{r}");
        if r["kind"] != "cover" {
            assert!(r["hits"].is_u64(), "{r}");
            assert!(r["result"] == "hit" || r["result"] == "miss", "{r}");
        }
        if r["kind"] == "ranged" {
            assert!(r["facing"].is_string(), "{r}");
        }
    }
    // The same seed replays the same match, byte for byte.
    assert_eq!(env.json(&args), v);
}

#[test]
fn scripted_dice_replay_and_a_short_script_stops_the_mission() {
    let env = Env::new();
    let mission = ex("eliminate.mission.toml");
    let squad = ex("legal-free-play-mix.squad.toml");
    let play = |dice: &str| {
        env.json(&[
            "play", "ruunara", &mission, &squad, "--dice", dice, "--policy", "greedy", "--json",
        ])
    };
    let short = play("6 5 4");
    if short["ended"] == "dice_exhausted" {
        assert_eq!(short["winner"], Value::Null);
        assert_eq!(short["dice_used"], 3);
        assert_eq!(
            short["log"].as_array().unwrap().last().unwrap()["type"],
            "dice_exhausted"
        );
    } else {
        assert!(short["dice_used"].as_u64().unwrap() <= 3);
    }
    // A long script plays the same match twice, and uses no more faces than it has.
    let faces: Vec<String> = (0..4000)
        .map(|i| ((i * 7 + 3) % 6 + 1).to_string())
        .collect();
    let faces = faces.join(" ");
    let a = play(&faces);
    let b = play(&faces);
    assert_eq!(a, b);
    assert!(a["dice_used"].as_u64().unwrap() <= 4000);
    // The faces of the rolls are the script's, in order.
    let rolled: Vec<u64> = a["log"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["type"] == "roll")
        .flat_map(|e| {
            e["dice"]
                .as_array()
                .unwrap()
                .iter()
                .map(|d| d.as_u64().unwrap())
        })
        .collect();
    let script: Vec<u64> = faces.split(' ').map(|f| f.parse().unwrap()).collect();
    assert!(!rolled.is_empty());
    let mut at = 0;
    for d in &rolled {
        // Each rolled face appears in the script at or after the previous one.
        let k = script[at..]
            .iter()
            .position(|f| f == d)
            .expect("a scripted face");
        at += k + 1;
    }
}

#[test]
fn play_text_ends_with_the_figures_and_the_result() {
    let env = Env::new();
    let o = env.run(&[
        "play",
        "ruunara",
        &ex("reach.mission.toml"),
        &ex("legal-ardann-story.squad.toml"),
        "--seed",
        "1",
    ]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let text = String::from_utf8(o.stdout).unwrap();
    assert!(text.contains("Haskar Emberfist"), "{text}");
    assert!(text.contains("The Fen Crossing: the heroes "), "{text}");
}

#[test]
fn every_example_mission_plays_with_both_bundled_squads() {
    let env = Env::new();
    for mission in [
        "eliminate.mission.toml",
        "rescue.mission.toml",
        "reach.mission.toml",
        "survive.mission.toml",
    ] {
        let m = ex(mission);
        let limit = match mission {
            "eliminate.mission.toml" => 12,
            "rescue.mission.toml" => 16,
            "reach.mission.toml" => 12,
            _ => 6,
        };
        for squad in [
            "legal-ardann-story.squad.toml",
            "legal-free-play-mix.squad.toml",
        ] {
            let s = ex(squad);
            for policy in ["random", "greedy"] {
                let v = env.json(&["play", "ruunara", &m, &s, "--policy", policy, "--json"]);
                let rounds = v["rounds"].as_u64().unwrap();
                assert!(rounds <= limit, "{mission} {squad}: {rounds} rounds");
                assert_ne!(v["ended"], "dice_exhausted", "{mission} {squad}");
            }
        }
    }
}

#[test]
fn sim_gives_the_win_rate_with_its_interval_and_the_same_counts_at_any_thread_count() {
    let env = Env::new();
    let mission = ex("eliminate.mission.toml");
    let squad = ex("legal-ardann-story.squad.toml");
    let sim = |threads: &str| {
        env.json(&[
            "sim",
            "ruunara",
            &mission,
            &squad,
            "--games",
            "60",
            "--seed",
            "5",
            "--ai",
            "random",
            "--threads",
            threads,
            "--json",
        ])
    };
    let one = sim("1");
    let two = sim("2");
    assert_eq!(one["game"], "ruunara");
    assert_eq!(one["games"], 60);
    for key in [
        "wins",
        "ended",
        "mean_rounds",
        "win_rate_heroes",
        "ci95_heroes",
    ] {
        assert_eq!(one[key], two[key], "{key}");
    }
    let w = &one["wins"];
    let (h, e, n) = (
        w["heroes"].as_u64().unwrap(),
        w["enemies"].as_u64().unwrap(),
        w["no_result"].as_u64().unwrap(),
    );
    assert_eq!(h + e + n, 60);
    let rate = one["win_rate_heroes"].as_f64().unwrap();
    assert!((rate - h as f64 / 60.0).abs() < 1e-12);
    let ci = one["ci95_heroes"].as_array().unwrap();
    let (lo, hi) = (ci[0].as_f64().unwrap(), ci[1].as_f64().unwrap());
    assert!(lo <= rate && rate <= hi && lo >= 0.0 && hi <= 1.0);
    let ended: u64 = one["ended"]
        .as_object()
        .unwrap()
        .values()
        .map(|c| c.as_u64().unwrap())
        .sum();
    assert_eq!(ended, 60);
    let mean = one["mean_rounds"].as_f64().unwrap();
    assert!((1.0..=12.0).contains(&mean), "{mean}");
    // One match of the run is the game `play` plays with that game's seed: another seed
    // gives other counts somewhere in a few runs.
    let other = env.json(&[
        "sim", "ruunara", &mission, &squad, "--games", "60", "--seed", "6", "--ai", "random",
        "--json",
    ]);
    assert_eq!(other["games"], 60);
}

#[test]
fn duel_gives_the_chance_of_each_ending_and_replays_by_seed() {
    let env = Env::new();
    let duel = |seed: &str| {
        env.json(&[
            "duel",
            "ruunara",
            "ru-haskar-emberfist",
            "Ghoul Gnawer",
            "ru-ghoul-gnawer",
            "--games",
            "300",
            "--seed",
            seed,
            "--json",
        ])
    };
    let v = duel("4");
    assert_eq!(v["a"], "ru-haskar-emberfist");
    assert_eq!(
        v["b"],
        serde_json::json!(["ru-ghoul-gnawer", "ru-ghoul-gnawer"])
    );
    assert_eq!(v["games"], 300);
    let endings = v["endings"].as_object().unwrap();
    let names: Vec<&String> = endings.keys().collect();
    for n in ["a_wins", "a_executed", "a_captured_executed", "round_limit"] {
        assert!(endings.contains_key(n), "{names:?}");
    }
    let count: u64 = endings.values().map(|e| e["count"].as_u64().unwrap()).sum();
    assert_eq!(count, 300);
    let chance: f64 = endings
        .values()
        .map(|e| e["chance"].as_f64().unwrap())
        .sum();
    assert!((chance - 1.0).abs() < 1e-9);
    assert!(v["mean_rounds"].as_f64().unwrap() >= 1.0);
    assert_eq!(duel("4"), v);
    // Haskar (10 hp, 4D4+) against one Gnawer (4 hp, 2D4+) wins most duels.
    let one = env.json(&[
        "duel",
        "ruunara",
        "ru-haskar-emberfist",
        "ru-ghoul-gnawer",
        "--games",
        "300",
        "--json",
    ]);
    assert!(
        one["endings"]["a_wins"]["chance"].as_f64().unwrap() > 0.5,
        "{one}"
    );
    // Text output lists the endings.
    let o = env.run(&[
        "duel",
        "ruunara",
        "ru-haskar-emberfist",
        "ru-ghoul-gnawer",
        "--games",
        "50",
    ]);
    let text = String::from_utf8(o.stdout).unwrap();
    assert!(
        text.contains("a_wins") && text.contains("mean rounds"),
        "{text}"
    );
}

/// Exit 2, nothing on stdout, and stderr saying `says`.
fn bad(env: &Env, args: &[&str], says: &str) {
    let o = env.run(args);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
    assert!(o.stdout.is_empty(), "{args:?}: nothing on stdout");
    assert!(err.contains(says), "{args:?}: `{says}` not in {err}");
}

#[test]
fn bad_missions_squads_cards_and_options_are_bad_input() {
    let env = Env::new();
    let squad = ex("legal-ardann-story.squad.toml");
    for (mission, at) in [
        ("illegal-overlap.mission.toml", ":22:1: key `x`: enemies[1]"),
        (
            "illegal-off-table.mission.toml",
            ":16:1: key `x`: enemies[0]",
        ),
        ("illegal-unknown-key.mission.toml", ":14:1: key `heigth`"),
        (
            "illegal-on-building.mission.toml",
            ":17:1: key `x`: deploy[0]",
        ),
    ] {
        let m = ex(mission);
        let at = format!("{m}{at}");
        bad(&env, &["play", "ruunara", &m, &squad, "--json"], &at);
        bad(&env, &["sim", "ruunara", &m, &squad, "--games", "5"], &at);
    }
    // A mission that breaks a rule against this squad.
    let m = ex("illegal-enemy-faction.mission.toml");
    bad(
        &env,
        &["play", "ruunara", &m, &squad],
        "mission-enemy-faction",
    );
    // An illegal squad.
    bad(
        &env,
        &[
            "play",
            "ruunara",
            &ex("eliminate.mission.toml"),
            &ex("illegal-enemy-in-squad.squad.toml"),
        ],
        "squad-playable",
    );
    // A missing file names it.
    bad(
        &env,
        &["play", "ruunara", "no-such.mission.toml", &squad],
        "no-such.mission.toml",
    );
    // Options Ruunara does not have; a policy outside the list.
    let e = ex("eliminate.mission.toml");
    bad(
        &env,
        &["play", "ruunara", &e, &squad, "--policy-b", "greedy"],
        "--policy-b",
    );
    bad(
        &env,
        &["play", "ruunara", &e, &squad, "--ruleset", "v8"],
        "--ruleset",
    );
    bad(
        &env,
        &["play", "ruunara", &e, &squad, "--policy", "clever"],
        "unknown policy",
    );
    bad(&env, &["sim", "ruunara", &e, &squad, "--games", "0"], "0");
    // Duels: an unknown card, no B, no games.
    bad(
        &env,
        &["duel", "ruunara", "ru-haskar-emberfist", "ru-no-such"],
        "ru-no-such",
    );
    bad(
        &env,
        &["duel", "ruunara", "ru-haskar-emberfist"],
        "required",
    );
    bad(
        &env,
        &[
            "duel",
            "ruunara",
            "ru-haskar-emberfist",
            "ru-ghoul-gnawer",
            "--games",
            "0",
        ],
        "0",
    );
}

#[test]
fn validate_tells_a_mission_by_its_kind_whatever_its_name() {
    let env = Env::new();
    let dir = tempfile::tempdir().unwrap();
    let plain = dir.path().join("shrine.toml");
    std::fs::copy(ex("rescue.mission.toml"), &plain).unwrap();
    let plain = plain.display().to_string();
    let v = env.json(&[
        "validate",
        &plain,
        &ex("legal-free-play-mix.squad.toml"),
        "--json",
    ]);
    assert_eq!(v[0]["kind"], "mission");
    assert_eq!(v[0]["legal"], true);
    // A typo in it is bad input naming the file, line, column and key.
    let text = std::fs::read_to_string(&plain).unwrap();
    std::fs::write(
        &plain,
        text.replace("round_limit = 16", "round_limmit = 16"),
    )
    .unwrap();
    bad(
        &env,
        &["validate", &plain],
        &format!("{plain}:10:1: key `round_limmit`"),
    );
}

/// The placements of a `play --json` document: figure, point, facing.
fn placements(v: &Value) -> Vec<(u64, f64, f64, String)> {
    v["log"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["type"] == "placed")
        .map(|e| {
            (
                e["fig"].as_u64().unwrap(),
                e["at"]["x"].as_f64().unwrap(),
                e["at"]["y"].as_f64().unwrap(),
                e["facing"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

#[test]
fn a_zone_mission_is_deployed_by_each_policy_and_plays_with_scripted_dice_and_sim() {
    let env = Env::new();
    let mission = ex("rescue.mission.toml");
    let squad = ex("legal-free-play-mix.squad.toml");
    let mut seen = Vec::new();
    for policy in ["first", "random", "greedy", "mcts"] {
        let v = env.json(&[
            "play", "ruunara", &mission, &squad, "--seed", "5", "--policy", policy, "--json",
        ]);
        let log = v["log"].as_array().unwrap();
        // Each member placed in squad order, then the whole deployment, then round 1.
        let kinds: Vec<&str> = log[..5]
            .iter()
            .map(|e| e["type"].as_str().unwrap())
            .collect();
        assert_eq!(
            kinds,
            ["placed", "placed", "placed", "deployed", "round"],
            "{policy}"
        );
        let placed = placements(&v);
        let figures = v["figures"].as_array().unwrap();
        let deployed = log[3]["figures"].as_array().unwrap();
        for (k, (fig, x, y, facing)) in placed.iter().enumerate() {
            assert_eq!(*fig, k as u64);
            // Wholly in the figure's zone, as the document gives it (x 1-7, y 12-18).
            let z = &figures[k]["deploy_zone"];
            assert_eq!(z["w"], 6.0, "{z}");
            let (zx, zy) = (z["x"].as_f64().unwrap(), z["y"].as_f64().unwrap());
            assert!(
                *x >= zx + 0.68 - 1e-6 && *x <= zx + 6.0 - 0.68 + 1e-6,
                "{policy} {x}"
            );
            assert!(
                *y >= zy + 0.68 - 1e-6 && *y <= zy + 6.0 - 0.68 + 1e-6,
                "{policy} {y}"
            );
            for (_, x2, y2, _) in &placed[..k] {
                assert!(
                    (x - x2).hypot(y - y2) >= 1.36 - 1e-4,
                    "{policy}: bases overlap"
                );
            }
            // The deployment lists each member where it was placed.
            assert_eq!(deployed[k]["at"]["x"].as_f64().unwrap(), *x);
            assert_eq!(deployed[k]["facing"].as_str().unwrap(), facing);
        }
        assert_eq!(
            figures[3]["deploy_zone"],
            Value::Null,
            "an enemy at its post"
        );
        seen.push(placed);
    }
    // The policies decide: greedy does not place the squad as `first` does.
    assert_ne!(seen[0], seen[2]);
    // Scripted dice play the zone mission the same way twice.
    let faces = (0..3000)
        .map(|i| ((i * 5 + 1) % 6 + 1).to_string())
        .collect::<Vec<_>>()
        .join(" ");
    let play = || {
        env.json(&[
            "play", "ruunara", &mission, &squad, "--dice", &faces, "--policy", "greedy", "--json",
        ])
    };
    let a = play();
    assert_eq!(placements(&a).len(), 3);
    assert_eq!(a, play());
    // And sim plays it many times.
    let s = env.json(&[
        "sim", "ruunara", &mission, &squad, "--games", "40", "--seed", "2", "--json",
    ]);
    assert_eq!(s["games"], 40, "{s}");
}
