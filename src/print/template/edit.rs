//! Changes to a template's tree of layers, as the Template screen makes them: a layer found
//! by its path (`[11, 0, 2]`: the third child of the first child of the twelfth layer),
//! its box on a card (a repeat's children in its first cell), new layers of each kind,
//! deleting and reordering, moving a layer into and out of a group without moving it on the
//! card, a text layer's rich text (paragraphs of runs) added to, deleted and reordered; and
//! [`to_text`], the one writer of template files.

use toml::Spanned;

use super::draw::{self, layer_box};
use super::fields::{self, Condition, Scope};
use super::format::{ColorSpec, Layer, LayerType, Paragraph, SpanDef, Template};
use crate::cards::Card;
use crate::print::canvas::R;
use crate::print::face::Side;

/// Where a layer is in the tree: its index among the top-level layers, then among its
/// parent's children, down to it. Never empty.
pub type LayerPath = Vec<usize>;

/// The template as a file's text: what Save writes and `template check` reads back.
pub fn to_text(t: &Template) -> Result<String, String> {
    toml::to_string(t).map_err(|e| format!("the template cannot be written as TOML: {e}"))
}

/// The children of the layer at `path` (the top-level layers for an empty path); `None`
/// when the path leads nowhere or to a layer that holds no layers.
fn siblings_mut<'a>(t: &'a mut Template, parent: &[usize]) -> Option<&'a mut Vec<Spanned<Layer>>> {
    let mut list = &mut t.layers;
    for &i in parent {
        let l = list.get_mut(i)?.get_mut();
        if !holds_layers(l.kind) {
            return None;
        }
        list = l.layers.get_or_insert_with(Vec::new);
    }
    Some(list)
}

/// Whether a layer of this kind holds child layers (groups and repeats).
pub fn holds_layers(kind: LayerType) -> bool {
    matches!(kind, LayerType::Group | LayerType::Repeat)
}

/// The layer at `path`.
pub fn get<'a>(t: &'a Template, path: &[usize]) -> Option<&'a Layer> {
    let (&first, rest) = path.split_first()?;
    let mut l = t.layers.get(first)?.get_ref();
    for &i in rest {
        l = l.layers.as_ref()?.get(i)?.get_ref();
    }
    Some(l)
}

/// The layer at `path`, to change.
pub fn get_mut<'a>(t: &'a mut Template, path: &[usize]) -> Option<&'a mut Layer> {
    let (&last, parent) = path.split_last()?;
    Some(siblings_mut(t, parent)?.get_mut(last)?.get_mut())
}

/// Every layer with its path, in the order of the file (a parent before its children).
pub fn walk(t: &Template) -> Vec<(LayerPath, &Layer)> {
    fn go<'a>(
        list: &'a [Spanned<Layer>],
        at: &mut LayerPath,
        out: &mut Vec<(LayerPath, &'a Layer)>,
    ) {
        for (i, l) in list.iter().enumerate() {
            at.push(i);
            out.push((at.clone(), l.get_ref()));
            if let Some(children) = &l.get_ref().layers {
                go(children, at, out);
            }
            at.pop();
        }
    }
    let mut out = Vec::new();
    go(&t.layers, &mut Vec::new(), &mut out);
    out
}

/// A new layer of `kind` with a place and a look that pass the template's checks, to be
/// moved and restyled: a grey shape, the card's name, its art, a skull icon, or an empty
/// group or repeat.
pub fn new_layer(kind: LayerType) -> Layer {
    let mut l = Layer {
        kind,
        name: Some(format!("new {}", kind.as_str())),
        x: Some(10.0),
        y: Some(10.0),
        w: Some(20.0),
        h: Some(10.0),
        ..Layer::default()
    };
    match kind {
        LayerType::Rect | LayerType::Circle => {
            l.fill = Some(ColorSpec::Fixed("#888888".into()));
        }
        LayerType::Text => {
            l.text = Some("{name}".into());
            l.size = Some(3.0);
            l.color = Some(ColorSpec::Fixed("#1d1a17".into()));
        }
        LayerType::Image => {
            l.src = Some("{picture}".into());
            l.placeholder = Some(ColorSpec::Fixed("#d8d2c4".into()));
            l.placeholder_ink = Some(ColorSpec::Fixed("#a39b8c".into()));
        }
        LayerType::Icon => {
            l.icon = Some("skull".into());
            l.color = Some(ColorSpec::Fixed("#1d1a17".into()));
            l.w = Some(8.0);
            l.h = Some(8.0);
        }
        LayerType::Group | LayerType::Repeat => {
            l.layers = Some(Vec::new());
            if kind == LayerType::Repeat {
                l.items = Some(Vec::new());
            }
        }
        LayerType::Bleed => {
            l.x = None;
            l.y = None;
            l.w = None;
            l.h = None;
            l.fill = Some(ColorSpec::Fixed("#888888".into()));
        }
        LayerType::Lattice => l.color = Some(ColorSpec::Fixed("#888888".into())),
        LayerType::Block => l.block = Some(super::BLOCKS[0].into()),
    }
    l
}

