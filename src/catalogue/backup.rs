//! Backups of a catalogue: taken before a migration changes it and on demand (`deckwright
//! catalogue backup`), checked, rotated, and restored.
//!
//! A backup is `<catalogue file name>.backup-<unix nanoseconds>-v<schema>` next to the
//! catalogue. It is written by `VACUUM INTO` to a temporary name, opened and checked
//! (`PRAGMA integrity_check`, a deckwright catalogue of a schema this build knows), synced,
//! and only then renamed into the rotation: an interrupted or disk-full backup leaves no
//! file that looks like one. Only verified backups count in the rotation (the newest
//! [`KEEP`] are kept) and only a verified backup is ever offered for restoring; an empty or
//! broken file with a backup's name is removed when the rotation is pruned.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use rusqlite::Connection;

use super::open::{CheckDepth, check, classify};
use super::{CatalogueError, Result, schema_version};
use crate::safe_io;

/// How many backups are kept.
pub const KEEP: usize = 3;

/// A backup that passed its check.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Backup {
    pub path: PathBuf,
    /// Its schema version.
    pub schema: i64,
    /// Its size in bytes.
    pub bytes: u64,
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "catalogue".into())
}

/// Takes a verified backup of `conn` (the catalogue at `path`, at schema `version`) and
/// prunes old ones. A failure (disk full, read-only folder) leaves no backup file and
/// changes nothing.
pub fn before_migration(conn: &Connection, path: &Path, version: i64) -> Result<PathBuf> {
    take(conn, path, version).map_err(|e| match classify(e, path) {
        CatalogueError::Sqlite(e) => CatalogueError::Damaged(format!(
            "cannot back up catalogue `{}` before migrating it ({e}); nothing was changed",
            path.display()
        )),
        other => other,
    })
}

/// Writes the backup: `VACUUM INTO` a temporary file, verify, rename into the rotation.
pub(crate) fn take(conn: &Connection, path: &Path, version: i64) -> Result<PathBuf> {
    let name = file_name(path);
    let dir = safe_io::folder_of(path);
    let tmp = tempfile::Builder::new()
        .prefix(safe_io::TEMP_PREFIX)
        .suffix(".part")
        .rand_bytes(12)
        .tempfile_in(&dir)?;
    let tmp_str = tmp.path().to_str().ok_or_else(|| {
        CatalogueError::Damaged(format!(
            "cannot back up to `{}`: the path is not UTF-8",
            tmp.path().display()
        ))
    })?;
    conn.execute("VACUUM INTO ?1", [tmp_str])?;
    let checked = verify(tmp.path())?;
    if checked.schema != version {
        return Err(CatalogueError::Damaged(format!(
            "the backup of `{}` reads as schema {} instead of {version}; it was not kept",
            path.display(),
            checked.schema
        )));
    }
    tmp.as_file().sync_all()?;
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or(0);
    let target = dir.join(format!("{name}.backup-{nanos:020}-v{version}"));
    tmp.persist_noclobber(&target).map_err(|e| e.error)?;
    safe_io::sync_dir(&dir)?;
    prune(&dir, &name)?;
    Ok(target)
}

/// Opens the file at `path` read-only and checks it is a whole deckwright catalogue of a
/// schema this build knows (`PRAGMA integrity_check`).
pub fn verify(path: &Path) -> Result<Backup> {
    let shown = path.display();
    let meta = std::fs::metadata(path)?;
    if meta.len() == 0 {
        return Err(CatalogueError::Damaged(format!("`{shown}` is empty")));
    }
    let conn = super::open::open_for_reading(path)?;
    let bad = |e: CatalogueError| {
        CatalogueError::Damaged(format!("`{shown}` is not a whole catalogue: {e}"))
    };
    check(&conn, path, CheckDepth::Full).map_err(|e| match e {
        e @ CatalogueError::Damaged(_) => e,
        other => bad(other),
    })?;
    let schema: i64 = conn
        .query_row("PRAGMA user_version", [], |r| r.get(0))
        .map_err(|e| bad(e.into()))?;
    if schema < 1 || schema > schema_version() {
        return Err(CatalogueError::Damaged(format!(
            "`{shown}` is at schema {schema}; this build reads catalogues of schema 1 to {}",
            schema_version()
        )));
    }
    let tables: i64 = conn
        .query_row("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name IN ('card', 'collection', 'meta')", [], |r| {
            r.get(0)
        })
        .map_err(|e| bad(e.into()))?;
    if tables < 3 {
        return Err(CatalogueError::Damaged(format!(
            "`{shown}` is not a deckwright catalogue"
        )));
    }
    Ok(Backup {
        path: path.to_path_buf(),
        schema,
        bytes: meta.len(),
    })
}

