//! Iconica on a drawn board: one match kept as its start (the two parties compiled into a
//! `Setup`), the seed and every input (decisions and chance outcomes); the position shown at
//! step k is the start with the first k inputs replayed. Played and watched matches both use
//! it: Back and Forward walk the match decision by decision, the log lines of the step are
//! highlighted, a person decides by clicking a character (then a target) or an option, the
//! computer's decisions are shown one at a time, and Undo takes back the person's last
//! decision (the match replays from the seed).

use crate::app::commands::UiCommand;
use std::collections::HashMap;
use std::sync::Arc;

use super::MatchOptions;
use super::job::Thinking;
pub use super::pictures::Pictures;
use crate::catalogue::Catalogue;
use crate::games::ai::Policy;
use crate::games::game::{Chance, Game, Turn};
use crate::games::iconica::engine::{Breaks, Event, IconicaGame, Opt, Ruleset, Setup, State};
use crate::games::iconica::matchfile;
use crate::games::record::{Inputs, MatchRecord, RecordError, checked_replay};
use crate::games::session;
use crate::sim::iconica::{self as matches, MemberEnd};

pub use super::Seat;

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

/// A match replayed input by input: each step's position and the log.
#[derive(Debug, Clone, Default)]
pub struct Timeline {
    /// `steps[k]`: the position after the first k inputs.
    pub steps: Vec<Step>,
    pub lines: Vec<Line>,
    /// For each input, the chance it answered (`None`: a decision).
    pub chances: Vec<Option<Chance>>,
}

