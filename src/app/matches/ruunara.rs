//! Ruunara on the Match screen: a mission (a bundled example or a file) played by a squad (the
//! Squad screen's, the bundled example or a file), the heroes played by a person or a policy,
//! the enemies run by the rules inside the engine. The table is drawn from above; a person
//! places each member deployed in a zone by clicking or dragging into the highlighted zone,
//! drags the active hero within its movement and takes the other decisions from the options
//! in words (keys 1-9) or by clicking the figure they concern.
//!
//! Every decision is recorded and the dice come from one seeded stream, so the position at
//! step k is the mission replayed from the seed with the first k decisions ([`Played::game`]):
//! Back and Forward walk the match decision by decision, and through the enemies' turn a
//! decision sets off enemy by enemy (the step replayed with the engine pausing in front of
//! the next enemy, [`RuunaraGame::watch_enemies`]); deciding at an earlier step plays on from
//! there (an undo).

use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use super::job::{ComputerTurn, Thinking, TurnStep};
use super::sim_view::{Ask, SimView, Words};
use crate::cards::{Card, CardLookup};
use crate::games::ai::{Agent, Policy};
use crate::games::dice::{RngDice, game_seed};
use crate::games::game::{Game, Outcome, Turn};
use crate::games::record::{Inputs, MatchRecord, PointInput, RecordError, replay_record};
use crate::games::ruunara::engine::{
    BASE_R, Event, NoLog, Opt, Path, Phase, Pt, RuunaraEnding, RuunaraEval, RuunaraGame, Setup,
    Status,
};
use crate::games::ruunara::matchfile;
use crate::games::ruunara::mission::{Objective, SceneryKind, Zone};
use crate::games::ruunara::squad::SquadFile;
use crate::games::session::{self, TurnEnd};
use crate::sim::play_seeded;

/// The bundled example missions: their file names and texts.
pub const MISSIONS: [(&str, &str); 4] = [
    (
        "eliminate.mission.toml",
        include_str!("../../../examples/ruunara/eliminate.mission.toml"),
    ),
    (
        "rescue.mission.toml",
        include_str!("../../../examples/ruunara/rescue.mission.toml"),
    ),
    (
        "reach.mission.toml",
        include_str!("../../../examples/ruunara/reach.mission.toml"),
    ),
    (
        "survive.mission.toml",
        include_str!("../../../examples/ruunara/survive.mission.toml"),
    ),
];

/// The bundled example squad.
pub const EXAMPLE_SQUAD: &str =
    include_str!("../../../examples/ruunara/legal-free-play-mix.squad.toml");

/// Where the squad comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SquadSource {
    /// The Squad screen's current squad.
    Screen,
    /// The bundled example squad.
    Example,
    /// A squad file (its path).
    File(PathBuf),
}

/// Where the mission comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MissionSource {
    /// One of [`MISSIONS`].
    Bundled(usize),
    File(PathBuf),
}

/// Who plays the heroes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Heroes {
    Person,
    /// A policy by name (`first`, `random`, `greedy`, `mcts`).
    Computer(&'static str),
}

impl Heroes {
    fn label(self) -> String {
        match self {
            Heroes::Person => "a person".into(),
            Heroes::Computer(p) => format!("the computer ({p})"),
        }
    }
}

/// One decision of the heroes' seat.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Input {
    /// Option `i` of the decision.
    Pick(usize),
    /// The active hero moved along a dragged path.
    Drag(Path),
    /// The member being deployed dropped at a point of its zone.
    Drop(Pt),
}

pub use crate::games::ruunara::matchfile::Source;

/// The mission compiled with `squad` ([`matchfile::compile`]), and what it was made from
/// (the cards it looked up kept, for its record).
pub fn deploy(
    lookup: &dyn CardLookup,
    mission_text: &str,
    mission_file: &str,
    squad: &SquadFile,
) -> Result<(Setup, Source), String> {
    matchfile::deploy(lookup, mission_text, mission_file, squad).map(|(c, src)| (c.setup, src))
}

/// A played match as the Match view shows it ([`Played::history`]).
pub struct History {
    pub lines: Vec<(usize, String)>,
    pub frames: Vec<(usize, Option<usize>)>,
}

/// One mission and its recorded decisions.
pub struct Played {
    pub setup: Arc<Setup>,
    /// What the setup was made from.
    pub source: Arc<Source>,
    pub heroes: Heroes,
    pub seed: u64,
    /// Every decision so far, in order (the dice come from the seed).
    pub inputs: Vec<Input>,
    /// The step shown: the position after the first `at` decisions.
    pub at: usize,
    /// Watching the enemies' turn that decision `at` set off: how many enemies have acted
    /// (`None`: the whole step, its dice and every enemy).
    pub watch: Option<usize>,
}

impl Input {
    /// Takes this decision at `g`, logging what happens: an option, the dragged hero's
    /// path, or the member's drop.
    fn apply(self, g: &mut RuunaraGame<'_>, log: &mut Vec<Event>) {
        match self {
            Input::Pick(i) => g.step(i, log),
            Input::Drag(p) => {
                g.apply_path(p, log);
            }
            Input::Drop(at) => {
                g.apply_drop(at, log);
            }
        }
    }
}

/// Rolls every die the game waits for from `dice`, each outcome kept in `inputs`.
fn roll_into(g: &mut RuunaraGame<'_>, dice: &mut RngDice, inputs: &mut Vec<usize>) {
    while let Turn::Chance(c) = g.turn() {
        match c.draw(dice) {
            Some(o) => {
                inputs.push(o);
                g.step(o, &mut NoLog);
            }
            None => return,
        }
    }
}

/// Rolls every die the game waits for from `dice`.
fn roll(g: &mut RuunaraGame<'_>, dice: &mut RngDice, log: &mut Vec<Event>) {
    while let Turn::Chance(c) = g.turn() {
        match c.draw(dice) {
            Some(o) => g.step(o, log),
            None => {
                g.exhausted(log);
                return;
            }
        }
    }
}

impl super::play::Recorded for Played {
    /// The record of the match (docs/cards.md, "Match records"): every input, the dice the
    /// seed rolled among them; a drag or a drop is a point, offered as the option index the
    /// engine gives it ([`Game::offer_point`]).
    fn record(&self) -> MatchRecord {
        let mut dice = RngDice::new(self.seed);
        let mut g = RuunaraGame::start(&self.setup, &mut NoLog);
        let mut inputs = Vec::new();
        let mut points = Vec::new();
        roll_into(&mut g, &mut dice, &mut inputs);
        for input in &self.inputs {
            let i = match *input {
                Input::Pick(i) => Some(i),
                Input::Drag(p) => p.end().and_then(|end| {
                    points.push(PointInput {
                        step: inputs.len(),
                        x: end.x,
                        y: end.y,
                    });
                    g.offer_point(end.x, end.y)
                }),
                Input::Drop(at) => {
                    points.push(PointInput {
                        step: inputs.len(),
                        x: at.x,
                        y: at.y,
                    });
                    g.offer_point(at.x, at.y)
                }
            };
            // Every input was legal where it was taken: the engine offered it then.
            let Some(i) = i else { break };
            inputs.push(i);
            g.step(i, &mut NoLog);
            roll_into(&mut g, &mut dice, &mut inputs);
        }
        MatchRecord::of_inputs(
            &RuunaraGame::new(&self.setup),
            matchfile::ENGINE,
            self.seed,
            vec![match self.heroes {
                Heroes::Person => "person".to_string(),
                Heroes::Computer(p) => p.to_string(),
            }],
            Inputs {
                inputs,
                points,
                exhausted: false,
            },
            matchfile::options(&self.source),
        )
    }

