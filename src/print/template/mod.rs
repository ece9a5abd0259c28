//! Card face templates: a card face as data (`assets/faces/<game>-<kind>.toml` for the
//! bundled ones, or a designer's file), layers of shapes, pictures, icons and text boxes
//! placed in millimetres and bound to the card's fields. `docs/templates.md` documents the
//! format.
//!
//! - [`format`]: the file's types (strict: unknown keys are refused);
//! - [`fields`]: the card's fields, bindings (`{actions[2].text|cap}`) and conditions;
//! - [`load`] / [`check`]: reading a file whole, every problem said at file:line:column;
//! - [`draw`]: a template drawn on a [`crate::print::canvas::Canvas`], the one drawing used
//!   by the preview, the PNG and PDF export and Tabletop Simulator sheets.

pub mod blocks;
pub mod draw;
pub mod edit;
pub mod fields;
pub mod format;
pub mod set;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::Arc;

pub use format::{FORMAT, Layer, LayerType, Template};

use crate::cards::{CardError, Game};
use crate::print::canvas::Rgb;
use crate::print::fonts::{self, Weight};
use fields::{Condition, Piece, parse_text};

/// The largest template file read.
pub const MAX_FILE: u64 = 1 << 20;
/// The most layers a template has, counting those inside groups and repeats.
pub const MAX_LAYERS: usize = 500;
/// How deep groups and repeats nest.
pub const MAX_DEPTH: usize = 8;
/// The most items a repeat draws (the rest are left out).
pub const MAX_ITEMS: usize = 100;
/// The farthest a place or size reaches, in millimetres (either way).
pub const MAX_MM: f32 = 1000.0;
/// The largest text height, in millimetres.
pub const MAX_FONT_MM: f32 = 100.0;
/// The largest card a template is laid out for, in millimetres.
pub const MAX_CARD_MM: f32 = 500.0;
/// The most fonts a template adds, and the largest font file.
pub const MAX_FONTS: usize = 16;
pub const MAX_FONT_FILE: u64 = 16 << 20;
/// The most named colours.
pub const MAX_COLORS: usize = 256;

/// The bundled fonts' names.
pub const BUNDLED_FONTS: [&str; 3] = ["regular", "bold", "italic"];

/// The icons an icon layer draws.
pub const ICONS: [&str; 6] = ["skull", "silhouette", "fire", "water", "earth", "air"];

/// The built-in blocks.
pub const BLOCKS: [&str; 1] = ["iconica.health_meter"];

/// A template read and checked, with what it needs to draw: where it lives (its fonts and
/// pictures are read relative to it) and its fonts.
#[derive(Debug, Clone)]
pub struct Face {
    pub template: Template,
    /// The folder of the template file (`None` for a bundled template).
    pub dir: Option<PathBuf>,
    /// Fonts by name (the bundled three and the template's own).
    pub fonts: Vec<(String, Weight)>,
}

impl Face {
    /// The weight to draw a font name in (the regular font for an unknown name: checked
    /// templates have none).
    pub fn font(&self, name: Option<&str>) -> Weight {
        let name = name.unwrap_or("regular");
        self.fonts
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, w)| *w)
            .unwrap_or(Weight::Regular)
    }
}

/// Reads and checks a template file.
pub fn load_file(path: &Path) -> Result<Face, CardError> {
    let file = path.display().to_string();
    let text = crate::safe_io::read_text(path, MAX_FILE, "templates")
        .map_err(|e| CardError::at(&file, "", &[], e.to_string()))?;
    load(&text, &file, path.parent().map(Path::to_path_buf))
}

/// Reads and checks a template's text; `file` names it in errors, `dir` is where its fonts
/// and pictures are.
pub fn load(text: &str, file: &str, dir: Option<PathBuf>) -> Result<Face, CardError> {
    #[derive(serde::Deserialize)]
    struct Version {
        format: Option<toml::Spanned<i64>>,
    }
    let v: Version = toml::from_str(text).map_err(|e| CardError::from_toml(file, text, &e))?;
    let Some(version) = v.format else {
        return Err(CardError::at(
            file,
            text,
            &[],
            format!("no `format` key; a template starts with `format = {FORMAT}`"),
        ));
    };
    if *version.get_ref() > FORMAT as i64 || *version.get_ref() < 1 {
        let (line, column) = crate::cards::locate::line_col(text, version.span().start);
        return Err(CardError {
            file: file.to_string(),
            line,
            column,
            key: Some("format".into()),
            message: format!(
                "template format {} is not one this program reads (it reads format {FORMAT}); \
                 a newer deckwright wrote it",
                version.get_ref()
            ),
        });
    }
    let template: Template =
        toml::from_str(text).map_err(|e| CardError::from_toml(file, text, &e))?;
    let fonts = load_fonts(&template, file, text, dir.as_deref())?;
    let face = Face {
        template,
        dir,
        fonts,
    };
    check(&face).map_err(|(span, key, message)| {
        let (line, column) = crate::cards::locate::line_col(text, span);
        CardError {
            file: file.to_string(),
            line,
            column,
            key,
            message,
        }
    })?;
    Ok(face)
}

