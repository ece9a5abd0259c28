//! Iconica's evaluation for the shared policies ([`crate::games::ai`]): `greedy` (one ply:
//! the best expected outcome of this turn's choice, by sampled completions of the turn) and
//! `mcts` (the shared tree search with chance nodes, seeded with greedy's values, whose leaves
//! are continuations several turns deep with `greedy` playing both sides), each from a copy
//! of the position; and [`Table`], the [`Io`] that seats two agents and a dice source on the
//! engine's fast path.

use rand::RngExt;
use rand_chacha::ChaCha8Rng;

use super::engine::{Choice, Dice, IconicaGame, Io, NoLog, Setup, State, Stop, TurnHook, Winner};
use crate::games::ai::{Evaluated, Evaluator, Tuning, first_best};
use crate::games::game::{Game, Returns};

/// The shared policies, by their command-line names.
pub use crate::games::ai::Policy as PolicyKind;

/// A seated Iconica policy: a shared [`crate::games::ai::Agent`] with Iconica's evaluation.
pub type Agent = crate::games::ai::Agent<IconicaEval>;

/// Exploration of Iconica's search (its leaves are win chances close to 0.5).
pub const MCTS_C: f64 = 0.1;

/// How many visits greedy's value of a root option is worth in the search (measured against
/// `greedy` with 48 playouts, 400 games a seat: 0 visits 52%, 2 56%, 8 65.5%, 16 62.5%,
/// 32 59.6%; docs/ai.md).
pub const MCTS_PRIOR_VISITS: f64 = 8.0;

/// Samples per option in greedy's expectation (common random numbers across options).
pub const GREEDY_SAMPLES: u32 = 4;

/// Options greedy scores at one decision (the first ones in the engine's order).
pub const GREEDY_WIDTH: usize = 16;

/// Iconica's evaluation: [`evaluate`] for a position, sampled completions of the turn for
/// greedy's values, the deep greedy look-ahead ([`greedy_leaf`]) for a search leaf.
#[derive(Debug, Clone, Default)]
pub struct IconicaEval;

impl Evaluated for IconicaGame<'_> {
    type Eval = IconicaEval;

    fn play_out<D: Dice>(
        &mut self,
        dice: &mut D,
        agents: &mut [crate::games::ai::Agent<IconicaEval>],
        log: Option<&mut Vec<super::engine::Event>>,
    ) {
        self.play_fast(dice, agents, log)
    }
}

impl<'s> Evaluator<IconicaGame<'s>> for IconicaEval {
    fn value(&mut self, g: &IconicaGame<'s>, seat: usize) -> f64 {
        evaluate(g.setup(), g.state(), seat as u8)
    }

    /// Greedy's expected evaluation of each option (this turn finished). Each completion
    /// goes on from a copy of the position.
    fn option_values(
        &mut self,
        g: &IconicaGame<'s>,
        seat: usize,
        options: usize,
        rng: &mut ChaCha8Rng,
        out: &mut Vec<f64>,
    ) {
        out.clear();
        out.resize(options.min(GREEDY_WIDTH), 0.0);
        greedy_scores(g, seat as u8, rng, out);
    }

    fn leaf(&mut self, g: &IconicaGame<'s>, rng: &mut ChaCha8Rng) -> Returns {
        if g.outcome().is_some() {
            return g.returns();
        }
        let [a, b] = greedy_leaf(g, rng);
        [a, b, 0.0, 0.0]
    }

    fn tuning(&self) -> Tuning {
        Tuning {
            c: MCTS_C,
            prior_visits: MCTS_PRIOR_VISITS,
        }
    }
}

impl Agent {
    /// The option index for the engine's decision `c` (the position at it is `c.game`).
    pub fn choose_at(&mut self, c: &Choice<'_>) -> u8 {
        let n = c.options.len();
        if n <= 1 {
            return 0;
        }
        if let Some(k) = self.choose_n(n) {
            return k as u8;
        }
        if self.policy == PolicyKind::Greedy {
            // Greedy's values straight from the position: what `option_values` computes.
            let mut values = [0.0f64; GREEDY_WIDTH];
            let values = &mut values[..n.min(GREEDY_WIDTH)];
            greedy_scores(c.game, c.side, &mut self.rng, values);
            return first_best(values) as u8;
        }
        let g = c.game.deciding(c.side, n as u8);
        self.choose(&g, usize::from(c.side), n) as u8
    }
}

