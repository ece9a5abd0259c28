//! Balance (`spec/balance.md`): an overpowered character ranks first and its confirmed fix
//! lands it in the band by an independent run; ablating an action that does nothing measures
//! zero; paired intervals are narrower than unpaired ones on the same games; and
//! `deckwright balance iconica` from the outside (exit codes, JSON, thread-independence).

use std::path::{Path, PathBuf};
use std::process::Output;

use crate::cli::deckwright;
use deckwright::balance::iconica::{Balance, FAIR, NEVER, Settings, health_by};
use deckwright::balance::{Delta, Runner, Stopping, unpaired_half_width};
use deckwright::cards::Card;
use deckwright::games::ai::Policy;
use deckwright::games::iconica::bundled_characters;
use deckwright::games::iconica::engine::Rules;
use deckwright::games::iconica::model::Character;
use serde_json::Value;

fn settings(seed: u64) -> Settings {
    Settings {
        rules: Rules::default(),
        ai: Policy::Random,
        seed,
    }
}

fn bundled(id: &str) -> Character {
    bundled_characters()
        .into_iter()
        .find(|c| c.id == id)
        .unwrap()
}

/// Gorm Ashcairn (Independent, common: in many parties) with 60 more Start health.
fn colossus() -> Character {
    let mut c = bundled("ico-gorm-ashcairn");
    c.id = "ico-test-colossus".into();
    c.name = "Test Colossus".into();
    c.health.start += 60;
    c
}

#[test]
fn an_overpowered_character_ranks_first_and_its_suggestion_lands_it_in_the_band() {
    let pool = bundled_characters();
    let op = colossus();
    let runner = Runner::new(None, Stopping::checked(0.03, 20_000).unwrap(), &NEVER).unwrap();
    let mut b = Balance::new(&pool, &op, None, settings(5), &runner).unwrap();
    let rate = b.rate().unwrap();
    assert!(rate.ci95.0 > FAIR.1, "{rate:?}");
    let rank = b.rank(None).unwrap();
    assert_eq!((rank.position, rank.of), (1, pool.len() + 1), "{rank:?}");
    assert_eq!(rank.table[0].0, op.id);
    let fixes = b.suggest(&rate).unwrap();
    assert!(!fixes.is_empty(), "no suggestion for {rate:?}");
    for s in &fixes {
        let r = s.measured.other.win_rate;
        assert!((FAIR.0..=FAIR.1).contains(&r), "{}: {r}", s.change);
        assert!(
            s.diff.lines().all(|l| l.starts_with(['+', '-'])),
            "{}",
            s.diff
        );
    }
    // An independent run (another seed, so other games) of the first fix.
    let fixed = &fixes[0].card;
    assert!(fixed.health.start <= op.health.start);
    let mut check = Balance::new(&pool, fixed, None, settings(991), &runner).unwrap();
    let r = check.rate().unwrap();
    assert!(
        r.ci95.0 <= FAIR.1 && r.ci95.1 >= FAIR.0 && (0.42..=0.58).contains(&r.win_rate),
        "{}: independently {r:?}",
        fixes[0].change
    );
}

#[test]
fn ablating_an_action_that_does_nothing_measures_zero_and_a_real_one_does_not() {
    let mut card = bundled("ico-kethra-voss");
    let five = card.actions.iter().position(|a| a.roll.covers(5)).unwrap();
    card.actions[five].effects.clear();
    card.actions[five].text = "Nothing happens.".into();
    let pool = bundled_characters();
    let runner = Runner::new(None, Stopping::checked(0.03, 20_000).unwrap(), &NEVER).unwrap();
    let mut b = Balance::new(&pool, &card, None, settings(3), &runner).unwrap();
    let impact = b.impact().unwrap();
    let part = |p: &str| {
        impact
            .iter()
            .find(|i| i.part.starts_with(p))
            .unwrap_or_else(|| panic!("no part {p} in {impact:?}"))
    };
    let none = &part("action 5:").delta;
    assert!(none.ci95.0 <= 0.0 && 0.0 <= none.ci95.1, "{none:?}");
    assert!(none.delta.abs() <= none.half_width(), "{none:?}");
    // Pike Thrust (rolls 3 and 4: a third of the card's damage) carries the card.
    let pike = &part("action 3/4:").delta;
    assert!(pike.ci95.1 < 0.0, "{pike:?}");
    // Five actions (one on two rolls), the strengths, the reaction and nullifier tiles.
    assert_eq!(impact.len(), 5 + card.strengths.len() + 2, "{impact:?}");
}

