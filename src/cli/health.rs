//! `deckwright health GAME [game options] [--games N] [--seed S] [--ai P,...] [--json]`:
//! seeded matches of one setup under each policy, read for the rules' own bugs
//! (`sim::health`): decisions with no option, matches stopped by the limit, a seat or the
//! first player winning over the share, endings never or always reached, options no chooser
//! takes. Every registered game is a subcommand with its `play` options (the same files, the
//! same switches), and each warning names the `play` command that shows it. A report, not a
//! verdict: the exit status is 0 whatever it finds (2 for bad input).

use std::collections::HashMap;
use std::process::ExitCode;
use std::sync::Mutex;
use std::sync::atomic::AtomicBool;

use clap::FromArgMatches;
use serde_json::json;

use super::games::{Face, GameArgs, game_command};
use super::load::CliShelf;
use super::options::policy_parser;
use super::{BadInput, Context, Outcome};
use crate::cards::Card;
use crate::games::ai::Policy;
use crate::games::any::AnyGame;
use crate::games::registry::{Ask, Registration};
use crate::sim::health::{self, Checkup, Health};

/// What `health` takes of every game.
#[derive(Debug, Clone, clap::Args)]
struct Shared {
    /// Matches per policy, 1 to 100,000.
    #[arg(long, value_name = "N", default_value_t = 200,
          value_parser = clap::value_parser!(u64).range(1..=health::MAX_GAMES))]
    games: u64,
    /// The first match's seed: match K is seeded SEED+K, as `play --seed` seeds it.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The policies, comma-separated; every seat plays each in turn.
    #[arg(long, value_name = "POLICIES", value_delimiter = ',', default_value = "random,greedy",
          value_parser = policy_parser())]
    ai: Vec<Policy>,
    /// A seat (or the first player) winning more than this share is flagged (when its 95%
    /// interval lies above it).
    #[arg(long, value_name = "SHARE", default_value_t = 0.6, value_parser = share)]
    share: f64,
    /// Also search for the strongest legal builds, measuring each over this many games
    /// (0: no search). Iconica: the first party, one character swapped for another at a
    /// time while it wins more, against the second (`balance::builds`).
    #[arg(long, value_name = "GAMES", default_value_t = 0,
          value_parser = clap::value_parser!(u64).range(0..=100_000))]
    builds: u64,
    /// Print JSON on stdout.
    #[arg(long)]
    json: bool,
}

fn share(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(x) if x > 0.0 && x < 1.0 => Ok(x),
        _ => Err("a share between 0 and 1, e.g. 0.6".into()),
    }
}

/// `health`'s subcommand of each game: its `play` options, then the check's own.
#[derive(Debug, Clone)]
pub struct HealthFace;

impl Face for HealthFace {
    fn subcommand(g: &'static Registration) -> Option<clap::Command> {
        let sub = <Shared as clap::Args>::augment_args(game_command(g, g.options.about));
        Some(sub.about(g.options.about).long_about(None))
    }
}

/// The game and its parsed arguments.
pub type Args = GameArgs<HealthFace>;

/// The words of the game's own options on this command line: what `play GAME` takes too
/// (the health options and their values left out).
fn game_words(words: &[String], game: &str) -> Vec<String> {
    const VALUED: [&str; 5] = ["--games", "--seed", "--ai", "--share", "--builds"];
    let Some(at) = words.iter().position(|w| w == game) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let mut rest = words[at + 1..].iter();
    while let Some(w) = rest.next() {
        if VALUED.contains(&w.as_str()) {
            rest.next();
        } else if w == "--json" || VALUED.iter().any(|v| w.starts_with(&format!("{v}="))) {
        } else {
            out.push(w.clone());
        }
    }
    out
}

/// A word as a shell reads it back: quoted when it holds anything but plain characters.
fn quoted(w: &str) -> String {
    let plain = |c: char| c.is_ascii_alphanumeric() || "-_./:=,+@%".contains(c);
    if !w.is_empty() && w.chars().all(plain) {
        w.to_string()
    } else {
        format!("'{}'", w.replace('\'', r"'\''"))
    }
}

