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
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
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
