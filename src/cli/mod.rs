//! The command line (`spec/cli.md`): defined once here with clap, one file per subcommand
//! (`play` and `sim` build a subcommand for every registered game from its registration:
//! no file of theirs is about one game). Subcommands print through one writer
//! (`out.rs`) and choose exit codes; the work itself is done by the core.

mod balance;
mod balance_ruunara;
mod balance_shard;
mod balance_sweep;
mod campaign;
mod cards_export;
mod catalogue;
mod collection;
mod duel;
mod export;
mod games;
mod health;
mod host;
mod import;
mod join;
mod limits;
mod lint;
mod load;
mod merge;
mod odds;
mod options;
mod out;
mod play;
mod preflight;
mod relay;
mod replay;
mod report;
mod search;
mod sheet;
mod sim;
mod template;
mod validate;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Catalogue, author, build, playtest and print small-press tabletop card games.
///
/// With no subcommand, opens the desktop app.
#[derive(Debug, Parser)]
#[command(name = "deckwright", version, about, long_about = None)]
pub struct Cli {
    /// The catalogue file (default: in the platform data directory).
    #[arg(long, global = true, env = "DECKWRIGHT_DB", value_name = "PATH")]
    pub db: Option<PathBuf>,

    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Load card files or folders (all or nothing: one bad file imports none).
    Import(import::Args),
    /// Card files: `cards export DIR` writes the catalogue back as TOML.
    Cards(cards_export::Args),
    /// Search the catalogue with the query language (see docs/search.md).
    Search(search::Args),
    /// Owned quantities: set, import and export CSV.
    Collection(collection::Args),
    /// Check party, character, setup, squad and mission files against their game's rules.
    Validate(validate::Args),
    /// Play one match and print its event log and final state.
    Play(play::Args),
    /// Replay a match file: its log and final state as `play` prints them, every step checked.
    Replay(replay::Args),
    /// Run many AI-vs-AI matches and report win rates.
    Sim(sim::Args),
    /// Cards whose text their game's engine does not fully play (exit 1 if any).
    Lint(lint::Args),
    /// The rules' own bugs: seeded matches of a setup under each policy (stalls, limits,
    /// one-sided endings, options never taken), each with the `play` that shows it.
    Health(health::Args),
    /// The report of a run split into shards (`sim ... --shard K/N --out FILE`), from their tallies.
    Merge(merge::Args),
    /// A close-combat duel played many times: the chance of each ending (Ruunara).
    Duel(duel::Args),
    /// A card's field win rate, the impact of its parts and fixes (see docs/balance.md).
    Balance(balance::Args),
    /// Exact distribution of hits of a Ruunara `nD k+` attack.
    Odds(odds::Args),
    /// Print-and-play PDF sheets (or one PNG per card with --png DIR).
    Export(export::Args),
    /// The catalogue file: check it, back it up, or restore a backup.
    Catalogue(catalogue::Args),
    /// Cards as spreadsheet rows: `sheet export SELECTION --out F.xlsx|F.csv`, `sheet import F`.
    Sheet(sheet::Args),
    /// Before printing: text shrunk past reading, low-resolution or missing art (exit 1 if any).
    Preflight(preflight::Args),
    /// Host a match over the network: the first line printed is the code friends join with.
    Host(host::Args),
    /// Join a hosted match with its code (a seat at this terminal, by a policy, or --watch).
    Join(join::Args),
    /// Run a relay for hosts friends cannot reach directly; prints the line hosts pass to
    /// `host --relay`. It forwards encrypted streams only and reads nothing of the match.
    Relay(relay::Args),
    /// Card face templates: check one, pack a set with its fonts and pictures into one file,
    /// or import such a file (see docs/templates.md).
    Template(template::Args),
}

/// Exit status 2: bad input. The message says what is wrong and, for files, where.
#[derive(Debug)]
pub struct BadInput(pub String);

impl<E: std::fmt::Display> From<E> for BadInput {
    fn from(e: E) -> Self {
        BadInput(e.to_string())
    }
}

/// What a subcommand returns: `Ok(code)` (0, or 1 for `validate` violations) or bad input.
pub type Outcome = Result<ExitCode, BadInput>;

/// Runs a parsed subcommand.
pub fn run(db: Option<PathBuf>, command: Command) -> ExitCode {
    let ctx = Context {
        db,
        out: out::Out::stdout(),
    };
    let outcome = match command {
        Command::Import(a) => import::run(&ctx, a),
        Command::Cards(a) => cards_export::run(&ctx, a),
        Command::Search(a) => search::run(&ctx, a),
        Command::Collection(a) => collection::run(&ctx, a),
        Command::Validate(a) => validate::run(&ctx, a),
        Command::Play(a) => play::run(&ctx, a),
        Command::Replay(a) => replay::run(&ctx, a),
        Command::Sim(a) => sim::run(&ctx, a),
        Command::Lint(a) => lint::run(&ctx, a),
        Command::Health(a) => health::run(&ctx, a),
        Command::Merge(a) => merge::run(&ctx, a),
        Command::Duel(a) => duel::run(&ctx, a),
        Command::Balance(a) => balance::run(&ctx, a),
        Command::Odds(a) => odds::run(&ctx, a),
        Command::Export(a) => export::run(&ctx, a),
        Command::Catalogue(a) => catalogue::run(&ctx, a),
        Command::Sheet(a) => sheet::run(&ctx, a),
        Command::Preflight(a) => preflight::run(&ctx, a),
        Command::Host(a) => host::run(&ctx, a),
        Command::Join(a) => join::run(&ctx, a),
        Command::Relay(a) => relay::run(&ctx, a),
        Command::Template(a) => template::run(&ctx, a),
    };
    // What was written reaches stdout even when the command failed after writing it.
    match outcome.and_then(|code| ctx.out.finish().map(|()| code)) {
        Ok(code) => code,
        Err(BadInput(msg)) => {
            let _ = ctx.out.finish();
            // A message may quote the user's text (a card name, a TOML line): escaped.
            out::note!("error: {}", out::escape_lines(&msg));
            ExitCode::from(2)
        }
    }
}

/// What every subcommand may need: the catalogue location and stdout.
pub struct Context {
    pub db: Option<PathBuf>,
    /// Everything a subcommand prints on stdout goes through it.
    pub out: out::Out,
}
