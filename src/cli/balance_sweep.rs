//! `deckwright balance sweep GAME [QUERY] [--dir DIR] [--shard K/N] [--suggest]`: every card
//! of a selection measured against its own field, ranked with intervals and a matchup
//! matrix, the outliers flagged (with `--suggest`, confirmed fixes for them). With `--dir`,
//! each card's result is written as soon as it is measured, so a sweep that is interrupted
//! resumes from its files, and shards (`--shard K/N`, card j to shard j mod N + 1) measure
//! disjoint cards into one folder that a run without `--shard` ranks
//! (`crate::balance::sweep`; docs/balance.md, docs/scale.md).

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::{Arc, Mutex};

use clap::{ArgMatches, FromArgMatches};
use serde_json::json;

use super::balance::{RunArgs, ci, pct, rate_json, signed};
use super::limits::MAX_QUERY_CHARS;
use super::load::{iconica_characters, open_catalogue};
use super::options::Sharding;
use super::out::note;
use super::{BadInput, Context, Outcome};
use crate::balance::iconica::{self as bal, Balance, Settings, Standing};
use crate::balance::shard::Ledger;
use crate::balance::sweep::{self, CardResult};
use crate::games::iconica::options::SweepOptions;
use crate::games::registry::{self, Method, Registration};
use crate::sim::shard::{Shard, run_id};

/// The largest card result file read (bytes).
const MAX_CARD_FILE: u64 = 1 << 20;

/// What a sweep takes besides the game's rules and the run's options.
#[derive(Debug, Clone, clap::Args)]
struct SweepArgs {
    /// The selection, in the query language (default: every card of the kinds the game
    /// measures); several words are joined by spaces.
    #[arg(value_name = "QUERY", num_args = 0.., allow_hyphen_values = false)]
    query: Vec<String>,
    /// A folder for each card's result (`<id>.json`, written as it is measured): a sweep
    /// run again with the same folder resumes, and shards share one.
    #[arg(long, value_name = "DIR")]
    dir: Option<PathBuf>,
    /// With --dir: measure only the cards of shard K of N (`auto/N` as `sim --shard`), into
    /// the folder. With --out: play shard K of N of every card's games and write its tally,
    /// which `deckwright merge` adds into the sweep's report.
    #[arg(long, value_name = "K/N")]
    shard: Option<String>,
    /// With --shard: the tally file to write (the sweep's games split, not its cards).
    #[arg(long, value_name = "FILE", requires = "shard", conflicts_with = "dir")]
    out: Option<PathBuf>,
    /// Up to three confirmed fixes for each outlier (a card decided outside 45-55%).
    #[arg(long)]
    suggest: bool,
}

/// `balance sweep`: a subcommand per game whose registration says how its cards are swept.
pub fn command() -> clap::Command {
    let mut cmd = clap::Command::new("sweep")
        .about("Every card of a selection ranked with intervals, a matchup matrix and its outliers (resumable with --dir).")
        .subcommand_required(true)
        .arg_required_else_help(true);
    for (g, b) in registry::balanced() {
        if let Some(args) = b.sweep {
            let sub = args(clap::Command::new(g.name));
            let sub = <SweepArgs as clap::Args>::augment_args(sub);
            let sub = <RunArgs as clap::Args>::augment_args(sub)
                .about(format!(
                    "Every {} card of a selection ({}), each against its own field.",
                    g.title,
                    b.measures.join(", ")
                ))
                .long_about(None);
            cmd = cmd.subcommand(sub);
        }
    }
    cmd
}

/// `--shard K/N --out FILE` of a sweep (its games split, through the ledger), if given.
pub(super) fn tally_sharding(m: &ArgMatches) -> Result<Option<Sharding>, BadInput> {
    let sweep = SweepArgs::from_arg_matches(m).map_err(|e| BadInput(e.to_string()))?;
    let given = sweep.out.is_some();
    Ok(given.then_some(Sharding {
        shard: sweep.shard,
        out: sweep.out,
    }))
}

