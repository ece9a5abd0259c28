//! Opening a catalogue file: checks (SQLite? ours? intact? not too new?), connection
//! settings, backup before a migration, migrations, and the first-use fill.

use std::io::Read;
use std::path::{Path, PathBuf};
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
    // A FIFO or a device would hang the open or be read forever.
    crate::safe_io::check_regular(path)?;
    match open_checked(path).map_err(|e| classify(e, path)) {
        // A whole, current catalogue in a read-only place can still be read: searches,
        // validation and exports work, and a write says the database is read-only.
        Err(ro @ CatalogueError::ReadOnly { .. }) => open_read_only(path).map_err(|e| match e {
            // Damage or a newer schema found by the read-only check is the truth to tell.
            e @ (CatalogueError::Damaged(_) | CatalogueError::NewerSchema { .. }) => e,
            _ => ro,
        }),
        other => other,
    }
}

/// A read-only connection to the database file at `path` that changes nothing. Where the
/// write-ahead log's index cannot be made (a read-only folder), the file is opened
/// `immutable` (no log: nobody can be writing a file in a read-only folder).
pub(crate) fn open_for_reading(path: &Path) -> Result<Connection> {
    let flags = OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX;
    let conn = Connection::open_with_flags(path, flags)?;
    match conn.query_row("PRAGMA schema_version", [], |r| r.get::<_, i64>(0)) {
        Err(e)
            if matches!(
                e.sqlite_error_code(),
                Some(rusqlite::ErrorCode::ReadOnly | rusqlite::ErrorCode::CannotOpen)
            ) =>
        {
            drop(conn);
            let text = path
                .to_str()
                .ok_or_else(|| CatalogueError::Damaged("path is not UTF-8".into()))?;
            let uri = format!(
                "file:{}?immutable=1",
                text.replace('%', "%25")
                    .replace('?', "%3f")
                    .replace('#', "%23")
            );
            Ok(Connection::open_with_flags(
                uri,
                flags | OpenFlags::SQLITE_OPEN_URI,
            )?)
        }
        _ => Ok(conn),
    }
}

/// Opens an existing, current catalogue for reading only, without creating its write-ahead
/// log (`immutable`: its folder is read-only, so nobody can be writing it).
fn open_read_only(path: &Path) -> Result<Connection> {
    if !check_header(path)? {
        return Err(CatalogueError::Io(std::io::Error::other(
            "no catalogue to read",
        )));
    }
    let conn = open_for_reading(path)?;
    check(&conn, path, CheckDepth::ForOpen(path))?;
    let version = user_version(&conn)?;
    if version != schema_version() {
        return Err(CatalogueError::Io(std::io::Error::other(
            "a migration is needed",
        )));
    }
    check_ours(&conn, path, version)?;
    Ok(conn)
}

