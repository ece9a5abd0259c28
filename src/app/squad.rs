//! The Ruunara squad builder: story or free mode, members picked from the catalogue, the
//! squad rules' verdict live.

use super::Env;
use super::builder::{doc_bar_ui, members_and_verdict_ui, push_edit};
use super::cache::Memo;
use super::core;
use super::docs::Slot;
use super::picker::Picker;
use crate::games::ruunara::squad::{Mode, SquadFile};

/// The squad screen.
#[derive(Default)]
pub struct SquadScreen {
    picker: Picker,
    selected: Option<usize>,
    verdict: Memo<core::Verdict>,
    /// The odds and duel calculators beside the squad.
    pub calc: super::ruunara_calc::CalcPanel,
}

impl SquadScreen {
    pub fn ui(&mut self, ui: &mut egui::Ui, env: &mut Env) {
        let squad = &env.docs.squad;
        let verdict = self.verdict.get(env.generation, squad.to_toml(), || {
            core::check_squad(env.cat, squad)
        });
        if let Some(id) = self.picker.panel_ui(
            ui,
            env,
            "squad",
            "game:ruunara faction:ally",
            "Ruunara ally heroes and units",
        ) {
            let mut s = squad.clone();
            s.members.push(id);
            push_edit(env, Slot::Squad, "add member", &s);
        }
        egui::Panel::right("squad-calculators")
            .resizable(true)
            .default_size(300.0)
            .show(ui, |ui| self.calc.ui(ui, env.cat, &squad.members));
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
                        push_edit(env, Slot::Squad, "change mode", &s);
                    }
                }
            });
            ui.separator();
            egui::ScrollArea::vertical()
                .id_salt("squad-scroll")
                .show(ui, |ui| {
                    members_and_verdict_ui(
                        ui,
                        env,
                        Slot::Squad,
                        &squad.members,
                        &verdict,
                        &mut self.selected,
                        |members| SquadFile {
                            members,
                            ..squad.clone()
                        },
                    );
                });
        });
    }
}
