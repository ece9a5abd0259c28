//! Iconica's board on the shared match view ([`super::session_view`]): the game keeps only
//! how a new match starts (the parties and rules the Play or Watch view hands it) and the
//! painter of the position shown: each side's characters as their cards with health meters,
//! statuses and Action Break icons, the Action Roll, the acting character and its target
//! outlined, and the decision in words. A person decides by clicking a character (then a
//! target) or an option (keys 1 to 9). The computer's decisions may be shown one at a time
//! ([`Board::follow`]). Seats, seed, Back and Forward, Undo, Save and Open, the computer's
//! turn and the log are the session view's.

use std::collections::HashMap;
use std::sync::Arc;

pub use super::pictures::Pictures;
use super::session_view::{Act, Board, Shown, Start};
use crate::catalogue::Catalogue;
use crate::games::game::{Game, Turn};
use crate::games::iconica::engine::{Breaks, Event, IconicaGame, Opt, Ruleset, Setup, State};
use crate::games::iconica::matchfile::{self, Iconica};
use crate::games::owned::Owned;
use crate::games::session::{Seat, Session};

/// The position after some inputs, with what the board highlights.
#[derive(Debug, Clone)]
pub struct Step {
    pub state: State,
    /// Who acts next at this step.
    pub turn: Turn,
    /// The Action Roll (white, black) of the turn under way.
    pub roll: Option<(u8, u8)>,
    /// The acting character of the turn under way (slot).
    pub actor: Option<u8>,
    /// The character its action last reached (slot).
    pub target: Option<u8>,
    /// The decision at this step: its question and its options (as the engine lists them,
    /// and in words).
    pub question: String,
    pub options: Vec<(Option<Opt>, String)>,
}

/// One line of the log and the step whose input logged it (0: before the first input).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line {
    pub step: usize,
    pub heading: bool,
    pub text: String,
}

/// A match replayed input by input: each step's position with what the board marks there (the
/// Action Roll, the acting character and its target), and the log.
#[derive(Debug, Clone, Default)]
pub struct Timeline {
    /// `steps[k]`: the position after the first k inputs.
    pub steps: Vec<Step>,
    pub lines: Vec<Line>,
}

impl Timeline {
    /// Replays `inputs` from the start of `setup`'s match.
    pub fn build(setup: &Setup, inputs: &[usize]) -> Timeline {
        let mut g = IconicaGame::new(setup);
        let mut t = Timeline::default();
        let (mut roll, mut actor, mut target) = (None, None, None);
        t.steps.push(step(&g, roll, actor, target));
        for (k, &i) in inputs.iter().enumerate() {
            let mut log = Vec::new();
            g.apply_logged(i, &mut log);
            for e in &log {
                match *e {
                    Event::Turn { .. } => (roll, actor, target) = (None, None, None),
                    Event::ActionRoll { white, black } => roll = Some((white, black)),
                    Event::Action { slot, .. } | Event::Break { slot, .. } => {
                        (actor, target) = (Some(slot), None)
                    }
                    Event::Damage { slot, by, .. }
                        if by.is_some() && target.is_none() && Some(slot) != actor =>
                    {
                        target = Some(slot)
                    }
                    Event::Inflict { slot, .. } | Event::Heal { slot, .. }
                        if target.is_none() && actor.is_some() && Some(slot) != actor =>
                    {
                        target = Some(slot)
                    }
                    _ => {}
                }
                t.lines.push(Line {
                    step: k + 1,
                    heading: matches!(e, Event::Turn { .. } | Event::End { .. }),
                    text: e.text(setup),
                });
            }
            t.steps.push(step(&g, roll, actor, target));
        }
        t
    }
}

