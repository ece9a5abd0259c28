//! Arcadia on the Match screen: a quest setup (the Setup screen's, or a file opened into it)
//! played through the `Game` interface, each side a person or a policy. Every input is
//! recorded (decisions and dice; a die at input k comes from the seed and k), so the position
//! at step k is the start with the first k inputs replayed: Back and Forward walk the match
//! decision by decision with the step's log line highlighted, Undo drops the person's last
//! decision, and a person deciding at an earlier step plays on from there. The board is drawn
//! with the painter: the league map (side features, Base Camps, treasures, waylays lying,
//! both characters), the leagues still to lay, each character's merits, flaws, quests and
//! waylays in hand, and the dice of the Day's trials and tests.

use crate::app::commands::UiCommand;
use std::sync::Arc;

use super::job::{ComputerTurn, Thinking, TurnStep};
use super::sim_view::{Ask, SimView, Words};
use crate::games::ai::Policy;
use crate::games::arcadia::character::CharacterFile;
use crate::games::arcadia::engine::state::{FOUND, IN_HAND};
use crate::games::arcadia::engine::{ArcadiaGame, Event, Match, Opt, Phase, RngDice, State};
use crate::games::arcadia::matchfile;
use crate::games::arcadia::setup::SetupFile;
use crate::games::dice::{Dice, derive_seed, game_seed};
use crate::games::game::{Ending, Game, Turn};
use crate::games::record::{Inputs, MatchRecord, RecordError, checked_replay};
use crate::games::session;
use crate::sim::play_seeded;

use super::super::docs::{Slot, TomlDoc};
use super::super::files;

pub use super::Seat;

/// A player's colour on the board.
pub fn player_color(p: u8) -> egui::Color32 {
    if p == 0 {
        egui::Color32::from_rgb(60, 120, 220)
    } else {
        egui::Color32::from_rgb(215, 105, 40)
    }
}

/// Compiles the quest setup `setup`, its characters read from the catalogue's saved
/// characters (as the Setup screen finds them).
pub fn compile(
    cat: &crate::catalogue::Catalogue,
    setup: &SetupFile,
    turn_limit: u32,
) -> Result<Match, String> {
    let characters = characters_of(cat, setup)?;
    Match::new(setup, &characters, cat, turn_limit).map_err(|e| e.to_string())
}

/// The characters of quest setup `setup`, read from the catalogue's saved characters.
pub fn characters_of(
    cat: &crate::catalogue::Catalogue,
    setup: &SetupFile,
) -> Result<Vec<CharacterFile>, String> {
    let mut characters = Vec::new();
    for (i, p) in setup.players.iter().enumerate() {
        let c = files::saved_character(cat, &p.character)
            .and_then(|t| <CharacterFile as TomlDoc>::from_toml(&t).ok())
            .ok_or_else(|| {
                if p.character.is_empty() {
                    format!("player {} has no character", i + 1)
                } else {
                    format!("player {}: no saved character `{}`", i + 1, p.character)
                }
            })?;
        characters.push(c);
    }
    Ok(characters)
}

/// What a click on the board points at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    /// A league, laid or still to lay.
    League(u8),
    /// A free square a league may be laid on (x, y).
    Square(i8, i8),
    /// Merit `1` of player `0`.
    Merit(u8, u8),
    /// Flaw `1` of player `0`.
    Flaw(u8, u8),
}

/// What option `o` of the decision at `st` points at on the board.
pub fn target_of(m: &Match, st: &State, o: Opt) -> Option<Target> {
    let p = st.decider();
    let loser = match st.phase {
        Phase::LoseMerit { who, .. } => who,
        Phase::Spoils { winner } => 1 - winner,
        _ => p,
    };
    let at = |who: u8| st.heroes[usize::from(who)].at;
    Some(match o {
        Opt::Lay(l) | Opt::Hide(l) | Opt::Place(l) => Target::League(l),
        Opt::At(x, y) => Target::Square(x, y),
        Opt::Go(d) => Target::League(st.neighbour(m, at(p), d)?),
        Opt::Stay => Target::League(at(p)),
        Opt::Push(d) => Target::League(st.neighbour(m, at(loser), d)?),
        Opt::Change(_, i) | Opt::Bonus(i) | Opt::Retest(i) => Target::Merit(p, i),
        Opt::Exhaust(i) | Opt::Discard(i) => Target::Merit(loser, i),
        Opt::Penalty(f) => Target::Flaw(1 - p, f),
        _ => return None,
    })
}

/// One match and its recorded inputs, with the position and log lines of every step.
pub struct Played {
    pub m: Arc<Match>,
    /// What the match was compiled from: the quest setup, its characters and every card
    /// looked up (for its record).
    pub source: Arc<matchfile::Source>,
    pub seats: [Seat; 2],
    pub seed: u64,
    /// Every input so far (options taken and dice, a die as `face - 1`), in order.
    pub inputs: Vec<usize>,
    /// The step shown: the position after the first `at` inputs.
    pub at: usize,
    /// The position after each number of inputs (`states[k]`: after `k`).
    states: Vec<State>,
    /// The log in words, each line with its step (0: before any input).
    lines: Vec<(usize, String)>,
    /// The events of each step (for the dice).
    events: Vec<(usize, Event)>,
    /// The input of the person's last decision (where Undo returns to).
    last_person: Option<usize>,
}

impl super::play::Recorded for Played {
    /// The record of the match (docs/cards.md, "Match records"): the quest setup and its
    /// characters as tables, so the record is played again without the Setup screen.
    fn record(&self) -> MatchRecord {
        MatchRecord::of_inputs(
            &ArcadiaGame::new(&self.m),
            matchfile::ENGINE,
            self.seed,
            self.seats.iter().map(|s| s.record_name()).collect(),
            Inputs::of(self.inputs.clone()),
            matchfile::options(&self.source),
        )
    }

    fn replayed(&self) -> usize {
        self.inputs.len()
    }
}

impl Played {
    /// A new match of `m`.
    pub fn new(
        m: Arc<Match>,
        source: Arc<matchfile::Source>,
        seats: [Seat; 2],
        seed: u64,
    ) -> Played {
        let mut p = Played {
            m,
            source,
            seats,
            seed,
            inputs: Vec::new(),
            at: 0,
            states: Vec::new(),
            lines: Vec::new(),
            events: Vec::new(),
            last_person: None,
        };
        p.relog();
        p
    }

