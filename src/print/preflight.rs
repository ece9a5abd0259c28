//! Preflight: what would come out wrong if these cards were printed now. Each card's faces
//! are drawn on a canvas that only records what the renderer decided: the size every text
//! block was shrunk to (and whether it was cut), and every picture's box. From those:
//!
//! - **text overflow**: a block that did not fit its box even at its smallest size (cut
//!   with an ellipsis), or that the renderer shrank below [`READABLE_PT`] at print size;
//! - **low-resolution art**: a picture with fewer than [`MIN_DPI`] pixels per inch where
//!   it is printed;
//! - **missing art**: an `art` (or `portrait`) file that does not exist, and **unreadable
//!   art**: one that exists but will not print: not a regular file, over 32 MiB, not a PNG
//!   or JPEG, too large to decode (`picture`'s limits), or broken (a lying header). Art is
//!   loaded exactly as print loads it, so every card that will print with the placeholder
//!   is named.

use std::path::PathBuf;

use super::canvas::{Canvas, Portrait, R, Rgb, UNITS_WIDE};
use super::face::{self, Assets, Side};
use super::text::Fitted;
use crate::cards::Card;

/// The smallest size, in points at print size, the renderer may shrink a text to before
/// preflight calls it unreadable (labels drawn small by design are not counted).
pub const READABLE_PT: f32 = 4.0;
/// The resolution print vendors ask art to have at its printed size.
pub const MIN_DPI: f32 = 300.0;

/// One problem found on one card.
#[derive(Debug, Clone, PartialEq)]
pub enum Finding {
    /// A text block cut short, or shrunk to `size_pt`.
    TextOverflow {
        side: Side,
        text: String,
        size_pt: f32,
        cut: bool,
    },
    /// Art printed at `dpi` pixels per inch.
    LowResolutionArt {
        path: PathBuf,
        dpi: f32,
        pixels: (u32, u32),
    },
    /// An art file that does not exist.
    MissingArt { path: PathBuf, message: String },
    /// An art file that exists but cannot be drawn (the card prints with a placeholder).
    UnreadableArt { path: PathBuf, message: String },
    /// Text `distance_mm` from the cut, closer than the safe area (`safe_mm`) allows: the
    /// cut may wander that far into the card.
    OutsideSafeArea {
        side: Side,
        text: String,
        distance_mm: f32,
        safe_mm: f32,
    },
}

impl Finding {
    /// A short name for scripts (`--json`): `text-overflow`, `low-resolution-art`,
    /// `missing-art`, `unreadable-art`.
    pub fn code(&self) -> &'static str {
        match self {
            Finding::TextOverflow { .. } => "text-overflow",
            Finding::LowResolutionArt { .. } => "low-resolution-art",
            Finding::MissingArt { .. } => "missing-art",
            Finding::UnreadableArt { .. } => "unreadable-art",
            Finding::OutsideSafeArea { .. } => "outside-safe-area",
        }
    }

    /// What is wrong, in a sentence.
    pub fn message(&self) -> String {
        match self {
            Finding::TextOverflow {
                side,
                text,
                size_pt,
                cut,
            } => {
                let side = if *side == Side::Back {
                    " on the back"
                } else {
                    ""
                };
                if *cut {
                    format!(
                        "text{side} does not fit its box and is cut: \"{}\"",
                        excerpt(text)
                    )
                } else {
                    format!(
                        "text{side} is shrunk to {size_pt:.1} pt, below the readable {READABLE_PT} pt: \"{}\"",
                        excerpt(text)
                    )
                }
            }
            Finding::LowResolutionArt { path, dpi, pixels } => format!(
                "art {} ({} x {} px) prints at {dpi:.0} dpi, below {MIN_DPI:.0}",
                path.display(),
                pixels.0,
                pixels.1
            ),
            Finding::MissingArt { path, message } | Finding::UnreadableArt { path, message } => {
                format!(
                    "art {} cannot be read ({message}); the card prints with a placeholder",
                    path.display()
                )
            }
            Finding::OutsideSafeArea {
                side,
                text,
                distance_mm,
                safe_mm,
            } => format!(
                "text{} is {distance_mm:.1} mm from the cut, inside the {safe_mm:.1} mm the cut may take: \"{}\"",
                if *side == Side::Back {
                    " on the back"
                } else {
                    ""
                },
                excerpt(text)
            ),
        }
    }
}

