//! Arcadia cards: character icon, merit, flaw, waylay, league (with its four sides) and quest.

use super::{Assets, INK, MUTED, WHITE, cap, portrait, small_line, stat_box, title_bar};
use crate::cards::Card;
use crate::games::arcadia::model::{ArcadiaCard, Objective, Side as Edge};
use crate::print::canvas::{Canvas, R, Rgb};
use crate::print::fonts::Weight;
use crate::print::text::{self, Span, Style};

const BORDER: Rgb = Rgb::hex(0x2f4a3a);
const PARCHMENT: Rgb = Rgb::hex(0xf3ead2);
const GOLD: Rgb = Rgb::hex(0xc9a227);
const BOX: Rgb = Rgb::hex(0xe6dbbd);

fn accent(card: &ArcadiaCard) -> Rgb {
    match card {
        ArcadiaCard::Icon(_) => Rgb::hex(0x3b6e4f),
        ArcadiaCard::Merit(_) => Rgb::hex(0x2d5f8a),
        ArcadiaCard::Flaw(_) => Rgb::hex(0x8a2d3b),
        ArcadiaCard::Waylay(_) => Rgb::hex(0x5b3a7a),
        ArcadiaCard::League(_) => Rgb::hex(0x6b5a2a),
        ArcadiaCard::Quest(_) => Rgb::hex(0x9a5b1b),
    }
}

fn list(v: &[String]) -> String {
    v.join(", ")
}

fn lower<T: std::fmt::Debug>(v: T) -> String {
    format!("{v:?}").to_lowercase()
}

