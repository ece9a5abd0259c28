//! Card faces: one drawing per kind of card, from the card's data only, plus a back per
//! game. Shared pieces (frame, title bar, badges, portrait placeholder) live here.

mod arcadia;
mod back;
mod iconica;
mod iconoclasm;
mod ruunara;

pub use iconica::{REACTION, nullifier_icon};

use std::path::Path;

use super::canvas::{Canvas, Portrait, R, Rgb};
use super::fonts::Weight;
use super::text::{self, Span, Style};
use crate::cards::{Card, Game};

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

/// Draws one side of a card onto a canvas sized to the card.
pub fn draw(c: &mut dyn Canvas, card: &Card, side: Side, assets: &Assets) {
    match (card, side) {
        (Card::Iconoclasm(e), Side::Front) => iconoclasm::draw(c, e, e.front, assets),
        (Card::Iconoclasm(e), Side::Back) => iconoclasm::draw(c, e, e.back, assets),
        (_, Side::Back) => back::draw(c, card.game()),
        (Card::Iconica(ch), Side::Front) => iconica::draw(c, ch, assets),
        (Card::Arcadia(a), Side::Front) => arcadia::draw(c, a, assets),
        (Card::Ruunara(f), Side::Front) => ruunara::draw(c, f, assets),
    }
}

/// Draws the plain back of a game (what non-double cards of that game show behind).
pub fn draw_back(c: &mut dyn Canvas, game: Game) {
    back::draw(c, game);
}

pub(crate) const INK: Rgb = Rgb::hex(0x1d1a17);
pub(crate) const PAPER: Rgb = Rgb::hex(0xf6f0e1);
pub(crate) const WHITE: Rgb = Rgb::hex(0xffffff);
pub(crate) const MUTED: Rgb = Rgb::hex(0x5a544c);

/// Bleed and border in `frame`, a parchment panel inside; returns the panel.
pub(crate) fn frame(c: &mut dyn Canvas, frame: Rgb, panel: Rgb) -> R {
    c.fill_bleed(frame);
    let inner = c.trim().inset(2.2);
    c.round_rect(inner, 2.0, Some(panel), None);
    inner
}

/// A filled title bar with the card name, shrunk to fit; leaves room at the right for a badge.
pub(crate) fn title_bar(c: &mut dyn Canvas, r: R, name: &str, bar: Rgb, ink: Rgb, badge_room: f32) {
    c.round_rect(r, 1.2, Some(bar), None);
    let tr = R::new(r.x + 1.5, r.y, r.w - 3.0 - badge_room, r.h).inset_xy(0.0, 0.9);
    text::label(
        c,
        name,
        Weight::Bold,
        ink,
        tr,
        Style::new(r.h * 0.62).min(1.6).middle(),
    );
}

/// A round badge with a number (a cost, a rating...).
pub(crate) fn badge(
    c: &mut dyn Canvas,
    cx: f32,
    cy: f32,
    radius: f32,
    value: &str,
    fill: Rgb,
    ink: Rgb,
) {
    c.circle(cx, cy, radius, Some(fill), Some((WHITE, radius * 0.12)));
    let r = R::new(
        cx - radius * 0.8,
        cy - radius * 0.8,
        radius * 1.6,
        radius * 1.6,
    );
    text::label(
        c,
        value,
        Weight::Bold,
        ink,
        r,
        Style::new(radius * 1.05).min(0.8).center().middle(),
    );
}

/// One line of small text (a type line, a footer).
pub(crate) fn small_line(c: &mut dyn Canvas, s: &str, r: R, weight: Weight, color: Rgb) {
    text::label(
        c,
        s,
        weight,
        color,
        r,
        Style::new(r.h * 0.9).min(0.9).middle(),
    );
}

/// A labelled value box: the label small on top, the value large below.
pub(crate) fn stat_box(c: &mut dyn Canvas, r: R, label: &str, value: &str, fill: Rgb, ink: Rgb) {
    c.round_rect(r, 1.0, Some(fill), None);
    let (top, rest) = r.inset(0.5).split_top(r.h * 0.32);
    text::label(
        c,
        label,
        Weight::Regular,
        ink,
        top,
        Style::new(top.h).min(0.8).center().middle(),
    );
    text::label(
        c,
        value,
        Weight::Bold,
        ink,
        rest,
        Style::new(rest.h * 0.85).min(1.0).center().middle(),
    );
}

/// A neutral placeholder for a missing portrait: a head-and-shoulders silhouette.
pub(crate) fn placeholder(c: &mut dyn Canvas, r: R, bg: Rgb, fg: Rgb) {
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

/// Draws the portrait at `path` (PNG or JPEG) covering `r`; the placeholder if it cannot be read.
pub(crate) fn portrait(
    c: &mut dyn Canvas,
    r: R,
    path: Option<&str>,
    assets: &Assets,
    bg: Rgb,
    fg: Rgb,
) {
    if let Some(img) = path.and_then(|p| load_portrait(p, assets).ok()) {
        c.image_cover(r, &img);
        c.round_rect(r, 1.0, None, Some((fg, 0.25)));
    } else {
        placeholder(c, r, bg, fg);
    }
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

/// Paragraph helper: spans into one paragraph.
pub(crate) fn para(spans: Vec<Span>) -> Vec<Span> {
    spans
}

/// Capitalises the first letter (`"melee"` -> `"Melee"`).
pub(crate) fn cap(s: &str) -> String {
    let mut ch = s.chars();
    match ch.next() {
        Some(f) => f.to_uppercase().chain(ch).collect(),
        None => String::new(),
    }
}
