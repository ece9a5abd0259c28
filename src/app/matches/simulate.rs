//! The Simulate view: many seeded AI-vs-AI matches of the two parties on a background
//! thread, with a progress bar and Cancel, then wins, side A's win rate with its 95% Wilson
//! interval (in words and drawn), mean turns, speed and how the games ended.

use std::sync::Arc;
use std::time::Instant;

use super::job::{Job, Poll};
use super::{Asked, MatchOptions, stale_ui};
use crate::games::iconica::engine::Setup;
use crate::sim::{self, Summary, iconica::ENDINGS};

/// A finished run and what it was asked.
#[derive(Debug, Clone, PartialEq)]
pub struct SimResult {
    pub summary: Summary,
    pub seconds: f64,
    pub seed: u64,
    /// Side A's and side B's policies, by name.
    pub policies: [String; 2],
    /// The parties' names when the run started.
    pub names: [String; 2],
    /// The `deckwright sim iconica` options that play the same run.
    pub cli: String,
    /// The parties and options it was played with ([`Asked::key`]) and the games.
    pub key: String,
}

/// How a run's thread ended.
enum Outcome {
    Done(Summary, f64),
    Stopped,
    Failed(String),
}

/// The Simulate view's state.
pub struct SimPanel {
    pub games: u64,
    pub threads: usize,
    job: Option<Job<Outcome>>,
    /// What the running job was asked (kept for its result).
    asked: Option<SimResult>,
    pub result: Option<SimResult>,
    pub message: Option<String>,
}

impl Default for SimPanel {
    fn default() -> Self {
        SimPanel {
            games: 1000,
            threads: cores(),
            job: None,
            asked: None,
            result: None,
            message: None,
        }
    }
}

fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

fn pct(x: f64) -> String {
    format!("{:.1}%", x * 100.0)
}

impl SimPanel {
    /// True while a run is going on.
    pub fn running(&self) -> bool {
        self.job.is_some()
    }

    pub fn ui(&mut self, ui: &mut egui::Ui, now: &Asked) {
        self.poll();
        self.controls_ui(ui, now);
        if let Some(job) = &self.job {
            let text = if job.cancelled() {
                "Stopping…".to_string()
            } else {
                // The run's own count: the Games field may have been edited since.
                format!("{} / {} games", job.done(), job.total())
            };
            ui.add(egui::ProgressBar::new(job.fraction()).text(text));
        }
        if let Some(m) = &self.message {
            ui.label(m);
        }
        match &self.result {
            Some(r) => {
                ui.add_space(8.0);
                if r.key != self.key(now) {
                    stale_ui(ui, "run");
                }
                result_ui(ui, r);
            }
            None if self.job.is_none() => {
                ui.add_space(8.0);
                ui.weak("Run plays the matches on a background thread, computer against computer: the window stays usable, and Cancel stops the run.");
            }
            None => {}
        }
    }

    fn poll(&mut self) {
        let Some(job) = &self.job else { return };
        let outcome = match job.poll() {
            Poll::Running => return,
            Poll::Finished(o) => o,
            Poll::Lost => Outcome::Failed("The run stopped on an internal error.".into()),
        };
        self.job = None;
        let asked = self.asked.take();
        match (outcome, asked) {
            (Outcome::Done(summary, seconds), Some(asked)) => {
                self.result = Some(SimResult {
                    summary,
                    seconds,
                    ..asked
                });
                self.message = None;
            }
            (Outcome::Stopped, _) => self.message = Some("Cancelled: no result.".into()),
            (Outcome::Failed(e), _) => self.message = Some(format!("The run failed: {e}")),
            (Outcome::Done(..), None) => {}
        }
    }

    /// The key of a run of the current parties and options.
    fn key(&self, now: &Asked) -> String {
        format!("{}\n{} games", now.key, self.games)
    }

    fn controls_ui(&mut self, ui: &mut egui::Ui, now: &Asked) {
        let (setup, o, names) = (now.setup, now.options, now.names);
        ui.horizontal(|ui| {
            let label = ui.label("Games");
            ui.add(
                egui::DragValue::new(&mut self.games)
                    .range(1..=10_000_000)
                    .speed(10),
            )
            .labelled_by(label.id);
            let label = ui.label("Threads");
            ui.add(egui::DragValue::new(&mut self.threads).range(1..=cores().max(1)))
                .labelled_by(label.id)
                .on_hover_text("Threads the run uses; the figures do not depend on it");
            let can_run = setup.is_ok() && self.job.is_none();
            let run = ui
                .add_enabled(can_run, egui::Button::new("Run"))
                .on_hover_text(format!(
                    "Play {} matches: {} (A, {}) against {} (B, {})",
                    self.games, names[0], o.policies[0], names[1], o.policies[1]
                ))
                .on_disabled_hover_text(match setup {
                    Err(why) => why.as_str(),
                    Ok(_) => "A run is going on",
                });
            if run.clicked()
                && let Ok(setup) = setup
            {
                let key = self.key(now);
                let names = now.names.map(str::to_string);
                self.start(ui.ctx(), setup.clone(), o, key, names);
            }
            if let Some(job) = &self.job
                && ui
                    .button("Cancel")
                    .on_hover_text("Stop the run (it gives no result)")
                    .clicked()
            {
                job.cancel();
            }
        });
    }

