//! `balance iconica CARD --no-rank --no-impact --shard K/N --out FILE`: shard K of N of a
//! card's field run (its block of `--max-games` game indices, each game's score kept), and
//! `deckwright merge` of such tallies: the scores put back in order, the run's own stopping
//! rule applied, and the report printed by the same code as the single run's, so the merged
//! report is the single run's byte for byte (`crate::balance::shard`).

use std::process::ExitCode;
use std::time::Instant;

use clap::Parser;
use serde_json::{Value, json};

use super::balance::{IconicaArgs, Parsed, to_json, write_text};
use super::{BadInput, Context, Outcome};
use crate::balance::Runner;
use crate::balance::iconica::{self as bal, Balance, MatchupIndex, Report, Settings};
use crate::balance::shard::{self, ScoreFile};
use crate::games::iconica::model::Character;
use crate::games::registry::Method;
use crate::sim::shard::{Shard, run_id};

/// The options of a balance run that do not change its report (left out of the words a
/// tally keeps): the shard, its file, the threads, JSON.
const NOT_KEPT: [&str; 3] = ["--shard", "--out", "--threads"];

/// The words after `balance` on this command line, less the shard's, the threads and
/// `--json`: what `merge` parses again to print the report.
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

/// The run id of a card's field run: its card and field (every number), the rules, the
/// policy, the seed, the stopping rule and the games.
pub(super) fn iconica_run_id(
    args: &IconicaArgs,
    pool: &[Character],
    card: &Character,
    opponents: Option<&[Vec<Character>]>,
) -> String {
    let run = json!({
        "game": "iconica", "measure": "field", "card": card.id, "ai": args.run.policy().name(),
        "seed": args.run.seed, "precision": args.run.precision, "games": args.run.max_games,
        "rules": args.rules,
    });
    let cards = format!("{card:?}\n{pool:?}\n{opponents:?}");
    run_id(&run, crate::games::iconica::matchfile::ENGINE, &cards)
}

/// Plays this process's shard of the card's field run and writes its tally.
pub(super) fn iconica(
    ctx: &Context,
    args: &IconicaArgs,
    pool: &[Character],
    card: &Character,
    opponents: Option<&[Vec<Character>]>,
    settings: Settings,
    runner: &Runner<'_>,
) -> Outcome {
    if !(args.no_rank && args.no_impact) || args.suggest || args.sprt || args.run.ai.len() > 1 {
        return Err(BadInput(
            "--shard: a sharded balance run measures the card's verdict and matchups; add --no-rank --no-impact and leave out --suggest, --sprt and several --ai".into(),
        ));
    }
    let (Some(text), Some(path)) = (&args.sharding.shard, &args.sharding.out) else {
        return Err(BadInput("--shard K/N takes --out FILE".into()));
    };
    let sh = Shard::parse(text, |k| std::env::var(k).ok())
        .map_err(|e| BadInput(format!("--shard {e}")))?;
    let games = args.run.max_games;
    let range = sh.range(games);
    let b = Balance::new(pool, card, opponents, settings, runner)
        .map_err(|e| BadInput(format!("{}: {e}", args.card)))?;
    let started = Instant::now();
    let scores = b
        .scores_in(range.start, range.end)
        .map_err(|e| BadInput(format!("{}: {e}", args.card)))?;
    let seconds = started.elapsed().as_secs_f64();
    let id = iconica_run_id(args, pool, card, opponents);
    let file = ScoreFile {
        kind: shard::KIND.into(),
        format: shard::FORMAT,
        run_id: id.clone(),
        shard: sh,
        range: [range.start, range.end],
        seconds,
        run: json!({
            "game": "iconica",
            "games": games,
            "card": card.id,
            "name": card.name,
            "words": kept_words(),
            "field": [b.field.mine.len(), b.field.theirs.len(), b.field.pairings()],
            "matchups": b.field.matchup_index(),
        }),
        scores: shard::encode(&scores),
    };
    let text = serde_json::to_string(&file).map_err(|e| BadInput(e.to_string()))?;
    crate::safe_io::write_atomic(path, format!("{text}\n").as_bytes())
        .map_err(|e| BadInput(format!("{}: {e}", path.display())))?;
    if args.run.json {
        ctx.out.json(&json!({
            "run_id": id,
            "shard": format!("{}/{}", sh.k, sh.n),
            "games": [range.start, range.end],
            "out": path.display().to_string(),
        }));
    } else {
        writeln!(
            &ctx.out,
            "shard {}/{} of run {id}: games {} to {} written to {}",
            sh.k,
            sh.n,
            range.start,
            range.end.saturating_sub(1),
            path.display()
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// The report of a card's field run from its shards' scores, as the single run prints it.
pub fn print_merged(ctx: &Context, m: &shard::Merged, json: bool) -> Outcome {
    let damaged = |why: &str| BadInput(format!("the tallies' run is damaged: {why}"));
    let words: Vec<String> =
        serde_json::from_value(m.run["words"].clone()).map_err(|_| damaged("no command line"))?;
    let line = std::iter::once("deckwright".to_string())
        .chain(std::iter::once("balance".to_string()))
        .chain(words);
    let cli = super::Cli::try_parse_from(line).map_err(|e| damaged(&e.to_string()))?;
    let Some(super::Command::Balance(a)) = cli.command else {
        return Err(damaged("not a balance run"));
    };
    if a.game.balance.map(|b| b.method) != Some(Method::Field) {
        return Err(damaged("not a field run"));
    }
    let mut args: IconicaArgs = Parsed::of(&a.matches)?;
    args.run.json = json;
    let ix: MatchupIndex = serde_json::from_value(m.run["matchups"].clone())
        .map_err(|_| damaged("no matchup index"))?;
    let field: (usize, usize, usize) =
        serde_json::from_value(m.run["field"].clone()).map_err(|_| damaged("no field"))?;
    let (id, name) = (
        m.run["card"].as_str().unwrap_or_default(),
        m.run["name"].as_str().unwrap_or_default(),
    );
    if m.scores.len() as u64 != args.run.max_games {
        return Err(damaged("its games are not --max-games"));
    }
    // The single run's stopping rule over the merged scores: every game it would play is
    // there, so nothing is played here.
    let runner = Runner::new(Some(1), args.run.runner()?.stopping, &bal::NEVER)
        .map_err(|e| BadInput(e.to_string()))?;
    let rate = runner
        .rate(&mut m.scores.clone(), &|_| 1)
        .map_err(|e| BadInput(e.to_string()))?;
    let report = Report {
        rate,
        rank: None,
        matchups: bal::matchups_of(&ix, args.run.seed, &m.scores[..rate.games as usize]),
        impact: Vec::new(),
        suggestions: Vec::new(),
        field,
    };
    if json {
        ctx.out
            .json(&to_json((id, name), &args, &report, &m.run_id));
    } else {
        write_text(ctx, (id, name), &args, &report);
    }
    Ok(ExitCode::SUCCESS)
}

/// Whether a tally file's text is a balance tally (rather than `sim`'s).
pub fn is_balance_tally(v: &Value) -> bool {
    v.get("kind").and_then(Value::as_str) == Some(shard::KIND)
}