#[test]
fn paired_intervals_are_narrower_than_unpaired_ones_on_the_same_games() {
    let card = bundled("ico-kethra-voss");
    let (_, weaker) = health_by(&card, 1, true).unwrap();
    let pool = bundled_characters();
    let s = settings(11);
    let runner = Runner::new(None, Stopping::checked(0.01, 4_000).unwrap(), &NEVER).unwrap();
    let mut b = Balance::new(&pool, &card, None, s, &runner).unwrap();
    let d = b.paired(&weaker).unwrap();
    let n = d.games;
    let base = b.scores()[..n as usize].to_vec();
    let weaker = std::sync::Arc::new(weaker);
    let other = runner
        .scores(0, n, &|i| b.field.play(&weaker, &s, i))
        .unwrap();
    assert_eq!(Delta::of(&base, &other, d.stopped), d);
    let unpaired = unpaired_half_width(&base, &other);
    eprintln!(
        "Start -10 on {}: {n} games, delta {:+.4}, paired half-width {:.4}, unpaired {:.4}",
        card.name,
        d.delta,
        d.half_width(),
        unpaired
    );
    assert!(d.half_width() * 2.0 < unpaired, "{d:?} vs {unpaired}");
}

/// A catalogue of the bundled Iconica characters in a temporary folder.
struct Env {
    dir: tempfile::TempDir,
}

