//! `deckwright export SELECTION --out FILE.pdf` (or `--png DIR`, `--preset mpc|tgc|drivethru
//! --out DIR|FILE`, `--tts DIR`, or `--calibration`).

use std::path::PathBuf;
use std::process::ExitCode;

use super::{BadInput, Context, Outcome};
use crate::catalogue::selection::{self, Copies};
use crate::catalogue::{self, Catalogue};
use crate::count;
use crate::print::export::{self as ex, ExportOptions};
use crate::print::layout::{self, CARD_PRESETS, PAPERS};
use crate::print::{
    tts,
    vendor::{self, Preset},
};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Card ids, a search query, or party/character/setup/squad files.
    #[arg(required_unless_present = "calibration")]
    pub selection: Vec<String>,
    /// The PDF to write (with --preset: the folder of PNGs, or the PDF for drivethru).
    #[arg(long, value_name = "FILE.pdf|DIR")]
    pub out: Option<PathBuf>,
    /// A print vendor's specification: mpc (MakePlayingCards: 822x1122 px PNGs),
    /// tgc (TheGameCrafter: 825x1125 px PNGs) or drivethru (DriveThruCards: a PDF, one card
    /// a page with 1/8" bleed, back then front). Sizes, bleed and dpi are the vendor's.
    #[arg(long, value_name = "mpc|tgc|drivethru", conflicts_with_all = ["png", "calibration", "tts"])]
    pub preset: Option<String>,
    /// Write Tabletop Simulator deck sheets (10x7), backs and deck.json into this folder.
    #[arg(long, value_name = "DIR", conflicts_with_all = ["png", "calibration", "out"])]
    pub tts: Option<PathBuf>,
    /// Write one PNG per card into this folder instead of a PDF.
    #[arg(long, value_name = "DIR")]
    pub png: Option<PathBuf>,
    /// Paper: a4, letter, a3 or legal.
    #[arg(long, default_value = "a4")]
    pub paper: String,
    /// Card size: poker (63x88 mm), poker-us (63.5x88.9), bridge (57x89), mini (44x63), tarot (70x120).
    #[arg(long, default_value = "poker")]
    pub card: String,
    /// Card size in millimetres, WxH (overrides --card).
    #[arg(long, value_name = "WxH")]
    pub size: Option<String>,
    /// Bleed in mm around each card; the art extends into it.
    #[arg(long, default_value_t = 0.0, value_name = "MM")]
    pub bleed: f32,
    /// Draw crop marks around the cards.
    #[arg(long)]
    pub crop_marks: bool,
    /// Space between cards in mm.
    #[arg(long, default_value_t = 0.0, value_name = "MM")]
    pub gutter: f32,
    /// A backs page after each fronts page, mirrored for long-edge duplex.
    #[arg(long)]
    pub backs: bool,
    /// Shift of the backs in mm, XxY (x right, y down on the backs page); see --calibration.
    #[arg(long, value_name = "XxY", allow_hyphen_values = true)]
    pub back_offset: Option<String>,
    /// Copies of each card: a number, or `owned` for the quantities in the collection.
    #[arg(long, value_name = "N|owned")]
    pub copies: Option<String>,
    /// Resolution of --png images (the PDF is vector and has none).
    #[arg(long, default_value_t = 300)]
    pub dpi: u32,
    /// Write a calibration sheet for measuring --back-offset instead of cards.
    #[arg(long)]
    pub calibration: bool,
    /// Folder that relative art paths are read from first (then the catalogue's art folder,
    /// then the current folder).
    #[arg(long, value_name = "DIR")]
    pub portraits: Option<PathBuf>,
    /// A set file (`NAME.set.toml`, see docs/templates.md): its cards are drawn with its
    /// face templates.
    #[arg(long, value_name = "SET.toml")]
    pub faces: Option<PathBuf>,
}

/// The largest PNG `--png` writes (a tarot card at 1,200 dpi is 19 megapixels).
const MAX_PNG_PIXELS: f64 = 100e6;

