//! What every face's match session shares: who sits at each seat (a person, or the computer
//! with a typed policy) and the computer's turn, played from a position until a person must
//! decide, the match ends, or the face asks it to stop. The turn is a plain function of the
//! position, the seats and the seed, so a face runs it on a background job and the window
//! never waits for a search; the same inputs come out whatever thread plays them.
//!
//! A match seeded `s` draws its chance in order from one stream, [`RngDice::new`]`(s)`, as
//! every face does (`super::dice`), and the computer's decision at input `k` is seeded
//! [`decision_seed`]`(s, k)`: the same match and inputs draw and choose the same, however
//! they were reached (played on, undone, reopened from a file), and a session whose seats
//! are all the computer plays the match `deckwright play --seed s` plays.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use super::ai::{Agent, Evaluated, Policy};
use super::any::{AnyGame, Opened, Step};
use super::dice::{RngDice, derive_seed};
use super::game::{Chance, Game, Turn};
use super::record::{MatchRecord, Note, PointInput, RecordError};
use super::registry::Registration;
use super::report::{Line, Report};

/// Who takes a seat's decisions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Seat {
    Person,
    Computer(Policy),
}

impl Seat {
    /// The seat as a match record names it: `person`, or the policy's name.
    pub fn record_name(self) -> String {
        match self {
            Seat::Person => "person".into(),
            Seat::Computer(p) => p.name(),
        }
    }

    /// The seat a match record names, `None` for a name that is neither.
    pub fn from_record(name: &str) -> Option<Seat> {
        match name {
            "person" => Some(Seat::Person),
            other => Policy::parse(other).map(Seat::Computer),
        }
    }
}

/// The seed of the computer's decision at input `k` of a match seeded `seed`.
pub fn decision_seed(seed: u64, k: usize) -> u64 {
    derive_seed(seed, 1000 + k as u64)
}

/// Why a computer's turn ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TurnEnd {
    /// A person's seat must decide.
    Person,
    /// The match is over.
    Over,
    /// Chance had no outcome to give (a script ran out).
    NoChance,
    /// The face asked it to stop.
    Stopped,
    /// It took [`MAX_TURN_INPUTS`] inputs (a guard: the face plays on in another turn).
    Limit,
}

/// The most inputs one computer's turn takes (every game's own limits end a match long
/// before; a guard against a game that would not).
pub const MAX_TURN_INPUTS: usize = 1_000_000;

/// What the computer's turn needs of a position: whose turn, applying an input, and a
/// seat's decision by a policy. Every [`Game`] is one, and so is a game of any type
/// ([`super::any::AnyGame`]), so one turn serves both.
pub trait Mover {
    fn turn(&self) -> Turn;
    fn take(&mut self, input: usize);
    /// The decision of `seat` among `options` by `policy`, seeded `seed`; its search ends
    /// early when `stop` is set.
    fn decide(
        &self,
        seat: usize,
        options: usize,
        policy: Policy,
        seed: u64,
        stop: &Arc<AtomicBool>,
    ) -> usize;
}

impl<G: Evaluated> Mover for G {
    fn turn(&self) -> Turn {
        Game::turn(self)
    }
    fn take(&mut self, input: usize) {
        self.apply(input);
    }
    fn decide(
        &self,
        seat: usize,
        options: usize,
        policy: Policy,
        seed: u64,
        stop: &Arc<AtomicBool>,
    ) -> usize {
        Agent::<G::Eval>::new(policy, seed)
            .stopped_by(stop.clone())
            .choose(self, seat, options)
            .min(options.saturating_sub(1))
    }
}

