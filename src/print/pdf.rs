//! Writes laid-out sheets to PDF with krilla: card images at exact millimetre positions,
//! vector crop marks, and (for sheets with backs) a request for long-edge duplex printing.
//!
//! Each distinct image is embedded once and reused on every page that shows it.

use std::hash::{Hash, Hasher};
use std::sync::Arc;

use krilla::Document;
use krilla::geom::{PathBuilder, Size, Transform};
use krilla::image::{BitsPerComponent, Image, ImageColorspace};
use krilla::page::PageSettings;
use krilla::paint::Stroke;

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
    /// Text: x and baseline y (mm), height (mm), text.
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

/// RGB pixels shared between the renderer and the PDF, hashed by a key instead of by
/// content so embedding a large image costs no hashing.
#[derive(Clone)]
struct Pixels {
    key: u64,
    width: u32,
    height: u32,
    rgb: Arc<Vec<u8>>,
}

impl Hash for Pixels {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.key.hash(state);
        self.width.hash(state);
        self.height.hash(state);
    }
}

impl krilla::image::CustomImage for Pixels {
    fn color_channel(&self) -> &[u8] {
        &self.rgb
    }
    fn alpha_channel(&self) -> Option<&[u8]> {
        None
    }
    fn bits_per_component(&self) -> BitsPerComponent {
        BitsPerComponent::Eight
    }
    fn size(&self) -> (u32, u32) {
        (self.width, self.height)
    }
    fn icc_profile(&self) -> Option<&[u8]> {
        None
    }
    fn color_space(&self) -> ImageColorspace {
        ImageColorspace::Rgb
    }
}

/// Writes the pages; `duplex` asks the printer to flip on the long edge.
pub fn write(paper: Paper, pages: &[PageContent], images: &[Arc<CardImage>], duplex: bool) -> Result<Vec<u8>, PdfError> {
    // Keys only need to differ between the images of this one document.
    let pdf_images: Vec<Image> = images
        .iter()
        .enumerate()
        .map(|(i, img)| {
            let px = Pixels { key: i as u64, width: img.width, height: img.height, rgb: Arc::new(img.rgb()) };
            Image::from_custom(px, true).map_err(PdfError::Writer)
        })
        .collect::<Result<_, _>>()?;
    let mut doc = Document::new();
    for (pi, page) in pages.iter().enumerate() {
        let settings = PageSettings::from_wh(paper.width * MM, paper.height * MM)
            .ok_or_else(|| PdfError::Writer(format!("bad page size {} x {} mm", paper.width, paper.height)))?;
        let mut p = doc.start_page_with(settings);
        let mut s = p.surface();
        for pl in &page.images {
            let img = pdf_images
                .get(pl.image)
                .ok_or(PdfError::MissingImage { page: pi + 1, image: pl.image, count: images.len() })?;
            let Some(size) = Size::from_wh(pl.rect.w * MM, pl.rect.h * MM) else { continue };
            s.push_transform(&Transform::from_translate(pl.rect.x * MM, pl.rect.y * MM));
            s.draw_image(img.clone(), size);
            s.pop();
        }
        if !page.marks.is_empty() {
            s.set_stroke(Some(Stroke { width: 0.25, ..Default::default() }));
            let mut pb = PathBuilder::new();
            for m in &page.marks {
                pb.move_to(m.from.0 * MM, m.from.1 * MM);
                pb.line_to(m.to.0 * MM, m.to.1 * MM);
            }
            if let Some(path) = pb.finish() {
                s.draw_path(&path);
            }
            s.set_stroke(None);
        }
        if !page.labels.is_empty() {
            let font = krilla::text::Font::new(super::fonts::REGULAR_TTF.to_vec().into(), 0)
                .ok_or_else(|| PdfError::Writer("the bundled font cannot be embedded".into()))?;
            for (x, y, size, text) in &page.labels {
                s.draw_text(
                    krilla::geom::Point::from_xy(x * MM, y * MM),
                    font.clone(),
                    size * MM,
                    text,
                    false,
                    krilla::text::TextDirection::Auto,
                );
            }
        }
        s.finish();
        p.finish();
    }
    let bytes = doc.finish().map_err(|e| PdfError::Writer(format!("{e:?}")))?;
    if duplex { add_duplex(bytes) } else { Ok(bytes) }
}

