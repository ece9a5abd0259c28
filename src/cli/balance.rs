//! `deckwright balance GAME CARD`: a card's field win rate, its rank, its matchups, the
//! impact of each of its parts and (with `--suggest`) confirmed fixes (`spec/balance.md`).
//! The measuring is the core's (`crate::balance`); this file reads the input and writes the
//! report.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::builder::TypedValueParser as _;
use serde_json::{Value, json};

use super::limits::{self, MAX_GAMES};
use super::load::{iconica_characters, iconoclasm_deck, open_catalogue, parties, read_text};
use super::options::{IconicaRules, policy_parser};
use super::out::note;
use super::{BadInput, Context, Outcome};
use crate::balance::iconica::{self as bal, Include, Report, Settings};
use crate::balance::{Delta, Rate, Runner, Stopping};
use crate::cards::{Card, CardFile, CardLookup, parse_card};
use crate::games::iconica::ai::PolicyKind;
use crate::games::iconica::model::Character;
use crate::games::iconoclasm::engine::Goal;
use crate::sim::iconoclasm::Run;

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(subcommand)]
    pub game: Game,
}

/// The games `balance` knows.
#[derive(Debug, clap::Subcommand)]
pub enum Game {
    /// An Iconica character against the field of legal parties.
    Iconica(IconicaArgs),
    /// Each seat's win rate and the first player's edge under a clash table.
    Iconoclasm(IconoclasmArgs),
}

#[derive(Debug, clap::Args)]
pub struct IconoclasmArgs {
    /// A clash table file (`kind = "clashes"`; default: the catalogue's).
    #[arg(long, value_name = "FILE")]
    pub clashes: Option<PathBuf>,
    /// Players at the table, 2 to 4.
    #[arg(long, value_name = "N", default_value_t = 2, value_parser = clap::value_parser!(u8).range(2..=4))]
    pub players: u8,
    /// AI policy of every seat: first, random, greedy, mcts, mcts:N or mcts:Nms.
    #[arg(long, value_name = "POLICY", default_value = "greedy", value_parser = policy_parser())]
    pub ai: PolicyKind,
    /// Stop once every seat's 95% interval has a half-width of at most E (0 < E < 0.5).
    #[arg(long, value_name = "E", default_value_t = 0.02)]
    pub precision: f64,
    /// Stop after at most N games (1 to 100,000,000).
    #[arg(long, value_name = "N", default_value_t = 100_000,
          value_parser = clap::value_parser!(u64).range(1..=MAX_GAMES))]
    pub max_games: u64,
    /// Seed of the run: game i's deal and policies derive from it.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Threads to play on (default: every core); the report does not depend on it.
    #[arg(long, value_name = "T", value_parser = clap::value_parser!(u64).range(1..).map(|t| usize::try_from(t).unwrap_or(usize::MAX)))]
    pub threads: Option<usize>,
    /// Print JSON on stdout.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, clap::Args)]
pub struct IconicaArgs {
    /// A catalogue id, or a card file (imported or not).
    #[arg(value_name = "CARD")]
    pub card: String,
    /// Party files to measure against (default: every legal party of the catalogue's
    /// Iconica characters without the card).
    #[arg(long, value_name = "FILE", num_args = 1..)]
    pub field: Vec<PathBuf>,
    /// AI policy of both sides: first, random, greedy, mcts, mcts:N or mcts:Nms.
    #[arg(long, value_name = "POLICY", default_value = "greedy", value_parser = policy_parser())]
    pub ai: PolicyKind,
    /// Stop once the 95% interval's half-width is at most E (0 < E < 0.5).
    #[arg(long, value_name = "E", default_value_t = 0.02)]
    pub precision: f64,
    /// Stop after at most N games a run (1 to 100,000,000).
    #[arg(long, value_name = "N", default_value_t = 100_000,
          value_parser = clap::value_parser!(u64).range(1..=MAX_GAMES))]
    pub max_games: u64,
    /// Seed of every run: game i of each run uses the same seed and pairing.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Threads to play on (default: every core); the report does not depend on it.
    #[arg(long, value_name = "T", value_parser = clap::value_parser!(u64).range(1..).map(|t| usize::try_from(t).unwrap_or(usize::MAX)))]
    pub threads: Option<usize>,
    /// Up to three confirmed edits that put the card within 45-55%.
    #[arg(long)]
    pub suggest: bool,
    /// Skip the rank among the catalogue's characters (one run per character).
    #[arg(long)]
    pub no_rank: bool,
    /// Skip the impact of each part (one paired run per part).
    #[arg(long)]
    pub no_impact: bool,
    #[command(flatten)]
    pub rules: IconicaRules,
    /// Print JSON on stdout.
    #[arg(long)]
    pub json: bool,
}

pub fn run(ctx: &Context, args: Args) -> Outcome {
    match args.game {
        Game::Iconica(a) => iconica(ctx, a),
        Game::Iconoclasm(a) => iconoclasm(ctx, a),
    }
}

/// A runner on `--threads` (lowered to the machine's, with a note).
fn runner(threads: Option<usize>, stopping: Stopping) -> Result<Runner<'static>, BadInput> {
    let (threads, lowered) = limits::threads(threads);
    if let Some(message) = lowered {
        note!("{message}");
    }
    Runner::new(threads, stopping, &bal::NEVER).map_err(|e| BadInput(format!("--threads: {e}")))
}

