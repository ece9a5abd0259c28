//! Arcadia balance (`spec/balance.md`, docs/balance.md): a merit that does nothing
//! measures about zero per point, a clearly strong one measures positive, a flaw is
//! measured with its points spent, the report is the same at any thread count; and
//! `deckwright balance arcadia` from the outside (JSON, exit codes).

use std::path::{Path, PathBuf};
use std::process::Output;

use deckwright::balance::arcadia::{
    FieldSetup, Rank, Report, Settings, Subject, rank_among, rank_cards, report, versions,
};
use deckwright::balance::iconica::NEVER;
use deckwright::balance::{Runner, Stopping};
use deckwright::cards::{Card, parse_card};
use deckwright::catalogue::bundled_cards;
use deckwright::games::ai::Policy;
use deckwright::games::arcadia::model::{ArcadiaCard, Merit};
use deckwright::games::arcadia::rules::check_character;
use deckwright::games::build::CardIndex;
use serde_json::Value;

use crate::cli::deckwright;

/// A merit of cost 2 with no effect at all.
const PEBBLE: &str = r#"game = "arcadia"
kind = "merit"
id = "arc-m-test-pebble"
name = "Pebble"
merit_type = "advantage"
cost = 2
text = "A smooth pebble. It does nothing."
"#;

/// A merit of cost 2 worth far more: +6 to every kind of test.
const GIANT: &str = r#"game = "arcadia"
kind = "merit"
id = "arc-m-test-giant"
name = "Giant's Blood"
merit_type = "advantage"
cost = 2
text = "+6 to every test."
effects = [ { bonus = 6, test = "might" }, { bonus = 6, test = "savvy" }, { bonus = 6, test = "resolve" }, { bonus = 6, test = "combat" } ]
"#;

fn merit(text: &str) -> Merit {
    match parse_card(text, "test").unwrap() {
        Card::Arcadia(ArcadiaCard::Merit(m)) => m,
        other => panic!("{other:?}"),
    }
}

/// The bundled cards with `extra` added, their merits (the builder's shop), and the legal
/// example setups.
fn world(extra: &[&Merit]) -> (CardIndex, Vec<Merit>, Vec<FieldSetup>) {
    let mut cards = bundled_cards().unwrap();
    cards.extend(
        extra
            .iter()
            .map(|m| Card::Arcadia(ArcadiaCard::Merit((*m).clone()))),
    );
    let index = CardIndex::new(cards);
    let shop = deckwright::balance::arcadia::shop(index.cards());
    let field = deckwright::balance::arcadia::example_field(&index);
    assert!(field.len() >= 3, "the legal example setups");
    (index, shop, field)
}

fn measure(card: &Merit, threads: usize, seed: u64) -> Report {
    let (index, shop, field) = world(&[card]);
    let runner = Runner::new(
        Some(threads),
        Stopping::checked(0.02, 4_000).unwrap(),
        &NEVER,
    )
    .unwrap();
    let settings = Settings {
        ai: Policy::Random,
        seed,
        turn_limit: 500,
    };
    report(
        &field,
        &Subject::Merit(card.clone()),
        &shop,
        &index,
        settings,
        &runner,
        true,
    )
    .unwrap()
}

#[test]
fn a_merit_that_does_nothing_measures_about_zero_per_point() {
    let r = measure(&merit(PEBBLE), 2, 5);
    let (x, (lo, hi)) = r.per_point.unwrap();
    assert!(lo <= 0.0 && 0.0 <= hi, "per point {x} ({lo}, {hi})");
    assert!(hi - lo < 0.03, "a narrow interval: ({lo}, {hi})");
    let w = r.worth.unwrap();
    assert!(w.ci95.0 <= 0.0 && 0.0 <= w.ci95.1, "worth {w:?}");
    // The builder spent its 2 points somewhere in every place.
    assert!(
        r.places.iter().all(|p| !p.bought.is_empty()),
        "{:?}",
        r.places
    );
}

#[test]
fn a_clearly_strong_merit_measures_positive() {
    let r = measure(&merit(GIANT), 2, 5);
    let (x, (lo, _)) = r.per_point.unwrap();
    assert!(lo > 0.0, "per point {x}, interval from {lo}");
    assert!(r.delta.other.win_rate > r.delta.base.win_rate);
    assert!(r.worth.unwrap().ci95.0 > 0.0);
}

