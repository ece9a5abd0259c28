//! The whole export: cards -> distinct faces drawn once, in parallel, as vector PDF forms ->
//! sheets (PDF); or one PNG per card rendered at `dpi`; files are written to a temporary file beside the target and renamed, so
//! a failed export leaves nothing behind.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use rayon::prelude::*;

use super::face::{Assets, Side};
use super::layout::{LayoutError, Mark, Paper, SheetLayout, SheetSpec};
use super::pdf::{self, PageContent, PdfError, Placement};
use super::render::{self, RenderSpec};
use super::vector::{self, VectorFace};
use crate::cards::{Card, Game};

/// How to print.
#[derive(Debug, Clone)]
pub struct ExportOptions {
    pub paper: Paper,
    pub card_w: f32,
    pub card_h: f32,
    pub bleed: f32,
    pub gutter: f32,
    pub crop_marks: bool,
    pub backs: bool,
    /// Shift of every back (x right, y down, on the backs page), in mm.
    pub back_offset: (f32, f32),
    /// Resolution of PNG exports (the PDF is vector: its faces have no resolution).
    pub dpi: f32,
    pub assets: Assets,
}

impl ExportOptions {
    /// A4, poker cards, no bleed, 300 dpi.
    pub fn new(paper: Paper) -> ExportOptions {
        ExportOptions {
            paper,
            card_w: 63.0,
            card_h: 88.0,
            bleed: 0.0,
            gutter: 0.0,
            crop_marks: false,
            backs: false,
            back_offset: (0.0, 0.0),
            dpi: 300.0,
            assets: Assets::default(),
        }
    }

    pub fn layout(&self) -> Result<SheetLayout, LayoutError> {
        SheetLayout::new(SheetSpec {
            paper: self.paper,
            card_w: self.card_w,
            card_h: self.card_h,
            bleed: self.bleed,
            gutter: self.gutter,
        })
    }

    fn spec(&self) -> RenderSpec {
        RenderSpec {
            width_mm: self.card_w,
            height_mm: self.card_h,
            bleed_mm: self.bleed,
            dpi: self.dpi,
        }
    }
}

/// Why an export failed.
#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    #[error(transparent)]
    Layout(#[from] LayoutError),
    #[error(transparent)]
    Pdf(#[from] PdfError),
    #[error("nothing to print: the selection is empty")]
    Empty,
    #[error(
        "a {w} x {h} mm card at {dpi} dpi is too large to render; lower --dpi or the card size"
    )]
    TooLarge { w: f32, h: f32, dpi: f32 },
    #[error("cannot convert to CMYK for the press: {0}")]
    Press(String),
    #[error("cannot write {path}: {message}")]
    Write { path: String, message: String },
}

/// A distinct picture: a card side, or a game's plain back.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum FaceKey<'a> {
    Front(&'a str),
    Other(&'a str),
    GameBack(Game),
}

fn back_key(c: &Card) -> FaceKey<'_> {
    match c {
        Card::Iconoclasm(_) => FaceKey::Other(c.id()),
        _ => FaceKey::GameBack(c.game()),
    }
}

/// Distinct faces of `cards` (fronts, and backs if asked) with each card's indices into them.
/// Distinct faces to render, and per card the index of its front and of its back.
type Faces<'a> = (Vec<(FaceKey<'a>, &'a Card)>, Vec<(usize, Option<usize>)>);

fn faces<'a>(cards: &'a [Card], backs: bool) -> Faces<'a> {
    let mut index: HashMap<FaceKey<'a>, usize> = HashMap::new();
    let mut list = Vec::new();
    let mut add = |k: FaceKey<'a>, c: &'a Card| {
        *index.entry(k).or_insert_with(|| {
            list.push((k, c));
            list.len() - 1
        })
    };
    let mut per_card = Vec::with_capacity(cards.len());
    for c in cards {
        let f = add(FaceKey::Front(c.id()), c);
        let b = backs.then(|| add(back_key(c), c));
        per_card.push((f, b));
    }
    (list, per_card)
}

