//! Press-ready output: the faces in CMYK, converted through an ICC output profile by Little
//! CMS (the `lcms2` crate) with the total ink limited, written as PDF/X-1a:2003 with its
//! output intent. DriveThruCards' preset writes this (see `docs/print/press.md`).
//!
//! PDF/X-1a allows only CMYK (and grey) colour, no transparency and only embedded fonts. The
//! faces are drawn with translucent shapes, so each face is written in two layers:
//!
//! - the **art**: everything but the opaque text, flattened by the pixel renderer at
//!   [`RASTER_DPI`] over the bleed box (white under it), converted to CMYK pixel by pixel;
//! - the **text**: every opaque word drawn as vector text in the embedded (subset) DejaVu
//!   fonts, its colour converted the same way, over the art.
//!
//! Translucent text, rare on the faces, goes with the art. Text is drawn last: a shape drawn
//! over a word on the screen would lie under it here (no bundled face does that).

use std::sync::{Arc, OnceLock};

use lcms2::{ColorSpaceSignature, DisallowCache, Flags, GlobalContext, Intent, PixelFormat};
use lcms2::{Profile, Transform};
use pdf_writer::types::{OutputIntentSubtype, TrappingStatus};
use pdf_writer::{Content, Date, Filter, Finish, Name, Pdf, Rect as PdfRect, Str, TextStr};

use super::canvas::{Canvas, Portrait, R, Rgb};
use super::face::{self, Assets, Side};
use super::fonts::Weight;
use super::pdf::{self, MM, PdfError, Refs};
use super::raster::PixelCanvas;
use super::text::Fitted;
use super::vector::{PdfCanvas, VectorFace};
use crate::cards::{Card, Game};

/// The output profile: CGATS TR 003 (SWOP coated, grade 3) made into an ICC profile by
/// ArgyllCMS's `colprof` with a 240% total ink limit (`assets/icc/README.md` says how).
pub const PROFILE: &[u8] = include_bytes!("../../assets/icc/SWOP-TR003-240.icc");
/// The output condition the profile characterises, as the ICC registry names it.
pub const CONDITION: &str = "CGATS TR 003";
/// Total ink (the sum of C, M, Y and K, in percent) the conversion keeps every colour under.
pub const INK_LIMIT: f32 = 240.0;
/// The resolution the art layer is flattened at: what the vendors ask art to have.
pub const RASTER_DPI: f32 = 300.0;

/// The sRGB -> CMYK conversion of every colour written: the profile chained with Little
/// CMS's ink-limiting device link (perceptual intent). Built once.
pub struct Press {
    transform: Transform<[u8; 3], [u8; 4], GlobalContext, DisallowCache>,
}

impl Press {
    /// The shared conversion, or why the profile could not be read.
    pub fn get() -> Result<&'static Press, String> {
        static PRESS: OnceLock<Result<Press, String>> = OnceLock::new();
        PRESS.get_or_init(Press::new).as_ref().map_err(Clone::clone)
    }

    fn new() -> Result<Press, String> {
        let srgb = Profile::new_srgb();
        let cmyk =
            Profile::new_icc(PROFILE).map_err(|e| format!("the bundled CMYK profile: {e}"))?;
        let link = Profile::ink_limiting(ColorSpaceSignature::CmykData, INK_LIMIT as f64)
            .map_err(|e| format!("the ink-limiting link: {e}"))?;
        let transform = Transform::new_multiprofile_context(
            GlobalContext::new(),
            &[&srgb, &cmyk, &link],
            PixelFormat::RGB_8,
            PixelFormat::CMYK_8,
            Intent::Perceptual,
            Flags::NO_CACHE,
        )
        .map_err(|e| format!("the sRGB to CMYK transform: {e}"))?;
        Ok(Press { transform })
    }

    /// CMYK (0..=255 each, 255 = 100% ink) of sRGB pixels.
    pub fn convert(&self, rgb: &[[u8; 3]]) -> Vec<[u8; 4]> {
        let mut out = vec![[0u8; 4]; rgb.len()];
        self.transform.transform_pixels(rgb, &mut out);
        out
    }

    /// One colour as CMYK fractions (0..=1). Pure black is black ink alone: text in 100% K
    /// does not blur when the four plates are slightly out of register.
    pub fn cmyk(&self, c: Rgb) -> [f32; 4] {
        if (c.0, c.1, c.2) == (0, 0, 0) {
            return [0.0, 0.0, 0.0, 1.0];
        }
        let [v] = self.convert(&[[c.0, c.1, c.2]])[..] else {
            return [0.0, 0.0, 0.0, 1.0];
        };
        v.map(|x| x as f32 / 255.0)
    }
}

