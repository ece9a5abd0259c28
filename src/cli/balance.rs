//! `deckwright balance GAME CARD`: a card's field win rate, its rank, its matchups, the
//! impact of each of its parts and (with `--suggest`) confirmed fixes (`spec/balance.md`).
//! The measuring is the core's (`crate::balance`); this file reads the input and writes the
//! report.

use std::path::Path;
use std::process::ExitCode;
use std::sync::{Arc, Mutex};

use clap::builder::TypedValueParser as _;
use clap::{ArgMatches, FromArgMatches};
use serde_json::{Value, json};

use super::limits::{self, MAX_GAMES};
use super::load::{iconica_characters, iconoclasm_deck, open_catalogue, parties, read_text};
use super::options::{Sharding, policy_parser};
use super::out::note;
use super::{BadInput, Context, Outcome};
use crate::balance::arcadia::{self as arc, FieldSetup, Subject};
use crate::balance::iconica::{self as bal, Include, Report, Settings, Standing};
use crate::balance::shard::Ledger;
use crate::balance::sprt::{Outcome as SprtOutcome, Sprt, Verdict as SprtVerdict};
use crate::balance::{Delta, Rate, Runner, Stopping};
use crate::cards::{Card, CardFile, CardLookup, parse_card};
use crate::games::arcadia::character::CharacterFile;
use crate::games::arcadia::model::ArcadiaCard;
use crate::games::arcadia::rules::{check_character, check_setup};
use crate::games::arcadia::setup::SetupFile;
use crate::games::build::CardIndex;
use crate::games::iconica::ai::PolicyKind;
use crate::games::iconica::model::Character;
use crate::games::iconoclasm::engine::Goal;
use crate::games::registry::{self, Balance, Method, Registration};
use crate::sim::iconoclasm::Run;

/// `balance`'s subcommands: one per game the registry says is balanced
/// ([`crate::games::registry::Balance`]), its balance options and the run's ([`RunArgs`]).
#[derive(Debug, Clone)]
pub struct Args {
    /// The game measured.
    pub game: &'static Registration,
    /// Its parsed arguments.
    pub matches: ArgMatches,
    /// `balance sweep GAME`: every card of a selection.
    pub sweep: bool,
}

/// `balance --help`'s note of the registered games it does not measure yet.
fn unmeasured() -> String {
    let others: Vec<&str> = registry::GAMES
        .iter()
        .filter(|g| g.balance.is_none())
        .map(|g| g.name)
        .collect();
    if others.is_empty() {
        String::new()
    } else {
        format!(
            "Not measured yet: {} (no balance of theirs).",
            others.join(", ")
        )
    }
}

/// The subcommand of a balanced game: its balance options, then the run's.
fn game_subcommand(g: &Registration, b: &Balance) -> clap::Command {
    let sub = (b.args)(clap::Command::new(g.name));
    let sub = <RunArgs as clap::Args>::augment_args(sub);
    <Sharding as clap::Args>::augment_args(sub)
        .about(b.about)
        .long_about(None)
}

impl FromArgMatches for Args {
    fn from_arg_matches(m: &ArgMatches) -> Result<Self, clap::Error> {
        if let Some(("sweep", sub)) = m.subcommand() {
            let (game, matches) = super::games::game_of(sub)?;
            return Ok(Args {
                game,
                matches,
                sweep: true,
            });
        }
        let (game, matches) = super::games::game_of(m)?;
        if game.balance.is_none() {
            return Err(clap::Error::raw(
                clap::error::ErrorKind::InvalidSubcommand,
                format!("`{}` is not measured by balance\n", game.name),
            ));
        }
        Ok(Args {
            game,
            matches,
            sweep: false,
        })
    }
    fn update_from_arg_matches(&mut self, m: &ArgMatches) -> Result<(), clap::Error> {
        *self = Args::from_arg_matches(m)?;
        Ok(())
    }
}

impl clap::Args for Args {
    fn augment_args(cmd: clap::Command) -> clap::Command {
        let mut cmd = cmd
            .subcommand_required(true)
            .arg_required_else_help(true)
            .after_help(unmeasured());
        for (g, b) in registry::balanced() {
            cmd = cmd.subcommand(game_subcommand(g, b));
        }
        cmd.subcommand(super::balance_sweep::command())
    }
    fn augment_args_for_update(cmd: clap::Command) -> clap::Command {
        Self::augment_args(cmd)
    }
}

/// A game's balance options and the run's, parsed from its subcommand.
#[derive(Debug)]
pub struct Parsed<O> {
    /// The game's own (`BalanceOptions` of its folder).
    pub opts: O,
    /// The run's.
    pub run: RunArgs,
}

impl<O> std::ops::Deref for Parsed<O> {
    type Target = O;
    fn deref(&self) -> &O {
        &self.opts
    }
}

impl<O: FromArgMatches> Parsed<O> {
    pub(super) fn of(m: &ArgMatches) -> Result<Parsed<O>, BadInput> {
        Ok(Parsed {
            opts: O::from_arg_matches(m).map_err(|e| BadInput(e.to_string()))?,
            run: RunArgs::from_arg_matches(m).map_err(|e| BadInput(e.to_string()))?,
        })
    }

    /// These options with their runs recorded or replayed through `ledger`.
    pub(super) fn in_ledger(mut self, ledger: Option<Arc<Mutex<Ledger>>>) -> Parsed<O> {
        self.run.ledger = ledger;
        self
    }
}

/// `balance iconica`'s arguments.
pub type IconicaArgs = Parsed<crate::games::iconica::options::BalanceOptions>;
/// `balance arcadia`'s arguments.
pub type ArcadiaArgs = Parsed<crate::games::arcadia::options::BalanceOptions>;
/// `balance iconoclasm`'s arguments.
pub type IconoclasmArgs = Parsed<crate::games::iconoclasm::options::BalanceOptions>;

/// Runs the measure the game's registration names ([`Method`]); with `--shard K/N --out
/// FILE`, one shard of it (`balance_shard`).
pub fn run(ctx: &Context, args: Args) -> Outcome {
    if args.sweep {
        return match super::balance_sweep::tally_sharding(&args.matches)? {
            Some(sharding) => super::balance_shard::record(ctx, &args, &sharding),
            None => measure(ctx, &args, None),
        };
    }
    let sharding =
        Sharding::from_arg_matches(&args.matches).map_err(|e| BadInput(e.to_string()))?;
    if sharding.shard.is_some() {
        return super::balance_shard::record(ctx, &args, &sharding);
    }
    measure(ctx, &args, None)
}

