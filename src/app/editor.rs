//! The card editor: a card's TOML in a code editor, checked by the core's strict card parser
//! as you type, beside the card as the print renderer draws it. New cards start from the
//! core's templates; Ctrl+S puts the card into the catalogue.
//!
//! An Iconica character or an Arcadia card can also be edited in a Form view ([`card_form`],
//! [`arcadia_form`]): each discrete form edit (a drop-down, a tile, a feature chip) is one
//! undo step, typing in the form's text fields a burst at a time like typing in the source;
//! the form writes the TOML anew through the core.
//!
//! Typing is recorded in the app's undo history (kept in the catalogue) a burst at a time:
//! the text typed since the last pause of [`PAUSE`] seconds is one edit, taken in by the app
//! with [`CardEditor::commit`] before any other edit, undo or redo.

mod arcadia_balance;
mod arcadia_form;
mod balance_panel;
mod card_form;
mod notes_panel;
mod ruunara_form;

use egui::text::{CCursor, CCursorRange};

use super::cache::Memo;
use super::core;
use super::{Action, Env};
use crate::cards::{Card, CardError};
use crate::games::arcadia::edit as arcadia_core;
use crate::games::arcadia::model::ArcadiaCard;
use crate::games::iconica::edit as form_core;
use crate::games::iconica::model::Character;
use crate::games::ruunara::edit as ruunara_core;

/// Seconds without a keystroke that end a burst of typing (one undo step).
pub const PAUSE: f64 = 1.0;

/// The label of a burst of typing in the undo history.
pub const TYPING: &str = "typing in the card";

/// The app state key of the view last shown (Source or Form).
const VIEW_KEY: &str = "editor.view";

/// The width the source or the form keeps beside the preview, however wide it was dragged.
const MIN_EDITOR_WIDTH: f32 = 380.0;

/// The code editor's left margin, where the line numbers are.
const GUTTER: i8 = 48;

/// The id of the code editor's text field.
fn source_id() -> egui::Id {
    egui::Id::unique("card-source")
}

/// The card editor screen.
#[derive(Default)]
pub struct CardEditor {
    /// The text in the code editor.
    text: String,
    /// The text the undo history holds (what was typed since is pending).
    committed: String,
    /// When (egui time) the pending typing last changed.
    typed_at: Option<f64>,
    /// The text the parser last read, and what it said.
    checked: Option<String>,
    error: Option<CardError>,
    /// The card of the last text that read as one: the preview draws it.
    good: Option<Card>,
    texture: Option<egui::TextureHandle>,
    /// The preview width the texture was drawn for.
    texture_width: f32,
    /// How the card stands against the catalogue, by text.
    standing: Memo<Standing>,
    /// Focus the code editor on the next frame.
    pub focus: bool,
    /// Put the cursor here (1-based line and column) on the next frame.
    goto: Option<(usize, usize)>,
    /// The view shown: the TOML source or the form; `None` until read from the app state.
    view: Option<View>,
    /// The text as a card for the form (read without the format's rules), or why not.
    form: Option<Result<FormCard, String>>,
    /// The Balance panel beside the preview (Iconica characters).
    balance: balance_panel::BalancePanel,
    /// The Balance panel of an Arcadia merit or flaw (shown when the panel is on).
    arcadia_balance: arcadia_balance::ArcadiaBalance,
    /// The playtest notes that mention the card, from a folder of match files.
    notes: notes_panel::NotesPanel,
}

/// A card the Form view edits (one at a time, so the variants' sizes do not matter).
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq)]
enum FormCard {
    Iconica(Character),
    Arcadia(ArcadiaCard),
    Ruunara(crate::games::ruunara::model::Figure),
}

impl FormCard {
    /// Reads `text` for the form, each game's cards by its own core reader.
    fn read(text: &str) -> Result<FormCard, String> {
        if let Some(f) = ruunara_core::read(text, core::EDITED_CARD).map_err(|e| e.to_string())? {
            return Ok(FormCard::Ruunara(f));
        }
        match arcadia_core::read(text, core::EDITED_CARD) {
            Ok(c) => Ok(FormCard::Arcadia(c)),
            Err(arcadia_core::FormError::NotArcadia { game, .. }) if game != "arcadia" => {
                form_core::read(text, core::EDITED_CARD)
                    .map(FormCard::Iconica)
                    .map_err(|e| e.to_string())
            }
            Err(e) => Err(e.to_string()),
        }
    }
}

