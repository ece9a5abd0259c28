//! A template drawn on a canvas for one card: layers in order, each placed in its parent's
//! box, shown when its condition holds, its texts and colours filled from the card's fields.

use toml::Value;

use super::Face;
use super::fields::{self, Condition, Scope};
use super::format::{Align, ColorSpec, Direction, Layer, LayerType, VAlign};
use crate::cards::Card;
use crate::print::canvas::{Canvas, R, Rgb};
use crate::print::face::{self, Assets, Side};
use crate::print::fonts::Weight;
use crate::print::text::{self, Span, Style};

/// What a drawing needs besides the canvas.
struct Ctx<'a> {
    face: &'a Face,
    card: Option<&'a Card>,
    assets: &'a Assets,
    /// Canvas units per millimetre of the template, across and down.
    kx: f32,
    ky: f32,
}

/// Draws `face` for `card` (`None`: a game's back, which shows no card's fields) on `c`.
pub fn draw(c: &mut dyn Canvas, face: &Face, card: Option<&Card>, side: Side, assets: &Assets) {
    let trim = c.trim();
    let t = &face.template;
    let fields = match card {
        Some(card) => fields::card_fields(card, side),
        None => {
            let mut t = toml::Table::new();
            if let Some(g) = crate::cards::Game::parse(&face.template.game) {
                t.insert("game_title".into(), Value::String(g.title().into()));
                t.insert("game".into(), Value::String(g.as_str().into()));
            }
            t
        }
    };
    let cx = Ctx {
        face,
        card,
        assets,
        kx: trim.w / t.width_mm as f32,
        ky: trim.h / t.height_mm as f32,
    };
    let whole = R::new(0.0, 0.0, t.width_mm as f32, t.height_mm as f32);
    let scope = Scope::card(&fields);
    for l in &t.layers {
        cx.layer(c, l.get_ref(), whole, &scope);
    }
}

/// The box of a layer (in template millimetres) inside its parent's box.
pub fn layer_box(l: &Layer, parent: R) -> R {
    let axis = |pos: Option<f32>, far: Option<f32>, size: Option<f32>, whole: f32| {
        let start = match (pos, far, size) {
            (Some(p), _, _) => p,
            (None, Some(f), Some(s)) => whole - f - s,
            _ => 0.0,
        };
        let size = size.unwrap_or(whole - start - far.unwrap_or(0.0)).max(0.0);
        (start, size)
    };
    let (x, w) = axis(g(l.x), g(l.right), g(l.w), parent.w);
    let (mut y, h) = axis(g(l.y), g(l.bottom), g(l.h), parent.h);
    if l.middle == Some(true) {
        y = (parent.h - h) / 2.0;
    }
    R::new(parent.x + x, parent.y + y, w, h)
}

/// A number of the file as drawn.
fn g(v: Option<f64>) -> Option<f32> {
    v.map(|v| v as f32)
}

fn shown(when: &Option<String>, scope: &Scope) -> bool {
    match when {
        None => true,
        Some(s) => Condition::parse(s).is_ok_and(|c| c.holds(scope)),
    }
}