    /// Replays every input, keeping the position and log of each step.
    fn relog(&mut self) {
        let mut log = Vec::new();
        let mut g = ArcadiaGame::start(&self.m, &mut log);
        self.states = vec![g.st];
        self.lines = log.iter().map(|e| (0, g.event_text(e))).collect();
        self.events = log.into_iter().map(|e| (0, e)).collect();
        for (k, &i) in self.inputs.iter().enumerate() {
            let mut ev = Vec::new();
            g.apply_logged(i, &mut ev);
            self.lines
                .extend(ev.iter().map(|e| (k + 1, g.event_text(e))));
            self.events.extend(ev.into_iter().map(|e| (k + 1, e)));
            self.states.push(g.st);
        }
        self.at = self.at.min(self.inputs.len());
        self.last_person = (0..self.inputs.len()).rev().find(|&k| {
            matches!(self.game_at(k).turn(), Turn::Seat { seat, .. }
                if self.seats[seat.min(1)] == Seat::Person)
        });
    }

    /// The position at step `k` (clamped to the last).
    pub fn game_at(&self, k: usize) -> ArcadiaGame<'_> {
        let st = self.states[k.min(self.states.len() - 1)];
        ArcadiaGame { m: &self.m, st }
    }

    /// The position at the step shown.
    pub fn game(&self) -> ArcadiaGame<'_> {
        self.game_at(self.at)
    }

    /// The state at the step shown.
    pub fn state(&self) -> State {
        self.game().st
    }

    /// The log in words, each line with its step.
    pub fn log(&self) -> &[(usize, String)] {
        &self.lines
    }

    /// Whether the match is over at the last input.
    pub fn over(&self) -> bool {
        matches!(self.game_at(self.inputs.len()).turn(), Turn::Over)
    }

    /// Takes input `i` at the step shown (dropping any later inputs).
    pub fn decide(&mut self, i: usize) {
        self.push_input(i);
        self.relog();
    }

    fn push_input(&mut self, i: usize) {
        self.inputs.truncate(self.at);
        self.states.truncate(self.at + 1);
        self.inputs.push(i);
        self.at = self.inputs.len();
    }

    /// The die rolled at input `k`: from the seed and `k` alone, so a replay rolls the same.
    pub fn die(seed: u64, k: usize) -> usize {
        let face = RngDice::new(derive_seed(seed, 7_000_000 + k as u64))
            .die()
            .unwrap_or(1);
        usize::from(face.clamp(1, 6) - 1)
    }

    /// Starts the computer's turn when the last step is shown and a computer is to move (or
    /// chance): the dice of each step (`Played::die`) and the computer's seats by their
    /// policies on a background job, until a person must decide or the match is over.
    pub fn computer_turn(&self, ctx: &egui::Context) -> Option<Result<Thinking, String>> {
        if self.at != self.inputs.len() {
            return None;
        }
        let from = self.inputs.len();
        let st = self.game_at(from).st;
        match (ArcadiaGame { m: &self.m, st }).turn() {
            Turn::Over => return None,
            Turn::Seat { seat, .. } if self.seats[seat.min(1)] == Seat::Person => return None,
            _ => {}
        }
        let m = self.m.clone();
        let seats: Vec<session::Seat> = self.seats.iter().map(|s| s.typed()).collect();
        let seed = self.seed;
        Some(Thinking::start(ctx, from, move |stop, done| {
            let g = ArcadiaGame { m: &m, st };
            // The match's own limit on Days keeps a turn finite.
            session::computer_turn(
                g,
                from,
                &seats,
                seed,
                |_, k, _| Some(Played::die(seed, k)),
                stop,
                done,
            )
        }))
    }

    /// Appends the computer's inputs to a match of `from` inputs (none when the match has
    /// moved on since): the first new step, if any.
    pub fn append(&mut self, from: usize, inputs: Vec<usize>) -> Option<usize> {
        if self.inputs.len() != from || self.at != from || inputs.is_empty() {
            return None;
        }
        self.inputs.extend(inputs);
        self.at = self.inputs.len();
        self.relog();
        Some(from + 1)
    }

    /// Drops the person's last decision and everything after it: the position before it.
    pub fn undo(&mut self) -> bool {
        match self.last_person {
            Some(k) => {
                self.inputs.truncate(k);
                self.at = k;
                self.relog();
                true
            }
            None => false,
        }
    }

    /// Whether the person has decided (Undo has a decision to take back).
    pub fn can_undo(&self) -> bool {
        self.last_person.is_some()
    }

    /// The dice events of the Day shown up to the step shown, the newest last.
    fn dice_events(&self) -> Vec<&Event> {
        let upto: Vec<&(usize, Event)> =
            self.events.iter().filter(|(k, _)| *k <= self.at).collect();
        let from = upto
            .iter()
            .rposition(|(_, e)| matches!(e, Event::Day { .. }))
            .unwrap_or(0);
        upto[from..]
            .iter()
            .map(|(_, e)| e)
            .filter(|e| {
                matches!(
                    e,
                    Event::Trial { .. } | Event::TestRoll { .. } | Event::FirstRoll { .. }
                )
            })
            .collect()
    }
}

impl Played {
    /// Reopens a recorded match: its setup compiled with the record's characters (the cards
    /// from catalogue `cat`), every input checked and replayed, shown at its last step.
    pub fn from_record(
        cat: &crate::catalogue::Catalogue,
        r: &MatchRecord,
    ) -> Result<Played, RecordError> {
        r.expect_game("arcadia")?;
        let bad = |m: String| RecordError::Options(m);
        let seats: Vec<Seat> = r
            .seats
            .iter()
            .map(|name| {
                Seat::from_record(name).ok_or_else(|| bad(format!("unknown seat `{name}`")))
            })
            .collect::<Result<_, _>>()?;
        let seats: [Seat; 2] = seats
            .try_into()
            .map_err(|s: Vec<Seat>| bad(format!("{} seats; an Arcadia match has 2", s.len())))?;
        r.expect_engine(matchfile::ENGINE)?;
        let src = matchfile::source_of(&r.options)?;
        // A format-1 record keeps no cards: they come from the catalogue, and are kept now.
        let (m, src) = if r.options.contains_key("cards") {
            let m = matchfile::compile_record(&r.options, cat)?;
            (m, src)
        } else {
            matchfile::compile(&src.setup, &src.characters, cat, src.day_limit)
                .map_err(RecordError::Options)?
        };
        checked_replay(&ArcadiaGame::new(&m), &r.inputs)?;
        let mut p = Played::new(Arc::new(m), Arc::new(src), seats, r.seed);
        p.inputs = r.inputs.clone();
        p.at = p.inputs.len();
        p.relog();
        Ok(p)
    }
}

