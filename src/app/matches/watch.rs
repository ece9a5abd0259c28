//! The Watch view: one seeded match of the two parties (played on a background thread, as
//! `deckwright play iconica --seed` plays it), its event log as a whole or turn by turn with
//! each side's characters, or decision by decision on the board: the shared match view
//! ([`super::session_view`]) with both seats the computer's, where the match steps forward
//! and back, is saved and opened again, and New match plays another on a background job
//! (stoppable mid-match).

use crate::app::commands::UiCommand;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use super::iconica_board::IconicaBoard;
use super::job::{Job, Poll};
use super::session_view::{Board, SessionView};
use super::{Asked, MatchOptions, stale_ui};
use crate::catalogue::Catalogue;
use crate::games::ai::Policy;
use crate::games::game::{Game, Turn};
use crate::games::iconica::ai::PolicyKind;
use crate::games::iconica::engine::{Event, IconicaGame, Setup};
use crate::games::iconica::matchfile;
use crate::games::record::Inputs;
use crate::games::record::MatchRecord;
use crate::games::registry;
use crate::games::session::{Seat as SessionSeat, decision_seed};
use crate::sim::iconica::{self as matches, MemberEnd, Played};

/// One turn of the log: its heading and its events, in words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TurnLog {
    pub heading: String,
    pub lines: Vec<String>,
}

/// A watched match, in words.
#[derive(Debug, Clone, PartialEq)]
pub struct Watched {
    pub seed: u64,
    pub policies: [String; 2],
    /// The parties' names when the match was played.
    pub names: [String; 2],
    /// The log by turn (events before the first turn, if any, under "Before the first turn";
    /// the end of the match last, as its own heading).
    pub turns: Vec<TurnLog>,
    /// Each side's characters at the end.
    pub sides: [Vec<MemberEnd>; 2],
    /// Every input of the match (chance outcomes and decisions) in order: replayed from the
    /// start, they give the position at any step.
    pub inputs: Vec<usize>,
    /// For each entry of [`Watched::turns`], how many inputs had been applied at its end.
    pub turn_inputs: Vec<usize>,
    /// Each side's characters at the end of each entry of [`Watched::turns`].
    pub turn_sides: Vec<[Vec<MemberEnd>; 2]>,
    /// The Action Roll (white, black) of each entry of [`Watched::turns`], if it has one.
    pub turn_rolls: Vec<Option<(u8, u8)>>,
    /// How it ended, with turns and dice.
    pub summary: String,
    /// The `deckwright play iconica` options that play the same match.
    pub cli: String,
    /// The parties and options it was played with ([`Asked::key`]).
    pub key: String,
}

impl Watched {
    /// Every line of the log in order, headings included (as `play` prints them, unindented).
    pub fn lines(&self) -> impl Iterator<Item = &str> {
        self.turns.iter().flat_map(|t| {
            std::iter::once(t.heading.as_str()).chain(t.lines.iter().map(String::as_str))
        })
    }
}

/// Groups a match's log by turn, in words.
pub fn by_turn(setup: &Setup, log: &[Event]) -> Vec<TurnLog> {
    let mut turns: Vec<TurnLog> = Vec::new();
    for e in log {
        let text = e.text(setup);
        match e {
            Event::Turn { .. } | Event::End { .. } => turns.push(TurnLog {
                heading: text,
                lines: Vec::new(),
            }),
            _ => match turns.last_mut() {
                Some(t) => t.lines.push(text),
                None => turns.push(TurnLog {
                    heading: "Before the first turn".into(),
                    lines: vec![text],
                }),
            },
        }
    }
    turns
}

/// A match played input by input, with the position at the end of each entry of its log by
/// turn ([`by_turn`]).
pub struct Stepped {
    pub played: Played,
    pub inputs: Vec<usize>,
    pub turn_inputs: Vec<usize>,
    pub turn_sides: Vec<[Vec<MemberEnd>; 2]>,
}

/// Plays the match `deckwright play iconica --seed SEED` plays (the same dice and decision
/// seeds as [`matches::play_logged`]), node by node, recording each input and, whenever a turn
/// heading is logged, each side's characters as the previous turn left them.
pub fn play_stepped(setup: &Setup, a: PolicyKind, b: PolicyKind, seed: u64) -> Stepped {
    play_stoppable(setup, a, b, seed, &AtomicBool::new(false)).expect("never stopped")
}