    fn replayed(&self) -> usize {
        self.inputs.len()
    }
}

impl Played {
    /// A mission not yet begun: its deployment shown, no decision taken.
    pub fn new(setup: Setup, source: Source, heroes: Heroes, seed: u64) -> Played {
        Played {
            setup: Arc::new(setup),
            source: Arc::new(source),
            heroes,
            seed,
            inputs: Vec::new(),
            at: 0,
            watch: None,
        }
    }

    /// The game after the first `k` decisions and the log, each line with the step it belongs
    /// to (0: the deployment; j: the events of the j-th decision and the dice after it).
    /// With `watch`, the k-th decision's enemies' turn stops in front of the enemy after
    /// that many have acted.
    fn run(&self, k: usize, watch: Option<usize>) -> (RuunaraGame<'_>, Vec<(usize, Event)>) {
        let mut dice = RngDice::new(self.seed);
        let mut ev = Vec::new();
        let mut g = RuunaraGame::start(&self.setup, &mut ev);
        roll(&mut g, &mut dice, &mut ev);
        let mut lines: Vec<(usize, Event)> = ev.drain(..).map(|e| (0, e)).collect();
        for (j, input) in self.inputs[..k].iter().enumerate() {
            if j + 1 == k
                && let Some(w) = watch
            {
                g.watch_enemies(w);
            }
            input.apply(&mut g, &mut ev);
            roll(&mut g, &mut dice, &mut ev);
            lines.extend(ev.drain(..).map(|e| (j + 1, e)));
        }
        (g, lines)
    }

    /// The game at the step shown.
    pub fn game(&self) -> RuunaraGame<'_> {
        self.run(self.at, self.watch).0
    }

    /// The game after every decision.
    pub fn last(&self) -> RuunaraGame<'_> {
        self.run(self.inputs.len(), None).0
    }

    /// The whole match, replayed once: its log in words, each line with its step (while an
    /// enemies' turn is watched, the lines of the step shown still to come count as the next
    /// step's), and every position Back and Forward walk through, in order: the deployment,
    /// then for each decision the enemies' turn it sets off enemy by enemy (`(k, Some(w))`:
    /// in front of the enemy after `w` have acted) and the position after it (`(k, None)`).
    pub fn history(&self) -> History {
        let (g, lines) = self.run(self.inputs.len(), None);
        let mut enemies = vec![0; self.inputs.len() + 1];
        // A watched step shows its lines up to the Activate of the enemy it paused before.
        let mut shown_in_step = None;
        let mut in_step = 0;
        for (k, e) in &lines {
            if let Event::Activate { fig } = e
                && self.setup.figs[usize::from(*fig)].run_by_rules()
            {
                if *k == self.at && Some(enemies[*k]) == self.watch && shown_in_step.is_none() {
                    shown_in_step = Some(in_step);
                }
                enemies[*k] += 1;
            }
            if *k == self.at {
                in_step += 1;
            }
        }
        let mut in_step = 0;
        let lines = lines
            .iter()
            .map(|(k, e)| {
                let mut k = *k;
                if k == self.at {
                    in_step += 1;
                    if shown_in_step.is_some_and(|n| in_step > n) {
                        k += 1;
                    }
                }
                (k, g.event_text(e))
            })
            .collect();
        let mut frames = vec![(0, None)];
        for (k, &m) in enemies.iter().enumerate().skip(1) {
            frames.extend((0..m).map(|w| (k, Some(w))));
            frames.push((k, None));
        }
        History { lines, frames }
    }

    /// The whole log in words ([`Played::history`]).
    pub fn log(&self) -> Vec<(usize, String)> {
        self.history().lines
    }

    /// Every position Back and Forward walk through ([`Played::history`]).
    pub fn frames(&self) -> Vec<(usize, Option<usize>)> {
        self.history().frames
    }

    /// Whether the mission is over after the last decision.
    pub fn over(&self) -> bool {
        matches!(self.last().turn(), Turn::Over)
    }

    /// Takes `input` at the step shown (dropping any later decisions).
    pub fn decide(&mut self, input: Input) {
        self.inputs.truncate(self.at);
        self.inputs.push(input);
        self.at = self.inputs.len();
        self.watch = None;
    }

    /// Starts the computer's turn when the heroes are the computer's and the last step is
    /// shown: its decisions, each seeded by its index among the decisions, with the seed's
    /// dice rolled after each, on a background job until the mission is over.
    fn computer_turn(&self, ctx: &egui::Context) -> Option<Result<Thinking, String>> {
        let Heroes::Computer(name) = self.heroes else {
            return None;
        };
        if self.at != self.inputs.len() || self.watch.is_some() {
            return None;
        }
        if !matches!(self.last().turn(), Turn::Seat { .. }) {
            return None;
        }
        let policy = Policy::parse(name).unwrap_or(Policy::Greedy);
        let setup = self.setup.clone();
        let inputs = self.inputs.clone();
        let seed = self.seed;
        Some(Thinking::start(ctx, inputs.len(), move |stop, done| {
            // The mission replayed to its end, the dice stream with it.
            let mut dice = RngDice::new(seed);
            let mut ev = Vec::new();
            let mut g = RuunaraGame::start(&setup, &mut ev);
            roll(&mut g, &mut dice, &mut ev);
            for input in &inputs {
                input.apply(&mut g, &mut ev);
                roll(&mut g, &mut dice, &mut ev);
                ev.clear();
            }
            let mut picks = Vec::new();
            let end = loop {
                if stop.load(std::sync::atomic::Ordering::Relaxed) {
                    break TurnEnd::Stopped;
                }
                let Turn::Seat { seat, options } = g.turn() else {
                    break TurnEnd::Over;
                };
                // Each decision has its own seed: the same mission and decisions choose the same.
                let k = inputs.len() + picks.len();
                let i = Agent::<RuunaraEval>::new(policy, session::decision_seed(seed, k))
                    .stopped_by(stop.clone())
                    .choose(&g, seat, options);
                if stop.load(std::sync::atomic::Ordering::Relaxed) {
                    break TurnEnd::Stopped;
                }
                g.step(i, &mut ev);
                roll(&mut g, &mut dice, &mut ev);
                ev.clear();
                picks.push(i);
                done(picks.len());
            };
            (picks, end)
        }))
    }

    /// Appends the computer's decisions to a match of `from` decisions (none when the match
    /// has moved on since).
    fn append(&mut self, from: usize, picks: Vec<usize>) {
        if self.inputs.len() != from || self.at != from || self.watch.is_some() {
            return;
        }
        self.inputs.extend(picks.into_iter().map(Input::Pick));
        self.at = self.inputs.len();
    }
}