pub fn draw(c: &mut dyn Canvas, card: &ArcadiaCard, assets: &Assets) {
    let art = Card::Arcadia(card.clone());
    let art = art.art();
    let ac = accent(card);
    let panel = super::frame(c, BORDER, PARCHMENT);
    if let ArcadiaCard::League(l) = card {
        return league(c, panel, l, ac, assets);
    }
    let body = panel.inset(1.6);
    let (head, rest) = body.split_top(6.4);
    let corner = match card {
        ArcadiaCard::Merit(m) => Some(m.cost.to_string()),
        ArcadiaCard::Flaw(f) => Some(f.points.to_string()),
        ArcadiaCard::Waylay(w) => Some(w.rating.to_string()),
        _ => None,
    };
    let (_, name, text) = card.common();
    title_bar(
        c,
        head,
        name,
        ac,
        WHITE,
        if corner.is_some() { 5.0 } else { 0.0 },
    );
    if let Some(v) = corner {
        super::badge(
            c,
            head.right() - 3.0,
            head.y + head.h / 2.0,
            2.7,
            &v,
            GOLD,
            INK,
        );
    }
    let (sub, rest) = rest.split_top(4.0);
    let (rest, foot) = rest.split_bottom(2.6);
    small_line(
        c,
        &format!("Arcadia · {}", cap(card.kind())),
        foot.inset_xy(0.5, 0.2),
        Weight::Regular,
        MUTED,
    );
    let type_line = match card {
        ArcadiaCard::Icon(i) => format!("Character Icon · {} · {}", cap(&i.race), cap(&i.gender)),
        ArcadiaCard::Merit(m) => {
            let mut parts = vec![format!("Merit · {}", cap(&lower(m.merit_type)))];
            parts.extend(m.attribute.map(|a| cap(&lower(a))));
            parts.extend(m.court.map(|a| cap(&lower(a))));
            parts.extend(m.art.as_deref().map(cap));
            format!("{} · cost {}", parts.join(" · "), m.cost)
        }
        ArcadiaCard::Flaw(f) => {
            let mut s = format!("Flaw · {}", cap(&lower(f.flaw_type)));
            if let Some(ct) = f.court {
                s.push_str(&format!(" · {}", cap(&lower(ct))));
            }
            format!("{s} · {} points", f.points)
        }
        ArcadiaCard::Waylay(w) => format!("Waylay · rating {} · {}", w.rating, list(&w.terrain)),
        ArcadiaCard::Quest(_) => "Quest".to_string(),
        ArcadiaCard::League(_) => String::new(),
    };
    small_line(c, &type_line, sub.inset_xy(0.5, 0.7), Weight::Italic, MUTED);
    let rest = R::new(rest.x, rest.y + 0.3, rest.w, rest.h - 0.3);
    match card {
        ArcadiaCard::Icon(i) => {
            let (pic, rest) = rest.split_top(rest.h * 0.36);
            portrait(c, pic, art, assets, Rgb::hex(0xdcd3b8), Rgb::hex(0xa89d7e));
            let (stats, rest) = rest.split_top(9.0);
            let stats = R::new(stats.x, stats.y + 0.8, stats.w, stats.h - 0.8);
            let cols = stats.columns(3, 1.2);
            for (r, (l, v)) in cols.into_iter().zip([
                ("Might", i.might),
                ("Savvy", i.savvy),
                ("Resolve", i.resolve),
            ]) {
                stat_box(c, r, l, &v.to_string(), BOX, INK);
            }
            let paras = vec![
                vec![Span::new(i.ability.clone(), Weight::Bold, INK)],
                vec![Span::new(text, Weight::Italic, MUTED)],
            ];
            text_panel(
                c,
                R::new(rest.x, rest.y + 1.0, rest.w, rest.h - 1.0),
                &paras,
            );
        }
        ArcadiaCard::Merit(m) => {
            let mut paras = vec![vec![Span::new(text, Weight::Regular, INK)]];
            if let Some(cb) = m.combat {
                paras.push(vec![Span::new(format!("Combat {cb}"), Weight::Bold, INK)]);
            }
            let (pic, rest) = rest.split_top(rest.h * 0.34);
            portrait(c, pic, art, assets, Rgb::hex(0xdcd3b8), Rgb::hex(0xa89d7e));
            text_panel(
                c,
                R::new(rest.x, rest.y + 1.0, rest.w, rest.h - 1.0),
                &paras,
            );
        }
        ArcadiaCard::Flaw(_) => {
            let (pic, rest) = rest.split_top(rest.h * 0.34);
            portrait(c, pic, art, assets, Rgb::hex(0xe0c9c9), Rgb::hex(0xad8c8c));
            text_panel(
                c,
                R::new(rest.x, rest.y + 1.0, rest.w, rest.h - 1.0),
                &[vec![Span::new(text, Weight::Regular, INK)]],
            );
        }
        ArcadiaCard::Waylay(w) => {
            let rest = art_box(c, rest, art, assets);
            let (tests, rest) = rest.split_top(4.0);
            let names: Vec<String> = w.tests.iter().map(|t| cap(&lower(t))).collect();
            small_line(
                c,
                &format!("Tests: {}", names.join(", ")),
                tests.inset_xy(0.5, 0.5),
                Weight::Bold,
                INK,
            );
            let (stats, rest) = rest.split_top(9.0);
            let vals = [
                ("Might", w.might),
                ("Resolve", w.resolve),
                ("Savvy", w.savvy),
                ("Combat", w.combat),
            ];
            for (r, (l, v)) in stats.columns(4, 1.0).into_iter().zip(vals) {
                let shown = v.map_or("—".to_string(), |v| v.to_string());
                stat_box(c, r, l, &shown, BOX, INK);
            }
            let mut paras = Vec::new();
            if let Some(t) = &w.trial {
                let mut p = vec![Span::new(
                    format!("Trial: {} {}+", cap(&lower(t.attribute)), t.difficulty),
                    Weight::Bold,
                    INK,
                )];
                if let Some(f) = &t.failure {
                    p.push(Span::new(
                        format!(" — on failure: {f}"),
                        Weight::Regular,
                        INK,
                    ));
                }
                paras.push(p);
            }
            paras.push(vec![Span::new(text, Weight::Italic, MUTED)]);
            text_panel(
                c,
                R::new(rest.x, rest.y + 1.0, rest.w, rest.h - 1.0),
                &paras,
            );
        }
        ArcadiaCard::Quest(q) => {
            let rest = art_box(c, rest, art, assets);
            let (stats, rest) = rest.split_top(10.0);
            let vals = [
                ("Waylay", q.waylay_rating),
                ("Treasure", q.treasure_rating),
                ("XP", q.experience),
            ];
            for (r, (l, v)) in stats.columns(3, 1.2).into_iter().zip(vals) {
                stat_box(c, r, l, &v.to_string(), BOX, INK);
            }
            let paras = vec![
                vec![
                    Span::new("Objective: ", Weight::Bold, INK),
                    Span::new(
                        match q.time_limit {
                            Some(d) => format!(
                                "{} (within {})",
                                objective_text(&q.objective),
                                crate::count(u64::from(d), "Day", "Days")
                            ),
                            None => objective_text(&q.objective),
                        },
                        Weight::Regular,
                        INK,
                    ),
                ],
                vec![Span::new(text, Weight::Italic, MUTED)],
            ];
            text_panel(
                c,
                R::new(rest.x, rest.y + 1.0, rest.w, rest.h - 1.0),
                &paras,
            );
        }
        ArcadiaCard::League(_) => {}
    }
}

