//! The drawing surface of a card face, addressed in card units: 63 units across the card's
//! trim width whatever its size in millimetres or pixels, y growing downwards, the origin at
//! the trim box's top-left corner. A face is one drawing made of these calls, so every
//! backend shows the same card:
//!
//! - [`super::raster::PixelCanvas`]: tiny-skia pixels (the app's preview, PNG export);
//! - [`super::vector::PdfCanvas`]: a PDF content stream (vector shapes and real text) for the
//!   print PDF.
//!
//! A canvas may carry a bleed margin around the trim box: `fill_bleed` paints it, every
//! other drawing is placed relative to the trim box.

use std::path::PathBuf;
use std::sync::Arc;

use tiny_skia::{PathBuilder, Pixmap};

use super::text::Fitted;

/// Width of every card in card units.
pub const UNITS_WIDE: f32 = 63.0;

/// An opaque or translucent colour.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rgb(pub u8, pub u8, pub u8, pub u8);

impl Rgb {
    pub const fn hex(v: u32) -> Rgb {
        Rgb((v >> 16) as u8, (v >> 8) as u8, v as u8, 255)
    }
    pub const fn alpha(self, a: u8) -> Rgb {
        Rgb(self.0, self.1, self.2, a)
    }
}

/// A rectangle in card units.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct R {
    pub x: f32,
    pub y: f32,
    pub w: f32,
    pub h: f32,
}

impl R {
    pub const fn new(x: f32, y: f32, w: f32, h: f32) -> R {
        R { x, y, w, h }
    }
    pub fn inset(self, d: f32) -> R {
        R::new(self.x + d, self.y + d, (self.w - 2.0 * d).max(0.0), (self.h - 2.0 * d).max(0.0))
    }
    pub fn inset_xy(self, dx: f32, dy: f32) -> R {
        R::new(self.x + dx, self.y + dy, (self.w - 2.0 * dx).max(0.0), (self.h - 2.0 * dy).max(0.0))
    }
    pub fn right(self) -> f32 {
        self.x + self.w
    }
    pub fn bottom(self) -> f32 {
        self.y + self.h
    }
    /// The top `h` units and the rest.
    pub fn split_top(self, h: f32) -> (R, R) {
        let h = h.min(self.h);
        (R::new(self.x, self.y, self.w, h), R::new(self.x, self.y + h, self.w, self.h - h))
    }
    /// The bottom `h` units and the rest (rest first).
    pub fn split_bottom(self, h: f32) -> (R, R) {
        let h = h.min(self.h);
        (R::new(self.x, self.y, self.w, self.h - h), R::new(self.x, self.bottom() - h, self.w, h))
    }
    /// The left `w` units and the rest.
    pub fn split_left(self, w: f32) -> (R, R) {
        let w = w.min(self.w);
        (R::new(self.x, self.y, w, self.h), R::new(self.x + w, self.y, self.w - w, self.h))
    }
    /// The rest and the right `w` units.
    pub fn split_right(self, w: f32) -> (R, R) {
        let w = w.min(self.w);
        (R::new(self.x, self.y, self.w - w, self.h), R::new(self.right() - w, self.y, w, self.h))
    }
    /// `n` equal columns with `gap` between them.
    pub fn columns(self, n: usize, gap: f32) -> Vec<R> {
        let n = n.max(1);
        let w = (self.w - gap * (n - 1) as f32) / n as f32;
        (0..n).map(|i| R::new(self.x + i as f32 * (w + gap), self.y, w, self.h)).collect()
    }
    /// `n` equal rows with `gap` between them.
    pub fn rows(self, n: usize, gap: f32) -> Vec<R> {
        let n = n.max(1);
        let h = (self.h - gap * (n - 1) as f32) / n as f32;
        (0..n).map(|i| R::new(self.x, self.y + i as f32 * (h + gap), self.w, h)).collect()
    }
    pub fn center(self) -> (f32, f32) {
        (self.x + self.w / 2.0, self.y + self.h / 2.0)
    }
}

/// A decoded portrait: the file it came from (a PDF embeds each file once) and its pixels.
#[derive(Debug, Clone)]
pub struct Portrait {
    pub key: PathBuf,
    pub pixmap: Arc<Pixmap>,
}

