//! The collection: owned quantity per card, and its CSV import and export.
//!
//! The CSV written is `id,name,game,quantity`. Read are that header (any order, any of
//! `id`/`name` with `quantity`, `game` optional) and the common collection exports that
//! have a `Count` or `Quantity` column beside a `Name` column (Deckbox, Moxfield, Archidekt,
//! TCGplayer), recognised from the header. A row names its card by id, else by exact name
//! within its game, else by exact name in any game. Rows naming the same card add up.

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};

use rusqlite::{OptionalExtension, params};

use super::{Catalogue, CatalogueError, Result, export::write_atomic};
use crate::cards::Game;

/// What a collection import did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CollectionReport {
    /// Cards whose quantity was set.
    pub cards: usize,
    /// Rows read (blank rows aside).
    pub rows: usize,
    /// Rows skipped (`skip_unknown`): unknown or ambiguous cards.
    pub skipped: Vec<RowProblem>,
}

/// A row that names no card, or more than one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RowProblem {
    /// 1-based line of the CSV file.
    pub line: u64,
    /// What the row said (its id or name).
    pub card: String,
    pub kind: RowProblemKind,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RowProblemKind {
    /// No card has this id / name.
    Unknown,
    /// The name is shared by several cards: their ids (`game/id`).
    Ambiguous(Vec<String>),
    /// The `game` column names no game.
    UnknownGame(String),
}

impl fmt::Display for RowProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            RowProblemKind::Unknown => {
                write!(f, "line {}: unknown card `{}`", self.line, self.card)
            }
            RowProblemKind::Ambiguous(ids) => write!(
                f,
                "line {}: ambiguous name `{}`: it is {}; add a game or id column",
                self.line,
                self.card,
                ids.join(" and ")
            ),
            RowProblemKind::UnknownGame(g) => write!(
                f,
                "line {}: card `{}`: unknown game `{g}`; expected iconica, arcadia, iconoclasm or ruunara",
                self.line, self.card
            ),
        }
    }
}

/// Why a collection import wrote nothing.
#[derive(Debug, thiserror::Error)]
pub enum CollectionError {
    #[error("{}: {message}", file.display())]
    Malformed { file: PathBuf, message: String },
    #[error("{}: {} row{} name no single card; nothing was imported (pass --skip-unknown to import the others):\n  {}",
        file.display(), rows.len(), if rows.len() == 1 { "" } else { "s" },
        rows.iter().map(|r| r.to_string()).collect::<Vec<_>>().join("\n  "))]
    Unknown {
        file: PathBuf,
        rows: Vec<RowProblem>,
    },
    #[error(transparent)]
    Catalogue(#[from] CatalogueError),
}

impl From<rusqlite::Error> for CollectionError {
    fn from(e: rusqlite::Error) -> Self {
        CollectionError::Catalogue(e.into())
    }
}

/// The columns of a collection CSV, found from its header.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Columns {
    pub id: Option<usize>,
    pub name: Option<usize>,
    pub game: Option<usize>,
    pub quantity: usize,
}

impl Columns {
    /// Recognises a header: `quantity`/`count`/`qty` and `id` and/or `name`.
    pub(crate) fn detect(header: &csv::StringRecord) -> Option<Columns> {
        let norm: Vec<String> = header
            .iter()
            .map(|h| h.trim_start_matches('\u{feff}').trim().to_lowercase())
            .collect();
        let find = |names: &[&str]| norm.iter().position(|h| names.contains(&h.as_str()));
        let quantity = find(&["quantity", "count", "qty", "owned"])?;
        let id = find(&["id", "card id", "card_id"]);
        let name = find(&["name", "card name", "card_name", "card", "product name"]);
        if id.is_none() && name.is_none() {
            return None;
        }
        Some(Columns {
            id,
            name,
            game: find(&["game"]),
            quantity,
        })
    }
}

/// One parsed data row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Row {
    pub line: u64,
    pub id: String,
    pub name: String,
    pub game: String,
    pub quantity: u32,
}