/// Puts `layer` in the tree near `at` and says where: inside it (last) when it is a group or
/// repeat, else just in front of it among its siblings; at the front of the card when
/// nothing is selected.
pub fn insert(t: &mut Template, at: Option<&[usize]>, layer: Layer) -> Option<LayerPath> {
    let (parent, index): (LayerPath, usize) = match at {
        None => (Vec::new(), t.layers.len()),
        Some(p) => {
            let l = get(t, p)?;
            if holds_layers(l.kind) {
                (p.to_vec(), l.layers.as_ref().map_or(0, Vec::len))
            } else {
                let (&last, parent) = p.split_last()?;
                (parent.to_vec(), last + 1)
            }
        }
    };
    let list = siblings_mut(t, &parent)?;
    list.insert(index.min(list.len()), Spanned::new(0..0, layer));
    let mut path = parent;
    path.push(index);
    Some(path)
}

/// Takes the layer at `path` (and its children) out of the tree.
pub fn remove(t: &mut Template, path: &[usize]) -> Option<Layer> {
    let (&last, parent) = path.split_last()?;
    let list = siblings_mut(t, parent)?;
    (last < list.len()).then(|| list.remove(last).into_inner())
}

/// Moves the layer at `path` one place among its siblings: `-1` towards the back (drawn
/// earlier, higher in the list), `+1` towards the front. Returns its new path.
pub fn shift(t: &mut Template, path: &[usize], by: isize) -> Option<LayerPath> {
    let (&last, parent) = path.split_last()?;
    let list = siblings_mut(t, parent)?;
    let to = last.checked_add_signed(by)?;
    if last >= list.len() || to >= list.len() {
        return None;
    }
    list.swap(last, to);
    let mut p = parent.to_vec();
    p.push(to);
    Some(p)
}

/// The group just above (`above`: the sibling before it) or just below the layer at `path`
/// in its list, that [`move_into_group`] would move it into; `None` when that sibling is not
/// a group, or the layer is in a repeat (drawn once per item, it has no one place to keep).
pub fn group_beside(t: &Template, path: &[usize], above: bool) -> Option<LayerPath> {
    let (&last, parent) = path.split_last()?;
    if !only_groups(t, parent) {
        return None;
    }
    let i = if above {
        last.checked_sub(1)?
    } else {
        last + 1
    };
    let mut p = parent.to_vec();
    p.push(i);
    (get(t, &p)?.kind == LayerType::Group).then_some(p)
}

/// Whether the layer at `path` is in a group it can be moved out of ([`move_out_of_group`]):
/// a group, not a repeat, holds it.
pub fn in_group(t: &Template, path: &[usize]) -> bool {
    path.len() > 1 && only_groups(t, &path[..path.len() - 1])
}

/// Whether the layer at `path` and every layer holding it are groups (true for the top
/// level, an empty path): a layer there has one place on the card.
fn only_groups(t: &Template, path: &[usize]) -> bool {
    (1..=path.len()).all(|n| get(t, &path[..n]).is_some_and(|l| l.kind == LayerType::Group))
}

/// Moves the layer at `path` into the group just above it (last among its layers, so still
/// drawn over the group and under what followed it) or just below it (first among its
/// layers), its place rewritten relative to the group so that it stays where it was drawn
/// on `card`. Returns its new path; `None` (and nothing changed) when there is no group
/// there ([`group_beside`]).
pub fn move_into_group(
    t: &mut Template,
    card: Option<&Card>,
    path: &[usize],
    above: bool,
) -> Option<LayerPath> {
    let group = group_beside(t, path, above)?;
    let index = if above {
        get(t, &group)?.layers.as_ref().map_or(0, Vec::len)
    } else {
        0
    };
    reparent(t, card, path, &group, index)
}

/// Moves the layer at `path` out of the group that holds it, to just after the group in the
/// group's own list (drawn over the group, as it was), its place rewritten relative to the
/// group's parent so that it stays where it was drawn on `card`. Returns its new path;
/// `None` (and nothing changed) when no group holds it ([`in_group`]).
pub fn move_out_of_group(
    t: &mut Template,
    card: Option<&Card>,
    path: &[usize],
) -> Option<LayerPath> {
    if !in_group(t, path) {
        return None;
    }
    let group = &path[..path.len() - 1];
    let (&g, outer) = group.split_last()?;
    reparent(t, card, path, outer, g + 1)
}