/// The step of position `g`: at a decision, its acting character and options.
fn step(
    g: &IconicaGame<'_>,
    roll: Option<(u8, u8)>,
    actor: Option<u8>,
    target: Option<u8>,
) -> Step {
    let turn = g.turn();
    let (mut actor, mut question, mut options) = (actor, String::new(), Vec::new());
    if let Turn::Seat { options: n, .. } = turn {
        question = g.question();
        let asked = g.asked();
        if let Some(a) = asked.as_ref().and_then(|a| a.actor) {
            actor = Some(a);
        }
        options = (0..n)
            .map(|i| {
                let opt = asked.as_ref().and_then(|a| a.options.get(i).copied());
                (opt, g.describe(i))
            })
            .collect();
    }
    Step {
        state: *g.state(),
        turn,
        roll,
        actor,
        target,
        question,
        options,
    }
}

/// The character an option is about, if any.
pub fn option_slot(o: Opt) -> Option<u8> {
    match o {
        Opt::Char(s) | Opt::Break(s) | Opt::SelfDamage(s) => Some(s),
        Opt::Act | Opt::Decline | Opt::LetHeal => None,
    }
}

/// The Iconica position of a session's position (`None` for another game's).
pub fn position(g: &dyn crate::games::any::AnyGame) -> Option<&IconicaGame<'_>> {
    g.as_any().downcast_ref::<Owned<Iconica>>().map(Owned::game)
}

/// What the board keeps of the match shown: its inputs and options (to know when it
/// changed), the steps replayed, and the parties' names.
struct Cached {
    inputs: Vec<usize>,
    options: toml::Table,
    timeline: Timeline,
    names: Vec<String>,
}

/// Iconica's board on the session view.
pub struct IconicaBoard {
    /// The match a New match starts: the compiled parties (in play order) and their names,
    /// or why there is none. The Play and Watch views set it.
    pub next: Result<(Arc<Setup>, Vec<String>), String>,
    /// Show the computer's decisions at once (else one at a time, [`PACE`] apart).
    pub at_once: bool,
    /// Walking through the computer's decisions just appended.
    catching_up: bool,
    /// When the shown step last moved on by itself (`egui` time, seconds).
    last_move: Option<f64>,
    cached: Option<Cached>,
    pictures: Pictures,
}

impl Default for IconicaBoard {
    fn default() -> Self {
        IconicaBoard {
            next: Err("No parties yet.".into()),
            at_once: false,
            catching_up: false,
            last_move: None,
            cached: None,
            pictures: Pictures::default(),
        }
    }
}

/// Seconds between two of the computer's decisions shown one at a time.
pub const PACE: f64 = 0.6;

impl IconicaBoard {
    /// The steps of `s` replayed (made again only when its inputs or options changed) and
    /// the parties' names.
    pub fn timeline(&mut self, s: &Session) -> Option<(&Timeline, &[String])> {
        let fresh = self
            .cached
            .as_ref()
            .is_some_and(|c| c.inputs == s.inputs() && c.options == s.options);
        if !fresh {
            let start = s.game_at(0);
            let g = position(start.as_ref())?;
            let names = matchfile::parties_of(&s.options)
                .map(|p| p.into_iter().map(|(n, _)| n).collect())
                .unwrap_or_default();
            self.cached = Some(Cached {
                inputs: s.inputs().to_vec(),
                options: s.options.clone(),
                timeline: Timeline::build(g.setup(), s.inputs()),
                names,
            });
        }
        self.cached
            .as_ref()
            .map(|c| (&c.timeline, c.names.as_slice()))
    }
}

impl Board for IconicaBoard {
    /// A match of the parties set in [`IconicaBoard::next`], its record's options keeping
    /// the rules, the parties and every member's card.
    /// (Its seats are the two sides: in a team game each side's two players are one seat.)
    fn start(&self, _players: usize, _seed: u64, cat: &Catalogue) -> Result<Start, String> {
        let (setup, names) = self.next.as_ref().map_err(String::clone)?;
        let options = matchfile::options_of(setup, names);
        let opened = matchfile::open(&options, cat).map_err(|e| e.to_string())?;
        Ok(Start { opened, options })
    }

