//! Card rows: writing a card with its fields, reading cards back.

use rusqlite::{Connection, OptionalExtension, params};

use super::Result;
use crate::cards::{self, Card, FieldValue, Game};

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

pub fn upsert(conn: &Connection, card: &Card) -> Result<()> {
    let texts = card.texts().join("\n");
    conn.execute(
        "INSERT INTO card(id, game, kind, name, body, texts) VALUES (?1, ?2, ?3, ?4, ?5, ?6)
         ON CONFLICT(id) DO UPDATE SET game = excluded.game, kind = excluded.kind,
             name = excluded.name, body = excluded.body, texts = excluded.texts",
        params![card.id(), card.game().as_str(), card.kind(), card.name(), card.to_toml(), texts],
    )?;
    let rowid: i64 = conn.query_row("SELECT rowid FROM card WHERE id = ?1", [card.id()], |r| r.get(0))?;
    conn.execute("DELETE FROM card_field WHERE card = ?1", [rowid])?;
    let mut ins = conn.prepare_cached("INSERT INTO card_field(card, key, text, num) VALUES (?1, ?2, ?3, ?4)")?;
    for (k, t, n) in field_rows(card) {
        ins.execute(params![rowid, k, t, n])?;
    }
    Ok(())
}

fn parse_row(id: &str, body: &str) -> Result<Card> {
    Ok(cards::parse_card(body, &format!("catalogue card {id}"))?)
}

pub fn get(conn: &Connection, id: &str) -> Result<Option<Card>> {
    let body: Option<String> =
        conn.query_row("SELECT body FROM card WHERE id = ?1", [id], |r| r.get(0)).optional()?;
    body.map(|b| parse_row(id, &b)).transpose()
}

pub fn all(conn: &Connection) -> Result<Vec<Card>> {
    let mut st = conn.prepare("SELECT id, body FROM card ORDER BY game, id")?;
    let rows = st.query_map([], |r| Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?)))?;
    let mut out = Vec::new();
    for row in rows {
        let (id, body) = row?;
        out.push(parse_row(&id, &body)?);
    }
    Ok(out)
}

pub fn named(conn: &Connection, game: Game, name: &str) -> Result<Vec<Card>> {
    let mut st = conn.prepare("SELECT id, body FROM card WHERE game = ?1 AND name = ?2 ORDER BY id")?;
    let rows = st.query_map(params![game.as_str(), name], |r| Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?)))?;
    let mut out = Vec::new();
    for row in rows {
        let (id, body) = row?;
        out.push(parse_row(&id, &body)?);
    }
    Ok(out)
}