/// Plays from `g`, the position after `taken` inputs of a match seeded `seed`: chance from
/// `chance` (given the position, the input's index and the chance), each computer seat's
/// decision by its policy (seeded [`decision_seed`]), until a person must decide, the match
/// is over, `stop` is set (checked before every input, and by a search as it runs: a
/// decision whose search was stopped is not taken) or [`MAX_TURN_INPUTS`] inputs are taken.
/// `done` is told each input as it is taken. The inputs taken, in order, and why the turn
/// ended.
pub fn computer_turn<M: Mover>(
    mut g: M,
    taken: usize,
    seats: &[Seat],
    seed: u64,
    mut chance: impl FnMut(&M, usize, Chance) -> Option<usize>,
    stop: &Arc<AtomicBool>,
    done: impl Fn(usize),
) -> (Vec<usize>, TurnEnd) {
    let mut inputs = Vec::new();
    let end = loop {
        if stop.load(Ordering::Relaxed) {
            break TurnEnd::Stopped;
        }
        if inputs.len() >= MAX_TURN_INPUTS {
            break TurnEnd::Limit;
        }
        let k = taken + inputs.len();
        let i = match g.turn() {
            Turn::Over => break TurnEnd::Over,
            Turn::Chance(c) => match chance(&g, k, c) {
                Some(i) => i,
                None => break TurnEnd::NoChance,
            },
            Turn::Seat { seat, options } => match seats.get(seat).copied() {
                Some(Seat::Computer(policy)) => {
                    let i = g.decide(seat, options, policy, decision_seed(seed, k), stop);
                    if stop.load(Ordering::Relaxed) {
                        break TurnEnd::Stopped;
                    }
                    i
                }
                Some(Seat::Person) | None => break TurnEnd::Person,
            },
        };
        g.take(i);
        inputs.push(i);
        done(inputs.len());
    };
    (inputs, end)
}

/// Why a [`Session`] refused an input: the session is unchanged.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Refused {
    #[error("the match is over")]
    Over,
    #[error("chance is drawn here, not decided")]
    Chance,
    #[error("it is Player {turn}'s decision, not Player {seat}'s")]
    NotYourTurn { seat: usize, turn: usize },
    #[error("Player {seat} is played by the computer")]
    Computer { seat: usize },
    #[error("option {option} is not one of the {options} options")]
    NoSuchOption { option: usize, options: usize },
    #[error("that point is not a legal place here")]
    Point,
    #[error("the decision was for step {step}, but the match is at step {latest}")]
    Stale { step: usize, latest: usize },
}

/// The computer's turn of a session, taken out to run on another thread: [`Work::run`] plays
/// it, [`Session::append`] takes its inputs back.
pub struct Work {
    game: Box<dyn AnyGame>,
    from: usize,
    seats: Vec<Seat>,
    seed: u64,
    /// The match's chance stream where the turn begins.
    dice: RngDice,
}

impl Work {
    /// The inputs the session had when the turn began.
    pub fn from(&self) -> usize {
        self.from
    }

    /// Plays the turn ([`super::any::computer_turn`]: chance from the match's stream).
    pub fn run(self, stop: &Arc<AtomicBool>, done: impl Fn(usize)) -> (Vec<usize>, TurnEnd) {
        super::any::computer_turn(
            self.game,
            self.from,
            &self.seats,
            self.seed,
            self.dice,
            stop,
            done,
        )
    }
}

/// One match of any registered game, as every face drives it: its start, who sits at each
/// seat, the seed, every input so far (option indices, points on the table, chance
/// outcomes) with what each set off, and the step shown. The position at any step is the
/// start with the inputs before it applied; chance is drawn from the match's stream (its
/// position kept at every input) and the computer's decisions seeded by [`decision_seed`],
/// so a session reopened from its record
/// ([`Session::record`], [`Session::from_record`]) plays on exactly as it would have.
#[derive(Clone)]
pub struct Session {
    start: Box<dyn AnyGame>,
    /// What setting the match up logged (before the first input).
    opening: Step,
    /// The position after every input.
    latest: Box<dyn AnyGame>,
    /// The engine version its records carry.
    pub engine: u32,
    pub seats: Vec<Seat>,
    pub seed: u64,
    inputs: Vec<usize>,
    points: Vec<PointInput>,
    steps: Vec<Step>,
    /// Who took each input: a seat, or `None` for chance.
    movers: Vec<Option<usize>>,
    /// The game's options as its record keeps them.
    pub options: toml::Table,
    /// The chance source ran out after the last input (a record's).
    exhausted: bool,
    /// The match's chance stream after the last input.
    dice: RngDice,
    /// The stream's position after each input ([`RngDice::position`]).
    drawn: Vec<u128>,
    /// The step shown: the position after the first `at` inputs.
    pub at: usize,
    /// Playtest notes, each at the step it was written ([`Note`]); the record keeps those
    /// at a step the match still reaches.
    pub notes: Vec<Note>,
}

impl Session {
    /// A new match from `start`.
    pub fn new(
        start: Box<dyn AnyGame>,
        engine: u32,
        seats: Vec<Seat>,
        seed: u64,
        options: toml::Table,
    ) -> Session {
        Session {
            opening: Step::default(),
            latest: start.clone(),
            start,
            engine,
            seats,
            seed,
            inputs: Vec::new(),
            points: Vec::new(),
            steps: Vec::new(),
            movers: Vec::new(),
            options,
            exhausted: false,
            dice: RngDice::new(seed),
            drawn: Vec::new(),
            at: 0,
            notes: Vec::new(),
        }
    }

