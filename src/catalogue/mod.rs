//! The SQLite catalogue: open, migrate, import, export, collection.
//!
//! Migrations are the `migrations/*.sql` files, built into the binary and applied in file
//! name order by `rusqlite_migration`. A new catalogue is filled with the bundled cards.

pub mod saved;
mod store;

use std::borrow::Cow;
use std::path::{Path, PathBuf};

use rusqlite::Connection;
use rusqlite_migration::{M, Migrations};

use crate::cards::{self, Card, CardError, CardLookup, Game};

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
    #[error("{0}")]
    Damaged(String),
}

pub type Result<T, E = CatalogueError> = std::result::Result<T, E>;

/// The default catalogue file: `catalogue.sqlite` in the platform data directory.
pub fn default_path() -> PathBuf {
    directories::ProjectDirs::from("", "", "deckwright")
        .map(|d| d.data_dir().join("catalogue.sqlite"))
        .unwrap_or_else(|| PathBuf::from("deckwright-catalogue.sqlite"))
}

/// The migrations, in file name order.
pub fn migrations() -> Migrations<'static> {
    static DIR: include_dir::Dir<'static> = include_dir::include_dir!("$CARGO_MANIFEST_DIR/migrations");
    let mut files: Vec<_> = DIR
        .files()
        .filter(|f| f.path().extension().is_some_and(|x| x == "sql"))
        .collect();
    files.sort_by_key(|f| f.path());
    Migrations::new(files.iter().map(|f| M::up(f.contents_utf8().expect("migrations are UTF-8"))).collect())
}

/// An open catalogue.
pub struct Catalogue {
    conn: Connection,
}

impl Catalogue {
    /// Opens (creating, migrating and filling on first use) the catalogue at `path`.
    pub fn open(path: &Path) -> Result<Catalogue> {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir)?;
        }
        let conn = Connection::open(path)?;
        Catalogue::init(conn, true)
    }

    /// A catalogue in memory, filled with the bundled cards.
    pub fn open_in_memory() -> Result<Catalogue> {
        Catalogue::init(Connection::open_in_memory()?, true)
    }

    /// A catalogue in memory with no cards.
    pub fn open_empty_in_memory() -> Result<Catalogue> {
        Catalogue::init(Connection::open_in_memory()?, false)
    }

    fn init(mut conn: Connection, fill: bool) -> Result<Catalogue> {
        conn.pragma_update(None, "foreign_keys", true)?;
        migrations().to_latest(&mut conn)?;
        let mut cat = Catalogue { conn };
        if fill && cat.count()? == 0 {
            cat.upsert(&bundled_cards()?)?;
        }
        Ok(cat)
    }

    pub fn conn(&self) -> &Connection {
        &self.conn
    }

    pub fn conn_mut(&mut self) -> &mut Connection {
        &mut self.conn
    }

    /// Number of cards.
    pub fn count(&self) -> Result<u64> {
        Ok(self.conn.query_row("SELECT count(*) FROM card", [], |r| r.get::<_, i64>(0))? as u64)
    }

    /// Inserts or replaces cards, in one transaction.
    pub fn upsert(&mut self, cards: &[Card]) -> Result<()> {
        let tx = self.conn.transaction()?;
        for c in cards {
            store::upsert(&tx, c)?;
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
        store::named(&self.conn, game, name).unwrap_or_default().into_iter().map(Cow::Owned).collect()
    }
}
