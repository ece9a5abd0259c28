//! The Iconica character card: name, type line, portrait, the six actions (the Action
//! Break marked), strengths, final act, and the health meter drawn as tiles from Start
//! down to the Skull with nullifier icons and reaction values.

use super::{Assets, INK, MUTED, PAPER, WHITE, cap, para, portrait, small_line, title_bar};
use crate::games::iconica::model::{Character, Faction, Nullifier, Roll};
use crate::print::canvas::{Canvas, R, Rgb};
use crate::print::fonts::Weight;
use crate::print::text::{self, Span, Style};

const BREAK: Rgb = Rgb::hex(0xe07a1f);
/// The colour of a Reaction tag (and of the Final Act's title).
pub const REACTION: Rgb = Rgb::hex(0xb3261e);

fn faction_color(f: Faction) -> Rgb {
    match f {
        Faction::Legion => Rgb::hex(0x7a1f2b),
        Faction::Protectorate => Rgb::hex(0x1f4e7a),
        Faction::Independent => Rgb::hex(0x3d5a3a),
    }
}

/// The colour and the letter(s) of a nullifier icon.
pub fn nullifier_icon(n: Nullifier) -> (Rgb, &'static str) {
    match n {
        Nullifier::Parry => (Rgb::hex(0x6b7280), "P"),
        Nullifier::Antidote => (Rgb::hex(0x2e8b57), "A"),
        Nullifier::Courage => (Rgb::hex(0xc77700), "C"),
        Nullifier::Evasion => (Rgb::hex(0x1b8fb0), "E"),
        Nullifier::Focus => (Rgb::hex(0x7b3fa0), "F"),
        Nullifier::Clarity => (Rgb::hex(0xb08d1b), "Cl"),
    }
}

fn roll_label(r: &Roll) -> String {
    let mut n = r.numbers();
    n.sort_unstable();
    let contiguous = n.windows(2).all(|w| w[1] == w[0] + 1);
    match n.as_slice() {
        [one] => one.to_string(),
        [first, .., last] if contiguous => format!("{first}-{last}"),
        _ => n.iter().map(u8::to_string).collect::<Vec<_>>().join(","),
    }
}

pub fn draw(c: &mut dyn Canvas, ch: &Character, assets: &Assets) {
    let fc = faction_color(ch.faction);
    let panel = super::frame(c, fc, PAPER);
    let body = panel.inset(1.6);
    let (head, rest) = body.split_top(6.4);
    let badge_room = if ch.influence.is_some() { 5.0 } else { 0.0 };
    title_bar(c, head, &ch.name, fc, WHITE, badge_room);
    if let Some(inf) = ch.influence {
        super::badge(
            c,
            head.right() - 3.0,
            head.y + head.h / 2.0,
            2.6,
            &inf.to_string(),
            Rgb::hex(0xd9b44a),
            INK,
        );
    }
    let (sub, rest) = rest.split_top(4.0);
    let type_line = format!(
        "{} {} · {} · {} · {}",
        cap(&ch.race),
        ch.archetype,
        cap(&format!("{:?}", ch.class).to_lowercase()),
        cap(&format!("{:?}", ch.rarity).to_lowercase()),
        cap(&format!("{:?}", ch.faction).to_lowercase()),
    );
    small_line(c, &type_line, sub.inset_xy(0.5, 0.7), Weight::Italic, MUTED);
    let (rest, foot) = rest.split_bottom(2.6);
    let footer = match &ch.affiliation {
        Some(a) => format!("{} {} · {a}", ch.series, ch.number),
        None => format!("{} {}", ch.series, ch.number),
    };
    small_line(c, &footer, foot.inset_xy(0.5, 0.2), Weight::Regular, MUTED);

    let (left, meter) = rest.split_right(11.5);
    health_meter(
        c,
        R::new(meter.x + 0.8, meter.y + 0.3, meter.w - 0.8, meter.h - 0.6),
        ch,
        fc,
    );

    let left = R::new(left.x, left.y + 0.3, left.w, left.h - 0.6);
    let (pic, rest) = left.split_top((left.h * 0.26).min(20.0));
    portrait(
        c,
        pic,
        ch.portrait.as_deref(),
        assets,
        Rgb::hex(0xd8d2c4),
        Rgb::hex(0xa39b8c),
    );
    let extras = !ch.strengths.is_empty() || ch.final_act.is_some();
    let extra_h = if extras { rest.h * 0.22 } else { 0.0 };
    let (actions, extra) = rest.split_bottom(extra_h);
    draw_actions(
        c,
        R::new(actions.x, actions.y + 0.8, actions.w, actions.h - 0.8),
        ch,
        fc,
    );
    if extras {
        draw_extras(c, extra.inset_xy(0.0, 0.4), ch);
    }
}