/// [`play_stepped`], stopped (`None`) when `stop` is set before an input: a Watch of a slow
/// policy can be cancelled mid-match.
pub fn play_stoppable(
    setup: &Setup,
    a: PolicyKind,
    b: PolicyKind,
    seed: u64,
    stop: &AtomicBool,
) -> Option<Stepped> {
    let mut g = IconicaGame::new(setup);
    let mut dice = matches::seeded_dice(seed);
    let policies = [a, b];
    let mut log: Vec<Event> = Vec::new();
    let mut inputs = Vec::new();
    let mut turn_inputs = Vec::new();
    let mut turn_sides = Vec::new();
    let heading = |e: &Event| matches!(e, Event::Turn { .. } | Event::End { .. });
    loop {
        if stop.load(Ordering::Relaxed) {
            return None;
        }
        let i = match g.turn() {
            Turn::Over => break,
            Turn::Chance(c) => match c.draw(&mut dice) {
                Some(o) => o,
                None => {
                    g.exhausted(&mut log);
                    break;
                }
            },
            Turn::Seat { seat, options } => crate::games::iconica::ai::Agent::new(
                policies[seat % 2],
                decision_seed(seed, inputs.len()),
            )
            .choose(&g, seat, options)
            .min(options.saturating_sub(1)),
        };
        let before = log.len();
        let before_sides = matches::sides(setup, g.state());
        g.apply_logged(i, &mut log);
        // A heading closes the entry before it (none before the first heading if the log
        // starts with one).
        for (k, e) in log[before..].iter().enumerate() {
            if heading(e) && before + k > 0 {
                let first = k == 0;
                turn_inputs.push(if first {
                    inputs.len()
                } else {
                    inputs.len() + 1
                });
                turn_sides.push(if first {
                    before_sides.clone()
                } else {
                    matches::sides(setup, g.state())
                });
            }
        }
        inputs.push(i);
    }
    // The last entry (the end of the match) ends with the match.
    turn_inputs.push(inputs.len());
    turn_sides.push(matches::sides(setup, g.state()));
    Some(Stepped {
        played: Played {
            state: *g.state(),
            log,
        },
        inputs,
        turn_inputs,
        turn_sides,
    })
}

/// The Action Roll of each entry of [`by_turn`]'s grouping of `log`.
pub fn rolls_by_turn(log: &[Event]) -> Vec<Option<(u8, u8)>> {
    let mut rolls: Vec<Option<(u8, u8)>> = Vec::new();
    for e in log {
        match e {
            Event::Turn { .. } | Event::End { .. } => rolls.push(None),
            Event::ActionRoll { white, black } => match rolls.last_mut() {
                Some(r) => *r = Some((*white, *black)),
                None => rolls.push(Some((*white, *black))),
            },
            _ => {
                if rolls.is_empty() {
                    rolls.push(None);
                }
            }
        }
    }
    rolls
}

/// The Watch view's state.
pub struct WatchPanel {
    job: Option<Job<Option<Watched>>>,
    pub watched: Option<Watched>,
    /// Show one turn at a time (else the whole log).
    pub step: bool,
    /// The turn shown when stepping (index into [`Watched::turns`]).
    pub turn: usize,
    pub message: Option<String>,
    /// Show the match decision by decision on the board.
    pub by_decision: bool,
    /// The watched (or opened) match on the shared match view, both seats the computer's
    /// at first: New match there plays another on a background job, stoppable mid-match.
    pub view: SessionView<IconicaBoard>,
    /// What the running job plays: the setup, options and names for the board.
    pending: Option<(Arc<Setup>, MatchOptions, [String; 2])>,
}

impl Default for WatchPanel {
    fn default() -> Self {
        let mut view = SessionView::new(
            &crate::games::iconica::REGISTRATION,
            "iconica-watch",
            IconicaBoard::default(),
            (2, 2, 2),
        );
        view.seats = vec![SessionSeat::Computer(Policy::Greedy); 2];
        view.board.at_once = true;
        WatchPanel {
            job: None,
            watched: None,
            step: false,
            turn: 0,
            message: None,
            by_decision: false,
            view,
            pending: None,
        }
    }
}

impl WatchPanel {
    pub fn running(&self) -> bool {
        self.job.is_some()
    }

