//! Printing from the app: the selection (a card, or a builder's document) laid on the
//! sheet as the PDF export lays it, each card drawn by the print renderer, and the export.

use std::collections::HashMap;

use super::core::{self, PrintSettings};
use super::{Action, Env};
use crate::cards::Card;
use crate::catalogue::Catalogue;

/// The print screen.
#[derive(Default)]
pub struct PrintScreen {
    /// The cards to print, one copy per entry.
    pub ids: Vec<String>,
    pub preview_index: usize,
    pub settings: PrintSettings,
    page: usize,
    /// Small pictures for the sheet, by card id.
    thumbs: HashMap<String, egui::TextureHandle>,
    texture: Option<(String, egui::TextureHandle)>,
}

impl PrintScreen {
    pub fn ui(&mut self, ui: &mut egui::Ui, env: &mut Env) {
        ui.horizontal(|ui| {
            ui.heading("Print");
            let n = self.ids.len();
            ui.label(format!(
                "{n} card{} in the selection",
                if n == 1 { "" } else { "s" }
            ));
        });
        if self.ids.is_empty() {
            ui.weak("Nothing to print: select a card in the browser or open a builder, then press Ctrl+P.");
            return;
        }
        ui.horizontal(|ui| {
            let label = ui.label("Paper:");
            egui::ComboBox::from_id_salt("paper")
                .selected_text(self.settings.paper.clone())
                .show_ui(ui, |ui| {
                    for p in core::papers() {
                        ui.selectable_value(&mut self.settings.paper, p.to_string(), p);
                    }
                })
                .response
                .labelled_by(label.id);
            ui.checkbox(&mut self.settings.crop_marks, "Crop marks")
                .on_hover_text("Cutting guides at the card corners");
            ui.checkbox(&mut self.settings.backs, "Backs")
                .on_hover_text(
                    "A mirrored page of backs after each page of fronts, for duplex printing",
                );
            if ui
                .button("Export PDF…")
                .on_hover_text("Write the print-and-play PDF of the selection")
                .clicked()
                && let Some(path) = rfd::FileDialog::new()
                    .add_filter("PDF", &["pdf"])
                    .set_file_name("deckwright.pdf")
                    .save_file()
            {
                match core::export_pdf(env.cat, &self.ids, &path, &self.settings) {
                    Ok(m) => env.push(Action::Notify(m)),
                    Err(e) => env.push(Action::Error(e.chain())),
                }
            }
        });
        ui.separator();
        self.preview_index = self.preview_index.min(self.ids.len() - 1);
        egui::Panel::left("print-list")
            .resizable(true)
            .default_size(220.0)
            .show(ui, |ui| {
                egui::ScrollArea::vertical()
                    .id_salt("print-list-scroll")
                    .show(ui, |ui| {
                        for (i, id) in self.ids.iter().enumerate() {
                            let name = env.name_or_missing(id);
                            if ui
                                .selectable_label(
                                    i == self.preview_index,
                                    format!("{}. {name}", i + 1),
                                )
                                .clicked()
                            {
                                self.preview_index = i;
                            }
                        }
                    });
            });
        egui::Panel::right("print-card")
            .resizable(true)
            .default_size(300.0)
            .show(ui, |ui| {
                let id = self.ids[self.preview_index].clone();
                let w = ui
                    .available_width()
                    .min(ui.available_height() * 63.0 / 88.0);
                if let Some((_, t)) = self.texture.as_ref().filter(|(i, t)| {
                    *i == id && (t.size_vec2().x - w * ui.ctx().pixels_per_point()).abs() < 2.0
                }) {
                    ui.add(
                        egui::Image::new((t.id(), egui::vec2(w, w * 88.0 / 63.0)))
                            .corner_radius(6.0),
                    );
                    return;
                }
                match core::card(env.cat, &id) {
                    Some(card) => {
                        let mut tex = None;
                        card_image_ui(ui, env.cat, &card, &mut tex, w);
                        self.texture = tex.map(|t| (id, t));
                    }
                    None => {
                        ui.colored_label(
                            ui.visuals().error_fg_color,
                            format!("{id} is not in the catalogue."),
                        );
                    }
                }
            });
        egui::CentralPanel::default().show(ui, |ui| self.sheet_ui(ui, env));
    }