fn draw_actions(c: &mut dyn Canvas, r: R, ch: &Character, fc: Rgb) {
    let mut acts: Vec<_> = ch.actions.iter().collect();
    acts.sort_by_key(|a| a.roll.numbers().into_iter().min().unwrap_or(0));
    let rows = r.rows(acts.len().max(1), 0.6);
    for (a, row) in acts.iter().zip(rows) {
        let is_break = ch.action_break.is_some_and(|b| a.roll.covers(b));
        let edge = if is_break { Some((BREAK, 0.45)) } else { None };
        c.round_rect(row, 0.8, Some(Rgb::hex(0xfffaf0)), edge);
        let die = row.h.min(5.2) - 0.8;
        let dr = R::new(row.x + 0.5, row.y + (row.h - die) / 2.0, die, die);
        c.round_rect(dr, 0.7, Some(if is_break { BREAK } else { fc }), None);
        text::label(
            c,
            &roll_label(&a.roll),
            Weight::Bold,
            WHITE,
            dr.inset(0.5),
            Style::new(die * 0.6).center().middle(),
        );
        let mut tr = R::new(
            dr.right() + 0.8,
            row.y + 0.35,
            row.right() - dr.right() - 1.3,
            row.h - 0.7,
        );
        if is_break {
            let tag = R::new(row.right() - 8.0, row.y - 0.5, 7.6, 2.0);
            c.round_rect(tag, 0.6, Some(BREAK), None);
            text::label(
                c,
                "ACTION BREAK",
                Weight::Bold,
                WHITE,
                tag.inset_xy(0.4, 0.2),
                // The size the tag's width allows: a fixed label, never shrunk.
                Style::new(0.95).center().middle(),
            );
            tr = R::new(tr.x, tr.y + 0.9, tr.w, tr.h - 0.9);
        }
        let spans = para(vec![
            Span::new(format!("{} ", a.name), Weight::Bold, INK),
            Span::new(
                format!("({}) ", format!("{:?}", a.kind).to_lowercase()),
                Weight::Italic,
                MUTED,
            ),
            Span::new(a.text.clone(), Weight::Regular, INK),
        ]);
        text::draw(c, &[spans], tr, Style::new(2.0).min(0.8).middle());
    }
}

fn draw_extras(c: &mut dyn Canvas, r: R, ch: &Character) {
    c.round_rect(r, 0.8, Some(Rgb::hex(0xebe3cf)), None);
    let mut paras = Vec::new();
    for s in &ch.strengths {
        let against = s
            .against
            .archetype
            .clone()
            .or_else(|| s.against.race.clone())
            .or_else(|| s.against.class.map(|c| format!("{c:?}").to_lowercase()))
            .unwrap_or_default();
        let nums = s
            .actions
            .iter()
            .map(u8::to_string)
            .collect::<Vec<_>>()
            .join(", ");
        paras.push(vec![
            Span::new(
                format!("Strength vs {against} ({nums}): "),
                Weight::Bold,
                INK,
            ),
            Span::new(s.text.clone(), Weight::Regular, INK),
        ]);
    }
    if let Some(f) = &ch.final_act {
        paras.push(vec![
            Span::new("Final Act: ", Weight::Bold, REACTION),
            Span::new(f.text.clone(), Weight::Regular, INK),
        ]);
    }
    text::draw(
        c,
        &paras,
        r.inset_xy(0.8, 0.5),
        Style::new(1.9).min(0.8).middle(),
    );
}

/// One tile of the health meter, as printed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tile {
    pub value: u32,
    pub nullifiers: Vec<Nullifier>,
    pub reaction: Option<u32>,
}

/// The tiles from Start down to the Skull (value 0), one every 10.
pub fn meter_tiles(ch: &Character) -> Vec<Tile> {
    let start = ch.health.start - ch.health.start % 10;
    (0..=start / 10)
        .rev()
        .map(|k| {
            let value = k * 10;
            Tile {
                value,
                nullifiers: Nullifier::ALL
                    .into_iter()
                    .filter(|n| ch.health.has(*n, value))
                    .collect(),
                reaction: ch.health.reaction_at(value),
            }
        })
        .collect()
}