impl Timeline {
    /// Replays `inputs` from the start of `setup`'s match.
    pub fn build(setup: &Setup, inputs: &[usize]) -> Timeline {
        let mut g = IconicaGame::new(setup);
        let mut t = Timeline::default();
        let (mut roll, mut actor, mut target) = (None, None, None);
        t.steps.push(step(&g, roll, actor, target));
        for (k, &i) in inputs.iter().enumerate() {
            t.chances.push(match g.turn() {
                Turn::Chance(c) => Some(c),
                _ => None,
            });
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

/// One Iconica match on the board.
pub struct IconicaMatch {
    pub setup: Arc<Setup>,
    /// The parties' names and members (card ids) in play order (side a first).
    pub names: [String; 2],
    pub members: [Vec<String>; 2],
    pub options: MatchOptions,
    pub seats: [Seat; 2],
    pub seed: u64,
    /// Every input so far, in order.
    pub inputs: Vec<usize>,
    /// The step shown: the position after the first `at` inputs.
    pub at: usize,
    pub timeline: Timeline,
    /// Show the computer's decisions one at a time (else at once).
    pub animate: bool,
    /// When the shown step last moved on by itself (`egui` time, seconds).
    last_move: Option<f64>,
    /// The shown step is catching up with the computer's decisions (not a step the person
    /// went back to).
    catching_up: bool,
    /// The step the log was last scrolled to (it scrolls when the step changes).
    scrolled: Option<usize>,
}

/// Seconds between two of the computer's decisions shown one at a time.
pub const PACE: f64 = 0.6;

impl IconicaMatch {
    /// A new match of `setup` at its start (the view's computer's turn then plays up to the
    /// first decision of a person, or the end).
    pub fn new(
        setup: Arc<Setup>,
        names: [String; 2],
        members: [Vec<String>; 2],
        options: MatchOptions,
        seats: [Seat; 2],
    ) -> IconicaMatch {
        IconicaMatch::replayed(setup, names, members, options, seats, Vec::new())
    }

    /// A match of `setup` with `inputs` replayed (a watched or recorded match), shown from
    /// the start.
    pub fn replayed(
        setup: Arc<Setup>,
        names: [String; 2],
        members: [Vec<String>; 2],
        options: MatchOptions,
        seats: [Seat; 2],
        inputs: Vec<usize>,
    ) -> IconicaMatch {
        let timeline = Timeline::build(&setup, &inputs);
        IconicaMatch {
            setup,
            names,
            members,
            seed: options.seed,
            options,
            seats,
            inputs,
            at: 0,
            timeline,
            animate: true,
            last_move: None,
            catching_up: false,
            scrolled: None,
        }
    }

    /// The step shown.
    pub fn shown(&self) -> &Step {
        &self.timeline.steps[self.at.min(self.timeline.steps.len() - 1)]
    }

    /// The last step (where play stands).
    pub fn last(&self) -> &Step {
        self.timeline.steps.last().expect("the start is a step")
    }

    /// Whether the match is over.
    pub fn over(&self) -> bool {
        matches!(self.last().turn, Turn::Over)
    }

    /// The side whose decision the person takes now (at the last step, shown), if any.
    pub fn person_to_decide(&self) -> Option<usize> {
        if self.at != self.inputs.len() {
            return None;
        }
        match self.last().turn {
            Turn::Seat { seat, .. } if self.seats.get(seat) == Some(&Seat::Person) => Some(seat),
            _ => None,
        }
    }

    /// Both sides at the step shown.
    pub fn sides(&self) -> [Vec<MemberEnd>; 2] {
        matches::sides(&self.setup, &self.shown().state)
    }

    /// The person takes option `i` of the decision at the last step.
    pub fn decide(&mut self, i: usize) {
        let Some(_) = self.person_to_decide() else {
            return;
        };
        let Turn::Seat { options, .. } = self.last().turn else {
            return;
        };
        if i >= options {
            return;
        }
        self.inputs.push(i);
        self.at = self.inputs.len();
        self.timeline = Timeline::build(&self.setup, &self.inputs);
    }

    /// Starts the computer's turn when the last step is reached and chance or a computer is
    /// to move: the seed's dice in order (past the chance inputs already taken) and the
    /// computer's decisions, on a background job until a person must decide or the match is
    /// over.
    pub fn computer_turn(&self, ctx: &egui::Context) -> Option<Result<Thinking, String>> {
        match self.last().turn {
            Turn::Over => return None,
            Turn::Seat { seat, .. } if self.seats.get(seat) == Some(&Seat::Person) => {
                return None;
            }
            _ => {}
        }
        let setup = self.setup.clone();
        let inputs = self.inputs.clone();
        let seats: Vec<session::Seat> = self
            .seats
            .iter()
            .map(|s| match s {
                Seat::Person => session::Seat::Person,
                Seat::Computer(name) => {
                    session::Seat::Computer(Policy::parse(name).unwrap_or(Policy::Greedy))
                }
            })
            .collect();
        let seed = self.seed;
        Some(Thinking::start(ctx, inputs.len(), move |stop, done| {
            let mut g = IconicaGame::new(&setup);
            let mut dice = matches::seeded_dice(seed);
            for &i in &inputs {
                if let Turn::Chance(c) = g.turn() {
                    c.draw(&mut dice);
                }
                g.apply(i);
            }
            session::computer_turn(
                g,
                inputs.len(),
                &seats,
                seed,
                |_, _, c| c.draw(&mut dice),
                stop,
                done,
            )
        }))
    }

    /// Appends the computer's inputs to a match of `from` inputs (none when the match has
    /// moved on since), then replays the log. The shown step stays where it was when the
    /// computer's decisions are shown one at a time.
    pub fn append(&mut self, from: usize, inputs: Vec<usize>) {
        if self.inputs.len() != from || inputs.is_empty() {
            return;
        }
        self.inputs.extend(inputs);
        self.timeline = Timeline::build(&self.setup, &self.inputs);
        if !self.animate {
            self.at = self.inputs.len();
        }
        self.catching_up = self.at < self.inputs.len();
    }

    /// Takes back the person's last decision: the match goes back to that decision (the
    /// computer's moves after it are dropped; they are played again from the seed).
    pub fn undo(&mut self) -> bool {
        let person = |k: usize| {
            matches!(self.timeline.steps[k].turn,
                Turn::Seat { seat, .. } if self.seats.get(seat) == Some(&Seat::Person))
        };
        let Some(k) = (0..self.inputs.len()).rev().find(|&k| person(k)) else {
            return false;
        };
        self.inputs.truncate(k);
        self.timeline = Timeline::build(&self.setup, &self.inputs);
        self.at = k;
        true
    }

    /// Whether a person has a decision to take back.
    pub fn can_undo(&self) -> bool {
        (0..self.inputs.len()).any(|k| {
            matches!(self.timeline.steps[k].turn,
                Turn::Seat { seat, .. } if self.seats.get(seat) == Some(&Seat::Person))
        })
    }

    /// Moves the shown step on by one when the computer's decisions are shown one at a time
    /// (chance at once, each decision [`PACE`] seconds apart).
    pub fn follow(&mut self, ctx: &egui::Context) {
        if !self.catching_up || self.at >= self.inputs.len() {
            self.catching_up = false;
            self.last_move = None;
            return;
        }
        if !self.animate {
            self.at = self.inputs.len();
            return;
        }
        let now = ctx.input(|i| i.time);
        let since = self.last_move.map_or(PACE, |t| now - t);
        if since >= PACE {
            // Chance inputs go by at once, up to the next decision.
            self.at += 1;
            while self.at < self.inputs.len() && self.timeline.chances[self.at].is_some() {
                self.at += 1;
            }
            self.last_move = Some(now);
        }
        if self.at < self.inputs.len() {
            ctx.request_repaint_after(std::time::Duration::from_secs_f64(PACE / 4.0));
        }
    }

    /// The record of the match (docs/cards.md, "Match records"): every input, the rules,
    /// the parties and their cards, a check of every step.
    pub fn record(&self) -> MatchRecord {
        MatchRecord::of_inputs(
            &IconicaGame::new(&self.setup),
            matchfile::ENGINE,
            self.seed,
            self.seats.iter().map(|s| s.record_name()).collect(),
            Inputs::of(self.inputs.clone()),
            matchfile::options_of(&self.setup, &self.names),
        )
    }

    /// Reopens a recorded Iconica match: its parties compiled again from the record's cards
    /// (a format-1 record's from the catalogue), its inputs checked and replayed.
    pub fn from_record(cat: &Catalogue, r: &MatchRecord) -> Result<IconicaMatch, RecordError> {
        r.expect_game("iconica")?;
        r.expect_engine(matchfile::ENGINE)?;
        let rules = matchfile::rules_of(&r.options)?;
        let parties = matchfile::parties_of(&r.options)?;
        let [(name_a, ids_a), (name_b, ids_b)]: [(String, Vec<String>); 2] = parties
            .try_into()
            .map_err(|_| RecordError::Options("the board plays two parties".into()))?;
        let seat = |k: usize| {
            let name = r.seats.get(k).map_or("greedy", String::as_str);
            Seat::from_record(name)
                .ok_or_else(|| RecordError::Options(format!("unknown seat `{name}`")))
        };
        let seats = [seat(0)?, seat(1)?];
        let mut options = MatchOptions::of_rules(rules, r.seed);
        for (k, s) in seats.iter().enumerate() {
            if let Seat::Computer(p) = s {
                options.policies[k] = p;
            }
        }
        let setup = matchfile::compile(&r.options, cat)?;
        checked_replay(&IconicaGame::new(&setup), &r.inputs)?;
        Ok(IconicaMatch::replayed(
            Arc::new(setup),
            [name_a, name_b],
            [ids_a, ids_b],
            options,
            seats,
            r.inputs.clone(),
        ))
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
    m: &IconicaMatch,
    cat: &Catalogue,
    pictures: &mut Pictures,
) -> Option<usize> {
    let step = m.shown();
    let st = &step.state;
    let setup = &m.setup;
    let deciding = m.person_to_decide().is_some();
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
                m.names[usize::from(*side)]
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
                        c.name,
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
            let label = format!("{} on the board", c.name);
            response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Button, true, &label));
            pictures.paint(ui, cat, &c.id, &c.name, card, alive);
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

/// The log, the lines of the step shown highlighted and scrolled to; later lines faint.
pub fn log_ui(ui: &mut egui::Ui, m: &mut IconicaMatch, id: &str) {
    let scroll = m.scrolled != Some(m.at);
    m.scrolled = Some(m.at);
    egui::ScrollArea::vertical()
        .id_salt(id)
        .auto_shrink([false, false])
        .show(ui, |ui| {
            ui.spacing_mut().item_spacing.y = 2.0;
            for l in &m.timeline.lines {
                if l.heading {
                    ui.add_space(4.0);
                }
                let mut text = egui::RichText::new(&l.text);
                if l.heading {
                    text = text.strong();
                }
                if l.step == m.at && m.at > 0 {
                    let r = ui.label(text.background_color(ui.visuals().selection.bg_fill));
                    if scroll {
                        r.scroll_to_me(None);
                    }
                } else if l.step > m.at {
                    ui.label(text.weak());
                } else {
                    ui.label(text);
                }
            }
        });
}

/// Back, Forward, to the start and the end (the Left and Right arrows step).
pub fn steps_ui(ui: &mut egui::Ui, m: &mut IconicaMatch) {
    ui.horizontal(|ui| {
        let n = m.inputs.len();
        let (left, right) = (
            UiCommand::StepBack.pressed(ui),
            UiCommand::StepForward.pressed(ui),
        );
        if ui
            .add_enabled(m.at > 0, egui::Button::new("Start"))
            .on_hover_text("The position before the first input")
            .clicked()
        {
            m.at = 0;
            m.catching_up = false;
        }
        let back = ui
            .add_enabled(m.at > 0, egui::Button::new("Back"))
            .on_hover_text("One decision (or die) earlier (Left arrow)");
        if (back.clicked() || left) && m.at > 0 {
            m.at -= 1;
            m.catching_up = false;
        }
        let fwd = ui
            .add_enabled(m.at < n, egui::Button::new("Forward"))
            .on_hover_text("One decision (or die) later (Right arrow)");
        if (fwd.clicked() || right) && m.at < n {
            m.at += 1;
            m.catching_up = false;
        }
        if ui
            .add_enabled(m.at < n, egui::Button::new("End"))
            .on_hover_text("Where play stands")
            .clicked()
        {
            m.at = n;
            m.catching_up = false;
        }
        ui.label(format!("Step {} of {n}", m.at));
    });
}

/// The decision of the step shown in words: the question and one button an option
/// (keys 1 to 9 too) when a person decides now; returns the option taken.
pub fn options_ui(ui: &mut egui::Ui, m: &IconicaMatch) -> Option<usize> {
    let step = m.shown();
    if let Turn::Over = step.turn {
        let end = m
            .timeline
            .lines
            .last()
            .map(|l| l.text.as_str())
            .unwrap_or_default();
        ui.heading(end);
        return None;
    }
    let person = m.person_to_decide();
    match step.turn {
        Turn::Seat { seat, .. } if person.is_some() => {
            ui.label(egui::RichText::new(&step.question).strong().size(16.0));
            let _ = seat;
        }
        Turn::Seat { seat, .. } => {
            let who = match m.seats[seat.min(1)] {
                Seat::Person => "you".to_string(),
                Seat::Computer(p) => format!("the computer, {p}"),
            };
            ui.label(format!(
                "Side {} ({who}): {}",
                if seat == 0 { "A" } else { "B" },
                step.question
            ));
            if let Some(&i) = m.inputs.get(m.at) {
                ui.weak(format!(
                    "Chose: {}",
                    step.options.get(i).map_or("", |o| o.1.as_str())
                ));
            }
            return None;
        }
        _ => {
            ui.weak("The dice are rolled.");
            return None;
        }
    }
    let mut chosen = None;
    ui.horizontal_wrapped(|ui| {
        for (i, (_, text)) in step.options.iter().enumerate() {
            let label = if i < 9 {
                format!("[{}] {text}", i + 1)
            } else {
                text.clone()
            };
            if ui.button(label).clicked() {
                chosen = Some(i);
            }
        }
    });
    // A digit typed into a text field (the seed, the turn limit) is not an answer.
    {
        if let Some(n) = UiCommand::option_pressed(ui)
            && n <= step.options.len()
        {
            chosen = Some(n - 1);
        }
    }
    ui.weak("Click a lit character on the board, an option, or press its number.");
    chosen
}
