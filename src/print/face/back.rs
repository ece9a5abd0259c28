//! The back of each game's cards: the game's colours, a border, a lattice and its name.

use crate::cards::Game;
use crate::print::canvas::{Canvas, R, Rgb};
use crate::print::fonts::Weight;
use crate::print::text::{self, Style};

fn colors(g: Game) -> (Rgb, Rgb) {
    match g {
        Game::Iconica => (Rgb::hex(0x1d2b4a), Rgb::hex(0xd9b44a)),
        Game::Arcadia => (Rgb::hex(0x2f4a3a), Rgb::hex(0xe8d9a8)),
        Game::Iconoclasm => (Rgb::hex(0x2a2a2a), Rgb::hex(0xd0d0d0)),
        Game::Ruunara => (Rgb::hex(0x3b2f2a), Rgb::hex(0xc98b4a)),
    }
}

pub fn draw(c: &mut dyn Canvas, g: Game) {
    let (bg, fg) = colors(g);
    c.fill_bleed(bg);
    let t = c.trim();
    let inner = t.inset(4.0);
    // A diagonal lattice, kept inside the inner border.
    let step = 6.0;
    let faint = fg.alpha(60);
    let mut k = -t.h;
    while k < t.w + t.h {
        let a = (inner.x + k, inner.y);
        let b = (inner.x + k + inner.h, inner.bottom());
        clip_line(c, inner, a, b, faint);
        let a2 = (inner.x + k, inner.bottom());
        let b2 = (inner.x + k + inner.h, inner.y);
        clip_line(c, inner, a2, b2, faint);
        k += step;
    }
    c.round_rect(inner, 2.0, None, Some((fg, 0.8)));
    c.round_rect(t.inset(2.0), 2.5, None, Some((fg, 0.3)));
    let (cx, cy) = t.center();
    c.circle(cx, cy, 15.0, Some(bg), Some((fg, 0.8)));
    let name = R::new(cx - 13.0, cy - 5.0, 26.0, 10.0);
    text::label(c, &g.title().to_uppercase(), Weight::Bold, fg, name, Style::new(5.0).min(1.5).center().middle());
}

/// Draws the part of segment a-b inside `r` (Liang-Barsky clipping).
fn clip_line(c: &mut dyn Canvas, r: R, a: (f32, f32), b: (f32, f32), color: Rgb) {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let (mut t0, mut t1) = (0.0f32, 1.0f32);
    for (p, q) in [(-dx, a.0 - r.x), (dx, r.right() - a.0), (-dy, a.1 - r.y), (dy, r.bottom() - a.1)] {
        if p == 0.0 {
            if q < 0.0 {
                return;
            }
        } else {
            let t = q / p;
            if p < 0.0 { t0 = t0.max(t) } else { t1 = t1.min(t) }
        }
    }
    if t0 < t1 {
        c.line((a.0 + t0 * dx, a.1 + t0 * dy), (a.0 + t1 * dx, a.1 + t1 * dy), color, 0.35);
    }
}
