//! The Simulate view every game of the Match screen shares: the run's Games and Threads,
//! Run and Cancel with the progress bar, then the figures of the finished run: each seat's
//! win rate with its 95% Wilson interval (an `egui_plot` bar chart with whiskers), draws and
//! matches with no result said in words, the endings by their stable names and a histogram
//! of the match lengths. A game's panel draws its own options (parties, seats, policies)
//! and hands [`SimView::start`] the function that plays game `i` of the run.
//!
//! The figures are sums ([`crate::sim::run_chunks`]): the same run gives the same figures at
//! any thread count.

use std::collections::BTreeMap;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use egui_plot::{Bar, BarChart, HLine, Line, LineStyle, Plot, PlotPoints};

use super::job::{Job, Poll};
use crate::games::game::{Ending, Outcome, Verdict};
use crate::sim::{self, Tally};

/// A run's sums: the typed tally and the matches by length.
struct Sums<E> {
    tally: Tally<E>,
    lengths: BTreeMap<u32, u64>,
    /// Drawn matches by ending, in [`Ending::ALL`] order.
    draws_by: Vec<u64>,
}

impl<E> Default for Sums<E> {
    fn default() -> Self {
        Sums {
            tally: Tally::default(),
            lengths: BTreeMap::new(),
            draws_by: Vec::new(),
        }
    }
}

impl<E: Ending> sim::Sum for Sums<E> {
    type Game = Outcome<E>;

    fn add(&mut self, o: Outcome<E>) {
        self.tally.add(o);
        *self.lengths.entry(o.turns).or_default() += 1;
        if o.verdict == Verdict::Draw {
            let k = o.ended.index();
            if self.draws_by.len() <= k {
                self.draws_by.resize(k + 1, 0);
            }
            self.draws_by[k] += 1;
        }
    }

    fn merge(mut self, o: Sums<E>) -> Sums<E> {
        self.tally = self.tally.merge(o.tally);
        for (turns, n) in o.lengths {
            *self.lengths.entry(turns).or_default() += n;
        }
        if self.draws_by.len() < o.draws_by.len() {
            self.draws_by.resize(o.draws_by.len(), 0);
        }
        for (k, n) in o.draws_by.into_iter().enumerate() {
            self.draws_by[k] += n;
        }
        self
    }

    fn games(&self) -> u64 {
        self.tally.games
    }
}