impl Ctx<'_> {
    fn to_canvas(&self, r: R) -> R {
        R::new(r.x * self.kx, r.y * self.ky, r.w * self.kx, r.h * self.ky)
    }

    fn color(&self, spec: &Option<ColorSpec>, scope: &Scope) -> Option<Rgb> {
        let t = &self.face.template;
        match spec.as_ref()? {
            ColorSpec::Fixed(s) => super::color_of(s, t).ok(),
            ColorSpec::By(by) => {
                let v = scope
                    .get(&by.by)
                    .map(|v| fields::to_text(&v))
                    .unwrap_or_default();
                by.values
                    .iter()
                    .find(|(k, _)| k.eq_ignore_ascii_case(&v))
                    .map(|(_, c)| c)
                    .or(by.default.as_ref())
                    .and_then(|c| super::color_of(c, t).ok())
            }
        }
    }

    fn layer(&self, c: &mut dyn Canvas, l: &Layer, parent: R, scope: &Scope) {
        if !shown(&l.show_when, scope) {
            return;
        }
        let b = layer_box(l, parent);
        let r = self.to_canvas(b);
        let k = self.kx;
        match l.kind {
            LayerType::Bleed => {
                if let Some(f) = self.color(&l.fill, scope) {
                    c.fill_bleed(f);
                }
            }
            LayerType::Rect => {
                let fill = self.color(&l.fill, scope);
                let stroke = self
                    .color(&l.stroke, scope)
                    .map(|s| (s, g(l.stroke_width).unwrap_or(0.3) * k));
                if fill.is_some() || stroke.is_some() {
                    c.round_rect(r, g(l.radius).unwrap_or(0.0) * k, fill, stroke);
                }
            }
            LayerType::Circle => {
                let fill = self.color(&l.fill, scope);
                let stroke = self
                    .color(&l.stroke, scope)
                    .map(|s| (s, g(l.stroke_width).unwrap_or(0.3) * k));
                let (x, y) = r.center();
                c.circle(x, y, r.w.min(r.h) / 2.0, fill, stroke);
            }
            LayerType::Text => self.text(c, l, r, scope),
            LayerType::Image => self.image(c, l, r, scope),
            LayerType::Icon => {
                let name = fields::fill_text(l.icon.as_deref().unwrap_or(""), scope);
                let color = self.color(&l.color, scope).unwrap_or(face::INK);
                let fill = self.color(&l.fill, scope);
                icon(c, &name.to_lowercase(), r, color, fill);
            }
            LayerType::Group => {
                for child in l.layers.iter().flatten() {
                    self.layer(c, child.get_ref(), b, scope);
                }
            }
            LayerType::Repeat => self.repeat(c, l, b, scope),
            LayerType::Lattice => {
                let color = self.color(&l.color, scope).unwrap_or(face::INK);
                let step = g(l.step).unwrap_or(6.0) * k;
                lattice(c, r, step, color, g(l.stroke_width).unwrap_or(0.35) * k);
            }
            LayerType::Block => {
                if l.block.as_deref() == Some("iconica.health_meter")
                    && let Some(Card::Iconica(ch)) = self.card
                {
                    let accent = self.color(&l.color, scope).unwrap_or(face::INK);
                    super::blocks::health_meter(c, r, ch, accent);
                }
            }
        }
    }

    fn style(&self, l: &Layer, r: R) -> Style {
        let size = match g(l.size_share) {
            Some(share) => share * r.w.min(r.h),
            None => g(l.size).unwrap_or(2.0) * self.kx,
        };
        let mut s = Style::new(size);
        if let Some(m) = g(l.min_size) {
            s = s.min(m * self.kx);
        }
        s.align = match l.align.unwrap_or_default() {
            Align::Left => text::Align::Left,
            Align::Center => text::Align::Center,
            Align::Right => text::Align::Right,
        };
        s.middle = l.valign.unwrap_or_default() == VAlign::Middle;
        s
    }

    fn paragraphs(&self, l: &Layer, scope: &Scope) -> Vec<Vec<Span>> {
        let weight = self.face.font(l.font.as_deref());
        let color = self.color(&l.color, scope).unwrap_or(face::INK);
        if let Some(t) = &l.text {
            return vec![vec![Span::new(fields::fill_text(t, scope), weight, color)]];
        }
        let mut out = Vec::new();
        for p in l.paragraphs.iter().flatten() {
            let items: Vec<Option<(Value, usize)>> = match &p.for_each {
                Some(list) => match scope.get(list) {
                    Some(Value::Array(a)) => a
                        .into_iter()
                        .take(super::MAX_ITEMS)
                        .enumerate()
                        .map(|(i, v)| Some((v, i + 1)))
                        .collect(),
                    _ => Vec::new(),
                },
                None => vec![None],
            };
            for item in &items {
                let inner = match item {
                    Some((v, i)) => Scope {
                        root: scope.root,
                        item: Some(v),
                        index: Some(*i),
                    },
                    None => *scope,
                };
                if !shown(&p.show_when, &inner) {
                    continue;
                }
                let spans: Vec<Span> = p
                    .spans
                    .iter()
                    .filter(|s| shown(&s.show_when, &inner))
                    .map(|s| {
                        let w: Weight = match &s.font {
                            Some(f) => self.face.font(Some(f)),
                            None => weight,
                        };
                        let col = match &s.color {
                            Some(_) => self.color(&s.color, &inner).unwrap_or(color),
                            None => color,
                        };
                        Span::new(fields::fill_text(&s.text, &inner), w, col)
                    })
                    .collect();
                out.push(spans);
            }
        }
        out
    }

    fn text(&self, c: &mut dyn Canvas, l: &Layer, r: R, scope: &Scope) {
        let paras = self.paragraphs(l, scope);
        let style = self.style(l, r);
        let turn = g(l.rotate).unwrap_or(0.0).rem_euclid(360.0);
        if turn == 0.0 {
            text::draw(c, &paras, r, style);
            return;
        }
        let size = if turn == 90.0 || turn == 270.0 {
            (r.h, r.w)
        } else {
            (r.w, r.h)
        };
        let degrees = if turn == 270.0 { -90.0 } else { turn };
        let strip = R::new(0.0, 0.0, size.0, size.1);
        c.rotated(r.center(), size, degrees, &mut |s| {
            text::draw(s, &paras, strip, style);
        });
    }

    fn image(&self, c: &mut dyn Canvas, l: &Layer, r: R, scope: &Scope) {
        let src = l.src.as_deref().unwrap_or("{picture}");
        let bound = src.contains('{');
        let path = fields::fill_text(src, scope);
        let bg = self
            .color(&l.placeholder, scope)
            .unwrap_or(Rgb::hex(0xd8d2c4));
        let fg = self
            .color(&l.placeholder_ink, scope)
            .unwrap_or(Rgb::hex(0xa39b8c));
        let radius = g(l.radius).unwrap_or(1.0) * self.kx;
        let img = if path.is_empty() {
            None
        } else if bound {
            face::load_portrait(&path, self.assets).ok()
        } else {
            let full = match &self.face.dir {
                Some(d) => d.join(&path),
                None => std::path::PathBuf::from(&path),
            };
            face::load_portrait(&full.display().to_string(), &Assets::default()).ok()
        };
        match img {
            Some(img) => {
                c.image_cover(r, &img);
                if l.placeholder_ink.is_some() {
                    c.round_rect(r, radius, None, Some((fg, 0.25 * self.kx)));
                }
            }
            None if l.placeholder.is_some() => face::placeholder(c, r, bg, fg),
            None => {}
        }
    }

    fn repeat(&self, c: &mut dyn Canvas, l: &Layer, b: R, scope: &Scope) {
        let items = repeat_items(l, scope);
        let cells = cells_for(l, b, &items, scope);
        for (i, (item, cell)) in items.iter().zip(cells).enumerate() {
            let inner = Scope {
                root: scope.root,
                item: Some(item),
                index: Some(i + 1),
            };
            for child in l.layers.iter().flatten() {
                self.layer(c, child.get_ref(), cell, &inner);
            }
        }
    }
}

