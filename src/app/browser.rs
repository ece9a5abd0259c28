//! The catalogue browser: one search box with the query language, quick filters per game
//! and kind, a sortable result table that draws only its visible rows, and a detail pane
//! with the card, its fields and its owned quantity.

use crate::app::commands::UiCommand;
use std::path::PathBuf;
use std::sync::mpsc::{Receiver, Sender, channel};

use egui_extras::{Column, TableBuilder};

use super::core::{self, QueryError, Row};
use super::{Action, Env, Session, picker};
use crate::cards::{Card, FieldValue, Game};
use crate::catalogue::Catalogue;

/// The most results a query shows.
pub const RESULT_LIMIT: usize = 100_000;

/// Result table columns.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SortKey {
    Name,
    Game,
    Kind,
    Owned,
    Id,
}

/// The browser screen.
pub struct Browser {
    /// The query as the user typed it.
    pub query: String,
    pub game: Option<Game>,
    pub kind: Option<String>,
    pub focus_search: bool,
    rows: Vec<Row>,
    sort: Option<(SortKey, bool)>,
    selected: Option<String>,
    detail: Option<Detail>,
    error: Option<QueryError>,
    /// The full query text last sent, and the number of the query whose rows are shown.
    sent: Option<String>,
    next_seq: u64,
    shown_seq: u64,
    worker: Option<Worker>,
    path: Option<PathBuf>,
    total: Option<u64>,
    scroll_to_selected: bool,
    /// Show the results as the sheet view (cells edited in place) instead of the list.
    pub sheet_mode: bool,
    sheet: super::sheet_view::SheetView,
}

struct Detail {
    id: String,
    card: Card,
    owned: u32,
    fields: Vec<(String, String)>,
    texture: Option<egui::TextureHandle>,
}

/// Runs queries on its own thread with its own connection, latest query first.
struct Worker {
    tx: Sender<(u64, String)>,
    rx: Receiver<Answer>,
}

/// A query's result with the number and the full text of the query it answers, so that a late
/// answer to an older query is told apart from the latest one.
type Answer = (u64, String, Result<Vec<Row>, QueryError>);

impl Worker {
    fn spawn(path: PathBuf, ctx: egui::Context) -> Option<Worker> {
        let (qtx, qrx) = channel::<(u64, String)>();
        let (rtx, rrx) = channel();
        let cat = Catalogue::open(&path).ok()?;
        std::thread::Builder::new()
            .name("deckwright-search".into())
            .spawn(move || {
                while let Ok(mut job) = qrx.recv() {
                    while let Ok(newer) = qrx.try_recv() {
                        job = newer;
                    }
                    let result = core::search(&cat, &job.1, RESULT_LIMIT);
                    if rtx.send((job.0, job.1, result)).is_err() {
                        break;
                    }
                    ctx.request_repaint();
                }
            })
            .ok()?;
        Some(Worker { tx: qtx, rx: rrx })
    }
}

impl Browser {
    /// A browser; with a catalogue file, its queries run on a worker thread.
    pub fn new(path: Option<PathBuf>) -> Browser {
        Browser {
            query: String::new(),
            game: None,
            kind: None,
            focus_search: false,
            rows: Vec::new(),
            sort: None,
            selected: None,
            detail: None,
            error: None,
            sent: None,
            next_seq: 0,
            shown_seq: 0,
            worker: None,
            path,
            total: None,
            scroll_to_selected: false,
            sheet_mode: false,
            sheet: Default::default(),
        }
    }

    pub fn restore(&mut self, s: &Session) {
        self.query = s.query.clone();
        self.game = s.game_filter.as_deref().and_then(Game::parse);
        self.kind = s.kind_filter.clone();
        self.selected = s.selected.clone();
        self.scroll_to_selected = self.selected.is_some();
    }

    pub fn store(&self, s: &mut Session) {
        s.query = self.query.clone();
        s.game_filter = self.game.map(|g| g.as_str().to_string());
        s.kind_filter = self.kind.clone();
        s.selected = self.selected.clone();
    }

