//! The desktop app's storage in the catalogue: saved documents (parties, characters,
//! setups, squads as their TOML files), the app's last state and drafts, and the undo
//! history. The app holds no SQL: it calls the `Catalogue` methods below.
//!
//! Tables come from `migrations/0010_app_state.sql`.

use rusqlite::{Connection, OptionalExtension, params};

use super::{Catalogue, Result};

/// The kinds of document the app builds and saves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum DocKind {
    Party,
    Character,
    Setup,
    Squad,
}

impl DocKind {
    pub const ALL: [DocKind; 4] = [
        DocKind::Party,
        DocKind::Character,
        DocKind::Setup,
        DocKind::Squad,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            DocKind::Party => "party",
            DocKind::Character => "character",
            DocKind::Setup => "setup",
            DocKind::Squad => "squad",
        }
    }

    /// The file name ending of this kind of document (`.party.toml`...).
    pub fn extension(self) -> &'static str {
        match self {
            DocKind::Party => ".party.toml",
            DocKind::Character => ".character.toml",
            DocKind::Setup => ".setup.toml",
            DocKind::Squad => ".squad.toml",
        }
    }
}

/// A document saved in the catalogue.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SavedDoc {
    pub kind: DocKind,
    pub name: String,
    pub body: String,
}

/// Saves (or replaces) the document `name` of `kind`.
pub(crate) fn save_doc(conn: &Connection, kind: DocKind, name: &str, body: &str) -> Result<()> {
    conn.execute(
        "INSERT INTO saved_doc(kind, name, body) VALUES (?1, ?2, ?3)
         ON CONFLICT(kind, name) DO UPDATE SET body = excluded.body, saved = strftime('%s', 'now')",
        params![kind.as_str(), name, body],
    )?;
    Ok(())
}

/// The saved document `name` of `kind`, if any.
pub(crate) fn load_doc(conn: &Connection, kind: DocKind, name: &str) -> Result<Option<String>> {
    Ok(conn
        .query_row(
            "SELECT body FROM saved_doc WHERE kind = ?1 AND name = ?2",
            params![kind.as_str(), name],
            |r| r.get(0),
        )
        .optional()?)
}

/// The names of the saved documents of `kind`, in name order.
pub(crate) fn list_docs(conn: &Connection, kind: DocKind) -> Result<Vec<String>> {
    let mut st = conn.prepare_cached(
        "SELECT name FROM saved_doc WHERE kind = ?1 ORDER BY name COLLATE NOCASE",
    )?;
    let rows = st.query_map([kind.as_str()], |r| r.get::<_, String>(0))?;
    Ok(rows.collect::<rusqlite::Result<Vec<_>>>()?)
}

/// Deletes the saved document `name` of `kind`; true when there was one.
pub(crate) fn delete_doc(conn: &Connection, kind: DocKind, name: &str) -> Result<bool> {
    Ok(conn.execute(
        "DELETE FROM saved_doc WHERE kind = ?1 AND name = ?2",
        params![kind.as_str(), name],
    )? > 0)
}

/// A value of the app's state (`None` when never set).
pub(crate) fn state(conn: &Connection, key: &str) -> Result<Option<String>> {
    Ok(conn
        .query_row("SELECT value FROM app_state WHERE key = ?1", [key], |r| {
            r.get(0)
        })
        .optional()?)
}

/// Sets a value of the app's state.
pub(crate) fn set_state(conn: &Connection, key: &str, value: &str) -> Result<()> {
    conn.prepare_cached(
        "INSERT INTO app_state(key, value) VALUES (?1, ?2) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
    )?
    .execute(params![key, value])?;
    Ok(())
}

/// One command of the undo history.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HistoryRow {
    pub seq: i64,
    /// The command as the app wrote it (JSON).
    pub command: String,
    /// True when applied (on the undo stack), false when undone (on the redo stack).
    pub done: bool,
}

/// How many commands the history keeps; older ones are forgotten.
pub const HISTORY_LIMIT: i64 = 1000;

/// Records a new command: forgets the undone ones (the redo stack) and the oldest beyond
/// [`HISTORY_LIMIT`], in one transaction. Returns the command's sequence number.
pub(crate) fn history_push(conn: &Connection, command: &str) -> Result<i64> {
    let tx = conn.unchecked_transaction()?;
    tx.execute("DELETE FROM undo_history WHERE done = 0", [])?;
    tx.execute(
        "INSERT INTO undo_history(command, done) VALUES (?1, 1)",
        [command],
    )?;
    let seq = tx.last_insert_rowid();
    tx.execute(
        "DELETE FROM undo_history WHERE seq <= ?1",
        [seq - HISTORY_LIMIT],
    )?;
    tx.commit()?;
    Ok(seq)
}

/// Replaces the text of the last applied command (an edit merged into the one before).
pub(crate) fn history_replace(conn: &Connection, seq: i64, command: &str) -> Result<()> {
    conn.execute(
        "UPDATE undo_history SET command = ?2 WHERE seq = ?1",
        params![seq, command],
    )?;
    Ok(())
}

/// Marks a command applied (redone) or undone.
pub(crate) fn history_set_done(conn: &Connection, seq: i64, done: bool) -> Result<()> {
    conn.execute(
        "UPDATE undo_history SET done = ?2 WHERE seq = ?1",
        params![seq, done as i64],
    )?;
    Ok(())
}