/// A waylay's or quest's picture, above its stats, only when the card has `art`.
fn art_box(c: &mut dyn Canvas, rest: R, art: Option<&str>, assets: &Assets) -> R {
    if art.is_none() {
        return rest;
    }
    let (pic, rest) = rest.split_top(rest.h * 0.3);
    portrait(
        c,
        R::new(pic.x, pic.y, pic.w, pic.h - 0.8),
        art,
        assets,
        Rgb::hex(0xdcd3b8),
        Rgb::hex(0xa89d7e),
    );
    rest
}

fn text_panel(c: &mut dyn Canvas, r: R, paras: &[Vec<Span>]) {
    c.round_rect(r, 1.0, Some(Rgb::hex(0xfbf6e8)), Some((BOX, 0.3)));
    text::draw(c, paras, r.inset(1.2), Style::new(2.3).min(0.8));
}

/// A quest objective in words.
pub fn objective_text(o: &Objective) -> String {
    match o {
        Objective::Reach(id) => format!("reach the league {id}"),
        Objective::ReachTerrain(t) => format!("reach a league with {t}"),
        Objective::CollectTreasures(n) => {
            format!("collect {n} treasure{}", if *n == 1 { "" } else { "s" })
        }
        Objective::DefeatWaylays(n) => {
            format!("defeat {n} waylay{}", if *n == 1 { "" } else { "s" })
        }
        Objective::ReturnToBase(true) => "return to base camp".to_string(),
        Objective::ReturnToBase(false) => "no need to return to base camp".to_string(),
        Objective::HoldTreasures(n) => {
            format!("holding {n} treasure{}", if *n == 1 { "" } else { "s" })
        }
        Objective::InTerrain(t) => format!("stand in a league with {t}"),
        Objective::All(v) => v
            .iter()
            .map(objective_text)
            .collect::<Vec<_>>()
            .join(", and "),
        Objective::Any(v) => format!(
            "either {}",
            v.iter()
                .map(objective_text)
                .collect::<Vec<_>>()
                .join(", or ")
        ),
        Objective::Then(v) => v
            .iter()
            .map(objective_text)
            .collect::<Vec<_>>()
            .join(", then "),
    }
}