impl Env {
    fn new() -> Env {
        let dir = tempfile::tempdir().unwrap();
        let env = Env { dir };
        let cards = Path::new(env!("CARGO_MANIFEST_DIR")).join("cards/iconica");
        let out = env.run(&["import", cards.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(0), "{out:?}");
        env
    }
    fn db(&self) -> PathBuf {
        self.dir.path().join("cat.sqlite")
    }
    fn file(&self, name: &str, text: &str) -> String {
        let p = self.dir.path().join(name);
        std::fs::write(&p, text).unwrap();
        p.to_str().unwrap().to_string()
    }
    fn run(&self, args: &[&str]) -> Output {
        deckwright(&self.db(), args)
    }
    fn json(&self, args: &[&str]) -> (Value, Vec<u8>) {
        let out = self.run(args);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        (serde_json::from_slice(&out.stdout).unwrap(), out.stdout)
    }
}

fn f(v: &Value) -> f64 {
    v.as_f64().unwrap()
}

#[test]
fn cli_json_has_the_spec_shape_and_the_same_report_at_one_and_two_threads() {
    let env = Env::new();
    let args = [
        "balance",
        "iconica",
        "ico-kethra-voss",
        "--ai",
        "random",
        "--precision",
        "0.05",
        "--json",
        "--threads",
    ];
    let (doc, one) = env.json(&[&args[..], &["1"]].concat());
    let (_, two) = env.json(&[&args[..], &["2"]].concat());
    assert_eq!(one, two, "the report depends on the thread count");
    assert_eq!(doc["game"], "iconica");
    assert_eq!(doc["card"], "ico-kethra-voss");
    assert_eq!(doc["ai"], "random");
    assert_eq!(doc["draws"], "half a win");
    assert_eq!(doc["stopped"], "precision");
    let (rate, ci) = (f(&doc["win_rate"]), &doc["ci95"]);
    assert!(f(&ci[0]) <= rate && rate <= f(&ci[1]) && f(&ci[1]) - f(&ci[0]) <= 0.1);
    assert!(doc["games"].as_u64().unwrap() >= 500);
    assert_eq!(doc["rank"]["of"], 16);
    let pos = doc["rank"]["position"].as_u64().unwrap();
    assert!((1..=16).contains(&pos));
    let matchups = doc["matchups"].as_array().unwrap();
    assert_eq!(matchups.len(), 15, "every other character is met");
    let met: u64 = matchups.iter().map(|m| m["games"].as_u64().unwrap()).sum();
    assert_eq!(met, 3 * doc["games"].as_u64().unwrap());
    let impact = doc["impact"].as_array().unwrap();
    assert!(
        impact
            .iter()
            .any(|i| i["part"] == "action 3/4: Pike Thrust")
    );
    for i in impact {
        let (d, ci) = (f(&i["delta"]), &i["ci95"]);
        assert!(f(&ci[0]) <= d && d <= f(&ci[1]), "{i}");
    }
    assert_eq!(doc["suggestions"], Value::Array(vec![]));
    // Decided only when the interval is wholly inside or outside the band.
    let inside = f(&ci[0]) >= FAIR.0 && f(&ci[1]) <= FAIR.1;
    let outside = f(&ci[0]) > FAIR.1 || f(&ci[1]) < FAIR.0;
    assert_eq!(doc["decided"], Value::Bool(inside || outside), "{doc}");
    // The rank's interval holds its position.
    let iv = &doc["rank"]["interval"];
    let (lo, hi) = (iv[0].as_u64().unwrap(), iv[1].as_u64().unwrap());
    assert!(lo <= pos && pos <= hi && hi <= 16, "{iv}");
}

#[test]
fn cli_reports_the_verdict_under_several_policies_side_by_side_and_flags_what_changes() {
    let env = Env::new();
    let text = Card::Iconica(colossus()).to_toml();
    let path = env.file("colossus.toml", &text);
    let (doc, _) = env.json(&[
        "balance",
        "iconica",
        &path,
        "--ai",
        "random,first",
        "--precision",
        "0.05",
        "--no-impact",
        "--json",
    ]);
    let policies = doc["policies"].as_array().unwrap();
    let names: Vec<&str> = policies.iter().map(|p| p["ai"].as_str().unwrap()).collect();
    assert_eq!(names, ["random", "first"]);
    for p in policies {
        let (r, ci) = (f(&p["win_rate"]), &p["ci95"]);
        assert!(f(&ci[0]) <= r && r <= f(&ci[1]), "{p}");
        assert!(p["verdict"].is_string() && p["decided"].is_boolean(), "{p}");
    }
    // A flag names both policies when the verdicts differ.
    let verdicts: Vec<&str> = policies
        .iter()
        .filter(|p| p["decided"] == true)
        .map(|p| p["verdict"].as_str().unwrap())
        .collect();
    let differ = verdicts.windows(2).any(|w| w[0] != w[1]);
    let flags = doc["flags"].as_array().unwrap();
    assert_eq!(
        flags
            .iter()
            .any(|f| f.as_str().unwrap().contains("verdict changes")),
        differ,
        "{doc}"
    );
    // Several policies are Iconica's for now; the others say so.
    let out = env.run(&["balance", "iconoclasm", "--ai", "random,greedy"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("takes one policy"));
}

#[test]
fn cli_sprt_decides_an_overpowered_card_too_strong_and_says_its_figures() {
    let env = Env::new();
    let text = Card::Iconica(colossus()).to_toml();
    let path = env.file("colossus.toml", &text);
    let args = [
        "balance",
        "iconica",
        &path,
        "--ai",
        "random",
        "--sprt",
        "--json",
        "--threads",
    ];
    let (doc, one) = env.json(&[&args[..], &["1"]].concat());
    let (_, two) = env.json(&[&args[..], &["2"]].concat());
    assert_eq!(one, two, "the test depends on the thread count");
    assert_eq!(doc["test"], "sprt");
    assert_eq!(doc["verdict"], "too_strong", "{doc}");
    assert_eq!(doc["decided"], true);
    let pairs = doc["pairs"].as_u64().unwrap();
    assert_eq!(doc["games"].as_u64().unwrap(), 2 * pairs);
    assert!(pairs < 50_000, "stops once decided: {pairs}");
    assert!(f(&doc["llr"]["above"]) >= f(&doc["bounds"][1]), "{doc}");
    assert_eq!(doc["alpha"], 0.05);
    // The text says the same, and a run capped before it decides says so.
    let out = env.run(&[
        "balance",
        "iconica",
        "ico-kethra-voss",
        "--ai",
        "random",
        "--sprt",
        "--max-games",
        "2",
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0));
    assert!(text.contains("not decided"), "{text}");
    assert!(text.contains("log-likelihood ratios"), "{text}");
    // --margin only with --sprt, and a margin the band cannot take is refused.
    let out = env.run(&["balance", "iconica", "ico-kethra-voss", "--margin", "0.1"]);
    assert_eq!(out.status.code(), Some(2));
    let out = env.run(&[
        "balance",
        "iconica",
        "ico-kethra-voss",
        "--sprt",
        "--margin",
        "0.6",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--margin"));
}

#[test]
fn cli_stops_at_max_games_and_says_so_and_takes_a_card_file_not_imported() {
    let env = Env::new();
    let text = Card::Iconica(colossus()).to_toml();
    let path = env.file("colossus.toml", &text);
    let (doc, _) = env.json(&[
        "balance",
        "iconica",
        &path,
        "--ai",
        "random",
        "--precision",
        "0.001",
        "--max-games",
        "300",
        "--no-rank",
        "--no-impact",
        "--json",
    ]);
    assert_eq!(doc["card"], "ico-test-colossus");
    assert_eq!(doc["stopped"], "max_games");
    assert_eq!(doc["games"], 300);
    assert!(f(&doc["win_rate"]) > 0.55, "{doc}");
    assert_eq!(doc["rank"], Value::Null);
}

#[test]
fn cli_measures_against_given_parties() {
    let env = Env::new();
    let party = env.file(
        "wardens.party.toml",
        "game = \"iconica\"\nmembers = [\"ico-anwen-halloway\", \"ico-ivo-quillon\", \"ico-sessaly-renn\"]\n",
    );
    let (doc, _) = env.json(&[
        "balance",
        "iconica",
        "ico-gorm-ashcairn",
        "--field",
        &party,
        "--ai",
        "random",
        "--precision",
        "0.05",
        "--no-rank",
        "--no-impact",
        "--json",
    ]);
    assert_eq!(doc["field"]["given"], true);
    assert_eq!(doc["field"]["opposing_parties"], 1);
    let m = doc["matchups"].as_array().unwrap();
    assert_eq!(m.len(), 1);
    assert_eq!(
        m[0]["name"],
        "party 1: Anwen Halloway, Ivo Quillon, Sessaly Renn"
    );
    assert_eq!(m[0]["games"], doc["games"]);
}

#[test]
fn cli_bad_input_is_a_clear_error_with_exit_2() {
    let env = Env::new();
    let illegal = env.file(
        "mixed.party.toml",
        "game = \"iconica\"\nmembers = [\"ico-kethra-voss\", \"ico-anwen-halloway\", \"ico-gorm-ashcairn\"]\n",
    );
    for (args, says) in [
        (
            vec!["balance", "iconica", "ico-nobody"],
            "no card `ico-nobody`",
        ),
        (
            vec!["balance", "iconica", "ico-kethra-voss", "--precision", "0"],
            "precision must be between 0 and 0.5",
        ),
        (
            vec!["balance", "iconica", "ico-kethra-voss", "--field", &illegal],
            "illegal party: faction-mix",
        ),
    ] {
        let out = env.run(&args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
        assert!(out.stdout.is_empty());
    }
}

#[test]
fn cli_shards_merge_to_the_single_run_byte_for_byte() {
    let env = Env::new();
    let run = [
        "balance",
        "iconica",
        "ico-kethra-voss",
        "--ai",
        "random",
        "--precision",
        "0.05",
        "--max-games",
        "1200",
        "--no-rank",
        "--no-impact",
    ];
    let single = env.run(&run);
    assert_eq!(single.status.code(), Some(0), "{single:?}");
    let single_json = env.run(&[&run[..], &["--json"]].concat());
    // Three shard processes side by side, one of them with its index from GNU parallel.
    let tally = |k: u64| env.dir.path().join(format!("b{k}.json"));
    let mut children = Vec::new();
    for k in 1..=3u64 {
        let mut c = std::process::Command::new(env!("CARGO_BIN_EXE_deckwright"));
        c.arg("--db")
            .arg(env.db())
            .args(run)
            .arg("--out")
            .arg(tally(k));
        if k == 3 {
            c.args(["--shard", "auto/3"]).env("PARALLEL_SEQ", "3");
        } else {
            c.args(["--shard", &format!("{k}/3")]);
        }
        children.push(c.output_async());
    }
    for c in children {
        let out = c.wait_with_output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{out:?}");
    }
    let names: Vec<String> = (1..=3)
        .map(|k| tally(k).to_str().unwrap().to_string())
        .collect();
    let mut merge = vec!["merge"];
    merge.extend(names.iter().rev().map(String::as_str));
    let merged = env.run(&merge);
    assert_eq!(merged.status.code(), Some(0), "{merged:?}");
    assert_eq!(
        String::from_utf8_lossy(&merged.stdout),
        String::from_utf8_lossy(&single.stdout)
    );
    let merged_json = env.run(&[&merge[..], &["--json"]].concat());
    assert_eq!(merged_json.stdout, single_json.stdout);
    let doc: Value = serde_json::from_slice(&merged_json.stdout).unwrap();
    assert!(doc["run_id"].as_str().is_some_and(|id| id.len() == 16));
    // A missing shard is named; a shard of another seed is another run.
    let missing = env.run(&["merge", &names[0], &names[2]]);
    assert_eq!(missing.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&missing.stderr).contains("shard 2 of 3 is missing"));
    let other = env.dir.path().join("other.json");
    let out = env.run(
        &[
            &run[..],
            &[
                "--seed",
                "2",
                "--shard",
                "2/3",
                "--out",
                other.to_str().unwrap(),
            ],
        ]
        .concat(),
    );
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let mixed = env.run(&["merge", &names[0], other.to_str().unwrap(), &names[2]]);
    assert_eq!(mixed.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&mixed.stderr).contains("different runs"));
    // The rank, the impact and the rest shard too (tests/games/balance_shards.rs); a
    // shard without its file is a usage error.
    let no_file = env.run(&["balance", "iconica", "ico-kethra-voss", "--shard", "1/2"]);
    assert_eq!(no_file.status.code(), Some(2));
}

/// Spawning a command with its output captured, to wait for later.
trait Spawn {
    fn output_async(&mut self) -> std::process::Child;
}

impl Spawn for std::process::Command {
    fn output_async(&mut self) -> std::process::Child {
        self.stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap()
    }
}

#[test]
fn cli_sweep_ranks_a_selection_and_resumes_from_its_shards_files() {
    let env = Env::new();
    let sweep = [
        "balance",
        "sweep",
        "iconica",
        "faction:legion",
        "--ai",
        "random",
        "--precision",
        "0.1",
    ];
    let whole = env.run(&sweep);
    assert_eq!(whole.status.code(), Some(0), "{whole:?}");
    let text = String::from_utf8_lossy(&whole.stdout).into_owned();
    assert!(
        text.starts_with("sweep of 5 Iconica characters (faction:legion)"),
        "{text}"
    );
    assert!(text.contains("matchup matrix"), "{text}");
    let (doc, _) = env.json(&[&sweep[..], &["--json"]].concat());
    let cards = doc["cards"].as_array().unwrap();
    assert_eq!(cards.len(), 5);
    for c in cards {
        let iv = &c["rank"]["interval"];
        let pos = c["rank"]["position"].as_u64().unwrap();
        assert!(
            iv[0].as_u64().unwrap() <= pos && pos <= iv[1].as_u64().unwrap(),
            "{c}"
        );
        assert_eq!(
            c["outlier"],
            c["decided"].as_bool().unwrap() && c["verdict"] != "fair"
        );
    }
    assert_eq!(doc["matrix"]["rows"].as_array().unwrap().len(), 5);
    // Two shard processes into one folder, then a run without --shard ranks them: the
    // report of the sweep in one go.
    let dir = env.dir.path().join("sweep");
    let d = dir.to_str().unwrap();
    let shards: Vec<_> = ["1/2", "2/2"]
        .iter()
        .map(|k| {
            std::process::Command::new(env!("CARGO_BIN_EXE_deckwright"))
                .arg("--db")
                .arg(env.db())
                .args(sweep)
                .args(["--dir", d, "--shard", k])
                .output_async()
        })
        .collect();
    for c in shards {
        let out = c.wait_with_output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{out:?}");
        assert!(String::from_utf8_lossy(&out.stdout).contains("measured"));
    }
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 5);
    let ranked = env.run(&[&sweep[..], &["--dir", d]].concat());
    assert_eq!(ranked.status.code(), Some(0), "{ranked:?}");
    assert_eq!(String::from_utf8_lossy(&ranked.stdout), text);
    assert!(String::from_utf8_lossy(&ranked.stderr).contains("5 of 5 cards read"));
    // An interrupted sweep resumes: a kept file is read, not measured again (a result
    // changed by hand shows), and a file of another sweep is measured again.
    let kethra = dir.join("ico-kethra-voss.json");
    let mut kept: Value = serde_json::from_str(&std::fs::read_to_string(&kethra).unwrap()).unwrap();
    let games = kept["games"].as_u64().unwrap();
    kept["half_wins"] = serde_json::json!(2 * games);
    std::fs::write(&kethra, kept.to_string()).unwrap();
    let vexid = dir.join("ico-vexid-stalker.json");
    let mut other: Value = serde_json::from_str(&std::fs::read_to_string(&vexid).unwrap()).unwrap();
    other["run_id"] = serde_json::json!("0000000000000000");
    std::fs::write(&vexid, other.to_string()).unwrap();
    let (resumed, _) = env.json(&[&sweep[..], &["--dir", d, "--json"]].concat());
    let row = |doc: &Value, id: &str| {
        doc["cards"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["id"] == id)
            .unwrap()
            .clone()
    };
    assert_eq!(row(&resumed, "ico-kethra-voss")["win_rate"], 1.0);
    let rewritten: Value = serde_json::from_str(&std::fs::read_to_string(&vexid).unwrap()).unwrap();
    assert_eq!(
        rewritten["run_id"], resumed["run_id"],
        "measured again and kept"
    );
    // (its rank moves with Kethra's changed rate; its own figures are measured again)
    for key in ["games", "win_rate", "ci95"] {
        assert_eq!(
            row(&resumed, "ico-vexid-stalker")[key],
            row(&doc, "ico-vexid-stalker")[key]
        );
    }
}
