//! A run split across processes (`sim ... --shard K/N --out FILE`, then `merge`): for every
//! game, three shard processes started side by side (one with its index from the command
//! line, one as a Slurm array task, one as a Kubernetes Indexed Job, one as GNU parallel's
//! job) merge into the report the unsharded run prints, byte for byte but for its games per
//! second; mixed runs, a shard given twice, missing shards and damaged tallies are refused
//! (exit 2), naming them.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};

use crate::cli;

fn ex(p: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("examples")
        .join(p)
        .display()
        .to_string()
}

/// One `sim` run of every game (small, so the test stays quick).
fn runs() -> Vec<(&'static str, Vec<String>)> {
    let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
    vec![
        (
            "iconica",
            s(&[
                "sim",
                "iconica",
                &ex("iconica/legal-legion-raiders.party.toml"),
                &ex("iconica/legal-protectorate-wardens.party.toml"),
                "--games",
                "301",
                "--seed",
                "9",
            ]),
        ),
        (
            "arcadia",
            s(&[
                "sim",
                "arcadia",
                &ex("arcadia/legal-long-road.setup.toml"),
                "--games",
                "40",
                "--ai",
                "random",
            ]),
        ),
        (
            "iconoclasm",
            s(&["sim", "iconoclasm", "--players", "3", "--games", "50"]),
        ),
        (
            "ruunara",
            s(&[
                "sim",
                "ruunara",
                &ex("ruunara/eliminate.mission.toml"),
                &ex("ruunara/legal-ardann-story.squad.toml"),
                "--games",
                "31",
                "--ai",
                "random",
            ]),
        ),
        (
            "pig",
            s(&["sim", "pig", "--games", "120", "--ai-b", "random"]),
        ),
    ]
}