    fn ui(&mut self, ui: &mut egui::Ui, shown: &Shown<'_>) -> Option<Act> {
        let g = position(shown.game)?;
        let setup = g.setup();
        let at = shown.session.at;
        let mut pictures = std::mem::take(&mut self.pictures);
        let (t, names) = self.timeline(shown.session)?;
        let step = &t.steps[at.min(t.steps.len() - 1)];
        let end = t
            .lines
            .iter()
            .rev()
            .find(|l| l.step <= at)
            .map(|l| l.text.clone());
        let mut pick = None;
        egui::Panel::bottom("iconica-options")
            .resizable(true)
            .default_size(90.0)
            .show(ui, |ui| {
                pick = options_ui(ui, step, shown, end.as_deref());
            });
        egui::CentralPanel::default().show(ui, |ui| {
            let deciding = shown.person.is_some();
            let clicked = board_ui(ui, setup, step, names, deciding, shown.cat, &mut pictures);
            pick = pick.or(clicked);
        });
        self.pictures = pictures;
        pick.map(Act::Option)
    }

    fn reset(&mut self) {
        self.catching_up = false;
        self.last_move = None;
    }

    fn appended(&mut self, from: usize, session: &Session) -> usize {
        if self.at_once || from >= session.len() {
            return session.len();
        }
        self.catching_up = true;
        self.last_move = None;
        from
    }

    /// One step on every [`PACE`] seconds while catching up (chance inputs at once, up to
    /// the next decision).
    fn follow(&mut self, ctx: &egui::Context, s: &Session) -> Option<usize> {
        if !self.catching_up || s.at >= s.len() {
            self.catching_up = false;
            return None;
        }
        if self.at_once {
            self.catching_up = false;
            return Some(s.len());
        }
        let now = ctx.input(|i| i.time);
        let since = self.last_move.map_or(PACE, |t| now - t);
        let mut at = s.at;
        if since >= PACE {
            at += 1;
            while at < s.len() && s.mover(at).is_none() {
                at += 1;
            }
            self.last_move = Some(now);
        }
        if at < s.len() {
            ctx.request_repaint_after(std::time::Duration::from_secs_f64(PACE / 4.0));
        } else {
            self.catching_up = false;
        }
        Some(at)
    }
}

/// Seat `seat`'s side (a team of two players in a team game: one seat).
fn side_name(seat: usize) -> &'static str {
    if seat == 0 { "Side A" } else { "Side B" }
}

/// The decision of the step shown in words: the question and, when a person decides, one
/// button an option (keys 1 to 9 too); who decides otherwise, and what was chosen; the end.
fn options_ui(
    ui: &mut egui::Ui,
    step: &Step,
    shown: &Shown<'_>,
    end: Option<&str>,
) -> Option<usize> {
    match step.turn {
        Turn::Over => {
            ui.heading(end.unwrap_or("The match is over."));
            None
        }
        Turn::Chance(_) => {
            ui.weak("The dice are rolled.");
            None
        }
        Turn::Seat { seat, .. } if shown.person.is_none() => {
            let who = match shown.session.seats.get(seat) {
                Some(Seat::Computer(p)) => format!("the computer, {}", p.name()),
                _ => "a person".into(),
            };
            ui.label(format!("{} ({who}): {}", side_name(seat), step.question));
            if let Some(i) = shown.taken() {
                ui.weak(format!(
                    "Chose: {}",
                    step.options.get(i).map_or("", |o| o.1.as_str())
                ));
            }
            None
        }
        Turn::Seat { .. } => {
            ui.horizontal_wrapped(|ui| {
                ui.label(egui::RichText::new(&step.question).strong().size(16.0));
                ui.weak("Click a lit character on the board, an option, or press its number.");
            });
            let all: Vec<usize> = (0..step.options.len()).collect();
            super::option_buttons(ui, "iconica-options-scroll", &all, true, |i| {
                step.options[i].1.clone()
            })
        }
    }
}

/// Whether slot `s`'s Action Break number matches the roll of the turn under way.
pub fn break_lit(setup: &Setup, st: &State, roll: Option<(u8, u8)>, s: usize) -> bool {
    let Some((white, black)) = roll else {
        return false;
    };
    let r = &setup.rules;
    let c = &setup.chars[s];
    if !r.action_breaks || !st.is_alive(s) || setup.owner[s] != st.player {
        return false;
    }
    match (r.ruleset, r.breaks) {
        (Ruleset::V8, _) | (Ruleset::V2, Breaks::Advanced) => black == c.action_break,
        (Ruleset::V2, Breaks::Standard) => white == black && black == c.action_break,
    }
}