/// The Arcadia view of the Match screen.
pub struct ArcadiaPanel {
    /// Simulate many matches (else play one).
    pub simulate: bool,
    pub seats: [Seat; 2],
    pub seed: u64,
    /// A match reaching this many Days is a draw.
    pub turn_limit: u32,
    /// Show the computer's moves one step at a time (Forward), else jump to the person's turn.
    pub follow: bool,
    pub played: Option<Played>,
    /// The board target a person clicked: only the options there are listed.
    pub target: Option<Target>,
    /// Where each clickable thing of the board was drawn in the last frame.
    pub spots: Vec<(Target, egui::Rect)>,
    pub message: Option<String>,
    /// What the last Save or Open did (not an error).
    pub note: Option<String>,
    /// The match file's path (Save match, Open match).
    pub path: String,
    /// A file is being opened into the Setup screen (the setup before it): start a match
    /// from it once the Setup screen holds another setup.
    start_next: Option<String>,
    /// The shared Simulate view: its games, threads, run and figures.
    pub sim: SimView,
    /// The computer's turn.
    pub turn: ComputerTurn,
}

impl Default for ArcadiaPanel {
    fn default() -> Self {
        ArcadiaPanel {
            simulate: false,
            seats: [Seat::Person, Seat::Computer("greedy")],
            seed: 1,
            turn_limit: 500,
            follow: true,
            played: None,
            target: None,
            spots: Vec::new(),
            message: None,
            note: None,
            path: String::new(),
            start_next: None,
            sim: SimView::new("arcadia-sim", 200),
            turn: ComputerTurn::default(),
        }
    }
}

fn seat_label(s: Seat) -> String {
    match s {
        Seat::Person => "a person".into(),
        Seat::Computer(p) => format!("the computer ({p})"),
    }
}

impl ArcadiaPanel {
    pub fn ui(&mut self, ui: &mut egui::Ui, env: &mut super::super::Env) {
        ui.horizontal(|ui| {
            ui.selectable_value(&mut self.simulate, false, "Play one match")
                .on_hover_text("Play one match, step through it, take a person's side");
            ui.selectable_value(&mut self.simulate, true, "Simulate")
                .on_hover_text(
                    "Play many seeded matches, computer against computer, and read the win rates",
                );
        });
        if let Some(before) = self.start_next.take() {
            if env.docs.setup.to_toml() != before {
                self.new_match(env);
            } else if files::path_field_open(ui.ctx()) {
                // The in-app path field stands in for the system dialog: wait for it.
                self.start_next = Some(before);
            }
        }
        self.seats_ui(ui, env);
        if self.simulate {
            if let Some(m) = &self.message {
                ui.colored_label(ui.visuals().error_fg_color, m);
            }
            self.sim_ui(ui, env);
            return;
        }
        self.file_ui(ui, env);
        if let Some(m) = &self.message {
            ui.colored_label(ui.visuals().error_fg_color, m);
        }
        if let Some(n) = &self.note {
            ui.label(n);
        }
        let Some(p) = self.played.as_mut() else {
            ui.weak("Choose who plays each side, then New match: the Setup screen's quest setup is played (leagues brought are laid on the board).");
            return;
        };
        let ctx = ui.ctx().clone();
        match self.turn.ui(ui, || p.computer_turn(&ctx)) {
            TurnStep::Done(from, inputs) => {
                if let Some(first) = p.append(from, inputs) {
                    if self.follow {
                        p.at = first;
                    }
                    self.target = None;
                }
            }
            TurnStep::Failed(e) => self.message = Some(e),
            _ => {}
        }
        let p = self.played.as_ref().expect("set above");
        let game = p.game();
        let mut pick = None;
        let mut step = None;
        let mut undo = false;
        ui.horizontal(|ui| {
            step = super::step_buttons(ui, p.at, p.inputs.len(), "position", "step");
            let last = ui
                .add_enabled(p.at < p.inputs.len(), egui::Button::new("Latest"))
                .on_hover_text(UiCommand::Latest.hover(ui.ctx()));
            if last.clicked() || UiCommand::Latest.pressed(ui) {
                step = Some(p.inputs.len());
            }
            if ui
                .add_enabled(p.can_undo(), egui::Button::new("Undo"))
                .on_hover_text("Take back your last decision (the match replays from the seed)")
                .clicked()
            {
                undo = true;
            }
            ui.label(format!("Step {} of {}", p.at, p.inputs.len()));
            ui.label(format!("Day {}", game.st.day));
        });
        let person = matches!(game.turn(),
            Turn::Seat { seat, .. } if p.seats[seat.min(1)] == Seat::Person);
        let lit: Vec<Target> = if person {
            game.options()
                .as_slice()
                .iter()
                .filter_map(|o| target_of(&p.m, &game.st, *o))
                .collect()
        } else {
            Vec::new()
        };
        let log_w = (ui.available_width() * 0.25).clamp(200.0, 340.0);
        egui::Panel::right("arcadia-log")
            .resizable(true)
            .default_size(log_w)
            .show(ui, |ui| log_ui(ui, p));
        egui::Panel::bottom("arcadia-options")
            .resizable(true)
            .default_size(130.0)
            .show(ui, |ui| {
                pick = options_ui(ui, &game, p, self.target);
            });
        let mut clicked = None;
        egui::CentralPanel::default().show(ui, |ui| {
            let (spots, c) = board_ui(ui, p, &game, &lit, self.target);
            self.spots = spots;
            clicked = c;
        });
        if let Some(t) = clicked {
            // One option there: take it; several: list them.
            let there: Vec<usize> = game
                .options()
                .as_slice()
                .iter()
                .enumerate()
                .filter(|(_, o)| target_of(&p.m, &game.st, **o) == Some(t))
                .map(|(i, _)| i)
                .collect();
            match there.as_slice() {
                [i] => pick = Some(*i),
                [] => {}
                _ => self.target = Some(t),
            }
        }
        let p = self.played.as_mut().expect("set above");
        if let Some(k) = step {
            p.at = k;
            self.target = None;
        }
        if undo {
            p.undo();
            self.target = None;
            self.turn.reset();
        }
        if let Some(i) = pick {
            p.decide(i);
            self.target = None;
            self.turn.reset();
            ui.ctx().request_repaint();
        }
    }

