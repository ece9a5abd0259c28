//! Why a sheet was not read or written: every problem names the file, the sheet (of a
//! workbook), the row and the column (letter and header) and, when known, the card key.

use std::fmt;

/// One problem in one place of a sheet.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CellError {
    pub file: String,
    /// The worksheet's name (`None` for a CSV file, which is one sheet).
    pub sheet: Option<String>,
    /// 1-based row, as the spreadsheet program shows it (the header is row 1).
    pub row: usize,
    /// The column's letter and its header, when the problem is in one column.
    pub column: Option<(String, String)>,
    /// The card key involved (the last key of the column's path, or the one the card
    /// format complains about).
    pub key: Option<String>,
    pub message: String,
}

impl fmt::Display for CellError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: ", self.file)?;
        if let Some(s) = &self.sheet {
            write!(f, "sheet `{s}`, ")?;
        }
        write!(f, "row {}", self.row)?;
        if let Some((letter, header)) = &self.column {
            write!(f, ", column {letter} ({header})")?;
        }
        f.write_str(": ")?;
        if let Some(k) = &self.key {
            write!(f, "key `{k}`: ")?;
        }
        f.write_str(&self.message)
    }
}

/// Why a sheet could not be imported or exported.
#[derive(Debug, thiserror::Error)]
pub enum SheetError {
    /// Bad input: every problem found, nothing was imported.
    #[error("{}", list(.0))]
    Invalid(Vec<CellError>),
    /// The file is not a readable CSV or XLSX workbook.
    #[error("{file}: {message}")]
    Unreadable { file: String, message: String },
    /// The file is not a regular file, or larger than a sheet may be.
    #[error(transparent)]
    Input(#[from] crate::safe_io::InputError),
    /// The sheet is over one of its limits (`docs/limits.md`): refused before its rows are
    /// read as cards.
    #[error("{file}: {message}")]
    TooLarge { file: String, message: String },
    /// The file name does not say which format to use.
    #[error("{0}: a sheet file ends in .csv or .xlsx")]
    UnknownFormat(String),
    /// A sheet file could not be written.
    #[error("cannot write {file}: {message}")]
    Write { file: String, message: String },
    #[error("nothing to export: the selection is empty")]
    Empty,
}

fn list(problems: &[CellError]) -> String {
    match problems {
        [one] => format!("{one}; nothing was imported"),
        many => {
            let mut s = format!("{} problems; nothing was imported:", many.len());
            for p in many.iter().take(50) {
                s.push_str("\n  ");
                s.push_str(&p.to_string());
            }
            if many.len() > 50 {
                s.push_str(&format!("\n  ... and {} more", many.len() - 50));
            }
            s
        }
    }
}