/// Starts `deckwright --db DB ARGS...` with `env` set (the scheduler's variables).
fn spawn(db: &Path, args: &[&str], env: &[(&str, &str)]) -> Child {
    let mut c = Command::new(env!("CARGO_BIN_EXE_deckwright"));
    c.arg("--db").arg(db).args(args);
    for v in [
        "SLURM_ARRAY_TASK_ID",
        "SLURM_ARRAY_TASK_MIN",
        "SLURM_ARRAY_TASK_COUNT",
        "JOB_COMPLETION_INDEX",
        "PARALLEL_SEQ",
    ] {
        c.env_remove(v);
    }
    c.envs(env.iter().copied())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

fn ok(o: &Output, what: &str) -> String {
    assert!(
        o.status.success(),
        "{what}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8(o.stdout.clone()).unwrap()
}

/// The text without its games-per-second figure.
fn untimed(text: &str) -> String {
    text.lines()
        .map(|l| match l.find("; ") {
            Some(i) if l.ends_with("games/s") => &l[..i],
            _ => l,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn untimed_json(text: &str) -> serde_json::Value {
    let mut v: serde_json::Value = serde_json::from_str(text).unwrap();
    v.as_object_mut().unwrap().remove("games_per_sec");
    v
}

#[test]
fn three_shard_processes_merge_into_the_whole_runs_report_for_every_game() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("c.sqlite");
    for (game, args) in runs() {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let whole = ok(&cli::deckwright(&db, &args), game);
        let whole_json = ok(
            &cli::deckwright(&db, &[&args[..], &["--json"]].concat()),
            game,
        );
        let file = |k: usize| dir.path().join(format!("{game}-{k}.tally.json"));
        let (f1, f2, f3) = (file(1), file(2), file(3));
        let (f1, f2, f3) = (
            f1.to_str().unwrap(),
            f2.to_str().unwrap(),
            f3.to_str().unwrap(),
        );
        // Three processes at once, as three machines of a scheduler would run them.
        let shards = [
            spawn(
                &db,
                &[&args[..], &["--shard", "auto", "--out", f1]].concat(),
                &[
                    ("SLURM_ARRAY_TASK_ID", "10"),
                    ("SLURM_ARRAY_TASK_MIN", "10"),
                    ("SLURM_ARRAY_TASK_COUNT", "3"),
                ],
            ),
            spawn(
                &db,
                &[&args[..], &["--shard", "auto/3", "--out", f2]].concat(),
                &[("JOB_COMPLETION_INDEX", "1")],
            ),
            spawn(
                &db,
                &[&args[..], &["--shard", "auto/3", "--out", f3]].concat(),
                &[("PARALLEL_SEQ", "3")],
            ),
        ];
        for (k, child) in shards.into_iter().enumerate() {
            let said = ok(&child.wait_with_output().unwrap(), game);
            assert!(
                said.starts_with(&format!("shard {}/3 of run ", k + 1)),
                "{said}"
            );
        }
        // Any order of the files.
        let merged = ok(&cli::deckwright(&db, &["merge", f3, f1, f2]), game);
        assert_eq!(untimed(&merged), untimed(&whole), "{game}");
        let merged_json = ok(
            &cli::deckwright(&db, &["merge", f2, f3, f1, "--json"]),
            game,
        );
        assert_eq!(
            untimed_json(&merged_json),
            untimed_json(&whole_json),
            "{game}"
        );
        assert!(
            untimed_json(&whole_json)["run_id"].is_string(),
            "{whole_json}"
        );
    }
}

fn refused(db: &Path, args: &[&str], says: &str) {
    let o = cli::deckwright(db, args);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
    assert!(err.contains(says), "{args:?}: {err}");
    assert!(o.stdout.is_empty());
}

#[test]
fn merge_refuses_mixed_runs_duplicates_missing_shards_and_damaged_tallies() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("c.sqlite");
    let p = |n: &str| dir.path().join(n).display().to_string();
    let sim = |seed: &str, shard: &str, out: &str| {
        let o = cli::deckwright(
            &db,
            &[
                "sim",
                "iconoclasm",
                "--players",
                "2",
                "--games",
                "20",
                "--seed",
                seed,
                "--shard",
                shard,
                "--out",
                out,
            ],
        );
        ok(&o, shard);
    };
    sim("1", "1/2", &p("a1"));
    sim("1", "2/2", &p("a2"));
    sim("2", "2/2", &p("b2"));
    refused(
        &db,
        &["merge", &p("a1"), &p("b2")],
        "are shards of different runs",
    );
    refused(
        &db,
        &["merge", &p("a1"), &p("a1"), &p("a2")],
        "shard 1/2 is given twice",
    );
    refused(&db, &["merge", &p("a2")], "shard 1 of 2 is missing");
    std::fs::write(p("junk"), "not json").unwrap();
    refused(&db, &["merge", &p("a1"), &p("junk")], "is not a tally file");
    // A tally whose sums were changed by hand no longer matches its shard.
    let text = std::fs::read_to_string(p("a2")).unwrap();
    let mut v: serde_json::Value = serde_json::from_str(&text).unwrap();
    v["counts"]["games"] = serde_json::json!(999);
    std::fs::write(p("edited"), v.to_string()).unwrap();
    refused(&db, &["merge", &p("a1"), &p("edited")], "not its shard's");
    // --shard needs somewhere to write, and a shard that exists.
    refused(
        &db,
        &["sim", "iconoclasm", "--players", "2", "--shard", "1/2"],
        "--out",
    );
    refused(
        &db,
        &[
            "sim",
            "iconoclasm",
            "--players",
            "2",
            "--shard",
            "3/2",
            "--out",
            &p("x"),
        ],
        "the shard must be 1 to 2",
    );
}

/// The `deckwright sim ... --shard` line of a recipe in `examples/scale/`, as words, with the
/// scheduler's variable put in and the run made small (`--games 1000000` becomes 120).
fn recipe(file: &str, var: &str, value: &str) -> Vec<String> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("examples/scale")
        .join(file);
    let text = std::fs::read_to_string(&path).unwrap();
    let line = text
        .lines()
        .map(|l| l.trim().trim_start_matches("- "))
        .find(|l| l.starts_with("deckwright sim") && l.contains("--shard"))
        .unwrap_or_else(|| panic!("{file} has no `deckwright sim ... --shard` line"));
    line.replace(&format!("${var}"), value)
        .split_whitespace()
        .skip(1)
        .map(|w| {
            if w == "1000000" {
                "120".to_string()
            } else {
                w.to_string()
            }
        })
        .collect()
}

#[test]
fn the_scale_recipes_shard_and_merge_as_written() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("c.sqlite");
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    // (recipe, the scheduler's index variable, the shards, the variables of shard k).
    type Env = fn(u64) -> Vec<(&'static str, String)>;
    let recipes: [(&str, &str, u64, Env); 3] = [
        ("sweep.slurm", "SLURM_ARRAY_TASK_ID", 20, |k| {
            vec![
                ("SLURM_ARRAY_TASK_ID", k.to_string()),
                ("SLURM_ARRAY_TASK_MIN", "1".into()),
                ("SLURM_ARRAY_TASK_COUNT", "20".into()),
            ]
        }),
        ("sweep-job.yaml", "JOB_COMPLETION_INDEX", 20, |k| {
            vec![("JOB_COMPLETION_INDEX", (k - 1).to_string())]
        }),
        ("sweep-parallel.sh", "PARALLEL_SEQ", 4, |k| {
            vec![("PARALLEL_SEQ", k.to_string())]
        }),
    ];
    let mut whole: Option<String> = None;
    for (file, var, shards, env_of) in recipes {
        let work = dir.path().join(file);
        std::fs::create_dir_all(work.join("tallies")).unwrap();
        let mut children = Vec::new();
        for k in 1..=shards {
            let env = env_of(k);
            let value = env.iter().find(|(n, _)| *n == var).unwrap().1.clone();
            let words = recipe(file, var, &value);
            // The recipes name files relative to a checkout, tallies under /tallies on the
            // Job's volume: here, in this test's folder.
            let words: Vec<String> = words
                .into_iter()
                .map(|w| {
                    if w.starts_with("examples/") {
                        root.join(&w).display().to_string()
                    } else if let Some(rest) = w.strip_prefix("/tallies/") {
                        work.join("tallies").join(rest).display().to_string()
                    } else if w.ends_with(".tally.json") {
                        work.join(&w).display().to_string()
                    } else {
                        w
                    }
                })
                .collect();
            let args: Vec<&str> = words.iter().map(String::as_str).collect();
            let env: Vec<(&str, &str)> = env.iter().map(|(n, v)| (*n, v.as_str())).collect();
            children.push(spawn(&db, &args, &env));
            if whole.is_none() {
                let i = args.iter().position(|a| *a == "--shard").unwrap();
                whole = Some(ok(&cli::deckwright(&db, &args[..i]), file));
            }
        }
        for c in children {
            ok(&c.wait_with_output().unwrap(), file);
        }
        let mut tallies: Vec<String> = Vec::new();
        for d in [work.clone(), work.join("tallies")] {
            for e in std::fs::read_dir(&d).unwrap() {
                let p = e.unwrap().path();
                if p.to_string_lossy().ends_with(".tally.json") {
                    tallies.push(p.display().to_string());
                }
            }
        }
        assert_eq!(tallies.len() as u64, shards, "{file}");
        let mut args = vec!["merge"];
        args.extend(tallies.iter().map(String::as_str));
        let merged = ok(&cli::deckwright(&db, &args), file);
        assert_eq!(
            untimed(&merged),
            untimed(whole.as_deref().unwrap()),
            "{file}"
        );
    }
}
