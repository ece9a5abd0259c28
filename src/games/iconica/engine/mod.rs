//! The Iconica engine: a compiled match-up ([`Setup`]), a `Copy` board [`State`], and the
//! turn as a machine ([`turn`]) held by a `Copy` position, [`IconicaGame`]: the board and
//! where the turn stands. The position answers the one game interface
//! ([`crate::games::game::Game`]) directly: it knows the node it waits at (a die, a pick, a
//! seat's decision), and an input moves it to the next. [`play_turn`] and [`play_match`]
//! run the same machine asking an [`Io`] for every die and decision. No I/O, clock or global
//! RNG here: dice come from the [`Io`] (a seeded RNG or a script).

pub mod events;
pub mod game;
pub mod io;
pub mod setup;
pub mod state;
pub mod turn;

pub use crate::games::dice::{Dice, RngDice, ScriptDice};
pub use events::{Cause, Event, Log, NoLog};
pub use game::{Asked, IconicaGame};
pub use io::{Choice, ChoiceKind, Io, Opt, Stop};
pub use setup::{Breaks, Rules, Ruleset, Setup, SetupError};
pub use state::{Ended, State, Winner};
pub use turn::{Step, play_turn, stop_exhausted};

/// Anything that wants to see each turn's starting state.
pub trait TurnHook {
    fn begin_turn(&mut self, _st: &State) {}
}

/// Plays turns until the match ends (victory, turn limit, or the input runs out).
pub fn play_match<I: Io + TurnHook, L: Log>(
    setup: &Setup,
    st: &mut State,
    io: &mut I,
    log: &mut L,
) {
    while st.ended.is_none() {
        io.begin_turn(st);
        if play_turn(setup, st, io, log).is_err() {
            stop_exhausted(st, log);
        }
    }
}
