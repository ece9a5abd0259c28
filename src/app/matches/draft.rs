//! The draft on the Play view: you and the computer roll, the lowest picks first, and picks
//! alternate until each side has three ([`crate::games::iconica::draft`]). The characters
//! left are a grid of their card pictures that reflows with the window; a pick that keeps
//! your party legal is clicked (or reached with Tab and taken with Enter), the others are
//! greyed with the rule they would break in their hover. Each side's picks so far are small
//! pictures in its row. The computer picks with its seat's policy. The parties then play with
//! the first picker as side A (the lowest roll plays first).

use std::sync::Arc;

use super::pictures::{Pictures, card_height};
use crate::app::core;
use crate::cards::Card;
use crate::catalogue::Catalogue;
use crate::games::ai::Policy;
use crate::games::dice::RngDice;
use crate::games::iconica::draft::{Draft, PARTY};
use crate::games::iconica::engine::{Rules, Setup};
use crate::games::iconica::model::Character;
use crate::games::session::Seat;
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
pub struct DraftPanel {
    pub draft: Option<Draft>,
    /// The computer's policy.
    pub policy: Policy,
    dice: Option<RngDice>,
    pub message: Option<String>,
    /// Why each pool character is not offered (`None`: offered), worked out once for the
    /// picks it was worked out for, not every frame.
    offers: Option<Offers>,
}

impl Default for DraftPanel {
    fn default() -> Self {
        DraftPanel {
            draft: None,
            policy: Policy::Greedy,
            dice: None,
            message: None,
            offers: None,
        }
    }
}

/// The picks the reasons were worked out for, and each pool character's reason (`None`:
/// offered).
type Offers = ([Vec<usize>; 2], Vec<Option<String>>);

const WHO: [&str; 2] = ["You", "The computer"];
/// The parties' names (player 0's first), in the match and in the rules' sentences.
const PARTIES: [&str; 2] = ["Your draft", "The computer's draft"];
/// The room between card pictures.
const GAP: f32 = 10.0;

