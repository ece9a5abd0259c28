//! `balance GAME ... --shard K/N --out FILE`, then `merge`, for every game `balance`
//! measures and every part of its report (the rank, the impact, the suggestions, the
//! sequential test, several policies), and for a sweep: shard processes started side by
//! side, merged, give the single run's report byte for byte, text and JSON. One mechanism
//! serves them all (`balance::shard`), so a game registered with a `Balance` is covered
//! here or the test says which is missing.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use crate::cli;

fn ex(p: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("examples")
        .join(p)
        .display()
        .to_string()
}

/// A small run of each part of each game's report (the games few, so the test is quick).
fn runs(dir: &Path) -> Vec<(&'static str, Vec<String>)> {
    // Gorm Ashcairn with Start 200: too strong, so the suggestions' search runs.
    let gorm = std::fs::read_to_string(
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("cards/iconica/ico-gorm-ashcairn.toml"),
    )
    .unwrap();
    let colossus: String = gorm
        .lines()
        .map(|l| {
            if l.starts_with("id = ") {
                "id = \"ico-colossus\"".to_string()
            } else if l.starts_with("start = ") {
                "start = 200".to_string()
            } else {
                l.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("\n");
    let colossus_file = dir.join("colossus.toml");
    std::fs::write(&colossus_file, colossus).unwrap();
    let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
    let quick = ["--ai", "random", "--precision", "0.15"];
    let with = |v: &[&str], games: &str| {
        let mut out = s(v);
        out.extend(s(&quick));
        out.extend(s(&["--max-games", games]));
        out
    };
    vec![
        // The default report: rate, rank among the 16, matchups, every part's impact.
        (
            "iconica",
            with(&["balance", "iconica", "ico-kethra-voss"], "300"),
        ),
        (
            "iconica",
            with(
                &[
                    "balance",
                    "iconica",
                    colossus_file.to_str().unwrap(),
                    "--no-rank",
                    "--no-impact",
                    "--suggest",
                ],
                "200",
            ),
        ),
        (
            "iconica",
            s(&[
                "balance",
                "iconica",
                "ico-kethra-voss",
                "--sprt",
                "--ai",
                "random",
                "--max-games",
                "600",
            ]),
        ),
        (
            "iconica",
            s(&[
                "balance",
                "iconica",
                "ico-kethra-voss",
                "--ai",
                "random,first",
                "--no-rank",
                "--precision",
                "0.15",
                "--max-games",
                "200",
            ]),
        ),
        (
            "arcadia",
            with(&["balance", "arcadia", "arc-m-lucky-star", "--rank"], "200"),
        ),
        (
            "arcadia",
            s(&[
                "balance",
                "arcadia",
                "arc-m-lucky-star",
                "--sprt",
                "--ai",
                "random",
                "--max-games",
                "400",
            ]),
        ),
        (
            "iconoclasm",
            with(&["balance", "iconoclasm", "--players", "3"], "500"),
        ),
        (
            "ruunara",
            with(
                &[
                    "balance",
                    "ruunara",
                    "ru-haskar-emberfist",
                    "--squad",
                    &ex("ruunara/legal-ardann-story.squad.toml"),
                ],
                "200",
            ),
        ),
        (
            "sweep",
            with(&["balance", "sweep", "iconica", "faction:legion"], "300"),
        ),
    ]
}

fn ok(o: &Output, what: &str) -> String {
    assert!(
        o.status.success(),
        "{what}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8(o.stdout.clone()).unwrap()
}

#[test]
fn balance_shards_of_every_game_and_part_merge_into_the_single_runs_report() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("c.sqlite");
    let runs = runs(dir.path());
    for (g, _) in deckwright::games::registry::balanced() {
        assert!(
            runs.iter().any(|(name, _)| *name == g.name),
            "balance {} has no shard test",
            g.name
        );
    }
    for (n, (game, args)) in runs.iter().enumerate() {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let single = ok(&cli::deckwright(&db, &args), game);
        let single_json = ok(
            &cli::deckwright(&db, &[&args[..], &["--json"]].concat()),
            game,
        );
        let file = |k: usize| dir.path().join(format!("{n}-{k}.tally.json"));
        let files: Vec<String> = (1..=2).map(|k| file(k).display().to_string()).collect();
        // Two processes at once, one of them with its index from GNU parallel.
        let children: Vec<_> = (1..=2)
            .map(|k| {
                let mut c = Command::new(env!("CARGO_BIN_EXE_deckwright"));
                c.arg("--db")
                    .arg(&db)
                    .args(&args)
                    .args(["--out", &files[k - 1]]);
                c.env_remove("PARALLEL_SEQ");
                if k == 2 {
                    c.args(["--shard", "auto/2"]).env("PARALLEL_SEQ", "2");
                } else {
                    c.args(["--shard", "1/2"]);
                }
                c.stdout(Stdio::piped())
                    .stderr(Stdio::piped())
                    .spawn()
                    .unwrap()
            })
            .collect();
        for (k, c) in children.into_iter().enumerate() {
            let said = ok(&c.wait_with_output().unwrap(), game);
            assert!(
                said.starts_with(&format!("shard {}/2 of run ", k + 1)),
                "{said}"
            );
        }
        let merged = ok(
            &cli::deckwright(&db, &["merge", &files[1], &files[0]]),
            game,
        );
        assert_eq!(merged, single, "{args:?}");
        let merged_json = ok(
            &cli::deckwright(&db, &["merge", &files[0], &files[1], "--json"]),
            game,
        );
        assert_eq!(merged_json, single_json, "{args:?}");
        // A shard alone is not the run.
        let alone = cli::deckwright(&db, &["merge", &files[0]]);
        assert_eq!(alone.status.code(), Some(2));
        assert!(String::from_utf8_lossy(&alone.stderr).contains("shard 2 of 2 is missing"));
    }
    // The suggestions' search found a fix, so it was merged, not left out.
    let (_, colossus) = &runs[1];
    let colossus: Vec<&str> = colossus.iter().map(String::as_str).collect();
    let text = ok(&cli::deckwright(&db, &colossus), "iconica");
    assert!(text.contains("suggestion: "), "{text}");
}

#[test]
fn a_merge_refuses_tallies_of_a_card_changed_since() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("c.sqlite");
    let card = dir.path().join("kethra.toml");
    let original = std::fs::read_to_string(
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("cards/iconica/ico-kethra-voss.toml"),
    )
    .unwrap();
    std::fs::write(&card, &original).unwrap();
    let c = card.to_str().unwrap();
    let t = |k: u8| dir.path().join(format!("t{k}.json")).display().to_string();
    for k in 1..=2u8 {
        let o = cli::deckwright(
            &db,
            &[
                "balance",
                "iconica",
                c,
                "--no-rank",
                "--no-impact",
                "--ai",
                "first",
                "--max-games",
                "100",
                "--shard",
                &format!("{k}/2"),
                "--out",
                &t(k),
            ],
        );
        ok(&o, "shard");
    }
    std::fs::write(&card, original.replace("start = ", "start = 1")).unwrap();
    let o = cli::deckwright(&db, &["merge", &t(1), &t(2)]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("the catalogue or the files named here make run"),
        "{err}"
    );
}
