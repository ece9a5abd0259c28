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
        let mut rec = Recorder {
            width: UNITS_WIDE,
            height: card_h / mm_per_unit,
            texts: Vec::new(),
            images: Vec::new(),
        };
        face::draw(&mut rec, card, side, assets);
        for (f, text) in rec.texts {
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
    use rayon::prelude::*;
    let mut seen = std::collections::HashSet::new();
    let distinct: Vec<usize> = (0..cards.len())
        .filter(|&i| seen.insert(cards[i].id()))
        .collect();
    distinct
        .par_iter()
        .map(|&i| (i, check_card(&cards[i], card_w, card_h, assets)))
        .filter(|(_, f)| !f.is_empty())
        .collect()
}

/// A canvas that draws nothing and remembers the text sizes and pictures.
struct Recorder {
    width: f32,
    height: f32,
    texts: Vec<(Fitted, String)>,
    images: Vec<(R, PathBuf, (u32, u32))>,
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
        self.texts.push((f.clone(), words.join(" ")));
    }
    fn rotated(
        &mut self,
        _: (f32, f32),
        size: (f32, f32),
        _: f32,
        draw: &mut dyn FnMut(&mut dyn Canvas),
    ) {
        let mut inner = Recorder {
            width: size.0,
            height: size.1,
            texts: Vec::new(),
            images: Vec::new(),
        };
        draw(&mut inner);
        self.texts.extend(inner.texts);
        self.images.extend(inner.images);
    }
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
