//! A game of any type behind one object ([`AnyGame`]): what the faces that serve every
//! registered game drive without knowing its type — `deckwright play GAME` for a game with
//! no subcommand of its own, the Match screen's generic board, and a match file's replay.
//! Every [`Game`] that owns its position (`'static`) is one.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use serde_json::{Value, json};

use super::ai::{Agent, Evaluated, Policy};
use super::dice::{Dice, RngDice};
use super::game::{Chance, Ending, Game, Hidden, Turn, Verdict};
use super::record::{MatchRecord, RecordError, replay_record, step_check};
use super::report::{Line, Report};
use super::session::{Mover, Seat, TurnEnd, decision_seed};
use crate::cards::CardLookup;

/// What one input set off: its log lines (heading or not) and their JSON, and the step's
/// check ([`step_check`]); `lines` and `json` are whole (as one person watching sees them),
/// `hidden` says which of them (by index) not every seat may see ([`Step::lines_for`]).
#[derive(Debug, Clone, Default)]
pub struct Step {
    pub lines: Vec<(Line, String)>,
    pub json: Vec<Value>,
    pub check: u32,
    pub hidden: Vec<(usize, Hidden)>,
}

impl Step {
    /// The lines as `seat` sees them (`None`: a spectator, who sees only what every seat
    /// may): a line hidden from it is told as [`Hidden::text`].
    pub fn lines_for(&self, seat: Option<usize>) -> Vec<(Line, String)> {
        let mut lines = self.lines.clone();
        for (k, h) in &self.hidden {
            if !h.seen(seat)
                && let Some(l) = lines.get_mut(*k)
            {
                l.1 = h.text.clone();
            }
        }
        lines
    }

    /// The JSON entries as `seat` sees them ([`Step::lines_for`]).
    pub fn json_for(&self, seat: Option<usize>) -> Vec<Value> {
        let mut json = self.json.clone();
        for (k, h) in &self.hidden {
            if !h.seen(seat)
                && let Some(j) = json.get_mut(*k)
            {
                *j = h.json.clone();
            }
        }
        json
    }
}

/// How a match ended, with the game's own ending named.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AnyOutcome {
    pub verdict: Verdict,
    pub ended: &'static str,
    pub turns: u32,
}

/// A match position of any game.
pub trait AnyGame: Send {
    /// Its command-line name.
    fn name(&self) -> &'static str;
    fn seats(&self) -> usize;
    fn turn(&self) -> Turn;
    /// Applies input `i` (a decision or a chance outcome).
    fn apply(&mut self, i: usize) -> Step;
    /// The chance source ran out: the match stops here.
    fn exhausted(&mut self) -> Step;
    fn question(&self) -> String;
    fn describe(&self, i: usize) -> String;
    fn outcome(&self) -> Option<AnyOutcome>;
    /// The position's [`crate::games::game::Game::fingerprint`].
    fn fingerprint(&self) -> u64;
    /// The decision of `seat` (with `options` options) by `policy`, seeded `seed`; a search
    /// ends early when `stop` is set.
    fn choose(
        &self,
        seat: usize,
        options: usize,
        policy: Policy,
        seed: u64,
        stop: Option<Arc<AtomicBool>>,
    ) -> usize;
    fn clone_box(&self) -> Box<dyn AnyGame>;
    /// A point on the table taken as a decision ([`Game::offer_point`]).
    fn offer_point(&mut self, x: f64, y: f64) -> Option<usize>;
    /// The outcome of chance `c` the position fixes ([`Game::dealt`]).
    fn dealt(&self, c: Chance) -> Option<usize>;
    /// The position as its own type, for a face that paints it (a game's board painter
    /// downcasts to its game, or to [`super::owned::Owned`] of it).
    fn as_any(&self) -> &dyn std::any::Any;
    /// Plays the match on to its end as `deckwright play` does and the Match screen's
    /// computer would: seat `k` decided by `policies[k]` (the last one for seats past the
    /// list), the decision at input `i` seeded [`decision_seed`]`(seed, i)`; chance the
    /// position fixes as it does ([`Game::dealt`]), any other drawn from `dice` (the match's
    /// stream, [`super::dice::RngDice::new`]`(seed)`, or a script). Calls `each(turns)` at every decision
    /// a seat takes, with the turns played so far (a face shows progress with it). Returns
    /// every input in order and whether the dice ran out (the match then stops there).
    fn play_on(
        &mut self,
        dice: &mut dyn Dice,
        policies: &[Policy],
        seed: u64,
        each: &mut dyn FnMut(u32),
    ) -> (Vec<usize>, bool) {
        self.play_watched(dice, policies, seed, &mut |d| {
            each(d.turns);
            true
        })
    }
    /// [`AnyGame::play_on`], showing `each` every decision before it is taken (the position,
    /// the seat, its options, the one its agent chose); the match stops there when `each`
    /// says `false` (`deckwright health` stops at a decision with no option).
    fn play_watched(
        &mut self,
        dice: &mut dyn Dice,
        policies: &[Policy],
        seed: u64,
        each: &mut dyn FnMut(&Decision<'_>) -> bool,
    ) -> (Vec<usize>, bool);
}

/// A decision a seat is about to take ([`AnyGame::play_watched`]).
pub struct Decision<'a> {
    pub game: &'a dyn AnyGame,
    pub seat: usize,
    pub options: usize,
    pub chosen: usize,
    /// Turns played so far, as the game counts them.
    pub turns: u32,
}