impl Played {
    /// Reopens a recorded match from the record alone: the mission and squad deployed again
    /// with the recorded cards, every decision checked against the position it is taken at
    /// (a drag must end where the hero may go, within its movement; a drop must be where the
    /// member may deploy), shown at its last step.
    pub fn from_record(r: &MatchRecord) -> Result<Played, RecordError> {
        r.expect_game("ruunara")?;
        if r.format >= 2 {
            return Played::from_record_v2(r);
        }
        let bad = |m: String| RecordError::Options(m);
        let heroes = heroes_of(r)?;
        let o = &r.options;
        let text = |key: &str| {
            o.get(key)
                .and_then(toml::Value::as_str)
                .ok_or_else(|| bad(format!("`{key}` is not a text")))
        };
        let (mission, mission_file) = (text("mission")?, text("mission_file")?);
        let squad: SquadFile = o
            .get("squad")
            .cloned()
            .ok_or_else(|| bad("`squad` is missing".into()))?
            .try_into()
            .map_err(|e| bad(format!("`squad`: {e}")))?;
        let cards = o
            .get("cards")
            .and_then(toml::Value::as_array)
            .ok_or_else(|| bad("`cards` is not a list".into()))?
            .iter()
            .enumerate()
            .map(|(k, c)| {
                let t = c
                    .as_str()
                    .ok_or_else(|| bad(format!("card {k} is not a text")))?;
                match crate::cards::parse_card(t, "the match file") {
                    Ok(c @ Card::Ruunara(_)) => Ok(c),
                    Ok(c) => Err(bad(format!("card {k} ({}) is not a Ruunara card", c.id()))),
                    Err(e) => Err(bad(format!("card {k}: {e}"))),
                }
            })
            .collect::<Result<Vec<Card>, _>>()?;
        let drags = o
            .get("drags")
            .and_then(toml::Value::as_array)
            .ok_or_else(|| bad("`drags` is not a list".into()))?
            .iter()
            .map(|d| drag_of(d).ok_or_else(|| bad(format!("drag `{d}` is not a step and a path"))))
            .collect::<Result<Vec<(usize, Path)>, _>>()?;
        for (k, (step, _)) in drags.iter().enumerate() {
            if *step >= r.inputs.len() || drags[..k].iter().any(|(s, _)| s == step) {
                return Err(bad(format!("drag at step {step} is not one of the inputs")));
            }
        }
        // Drops came with the deployment phase: a record without them has none.
        let drops = match o.get("drops") {
            None => Vec::new(),
            Some(v) => v
                .as_array()
                .ok_or_else(|| bad("`drops` is not a list".into()))?
                .iter()
                .map(|d| {
                    drop_of(d).ok_or_else(|| bad(format!("drop `{d}` is not a step and a point")))
                })
                .collect::<Result<Vec<(usize, Pt)>, _>>()?,
        };
        for (k, (step, _)) in drops.iter().enumerate() {
            if *step >= r.inputs.len()
                || drops[..k].iter().any(|(s, _)| s == step)
                || drags.iter().any(|(s, _)| s == step)
            {
                return Err(bad(format!("drop at step {step} is not one of the inputs")));
            }
        }
        let (setup, source) =
            deploy(&cards, mission, mission_file, &squad).map_err(RecordError::Options)?;
        let mut inputs = Vec::with_capacity(r.inputs.len());
        {
            let mut dice = RngDice::new(r.seed);
            let mut ev = Vec::new();
            let mut g = RuunaraGame::start(&setup, &mut ev);
            roll(&mut g, &mut dice, &mut ev);
            for (at, &i) in r.inputs.iter().enumerate() {
                ev.clear();
                let illegal = RecordError::Illegal { at, input: i };
                let Turn::Seat { options, .. } = g.turn() else {
                    return Err(illegal);
                };
                let dropped = drops.iter().find(|(s, _)| *s == at).map(|&(_, p)| p);
                let input = match drags.iter().find(|(s, _)| *s == at) {
                    None if dropped.is_some() => {
                        let p = dropped.expect("matched");
                        // offer_drop checks the point: the member's zone, free, room left.
                        if g.offer_drop(p) != Some(i) || i != options {
                            return Err(illegal);
                        }
                        Input::Drop(p)
                    }
                    Some(&(_, p)) => {
                        let Phase::Move(fig) = g.st.phase else {
                            return Err(illegal);
                        };
                        let fig = usize::from(fig);
                        let end = p.end().ok_or(RecordError::Illegal { at, input: i })?;
                        let fits = p.cost.is_finite()
                            && p.cost >= 0.0
                            && p.cost <= setup.figs[fig].movement + 1e-9
                            && g.legal_move_to(fig, end.x, end.y).is_some();
                        if !fits || g.offer_path(p) != Some(i) || i != options {
                            return Err(illegal);
                        }
                        Input::Drag(p)
                    }
                    None if i < options => Input::Pick(i),
                    None => return Err(illegal),
                };
                g.step(i, &mut ev);
                roll(&mut g, &mut dice, &mut ev);
                inputs.push(input);
            }
        }
        Ok(Played {
            setup: Arc::new(setup),
            source: Arc::new(source),
            heroes,
            seed: r.seed,
            at: inputs.len(),
            inputs,
            watch: None,
        })
    }
}

/// Who played the heroes, as a record's one seat says.
fn heroes_of(r: &MatchRecord) -> Result<Heroes, RecordError> {
    let bad = RecordError::Options;
    match r.seats.as_slice() {
        [s] if s == "person" => Ok(Heroes::Person),
        [s] => super::POLICIES
            .iter()
            .find(|(p, _)| p == s)
            .map(|(p, _)| Heroes::Computer(p))
            .ok_or_else(|| bad(format!("unknown seat `{s}`"))),
        s => Err(bad(format!("{} seats; Ruunara has one", s.len()))),
    }
}

impl Played {
    /// Reopens a record of format 2: every input checked (and every step's events, when the
    /// record has its checks), the dice among them the seed's (the view rolls the seed's
    /// dice; a match played with a dice script is `deckwright replay`'s), each point taken
    /// again as the drag or drop it was.
    fn from_record_v2(r: &MatchRecord) -> Result<Played, RecordError> {
        r.expect_engine(matchfile::ENGINE)?;
        let heroes = heroes_of(r)?;
        let src = matchfile::source_of(&r.options)?;
        let (setup, source) = deploy(&src.cards, &src.mission, &src.mission_file, &src.squad)
            .map_err(RecordError::Options)?;
        let mut start_log = Vec::new();
        let start = RuunaraGame::start(&setup, &mut start_log);
        replay_record(start, start_log, r, None)?;
        let mut dice = RngDice::new(r.seed);
        let mut g = RuunaraGame::start(&setup, &mut NoLog);
        let mut inputs = Vec::new();
        for (at, &i) in r.inputs.iter().enumerate() {
            match g.turn() {
                Turn::Chance(c) => {
                    if c.draw(&mut dice) != Some(i) {
                        return Err(RecordError::Options(format!(
                            "the die of input {at} is not the seed's (a match played with a dice script): `deckwright replay` replays it"
                        )));
                    }
                }
                _ => inputs.push(match r.point_at(at) {
                    None => Input::Pick(i),
                    Some((_, p)) => match g.deploying() {
                        Some(_) => Input::Drop(Pt::new(p.x, p.y)),
                        None => {
                            let Phase::Move(fig) = g.st.phase else {
                                return Err(RecordError::Illegal { at, input: i });
                            };
                            let path = g
                                .legal_move_to(usize::from(fig), p.x, p.y)
                                .ok_or(RecordError::Illegal { at, input: i })?;
                            Input::Drag(path)
                        }
                    },
                }),
            }
            if let Some((_, p)) = r.point_at(at) {
                g.offer_point(p.x, p.y);
            }
            g.step(i, &mut NoLog);
        }
        Ok(Played {
            setup: Arc::new(setup),
            source: Arc::new(source),
            heroes,
            seed: r.seed,
            at: inputs.len(),
            inputs,
            watch: None,
        })
    }
}

