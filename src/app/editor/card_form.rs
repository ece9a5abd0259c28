//! The card editor's Form view for Iconica characters: identity, the health meter tile by
//! tile, the actions, strengths and final act as widgets. The form edits a copy of the card
//! the TOML holds and hands back the edited card; the editor writes it back as TOML through
//! the core. The choices offered are the core model's values; the rules (tile values, roll
//! coverage...) are left to the core's parser, whose verdict the editor shows.

use std::hash::Hash;

use serde::Serialize;

mod effects;
mod meter;

use crate::games::iconica::edit::word;
use crate::games::iconica::model::{
    Action, ActionKind, Against, Character, Class, Faction, FinalAct, Rarity, Roll, Strength,
};

/// What the form changed this frame.
pub struct FormEdit<C = Character> {
    /// The card after the edit.
    pub card: C,
    /// The edit's name in the undo history.
    pub label: String,
    /// Typing in a text field: recorded a burst at a time, like typing in the source.
    pub typing: bool,
}

/// Collects the one edit of a frame.
pub(super) struct Form<C = Character> {
    pub(super) card: C,
    label: Option<String>,
    typing: bool,
}

impl<C: Clone + PartialEq> Form<C> {
    pub(super) fn new(card: &C) -> Self {
        Form {
            card: card.clone(),
            label: None,
            typing: false,
        }
    }
    /// The edit made, if the card changed.
    pub(super) fn edit(self, before: &C) -> Option<FormEdit<C>> {
        let label = self.label?;
        (self.card != *before).then_some(FormEdit {
            card: self.card,
            label,
            typing: self.typing,
        })
    }
    pub(super) fn changed(&mut self, label: impl Into<String>) {
        self.label = Some(label.into());
    }
    pub(super) fn typed(&mut self, what: &str) {
        self.label = Some(format!("typing in {what}"));
        self.typing = true;
    }
}

/// Shows the form for `card`; returns the edit made, if any.
pub fn ui(ui: &mut egui::Ui, card: &Character) -> Option<FormEdit> {
    let mut f = Form::new(card);
    ui.weak(
        "A form edit writes the card's TOML anew: comments and the source's layout are not \
         kept. Each action's effects open below it.",
    );
    egui::ScrollArea::vertical()
        .id_salt("card-form-scroll")
        .auto_shrink(false)
        .show(ui, |ui| {
            section(ui, "Identity", |ui| identity_ui(ui, &mut f));
            section(ui, "Health meter", |ui| meter::meter_ui(ui, &mut f));
            section(ui, "Actions", |ui| actions_ui(ui, &mut f));
            section(ui, "Strengths", |ui| strengths_ui(ui, &mut f));
            section(ui, "Final act", |ui| final_act_ui(ui, &mut f));
        });
    f.edit(card)
}

pub(super) fn section(ui: &mut egui::Ui, title: &str, body: impl FnOnce(&mut egui::Ui)) {
    ui.add_space(6.0);
    ui.strong(title);
    egui::Frame::group(ui.style()).show(ui, |ui| {
        ui.set_min_width(ui.available_width());
        body(ui);
    });
}

/// A one-line (or several-line) text field.
pub(super) fn text(
    ui: &mut egui::Ui,
    value: &mut String,
    lines: usize,
    label: egui::Id,
) -> egui::Response {
    let edit = if lines > 1 {
        egui::TextEdit::multiline(value).desired_rows(lines)
    } else {
        egui::TextEdit::singleline(value)
    };
    ui.add(edit.desired_width(f32::INFINITY)).labelled_by(label)
}

/// An optional text: empty means the key is left out.
pub(super) fn optional_text(
    ui: &mut egui::Ui,
    value: &mut Option<String>,
    lines: usize,
    label: egui::Id,
) -> bool {
    let mut s = value.clone().unwrap_or_default();
    let changed = text(ui, &mut s, lines, label).changed();
    if changed {
        *value = Some(s).filter(|s| !s.is_empty());
    }
    changed
}

/// A drop-down of the values the format allows; true when another was picked.
pub(super) fn choice<T: Copy + PartialEq + Serialize>(
    ui: &mut egui::Ui,
    id: impl Hash + std::fmt::Debug,
    value: &mut T,
    all: &[T],
    label: egui::Id,
) -> bool {
    let before = *value;
    egui::ComboBox::from_id_salt(id)
        .selected_text(word(value))
        .show_ui(ui, |ui| {
            for v in all {
                ui.selectable_value(value, *v, word(v));
            }
        })
        .response
        .labelled_by(label);
    *value != before
}

