//! The Match screen's generic board: any registered game that starts from its rules alone
//! ([`crate::games::registry::Registration::generic`]) is played here with no code of its
//! own — the question, the options as buttons (keys 1-9), the log, Back and Forward, each
//! seat a person or the computer (on its own thread, with Stop), Save and Open match.

use std::sync::Arc;

use super::job::{ComputerTurn, Thinking, TurnStep};
use super::play::{Recorded, Row, record_row};
use crate::games::ai::Policy;
use crate::games::any::{self, AnyGame, Step};
use crate::games::game::Turn;
use crate::games::record::{MatchRecord, RecordError};
use crate::games::registry::{self, Registration};
use crate::games::session::Seat;

/// One match of a registered game: its start, every input, and what each set off.
#[derive(Clone)]
pub struct GenericMatch {
    pub game: &'static Registration,
    start: Arc<dyn Fn() -> Box<dyn AnyGame> + Send + Sync>,
    pub seats: Vec<Seat>,
    pub seed: u64,
    pub inputs: Vec<usize>,
    pub steps: Vec<Step>,
    /// The step shown: the position after the first `at` inputs.
    pub at: usize,
}

impl GenericMatch {
    /// A new match of `game` (which must be generic).
    pub fn new(game: &'static Registration, seats: Vec<Seat>, seed: u64) -> Option<GenericMatch> {
        let make = game.generic?;
        Some(GenericMatch {
            game,
            start: Arc::new(make),
            seats,
            seed,
            inputs: Vec::new(),
            steps: Vec::new(),
            at: 0,
        })
    }

    /// The position after the first `k` inputs.
    pub fn game_at(&self, k: usize) -> Box<dyn AnyGame> {
        let mut g = (self.start)();
        for &i in &self.inputs[..k.min(self.inputs.len())] {
            g.apply(i);
        }
        g
    }

    /// Takes input `i` at the step shown (dropping any later inputs: an undo).
    pub fn decide(&mut self, i: usize) {
        self.inputs.truncate(self.at);
        self.steps.truncate(self.at);
        let mut g = self.game_at(self.at);
        self.steps.push(g.apply(i));
        self.inputs.push(i);
        self.at = self.inputs.len();
    }

    /// Appends the computer's inputs to a match of `from` inputs (none when it moved on).
    pub fn append(&mut self, from: usize, inputs: Vec<usize>) {
        if self.inputs.len() != from || self.at != from {
            return;
        }
        let mut g = self.game_at(from);
        for i in inputs {
            self.steps.push(g.apply(i));
            self.inputs.push(i);
        }
        self.at = self.inputs.len();
    }

    /// Starts the computer's turn when the last step is shown and chance or a computer is
    /// to move.
    pub fn computer_turn(&self, ctx: &egui::Context) -> Option<Result<Thinking, String>> {
        if self.at != self.inputs.len() {
            return None;
        }
        let g = self.game_at(self.at);
        match g.turn() {
            Turn::Over => return None,
            Turn::Seat { seat, .. } if self.seats.get(seat) != Some(&Seat::Person) => {}
            Turn::Seat { .. } => return None,
            Turn::Chance(_) => {}
        }
        let (seats, seed, from) = (self.seats.clone(), self.seed, self.inputs.len());
        Some(Thinking::start(ctx, from, move |stop, done| {
            any::computer_turn(g, from, &seats, seed, stop, done)
        }))
    }

    /// Reopens a record of `game`: every input and step checked.
    pub fn from_record(r: &MatchRecord) -> Result<GenericMatch, RecordError> {
        let game = registry::of_record(r)?;
        game.generic
            .ok_or_else(|| RecordError::Options(format!("{} has its own view", game.title)))?;
        (game.replay)(r, None, &Vec::new())?;
        let seats = r
            .seats
            .iter()
            .map(|s| {
                Seat::from_record(s)
                    .ok_or_else(|| RecordError::Options(format!("unknown seat `{s}`")))
            })
            .collect::<Result<Vec<_>, _>>()?;
        let mut m = GenericMatch::new(game, seats, r.seed).expect("a generic game");
        m.append(0, r.inputs.clone());
        Ok(m)
    }
}

impl Recorded for GenericMatch {
    fn record(&self) -> MatchRecord {
        let played = any::AnyPlayed {
            game: self.game_at(self.inputs.len()),
            inputs: self.inputs.clone(),
            steps: self.steps.clone(),
            exhausted: false,
        };
        any::record(
            &played,
            self.game.engine,
            self.seed,
            self.seats.iter().map(|s| s.record_name()).collect(),
        )
    }

    fn replayed(&self) -> usize {
        self.inputs.len()
    }
}

