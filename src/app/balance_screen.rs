//! The Balance screen: every Iconica character ranked by its field win rate, or every
//! Arcadia merit and flaw by its change in win rate per cost point, each with its 95%
//! interval, in a table sorted by a click on a column's header, measured on a background
//! job (progress, Cancel) and exported to CSV. The measuring is the core's
//! (`crate::balance`); the state (`BalanceScreen`) is apart from the widgets.

use std::path::{Path, PathBuf};

use super::Env;
use super::files::{self, Answer, Dialog, ask_for_field};
use super::matches::job::{Job, Poll};
use crate::balance::arcadia::{self as arc};
use crate::balance::iconica::{self as ico};
use crate::balance::{BalanceError, Runner, Stopping};
use crate::cards::Card;
use crate::games::ai::Policy;
use crate::games::build::CardIndex;
use crate::games::iconica::engine::Rules;

/// What is ranked.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Ranking {
    /// Every Iconica character by its field win rate.
    #[default]
    Iconica,
    /// Every Arcadia merit and flaw by its change per cost point.
    Arcadia,
}

/// A column of the table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Column {
    Name,
    Kind,
    Value,
    Low,
    High,
    Games,
}

impl Column {
    pub const ALL: [Column; 6] = [
        Column::Name,
        Column::Kind,
        Column::Value,
        Column::Low,
        Column::High,
        Column::Games,
    ];
}

/// One ranked card.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    pub id: String,
    pub name: String,
    /// `character`, `merit` or `flaw`.
    pub kind: String,
    /// The field win rate (Iconica) or the change per cost point (Arcadia).
    pub value: f64,
    pub ci95: (f64, f64),
    pub games: u64,
    pub stopped: &'static str,
}

/// A finished ranking.
#[derive(Debug, Clone, PartialEq)]
pub struct Ranked {
    pub ranking: Ranking,
    pub ai: Policy,
    pub seed: u64,
    pub rows: Vec<Row>,
}

/// The screen's state.
pub struct BalanceScreen {
    pub ranking: Ranking,
    pub ai: Policy,
    pub precision: f64,
    pub max_games: u64,
    pub seed: u64,
    pub result: Option<Ranked>,
    /// The column sorted by, and whether highest first.
    pub sort: (Column, bool),
    /// Where Export CSV writes.
    pub csv_path: String,
    pub message: String,
    job: Option<Job<Result<Ranked, String>>>,
}

impl Default for BalanceScreen {
    fn default() -> Self {
        BalanceScreen {
            ranking: Ranking::Iconica,
            ai: Policy::Greedy,
            precision: 0.02,
            max_games: 20_000,
            seed: 1,
            result: None,
            sort: (Column::Value, true),
            csv_path: String::new(),
            message: String::new(),
            job: None,
        }
    }
}

impl BalanceScreen {
    /// Is a ranking being measured?
    pub fn running(&self) -> bool {
        self.job.is_some()
    }

    /// The rows in the order shown.
    pub fn sorted_rows(&self) -> Vec<Row> {
        let mut rows = self
            .result
            .as_ref()
            .map(|r| r.rows.clone())
            .unwrap_or_default();
        let (col, desc) = self.sort;
        rows.sort_by(|a, b| {
            let o = match col {
                Column::Name => a.name.cmp(&b.name),
                Column::Kind => a.kind.cmp(&b.kind),
                Column::Value => a.value.total_cmp(&b.value),
                Column::Low => a.ci95.0.total_cmp(&b.ci95.0),
                Column::High => a.ci95.1.total_cmp(&b.ci95.1),
                Column::Games => a.games.cmp(&b.games),
            };
            let o = o.then(a.id.cmp(&b.id));
            if desc { o.reverse() } else { o }
        });
        rows
    }

    /// Sorts by `col`: highest first, or the other way when already sorted by it.
    pub fn sort_by(&mut self, col: Column) {
        self.sort = if self.sort.0 == col {
            (col, !self.sort.1)
        } else {
            (col, !matches!(col, Column::Name | Column::Kind))
        };
    }

