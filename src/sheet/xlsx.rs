//! XLSX workbooks: written with `rust_xlsxwriter` (a bold, frozen header row; numbers and
//! booleans as typed cells, text as text), read with `calamine`.

use std::io::{Cursor, Read};

use calamine::{Data, DataRef, Reader, Xlsx, XlsxError};
use rust_xlsxwriter::{Format, Workbook};

use super::{Budget, Cell, MAX_CELLS, MAX_ROWS, SheetError, Table};
use crate::safe_io::{excerpt, size_text};

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

/// The most files (parts) a workbook's ZIP package holds.
pub const MAX_PARTS: usize = 10_000;
/// The most bytes one part of a workbook unpacks to (a worksheet's XML, its shared strings).
pub const MAX_PART: u64 = 64 << 20;
/// The most bytes all the parts of a workbook unpack to together.
pub const MAX_UNPACKED: u64 = 256 << 20;

/// Every non-empty worksheet of the workbook in `bytes`. The package is checked first
/// ([`check_package`]): calamine allocates from what the file declares. Cells are then read
/// one by one, each counted against the sheet's limits before it is kept.
pub fn read(bytes: &[u8], file: &str) -> Result<Vec<Table>, SheetError> {
    let unreadable = |m: String| SheetError::Unreadable {
        file: file.to_string(),
        message: m,
    };
    check_package(bytes, file)?;
    let mut wb: Xlsx<_> = Xlsx::new(Cursor::new(bytes))
        .map_err(|e| unreadable(format!("not an XLSX workbook: {e}")))?;
    let mut budget = Budget::new(file);
    let mut out = Vec::new();
    for name in wb.sheet_names() {
        let mut reader = match wb.worksheet_cells_reader(&name) {
            Ok(r) => r,
            // A chart sheet or a dialog sheet holds no cells.
            Err(XlsxError::NotAWorksheet(_)) => continue,
            Err(e) => return Err(unreadable(format!("sheet `{}`: {e}", excerpt(&name, 40)))),
        };
        let sheet = Some(name.as_str());
        // (row, column, value) of every cell with a value, in the order the file has them.
        let mut cells: Vec<(u32, u32, Cell)> = Vec::new();
        let (mut r0, mut c0) = (u32::MAX, u32::MAX);
        while let Some(c) = reader
            .next_cell()
            .map_err(|e| unreadable(format!("sheet `{}`: {e}", excerpt(&name, 40))))?
        {
            let (r, col) = c.get_position();
            let row = r as usize + 1;
            let value = match c.get_value() {
                DataRef::Empty => continue,
                DataRef::SharedString(s) => {
                    budget.text(sheet, row, col as usize, s)?;
                    (!s.is_empty()).then(|| Cell::Text(s.to_string()))
                }
                DataRef::String(s) => {
                    budget.text(sheet, row, col as usize, s)?;
                    (!s.is_empty()).then(|| Cell::Text(s.clone()))
                }
                other => cell(&Data::from(other.clone())),
            };
            let Some(value) = value else { continue };
            if cells.len() >= MAX_CELLS {
                return Err(budget.refuse(format!(
                    "sheet `{}`: more than {MAX_CELLS} cells with values; a sheet file spans at most {MAX_CELLS} cells",
                    excerpt(&name, 40)
                )));
            }
            (r0, c0) = (r0.min(r), c0.min(col));
            cells.push((r, col, value));
        }
        if cells.is_empty() {
            continue;
        }
        cells.sort_by_key(|&(r, c, _)| (r, c));
        // A cell far from the first one is refused before the sheet is laid out (a cell at
        // XFD1048576 would otherwise make a million rows, or sixteen thousand columns).
        let (last, _, _) = cells[cells.len() - 1];
        if (last - r0) as usize > MAX_ROWS {
            return Err(budget.refuse(format!(
                "sheet `{}`: a value in row {}, more than {MAX_ROWS} rows below the first; a sheet holds at most {MAX_ROWS} card rows",
                excerpt(&name, 40),
                last as u64 + 1
            )));
        }
        // Each row's span, from the sheet's first column to its last cell.
        for w in cells.windows(2) {
            if w[0].0 != w[1].0 {
                budget.span(sheet, w[0].0 as usize + 1, (w[0].1 - c0) as usize + 1)?;
            }
        }
        let (lr, lc, _) = cells[cells.len() - 1];
        budget.span(sheet, lr as usize + 1, (lc - c0) as usize + 1)?;
        let mut grid: Vec<Vec<Option<Cell>>> = vec![Vec::new(); (last - r0) as usize + 1];
        for (r, c, v) in cells {
            let row = &mut grid[(r - r0) as usize];
            let at = (c - c0) as usize;
            if row.len() <= at {
                row.resize(at + 1, None);
            }
            row[at] = Some(v);
        }
        for i in 1..grid.len() {
            budget.row(sheet, r0 as usize + 1 + i)?;
        }
        let mut grid = grid.into_iter();
        let header = grid
            .next()
            .unwrap_or_default()
            .iter()
            .map(|d| d.as_ref().map(Cell::to_text).unwrap_or_default())
            .collect();
        out.push(Table {
            name: Some(name.clone()),
            header,
            rows: grid.collect(),
            header_row: r0 as usize + 1,
            first_column: c0 as usize,
        });
    }
    Ok(out)
}

