//! Ruunara heroes and units: name, race and allegiance, the stat block (hit points,
//! movement and vision in inches and centimetres, close and ranged dice) and the skills.

use super::{Assets, INK, MUTED, WHITE, cap, portrait, small_line, stat_box, title_bar};
use crate::games::ruunara::model::{Allegiance, Figure, FigureKind, inches_to_cm};
use crate::print::canvas::{Canvas, R, Rgb};
use crate::print::fonts::Weight;
use crate::print::text::{self, Span, Style};

const FRAME: Rgb = Rgb::hex(0x3b2f2a);
const PANEL: Rgb = Rgb::hex(0xeee6da);
const BOX: Rgb = Rgb::hex(0xd9cdbb);

fn allegiance_color(a: Allegiance) -> Rgb {
    match a {
        Allegiance::Ally => Rgb::hex(0x2f6b5e),
        Allegiance::Enemy => Rgb::hex(0x8c2f2f),
        Allegiance::Neutral => Rgb::hex(0x5f5f5f),
    }
}

fn length(inches: u32) -> String {
    let cm = inches_to_cm(inches);
    if cm.fract() == 0.0 {
        format!("{inches}\" / {cm:.0} cm")
    } else {
        format!("{inches}\" / {cm:.1} cm")
    }
}

pub fn draw(c: &mut dyn Canvas, f: &Figure, assets: &Assets) {
    let ac = allegiance_color(f.faction);
    let panel = super::frame(c, FRAME, PANEL);
    let body = panel.inset(1.6);
    let (head, rest) = body.split_top(6.4);
    title_bar(c, head, &f.name, ac, WHITE, 5.0);
    super::badge(
        c,
        head.right() - 3.0,
        head.y + head.h / 2.0,
        2.7,
        &f.hp.to_string(),
        Rgb::hex(0xb3261e),
        WHITE,
    );
    let (sub, rest) = rest.split_top(4.0);
    let kind = match f.kind {
        FigureKind::Hero => "Hero",
        FigureKind::Unit => "Unit",
    };
    let line = format!(
        "{kind} · {} · {}",
        cap(&f.race),
        cap(&format!("{:?}", f.faction).to_lowercase())
    );
    small_line(c, &line, sub.inset_xy(0.5, 0.7), Weight::Italic, MUTED);
    let (rest, foot) = rest.split_bottom(2.6);
    small_line(
        c,
        "Ruunara · The Darkest Path",
        foot.inset_xy(0.5, 0.2),
        Weight::Regular,
        MUTED,
    );

    let (pic, rest) = rest.split_top(rest.h * 0.24);
    portrait(
        c,
        pic,
        f.art.as_deref(),
        assets,
        Rgb::hex(0xcfc4b2),
        Rgb::hex(0x9c8f7a),
    );
    let (stats, rest) = rest.split_top(17.0);
    let stats = R::new(stats.x, stats.y + 0.8, stats.w, stats.h - 0.8);
    let rows = stats.rows(2, 0.8);
    let top = rows[0].columns(3, 0.8);
    stat_box(c, top[0], "Hit points", &f.hp.to_string(), BOX, INK);
    stat_box(c, top[1], "Move", &length(f.movement), BOX, INK);
    stat_box(c, top[2], "Vision", &length(f.vision), BOX, INK);
    let bottom = rows[1].columns(3, 0.8);
    stat_box(c, bottom[0], "Close", &f.close.to_string(), BOX, INK);
    let ranged = f.ranged.map_or("—".to_string(), |d| d.to_string());
    stat_box(c, bottom[1], "Ranged", &ranged, BOX, INK);
    let range = f.ranged_range.map_or("—".to_string(), length);
    stat_box(c, bottom[2], "Range", &range, BOX, INK);

    let skills = R::new(rest.x, rest.y + 1.0, rest.w, rest.h - 1.0);
    let n = f.skills.len().max(1);
    for (s, r) in f.skills.iter().zip(skills.rows(n, 0.8)) {
        c.round_rect(r, 1.0, Some(Rgb::hex(0xfaf6ef)), Some((BOX, 0.3)));
        let mut head = format!("{} ", s.name);
        let mut tags = vec![if s.cycle == "constant" {
            "constant".to_string()
        } else {
            s.cycle.clone()
        }];
        if let Some(t) = &s.trigger {
            tags.push(format!("on {t}"));
        }
        head.push_str(&format!("[{}] ", tags.join(", ")));
        let mut spans = vec![Span::new(head, Weight::Bold, INK)];
        if let Some(t) = &s.text {
            spans.push(Span::new(t.clone(), Weight::Regular, INK));
        }
        text::draw(c, &[spans], r.inset(1.0), Style::new(2.2).min(0.8));
    }
}
