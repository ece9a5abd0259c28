//! The PDF backend of [`Canvas`]: a card face as a PDF content stream of vector paths,
//! real text in the bundled DejaVu fonts and image references, in card units with y growing
//! downwards (the form that holds it flips it, see [`VectorFace::matrix`]).
//!
//! Text is placed word by word at the positions [`super::text::fit`] computed, with the
//! fonts' own advances and kerning, so it breaks and lines up exactly as on the pixel canvas.
//! Glyphs are addressed by their glyph id in the bundled font (Identity-H); the document
//! writer subsets the fonts and maps those ids to the subset's.

use std::collections::{BTreeMap, BTreeSet};

use pdf_writer::{Content, Name, Str};
use tiny_skia::PathSegment;

use super::canvas::{Canvas, Portrait, R, Rgb, UNITS_WIDE};
use super::face::{self, Assets, Side};
use super::fonts::{self, Weight};
use super::text::Fitted;
use crate::cards::{Card, Game};

/// The resource name of a weight's font in a face's form.
pub fn font_name(w: Weight) -> Name<'static> {
    static ADDED: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    match w {
        Weight::Regular => Name(b"F0"),
        Weight::Bold => Name(b"F1"),
        Weight::Italic => Name(b"F2"),
        Weight::Custom(i) => {
            let names = ADDED.get_or_init(|| {
                (0..fonts::MAX_ADDED)
                    .map(|i| format!("F{}", i + 3))
                    .collect()
            });
            Name(names.get(i as usize).map_or(b"F0", |n| n.as_bytes()))
        }
    }
}

/// The resource name of a translucency (`/ca` and `/CA`) graphics state.
pub fn alpha_name(a: u8) -> String {
    format!("A{a}")
}

/// The resource name of a face's `i`-th portrait.
pub fn image_name(i: usize) -> String {
    format!("P{i}")
}

/// PDF font size per unit of text height: the layout sizes text by its font's
/// ascent-to-descent height (ab_glyph's scale), PDF by its em.
pub fn em_per_height(w: Weight) -> f32 {
    use ab_glyph::Font;
    let f = fonts::font(w);
    f.units_per_em().unwrap_or(2048.0) / f.height_unscaled()
}

/// A card face drawn as PDF content, with what it uses from the document.
#[derive(Debug, Clone)]
pub struct VectorFace {
    /// The uncompressed content stream.
    pub content: Vec<u8>,
    /// Trim width and height and bleed, in card units.
    pub width: f32,
    pub height: f32,
    pub bleed: f32,
    /// Glyphs shown, per weight: glyph id -> the character it shows.
    pub glyphs: BTreeMap<(Weight, u16), char>,
    /// Portraits drawn (`/P<i>`), each once.
    pub images: Vec<Portrait>,
    /// Translucencies used (`/A<alpha>`).
    pub alphas: BTreeSet<u8>,
}

impl VectorFace {
    /// The bounding box of the form in its own units: the trim box and the bleed.
    pub fn bbox(&self) -> [f32; 4] {
        [
            -self.bleed,
            -self.bleed,
            self.width + self.bleed,
            self.height + self.bleed,
        ]
    }

    /// The form matrix: maps the bleed box (y down) onto the unit square (y up), so a form is
    /// placed on a page exactly like an image, with `cm` giving its box.
    pub fn matrix(&self) -> [f32; 6] {
        let (w, h) = (
            self.width + 2.0 * self.bleed,
            self.height + 2.0 * self.bleed,
        );
        [
            1.0 / w,
            0.0,
            0.0,
            -1.0 / h,
            self.bleed / w,
            1.0 - self.bleed / h,
        ]
    }
}

/// A number as written: to a thousandth (of a card unit, a micrometre on a poker card; of a
/// colour channel, under a quarter of one step of 255). Shorter operators make a face's
/// stream about a third smaller and faster to compress.
fn q(v: f32) -> f32 {
    (v * 1000.0).round() / 1000.0
}

/// Records a face's drawing as PDF operators.
pub struct PdfCanvas {
    content: Content,
    height: f32,
    bleed: f32,
    glyphs: BTreeMap<(Weight, u16), char>,
    images: Vec<Portrait>,
    alphas: BTreeSet<u8>,
    /// When set, colours are written as DeviceCMYK through this conversion (press output).
    cmyk: Option<CmykOf>,
}