fn load_fonts(
    t: &Template,
    file: &str,
    text: &str,
    dir: Option<&Path>,
) -> Result<Vec<(String, Weight)>, CardError> {
    let mut out = vec![
        ("regular".to_string(), Weight::Regular),
        ("bold".to_string(), Weight::Bold),
        ("italic".to_string(), Weight::Italic),
    ];
    let at =
        |i: usize, msg: String| CardError::at(file, text, &[&format!("fonts[{i}]"), "file"], msg);
    if t.fonts.len() > MAX_FONTS {
        return Err(at(
            0,
            format!(
                "{} fonts; a template adds at most {MAX_FONTS}",
                t.fonts.len()
            ),
        ));
    }
    for (i, f) in t.fonts.iter().enumerate() {
        if BUNDLED_FONTS.contains(&f.name.as_str()) || out.iter().any(|(n, _)| *n == f.name) {
            return Err(at(i, format!("the font name `{}` is taken", f.name)));
        }
        let path = match dir {
            Some(d) => d.join(&f.file),
            None => PathBuf::from(&f.file),
        };
        let bytes = crate::safe_io::read_bytes(&path, MAX_FONT_FILE, "fonts")
            .map_err(|e| at(i, format!("font `{}`: {e}", f.name)))?;
        let w = fonts::add_font(bytes).map_err(|e| {
            at(
                i,
                format!(
                    "`{}` is not a font this program can draw (a TrueType or OpenType file): {e}",
                    f.file
                ),
            )
        })?;
        out.push((f.name.clone(), w));
    }
    Ok(out)
}

/// A problem found by [`check`]: where (a byte offset in the file), the key, and what.
pub type Problem = (usize, Option<String>, String);

/// Every rule a template must keep beyond its types: keys that apply to the layer's type,
/// places and sizes within bounds, colours, fonts, icons, blocks, bindings and conditions
/// that exist, and the layer count.
pub fn check(face: &Face) -> Result<(), Problem> {
    let t = &face.template;
    let bad = |key: &str, msg: String| -> Problem { (0, Some(key.to_string()), msg) };
    let game = Game::parse(&t.game).ok_or_else(|| {
        bad(
            "game",
            format!(
                "unknown game `{}`; expected iconica, arcadia, iconoclasm or ruunara",
                t.game
            ),
        )
    })?;
    if t.kinds.is_empty() {
        return Err(bad("kinds", "no card kinds; name at least one".into()));
    }
    for k in &t.kinds {
        if k != "back" && !game.kinds().contains(&k.as_str()) {
            return Err(bad(
                "kinds",
                format!(
                    "`{k}` is not a kind of {} card; expected {} or back",
                    game.title(),
                    game.kinds().join(", ")
                ),
            ));
        }
    }
    for (key, v) in [("width_mm", t.width_mm), ("height_mm", t.height_mm)] {
        if !(v.is_finite() && (10.0..=MAX_CARD_MM as f64).contains(&v)) {
            return Err(bad(
                key,
                format!("{v} mm; a card is 10 to {MAX_CARD_MM} mm on a side"),
            ));
        }
    }
    if t.colors.len() > MAX_COLORS {
        return Err(bad(
            "colors",
            format!("more than {MAX_COLORS} named colours"),
        ));
    }
    for (name, c) in &t.colors {
        parse_hex(c).map_err(|e| bad(name, e))?;
    }
    let known = known_fields(game, &t.kinds);
    let mut count = 0;
    let cx = Ctx {
        face,
        known: &known,
    };
    for l in &t.layers {
        cx.layer(l, 1, &[], &mut count)?;
    }
    Ok(())
}

struct Ctx<'a> {
    face: &'a Face,
    known: &'a BTreeSet<String>,
}

