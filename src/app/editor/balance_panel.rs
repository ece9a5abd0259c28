//! The card editor's Balance panel: the Iconica character being edited, re-measured in the
//! background after each valid edit (the run in flight is cancelled), against the field of
//! the catalogue's characters with `greedy`: its win rate with the interval, its rank, the
//! impact of each part as bars with whiskers, and confirmed suggestions, each with a button
//! that applies its edit as one undo step. The measuring is the core's (`crate::balance`).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, Sender, channel};

use egui_plot::{Bar, BarChart, Line, Plot, PlotPoints};

use crate::balance::iconica::{Balance, Impact, Settings, Suggestion};
use crate::balance::{Rate, Runner, Stopping};
use crate::cards::Card;
use crate::games::ai::Policy;
use crate::games::iconica::engine::Rules;
use crate::games::iconica::model::Character;

/// What the background run sends, stage by stage.
enum Msg {
    Rate(Rate),
    Impact(Vec<Impact>),
    Rank(usize, usize),
    Suggestions(Vec<Suggestion>),
    Failed(String),
    Done,
}

/// The figures of one card, as they arrive.
#[derive(Default)]
struct Figures {
    rate: Option<Rate>,
    impact: Option<Vec<Impact>>,
    rank: Option<(usize, usize)>,
    suggestions: Option<Vec<Suggestion>>,
    failed: Option<String>,
    done: bool,
}

struct Job {
    card: Character,
    stop: Arc<AtomicBool>,
    rx: Receiver<Msg>,
}

/// The panel's state: the catalogue's characters, the run in flight and what it measured.
pub struct BalancePanel {
    /// Shown and measuring (the toggle beside the preview): on unless the user turned it
    /// off (remembered in the session).
    pub on: bool,
    /// The AI both sides use, named on every figure (`greedy`).
    pub ai: Policy,
    /// When a run stops (precision 0.02, at most 100,000 games).
    pub stopping: Stopping,
    pool: Option<(u64, Vec<Character>)>,
    job: Option<Job>,
    figures: Figures,
}

impl Default for BalancePanel {
    fn default() -> Self {
        BalancePanel {
            on: true,
            ai: Policy::Greedy,
            stopping: Stopping::default(),
            pool: None,
            job: None,
            figures: Figures::default(),
        }
    }
}

impl Drop for BalancePanel {
    fn drop(&mut self) {
        self.cancel();
    }
}

/// The whole measurement of `card`, each stage sent as soon as it is known.
fn measure(
    pool: Vec<Character>,
    card: Character,
    (ai, stopping): (Policy, Stopping),
    stop: Arc<AtomicBool>,
    tx: Sender<Msg>,
) {
    let run = || -> Result<(), crate::balance::BalanceError> {
        let runner = Runner::new(None, stopping, &stop)?;
        let settings = Settings {
            rules: Rules::default(),
            ai,
            seed: 1,
        };
        let mut b = Balance::new(&pool, &card, None, settings, &runner)?;
        let rate = b.rate()?;
        let _ = tx.send(Msg::Rate(rate));
        let _ = tx.send(Msg::Impact(b.impact()?));
        let rank = b.rank(None)?;
        let _ = tx.send(Msg::Rank(rank.position, rank.of));
        let _ = tx.send(Msg::Suggestions(b.suggest(&rate)?));
        Ok(())
    };
    match run() {
        Ok(()) => {
            let _ = tx.send(Msg::Done);
        }
        Err(crate::balance::BalanceError::Stopped) => {}
        Err(e) => {
            let _ = tx.send(Msg::Failed(e.to_string()));
        }
    }
}

impl BalancePanel {
    /// Cancels the run in flight, if any.
    pub fn cancel(&mut self) {
        if let Some(job) = self.job.take() {
            job.stop.store(true, Ordering::Relaxed);
        }
    }

    /// Starts measuring `card` unless it is the one measured; cancels the run in flight.
    fn follow(&mut self, card: &Character, pool: &[Character]) {
        if self.job.as_ref().is_some_and(|j| &j.card == card) {
            return;
        }
        self.cancel();
        self.figures = Figures::default();
        let stop = Arc::new(AtomicBool::new(false));
        let (tx, rx) = channel();
        let (p, c, s) = (pool.to_vec(), card.clone(), stop.clone());
        let how = (self.ai, self.stopping);
        std::thread::spawn(move || measure(p, c, how, s, tx));
        self.job = Some(Job {
            card: card.clone(),
            stop,
            rx,
        });
    }

    fn receive(&mut self) {
        let Some(job) = &self.job else { return };
        while let Ok(m) = job.rx.try_recv() {
            let f = &mut self.figures;
            match m {
                Msg::Rate(r) => f.rate = Some(r),
                Msg::Impact(i) => f.impact = Some(i),
                Msg::Rank(p, of) => f.rank = Some((p, of)),
                Msg::Suggestions(s) => f.suggestions = Some(s),
                Msg::Failed(e) => {
                    f.failed = Some(e);
                    f.done = true;
                }
                Msg::Done => f.done = true,
            }
        }
    }