    fn seats_ui(&mut self, ui: &mut egui::Ui, env: &mut super::super::Env) {
        ui.horizontal_wrapped(|ui| {
            for (k, seat) in self.seats.iter_mut().enumerate() {
                let label = ui.label(format!("Player {}", k + 1));
                egui::ComboBox::from_id_salt(("arcadia-seat", k))
                    .selected_text(if self.simulate {
                        match seat {
                            Seat::Computer(p) => p.to_string(),
                            Seat::Person => "greedy".into(),
                        }
                    } else {
                        seat_label(*seat)
                    })
                    .show_ui(ui, |ui| {
                        if !self.simulate {
                            ui.selectable_value(seat, Seat::Person, seat_label(Seat::Person));
                        }
                        for (name, tip) in super::POLICIES {
                            let s = Seat::Computer(name);
                            ui.selectable_value(seat, s, seat_label(s)).on_hover_text(tip);
                        }
                    })
                    .response
                    .labelled_by(label.id);
            }
            let label = ui.label("Seed");
            ui.add(egui::DragValue::new(&mut self.seed))
                .labelled_by(label.id);
            let label = ui
                .label("Day limit")
                .on_hover_text("A match reaching this many Days ends as a draw");
            ui.add(egui::DragValue::new(&mut self.turn_limit).range(1..=100_000))
                .labelled_by(label.id);
            if !self.simulate {
                ui.checkbox(&mut self.follow, "Step the computer's moves")
                    .on_hover_text("After your decision the board shows the computer's moves one step at a time: Forward (Right arrow) to follow them");
                if ui
                    .button("New match")
                    .on_hover_text("Play the Setup screen's quest setup with these sides and this seed")
                    .clicked()
                {
                    self.new_match(env);
                }
            }
            if ui
                .button("Open setup file…")
                .on_hover_text("Open a quest setup file (its characters beside it) into the Setup screen and play it")
                .clicked()
            {
                let before = env.docs.setup.to_toml();
                files::open_doc_file(ui.ctx(), env, Slot::Setup);
                // Played on the next frame, once the Setup screen holds the file's setup (a
                // file cancelled or unreadable leaves it as it was: nothing is started).
                if !self.simulate {
                    self.start_next = Some(before);
                    ui.ctx().request_repaint();
                }
            }
        });
        ui.weak(format!(
            "Quest setup: {}",
            if env.docs.setup.name.trim().is_empty() {
                "the Setup screen's (unnamed)"
            } else {
                env.docs.setup.name.as_str()
            }
        ));
    }

    /// Starts a match of the Setup screen's quest setup.
    pub fn new_match(&mut self, env: &super::super::Env) {
        self.start(env.cat, &env.docs.setup);
    }

    /// Starts a match of quest setup `setup`, its characters saved in catalogue `cat`.
    pub fn start(&mut self, cat: &crate::catalogue::Catalogue, setup: &SetupFile) {
        let compiled = characters_of(cat, setup)
            .and_then(|characters| matchfile::compile(setup, &characters, cat, self.turn_limit));
        match compiled {
            Ok((m, source)) => {
                let source = Arc::new(source);
                self.played = Some(Played::new(Arc::new(m), source, self.seats, self.seed));
                self.turn.reset();
                self.target = None;
                self.message = None;
                self.note = None;
            }
            Err(e) => self.message = Some(format!("This quest setup cannot be played: {e}")),
        }
    }

    /// The match file row: Save the match shown, Open a saved one (it replays exactly).
    fn file_ui(&mut self, ui: &mut egui::Ui, env: &super::super::Env) {
        let opened = super::play::record_row(
            ui,
            &mut self.path,
            self.played.as_ref(),
            super::play::Row {
                id: "arcadia",
                unit: "inputs",
            },
            &mut self.note,
            &mut self.message,
            |r| Played::from_record(env.cat, r),
        );
        if let Some(p) = opened {
            self.seats = p.seats;
            self.seed = p.seed;
            self.turn_limit = p.m.turn_limit;
            self.played = Some(p);
            self.turn.reset();
            self.target = None;
        }
    }

    /// Whether a simulation is running.
    pub fn simulating(&self) -> bool {
        self.sim.running()
    }

    /// What a run is played with: a result whose key differs is stale.
    fn sim_key(&self, env: &super::super::Env) -> String {
        format!(
            "{} {:?} {} {} games {}",
            env.docs.setup.to_toml(),
            self.sim_policies(),
            self.seed,
            self.turn_limit,
            self.sim.games
        )
    }

    /// Each side's policy in a simulation (a person's side is played by greedy).
    fn sim_policies(&self) -> [Policy; 2] {
        self.seats.map(|s| match s {
            Seat::Computer(name) => Policy::parse(name).unwrap_or(Policy::Greedy),
            Seat::Person => Policy::Greedy,
        })
    }

    /// Starts a simulation of the view's matches in the shared Simulate view.
    pub fn start_sim(&mut self, ctx: &egui::Context, env: &super::super::Env) {
        let m = match compile(env.cat, &env.docs.setup, self.turn_limit) {
            Ok(m) => Arc::new(m),
            Err(e) => {
                self.message = Some(format!("This quest setup cannot be played: {e}"));
                return;
            }
        };
        self.message = None;
        let policies = self.sim_policies();
        let (games, seed) = (self.sim.games.max(1), self.seed);
        let ask = Ask {
            heading: format!(
                "{games} matches, seed {seed} ({} vs {})",
                policies[0].name(),
                policies[1].name()
            ),
            cli: None,
            key: self.sim_key(env),
            labels: vec![
                format!("Player 1 ({})", policies[0].name()),
                format!("Player 2 ({})", policies[1].name()),
            ],
            words: Words {
                length: ("Day", "Days"),
                draw: "A draw is a match neither player won: the Day limit was reached before either character completed its quest (ending `turn_limit`).",
            },
        };
        self.sim.start(ctx, ask, move |i| {
            let s = game_seed(seed, i);
            play_seeded(ArcadiaGame::new(&m), RngDice::new(s), &policies, s)
        });
    }

    fn sim_ui(&mut self, ui: &mut egui::Ui, env: &super::super::Env) {
        let key = self.sim_key(env);
        let tip = "Play the matches on a background thread (seeded dice each)";
        if self.sim.ui(ui, tip, &key, "The quest setup, the sides, the seed or the Day limit changed since this run: play it again to update it.") {
            self.start_sim(ui.ctx(), env);
        }
    }
}

/// The log, the lines of the step shown highlighted.
fn log_ui(ui: &mut egui::Ui, p: &Played) {
    super::step_log_ui(
        ui,
        "arcadia-log-scroll",
        p.log().iter().map(|(k, l)| (*k, l.as_str())),
        p.at,
    );
}