/// Six toggles, one per roll number; returns the number toggled.
fn numbers_ui(ui: &mut egui::Ui, on: impl Fn(u8) -> bool, hint: &str) -> Option<u8> {
    let mut toggled = None;
    ui.horizontal(|ui| {
        for n in 1..=6u8 {
            if ui
                .selectable_label(on(n), n.to_string())
                .on_hover_text(hint)
                .clicked()
            {
                toggled = Some(n);
            }
        }
    });
    toggled
}

fn identity_ui(ui: &mut egui::Ui, f: &mut Form) {
    egui::Grid::new("form-identity")
        .num_columns(2)
        .spacing([12.0, 6.0])
        .show(ui, |ui| {
            let c = &mut f.card;
            let mut typed = None;
            for (label, value) in [
                ("Name", &mut c.name),
                ("Id", &mut c.id),
                ("Series", &mut c.series),
                ("Number", &mut c.number),
                ("Race", &mut c.race),
                ("Archetype", &mut c.archetype),
            ] {
                let l = ui.label(label);
                if text(ui, value, 1, l.id).changed() {
                    typed = Some(label);
                }
                ui.end_row();
            }
            let mut picked = None;
            let l = ui.label("Faction");
            if choice(ui, "form-faction", &mut c.faction, &Faction::ALL, l.id) {
                picked = Some(format!("faction {}", word(&c.faction)));
            }
            ui.end_row();
            let l = ui.label("Class");
            if choice(ui, "form-class", &mut c.class, &Class::ALL, l.id) {
                picked = Some(format!("class {}", word(&c.class)));
            }
            ui.end_row();
            let l = ui.label("Type");
            if choice(ui, "form-type", &mut c.rarity, &Rarity::ALL, l.id) {
                picked = Some(format!("type {}", word(&c.rarity)));
            }
            ui.end_row();
            let l = ui.label("Affiliation");
            if optional_text(ui, &mut c.affiliation, 1, l.id) {
                typed = Some("Affiliation");
            }
            ui.end_row();
            let l = ui.label("Influence");
            let mut has = c.influence.is_some();
            ui.horizontal(|ui| {
                let shown = if has { "" } else { "none" };
                if ui.checkbox(&mut has, shown).labelled_by(l.id).changed() {
                    c.influence = has.then_some(1);
                    picked = Some(if has { "influence" } else { "no influence" }.into());
                }
                if let Some(i) = &mut c.influence
                    && ui
                        .add(egui::DragValue::new(i).range(0..=99))
                        .labelled_by(l.id)
                        .changed()
                {
                    typed = Some("Influence");
                }
            });
            ui.end_row();
            let l = ui.label("Description");
            if optional_text(ui, &mut c.description, 3, l.id) {
                typed = Some("Description");
            }
            ui.end_row();
            if let Some(p) = picked {
                f.changed(p);
            } else if let Some(t) = typed {
                f.typed(t);
            }
        });
}

