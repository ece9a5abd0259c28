//! The Template screen: a face template shown on any card of the catalogue, its layers
//! selected, dragged and resized on the card, their bindings and styles edited in a panel,
//! with undo, and saved to a file (atomically) that preview, print, PNGs and Tabletop
//! Simulator sheets then draw with.
//!
//! [`TemplateEditor`] holds the state and every change (no widgets); [`TemplateScreen`] draws
//! it and turns clicks and drags into those changes.

use std::path::PathBuf;
use std::sync::Arc;

use super::Env;
use crate::cards::{Card, Game};
use crate::print::canvas::R;
use crate::print::face::Side;
use crate::print::template::{self, Face, Layer, LayerType, Template, draw::layer_box};

/// How many edits undo goes back.
pub const MAX_UNDO: usize = 200;

/// The template being edited and its history.
#[derive(Debug, Clone)]
pub struct TemplateEditor {
    pub face: Face,
    /// Where it is saved (`None`: a bundled template not saved yet).
    pub path: Option<PathBuf>,
    /// The selected top-level layer.
    pub selected: Option<usize>,
    undo: Vec<Template>,
    redo: Vec<Template>,
    /// Changed since opened or saved.
    pub dirty: bool,
    /// Bumped on every change (the preview is drawn again).
    pub version: u64,
    /// What the last check found wrong (the template still draws; it cannot be saved).
    pub problem: Option<String>,
}

impl TemplateEditor {
    /// The bundled template of a game's kind of card.
    pub fn bundled(game: Game, kind: &str) -> Option<TemplateEditor> {
        let face = template::bundled(game, kind)?;
        Some(TemplateEditor::from_face((*face).clone(), None))
    }

    /// A template file (checked whole).
    pub fn open(path: &std::path::Path) -> Result<TemplateEditor, String> {
        let face = template::load_file(path).map_err(|e| e.to_string())?;
        Ok(TemplateEditor::from_face(face, Some(path.to_path_buf())))
    }

    fn from_face(face: Face, path: Option<PathBuf>) -> TemplateEditor {
        TemplateEditor {
            face,
            path,
            selected: None,
            undo: Vec::new(),
            redo: Vec::new(),
            dirty: false,
            version: 0,
            problem: None,
        }
    }

    /// The game whose cards it draws.
    pub fn game(&self) -> Option<Game> {
        Game::parse(&self.face.template.game)
    }

    /// Whether it draws `card`'s front.
    pub fn draws(&self, card: &Card) -> bool {
        self.game() == Some(card.game())
            && self.face.template.kinds.iter().any(|k| k == card.kind())
    }

    /// Makes a change (recorded for undo) and checks the result.
    pub fn edit(&mut self, change: impl FnOnce(&mut Template)) {
        let before = self.face.template.clone();
        change(&mut self.face.template);
        if self.face.template == before {
            return;
        }
        self.undo.push(before);
        if self.undo.len() > MAX_UNDO {
            self.undo.remove(0);
        }
        self.redo.clear();
        self.changed();
    }

    fn changed(&mut self) {
        self.dirty = true;
        self.version += 1;
        self.problem = template::check(&self.face)
            .err()
            .map(|(_, key, msg)| match key {
                Some(k) => format!("key `{k}`: {msg}"),
                None => msg,
            });
        if self
            .selected
            .is_some_and(|i| i >= self.face.template.layers.len())
        {
            self.selected = None;
        }
    }

    pub fn can_undo(&self) -> bool {
        !self.undo.is_empty()
    }
    pub fn can_redo(&self) -> bool {
        !self.redo.is_empty()
    }

    /// Goes back one edit.
    pub fn undo(&mut self) {
        if let Some(t) = self.undo.pop() {
            self.redo
                .push(std::mem::replace(&mut self.face.template, t));
            self.changed();
        }
    }

    /// Makes the edit undone last again.
    pub fn redo(&mut self) {
        if let Some(t) = self.redo.pop() {
            self.undo
                .push(std::mem::replace(&mut self.face.template, t));
            self.changed();
        }
    }

