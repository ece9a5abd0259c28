//! `deckwright sim iconoclasm --players N`: many seeded AI games (a fresh deal each), wins per
//! player or, solo, how often the goal is met. Same seed, games and AI: same counts at any
//! thread count.

use std::process::ExitCode;
use std::time::Instant;

use serde_json::json;

use super::{bar, run_tally};
use crate::cli::load::iconoclasm_deck;
use crate::cli::options::{IconoclasmTable, SimShared};
use crate::cli::{Context, Outcome};
use crate::games::game::{Outcome as MatchOutcome, Verdict};
use crate::games::iconoclasm::engine::IconoclasmEnding;
use crate::sim::{iconoclasm::Run, wilson};

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    pub table: IconoclasmTable,
    #[command(flatten)]
    pub shared: SimShared,
}

pub fn run(ctx: &Context, args: Args) -> Outcome {
    let players = args.table.players;
    let goal = args.table.goal()?;
    let policies = args.shared.policies(players);
    let (deck, table) = iconoclasm_deck(ctx)?;
    let run = Run {
        deck,
        table,
        players,
        goal,
        policies,
    };
    let seed = args.shared.seed;
    // A deal that cannot be made fails on the first game; check it once up front.
    run.outcome(seed, 0)?;

    let pbar = bar(args.shared.games);
    let started = Instant::now();
    let s = run_tally(&args.shared, args.shared.games, &pbar, |i| {
        play_one(&run, seed, i)
    })?;
    pbar.finish_and_clear();
    let gps = s.games as f64 / started.elapsed().as_secs_f64().max(1e-9);
    let names: Vec<String> = run.policies.iter().map(|p| p.name()).collect();
    let seats = if players == 1 { 1 } else { players as usize };
    let rate = |k: u64| {
        if s.games == 0 {
            0.0
        } else {
            k as f64 / s.games as f64
        }
    };
    let out = &ctx.out;
    if args.shared.json {
        let mut wins = serde_json::Map::new();
        for p in 0..seats {
            wins.insert((p + 1).to_string(), json!(s.wins[p]));
        }
        let mut doc = json!({
            "game": "iconoclasm",
            "players": players,
            "games": s.games,
            "seed": seed,
            "ai": names,
            "wins": wins,
            "win_rates": (0..seats).map(|p| rate(s.wins[p])).collect::<Vec<_>>(),
            "ci95": (0..seats).map(|p| { let (lo, hi) = wilson(s.wins[p], s.games, 1.96); [lo, hi] }).collect::<Vec<_>>(),
            "mean_turns": s.mean_turns(),
            "games_per_sec": gps,
        });
        if players == 1
            && let Some(m) = doc.as_object_mut()
        {
            m.insert("goal".into(), json!(goal.name()));
            m.insert("goal_met".into(), json!(s.wins[0]));
        }
        out.json(&doc);
    } else {
        writeln!(
            out,
            "iconoclasm: {}, {}, seed {}, ai {}",
            crate::count(s.games, "game", "games"),
            crate::count(u64::from(players), "player", "players"),
            seed,
            names.join(", ")
        );
        if players == 1 {
            let (lo, hi) = wilson(s.wins[0], s.games, 1.96);
            writeln!(
                out,
                "  goal {} met {:>7}  {:.1}% (95% CI {:.1}% to {:.1}%)",
                goal.name(),
                s.wins[0],
                rate(s.wins[0]) * 100.0,
                lo * 100.0,
                hi * 100.0
            );
        } else {
            for p in 0..seats {
                let (lo, hi) = wilson(s.wins[p], s.games, 1.96);
                writeln!(
                    out,
                    "  player {} wins {:>7}  {:.1}% (95% CI {:.1}% to {:.1}%)",
                    p + 1,
                    s.wins[p],
                    rate(s.wins[p]) * 100.0,
                    lo * 100.0,
                    hi * 100.0
                );
            }
        }
        writeln!(
            out,
            "  mean turns {:.1}; {:.0} games/s",
            s.mean_turns(),
            gps
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// Game `index` of a run seeded `seed` (a deal that cannot be made counts as no result; the
/// first game's deal is checked before the run).
fn play_one(run: &Run, seed: u64, index: u64) -> MatchOutcome<IconoclasmEnding> {
    // The first game was dealt before the run: every deal of these cards succeeds.
    run.outcome(seed, index).unwrap_or(MatchOutcome {
        verdict: Verdict::NoResult,
        ended: IconoclasmEnding::Incomplete,
        turns: 0,
    })
}
