//! The Play view: a person plays one side against the computer on the board. The match
//! starts from the Party screen's two parties (you are side A) or from a draft (the lowest
//! roll picks first and plays first). Your decisions are clicks on the board (a character,
//! then a target) or options in words (keys 1 to 9); the computer's decisions are shown one
//! at a time; Undo takes back your last decision; Back and Forward step through the match;
//! a match is saved to a small file and opened again (it replays exactly).

use std::path::PathBuf;
use std::sync::Arc;

use super::super::files::{Answer, Dialog, ask_for_field};
use super::draft::DraftPanel;
use super::iconica_board::{self as board, IconicaMatch, Pictures, Seat};
use super::job::{ComputerTurn, TurnStep};
use super::{Asked, MatchOptions};
use crate::catalogue::Catalogue;
use crate::games::iconica::engine::Setup;
use crate::games::record::{MatchRecord, RecordError};

/// Where the match starts from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Start {
    /// The Party screen's two parties.
    #[default]
    Parties,
    /// A draft against the computer.
    Draft,
}

/// The Play view's state.
#[derive(Default)]
pub struct PlayPanel {
    pub game: Option<IconicaMatch>,
    pub message: Option<String>,
    pub start: Start,
    pub draft: DraftPanel,
    /// Show the computer's decisions one at a time (else at once).
    pub at_once: bool,
    /// The match file of Save and Open.
    pub path: String,
    pictures: Pictures,
    /// The computer's turn.
    pub turn: ComputerTurn,
}

impl PlayPanel {
    pub fn ui(&mut self, ui: &mut egui::Ui, now: &Asked, cat: &Catalogue) {
        self.controls_ui(ui, now, cat);
        if let Some(m) = &self.message {
            ui.label(m);
        }
        if self.start == Start::Draft && self.game.is_none() {
            if let Some(d) = self.draft.ui(ui, cat, now.options, &mut self.pictures) {
                let names = d.names.clone();
                let members = d.members.clone();
                let mut m =
                    IconicaMatch::new(d.setup, names, members, now.options.clone(), d.seats);
                m.animate = !self.at_once;
                self.game = Some(m);
                self.turn.reset();
                self.message = None;
            }
            return;
        }
        let Some(g) = &mut self.game else {
            ui.add_space(8.0);
            ui.weak(format!(
                "You play side A ({}); the computer plays side B ({}, {}). The dice come from the seed: \
                 the same seed and the same answers play the same match. Or draft the parties.",
                now.names[0], now.names[1], now.options.policies[1]
            ));
            return;
        };
        g.animate = !self.at_once;
        let ctx = ui.ctx().clone();
        match self.turn.ui(ui, || g.computer_turn(&ctx)) {
            TurnStep::Done(from, inputs) => g.append(from, inputs),
            TurnStep::Failed(e) => self.message = Some(e),
            _ => {}
        }
        g.follow(ui.ctx());
        let before = g.inputs.len();
        match_ui(ui, g, cat, &mut self.pictures, "play");
        if g.inputs.len() != before {
            // A person's decision: the computer answers from the new end.
            self.turn.reset();
            ui.ctx().request_repaint();
        }
    }