/// A conversion of the faces' sRGB colours to CMYK (0..=1 each), for press output.
pub type CmykOf = std::sync::Arc<dyn Fn(Rgb) -> [f32; 4] + Send + Sync>;

impl PdfCanvas {
    /// A canvas for a `width_mm` x `height_mm` card with `bleed_mm` around it.
    pub fn new(width_mm: f32, height_mm: f32, bleed_mm: f32) -> PdfCanvas {
        let k = UNITS_WIDE / width_mm.max(0.01);
        let mut content = Content::new();
        content.set_miter_limit(4.0);
        PdfCanvas {
            content,
            height: height_mm * k,
            bleed: bleed_mm.max(0.0) * k,
            glyphs: BTreeMap::new(),
            images: Vec::new(),
            alphas: BTreeSet::new(),
            cmyk: None,
        }
    }

    /// The same canvas writing every colour as DeviceCMYK through `cmyk`.
    pub fn with_cmyk(mut self, cmyk: CmykOf) -> PdfCanvas {
        self.cmyk = Some(cmyk);
        self
    }

    pub fn finish(self) -> VectorFace {
        VectorFace {
            content: self.content.finish().into_vec(),
            width: UNITS_WIDE,
            height: self.height,
            bleed: self.bleed,
            glyphs: self.glyphs,
            images: self.images,
            alphas: self.alphas,
        }
    }

    /// Sets the translucency of what follows (inside a saved state).
    fn alpha(&mut self, a: u8) {
        if a < 255 {
            self.alphas.insert(a);
            self.content.set_parameters(Name(alpha_name(a).as_bytes()));
        }
    }

    fn clip(&mut self, r: R) {
        self.content.rect(q(r.x), q(r.y), q(r.w), q(r.h));
        self.content.clip_nonzero();
        self.content.end_path();
    }

    fn trace(&mut self, path: &tiny_skia::Path) {
        let c = &mut self.content;
        let mut cur = (0.0f32, 0.0f32);
        let mut start = cur;
        for seg in path.segments() {
            match seg {
                PathSegment::MoveTo(p) => {
                    c.move_to(q(p.x), q(p.y));
                    cur = (p.x, p.y);
                    start = cur;
                }
                PathSegment::LineTo(p) => {
                    c.line_to(q(p.x), q(p.y));
                    cur = (p.x, p.y);
                }
                PathSegment::QuadTo(k, p) => {
                    // The cubic with the same curve.
                    let c1 = (
                        cur.0 + 2.0 / 3.0 * (k.x - cur.0),
                        cur.1 + 2.0 / 3.0 * (k.y - cur.1),
                    );
                    let c2 = (p.x + 2.0 / 3.0 * (k.x - p.x), p.y + 2.0 / 3.0 * (k.y - p.y));
                    c.cubic_to(q(c1.0), q(c1.1), q(c2.0), q(c2.1), q(p.x), q(p.y));
                    cur = (p.x, p.y);
                }
                PathSegment::CubicTo(a, b, p) => {
                    c.cubic_to(q(a.x), q(a.y), q(b.x), q(b.y), q(p.x), q(p.y));
                    cur = (p.x, p.y);
                }
                PathSegment::Close => {
                    c.close_path();
                    cur = start;
                }
            }
        }
    }

    /// Fills and/or strokes a path in one translucency (the fill's, else the stroke's).
    fn paint(&mut self, path: &tiny_skia::Path, fill: Option<Rgb>, stroke: Option<(Rgb, f32)>) {
        let Some(a) = fill.map(|f| f.3).or(stroke.map(|s| s.0.3)) else {
            return;
        };
        if a < 255 {
            self.content.save_state();
            self.alpha(a);
        }
        if let Some(f) = fill {
            self.set_fill(f);
        }
        if let Some((c, w)) = stroke {
            self.set_stroke(c, w);
        }
        self.trace(path);
        match (fill.is_some(), stroke.is_some()) {
            (true, true) => self.content.fill_nonzero_and_stroke(),
            (true, false) => self.content.fill_nonzero(),
            _ => self.content.stroke(),
        };
        if a < 255 {
            self.content.restore_state();
        }
    }

