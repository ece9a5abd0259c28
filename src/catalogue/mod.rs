//! The SQLite catalogue: open (with checks, backups and migrations), import, export,
//! collection.
//!
//! Migrations are the `migrations/*.sql` files, built into the binary and applied in file
//! name order by `rusqlite_migration`. A new catalogue is filled with the bundled cards and
//! the Iconoclasm clash table; cards bundled by a newer build are added on first use.
//!
//! Tables others read directly (their meaning is kept stable):
//! - `card(rowid, id, game, kind, name, body, texts)`: one row a card, `body` its TOML;
//! - `card_field(card, key, text, num)`: every top-level key's values (text lower-cased);
//! - `card_fts(name, texts)`: FTS5 over names and texts, kept in step by triggers;
//! - `collection(card_id, quantity)`: owned quantities; a card without a row owns 0;
//! - `meta(key, value)`: catalogue facts, e.g. `iconoclasm.clashes` (the clash table TOML).

mod art;
mod backup;
mod collection;
mod export;
mod import;
mod import_rows;
mod open;
pub mod saved;
mod store;
pub mod synthetic;

use std::borrow::Cow;
use std::path::{Path, PathBuf};

use rusqlite::Connection;
use rusqlite_migration::{M, Migrations};

use crate::cards::{self, Card, CardError, CardLookup, Game};
use crate::games::iconoclasm::model::ClashTable;

pub use art::{adopt_art, art_source};
pub use collection::{CollectionError, CollectionReport, RowProblem};
pub use export::write_atomic;
pub use import::{ImportError, ImportProblem, ImportReport, find_card_files};
pub use store::field_rows;

