//! What `play` and `sim` read a match from: the catalogue, Iconica party files, an Arcadia
//! quest setup (with its character files), the Iconoclasm deck and clash table, a Ruunara
//! mission and squad. Bad input
//! names the file and, for TOML, the line and column.

use std::path::{Path, PathBuf};

use super::limits::MAX_BUILD_FILE_BYTES;
use super::{BadInput, Context};
use crate::cards::{Card, CardLookup};
use crate::catalogue::{self, Catalogue};
use crate::games::iconica::engine::{Rules, Setup};
use crate::games::iconica::model::Character;
use crate::games::iconoclasm::engine::Deck;
use crate::games::iconoclasm::model::ClashTable;
use crate::games::registry::Shelf;

/// Reads a party, character, setup or squad file as text, through the core's one reader
/// of user files (`safe_io::read_text`): only a regular file is read (a FIFO would wait for
/// a writer for ever, a device such as `/dev/zero` never ends), and at most
/// [`MAX_BUILD_FILE_BYTES`] of it. The error says why, without the file's name.
pub fn read_text(path: &Path) -> Result<String, String> {
    use crate::safe_io::InputError;
    crate::safe_io::read_text(
        path,
        MAX_BUILD_FILE_BYTES,
        "party, character, setup and squad files",
    )
    .map_err(|e| match e {
        InputError::NotRegular {
            kind: "a folder", ..
        } => "is a folder, not a file".to_string(),
        InputError::NotRegular { .. } => {
            "is not a regular file (a pipe, socket or device); give the path of a file".to_string()
        }
        InputError::TooLarge { limit, .. } => {
            format!("is larger than the {} MiB a build file may be", limit >> 20)
        }
        InputError::NotText { .. } => "is not UTF-8 text".to_string(),
        InputError::Io { source, .. } => source.to_string(),
    })
}

/// Opens the catalogue of the context.
pub fn open_catalogue(ctx: &Context) -> Result<Catalogue, BadInput> {
    let path = ctx.db.clone().unwrap_or_else(catalogue::default_path);
    Catalogue::open(&path).map_err(|e| BadInput(format!("catalogue {}: {e}", path.display())))
}

/// Reads the party files, resolves their members and checks the construction rules of
/// `spec/iconica.md` for the match (bad input naming the file and the rule on a violation).
pub fn parties(
    lookup: &dyn CardLookup,
    files: &[PathBuf],
) -> Result<Vec<Vec<Character>>, BadInput> {
    Ok(
        crate::games::iconica::options::named_parties(&Files, lookup, files)?
            .into_iter()
            .map(|(_, members)| members)
            .collect(),
    )
}

/// Builds the Iconica match-up from 2 or 4 parties.
pub fn iconica_setup(parties: &[Vec<Character>], rules: Rules) -> Result<Setup, BadInput> {
    Ok(crate::games::iconica::options::setup(parties, rules)?)
}

/// The catalogue's Iconoclasm cards as a deck, and its clash table (a user may correct it).
pub fn iconoclasm_deck(ctx: &Context) -> Result<(Deck, ClashTable), BadInput> {
    let cat = open_catalogue(ctx)?;
    let table = cat
        .clash_table()
        .map_err(|e| BadInput(format!("the catalogue's clash table: {e}")))?;
    let cards = cat
        .all()
        .map_err(|e| BadInput(format!("reading the catalogue: {e}")))?;
    crate::games::iconoclasm::matchfile::deck(&cards, table)
        .map_err(|e| BadInput(format!("the catalogue's cards: {e}")))
}

/// The catalogue's Iconica characters (the pool of `sim iconica --field`).
pub fn iconica_characters(cat: &Catalogue) -> Result<Vec<Character>, BadInput> {
    Ok(cat
        .all()
        .map_err(|e| BadInput(format!("catalogue: {e}")))?
        .into_iter()
        .filter_map(|c| match c {
            Card::Iconica(ch) => Some(ch),
            _ => None,
        })
        .collect())
}

/// The user's files through [`read_text`], and nothing else: a [`Shelf`] for a caller that
/// already holds its cards.
struct Files;

impl Shelf for Files {
    fn lookup(&self) -> Result<&dyn CardLookup, String> {
        Err("no catalogue".into())
    }
    fn cards(&self) -> Result<Vec<Card>, String> {
        Err("no catalogue".into())
    }
    fn clash_table(&self) -> Result<ClashTable, String> {
        Err("no catalogue".into())
    }
    fn read(&self, path: &Path) -> Result<String, String> {
        read_text(path)
    }
    fn note(&self, text: &str) {
        super::out::note!("note: {}", super::out::escape_lines(text));
    }
}

/// What a game's match is compiled from on the command line ([`Shelf`]): the context's
/// catalogue, opened when a game first asks for it (a game that needs no card opens none),
/// and the user's files through [`read_text`]; notes go to stderr.
pub struct CliShelf<'a> {
    ctx: &'a Context,
    catalogue: std::cell::OnceCell<Result<Catalogue, String>>,
}

impl<'a> CliShelf<'a> {
    pub fn new(ctx: &'a Context) -> Self {
        CliShelf {
            ctx,
            catalogue: std::cell::OnceCell::new(),
        }
    }

    fn catalogue(&self) -> Result<&Catalogue, String> {
        self.catalogue
            .get_or_init(|| open_catalogue(self.ctx).map_err(|BadInput(e)| e))
            .as_ref()
            .map_err(Clone::clone)
    }
}

impl Shelf for CliShelf<'_> {
    fn lookup(&self) -> Result<&dyn CardLookup, String> {
        Ok(self.catalogue()?)
    }
    fn cards(&self) -> Result<Vec<Card>, String> {
        self.catalogue()?
            .all()
            .map_err(|e| format!("reading the catalogue: {e}"))
    }
    fn clash_table(&self) -> Result<ClashTable, String> {
        self.catalogue()?
            .clash_table()
            .map_err(|e| format!("the catalogue's clash table: {e}"))
    }
    fn read(&self, path: &Path) -> Result<String, String> {
        read_text(path)
    }
    fn note(&self, text: &str) {
        Files.note(text)
    }
}