    /// The table as CSV, in the order shown.
    pub fn csv(&self) -> Result<String, String> {
        let Some(r) = &self.result else {
            return Err("nothing measured yet".into());
        };
        let mut w = csv::Writer::from_writer(Vec::new());
        let measure = match r.ranking {
            Ranking::Iconica => "field win rate",
            Ranking::Arcadia => "change in win rate per cost point",
        };
        let e = |e: csv::Error| e.to_string();
        w.write_record([
            "position",
            "id",
            "name",
            "kind",
            "measure",
            "value",
            "ci95_low",
            "ci95_high",
            "games",
            "stopped",
            "ai",
            "seed",
        ])
        .map_err(e)?;
        for (k, row) in self.sorted_rows().iter().enumerate() {
            w.write_record([
                (k + 1).to_string(),
                row.id.clone(),
                row.name.clone(),
                row.kind.clone(),
                measure.to_string(),
                format!("{:.4}", row.value),
                format!("{:.4}", row.ci95.0),
                format!("{:.4}", row.ci95.1),
                row.games.to_string(),
                row.stopped.to_string(),
                r.ai.name(),
                r.seed.to_string(),
            ])
            .map_err(e)?;
        }
        let bytes = w.into_inner().map_err(|e| e.to_string())?;
        String::from_utf8(bytes).map_err(|e| e.to_string())
    }

    /// Writes the CSV to `path` (the one durable write path).
    pub fn export_csv(&self, path: &Path, env: &mut Env) {
        match self.csv() {
            Ok(text) => env.push(files::write_doc(path, &text)),
            Err(e) => env.push(super::Action::Error(format!("Export CSV: {e}"))),
        }
    }

    /// Starts measuring the chosen ranking on a background job.
    pub fn start(&mut self, ctx: &egui::Context, env: &Env) {
        let stopping = match Stopping::checked(self.precision, self.max_games) {
            Ok(s) => s,
            Err(e) => {
                self.message = e.to_string();
                return;
            }
        };
        let cards = match env.cat.all() {
            Ok(c) => c,
            Err(e) => {
                self.message = format!("catalogue: {e}");
                return;
            }
        };
        let (ranking, ai, seed) = (self.ranking, self.ai, self.seed);
        let job = match ranking {
            Ranking::Iconica => {
                let pool: Vec<_> = cards
                    .into_iter()
                    .filter_map(|c| match c {
                        Card::Iconica(ch) => Some(ch),
                        _ => None,
                    })
                    .collect();
                let settings = ico::Settings {
                    rules: Rules::default(),
                    ai,
                    seed,
                };
                Job::spawn(ctx, "balance-ranking", pool.len() as u64, move |p| {
                    let run = || -> Result<Vec<Row>, BalanceError> {
                        let runner = Runner::new(None, stopping, p.stop_flag())?;
                        let ranked = ico::rank_pool(&pool, settings, &runner, &mut || p.add(1))?;
                        Ok(ranked
                            .into_iter()
                            .map(|(c, r)| Row {
                                id: c.id,
                                name: c.name,
                                kind: "character".into(),
                                value: r.win_rate,
                                ci95: r.ci95,
                                games: r.games,
                                stopped: r.stopped.as_str(),
                            })
                            .collect())
                    };
                    finish(run(), ranking, ai, seed)
                })
            }
            Ranking::Arcadia => {
                let index = CardIndex::new(cards);
                let shop = arc::shop(index.cards());
                let subjects = arc::subjects(index.cards());
                let field = arc::example_field(&index);
                let settings = arc::Settings {
                    ai,
                    seed,
                    turn_limit: 500,
                };
                Job::spawn(ctx, "balance-ranking", subjects.len() as u64, move |p| {
                    let run = || -> Result<Vec<Row>, BalanceError> {
                        let runner = Runner::new(None, stopping, p.stop_flag())?;
                        let ranked = arc::rank_cards(
                            &subjects,
                            &field,
                            &shop,
                            &index,
                            settings,
                            &runner,
                            &mut || p.add(1),
                        )?;
                        Ok(ranked
                            .into_iter()
                            .map(|(s, r)| {
                                let (value, ci95) = r.figure();
                                Row {
                                    id: s.id().to_string(),
                                    name: s.name().to_string(),
                                    kind: s.kind().to_string(),
                                    value,
                                    ci95,
                                    games: r.delta.games,
                                    stopped: r.delta.stopped.as_str(),
                                }
                            })
                            .collect())
                    };
                    finish(run(), ranking, ai, seed)
                })
            }
        };
        match job {
            Ok(j) => {
                self.job = Some(j);
                self.message.clear();
            }
            Err(e) => self.message = e,
        }
    }