/// How the card is edited.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum View {
    /// The TOML in a code editor.
    #[default]
    Source,
    /// An Iconica character or an Arcadia card as a form.
    Form,
}

impl View {
    fn key(self) -> &'static str {
        match self {
            View::Source => "source",
            View::Form => "form",
        }
    }
}

/// The edited card against the catalogue's card of the same id.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Standing {
    New,
    Same,
    Changed,
}

impl CardEditor {
    /// Is the Balance panel on (measuring the edited Iconica character)?
    pub fn balance_on(&self) -> bool {
        self.balance.on
    }

    /// Turns the Balance panel on or off (a run in flight is cancelled when off).
    pub fn set_balance_on(&mut self, on: bool) {
        self.balance.on = on;
        if !on {
            self.balance.cancel();
            self.arcadia_balance.cancel();
        }
    }

    /// How the Arcadia Balance panel measures: the AI of both sides, the most pairs a
    /// verdict plays, and when an impact run stops (tests measure quickly with these).
    pub fn set_arcadia_balance_measure(
        &mut self,
        ai: crate::games::ai::Policy,
        max_pairs: u64,
        stopping: crate::balance::Stopping,
    ) {
        self.arcadia_balance.cancel();
        self.arcadia_balance.ai = ai;
        self.arcadia_balance.max_pairs = max_pairs;
        self.arcadia_balance.stopping = stopping;
    }

    /// Is the Arcadia Balance panel measuring?
    pub fn arcadia_balance_running(&self) -> bool {
        self.arcadia_balance.running()
    }

    /// How the Balance panel measures: the AI of both sides and the stopping rule (the
    /// defaults: `greedy`, precision 0.02, at most 100,000 games).
    pub fn set_balance_measure(
        &mut self,
        ai: crate::games::ai::Policy,
        stopping: crate::balance::Stopping,
    ) {
        self.balance.ai = ai;
        self.balance.stopping = stopping;
        self.balance.cancel();
    }

    /// The text in the editor.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// Replaces the whole text (opening a card, a template, undo); nothing is pending after.
    pub fn load(&mut self, text: &str) {
        self.text = text.to_string();
        self.committed = self.text.clone();
        self.typed_at = None;
    }

    /// The typing not yet in the undo history, as (before, after), now taken in.
    pub fn commit(&mut self) -> Option<(String, String)> {
        self.typed_at = None;
        if self.text == self.committed {
            return None;
        }
        let before = std::mem::replace(&mut self.committed, self.text.clone());
        Some((before, self.text.clone()))
    }

    /// True when pending typing has paused long enough to be one undo step (`now`: egui time).
    pub fn typing_paused(&self, now: f64) -> bool {
        self.typed_at.is_some_and(|t| now - t >= PAUSE)
    }

    /// True while typing is waiting to be recorded.
    pub fn typing(&self) -> bool {
        self.typed_at.is_some()
    }

    /// The parser's verdict on the text: the card, or the error with its line and column.
    pub fn error(&self) -> Option<&CardError> {
        self.error.as_ref()
    }

    /// The card the text holds, when it reads as one.
    pub fn card(&self) -> Option<&Card> {
        match self.error {
            None => self.good.as_ref(),
            Some(_) => None,
        }
    }

    /// The view shown.
    pub fn view(&self) -> View {
        self.view.unwrap_or_default()
    }

    /// Shows the source or the form (remembered in the catalogue's app state).
    fn set_view(&mut self, view: View, env: &Env) {
        self.view = Some(view);
        let _ = env.cat.set_state(VIEW_KEY, view.key());
    }