/// Greedy's expected evaluation for `side` of each option `k` in `0..out.len()` of the
/// decision `g` waits at: a copy of `g` given `k` and played to the end of the turn, later
/// decisions by `first`, dice from [`GREEDY_SAMPLES`] seeds drawn from `rng`.
fn greedy_scores(g: &IconicaGame<'_>, side: u8, rng: &mut ChaCha8Rng, out: &mut [f64]) {
    let mut seeds = [0u64; GREEDY_SAMPLES as usize];
    for s in seeds.iter_mut() {
        *s = rng.random();
    }
    for k in 0..out.len() as u8 {
        let mut total = 0.0;
        let mut samples = 0.0;
        for &seed in &seeds {
            let mut rest = g.clone();
            let mut io = Rest {
                option: Some(k),
                rng: SplitMix(seed),
                drew: false,
            };
            let _ = rest.play_on(&mut io, &mut NoLog);
            total += evaluate(g.setup(), rest.state(), side);
            samples += 1.0;
            if !io.drew {
                // Nothing random after this choice: every sample would be the same.
                break;
            }
        }
        out[k as usize] = total / samples;
    }
}

/// A position's worth to `side`: +/-1000 for a decided match, else its characters' health
/// (1 per character in play plus its health fraction, minus a little per negative status)
/// against the opponent's.
pub fn evaluate(setup: &Setup, st: &State, side: u8) -> f64 {
    if let Some((_, Some(w))) = st.ended {
        return match w {
            Winner::Side(s) if s == side => 1000.0,
            Winner::Side(_) => -1000.0,
            Winner::Draw => 0.0,
        };
    }
    // Bits set in a status byte (x86-64's baseline has no popcount instruction).
    const ONES: [u8; 256] = {
        let mut t = [0u8; 256];
        let mut i = 0;
        while i < 256 {
            t[i] = (i as u8).count_ones() as u8;
            i += 1;
        }
        t
    };
    let mut v = 0.0;
    // Slots in play, left to right (empty slots count as Skulled).
    for i in super::engine::state::slots(st.alive()) {
        let health = 1.0 + st.hp[i] as f64 / setup.chars[i].start as f64;
        let status = st.status[i];
        // Without statuses the two terms below are exact zeros: the same sum, bit for bit.
        let worth = if status == 0 {
            health
        } else {
            let neg = ONES[(status & super::engine::state::NEGATIVE) as usize] as f64;
            let pos = ONES[(status & !super::engine::state::NEGATIVE) as usize] as f64;
            health - 0.08 * neg + 0.05 * pos
        };
        if setup.side[i] == side {
            v += worth;
        } else {
            v -= worth;
        }
    }
    v
}

/// A tiny fast generator for greedy's turn completions.
#[derive(Debug, Clone, Copy)]
pub struct SplitMix(pub u64);

impl SplitMix {
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    #[inline]
    pub fn below(&mut self, n: u8) -> u8 {
        (((self.next_u64() >> 32) * n as u64) >> 32) as u8
    }
}

/// The option tried, then dice from `rng` and the first option of every later decision.
struct Rest {
    option: Option<u8>,
    rng: SplitMix,
    /// Whether any die was drawn.
    drew: bool,
}

impl Io for Rest {
    #[inline]
    fn die(&mut self) -> Result<u8, Stop> {
        self.drew = true;
        Ok(self.rng.below(6) + 1)
    }
    #[inline]
    fn pick(&mut self, n: u8) -> Result<u8, Stop> {
        self.drew = true;
        Ok(self.rng.below(n))
    }
    fn choose(&mut self, _c: &Choice<'_>) -> Result<u8, Stop> {
        Ok(self.option.take().unwrap_or(0))
    }
    #[inline]
    fn choose_n(&mut self, _side: u8, _n: u8) -> Option<Result<u8, Stop>> {
        Some(Ok(self.option.take().unwrap_or(0)))
    }
}

