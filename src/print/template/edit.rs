//! Changes to a template's tree of layers, as the Template screen makes them: a layer found
//! by its path (`[11, 0, 2]`: the third child of the first child of the twelfth layer),
//! its box on a card (a repeat's children in its first cell), new layers of each kind,
//! deleting and reordering; and [`to_text`], the one writer of template files.

use toml::Spanned;

use super::draw::{self, layer_box};
use super::fields::{self, Condition, Scope};
use super::format::{ColorSpec, Layer, LayerType, Template};
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
}