/// The measure the game's registration names, its runs played, or recorded or replayed
/// through `ledger` (a shard, a merge).
pub(super) fn measure(ctx: &Context, args: &Args, ledger: Option<Arc<Mutex<Ledger>>>) -> Outcome {
    let Some(b) = args.game.balance else {
        return Err(BadInput(format!(
            "`{}` is not measured by balance",
            args.game.name
        )));
    };
    let m = &args.matches;
    if args.sweep {
        return super::balance_sweep::run(ctx, args.game, m, ledger);
    }
    match b.method {
        Method::Field => iconica(ctx, args.game, IconicaArgs::of(m)?.in_ledger(ledger)),
        Method::Points => arcadia(ctx, args.game, ArcadiaArgs::of(m)?.in_ledger(ledger)),
        Method::Seats => iconoclasm(ctx, IconoclasmArgs::of(m)?.in_ledger(ledger)),
        Method::Squad => super::balance_ruunara::run(
            ctx,
            args.game,
            super::balance_ruunara::Args::of(m)?.in_ledger(ledger),
        ),
    }
}

/// What every `balance` run takes: the policy, when to stop, the seed, the threads and the
/// output (one set of options, so the three games read them alike).
#[derive(Debug, Clone, clap::Args)]
pub struct RunArgs {
    /// AI policy of every player: first, random, greedy, mcts, mcts:N or mcts:Nms. Iconica
    /// takes several (comma-separated): the verdict under each, side by side, a verdict or
    /// a part's worth that changes between them flagged.
    #[arg(long, value_name = "POLICY", default_value = "greedy", value_delimiter = ',', value_parser = policy_parser())]
    pub ai: Vec<PolicyKind>,
    /// Stop once the 95% interval (of the paired difference, or of every seat) has a
    /// half-width of at most E (0 < E < 0.5).
    #[arg(long, value_name = "E", default_value_t = 0.02)]
    pub precision: f64,
    /// Stop after at most N games a run (1 to 100,000,000).
    #[arg(long, value_name = "N", default_value_t = 100_000,
          value_parser = clap::value_parser!(u64).range(1..=MAX_GAMES))]
    pub max_games: u64,
    /// Seed of every run: game i of each run uses the same seed (the same deal, pairing or
    /// place), so paired runs differ only in what is measured.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Threads to play on (default: every core); the report does not depend on it.
    #[arg(long, value_name = "T", value_parser = clap::value_parser!(u64).range(1..).map(|t| usize::try_from(t).unwrap_or(usize::MAX)))]
    pub threads: Option<usize>,
    /// Print JSON on stdout.
    #[arg(long)]
    pub json: bool,
    /// A shard's or a merge's runs (`balance_shard`): not an option.
    #[arg(skip)]
    pub ledger: Option<Arc<Mutex<Ledger>>>,
}

impl RunArgs {
    /// The policy of a run of one policy (the first given).
    pub(super) fn policy(&self) -> PolicyKind {
        self.ai.first().copied().unwrap_or(PolicyKind::Greedy)
    }

    /// Refuses several policies where the game's report takes one.
    pub(super) fn one_policy(&self, game: &str) -> Result<(), BadInput> {
        if self.ai.len() > 1 {
            return Err(BadInput(format!(
                "--ai: balance {game} takes one policy; several side by side are Iconica's for now"
            )));
        }
        Ok(())
    }

    /// The runner these options ask for: the stopping rule checked, `--threads` lowered to
    /// the machine's (with a note).
    pub(super) fn runner(&self) -> Result<Runner<'static>, BadInput> {
        let stopping = Stopping::checked(self.precision, self.max_games)
            .map_err(|e| BadInput(format!("--precision/--max-games: {e}")))?;
        let (threads, lowered) = limits::threads(self.threads);
        if let Some(message) = lowered {
            note!("{message}");
        }
        let runner = Runner::new(threads, stopping, &bal::NEVER)
            .map_err(|e| BadInput(format!("--threads: {e}")))?;
        Ok(match &self.ledger {
            Some(l) => runner.with_ledger(l.clone()),
            None => runner,
        })
    }

    /// Why a run stopped, in the options' words.
    pub(super) fn stopped_at(&self, stopped: crate::balance::Stopped) -> String {
        match stopped {
            crate::balance::Stopped::Precision => format!("precision {}", self.precision),
            crate::balance::Stopped::MaxGames => format!("--max-games {}", self.max_games),
        }
    }
}

