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
use crate::safe_io::{self, excerpt};

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

/// The largest owned quantity of one card.
pub const MAX_QUANTITY: u32 = 9_999;
/// The most data rows a collection CSV may have.
pub const MAX_ROWS: usize = 200_000;

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
            excerpt(&header.iter().collect::<Vec<_>>().join(","), 200)
        ))
    })?;
    let mut lines = LineCounter::default();
    let mut out = Vec::new();
    for rec in rdr.records() {
        let rec = rec.map_err(|e| {
            let line = e
                .position()
                .map(|p| lines.line_of(data, p.byte()))
                .unwrap_or(0);
            bad(format!("line {line}: {}", excerpt(&e.to_string(), 200)))
        })?;
        let line = rec
            .position()
            .map(|p| lines.line_of(data, p.byte()))
            .unwrap_or(0);
        let get = |i: Option<usize>| i.and_then(|i| rec.get(i)).unwrap_or("").trim().to_string();
        let (id, name, game) = (
            unescape(get(cols.id)),
            unescape(get(cols.name)),
            get(cols.game),
        );
        let q = get(Some(cols.quantity));
        if id.is_empty() && name.is_empty() {
            if rec.iter().all(|f| f.trim().is_empty()) {
                continue;
            }
            return Err(bad(format!(
                "line {line}: the row names no card (empty id and name)"
            )));
        }
        let quantity = q
            .parse::<u32>()
            .ok()
            .filter(|&n| n <= MAX_QUANTITY)
            .ok_or_else(|| {
                bad(format!(
                    "line {line}: quantity `{}` is not a whole number from 0 to {MAX_QUANTITY}",
                    excerpt(&q, 40)
                ))
            })?;
        if out.len() == MAX_ROWS {
            return Err(bad(format!(
                "line {line}: more than {MAX_ROWS} rows, the limit of a collection file; nothing was imported"
            )));
        }
        out.push(Row {
            line,
            id: excerpt(&id, 200),
            name: excerpt(&name, 200),
            game: excerpt(&game, 40),
            quantity,
        });
    }
    Ok(out)
}

/// A cell `collection export` wrote with a `'` before a leading `=`, `+`, `-`, `@`, tab or
/// carriage return (so a spreadsheet shows it as text, not a formula) reads back as written.
fn unescape(cell: String) -> String {
    match cell.strip_prefix('\'') {
        Some(rest) if rest.starts_with(FORMULA_STARTS) => rest.to_string(),
        _ => cell,
    }
}

/// The characters that make a spreadsheet read a cell as a formula.
const FORMULA_STARTS: [char; 6] = ['=', '+', '-', '@', '\t', '\r'];

/// A cell as `collection export` writes it: one starting like a formula gets a leading `'`
/// (the usual defence against formula injection; spreadsheets show the text as typed).
pub fn escape_cell(cell: &str) -> std::borrow::Cow<'_, str> {
    if cell.starts_with(FORMULA_STARTS) {
        format!("'{cell}").into()
    } else {
        cell.into()
    }
}

/// 1-based line where the record at `byte` starts (the csv crate counts a record from
/// the blank lines before it). Records come in file order: newlines are counted once, from
/// where the last record was, so a whole file costs one pass.
#[derive(Default)]
struct LineCounter {
    /// Bytes counted so far.
    pos: usize,
    /// Newlines in `data[..pos]`.
    newlines: u64,
}

impl LineCounter {
    fn line_of(&mut self, data: &[u8], byte: u64) -> u64 {
        let mut end = (byte as usize).min(data.len());
        while end < data.len() && (data[end] == b'\n' || data[end] == b'\r') {
            end += 1;
        }
        if end < self.pos {
            self.pos = 0;
            self.newlines = 0;
        }
        self.newlines += data[self.pos..end].iter().filter(|&&b| b == b'\n').count() as u64;
        self.pos = end;
        self.newlines + 1
    }
}

impl Catalogue {
    /// Sets the owned quantity of a card (0 removes it from the collection).
    pub fn set_owned(&mut self, id: &str, quantity: u32) -> Result<()> {
        if quantity > MAX_QUANTITY {
            return Err(CatalogueError::OutOfRange(format!(
                "quantity {quantity} is over {MAX_QUANTITY}, the most copies of one card the collection holds"
            )));
        }
        if !self.has_card(id)? {
            return Err(CatalogueError::UnknownCard(excerpt(id, 80)));
        }
        set_quantity(self.conn(), id, quantity)?;
        Ok(())
    }

