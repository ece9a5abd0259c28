//! `deckwright sim iconoclasm --players N`: many seeded AI games (a fresh deal each), wins per
//! player or, solo, how often the goal is met. Same seed, games and AI: same counts at any
//! thread count.

use std::process::ExitCode;

use serde_json::json;

use clap::ArgMatches;

use super::{Report, parsed, run_sharded};
use crate::cli::load::iconoclasm_deck;
use crate::cli::options::SimShared;
use crate::cli::{BadInput, Context, Outcome};
use crate::games::game::MAX_SEATS;
use crate::games::game::{Outcome as MatchOutcome, Verdict};
use crate::games::iconoclasm::engine::IconoclasmEnding;
use crate::games::iconoclasm::options::IconoclasmOptions;
use crate::sim::{iconoclasm::Run, wilson};

pub fn run(ctx: &Context, m: &ArgMatches) -> Outcome {
    let table: IconoclasmOptions = parsed(m)?;
    let shared: SimShared = parsed(m)?;
    let players = table.players;
    let goal = table.goal()?;
    let policies = shared.policies(players);
    let (deck, table) = iconoclasm_deck(ctx)?;
    let run = Run {
        deck,
        table,
        players,
        goal,
        policies,
    };
    let seed = shared.seed;
    // A deal that cannot be made fails on the first game; check it once up front.
    run.outcome(seed, 0)?;

    let names: Vec<String> = run.policies.iter().map(|p| p.name()).collect();
    let desc = Desc {
        game: "iconoclasm".into(),
        games: shared.games,
        seed,
        players,
        goal: goal.name().to_string(),
        ai: names,
    };
    let threads = super::threads_of(shared.threads);
    run_sharded(
        ctx,
        &shared.sharding,
        threads,
        shared.json,
        json!(desc),
        crate::games::iconoclasm::matchfile::ENGINE,
        &format!("{:?} {:?}", run.deck, run.table),
        |i| play_one(&run, seed, i),
        print,
    )
}

/// How an Iconoclasm run describes itself.
#[derive(Debug, serde::Serialize, serde::Deserialize)]
struct Desc {
    game: String,
    games: u64,
    seed: u64,
    players: u8,
    goal: String,
    ai: Vec<String>,
}

/// The report of an Iconoclasm run.
pub fn print(ctx: &Context, r: &Report<'_, IconoclasmEnding>) -> Outcome {
    let d: Desc = serde_json::from_value(r.run.clone())
        .map_err(|e| BadInput(format!("the run's description: {e}")))?;
    let (s, seed, players, names) = (r.t, d.seed, d.players, &d.ai);
    let gps = r.games_per_sec;
    let seats = if players == 1 {
        1
    } else {
        usize::from(players).min(MAX_SEATS)
    };
    let rate = |k: u64| {
        if s.games == 0 {
            0.0
        } else {
            k as f64 / s.games as f64
        }
    };
    let out = &ctx.out;
    if r.json {
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
            "run_id": r.run_id,
        });
        if players == 1
            && let Some(m) = doc.as_object_mut()
        {
            m.insert("goal".into(), json!(d.goal));
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
                d.goal,
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
