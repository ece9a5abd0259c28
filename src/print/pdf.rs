//! Writes laid-out sheets to PDF: each distinct card face once, as a vector Form XObject
//! (paths, text in the embedded DejaVu fonts, portraits as images), placed at exact
//! millimetre positions; vector crop marks, text labels, and (for sheets with backs) the
//! long-edge duplex request (`/ViewerPreferences << /Duplex /DuplexFlipLongEdge >>`).
//!
//! The fonts are embedded once per document as Type0/CIDFontType2 (Identity-H) with a
//! ToUnicode CMap, so the cards' text can be selected, searched and copied. Faces address
//! glyphs by their id in the bundled font; each font is subset to the glyphs the document
//! shows and a CIDToGIDMap maps those ids to the subset's.

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

use pdf_writer::types::{CidFontType, FontFlags, SystemInfo, UnicodeCmap};
use pdf_writer::{Content, Filter, Finish, Name, Pdf, Rect as PdfRect, Ref, Str};
use rayon::prelude::*;

use super::fonts::{self, Weight};
use super::layout::{Mark, Paper, Rect};
use super::vector::{self, VectorFace};

/// Points per millimetre.
pub const MM: f32 = 72.0 / 25.4;

/// Deflate level of content, font and image streams. The fronts of the bundled cards (854 KB
/// of content) deflate to 293 KB at level 1, 253 KB at 2, 231 KB at 4 and 228 KB at 6, level
/// 4 taking about 1.4 times and level 6 1.7 times as long as level 2: level 2 is the knee.
const DEFLATE_LEVEL: u8 = 2;

/// A face placed on a page: index into the face list, and its box (mm, top-left origin).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Placement {
    pub face: usize,
    pub rect: Rect,
}

/// One page: faces, crop marks (and other thin lines) and text labels.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PageContent {
    pub faces: Vec<Placement>,
    pub marks: Vec<Mark>,
    /// Text (ASCII): x and baseline y (mm), height (mm), text.
    pub labels: Vec<(f32, f32, f32, String)>,
}

/// A PDF could not be written.
#[derive(Debug, thiserror::Error)]
pub enum PdfError {
    #[error("the PDF writer failed: {0}")]
    Writer(String),
    #[error("page {page} places face {face}, but only {count} faces were given")]
    MissingFace {
        page: usize,
        face: usize,
        count: usize,
    },
}

fn pt(v: f32) -> f32 {
    v * MM
}

pub(super) fn deflate(data: &[u8]) -> Vec<u8> {
    miniz_oxide::deflate::compress_to_vec_zlib(data, DEFLATE_LEVEL)
}

/// Object numbers, handed out in order.
pub(super) struct Refs(pub(super) i32);

impl Refs {
    pub(super) fn next(&mut self) -> Ref {
        self.0 += 1;
        Ref::new(self.0)
    }
}

