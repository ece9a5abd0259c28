//! Iconica's Simulate view: many seeded AI-vs-AI matches of the two parties in the shared
//! view ([`SimView`]: progress and Cancel, win rates with their intervals, endings, match
//! lengths), and the field table (`deckwright sim iconica --field`): every legal party of
//! the catalogue's characters against party B, per character, sortable by each column and
//! exported to CSV.

use std::sync::Arc;

use super::job::{Job, Poll};
use super::sim_view::{Ask, SimView, Words};
use super::{Asked, MatchOptions};
use crate::app::Env;
use crate::app::files::{self, Dialog};
use crate::app::{Action, core::AppError};
use crate::cards::{Card, CardLookup};
use crate::catalogue::Catalogue;
use crate::games::iconica::ai::PolicyKind;
use crate::games::iconica::engine::{Rules, Setup};
use crate::games::iconica::model::Character;
use crate::sim::{self, Summary};

/// At most this many characters in a field's pool (as `sim iconica --field` allows).
pub const MAX_FIELD_POOL: usize = 100;

/// The Simulate view of Iconica: the run of the two parties and the field.
pub struct SimPanel {
    pub view: SimView,
    pub field: FieldPanel,
}

impl Default for SimPanel {
    fn default() -> Self {
        SimPanel {
            view: SimView::new("iconica-sim", 1000),
            field: FieldPanel::default(),
        }
    }
}

impl std::ops::Deref for SimPanel {
    type Target = SimView;
    fn deref(&self) -> &SimView {
        &self.view
    }
}

impl std::ops::DerefMut for SimPanel {
    fn deref_mut(&mut self) -> &mut SimView {
        &mut self.view
    }
}

impl SimPanel {
    /// The key of a run of the current parties and options.
    fn key(&self, now: &Asked) -> String {
        format!("{}\n{} games", now.key, self.view.games)
    }

    pub fn ui(&mut self, ui: &mut egui::Ui, now: &Asked, env: &mut Env) {
        self.view.poll();
        self.field.poll();
        let (setup, o, names) = (now.setup, now.options, now.names);
        let ready = setup.as_ref().map(|_| ()).map_err(String::as_str);
        let tip = format!(
            "Play {} matches: {} (A, {}) against {} (B, {})",
            self.view.games, names[0], o.policies[0], names[1], o.policies[1]
        );
        let run = ui
            .horizontal(|ui| self.view.controls_ui(ui, ready, &tip))
            .inner;
        if run && let Ok(setup) = setup {
            self.start(ui.ctx(), setup.clone(), o, self.key(now), now.names);
        }
        self.view.progress_ui(ui);
        let key = self.key(now);
        egui::ScrollArea::vertical()
            .id_salt("iconica-sim-scroll")
            .auto_shrink(false)
            .show(ui, |ui| {
                self.view.result_ui(
                    ui,
                    &key,
                    "The parties or options changed since this run: play it again to update it.",
                );
                ui.separator();
                self.field.ui(ui, now, env, self.view.threads);
            });
    }

    /// Starts a run of the view's games of `setup` with the options' policies and seed.
    pub fn start(
        &mut self,
        ctx: &egui::Context,
        setup: Arc<Setup>,
        o: &MatchOptions,
        key: String,
        names: [&str; 2],
    ) {
        let (pa, pb) = (o.policy(0), o.policy(1));
        let (games, seed) = (self.view.games.max(1), o.seed);
        let ask = Ask {
            heading: format!(
                "{games} games, seed {seed}: {} against {}",
                names[0], names[1]
            ),
            cli: Some(format!(
                "deckwright sim iconica A.party.toml B.party.toml --games {games} --seed {seed} --ai-a {} --ai-b {}{}",
                pa.name(),
                pb.name(),
                o.cli_rules()
            )),
            key,
            labels: vec![
                format!("A ({}, {})", names[0], pa.name()),
                format!("B ({}, {})", names[1], pb.name()),
            ],
            words: Words {
                length: ("turn", "turns"),
                draw: "A draw is a match neither side won: both sides lost their last characters in the same turn (ending `victory`), or the turn limit was reached (ending `turn_limit`).",
            },
        };
        self.view.start(ctx, ask, move |i| {
            sim::iconica::outcome_of(&setup, pa, pb, seed, i)
        });
    }
}

/// A column of the field table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FieldColumn {
    Character,
    Parties,
    Games,
    Wins,
    WinRate,
    Low,
    High,
}

impl FieldColumn {
    pub const ALL: [FieldColumn; 7] = [
        FieldColumn::Character,
        FieldColumn::Parties,
        FieldColumn::Games,
        FieldColumn::Wins,
        FieldColumn::WinRate,
        FieldColumn::Low,
        FieldColumn::High,
    ];