#[test]
fn the_same_seed_gives_the_same_report_at_any_thread_count() {
    let giant = merit(GIANT);
    let (one, two) = (measure(&giant, 1, 9), measure(&giant, 2, 9));
    assert_eq!(one.delta, two.delta);
    assert_eq!(one.worth, two.worth);
    assert_eq!(one.matchups, two.matchups);
}

#[test]
fn a_clearly_strong_merit_ranks_above_one_that_does_nothing() {
    let (giant, pebble) = (merit(GIANT), merit(PEBBLE));
    let (index, shop, field) = world(&[&giant, &pebble]);
    let runner = Runner::new(Some(2), Stopping::checked(0.02, 2_000).unwrap(), &NEVER).unwrap();
    let settings = Settings {
        ai: Policy::Random,
        seed: 5,
        turn_limit: 500,
    };
    let mut done = 0;
    let ranked = rank_cards(
        &[
            Subject::Merit(giant.clone()),
            Subject::Merit(pebble.clone()),
        ],
        &field,
        &shop,
        &index,
        settings,
        &runner,
        &mut || done += 1,
    )
    .unwrap();
    assert_eq!(done, 2, "progress after each card");
    let (g, p) = (&ranked[0].1, &ranked[1].1);
    assert_eq!(rank_among(g, &ranked[1..]), Rank { of: 2, position: 1 });
    assert_eq!(rank_among(p, &ranked[..1]), Rank { of: 2, position: 2 });
    // The figure ranked by is the change per cost point.
    assert_eq!(g.figure(), g.per_point.unwrap());
}

#[test]
fn the_builder_makes_room_for_a_merit_and_spends_a_flaws_points() {
    let (index, shop, field) = world(&[]);
    let star = match index.cards().iter().find(|c| c.id() == "arc-m-lucky-star") {
        Some(Card::Arcadia(ArcadiaCard::Merit(m))) => m.clone(),
        other => panic!("{other:?}"),
    };
    let knight = &field[0].characters[0];
    let left = check_character(knight, &index).derived.points_left;
    let ([card, traded, none], dropped, bought) =
        versions(knight, &Subject::Merit(star.clone()), &shop, &index).unwrap();
    for v in [&card, &traded, &none] {
        assert!(check_character(v, &index).is_legal(), "{v:?}");
    }
    // Room for a cost of 4: the last-listed merits dropped until 4 points are free.
    let free = check_character(&none, &index).derived.points_left;
    assert!(
        free >= 4 && left < 4,
        "{left} -> {free}, dropped {dropped:?}"
    );
    assert_eq!(
        none.merits.len() + dropped.len(),
        knight.merits.len(),
        "{dropped:?}"
    );
    assert!(card.merits.contains(&star.id) && !traded.merits.contains(&star.id));
    let cost = |ids: &[String]| -> i32 {
        ids.iter()
            .map(|id| shop.iter().find(|m| &m.id == id).unwrap().cost)
            .sum()
    };
    assert!((1..=4).contains(&cost(&bought)), "{bought:?}");
    // A flaw: its points spent by the builder in `traded`, none in `card`.
    let flaw = match index
        .cards()
        .iter()
        .find(|c| c.id() == "arc-f-rustwright-grudge")
    {
        Some(Card::Arcadia(ArcadiaCard::Flaw(f))) => f.clone(),
        other => panic!("{other:?}"),
    };
    let ([card, traded, none], _, bought) =
        versions(knight, &Subject::Flaw(flaw.clone()), &shop, &index).unwrap();
    assert!(card.flaws.contains(&flaw.id) && traded.flaws.contains(&flaw.id));
    assert!(!none.flaws.contains(&flaw.id));
    assert!(
        !bought.is_empty() && cost(&bought) <= flaw.points,
        "{bought:?}"
    );
    assert_eq!(traded.merits.len(), card.merits.len() + bought.len());
}

/// A catalogue of the bundled Arcadia cards in a temporary folder.
struct Env {
    dir: tempfile::TempDir,
}

