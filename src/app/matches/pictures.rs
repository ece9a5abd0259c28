//! The pictures of Iconica characters' cards (the print renderer's), made into textures once
//! a card and kept: the board and the draft draw them every frame from this cache.

use std::collections::HashMap;

use crate::app::core;
use crate::catalogue::Catalogue;

/// Card pictures by card id; a card that cannot be read or drawn is remembered as `None`
/// (drawn as its name) rather than tried again every frame.
#[derive(Default)]
pub struct Pictures {
    map: HashMap<String, Option<egui::TextureHandle>>,
}

/// The pixel width the card pictures are rendered at (drawn scaled).
const PICTURE_W: u32 = 240;

/// A card's height for its width (63 x 88 mm).
pub fn card_height(w: f32) -> f32 {
    w * 88.0 / 63.0
}

impl Pictures {
    /// The texture of card `id`, made on its first use.
    pub fn get(
        &mut self,
        ctx: &egui::Context,
        cat: &Catalogue,
        id: &str,
    ) -> Option<egui::TextureId> {
        self.map
            .entry(id.to_string())
            .or_insert_with(|| {
                let card = cat.get(id).ok().flatten()?;
                let h = PICTURE_W * 88 / 63;
                let img = core::render_card(cat, &card, PICTURE_W, h);
                Some(ctx.load_texture(format!("card-{id}"), img, egui::TextureOptions::LINEAR))
            })
            .as_ref()
            .map(|t| t.id())
    }

    /// How many textures were made (a test checks they are made once a card).
    pub fn made(&self) -> usize {
        self.map.len()
    }

    /// Paints card `id` in `rect` (greyed unless `lit`), or its name on a plain card when it
    /// has no picture.
    pub fn paint(
        &mut self,
        ui: &egui::Ui,
        cat: &Catalogue,
        id: &str,
        name: &str,
        rect: egui::Rect,
        lit: bool,
    ) {
        let painter = ui.painter_at(rect.expand(1.0));
        match self.get(ui.ctx(), cat, id) {
            Some(tex) => {
                let tint = if lit {
                    egui::Color32::WHITE
                } else {
                    egui::Color32::from_gray(90)
                };
                let uv = egui::Rect::from_min_max(egui::pos2(0.0, 0.0), egui::pos2(1.0, 1.0));
                painter.image(tex, rect, uv, tint);
            }
            None => {
                let v = ui.visuals();
                painter.rect_filled(rect, 6.0, v.extreme_bg_color);
                painter.text(
                    rect.center(),
                    egui::Align2::CENTER_CENTER,
                    name,
                    egui::FontId::proportional(13.0),
                    if lit {
                        v.text_color()
                    } else {
                        v.weak_text_color()
                    },
                );
            }
        }
    }
}