/// Total ink of a CMYK pixel (0..=255 channels), in percent.
pub fn ink(p: [u8; 4]) -> f32 {
    p.iter().map(|&v| v as f32).sum::<f32>() / 255.0 * 100.0
}

/// A canvas that passes on either only the opaque text (`text`), or everything else.
struct Only<'a> {
    inner: &'a mut dyn Canvas,
    text: bool,
}

impl Canvas for Only<'_> {
    fn trim(&self) -> R {
        self.inner.trim()
    }
    fn fill_bleed(&mut self, c: Rgb) {
        if !self.text {
            self.inner.fill_bleed(c);
        }
    }
    fn rect(&mut self, r: R, fill: Rgb) {
        if !self.text {
            self.inner.rect(r, fill);
        }
    }
    fn path(&mut self, path: &tiny_skia::Path, fill: Option<Rgb>, stroke: Option<(Rgb, f32)>) {
        if !self.text {
            self.inner.path(path, fill, stroke);
        }
    }
    fn image_cover(&mut self, r: R, img: &Portrait) {
        if !self.text {
            self.inner.image_cover(r, img);
        }
    }
    fn text(&mut self, f: &Fitted, clip: R) {
        let want = self.text;
        let words: Vec<_> = f
            .words
            .iter()
            .filter(|w| (w.color.3 == 255) == want)
            .cloned()
            .collect();
        if !words.is_empty() {
            self.inner.text(&Fitted { words, ..f.clone() }, clip);
        }
    }
    fn rotated(
        &mut self,
        center: (f32, f32),
        size: (f32, f32),
        degrees: f32,
        draw: &mut dyn FnMut(&mut dyn Canvas),
    ) {
        let text = self.text;
        self.inner.rotated(center, size, degrees, &mut |c| {
            draw(&mut Only { inner: c, text });
        });
    }
}

/// A face ready for the press: the art in CMYK pixels over the bleed box, and the text.
pub struct PressFace {
    /// CMYK pixels, four bytes each, rows from the top.
    pub cmyk: Vec<u8>,
    pub pixels: (u32, u32),
    /// The opaque text, its colours in CMYK.
    pub text: VectorFace,
}

/// What a face is drawn from: a card's side, or a game's plain back.
#[derive(Debug, Clone, Copy)]
pub enum Source<'a> {
    Side(&'a Card, Side),
    Back(Game),
}