fn excerpt(text: &str) -> String {
    let words: Vec<&str> = text.split_whitespace().collect();
    if words.len() > 8 {
        format!("{} ...", words[..8].join(" "))
    } else {
        words.join(" ")
    }
}

/// The problems of one card printed `card_w` x `card_h` mm (faces and backs).
pub fn check_card(card: &Card, card_w: f32, card_h: f32, assets: &Assets) -> Vec<Finding> {
    check_card_safe(card, card_w, card_h, None, assets)
}

/// [`check_card`], and with `safe_mm`, every text block closer than that to the cut.
pub fn check_card_safe(
    card: &Card,
    card_w: f32,
    card_h: f32,
    safe_mm: Option<f32>,
    assets: &Assets,
) -> Vec<Finding> {
    let mm_per_unit = card_w / UNITS_WIDE;
    let mut out = Vec::new();
    // The art loaded once, and held while the faces are drawn (they find it decoded).
    let _held = match card
        .art()
        .map(|art| (art, face::load_portrait(art, assets)))
    {
        Some((_, Ok(p))) => Some(p),
        Some((art, Err(message))) => {
            let path = face::art_path(art, assets);
            out.push(if path.exists() {
                Finding::UnreadableArt { path, message }
            } else {
                Finding::MissingArt { path, message }
            });
            None
        }
        None => None,
    };
    let sides: &[Side] = if matches!(card, Card::Iconoclasm(_)) {
        &[Side::Front, Side::Back]
    } else {
        &[Side::Front]
    };
    for &side in sides {
        let height = card_h / mm_per_unit;
        let mut rec = Recorder {
            width: UNITS_WIDE,
            height,
            texts: Vec::new(),
            images: Vec::new(),
            ts: IDENTITY,
        };
        face::draw(&mut rec, card, side, assets);
        if let Some(safe) = safe_mm {
            for (_, text, b) in &rec.texts {
                let Some((x0, y0, x1, y1)) = b else { continue };
                let d = x0.min(*y0).min(UNITS_WIDE - x1).min(height - y1) * mm_per_unit;
                if d < safe - 0.05 {
                    out.push(Finding::OutsideSafeArea {
                        side,
                        text: text.clone(),
                        distance_mm: d,
                        safe_mm: safe,
                    });
                }
            }
        }
        for (f, text, _) in rec.texts {
            let size_pt = f.size * mm_per_unit * 72.0 / 25.4;
            let shrunk = f.size < f.max * 0.999;
            if f.truncated || (shrunk && size_pt < READABLE_PT - 0.05) {
                out.push(Finding::TextOverflow {
                    side,
                    text,
                    size_pt,
                    cut: f.truncated,
                });
            }
        }
        for (r, key, (iw, ih)) in rec.images {
            // The picture covers its box: the scale is the larger of the two ratios.
            let units_per_px = (r.w / iw as f32).max(r.h / ih as f32);
            let dpi = 25.4 / (units_per_px * mm_per_unit);
            if dpi < MIN_DPI - 0.5
                && !out
                    .iter()
                    .any(|f| matches!(f, Finding::LowResolutionArt { path, .. } if *path == key))
            {
                out.push(Finding::LowResolutionArt {
                    path: key,
                    dpi,
                    pixels: (iw, ih),
                });
            }
        }
    }
    out
}

/// The problems of every card, in order, each card once: (card index, findings) for the
/// cards that have any.
pub fn check(
    cards: &[Card],
    card_w: f32,
    card_h: f32,
    assets: &Assets,
) -> Vec<(usize, Vec<Finding>)> {
    check_safe(cards, card_w, card_h, None, assets)
}

