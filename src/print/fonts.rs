//! The bundled fonts (DejaVu Sans, see `assets/fonts/LICENSE-DejaVu.txt`), parsed once, and
//! the fonts a face template adds ([`add_font`]), each kept once for the program's life.
//!
//! Renders never depend on the fonts installed on the machine.

use std::sync::OnceLock;

use ab_glyph::FontRef;

/// DejaVu Sans, regular (TTF bytes).
pub const REGULAR_TTF: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans.ttf");
/// DejaVu Sans Bold (TTF bytes).
pub const BOLD_TTF: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans-Bold.ttf");
/// DejaVu Sans Oblique (TTF bytes).
pub const ITALIC_TTF: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans-Oblique.ttf");

/// The weight and slant of a run of text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub enum Weight {
    #[default]
    Regular,
    Bold,
    Italic,
    /// A font added by a template (its place in the added fonts).
    Custom(u16),
}

/// The most fonts added in one run of the program.
pub const MAX_ADDED: usize = 64;

struct Added {
    hash: u64,
    bytes: &'static [u8],
    font: &'static FontRef<'static>,
}

static ADDED: std::sync::Mutex<Vec<Added>> = std::sync::Mutex::new(Vec::new());

/// Adds a TrueType or OpenType font (the same bytes give the same weight), or says why it
/// cannot be drawn: not a font, no glyph for letters, or too many fonts added already.
pub fn add_font(bytes: Vec<u8>) -> Result<Weight, String> {
    use ab_glyph::Font;
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    bytes.hash(&mut h);
    let hash = h.finish();
    let mut added = ADDED.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(i) = added.iter().position(|a| a.hash == hash) {
        return Ok(Weight::Custom(i as u16));
    }
    let probe = FontRef::try_from_slice(&bytes).map_err(|e| e.to_string())?;
    if probe.glyph_id('a').0 == 0 && probe.glyph_id('A').0 == 0 {
        return Err("it has no glyphs for the Latin letters".into());
    }
    if probe.units_per_em().is_none() {
        return Err("it has no units per em".into());
    }
    if added.len() >= MAX_ADDED {
        return Err(format!(
            "{MAX_ADDED} fonts are loaded already; restart the program to load others"
        ));
    }
    let bytes: &'static [u8] = Box::leak(bytes.into_boxed_slice());
    let font: &'static FontRef<'static> = Box::leak(Box::new(
        FontRef::try_from_slice(bytes).map_err(|e| e.to_string())?,
    ));
    added.push(Added { hash, bytes, font });
    Ok(Weight::Custom((added.len() - 1) as u16))
}

/// A weight's font file and the PostScript name it is embedded under in a PDF.
pub fn file_of(w: Weight) -> (&'static [u8], String) {
    match w {
        Weight::Regular => (REGULAR_TTF, "DejaVuSans".into()),
        Weight::Bold => (BOLD_TTF, "DejaVuSans-Bold".into()),
        Weight::Italic => (ITALIC_TTF, "DejaVuSans-Oblique".into()),
        Weight::Custom(i) => {
            let added = ADDED.lock().unwrap_or_else(|e| e.into_inner());
            match added.get(i as usize) {
                Some(a) => (a.bytes, format!("DeckwrightAdded{i}")),
                None => (REGULAR_TTF, "DejaVuSans".into()),
            }
        }
    }
}

/// The parsed font of a weight.
pub fn font(w: Weight) -> &'static FontRef<'static> {
    static FONTS: OnceLock<[FontRef<'static>; 3]> = OnceLock::new();
    let fonts = FONTS.get_or_init(|| {
        let parse =
            |b: &'static [u8]| FontRef::try_from_slice(b).expect("the bundled DejaVu fonts parse");
        [parse(REGULAR_TTF), parse(BOLD_TTF), parse(ITALIC_TTF)]
    });
    match w {
        Weight::Regular => &fonts[0],
        Weight::Bold => &fonts[1],
        Weight::Italic => &fonts[2],
        Weight::Custom(i) => ADDED
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(i as usize)
            .map(|a| a.font)
            .unwrap_or(&fonts[0]),
    }
}

/// A glyph's id, its advance at text height 1, and its outline (font units), cached per
/// thread: parsing the font tables for every glyph drawn was most of a card's render time.
#[derive(Debug, Clone)]
pub struct GlyphInfo {
    pub id: ab_glyph::GlyphId,
    pub advance: f32,
    pub outline: Option<std::rc::Rc<ab_glyph::Outline>>,
}

thread_local! {
    static GLYPHS: std::cell::RefCell<std::collections::HashMap<(Weight, char), GlyphInfo>> =
        std::cell::RefCell::new(std::collections::HashMap::new());
    static KERNS: std::cell::RefCell<std::collections::HashMap<(Weight, u16, u16), f32>> =
        std::cell::RefCell::new(std::collections::HashMap::new());
}

/// The cached glyph of `ch` in weight `w`.
pub fn glyph(w: Weight, ch: char) -> GlyphInfo {
    use ab_glyph::{Font, ScaleFont};
    GLYPHS.with(|g| {
        g.borrow_mut()
            .entry((w, ch))
            .or_insert_with(|| {
                let f = font(w);
                let id = f.glyph_id(ch);
                GlyphInfo {
                    id,
                    advance: f.as_scaled(1.0).h_advance(id),
                    outline: f.outline(id).map(std::rc::Rc::new),
                }
            })
            .clone()
    })
}

/// The cached kerning between two glyphs at text height 1.
pub fn kern(w: Weight, a: ab_glyph::GlyphId, b: ab_glyph::GlyphId) -> f32 {
    use ab_glyph::{Font, ScaleFont};
    KERNS.with(|k| {
        *k.borrow_mut()
            .entry((w, a.0, b.0))
            .or_insert_with(|| font(w).as_scaled(1.0).kern(a, b))
    })
}