/// The files named as backups of the catalogue file `name` in `dir`, oldest first
/// (verified or not).
pub fn list(dir: &Path, name: &str) -> Result<Vec<PathBuf>> {
    let prefix = format!("{name}.backup-");
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir)?
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().starts_with(&prefix))
        .map(|e| e.path())
        .collect();
    out.sort();
    Ok(out)
}

/// The backups of the catalogue at `path` that pass their check, oldest first.
pub fn verified(path: &Path) -> Vec<Backup> {
    let dir = safe_io::folder_of(path);
    list(&dir, &file_name(path))
        .unwrap_or_default()
        .iter()
        .filter_map(|p| verify(p).ok())
        .collect()
}

/// What to tell a person whose catalogue at `path` cannot be used: the newest verified
/// backup and the command that restores it, or that there is none.
pub fn advice(path: &Path) -> String {
    match verified(path).last() {
        Some(b) => format!(
            "The newest backup that passes its check is `{}` (schema {}); restore it with \
             `deckwright --db {} catalogue restore`, or move the catalogue away to start a new one",
            b.path.display(),
            b.schema,
            path.display()
        ),
        None => "No backup that passes its check was found next to it; move it away to start a new catalogue \
                 (cards can be imported again from card files)"
            .to_string(),
    }
}

/// Keeps the newest [`KEEP`] verified backups; removes older ones and files with a
/// backup's name that fail their check (empty, cut short, damaged).
fn prune(dir: &Path, name: &str) -> Result<()> {
    let all = list(dir, name)?;
    let mut good = Vec::new();
    for p in &all {
        if verify(p).is_ok() {
            good.push(p.clone());
        } else {
            std::fs::remove_file(p)?;
        }
    }
    let excess = good.len().saturating_sub(KEEP);
    for old in &good[..excess] {
        std::fs::remove_file(old)?;
    }
    Ok(())
}

/// The steps of [`restore`], in order: what is on disk once each is done. A crash between
/// any two leaves the old catalogue (with its side files) or the restored one at the
/// catalogue's path, never no file (`tests/catalogue/hostile.rs` kills a restore at each).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RestoreStep {
    /// The backup is copied beside the catalogue under a temporary name, synced and checked.
    Copied,
    /// The current file and its side files are kept as `<name>.replaced-<nanos>` too (hard
    /// links, or synced copies where links are refused): the old catalogue has two names.
    Kept,
    /// A `-wal` or hot `-journal` of the old catalogue was folded into a copy of it
    /// (checkpointed or rolled back by SQLite on the copy) and the copy renamed over the
    /// catalogue: the old catalogue no longer needs its side files.
    Settled,
    /// The side files (`-wal`, `-shm`, `-journal`) are gone from the catalogue's path, so
    /// none can be applied to the restored file.
    SidesRemoved,
    /// The restored copy is renamed over the catalogue (one atomic rename) and the folder
    /// synced.
    Replaced,
}

impl RestoreStep {
    /// Every step, in order.
    pub const ALL: [RestoreStep; 5] = [
        RestoreStep::Copied,
        RestoreStep::Kept,
        RestoreStep::Settled,
        RestoreStep::SidesRemoved,
        RestoreStep::Replaced,
    ];
}

/// The side files SQLite keeps beside a database.
const SIDE_FILES: [&str; 3] = ["-wal", "-shm", "-journal"];

fn with_suffix(path: &Path, suffix: &str) -> PathBuf {
    let mut s = path.as_os_str().to_owned();
    s.push(suffix);
    PathBuf::from(s)
}

/// Gives the file at `from` the second name `to` (a hard link; where the file system
/// refuses links, a synced copy). `to` must not exist.
fn keep_as(from: &Path, to: &Path) -> std::io::Result<()> {
    if std::fs::hard_link(from, to).is_ok() {
        return Ok(());
    }
    let dir = safe_io::folder_of(to);
    let mut tmp = tempfile::Builder::new()
        .prefix(safe_io::TEMP_PREFIX)
        .suffix(".part")
        .rand_bytes(12)
        .tempfile_in(&dir)?;
    std::io::copy(&mut std::fs::File::open(from)?, tmp.as_file_mut())?;
    tmp.as_file().sync_all()?;
    tmp.persist_noclobber(to).map_err(|e| e.error)?;
    Ok(())
}

