//! `cards export`: the catalogue written back as card files, `DIR/<game>/<id>.toml`, plus
//! `DIR/iconoclasm/clashes.toml`. Each file is written to a temporary name in its folder and
//! renamed into place, so an interrupted export never leaves a half-written card. A card's
//! art, kept in the catalogue's art folder, is copied beside its file, so the folder imports
//! elsewhere with its pictures.

use std::io::Write;
use std::path::{Path, PathBuf};

use super::{CLASHES_KEY, Catalogue, Result, store};

/// What an export wrote.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ExportReport {
    /// Card files written.
    pub cards: usize,
    /// Whether `iconoclasm/clashes.toml` was written.
    pub clash_table: bool,
}

impl Catalogue {
    /// Writes every card as `dir/<game>/<id>.toml` (and the clash table), replacing files
    /// of the same name. Files are the cards' canonical TOML, as `import` reads them.
    pub fn export_dir(&self, dir: &Path) -> Result<ExportReport> {
        let mut report = ExportReport::default();
        let mut st = self
            .conn()
            .prepare_cached("SELECT game, id, body FROM card ORDER BY game, id")?;
        let rows = st.query_map([], |r| {
            Ok((
                r.get::<_, String>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, String>(2)?,
            ))
        })?;
        let mut made_dirs: Vec<String> = Vec::new();
        for row in rows {
            let (game, id, body) = row?;
            let folder = dir.join(&game);
            if !made_dirs.contains(&game) {
                std::fs::create_dir_all(&folder)?;
                made_dirs.push(game);
            }
            write_atomic(&folder.join(format!("{id}.toml")), body.as_bytes())?;
            self.export_art(&body, &folder)?;
            report.cards += 1;
        }
        if let Some(table) = store::meta(self.conn(), CLASHES_KEY)? {
            let folder = dir.join("iconoclasm");
            std::fs::create_dir_all(&folder)?;
            write_atomic(&folder.join("clashes.toml"), table.as_bytes())?;
            report.clash_table = true;
        }
        Ok(report)
    }
}

impl Catalogue {
    /// Copies a card's art from the catalogue's art folder beside its exported file, where
    /// `import` looks for it (a path relative to the card file).
    fn export_art(&self, body: &str, folder: &Path) -> Result<()> {
        if !(body.contains("art =") || body.contains("portrait =")) {
            return Ok(());
        }
        let (Ok(card), Some(dir)) = (crate::cards::parse_card(body, "catalogue"), self.art_dir())
        else {
            return Ok(());
        };
        let Some(art) = card.art() else { return Ok(()) };
        let rel = Path::new(art);
        let src = dir.join(rel);
        if rel.is_relative() && rel.components().count() == 1 && src.is_file() {
            write_atomic(&folder.join(rel), &std::fs::read(&src)?)?;
        }
        Ok(())
    }
}

/// Writes `bytes` to `path` through a temporary file in the same folder and a rename.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let tmp = temp_name(path);
    let result = (|| {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        f.flush()?;
        drop(f);
        std::fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

fn temp_name(path: &Path) -> PathBuf {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    path.with_file_name(format!(".{name}.tmp-{}", std::process::id()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn atomic_write_replaces_and_leaves_no_temp_file() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("a.toml");
        write_atomic(&p, b"one").unwrap();
        write_atomic(&p, b"two").unwrap();
        assert_eq!(std::fs::read_to_string(&p).unwrap(), "two");
        let names: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, vec![std::ffi::OsString::from("a.toml")]);
    }
}
