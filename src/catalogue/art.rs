//! Card art kept with the catalogue: on import, a card's picture file (found relative to
//! the card file, or the sheet, it came from) is copied into the catalogue's art folder
//! (`art/` beside the catalogue file) as `<id>.<ext>`, and the card names that copy. A
//! project can then move, or its image folder go away, and the cards still print.

use std::path::{Path, PathBuf};

use super::Catalogue;
use crate::cards::Card;

impl Catalogue {
    /// The folder the catalogue keeps card art in (`art/` beside the catalogue file); `None`
    /// for a catalogue in memory.
    pub fn art_dir(&self) -> Option<PathBuf> {
        let path = self.conn().path().filter(|p| !p.is_empty())?;
        Some(Path::new(path).parent()?.join("art"))
    }
}

/// Where a card's art file is, read relative to `base` (the card file's folder).
pub fn art_source(art: &str, base: &Path) -> PathBuf {
    let p = Path::new(art);
    if p.is_absolute() {
        p.to_path_buf()
    } else {
        base.join(p)
    }
}

/// The name [`adopt_art`] gives the copy of the picture at `src` for the card `id`.
fn copy_name(id: &str, src: &Path) -> String {
    let ext = src
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase)
        .unwrap_or_else(|| "png".into());
    format!("{id}.{ext}")
}

/// The card as [`adopt_art`] would leave it once its picture is already copied: art named by
/// a path outside `art_dir` (relative to `base`) names the copy (`<id>.<ext>`) when the copy
/// in `art_dir` holds the same bytes. Nothing is written. A picture not yet copied, or changed
/// since, leaves the card as it is, so it still differs from the stored card.
pub fn as_adopted(card: &Card, base: &Path, art_dir: &Path) -> Card {
    let mut out = card.clone();
    let Some(art) = card.art() else { return out };
    let src = art_source(art, base);
    let name = copy_name(card.id(), &src);
    if art == name || !src.is_file() {
        return out;
    }
    let read = |p: &Path| {
        crate::safe_io::read_bytes(p, crate::safe_io::MAX_PORTRAIT_FILE, "art files").ok()
    };
    let dst = art_dir.join(&name);
    if dst.is_file()
        && let (Some(a), Some(b)) = (read(&src), read(&dst))
        && a == b
    {
        out.set_art(Some(name));
    }
    out
}

/// Copies the card's art (relative to `base`) into `art_dir` as `<id>.<ext>` and points the
/// card at the copy. Art already in `art_dir`, or a file that does not exist (the card then
/// prints with a placeholder, and preflight says so), leaves the card as it is.
pub fn adopt_art(card: &mut Card, base: &Path, art_dir: &Path) -> std::io::Result<()> {
    let Some(art) = card.art() else { return Ok(()) };
    let src = art_source(art, base);
    if !src.is_file() {
        return Ok(());
    }
    let name = copy_name(card.id(), &src);
    let dst = art_dir.join(&name);
    let same = match (src.canonicalize(), dst.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    };
    if !same {
        std::fs::create_dir_all(art_dir)?;
        // A regular file of at most `safe_io::MAX_PORTRAIT_FILE` (a FIFO or a huge file is refused).
        let bytes =
            crate::safe_io::read_bytes(&src, crate::safe_io::MAX_PORTRAIT_FILE, "art files")
                .map_err(|e| std::io::Error::other(e.to_string()))?;
        super::write_atomic(&dst, &bytes)?;
    }
    card.set_art(Some(name));
    Ok(())
}
