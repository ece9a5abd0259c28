//! Picking cards for a builder: a small search list over one game and kind in a panel on
//! the left, and the browser's "add to ..." buttons.

use super::Env;
use super::builder::push_edit;
use super::core::{self, Row};
use super::docs::Slot;
use crate::app::commands::UiCommand;
use crate::cards::Card;

/// How many cards a picker lists.
const PICKER_LIMIT: usize = 500;

/// The resizable panel on the left of a builder screen that holds its picker (`salt`: the
/// picker's; the panel is `{salt}-picker`).
pub fn panel_ui(ui: &mut egui::Ui, salt: &str, add_contents: impl FnOnce(&mut egui::Ui)) {
    egui::Panel::left(format!("{salt}-picker"))
        .resizable(true)
        .default_size(260.0)
        .show(ui, add_contents);
}

/// A search list restricted by a base query (`game:iconica kind:character`).
#[derive(Default)]
pub struct Picker {
    pub text: String,
    rows: Vec<Row>,
    /// Per row, what to show beside the name ([`core::card_facts`]): costs, side features.
    facts: Vec<Option<String>>,
    sent: Option<String>,
    error: Option<String>,
}

impl Picker {
    /// Draws the picker; returns the id of the card the user picked (click, or Enter for
    /// the first result).
    pub fn ui(
        &mut self,
        ui: &mut egui::Ui,
        env: &Env,
        salt: &str,
        base: &str,
        title: &str,
    ) -> Option<String> {
        let full = if self.text.trim().is_empty() {
            base.to_string()
        } else {
            format!("{base} ({})", self.text.trim())
        };
        if self.sent.as_deref() != Some(full.as_str()) {
            match core::search(env.cat, &full, PICKER_LIMIT) {
                Ok(rows) => {
                    self.facts = rows
                        .iter()
                        .map(|r| core::card(env.cat, &r.id).and_then(|c| core::card_facts(&c)))
                        .collect();
                    self.rows = rows;
                    self.error = None;
                }
                Err(e) => self.error = Some(e.message),
            }
            self.sent = Some(full);
        }
        let mut picked = None;
        let label = ui.strong(title);
        let r = ui.add(
            egui::TextEdit::singleline(&mut self.text)
                .id(egui::Id::unique(("picker", salt)))
                .hint_text("filter…")
                .desired_width(f32::INFINITY),
        );
        let r = r.labelled_by(label.id);
        if UiCommand::Confirm.confirmed(ui, &r) {
            picked = self.rows.first().map(|r| r.id.clone());
        }
        if let Some(e) = &self.error {
            ui.colored_label(ui.visuals().error_fg_color, e);
        }
        let h = ui.text_style_height(&egui::TextStyle::Button) + 4.0;
        egui::ScrollArea::vertical()
            .id_salt(("picker-list", salt))
            .max_height(ui.available_height().min(420.0))
            .show_rows(ui, h, self.rows.len(), |ui, range| {
                for (row, facts) in self.rows[range.clone()].iter().zip(&self.facts[range]) {
                    let text = match facts {
                        Some(f) => format!("{}  ·  {}  ·  {f}", row.name, row.kind),
                        None => format!("{}  ·  {}", row.name, row.kind),
                    };
                    if ui
                        .add(egui::Button::new(text).frame(false).truncate())
                        .on_hover_text(format!("Add {} ({})", row.name, row.id))
                        .clicked()
                    {
                        picked = Some(row.id.clone());
                    }
                }
            });
        picked
    }

    /// [`Picker::ui`] alone in a builder's left panel ([`panel_ui`]).
    pub fn panel_ui(
        &mut self,
        ui: &mut egui::Ui,
        env: &Env,
        salt: &str,
        base: &str,
        title: &str,
    ) -> Option<String> {
        let mut picked = None;
        panel_ui(ui, salt, |ui| picked = self.ui(ui, env, salt, base, title));
        picked
    }
}

/// The "add to ..." buttons of the browser's detail pane, for the builder a card fits.
pub fn add_to_builder_ui(ui: &mut egui::Ui, card: &Card, env: &mut Env) {
    let id = card.id().to_string();
    let docs = env.docs;
    match (card.game().as_str(), card.kind()) {
        ("iconica", "character")
            if ui
                .button("Add to party")
                .on_hover_text("Add this character to the party being built")
                .clicked() =>
        {
            let mut p = docs.party_a.clone();
            p.members.push(id);
            push_edit(env, Slot::PartyA, "add member", &p);
        }
        ("arcadia", kind @ ("icon" | "merit" | "flaw"))
            if ui
                .button("Add to character")
                .on_hover_text("Use this card in the character being built")
                .clicked() =>
        {
            let mut c = docs.character.clone();
            match kind {
                "icon" => c.icon = Some(id),
                "merit" => c.merits.push(id),
                _ => c.flaws.push(id),
            }
            push_edit(env, Slot::Character, format!("add {kind}"), &c);
        }
        ("ruunara", "hero" | "unit")
            if ui
                .button("Add to squad")
                .on_hover_text("Add this figure to the squad being built")
                .clicked() =>
        {
            let mut s = docs.squad.clone();
            s.members.push(id);
            push_edit(env, Slot::Squad, "add member", &s);
        }
        _ => {}
    }
}