/// The whole history, oldest first.
pub(crate) fn history(conn: &Connection) -> Result<Vec<HistoryRow>> {
    let mut st = conn.prepare("SELECT seq, command, done FROM undo_history ORDER BY seq")?;
    let rows = st.query_map([], |r| {
        Ok(HistoryRow {
            seq: r.get(0)?,
            command: r.get(1)?,
            done: r.get::<_, i64>(2)? != 0,
        })
    })?;
    Ok(rows.collect::<rusqlite::Result<Vec<_>>>()?)
}

/// Forgets the whole history.
pub(crate) fn history_clear(conn: &Connection) -> Result<()> {
    conn.execute("DELETE FROM undo_history", [])?;
    Ok(())
}

/// The app's storage, through the catalogue (the app never holds a connection).
impl Catalogue {
    /// Saves (or replaces) the document `name` of `kind`.
    pub fn save_doc(&self, kind: DocKind, name: &str, body: &str) -> Result<()> {
        save_doc(&self.conn, kind, name, body)
    }
    /// The saved document `name` of `kind`, if any.
    pub fn load_doc(&self, kind: DocKind, name: &str) -> Result<Option<String>> {
        load_doc(&self.conn, kind, name)
    }
    /// The names of the saved documents of `kind`.
    pub fn list_docs(&self, kind: DocKind) -> Result<Vec<String>> {
        list_docs(&self.conn, kind)
    }
    /// Deletes a saved document; whether there was one.
    pub fn delete_doc(&self, kind: DocKind, name: &str) -> Result<bool> {
        delete_doc(&self.conn, kind, name)
    }
    /// A value of the app's state (`None` if never set).
    pub fn state(&self, key: &str) -> Result<Option<String>> {
        state(&self.conn, key)
    }
    /// Sets a value of the app's state.
    pub fn set_state(&self, key: &str, value: &str) -> Result<()> {
        set_state(&self.conn, key, value)
    }
    /// Records a new undoable command; its sequence number.
    pub fn history_push(&self, command: &str) -> Result<i64> {
        history_push(&self.conn, command)
    }
    /// Replaces the text of the command `seq`.
    pub fn history_replace(&self, seq: i64, command: &str) -> Result<()> {
        history_replace(&self.conn, seq, command)
    }
    /// Marks the command `seq` applied or undone.
    pub fn history_set_done(&self, seq: i64, done: bool) -> Result<()> {
        history_set_done(&self.conn, seq, done)
    }
    /// The whole undo history, oldest first.
    pub fn history(&self) -> Result<Vec<HistoryRow>> {
        history(&self.conn)
    }
    /// Forgets the whole undo history.
    pub fn history_clear(&self) -> Result<()> {
        history_clear(&self.conn)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalogue::Catalogue;

    fn conn() -> Catalogue {
        Catalogue::open_empty_in_memory().unwrap()
    }

    #[test]
    fn saved_documents_round_trip_and_list_by_kind() {
        let cat = conn();
        let c = cat.conn();
        save_doc(c, DocKind::Party, "Raiders", "name = \"Raiders\"").unwrap();
        save_doc(c, DocKind::Party, "alpha", "a").unwrap();
        save_doc(c, DocKind::Squad, "Scouts", "s").unwrap();
        assert_eq!(
            list_docs(c, DocKind::Party).unwrap(),
            vec!["alpha", "Raiders"]
        );
        save_doc(c, DocKind::Party, "alpha", "b").unwrap();
        assert_eq!(
            load_doc(c, DocKind::Party, "alpha").unwrap().as_deref(),
            Some("b")
        );
        assert_eq!(load_doc(c, DocKind::Squad, "alpha").unwrap(), None);
        assert!(delete_doc(c, DocKind::Party, "alpha").unwrap());
        assert!(!delete_doc(c, DocKind::Party, "alpha").unwrap());
    }

    #[test]
    fn state_values_are_replaced() {
        let cat = conn();
        assert_eq!(state(cat.conn(), "theme").unwrap(), None);
        set_state(cat.conn(), "theme", "dark").unwrap();
        set_state(cat.conn(), "theme", "light").unwrap();
        assert_eq!(
            state(cat.conn(), "theme").unwrap().as_deref(),
            Some("light")
        );
    }

    #[test]
    fn a_new_command_forgets_the_redo_stack() {
        let cat = conn();
        let c = cat.conn();
        let a = history_push(c, "a").unwrap();
        let b = history_push(c, "b").unwrap();
        history_set_done(c, b, false).unwrap();
        let rows = history(c).unwrap();
        assert_eq!(rows.len(), 2);
        assert!(rows[0].done && !rows[1].done);
        history_push(c, "c").unwrap();
        let rows = history(c).unwrap();
        assert_eq!(
            rows.iter().map(|r| r.command.as_str()).collect::<Vec<_>>(),
            vec!["a", "c"]
        );
        assert_eq!(rows[0].seq, a);
        history_replace(c, rows[1].seq, "c2").unwrap();
        assert_eq!(history(c).unwrap()[1].command, "c2");
    }
}
