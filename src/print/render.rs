//! Rendering a card side to RGBA pixels at a physical size and resolution, or at a pixel
//! size for the live preview.

use super::canvas::UNITS_WIDE;
use super::face::{self, Assets, Side};
use super::raster::PixelCanvas;
use crate::cards::{Card, Game};

/// Straight (non-premultiplied) RGBA pixels, row by row; every pixel is opaque.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CardImage {
    pub width: u32,
    pub height: u32,
    pub rgba: Vec<u8>,
}

impl CardImage {
    /// The image as an `image` crate buffer.
    pub fn to_rgba_image(&self) -> image::RgbaImage {
        image::RgbaImage::from_raw(self.width, self.height, self.rgba.clone())
            .expect("the buffer holds width x height RGBA pixels")
    }

    /// The pixels without alpha (RGB, row by row).
    pub fn rgb(&self) -> Vec<u8> {
        self.rgba
            .chunks_exact(4)
            .flat_map(|p| [p[0], p[1], p[2]])
            .collect()
    }

    /// PNG file bytes with the resolution recorded (pHYs) when `dpi` is given.
    pub fn encode_png(&self, dpi: Option<f32>) -> Vec<u8> {
        let mut out = Vec::new();
        {
            let mut enc = png::Encoder::new(&mut out, self.width, self.height);
            enc.set_color(png::ColorType::Rgb);
            enc.set_depth(png::BitDepth::Eight);
            enc.set_compression(png::Compression::Fast);
            if let Some(d) = dpi {
                let ppm = (d / 0.0254).round() as u32;
                enc.set_pixel_dims(Some(png::PixelDimensions {
                    xppu: ppm,
                    yppu: ppm,
                    unit: png::Unit::Meter,
                }));
            }
            let mut w = enc.write_header().expect("writing to memory cannot fail");
            w.write_image_data(&self.rgb())
                .expect("the buffer matches the header");
        }
        out
    }
}

/// What to render: the trim size in millimetres, the bleed, and the resolution.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RenderSpec {
    pub width_mm: f32,
    pub height_mm: f32,
    pub bleed_mm: f32,
    pub dpi: f32,
}

impl RenderSpec {
    /// Poker size (63 x 88 mm), no bleed.
    pub fn poker(dpi: f32) -> RenderSpec {
        RenderSpec {
            width_mm: 63.0,
            height_mm: 88.0,
            bleed_mm: 0.0,
            dpi,
        }
    }

    /// Pixel sizes: (trim width, trim height, bleed).
    pub fn pixels(&self) -> (u32, u32, u32) {
        let px = |mm: f32| (mm / 25.4 * self.dpi).round().max(0.0) as u32;
        (
            px(self.width_mm).max(1),
            px(self.height_mm).max(1),
            px(self.bleed_mm),
        )
    }
}

/// A canvas for `spec` whose trim box is exactly as many card units tall as the card is
/// (not as the rounded pixel count gives), so the layout is the vector PDF's to the word.
fn canvas(spec: &RenderSpec) -> Option<PixelCanvas> {
    let (w, h, b) = spec.pixels();
    let mut c = PixelCanvas::new(w, h, b)?;
    c.height = spec.height_mm * UNITS_WIDE / spec.width_mm;
    Some(c)
}

/// Renders a side of a card (trim box plus bleed) at `spec`.
///
/// Returns `None` only when the size is empty or too large to allocate.
pub fn render(card: &Card, side: Side, spec: &RenderSpec, assets: &Assets) -> Option<CardImage> {
    let mut c = canvas(spec)?;
    face::draw(&mut c, card, side, assets);
    Some(finish(c))
}

/// Renders the plain back of a game's cards at `spec`.
pub fn render_back(game: Game, spec: &RenderSpec) -> Option<CardImage> {
    let mut c = canvas(spec)?;
    face::draw_back(&mut c, game);
    Some(finish(c))
}

/// Renders a side of a card at an exact pixel size: a `trim` box of (width, height) pixels
/// with `bleed` pixels around it (a vendor's template, a Tabletop Simulator sheet cell).
pub fn render_pixels(
    card: &Card,
    side: Side,
    trim: (u32, u32),
    bleed: u32,
    assets: &Assets,
) -> Option<CardImage> {
    let mut c = PixelCanvas::new(trim.0, trim.1, bleed)?;
    face::draw(&mut c, card, side, assets);
    Some(finish(c))
}

/// The plain back of a game's cards at an exact pixel size (see [`render_pixels`]).
pub fn render_back_pixels(game: Game, trim: (u32, u32), bleed: u32) -> Option<CardImage> {
    let mut c = PixelCanvas::new(trim.0, trim.1, bleed)?;
    face::draw_back(&mut c, game);
    Some(finish(c))
}

/// The front of a poker-size card at `dpi` (300 for print).
pub fn render_card(card: &Card, dpi: f32) -> CardImage {
    render(
        card,
        Side::Front,
        &RenderSpec::poker(dpi.clamp(10.0, 1200.0)),
        &Assets::default(),
    )
    .expect("a poker card at 10 to 1200 dpi can be allocated")
}

/// The live preview: the front of `card` filling `width` x `height` pixels (e.g. 250 x 350).
/// The card keeps its 63 x 88 proportions as far as the box allows: its width is `width`
/// and its height `height`. Portraits resolve against `assets`.
pub fn render_preview(card: &Card, width: u32, height: u32, assets: &Assets) -> CardImage {
    let mut c = PixelCanvas::new(width.clamp(16, 4096), height.clamp(16, 4096), 0)
        .expect("a canvas of at most 4096 x 4096 pixels can be allocated");
    face::draw(&mut c, card, Side::Front, assets);
    finish(c)
}

fn finish(c: PixelCanvas) -> CardImage {
    let (width, height) = (c.pixmap.width(), c.pixmap.height());
    let mut rgba = c.pixmap.take();
    // Every canvas is painted opaque first, so premultiplied equals straight, except where
    // a face leaves translucent pixels; demultiply those.
    for p in rgba.chunks_exact_mut(4) {
        let a = p[3];
        if a != 255 && a != 0 {
            for ch in &mut p[..3] {
                *ch = ((*ch as u32 * 255 + a as u32 / 2) / a as u32).min(255) as u8;
            }
        }
    }
    CardImage {
        width,
        height,
        rgba,
    }
}

/// A face template drawn for `card`'s front (`None`: as a back) at an exact pixel size
/// (the Template screen's preview of a template not in use yet).
pub fn render_face(
    face: &super::template::Face,
    card: Option<&Card>,
    width: u32,
    height: u32,
    assets: &Assets,
) -> CardImage {
    let mut c = PixelCanvas::new(width.clamp(16, 4096), height.clamp(16, 4096), 0)
        .expect("a canvas of at most 4096 x 4096 pixels can be allocated");
    super::template::draw::draw(&mut c, face, card, Side::Front, assets);
    finish(c)
}
