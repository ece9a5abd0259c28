//! The Iconica party builder: pick characters from the catalogue, order them, and see the
//! construction rules' verdict live; a second party for a match checks the shared
//! Legend/Special rule across both.

use super::Env;
use super::builder::{doc_bar_ui, members_and_verdict_ui, push_edit};
use super::cache::Memo;
use super::core;
use super::docs::Slot;
use super::health_panel::{self, HealthPanel};
use super::picker::Picker;
use crate::games::iconica::party::PartyFile;

/// The party screen.
#[derive(Default)]
pub struct PartyScreen {
    /// Two parties for a match (side A and side B).
    pub match_mode: bool,
    picker: Picker,
    /// Which party the picker adds to.
    target: Option<Slot>,
    selected_a: Option<usize>,
    selected_b: Option<usize>,
    verdicts: Memo<(core::Verdict, core::Verdict)>,
    /// The rules' health of the two parties' match.
    health: HealthPanel,
}

impl PartyScreen {
    pub fn ui(&mut self, ui: &mut egui::Ui, env: &mut Env) {
        let docs = env.docs;
        let key = format!(
            "{}\n{}\n{}",
            self.match_mode,
            docs.party_a.to_toml(),
            docs.party_b.to_toml()
        );
        let match_mode = self.match_mode;
        let (va, vb) = self.verdicts.get(env.generation, key, || {
            if match_mode {
                core::check_match(env.cat, &docs.party_a, &docs.party_b)
            } else {
                (
                    core::check_party(env.cat, &docs.party_a),
                    core::Verdict::default(),
                )
            }
        });
        let target = if self.match_mode {
            self.target.unwrap_or(Slot::PartyA)
        } else {
            Slot::PartyA
        };
        if let Some(id) = self.picker.panel_ui(
            ui,
            env,
            "party",
            "game:iconica kind:character",
            "Iconica characters",
        ) {
            let mut p = if target == Slot::PartyA {
                docs.party_a.clone()
            } else {
                docs.party_b.clone()
            };
            p.members.push(id);
            push_edit(env, target, "add member", &p);
        }
        egui::CentralPanel::default().show(ui, |ui| {
            ui.horizontal(|ui| {
                ui.checkbox(&mut self.match_mode, "Match: a second party")
                    .on_hover_text("Build both parties of a match; no Legend or Special character may be used twice");
                if self.match_mode {
                    ui.separator();
                    ui.label("Add picks to:");
                    let mut t = target;
                    ui.selectable_value(&mut t, Slot::PartyA, "A").on_hover_text("Cards picked on the left join party A");
                    ui.selectable_value(&mut t, Slot::PartyB, "B").on_hover_text("Cards picked on the left join party B");
                    self.target = Some(t);
                }
            });
            ui.separator();
            egui::ScrollArea::vertical().id_salt("party-scroll").show(ui, |ui| {
                party_ui(ui, env, Slot::PartyA, &docs.party_a, &va, &mut self.selected_a, self.match_mode);
                if self.match_mode {
                    ui.add_space(12.0);
                    party_ui(ui, env, Slot::PartyB, &docs.party_b, &vb, &mut self.selected_b, true);
                    ui.separator();
                    let key = format!("{}\n{}", docs.party_a.to_toml(), docs.party_b.to_toml());
                    let cat = env.cat;
                    self.health.ui(ui, "party", &key, &crate::games::iconica::REGISTRATION, || {
                        // The rules of `deckwright play iconica` and `health iconica`.
                        let setup = core::match_ready(cat, &docs.party_a, &docs.party_b, Default::default()).setup?;
                        let names = [docs.party_a.name.clone(), docs.party_b.name.clone()];
                        let options = crate::games::iconica::matchfile::options_of(&setup, &names);
                        Ok(health_panel::Subject {
                            options,
                            cards: cat.all().map_err(|e| format!("The catalogue: {e}"))?,
                        })
                    });
                }
            });
        });
    }
}

fn party_ui(
    ui: &mut egui::Ui,
    env: &mut Env,
    slot: Slot,
    party: &PartyFile,
    verdict: &core::Verdict,
    selected: &mut Option<usize>,
    titled: bool,
) {
    ui.push_id(slot.key(), |ui| {
        if titled {
            ui.heading(if slot == Slot::PartyA {
                "Party A"
            } else {
                "Party B"
            });
        }
        doc_bar_ui(ui, env, slot, party);
        ui.label(egui::RichText::new("Members, left to right on the table:").weak());
        members_and_verdict_ui(
            ui,
            env,
            slot,
            &party.members,
            verdict,
            selected,
            |members| PartyFile {
                members,
                ..party.clone()
            },
        );
    });
}
