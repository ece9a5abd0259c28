//! `deckwright health GAME FILE... [--json]`: seeded matches of one setup under each policy,
//! read for the rules' own bugs (`sim::health`): decisions with no option, matches stopped by
//! the limit, a seat or the first player winning over the share, endings never or always
//! reached, options no chooser takes. Each warning names the `play` command that shows it.
//! A report, not a verdict: the exit status is 0 whatever it finds (2 for bad input).

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde_json::json;

use super::load::{
    arcadia_compiled, iconica_setup, iconoclasm_deck, named_parties, open_catalogue,
    ruunara_deployed,
};
use super::options::{ArcadiaRules, check_ruunara_search, policy_parser};
use super::{BadInput, Context, Outcome};
use crate::games::ai::Policy;
use crate::games::dice::{RngDice, derive_seed};
use crate::games::game::Ending;
use crate::sim::health::{self, Checkup, Health};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The game: iconica (two or four party files), arcadia (a setup file), iconoclasm (no
    /// file; --players), ruunara (a mission and a squad file).
    pub game: String,
    /// The game's files, as `play GAME` takes them.
    #[arg(value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// Matches per policy, 1 to 100,000.
    #[arg(long, value_name = "N", default_value_t = 200,
          value_parser = clap::value_parser!(u64).range(1..=health::MAX_GAMES))]
    pub games: u64,
    /// The first match's seed: match K is seeded SEED+K, as `play --seed` seeds it.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// The policies, comma-separated; every seat plays each in turn.
    #[arg(long, value_name = "POLICIES", value_delimiter = ',', default_value = "random,greedy",
          value_parser = policy_parser())]
    pub ai: Vec<Policy>,
    /// A seat (or the first player) winning more than this share is flagged (when its 95%
    /// interval lies above it).
    #[arg(long, value_name = "SHARE", default_value_t = 0.6, value_parser = share)]
    pub share: f64,
    /// Iconoclasm: the number of players, 1 to 4.
    #[arg(long, value_name = "N", default_value_t = 2, value_parser = clap::value_parser!(u8).range(1..=4))]
    pub players: u8,
    #[command(flatten)]
    pub arcadia: ArcadiaRules,
    /// Print JSON on stdout.
    #[arg(long)]
    pub json: bool,
}

fn share(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(x) if (0.0..1.0).contains(&x) && x > 0.0 => Ok(x),
        _ => Err("a share between 0 and 1, e.g. 0.6".into()),
    }
}