/// [`check`], and with `safe_mm`, text closer than that to the cut.
pub fn check_safe(
    cards: &[Card],
    card_w: f32,
    card_h: f32,
    safe_mm: Option<f32>,
    assets: &Assets,
) -> Vec<(usize, Vec<Finding>)> {
    use rayon::prelude::*;
    let mut seen = std::collections::HashSet::new();
    let distinct: Vec<usize> = (0..cards.len())
        .filter(|&i| seen.insert(cards[i].id()))
        .collect();
    distinct
        .par_iter()
        .map(|&i| {
            (
                i,
                check_card_safe(&cards[i], card_w, card_h, safe_mm, assets),
            )
        })
        .filter(|(_, f)| !f.is_empty())
        .collect()
}

/// An affine map `[a, b, c, d, e, f]`: (x, y) -> (a x + c y + e, b x + d y + f).
type Affine = [f32; 6];

const IDENTITY: Affine = [1.0, 0.0, 0.0, 1.0, 0.0, 0.0];

fn apply(t: &Affine, (x, y): (f32, f32)) -> (f32, f32) {
    (t[0] * x + t[2] * y + t[4], t[1] * x + t[3] * y + t[5])
}

/// `outer` after `inner`.
fn compose(outer: &Affine, inner: &Affine) -> Affine {
    let (a, b) = (apply(outer, (inner[0], inner[1])), apply(outer, (0.0, 0.0)));
    let c = apply(outer, (inner[2], inner[3]));
    let e = apply(outer, (inner[4], inner[5]));
    [a.0 - b.0, a.1 - b.1, c.0 - b.0, c.1 - b.1, e.0, e.1]
}

/// A box in card units: (x0, y0, x1, y1).
type TextBox = (f32, f32, f32, f32);

/// The box of a block's words in card units, through `ts`.
fn text_box(f: &Fitted, ts: &Affine) -> Option<TextBox> {
    use ab_glyph::Font;
    let mut b: Option<TextBox> = None;
    for w in f.words.iter().filter(|w| !w.text.trim().is_empty()) {
        let font = super::fonts::font(w.weight);
        let h = font.height_unscaled().max(1.0);
        let (asc, desc) = (
            font.ascent_unscaled() / h * f.size,
            -font.descent_unscaled() / h * f.size,
        );
        let x1 = w.x + super::text::width(&w.text, w.weight, f.size);
        for p in [
            (w.x, w.baseline - asc),
            (x1, w.baseline - asc),
            (w.x, w.baseline + desc),
            (x1, w.baseline + desc),
        ] {
            let (x, y) = apply(ts, p);
            b = Some(match b {
                None => (x, y, x, y),
                Some((x0, y0, x1, y1)) => (x0.min(x), y0.min(y), x1.max(x), y1.max(y)),
            });
        }
    }
    b
}

/// A canvas that draws nothing and remembers the text sizes and boxes (card units) and
/// the pictures.
struct Recorder {
    width: f32,
    height: f32,
    texts: Vec<(Fitted, String, Option<TextBox>)>,
    images: Vec<(R, PathBuf, (u32, u32))>,
    /// From this canvas's units to the card's (a rotated strip's differ).
    ts: Affine,
}