    /// The sheet as the export lays it out: page `self.page` with its cards.
    fn sheet_ui(&mut self, ui: &mut egui::Ui, env: &Env) {
        let sheet = match core::sheet(&self.settings) {
            Ok(s) => s,
            Err(e) => {
                ui.colored_label(ui.visuals().error_fg_color, e.chain());
                return;
            }
        };
        let per_page = sheet.places.len().max(1);
        let pages = self.ids.len().div_ceil(per_page);
        self.page = self.page.min(pages.saturating_sub(1));
        ui.horizontal(|ui| {
            if ui
                .add_enabled(self.page > 0, egui::Button::new("<"))
                .on_hover_text("Previous sheet")
                .clicked()
            {
                self.page -= 1;
            }
            ui.label(format!(
                "Sheet {} of {pages} ({per_page} cards a sheet)",
                self.page + 1
            ));
            if ui
                .add_enabled(self.page + 1 < pages, egui::Button::new(">"))
                .on_hover_text("Next sheet")
                .clicked()
            {
                self.page += 1;
            }
        });
        let avail = ui.available_size();
        let scale = (avail.x / sheet.width).min(avail.y / sheet.height).max(0.1);
        let (rect, _) = ui.allocate_exact_size(
            egui::vec2(sheet.width, sheet.height) * scale,
            egui::Sense::hover(),
        );
        let painter = ui.painter_at(rect);
        painter.rect_filled(rect, 0.0, egui::Color32::WHITE);
        painter.rect_stroke(
            rect,
            0.0,
            egui::Stroke::new(1.0, egui::Color32::GRAY),
            egui::StrokeKind::Outside,
        );
        let ppp = ui.ctx().pixels_per_point();
        for (k, place) in sheet.places.iter().enumerate() {
            let Some(id) = self.ids.get(self.page * per_page + k) else {
                break;
            };
            let r = egui::Rect::from_min_size(
                rect.min + egui::vec2(place[0], place[1]) * scale,
                egui::vec2(place[2], place[3]) * scale,
            );
            if !self.thumbs.contains_key(id)
                && let Some(card) = core::card(env.cat, id)
            {
                let img = core::render_card(
                    env.cat,
                    &card,
                    (r.width() * ppp).round().max(16.0) as u32,
                    (r.height() * ppp).round().max(16.0) as u32,
                );
                let t =
                    ui.ctx()
                        .load_texture(format!("thumb-{id}"), img, egui::TextureOptions::LINEAR);
                self.thumbs.insert(id.clone(), t);
            }
            match self.thumbs.get(id) {
                Some(t) => {
                    painter.image(
                        t.id(),
                        r,
                        egui::Rect::from_min_max(egui::pos2(0.0, 0.0), egui::pos2(1.0, 1.0)),
                        egui::Color32::WHITE,
                    );
                }
                None => {
                    painter.rect_stroke(
                        r,
                        0.0,
                        egui::Stroke::new(1.0, egui::Color32::RED),
                        egui::StrokeKind::Inside,
                    );
                }
            }
            if self.settings.crop_marks {
                let mark = 4.0 * scale;
                let c = egui::Stroke::new(1.0, egui::Color32::BLACK);
                for corner in [
                    r.left_top(),
                    r.right_top(),
                    r.left_bottom(),
                    r.right_bottom(),
                ] {
                    let dx = if corner.x == r.left() { -mark } else { mark };
                    let dy = if corner.y == r.top() { -mark } else { mark };
                    painter.line_segment(
                        [
                            corner + egui::vec2(dx * 0.25, 0.0),
                            corner + egui::vec2(dx, 0.0),
                        ],
                        c,
                    );
                    painter.line_segment(
                        [
                            corner + egui::vec2(0.0, dy * 0.25),
                            corner + egui::vec2(0.0, dy),
                        ],
                        c,
                    );
                }
            }
        }
    }
}

/// The card as the print renderer draws it, `width` points wide (63 x 88 mm proportions).
/// The texture is kept in `texture` between frames.
pub fn card_image_ui(
    ui: &mut egui::Ui,
    cat: &Catalogue,
    card: &Card,
    texture: &mut Option<egui::TextureHandle>,
    width: f32,
) -> Option<egui::Response> {
    let size = egui::vec2(width, width * 88.0 / 63.0);
    if texture.is_none() {
        let ppp = ui.ctx().pixels_per_point();
        let img = core::render_card(
            cat,
            card,
            (size.x * ppp).round() as u32,
            (size.y * ppp).round() as u32,
        );
        *texture = Some(ui.ctx().load_texture(
            format!("card-{}", card.id()),
            img,
            egui::TextureOptions::LINEAR,
        ));
    }
    texture
        .as_ref()
        .map(|t| ui.add(egui::Image::new((t.id(), size)).corner_radius(6.0)))
}