    /// Draws the panel for the edited card (`None`: not a valid Iconica character); returns
    /// the TOML of a suggestion the user chose to apply, with its label.
    pub fn ui(
        &mut self,
        ui: &mut egui::Ui,
        cat: &crate::catalogue::Catalogue,
        generation: u64,
        card: Option<&Card>,
    ) -> Option<(String, Character)> {
        ui.heading("Balance");
        if !self.on {
            self.cancel();
            return None;
        }
        let Some(Card::Iconica(card)) = card else {
            self.cancel();
            ui.weak("Balance is measured for a valid Iconica character.");
            return None;
        };
        if self.pool.as_ref().is_none_or(|(g, _)| *g != generation) {
            let chars = cat
                .all()
                .map(|all| {
                    all.into_iter()
                        .filter_map(|c| match c {
                            Card::Iconica(ch) => Some(ch),
                            _ => None,
                        })
                        .collect()
                })
                .unwrap_or_default();
            self.pool = Some((generation, chars));
            // The field changed: measure again.
            self.cancel();
        }
        let pool = self.pool.as_ref().map(|p| p.1.clone()).unwrap_or_default();
        self.follow(card, &pool);
        self.receive();
        if !self.figures.done {
            ui.ctx()
                .request_repaint_after(std::time::Duration::from_millis(100));
        }
        self.figures_ui(ui)
    }

    fn figures_ui(&self, ui: &mut egui::Ui) -> Option<(String, Character)> {
        let f = &self.figures;
        let ai = self.ai.name();
        if let Some(e) = &f.failed {
            ui.colored_label(ui.visuals().warn_fg_color, format!("Not measured: {e}"));
            return None;
        }
        let Some(rate) = &f.rate else {
            ui.horizontal(|ui| {
                ui.spinner();
                ui.label("Measuring against the field…");
            });
            return None;
        };
        ui.label(format!(
            "Field win rate {:.1}% (95% CI {:.1}% to {:.1}%), {} games, {ai} on both sides; draws count as half",
            rate.win_rate * 100.0,
            rate.ci95.0 * 100.0,
            rate.ci95.1 * 100.0,
            rate.games
        ));
        match f.rank {
            Some((p, of)) => ui.label(format!("Rank {p} of {of} among the catalogue's characters")),
            None => ui.weak("Rank: measuring…"),
        };
        if let Some(impact) = &f.impact {
            ui.label(format!(
                "Impact of each part when removed (points, paired, {ai}):"
            ));
            impact_plot(
                ui,
                "balance-impact",
                140.0,
                impact.iter().map(|i| (i.part.as_str(), &i.delta)),
            );
            for (k, i) in impact.iter().enumerate() {
                ui.small(format!(
                    "{}: {} {:+.1} ({:+.1} to {:+.1})",
                    k + 1,
                    i.part,
                    i.delta.delta * 100.0,
                    i.delta.ci95.0 * 100.0,
                    i.delta.ci95.1 * 100.0
                ));
            }
        } else {
            ui.weak("Impact: measuring…");
        }
        let mut chosen = None;
        match &f.suggestions {
            None => {
                ui.weak("Suggestions: measuring…");
            }
            Some(s) if s.is_empty() => {
                ui.weak(if (0.45..=0.55).contains(&rate.win_rate) {
                    "Within 45–55%: no change suggested."
                } else {
                    "No small change was confirmed within 45–55%."
                });
            }
            Some(s) => {
                for sug in s {
                    ui.horizontal_wrapped(|ui| {
                        ui.label(format!(
                            "{} -> {:.1}% ({:.1}% to {:.1}%, {ai})",
                            sug.change,
                            sug.measured.other.win_rate * 100.0,
                            sug.measured.other.ci95.0 * 100.0,
                            sug.measured.other.ci95.1 * 100.0
                        ));
                        if ui.button("Apply").clicked() {
                            chosen = Some((format!("Balance: {}", sug.change), sug.card.clone()));
                        }
                    });
                }
            }
        }
        chosen
    }
}

/// The impact bars (points of win rate) with their 95% whiskers, one bar a part: the
/// editor's Iconica and Arcadia panels both draw their parts with it (`id` keeps the plots
/// apart).
pub(super) fn impact_plot<'a>(
    ui: &mut egui::Ui,
    id: &str,
    height: f32,
    parts: impl Iterator<Item = (&'a str, &'a crate::balance::Delta)>,
) {
    let parts: Vec<_> = parts.collect();
    let bars: Vec<Bar> = parts
        .iter()
        .enumerate()
        .map(|(k, (part, d))| Bar::new((k + 1) as f64, d.delta * 100.0).name(part))
        .collect();
    let whiskers: Vec<Line> = parts
        .iter()
        .enumerate()
        .map(|(k, (_, d))| {
            let x = (k + 1) as f64;
            Line::new(
                format!("95% CI {}", k + 1),
                PlotPoints::new(vec![[x, d.ci95.0 * 100.0], [x, d.ci95.1 * 100.0]]),
            )
            .color(ui.visuals().strong_text_color())
        })
        .collect();
    Plot::new(id)
        .height(height)
        .allow_drag(false)
        .allow_zoom(false)
        .allow_scroll(false)
        .show(ui, |p| {
            p.bar_chart(BarChart::new("impact", bars).width(0.6));
            for w in whiskers {
                p.line(w);
            }
        });
}
