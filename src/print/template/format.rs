//! The template file format (version [`FORMAT`]): what a template file holds, as serde
//! types. Every table refuses keys it does not know; `docs/templates.md` describes each key.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use toml::Spanned;

/// The template format this program writes and reads; a file with a larger `format` is
/// refused (it may use what this program cannot draw).
pub const FORMAT: u32 = 1;

/// A card face: its size, palette, fonts and layers drawn in order (the first at the back).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Template {
    /// The format version ([`FORMAT`]).
    pub format: u32,
    /// A name shown in the app.
    pub name: String,
    /// The game whose cards it draws (`iconica`, `arcadia`, `iconoclasm`, `ruunara`).
    pub game: String,
    /// The card kinds it draws (`["character"]`), or `["back"]` for the game's card back.
    pub kinds: Vec<String>,
    /// The card's trim size the coordinates are given for, in millimetres; a card printed at
    /// another size has the layout stretched to it.
    #[serde(default = "default_width")]
    pub width_mm: f64,
    #[serde(default = "default_height")]
    pub height_mm: f64,
    /// Named colours (`ink = "#1d1a17"`), used as `"$ink"` wherever a colour is asked.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub colors: BTreeMap<String, String>,
    /// Font files the designer adds (TrueType or OpenType), named for `font = "..."`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub fonts: Vec<FontDef>,
    /// The layers, back to front.
    #[serde(default)]
    pub layers: Vec<Spanned<Layer>>,
}

fn default_width() -> f64 {
    63.0
}
fn default_height() -> f64 {
    88.0
}

/// A font file added by the designer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FontDef {
    /// The name layers use (`font = "title"`); not one of the bundled `regular`, `bold`,
    /// `italic`.
    pub name: String,
    /// The TTF or OTF file, relative to the template file.
    pub file: String,
}

/// What a layer draws.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum LayerType {
    /// Paints the whole card, bleed included, in `fill`.
    Bleed,
    /// A rectangle, rounded by `radius`, filled and/or outlined.
    #[default]
    Rect,
    /// The largest circle in the layer's box.
    Circle,
    /// Text bound to card fields: wrapped, aligned and shrunk to fit its box.
    Text,
    /// A picture: the card's art (`src = "{picture}"`) or a file beside the template.
    Image,
    /// A drawn symbol (`skull`, `silhouette`, `fire`, `water`, `earth`, `air`).
    Icon,
    /// Its `layers` drawn once per item of a list field (or of `items`), in rows or columns.
    Repeat,
    /// Its `layers`, placed relative to its box, shown or hidden together.
    Group,
    /// A diagonal lattice of thin lines clipped to the box (card backs).
    Lattice,
    /// A drawing built into the program for a game's own element (`iconica.health_meter`).
    Block,
}

impl LayerType {
    /// Every type, in the order the app lists them.
    pub const ALL: [LayerType; 10] = [
        LayerType::Bleed,
        LayerType::Rect,
        LayerType::Circle,
        LayerType::Text,
        LayerType::Image,
        LayerType::Icon,
        LayerType::Repeat,
        LayerType::Group,
        LayerType::Lattice,
        LayerType::Block,
    ];

    /// The name written in a template file.
    pub fn as_str(self) -> &'static str {
        match self {
            LayerType::Bleed => "bleed",
            LayerType::Rect => "rect",
            LayerType::Circle => "circle",
            LayerType::Text => "text",
            LayerType::Image => "image",
            LayerType::Icon => "icon",
            LayerType::Repeat => "repeat",
            LayerType::Group => "group",
            LayerType::Lattice => "lattice",
            LayerType::Block => "block",
        }
    }
}

/// Horizontal alignment of text lines.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Align {
    #[default]
    Left,
    Center,
    Right,
}

/// Vertical placement of a text block in its box.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum VAlign {
    #[default]
    Top,
    Middle,
}

/// How a repeat lays out its items.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Direction {
    #[default]
    Rows,
    Columns,
}

