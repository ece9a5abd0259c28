//! The search query language (`docs/search.md`): a lexer and parser build a `Query` (an
//! expression tree with spans), which compiles to one SQL statement over the catalogue
//! (`card_field` set tests, FTS5 for free text).
//!
//! ```no_run
//! # fn demo(conn: &rusqlite::Connection) -> Result<(), deckwright::search::SearchError> {
//! let hits = deckwright::search::search(conn, "faction:legion cost<=3 order:-health", Some(50))?;
//! # Ok(()) }
//! ```

mod ast;
mod compile;
mod error;
mod fields;
pub(crate) mod index;
mod lexer;
mod parser;

use rusqlite::Connection;
use serde::Serialize;

pub use ast::{Expr, Field, Filter, Op, OrderKey, Query, Span, Term, TermKind, Value};
pub use compile::{Compiled, KeyType, Source, compile, needs_owned, owned_field_counts};
pub use error::{SearchError, SyntaxError, UnknownField};
pub use fields::known_fields;
pub use parser::{MAX_DEPTH, MAX_TERMS};

/// One card found.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Hit {
    pub id: String,
    pub game: String,
    pub kind: String,
    pub name: String,
    /// Owned quantity (0 when the card is not in the collection).
    pub owned: i64,
}

/// Parses a query. Never panics; a bad query gives the column at fault.
pub fn parse(text: &str) -> Result<Query, SyntaxError> {
    parser::parse(text)
}

/// Runs a parsed query: the matching cards in the query's order (default: by name), at most
/// `limit` of them. A field that no card has is an error listing the known fields.
pub fn run(
    conn: &Connection,
    query: &Query,
    limit: Option<usize>,
) -> Result<Vec<Hit>, SearchError> {
    run_with(conn, query, limit, Windows::default())
}

/// How a limited search in the default order sizes its windows of cards by name. The
/// result never depends on it, only the time taken: `run` uses `Windows::default()`, tests
/// use small windows to exercise every path on a small catalogue.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Windows {
    /// The first window reads this many cards per hit wanted...
    pub cards_per_hit: usize,
    /// ...and at least this many (for 50 hits by default: 1,000 cards).
    pub min: usize,
    /// The second window is at most this many times the first.
    pub max_growth: usize,
}

impl Default for Windows {
    fn default() -> Self {
        Windows {
            cards_per_hit: 20,
            min: 1_000,
            max_growth: 5,
        }
    }
}

impl Windows {
    /// The first window for `wanted` hits.
    fn first(self, wanted: usize) -> usize {
        wanted.saturating_mul(self.cards_per_hit).max(self.min)
    }

    /// The second window after `found` hits of the `wanted` in the first `window` cards:
    /// twice the cards the hits seen so far suggest, if that is at most `max_growth`
    /// windows.
    fn second(self, window: usize, found: usize, wanted: usize) -> Option<usize> {
        if found == 0 {
            return None;
        }
        let needed = window
            .saturating_mul(wanted)
            .div_ceil(found)
            .saturating_mul(2);
        (needed <= window.saturating_mul(self.max_growth)).then_some(needed)
    }
}

/// `run` with the given window sizes.
pub fn run_with(
    conn: &Connection,
    query: &Query,
    limit: Option<usize>,
    windows: Windows,
) -> Result<Vec<Hit>, SearchError> {
    check_fields(conn, query)?;
    let mut types = Vec::new();
    for key in &query.order {
        if let Field::Key(k) = &key.field {
            types.push((k.clone(), fields::key_type(conn, k)?));
        }
    }
    let key_type = |k: &str| {
        types
            .iter()
            .find(|(n, _)| n == k)
            .map_or(KeyType::Text, |(_, t)| *t)
    };
    if let Some(n) = limit.filter(|&n| query.order.is_empty() && n > 0)
        && !few_owned_candidates(conn, query, windows.first(n))?
    {
        // The first hits by name of a broad query are among the first cards by name: read
        // a window of them; if it holds too few hits, a second window sized from how many
        // it held, unless the hits are so sparse that a search of every card (driven by
        // the most selective index) is cheaper. When every hit is an owned card, the
        // windows hold only owned cards that pass the query's `owned` tests.
        let window = windows.first(n);
        let owned_only = needs_owned(query);
        let first_by_name = |window: usize| {
            let source = if owned_only {
                Source::FirstOwnedByName(window)
            } else {
                Source::FirstByName(window)
            };
            fetch(conn, &compile(query, &key_type, source, limit))
        };
        let hits = first_by_name(window)?;
        if hits.len() >= n {
            return Ok(hits);
        }
        if let Some(next) = windows.second(window, hits.len(), n) {
            let hits = first_by_name(next)?;
            if hits.len() >= n {
                return Ok(hits);
            }
        }
    }
    fetch(conn, &compile(query, &key_type, Source::All, limit))
}

