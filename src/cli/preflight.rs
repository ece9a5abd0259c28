//! `deckwright preflight SELECTION [--json]`: before printing, every card whose text the
//! renderer shrinks past reading or cuts, whose art prints under 300 dpi, or whose art is
//! missing; with `--preset`, text inside the vendor's safe area, and for DriveThruCards the
//! press PDF itself (ink over 240%, RGB left, fonts not embedded). Exit 1 when anything is
//! found.

use std::path::PathBuf;
use std::process::ExitCode;

use serde_json::json;

use super::{BadInput, Context, Outcome};
use crate::catalogue::{self, Catalogue};
use crate::print::face::Assets;
use crate::print::layout;
use crate::print::preflight::{self, Finding};
use crate::print::vendor::{self, Preset};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Card ids, a search query, or party/character/setup/squad files.
    #[arg(required = true)]
    pub selection: Vec<String>,
    /// Print a JSON document on stdout instead of lines.
    #[arg(long)]
    pub json: bool,
    /// Card size the cards will be printed at: poker, poker-us, bridge, mini or tarot.
    #[arg(long, default_value = "poker")]
    pub card: String,
    /// Card size in millimetres, WxH (overrides --card).
    #[arg(long, value_name = "WxH")]
    pub size: Option<String>,
    /// Check for a print vendor's preset (mpc, tgc, drivethru): its card size, text inside
    /// its 1/8 in safe area, and for drivethru the press PDF it writes (total ink over 240%,
    /// RGB images or colours, fonts not embedded, transparency, the output intent).
    #[arg(long, value_name = "PRESET")]
    pub preset: Option<String>,
    /// Folder that relative art paths are read from (default: the current folder).
    #[arg(long, value_name = "DIR")]
    pub portraits: Option<PathBuf>,
}

pub fn run(ctx: &Context, a: Args) -> Outcome {
    let (w, h) = match &a.size {
        Some(s) => layout::parse_wxh(s)
            .filter(|(w, h)| *w > 0.0 && *h > 0.0)
            .ok_or_else(|| {
                BadInput(format!(
                    "--size `{s}` is not WxH in millimetres, e.g. 63x88"
                ))
            })?,
        None => {
            let p = layout::card_preset(&a.card)
                .ok_or_else(|| BadInput(format!("unknown card size `{}`", a.card)))?;
            (p.width, p.height)
        }
    };
    let path = ctx.db.clone().unwrap_or_else(catalogue::default_path);
    let cat = Catalogue::open(&path).map_err(|e| BadInput(format!("{}: {e}", path.display())))?;
    let cards = super::sheet::select(&cat, &a.selection)?;
    let assets = Assets {
        portrait_root: a.portraits.clone(),
        art_dir: cat.art_dir(),
    };
    let (found, press) = match &a.preset {
        Some(p) => {
            let preset = Preset::parse(p).ok_or_else(|| {
                BadInput(format!("unknown preset `{p}`: use mpc, tgc or drivethru"))
            })?;
            vendor::preflight(&cards, preset, &assets).map_err(|e| BadInput(e.to_string()))?
        }
        None => (preflight::check(&cards, w, h, &assets), Vec::new()),
    };
    let checked = {
        let mut seen = std::collections::HashSet::new();
        cards.iter().filter(|c| seen.insert(c.id())).count()
    };
    let problems: usize = found.iter().map(|(_, f)| f.len()).sum::<usize>() + press.len();
    if a.json {
        let list: Vec<_> = found
            .iter()
            .flat_map(|(i, fs)| {
                let c = &cards[*i];
                fs.iter().map(move |f| {
                    let mut o = json!({
                        "id": c.id(), "name": c.name(), "game": c.game().as_str(), "kind": c.kind(),
                        "problem": f.code(), "message": f.message(),
                    });
                    match f {
                        Finding::TextOverflow {
                            text, size_pt, cut, ..
                        } => {
                            o["text"] = json!(text);
                            o["size_pt"] = json!((size_pt * 10.0).round() / 10.0);
                            o["cut"] = json!(cut);
                        }
                        Finding::LowResolutionArt { path, dpi, .. } => {
                            o["art"] = json!(path.display().to_string());
                            o["dpi"] = json!(dpi.round());
                        }
                        Finding::MissingArt { path, .. } | Finding::UnreadableArt { path, .. } => {
                            o["art"] = json!(path.display().to_string())
                        }
                        Finding::OutsideSafeArea {
                            text, distance_mm, ..
                        } => {
                            o["text"] = json!(text);
                            o["distance_mm"] = json!((distance_mm * 10.0).round() / 10.0);
                        }
                    }
                    o
                })
            })
            .collect();
        let press: Vec<_> = press
            .iter()
            .map(|f| json!({"problem": f.code(), "message": f.message()}))
            .collect();
        let doc = json!({"cards": checked, "ok": problems == 0, "problems": list, "press": press});
        writeln!(ctx.out, "{doc}");
    } else {
        for (i, fs) in &found {
            let c = &cards[*i];
            for f in fs {
                writeln!(
                    ctx.out,
                    "{} ({}): {}: {}",
                    c.id(),
                    c.name(),
                    f.code(),
                    f.message()
                );
            }
        }
        for f in &press {
            writeln!(ctx.out, "press PDF: {}: {}", f.code(), f.message());
        }
        eprintln!(
            "checked {checked} card{}: {}",
            if checked == 1 { "" } else { "s" },
            if problems == 0 {
                "ready to print".to_string()
            } else {
                format!(
                    "{problems} problem{} on {} card{}",
                    if problems == 1 { "" } else { "s" },
                    found.len(),
                    if found.len() == 1 { "" } else { "s" }
                )
            }
        );
    }
    Ok(if problems == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