impl Ctx<'_> {
    fn layer(
        &self,
        l: &toml::Spanned<Layer>,
        depth: usize,
        scopes: &[Scope],
        count: &mut usize,
    ) -> Result<(), Problem> {
        let at = l.span().start;
        let layer = l.get_ref();
        let ty = layer.kind;
        let label = match &layer.name {
            Some(n) => format!("{} layer `{n}`", ty.as_str()),
            None => format!("{} layer", ty.as_str()),
        };
        let bad = |key: &str, msg: String| -> Problem {
            (at, Some(key.to_string()), format!("{label}: {msg}"))
        };
        *count += 1;
        if *count > MAX_LAYERS {
            return Err(bad("type", format!("more than {MAX_LAYERS} layers")));
        }
        if depth > MAX_DEPTH {
            return Err(bad(
                "layers",
                format!("groups nested deeper than {MAX_DEPTH}"),
            ));
        }
        // Which keys each type takes.
        use LayerType as T;
        let allowed: &[&str] = match ty {
            T::Bleed => &["fill"],
            T::Rect => &["fill", "stroke", "stroke_width", "radius"],
            T::Circle => &["fill", "stroke", "stroke_width"],
            T::Text => &[
                "text",
                "paragraphs",
                "font",
                "color",
                "size",
                "size_share",
                "min_size",
                "align",
                "valign",
                "rotate",
            ],
            T::Image => &["src", "placeholder", "placeholder_ink", "radius"],
            T::Icon => &["icon", "color", "fill"],
            T::Repeat => &[
                "over",
                "items",
                "direction",
                "columns",
                "gap",
                "sort_by",
                "span_by",
                "layers",
            ],
            T::Group => &["layers"],
            T::Lattice => &["color", "step", "stroke_width"],
            T::Block => &["block", "color"],
        };
        let set: Vec<(&str, bool)> = vec![
            ("fill", layer.fill.is_some()),
            ("stroke", layer.stroke.is_some()),
            ("stroke_width", layer.stroke_width.is_some()),
            ("radius", layer.radius.is_some()),
            ("text", layer.text.is_some()),
            ("paragraphs", layer.paragraphs.is_some()),
            ("font", layer.font.is_some()),
            ("color", layer.color.is_some()),
            ("size", layer.size.is_some()),
            ("min_size", layer.min_size.is_some()),
            ("align", layer.align.is_some()),
            ("valign", layer.valign.is_some()),
            ("rotate", layer.rotate.is_some()),
            ("src", layer.src.is_some()),
            ("placeholder", layer.placeholder.is_some()),
            ("placeholder_ink", layer.placeholder_ink.is_some()),
            ("icon", layer.icon.is_some()),
            ("over", layer.over.is_some()),
            ("items", layer.items.is_some()),
            ("direction", layer.direction.is_some()),
            ("columns", layer.columns.is_some()),
            ("gap", layer.gap.is_some()),
            ("sort_by", layer.sort_by.is_some()),
            ("span_by", layer.span_by.is_some()),
            ("size_share", layer.size_share.is_some()),
            ("block", layer.block.is_some()),
            ("step", layer.step.is_some()),
            ("layers", layer.layers.is_some()),
        ];
        for (k, present) in set {
            if present && !allowed.contains(&k) {
                return Err(bad(
                    k,
                    format!(
                        "`{k}` does not apply to a {} layer (it takes {})",
                        ty.as_str(),
                        allowed.join(", ")
                    ),
                ));
            }
        }
        for (k, v) in [
            ("x", layer.x),
            ("y", layer.y),
            ("right", layer.right),
            ("bottom", layer.bottom),
        ] {
            if let Some(v) = v
                && !(v.is_finite() && v.abs() <= MAX_MM as f64)
            {
                return Err(bad(k, format!("{v} mm; a place is within {MAX_MM} mm")));
            }
        }
        for (k, v) in [
            ("w", layer.w),
            ("h", layer.h),
            ("stroke_width", layer.stroke_width),
            ("radius", layer.radius),
            ("gap", layer.gap),
        ] {
            if let Some(v) = v
                && !(v.is_finite() && (0.0..=MAX_MM as f64).contains(&v))
            {
                return Err(bad(k, format!("{v} mm; a size is 0 to {MAX_MM} mm")));
            }
        }
        for (k, v) in [("size", layer.size), ("min_size", layer.min_size)] {
            if let Some(v) = v
                && !(v.is_finite() && (0.1..=MAX_FONT_MM as f64).contains(&v))
            {
                return Err(bad(
                    k,
                    format!("a text height of {v} mm; text is 0.1 to {MAX_FONT_MM} mm high"),
                ));
            }
        }
        if let Some(s) = layer.size_share
            && !(s.is_finite() && s > 0.0 && s <= 1.0)
        {
            return Err(bad(
                "size_share",
                format!("{s}; a share of the box is over 0 and at most 1"),
            ));
        }
        if let Some(s) = layer.step
            && !(s.is_finite() && (0.5..=MAX_MM as f64).contains(&s))
        {
            return Err(bad(
                "step",
                format!("{s} mm; a lattice step is 0.5 to {MAX_MM} mm"),
            ));
        }
        if let Some(r) = layer.rotate
            && ![0.0, 90.0, -90.0, 180.0, 270.0, -180.0].contains(&r)
        {
            return Err(bad(
                "rotate",
                format!("{r} degrees; text turns by 90, -90 or 180"),
            ));
        }
        if let Some(c) = layer.columns
            && !(1..=50).contains(&c)
        {
            return Err(bad("columns", format!("{c}; a grid has 1 to 50 columns")));
        }
        if let Some(s) = &layer.show_when {
            let c = Condition::parse(s).map_err(|e| bad("show_when", e))?;
            for p in c.paths() {
                self.field(p, scopes).map_err(|e| bad("show_when", e))?;
            }
        }
        for (k, c) in [
            ("fill", &layer.fill),
            ("stroke", &layer.stroke),
            ("color", &layer.color),
            ("placeholder", &layer.placeholder),
            ("placeholder_ink", &layer.placeholder_ink),
        ] {
            if let Some(c) = c {
                self.color(c, scopes).map_err(|e| bad(k, e))?;
            }
        }
        if let Some(f) = &layer.font {
            self.font(f).map_err(|e| bad("font", e))?;
        }
        if let Some(s) = &layer.text {
            self.text(s, scopes).map_err(|e| bad("text", e))?;
        }
        if ty == T::Text && layer.text.is_none() && layer.paragraphs.is_none() {
            return Err(bad(
                "text",
                "a text layer needs `text` or `paragraphs`".into(),
            ));
        }
        if ty == T::Text && layer.size.is_none() && layer.size_share.is_none() {
            return Err(bad(
                "size",
                "a text layer needs a `size` (text height in mm) or a `size_share`".into(),
            ));
        }
        for p in layer.paragraphs.iter().flatten() {
            let mut inner = scopes.to_vec();
            if let Some(fe) = &p.for_each {
                self.field(fe, scopes).map_err(|e| bad("for_each", e))?;
                inner.push(Scope::List(self.list_shape(fe, scopes)));
            }
            if let Some(s) = &p.show_when {
                let c = Condition::parse(s).map_err(|e| bad("show_when", e))?;
                for path in c.paths() {
                    self.field(path, &inner).map_err(|e| bad("show_when", e))?;
                }
            }
            for sp in &p.spans {
                self.text(&sp.text, &inner).map_err(|e| bad("text", e))?;
                if let Some(f) = &sp.font {
                    self.font(f).map_err(|e| bad("font", e))?;
                }
                if let Some(c) = &sp.color {
                    self.color(c, &inner).map_err(|e| bad("color", e))?;
                }
                if let Some(s) = &sp.show_when {
                    let c = Condition::parse(s).map_err(|e| bad("show_when", e))?;
                    for path in c.paths() {
                        self.field(path, &inner).map_err(|e| bad("show_when", e))?;
                    }
                }
            }
        }
        match ty {
            T::Image => {
                let src = layer.src.as_deref().unwrap_or("{picture}");
                self.text(src, scopes).map_err(|e| bad("src", e))?;
            }
            T::Icon => {
                let icon = layer
                    .icon
                    .as_deref()
                    .ok_or_else(|| bad("icon", "an icon layer needs `icon`".into()))?;
                let pieces = parse_text(icon).map_err(|e| bad("icon", e))?;
                if pieces.iter().all(|p| matches!(p, Piece::Lit(_))) && !ICONS.contains(&icon) {
                    return Err(bad(
                        "icon",
                        format!("no icon `{icon}`; the icons are {}", ICONS.join(", ")),
                    ));
                }
                self.text(icon, scopes).map_err(|e| bad("icon", e))?;
            }
            T::Block => {
                let b = layer.block.as_deref().unwrap_or("");
                if !BLOCKS.contains(&b) {
                    return Err(bad(
                        "block",
                        format!("no block `{b}`; the blocks are {}", BLOCKS.join(", ")),
                    ));
                }
            }
            T::Repeat | T::Group => {
                let mut inner = scopes.to_vec();
                if ty == T::Repeat {
                    match (&layer.over, &layer.items) {
                        (Some(o), None) => {
                            self.field(o, scopes).map_err(|e| bad("over", e))?;
                            inner.push(Scope::List(self.list_shape(o, scopes)));
                        }
                        (None, Some(items)) => {
                            if items.len() > MAX_ITEMS {
                                return Err(bad(
                                    "items",
                                    format!(
                                        "{} items; a repeat has at most {MAX_ITEMS}",
                                        items.len()
                                    ),
                                ));
                            }
                            let mut keys = BTreeSet::new();
                            for it in items {
                                for (k, v) in it {
                                    self.text(v, scopes).map_err(|e| bad("items", e))?;
                                    keys.insert(k.clone());
                                }
                            }
                            inner.push(Scope::Items(keys));
                        }
                        _ => {
                            return Err(bad(
                                "over",
                                "a repeat takes either `over` (a list field) or `items`".into(),
                            ));
                        }
                    }
                    if let Some(s) = &layer.sort_by {
                        self.field(s, &inner).map_err(|e| bad("sort_by", e))?;
                    }
                    if let Some(s) = &layer.span_by {
                        self.field(s, &inner).map_err(|e| bad("span_by", e))?;
                    }
                }
                for child in layer.layers.iter().flatten() {
                    self.layer(child, depth + 1, &inner, count)?;
                }
            }
            _ => {}
        }
        Ok(())
    }

    fn text(&self, s: &str, scopes: &[Scope]) -> Result<(), String> {
        if s.len() > fields::MAX_TEXT {
            return Err(format!(
                "a text of {} characters; at most {}",
                s.len(),
                fields::MAX_TEXT
            ));
        }
        for p in parse_text(s)? {
            if let Piece::Bind(b) = p {
                self.field(&b.path, scopes)?;
            }
        }
        Ok(())
    }

    fn font(&self, f: &str) -> Result<(), String> {
        if self.face.fonts.iter().any(|(n, _)| n == f) {
            Ok(())
        } else {
            Err(format!(
                "no font `{f}`; the fonts are {}",
                self.face
                    .fonts
                    .iter()
                    .map(|(n, _)| n.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ))
        }
    }

    fn color(&self, c: &format::ColorSpec, scopes: &[Scope]) -> Result<(), String> {
        match c {
            format::ColorSpec::Fixed(s) => color_of(s, &self.face.template).map(|_| ()),
            format::ColorSpec::By(by) => {
                self.field(&by.by, scopes)?;
                for v in by.values.values().chain(by.default.iter()) {
                    color_of(v, &self.face.template)?;
                }
                Ok(())
            }
        }
    }

    /// The shape of list field `path` from the card (`health_tiles.marks` for `marks` inside
    /// a repeat over `health_tiles`).
    fn list_shape(&self, path: &str, scopes: &[Scope]) -> String {
        let shape = fields::shape(path);
        for s in scopes.iter().rev() {
            if let Scope::List(list) = s {
                let full = format!("{list}.{shape}");
                if self.known.contains(&full) {
                    return full;
                }
            }
        }
        shape
    }

    /// Whether `path` names a field the card (or the item in scope) can have.
    fn field(&self, path: &str, scopes: &[Scope]) -> Result<(), String> {
        fields::parse_path(path)?;
        let shape = fields::shape(path);
        if shape == "index" && !scopes.is_empty() {
            return Ok(());
        }
        for s in scopes.iter().rev() {
            match s {
                Scope::List(list) => {
                    if self.known.contains(&format!("{list}.{shape}")) {
                        return Ok(());
                    }
                }
                Scope::Items(keys) => {
                    if keys.contains(&shape) {
                        return Ok(());
                    }
                }
            }
        }
        if self.known.contains(&shape) {
            return Ok(());
        }
        let top: Vec<&str> = self
            .known
            .iter()
            .filter(|k| !k.contains('.'))
            .map(String::as_str)
            .collect();
        Err(format!(
            "`{path}` is not a field of these cards; their fields are {}",
            crate::safe_io::excerpt(&top.join(", "), 600)
        ))
    }
}