/// The decision at the step shown: the question and the options as buttons (keys 1-9), only
/// those at the clicked target when one is.
fn options_ui(
    ui: &mut egui::Ui,
    game: &ArcadiaGame<'_>,
    p: &Played,
    target: Option<Target>,
) -> Option<usize> {
    let mut pick = None;
    match game.turn() {
        Turn::Over => {
            let o = game.outcome();
            ui.heading(match game.st.ended {
                Some((_, Some(crate::games::arcadia::engine::Winner::Player(w)))) => {
                    format!("Player {} wins", w + 1)
                }
                Some((_, Some(crate::games::arcadia::engine::Winner::Draw))) => "A draw".into(),
                _ => "No result".into(),
            });
            if let Some(o) = o {
                ui.label(format!("Ended: {}, after {} Days", o.ended.name(), o.turns));
            }
        }
        Turn::Chance(_) => {
            ui.weak(if p.at < p.inputs.len() {
                format!("The dice: {} rolled.", p.inputs[p.at] + 1)
            } else {
                "The dice are rolled.".into()
            });
        }
        Turn::Seat { seat, options } => {
            if p.seats[seat.min(1)] != Seat::Person {
                ui.label(format!(
                    "Player {} (the computer): {}",
                    seat + 1,
                    game.question()
                ));
                if let Some(&i) = p.inputs.get(p.at) {
                    ui.strong(format!("Chooses: {}", game.describe(i)));
                    ui.weak("Forward (Right arrow) shows what follows.");
                }
                return None;
            }
            ui.strong(game.question());
            match target {
                Some(_) => ui.weak("The options at what you clicked (click elsewhere on the board for others)."),
                None => ui.weak("Click a lit league, square or merit on the board, or take an option (keys 1-9)."),
            };
            let opts = game.options();
            let shown: Vec<usize> = (0..options)
                .filter(|&i| {
                    target.is_none_or(|t| {
                        opts.as_slice()
                            .get(i)
                            .and_then(|o| target_of(game.m, &game.st, *o))
                            == Some(t)
                    })
                })
                .collect();
            pick = super::option_buttons(ui, "arcadia-options-scroll", &shown, true, |i| {
                game.describe(i)
            });
        }
    }
    pick
}

/// Draws text wrapped to `width` with its top-left at `at`; returns its height.
fn text_at(
    painter: &egui::Painter,
    at: egui::Pos2,
    text: String,
    size: f32,
    color: egui::Color32,
    width: f32,
) -> f32 {
    let galley = painter.layout(text, egui::FontId::proportional(size), color, width);
    let h = galley.size().y;
    painter.galley(at, galley, color);
    h
}

/// The board: the league map with the leagues still to lay and the dice of the Day on the
/// left, each character on the right. Returns where each clickable thing was drawn and what
/// a click pointed at.
fn board_ui(
    ui: &mut egui::Ui,
    p: &Played,
    game: &ArcadiaGame<'_>,
    lit: &[Target],
    target: Option<Target>,
) -> (Vec<(Target, egui::Rect)>, Option<Target>) {
    let avail = ui.available_size();
    let size = egui::vec2(avail.x.max(300.0), avail.y.max(260.0));
    let (rect, response) = ui.allocate_exact_size(size, egui::Sense::click());
    response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Canvas, true, "Arcadia board"));
    let painter = ui.painter_at(rect);
    let mut pen = Pen {
        painter: &painter,
        visuals: ui.visuals(),
        lit,
        target,
        spots: Vec::new(),
    };
    let chars_w = (rect.width() * 0.4).clamp(280.0, 640.0);
    let map_rect = egui::Rect::from_min_max(
        rect.min,
        egui::pos2(rect.right() - chars_w - 8.0, rect.bottom()),
    );
    let chars_rect =
        egui::Rect::from_min_max(egui::pos2(rect.right() - chars_w, rect.top()), rect.max);
    map_ui(&mut pen, map_rect, p, game);
    for who in 0..2u8 {
        let w = chars_rect.width() / 2.0;
        let r = egui::Rect::from_min_size(
            chars_rect.min + egui::vec2(w * f32::from(who), 0.0),
            egui::vec2(w - 4.0, chars_rect.height()),
        );
        character_ui(&mut pen, r, game, who);
    }
    let spots = pen.spots;
    // What the pointer is over, in words: a league's side features and card text, a merit's.
    if let Some(pos) = response.hover_pos()
        && let Some((t, _)) = spots.iter().find(|(_, r)| r.contains(pos))
    {
        let m = game.m;
        let tip: Option<(String, String)> = match *t {
            Target::League(l) => m.leagues.get(usize::from(l)).map(|x| {
                (
                    x.name.clone(),
                    format!(
                        "{}\n{}",
                        super::super::core::side_features(&x.sides),
                        x.text
                    ),
                )
            }),
            Target::Merit(who, i) => m.players[usize::from(who)]
                .merits
                .get(usize::from(i))
                .map(|x| (x.name.clone(), x.text.clone())),
            Target::Flaw(who, i) => m.players[usize::from(who)]
                .flaws
                .get(usize::from(i))
                .map(|x| (x.name.clone(), x.text.clone())),
            Target::Square(..) => None,
        };
        if let Some((name, text)) = tip {
            response.clone().on_hover_ui_at_pointer(|ui| {
                ui.strong(name);
                ui.label(text.trim());
            });
        }
    }
    let clicked = response
        .interact_pointer_pos()
        .filter(|_| response.clicked())
        .and_then(|pos| {
            spots
                .iter()
                .find(|(t, r)| r.contains(pos) && lit.contains(t))
                .map(|(t, _)| *t)
        });
    (spots, clicked)
}

/// The board being drawn: where and in which colours, the targets lit (a person may click
/// them) and the one clicked, and each clickable thing's place as it is drawn.
struct Pen<'a> {
    painter: &'a egui::Painter,
    visuals: &'a egui::Visuals,
    lit: &'a [Target],
    target: Option<Target>,
    spots: Vec<(Target, egui::Rect)>,
}