    pub fn ui(&mut self, ui: &mut egui::Ui, now: &Asked, cat: &Catalogue) {
        self.poll(cat);
        self.controls_ui(ui, now);
        self.view.board.next = now
            .setup
            .clone()
            .map(|s| (s, now.names.map(str::to_string).to_vec()));
        if let Some(m) = &self.message {
            ui.label(m);
        }
        // Decision by decision (or before any match: New match and Open there).
        if self.by_decision || self.watched.is_none() {
            if self.watched.is_none() && self.job.is_none() && self.view.session.is_none() {
                ui.weak(
                    "Play one match with the seed and policies on the left, then read its log \
                     whole or turn by turn; or play one here, computer against computer.",
                );
            }
            if self.watched.is_some() {
                ui.horizontal(|ui| {
                    ui.selectable_value(&mut self.by_decision, true, "Decision by decision");
                    ui.selectable_value(&mut self.by_decision, false, "The log")
                        .on_hover_text("The whole log, or turn by turn");
                });
            }
            self.view.ui(ui, cat);
            return;
        }
        let Some(w) = &self.watched else {
            return;
        };
        ui.add_space(6.0);
        if w.key != now.key {
            stale_ui(ui, "match");
        }
        ui.heading(&w.summary);
        ui.weak(format!(
            "Seed {}; the same match on the command line: {}",
            w.seed, w.cli
        ));
        ui.separator();
        let last = w.turns.len().saturating_sub(1);
        match w.turn_sides.get(self.turn.min(last)).filter(|_| self.step) {
            Some(sides) => {
                let t = self.turn.min(last);
                let heading = format!("After {}", w.turns[t].heading);
                if let Some(Some((white, black))) = w.turn_rolls.get(t) {
                    action_roll_ui(ui, *white, *black);
                }
                sides_panel(ui, "watch-sides", &heading, sides, &w.names);
            }
            None => sides_panel(ui, "watch-sides", "At the end", &w.sides, &w.names),
        }
        egui::CentralPanel::default().show(ui, |ui| self.log_ui(ui));
    }

    fn poll(&mut self, cat: &Catalogue) {
        let Some(job) = &self.job else { return };
        match job.poll() {
            Poll::Running => return,
            Poll::Finished(None) => {
                self.pending = None;
                self.message = Some("The match was stopped.".into());
            }
            Poll::Finished(Some(w)) => {
                if let Some((setup, o, names)) = self.pending.take() {
                    self.show_on_board(cat, &setup, &o, &names, &w.inputs);
                }
                self.watched = Some(w);
                self.turn = 0;
                self.message = None;
            }
            Poll::Lost => self.message = Some("The match stopped on an internal error.".into()),
        }
        self.job = None;
    }

    /// Puts the watched match (`inputs` of `setup`, the options' policies and seed) on the
    /// session view, shown from its start.
    fn show_on_board(
        &mut self,
        cat: &Catalogue,
        setup: &Setup,
        o: &MatchOptions,
        names: &[String; 2],
        inputs: &[usize],
    ) {
        let seats: Vec<SessionSeat> = (0..2)
            .map(|k| SessionSeat::Computer(Policy::parse(o.policies[k]).unwrap_or(Policy::Greedy)))
            .collect();
        let r = MatchRecord::of_inputs(
            &IconicaGame::new(setup),
            matchfile::ENGINE,
            o.seed,
            seats.iter().map(|s| s.record_name()).collect(),
            Inputs::of(inputs.to_vec()),
            matchfile::options_of(setup, names),
        );
        match registry::session(&r, cat) {
            Ok(mut s) => {
                s.at = 0;
                self.view.seats[..2].copy_from_slice(&seats);
                self.view.seed = o.seed;
                self.view.session = Some(s);
                self.view.turn.reset();
                self.view.board.reset();
            }
            Err(e) => {
                self.message = Some(format!(
                    "The match cannot be shown on the board: {}",
                    crate::error_chain(&e)
                ))
            }
        }
    }

    fn controls_ui(&mut self, ui: &mut egui::Ui, now: &Asked) {
        let (setup, o) = (now.setup, now.options);
        ui.horizontal(|ui| {
            let can = setup.is_ok() && self.job.is_none();
            let play = ui
                .add_enabled(can, egui::Button::new("Play one match"))
                .on_hover_text(format!(
                    "Play one match with seed {} as `deckwright play iconica` plays it",
                    o.seed
                ))
                .on_disabled_hover_text(match setup {
                    Err(why) => why.as_str(),
                    Ok(_) => "A match is being played",
                });
            if play.clicked()
                && let Ok(setup) = setup
            {
                let names = now.names.map(str::to_string);
                self.start(ui.ctx(), setup.clone(), o, now.key.to_string(), names);
            }
            if self.job.is_some() {
                ui.spinner();
                ui.label("Playing…");
                if let Some(job) = &self.job
                    && ui
                        .add_enabled(!job.cancelled(), egui::Button::new("Stop"))
                        .on_hover_text("Stop the match being played (it is forgotten)")
                        .clicked()
                {
                    job.cancel();
                }
            }
        });
    }