impl Canvas for Recorder {
    fn trim(&self) -> R {
        R::new(0.0, 0.0, self.width, self.height)
    }
    fn fill_bleed(&mut self, _: Rgb) {}
    fn path(&mut self, _: &tiny_skia::Path, _: Option<Rgb>, _: Option<(Rgb, f32)>) {}
    fn image_cover(&mut self, r: R, img: &Portrait) {
        self.images.push((
            r,
            img.key.clone(),
            (img.pixmap.width(), img.pixmap.height()),
        ));
    }
    fn text(&mut self, f: &Fitted, _: R) {
        let words: Vec<&str> = f.words.iter().map(|w| w.text.as_str()).collect();
        self.texts
            .push((f.clone(), words.join(" "), text_box(f, &self.ts)));
    }
    fn rotated(
        &mut self,
        center: (f32, f32),
        size: (f32, f32),
        degrees: f32,
        draw: &mut dyn FnMut(&mut dyn Canvas),
    ) {
        // As the PDF canvas turns a strip: its centre on `center`, turned by `degrees`.
        let (s, c) = degrees.to_radians().sin_cos();
        let (hw, hh) = (size.0 / 2.0, size.1 / 2.0);
        let turn = [
            c,
            s,
            -s,
            c,
            center.0 - c * hw + s * hh,
            center.1 - s * hw - c * hh,
        ];
        let mut inner = Recorder {
            width: size.0,
            height: size.1,
            texts: Vec::new(),
            images: Vec::new(),
            ts: compose(&self.ts, &turn),
        };
        draw(&mut inner);
        self.texts.extend(inner.texts);
        self.images.extend(inner.images);
    }
}

/// A problem of a written PDF for the press (the file as a printer receives it).
#[derive(Debug, Clone, PartialEq)]
pub enum PdfFinding {
    /// Colour whose total ink goes over the limit: `ink` percent, in `place`.
    InkOverLimit { place: String, ink: f32, limit: f32 },
    /// An image left in RGB (the press prints CMYK).
    RgbImage { object: u32, pixels: (i64, i64) },
    /// Paint in RGB left in a content stream (`rg`/`RG` operators), `count` times.
    RgbColour { count: usize },
    /// A font the file names but does not carry.
    FontNotEmbedded { name: String },
    /// Transparency (a soft mask or a translucent graphics state), which PDF/X-1a forbids.
    Transparency { object: u32 },
    /// No PDF/X output intent in the catalogue.
    NoOutputIntent,
}

impl PdfFinding {
    /// A short name for scripts: `ink-over-limit`, `rgb-image`, `rgb-colour`,
    /// `font-not-embedded`, `transparency`, `no-output-intent`.
    pub fn code(&self) -> &'static str {
        match self {
            PdfFinding::InkOverLimit { .. } => "ink-over-limit",
            PdfFinding::RgbImage { .. } => "rgb-image",
            PdfFinding::RgbColour { .. } => "rgb-colour",
            PdfFinding::FontNotEmbedded { .. } => "font-not-embedded",
            PdfFinding::Transparency { .. } => "transparency",
            PdfFinding::NoOutputIntent => "no-output-intent",
        }
    }

    /// What is wrong, in a sentence.
    pub fn message(&self) -> String {
        match self {
            PdfFinding::InkOverLimit { place, ink, limit } => {
                format!("{place} has {ink:.0}% total ink, over the press's {limit:.0}%")
            }
            PdfFinding::RgbImage { object, pixels } => format!(
                "image (object {object}, {} x {} px) is RGB, not CMYK",
                pixels.0, pixels.1
            ),
            PdfFinding::RgbColour { count } => {
                format!(
                    "{count} colour{} painted in RGB, not CMYK",
                    if *count == 1 { "" } else { "s" }
                )
            }
            PdfFinding::FontNotEmbedded { name } => format!("font {name} is not embedded"),
            PdfFinding::Transparency { object } => {
                format!("object {object} uses transparency, which PDF/X-1a forbids")
            }
            PdfFinding::NoOutputIntent => "the file has no PDF/X output intent".into(),
        }
    }
}

/// The largest stream preflight decompresses (a card's art at 300 dpi is under 4 MiB).
const MAX_STREAM: usize = 256 << 20;

