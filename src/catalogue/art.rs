//! Card art kept with the catalogue: on import, a card's picture file (found relative to
//! the card file, or the sheet, it came from) is copied into the catalogue's art folder
//! (`art/` beside the catalogue file) as `<id>.<ext>`, and the card names that copy. A
//! project can then move, or its image folder go away, and the cards still print.

use std::path::{Path, PathBuf};

use super::Catalogue;
use crate::cards::Card;
use crate::safe_io::StagedFile;

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

/// Art checked and written under temporary names in the catalogue's art folder, moved to
/// its names only when the import that read it commits ([`StagedArt::commit`]): a refused
/// or killed import never replaces a card's art. Dropped without a commit, the temporary
/// files are removed (and the art folder too, if this import made it and it is empty).
pub struct StagedArt {
    dir: PathBuf,
    existed: bool,
    files: Vec<StagedFile>,
    committed: bool,
}

impl StagedArt {
    /// Art for the catalogue whose art folder is `dir`.
    pub fn new(dir: &Path) -> StagedArt {
        StagedArt {
            dir: dir.to_path_buf(),
            existed: dir.exists(),
            files: Vec::new(),
            committed: false,
        }
    }

    /// Checks the card's art (relative to `base`) and stages its copy as `<id>.<png|jpg>`,
    /// pointing the card at that name. Art already in the art folder, or a file that does
    /// not exist (the card then prints with a placeholder, and preflight says so), leaves
    /// the card as it is. Only a regular file of at most 32 MiB that decodes as a PNG or
    /// JPEG within `picture`'s limits is adopted; anything else is an error (a row with
    /// `art=/etc/passwd` copies nothing).
    pub fn add(&mut self, card: &mut Card, base: &Path) -> std::io::Result<()> {
        if let Some(f) = stage(card, base, &self.dir)? {
            self.files.push(f);
        }
        Ok(())
    }

    /// A batch for one thread of a parallel read, gathered back with [`StagedArt::extend`]
    /// (only this batch removes a folder it made).
    pub fn part(&self) -> StagedArt {
        StagedArt {
            dir: self.dir.clone(),
            existed: true,
            files: Vec::new(),
            committed: false,
        }
    }

    /// Another batch's files (the batches of a parallel read, gathered).
    pub fn extend(&mut self, mut other: StagedArt) {
        self.files.append(&mut other.files);
    }

    /// Moves every staged file to its name and syncs the art folder.
    pub fn commit(mut self) -> std::io::Result<()> {
        self.committed = true;
        let any = !self.files.is_empty();
        for f in self.files.drain(..) {
            f.commit()?;
        }
        if any {
            crate::safe_io::sync_dir(&self.dir)?;
        }
        Ok(())
    }
}

impl Drop for StagedArt {
    fn drop(&mut self) {
        self.files.clear();
        if !self.committed && !self.existed {
            // Only an empty folder is removed; one another import filled meanwhile stays.
            let _ = std::fs::remove_dir(&self.dir);
        }
    }
}

/// Stages the card's art as described in [`StagedArt::add`].
fn stage(card: &mut Card, base: &Path, art_dir: &Path) -> std::io::Result<Option<StagedFile>> {
    let Some(art) = card.art() else {
        return Ok(None);
    };

    let src = art_source(art, base);
    if !src.is_file() {
        return Ok(None);
    }
    // The card's own copy in the art folder (`<id>.<ext>`): the card names it as it is.
    let own = match (src.canonicalize(), art_dir.canonicalize()) {
        (Ok(a), Ok(d)) => {
            a.parent() == Some(d.as_path())
                && a.file_stem().and_then(|s| s.to_str()) == Some(card.id())
        }
        _ => false,
    };
    if own {
        if let Some(name) = src.file_name().and_then(|n| n.to_str()) {
            let name = name.to_string();
            card.set_art(Some(name));
        }
        return Ok(None);
    }
    // A regular file of at most `safe_io::MAX_PORTRAIT_FILE` (a FIFO or a huge file is
    // refused), and a picture print can draw.
    let bytes = crate::safe_io::read_bytes(&src, crate::safe_io::MAX_PORTRAIT_FILE, "art files")
        .map_err(|e| std::io::Error::other(e.to_string()))?;
    let picture = crate::picture::decode(&bytes).map_err(|e| {
        std::io::Error::other(format!(
            "`{}` is not art print can draw: {e}",
            crate::safe_io::excerpt(&src.display().to_string(), 120)
        ))
    })?;
    let name = format!("{}.{}", card.id(), picture.extension);
    drop(picture);
    let dst = art_dir.join(&name);
    card.set_art(Some(name));
    // The same bytes already there: nothing to write.
    if crate::safe_io::read_bytes(&dst, crate::safe_io::MAX_PORTRAIT_FILE, "art files")
        .is_ok_and(|old| old == bytes)
    {
        return Ok(None);
    }
    std::fs::create_dir_all(art_dir)?;
    StagedFile::write(&dst, &bytes).map(Some)
}

/// Copies the card's art (relative to `base`) into `art_dir` now and points the card at the
/// copy (the app's save of one card; imports stage their art with [`StagedArt`]).
pub fn adopt_art(card: &mut Card, base: &Path, art_dir: &Path) -> std::io::Result<()> {
    let mut staged = StagedArt::new(art_dir);
    staged.add(card, base)?;
    staged.commit()
}

/// The card as [`adopt_art`] would leave it once its picture is already copied: art named by
/// a path outside `art_dir` (relative to `base`) names the copy (`<id>.png` or `<id>.jpg`) when the copy
/// in `art_dir` holds the same bytes. Nothing is written. A picture not yet copied, or changed
/// since, leaves the card as it is, so it still differs from the stored card.
pub fn as_adopted(card: &Card, base: &Path, art_dir: &Path) -> Card {
    let mut out = card.clone();
    let Some(art) = card.art() else { return out };
    let src = art_source(art, base);
    if !src.is_file() {
        return out;
    }
    let read = |p: &Path| {
        crate::safe_io::read_bytes(p, crate::safe_io::MAX_PORTRAIT_FILE, "art files").ok()
    };
    // The copy is named by what its bytes are (`picture::Decoded::extension`).
    for ext in ["png", "jpg"] {
        let name = format!("{}.{ext}", card.id());
        if art == name {
            return out;
        }
        let dst = art_dir.join(&name);
        if dst.is_file()
            && let (Some(a), Some(b)) = (read(&src), read(&dst))
            && a == b
        {
            out.set_art(Some(name));
            return out;
        }
    }
    out
}