pub fn run(ctx: &Context, args: Args) -> Outcome {
    let (game, m) = (args.game, args.matches);
    let shared = Shared::from_arg_matches(&m).map_err(|e| BadInput(e.to_string()))?;
    let c = Checkup {
        games: shared.games,
        seed: shared.seed,
        policies: shared.ai.clone(),
        share: shared.share,
        ..Checkup::default()
    };
    let shelf = CliShelf::new(ctx);
    let ai = shared.ai.clone();
    let policies = move |_seats: usize| ai.clone();
    // Each match's start, compiled as `play --seed` compiles it (a deal may depend on the
    // seed), once before any is played: the catalogue and the files are read here only.
    // Each seed's start is opened once; seeds that compile to the same options (every game
    // but one whose deal depends on the seed) share one position, cloned for each match.
    let none: Vec<Card> = Vec::new();
    let mut opened: Vec<Mutex<Box<dyn AnyGame>>> = Vec::new();
    let mut by_options: HashMap<String, usize> = HashMap::new();
    let mut at = Vec::new();
    for k in 0..shared.games {
        let seed = shared.seed.wrapping_add(k);
        let options = (game.options.compile)(
            &m,
            &shelf,
            &Ask {
                seed,
                policies: &policies,
                policy_option: "--ai",
            },
        )
        .map_err(BadInput)?;
        let n = opened.len();
        let i = *by_options.entry(options.to_string()).or_insert(n);
        if i == n {
            let start = (game.open)(&options, &none).map_err(|e| BadInput(e.to_string()))?;
            opened.push(Mutex::new(start.game));
        }
        at.push(i);
    }
    let endings = game.options.sim.map(|s| (s.endings)()).unwrap_or_default();
    let first = shared.seed;
    let start = |seed: u64| -> Result<Box<dyn AnyGame>, String> {
        let g = &opened[at[seed.wrapping_sub(first) as usize]];
        Ok(g.lock().unwrap_or_else(|e| e.into_inner()).clone_box())
    };
    let stop = AtomicBool::new(false);
    let h = health::check(&start, &endings, &c, &stop, &|_| {})
        .map_err(BadInput)?
        .ok_or_else(|| BadInput("stopped".into()))?;
    let words: Vec<String> = std::env::args().collect();
    let mine = game_words(&words, game.name);
    let command = |f: &health::Finding| match (&f.policy, f.seed) {
        (Some(p), Some(s)) => Some(
            ["deckwright", "play", game.name]
                .into_iter()
                .map(str::to_string)
                .chain(mine.iter().map(|w| quoted(w)))
                // `play` takes every seat's policy (or a solo game's one) as `--policy`.
                .chain([format!("--seed {s} --policy {}", quoted(p))])
                .collect::<Vec<_>>()
                .join(" "),
        ),
        _ => None,
    };
    let builds = if shared.builds > 0 {
        builds(ctx, game, &m, &shared)?
    } else {
        Vec::new()
    };
    print(ctx, game, &shared, &mine, &h, &command, &builds)
}

/// A build found, as the report shows it.
struct Built {
    name: String,
    rate: crate::balance::Rate,
    path: Vec<String>,
}

/// The strongest legal builds of the game's setup (`--builds`): Iconica's first party
/// searched against its second; other games are not searched yet (said on stderr).
fn builds(
    ctx: &Context,
    game: &Registration,
    m: &clap::ArgMatches,
    shared: &Shared,
) -> Result<Vec<Built>, BadInput> {
    use crate::balance::builds::{Climb, iconica_parties};
    if game.name != "iconica" {
        super::out::note!(
            "--builds: the builds of {} are not searched yet (Iconica's parties are)",
            game.name
        );
        return Ok(Vec::new());
    }
    let opts = crate::games::iconica::options::IconicaOptions::from_arg_matches(m)
        .map_err(|e| BadInput(e.to_string()))?;
    let cat = super::load::open_catalogue(ctx)?;
    let pool = super::load::iconica_characters(&cat)?;
    let parties = super::load::parties(&cat, &opts.parties)?;
    let (Some(mine), Some(against)) = (parties.first(), parties.get(1)) else {
        return Err(BadInput("--builds: give two parties".into()));
    };
    let start: Option<Vec<usize>> = mine
        .iter()
        .map(|c| pool.iter().position(|p| p.id == c.id))
        .collect();
    let Some(&[a, b, c]) = start.as_deref() else {
        return Err(BadInput(
            "--builds: the first party's members must be three catalogue characters".into(),
        ));
    };
    // The search plays the policy that chooses on purpose (the last given, greedy by default).
    let ai = shared.ai.last().copied().unwrap_or(Policy::Greedy);
    let settings = crate::balance::iconica::Settings {
        rules: opts.rules.rules(),
        ai,
        seed: shared.seed,
    };
    let never = AtomicBool::new(false);
    let runner = crate::balance::Runner::new(None, crate::balance::Stopping::default(), &never)
        .map_err(|e| BadInput(e.to_string()))?;
    let climb = Climb {
        games: shared.builds,
        ..Climb::default()
    };
    let found = iconica_parties(&pool, &[[a, b, c]], against, settings, &climb, &runner)
        .map_err(|e| BadInput(format!("--builds: {e}")))?;
    Ok(found
        .into_iter()
        .map(|f| Built {
            name: f.name,
            rate: f.rate,
            path: f.path,
        })
        .collect())
}

