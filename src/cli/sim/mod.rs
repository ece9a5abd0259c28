//! `deckwright sim GAME ...`: many AI-vs-AI matches in parallel, with a progress bar on a
//! terminal. The game is a subcommand with its own options; the summary of a two-sided game
//! (Iconica, Arcadia) is written here.

mod arcadia;
mod iconica;
mod iconoclasm;
mod ruunara;

use std::io::IsTerminal;
use std::process::ExitCode;
use std::time::Instant;

use indicatif::{ProgressBar, ProgressStyle};
use serde_json::json;

use super::options::SimShared;
use super::out::note;
use super::{BadInput, Context, Outcome, limits};
use crate::sim::{self, Summary, iconica::ENDINGS};

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(subcommand)]
    pub game: Game,
}

/// The games `sim` knows.
#[derive(Debug, clap::Subcommand)]
pub enum Game {
    /// Two Iconica parties, or with --field every legal party of a pool against one.
    Iconica(iconica::Args),
    /// An Arcadia quest setup.
    Arcadia(arcadia::Args),
    /// Iconoclasm tables of 1 to 4 players, a fresh deal each game.
    Iconoclasm(iconoclasm::Args),
    /// A Ruunara mission and squad: the heroes' win rate, the endings, the mean rounds.
    Ruunara(ruunara::Args),
}

pub fn run(ctx: &Context, args: Args) -> Outcome {
    match args.game {
        Game::Iconica(a) => iconica::run(ctx, a),
        Game::Arcadia(a) => arcadia::run(ctx, a),
        Game::Iconoclasm(a) => iconoclasm::run(ctx, a),
        Game::Ruunara(a) => ruunara::run(ctx, a),
    }
}

/// Plays `games` matches (`play(i)` plays game `i`) on `--threads` threads (lowered to the
/// machine's, with a note), advancing `pbar`.
fn run_games<F>(
    shared: &SimShared,
    games: u64,
    pbar: &ProgressBar,
    play: F,
) -> Result<Summary, BadInput>
where
    F: Fn(u64) -> crate::games::game::Outcome<crate::games::Ended> + Sync,
{
    sim::run(games, threads(shared), play, |n| pbar.inc(n))
        .map_err(|e| BadInput(format!("--threads: {e}")))
}

/// [`run_games`] with the game's typed results ([`sim::Tally`]: wins per seat, endings by name).
fn run_tally<E, F>(
    shared: &SimShared,
    games: u64,
    pbar: &ProgressBar,
    play: F,
) -> Result<sim::Tally<E>, BadInput>
where
    E: crate::games::game::Ending,
    F: Fn(u64) -> crate::games::game::Outcome<E> + Sync,
{
    let never = std::sync::atomic::AtomicBool::new(false);
    sim::run_tally(games, threads(shared), play, |n| pbar.inc(n), &never)
        .map(Option::unwrap_or_default)
        .map_err(|e| BadInput(format!("--threads: {e}")))
}

/// `--threads` as it will be used (a note on stderr when lowered, once a process).
fn threads(shared: &SimShared) -> Option<usize> {
    threads_of(shared.threads)
}

/// `--threads` as given, as it will be used (a note on stderr when lowered, once a process).
fn threads_of(requested: Option<usize>) -> Option<usize> {
    static NOTED: std::sync::Once = std::sync::Once::new();
    let (threads, lowered) = limits::threads(requested);
    if let Some(message) = lowered {
        NOTED.call_once(|| note!("{message}"));
    }
    threads
}

/// A progress bar of `total` games on a terminal's stderr (hidden otherwise).
fn bar(total: u64) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let pb = ProgressBar::new(total);
    if let Ok(style) =
        ProgressStyle::with_template("{bar:40} {pos}/{len} games ({per_sec}, eta {eta})")
    {
        pb.set_style(style);
    }
    pb
}

fn pct(x: f64) -> String {
    format!("{:.1}%", x * 100.0)
}

/// Plays `--games` matches of a two-sided game (`play_one` plays game `i`) and writes the
/// summary as text or JSON. `turns` names what a match counts (turns, Days).
fn two_sided<F>(
    ctx: &Context,
    game: &str,
    turns: &str,
    shared: &SimShared,
    names: [String; 2],
    play_one: F,
) -> Outcome
where
    F: Fn(u64) -> crate::games::game::Outcome<crate::games::Ended> + Sync,
{
    let pbar = bar(shared.games);
    let started = Instant::now();
    let s = run_games(shared, shared.games, &pbar, play_one)?;
    pbar.finish_and_clear();
    let secs = started.elapsed().as_secs_f64().max(1e-9);
    let gps = s.games as f64 / secs;
    let (lo, hi) = s.ci95_a();
    let [na, nb] = names;
    let out = &ctx.out;
    if shared.json {
        out.json(&json!({
            "game": game,
            "games": s.games,
            "seed": shared.seed,
            "ai": {"a": na, "b": nb},
            "wins": {"a": s.wins[0], "b": s.wins[1], "draw": s.draws},
            "win_rate_a": s.win_rate_a(),
            "ci95_a": [lo, hi],
            "mean_turns": s.mean_turns(),
            "games_per_sec": gps,
            "ended": ended_json(&s),
        }));
    } else {
        writeln!(
            out,
            "{game}: {}, seed {}, {na} (a) vs {nb} (b)",
            crate::count(s.games, "game", "games"),
            shared.seed
        );
        writeln!(
            out,
            "  a wins {:>7}  {} (95% CI {} to {})",
            s.wins[0],
            pct(s.win_rate_a()),
            pct(lo),
            pct(hi)
        );
        writeln!(out, "  b wins {:>7}", s.wins[1]);
        writeln!(out, "  draws  {:>7}", s.draws);
        writeln!(
            out,
            "  mean {turns} {:.1}; {:.0} games/s",
            s.mean_turns(),
            gps
        );
        let ends: Vec<String> = ENDINGS
            .iter()
            .zip(s.ended)
            .map(|(n, c)| format!("{n} {c}"))
            .collect();
        writeln!(out, "  ended: {}", ends.join(", "));
    }
    Ok(ExitCode::SUCCESS)
}

fn ended_json(s: &Summary) -> serde_json::Value {
    let mut m = serde_json::Map::new();
    for (n, c) in ENDINGS.iter().zip(s.ended) {
        m.insert(n.to_string(), json!(c));
    }
    serde_json::Value::Object(m)
}