    /// Plays one match of `setup` with the options' policies and seed on a thread.
    pub fn start(
        &mut self,
        ctx: &egui::Context,
        setup: Arc<Setup>,
        o: &MatchOptions,
        key: String,
        names: [String; 2],
    ) {
        let (pa, pb, seed) = (o.policy(0), o.policy(1), o.seed);
        let cli = format!(
            "deckwright play iconica A.party.toml B.party.toml --seed {seed} --policy-a {} --policy-b {}{}",
            pa.name(),
            pb.name(),
            o.cli_rules()
        );
        self.pending = Some((setup.clone(), o.clone(), names.clone()));
        let job = Job::spawn(ctx, "deckwright-watch", 1, move |p| {
            let stepped = play_stoppable(&setup, pa, pb, seed, p.stop_flag())?;
            let Played { state, log } = stepped.played;
            p.add(1);
            let end = log.last().map(|e| e.text(&setup)).unwrap_or_default();
            Some(Watched {
                seed,
                policies: [pa.name(), pb.name()],
                names,
                turns: by_turn(&setup, &log),
                sides: matches::sides(&setup, &state),
                inputs: stepped.inputs,
                turn_inputs: stepped.turn_inputs,
                turn_sides: stepped.turn_sides,
                turn_rolls: rolls_by_turn(&log),
                summary: format!("{end}; {} turns, {} dice", state.turn, state.dice_used),
                cli,
                key,
            })
        });
        match job {
            Ok(job) => self.job = Some(job),
            Err(e) => self.message = Some(format!("The match did not start: {e}")),
        }
    }

    /// The log: whole, with turn headings, or one turn at a time (arrow keys step).
    fn log_ui(&mut self, ui: &mut egui::Ui) {
        let Some(w) = &self.watched else { return };
        let last = w.turns.len().saturating_sub(1);
        ui.horizontal_wrapped(|ui| {
            ui.selectable_value(&mut self.step, false, "Whole log");
            ui.selectable_value(&mut self.step, true, "Turn by turn")
                .on_hover_text("One turn at a time; the Left and Right arrow keys step");
            if self.view.session.is_some() {
                ui.selectable_value(&mut self.by_decision, true, "Decision by decision")
                    .on_hover_text(
                        "The board at each decision and die; the Left and Right arrow keys step",
                    );
            }
            if self.step {
                ui.separator();
                if ui
                    .add_enabled(self.turn > 0, egui::Button::new("Previous turn"))
                    .clicked()
                {
                    self.turn -= 1;
                }
                ui.label(format!("{} of {}", self.turn.min(last) + 1, w.turns.len()));
                if ui
                    .add_enabled(self.turn < last, egui::Button::new("Next turn"))
                    .clicked()
                {
                    self.turn += 1;
                }
                // The arrows move the cursor of a text field being edited, not the turn.
                let (back, forward) = (
                    UiCommand::StepBack.pressed(ui),
                    UiCommand::StepForward.pressed(ui),
                );
                if back {
                    self.turn = self.turn.saturating_sub(1);
                }
                if forward {
                    self.turn = (self.turn + 1).min(last);
                }
            }
        });
        ui.separator();
        let shown: &[TurnLog] = if self.step {
            let t = self.turn.min(last);
            w.turns.get(t..=t).unwrap_or(&[])
        } else {
            &w.turns
        };
        egui::ScrollArea::vertical()
            .id_salt("watch-log")
            .auto_shrink([false, false])
            .show(ui, |ui| {
                ui.spacing_mut().item_spacing.y = 2.0;
                for t in shown {
                    ui.add_space(4.0);
                    ui.label(egui::RichText::new(&t.heading).strong());
                    for line in &t.lines {
                        ui.horizontal(|ui| {
                            ui.add_space(16.0);
                            ui.add(egui::Label::new(line).wrap());
                        });
                    }
                }
            });
    }
}

/// The right panel of [`sides_ui`], at most 40% of the room so that the log keeps the rest.
pub(super) fn sides_panel(
    ui: &mut egui::Ui,
    id: &str,
    heading: &str,
    sides: &[Vec<MemberEnd>; 2],
    names: &[String; 2],
) {
    let widest = (ui.available_width() * 0.4).max(240.0);
    egui::Panel::right(id)
        .resizable(true)
        .default_size(widest.min(300.0))
        .max_size(widest)
        .show(ui, |ui| sides_ui(ui, heading, sides, names));
}