/// Moves the layer at `path` where it is dropped on the layer at `onto` (the Template
/// screen's layer list): into it, last among its layers, when it is a group, else just
/// after it in its list; either way it stays where it is drawn on `card`. Returns its new
/// path; `None` (nothing changed) when it is dropped on itself or inside itself, or a repeat
/// holds it or would hold it.
pub fn move_onto(
    t: &mut Template,
    card: Option<&Card>,
    path: &[usize],
    onto: &[usize],
) -> Option<LayerPath> {
    if onto.starts_with(path) {
        return None;
    }
    let target = get(t, onto)?;
    if target.kind == LayerType::Group {
        let index = target.layers.as_ref().map_or(0, Vec::len);
        return reparent(t, card, path, onto, index);
    }
    let (&i, parent) = onto.split_last()?;
    reparent(t, card, path, parent, i + 1)
}

/// Moves the layer at `path` into the children of the group at `to` (the top-level layers
/// when empty) at `index`, both given in the tree as it is before the move; its place is
/// rewritten relative to its new parent's box on `card`. Refused (`None`, nothing changed)
/// when the layer or the new parent is in a repeat or is a repeat, or `to` is the layer or
/// inside it.
fn reparent(
    t: &mut Template,
    card: Option<&Card>,
    path: &[usize],
    to: &[usize],
    index: usize,
) -> Option<LayerPath> {
    let (&last, from) = path.split_last()?;
    // Only groups all the way down: a layer in a repeat is drawn once per item.
    if to.starts_with(path) || !only_groups(t, from) || !only_groups(t, to) {
        return None;
    }
    let (b, _) = boxes(t, card, path)?;
    let frame = match to {
        [] => R::new(0.0, 0.0, t.width_mm as f32, t.height_mm as f32),
        _ => boxes(t, card, to)?.0,
    };
    // The new parent's path and the index once the layer has left its list.
    let mut to = to.to_vec();
    let mut index = index;
    if to.len() > from.len() && to.starts_with(from) && to[from.len()] > last {
        to[from.len()] -= 1;
    }
    if to == from && index > last {
        index -= 1;
    }
    let mut layer = remove(t, path)?;
    if layer.kind != LayerType::Bleed {
        keep_place(&mut layer, b, frame);
    }
    let list = siblings_mut(t, &to)?;
    let index = index.min(list.len());
    list.insert(index, Spanned::new(0..0, layer));
    to.push(index);
    Some(to)
}

/// Rewrites a layer's place so that its box is `b` inside a parent box `frame` (template
/// millimetres), keeping the keys it places itself with where it can: `x` stays `x`, `right`
/// stays `right`, a width given stays as it is, a box that reaches its parent's far edge
/// keeps doing so (through `right` / `bottom`). A layer centred up and down stays so when
/// the new parent's middle is where the old one's was, else it gets a `y` and `h`.
fn keep_place(l: &mut Layer, b: R, frame: R) {
    let round = |v: f64| (v * 1000.0).round() / 1000.0;
    // One axis: (start, far, size) keys, the box's start and size, the frame's.
    let axis = |pos: &mut Option<f64>,
                far: &mut Option<f64>,
                size: &mut Option<f64>,
                (start, len): (f32, f32),
                (f0, flen): (f32, f32)| {
        let (start, len, f0, flen) = (start as f64, len as f64, f0 as f64, flen as f64);
        let from_start = round(start - f0);
        let from_end = round(f0 + flen - (start + len));
        if pos.is_some() || !(far.is_some() && size.is_some()) {
            *pos = Some(from_start);
        }
        if far.is_some() || size.is_none() {
            *far = Some(from_end);
        }
    };
    axis(
        &mut l.x,
        &mut l.right,
        &mut l.w,
        (b.x, b.w),
        (frame.x, frame.w),
    );
    if l.middle == Some(true) {
        let centre = (b.y + b.h / 2.0 - frame.y - frame.h / 2.0).abs();
        if centre < 0.0005 && l.h.is_some() {
            return;
        }
        l.middle = None;
        l.y = Some(round((b.y - frame.y) as f64));
        l.h = Some(round(b.h as f64));
        l.bottom = None;
        return;
    }
    axis(
        &mut l.y,
        &mut l.bottom,
        &mut l.h,
        (b.y, b.h),
        (frame.y, frame.h),
    );
}

/// Where a run of rich text is: its paragraph's index and its own among the paragraph's
/// runs (`spans` in the file).
pub type RunAt = (usize, usize);

/// A new run of rich text: plain words in the layer's font and colour.
pub fn new_run() -> SpanDef {
    SpanDef {
        text: "new text".into(),
        font: None,
        color: None,
        show_when: None,
    }
}

