//! Iconoclasm on the Match screen: 1 to 4 seats (solo draws come from the dealt pile), each a
//! person or a policy, one seeded deal played through the `Game` interface. Every input is recorded, so the position shown at step
//! k is the deal with the first k inputs replayed ([`replay`]): Back and Forward walk the game
//! decision by decision, the log line of the step is highlighted, and a person deciding at an
//! earlier step plays on from there (the later inputs are dropped: an undo).

use std::sync::Arc;

use super::job::{ComputerTurn, Thinking, TurnStep};
use super::sim_view::{Ask, SimView, Words};
use crate::games::ai::Policy;
use crate::games::game::{Game, Turn, replay};
use crate::games::iconoclasm::engine::{Goal, IconoclasmGame, NoLog, Pos, Setup, State};
use crate::games::iconoclasm::matchfile;
use crate::games::iconoclasm::model::ClashTable;
use crate::games::iconoclasm::model::Element;
use crate::games::record::{Inputs, MatchRecord, RecordError, checked_replay};
use crate::games::session;
use crate::sim::iconoclasm::Run;

/// Who takes a seat's decisions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Seat {
    Person,
    /// A policy by name (`first`, `random`, `greedy`, `mcts`).
    Computer(&'static str),
}

impl Seat {
    fn label(self) -> String {
        match self {
            Seat::Person => "a person".into(),
            Seat::Computer(p) => format!("the computer ({p})"),
        }
    }

    /// The seat as the core's session takes it (an unknown policy name plays `first`).
    pub fn typed(self) -> session::Seat {
        match self {
            Seat::Person => session::Seat::Person,
            Seat::Computer(p) => session::Seat::Computer(Policy::parse(p).unwrap_or(Policy::First)),
        }
    }

    /// The seat as a match record names it (`person` or the policy).
    pub fn record_name(self) -> String {
        match self {
            Seat::Person => "person".into(),
            Seat::Computer(p) => p.to_string(),
        }
    }

    /// The seat a match record names, `None` for an unknown name.
    pub fn from_record(name: &str) -> Option<Seat> {
        if name == "person" {
            return Some(Seat::Person);
        }
        super::POLICIES
            .iter()
            .find(|(p, _)| *p == name)
            .map(|(p, _)| Seat::Computer(p))
    }
}

/// One dealt game and its recorded inputs.
pub struct Played {
    pub setup: Arc<Setup>,
    /// The clash table it was dealt with (for its record).
    pub table: Arc<ClashTable>,
    pub seats: Vec<Seat>,
    pub seed: u64,
    /// Every input so far (the options taken), in order.
    pub inputs: Vec<usize>,
    /// The step shown: the position after the first `at` inputs.
    pub at: usize,
}

impl super::play::Recorded for Played {
    /// The record of the game (docs/cards.md, "Match records"): the deal, the cards and the
    /// clash table, every input, a check of every step.
    fn record(&self) -> MatchRecord {
        MatchRecord::of_inputs(
            &IconoclasmGame::start(&self.setup, &mut NoLog),
            matchfile::ENGINE,
            self.seed,
            self.seats.iter().map(|s| s.record_name()).collect(),
            Inputs::of(self.inputs.clone()),
            matchfile::options(&self.setup, &self.table),
        )
    }

    fn replayed(&self) -> usize {
        self.inputs.len()
    }
}

