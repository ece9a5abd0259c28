//! The health meter in the card form: Start, one tile per 10 down to the Skull as the card
//! shows them (tinted like their printed icons), and a menu per tile for its nullifiers and
//! its reaction.

use super::Form;
use crate::games::iconica::model::{Health, Nullifier};
use crate::print::canvas::Rgb;
use crate::print::face::{REACTION, nullifier_icon};

/// A tile's caption: its value, then what it carries.
fn tile_caption(f: &Form, tile: u32) -> String {
    let h = &f.card.health;
    if tile == h.start {
        return format!("{tile}\nStart");
    }
    if tile == 0 {
        return "0\nSkull".into();
    }
    let mut marks: Vec<String> = h
        .nullifiers_at(tile)
        .iter()
        .map(|n| n.key().to_string())
        .collect();
    if let Some(d) = h.reaction_at(tile) {
        marks.push(format!("reaction {d}"));
    }
    if marks.is_empty() {
        tile.to_string()
    } else {
        format!("{tile}\n{}", marks.join("\n"))
    }
}

pub(super) fn meter_ui(ui: &mut egui::Ui, f: &mut Form) {
    ui.horizontal(|ui| {
        ui.label("Start");
        if ui
            .button("-10")
            .on_hover_text("Lower Start by 10")
            .clicked()
        {
            f.card.health.start = f.card.health.start.saturating_sub(10);
            f.changed(format!("start {}", f.card.health.start));
        }
        ui.monospace(f.card.health.start.to_string());
        if ui
            .button("+10")
            .on_hover_text("Raise Start by 10")
            .clicked()
        {
            f.card.health.start += 10;
            f.changed(format!("start {}", f.card.health.start));
        }
    });
    let meter = f.card.health.meter();
    if meter.is_empty() {
        ui.colored_label(
            ui.visuals().warn_fg_color,
            "No meter: Start must be a positive multiple of 10.",
        );
    }
    ui.weak("Click a tile to set its nullifiers or its reaction.");
    ui.horizontal_wrapped(|ui| {
        for tile in meter {
            let caption = tile_caption(f, tile);
            if !f.card.health.is_marked_tile(tile) {
                ui.add_enabled(false, egui::Button::new(caption).min_size(tile_size()));
                continue;
            }
            let mut button = egui::Button::new(caption).min_size(tile_size());
            if let Some(fill) = tile_fill(&f.card.health, tile) {
                button = button.fill(fill);
            }
            // The menu stays open for several marks on one tile; a click outside closes it.
            let config = egui::containers::menu::MenuConfig::new()
                .close_behavior(egui::PopupCloseBehavior::CloseOnClickOutside);
            egui::containers::menu::MenuButton::from_button(button)
                .config(config)
                .ui(ui, |ui| tile_menu_ui(ui, f, tile));
        }
    });
    let stray = f.card.health.stray_tiles();
    if !stray.is_empty() {
        ui.horizontal_wrapped(|ui| {
            ui.colored_label(ui.visuals().warn_fg_color, "Tiles off the meter:");
            for t in stray {
                if ui
                    .button(format!("remove {t}"))
                    .on_hover_text("Take this tile's nullifiers and reaction off the card")
                    .clicked()
                {
                    f.card.health.clear_tile(t);
                    f.changed(format!("remove tile {t}"));
                }
            }
        });
    }
}

/// A marked tile is tinted like its first icon on the printed card.
fn tile_fill(h: &Health, tile: u32) -> Option<egui::Color32> {
    let Rgb(r, g, b, _) = match h.nullifiers_at(tile).first() {
        Some(&n) => nullifier_icon(n).0,
        None => h.reaction_at(tile).map(|_| REACTION)?,
    };
    Some(egui::Color32::from_rgba_unmultiplied(r, g, b, 110))
}

fn tile_size() -> egui::Vec2 {
    egui::vec2(64.0, 52.0)
}

fn tile_menu_ui(ui: &mut egui::Ui, f: &mut Form, tile: u32) {
    ui.strong(format!("Tile {tile}"));
    for n in Nullifier::ALL {
        let mut on = f.card.health.has(n, tile);
        let hint = match n.prevents() {
            Some(s) => format!("Prevents {} while the marker rests here", s.name()),
            None => "Moves the marker back up one tile when a hit lands here".into(),
        };
        if ui.checkbox(&mut on, n.key()).on_hover_text(hint).changed() {
            f.card.health.set_nullifier(n, tile, on);
            let verb = if on { "set" } else { "clear" };
            f.changed(format!("{verb} {} on tile {tile}", n.key()));
        }
    }
    ui.separator();
    let reaction = f.card.health.reaction_at(tile);
    let mut on = reaction.is_some();
    ui.horizontal(|ui| {
        if ui
            .checkbox(&mut on, "reaction")
            .on_hover_text("Damage dealt back to the attacker whose hit leaves the marker here")
            .changed()
        {
            f.card.health.set_reaction(tile, on.then_some(10));
            f.changed(format!("reaction on tile {tile}"));
        }
        if let Some(d) = reaction {
            if ui.small_button("-10").clicked() && d > 10 {
                f.card.health.set_reaction(tile, Some(d - 10));
                f.changed(format!("reaction {} on tile {tile}", d - 10));
            }
            ui.monospace(d.to_string());
            if ui.small_button("+10").clicked() {
                f.card.health.set_reaction(tile, Some(d + 10));
                f.changed(format!("reaction {} on tile {tile}", d + 10));
            }
        }
    });
    ui.separator();
    if ui.button("Clear tile").clicked() {
        f.card.health.clear_tile(tile);
        f.changed(format!("clear tile {tile}"));
        ui.close();
    }
}
