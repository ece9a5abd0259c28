//! The draft on the Play view: you and the computer roll, the lowest picks first, and picks
//! alternate until each side has three ([`crate::games::iconica::draft`]); only picks that
//! keep your party legal are offered; the computer picks with side B's policy. The parties
//! then play with the first picker as side A (the lowest roll plays first).

use std::sync::Arc;

use super::MatchOptions;
use super::iconica_board::Seat;
use crate::app::core;
use crate::cards::Card;
use crate::catalogue::Catalogue;
use crate::games::ai::Policy;
use crate::games::dice::RngDice;
use crate::games::iconica::draft::{Draft, PARTY};
use crate::games::iconica::engine::Setup;
use crate::sim::derive_seed;

/// The dice stream of a draft, apart from the match's own dice.
pub const DRAFT_STREAM: u64 = 0x000D_0AF7;

/// A finished draft, ready to play.
pub struct Drafted {
    pub setup: Arc<Setup>,
    /// The parties' names and members in play order.
    pub names: [String; 2],
    pub members: [Vec<String>; 2],
    pub seats: [Seat; 2],
}

/// The draft's state: player 0 is you, player 1 the computer.
#[derive(Default)]
pub struct DraftPanel {
    pub draft: Option<Draft>,
    /// The computer's policy (side B's on the left).
    pub policy: &'static str,
    dice: Option<RngDice>,
    pub message: Option<String>,
}

const WHO: [&str; 2] = ["You", "The computer"];

impl DraftPanel {
    /// A new draft over the catalogue's Iconica characters, its dice from the options' seed.
    pub fn begin(&mut self, cat: &Catalogue, o: &MatchOptions) {
        let pool: Vec<_> = match cat.all() {
            Ok(cards) => cards
                .into_iter()
                .filter_map(|c| match c {
                    Card::Iconica(ch) => Some(ch),
                    _ => None,
                })
                .collect(),
            Err(e) => {
                self.message = Some(format!("The catalogue cannot be read: {e}"));
                return;
            }
        };
        let mut dice = RngDice::new(derive_seed(o.seed, DRAFT_STREAM));
        match Draft::start(pool, &mut dice) {
            Ok(d) => {
                self.draft = Some(d);
                self.dice = Some(dice);
                self.policy = o.policies[1];
                self.message = None;
            }
            Err(e) => {
                self.draft = None;
                self.message = Some(format!("No draft: {e}."));
            }
        }
    }

    /// The computer takes its picks while it is its turn.
    pub fn computer_picks(&mut self) {
        let (Some(d), Some(dice)) = (&mut self.draft, &mut self.dice) else {
            return;
        };
        while d.to_pick() == Some(1) {
            let policy = Policy::parse(self.policy).unwrap_or(Policy::Greedy);
            match d.choose(policy, dice) {
                Some(i) => {
                    d.pick(i);
                }
                None => {
                    self.message = Some("The computer has no legal pick left.".into());
                    return;
                }
            }
        }
    }

    /// The draft: the rolls, both parties so far and your legal picks; returns the parties
    /// when you start the match.
    pub fn ui(&mut self, ui: &mut egui::Ui, cat: &Catalogue, o: &MatchOptions) -> Option<Drafted> {
        self.computer_picks();
        if let Some(m) = &self.message {
            ui.colored_label(ui.visuals().error_fg_color, m);
        }
        let Some(d) = &mut self.draft else {
            ui.add_space(8.0);
            ui.weak("New draft: you and the computer roll a die; the lowest picks first and plays first.");
            return None;
        };
        ui.add_space(6.0);
        for (k, (a, b)) in d.rolls.iter().enumerate() {
            let tie = if k + 1 < d.rolls.len() {
                ": a tie, rolled again"
            } else {
                ""
            };
            ui.label(format!("You rolled {a}, the computer rolled {b}{tie}."));
        }
        ui.label(
            egui::RichText::new(format!(
                "{} picks first and plays first (side A).",
                WHO[d.first]
            ))
            .strong(),
        );
        for (p, who) in WHO.iter().enumerate() {
            let names: Vec<&str> = d.picks[p]
                .iter()
                .map(|&i| d.pool[i].name.as_str())
                .collect();
            ui.label(format!(
                "{who} ({} of {PARTY}): {}",
                names.len(),
                if names.is_empty() {
                    "none yet".to_string()
                } else {
                    names.join(", ")
                }
            ));
        }
        ui.separator();
        if d.done() {
            if ui
                .button("Play the drafted parties")
                .on_hover_text("Start the match: the first picker is side A and plays first")
                .clicked()
            {
                return self.finish(cat, o);
            }
            return None;
        }
        ui.label(
            egui::RichText::new("Your pick: a character that keeps your party legal").strong(),
        );
        let legal = d.legal();
        let mut chosen = None;
        egui::ScrollArea::vertical()
            .id_salt("draft-pool")
            .show(ui, |ui| {
                egui::Grid::new("draft-pool-grid")
                    .num_columns(2)
                    .striped(true)
                    .show(ui, |ui| {
                        for (i, c) in d.pool.iter().enumerate() {
                            if d.taken(i) {
                                continue;
                            }
                            let ok = legal.contains(&i);
                            let b = ui
                                .add_enabled(ok, egui::Button::new(&c.name))
                                .on_disabled_hover_text("This pick would make your party illegal");
                            if b.clicked() {
                                chosen = Some(i);
                            }
                            ui.weak(format!(
                                "{}, {}, Start {}",
                                crate::games::word(&c.faction),
                                crate::games::word(&c.rarity),
                                c.health.start
                            ));
                            ui.end_row();
                        }
                    });
            });
        if let Some(i) = chosen {
            d.pick(i);
            ui.ctx().request_repaint();
        }
        None
    }

    /// The drafted parties, compiled for a match.
    fn finish(&mut self, cat: &Catalogue, o: &MatchOptions) -> Option<Drafted> {
        let d = self.draft.as_ref()?;
        let [(pa, a), (pb, b)] = d.parties(["Your draft", "The computer's draft"]);
        let ready = core::match_ready(cat, &a, &b, o.rules());
        match ready.setup {
            Ok(setup) => {
                let seat = |p: usize| {
                    if p == 0 {
                        Seat::Person
                    } else {
                        Seat::Computer(self.policy)
                    }
                };
                let members = super::play::side_ids(&setup);
                Some(Drafted {
                    setup,
                    names: [a.name.clone(), b.name.clone()],
                    members,
                    seats: [seat(pa), seat(pb)],
                })
            }
            Err(e) => {
                self.message = Some(e);
                None
            }
        }
    }
}
