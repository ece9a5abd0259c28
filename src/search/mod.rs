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
pub use compile::{Compiled, KeyType, Source, compile};
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
    if let Some(n) = limit.filter(|_| query.order.is_empty()) {
        // The first hits by name of a broad query are among the first cards by name: read
        // a small window, then a larger one, then everything.
        for per_hit in WINDOWS_PER_HIT {
            let window = n.saturating_mul(per_hit).max(per_hit * 50);
            if window > MAX_FIRST_BY_NAME {
                break;
            }
            let hits = fetch(
                conn,
                &compile(query, &key_type, Source::FirstByName(window), limit),
            )?;
            if hits.len() >= n {
                return Ok(hits);
            }
        }
    }
    fetch(conn, &compile(query, &key_type, Source::All, limit))
}

/// The windows a limited search reads first by name, in cards per hit wanted (for 50 hits:
/// the first 1,000 cards, then 5,000), at most `MAX_FIRST_BY_NAME`; then it reads them all.
const WINDOWS_PER_HIT: [usize; 2] = [20, 100];
const MAX_FIRST_BY_NAME: usize = 20_000;

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