fn options(a: &Args) -> Result<ExportOptions, BadInput> {
    let paper = layout::paper(&a.paper).ok_or_else(|| {
        let names: Vec<_> = PAPERS.iter().map(|p| p.name).collect();
        BadInput(format!(
            "unknown paper `{}`; expected {}",
            a.paper,
            names.join(", ")
        ))
    })?;
    let (w, h) = match &a.size {
        Some(s) => layout::parse_wxh(s)
            .filter(|(w, h)| *w > 0.0 && *h > 0.0)
            .ok_or_else(|| {
                BadInput(format!(
                    "--size `{s}` is not WxH in millimetres, e.g. 63x88"
                ))
            })?,
        None => {
            let p = layout::card_preset(&a.card).ok_or_else(|| {
                let names: Vec<_> = CARD_PRESETS
                    .iter()
                    .map(|p| format!("{} ({}x{} mm)", p.name, p.width, p.height))
                    .collect();
                BadInput(format!(
                    "unknown card size `{}`; expected {} or --size WxH",
                    a.card,
                    names.join(", ")
                ))
            })?;
            (p.width, p.height)
        }
    };
    if !(a.bleed >= 0.0 && a.bleed <= 20.0) {
        return Err(BadInput(format!(
            "--bleed {} must be between 0 and 20 mm",
            a.bleed
        )));
    }
    if !(a.gutter >= 0.0 && a.gutter <= 100.0) {
        return Err(BadInput(format!(
            "--gutter {} must be between 0 and 100 mm",
            a.gutter
        )));
    }
    if !(30..=1200).contains(&a.dpi) {
        return Err(BadInput(format!(
            "--dpi {} must be between 30 and 1200",
            a.dpi
        )));
    }
    if a.png.is_some() {
        // One PNG is one pixel buffer: refuse sizes no machine should be asked to allocate.
        let px = |mm: f64| ((mm + 2.0 * f64::from(a.bleed)) / 25.4 * f64::from(a.dpi)).ceil();
        let (pw, ph) = (px(f64::from(w)), px(f64::from(h)));
        if pw * ph > MAX_PNG_PIXELS {
            return Err(BadInput(format!(
                "a {w}x{h} mm card at {} dpi is {pw} x {ph} pixels, over the {} megapixels a PNG may have; lower --dpi or --size",
                a.dpi,
                MAX_PNG_PIXELS / 1e6
            )));
        }
    }
    let back_offset = match &a.back_offset {
        Some(s) => layout::parse_wxh(s)
            .filter(|(x, y)| x.abs() <= 50.0 && y.abs() <= 50.0)
            .ok_or_else(|| {
                BadInput(format!(
                    "--back-offset `{s}` is not XxY in millimetres (e.g. 1.5x-0.5, at most 50)"
                ))
            })?,
        None => (0.0, 0.0),
    };
    let mut o = ExportOptions::new(paper);
    o.card_w = w;
    o.card_h = h;
    o.bleed = a.bleed;
    o.gutter = a.gutter;
    o.crop_marks = a.crop_marks;
    o.backs = a.backs;
    o.back_offset = back_offset;
    o.dpi = a.dpi as f32;
    o.assets.portrait_root = a.portraits.clone();
    Ok(o)
}

