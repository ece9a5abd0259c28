//! The one match view every game is played in: a core [`Session`] (the match of any game)
//! with who plays each seat (a person or a policy), the seed, New match, Back and Forward
//! through the steps, Undo (to the person's last decision), Save and Open match file, the
//! computer's turn on a background job with its progress and Stop, Latest (End), and the log.
//! A game keeps only its [`Board`]: the painter of the position at the step shown, which says
//! what a person did there (an option, or a point on the table), and a status line beside the
//! steps if it has one. A game with no board of its own is played on [`OptionsBoard`]: its
//! question and its options as buttons (keys 1-9).

use super::job::{ComputerTurn, Thinking, TurnStep};
use super::play::{Recorded, Row, record_row};
use crate::app::commands::UiCommand;
use crate::catalogue::Catalogue;
use crate::games::ai::Policy;
use crate::games::any::{AnyGame, Opened};
use crate::games::game::Turn;
use crate::games::record::MatchRecord;
use crate::games::registry::{self, Registration};
use crate::games::session::{Seat, Session};

/// What a person did on the board at the step shown.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Act {
    /// Took the decision's option with this index.
    Option(usize),
    /// Took a point on the table ([`Session::point`]: Ruunara's drag or drop).
    Point(f64, f64),
}

/// The position a board paints: the session, its position at the step shown, and the seat a
/// person decides for there (none when the match is over, chance is drawn, or a computer
/// decides); the catalogue, for a board that draws cards' pictures.
pub struct Shown<'a> {
    pub session: &'a Session,
    pub game: &'a dyn AnyGame,
    pub person: Option<usize>,
    pub cat: &'a Catalogue,
}

impl Shown<'_> {
    /// Whether the step shown is the latest.
    pub fn latest(&self) -> bool {
        self.session.at >= self.session.len()
    }

    /// The input taken at the step shown, when a later step exists.
    pub fn taken(&self) -> Option<usize> {
        self.session.inputs().get(self.session.at).copied()
    }
}

/// The start of a new match: the position opened and the options its record keeps.
pub struct Start {
    pub opened: Opened,
    pub options: toml::Table,
}

/// What a game keeps of the match view: how a new match starts, and its board painter.
pub trait Board {
    /// The start of a new match of `players` seats dealt with `seed` (cards from the catalogue `cat`).
    fn start(&self, players: usize, seed: u64, cat: &Catalogue) -> Result<Start, String>;