/// The items a repeat layer draws in `scope`: the list field's items (`over`) or its
/// literal `items` with their bindings filled, sorted by `sort_by`, at most
/// [`super::MAX_ITEMS`].
pub fn repeat_items(l: &Layer, scope: &Scope) -> Vec<Value> {
    let mut items: Vec<Value> = match (&l.over, &l.items) {
        (Some(list), _) => match scope.get(list) {
            Some(Value::Array(a)) => a,
            _ => Vec::new(),
        },
        (None, Some(items)) => items
            .iter()
            .map(|it| {
                Value::Table(
                    it.iter()
                        .map(|(k, v)| (k.clone(), Value::String(fields::fill_text(v, scope))))
                        .collect(),
                )
            })
            .collect(),
        _ => Vec::new(),
    };
    items.truncate(super::MAX_ITEMS);
    if let Some(key) = &l.sort_by {
        let val = |v: &Value| {
            let s = Scope {
                root: scope.root,
                item: Some(v),
                index: None,
            };
            s.get(key).map(|x| fields::to_text(&x)).unwrap_or_default()
        };
        items.sort_by(|a, b| {
            let (x, y) = (val(a), val(b));
            match (x.parse::<f64>(), y.parse::<f64>()) {
                (Ok(p), Ok(q)) => p.total_cmp(&q),
                _ => x.cmp(&y),
            }
        });
    }
    items
}

/// The cells (template millimetres) a repeat layer with box `b` draws its items in, in
/// `scope`: one per item.
pub fn repeat_cells(l: &Layer, b: R, scope: &Scope) -> Vec<R> {
    let items = repeat_items(l, scope);
    let mut cells = cells_for(l, b, &items, scope);
    cells.truncate(items.len());
    cells
}

/// How many cells each item takes (`span_by`), 1 to [`super::MAX_ITEMS`].
fn spans(l: &Layer, items: &[Value], scope: &Scope) -> Vec<f32> {
    items
        .iter()
        .map(|it| {
            let Some(key) = &l.span_by else { return 1.0 };
            let s = Scope {
                root: scope.root,
                item: Some(it),
                index: None,
            };
            s.get(key)
                .and_then(|v| fields::to_text(&v).parse::<f32>().ok())
                .filter(|v| v.is_finite())
                .map_or(1.0, |v| v.clamp(1.0, super::MAX_ITEMS as f32))
        })
        .collect()
}

/// Splits `len` (less the gaps) among items by their spans: each item's start and size.
fn split(start: f32, len: f32, gap: f32, spans: &[f32]) -> Vec<(f32, f32)> {
    let n = spans.len();
    let total: f32 = spans.iter().sum();
    let room = (len - gap * n.saturating_sub(1) as f32).max(0.0);
    let mut at = start;
    spans
        .iter()
        .map(|s| {
            let size = room * s / total;
            let cell = (at, size);
            at += size + gap;
            cell
        })
        .collect()
}