    fn set_fill(&mut self, c: Rgb) {
        if let Some(f) = &self.cmyk {
            let [c, m, y, k] = f(c);
            self.content.set_fill_cmyk(q(c), q(m), q(y), q(k));
            return;
        }
        self.content.set_fill_rgb(
            q(c.0 as f32 / 255.0),
            q(c.1 as f32 / 255.0),
            q(c.2 as f32 / 255.0),
        );
    }

    fn set_stroke(&mut self, c: Rgb, width: f32) {
        if let Some(f) = &self.cmyk {
            let [c, m, y, k] = f(c);
            self.content.set_stroke_cmyk(q(c), q(m), q(y), q(k));
        } else {
            self.content.set_stroke_rgb(
                q(c.0 as f32 / 255.0),
                q(c.1 as f32 / 255.0),
                q(c.2 as f32 / 255.0),
            );
        }
        self.content.set_line_width(q(width));
    }
}

impl Canvas for PdfCanvas {
    fn trim(&self) -> R {
        R::new(0.0, 0.0, UNITS_WIDE, self.height)
    }

    fn fill_bleed(&mut self, c: Rgb) {
        let b = self.bleed;
        self.rect(
            R::new(-b, -b, UNITS_WIDE + 2.0 * b, self.height + 2.0 * b),
            c,
        );
    }

    fn rect(&mut self, r: R, fill: Rgb) {
        if r.w <= 0.0 || r.h <= 0.0 {
            return;
        }
        let translucent = fill.3 < 255;
        if translucent {
            self.content.save_state();
            self.alpha(fill.3);
        }
        self.set_fill(fill);
        self.content.rect(q(r.x), q(r.y), q(r.w), q(r.h));
        self.content.fill_nonzero();
        if translucent {
            self.content.restore_state();
        }
    }

    fn path(&mut self, path: &tiny_skia::Path, fill: Option<Rgb>, stroke: Option<(Rgb, f32)>) {
        // Fill and stroke are painted separately when their translucencies differ.
        match (fill, stroke) {
            (Some(f), Some(s)) if f.3 != s.0.3 => {
                self.paint(path, Some(f), None);
                self.paint(path, None, Some(s));
            }
            _ => self.paint(path, fill, stroke),
        }
    }

    fn image_cover(&mut self, r: R, img: &Portrait) {
        let (iw, ih) = (img.pixmap.width() as f32, img.pixmap.height() as f32);
        if iw <= 0.0 || ih <= 0.0 || r.w <= 0.0 || r.h <= 0.0 {
            return;
        }
        let k = (r.w / iw).max(r.h / ih);
        let (dw, dh) = (iw * k, ih * k);
        let (ox, oy) = (r.x + (r.w - dw) / 2.0, r.y + (r.h - dh) / 2.0);
        let i = match self.images.iter().position(|p| p.key == img.key) {
            Some(i) => i,
            None => {
                self.images.push(img.clone());
                self.images.len() - 1
            }
        };
        self.content.save_state();
        self.clip(r);
        // The image's first row is the top of the unit square; this space is y down.
        self.content
            .transform([q(dw), 0.0, 0.0, q(-dh), q(ox), q(oy + dh)]);
        self.content.x_object(Name(image_name(i).as_bytes()));
        self.content.restore_state();
    }

    fn text(&mut self, f: &Fitted, clip: R) {
        if f.words.is_empty() {
            return;
        }
        self.content.save_state();
        self.clip(clip);
        self.content.begin_text();
        let mut weight = None;
        let mut color = None;
        let last = f.words.len() - 1;
        let mut bytes = Vec::new();
        for (i, w) in f.words.iter().enumerate() {
            if weight != Some(w.weight) {
                self.content
                    .set_font(font_name(w.weight), q(f.size * em_per_height(w.weight)));
                weight = Some(w.weight);
            }
            if color != Some(w.color) {
                if color.map_or(255, |c| c.3) != w.color.3 {
                    // Inside this block's saved state; `/A255` restores opaque text.
                    self.alphas.insert(w.color.3);
                    self.content
                        .set_parameters(Name(alpha_name(w.color.3).as_bytes()));
                }
                self.set_fill(w.color);
                color = Some(w.color);
            }
            // Flipped back: this space is y down, glyphs are drawn y up.
            self.content
                .set_text_matrix([1.0, 0.0, 0.0, -1.0, q(w.x), q(w.baseline)]);
            // A word is followed by a space (its position does not matter: the next word is
            // placed absolutely), so copied or extracted text keeps its words apart.
            let spaced = (i < last).then_some(' ');
            let em = em_per_height(w.weight);
            let mut shown = self.content.show_positioned();
            let mut items = shown.items();
            let mut prev = None;
            for ch in w.text.chars().chain(spaced) {
                let g = fonts::glyph(w.weight, ch);
                if let Some(p) = prev {
                    let k = fonts::kern(w.weight, p, g.id);
                    if k != 0.0 {
                        items.show(Str(&bytes));
                        bytes.clear();
                        items.adjust(q(-k / em * 1000.0));
                    }
                }
                bytes.extend_from_slice(&g.id.0.to_be_bytes());
                self.glyphs.entry((w.weight, g.id.0)).or_insert(ch);
                prev = Some(g.id);
            }
            items.show(Str(&bytes));
            bytes.clear();
        }
        self.content.end_text();
        self.content.restore_state();
    }

