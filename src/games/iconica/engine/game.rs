//! Iconica as a game-agnostic [`GameState`]: decision and chance nodes found by replaying the
//! current turn's inputs (die faces, `random_foe` picks, option indices) from its latest step
//! boundary ([`Resume`]).

use rand::RngExt;
use rand_chacha::ChaCha8Rng;

use super::events::NoLog;
use super::io::{Choice, Io, Stop};
use super::setup::Setup;
use super::state::{State, Winner};
use super::turn::{play_turn, resume_turn, Resume};
use crate::games::{GameState, Node};

/// What the engine needs next.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Need {
    Die,
    Pick(u8),
    Choice { side: u8, n: u8 },
    Done,
}

/// Serves recorded inputs, then either notes what is needed (probe) or draws at random.
struct Replay<'a, 'r> {
    inputs: &'a [u8],
    pos: usize,
    need: Need,
    rng: Option<&'r mut ChaCha8Rng>,
    /// With `rng`: take option 0 instead of a random option.
    first: bool,
    /// Probes note the latest step boundary: (state, where, inputs consumed before it).
    mark: Option<(State, Resume, usize)>,
}

impl<'a, 'r> Replay<'a, 'r> {
    fn new(inputs: &'a [u8], rng: Option<&'r mut ChaCha8Rng>, first: bool) -> Replay<'a, 'r> {
        Replay { inputs, pos: 0, need: Need::Done, rng, first, mark: None }
    }
}

impl Replay<'_, '_> {
    #[inline]
    fn next(&mut self) -> Option<u8> {
        let v = self.inputs.get(self.pos).copied();
        if v.is_some() {
            self.pos += 1;
        }
        v
    }
}

impl Replay<'_, '_> {
    /// A decision among `n` options of `side`: recorded, first, random, or a stop (probe).
    #[inline]
    fn take(&mut self, side: u8, n: u8) -> Result<u8, Stop> {
        if let Some(v) = self.next() {
            return Ok(v);
        }
        match self.rng.as_deref_mut() {
            Some(_) if self.first => Ok(0),
            Some(r) => Ok(r.random_range(0..n)),
            None => {
                self.need = Need::Choice { side, n };
                Err(Stop)
            }
        }
    }
}

impl Io for Replay<'_, '_> {
    #[inline]
    fn mark(&mut self, st: &State, at: Resume) {
        if self.rng.is_none() {
            self.mark = Some((*st, at, self.pos));
        }
    }
    fn die(&mut self) -> Result<u8, Stop> {
        if let Some(v) = self.next() {
            return Ok(v);
        }
        match self.rng.as_deref_mut() {
            Some(r) => Ok(r.random_range(1..=6u8)),
            None => {
                self.need = Need::Die;
                Err(Stop)
            }
        }
    }
    fn pick(&mut self, n: u8) -> Result<u8, Stop> {
        if let Some(v) = self.next() {
            return Ok(v);
        }
        match self.rng.as_deref_mut() {
            Some(r) => Ok(r.random_range(0..n)),
            None => {
                self.need = Need::Pick(n);
                Err(Stop)
            }
        }
    }
    fn choose(&mut self, c: &Choice<'_>) -> Result<u8, Stop> {
        self.take(c.side, c.options.len() as u8)
    }
    #[inline]
    fn choose_n(&mut self, side: u8, n: u8) -> Option<Result<u8, Stop>> {
        Some(self.take(side, n))
    }
}

impl super::TurnHook for Replay<'_, '_> {}

/// A match position: the state at the start of the current turn plus this turn's inputs.
#[derive(Debug, Clone)]
pub struct IconicaGame<'s> {
    setup: &'s Setup,
    turn_start: State,
    inputs: Vec<u8>,
    /// The turn's latest step boundary: the state there, where it resumes, and how many of
    /// `inputs` came before it. Replays start here instead of at the turn's start.
    mark: (State, Resume, usize),
    need: Need,
    /// The state where the replay stopped (for evaluation and display).
    now: State,
    /// How [`GameState::rollout`] scores a leaf.
    leaf: Leaf,
}

/// How a search leaf is scored.
#[derive(Debug, Clone, Copy)]
pub enum Leaf {
    /// Uniformly random play to the end of the match; 1, 0.5 or 0.
    Playout,
    /// Finish the current turn and play the next one (random dice, first options), then turn
    /// the position's evaluation into a win chance (logistic of `ai::evaluate` for side a).
    Eval,
    /// A scorer the searching policy supplies (the engine knows no policy): it gets the
    /// turn's latest step boundary (state, where it resumes) and the turn's inputs since
    /// then, and returns the scores of sides a and b. Iconica's `mcts` passes
    /// `ai::greedy_leaf`.
    With(LeafFn),
}

/// A leaf scorer: the state at a step boundary, where it resumes, the inputs since, a seeded source.
pub type LeafFn = fn(&Setup, &State, Resume, &[u8], &mut ChaCha8Rng) -> [f64; 2];