/// Appends an incremental update that gives the catalog
/// `/ViewerPreferences << /Duplex /DuplexFlipLongEdge >>` (krilla has no API for it).
pub fn add_duplex(mut pdf: Vec<u8>) -> Result<Vec<u8>, PdfError> {
    let bad = |what: &str| PdfError::Writer(format!("cannot add the duplex preference: {what}"));
    let text = String::from_utf8_lossy(&pdf).into_owned();
    let sx = text.rfind("startxref").ok_or_else(|| bad("no startxref"))?;
    let prev: usize = text[sx + 9..]
        .split_whitespace()
        .next()
        .and_then(|n| n.parse().ok())
        .ok_or_else(|| bad("unreadable startxref"))?;
    let tr = text[..sx].rfind("trailer").ok_or_else(|| bad("no trailer (cross-reference streams are not handled)"))?;
    let trailer = text[tr + 7..sx].trim();
    let trailer_body = trailer.strip_prefix("<<").and_then(|t| t.strip_suffix(">>")).ok_or_else(|| bad("odd trailer"))?;
    let root = after_key(trailer_body, "/Root").ok_or_else(|| bad("no /Root"))?;
    let header = format!("{root} 0 obj");
    let start = find_object(&text, &header).ok_or_else(|| bad("catalog object not found"))?;
    let body_start = start + header.len();
    let end = text[body_start..].find("endobj").ok_or_else(|| bad("catalog not closed"))? + body_start;
    let dict = text[body_start..end].trim();
    if dict.contains("/ViewerPreferences") {
        return Err(bad("the catalog already has viewer preferences"));
    }
    let inner = dict.strip_prefix("<<").and_then(|d| d.strip_suffix(">>")).ok_or_else(|| bad("odd catalog"))?;
    let mut update = String::new();
    if !pdf.ends_with(b"\n") {
        update.push('\n');
    }
    let obj_offset = pdf.len() + update.len();
    update.push_str(&format!(
        "{root} 0 obj\n<<{inner}\n  /ViewerPreferences << /Duplex /DuplexFlipLongEdge >>\n>>\nendobj\n"
    ));
    let xref_offset = pdf.len() + update.len();
    update.push_str(&format!("xref\n{root} 1\n{obj_offset:010} 00000 n \n"));
    let mut new_trailer = String::new();
    for line in trailer_body.lines() {
        let l = line.trim();
        if l.is_empty() || l.starts_with("/Prev") {
            continue;
        }
        new_trailer.push_str("  ");
        new_trailer.push_str(l);
        new_trailer.push('\n');
    }
    update.push_str(&format!("trailer\n<<\n{new_trailer}  /Prev {prev}\n>>\nstartxref\n{xref_offset}\n%%EOF\n"));
    pdf.extend_from_slice(update.as_bytes());
    Ok(pdf)
}

/// The value (first token) after a key in a dictionary body.
fn after_key(dict: &str, key: &str) -> Option<u32> {
    let i = dict.find(key)?;
    dict[i + key.len()..].split_whitespace().next()?.parse().ok()
}

/// The offset of an object header at the start of a line.
fn find_object(text: &str, header: &str) -> Option<usize> {
    let mut from = 0;
    while let Some(i) = text[from..].find(header) {
        let at = from + i;
        if at == 0 || matches!(text.as_bytes()[at - 1], b'\n' | b'\r') {
            return Some(at);
        }
        from = at + header.len();
    }
    None
}
