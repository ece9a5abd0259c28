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
pub mod selection;
mod store;
pub mod synthetic;

use std::borrow::Cow;
use std::path::{Path, PathBuf};

use rusqlite::Connection;
use rusqlite_migration::{M, Migrations};

use crate::cards::{self, Card, CardError, CardLookup, Game};
use crate::games::iconoclasm::model::ClashTable;

pub use art::{StagedArt, adopt_art, art_source, as_adopted};
pub use backup::{Backup, KEEP as BACKUPS_KEPT, RestoreStep};
pub use collection::{
    CollectionError, CollectionReport, MAX_QUANTITY, MAX_ROWS as MAX_COLLECTION_ROWS, RowProblem,
    escape_cell,
};
pub use export::{card_file, write_atomic};
pub use import::{ImportError, ImportProblem, ImportReport, find_card_files};
pub use open::FULL_CHECK_UP_TO;
pub use store::field_rows;

/// What can go wrong with the catalogue. Each says what really happened: a read-only
/// folder or a full disk is not damage, and only a verified backup is ever offered.
#[derive(Debug, thiserror::Error)]
pub enum CatalogueError {
    #[error("{}", sqlite_text(.0))]
    Sqlite(#[from] rusqlite::Error),
    #[error("catalogue migration failed: {0}")]
    Migration(#[from] rusqlite_migration::Error),
    #[error("{0}")]
    Io(#[from] std::io::Error),
    #[error("{0}")]
    Card(#[from] CardError),
    /// A file given to the catalogue (`--db`, a backup to restore) that is a FIFO, a device
    /// or too large.
    #[error("{0}")]
    Input(#[from] crate::safe_io::InputError),
    /// The file is not a usable catalogue (not SQLite, foreign, damaged, empty).
    #[error("{0}")]
    Damaged(String),
    /// The catalogue or its folder cannot be written; the catalogue itself is fine.
    #[error(
        "catalogue `{}` cannot be written: {detail}. It is not damaged: make the file and its folder \
         writable, or copy it to a writable folder and pass that path with --db",
        path.display()
    )]
    ReadOnly { path: PathBuf, detail: String },
    /// The disk is full; nothing was changed.
    #[error(
        "the disk holding catalogue `{}` is full ({detail}); nothing was changed. It is not damaged: \
         free some space and try again",
        path.display()
    )]
    DiskFull { path: PathBuf, detail: String },
    /// Written by a newer deckwright.
    #[error(
        "catalogue `{}` was written by a newer deckwright (schema {found}, this build knows up to \
         {known}); update deckwright or pass another --db",
        path.display()
    )]
    NewerSchema {
        path: PathBuf,
        found: i64,
        known: i64,
    },
    /// A stored row that no card file could hold (an id or game edited outside deckwright).
    #[error("{0}")]
    UnsafeRow(String),
    /// A value outside its documented range (e.g. an owned quantity over the limit).
    #[error("{0}")]
    OutOfRange(String),
    /// No card has this id.
    #[error("no card has the id `{0}`; search the catalogue to find its id")]
    UnknownCard(String),
}

/// A database error as the faces show it: a write refused by a read-only catalogue or a
/// full disk says so and that nothing was changed.
fn sqlite_text(e: &rusqlite::Error) -> String {
    match e.sqlite_error_code() {
        Some(rusqlite::ErrorCode::ReadOnly) => format!(
            "the catalogue is read-only here (its file or folder cannot be written), so nothing \
             was changed ({e}); it is not damaged"
        ),
        Some(rusqlite::ErrorCode::DiskFull) => {
            format!(
                "the disk holding the catalogue is full, so nothing was changed ({e}); it is not damaged"
            )
        }
        _ => format!("catalogue database error: {e}"),
    }
}