/// A drop read back from a record, if it is one.
fn drop_of(v: &toml::Value) -> Option<(usize, Pt)> {
    let t = v.as_table()?;
    if t.len() != 2 {
        return None;
    }
    let step = usize::try_from(t.get("step")?.as_integer()?).ok()?;
    let [x, y] = t.get("at")?.as_array()?.as_slice() else {
        return None;
    };
    let (x, y) = (x.as_float()?, y.as_float()?);
    (x.is_finite() && y.is_finite()).then_some((step, Pt::new(x, y)))
}

/// A drag read back from a record, if it is one.
fn drag_of(v: &toml::Value) -> Option<(usize, Path)> {
    let t = v.as_table()?;
    if t.len() != 3 {
        return None;
    }
    let step = usize::try_from(t.get("step")?.as_integer()?).ok()?;
    let cost = t.get("cost")?.as_float()?;
    let pts = t.get("points")?.as_array()?;
    let mut path = Path {
        pts: [Pt::new(0.0, 0.0); 3],
        n: 0,
        cost,
    };
    if pts.is_empty() || pts.len() > path.pts.len() {
        return None;
    }
    for (k, q) in pts.iter().enumerate() {
        let q = q.as_array()?;
        let [x, y] = q.as_slice() else {
            return None;
        };
        let (x, y) = (x.as_float()?, y.as_float()?);
        if !(x.is_finite() && y.is_finite()) {
            return None;
        }
        path.pts[k] = Pt::new(x, y);
    }
    path.n = pts.len() as u8;
    Some((step, path))
}

/// Where the board was drawn: the table's rectangle on screen and its scale.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BoardMap {
    pub rect: egui::Rect,
    /// Points per inch.
    pub scale: f32,
}

impl BoardMap {
    /// The screen point of table point `p` (y grows north, up the screen).
    pub fn to_screen(&self, p: Pt) -> egui::Pos2 {
        egui::pos2(
            self.rect.min.x + p.x as f32 * self.scale,
            self.rect.max.y - p.y as f32 * self.scale,
        )
    }

    /// The table point under screen point `s`.
    pub fn to_table(&self, s: egui::Pos2) -> Pt {
        Pt::new(
            f64::from((s.x - self.rect.min.x) / self.scale),
            f64::from((self.rect.max.y - s.y) / self.scale),
        )
    }
}

/// A file chosen in the dialog, picked up on the next frame.
type Chosen = Arc<Mutex<Option<(bool, PathBuf)>>>;

/// The Ruunara view of the Match screen.
pub struct RuunaraPanel {
    /// Simulate many missions (else play one).
    pub simulate: bool,
    pub sim: SimView,
    pub mission: MissionSource,
    pub squad: SquadSource,
    pub heroes: Heroes,
    pub seed: u64,
    pub played: Option<Played>,
    /// The figure selected on the board.
    pub selected: Option<usize>,
    /// The match file of Save and Open.
    pub path: String,
    /// What the last Save or Open did, when it went well.
    pub note: Option<String>,
    /// Vision arcs of every figure (else the selected one's).
    pub all_arcs: bool,
    /// The figure being dragged and where the pointer is.
    pub dragging: Option<(usize, egui::Pos2)>,
    /// The board as last drawn.
    pub board: Option<BoardMap>,
    pub message: Option<String>,
    chosen: Chosen,
    /// The computer's turn.
    pub turn: ComputerTurn,
}

impl Default for RuunaraPanel {
    fn default() -> Self {
        RuunaraPanel {
            simulate: false,
            sim: SimView::new("ruunara-sim", 500),
            mission: MissionSource::Bundled(0),
            squad: SquadSource::Example,
            heroes: Heroes::Person,
            seed: 1,
            played: None,
            selected: None,
            path: String::new(),
            note: None,
            all_arcs: false,
            dragging: None,
            board: None,
            message: None,
            chosen: Arc::default(),
            turn: ComputerTurn::default(),
        }
    }
}

/// The colour of a scenery kind.
/// A zone of the table (an exit, a deployment zone): filled with `fill`, edged with `edge`.
fn shade_zone(painter: &egui::Painter, r: egui::Rect, fill: egui::Color32, edge: egui::Color32) {
    painter.rect_filled(r, 2.0, fill);
    painter.rect_stroke(
        r,
        2.0,
        egui::Stroke::new(2.0, edge),
        egui::StrokeKind::Inside,
    );
}

fn scenery_color(k: SceneryKind) -> egui::Color32 {
    match k {
        SceneryKind::Wall => egui::Color32::from_rgb(120, 120, 130),
        SceneryKind::Rock => egui::Color32::from_rgb(140, 110, 80),
        SceneryKind::Building => egui::Color32::from_rgb(80, 60, 55),
        SceneryKind::Cliff => egui::Color32::from_rgb(95, 120, 80),
    }
}

fn scenery_name(k: SceneryKind) -> &'static str {
    match k {
        SceneryKind::Wall => "wall",
        SceneryKind::Rock => "rock",
        SceneryKind::Building => "building",
        SceneryKind::Cliff => "cliff",
    }
}

/// The colour of a figure's team.
fn team_color(team: u8) -> egui::Color32 {
    match team {
        0 => egui::Color32::from_rgb(60, 120, 210),
        1 => egui::Color32::from_rgb(200, 60, 50),
        _ => egui::Color32::from_rgb(210, 180, 60),
    }
}

/// The figure an option concerns, if any.
fn opt_figure(o: Opt) -> Option<usize> {
    match o {
        Opt::Activate(j)
        | Opt::Engage(j)
        | Opt::Face(j)
        | Opt::Close(j)
        | Opt::Ranged(j)
        | Opt::Extra { target: j, .. } => Some(usize::from(j)),
        Opt::Skill { target, .. } if target != crate::games::ruunara::engine::state::NONE => {
            Some(usize::from(target))
        }
        _ => None,
    }
}

/// Reads and checks a mission and a squad into a match setup, or says why none can start.
pub fn setup_of(
    cat: &dyn CardLookup,
    mission_text: &str,
    mission_file: &str,
    squad: &SquadFile,
) -> Result<Setup, String> {
    matchfile::compile(cat, mission_text, mission_file, squad).map(|c| c.setup)
}

/// Game `index` of a run seeded `seed`, the heroes played by `policy`: its dice and the
/// policy's seed derived from (`seed`, `index`) as the sim runner derives them.
pub fn outcome(setup: &Setup, policy: Policy, seed: u64, index: u64) -> Outcome<RuunaraEnding> {
    let s = game_seed(seed, index);
    play_seeded(RuunaraGame::new(setup), RngDice::new(s), &[policy], s)
}

impl RuunaraPanel {
    /// The mission's file name and text.
    fn mission_text(&self) -> Result<(String, String), String> {
        match &self.mission {
            MissionSource::Bundled(k) => {
                let (name, text) = MISSIONS[(*k).min(MISSIONS.len() - 1)];
                Ok((name.to_string(), text.to_string()))
            }
            MissionSource::File(p) => std::fs::read_to_string(p)
                .map(|t| (p.display().to_string(), t))
                .map_err(|e| format!("{} cannot be read: {e}", p.display())),
        }
    }

