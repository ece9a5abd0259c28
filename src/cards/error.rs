//! Positioned errors of card files.

use std::fmt;

use super::locate;

/// A card file problem at a place: file, line and column (1-based), and the key involved.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub struct CardError {
    pub file: String,
    pub line: usize,
    pub column: usize,
    pub key: Option<String>,
    pub message: String,
}

impl fmt::Display for CardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}: ", self.file, self.line, self.column)?;
        if let Some(k) = &self.key {
            write!(f, "key `{k}`: ")?;
        }
        f.write_str(&self.message)
    }
}

impl CardError {
    /// An error from the TOML reader (syntax, unknown key, wrong type, value outside its set).
    pub fn from_toml(file: &str, text: &str, e: &toml::de::Error) -> CardError {
        let offset = e.span().map(|s| s.start).unwrap_or(0);
        let (line, column) = locate::line_col(text, offset);
        let message = e.message().trim().to_string();
        let key = locate::unknown_field(&message).or_else(|| locate::key_before(text, offset));
        CardError { file: file.to_string(), line, column, key, message }
    }

    /// An error about the key at `path` (table names then the key), found in `text`.
    pub fn at(file: &str, text: &str, path: &[&str], message: String) -> CardError {
        let (line, column) = locate::find_key(text, path);
        CardError { file: file.to_string(), line, column, key: path.last().map(|k| k.to_string()), message }
    }
}

/// A check that failed on a loaded card: the key path (tables, then key) and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    pub path: Vec<String>,
    pub message: String,
}

impl Problem {
    pub fn at(path: &[&str], message: String) -> Problem {
        Problem { path: path.iter().map(|s| s.to_string()).collect(), message }
    }
    pub fn path_refs(&self) -> Vec<&str> {
        self.path.iter().map(String::as_str).collect()
    }
}