impl Env {
    fn new() -> Env {
        let env = Env {
            dir: tempfile::tempdir().unwrap(),
        };
        let cards = Path::new(env!("CARGO_MANIFEST_DIR")).join("cards/arcadia");
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
}

#[test]
fn cli_json_has_the_spec_shape_and_the_same_report_at_one_and_two_threads() {
    let env = Env::new();
    let giant = env.file("giant.toml", GIANT);
    let run = |threads: &str| {
        let out = env.run(&[
            "balance",
            "arcadia",
            &giant,
            "--ai",
            "random",
            "--max-games",
            "1000",
            "--seed",
            "3",
            "--threads",
            threads,
            "--json",
        ]);
        let err = String::from_utf8_lossy(&out.stderr).to_string();
        assert_eq!(out.status.code(), Some(0), "{err}");
        out.stdout
    };
    let (one, two) = (run("1"), run("2"));
    assert_eq!(one, two, "byte for byte at 1 and 2 threads");
    let doc: Value = serde_json::from_slice(&one).unwrap();
    assert_eq!(doc["game"], "arcadia");
    assert_eq!(doc["card"], "arc-m-test-giant");
    assert_eq!(doc["kind"], "merit");
    assert_eq!(doc["ai"], "random");
    assert_eq!(doc["draws"], "half a win");
    assert!(doc["stopped"] == "precision" || doc["stopped"] == "max_games");
    let (d, lo, hi) = (
        doc["delta"].as_f64().unwrap(),
        doc["delta_ci95"][0].as_f64().unwrap(),
        doc["delta_ci95"][1].as_f64().unwrap(),
    );
    assert!(lo <= d && d <= hi && lo > 0.0, "{doc}");
    // Every report says whether it is decided: the change's interval against 10 points
    // either way.
    let verdict = if lo >= -0.1 && hi <= 0.1 {
        "fair"
    } else if lo > 0.1 {
        "too_strong"
    } else if hi < -0.1 {
        "too_weak"
    } else {
        "not_decided"
    };
    assert_eq!(doc["verdict"], verdict, "{doc}");
    assert_eq!(doc["decided"], verdict != "not_decided");
    let pp = doc["per_point"]["delta"].as_f64().unwrap();
    assert!((pp - d / 2.0).abs() < 1e-12, "per point = change / cost 2");
    let w = doc["win_rate"].as_f64().unwrap();
    assert!(doc["ci95"][0].as_f64().unwrap() <= w && w <= doc["ci95"][1].as_f64().unwrap());
    assert!(doc["field"].as_array().unwrap().len() >= 6, "{doc}");
    let games: u64 = doc["matchups"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["games"].as_u64().unwrap())
        .sum();
    assert_eq!(games, doc["games"].as_u64().unwrap());
}

#[test]
fn cli_rank_places_the_card_among_every_catalogue_merit_and_flaw() {
    let env = Env::new();
    let giant = env.file("giant.toml", GIANT);
    let base = [
        "balance",
        "arcadia",
        &giant,
        "--ai",
        "random",
        "--max-games",
        "60",
        "--no-worth",
        "--json",
    ];
    let run = |extra: &[&str]| -> Value {
        let out = env.run(&[&base[..], extra].concat());
        let err = String::from_utf8_lossy(&out.stderr).to_string();
        assert_eq!(out.status.code(), Some(0), "{err}");
        serde_json::from_slice(&out.stdout).unwrap()
    };
    assert!(run(&[])["rank"].is_null(), "no rank unless asked");
    let doc = run(&["--rank"]);
    let catalogue = std::fs::read_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("cards/arcadia"))
        .unwrap()
        .filter(|e| {
            let name = e
                .as_ref()
                .unwrap()
                .file_name()
                .to_string_lossy()
                .into_owned();
            name.starts_with("arc-m-") || name.starts_with("arc-f-")
        })
        .count() as u64;
    assert_eq!(doc["rank"]["of"], catalogue + 1, "{doc}");
    let position = doc["rank"]["position"].as_u64().unwrap();
    assert!((1..=catalogue + 1).contains(&position), "{doc}");
}