    /// Reads the text again when it changed since the last check.
    fn check(&mut self) {
        if self.checked.as_deref() == Some(self.text.as_str()) {
            return;
        }
        self.checked = Some(self.text.clone());
        self.form = Some(FormCard::read(&self.text));
        if self.text.trim().is_empty() {
            self.error = None;
            self.good = None;
            self.texture = None;
            return;
        }
        match core::check_card(&self.text) {
            Ok(card) => {
                if self.good.as_ref() != Some(&card) {
                    self.good = Some(card);
                    self.texture = None;
                }
                self.error = None;
            }
            Err(e) => self.error = Some(e),
        }
    }

    pub fn ui(&mut self, ui: &mut egui::Ui, env: &mut Env) {
        if self.view.is_none() {
            let saved = env.cat.state(VIEW_KEY).ok().flatten();
            self.view = Some(match saved.as_deref() {
                Some("form") => View::Form,
                _ => View::Source,
            });
        }
        self.check();
        self.dropped_art(ui, env);
        let standing = self.standing(env);
        self.toolbar_ui(ui, env, standing);
        ui.separator();
        let wide = (ui.available_width() * 0.42).max(300.0);
        // The editor keeps room when the window shrinks below a preview widened before.
        let widest = (ui.available_width() - MIN_EDITOR_WIDTH).max(220.0);
        let arcadia = arcadia_balance::subject_of(self.good.as_ref()).is_some();
        if !arcadia || !self.balance.on {
            self.arcadia_balance.cancel();
        }
        if arcadia && self.balance.on {
            self.balance.cancel();
            egui::Panel::right("card-balance")
                .resizable(true)
                .default_size(320.0)
                .min_size(220.0)
                .show(ui, |ui| {
                    egui::ScrollArea::vertical().show(ui, |ui| {
                        let applied = self.arcadia_balance.ui(ui, env, self.good.as_ref());
                        if let Some((label, after)) = applied {
                            env.push(Action::EditCard { label, after });
                        }
                    });
                });
        } else if !matches!(self.good, Some(Card::Iconica(_))) || !self.balance.on {
            self.balance.cancel();
        } else {
            egui::Panel::right("card-balance")
                .resizable(true)
                .default_size(320.0)
                .min_size(220.0)
                .show(ui, |ui| {
                    egui::ScrollArea::vertical().show(ui, |ui| {
                        let applied =
                            self.balance
                                .ui(ui, env.cat, env.generation, self.good.as_ref());
                        if let Some((label, card)) = applied {
                            env.push(Action::EditCard {
                                label,
                                after: form_core::write(&card),
                            });
                        }
                    });
                });
        }
        egui::Panel::right("card-preview")
            .resizable(true)
            .default_size(wide.min(widest))
            .min_size(220.0)
            .max_size(widest)
            .show(ui, |ui| self.preview_ui(ui, env, standing));
        egui::Panel::bottom("card-check")
            .resizable(false)
            .show(ui, |ui| self.verdict_ui(ui, env));
        egui::CentralPanel::default().show(ui, |ui| {
            self.view_switch_ui(ui, env);
            match self.view() {
                View::Source => self.source_ui(ui),
                View::Form => self.form_ui(ui, env),
            }
        });
    }

    fn view_switch_ui(&mut self, ui: &mut egui::Ui, env: &Env) {
        ui.horizontal(|ui| {
            for (view, label, hint) in [
                (View::Source, "Source", "Edit the card's TOML"),
                (
                    View::Form,
                    "Form",
                    "Edit an Iconica character, an Arcadia card or a Ruunara figure with fields and drop-downs",
                ),
            ] {
                if ui
                    .selectable_label(self.view() == view, label)
                    .on_hover_text(hint)
                    .clicked()
                    && self.view() != view
                {
                    self.set_view(view, env);
                }
            }
        });
    }

    fn form_ui(&mut self, ui: &mut egui::Ui, env: &mut Env) {
        if self.text.trim().is_empty() {
            self.no_form_ui(ui, env, "there is no card yet: start one with “New card”");
            return;
        }
        let card = match &self.form {
            Some(Ok(c)) => c.clone(),
            Some(Err(e)) => {
                let why = e.to_string();
                self.no_form_ui(ui, env, &why);
                return;
            }
            None => return,
        };
        let edit =
            match &card {
                FormCard::Iconica(c) => {
                    card_form::ui(ui, c).map(|e| (form_core::write(&e.card), e.label, e.typing))
                }
                FormCard::Arcadia(c) => arcadia_form::ui(ui, c)
                    .map(|e| (arcadia_core::write(&e.card), e.label, e.typing)),
                FormCard::Ruunara(c) => ruunara_form::ui(ui, c)
                    .map(|e| (ruunara_core::write(&e.card), e.label, e.typing)),
            };
        let Some((after, label, typing)) = edit else {
            return;
        };
        if typing {
            self.text = after;
            self.typed_at = Some(ui.input(|i| i.time));
        } else {
            env.push(Action::EditCard { label, after });
        }
    }

