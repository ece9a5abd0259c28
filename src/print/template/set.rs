//! A template per set: a set file (`*.set.toml`) names a set of cards (a search query, or a
//! folder of card files) and the face templates they are drawn with. [`pack`] writes a set
//! with its templates, fonts and pictures into one file to share (a zip archive), and
//! [`unpack`] imports such a file into a folder, refusing paths that leave it and sizes over
//! the limits.

use std::collections::BTreeSet;
use std::io::{Read, Write};
use std::path::{Component, Path, PathBuf};
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::{FORMAT, SetRule};
use crate::cards::CardError;

/// The most files a shared set holds, the largest one, and all of them together (unpacked).
pub const MAX_FILES: usize = 64;
pub const MAX_ENTRY: u64 = 32 << 20;
pub const MAX_TOTAL: u64 = 128 << 20;

/// A set file: which cards, and the templates that draw them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SetFile {
    /// The set format ([`FORMAT`]); a newer one is refused.
    pub format: u32,
    pub name: String,
    /// The set's cards as a search query (`faction:legion set:promo`) ...
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub query: Option<String>,
    /// ... or a folder of card files (relative to the set file): the cards with those ids.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub folder: Option<String>,
    /// The face template files (relative to the set file), one per game and card kind.
    pub templates: Vec<String>,
}

/// A set file read, with its templates loaded.
#[derive(Debug, Clone)]
pub struct Set {
    pub file: SetFile,
    pub dir: PathBuf,
    pub faces: Vec<Arc<super::Face>>,
}

/// Reads a set file and every template it names.
pub fn load(path: &Path) -> Result<Set, String> {
    let name = path.display().to_string();
    let text =
        crate::safe_io::read_text(path, super::MAX_FILE, "sets").map_err(|e| e.to_string())?;
    let file: SetFile =
        toml::from_str(&text).map_err(|e| CardError::from_toml(&name, &text, &e).to_string())?;
    if file.format > FORMAT {
        return Err(format!(
            "{name}: set format {} is newer than this program reads ({FORMAT})",
            file.format
        ));
    }
    if file.query.is_some() == file.folder.is_some() {
        return Err(format!(
            "{name}: a set names its cards with either `query` or `folder`"
        ));
    }
    if file.templates.is_empty() || file.templates.len() > 32 {
        return Err(format!("{name}: a set has 1 to 32 templates"));
    }
    let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
    let mut faces = Vec::new();
    for t in &file.templates {
        let p = inside(&dir, t).ok_or_else(|| {
            format!("{name}: the template `{t}` is not a path inside the set's folder")
        })?;
        faces.push(Arc::new(super::load_file(&p).map_err(|e| e.to_string())?));
    }
    Ok(Set { file, dir, faces })
}

/// `rel` under `dir`, or `None` when it is absolute or climbs out with `..`.
fn inside(dir: &Path, rel: &str) -> Option<PathBuf> {
    let p = Path::new(rel);
    p.components()
        .all(|c| matches!(c, Component::Normal(_) | Component::CurDir))
        .then(|| dir.join(p))
}