/// The map: each laid league a square with its side features, name, Base Camps, treasures,
/// waylay and characters; the squares a league may be laid on; the leagues still to lay; the
/// dice of the Day.
fn map_ui(pen: &mut Pen<'_>, rect: egui::Rect, p: &Played, game: &ArcadiaGame<'_>) {
    let (painter, visuals, lit, target) = (pen.painter, pen.visuals, pen.lit, pen.target);
    let spots = &mut pen.spots;
    let (m, st) = (game.m, &game.st);
    let text = visuals.strong_text_color();
    let weak = visuals.weak_text_color();
    let lit_stroke = egui::Stroke::new(3.0, visuals.selection.stroke.color);
    let laid = st.laid_order(m);
    let squares: Vec<(i8, i8)> = lit
        .iter()
        .filter_map(|t| match t {
            Target::Square(x, y) => Some((*x, *y)),
            _ => None,
        })
        .collect();
    let to_lay: Vec<u8> = if m.laid {
        Vec::new()
    } else {
        (0..m.leagues.len() as u8)
            .filter(|l| st.may_lay(m, m.league_owner[usize::from(*l)], *l))
            .collect()
    };
    let dice = p.dice_events();
    let tray_h = if to_lay.is_empty() {
        0.0
    } else {
        (rect.height() * 0.2).clamp(56.0, 110.0)
    };
    let dice_h = 54.0;
    let map = egui::Rect::from_min_max(
        rect.min,
        egui::pos2(rect.right(), rect.bottom() - tray_h - dice_h),
    );
    // The map's extent: the leagues laid and the squares open to lay on.
    let cells: Vec<(i32, i32)> = laid
        .iter()
        .map(|l| {
            let q = st.pos(m, *l);
            (q.x, q.y)
        })
        .chain(squares.iter().map(|(x, y)| (i32::from(*x), i32::from(*y))))
        .collect();
    if cells.is_empty() {
        painter.text(
            map.center(),
            egui::Align2::CENTER_CENTER,
            "No league laid yet: the first one is laid in the middle.",
            egui::FontId::proportional(14.0),
            weak,
        );
    } else {
        let (x0, x1) = (
            cells.iter().map(|c| c.0).min().unwrap_or(0),
            cells.iter().map(|c| c.0).max().unwrap_or(0),
        );
        let (y0, y1) = (
            cells.iter().map(|c| c.1).min().unwrap_or(0),
            cells.iter().map(|c| c.1).max().unwrap_or(0),
        );
        let (cols, rows) = ((x1 - x0 + 1) as f32, (y1 - y0 + 1) as f32);
        let side = (map.width() / cols)
            .min(map.height() / rows)
            .clamp(36.0, 230.0);
        let origin = map.center() - egui::vec2(cols * side, rows * side) / 2.0;
        let cell = |x: i32, y: i32| {
            egui::Rect::from_min_size(
                origin + egui::vec2((x - x0) as f32 * side, (y - y0) as f32 * side),
                egui::vec2(side, side),
            )
            .shrink(2.0)
        };
        let small = egui::FontId::proportional((side / 13.0).clamp(7.0, 12.0));
        for &(x, y) in &squares {
            let r = cell(i32::from(x), i32::from(y));
            let t = Target::Square(x, y);
            painter.rect_stroke(r, 4.0, lit_stroke, egui::StrokeKind::Inside);
            painter.text(
                r.center(),
                egui::Align2::CENTER_CENTER,
                "lay here",
                small.clone(),
                visuals.selection.stroke.color,
            );
            spots.push((t, r));
        }
        for &l in &laid {
            let q = st.pos(m, l);
            let r = cell(q.x, q.y);
            let league = &m.leagues[usize::from(l)];
            let owner = m.league_owner.get(usize::from(l)).copied().unwrap_or(0);
            painter.rect_filled(r, 4.0, visuals.faint_bg_color);
            painter.rect_stroke(
                r,
                4.0,
                egui::Stroke::new(1.0, player_color(owner).gamma_multiply(0.6)),
                egui::StrokeKind::Inside,
            );
            let t = Target::League(l);
            if lit.contains(&t) {
                painter.rect_stroke(
                    r,
                    4.0,
                    if target == Some(t) {
                        egui::Stroke::new(4.0, text)
                    } else {
                        lit_stroke
                    },
                    egui::StrokeKind::Inside,
                );
            }
            let sides = &league.sides;
            // Too small a square for the features: they are in the tip (hover).
            let roomy = side >= 72.0;
            if roomy {
                super::super::setup::side_features(
                    painter,
                    r,
                    &[
                        sides.north.clone(),
                        sides.east.clone(),
                        sides.south.clone(),
                        sides.west.clone(),
                    ],
                    &small,
                    weak,
                );
            }
            // The name between the west and east features, under the north ones.
            let widest = |f: &[String]| {
                f.iter()
                    .map(|t| {
                        painter
                            .layout_no_wrap(t.clone(), small.clone(), weak)
                            .size()
                            .x
                    })
                    .fold(0.0f32, f32::max)
            };
            let (west, east) = (widest(&sides.west), widest(&sides.east));
            let inner = egui::Rect::from_min_max(
                egui::pos2(r.left() + west + 6.0, r.top() + small.size + 6.0),
                egui::pos2(r.right() - east - 6.0, r.bottom() - small.size - 6.0),
            );
            let inner = if !roomy {
                r.shrink(3.0)
            } else if inner.width() < side * 0.35 {
                r.shrink(side * 0.2)
            } else {
                inner
            };
            // The name and the waylays lying here keep to the band between the Base flags at
            // the top and the characters and treasures at the bottom: smaller type, then lines
            // cut with "…", rather than text under the tokens.
            let flags = st.heroes.iter().any(|h| h.base == l);
            let below = (0..2u8).any(|who| {
                let h = &st.heroes[usize::from(who)];
                let n = m.players[usize::from(who)].treasures();
                (h.base != crate::games::arcadia::engine::setup::NO_BASE && h.at == l)
                    || h.treasure_at[..n].contains(&l)
            });
            let mut band = inner;
            if flags {
                band.min.y = band.min.y.max(r.top() + 2.0 * small.size + 10.0);
            }
            if below {
                band.max.y = band.max.y.min(r.bottom() - side * 0.3);
            }
            let layout = |size: f32, rows: usize| {
                let font = egui::FontId::proportional(size);
                let mut job = egui::text::LayoutJob::default();
                job.wrap.max_width = band.width().max(1.0);
                job.wrap.max_rows = rows;
                job.halign = egui::Align::Center;
                job.append(
                    &league.name,
                    0.0,
                    egui::TextFormat::simple(font.clone(), text),
                );
                for w in 0..m.waylays.len() {
                    if st.waylay_at[w] == l {
                        // A waylay lying here, in its player's colour.
                        job.append(
                            &format!("\nwaylay: {}", m.waylays[w].name),
                            0.0,
                            egui::TextFormat::simple(font.clone(), player_color(m.waylay_owner[w])),
                        );
                    }
                }
                painter.layout_job(job)
            };
            let largest = (side / 10.0).clamp(8.0, 15.0);
            let mut galley = layout(largest, usize::MAX);
            let mut size = largest;
            while galley.size().y > band.height() && size > 7.0 {
                size -= 1.0;
                galley = layout(size, usize::MAX);
            }
            if galley.size().y > band.height() {
                let row = galley.size().y / galley.rows.len().max(1) as f32;
                galley = layout(size, ((band.height() / row).floor() as usize).max(1));
            }
            painter.galley(
                egui::pos2(band.center().x, band.center().y - galley.size().y / 2.0),
                galley,
                text,
            );
            // Base Camps: a flag in the owner's colour at the top corners.
            for who in 0..2u8 {
                let h = &st.heroes[usize::from(who)];
                if h.base == l {
                    let corner = if who == 0 {
                        r.left_top()
                    } else {
                        r.right_top() - egui::vec2(side * 0.28, 0.0)
                    };
                    let flag = egui::Rect::from_min_size(
                        corner + egui::vec2(2.0, small.size + 4.0),
                        egui::vec2(side * 0.28, small.size + 4.0),
                    );
                    painter.rect_filled(flag, 2.0, player_color(who));
                    painter.text(
                        flag.center(),
                        egui::Align2::CENTER_CENTER,
                        format!("Base {}", who + 1),
                        small.clone(),
                        egui::Color32::WHITE,
                    );
                }
                // Treasures hidden here for this player: gold diamonds in the bottom
                // corner on its side (player 1 left, player 2 right), clear of the characters.
                let n = m.players[usize::from(who)].treasures();
                let hidden = h.treasure_at[..n].iter().filter(|t| **t == l).count();
                for k in 0..hidden {
                    let dx = side * 0.12 + k as f32 * side * 0.1;
                    let c = if who == 0 {
                        r.left_bottom() + egui::vec2(dx, -side * 0.22)
                    } else {
                        r.right_bottom() + egui::vec2(-dx, -side * 0.22)
                    };
                    let d = side * 0.05;
                    painter.add(egui::Shape::convex_polygon(
                        vec![
                            c + egui::vec2(0.0, -d),
                            c + egui::vec2(d, 0.0),
                            c + egui::vec2(0.0, d),
                            c + egui::vec2(-d, 0.0),
                        ],
                        egui::Color32::from_rgb(230, 190, 40),
                        egui::Stroke::new(1.0, player_color(who)),
                    ));
                }
            }
            // The characters standing here.
            for who in 0..2u8 {
                let h = &st.heroes[usize::from(who)];
                if h.base != crate::games::arcadia::engine::setup::NO_BASE && h.at == l {
                    let c = r.center_bottom()
                        + egui::vec2((f32::from(who) - 0.5) * side * 0.26, -side * 0.2);
                    let rad = (side * 0.09).clamp(6.0, 18.0);
                    painter.circle(
                        c,
                        rad,
                        player_color(who),
                        egui::Stroke::new(2.0, egui::Color32::WHITE),
                    );
                    painter.text(
                        c,
                        egui::Align2::CENTER_CENTER,
                        format!("{}", who + 1),
                        egui::FontId::proportional(rad * 1.2),
                        egui::Color32::WHITE,
                    );
                }
            }
            spots.push((t, r));
        }
    }
    // The leagues still to lay, in their owners' colours.
    if !to_lay.is_empty() {
        let tray = egui::Rect::from_min_max(
            egui::pos2(rect.left(), map.bottom()),
            egui::pos2(rect.right(), map.bottom() + tray_h),
        );
        painter.text(
            tray.left_top(),
            egui::Align2::LEFT_TOP,
            "Leagues still to lay",
            egui::FontId::proportional(12.0),
            weak,
        );
        let top = tray.top() + 16.0;
        let ts = ((tray.width() / to_lay.len() as f32) - 4.0)
            .min(tray.bottom() - top - 2.0)
            .max(24.0);
        for (k, &l) in to_lay.iter().enumerate() {
            let r = egui::Rect::from_min_size(
                egui::pos2(tray.left() + k as f32 * (ts + 4.0), top),
                egui::vec2(ts, tray.bottom() - top - 2.0),
            );
            let owner = m.league_owner.get(usize::from(l)).copied().unwrap_or(0);
            painter.rect_filled(r, 3.0, player_color(owner).gamma_multiply(0.35));
            let t = Target::League(l);
            if lit.contains(&t) {
                painter.rect_stroke(r, 3.0, lit_stroke, egui::StrokeKind::Inside);
            }
            // The league being laid: where it goes is the question.
            if matches!(st.phase, Phase::LayAt { slot, .. } if slot == l) {
                painter.rect_stroke(
                    r,
                    3.0,
                    egui::Stroke::new(4.0, text),
                    egui::StrokeKind::Inside,
                );
            }
            let galley = painter.layout(
                m.leagues[usize::from(l)].name.clone(),
                egui::FontId::proportional((ts / 7.0).clamp(8.0, 12.0)),
                text,
                r.width() - 4.0,
            );
            painter.galley(r.center() - galley.size() / 2.0, galley, text);
            spots.push((t, r));
        }
    }
    // The dice of the Day's trials and tests, the newest last.
    let strip = egui::Rect::from_min_max(egui::pos2(rect.left(), rect.bottom() - dice_h), rect.max);
    painter.rect_filled(strip, 4.0, visuals.extreme_bg_color);
    let shown: Vec<&&Event> = dice.iter().rev().take(3).collect();
    if shown.is_empty() {
        painter.text(
            strip.left_center() + egui::vec2(8.0, 0.0),
            egui::Align2::LEFT_CENTER,
            "No dice rolled yet this Day.",
            egui::FontId::proportional(12.0),
            weak,
        );
    }
    let slot_w = strip.width() / 3.0;
    for (k, e) in shown.iter().rev().enumerate() {
        let x = strip.left() + k as f32 * slot_w + 6.0;
        let faces: Vec<(u8, u8)> = match e {
            Event::Trial { player, die, .. } => vec![(*die, *player)],
            Event::TestRoll { dice, .. } => {
                let a = st.active;
                vec![
                    (dice[0], a),
                    (dice[1], a),
                    (dice[2], 1 - a),
                    (dice[3], 1 - a),
                ]
            }
            Event::FirstRoll { p1, p2, .. } => vec![(*p1, 0), (*p2, 1)],
            _ => Vec::new(),
        };
        let ds = 22.0;
        for (j, (face, who)) in faces.iter().enumerate() {
            let r = egui::Rect::from_min_size(
                egui::pos2(x + j as f32 * (ds + 3.0), strip.top() + 5.0),
                egui::vec2(ds, ds),
            );
            painter.rect_filled(r, 4.0, egui::Color32::WHITE);
            painter.rect_stroke(
                r,
                4.0,
                egui::Stroke::new(2.0, player_color(*who)),
                egui::StrokeKind::Inside,
            );
            painter.text(
                r.center(),
                egui::Align2::CENTER_CENTER,
                face.to_string(),
                egui::FontId::monospace(14.0),
                egui::Color32::BLACK,
            );
        }
        let caption = game.event_text(e);
        let galley = painter.layout(
            caption,
            egui::FontId::proportional((slot_w / 30.0).clamp(10.0, 13.0)),
            text,
            slot_w - 12.0,
        );
        painter.galley(egui::pos2(x, strip.top() + 5.0 + ds + 2.0), galley, text);
    }
}

