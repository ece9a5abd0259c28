//! The Arcadia engine (`spec/arcadia.md`, "Engine rulings"; rules cards 3-4): a compiled
//! quest setup ([`Match`]), a `Copy` position ([`State`]) that is a chance node (a die), a
//! decision node (a player picks one of its [`Opt`]s) or over ([`Node`]), and
//! [`State::apply`]. No I/O, clock or global RNG here: chance comes in as inputs.
//!
//! [`ArcadiaGame`] is the engine as a [`crate::games::game::Game`] (`arcadia::game`): the
//! shared policies, the sim runner, the session and the tests all play it through that.

pub mod contest;
pub mod days;
pub mod events;
pub mod lay;
pub mod quests;
pub mod setup;
pub mod state;
pub mod waylays;

pub use crate::games::dice::{Dice, RngDice, ScriptDice};
pub use events::{Event, Log, NoLog, Outcome};
pub use setup::{Match, MatchError, Player};
pub use state::{Ended, Foe, Hero, Node, Opt, Opts, Phase, State, Winner};

/// A match position: the compiled match and the state.
#[derive(Debug, Clone, Copy)]
pub struct ArcadiaGame<'m> {
    pub m: &'m Match,
    pub st: State,
}

/// Final scores of players a and b: 1 win, 0 loss, 0.5 draw or unfinished.
pub fn returns(st: &State) -> [f64; 2] {
    match st.ended.and_then(|e| e.1) {
        Some(Winner::Player(0)) => [1.0, 0.0],
        Some(Winner::Player(_)) => [0.0, 1.0],
        _ => [0.5, 0.5],
    }
}
