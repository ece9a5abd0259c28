//! What every builder screen shares: the document bar (name, save, open, export), the
//! ordered member list (buttons, keys, drag and drop), the verdict of the rules, and
//! pushing an edit of a document.

use crate::app::commands::UiCommand;
use std::collections::HashSet;

use super::core::Verdict;
use super::docs::{Slot, TomlDoc};
use super::{Action, Env, files};

/// Pushes an edit of the document in `slot` (undoable, named `label`): `after` is the
/// document as it reads after the edit.
pub fn push_edit<D: TomlDoc>(env: &mut Env, slot: Slot, label: impl Into<String>, after: &D) {
    env.push(Action::Edit {
        slot,
        label: label.into(),
        after: after.to_toml(),
    });
}

/// The bar above a builder: name, save state, New / Save / Open / Export.
pub fn doc_bar_ui<D: TomlDoc>(ui: &mut egui::Ui, env: &mut Env, slot: Slot, doc: &D) {
    let kind = slot.kind();
    // Wrapped: beside a builder's side panels at 1024 wide the row does not fit on one line,
    // and a row wider than its panel ran under the next panel.
    ui.horizontal_wrapped(|ui| {
        let mut name = doc.name().to_string();
        let label = ui.label("Name:");
        let r = ui.add(
            egui::TextEdit::singleline(&mut name)
                .id(egui::Id::unique(("doc-name", slot.key())))
                .desired_width(220.0),
        );
        let r = r.labelled_by(label.id);
        if r.changed() {
            let mut d = doc.clone();
            *d.name_mut() = name;
            push_edit(env, slot, "rename", &d);
        }
        let stored = env.cat.load_doc(kind, doc.name().trim()).ok().flatten();
        let unsaved = stored.as_deref() != Some(doc.to_toml().as_str());
        if unsaved {
            ui.label("•")
                .on_hover_text("Not saved in the catalogue yet (your draft is kept anyway)");
        }
        if ui
            .button("Save")
            .on_hover_text("Save in the catalogue under this name (Ctrl+S)")
            .clicked()
        {
            env.push(Action::Save(slot));
        }
        if ui
            .button("New")
            .on_hover_text(format!(
                "Start a new {} (undo brings this one back)",
                kind.as_str()
            ))
            .clicked()
        {
            push_edit(env, slot, format!("new {}", kind.as_str()), &D::fresh());
        }
        let label = ui.label("Saved:");
        egui::ComboBox::from_id_salt(("open-saved", slot.key()))
            .selected_text("open…")
            .show_ui(ui, |ui| {
                let names = env.cat.list_docs(kind).unwrap_or_default();
                if names.is_empty() {
                    ui.weak("nothing saved yet");
                }
                for n in names {
                    if ui.selectable_label(false, &n).clicked()
                        && let Ok(Some(body)) = env.cat.load_doc(kind, &n)
                    {
                        env.push(Action::Edit {
                            slot,
                            label: format!("open {n}"),
                            after: body,
                        });
                    }
                }
            })
            .response
            .labelled_by(label.id)
            .on_hover_text(format!("Open a {} saved in the catalogue", kind.as_str()));
        if ui
            .button("Open file…")
            .on_hover_text(format!("Open a {} file", kind.extension()))
            .clicked()
        {
            files::open_doc_file(ui.ctx(), env, slot);
        }
        if ui
            .button("Export…")
            .on_hover_text(format!(
                "Write this {} to a {} file",
                kind.as_str(),
                kind.extension()
            ))
            .clicked()
        {
            files::export_doc_file(ui.ctx(), env, slot, &doc.to_toml(), doc.name());
        }
    });
}

/// Outcome of a member list edit: the new list and what was done.
pub struct ListEdit {
    pub members: Vec<String>,
    pub label: &'static str,
}