/// The board at the step shown: side b's characters above, side a's below, each as its
/// card with its health meter (the marker on its tile), status markers and Action Break
/// icon; the Action Roll's two dice between them; the acting character and its target
/// outlined. Returns the option a person chose by clicking a character.
pub fn board_ui(
    ui: &mut egui::Ui,
    setup: &Setup,
    step: &Step,
    names: &[String],
    deciding: bool,
    cat: &Catalogue,
    pictures: &mut Pictures,
) -> Option<usize> {
    let st = &step.state;
    // A character a person may click, with the option it takes.
    let clickable: HashMap<u8, usize> = if deciding {
        let mut map = HashMap::new();
        for (i, (o, _)) in step.options.iter().enumerate() {
            if let Some(s) = o.and_then(option_slot) {
                map.entry(s).or_insert(i);
            }
        }
        map
    } else {
        HashMap::new()
    };
    let avail = ui.available_size();
    let (rect, _) = ui.allocate_exact_size(avail, egui::Sense::hover());
    let painter = ui.painter_at(rect);
    let visuals = ui.visuals().clone();
    let per_side = [0, 1].map(|side| {
        (0..setup.chars.len())
            .filter(|&s| setup.side[s] == side)
            .collect::<Vec<_>>()
    });
    let cols = per_side.iter().map(Vec::len).max().unwrap_or(1).max(1) as f32;
    // Room for the dice strip between the rows and the meters under each card.
    // (On a small board the Action Break icon and statuses share one row under the card.)
    let small = rect.height() < 560.0;
    let strip = if small {
        44.0
    } else {
        56.0_f32.min(rect.height() * 0.15)
    };
    let below = if small { 50.0 } else { 64.0 };
    let row_h = ((rect.height() - strip) / 2.0).max(60.0);
    let card_h = (row_h - below - 20.0).max(40.0);
    let card_w = (card_h * 63.0 / 88.0)
        .min(rect.width() / cols - 16.0)
        .max(30.0);
    let card_h = card_w * 88.0 / 63.0;
    let mut chosen = None;
    for (row, side) in [1u8, 0u8].iter().enumerate() {
        let slots = &per_side[usize::from(*side)];
        let top = rect.top() + row as f32 * (row_h + strip);
        let total = slots.len() as f32 * (card_w + 16.0);
        let left = rect.center().x - total / 2.0;
        painter.text(
            egui::pos2(rect.left() + 4.0, top + 2.0),
            egui::Align2::LEFT_TOP,
            format!(
                "Side {}: {}",
                if *side == 0 { "A" } else { "B" },
                side_names(setup, names, *side)
            ),
            egui::FontId::proportional(13.0),
            visuals.strong_text_color(),
        );
        for (k, &s) in slots.iter().enumerate() {
            let c = &setup.chars[s];
            let x = left + k as f32 * (card_w + 16.0) + 8.0;
            let card =
                egui::Rect::from_min_size(egui::pos2(x, top + 18.0), egui::vec2(card_w, card_h));
            let alive = st.is_alive(s);
            let response = ui
                .interact(
                    card,
                    egui::Id::unique(("iconica-board-char", s)),
                    egui::Sense::click(),
                )
                .on_hover_text({
                    let statuses: Vec<&str> = st.statuses(s).map(|x| x.name()).collect();
                    format!(
                        "{}: {} / {}{}; Action Break {}",
                        setup.label(s),
                        st.hp[s],
                        c.start,
                        if statuses.is_empty() {
                            String::new()
                        } else {
                            format!(", {}", statuses.join(", "))
                        },
                        c.action_break
                    )
                });
            let label = format!("{} on the board", setup.label(s));
            response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Button, true, &label));
            pictures.paint(ui, cat, setup.id(s), setup.label(s), card, alive);
            if !alive {
                painter.text(
                    card.center(),
                    egui::Align2::CENTER_CENTER,
                    "SKULLED",
                    egui::FontId::proportional((card_w / 6.0).clamp(10.0, 22.0)),
                    egui::Color32::from_rgb(230, 60, 50),
                );
            }
            // The acting character and its target; the characters a person may click.
            let outline = if step.actor == Some(s as u8) {
                Some((egui::Color32::from_rgb(240, 190, 30), 4.0))
            } else if step.target == Some(s as u8) {
                Some((egui::Color32::from_rgb(220, 50, 50), 4.0))
            } else if clickable.contains_key(&(s as u8)) {
                Some((
                    visuals.selection.stroke.color,
                    if response.hovered() { 4.0 } else { 2.0 },
                ))
            } else {
                None
            };
            if let Some((color, width)) = outline {
                painter.rect_stroke(
                    card.expand(3.0),
                    6.0,
                    egui::Stroke::new(width, color),
                    egui::StrokeKind::Outside,
                );
            }
            if response.clicked()
                && let Some(&i) = clickable.get(&(s as u8))
            {
                chosen = Some(i);
            }
            // Under the card: the meter, health, statuses and the Action Break icon.
            let y = card.bottom() + 6.0;
            meter(
                &painter,
                egui::Rect::from_min_size(egui::pos2(x, y), egui::vec2(card_w, 8.0)),
                st.hp[s],
                c.start,
                alive,
            );
            painter.text(
                egui::pos2(x, y + 12.0),
                egui::Align2::LEFT_TOP,
                if alive {
                    format!("{} / {}", st.hp[s], c.start)
                } else {
                    "Skulled".into()
                },
                egui::FontId::proportional(12.0),
                visuals.text_color(),
            );
            let lit = break_lit(setup, st, step.roll, s);
            // Narrow cards: the icon on its own row, the statuses as dots beside it (named
            // in the card's hover text).
            let narrow = small || card_w < 140.0;
            let icon = if narrow {
                egui::Rect::from_min_size(egui::pos2(x, y + 29.0), egui::vec2(34.0, 16.0))
            } else {
                egui::Rect::from_min_size(
                    egui::pos2(card.right() - 34.0, y + 11.0),
                    egui::vec2(34.0, 16.0),
                )
            };
            painter.rect_filled(
                icon,
                8.0,
                if lit {
                    egui::Color32::from_rgb(250, 200, 40)
                } else {
                    visuals.faint_bg_color
                },
            );
            painter.rect_stroke(
                icon,
                8.0,
                egui::Stroke::new(1.0, egui::Color32::GRAY),
                egui::StrokeKind::Inside,
            );
            let ink = if lit {
                egui::Color32::BLACK
            } else {
                visuals.weak_text_color()
            };
            club(
                &painter,
                egui::pos2(icon.left() + 10.0, icon.center().y - 1.0),
                3.0,
                ink,
            );
            painter.text(
                egui::pos2(icon.left() + 18.0, icon.center().y),
                egui::Align2::LEFT_CENTER,
                c.action_break.to_string(),
                egui::FontId::proportional(12.0),
                ink,
            );
            let (mut sx, sy) = if narrow {
                (x + 42.0, y + 37.0)
            } else {
                (x, y + 38.0)
            };
            for status in st.statuses(s) {
                let name = status.name();
                painter.circle_filled(
                    egui::pos2(sx + 6.0, sy),
                    6.0,
                    super::watch::status_color(name),
                );
                if narrow {
                    sx += 15.0;
                    continue;
                }
                let g = painter.layout_no_wrap(
                    name.to_string(),
                    egui::FontId::proportional(11.0),
                    visuals.text_color(),
                );
                let w = g.size().x;
                painter.galley(egui::pos2(sx + 14.0, sy - 7.0), g, visuals.text_color());
                sx += 20.0 + w;
            }
        }
    }
    // The Action Roll between the rows.
    let mid = rect.top() + row_h + strip / 2.0;
    let die = (strip - 16.0).clamp(18.0, 40.0);
    let cx = rect.center().x;
    painter.text(
        egui::pos2(cx - die - 16.0, mid),
        egui::Align2::RIGHT_CENTER,
        "Action Roll",
        egui::FontId::proportional(14.0),
        visuals.text_color(),
    );
    for (k, (fill, ink)) in [
        (egui::Color32::WHITE, egui::Color32::BLACK),
        (egui::Color32::from_gray(30), egui::Color32::WHITE),
    ]
    .into_iter()
    .enumerate()
    {
        let r = egui::Rect::from_center_size(
            egui::pos2(cx - die / 2.0 - 4.0 + k as f32 * (die + 8.0), mid),
            egui::vec2(die, die),
        );
        painter.rect_filled(r, 5.0, fill);
        painter.rect_stroke(
            r,
            5.0,
            egui::Stroke::new(1.0, egui::Color32::GRAY),
            egui::StrokeKind::Inside,
        );
        if let Some((white, black)) = step.roll {
            painter.text(
                r.center(),
                egui::Align2::CENTER_CENTER,
                (if k == 0 { white } else { black }).to_string(),
                egui::FontId::proportional(die * 0.6),
                ink,
            );
        }
    }
    let said = match step.roll {
        Some((w, b)) if (0..setup.chars.len()).any(|s| break_lit(setup, st, step.roll, s)) => {
            format!("white {w}, black {b}: an Action Break matches")
        }
        Some((w, b)) => format!("white {w}, black {b}"),
        None => "not rolled yet this turn".into(),
    };
    painter.text(
        egui::pos2(cx + die + 16.0, mid),
        egui::Align2::LEFT_CENTER,
        said,
        egui::FontId::proportional(13.0),
        visuals.text_color(),
    );
    chosen
}

