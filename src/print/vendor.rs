//! Print vendors' presets as data: what MakePlayingCards, TheGameCrafter and DriveThruCards
//! ask for, and the export that produces it.
//!
//! | preset | writes | one card |
//! | --- | --- | --- |
//! | `mpc` | a folder of PNGs | 822 x 1122 px at 300 dpi: a 750 x 1050 px poker card (2.5 x 3.5 in) and 36 px of bleed each side |
//! | `tgc` | a folder of PNGs | 825 x 1125 px RGB at 300 dpi: the poker card and 1/8 in of bleed |
//! | `drivethru` | one PDF/X-1a:2003 file, CMYK, total ink at most 240% | a page of 2.75 x 3.75 in (the card and 1/8 in of bleed, trim and bleed boxes set), each card's back, then its front |
//!
//! A PNG folder holds `<id>.png` for every distinct card front, `<id>-back.png` for a card
//! with a back of its own (an Iconoclasm element), and `back-<game>.png`, the plain back of
//! each game in the selection.

use std::path::{Path, PathBuf};

use super::export::{self, ExportError, write_dir};
use super::face::{Assets, Side};
use super::preflight;
use super::press;
use super::render;
use crate::cards::{Card, Game};

/// The resolution every vendor preset uses.
pub const DPI: f32 = 300.0;
/// A poker card as the vendors size it: 2.5 x 3.5 in.
pub const CARD_MM: (f32, f32) = (63.5, 88.9);

/// A print vendor's specification.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Preset {
    /// MakePlayingCards.
    Mpc,
    /// TheGameCrafter.
    Tgc,
    /// DriveThruCards.
    DriveThru,
}

impl Preset {
    pub const ALL: [Preset; 3] = [Preset::Mpc, Preset::Tgc, Preset::DriveThru];

    /// The name `--preset` takes.
    pub fn name(self) -> &'static str {
        match self {
            Preset::Mpc => "mpc",
            Preset::Tgc => "tgc",
            Preset::DriveThru => "drivethru",
        }
    }

    pub fn parse(s: &str) -> Option<Preset> {
        Preset::ALL
            .into_iter()
            .find(|p| p.name().eq_ignore_ascii_case(s))
    }

    /// The vendor, as people know it.
    pub fn title(self) -> &'static str {
        match self {
            Preset::Mpc => "MakePlayingCards",
            Preset::Tgc => "TheGameCrafter",
            Preset::DriveThru => "DriveThruCards",
        }
    }

    /// Whether the preset writes a folder of PNGs (else one PDF file).
    pub fn writes_folder(self) -> bool {
        !matches!(self, Preset::DriveThru)
    }

    /// A PNG preset's card image: trim box (w, h) and bleed, in pixels at [`DPI`].
    /// TheGameCrafter's 825 x 1125 has an odd 37.5 px bleed: the trim box takes the half
    /// pixel (751 x 1051 and 37 px each side).
    pub fn pixels(self) -> Option<((u32, u32), u32)> {
        match self {
            Preset::Mpc => Some(((750, 1050), 36)),
            Preset::Tgc => Some(((751, 1051), 37)),
            Preset::DriveThru => None,
        }
    }

    /// Bleed in millimetres each side.
    pub fn bleed_mm(self) -> f32 {
        match self {
            Preset::Mpc => 36.0 / DPI * 25.4,
            Preset::Tgc | Preset::DriveThru => 25.4 / 8.0,
        }
    }
}

/// What a preset export wrote.
#[derive(Debug, Clone, PartialEq)]
pub struct PresetReport {
    pub files: Vec<PathBuf>,
    /// Pages of the PDF (DriveThruCards).
    pub pages: usize,
}

/// Exports `cards` for `preset` to `out` (a folder for PNG presets, a PDF file for
/// DriveThruCards). All or nothing.
pub fn export(
    cards: &[Card],
    preset: Preset,
    assets: &Assets,
    out: &Path,
) -> Result<PresetReport, ExportError> {
    if cards.is_empty() {
        return Err(ExportError::Empty);
    }
    match preset.pixels() {
        Some((trim, bleed)) => {
            let files = export_pngs(cards, trim, bleed, assets, out)?;
            Ok(PresetReport { files, pages: 0 })
        }
        None => {
            let tmp = export::TempFile::create(out)?;
            let bytes = drivethru_pdf(cards, assets)?;
            tmp.finish(&bytes)?;
            Ok(PresetReport {
                files: vec![out.to_path_buf()],
                pages: cards.len() * 2,
            })
        }
    }
}

/// What a PNG file of a preset folder holds.
#[derive(Debug, Clone, Copy)]
enum Picture<'a> {
    Side(&'a Card, Side),
    Back(Game),
}

