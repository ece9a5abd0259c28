//! The games, each declared once (in the spirit of OpenSpiel's game registration): its
//! name on the command line, its title, the version of its engine, its typed match options
//! (one struct in its folder, `options.rs`, that clap parses and serde saves), how a match
//! is compiled from those options and the catalogue's cards, and how a match file of it is
//! replayed into the report `play` prints. Faces that serve every game (`play`, `sim`,
//! `replay`, match files, the game selector) enumerate [`GAMES`] instead of listing the
//! games.
//!
//! Adding a game: its folder under `src/games/` gives a [`Registration`], and one line here
//! lists it (docs/architecture.md, "Adding a game").

use std::path::Path;

use super::ai::Policy;
use super::any::{AnyGame, Opened};
use super::record::{MatchRecord, RecordError};
use super::report::Report;
use super::session::Session;
use crate::cards::{Card, CardLookup};

/// What compiling a match may read from outside its game: the catalogue's cards and the
/// files its options name. A face gives it (the CLI: its catalogue, opened when first asked,
/// and the user's files through its one reader); a game never opens anything itself.
pub trait Shelf {
    /// The catalogue's cards by id and name (the error says why it cannot be read).
    fn lookup(&self) -> Result<&dyn CardLookup, String>;
    /// Every card of the catalogue.
    fn cards(&self) -> Result<Vec<Card>, String>;
    /// The catalogue's Iconoclasm clash table (data a user may correct).
    fn clash_table(&self) -> Result<super::iconoclasm::model::ClashTable, String>;
    /// A user's file as text; the error says why, without the file's name.
    fn read(&self, path: &Path) -> Result<String, String>;
    /// A note for the person (cards the engine does not fully play, ...).
    fn note(&self, text: &str);
}

/// What a face asks of a match besides its game's options.
#[derive(Clone, Copy)]
pub struct Ask<'a> {
    /// The match's seed (of a deal, of the dice, of the policies); a run's seed in `sim`.
    pub seed: u64,
    /// The policies a match of so many seats is played by, in seat order (one for a solo
    /// game).
    pub policies: &'a dyn Fn(usize) -> Vec<Policy>,
    /// The option that gave the policies (`--policy`, `--ai`), for a message refusing one.
    pub policy_option: &'a str,
}