    /// The squad played.
    fn squad_file(&self, env: &super::super::Env) -> Result<SquadFile, String> {
        match &self.squad {
            SquadSource::Screen => Ok(env.docs.squad.clone()),
            SquadSource::Example => {
                SquadFile::parse(EXAMPLE_SQUAD, "example.squad.toml").map_err(|e| e.to_string())
            }
            SquadSource::File(p) => {
                let text = std::fs::read_to_string(p)
                    .map_err(|e| format!("{} cannot be read: {e}", p.display()))?;
                SquadFile::parse(&text, &p.display().to_string()).map_err(|e| e.to_string())
            }
        }
    }

    /// The setup of the mission and squad chosen.
    pub fn setup(&self, env: &super::super::Env) -> Result<Setup, String> {
        let (name, text) = self.mission_text()?;
        let squad = self.squad_file(env)?;
        setup_of(env.cat, &text, &name, &squad)
    }

    /// Starts a new mission with the choices set.
    pub fn new_game(&mut self, env: &super::super::Env) {
        let made = self
            .mission_text()
            .and_then(|(name, text)| deploy(env.cat, &text, &name, &self.squad_file(env)?));
        match made {
            Ok((setup, source)) => {
                self.played = Some(Played::new(setup, source, self.heroes, self.seed));
                self.turn.reset();
                self.selected = None;
                self.dragging = None;
                self.message = None;
            }
            Err(e) => {
                self.played = None;
                self.message = Some(e);
            }
        }
    }

    /// Whether a simulation is running.
    pub fn simulating(&self) -> bool {
        self.sim.running()
    }

    pub fn ui(&mut self, ui: &mut egui::Ui, env: &mut super::super::Env) {
        if let Some((mission, path)) = self.chosen.lock().map(|mut c| c.take()).unwrap_or(None) {
            if mission {
                self.mission = MissionSource::File(path);
            } else {
                self.squad = SquadSource::File(path);
            }
        }
        ui.horizontal(|ui| {
            ui.selectable_value(&mut self.simulate, false, "Play one mission")
                .on_hover_text("Play one mission on the table, step through it");
            ui.selectable_value(&mut self.simulate, true, "Simulate missions")
                .on_hover_text("Play many seeded missions and read the heroes' win rate");
        });
        self.choices_ui(ui, env);
        if self.simulate {
            if let Some(m) = &self.message {
                ui.colored_label(ui.visuals().error_fg_color, m);
            }
            self.sim_ui(ui, env);
            return;
        }
        self.file_ui(ui);
        // One line, always there (empty, or the refusal, or else the note; the whole of it in
        // the hover): a refusal showing up must not shrink the table under it.
        let (text, color) = match (&self.message, &self.note) {
            (Some(m), _) => (m.as_str(), ui.visuals().error_fg_color),
            (None, Some(n)) => (n.as_str(), ui.visuals().text_color()),
            (None, None) => ("", ui.visuals().text_color()),
        };
        let size = egui::vec2(
            ui.available_width(),
            ui.text_style_height(&egui::TextStyle::Body),
        );
        let line = ui
            .allocate_ui_with_layout(
                size,
                egui::Layout::left_to_right(egui::Align::Center),
                |ui| {
                    ui.set_min_size(size);
                    ui.add(egui::Label::new(egui::RichText::new(text).color(color)).truncate())
                },
            )
            .inner;
        if !text.is_empty() {
            line.on_hover_text(text);
        }
        self.play_ui(ui);
    }

    /// The match file row: Save the match shown, Open a saved one (it replays exactly).
    fn file_ui(&mut self, ui: &mut egui::Ui) {
        let opened = super::play::record_row(
            ui,
            &mut self.path,
            self.played.as_ref(),
            super::play::Row {
                id: "ruunara",
                unit: "decisions",
            },
            &mut self.note,
            &mut self.message,
            Played::from_record,
        );
        if let Some(p) = opened {
            self.heroes = p.heroes;
            self.seed = p.seed;
            self.played = Some(p);
            self.turn.reset();
            self.selected = None;
            self.dragging = None;
        }
    }

    fn choices_ui(&mut self, ui: &mut egui::Ui, env: &mut super::super::Env) {
        ui.horizontal_wrapped(|ui| {
            let label = ui.label("Mission");
            let shown = match &self.mission {
                MissionSource::Bundled(k) => MISSIONS[*k].0.to_string(),
                MissionSource::File(p) => p.display().to_string(),
            };
            egui::ComboBox::from_id_salt("ruunara-mission")
                .selected_text(shown)
                .show_ui(ui, |ui| {
                    for (k, (name, _)) in MISSIONS.iter().enumerate() {
                        ui.selectable_value(&mut self.mission, MissionSource::Bundled(k), *name);
                    }
                })
                .response
                .labelled_by(label.id);
            if ui
                .button("Mission file…")
                .on_hover_text("Open a *.mission.toml file")
                .clicked()
            {
                self.ask_file(ui.ctx(), env, true);
            }
            let label = ui.label("Squad");
            let shown = match &self.squad {
                SquadSource::Screen => "the Squad screen's".to_string(),
                SquadSource::Example => "the example squad".to_string(),
                SquadSource::File(p) => p.display().to_string(),
            };
            egui::ComboBox::from_id_salt("ruunara-squad")
                .selected_text(shown)
                .show_ui(ui, |ui| {
                    ui.selectable_value(&mut self.squad, SquadSource::Screen, "the Squad screen's");
                    ui.selectable_value(&mut self.squad, SquadSource::Example, "the example squad");
                })
                .response
                .labelled_by(label.id);
            if ui
                .button("Squad file…")
                .on_hover_text("Open a *.squad.toml file")
                .clicked()
            {
                self.ask_file(ui.ctx(), env, false);
            }
            let label = ui.label("Heroes played by");
            egui::ComboBox::from_id_salt("ruunara-heroes")
                .selected_text(self.heroes.label())
                .show_ui(ui, |ui| {
                    ui.selectable_value(&mut self.heroes, Heroes::Person, Heroes::Person.label());
                    for (name, tip) in super::POLICIES {
                        let h = Heroes::Computer(name);
                        ui.selectable_value(&mut self.heroes, h, h.label())
                            .on_hover_text(tip);
                    }
                })
                .response
                .labelled_by(label.id);
            let label = ui
                .label("Seed")
                .on_hover_text("The same seed rolls the same dice");
            ui.add(egui::DragValue::new(&mut self.seed))
                .labelled_by(label.id);
            if !self.simulate
                && ui
                    .button("New mission")
                    .on_hover_text("Deploy the mission with this squad and seed")
                    .clicked()
            {
                self.new_game(env);
            }
        });
    }

    fn ask_file(&self, ctx: &egui::Context, env: &mut super::super::Env, mission: bool) {
        use super::super::files::{Dialog, Want, ask};
        let (name, ext) = if mission {
            ("Ruunara mission", "toml")
        } else {
            ("Ruunara squad", "toml")
        };
        let chosen = self.chosen.clone();
        ask(
            ctx,
            env,
            Dialog::new(Want::File).filter(name, &[ext]),
            move |_, paths| {
                if let (Some(p), Ok(mut c)) = (paths.into_iter().next(), chosen.lock()) {
                    *c = Some((mission, p));
                }
                Vec::new()
            },
        );
    }