    /// The ids of the search result, in the order listed.
    pub fn result_ids(&self) -> Vec<String> {
        self.rows.iter().map(|r| r.id.clone()).collect()
    }

    /// The selected card.
    pub fn selected(&self) -> Option<String> {
        self.selected.clone()
    }

    /// Selects a card (and shows it in the list when it is there).
    pub fn select(&mut self, id: &str) {
        self.selected = Some(id.to_string());
        self.scroll_to_selected = true;
    }

    /// The rows shown now.
    pub fn rows(&self) -> &[Row] {
        &self.rows
    }

    /// Runs the query again (the catalogue changed).
    pub fn requery(&mut self) {
        self.sent = None;
        self.total = None;
        self.detail = None;
    }

    /// Owned copies of every card (cached; kept up to date by [`Browser::owned_changed`]).
    pub fn collection_total(&mut self, cat: &Catalogue) -> u64 {
        *self
            .total
            .get_or_insert_with(|| core::collection_total(cat))
    }

    /// Shows a changed owned quantity without running the query again.
    pub fn owned_changed(&mut self, id: &str, quantity: u32) {
        if let Some(row) = self.rows.iter_mut().find(|r| r.id == id) {
            row.owned = quantity as i64;
        }
        if let Some(d) = self.detail.as_mut().filter(|d| d.id == id) {
            d.owned = quantity;
        }
        self.total = None;
    }

    /// The query text sent to the core: the typed query with the quick filters.
    pub fn full_query(&self) -> String {
        let mut parts = Vec::new();
        if let Some(g) = self.game {
            parts.push(format!("game:{}", g.as_str()));
        }
        if let Some(k) = &self.kind {
            parts.push(format!("kind:{k}"));
        }
        let typed = self.query.trim();
        if !typed.is_empty() {
            if parts.is_empty() || typed.contains("order:") {
                parts.push(typed.to_string());
            } else {
                parts.push(format!("({typed})"));
            }
        }
        parts.join(" ")
    }

    /// Sends the query when it changed and takes in finished results.
    fn refresh(&mut self, ui: &egui::Ui, cat: &Catalogue) {
        if self.worker.is_none()
            && let Some(path) = self.path.clone()
        {
            self.worker = Worker::spawn(path, ui.ctx().clone());
            if self.worker.is_none() {
                self.path = None;
            }
        }
        if let Some((seq, text)) = self.next_query() {
            match &self.worker {
                Some(w) => {
                    let _ = w.tx.send((seq, text));
                }
                None => {
                    let r = core::search(cat, &text, RESULT_LIMIT);
                    self.take_result((seq, text, r));
                }
            }
        }
        let mut done = Vec::new();
        if let Some(w) = &self.worker {
            while let Ok(r) = w.rx.try_recv() {
                done.push(r);
            }
        }
        for answer in done {
            self.take_result(answer);
        }
    }

    /// The query to run when the text changed, with its number; `None` when it did not, or
    /// when the typed text has a syntax error (then shown at once). Every new text gets its
    /// own number, even one that is never sent, so that an answer to an older query arriving
    /// later is stale and dropped.
    fn next_query(&mut self) -> Option<(u64, String)> {
        let text = self.full_query();
        if self.sent.as_deref() == Some(text.as_str()) {
            return None;
        }
        self.next_seq += 1;
        let seq = self.next_seq;
        self.sent = Some(text.clone());
        // A syntax error of the typed text points into the typed text.
        if let Some(e) = core::query_syntax(&self.query) {
            self.error = Some(e);
            self.shown_seq = seq;
            return None;
        }
        Some((seq, text))
    }