/// Turns a text layer's `text` into rich text: one paragraph of one run holding the same
/// text (drawn the same). `false` when it is not a text layer or already rich.
pub fn make_rich(l: &mut Layer) -> bool {
    if l.kind != LayerType::Text || l.paragraphs.is_some() {
        return false;
    }
    let text = l.text.take().unwrap_or_default();
    l.paragraphs = Some(vec![Paragraph {
        spans: vec![SpanDef { text, ..new_run() }],
        show_when: None,
        for_each: None,
    }]);
    true
}

/// Whether a text layer's rich text is one plain run (one paragraph, one run, neither with
/// a font, colour, condition or repetition of its own), so [`make_plain`] loses nothing.
pub fn plain_enough(l: &Layer) -> bool {
    match l.paragraphs.as_deref() {
        Some([p]) => {
            p.show_when.is_none()
                && p.for_each.is_none()
                && matches!(p.spans.as_slice(), [s] if s.font.is_none() && s.color.is_none() && s.show_when.is_none())
        }
        _ => false,
    }
}

/// Turns rich text that is one plain run back into `text` (drawn the same); `false`, and
/// nothing changed, when that would lose a paragraph, a run or a style ([`plain_enough`]).
pub fn make_plain(l: &mut Layer) -> bool {
    if !plain_enough(l) {
        return false;
    }
    let text = l
        .paragraphs
        .take()
        .and_then(|p| p.into_iter().next())
        .and_then(|p| p.spans.into_iter().next())
        .map(|s| s.text)
        .unwrap_or_default();
    l.text = Some(text);
    true
}

/// Adds a paragraph of one new run just after paragraph `after` (at the start for `None`,
/// at the end when `after` is past it) and returns its index; `None` when the layer has no
/// rich text.
pub fn add_paragraph(l: &mut Layer, after: Option<usize>) -> Option<usize> {
    let ps = l.paragraphs.as_mut()?;
    let at = after.map_or(0, |a| (a + 1).min(ps.len()));
    ps.insert(
        at,
        Paragraph {
            spans: vec![new_run()],
            show_when: None,
            for_each: None,
        },
    );
    Some(at)
}

/// Deletes paragraph `p`; the last paragraph is kept (turn the layer into plain text, or
/// delete the layer, instead).
pub fn remove_paragraph(l: &mut Layer, p: usize) -> Option<Paragraph> {
    let ps = l.paragraphs.as_mut()?;
    (p < ps.len() && ps.len() > 1).then(|| ps.remove(p))
}

/// Moves paragraph `p` one place: `-1` up (written earlier), `+1` down. Returns its new
/// index.
pub fn shift_paragraph(l: &mut Layer, p: usize, by: isize) -> Option<usize> {
    let ps = l.paragraphs.as_mut()?;
    let to = p.checked_add_signed(by)?;
    if p >= ps.len() || to >= ps.len() {
        return None;
    }
    ps.swap(p, to);
    Some(to)
}

/// Adds a new run to paragraph `p` just after run `after` (at the end when `None` or past
/// it) and returns where it is.
pub fn add_run(l: &mut Layer, p: usize, after: Option<usize>) -> Option<RunAt> {
    let spans = &mut l.paragraphs.as_mut()?.get_mut(p)?.spans;
    let at = after.map_or(spans.len(), |a| (a + 1).min(spans.len()));
    spans.insert(at, new_run());
    Some((p, at))
}

/// Deletes a run; a paragraph's last run is kept (delete the paragraph instead).
pub fn remove_run(l: &mut Layer, (p, s): RunAt) -> Option<SpanDef> {
    let spans = &mut l.paragraphs.as_mut()?.get_mut(p)?.spans;
    (s < spans.len() && spans.len() > 1).then(|| spans.remove(s))
}

/// Moves a run one place in its paragraph: `-1` earlier in the line, `+1` later. Returns
/// where it is now.
pub fn shift_run(l: &mut Layer, (p, s): RunAt, by: isize) -> Option<RunAt> {
    let spans = &mut l.paragraphs.as_mut()?.get_mut(p)?.spans;
    let to = s.checked_add_signed(by)?;
    if s >= spans.len() || to >= spans.len() {
        return None;
    }
    spans.swap(s, to);
    Some((p, to))
}

/// Whether a layer's condition holds in `scope` (a layer without one is always shown).
fn shown(l: &Layer, scope: &Scope) -> bool {
    l.show_when
        .as_deref()
        .is_none_or(|s| Condition::parse(s).is_ok_and(|c| c.holds(scope)))
}

