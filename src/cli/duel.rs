//! `deckwright duel ruunara A B... [--games N] [--seed S] [--json]`: figure A engaged in close
//! combat with figures B..., played round by round by the engine with capture and execution,
//! many times: the chance of each ending and the mean rounds (`spec/ruunara.md`).

use std::process::ExitCode;

use serde_json::json;

use super::limits::MAX_DUEL_GAMES;
use super::load::open_catalogue;
use super::{BadInput, Context, Outcome};
use crate::cards::CardLookup;
use crate::games::ruunara::duel::{DuelEnd, duel};
use crate::games::ruunara::model::Figure;
use crate::games::ruunara::rules::resolve_member;
use crate::sim::wilson;

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(subcommand)]
    pub game: Game,
}

/// The games with a duel.
#[derive(Debug, clap::Subcommand)]
pub enum Game {
    /// Figure A in close combat with figures B... (card ids or exact names, any faction).
    Ruunara(RuunaraArgs),
}

#[derive(Debug, clap::Args)]
pub struct RuunaraArgs {
    /// Figure A: a Ruunara card id or exact name.
    pub a: String,
    /// The figures engaged with A (one or more; the same card may be given twice).
    #[arg(required = true)]
    pub b: Vec<String>,
    /// How many duels.
    #[arg(long, value_name = "N", default_value_t = 10_000,
          value_parser = clap::value_parser!(u32).range(1..=i64::from(MAX_DUEL_GAMES)))]
    pub games: u32,
    /// Seed of the run: duel i rolls from (seed, i).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Print JSON on stdout.
    #[arg(long)]
    pub json: bool,
}

pub fn run(ctx: &Context, args: Args) -> Outcome {
    match args.game {
        Game::Ruunara(a) => ruunara(ctx, a),
    }
}

fn figure(lookup: &dyn CardLookup, entry: &str) -> Result<Figure, BadInput> {
    resolve_member(lookup, entry).map_err(BadInput)
}

fn ruunara(ctx: &Context, args: RuunaraArgs) -> Outcome {
    let cat = open_catalogue(ctx)?;
    let a = figure(&cat, &args.a)?;
    let bs: Vec<Figure> = args
        .b
        .iter()
        .map(|b| figure(&cat, b))
        .collect::<Result<_, _>>()?;
    if let Some(e) = cat.take_error() {
        return Err(BadInput(format!("cannot read the catalogue's cards: {e}")));
    }
    let report = duel(&a, &bs, args.games, args.seed).map_err(|e| BadInput(e.to_string()))?;
    let n = u64::from(report.games);
    let out = &ctx.out;
    if args.json {
        let mut endings = serde_json::Map::new();
        for (e, &k) in DuelEnd::ALL.iter().zip(&report.counts) {
            let (lo, hi) = wilson(u64::from(k), n, 1.96);
            endings.insert(
                e.name().to_string(),
                json!({"count": k, "chance": report.chance(*e), "ci95": [lo, hi]}),
            );
        }
        out.json(&json!({
            "game": "ruunara",
            "a": a.id,
            "b": bs.iter().map(|b| b.id.as_str()).collect::<Vec<_>>(),
            "games": report.games,
            "seed": args.seed,
            "endings": endings,
            "mean_rounds": report.mean_rounds(),
        }));
    } else {
        let names: Vec<String> = bs
            .iter()
            .map(|b| format!("{} ({})", b.name, b.id))
            .collect();
        writeln!(
            out,
            "duel: {} ({}) against {}; {} duels, seed {}",
            a.name,
            a.id,
            names.join(", "),
            report.games,
            args.seed
        );
        for (e, &k) in DuelEnd::ALL.iter().zip(&report.counts) {
            let (lo, hi) = wilson(u64::from(k), n, 1.96);
            writeln!(
                out,
                "  {:<22} {:>7}  {:>5.1}% (95% CI {:.1}% to {:.1}%)",
                e.name(),
                k,
                report.chance(*e) * 100.0,
                lo * 100.0,
                hi * 100.0
            );
        }
        writeln!(out, "  mean rounds {:.2}", report.mean_rounds());
    }
    Ok(ExitCode::SUCCESS)
}
