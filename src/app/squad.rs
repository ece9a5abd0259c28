//! The Ruunara squad builder: story or free mode, members picked from the catalogue, the
//! squad rules' verdict live.

use super::builder::{self, doc_bar_ui, member_list_ui, verdict_ui};
use super::cache::Memo;
use super::core;
use super::docs::Slot;
use crate::games::ruunara::squad::Mode;
use super::picker::Picker;
use super::{Action, Env};

/// The squad screen.
#[derive(Default)]
pub struct SquadScreen {
    picker: Picker,
    selected: Option<usize>,
    verdict: Memo<core::Verdict>,
}

impl SquadScreen {
    pub fn ui(&mut self, ui: &mut egui::Ui, env: &mut Env) {
        let squad = &env.docs.squad;
        let verdict = self.verdict.get(env.generation, squad.to_toml(), || {
            core::check_squad(env.cat, squad)
        });
        egui::Panel::left("squad-picker")
            .resizable(true)
            .default_size(260.0)
            .show(ui, |ui| {
                if let Some(id) = self.picker.ui(
                    ui,
                    env,
                    "squad",
                    "game:ruunara faction:ally",
                    "Ruunara ally heroes and units",
                ) {
                    let mut s = squad.clone();
                    s.members.push(id);
                    env.push(Action::Edit {
                        slot: Slot::Squad,
                        label: "add member".into(),
                        after: s.to_toml(),
                    });
                }
            });
        egui::CentralPanel::default().show(ui, |ui| {
            doc_bar_ui(ui, env, Slot::Squad, squad);
            ui.horizontal(|ui| {
                ui.label("Mode:");
                for (mode, text, tip) in [
                    (Mode::Story, "story", "Story Mode: every member of one race"),
                    (Mode::Free, "free", "Free Play: any mix of races"),
                ] {
                    if ui
                        .selectable_label(squad.mode == mode, text)
                        .on_hover_text(tip)
                        .clicked()
                        && squad.mode != mode
                    {
                        let mut s = squad.clone();
                        s.mode = mode;
                        env.push(Action::Edit {
                            slot: Slot::Squad,
                            label: "change mode".into(),
                            after: s.to_toml(),
                        });
                    }
                }
            });
            ui.separator();
            egui::ScrollArea::vertical()
                .id_salt("squad-scroll")
                .show(ui, |ui| {
                    if let Some(edit) = member_list_ui(
                        ui,
                        env,
                        "squad",
                        &squad.members,
                        &builder::flagged(&verdict),
                        &mut self.selected,
                    ) {
                        let mut s = squad.clone();
                        s.members = edit.members;
                        env.push(Action::Edit {
                            slot: Slot::Squad,
                            label: edit.label.into(),
                            after: s.to_toml(),
                        });
                    }
                    ui.add_space(6.0);
                    verdict_ui(ui, &verdict);
                });
        });
    }
}