    /// Shows the answer to the latest query; an answer to any older one is stale (the rows of a
    /// query typed over, or one that would clear the error of the text shown) and dropped.
    fn take_result(&mut self, (seq, text, result): Answer) {
        if seq != self.next_seq || self.sent.as_deref() != Some(text.as_str()) {
            return;
        }
        self.shown_seq = seq;
        match result {
            Ok(rows) => {
                self.rows = rows;
                self.error = None;
                self.apply_sort();
                if self.selected.is_some() {
                    self.scroll_to_selected = true;
                }
            }
            Err(mut e) => {
                // Columns count in the full query; show them in the typed text.
                let full = text;
                let typed = self.query.trim();
                if let (Some(col), Some(at)) =
                    (e.column, full.find(typed).filter(|_| !typed.is_empty()))
                {
                    let lead = self.query.len() - self.query.trim_start().len();
                    let offset = full[..at].chars().count();
                    e.column = col
                        .checked_sub(offset)
                        .map(|c| c + self.query[..lead].chars().count());
                }
                self.error = Some(e);
            }
        }
    }

    /// True while a query is running on the worker.
    pub fn busy(&self) -> bool {
        self.shown_seq < self.next_seq
    }

    fn apply_sort(&mut self) {
        let Some((key, desc)) = self.sort else { return };
        self.rows.sort_by(|a, b| {
            let o = match key {
                SortKey::Name => a.name.to_lowercase().cmp(&b.name.to_lowercase()),
                SortKey::Game => a.game.cmp(&b.game),
                SortKey::Kind => a.kind.cmp(&b.kind),
                SortKey::Owned => a.owned.cmp(&b.owned),
                SortKey::Id => a.id.cmp(&b.id),
            }
            .then_with(|| a.id.cmp(&b.id));
            if desc { o.reverse() } else { o }
        });
    }

    pub fn ui(&mut self, ui: &mut egui::Ui, env: &mut Env) {
        self.refresh(ui, env.cat);
        self.search_bar_ui(ui);
        self.filters_ui(ui);
        ui.separator();
        egui::Panel::right("card-detail")
            .resizable(true)
            .default_size(360.0)
            .min_size(240.0)
            .show(ui, |ui| {
                self.detail_ui(ui, env);
            });
        egui::CentralPanel::default().show(ui, |ui| {
            ui.horizontal(|ui| {
                ui.label("View:");
                if ui
                    .selectable_label(!self.sheet_mode, "List")
                    .on_hover_text("The results as a list: select a card to see it")
                    .clicked()
                {
                    self.sheet_mode = false;
                }
                if ui
                    .selectable_label(self.sheet_mode, "Sheet")
                    .on_hover_text(
                        "The results as a sheet: one column a key, cells edited in place",
                    )
                    .clicked()
                {
                    self.sheet_mode = true;
                }
            });
            if self.sheet_mode {
                let ids: Vec<String> = self.rows.iter().map(|r| r.id.clone()).collect();
                self.sheet.ui(ui, env, &ids);
            } else {
                self.table_ui(ui, env);
            }
        });
    }

    fn search_bar_ui(&mut self, ui: &mut egui::Ui) {
        ui.horizontal(|ui| {
            let id = egui::Id::unique("browser-search");
            let label = ui.label("Search:");
            let edit = egui::TextEdit::singleline(&mut self.query)
                .id(id)
                .hint_text("Search: words, \"phrases\", field:value, cost<=3, -term, a or b, order:-health")
                .desired_width(ui.available_width() - 140.0);
            let response = ui.add(edit).on_hover_text("The query language of docs/search.md; results follow as you type (Ctrl+F)");
            let response = response.labelled_by(label.id);
            if self.focus_search {
                response.request_focus();
                self.focus_search = false;
            }
            if ui.button("Clear").on_hover_text("Empty the search box").clicked() {
                self.query.clear();
            }
            if self.busy() {
                ui.spinner();
            }
        });
        if let Some(e) = &self.error {
            let text = match e.column {
                Some(col) => format!(
                    "{}\n{}\n{}^",
                    e.message,
                    self.query,
                    " ".repeat(col.saturating_sub(1))
                ),
                None => e.message.clone(),
            };
            ui.label(
                egui::RichText::new(text)
                    .monospace()
                    .color(ui.visuals().error_fg_color),
            );
        }
    }