    /// The selected layer.
    pub fn layer(&self) -> Option<&Layer> {
        self.selected
            .and_then(|i| self.face.template.layers.get(i))
            .map(|l| l.get_ref())
    }

    /// The box of top-level layer `i`, in the template's millimetres.
    pub fn layer_box(&self, i: usize) -> Option<R> {
        let t = &self.face.template;
        let whole = R::new(0.0, 0.0, t.width_mm as f32, t.height_mm as f32);
        t.layers.get(i).map(|l| layer_box(l.get_ref(), whole))
    }

    /// The topmost layer drawn for `card` whose box holds the point (mm); backgrounds
    /// (bleed) are not picked.
    pub fn hit(&self, card: Option<&Card>, x: f32, y: f32) -> Option<usize> {
        let fields = card.map(|c| template::fields::card_fields(c, Side::Front));
        let empty = toml::Table::new();
        let scope = template::fields::Scope::card(fields.as_ref().unwrap_or(&empty));
        (0..self.face.template.layers.len()).rev().find(|&i| {
            let l = self.face.template.layers[i].get_ref();
            let shown = l.show_when.as_deref().is_none_or(|s| {
                template::fields::Condition::parse(s).is_ok_and(|c| c.holds(&scope))
            });
            let b = self.layer_box(i).expect("i is a layer");
            l.kind != LayerType::Bleed
                && shown
                && x >= b.x
                && x <= b.right()
                && y >= b.y
                && y <= b.bottom()
        })
    }

    /// Moves the selected layer by (dx, dy) mm, or resizes it by (dw, dh) mm; its place
    /// is then written as x, y, w and h.
    pub fn nudge(&mut self, dx: f32, dy: f32, dw: f32, dh: f32) {
        let Some(i) = self.selected else { return };
        let Some(b) = self.layer_box(i) else { return };
        let round = |v: f32| ((v as f64) * 100.0).round() / 100.0;
        self.edit(|t| {
            let l = t.layers[i].get_mut();
            l.x = Some(round(b.x + dx));
            l.y = Some(round(b.y + dy));
            l.w = Some(round((b.w + dw).max(0.5)));
            l.h = Some(round((b.h + dh).max(0.5)));
            l.right = None;
            l.bottom = None;
            l.middle = None;
        });
    }

    /// The template as a file's text.
    pub fn text(&self) -> Result<String, String> {
        toml::to_string(&self.face.template).map_err(|e| e.to_string())
    }

    /// Writes the template to `path` atomically, after reading its text back as a file
    /// would be read (a template that would not load is not written).
    pub fn save(&mut self, path: &std::path::Path) -> Result<String, String> {
        let text = self.text()?;
        let dir = path.parent().map(|p| p.to_path_buf());
        let face = template::load(&text, &path.display().to_string(), dir)
            .map_err(|e| format!("not saved: {e}"))?;
        crate::safe_io::write_atomic(path, text.as_bytes())
            .map_err(|e| format!("could not write {}: {e}", path.display()))?;
        self.face = face;
        self.path = Some(path.to_path_buf());
        self.dirty = false;
        Ok(format!("Saved the template to {}", path.display()))
    }

    /// Draws the template in use for the cards of its game and kinds in the catalogue, so
    /// the card editor's preview, print, PNGs and Tabletop Simulator sheets show it.
    pub fn put_in_use(&self, cards: &[Card]) {
        let ids = cards
            .iter()
            .filter(|c| self.draws(c))
            .map(|c| c.id().to_string())
            .collect();
        let mut rules: Vec<_> = template::sets_in_use()
            .into_iter()
            .filter(|r| r.name != "template screen")
            .collect();
        rules.insert(
            0,
            template::SetRule {
                name: "template screen".into(),
                ids,
                face: Arc::new(self.face.clone()),
            },
        );
        template::use_sets(rules);
    }
}

