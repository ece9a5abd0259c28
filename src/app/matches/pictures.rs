//! The pictures of Iconica characters' cards (the print renderer's, so drawn with the face
//! template in use, the Template screen's saved one included), made into textures once a
//! card and kept: the board and the draft draw them every frame from this cache, which is
//! emptied when the templates in use change.

use std::collections::HashMap;

use crate::app::core;
use crate::catalogue::Catalogue;
use crate::print::template;

/// Card pictures by card id; a card that cannot be read or drawn is remembered as `None`
/// (drawn as its name) rather than tried again every frame.
#[derive(Default)]
pub struct Pictures {
    map: HashMap<String, Option<egui::TextureHandle>>,
    /// The templates in use the pictures were drawn with ([`template::generation`]).
    generation: u64,
}

/// The pixel width the card pictures are rendered at (drawn scaled).
const PICTURE_W: u32 = 240;

/// A card's height for its width (63 x 88 mm).
pub fn card_height(w: f32) -> f32 {
    w * 88.0 / 63.0
}

/// The picture of card `id` as a board shows it (`None`: no such card).
pub fn picture(cat: &Catalogue, id: &str) -> Option<egui::ColorImage> {
    let card = cat.get(id).ok().flatten()?;
    let h = PICTURE_W * 88 / 63;
    Some(core::render_card(cat, &card, PICTURE_W, h))
}

impl Pictures {
    /// The texture of card `id`, made on its first use.
    pub fn get(
        &mut self,
        ctx: &egui::Context,
        cat: &Catalogue,
        id: &str,
    ) -> Option<egui::TextureId> {
        let now = template::generation();
        if now != self.generation {
            self.map.clear();
            self.generation = now;
        }
        self.map
            .entry(id.to_string())
            .or_insert_with(|| {
                let img = picture(cat, id)?;
                Some(ctx.load_texture(format!("card-{id}"), img, egui::TextureOptions::LINEAR))
            })
            .as_ref()
            .map(|t| t.id())
    }

    /// How many textures are kept (a test checks they are made once a card).
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::Card;
    use std::sync::Arc;

    #[test]
    fn a_template_change_shows_on_a_match_boards_card_picture() {
        let mut card = crate::catalogue::bundled_cards()
            .unwrap()
            .into_iter()
            .find(|c| c.id() == "ico-grumbolt")
            .unwrap();
        let id = "ico-pictures-template-test";
        if let Card::Iconica(ch) = &mut card {
            ch.id = id.into();
        }
        let mut cat = Catalogue::open_empty_in_memory().unwrap();
        cat.upsert(std::slice::from_ref(&card)).unwrap();
        let ctx = egui::Context::default();
        let mut pictures = Pictures::default();
        let green = egui::Color32::from_rgb(0x12, 0xab, 0x34);
        let greens = |img: &egui::ColorImage| img.pixels.iter().filter(|p| **p == green).count();
        let first = pictures.get(&ctx, &cat, id).unwrap();
        assert_eq!(greens(&picture(&cat, id).unwrap()), 0);
        assert_eq!(pictures.get(&ctx, &cat, id), Some(first), "kept");
        // The bundled template with its panel filled green, in use for this card as the
        // Template screen's Save puts it.
        let mut face =
            (*template::bundled(crate::cards::Game::Iconica, "character").unwrap()).clone();
        let (panel, _) = template::edit::walk(&face.template)
            .into_iter()
            .find(|(_, l)| l.name.as_deref() == Some("panel"))
            .unwrap();
        template::edit::get_mut(&mut face.template, &panel)
            .unwrap()
            .fill = Some(template::format::ColorSpec::Fixed("#12ab34".into()));
        let others: Vec<_> = template::sets_in_use();
        let mut rules = others.clone();
        rules.insert(
            0,
            template::SetRule {
                name: "pictures test".into(),
                ids: [id.to_string()].into(),
                face: Arc::new(face),
            },
        );
        template::use_sets(rules);
        let img = picture(&cat, id).unwrap();
        let n = greens(&img);
        assert!(n > img.pixels.len() / 20, "{n} green pixels");
        // The board's cache draws it again.
        let again = pictures.get(&ctx, &cat, id).unwrap();
        assert_ne!(again, first, "the picture is made anew");
        assert_eq!(pictures.made(), 1);
        template::use_sets(
            template::sets_in_use()
                .into_iter()
                .filter(|r| r.name != "pictures test")
                .collect(),
        );
    }
}