/// Checks a workbook's ZIP package before calamine reads it: at most [`MAX_PARTS`] parts,
/// each unpacking to at most [`MAX_PART`] bytes and all of them to [`MAX_UNPACKED`]
/// (counted by unpacking, not from the sizes the file declares), and a shared-string table
/// that declares no more strings than a sheet may have cells (calamine reserves room for
/// the count it declares).
pub fn check_package(bytes: &[u8], file: &str) -> Result<(), SheetError> {
    let unreadable = |m: String| SheetError::Unreadable {
        file: file.to_string(),
        message: m,
    };
    let refuse = |m: String| SheetError::TooLarge {
        file: file.to_string(),
        message: m,
    };
    let mut zip = zip::ZipArchive::new(Cursor::new(bytes))
        .map_err(|e| unreadable(format!("not an XLSX workbook: {e}")))?;
    if zip.len() > MAX_PARTS {
        return Err(refuse(format!(
            "a workbook of {} parts; a workbook holds at most {MAX_PARTS}",
            zip.len()
        )));
    }
    let mut total = 0u64;
    for i in 0..zip.len() {
        let mut part = zip
            .by_index(i)
            .map_err(|e| unreadable(format!("not an XLSX workbook: {e}")))?;
        let name = part
            .name()
            .map(|n| excerpt(&n, 80))
            .unwrap_or_else(|_| format!("part {}", i + 1));
        let shared = name.to_ascii_lowercase().ends_with("sharedstrings.xml");
        let too_big = || {
            refuse(format!(
                "the workbook's part `{name}` unpacks to more than {}; a part may be at most that (a compression bomb?)",
                size_text(MAX_PART)
            ))
        };
        if part.size() > MAX_PART {
            return Err(too_big());
        }
        // The shared strings are kept to read their declared count; other parts are only
        // counted.
        let mut kept = Vec::new();
        let mut sink = Counter(0);
        let limited = (&mut part).take(MAX_PART + 1);
        let n = if shared {
            let mut limited = limited;
            limited
                .read_to_end(&mut kept)
                .map(|n| n as u64)
                .map_err(|e| unreadable(format!("part `{name}`: {e}")))?
        } else {
            let mut limited = limited;
            std::io::copy(&mut limited, &mut sink)
                .map_err(|e| unreadable(format!("part `{name}`: {e}")))?
        };
        if n > MAX_PART {
            return Err(too_big());
        }
        total += n;
        if total > MAX_UNPACKED {
            return Err(refuse(format!(
                "the workbook unpacks to more than {}; a workbook may be at most that (a compression bomb?)",
                size_text(MAX_UNPACKED)
            )));
        }
        if shared {
            for attr in ["uniqueCount", "count"] {
                if let Some(n) = declared(&kept, attr)
                    && n > MAX_CELLS as u128
                {
                    return Err(refuse(format!(
                        "the workbook's shared strings declare {attr}=\"{n}\"; a sheet file holds at most {MAX_CELLS} cells"
                    )));
                }
            }
        }
    }
    Ok(())
}