    fn no_form_ui(&mut self, ui: &mut egui::Ui, env: &Env, why: &str) {
        ui.label(format!("No form for this text: {why}."));
        if ui.button("Show the Source view").clicked() {
            self.set_view(View::Source, env);
        }
    }

    fn toolbar_ui(&mut self, ui: &mut egui::Ui, env: &mut Env, standing: Option<Standing>) {
        ui.horizontal(|ui| {
            ui.heading("Card editor");
            ui.menu_button("New card", |ui| {
                let mut game = None;
                for t in core::card_templates() {
                    if game.is_some() && game != Some(t.game) {
                        ui.separator();
                    }
                    game = Some(t.game);
                    if ui
                        .button(format!("{} {}", t.game.title(), t.kind))
                        .on_hover_text(format!(
                            "Start a new {} {} from a template",
                            t.game.title(),
                            t.kind
                        ))
                        .clicked()
                    {
                        env.push(Action::ReplaceCard {
                            label: format!("new {} {}", t.game.title(), t.kind),
                            after: t.text.to_string(),
                        });
                        self.focus = true;
                        ui.close();
                    }
                }
            })
            .response
            .on_hover_text("Start a new card of any kind of any game from a template");
            let valid = self.card().is_some();
            if ui
                .add_enabled(
                    valid,
                    egui::Button::new("Save to catalogue").shortcut_text("Ctrl+S"),
                )
                .on_hover_text("Put the card into the catalogue, replacing the card with its id")
                .on_disabled_hover_text("Fix the error below first: only a valid card is saved")
                .clicked()
            {
                env.push(Action::SaveCard);
            }
            if ui
                .add_enabled(valid, egui::Button::new("Save as file…"))
                .on_hover_text("Write the card's TOML to a file of your choice")
                .on_disabled_hover_text("Fix the error below first: only a valid card is written")
                .clicked()
            {
                self.save_file(ui.ctx(), env);
            }
            if let Some(card) = self.card().filter(|_| standing != Some(Standing::New)) {
                let id = card.id().to_string();
                if ui
                    .button("Show in browser")
                    .on_hover_text("Select this card in the browser")
                    .clicked()
                {
                    env.push(Action::ShowCard(id));
                }
            }
        });
    }

    fn save_file(&self, ctx: &egui::Context, env: &mut Env) {
        let Some(card) = self.card() else { return };
        let d = super::files::Dialog::save(format!("{}.toml", card.id()))
            .filter("card file", &["toml"]);
        let text = self.text.clone();
        super::files::ask(ctx, env, d, move |_, paths| {
            paths
                .iter()
                .map(|path| match core::write_card_file(&text, path) {
                    Ok(m) => Action::Notify(m),
                    Err(e) => Action::Error(e.chain()),
                })
                .collect()
        });
    }

