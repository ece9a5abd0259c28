//! The Arcadia engine (`spec/arcadia.md`, "Engine rulings"; rules cards 3-4): a compiled
//! quest setup ([`Match`]), a `Copy` position ([`State`]) that is a chance node (a die), a
//! decision node (a player picks one of its [`Opt`]s) or over, and [`State::apply`]. No I/O,
//! clock or global RNG here: [`play_match`] takes the dice from a passed-in [`Dice`] source
//! (seeded or scripted) and the decisions from a [`Decide`]r.
//!
//! [`ArcadiaGame`] offers the same engine as a [`crate::games::GameState`], so the generic
//! policies of `games::ai` serve it.

pub mod contest;
pub mod days;
pub mod events;
pub mod quests;
pub mod setup;
pub mod state;
pub mod waylays;

pub use crate::games::iconica::engine::dice::{Dice, RngDice, ScriptDice};
pub use events::{Event, Log, NoLog, Outcome};
pub use setup::{Match, MatchError, Player};
pub use state::{Ended, Foe, Hero, Opt, Opts, Phase, State, Winner};

use crate::games::{GameState, Node};

/// Picks an option of a decision.
pub trait Decide {
    /// The index (in `0..n`) of `player`'s option at `st`.
    fn decide(&mut self, m: &Match, st: &State, player: u8, n: usize) -> usize;
}

/// Plays until the match ends: victory, the turn limit, or the dice running out (a script).
pub fn play_match<D: Dice, P: Decide, L: Log>(m: &Match, st: &mut State, dice: &mut D, decide: &mut P, log: &mut L) {
    st.settle(m, log);
    loop {
        match st.node(m) {
            Node::Terminal => return,
            Node::Chance(_) => match dice.die() {
                Some(face) => st.apply(m, usize::from(face.clamp(1, 6) - 1), log),
                None => {
                    st.stop_exhausted(log);
                    return;
                }
            },
            Node::Decision { player, actions } => {
                let a = decide.decide(m, st, player as u8, actions);
                st.apply(m, a.min(actions.saturating_sub(1)), log);
            }
        }
    }
}

/// A match position as a game-agnostic [`GameState`].
#[derive(Debug, Clone, Copy)]
pub struct ArcadiaGame<'m> {
    pub m: &'m Match,
    pub st: State,
}

impl GameState for ArcadiaGame<'_> {
    fn node(&self) -> Node {
        self.st.node(self.m)
    }
    fn apply(&mut self, action: usize) {
        self.st.apply(self.m, action, &mut NoLog);
    }
    fn returns(&self) -> [f64; 2] {
        returns(&self.st)
    }
}

/// Final scores of players a and b: 1 win, 0 loss, 0.5 draw or unfinished.
pub fn returns(st: &State) -> [f64; 2] {
    match st.ended.and_then(|e| e.1) {
        Some(Winner::Player(0)) => [1.0, 0.0],
        Some(Winner::Player(_)) => [0.0, 1.0],
        _ => [0.5, 0.5],
    }
}
