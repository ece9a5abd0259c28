//! Cards as spreadsheet rows, both ways: CSV and XLSX.
//!
//! One row a card, one column a key (`docs/cards.md`, "Spreadsheets", has the naming:
//! `health.start`, `terrain[2]`, `actions[1].effects[1].damage`), plus `copies`, the owned
//! quantity. An XLSX workbook has one worksheet per game and kind (`iconica character`); a
//! CSV file holds every card of the selection, each row using the columns its card has.
//!
//! Reading is all or nothing: each row is written back as a card file's TOML and read by
//! the strict card parser ([`rows`]), and any problem (a bad header, a key the format does
//! not have, a value outside its set, two rows with one id) is reported with the file, the
//! sheet, the row, the column and the key; no card is returned then.
//!
//! - [`path`]: column names <-> key paths.
//! - [`rows`]: a card <-> a row of cells.
//! - [`xlsx`]: workbooks, with `rust_xlsxwriter` (write) and `calamine` (read).

mod error;
pub mod path;
pub mod rows;
mod xlsx;

use std::collections::HashMap;
use std::path::Path;

pub use error::{CellError, SheetError};
pub use rows::{COPIES, Cell, RowCard};

use crate::cards::Card;
use rows::{Column, ColumnOrder, Place};

/// A sheet file's format, from its extension.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Csv,
    Xlsx,
}

impl Format {
    /// `.csv` or `.xlsx` (any case).
    pub fn of(path: &Path) -> Result<Format, SheetError> {
        match path
            .extension()
            .and_then(|e| e.to_str())
            .map(str::to_ascii_lowercase)
            .as_deref()
        {
            Some("csv") => Ok(Format::Csv),
            Some("xlsx") => Ok(Format::Xlsx),
            _ => Err(SheetError::UnknownFormat(path.display().to_string())),
        }
    }
}

/// One sheet: a header row and rows of cells (`None`: empty).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Table {
    /// The worksheet's name (`None` for CSV).
    pub name: Option<String>,
    pub header: Vec<String>,
    pub rows: Vec<Vec<Option<Cell>>>,
    /// 1-based row number of the header (a workbook's sheet may start lower).
    pub header_row: usize,
    /// 0-based column of the first header cell.
    pub first_column: usize,
}

/// A card to export and how many copies of it are owned.
#[derive(Debug, Clone, PartialEq)]
pub struct SheetCard {
    pub card: Card,
    pub copies: u32,
}

/// The table of `cards`: columns in the order of the card format's keys (list members
/// together), `copies` after `name`.
pub fn table(name: Option<String>, cards: &[SheetCard]) -> Table {
    let flat: Vec<Vec<(path::KeyPath, Cell)>> =
        cards.iter().map(|c| rows::flatten(&c.card)).collect();
    let mut order = ColumnOrder::default();
    for row in &flat {
        for (p, _) in row {
            order.add(p);
        }
    }
    let columns = order.columns();
    let mut header: Vec<String> = columns.iter().map(ToString::to_string).collect();
    let copies_at = header
        .iter()
        .position(|h| h == "name")
        .map(|i| i + 1)
        .unwrap_or(header.len());
    header.insert(copies_at, COPIES.to_string());
    let index: HashMap<&path::KeyPath, usize> = columns
        .iter()
        .enumerate()
        .map(|(i, p)| (p, if i >= copies_at { i + 1 } else { i }))
        .collect();
    let rows = flat
        .into_iter()
        .zip(cards)
        .map(|(cells, c)| {
            let mut row = vec![None; header.len()];
            for (p, v) in cells {
                row[index[&p]] = Some(v);
            }
            row[copies_at] = Some(Cell::Int(i64::from(c.copies)));
            row
        })
        .collect();
    Table {
        name,
        header,
        rows,
        header_row: 1,
        first_column: 0,
    }
}

/// One table per game and kind, named `<game> <kind>`, in the order first met.
pub fn tables_by_kind(cards: &[SheetCard]) -> Vec<Table> {
    let mut groups: Vec<(String, Vec<SheetCard>)> = Vec::new();
    for c in cards {
        let name = format!("{} {}", c.card.game(), c.card.kind());
        match groups.iter_mut().find(|(n, _)| *n == name) {
            Some((_, g)) => g.push(c.clone()),
            None => groups.push((name, vec![c.clone()])),
        }
    }
    groups
        .into_iter()
        .map(|(n, g)| table(Some(n), &g))
        .collect()
}

/// The CSV file of `cards` (one header, every card a row).
pub fn to_csv(cards: &[SheetCard]) -> Vec<u8> {
    let t = table(None, cards);
    let mut w = csv::WriterBuilder::new().from_writer(Vec::new());
    w.write_record(&t.header)
        .expect("writing to memory cannot fail");
    for row in &t.rows {
        w.write_record(
            row.iter()
                .map(|c| c.as_ref().map(Cell::to_text).unwrap_or_default()),
        )
        .expect("writing to memory cannot fail");
    }
    w.into_inner().expect("writing to memory cannot fail")
}