/// Reads a collection CSV into rows. Errors name the file and line.
pub(crate) fn read_rows(data: &[u8], file: &Path) -> Result<Vec<Row>, CollectionError> {
    let bad = |message: String| CollectionError::Malformed {
        file: file.to_path_buf(),
        message,
    };
    let mut rdr = csv::ReaderBuilder::new()
        .flexible(true)
        .has_headers(true)
        .from_reader(data);
    let header = rdr
        .headers()
        .map_err(|e| bad(format!("cannot read the header: {e}")))?
        .clone();
    let cols = Columns::detect(&header).ok_or_else(|| {
        bad(format!(
            "line 1: header `{}` is not a collection header; expected id,name,game,quantity \
             (or a Count/Quantity column with a Name column)",
            header.iter().collect::<Vec<_>>().join(",")
        ))
    })?;
    let mut out = Vec::new();
    for rec in rdr.records() {
        let rec = rec.map_err(|e| {
            let line = e.position().map(|p| line_of(data, p.byte())).unwrap_or(0);
            bad(format!("line {line}: {e}"))
        })?;
        let line = rec.position().map(|p| line_of(data, p.byte())).unwrap_or(0);
        let get = |i: Option<usize>| i.and_then(|i| rec.get(i)).unwrap_or("").trim().to_string();
        let (id, name, game) = (get(cols.id), get(cols.name), get(cols.game));
        let q = get(Some(cols.quantity));
        if id.is_empty() && name.is_empty() {
            if rec.iter().all(|f| f.trim().is_empty()) {
                continue;
            }
            return Err(bad(format!(
                "line {line}: the row names no card (empty id and name)"
            )));
        }
        let quantity = q.parse::<u32>().map_err(|_| {
            bad(format!(
                "line {line}: quantity `{q}` is not a whole number from 0 up"
            ))
        })?;
        out.push(Row {
            line,
            id,
            name,
            game,
            quantity,
        });
    }
    Ok(out)
}

/// 1-based line where the record at `byte` starts (the csv crate counts a record from
/// the blank lines before it).
fn line_of(data: &[u8], byte: u64) -> u64 {
    let mut end = (byte as usize).min(data.len());
    while end < data.len() && (data[end] == b'\n' || data[end] == b'\r') {
        end += 1;
    }
    data[..end].iter().filter(|&&b| b == b'\n').count() as u64 + 1
}

impl Catalogue {
    /// Sets the owned quantity of a card (0 removes it from the collection).
    pub fn set_owned(&mut self, id: &str, quantity: u32) -> Result<()> {
        if !self.has_card(id)? {
            return Err(CatalogueError::UnknownCard(id.to_string()));
        }
        set_quantity(self.conn(), id, quantity)?;
        Ok(())
    }

    /// The owned quantity of a card (0 when not owned or unknown).
    pub fn owned(&self, id: &str) -> Result<u32> {
        let q: Option<i64> = self
            .conn()
            .prepare_cached("SELECT quantity FROM collection WHERE card_id = ?1")?
            .query_row([id], |r| r.get(0))
            .optional()?;
        Ok(q.unwrap_or(0).clamp(0, u32::MAX as i64) as u32)
    }

    /// Total number of owned copies of cards in the catalogue.
    pub fn collection_total(&self) -> Result<u64> {
        let n: i64 = self.conn().query_row(
            "SELECT coalesce(sum(quantity), 0) FROM collection JOIN card ON card.id = collection.card_id",
            [],
            |r| r.get(0),
        )?;
        Ok(n.max(0) as u64)
    }

    fn has_card(&self, id: &str) -> Result<bool> {
        Ok(self
            .conn()
            .prepare_cached("SELECT 1 FROM card WHERE id = ?1")?
            .query_row([id], |_| Ok(()))
            .optional()?
            .is_some())
    }

    /// Imports owned quantities from a CSV file: each card named sets its quantity (others
    /// keep theirs). Rows naming no card or several are all reported and nothing is
    /// imported, unless `skip_unknown`, which imports the rest and lists them as skipped.
    pub fn import_collection_csv(
        &mut self,
        path: &Path,
        skip_unknown: bool,
    ) -> Result<CollectionReport, CollectionError> {
        let data = std::fs::read(path).map_err(|e| CollectionError::Malformed {
            file: path.to_path_buf(),
            message: format!("cannot read: {e}"),
        })?;
        self.import_collection_bytes(&data, path, skip_unknown)
    }

    /// As [`Catalogue::import_collection_csv`], from CSV text already read (`file` names it in messages).
    pub fn import_collection_bytes(
        &mut self,
        data: &[u8],
        file: &Path,
        skip_unknown: bool,
    ) -> Result<CollectionReport, CollectionError> {
        let rows = read_rows(data, file)?;
        let mut totals: BTreeMap<String, u32> = BTreeMap::new();
        let mut problems = Vec::new();
        for row in &rows {
            match self.resolve(row)? {
                Ok(id) => {
                    let t = totals.entry(id).or_insert(0);
                    *t = t.saturating_add(row.quantity);
                }
                Err(p) => problems.push(p),
            }
        }
        if !problems.is_empty() && !skip_unknown {
            return Err(CollectionError::Unknown {
                file: file.to_path_buf(),
                rows: problems,
            });
        }
        let tx = self
            .conn_mut()
            .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
        for (id, q) in &totals {
            set_quantity(&tx, id, *q)?;
        }
        tx.commit()?;
        Ok(CollectionReport {
            cards: totals.len(),
            rows: rows.len(),
            skipped: problems,
        })
    }

