//! Card faces: every side of every card is drawn by a face template (`assets/faces/`, see
//! [`crate::print::template`]); this module picks the template for a card and holds what
//! faces share: where art is read from, the portrait placeholder, and the colours other
//! parts of the program show for the same things (nullifier icons).

use std::path::Path;

use super::canvas::{Canvas, Portrait, R, Rgb};
use super::template;
use crate::cards::{Card, Game};
use crate::games::arcadia::model::Objective;
use crate::games::iconica::model::Nullifier;

/// Which side of a card to draw.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Side {
    Front,
    /// The card's other face if it has one (an Iconoclasm element), else its game's back.
    Back,
}

/// Where relative art paths are read from, in order: `portrait_root` (given on the command
/// line), the catalogue's art folder `art_dir`, then the current folder.
#[derive(Debug, Clone, Default)]
pub struct Assets {
    pub portrait_root: Option<std::path::PathBuf>,
    pub art_dir: Option<std::path::PathBuf>,
}

/// The template that draws a side of a card: the set's own (see
/// [`template::set`]) when one is in use, else the bundled one of its game and kind.
pub fn template_for(card: &Card, side: Side) -> Option<std::sync::Arc<template::Face>> {
    let kind = match (card, side) {
        (Card::Iconoclasm(_), _) | (_, Side::Front) => card.kind(),
        (_, Side::Back) => "back",
    };
    template::chosen(card, kind).or_else(|| template::bundled(card.game(), kind))
}

/// Draws one side of a card onto a canvas sized to the card.
pub fn draw(c: &mut dyn Canvas, card: &Card, side: Side, assets: &Assets) {
    match template_for(card, side) {
        Some(face) if face.template.kinds.iter().any(|k| k == "back") && side == Side::Back => {
            template::draw::draw(c, &face, None, side, assets)
        }
        Some(face) => template::draw::draw(c, &face, Some(card), side, assets),
        None => c.fill_bleed(PAPER),
    }
}

/// Draws the plain back of a game (what non-double cards of that game show behind).
pub fn draw_back(c: &mut dyn Canvas, game: Game) {
    match template::bundled(game, "back") {
        Some(face) => template::draw::draw(c, &face, None, Side::Back, &Assets::default()),
        None => c.fill_bleed(PAPER),
    }
}

pub(crate) const INK: Rgb = Rgb::hex(0x1d1a17);
pub(crate) const PAPER: Rgb = Rgb::hex(0xf6f0e1);
pub(crate) const WHITE: Rgb = Rgb::hex(0xffffff);

/// The colour of a Reaction tag (and of the Final Act's title).
pub const REACTION: Rgb = Rgb::hex(0xb3261e);

/// The colour and the letter(s) of a nullifier icon.
pub fn nullifier_icon(n: Nullifier) -> (Rgb, &'static str) {
    match n {
        Nullifier::Parry => (Rgb::hex(0x6b7280), "P"),
        Nullifier::Antidote => (Rgb::hex(0x2e8b57), "A"),
        Nullifier::Courage => (Rgb::hex(0xc77700), "C"),
        Nullifier::Evasion => (Rgb::hex(0x1b8fb0), "E"),
        Nullifier::Focus => (Rgb::hex(0x7b3fa0), "F"),
        Nullifier::Clarity => (Rgb::hex(0xb08d1b), "Cl"),
    }
}

/// A quest objective in words.
pub fn objective_text(o: &Objective) -> String {
    match o {
        Objective::Reach(id) => format!("reach the league {id}"),
        Objective::ReachTerrain(t) => format!("reach a league with {t}"),
        Objective::CollectTreasures(n) => {
            format!("collect {n} treasure{}", if *n == 1 { "" } else { "s" })
        }
        Objective::DefeatWaylays(n) => {
            format!("defeat {n} waylay{}", if *n == 1 { "" } else { "s" })
        }
        Objective::ReturnToBase(true) => "return to base camp".to_string(),
        Objective::ReturnToBase(false) => "no need to return to base camp".to_string(),
        Objective::HoldTreasures(n) => {
            format!("holding {n} treasure{}", if *n == 1 { "" } else { "s" })
        }
        Objective::InTerrain(t) => format!("stand in a league with {t}"),
        Objective::All(v) => v
            .iter()
            .map(objective_text)
            .collect::<Vec<_>>()
            .join(", and "),
        Objective::Any(v) => format!(
            "either {}",
            v.iter()
                .map(objective_text)
                .collect::<Vec<_>>()
                .join(", or ")
        ),
        Objective::Then(v) => v
            .iter()
            .map(objective_text)
            .collect::<Vec<_>>()
            .join(", then "),
    }
}

/// A neutral placeholder for a missing portrait: a head-and-shoulders silhouette.
pub fn placeholder(c: &mut dyn Canvas, r: R, bg: Rgb, fg: Rgb) {
    c.round_rect(r, 1.0, Some(bg), None);
    let (cx, _) = r.center();
    let s = r.h.min(r.w);
    let head = s * 0.2;
    let cy = r.y + r.h * 0.42;
    c.circle(cx, cy, head, Some(fg), None);
    let shoulders = R::new(
        cx - s * 0.36,
        cy + head * 1.15,
        s * 0.72,
        r.bottom() - (cy + head * 1.15) + s,
    );
    let clip_h = (r.bottom() - shoulders.y).max(0.0);
    c.round_rect(
        R::new(shoulders.x, shoulders.y, shoulders.w, clip_h),
        s * 0.3,
        Some(fg),
        None,
    );
}

