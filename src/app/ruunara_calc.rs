//! The Ruunara calculators beside the Squad screen: the odds of an attack `nD k+` (cover, an
//! instant kill on k+, the target's hit points and the hit points a hit costs: the hit
//! distribution and the chance to kill, exactly as `deckwright odds ruunara` computes them) and the close-combat duel (a figure
//! against one or more figures: the chance of each ending and the mean rounds, as
//! `deckwright duel ruunara` plays them).

use crate::catalogue::Catalogue;
use crate::games::ruunara::duel::{DuelEnd, DuelReport, duel};
use crate::games::ruunara::model::{Dice, MAX_DAMAGE};
use crate::games::ruunara::odds::{Attack, Odds, odds};
use crate::games::ruunara::rules::resolve_member;

/// The most dice the odds calculator throws (as the command line allows).
pub const MAX_DICE: u32 = 30;

/// The calculators' questions and last answers.
pub struct CalcPanel {
    pub dice: u32,
    pub min: u8,
    pub cover: bool,
    pub kill: bool,
    pub kill_on: u8,
    pub with_hp: bool,
    pub hp: u32,
    /// Hit points each hit costs (a skill's `damage`).
    pub damage: u32,
    /// Figure A of the duel (card id or name).
    pub a: String,
    /// The figures A fights (ids or names, separated by commas).
    pub bs: String,
    pub games: u32,
    pub seed: u64,
    /// The last duel's question and answer (or why it could not be played).
    pub duel: Option<(String, Result<DuelReport, String>)>,
}

impl Default for CalcPanel {
    fn default() -> Self {
        CalcPanel {
            dice: 3,
            min: 4,
            cover: false,
            kill: false,
            kill_on: 6,
            with_hp: true,
            hp: 2,
            damage: 1,
            a: String::new(),
            bs: "ru-ghoul-gnawer".into(),
            games: 2000,
            seed: 1,
            duel: None,
        }
    }
}

/// A duel ending in words.
fn ending_words(e: DuelEnd) -> &'static str {
    match e {
        DuelEnd::AWins => "A wins",
        DuelEnd::AExecuted => "A executed at 0 hp",
        DuelEnd::ACapturedExecuted => "A captured, then executed",
        DuelEnd::RoundLimit => "Round limit",
    }
}

impl CalcPanel {
    /// The attack asked.
    pub fn attack(&self) -> Attack {
        Attack {
            dice: Dice {
                count: self.dice.clamp(1, MAX_DICE),
                min: self.min.clamp(1, 6),
            },
            cover: self.cover,
            kill_on: self.kill.then_some(self.kill_on.clamp(1, 6)),
            hp: self.with_hp.then_some(self.hp.max(1)),
            damage: self.damage.clamp(1, MAX_DAMAGE),
        }
    }

    /// Plays the duel asked.
    pub fn play_duel(&mut self, cat: &Catalogue) {
        let asked = format!("{} vs {}", self.a.trim(), self.bs.trim());
        let answer = (|| {
            let a = resolve_member(cat, self.a.trim())?;
            let bs = self
                .bs
                .split(',')
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(|b| resolve_member(cat, b))
                .collect::<Result<Vec<_>, _>>()?;
            if bs.is_empty() {
                return Err("Name at least one figure for A to fight.".to_string());
            }
            duel(&a, &bs, self.games.max(1), self.seed).map_err(|e| e.to_string())
        })();
        self.duel = Some((asked, answer));
    }

    /// The panel; `squad` lists the squad's members (offered as figure A).
    pub fn ui(&mut self, ui: &mut egui::Ui, cat: &Catalogue, squad: &[String]) {
        egui::ScrollArea::vertical()
            .id_salt("ruunara-calc-scroll")
            .show(ui, |ui| {
                self.odds_ui(ui);
                ui.separator();
                self.duel_ui(ui, cat, squad);
            });
    }