    /// Picks up a finished job.
    fn poll(&mut self) {
        let Some(job) = &self.job else { return };
        match job.poll() {
            Poll::Running => {}
            Poll::Finished(r) => {
                self.job = None;
                match r {
                    Ok(r) => {
                        self.message = format!("{} ranked", r.rows.len());
                        self.result = Some(r);
                    }
                    Err(e) => self.message = e,
                }
            }
            Poll::Lost => {
                self.job = None;
                self.message = "the measurement stopped unexpectedly".into();
            }
        }
    }

    pub fn ui(&mut self, ui: &mut egui::Ui, env: &mut Env) {
        self.poll();
        ui.heading("Balance: every card ranked");
        ui.label(
            "Every card of a game measured the same way against its field (docs/balance.md); \
             draws count as half a win.",
        );
        self.controls_ui(ui, env);
        ui.separator();
        self.table_ui(ui);
    }

    fn controls_ui(&mut self, ui: &mut egui::Ui, env: &mut Env) {
        let running = self.running();
        ui.add_enabled_ui(!running, |ui| {
            ui.horizontal(|ui| {
                ui.label("Rank:");
                ui.selectable_value(&mut self.ranking, Ranking::Iconica, "Iconica characters");
                ui.selectable_value(
                    &mut self.ranking,
                    Ranking::Arcadia,
                    "Arcadia merits and flaws",
                );
                ui.separator();
                let label = ui.label("AI:");
                egui::ComboBox::from_id_salt("balance-ai")
                    .selected_text(self.ai.name())
                    .show_ui(ui, |ui| {
                        for p in [Policy::First, Policy::Random, Policy::Greedy] {
                            ui.selectable_value(&mut self.ai, p, p.name());
                        }
                    })
                    .response
                    .labelled_by(label.id);
                let label = ui.label("Max games a card:");
                ui.add(
                    egui::DragValue::new(&mut self.max_games)
                        .range(1..=1_000_000)
                        .speed(100),
                )
                .labelled_by(label.id);
                let label = ui.label("Precision:");
                ui.add(
                    egui::DragValue::new(&mut self.precision)
                        .range(0.005..=0.2)
                        .speed(0.001),
                )
                .labelled_by(label.id);
                let label = ui.label("Seed:");
                ui.add(egui::DragValue::new(&mut self.seed))
                    .labelled_by(label.id);
            });
        });
        ui.horizontal(|ui| {
            if let Some(job) = &self.job {
                ui.add(
                    egui::ProgressBar::new(job.fraction())
                        .desired_width(240.0)
                        .text(format!("{} of {} cards", job.done(), job.total())),
                );
                if ui.button("Cancel").clicked() {
                    job.cancel();
                    self.job = None;
                    self.message = "cancelled".into();
                }
            } else if ui.button("Rank").clicked() {
                self.start(ui.ctx(), env);
            }
            if !self.message.is_empty() {
                ui.label(&self.message);
            }
        });
        ui.horizontal(|ui| {
            let label = ui.label("CSV file:");
            ui.add(
                egui::TextEdit::singleline(&mut self.csv_path)
                    .desired_width(320.0)
                    .hint_text("balance.csv"),
            )
            .labelled_by(label.id);
            if ui.button("Choose…").clicked() {
                let dialog = Dialog::save("balance.csv").filter("CSV", &["csv"]);
                match ask_for_field(ui.ctx(), &dialog) {
                    Answer::Chosen(p) => {
                        if let Some(p) = p.first() {
                            self.csv_path = p.display().to_string();
                        }
                    }
                    Answer::Cancelled => {}
                    Answer::Unavailable(why) => env.push(super::Action::Notify(format!(
                        "The file dialog cannot open: {why}. Type the path in the field instead."
                    ))),
                }
            }
            let ready = self.result.is_some() && !self.csv_path.trim().is_empty();
            if ui
                .add_enabled(ready, egui::Button::new("Export CSV"))
                .clicked()
            {
                let path = PathBuf::from(self.csv_path.trim());
                self.export_csv(&path, env);
            }
        });
    }

