//! Opening a catalogue file: checks (SQLite? ours? intact? not too new?), connection
//! settings, backup before a migration, migrations, and the first-use fill.

use std::io::Read;
use std::path::Path;
use std::time::{Duration, Instant};

use rusqlite::{Connection, OpenFlags, TransactionBehavior};

use super::{CLASHES_KEY, CatalogueError, Result, backup, migrations, schema_version, store};
use crate::cards::{self, CardFile};
use crate::games::iconoclasm::model::ClashTable;

/// How long a connection waits for another process holding the catalogue.
const BUSY_TIMEOUT: Duration = Duration::from_secs(10);

/// The meta key holding a fingerprint of the bundled cards last added.
const BUNDLED_KEY: &str = "bundled.fingerprint";

/// Tables and indexes a catalogue may hold (anything else in an unversioned file is foreign).
const OUR_OBJECTS: [&str; 4] = ["card", "card_field", "collection", "meta"];

pub fn open_file(path: &Path) -> Result<Connection> {
    let shown = path.display();
    if path.is_dir() {
        return Err(CatalogueError::Damaged(format!(
            "`{shown}` is a folder, not a catalogue file; pass a file path with --db"
        )));
    }
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|e| {
            CatalogueError::Damaged(format!("cannot create the folder of catalogue `{shown}`: {e}"))
        })?;
    }
    let existed = check_header(path)?;
    let flags = OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_CREATE | OpenFlags::SQLITE_OPEN_NO_MUTEX;
    let mut conn = Connection::open_with_flags(path, flags)
        .map_err(|e| CatalogueError::Damaged(format!("cannot open catalogue `{shown}`: {e}")))?;
    conn.busy_timeout(BUSY_TIMEOUT)?;
    let damaged = |e: rusqlite::Error| {
        CatalogueError::Damaged(format!(
            "catalogue `{shown}` cannot be read ({e}); it is damaged or not a deckwright catalogue. \
             Restore a backup (`{}.backup-*`) or move it away to start a new catalogue",
            path.file_name().map(|n| n.to_string_lossy()).unwrap_or_default()
        ))
    };
    if existed {
        quick_check(&conn, path).map_err(|e| match e {
            CatalogueError::Sqlite(e) => damaged(e),
            other => other,
        })?;
    }
    let version = user_version(&conn).map_err(damaged)?;
    check_ours(&conn, path, version)?;
    enable_wal(&conn).map_err(damaged)?;
    conn.pragma_update(None, "synchronous", "NORMAL")?;
    // Big imports touch the field indexes all over: give them room (32 MiB, used on demand).
    conn.pragma_update(None, "cache_size", -32768)?;
    conn.pragma_update(None, "foreign_keys", true)?;
    if existed && version > 0 && version < schema_version() {
        backup::before_migration(&conn, path, version)?;
    }
    migrate(&mut conn)?;
    fill(&mut conn, true)?;
    Ok(conn)
}

pub fn open_memory(with_bundled: bool) -> Result<Connection> {
    let mut conn = Connection::open_in_memory()?;
    conn.pragma_update(None, "foreign_keys", true)?;
    migrate(&mut conn)?;
    fill(&mut conn, with_bundled)?;
    Ok(conn)
}

/// Does the file exist with content, and if so does it start as an SQLite database?
fn check_header(path: &Path) -> Result<bool> {
    let shown = path.display();
    let mut f = match std::fs::File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(false),
        Err(e) => return Err(CatalogueError::Damaged(format!("cannot read catalogue `{shown}`: {e}"))),
    };
    let mut head = [0u8; 16];
    let mut n = 0;
    while n < head.len() {
        match f.read(&mut head[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) => return Err(CatalogueError::Damaged(format!("cannot read catalogue `{shown}`: {e}"))),
        }
    }
    if n == 0 {
        return Ok(false);
    }
    if n < head.len() || &head != b"SQLite format 3\0" {
        return Err(CatalogueError::Damaged(format!(
            "`{shown}` is not a deckwright catalogue (it is not an SQLite database); \
             pass another file with --db or DECKWRIGHT_DB, or move this one away"
        )));
    }
    Ok(true)
}

fn quick_check(conn: &Connection, path: &Path) -> Result<()> {
    let mut st = conn.prepare("PRAGMA quick_check")?;
    let lines: Vec<String> = st.query_map([], |r| r.get::<_, String>(0))?.collect::<Result<_, _>>()?;
    if lines.len() == 1 && lines[0] == "ok" {
        return Ok(());
    }
    let first: Vec<&str> = lines.iter().take(3).map(String::as_str).collect();
    Err(CatalogueError::Damaged(format!(
        "catalogue `{}` is damaged (quick_check: {}). Restore a backup (`{}.backup-*` next to it) \
         or move it away to start a new catalogue",
        path.display(),
        first.join("; "),
        path.file_name().map(|n| n.to_string_lossy()).unwrap_or_default()
    )))
}