/// Whether the catalogue at `path` has a side file SQLite would apply to it: a `-wal` or
/// `-journal` that is not empty.
fn has_live_side(path: &Path) -> bool {
    ["-wal", "-journal"].iter().any(|s| {
        std::fs::symlink_metadata(with_suffix(path, s)).is_ok_and(|m| m.is_file() && m.len() > 0)
    })
}

/// A copy of the old catalogue kept at `kept` (with its side files) in which SQLite has
/// folded the write-ahead log in (or rolled a hot journal back): a file that is the old
/// catalogue by itself. `None` if SQLite cannot do it (a damaged file): the copy is removed.
fn settled_copy(kept: &Path, dir: &Path) -> Option<tempfile::TempPath> {
    let tmp = tempfile::Builder::new()
        .prefix(safe_io::TEMP_PREFIX)
        .suffix(".part")
        .rand_bytes(12)
        .tempfile_in(dir)
        .ok()?
        .into_temp_path();
    let sides: Vec<PathBuf> = SIDE_FILES.iter().map(|s| with_suffix(&tmp, s)).collect();
    let cleanup = |sides: &[PathBuf]| {
        for s in sides {
            let _ = std::fs::remove_file(s);
        }
    };
    let made = (|| -> std::result::Result<(), Box<dyn std::error::Error>> {
        std::fs::copy(kept, &tmp)?;
        for (suffix, side) in SIDE_FILES.iter().zip(&sides) {
            let from = with_suffix(kept, suffix);
            if *suffix != "-shm" && from.is_file() {
                std::fs::copy(&from, side)?;
            }
        }
        let conn = Connection::open_with_flags(
            &tmp,
            rusqlite::OpenFlags::SQLITE_OPEN_READ_WRITE | rusqlite::OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )?;
        // Reading rolls a hot journal back; the checkpoint copies the log into the file.
        let _: i64 = conn.query_row("SELECT count(*) FROM sqlite_master", [], |r| r.get(0))?;
        let mode: String = conn.query_row("PRAGMA journal_mode", [], |r| r.get(0))?;
        if mode.eq_ignore_ascii_case("wal") {
            let busy: i64 = conn.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |r| r.get(0))?;
            if busy != 0 {
                return Err("the write-ahead log could not be checkpointed".into());
            }
        }
        drop(conn);
        let left = ["-wal", "-journal"]
            .iter()
            .any(|s| std::fs::metadata(with_suffix(&tmp, s)).is_ok_and(|m| m.len() > 0));
        if left {
            return Err("a side file is left".into());
        }
        std::fs::File::open(&tmp)?.sync_all()?;
        Ok(())
    })();
    cleanup(&sides);
    made.ok().map(|()| tmp)
}

/// Replaces the catalogue at `path` by a verified backup (`from`, else the newest one that
/// passes its check). The current file (and its `-wal`/`-shm`) is kept beside it as
/// `<name>.replaced-<unix nanoseconds>`, never deleted. Returns the backup restored and
/// where the replaced file went (`None` if there was none).
///
/// The catalogue's path names a whole catalogue at every instant, the old one or the
/// restored one (see [`RestoreStep`]): the old file is given its second name by a link, not
/// moved, and the restored copy is renamed over it. The one exception is an old catalogue
/// whose write-ahead log SQLite cannot fold in (a damaged file): between
/// [`RestoreStep::SidesRemoved`] and [`RestoreStep::Replaced`] its path holds the old file
/// without its log; the whole old catalogue is kept under its `.replaced-` name.
pub fn restore(path: &Path, from: Option<&Path>) -> Result<(Backup, Option<PathBuf>)> {
    restore_observed(path, from, &mut |_| {})
}