impl Clone for Box<dyn AnyGame> {
    fn clone(&self) -> Self {
        self.clone_box()
    }
}

/// A match opened at its start (a record's options compiled): the position and the lines
/// its setting up logged (step 0).
pub struct Opened {
    pub game: Box<dyn AnyGame>,
    pub opening: Step,
}

impl Opened {
    /// `g` at its start, with what setting it up logged.
    pub fn of<G: Evaluated + Send + 'static>(g: G, log: &[G::Event]) -> Opened {
        Opened {
            opening: opening(&g, log),
            game: Box::new(g),
        }
    }
}

/// The lines setting `g` up logged, as the step before the first input.
pub fn opening<G: Game>(g: &G, log: &[G::Event]) -> Step {
    let mut s = step_of(g, 0, log);
    s.check = 0;
    s
}

fn step_of<G: Game>(g: &G, input: usize, events: &[G::Event]) -> Step {
    Step {
        lines: events
            .iter()
            .map(|e| {
                let kind = if g.is_heading(e) {
                    Line::Heading
                } else {
                    Line::Item
                };
                (kind, g.event_text(e))
            })
            .collect(),
        json: events.iter().map(|e| g.event_json(e)).collect(),
        check: step_check(g, input, events),
        hidden: events
            .iter()
            .enumerate()
            .filter_map(|(k, e)| g.hidden(e).map(|h| (k, h)))
            .collect(),
    }
}

