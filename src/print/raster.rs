//! The pixel backend of [`Canvas`]: tiny-skia shapes and ab_glyph text coverage on a
//! pixmap, for the app's live preview and the PNG export.

use tiny_skia::{FillRule, FilterQuality, Paint, Pattern, Pixmap, PixmapPaint, SpreadMode, Stroke, Transform};

use super::canvas::{Canvas, Portrait, R, Rgb, UNITS_WIDE};
use super::fonts::{self, Weight};
use super::text::Fitted;

fn paint(c: Rgb) -> Paint<'static> {
    let mut p = Paint::default();
    p.set_color_rgba8(c.0, c.1, c.2, c.3);
    p.anti_alias = true;
    p
}

/// A pixmap with a trim box drawn in card units.
pub struct PixelCanvas {
    pub pixmap: Pixmap,
    /// Pixels per card unit.
    pub scale: f32,
    /// Pixel offset of the trim box (the bleed).
    pub origin: f32,
    /// Trim box height in card units (63 units wide).
    pub height: f32,
}

impl PixelCanvas {
    /// A canvas whose trim box is `trim_w` x `trim_h` pixels with `bleed` pixels around it.
    /// Returns `None` for an empty or absurdly large size.
    pub fn new(trim_w: u32, trim_h: u32, bleed: u32) -> Option<PixelCanvas> {
        if trim_w == 0 || trim_h == 0 {
            return None;
        }
        let pixmap = Pixmap::new(trim_w + 2 * bleed, trim_h + 2 * bleed)?;
        let scale = trim_w as f32 / UNITS_WIDE;
        Some(PixelCanvas { pixmap, scale, origin: bleed as f32, height: trim_h as f32 / scale })
    }

    fn ts(&self) -> Transform {
        Transform::from_row(self.scale, 0.0, 0.0, self.scale, self.origin, self.origin)
    }

    /// Draws one run of text with its baseline at `(x, baseline)`, clipped to `clip`.
    #[allow(clippy::too_many_arguments)]
    fn glyphs(&mut self, text: &str, weight: Weight, size: f32, x: f32, baseline: f32, color: Rgb, clip: R) {
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
}

impl Canvas for PixelCanvas {
    fn trim(&self) -> R {
        R::new(0.0, 0.0, UNITS_WIDE, self.height)
    }

    fn fill_bleed(&mut self, c: Rgb) {
        self.pixmap.fill(tiny_skia::Color::from_rgba8(c.0, c.1, c.2, c.3));
    }

    fn rect(&mut self, r: R, fill: Rgb) {
        if let Some(rect) = tiny_skia::Rect::from_xywh(r.x, r.y, r.w, r.h) {
            let ts = self.ts();
            self.pixmap.fill_rect(rect, &paint(fill), ts, None);
        }
    }

    fn path(&mut self, path: &tiny_skia::Path, fill: Option<Rgb>, stroke: Option<(Rgb, f32)>) {
        let ts = self.ts();
        if let Some(f) = fill {
            self.pixmap.fill_path(path, &paint(f), FillRule::Winding, ts, None);
        }
        if let Some((c, w)) = stroke {
            let s = Stroke { width: w, ..Stroke::default() };
            self.pixmap.stroke_path(path, &paint(c), &s, ts, None);
        }
    }

    fn image_cover(&mut self, r: R, img: &Portrait) {
        let img = &img.pixmap;
        let (iw, ih) = (img.width() as f32, img.height() as f32);
        if iw <= 0.0 || ih <= 0.0 || r.w <= 0.0 || r.h <= 0.0 {
            return;
        }
        let k = (r.w / iw).max(r.h / ih);
        let (dw, dh) = (iw * k, ih * k);
        let (ox, oy) = (r.x + (r.w - dw) / 2.0, r.y + (r.h - dh) / 2.0);
        let shader_ts = Transform::from_row(k, 0.0, 0.0, k, ox, oy);
        let paint = Paint {
            shader: Pattern::new(img.as_ref().as_ref(), SpreadMode::Pad, FilterQuality::Bilinear, 1.0, shader_ts),
            ..Paint::default()
        };
        if let Some(rect) = tiny_skia::Rect::from_xywh(r.x, r.y, r.w, r.h) {
            let ts = self.ts();
            self.pixmap.fill_rect(rect, &paint, ts, None);
        }
    }

    fn text(&mut self, f: &Fitted, clip: R) {
        for w in &f.words {
            self.glyphs(&w.text, w.weight, f.size, w.x, w.baseline, w.color, clip);
        }
    }

    /// Draws on a transparent strip of the box's size, then composites it turned.
    fn rotated(&mut self, center: (f32, f32), size: (f32, f32), degrees: f32, draw: &mut dyn FnMut(&mut dyn Canvas)) {
        let px = |u: f32| (u * self.scale).round().max(1.0) as u32;
        let Some(mut strip) = PixelCanvas::new(px(size.0), px(size.1), 0) else { return };
        strip.scale = self.scale;
        strip.height = size.1;
        draw(&mut strip);
        let (w, h) = (strip.pixmap.width() as f32, strip.pixmap.height() as f32);
        let ts = Transform::from_translate(-w / 2.0, -h / 2.0)
            .post_rotate(degrees)
            .post_translate(self.origin + center.0 * self.scale, self.origin + center.1 * self.scale);
        let paint = PixmapPaint { quality: FilterQuality::Bilinear, ..PixmapPaint::default() };
        self.pixmap.draw_pixmap(0, 0, strip.pixmap.as_ref(), &paint, ts, None);
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
