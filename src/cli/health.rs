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
use crate::balance::builds::Searched;
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
    /// (0: no search): the build of one seat (--build-seat) moved one legal step at a time
    /// while it wins more, the rest of the setup as given (`balance::builds`). Iconica: a
    /// party, one character swapped; Arcadia: a character, one merit or flaw taken, dropped
    /// or swapped within its points and the setup's rules; Ruunara: the squad, one member
    /// swapped, against the mission. At most 3 moves of at most 40 builds each.
    #[arg(long, value_name = "GAMES", default_value_t = 0,
          value_parser = clap::value_parser!(u64).range(0..=100_000))]
    builds: u64,
    /// With --builds: the seat whose build is searched (1 or 2; Ruunara's squad is 1).
    #[arg(long, value_name = "SEAT", default_value_t = 1,
          value_parser = clap::value_parser!(u8).range(1..=2))]
    build_seat: u8,
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
    const VALUED: [&str; 6] = [
        "--games",
        "--seed",
        "--ai",
        "--share",
        "--builds",
        "--build-seat",
    ];
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
    let mut first_options = None;
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
        if first_options.is_none() {
            first_options = Some(options.clone());
        }
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
    let builds = match first_options {
        Some(options) if shared.builds > 0 => builds(game, &options, &shelf, &shared)?,
        _ => None,
    };
    print(ctx, game, &shared, &mine, &h, &command, builds)
}

/// The strongest legal builds of the match `options` describe (`--builds`), searched as the
/// game's registration says (`Balance::builds`); `None`, said on stderr, for a game whose
/// builds are not searched.
fn builds(
    game: &Registration,
    options: &toml::Table,
    shelf: &CliShelf,
    shared: &Shared,
) -> Result<Option<Searched>, BadInput> {
    use crate::balance::builds::{Climb, Settings, search};
    use crate::games::registry::Shelf;
    let Some(kind) = game.balance.and_then(|b| b.builds) else {
        super::out::note!("--builds: {} has no builds to search", game.title);
        return Ok(None);
    };
    let cards = shelf
        .cards()
        .map_err(|e| BadInput(format!("catalogue: {e}")))?;
    // The search plays the policy that chooses on purpose (the last given, greedy by default).
    let settings = Settings {
        ai: shared.ai.last().copied().unwrap_or(Policy::Greedy),
        seed: shared.seed,
        seat: usize::from(shared.build_seat - 1),
    };
    let never = AtomicBool::new(false);
    let runner = crate::balance::Runner::new(None, crate::balance::Stopping::default(), &never)
        .map_err(|e| BadInput(e.to_string()))?;
    let climb = Climb {
        games: shared.builds,
        seed: shared.seed,
        ..Climb::default()
    };
    search(kind, options, &cards, settings, &climb, &runner, &|_| {})
        .map(Some)
        .map_err(|e| BadInput(format!("--builds: {e}")))
}

fn print(
    ctx: &Context,
    game: &Registration,
    shared: &Shared,
    words: &[String],
    h: &Health,
    command: &dyn Fn(&health::Finding) -> Option<String>,
    searched: Option<Searched>,
) -> Outcome {
    let builds = searched
        .as_ref()
        .map(|s| s.builds.as_slice())
        .unwrap_or(&[]);
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
                "file": b.file,
            })).collect::<Vec<_>>(),
            "builds_against": searched.as_ref().map(|s| s.against.clone()),
            "builds_measured": searched.as_ref().map(|s| s.measured),
            "build_seat": shared.build_seat,
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
            "strongest builds found for seat {} ({} legal builds measured, {} games each, against {}, {}):",
            shared.build_seat,
            searched.as_ref().map(|s| s.measured).unwrap_or_default(),
            shared.builds,
            searched
                .as_ref()
                .map(|s| s.against.as_str())
                .unwrap_or_default(),
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
