//! The report of a run of a table of 1 to 4 players (Iconoclasm, `SimReport::Table`): wins
//! per player or, solo, how often the goal is met.

use std::process::ExitCode;

use serde_json::json;

use super::Report;
use crate::cli::{BadInput, Context, Outcome};
use crate::games::game::MAX_SEATS;
use crate::games::run::EndingAt;
use crate::sim::wilson;

/// How a table's run describes itself.
#[derive(Debug, serde::Serialize, serde::Deserialize)]
struct Desc {
    game: String,
    games: u64,
    seed: u64,
    players: u8,
    goal: String,
    ai: Vec<String>,
}

/// The report of a table's run.
pub fn print(ctx: &Context, r: &Report<'_, EndingAt>) -> Outcome {
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
            "game": d.game,
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
            "{}: {}, {}, seed {}, ai {}",
            d.game,
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
