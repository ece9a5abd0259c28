//! The report of a run of a squad against a mission run by the rules (Ruunara,
//! `SimReport::Squad`): the heroes' win rate with its 95% Wilson interval, the endings and
//! the mean rounds.

use std::process::ExitCode;

use serde_json::json;

use super::{Report, pct};
use crate::cli::{BadInput, Context, Outcome};
use crate::games::run::EndingAt;

/// How a squad's run describes itself.
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

/// The report of a squad's run; `endings` names its endings in order.
pub fn print(ctx: &Context, r: &Report<'_, EndingAt>, endings: &[&'static str]) -> Outcome {
    let d: Desc = serde_json::from_value(r.run.clone())
        .map_err(|e| BadInput(format!("the run's description: {e}")))?;
    let (t, seed, gps) = (r.t, d.seed, r.games_per_sec);
    let (rate, (lo, hi)) = t.win_rate(0);
    let out = &ctx.out;
    if r.json {
        let mut ended = serde_json::Map::new();
        for (name, n) in endings.iter().zip(t.ended) {
            ended.insert((*name).to_string(), json!(n));
        }
        out.json(&json!({
            "game": d.game,
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
            "{}: {} ({}), {}, seed {seed}, squad played by {}",
            d.game,
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
        let ends: Vec<String> = endings
            .iter()
            .zip(t.ended)
            .map(|(n, c)| format!("{n} {c}"))
            .collect();
        writeln!(out, "  ended: {}", ends.join(", "));
    }
    Ok(ExitCode::SUCCESS)
}
