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

use clap::{ArgMatches, FromArgMatches};

use super::options::{Sharding, SimShared, SoloSim};
use super::out::note;
use super::{BadInput, Context, Outcome, limits};
use crate::games::game::Ending;
use crate::games::registry::{self, Registration};
use crate::sim::shard::{self, Counts, Shard, TallyFile, run_id};
use crate::sim::{self, Summary, Tally, iconica::ENDINGS};

/// The game and its parsed arguments.
#[derive(Debug, Clone)]
pub struct Args {
    pub game: &'static Registration,
    pub matches: ArgMatches,
}

impl FromArgMatches for Args {
    fn from_arg_matches(m: &ArgMatches) -> Result<Self, clap::Error> {
        let (game, matches) = super::play::game_of(m)?;
        Ok(Args { game, matches })
    }
    fn update_from_arg_matches(&mut self, m: &ArgMatches) -> Result<(), clap::Error> {
        *self = Args::from_arg_matches(m)?;
        Ok(())
    }
}

impl clap::Args for Args {
    /// A subcommand for every registered game `sim` plays: its options struct's arguments,
    /// the game's own `sim` arguments, then the options every run takes.
    fn augment_args(cmd: clap::Command) -> clap::Command {
        let mut cmd = cmd.subcommand_required(true).arg_required_else_help(true);
        for g in registry::GAMES {
            let Some(runner) = runner(g) else { continue };
            let mut sub = super::play::game_command(g, runner.about);
            if let Some(extra) = runner.extra {
                sub = extra(sub);
            }
            sub = if g.options.solo {
                <SoloSim as clap::Args>::augment_args(sub)
            } else {
                <SimShared as clap::Args>::augment_args(sub)
            };
            cmd = cmd.subcommand(sub);
        }
        cmd
    }
    fn augment_args_for_update(cmd: clap::Command) -> clap::Command {
        Self::augment_args(cmd)
    }
}

/// How `sim` runs a game: its line of help, its arguments besides its options, its run.
struct Runner {
    about: &'static str,
    extra: Option<fn(clap::Command) -> clap::Command>,
    run: fn(&Context, &ArgMatches) -> Outcome,
}

/// The runner of a registered game, `None` for a game `sim` does not play yet.
fn runner(g: &Registration) -> Option<Runner> {
    Some(match g.name {
        "iconica" => Runner {
            about: "Two Iconica parties, or with --field every legal party of a pool against one.",
            extra: Some(<iconica::Field as clap::Args>::augment_args),
            run: iconica::run,
        },
        "arcadia" => Runner {
            about: "An Arcadia quest setup.",
            extra: None,
            run: arcadia::run,
        },
        "iconoclasm" => Runner {
            about: "Iconoclasm tables of 1 to 4 players, a fresh deal each game.",
            extra: None,
            run: iconoclasm::run,
        },
        "ruunara" => Runner {
            about: "A Ruunara mission and squad: the heroes' win rate, the endings, the mean rounds.",
            extra: None,
            run: ruunara::run,
        },
        _ => return None,
    })
}

pub fn run(ctx: &Context, args: Args) -> Outcome {
    match runner(args.game) {
        Some(r) => (r.run)(ctx, &args.matches),
        None => Err(BadInput(format!(
            "sim does not play {} yet",
            args.game.name
        ))),
    }
}