/// The Template screen's widgets and what they keep between frames.
#[derive(Default)]
pub struct TemplateScreen {
    pub editor: Option<TemplateEditor>,
    /// The card shown (an index into the cards the template draws).
    pub card: usize,
    cards: Vec<Card>,
    cards_generation: Option<u64>,
    texture: Option<(u64, usize, egui::TextureHandle)>,
    /// The file path typed for Open and Save as.
    pub path_text: String,
    /// The game and kind of the bundled template to start from.
    pub start: (Option<Game>, String),
    drag_start: Option<(f32, f32, bool)>,
    /// The file saved last (kept in the session and put in use again on start).
    pub saved: Option<PathBuf>,
}

/// Shown at most this many points wide.
const PREVIEW_W: f32 = 315.0;

impl TemplateScreen {
    /// Starts from the bundled template of the chosen game and kind.
    pub fn start_bundled(&mut self) {
        if self.start.0.is_none() {
            self.start = (Some(Game::Iconica), "character".into());
        }
        let game = self.start.0.unwrap_or(Game::Iconica);
        self.editor = TemplateEditor::bundled(game, &self.start.1);
        self.card = 0;
        self.texture = None;
    }

    fn refresh_cards(&mut self, env: &Env) {
        if self.cards_generation != Some(env.generation) {
            self.cards = env.cat.all().unwrap_or_default();
            self.cards_generation = Some(env.generation);
        }
    }

    /// The cards the template draws, in catalogue order.
    pub fn shown_cards(&self) -> Vec<&Card> {
        match &self.editor {
            Some(e) => self.cards.iter().filter(|c| e.draws(c)).collect(),
            None => Vec::new(),
        }
    }