fn actions_ui(ui: &mut egui::Ui, f: &mut Form) {
    ui.horizontal(|ui| {
        let l = ui.label("Action Break on action");
        let mut b = f.card.action_break;
        egui::ComboBox::from_id_salt("form-break")
            .selected_text(b.map_or("none".to_string(), |n| n.to_string()))
            .show_ui(ui, |ui| {
                ui.selectable_value(&mut b, None, "none");
                for n in 1..=6u8 {
                    ui.selectable_value(&mut b, Some(n), n.to_string());
                }
            })
            .response
            .labelled_by(l.id);
        if b != f.card.action_break {
            f.card.action_break = b;
            f.changed("action break");
        }
    });
    ui.weak("Each roll number 1-6 belongs to exactly one action (the parser checks).");
    let mut remove = None;
    for i in 0..f.card.actions.len() {
        ui.separator();
        let a = &mut f.card.actions[i];
        let mut edit = None;
        let mut typed = None;
        ui.horizontal(|ui| {
            ui.label("Roll");
            if let Some(n) = numbers_ui(ui, |n| a.roll.covers(n), "Toggle this roll number") {
                a.roll = a.roll.with(n, !a.roll.covers(n));
                edit = Some(format!("roll {n} of {}", a.name));
            }
            if f.card.action_break.is_some_and(|b| a.roll.covers(b)) {
                ui.colored_label(ui.visuals().warn_fg_color, "Action Break");
            }
            if ui.small_button("Remove").clicked() {
                remove = Some(i);
            }
        });
        egui::Grid::new(("form-action", i))
            .num_columns(2)
            .spacing([12.0, 4.0])
            .show(ui, |ui| {
                let l = ui.label("Action name");
                if text(ui, &mut a.name, 1, l.id).changed() {
                    typed = Some("an action's name");
                }
                ui.end_row();
                let l = ui.label("Kind");
                if choice(ui, ("form-kind", i), &mut a.kind, &ActionKind::ALL, l.id) {
                    edit = Some(format!("kind of {}", a.name));
                }
                ui.end_row();
                let l = ui.label("Text");
                if text(ui, &mut a.text, 2, l.id).changed() {
                    typed = Some("an action's text");
                }
                ui.end_row();
            });
        if wording_ui(ui, &mut a.text, &a.effects, ("form-words", i)) {
            edit = Some(format!("text of {} from its effects", a.name));
        }
        let mut fx = effects::EffectEdit::default();
        // Kept open while its count changes (the id is not the title's).
        egui::CollapsingHeader::new(format!("Effects of action {} ({})", i + 1, a.effects.len()))
            .id_salt(("form-action-effects", i))
            .show(ui, |ui| {
                effects::effects_ui(ui, &mut a.effects, &(i + 1).to_string(), &mut fx);
            });
        if let Some(p) = fx.picked {
            edit = Some(format!("{p} ({})", a.name));
        } else if fx.typed {
            typed = Some("an effect");
        }
        if let Some(e) = edit {
            f.changed(e);
        } else if let Some(t) = typed {
            f.typed(t);
        }
    }
    if let Some(i) = remove {
        let name = f.card.actions.remove(i).name;
        f.changed(format!("remove action {name}"));
    }
    ui.separator();
    if ui
        .button("Add action")
        .on_hover_text("A new action; give it the roll numbers it takes from another")
        .clicked()
    {
        f.card.actions.push(Action {
            roll: Roll::Many(Vec::new()),
            name: "New action".into(),
            kind: ActionKind::Melee,
            text: String::new(),
            effects: Vec::new(),
        });
        f.changed("add action");
    }
}

/// "Move WHAT up" and "Move WHAT down" for member `i` of a list of `len` (each disabled where
/// it cannot move); the pair of members to swap when one was clicked.
pub(super) fn move_buttons(
    ui: &mut egui::Ui,
    i: usize,
    len: usize,
    what: &str,
) -> Option<(usize, usize)> {
    let mut swap = None;
    if ui
        .add_enabled(i > 0, egui::Button::new(format!("Move {what} up")).small())
        .clicked()
    {
        swap = Some((i - 1, i));
    }
    if ui
        .add_enabled(
            i + 1 < len,
            egui::Button::new(format!("Move {what} down")).small(),
        )
        .clicked()
    {
        swap = Some((i, i + 1));
    }
    swap
}

/// Where a text and its effects disagree (`games::iconica::text::audit`), each said as a
/// warning, and, for a text that disagrees or is empty, *Write text from effects*, which
/// writes it from the effects' templates (the designer may reword it after). True when the
/// text was written.
fn wording_ui(
    ui: &mut egui::Ui,
    words: &mut String,
    effects: &[crate::games::iconica::model::Effect],
    id: impl std::hash::Hash + std::fmt::Debug,
) -> bool {
    use crate::games::iconica::text;
    let mut wrote = false;
    ui.push_id(id, |ui| {
        let disagree = text::audit(words, effects);
        for why in &disagree {
            ui.colored_label(
                ui.visuals().warn_fg_color,
                format!("Text and effects disagree: {why}"),
            );
        }
        let written = text::write(effects);
        // Offered where the text is missing or disagrees: a text that agrees is the
        // designer's wording to keep.
        if !effects.is_empty()
            && (words.trim().is_empty() || !disagree.is_empty())
            && written != *words
            && ui
                .small_button("Write text from effects")
                .on_hover_text(format!("The text becomes: {written}"))
                .clicked()
        {
            *words = written;
            wrote = true;
        }
    });
    wrote
}

/// What a strength is against, as the format names it.
#[derive(Clone, Copy, PartialEq)]
enum AgainstKey {
    Archetype,
    Race,
    Class,
}

