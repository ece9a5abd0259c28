//! `deckwright sim GAME [game options] [--games N] [--seed S] [--ai P] [--threads T]
//! [--json] [--shard K/N --out FILE]`: many AI-vs-AI matches in parallel, with a progress bar
//! on a terminal. Every game `sim` plays is a subcommand built from the registry (its
//! options struct's arguments, its run's own, then the options every run takes) and run by
//! the one driver here: the game prepares the run once (`registry::Sim::prepare`), the runner
//! plays match `i` of it on any thread, and the report is written as the game's kind of run
//! reads (`registry::SimReport`: two sides, a table, a squad). Iconica's `--field` is the
//! one run of its own (`field.rs`).

mod field;
mod squad;
mod table;

use std::io::IsTerminal;
use std::process::ExitCode;
use std::time::Instant;

use indicatif::{ProgressBar, ProgressStyle};
use serde_json::json;

use clap::{ArgMatches, FromArgMatches};

use super::games::{Face, GameArgs, game_command};
use super::load::CliShelf;
use super::options::{Sharding, SimShared, SoloSim};
use super::out::note;
use super::{BadInput, Context, Outcome, limits};
use crate::games::ai::Policy;
use crate::games::game::Ending;
use crate::games::registry::{self, Ask, Registration, SimReport};
use crate::games::run::EndingAt;
use crate::sim::shard::{self, Counts, Shard, TallyFile, run_id};
use crate::sim::{self, Summary, Tally};

/// `sim`'s subcommand of each game it plays: its options struct's arguments, its run's own
/// arguments, then the options every run takes.
#[derive(Debug, Clone)]
pub struct SimFace;

impl Face for SimFace {
    fn subcommand(g: &'static Registration) -> Option<clap::Command> {
        let run = g.options.sim?;
        let mut sub = game_command(g, run.about);
        if let Some(extra) = run.extra {
            sub = extra(sub);
        }
        sub = if g.options.solo {
            <SoloSim as clap::Args>::augment_args(sub)
        } else {
            <SimShared as clap::Args>::augment_args(sub)
        };
        // The registration's line, not a derived struct's doc comment.
        Some(sub.about(run.about).long_about(None))
    }
}

/// The game and its parsed arguments.
pub type Args = GameArgs<SimFace>;

/// What every run takes, for a game of sides or of one deciding seat.
struct Common {
    games: u64,
    seed: u64,
    threads: Option<usize>,
    json: bool,
    sharding: Sharding,
    shared: Option<SimShared>,
    solo: Option<Policy>,
}

impl Common {
    fn of(game: &Registration, m: &ArgMatches) -> Result<Common, BadInput> {
        Ok(if game.options.solo {
            let s: SoloSim = parsed(m)?;
            Common {
                games: s.games,
                seed: s.seed,
                threads: s.threads,
                json: s.json,
                sharding: s.sharding,
                shared: None,
                solo: Some(s.ai),
            }
        } else {
            let s: SimShared = parsed(m)?;
            Common {
                games: s.games,
                seed: s.seed,
                threads: s.threads,
                json: s.json,
                sharding: s.sharding.clone(),
                solo: None,
                shared: Some(s),
            }
        })
    }

    fn policies(&self, seats: usize) -> Vec<Policy> {
        match (&self.shared, self.solo) {
            (Some(s), _) => s.policies(seats.clamp(1, usize::from(u8::MAX)) as u8),
            (None, p) => vec![p.unwrap_or(Policy::Greedy)],
        }
    }
}

pub fn run(ctx: &Context, args: Args) -> Outcome {
    let (game, m) = (args.game, args.matches);
    let Some(sim) = game.options.sim else {
        return Err(BadInput(format!("sim does not play {} yet", game.name)));
    };
    if field::asked(&m) {
        return field::run(ctx, &m);
    }
    let common = Common::of(game, &m)?;
    let shelf = CliShelf::new(ctx);
    let prepared = (sim.prepare)(
        &m,
        &shelf,
        &Ask {
            seed: common.seed,
            policies: &|seats| common.policies(seats),
            policy_option: "--ai",
        },
    )
    .map_err(BadInput)?;
    let names: Vec<String> = prepared.policies.iter().map(|p| p.name()).collect();
    // What the report names of the run, in the order its kind of run has always written it
    // (the run's id is a digest of it).
    let mut run = serde_json::Map::new();
    run.insert("game".into(), json!(game.name));
    run.insert("games".into(), json!(common.games));
    run.insert("seed".into(), json!(common.seed));
    match sim.report {
        SimReport::Sides { counts } => {
            let side = |k: usize| names.get(k).or(names.last()).cloned().unwrap_or_default();
            run.insert("ai".into(), json!([side(0), side(1)]));
            run.insert("counts".into(), json!(counts));
            run.extend(prepared.run.iter().map(|(k, v)| ((*k).into(), v.clone())));
        }
        SimReport::Table => {
            run.extend(prepared.run.iter().map(|(k, v)| ((*k).into(), v.clone())));
            run.insert("ai".into(), json!(names));
        }
        SimReport::Squad => {
            run.insert(
                "ai".into(),
                json!(names.first().cloned().unwrap_or_default()),
            );
            run.extend(prepared.run.iter().map(|(k, v)| ((*k).into(), v.clone())));
        }
    }
    let seed = common.seed;
    run_sharded(
        ctx,
        &common.sharding,
        threads_of(common.threads),
        common.json,
        serde_json::Value::Object(run),
        game.engine,
        &prepared.setup,
        |i| (prepared.play)(seed, i),
        print,
    )
}

/// The report of a run of any game, as its kind of run reads.
fn print(ctx: &Context, r: &Report<'_, EndingAt>) -> Outcome {
    let game = r
        .run
        .get("game")
        .and_then(serde_json::Value::as_str)
        .unwrap_or("");
    let Some(sim) = registry::find(game).and_then(|g| g.options.sim) else {
        return Err(BadInput(format!(
            "the tallies are of `{game}`, which sim does not play"
        )));
    };
    let endings = (sim.endings)();
    match sim.report {
        SimReport::Sides { .. } => print_two_sided(ctx, r, &endings),
        SimReport::Table => table::print(ctx, r),
        SimReport::Squad => squad::print(ctx, r, &endings),
    }
}

/// Parses what a run reads from its game's arguments (typed: clap checked them).
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

pub(crate) fn pct(x: f64) -> String {
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

/// The report of a two-sided run; `endings` names its endings in order.
fn print_two_sided(ctx: &Context, r: &Report<'_, EndingAt>, endings: &[&str]) -> Outcome {
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
            "ended": ended_json(endings, &s.ended),
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
        let ends: Vec<String> = endings
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
    let t = m
        .counts
        .tally::<EndingAt>()
        .ok_or_else(|| BadInput("the tallies' sums are damaged".into()))?;
    print(ctx, &report(m, &t, gps, json))
}

fn ended_json(endings: &[&str], ended: &[u64]) -> serde_json::Value {
    let mut m = serde_json::Map::new();
    for (n, c) in endings.iter().zip(ended) {
        m.insert(n.to_string(), json!(c));
    }
    serde_json::Value::Object(m)
}