    fn play_ui(&mut self, ui: &mut egui::Ui) {
        let Some(p) = self.played.as_mut() else {
            ui.weak("Choose a mission, a squad and who plays the heroes, then New mission.");
            return;
        };
        let ctx = ui.ctx().clone();
        match self.turn.ui(ui, || p.computer_turn(&ctx)) {
            TurnStep::Done(from, picks) => p.append(from, picks),
            TurnStep::Failed(e) => self.message = Some(e),
            _ => {}
        }
        let p = self.played.as_ref().expect("set above");
        let game = p.game();
        let person = p.heroes == Heroes::Person
            && game.paused().is_none()
            && matches!(game.turn(), Turn::Seat { .. });
        let mut pick = None;
        let mut step = None;
        let History { lines, frames } = p.history();
        let here = frames
            .iter()
            .position(|&f| f == (p.at, p.watch))
            .unwrap_or(frames.len() - 1);
        ui.horizontal(|ui| {
            step = super::step_buttons(ui, here, frames.len() - 1, "table", "decision or enemy");
            let undo = ui
                .add_enabled(
                    p.heroes == Heroes::Person && p.at > 0,
                    egui::Button::new("Undo"),
                )
                .on_hover_text("Take back the last decision shown (replayed from the seed)");
            if undo.clicked() {
                step = Some(usize::MAX);
            }
            ui.label(format!(
                "{}: step {} of {} · round {} of {}",
                p.setup.name,
                p.at,
                p.inputs.len(),
                game.st.round,
                p.setup.round_limit
            ));
            if let (Some(w), Some(next)) = (p.watch, game.paused()) {
                let of = frames
                    .iter()
                    .filter(|f| f.0 == p.at && f.1.is_some())
                    .count();
                ui.label(
                    egui::RichText::new(format!(
                        "the enemies' turn: {w} of {of} acted; next {} #{next}",
                        p.setup.figs[next].name
                    ))
                    .strong(),
                );
            }
            ui.checkbox(&mut self.all_arcs, "Every vision arc");
        });
        egui::Panel::right("ruunara-log")
            .resizable(true)
            .default_size(320.0)
            .show(ui, |ui| {
                super::step_log_ui(ui, "ruunara-log-scroll", lines, p.at);
            });
        egui::Panel::bottom("ruunara-options")
            .resizable(true)
            .default_size(150.0)
            .show(ui, |ui| {
                // Scrolled within the panel's size: a longer list or question must not grow
                // the panel and shrink the table above it.
                egui::ScrollArea::vertical()
                    .id_salt("ruunara-options-panel")
                    .auto_shrink(false)
                    .show(ui, |ui| pick = options_ui(ui, &game, p, self.selected));
            });
        let mut drop_at = None;
        egui::CentralPanel::default().show(ui, |ui| {
            let out = board_ui(
                ui,
                &game,
                game.paused().or(self.selected),
                self.all_arcs,
                person,
                &mut self.dragging,
            );
            self.board = Some(out.map);
            if let Some(j) = out.clicked {
                self.selected = Some(j);
                // A click on the figure an option concerns takes it when it is the only one.
                let on: Vec<usize> = game
                    .options()
                    .iter()
                    .enumerate()
                    .filter(|(_, o)| opt_figure(**o) == Some(j))
                    .map(|(i, _)| i)
                    .collect();
                if person && on.len() == 1 {
                    pick = Some(Input::Pick(on[0]));
                }
            }
            drop_at = out.dropped;
        });
        if let Some((fig, at)) = drop_at
            && game.deploying() == Some(fig)
        {
            if game.legal_deploy_at(fig, at.x, at.y) {
                pick = Some(Input::Drop(at));
                self.message = None;
            } else {
                self.message = Some(deploy_refusal(&game, fig, at));
            }
        } else if let Some((fig, at)) = drop_at {
            match game.legal_move_to(fig, at.x, at.y) {
                Some(path) => {
                    pick = Some(Input::Drag(path));
                    self.message = None;
                }
                None => self.message = Some(refusal(&game, fig, at)),
            }
        }
        let p = self.played.as_mut().expect("set above");
        match step {
            Some(usize::MAX) => {
                p.inputs.truncate(p.at - 1);
                p.at = p.inputs.len();
                p.watch = None;
                self.message = None;
                self.turn.reset();
            }
            Some(k) => (p.at, p.watch) = frames[k],
            None => {}
        }
        if let Some(i) = pick {
            p.decide(i);
            self.message = None;
            self.turn.reset();
            ui.ctx().request_repaint();
        }
    }

    /// What a simulation is played with: a result of another mission, squad, policy or seed
    /// is stale.
    fn sim_key(&self, env: &super::super::Env) -> String {
        format!(
            "{:?} {:?} {:?} {:?} seed {} games {}",
            self.mission,
            self.squad_file(env).map(|s| s.to_toml()),
            self.squad,
            self.sim_policy(),
            self.seed,
            self.sim.games
        )
    }

    /// The heroes' policy in a simulation (a person's heroes are played by greedy).
    fn sim_policy(&self) -> Policy {
        match self.heroes {
            Heroes::Computer(name) => Policy::parse(name).unwrap_or(Policy::Greedy),
            Heroes::Person => Policy::Greedy,
        }
    }

    /// Starts a simulation of the view's missions in the shared view.
    pub fn start_sim(&mut self, ctx: &egui::Context, env: &super::super::Env) {
        let setup = match self.setup(env) {
            Ok(s) => Arc::new(s),
            Err(e) => {
                self.message = Some(e);
                return;
            }
        };
        self.message = None;
        let policy = self.sim_policy();
        let (games, seed) = (self.sim.games.max(1), self.seed);
        let ask = Ask {
            heading: format!(
                "{games} missions of {}, seed {seed} (heroes: {})",
                setup.name,
                policy.name()
            ),
            cli: None,
            key: self.sim_key(env),
            labels: vec![
                format!("Heroes ({})", policy.name()),
                "The mission".to_string(),
            ],
            words: Words {
                length: ("round", "rounds"),
                draw: "A Ruunara mission is never drawn: the heroes win it or the mission does.",
            },
        };
        self.sim
            .start(ctx, ask, move |i| outcome(&setup, policy, seed, i));
    }

    fn sim_ui(&mut self, ui: &mut egui::Ui, env: &super::super::Env) {
        let key = self.sim_key(env);
        let tip = "Play the missions on a background thread (the dice of each from the seed)";
        if self.sim.ui(ui, tip, &key, "The mission, squad, policy or seed changed since this run: play it again to update it.") {
            self.start_sim(ui.ctx(), env);
        }
    }
}

/// Why a drop at `at` is refused.
fn refusal(game: &RuunaraGame<'_>, fig: usize, at: Pt) -> String {
    let s = game.setup;
    let f = &game.st.figs[fig];
    let name = &s.figs[fig].name;
    let mv = s.figs[fig].movement;
    if game.st.phase != Phase::Move(fig as u8) {
        return format!("{name} cannot move now.");
    }
    if game.st.engaged(fig) && !f.fleeing {
        return format!("{name} is engaged in close combat: it cannot walk away.");
    }
    if at.x < BASE_R || at.y < BASE_R || at.x > s.width - BASE_R || at.y > s.depth - BASE_R {
        return format!("{name} cannot leave the table.");
    }
    let d = f.at.dist(at);
    if d > mv + 1e-9 {
        return format!(
            "Too far: {d:.1}\" away, and {name} moves {mv:.0}\". It goes back to its place."
        );
    }
    format!(
        "{name} cannot end there: the way is blocked, the climb does not fit its movement, or \
         the spot is taken. It goes back to its place."
    )
}

