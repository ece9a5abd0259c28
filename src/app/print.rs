//! Printing from the app: the selection (a card, or a builder's document) previewed as the
//! print renderer draws it, and exported to a print-and-play PDF.

use super::core;
use super::{Action, Env};
use crate::cards::Card;
use crate::catalogue::Catalogue;

/// The print screen.
#[derive(Default)]
pub struct PrintScreen {
    /// The cards to print, one copy per entry.
    pub ids: Vec<String>,
    pub preview_index: usize,
    pub crop_marks: bool,
    texture: Option<(String, egui::TextureHandle)>,
}

impl PrintScreen {
    pub fn ui(&mut self, ui: &mut egui::Ui, env: &mut Env) {
        ui.horizontal(|ui| {
            ui.heading("Print");
            ui.label(format!("{} cards in the selection", self.ids.len()));
        });
        if self.ids.is_empty() {
            ui.weak("Nothing to print: select a card in the browser or open a builder, then press Ctrl+P.");
            return;
        }
        ui.horizontal(|ui| {
            ui.checkbox(&mut self.crop_marks, "Crop marks").on_hover_text("Draw cutting guides at the card corners");
            if ui.button("Export PDF…").on_hover_text("Write a print-and-play PDF of the selection").clicked() {
                if let Some(path) = rfd::FileDialog::new().add_filter("PDF", &["pdf"]).set_file_name("deckwright.pdf").save_file() {
                    match core::export_pdf(env.cat, &self.ids, &path, self.crop_marks) {
                        Ok(m) => env.push(Action::Notify(m)),
                        Err(e) => env.push(Action::Error(e)),
                    }
                }
            }
        });
        ui.separator();
        self.preview_index = self.preview_index.min(self.ids.len() - 1);
        egui::Panel::left("print-list").resizable(true).default_size(220.0).show(ui, |ui| {
            egui::ScrollArea::vertical().id_salt("print-list-scroll").show(ui, |ui| {
                for (i, id) in self.ids.iter().enumerate() {
                    let name = core::card(env.cat, id).map(|c| c.name().to_string()).unwrap_or_else(|| format!("{id} (not in the catalogue)"));
                    if ui.selectable_label(i == self.preview_index, format!("{}. {name}", i + 1)).clicked() {
                        self.preview_index = i;
                    }
                }
            });
        });
        egui::CentralPanel::default().show(ui, |ui| {
            let id = self.ids[self.preview_index].clone();
            match core::card(env.cat, &id) {
                Some(card) => {
                    let mut tex = self.texture.take().filter(|(i, _)| *i == id).map(|(_, t)| t);
                    let h = ui.available_height().min(640.0);
                    card_image_ui(ui, env.cat, &card, &mut tex, h * 63.0 / 88.0);
                    self.texture = tex.map(|t| (id, t));
                }
                None => {
                    ui.colored_label(ui.visuals().error_fg_color, format!("{id} is not in the catalogue."));
                }
            }
        });
    }
}

/// The card as the print renderer draws it, `width` points wide (63 x 88 mm proportions).
/// The texture is kept in `texture` between frames.
pub fn card_image_ui(ui: &mut egui::Ui, cat: &Catalogue, card: &Card, texture: &mut Option<egui::TextureHandle>, width: f32) {
    let size = egui::vec2(width, width * 88.0 / 63.0);
    if texture.is_none() {
        let ppp = ui.ctx().pixels_per_point();
        let img = core::render_card(cat, card, (size.x * ppp).round() as u32, (size.y * ppp).round() as u32);
        *texture = Some(ui.ctx().load_texture(format!("card-{}", card.id()), img, egui::TextureOptions::LINEAR));
    }
    match texture {
        Some(t) => {
            ui.add(egui::Image::new((t.id(), size)).corner_radius(6.0));
        }
        None => {
            let (rect, _) = ui.allocate_exact_size(size, egui::Sense::hover());
            let p = ui.painter();
            p.rect_filled(rect, 8.0, ui.visuals().extreme_bg_color);
            p.rect_stroke(rect, 8.0, ui.visuals().widgets.noninteractive.bg_stroke, egui::StrokeKind::Inside);
            p.text(rect.center_top() + egui::vec2(0.0, 24.0), egui::Align2::CENTER_CENTER, card.name(), egui::FontId::proportional(18.0), ui.visuals().text_color());
            p.text(rect.center(), egui::Align2::CENTER_CENTER, format!("{} {}", card.game().title(), card.kind()), egui::FontId::proportional(13.0), ui.visuals().weak_text_color());
        }
    }
}