/// What can go wrong with the catalogue.
#[derive(Debug, thiserror::Error)]
pub enum CatalogueError {
    #[error("catalogue database error: {0}")]
    Sqlite(#[from] rusqlite::Error),
    #[error("catalogue migration failed: {0}")]
    Migration(#[from] rusqlite_migration::Error),
    #[error("{0}")]
    Io(#[from] std::io::Error),
    #[error("{0}")]
    Card(#[from] CardError),
    /// The file is not a usable catalogue (not SQLite, foreign, damaged, too new).
    #[error("{0}")]
    Damaged(String),
    /// No card has this id.
    #[error("no card has the id `{0}`; search the catalogue to find its id")]
    UnknownCard(String),
}

pub type Result<T, E = CatalogueError> = std::result::Result<T, E>;

/// The meta key holding the Iconoclasm clash table (its TOML text).
pub const CLASHES_KEY: &str = "iconoclasm.clashes";

/// The default catalogue file: `catalogue.sqlite` in the platform data directory.
pub fn default_path() -> PathBuf {
    directories::ProjectDirs::from("", "", "deckwright")
        .map(|d| d.data_dir().join("catalogue.sqlite"))
        .unwrap_or_else(|| PathBuf::from("deckwright-catalogue.sqlite"))
}

/// The migrations, in file name order. `0013_search_columns` fills the columns it adds
/// from Rust (`search::index::backfill`).
pub fn migrations() -> Migrations<'static> {
    Migrations::new(
        migration_files()
            .into_iter()
            .map(|(name, sql)| {
                if name.starts_with("0013_") {
                    M::up_with_hook(sql, |tx: &rusqlite::Transaction| {
                        Ok(crate::search::index::backfill(tx)?)
                    })
                } else {
                    M::up(sql)
                }
            })
            .collect(),
    )
}

/// The SQL of each migration, in file name order.
fn migration_texts() -> Vec<&'static str> {
    migration_files().into_iter().map(|(_, sql)| sql).collect()
}

/// The file name and SQL of each migration, in file name order.
fn migration_files() -> Vec<(&'static str, &'static str)> {
    static DIR: include_dir::Dir<'static> =
        include_dir::include_dir!("$CARGO_MANIFEST_DIR/migrations");
    let mut files: Vec<_> = DIR
        .files()
        .filter(|f| f.path().extension().is_some_and(|x| x == "sql"))
        .collect();
    files.sort_by_key(|f| f.path());
    files
        .iter()
        .filter_map(|f| Some((f.path().file_name()?.to_str()?, f.contents_utf8()?)))
        .collect()
}

/// The schema version a fully migrated catalogue has (`PRAGMA user_version`).
pub fn schema_version() -> i64 {
    migration_texts().len() as i64
}

/// An open catalogue.
pub struct Catalogue {
    conn: Connection,
}

impl Catalogue {
    /// Opens the catalogue at `path`, creating, migrating and filling it on first use.
    ///
    /// Checks first: the file must be an SQLite database that passes `PRAGMA quick_check`
    /// and is a deckwright catalogue (or empty) of a schema this build knows. Before a
    /// migration changes an existing catalogue, a backup is taken next to it (`VACUUM
    /// INTO`, the last 3 kept). The connection uses WAL and waits for other processes.
    pub fn open(path: &Path) -> Result<Catalogue> {
        open::open_file(path).map(|conn| Catalogue { conn })
    }

    /// A catalogue in memory, filled with the bundled cards.
    pub fn open_in_memory() -> Result<Catalogue> {
        open::open_memory(true).map(|conn| Catalogue { conn })
    }

    /// A catalogue in memory with no cards (the clash table is the standard one).
    pub fn open_empty_in_memory() -> Result<Catalogue> {
        open::open_memory(false).map(|conn| Catalogue { conn })
    }

    pub fn conn(&self) -> &Connection {
        &self.conn
    }

    pub fn conn_mut(&mut self) -> &mut Connection {
        &mut self.conn
    }

    /// Number of cards.
    pub fn count(&self) -> Result<u64> {
        Ok(self
            .conn
            .query_row("SELECT count(*) FROM card", [], |r| r.get::<_, i64>(0))? as u64)
    }

    /// Inserts or replaces cards, in one transaction.
    pub fn upsert(&mut self, cards: &[Card]) -> Result<()> {
        let rows: Vec<store::CardRow> = cards.iter().map(store::CardRow::new).collect();
        let tx = self.conn.transaction()?;
        for r in &rows {
            store::upsert(&tx, r)?;
        }
        tx.commit()?;
        Ok(())
    }

    /// The card with this id.
    pub fn get(&self, id: &str) -> Result<Option<Card>> {
        store::get(&self.conn, id)
    }

    /// Every card, ordered by game then id.
    pub fn all(&self) -> Result<Vec<Card>> {
        store::all(&self.conn)
    }

    /// The Iconoclasm clash table: the one stored in the catalogue, else the standard one.
    pub fn clash_table(&self) -> Result<ClashTable> {
        let text = store::meta(&self.conn, CLASHES_KEY)?;
        match text {
            Some(t) => match cards::parse(&t, "catalogue clash table")? {
                cards::CardFile::Clashes(c) => Ok(c),
                cards::CardFile::Card(_) => Ok(ClashTable::standard()),
            },
            None => Ok(ClashTable::standard()),
        }
    }

    /// Stores the Iconoclasm clash table (written back by `export_dir`).
    pub fn set_clash_table(&mut self, table: &ClashTable) -> Result<()> {
        store::set_meta(&self.conn, CLASHES_KEY, &table.to_toml())?;
        Ok(())
    }
}

/// The bundled starter cards, parsed (the clash table is kept apart).
pub fn bundled_cards() -> Result<Vec<Card>, CardError> {
    let mut out = Vec::new();
    for (path, text) in cards::bundled() {
        if let cards::CardFile::Card(c) = cards::parse(text, &path)? {
            out.push(c);
        }
    }
    Ok(out)
}

impl CardLookup for Catalogue {
    fn card(&self, id: &str) -> Option<Cow<'_, Card>> {
        self.get(id).ok().flatten().map(Cow::Owned)
    }
    fn cards_named(&self, game: Game, name: &str) -> Vec<Cow<'_, Card>> {
        store::named(&self.conn, game, name)
            .unwrap_or_default()
            .into_iter()
            .map(Cow::Owned)
            .collect()
    }
}