/// Draws a face for the press: `width_mm` x `height_mm` with `bleed_mm` around it.
pub fn draw(
    src: Source<'_>,
    width_mm: f32,
    height_mm: f32,
    bleed_mm: f32,
    assets: &Assets,
    press: &'static Press,
) -> Result<PressFace, String> {
    let px = |mm: f32| mm / 25.4 * RASTER_DPI;
    // The bleed a whole number of pixels, the trim box taking what is left of the page.
    let bleed = px(bleed_mm).floor().max(0.0) as u32;
    let (pw, ph) = (
        px(width_mm + 2.0 * bleed_mm).round() as u32,
        px(height_mm + 2.0 * bleed_mm).round() as u32,
    );
    let (tw, th) = (
        pw.saturating_sub(2 * bleed).max(1),
        ph.saturating_sub(2 * bleed).max(1),
    );
    let mut art = PixelCanvas::new(tw, th, bleed)
        .ok_or_else(|| format!("a {width_mm} x {height_mm} mm face is too large to flatten"))?;
    let mut text =
        PdfCanvas::new(width_mm, height_mm, bleed_mm).with_cmyk(Arc::new(move |c| press.cmyk(c)));
    let paint = |c: &mut dyn Canvas| match src {
        Source::Side(card, side) => face::draw(c, card, side, assets),
        Source::Back(g) => face::draw_back(c, g),
    };
    paint(&mut Only {
        inner: &mut art,
        text: false,
    });
    paint(&mut Only {
        inner: &mut text,
        text: true,
    });
    // Over white paper: a pixel the art leaves translucent shows the paper.
    let rgb: Vec<[u8; 3]> = art
        .pixmap
        .pixels()
        .iter()
        .map(|p| {
            let a = p.alpha() as u16;
            let over = |v: u8| (v as u16 + (255 - a)).min(255) as u8;
            [over(p.red()), over(p.green()), over(p.blue())]
        })
        .collect();
    let cmyk = press.convert(&rgb).concat();
    Ok(PressFace {
        cmyk,
        pixels: (art.pixmap.width(), art.pixmap.height()),
        text: text.finish(),
    })
}

/// The date written in the document's information (PDF/X asks for one): `SOURCE_DATE_EPOCH`
/// when it is set (reproducible builds), else now, in UTC.
pub fn now() -> Date {
    let secs = std::env::var("SOURCE_DATE_EPOCH")
        .ok()
        .and_then(|s| s.trim().parse::<i64>().ok())
        .unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|d| d.as_secs() as i64)
                .unwrap_or(0)
        });
    let (days, rem) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    // Days since 1970-01-01 to a civil date (the proleptic Gregorian calendar).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u8;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u8;
    let year = (yoe + era * 400 + i64::from(month <= 2)).clamp(0, 9999) as u16;
    Date::new(year)
        .month(month)
        .day(day)
        .hour((rem / 3600) as u8)
        .minute((rem / 60 % 60) as u8)
        .second((rem % 60) as u8)
        .utc_offset_hour(0)
        .utc_offset_minute(0)
}