/// What a finished run found, whatever the game: what the view draws.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Figures {
    pub games: u64,
    /// Each seat's label and the matches it won (a shared win counts for each winner).
    pub seats: Vec<(String, u64)>,
    pub draws: u64,
    /// The drawn matches by ending (stable name), endings with none left out.
    pub draw_endings: Vec<(&'static str, u64)>,
    /// Matches that stopped with no result.
    pub no_result: u64,
    /// Matches by ending, by the ending's stable name, in the game's order.
    pub endings: Vec<(&'static str, u64)>,
    /// Matches by length (turns as the game counts them).
    pub lengths: BTreeMap<u32, u64>,
    pub turns: u64,
}

impl Figures {
    /// The figures of a tally, seat `k` labelled `labels[k]`.
    pub fn of<E: Ending>(
        t: &Tally<E>,
        lengths: BTreeMap<u32, u64>,
        draws_by: &[u64],
        labels: &[String],
    ) -> Figures {
        Figures {
            games: t.games,
            seats: labels
                .iter()
                .enumerate()
                .map(|(k, l)| (l.clone(), t.wins.get(k).copied().unwrap_or(0)))
                .collect(),
            draws: t.draws,
            draw_endings: E::ALL
                .iter()
                .zip(draws_by)
                .filter(|(_, n)| **n > 0)
                .map(|(e, n)| (e.name(), *n))
                .collect(),
            no_result: t.no_result,
            endings: t.endings().collect(),
            lengths,
            turns: t.turns,
        }
    }

    /// Seat `k`'s win rate and its 95% Wilson interval.
    pub fn win_rate(&self, k: usize) -> (f64, (f64, f64)) {
        let wins = self.seats.get(k).map_or(0, |s| s.1);
        let rate = if self.games == 0 {
            0.0
        } else {
            wins as f64 / self.games as f64
        };
        (rate, sim::wilson(wins, self.games, 1.96))
    }

    pub fn mean_turns(&self) -> f64 {
        if self.games == 0 {
            0.0
        } else {
            self.turns as f64 / self.games as f64
        }
    }

    /// The histogram's bins: (first length, last length, matches), at most `most` bins of
    /// equal width covering the shortest to the longest match.
    pub fn length_bins(&self, most: u32) -> Vec<(u32, u32, u64)> {
        let (Some((&lo, _)), Some((&hi, _))) = (
            self.lengths.first_key_value(),
            self.lengths.last_key_value(),
        ) else {
            return Vec::new();
        };
        let width = (hi - lo + 1).div_ceil(most.max(1)).max(1);
        let mut bins: Vec<(u32, u32, u64)> = (0..(hi - lo + 1).div_ceil(width))
            .map(|b| (lo + b * width, lo + b * width + width - 1, 0))
            .collect();
        for (&turns, &n) in &self.lengths {
            bins[((turns - lo) / width) as usize].2 += n;
        }
        bins
    }
}

/// Plays `games` matches (`play(i)` plays game `i`) on `threads` threads and sums them into
/// [`Figures`], seat `k` labelled `labels[k]`; `None` when `stop` was set first.
pub fn run<E, F, P>(
    games: u64,
    threads: Option<usize>,
    labels: &[String],
    play: F,
    progress: P,
    stop: &AtomicBool,
) -> Result<Option<Figures>, rayon::ThreadPoolBuildError>
where
    E: Ending,
    F: Fn(u64) -> Outcome<E> + Sync,
    P: Fn(u64) + Sync,
{
    let sums: Option<Sums<E>> = sim::run_chunks(games, threads, &play, &progress, stop)?;
    Ok(sums.map(|s| Figures::of(&s.tally, s.lengths, &s.draws_by, labels)))
}

/// A finished run and what it was asked.
#[derive(Debug, Clone, PartialEq)]
pub struct Finished {
    pub figures: Figures,
    pub seconds: f64,
    /// What was played, in words ("1000 games, seed 1").
    pub heading: String,
    /// The same run on the command line, when there is one.
    pub cli: Option<String>,
    /// What the run was played with: a result whose key differs from the panel's is stale.
    pub key: String,
    /// The game's words for a match's length and a draw (see [`Words`]).
    pub words: Words,
}

/// A game's words for the figures: what its match length counts and what a draw is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Words {
    /// The unit of a match's length, singular and plural: ("turn", "turns"), ("Day",
    /// "Days"), ("round", "rounds").
    pub length: (&'static str, &'static str),
    /// What a draw is in this game, as a sentence ("A draw is a match nobody won: ...").
    pub draw: &'static str,
}

impl Words {
    /// `n` of the length's unit, singular or plural ("1 turn", "2.5 turns").
    pub fn length_of(&self, n: f64, decimals: usize) -> String {
        let unit = if n == 1.0 {
            self.length.0
        } else {
            self.length.1
        };
        format!("{n:.decimals$} {unit}")
    }
}

/// What a run is asked: its heading, command line and key (see [`Finished`]).
#[derive(Debug, Clone, PartialEq)]
pub struct Ask {
    pub heading: String,
    pub cli: Option<String>,
    pub key: String,
    /// Each seat's label.
    pub labels: Vec<String>,
    /// The game's words for a match's length and a draw.
    pub words: Words,
}

/// How a run's thread ended.
enum RunEnd {
    Done(Figures, f64),
    Stopped,
    Failed(String),
}

/// The shared Simulate view's state.
pub struct SimView {
    /// Names the view's widgets (two games' views may live side by side).
    id: &'static str,
    pub games: u64,
    pub threads: usize,
    job: Option<Job<RunEnd>>,
    /// What the running job was asked.
    asked: Option<Ask>,
    pub result: Option<Finished>,
    pub message: Option<String>,
}

/// The machine's cores: the most threads a run may use.
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

fn pct(x: f64) -> String {
    format!("{:.1}%", x * 100.0)
}

impl SimView {
    pub fn new(id: &'static str, games: u64) -> SimView {
        SimView {
            id,
            games,
            threads: cores(),
            job: None,
            asked: None,
            result: None,
            message: None,
        }
    }

    /// True while a run is going on.
    pub fn running(&self) -> bool {
        self.job.is_some()
    }