#[derive(Debug, Clone)]
enum Scope {
    /// Inside a repeat over a list field (its shape, `actions`).
    List(String),
    /// Inside a repeat over literal items with these keys.
    Items(BTreeSet<String>),
}

/// Every field path (without indexes, `actions.text`) a card of `game` and these kinds can
/// have: the keys of the bundled cards and of the new-card files, and the worked-out fields.
pub fn known_fields(game: Game, kinds: &[String]) -> BTreeSet<String> {
    use std::collections::HashMap;
    use std::sync::Mutex;
    type Known = HashMap<(Game, String), Arc<BTreeSet<String>>>;
    static CACHE: Mutex<Option<Known>> = Mutex::new(None);
    let mut out = BTreeSet::new();
    for kind in kinds {
        let key = (game, kind.clone());
        let cached = CACHE
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get_or_insert_with(Default::default)
            .get(&key)
            .cloned();
        let set = match cached {
            Some(s) => s,
            None => {
                let s = Arc::new(fields_of_kind(game, kind));
                CACHE
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .get_or_insert_with(Default::default)
                    .insert(key, s.clone());
                s
            }
        };
        out.extend(set.iter().cloned());
    }
    out
}

fn fields_of_kind(game: Game, kind: &str) -> BTreeSet<String> {
    let mut out: BTreeSet<String> = ["game_title", "picture", "kind", "game", "id", "name"]
        .into_iter()
        .map(String::from)
        .collect();
    if kind == "back" {
        return out;
    }
    let mut cards: Vec<crate::cards::Card> = crate::cards::bundled()
        .into_iter()
        .filter_map(|(path, text)| match crate::cards::parse(text, &path) {
            Ok(crate::cards::CardFile::Card(c)) => Some(c),
            _ => None,
        })
        .filter(|c| c.game() == game && c.kind() == kind)
        .collect();
    if let Some(t) = crate::cards::templates::get(game, kind)
        && let Ok(crate::cards::CardFile::Card(c)) = crate::cards::parse(t.text, "new card")
    {
        cards.push(c);
    }
    for c in &cards {
        for side in [
            crate::print::face::Side::Front,
            crate::print::face::Side::Back,
        ] {
            let t = fields::card_fields(c, side);
            for (k, v) in &t {
                shapes(k, v, &mut out);
            }
        }
    }
    // Keys every card of a kind may have though no bundled card uses them.
    let optional: &[&str] = match (game, kind) {
        (Game::Iconica, _) => &[
            "affiliation",
            "influence",
            "description",
            "art",
            "action_break",
            "strengths",
            "final_act",
            "final_act.text",
        ],
        (Game::Ruunara, _) => &["art", "ranged", "ranged_range", "ranged_text", "range_text"],
        (Game::Iconoclasm, _) => &["art"],
        (Game::Arcadia, _) => &[
            "art",
            "portrait",
            "attribute",
            "court",
            "combat",
            "trial",
            "trial.attribute",
            "trial.difficulty",
            "trial.failure",
            "enter",
            "enter.attribute",
            "enter.difficulty",
            "leave",
            "leave.attribute",
            "leave.difficulty",
            "special",
            "rest",
            "might",
            "savvy",
            "resolve",
        ],
    };
    out.extend(optional.iter().map(|s| s.to_string()));
    out
}