/// Writes PDF/X-1a:2003: one page per entry of `pages` (an index into `faces`), each page
/// the face's bleed box (`width_mm` x `height_mm` and `bleed_mm` around it) with its trim
/// and bleed boxes, the CMYK output intent with the profile embedded.
pub fn write_pdfx(
    title: &str,
    (width_mm, height_mm, bleed_mm): (f32, f32, f32),
    faces: &[PressFace],
    pages: &[usize],
    date: Date,
) -> Result<Vec<u8>, PdfError> {
    if let Some((i, &f)) = pages.iter().enumerate().find(|(_, f)| **f >= faces.len()) {
        return Err(PdfError::MissingFace {
            page: i + 1,
            face: f,
            count: faces.len(),
        });
    }
    let mut refs = Refs(0);
    let catalog_id = refs.next();
    let tree_id = refs.next();
    let info_id = refs.next();
    let icc_id = refs.next();
    let page_ids: Vec<_> = pages.iter().map(|_| (refs.next(), refs.next())).collect();

    let mut pdf = Pdf::new();
    pdf.set_version(1, 4);
    // The file identifier PDF/X asks for: a digest of what the document holds.
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for b in title
        .bytes()
        .chain(pages.iter().flat_map(|p| (*p as u32).to_be_bytes()))
        .chain(faces.iter().flat_map(|f| f.text.content.iter().copied()))
    {
        hash = (hash ^ b as u64).wrapping_mul(0x100_0000_01b3);
    }
    let id = hash.to_be_bytes().repeat(2);
    pdf.set_file_id((id.clone(), id));
    {
        let mut cat = pdf.catalog(catalog_id);
        cat.pages(tree_id);
        let mut intents = cat.output_intents();
        let mut oi = intents.push();
        oi.subtype(OutputIntentSubtype::PDFX)
            .output_condition_identifier(TextStr(CONDITION))
            .output_condition(TextStr(
                "SWOP coated, grade 3 (CGATS TR 003), total ink 240%",
            ))
            .registry_name(TextStr("http://www.color.org"))
            .info(TextStr("CGATS TR 003 (SWOP coated #3), 240% total ink"))
            .dest_output_profile(icc_id);
    }
    {
        let mut info = pdf.document_info(info_id);
        info.title(TextStr(title))
            .creator(TextStr("deckwright"))
            .producer(TextStr(concat!("deckwright ", env!("CARGO_PKG_VERSION"))))
            .creation_date(date)
            .modified_date(date)
            .trapped(TrappingStatus::NotTrapped);
        info.pair(Name(b"GTS_PDFXVersion"), Str(b"PDF/X-1a:2003"));
    }
    let icc = pdf::deflate(PROFILE);
    pdf.icc_profile(icc_id, &icc)
        .n(4)
        .filter(Filter::FlateDecode);
    pdf.pages(tree_id)
        .kids(page_ids.iter().map(|(p, _)| *p))
        .count(pages.len() as i32);

    // Fonts, shared by every face's text.
    let mut glyphs: std::collections::BTreeMap<Weight, std::collections::BTreeMap<u16, char>> =
        Default::default();
    for f in faces {
        for (&(w, g), &ch) in &f.text.glyphs {
            glyphs.entry(w).or_default().entry(g).or_insert(ch);
        }
    }
    let mut font_ids = std::collections::BTreeMap::new();
    for (w, used) in &glyphs {
        font_ids.insert(*w, pdf::embed_font(&mut pdf, &mut refs, *w, used)?);
    }

    // Each face once: its art (a CMYK image) and its text (a form).
    use rayon::prelude::*;
    let packed: Vec<(Vec<u8>, Vec<u8>)> = faces
        .par_iter()
        .map(|f| (pdf::deflate(&f.cmyk), pdf::deflate(&f.text.content)))
        .collect();
    let mut ids = Vec::with_capacity(faces.len());
    for (f, (art, text)) in faces.iter().zip(&packed) {
        let (img, form) = (refs.next(), refs.next());
        let mut x = pdf.image_xobject(img, art);
        x.filter(Filter::FlateDecode);
        x.width(f.pixels.0 as i32)
            .height(f.pixels.1 as i32)
            .bits_per_component(8);
        x.color_space().device_cmyk();
        x.finish();
        let mut x = pdf.form_xobject(form, text);
        x.filter(Filter::FlateDecode);
        let [x0, y0, x1, y1] = f.text.bbox();
        x.bbox(PdfRect::new(x0, y0, x1, y1));
        x.matrix(f.text.matrix());
        let mut res = x.resources();
        let weights: std::collections::BTreeSet<Weight> =
            f.text.glyphs.keys().map(|(w, _)| *w).collect();
        if !weights.is_empty() {
            let mut fd = res.fonts();
            for w in weights {
                fd.pair(super::vector::font_name(w), font_ids[&w]);
            }
        }
        res.finish();
        x.finish();
        ids.push((img, form));
    }

    let (w, h) = (
        (width_mm + 2.0 * bleed_mm) * MM,
        (height_mm + 2.0 * bleed_mm) * MM,
    );
    let b = bleed_mm * MM;
    for (&f, (page_id, content_id)) in pages.iter().zip(&page_ids) {
        let mut c = Content::new();
        c.save_state();
        c.transform([w, 0.0, 0.0, h, 0.0, 0.0]);
        c.x_object(Name(b"Art"));
        c.x_object(Name(b"Text"));
        c.restore_state();
        let mut p = pdf.page(*page_id);
        p.media_box(PdfRect::new(0.0, 0.0, w, h));
        p.bleed_box(PdfRect::new(0.0, 0.0, w, h));
        p.trim_box(PdfRect::new(b, b, w - b, h - b));
        p.parent(tree_id);
        p.contents(*content_id);
        p.resources()
            .x_objects()
            .pair(Name(b"Art"), ids[f].0)
            .pair(Name(b"Text"), ids[f].1);
        p.finish();
        pdf.stream(*content_id, &c.finish());
    }
    Ok(pdf.finish())
}