    /// Starts a run of `self.games` matches of `setup` with the options' policies and seed.
    pub fn start(
        &mut self,
        ctx: &egui::Context,
        setup: Arc<Setup>,
        o: &MatchOptions,
        key: String,
        names: [String; 2],
    ) {
        let (pa, pb) = (o.policy(0), o.policy(1));
        let (games, seed, threads) = (self.games.max(1), o.seed, self.threads.max(1));
        self.asked = Some(SimResult {
            summary: Summary::default(),
            seconds: 0.0,
            seed,
            policies: [pa.name(), pb.name()],
            names,
            cli: format!(
                "deckwright sim iconica A.party.toml B.party.toml --games {games} --seed {seed} --ai-a {} --ai-b {}{}",
                pa.name(),
                pb.name(),
                o.cli_rules()
            ),
            key,
        });
        self.message = None;
        let job = Job::spawn(ctx, "deckwright-sim", games, move |p| {
            let started = Instant::now();
            let play = |i| sim::iconica::play_one(&setup, pa, pb, seed, i);
            match sim::run_stoppable(games, Some(threads), play, |n| p.add(n), p.stop_flag()) {
                Ok(Some(s)) => Outcome::Done(s, started.elapsed().as_secs_f64()),
                Ok(None) => Outcome::Stopped,
                Err(e) => Outcome::Failed(e.to_string()),
            }
        });
        match job {
            Ok(job) => self.job = Some(job),
            Err(e) => self.message = Some(format!("The run did not start: {e}")),
        }
    }
}

/// The figures of a finished run.
fn result_ui(ui: &mut egui::Ui, r: &SimResult) {
    let (s, names) = (&r.summary, &r.names);
    let (lo, hi) = s.ci95_a();
    ui.heading(format!("{} games, seed {}", s.games, r.seed));
    egui::Grid::new("sim-figures")
        .num_columns(3)
        .striped(true)
        .show(ui, |ui| {
            let share = |n: u64| pct(n as f64 / s.games.max(1) as f64);
            for (label, n) in [
                (
                    format!("A wins ({}, {})", names[0], r.policies[0]),
                    s.wins[0],
                ),
                (
                    format!("B wins ({}, {})", names[1], r.policies[1]),
                    s.wins[1],
                ),
                ("Draws".to_string(), s.wins[2]),
            ] {
                ui.label(label);
                ui.label(egui::RichText::new(n.to_string()).strong());
                ui.label(share(n));
                ui.end_row();
            }
        });
    ui.add_space(6.0);
    ui.label(
        egui::RichText::new(format!(
            "Win rate of A: {} (95% CI {} to {})",
            pct(s.win_rate_a()),
            pct(lo),
            pct(hi)
        ))
        .strong(),
    );
    interval_ui(ui, s.win_rate_a(), lo, hi);
    let speed = s.games as f64 / r.seconds.max(1e-9);
    ui.label(format!(
        "Mean turns {:.1} · {speed:.0} games/s",
        s.mean_turns()
    ));
    let ends: Vec<String> = ENDINGS
        .iter()
        .zip(s.ended)
        .map(|(n, c)| format!("{} {c}", n.replace('_', " ")))
        .collect();
    ui.label(format!("Ended: {}", ends.join(" · ")));
    ui.add_space(6.0);
    ui.weak(format!("The same run on the command line: {}", r.cli));
}

/// Side A's win rate on a 0–100% bar: its 95% interval shaded, the rate marked, 50% dotted.
fn interval_ui(ui: &mut egui::Ui, rate: f64, lo: f64, hi: f64) {
    let width = ui.available_width().min(480.0);
    let (rect, response) = ui.allocate_exact_size(egui::vec2(width, 34.0), egui::Sense::hover());
    let painter = ui.painter_at(rect);
    let visuals = ui.visuals();
    let bar = egui::Rect::from_min_max(
        rect.left_top() + egui::vec2(0.0, 4.0),
        rect.right_top() + egui::vec2(0.0, 18.0),
    );
    let x = |p: f64| bar.left() + bar.width() * p.clamp(0.0, 1.0) as f32;
    painter.rect_filled(bar, 3.0, visuals.extreme_bg_color);
    painter.rect_stroke(
        bar,
        3.0,
        visuals.widgets.noninteractive.bg_stroke,
        egui::StrokeKind::Inside,
    );
    let ci = egui::Rect::from_x_y_ranges(x(lo)..=x(hi).max(x(lo) + 2.0), bar.y_range());
    painter.rect_filled(ci, 2.0, visuals.selection.bg_fill);
    let text = visuals.text_color();
    painter.line_segment(
        [
            egui::pos2(x(rate), bar.top() - 3.0),
            egui::pos2(x(rate), bar.bottom() + 3.0),
        ],
        egui::Stroke::new(2.5, text),
    );
    let mid = x(0.5);
    let mut y = bar.top();
    while y < bar.bottom() {
        painter.line_segment(
            [
                egui::pos2(mid, y),
                egui::pos2(mid, (y + 2.0).min(bar.bottom())),
            ],
            egui::Stroke::new(1.0, visuals.weak_text_color()),
        );
        y += 4.0;
    }
    let font = egui::FontId::proportional(10.0);
    for (p, align, label) in [
        (0.0, egui::Align2::LEFT_TOP, "0%"),
        (0.5, egui::Align2::CENTER_TOP, "50%"),
        (1.0, egui::Align2::RIGHT_TOP, "100%"),
    ] {
        painter.text(
            egui::pos2(x(p), bar.bottom() + 2.0),
            align,
            label,
            font.clone(),
            visuals.weak_text_color(),
        );
    }
    response.on_hover_text(format!(
        "A won {} of these games. The shaded 95% interval ({} to {}) is where A's true win rate \
         plausibly lies: more games make it narrower.",
        pct(rate),
        pct(lo),
        pct(hi)
    ));
}