impl Played {
    /// The game at the step shown.
    pub fn game(&self) -> IconoclasmGame<'_> {
        replay(
            &IconoclasmGame::start(&self.setup, &mut NoLog),
            &self.inputs[..self.at],
        )
    }

    /// The state at the step shown.
    pub fn state(&self) -> State {
        self.game().st
    }

    /// The whole log in words, each line with the step it belongs to (0: the deal; k: the
    /// events of the k-th input).
    pub fn log(&self) -> Vec<(usize, String)> {
        let mut log = Vec::new();
        let mut g = IconoclasmGame::start(&self.setup, &mut log);
        let mut lines: Vec<(usize, String)> = log.iter().map(|e| (0, g.event_text(e))).collect();
        for (k, &i) in self.inputs.iter().enumerate() {
            let mut ev = Vec::new();
            g.apply_logged(i, &mut ev);
            lines.extend(ev.iter().map(|e| (k + 1, g.event_text(e))));
        }
        lines
    }

    /// Whether the game is over at the last input.
    pub fn over(&self) -> bool {
        let g = replay(
            &IconoclasmGame::start(&self.setup, &mut NoLog),
            &self.inputs,
        );
        matches!(g.turn(), Turn::Over)
    }

    /// Takes option `i` at the step shown (dropping any later inputs).
    pub fn decide(&mut self, i: usize) {
        self.inputs.truncate(self.at);
        self.inputs.push(i);
        self.at = self.inputs.len();
    }

    /// Starts the computer's turn when it is a computer's seat to play at the end of the game
    /// (the last step shown): its seats' decisions and, solo, the draw pile's next cards, on
    /// a background job until a person must decide or the game is over.
    fn computer_turn(&self, ctx: &egui::Context) -> Option<Result<Thinking, String>> {
        if self.at != self.inputs.len() {
            return None;
        }
        let g = self.game();
        match g.turn() {
            Turn::Over => return None,
            Turn::Seat { seat, .. } if self.seats.get(seat) == Some(&Seat::Person) => return None,
            _ => {}
        }
        let setup = self.setup.clone();
        let inputs = self.inputs.clone();
        let seats: Vec<session::Seat> = self.seats.iter().map(|s| s.typed()).collect();
        let seed = self.seed;
        Some(Thinking::start(ctx, inputs.len(), move |stop, done| {
            let g = replay(&IconoclasmGame::start(&setup, &mut NoLog), &inputs);
            // Solo: the next card of the dealt draw pile (the first still in the deck), as
            // its index among the cards still in the deck (as `Pile` answers).
            let next_card = |g: &IconoclasmGame<'_>, _k: usize, _c| {
                let deck: Vec<u8> = g.st.deck().collect();
                setup
                    .draw_pile
                    .iter()
                    .find_map(|c| deck.iter().position(|d| d == c))
            };
            session::computer_turn(g, inputs.len(), &seats, seed, next_card, stop, done)
        }))
    }
}

impl Played {
    /// Reopens a recorded game: the seed's deal from the catalogue's deck, its inputs
    /// checked and replayed, shown at its last step.
    pub fn from_record(
        cat: &crate::catalogue::Catalogue,
        r: &MatchRecord,
    ) -> Result<Played, RecordError> {
        r.expect_game("iconoclasm")?;
        let players = r
            .options
            .get("players")
            .and_then(toml::Value::as_integer)
            .filter(|n| (1..=4).contains(n))
            .ok_or_else(|| RecordError::Options("`players` is not 1 to 4".into()))?;
        if r.seats.len() != players as usize {
            return Err(RecordError::Options(format!(
                "{} seats for {players} players",
                r.seats.len()
            )));
        }
        let seats = r
            .seats
            .iter()
            .map(|name| {
                Seat::from_record(name)
                    .ok_or_else(|| RecordError::Options(format!("unknown seat `{name}`")))
            })
            .collect::<Result<Vec<_>, _>>()?;
        r.expect_engine(matchfile::ENGINE)?;
        // Format 2 keeps the deal; a format-1 record's deal is the seed's.
        let (setup, table) = if r.format >= 2 {
            let setup = matchfile::setup_of(&r.options)?;
            let table: ClashTable = r.options["clash"]
                .clone()
                .try_into()
                .map_err(|e| RecordError::Options(format!("`clash`: {e}")))?;
            (setup, table)
        } else {
            super::super::core::iconoclasm_dealt(cat, players as u8, r.seed)
                .map_err(RecordError::Options)?
        };
        if setup.players as usize != r.seats.len() {
            return Err(RecordError::Options(format!(
                "{} seats for {} players",
                r.seats.len(),
                setup.players
            )));
        }
        checked_replay(&IconoclasmGame::start(&setup, &mut NoLog), &r.inputs)?;
        Ok(Played {
            setup: Arc::new(setup),
            table: Arc::new(table),
            seats,
            seed: r.seed,
            inputs: r.inputs.clone(),
            at: r.inputs.len(),
        })
    }
}