/// Each side's characters under `heading`: health out of Start, statuses, or Skulled.
pub(super) fn sides_ui(
    ui: &mut egui::Ui,
    heading: &str,
    sides: &[Vec<MemberEnd>; 2],
    names: &[String; 2],
) {
    ui.heading(heading);
    for ((side, name), members) in ["A", "B"].iter().zip(names).zip(sides) {
        ui.add_space(6.0);
        ui.label(egui::RichText::new(format!("Side {side}: {name}")).strong());
        egui::Grid::new(("watch-side", *side))
            .num_columns(2)
            .striped(true)
            .show(ui, |ui| {
                for m in members {
                    ui.label(&m.name);
                    if m.skulled {
                        ui.label(egui::RichText::new("Skulled").color(ui.visuals().error_fg_color));
                    } else {
                        ui.vertical(|ui| {
                            ui.label(format!("{} / {}", m.health, m.start));
                            health_meter(ui, m.health, m.start);
                            for s in &m.statuses {
                                ui.horizontal(|ui| status_marker(ui, s));
                            }
                        });
                    }
                    ui.end_row();
                }
            });
    }
}

/// The health meter: the damage marker's place between the Skull Tile (left) and Start.
fn health_meter(ui: &mut egui::Ui, health: u16, start: u16) {
    let (rect, _) = ui.allocate_exact_size(egui::vec2(90.0, 6.0), egui::Sense::hover());
    let painter = ui.painter_at(rect);
    painter.rect_filled(rect, 2.0, ui.visuals().extreme_bg_color);
    let f = f32::from(health) / f32::from(start.max(1));
    let color = if f > 0.5 {
        egui::Color32::from_rgb(60, 170, 80)
    } else if f > 0.25 {
        egui::Color32::from_rgb(220, 160, 40)
    } else {
        egui::Color32::from_rgb(210, 60, 50)
    };
    let filled = egui::Rect::from_min_size(
        rect.min,
        egui::vec2(rect.width() * f.min(1.0), rect.height()),
    );
    painter.rect_filled(filled, 2.0, color);
}

/// A status as the rule text marks it: orange for Confusion, Blind and Stun, purple for Fear,
/// green for Poison, blue for Restoration, red for Siphon (Iconica v8, Status Effects).
pub fn status_color(name: &str) -> egui::Color32 {
    match name.to_ascii_lowercase().as_str() {
        "confusion" | "blind" | "stun" => egui::Color32::from_rgb(235, 140, 30),
        "fear" => egui::Color32::from_rgb(140, 70, 190),
        "poison" => egui::Color32::from_rgb(60, 160, 60),
        "restoration" => egui::Color32::from_rgb(50, 110, 210),
        "siphon" => egui::Color32::from_rgb(200, 40, 40),
        _ => egui::Color32::GRAY,
    }
}

/// One status marker: a dot in the status's colour and its name.
fn status_marker(ui: &mut egui::Ui, name: &str) {
    let (rect, _) = ui.allocate_exact_size(egui::vec2(10.0, 10.0), egui::Sense::hover());
    ui.painter()
        .circle_filled(rect.center(), 5.0, status_color(name));
    ui.label(name);
}

/// The two dice of an Action Roll, white and black, with the Action Break noted on doubles.
pub fn action_roll_ui(ui: &mut egui::Ui, white: u8, black: u8) {
    ui.horizontal(|ui| {
        ui.label("Action Roll");
        for (face, fill, ink) in [
            (white, egui::Color32::WHITE, egui::Color32::BLACK),
            (black, egui::Color32::from_gray(30), egui::Color32::WHITE),
        ] {
            let (rect, _) = ui.allocate_exact_size(egui::vec2(26.0, 26.0), egui::Sense::hover());
            let painter = ui.painter();
            painter.rect_filled(rect, 4.0, fill);
            painter.rect_stroke(rect, 4.0, egui::Stroke::new(1.0, egui::Color32::GRAY), egui::StrokeKind::Inside);
            painter.text(
                rect.center(),
                egui::Align2::CENTER_CENTER,
                face.to_string(),
                egui::FontId::proportional(15.0),
                ink,
            );
        }
        if white == black {
            ui.label(egui::RichText::new("doubles: an Action Break if a character's number matches").strong())
                .on_hover_text("Doubles that match a character's Action Break number heal it of 20, dispel it, and it acts this turn");
        }
    });
}
