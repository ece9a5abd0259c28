//! Printing from the app: the selection (a card, or a builder's document) laid on the
//! sheet as the PDF export lays it, each card drawn by the print renderer, and the export.

use std::collections::HashMap;

use super::core::{self, PrintSettings};
use super::files::{self, Dialog, Want};
use super::{Action, Env};
use crate::cards::Card;
use crate::catalogue::Catalogue;
use crate::print::vendor::Preset;

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
    /// The card size the thumbnails were drawn for.
    thumbs_card: String,
    /// The last preflight: for which cards and card size, and what it found.
    preflight: Option<Preflight>,
    /// A preflight running on its thread: for which cards and settings, and its answer.
    running: Option<RunningPreflight>,
}

/// A preflight on its thread: the cards and settings key it checks, and where it answers.
type RunningPreflight = (
    Vec<String>,
    String,
    std::sync::mpsc::Receiver<Result<Vec<core::PreflightProblem>, String>>,
);

/// A preflight run: the cards, card size and preset it checked, and what it found (or why not).
type Preflight = (
    Vec<String>,
    String,
    Result<Vec<core::PreflightProblem>, String>,
);

impl PrintScreen {
    /// Whether a preflight is running on its thread.
    pub fn preflight_running(&self) -> bool {
        self.running.is_some()
    }