    fn odds_ui(&mut self, ui: &mut egui::Ui) {
        ui.heading("Attack odds");
        egui::Grid::new("ruunara-odds-grid")
            .num_columns(2)
            .show(ui, |ui| {
                let label = ui.label("Dice");
                ui.horizontal(|ui| {
                    ui.add(egui::DragValue::new(&mut self.dice).range(1..=MAX_DICE))
                        .labelled_by(label.id);
                    let label = ui.label("D, hit on");
                    ui.add(egui::DragValue::new(&mut self.min).range(1..=6))
                        .labelled_by(label.id);
                    ui.label("+");
                });
                ui.end_row();
                ui.label("");
                ui.checkbox(&mut self.cover, "Target under cover")
                    .on_hover_text("Each hit is cancelled on a cover roll of 3+");
                ui.end_row();
                let label = ui.checkbox(&mut self.kill, "Instant kill on");
                ui.add_enabled(
                    self.kill,
                    egui::DragValue::new(&mut self.kill_on)
                        .range(1..=6)
                        .suffix("+"),
                )
                .labelled_by(label.id);
                ui.end_row();
                let label = ui.checkbox(&mut self.with_hp, "Target hit points");
                ui.add_enabled(
                    self.with_hp,
                    egui::DragValue::new(&mut self.hp).range(1..=99),
                )
                .labelled_by(label.id);
                ui.end_row();
                let label = ui.label("Hit points a hit");
                ui.add_enabled(
                    self.with_hp,
                    egui::DragValue::new(&mut self.damage).range(1..=MAX_DAMAGE),
                )
                .labelled_by(label.id)
                .on_hover_text("A skill's damage: each hit costs this many hit points");
                ui.end_row();
            });
        let a = self.attack();
        let o: Odds = odds(&a);
        ui.label(format!(
            "{}D{}+: {:.2} hits expected",
            a.dice.count, a.dice.min, o.expected_hits
        ));
        if let Some(k) = o.kill_chance {
            ui.strong(format!("Chance to kill: {:.1}%", k * 100.0));
        }
        egui::Grid::new("ruunara-odds-dist")
            .striped(true)
            .num_columns(2)
            .show(ui, |ui| {
                ui.strong("Hits");
                ui.strong("Chance");
                ui.end_row();
                for (h, p) in o.distribution.iter().enumerate() {
                    ui.label(h.to_string());
                    ui.label(format!("{:.1}%", p * 100.0));
                    ui.end_row();
                }
            });
    }

    fn duel_ui(&mut self, ui: &mut egui::Ui, cat: &Catalogue, squad: &[String]) {
        ui.heading("Close-combat duel");
        if self.a.trim().is_empty()
            && let Some(first) = squad.first()
        {
            self.a = first.clone();
        }
        egui::Grid::new("ruunara-duel-grid")
            .num_columns(2)
            .show(ui, |ui| {
                let label = ui.label("Figure A");
                ui.horizontal(|ui| {
                    ui.add(egui::TextEdit::singleline(&mut self.a).desired_width(140.0))
                        .labelled_by(label.id)
                        .on_hover_text("A card id or name");
                    egui::ComboBox::from_id_salt("ruunara-duel-a")
                        .selected_text("squad")
                        .width(60.0)
                        .show_ui(ui, |ui| {
                            for m in squad {
                                if ui.selectable_label(self.a == *m, m).clicked() {
                                    self.a = m.clone();
                                }
                            }
                        })
                        .response
                        .labelled_by(label.id)
                        .on_hover_text("A member of the squad");
                });
                ui.end_row();
                let label = ui.label("Against");
                ui.add(egui::TextEdit::singleline(&mut self.bs).desired_width(200.0))
                    .labelled_by(label.id)
                    .on_hover_text("Card ids or names, separated by commas");
                ui.end_row();
                let label = ui.label("Duels");
                ui.add(egui::DragValue::new(&mut self.games).range(1..=100_000))
                    .labelled_by(label.id);
                ui.end_row();
                let label = ui.label("Duel seed");
                ui.add(egui::DragValue::new(&mut self.seed))
                    .labelled_by(label.id);
                ui.end_row();
            });
        if ui
            .button("Play the duels")
            .on_hover_text("A engaged with every figure named, played to the end by the engine")
            .clicked()
        {
            self.play_duel(cat);
        }
        match &self.duel {
            None => {
                ui.weak("Name a figure and its opponents, then play the duels.");
            }
            Some((asked, Err(why))) => {
                ui.label(asked);
                ui.colored_label(ui.visuals().error_fg_color, why);
            }
            Some((asked, Ok(r))) => {
                ui.label(format!("{asked}: {} duels", r.games));
                egui::Grid::new("ruunara-duel-result")
                    .striped(true)
                    .num_columns(2)
                    .show(ui, |ui| {
                        for e in DuelEnd::ALL {
                            ui.label(ending_words(e));
                            ui.label(format!("{:.1}%", r.chance(e) * 100.0));
                            ui.end_row();
                        }
                    });
                ui.label(format!("Mean rounds: {:.2}", r.mean_rounds()));
            }
        }
    }
}