fn cells_for(l: &Layer, b: R, items: &[Value], scope: &Scope) -> Vec<R> {
    let n = items.len();
    let gap = g(l.gap).unwrap_or(0.0);
    if l.span_by.is_some() && l.columns.is_none() && n > 0 {
        let spans = spans(l, items, scope);
        return match l.direction.unwrap_or_default() {
            Direction::Columns => split(b.x, b.w, gap, &spans)
                .into_iter()
                .map(|(x, w)| R::new(x, b.y, w, b.h))
                .collect(),
            Direction::Rows => split(b.y, b.h, gap, &spans)
                .into_iter()
                .map(|(y, h)| R::new(b.x, y, b.w, h))
                .collect(),
        };
    }
    match (l.direction.unwrap_or_default(), l.columns) {
        (Direction::Columns, _) => b.columns(n.max(1), gap),
        (Direction::Rows, Some(cols)) => {
            let cols = cols.max(1) as usize;
            b.rows(n.div_ceil(cols).max(1), gap)
                .into_iter()
                .flat_map(|row| row.columns(cols, gap))
                .collect()
        }
        (Direction::Rows, None) => b.rows(n.max(1), gap),
    }
}

/// Draws a named icon in `r`: `color` for its lines and figure, `fill` behind it.
pub fn icon(c: &mut dyn Canvas, name: &str, r: R, color: Rgb, fill: Option<Rgb>) {
    match name {
        "skull" => skull(c, r),
        "silhouette" => face::placeholder(c, r, fill.unwrap_or(Rgb(0, 0, 0, 0)), color),
        "fire" | "water" | "earth" | "air" => element(c, name, r, color),
        _ => {}
    }
}

/// A small skull drawn with shapes (no font glyph needed).
pub fn skull(c: &mut dyn Canvas, t: R) {
    let (cx, cy) = t.center();
    let s = t.h.min(t.w) * 0.42;
    let bone = Rgb::hex(0xeeeeee);
    let dark = Rgb::hex(0x111111);
    c.circle(cx, cy - s * 0.15, s * 0.8, Some(bone), None);
    c.round_rect(
        R::new(cx - s * 0.45, cy + s * 0.3, s * 0.9, s * 0.55),
        s * 0.12,
        Some(bone),
        None,
    );
    c.circle(cx - s * 0.3, cy - s * 0.15, s * 0.22, Some(dark), None);
    c.circle(cx + s * 0.3, cy - s * 0.15, s * 0.22, Some(dark), None);
}

/// An alchemical sign filling `r`: fire and air point up, water and earth down; air and
/// earth are crossed.
fn element(c: &mut dyn Canvas, e: &str, r: R, fg: Rgb) {
    let up = matches!(e, "fire" | "air");
    let (cx, cy) = r.center();
    let (w, h) = (r.w, r.h);
    let (apex, base) = if up {
        (cy - h / 2.0, cy + h / 2.0)
    } else {
        (cy + h / 2.0, cy - h / 2.0)
    };
    let pts = [(cx, apex), (cx + w / 2.0, base), (cx - w / 2.0, base)];
    c.polygon(&pts, None, Some((fg, h * 0.1)));
    if matches!(e, "air" | "earth") {
        let y = cy + if up { h * 0.12 } else { -h * 0.12 };
        c.line((cx - w * 0.42, y), (cx + w * 0.42, y), fg, h * 0.0875);
    }
}

/// Diagonal lines both ways every `step`, clipped to `r`.
fn lattice(c: &mut dyn Canvas, r: R, step: f32, color: Rgb, width: f32) {
    let t = c.trim();
    let mut k = -t.h;
    let mut n = 0;
    while k < t.w + t.h && n < 2000 {
        clip_line(
            c,
            r,
            (r.x + k, r.y),
            (r.x + k + r.h, r.bottom()),
            color,
            width,
        );
        clip_line(
            c,
            r,
            (r.x + k, r.bottom()),
            (r.x + k + r.h, r.y),
            color,
            width,
        );
        k += step.max(0.1);
        n += 1;
    }
}

/// Draws the part of segment a-b inside `r` (Liang-Barsky clipping).
fn clip_line(c: &mut dyn Canvas, r: R, a: (f32, f32), b: (f32, f32), color: Rgb, width: f32) {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let (mut t0, mut t1) = (0.0f32, 1.0f32);
    for (p, q) in [
        (-dx, a.0 - r.x),
        (dx, r.right() - a.0),
        (-dy, a.1 - r.y),
        (dy, r.bottom() - a.1),
    ] {
        if p == 0.0 {
            if q < 0.0 {
                return;
            }
        } else {
            let t = q / p;
            if p < 0.0 {
                t0 = t0.max(t)
            } else {
                t1 = t1.min(t)
            }
        }
    }
    if t0 < t1 {
        c.line(
            (a.0 + t0 * dx, a.1 + t0 * dy),
            (a.0 + t1 * dx, a.1 + t1 * dy),
            color,
            width,
        );
    }
}
