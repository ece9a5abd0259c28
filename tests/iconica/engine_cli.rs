//! `deckwright play iconica` and `sim iconica` from the outside: JSON shape and values,
//! exit codes, byte-for-byte replays, thread-independent sims.

use std::path::{Path, PathBuf};
use std::process::Output;

use crate::cli::{closed_pipe, deckwright};
use crate::support::c;
use deckwright::cards::Card;
use deckwright::catalogue::Catalogue;
use serde_json::Value;

struct Env {
    dir: tempfile::TempDir,
}

impl Env {
    fn new() -> Env {
        let dir = tempfile::tempdir().unwrap();
        let mut cat = Catalogue::open(&dir.path().join("cat.sqlite")).unwrap();
        let mut cards = Vec::new();
        for id in ["a1", "a2", "a3", "b1", "b2", "b3"] {
            let mut ch = c(id);
            if id == "b1" {
                ch = ch.health("parry = [80]");
            }
            if id == "a1" {
                ch = ch.act(6, r#"[ { damage = 100, target = "foe" }, { inflict = "poison", target = "all_foes" } ]"#);
            }
            let mut built = ch.build();
            built.id = format!("ico-t-{id}");
            cards.push(Card::Iconica(built));
        }
        cat.upsert(&cards).unwrap();
        let env = Env { dir };
        env.party("a", &["ico-t-a1", "ico-t-a2", "ico-t-a3"]);
        env.party("b", &["ico-t-b1", "ico-t-b2", "ico-t-b3"]);
        env
    }
    fn party(&self, name: &str, members: &[&str]) -> PathBuf {
        let p = self.dir.path().join(format!("{name}.party.toml"));
        let m: Vec<String> = members.iter().map(|m| format!("\"{m}\"")).collect();
        std::fs::write(
            &p,
            format!(
                "game = \"iconica\"\nname = \"{name}\"\nmembers = [{}]\n",
                m.join(", ")
            ),
        )
        .unwrap();
        p
    }
    fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(format!("{name}.party.toml"))
    }
    fn db(&self) -> PathBuf {
        self.dir.path().join("cat.sqlite")
    }
    fn run(&self, args: &[&str]) -> Output {
        deckwright(&self.db(), args)
    }
    fn play(&self, extra: &[&str]) -> Output {
        let a = self.path("a");
        let b = self.path("b");
        let mut args = vec!["play", "iconica", p(&a), p(&b)];
        args.extend_from_slice(extra);
        self.run(&args)
    }
}

fn p(x: &Path) -> &str {
    x.to_str().unwrap()
}