/// One continuation of `mcts`' look-ahead for `side`: from the position `g`, dice from
/// `seed` and `greedy`'s decisions (for both sides) to the end of this turn and
/// [`LOOK_AHEAD_TURNS`] more (fewer if the match ends); the position's [`evaluate`] for
/// `side`.
pub fn look_ahead(g: &IconicaGame<'_>, seed: u64, greedy: &mut Agent, side: u8) -> f64 {
    let mut g = g.clone();
    let mut io = Ahead {
        rng: SplitMix(seed),
        greedy,
    };
    if g.state().ended.is_none() {
        let _ = g.play_on(&mut io, &mut NoLog);
    }
    for _ in 0..LOOK_AHEAD_TURNS {
        if g.state().ended.is_some() {
            break;
        }
        let _ = g.play_on(&mut io, &mut NoLog);
    }
    evaluate(g.setup(), g.state(), side)
}

/// `mcts`' leaf: from the position `g`, the deep greedy look-ahead ([`look_ahead`]) for
/// side a, as a win chance (logistic); side b gets the rest.
pub fn greedy_leaf(g: &IconicaGame<'_>, rng: &mut ChaCha8Rng) -> [f64; 2] {
    let mut greedy = Agent::new(PolicyKind::Greedy, rng.random());
    let v = look_ahead(g, rng.random(), &mut greedy, 0);
    let p = 1.0 / (1.0 + (-v).exp());
    [p, 1.0 - p]
}

/// Whole turns `mcts`' look-ahead plays after finishing the current one (four of each side).
/// Measured against `greedy` (docs/ai.md): 1 or 2 turns were no better than greedy, 4 won
/// about 57%, 8 about 65%, 16 and play to the end about 60%.
pub const LOOK_AHEAD_TURNS: u32 = 8;

/// The input source of a look-ahead: rolls with `rng` and asks `greedy` for every decision.
struct Ahead<'a> {
    rng: SplitMix,
    greedy: &'a mut Agent,
}

impl Io for Ahead<'_> {
    #[inline]
    fn die(&mut self) -> Result<u8, Stop> {
        Ok(self.rng.below(6) + 1)
    }
    #[inline]
    fn pick(&mut self, n: u8) -> Result<u8, Stop> {
        Ok(self.rng.below(n))
    }
    fn choose(&mut self, c: &Choice<'_>) -> Result<u8, Stop> {
        Ok(self.greedy.choose_at(c))
    }
}

/// Two seated policies and a dice source.
#[derive(Debug, Clone)]
pub struct Table<D: Dice, A: AsMut<[Agent]> = [Agent; 2]> {
    pub dice: D,
    /// Side a's agent, then side b's.
    pub agents: A,
}

impl<'a, D: Dice> Table<D, &'a mut [Agent]> {
    /// A table seating agents it borrows (side a's first).
    pub fn seating(dice: D, agents: &'a mut [Agent]) -> Table<D, &'a mut [Agent]> {
        Table { dice, agents }
    }
}

impl<D: Dice> Table<D> {
    pub fn new(dice: D, a: Agent, b: Agent) -> Table<D> {
        Table {
            dice,
            agents: [a, b],
        }
    }
}

impl<D: Dice, A: AsMut<[Agent]>> TurnHook for Table<D, A> {}

impl<D: Dice, A: AsMut<[Agent]>> Io for Table<D, A> {
    #[inline]
    fn die(&mut self) -> Result<u8, Stop> {
        self.dice.die().ok_or(Stop)
    }
    #[inline]
    fn pick(&mut self, n: u8) -> Result<u8, Stop> {
        self.dice.pick(n).ok_or(Stop)
    }
    fn choose(&mut self, c: &Choice<'_>) -> Result<u8, Stop> {
        Ok(self.agents.as_mut()[c.side as usize & 1].choose_at(c))
    }
    #[inline]
    fn choose_n(&mut self, side: u8, n: u8) -> Option<Result<u8, Stop>> {
        let k = self.agents.as_mut()[side as usize & 1].choose_n(usize::from(n))? as u8;
        Some(Ok(k))
    }
}
