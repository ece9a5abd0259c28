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
use path::column_letter;
use rows::{Column, ColumnOrder, Place};

/// The most card rows one sheet file holds, all its worksheets together (the most cards one
/// print job takes).
pub const MAX_ROWS: usize = 20_000;
/// The most columns a worksheet spans, from its first column to the last one with a value
/// (a bundled game's widest sheet has 185).
pub const MAX_COLUMNS: usize = 1_024;
/// The most cells a sheet file spans, all worksheets together: each row counted from the
/// sheet's first column to its last cell with a value.
pub const MAX_CELLS: usize = 2_000_000;
/// The most characters one cell holds (Excel's own limit; a card's longest text is 4,000).
pub const MAX_CELL_CHARS: usize = 32_767;
/// The most text all the cells of a sheet file hold together, in bytes.
pub const MAX_TEXT: usize = 64 << 20;

/// What a sheet file has used of its limits so far; every limit is checked as the cells are
/// read, before anything is kept beyond it.
struct Budget<'a> {
    file: &'a str,
    rows: usize,
    cells: usize,
    text: usize,
}

impl<'a> Budget<'a> {
    fn new(file: &'a str) -> Budget<'a> {
        Budget {
            file,
            rows: 0,
            cells: 0,
            text: 0,
        }
    }

    fn refuse(&self, message: String) -> SheetError {
        SheetError::TooLarge {
            file: self.file.to_string(),
            message,
        }
    }

    /// `sheet` and `row` (1-based) name the place in messages.
    fn place(sheet: Option<&str>, row: usize) -> String {
        match sheet {
            Some(s) => format!("sheet `{}`, row {row}", crate::safe_io::excerpt(s, 40)),
            None => format!("row {row}"),
        }
    }

    /// One more card row.
    fn row(&mut self, sheet: Option<&str>, row: usize) -> Result<(), SheetError> {
        self.rows += 1;
        if self.rows > MAX_ROWS {
            return Err(self.refuse(format!(
                "{}: more than {MAX_ROWS} card rows; a sheet holds at most {MAX_ROWS} (split it into several files)",
                Budget::place(sheet, row)
            )));
        }
        Ok(())
    }

    /// A row spanning `width` columns from the sheet's first one.
    fn span(&mut self, sheet: Option<&str>, row: usize, width: usize) -> Result<(), SheetError> {
        if width > MAX_COLUMNS {
            return Err(self.refuse(format!(
                "{}: a value in column {}, more than {MAX_COLUMNS} columns from the first; a sheet spans at most {MAX_COLUMNS} columns",
                Budget::place(sheet, row),
                column_letter(width - 1)
            )));
        }
        self.cells += width;
        if self.cells > MAX_CELLS {
            return Err(self.refuse(format!(
                "{}: the rows so far span more than {MAX_CELLS} cells; a sheet file spans at most {MAX_CELLS}",
                Budget::place(sheet, row)
            )));
        }
        Ok(())
    }

    /// A cell's text (column `col`, 0-based in the sheet).
    fn text(
        &mut self,
        sheet: Option<&str>,
        row: usize,
        col: usize,
        text: &str,
    ) -> Result<(), SheetError> {
        if text.len() > MAX_CELL_CHARS && text.chars().nth(MAX_CELL_CHARS).is_some() {
            return Err(self.refuse(format!(
                "{}, column {}: a cell of {} characters; a cell holds at most {MAX_CELL_CHARS}",
                Budget::place(sheet, row),
                column_letter(col),
                text.chars().count()
            )));
        }
        self.text += text.len();
        if self.text > MAX_TEXT {
            return Err(self.refuse(format!(
                "{}: the cells so far hold more than {} of text; a sheet file holds at most that",
                Budget::place(sheet, row),
                crate::safe_io::size_text(MAX_TEXT as u64)
            )));
        }
        Ok(())
    }
}

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
    let mut budget = Budget::new(file);
    let mut rec = csv::StringRecord::new();
    let mut i = 0;
    loop {
        let more = r
            .read_record(&mut rec)
            .map_err(|e| SheetError::Unreadable {
                file: file.to_string(),
                message: format!("not a CSV file: {e}"),
            })?;
        if !more {
            break;
        }
        let row = i + 1;
        // The row's width: up to its last cell with a value (trailing commas are nothing).
        let width = (0..rec.len())
            .rev()
            .find(|&c| !rec[c].is_empty())
            .map_or(0, |w| w + 1);
        budget.span(None, row, width)?;
        for (c, cell) in rec.iter().take(width).enumerate() {
            budget.text(None, row, c, cell)?;
        }
        let cells = rec.iter().take(width).map(str::to_string);
        if i == 0 {
            t.header = cells.collect();
        } else {
            budget.row(None, row)?;
            t.rows.push(
                cells
                    .map(|s| (!s.is_empty()).then_some(Cell::Text(s)))
                    .collect(),
            );
        }
        i += 1;
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
        // Which columns hold a value, and one card of each game and kind the sheet has: an
        // empty column must still name a key one of those formats has.
        let mut filled = vec![false; width];
        let mut kinds: Vec<Card> = Vec::new();
        let errors_before = errors.len();
        for (i, cells) in t.rows.iter().enumerate() {
            let mut cells = cells.clone();
            cells.resize(width, None);
            for (f, c) in filled.iter_mut().zip(&cells) {
                *f |= c.is_some();
            }
            let place = Place {
                row: t.header_row + 1 + i,
                ..place.clone()
            };
            match rows::card_from_row(&cols, &cells, &names, &place) {
                Ok(Some(rc)) => {
                    if !kinds
                        .iter()
                        .any(|k| k.game() == rc.card.game() && k.kind() == rc.card.kind())
                    {
                        kinds.push(rc.card.clone());
                    }
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
        if errors.len() == errors_before && !kinds.is_empty() {
            for (i, col) in cols.iter().enumerate() {
                let Column::Key(p) = col else { continue };
                if filled[i] {
                    continue;
                }
                let refused: Vec<String> = kinds
                    .iter()
                    .filter_map(|k| rows::column_fits(k, p).err())
                    .collect();
                if refused.len() == kinds.len() {
                    errors.push(place.error(
                        Some((i, &names[i])),
                        p.last_key().map(str::to_string),
                        format!(
                            "an empty column naming a key no card of the sheet has: {}",
                            refused[0]
                        ),
                    ));
                }
            }
        }
    }
    if !errors.is_empty() {
        return Err(SheetError::Invalid(errors));
    }
    Ok(out)
}

/// Reads a CSV or XLSX file of cards, all or nothing. The file must be a regular file of at
/// most [`crate::safe_io::MAX_SHEET_FILE`] (a FIFO or a device is refused before it is
/// opened), and the sheet within the limits above ([`MAX_ROWS`], [`MAX_COLUMNS`],
/// [`MAX_CELLS`], [`MAX_CELL_CHARS`], [`MAX_TEXT`]; a workbook also within `xlsx`'s).
pub fn read(path: &Path) -> Result<Vec<RowCard>, SheetError> {
    let format = Format::of(path)?;
    let file = path.display().to_string();
    let bytes = crate::safe_io::read_bytes(path, crate::safe_io::MAX_SHEET_FILE, "sheet files")?;
    let tables = read_tables(&bytes, format, &file)?;
    cards_from_tables(&tables, &file)
}
