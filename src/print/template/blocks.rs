//! Built-in blocks: drawings of a game's own elements that a template places and colours
//! but does not lay out itself. `iconica.health_meter`: the Iconica health meter, a column
//! of tiles from Start down to the Skull with nullifier icons and reaction values.

use crate::games::iconica::model::{Character, Nullifier};
use crate::print::canvas::{Canvas, R, Rgb};
use crate::print::face::{INK, REACTION, WHITE, nullifier_icon};
use crate::print::fonts::Weight;
use crate::print::text::{self, Style};

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
pub fn health_meter(c: &mut dyn Canvas, r: R, ch: &Character, fc: Rgb) {
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
            super::draw::skull(c, t);
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
}
