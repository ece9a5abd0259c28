//! `cards export`: the catalogue written back as card files, `DIR/<game>/<id>.toml`, plus
//! `DIR/iconoclasm/clashes.toml`.
//!
//! Paths are built only from a known game and a valid card id (`[a-z0-9-]`, at most
//! [`cards::MAX_ID_LEN`] characters): a row edited outside deckwright to hold `../x` or an
//! absolute folder refuses the whole export. The files are written into a temporary folder
//! and moved into `DIR` only when every one is written (`safe_io::StagedDir`): an export
//! that fails or is killed leaves `DIR` as it was.
//!
//! A card's art, kept in the catalogue's art folder, is copied beside its file (into the
//! same staged folder), so the exported folder imports elsewhere with its pictures.

use std::path::{Path, PathBuf};

use super::{CLASHES_KEY, Catalogue, CatalogueError, Result, store};
use crate::cards::{self, Game};
use crate::safe_io::{self, StagedDir, excerpt};

/// What an export wrote.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ExportReport {
    /// Card files written.
    pub cards: usize,
    /// Whether `iconoclasm/clashes.toml` was written.
    pub clash_table: bool,
}

/// The file a stored card is exported to, relative to the export folder, or why the row
/// cannot be a card file.
pub fn card_file(game: &str, id: &str) -> Result<PathBuf> {
    let unsafe_row = |why: &str| {
        CatalogueError::UnsafeRow(format!(
            "card `{}` of game `{}` {why}; the catalogue was changed outside deckwright",
            excerpt(id, 40),
            excerpt(game, 40)
        ))
    };
    let game = Game::parse(game).ok_or_else(|| unsafe_row("names no game"))?;
    if !cards::valid_id(id) {
        return Err(unsafe_row(&format!(
            "has an id a card file cannot have (ids are a-z, 0-9 and -, at most {} characters)",
            cards::MAX_ID_LEN
        )));
    }
    Ok(Path::new(game.as_str()).join(format!("{id}.toml")))
}

impl Catalogue {
    /// Writes every card as `dir/<game>/<id>.toml` (and the clash table), replacing files
    /// of the same name, all or nothing. Files are the cards' canonical TOML, as `import`
    /// reads them.
    pub fn export_dir(&self, dir: &Path) -> Result<ExportReport> {
        let mut report = ExportReport::default();
        let mut rows = Vec::new();
        {
            let mut st = self
                .conn
                .prepare_cached("SELECT game, id, body FROM card ORDER BY game, id")?;
            let it = st.query_map([], |r| {
                Ok((
                    r.get::<_, String>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, String>(2)?,
                ))
            })?;
            for row in it {
                let (game, id, body) = row?;
                rows.push((card_file(&game, &id)?, body));
            }
        }
        let stage = StagedDir::new(dir)?;
        for (rel, body) in &rows {
            let mut body = std::borrow::Cow::Borrowed(body.as_str());
            if let Some((name, bytes)) = self.art_of(&body)? {
                match picture_name(&name, &bytes, rel) {
                    // Art kept under a name a card file could have (`<id>.toml`, adopted by
                    // an older version): exported under its picture's name instead, and the
                    // card's file names that.
                    Some(new) if new != name => {
                        if let Ok(mut card) = crate::cards::parse_card(&body, "catalogue") {
                            card.set_art(Some(new.clone()));
                            body = std::borrow::Cow::Owned(card.to_toml());
                            stage.write(&rel.with_file_name(new), &bytes)?;
                        }
                    }
                    Some(_) => stage.write(&rel.with_file_name(name), &bytes)?,
                    // Not a picture: not copied (the card prints with a placeholder).
                    None => {}
                }
            }
            stage.write(rel, body.as_bytes())?;
            report.cards += 1;
        }
        if let Some(table) = store::meta(&self.conn, CLASHES_KEY)? {
            stage.write(
                &Path::new(Game::Iconoclasm.as_str()).join("clashes.toml"),
                table.as_bytes(),
            )?;
            report.clash_table = true;
        }
        stage.commit()?;
        Ok(report)
    }
}

impl Catalogue {
    /// A card's art from the catalogue's art folder (its file name and bytes), to be copied
    /// beside its exported file, where `import` looks for it (a path relative to the card
    /// file). Art outside the art folder, or missing, is left where it is.
    fn art_of(&self, body: &str) -> Result<Option<(String, Vec<u8>)>> {
        if !(body.contains("art =") || body.contains("portrait =")) {
            return Ok(None);
        }
        let (Ok(card), Some(dir)) = (crate::cards::parse_card(body, "catalogue"), self.art_dir())
        else {
            return Ok(None);
        };
        let Some(art) = card.art() else {
            return Ok(None);
        };
        let rel = Path::new(art);
        let src = dir.join(rel);
        if !(rel.is_relative() && rel.components().count() == 1 && src.is_file()) {
            return Ok(None);
        }
        let bytes = safe_io::read_bytes(&src, safe_io::MAX_PORTRAIT_FILE, "art files")
            .map_err(|e| std::io::Error::other(e.to_string()))?;
        Ok(Some((art.to_string(), bytes)))
    }
}

/// The name a card's art is exported under beside its file `rel`: its own name when that
/// ends in `.png`, `.jpg` or `.jpeg`, else `<id>.png` or `<id>.jpg` by what its bytes are
/// (so it never takes a card file's name); `None` for bytes that are no PNG or JPEG.
fn picture_name(name: &str, bytes: &[u8], rel: &Path) -> Option<String> {
    let ext = match image::guess_format(bytes).ok()? {
        image::ImageFormat::Png => "png",
        image::ImageFormat::Jpeg => "jpg",
        _ => return None,
    };
    let lower = name.to_ascii_lowercase();
    if [".png", ".jpg", ".jpeg"].iter().any(|e| lower.ends_with(e)) {
        return Some(name.to_string());
    }
    let id = rel.file_stem()?.to_str()?;
    Some(format!("{id}.{ext}"))
}

/// Writes `bytes` to `path` durably and atomically (see [`safe_io::write_atomic`]: a new
/// temporary file with an unpredictable name beside it, `sync_all`, rename, folder synced;
/// a FIFO, device or folder at `path` refused).
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    safe_io::write_atomic(path, bytes)
}
