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

pub mod canvas;
pub mod export;
pub mod face;
pub mod fonts;
pub mod layout;
pub mod pdf;
pub mod raster;
pub mod render;
pub mod selection;
pub mod text;
pub mod vector;

pub use face::{Assets, Side};
pub use render::{CardImage, RenderSpec, render, render_back, render_card, render_preview};
