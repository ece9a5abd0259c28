//! `balance GAME ... --shard K/N --out FILE` for every balanced game and every part of its
//! report, and `deckwright merge` of such tallies. One mechanism over the registry: the
//! game's own report code runs as it always does, on a runner that records this shard's
//! block of every run it asks for (`crate::balance::shard::Ledger`), its printed report thrown
//! away; `merge` runs the same command again on a runner that replays the merged runs, so
//! the merged report is the single run's byte for byte, by the same code, nothing played.

use std::process::ExitCode;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use clap::{FromArgMatches, Parser};
use serde_json::{Value, json};

use super::balance::{Args, RunArgs, measure};
use super::load::open_catalogue;
use super::options::Sharding;
use super::{BadInput, Context, Outcome};
use crate::balance::shard::{self, Ledger, ScoreFile};
use crate::games::registry::Registration;
use crate::sim::shard::{Shard, run_id};

/// The options of a balance run that do not change its report (left out of the words a
/// tally keeps): the shard, its file, the threads.
const NOT_KEPT: [&str; 3] = ["--shard", "--out", "--threads"];

/// The words after `balance` on this command line, less the shard's, the threads and
/// `--json`: what `merge` parses again to make the report.
fn kept_words() -> Vec<String> {
    let words: Vec<String> = std::env::args().collect();
    let Some(at) = words.iter().position(|w| w == "balance") else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let mut rest = words[at + 1..].iter();
    while let Some(w) = rest.next() {
        if NOT_KEPT.contains(&w.as_str()) {
            rest.next();
        } else if w == "--json" || NOT_KEPT.iter().any(|v| w.starts_with(&format!("{v}="))) {
        } else {
            out.push(w.clone());
        }
    }
    out
}

/// The largest file named on the command line that a run id reads.
const MAX_NAMED_FILE: u64 = 16 << 20;

/// The run id of a balance report: the game and its engine version, the command's words,
/// every card of the catalogue (and its clash table) and every file the words name, as this
/// machine has them, so shards of a changed card or file are another run.
fn report_id(ctx: &Context, game: &Registration, words: &[String]) -> Result<String, BadInput> {
    let cat = open_catalogue(ctx)?;
    let mut setup = String::new();
    for c in cat.all().map_err(|e| BadInput(format!("catalogue: {e}")))? {
        setup.push_str(&format!("{c:?}\n"));
    }
    if let Ok(t) = cat.clash_table() {
        setup.push_str(&format!("{t:?}\n"));
    }
    for w in words {
        let p = std::path::Path::new(w);
        if p.is_file() {
            let text = crate::safe_io::read_text(p, MAX_NAMED_FILE, "a file of a balance run")
                .map_err(|e| BadInput(format!("{w}: {}", crate::error_chain(&e))))?;
            setup.push_str(&format!("{w}\n{text}\n"));
        }
    }
    let run = json!({"game": game.name, "measure": "balance", "words": words});
    Ok(run_id(&run, game.engine, &setup))
}

/// Plays this process's shard of every run of the report `args` asks for and writes its
/// tally (`--shard K/N --out FILE`).
pub(super) fn record(ctx: &Context, args: &Args, sharding: &Sharding) -> Outcome {
    let (Some(text), Some(path)) = (&sharding.shard, &sharding.out) else {
        return Err(BadInput("--shard K/N takes --out FILE".into()));
    };
    let sh = Shard::parse(text, |k| std::env::var(k).ok())
        .map_err(|e| BadInput(format!("--shard {e}")))?;
    let run = RunArgs::from_arg_matches(&args.matches).map_err(|e| BadInput(e.to_string()))?;
    let games = run.max_games;
    let range = sh.range(games);
    let words = kept_words();
    let id = report_id(ctx, args.game, &words)?;
    let ledger = Arc::new(Mutex::new(Ledger::recording(sh, games)));
    // The report made from one shard's games is not the run's: it is not printed.
    let quiet = Context {
        db: ctx.db.clone(),
        out: super::out::Out::sink(),
    };
    let started = Instant::now();
    measure(&quiet, args, Some(ledger.clone()))?;
    let seconds = started.elapsed().as_secs_f64();
    let runs = ledger
        .lock()
        .map_err(|_| BadInput("the shard's ledger was poisoned".into()))?
        .runs();
    let file = ScoreFile {
        kind: shard::KIND.into(),
        format: shard::FORMAT,
        run_id: id.clone(),
        shard: sh,
        range: [range.start, range.end],
        seconds,
        run: json!({"game": args.game.name, "games": games, "words": words}),
        runs,
    };
    let n_runs = file.runs.len();
    let text = serde_json::to_string(&file).map_err(|e| BadInput(e.to_string()))?;
    crate::safe_io::write_atomic(path, format!("{text}\n").as_bytes())
        .map_err(|e| BadInput(format!("{}: {e}", path.display())))?;
    if run.json {
        ctx.out.json(&json!({
            "run_id": id,
            "shard": format!("{}/{}", sh.k, sh.n),
            "games": [range.start, range.end],
            "runs": n_runs,
            "out": path.display().to_string(),
        }));
    } else {
        writeln!(
            &ctx.out,
            "shard {}/{} of run {id}: games {} to {} of {n_runs} run{} written to {}",
            sh.k,
            sh.n,
            range.start,
            range.end.saturating_sub(1),
            if n_runs == 1 { "" } else { "s" },
            path.display()
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// The report of a balance run from its shards' runs, made by the single run's code.
pub fn print_merged(ctx: &Context, m: &shard::Merged, json: bool) -> Outcome {
    let damaged = |why: &str| BadInput(format!("the tallies' run is damaged: {why}"));
    let words: Vec<String> =
        serde_json::from_value(m.run["words"].clone()).map_err(|_| damaged("no command line"))?;
    let games = m.run["games"].as_u64().ok_or_else(|| damaged("no games"))?;
    let line = ["deckwright", "balance"]
        .into_iter()
        .map(String::from)
        .chain(words.iter().cloned())
        .chain(json.then(|| "--json".to_string()));
    let cli = super::Cli::try_parse_from(line).map_err(|e| damaged(&e.to_string()))?;
    let Some(super::Command::Balance(a)) = cli.command else {
        return Err(damaged("not a balance run"));
    };
    let here = report_id(ctx, a.game, &words)?;
    if here != m.run_id {
        return Err(BadInput(format!(
            "the tallies are of run {}, but the catalogue or the files named here make run {here}: merge where the shards ran, with the same cards and files",
            m.run_id
        )));
    }
    let ledger = Arc::new(Mutex::new(Ledger::replaying(games, m.runs.clone())));
    measure(ctx, &a, Some(ledger))
}

/// Whether a tally file's text is a balance tally (rather than `sim`'s).
pub fn is_balance_tally(v: &Value) -> bool {
    v.get("kind").and_then(Value::as_str) == Some(shard::KIND)
}