/// Writes the pages; `duplex` asks the printer to flip on the long edge.
pub fn write(
    paper: Paper,
    pages: &[PageContent],
    faces: &[VectorFace],
    duplex: bool,
) -> Result<Vec<u8>, PdfError> {
    for (pi, page) in pages.iter().enumerate() {
        if let Some(pl) = page.faces.iter().find(|p| p.face >= faces.len()) {
            return Err(PdfError::MissingFace {
                page: pi + 1,
                face: pl.face,
                count: faces.len(),
            });
        }
    }
    let mut refs = Refs(0);
    let catalog_id = refs.next();
    let tree_id = refs.next();
    let label_font_id = refs.next();
    let page_ids: Vec<(Ref, Ref)> = pages.iter().map(|_| (refs.next(), refs.next())).collect();

    let mut pdf = Pdf::new();
    {
        let mut cat = pdf.catalog(catalog_id);
        cat.pages(tree_id);
        if duplex {
            cat.viewer_preferences()
                .pair(Name(b"Duplex"), Name(b"DuplexFlipLongEdge"));
        }
    }
    pdf.pages(tree_id)
        .kids(page_ids.iter().map(|(p, _)| *p))
        .count(pages.len() as i32);
    pdf.type1_font(label_font_id).base_font(Name(b"Helvetica"));

    // Document-wide resources: fonts, portraits, translucencies.
    let mut glyphs: BTreeMap<Weight, BTreeMap<u16, char>> = BTreeMap::new();
    let mut alphas: BTreeSet<u8> = BTreeSet::new();
    let mut portraits: Vec<(PathBuf, &tiny_skia::Pixmap)> = Vec::new();
    for f in faces {
        for (&(w, g), &ch) in &f.glyphs {
            glyphs.entry(w).or_default().entry(g).or_insert(ch);
        }
        alphas.extend(&f.alphas);
        for p in &f.images {
            if !portraits.iter().any(|(k, _)| *k == p.key) {
                portraits.push((p.key.clone(), &p.pixmap));
            }
        }
    }
    let mut font_ids: BTreeMap<Weight, Ref> = BTreeMap::new();
    for (w, used) in &glyphs {
        font_ids.insert(*w, embed_font(&mut pdf, &mut refs, *w, used)?);
    }
    let alpha_ids: BTreeMap<u8, Ref> = alphas
        .iter()
        .map(|&a| {
            let id = refs.next();
            let v = a as f32 / 255.0;
            pdf.ext_graphics(id).non_stroking_alpha(v).stroking_alpha(v);
            (a, id)
        })
        .collect();
    let portrait_ids: Vec<(PathBuf, Ref)> = portraits
        .iter()
        .map(|(key, pm)| (key.clone(), embed_image(&mut pdf, &mut refs, pm)))
        .collect();

    // The faces, compressed in parallel.
    let streams: Vec<Vec<u8>> = faces.par_iter().map(|f| deflate(&f.content)).collect();
    let face_ids: Vec<Ref> = faces.iter().map(|_| refs.next()).collect();
    for ((f, data), id) in faces.iter().zip(&streams).zip(&face_ids) {
        let mut x = pdf.form_xobject(*id, data);
        x.filter(Filter::FlateDecode);
        let [x0, y0, x1, y1] = f.bbox();
        x.bbox(PdfRect::new(x0, y0, x1, y1));
        x.matrix(f.matrix());
        let mut res = x.resources();
        let weights: BTreeSet<Weight> = f.glyphs.keys().map(|(w, _)| *w).collect();
        if !weights.is_empty() {
            let mut fd = res.fonts();
            for w in weights {
                fd.pair(vector::font_name(w), font_ids[&w]);
            }
        }
        if !f.alphas.is_empty() {
            let mut gs = res.ext_g_states();
            for a in &f.alphas {
                gs.pair(Name(vector::alpha_name(*a).as_bytes()), alpha_ids[a]);
            }
        }
        if !f.images.is_empty() {
            let mut xo = res.x_objects();
            for (i, p) in f.images.iter().enumerate() {
                if let Some((_, id)) = portrait_ids.iter().find(|(k, _)| *k == p.key) {
                    xo.pair(Name(vector::image_name(i).as_bytes()), *id);
                }
            }
        }
    }

    let (w, h) = (pt(paper.width), pt(paper.height));
    let names: Vec<String> = (0..faces.len()).map(|i| format!("Fm{i}")).collect();
    for (page, (page_id, content_id)) in pages.iter().zip(&page_ids) {
        let mut c = Content::new();
        let mut used: Vec<usize> = Vec::new();
        for pl in &page.faces {
            let r = pl.rect;
            c.save_state();
            c.transform([pt(r.w), 0.0, 0.0, pt(r.h), pt(r.x), h - pt(r.y + r.h)]);
            c.x_object(Name(names[pl.face].as_bytes()));
            c.restore_state();
            if !used.contains(&pl.face) {
                used.push(pl.face);
            }
        }
        if !page.marks.is_empty() {
            c.set_line_width(0.25);
            c.set_stroke_gray(0.0);
            for m in &page.marks {
                c.move_to(pt(m.from.0), h - pt(m.from.1));
                c.line_to(pt(m.to.0), h - pt(m.to.1));
            }
            c.stroke();
        }
        for (x, y, size, text) in &page.labels {
            let ascii: String = text
                .chars()
                .map(|ch| if ch.is_ascii() { ch } else { '?' })
                .collect();
            c.begin_text();
            c.set_font(Name(b"F1"), pt(*size));
            c.next_line(pt(*x), h - pt(*y));
            c.show(Str(ascii.as_bytes()));
            c.end_text();
        }
        let mut p = pdf.page(*page_id);
        p.media_box(PdfRect::new(0.0, 0.0, w, h));
        p.parent(tree_id);
        p.contents(*content_id);
        let mut res = p.resources();
        {
            let mut xo = res.x_objects();
            for &i in &used {
                xo.pair(Name(names[i].as_bytes()), face_ids[i]);
            }
        }
        if !page.labels.is_empty() {
            res.fonts().pair(Name(b"F1"), label_font_id);
        }
        res.finish();
        p.finish();
        pdf.stream(*content_id, &c.finish());
    }
    Ok(pdf.finish())
}