fn print(
    ctx: &Context,
    game: &Registration,
    shared: &Shared,
    words: &[String],
    h: &Health,
    command: &dyn Fn(&health::Finding) -> Option<String>,
    builds: &[Built],
) -> Outcome {
    let out = &ctx.out;
    let games = shared.games;
    if shared.json {
        let runs: Vec<_> = h
            .runs
            .iter()
            .map(|r| {
                let ended: serde_json::Map<String, serde_json::Value> = r
                    .ended
                    .iter()
                    .map(|(n, k)| (n.to_string(), json!(k)))
                    .collect();
                json!({
                    "policy": r.policy.name(),
                    "games": r.games,
                    "wins": r.wins,
                    "draws": r.draws,
                    "no_result": r.no_result,
                    "first_player_wins": r.first_wins,
                    "first_player_decided": r.first_decided,
                    "mean_turns": r.mean_turns(),
                    "ended": ended,
                })
            })
            .collect();
        let findings: Vec<_> = h
            .findings
            .iter()
            .map(|f| {
                let mut v = json!(f);
                v["command"] = json!(command(f));
                v
            })
            .collect();
        out.json(&json!({
            "game": game.name,
            "options": words,
            "games": games,
            "seed": shared.seed,
            "share": shared.share,
            "runs": runs,
            "findings": findings,
            "builds": builds.iter().map(|b| json!({
                "build": b.name,
                "win_rate": b.rate.win_rate,
                "ci95": [b.rate.ci95.0, b.rate.ci95.1],
                "games": b.rate.games,
                "path": b.path,
            })).collect::<Vec<_>>(),
        }));
        return Ok(ExitCode::SUCCESS);
    }
    writeln!(
        out,
        "health {}{}: {} a policy, seeds {} to {}",
        game.name,
        words.iter().map(|w| format!(" {w}")).collect::<String>(),
        crate::count(games, "match", "matches"),
        shared.seed,
        shared.seed.wrapping_add(games - 1)
    );
    for line in h.summary() {
        writeln!(out, "  {line}");
    }
    if h.findings.is_empty() {
        writeln!(out, "no warnings");
    } else {
        writeln!(
            out,
            "{}:",
            crate::count(h.findings.len() as u64, "warning", "warnings")
        );
        let (shown, left_out) = health::shown(&h.findings, 8);
        for f in shown {
            let by = f
                .policy
                .as_deref()
                .map(|p| format!(" [{p}]"))
                .unwrap_or_default();
            writeln!(out, "  {}{by}: {}", f.kind.title(), f.text);
            if let Some(cmd) = command(f) {
                writeln!(out, "    see: {cmd}");
            }
        }
        if left_out > 0 {
            writeln!(
                out,
                "  and {left_out} more options never taken (--json lists every one)"
            );
        }
    }
    if !builds.is_empty() {
        writeln!(
            out,
            "strongest builds found ({} games each, against the second party, {}):",
            shared.builds,
            shared.ai.last().copied().unwrap_or(Policy::Greedy).name()
        );
        for b in builds {
            writeln!(
                out,
                "  {:.1}% ({:.1}% to {:.1}%): {}  [{}]",
                b.rate.win_rate * 100.0,
                b.rate.ci95.0 * 100.0,
                b.rate.ci95.1 * 100.0,
                b.name,
                b.path.join(", ")
            );
        }
    }
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn w(s: &str) -> Vec<String> {
        s.split(' ').map(str::to_string).collect()
    }

    #[test]
    fn the_play_words_leave_out_healths_own() {
        let words = w(
            "deckwright --db x health arcadia a.setup.toml --games 40 --seed=3 --turn-limit 90 --ai random,greedy --json",
        );
        assert_eq!(
            game_words(&words, "arcadia"),
            w("a.setup.toml --seed=3 --turn-limit 90")
                .into_iter()
                .filter(|x| !x.starts_with("--seed="))
                .collect::<Vec<_>>()
        );
        assert_eq!(quoted("a b.toml"), "'a b.toml'");
        assert_eq!(quoted("it's"), r"'it'\''s'");
        assert_eq!(quoted("examples/x.toml"), "examples/x.toml");
    }
}