/// Counts the bytes written to it.
struct Counter(u64);

impl std::io::Write for Counter {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0 += buf.len() as u64;
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// The number an attribute of the first `sst` element declares (`<sst uniqueCount="12">`,
/// any namespace prefix), as digits (`None` when there is no such attribute or it is not
/// a number, which calamine then ignores too). Numbers too long for `u128` count as
/// `u128::MAX`.
fn declared(xml: &[u8], attr: &str) -> Option<u128> {
    let mut at = 0;
    // The first start tag whose local name is `sst`.
    let tag = loop {
        let lt = at + xml[at..].iter().position(|&b| b == b'<')?;
        let end = lt + xml[lt..].iter().position(|&b| b == b'>')?;
        let tag = &xml[lt + 1..end];
        at = end + 1;
        let name_end = tag
            .iter()
            .position(|b| b.is_ascii_whitespace() || *b == b'/')
            .unwrap_or(tag.len());
        let name = &tag[..name_end];
        let local = name.rsplit(|&b| b == b':').next().unwrap_or(name);
        if local == b"sst" {
            break &tag[name_end..];
        }
    };
    let mut rest = tag;
    loop {
        let i = rest
            .windows(attr.len())
            .position(|w| w == attr.as_bytes())?;
        let before = if i == 0 { b' ' } else { rest[i - 1] };
        let after = &rest[i + attr.len()..];
        rest = after;
        // A whole attribute name (not `xcount`), then `=` and a quote, spaces allowed.
        if !(before.is_ascii_whitespace() || before == b':') {
            continue;
        }
        let after = trim_start(after);
        let Some(after) = after.strip_prefix(b"=") else {
            continue;
        };
        let after = trim_start(after);
        let (&q, value) = after.split_first()?;
        if q != b'"' && q != b'\'' {
            continue;
        }
        let value = &value[..value.iter().position(|&b| b == q)?];
        if value.is_empty() || !value.iter().all(u8::is_ascii_digit) {
            return None;
        }
        return Some(
            std::str::from_utf8(value)
                .ok()?
                .parse::<u128>()
                .unwrap_or(u128::MAX),
        );
    }
}

fn trim_start(b: &[u8]) -> &[u8] {
    let n = b.iter().take_while(|c| c.is_ascii_whitespace()).count();
    &b[n..]
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

#[cfg(test)]
mod tests {
    use super::declared;

    #[test]
    fn the_shared_strings_declared_count_is_read_as_calamine_reads_it() {
        let n = |xml: &str, attr: &str| declared(xml.as_bytes(), attr);
        assert_eq!(
            n(
                r#"<?xml version="1.0"?><sst uniqueCount="12">"#,
                "uniqueCount"
            ),
            Some(12)
        );
        assert_eq!(n(r#"<x:sst xmlns:x="m" count = '7'>"#, "count"), Some(7));
        // `count` inside another name is not it; the first `sst` element only.
        assert_eq!(n(r#"<sst xcount="5" count="3">"#, "count"), Some(3));
        assert_eq!(n(r#"<sst count="1"><sst count="9">"#, "count"), Some(1));
        // Not digits: calamine ignores it too.
        assert_eq!(n(r#"<sst uniqueCount="&#49;2">"#, "uniqueCount"), None);
        assert_eq!(n(r#"<sst>"#, "uniqueCount"), None);
        assert_eq!(
            n(&format!(r#"<sst count="{}">"#, "9".repeat(60)), "count"),
            Some(u128::MAX)
        );
    }
}