/// [`restore`], calling `done` after each [`RestoreStep`] (a test stops the process there).
#[doc(hidden)]
pub fn restore_observed(
    path: &Path,
    from: Option<&Path>,
    done: &mut dyn FnMut(RestoreStep),
) -> Result<(Backup, Option<PathBuf>)> {
    let chosen = match from {
        Some(f) => {
            safe_io::check_regular(f)?;
            verify(f).map_err(|e| match e {
                CatalogueError::Damaged(m) => {
                    CatalogueError::Damaged(format!("{m}; nothing was restored"))
                }
                other => other,
            })?
        }
        None => verified(path).pop().ok_or_else(|| {
            CatalogueError::Damaged(format!(
                "no backup of `{}` passes its check; nothing was restored",
                path.display()
            ))
        })?,
    };
    let dir = safe_io::folder_of(path);
    let mut tmp = tempfile::Builder::new()
        .prefix(safe_io::TEMP_PREFIX)
        .suffix(".part")
        .rand_bytes(12)
        .tempfile_in(&dir)?;
    let mut src = std::fs::File::open(&chosen.path)?;
    std::io::copy(&mut src, tmp.as_file_mut())?;
    tmp.as_file_mut().flush()?;
    tmp.as_file().sync_all()?;
    verify(tmp.path())?;
    done(RestoreStep::Copied);

    let mut moved = None;
    if std::fs::symlink_metadata(path).is_ok() {
        let nanos = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or(0);
        let aside = dir.join(format!("{}.replaced-{nanos:020}", file_name(path)));
        keep_as(path, &aside)?;
        for suffix in SIDE_FILES {
            let side = with_suffix(path, suffix);
            if std::fs::symlink_metadata(&side).is_ok() {
                keep_as(&side, &with_suffix(&aside, suffix))?;
            }
        }
        safe_io::sync_dir(&dir)?;
        moved = Some(aside);
    }
    done(RestoreStep::Kept);

    if let Some(aside) = moved.as_ref().filter(|_| has_live_side(path))
        && let Some(settled) = settled_copy(aside, &dir)
    {
        // The log replayed on the settled copy changes nothing: its pages are already in it.
        settled.persist(path).map_err(|e| e.error)?;
        safe_io::sync_dir(&dir)?;
    }
    done(RestoreStep::Settled);

    for suffix in SIDE_FILES {
        let side = with_suffix(path, suffix);
        match std::fs::remove_file(&side) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(e.into()),
        }
    }
    safe_io::sync_dir(&dir)?;
    done(RestoreStep::SidesRemoved);

    tmp.persist(path).map_err(|e| e.error)?;
    safe_io::sync_dir(&dir)?;
    done(RestoreStep::Replaced);
    Ok((
        Backup {
            path: chosen.path,
            schema: chosen.schema,
            bytes: chosen.bytes,
        },
        moved,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn catalogue_like(p: &Path, version: i64) -> Connection {
        let conn = Connection::open(p).unwrap();
        conn.execute_batch(&format!(
            "CREATE TABLE card(id); CREATE TABLE collection(x); CREATE TABLE meta(k); INSERT INTO card VALUES (1);
             PRAGMA user_version = {version};"
        ))
        .unwrap();
        conn
    }

    #[test]
    fn keeps_the_newest_three() {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("c.sqlite");
        let conn = catalogue_like(&db, 1);
        let mut made = Vec::new();
        for _ in 1..=5 {
            made.push(before_migration(&conn, &db, 1).unwrap());
        }
        let left = list(dir.path(), "c.sqlite").unwrap();
        assert_eq!(left, made[2..].to_vec());
        let copy = Connection::open(&left[2]).unwrap();
        let x: i64 = copy
            .query_row("SELECT id FROM card", [], |r| r.get(0))
            .unwrap();
        assert_eq!(x, 1);
    }

    #[test]
    fn empty_and_cut_backups_never_count_and_are_pruned() {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("c.sqlite");
        let conn = catalogue_like(&db, 1);
        let good = before_migration(&conn, &db, 1).unwrap();
        // Left by an older version killed mid-backup, or a full disk: newer names than `good`.
        let empty = dir.path().join("c.sqlite.backup-99999999999999999990-v1");
        std::fs::write(&empty, b"").unwrap();
        let cut = dir.path().join("c.sqlite.backup-99999999999999999991-v1");
        let bytes = std::fs::read(&good).unwrap();
        std::fs::write(&cut, &bytes[..bytes.len() - 1]).unwrap();
        assert_eq!(
            verified(&db)
                .iter()
                .map(|b| b.path.clone())
                .collect::<Vec<_>>(),
            vec![good.clone()]
        );
        assert!(
            advice(&db).contains(&good.display().to_string()),
            "{}",
            advice(&db)
        );
        let newer = before_migration(&conn, &db, 1).unwrap();
        assert_eq!(list(dir.path(), "c.sqlite").unwrap(), vec![good, newer]);
    }
}
