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
use crate::print::template::edit::{self, LayerPath};
use crate::print::template::{self, Face, Layer, LayerType, Template};

/// How many edits undo goes back.
pub const MAX_UNDO: usize = 200;

/// The template being edited and its history.
#[derive(Debug, Clone)]
pub struct TemplateEditor {
    pub face: Face,
    /// Where it is saved (`None`: a bundled template not saved yet).
    pub path: Option<PathBuf>,
    /// The selected layer, at any depth of groups and repeats.
    pub selected: Option<LayerPath>,
    /// The template before each edit, with the layer selected then (undo selects it again:
    /// a layer moved back is still the one selected).
    undo: Vec<(Template, Option<LayerPath>)>,
    redo: Vec<(Template, Option<LayerPath>)>,
    /// The field typed in by the last edit: further typing in it joins that undo step.
    typing: Option<String>,
    /// The selection changed: the layer list opens the groups that hold it.
    pub reveal: bool,
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
            typing: None,
            reveal: false,
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

    /// Makes a change as one undo step and checks the result.
    pub fn edit(&mut self, change: impl FnOnce(&mut Template)) {
        self.typing = None;
        self.change(change, true);
    }

    /// Makes a change typed into field `key` (of the selected layer): the letters typed into
    /// one field one after another are one undo step.
    pub fn edit_typed(&mut self, key: &str, change: impl FnOnce(&mut Template)) {
        let field = format!("{:?}/{key}", self.selected);
        let joins = self.typing.as_deref() == Some(field.as_str());
        self.typing = Some(field);
        self.change(change, !joins);
    }