/// The Iconoclasm view of the Match screen.
pub struct IconoclasmPanel {
    /// Simulate many games (else play one).
    pub simulate: bool,
    /// The Simulate view (its games, the last run's figures).
    pub sim: SimView,
    pub players: usize,
    pub seats: [Seat; 4],
    pub seed: u64,
    pub played: Option<Played>,
    /// The cell a person clicked: only the options placing there are listed.
    pub cell: Option<Pos>,
    pub message: Option<String>,
    /// The game file of Save and Open.
    pub path: String,
    /// What the last Save or Open did, when it went well.
    pub note: Option<String>,
    /// The computer's turn.
    pub turn: ComputerTurn,
}

impl Default for IconoclasmPanel {
    fn default() -> Self {
        IconoclasmPanel {
            simulate: false,
            sim: SimView::new("iconoclasm-sim", 200),
            players: 2,
            seats: [
                Seat::Person,
                Seat::Computer("greedy"),
                Seat::Computer("greedy"),
                Seat::Computer("greedy"),
            ],
            seed: 1,
            played: None,
            cell: None,
            message: None,
            path: String::new(),
            note: None,
            turn: ComputerTurn::default(),
        }
    }
}

/// The colour of an element's face.
pub fn element_color(e: Element) -> egui::Color32 {
    match e {
        Element::Fire => egui::Color32::from_rgb(200, 70, 40),
        Element::Water => egui::Color32::from_rgb(50, 110, 200),
        Element::Earth => egui::Color32::from_rgb(110, 140, 50),
        Element::Air => egui::Color32::from_rgb(200, 190, 120),
    }
}

impl IconoclasmPanel {
    pub fn ui(&mut self, ui: &mut egui::Ui, env: &super::super::Env) {
        ui.horizontal(|ui| {
            ui.selectable_value(&mut self.simulate, false, "Play one game")
                .on_hover_text("Play one game, step through it, take a person's seats");
            ui.selectable_value(&mut self.simulate, true, "Simulate")
                .on_hover_text(
                    "Play many seeded games, computer against computer, and read the win rates",
                );
        });
        if self.simulate {
            self.sim_ui(ui, env);
            return;
        }
        self.seats_ui(ui, env);
        self.file_ui(ui, env);
        if let Some(n) = &self.note {
            ui.label(n);
        }
        if let Some(m) = &self.message {
            ui.colored_label(ui.visuals().error_fg_color, m);
        }
        let Some(p) = self.played.as_mut() else {
            ui.weak("Choose who plays each seat, then New game.");
            return;
        };
        let ctx = ui.ctx().clone();
        match self.turn.ui(ui, || p.computer_turn(&ctx)) {
            TurnStep::Done(from, inputs) if p.inputs.len() == from && p.at == from => {
                p.inputs.extend(inputs);
                p.at = p.inputs.len();
                self.cell = None;
            }
            TurnStep::Failed(e) => self.message = Some(e),
            _ => {}
        }
        let p = self.played.as_ref().expect("set above");
        let game = p.game();
        let mut pick = None;
        let mut step = None;
        ui.horizontal(|ui| {
            step = super::step_buttons(ui, p.at, p.inputs.len(), "position", "decision");
            ui.label(format!("Step {} of {}", p.at, p.inputs.len()));
        });
        let legal: Vec<Pos> = match game.turn() {
            Turn::Seat { seat, .. } if p.seats.get(seat) == Some(&Seat::Person) => {
                game.moves().iter().map(|m| m.pos).collect()
            }
            _ => Vec::new(),
        };
        egui::Panel::right("iconoclasm-log")
            .resizable(true)
            .default_size(300.0)
            .show(ui, |ui| log_ui(ui, p));
        egui::Panel::bottom("iconoclasm-options")
            .resizable(true)
            .default_size(140.0)
            .show(ui, |ui| {
                pick = options_ui(ui, &game, p, self.cell);
            });
        egui::CentralPanel::default().show(ui, |ui| {
            // Each seat's hand under the board, the board in the room above them.
            let room = egui::vec2(
                ui.available_width(),
                (ui.available_height() - hands_height(&game.st)).max(40.0),
            );
            ui.allocate_ui(room, |ui| {
                if let Some(c) = board_ui(ui, &game, &legal) {
                    self.cell = Some(c);
                }
            });
            hands_ui(ui, &game);
        });
        drop(game);
        let p = self.played.as_mut().expect("set above");
        if let Some(k) = step {
            p.at = k;
            self.cell = None;
        }
        if let Some(i) = pick {
            p.decide(i);
            self.cell = None;
            // A person's decision (or an undo) lets the computer play on; a turn still
            // thinking about the old end is dropped.
            self.turn.reset();
            ui.ctx().request_repaint();
        }
    }

