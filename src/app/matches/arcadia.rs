//! Arcadia on the Match screen: a quest setup (the Setup screen's, or a file opened into it)
//! played in the shared match view ([`super::session_view`]: seats, seed, New match, Back,
//! Forward and Latest, Undo, Save and Open match, the computer's turn on a background job,
//! the log). This file keeps only how a new match starts from the setup and its Day limit,
//! the Day beside the steps, and the board painter: the league map (side features, Base
//! Camps, treasures, waylays lying, both characters), the leagues still to lay, each
//! character's merits, flaws, quests and waylays in hand, and the dice of the Day's trials
//! and tests; a click on a lit league, square or merit takes the option there. And the
//! Simulate view's run.

use std::sync::Arc;

use super::session_view::{Act, Board, SessionView, Shown, Start};
use super::sim_view::{Ask, SimView, Words};
use crate::catalogue::Catalogue;
use crate::games::ai::Policy;
use crate::games::arcadia::character::CharacterFile;
use crate::games::arcadia::engine::state::{FOUND, IN_HAND};
use crate::games::arcadia::engine::{ArcadiaGame, Event, Match, Opt, Phase, RngDice, State};
use crate::games::arcadia::matchfile::{self, Arcadia};
use crate::games::arcadia::setup::SetupFile;
use crate::games::dice::game_seed;
use crate::games::game::{Ending, Game, Turn};
use crate::games::owned::Owned;
use crate::games::session::{Seat, Session};
use crate::sim::play_seeded;

use super::super::docs::{Slot, TomlDoc};
use super::super::files;

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
pub fn compile(cat: &Catalogue, setup: &SetupFile, turn_limit: u32) -> Result<Match, String> {
    let characters = characters_of(cat, setup)?;
    Match::new(setup, &characters, cat, turn_limit).map_err(|e| e.to_string())
}

/// The characters of quest setup `setup`, read from the catalogue's saved characters.
pub fn characters_of(cat: &Catalogue, setup: &SetupFile) -> Result<Vec<CharacterFile>, String> {
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

/// The Arcadia position of a session's position (`None` for another game's).
pub fn position(g: &dyn crate::games::any::AnyGame) -> Option<&ArcadiaGame<'_>> {
    g.as_any().downcast_ref::<Owned<Arcadia>>().map(Owned::game)
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
        Opt::Lay(l) | Opt::Hide(l) | Opt::Place(l) | Opt::Look(l) => Target::League(l),
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

/// The options of the decision at `game` that point at `t` on the board.
pub fn options_at(game: &ArcadiaGame<'_>, t: Target) -> Vec<usize> {
    game.options()
        .as_slice()
        .iter()
        .enumerate()
        .filter(|(_, o)| target_of(game.m, &game.st, **o) == Some(t))
        .map(|(i, _)| i)
        .collect()
}

/// The dice rolled on the Day of the position after `inputs` (its trials, tests and first
/// rolls up to that position), the newest last: the inputs replayed from the start of `m`.
fn dice_of_day(m: &Match, inputs: &[usize]) -> Vec<Event> {
    let mut log = Vec::new();
    let mut g = ArcadiaGame::start(m, &mut log);
    for &i in inputs {
        g.apply_logged(i, &mut log);
    }
    let from = log
        .iter()
        .rposition(|e| matches!(e, Event::Day { .. }))
        .unwrap_or(0);
    log.drain(from..)
        .filter(|e| {
            matches!(
                e,
                Event::Trial { .. } | Event::TestRoll { .. } | Event::FirstRoll { .. }
            )
        })
        .collect()
}

/// Arcadia's board: the quest setup a new match starts from, its Day limit, and the board.
pub struct ArcadiaBoard {
    /// The quest setup a new match plays (the Setup screen's, kept in step by the panel).
    pub setup: SetupFile,
    /// A match reaching this many Days is a draw.
    pub day_limit: u32,
    /// After the computer's turn, show its first move (Forward steps through the rest)
    /// rather than where the match stands ("Step the computer's moves").
    pub follow: bool,
    /// The board target a person clicked: only the options there are listed.
    pub target: Option<Target>,
    /// Where each clickable thing of the board was drawn in the last frame.
    pub spots: Vec<(Target, egui::Rect)>,
    /// The dice of the Day shown, with the match (its address) and the inputs they are of.
    dice: Option<(usize, Vec<usize>, Vec<Event>)>,
}

impl Default for ArcadiaBoard {
    fn default() -> Self {
        ArcadiaBoard {
            setup: SetupFile::default(),
            day_limit: 500,
            follow: true,
            target: None,
            spots: Vec::new(),
            dice: None,
        }
    }
}

/// The dice of the Day at the step shown of `game`'s match, from `kept` when they are of
/// that match and step (else replayed and kept).
fn day_dice<'k>(
    kept: &'k mut Option<(usize, Vec<usize>, Vec<Event>)>,
    game: &ArcadiaGame<'_>,
    shown: &Shown<'_>,
) -> &'k [Event] {
    let key = std::ptr::from_ref(game.m) as usize;
    let inputs = &shown.session.inputs()[..shown.session.at.min(shown.session.len())];
    let fresh = kept
        .as_ref()
        .is_some_and(|(m, i, _)| *m == key && i.as_slice() == inputs);
    if !fresh {
        *kept = Some((key, inputs.to_vec(), dice_of_day(game.m, inputs)));
    }
    &kept.as_ref().expect("set above").2
}