    fn change(&mut self, change: impl FnOnce(&mut Template), step: bool) {
        let before = self.face.template.clone();
        change(&mut self.face.template);
        if self.face.template == before {
            return;
        }
        if step || self.undo.is_empty() {
            self.undo.push((before, self.selected.clone()));
            if self.undo.len() > MAX_UNDO {
                self.undo.remove(0);
            }
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
            .as_ref()
            .is_some_and(|p| edit::get(&self.face.template, p).is_none())
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

    /// Goes back one edit, selecting again the layer selected before it.
    pub fn undo(&mut self) {
        if let Some((t, sel)) = self.undo.pop() {
            self.typing = None;
            let now = std::mem::replace(&mut self.face.template, t);
            self.redo.push((now, self.selected.clone()));
            self.select(sel);
            self.changed();
        }
    }

    /// Makes the edit undone last again, selecting the layer selected when it was undone.
    pub fn redo(&mut self) {
        if let Some((t, sel)) = self.redo.pop() {
            self.typing = None;
            let now = std::mem::replace(&mut self.face.template, t);
            self.undo.push((now, self.selected.clone()));
            self.select(sel);
            self.changed();
        }
    }

    /// Selects the layer at `path` (a finished typing step ends there).
    pub fn select(&mut self, path: Option<LayerPath>) {
        if self.selected != path {
            self.typing = None;
            self.reveal = true;
        }
        self.selected = path;
    }

    /// The selected layer.
    pub fn layer(&self) -> Option<&Layer> {
        self.selected
            .as_ref()
            .and_then(|p| edit::get(&self.face.template, p))
    }

    /// The box of the layer at `path` on `card`, in the template's millimetres (a repeat's
    /// children in its first cell).
    pub fn layer_box(&self, card: Option<&Card>, path: &[usize]) -> Option<R> {
        edit::boxes(&self.face.template, card, path).map(|(b, _)| b)
    }

    /// The frontmost, innermost layer drawn for `card` whose box holds the point (mm);
    /// backgrounds (bleed) are not picked.
    pub fn hit(&self, card: Option<&Card>, x: f32, y: f32) -> Option<LayerPath> {
        edit::hit(&self.face.template, card, x, y)
    }

    /// Moves the selected layer by (dx, dy) mm, or resizes it by (dw, dh) mm, as drawn on
    /// `card`; its place in its parent is then written as x, y, w and h.
    pub fn nudge(&mut self, card: Option<&Card>, dx: f32, dy: f32, dw: f32, dh: f32) {
        let Some(path) = self.selected.clone() else {
            return;
        };
        let Some((b, parent)) = edit::boxes(&self.face.template, card, &path) else {
            return;
        };
        let round = |v: f32| ((v as f64) * 100.0).round() / 100.0;
        self.edit(|t| {
            let Some(l) = edit::get_mut(t, &path) else {
                return;
            };
            l.x = Some(round(b.x - parent.x + dx));
            l.y = Some(round(b.y - parent.y + dy));
            l.w = Some(round((b.w + dw).max(0.5)));
            l.h = Some(round((b.h + dh).max(0.5)));
            l.right = None;
            l.bottom = None;
            l.middle = None;
        });
    }

    /// Adds a new layer of `kind` (inside the selected group or repeat, else in front of the
    /// selected layer, else on top of the card) and selects it.
    pub fn add(&mut self, kind: LayerType) {
        let at = self.selected.clone();
        let mut added = None;
        self.edit(|t| added = edit::insert(t, at.as_deref(), edit::new_layer(kind)));
        if added.is_some() {
            self.select(added);
        }
    }

    /// Deletes the selected layer (and what it holds).
    pub fn delete(&mut self) {
        let Some(path) = self.selected.clone() else {
            return;
        };
        self.edit(|t| {
            edit::remove(t, &path);
        });
        self.selected = None;
    }

    /// Moves the selected layer one place among its siblings: `-1` up the list (towards the
    /// back), `+1` down (towards the front).
    pub fn shift(&mut self, by: isize) {
        let Some(path) = self.selected.clone() else {
            return;
        };
        let mut moved = None;
        self.edit(|t| moved = edit::shift(t, &path, by));
        if moved.is_some() {
            self.select(moved);
        }
    }

    /// Moves the selected layer into the group just above it in its list (`above`, last
    /// among the group's layers) or just below it (first among them), without moving it on
    /// `card`: its place is written relative to the group. One undo step.
    pub fn move_into_group(&mut self, card: Option<&Card>, above: bool) {
        let Some(path) = self.selected.clone() else {
            return;
        };
        let mut moved = None;
        self.edit(|t| moved = edit::move_into_group(t, card, &path, above));
        if moved.is_some() {
            self.select(moved);
        }
    }

    /// Moves the selected layer out of its group, to just after the group, without moving
    /// it on `card`. One undo step.
    pub fn move_out_of_group(&mut self, card: Option<&Card>) {
        let Some(path) = self.selected.clone() else {
            return;
        };
        let mut moved = None;
        self.edit(|t| moved = edit::move_out_of_group(t, card, &path));
        if moved.is_some() {
            self.select(moved);
        }
    }

    /// Moves the layer at `from` where it was dropped in the layer list, on the layer at
    /// `onto` (into it when it is a group, else just after it), without moving it on `card`,
    /// and selects it. One undo step.
    pub fn move_onto(&mut self, card: Option<&Card>, from: &[usize], onto: &[usize]) {
        let mut moved = None;
        self.edit(|t| moved = edit::move_onto(t, card, from, onto));
        if moved.is_some() {
            self.select(moved);
        }
    }

    /// The template as a file's text, as the core's writer writes it.
    pub fn text(&self) -> Result<String, String> {
        edit::to_text(&self.face.template)
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
        self.typing = None;
        Ok(format!("Saved the template to {}", path.display()))
    }

    /// Draws the template in use for the cards of its game and kinds in the catalogue, so
    /// the card editor's preview, the Match boards' card pictures, print, PNGs and Tabletop
    /// Simulator sheets show it.
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
    /// The field value typed for a new row of a colour per value.
    pub new_value: String,
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
        let cards: Vec<Card> = self
            .cards
            .iter()
            .filter(|c| editor.draws(c))
            .cloned()
            .collect();
        let shown = cards.get(self.card.min(cards.len().saturating_sub(1)));
        egui::Panel::left("template-layers")
            .resizable(true)
            .default_size(220.0)
            .show(ui, |ui| layers_ui(ui, editor, shown));
        let new_value = &mut self.new_value;
        egui::Panel::right("template-panel")
            .resizable(true)
            .default_size(300.0)
            .show(ui, |ui| {
                egui::ScrollArea::vertical()
                    .id_salt("template-panel-scroll")
                    .show(ui, |ui| layer_panel_ui(ui, editor, new_value));
            });
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
            if let Some(b) = editor
                .selected
                .as_ref()
                .and_then(|p| editor.layer_box(card, p))
            {
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
                editor.select(editor.hit(card, x, y));
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
                    .as_ref()
                    .and_then(|p| editor.layer_box(card, p))
                    .is_some_and(|b| handle(b).contains(pos));
                if !on_handle {
                    let (x, y) = to_mm(pos);
                    if let Some(p) = editor.hit(card, x, y) {
                        editor.select(Some(p));
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
                    editor.nudge(card, 0.0, 0.0, dx, dy);
                } else {
                    editor.nudge(card, dx, dy, 0.0, 0.0);
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

/// The kinds of layer the Layers list adds, with their buttons' words.
const ADDS: [(LayerType, &str); 6] = [
    (LayerType::Rect, "Add shape"),
    (LayerType::Circle, "Add circle"),
    (LayerType::Image, "Add image"),
    (LayerType::Icon, "Add icon"),
    (LayerType::Text, "Add text box"),
    (LayerType::Group, "Add group"),
];

/// The label of a layer in the list: its place in the tree (`12.1.3.`) and its name, or
/// its type when it has none.
pub fn layer_label(path: &[usize], l: &Layer) -> String {
    let place: Vec<String> = path.iter().map(|i| (i + 1).to_string()).collect();
    match &l.name {
        Some(n) => format!("{}. {n}", place.join(".")),
        None => format!("{}. {}", place.join("."), l.kind.as_str()),
    }
}

/// The layer list as a tree (children indented under their group or repeat), with the
/// buttons that add, delete and reorder layers and move them into and out of groups
/// (keeping their place on `card`, the card shown).
fn layers_ui(ui: &mut egui::Ui, editor: &mut TemplateEditor, card: Option<&Card>) {
    ui.strong("Layers");
    ui.horizontal_wrapped(|ui| {
        for (kind, words) in ADDS {
            if ui
                .button(words)
                .on_hover_text(
                    "Inside the selected group or repeat, else in front of the selected layer",
                )
                .clicked()
            {
                editor.add(kind);
            }
        }
    });
    ui.horizontal_wrapped(|ui| {
        let some = editor.selected.is_some();
        if ui.add_enabled(some, egui::Button::new("Move up")).clicked() {
            editor.shift(-1);
        }
        if ui
            .add_enabled(some, egui::Button::new("Move down"))
            .clicked()
        {
            editor.shift(1);
        }
        if ui
            .add_enabled(some, egui::Button::new("Delete layer"))
            .clicked()
        {
            editor.delete();
        }
    });
    ui.horizontal_wrapped(|ui| {
        let t = &editor.face.template;
        let sel = editor.selected.as_deref();
        let above = sel.and_then(|p| edit::group_beside(t, p, true)).is_some();
        let below = sel.and_then(|p| edit::group_beside(t, p, false)).is_some();
        let out = sel.is_some_and(|p| edit::in_group(t, p));
        if ui
            .add_enabled(above, egui::Button::new("Into group above"))
            .on_hover_text("Into the group just above it in the list, as its last layer; it stays where it is on the card")
            .clicked()
        {
            editor.move_into_group(card, true);
        }
        if ui
            .add_enabled(below, egui::Button::new("Into group below"))
            .on_hover_text("Into the group just below it in the list, as its first layer; it stays where it is on the card")
            .clicked()
        {
            editor.move_into_group(card, false);
        }
        if ui
            .add_enabled(out, egui::Button::new("Out of group"))
            .on_hover_text("Out of its group, just after the group; it stays where it is on the card")
            .clicked()
        {
            editor.move_out_of_group(card);
        }
    });
    ui.separator();
    let reveal = std::mem::take(&mut editor.reveal);
    let mut pick = Pick::default();
    egui::ScrollArea::vertical()
        .id_salt("template-layers-scroll")
        .show(ui, |ui| {
            let t = &editor.face.template;
            let sel = editor.selected.as_deref();
            tree_ui(ui, &t.layers, &mut Vec::new(), sel, reveal, &mut pick);
        });
    if let Some(p) = pick.clicked {
        editor.select(Some(p));
    }
    if let Some((from, onto)) = pick.dropped {
        editor.move_onto(card, &from, &onto);
    }
}

/// What the layer list was asked this frame: a layer clicked, a layer dropped on another.
#[derive(Default)]
struct Pick {
    clicked: Option<LayerPath>,
    /// The dragged layer's path and the path of the layer it was dropped on.
    dropped: Option<(LayerPath, LayerPath)>,
}

/// One line of the layer list: a handle to drag the layer by, and its label to pick it; the
/// line takes a layer dropped on it.
fn row_ui(ui: &mut egui::Ui, path: &LayerPath, l: &Layer, on: bool, pick: &mut Pick) {
    let row = ui
        .horizontal(|ui| {
            ui.dnd_drag_source(
                egui::Id::unique(("template-layer-drag", path.clone())),
                path.clone(),
                |ui| {
                    ui.weak("::").on_hover_text(
                        "Drag onto a group to move this layer into it, or onto another layer \
                         to put it just after that one; it stays where it is on the card",
                    );
                },
            );
            if ui.selectable_label(on, layer_label(path, l)).clicked() {
                pick.clicked = Some(path.clone());
            }
        })
        .response;
    // The line a dragged layer would be dropped on is outlined.
    if egui::DragAndDrop::has_payload_of_type::<LayerPath>(ui.ctx()) && row.contains_pointer() {
        ui.painter().rect_stroke(
            row.rect,
            2.0,
            ui.visuals().widgets.active.bg_stroke,
            egui::StrokeKind::Inside,
        );
    }
    if let Some(from) = row.dnd_release_payload::<LayerPath>() {
        pick.dropped = Some(((*from).clone(), path.clone()));
    }
}

/// The layers of one level of the tree: a group or repeat folds (closed at first, opened
/// when it or a layer in it is selected), its children indented under it.
fn tree_ui(
    ui: &mut egui::Ui,
    list: &[toml::Spanned<Layer>],
    at: &mut LayerPath,
    selected: Option<&[usize]>,
    reveal: bool,
    pick: &mut Pick,
) {
    for (i, l) in list.iter().enumerate() {
        let l = l.get_ref();
        at.push(i);
        let on = selected == Some(at.as_slice());
        match l.layers.as_deref() {
            Some(children) if edit::holds_layers(l.kind) => {
                let id = ui.make_persistent_id(("template-layer", at.clone()));
                let mut fold = egui::collapsing_header::CollapsingState::load_with_default_open(
                    ui.ctx(),
                    id,
                    false,
                );
                if reveal && selected.is_some_and(|s| s.starts_with(at)) {
                    fold.set_open(true);
                }
                let path = at.clone();
                fold.show_header(ui, |ui| row_ui(ui, &path, l, on, pick))
                    .body(|ui| tree_ui(ui, children, at, selected, reveal, pick));
            }
            _ => row_ui(ui, at, l, on, pick),
        }
        at.pop();
    }
}

/// How the panel changed the layer this frame.
#[derive(Default)]
struct Changed {
    /// A key typed in (its edits join one undo step), else a step of its own.
    typed: Option<String>,
    any: bool,
}

impl Changed {
    fn typed(&mut self, key: &str) {
        if !self.any {
            self.typed = Some(key.to_string());
        }
        self.any = true;
    }
    fn step(&mut self) {
        self.typed = None;
        self.any = true;
    }
}

/// The selected layer's keys, edited in place (each change one undo step; typing into one
/// field is one step).
fn layer_panel_ui(ui: &mut egui::Ui, editor: &mut TemplateEditor, new_value: &mut String) {
    let Some(path) = editor.selected.clone() else {
        ui.weak("Click a layer on the card or in the list to edit it.");
        return;
    };
    let Some(layer) = editor.layer().cloned() else {
        return;
    };
    let place: Vec<String> = path.iter().map(|i| (i + 1).to_string()).collect();
    ui.strong(format!(
        "Layer {} ({})",
        place.join("."),
        layer.kind.as_str()
    ));
    if path.len() > 1 {
        ui.weak("Places are in mm from the top-left of the group (or a repeat's first cell).");
    }
    let mut l = layer.clone();
    let mut ch = Changed::default();
    egui::Grid::new("template-layer-grid")
        .num_columns(2)
        .show(ui, |ui| {
            text_row(ui, "name", &mut l.name, false, &mut ch);
            text_row(ui, "show when", &mut l.show_when, false, &mut ch);
            if l.kind != LayerType::Bleed {
                for (label, v) in [
                    ("x", &mut l.x),
                    ("y", &mut l.y),
                    ("w", &mut l.w),
                    ("h", &mut l.h),
                ] {
                    num_row(ui, label, v, &mut ch);
                }
                // Places given from the far edges, or centred, as the file has them.
                if l.right.is_some() {
                    num_row(ui, "right", &mut l.right, &mut ch);
                }
                if l.bottom.is_some() {
                    num_row(ui, "bottom", &mut l.bottom, &mut ch);
                }
                let m = ui.label("middle");
                let mut middle = l.middle == Some(true);
                if ui
                    .checkbox(&mut middle, "centred up and down (y unused)")
                    .labelled_by(m.id)
                    .changed()
                {
                    l.middle = middle.then_some(true);
                    ch.step();
                }
                ui.end_row();
            }
            match l.kind {
                LayerType::Text => {
                    if l.paragraphs.is_some() {
                        ui.label("text");
                        ui.horizontal_wrapped(|ui| {
                            ui.weak("rich text: paragraphs below");
                            if ui
                                .add_enabled(
                                    edit::plain_enough(&l),
                                    egui::Button::new("Plain text"),
                                )
                                .on_hover_text(
                                    "Back to one plain text (one paragraph of one run without a \
                                     font, colour or condition of its own)",
                                )
                                .clicked()
                                && edit::make_plain(&mut l)
                            {
                                ch.step();
                            }
                        });
                        ui.end_row();
                    } else {
                        text_row(ui, "text", &mut l.text, true, &mut ch);
                        ui.label("");
                        if ui
                            .button("Rich text")
                            .on_hover_text(
                                "Paragraphs of runs, each run in its own font and colour, shown \
                                 by its own condition",
                            )
                            .clicked()
                            && edit::make_rich(&mut l)
                        {
                            ch.step();
                        }
                        ui.end_row();
                    }
                    text_row(ui, "font", &mut l.font, false, &mut ch);
                    if l.size_share.is_some() {
                        num_row(ui, "size share", &mut l.size_share, &mut ch);
                    } else {
                        num_row(ui, "size", &mut l.size, &mut ch);
                    }
                    num_row(ui, "min size", &mut l.min_size, &mut ch);
                    color_row(ui, "color", &mut l.color, new_value, &mut ch);
                }
                LayerType::Rect | LayerType::Circle => {
                    color_row(ui, "fill", &mut l.fill, new_value, &mut ch);
                    color_row(ui, "stroke", &mut l.stroke, new_value, &mut ch);
                    num_row(ui, "stroke width", &mut l.stroke_width, &mut ch);
                    if l.kind == LayerType::Rect {
                        num_row(ui, "radius", &mut l.radius, &mut ch);
                    }
                }
                LayerType::Image => {
                    text_row(ui, "src", &mut l.src, false, &mut ch);
                    color_row(ui, "placeholder", &mut l.placeholder, new_value, &mut ch);
                }
                LayerType::Icon => {
                    text_row(ui, "icon", &mut l.icon, false, &mut ch);
                    color_row(ui, "color", &mut l.color, new_value, &mut ch);
                    color_row(ui, "fill", &mut l.fill, new_value, &mut ch);
                }
                LayerType::Bleed => color_row(ui, "fill", &mut l.fill, new_value, &mut ch),
                LayerType::Lattice => {
                    color_row(ui, "color", &mut l.color, new_value, &mut ch);
                    num_row(ui, "step", &mut l.step, &mut ch);
                }
                LayerType::Repeat => {
                    text_row(ui, "over", &mut l.over, false, &mut ch);
                    text_row(ui, "sort by", &mut l.sort_by, false, &mut ch);
                    text_row(ui, "span by", &mut l.span_by, false, &mut ch);
                    num_row(ui, "gap", &mut l.gap, &mut ch);
                }
                LayerType::Block => {
                    text_row(ui, "block", &mut l.block, false, &mut ch);
                    color_row(ui, "color", &mut l.color, new_value, &mut ch);
                }
                LayerType::Group => {}
            }
        });
    if l.kind == LayerType::Text && l.paragraphs.is_some() {
        let fonts: Vec<String> = editor.face.fonts.iter().map(|(n, _)| n.clone()).collect();
        rich_text_ui(ui, &mut l, &fonts, new_value, &mut ch);
    }
    if ch.any && l != layer {
        let set = |t: &mut Template| {
            if let Some(at) = edit::get_mut(t, &path) {
                *at = l;
            }
        };
        match ch.typed {
            Some(key) => editor.edit_typed(&key, set),
            None => editor.edit(set),
        }
    }
}

/// A change of a rich text's paragraphs or runs asked by a button.
enum RichOp {
    AddParagraph(Option<usize>),
    DeleteParagraph(usize),
    ShiftParagraph(usize, isize),
    AddRun(usize),
    DeleteRun(edit::RunAt),
    ShiftRun(edit::RunAt, isize),
}

/// A text layer's rich text: each paragraph (its condition and the list it repeats over)
/// and its runs (text with bindings, font, colour, condition), with the buttons that add,
/// delete and reorder them (through `print::template::edit`, each one undo step).
fn rich_text_ui(
    ui: &mut egui::Ui,
    l: &mut Layer,
    fonts: &[String],
    new_value: &mut String,
    ch: &mut Changed,
) {
    ui.separator();
    ui.strong("Rich text");
    ui.weak("Paragraphs one under another; runs one after another in a line.");
    let mut op = None;
    let n = l.paragraphs.as_ref().map_or(0, Vec::len);
    for p in 0..n {
        let Some(para) = l.paragraphs.as_mut().and_then(|ps| ps.get_mut(p)) else {
            break;
        };
        let runs = para.spans.len();
        ui.group(|ui| {
            ui.horizontal_wrapped(|ui| {
                ui.strong(format!("Paragraph {}", p + 1));
                if ui
                    .add_enabled(
                        p > 0,
                        egui::Button::new(format!("Move paragraph {} up", p + 1)),
                    )
                    .clicked()
                {
                    op = Some(RichOp::ShiftParagraph(p, -1));
                }
                if ui
                    .add_enabled(
                        p + 1 < n,
                        egui::Button::new(format!("Move paragraph {} down", p + 1)),
                    )
                    .clicked()
                {
                    op = Some(RichOp::ShiftParagraph(p, 1));
                }
                if ui
                    .add_enabled(
                        n > 1,
                        egui::Button::new(format!("Delete paragraph {}", p + 1)),
                    )
                    .clicked()
                {
                    op = Some(RichOp::DeleteParagraph(p));
                }
            });
            egui::Grid::new(("template-paragraph", p))
                .num_columns(2)
                .show(ui, |ui| {
                    let at = format!("paragraph {}", p + 1);
                    text_row(
                        ui,
                        &format!("{at} show when"),
                        &mut para.show_when,
                        false,
                        ch,
                    );
                    text_row(ui, &format!("{at} for each"), &mut para.for_each, false, ch);
                });
            for (s, run) in para.spans.iter_mut().enumerate() {
                let at = format!("run {}.{}", p + 1, s + 1);
                ui.separator();
                ui.horizontal_wrapped(|ui| {
                    ui.label(format!("Run {}.{}", p + 1, s + 1));
                    if ui
                        .add_enabled(s > 0, egui::Button::new(format!("Move {at} earlier")))
                        .clicked()
                    {
                        op = Some(RichOp::ShiftRun((p, s), -1));
                    }
                    if ui
                        .add_enabled(s + 1 < runs, egui::Button::new(format!("Move {at} later")))
                        .clicked()
                    {
                        op = Some(RichOp::ShiftRun((p, s), 1));
                    }
                    if ui
                        .add_enabled(runs > 1, egui::Button::new(format!("Delete {at}")))
                        .clicked()
                    {
                        op = Some(RichOp::DeleteRun((p, s)));
                    }
                });
                egui::Grid::new(("template-run", p, s))
                    .num_columns(2)
                    .show(ui, |ui| {
                        let label = format!("{at} text");
                        let w = ui.label(&label);
                        if ui
                            .add(egui::TextEdit::singleline(&mut run.text).desired_width(170.0))
                            .labelled_by(w.id)
                            .changed()
                        {
                            ch.typed(&label);
                        }
                        ui.end_row();
                        let f = ui.label(format!("{at} font"));
                        let before = run.font.clone();
                        egui::ComboBox::from_id_salt(("template-run-font", p, s))
                            .selected_text(run.font.as_deref().unwrap_or("the layer's"))
                            .show_ui(ui, |ui| {
                                ui.selectable_value(&mut run.font, None, "the layer's");
                                for name in fonts {
                                    ui.selectable_value(&mut run.font, Some(name.clone()), name);
                                }
                            })
                            .response
                            .labelled_by(f.id);
                        if run.font != before {
                            ch.step();
                        }
                        ui.end_row();
                        color_row(ui, &format!("{at} color"), &mut run.color, new_value, ch);
                        text_row(
                            ui,
                            &format!("{at} show when"),
                            &mut run.show_when,
                            false,
                            ch,
                        );
                    });
            }
            if ui
                .button(format!("Add run to paragraph {}", p + 1))
                .on_hover_text("A new run at the end of the paragraph")
                .clicked()
            {
                op = Some(RichOp::AddRun(p));
            }
        });
    }
    if ui
        .button("Add paragraph")
        .on_hover_text("A new paragraph at the end")
        .clicked()
    {
        op = Some(RichOp::AddParagraph(n.checked_sub(1)));
    }
    let done = match op {
        None => return,
        Some(RichOp::AddParagraph(after)) => edit::add_paragraph(l, after).is_some(),
        Some(RichOp::DeleteParagraph(p)) => edit::remove_paragraph(l, p).is_some(),
        Some(RichOp::ShiftParagraph(p, by)) => edit::shift_paragraph(l, p, by).is_some(),
        Some(RichOp::AddRun(p)) => edit::add_run(l, p, None).is_some(),
        Some(RichOp::DeleteRun(at)) => edit::remove_run(l, at).is_some(),
        Some(RichOp::ShiftRun(at, by)) => edit::shift_run(l, at, by).is_some(),
    };
    if done {
        ch.step();
    }
}

fn text_row(ui: &mut egui::Ui, label: &str, v: &mut Option<String>, multi: bool, ch: &mut Changed) {
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
        ch.typed(label);
    }
    ui.end_row();
}

fn num_row(ui: &mut egui::Ui, label: &str, v: &mut Option<f64>, ch: &mut Changed) {
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
        ch.typed(label);
    }
    ui.end_row();
}

/// A colour key: one colour (`#hex` or `$name`), or a colour per value of a field (the
/// field, a colour for each value, a default), turned from one to the other by a button.
fn color_row(
    ui: &mut egui::Ui,
    label: &str,
    v: &mut Option<template::format::ColorSpec>,
    new_value: &mut String,
    ch: &mut Changed,
) {
    use template::format::{ColorBy, ColorSpec};
    let l = ui.label(label);
    match v {
        Some(ColorSpec::By(by)) => {
            let mut one = None;
            ui.vertical(|ui| {
                ui.horizontal(|ui| {
                    ui.label("by field");
                    let mut field = by.by.clone();
                    if ui
                        .add(egui::TextEdit::singleline(&mut field).desired_width(110.0))
                        .labelled_by(l.id)
                        .changed()
                    {
                        by.by = field;
                        ch.typed(&format!("{label} by"));
                    }
                });
                let mut gone = None;
                for (value, color) in by.values.iter_mut() {
                    ui.horizontal(|ui| {
                        let name = format!("{label} when {value}");
                        let w = ui.label(format!("= {value}"));
                        if ui
                            .add(egui::TextEdit::singleline(color).desired_width(110.0))
                            .labelled_by(w.id)
                            .on_hover_text(&name)
                            .changed()
                        {
                            ch.typed(&name);
                        }
                        if ui.button(format!("Remove {value}")).clicked() {
                            gone = Some(value.clone());
                        }
                    });
                }
                if let Some(g) = gone {
                    by.values.remove(&g);
                    ch.step();
                }
                ui.horizontal(|ui| {
                    let d = ui.label("otherwise");
                    let mut s = by.default.clone().unwrap_or_default();
                    if ui
                        .add(egui::TextEdit::singleline(&mut s).desired_width(110.0))
                        .labelled_by(d.id)
                        .changed()
                    {
                        by.default = (!s.is_empty()).then_some(s);
                        ch.typed(&format!("{label} default"));
                    }
                });
                ui.horizontal(|ui| {
                    let n = ui.label("value");
                    ui.add(egui::TextEdit::singleline(new_value).desired_width(90.0))
                        .labelled_by(n.id);
                    let value = new_value.trim().to_string();
                    if ui
                        .add_enabled(
                            !value.is_empty() && !by.values.contains_key(&value),
                            egui::Button::new(format!("Add {label} value")),
                        )
                        .clicked()
                    {
                        let c = by.default.clone().unwrap_or_else(|| "#888888".into());
                        by.values.insert(value, c);
                        new_value.clear();
                        ch.step();
                    }
                });
                if ui.button(format!("One {label}")).clicked() {
                    one = Some(by.default.clone().unwrap_or_else(|| "#888888".into()));
                }
            });
            if let Some(one) = one {
                *v = Some(ColorSpec::Fixed(one));
                ch.step();
            }
        }
        _ => {
            ui.horizontal(|ui| {
                let mut s = match v {
                    Some(ColorSpec::Fixed(s)) => s.clone(),
                    _ => String::new(),
                };
                if ui
                    .add(egui::TextEdit::singleline(&mut s).desired_width(120.0))
                    .labelled_by(l.id)
                    .changed()
                {
                    *v = (!s.is_empty()).then(|| ColorSpec::Fixed(s.clone()));
                    ch.typed(label);
                }
                if ui
                    .button(format!("{label} per value"))
                    .on_hover_text("A different colour for each value of a card field")
                    .clicked()
                {
                    *v = Some(ColorSpec::By(ColorBy {
                        by: "kind".into(),
                        values: Default::default(),
                        default: (!s.is_empty()).then_some(s),
                    }));
                    ch.step();
                }
            });
        }
    }
    ui.end_row();
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The bundled Iconica character template and the first bundled card `pick` takes.
    fn iconica_character(pick: impl Fn(&Card) -> bool) -> (TemplateEditor, Card) {
        let e = TemplateEditor::bundled(Game::Iconica, "character").unwrap();
        let card = crate::catalogue::bundled_cards()
            .unwrap()
            .into_iter()
            .find(|c| pick(c))
            .unwrap();
        (e, card)
    }

    #[test]
    fn moves_resizes_undoes_and_saves_a_template() {
        let (mut e, card) = iconica_character(|c| c.game() == Game::Iconica);
        let card = Some(&card);
        // The name's box is under its point; the bleed is never picked.
        let name = e.hit(card, 20.0, 7.0).unwrap();
        assert_eq!(
            edit::get(&e.face.template, &name).unwrap().text.as_deref(),
            Some("{name}")
        );
        assert_eq!(e.hit(card, 0.5, 0.5), None);
        e.select(Some(name.clone()));
        let before = e.layer_box(card, &name).unwrap();
        e.nudge(card, 1.0, 2.0, 0.0, 0.0);
        e.nudge(card, 0.0, 0.0, -3.0, 1.0);
        let after = e.layer_box(card, &name).unwrap();
        assert!((after.x - before.x - 1.0).abs() < 0.01);
        assert!((after.y - before.y - 2.0).abs() < 0.01);
        assert!((after.w - before.w + 3.0).abs() < 0.01);
        e.undo();
        assert!((e.layer_box(card, &name).unwrap().w - before.w).abs() < 0.01);
        e.redo();
        assert!(e.dirty);
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("mine.toml");
        e.save(&path).unwrap();
        let back = TemplateEditor::open(&path).unwrap();
        assert_eq!(back.face.template, e.face.template);
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            edit::to_text(&e.face.template).unwrap()
        );
        // A broken edit is shown and not saved.
        e.edit(|t| edit::get_mut(t, &name).unwrap().size = Some(9999.0));
        assert!(
            e.problem
                .as_deref()
                .unwrap()
                .contains("text is 0.1 to 100 mm high")
        );
        assert!(e.save(&path).unwrap_err().contains("not saved"));
    }

    #[test]
    fn a_nested_layer_moves_in_its_group_and_typing_is_one_undo_step() {
        let (mut e, card) = iconica_character(|c| c.game() == Game::Iconica);
        let card = Some(&card);
        let (die, _) = edit::walk(&e.face.template)
            .into_iter()
            .find(|(_, l)| l.name.as_deref() == Some("die"))
            .unwrap();
        e.select(Some(die.clone()));
        let before = e.layer_box(card, &die).unwrap();
        e.nudge(card, 0.5, 0.0, 1.0, 0.0);
        let after = e.layer_box(card, &die).unwrap();
        assert!(
            (after.x - before.x - 0.5).abs() < 0.01,
            "{before:?} {after:?}"
        );
        assert!((after.w - before.w - 1.0).abs() < 0.01);
        assert!((after.y - before.y).abs() < 0.01);
        // Three letters typed into one field: one step back.
        let steps = e.undo.len();
        for name in ["d", "di", "dic"] {
            e.edit_typed("name", |t| {
                edit::get_mut(t, &die).unwrap().name = Some(name.into())
            });
        }
        assert_eq!(e.undo.len(), steps + 1);
        e.undo();
        assert_eq!(e.layer().unwrap().name.as_deref(), Some("die"));
        // Added inside a group, moved up, deleted: each one step.
        let group = die[..1].to_vec();
        e.select(Some(group.clone()));
        e.add(LayerType::Icon);
        let icon = e.selected.clone().unwrap();
        assert_eq!(icon[..1], group[..]);
        assert_eq!(e.layer().unwrap().kind, LayerType::Icon);
        e.shift(-1);
        assert_eq!(
            e.selected.as_ref().unwrap().last(),
            Some(&(icon.last().unwrap() - 1))
        );
        e.delete();
        assert!(e.selected.is_none());
        e.undo();
        e.undo();
        e.undo();
        assert!(edit::get(&e.face.template, &icon).is_none());
        assert!(e.problem.is_none(), "{:?}", e.problem);
    }
    #[test]
    fn a_layer_moved_into_and_out_of_a_group_is_one_undo_step_each_and_undo_gives_the_file_back() {
        let (mut e, card) = iconica_character(|c| c.id() == "ico-grumbolt");
        let card = Some(&card);
        let file = e.text().unwrap();
        let (portrait, _) = edit::walk(&e.face.template)
            .into_iter()
            .find(|(_, l)| l.name.as_deref() == Some("portrait"))
            .unwrap();
        let b = e.layer_box(card, &portrait).unwrap();
        e.select(Some(portrait.clone()));
        e.move_into_group(card, false);
        let inside = e.selected.clone().unwrap();
        assert_eq!(inside.len(), 2);
        assert_eq!(e.layer().unwrap().name.as_deref(), Some("portrait"));
        let moved = e.layer_box(card, &inside).unwrap();
        assert!((moved.x - b.x).abs() < 0.002 && (moved.y - b.y).abs() < 0.002);
        // Out again: just after the group (which it was in front of).
        e.move_out_of_group(card);
        assert_eq!(e.selected, Some(vec![portrait[0] + 1]));
        assert_eq!(e.layer().unwrap().name.as_deref(), Some("portrait"));
        assert_eq!(e.undo.len(), 2);
        assert!(e.problem.is_none(), "{:?}", e.problem);
        e.undo();
        assert_ne!(e.text().unwrap(), file);
        assert_eq!(
            e.selected.as_ref(),
            Some(&inside),
            "undo selects the layer where it was"
        );
        assert_eq!(e.layer().unwrap().name.as_deref(), Some("portrait"));
        e.undo();
        assert_eq!(e.selected.as_ref(), Some(&portrait));
        assert_eq!(e.text().unwrap(), file);
        assert!(!e.can_undo());
        // Nothing to move into: no change, no undo step.
        e.select(Some(vec![0]));
        e.move_into_group(card, true);
        e.move_out_of_group(card);
        assert!(!e.can_undo());
    }
}