    fn filters_ui(&mut self, ui: &mut egui::Ui) {
        ui.horizontal_wrapped(|ui| {
            ui.label("Game:");
            if ui
                .selectable_label(self.game.is_none(), "All")
                .on_hover_text("Cards of every game")
                .clicked()
            {
                self.game = None;
                self.kind = None;
            }
            for g in Game::ALL {
                if ui
                    .selectable_label(self.game == Some(g), g.title())
                    .on_hover_text(format!("Only {} cards", g.title()))
                    .clicked()
                {
                    if self.game != Some(g) {
                        self.kind = None;
                    }
                    self.game = Some(g);
                }
            }
            if let Some(g) = self.game {
                ui.separator();
                ui.label("Kind:");
                if ui.selectable_label(self.kind.is_none(), "any").clicked() {
                    self.kind = None;
                }
                for k in g.kinds() {
                    if ui
                        .selectable_label(self.kind.as_deref() == Some(*k), *k)
                        .clicked()
                    {
                        self.kind = Some(k.to_string());
                    }
                }
            }
        });
    }

    fn table_ui(&mut self, ui: &mut egui::Ui, env: &mut Env) {
        let count = self.rows.len();
        ui.horizontal(|ui| {
            let more = if count >= RESULT_LIMIT {
                " (the first; refine the search)"
            } else {
                ""
            };
            ui.label(format!(
                "{count} card{}{more}",
                if count == 1 { "" } else { "s" }
            ));
        });
        let scroll_to = if self.scroll_to_selected {
            self.scroll_to_selected = false;
            self.selected
                .as_ref()
                .and_then(|s| self.rows.iter().position(|r| &r.id == s))
        } else {
            None
        };
        let row_height = ui.text_style_height(&egui::TextStyle::Body) + 6.0;
        let mut table = TableBuilder::new(ui)
            .id_salt("results")
            .striped(true)
            .resizable(true)
            .sense(egui::Sense::click())
            .cell_layout(egui::Layout::left_to_right(egui::Align::Center))
            // Not resizable: a resizable column keeps its width, so the name would keep the
            // width of a wider window and push the other columns out of a narrower one.
            .column(
                Column::remainder()
                    .at_least(160.0)
                    .clip(true)
                    .resizable(false),
            )
            .column(Column::initial(90.0).at_least(60.0))
            .column(Column::initial(90.0).at_least(60.0))
            .column(Column::initial(110.0).at_least(100.0))
            .column(Column::initial(140.0).at_least(60.0).clip(true))
            .auto_shrink(false)
            .min_scrolled_height(0.0);
        if let Some(i) = scroll_to {
            table = table.scroll_to_row(i, Some(egui::Align::Center));
        }
        let mut clicked_sort = None;
        let mut pick = None;
        let mut owned_edit = None;
        table
            .header(row_height, |mut header| {
                for (key, title) in [
                    (SortKey::Name, "Name"),
                    (SortKey::Game, "Game"),
                    (SortKey::Kind, "Kind"),
                    (SortKey::Owned, "Owned"),
                    (SortKey::Id, "Id"),
                ] {
                    header.col(|ui| {
                        let arrow = match self.sort {
                            Some((k, false)) if k == key => " ^",
                            Some((k, true)) if k == key => " v",
                            _ => "",
                        };
                        if ui
                            .add(
                                egui::Button::new(
                                    egui::RichText::new(format!("{title}{arrow}")).strong(),
                                )
                                .frame(false),
                            )
                            .on_hover_text(format!("Sort by {}", title.to_lowercase()))
                            .clicked()
                        {
                            clicked_sort = Some(key);
                        }
                    });
                }
            })
            .body(|body| {
                body.rows(row_height, count, |mut row| {
                    let r = &self.rows[row.index()];
                    row.set_selected(self.selected.as_deref() == Some(r.id.as_str()));
                    row.col(|ui| {
                        ui.add(egui::Label::new(&r.name).selectable(false).truncate());
                    });
                    row.col(|ui| {
                        ui.add(egui::Label::new(&r.game).selectable(false));
                    });
                    row.col(|ui| {
                        ui.add(egui::Label::new(&r.kind).selectable(false));
                    });
                    row.col(|ui| {
                        let owned = r.owned.max(0) as u32;
                        if ui
                            .small_button("−")
                            .on_hover_text("Own one fewer")
                            .clicked()
                            && owned > 0
                        {
                            owned_edit = Some((r.id.clone(), owned - 1));
                        }
                        ui.add(egui::Label::new(owned.to_string()).selectable(false));
                        if ui.small_button("+").on_hover_text("Own one more").clicked() {
                            owned_edit = Some((r.id.clone(), owned + 1));
                        }
                    });
                    row.col(|ui| {
                        ui.add(
                            egui::Label::new(egui::RichText::new(&r.id).weak())
                                .selectable(false)
                                .truncate(),
                        );
                    });
                    if row.response().clicked() {
                        pick = Some(r.id.clone());
                    }
                });
            });
        if let Some(key) = clicked_sort {
            self.sort = match self.sort {
                Some((k, false)) if k == key => Some((key, true)),
                Some((k, true)) if k == key => None,
                _ => Some((key, false)),
            };
            if self.sort.is_none() {
                self.sent = None;
            }
            self.apply_sort();
        }
        if let Some(id) = pick {
            self.selected = Some(id);
        }
        if let Some((id, q)) = owned_edit {
            env.push(Action::SetOwned { id, quantity: q });
        }
        // Keys: up and down move the selection when no text field has focus.
        if !ui.ctx().egui_wants_keyboard_input() && !self.rows.is_empty() {
            let (down, up) = (
                UiCommand::NextResult.pressed(ui),
                UiCommand::PreviousResult.pressed(ui),
            );
            if down || up {
                let cur = self
                    .selected
                    .as_ref()
                    .and_then(|s| self.rows.iter().position(|r| &r.id == s));
                let next = match (cur, down) {
                    (None, _) => 0,
                    (Some(i), true) => (i + 1).min(self.rows.len() - 1),
                    (Some(i), false) => i.saturating_sub(1),
                };
                self.select(&self.rows[next].id.clone());
            }
        }
    }