/// How a game's match options are given on a command line and compiled into a match: what
/// `play` and `sim` (and any face with a form) need of a game, with no code of their own
/// for it.
#[derive(Debug, Clone, Copy)]
pub struct Options {
    /// One line saying what a match of it is played from (`play --help` lists it).
    pub about: &'static str,
    /// Adds its options struct's arguments to a command (`<Opts as clap::Args>::augment_args`).
    pub args: fn(clap::Command) -> clap::Command,
    /// The match the parsed options describe, compiled from the shelf's cards and files and
    /// checked (the error is said as it is): the record's `options`, what [`Registration::open`]
    /// opens.
    pub compile: fn(&clap::ArgMatches, &dyn Shelf, &Ask<'_>) -> Result<toml::Table, String>,
    /// One seat decides (Ruunara's squad; the rules run the rest): one policy option.
    pub solo: bool,
    /// It rolls dice (a match takes `--dice`, a script of faces); a game whose chance is
    /// fixed by its deal does not.
    pub dice: bool,
    /// How `sim` runs it; `None` for a game `sim` does not play.
    pub sim: Option<Sim>,
}

/// How `sim` runs many matches of a game: the setup compiled once from the options, then
/// match `i` of a run seeded `s` played by [`super::run::play_seeded`] with its dice and
/// policies seeded from `(s, i)` ([`super::dice::game_seed`]), its outcome tallied.
#[derive(Debug, Clone, Copy)]
pub struct Sim {
    /// One line saying what a run of it plays (`sim --help` lists it).
    pub about: &'static str,
    /// Arguments a run takes besides the match options (Iconica's `--field`).
    pub extra: Option<fn(clap::Command) -> clap::Command>,
    /// The run the parsed options describe: compiled and checked once.
    pub prepare: fn(&clap::ArgMatches, &dyn Shelf, &Ask<'_>) -> Result<Prepared, String>,
    /// Its endings' names in the order of its [`super::game::Ending::ALL`].
    pub endings: fn() -> Vec<&'static str>,
    /// How the run's report reads.
    pub report: SimReport,
}

/// How a run's report reads (`sim`'s text and JSON, the same again from shards' tallies).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SimReport {
    /// Side a against side b: wins, draws, the mean of what a match counts (`turns`,
    /// `Days`), the endings.
    Sides { counts: &'static str },
    /// A table of 1 to 4 players: each player's wins, or solo, how often the goal is met.
    Table,
    /// A squad against a mission run by the rules: the heroes' win rate and the endings.
    Squad,
}

/// A run ready to play.
pub struct Prepared {
    /// What the report names of the run besides the game, the games, the seed and the
    /// policies (Iconoclasm's `players` and `goal`, Ruunara's `mission` and `name`), in order.
    pub run: Vec<(&'static str, serde_json::Value)>,
    /// The compiled setup in words (with the engine's version, the run's id).
    pub setup: String,
    /// The policies of the seats, in order.
    pub policies: Vec<Policy>,
    /// Plays match `index` of the run seeded `seed`.
    pub play: Box<dyn Fn(u64, u64) -> super::game::Outcome<super::run::EndingAt> + Send + Sync>,
}

/// One game as the faces know it.
#[derive(Debug, Clone, Copy)]
pub struct Registration {
    /// Its command-line name (`iconica`, ...), as match files name it.
    pub name: &'static str,
    /// Its name shown to people.
    pub title: &'static str,
    /// The version of its engine: a match file played by another is refused.
    pub engine: u32,
    /// Replays a match file up to a number of inputs (all when `None`), every input checked:
    /// the report of the match at that step. The lookup serves the cards of a format-1
    /// record, which kept none.
    pub replay: fn(&MatchRecord, Option<usize>, &dyn CardLookup) -> Result<Report, RecordError>,
    /// A new match of a game that starts from its rules alone: the faces then play it with
    /// no code of their own for it (`play GAME`, the Match screen's generic board). `None`
    /// for a game whose faces build its setup from files and cards.
    pub generic: Option<fn() -> Box<dyn AnyGame>>,
    /// The start of the match a record's options describe (the lookup serves the cards of a
    /// format-1 record): what a session reopens, hosts again, or plays on from.
    pub open: fn(&toml::Table, &dyn CardLookup) -> Result<Opened, RecordError>,
    /// Its match options and how a match is compiled from them.
    pub options: Options,
    /// Whether and how `balance` measures it; `None` for a game it does not.
    pub balance: Option<Balance>,
}

/// How a game is balanced (`deckwright balance GAME`, `balance sweep GAME`,
/// docs/balance.md): what it measures, the arguments a measure takes, and the method. The
/// faces build `balance`'s subcommands from it and the balance lab picks its measure by
/// [`Method`], so no face lists the games; the measuring is the core's (`crate::balance`,
/// which reads the games, never the other way round).
#[derive(Debug, Clone, Copy)]
pub struct Balance {
    /// One line saying what `balance GAME` measures (`balance --help` lists it).
    pub about: &'static str,
    /// Adds the game's balance arguments to a command (its `BalanceOptions`'
    /// `augment_args`); the face adds the run's own (policy, stopping, seed, output).
    pub args: fn(clap::Command) -> clap::Command,
    /// The kinds of its cards measured (`Card::kind`'s names), in the order a sweep lists
    /// them; empty when no card is (the rules' own data is: Iconoclasm's clash table).
    pub measures: &'static [&'static str],
    /// A measured card in words, for a message refusing another (`an Iconica character`).
    pub measured: &'static str,
    /// How a card (or the rules) is measured.
    pub method: Method,
    /// The game's arguments of `balance sweep GAME` (its rules: a `SweepOptions` struct's
    /// `augment_args`); `None` for a game whose cards are not swept.
    pub sweep: Option<fn(clap::Command) -> clap::Command>,
    /// How `health GAME --builds` searches for the strongest legal builds of a match's
    /// setup; `None` for a game whose builds are not searched (Iconoclasm has none).
    pub builds: Option<Builds>,
}

/// What a build of a game is, for the search of the strongest legal ones
/// (`crate::balance::builds::search`, chosen by this value rather than by the game's name):
/// each names the one-swap moves and the legality checks the search uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Builds {
    /// A party of three catalogue characters, one swapped for another legal one (Iconica),
    /// against the other party as given.
    Parties,
    /// A character's merits and flaws within its point budget and the setup's rules, one
    /// added, dropped or swapped at a time (Arcadia), against the other character as built.
    Characters,
    /// A squad's members, one swapped for another ally hero or unit the squad rules and the
    /// mission's deployment allow (Ruunara), against the mission.
    Squads,
}

/// How the balance lab measures a game; each names a measure of `crate::balance`, chosen
/// by this value rather than by the game's name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    /// A card in every legal build of a pool against a field of opposing builds: its field
    /// win rate, rank, matchups, the impact of its parts and confirmed fixes (Iconica's
    /// characters in parties).
    Field,
    /// A build option bought with points against what the points would otherwise buy (or,
    /// for one that gives points, against not taking it), paired over setups (Arcadia's
    /// merits and flaws).
    Points,
    /// A member of a squad with and without it (or without one of its skills), paired,
    /// against missions the rules play (Ruunara's heroes).
    Squad,
    /// No card: each seat's win rate and the first player's edge under the rules' data
    /// (Iconoclasm's clash table).
    Seats,
}

