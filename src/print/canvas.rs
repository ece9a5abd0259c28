//! A pixel canvas addressed in card units: 63 units across the card's trim width whatever
//! its size in millimetres or pixels, so one drawing serves the preview and the print.
//!
//! The canvas may carry a bleed margin around the trim box: `fill_bleed` paints it, every
//! other drawing is placed relative to the trim box's top-left corner.

use tiny_skia::{
    FillRule, FilterQuality, Paint, PathBuilder, Pattern, Pixmap, PixmapPaint, SpreadMode, Stroke,
    Transform,
};

use super::fonts::{self, Weight};

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
    fn paint(self) -> Paint<'static> {
        let mut p = Paint::default();
        p.set_color_rgba8(self.0, self.1, self.2, self.3);
        p.anti_alias = true;
        p
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

/// A pixmap with a trim box drawn in card units.
pub struct Canvas {
    pub pixmap: Pixmap,
    /// Pixels per card unit.
    pub scale: f32,
    /// Pixel offset of the trim box (the bleed).
    pub origin: f32,
    /// Trim box height in card units (63 units wide).
    pub height: f32,
}

impl Canvas {
    /// A canvas whose trim box is `trim_w` x `trim_h` pixels with `bleed` pixels around it.
    /// Returns `None` for an empty or absurdly large size.
    pub fn new(trim_w: u32, trim_h: u32, bleed: u32) -> Option<Canvas> {
        if trim_w == 0 || trim_h == 0 {
            return None;
        }
        let pixmap = Pixmap::new(trim_w + 2 * bleed, trim_h + 2 * bleed)?;
        let scale = trim_w as f32 / UNITS_WIDE;
        Some(Canvas { pixmap, scale, origin: bleed as f32, height: trim_h as f32 / scale })
    }

    /// The trim box in card units.
    pub fn trim(&self) -> R {
        R::new(0.0, 0.0, UNITS_WIDE, self.height)
    }

    fn ts(&self) -> Transform {
        Transform::from_row(self.scale, 0.0, 0.0, self.scale, self.origin, self.origin)
    }

    /// Paints the whole pixmap, bleed included.
    pub fn fill_bleed(&mut self, c: Rgb) {
        let c = tiny_skia::Color::from_rgba8(c.0, c.1, c.2, c.3);
        self.pixmap.fill(c);
    }

    pub fn rect(&mut self, r: R, fill: Rgb) {
        if let Some(rect) = tiny_skia::Rect::from_xywh(r.x, r.y, r.w, r.h) {
            let ts = self.ts();
            self.pixmap.fill_rect(rect, &fill.paint(), ts, None);
        }
    }

    /// A rounded rectangle, filled and/or outlined (`stroke`: colour and width in units).
    pub fn round_rect(&mut self, r: R, radius: f32, fill: Option<Rgb>, stroke: Option<(Rgb, f32)>) {
        let Some(path) = round_rect_path(r, radius) else { return };
        self.path(&path, fill, stroke);
    }

    pub fn circle(&mut self, cx: f32, cy: f32, radius: f32, fill: Option<Rgb>, stroke: Option<(Rgb, f32)>) {
        let Some(path) = PathBuilder::from_circle(cx, cy, radius.max(0.01)) else { return };
        self.path(&path, fill, stroke);
    }

    /// A closed polygon.
    pub fn polygon(&mut self, pts: &[(f32, f32)], fill: Option<Rgb>, stroke: Option<(Rgb, f32)>) {
        let mut pb = PathBuilder::new();
        for (i, &(x, y)) in pts.iter().enumerate() {
            if i == 0 { pb.move_to(x, y) } else { pb.line_to(x, y) }
        }
        pb.close();
        if let Some(path) = pb.finish() {
            self.path(&path, fill, stroke);
        }
    }

    pub fn line(&mut self, a: (f32, f32), b: (f32, f32), color: Rgb, width: f32) {
        let mut pb = PathBuilder::new();
        pb.move_to(a.0, a.1);
        pb.line_to(b.0, b.1);
        if let Some(path) = pb.finish() {
            self.path(&path, None, Some((color, width)));
        }
    }

    fn path(&mut self, path: &tiny_skia::Path, fill: Option<Rgb>, stroke: Option<(Rgb, f32)>) {
        let ts = self.ts();
        if let Some(f) = fill {
            self.pixmap.fill_path(path, &f.paint(), FillRule::Winding, ts, None);
        }
        if let Some((c, w)) = stroke {
            let s = Stroke { width: w, ..Stroke::default() };
            self.pixmap.stroke_path(path, &c.paint(), &s, ts, None);
        }
    }