    /// The order of a sort by this column, in words.
    pub fn order(self, descending: bool) -> &'static str {
        match (self, descending) {
            (FieldColumn::Character, false) => "A to Z",
            (FieldColumn::Character, true) => "Z to A",
            (_, true) => "high first",
            (_, false) => "low first",
        }
    }

    /// The header's text.
    pub fn title(self) -> &'static str {
        match self {
            FieldColumn::Character => "Name",
            FieldColumn::Parties => "Parties",
            FieldColumn::Games => "Field games",
            FieldColumn::Wins => "Wins",
            FieldColumn::WinRate => "Win rate",
            FieldColumn::Low => "95% low",
            FieldColumn::High => "95% high",
        }
    }
}

/// One character's row of the field table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldLine {
    pub id: String,
    pub name: String,
    pub parties: usize,
    pub summary: Summary,
}

impl FieldLine {
    fn cmp_by(&self, o: &FieldLine, c: FieldColumn) -> std::cmp::Ordering {
        let (a, b) = (&self.summary, &o.summary);
        match c {
            FieldColumn::Character => self.name.cmp(&o.name),
            FieldColumn::Parties => self.parties.cmp(&o.parties),
            FieldColumn::Games => a.games.cmp(&b.games),
            FieldColumn::Wins => a.wins[0].cmp(&b.wins[0]),
            FieldColumn::WinRate => a.win_rate_a().total_cmp(&b.win_rate_a()),
            FieldColumn::Low => a.ci95_a().0.total_cmp(&b.ci95_a().0),
            FieldColumn::High => a.ci95_a().1.total_cmp(&b.ci95_a().1),
        }
    }
}

/// A finished field run.
#[derive(Debug, Clone, PartialEq)]
pub struct FieldTable {
    pub heading: String,
    /// Best win rate first (as `sim --field` lists them).
    pub rows: Vec<FieldLine>,
    /// What it was played with (see [`Asked::key`]).
    pub key: String,
}

/// How a field run's thread ended.
enum FieldEnd {
    Done(Vec<FieldLine>),
    Stopped,
    Failed(String),
}

/// The field table's state.
pub struct FieldPanel {
    /// Games each party of the field plays.
    pub games: u64,
    job: Option<Job<FieldEnd>>,
    asked: Option<(String, String)>,
    pub table: Option<FieldTable>,
    /// The column the table is sorted by, and whether descending.
    pub sort: (FieldColumn, bool),
    pub message: Option<String>,
}

impl Default for FieldPanel {
    fn default() -> Self {
        FieldPanel {
            games: 20,
            job: None,
            asked: None,
            table: None,
            sort: (FieldColumn::WinRate, true),
            message: None,
        }
    }
}

fn pct(x: f64) -> String {
    format!("{:.1}%", x * 100.0)
}

/// The catalogue's Iconica characters (the field's pool).
fn pool_of(cat: &Catalogue) -> Result<Vec<Character>, String> {
    Ok(cat
        .all()
        .map_err(|e| format!("the catalogue cannot be read: {e}"))?
        .into_iter()
        .filter_map(|c| match c {
            Card::Iconica(ch) => Some(ch),
            _ => None,
        })
        .collect())
}

/// The characters of party B from the catalogue.
fn opponent_of(cat: &Catalogue, ids: &[String]) -> Result<Vec<Character>, String> {
    ids.iter()
        .map(|id| match cat.card(id).map(|c| c.into_owned()) {
            Some(Card::Iconica(c)) => Ok(c),
            _ => Err(format!("{id} is not an Iconica character in the catalogue")),
        })
        .collect()
}

impl FieldPanel {
    /// True while a field run goes on.
    pub fn running(&self) -> bool {
        self.job.is_some()
    }

    /// The rows in the order the table shows them.
    pub fn sorted(&self) -> Vec<&FieldLine> {
        let Some(t) = &self.table else {
            return Vec::new();
        };
        let (col, desc) = self.sort;
        let mut rows: Vec<&FieldLine> = t.rows.iter().collect();
        rows.sort_by(|a, b| {
            let o = a.cmp_by(b, col);
            let o = if desc { o.reverse() } else { o };
            o.then_with(|| a.name.cmp(&b.name))
        });
        rows
    }

    /// Sorts by `col`: a second click on the same column turns the order round; names sort
    /// A to Z first, figures highest first.
    pub fn sort_by(&mut self, col: FieldColumn) {
        self.sort = if self.sort.0 == col {
            (col, !self.sort.1)
        } else {
            (col, col != FieldColumn::Character)
        };
    }