/// Why member `fig` cannot be deployed at `at`.
fn deploy_refusal(game: &RuunaraGame<'_>, fig: usize, at: Pt) -> String {
    let s = game.setup;
    let st = &game.st;
    let name = &s.figs[fig].name;
    let Some(z) = crate::games::ruunara::engine::State::zone_of(s, fig) else {
        return format!("{name} is not deployed in a zone.");
    };
    let inside = at.x >= z.x + BASE_R - 1e-6
        && at.y >= z.y + BASE_R - 1e-6
        && at.x <= z.x + z.w - BASE_R + 1e-6
        && at.y <= z.y + z.d - BASE_R + 1e-6;
    if !inside {
        return format!(
            "{name} deploys inside the highlighted zone, its whole base within it: ({:.1}, {:.1}) is outside.",
            at.x, at.y
        );
    }
    if let Some(j) = st.ids().find(|&j| {
        j != fig
            && st.waiting & (1 << j) == 0
            && st.figs[j].status != Status::Dead
            && crate::games::ruunara::engine::geom::overlap(at, st.figs[j].at)
    }) {
        return format!(
            "{name} cannot stand there: its base would overlap {} #{j}.",
            s.figs[j].name
        );
    }
    if !st.spot_free(s, fig, at) {
        return format!("{name} cannot stand there: no base may stand on a building.");
    }
    format!(
        "{name} cannot stand there: the members still to deploy in this zone would have no room left."
    )
}

/// The decision at the step shown: the question and the options as buttons (keys 1-9), those
/// concerning the selected figure first.
fn options_ui(
    ui: &mut egui::Ui,
    game: &RuunaraGame<'_>,
    p: &Played,
    selected: Option<usize>,
) -> Option<Input> {
    let mut pick = None;
    if let Some(next) = game.paused() {
        ui.strong("The enemies' turn, enemy by enemy");
        ui.label(format!(
            "{} #{next} acts next. Forward (Right arrow) shows what it does.",
            p.setup.figs[next].name
        ));
        return None;
    }
    match game.turn() {
        Turn::Over => {
            let o = game.outcome();
            let ended = o.map_or("?", |o| crate::games::game::Ending::name(o.ended));
            ui.heading(if game.won() {
                format!("The heroes win ({ended})")
            } else {
                format!("The heroes lose ({ended})")
            });
            ui.label(format!("After {} rounds.", game.st.round));
        }
        Turn::Chance(_) => {
            ui.weak("The dice are rolled.");
        }
        Turn::Seat { .. } => {
            if p.heroes != Heroes::Person {
                ui.label("The computer plays the heroes.");
                return None;
            }
            ui.strong(game.question());
            ui.weak(match game.st.phase {
                Phase::Deploy(_) => {
                    "Click or drag into the highlighted zone to place the member there, or take a spot (keys 1-9)."
                }
                Phase::Move(_) => {
                    "Drag the hero within its reach on the table, or take an option (keys 1-9)."
                }
                _ => "Click a figure on the table, or take an option (keys 1-9).",
            });
            let opts = game.options();
            let mut shown: Vec<usize> = (0..opts.len()).collect();
            if let Some(j) = selected {
                shown.sort_by_key(|&i| opt_figure(opts[i]) != Some(j));
            }
            pick = super::option_buttons(ui, "ruunara-options-scroll", &shown, false, |i| {
                game.opt_text(opts[i])
            })
            .map(Input::Pick);
        }
    }
    pick
}

/// What the board answered.
struct BoardOut {
    map: BoardMap,
    clicked: Option<usize>,
    dropped: Option<(usize, Pt)>,
}

/// The 135-degree vision arc of figure `i` as a polygon.
fn arc_points(map: &BoardMap, at: Pt, facing: f64, range: f64) -> Vec<egui::Pos2> {
    let c = map.to_screen(at);
    let mut pts = vec![c];
    let half = 67.5_f64.to_radians();
    let r = (range + BASE_R) as f32 * map.scale;
    for k in 0..=16 {
        let a = facing - half + 2.0 * half * f64::from(k) / 16.0;
        pts.push(c + egui::vec2(a.cos() as f32 * r, -(a.sin() as f32) * r));
    }
    pts
}

