//! The Balance screen: every Iconica character ranked by its field win rate, or every
//! Arcadia merit and flaw by its change in win rate per cost point, each with its 95%
//! interval, the positions it may hold and its verdict, in a table sorted by a click on a
//! column's header (a card's name opens it in the card editor), and the matchup matrix as a
//! heat map; measured on a background job (progress, Cancel), exported to CSV, and kept
//! across restarts (a finished ranking is written to the app's state in the catalogue, as
//! the session and the Print screen's settings are). Arcadia's ranking stops each card when
//! the sequential test decides it (`balance arcadia --sprt`'s test, looked at every 50
//! pairs), with the interval of the games played. The measuring is the core's
//! (`crate::balance`); the state (`BalanceScreen`) is apart from the widgets.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::Env;
use super::files::{self, Answer, Dialog, ask_for_field};
use super::matches::job::{Job, Poll};
use crate::balance::arcadia::{self as arc};
use crate::balance::arcadia_parts::{self as parts};
use crate::balance::iconica::{self as ico};
use crate::balance::sprt::Verdict;
use crate::balance::sweep;
use crate::balance::{BalanceError, Rate, Runner, Stopping};
use crate::cards::Card;
use crate::catalogue::Catalogue;
use crate::games::ai::Policy;
use crate::games::build::CardIndex;
use crate::games::iconica::engine::Rules;

/// The app state key a finished ranking is kept under.
pub const STATE_KEY: &str = "balance.ranking";

/// What is ranked.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
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
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Row {
    pub id: String,
    pub name: String,
    /// `character`, `merit` or `flaw`.
    pub kind: String,
    /// The field win rate (Iconica) or the change per cost point (Arcadia).
    pub value: f64,
    pub ci95: (f64, f64),
    pub games: u64,
    /// Why its run stopped: `precision`, `max_games`, `decided`, `not_decided`.
    pub stopped: String,
    /// The positions it may hold given every card's interval (1 = the highest).
    pub positions: (usize, usize),
    /// `fair`, `too_strong`, `too_weak` or `not_decided`.
    pub verdict: String,
}

/// One cell of the matchup matrix.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Cell {
    /// The rate its colour shows: the card's win rate against the column (Iconica), or the
    /// pairs' rate with the card against without it at the column's place (Arcadia: 50%
    /// plus half the change).
    pub rate: f64,
    pub ci95: (f64, f64),
    pub games: u64,
    /// What hovering shows.
    pub detail: String,
}

/// The matchup matrix: a row per ranked card (by id), a column per opponent or place.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Matrix {
    pub columns: Vec<String>,
    /// (card id, its cells by column).
    pub rows: Vec<(String, Vec<Option<Cell>>)>,
}

/// A finished ranking.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Ranked {
    pub ranking: Ranking,
    #[serde(with = "policy_name")]
    pub ai: Policy,
    pub seed: u64,
    pub rows: Vec<Row>,
    #[serde(default)]
    pub matrix: Matrix,
}

/// A policy kept by its name.
mod policy_name {
    use crate::games::ai::Policy;
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(p: &Policy, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&p.name())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Policy, D::Error> {
        let name = String::deserialize(d)?;
        Policy::parse(&name)
            .ok_or_else(|| serde::de::Error::custom(format!("unknown policy `{name}`")))
    }
}

/// What the screen shows under its controls.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum View {
    #[default]
    Table,
    HeatMap,
}

/// The screen's state.
pub struct BalanceScreen {
    pub ranking: Ranking,
    pub ai: Policy,
    pub precision: f64,
    pub max_games: u64,
    pub seed: u64,
    /// Arcadia: stop each card when the sequential test decides it (else at the precision).
    pub decided: bool,
    pub result: Option<Ranked>,
    /// The column sorted by, and whether highest first.
    pub sort: (Column, bool),
    pub view: View,
    /// Where Export CSV writes.
    pub csv_path: String,
    pub message: String,
    job: Option<Job<Result<Ranked, String>>>,
    /// The kept ranking has been read from the app's state.
    restored: bool,
}