fn shapes(prefix: &str, v: &toml::Value, out: &mut BTreeSet<String>) {
    out.insert(prefix.to_string());
    match v {
        toml::Value::Table(t) => {
            for (k, v) in t {
                shapes(&format!("{prefix}.{k}"), v, out);
            }
        }
        toml::Value::Array(a) => {
            for v in a {
                if let toml::Value::Table(t) = v {
                    for (k, v) in t {
                        shapes(&format!("{prefix}.{k}"), v, out);
                    }
                }
            }
        }
        _ => {}
    }
}

/// `#rrggbb` or `#rrggbbaa`.
pub fn parse_hex(s: &str) -> Result<Rgb, String> {
    let h = s.strip_prefix('#').unwrap_or("");
    let ok = (h.len() == 6 || h.len() == 8) && h.chars().all(|c| c.is_ascii_hexdigit());
    if !ok {
        return Err(format!(
            "`{}` is not a colour; write #rrggbb or #rrggbbaa (hex digits), or $name for a named colour",
            crate::safe_io::excerpt(s, 40)
        ));
    }
    let v = u32::from_str_radix(h, 16).map_err(|e| e.to_string())?;
    Ok(if h.len() == 6 {
        Rgb::hex(v)
    } else {
        Rgb((v >> 24) as u8, (v >> 16) as u8, (v >> 8) as u8, v as u8)
    })
}