pub fn run(ctx: &Context, args: Args) -> Outcome {
    let c = Checkup {
        games: args.games,
        seed: args.seed,
        policies: args.ai.clone(),
        share: args.share,
        ..Checkup::default()
    };
    let files = |n: &[usize]| -> Result<(), BadInput> {
        if n.contains(&args.files.len()) {
            Ok(())
        } else {
            Err(BadInput(format!(
                "health {} takes {} file(s), got {}",
                args.game,
                n.iter()
                    .map(|k| k.to_string())
                    .collect::<Vec<_>>()
                    .join(" or "),
                args.files.len()
            )))
        }
    };
    let paths: Vec<String> = args.files.iter().map(|p| p.display().to_string()).collect();
    let stop = AtomicBool::new(false);
    match args.game.as_str() {
        "iconica" => {
            files(&[2, 4])?;
            let cat = open_catalogue(ctx)?;
            let named = named_parties(&cat, &args.files)?;
            let parties: Vec<_> = named.iter().map(|(_, m)| m.clone()).collect();
            let setup = iconica_setup(&parties, Default::default())?;
            let h = health::check(
                |s| {
                    use crate::games::iconica::engine::IconicaGame;
                    (
                        IconicaGame::new(&setup),
                        crate::sim::iconica::seeded_dice(s),
                    )
                },
                &c,
                &stop,
            );
            print(ctx, &args, &paths, h)
        }
        "arcadia" => {
            files(&[1])?;
            let cat = open_catalogue(ctx)?;
            let (m, _) = arcadia_compiled(&cat, &args.files[0], args.arcadia.turn_limit)?;
            let h = health::check(
                |s| {
                    use crate::games::arcadia::engine::ArcadiaGame;
                    (ArcadiaGame::start(&m, &mut Vec::new()), RngDice::new(s))
                },
                &c,
                &stop,
            );
            print(ctx, &args, &paths, h)
        }
        "iconoclasm" => {
            files(&[0])?;
            use crate::games::iconoclasm::engine::{Goal, IconoclasmGame, Pile, deal};
            let (deck, table) = iconoclasm_deck(ctx)?;
            let players = args.players;
            let dealt = |s: u64| {
                deal(
                    deck.clone(),
                    &table,
                    players,
                    Goal::Dominance,
                    &mut ChaCha8Rng::seed_from_u64(derive_seed(s, 0)),
                )
            };
            // A deal that cannot be made fails on the first match: say so once, up front.
            dealt(args.seed)?;
            let setups: Vec<_> = (0..args.games)
                .map(|k| dealt(args.seed.wrapping_add(k)))
                .collect::<Result<_, _>>()?;
            let h = health::check(
                |s| {
                    let setup = &setups[s.wrapping_sub(args.seed) as usize];
                    (
                        IconoclasmGame::start(setup, &mut Vec::new()),
                        Pile::new(setup),
                    )
                },
                &c,
                &stop,
            );
            print(ctx, &args, &paths, h)
        }
        "ruunara" => {
            files(&[2])?;
            use crate::games::ruunara::engine::{RuunaraGame, Setup};
            let cat = open_catalogue(ctx)?;
            let (scenario, _) = ruunara_deployed(&cat, &args.files[0], &args.files[1])?;
            let setup = Setup::new(&scenario)
                .map_err(|e| BadInput(format!("{}: {e}", args.files[0].display())))?;
            for p in &args.ai {
                check_ruunara_search("--ai", *p, setup.figs.len())?;
            }
            let h = health::check(
                |s| (RuunaraGame::start(&setup, &mut Vec::new()), RngDice::new(s)),
                &c,
                &stop,
            );
            print(ctx, &args, &paths, h)
        }
        other => Err(BadInput(format!(
            "`{other}` has no health check; games: iconica, arcadia, iconoclasm, ruunara"
        ))),
    }
}

/// The `play` command that plays match `seed` by `policy`.
fn replay_command(args: &Args, paths: &[String], policy: &str, seed: u64) -> String {
    let mut words = vec!["deckwright play".to_string(), args.game.clone()];
    words.extend(paths.iter().cloned());
    if args.game == "iconoclasm" {
        words.push(format!("--players {}", args.players));
    }
    words.push(format!("--seed {seed} --policy {policy}"));
    words.join(" ")
}

fn print<E: Ending>(ctx: &Context, args: &Args, paths: &[String], h: Option<Health<E>>) -> Outcome {
    let h = h.ok_or_else(|| BadInput("stopped".into()))?;
    let out = &ctx.out;
    let games = args.games;
    let command = |f: &health::Finding| match (&f.policy, f.seed) {
        (Some(p), Some(s)) => Some(replay_command(args, paths, p, s)),
        _ => None,
    };
    if args.json {
        let runs: Vec<_> = h
            .runs
            .iter()
            .map(|r| {
                let seats = r.won_seed.len();
                let ended: serde_json::Map<String, serde_json::Value> = r
                    .tally
                    .endings()
                    .map(|(n, k)| (n.to_string(), json!(k)))
                    .collect();
                json!({
                    "policy": r.policy.name(),
                    "games": r.tally.games,
                    "wins": &r.tally.wins[..seats],
                    "draws": r.tally.draws,
                    "no_result": r.tally.no_result,
                    "first_player_wins": r.first_wins,
                    "first_player_decided": r.first_decided,
                    "mean_turns": r.tally.mean_turns(),
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
            "game": args.game,
            "files": paths,
            "games": games,
            "seed": args.seed,
            "share": args.share,
            "runs": runs,
            "findings": findings,
        }));
        return Ok(ExitCode::SUCCESS);
    }
    writeln!(
        out,
        "health {}{}: {} a policy, seeds {} to {}",
        args.game,
        paths.iter().map(|p| format!(" {p}")).collect::<String>(),
        crate::count(games, "match", "matches"),
        args.seed,
        args.seed.wrapping_add(games - 1)
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
    Ok(ExitCode::SUCCESS)
}