fn open_checked(path: &Path) -> Result<Connection> {
    let shown = path.display();
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)?;
    }
    let existed = check_header(path)?;
    let flags = OpenFlags::SQLITE_OPEN_READ_WRITE
        | OpenFlags::SQLITE_OPEN_CREATE
        | OpenFlags::SQLITE_OPEN_NO_MUTEX;
    let mut conn = Connection::open_with_flags(path, flags)?;
    conn.busy_timeout(BUSY_TIMEOUT)?;
    let damaged = |e: rusqlite::Error| match e.sqlite_error_code() {
        Some(rusqlite::ErrorCode::DatabaseCorrupt | rusqlite::ErrorCode::NotADatabase) => {
            CatalogueError::Damaged(format!(
                "catalogue `{shown}` cannot be read ({e}); it is damaged or not a deckwright catalogue. {}",
                backup::advice(path)
            ))
        }
        _ => CatalogueError::Sqlite(e),
    };
    if existed {
        check(&conn, path, CheckDepth::ForOpen(path)).map_err(|e| match e {
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

/// Says what really went wrong opening the catalogue at `path`: a read-only file or
/// folder and a full disk are named as such, not as damage.
pub(crate) fn classify(e: CatalogueError, path: &Path) -> CatalogueError {
    use rusqlite::ErrorCode;
    let code = match &e {
        CatalogueError::Sqlite(s) => s.sqlite_error_code(),
        CatalogueError::Migration(rusqlite_migration::Error::RusqliteError { err, .. }) => {
            err.sqlite_error_code()
        }
        CatalogueError::Io(io) => {
            return match io.kind() {
                std::io::ErrorKind::PermissionDenied | std::io::ErrorKind::ReadOnlyFilesystem => {
                    CatalogueError::ReadOnly {
                        path: path.to_path_buf(),
                        detail: io.to_string(),
                    }
                }
                std::io::ErrorKind::StorageFull | std::io::ErrorKind::QuotaExceeded => {
                    CatalogueError::DiskFull {
                        path: path.to_path_buf(),
                        detail: io.to_string(),
                    }
                }
                _ => e,
            };
        }
        _ => None,
    };
    match code {
        Some(ErrorCode::ReadOnly) => CatalogueError::ReadOnly {
            path: path.to_path_buf(),
            detail: e.to_string(),
        },
        Some(ErrorCode::DiskFull) => CatalogueError::DiskFull {
            path: path.to_path_buf(),
            detail: e.to_string(),
        },
        Some(ErrorCode::CannotOpen | ErrorCode::PermissionDenied | ErrorCode::SystemIoFailure) => {
            match unwritable(path) {
                Some(detail) => CatalogueError::ReadOnly {
                    path: path.to_path_buf(),
                    detail,
                },
                None if disk_full(path) => CatalogueError::DiskFull {
                    path: path.to_path_buf(),
                    detail: e.to_string(),
                },
                None => e,
            }
        }
        _ => e,
    }
}

/// Why the catalogue file or its folder cannot be written, if it cannot.
fn unwritable(path: &Path) -> Option<String> {
    let dir = crate::safe_io::folder_of(path);
    if let Ok(m) = std::fs::metadata(path)
        && m.permissions().readonly()
    {
        return Some("the file is read-only".into());
    }
    match tempfile::tempfile_in(&dir) {
        Ok(_) => None,
        Err(e)
            if matches!(
                e.kind(),
                std::io::ErrorKind::StorageFull | std::io::ErrorKind::QuotaExceeded
            ) =>
        {
            None
        }
        Err(e) => Some(format!(
            "its folder `{}` is not writable ({e})",
            dir.display()
        )),
    }
}

/// Is the disk holding `path` full (a small file cannot be written there)?
fn disk_full(path: &Path) -> bool {
    use std::io::Write;
    let dir = crate::safe_io::folder_of(path);
    match tempfile::tempfile_in(&dir) {
        Ok(mut f) => f
            .write_all(&[0u8; 8192])
            .and_then(|_| f.sync_all())
            .is_err_and(|e| {
                matches!(
                    e.kind(),
                    std::io::ErrorKind::StorageFull | std::io::ErrorKind::QuotaExceeded
                )
            }),
        Err(e) => matches!(
            e.kind(),
            std::io::ErrorKind::StorageFull | std::io::ErrorKind::QuotaExceeded
        ),
    }
}

pub fn open_memory(with_bundled: bool) -> Result<Connection> {
    let mut conn = Connection::open_in_memory()?;
    conn.pragma_update(None, "foreign_keys", true)?;
    migrate(&mut conn)?;
    fill(&mut conn, with_bundled)?;
    Ok(conn)
}

/// Does the file exist with content, and if so does it start as an SQLite database?
pub(crate) fn check_header(path: &Path) -> Result<bool> {
    let shown = path.display();
    let mut f = match std::fs::File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(false),
        Err(e) => {
            return Err(CatalogueError::Damaged(format!(
                "cannot read catalogue `{shown}`: {e}"
            )));
        }
    };
    let mut head = [0u8; 16];
    let mut n = 0;
    while n < head.len() {
        match f.read(&mut head[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) => {
                return Err(CatalogueError::Damaged(format!(
                    "cannot read catalogue `{shown}`: {e}"
                )));
            }
        }
    }
    if n == 0 {
        return empty_file(path);
    }
    if n < head.len() || &head != b"SQLite format 3\0" {
        return Err(CatalogueError::Damaged(format!(
            "`{shown}` is not a deckwright catalogue (it is not an SQLite database); \
             pass another file with --db or DECKWRIGHT_DB, or move this one away"
        )));
    }
    Ok(true)
}

/// A 0-byte file at the catalogue's path. It is a new catalogue only while another process
/// is creating it: within [`CREATING`] that process writes the first page or starts its
/// log beside it (then this one goes on as for a new file, `Ok(false)`, and SQLite's locks
/// order the two). A file that stays empty is a catalogue that lost its content: it is
/// refused, not silently replaced by a new catalogue.
fn empty_file(path: &Path) -> Result<bool> {
    let side = |suffix: &str| {
        let mut p = path.as_os_str().to_owned();
        p.push(suffix);
        PathBuf::from(p)
    };
    let deadline = Instant::now() + CREATING;
    loop {
        let grew = std::fs::metadata(path).is_ok_and(|m| m.len() > 0);
        if grew || side("-wal").exists() || side("-journal").exists() {
            return Ok(false);
        }
        if Instant::now() >= deadline {
            break;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    Err(CatalogueError::Damaged(format!(
        "catalogue `{}` is an empty file (0 bytes): it holds no catalogue. {} \
         To start a new catalogue instead, delete the empty file",
        path.display(),
        backup::advice(path)
    )))
}

/// How long an empty catalogue file may take to show that another process is creating it.
const CREATING: Duration = Duration::from_millis(1500);

/// Catalogues up to this size get the full `PRAGMA integrity_check` on every open; larger
/// ones `quick_check` (the full check is `deckwright catalogue check`).
pub const FULL_CHECK_UP_TO: u64 = 32 << 20;

/// How thorough a check is.
#[derive(Clone, Copy)]
pub(crate) enum CheckDepth<'a> {
    /// On open: the full check for files up to [`FULL_CHECK_UP_TO`], else the quick one.
    ForOpen(&'a Path),
    /// `PRAGMA integrity_check`, whatever the size.
    Full,
}

/// Checks the database's structure (and that its size matches its header); a problem is
/// [`CatalogueError::Damaged`] naming the first findings and what to do.
pub(crate) fn check(conn: &Connection, path: &Path, depth: CheckDepth<'_>) -> Result<()> {
    if let Some(problem) = size_problem(path) {
        return Err(CatalogueError::Damaged(format!(
            "catalogue `{}` is damaged ({problem}). {}",
            path.display(),
            backup::advice(path)
        )));
    }
    let full = match depth {
        CheckDepth::Full => true,
        CheckDepth::ForOpen(p) => std::fs::metadata(p).is_ok_and(|m| m.len() <= FULL_CHECK_UP_TO),
    };
    let pragma = if full {
        "integrity_check"
    } else {
        "quick_check"
    };
    let mut st = conn.prepare(&format!("PRAGMA {pragma}"))?;
    let lines: Vec<String> = st
        .query_map([], |r| r.get::<_, String>(0))?
        .collect::<Result<_, _>>()?;
    if lines.len() == 1 && lines[0] == "ok" {
        return Ok(());
    }
    let first: Vec<String> = lines
        .iter()
        .take(3)
        .map(|l| crate::safe_io::excerpt(l, 200))
        .collect();
    Err(CatalogueError::Damaged(format!(
        "catalogue `{}` is damaged ({pragma}: {}). {}",
        path.display(),
        first.join("; "),
        backup::advice(path)
    )))
}

/// A main database file whose size disagrees with its header (cut short, or not whole
/// pages), or `None`. Only a checkpointed file is judged: with a write-ahead log beside it
/// the header may lag.
fn size_problem(path: &Path) -> Option<String> {
    let mut wal = path.as_os_str().to_owned();
    wal.push("-wal");
    if std::fs::metadata(PathBuf::from(wal)).is_ok_and(|m| m.len() > 0) {
        return None;
    }
    let mut f = std::fs::File::open(path).ok()?;
    let len = f.metadata().ok()?.len();
    let mut head = [0u8; 100];
    f.read_exact(&mut head).ok()?;
    if &head[..16] != b"SQLite format 3\0" {
        return None;
    }
    let page = match u16::from_be_bytes([head[16], head[17]]) {
        1 => 65536u64,
        p => p as u64,
    };
    if page < 512 || !page.is_power_of_two() {
        return Some(format!("its header gives page size {page}"));
    }
    if !len.is_multiple_of(page) {
        return Some(format!(
            "{len} bytes is not a whole number of {page}-byte pages: the file was cut"
        ));
    }
    let counter = u32::from_be_bytes([head[24], head[25], head[26], head[27]]);
    let valid_for = u32::from_be_bytes([head[92], head[93], head[94], head[95]]);
    let pages = u32::from_be_bytes([head[28], head[29], head[30], head[31]]) as u64;
    if counter == valid_for && pages > 0 && pages * page > len {
        return Some(format!(
            "its header says {pages} pages but the file holds {}: the file was cut",
            len / page
        ));
    }
    None
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
        return Err(CatalogueError::NewerSchema {
            path: path.to_path_buf(),
            found: version,
            known: schema_version(),
        });
    }
    if version == 0 {
        let mut st = conn.prepare(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
        )?;
        let tables: Vec<String> = st.query_map([], |r| r.get(0))?.collect::<Result<_, _>>()?;
        let foreign: Vec<&String> = tables
            .iter()
            .filter(|t| !OUR_OBJECTS.contains(&t.as_str()))
            .collect();
        let shown_tables: Vec<&String> = if foreign.is_empty() {
            tables.iter().collect()
        } else {
            foreign
        };
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
    let bundled = if with_bundled {
        cards::bundled()
    } else {
        Vec::new()
    };
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