impl<'s> IconicaGame<'s> {
    /// The position at `turn_start` after the given inputs of that turn.
    pub fn at(setup: &'s Setup, turn_start: State, inputs: &[u8]) -> IconicaGame<'s> {
        let mut g = IconicaGame {
            setup,
            turn_start,
            mark: (turn_start, Resume::Start, 0),
            inputs: inputs.to_vec(),
            need: Need::Done,
            now: turn_start,
            leaf: Leaf::Playout,
        };
        g.advance();
        g
    }

    /// The start of a match.
    pub fn new(setup: &'s Setup) -> IconicaGame<'s> {
        IconicaGame::at(setup, State::new(setup), &[])
    }

    /// The same position with another leaf scoring.
    pub fn with_leaf(mut self, leaf: Leaf) -> IconicaGame<'s> {
        self.leaf = leaf;
        self
    }

    /// Random play to the end of the match from here (what [`Leaf::Playout`] does).
    pub fn playout(&self, rng: &mut ChaCha8Rng) -> [f64; 2] {
        let (mut st, at, pos) = self.mark;
        let mut io = Replay::new(&self.inputs[pos..], Some(rng), false);
        if st.ended.is_none() {
            let _ = resume_turn(self.setup, &mut st, at, &mut io, &mut NoLog);
            io.inputs = &[];
            io.pos = 0;
        }
        while st.ended.is_none() {
            let _ = play_turn(self.setup, &mut st, &mut io, &mut NoLog);
        }
        scores(&st)
    }

    /// Finishes the current turn and plays the next (random dice, first options), then scores.
    pub fn eval_leaf(&self, rng: &mut ChaCha8Rng) -> [f64; 2] {
        let (mut st, at, pos) = self.mark;
        let mut io = Replay::new(&self.inputs[pos..], Some(rng), true);
        // This turn and the opponent's reply.
        for turn in 0..2 {
            if st.ended.is_none() {
                let _ = if turn == 0 {
                    resume_turn(self.setup, &mut st, at, &mut io, &mut NoLog)
                } else {
                    play_turn(self.setup, &mut st, &mut io, &mut NoLog)
                };
            }
            if st.ended.is_some() {
                return scores(&st);
            }
            io.inputs = &[];
            io.pos = 0;
        }
        let v = crate::games::iconica::ai::evaluate(self.setup, &st, 0);
        let p = 1.0 / (1.0 + (-v).exp());
        [p, 1.0 - p]
    }

    /// The state where play currently stands.
    pub fn state(&self) -> &State {
        &self.now
    }

    fn advance(&mut self) {
        loop {
            let (mut st, at, pos) = self.mark;
            if st.ended.is_some() {
                self.now = st;
                self.need = Need::Done;
                return;
            }
            let mut io = Replay::new(&self.inputs[pos..], None, false);
            match resume_turn(self.setup, &mut st, at, &mut io, &mut NoLog) {
                Ok(()) => {
                    self.turn_start = st;
                    self.mark = (st, Resume::Start, 0);
                    self.inputs.clear();
                }
                Err(Stop) => {
                    if let Some((m, at, used)) = io.mark {
                        self.mark = (m, at, pos + used);
                    }
                    self.need = io.need;
                    self.now = st;
                    return;
                }
            }
        }
    }
}

impl GameState for IconicaGame<'_> {
    fn node(&self) -> Node {
        match self.need {
            Need::Die => Node::Chance(6),
            Need::Pick(n) => Node::Chance(n as usize),
            Need::Choice { side, n } => Node::Decision { player: side as usize, actions: n as usize },
            _ => Node::Terminal,
        }
    }

    fn apply(&mut self, action: usize) {
        let v = match self.need {
            Need::Die => action as u8 + 1,
            _ => action as u8,
        };
        self.inputs.push(v);
        self.advance();
    }

    fn returns(&self) -> [f64; 2] {
        match self.now.ended.and_then(|e| e.1) {
            Some(Winner::Side(0)) => [1.0, 0.0],
            Some(Winner::Side(_)) => [0.0, 1.0],
            _ => [0.5, 0.5],
        }
    }

    fn rollout(&mut self, rng: &mut ChaCha8Rng) -> [f64; 2] {
        match self.leaf {
            Leaf::Playout => self.playout(rng),
            Leaf::Eval => self.eval_leaf(rng),
            Leaf::With(score) => {
                let (st, at, pos) = self.mark;
                score(self.setup, &st, at, &self.inputs[pos..], rng)
            }
        }
    }
}

fn scores(st: &State) -> [f64; 2] {
    match st.ended.and_then(|e| e.1) {
        Some(Winner::Side(0)) => [1.0, 0.0],
        Some(Winner::Side(_)) => [0.0, 1.0],
        _ => [0.5, 0.5],
    }
}
