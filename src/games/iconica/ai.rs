//! Iconica's evaluation for the shared policies ([`crate::games::ai`]): `greedy` (one ply:
//! the best expected outcome of this turn's choice, by sampled completions of the turn) and
//! `mcts` (the shared tree search with chance nodes, seeded with greedy's values, whose leaves
//! are continuations several turns deep with `greedy` playing both sides); and [`Table`], the
//! [`Io`] that seats two agents and a dice source on the engine's fast path.

use rand::RngExt;
use rand_chacha::ChaCha8Rng;

use super::engine::{
    Choice, Dice, IconicaGame, Io, NoLog, Resume, Setup, State, Stop, TurnHook, Winner, play_turn,
    resume_turn,
};
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
pub struct IconicaEval {
    scratch: Vec<u8>,
    /// A spare buffer for the inputs of a decision's view.
    spare: Vec<u8>,
}

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
    /// resumes the turn from its latest step boundary with the inputs since.
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
        let (st, at, since) = g.boundary();
        greedy_scores(
            g.setup(),
            seat as u8,
            &Mark {
                state: *st,
                at,
                pos: 0,
            },
            since,
            rng,
            &mut self.scratch,
            out,
        );
    }

    fn leaf(&mut self, g: &IconicaGame<'s>, rng: &mut ChaCha8Rng) -> Returns {
        if g.outcome().is_some() {
            return g.returns();
        }
        let (st, at, since) = g.boundary();
        let [a, b] = greedy_leaf(g.setup(), st, at, since, rng);
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
    /// The option index for the engine's decision `c`, given where the turn stands (`rec`).
    pub fn choose_at(&mut self, c: &Choice<'_>, rec: &TurnRecord<'_>) -> u8 {
        let n = c.options.len();
        if n <= 1 {
            return 0;
        }
        if let Some(k) = self.choose_n(n) {
            return k as u8;
        }
        if self.policy == PolicyKind::Greedy {
            // Greedy's values straight from the turn record: what `option_values` computes
            // on the decision's view, without building the view.
            let mut values = [0.0f64; GREEDY_WIDTH];
            let values = &mut values[..n.min(GREEDY_WIDTH)];
            let mark = rec.latest_mark();
            let since = &rec.inputs[mark.pos.min(rec.inputs.len())..];
            greedy_scores(
                c.setup,
                c.side,
                &mark,
                since,
                &mut self.rng,
                &mut self.eval.scratch,
                values,
            );
            return first_best(values) as u8;
        }
        let mark = rec.mark.map(|m| (m.state, m.at, m.pos));
        // The view of the decision reuses one buffer for the turn's inputs.
        let mut inputs = std::mem::take(&mut self.eval.spare);
        inputs.clear();
        inputs.extend_from_slice(rec.inputs);
        let g =
            IconicaGame::at_decision(c.setup, *rec.start, inputs, mark, c.side, n as u8, *c.state);
        let k = self.choose(&g, usize::from(c.side), n) as u8;
        self.eval.spare = g.into_inputs();
        k
    }
}

/// Greedy's expected evaluation for `side` of each option `k` in `0..out.len()`: the turn
/// finished from the boundary `mark` with the inputs since it (`since`) and `k`, later
/// decisions by `first`, dice from [`GREEDY_SAMPLES`] seeds drawn from `rng`.
fn greedy_scores(
    setup: &Setup,
    side: u8,
    mark: &Mark,
    since: &[u8],
    rng: &mut ChaCha8Rng,
    scratch: &mut Vec<u8>,
    out: &mut [f64],
) {
    let mut seeds = [0u64; GREEDY_SAMPLES as usize];
    for s in seeds.iter_mut() {
        *s = rng.random();
    }
    scratch.clear();
    scratch.extend_from_slice(since);
    scratch.push(0);
    let last = scratch.len() - 1;
    for k in 0..out.len() as u8 {
        scratch[last] = k;
        let mut total = 0.0;
        let mut samples = 0.0;
        for &seed in &seeds {
            let mut st = mark.state;
            let mut io = Rest {
                inputs: scratch,
                pos: 0,
                rng: SplitMix(seed),
                drew: false,
            };
            let _ = resume_turn(setup, &mut st, mark.at, &mut io, &mut NoLog);
            total += evaluate(setup, &st, side);
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

/// Replays inputs, then rolls with `rng` and takes the first option.
struct Rest<'a> {
    inputs: &'a [u8],
    pos: usize,
    rng: SplitMix,
    /// Whether any die was drawn beyond the recorded inputs.
    drew: bool,
}

impl Rest<'_> {
    #[inline]
    fn next(&mut self) -> Option<u8> {
        let v = self.inputs.get(self.pos).copied();
        self.pos += v.is_some() as usize;
        v
    }
}

impl Io for Rest<'_> {
    fn die(&mut self) -> Result<u8, Stop> {
        Ok(match self.next() {
            Some(v) => v,
            None => {
                self.drew = true;
                self.rng.below(6) + 1
            }
        })
    }
    fn pick(&mut self, n: u8) -> Result<u8, Stop> {
        Ok(match self.next() {
            Some(v) => v,
            None => {
                self.drew = true;
                self.rng.below(n)
            }
        })
    }
    fn choose(&mut self, _c: &Choice<'_>) -> Result<u8, Stop> {
        Ok(self.next().unwrap_or(0))
    }
    #[inline]
    fn choose_n(&mut self, _side: u8, _n: u8) -> Option<Result<u8, Stop>> {
        Some(Ok(self.next().unwrap_or(0)))
    }
}