    /// Picks up a finished run's figures (or its cancellation or failure).
    pub fn poll(&mut self) {
        let Some(job) = &self.job else { return };
        let end = match job.poll() {
            Poll::Running => return,
            Poll::Finished(e) => e,
            Poll::Lost => RunEnd::Failed("the run stopped on an internal error".into()),
        };
        self.job = None;
        let asked = self.asked.take();
        match (end, asked) {
            (RunEnd::Done(figures, seconds), Some(a)) => {
                self.result = Some(Finished {
                    figures,
                    seconds,
                    heading: a.heading,
                    cli: a.cli,
                    key: a.key,
                    words: a.words,
                });
                self.message = None;
            }
            (RunEnd::Done(..), None) => {}
            (RunEnd::Stopped, _) => {
                self.message = Some(if self.result.is_some() {
                    "Cancelled: no result (the figures below are the last run's).".into()
                } else {
                    "Cancelled: no result.".into()
                })
            }
            (RunEnd::Failed(e), _) => self.message = Some(format!("The run failed: {e}.")),
        }
    }

    /// The whole view for a game whose own options are drawn above it: picks up a finished
    /// run, then Games, Threads and Run, the progress, and the figures (said to be stale,
    /// with `stale`, when the panel's `key` is not the run's). True when Run was clicked:
    /// the caller then starts the run.
    pub fn ui(&mut self, ui: &mut egui::Ui, tip: &str, key: &str, stale: &str) -> bool {
        self.poll();
        let run = ui.horizontal(|ui| self.controls_ui(ui, Ok(()), tip)).inner;
        self.progress_ui(ui);
        egui::ScrollArea::vertical()
            .id_salt((self.id, "results"))
            .auto_shrink(false)
            .show(ui, |ui| self.result_ui(ui, key, stale));
        run
    }

    /// Games, Threads and Run (enabled when `ready` is `Ok`, else its hover says why), in the
    /// caller's (horizontal) layout. True when Run was clicked.
    pub fn controls_ui(&mut self, ui: &mut egui::Ui, ready: Result<(), &str>, tip: &str) -> bool {
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
        let can_run = ready.is_ok() && self.job.is_none();
        let run = ui
            .add_enabled(can_run, egui::Button::new("Run"))
            .on_hover_text(tip)
            .on_disabled_hover_text(match ready {
                Err(why) => why,
                Ok(()) => "A run is going on",
            });
        run.clicked() && can_run
    }

    /// Starts a run of `self.games` matches on `self.threads` threads: `play(i)` plays game
    /// `i` (its seeds derived from the run's seed and `i`).
    pub fn start<E, F>(&mut self, ctx: &egui::Context, ask: Ask, play: F)
    where
        E: Ending,
        F: Fn(u64) -> Outcome<E> + Send + Sync + 'static,
    {
        let (games, threads) = (self.games.max(1), self.threads.max(1));
        let labels = ask.labels.clone();
        self.asked = Some(ask);
        self.message = None;
        let job = Job::spawn(ctx, "deckwright-sim", games, move |p| {
            let started = Instant::now();
            match run(
                games,
                Some(threads),
                &labels,
                play,
                |n| p.add(n),
                p.stop_flag(),
            ) {
                Ok(Some(f)) => RunEnd::Done(f, started.elapsed().as_secs_f64()),
                Ok(None) => RunEnd::Stopped,
                Err(e) => RunEnd::Failed(e.to_string()),
            }
        });
        match job {
            Ok(job) => self.job = Some(job),
            Err(e) => self.message = Some(format!("The run did not start: {e}")),
        }
    }

    /// Cancel and the progress bar of a run going on (drawn after a click on Run has started
    /// the run, so Cancel shows in the same frame), and the last message.
    pub fn progress_ui(&self, ui: &mut egui::Ui) {
        if let Some(job) = &self.job {
            let text = if job.cancelled() {
                "Stopping…".to_string()
            } else {
                // The run's own count: the Games field may have been edited since.
                format!("{} / {} games", job.done(), job.total())
            };
            ui.horizontal(|ui| {
                if ui
                    .button("Cancel")
                    .on_hover_text("Stop the run (it gives no result)")
                    .clicked()
                {
                    job.cancel();
                }
                ui.add(egui::ProgressBar::new(job.fraction()).text(text));
            });
        }
        if let Some(m) = &self.message {
            ui.label(m);
        }
    }

    /// The last run's figures (marked stale when `key` is not what it was played with), or
    /// what Run does.
    pub fn result_ui(&self, ui: &mut egui::Ui, key: &str, stale: &str) {
        match &self.result {
            Some(r) => {
                ui.add_space(6.0);
                if r.key != key {
                    ui.label(egui::RichText::new(stale).color(ui.visuals().warn_fg_color));
                }
                figures_ui(ui, self.id, r);
            }
            None if self.job.is_none() => {
                ui.add_space(6.0);
                ui.weak("Run plays the matches on a background thread, computer against computer: the window stays usable, and Cancel stops the run.");
            }
            None => {}
        }
    }
}