    /// Paints the position shown in the room left of the log (a board places its own
    /// panels), and returns what a person did there.
    fn ui(&mut self, ui: &mut egui::Ui, shown: &Shown<'_>) -> Option<Act>;

    /// The step shown changed, or the match did: forget what was half chosen.
    fn reset(&mut self) {}

    /// The computer's turn appended inputs from input `from` on: the step to show (the
    /// latest; a board that shows them one at a time returns `from` and walks on with
    /// [`Board::follow`]).
    fn appended(&mut self, _from: usize, session: &Session) -> usize {
        session.len()
    }

    /// Each frame before the board is painted: the step the board moves the view on to by
    /// itself, if any (the computer's decisions shown one at a time).
    fn follow(&mut self, _ctx: &egui::Context, _session: &Session) -> Option<usize> {
        None
    }

    /// The name of seat `seat` in the seats row.
    fn seat_name(&self, seat: usize) -> String {
        format!("Player {}", seat + 1)
    }

    /// A short line beside the steps about the position shown (Arcadia's Day), if any.
    fn status(&self, _shown: &Shown<'_>) -> Option<String> {
        None
    }

    /// A match was opened from a file with these record options: keep what a new match is
    /// played with from them (as the view keeps its seats and seed).
    fn opened(&mut self, _options: &toml::Table) {}
}

/// The seat choices the view offers: a person, or a policy.
const CHOICES: [&str; 5] = ["person", "first", "random", "greedy", "mcts"];

/// A match of one game in the shared view.
pub struct SessionView<B> {
    pub game: &'static Registration,
    /// The widgets' ids start with it.
    pub id: &'static str,
    /// How many seats the next match has, and the fewest and most it may.
    pub players: usize,
    pub fewest: usize,
    pub most: usize,
    /// Who plays each seat of the next match (the first `players`).
    pub seats: Vec<Seat>,
    pub seed: u64,
    /// The match, once one began.
    pub session: Option<Session>,
    /// The computer's turn.
    pub turn: ComputerTurn,
    /// The game's board painter.
    pub board: B,
    /// What went wrong last.
    pub message: Option<String>,
    /// What the match's cards say that the engine does not play (`games::gaps`), said
    /// above the board while the match is shown.
    pub gaps: Vec<String>,
    /// What the last Save or Open did, when it went well.
    pub note: Option<String>,
    /// The match file of Save and Open.
    pub path: String,
    /// The log panel's starting width.
    pub log_width: f32,
}

impl Recorded for Session {
    fn record(&self) -> MatchRecord {
        Session::record(self)
    }
    fn replayed(&self) -> usize {
        self.len()
    }
}

impl<B: Board> SessionView<B> {
    /// The view of `game` with `board`, seats from `fewest` to `most` (`players` at first):
    /// player 1 a person, the others the computer (greedy).
    pub fn new(
        game: &'static Registration,
        id: &'static str,
        board: B,
        (fewest, players, most): (usize, usize, usize),
    ) -> SessionView<B> {
        SessionView {
            game,
            id,
            players,
            fewest,
            most,
            seats: (0..most)
                .map(|k| {
                    if k == 0 {
                        Seat::Person
                    } else {
                        Seat::Computer(Policy::Greedy)
                    }
                })
                .collect(),
            seed: 1,
            session: None,
            turn: ComputerTurn::default(),
            board,
            message: None,
            gaps: Vec::new(),
            note: None,
            path: String::new(),
            log_width: 320.0,
        }
    }

    /// Starts a new match with the seats and seed set.
    pub fn new_match(&mut self, cat: &Catalogue) {
        let players = self.players.clamp(self.fewest, self.most);
        match self.board.start(players, self.seed, cat) {
            Ok(start) => {
                self.gaps = gap_lines(self.game, &start.options);
                self.session = Some(Session::opened(
                    start.opened,
                    self.game.engine,
                    self.seats[..players].to_vec(),
                    self.seed,
                    start.options,
                ));
                self.message = None;
            }
            Err(e) => self.message = Some(format!("No match can start: {e}")),
        }
        self.turn.reset();
        self.board.reset();
    }