/// The latest step boundary of the current turn: the state there, where to resume, and how
/// many of the turn's inputs came before it.
#[derive(Debug, Clone, Copy)]
pub struct Mark {
    pub state: State,
    pub at: Resume,
    pub pos: usize,
}

/// Where the current turn stands, for search policies: its start, its inputs so far (die
/// faces, picks, option indices) and its latest step boundary.
#[derive(Debug, Clone, Copy)]
pub struct TurnRecord<'a> {
    pub start: &'a State,
    pub inputs: &'a [u8],
    /// `None`: no boundary recorded; search resumes from `start`.
    pub mark: Option<&'a Mark>,
}

impl TurnRecord<'_> {
    /// The latest step boundary, or the turn's start.
    pub fn latest_mark(&self) -> Mark {
        match self.mark {
            Some(m) => *m,
            None => Mark {
                state: *self.start,
                at: Resume::Start,
                pos: 0,
            },
        }
    }
}

/// One continuation of `mcts`' look-ahead for `side`: from the boundary `mark`, the turn's
/// inputs since it (`prefix`, ending with the option tried), then dice from `seed` and
/// `greedy`'s decisions (for both sides) to the end of this turn and [`LOOK_AHEAD_TURNS`]
/// more (fewer if the match ends);
/// the position's [`evaluate`] for `side`.
pub fn look_ahead(
    setup: &Setup,
    mark: &Mark,
    prefix: &[u8],
    seed: u64,
    greedy: &mut Agent,
    inputs: &mut Vec<u8>,
    side: u8,
) -> f64 {
    let mut st = mark.state;
    inputs.clear();
    let mut io = Ahead {
        prefix,
        pos: 0,
        rng: SplitMix(seed),
        greedy,
        start: mark.state,
        inputs,
        mark: Some(Mark { pos: 0, ..*mark }),
    };
    let _ = resume_turn(setup, &mut st, mark.at, &mut io, &mut NoLog);
    for _ in 0..LOOK_AHEAD_TURNS {
        if st.ended.is_some() {
            break;
        }
        io.start = st;
        io.inputs.clear();
        io.mark = None;
        let _ = play_turn(setup, &mut st, &mut io, &mut NoLog);
    }
    evaluate(setup, &st, side)
}

/// `mcts`' leaf: from a step boundary (`state`, resuming at `at`, then `inputs`), the deep
/// greedy look-ahead ([`look_ahead`]) for side a, as a win chance (logistic); side b gets
/// the rest.
pub fn greedy_leaf(
    setup: &Setup,
    state: &State,
    at: Resume,
    inputs: &[u8],
    rng: &mut ChaCha8Rng,
) -> [f64; 2] {
    let mark = Mark {
        state: *state,
        at,
        pos: 0,
    };
    let mut greedy = Agent::new(PolicyKind::Greedy, rng.random());
    let mut scratch = Vec::with_capacity(64);
    let v = look_ahead(
        setup,
        &mark,
        inputs,
        rng.random(),
        &mut greedy,
        &mut scratch,
        0,
    );
    let p = 1.0 / (1.0 + (-v).exp());
    [p, 1.0 - p]
}

/// Whole turns `mcts`' look-ahead plays after finishing the current one (four of each side).
/// Measured against `greedy` (docs/ai.md): 1 or 2 turns were no better than greedy, 4 won
/// about 57%, 8 about 65%, 16 and play to the end about 60%.
pub const LOOK_AHEAD_TURNS: u32 = 8;

/// The input source of a look-ahead: replays `prefix`, then rolls with `rng` and asks
/// `greedy` for every decision, keeping the turn record greedy needs.
struct Ahead<'a> {
    prefix: &'a [u8],
    pos: usize,
    rng: SplitMix,
    greedy: &'a mut Agent,
    start: State,
    inputs: &'a mut Vec<u8>,
    mark: Option<Mark>,
}

impl Ahead<'_> {
    #[inline]
    fn replayed(&mut self) -> Option<u8> {
        let v = self.prefix.get(self.pos).copied();
        self.pos += v.is_some() as usize;
        v
    }
}