/// The table from above: scenery by kind, the objective's zone, bases with facings, hit
/// points, vision arcs, engagements and captures; a person drags the moving hero.
fn board_ui(
    ui: &mut egui::Ui,
    game: &RuunaraGame<'_>,
    selected: Option<usize>,
    all_arcs: bool,
    person: bool,
    dragging: &mut Option<(usize, egui::Pos2)>,
) -> BoardOut {
    let s = game.setup;
    let st = &game.st;
    let avail = ui.available_size();
    let scale = (avail.x / s.width as f32)
        .min(avail.y / s.depth as f32)
        .max(4.0);
    let (rect, response) = ui.allocate_exact_size(
        egui::vec2(s.width as f32 * scale, s.depth as f32 * scale),
        egui::Sense::click_and_drag(),
    );
    response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Canvas, true, "Ruunara table"));
    let map = BoardMap { rect, scale };
    let painter = ui.painter_at(rect);
    let dark = ui.visuals().dark_mode;
    painter.rect_filled(
        rect,
        4.0,
        if dark {
            egui::Color32::from_rgb(46, 58, 44)
        } else {
            egui::Color32::from_rgb(196, 214, 170)
        },
    );
    let font = egui::FontId::proportional((scale * 0.55).clamp(9.0, 14.0));
    let zone_rect = |z: &Zone| {
        egui::Rect::from_two_pos(
            map.to_screen(Pt::new(z.x, z.y)),
            map.to_screen(Pt::new(z.x + z.w, z.y + z.d)),
        )
    };
    match s.objective {
        Objective::Reach { exit } | Objective::Rescue { exit, .. } => {
            let r = zone_rect(&exit);
            shade_zone(
                &painter,
                r,
                egui::Color32::from_rgba_unmultiplied(90, 200, 120, 70),
                egui::Color32::from_rgb(40, 150, 80),
            );
            painter.text(
                r.center(),
                egui::Align2::CENTER_CENTER,
                "exit",
                font.clone(),
                egui::Color32::from_rgb(20, 90, 40),
            );
        }
        _ => {}
    }
    // The zone of the member being deployed, and its offered spots.
    let deploying = game.deploying();
    if let Some(i) = deploying
        && let Some(z) = crate::games::ruunara::engine::State::zone_of(s, i)
    {
        let r = zone_rect(&z);
        shade_zone(
            &painter,
            r,
            egui::Color32::from_rgba_unmultiplied(60, 120, 210, 60),
            egui::Color32::from_rgb(60, 120, 210),
        );
        // Under the zone: a small zone has no room for its name.
        painter.text(
            egui::pos2(r.center().x, r.max.y + 2.0),
            egui::Align2::CENTER_TOP,
            "deployment zone",
            font.clone(),
            egui::Color32::from_rgb(30, 60, 130),
        );
        for o in game.options() {
            if let Opt::Place { col, row } = *o {
                painter.circle_stroke(
                    map.to_screen(st.spot(s, i, usize::from(col), usize::from(row))),
                    BASE_R as f32 * scale * 0.5,
                    egui::Stroke::new(1.0, egui::Color32::from_rgb(60, 120, 210)),
                );
            }
        }
    }
    for piece in &s.pieces {
        let r = egui::Rect::from_two_pos(
            map.to_screen(Pt::new(piece.rect.x0, piece.rect.y0)),
            map.to_screen(Pt::new(piece.rect.x1, piece.rect.y1)),
        );
        painter.rect_filled(r, 1.0, scenery_color(piece.kind));
        if r.width() > 30.0 && r.height() > 12.0 {
            painter.text(
                r.center(),
                egui::Align2::CENTER_CENTER,
                format!("{} {:.1}\"", scenery_name(piece.kind), piece.height),
                font.clone(),
                egui::Color32::WHITE,
            );
        }
    }
    let moving = match st.phase {
        Phase::Move(i) if person => Some(usize::from(i)),
        _ => None,
    };
    // The reach of the hero that moves: its movement around it.
    if let Some(i) = moving {
        painter.circle(
            map.to_screen(st.figs[i].at),
            s.figs[i].movement as f32 * scale,
            egui::Color32::from_rgba_unmultiplied(60, 120, 210, 30),
            egui::Stroke::new(1.5, egui::Color32::from_rgb(60, 120, 210)),
        );
    }
    let figs = st.ids();
    // Vision arcs under the bases.
    for i in figs.clone() {
        let f = &st.figs[i];
        if f.status != Status::Free
            || st.waiting & (1 << i) != 0
            || !(all_arcs || selected == Some(i) || st.active() == Some(i))
        {
            continue;
        }
        let angle = f.facing.degrees().to_radians();
        let c = team_color(f.team);
        painter.add(egui::Shape::convex_polygon(
            arc_points(&map, f.at, angle, s.figs[i].vision),
            egui::Color32::from_rgba_unmultiplied(c.r(), c.g(), c.b(), 28),
            egui::Stroke::new(
                1.0,
                egui::Color32::from_rgba_unmultiplied(c.r(), c.g(), c.b(), 120),
            ),
        ));
    }
    let r = BASE_R as f32 * scale;
    let text = if dark {
        egui::Color32::WHITE
    } else {
        egui::Color32::BLACK
    };
    for i in figs.clone() {
        let f = &st.figs[i];
        if st.waiting & (1 << i) != 0 {
            // Not on the table yet.
            continue;
        }
        let c = map.to_screen(f.at);
        let color = team_color(f.team);
        match f.status {
            Status::Dead => {
                let d = r * 0.7;
                let st2 = egui::Stroke::new(2.0, egui::Color32::from_gray(90));
                painter.line_segment([c - egui::vec2(d, d), c + egui::vec2(d, d)], st2);
                painter.line_segment([c + egui::vec2(-d, d), c + egui::vec2(d, -d)], st2);
                continue;
            }
            Status::Captured => {
                painter.circle(
                    c,
                    r,
                    color.gamma_multiply(0.4),
                    egui::Stroke::new(2.5, egui::Color32::from_rgb(150, 60, 170)),
                );
                painter.text(
                    c + egui::vec2(0.0, r + 2.0),
                    egui::Align2::CENTER_TOP,
                    format!("captured, executed round {}", f.execute_round),
                    font.clone(),
                    egui::Color32::from_rgb(150, 60, 170),
                );
            }
            Status::Free => {
                let ring = if selected == Some(i) || st.active() == Some(i) {
                    egui::Stroke::new(3.0, ui.visuals().selection.stroke.color)
                } else {
                    egui::Stroke::new(1.0, egui::Color32::BLACK)
                };
                painter.circle(c, r, color, ring);
            }
        }
        let (dx, dy) = crate::games::ruunara::engine::geom::facing_vec(f.facing);
        painter.line_segment(
            [c, c + egui::vec2(dx as f32, -dy as f32) * r * 1.3],
            egui::Stroke::new(2.5, egui::Color32::WHITE),
        );
        painter.text(
            c + egui::vec2(0.0, -r - 2.0),
            egui::Align2::CENTER_BOTTOM,
            // Names only where there is room (or for the figure in focus): the options,
            // the log and a hover name every figure by its number.
            if scale >= 40.0 || selected == Some(i) || st.active() == Some(i) {
                format!("#{i} {} · {} hp", s.figs[i].name, f.hp)
            } else {
                format!("#{i} · {} hp", f.hp)
            },
            font.clone(),
            text,
        );
    }
    // Engagements, over the bases (engaged bases touch).
    for a in figs.clone() {
        for b in a + 1..figs.end {
            if st.figs[a].status == Status::Free
                && st.figs[b].status == Status::Free
                && st.engaged_with(a, b)
            {
                painter.line_segment(
                    [map.to_screen(st.figs[a].at), map.to_screen(st.figs[b].at)],
                    egui::Stroke::new(4.0, egui::Color32::from_rgb(230, 120, 20)),
                );
            }
        }
    }
    if let Some(t) = s.rescue_target()
        && st.figs[t].status == Status::Free
    {
        painter.circle_stroke(
            map.to_screen(st.figs[t].at),
            r + 4.0,
            egui::Stroke::new(2.0, egui::Color32::from_rgb(40, 150, 80)),
        );
    }
    // The figure under a point, if any.
    let under = |p: egui::Pos2| {
        let t = map.to_table(p);
        figs.clone()
            .filter(|&i| st.figs[i].status != Status::Dead && st.waiting & (1 << i) == 0)
            .find(|&i| st.figs[i].at.dist(t) <= BASE_R + 0.2)
    };
    if let Some(i) = response.hover_pos().and_then(under) {
        let (f, card) = (&st.figs[i], &s.figs[i]);
        response.clone().on_hover_ui_at_pointer(|ui| {
            ui.strong(format!("#{i} {}", card.name));
            ui.label(format!(
                "{} hp · moves {}\" · sees {}\" · close {}{}",
                f.hp,
                card.movement,
                card.vision,
                card.close,
                card.ranged
                    .map(|d| format!(" · ranged {d} to {}\"", card.range))
                    .unwrap_or_default()
            ));
        });
    }
    let mut out = BoardOut {
        map,
        clicked: None,
        dropped: None,
    };
    let placing = deploying.filter(|_| person);
    if response.drag_started()
        && let Some(p) = ui.input(|inp| inp.pointer.press_origin())
    {
        if let Some(i) = placing {
            // The member to deploy is dragged in from wherever the press began.
            *dragging = Some((i, p));
        } else if let Some(i) = moving
            && under(p) == Some(i)
        {
            *dragging = Some((i, p));
        }
    }
    if let Some((i, pos)) = dragging.as_mut() {
        if let Some(p) = ui.input(|inp| inp.pointer.latest_pos()) {
            *pos = p;
        }
        let t = map.to_table(*pos);
        let legal = if placing == Some(*i) {
            game.legal_deploy_at(*i, t.x, t.y)
        } else {
            game.legal_move_to(*i, t.x, t.y).is_some()
        };
        let color = if legal {
            egui::Color32::from_rgb(40, 170, 80)
        } else {
            egui::Color32::from_rgb(210, 50, 50)
        };
        if placing != Some(*i) {
            painter.line_segment(
                [map.to_screen(st.figs[*i].at), *pos],
                egui::Stroke::new(2.0, color),
            );
        }
        painter.circle_stroke(*pos, r, egui::Stroke::new(2.5, color));
        if response.drag_stopped() || !ui.input(|inp| inp.pointer.any_down()) {
            out.dropped = Some((*i, map.to_table(*pos)));
            *dragging = None;
        }
    } else if response.clicked()
        && let Some(p) = response.interact_pointer_pos()
    {
        match placing {
            // A click in the zone places the member being deployed there.
            Some(i) => out.dropped = Some((i, map.to_table(p))),
            None => out.clicked = under(p),
        }
    }
    out
}