/// The names of side `side`'s players' parties (two in a team game).
fn side_names(setup: &Setup, names: &[String], side: u8) -> String {
    (0..setup.player_side.len())
        .filter(|&p| setup.player_side[p] == side)
        .filter_map(|p| names.get(p).map(String::as_str))
        .collect::<Vec<_>>()
        .join(" & ")
}

/// The Action Break icon (a club, as the cards print it) centred at `c`, leaves of radius `r`.
fn club(painter: &egui::Painter, c: egui::Pos2, r: f32, color: egui::Color32) {
    for (dx, dy) in [(0.0, -1.1), (-1.0, 0.5), (1.0, 0.5)] {
        painter.circle_filled(c + egui::vec2(dx * r, dy * r), r, color);
    }
    painter.add(egui::Shape::convex_polygon(
        vec![
            c + egui::vec2(0.0, 0.0),
            c + egui::vec2(-r, 2.6 * r),
            c + egui::vec2(r, 2.6 * r),
        ],
        color,
        egui::Stroke::NONE,
    ));
}

/// The damage marker's place on the meter between the Skull Tile (left) and Start.
fn meter(painter: &egui::Painter, rect: egui::Rect, health: u16, start: u16, alive: bool) {
    painter.rect_filled(rect, 3.0, egui::Color32::from_gray(60));
    if !alive {
        return;
    }
    let f = (f32::from(health) / f32::from(start.max(1))).min(1.0);
    let color = if f > 0.5 {
        egui::Color32::from_rgb(60, 170, 80)
    } else if f > 0.25 {
        egui::Color32::from_rgb(220, 160, 40)
    } else {
        egui::Color32::from_rgb(210, 60, 50)
    };
    let filled = egui::Rect::from_min_size(rect.min, egui::vec2(rect.width() * f, rect.height()));
    painter.rect_filled(filled, 3.0, color);
    // The marker on its tile.
    let x = rect.left() + rect.width() * f;
    painter.circle_filled(
        egui::pos2(x, rect.center().y),
        rect.height() * 0.8,
        egui::Color32::BLACK,
    );
    painter.circle_stroke(
        egui::pos2(x, rect.center().y),
        rect.height() * 0.8,
        egui::Stroke::new(1.5, egui::Color32::WHITE),
    );
}