    fn controls_ui(&mut self, ui: &mut egui::Ui, now: &Asked, cat: &Catalogue) {
        ui.horizontal_wrapped(|ui| {
            ui.selectable_value(
                &mut self.start,
                Start::Parties,
                "The Party screen's parties",
            )
            .on_hover_text("Play party A (you) against party B (the computer)");
            ui.selectable_value(&mut self.start, Start::Draft, "Draft")
                .on_hover_text(
                    "Both roll, the lowest picks first; picks alternate until each side has three",
                );
            ui.separator();
            let playing = self.game.as_ref().is_some_and(|g| !g.over());
            if self.start == Start::Parties {
                let start = ui
                    .add_enabled(
                        now.setup.is_ok(),
                        egui::Button::new(if playing {
                            "Start again"
                        } else {
                            "Start a match"
                        }),
                    )
                    .on_hover_text(format!(
                        "A new match with seed {}; you play side A",
                        now.options.seed
                    ))
                    .on_disabled_hover_text(now.setup.as_ref().err().map_or("", String::as_str));
                if start.clicked()
                    && let Ok(setup) = now.setup
                {
                    self.start(setup.clone(), now.options, now.names.map(str::to_string));
                }
            } else if ui
                .button("New draft")
                .on_hover_text(format!("A new draft with seed {}", now.options.seed))
                .clicked()
            {
                self.game = None;
                self.draft.begin(cat, now.options);
            }
            if playing
                && ui
                    .button("Resign")
                    .on_hover_text("Leave this match")
                    .clicked()
            {
                self.game = None;
                self.message = Some("You left the match.".into());
            }
            if let Some(g) = &mut self.game
                && ui
                    .add_enabled(g.can_undo(), egui::Button::new("Undo"))
                    .on_hover_text("Take back your last decision (the match replays from the seed)")
                    .clicked()
            {
                g.undo();
                self.turn.reset();
            }
            ui.checkbox(&mut self.at_once, "Computer's moves at once")
                .on_hover_text("Off: the computer's decisions are shown one at a time");
        });
        let record = self.game.as_ref().map(|g| move || g.record());
        let asked = file_ui(
            ui,
            &mut self.path,
            record.as_ref().map(|f| f as &dyn Fn() -> MatchRecord),
            "play",
        );
        if let Some(msg) = asked {
            match msg {
                FileAsk::Saved(m) | FileAsk::Failed(m) => self.message = Some(m),
                FileAsk::Open(path) => match open_match(cat, &path) {
                    Ok(mut m) => {
                        m.at = m.inputs.len();
                        m.animate = false;
                        self.message = Some(format!(
                            "Opened {} ({} inputs replayed).",
                            path.display(),
                            m.inputs.len()
                        ));
                        self.game = Some(m);
                        self.turn.reset();
                    }
                    Err(e) => self.message = Some(e),
                },
            }
        }
    }

    /// Starts a match of `setup`: you are side A, the computer side B with the options' policy.
    pub fn start(&mut self, setup: Arc<Setup>, o: &MatchOptions, names: [String; 2]) {
        let members = side_ids(&setup);
        let seats = [Seat::Person, Seat::Computer(o.policies[1])];
        let mut m = IconicaMatch::new(setup, names, members, o.clone(), seats);
        m.animate = !self.at_once;
        self.game = Some(m);
        self.turn.reset();
        self.message = None;
    }
}

/// Each side's member ids in party order.
pub fn side_ids(setup: &Setup) -> [Vec<String>; 2] {
    let mut ids = [Vec::new(), Vec::new()];
    for (s, c) in setup.chars.iter().enumerate() {
        ids[usize::from(setup.side[s].min(1))].push(c.id.clone());
    }
    ids
}

/// What the file row asks for.
pub enum FileAsk {
    Saved(String),
    Failed(String),
    Open(PathBuf),
}

/// Which game's match file row: its widget id and what its replayed inputs are called.
#[derive(Debug, Clone, Copy)]
pub struct Row {
    pub id: &'static str,
    /// "inputs", "decisions"...
    pub unit: &'static str,
}

/// A match a game view can save to a match file and reopen.
pub trait Recorded {
    /// Its record (docs/cards.md, "Match records").
    fn record(&self) -> MatchRecord;
    /// How many inputs reopening it replays.
    fn replayed(&self) -> usize;
}

/// A game view's match file row ([`file_ui`]) for the match `played`, with what it did
/// said: a Save's outcome as `note`, or as `message` when it failed; Open loads the record,
/// rebuilds the match with `open` and says so ("Opened P (N `unit` replayed).", or "Not
/// opened: ..." with the whole error chain). The match opened, when one was.
pub fn record_row<P: Recorded>(
    ui: &mut egui::Ui,
    path: &mut String,
    played: Option<&P>,
    Row { id, unit }: Row,
    note: &mut Option<String>,
    message: &mut Option<String>,
    open: impl FnOnce(&MatchRecord) -> Result<P, RecordError>,
) -> Option<P> {
    let record = played.map(|p| move || p.record());
    let record = record.as_ref().map(|f| f as &dyn Fn() -> MatchRecord);
    let (n, m) = match file_ui(ui, path, record, id)? {
        FileAsk::Saved(m) => (Some(m), None),
        FileAsk::Failed(m) => (None, Some(m)),
        FileAsk::Open(path) => match MatchRecord::load(&path).and_then(|r| open(&r)) {
            Ok(p) => {
                *note = Some(format!(
                    "Opened {} ({} {unit} replayed).",
                    path.display(),
                    p.replayed()
                ));
                *message = None;
                return Some(p);
            }
            Err(e) => (
                None,
                Some(format!("Not opened: {}", crate::error_chain(&e))),
            ),
        },
    };
    (*note, *message) = (n, m);
    None
}

