//! XLSX workbooks: written with `rust_xlsxwriter` (a bold, frozen header row; numbers and
//! booleans as typed cells, text as text), read with `calamine`.

use std::io::Cursor;

use calamine::{Data, Reader, Xlsx};
use rust_xlsxwriter::{Format, Workbook};

use super::{Cell, SheetError, Table};

/// The largest integer a spreadsheet number (an f64) holds exactly: 2^53.
const EXACT: u64 = 1 << 53;

/// The workbook of `tables`, one worksheet each.
pub fn write(tables: &[Table]) -> Result<Vec<u8>, SheetError> {
    let err = |e: rust_xlsxwriter::XlsxError| SheetError::Write {
        file: "workbook".into(),
        message: e.to_string(),
    };
    let mut wb = Workbook::new();
    let bold = Format::new().set_bold();
    for t in tables {
        let ws = wb.add_worksheet();
        if let Some(n) = &t.name {
            ws.set_name(sheet_name(n)).map_err(err)?;
        }
        for (c, h) in t.header.iter().enumerate() {
            let col = u16::try_from(c).map_err(|_| SheetError::Write {
                file: "workbook".into(),
                message: "more than 65,535 columns".into(),
            })?;
            ws.write_string_with_format(0, col, h, &bold).map_err(err)?;
            ws.set_column_width(col, (h.len() as f64 + 2.0).clamp(8.0, 40.0))
                .map_err(err)?;
        }
        ws.set_freeze_panes(1, 0).map_err(err)?;
        for (r, row) in t.rows.iter().enumerate() {
            let r = u32::try_from(r + 1).map_err(|_| SheetError::Write {
                file: "workbook".into(),
                message: "too many rows".into(),
            })?;
            for (c, cell) in row.iter().enumerate() {
                let c = c as u16;
                match cell {
                    None => {}
                    Some(Cell::Text(s)) => {
                        ws.write_string(r, c, s).map_err(err)?;
                    }
                    Some(Cell::Int(n)) if n.unsigned_abs() <= EXACT => {
                        ws.write_number(r, c, *n as f64).map_err(err)?;
                    }
                    // Past 2^53 a spreadsheet number is not exact: keep the digits as text.
                    Some(Cell::Int(n)) => {
                        ws.write_string(r, c, n.to_string()).map_err(err)?;
                    }
                    Some(Cell::Float(f)) => {
                        ws.write_number(r, c, *f).map_err(err)?;
                    }
                    Some(Cell::Bool(b)) => {
                        ws.write_boolean(r, c, *b).map_err(err)?;
                    }
                }
            }
        }
    }
    wb.save_to_buffer().map_err(err)
}

/// A worksheet name Excel accepts: at most 31 characters, none of `[]:*?/\`.
fn sheet_name(n: &str) -> String {
    n.chars()
        .map(|c| if "[]:*?/\\".contains(c) { '-' } else { c })
        .take(31)
        .collect()
}

/// Every non-empty worksheet of the workbook in `bytes`.
pub fn read(bytes: &[u8], file: &str) -> Result<Vec<Table>, SheetError> {
    let unreadable = |m: String| SheetError::Unreadable {
        file: file.to_string(),
        message: m,
    };
    let mut wb: Xlsx<_> = Xlsx::new(Cursor::new(bytes))
        .map_err(|e| unreadable(format!("not an XLSX workbook: {e}")))?;
    let mut out = Vec::new();
    for name in wb.sheet_names() {
        let range = wb
            .worksheet_range(&name)
            .map_err(|e| unreadable(format!("sheet `{name}`: {e}")))?;
        let Some((r0, c0)) = range.start() else {
            continue;
        };
        let mut rows = range.rows();
        let Some(head) = rows.next() else { continue };
        let header = head
            .iter()
            .map(|d| cell(d).map(|c| c.to_text()).unwrap_or_default())
            .collect();
        let rows = rows.map(|r| r.iter().map(cell).collect()).collect();
        out.push(Table {
            name: Some(name),
            header,
            rows,
            header_row: r0 as usize + 1,
            first_column: c0 as usize,
        });
    }
    Ok(out)
}

fn cell(d: &Data) -> Option<Cell> {
    match d {
        Data::Empty => None,
        Data::String(s) if s.is_empty() => None,
        Data::String(s) => Some(Cell::Text(s.clone())),
        Data::Int(n) => Some(Cell::Int(*n)),
        Data::Float(f) if f.fract() == 0.0 && f.abs() <= EXACT as f64 => Some(Cell::Int(*f as i64)),
        Data::Float(f) => Some(Cell::Float(*f)),
        Data::Bool(b) => Some(Cell::Bool(*b)),
        other => Some(Cell::Text(other.to_string())),
    }
}