/// Runs the sweep of the game's [`Method`], its runs played, or recorded or replayed
/// through `ledger`.
pub fn run(
    ctx: &Context,
    game: &Registration,
    m: &ArgMatches,
    ledger: Option<Arc<Mutex<Ledger>>>,
) -> Outcome {
    let parse = |e: clap::Error| BadInput(e.to_string());
    let sweep = SweepArgs::from_arg_matches(m).map_err(parse)?;
    let mut run = RunArgs::from_arg_matches(m).map_err(parse)?;
    if sweep.shard.is_some() && sweep.dir.is_none() && ledger.is_none() {
        return Err(BadInput(
            "--shard: give --dir DIR (the cards split) or --out FILE (the games split)".into(),
        ));
    }
    run.ledger = ledger;
    match game.balance.map(|b| b.method) {
        Some(Method::Field) => {
            let opts = SweepOptions::from_arg_matches(m).map_err(parse)?;
            field(ctx, game, &sweep, &run, &opts)
        }
        _ => Err(BadInput(format!(
            "balance sweep: {} is not swept yet",
            game.name
        ))),
    }
}

/// The card's result file in `dir`.
fn card_file(dir: &Path, id: &str) -> PathBuf {
    let safe: String = id
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    dir.join(format!("{safe}.json"))
}

/// A card's result kept in `dir` for this sweep, if there is one.
fn kept(dir: &Path, id: &str, run_id: &str) -> Option<CardResult> {
    let text =
        crate::safe_io::read_text(&card_file(dir, id), MAX_CARD_FILE, "a sweep file").ok()?;
    let r: CardResult = serde_json::from_str(&text).ok()?;
    r.fits(run_id, id).then_some(r)
}

/// An Iconica sweep: every selected character against its own field.
fn field(
    ctx: &Context,
    game: &Registration,
    sweep: &SweepArgs,
    run: &RunArgs,
    opts: &SweepOptions,
) -> Outcome {
    if run.ai.len() > 1 {
        return Err(BadInput("--ai: a sweep takes one policy".into()));
    }
    let cat = open_catalogue(ctx)?;
    let pool = iconica_characters(&cat)?;
    let text = sweep.query.join(" ");
    if text.chars().count() > MAX_QUERY_CHARS {
        return Err(BadInput(format!(
            "the query is longer than {MAX_QUERY_CHARS} characters"
        )));
    }
    let query_text = format!("game:{} {text}", game.name);
    let query =
        crate::search::parse(&query_text).map_err(|e| BadInput(format!("the query: {e}")))?;
    let hits = cat
        .run_query(&query, None)
        .map_err(|e| BadInput(format!("the query: {e}")))?;
    let can = sweep::measurable(&pool);
    let selected: Vec<usize> = (0..pool.len())
        .filter(|&i| can[i] && hits.iter().any(|h| h.id == pool[i].id))
        .collect();
    if selected.is_empty() {
        return Err(BadInput(format!(
            "no {} of the selection is in a legal party",
            game.balance.map_or("card", |b| b.measured)
        )));
    }
    let settings = Settings {
        rules: opts.rules.rules(),
        ai: run.policy(),
        seed: run.seed,
    };
    let id = run_id(
        &json!({"game": game.name, "sweep": "field", "ai": run.policy().name(), "seed": run.seed,
                "precision": run.precision, "games": run.max_games, "rules": opts.rules,
                "selection": selected.iter().map(|&i| &pool[i].id).collect::<Vec<_>>()}),
        game.engine,
        &format!("{pool:?}"),
    );
    // A tally shard (through the ledger) splits every card's games, not the cards.
    let shard = match sweep.shard.as_ref().filter(|_| run.ledger.is_none()) {
        Some(t) => Some(
            Shard::parse(t, |k| std::env::var(k).ok())
                .map_err(|e| BadInput(format!("--shard {e}")))?,
        ),
        None => None,
    };
    if let Some(dir) = &sweep.dir {
        std::fs::create_dir_all(dir).map_err(|e| BadInput(format!("{}: {e}", dir.display())))?;
    }
    let runner = run.runner()?;
    let mut results = Vec::new();
    let (mut reused, mut measured) = (0, 0);
    for (j, &i) in selected.iter().enumerate() {
        let card = &pool[i];
        if let Some(r) = sweep.dir.as_deref().and_then(|d| kept(d, &card.id, &id)) {
            reused += 1;
            results.push(r);
            continue;
        }
        if shard.is_some_and(|s| sweep::shard_of(j, s.n) != s.k) {
            continue;
        }
        let r = sweep::measure(&pool, i, settings, &runner, &id)
            .map_err(|e| BadInput(format!("{}: {e}", card.id)))?;
        measured += 1;
        if let Some(dir) = &sweep.dir {
            let text = serde_json::to_string_pretty(&r).map_err(|e| BadInput(e.to_string()))?;
            let path = card_file(dir, &card.id);
            crate::safe_io::write_atomic(&path, format!("{text}\n").as_bytes())
                .map_err(|e| BadInput(format!("{}: {e}", path.display())))?;
        }
        results.push(r);
    }
    let left = selected.len() - results.len();
    if shard.is_some() || left > 0 {
        let s = shard.map_or(String::new(), |s| format!("shard {}/{} ", s.k, s.n));
        let done = format!(
            "{s}of sweep {id}: {measured} measured, {reused} kept, {} of {} cards done{}",
            results.len(),
            selected.len(),
            if left > 0 {
                "; run it again without --shard when every shard is done, to rank them"
            } else {
                "; run it again without --shard to rank them"
            }
        );
        if run.json {
            ctx.out
                .json(&json!({"run_id": id, "measured": measured, "kept": reused,
                                 "done": results.len(), "cards": selected.len()}));
        } else {
            writeln!(&ctx.out, "{done}");
        }
        return Ok(ExitCode::SUCCESS);
    }
    if reused > 0 {
        note!(
            "{reused} of {} cards read from --dir (sweep {id})",
            selected.len()
        );
    }
    report(
        ctx, game, &text, sweep, run, &pool, settings, &runner, &id, &results,
    )
}

