//! The Play view: Iconica on the shared match view ([`super::session_view`]) with its board
//! ([`super::iconica_board`]). A match starts from the Party screen's two parties with the
//! Match screen's rules (player 1 plays party A), or from a draft (the lowest roll picks
//! first and plays first). The seats (a person or a policy), the seed, New match, Back and
//! Forward, Undo, Save and Open, the computer's turn with Stop and the log are the session
//! view's; this file keeps where the match starts from, the draft, and the match file row
//! every game's view shares ([`record_row`]).

use std::path::PathBuf;
use std::sync::Arc;

use super::super::files::{Answer, Dialog, ask_for_field};
use super::Asked;
use super::draft::DraftPanel;
use super::iconica_board::{IconicaBoard, Pictures};
use super::session_view::SessionView;
use crate::catalogue::Catalogue;
use crate::games::ai::Policy;
use crate::games::iconica::engine::Setup;
use crate::games::record::{MatchRecord, RecordError};
use crate::games::session::Seat;

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
pub struct PlayPanel {
    pub start: Start,
    pub draft: DraftPanel,
    /// A draft is under way (shown instead of the match).
    pub drafting: bool,
    /// The parties the last draft gave, and their names.
    pub drafted: Option<(Arc<Setup>, Vec<String>)>,
    /// The match, on the shared view.
    pub view: SessionView<IconicaBoard>,
    /// The draft's card pictures.
    pictures: Pictures,
}

impl Default for PlayPanel {
    fn default() -> Self {
        PlayPanel {
            start: Start::Parties,
            draft: DraftPanel::default(),
            drafting: false,
            drafted: None,
            view: SessionView::new(
                &crate::games::iconica::REGISTRATION,
                "iconica-play",
                IconicaBoard::default(),
                (2, 2, 2),
            ),
            pictures: Pictures::default(),
        }
    }
}

impl PlayPanel {
    pub fn ui(&mut self, ui: &mut egui::Ui, now: &Asked, cat: &Catalogue) {
        self.controls_ui(ui, now, cat);
        self.view.board.next = match self.start {
            Start::Parties => now
                .setup
                .clone()
                .map(|s| (s, now.names.map(str::to_string).to_vec())),
            Start::Draft => self
                .drafted
                .clone()
                .ok_or_else(|| "Draft the parties first (New draft).".to_string()),
        };
        if self.start == Start::Draft && self.drafting {
            let drafted = self
                .draft
                .ui(ui, cat, now.options.rules(), &mut self.pictures);
            if let Some(d) = drafted {
                self.view.players = 2;
                self.view.seats[..2].copy_from_slice(&d.seats);
                self.drafted = Some((d.setup.clone(), d.names.to_vec()));
                self.view.board.next = Ok((d.setup, d.names.to_vec()));
                self.view.new_match(cat);
                self.drafting = false;
            }
            return;
        }
        if self.view.session.is_none() {
            ui.weak(match self.start {
                Start::Parties => format!(
                    "Player 1 plays party A ({}), player 2 party B ({}), with the rules on the \
                     left. The dice come from the seed: the same seed and the same answers play \
                     the same match.",
                    now.names[0], now.names[1]
                ),
                Start::Draft => "New draft: you and the computer roll a die; the lowest picks \
                                 first and plays first."
                    .into(),
            });
        }
        self.view.ui(ui, cat);
    }

    /// The policy the computer drafts with: the first computer seat's (greedy if none).
    fn draft_policy(&self) -> Policy {
        self.view.seats[..2]
            .iter()
            .find_map(|s| match s {
                Seat::Computer(p) => Some(*p),
                Seat::Person => None,
            })
            .unwrap_or(Policy::Greedy)
    }

    fn controls_ui(&mut self, ui: &mut egui::Ui, now: &Asked, cat: &Catalogue) {
        ui.horizontal_wrapped(|ui| {
            ui.selectable_value(
                &mut self.start,
                Start::Parties,
                "The Party screen's parties",
            )
            .on_hover_text("New match plays party A (player 1) against party B (player 2)");
            ui.selectable_value(&mut self.start, Start::Draft, "Draft")
                .on_hover_text(
                    "Both roll, the lowest picks first; picks alternate until each side has three",
                );
            if self.start == Start::Draft
                && ui
                    .button("New draft")
                    .on_hover_text(format!("A new draft with seed {}", self.view.seed))
                    .clicked()
            {
                self.draft.begin(cat, self.view.seed, self.draft_policy());
                self.drafting = true;
            }
            ui.separator();
            ui.checkbox(&mut self.view.board.at_once, "Computer's moves at once")
                .on_hover_text("Off: the computer's decisions are shown one at a time");
            if let Err(why) = now.setup
                && self.start == Start::Parties
            {
                ui.colored_label(ui.visuals().error_fg_color, why);
            }
        });
    }
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
