//! The games: each folder holds one game's card model, construction rules, engine and AI.
//!
//! Every engine also offers the game-agnostic [`GameState`] interface (OpenSpiel-like: a node
//! is a decision of a player, a chance event, or terminal; actions are option indices), so
//! the generic policies of [`ai`] (random, MCTS with chance nodes) serve any game.

pub mod ai;
pub mod arcadia;
pub mod build;
pub mod files;
pub mod iconica;
pub mod iconoclasm;
pub mod ruunara;

use rand::RngExt;
use rand_chacha::ChaCha8Rng;
use serde_json::Value;

/// One event of a match log as `play --json` prints it: its own fields (`fields`, an
/// object), its `type` and its `text` (a sentence).
pub fn event_json(kind: &str, fields: Value, text: String) -> Value {
    match fields {
        Value::Object(mut map) => {
            map.insert("type".into(), Value::String(kind.into()));
            map.insert("text".into(), Value::String(text));
            Value::Object(map)
        }
        other => other,
    }
}

/// How a match ended: its JSON names are the `ended` values of `play --json` and `sim`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Ended {
    Victory,
    DiceExhausted,
    TurnLimit,
}

impl Ended {
    pub fn as_str(self) -> &'static str {
        match self {
            Ended::Victory => "victory",
            Ended::DiceExhausted => "dice_exhausted",
            Ended::TurnLimit => "turn_limit",
        }
    }
}

/// What happens next in a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Node {
    /// A player (0 or 1) picks one of `actions` options (`0..actions`).
    Decision { player: usize, actions: usize },
    /// Chance picks one of this many outcomes (probabilities from [`GameState::chance_probs`]).
    Chance(usize),
    /// The game is over; see [`GameState::returns`].
    Terminal,
}

/// A two-player game position with explicit chance.
pub trait GameState: Clone {
    fn node(&self) -> Node;
    /// Probabilities of the chance outcomes (uniform unless the game says otherwise).
    fn chance_probs(&self, out: &mut Vec<f64>) {
        out.clear();
        if let Node::Chance(n) = self.node() {
            out.extend(std::iter::repeat_n(1.0 / n as f64, n));
        }
    }
    /// Applies a decision option or a chance outcome (an index).
    fn apply(&mut self, action: usize);
    /// Final scores of players 0 and 1 (1 win, 0 loss, 0.5 draw); only meaningful when terminal.
    fn returns(&self) -> [f64; 2];
    /// Plays to the end with uniformly random decisions and chance, returning the scores.
    /// Games override this with a faster path.
    fn rollout(&mut self, rng: &mut ChaCha8Rng) -> [f64; 2] {
        let mut probs = Vec::new();
        loop {
            match self.node() {
                Node::Terminal => return self.returns(),
                Node::Decision { actions, .. } => {
                    let a = rng.random_range(0..actions);
                    self.apply(a)
                }
                Node::Chance(n) => {
                    self.chance_probs(&mut probs);
                    let mut x: f64 = rng.random_range(0.0..1.0);
                    let mut a = n - 1;
                    for (i, p) in probs.iter().enumerate() {
                        if x < *p {
                            a = i;
                            break;
                        }
                        x -= p;
                    }
                    self.apply(a)
                }
            }
        }
    }
}
