//! What can go wrong: a query that does not parse, a field no card has, a database error.

use std::fmt;

/// A query that does not parse. `column` is 1-based, counted in characters.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("query column {column}: {message}")]
pub struct SyntaxError {
    pub column: usize,
    pub message: String,
}

/// A query that parses but cannot run.
#[derive(Debug, thiserror::Error)]
pub enum SearchError {
    #[error(transparent)]
    Syntax(#[from] SyntaxError),
    /// A filter or sort key names a field that no card has (a typo, most likely).
    #[error("{0}")]
    UnknownField(UnknownField),
    #[error("catalogue database error while searching: {0}")]
    Sqlite(#[from] rusqlite::Error),
}

/// A field no card in the catalogue has, with the fields that exist.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownField {
    pub field: String,
    pub column: usize,
    /// Every field a query can name, sorted.
    pub known: Vec<String>,
    /// The known field closest to the one written, if one is close.
    pub suggestion: Option<String>,
}

impl fmt::Display for UnknownField {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "query column {}: no card has a field '{}'",
            self.column, self.field
        )?;
        if let Some(s) = &self.suggestion {
            write!(f, " (did you mean '{s}'?)")?;
        }
        write!(f, "; known fields: {}", self.known.join(", "))
    }
}

impl SearchError {
    /// The 1-based column the error points at, if it points at one.
    pub fn column(&self) -> Option<usize> {
        match self {
            SearchError::Syntax(e) => Some(e.column),
            SearchError::UnknownField(u) => Some(u.column),
            SearchError::Sqlite(_) => None,
        }
    }

    /// Is the query at fault (rather than the catalogue)?
    pub fn is_bad_query(&self) -> bool {
        !matches!(self, SearchError::Sqlite(_))
    }
}