/// An ordered list of card entries with move up/down and remove buttons, drag and drop,
/// and keys (Alt+Up / Alt+Down move the selected entry, Delete removes it). Entries named
/// in `flagged` are shown as offending.
pub fn member_list_ui(
    ui: &mut egui::Ui,
    env: &Env,
    salt: &str,
    members: &[String],
    flagged: &HashSet<String>,
    selected: &mut Option<usize>,
) -> Option<ListEdit> {
    let mut edit = None;
    if members.is_empty() {
        ui.weak("Empty: pick cards from the list on the left.");
    }
    let n = members.len();
    let mut drop: Option<(usize, usize)> = None;
    for (i, entry) in members.iter().enumerate() {
        let name = env.name_or_missing(entry);
        let bad = flagged.contains(entry);
        let frame = egui::Frame::group(ui.style()).fill(if bad {
            ui.visuals().error_fg_color.gamma_multiply(0.18)
        } else if *selected == Some(i) {
            ui.visuals().selection.bg_fill.gamma_multiply(0.5)
        } else {
            egui::Color32::TRANSPARENT
        });
        let item_id = egui::Id::unique(("member", salt, i));
        let response = ui
            .dnd_drop_zone::<usize, _>(frame, |ui| {
                ui.horizontal(|ui| {
                    ui.dnd_drag_source(item_id, i, |ui| {
                        ui.label("::").on_hover_text("Drag to reorder");
                    });
                    // The buttons first, from the right edge, and the name in the room left
                    // (cut short with "…"): in a narrow column a long name pushed the buttons
                    // out of sight, and a member could not be removed.
                    ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                        if ui
                            .small_button("x")
                            .on_hover_text(format!("Remove {name}"))
                            .clicked()
                        {
                            let mut m = members.to_vec();
                            m.remove(i);
                            edit = Some(ListEdit {
                                members: m,
                                label: "remove member",
                            });
                        }
                        if ui
                            .add_enabled(i + 1 < n, egui::Button::new("v").small())
                            .on_hover_text("Move right (Alt+Down)")
                            .clicked()
                        {
                            let mut m = members.to_vec();
                            m.swap(i, i + 1);
                            *selected = Some(i + 1);
                            edit = Some(ListEdit {
                                members: m,
                                label: "move member",
                            });
                        }
                        if ui
                            .add_enabled(i > 0, egui::Button::new("^").small())
                            .on_hover_text("Move left (Alt+Up)")
                            .clicked()
                        {
                            let mut m = members.to_vec();
                            m.swap(i, i - 1);
                            *selected = Some(i - 1);
                            edit = Some(ListEdit {
                                members: m,
                                label: "move member",
                            });
                        }
                        let text = if bad {
                            egui::RichText::new(format!("{}. {name}", i + 1))
                                .color(ui.visuals().error_fg_color)
                        } else {
                            egui::RichText::new(format!("{}. {name}", i + 1))
                        };
                        ui.with_layout(egui::Layout::left_to_right(egui::Align::Center), |ui| {
                            if ui
                                .add(
                                    egui::Button::selectable(*selected == Some(i), text).truncate(),
                                )
                                .on_hover_text(entry)
                                .clicked()
                            {
                                *selected = Some(i);
                            }
                        });
                    });
                });
            })
            .1;
        if let Some(from) = response {
            drop = Some((*from, i));
        }
    }
    if let Some((from, to)) = drop.filter(|(f, t)| f != t && *f < n) {
        let mut m = members.to_vec();
        let e = m.remove(from);
        m.insert(to, e);
        *selected = Some(to);
        edit = Some(ListEdit {
            members: m,
            label: "move member",
        });
    }
    if let Some(i) = selected.filter(|i| *i < n)
        && !ui.ctx().egui_wants_keyboard_input()
    {
        let (up, down, del) = (
            UiCommand::MoveUp.pressed(ui),
            UiCommand::MoveDown.pressed(ui),
            UiCommand::Remove.pressed(ui),
        );
        let mut m = members.to_vec();
        if up && i > 0 {
            m.swap(i, i - 1);
            *selected = Some(i - 1);
            edit = Some(ListEdit {
                members: m,
                label: "move member",
            });
        } else if down && i + 1 < n {
            m.swap(i, i + 1);
            *selected = Some(i + 1);
            edit = Some(ListEdit {
                members: m,
                label: "move member",
            });
        } else if del {
            m.remove(i);
            *selected = None;
            edit = Some(ListEdit {
                members: m,
                label: "remove member",
            });
        }
    }
    edit
}

/// The member list of the document in `slot` ([`member_list_ui`], its entries flagged by
/// `verdict`) and the verdict under it; an edit of the list is pushed as an edit of the
/// document (`with_members`: the document with the new list).
pub fn members_and_verdict_ui<D: TomlDoc>(
    ui: &mut egui::Ui,
    env: &mut Env,
    slot: Slot,
    members: &[String],
    verdict: &Verdict,
    selected: &mut Option<usize>,
    with_members: impl FnOnce(Vec<String>) -> D,
) {
    if let Some(edit) = member_list_ui(ui, env, slot.key(), members, &flagged(verdict), selected) {
        push_edit(env, slot, edit.label, &with_members(edit.members));
    }
    ui.add_space(6.0);
    verdict_ui(ui, verdict);
}

/// The rules' verdict: "Legal" or every violation in words, and derived figures.
pub fn verdict_ui(ui: &mut egui::Ui, verdict: &Verdict) {
    for (k, v) in &verdict.figures.lines {
        ui.horizontal(|ui| {
            ui.label(egui::RichText::new(k).strong());
            ui.label(v);
        });
    }
    if !verdict.checked {
        ui.weak("The construction rules for this document are not available in this build.");
        return;
    }
    if verdict.findings.is_empty() {
        ui.label(
            egui::RichText::new("Legal")
                .color(egui::Color32::from_rgb(40, 160, 60))
                .strong(),
        );
        return;
    }
    let n = verdict.findings.len();
    ui.label(
        egui::RichText::new(format!(
            "Not legal: {n} problem{}",
            if n == 1 { "" } else { "s" }
        ))
        .color(ui.visuals().error_fg_color)
        .strong(),
    );
    for f in &verdict.findings {
        ui.horizontal_wrapped(|ui| {
            ui.label(
                egui::RichText::new(format!("[{}]", f.rule))
                    .monospace()
                    .color(ui.visuals().error_fg_color),
            );
            ui.label(&f.message);
        });
    }
}

/// Every card a verdict names, for highlighting.
pub fn flagged(verdict: &Verdict) -> HashSet<String> {
    verdict
        .findings
        .iter()
        .flat_map(|f| f.cards.iter().cloned())
        .collect()
}
