//! `deckwright sim ruunara MISSION SQUAD --games N`: many seeded missions in parallel, the
//! squad played by a policy and the enemies by the rules: the heroes' win rate with its 95%
//! Wilson interval, the endings and the mean rounds. Same seed, games and AI: same counts at
//! any thread count (game i is seeded from (seed, i)).

use std::process::ExitCode;

use clap::ArgMatches;

use serde_json::json;

use super::{Report, parsed, pct, run_sharded, threads_of};
use crate::cli::load::{open_catalogue, ruunara_deployed};
use crate::cli::options::SoloSim;
use crate::cli::{BadInput, Context, Outcome};
use crate::games::dice::{RngDice, game_seed};
use crate::games::ruunara::engine::{RuunaraEnding, RuunaraGame, Setup};
use crate::games::ruunara::options::RuunaraOptions;
use crate::sim;

pub fn run(ctx: &Context, m: &ArgMatches) -> Outcome {
    let options: RuunaraOptions = parsed(m)?;
    let shared: SoloSim = parsed(m)?;
    let cat = open_catalogue(ctx)?;
    let (scenario, source) = ruunara_deployed(&cat, &options.mission, &options.squad)?;
    crate::cli::report::say_gaps(&source.cards);
    let setup = Setup::new(&scenario)
        .map_err(|e| BadInput(format!("{}: {e}", options.mission.display())))?;
    let shared = &shared;
    let (seed, policy) = (shared.seed, shared.ai);
    crate::games::ruunara::options::check_search("--ai", policy, setup.figs.len())?;

    let desc = Desc {
        game: "ruunara".into(),
        games: shared.games,
        seed,
        ai: policy.name(),
        mission: setup.id.clone(),
        name: setup.name.clone(),
    };
    run_sharded(
        ctx,
        &shared.sharding,
        threads_of(shared.threads),
        shared.json,
        json!(desc),
        crate::games::ruunara::matchfile::ENGINE,
        &format!("{setup:?}"),
        |i| {
            let s = game_seed(seed, i);
            sim::play_seeded(RuunaraGame::new(&setup), RngDice::new(s), &[policy], s)
        },
        print,
    )
}

/// How a Ruunara run describes itself.
#[derive(Debug, serde::Serialize, serde::Deserialize)]
struct Desc {
    game: String,
    games: u64,
    seed: u64,
    ai: String,
    /// The mission's id and name.
    mission: String,
    name: String,
}

/// The report of a Ruunara run.
pub fn print(ctx: &Context, r: &Report<'_, RuunaraEnding>) -> Outcome {
    let d: Desc = serde_json::from_value(r.run.clone())
        .map_err(|e| BadInput(format!("the run's description: {e}")))?;
    let (t, seed, gps) = (r.t, d.seed, r.games_per_sec);
    let (rate, (lo, hi)) = t.win_rate(0);
    let out = &ctx.out;
    if r.json {
        let mut ended = serde_json::Map::new();
        for (name, n) in t.endings() {
            ended.insert(name.to_string(), json!(n));
        }
        out.json(&json!({
            "game": "ruunara",
            "mission": d.mission,
            "games": t.games,
            "seed": seed,
            "ai": d.ai,
            "wins": {"heroes": t.wins[0], "enemies": t.wins[1], "no_result": t.no_result},
            "win_rate_heroes": rate,
            "ci95_heroes": [lo, hi],
            "mean_rounds": t.mean_turns(),
            "mean_turns": t.mean_turns(),
            "games_per_sec": gps,
            "ended": ended,
            "run_id": r.run_id,
        }));
    } else {
        writeln!(
            out,
            "ruunara: {} ({}), {}, seed {seed}, squad played by {}",
            d.name,
            d.mission,
            crate::count(t.games, "game", "games"),
            d.ai
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
