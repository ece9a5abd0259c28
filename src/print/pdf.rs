//! Writes laid-out sheets to PDF: card images at exact millimetre positions, vector crop
//! marks, text labels, and (for sheets with backs) the long-edge duplex request
//! (`/ViewerPreferences << /Duplex /DuplexFlipLongEdge >>`).
//!
//! Written with pdf-writer rather than krilla: each distinct card image is embedded once,
//! as the PNG-filtered, fast-deflated scanlines of its PNG encoding (FlateDecode with a PNG
//! predictor), compressed in parallel by the caller ([`EmbeddedImage::new`]). krilla re-compresses every image at deflate level 6
//! on one thread, which took over 5 s for a 1,000-card sheet set on two cores.

use pdf_writer::types::Predictor;
use pdf_writer::{Content, Filter, Finish, Name, Pdf, Rect as PdfRect, Ref, Str};

use super::layout::{Mark, Paper, Rect};
use super::render::CardImage;

/// Points per millimetre.
pub const MM: f32 = 72.0 / 25.4;

/// An image placed on a page: index into the image list, and its box (mm, top-left origin).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Placement {
    pub image: usize,
    pub rect: Rect,
}

/// One page: images, crop marks (and other thin lines) and text labels.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PageContent {
    pub images: Vec<Placement>,
    pub marks: Vec<Mark>,
    /// Text (ASCII): x and baseline y (mm), height (mm), text.
    pub labels: Vec<(f32, f32, f32, String)>,
}

/// A PDF could not be written.
#[derive(Debug, thiserror::Error)]
pub enum PdfError {
    #[error("the PDF writer failed: {0}")]
    Writer(String),
    #[error("page {page} places image {image}, but only {count} images were given")]
    MissingImage { page: usize, image: usize, count: usize },
}

/// The zlib stream of a PNG's scanlines (its IDAT chunks joined).
fn idat(png: &[u8]) -> Result<Vec<u8>, PdfError> {
    let bad = || PdfError::Writer("a card image did not encode as PNG".into());
    let mut out = Vec::new();
    let mut at = 8;
    while at + 12 <= png.len() {
        let len = u32::from_be_bytes(png[at..at + 4].try_into().map_err(|_| bad())?) as usize;
        let kind = &png[at + 4..at + 8];
        let data = png.get(at + 8..at + 8 + len).ok_or_else(bad)?;
        if kind == b"IDAT" {
            out.extend_from_slice(data);
        }
        at += 12 + len;
    }
    if out.is_empty() { Err(bad()) } else { Ok(out) }
}

/// A card image ready to embed: its size and its compressed, PNG-filtered scanlines.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EmbeddedImage {
    pub width: u32,
    pub height: u32,
    data: Vec<u8>,
}

impl EmbeddedImage {
    /// Compresses a rendered image (the pixels can then be dropped).
    pub fn new(img: &CardImage) -> Result<EmbeddedImage, PdfError> {
        Ok(EmbeddedImage { width: img.width, height: img.height, data: idat(&img.encode_png(None))? })
    }
}

fn pt(v: f32) -> f32 {
    v * MM
}

/// Writes the pages; `duplex` asks the printer to flip on the long edge.
pub fn write(paper: Paper, pages: &[PageContent], images: &[EmbeddedImage], duplex: bool) -> Result<Vec<u8>, PdfError> {
    for (pi, page) in pages.iter().enumerate() {
        if let Some(pl) = page.images.iter().find(|p| p.image >= images.len()) {
            return Err(PdfError::MissingImage { page: pi + 1, image: pl.image, count: images.len() });
        }
    }
    let mut next = 1;
    let mut alloc = || {
        let r = Ref::new(next);
        next += 1;
        r
    };
    let catalog_id = alloc();
    let tree_id = alloc();
    let font_id = alloc();
    let image_ids: Vec<Ref> = images.iter().map(|_| alloc()).collect();
    let page_ids: Vec<(Ref, Ref)> = pages.iter().map(|_| (alloc(), alloc())).collect();

    let mut pdf = Pdf::new();
    {
        let mut cat = pdf.catalog(catalog_id);
        cat.pages(tree_id);
        if duplex {
            cat.viewer_preferences().pair(Name(b"Duplex"), Name(b"DuplexFlipLongEdge"));
        }
    }
    pdf.pages(tree_id).kids(page_ids.iter().map(|(p, _)| *p)).count(pages.len() as i32);
    pdf.type1_font(font_id).base_font(Name(b"Helvetica"));
    for (img, id) in images.iter().zip(&image_ids) {
        let mut x = pdf.image_xobject(*id, &img.data);
        x.filter(Filter::FlateDecode);
        x.width(img.width as i32);
        x.height(img.height as i32);
        x.color_space().device_rgb();
        x.bits_per_component(8);
        x.decode_parms().predictor(Predictor::PngOptimum).colors(3).bits_per_component(8).columns(img.width as i32);
        x.finish();
    }
    let (w, h) = (pt(paper.width), pt(paper.height));
    let names: Vec<String> = (0..images.len()).map(|i| format!("Im{i}")).collect();
    for (page, (page_id, content_id)) in pages.iter().zip(&page_ids) {
        let mut c = Content::new();
        let mut used: Vec<usize> = Vec::new();
        for pl in &page.images {
            let r = pl.rect;
            c.save_state();
            c.transform([pt(r.w), 0.0, 0.0, pt(r.h), pt(r.x), h - pt(r.y + r.h)]);
            c.x_object(Name(names[pl.image].as_bytes()));
            c.restore_state();
            if !used.contains(&pl.image) {
                used.push(pl.image);
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
            let ascii: String = text.chars().map(|ch| if ch.is_ascii() { ch } else { '?' }).collect();
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
                xo.pair(Name(names[i].as_bytes()), image_ids[i]);
            }
        }
        if !page.labels.is_empty() {
            res.fonts().pair(Name(b"F1"), font_id);
        }
        res.finish();
        p.finish();
        pdf.stream(*content_id, &c.finish());
    }
    Ok(pdf.finish())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn idat_joins_the_scanline_chunks() {
        let img = CardImage { width: 3, height: 2, rgba: vec![200; 24] };
        let z = idat(&img.encode_png(None)).unwrap();
        // A zlib stream: compression method 8 in the header's low nibble.
        assert_eq!(z[0] & 0x0f, 8);
    }
}