/// A TrueType font's global metrics, read from its `head` and `post` tables.
struct Metrics {
    units_per_em: f32,
    bbox: [f32; 4],
    italic_angle: f32,
}

fn metrics(ttf: &[u8]) -> Option<Metrics> {
    let u16_at = |o: usize| ttf.get(o..o + 2).map(|b| u16::from_be_bytes([b[0], b[1]]));
    let u32_at = |o: usize| {
        ttf.get(o..o + 4)
            .map(|b| u32::from_be_bytes([b[0], b[1], b[2], b[3]]))
    };
    let table = |tag: &[u8; 4]| {
        (0..u16_at(4)? as usize).find_map(|i| {
            let rec = 12 + 16 * i;
            (ttf.get(rec..rec + 4)? == tag)
                .then(|| u32_at(rec + 8))
                .flatten()
                .map(|o| o as usize)
        })
    };
    let head = table(b"head")?;
    let post = table(b"post")?;
    let i16_at = |o: usize| u16_at(o).map(|v| v as i16 as f32);
    Some(Metrics {
        units_per_em: u16_at(head + 18)? as f32,
        bbox: [
            i16_at(head + 36)?,
            i16_at(head + 38)?,
            i16_at(head + 40)?,
            i16_at(head + 42)?,
        ],
        italic_angle: u32_at(post + 4)? as i32 as f32 / 65536.0,
    })
}