/// The seat choices the board offers: a person, or a policy.
const CHOICES: [&str; 5] = ["person", "first", "random", "greedy", "mcts"];

/// The generic board of one registered game.
pub struct GenericPanel {
    pub game: &'static Registration,
    pub seats: Vec<Seat>,
    pub seed: u64,
    pub played: Option<GenericMatch>,
    pub turn: ComputerTurn,
    pub message: Option<String>,
    pub note: Option<String>,
    pub path: String,
}

impl GenericPanel {
    pub fn new(game: &'static Registration) -> GenericPanel {
        let seats = game.generic.map(|make| make().seats()).unwrap_or(2);
        GenericPanel {
            game,
            seats: (0..seats)
                .map(|k| {
                    if k == 0 {
                        Seat::Person
                    } else {
                        Seat::Computer(Policy::Greedy)
                    }
                })
                .collect(),
            seed: 1,
            played: None,
            turn: ComputerTurn::default(),
            message: None,
            note: None,
            path: String::new(),
        }
    }

    pub fn ui(&mut self, ui: &mut egui::Ui) {
        self.seats_ui(ui);
        let opened = record_row(
            ui,
            &mut self.path,
            self.played.as_ref(),
            Row {
                id: "generic-match",
                unit: "inputs",
            },
            &mut self.note,
            &mut self.message,
            GenericMatch::from_record,
        );
        if let Some(m) = opened {
            self.seats = m.seats.clone();
            self.seed = m.seed;
            self.played = Some(m);
            self.turn.reset();
        }
        if let Some(n) = &self.note {
            ui.label(n);
        }
        if let Some(m) = &self.message {
            ui.colored_label(ui.visuals().error_fg_color, m);
        }
        let Some(m) = self.played.as_mut() else {
            ui.weak(format!(
                "Choose who plays each seat, then New match: {} starts from its rules.",
                self.game.title
            ));
            return;
        };
        let ctx = ui.ctx().clone();
        match self.turn.ui(ui, || m.computer_turn(&ctx)) {
            TurnStep::Done(from, inputs) => m.append(from, inputs),
            TurnStep::Failed(e) => self.message = Some(e),
            _ => {}
        }
        let mut step = None;
        ui.horizontal(|ui| {
            step = super::step_buttons(ui, m.at, m.inputs.len(), "position", "step");
            ui.label(format!("Step {} of {}", m.at, m.inputs.len()));
        });
        let g = m.game_at(m.at);
        let mut pick = None;
        egui::Panel::right("generic-log")
            .resizable(true)
            .default_size(320.0)
            .show(ui, |ui| {
                let lines = m
                    .steps
                    .iter()
                    .enumerate()
                    .flat_map(|(k, s)| s.lines.iter().map(move |(_, l)| (k + 1, l.as_str())));
                super::step_log_ui(ui, "generic-log-scroll", lines, m.at);
            });
        egui::CentralPanel::default().show(ui, |ui| match g.turn() {
            Turn::Over => {
                let o = g.outcome();
                let report = any::report(g.as_ref(), &m.steps[..m.at], m.seed, &[]);
                ui.heading(report.tail.trim());
                if let Some(o) = o {
                    ui.weak(format!("Ended: {}", o.ended));
                }
            }
            Turn::Seat { seat, options } => {
                ui.label(g.question());
                if m.at == m.inputs.len() && m.seats.get(seat) == Some(&Seat::Person) {
                    let shown: Vec<usize> = (0..options).collect();
                    pick = super::option_buttons(ui, "generic-options", &shown, false, |i| {
                        g.describe(i)
                    });
                } else if m.at < m.inputs.len() {
                    ui.weak(format!("Taken: {}", g.describe(m.inputs[m.at])));
                }
            }
            Turn::Chance(_) => {
                ui.weak("Chance is drawn.");
            }
        });
        if let Some(k) = step {
            m.at = k;
        }
        if let Some(i) = pick {
            m.decide(i);
            self.turn.reset();
            ui.ctx().request_repaint();
        }
    }

    fn seats_ui(&mut self, ui: &mut egui::Ui) {
        ui.horizontal_wrapped(|ui| {
            for (k, seat) in self.seats.iter_mut().enumerate() {
                let label = ui.label(format!("Player {}", k + 1));
                let name = match seat {
                    Seat::Person => "person".to_string(),
                    Seat::Computer(p) => p.name(),
                };
                egui::ComboBox::from_id_salt(("generic-seat", k))
                    .selected_text(name)
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
                self.played = GenericMatch::new(self.game, self.seats.clone(), self.seed);
                self.turn.reset();
                self.message = None;
            }
        });
    }
}