    pub fn ui(&mut self, ui: &mut egui::Ui, env: &mut Env) {
        self.refresh_cards(env);
        if self.editor.is_none() {
            self.start_bundled();
        }
        self.toolbar_ui(ui, env);
        ui.separator();
        let Some(editor) = self.editor.as_mut() else {
            ui.weak("No template.");
            return;
        };
        egui::Panel::left("template-layers")
            .resizable(true)
            .default_size(200.0)
            .show(ui, |ui| {
                ui.strong("Layers");
                egui::ScrollArea::vertical()
                    .id_salt("template-layers-scroll")
                    .show(ui, |ui| {
                        for (i, l) in editor.face.template.layers.iter().enumerate() {
                            let l = l.get_ref();
                            let text = match &l.name {
                                Some(n) => format!("{}. {n}", i + 1),
                                None => format!("{}. {}", i + 1, l.kind.as_str()),
                            };
                            if ui
                                .selectable_label(editor.selected == Some(i), text)
                                .clicked()
                            {
                                editor.selected = Some(i);
                            }
                        }
                    });
            });
        egui::Panel::right("template-panel")
            .resizable(true)
            .default_size(300.0)
            .show(ui, |ui| {
                egui::ScrollArea::vertical()
                    .id_salt("template-panel-scroll")
                    .show(ui, |ui| layer_panel_ui(ui, editor));
            });
        let cards: Vec<Card> = self
            .cards
            .iter()
            .filter(|c| editor.draws(c))
            .cloned()
            .collect();
        egui::CentralPanel::default().show(ui, |ui| {
            ui.horizontal(|ui| {
                if ui.button("< Previous card").clicked() && !cards.is_empty() {
                    self.card = (self.card + cards.len() - 1) % cards.len();
                }
                if ui.button("Next card >").clicked() && !cards.is_empty() {
                    self.card = (self.card + 1) % cards.len();
                }
                match cards.get(self.card.min(cards.len().saturating_sub(1))) {
                    Some(c) => ui.label(format!(
                        "{} ({} of {})",
                        c.name(),
                        self.card.min(cards.len() - 1) + 1,
                        cards.len()
                    )),
                    None => ui.weak("No card of this kind in the catalogue"),
                };
            });
            self.card = self.card.min(cards.len().saturating_sub(1));
            let card = cards.get(self.card);
            let t = &editor.face.template;
            let size = egui::vec2(PREVIEW_W, PREVIEW_W * (t.height_mm / t.width_mm) as f32);
            let stale = self
                .texture
                .as_ref()
                .is_none_or(|(v, c, _)| *v != editor.version || *c != self.card);
            if stale {
                let ppp = ui.ctx().pixels_per_point();
                let (w, h) = ((size.x * ppp) as u32, (size.y * ppp) as u32);
                let assets = crate::print::Assets {
                    art_dir: env.cat.art_dir(),
                    ..Default::default()
                };
                let img = crate::print::render::render_face(&editor.face, card, w, h, &assets);
                let color = egui::ColorImage::from_rgba_unmultiplied(
                    [img.width as usize, img.height as usize],
                    &img.rgba,
                );
                let tex =
                    ui.ctx()
                        .load_texture("template-preview", color, egui::TextureOptions::LINEAR);
                self.texture = Some((editor.version, self.card, tex));
            }
            let Some((_, _, tex)) = &self.texture else {
                return;
            };
            let resp =
                ui.add(egui::Image::new((tex.id(), size)).sense(egui::Sense::click_and_drag()));
            let rect = resp.rect;
            let k = rect.width() / t.width_mm as f32;
            let to_mm = |p: egui::Pos2| ((p.x - rect.min.x) / k, (p.y - rect.min.y) / k);
            // The selected layer's outline and its resize handle.
            let handle = |b: R| {
                egui::Rect::from_center_size(
                    egui::pos2(rect.min.x + b.right() * k, rect.min.y + b.bottom() * k),
                    egui::vec2(10.0, 10.0),
                )
            };
            if let Some(b) = editor.selected.and_then(|i| editor.layer_box(i)) {
                let r = egui::Rect::from_min_size(
                    egui::pos2(rect.min.x + b.x * k, rect.min.y + b.y * k),
                    egui::vec2(b.w * k, b.h * k),
                );
                let p = ui.painter_at(rect.expand(8.0));
                p.rect_stroke(
                    r,
                    0.0,
                    egui::Stroke::new(2.0, egui::Color32::from_rgb(255, 0, 160)),
                    egui::StrokeKind::Outside,
                );
                p.rect_filled(handle(b), 1.0, egui::Color32::from_rgb(255, 0, 160));
            }
            if resp.clicked()
                && let Some(pos) = resp.interact_pointer_pos()
            {
                let (x, y) = to_mm(pos);
                editor.selected = editor.hit(card, x, y);
            }
            // The drag is measured from where the button went down (egui starts a drag only
            // after the pointer has moved a little).
            if resp.drag_started()
                && let Some(pos) = ui
                    .input(|i| i.pointer.press_origin())
                    .or(resp.interact_pointer_pos())
            {
                let on_handle = editor
                    .selected
                    .and_then(|i| editor.layer_box(i))
                    .is_some_and(|b| handle(b).contains(pos));
                if !on_handle {
                    let (x, y) = to_mm(pos);
                    if let Some(i) = editor.hit(card, x, y) {
                        editor.selected = Some(i);
                    }
                }
                let (x, y) = to_mm(pos);
                self.drag_start = Some((x, y, on_handle));
            }
            if resp.drag_stopped()
                && let (Some((x0, y0, resize)), Some(pos)) =
                    (self.drag_start.take(), resp.interact_pointer_pos())
            {
                let (x, y) = to_mm(pos);
                let (dx, dy) = (x - x0, y - y0);
                if resize {
                    editor.nudge(0.0, 0.0, dx, dy);
                } else {
                    editor.nudge(dx, dy, 0.0, 0.0);
                }
            }
            if let Some(p) = &editor.problem {
                ui.colored_label(ui.visuals().error_fg_color, p);
            }
        });
    }