/// The boxes (template millimetres) of the layer at `path` and of its parent, for `card`
/// (a repeat's children are placed in its first cell, with its first item's fields);
/// `None` when the path leads nowhere.
pub fn boxes(t: &Template, card: Option<&Card>, path: &[usize]) -> Option<(R, R)> {
    let fields = card.map(|c| fields::card_fields(c, Side::Front));
    let empty = toml::Table::new();
    let root = fields.as_ref().unwrap_or(&empty);
    let mut parent = R::new(0.0, 0.0, t.width_mm as f32, t.height_mm as f32);
    let (&first, rest) = path.split_first()?;
    let mut l = t.layers.get(first)?.get_ref();
    let mut b = layer_box(l, parent);
    let mut item: Option<toml::Value> = None;
    for &i in rest {
        let inner = if l.kind == LayerType::Repeat {
            let scope = Scope {
                root,
                item: item.as_ref(),
                index: item.as_ref().map(|_| 1),
            };
            let cell = draw::repeat_cells(l, b, &scope).into_iter().next();
            item = draw::repeat_items(l, &scope).into_iter().next();
            cell.unwrap_or(b)
        } else {
            b
        };
        l = l.layers.as_ref()?.get(i)?.get_ref();
        parent = inner;
        b = layer_box(l, parent);
    }
    Some((b, parent))
}

