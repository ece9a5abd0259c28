//! `deckwright sim ruunara MISSION SQUAD --games N`: many seeded missions in parallel, the
//! squad played by a policy and the enemies by the rules: the heroes' win rate with its 95%
//! Wilson interval, the endings and the mean rounds. Same seed, games and AI: same counts at
//! any thread count (game i is seeded from (seed, i)).

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use serde_json::json;

use super::{bar, pct, threads_of};
use crate::cli::load::{open_catalogue, ruunara_scenario};
use crate::cli::options::SoloSim;
use crate::cli::{BadInput, Context, Outcome};
use crate::games::dice::{RngDice, game_seed};
use crate::games::ruunara::engine::{RuunaraEnding, RuunaraGame, Setup};
use crate::sim::{self, Tally};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The mission file (`*.mission.toml`).
    pub mission: PathBuf,
    /// The squad file (`*.squad.toml`).
    pub squad: PathBuf,
    #[command(flatten)]
    pub shared: SoloSim,
}

pub fn run(ctx: &Context, args: Args) -> Outcome {
    let cat = open_catalogue(ctx)?;
    let scenario = ruunara_scenario(&cat, &args.mission, &args.squad)?;
    let setup =
        Setup::new(&scenario).map_err(|e| BadInput(format!("{}: {e}", args.mission.display())))?;
    let shared = &args.shared;
    let (seed, policy) = (shared.seed, shared.ai);
    crate::cli::options::check_ruunara_search("--ai", policy, setup.figs.len())?;

    let pbar = bar(shared.games);
    let started = Instant::now();
    let never = AtomicBool::new(false);
    let t: Tally<RuunaraEnding> = sim::run_tally(
        shared.games,
        threads_of(shared.threads),
        |i| {
            let s = game_seed(seed, i);
            sim::play_seeded(RuunaraGame::new(&setup), RngDice::new(s), &[policy], s)
        },
        |n| pbar.inc(n),
        &never,
    )
    .map_err(|e| BadInput(format!("--threads: {e}")))?
    .unwrap_or_default();
    pbar.finish_and_clear();
    let gps = t.games as f64 / started.elapsed().as_secs_f64().max(1e-9);
    let (rate, (lo, hi)) = t.win_rate(0);
    let out = &ctx.out;
    if shared.json {
        let mut ended = serde_json::Map::new();
        for (name, n) in t.endings() {
            ended.insert(name.to_string(), json!(n));
        }
        out.json(&json!({
            "game": "ruunara",
            "mission": setup.id,
            "games": t.games,
            "seed": seed,
            "ai": policy.name(),
            "wins": {"heroes": t.wins[0], "enemies": t.wins[1], "no_result": t.no_result},
            "win_rate_heroes": rate,
            "ci95_heroes": [lo, hi],
            "mean_rounds": t.mean_turns(),
            "mean_turns": t.mean_turns(),
            "games_per_sec": gps,
            "ended": ended,
        }));
    } else {
        writeln!(
            out,
            "ruunara: {} ({}), {}, seed {seed}, squad played by {}",
            setup.name,
            setup.id,
            crate::count(t.games, "game", "games"),
            policy.name()
        );
        writeln!(
            out,
            "  heroes win {:>7}  {} (95% CI {} to {})",
            t.wins[0],
            pct(rate),
            pct(lo),
            pct(hi)
        );
        writeln!(out, "  heroes lose {:>6}", t.wins[1]);
        writeln!(
            out,
            "  mean rounds {:.1}; {:.0} games/s",
            t.mean_turns(),
            gps
        );
        let ends: Vec<String> = t.endings().map(|(n, c)| format!("{n} {c}")).collect();
        writeln!(out, "  ended: {}", ends.join(", "));
    }
    Ok(ExitCode::SUCCESS)
}