    pub fn ui(&mut self, ui: &mut egui::Ui, env: &mut Env) {
        ui.horizontal(|ui| {
            ui.heading("Print");
            let n = self.ids.len();
            ui.label(format!(
                "{n} card{} in the selection",
                if n == 1 { "" } else { "s" }
            ));
        });
        self.add_ui(ui, env);
        if self.ids.is_empty() {
            ui.weak("Nothing to print: add cards above, or select a card in the browser or open a builder, then press Ctrl+P.");
            return;
        }
        self.options_ui(ui);
        self.export_ui(ui, env);
        self.preflight_ui(ui, env);
        ui.separator();
        self.preview_index = self.preview_index.min(self.ids.len() - 1);
        egui::Panel::left("print-list")
            .resizable(true)
            .default_size(220.0)
            .show(ui, |ui| {
                egui::ScrollArea::vertical()
                    .id_salt("print-list-scroll")
                    .show(ui, |ui| {
                        let mut remove = None;
                        for (i, id) in self.ids.iter().enumerate() {
                            let name = env.name_or_missing(id);
                            ui.horizontal(|ui| {
                                let r = ui
                                    .small_button("x")
                                    .on_hover_text(format!("Take {name} out of the selection"));
                                r.widget_info(|| {
                                    egui::WidgetInfo::labeled(
                                        egui::Role::Button,
                                        true,
                                        format!("Remove {name}"),
                                    )
                                });
                                if r.clicked() {
                                    remove = Some(i);
                                }
                                let mut n = core::copies_of(env.cat, id, &self.settings);
                                let r = ui
                                    .add(egui::DragValue::new(&mut n).range(0..=1000).suffix("×"))
                                    .on_hover_text(format!(
                                        "Copies of {name} (drag, or type a number)"
                                    ));
                                r.widget_info(|| egui::WidgetInfo {
                                    label: Some(format!("Copies of {name}")),
                                    ..egui::WidgetInfo::drag_value(true, n as f64)
                                });
                                if r.changed() {
                                    self.settings.per_card.insert(id.clone(), n);
                                }
                                if ui
                                    .selectable_label(
                                        i == self.preview_index,
                                        format!("{}. {name}", i + 1),
                                    )
                                    .clicked()
                                {
                                    self.preview_index = i;
                                }
                            });
                        }
                        if let Some(i) = remove {
                            let id = self.ids.remove(i);
                            if !self.ids.contains(&id) {
                                self.settings.per_card.remove(&id);
                            }
                        }
                    });
            });
        egui::Panel::right("print-card")
            .resizable(true)
            .default_size(300.0)
            .show(ui, |ui| {
                let Some(id) = self.ids.get(self.preview_index).cloned() else {
                    return;
                };
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

    /// What a preflight depends on besides the cards: the card size and the preset.
    fn preflight_key(&self) -> String {
        format!("{} {:?}", self.settings.card, self.settings.preset)
    }

    /// What can be added to the selection: the browser's search result, a builder's
    /// document, and clearing it. Cards are picked one by one with the browser's
    /// "Add to print".
    fn add_ui(&mut self, ui: &mut egui::Ui, env: &mut Env) {
        use super::{PrintSource, Screen};
        ui.horizontal_wrapped(|ui| {
            ui.label("Add:");
            if ui
                .button("search result")
                .on_hover_text("Every card the browser's search lists")
                .clicked()
            {
                env.push(Action::AddToPrint(PrintSource::SearchResults));
            }
            for (screen, tip) in [
                (Screen::Party, "The Iconica party (both, in match mode)"),
                (
                    Screen::Character,
                    "The Iconica character: icon, merits and flaws",
                ),
                (
                    Screen::Setup,
                    "The Arcadia setup: every player's cards and the leagues",
                ),
                (Screen::Squad, "The Ruunara squad"),
            ] {
                if ui
                    .button(screen.title().to_lowercase())
                    .on_hover_text(tip)
                    .clicked()
                {
                    env.push(Action::AddToPrint(PrintSource::Builder(screen)));
                }
            }
            if ui
                .add_enabled(!self.ids.is_empty(), egui::Button::new("Clear"))
                .on_hover_text("Empty the selection")
                .clicked()
            {
                self.ids.clear();
                self.settings.per_card.clear();
                self.preview_index = 0;
            }
        });
    }

    /// Every option of `deckwright export`: paper, card size, crop marks, backs and their
    /// offset, bleed, gutter and copies.
    fn options_ui(&mut self, ui: &mut egui::Ui) {
        let st = &mut self.settings;
        ui.horizontal_wrapped(|ui| {
            let label = ui.label("Paper:");
            egui::ComboBox::from_id_salt("paper")
                .selected_text(st.paper.clone())
                .show_ui(ui, |ui| {
                    for p in core::papers() {
                        ui.selectable_value(&mut st.paper, p.to_string(), p);
                    }
                })
                .response
                .labelled_by(label.id);
            let label = ui.label("Card:");
            egui::ComboBox::from_id_salt("card-size")
                .selected_text(st.card.clone())
                .show_ui(ui, |ui| {
                    for (name, w, h) in core::card_sizes() {
                        ui.selectable_value(
                            &mut st.card,
                            name.to_string(),
                            format!("{name} ({w} x {h} mm)"),
                        );
                    }
                })
                .response
                .labelled_by(label.id)
                .on_hover_text("The card size (--card)");
            let label = ui.label("Bleed:");
            ui.add(
                egui::DragValue::new(&mut st.bleed)
                    .range(0.0..=20.0)
                    .speed(0.1)
                    .suffix(" mm"),
            )
            .labelled_by(label.id)
            .on_hover_text("Art extended around each card, cut off after printing (--bleed)");
            let label = ui.label("Gutter:");
            ui.add(
                egui::DragValue::new(&mut st.gutter)
                    .range(0.0..=100.0)
                    .speed(0.1)
                    .suffix(" mm"),
            )
            .labelled_by(label.id)
            .on_hover_text("Space between cards (--gutter)");
            ui.checkbox(&mut st.crop_marks, "Crop marks")
                .on_hover_text("Cutting guides at the card corners");
            let label = ui.label("For:");
            let preset = st.preset.as_deref().and_then(Preset::parse);
            egui::ComboBox::from_id_salt("preset")
                .selected_text(preset.map_or("Print and play", Preset::title))
                .show_ui(ui, |ui| {
                    ui.selectable_value(&mut st.preset, None, "Print and play");
                    for p in Preset::ALL {
                        ui.selectable_value(&mut st.preset, Some(p.name().to_string()), p.title());
                    }
                })
                .response
                .labelled_by(label.id)
                .on_hover_text(
                    "Print and play sheets, or a print vendor's files (the main export and preflight follow it)",
                );
        });
        ui.horizontal_wrapped(|ui| {
            let mut owned = st.copies == core::Copies::Owned;
            if ui
                .checkbox(&mut owned, "Copies owned")
                .on_hover_text(
                    "Print as many copies of each card as the collection holds (--copies owned)",
                )
                .changed()
            {
                st.copies = if owned {
                    core::Copies::Owned
                } else {
                    core::Copies::Each(1)
                };
            }
            let label = ui.label("Copies:");
            let mut n = match st.copies {
                core::Copies::Each(n) => n,
                core::Copies::Owned => 1,
            };
            if ui
                .add_enabled(!owned, egui::DragValue::new(&mut n).range(1..=1000))
                .labelled_by(label.id)
                .on_hover_text("Copies of each selected card (--copies N)")
                .changed()
            {
                st.copies = core::Copies::Each(n);
            }
            ui.separator();
            ui.checkbox(&mut st.backs, "Backs").on_hover_text(
                "A mirrored page of backs after each page of fronts, for duplex printing",
            );
            let label = ui.label("Back offset x:");
            ui.add_enabled(
                st.backs,
                egui::DragValue::new(&mut st.back_offset.0)
                    .range(-50.0..=50.0)
                    .speed(0.1)
                    .suffix(" mm"),
            )
            .labelled_by(label.id)
            .on_hover_text(
                "Move the backs right (negative: left) to meet the fronts (--back-offset)",
            );
            let label = ui.label("y:");
            ui.add_enabled(
                st.backs,
                egui::DragValue::new(&mut st.back_offset.1)
                    .range(-50.0..=50.0)
                    .speed(0.1)
                    .suffix(" mm"),
            )
            .labelled_by(label.id)
            .on_hover_text("Move the backs down (negative: up) to meet the fronts (--back-offset)");
        });
    }

    /// The preflight's findings, each a link that opens the card in the card editor.
    fn preflight_ui(&mut self, ui: &mut egui::Ui, env: &mut Env) {
        if let Some((ids, key, rx)) = &self.running {
            match rx.try_recv() {
                Ok(found) => {
                    self.preflight = Some((ids.clone(), key.clone(), found));
                    self.running = None;
                }
                Err(std::sync::mpsc::TryRecvError::Empty) => {
                    ui.horizontal(|ui| {
                        ui.spinner();
                        ui.label("Preflight running…");
                    });
                    return;
                }
                Err(std::sync::mpsc::TryRecvError::Disconnected) => {
                    self.preflight = Some((
                        ids.clone(),
                        key.clone(),
                        Err("the preflight stopped without an answer".into()),
                    ));
                    self.running = None;
                }
            }
        }
        if self
            .preflight
            .as_ref()
            .is_some_and(|(ids, key, _)| *ids != self.ids || *key != self.preflight_key())
        {
            self.preflight = None;
        }
        let Some((_, _, found)) = &self.preflight else {
            return;
        };
        match found {
            Err(e) => {
                ui.colored_label(ui.visuals().error_fg_color, e);
            }
            Ok(list) if list.is_empty() => {
                ui.label(format!(
                    "Preflight: ready to print ({} checked).",
                    crate::count(self.ids.len() as u64, "card", "cards")
                ));
            }
            Ok(list) => {
                ui.colored_label(
                    ui.visuals().warn_fg_color,
                    format!(
                        "Preflight: {} problem{} (click one to open the card):",
                        list.len(),
                        if list.len() == 1 { "" } else { "s" }
                    ),
                );
                egui::ScrollArea::vertical()
                    .id_salt("preflight")
                    .max_height(120.0)
                    .show(ui, |ui| {
                        for p in list {
                            if ui
                                .link(format!("{} ({}): {}: {}", p.id, p.name, p.code, p.message))
                                .on_hover_text("Open this card in the card editor")
                                .clicked()
                                && let Some(card) = core::card(env.cat, &p.id)
                            {
                                env.push(Action::EditCard {
                                    label: format!("open {}", p.id),
                                    after: card.to_toml(),
                                });
                            }
                        }
                    });
            }
        }
    }

    /// The export buttons: the PDF, the calibration page, vendors' files, Tabletop Simulator.
    fn export_ui(&mut self, ui: &mut egui::Ui, env: &mut Env) {
        ui.horizontal_wrapped(|ui| {
            if let Some(preset) = self.settings.preset.as_deref().and_then(Preset::parse) {
                self.preset_button(ui, env, preset, format!("Export for {}…", preset.title()));
            }
            if ui
                .button("Export PDF…")
                .on_hover_text("Write the print-and-play PDF of the selection")
                .clicked()
            {
                let (ids, settings) = (self.ids.clone(), self.settings.clone());
                let d = Dialog::save("deckwright.pdf").filter("PDF", &["pdf"]);
                files::ask(ui.ctx(), env, d, move |cat, paths| {
                    paths
                        .iter()
                        .map(|p| done(core::export_pdf(cat, &ids, p, &settings).map_err(String::from)))
                        .collect()
                });
            }
            if ui
                .add_enabled(self.running.is_none(), egui::Button::new("Preflight"))
                .on_hover_text("Before exporting: text shrunk past reading or cut, art under 300 dpi, missing art; for a vendor, text inside its safe area, and for DriveThruCards the press PDF itself (ink over 240%, RGB, fonts)")
                .clicked()
            {
                let (ids, key) = (self.ids.clone(), self.preflight_key());
                match core::preflight_job(env.cat, &self.ids, &self.settings) {
                    Err(e) => self.preflight = Some((ids, key, Err(e))),
                    Ok(job) => {
                        let (tx, rx) = std::sync::mpsc::channel();
                        let ctx = ui.ctx().clone();
                        let spawned = std::thread::Builder::new()
                            .name("deckwright-preflight".into())
                            .spawn(move || {
                                let _ = tx.send(job());
                                ctx.request_repaint();
                            });
                        match spawned {
                            Ok(_) => self.running = Some((ids, key, rx)),
                            Err(e) => {
                                self.preflight =
                                    Some((ids, key, Err(format!("preflight could not start: {e}"))))
                            }
                        }
                    }
                }
            }
            if ui
                .button("Calibration page…")
                .on_hover_text(
                    "A two-sided sheet to measure the back offset of your printer (--calibration)",
                )
                .clicked()
            {
                let settings = self.settings.clone();
                let d = Dialog::save("calibration.pdf").filter("PDF", &["pdf"]);
                files::ask(ui.ctx(), env, d, move |_, paths| {
                    paths
                        .iter()
                        .map(|p| done(core::export_calibration(p, &settings)))
                        .collect()
                });
            }
            ui.menu_button("Export for…", |ui| {
                for preset in crate::print::vendor::Preset::ALL {
                    let tip = match preset {
                        crate::print::vendor::Preset::Mpc => {
                            "A folder of 822 x 1122 px PNGs at 300 dpi, 36 px bleed"
                        }
                        crate::print::vendor::Preset::Tgc => {
                            "A folder of 825 x 1125 px RGB PNGs at 300 dpi"
                        }
                        crate::print::vendor::Preset::DriveThru => {
                            "A PDF, one card a page with 1/8\" bleed, back then front"
                        }
                    };
                    if self
                        .preset_button(ui, env, preset, format!("{}…", preset.title()))
                        .on_hover_text(tip)
                        .clicked()
                    {
                        ui.close();
                    }
                }
                if ui
                    .button("Tabletop Simulator…")
                    .on_hover_text(
                        "10 x 7 deck sheets, backs and the saved object deck.json in a folder",
                    )
                    .clicked()
                {
                    ui.close();
                    let (ids, settings) = (self.ids.clone(), self.settings.clone());
                    files::ask(ui.ctx(), env, Dialog::new(Want::Folder), move |cat, paths| {
                        paths
                            .iter()
                            .map(|dir| done(core::export_tts(cat, &ids, dir, &settings)))
                            .collect()
                    });
                }
            });
        });
    }

    /// A button that exports the selection for `preset` (asking where), and remembers the
    /// preset for the next time.
    fn preset_button(
        &mut self,
        ui: &mut egui::Ui,
        env: &mut Env,
        preset: Preset,
        text: String,
    ) -> egui::Response {
        let r = ui.button(text);
        if r.clicked() {
            self.settings.preset = Some(preset.name().to_string());
            let d = if preset.writes_folder() {
                Dialog::new(Want::Folder)
            } else {
                Dialog::save("drivethru.pdf").filter("PDF", &["pdf"])
            };
            let (ids, settings) = (self.ids.clone(), self.settings.clone());
            files::ask(ui.ctx(), env, d, move |cat, paths| {
                paths
                    .iter()
                    .map(|out| done(core::export_preset(cat, &ids, preset, out, &settings)))
                    .collect()
            });
        }
        r
    }

    /// The sheet as the export lays it out: page `self.page` with its cards (each repeated
    /// as the copies ask); with backs, every fronts page is followed by its backs page, the
    /// backs mirrored and moved by the back offset as the PDF has them.
    fn sheet_ui(&mut self, ui: &mut egui::Ui, env: &Env) {
        let sheet = match core::sheet(&self.settings) {
            Ok(s) => s,
            Err(e) => {
                ui.colored_label(ui.visuals().error_fg_color, e.chain());
                return;
            }
        };
        if self.thumbs_card != self.settings.card {
            self.thumbs.clear();
            self.thumbs_card = self.settings.card.clone();
        }
        let list = core::print_list(env.cat, &self.ids, &self.settings);
        let per_page = sheet.places.len().max(1);
        let sheets = list.len().div_ceil(per_page);
        let sides = if self.settings.backs { 2 } else { 1 };
        let pages = sheets * sides;
        self.page = self.page.min(pages.saturating_sub(1));
        let (sheet_no, back) = (self.page / sides, self.page % sides == 1);
        ui.horizontal(|ui| {
            if ui
                .add_enabled(self.page > 0, egui::Button::new("<"))
                .on_hover_text("Previous page")
                .clicked()
            {
                self.page -= 1;
            }
            let what = match (self.settings.backs, back) {
                (false, _) => String::new(),
                (true, false) => ", fronts".into(),
                (true, true) => ", backs".into(),
            };
            ui.label(format!(
                "Sheet {} of {sheets}{what} ({per_page} cards a sheet, {})",
                sheet_no + 1,
                crate::count(list.len() as u64, "card", "cards")
            ));
            if ui
                .add_enabled(self.page + 1 < pages, egui::Button::new(">"))
                .on_hover_text("Next page")
                .clicked()
            {
                self.page += 1;
            }
        });
        if list.is_empty() {
            ui.weak("No card to print: with copies owned, only owned cards are printed.");
            return;
        }
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
        let places = if back { &sheet.backs } else { &sheet.places };
        for (k, place) in places.iter().enumerate() {
            let Some(id) = list.get(sheet_no * per_page + k) else {
                break;
            };
            let r = egui::Rect::from_min_size(
                rect.min + egui::vec2(place[0], place[1]) * scale,
                egui::vec2(place[2], place[3]) * scale,
            );
            let key = if back {
                format!("back-{id}")
            } else {
                id.clone()
            };
            if !self.thumbs.contains_key(&key)
                && let Some(card) = core::card(env.cat, id)
            {
                let img = core::render_side(
                    env.cat,
                    &card,
                    back,
                    (r.width() * ppp).round().max(16.0) as u32,
                    (r.height() * ppp).round().max(16.0) as u32,
                );
                let t = ui.ctx().load_texture(
                    format!("thumb-{key}"),
                    img,
                    egui::TextureOptions::LINEAR,
                );
                self.thumbs.insert(key.clone(), t);
            }
            match self.thumbs.get(&key) {
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
            if self.settings.crop_marks && !back {
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

/// The action that says how an export went.
fn done(r: Result<String, String>) -> Action {
    match r {
        Ok(m) => Action::Notify(m),
        Err(e) => Action::Error(e),
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