fn iconoclasm(ctx: &Context, args: IconoclasmArgs) -> Outcome {
    let stopping = Stopping::checked(args.precision, args.max_games)
        .map_err(|e| BadInput(format!("--precision/--max-games: {e}")))?;
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
        policies: vec![args.ai],
    };
    let runner = runner(args.threads, stopping)?;
    let r = crate::balance::iconoclasm::seats(&run, args.seed, &runner)
        .map_err(|e| BadInput(e.to_string()))?;
    let ai = args.ai.name();
    let clashes = args
        .clashes
        .as_ref()
        .map_or("catalogue".to_string(), |p| p.display().to_string());
    let out = &ctx.out;
    if args.json {
        out.json(&json!({
            "game": "iconoclasm", "players": args.players, "ai": ai, "seed": args.seed,
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
            args.players, args.seed
        );
        writeln!(
            out,
            "{} games; stopped at {}",
            r.games,
            match r.stopped {
                crate::balance::Stopped::Precision => format!("precision {}", args.precision),
                crate::balance::Stopped::MaxGames => format!("--max-games {}", args.max_games),
            }
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

/// CARD: a file when one is there (or the name looks like one), else a catalogue id.
fn load_card(lookup: &dyn CardLookup, card: &str) -> Result<Character, BadInput> {
    let path = Path::new(card);
    let parsed = if path.exists() || card.ends_with(".toml") {
        let text = read_text(path).map_err(|e| BadInput(format!("{card}: {e}")))?;
        parse_card(&text, card)?
    } else {
        lookup.card(card).map(|c| c.into_owned()).ok_or_else(|| {
            BadInput(format!(
                "no card `{card}` in the catalogue (nor a file of that name)"
            ))
        })?
    };
    match parsed {
        Card::Iconica(c) => Ok(c),
        other => Err(BadInput(format!(
            "{card}: `{}` is a {} {}, not an Iconica character",
            other.id(),
            other.game().title(),
            other.kind()
        ))),
    }
}

fn iconica(ctx: &Context, args: IconicaArgs) -> Outcome {
    let stopping = Stopping::checked(args.precision, args.max_games)
        .map_err(|e| BadInput(format!("--precision/--max-games: {e}")))?;
    let cat = open_catalogue(ctx)?;
    let card = load_card(&cat, &args.card)?;
    let pool = iconica_characters(&cat)?;
    // Each field party is checked alone: two of them may share a Legend, as they never meet.
    let mut field = Vec::new();
    for f in &args.field {
        field.extend(parties(&cat, std::slice::from_ref(f))?);
    }
    let opponents = (!field.is_empty()).then_some(field.as_slice());
    let runner = runner(args.threads, stopping)?;
    let settings = Settings {
        rules: args.rules.rules(),
        ai: args.ai,
        seed: args.seed,
    };
    let include = Include {
        rank: !args.no_rank,
        impact: !args.no_impact,
        suggest: args.suggest,
    };
    let report = bal::report(&pool, &card, opponents, settings, &runner, include)
        .map_err(|e| BadInput(format!("{}: {e}", args.card)))?;
    if args.json {
        ctx.out.json(&to_json(&card, &args, &report));
    } else {
        write_text(ctx, &card, &args, &report);
    }
    Ok(ExitCode::SUCCESS)
}

fn ci(lo_hi: (f64, f64)) -> Value {
    json!([lo_hi.0, lo_hi.1])
}

fn rate_json(r: &Rate) -> Value {
    json!({"games": r.games, "win_rate": r.win_rate, "ci95": ci(r.ci95)})
}

fn delta_json(d: &Delta) -> Value {
    json!({"games": d.games, "delta": d.delta, "ci95": ci(d.ci95), "stopped": d.stopped.as_str()})
}

fn to_json(card: &Character, args: &IconicaArgs, r: &Report) -> Value {
    let rank = r.rank.as_ref().map(|k| {
        json!({"of": k.of, "position": k.position, "table": k.table.iter().map(|(id, name, rate)| {
            let mut v = rate_json(rate);
            v["id"] = json!(id);
            v["name"] = json!(name);
            v
        }).collect::<Vec<_>>()})
    });
    json!({
        "game": "iconica",
        "card": card.id,
        "name": card.name,
        "ai": args.ai.name(),
        "seed": args.seed,
        "precision": args.precision,
        "draws": "half a win",
        "games": r.rate.games,
        "stopped": r.rate.stopped.as_str(),
        "win_rate": r.rate.win_rate,
        "ci95": ci(r.rate.ci95),
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

fn pct(x: f64) -> String {
    format!("{:.1}%", x * 100.0)
}

fn signed(x: f64) -> String {
    format!("{:+.1}", x * 100.0)
}

fn write_text(ctx: &Context, card: &Character, args: &IconicaArgs, r: &Report) {
    let out = &ctx.out;
    let ai = args.ai.name();
    writeln!(
        out,
        "{} ({}), Iconica; both sides played by {ai}, seed {}",
        card.name, card.id, args.seed
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
        match r.rate.stopped {
            crate::balance::Stopped::Precision => format!("precision {}", args.precision),
            crate::balance::Stopped::MaxGames => format!("--max-games {}", args.max_games),
        }
    );
    if let Some(k) = &r.rank {
        writeln!(
            out,
            "rank {} of {} among the catalogue's characters (each against its own field, {ai})",
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
