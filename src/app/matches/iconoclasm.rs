//! Iconoclasm on the Match screen: 1 to 4 seats (solo draws come from the dealt pile), each a
//! person or a policy, one seeded deal played in the shared match view
//! ([`super::session_view`]): this file keeps only the deal of a new match and the board
//! painter (the table from above, each seat's hand, the decision with only the options at a
//! clicked cell), and the Simulate view's run.

use super::session_view::{Act, Board, SessionView, Shown, Start};
use super::sim_view::{Ask, SimView, Words};
use crate::catalogue::Catalogue;
use crate::games::ai::Policy;
use crate::games::any::AnyGame;
use crate::games::game::{Game, Turn};
use crate::games::iconoclasm::engine::{Goal, IconoclasmGame, Pos, State};
use crate::games::iconoclasm::matchfile::{self, Iconoclasm};
use crate::games::iconoclasm::model::Element;
use crate::games::owned::Owned;
use crate::games::session::Seat;
use crate::sim::iconoclasm::Run;

/// The Iconoclasm position of a session's position (`None` for another game's).
pub fn position(g: &dyn AnyGame) -> Option<&IconoclasmGame<'_>> {
    g.as_any()
        .downcast_ref::<Owned<Iconoclasm>>()
        .map(Owned::game)
}

/// Iconoclasm's board: the table, the hands, and the decision.
#[derive(Default)]
pub struct IconoclasmBoard {
    /// The cell a person clicked: only the options placing there are listed.
    pub cell: Option<Pos>,
}

impl Board for IconoclasmBoard {
    /// A deal of the catalogue's deck (its clash table) for `players` seats with `seed`.
    fn start(&self, players: usize, seed: u64, cat: &Catalogue) -> Result<Start, String> {
        let (setup, table) = super::super::core::iconoclasm_dealt(cat, players as u8, seed)?;
        let options = matchfile::options(&setup, &table);
        let opened = matchfile::open(&options, cat).map_err(|e| e.to_string())?;
        Ok(Start { opened, options })
    }

    fn ui(&mut self, ui: &mut egui::Ui, shown: &Shown<'_>) -> Option<Act> {
        let game = position(shown.game)?;
        let legal: Vec<Pos> = match shown.person {
            Some(_) => game.moves().iter().map(|m| m.pos).collect(),
            None => Vec::new(),
        };
        let mut pick = None;
        egui::Panel::bottom("iconoclasm-options")
            .resizable(true)
            .default_size(140.0)
            .show(ui, |ui| {
                pick = options_ui(ui, game, shown, self.cell);
            });
        egui::CentralPanel::default().show(ui, |ui| {
            // Each seat's hand under the board, the board in the room above them.
            let room = egui::vec2(
                ui.available_width(),
                (ui.available_height() - hands_height(&game.st)).max(40.0),
            );
            ui.allocate_ui(room, |ui| {
                if let Some(c) = board_ui(ui, game, &legal) {
                    self.cell = Some(c);
                }
            });
            hands_ui(ui, game);
        });
        pick.map(Act::Option)
    }

    fn reset(&mut self) {
        self.cell = None;
    }
}

/// The Iconoclasm view of the Match screen.
pub struct IconoclasmPanel {
    /// Simulate many games (else play one).
    pub simulate: bool,
    /// The Simulate view (its games, the last run's figures).
    pub sim: SimView,
    /// The game played (its seats and seed are the simulation's too).
    pub view: SessionView<IconoclasmBoard>,
}

impl Default for IconoclasmPanel {
    fn default() -> Self {
        IconoclasmPanel {
            simulate: false,
            sim: SimView::new("iconoclasm-sim", 200),
            view: SessionView {
                log_width: 300.0,
                ..SessionView::new(
                    &crate::games::iconoclasm::REGISTRATION,
                    "iconoclasm",
                    IconoclasmBoard::default(),
                    (1, 2, 4),
                )
            },
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
        self.view.ui(ui, env.cat);
    }

    /// How many seats play.
    fn players(&self) -> usize {
        self.view.players.clamp(1, 4)
    }

    /// The seats' policies in a simulation (a person's seat is played by greedy).
    fn sim_policies(&self) -> Vec<Policy> {
        self.view.seats[..self.players()]
            .iter()
            .map(|s| match s {
                Seat::Computer(p) => *p,
                Seat::Person => Policy::Greedy,
            })
            .collect()
    }

    /// What a simulation is played with: a result of other seats or seed is stale.
    fn sim_key(&self) -> String {
        format!(
            "{} players {:?} seed {} games {}",
            self.players(),
            self.sim_policies(),
            self.view.seed,
            self.sim.games
        )
    }

    /// Starts a simulation of the view's games (a fresh deal each) in the shared view.
    pub fn start_sim(&mut self, ctx: &egui::Context, env: &super::super::Env) {
        let (deck, table) = match super::super::core::iconoclasm_deck(env.cat) {
            Ok(d) => d,
            Err(e) => {
                self.view.message = Some(format!("No game can be dealt: {e}"));
                return;
            }
        };
        let policies = self.sim_policies();
        let names: Vec<String> = policies.iter().map(|p| p.name()).collect();
        let run = Run {
            deck,
            table,
            players: self.players() as u8,
            goal: Goal::Dominance,
            policies,
        };
        if let Err(e) = run.outcome(self.view.seed, 0) {
            self.view.message = Some(format!("No game can be dealt: {e}"));
            return;
        }
        self.view.message = None;
        let (games, seed, players) = (self.sim.games.max(1), self.view.seed, self.players());
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
                ui.add(egui::DragValue::new(&mut self.players()).range(1..=4))
                    .labelled_by(label.id);
                let players = self.players();
                for (k, seat) in self.view.seats.iter_mut().enumerate().take(players) {
                    let label = ui.label(format!("Player {}", k + 1));
                    egui::ComboBox::from_id_salt(("iconoclasm-sim-seat", k))
                        .selected_text(match seat {
                            Seat::Computer(p) => p.name(),
                            Seat::Person => "greedy".into(),
                        })
                        .show_ui(ui, |ui| {
                            for (name, _) in super::POLICIES {
                                let p = Policy::parse(name).expect("a known policy");
                                ui.selectable_value(seat, Seat::Computer(p), name);
                            }
                        })
                        .response
                        .labelled_by(label.id);
                }
                let label = ui.label("Seed");
                ui.add(egui::DragValue::new(&mut self.view.seed))
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
        if let Some(m) = &self.view.message {
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
}

/// The decision at the step shown: the question and the options as buttons (keys 1-9), only
/// those at the clicked cell when one is; at the end, the winner and the scores.
fn options_ui(
    ui: &mut egui::Ui,
    game: &IconoclasmGame<'_>,
    shown: &Shown<'_>,
    cell: Option<Pos>,
) -> Option<usize> {
    let mut pick = None;
    match Game::turn(game) {
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
            if shown.person.is_none() {
                ui.label(format!("Player {} (the computer) plays.", seat + 1));
                return None;
            }
            ui.strong(Game::question(game));
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
                Game::describe(game, i)
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