/// The figures of a finished run: the words, the win-rate chart and the endings beside the
/// histogram of lengths (one under the other on a narrow window).
fn figures_ui(ui: &mut egui::Ui, id: &str, r: &Finished) {
    let f = &r.figures;
    ui.heading(&r.heading);
    for k in 0..f.seats.len() {
        let (rate, (lo, hi)) = f.win_rate(k);
        ui.label(format!(
            "{} won {} of {}: {} (95% CI {} to {})",
            f.seats[k].0,
            f.seats[k].1,
            crate::count(f.games, "game", "games"),
            pct(rate),
            pct(lo),
            pct(hi)
        ));
    }
    ui.label(format!(
        "Draws: {} · no result: {} · mean length {} · {:.0} games/s",
        f.draws,
        f.no_result,
        r.words.length_of(f.mean_turns(), 1),
        f.games as f64 / r.seconds.max(1e-9)
    ));
    if f.draws > 0 {
        ui.label(draws_text(f, &r.words));
    }
    let wide = ui.available_width() >= 900.0;
    let height = if wide { 260.0 } else { 180.0 };
    if wide {
        ui.columns(2, |cols| {
            win_chart_ui(&mut cols[0], id, f, height);
            endings_ui(&mut cols[0], id, f);
            lengths_chart_ui(&mut cols[1], id, f, &r.words, height);
        });
    } else {
        win_chart_ui(ui, id, f, height);
        endings_ui(ui, id, f);
        lengths_chart_ui(ui, id, f, &r.words, height);
    }
    if let Some(cli) = &r.cli {
        ui.weak(format!("The same run on the command line: {cli}"));
    }
}

/// What the drawn matches were, in words: the game's sentence and the endings they had
/// ("A draw is ...: 30 ended by `victory`, 2 by `turn_limit`.").
pub fn draws_text(f: &Figures, words: &Words) -> String {
    let by: Vec<String> = f
        .draw_endings
        .iter()
        .enumerate()
        .map(|(k, (name, n))| {
            if k == 0 {
                format!("{n} ended by `{name}`")
            } else {
                format!("{n} by `{name}`")
            }
        })
        .collect();
    if by.is_empty() {
        words.draw.to_string()
    } else {
        format!(
            "{} Of the {} {}: {}.",
            words.draw,
            f.draws,
            if f.draws == 1 { "draw" } else { "draws" },
            by.join(", ")
        )
    }
}

/// Each seat's win rate as a bar (percent) with its 95% interval as a whisker; 50% dashed.
fn win_chart_ui(ui: &mut egui::Ui, id: &str, f: &Figures, height: f32) {
    ui.strong("Win rate with its 95% interval");
    let colour = ui.visuals().strong_text_color();
    let weak = ui.visuals().weak_text_color();
    let bars: Vec<Bar> = (0..f.seats.len())
        .map(|k| {
            Bar::new(k as f64, f.win_rate(k).0 * 100.0)
                .name(&f.seats[k].0)
                .width(0.6)
        })
        .collect();
    let labels: Vec<String> = f.seats.iter().map(|s| s.0.clone()).collect();
    let response = Plot::new((id, "win-rates"))
        .height(height)
        .allow_drag(false)
        .allow_zoom(false)
        .allow_scroll(false)
        .allow_boxed_zoom(false)
        .allow_double_click_reset(false)
        .include_y(0.0)
        .include_y(100.0)
        .include_x(-0.6)
        .include_x(f.seats.len() as f64 - 0.4)
        .y_axis_label("win rate %")
        .show_grid([false, true])
        .x_grid_spacer(|_| {
            (0..labels.len())
                .map(|k| egui_plot::GridMark {
                    value: k as f64,
                    step_size: 1.0,
                })
                .collect()
        })
        .x_axis_formatter(|mark, _| {
            let k = mark.value.round();
            if (mark.value - k).abs() < 1e-6 && k >= 0.0 {
                labels.get(k as usize).cloned().unwrap_or_default()
            } else {
                String::new()
            }
        })
        .show(ui, |p| {
            p.bar_chart(BarChart::new("win rate", bars));
            p.hline(
                HLine::new("50%", 50.0)
                    .style(LineStyle::dashed_loose())
                    .color(weak),
            );
            for k in 0..f.seats.len() {
                let (_, (lo, hi)) = f.win_rate(k);
                let x = k as f64;
                let (lo, hi) = (lo * 100.0, hi * 100.0);
                p.line(
                    Line::new(
                        format!("95% CI {}", k + 1),
                        PlotPoints::new(vec![[x, lo], [x, hi]]),
                    )
                    .color(colour)
                    .width(2.0),
                );
                for y in [lo, hi] {
                    p.line(
                        Line::new(
                            format!("95% CI {} end", k + 1),
                            PlotPoints::new(vec![[x - 0.12, y], [x + 0.12, y]]),
                        )
                        .color(colour)
                        .width(2.0),
                    );
                }
            }
        })
        .response;
    response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Image, true, "Win rates chart"));
}