/// Switches the file to write-ahead logging (a no-op once it is). While another process
/// holds a new file (two processes creating one catalogue at once), SQLite answers this
/// pragma "database is locked" at once, without waiting in the busy handler: retry for as
/// long as a busy connection would wait.
fn enable_wal(conn: &Connection) -> rusqlite::Result<()> {
    let deadline = Instant::now() + BUSY_TIMEOUT;
    loop {
        match conn.pragma_update_and_check(None, "journal_mode", "WAL", |r| r.get::<_, String>(0)) {
            Ok(_) => return Ok(()),
            Err(rusqlite::Error::SqliteFailure(e, _))
                if e.code == rusqlite::ErrorCode::DatabaseBusy && Instant::now() < deadline =>
            {
                std::thread::sleep(Duration::from_millis(5));
            }
            Err(e) => return Err(e),
        }
    }
}

fn user_version(conn: &Connection) -> rusqlite::Result<i64> {
    conn.query_row("PRAGMA user_version", [], |r| r.get(0))
}

/// Refuses SQLite files that are not catalogues, and catalogues newer than this build.
fn check_ours(conn: &Connection, path: &Path, version: i64) -> Result<()> {
    let shown = path.display();
    if version > schema_version() {
        return Err(CatalogueError::Damaged(format!(
            "catalogue `{shown}` was written by a newer deckwright (schema {version}, this build \
             knows up to {}); update deckwright or pass another --db",
            schema_version()
        )));
    }
    if version == 0 {
        let mut st = conn.prepare(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
        )?;
        let tables: Vec<String> = st.query_map([], |r| r.get(0))?.collect::<Result<_, _>>()?;
        let foreign: Vec<&String> = tables.iter().filter(|t| !OUR_OBJECTS.contains(&t.as_str())).collect();
        let shown_tables: Vec<&String> = if foreign.is_empty() { tables.iter().collect() } else { foreign };
        if !tables.is_empty() {
            return Err(CatalogueError::Damaged(format!(
                "`{shown}` is an SQLite database but not a deckwright catalogue (it has table{} {}); \
                 pass another file with --db or DECKWRIGHT_DB",
                if tables.len() == 1 { "" } else { "s" },
                shown_tables
                    .iter()
                    .take(5)
                    .map(|t| format!("`{t}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            )));
        }
    }
    Ok(())
}

/// Applies pending migrations. Two processes may race to migrate a new file: the loser's
/// transaction fails once the winner's is in, which is fine when the schema is then current.
fn migrate(conn: &mut Connection) -> Result<()> {
    conn.set_transaction_behavior(TransactionBehavior::Immediate);
    let ms = migrations();
    let r = ms.to_latest(conn);
    conn.set_transaction_behavior(TransactionBehavior::Deferred);
    match r {
        Ok(()) => Ok(()),
        Err(e) => {
            if user_version(conn)? == schema_version() {
                Ok(())
            } else {
                Err(e.into())
            }
        }
    }
}

/// First-use fill: the clash table if absent and, if the bundled cards changed since the last
/// fill, every bundled card whose id is not yet in the catalogue (cards already there, maybe
/// edited by the user, are kept).
fn fill(conn: &mut Connection, with_bundled: bool) -> Result<()> {
    let bundled = if with_bundled { cards::bundled() } else { Vec::new() };
    let fingerprint = fingerprint(&bundled);
    if with_bundled && store::meta(conn, BUNDLED_KEY)?.as_deref() == Some(fingerprint.as_str()) {
        return Ok(());
    }
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
    let mut clashes = None;
    if with_bundled && store::meta(&tx, BUNDLED_KEY)?.as_deref() != Some(fingerprint.as_str()) {
        let mut rows = Vec::new();
        for (path, text) in &bundled {
            match cards::parse(text, path)? {
                CardFile::Card(c) => rows.push(store::CardRow::new(&c)),
                CardFile::Clashes(t) => clashes = Some(t),
            }
        }
        for r in &rows {
            store::insert_if_absent(&tx, r)?;
        }
        store::set_meta(&tx, BUNDLED_KEY, &fingerprint)?;
    }
    if store::meta(&tx, CLASHES_KEY)?.is_none() {
        let table = clashes.unwrap_or_else(ClashTable::standard);
        store::set_meta(&tx, CLASHES_KEY, &table.to_toml())?;
    }
    tx.commit()?;
    Ok(())
}

/// FNV-1a over the bundled paths and texts: cheap enough to run on every start.
fn fingerprint(files: &[(String, &str)]) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for (p, t) in files {
        for b in p.bytes().chain([0]).chain(t.bytes()).chain([0]) {
            h ^= b as u64;
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    }
    format!("{h:016x}-{}", files.len())
}
