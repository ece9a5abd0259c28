//! Rotating backups taken before a migration changes an existing catalogue.
//!
//! A backup is `VACUUM INTO <catalogue file name>.backup-<unix nanoseconds>-v<schema>`,
//! next to the catalogue; only the newest [`KEEP`] are kept.

use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use rusqlite::Connection;

use super::{CatalogueError, Result};

/// How many backups are kept.
pub const KEEP: usize = 3;

/// Takes a backup of `conn` (the catalogue at `path`, at schema `version`) and prunes old ones.
pub fn before_migration(conn: &Connection, path: &Path, version: i64) -> Result<PathBuf> {
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| "catalogue".into());
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let nanos = SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_nanos()).unwrap_or(0);
    let target = dir.join(format!("{name}.backup-{nanos:020}-v{version}"));
    let target_str = target.to_str().ok_or_else(|| {
        CatalogueError::Damaged(format!("cannot back up to `{}`: the path is not UTF-8", target.display()))
    })?;
    conn.execute("VACUUM INTO ?1", [target_str]).map_err(|e| {
        CatalogueError::Damaged(format!(
            "cannot back up the catalogue to `{}` before migrating it ({e}); nothing was changed",
            target.display()
        ))
    })?;
    prune(dir, &name)?;
    Ok(target)
}

/// The backups of the catalogue file `name` in `dir`, oldest first.
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

fn prune(dir: &Path, name: &str) -> Result<()> {
    let all = list(dir, name)?;
    let excess = all.len().saturating_sub(KEEP);
    for old in &all[..excess] {
        std::fs::remove_file(old)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_the_newest_three() {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("c.sqlite");
        let conn = Connection::open(&db).unwrap();
        conn.execute_batch("CREATE TABLE t(x); INSERT INTO t VALUES (1);").unwrap();
        let mut made = Vec::new();
        for v in 1..=5 {
            made.push(before_migration(&conn, &db, v).unwrap());
        }
        let left = list(dir.path(), "c.sqlite").unwrap();
        assert_eq!(left, made[2..].to_vec());
        let copy = Connection::open(&left[2]).unwrap();
        let x: i64 = copy.query_row("SELECT x FROM t", [], |r| r.get(0)).unwrap();
        assert_eq!(x, 1);
    }
}