/// One layer. Which keys apply depends on `type` (a key that does not apply is refused when
/// the template is checked). Places are in millimetres from the parent's top-left corner
/// (the card's trim box, or the group's or repeat cell's box).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct Layer {
    #[serde(rename = "type")]
    pub kind: LayerType,
    /// A name shown in the app's layer list.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Left edge; or `right` (distance from the parent's right edge) with `w`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub x: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub y: Option<f64>,
    /// Width; without it the box reaches the parent's right edge less `right`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub w: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub h: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub right: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bottom: Option<f64>,
    /// Centre the box vertically in its parent (`y` is then ignored).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub middle: Option<bool>,
    /// A condition on card fields (`faction = legion`, `not art`, `strengths or final_act`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub show_when: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fill: Option<ColorSpec>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stroke: Option<ColorSpec>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stroke_width: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub radius: Option<f64>,
    /// Text with `{field}` bindings, in the layer's font and colour.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    /// Rich text: paragraphs of spans, each span with its own font and colour.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub paragraphs: Option<Vec<Paragraph>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub font: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub color: Option<ColorSpec>,
    /// Largest text height in millimetres.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size: Option<f64>,
    /// Text height as a share of the smaller side of the layer's box (0.62: 62%), instead of
    /// `size`: text that grows and shrinks with its box (a repeat's cells).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size_share: Option<f64>,
    /// Smallest text height the text shrinks to (shrink-to-fit); below it the text is cut
    /// with an ellipsis. Default: 45% of `size`; equal to `size` turns shrinking off.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_size: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub align: Option<Align>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub valign: Option<VAlign>,
    /// Turns the text by 90, -90 or 180 degrees about its box's centre.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rotate: Option<f64>,
    /// The picture: `{picture}` (the card's art) or a file relative to the template.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub src: Option<String>,
    /// Background and figure colours of the placeholder drawn when there is no picture.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub placeholder: Option<ColorSpec>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub placeholder_ink: Option<ColorSpec>,
    /// The symbol of an icon layer (bindings allowed: `{face}`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub icon: Option<String>,
    /// The list field a repeat draws once per item (`actions`, `skills`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub over: Option<String>,
    /// Literal items of a repeat: tables of texts with bindings (`{ label = "Might",
    /// value = "{might}" }`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub items: Option<Vec<BTreeMap<String, String>>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub direction: Option<Direction>,
    /// Items per row (a grid) for a repeat in rows.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub columns: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gap: Option<f64>,
    /// A number field of each item: how many cells (rows or columns) it takes; 1 without it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub span_by: Option<String>,
    /// Orders a repeat's items by this field of each item (numbers by value).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sort_by: Option<String>,
    /// The built-in drawing of a block layer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub block: Option<String>,
    /// Distance between a lattice's lines.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub step: Option<f64>,
    /// The children of a group or repeat.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub layers: Option<Vec<Spanned<Layer>>>,
}

/// A paragraph of rich text.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Paragraph {
    pub spans: Vec<SpanDef>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub show_when: Option<String>,
    /// Repeats the paragraph once per item of this list field.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub for_each: Option<String>,
}

/// A run of text in one font and colour (the layer's when not given).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SpanDef {
    pub text: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub font: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub color: Option<ColorSpec>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub show_when: Option<String>,
}

/// A colour: `"#rrggbb"`, `"#rrggbbaa"`, `"$name"` from the palette, or a colour per value of
/// a field (`{ by = "faction", values = { legion = "#7a1f2b" }, default = "#3d5a3a" }`).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum ColorSpec {
    Fixed(String),
    By(ColorBy),
}

/// A colour chosen by a field's value.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ColorBy {
    pub by: String,
    pub values: BTreeMap<String, String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub default: Option<String>,
}

impl<'de> Deserialize<'de> for ColorSpec {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = ColorSpec;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a colour (\"#rrggbb\", \"$name\") or a table { by, values, default }")
            }
            fn visit_str<E: serde::de::Error>(self, s: &str) -> Result<ColorSpec, E> {
                Ok(ColorSpec::Fixed(s.to_string()))
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                map: A,
            ) -> Result<ColorSpec, A::Error> {
                ColorBy::deserialize(serde::de::value::MapAccessDeserializer::new(map))
                    .map(ColorSpec::By)
            }
        }
        d.deserialize_any(V)
    }
}
