//! The Iconica engine: a compiled match-up ([`Setup`]), a `Copy` board [`State`], and
//! [`play_turn`], which applies one whole turn asking an [`Io`] for every die and decision.
//! No I/O, clock or global RNG here: dice come from the [`Io`] (a seeded RNG or a script).
//!
//! [`IconicaGame`] wraps the same engine in the game-agnostic [`crate::games::GameState`]
//! interface (decision and chance nodes) by replaying the current turn's inputs.

pub mod dice;
pub mod events;
pub mod game;
pub mod io;
pub mod setup;
pub mod state;
pub mod turn;

pub use dice::{Dice, RngDice, ScriptDice};
pub use events::{Cause, Event, Log, NoLog};
pub use game::{IconicaGame, Leaf, LeafFn};
pub use io::{Choice, ChoiceKind, Io, Opt, Stop};
pub use setup::{Breaks, Rules, Ruleset, Setup, SetupError};
pub use state::{Ended, State, Winner};
pub use turn::{play_turn, resume_turn, stop_exhausted, Resume};

/// Anything that wants to see each turn's starting state (search policies replay from it).
pub trait TurnHook {
    fn begin_turn(&mut self, _st: &State) {}
}

/// Plays turns until the match ends (victory, turn limit, or the input runs out).
pub fn play_match<I: Io + TurnHook, L: Log>(setup: &Setup, st: &mut State, io: &mut I, log: &mut L) {
    while st.ended.is_none() {
        io.begin_turn(st);
        if play_turn(setup, st, io, log).is_err() {
            stop_exhausted(st, log);
        }
    }
}
