//! The bundled fonts (DejaVu Sans, see `assets/fonts/LICENSE-DejaVu.txt`), parsed once.
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
}

/// The parsed font of a weight.
pub fn font(w: Weight) -> &'static FontRef<'static> {
    static FONTS: OnceLock<[FontRef<'static>; 3]> = OnceLock::new();
    let fonts = FONTS.get_or_init(|| {
        let parse = |b: &'static [u8]| FontRef::try_from_slice(b).expect("the bundled DejaVu fonts parse");
        [parse(REGULAR_TTF), parse(BOLD_TTF), parse(ITALIC_TTF)]
    });
    match w {
        Weight::Regular => &fonts[0],
        Weight::Bold => &fonts[1],
        Weight::Italic => &fonts[2],
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
                GlyphInfo { id, advance: f.as_scaled(1.0).h_advance(id), outline: f.outline(id).map(std::rc::Rc::new) }
            })
            .clone()
    })
}

/// The cached kerning between two glyphs at text height 1.
pub fn kern(w: Weight, a: ab_glyph::GlyphId, b: ab_glyph::GlyphId) -> f32 {
    use ab_glyph::{Font, ScaleFont};
    KERNS.with(|k| *k.borrow_mut().entry((w, a.0, b.0)).or_insert_with(|| font(w).as_scaled(1.0).kern(a, b)))
}