fn iconoclasm(ctx: &Context, args: IconoclasmArgs) -> Outcome {
    args.run.one_policy("iconoclasm")?;
    let (deck, mut table) = iconoclasm_deck(ctx)?;
    if let Some(path) = &args.clashes {
        let shown = path.display().to_string();
        let text = read_text(path).map_err(|e| BadInput(format!("{shown}: {e}")))?;
        match crate::cards::parse(&text, &shown)? {
            CardFile::Clashes(t) => table = t,
            CardFile::Card(c) => {
                return Err(BadInput(format!(
                    "{shown}: `{}` is a card, not a clash table (kind = \"clashes\")",
                    c.id()
                )));
            }
        }
    }
    let run = Run {
        deck,
        table,
        players: args.players,
        goal: Goal::Dominance,
        policies: vec![args.run.policy()],
    };
    let runner = args.run.runner()?;
    let r = crate::balance::iconoclasm::seats(&run, args.run.seed, &runner)
        .map_err(|e| BadInput(e.to_string()))?;
    let ai = args.run.policy().name();
    let clashes = args
        .clashes
        .as_ref()
        .map_or("catalogue".to_string(), |p| p.display().to_string());
    let out = &ctx.out;
    if args.run.json {
        out.json(&json!({
            "game": "iconoclasm", "players": args.players, "ai": ai, "seed": args.run.seed,
            "clashes": clashes, "draws": "half a win", "games": r.games,
            "stopped": r.stopped.as_str(),
            "seats": r.seats.iter().enumerate().map(|(k, s)| json!({
                "seat": k + 1, "win_rate": s.win_rate, "ci95": ci(s.ci95)})).collect::<Vec<_>>(),
            "first_player_edge": {"edge": r.first_edge.0, "ci95": ci(r.first_edge.1)},
        }));
    } else {
        writeln!(
            out,
            "iconoclasm, {} players, clash table: {clashes}; every seat played by {ai}, seed {}; draws count as half a win",
            args.players, args.run.seed
        );
        writeln!(
            out,
            "{} games; stopped at {}",
            r.games,
            args.run.stopped_at(r.stopped)
        );
        for (k, s) in r.seats.iter().enumerate() {
            writeln!(
                out,
                "  seat {}  {:>6}  (95% CI {} to {})",
                k + 1,
                pct(s.win_rate),
                pct(s.ci95.0),
                pct(s.ci95.1)
            );
        }
        let (e, (lo, hi)) = r.first_edge;
        writeln!(
            out,
            "first player's edge over a fair {}: {} pts ({} to {})",
            pct(1.0 / f64::from(args.players)),
            signed(e),
            signed(lo),
            signed(hi)
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// The card a balance subcommand measures: a file when one is there (or the name looks like
/// one), else a catalogue id or an exact name of the game's; refused (naming what is
/// measured) when the game's balance does not measure its kind.
pub(super) fn card_arg(
    lookup: &dyn CardLookup,
    card: &str,
    game: &Registration,
) -> Result<Card, BadInput> {
    let path = Path::new(card);
    let found = if path.exists() || card.ends_with(".toml") {
        let text = read_text(path).map_err(|e| BadInput(format!("{card}: {e}")))?;
        parse_card(&text, card)?
    } else {
        lookup
            .card(card)
            .or_else(|| {
                crate::cards::Game::parse(game.name)
                    .and_then(|g| lookup.cards_named(g, card).into_iter().next())
            })
            .map(|c| c.into_owned())
            .ok_or_else(|| {
                BadInput(format!(
                    "no card `{card}` in the catalogue (nor a file of that name)"
                ))
            })?
    };
    if game.measures(&found) {
        Ok(found)
    } else {
        Err(not_a(
            card,
            &found,
            game.balance.map_or("a card it measures", |b| b.measured),
        ))
    }
}

/// `card` is not of the kind measured.
pub(super) fn not_a(card: &str, other: &Card, what: &str) -> BadInput {
    BadInput(format!(
        "{card}: `{}` is a {} {}, not {what}",
        other.id(),
        other.game().title(),
        other.kind()
    ))
}

fn load_card(
    lookup: &dyn CardLookup,
    card: &str,
    game: &Registration,
) -> Result<Character, BadInput> {
    match card_arg(lookup, card, game)? {
        Card::Iconica(c) => Ok(c),
        other => Err(not_a(card, &other, "an Iconica character")),
    }
}

/// The run id of a card's field run: its card and field (every number), the rules, the
/// policy, the seed, the stopping rule and the games.
pub(super) fn iconica_run_id(
    args: &IconicaArgs,
    pool: &[Character],
    card: &Character,
    opponents: Option<&[Vec<Character>]>,
) -> String {
    let run = json!({
        "game": "iconica", "measure": "field", "card": card.id, "ai": args.run.policy().name(),
        "seed": args.run.seed, "precision": args.run.precision, "games": args.run.max_games,
        "rules": args.rules,
    });
    let cards = format!("{card:?}\n{pool:?}\n{opponents:?}");
    crate::sim::shard::run_id(&run, crate::games::iconica::matchfile::ENGINE, &cards)
}

fn iconica(ctx: &Context, game: &Registration, args: IconicaArgs) -> Outcome {
    let cat = open_catalogue(ctx)?;
    let card = load_card(&cat, &args.card, game)?;
    let pool = iconica_characters(&cat)?;
    // Each field party is checked alone: two of them may share a Legend, as they never meet.
    let mut field = Vec::new();
    for f in &args.field {
        field.extend(parties(&cat, std::slice::from_ref(f))?);
    }
    let opponents = (!field.is_empty()).then_some(field.as_slice());
    let runner = args.run.runner()?;
    let settings = Settings {
        rules: args.rules.rules(),
        ai: args.run.policy(),
        seed: args.run.seed,
    };
    if args.run.ai.len() > 1 {
        if args.sprt || args.suggest {
            return Err(BadInput(
                "--ai: several policies side by side report the verdict and the impact; run --sprt or --suggest with one".into(),
            ));
        }
        return iconica_policies(ctx, &args, &pool, &card, opponents, &runner);
    }
    if args.sprt {
        let test = Sprt {
            band: bal::FAIR,
            margin: args.margin,
            alpha: 0.05,
            beta: 0.05,
            max_pairs: (args.run.max_games / 2).max(1),
        };
        let o = bal::sprt(&pool, &card, opponents, settings, &runner, test)
            .map_err(|e| BadInput(format!("{}: {e}", args.card)))?;
        write_sprt(ctx, &card, &args, &o);
        return Ok(ExitCode::SUCCESS);
    }
    let include = Include {
        rank: !args.no_rank,
        impact: !args.no_impact,
        suggest: args.suggest,
    };
    let report = bal::report(&pool, &card, opponents, settings, &runner, include)
        .map_err(|e| BadInput(format!("{}: {e}", args.card)))?;
    let who = (card.id.as_str(), card.name.as_str());
    let id = iconica_run_id(&args, &pool, &card, opponents);
    if args.run.json {
        ctx.out.json(&to_json(who, &args, &report, &id));
    } else {
        write_text(ctx, who, &args, &report);
    }
    Ok(ExitCode::SUCCESS)
}

/// The card under each of several policies, side by side: its rate and verdict, and each
/// part's impact; what changes between the policies is flagged.
fn iconica_policies(
    ctx: &Context,
    args: &IconicaArgs,
    pool: &[Character],
    card: &Character,
    opponents: Option<&[Vec<Character>]>,
    runner: &Runner<'_>,
) -> Outcome {
    let include = Include {
        rank: false,
        impact: !args.no_impact,
        suggest: false,
    };
    let mut reports = Vec::new();
    for &ai in &args.run.ai {
        let settings = Settings {
            rules: args.rules.rules(),
            ai,
            seed: args.run.seed,
        };
        let r = bal::report(pool, card, opponents, settings, runner, include)
            .map_err(|e| BadInput(format!("{} ({}): {e}", args.card, ai.name())))?;
        reports.push((ai, r));
    }
    // Flags: the verdict differs between decided policies; a part's impact has opposite
    // signs under two policies, each interval clear of zero.
    let mut flags = Vec::new();
    let decided: Vec<(PolicyKind, Standing)> = reports
        .iter()
        .map(|(ai, r)| (*ai, Standing::of(&r.rate)))
        .filter(|(_, s)| s.decided())
        .collect();
    if decided.windows(2).any(|w| w[0].1 != w[1].1) {
        flags.push(format!(
            "the verdict changes with the policy: {}",
            decided
                .iter()
                .map(|(ai, s)| format!("{} under {}", s.as_str().replace('_', " "), ai.name()))
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    let parts: Vec<String> = reports
        .first()
        .map(|(_, r)| r.impact.iter().map(|i| i.part.clone()).collect())
        .unwrap_or_default();
    for part in &parts {
        let signs: Vec<(PolicyKind, f64)> = reports
            .iter()
            .filter_map(|(ai, r)| {
                let i = r.impact.iter().find(|i| &i.part == part)?;
                let (lo, hi) = i.delta.ci95;
                (lo > 0.0 || hi < 0.0).then_some((*ai, i.delta.delta))
            })
            .collect();
        if signs.iter().any(|s| s.1 > 0.0) && signs.iter().any(|s| s.1 < 0.0) {
            flags.push(format!(
                "{part}: its worth changes sign with the policy ({})",
                signs
                    .iter()
                    .map(|(ai, d)| format!("{} under {}", signed(*d), ai.name()))
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
    }
    let out = &ctx.out;
    if args.run.json {
        ctx.out.json(&json!({
            "game": "iconica",
            "card": card.id,
            "name": card.name,
            "seed": args.run.seed,
            "draws": "half a win",
            "policies": reports.iter().map(|(ai, r)| json!({
                "ai": ai.name(),
                "games": r.rate.games,
                "stopped": r.rate.stopped.as_str(),
                "win_rate": r.rate.win_rate,
                "ci95": ci(r.rate.ci95),
                "verdict": Standing::of(&r.rate).as_str(),
                "decided": Standing::of(&r.rate).decided(),
                "impact": r.impact.iter().map(|i| {
                    let mut v = delta_json(&i.delta);
                    v["part"] = json!(i.part);
                    v
                }).collect::<Vec<_>>(),
            })).collect::<Vec<_>>(),
            "flags": flags,
        }));
        return Ok(ExitCode::SUCCESS);
    }
    writeln!(
        out,
        "{} ({}), Iconica, under {} policies side by side; seed {}; draws count as half a win",
        card.name,
        card.id,
        reports.len(),
        args.run.seed
    );
    writeln!(
        out,
        "{:<12} {:>8}  {:<18} {:>7}  verdict",
        "policy", "win rate", "95% CI", "games"
    );
    for (ai, r) in &reports {
        writeln!(
            out,
            "{:<12} {:>8}  {:<18} {:>7}  {}",
            ai.name(),
            pct(r.rate.win_rate),
            format!("{} to {}", pct(r.rate.ci95.0), pct(r.rate.ci95.1)),
            r.rate.games,
            Standing::of(&r.rate).as_str().replace('_', " ")
        );
    }
    if !parts.is_empty() {
        writeln!(
            out,
            "
impact (points of win rate when the part does nothing; paired):"
        );
        for part in &parts {
            let cells: Vec<String> = reports
                .iter()
                .map(|(ai, r)| {
                    r.impact.iter().find(|i| &i.part == part).map_or_else(
                        || format!("{}: -", ai.name()),
                        |i| {
                            format!(
                                "{}: {} ({} to {})",
                                ai.name(),
                                signed(i.delta.delta),
                                signed(i.delta.ci95.0),
                                signed(i.delta.ci95.1)
                            )
                        },
                    )
                })
                .collect();
            writeln!(out, "{:<40} {}", part, cells.join("   "));
        }
    }
    if flags.is_empty() {
        writeln!(
            out,
            "
no verdict or part's worth changes with the policy"
        );
    } else {
        writeln!(
            out,
            "
flagged:"
        );
        for f in &flags {
            writeln!(out, "  {f}");
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// The sequential test's report of an Iconica character.
fn write_sprt(ctx: &Context, card: &Character, args: &IconicaArgs, o: &SprtOutcome) {
    let pairs = format!(
        "sequential test on pairs of games (same seed, seats swapped): fair = {} to {}, unfair = {} points or more beyond",
        pct(o.settings.band.0),
        pct(o.settings.band.1),
        o.settings.margin * 100.0
    );
    write_sprt_of(
        ctx,
        ("iconica", "Iconica"),
        (&card.id, &card.name),
        &args.run,
        o,
        &pairs,
        None,
    );
}

/// The sequential test's report: `game` its name and title, `who` the card's id and name,
/// `pairs` the line saying what a pair is; `change` (Arcadia's) the change in win rate the
/// pairs' rate stands for.
fn write_sprt_of(
    ctx: &Context,
    game: (&str, &str),
    who: (&str, &str),
    run: &RunArgs,
    o: &SprtOutcome,
    pairs: &str,
    change: Option<f64>,
) {
    let s = &o.settings;
    let ai = run.policy().name();
    if run.json {
        let mut v = json!({
            "game": game.0,
            "card": who.0,
            "name": who.1,
            "ai": ai,
            "seed": run.seed,
            "draws": "half a win",
            "test": "sprt",
            "verdict": o.verdict.as_str(),
            "decided": o.decided(),
            "pairs": o.pairs,
            "games": o.pairs * 2,
            "win_rate": o.win_rate,
            "band": [s.band.0, s.band.1],
            "margin": s.margin,
            "alpha": s.alpha,
            "beta": s.beta,
            "llr": {"above": o.llr_above, "below": o.llr_below},
            "bounds": [o.bounds.0, o.bounds.1],
        });
        if let Some(c) = change {
            v["change"] = json!(c);
        }
        ctx.out.json(&v);
        return;
    }
    let out = &ctx.out;
    writeln!(
        out,
        "{} ({}), {}; both sides played by {ai}, seed {}; draws count as half a win",
        who.1, who.0, game.1, run.seed
    );
    writeln!(out, "{pairs}");
    let verdict = match o.verdict {
        SprtVerdict::Fair => "fair".to_string(),
        SprtVerdict::TooStrong => "too strong".to_string(),
        SprtVerdict::TooWeak => "too weak".to_string(),
        SprtVerdict::NotDecided => format!(
            "not decided after --max-games {} (raise it, or widen --margin)",
            run.max_games
        ),
    };
    writeln!(
        out,
        "{}: {verdict}, after {} pairs ({} games), win rate {}",
        if o.decided() {
            "decided"
        } else {
            "not decided"
        },
        o.pairs,
        o.pairs * 2,
        pct(o.win_rate)
    );
    if let Some(c) = change {
        writeln!(
            out,
            "the pairs' rate is 50% plus half the card's change in win rate: a change of {} pts",
            signed(c)
        );
    }
    writeln!(
        out,
        "log-likelihood ratios: above the band {:.2}, below it {:.2} (bounds {:.2} and {:.2}); error rates {:.0}% each way",
        o.llr_above,
        o.llr_below,
        o.bounds.0,
        o.bounds.1,
        s.alpha * 100.0
    );
}

/// A paired run in two lines: each side's rate with its interval, then the change.
pub(super) fn write_paired(
    out: &super::out::Out,
    with: &str,
    without: &str,
    d: &Delta,
    run: &RunArgs,
) {
    writeln!(
        out,
        "{with} {} (95% CI {} to {}); {without} {} ({} to {})",
        pct(d.other.win_rate),
        pct(d.other.ci95.0),
        pct(d.other.ci95.1),
        pct(d.base.win_rate),
        pct(d.base.ci95.0),
        pct(d.base.ci95.1)
    );
    writeln!(
        out,
        "change {} pts ({} to {}), paired over {} games; stopped at {}",
        signed(d.delta),
        signed(d.ci95.0),
        signed(d.ci95.1),
        d.games,
        run.stopped_at(d.stopped)
    );
}

/// The places of a paired run: each one's games and rates with and without.
pub(super) fn write_places<'r>(
    out: &super::out::Out,
    ai: &str,
    what: &str,
    rows: impl Iterator<Item = (String, &'r Rate, &'r Rate)>,
) {
    writeln!(out, "\nplaces ({ai}):");
    writeln!(
        out,
        "{:<56} {:>7} {:>8} {:>8}",
        what, "games", "with", "without"
    );
    for (name, with, without) in rows {
        writeln!(
            out,
            "{:<56} {:>7} {:>8} {:>8}",
            name,
            with.games,
            pct(with.win_rate),
            pct(without.win_rate)
        );
    }
}

pub(super) fn ci(lo_hi: (f64, f64)) -> Value {
    json!([lo_hi.0, lo_hi.1])
}

pub(super) fn rate_json(r: &Rate) -> Value {
    json!({"games": r.games, "win_rate": r.win_rate, "ci95": ci(r.ci95)})
}

fn delta_json(d: &Delta) -> Value {
    json!({"games": d.games, "delta": d.delta, "ci95": ci(d.ci95), "stopped": d.stopped.as_str()})
}

/// The report's JSON; `who` the card's id and name, `run_id` the run's.
pub(super) fn to_json(who: (&str, &str), args: &IconicaArgs, r: &Report, run_id: &str) -> Value {
    let rank = r.rank.as_ref().map(|k| {
        json!({"of": k.of, "position": k.position, "interval": [k.interval.0, k.interval.1], "table": k.table.iter().map(|(id, name, rate)| {
            let mut v = rate_json(rate);
            v["id"] = json!(id);
            v["name"] = json!(name);
            v
        }).collect::<Vec<_>>()})
    });
    json!({
        "game": "iconica",
        "card": who.0,
        "name": who.1,
        "ai": args.run.policy().name(),
        "seed": args.run.seed,
        "precision": args.run.precision,
        "draws": "half a win",
        "run_id": run_id,
        "games": r.rate.games,
        "stopped": r.rate.stopped.as_str(),
        "win_rate": r.rate.win_rate,
        "ci95": ci(r.rate.ci95),
        "verdict": Standing::of(&r.rate).as_str(),
        "decided": Standing::of(&r.rate).decided(),
        "field": {"given": !args.field.is_empty(), "parties_with_card": r.field.0,
                  "opposing_parties": r.field.1, "pairings": r.field.2},
        "rank": rank,
        "matchups": r.matchups.iter().map(|m| {
            let mut v = rate_json(&m.rate);
            v["name"] = json!(m.name);
            v
        }).collect::<Vec<_>>(),
        "impact": r.impact.iter().map(|i| {
            let mut v = delta_json(&i.delta);
            v["part"] = json!(i.part);
            v
        }).collect::<Vec<_>>(),
        "suggestions": r.suggestions.iter().map(|s| json!({
            "change": s.change, "diff": s.diff, "games": s.measured.games,
            "win_rate": s.measured.other.win_rate, "ci95": ci(s.measured.other.ci95),
            "delta": s.measured.delta, "delta_ci95": ci(s.measured.ci95),
        })).collect::<Vec<_>>(),
    })
}

pub(super) fn pct(x: f64) -> String {
    format!("{:.1}%", x * 100.0)
}

pub(super) fn signed(x: f64) -> String {
    format!("{:+.1}", x * 100.0)
}

/// The report in words; `who` the card's id and name.
pub(super) fn write_text(ctx: &Context, who: (&str, &str), args: &IconicaArgs, r: &Report) {
    let out = &ctx.out;
    let ai = args.run.policy().name();
    writeln!(
        out,
        "{} ({}), Iconica; both sides played by {ai}, seed {}",
        who.1, who.0, args.run.seed
    );
    writeln!(
        out,
        "field: {} {} with the card x {} opposing parties ({} legal pairings); draws count as half a win",
        r.field.0,
        if r.field.0 == 1 { "party" } else { "parties" },
        r.field.1,
        r.field.2
    );
    writeln!(
        out,
        "win rate {} (95% CI {} to {}) over {} games; stopped at {}",
        pct(r.rate.win_rate),
        pct(r.rate.ci95.0),
        pct(r.rate.ci95.1),
        r.rate.games,
        args.run.stopped_at(r.rate.stopped)
    );
    let verdict = match Standing::of(&r.rate) {
        Standing::Fair => "decided: fair (the whole interval is within 45% to 55%)".to_string(),
        Standing::TooStrong => "decided: too strong (the whole interval is above 55%)".into(),
        Standing::TooWeak => "decided: too weak (the whole interval is below 45%)".into(),
        Standing::NotDecided => {
            "not decided: the interval reaches across the band's edge (45% to 55%); a smaller --precision or --sprt decides it".into()
        }
    };
    writeln!(out, "{verdict}");
    if let Some(k) = &r.rank {
        let between = if k.interval.0 == k.interval.1 {
            String::new()
        } else {
            format!(
                "; between {} and {} within the intervals",
                k.interval.0, k.interval.1
            )
        };
        writeln!(
            out,
            "rank {} of {}{between} among the catalogue's characters (each against its own field, {ai})",
            k.position, k.of
        );
    }
    writeln!(out, "\nmatchups ({ai}):");
    writeln!(
        out,
        "{:<40} {:>7} {:>8}  95% CI",
        "opponent", "games", "win rate"
    );
    for m in &r.matchups {
        writeln!(
            out,
            "{:<40} {:>7} {:>8}  {} to {}",
            m.name,
            m.rate.games,
            pct(m.rate.win_rate),
            pct(m.rate.ci95.0),
            pct(m.rate.ci95.1)
        );
    }
    if !r.impact.is_empty() {
        writeln!(
            out,
            "\nimpact (change in win rate when the part does nothing; paired, {ai}):"
        );
        for i in &r.impact {
            writeln!(
                out,
                "{:<48} {:>6} pts  ({} to {}) over {} games",
                i.part,
                signed(i.delta.delta),
                signed(i.delta.ci95.0),
                signed(i.delta.ci95.1),
                i.delta.games
            );
        }
    }
    if args.suggest {
        if r.suggestions.is_empty() {
            writeln!(out, "\nno suggestion: ");
            if (bal::FAIR.0..=bal::FAIR.1).contains(&r.rate.win_rate) {
                writeln!(out, "the card is already within 45-55%");
            } else {
                writeln!(out, "no small change was confirmed within 45-55%");
            }
        }
        for s in &r.suggestions {
            writeln!(
                out,
                "\nsuggestion: {} -> {} (95% CI {} to {}), paired over {} games ({ai})",
                s.change,
                pct(s.measured.other.win_rate),
                pct(s.measured.other.ci95.0),
                pct(s.measured.other.ci95.1),
                s.measured.games
            );
            out.text(&s.diff);
        }
    }
}

/// An Arcadia merit or flaw: a file when one is there (or the name looks like one), else a
/// catalogue id.
fn load_subject(
    lookup: &dyn CardLookup,
    card: &str,
    game: &Registration,
) -> Result<(Subject, Card), BadInput> {
    let parsed = card_arg(lookup, card, game)?;
    match &parsed {
        Card::Arcadia(ArcadiaCard::Merit(m)) => Ok((Subject::Merit(m.clone()), parsed)),
        Card::Arcadia(ArcadiaCard::Flaw(f)) => Ok((Subject::Flaw(f.clone()), parsed)),
        other => Err(not_a(card, other, "an Arcadia merit or flaw")),
    }
}

/// A character file, which must be legal.
fn legal_character(path: &Path, lookup: &dyn CardLookup) -> Result<CharacterFile, BadInput> {
    let shown = path.display().to_string();
    let text = read_text(path).map_err(|e| BadInput(format!("{shown}: {e}")))?;
    let c = CharacterFile::parse(&text, &shown)?;
    let r = check_character(&c, lookup);
    if let Some(v) = r.violations.first() {
        return Err(BadInput(format!(
            "{shown}: the character is not legal: {}: {}{}",
            v.rule,
            v.message,
            if r.violations.len() > 1 {
                format!(
                    " (and {} more; run `deckwright validate`)",
                    r.violations.len() - 1
                )
            } else {
                String::new()
            }
        )));
    }
    Ok(c)
}

/// The field: `--setup` (or every legal example setup), its characters replaced by each
/// of `--characters` in turn when given.
fn arcadia_field(args: &ArcadiaArgs, lookup: &dyn CardLookup) -> Result<Vec<FieldSetup>, BadInput> {
    let setups: Vec<FieldSetup> = match &args.setup {
        Some(path) => {
            let shown = path.display().to_string();
            let text = read_text(path).map_err(|e| BadInput(format!("{shown}: {e}")))?;
            let setup = SetupFile::parse(&text, &shown)?;
            let mut chars = Vec::new();
            for p in setup.character_paths(path) {
                chars.push(legal_character(&p, lookup)?);
            }
            let characters: [CharacterFile; 2] = chars
                .try_into()
                .map_err(|_| BadInput(format!("{shown}: a setup has two characters")))?;
            if let Some(v) = check_setup(&setup, &characters, lookup).violations.first() {
                return Err(BadInput(format!(
                    "{shown}: the setup is not legal: {}: {}",
                    v.rule, v.message
                )));
            }
            let name = path
                .file_name()
                .map_or(shown.clone(), |n| n.to_string_lossy().into_owned());
            vec![FieldSetup {
                name,
                setup,
                characters,
                measured: [true, true],
            }]
        }
        None => arc::example_field(lookup),
    };
    if setups.is_empty() {
        return Err(BadInput("no legal example setup to measure in".into()));
    }
    if args.characters.is_empty() {
        return Ok(setups);
    }
    let mut given = Vec::new();
    for p in &args.characters {
        let shown = p.file_name().map_or(p.display().to_string(), |n| {
            n.to_string_lossy().into_owned()
        });
        given.push((shown, legal_character(p, lookup)?));
    }
    // Each given character in each seat of each setup, against the setup's other one.
    let mut out = Vec::new();
    for s in &setups {
        for (shown, c) in &given {
            for seat in 0..2 {
                let mut characters = s.characters.clone();
                characters[seat] = c.clone();
                if check_setup(&s.setup, &characters, lookup).is_legal() {
                    let mut measured = [false; 2];
                    measured[seat] = true;
                    out.push(FieldSetup {
                        name: format!("{} ({shown})", s.name),
                        setup: s.setup.clone(),
                        characters,
                        measured,
                    });
                }
            }
        }
    }
    if out.is_empty() {
        return Err(BadInput(
            "no setup is legal with the characters given (the waylay budgets depend on them; run `deckwright validate`)".into(),
        ));
    }
    Ok(out)
}

fn arcadia(ctx: &Context, game: &Registration, args: ArcadiaArgs) -> Outcome {
    if args.run.ai.len() > 1 && (args.sprt || args.rank) {
        return Err(BadInput(
            "--ai: several policies side by side report the verdict and the worth; run --sprt or --rank with one".into(),
        ));
    }
    let cat = open_catalogue(ctx)?;
    let (subject, card) = load_subject(&cat, &args.card, game)?;
    // The catalogue's cards with the card in place (a file not yet imported included).
    let mut cards = cat.all().map_err(|e| BadInput(format!("catalogue: {e}")))?;
    cards.retain(|c| c.id() != card.id());
    cards.push(card);
    let index = CardIndex::new(cards);
    let shop = arc::shop(index.cards());
    let field = arcadia_field(&args, &index)?;
    let runner = args.run.runner()?;
    let settings = arc::Settings {
        ai: args.run.policy(),
        seed: args.run.seed,
        turn_limit: args.rules.turn_limit,
    };
    if args.sprt {
        let test = Sprt {
            band: bal::FAIR,
            margin: args.margin,
            alpha: 0.05,
            beta: 0.05,
            max_pairs: (args.run.max_games / 2).max(1),
        };
        let o = arc::sprt(&field, &subject, &shop, &index, settings, &runner, test)
            .map_err(|e| BadInput(format!("{}: {e}", args.card)))?;
        let pairs = format!(
            "sequential test on pairs of games (same seed and place, one with the card and one {}): fair = a change within {} pts either way (the pairs' rate {} to {}), unfair = {} pts or more beyond",
            match subject {
                Subject::Merit(_) => "with its cost spent otherwise",
                Subject::Flaw(_) => "without it",
            },
            signed(bal::FAIR.1 * 2.0 - 1.0).trim_start_matches('+'),
            pct(bal::FAIR.0),
            pct(bal::FAIR.1),
            args.margin * 200.0
        );
        write_sprt_of(
            ctx,
            ("arcadia", "Arcadia"),
            (subject.id(), subject.name()),
            &args.run,
            &o,
            &pairs,
            Some(2.0 * o.win_rate - 1.0),
        );
        return Ok(ExitCode::SUCCESS);
    }
    if args.run.ai.len() > 1 {
        return arcadia_policies(ctx, &args, &subject, &field, &shop, &index, &runner);
    }
    let r = arc::report(
        &field,
        &subject,
        &shop,
        &index,
        settings,
        &runner,
        !args.no_worth,
    )
    .map_err(|e| BadInput(format!("{}: {e}", args.card)))?;
    let rank = if args.rank {
        let mut others = arc::subjects(index.cards());
        others.retain(|c| c.id() != subject.id());
        let ranked = arc::rank_cards(
            &others,
            &field,
            &shop,
            &index,
            settings,
            &runner,
            &mut || {},
        )
        .map_err(|e| BadInput(format!("ranking: {e}")))?;
        Some(arc::rank_among(&r, &ranked))
    } else {
        None
    };
    if args.run.json {
        ctx.out.json(&arcadia_json(&subject, &args, &r, rank));
    } else {
        arcadia_text(ctx, &subject, &args, &r, rank);
    }
    Ok(ExitCode::SUCCESS)
}

/// The card under each of several policies, side by side: the change it makes and its
/// worth; a change or a worth whose sign differs between policies (each interval clear of
/// zero) is flagged.
fn arcadia_policies(
    ctx: &Context,
    args: &ArcadiaArgs,
    subject: &Subject,
    field: &[FieldSetup],
    shop: &[crate::games::arcadia::model::Merit],
    index: &CardIndex,
    runner: &Runner<'_>,
) -> Outcome {
    let mut reports = Vec::new();
    for &ai in &args.run.ai {
        let settings = arc::Settings {
            ai,
            seed: args.run.seed,
            turn_limit: args.rules.turn_limit,
        };
        let r = arc::report(
            field,
            subject,
            shop,
            index,
            settings,
            runner,
            !args.no_worth,
        )
        .map_err(|e| BadInput(format!("{} ({}): {e}", args.card, ai.name())))?;
        reports.push((ai, r));
    }
    let clear = |d: &Delta| (d.ci95.0 > 0.0 || d.ci95.1 < 0.0).then_some(d.delta);
    let mut flags = Vec::new();
    let mut flag = |what: &str, of: &dyn Fn(&arc::Report) -> Option<f64>| {
        let signs: Vec<(PolicyKind, f64)> = reports
            .iter()
            .filter_map(|(ai, r)| of(r).map(|d| (*ai, d)))
            .collect();
        if signs.iter().any(|s| s.1 > 0.0) && signs.iter().any(|s| s.1 < 0.0) {
            flags.push(format!(
                "{what} changes sign with the policy ({})",
                signs
                    .iter()
                    .map(|(ai, d)| format!("{} under {}", signed(*d), ai.name()))
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
    };
    flag("the change the card makes", &|r| clear(&r.delta));
    flag("its worth", &|r| r.worth.as_ref().and_then(clear));
    let decided = |d: &Delta| clear(d).is_some();
    if args.run.json {
        ctx.out.json(&json!({
            "game": "arcadia",
            "card": subject.id(),
            "name": subject.name(),
            "seed": args.run.seed,
            "draws": "half a win",
            "policies": reports.iter().map(|(ai, r)| json!({
                "ai": ai.name(),
                "games": r.delta.games,
                "stopped": r.delta.stopped.as_str(),
                "win_rate": r.delta.other.win_rate,
                "ci95": ci(r.delta.other.ci95),
                "delta": r.delta.delta,
                "delta_ci95": ci(r.delta.ci95),
                "decided": decided(&r.delta),
                "per_point": per_point_json(r.per_point),
                "worth": r.worth.as_ref().map(delta_json),
            })).collect::<Vec<_>>(),
            "flags": flags,
        }));
        return Ok(ExitCode::SUCCESS);
    }
    let out = &ctx.out;
    writeln!(
        out,
        "{} ({}), Arcadia {}, under {} policies side by side; seed {}; draws count as half a win",
        subject.name(),
        subject.id(),
        reports.first().map_or("card", |(_, r)| r.kind),
        reports.len(),
        args.run.seed
    );
    writeln!(
        out,
        "{:<12} {:>8} {:>22} {:>7}  {:>22}",
        "policy", "with", "change pts (95% CI)", "games", "worth pts (95% CI)"
    );
    let pts = |d: &Delta| {
        format!(
            "{} ({} to {})",
            signed(d.delta),
            signed(d.ci95.0),
            signed(d.ci95.1)
        )
    };
    for (ai, r) in &reports {
        writeln!(
            out,
            "{:<12} {:>8} {:>22} {:>7}  {:>22}",
            ai.name(),
            pct(r.delta.other.win_rate),
            pts(&r.delta),
            r.delta.games,
            r.worth.as_ref().map_or("-".to_string(), pts)
        );
    }
    if flags.is_empty() {
        writeln!(out, "\nno change or worth changes sign with the policy");
    } else {
        writeln!(out, "\nflagged:");
        for f in &flags {
            writeln!(out, "  {f}");
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn per_point_json(p: Option<(f64, (f64, f64))>) -> Value {
    p.map_or(Value::Null, |(x, c)| json!({"delta": x, "ci95": ci(c)}))
}

fn arcadia_json(
    subject: &Subject,
    args: &ArcadiaArgs,
    r: &arc::Report,
    rank: Option<arc::Rank>,
) -> Value {
    let against = match subject {
        Subject::Merit(_) => "the same characters with the merit's cost spent by the builder",
        Subject::Flaw(_) => "the same characters without the flaw (and without its points)",
    };
    json!({
        "game": "arcadia",
        "card": subject.id(),
        "name": subject.name(),
        "kind": r.kind,
        "points": r.points,
        "ai": args.run.policy().name(),
        "seed": args.run.seed,
        "precision": args.run.precision,
        "draws": "half a win",
        "games": r.delta.games,
        "stopped": r.delta.stopped.as_str(),
        "win_rate": r.delta.other.win_rate,
        "ci95": ci(r.delta.other.ci95),
        "against": {"what": against, "win_rate": r.delta.base.win_rate, "ci95": ci(r.delta.base.ci95)},
        "delta": r.delta.delta,
        "delta_ci95": ci(r.delta.ci95),
        "verdict": arc::standing(&r.delta).as_str(),
        "decided": arc::standing(&r.delta).decided(),
        "per_point": per_point_json(r.per_point),
        "worth": r.worth.as_ref().map(|w| {
            let mut v = delta_json(w);
            v["per_point"] = per_point_json(r.worth_per_point);
            v
        }),
        "field": r.places.iter().map(|p| json!({
            "setup": p.setup, "character": p.character, "player": p.seat + 1,
            "dropped": p.dropped, "bought": p.bought,
        })).collect::<Vec<_>>(),
        "rank": rank.map(|k| json!({"of": k.of, "position": k.position})),
        "matchups": r.matchups.iter().map(|m| json!({
            "name": format!("{}: {} (player {})", m.setup, m.character, m.seat + 1),
            "games": m.with.games,
            "win_rate": m.with.win_rate, "ci95": ci(m.with.ci95),
            "without": {"win_rate": m.without.win_rate, "ci95": ci(m.without.ci95)},
        })).collect::<Vec<_>>(),
        "impact": [],
        "suggestions": [],
    })
}

fn arcadia_text(
    ctx: &Context,
    subject: &Subject,
    args: &ArcadiaArgs,
    r: &arc::Report,
    rank: Option<arc::Rank>,
) {
    let out = &ctx.out;
    let ai = args.run.policy().name();
    let (unit, without) = match subject {
        Subject::Merit(_) => ("cost", "its cost spent by the builder instead"),
        Subject::Flaw(_) => ("points", "without the flaw (nor its points)"),
    };
    writeln!(
        out,
        "{} ({}), Arcadia {}, {} {unit}; both players played by {ai}, seed {}; draws count as half a win",
        subject.name(),
        subject.id(),
        r.kind,
        r.points,
        args.run.seed
    );
    writeln!(
        out,
        "field: {} {} (a character of a setup); the opponent unchanged",
        r.places.len(),
        if r.places.len() == 1 {
            "place"
        } else {
            "places"
        }
    );
    let d = &r.delta;
    let with = match subject {
        Subject::Merit(_) => "with the merit",
        Subject::Flaw(_) => "with the flaw (its points spent by the builder)",
    };
    write_paired(out, with, without, d, &args.run);
    let verdict = match arc::standing(d) {
        Standing::Fair => {
            "decided: worth its points (the change's whole interval is within 10 points either way)"
        }
        Standing::TooStrong => {
            "decided: too strong (the change's whole interval is above +10 points)"
        }
        Standing::TooWeak => "decided: too weak (the change's whole interval is below -10 points)",
        Standing::NotDecided => {
            "not decided: the change's interval reaches across the band's edge (10 points either way); a smaller --precision or --sprt decides it"
        }
    };
    writeln!(out, "{verdict}");
    if let Some((x, (lo, hi))) = r.per_point {
        writeln!(
            out,
            "per {} point: {} pts ({} to {})",
            if r.kind == "merit" { "cost" } else { "flaw" },
            signed(x),
            signed(lo),
            signed(hi)
        );
    }
    if let Some(w) = &r.worth {
        writeln!(
            out,
            "worth (the card alone against its points unspent): {} pts ({} to {}) over {} games",
            signed(w.delta),
            signed(w.ci95.0),
            signed(w.ci95.1),
            w.games
        );
    }
    if let Some(k) = rank {
        writeln!(
            out,
            "rank {} of {} among the catalogue's merits and flaws by change per point (each over the same field, {ai})",
            k.position, k.of
        );
    }
    write_places(
        out,
        &ai,
        "setup: character",
        r.matchups.iter().map(|m| {
            (
                format!("{}: {} (player {})", m.setup, m.character, m.seat + 1),
                &m.with,
                &m.without,
            )
        }),
    );
    for p in &r.places {
        if !p.dropped.is_empty() || !p.bought.is_empty() {
            writeln!(
                out,
                "  {}: {}: dropped [{}], the builder bought [{}]",
                p.setup,
                p.character,
                p.dropped.join(", "),
                p.bought.join(", ")
            );
        }
    }
}