pub fn run(ctx: &Context, a: Args) -> Outcome {
    let mut opts = options(&a)?;
    if a.calibration {
        let out = a
            .out
            .as_ref()
            .ok_or_else(|| BadInput("--calibration needs --out FILE.pdf".into()))?;
        ex::export_calibration(&opts, out)?;
        eprintln!("wrote calibration sheet {} (2 pages)", out.display());
        return Ok(ExitCode::SUCCESS);
    }
    let preset = match &a.preset {
        Some(p) => Some(Preset::parse(p).ok_or_else(|| {
            let names: Vec<_> = Preset::ALL
                .iter()
                .map(|p| format!("{} ({})", p.name(), p.title()))
                .collect();
            BadInput(format!(
                "unknown preset `{p}`; expected {}",
                names.join(", ")
            ))
        })?),
        None => None,
    };
    if preset.is_some() && a.out.is_none() {
        return Err(BadInput(
            "--preset needs --out: a folder for mpc and tgc, a PDF file for drivethru".into(),
        ));
    }
    if a.out.is_none() && a.png.is_none() && a.tts.is_none() {
        return Err(BadInput(
            "say where to write: --out FILE.pdf, --png DIR, --preset P --out DIR or --tts DIR"
                .into(),
        ));
    }
    if a.out.is_some() && a.png.is_some() {
        return Err(BadInput(
            "give either --out FILE.pdf or --png DIR, not both".into(),
        ));
    }
    let copies = match &a.copies {
        Some(s) => Copies::parse(s).ok_or_else(|| {
            BadInput(format!(
                "--copies `{s}` must be `owned` or a number from 1 to 1000"
            ))
        })?,
        None => Copies::Each(1),
    };
    // Check the layout before touching the catalogue: a card that cannot fit is bad input.
    if a.out.is_some() && preset.is_none() {
        opts.layout()?;
    }
    let path = ctx.db.clone().unwrap_or_else(catalogue::default_path);
    let cat = Catalogue::open(&path).map_err(|e| BadInput(format!("{}: {e}", path.display())))?;
    let query = |q: &str| -> Result<Vec<String>, String> {
        let hits = cat.search(q, None).map_err(|e| match e.column() {
            Some(col) if e.is_bad_query() => {
                format!("search query: {e}\n{}", crate::search::point_at(q, col))
            }
            _ => format!("search query: {e}"),
        })?;
        Ok(hits.into_iter().map(|h| h.id).collect())
    };
    opts.assets.art_dir = cat.art_dir();
    if let Some(f) = &a.faces {
        super::template::use_set(f, &query)?;
    }
    let cards = selection::resolve(&cat, &a.selection, &query)?;
    let cards = selection::apply_copies(&cat, cards, copies)?;
    if cards.is_empty() {
        return Err(BadInput(format!(
            "nothing to print: none of the selected cards is in the collection (--copies owned); selection `{}`",
            a.selection.join(" ")
        )));
    }
    if let (Some(p), Some(out)) = (preset, &a.out) {
        let r = vendor::export(&cards, p, &opts.assets, out)?;
        if p.writes_folder() {
            eprintln!(
                "wrote {} to {} for {} ({})",
                count(r.files.len() as u64, "PNG file", "PNG files"),
                out.display(),
                p.title(),
                count(cards.len() as u64, "card", "cards")
            );
        } else {
            eprintln!(
                "wrote {} for {} ({}, {}: back, front)",
                out.display(),
                p.title(),
                count(cards.len() as u64, "card", "cards"),
                count(r.pages as u64, "page", "pages")
            );
        }
    } else if let Some(dir) = &a.tts {
        let r = tts::export(&cards, &opts.assets, dir)?;
        eprintln!(
            "wrote {} and deck.json to {} ({})",
            count(
                r.sheets as u64,
                "Tabletop Simulator sheet",
                "Tabletop Simulator sheets"
            ),
            dir.display(),
            count(r.cards as u64, "card", "cards")
        );
    } else if let Some(out) = &a.out {
        let pages = ex::export_pdf(&cards, &opts, out)?;
        eprintln!(
            "wrote {} ({}, {})",
            out.display(),
            count(cards.len() as u64, "card", "cards"),
            count(pages as u64, "page", "pages")
        );
    } else if let Some(dir) = &a.png {
        let files = ex::export_pngs(&cards, &opts, dir)?;
        eprintln!(
            "wrote {} to {} at {} dpi",
            count(files.len() as u64, "PNG file", "PNG files"),
            dir.display(),
            a.dpi
        );
    }
    Ok(ExitCode::SUCCESS)
}