    /// The seats' policies in a simulation (a person's seat is played by greedy).
    fn sim_policies(&self) -> Vec<Policy> {
        self.seats[..self.players]
            .iter()
            .map(|s| match s {
                Seat::Computer(name) => Policy::parse(name).unwrap_or(Policy::Greedy),
                Seat::Person => Policy::Greedy,
            })
            .collect()
    }

    /// What a simulation is played with: a result of other seats or seed is stale.
    fn sim_key(&self) -> String {
        format!(
            "{} players {:?} seed {} games {}",
            self.players,
            self.sim_policies(),
            self.seed,
            self.sim.games
        )
    }

    /// Starts a simulation of the view's games (a fresh deal each) in the shared view.
    pub fn start_sim(&mut self, ctx: &egui::Context, env: &super::super::Env) {
        let (deck, table) = match super::super::core::iconoclasm_deck(env.cat) {
            Ok(d) => d,
            Err(e) => {
                self.message = Some(format!("No game can be dealt: {e}"));
                return;
            }
        };
        let policies = self.sim_policies();
        let names: Vec<String> = policies.iter().map(|p| p.name()).collect();
        let run = Run {
            deck,
            table,
            players: self.players as u8,
            goal: Goal::Dominance,
            policies,
        };
        if let Err(e) = run.outcome(self.seed, 0) {
            self.message = Some(format!("No game can be dealt: {e}"));
            return;
        }
        self.message = None;
        let (games, seed, players) = (self.sim.games.max(1), self.seed, self.players);
        let same = names.iter().all(|n| *n == names[0]);
        let ask = Ask {
            heading: format!(
                "{games} games, {players} player{}, seed {seed} ({})",
                if players == 1 { "" } else { "s" },
                names.join(" vs ")
            ),
            cli: same.then(|| {
                format!(
                    "deckwright sim iconoclasm --players {players} --games {games} --seed {seed} --ai {}",
                    names[0]
                )
            }),
            key: self.sim_key(),
            labels: names
                .iter()
                .enumerate()
                .map(|(k, n)| {
                    // Solo, a win is the goal (dominance) met.
                    if players == 1 {
                        format!("Player 1 ({n}, the goal met)")
                    } else {
                        format!("Player {} ({n})", k + 1)
                    }
                })
                .collect(),
            words: Words {
                length: ("turn", "turns"),
                draw: "A draw is a match nobody won: every card was placed and the best scores were tied (ending `all_placed`).",
            },
        };
        self.sim.start(ctx, ask, move |i| {
            run.outcome(seed, i)
                .expect("the first deal of these cards succeeded")
        });
    }

    /// Whether a simulation is running.
    pub fn simulating(&self) -> bool {
        self.sim.running()
    }