/// Does `query` need owned cards next to a card field with few entries (at most
/// `OWNED_SET_PER_WINDOW` first windows)? Then a search of every card reads less than the
/// first window would (`compile::owned_field_counts`).
fn few_owned_candidates(
    conn: &Connection,
    query: &Query,
    window: usize,
) -> Result<bool, SearchError> {
    let cap = window.saturating_mul(OWNED_SET_PER_WINDOW);
    let Some(counts) = owned_field_counts(query, cap.saturating_add(1)) else {
        return Ok(false);
    };
    for c in counts {
        let mut st = conn.prepare_cached(&c.sql)?;
        let count: i64 = st.query_row(rusqlite::params_from_iter(c.params.iter()), |r| r.get(0))?;
        if usize::try_from(count).is_ok_and(|count| count <= cap) {
            return Ok(true);
        }
    }
    Ok(false)
}

/// An owned-and-field query goes straight to a search of every card when the field has at
/// most this many first windows of entries: each costs an index entry and an integer probe,
/// about a third of testing a card of a window.
const OWNED_SET_PER_WINDOW: usize = 4;

fn fetch(conn: &Connection, compiled: &Compiled) -> Result<Vec<Hit>, SearchError> {
    let mut st = conn.prepare_cached(&compiled.sql)?;
    let rows = st.query_map(rusqlite::params_from_iter(compiled.params.iter()), |r| {
        Ok(Hit {
            id: r.get(0)?,
            game: r.get(1)?,
            kind: r.get(2)?,
            name: r.get(3)?,
            owned: r.get(4)?,
        })
    })?;
    Ok(rows.collect::<Result<Vec<_>, _>>()?)
}

/// Parses and runs `text`.
pub fn search(
    conn: &Connection,
    text: &str,
    limit: Option<usize>,
) -> Result<Vec<Hit>, SearchError> {
    run(conn, &parse(text)?, limit)
}

/// Every card-format field the query names must be a key some card has.
fn check_fields(conn: &Connection, query: &Query) -> Result<(), SearchError> {
    for (field, span) in query.fields() {
        if let Field::Key(k) = field
            && !fields::key_exists(conn, k)?
        {
            let known = fields::known_fields(conn)?;
            let suggestion = fields::closest(k, &known).map(str::to_string);
            return Err(SearchError::UnknownField(UnknownField {
                field: k.clone(),
                column: span.column,
                known,
                suggestion,
            }));
        }
    }
    Ok(())
}

/// The query on one line and a caret under `column` on the next, for error messages.
pub fn point_at(query: &str, column: usize) -> String {
    let line: String = query
        .chars()
        .map(|c| if c == '\n' || c == '\t' { ' ' } else { c })
        .collect();
    format!("  {line}\n  {}^", " ".repeat(column.saturating_sub(1)))
}

#[cfg(test)]
mod tests {
    use super::Windows;

    #[test]
    fn second_window_follows_the_density_of_hits() {
        let w = Windows::default();
        assert_eq!(w.first(50), 1_000);
        // 27 of 50 hits in 1,000 cards: about 1,850 cards hold 50, read twice that
        assert_eq!(w.second(1_000, 27, 50), Some(3_704));
        assert_eq!(w.second(1_000, 49, 50), Some(2_042));
        // too sparse (or none): search every card instead
        assert_eq!(w.second(1_000, 6, 50), None);
        assert_eq!(w.second(1_000, 0, 50), None);
    }
}