    /// Draws `img` scaled to cover `r` (cropped, centred, aspect kept).
    pub fn image_cover(&mut self, r: R, img: &Pixmap) {
        let (iw, ih) = (img.width() as f32, img.height() as f32);
        if iw <= 0.0 || ih <= 0.0 || r.w <= 0.0 || r.h <= 0.0 {
            return;
        }
        let k = (r.w / iw).max(r.h / ih);
        let (dw, dh) = (iw * k, ih * k);
        let (ox, oy) = (r.x + (r.w - dw) / 2.0, r.y + (r.h - dh) / 2.0);
        let shader_ts = Transform::from_row(k, 0.0, 0.0, k, ox, oy);
        let paint = Paint {
            shader: Pattern::new(img.as_ref(), SpreadMode::Pad, FilterQuality::Bilinear, 1.0, shader_ts),
            ..Paint::default()
        };
        if let Some(rect) = tiny_skia::Rect::from_xywh(r.x, r.y, r.w, r.h) {
            let ts = self.ts();
            self.pixmap.fill_rect(rect, &paint, ts, None);
        }
    }

    /// Draws one run of text with its baseline at `(x, baseline)`, clipped to `clip`.
    #[allow(clippy::too_many_arguments)]
    pub fn glyphs(&mut self, text: &str, weight: Weight, size: f32, x: f32, baseline: f32, color: Rgb, clip: R) {
        use ab_glyph::{Font, ScaleFont};
        let px = size * self.scale;
        let scale_factor = fonts::font(weight).as_scaled(px).scale_factor();
        let mut caret = self.origin + x * self.scale;
        let base = self.origin + baseline * self.scale;
        let cx0 = (self.origin + clip.x * self.scale).floor().max(0.0) as i64;
        let cy0 = (self.origin + clip.y * self.scale).floor().max(0.0) as i64;
        let cx1 = ((self.origin + clip.right() * self.scale).ceil() as i64).min(self.pixmap.width() as i64);
        let cy1 = ((self.origin + clip.bottom() * self.scale).ceil() as i64).min(self.pixmap.height() as i64);
        let width = self.pixmap.width() as i64;
        let pixels = self.pixmap.pixels_mut();
        let mut prev = None;
        for ch in text.chars() {
            let g = fonts::glyph(weight, ch);
            if let Some(p) = prev {
                caret += fonts::kern(weight, p, g.id) * px;
            }
            let glyph = g.id.with_scale_and_position(px, ab_glyph::point(caret, base));
            caret += g.advance * px;
            prev = Some(g.id);
            let Some(outline) = g.outline else { continue };
            let og = ab_glyph::OutlinedGlyph::new(glyph, (*outline).clone(), scale_factor);
            let b = og.px_bounds();
            og.draw(|gx, gy, cov| {
                let x = b.min.x as i64 + gx as i64;
                let y = b.min.y as i64 + gy as i64;
                if x < cx0 || y < cy0 || x >= cx1 || y >= cy1 {
                    return;
                }
                let i = (y * width + x) as usize;
                pixels[i] = blend(pixels[i], color, cov);
            });
        }
    }

    /// Composites `other` (drawn in its own units) rotated by `degrees` about its centre,
    /// with that centre placed at `(cx, cy)` of this canvas.
    pub fn composite_rotated(&mut self, other: &Canvas, cx: f32, cy: f32, degrees: f32) {
        let (w, h) = (other.pixmap.width() as f32, other.pixmap.height() as f32);
        let ts = Transform::from_translate(-w / 2.0, -h / 2.0)
            .post_rotate(degrees)
            .post_translate(self.origin + cx * self.scale, self.origin + cy * self.scale);
        let paint = PixmapPaint { quality: FilterQuality::Bilinear, ..PixmapPaint::default() };
        self.pixmap.draw_pixmap(0, 0, other.pixmap.as_ref(), &paint, ts, None);
    }
}

/// Source-over of a colour at `cov` coverage onto a premultiplied pixel.
fn blend(dst: tiny_skia::PremultipliedColorU8, c: Rgb, cov: f32) -> tiny_skia::PremultipliedColorU8 {
    let a = (cov.clamp(0.0, 1.0) * c.3 as f32 / 255.0).clamp(0.0, 1.0);
    if a <= 0.0 {
        return dst;
    }
    let inv = 1.0 - a;
    let ch = |s: u8, d: u8| ((s as f32 * a) + d as f32 * inv).round().clamp(0.0, 255.0) as u8;
    let out_a = (255.0 * a + dst.alpha() as f32 * inv).round().clamp(0.0, 255.0) as u8;
    let (r, g, b) = (ch(c.0, dst.red()), ch(c.1, dst.green()), ch(c.2, dst.blue()));
    tiny_skia::PremultipliedColorU8::from_rgba(r.min(out_a), g.min(out_a), b.min(out_a), out_a).unwrap_or(dst)
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