    fn sim_ui(&mut self, ui: &mut egui::Ui, env: &super::super::Env) {
        self.sim.poll();
        let run = ui
            .horizontal_wrapped(|ui| {
                let label = ui.label("Players");
                ui.add(egui::DragValue::new(&mut self.players).range(1..=4))
                    .labelled_by(label.id);
                for (k, seat) in self.seats.iter_mut().enumerate().take(self.players) {
                    let label = ui.label(format!("Player {}", k + 1));
                    egui::ComboBox::from_id_salt(("iconoclasm-sim-seat", k))
                        .selected_text(match seat {
                            Seat::Computer(p) => p.to_string(),
                            Seat::Person => "greedy".into(),
                        })
                        .show_ui(ui, |ui| {
                            for (name, _) in super::POLICIES {
                                ui.selectable_value(seat, Seat::Computer(name), name);
                            }
                        })
                        .response
                        .labelled_by(label.id);
                }
                let label = ui.label("Seed");
                ui.add(egui::DragValue::new(&mut self.seed))
                    .labelled_by(label.id);
                self.sim.controls_ui(
                    ui,
                    Ok(()),
                    "Play the games on a background thread (a fresh deal each)",
                )
            })
            .inner;
        if run {
            self.start_sim(ui.ctx(), env);
        }
        self.sim.progress_ui(ui);
        if let Some(m) = &self.message {
            ui.label(m);
        }
        let key = self.sim_key();
        egui::ScrollArea::vertical()
            .id_salt("iconoclasm-sim-scroll")
            .auto_shrink(false)
            .show(ui, |ui| {
                self.sim.result_ui(
                    ui,
                    &key,
                    "The players, policies or seed changed since this run: play it again to update it.",
                );
            });
    }

    fn seats_ui(&mut self, ui: &mut egui::Ui, env: &super::super::Env) {
        ui.horizontal_wrapped(|ui| {
            let label = ui.label("Players");
            ui.add(egui::DragValue::new(&mut self.players).range(1..=4))
                .labelled_by(label.id);
            for (k, seat) in self.seats.iter_mut().enumerate().take(self.players) {
                let label = ui.label(format!("Player {}", k + 1));
                egui::ComboBox::from_id_salt(("iconoclasm-seat", k))
                    .selected_text(seat.label())
                    .show_ui(ui, |ui| {
                        ui.selectable_value(seat, Seat::Person, Seat::Person.label());
                        for (name, _) in super::POLICIES {
                            let s = Seat::Computer(name);
                            ui.selectable_value(seat, s, s.label());
                        }
                    })
                    .response
                    .labelled_by(label.id);
            }
            let label = ui.label("Seed");
            ui.add(egui::DragValue::new(&mut self.seed))
                .labelled_by(label.id);
            if ui
                .button("New game")
                .on_hover_text("Deal a new game with this seed and these seats")
                .clicked()
            {
                self.new_game(env);
            }
        });
    }

    /// The game file row: Save the game shown, Open a saved one (it replays exactly).
    fn file_ui(&mut self, ui: &mut egui::Ui, env: &super::super::Env) {
        let opened = super::play::record_row(
            ui,
            &mut self.path,
            self.played.as_ref(),
            super::play::Row {
                id: "iconoclasm",
                unit: "inputs",
            },
            &mut self.note,
            &mut self.message,
            |r| Played::from_record(env.cat, r),
        );
        if let Some(p) = opened {
            self.players = p.seats.len();
            self.seats[..p.seats.len()].copy_from_slice(&p.seats);
            self.seed = p.seed;
            self.played = Some(p);
            self.turn.reset();
            self.cell = None;
        }
    }

    /// Deals a new game from the catalogue's deck.
    pub fn new_game(&mut self, env: &super::super::Env) {
        self.deal(env.cat);
    }

    /// Deals a new game from the deck of catalogue `cat` with the seats and seed set.
    pub fn deal(&mut self, cat: &crate::catalogue::Catalogue) {
        match super::super::core::iconoclasm_dealt(cat, self.players as u8, self.seed) {
            Ok((setup, table)) => {
                self.turn.reset();
                self.played = Some(Played {
                    setup: Arc::new(setup),
                    table: Arc::new(table),
                    seats: self.seats[..self.players].to_vec(),
                    seed: self.seed,
                    inputs: Vec::new(),
                    at: 0,
                });
                self.cell = None;
                self.message = None;
            }
            Err(e) => self.message = Some(format!("No game can be dealt: {e}")),
        }
    }
}

/// The log, the lines of the step shown highlighted.
fn log_ui(ui: &mut egui::Ui, p: &Played) {
    super::step_log_ui(ui, "iconoclasm-log-scroll", p.log(), p.at);
}