/// Embeds a weight's font, subset to `used` (glyph id -> character), as a Type0 font whose
/// CIDs are the bundled font's glyph ids. Returns the Type0 font's reference.
pub(super) fn embed_font(
    pdf: &mut Pdf,
    refs: &mut Refs,
    w: Weight,
    used: &BTreeMap<u16, char>,
) -> Result<Ref, PdfError> {
    use ab_glyph::Font;
    let (ttf, base) = fonts::file_of(w);
    let base = base.as_str();
    let m = metrics(ttf).ok_or_else(|| {
        PdfError::Writer(format!("the bundled font {base} has no head or post table"))
    })?;
    let gids: Vec<u16> = used.keys().copied().collect();
    let remapper = subsetter::GlyphRemapper::new_from_glyphs_sorted(&gids);
    let subset = subsetter::subset(ttf, 0, &remapper)
        .map_err(|e| PdfError::Writer(format!("subsetting {base}: {e}")))?;

    // A subset's name starts with a tag of six capitals that depends on its glyphs.
    let mut hash: u32 = 2166136261;
    for g in &gids {
        for b in g.to_be_bytes() {
            hash = (hash ^ b as u32).wrapping_mul(16777619);
        }
    }
    let tag: String = (0..6)
        .map(|i| (b'A' + ((hash >> (i * 5)) % 26) as u8) as char)
        .collect();
    let name = format!("{tag}+{base}");

    let (type0, cid, descriptor, file, map, cmap) = (
        refs.next(),
        refs.next(),
        refs.next(),
        refs.next(),
        refs.next(),
        refs.next(),
    );
    let system = SystemInfo {
        registry: Str(b"Adobe"),
        ordering: Str(b"Identity"),
        supplement: 0,
    };
    pdf.type0_font(type0)
        .base_font(Name(name.as_bytes()))
        .encoding_predefined(Name(b"Identity-H"))
        .descendant_font(cid)
        .to_unicode(cmap);

    let f = fonts::font(w);
    let per_em = |v: f32| v * 1000.0 / m.units_per_em;
    {
        let mut c = pdf.cid_font(cid);
        c.subtype(CidFontType::Type2);
        c.base_font(Name(name.as_bytes()));
        c.system_info(system);
        c.font_descriptor(descriptor);
        c.cid_to_gid_map_stream(map);
        let mut widths = c.widths();
        for &g in &gids {
            widths.consecutive(g, [per_em(f.h_advance_unscaled(ab_glyph::GlyphId(g)))]);
        }
    }
    let mut flags = FontFlags::SYMBOLIC;
    if w == Weight::Italic {
        flags |= FontFlags::ITALIC;
    }
    pdf.font_descriptor(descriptor)
        .name(Name(name.as_bytes()))
        .flags(flags)
        .bbox(PdfRect::new(
            per_em(m.bbox[0]),
            per_em(m.bbox[1]),
            per_em(m.bbox[2]),
            per_em(m.bbox[3]),
        ))
        .italic_angle(m.italic_angle)
        .ascent(per_em(f.ascent_unscaled()))
        .descent(per_em(f.descent_unscaled()))
        .cap_height(per_em(f.ascent_unscaled() * 0.77))
        .stem_v(if w == Weight::Bold { 140.0 } else { 80.0 })
        .font_file2(file);
    let data = deflate(&subset);
    pdf.stream(file, &data)
        .filter(Filter::FlateDecode)
        .pair(Name(b"Length1"), subset.len() as i32);

    // CID (the bundled font's glyph id) -> glyph id in the subset, two bytes each.
    let last = gids.last().copied().unwrap_or(0) as usize;
    let mut cid_to_gid = vec![0u8; 2 * (last + 1)];
    for &g in &gids {
        let new = remapper.get(g).unwrap_or(0);
        cid_to_gid[2 * g as usize..2 * g as usize + 2].copy_from_slice(&new.to_be_bytes());
    }
    pdf.stream(map, &deflate(&cid_to_gid))
        .filter(Filter::FlateDecode);

    let mut unicode = UnicodeCmap::new(Name(b"Adobe-Identity-UCS"), system);
    for (&g, &ch) in used {
        unicode.pair(g, ch);
    }
    pdf.cmap(cmap, &unicode.finish());
    Ok(type0)
}

/// Embeds a portrait as an RGB image (with a soft mask if it is not opaque).
fn embed_image(pdf: &mut Pdf, refs: &mut Refs, pm: &tiny_skia::Pixmap) -> Ref {
    let id = refs.next();
    let (mut rgb, mut alpha) = (
        Vec::with_capacity(pm.data().len() / 4 * 3),
        Vec::with_capacity(pm.data().len() / 4),
    );
    for p in pm.pixels() {
        let c = p.demultiply();
        rgb.extend([c.red(), c.green(), c.blue()]);
        alpha.push(c.alpha());
    }
    let mask = alpha.iter().any(|a| *a < 255).then(|| {
        let m = refs.next();
        let data = deflate(&alpha);
        let mut x = pdf.image_xobject(m, &data);
        x.filter(Filter::FlateDecode);
        x.width(pm.width() as i32)
            .height(pm.height() as i32)
            .bits_per_component(8);
        x.color_space().device_gray();
        m
    });
    let data = deflate(&rgb);
    let mut x = pdf.image_xobject(id, &data);
    x.filter(Filter::FlateDecode);
    x.width(pm.width() as i32)
        .height(pm.height() as i32)
        .bits_per_component(8);
    x.color_space().device_rgb();
    if let Some(m) = mask {
        x.s_mask(m);
    }
    id
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bundled_fonts_metrics_are_read() {
        let m = metrics(fonts::REGULAR_TTF).unwrap();
        assert_eq!(m.units_per_em, 2048.0);
        assert!(m.bbox[0] < 0.0 && m.bbox[2] > 2048.0, "{:?}", m.bbox);
        assert_eq!(m.italic_angle, 0.0);
        assert!(metrics(fonts::ITALIC_TTF).unwrap().italic_angle < -5.0);
    }
}