/// The ranking, the outliers (with their fixes under --suggest) and the matrix.
#[allow(clippy::too_many_arguments)]
fn report(
    ctx: &Context,
    game: &Registration,
    query: &str,
    sweep: &SweepArgs,
    run: &RunArgs,
    pool: &[crate::games::iconica::model::Character],
    settings: Settings,
    runner: &crate::balance::Runner<'_>,
    id: &str,
    results: &[CardResult],
) -> Outcome {
    let rows = sweep::rank(results);
    let (columns, cells) = sweep::matrix(&rows, results);
    let mut fixes = Vec::new();
    for row in rows.iter().filter(|r| r.outlier()) {
        let mut list = Vec::new();
        if sweep.suggest
            && let Some(card) = pool.iter().find(|c| c.id == row.id)
        {
            let mut b = Balance::new(pool, card, None, settings, runner)
                .map_err(|e| BadInput(format!("{}: {e}", row.id)))?;
            let rate = b.rate().map_err(|e| BadInput(format!("{}: {e}", row.id)))?;
            list = b
                .suggest(&rate)
                .map_err(|e| BadInput(format!("{}: {e}", row.id)))?;
        }
        fixes.push((row, list));
    }
    let ai = run.policy().name();
    let out = &ctx.out;
    if run.json {
        out.json(&json!({
            "game": game.name,
            "sweep": true,
            "query": query,
            "ai": ai,
            "seed": run.seed,
            "precision": run.precision,
            "draws": "half a win",
            "run_id": id,
            "cards": rows.iter().map(|r| {
                let mut v = rate_json(&r.rate);
                v["id"] = json!(r.id);
                v["name"] = json!(r.name);
                v["rank"] = json!({"position": r.position, "of": rows.len(), "interval": [r.interval.0, r.interval.1]});
                v["verdict"] = json!(r.standing.as_str());
                v["decided"] = json!(r.standing.decided());
                v["outlier"] = json!(r.outlier());
                v
            }).collect::<Vec<_>>(),
            "outliers": fixes.iter().map(|(r, list)| json!({
                "id": r.id, "verdict": r.standing.as_str(),
                "suggestions": list.iter().map(|s| json!({
                    "change": s.change, "diff": s.diff, "games": s.measured.games,
                    "win_rate": s.measured.other.win_rate, "ci95": ci(s.measured.other.ci95),
                })).collect::<Vec<_>>(),
            })).collect::<Vec<_>>(),
            "matrix": {"columns": columns, "rows": rows.iter().zip(&cells).map(|(r, c)| json!({
                "id": r.id, "win_rates": c,
            })).collect::<Vec<_>>()},
        }));
        return Ok(ExitCode::SUCCESS);
    }
    writeln!(
        out,
        "sweep of {} {} characters{}, each against its own field; both sides played by {ai}, seed {}; draws count as half a win",
        rows.len(),
        game.title,
        if query.is_empty() {
            String::new()
        } else {
            format!(" ({query})")
        },
        run.seed
    );
    writeln!(
        out,
        "{:>4}  {:<28} {:>7} {:>8}  {:<18} {:>7}  verdict",
        "rank", "card", "games", "win rate", "95% CI", "may be"
    );
    for r in &rows {
        writeln!(
            out,
            "{:>4}  {:<28} {:>7} {:>8}  {:<18} {:>7}  {}",
            r.position,
            r.name,
            r.rate.games,
            pct(r.rate.win_rate),
            format!("{} to {}", pct(r.rate.ci95.0), pct(r.rate.ci95.1)),
            format!("{}-{}", r.interval.0, r.interval.1),
            r.standing.as_str().replace('_', " ")
        );
    }
    if fixes.is_empty() {
        writeln!(
            out,
            "\nno outlier: no card is decided outside {} to {}",
            pct(bal::FAIR.0),
            pct(bal::FAIR.1)
        );
    } else {
        writeln!(
            out,
            "\noutliers (decided outside {} to {}):",
            pct(bal::FAIR.0),
            pct(bal::FAIR.1)
        );
        for (r, list) in &fixes {
            let toward = if r.standing == Standing::TooStrong {
                "weaker"
            } else {
                "stronger"
            };
            writeln!(
                out,
                "  {} {}: {}; {}",
                r.name,
                pct(r.rate.win_rate),
                r.standing.as_str().replace('_', " "),
                if sweep.suggest {
                    if list.is_empty() {
                        "no small change was confirmed within 45-55%".to_string()
                    } else {
                        format!("{} confirmed fixes", list.len())
                    }
                } else {
                    format!("make it {toward} (--suggest finds confirmed fixes)")
                }
            );
            for s in list {
                writeln!(
                    out,
                    "    suggestion: {} -> {} ({} pts), paired over {} games",
                    s.change,
                    pct(s.measured.other.win_rate),
                    signed(s.measured.delta),
                    s.measured.games
                );
            }
        }
    }
    writeln!(
        out,
        "\nmatchup matrix (the row's win rate against a party with the column's character; - no game):"
    );
    for (k, c) in columns.iter().enumerate() {
        writeln!(out, "  {:>3} {c}", k + 1);
    }
    let head: Vec<String> = (1..=columns.len()).map(|k| format!("{k:>4}")).collect();
    writeln!(out, "{:<28} {}", "", head.join(""));
    for (r, c) in rows.iter().zip(&cells) {
        let line: Vec<String> = c
            .iter()
            .map(|x| x.map_or(format!("{:>4}", "-"), |x| format!("{:>4.0}", x * 100.0)))
            .collect();
        writeln!(out, "{:<28} {}", r.name, line.join(""));
    }
    Ok(ExitCode::SUCCESS)
}