/// The decision at the step shown: the question and the options as buttons (keys 1-9), only
/// those at the clicked cell when one is.
fn options_ui(
    ui: &mut egui::Ui,
    game: &IconoclasmGame<'_>,
    p: &Played,
    cell: Option<Pos>,
) -> Option<usize> {
    let mut pick = None;
    match game.turn() {
        Turn::Over => {
            let scores = crate::games::iconoclasm::engine::player_scores(&game.st);
            let winner = crate::games::iconoclasm::engine::winner(&game.st);
            ui.heading(match winner {
                Some(w) => format!("Player {} wins", w + 1),
                None => "No winner".into(),
            });
            ui.label(
                scores
                    .iter()
                    .map(|s| format!("Player {}: {} points", s.player + 1, s.points))
                    .collect::<Vec<_>>()
                    .join(", "),
            );
        }
        Turn::Chance(_) => {
            ui.weak("A card is drawn.");
        }
        Turn::Seat { seat, options } => {
            if p.seats.get(seat) != Some(&Seat::Person) {
                ui.label(format!("Player {} (the computer) plays.", seat + 1));
                return None;
            }
            ui.strong(game.question());
            match cell {
                Some(c) => ui.weak(format!(
                    "The options at row {}, column {} (click another cell for others).",
                    c.row, c.col
                )),
                None => ui.weak("Click a lit cell of the board, or take an option (keys 1-9)."),
            };
            let shown: Vec<usize> = (0..options)
                .filter(|&i| cell.is_none_or(|c| game.moves()[i].pos == c))
                .collect();
            pick = super::option_buttons(ui, "iconoclasm-options-scroll", &shown, false, |i| {
                game.describe(i)
            });
        }
    }
    pick
}

/// The height of a hand's row of cards.
const HAND_ROW: f32 = 30.0;

/// The height the seats' hands take under the board.
fn hands_height(st: &State) -> f32 {
    f32::from(st.players) * (HAND_ROW + 4.0) + 4.0
}

/// Each seat's hand under the board, one row a seat: "Player n" (strong on its turn) and
/// its cards, each split into its front and back elements' colours with its name.
fn hands_ui(ui: &mut egui::Ui, game: &IconoclasmGame<'_>) {
    use crate::games::iconoclasm::engine::grid::Side;
    let st = &game.st;
    ui.add_space(4.0);
    for seat in 0..st.players {
        let cards: Vec<u8> =
            crate::games::iconoclasm::engine::state::bits(st.hands[usize::from(seat)]).collect();
        let names: Vec<&str> = cards
            .iter()
            .map(|&c| game.setup.deck.cards[usize::from(c)].name.as_str())
            .collect();
        let (rect, response) = ui.allocate_exact_size(
            egui::vec2(ui.available_width(), HAND_ROW),
            egui::Sense::hover(),
        );
        let said = format!(
            "Player {}'s hand: {}",
            seat + 1,
            if names.is_empty() {
                "no cards".to_string()
            } else {
                names.join(", ")
            }
        );
        response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Group, true, &said));
        let painter = ui.painter_at(rect);
        let to_move = !st.is_over() && st.to_move == seat;
        let label = painter.layout_no_wrap(
            format!("Player {}", seat + 1),
            egui::FontId::proportional(13.0),
            if to_move {
                ui.visuals().strong_text_color()
            } else {
                ui.visuals().weak_text_color()
            },
        );
        let label_w = 76.0;
        painter.galley(
            egui::pos2(rect.left(), rect.center().y - label.size().y / 2.0),
            label,
            ui.visuals().text_color(),
        );
        if cards.is_empty() {
            continue;
        }
        let w = ((rect.width() - label_w) / cards.len() as f32 - 4.0).clamp(20.0, 110.0);
        for (k, &c) in cards.iter().enumerate() {
            let r = egui::Rect::from_min_size(
                egui::pos2(
                    rect.left() + label_w + k as f32 * (w + 4.0),
                    rect.top() + 2.0,
                ),
                egui::vec2(w, HAND_ROW - 4.0),
            );
            let (front, back) = (st.face(c, Side::Front), st.face(c, Side::Back));
            let (top, bottom) = r.split_top_bottom_at_fraction(0.5);
            painter.rect_filled(
                top,
                egui::CornerRadius {
                    nw: 5,
                    ne: 5,
                    sw: 0,
                    se: 0,
                },
                element_color(front),
            );
            painter.rect_filled(
                bottom,
                egui::CornerRadius {
                    nw: 0,
                    ne: 0,
                    sw: 5,
                    se: 5,
                },
                element_color(back),
            );
            if to_move {
                painter.rect_stroke(
                    r,
                    5.0,
                    egui::Stroke::new(1.5, ui.visuals().strong_text_color()),
                    egui::StrokeKind::Outside,
                );
            }
            let mut job = egui::text::LayoutJob::single_section(
                names[k].to_string(),
                egui::TextFormat::simple(egui::FontId::proportional(10.0), egui::Color32::WHITE),
            );
            job.wrap = egui::text::TextWrapping {
                max_width: r.width() - 4.0,
                max_rows: 1,
                break_anywhere: false,
                overflow_character: Some('…'),
            };
            job.halign = egui::Align::Center;
            let g = painter.layout_job(job);
            let bg = r.center() - egui::vec2(0.0, g.size().y / 2.0);
            painter.rect_filled(
                egui::Rect::from_center_size(r.center(), g.size() + egui::vec2(4.0, 0.0)),
                2.0,
                egui::Color32::from_black_alpha(110),
            );
            painter.galley(bg, g, egui::Color32::WHITE);
        }
    }
}