/// The files of a PNG folder: each distinct front, own backs, and each game's plain back.
fn pictures(cards: &[Card]) -> Vec<(String, Picture<'_>)> {
    let mut seen = std::collections::HashSet::new();
    let mut games = Vec::new();
    let mut out = Vec::new();
    for c in cards.iter().filter(|c| seen.insert(c.id())) {
        out.push((format!("{}.png", c.id()), Picture::Side(c, Side::Front)));
        if matches!(c, Card::Iconoclasm(_)) {
            out.push((format!("{}-back.png", c.id()), Picture::Side(c, Side::Back)));
        } else if !games.contains(&c.game()) {
            games.push(c.game());
        }
    }
    for g in games {
        out.push((format!("back-{}.png", g.as_str()), Picture::Back(g)));
    }
    out
}

fn export_pngs(
    cards: &[Card],
    trim: (u32, u32),
    bleed: u32,
    assets: &Assets,
    dir: &Path,
) -> Result<Vec<PathBuf>, ExportError> {
    let files = pictures(cards);
    let names: Vec<String> = files.iter().map(|f| f.0.clone()).collect();
    let too_large = || ExportError::TooLarge {
        w: CARD_MM.0,
        h: CARD_MM.1,
        dpi: DPI,
    };
    write_dir(dir, &names, |i| {
        let img = match files[i].1 {
            Picture::Side(c, side) => render::render_pixels(c, side, trim, bleed, assets),
            Picture::Back(g) => render::render_back_pixels(g, trim, bleed),
        }
        .ok_or_else(too_large)?;
        Ok(img.encode_png(Some(DPI)))
    })
}

/// DriveThruCards: one page per card (the card and its bleed), the back then the front, as
/// press-ready PDF/X-1a:2003: CMYK through the bundled output profile with total ink at most
/// [`press::INK_LIMIT`], fonts embedded, trim and bleed boxes ([`press`]).
pub fn drivethru_pdf(cards: &[Card], assets: &Assets) -> Result<Vec<u8>, ExportError> {
    use rayon::prelude::*;
    let b = Preset::DriveThru.bleed_mm();
    let (w, h) = CARD_MM;
    let press = press::Press::get().map_err(ExportError::Press)?;
    // Distinct faces, drawn once each.
    let mut sources: Vec<press::Source<'_>> = Vec::new();
    let mut index = std::collections::HashMap::new();
    let mut face = |key: (String, bool), src| -> usize {
        *index.entry(key).or_insert_with(|| {
            sources.push(src);
            sources.len() - 1
        })
    };
    let mut pages = Vec::with_capacity(cards.len() * 2);
    for c in cards {
        let back = match c {
            Card::Iconoclasm(_) => face(
                (c.id().to_string(), true),
                press::Source::Side(c, Side::Back),
            ),
            _ => face(
                (format!("game:{}", c.game()), true),
                press::Source::Back(c.game()),
            ),
        };
        let front = face(
            (c.id().to_string(), false),
            press::Source::Side(c, Side::Front),
        );
        pages.extend([back, front]);
    }
    let faces = sources
        .par_iter()
        .map(|s| press::draw(*s, w, h, b, assets, press))
        .collect::<Result<Vec<_>, String>>()
        .map_err(ExportError::Press)?;
    Ok(press::write_pdfx(
        "DriveThruCards cards",
        (w, h, b),
        &faces,
        &pages,
        press::now(),
    )?)
}

/// How far inside the cut the vendors ask text to stay (their "safe area"): 1/8 in.
pub const SAFE_MM: f32 = 25.4 / 8.0;

/// What preflight finds for a preset: each card's problems at the preset's size, text
/// included closer than [`SAFE_MM`] to the cut, and for a PDF preset the problems of the
/// very file it writes, read back as the press reads it (ink, RGB, fonts, transparency).
pub type PresetFindings = (
    Vec<(usize, Vec<preflight::Finding>)>,
    Vec<preflight::PdfFinding>,
);

/// Preflight for `preset` (see [`PresetFindings`]).
pub fn preflight(
    cards: &[Card],
    preset: Preset,
    assets: &Assets,
) -> Result<PresetFindings, ExportError> {
    if cards.is_empty() {
        return Err(ExportError::Empty);
    }
    let (w, h) = CARD_MM;
    let found = preflight::check_safe(cards, w, h, Some(SAFE_MM), assets);
    let pdf = match preset {
        Preset::DriveThru => {
            let bytes = drivethru_pdf(cards, assets)?;
            preflight::check_pdf(&bytes, press::INK_LIMIT).map_err(ExportError::Press)?
        }
        Preset::Mpc | Preset::Tgc => Vec::new(),
    };
    Ok((found, pdf))
}