impl<G: Evaluated + Send + 'static> AnyGame for G {
    fn name(&self) -> &'static str {
        G::NAME
    }
    fn seats(&self) -> usize {
        Game::seats(self)
    }
    fn turn(&self) -> Turn {
        Game::turn(self)
    }
    fn apply(&mut self, i: usize) -> Step {
        let mut events = Vec::new();
        self.apply_logged(i, &mut events);
        step_of(self, i, &events)
    }
    fn exhausted(&mut self) -> Step {
        let mut events = Vec::new();
        Game::exhausted(self, &mut events);
        let mut s = step_of(self, 0, &events);
        s.check = 0;
        s
    }
    fn question(&self) -> String {
        Game::question(self)
    }
    fn describe(&self, i: usize) -> String {
        Game::describe(self, i)
    }
    fn fingerprint(&self) -> u64 {
        Game::fingerprint(self)
    }
    fn outcome(&self) -> Option<AnyOutcome> {
        Game::outcome(self).map(|o| AnyOutcome {
            verdict: o.verdict,
            ended: o.ended.name(),
            turns: o.turns,
        })
    }
    fn choose(
        &self,
        seat: usize,
        options: usize,
        policy: Policy,
        seed: u64,
        stop: Option<Arc<AtomicBool>>,
    ) -> usize {
        let mut agent = Agent::<G::Eval>::new(policy, seed);
        if let Some(stop) = stop {
            agent = agent.stopped_by(stop);
        }
        agent
            .choose(self, seat, options)
            .min(options.saturating_sub(1))
    }
    fn clone_box(&self) -> Box<dyn AnyGame> {
        Box::new(self.clone())
    }
    fn offer_point(&mut self, x: f64, y: f64) -> Option<usize> {
        Game::offer_point(self, x, y)
    }
    fn dealt(&self, c: Chance) -> Option<usize> {
        Game::dealt(self, c)
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
    fn play_watched(
        &mut self,
        dice: &mut dyn Dice,
        policies: &[Policy],
        seed: u64,
        each: &mut dyn FnMut(&Decision<'_>) -> bool,
    ) -> (Vec<usize>, bool) {
        let mut inputs = Vec::new();
        loop {
            let a = match Game::turn(self) {
                Turn::Over => return (inputs, false),
                Turn::Chance(c) => match Game::dealt(self, c).or_else(|| c.draw(&mut &mut *dice)) {
                    Some(o) => o,
                    None => {
                        Game::exhausted(self, &mut Vec::new());
                        return (inputs, true);
                    }
                },
                Turn::Seat { seat, options } => {
                    let a = Agent::<G::Eval>::new(
                        Policy::of_seat(policies, seat),
                        decision_seed(seed, inputs.len()),
                    )
                    .choose(self, seat, options)
                    .min(options.saturating_sub(1));
                    let go_on = each(&Decision {
                        game: &*self,
                        seat,
                        options,
                        chosen: a,
                        turns: Game::turns(self),
                    });
                    if !go_on {
                        return (inputs, false);
                    }
                    a
                }
            };
            Game::apply(self, a);
            inputs.push(a);
        }
    }
}

/// A match of a registered game played through [`AnyGame`]: every input (for its file),
/// every step's lines, JSON and check.
#[derive(Clone)]
pub struct AnyPlayed {
    pub game: Box<dyn AnyGame>,
    pub inputs: Vec<usize>,
    pub steps: Vec<Step>,
    pub exhausted: bool,
}

/// Plays `game` to its end: chance from `dice`, seat `k`'s decisions by `seats[k]`'s
/// policy, each seeded [`decision_seed`] as the Match screen's computer decides (a person's
/// seat plays `first`).
pub fn play(
    mut game: Box<dyn AnyGame>,
    mut dice: impl Dice,
    seats: &[Seat],
    seed: u64,
) -> AnyPlayed {
    let mut inputs = Vec::new();
    let mut steps = Vec::new();
    let mut exhausted = false;
    loop {
        let i = match game.turn() {
            Turn::Over => break,
            Turn::Chance(c) => match c.draw(&mut dice) {
                Some(o) => o,
                None => {
                    steps.push(game.exhausted());
                    exhausted = true;
                    break;
                }
            },
            Turn::Seat { seat, options } => {
                let policy = match seats.get(seat).or(seats.last()) {
                    Some(Seat::Computer(p)) => *p,
                    _ => Policy::First,
                };
                game.choose(
                    seat,
                    options,
                    policy,
                    decision_seed(seed, inputs.len()),
                    None,
                )
            }
        };
        steps.push(game.apply(i));
        inputs.push(i);
    }
    AnyPlayed {
        game,
        inputs,
        steps,
        exhausted,
    }
}

/// The report of a match of any game: its log, its result in words, and a JSON document
/// (`game`, `seed`, `seats`, `winner` (a seat from 1, `draw` or null), `ended`, `turns`,
/// `log`).
pub fn report(game: &dyn AnyGame, steps: &[Step], seed: u64, seats: &[String]) -> Report {
    let outcome = game.outcome();
    let winner = match outcome.map(|o| o.verdict) {
        Some(Verdict::Won(w)) => json!(w.iter().map(|s| s + 1).collect::<Vec<_>>()),
        Some(Verdict::Draw) => json!("draw"),
        _ => Value::Null,
    };
    let tail = match outcome {
        Some(o) => {
            let who = match o.verdict {
                Verdict::Won(w) => {
                    let seats: Vec<String> = w.iter().map(|s| (s + 1).to_string()).collect();
                    format!("Player {} wins", seats.join(" and "))
                }
                Verdict::Draw => "A draw".into(),
                Verdict::NoResult => "No result".into(),
            };
            format!(
                "\n{who} ({}) after {}\n",
                o.ended,
                crate::count(o.turns, "turn", "turns")
            )
        }
        None => "\nThe match goes on\n".into(),
    };
    Report {
        log: steps.iter().flat_map(|s| s.lines.iter().cloned()).collect(),
        tail,
        json: json!({
            "game": game.name(),
            "seed": seed,
            "seats": seats,
            "winner": winner,
            "ended": outcome.map(|o| o.ended),
            "turns": outcome.map(|o| o.turns),
            "log": steps.iter().flat_map(|s| s.json.iter().cloned()).collect::<Vec<_>>(),
        }),
    }
}

/// The record of a match of any game, played from its start with `played`.
pub fn record(played: &AnyPlayed, engine: u32, seed: u64, seats: Vec<String>) -> MatchRecord {
    MatchRecord {
        engine,
        seats,
        inputs: played.inputs.clone(),
        checks: played
            .steps
            .iter()
            .take(played.inputs.len())
            .map(|s| s.check)
            .collect(),
        exhausted: played.exhausted,
        ..MatchRecord::new(played.game.name(), seed)
    }
}

/// A registered game's replay when its match starts from nothing but its rules
/// (`G::default()`): every input and step checked, its report as [`play`] and [`report`]
/// give it.
pub fn replay<G: Evaluated + Default + Send + 'static>(
    r: &MatchRecord,
    to: Option<usize>,
    _lookup: &dyn CardLookup,
) -> Result<Report, RecordError> {
    r.expect_game(G::NAME)?;
    if let Some(reg) = super::registry::find(G::NAME) {
        r.expect_engine(reg.engine)?;
    }
    let done = replay_record(G::default(), Vec::new(), r, to)?;
    // The checked replay again, step by step, for each step's lines.
    let mut steps: Vec<Step> = Vec::new();
    let mut g = G::default();
    for &i in &r.inputs[..done.steps] {
        let mut events = Vec::new();
        g.apply_logged(i, &mut events);
        steps.push(step_of(&g, i, &events));
    }
    if done.steps == r.inputs.len() && r.exhausted {
        let mut events = Vec::new();
        Game::exhausted(&mut g, &mut events);
        steps.push(step_of(&g, 0, &events));
    }
    Ok(report(&g, &steps, r.seed, &r.seats))
}

impl Mover for Box<dyn AnyGame> {
    fn turn(&self) -> Turn {
        AnyGame::turn(self.as_ref())
    }
    fn take(&mut self, input: usize) {
        AnyGame::apply(self.as_mut(), input);
    }
    fn decide(
        &self,
        seat: usize,
        options: usize,
        policy: Policy,
        seed: u64,
        stop: &Arc<AtomicBool>,
    ) -> usize {
        self.choose(seat, options, policy, seed, Some(stop.clone()))
    }
}

/// The computer's turn of a match of any game ([`super::session::computer_turn`]), chance
/// the position fixes as it does ([`AnyGame::dealt`]), any other drawn in order from `dice`
/// (the match's stream where the turn begins).
pub fn computer_turn(
    game: Box<dyn AnyGame>,
    taken: usize,
    seats: &[Seat],
    seed: u64,
    mut dice: RngDice,
    stop: &Arc<AtomicBool>,
    done: impl Fn(usize),
) -> (Vec<usize>, TurnEnd) {
    super::session::computer_turn(
        game,
        taken,
        seats,
        seed,
        |g, _, c| g.dealt(c).or_else(|| c.draw(&mut dice)),
        stop,
        done,
    )
}