    /// One frame of the view: the seats row, the match file row, the computer's turn, the
    /// steps with Undo, the log, and the board (what a person did there taken).
    pub fn ui(&mut self, ui: &mut egui::Ui, cat: &Catalogue) {
        self.seats_ui(ui, cat);
        self.file_ui(ui, cat);
        if let Some(n) = &self.note {
            ui.label(n);
        }
        if let Some(m) = &self.message {
            ui.colored_label(ui.visuals().error_fg_color, m);
        }
        if self.session.is_some() && !self.gaps.is_empty() {
            gaps_ui(ui, self.id, &self.gaps);
        }
        let Some(s) = self.session.as_mut() else {
            ui.weak(format!(
                "Choose who plays each seat, then New match: a match of {}.",
                self.game.title
            ));
            return;
        };
        let ctx = ui.ctx().clone();
        let start = || {
            s.computer_work().map(|work| {
                Thinking::start(&ctx, work.from(), move |stop, done| work.run(stop, done))
            })
        };
        match self.turn.ui(ui, start) {
            TurnStep::Done(from, inputs) => {
                let appended = s.append(from, inputs);
                self.board.reset();
                if appended {
                    // The board says which step to show (the latest, or the computer's
                    // first move for a board that walks through them).
                    s.at = self.board.appended(from, s).min(s.len());
                }
            }
            TurnStep::Failed(e) => self.message = Some(e),
            _ => {}
        }
        if let Some(k) = self.board.follow(ui.ctx(), s) {
            s.at = k.min(s.len());
        }
        let g = s.game_at(s.at);
        let person = match g.turn() {
            Turn::Seat { seat, .. } if s.seats.get(seat) == Some(&Seat::Person) => Some(seat),
            _ => None,
        };
        let shown = Shown {
            session: s,
            game: g.as_ref(),
            person,
            cat,
        };
        let mut step = None;
        let mut undo = false;
        ui.horizontal(|ui| {
            step = super::step_buttons(ui, s.at, s.len(), "position", "step");
            let latest = ui
                .add_enabled(s.at < s.len(), egui::Button::new("Latest"))
                .on_hover_text(UiCommand::Latest.hover(ui.ctx()));
            if (latest.clicked() || UiCommand::Latest.pressed(ui)) && s.at < s.len() {
                step = Some(s.len());
            }
            ui.label(format!("Step {} of {}", s.at, s.len()));
            if let Some(status) = self.board.status(&shown) {
                ui.label(status);
            }
            undo = ui
                .add_enabled(
                    (0..s.len()).any(|k| {
                        s.mover(k)
                            .is_some_and(|m| s.seats.get(m) == Some(&Seat::Person))
                    }),
                    egui::Button::new("Undo"),
                )
                .on_hover_text("Take back the last decision a person took, and what followed it")
                .clicked();
        });
        egui::Panel::right(format!("{}-log", self.id))
            .resizable(true)
            .default_size(self.log_width)
            .show(ui, |ui| {
                let lines = s.lines().map(|(k, (_, l))| (k, l.as_str()));
                super::step_log_ui(ui, &format!("{}-log-scroll", self.id), lines, s.at);
            });
        let act = self.board.ui(ui, &shown);
        if let Some(k) = step {
            s.at = k;
            self.board.reset();
        }
        let changed = if undo {
            s.undo()
        } else {
            match act {
                Some(act) => {
                    let done = match act {
                        Act::Option(i) => s.decide(i),
                        Act::Point(x, y) => s.point(x, y).map(|_| ()),
                    };
                    match done {
                        Ok(()) => {
                            self.message = None;
                            true
                        }
                        Err(e) => {
                            self.message = Some(format!("Not taken: {e}."));
                            false
                        }
                    }
                }
                None => false,
            }
        };
        if changed {
            // A person's decision (or an undo) lets the computer play on from the new end; a
            // turn still thinking about the old end is dropped.
            self.turn.reset();
            self.board.reset();
            ui.ctx().request_repaint();
        }
    }

    fn seats_ui(&mut self, ui: &mut egui::Ui, cat: &Catalogue) {
        ui.horizontal_wrapped(|ui| {
            if self.fewest < self.most {
                let label = ui.label("Players");
                ui.add(egui::DragValue::new(&mut self.players).range(self.fewest..=self.most))
                    .labelled_by(label.id);
            }
            let players = self.players.clamp(self.fewest, self.most);
            for (k, seat) in self.seats.iter_mut().enumerate().take(players) {
                let label = ui.label(self.board.seat_name(k));
                egui::ComboBox::from_id_salt((self.id, "seat", k))
                    .selected_text(seat.record_name())
                    .show_ui(ui, |ui| {
                        for c in CHOICES {
                            let s = Seat::from_record(c).expect("a known seat");
                            ui.selectable_value(seat, s, c);
                        }
                    })
                    .response
                    .labelled_by(label.id);
            }
            let label = ui.label("Seed");
            ui.add(egui::DragValue::new(&mut self.seed))
                .labelled_by(label.id);
            if ui
                .button("New match")
                .on_hover_text(format!(
                    "A new match of {} with these seats and seed",
                    self.game.title
                ))
                .clicked()
            {
                self.new_match(cat);
            }
        });
    }