/// The endings by their stable names, with counts and shares.
fn endings_ui(ui: &mut egui::Ui, id: &str, f: &Figures) {
    ui.add_space(4.0);
    ui.strong("How the matches ended");
    egui::Grid::new((id, "endings"))
        .num_columns(3)
        .striped(true)
        .show(ui, |ui| {
            for (name, n) in &f.endings {
                ui.label(*name);
                ui.label(n.to_string());
                ui.label(pct(*n as f64 / f.games.max(1) as f64));
                ui.end_row();
            }
        });
}

/// The histogram of match lengths (at most 40 bars).
fn lengths_chart_ui(ui: &mut egui::Ui, id: &str, f: &Figures, words: &Words, height: f32) {
    let (one, many) = words.length;
    ui.strong(format!("Match lengths ({many})"));
    let bins = f.length_bins(40);
    let bars: Vec<Bar> = bins
        .iter()
        .map(|&(lo, hi, n)| {
            let name = if lo == hi {
                format!("{lo} {}", if lo == 1 { one } else { many })
            } else {
                format!("{lo} to {hi} {many}")
            };
            Bar::new(f64::from(lo + hi) / 2.0, n as f64)
                .width(f64::from(hi - lo + 1) * 0.9)
                .name(name)
        })
        .collect();
    let response = Plot::new((id, "lengths"))
        .height(height)
        .allow_drag(false)
        .allow_zoom(false)
        .allow_scroll(false)
        .allow_boxed_zoom(false)
        .allow_double_click_reset(false)
        .include_y(0.0)
        .x_axis_label(many)
        .y_axis_label("matches")
        .show(ui, |p| {
            p.bar_chart(BarChart::new("matches", bars));
        })
        .response;
    response.widget_info(|| {
        egui::WidgetInfo::labeled(egui::Role::Image, true, "Match lengths histogram")
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn figures(lengths: &[(u32, u64)]) -> Figures {
        Figures {
            games: lengths.iter().map(|l| l.1).sum(),
            seats: Vec::new(),
            draws: 0,
            draw_endings: Vec::new(),
            no_result: 0,
            endings: Vec::new(),
            lengths: lengths.iter().copied().collect(),
            turns: 0,
        }
    }

    #[test]
    fn draws_are_explained_with_their_endings_and_lengths_in_the_game_s_unit() {
        let words = Words {
            length: ("Day", "Days"),
            draw: "A draw is a match neither player won.",
        };
        let mut f = figures(&[(3, 2)]);
        f.draws = 32;
        f.draw_endings = vec![("victory", 30), ("turn_limit", 2)];
        assert_eq!(
            draws_text(&f, &words),
            "A draw is a match neither player won. Of the 32 draws: 30 ended by `victory`, 2 by `turn_limit`."
        );
        f.draws = 1;
        f.draw_endings = vec![("turn_limit", 1)];
        assert!(draws_text(&f, &words).ends_with("Of the 1 draw: 1 ended by `turn_limit`."));
        assert_eq!(words.length_of(1.0, 1), "1.0 Day");
        assert_eq!(words.length_of(4.3, 1), "4.3 Days");
    }

    #[test]
    fn length_bins_cover_every_match_in_equal_widths() {
        let f = figures(&[(3, 2), (4, 1), (90, 5)]);
        let bins = f.length_bins(40);
        assert!(bins.len() <= 40, "{}", bins.len());
        assert_eq!(bins.iter().map(|b| b.2).sum::<u64>(), 8);
        assert_eq!(bins[0].0, 3);
        assert!(bins.last().unwrap().1 >= 90);
        let w = bins[0].1 - bins[0].0;
        assert!(bins.iter().all(|b| b.1 - b.0 == w));
        let one = figures(&[(7, 4)]).length_bins(40);
        assert_eq!(one, vec![(7, 7, 4)]);
        assert!(figures(&[]).length_bins(40).is_empty());
    }
}