/// The table from above: each card face up in its element's colour with its name, the cells a
/// person may place on lit; returns a lit cell the person clicked.
fn board_ui(ui: &mut egui::Ui, game: &IconoclasmGame<'_>, legal: &[Pos]) -> Option<Pos> {
    let st = &game.st;
    let (mut top, mut bottom, mut left, mut right) = match st.grid.bounds() {
        Some(b) => (b.top, b.bottom, b.left, b.right),
        None => (0, 0, 0, 0),
    };
    for p in legal {
        top = top.min(p.row);
        bottom = bottom.max(p.row);
        left = left.min(p.col);
        right = right.max(p.col);
    }
    let rows = (bottom - top + 1) as f32;
    let cols = (right - left + 1) as f32;
    let avail = ui.available_size();
    // Smaller than 40 only when the hands under the board leave no more room.
    let side = (avail.x / cols).min(avail.y / rows).clamp(30.0, 140.0);
    let (rect, response) =
        ui.allocate_exact_size(egui::vec2(cols * side, rows * side), egui::Sense::click());
    response
        .widget_info(|| egui::WidgetInfo::labeled(egui::Role::Canvas, true, "Iconoclasm board"));
    let painter = ui.painter_at(rect);
    let cell_rect = |p: Pos| {
        egui::Rect::from_min_size(
            rect.min + egui::vec2((p.col - left) as f32 * side, (p.row - top) as f32 * side),
            egui::vec2(side, side),
        )
        .shrink(3.0)
    };
    let text_color = ui.visuals().strong_text_color();
    for row in top..=bottom {
        for col in left..=right {
            let pos = Pos::new(row, col);
            let r = cell_rect(pos);
            if let Some(c) = st.grid.get(pos) {
                let e = st.face(c.card, c.up);
                painter.rect_filled(r, 6.0, element_color(e));
                let card = &game.setup.deck.cards[usize::from(c.card)];
                let galley = painter.layout(
                    format!("{}\n{}", e.name(), card.name),
                    egui::FontId::proportional((side / 9.0).clamp(9.0, 14.0)),
                    if e == Element::Air {
                        egui::Color32::BLACK
                    } else {
                        egui::Color32::WHITE
                    },
                    r.width() - 6.0,
                );
                painter.galley(r.center() - galley.size() / 2.0, galley, text_color);
            } else if legal.contains(&pos) {
                painter.rect_stroke(
                    r,
                    6.0,
                    egui::Stroke::new(2.0, ui.visuals().selection.stroke.color),
                    egui::StrokeKind::Inside,
                );
            }
        }
    }
    let pos = response
        .interact_pointer_pos()
        .filter(|_| response.clicked())?;
    let col = left + ((pos.x - rect.min.x) / side).floor() as i8;
    let row = top + ((pos.y - rect.min.y) / side).floor() as i8;
    let p = Pos::new(row, col);
    legal.contains(&p).then_some(p)
}