    fn load_detail(&mut self, env: &Env) {
        let Some(id) = self.selected.clone() else {
            self.detail = None;
            return;
        };
        if self.detail.as_ref().is_some_and(|d| d.id == id) {
            return;
        }
        self.detail = core::card(env.cat, &id).map(|card| Detail {
            owned: core::owned(env.cat, &id),
            fields: field_lines(&card),
            id,
            card,
            texture: None,
        });
    }

    fn detail_ui(&mut self, ui: &mut egui::Ui, env: &mut Env) {
        self.load_detail(env);
        let Some(d) = &mut self.detail else {
            ui.weak("Select a card to see it here.");
            return;
        };
        egui::ScrollArea::vertical()
            .id_salt("detail-scroll")
            .show(ui, |ui| {
                ui.heading(d.card.name());
                ui.label(
                    egui::RichText::new(format!(
                        "{} · {} · {}",
                        d.card.game().title(),
                        d.card.kind(),
                        d.id
                    ))
                    .weak(),
                );
                ui.horizontal(|ui| {
                    ui.label(format!("Owned: {}", d.owned));
                    if ui
                        .button("−1")
                        .on_hover_text("Own one fewer copy")
                        .clicked()
                        && d.owned > 0
                    {
                        env.push(Action::SetOwned {
                            id: d.id.clone(),
                            quantity: d.owned - 1,
                        });
                    }
                    if ui.button("+1").on_hover_text("Own one more copy").clicked() {
                        env.push(Action::SetOwned {
                            id: d.id.clone(),
                            quantity: d.owned + 1,
                        });
                    }
                });
                ui.horizontal_wrapped(|ui| {
                    if ui
                        .button("Edit card")
                        .on_hover_text("Open this card's TOML in the card editor")
                        .clicked()
                    {
                        env.push(Action::ReplaceCard {
                            label: format!("open {}", d.id),
                            after: d.card.to_toml(),
                        });
                    }
                    picker::add_to_builder_ui(ui, &d.card, env);
                    if ui
                        .button("Print…")
                        .on_hover_text("Preview and print this card (Ctrl+P)")
                        .clicked()
                    {
                        env.push(Action::Print(vec![d.id.clone()]));
                    }
                    if ui
                        .button("Add to print")
                        .on_hover_text(
                            "Add this card to the Print screen's selection and stay here: pick several cards this way",
                        )
                        .clicked()
                    {
                        env.push(Action::AddToPrint(super::PrintSource::Cards(vec![
                            d.id.clone(),
                        ])));
                    }
                });
                ui.separator();
                super::print::card_image_ui(ui, env.cat, &d.card, &mut d.texture, 300.0);
                ui.separator();
                egui::Grid::new("card-fields")
                    .num_columns(2)
                    .striped(true)
                    .show(ui, |ui| {
                        for (k, v) in &d.fields {
                            ui.label(egui::RichText::new(k).strong());
                            ui.add(egui::Label::new(v).wrap());
                            ui.end_row();
                        }
                    });
                let texts = d.card.texts();
                if !texts.is_empty() {
                    ui.separator();
                    for t in texts {
                        ui.add(egui::Label::new(t).wrap());
                    }
                }
            });
    }
}