/// A colour as written in a template: `#hex` or `$name` from its palette.
pub fn color_of(s: &str, t: &Template) -> Result<Rgb, String> {
    match s.strip_prefix('$') {
        Some(name) => t
            .colors
            .get(name)
            .ok_or_else(|| format!("no colour named `{name}` in [colors]"))
            .and_then(|c| parse_hex(c)),
        None => parse_hex(s),
    }
}

/// The bundled face templates: (file name, text).
pub fn bundled_files() -> Vec<(&'static str, &'static str)> {
    static DIR: include_dir::Dir<'static> =
        include_dir::include_dir!("$CARGO_MANIFEST_DIR/assets/faces");
    let mut v: Vec<_> = DIR
        .files()
        .filter_map(|f| Some((f.path().file_name()?.to_str()?, f.contents_utf8()?)))
        .filter(|(n, _)| n.ends_with(".toml"))
        .collect();
    v.sort();
    v
}

/// The bundled template for a game's card kind (`"back"` for its back), read once.
pub fn bundled(game: Game, kind: &str) -> Option<Arc<Face>> {
    use std::sync::OnceLock;
    static ALL: OnceLock<Vec<Arc<Face>>> = OnceLock::new();
    let all = ALL.get_or_init(|| {
        bundled_files()
            .into_iter()
            .map(|(name, text)| {
                Arc::new(
                    load(text, &format!("assets/faces/{name}"), None)
                        .unwrap_or_else(|e| panic!("a bundled face template does not load: {e}")),
                )
            })
            .collect()
    });
    all.iter()
        .find(|f| f.template.game == game.as_str() && f.template.kinds.iter().any(|k| k == kind))
        .cloned()
}

/// A template given to a set of cards: the cards' ids and the template.
#[derive(Debug, Clone)]
pub struct SetRule {
    /// The set's name (a query or a folder, as the designer gave it).
    pub name: String,
    pub ids: BTreeSet<String>,
    pub face: Arc<Face>,
}

static SETS: std::sync::RwLock<Vec<SetRule>> = std::sync::RwLock::new(Vec::new());

static GENERATION: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// Puts these set templates in use for every drawing that follows (the first rule that has a
/// card and its kind draws it), replacing those in use.
pub fn use_sets(rules: Vec<SetRule>) {
    *SETS.write().unwrap_or_else(|e| e.into_inner()) = rules;
    GENERATION.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
}

/// Counts the changes of the set templates in use: a picture drawn at another count may be
/// out of date (the Match boards' card pictures are drawn again).
pub fn generation() -> u64 {
    GENERATION.load(std::sync::atomic::Ordering::SeqCst)
}

/// The set templates in use.
pub fn sets_in_use() -> Vec<SetRule> {
    SETS.read().unwrap_or_else(|e| e.into_inner()).clone()
}