    fn table_ui(&mut self, ui: &mut egui::Ui) {
        let Some(r) = &self.result else {
            ui.label("Nothing ranked yet: choose a game and Rank.");
            return;
        };
        let value_title = match r.ranking {
            Ranking::Iconica => "Win rate",
            Ranking::Arcadia => "Per point",
        };
        ui.label(match r.ranking {
            Ranking::Iconica => format!(
                "Each character's field win rate: its parties against every legal party without it; {} on both sides, seed {}.",
                r.ai.name(),
                r.seed
            ),
            Ranking::Arcadia => format!(
                "Each card's change in win rate per cost point against what its points buy otherwise, over the example setups; {} on both sides, seed {}.",
                r.ai.name(),
                r.seed
            ),
        });
        let rows = self.sorted_rows();
        ui.label(format!(
            "Sorted by {}, {} first (click a header to sort).",
            match self.sort.0 {
                Column::Name => "name",
                Column::Kind => "kind",
                Column::Value => value_title,
                Column::Low => "the interval's low end",
                Column::High => "the interval's high end",
                Column::Games => "games",
            },
            match (self.sort.0, self.sort.1) {
                (Column::Name | Column::Kind, false) => "A",
                (Column::Name | Column::Kind, true) => "Z",
                (_, true) => "highest",
                (_, false) => "lowest",
            }
        ));
        let mut clicked = None;
        egui::ScrollArea::vertical().show(ui, |ui| {
            egui::Grid::new("balance-table")
                .striped(true)
                .num_columns(7)
                .show(ui, |ui| {
                    ui.strong("#");
                    for col in Column::ALL {
                        let title = match col {
                            Column::Name => "Name",
                            Column::Kind => "Kind",
                            Column::Value => value_title,
                            Column::Low => "95% low",
                            Column::High => "95% high",
                            Column::Games => "Games",
                        };
                        if ui
                            .selectable_label(self.sort.0 == col, title)
                            .on_hover_text("Sort by this column (again: the other way)")
                            .clicked()
                        {
                            clicked = Some(col);
                        }
                    }
                    ui.end_row();
                    let fmt = |x: f64| match r.ranking {
                        Ranking::Iconica => format!("{:.1}%", x * 100.0),
                        Ranking::Arcadia => format!("{:+.1} pts", x * 100.0),
                    };
                    for (k, row) in rows.iter().enumerate() {
                        ui.label((k + 1).to_string());
                        ui.label(&row.name);
                        ui.label(&row.kind);
                        ui.label(fmt(row.value));
                        ui.label(fmt(row.ci95.0));
                        ui.label(fmt(row.ci95.1));
                        ui.label(row.games.to_string());
                        ui.end_row();
                    }
                });
        });
        if let Some(col) = clicked {
            self.sort_by(col);
        }
    }
}

fn finish(
    r: Result<Vec<Row>, BalanceError>,
    ranking: Ranking,
    ai: Policy,
    seed: u64,
) -> Result<Ranked, String> {
    r.map(|rows| Ranked {
        ranking,
        ai,
        seed,
        rows,
    })
    .map_err(|e| e.to_string())
}