    /// A new match from an opened start (its setting up logged).
    pub fn opened(
        opened: Opened,
        engine: u32,
        seats: Vec<Seat>,
        seed: u64,
        options: toml::Table,
    ) -> Session {
        let mut s = Session::new(opened.game, engine, seats, seed, options);
        s.opening = opened.opening;
        s
    }

    /// A new match of a game that starts from its rules alone (`None` for one that does not:
    /// [`Registration::generic`]).
    pub fn generic(game: &Registration, seats: Vec<Seat>, seed: u64) -> Option<Session> {
        let make = game.generic?;
        Some(Session::new(
            make(),
            game.engine,
            seats,
            seed,
            toml::Table::new(),
        ))
    }

    /// The game's command-line name.
    pub fn name(&self) -> &'static str {
        self.start.name()
    }

    /// Every input so far.
    pub fn inputs(&self) -> &[usize] {
        &self.inputs
    }

    /// What each input set off.
    pub fn steps(&self) -> &[Step] {
        &self.steps
    }

    /// The inputs that were points on the table.
    pub fn points(&self) -> &[PointInput] {
        &self.points
    }

    /// Who took input `k`: a seat, or `None` for chance.
    pub fn mover(&self, k: usize) -> Option<usize> {
        self.movers.get(k).copied().flatten()
    }

    /// How many inputs were taken.
    pub fn len(&self) -> usize {
        self.inputs.len()
    }

    /// No input taken yet.
    pub fn is_empty(&self) -> bool {
        self.inputs.is_empty()
    }

    /// The position after every input.
    pub fn latest(&self) -> &dyn AnyGame {
        self.latest.as_ref()
    }

    /// The position after the first `k` inputs.
    pub fn game_at(&self, k: usize) -> Box<dyn AnyGame> {
        if k >= self.inputs.len() {
            return self.latest.clone();
        }
        let mut g = self.start.clone();
        for (at, &i) in self.inputs[..k].iter().enumerate() {
            if let Some(p) = self.points.iter().find(|p| p.step == at) {
                g.offer_point(p.x, p.y);
            }
            g.apply(i);
        }
        g
    }

    /// The log so far: each line with the step that set it off (0: setting the match up).
    pub fn lines(&self) -> impl Iterator<Item = (usize, &(Line, String))> {
        std::iter::once(&self.opening)
            .chain(&self.steps)
            .enumerate()
            .flat_map(|(k, s)| s.lines.iter().map(move |l| (k, l)))
    }

    /// The log so far as `seat` sees it (`None`: a spectator), from line `from` on: each line
    /// with the step that set it off, a line hidden from the seat told as its
    /// [`super::game::Hidden::text`]. It has as many lines as [`Session::lines`].
    pub fn lines_for(&self, seat: Option<usize>, from: usize) -> Vec<(usize, (Line, String))> {
        let mut out = Vec::new();
        let mut at = 0;
        for (k, s) in std::iter::once(&self.opening)
            .chain(&self.steps)
            .enumerate()
        {
            let n = s.lines.len();
            if at + n > from {
                let lines = s.lines_for(seat);
                let skip = from.saturating_sub(at);
                out.extend(lines.into_iter().skip(skip).map(|l| (k, l)));
            }
            at += n;
        }
        out
    }

    /// The seat that decides at the latest position, if a person's decision is awaited.
    pub fn person_to_move(&self) -> Option<usize> {
        match self.latest.turn() {
            Turn::Seat { seat, .. } if self.seats.get(seat) == Some(&Seat::Person) => Some(seat),
            _ => None,
        }
    }

    /// Option `i` taken at the step shown by whoever is to decide there (a person at this
    /// screen): later inputs are dropped (an undo and a new line of play).
    pub fn decide(&mut self, i: usize) -> Result<(), Refused> {
        let g = self.game_at(self.at);
        match g.turn() {
            Turn::Over => Err(Refused::Over),
            Turn::Chance(_) => Err(Refused::Chance),
            Turn::Seat { options, .. } if i >= options => {
                Err(Refused::NoSuchOption { option: i, options })
            }
            Turn::Seat { .. } => {
                self.truncate(self.at);
                self.push(i, None);
                Ok(())
            }
        }
    }

    /// Option `i` sent by `seat` for the latest step `step`, as the authority checks a
    /// remote decision: refused (and nothing changed) unless the match is at `step`, it is
    /// `seat`'s decision, the seat is a person's, and `i` is one of its options.
    pub fn decide_as(&mut self, seat: usize, step: usize, i: usize) -> Result<(), Refused> {
        if step != self.inputs.len() {
            return Err(Refused::Stale {
                step,
                latest: self.inputs.len(),
            });
        }
        match self.latest.turn() {
            Turn::Over => Err(Refused::Over),
            Turn::Chance(_) => Err(Refused::Chance),
            Turn::Seat { seat: turn, .. } if turn != seat => Err(Refused::NotYourTurn {
                seat: seat + 1,
                turn: turn + 1,
            }),
            Turn::Seat { .. } if self.seats.get(seat) != Some(&Seat::Person) => {
                Err(Refused::Computer { seat: seat + 1 })
            }
            Turn::Seat { options, .. } if i >= options => {
                Err(Refused::NoSuchOption { option: i, options })
            }
            Turn::Seat { .. } => {
                self.at = self.inputs.len();
                self.push(i, None);
                Ok(())
            }
        }
    }

    /// A point on the table taken at the step shown (Ruunara's drag or drop): the option
    /// the game offers it as, taken; later inputs dropped.
    pub fn point(&mut self, x: f64, y: f64) -> Result<usize, Refused> {
        let mut g = self.game_at(self.at);
        if !matches!(g.turn(), Turn::Seat { .. }) {
            return Err(if g.outcome().is_some() {
                Refused::Over
            } else {
                Refused::Chance
            });
        }
        let i = g.offer_point(x, y).ok_or(Refused::Point)?;
        self.truncate(self.at);
        // The latest position holds the point's option now.
        self.latest = g;
        self.push(
            i,
            Some(PointInput {
                step: self.inputs.len(),
                x,
                y,
            }),
        );
        Ok(i)
    }

    /// Applies input `i` at the latest position. A chance the position does not fix moves
    /// the match's stream on by one draw of it, whoever drew `i` (the computer's turn drew it
    /// from a copy of the stream; a record's may come from a dice script).
    fn push(&mut self, i: usize, point: Option<PointInput>) {
        let mover = match self.latest.turn() {
            Turn::Seat { seat, .. } => Some(seat),
            Turn::Chance(c) => {
                if self.latest.dealt(c).is_none() {
                    let _ = c.draw(&mut self.dice);
                }
                None
            }
            Turn::Over => None,
        };
        self.steps.push(self.latest.apply(i));
        self.inputs.push(i);
        self.drawn.push(self.dice.position());
        self.movers.push(mover);
        self.points.extend(point);
        self.exhausted = false;
        self.at = self.inputs.len();
    }

    /// Drops every input from the `k`-th on.
    pub fn truncate(&mut self, k: usize) {
        if k >= self.inputs.len() {
            return;
        }
        self.latest = self.game_at(k);
        self.inputs.truncate(k);
        self.drawn.truncate(k);
        self.dice
            .seek(k.checked_sub(1).map_or(0, |before| self.drawn[before]));
        self.steps.truncate(k);
        self.movers.truncate(k);
        self.points.retain(|p| p.step < k);
        self.exhausted = false;
        self.at = self.at.min(k);
    }

    /// Takes back the latest person's decision and everything after it (chance, the
    /// computer's answers): the match is at that person's decision again. False when no
    /// person has decided.
    pub fn undo(&mut self) -> bool {
        let person = |s: Option<usize>| s.and_then(|s| self.seats.get(s)) == Some(&Seat::Person);
        match (0..self.inputs.len())
            .rev()
            .find(|&k| person(self.movers[k]))
        {
            Some(k) => {
                self.truncate(k);
                self.at = k;
                true
            }
            None => false,
        }
    }

    /// The computer's turn from the latest position, when that is shown and chance or a
    /// computer is to move.
    pub fn computer_work(&self) -> Option<Work> {
        if self.at != self.inputs.len() || self.exhausted {
            return None;
        }
        match self.latest.turn() {
            Turn::Over => return None,
            Turn::Seat { seat, .. } if self.seats.get(seat) == Some(&Seat::Person) => {
                return None;
            }
            _ => {}
        }
        Some(Work {
            game: self.latest.clone(),
            from: self.inputs.len(),
            seats: self.seats.clone(),
            seed: self.seed,
            dice: self.dice.clone(),
        })
    }

    /// Appends the inputs a computer's turn begun at `from` inputs took; nothing when the
    /// match moved on meanwhile (a person's undo, another turn's inputs).
    pub fn append(&mut self, from: usize, inputs: Vec<usize>) -> bool {
        if self.inputs.len() != from || self.at != from {
            return false;
        }
        for i in inputs {
            if matches!(self.latest.turn(), Turn::Over) {
                break;
            }
            self.push(i, None);
        }
        true
    }

    /// Plays the computer's turns to the first person's decision or the end, on this thread
    /// (the CLI, tests; a face runs [`Session::computer_work`] on a job instead).
    pub fn play_computer(&mut self, stop: &Arc<AtomicBool>) -> TurnEnd {
        loop {
            let Some(work) = self.computer_work() else {
                return if self.latest.outcome().is_some() {
                    TurnEnd::Over
                } else {
                    TurnEnd::Person
                };
            };
            let from = work.from();
            let (inputs, end) = work.run(stop, |_| {});
            self.append(from, inputs);
            if end != TurnEnd::Limit {
                return end;
            }
        }
    }

    /// The match so far as a record (format 2: every input, point and check).
    pub fn record(&self) -> MatchRecord {
        MatchRecord {
            engine: self.engine,
            seats: self.seats.iter().map(|s| s.record_name()).collect(),
            inputs: self.inputs.clone(),
            points: self.points.clone(),
            checks: self
                .steps
                .iter()
                .take(self.inputs.len())
                .map(|s| s.check)
                .collect(),
            exhausted: self.exhausted,
            notes: self
                .notes
                .iter()
                .filter(|n| n.step <= self.inputs.len())
                .cloned()
                .collect(),
            options: self.options.clone(),
            ..MatchRecord::new(self.name(), self.seed)
        }
    }

    /// Reopens `r` from `start` (the position its options compile to): its game and engine
    /// version checked, every input checked against what the position takes and every step
    /// against the record's checks; the first that is not legal or plays differently is the
    /// error.
    pub fn from_record(
        r: &MatchRecord,
        opened: Opened,
        engine: u32,
    ) -> Result<Session, RecordError> {
        let start = opened.game;
        r.expect_game(start.name())?;
        r.expect_engine(engine)?;
        if r.inputs.len() > super::record::MAX_INPUTS {
            return Err(RecordError::TooLong(r.inputs.len()));
        }
        let seats = r
            .seats
            .iter()
            .map(|s| {
                Seat::from_record(s)
                    .ok_or_else(|| RecordError::Options(format!("unknown seat `{s}`")))
            })
            .collect::<Result<Vec<_>, _>>()?;
        let mut s = Session::new(start, engine, seats, r.seed, r.options.clone());
        s.opening = opened.opening;
        for (at, &input) in r.inputs.iter().enumerate() {
            match r.point_at(at) {
                Some((k, p)) => {
                    if s.latest.offer_point(p.x, p.y) != Some(input) {
                        return Err(RecordError::Point { k, step: at });
                    }
                    s.points.push(*p);
                }
                None => {
                    let legal = match s.latest.turn() {
                        Turn::Seat { options, .. } => options,
                        Turn::Chance(c) => c.outcomes(),
                        Turn::Over => 0,
                    };
                    if input >= legal {
                        return Err(RecordError::Illegal { at, input });
                    }
                }
            }
            s.push(input, None);
            if let Some(&want) = r.checks.get(at)
                && s.steps[at].check != want
            {
                return Err(RecordError::Differs { at });
            }
        }
        if r.exhausted && !matches!(s.latest.turn(), Turn::Over) {
            s.steps.push(s.latest.exhausted());
            s.exhausted = true;
        }
        s.at = s.inputs.len();
        s.notes = r.notes.clone();
        Ok(s)
    }

    /// The report of the match at the step shown (log, result in words, JSON).
    pub fn report(&self) -> Report {
        let g = self.game_at(self.at);
        let names: Vec<String> = self.seats.iter().map(|s| s.record_name()).collect();
        // At the latest step, the log's last line may be the dice running out.
        let shown = if self.at >= self.inputs.len() {
            self.steps.len()
        } else {
            self.at
        };
        let steps: Vec<Step> = std::iter::once(&self.opening)
            .chain(&self.steps[..shown])
            .cloned()
            .collect();
        super::any::report(g.as_ref(), &steps, self.seed, &names)
    }
}