/// The set template in use for `card`'s `kind` side, if any.
pub fn chosen(card: &crate::cards::Card, kind: &str) -> Option<Arc<Face>> {
    SETS.read()
        .unwrap_or_else(|e| e.into_inner())
        .iter()
        .find(|r| {
            r.ids.contains(card.id())
                && r.face.template.game == card.game().as_str()
                && r.face.template.kinds.iter().any(|k| k == kind)
        })
        .map(|r| r.face.clone())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::print::face::Side;

    const HEAD: &str = "format = 1\nname = \"t\"\ngame = \"iconica\"\nkinds = [\"character\"]\n";

    fn err(body: &str) -> CardError {
        load(&format!("{HEAD}{body}"), "t.toml", None).expect_err("the template is refused")
    }

    #[test]
    fn every_bundled_template_loads() {
        assert!(bundled_files().len() >= 13);
        for (name, text) in bundled_files() {
            load(text, name, None).unwrap_or_else(|e| panic!("{e}"));
        }
        for g in Game::ALL {
            assert!(bundled(g, "back").is_some(), "{g}");
            for k in g.kinds() {
                assert!(bundled(g, k).is_some(), "{g} {k}");
            }
        }
    }

    #[test]
    fn an_unknown_key_is_named_at_its_line_and_column() {
        let e = err("\n[[layers]]\ntype = \"rect\"\ncolour = \"#ffffff\"\n");
        assert_eq!((e.line, e.column), (8, 1), "{e}");
        assert_eq!(e.key.as_deref(), Some("colour"));
        assert!(e.to_string().starts_with("t.toml:8:1: key `colour`"), "{e}");
    }

    #[test]
    fn a_template_from_a_newer_version_is_refused() {
        let e = load(&HEAD.replace("format = 1", "format = 7"), "t.toml", None).unwrap_err();
        assert_eq!((e.line, e.key.as_deref()), (1, Some("format")));
        assert!(e.message.contains("newer"), "{e}");
        let e = load("name = \"x\"\n", "t.toml", None).unwrap_err();
        assert!(e.message.contains("format = 1"), "{e}");
    }

    #[test]
    fn hostile_templates_are_refused_with_the_reason() {
        let cases = [
            (
                "[[layers]]\ntype = \"text\"\ntext = \"{name}\"\nsize = 5000\n",
                "text is 0.1 to 100 mm high",
            ),
            (
                "[[layers]]\ntype = \"text\"\ntext = \"{nmae}\"\nsize = 3\n",
                "`nmae` is not a field of these cards",
            ),
            (
                "[[layers]]\ntype = \"rect\"\nx = 1e12\nfill = \"#000000\"\n",
                "a place is within 1000 mm",
            ),
            (
                "[[layers]]\ntype = \"rect\"\nw = -4\n",
                "a size is 0 to 1000 mm",
            ),
            ("width_mm = 90000\n", "a card is 10 to 500 mm"),
            (
                "[[layers]]\ntype = \"rect\"\nfill = \"red\"\n",
                "is not a colour",
            ),
            (
                "[[layers]]\ntype = \"rect\"\nfill = \"$nope\"\n",
                "no colour named `nope`",
            ),
            (
                "[[layers]]\ntype = \"rect\"\ntext = \"hi\"\n",
                "`text` does not apply to a rect layer",
            ),
            (
                "[[layers]]\ntype = \"rect\"\nshow_when = \"factoin = legion\"\n",
                "`factoin` is not a field",
            ),
            (
                "[[layers]]\ntype = \"text\"\ntext = \"{name|shout}\"\nsize = 3\n",
                "unknown filter `shout`",
            ),
            (
                "[[layers]]\ntype = \"text\"\ntext = \"x\"\nsize = 3\nfont = \"Comic\"\n",
                "no font `Comic`",
            ),
            (
                "[[layers]]\ntype = \"icon\"\nicon = \"dragon\"\n",
                "no icon `dragon`",
            ),
            (
                "[[layers]]\ntype = \"block\"\nblock = \"doom\"\n",
                "no block `doom`",
            ),
        ];
        let deep = (0..MAX_DEPTH + 1).fold(String::new(), |acc, d| {
            format!(
                "{acc}[[{}]]\ntype = \"group\"\n",
                vec!["layers"; d + 1].join(".")
            )
        });
        let long = format!(
            "[[layers]]\ntype = \"text\"\nsize = 3\ntext = \"{}\"\n",
            "x".repeat(fields::MAX_TEXT + 1)
        );
        let more = [
            (
                "[[layers]]\ntype = \"text\"\ntext = \"{name}\"\nsize = nan\n",
                "text is 0.1 to 100 mm high",
            ),
            (
                "[[layers]]\ntype = \"text\"\ntext = \"{name}\"\nsize_share = 40\n",
                "a share of the box is over 0 and at most 1",
            ),
            (
                "[[layers]]\ntype = \"text\"\ntext = \"{name}\"\n",
                "a text layer needs a `size`",
            ),
            (
                "[[layers]]\ntype = \"repeat\"\nover = \"actoins\"\n",
                "`actoins` is not a field",
            ),
            (
                "[[layers]]\ntype = \"repeat\"\nover = \"actions\"\nspan_by = \"wide\"\n",
                "`wide` is not a field",
            ),
            (
                "[[layers]]\ntype = \"repeat\"\nover = \"actions\"\ncolumns = 0\n",
                "a grid has 1 to 50 columns",
            ),
            (
                "[[layers]]\ntype = \"text\"\ntext = \"{name}\"\nsize = 3\nrotate = 45\n",
                "text turns by 90, -90 or 180",
            ),
            (deep.as_str(), "groups nested deeper than 8"),
            (long.as_str(), "a text of 20001 characters"),
        ];
        for (body, want) in cases.iter().copied().chain(more) {
            let e = err(body);
            assert!(e.to_string().contains(want), "{body:?}: {e}");
            assert!(e.line >= 1 && e.column >= 1);
        }
        let many = "[[layers]]\ntype = \"rect\"\n".repeat(MAX_LAYERS + 1);
        assert!(err(&many).message.contains("more than 500 layers"));
    }

    #[test]
    fn the_iconica_health_meter_is_template_layers_over_health_tiles() {
        let face = bundled(Game::Iconica, "character").unwrap();
        let all = edit::walk(&face.template);
        assert!(
            all.iter().all(|(_, l)| l.kind != LayerType::Block),
            "no built-in block left"
        );
        let (meter, _) = all
            .iter()
            .find(|(_, l)| l.name.as_deref() == Some("health meter"))
            .unwrap();
        let inside: Vec<_> = all
            .iter()
            .filter(|(p, _)| p.len() > 1 && p[0] == meter[0])
            .map(|(_, l)| l)
            .collect();
        assert!(
            inside
                .iter()
                .any(|l| l.over.as_deref() == Some("health_tiles"))
        );
        assert!(inside.iter().any(|l| l.over.as_deref() == Some("marks")));
        // The tiles as the repeat reads them: Start to Skull, the marks of each.
        let text = include_str!("../../../cards/iconica/ico-anwen-halloway.toml");
        let crate::cards::Card::Iconica(ch) = crate::cards::parse_card(text, "anwen").unwrap()
        else {
            panic!()
        };
        let toml::Value::Array(tiles) = fields::health_tiles(&ch) else {
            panic!()
        };
        let want = blocks::meter_tiles(&ch);
        assert_eq!(tiles.len(), want.len());
        for (i, (t, w)) in tiles.iter().zip(&want).enumerate() {
            assert_eq!(t["value"].as_integer(), Some(w.value as i64));
            let shade = t["shade"].as_str().unwrap();
            match i {
                0 => assert_eq!(shade, "start"),
                _ if w.value == 0 => assert_eq!(shade, "skull"),
                _ => assert!(shade == "even" || shade == "odd"),
            }
            let marks = t["marks"].as_array().unwrap();
            assert_eq!(
                marks.len(),
                w.nullifiers.len() + usize::from(w.reaction.is_some())
            );
            if let Some(r) = w.reaction {
                let last = marks.last().unwrap();
                assert_eq!(last["text"].as_str(), Some(format!("R{r}").as_str()));
                assert_eq!(last["span"].as_integer(), Some(2));
            }
        }
    }

    #[test]
    fn a_font_file_that_is_not_a_font_is_refused_and_a_real_one_draws() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("fake.ttf"), b"this is not a font at all").unwrap();
        std::fs::write(dir.path().join("real.ttf"), fonts::BOLD_TTF).unwrap();
        let text = |f: &str| {
            format!(
                "{HEAD}[[fonts]]\nname = \"title\"\nfile = \"{f}\"\n\n[[layers]]\ntype = \"text\"\ntext = \"{{name}}\"\nsize = 4\nfont = \"title\"\n"
            )
        };
        let e = load(&text("fake.ttf"), "t.toml", Some(dir.path().into())).unwrap_err();
        assert!(e.message.contains("is not a font"), "{e}");
        assert_eq!(e.line, 7, "{e}");
        let e = load(&text("gone.ttf"), "t.toml", Some(dir.path().into())).unwrap_err();
        assert!(e.message.contains("font `title`"), "{e}");
        let face = load(&text("real.ttf"), "t.toml", Some(dir.path().into())).unwrap();
        let w = face.font(Some("title"));
        assert!(matches!(w, Weight::Custom(_)));
        // The PDF face shows the name's glyphs in the added font.
        let card = crate::catalogue::bundled_cards().unwrap().remove(0);
        let mut c = crate::print::vector::PdfCanvas::new(63.0, 88.0, 0.0);
        draw::draw(&mut c, &face, Some(&card), Side::Front, &Default::default());
        let f = c.finish();
        assert!(
            f.glyphs.keys().any(|(gw, _)| *gw == w),
            "{:?}",
            f.glyphs.keys()
        );
    }

    #[test]
    fn a_set_template_draws_its_cards_in_the_preview_and_the_pdf_alike() {
        let mut card = crate::catalogue::bundled_cards()
            .unwrap()
            .into_iter()
            .find(|c| c.game() == Game::Iconica)
            .unwrap();
        if let crate::cards::Card::Iconica(ch) = &mut card {
            ch.id = "ico-template-test-only".into();
        }
        let text = format!(
            "{HEAD}[[layers]]\ntype = \"bleed\"\nfill = \"#12ab34\"\n\n[[layers]]\ntype = \"text\"\ntext = \"{{name}}\"\nsize = 4\n"
        );
        let face = Arc::new(load(&text, "t.toml", None).unwrap());
        use_sets(vec![SetRule {
            name: "test".into(),
            ids: [card.id().to_string()].into(),
            face,
        }]);
        let img = crate::print::render_preview(&card, 63, 88, &Default::default());
        let last = img.rgba.len() - 4;
        assert_eq!(&img.rgba[last..last + 3], &[0x12, 0xab, 0x34]);
        let v =
            crate::print::vector::draw(&card, Side::Front, 63.0, 88.0, 0.0, &Default::default());
        let content = String::from_utf8_lossy(&v.content);
        assert!(content.contains("0.071 0.671 0.204 rg"), "{content}");
        use_sets(Vec::new());
        let img = crate::print::render_preview(&card, 63, 88, &Default::default());
        assert_ne!(&img.rgba[last..last + 3], &[0x12, 0xab, 0x34]);
    }
}