#[test]
fn cli_measures_a_catalogue_flaw_on_given_characters_in_a_given_setup() {
    let env = Env::new();
    let ex = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/arcadia");
    let setup = ex.join("legal-long-road.setup.toml");
    let knight = ex.join("legal-hobgallant-knight.character.toml");
    let out = env.run(&[
        "balance",
        "arcadia",
        "arc-f-rustwright-grudge",
        "--setup",
        setup.to_str().unwrap(),
        "--characters",
        knight.to_str().unwrap(),
        "--ai",
        "random",
        "--max-games",
        "500",
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        text.contains(
            "Grudge of the Rustwrights (arc-f-rustwright-grudge), Arcadia flaw, 3 points"
        ),
        "{text}"
    );
    assert!(
        text.contains("with the flaw (its points spent by the builder)"),
        "{text}"
    );
    assert!(text.contains("without the flaw"), "{text}");
    assert!(text.contains("stopped at"), "{text}");
    assert!(
        text.contains("per flaw point") || text.contains("per point"),
        "{text}"
    );
    // The knight measured where the setup stays legal with it (as player 1).
    assert!(text.contains("field: 1 place "), "{text}");
    assert!(
        text.contains("Sir Bramwell (player 1)") && !text.contains("Lumen"),
        "{text}"
    );
}

#[test]
fn cli_bad_input_is_a_clear_error_with_exit_2() {
    let env = Env::new();
    let ex = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/arcadia");
    let illegal = ex.join("illegal-over-budget.character.toml");
    let illegal = illegal.to_str().unwrap();
    for (args, says) in [
        (
            vec!["balance", "arcadia", "arc-m-nobody"],
            "no card `arc-m-nobody`",
        ),
        (
            vec!["balance", "arcadia", "arc-q-a-choice-of-roads"],
            "not an Arcadia merit or flaw",
        ),
        (
            vec!["balance", "arcadia", "arc-m-lucky-star", "--precision", "0"],
            "precision must be between 0 and 0.5",
        ),
        (
            vec![
                "balance",
                "arcadia",
                "arc-m-lucky-star",
                "--characters",
                illegal,
            ],
            "the character is not legal: merit-budget",
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
fn cli_sprt_decides_a_card_within_the_band_fair_and_says_its_figures() {
    let env = Env::new();
    let giant = env.file("giant.toml", GIANT);
    let base = ["balance", "arcadia", &giant, "--seed", "3"];
    let sprt = ["--ai", "random", "--sprt", "--max-games", "4000"];
    let out = env.run(&[&base[..], &sprt, &["--json"]].concat());
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["game"], "arcadia");
    assert_eq!(doc["test"], "sprt");
    assert_eq!(doc["decided"], true, "{doc}");
    // Giant's Blood adds about 5 points of win rate under random (the paired run says
    // +4.6 to +6.5): well inside the band of 10 points either way.
    assert_eq!(doc["verdict"], "fair", "{doc}");
    let (rate, change) = (
        doc["win_rate"].as_f64().unwrap(),
        doc["change"].as_f64().unwrap(),
    );
    assert!((change - (2.0 * rate - 1.0)).abs() < 1e-12);
    assert!(change > 0.0 && change < 0.1, "{doc}");
    let (lo, hi) = (
        doc["bounds"][0].as_f64().unwrap(),
        doc["bounds"][1].as_f64().unwrap(),
    );
    assert!(
        doc["llr"]["above"].as_f64().unwrap() <= lo && hi > 0.0,
        "{doc}"
    );
    assert!(doc["llr"]["below"].as_f64().unwrap() <= lo, "{doc}");
    let text = env.run(&[&base[..], &sprt].concat());
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(text.contains("decided: fair"), "{text}");
    assert!(text.contains("a change of +"), "{text}");
    // Several policies side by side; --sprt takes one.
    let out = env.run(
        &[
            &base[..],
            &[
                "--ai",
                "random,first",
                "--precision",
                "0.05",
                "--no-worth",
                "--json",
            ],
        ]
        .concat(),
    );
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    let policies = doc["policies"].as_array().unwrap();
    assert_eq!(policies.len(), 2);
    assert_eq!(policies[1]["ai"], "first");
    assert!(doc["flags"].is_array());
    let refused = env.run(&[&base[..], &["--ai", "random,greedy", "--sprt"]].concat());
    assert_eq!(refused.status.code(), Some(2));
}