/// The card's fields as `key: value` lines (list values joined).
fn field_lines(card: &Card) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    for (k, v) in card.fields() {
        let v = match v {
            FieldValue::Text(t) => t,
            FieldValue::Num(n) if n.fract() == 0.0 => format!("{}", n as i64),
            FieldValue::Num(n) => n.to_string(),
        };
        match out.iter_mut().find(|(key, _)| *key == k) {
            Some((_, val)) => {
                val.push_str(", ");
                val.push_str(&v);
            }
            None => out.push((k, v)),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(id: &str) -> Row {
        Row {
            id: id.into(),
            game: "iconica".into(),
            kind: "character".into(),
            name: id.into(),
            owned: 0,
        }
    }

    /// Typing fast: "Kethra" goes to the worker, the text becomes "Kethra (" (a syntax error)
    /// before the answer comes; the late answer must neither clear the error nor show its rows.
    #[test]
    fn search_error_stays_when_an_older_query_answers_late() {
        let mut b = Browser::new(None);
        let (seq0, text0) = b.next_query().expect("the empty query runs");
        b.take_result((seq0, text0, Ok(vec![row("a"), row("b")])));
        b.query = "Kethra".into();
        let (seq, text) = b.next_query().expect("a new text runs");
        assert!(b.busy());
        b.query = "Kethra (".into();
        assert_eq!(b.next_query(), None, "a syntax error is not sent");
        assert!(b.error.is_some());
        assert!(!b.busy(), "nothing is awaited for the text shown");
        b.take_result((seq, text, Ok(vec![row("ico-kethra-voss")])));
        assert!(b.error.is_some(), "the late answer keeps the error");
        assert_eq!(b.rows().len(), 2, "and does not show its rows");

        // Mended, the text runs again and its answer is shown.
        b.query = "Kethra".into();
        let (seq, text) = b.next_query().expect("the mended text runs");
        assert!(seq > seq0 + 1);
        b.take_result((seq, text, Ok(vec![row("ico-kethra-voss")])));
        assert_eq!(b.error, None);
        assert_eq!(b.rows().len(), 1);
    }

    /// Two queries in flight: only the answer to the newer one is shown.
    #[test]
    fn an_answer_to_a_query_typed_over_is_dropped() {
        let mut b = Browser::new(None);
        b.query = "a".into();
        let old = b.next_query().unwrap();
        b.query = "ab".into();
        let new = b.next_query().unwrap();
        b.take_result((new.0, new.1, Ok(vec![row("ab")])));
        b.take_result((old.0, old.1, Ok(vec![row("a"), row("a2")])));
        assert_eq!(b.rows().len(), 1);
        assert_eq!(b.rows()[0].id, "ab");
    }
}
