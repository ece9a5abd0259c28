//! Iconoclasm element faces: the element's colour, its alchemical symbol and its name,
//! written at the top and upside down at the bottom so it reads from both sides of the table.

use super::WHITE;
use crate::games::iconoclasm::model::{Element, ElementCard};
use crate::print::canvas::{Canvas, R, Rgb};
use crate::print::fonts::Weight;
use crate::print::text::{self, Style};

/// The background and symbol colours of an element.
pub fn colors(e: Element) -> (Rgb, Rgb) {
    match e {
        Element::Fire => (Rgb::hex(0xc0392b), Rgb::hex(0xffd27a)),
        Element::Water => (Rgb::hex(0x1f5f9e), Rgb::hex(0xbfe3ff)),
        Element::Earth => (Rgb::hex(0x4e6b2f), Rgb::hex(0xe3d29b)),
        Element::Air => (Rgb::hex(0x8fa9b8), Rgb::hex(0xffffff)),
    }
}

pub fn draw(c: &mut dyn Canvas, card: &ElementCard, face: Element, assets: &super::Assets) {
    let (bg, fg) = colors(face);
    c.fill_bleed(bg);
    let t = c.trim();
    c.round_rect(t.inset(2.5), 2.5, None, Some((fg, 0.6)));
    let name = face.name().to_uppercase();
    let top = R::new(t.x + 5.0, t.y + 4.5, t.w - 10.0, 7.0);
    text::label(
        c,
        &name,
        Weight::Bold,
        fg,
        top,
        Style::new(6.0).center().middle(),
    );
    // The same name upside down at the bottom.
    let strip = R::new(0.0, 0.0, top.w, top.h);
    c.rotated(
        (t.w / 2.0, t.bottom() - 4.5 - top.h / 2.0),
        (top.w, top.h),
        180.0,
        &mut |s| {
            text::label(
                s,
                &name,
                Weight::Bold,
                fg,
                strip,
                Style::new(6.0).center().middle(),
            );
        },
    );
    let (cx, cy) = t.center();
    match card.art.as_deref() {
        // The card's picture in place of the sign, framed in the element's colour.
        Some(art) => {
            let s = t.w * 0.62;
            super::portrait(
                c,
                R::new(cx - s / 2.0, cy - s / 2.0, s, s),
                Some(art),
                assets,
                bg,
                fg,
            );
        }
        None => symbol(c, face, cx, cy, t.w * 0.3, fg),
    }
    let (set_bg, _) = colors(card.set);
    c.circle(
        t.x + 6.0,
        t.bottom() - 6.0,
        1.6,
        Some(set_bg),
        Some((WHITE, 0.3)),
    );
}

/// The alchemical sign: fire and air point up, water and earth down; air and earth are crossed.
fn symbol(c: &mut dyn Canvas, e: Element, cx: f32, cy: f32, s: f32, fg: Rgb) {
    let up = matches!(e, Element::Fire | Element::Air);
    let h = s * 1.6;
    let (apex, base) = if up {
        (cy - h / 2.0, cy + h / 2.0)
    } else {
        (cy + h / 2.0, cy - h / 2.0)
    };
    let w = s * 1.85;
    let pts = [(cx, apex), (cx + w / 2.0, base), (cx - w / 2.0, base)];
    c.polygon(&pts, None, Some((fg, s * 0.16)));
    if matches!(e, Element::Air | Element::Earth) {
        let y = cy + if up { h * 0.12 } else { -h * 0.12 };
        c.line((cx - w * 0.42, y), (cx + w * 0.42, y), fg, s * 0.14);
    }
}