/// Draws every distinct face in parallel as PDF content.
fn draw_faces(list: &[(FaceKey<'_>, &Card)], opts: &ExportOptions) -> Vec<VectorFace> {
    let (w, h, b) = (opts.card_w, opts.card_h, opts.bleed);
    list.par_iter()
        .map(|(k, c)| match k {
            FaceKey::Front(_) => vector::draw(c, Side::Front, w, h, b, &opts.assets),
            FaceKey::Other(_) => vector::draw(c, Side::Back, w, h, b, &opts.assets),
            FaceKey::GameBack(g) => vector::draw_back(*g, w, h, b),
        })
        .collect()
}

/// The pages of a print job: a fronts page for every `per_page` cards, each followed by its
/// backs page when backs are asked for.
pub fn pages(
    layout: &SheetLayout,
    per_card: &[(usize, Option<usize>)],
    opts: &ExportOptions,
) -> Vec<PageContent> {
    let mut out = Vec::new();
    for chunk in per_card.chunks(layout.per_page()) {
        let faces = chunk
            .iter()
            .enumerate()
            .map(|(k, (f, _))| Placement {
                face: *f,
                rect: layout.front_bleed(k),
            })
            .collect();
        let marks = if opts.crop_marks {
            layout.crop_marks(chunk.len())
        } else {
            Vec::new()
        };
        out.push(PageContent {
            faces,
            marks,
            labels: Vec::new(),
        });
        if opts.backs {
            let faces = chunk
                .iter()
                .enumerate()
                .filter_map(|(k, (_, b))| {
                    b.map(|b| Placement {
                        face: b,
                        rect: layout.back_bleed(k, opts.back_offset),
                    })
                })
                .collect();
            out.push(PageContent {
                faces,
                marks: Vec::new(),
                labels: Vec::new(),
            });
        }
    }
    out
}

/// The print-and-play PDF of `cards`.
pub fn pdf_bytes(cards: &[Card], opts: &ExportOptions) -> Result<Vec<u8>, ExportError> {
    if cards.is_empty() {
        return Err(ExportError::Empty);
    }
    let layout = opts.layout()?;
    let (list, per_card) = faces(cards, opts.backs);
    let faces = draw_faces(&list, opts);
    let pages = pages(&layout, &per_card, opts);
    Ok(pdf::write(opts.paper, &pages, &faces, opts.backs)?)
}

/// Writes the PDF of `cards` to `out` (atomically).
pub fn export_pdf(cards: &[Card], opts: &ExportOptions, out: &Path) -> Result<usize, ExportError> {
    let tmp = TempFile::create(out)?;
    let bytes = pdf_bytes(cards, opts)?;
    let pages = opts.layout()?.pages_for(cards.len()) * if opts.backs { 2 } else { 1 };
    tmp.finish(&bytes)?;
    Ok(pages)
}

/// Writes one PNG per distinct card (`<id>.png`, and `<id>-back.png` with backs) into `dir`
/// at `opts.dpi`, bleed included. Returns the files written. All or nothing: the PNGs are
/// rendered into a temporary folder and moved into `dir` only when every one is written.
pub fn export_pngs(
    cards: &[Card],
    opts: &ExportOptions,
    dir: &Path,
) -> Result<Vec<PathBuf>, ExportError> {
    if cards.is_empty() {
        return Err(ExportError::Empty);
    }
    let werr = |p: &Path, e: std::io::Error| ExportError::Write {
        path: p.display().to_string(),
        message: e.to_string(),
    };
    let mut seen = std::collections::HashSet::new();
    let distinct: Vec<&Card> = cards.iter().filter(|c| seen.insert(c.id())).collect();
    for c in &distinct {
        if !crate::cards::valid_id(c.id()) {
            return Err(werr(
                dir,
                std::io::Error::other(format!(
                    "card id `{}` cannot name a file",
                    crate::safe_io::excerpt(c.id(), 40)
                )),
            ));
        }
    }
    let stage = crate::safe_io::StagedDir::new(dir).map_err(|e| werr(dir, e))?;
    let spec = opts.spec();
    let written: Vec<PathBuf> = distinct
        .par_iter()
        .map(|c| {
            let mut written = Vec::new();
            let mut sides = vec![(Side::Front, format!("{}.png", c.id()))];
            if opts.backs {
                sides.push((Side::Back, format!("{}-back.png", c.id())));
            }
            for (side, name) in sides {
                let img =
                    render::render(c, side, &spec, &opts.assets).ok_or(ExportError::TooLarge {
                        w: opts.card_w,
                        h: opts.card_h,
                        dpi: opts.dpi,
                    })?;
                let path = dir.join(&name);
                stage
                    .write(Path::new(&name), &img.encode_png(Some(opts.dpi)))
                    .map_err(|e| werr(&path, e))?;
                written.push(path);
            }
            Ok(written)
        })
        .collect::<Vec<_>>()
        .into_iter()
        .try_fold(
            Vec::new(),
            |mut acc, r: Result<Vec<PathBuf>, ExportError>| {
                acc.extend(r?);
                Ok::<_, ExportError>(acc)
            },
        )?;
    stage.commit().map_err(|e| werr(dir, e))?;
    Ok(written)
}

/// Writes the files `names` into `dir`, the bytes of the `i`-th made by `make(i)`, in
/// parallel. All or nothing: the files are written into a temporary folder beside `dir`
/// (`safe_io::StagedDir`) and moved into it only when every one is written. Returns the
/// paths written.
pub(super) fn write_dir(
    dir: &Path,
    names: &[String],
    make: impl Fn(usize) -> Result<Vec<u8>, ExportError> + Sync,
) -> Result<Vec<PathBuf>, ExportError> {
    let werr = |p: &Path, e: std::io::Error| ExportError::Write {
        path: p.display().to_string(),
        message: e.to_string(),
    };
    let stage = crate::safe_io::StagedDir::new(dir).map_err(|e| werr(dir, e))?;
    let written = (0..names.len())
        .into_par_iter()
        .map(|i| {
            let path = dir.join(&names[i]);
            let bytes = make(i)?;
            stage
                .write(Path::new(&names[i]), &bytes)
                .map_err(|e| werr(&path, e))?;
            Ok(path)
        })
        .collect::<Result<Vec<PathBuf>, ExportError>>()?;
    stage.commit().map_err(|e| werr(dir, e))?;
    Ok(written)
}

/// The calibration sheet: a fronts page with plain crosses and a backs page with millimetre
/// scales around the mirrored crosses (moved by `opts.back_offset`). Printed duplex and held
/// against a light, the front cross shows where it falls on the back's scale: that reading,
/// `XxY` (x right, y down as seen on the backs page), is the `--back-offset` to use.
pub fn calibration_pdf(opts: &ExportOptions) -> Result<Vec<u8>, ExportError> {
    let p = opts.paper;
    let spots = [
        (0.5, 0.5),
        (0.2, 0.15),
        (0.8, 0.15),
        (0.2, 0.85),
        (0.8, 0.85),
    ];
    let mut front = PageContent::default();
    let mut back = PageContent::default();
    for (fx, fy) in spots {
        let (x, y) = (p.width * fx, p.height * fy);
        cross(&mut front.marks, x, y, 8.0);
        let (bx, by) = (p.width - x + opts.back_offset.0, y + opts.back_offset.1);
        cross(&mut back.marks, bx, by, 12.0);
        for t in -10..=10i32 {
            let len = if t == 0 {
                3.0
            } else if t % 5 == 0 {
                2.0
            } else {
                1.0
            };
            let d = t as f32;
            back.marks.push(Mark {
                from: (bx + d, by + 1.0),
                to: (bx + d, by + 1.0 + len),
            });
            back.marks.push(Mark {
                from: (bx - 1.0 - len, by + d),
                to: (bx - 1.0, by + d),
            });
        }
        for t in [-10i32, -5, 5, 10] {
            back.labels
                .push((bx + t as f32 - 1.2, by + 7.5, 2.2, t.to_string()));
            back.labels
                .push((bx - 9.0, by + t as f32 + 0.8, 2.2, t.to_string()));
        }
    }
    front.labels.push((
        15.0,
        p.height * 0.5 - 12.0,
        3.5,
        "deckwright calibration: print double-sided, flip on the long edge.".into(),
    ));
    front.labels.push((
        15.0,
        p.height * 0.5 - 7.0,
        3.5,
        "Then hold the sheet against a light and look at the other side.".into(),
    ));
    back.labels.push((
        15.0,
        p.height * 0.5 - 17.0,
        3.5,
        "Read where each front cross falls on these scales (mm, x right, y down).".into(),
    ));
    back.labels.push((
        15.0,
        p.height * 0.5 - 12.0,
        3.5,
        format!(
            "Export with --back-offset XxY adding that reading (now {}x{}).",
            opts.back_offset.0, opts.back_offset.1
        ),
    ));
    Ok(pdf::write(p, &[front, back], &[], true)?)
}

fn cross(marks: &mut Vec<Mark>, x: f32, y: f32, arm: f32) {
    marks.push(Mark {
        from: (x - arm, y),
        to: (x + arm, y),
    });
    marks.push(Mark {
        from: (x, y - arm),
        to: (x, y + arm),
    });
}

/// Writes the calibration sheet to `out` (atomically).
pub fn export_calibration(opts: &ExportOptions, out: &Path) -> Result<(), ExportError> {
    let tmp = TempFile::create(out)?;
    let bytes = calibration_pdf(opts)?;
    tmp.finish(&bytes)
}

/// The PDF being written: a temporary file beside the target (`safe_io::Staged`: an
/// unpredictable name, synced, renamed over the target), removed if dropped unfinished.
pub(super) struct TempFile {
    staged: crate::safe_io::Staged,
    target: PathBuf,
}

impl TempFile {
    pub(super) fn create(target: &Path) -> Result<TempFile, ExportError> {
        let werr = |m: String| ExportError::Write {
            path: target.display().to_string(),
            message: m,
        };
        if target.is_dir() {
            return Err(werr(
                "it is a directory; give a file name such as cards.pdf".into(),
            ));
        }
        let dir = crate::safe_io::folder_of(target);
        if !dir.is_dir() {
            return Err(werr(format!("the folder {} does not exist", dir.display())));
        }
        let staged = crate::safe_io::Staged::new(target).map_err(|e| werr(e.to_string()))?;
        Ok(TempFile {
            staged,
            target: target.to_path_buf(),
        })
    }

    pub(super) fn finish(mut self, bytes: &[u8]) -> Result<(), ExportError> {
        use std::io::Write;
        let werr = |m: String| ExportError::Write {
            path: self.target.display().to_string(),
            message: m,
        };
        self.staged
            .write_all(bytes)
            .map_err(|e| werr(e.to_string()))?;
        let target = self.target.clone();
        self.staged.commit().map_err(|e| ExportError::Write {
            path: target.display().to_string(),
            message: e.to_string(),
        })
    }
}