    fn rotated(
        &mut self,
        center: (f32, f32),
        size: (f32, f32),
        degrees: f32,
        draw: &mut dyn FnMut(&mut dyn Canvas),
    ) {
        let (s, c) = degrees.to_radians().sin_cos();
        let (hw, hh) = (size.0 / 2.0, size.1 / 2.0);
        self.content.save_state();
        self.content.transform([
            q(c),
            q(s),
            q(-s),
            q(c),
            q(center.0 - c * hw + s * hh),
            q(center.1 - s * hw - c * hh),
        ]);
        self.clip(R::new(0.0, 0.0, size.0, size.1));
        draw(self);
        self.content.restore_state();
    }
}

/// Draws a side of a card as PDF content.
pub fn draw(
    card: &Card,
    side: Side,
    width_mm: f32,
    height_mm: f32,
    bleed_mm: f32,
    assets: &Assets,
) -> VectorFace {
    let mut c = PdfCanvas::new(width_mm, height_mm, bleed_mm);
    face::draw(&mut c, card, side, assets);
    c.finish()
}

/// Draws the plain back of a game's cards as PDF content.
pub fn draw_back(game: Game, width_mm: f32, height_mm: f32, bleed_mm: f32) -> VectorFace {
    let mut c = PdfCanvas::new(width_mm, height_mm, bleed_mm);
    face::draw_back(&mut c, game);
    c.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grumbolt() -> Card {
        crate::cards::parse_card(
            include_str!("../../cards/iconica/ico-grumbolt.toml"),
            "grumbolt",
        )
        .unwrap()
    }

    #[test]
    fn every_glyph_shown_is_recorded_with_its_character() {
        let f = draw(
            &grumbolt(),
            Side::Front,
            63.0,
            88.0,
            0.0,
            &Assets::default(),
        );
        assert!(f.glyphs.len() > 40, "{} glyphs", f.glyphs.len());
        for (&(w, gid), &ch) in &f.glyphs {
            assert_eq!(fonts::glyph(w, ch).id.0, gid, "{ch:?} in {w:?}");
        }
        let shown: String = f
            .glyphs
            .iter()
            .filter(|((w, _), _)| *w == Weight::Bold)
            .map(|(_, c)| *c)
            .collect();
        for ch in "Grumbolt".chars() {
            assert!(shown.contains(ch), "{ch} missing from {shown}");
        }
        let text = String::from_utf8_lossy(&f.content);
        assert!(
            text.contains("TJ") && text.contains("/F1"),
            "text is shown in the bold font"
        );
    }

    #[test]
    fn the_form_maps_its_bleed_box_onto_the_unit_square() {
        let f = draw_back(Game::Arcadia, 63.0, 88.0, 3.0);
        let m = f.matrix();
        let [x0, y0, x1, y1] = f.bbox();
        let at = |x: f32, y: f32| (m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]);
        let (a, b) = (at(x0, y1), at(x1, y0));
        for (got, want) in [(a.0, 0.0), (a.1, 0.0), (b.0, 1.0), (b.1, 1.0)] {
            assert!((got - want).abs() < 1e-5, "{a:?} {b:?}");
        }
        // The lattice of a back is translucent.
        assert_eq!(f.alphas.iter().copied().collect::<Vec<_>>(), vec![60]);
    }
}