/// The match file row: a path (typed, or from Browse), Save (the record made by `record`,
/// when there is a match) and Open.
pub fn file_ui(
    ui: &mut egui::Ui,
    path: &mut String,
    record: Option<&dyn Fn() -> MatchRecord>,
    id: &str,
) -> Option<FileAsk> {
    let mut out = None;
    ui.horizontal_wrapped(|ui| {
        let label = ui.label("Match file");
        let width = (ui.available_width() * 0.4).clamp(120.0, 260.0);
        ui.push_id(id, |ui| {
            ui.add(
                egui::TextEdit::singleline(path)
                    .desired_width(width)
                    .hint_text("a path ending in .match.toml"),
            )
            .labelled_by(label.id);
        });
        if ui
            .button("Browse…")
            .on_hover_text("Choose the file with a dialog")
            .clicked()
        {
            let dialog = Dialog::save("match.match.toml").filter("match", &["toml"]);
            match ask_for_field(ui.ctx(), &dialog) {
                Answer::Chosen(p) => {
                    if let Some(p) = p.first() {
                        *path = p.display().to_string();
                    }
                }
                Answer::Cancelled => {}
                Answer::Unavailable(why) => {
                    out = Some(FileAsk::Failed(format!(
                        "The file dialog cannot open: {why}. Type the path in the field instead."
                    )))
                }
            }
        }
        let save = ui
            .add_enabled(
                record.is_some() && !path.trim().is_empty(),
                egui::Button::new("Save match"),
            )
            .on_hover_text("Write the match (parties, rules, seed, every decision) to the file");
        if save.clicked()
            && let Some(record) = record
        {
            let p = PathBuf::from(path.trim());
            out = Some(match record().save(&p) {
                Ok(()) => FileAsk::Saved(format!("Saved to {}.", p.display())),
                Err(e) => FileAsk::Failed(format!("Not saved: {}", crate::error_chain(&e))),
            });
        }
        let open = ui
            .add_enabled(!path.trim().is_empty(), egui::Button::new("Open match"))
            .on_hover_text("Read a saved match and replay it");
        if open.clicked() {
            out = Some(FileAsk::Open(PathBuf::from(path.trim())));
        }
    });
    out
}

/// Reads and replays the match file at `path`.
pub fn open_match(cat: &Catalogue, path: &std::path::Path) -> Result<IconicaMatch, String> {
    let r =
        MatchRecord::load(path).map_err(|e| format!("Not opened: {}", crate::error_chain(&e)))?;
    IconicaMatch::from_record(cat, &r)
        .map_err(|e| format!("Not opened: {}", crate::error_chain(&e)))
}

/// A match on the board: the steps, the log on the right, the decision below, the board.
pub fn match_ui(
    ui: &mut egui::Ui,
    g: &mut IconicaMatch,
    cat: &Catalogue,
    pictures: &mut Pictures,
    id: &str,
) {
    board::steps_ui(ui, g);
    let widest = (ui.available_width() * 0.35).max(200.0);
    egui::Panel::right(format!("{id}-log"))
        .resizable(true)
        .default_size(widest.min(320.0))
        .max_size(widest)
        .show(ui, |ui| {
            ui.heading("Log");
            board::log_ui(ui, g, &format!("{id}-log-scroll"));
        });
    let mut chosen = None;
    egui::Panel::bottom(format!("{id}-options"))
        .resizable(true)
        .default_size(80.0)
        .show(ui, |ui| {
            egui::ScrollArea::vertical()
                .id_salt(format!("{id}-options-scroll"))
                .show(ui, |ui| chosen = board::options_ui(ui, g));
        });
    egui::CentralPanel::default().show(ui, |ui| {
        let ab = board::board_ui(ui, g, cat, pictures);
        chosen = chosen.or(ab);
    });
    if let Some(i) = chosen {
        g.decide(i);
        ui.ctx().request_repaint();
    }
}