/// The widest and tallest portrait read, in pixels.
pub const MAX_PORTRAIT_SIDE: u32 = crate::picture::MAX_SIDE;

/// Where an `art` path points: a relative path is the first file found in
/// `assets.portrait_root`, `assets.art_dir`, the current folder (the first of them when
/// none has it).
pub fn art_path(path: &str, assets: &Assets) -> std::path::PathBuf {
    let p = Path::new(path);
    if p.is_absolute() {
        return p.to_path_buf();
    }
    let candidates: Vec<std::path::PathBuf> = [&assets.portrait_root, &assets.art_dir]
        .into_iter()
        .flatten()
        .map(|d| d.join(p))
        .chain([p.to_path_buf()])
        .collect();
    candidates
        .iter()
        .find(|c| c.is_file())
        .unwrap_or(&candidates[0])
        .clone()
}

/// Whether an art file can be drawn: it loads exactly as print loads it (a regular file of
/// at most 32 MiB, a PNG or JPEG that decodes within `picture`'s limits). `Err` says why the
/// card would print with the placeholder.
///
/// The verdict is remembered by file (its size and time), so a caller asking every frame
/// (the card editor) decodes a file once, not once a frame.
pub fn art_readable(path: &str, assets: &Assets) -> Result<(), String> {
    type Verdicts = std::collections::HashMap<
        std::path::PathBuf,
        (u64, Option<std::time::SystemTime>, Result<(), String>),
    >;
    static VERDICTS: std::sync::Mutex<Option<Verdicts>> = std::sync::Mutex::new(None);
    let full = art_path(path, assets);
    let stamp = std::fs::metadata(&full)
        .ok()
        .map(|m| (m.len(), m.modified().ok()));
    let verdicts = || VERDICTS.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((len, modified)) = stamp
        && let Some((l, m, verdict)) = verdicts().get_or_insert_with(Default::default).get(&full)
        && (*l, *m) == (len, modified)
    {
        return verdict.clone();
    }
    let verdict = load_portrait(path, assets).map(|_| ());
    if let Some((len, modified)) = stamp {
        let mut v = verdicts();
        let map = v.get_or_insert_with(Default::default);
        if map.len() >= 1024 {
            map.clear();
        }
        map.insert(full, (len, modified, verdict.clone()));
    }
    verdict
}

/// Portraits decoded recently, by file: a file drawn on many cards (or checked by preflight
/// and then drawn) is decoded once while any of them holds it. Entries are weak: the
/// pixels are freed when the last card drawn with them is.
struct Cached {
    len: u64,
    modified: Option<std::time::SystemTime>,
    pixmap: std::sync::Weak<tiny_skia::Pixmap>,
}

static PORTRAITS: std::sync::Mutex<Option<std::collections::HashMap<std::path::PathBuf, Cached>>> =
    std::sync::Mutex::new(None);

/// The portrait at `path` (resolved against `assets`), or why it cannot be drawn.
pub(crate) fn load_portrait(path: &str, assets: &Assets) -> Result<Portrait, String> {
    let full = art_path(path, assets);
    // A FIFO or a device would hang the render, a huge file or picture exhaust memory: the
    // placeholder is drawn instead (`preflight` reports the portrait).
    let meta = std::fs::metadata(&full).map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => "no such file".to_string(),
        _ => e.to_string(),
    })?;
    let (len, modified) = (meta.len(), meta.modified().ok());
    let cache = || PORTRAITS.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(c) = cache().get_or_insert_with(Default::default).get(&full)
        && c.len == len
        && c.modified == modified
        && let Some(pixmap) = c.pixmap.upgrade()
    {
        return Ok(Portrait { key: full, pixmap });
    }
    let bytes = crate::safe_io::read_bytes(&full, crate::safe_io::MAX_PORTRAIT_FILE, "portraits")
        .map_err(|e| match e {
        crate::safe_io::InputError::NotRegular { kind, .. } => {
            format!("it is {kind}, not a regular file")
        }
        crate::safe_io::InputError::TooLarge { limit, .. } => format!(
            "larger than {}, the limit for an art file",
            crate::safe_io::size_text(limit)
        ),
        crate::safe_io::InputError::Io { source, .. } => source.to_string(),
        e => e.to_string(),
    })?;
    let img = crate::picture::decode(&bytes)
        .map_err(|e| e.to_string())?
        .rgba;
    drop(bytes);
    let (w, h) = img.dimensions();
    let mut pm = tiny_skia::Pixmap::new(w, h).ok_or("an empty picture")?;
    for (dst, px) in pm.pixels_mut().iter_mut().zip(img.pixels()) {
        let [r, g, b, a] = px.0;
        *dst = tiny_skia::ColorU8::from_rgba(r, g, b, a).premultiply();
    }
    let pixmap = std::sync::Arc::new(pm);
    let mut cache = cache();
    let map = cache.get_or_insert_with(Default::default);
    if map.len() >= 1024 {
        map.retain(|_, c| c.pixmap.strong_count() > 0);
    }
    map.insert(
        full.clone(),
        Cached {
            len,
            modified,
            pixmap: std::sync::Arc::downgrade(&pixmap),
        },
    );
    Ok(Portrait { key: full, pixmap })
}
