//! Card rows: writing a card with its fields, reading cards back, meta values.
//!
//! Every statement is prepared once per connection (`prepare_cached`).

use rusqlite::{Connection, OptionalExtension, params};

use super::Result;
use crate::cards::{self, Card, FieldValue, Game};
use crate::search;

/// The `card_field` rows of a card: (key, lower-cased text, number).
pub fn field_rows(card: &Card) -> Vec<(String, Option<String>, Option<f64>)> {
    card.fields()
        .into_iter()
        .map(|(k, v)| match v {
            FieldValue::Text(t) => (k, Some(t.to_lowercase()), None),
            FieldValue::Num(n) => (k, None, Some(n)),
        })
        .collect()
}

/// Everything written for one card, computed without the database (so it can run in
/// parallel before the write transaction).
#[derive(Debug, Clone)]
pub struct CardRow {
    pub id: String,
    pub game: &'static str,
    pub kind: &'static str,
    pub name: String,
    pub body: String,
    pub texts: String,
    pub fields: Vec<(String, Option<String>, Option<f64>)>,
    /// What search tests the card against (`search::index`).
    pub search_words: Option<String>,
    pub search_fields: Option<String>,
}

impl CardRow {
    pub fn new(card: &Card) -> CardRow {
        let name = card.name().to_string();
        let texts = card.texts().join("\n");
        let fields = field_rows(card);
        CardRow {
            id: card.id().to_string(),
            game: card.game().as_str(),
            kind: card.kind(),
            search_words: search::index::words_of(&name, &texts),
            search_fields: search::index::fields_of(&fields),
            name,
            body: card.to_toml(),
            texts,
            fields,
        }
    }
}

/// What an upsert did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Upserted {
    Added,
    Updated,
    Unchanged,
}

/// Inserts the card, or replaces the card with its id (skipped when nothing changed).
pub fn upsert(conn: &Connection, row: &CardRow) -> Result<Upserted> {
    let old: Option<(i64, String, String)> = conn
        .prepare_cached("SELECT rowid, body, game FROM card WHERE id = ?1")?
        .query_row([&row.id], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
        .optional()?;
    let (rowid, what) = match old {
        Some((_, body, game)) if body == row.body && game == row.game => return Ok(Upserted::Unchanged),
        Some((rowid, ..)) => {
            conn.prepare_cached(
                "UPDATE card SET game = ?2, kind = ?3, name = ?4, body = ?5, texts = ?6, search_words = ?7, search_fields = ?8 WHERE rowid = ?1",
            )?
            .execute(params![rowid, row.game, row.kind, row.name, row.body, row.texts, row.search_words, row.search_fields])?;
            conn.prepare_cached("DELETE FROM card_field WHERE card = ?1")?.execute([rowid])?;
            (rowid, Upserted::Updated)
        }
        None => (insert(conn, row)?, Upserted::Added),
    };
    insert_fields(conn, rowid, row)?;
    Ok(what)
}

/// Inserts the card unless its id is taken. Returns whether it was inserted.
pub fn insert_if_absent(conn: &Connection, row: &CardRow) -> Result<bool> {
    let exists = conn
        .prepare_cached("SELECT 1 FROM card WHERE id = ?1")?
        .query_row([&row.id], |_| Ok(()))
        .optional()?
        .is_some();
    if exists {
        return Ok(false);
    }
    let rowid = insert(conn, row)?;
    insert_fields(conn, rowid, row)?;
    Ok(true)
}

fn insert(conn: &Connection, row: &CardRow) -> Result<i64> {
    conn.prepare_cached(
        "INSERT INTO card(id, game, kind, name, body, texts, search_words, search_fields) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
    )?
    .execute(params![row.id, row.game, row.kind, row.name, row.body, row.texts, row.search_words, row.search_fields])?;
    Ok(conn.last_insert_rowid())
}

fn insert_fields(conn: &Connection, rowid: i64, row: &CardRow) -> Result<()> {
    let mut ins = conn.prepare_cached("INSERT INTO card_field(card, key, text, num) VALUES (?1, ?2, ?3, ?4)")?;
    for (k, t, n) in &row.fields {
        ins.execute(params![rowid, k, t, n])?;
    }
    Ok(())
}

fn parse_row(id: &str, body: &str) -> Result<Card> {
    Ok(cards::parse_card(body, &format!("catalogue card {id}"))?)
}

pub fn get(conn: &Connection, id: &str) -> Result<Option<Card>> {
    let body: Option<String> = conn
        .prepare_cached("SELECT body FROM card WHERE id = ?1")?
        .query_row([id], |r| r.get(0))
        .optional()?;
    body.map(|b| parse_row(id, &b)).transpose()
}

pub fn all(conn: &Connection) -> Result<Vec<Card>> {
    let mut st = conn.prepare_cached("SELECT id, body FROM card ORDER BY game, id")?;
    let rows = st.query_map([], |r| Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?)))?;
    let mut out = Vec::new();
    for row in rows {
        let (id, body) = row?;
        out.push(parse_row(&id, &body)?);
    }
    Ok(out)
}

pub fn named(conn: &Connection, game: Game, name: &str) -> Result<Vec<Card>> {
    let mut st = conn.prepare_cached("SELECT id, body FROM card WHERE game = ?1 AND name = ?2 ORDER BY id")?;
    let rows = st.query_map(params![game.as_str(), name], |r| Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?)))?;
    let mut out = Vec::new();
    for row in rows {
        let (id, body) = row?;
        out.push(parse_row(&id, &body)?);
    }
    Ok(out)
}

pub fn meta(conn: &Connection, key: &str) -> Result<Option<String>> {
    Ok(conn
        .prepare_cached("SELECT value FROM meta WHERE key = ?1")?
        .query_row([key], |r| r.get(0))
        .optional()?)
}

pub fn set_meta(conn: &Connection, key: &str, value: &str) -> Result<()> {
    conn.prepare_cached(
        "INSERT INTO meta(key, value) VALUES (?1, ?2) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
    )?
    .execute([key, value])?;
    Ok(())
}

/// Runs `write` (which inserts and updates cards on `conn`, inside a transaction) with the
/// FTS insert trigger lifted: the new rows are indexed in one statement afterwards, several
/// times faster than row by row. The trigger is put back with its own SQL, in the same
/// transaction, so a failure or a kill leaves schema and index as they were.
pub fn with_bulk_fts<T>(conn: &Connection, write: impl FnOnce() -> Result<T>) -> Result<T> {
    let trigger: Option<String> = conn
        .query_row("SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name = 'card_ai'", [], |r| r.get(0))
        .optional()?;
    let Some(trigger) = trigger else { return write() };
    let before: i64 = conn.query_row("SELECT coalesce(max(rowid), 0) FROM card", [], |r| r.get(0))?;
    conn.execute_batch("DROP TRIGGER card_ai")?;
    let out = write()?;
    conn.execute("INSERT INTO card_fts(rowid, name, texts) SELECT rowid, name, texts FROM card WHERE rowid > ?1", [before])?;
    conn.execute_batch(&trigger)?;
    Ok(out)
}