/// The frontmost, innermost layer drawn on `card` whose box holds the point (mm); the
/// bleed is never picked, nor a group or repeat (their children are).
pub fn hit(t: &Template, card: Option<&Card>, x: f32, y: f32) -> Option<LayerPath> {
    let fields = card.map(|c| fields::card_fields(c, Side::Front));
    let empty = toml::Table::new();
    let root = fields.as_ref().unwrap_or(&empty);
    let scope = Scope::card(root);
    let whole = R::new(0.0, 0.0, t.width_mm as f32, t.height_mm as f32);
    let inside = |b: R| x >= b.x && x <= b.right() && y >= b.y && y <= b.bottom();
    // Children of a repeat are tested in the first cell, with the first item's fields.
    fn go(
        list: &[Spanned<Layer>],
        parent: R,
        scope: &Scope,
        inside: &dyn Fn(R) -> bool,
        at: &mut LayerPath,
    ) -> Option<LayerPath> {
        for (i, l) in list.iter().enumerate().rev() {
            let l = l.get_ref();
            if l.kind == LayerType::Bleed || !shown(l, scope) {
                continue;
            }
            let b = layer_box(l, parent);
            at.push(i);
            let found = match l.kind {
                LayerType::Group => go(l.layers.as_deref().unwrap_or(&[]), b, scope, inside, at),
                LayerType::Repeat => {
                    let items = draw::repeat_items(l, scope);
                    let cells = draw::repeat_cells(l, b, scope);
                    match (items.first(), cells.first()) {
                        (Some(item), Some(cell)) => {
                            let inner = Scope {
                                root: scope.root,
                                item: Some(item),
                                index: Some(1),
                            };
                            go(
                                l.layers.as_deref().unwrap_or(&[]),
                                *cell,
                                &inner,
                                inside,
                                at,
                            )
                        }
                        _ => None,
                    }
                }
                _ => inside(b).then(|| at.clone()),
            };
            at.pop();
            if found.is_some() {
                return found;
            }
        }
        None
    }
    go(&t.layers, whole, &scope, &inside, &mut Vec::new())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::Game;

    fn iconica() -> Template {
        super::super::bundled(Game::Iconica, "character")
            .unwrap()
            .template
            .clone()
    }

    #[test]
    fn layers_are_found_added_moved_and_removed_by_path() {
        let mut t = iconica();
        let (rows, _) = walk(&t)
            .into_iter()
            .find(|(_, l)| l.name.as_deref() == Some("action rows"))
            .map(|(p, l)| (p, l.kind))
            .unwrap();
        let rows = &rows;
        assert_eq!(rows.len(), 2, "{rows:?}");
        assert_eq!(get(&t, rows).unwrap().kind, LayerType::Repeat);
        // A text added into the repeat goes last among its children.
        let text = insert(&mut t, Some(rows), new_layer(LayerType::Text)).unwrap();
        assert_eq!(text.len(), 3);
        assert_eq!(get(&t, &text).unwrap().text.as_deref(), Some("{name}"));
        let up = shift(&mut t, &text, -1).unwrap();
        assert_eq!(*up.last().unwrap(), text.last().unwrap() - 1);
        assert!(shift(&mut t, &text, 1).is_none(), "already last");
        assert_eq!(remove(&mut t, &up).unwrap().kind, LayerType::Text);
        assert_eq!(t, iconica());
        // Beside a leaf: just in front of it.
        let shape = insert(&mut t, Some(&[3]), new_layer(LayerType::Rect)).unwrap();
        assert_eq!(shape, vec![4]);
        let face = super::super::Face {
            template: t.clone(),
            dir: None,
            fonts: super::super::bundled(Game::Iconica, "character")
                .unwrap()
                .fonts
                .clone(),
        };
        super::super::check(&face).unwrap();
        for k in [
            LayerType::Circle,
            LayerType::Image,
            LayerType::Icon,
            LayerType::Group,
        ] {
            insert(&mut t, None, new_layer(k));
        }
        let face = super::super::Face {
            template: t.clone(),
            ..face
        };
        super::super::check(&face).unwrap();
        // The writer's text reads back as the same template.
        let text = to_text(&t).unwrap();
        let back = super::super::load(&text, "t.toml", None).unwrap();
        assert_eq!(back.template, t);
    }

    #[test]
    fn a_nested_layer_is_hit_and_boxed_in_its_repeats_first_cell() {
        let t = iconica();
        let card = crate::catalogue::bundled_cards()
            .unwrap()
            .into_iter()
            .find(|c| c.game() == Game::Iconica)
            .unwrap();
        // The first action row's die: under the top left of the action rows.
        let groups: Vec<_> = walk(&t)
            .into_iter()
            .filter(|(_, l)| l.name.as_deref() == Some("die"))
            .map(|(p, _)| p)
            .collect();
        let hit_at = |p: &LayerPath| {
            let (b, parent) = boxes(&t, Some(&card), p).unwrap();
            assert!(parent.x <= b.x && b.right() <= parent.right() + 0.01);
            hit(&t, Some(&card), b.x + b.w / 2.0, b.y + b.h / 2.0)
        };
        let found: Vec<_> = groups.iter().filter_map(hit_at).collect();
        assert!(!found.is_empty());
        for f in &found {
            let l = get(&t, f).unwrap();
            assert!(
                matches!(l.name.as_deref(), Some("die" | "roll")),
                "{f:?} {:?}",
                l.name
            );
            assert_eq!(f.len(), 3);
        }
        assert_eq!(hit(&t, Some(&card), 0.5, 0.5), None);
    }
    /// The path of the first layer named `name`.
    fn named(t: &Template, name: &str) -> LayerPath {
        walk(t)
            .into_iter()
            .find(|(_, l)| l.name.as_deref() == Some(name))
            .map(|(p, _)| p)
            .unwrap_or_else(|| panic!("no layer `{name}`"))
    }

    fn iconica_card() -> Card {
        crate::catalogue::bundled_cards()
            .unwrap()
            .into_iter()
            .find(|c| c.id() == "ico-grumbolt")
            .unwrap()
    }

    fn face_of(t: &Template) -> super::super::Face {
        super::super::Face {
            template: t.clone(),
            dir: None,
            fonts: super::super::bundled(Game::Iconica, "character")
                .unwrap()
                .fonts
                .clone(),
        }
    }

    /// Asserts the layer at `path` in `t` and at `was` in `before` have the same box (mm).
    fn same_box(before: &Template, was: &[usize], t: &Template, path: &[usize], card: &Card) {
        let a = boxes(before, Some(card), was).unwrap().0;
        let b = boxes(t, Some(card), path).unwrap().0;
        for (u, v) in [(a.x, b.x), (a.y, b.y), (a.w, b.w), (a.h, b.h)] {
            assert!((u - v).abs() < 0.002, "{a:?} -> {b:?}");
        }
    }

    #[test]
    fn a_layer_moved_into_and_out_of_a_group_stays_where_it_is_drawn() {
        let card = iconica_card();
        let before = iconica();
        let mut t = before.clone();
        let portrait = named(&t, "portrait");
        let meter = named(&t, "health meter");
        let beside = named(&t, "actions beside the extras");
        assert_eq!(
            (meter.len(), portrait[0], beside[0]),
            (1, meter[0] + 1, meter[0] + 2)
        );
        assert_eq!(group_beside(&t, &portrait, true), Some(meter.clone()));
        assert_eq!(group_beside(&t, &portrait, false), Some(beside.clone()));
        assert_eq!(
            group_beside(&t, &meter, true),
            None,
            "the footer is no group"
        );
        assert!(!in_group(&t, &portrait));
        assert_eq!(move_out_of_group(&mut t, Some(&card), &portrait), None);
        assert_eq!(t, before);

        // Into the meter above: its last layer, drawn where it was, over the meter as before.
        let n = get(&t, &meter).unwrap().layers.as_ref().unwrap().len();
        let inside = move_into_group(&mut t, Some(&card), &portrait, true).unwrap();
        assert_eq!(inside, vec![meter[0], n]);
        same_box(&before, &portrait, &t, &inside, &card);
        let l = get(&t, &inside).unwrap();
        assert_eq!((l.x, l.w), (Some(3.8 - 48.5), Some(43.9)));
        assert_eq!(t.layers.len(), before.layers.len() - 1);
        super::super::check(&face_of(&t)).unwrap();
        // The card drawn is the same picture.
        let draw = |t: &Template| {
            crate::print::render::render_face(
                &face_of(t),
                Some(&card),
                126,
                176,
                &Default::default(),
            )
            .rgba
        };
        let (a, b) = (draw(&before), draw(&t));
        let off = a
            .iter()
            .zip(&b)
            .filter(|(x, y)| x.abs_diff(**y) > 2)
            .count();
        assert!(off <= 4, "{off} bytes differ");
        // Out again: just after the group, the same place and the same keys as before.
        assert!(in_group(&t, &inside));
        let out = move_out_of_group(&mut t, Some(&card), &inside).unwrap();
        assert_eq!(out, portrait);
        assert_eq!(t, before);
        assert_eq!(to_text(&t).unwrap(), to_text(&before).unwrap());

        // Into the group below: its first layer (drawn under the group's own layers, over
        // the meter, as before), numbers relative to the group.
        let first = move_into_group(&mut t, Some(&card), &portrait, false).unwrap();
        assert_eq!(first, vec![beside[0] - 1, 0]);
        same_box(&before, &portrait, &t, &first, &card);
        assert_eq!(
            get(&t, &[beside[0] - 1]).unwrap().name.as_deref(),
            Some("actions beside the extras")
        );
        super::super::check(&face_of(&t)).unwrap();

        // A layer filling its group (no place of its own) and a repeat placed from the far
        // edges, moved out: they keep their boxes, the repeat's own layers with it.
        let mut t = before.clone();
        let frame = named(&t, "meter frame");
        let out = move_out_of_group(&mut t, Some(&card), &frame).unwrap();
        assert_eq!(out, vec![meter[0] + 1]);
        same_box(&before, &frame, &t, &out, &card);
        let l = get(&t, &out).unwrap();
        assert_eq!(
            (l.x, l.y, l.right, l.bottom),
            (Some(48.5), Some(14.5), Some(3.8), Some(6.7))
        );
        assert_eq!((l.w, l.h), (None, None));
        let tiles = named(&t, "tiles");
        let tile = named(&t, "skull");
        let out = move_out_of_group(&mut t, Some(&card), &tiles).unwrap();
        let mut skull = out.clone();
        skull.extend_from_slice(&tile[tiles.len()..]);
        same_box(&before, &named(&before, "tiles"), &t, &out, &card);
        same_box(&before, &named(&before, "skull"), &t, &skull, &card);
        super::super::check(&face_of(&t)).unwrap();
        // A layer in a group in a repeat stays there (it is drawn once per item).
        let mut t = before.clone();
        let rows = named(&t, "action rows");
        let group = insert(&mut t, Some(&rows), new_layer(LayerType::Group)).unwrap();
        let inner = insert(&mut t, Some(&group), new_layer(LayerType::Rect)).unwrap();
        assert!(!in_group(&t, &inner));
        assert_eq!(move_out_of_group(&mut t, Some(&card), &inner), None);
        let beside = insert(&mut t, Some(&rows), new_layer(LayerType::Rect)).unwrap();
        assert_eq!(group_beside(&t, &beside, true), None);
        let die = named(&t, "die");
        assert!(!in_group(&t, &die));
        assert_eq!(group_beside(&t, &die, true), None);
        assert_eq!(group_beside(&t, &die, false), None);
    }

    #[test]
    fn a_layer_dropped_on_a_group_goes_in_and_on_a_layer_goes_after_it() {
        let card = iconica_card();
        let before = iconica();
        let mut t = before.clone();
        let footer = named(&t, "footer");
        let meter = named(&t, "health meter");
        let die = named(&t, "die");
        // Onto the meter: its last layer, in place.
        let n = get(&t, &meter).unwrap().layers.as_ref().unwrap().len();
        let inside = move_onto(&mut t, Some(&card), &footer, &meter).unwrap();
        assert_eq!(inside, vec![meter[0] - 1, n]);
        same_box(&before, &footer, &t, &inside, &card);
        // Onto a top-level layer: out of the group, just after that layer.
        let out = move_onto(&mut t, Some(&card), &inside, &[1]).unwrap();
        assert_eq!(out, vec![2]);
        same_box(&before, &footer, &t, &out, &card);
        assert_eq!(get(&t, &[2]).unwrap().name.as_deref(), Some("footer"));
        super::super::check(&face_of(&t)).unwrap();
        // Not onto itself, into itself, into a repeat, nor out of one.
        let mut t = before.clone();
        let frame = named(&t, "meter frame");
        assert_eq!(move_onto(&mut t, Some(&card), &meter, &meter), None);
        assert_eq!(move_onto(&mut t, Some(&card), &meter, &frame), None);
        assert_eq!(move_onto(&mut t, Some(&card), &footer, &die), None);
        assert_eq!(move_onto(&mut t, Some(&card), &die, &[1]), None);
        assert_eq!(t, before);
    }

    #[test]
    fn a_layer_centred_up_and_down_keeps_its_place_in_another_group() {
        let card = iconica_card();
        let mut t = iconica();
        let meter = named(&t, "health meter");
        let mut centred = new_layer(LayerType::Rect);
        centred.middle = Some(true);
        let path = insert(&mut t, Some(&meter), centred.clone()).unwrap();
        // The meter's middle is not the card's: it gets a `y` of its own.
        let before = t.clone();
        let out = move_out_of_group(&mut t, Some(&card), &path).unwrap();
        same_box(&before, &path, &t, &out, &card);
        let l = get(&t, &out).unwrap();
        assert!(
            l.middle.is_none() && l.y.is_some() && l.h == Some(10.0),
            "{l:?}"
        );
        // A group the size of the card: centred it stays.
        let mut t = iconica();
        let whole = insert(&mut t, None, new_layer(LayerType::Group)).unwrap();
        let l = get_mut(&mut t, &whole).unwrap();
        (l.x, l.y, l.w, l.h) = (None, None, None, None);
        let path = insert(&mut t, Some(&whole), centred).unwrap();
        let before = t.clone();
        let out = move_out_of_group(&mut t, Some(&card), &path).unwrap();
        same_box(&before, &path, &t, &out, &card);
        assert_eq!(get(&t, &out).unwrap().middle, Some(true));
    }

    #[test]
    fn rich_text_paragraphs_and_runs_are_added_deleted_and_reordered() {
        let before = iconica();
        let mut t = before.clone();
        let action = named(&t, "action");
        let l = get_mut(&mut t, &action).unwrap();
        assert_eq!(l.paragraphs.as_ref().unwrap()[0].spans.len(), 3);
        assert!(!plain_enough(l) && !make_plain(l) && !make_rich(l));
        // A run after the first, moved to the end, then deleted.
        assert_eq!(add_run(l, 0, Some(0)), Some((0, 1)));
        let spans = |l: &Layer| -> Vec<String> {
            l.paragraphs.as_ref().unwrap()[0]
                .spans
                .iter()
                .map(|s| s.text.clone())
                .collect()
        };
        assert_eq!(spans(l), ["{name} ", "new text", "({kind}) ", "{text}"]);
        assert_eq!(shift_run(l, (0, 1), 1), Some((0, 2)));
        assert_eq!(shift_run(l, (0, 2), 1), Some((0, 3)));
        assert_eq!(shift_run(l, (0, 3), 1), None, "already last");
        assert_eq!(shift_run(l, (0, 0), -1), None, "already first");
        assert_eq!(spans(l), ["{name} ", "({kind}) ", "{text}", "new text"]);
        assert_eq!(remove_run(l, (0, 3)).unwrap().text, "new text");
        assert_eq!(add_run(l, 0, None), Some((0, 3)));
        assert_eq!(remove_run(l, (0, 3)).unwrap().text, "new text");
        assert_eq!(add_run(l, 5, None), None, "no paragraph 6");
        // A second paragraph, styled, moved up, then deleted.
        assert_eq!(add_paragraph(l, Some(0)), Some(1));
        let p = &mut l.paragraphs.as_mut().unwrap()[1];
        p.show_when = Some("is_break".into());
        p.spans[0].font = Some("italic".into());
        p.spans[0].color = Some(ColorSpec::Fixed("$muted".into()));
        p.spans[0].text = "Break: {text}".into();
        assert_eq!(shift_paragraph(l, 1, -1), Some(0));
        assert_eq!(shift_paragraph(l, 0, -1), None);
        assert_eq!(
            l.paragraphs.as_ref().unwrap()[0].show_when.as_deref(),
            Some("is_break")
        );
        super::super::check(&face_of(&t)).unwrap();
        // The writer writes it and reads it back the same.
        let back = super::super::load(&to_text(&t).unwrap(), "t.toml", None).unwrap();
        assert_eq!(back.template, t);
        let l = get_mut(&mut t, &action).unwrap();
        // A paragraph's last run and the last paragraph stay.
        assert!(remove_run(l, (0, 0)).is_none());
        assert_eq!(
            remove_paragraph(l, 0).unwrap().show_when.as_deref(),
            Some("is_break")
        );
        assert!(remove_paragraph(l, 0).is_none(), "the last paragraph stays");
        assert_eq!(t, before);

        // Plain text made rich and back: one run, drawn the same.
        let name = named(&t, "name");
        let l = get_mut(&mut t, &name).unwrap();
        assert!(make_rich(l));
        assert_eq!((l.text.as_deref(), plain_enough(l)), (None, true));
        assert_eq!(l.paragraphs.as_ref().unwrap()[0].spans[0].text, "{name}");
        super::super::check(&face_of(&t)).unwrap();
        assert!(make_plain(get_mut(&mut t, &name).unwrap()));
        assert_eq!(t, before);
        // A rect has no text to make rich.
        assert!(!make_rich(get_mut(&mut t, &[1]).unwrap()));
    }
}