impl CatalogueError {
    /// The catalogue file is damaged or not a catalogue (not: read-only, full, too new).
    pub fn is_damage(&self) -> bool {
        matches!(self, CatalogueError::Damaged(_))
    }
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

/// An open catalogue. The database is sealed inside: every use goes through a method.
pub struct Catalogue {
    conn: Connection,
    /// The file (`None` in memory).
    path: Option<PathBuf>,
    /// A database error met by a `CardLookup` answer, until taken.
    lookup_error: std::cell::RefCell<Option<CatalogueError>>,
}

impl Catalogue {
    /// Opens the catalogue at `path`, creating, migrating and filling it on first use.
    ///
    /// Checks first: the file must be an SQLite database that passes `PRAGMA quick_check`
    /// and is a deckwright catalogue (or empty) of a schema this build knows. Before a
    /// migration changes an existing catalogue, a backup is taken next to it (`VACUUM
    /// INTO`, the last 3 kept). The connection uses WAL and waits for other processes.
    pub fn open(path: &Path) -> Result<Catalogue> {
        open::open_file(path).map(|conn| Catalogue {
            conn,
            path: Some(path.to_path_buf()),
            lookup_error: Default::default(),
        })
    }

    /// A catalogue in memory, filled with the bundled cards.
    pub fn open_in_memory() -> Result<Catalogue> {
        open::open_memory(true).map(|conn| Catalogue {
            conn,
            path: None,
            lookup_error: Default::default(),
        })
    }

    /// A catalogue in memory with no cards (the clash table is the standard one).
    pub fn open_empty_in_memory() -> Result<Catalogue> {
        open::open_memory(false).map(|conn| Catalogue {
            conn,
            path: None,
            lookup_error: Default::default(),
        })
    }

    /// The connection, inside `catalogue/` only: everything else calls methods.
    fn conn(&self) -> &Connection {
        &self.conn
    }

    fn conn_mut(&mut self) -> &mut Connection {
        &mut self.conn
    }

    /// The raw connection, for tests and benches that inspect or damage the database on
    /// purpose. Nothing in `src/` outside `catalogue/` may call it (a test of the tree,
    /// `tests/catalogue/hostile.rs`, fails if it does): the app and the command line go
    /// through `Catalogue` methods only.
    #[doc(hidden)]
    pub fn sql_for_tests(&self) -> &Connection {
        &self.conn
    }

    /// [`Catalogue::sql_for_tests`], mutable (for transactions).
    #[doc(hidden)]
    pub fn sql_for_tests_mut(&mut self) -> &mut Connection {
        &mut self.conn
    }

    /// Runs a search (the query language of `docs/search.md`): at most `limit` hits.
    pub fn search(
        &self,
        text: &str,
        limit: Option<usize>,
    ) -> Result<Vec<crate::search::Hit>, crate::search::SearchError> {
        crate::search::search(&self.conn, text, limit)
    }

    /// Runs a parsed query: at most `limit` hits.
    pub fn run_query(
        &self,
        query: &crate::search::Query,
        limit: Option<usize>,
    ) -> Result<Vec<crate::search::Hit>, crate::search::SearchError> {
        crate::search::run(&self.conn, query, limit)
    }

    /// The catalogue's file (`None` for one in memory).
    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }

    /// Takes a verified backup now, into the rotation beside the catalogue file (the newest
    /// [`BACKUPS_KEPT`] are kept). Returns the backup's path.
    pub fn backup(&self) -> Result<PathBuf> {
        let path = self.path.as_deref().ok_or_else(|| {
            CatalogueError::Io(std::io::Error::other(
                "a catalogue in memory has no file to back up",
            ))
        })?;
        let version: i64 = self
            .conn
            .query_row("PRAGMA user_version", [], |r| r.get(0))?;
        backup::take(&self.conn, path, version).map_err(|e| open::classify(e, path))
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

/// What `deckwright catalogue check` found in a whole catalogue.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckReport {
    /// Its schema version.
    pub schema: i64,
    /// Its size in bytes.
    pub bytes: u64,
    /// The backups beside it that pass their check, oldest first.
    pub backups: Vec<Backup>,
}

/// Checks the catalogue file at `path` without changing it: a regular file, SQLite, whole
/// (`PRAGMA integrity_check` whatever its size), a deckwright catalogue this build can read.
pub fn check_file(path: &Path) -> Result<CheckReport> {
    let shown = path.display();
    if !crate::safe_io::check_regular(path)? {
        return Err(CatalogueError::Io(std::io::Error::new(
            std::io::ErrorKind::NotFound,
            format!("there is no catalogue at `{shown}`"),
        )));
    }
    let meta = std::fs::metadata(path)?;
    if meta.len() == 0 {
        return Err(CatalogueError::Damaged(format!(
            "catalogue `{shown}` is an empty file (0 bytes): it holds no catalogue. {}",
            backup::advice(path)
        )));
    }
    open::check_header(path)?;
    let b = backup::verify(path).map_err(|e| match e {
        CatalogueError::Damaged(m) => {
            CatalogueError::Damaged(format!("{m}. {}", backup::advice(path)))
        }
        other => open::classify(other, path),
    });
    let b = match b {
        Err(CatalogueError::Damaged(m)) if m.contains("this build reads catalogues of schema") => {
            let conn = open::open_for_reading(path)?;
            let found: i64 = conn.query_row("PRAGMA user_version", [], |r| r.get(0))?;
            if found > schema_version() {
                return Err(CatalogueError::NewerSchema {
                    path: path.to_path_buf(),
                    found,
                    known: schema_version(),
                });
            }
            return Err(CatalogueError::Damaged(m));
        }
        other => other?,
    };
    Ok(CheckReport {
        schema: b.schema,
        bytes: b.bytes,
        backups: backup::verified(path),
    })
}

/// Says what really went wrong with the catalogue at `path`: a read-only file or folder and
/// a full disk become [`CatalogueError::ReadOnly`] and [`CatalogueError::DiskFull`], never
/// damage (what `Catalogue::open` reports).
pub fn classify_open_error(e: CatalogueError, path: &Path) -> CatalogueError {
    open::classify(e, path)
}

/// Restores the catalogue at `path` from a verified backup (`from`, else the newest one
/// beside it that passes its check); the replaced file is kept as `<name>.replaced-<time>`.
/// Returns the backup and where the replaced file went.
pub fn restore_file(path: &Path, from: Option<&Path>) -> Result<(Backup, Option<PathBuf>)> {
    backup::restore(path, from).map_err(|e| open::classify(e, path))
}

/// [`restore_file`], calling `done` after each step (the crash test stops the process at
/// each one).
#[doc(hidden)]
pub fn restore_file_observed(
    path: &Path,
    from: Option<&Path>,
    done: &mut dyn FnMut(RestoreStep),
) -> Result<(Backup, Option<PathBuf>)> {
    backup::restore_observed(path, from, done).map_err(|e| open::classify(e, path))
}

/// The backups beside the catalogue at `path` that pass their check, oldest first.
pub fn backups(path: &Path) -> Vec<Backup> {
    backup::verified(path)
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

/// Database errors are kept (the first since the last `take_error`), not turned into "no
/// card": callers report them.
impl CardLookup for Catalogue {
    fn card(&self, id: &str) -> Option<Cow<'_, Card>> {
        match self.get(id) {
            Ok(c) => c.map(Cow::Owned),
            Err(e) => {
                self.keep_lookup_error(e);
                None
            }
        }
    }
    fn cards_named(&self, game: Game, name: &str) -> Vec<Cow<'_, Card>> {
        match store::named(&self.conn, game, name) {
            Ok(cards) => cards.into_iter().map(Cow::Owned).collect(),
            Err(e) => {
                self.keep_lookup_error(e);
                Vec::new()
            }
        }
    }
    fn take_error(&self) -> Option<Box<dyn std::error::Error + Send + Sync>> {
        self.lookup_error
            .borrow_mut()
            .take()
            .map(|e| Box::new(e) as _)
    }
}

impl Catalogue {
    fn keep_lookup_error(&self, e: CatalogueError) {
        let mut slot = self.lookup_error.borrow_mut();
        if slot.is_none() {
            *slot = Some(e);
        }
    }
}
