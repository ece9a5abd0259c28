//! What to print or export: a command-line selection (card ids, a search query, or party,
//! character, setup and squad files) resolved to the catalogue's cards, and `--copies`
//! applied. It lives with the catalogue, so `print` renders the cards it is handed and never
//! reads the catalogue itself.
//!
//! Files are read with the rules modules' own parsers (the same strict reading as
//! `validate`); their construction rules are not checked here: a player may print a
//! deck that is not legal yet.

use std::path::Path;

use super::Catalogue;
use crate::cards::{self, Card, CardError, Game};
use crate::games::build::{self, Resolved};
use crate::games::files::BuildFile;

/// Why a selection cannot be printed.
#[derive(Debug, thiserror::Error)]
pub enum SelectionError {
    #[error("unknown card id{} {}; check the spelling with `deckwright search`", if .0.len() > 1 { "s" } else { "" }, .0.iter().map(|i| format!("`{i}`")).collect::<Vec<_>>().join(", "))]
    UnknownIds(Vec<String>),
    #[error("{file}: {message}")]
    UnknownMember { file: String, message: String },
    #[error("{file}: {message}")]
    File { file: String, message: String },
    #[error(transparent)]
    Parse(#[from] CardError),
    #[error("the selection `{0}` matches no card, so there is nothing to print")]
    Empty(String),
    #[error("{0}")]
    Query(String),
    #[error(
        "{0} cards with their copies is more than {MAX_PRINTED}, the most one print job holds; select fewer cards or copies"
    )]
    TooMany(u64),
    #[error("catalogue: {0}")]
    Catalogue(#[from] crate::catalogue::CatalogueError),
}

/// A search: the ids of the cards a query matches, in order.
pub type QueryFn<'a> = dyn Fn(&str) -> Result<Vec<String>, String> + 'a;

/// Resolves the selection arguments to cards, in order (a card listed twice prints twice).
///
/// Arguments that are files (existing paths, or anything ending in `.toml`) are read as
/// party, character, setup or squad files. Otherwise, if every argument looks like a card id
/// and at least one is in the catalogue, they are a list of ids and each must exist; else
/// the arguments, joined by spaces, are a search query.
pub fn resolve(
    cat: &Catalogue,
    args: &[String],
    query: &QueryFn<'_>,
) -> Result<Vec<Card>, SelectionError> {
    let shown = args.join(" ");
    let is_file = |a: &String| a.ends_with(".toml") || Path::new(a).is_file();
    let mut out = Vec::new();
    if !args.is_empty() && args.iter().all(is_file) {
        for a in args {
            out.extend(from_file(cat, Path::new(a))?);
        }
    } else if !args.is_empty() && args.iter().all(|a| cards::valid_id(a)) && any_known(cat, args)? {
        let mut unknown = Vec::new();
        for a in args {
            match cat.get(a)? {
                Some(c) => out.push(c),
                None => unknown.push(a.clone()),
            }
        }
        if !unknown.is_empty() {
            return Err(SelectionError::UnknownIds(unknown));
        }
    } else {
        let ids = query(&shown).map_err(SelectionError::Query)?;
        for id in ids {
            if let Some(c) = cat.get(&id)? {
                out.push(c);
            }
        }
        if out.is_empty() && args.iter().all(|a| cards::valid_id(a)) {
            return Err(SelectionError::UnknownIds(args.to_vec()));
        }
    }
    if out.is_empty() {
        return Err(SelectionError::Empty(shown));
    }
    Ok(out)
}

fn any_known(cat: &Catalogue, args: &[String]) -> Result<bool, SelectionError> {
    for a in args {
        if cat.get(a)?.is_some() {
            return Ok(true);
        }
    }
    Ok(false)
}

fn file_err(file: &Path, message: impl Into<String>) -> SelectionError {
    SelectionError::File {
        file: file.display().to_string(),
        message: message.into(),
    }
}

/// The cards a party, character, setup or squad file names, in file order: a party's or
/// squad's members; a character's icon, merits and flaws; a setup's players (each one's
/// character, quests, waylays and treasures) and then its leagues.
pub fn from_file(cat: &Catalogue, path: &Path) -> Result<Vec<Card>, SelectionError> {
    let file = path.display().to_string();
    let text = crate::safe_io::read_text(
        path,
        crate::safe_io::MAX_BUILD_FILE,
        "party, character, setup and squad files",
    )
    .map_err(|e| file_err(path, format!("cannot read it: {e}")))?;
    let (game, entries): (Game, Vec<String>) = match BuildFile::parse(&text, &file)? {
        BuildFile::Party(p) => (Game::Iconica, p.members),
        BuildFile::Squad(s) => (Game::Ruunara, s.members),
        BuildFile::Character(c) => (
            Game::Arcadia,
            c.icon.into_iter().chain(c.merits).chain(c.flaws).collect(),
        ),
        BuildFile::Setup(setup) => {
            let mut out = Vec::new();
            for (player, cpath) in setup.players.iter().zip(setup.character_paths(path)) {
                out.extend(from_file(cat, &cpath)?);
                for id in player
                    .quests
                    .iter()
                    .chain(&player.waylays)
                    .chain(&player.treasures)
                    .chain(&player.leagues)
                {
                    out.push(member(cat, path, Game::Arcadia, id)?);
                }
            }
            for l in &setup.leagues {
                out.push(member(cat, path, Game::Arcadia, &l.id)?);
            }
            return Ok(out);
        }
    };
    entries.iter().map(|m| member(cat, path, game, m)).collect()
}

/// A member is resolved as the rules resolve it: a card id first, then an exact card name
/// of the file's game.
fn member(cat: &Catalogue, path: &Path, game: Game, m: &str) -> Result<Card, SelectionError> {
    match build::resolve(cat, game, m) {
        Resolved::Found(c) => Ok(c.into_owned()),
        other => Err(SelectionError::UnknownMember {
            file: path.display().to_string(),
            message: build::unknown_message(m, "a card to print", game, &other),
        }),
    }
}

/// How many copies of each card to print.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Copies {
    /// Each selected card `n` times.
    Each(u32),
    /// As many as the collection holds (cards not owned are left out).
    Owned,
}

impl Copies {
    pub fn parse(s: &str) -> Option<Copies> {
        if s.eq_ignore_ascii_case("owned") {
            return Some(Copies::Owned);
        }
        s.parse::<u32>()
            .ok()
            .filter(|n| (1..=1000).contains(n))
            .map(Copies::Each)
    }
}

/// The most cards one print job holds, copies included.
pub const MAX_PRINTED: u64 = 20_000;

/// Repeats each card as `copies` asks, keeping the selection's order. More than
/// [`MAX_PRINTED`] cards in all is refused before any is copied.
pub fn apply_copies(
    cat: &Catalogue,
    cards: Vec<Card>,
    copies: Copies,
) -> Result<Vec<Card>, SelectionError> {
    let mut counts = Vec::with_capacity(cards.len());
    let mut total: u64 = 0;
    for c in &cards {
        let n = match copies {
            Copies::Each(n) => n as u64,
            Copies::Owned => cat.owned(c.id())? as u64,
        };
        total = total.saturating_add(n);
        counts.push(n);
    }
    if total > MAX_PRINTED {
        return Err(SelectionError::TooMany(total));
    }
    let mut out = Vec::with_capacity(total as usize);
    for (c, n) in cards.into_iter().zip(counts) {
        for _ in 0..n {
            out.push(c.clone());
        }
    }
    Ok(out)
}