/// Parses what a runner reads from its game's arguments (typed: clap checked them).
fn parsed<T: FromArgMatches>(m: &ArgMatches) -> Result<T, BadInput> {
    T::from_arg_matches(m).map_err(|e| BadInput(e.to_string()))
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

/// Plays the run's games, or one shard of them (`--shard K/N --out FILE`: its tally written,
/// a line said), and prints the run's report with `print` (what `deckwright merge` prints
/// again from the shards' tallies). `run` is what the report names besides its sums (the
/// game, `games`, `seed`, the policies, ...), `setup` the compiled setup in words; both and
/// the engine version make the run id.
#[allow(clippy::too_many_arguments)]
fn run_sharded<E, F>(
    ctx: &Context,
    sharding: &Sharding,
    threads: Option<usize>,
    json: bool,
    run: serde_json::Value,
    engine: u32,
    setup: &str,
    play: F,
    print: fn(&Context, &Report<'_, E>) -> Outcome,
) -> Outcome
where
    E: Ending,
    F: Fn(u64) -> crate::games::game::Outcome<E> + Sync,
{
    let games = run
        .get("games")
        .and_then(serde_json::Value::as_u64)
        .unwrap_or(0);
    let shard = match &sharding.shard {
        Some(text) => Some(
            Shard::parse(text, |k| std::env::var(k).ok())
                .map_err(|e| BadInput(format!("--shard {e}")))?,
        ),
        None => None,
    };
    let range = shard.map_or(0..games, |s| s.range(games));
    let id = run_id(&run, engine, setup);
    let pbar = bar(range.end - range.start);
    let started = Instant::now();
    let never = std::sync::atomic::AtomicBool::new(false);
    // Game i of the run is `play(i)` whichever process plays it, so the shards' sums add up
    // to the run's.
    let start = range.start;
    let t: Tally<E> = sim::run_tally(
        range.end - start,
        threads,
        |i| play(start + i),
        |n| pbar.inc(n),
        &never,
    )
    .map_err(|e| BadInput(format!("--threads: {e}")))?
    .unwrap_or_default();
    pbar.finish_and_clear();
    let seconds = started.elapsed().as_secs_f64().max(1e-9);
    let (Some(shard), Some(path)) = (shard, &sharding.out) else {
        return print(
            ctx,
            &Report {
                run: &run,
                run_id: &id,
                t: &t,
                games_per_sec: t.games as f64 / seconds,
                json,
            },
        );
    };
    let file = TallyFile {
        kind: shard::KIND.into(),
        format: shard::FORMAT,
        run_id: id.clone(),
        shard,
        range: [range.start, range.end],
        seconds,
        run,
        counts: Counts::from(&t),
    };
    let text = serde_json::to_string_pretty(&file).map_err(|e| BadInput(e.to_string()))?;
    crate::safe_io::write_atomic(path, format!("{text}\n").as_bytes())
        .map_err(|e| BadInput(format!("{}: {e}", path.display())))?;
    if json {
        ctx.out.json(&json!({
            "run_id": id,
            "shard": format!("{}/{}", shard.k, shard.n),
            "games": [range.start, range.end],
            "out": path.display().to_string(),
        }));
    } else {
        writeln!(
            &ctx.out,
            "shard {}/{} of run {id}: games {} to {} written to {}",
            shard.k,
            shard.n,
            range.start,
            range.end.saturating_sub(1),
            path.display()
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// What a run's report is made of: the run as it was described, its id, its sums.
pub struct Report<'a, E> {
    pub run: &'a serde_json::Value,
    pub run_id: &'a str,
    pub t: &'a Tally<E>,
    pub games_per_sec: f64,
    pub json: bool,
}

/// How a two-sided run (Iconica, Arcadia) describes itself.
#[derive(Debug, serde::Serialize, serde::Deserialize)]
struct TwoSided {
    game: String,
    games: u64,
    seed: u64,
    /// Side a's and side b's policies.
    ai: [String; 2],
    /// What a match counts: `turns`, `Days`.
    counts: String,
}

/// Plays `--games` matches of a two-sided game (`play_one` plays game `i`), or one shard of
/// them, and writes the summary as text or JSON. `turns` names what a match counts (turns,
/// Days); `setup` is the compiled setup in words (for the run id).
#[allow(clippy::too_many_arguments)]
fn two_sided<F>(
    ctx: &Context,
    game: &str,
    turns: &str,
    engine: u32,
    setup: &str,
    shared: &SimShared,
    names: [String; 2],
    play_one: F,
) -> Outcome
where
    F: Fn(u64) -> crate::games::game::Outcome<crate::games::Ended> + Sync,
{
    let run = TwoSided {
        game: game.into(),
        games: shared.games,
        seed: shared.seed,
        ai: names,
        counts: turns.into(),
    };
    run_sharded(
        ctx,
        &shared.sharding,
        threads(shared),
        shared.json,
        json!(run),
        engine,
        setup,
        play_one,
        print_two_sided,
    )
}

/// The report of a two-sided run.
fn print_two_sided(ctx: &Context, r: &Report<'_, crate::games::Ended>) -> Outcome {
    let run: TwoSided = serde_json::from_value(r.run.clone())
        .map_err(|e| BadInput(format!("the run's description: {e}")))?;
    let s = r.t;
    let (lo, hi) = s.ci95_a();
    let [na, nb] = &run.ai;
    let (game, turns) = (&run.game, &run.counts);
    let out = &ctx.out;
    if r.json {
        out.json(&json!({
            "game": game,
            "games": s.games,
            "seed": run.seed,
            "ai": {"a": na, "b": nb},
            "wins": {"a": s.wins[0], "b": s.wins[1], "draw": s.draws},
            "win_rate_a": s.win_rate_a(),
            "ci95_a": [lo, hi],
            "mean_turns": s.mean_turns(),
            "games_per_sec": r.games_per_sec,
            "ended": ended_json(s),
            "run_id": r.run_id,
        }));
    } else {
        writeln!(
            out,
            "{game}: {}, seed {}, {na} (a) vs {nb} (b)",
            crate::count(s.games, "game", "games"),
            run.seed
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
            r.games_per_sec
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

/// The report of a whole run from its shards' tallies (`deckwright merge`), as the run's own
/// game prints it.
pub fn print_merged(ctx: &Context, m: &shard::Merged, json: bool) -> Outcome {
    let game = m
        .run
        .get("game")
        .and_then(serde_json::Value::as_str)
        .unwrap_or("");
    let gps = m.counts.games as f64 / m.seconds.max(1e-9);
    fn report<'a, E: Ending>(
        m: &'a shard::Merged,
        t: &'a Tally<E>,
        games_per_sec: f64,
        json: bool,
    ) -> Report<'a, E> {
        Report {
            run: &m.run,
            run_id: &m.run_id,
            t,
            games_per_sec,
            json,
        }
    }
    let damaged = || BadInput("the tallies' sums are damaged".into());
    match game {
        "iconica" | "arcadia" => {
            let t = m.counts.tally().ok_or_else(damaged)?;
            print_two_sided(ctx, &report(m, &t, gps, json))
        }
        "iconoclasm" => {
            let t = m.counts.tally().ok_or_else(damaged)?;
            iconoclasm::print(ctx, &report(m, &t, gps, json))
        }
        "ruunara" => {
            let t = m.counts.tally().ok_or_else(damaged)?;
            ruunara::print(ctx, &report(m, &t, gps, json))
        }
        other => Err(BadInput(format!(
            "the tallies are of `{other}`, which sim does not play"
        ))),
    }
}

fn ended_json(s: &Summary) -> serde_json::Value {
    let mut m = serde_json::Map::new();
    for (n, c) in ENDINGS.iter().zip(s.ended) {
        m.insert(n.to_string(), json!(c));
    }
    serde_json::Value::Object(m)
}