    /// The match file row: Save the match, Open a saved one (it replays, every step checked).
    fn file_ui(&mut self, ui: &mut egui::Ui, cat: &Catalogue) {
        let game = self.game.name;
        let opened = record_row(
            ui,
            &mut self.path,
            self.session.as_ref(),
            Row {
                id: self.id,
                unit: "inputs",
            },
            &mut self.note,
            &mut self.message,
            |r| {
                r.expect_game(game)?;
                registry::session(r, cat)
            },
        );
        if let Some(s) = opened {
            self.players = s.seats.len().clamp(self.fewest, self.most);
            for (k, seat) in s.seats.iter().enumerate().take(self.seats.len()) {
                self.seats[k] = *seat;
            }
            self.seed = s.seed;
            self.board.opened(&s.options);
            self.gaps = gap_lines(self.game, &s.options);
            self.session = Some(s);
            self.turn.reset();
            self.board.reset();
        }
    }
}

/// What the cards a match of `game` keeps (its record's `options.cards`, read by
/// [`crate::games::build::cards_of`]) say that the engine does not play, a line each (card
/// text supersedes the rules, so a text shown and not played is said).
pub fn gap_lines(game: &Registration, options: &toml::Table) -> Vec<String> {
    let cards = crate::cards::Game::parse(game.name)
        .and_then(|g| crate::games::build::cards_of(options, g).ok())
        .unwrap_or_default();
    crate::games::gaps::of_cards(&cards)
        .iter()
        .map(|g| g.line())
        .collect()
}

/// The match's unplayed texts: one line saying how many, opened for the list.
fn gaps_ui(ui: &mut egui::Ui, id: &str, gaps: &[String]) {
    let title = format!(
        "{} in this match {} not played as printed (the engine plays the rest)",
        crate::count(gaps.len() as u64, "card text", "card texts"),
        if gaps.len() == 1 { "is" } else { "are" }
    );
    egui::CollapsingHeader::new(egui::RichText::new(title).color(ui.visuals().warn_fg_color))
        .id_salt((id, "gaps"))
        .show(ui, |ui| {
            for g in gaps {
                ui.label(g);
            }
        });
}

/// The board of a game with none of its own: the question and the options as buttons (keys
/// 1-9), the result at the end.
pub struct OptionsBoard {
    pub game: &'static Registration,
}

impl Board for OptionsBoard {
    fn start(&self, _players: usize, _seed: u64, _: &Catalogue) -> Result<Start, String> {
        let make = self
            .game
            .generic
            .ok_or_else(|| format!("{} does not start from its rules alone", self.game.title))?;
        Ok(Start {
            opened: Opened {
                game: make(),
                opening: Default::default(),
            },
            options: toml::Table::new(),
        })
    }

    fn ui(&mut self, ui: &mut egui::Ui, shown: &Shown<'_>) -> Option<Act> {
        let mut pick = None;
        egui::CentralPanel::default().show(ui, |ui| {
            pick = decision_ui(ui, shown, "generic-options");
        });
        pick.map(Act::Option)
    }
}

/// The decision at the step shown in words: the question and, when a person decides, the
/// options as buttons (keys 1-9); at the end, the result. The option taken, if one was.
pub fn decision_ui(ui: &mut egui::Ui, shown: &Shown<'_>, id: &str) -> Option<usize> {
    let g = shown.game;
    match g.turn() {
        Turn::Over => {
            let report = shown.session.report();
            ui.heading(report.tail.trim());
            if let Some(o) = g.outcome() {
                ui.weak(format!("Ended: {}", o.ended));
            }
            None
        }
        Turn::Seat { options, .. } => {
            ui.label(g.question());
            if let Some(i) = shown.taken() {
                ui.weak(format!("Taken: {}", g.describe(i)));
            }
            shown.person?;
            let all: Vec<usize> = (0..options).collect();
            super::option_buttons(ui, id, &all, false, |i| g.describe(i))
        }
        Turn::Chance(_) => {
            ui.weak("Chance is drawn.");
            None
        }
    }
}