fn json(o: &Output) -> Value {
    assert!(
        o.status.success(),
        "stderr: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    serde_json::from_slice(&o.stdout).expect("stdout is one JSON document")
}

#[test]
fn scripted_play_json_matches_the_spec_shape_and_values() {
    let env = Env::new();
    let v = json(&env.play(&["--dice", "1 2 1 2", "--policy", "first", "--json"]));
    assert_eq!(v["game"], "iconica");
    assert_eq!(v["winner"], Value::Null);
    assert_eq!(v["ended"], "dice_exhausted");
    assert_eq!(v["turns"], 3);
    assert_eq!(v["dice_used"], 4);
    let a = v["sides"]["a"].as_array().unwrap();
    let b = v["sides"]["b"].as_array().unwrap();
    let ids: Vec<&str> = a
        .iter()
        .chain(b)
        .map(|m| m["id"].as_str().unwrap())
        .collect();
    assert_eq!(
        ids,
        [
            "ico-t-a1", "ico-t-a2", "ico-t-a3", "ico-t-b1", "ico-t-b2", "ico-t-b3"
        ]
    );
    assert_eq!(a[0]["health"], 90);
    assert_eq!(b[0]["health"], 90);
    assert_eq!(a[0]["skulled"], false);
    assert_eq!(a[0]["statuses"], serde_json::json!([]));
    for e in v["log"].as_array().unwrap() {
        assert!(e["type"].is_string() && e["text"].is_string(), "{e}");
    }
}

#[test]
fn skulled_members_show_zero_health_and_no_statuses() {
    let env = Env::new();
    // a1 action 6: 100 damage to b1 then Poison on all foes; b's turn: b2 poison 1 (ends), b3 poison 2.
    let v = json(&env.play(&["--dice", "6 1 1 2", "--policy", "first", "--json"]));
    let b = v["sides"]["b"].as_array().unwrap();
    assert_eq!(
        b[0],
        serde_json::json!({"id": "ico-t-b1", "health": 0, "skulled": true, "statuses": []})
    );
    assert_eq!(b[1]["statuses"], serde_json::json!([]));
    assert_eq!(b[2]["statuses"], serde_json::json!(["poison"]));
    assert_eq!(b[2]["health"], 90);
    assert_eq!(v["dice_used"], 4);
}

#[test]
fn the_same_seed_replays_byte_for_byte() {
    let env = Env::new();
    let one = env.play(&["--seed", "7", "--policy", "random", "--json"]);
    let two = env.play(&[
        "--seed",
        "7",
        "--policy-a",
        "random",
        "--policy-b",
        "random",
        "--json",
    ]);
    assert!(one.status.success());
    assert_eq!(one.stdout, two.stdout);
    let v = json(&one);
    assert_eq!(v["ended"], "victory");
    let text = env.play(&["--seed", "7", "--policy", "greedy"]);
    assert!(String::from_utf8_lossy(&text.stdout).contains("Action Roll"));
}

#[test]
fn bad_input_exits_2_with_nothing_on_stdout() {
    let env = Env::new();
    for extra in [vec!["--dice", "1 7"], vec!["--policy", "clever"]] {
        let o = env.play(&extra);
        assert_eq!(o.status.code(), Some(2), "{extra:?}");
        assert!(o.stdout.is_empty());
        // The message names the option the user wrote.
        assert!(
            String::from_utf8_lossy(&o.stderr).contains(&format!("error: {}", extra[0])),
            "{extra:?}"
        );
    }
    // A value outside an option's list is clap's usage error, listing the possible values.
    for (extra, possible) in [
        (["--ruleset", "v3"], "[possible values: v2, v8]"),
        (
            ["--breaks", "sideways"],
            "[possible values: standard, advanced]",
        ),
        (
            ["--house", "no-dice"],
            "no-reactions, no-strengths, no-final-acts, no-action-breaks",
        ),
    ] {
        let o = env.play(&extra);
        assert_eq!(o.status.code(), Some(2), "{extra:?}");
        assert!(o.stdout.is_empty());
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(
            err.contains(&format!(
                "error: invalid value '{}' for '{}",
                extra[1], extra[0]
            )),
            "{err}"
        );
        assert!(err.contains(possible), "{err}");
    }
    let o = env.play(&["--policy-b", "clever"]);
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("error: --policy-b: unknown policy `clever`")
    );
    let dup = env.party("dup", &["ico-t-a1", "ico-t-a1", "ico-t-a2"]);
    let o = env.run(&["play", "iconica", p(&dup), p(&env.path("b")), "--json"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("duplicate"));
    assert!(o.stdout.is_empty());
}

#[test]
fn sim_json_is_the_same_at_one_and_two_threads() {
    let env = Env::new();
    let run = |t: &str| {
        let o = env.run(&[
            "sim",
            "iconica",
            p(&env.path("a")),
            p(&env.path("b")),
            "--games",
            "500",
            "--seed",
            "3",
            "--ai",
            "random",
            "--threads",
            t,
            "--json",
        ]);
        json(&o)
    };
    let one = run("1");
    let two = run("2");
    for k in [
        "games",
        "seed",
        "wins",
        "win_rate_a",
        "ci95_a",
        "mean_turns",
        "ended",
    ] {
        assert_eq!(one[k], two[k], "{k}");
    }
    let w = &one["wins"];
    assert_eq!(
        w["a"].as_u64().unwrap() + w["b"].as_u64().unwrap() + w["draw"].as_u64().unwrap(),
        500
    );
    assert!(one["games_per_sec"].as_f64().unwrap() > 0.0);
    let ci = one["ci95_a"].as_array().unwrap();
    let rate = one["win_rate_a"].as_f64().unwrap();
    assert!(ci[0].as_f64().unwrap() <= rate && rate <= ci[1].as_f64().unwrap());
}

#[test]
fn sim_field_ranks_every_character_of_the_pool() {
    let env = Env::new();
    let o = env.run(&[
        "sim",
        "iconica",
        "--field",
        p(&env.path("b")),
        "--pool",
        "ico-t-a1,ico-t-a2,ico-t-a3,ico-t-b2",
        "--games",
        "40",
        "--ai",
        "random",
        "--json",
    ]);
    let v = json(&o);
    assert_eq!(
        v["parties"].as_array().unwrap().len(),
        4,
        "C(4,3) legal parties"
    );
    assert_eq!(v["characters"].as_array().unwrap().len(), 4);
    assert_eq!(v["characters"][0]["parties"], 3);
}

#[test]
fn house_rules_are_a_comma_separated_list() {
    let env = Env::new();
    let o = env.play(&[
        "--dice",
        "1 2 1 2",
        "--house",
        "no-reactions,no-strengths",
        "--json",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let o = env.play(&[
        "--dice",
        "1 2 1 2",
        "--house",
        "no-reactions,sometimes",
        "--json",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("invalid value 'sometimes' for '--house"));
}

#[test]
fn ruleset_is_an_iconica_option_only() {
    let env = Env::new();
    let arcadia = root().join("examples/arcadia/legal-starter.setup.toml");
    for args in [
        vec!["play", "arcadia", p(&arcadia), "--ruleset", "v8"],
        vec!["sim", "arcadia", p(&arcadia), "--breaks", "advanced"],
        vec!["play", "iconoclasm", "--players", "2", "--ruleset", "v2"],
        vec![
            "sim",
            "iconoclasm",
            "--players",
            "2",
            "--house",
            "no-reactions",
        ],
        vec!["play", "iconoclasm", "--players", "2", "--dice", "1 2"],
    ] {
        let o = env.run(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(o.stdout.is_empty(), "{args:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(
            err.contains(&format!(
                "error: unexpected argument '{}' found",
                args[args.len() - 2]
            )),
            "{err}"
        );
    }
    // Iconoclasm's options are not Iconica's either.
    let o = env.play(&["--players", "2"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("unexpected argument '--players'"));
}

#[test]
fn help_lists_each_games_own_options() {
    let env = Env::new();
    let help = |game: &str| {
        let o = env.run(&["play", game, "--help"]);
        assert!(o.status.success());
        String::from_utf8(o.stdout).unwrap()
    };
    let (iconica, arcadia, iconoclasm) = (help("iconica"), help("arcadia"), help("iconoclasm"));
    for option in [
        "--ruleset",
        "--breaks",
        "--house",
        "--turn-limit",
        "--dice",
        "--policy-a",
        "--json",
    ] {
        assert!(iconica.contains(option), "{option}");
    }
    assert!(iconica.contains("[possible values: v2, v8]"));
    assert!(
        arcadia.contains("--turn-limit")
            && arcadia.contains("--dice")
            && !arcadia.contains("--ruleset")
    );
    assert!(iconoclasm.contains("--players") && iconoclasm.contains("--goal"));
    assert!(!iconoclasm.contains("--dice") && !iconoclasm.contains("--turn-limit"));
}

#[test]
fn ruunara_play_and_sim_take_only_their_own_options() {
    let env = Env::new();
    for cmd in ["play", "sim"] {
        let o = env.run(&[
            cmd,
            "ruunara",
            "m.mission.toml",
            "s.squad.toml",
            "--ruleset",
            "v8",
        ]);
        assert_eq!(o.status.code(), Some(2), "{cmd}");
        assert!(String::from_utf8_lossy(&o.stderr).contains("--ruleset"));
    }
}

#[test]
fn games_beyond_the_limit_are_refused_naming_it() {
    let env = Env::new();
    for games in ["0", "100000001"] {
        let o = env.run(&[
            "sim",
            "iconica",
            p(&env.path("a")),
            p(&env.path("b")),
            "--games",
            games,
        ]);
        assert_eq!(o.status.code(), Some(2), "{games}");
        assert!(o.stdout.is_empty());
        assert!(
            String::from_utf8_lossy(&o.stderr).contains("1..=100000000"),
            "{games}"
        );
    }
}

#[test]
fn threads_beyond_the_machine_are_capped() {
    let env = Env::new();
    let o = env.run(&[
        "sim",
        "iconica",
        p(&env.path("a")),
        p(&env.path("b")),
        "--games",
        "200",
        "--seed",
        "3",
        "--ai",
        "random",
        "--threads",
        "100000",
        "--json",
    ]);
    // No 100,000 threads started: the run says it lowered them (not a clock: a busy machine
    // may take any time).
    let capped = json(&o);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("note: --threads 100000: this machine runs at most"),
        "{err}"
    );
    let one = json(&env.run(&[
        "sim",
        "iconica",
        p(&env.path("a")),
        p(&env.path("b")),
        "--games",
        "200",
        "--seed",
        "3",
        "--ai",
        "random",
        "--threads",
        "1",
        "--json",
    ]));
    assert_eq!(capped["wins"], one["wins"]);
    let o = env.run(&[
        "sim",
        "iconica",
        p(&env.path("a")),
        p(&env.path("b")),
        "--threads",
        "0",
    ]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn dice_scripts_beyond_the_limit_are_refused_naming_it() {
    let env = Env::new();
    let long = "1 ".repeat(10_001);
    let o = env.play(&["--dice", &long]);
    assert_eq!(o.status.code(), Some(2));
    assert!(o.stdout.is_empty());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("--dice: a dice script holds at most 10000 faces"),
        "{err}"
    );
    assert!(err.len() < 500, "the message does not echo the script");
    assert!(
        env.play(&["--dice", &"1 ".repeat(10_000), "--json"])
            .status
            .success()
    );
    let o = env.play(&["--policy", "mcts:5000000"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("1000000 playouts"));
}

#[test]
fn sim_into_closed_pipe_does_not_panic() {
    let env = Env::new();
    let (a, b) = (env.path("a"), env.path("b"));
    for extra in [&[][..], &["--json"]] {
        let mut args = vec!["sim", "iconica", p(&a), p(&b), "--games", "300"];
        args.extend_from_slice(extra);
        closed_pipe::assert_quiet(&env.db(), &args, 0);
    }
}

#[test]
fn play_into_closed_pipe_does_not_panic() {
    let env = Env::new();
    let (a, b) = (env.path("a"), env.path("b"));
    for extra in [&[][..], &["--json"]] {
        let mut args = vec![
            "play",
            "iconica",
            p(&a),
            p(&b),
            "--seed",
            "4",
            "--policy",
            "greedy",
        ];
        args.extend_from_slice(extra);
        closed_pipe::assert_quiet(&env.db(), &args, 0);
    }
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn a_field_beyond_the_games_limit_is_refused_before_playing() {
    let env = Env::new();
    let o = env.run(&[
        "sim",
        "iconica",
        "--field",
        p(&env.path("b")),
        "--pool",
        "ico-t-a1,ico-t-a2,ico-t-a3,ico-t-b2",
        "--games",
        "30000000",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(o.stdout.is_empty());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("4 parties x 30000000 games is more than the 100000000"),
        "{err}"
    );
    // --pool belongs to --field.
    let o = env.run(&[
        "sim",
        "iconica",
        p(&env.path("a")),
        p(&env.path("b")),
        "--pool",
        "ico-t-a1",
    ]);
    assert_eq!(o.status.code(), Some(2));
}

/// The log names the sides as the app does, A and B, in its sentences (`Side B wins`, not
/// `Side b wins`); the JSON keeps `a` and `b` (issue 27, item 5).
#[test]
fn the_text_log_names_the_sides_a_and_b_in_capitals() {
    let env = Env::new();
    for seed in ["1", "2", "3"] {
        let o = env.play(&["--seed", seed, "--policy", "random"]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let text = String::from_utf8_lossy(&o.stdout);
        assert!(
            text.contains("Turn 1: side A to play") || text.contains("Turn 1: side B to play"),
            "{text}"
        );
        for lower in [
            "Side a wins",
            "Side b wins",
            "side a to play",
            "side b to play",
        ] {
            assert!(!text.contains(lower), "{lower}: {text}");
        }
        assert!(
            text.contains("Side A wins (")
                || text.contains("Side B wins (")
                || text.contains("Draw (")
                || text.contains("The match stops ("),
            "{text}"
        );
    }
}