impl Board for ArcadiaBoard {
    /// The computer's first move when following its moves, else the latest step.
    fn appended(&mut self, from: usize, session: &Session) -> usize {
        if self.follow && from < session.len() {
            from + 1
        } else {
            session.len()
        }
    }

    /// The quest setup compiled with its characters (saved in the catalogue) and the Day
    /// limit; the record keeps the setup, the characters and every card looked up.
    fn start(&self, _players: usize, _seed: u64, cat: &Catalogue) -> Result<Start, String> {
        let characters = characters_of(cat, &self.setup)
            .map_err(|e| format!("this quest setup cannot be played: {e}"))?;
        let (_, source) = matchfile::compile(&self.setup, &characters, cat, self.day_limit)
            .map_err(|e| format!("this quest setup cannot be played: {e}"))?;
        let options = matchfile::options(&source);
        let opened = matchfile::open(&options, cat).map_err(|e| e.to_string())?;
        Ok(Start { opened, options })
    }

    fn ui(&mut self, ui: &mut egui::Ui, shown: &Shown<'_>) -> Option<Act> {
        let game = position(shown.game)?;
        let lit: Vec<Target> = match shown.person {
            Some(_) => game
                .options()
                .as_slice()
                .iter()
                .filter_map(|o| target_of(game.m, &game.st, *o))
                .collect(),
            None => Vec::new(),
        };
        let mut pick = None;
        let target = self.target;
        egui::Panel::bottom("arcadia-options")
            .resizable(true)
            .default_size(130.0)
            .show(ui, |ui| {
                pick = options_ui(ui, game, shown, target);
            });
        let dice = day_dice(&mut self.dice, game, shown);
        let mut clicked = None;
        egui::CentralPanel::default().show(ui, |ui| {
            let (spots, c) = board_ui(ui, dice, game, &lit, target);
            self.spots = spots;
            clicked = c;
        });
        if let Some(t) = clicked {
            // One option there: take it; several: list them.
            match options_at(game, t).as_slice() {
                [i] => pick = Some(*i),
                [] => {}
                _ => self.target = Some(t),
            }
        }
        pick.map(Act::Option)
    }

    fn reset(&mut self) {
        self.target = None;
    }

    fn status(&self, shown: &Shown<'_>) -> Option<String> {
        position(shown.game).map(|g| format!("Day {}", g.st.day))
    }

    /// The opened match's Day limit plays the next match too.
    fn opened(&mut self, options: &toml::Table) {
        if let Ok(src) = matchfile::source_of(options) {
            self.day_limit = src.day_limit;
        }
    }
}

/// The Arcadia view of the Match screen.
pub struct ArcadiaPanel {
    /// Simulate many matches (else play one).
    pub simulate: bool,
    /// The shared Simulate view: its games, threads, run and figures.
    pub sim: SimView,
    /// The match played (its seats, seed and Day limit are the simulation's too).
    pub view: SessionView<ArcadiaBoard>,
    /// A file is being opened into the Setup screen (the setup before it): start a match
    /// from it once the Setup screen holds another setup.
    start_next: Option<String>,
}

impl Default for ArcadiaPanel {
    fn default() -> Self {
        ArcadiaPanel {
            simulate: false,
            sim: SimView::new("arcadia-sim", 200),
            view: SessionView {
                log_width: 300.0,
                ..SessionView::new(
                    &crate::games::arcadia::REGISTRATION,
                    "arcadia",
                    ArcadiaBoard::default(),
                    (2, 2, 2),
                )
            },
            start_next: None,
        }
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
        if self.view.board.setup != env.docs.setup {
            self.view.board.setup = env.docs.setup.clone();
        }
        if let Some(before) = self.start_next.take() {
            if env.docs.setup.to_toml() != before {
                self.view.new_match(env.cat);
            } else if files::path_field_open(ui.ctx()) {
                // The in-app path field stands in for the system dialog: wait for it.
                self.start_next = Some(before);
            }
        }
        self.setup_ui(ui, env);
        if self.simulate {
            self.sim_ui(ui, env);
            return;
        }
        self.view.ui(ui, env.cat);
    }

