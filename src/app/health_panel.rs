//! The rules' health of what a builder screen shows (the Setup screen's quest setup, the
//! Party screen's match): seeded matches under random and greedy played on a background job
//! with progress and Stop, then the warnings `deckwright health` gives for it, each with the
//! seed and policy that show it. The check itself is the core's (`sim::health`); this panel
//! only starts it, shows it, and says when the screen changed since.

use super::matches::job::{Job, Poll, Progress, inline_turns};
use crate::cards::Card;
use crate::games::registry::Registration;
use crate::sim::health::{self, Checkup, Finding, Health};

/// A finished check in words.
#[derive(Debug, Clone, Default)]
pub struct HealthView {
    pub summary: Vec<String>,
    pub warnings: Vec<Finding>,
}

impl HealthView {
    pub fn of(h: &Health) -> HealthView {
        HealthView {
            summary: h.summary(),
            warnings: h.findings.clone(),
        }
    }
}

/// The matches a builder screen's check plays: few enough to answer in seconds.
pub fn checkup() -> Checkup {
    Checkup {
        games: 100,
        ..Checkup::default()
    }
}

/// Runs [`checkup`] on the match of `game` that the record options `options` describe (a
/// setup whose start does not depend on the seed), reporting each match to `p`.
pub fn run(game: &'static Registration, options: toml::Table, p: &Progress) -> Checked {
    // Opened once; each match plays a clone of it.
    let none: Vec<Card> = Vec::new();
    let opened = std::sync::Mutex::new(
        (game.open)(&options, &none)
            .map_err(|e| e.to_string())?
            .game,
    );
    let start = |_seed: u64| Ok(opened.lock().unwrap_or_else(|e| e.into_inner()).clone_box());
    let endings = game.options.sim.map(|s| (s.endings)()).unwrap_or_default();
    let h = health::check(&start, &endings, &checkup(), p.stop_flag(), &|n| p.add(n))?;
    Ok(h.map(|h| HealthView::of(&h)))
}

/// The work of a check, given to its job.
pub type Work = Box<dyn FnOnce(&Progress) -> Checked + Send>;

/// What a check's job gives: the view, `None` when stopped, or why it could not play.
pub type Checked = Result<Option<HealthView>, String>;

/// The panel's state.
#[derive(Default)]
pub struct HealthPanel {
    job: Option<(String, Job<Checked>)>,
    /// The last result, with the screen's key it was checked for.
    result: Option<(String, HealthView)>,
    message: Option<String>,
}

impl HealthPanel {
    /// The panel for what the screen shows (`key` changes whenever it does); `work` makes the
    /// check when asked (an error says why there is none, e.g. an illegal setup).
    pub fn ui(
        &mut self,
        ui: &mut egui::Ui,
        id: &str,
        key: &str,
        work: impl FnOnce() -> Result<Work, String>,
    ) {
        ui.push_id(("health", id), |ui| self.panel_ui(ui, key, work));
    }

    fn panel_ui(
        &mut self,
        ui: &mut egui::Ui,
        key: &str,
        work: impl FnOnce() -> Result<Work, String>,
    ) {
        ui.strong("Health");
        if let Some((for_key, job)) = &self.job {
            match job.poll() {
                Poll::Running => {
                    ui.horizontal(|ui| {
                        ui.add(
                            egui::ProgressBar::new(job.fraction())
                                .desired_width(160.0)
                                .show_percentage(),
                        );
                        if ui
                            .button("Stop")
                            .on_hover_text("Stop the check; nothing is reported")
                            .clicked()
                        {
                            job.cancel();
                        }
                    });
                    return;
                }
                Poll::Finished(Ok(Some(v))) => {
                    self.result = Some((for_key.clone(), v));
                    self.job = None;
                }
                Poll::Finished(Err(e)) => {
                    self.message = Some(format!("The check could not play the matches: {e}"));
                    self.job = None;
                }
                Poll::Finished(Ok(None)) => {
                    self.message = Some("Stopped: nothing to report.".into());
                    self.job = None;
                }
                Poll::Lost => {
                    self.message =
                        Some("The check failed (its thread ended without a result).".into());
                    self.job = None;
                }
            }
        }
        let total = checkup().games * checkup().policies.len() as u64;
        if ui
            .button("Check health")
            .on_hover_text(format!(
                "Play {} seeded matches of what is on screen (random and greedy) and report stalls, limits, a favoured seat, endings never or always reached and options never taken: deckwright health",
                total
            ))
            .clicked()
        {
            self.message = None;
            match work() {
                Err(e) => self.message = Some(e),
                Ok(w) if inline_turns(ui.ctx()) => {
                    // A test's frame: the check runs here, as a person would see it after waiting.
                    self.job = Some((key.to_string(), Job::inline(ui.ctx(), total, w)));
                    ui.ctx().request_repaint();
                }
                Ok(w) => match Job::spawn(ui.ctx(), "health", total, w) {
                    Ok(job) => self.job = Some((key.to_string(), job)),
                    Err(e) => self.message = Some(e),
                },
            }
        }
        if let Some(m) = &self.message {
            ui.colored_label(ui.visuals().warn_fg_color, m);
        }
        let Some((for_key, v)) = &self.result else {
            return;
        };
        if for_key != key {
            ui.weak("(for an earlier version of what is on screen: check again)");
        }
        for line in &v.summary {
            ui.label(line);
        }
        if v.warnings.is_empty() {
            ui.label("No warnings.");
        }
        let (shown, left_out) = health::shown(&v.warnings, 8);
        for f in shown {
            let r = ui.colored_label(
                ui.visuals().warn_fg_color,
                format!("{}: {}", f.kind.title(), f.text),
            );
            if let (Some(policy), Some(seed)) = (&f.policy, f.seed) {
                r.on_hover_text(format!(
                    "Seen with seed {seed}, every seat played by {policy}"
                ));
            }
        }
        if left_out > 0 {
            ui.weak(format!(
                "and {left_out} more options never taken (deckwright health --json lists every one)"
            ));
        }
    }
}
