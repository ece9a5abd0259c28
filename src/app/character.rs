//! The Arcadia character builder: icon, merits and flaws picked from the catalogue, court
//! and experience, with a live points bar (available / spent / left) and the build rules'
//! verdict.

use super::builder::{self, doc_bar_ui, member_list_ui, push_edit, verdict_ui};
use super::cache::Memo;
use super::core;
use super::docs::Slot;
use crate::games::arcadia::character::CharacterFile;
use crate::games::arcadia::model::Court;
use super::picker::{self, Picker};
use super::Env;

/// Which list the picker adds to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
enum Pick {
    Icon,
    #[default]
    Merit,
    Flaw,
}

/// The character screen.
#[derive(Default)]
pub struct CharacterScreen {
    pick: Pick,
    picker: Picker,
    selected_merit: Option<usize>,
    selected_flaw: Option<usize>,
    verdict: Memo<core::Verdict>,
}

fn edit(env: &mut Env, label: &str, c: CharacterFile) {
    push_edit(env, Slot::Character, label, &c);
}

impl CharacterScreen {
    pub fn ui(&mut self, ui: &mut egui::Ui, env: &mut Env) {
        let ch = &env.docs.character;
        let verdict = self.verdict.get(env.generation, ch.to_toml(), || {
            core::check_character(env.cat, ch)
        });
        let flagged = builder::flagged(&verdict);
        picker::panel_ui(ui, "character", |ui| {
            ui.horizontal(|ui| {
                ui.selectable_value(&mut self.pick, Pick::Icon, "Icon")
                    .on_hover_text("Character Icons");
                ui.selectable_value(&mut self.pick, Pick::Merit, "Merits")
                    .on_hover_text("Abilities, advantages, allies, arts, treasures");
                ui.selectable_value(&mut self.pick, Pick::Flaw, "Flaws")
                    .on_hover_text("Curses, enemies, weaknesses");
            });
            let (base, title) = match self.pick {
                Pick::Icon => ("game:arcadia kind:icon", "Character Icons"),
                Pick::Merit => ("game:arcadia kind:merit", "Merits"),
                Pick::Flaw => ("game:arcadia kind:flaw", "Flaws"),
            };
            if let Some(id) = self.picker.ui(ui, env, "character", base, title) {
                let mut c = ch.clone();
                match self.pick {
                    Pick::Icon => c.icon = Some(id),
                    Pick::Merit => c.merits.push(id),
                    Pick::Flaw => c.flaws.push(id),
                }
                edit(env, "add card", c);
            }
        });
        egui::CentralPanel::default().show(ui, |ui| {
            doc_bar_ui(ui, env, Slot::Character, ch);
            points_bar_ui(ui, &verdict);
            ui.separator();
            egui::ScrollArea::vertical()
                .id_salt("character-scroll")
                .show(ui, |ui| {
                    ui.horizontal(|ui| {
                        ui.strong("Icon:");
                        match &ch.icon {
                            Some(icon) => {
                                let name = env.name_or_missing(icon);
                                let text = if flagged.contains(icon) {
                                    egui::RichText::new(name).color(ui.visuals().error_fg_color)
                                } else {
                                    egui::RichText::new(name)
                                };
                                ui.label(text);
                                if ui
                                    .small_button("x")
                                    .on_hover_text("Remove the icon")
                                    .clicked()
                                {
                                    let mut c = ch.clone();
                                    c.icon = None;
                                    edit(env, "remove icon", c);
                                }
                            }
                            None => {
                                ui.weak("none: pick a Character Icon");
                            }
                        }
                    });
                    ui.horizontal(|ui| {
                        ui.strong("Declared court:");
                        for (value, text) in [
                            (None, "from the majority"),
                            (Some(Court::Seelie), "Seelie"),
                            (Some(Court::Unseelie), "Unseelie"),
                        ] {
                            if ui
                                .selectable_label(ch.court == value, text)
                                .on_hover_text("Only needed when Seelie and Unseelie are tied")
                                .clicked()
                                && ch.court != value
                            {
                                let mut c = ch.clone();
                                c.court = value;
                                edit(env, "change court", c);
                            }
                        }
                    });
                    ui.horizontal(|ui| {
                        ui.strong("Experience earned:");
                        let mut xp = ch.xp_earned;
                        if ui
                            .add(egui::DragValue::new(&mut xp).range(0..=999))
                            .on_hover_text("Chronicle play: experience earned so far")
                            .changed()
                        {
                            let mut c = ch.clone();
                            c.xp_earned = xp;
                            edit(env, "change experience", c);
                        }
                    });
                    ui.add_space(6.0);
                    ui.strong("Merits taken");
                    if let Some(e) = member_list_ui(
                        ui,
                        env,
                        "merits",
                        &ch.merits,
                        &flagged,
                        &mut self.selected_merit,
                    ) {
                        let mut c = ch.clone();
                        c.merits = e.members;
                        edit(env, e.label, c);
                    }
                    ui.add_space(6.0);
                    ui.strong("Flaws taken");
                    if let Some(e) = member_list_ui(
                        ui,
                        env,
                        "flaws",
                        &ch.flaws,
                        &flagged,
                        &mut self.selected_flaw,
                    ) {
                        let mut c = ch.clone();
                        c.flaw_list_changed(e.members);
                        edit(env, e.label, c);
                    }
                    if !ch.flaws.is_empty() {
                        ui.label("Bought off with experience:");
                        for f in &ch.flaws {
                            let mut on = ch.flaws_bought_off.contains(f);
                            let name = env.card_name(f).unwrap_or_else(|| f.clone());
                            if ui.checkbox(&mut on, name).changed() {
                                let mut c = ch.clone();
                                c.flaws_bought_off.retain(|x| x != f);
                                if on {
                                    c.flaws_bought_off.push(f.clone());
                                }
                                edit(env, "buy off flaw", c);
                            }
                        }
                    }
                    ui.add_space(6.0);
                    verdict_ui(ui, &verdict);
                });
        });
    }
}

/// Edits of a character the builder makes.
trait CharacterEdits {
    fn flaw_list_changed(&mut self, flaws: Vec<String>);
}

impl CharacterEdits for CharacterFile {
    /// Replaces the flaw list; a flaw no longer listed is no longer bought off.
    fn flaw_list_changed(&mut self, flaws: Vec<String>) {
        self.flaws_bought_off.retain(|f| flaws.contains(f));
        self.flaws = flaws;
    }
}

/// The points bar: available / spent / left, from the rules' derived figures.
fn points_bar_ui(ui: &mut egui::Ui, verdict: &core::Verdict) {
    let Some((available, spent)) = verdict.figures.points else {
        return;
    };
    let left = available - spent;
    let frac = if available > 0 {
        (spent as f32 / available as f32).clamp(0.0, 1.0)
    } else {
        1.0
    };
    let color = if left < 0 {
        ui.visuals().error_fg_color
    } else {
        egui::Color32::from_rgb(60, 150, 80)
    };
    ui.horizontal(|ui| {
        ui.label(format!(
            "Points: {available} available, {spent} spent, {left} left"
        ));
        ui.add(
            egui::ProgressBar::new(frac)
                .fill(color)
                .desired_width(240.0),
        )
        .on_hover_text("Merit costs against 10 + flaw points + experience available");
    });
}