    fn source_ui(&mut self, ui: &mut egui::Ui) {
        let label = ui.label("TOML source:");
        let error_line = self.error.as_ref().map(|e| e.line);
        egui::ScrollArea::both()
            .id_salt("card-source-scroll")
            .auto_shrink(false)
            .show(ui, |ui| {
                let mut layouter = |ui: &egui::Ui, text: &dyn egui::TextBuffer, wrap: f32| {
                    let job = super::toml_view::highlight(ui, text.as_str(), error_line, wrap);
                    ui.fonts_mut(|f| f.layout_job(job))
                };
                let rows = (ui.available_height()
                    / ui.text_style_height(&egui::TextStyle::Monospace))
                    as usize;
                let output = egui::TextEdit::multiline(&mut self.text)
                    .id(source_id())
                    .code_editor()
                    .lock_focus(true)
                    .desired_width(f32::INFINITY)
                    .desired_rows(rows.saturating_sub(1).max(4))
                    .margin(egui::Margin {
                        left: GUTTER,
                        right: 4,
                        top: 4,
                        bottom: 4,
                    })
                    .layouter(&mut layouter)
                    .show(ui);
                let response = output.response.response.labelled_by(label.id);
                super::toml_view::line_numbers(ui, &output.galley, output.galley_pos);
                if response.changed() {
                    self.typed_at = Some(ui.input(|i| i.time));
                }
                if self.focus {
                    response.request_focus();
                    self.focus = false;
                }
                if let Some((line, col)) = self.goto.take() {
                    let at = char_index(&self.text, line, col);
                    if let Some(mut state) = egui::TextEdit::load_state(ui.ctx(), source_id()) {
                        state
                            .cursor
                            .set_char_range(Some(CCursorRange::one(CCursor::new(at))));
                        state.store(ui.ctx(), source_id());
                    }
                    response.request_focus();
                }
            });
    }

    fn verdict_ui(&mut self, ui: &mut egui::Ui, env: &Env) {
        ui.add_space(4.0);
        if self.text.trim().is_empty() {
            ui.weak("Start a card with “New card”, or open one with “Edit card” in the browser.");
        } else if let Some(e) = &self.error {
            let key = e
                .key
                .as_deref()
                .map(|k| format!("key `{k}`: "))
                .unwrap_or_default();
            let text = format!("{}:{}: {key}{}", e.line, e.column, e.message);
            let shown = egui::RichText::new(text)
                .monospace()
                .color(ui.visuals().error_fg_color);
            if ui
                .add(egui::Label::new(shown).wrap().sense(egui::Sense::click()))
                .on_hover_text("Line:column of the problem; click to put the cursor there (in the Source view)")
                .clicked()
            {
                self.goto = Some((e.line, e.column));
                if self.view() != View::Source {
                    self.set_view(View::Source, env);
                }
            }
        } else if let Some(card) = &self.good {
            ui.label(format!(
                "Valid {} {} “{}” ({}).",
                card.game().title(),
                card.kind(),
                card.name(),
                card.id()
            ));
            if let Some(w) = core::art_warning(env.cat, card) {
                ui.colored_label(ui.visuals().warn_fg_color, w);
            }
        }
        ui.add_space(2.0);
    }

    /// An image dropped on the card screen becomes the card's art (one undo step).
    fn dropped_art(&mut self, ui: &egui::Ui, env: &mut Env) {
        let (hovering, dropped) =
            ui.input(|i| (!i.raw.hovered_files.is_empty(), i.raw.dropped_files.clone()));
        if dropped.is_empty() && !hovering {
            return;
        }
        if hovering {
            ui.ctx().debug_painter().debug_text(
                ui.max_rect().center(),
                egui::Align2::CENTER_CENTER,
                egui::Color32::WHITE,
                "Drop a PNG or JPEG to make it the card's art",
            );
        }
        let Some(path) = dropped
            .iter()
            .map(|f| f.path().to_path_buf())
            .find(|p| core::is_image(p))
        else {
            if let Some(other) = dropped.first().map(|f| f.path().to_path_buf()) {
                env.push(Action::Notify(format!(
                    "{} is not a PNG or JPEG image; the art was not changed.",
                    other.display()
                )));
            }
            return;
        };
        match core::set_art_in_text(&self.text, &path) {
            Ok(after) => env.push(Action::EditCard {
                label: "set art".into(),
                after,
            }),
            Err(e) => env.push(Action::Notify(e)),
        }
    }

    /// How the valid card stands against the catalogue (`None` while the text is invalid).
    fn standing(&mut self, env: &Env) -> Option<Standing> {
        let card = self.card()?.clone();
        Some(self.standing.get(env.generation, self.text.clone(), || {
            // The card as it is stored: art outside the catalogue names the copy beside it.
            match core::card(env.cat, card.id()) {
                None => Standing::New,
                Some(c) if c == core::as_stored(env.cat, &card) => Standing::Same,
                Some(_) => Standing::Changed,
            }
        }))
    }