impl DraftPanel {
    /// A new draft over the catalogue's Iconica characters, its dice from `seed`, the
    /// computer picking with `policy`.
    pub fn begin(&mut self, cat: &Catalogue, seed: u64, policy: Policy) {
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
        let mut dice = RngDice::new(derive_seed(seed, DRAFT_STREAM));
        match Draft::start(pool, &mut dice) {
            Ok(d) => {
                self.draft = Some(d);
                self.dice = Some(dice);
                self.offers = None;
                self.policy = policy;
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
            match d.choose(self.policy, dice) {
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
    pub fn ui(
        &mut self,
        ui: &mut egui::Ui,
        cat: &Catalogue,
        rules: Rules,
        pictures: &mut Pictures,
    ) -> Option<Drafted> {
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
            egui::RichText::new(if d.first == 0 {
                "You pick first and play first (side A)."
            } else {
                "The computer picks first and plays first (side A)."
            })
            .strong(),
        );
        ui.horizontal_top(|ui| {
            for (p, who) in WHO.iter().enumerate() {
                if p > 0 {
                    ui.add_space(32.0);
                }
                ui.vertical(|ui| party_row(ui, d, p, who, pictures, cat));
            }
        });
        ui.separator();
        if d.done() {
            if ui
                .button("Play the drafted parties")
                .on_hover_text("Start the match: the first picker is side A and plays first")
                .clicked()
            {
                return self.finish(cat, rules);
            }
            return None;
        }
        ui.label(
            egui::RichText::new(
                "Your pick: a character that keeps your party legal (click its card, or Tab to it and press Enter)",
            )
            .strong(),
        );
        // Why each character is not offered, worked out once for these picks.
        if self
            .offers
            .as_ref()
            .is_none_or(|(picks, _)| *picks != d.picks)
        {
            let why = (0..d.pool.len())
                .map(|i| d.refusal(i, PARTIES).map(|r| r.to_string()))
                .collect();
            self.offers = Some((d.picks.clone(), why));
        }
        let why = self
            .offers
            .as_ref()
            .map(|(_, w)| w.as_slice())
            .unwrap_or(&[]);
        let free: Vec<usize> = (0..d.pool.len()).filter(|&i| !d.taken(i)).collect();
        let mut chosen = None;
        egui::ScrollArea::vertical()
            .id_salt("draft-pool")
            .show(ui, |ui| {
                // As many cards a row as fit at 100 to 160 points wide (a ninth of the width).
                let avail = ui.available_width();
                let min_w = (avail / 9.0).clamp(100.0, 160.0);
                let cols = (((avail + GAP) / (min_w + GAP)).floor() as usize).max(1);
                let w = ((avail - GAP * (cols - 1) as f32) / cols as f32).clamp(60.0, 190.0);
                for row in free.chunks(cols) {
                    ui.horizontal(|ui| {
                        ui.spacing_mut().item_spacing.x = GAP;
                        for &i in row {
                            let c = &d.pool[i];
                            let refused = why.get(i).cloned().flatten();
                            let ok = refused.is_none();
                            let r = ui
                                .add_enabled_ui(ok, |ui| {
                                    card_tile(ui, pictures, cat, c, w, 13.0, &c.name, true)
                                })
                                .inner
                                .on_hover_text(format!(
                                    "Pick {}\n{}, {}, Start {}",
                                    c.name,
                                    crate::games::word(&c.faction),
                                    crate::games::word(&c.rarity),
                                    c.health.start
                                ))
                                .on_disabled_hover_text(format!(
                                    "{} would make your party illegal: {}",
                                    c.name,
                                    refused.as_deref().unwrap_or("it breaks a party rule")
                                ));
                            if ok && r.clicked() {
                                chosen = Some(i);
                            }
                        }
                    });
                    ui.add_space(GAP / 2.0);
                }
            });
        if let Some(i) = chosen {
            d.pick(i);
            ui.ctx().request_repaint();
        }
        None
    }

    /// The drafted parties, compiled for a match.
    fn finish(&mut self, cat: &Catalogue, rules: Rules) -> Option<Drafted> {
        let d = self.draft.as_ref()?;
        let [(pa, a), (pb, b)] = d.parties(PARTIES);
        let ready = core::match_ready(cat, &a, &b, rules);
        match ready.setup {
            Ok(setup) => {
                let seat = |p: usize| {
                    if p == 0 {
                        Seat::Person
                    } else {
                        Seat::Computer(self.policy)
                    }
                };
                let members = side_ids(&setup);
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

/// Each side's member ids in party order.
pub fn side_ids(setup: &Setup) -> [Vec<String>; 2] {
    let mut ids = [Vec::new(), Vec::new()];
    for s in 0..setup.chars.len() {
        ids[usize::from(setup.side[s].min(1))].push(setup.id(s).to_string());
    }
    ids
}

/// One side's picks so far as small card pictures under its name and count.
fn party_row(
    ui: &mut egui::Ui,
    d: &Draft,
    p: usize,
    who: &str,
    pictures: &mut Pictures,
    cat: &Catalogue,
) {
    ui.label(format!("{who} ({} of {PARTY})", d.picks[p].len()));
    ui.horizontal(|ui| {
        if d.picks[p].is_empty() {
            ui.weak("none yet");
        }
        for &i in &d.picks[p] {
            let c = &d.pool[i];
            let label = format!("{}, picked by {}", c.name, who.to_lowercase());
            card_tile(ui, pictures, cat, c, 60.0, 11.0, &label, false).on_hover_text(&label);
        }
    });
}

/// Card `c`'s picture `w` wide with its name under it; a button (labelled `label`) when
/// `button`, greyed when the ui is disabled, outlined when hovered or focused.
#[allow(clippy::too_many_arguments)]
fn card_tile(
    ui: &mut egui::Ui,
    pictures: &mut Pictures,
    cat: &Catalogue,
    c: &Character,
    w: f32,
    font: f32,
    label: &str,
    button: bool,
) -> egui::Response {
    let enabled = ui.is_enabled();
    let color = if enabled {
        ui.visuals().text_color()
    } else {
        ui.visuals().weak_text_color()
    };
    let mut job =
        egui::text::LayoutJob::simple(c.name.clone(), egui::FontId::proportional(font), color, w);
    job.halign = egui::Align::Center;
    let name = ui.fonts_mut(|f| f.layout_job(job));
    let h = card_height(w);
    let sense = if button {
        egui::Sense::click()
    } else {
        egui::Sense::hover()
    };
    let (rect, response) =
        ui.allocate_exact_size(egui::vec2(w, h + 4.0 + 2.0 * (font + 3.0)), sense);
    if ui.is_rect_visible(rect) {
        let card = egui::Rect::from_min_size(rect.min, egui::vec2(w, h));
        pictures.paint(ui, cat, &c.id, &c.name, card, enabled);
        ui.painter().galley(
            egui::pos2(rect.center().x, card.bottom() + 3.0),
            name,
            color,
        );
        if button && enabled && (response.hovered() || response.has_focus()) {
            let stroke = egui::Stroke::new(3.0, ui.visuals().selection.stroke.color);
            ui.painter()
                .rect_stroke(card.expand(2.0), 6.0, stroke, egui::StrokeKind::Outside);
        }
    }
    let role = if button {
        egui::Role::Button
    } else {
        egui::Role::Image
    };
    response.widget_info(|| egui::WidgetInfo::labeled(role, enabled, label));
    response
}
