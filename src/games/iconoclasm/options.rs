//! Iconoclasm's match options, declared once: the table (`play iconoclasm`, `sim
//! iconoclasm`), and how a match is dealt from them, the catalogue's cards and its clash
//! table.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

use super::engine::{Deck, Goal, IconoclasmEnding, IconoclasmGame, NoLog, Pile, SetupError, deal};
use super::matchfile;
use super::model::ClashTable;
use crate::games::ai::Policy as PolicyKind;
use crate::games::dice::{derive_seed, game_seed};
use crate::games::game::{Outcome, Verdict};
use crate::games::registry::{Ask, Prepared, Shelf};
use crate::games::run::{at, play_seeded};

/// A table of Iconoclasm.
#[derive(Debug, Clone, PartialEq, Eq, clap::Args, Serialize, Deserialize)]
pub struct IconoclasmOptions {
    /// Number of players, 1 to 4.
    #[arg(long, value_name = "N", required = true, value_parser = clap::value_parser!(u8).range(1..=4))]
    pub players: u8,
    /// The solo goal (with --players 1 only).
    #[arg(long, value_enum)]
    pub goal: Option<GoalArg>,
}

impl Default for IconoclasmOptions {
    fn default() -> Self {
        IconoclasmOptions {
            players: 2,
            goal: None,
        }
    }
}

/// What `balance iconoclasm` takes besides the run's options (policy, stopping, seed,
/// output, which the face adds): the clash table measured and the table's size.
#[derive(Debug, Clone, clap::Args)]
pub struct BalanceOptions {
    /// A clash table file (`kind = "clashes"`; default: the catalogue's).
    #[arg(long, value_name = "FILE")]
    pub clashes: Option<std::path::PathBuf>,
    /// Players at the table, 2 to 4.
    #[arg(long, value_name = "N", default_value_t = 2, value_parser = clap::value_parser!(u8).range(2..=4))]
    pub players: u8,
}

/// `--goal`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum GoalArg {
    Dominance,
    Balance,
}

impl IconoclasmOptions {
    /// The goal of the game: `--goal` for a solo game (dominance by default).
    pub fn goal(&self) -> Result<Goal, String> {
        match (self.players, self.goal) {
            (_, None) | (1, Some(GoalArg::Dominance)) => Ok(Goal::Dominance),
            (1, Some(GoalArg::Balance)) => Ok(Goal::Balance),
            (_, Some(_)) => Err("--goal is for solo games (--players 1)".into()),
        }
    }

    /// The match these options describe, dealt from the catalogue's cards with the deal
    /// seeded from stream 0 of `seed`: the record's options.
    pub fn compile(&self, shelf: &dyn Shelf, seed: u64) -> Result<toml::Table, String> {
        let goal = self.goal()?;
        let (deck, table) = deck(shelf)?;
        let setup = deal(
            deck,
            &table,
            self.players,
            goal,
            &mut ChaCha8Rng::seed_from_u64(derive_seed(seed, 0)),
        )
        .map_err(|e| e.to_string())?;
        Ok(matchfile::options(&setup, &table))
    }
}

/// [`IconoclasmOptions::compile`] from parsed arguments (the registry's entry).
pub fn compile(
    m: &clap::ArgMatches,
    shelf: &dyn Shelf,
    ask: &Ask<'_>,
) -> Result<toml::Table, String> {
    use clap::FromArgMatches;
    IconoclasmOptions::from_arg_matches(m)
        .map_err(|e| e.to_string())?
        .compile(shelf, ask.seed)
}

/// The catalogue's Iconoclasm cards as a deck, and its clash table (a user may correct it).
pub fn deck(shelf: &dyn Shelf) -> Result<(Deck, ClashTable), String> {
    let table = shelf.clash_table()?;
    let cards = shelf.cards()?;
    matchfile::deck(&cards, table).map_err(|e| format!("the catalogue's cards: {e}"))
}

/// `sim iconoclasm`'s run: the deck and table read once, a fresh deal each game (the first
/// game's deal checked before the run, so every deal of these cards succeeds).
pub fn prepare(m: &clap::ArgMatches, shelf: &dyn Shelf, ask: &Ask<'_>) -> Result<Prepared, String> {
    use clap::FromArgMatches;
    let o = IconoclasmOptions::from_arg_matches(m).map_err(|e| e.to_string())?;
    let goal = o.goal()?;
    let policies = (ask.policies)(usize::from(o.players));
    let (deck, table) = deck(shelf)?;
    let run = Run {
        deck,
        table,
        players: o.players,
        goal,
        policies: policies.clone(),
    };
    run.outcome(ask.seed, 0).map_err(|e| e.to_string())?;
    Ok(Prepared {
        run: vec![("players", o.players.into()), ("goal", goal.name().into())],
        setup: format!("{:?} {:?}", run.deck, run.table),
        policies,
        play: Box::new(move |seed, index| {
            at(run.outcome(seed, index).unwrap_or(Outcome {
                verdict: Verdict::NoResult,
                ended: IconoclasmEnding::Incomplete,
                turns: 0,
            }))
        }),
    })
}

/// What every game of a run shares.
#[derive(Debug, Clone)]
pub struct Run {
    pub deck: Deck,
    pub table: ClashTable,
    pub players: u8,
    pub goal: Goal,
    /// Policy per seat.
    pub policies: Vec<PolicyKind>,
}

impl Run {
    /// The typed outcome of game `index` of a run seeded `seed`: the deal and each seat's
    /// policy are seeded from (seed, index).
    pub fn outcome(&self, seed: u64, index: u64) -> Result<Outcome<IconoclasmEnding>, SetupError> {
        let s = game_seed(seed, index);
        let setup = deal(
            self.deck.clone(),
            &self.table,
            self.players,
            self.goal,
            &mut ChaCha8Rng::seed_from_u64(s),
        )?;
        let o = play_seeded(
            IconoclasmGame::start(&setup, &mut NoLog),
            Pile::new(&setup),
            &self.policies,
            s,
        );
        Ok(o)
    }
}