/// Checks a PDF for the press: total ink over `ink_limit` percent (CMYK paint and CMYK
/// images, pixel by pixel), RGB images and paint left, fonts not embedded, transparency,
/// and a missing PDF/X output intent. Err when the bytes are not a PDF that can be read.
pub fn check_pdf(bytes: &[u8], ink_limit: f32) -> Result<Vec<PdfFinding>, String> {
    use lopdf::{Document, Object};
    let doc = Document::load_mem(bytes).map_err(|e| format!("not a readable PDF: {e}"))?;
    let mut out = Vec::new();
    let resolve = |o: &'_ Object| -> Option<Object> {
        match o {
            Object::Reference(id) => doc.get_object(*id).ok().cloned(),
            other => Some(other.clone()),
        }
    };
    let name_of = |o: Option<Object>| -> Option<Vec<u8>> {
        match o? {
            Object::Name(n) => Some(n),
            _ => None,
        }
    };
    let is_rgb_space = |cs: &Object| -> bool {
        match resolve(cs) {
            Some(Object::Name(n)) => n == b"DeviceRGB" || n == b"CalRGB",
            Some(Object::Array(a)) => {
                let family = a.first().and_then(|o| name_of(resolve(o)));
                match family.as_deref() {
                    Some(b"ICCBased") => {
                        a.get(1).and_then(&resolve).and_then(|o| {
                            o.as_stream()
                                .ok()
                                .and_then(|s| s.dict.get(b"N").ok()?.as_i64().ok())
                        }) == Some(3)
                    }
                    Some(b"CalRGB") => true,
                    Some(b"Indexed") => a
                        .get(1)
                        .and_then(|o| name_of(resolve(o)))
                        .is_some_and(|n| n == b"DeviceRGB"),
                    _ => false,
                }
            }
            _ => false,
        }
    };
    let catalog = doc.catalog().map_err(|e| format!("no catalogue: {e}"))?;
    let has_intent = catalog
        .get(b"OutputIntents")
        .ok()
        .and_then(&resolve)
        .and_then(|o| o.as_array().ok().cloned())
        .is_some_and(|a| {
            a.iter().any(|i| {
                resolve(i)
                    .and_then(|d| d.as_dict().ok().cloned())
                    .and_then(|d| name_of(d.get(b"S").ok().cloned()))
                    .is_some_and(|s| s == b"GTS_PDFX")
            })
        });
    if !has_intent {
        out.push(PdfFinding::NoOutputIntent);
    }
    let page_contents: std::collections::HashSet<u32> = doc
        .get_pages()
        .values()
        .flat_map(|p| doc.get_page_contents(*p))
        .map(|(n, _)| n)
        .collect();
    let mut rgb_paint = 0;
    let mut worst_paint: f32 = 0.0;
    for (&(num, _), obj) in &doc.objects {
        let dict = match obj {
            Object::Stream(st) => &st.dict,
            Object::Dictionary(d) => d,
            _ => continue,
        };
        let ty = name_of(dict.get(b"Type").ok().cloned());
        let subtype = name_of(dict.get(b"Subtype").ok().cloned());
        // Fonts: a Type0 font's glyphs are in its descendant, which is checked itself.
        if ty.as_deref() == Some(b"Font")
            && !matches!(subtype.as_deref(), Some(b"Type0") | Some(b"Type3"))
        {
            let embedded = dict
                .get(b"FontDescriptor")
                .ok()
                .and_then(&resolve)
                .and_then(|o| o.as_dict().ok().cloned())
                .is_some_and(|fd| {
                    [&b"FontFile"[..], b"FontFile2", b"FontFile3"]
                        .iter()
                        .any(|k| fd.has(k))
                });
            if !embedded {
                let name = name_of(dict.get(b"BaseFont").ok().cloned())
                    .map(|n| String::from_utf8_lossy(&n).into_owned())
                    .unwrap_or_else(|| format!("(object {num})"));
                out.push(PdfFinding::FontNotEmbedded { name });
            }
        }
        if ty.as_deref() == Some(b"ExtGState") {
            let translucent = [&b"CA"[..], b"ca"].iter().any(|k| {
                dict.get(k)
                    .ok()
                    .and_then(|o| o.as_float().ok())
                    .is_some_and(|v| v < 0.999)
            });
            let mask = dict
                .get(b"SMask")
                .ok()
                .is_some_and(|o| name_of(Some(o.clone())).as_deref() != Some(b"None"));
            if translucent || mask {
                out.push(PdfFinding::Transparency { object: num });
            }
        }
        let Object::Stream(st) = obj else { continue };
        if subtype.as_deref() == Some(b"Image") {
            if dict.has(b"SMask") {
                out.push(PdfFinding::Transparency { object: num });
            }
            let size = |k: &[u8]| dict.get(k).ok().and_then(|o| o.as_i64().ok()).unwrap_or(0);
            let (w, h) = (size(b"Width"), size(b"Height"));
            let Ok(cs) = dict.get(b"ColorSpace") else {
                continue;
            };
            if is_rgb_space(cs) {
                out.push(PdfFinding::RgbImage {
                    object: num,
                    pixels: (w, h),
                });
                continue;
            }
            let cmyk = name_of(resolve(cs)).is_some_and(|n| n == b"DeviceCMYK");
            let bpc = size(b"BitsPerComponent");
            if cmyk && bpc == 8 {
                let data = match st.decompressed_content_with_limit(MAX_STREAM) {
                    Ok(d) => d,
                    Err(_) if st.filters().map(|f| f.is_empty()).unwrap_or(true) => {
                        st.content.clone()
                    }
                    Err(_) => continue,
                };
                let worst = data
                    .chunks_exact(4)
                    .map(|p| p.iter().map(|&v| v as u32).sum::<u32>())
                    .max()
                    .unwrap_or(0) as f32
                    / 255.0
                    * 100.0;
                if worst > ink_limit + 0.5 {
                    out.push(PdfFinding::InkOverLimit {
                        place: format!("image (object {num}, {w} x {h} px)"),
                        ink: worst,
                        limit: ink_limit,
                    });
                }
            }
            continue;
        }
        // Content: page content streams and forms.
        let is_content = subtype.as_deref() == Some(b"Form") || page_contents.contains(&num);
        if !is_content {
            continue;
        }
        let data = match st.decompressed_content_with_limit(MAX_STREAM) {
            Ok(d) => d,
            Err(_) => st.content.clone(),
        };
        let Ok(content) = lopdf::content::Content::decode(&data) else {
            continue;
        };
        for op in &content.operations {
            match op.operator.as_str() {
                "rg" | "RG" => rgb_paint += 1,
                "k" | "K" => {
                    let ink: f32 = op
                        .operands
                        .iter()
                        .filter_map(|o| o.as_float().ok())
                        .sum::<f32>()
                        * 100.0;
                    worst_paint = worst_paint.max(ink);
                }
                "cs" | "CS" if op.operands.first().is_some_and(is_rgb_space) => rgb_paint += 1,
                _ => {}
            }
        }
    }
    if worst_paint > ink_limit + 0.5 {
        out.push(PdfFinding::InkOverLimit {
            place: "vector paint".into(),
            ink: worst_paint,
            limit: ink_limit,
        });
    }
    if rgb_paint > 0 {
        out.push(PdfFinding::RgbColour { count: rgb_paint });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The starter cards: no text is cut, no art is missing; the densest Iconica cards
    /// have an action text shrunk just under the readable size, and nothing else is found.
    #[test]
    fn bundled_cards_have_no_cut_text() {
        let cards = crate::catalogue::bundled_cards().unwrap();
        let found: Vec<(String, Finding)> = check(&cards, 63.0, 88.0, &Assets::default())
            .into_iter()
            .flat_map(|(i, f)| {
                let id = cards[i].id().to_string();
                f.into_iter().map(move |f| (id.clone(), f))
            })
            .collect();
        for (id, f) in &found {
            assert!(
                matches!(f, Finding::TextOverflow { cut: false, size_pt, .. } if *size_pt > 3.5),
                "{id}: {}",
                f.message()
            );
        }
        assert!(found.len() <= 3, "{found:?}");
    }
}
