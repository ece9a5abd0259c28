//! `deckwright sim iconoclasm --players N`: many seeded AI games (a fresh deal each), wins per
//! player or, solo, how often the goal is met. Same seed, games and AI: same counts at any
//! thread count.

use std::process::ExitCode;
use std::time::Instant;

use serde_json::json;

use super::sim::{bar, Args};
use super::{BadInput, Context, Outcome};
use crate::sim::{self, iconoclasm::Run, wilson};

pub fn run(ctx: &Context, args: &Args) -> Outcome {
    if let Some(f) = args.files.first() {
        return Err(BadInput(format!("iconoclasm takes no file (got {}); use --players N", f.display())));
    }
    if args.field || !args.pool.is_empty() {
        return Err(BadInput("--field and --pool are iconica options".into()));
    }
    args.rules.none_for_iconoclasm()?;
    args.check_counts()?;
    let (players, goal) = args.iconoclasm.players_and_goal()?;
    let policies = args.policies(players)?;
    let (deck, table) = super::play_iconoclasm::deck_and_table(ctx)?;
    let run = Run { deck, table, players, goal, policies };
    // A deal that cannot be made fails on the first game; check it once up front.
    run.play_one(args.seed, 0)?;

    let pbar = bar(args.games);
    let started = Instant::now();
    let s = sim::run(
        args.games,
        args.threads,
        |i| run.play_one(args.seed, i).unwrap_or(sim::MatchResult { outcome: 3, turns: 0, ended: 0 }),
        |n| pbar.inc(n),
    )
    .map_err(|e| BadInput(format!("--threads: {e}")))?;
    pbar.finish_and_clear();
    let gps = s.games as f64 / started.elapsed().as_secs_f64().max(1e-9);
    let names: Vec<String> = run.policies.iter().map(|p| p.name()).collect();
    let seats = if players == 1 { 1 } else { players as usize };
    let rate = |k: u64| if s.games == 0 { 0.0 } else { k as f64 / s.games as f64 };
    if args.json {
        let mut wins = serde_json::Map::new();
        for p in 0..seats {
            wins.insert((p + 1).to_string(), json!(s.wins[p]));
        }
        let mut doc = json!({
            "game": "iconoclasm",
            "players": players,
            "games": s.games,
            "seed": args.seed,
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
        println!("{doc}");
    } else {
        println!("iconoclasm: {} games, {} player(s), seed {}, ai {}", s.games, players, args.seed, names.join(", "));
        if players == 1 {
            let (lo, hi) = wilson(s.wins[0], s.games, 1.96);
            println!(
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
                println!(
                    "  player {} wins {:>7}  {:.1}% (95% CI {:.1}% to {:.1}%)",
                    p + 1,
                    s.wins[p],
                    rate(s.wins[p]) * 100.0,
                    lo * 100.0,
                    hi * 100.0
                );
            }
        }
        println!("  mean turns {:.1}; {:.0} games/s", s.mean_turns(), gps);
    }
    Ok(ExitCode::SUCCESS)
}