    fn toolbar_ui(&mut self, ui: &mut egui::Ui, env: &mut Env) {
        ui.horizontal_wrapped(|ui| {
            ui.heading("Template");
            let before = self.start.clone();
            let start_label = ui.label("Start from:");
            egui::ComboBox::from_id_salt("template-start")
                .selected_text(format!(
                    "{} {}",
                    self.start.0.map_or("", |g| g.title()),
                    self.start.1
                ))
                .show_ui(ui, |ui| {
                    for g in Game::ALL {
                        for k in g.kinds().iter().copied().chain(["back"]) {
                            ui.selectable_value(
                                &mut self.start,
                                (Some(g), k.to_string()),
                                format!("{} {k}", g.title()),
                            );
                        }
                    }
                })
                .response
                .labelled_by(start_label.id);
            if self.start != before {
                self.start_bundled();
            }
            let Some(editor) = self.editor.as_mut() else {
                return;
            };
            if ui
                .add_enabled(editor.can_undo(), egui::Button::new("Undo"))
                .clicked()
            {
                editor.undo();
            }
            if ui
                .add_enabled(editor.can_redo(), egui::Button::new("Redo"))
                .clicked()
            {
                editor.redo();
            }
            let file_label = ui.label("File:");
            ui.add(egui::TextEdit::singleline(&mut self.path_text).desired_width(220.0))
                .labelled_by(file_label.id);
            if ui.button("Open").clicked() {
                match TemplateEditor::open(std::path::Path::new(self.path_text.trim())) {
                    Ok(e) => {
                        self.editor = Some(e);
                        self.texture = None;
                        self.card = 0;
                    }
                    Err(e) => env.push(super::Action::Error(e)),
                }
                return;
            }
            if editor.dirty {
                ui.weak("(changed)");
            }
            if ui.button("Save").clicked() {
                self.save(env);
            }
        });
    }

    /// Saves to the typed path (or the file it came from) and puts the template in use.
    pub fn save(&mut self, env: &mut Env) {
        let Some(editor) = self.editor.as_mut() else {
            return;
        };
        let path = match self.path_text.trim() {
            "" => editor.path.clone(),
            p => Some(PathBuf::from(p)),
        };
        let Some(path) = path else {
            env.push(super::Action::Error(
                "Type the file to save the template to (for example my-faces/iconica.toml).".into(),
            ));
            return;
        };
        match editor.save(&path) {
            Ok(m) => {
                editor.put_in_use(&self.cards);
                self.saved = Some(path);
                env.push(super::Action::Notify(m));
            }
            Err(e) => env.push(super::Action::Error(e)),
        }
    }
}

/// The selected layer's keys, edited in place (each change recorded for undo).
fn layer_panel_ui(ui: &mut egui::Ui, editor: &mut TemplateEditor) {
    let Some(i) = editor.selected else {
        ui.weak("Click a layer on the card or in the list to edit it.");
        return;
    };
    let Some(layer) = editor.layer().cloned() else {
        return;
    };
    ui.strong(format!("Layer {} ({})", i + 1, layer.kind.as_str()));
    let mut l = layer.clone();
    egui::Grid::new("template-layer-grid")
        .num_columns(2)
        .show(ui, |ui| {
            text_row(ui, "name", &mut l.name, false);
            text_row(ui, "show when", &mut l.show_when, false);
            for (label, v) in [
                ("x", &mut l.x),
                ("y", &mut l.y),
                ("w", &mut l.w),
                ("h", &mut l.h),
            ] {
                num_row(ui, label, v);
            }
            match l.kind {
                LayerType::Text => {
                    text_row(ui, "text", &mut l.text, true);
                    text_row(ui, "font", &mut l.font, false);
                    num_row(ui, "size", &mut l.size);
                    num_row(ui, "min size", &mut l.min_size);
                    color_row(ui, "color", &mut l.color);
                }
                LayerType::Rect | LayerType::Circle => {
                    color_row(ui, "fill", &mut l.fill);
                    color_row(ui, "stroke", &mut l.stroke);
                    num_row(ui, "stroke width", &mut l.stroke_width);
                    num_row(ui, "radius", &mut l.radius);
                }
                LayerType::Image => text_row(ui, "src", &mut l.src, false),
                LayerType::Icon => {
                    text_row(ui, "icon", &mut l.icon, false);
                    color_row(ui, "color", &mut l.color);
                }
                LayerType::Bleed => color_row(ui, "fill", &mut l.fill),
                _ => {}
            }
        });
    if l != layer {
        editor.edit(|t| *t.layers[i].get_mut() = l);
    }
}

