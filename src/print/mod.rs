//! Print and play: the card renderer (one picture for the app's preview and for print),
//! sheet layout, PDF and PNG export.
//!
//! - [`render_card`] / [`render_preview`]: RGBA pixels of a card face, for any DPI or pixel size.
//! - [`layout`]: paper sizes and card presets as data, and the sheet layout computed from them.
//! - [`canvas`]: what a face draws on; [`raster`] (pixels) and [`vector`] (PDF content) draw it.
//! - [`pdf`]: writes laid-out sheets (fronts, mirrored backs, crop marks) to a vector PDF.
//! - [`selection`]: turns a command-line selection (ids, a query, a party/character/setup/squad
//!   file) into the list of cards to print.
//! - [`export`]: the whole export, written atomically.
//! - [`vendor`]: print vendors' presets (MakePlayingCards, TheGameCrafter, DriveThruCards).
//! - [`press`]: press-ready CMYK PDF/X-1a (ICC conversion, ink limit, output intent).
//! - [`tts`]: Tabletop Simulator deck sheets and the saved object that loads them.
//! - [`preflight`]: text shrunk past reading, low-resolution and missing art, before export.

pub mod canvas;
pub mod export;
pub mod face;
pub mod fonts;
pub mod layout;
pub mod pdf;
pub mod preflight;
pub mod press;
pub mod raster;
pub mod render;
pub mod template;
pub mod text;
pub mod tts;
pub mod vector;
pub mod vendor;

pub use face::{Assets, Side};
pub use render::{CardImage, RenderSpec, render, render_back, render_card, render_preview};