    /// The table as CSV, in the order shown: `id,name,parties,games,wins,win_rate,ci95_low,ci95_high`.
    pub fn csv(&self) -> Result<Vec<u8>, String> {
        let mut w = csv::Writer::from_writer(Vec::new());
        let err = |e: csv::Error| format!("cannot write the CSV: {e}");
        w.write_record([
            "id",
            "name",
            "parties",
            "games",
            "wins",
            "win_rate",
            "ci95_low",
            "ci95_high",
        ])
        .map_err(err)?;
        for r in self.sorted() {
            let s = &r.summary;
            let (lo, hi) = s.ci95_a();
            w.write_record([
                r.id.clone(),
                r.name.clone(),
                r.parties.to_string(),
                s.games.to_string(),
                s.wins[0].to_string(),
                format!("{:.6}", s.win_rate_a()),
                format!("{lo:.6}"),
                format!("{hi:.6}"),
            ])
            .map_err(err)?;
        }
        w.into_inner()
            .map_err(|e| format!("cannot write the CSV: {e}"))
    }

    fn poll(&mut self) {
        let Some(job) = &self.job else { return };
        let end = match job.poll() {
            Poll::Running => return,
            Poll::Finished(e) => e,
            Poll::Lost => FieldEnd::Failed("the run stopped on an internal error".into()),
        };
        self.job = None;
        let asked = self.asked.take();
        match (end, asked) {
            (FieldEnd::Done(rows), Some((heading, key))) => {
                self.table = Some(FieldTable { heading, rows, key });
                self.message = None;
            }
            (FieldEnd::Done(_), None) => {}
            (FieldEnd::Stopped, _) => self.message = Some("Field cancelled: no result.".into()),
            (FieldEnd::Failed(e), _) => self.message = Some(format!("The field failed: {e}.")),
        }
    }

    /// Starts the field: every legal party of three of the catalogue's characters (side A,
    /// A's policy) against party B (B's policy), `self.games` games each, on `threads`.
    pub fn start(
        &mut self,
        ctx: &egui::Context,
        cat: &Catalogue,
        opponent: &[String],
        o: &MatchOptions,
        threads: usize,
        key: String,
    ) {
        let prepared = pool_of(cat).and_then(|pool| {
            let opponent = opponent_of(cat, opponent)?;
            if pool.len() > MAX_FIELD_POOL {
                return Err(format!(
                    "a pool of {} characters is more than the {MAX_FIELD_POOL} a field is drawn from",
                    pool.len()
                ));
            }
            let parties = sim::iconica::field_parties(&pool, &opponent);
            if parties.is_empty() {
                return Err("no legal party of the catalogue's characters can face party B".into());
            }
            Ok((pool, opponent, parties))
        });
        let (pool, opponent, parties) = match prepared {
            Ok(p) => p,
            Err(e) => {
                self.message = Some(format!("No field: {e}."));
                return;
            }
        };
        let (pa, pb, seed, rules) = (o.policy(0), o.policy(1), o.seed, o.rules());
        let games = self.games.max(1);
        self.asked = Some((
            format!(
                "Field: {} legal parties x {games} games against party B; {} (field) vs {}, seed {seed}",
                parties.len(),
                pa.name(),
                pb.name()
            ),
            key,
        ));
        self.message = None;
        let total = games * parties.len() as u64;
        let job = Job::spawn(ctx, "deckwright-field", total, move |p| {
            field_run(
                &pool,
                &opponent,
                &parties,
                FieldRun {
                    pa,
                    pb,
                    seed,
                    rules,
                    games,
                    threads,
                },
                |n| p.add(n),
                p.stop_flag(),
            )
        });
        match job {
            Ok(j) => self.job = Some(j),
            Err(e) => self.message = Some(format!("The field did not start: {e}")),
        }
    }

    fn ui(&mut self, ui: &mut egui::Ui, now: &Asked, env: &mut Env, threads: usize) {
        ui.heading("Field per character");
        ui.weak(
            "Every legal party of three of the catalogue's characters plays party B; each character's row sums the games of the parties it is in (as deckwright sim iconica --field).",
        );
        let key = format!("{}\n{} field games", now.key, self.games);
        ui.horizontal(|ui| {
            let label = ui.label("Games per party");
            ui.add(egui::DragValue::new(&mut self.games).range(1..=100_000))
                .labelled_by(label.id);
            let can = now.setup.is_ok() && self.job.is_none();
            let run = ui
                .add_enabled(can, egui::Button::new("Run field"))
                .on_hover_text("Play the field on background threads (the Threads above; A's policy plays the field)")
                .on_disabled_hover_text(match now.setup {
                    Err(why) => why.as_str(),
                    Ok(_) => "A run is going on",
                });
            if run.clicked() {
                self.start(
                    ui.ctx(),
                    env.cat,
                    &env.docs.party_b.members,
                    now.options,
                    threads,
                    key.clone(),
                );
            }
            if let Some(job) = &self.job
                && ui
                    .button("Cancel field")
                    .on_hover_text("Stop the field (it gives no result)")
                    .clicked()
            {
                job.cancel();
            }
            if self.table.is_some()
                && ui
                    .button("Export CSV…")
                    .on_hover_text("Write the table, in the order shown, to a CSV file")
                    .clicked()
            {
                match self.csv() {
                    Ok(bytes) => {
                        let d = Dialog::save("field.csv").filter("CSV", &["csv"]);
                        files::ask(ui.ctx(), env, d, move |_, paths| {
                            paths.iter().map(|p| write_csv(p, &bytes)).collect()
                        });
                    }
                    Err(e) => env.push(Action::Error(e)),
                }
            }
        });
        if let Some(job) = &self.job {
            ui.add(egui::ProgressBar::new(job.fraction()).text(format!(
                "{} / {} field games",
                job.done(),
                job.total()
            )));
        }
        if let Some(m) = &self.message {
            ui.label(m);
        }
        if let Some(t) = &self.table {
            if t.key != key {
                ui.label(
                    egui::RichText::new(
                        "The parties or options changed since this field: run it again to update it.",
                    )
                    .color(ui.visuals().warn_fg_color),
                );
            }
            ui.label(&t.heading);
            self.table_ui(ui);
        }
    }

