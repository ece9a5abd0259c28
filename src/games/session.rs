//! What every face's match session shares: who sits at each seat (a person, or the computer
//! with a typed policy) and the computer's turn, played from a position until a person must
//! decide, the match ends, or the face asks it to stop. The turn is a plain function of the
//! position, the seats and the seed, so a face runs it on a background job and the window
//! never waits for a search; the same inputs come out whatever thread plays them.
//!
//! The computer's decision at input `k` of a match seeded `s` is seeded
//! [`decision_seed`]`(s, k)`: the same match and inputs choose the same, however they were
//! reached (played on, undone, reopened from a file).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use super::ai::{Agent, Policy};
use super::dice::derive_seed;
use super::game::{Chance, Game, Turn};

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

/// The outcome of chance `c` at input `k` of a match seeded `seed` where a face draws it
/// (the Match screen's generic board): a die, or a pick, from its own seeded stream, so an
/// undo or a reopened match draws the same.
pub fn step_chance(seed: u64, k: usize, c: super::game::Chance) -> usize {
    let mut dice = super::dice::RngDice::new(derive_seed(seed, 7_000_000 + k as u64));
    c.draw(&mut dice).unwrap_or(0)
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

impl<G: Game> Mover for G {
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