    /// The card a row names, or why it names none.
    fn resolve(&self, row: &Row) -> Result<std::result::Result<String, RowProblem>> {
        let problem = |card: &str, kind| RowProblem {
            line: row.line,
            card: card.to_string(),
            kind,
        };
        if !row.id.is_empty() {
            return Ok(if self.has_card(&row.id)? {
                Ok(row.id.clone())
            } else {
                Err(problem(&row.id, RowProblemKind::Unknown))
            });
        }
        let game = if row.game.is_empty() {
            None
        } else {
            match Game::parse(&row.game.to_lowercase()) {
                Some(g) => Some(g),
                None => {
                    return Ok(Err(problem(
                        &row.name,
                        RowProblemKind::UnknownGame(row.game.clone()),
                    )));
                }
            }
        };
        let mut st = self
            .conn()
            .prepare_cached("SELECT id, game FROM card WHERE name = ?1 ORDER BY game, id")?;
        let found: Vec<(String, String)> = st
            .query_map([&row.name], |r| Ok((r.get(0)?, r.get(1)?)))?
            .collect::<rusqlite::Result<_>>()?;
        let found: Vec<(String, String)> = found
            .into_iter()
            .filter(|(_, g)| game.is_none_or(|want| want.as_str() == g))
            .collect();
        Ok(match found.as_slice() {
            [] => Err(problem(&row.name, RowProblemKind::Unknown)),
            [(id, _)] => Ok(id.clone()),
            many => Err(problem(
                &row.name,
                RowProblemKind::Ambiguous(many.iter().map(|(id, g)| format!("{g}/{id}")).collect()),
            )),
        })
    }

    /// Writes the collection (cards owned at least once) as `id,name,game,quantity`,
    /// ordered by game, name and id. Returns the number of rows.
    pub fn export_collection_csv(&self, path: &Path) -> Result<usize> {
        let mut w = csv::Writer::from_writer(Vec::new());
        let csv_err = |e: csv::Error| CatalogueError::Io(std::io::Error::other(e));
        w.write_record(["id", "name", "game", "quantity"])
            .map_err(csv_err)?;
        let mut st = self.conn().prepare_cached(
            "SELECT card.id, card.name, card.game, collection.quantity FROM collection
             JOIN card ON card.id = collection.card_id WHERE collection.quantity > 0
             ORDER BY card.game, card.name, card.id",
        )?;
        let mut rows = st.query([])?;
        let mut n = 0;
        while let Some(r) = rows.next()? {
            let (id, name, game, q): (String, String, String, i64) =
                (r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?);
            w.write_record([id, name, game, q.to_string()])
                .map_err(csv_err)?;
            n += 1;
        }
        let bytes = w
            .into_inner()
            .map_err(|e| CatalogueError::Io(std::io::Error::other(e.to_string())))?;
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir)?;
        }
        write_atomic(path, &bytes)?;
        Ok(n)
    }
}

pub(super) fn set_quantity(
    conn: &rusqlite::Connection,
    id: &str,
    quantity: u32,
) -> rusqlite::Result<()> {
    if quantity == 0 {
        conn.prepare_cached("DELETE FROM collection WHERE card_id = ?1")?
            .execute([id])?;
    } else {
        conn.prepare_cached(
            "INSERT INTO collection(card_id, quantity) VALUES (?1, ?2)
             ON CONFLICT(card_id) DO UPDATE SET quantity = excluded.quantity",
        )?
        .execute(params![id, quantity])?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header(s: &str) -> csv::StringRecord {
        csv::StringRecord::from(s.split(',').collect::<Vec<_>>())
    }

    #[test]
    fn detects_the_common_dialects() {
        let own = Columns::detect(&header("id,name,game,quantity")).unwrap();
        assert_eq!(
            own,
            Columns {
                id: Some(0),
                name: Some(1),
                game: Some(2),
                quantity: 3
            }
        );
        let deckbox = Columns::detect(&header(
            "Count,Tradelist Count,Name,Edition,Card Number,Condition",
        ))
        .unwrap();
        assert_eq!(
            deckbox,
            Columns {
                id: None,
                name: Some(2),
                game: None,
                quantity: 0
            }
        );
        let archidekt = Columns::detect(&header("Quantity,Name,Finish,Condition")).unwrap();
        assert_eq!(archidekt.quantity, 0);
        assert_eq!(archidekt.name, Some(1));
        let bom = Columns::detect(&header("\u{feff}Name,Qty")).unwrap();
        assert_eq!((bom.name, bom.quantity), (Some(0), 1));
        assert!(Columns::detect(&header("Name,Edition")).is_none());
        assert!(Columns::detect(&header("Count,Edition")).is_none());
    }

    #[test]
    fn rows_keep_their_line_and_reject_bad_quantities() {
        let rows = read_rows(b"name,quantity\n\nFoo,2\n", Path::new("c.csv")).unwrap();
        assert_eq!(rows.len(), 1);
        assert_eq!(rows[0].line, 3);
        let e = read_rows(b"name,quantity\nFoo,-1\n", Path::new("c.csv")).unwrap_err();
        assert!(e.to_string().contains("c.csv: line 2"), "{e}");
    }
}