/// One character: name, where it stands and its Base Camp; its merits (exhausted and
/// discarded marked), flaws, quests, and the waylays its player holds.
fn character_ui(pen: &mut Pen<'_>, r: egui::Rect, game: &ArcadiaGame<'_>, who: u8) {
    let (painter, visuals, lit, target) = (pen.painter, pen.visuals, pen.lit, pen.target);
    let spots = &mut pen.spots;
    let (m, st) = (game.m, &game.st);
    let pl = &m.players[usize::from(who)];
    let h = &st.heroes[usize::from(who)];
    let text = visuals.strong_text_color();
    let weak = visuals.weak_text_color();
    painter.rect_filled(r, 4.0, visuals.faint_bg_color);
    painter.rect_filled(
        egui::Rect::from_min_size(r.min, egui::vec2(r.width(), 4.0)),
        2.0,
        player_color(who),
    );
    let size = (r.height() / 42.0).clamp(10.0, 14.0);
    let row = size + 4.0;
    let w = r.width() - 10.0;
    let x = r.left() + 5.0;
    let mut y = r.top() + 8.0;
    y += text_at(
        painter,
        egui::pos2(x, y),
        format!(
            "Player {} ({}): {}",
            who + 1,
            if who == 0 { "a" } else { "b" },
            pl.name
        ),
        size + 2.0,
        player_color(who),
        w,
    );
    let place = |l: u8| {
        if usize::from(l) < m.leagues.len() && st.in_play(l) {
            m.leagues[usize::from(l)].name.clone()
        } else {
            "not chosen yet".into()
        }
    };
    y += text_at(
        painter,
        egui::pos2(x, y),
        format!(
            "In {} · Base Camp {}{}",
            if h.base == crate::games::arcadia::engine::setup::NO_BASE {
                "no league yet".into()
            } else {
                place(h.at)
            },
            place(h.base),
            if h.skip { " · skips its next Day" } else { "" }
        ),
        size,
        weak,
        w,
    ) + 4.0;
    let heading = |y: &mut f32, s: &str| {
        line_at(painter, egui::pos2(x, *y), s, size, weak, w - 6.0);
        *y += row;
    };
    heading(&mut y, "Merits");
    for (i, merit) in pl.merits.iter().enumerate() {
        let bit = 1u32 << i;
        if h.owned & bit == 0 {
            continue;
        }
        let t = Target::Merit(who, i as u8);
        let line = egui::Rect::from_min_size(egui::pos2(x, y), egui::vec2(w, row));
        if lit.contains(&t) {
            painter.rect_stroke(
                line,
                3.0,
                if target == Some(t) {
                    egui::Stroke::new(2.5, text)
                } else {
                    egui::Stroke::new(2.0, visuals.selection.stroke.color)
                },
                egui::StrokeKind::Inside,
            );
        }
        let (state, color) = if h.discarded & bit != 0 {
            (" — discarded", weak.gamma_multiply(0.6))
        } else if h.exhausted & bit != 0 {
            (" — exhausted", weak)
        } else {
            ("", text)
        };
        let label = format!(
            "{} ({:?}{}){state}",
            merit.name,
            merit.merit_type,
            if i >= pl.own { ", treasure found" } else { "" }
        );
        let gw = line_at(
            painter,
            egui::pos2(x + 3.0, y + 2.0),
            label,
            size,
            color,
            w - 6.0,
        );
        if h.discarded & bit != 0 {
            painter.line_segment(
                [
                    egui::pos2(x + 3.0, y + row / 2.0 + 1.0),
                    egui::pos2(x + 3.0 + gw, y + row / 2.0 + 1.0),
                ],
                egui::Stroke::new(1.0, color),
            );
        }
        spots.push((t, line));
        y += row;
    }
    let n = pl.treasures();
    let hidden = h.treasure_at[..n].iter().filter(|t| **t != FOUND).count();
    if hidden > 0 {
        line_at(
            painter,
            egui::pos2(x + 3.0, y),
            format!("{hidden} treasure(s) still to find"),
            size,
            weak,
            w - 6.0,
        );
        y += row;
    }
    y += 4.0;
    heading(&mut y, "Flaws");
    for (f, flaw) in pl.flaws.iter().enumerate() {
        let t = Target::Flaw(who, f as u8);
        let line = egui::Rect::from_min_size(egui::pos2(x, y), egui::vec2(w, row));
        if lit.contains(&t) {
            painter.rect_stroke(
                line,
                3.0,
                egui::Stroke::new(2.0, visuals.selection.stroke.color),
                egui::StrokeKind::Inside,
            );
        }
        let exhausted = h.flaws_exhausted & (1 << f) != 0;
        line_at(
            painter,
            egui::pos2(x + 3.0, y + 2.0),
            format!(
                "{}{}",
                flaw.name,
                if exhausted { " — exhausted" } else { "" }
            ),
            size,
            if exhausted { weak } else { text },
            w - 6.0,
        );
        spots.push((t, line));
        y += row;
    }
    if pl.flaws.is_empty() {
        line_at(painter, egui::pos2(x + 3.0, y), "none", size, weak, w - 6.0);
        y += row;
    }
    y += 4.0;
    heading(&mut y, "Quests");
    for (q, quest) in pl.quests.iter().enumerate() {
        let done = h.quests_done & (1 << q) != 0;
        y += text_at(
            painter,
            egui::pos2(x + 3.0, y),
            format!("{}{}", quest.name, if done { " (done)" } else { "" }),
            size,
            text,
            w - 6.0,
        ) + 2.0;
    }
    y += 4.0;
    heading(&mut y, "Waylays in hand");
    let mut any = false;
    for (i, wl) in m.waylays.iter().enumerate() {
        if m.waylay_owner[i] == who && st.waylay_at[i] == IN_HAND {
            any = true;
            line_at(
                painter,
                egui::pos2(x + 3.0, y),
                format!("{} (rating {})", wl.name, wl.rating),
                size,
                text,
                w - 6.0,
            );
            y += row;
        }
    }
    if !any {
        line_at(painter, egui::pos2(x + 3.0, y), "none", size, weak, w - 6.0);
    }
}

/// Draws one line of text with its top-left at `at`, cut with an ellipsis at `width`; returns
/// the width drawn.
fn line_at(
    painter: &egui::Painter,
    at: egui::Pos2,
    text: impl Into<String>,
    size: f32,
    color: egui::Color32,
    width: f32,
) -> f32 {
    let mut job = egui::text::LayoutJob::single_section(
        text.into(),
        egui::TextFormat::simple(egui::FontId::proportional(size), color),
    );
    job.wrap.max_width = width;
    job.wrap.max_rows = 1;
    job.wrap.break_anywhere = true;
    let galley = painter.layout_job(job);
    let w = galley.size().x;
    painter.galley(at, galley, color);
    w
}