/// What a card face draws on. Backends implement the primitives; the shapes built from
/// paths are provided.
pub trait Canvas {
    /// The trim box in card units.
    fn trim(&self) -> R;

    /// Paints the whole surface, bleed included.
    fn fill_bleed(&mut self, c: Rgb);

    /// Fills and/or outlines (`stroke`: colour and width in units) a path in card units.
    /// Fills use the non-zero winding rule; strokes have butt caps and miter joins.
    fn path(&mut self, path: &tiny_skia::Path, fill: Option<Rgb>, stroke: Option<(Rgb, f32)>);

    /// Draws `img` scaled to cover `r` (cropped, centred, aspect kept).
    fn image_cover(&mut self, r: R, img: &Portrait);

    /// Draws laid-out text (every word of `f`), clipped to `clip`.
    fn text(&mut self, f: &Fitted, clip: R);

    /// Runs `draw` on a `size` (w x h units) box whose origin is its top-left corner, then
    /// shows that box turned by `degrees` (clockwise) about its centre, the centre placed at
    /// `center` of this canvas.
    fn rotated(&mut self, center: (f32, f32), size: (f32, f32), degrees: f32, draw: &mut dyn FnMut(&mut dyn Canvas));

    fn rect(&mut self, r: R, fill: Rgb) {
        if let Some(rect) = tiny_skia::Rect::from_xywh(r.x, r.y, r.w, r.h) {
            self.path(&PathBuilder::from_rect(rect), Some(fill), None);
        }
    }

    /// A rounded rectangle, filled and/or outlined.
    fn round_rect(&mut self, r: R, radius: f32, fill: Option<Rgb>, stroke: Option<(Rgb, f32)>) {
        if let Some(path) = round_rect_path(r, radius) {
            self.path(&path, fill, stroke);
        }
    }

    fn circle(&mut self, cx: f32, cy: f32, radius: f32, fill: Option<Rgb>, stroke: Option<(Rgb, f32)>) {
        if let Some(path) = PathBuilder::from_circle(cx, cy, radius.max(0.01)) {
            self.path(&path, fill, stroke);
        }
    }

    /// A closed polygon.
    fn polygon(&mut self, pts: &[(f32, f32)], fill: Option<Rgb>, stroke: Option<(Rgb, f32)>) {
        let mut pb = PathBuilder::new();
        for (i, &(x, y)) in pts.iter().enumerate() {
            if i == 0 { pb.move_to(x, y) } else { pb.line_to(x, y) }
        }
        pb.close();
        if let Some(path) = pb.finish() {
            self.path(&path, fill, stroke);
        }
    }

    fn line(&mut self, a: (f32, f32), b: (f32, f32), color: Rgb, width: f32) {
        let mut pb = PathBuilder::new();
        pb.move_to(a.0, a.1);
        pb.line_to(b.0, b.1);
        if let Some(path) = pb.finish() {
            self.path(&path, None, Some((color, width)));
        }
    }
}

fn round_rect_path(r: R, radius: f32) -> Option<tiny_skia::Path> {
    let rad = radius.min(r.w / 2.0).min(r.h / 2.0).max(0.0);
    if rad <= 0.0 {
        return tiny_skia::Rect::from_xywh(r.x, r.y, r.w, r.h).map(PathBuilder::from_rect);
    }
    let k = 0.5523 * rad;
    let (x0, y0, x1, y1) = (r.x, r.y, r.right(), r.bottom());
    let mut pb = PathBuilder::new();
    pb.move_to(x0 + rad, y0);
    pb.line_to(x1 - rad, y0);
    pb.cubic_to(x1 - rad + k, y0, x1, y0 + rad - k, x1, y0 + rad);
    pb.line_to(x1, y1 - rad);
    pb.cubic_to(x1, y1 - rad + k, x1 - rad + k, y1, x1 - rad, y1);
    pb.line_to(x0 + rad, y1);
    pb.cubic_to(x0 + rad - k, y1, x0, y1 - rad + k, x0, y1 - rad);
    pb.line_to(x0, y0 + rad);
    pb.cubic_to(x0, y0 + rad - k, x0 + rad - k, y0, x0 + rad, y0);
    pb.close();
    pb.finish()
}