impl Io for Ahead<'_> {
    fn die(&mut self) -> Result<u8, Stop> {
        let v = match self.replayed() {
            Some(v) => v,
            None => self.rng.below(6) + 1,
        };
        self.inputs.push(v);
        Ok(v)
    }
    fn pick(&mut self, n: u8) -> Result<u8, Stop> {
        let v = match self.replayed() {
            Some(v) => v,
            None => self.rng.below(n),
        };
        self.inputs.push(v);
        Ok(v)
    }
    fn choose(&mut self, c: &Choice<'_>) -> Result<u8, Stop> {
        let v = match self.replayed() {
            Some(v) => v,
            None => {
                let rec = TurnRecord {
                    start: &self.start,
                    inputs: self.inputs,
                    mark: self.mark.as_ref(),
                };
                self.greedy.choose_at(c, &rec)
            }
        };
        self.inputs.push(v);
        Ok(v)
    }
    #[inline]
    fn choose_n(&mut self, _side: u8, _n: u8) -> Option<Result<u8, Stop>> {
        let v = self.replayed()?;
        self.inputs.push(v);
        Some(Ok(v))
    }
    #[inline]
    fn mark(&mut self, st: &State, at: Resume) {
        self.mark = Some(Mark {
            state: *st,
            at,
            pos: self.inputs.len(),
        });
    }
}

/// Two seated policies and a dice source; records the turn's inputs for search policies.
#[derive(Debug, Clone)]
pub struct Table<D: Dice, A: AsMut<[Agent]> = [Agent; 2]> {
    pub dice: D,
    /// Side a's agent, then side b's.
    pub agents: A,
    turn_start: Option<State>,
    mark: Option<Mark>,
    inputs: Vec<u8>,
    /// Whether any agent needs the turn record (greedy, mcts).
    record: bool,
}

impl<'a, D: Dice> Table<D, &'a mut [Agent]> {
    /// A table seating agents it borrows (side a's first).
    pub fn seating(dice: D, agents: &'a mut [Agent]) -> Table<D, &'a mut [Agent]> {
        let record = agents.iter().any(|x| !x.policy.blind());
        Table {
            dice,
            agents,
            turn_start: None,
            mark: None,
            inputs: Vec::new(),
            record,
        }
    }
}

impl<D: Dice> Table<D> {
    pub fn new(dice: D, a: Agent, b: Agent) -> Table<D> {
        let record = [&a, &b].iter().any(|x| !x.policy.blind());
        Table {
            dice,
            agents: [a, b],
            turn_start: None,
            mark: None,
            inputs: Vec::new(),
            record,
        }
    }
}

impl<D: Dice, A: AsMut<[Agent]>> Table<D, A> {
    /// Records a decision taken outside the seated policies (a person's), so the search
    /// policies replay this turn with it.
    pub fn note_decision(&mut self, k: u8) {
        if self.record {
            self.inputs.push(k);
        }
    }
}

impl<D: Dice, A: AsMut<[Agent]>> TurnHook for Table<D, A> {
    fn begin_turn(&mut self, st: &State) {
        if self.record {
            self.turn_start = Some(*st);
            self.inputs.clear();
        }
    }
}

impl<D: Dice, A: AsMut<[Agent]>> Io for Table<D, A> {
    #[inline]
    fn die(&mut self) -> Result<u8, Stop> {
        let f = self.dice.die().ok_or(Stop)?;
        if self.record {
            self.inputs.push(f);
        }
        Ok(f)
    }
    #[inline]
    fn pick(&mut self, n: u8) -> Result<u8, Stop> {
        let k = self.dice.pick(n).ok_or(Stop)?;
        if self.record {
            self.inputs.push(k);
        }
        Ok(k)
    }
    fn choose(&mut self, c: &Choice<'_>) -> Result<u8, Stop> {
        let start = self.turn_start.as_ref().unwrap_or(c.state);
        let rec = TurnRecord {
            start,
            inputs: &self.inputs,
            mark: self.mark.as_ref(),
        };
        let k = self.agents.as_mut()[c.side as usize & 1].choose_at(c, &rec);
        if self.record {
            self.inputs.push(k);
        }
        Ok(k)
    }
    #[inline]
    fn choose_n(&mut self, side: u8, n: u8) -> Option<Result<u8, Stop>> {
        let k = self.agents.as_mut()[side as usize & 1].choose_n(usize::from(n))? as u8;
        if self.record {
            self.inputs.push(k);
        }
        Some(Ok(k))
    }
    #[inline]
    fn mark(&mut self, st: &State, at: Resume) {
        if self.record {
            self.mark = Some(Mark {
                state: *st,
                at,
                pos: self.inputs.len(),
            });
        }
    }
}
