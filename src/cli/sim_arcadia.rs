//! `deckwright sim arcadia SETUP.setup.toml`: many AI-vs-AI Arcadia quests in parallel.

use std::process::ExitCode;
use std::time::Instant;

use serde_json::json;

use super::play::{open_catalogue, policy_from};
use super::play_arcadia::load_match;
use super::sim::{bar, ended_json, pct, Args};
use super::{BadInput, Context, Outcome};
use crate::sim::{self, arcadia::ENDINGS};

pub fn run(ctx: &Context, args: Args) -> Outcome {
    if args.files.len() != 1 {
        return Err(BadInput(format!("sim arcadia needs one quest setup file (`*.setup.toml`), got {}", args.files.len())));
    }
    if args.field || !args.pool.is_empty() {
        return Err(BadInput("--field and --pool are Iconica options".into()));
    }
    let r = &args.rules;
    if r.ruleset != "v2" || r.breaks != "standard" || !r.house.is_empty() {
        return Err(BadInput("--ruleset, --breaks and --house are Iconica options; Arcadia has none".into()));
    }
    if r.turn_limit == 0 {
        return Err(BadInput("--turn-limit must be at least 1".into()));
    }
    if args.games == 0 {
        return Err(BadInput("--games must be at least 1".into()));
    }
    if args.threads == Some(0) {
        return Err(BadInput("--threads must be at least 1".into()));
    }
    let pa = policy_from("--ai-a", args.ai_a.as_deref().unwrap_or(&args.ai))?;
    let pb = policy_from("--ai-b", args.ai_b.as_deref().unwrap_or(&args.ai))?;
    let cat = open_catalogue(ctx)?;
    let m = load_match(&cat, &args.files[0], r.turn_limit)?;
    let pbar = bar(args.games);
    let started = Instant::now();
    let s = sim::run(
        args.games,
        args.threads,
        |i| sim::arcadia::play_one(&m, pa, pb, args.seed, i),
        |n| pbar.inc(n),
    )
    .map_err(|e| BadInput(format!("--threads: {e}")))?;
    pbar.finish_and_clear();
    let secs = started.elapsed().as_secs_f64().max(1e-9);
    let gps = s.games as f64 / secs;
    let (lo, hi) = s.ci95_a();
    if args.json {
        let doc = json!({
            "game": "arcadia",
            "games": s.games,
            "seed": args.seed,
            "ai": {"a": pa.name(), "b": pb.name()},
            "wins": {"a": s.wins[0], "b": s.wins[1], "draw": s.wins[2]},
            "win_rate_a": s.win_rate_a(),
            "ci95_a": [lo, hi],
            "mean_turns": s.mean_turns(),
            "games_per_sec": gps,
            "ended": ended_json(&s),
        });
        println!("{doc}");
    } else {
        println!("arcadia: {} games, seed {}, {} (a) vs {} (b)", s.games, args.seed, pa.name(), pb.name());
        println!("  a wins {:>7}  {} (95% CI {} to {})", s.wins[0], pct(s.win_rate_a()), pct(lo), pct(hi));
        println!("  b wins {:>7}", s.wins[1]);
        println!("  draws  {:>7}", s.wins[2]);
        println!("  mean Days {:.1}; {:.0} games/s", s.mean_turns(), gps);
        let ends: Vec<String> = ENDINGS.iter().zip(s.ended).map(|(n, c)| format!("{n} {c}")).collect();
        println!("  ended: {}", ends.join(", "));
    }
    Ok(ExitCode::SUCCESS)
}