/// The health meter: a column of tiles from Start (top) down to the Skull (bottom).
fn health_meter(c: &mut dyn Canvas, r: R, ch: &Character, fc: Rgb) {
    let tiles = meter_tiles(ch);
    c.round_rect(r, 1.0, Some(Rgb::hex(0x2b2824)), None);
    let inner = r.inset(0.4);
    let rects = inner.rows(tiles.len(), 0.25);
    for (i, (tile, t)) in tiles.iter().zip(rects).enumerate() {
        let value = tile.value;
        let (fill, ink) = if i == 0 {
            (Rgb::hex(0xcfe3c4), INK)
        } else if value == 0 {
            (Rgb::hex(0x111111), WHITE)
        } else if i % 2 == 0 {
            (Rgb::hex(0xf3eddf), INK)
        } else {
            (Rgb::hex(0xe4dccb), INK)
        };
        c.round_rect(
            t,
            0.4,
            Some(fill),
            if i == 0 { Some((fc, 0.3)) } else { None },
        );
        if value == 0 {
            skull(c, t);
            continue;
        }
        let (vr, mr) = t.split_left(t.w * 0.42);
        text::label(
            c,
            &value.to_string(),
            Weight::Bold,
            ink,
            vr.inset_xy(0.2, 0.15),
            Style::new(t.h * 0.62).min(0.6).center().middle(),
        );
        tile_markers(c, mr.inset_xy(0.1, 0.15), tile);
    }
}

fn tile_markers(c: &mut dyn Canvas, r: R, tile: &Tile) {
    let nulls = tile.nullifiers.clone();
    let reaction = tile.reaction;
    let count = nulls.len() + usize::from(reaction.is_some()) * 2;
    if count == 0 {
        return;
    }
    let d = r.h.min(r.w / count as f32);
    let mut x = r.x;
    let cy = r.y + r.h / 2.0;
    for n in nulls {
        let (col, letter) = nullifier_icon(n);
        c.circle(x + d / 2.0, cy, d * 0.47, Some(col), None);
        text::label(
            c,
            letter,
            Weight::Bold,
            WHITE,
            R::new(x + d * 0.12, cy - d * 0.36, d * 0.76, d * 0.72),
            Style::new(d * 0.62).min(0.3).center().middle(),
        );
        x += d;
    }
    if let Some(dmg) = reaction {
        let tag = R::new(x, cy - d * 0.47, (r.right() - x).max(d), d * 0.94);
        c.round_rect(tag, d * 0.2, Some(REACTION), None);
        text::label(
            c,
            &format!("R{dmg}"),
            Weight::Bold,
            WHITE,
            tag.inset_xy(d * 0.08, d * 0.1),
            Style::new(d * 0.62).min(0.3).center().middle(),
        );
    }
}

/// A small skull drawn with shapes (no font glyph needed).
fn skull(c: &mut dyn Canvas, t: R) {
    let (cx, cy) = t.center();
    let s = t.h.min(t.w) * 0.42;
    let bone = Rgb::hex(0xeeeeee);
    c.circle(cx, cy - s * 0.15, s * 0.8, Some(bone), None);
    c.round_rect(
        R::new(cx - s * 0.45, cy + s * 0.3, s * 0.9, s * 0.55),
        s * 0.12,
        Some(bone),
        None,
    );
    c.circle(
        cx - s * 0.3,
        cy - s * 0.15,
        s * 0.22,
        Some(Rgb::hex(0x111111)),
        None,
    );
    c.circle(
        cx + s * 0.3,
        cy - s * 0.15,
        s * 0.22,
        Some(Rgb::hex(0x111111)),
        None,
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_meter_runs_from_start_to_the_skull_with_its_icons() {
        let text = include_str!("../../../cards/iconica/ico-anwen-halloway.toml");
        let crate::cards::Card::Iconica(ch) = crate::cards::parse_card(text, "anwen").unwrap()
        else {
            panic!()
        };
        let tiles = meter_tiles(&ch);
        assert_eq!(tiles.len(), (ch.health.start / 10 + 1) as usize);
        assert_eq!(tiles.first().unwrap().value, ch.health.start);
        assert_eq!(tiles.last().unwrap().value, 0);
        for t in &tiles {
            for n in Nullifier::ALL {
                assert_eq!(
                    t.nullifiers.contains(&n),
                    ch.health.tiles(n).contains(&t.value),
                    "{t:?}"
                );
            }
            assert_eq!(t.reaction, ch.health.reaction_at(t.value));
        }
        let marked: usize = tiles.iter().map(|t| t.nullifiers.len()).sum();
        let listed: usize = Nullifier::ALL
            .iter()
            .map(|n| ch.health.tiles(*n).len())
            .sum();
        assert_eq!(marked, listed);
        assert!(tiles.iter().any(|t| t.reaction.is_some()));
    }

    #[test]
    fn roll_labels() {
        assert_eq!(roll_label(&Roll::One(3)), "3");
        assert_eq!(roll_label(&Roll::Many(vec![2, 1])), "1-2");
        assert_eq!(roll_label(&Roll::Many(vec![1, 3])), "1,3");
    }
}