impl Registration {
    /// Whether `card` is of a kind this game's balance measures.
    pub fn measures(&self, card: &Card) -> bool {
        self.balance
            .is_some_and(|b| card.game().as_str() == self.name && b.measures.contains(&card.kind()))
    }
}

/// The options of a game with none (its match starts from its rules alone).
#[derive(Debug, Clone, Copy, Default, clap::Args, serde::Serialize, serde::Deserialize)]
pub struct NoOptions {}

/// Every game, in the order faces list them.
pub const GAMES: &[Registration] = &[
    super::iconica::REGISTRATION,
    super::iconoclasm::REGISTRATION,
    super::arcadia::REGISTRATION,
    super::ruunara::REGISTRATION,
    super::pig::REGISTRATION,
];

/// The games `balance` measures, in the order faces list them.
pub fn balanced() -> impl Iterator<Item = (&'static Registration, &'static Balance)> {
    GAMES
        .iter()
        .filter_map(|g| g.balance.as_ref().map(|b| (g, b)))
}

/// The game named `name` on the command line.
pub fn find(name: &str) -> Option<&'static Registration> {
    GAMES.iter().find(|g| g.name == name)
}

/// The record's game, or the error naming the games there are.
pub fn of_record(r: &MatchRecord) -> Result<&'static Registration, RecordError> {
    find(&r.game).ok_or_else(|| {
        RecordError::Options(format!(
            "`{}` is not a game this program plays ({})",
            r.game,
            GAMES.iter().map(|g| g.name).collect::<Vec<_>>().join(", ")
        ))
    })
}

/// Reopens `r` as a session: its game's start compiled from its options, then every input
/// and step checked ([`Session::from_record`]).
pub fn session(r: &MatchRecord, lookup: &dyn CardLookup) -> Result<Session, RecordError> {
    let game = of_record(r)?;
    r.expect_engine(game.engine)?;
    let opened = (game.open)(&r.options, lookup)?;
    Session::from_record(r, opened, game.engine)
}

/// Replays `r` with its game's engine: the report at input `to` (the end when `None`).
pub fn replay(
    r: &MatchRecord,
    to: Option<usize>,
    lookup: &dyn CardLookup,
) -> Result<Report, RecordError> {
    (of_record(r)?.replay)(r, to, lookup)
}