/// The XLSX workbook of `cards`: a worksheet per game and kind.
pub fn to_xlsx(cards: &[SheetCard]) -> Result<Vec<u8>, SheetError> {
    xlsx::write(&tables_by_kind(cards))
}

/// Writes `cards` to `out` as CSV or XLSX (by its extension), atomically. Returns the
/// number of rows written.
pub fn export(cards: &[SheetCard], out: &Path) -> Result<usize, SheetError> {
    let format = Format::of(out)?;
    if cards.is_empty() {
        return Err(SheetError::Empty);
    }
    let bytes = match format {
        Format::Csv => to_csv(cards),
        Format::Xlsx => to_xlsx(cards)?,
    };
    crate::catalogue::write_atomic(out, &bytes).map_err(|e| SheetError::Write {
        file: out.display().to_string(),
        message: e.to_string(),
    })?;
    Ok(cards.len())
}

/// The tables of a sheet file's bytes. `file` names the file in errors.
pub fn read_tables(bytes: &[u8], format: Format, file: &str) -> Result<Vec<Table>, SheetError> {
    match format {
        Format::Csv => Ok(vec![read_csv(bytes, file)?]),
        Format::Xlsx => xlsx::read(bytes, file),
    }
}

fn read_csv(bytes: &[u8], file: &str) -> Result<Table, SheetError> {
    let bytes = bytes.strip_prefix("\u{feff}".as_bytes()).unwrap_or(bytes);
    let mut r = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_reader(bytes);
    let mut t = Table {
        header_row: 1,
        ..Table::default()
    };
    for (i, rec) in r.records().enumerate() {
        let rec = rec.map_err(|e| SheetError::Unreadable {
            file: file.to_string(),
            message: format!("not a CSV file: {e}"),
        })?;
        let cells: Vec<String> = rec.iter().map(str::to_string).collect();
        if i == 0 {
            t.header = cells;
        } else {
            t.rows.push(
                cells
                    .into_iter()
                    .map(|s| (!s.is_empty()).then_some(Cell::Text(s)))
                    .collect(),
            );
        }
    }
    Ok(t)
}

/// The cards of `tables`, all or nothing: every problem of every row, or every card.
pub fn cards_from_tables(tables: &[Table], file: &str) -> Result<Vec<RowCard>, SheetError> {
    let mut errors = Vec::new();
    let mut out = Vec::new();
    let mut ids: HashMap<String, (Option<String>, usize)> = HashMap::new();
    for t in tables {
        let mut names = t.header.clone();
        let width = t
            .rows
            .iter()
            .map(Vec::len)
            .max()
            .unwrap_or(0)
            .max(names.len());
        names.resize(width, String::new());
        let place = Place {
            file,
            sheet: t.name.as_deref(),
            row: t.header_row,
            first_column: t.first_column,
        };
        let cols = match rows::header(&names, &place) {
            Ok(c) => c,
            Err(e) => {
                errors.extend(e);
                continue;
            }
        };
        for (i, cells) in t.rows.iter().enumerate() {
            let mut cells = cells.clone();
            cells.resize(width, None);
            let place = Place {
                row: t.header_row + 1 + i,
                ..place.clone()
            };
            match rows::card_from_row(&cols, &cells, &names, &place) {
                Ok(Some(rc)) => {
                    let id = rc.card.id().to_string();
                    if let Some((sheet, row)) = ids.get(&id) {
                        let col = cols
                            .iter()
                            .position(|c| matches!(c, Column::Key(p) if p.to_string() == "id"));
                        let other = match sheet {
                            Some(s) if Some(s.as_str()) != t.name.as_deref() => {
                                format!("sheet `{s}`, row {row}")
                            }
                            _ => format!("row {row}"),
                        };
                        errors.push(place.error(
                            col.map(|c| (c, names[c].as_str())),
                            Some("id".into()),
                            format!("duplicate id `{id}`, also in {other}; each card id may have one row only"),
                        ));
                    } else {
                        ids.insert(id, (t.name.clone(), place.row));
                        out.push(rc);
                    }
                }
                Ok(None) => {}
                Err(e) => errors.push(*e),
            }
        }
    }
    if !errors.is_empty() {
        return Err(SheetError::Invalid(errors));
    }
    Ok(out)
}

/// Reads a CSV or XLSX file of cards, all or nothing.
pub fn read(path: &Path) -> Result<Vec<RowCard>, SheetError> {
    let format = Format::of(path)?;
    let file = path.display().to_string();
    let bytes = std::fs::read(path).map_err(|e| SheetError::Unreadable {
        file: file.clone(),
        message: e.to_string(),
    })?;
    let tables = read_tables(&bytes, format, &file)?;
    cards_from_tables(&tables, &file)
}