impl Set {
    /// The ids of the cards in the set's folder (for a `folder` set).
    pub fn folder_ids(&self) -> Result<BTreeSet<String>, String> {
        let Some(folder) = &self.file.folder else {
            return Ok(BTreeSet::new());
        };
        let dir = inside(&self.dir, folder)
            .ok_or_else(|| format!("the folder `{folder}` is not inside the set's folder"))?;
        let mut files = Vec::new();
        let entries = std::fs::read_dir(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        for e in entries.take(10_000) {
            let p = e.map_err(|e| e.to_string())?.path();
            if p.extension().is_some_and(|x| x == "toml") && p.is_file() {
                files.push(p);
            }
        }
        let mut ids = BTreeSet::new();
        for f in files {
            let name = f.display().to_string();
            let text = crate::safe_io::read_text(&f, crate::safe_io::MAX_CARD_FILE, "card files")
                .map_err(|e| e.to_string())?;
            if let crate::cards::CardFile::Card(c) =
                crate::cards::parse(&text, &name).map_err(|e| e.to_string())?
            {
                ids.insert(c.id().to_string());
            }
        }
        Ok(ids)
    }

    /// The rules that draw the set's cards (`ids`) with its templates.
    pub fn rules(&self, ids: &BTreeSet<String>) -> Vec<SetRule> {
        self.faces
            .iter()
            .map(|f| SetRule {
                name: self.file.name.clone(),
                ids: ids.clone(),
                face: f.clone(),
            })
            .collect()
    }

    /// Every file the set uses, relative to its folder: the set file, its templates, their
    /// fonts and pictures, and the card files of its folder.
    pub fn files(&self, set_file: &Path) -> Result<Vec<String>, String> {
        let mut out = BTreeSet::new();
        out.insert(
            set_file
                .file_name()
                .and_then(|n| n.to_str())
                .ok_or("the set file has no name")?
                .to_string(),
        );
        for (t, f) in self.file.templates.iter().zip(&self.faces) {
            out.insert(t.clone());
            let base = Path::new(t).parent().unwrap_or(Path::new(""));
            for font in &f.template.fonts {
                out.insert(base.join(&font.file).to_string_lossy().into_owned());
            }
            let mut stack: Vec<&super::Layer> =
                f.template.layers.iter().map(|l| l.get_ref()).collect();
            while let Some(l) = stack.pop() {
                if let Some(src) = &l.src
                    && !src.contains('{')
                {
                    out.insert(base.join(src).to_string_lossy().into_owned());
                }
                stack.extend(l.layers.iter().flatten().map(|c| c.get_ref()));
            }
        }
        if let Some(folder) = &self.file.folder {
            let dir = inside(&self.dir, folder).ok_or("the folder leaves the set's folder")?;
            for e in std::fs::read_dir(&dir).map_err(|e| format!("{}: {e}", dir.display()))? {
                let e = e.map_err(|e| e.to_string())?;
                let n = e.file_name().to_string_lossy().into_owned();
                if n.ends_with(".toml") {
                    out.insert(Path::new(folder).join(n).to_string_lossy().into_owned());
                }
            }
        }
        Ok(out.into_iter().collect())
    }
}

/// Writes the set at `set_file` with every file it uses into one zip file at `out`
/// (atomically). Returns how many files it holds.
pub fn pack(set_file: &Path, out: &Path) -> Result<usize, String> {
    let set = load(set_file)?;
    let files = set.files(set_file)?;
    if files.len() > MAX_FILES {
        return Err(format!(
            "{} files; a shared set holds at most {MAX_FILES}",
            files.len()
        ));
    }
    let mut buf = std::io::Cursor::new(Vec::new());
    {
        let mut zip = zip::ZipWriter::new(&mut buf);
        let opts = zip::write::SimpleFileOptions::default()
            .compression_method(zip::CompressionMethod::Deflated);
        for f in &files {
            let bytes = crate::safe_io::read_bytes(&set.dir.join(f), MAX_ENTRY, "set files")
                .map_err(|e| e.to_string())?;
            zip.start_file(f.replace('\\', "/"), opts)
                .map_err(|e| e.to_string())?;
            zip.write_all(&bytes).map_err(|e| e.to_string())?;
        }
        zip.finish().map_err(|e| e.to_string())?;
    }
    crate::safe_io::write_atomic(out, buf.get_ref())
        .map_err(|e| format!("could not write {}: {e}", out.display()))?;
    Ok(files.len())
}

/// Imports a shared set into the folder `dest` (created if needed) and returns the set
/// file's path there. Refused whole, before anything is written, when an entry would land
/// outside `dest`, when there are too many or too large entries, or when the archive holds no
/// set file; the set is then loaded to check it.
pub fn unpack(archive: &Path, dest: &Path) -> Result<PathBuf, String> {
    let bytes =
        crate::safe_io::read_bytes(archive, MAX_TOTAL, "shared sets").map_err(|e| e.to_string())?;
    let mut zip = zip::ZipArchive::new(std::io::Cursor::new(bytes))
        .map_err(|e| format!("{}: not a shared set (a zip file): {e}", archive.display()))?;
    if zip.len() > MAX_FILES {
        return Err(format!(
            "{} files; a shared set holds at most {MAX_FILES}",
            zip.len()
        ));
    }
    let mut entries = Vec::new();
    let mut total = 0u64;
    for i in 0..zip.len() {
        let mut e = zip.by_index(i).map_err(|e| e.to_string())?;
        if e.is_dir() {
            continue;
        }
        let name = e
            .name()
            .map(|n| n.to_string())
            .unwrap_or_else(|_| "an entry".into());
        let rel = e
            .enclosed_name()
            .filter(|p| inside(Path::new(""), &p.to_string_lossy()).is_some())
            .ok_or_else(|| format!("`{name}` would be written outside the folder; refused"))?;
        if e.size() > MAX_ENTRY {
            return Err(format!(
                "`{name}` is larger than {}",
                crate::safe_io::size_text(MAX_ENTRY)
            ));
        }
        let mut data = Vec::new();
        (&mut e)
            .take(MAX_ENTRY + 1)
            .read_to_end(&mut data)
            .map_err(|err| format!("`{name}`: {err}"))?;
        if data.len() as u64 > MAX_ENTRY {
            return Err(format!(
                "`{name}` is larger than {}",
                crate::safe_io::size_text(MAX_ENTRY)
            ));
        }
        total += data.len() as u64;
        if total > MAX_TOTAL {
            return Err(format!(
                "the set unpacks to more than {}",
                crate::safe_io::size_text(MAX_TOTAL)
            ));
        }
        entries.push((rel, data));
    }
    let set_file = entries
        .iter()
        .filter(|(p, _)| p.components().count() == 1)
        .find(|(p, _)| p.to_string_lossy().ends_with(".set.toml"))
        .map(|(p, _)| p.clone())
        .ok_or("the archive holds no set file (NAME.set.toml at its top)")?;
    for (rel, data) in &entries {
        let to = dest.join(rel);
        if let Some(parent) = to.parent() {
            std::fs::create_dir_all(parent).map_err(|e| format!("{}: {e}", parent.display()))?;
        }
        crate::safe_io::write_atomic(&to, data).map_err(|e| format!("{}: {e}", to.display()))?;
    }
    let path = dest.join(set_file);
    load(&path)?;
    Ok(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_set_with_its_font_and_picture_travels_as_one_file() {
        let src = tempfile::tempdir().unwrap();
        let d = src.path();
        std::fs::create_dir_all(d.join("fonts")).unwrap();
        std::fs::write(d.join("fonts/title.ttf"), crate::print::fonts::BOLD_TTF).unwrap();
        let png = image::RgbImage::from_pixel(4, 4, image::Rgb([200, 10, 10]));
        png.save(d.join("logo.png")).unwrap();
        let tpl = "format = 1\nname = \"promo\"\ngame = \"iconica\"\nkinds = [\"character\"]\n\
            [[fonts]]\nname = \"title\"\nfile = \"fonts/title.ttf\"\n\n\
            [[layers]]\ntype = \"image\"\nsrc = \"logo.png\"\n\n\
            [[layers]]\ntype = \"text\"\ntext = \"{name}\"\nsize = 4\nfont = \"title\"\n";
        std::fs::write(d.join("face.toml"), tpl).unwrap();
        std::fs::write(
            d.join("promo.set.toml"),
            "format = 1\nname = \"promo\"\nquery = \"faction:legion\"\ntemplates = [\"face.toml\"]\n",
        )
        .unwrap();
        let out = tempfile::tempdir().unwrap();
        let archive = out.path().join("promo.zip");
        assert_eq!(pack(&d.join("promo.set.toml"), &archive).unwrap(), 4);
        let dest = tempfile::tempdir().unwrap();
        let set_path = unpack(&archive, dest.path()).unwrap();
        let set = load(&set_path).unwrap();
        assert_eq!(set.file.query.as_deref(), Some("faction:legion"));
        assert!(dest.path().join("fonts/title.ttf").is_file());
        assert!(dest.path().join("logo.png").is_file());
        // The imported template draws its picture.
        let card = crate::catalogue::bundled_cards().unwrap().remove(0);
        let img = crate::print::render::render_face(
            &set.faces[0],
            Some(&card),
            63,
            88,
            &Default::default(),
        );
        let i = ((80 * img.width + 50) * 4) as usize;
        assert_eq!(&img.rgba[i..i + 3], &[200, 10, 10]);
    }

    #[test]
    fn an_archive_reaching_outside_its_folder_is_refused_whole() {
        let dir = tempfile::tempdir().unwrap();
        let archive = dir.path().join("evil.zip");
        let mut buf = std::io::Cursor::new(Vec::new());
        {
            let mut z = zip::ZipWriter::new(&mut buf);
            let o = zip::write::SimpleFileOptions::default();
            z.start_file("x.set.toml", o).unwrap();
            z.write_all(b"format = 1").unwrap();
            z.start_file("../escaped.txt", o).unwrap();
            z.write_all(b"gotcha").unwrap();
            z.finish().unwrap();
        }
        std::fs::write(&archive, buf.get_ref()).unwrap();
        let dest = dir.path().join("in");
        let e = unpack(&archive, &dest).unwrap_err();
        assert!(e.contains("outside the folder"), "{e}");
        assert!(!dir.path().join("escaped.txt").exists());
        assert!(!dest.join("x.set.toml").exists());
        std::fs::write(&archive, b"not a zip").unwrap();
        assert!(
            unpack(&archive, &dest)
                .unwrap_err()
                .contains("not a shared set")
        );
    }
}

#[cfg(test)]
mod docs_example {
    /// The worked example of `docs/templates.md` loads (with a font file where it says).
    #[test]
    fn the_documented_example_is_a_valid_template() {
        let doc = include_str!("../../../docs/templates.md");
        let start = doc.find("```toml\nformat = 1").expect("the example") + "```toml\n".len();
        let text = &doc[start..start + doc[start..].find("```").unwrap()];
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("fonts")).unwrap();
        std::fs::write(
            dir.path().join("fonts/MyTitleFont.ttf"),
            crate::print::fonts::BOLD_TTF,
        )
        .unwrap();
        let face = super::super::load(text, "example.toml", Some(dir.path().into()))
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(face.template.layers.len(), 6);
        let card = crate::cards::bundled()
            .into_iter()
            .find_map(|(p, t)| match crate::cards::parse(t, &p) {
                Ok(crate::cards::CardFile::Card(c)) if c.game() == crate::cards::Game::Iconica => {
                    Some(c)
                }
                _ => None,
            })
            .unwrap();
        let img =
            crate::print::render::render_face(&face, Some(&card), 126, 176, &Default::default());
        assert!(img.rgba.chunks(4).any(|p| p[..3] != img.rgba[..3]));
    }
}