fn strengths_ui(ui: &mut egui::Ui, f: &mut Form) {
    let mut remove = None;
    for i in 0..f.card.strengths.len() {
        if i > 0 {
            ui.separator();
        }
        let s = &mut f.card.strengths[i];
        let mut edit = None;
        let mut typed = false;
        ui.horizontal(|ui| {
            let l = ui.label("Against");
            let key = if s.against.class.is_some() {
                AgainstKey::Class
            } else if s.against.race.is_some() {
                AgainstKey::Race
            } else {
                AgainstKey::Archetype
            };
            let mut picked = key;
            egui::ComboBox::from_id_salt(("form-against", i))
                .selected_text(against_word(key))
                .show_ui(ui, |ui| {
                    for k in [AgainstKey::Archetype, AgainstKey::Race, AgainstKey::Class] {
                        ui.selectable_value(&mut picked, k, against_word(k));
                    }
                })
                .response
                .labelled_by(l.id);
            if picked != key {
                s.against = match picked {
                    AgainstKey::Archetype => Against {
                        archetype: Some(String::new()),
                        race: None,
                        class: None,
                    },
                    AgainstKey::Race => Against {
                        archetype: None,
                        race: Some(String::new()),
                        class: None,
                    },
                    AgainstKey::Class => Against {
                        archetype: None,
                        race: None,
                        class: Some(Class::Offensive),
                    },
                };
                edit = Some("strength against".to_string());
            } else if let Some(c) = &mut s.against.class {
                if choice(ui, ("form-against-class", i), c, &Class::ALL, l.id) {
                    edit = Some("strength against".to_string());
                }
            } else if let Some(v) = s.against.archetype.as_mut().or(s.against.race.as_mut())
                && ui.text_edit_singleline(v).labelled_by(l.id).changed()
            {
                typed = true;
            }
            if ui.small_button("Remove").clicked() {
                remove = Some(i);
            }
        });
        ui.horizontal(|ui| {
            ui.label("On actions");
            if let Some(n) = numbers_ui(
                ui,
                |n| s.actions.contains(&n),
                "Toggle: this strength applies to the action on this roll number",
            ) {
                if s.actions.contains(&n) {
                    s.actions.retain(|&x| x != n);
                } else {
                    s.actions.push(n);
                    s.actions.sort_unstable();
                }
                edit = Some(format!("strength on action {n}"));
            }
        });
        ui.horizontal(|ui| {
            let l = ui.label("Text");
            if text(ui, &mut s.text, 1, l.id).changed() {
                typed = true;
            }
        });
        if wording_ui(ui, &mut s.text, &s.effects, ("form-strength-words", i)) {
            edit = Some("strength text from its effects".into());
        }
        let mut fx = effects::EffectEdit::default();
        egui::CollapsingHeader::new(format!(
            "Effects of strength {} ({})",
            i + 1,
            s.effects.len()
        ))
        .id_salt(("form-strength-effects", i))
        .show(ui, |ui| {
            effects::effects_ui(ui, &mut s.effects, &format!("s{}", i + 1), &mut fx)
        });
        if let Some(p) = fx.picked {
            edit = Some(format!("{p} (strength {})", i + 1));
        } else if fx.typed {
            typed = true;
        }
        if let Some(e) = edit {
            f.changed(e);
        } else if typed {
            f.typed("a strength");
        }
    }
    if let Some(i) = remove {
        f.card.strengths.remove(i);
        f.changed("remove strength");
    }
    if ui.button("Add strength").clicked() {
        f.card.strengths.push(Strength {
            against: Against {
                archetype: None,
                race: None,
                class: Some(Class::Offensive),
            },
            actions: Vec::new(),
            text: String::new(),
            effects: Vec::new(),
        });
        f.changed("add strength");
    }
}

fn against_word(k: AgainstKey) -> &'static str {
    match k {
        AgainstKey::Archetype => "archetype",
        AgainstKey::Race => "race",
        AgainstKey::Class => "class",
    }
}

fn final_act_ui(ui: &mut egui::Ui, f: &mut Form) {
    let mut has = f.card.final_act.is_some();
    if ui
        .checkbox(&mut has, "This character has a final act")
        .changed()
    {
        f.card.final_act = has.then(|| FinalAct {
            text: String::new(),
            effects: Vec::new(),
        });
        f.changed(if has {
            "add final act"
        } else {
            "remove final act"
        });
    }
    if let Some(act) = &mut f.card.final_act {
        let l = ui.label("Final act text");
        let typed = text(ui, &mut act.text, 2, l.id).changed();
        let wrote = wording_ui(ui, &mut act.text, &act.effects, "form-final-words");
        let mut fx = effects::EffectEdit::default();
        egui::CollapsingHeader::new(format!("Effects of the final act ({})", act.effects.len()))
            .id_salt("form-final-effects")
            .show(ui, |ui| {
                effects::effects_ui(ui, &mut act.effects, "f", &mut fx)
            });
        if wrote {
            f.changed("final act text from its effects");
        } else if let Some(p) = fx.picked {
            f.changed(format!("{p} (final act)"));
        } else if typed || fx.typed {
            f.typed("the final act");
        }
    }
}