    /// The table: a click on a header sorts by its column.
    fn table_ui(&mut self, ui: &mut egui::Ui) {
        let mut clicked = None;
        egui::Grid::new("iconica-field-table")
            .num_columns(FieldColumn::ALL.len())
            .striped(true)
            .show(ui, |ui| {
                for c in FieldColumn::ALL {
                    let text = match self.sort {
                        (s, desc) if s == c => format!("{} ({})", c.title(), c.order(desc)),
                        _ => c.title().to_string(),
                    };
                    if ui
                        .button(egui::RichText::new(text).strong())
                        .on_hover_text("Sort by this column (again: the other way round)")
                        .clicked()
                    {
                        clicked = Some(c);
                    }
                }
                ui.end_row();
                for r in self.sorted() {
                    let s = &r.summary;
                    let (lo, hi) = s.ci95_a();
                    ui.label(&r.name);
                    ui.label(r.parties.to_string());
                    ui.label(s.games.to_string());
                    ui.label(s.wins[0].to_string());
                    ui.label(pct(s.win_rate_a()));
                    ui.label(pct(lo));
                    ui.label(pct(hi));
                    ui.end_row();
                }
            });
        if let Some(c) = clicked {
            self.sort_by(c);
        }
    }
}

/// Writes the CSV (to a temporary file first, so nothing is left half written).
fn write_csv(path: &std::path::Path, bytes: &[u8]) -> Action {
    match crate::safe_io::write_atomic(path, bytes) {
        Ok(()) => Action::Notify(format!("Wrote the field table to {}", path.display())),
        Err(source) => Action::Error(
            AppError::Write {
                path: path.to_path_buf(),
                source,
            }
            .chain(),
        ),
    }
}

/// How a field is played.
#[derive(Debug, Clone, Copy)]
pub struct FieldRun {
    pub pa: PolicyKind,
    pub pb: PolicyKind,
    pub seed: u64,
    pub rules: Rules,
    pub games: u64,
    pub threads: usize,
}

/// Plays the field (party `k` of `parties`, side A, against `opponent`, seeded as `sim
/// iconica --field` seeds it) and sums it per character; `FieldEnd::Stopped` when `stop` was
/// set first.
fn field_run(
    pool: &[Character],
    opponent: &[Character],
    parties: &[[usize; 3]],
    r: FieldRun,
    progress: impl Fn(u64) + Sync,
    stop: &std::sync::atomic::AtomicBool,
) -> FieldEnd {
    let mut results = Vec::with_capacity(parties.len());
    for (k, p) in parties.iter().enumerate() {
        let members: Vec<Character> = p.iter().map(|&i| pool[i].clone()).collect();
        let setup = match Setup::duel(&members, opponent, r.rules) {
            Ok(s) => s,
            Err(e) => return FieldEnd::Failed(format!("a party cannot play: {e}")),
        };
        let seed = sim::iconica::field_seed(r.seed, k);
        let play = |i| sim::iconica::play_one(&setup, r.pa, r.pb, seed, i);
        match sim::run_stoppable(r.games, Some(r.threads), play, &progress, stop) {
            Ok(Some(s)) => results.push(s),
            Ok(None) => return FieldEnd::Stopped,
            Err(e) => return FieldEnd::Failed(e.to_string()),
        }
    }
    FieldEnd::Done(
        sim::iconica::field_rows(pool.len(), parties, &results)
            .into_iter()
            .map(|row| FieldLine {
                id: pool[row.character].id.clone(),
                name: pool[row.character].name.clone(),
                parties: row.parties,
                summary: row.summary,
            })
            .collect(),
    )
}
