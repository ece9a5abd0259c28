//! Arcadia's match options, declared once: the quest setup file and the Day limit (`play
//! arcadia`, `sim arcadia`), and how a match is compiled from them and the catalogue's cards.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::character::CharacterFile;
use super::engine::Match;
use super::engine::{ArcadiaGame, RngDice};
use super::matchfile::{self, Source};
use super::setup::SetupFile;
use crate::cards::CardLookup;
use crate::games::dice::game_seed;
use crate::games::registry::{Ask, Prepared, Shelf};
use crate::games::run::{at, play_seeded};

/// The most Days a quest may be limited to.
pub const MAX_DAY_LIMIT: u32 = 100_000;

/// A quest of Arcadia: its setup and its rules.
#[derive(Debug, Clone, PartialEq, Eq, clap::Args, Serialize, Deserialize)]
pub struct ArcadiaOptions {
    /// The quest setup file (`*.setup.toml`), which names the two character files.
    pub setup: PathBuf,
    #[command(flatten)]
    #[serde(flatten)]
    pub rules: ArcadiaRules,
}

/// What `balance arcadia` takes besides the run's options (policy, stopping, seed, output,
/// which the face adds): the merit or flaw measured and where it is measured.
#[derive(Debug, Clone, clap::Args)]
pub struct BalanceOptions {
    /// A merit or flaw: a catalogue id or name, or a card file (imported or not).
    #[arg(value_name = "MERIT|FLAW")]
    pub card: String,
    /// Character files to measure the card on (default: the characters of the setups).
    #[arg(long, value_name = "FILE", num_args = 1..)]
    pub characters: Vec<PathBuf>,
    /// The quest setup to play in (default: every legal example setup built in).
    #[arg(long, value_name = "FILE")]
    pub setup: Option<PathBuf>,
    /// Skip the card's worth (the card alone against its points unspent).
    #[arg(long)]
    pub no_worth: bool,
    /// Also rank the card among the catalogue's merits and flaws by change per cost point,
    /// each measured the same way (one run per card).
    #[arg(long)]
    pub rank: bool,
    /// Decide whether the card is worth its points by a sequential test on pairs of games
    /// with the same seed, one with the card and one without (fair: the change within 10
    /// points either way; unfair: at least --margin beyond), stopping as soon as it is
    /// decided (error rates 5% each way; at most --max-games).
    #[arg(long)]
    pub sprt: bool,
    /// With --sprt: how far beyond the fair band a card must be to count as unfair.
    #[arg(long, value_name = "M", default_value_t = 0.05, requires = "sprt")]
    pub margin: f64,
    #[command(flatten)]
    pub rules: ArcadiaRules,
}

/// Arcadia's one rule option.
#[derive(Debug, Clone, PartialEq, Eq, clap::Args, Serialize, Deserialize)]
pub struct ArcadiaRules {
    /// A quest that reaches this many Days ends as a draw (1 to 100,000).
    #[arg(long, value_name = "N", default_value_t = 500,
          value_parser = clap::value_parser!(u32).range(1..=i64::from(MAX_DAY_LIMIT)))]
    pub turn_limit: u32,
}

impl Default for ArcadiaRules {
    fn default() -> Self {
        ArcadiaRules { turn_limit: 500 }
    }
}

impl ArcadiaOptions {
    /// The match these options describe (its setup and character files read and checked,
    /// a note said of cards the engine does not fully play): the record's options.
    pub fn compile(&self, shelf: &dyn Shelf) -> Result<toml::Table, String> {
        let lookup = shelf.lookup()?;
        let (_, source) = compiled(shelf, lookup, &self.setup, self.rules.turn_limit)?;
        if let Some(n) = crate::games::gaps::note(&crate::games::gaps::of_cards(&source.cards)) {
            shelf.note(&n);
        }
        Ok(matchfile::options(&source))
    }
}

/// [`ArcadiaOptions::compile`] from parsed arguments (the registry's entry).
pub fn compile(
    m: &clap::ArgMatches,
    shelf: &dyn Shelf,
    _ask: &Ask<'_>,
) -> Result<toml::Table, String> {
    use clap::FromArgMatches;
    ArcadiaOptions::from_arg_matches(m)
        .map_err(|e| e.to_string())?
        .compile(shelf)
}

/// The compiled match of an Arcadia setup file (its characters' files read beside it), and
/// what a match record keeps of it (the files as written and every card looked up).
pub fn compiled(
    shelf: &dyn Shelf,
    lookup: &dyn CardLookup,
    path: &Path,
    turn_limit: u32,
) -> Result<(Match, Source), String> {
    let shown = path.display().to_string();
    let text = shelf.read(path).map_err(|e| format!("{shown}: {e}"))?;
    let setup = SetupFile::parse(&text, &shown).map_err(|e| e.to_string())?;
    let mut characters = Vec::new();
    for cpath in setup.character_paths(path) {
        let cshown = cpath.display().to_string();
        let ctext = shelf
            .read(&cpath)
            .map_err(|e| format!("{cshown} (a character of {shown}): {e}"))?;
        characters.push(CharacterFile::parse(&ctext, &cshown).map_err(|e| e.to_string())?);
    }
    matchfile::compile(&setup, &characters, lookup, turn_limit).map_err(|e| format!("{shown}: {e}"))
}

/// `sim arcadia`'s run: the quest compiled once.
pub fn prepare(m: &clap::ArgMatches, shelf: &dyn Shelf, ask: &Ask<'_>) -> Result<Prepared, String> {
    use clap::FromArgMatches;
    let o = ArcadiaOptions::from_arg_matches(m).map_err(|e| e.to_string())?;
    let policies = (ask.policies)(2);
    let lookup = shelf.lookup()?;
    let (quest, source) = compiled(shelf, lookup, &o.setup, o.rules.turn_limit)?;
    if let Some(n) = crate::games::gaps::note(&crate::games::gaps::of_cards(&source.cards)) {
        shelf.note(&n);
    }
    let seats = policies.clone();
    Ok(Prepared {
        run: Vec::new(),
        setup: format!("{quest:?}"),
        policies,
        play: Box::new(move |seed, index| {
            let s = game_seed(seed, index);
            at(play_seeded(
                ArcadiaGame::new(&quest),
                RngDice::new(s),
                &seats,
                s,
            ))
        }),
    })
}