    /// What is played: the quest setup (Open setup file…), its Day limit, and whether the
    /// computer's moves are shown one step at a time.
    fn setup_ui(&mut self, ui: &mut egui::Ui, env: &mut super::super::Env) {
        ui.horizontal_wrapped(|ui| {
            ui.label(format!(
                "Quest setup: {}",
                if env.docs.setup.name.trim().is_empty() {
                    "the Setup screen's (unnamed)"
                } else {
                    env.docs.setup.name.as_str()
                }
            ));
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
            let label = ui
                .label("Day limit")
                .on_hover_text("A match reaching this many Days ends as a draw");
            ui.add(egui::DragValue::new(&mut self.view.board.day_limit).range(1..=100_000))
                .labelled_by(label.id);
            if !self.simulate {
                ui.checkbox(&mut self.view.board.follow, "Step the computer's moves")
                    .on_hover_text("After your decision the board shows the computer's moves one step at a time: Forward (Right arrow) to follow them, Latest (End) to your turn");
            }
        });
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
            self.view.seed,
            self.view.board.day_limit,
            self.sim.games
        )
    }

    /// Each side's policy in a simulation (a person's side is played by greedy).
    fn sim_policies(&self) -> [Policy; 2] {
        let policy = |k: usize| match self.view.seats.get(k) {
            Some(Seat::Computer(p)) => *p,
            _ => Policy::Greedy,
        };
        [policy(0), policy(1)]
    }

    /// Starts a simulation of the view's matches in the shared Simulate view.
    pub fn start_sim(&mut self, ctx: &egui::Context, env: &super::super::Env) {
        let m = match compile(env.cat, &env.docs.setup, self.view.board.day_limit) {
            Ok(m) => Arc::new(m),
            Err(e) => {
                self.view.message = Some(format!("This quest setup cannot be played: {e}"));
                return;
            }
        };
        self.view.message = None;
        let policies = self.sim_policies();
        let (games, seed) = (self.sim.games.max(1), self.view.seed);
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

    /// The Simulate view: each side's policy (a person's side is played by greedy), the
    /// seed, and the run.
    fn sim_ui(&mut self, ui: &mut egui::Ui, env: &super::super::Env) {
        ui.horizontal_wrapped(|ui| {
            for (k, seat) in self.view.seats.iter_mut().enumerate().take(2) {
                let label = ui.label(format!("Player {}", k + 1));
                super::policy_combo(ui, ("arcadia-sim-seat", k), seat).labelled_by(label.id);
            }
            let label = ui.label("Seed");
            ui.add(egui::DragValue::new(&mut self.view.seed))
                .labelled_by(label.id);
        });
        if let Some(m) = &self.view.message {
            ui.colored_label(ui.visuals().error_fg_color, m);
        }
        let key = self.sim_key(env);
        let tip = "Play the matches on a background thread (seeded dice each)";
        if self.sim.ui(ui, tip, &key, "The quest setup, the sides, the seed or the Day limit changed since this run: play it again to update it.") {
            self.start_sim(ui.ctx(), env);
        }
    }
}

/// The decision at the step shown: the question and the options as buttons (keys 1-9), only
/// those at the clicked target when one is; at the end, the result.
fn options_ui(
    ui: &mut egui::Ui,
    game: &ArcadiaGame<'_>,
    shown: &Shown<'_>,
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
            ui.weak(match shown.taken() {
                Some(i) => format!("The dice: {} rolled.", i + 1),
                None => "The dice are rolled.".into(),
            });
        }
        Turn::Seat { seat, options } => {
            if shown.person.is_none() {
                ui.label(format!(
                    "Player {} (the computer): {}",
                    seat + 1,
                    game.question()
                ));
                if let Some(i) = shown.taken() {
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
            let listed: Vec<usize> = (0..options)
                .filter(|&i| {
                    target.is_none_or(|t| {
                        opts.as_slice()
                            .get(i)
                            .and_then(|o| target_of(game.m, &game.st, *o))
                            == Some(t)
                    })
                })
                .collect();
            pick = super::option_buttons(ui, "arcadia-options-scroll", &listed, true, |i| {
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
    dice: &[Event],
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
    map_ui(&mut pen, map_rect, dice, game);
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
fn map_ui(pen: &mut Pen<'_>, rect: egui::Rect, dice: &[Event], game: &ArcadiaGame<'_>) {
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
    let shown: Vec<&Event> = dice.iter().rev().take(3).collect();
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
        let state = if h.quests_done & (1 << q) != 0 {
            " (done)".to_string()
        } else if h.quests_failed & (1 << q) != 0 {
            " (failed: its time is up)".to_string()
        } else if let Some(d) = quest.time_limit {
            format!(" (within {})", crate::count(u64::from(d), "Day", "Days"))
        } else {
            String::new()
        };
        y += text_at(
            painter,
            egui::pos2(x + 3.0, y),
            format!("{}{state}", quest.name),
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