/// A league: its four sides written along the four edges, its details in the middle.
fn league(
    c: &mut dyn Canvas,
    panel: R,
    l: &crate::games::arcadia::model::League,
    ac: Rgb,
    assets: &Assets,
) {
    let band = 4.2;
    let side_fill = Rgb::hex(0xe2d6b0);
    // North and south bands across, east and west bands down.
    let north = R::new(
        panel.x + band,
        panel.y + 0.6,
        panel.w - 2.0 * band,
        band - 0.8,
    );
    let south = R::new(
        panel.x + band,
        panel.bottom() - band + 0.2,
        panel.w - 2.0 * band,
        band - 0.8,
    );
    let west = R::new(
        panel.x + 0.6,
        panel.y + band,
        band - 0.8,
        panel.h - 2.0 * band,
    );
    let east = R::new(
        panel.right() - band + 0.2,
        panel.y + band,
        band - 0.8,
        panel.h - 2.0 * band,
    );
    for (r, e) in [(north, Edge::North), (south, Edge::South)] {
        c.round_rect(r, 0.8, Some(side_fill), None);
        text::label(
            c,
            &side_text(l, e),
            Weight::Bold,
            INK,
            r.inset_xy(0.6, 0.5),
            Style::new(2.2).min(0.7).center().middle(),
        );
    }
    for (r, e, deg) in [(west, Edge::West, -90.0), (east, Edge::East, 90.0)] {
        c.round_rect(r, 0.8, Some(side_fill), None);
        // The label is laid out on a horizontal strip, turned to run along the edge.
        let label = side_text(l, e);
        let sr = R::new(0.0, 0.0, r.h, r.w);
        c.rotated(r.center(), (r.h, r.w), deg, &mut |s| {
            text::label(
                s,
                &label,
                Weight::Bold,
                INK,
                sr.inset_xy(0.6, 0.5),
                Style::new(2.2).min(0.7).center().middle(),
            );
        });
    }
    let body = R::new(
        panel.x + band + 0.4,
        panel.y + band + 0.4,
        panel.w - 2.0 * band - 0.8,
        panel.h - 2.0 * band - 0.8,
    );
    let (head, rest) = body.split_top(6.0);
    title_bar(
        c,
        head,
        &l.name,
        ac,
        WHITE,
        if l.unique { 5.0 } else { 0.0 },
    );
    if l.unique {
        super::badge(
            c,
            head.right() - 2.8,
            head.y + head.h / 2.0,
            2.4,
            "U",
            GOLD,
            INK,
        );
    }
    let (sub, rest) = rest.split_top(3.6);
    small_line(
        c,
        &format!("League · {}", list(&l.terrain)),
        sub.inset_xy(0.3, 0.6),
        Weight::Italic,
        MUTED,
    );
    // A league with art shows it under its terrain line (one without keeps the whole box
    // for its text).
    let rest = match l.art.as_deref() {
        Some(art) => {
            let (pic, rest) = rest.split_top(rest.h * 0.42);
            portrait(
                c,
                pic.inset_xy(0.4, 0.3),
                Some(art),
                assets,
                Rgb::hex(0xdcd3b8),
                Rgb::hex(0xa89d7e),
            );
            rest
        }
        None => rest,
    };
    let mut paras = Vec::new();
    let trial = |t: &crate::games::arcadia::model::LeagueTrial| {
        format!("{} {}+", cap(&lower(t.attribute)), t.difficulty)
    };
    if let Some(t) = &l.enter {
        paras.push(vec![
            Span::new("Enter: ", Weight::Bold, INK),
            Span::new(trial(t), Weight::Regular, INK),
        ]);
    }
    if let Some(t) = &l.leave {
        paras.push(vec![
            Span::new("Leave: ", Weight::Bold, INK),
            Span::new(trial(t), Weight::Regular, INK),
        ]);
    }
    if !l.rest.is_empty() {
        paras.push(vec![
            Span::new("Rest: ", Weight::Bold, INK),
            Span::new(list(&l.rest), Weight::Regular, INK),
        ]);
    }
    if let Some(s) = &l.special {
        paras.push(vec![Span::new(s.clone(), Weight::Regular, INK)]);
    }
    paras.push(vec![Span::new(l.text.clone(), Weight::Italic, MUTED)]);
    text_panel(
        c,
        R::new(rest.x, rest.y + 0.6, rest.w, rest.h - 0.6),
        &paras,
    );
}

fn side_text(l: &crate::games::arcadia::model::League, e: Edge) -> String {
    let v = l.sides.get(e);
    if v.is_empty() {
        "—".to_string()
    } else {
        v.join(" · ")
    }
}