    fn preview_ui(&mut self, ui: &mut egui::Ui, env: &mut Env, standing: Option<Standing>) {
        // The panel keeps its width whatever it draws.
        ui.set_min_width(ui.available_width());
        let Some(card) = &self.good else {
            ui.weak(if self.error.is_some() {
                "No preview yet: the card is drawn once its text is valid."
            } else {
                "The card is drawn here as you type."
            });
            return;
        };
        let stale = self.error.is_some();
        if matches!(card, Card::Iconica(_)) {
            ui.toggle_value(&mut self.balance.on, "Balance panel")
                .on_hover_text("Measure this character against the field as you edit it");
        } else if arcadia_balance::subject_of(Some(card)).is_some() {
            ui.toggle_value(&mut self.balance.on, "Balance panel")
                .on_hover_text("Measure this merit or flaw against your field and the bundled one");
        }
        ui.horizontal_wrapped(|ui| match standing {
            None => {
                ui.colored_label(
                    ui.visuals().warn_fg_color,
                    "Stale: the last valid text, drawn until the error is fixed",
                );
            }
            Some(Standing::New) => {
                ui.weak("Not in the catalogue yet (Ctrl+S adds it)");
            }
            Some(Standing::Same) => {
                ui.weak("Same as the catalogue's card");
            }
            Some(Standing::Changed) => {
                ui.weak("Differs from the catalogue's card (Ctrl+S replaces it)");
            }
        });
        self.notes.ui(ui, env, card.name());
        let room = ui.available_size() - egui::vec2(8.0, 8.0);
        let width = (room.x.min(room.y * 63.0 / 88.0) / 20.0).floor() * 20.0;
        let width = width.max(120.0);
        if width != self.texture_width {
            self.texture = None;
            self.texture_width = width;
        }
        let shown = super::print::card_image_ui(ui, env.cat, card, &mut self.texture, width);
        if stale && let Some(r) = shown {
            ui.painter().rect_filled(
                r.rect,
                6.0,
                ui.visuals().extreme_bg_color.gamma_multiply(0.6),
            );
        }
    }
}

/// The char index of 1-based `line` and `column` in `text` (clamped to the text).
fn char_index(text: &str, line: usize, column: usize) -> usize {
    let mut at = 0;
    for (i, l) in text.split('\n').enumerate() {
        if i + 1 == line {
            return at + column.saturating_sub(1).min(l.chars().count());
        }
        at += l.chars().count() + 1;
    }
    text.chars().count()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typing_is_pending_until_committed_and_load_leaves_nothing_pending() {
        let mut e = CardEditor::default();
        e.load("a");
        assert_eq!(e.commit(), None);
        e.text.push('b');
        e.typed_at = Some(1.0);
        assert!(!e.typing_paused(1.5));
        assert!(e.typing_paused(1.0 + PAUSE));
        assert_eq!(e.commit(), Some(("a".into(), "ab".into())));
        assert_eq!(e.commit(), None);
        assert!(!e.typing());
    }

    #[test]
    fn a_bad_edit_keeps_the_last_good_card_and_gives_line_and_column() {
        let mut e = CardEditor::default();
        let good = core::card_templates()[0].text;
        e.load(good);
        e.check();
        let card = e.card().cloned().expect("the template is a card");
        e.load(&format!("{good}colour = \"red\"\n"));
        e.check();
        assert!(e.card().is_none());
        assert_eq!(
            e.good.as_ref(),
            Some(&card),
            "the preview keeps the last good card"
        );
        let err = e.error().expect("unknown key");
        assert_eq!(err.line, good.lines().count() + 1, "{err}");
        assert_eq!(err.column, 1, "{err}");
        assert_eq!(err.key.as_deref(), Some("colour"), "{err}");
    }

    #[test]
    fn char_index_counts_lines_and_columns_from_one() {
        let t = "ab\ncdé\nf";
        assert_eq!(char_index(t, 1, 1), 0);
        assert_eq!(char_index(t, 2, 3), 5);
        assert_eq!(char_index(t, 2, 99), 6);
        assert_eq!(char_index(t, 9, 1), 8);
    }
}
