//! The rules' health of what a builder screen shows (the Setup screen's quest setup, the
//! Party screen's match): seeded matches under random and greedy played on a background job
//! with progress and Stop, then the warnings `deckwright health` gives for it, each with the
//! seed and policy that show it; and, for a game whose builds are searched, the strongest
//! legal builds a min-maxer would find for the first seat (`deckwright health --builds`), on
//! a job of its own. The check and the search are the core's (`sim::health`,
//! `balance::builds`); this panel only starts them, shows them, and says when the screen
//! changed since.

use super::matches::job::{Job, Poll, Progress, inline_turns};
use crate::balance::builds::{Climb, Searched, Settings};
use crate::cards::Card;
use crate::games::ai::Policy;
use crate::games::registry::Registration;
use crate::sim::health::{self, Checkup, Finding, Health};

/// What a screen shows, for the panel to check: the match's record options and the
/// catalogue's cards (what a search of builds chooses from).
pub struct Subject {
    pub options: toml::Table,
    pub cards: Vec<Card>,
}

/// The search a builder screen runs: the first seat's build, greedy, 20 games a build, at
/// most 2 moves of 12 builds each (at most 500 games, seconds on the machine).
pub fn climb() -> Climb {
    Climb {
        games: 20,
        steps: 2,
        candidates: 12,
        ..Climb::default()
    }
}

/// Searches the strongest legal builds of `s`, a match of `game` ([`climb`]), reporting
/// each game to `p`; `None` when stopped.
pub fn run_builds(
    game: &'static Registration,
    s: Subject,
    p: &Progress,
) -> Result<Option<Searched>, String> {
    let Some(kind) = game.balance.and_then(|b| b.builds) else {
        return Err(format!("{} has no builds to search.", game.title));
    };
    let runner =
        crate::balance::Runner::new(None, crate::balance::Stopping::default(), p.stop_flag())
            .map_err(|e| e.to_string())?;
    let settings = Settings {
        ai: Policy::Greedy,
        seed: 1,
        seat: 0,
    };
    match crate::balance::builds::search(
        kind,
        &s.options,
        &s.cards,
        settings,
        &climb(),
        &runner,
        &|n| p.add(n),
    ) {
        Ok(found) => Ok(Some(found)),
        Err(crate::balance::BalanceError::Stopped) => Ok(None),
        Err(e) => Err(e.to_string()),
    }
}

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
pub fn run(
    game: &'static Registration,
    options: toml::Table,
    p: &Progress,
) -> Result<Option<HealthView>, String> {
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

/// What a job of the panel found.
pub enum Done {
    Health(HealthView),
    Builds(Searched),
}

/// What a job gives: what it found, `None` when stopped, or why it could not play.
pub type Checked = Result<Option<Done>, String>;

/// The work of a job, given to it.
pub type Work = Box<dyn FnOnce(&Progress) -> Checked + Send>;

/// The panel's state.
#[derive(Default)]
pub struct HealthPanel {
    job: Option<(String, Job<Checked>)>,
    /// The last check, with the screen's key it was checked for.
    result: Option<(String, HealthView)>,
    /// The last search of builds, with its key.
    builds: Option<(String, Searched)>,
    message: Option<String>,
}

impl HealthPanel {
    /// The panel for what the screen shows, a match of `game` (`key` changes whenever it
    /// does); `subject` gives what is checked when asked (an error says why there is none,
    /// e.g. an illegal setup). "Find strongest builds" is offered for a game whose
    /// registration names a search of builds.
    pub fn ui(
        &mut self,
        ui: &mut egui::Ui,
        id: &str,
        key: &str,
        game: &'static Registration,
        subject: impl FnOnce() -> Result<Subject, String>,
    ) {
        ui.push_id(("health", id), |ui| self.panel_ui(ui, key, game, subject));
    }

    fn start(&mut self, ui: &egui::Ui, key: &str, total: u64, work: Result<Work, String>) {
        self.message = None;
        match work {
            Err(e) => self.message = Some(e),
            Ok(w) if inline_turns(ui.ctx()) => {
                // A test's frame: the job runs here, as a person would see it after waiting.
                self.job = Some((key.to_string(), Job::inline(ui.ctx(), total, w)));
                ui.ctx().request_repaint();
            }
            Ok(w) => match Job::spawn(ui.ctx(), "health", total, w) {
                Ok(job) => self.job = Some((key.to_string(), job)),
                Err(e) => self.message = Some(e),
            },
        }
    }

    fn panel_ui(
        &mut self,
        ui: &mut egui::Ui,
        key: &str,
        game: &'static Registration,
        subject: impl FnOnce() -> Result<Subject, String>,
    ) {
        let searched = game.balance.and_then(|b| b.builds).is_some();
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
                            .on_hover_text("Stop; nothing is reported")
                            .clicked()
                        {
                            job.cancel();
                        }
                    });
                    return;
                }
                Poll::Finished(Ok(Some(Done::Health(v)))) => {
                    self.result = Some((for_key.clone(), v));
                    self.job = None;
                }
                Poll::Finished(Ok(Some(Done::Builds(b)))) => {
                    self.builds = Some((for_key.clone(), b));
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
        let mut subject = Some(subject);
        let mut asked = None;
        ui.horizontal(|ui| {
            if ui
                .button("Check health")
                .on_hover_text(format!(
                    "Play {} seeded matches of what is on screen (random and greedy) and report stalls, limits, a favoured seat, endings never or always reached and options never taken: deckwright health",
                    total
                ))
                .clicked()
            {
                asked = Some(false);
            }
            if searched
                && ui
                    .button("Find strongest builds")
                    .on_hover_text(format!(
                        "Search for the strongest legal builds of the first seat against the rest as it is, one legal change at a time, greedy, {} games a build, at most {} games: deckwright health --builds",
                        climb().games,
                        climb().most_games()
                    ))
                    .clicked()
            {
                asked = Some(true);
            }
        });
        if let (Some(builds), Some(subject)) = (asked, subject.take()) {
            let work = subject().map(|s| -> Work {
                if builds {
                    Box::new(move |p| run_builds(game, s, p).map(|f| f.map(Done::Builds)))
                } else {
                    Box::new(move |p| run(game, s.options, p).map(|v| v.map(Done::Health)))
                }
            });
            let total = if builds { climb().most_games() } else { total };
            self.start(ui, key, total, work);
        }
        if let Some(m) = &self.message {
            ui.colored_label(ui.visuals().warn_fg_color, m);
        }
        self.builds_ui(ui, key);
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

    /// The last search's builds, strongest first, as `deckwright health --builds` prints them.
    fn builds_ui(&self, ui: &mut egui::Ui, key: &str) {
        let Some((for_key, found)) = &self.builds else {
            return;
        };
        if for_key != key {
            ui.weak("(builds for an earlier version of what is on screen: search again)");
        }
        ui.label(format!(
            "Strongest builds found for seat 1 ({} legal builds measured, {} games each, against {}, greedy):",
            found.measured,
            climb().games,
            found.against
        ));
        for b in &found.builds {
            ui.label(format!(
                "{:.1}% ({:.1}% to {:.1}%): {}",
                b.rate.win_rate * 100.0,
                b.rate.ci95.0 * 100.0,
                b.rate.ci95.1 * 100.0,
                b.name
            ))
            .on_hover_text(format!("Found by: {}", b.path.join(", ")));
        }
    }
}