impl Default for BalanceScreen {
    fn default() -> Self {
        BalanceScreen {
            ranking: Ranking::Iconica,
            ai: Policy::Greedy,
            precision: 0.02,
            max_games: 20_000,
            seed: 1,
            decided: true,
            result: None,
            sort: (Column::Value, true),
            view: View::Table,
            csv_path: String::new(),
            message: String::new(),
            job: None,
            restored: false,
        }
    }
}

impl BalanceScreen {
    /// Is a ranking being measured?
    pub fn running(&self) -> bool {
        self.job.is_some()
    }

    /// Reads the ranking kept in `cat`'s app state, if any (once; a kept ranking that no
    /// longer reads is left out).
    pub fn restore(&mut self, cat: &Catalogue) {
        if self.restored {
            return;
        }
        self.restored = true;
        if self.result.is_none()
            && let Ok(Some(text)) = cat.state(STATE_KEY)
            && let Ok(r) = serde_json::from_str::<Ranked>(&text)
        {
            self.ranking = r.ranking;
            self.message = format!("{} ranked (kept from an earlier run)", r.rows.len());
            self.result = Some(r);
        }
    }

    /// Keeps the finished ranking in `cat`'s app state (one write, all or nothing).
    fn keep(&self, cat: &Catalogue) -> Result<(), String> {
        let Some(r) = &self.result else { return Ok(()) };
        let text = serde_json::to_string(r).map_err(|e| e.to_string())?;
        cat.set_state(STATE_KEY, &text).map_err(|e| e.to_string())
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
            "rank_low",
            "rank_high",
            "verdict",
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
                row.stopped.clone(),
                r.ai.name(),
                r.seed.to_string(),
                row.positions.0.to_string(),
                row.positions.1.to_string(),
                row.verdict.clone(),
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
                    let run = || -> Result<(Vec<Row>, Matrix), BalanceError> {
                        let runner = Runner::new(None, stopping, p.stop_flag())?;
                        iconica_ranking(&pool, settings, &runner, &mut || p.add(1))
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
                let decided = self.decided;
                Job::spawn(ctx, "balance-ranking", subjects.len() as u64, move |p| {
                    let run = || -> Result<(Vec<Row>, Matrix), BalanceError> {
                        let runner = Runner::new(None, stopping, p.stop_flag())?;
                        let done = &mut || p.add(1);
                        let ranked: Vec<(arc::Subject, arc::Report, Option<Verdict>)> = if decided {
                            let test = parts::test(stopping.max_games);
                            parts::rank_decided(
                                &subjects,
                                &field,
                                &shop,
                                &index,
                                settings,
                                &runner,
                                test,
                                parts::LOOK,
                                done,
                            )?
                            .into_iter()
                            .map(|r| {
                                let v = r.decided.verdict();
                                (r.subject.clone(), report_of(&r), Some(v))
                            })
                            .collect()
                        } else {
                            arc::rank_cards(
                                &subjects, &field, &shop, &index, settings, &runner, done,
                            )?
                            .into_iter()
                            .map(|(s, r)| (s, r, None))
                            .collect()
                        };
                        Ok(arcadia_rows(&ranked))
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

    /// Picks up a finished job, and keeps its ranking.
    fn poll(&mut self, cat: &Catalogue) {
        let Some(job) = &self.job else { return };
        match job.poll() {
            Poll::Running => {}
            Poll::Finished(r) => {
                self.job = None;
                match r {
                    Ok(r) => {
                        self.message = format!("{} ranked", r.rows.len());
                        self.result = Some(r);
                        if let Err(e) = self.keep(cat) {
                            self.message
                                .push_str(&format!(" (not kept for the next start: {e})"));
                        }
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
        self.restore(env.cat);
        self.poll(env.cat);
        ui.heading("Balance: every card ranked");
        ui.label(
            "Every card of a game measured the same way against its field (docs/balance.md); \
             draws count as half a win.",
        );
        self.controls_ui(ui, env);
        ui.separator();
        if self.result.is_some() {
            ui.horizontal(|ui| {
                ui.selectable_value(&mut self.view, View::Table, "Table");
                ui.selectable_value(&mut self.view, View::HeatMap, "Heat map")
                    .on_hover_text("The matchup matrix: each card against each opponent or place");
            });
        }
        match self.view {
            View::Table => self.table_ui(ui, env),
            View::HeatMap => self.heat_map_ui(ui, env),
        }
    }

    fn controls_ui(&mut self, ui: &mut egui::Ui, env: &mut Env) {
        let running = self.running();
        ui.add_enabled_ui(!running, |ui| {
            ui.horizontal_wrapped(|ui| {
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
                if self.ranking == Ranking::Arcadia {
                    ui.checkbox(&mut self.decided, "Stop when decided")
                        .on_hover_text(
                            "Each card stops as soon as the sequential test (balance arcadia --sprt) \
                             decides it fair or unfair (errors about 5% each); its interval is the \
                             one of the games played. Off: each card plays until its interval is \
                             as narrow as the precision.",
                        );
                }
                if self.ranking == Ranking::Iconica || !self.decided {
                    let label = ui.label("Precision:");
                    ui.add(
                        egui::DragValue::new(&mut self.precision)
                            .range(0.005..=0.2)
                            .speed(0.001),
                    )
                    .labelled_by(label.id);
                }
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
                ui.ctx()
                    .request_repaint_after(std::time::Duration::from_millis(200));
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

    /// Opens card `id` in the card editor.
    fn open(id: &str, env: &mut Env) {
        match super::core::card(env.cat, id) {
            Some(c) => env.push(super::Action::ReplaceCard {
                label: format!("open {id}"),
                after: c.to_toml(),
            }),
            None => env.push(super::Action::Notify(format!(
                "{id} is no longer in the catalogue"
            ))),
        }
    }

    fn table_ui(&mut self, ui: &mut egui::Ui, env: &mut Env) {
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
            "Sorted by {}, {} first (click a header to sort; a name opens the card).",
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
        let mut open = None;
        let ranking = r.ranking;
        egui::ScrollArea::vertical().show(ui, |ui| {
            egui::Grid::new("balance-table")
                .striped(true)
                .num_columns(9)
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
                    ui.strong("Rank range").on_hover_text(
                        "The positions the card may hold given every card's interval",
                    );
                    ui.strong("Verdict");
                    ui.end_row();
                    for (k, row) in rows.iter().enumerate() {
                        ui.label((k + 1).to_string());
                        if ui
                            .link(&row.name)
                            .on_hover_text("Open this card in the card editor")
                            .clicked()
                        {
                            open = Some(row.id.clone());
                        }
                        ui.label(&row.kind);
                        ui.label(figure(ranking, row.value));
                        ui.label(figure(ranking, row.ci95.0));
                        ui.label(figure(ranking, row.ci95.1));
                        ui.label(row.games.to_string());
                        ui.label(if row.positions.0 == row.positions.1 {
                            row.positions.0.to_string()
                        } else {
                            format!("{}–{}", row.positions.0, row.positions.1)
                        });
                        ui.label(verdict_words(&row.verdict));
                        ui.end_row();
                    }
                });
        });
        if let Some(col) = clicked {
            self.sort_by(col);
        }
        if let Some(id) = open {
            Self::open(&id, env);
        }
    }

    fn heat_map_ui(&mut self, ui: &mut egui::Ui, env: &mut Env) {
        let Some(r) = &self.result else {
            ui.label("Nothing ranked yet: choose a game and Rank.");
            return;
        };
        let m = &r.matrix;
        if m.columns.is_empty() {
            ui.label("This ranking has no matchups to show.");
            return;
        }
        ui.label(match r.ranking {
            Ranking::Iconica => {
                "Each character's win rate against each opposing character it met (rows in the table's order; hover a cell for its games and interval)."
            }
            Ranking::Arcadia => {
                "Each card at each place of the field: 50% plus half the change it makes there (rows in the table's order; hover a cell for both sides' rates and intervals)."
            }
        });
        legend_ui(ui);
        let rows = self.sorted_rows();
        let names: Vec<String> = rows.iter().map(|r| r.name.clone()).collect();
        let cells: Vec<Option<&Vec<Option<Cell>>>> = rows
            .iter()
            .map(|row| m.rows.iter().find(|(id, _)| id == &row.id).map(|(_, c)| c))
            .collect();
        let mut open = None;
        egui::ScrollArea::both().show(ui, |ui| {
            let font = egui::FontId::proportional(12.0);
            let label_w = names
                .iter()
                .map(|n| {
                    ui.fonts_mut(|f| {
                        f.layout_no_wrap(n.clone(), font.clone(), egui::Color32::BLACK)
                            .size()
                            .x
                    })
                })
                .fold(60.0f32, f32::max)
                + 8.0;
            let cell = egui::vec2(26.0, 18.0);
            let head_h = 110.0;
            let size = egui::vec2(
                label_w + cell.x * m.columns.len() as f32,
                head_h + cell.y * rows.len() as f32,
            );
            let (rect, _) = ui.allocate_exact_size(size, egui::Sense::hover());
            let painter = ui.painter_at(rect);
            let text = ui.visuals().text_color();
            for (c, col) in m.columns.iter().enumerate() {
                let x = rect.left() + label_w + cell.x * (c as f32 + 0.5);
                let galley = ui.fonts_mut(|f| f.layout_no_wrap(short(col, 18), font.clone(), text));
                let shape = egui::epaint::TextShape::new(
                    egui::pos2(x - galley.size().y / 2.0, rect.top() + head_h - 4.0),
                    galley,
                    text,
                )
                .with_angle(-std::f32::consts::FRAC_PI_2);
                painter.add(shape);
            }
            for (k, name) in names.iter().enumerate() {
                let y = rect.top() + head_h + cell.y * k as f32;
                let label_rect = egui::Rect::from_min_size(
                    egui::pos2(rect.left(), y),
                    egui::vec2(label_w, cell.y),
                );
                let resp = ui
                    .interact(
                        label_rect,
                        egui::Id::unique(("balance-heat-row", k)),
                        egui::Sense::click(),
                    )
                    .on_hover_text("Open this card in the card editor");
                painter.text(
                    egui::pos2(rect.left() + label_w - 6.0, y + cell.y / 2.0),
                    egui::Align2::RIGHT_CENTER,
                    name,
                    font.clone(),
                    if resp.hovered() {
                        ui.visuals().hyperlink_color
                    } else {
                        text
                    },
                );
                if resp.clicked() {
                    open = Some(rows[k].id.clone());
                }
                let Some(row_cells) = cells[k] else { continue };
                for (c, v) in row_cells.iter().enumerate() {
                    let r = egui::Rect::from_min_size(
                        egui::pos2(rect.left() + label_w + cell.x * c as f32, y),
                        cell,
                    )
                    .shrink(1.0);
                    match v {
                        Some(v) => {
                            painter.rect_filled(r, 2.0, heat(v.rate));
                            ui.interact(
                                r,
                                egui::Id::unique(("balance-heat", k, c)),
                                egui::Sense::hover(),
                            )
                            .on_hover_text(format!(
                                "{} against {}: {}",
                                name, m.columns[c], v.detail
                            ));
                        }
                        None => {
                            painter.rect_stroke(
                                r,
                                2.0,
                                egui::Stroke::new(1.0, ui.visuals().weak_text_color()),
                                egui::StrokeKind::Inside,
                            );
                        }
                    }
                }
            }
        });
        if let Some(id) = open {
            Self::open(&id, env);
        }
    }
}

/// The colour of a rate: red below 50%, white at 50%, blue above, full at 25% and 75%.
pub fn heat(rate: f64) -> egui::Color32 {
    let t = ((rate - 0.5) / 0.25).clamp(-1.0, 1.0) as f32;
    let mix = |a: u8, b: u8, t: f32| (a as f32 + (b as f32 - a as f32) * t).round() as u8;
    let (r, g, b) = if t < 0.0 {
        (214, 69, 65)
    } else {
        (49, 110, 196)
    };
    let t = t.abs();
    egui::Color32::from_rgb(mix(245, r, t), mix(245, g, t), mix(245, b, t))
}

/// The colour scale, in words and swatches.
fn legend_ui(ui: &mut egui::Ui) {
    ui.horizontal(|ui| {
        for (rate, label) in [(0.25, "25% or less"), (0.5, "50%"), (0.75, "75% or more")] {
            let (r, _) = ui.allocate_exact_size(egui::vec2(16.0, 12.0), egui::Sense::hover());
            ui.painter().rect_filled(r, 2.0, heat(rate));
            ui.label(label);
        }
        let (r, _) = ui.allocate_exact_size(egui::vec2(16.0, 12.0), egui::Sense::hover());
        ui.painter().rect_stroke(
            r,
            2.0,
            egui::Stroke::new(1.0, ui.visuals().weak_text_color()),
            egui::StrokeKind::Inside,
        );
        ui.label("no game");
    });
}

/// `s` cut to `n` characters.
fn short(s: &str, n: usize) -> String {
    if s.chars().count() <= n {
        s.to_string()
    } else {
        format!("{}…", s.chars().take(n - 1).collect::<String>())
    }
}

/// A figure of the table.
fn figure(ranking: Ranking, x: f64) -> String {
    match ranking {
        Ranking::Iconica => format!("{:.1}%", x * 100.0),
        Ranking::Arcadia => format!("{:+.1} pts", x * 100.0),
    }
}

/// A verdict in words.
fn verdict_words(v: &str) -> &'static str {
    match v {
        "fair" => "fair",
        "too_strong" => "too strong",
        "too_weak" => "too weak",
        _ => "not decided",
    }
}

/// A rate and its interval in words.
fn rate_words(r: &Rate) -> String {
    format!(
        "{:.1}% ({:.1}% to {:.1}%)",
        r.win_rate * 100.0,
        r.ci95.0 * 100.0,
        r.ci95.1 * 100.0
    )
}

/// Every Iconica character of `pool` against its own field (those in no legal party left
/// out): the rows with their rank intervals and verdicts, and the matrix.
fn iconica_ranking(
    pool: &[crate::games::iconica::model::Character],
    settings: ico::Settings,
    runner: &Runner<'_>,
    done: &mut dyn FnMut(),
) -> Result<(Vec<Row>, Matrix), BalanceError> {
    let measurable = sweep::measurable(pool);
    let mut results = Vec::new();
    for (i, ok) in measurable.iter().enumerate() {
        if *ok {
            results.push(sweep::measure(pool, i, settings, runner, "app")?);
        }
        done();
    }
    let ranked = sweep::rank(&results);
    let rows = ranked
        .iter()
        .map(|r| Row {
            id: r.id.clone(),
            name: r.name.clone(),
            kind: "character".into(),
            value: r.rate.win_rate,
            ci95: r.rate.ci95,
            games: r.rate.games,
            stopped: r.rate.stopped.as_str().into(),
            positions: r.interval,
            verdict: r.standing.as_str().into(),
        })
        .collect();
    let (columns, cells) = sweep::matrix(&ranked, &results);
    let rows_m = ranked
        .iter()
        .zip(cells)
        .map(|(row, cs)| {
            let res = results.iter().find(|x| x.id == row.id);
            let cells = columns
                .iter()
                .zip(cs)
                .map(|(col, c)| {
                    c?;
                    let cell = res?.matchups.iter().find(|m| &m.name == col)?;
                    let rate = Rate::of_sums(cell.half_wins, cell.games, row.rate.stopped);
                    Some(Cell {
                        rate: rate.win_rate,
                        ci95: rate.ci95,
                        games: rate.games,
                        detail: format!("{} over {} games", rate_words(&rate), rate.games),
                    })
                })
                .collect();
            (row.id.clone(), cells)
        })
        .collect();
    Ok((
        rows,
        Matrix {
            columns,
            rows: rows_m,
        },
    ))
}

/// A decided card's figures as a report (its verdict and matchups; no worth).
fn report_of(r: &parts::Ranked) -> arc::Report {
    let d = &r.decided;
    arc::Report {
        kind: r.subject.kind(),
        points: r.subject.points(),
        per_point: arc::per_point(&d.delta, r.subject.points()),
        delta: d.delta,
        worth: None,
        worth_per_point: None,
        places: Vec::new(),
        matchups: d.matchups.clone(),
    }
}

/// Arcadia's ranked cards as rows (with their rank intervals and verdicts: the sequential
/// test's when given, else the interval's) and the matrix of places.
fn arcadia_rows(ranked: &[(arc::Subject, arc::Report, Option<Verdict>)]) -> (Vec<Row>, Matrix) {
    let figures: Vec<(f64, (f64, f64))> = ranked.iter().map(|(_, r, _)| r.figure()).collect();
    let rows = ranked
        .iter()
        .enumerate()
        .map(|(k, (s, r, v))| {
            let (value, ci95) = figures[k];
            let verdict = match v {
                Some(v) => v.as_str().to_string(),
                None => arc::standing(&r.delta).as_str().to_string(),
            };
            Row {
                id: s.id().to_string(),
                name: s.name().to_string(),
                kind: s.kind().to_string(),
                value,
                ci95,
                games: r.delta.games,
                stopped: match v {
                    Some(Verdict::NotDecided) => "not_decided".into(),
                    Some(_) => "decided".into(),
                    None => r.delta.stopped.as_str().into(),
                },
                positions: parts::rank_interval(&figures, k),
                verdict,
            }
        })
        .collect();
    let place = |m: &arc::Matchup| format!("{}: {}", m.setup, m.character);
    let mut columns: Vec<String> = Vec::new();
    for (_, r, _) in ranked {
        for m in &r.matchups {
            let p = place(m);
            if !columns.contains(&p) {
                columns.push(p);
            }
        }
    }
    let rows_m = ranked
        .iter()
        .map(|(s, r, _)| {
            let cells = columns
                .iter()
                .map(|col| {
                    let m = r.matchups.iter().find(|m| &place(m) == col)?;
                    let change = m.with.win_rate - m.without.win_rate;
                    Some(Cell {
                        rate: 0.5 + change / 2.0,
                        ci95: m.with.ci95,
                        games: m.with.games,
                        detail: format!(
                            "with the card {}, without {}: {:+.1} pts over {} games",
                            rate_words(&m.with),
                            rate_words(&m.without),
                            change * 100.0,
                            m.with.games
                        ),
                    })
                })
                .collect();
            (s.id().to_string(), cells)
        })
        .collect();
    (
        rows,
        Matrix {
            columns,
            rows: rows_m,
        },
    )
}

fn finish(
    r: Result<(Vec<Row>, Matrix), BalanceError>,
    ranking: Ranking,
    ai: Policy,
    seed: u64,
) -> Result<Ranked, String> {
    r.map(|(rows, matrix)| Ranked {
        ranking,
        ai,
        seed,
        rows,
        matrix,
    })
    .map_err(|e| e.to_string())
}
