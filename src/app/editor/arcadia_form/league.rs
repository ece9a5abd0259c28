//! The league form: its terrain, its four sides drawn around the league as a square (each
//! side's features as chips to remove, a field to add one), the enter and leave trials, the
//! rest types, Unique, the special rule and what it does in play (its effects).

use super::{Edits, features_ui, grid, league_trial_ui};
use crate::app::editor::card_form::optional_text;
use crate::games::arcadia::model::{League, REST_TYPES, Side};

/// The width of a side's box in the square at most (the square narrows to fit the form's
/// column, never wider: a width taken from what the boxes need would widen the panel it is
/// drawn in, frame after frame).
const SIDE_WIDTH: f32 = 200.0;

/// The least width of a side's box: a chip and the field to add a feature.
const SIDE_MIN_WIDTH: f32 = 110.0;

/// What three side boxes take beside their widths: each group frame's margins and strokes,
/// the grid's spacing.
const SQUARE_EXTRA: f32 = 3.0 * 14.0 + 2.0 * 6.0;

pub(super) fn league_ui(ui: &mut egui::Ui, l: &mut League, e: &mut Edits) {
    grid(ui, "arcadia-form-league", |ui| {
        let lab = ui.label("Terrain");
        ui.vertical(|ui| {
            features_ui(ui, &mut l.terrain, "terrain", lab.id, e);
            ui.weak("The features waylays match.");
        });
        ui.end_row();
    });
    ui.add_space(6.0);
    ui.strong("Sides");
    ui.weak("Facing sides of neighbouring leagues must fit (ocean, border, city-wall, or a shared feature).");
    sides_ui(ui, l, e);
    ui.add_space(6.0);
    grid(ui, "arcadia-form-league-more", |ui| {
        league_trial_ui(ui, "Enter trial", &mut l.enter, e);
        league_trial_ui(ui, "Leave trial", &mut l.leave, e);
        ui.label("Rest");
        ui.horizontal_wrapped(|ui| {
            for r in REST_TYPES {
                let mut on = l.rest.iter().any(|x| x == r);
                if ui
                    .checkbox(&mut on, r)
                    .on_hover_text(format!("Resting here recovers a {r}"))
                    .changed()
                {
                    l.set_rest(r, on);
                    e.pick(format!("rest {r}"));
                }
            }
        });
        ui.end_row();
        let lab = ui.label("Unique");
        if ui
            .checkbox(&mut l.unique, "at most once in play")
            .labelled_by(lab.id)
            .changed()
        {
            e.pick(if l.unique { "unique" } else { "not unique" });
        }
        ui.end_row();
        let lab = ui.label("Special");
        if optional_text(ui, &mut l.special, 2, lab.id) {
            e.type_in("Special");
        }
        ui.end_row();
    });
    ui.add_space(6.0);
    super::card_text::league_effects_ui(ui, &mut l.effects, e);
}

/// The four sides around the league: north above, west and east beside, south below.
fn sides_ui(ui: &mut egui::Ui, l: &mut League, e: &mut Edits) {
    let w = ((ui.available_width() - SQUARE_EXTRA) / 3.0).clamp(SIDE_MIN_WIDTH, SIDE_WIDTH);
    egui::Grid::new("arcadia-form-sides")
        .num_columns(3)
        .spacing([6.0, 6.0])
        .show(ui, |ui| {
            ui.label("");
            side_ui(ui, l, Side::North, w, e);
            ui.label("");
            ui.end_row();
            side_ui(ui, l, Side::West, w, e);
            centre_ui(ui, l, w);
            side_ui(ui, l, Side::East, w, e);
            ui.end_row();
            ui.label("");
            side_ui(ui, l, Side::South, w, e);
            ui.label("");
            ui.end_row();
        });
}

fn side_ui(ui: &mut egui::Ui, l: &mut League, side: Side, width: f32, e: &mut Edits) {
    egui::Frame::group(ui.style()).show(ui, |ui| {
        ui.set_width(width);
        ui.vertical(|ui| {
            let name = side.name();
            let title = format!("{}{}", name[..1].to_uppercase(), &name[1..]);
            let lab = ui.strong(title);
            features_ui(ui, l.sides.get_mut(side), name, lab.id, e);
        });
    });
}

/// The league itself, between its sides.
fn centre_ui(ui: &mut egui::Ui, l: &League, width: f32) {
    let stroke = ui.visuals().widgets.active.bg_stroke;
    egui::Frame::new()
        .stroke(stroke)
        .fill(ui.visuals().faint_bg_color)
        .corner_radius(4.0)
        .inner_margin(8.0)
        .show(ui, |ui| {
            // The group frame's margin is 6, this one 8.
            ui.set_width(width - 4.0);
            ui.set_min_height(56.0);
            ui.vertical_centered(|ui| {
                ui.strong(&l.name);
                ui.weak(if l.terrain.is_empty() {
                    "no terrain".to_string()
                } else {
                    l.terrain.join(", ")
                });
                if l.unique {
                    ui.weak("Unique");
                }
            });
        });
}