    /// The owned quantity of a card (0 when not owned or unknown); a stored quantity outside
    /// `0..=MAX_QUANTITY` (edited outside deckwright) is an error, not a huge number.
    pub fn owned(&self, id: &str) -> Result<u32> {
        let q: Option<i64> = self
            .conn()
            .prepare_cached("SELECT quantity FROM collection WHERE card_id = ?1")?
            .query_row([id], |r| r.get(0))
            .optional()?;
        match q.unwrap_or(0) {
            n if (0..=MAX_QUANTITY as i64).contains(&n) => Ok(n as u32),
            n => Err(CatalogueError::OutOfRange(format!(
                "card `{}` has an owned quantity of {n}, outside 0 to {MAX_QUANTITY}; the catalogue \
                 was changed outside deckwright (set it again with `collection set`)",
                excerpt(id, 80)
            ))),
        }
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
        let data =
            safe_io::read_bytes(path, safe_io::MAX_CSV_FILE, "a collection CSV").map_err(|e| {
                CollectionError::Malformed {
                    file: path.to_path_buf(),
                    message: match e {
                        safe_io::InputError::Io { source, .. } => format!("cannot read: {source}"),
                        other => other.to_string(),
                    },
                }
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
            w.write_record(
                [
                    escape_cell(&id),
                    escape_cell(&name),
                    escape_cell(&game),
                    q.to_string().into(),
                ]
                .iter()
                .map(|c| c.as_bytes()),
            )
            .map_err(csv_err)?;
            n += 1;
        }
        let bytes = w
            .into_inner()
            .map_err(|e| CatalogueError::Io(std::io::Error::other(e.to_string())))?;
        safe_io::check_output(path)?;
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
    /// The old `line_of`: newlines recounted from the file's start (quadratic over a file).
    fn recount(data: &[u8], byte: u64) -> u64 {
        let mut end = (byte as usize).min(data.len());
        while end < data.len() && (data[end] == b'\n' || data[end] == b'\r') {
            end += 1;
        }
        data[..end].iter().filter(|&&b| b == b'\n').count() as u64 + 1
    }

    proptest::proptest! {
        #[test]
        fn quadratic_line_of_replaced_by_a_linear_count_with_the_same_lines(
            rows in proptest::collection::vec(("[a-z\"\n ]{0,8}", 0u32..5, 0usize..3, proptest::bool::ANY), 0..40)
        ) {
            let mut text = String::from("name,quantity\n");
            for (name, q, blanks, crlf) in &rows {
                let nl = if *crlf { "\r\n" } else { "\n" };
                text.push_str(&nl.repeat(*blanks));
                text.push_str(&format!("\"{}\",{q}{nl}", name.replace('"', "\"\"")));
            }
            let data = text.as_bytes();
            let mut rdr = csv::ReaderBuilder::new().flexible(true).from_reader(data);
            let mut counter = LineCounter::default();
            for rec in rdr.records() {
                let byte = rec.unwrap().position().unwrap().byte();
                proptest::prop_assert_eq!(counter.line_of(data, byte), recount(data, byte));
            }
        }
    }

    #[test]
    fn quadratic_line_of_a_200k_row_file_reads_in_linear_time() {
        let mut text = String::from("id,quantity\n");
        for i in 0..MAX_ROWS {
            text.push_str(&format!("card-{i},1\n"));
        }
        let t = std::time::Instant::now();
        let rows = read_rows(text.as_bytes(), Path::new("big.csv")).unwrap();
        assert_eq!(
            (rows.len(), rows[MAX_ROWS - 1].line),
            (MAX_ROWS, MAX_ROWS as u64 + 1)
        );
        assert!(
            t.elapsed() < std::time::Duration::from_secs(10),
            "{:?}",
            t.elapsed()
        );
        text.push_str("one-more,1\n");
        let e = read_rows(text.as_bytes(), Path::new("big.csv")).unwrap_err();
        assert!(e.to_string().contains("200000 rows"), "{e}");
    }

    #[test]
    fn formula_injection_cells_are_escaped_and_read_back() {
        for cell in ["=1+1", "+1", "-x", "@SUM(A1)", "\tx", "\rx"] {
            let e = escape_cell(cell);
            assert_eq!(e, format!("'{cell}"));
            assert_eq!(unescape(e.into_owned()), cell);
        }
        assert_eq!(escape_cell("Fire Dance"), "Fire Dance");
        assert_eq!(
            unescape("'quoted".into()),
            "'quoted",
            "a name starting with ' is kept"
        );
    }
}