fn text_row(ui: &mut egui::Ui, label: &str, v: &mut Option<String>, multi: bool) {
    let l = ui.label(label);
    let mut s = v.clone().unwrap_or_default();
    let r = if multi {
        ui.add(egui::TextEdit::multiline(&mut s).desired_rows(2))
    } else {
        ui.text_edit_singleline(&mut s)
    }
    .labelled_by(l.id);
    if r.changed() {
        *v = (!s.is_empty()).then_some(s);
    }
    ui.end_row();
}

fn num_row(ui: &mut egui::Ui, label: &str, v: &mut Option<f64>) {
    let l = ui.label(label);
    let mut n = v.unwrap_or(0.0);
    if ui
        .add(
            egui::DragValue::new(&mut n)
                .speed(0.1)
                .range(-1000.0..=1000.0),
        )
        .labelled_by(l.id)
        .changed()
    {
        *v = Some((n * 1000.0).round() / 1000.0);
    }
    ui.end_row();
}

fn color_row(ui: &mut egui::Ui, label: &str, v: &mut Option<template::format::ColorSpec>) {
    use template::format::ColorSpec;
    let l = ui.label(label);
    match v {
        Some(ColorSpec::By(by)) => {
            ui.weak(format!("by {}", by.by));
        }
        _ => {
            let mut s = match v {
                Some(ColorSpec::Fixed(s)) => s.clone(),
                _ => String::new(),
            };
            if ui.text_edit_singleline(&mut s).labelled_by(l.id).changed() {
                *v = (!s.is_empty()).then_some(ColorSpec::Fixed(s));
            }
        }
    }
    ui.end_row();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_resizes_undoes_and_saves_a_template() {
        let mut e = TemplateEditor::bundled(Game::Iconica, "character").unwrap();
        let card = crate::catalogue::bundled_cards()
            .unwrap()
            .into_iter()
            .find(|c| c.game() == Game::Iconica)
            .unwrap();
        // The name's box is under its point; the bleed is never picked.
        let name = e.hit(Some(&card), 20.0, 7.0).unwrap();
        assert_eq!(
            e.face.template.layers[name].get_ref().text.as_deref(),
            Some("{name}")
        );
        assert_eq!(e.hit(Some(&card), 0.5, 0.5), None);
        e.selected = Some(name);
        let before = e.layer_box(name).unwrap();
        e.nudge(1.0, 2.0, 0.0, 0.0);
        e.nudge(0.0, 0.0, -3.0, 1.0);
        let after = e.layer_box(name).unwrap();
        assert!((after.x - before.x - 1.0).abs() < 0.01);
        assert!((after.y - before.y - 2.0).abs() < 0.01);
        assert!((after.w - before.w + 3.0).abs() < 0.01);
        e.undo();
        assert!((e.layer_box(name).unwrap().w - before.w).abs() < 0.01);
        e.redo();
        assert!(e.dirty);
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("mine.toml");
        e.save(&path).unwrap();
        let back = TemplateEditor::open(&path).unwrap();
        assert_eq!(back.face.template, e.face.template);
        // A broken edit is shown and not saved.
        e.edit(|t| t.layers[name].get_mut().size = Some(9999.0));
        assert!(
            e.problem
                .as_deref()
                .unwrap()
                .contains("text is 0.1 to 100 mm high")
        );
        assert!(e.save(&path).unwrap_err().contains("not saved"));
    }
}
