//! Iconica policies: `first` (the spec's fixed order), `random`, `greedy` (one ply: the best
//! expected outcome of this turn's choice, by sampled completions of the turn) and `mcts`
//! (Monte Carlo tree search with chance nodes, seeded with greedy's values, whose leaves are
//! continuations several turns deep with `greedy` playing both sides); and [`Table`], the [`Io`] that seats two policies
//! and a dice source.

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::engine::{
    play_turn, resume_turn, Choice, Dice, Io, NoLog, Resume, Setup, State, Stop, TurnHook, Winner,
};
use super::engine::{IconicaGame, Leaf};
use crate::games::ai::{mcts_choose_with_prior, Budget, MctsConfig};

/// A policy's name on the command line.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum PolicyKind {
    First,
    Random,
    Greedy,
    Mcts(MctsConfig),
}

impl PolicyKind {
    /// `first`, `random`, `greedy`, `mcts`, `mcts:500` (playouts) or `mcts:50ms`.
    pub fn parse(s: &str) -> Option<PolicyKind> {
        match s {
            "first" => Some(PolicyKind::First),
            "random" => Some(PolicyKind::Random),
            "greedy" => Some(PolicyKind::Greedy),
            "mcts" => Some(PolicyKind::Mcts(MCTS)),
            _ => {
                let rest = s.strip_prefix("mcts:")?;
                let budget = match rest.strip_suffix("ms") {
                    Some(ms) => Budget::Millis(ms.parse().ok().filter(|v| *v > 0)?),
                    None => Budget::Playouts(rest.parse().ok().filter(|v| *v > 0)?),
                };
                Some(PolicyKind::Mcts(MctsConfig { budget, ..MCTS }))
            }
        }
    }

    pub fn name(&self) -> String {
        match self {
            PolicyKind::First => "first".into(),
            PolicyKind::Random => "random".into(),
            PolicyKind::Greedy => "greedy".into(),
            PolicyKind::Mcts(c) => match c.budget {
                Budget::Playouts(n) => format!("mcts:{n}"),
                Budget::Millis(ms) => format!("mcts:{ms}ms"),
            },
        }
    }
}

/// `mcts` defaults for Iconica: 48 playouts (deep greedy continuations) per decision.
pub const MCTS: MctsConfig = MctsConfig { budget: Budget::Playouts(48), c: 0.1 };

/// How many visits greedy's value of a root option is worth in the search (measured against
/// `greedy` with 48 playouts, 400 games a seat: 0 visits 52%, 2 56%, 8 65.5%, 16 62.5%,
/// 32 59.6%; docs/ai.md).
pub const MCTS_PRIOR_VISITS: f64 = 8.0;

/// Samples per option in greedy's expectation (common random numbers across options).
pub const GREEDY_SAMPLES: u32 = 4;

/// A seated policy with its own random stream.
#[derive(Debug, Clone)]
pub struct Agent {
    pub kind: PolicyKind,
    rng: ChaCha8Rng,
    scratch: Vec<u8>,
}

impl Agent {
    pub fn new(kind: PolicyKind, seed: u64) -> Agent {
        Agent { kind, rng: ChaCha8Rng::seed_from_u64(seed), scratch: Vec::new() }
    }

    /// The option index for `c`, given where the turn stands (`rec`).
    #[inline]
    pub fn choose(&mut self, c: &Choice<'_>, rec: &TurnRecord<'_>) -> u8 {
        let n = c.options.len();
        if n <= 1 {
            return 0;
        }
        match self.kind {
            PolicyKind::First => 0,
            PolicyKind::Random => self.rng.random_range(0..n as u8),
            PolicyKind::Greedy => self.greedy(c, rec),
            PolicyKind::Mcts(cfg) => self.mcts(c, rec, cfg),
        }
    }

    /// The choice of a policy that needs only the number of options (`first`, `random`).
    #[inline]
    pub fn choose_n(&mut self, n: u8) -> Option<u8> {
        match self.kind {
            PolicyKind::First => Some(0),
            PolicyKind::Random => Some(if n <= 1 { 0 } else { self.rng.random_range(0..n) }),
            _ => None,
        }
    }

    /// Monte Carlo tree search (`games::ai`: UCT with chance nodes for the dice) from this
    /// decision. Greedy's one-ply values seed the root's options, worth [`MCTS_PRIOR_VISITS`]
    /// visits each; a leaf is scored by a deep greedy continuation ([`greedy_leaf`]: the
    /// rest of the turn and [`LOOK_AHEAD_TURNS`] more with `greedy` deciding for both sides,
    /// then [`evaluate`]). `cfg.budget` counts playouts (leaves) per decision.
    #[inline(never)]
    fn mcts(&mut self, c: &Choice<'_>, rec: &TurnRecord<'_>, cfg: MctsConfig) -> u8 {
        let mut prior = [0.0f64; 16];
        let n = c.options.len().min(16);
        self.greedy_scores(c, rec, &mut prior[..n]);
        for p in prior[..n].iter_mut() {
            *p = 1.0 / (1.0 + (-*p).exp());
        }
        let g = IconicaGame::at(c.setup, *rec.start, rec.inputs).with_leaf(Leaf::With(greedy_leaf));
        mcts_choose_with_prior(&g, &cfg, &prior[..n], MCTS_PRIOR_VISITS, &mut self.rng) as u8
    }

    #[inline(never)]
    fn greedy(&mut self, c: &Choice<'_>, rec: &TurnRecord<'_>) -> u8 {
        let mut scores = [0.0f64; 16];
        let n = c.options.len().min(16);
        self.greedy_scores(c, rec, &mut scores[..n]);
        let mut best = (f64::NEG_INFINITY, 0u8);
        for (k, s) in scores[..n].iter().enumerate() {
            if *s > best.0 {
                best = (*s, k as u8);
            }
        }
        best.1
    }

    /// Greedy's expected evaluation of each option (this turn finished). Each completion
    /// resumes the turn from its latest step boundary (`rec.mark`) with the inputs since.
    fn greedy_scores(&mut self, c: &Choice<'_>, rec: &TurnRecord<'_>, out: &mut [f64]) {
        let mut seeds = [0u64; GREEDY_SAMPLES as usize];
        for s in seeds.iter_mut() {
            *s = self.rng.random();
        }
        let mark = rec.latest_mark();
        self.scratch.clear();
        self.scratch.extend_from_slice(&rec.inputs[mark.pos.min(rec.inputs.len())..]);
        self.scratch.push(0);
        let last = self.scratch.len() - 1;
        for k in 0..out.len() as u8 {
            self.scratch[last] = k;
            let mut total = 0.0;
            let mut samples = 0.0;
            for &seed in &seeds {
                let mut st = mark.state;
                let mut io = Rest { inputs: &self.scratch, pos: 0, rng: SplitMix(seed), drew: false };
                let _ = resume_turn(c.setup, &mut st, mark.at, &mut io, &mut NoLog);
                total += evaluate(c.setup, &st, c.side);
                samples += 1.0;
                if !io.drew {
                    // Nothing random after this choice: every sample would be the same.
                    break;
                }
            }
            out[k as usize] = total / samples;
        }
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
            None => Mark { state: *self.start, at: Resume::Start, pos: 0 },
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
pub fn greedy_leaf(setup: &Setup, state: &State, at: Resume, inputs: &[u8], rng: &mut ChaCha8Rng) -> [f64; 2] {
    let mark = Mark { state: *state, at, pos: 0 };
    let mut greedy = Agent::new(PolicyKind::Greedy, rng.random());
    let mut scratch = Vec::with_capacity(64);
    let v = look_ahead(setup, &mark, inputs, rng.random(), &mut greedy, &mut scratch, 0);
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
                let rec = TurnRecord { start: &self.start, inputs: self.inputs, mark: self.mark.as_ref() };
                self.greedy.choose(c, &rec)
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
        self.mark = Some(Mark { state: *st, at, pos: self.inputs.len() });
    }
}

/// Two seated policies and a dice source; records the turn's inputs for search policies.
#[derive(Debug, Clone)]
pub struct Table<D: Dice> {
    pub dice: D,
    pub agents: [Agent; 2],
    turn_start: Option<State>,
    mark: Option<Mark>,
    inputs: Vec<u8>,
    /// Whether any agent needs the turn record (greedy, mcts).
    record: bool,
}

impl<D: Dice> Table<D> {
    pub fn new(dice: D, a: Agent, b: Agent) -> Table<D> {
        let record = [&a, &b].iter().any(|x| matches!(x.kind, PolicyKind::Greedy | PolicyKind::Mcts(_)));
        Table { dice, agents: [a, b], turn_start: None, mark: None, inputs: Vec::new(), record }
    }
}

impl<D: Dice> Table<D> {
    /// Records a decision taken outside the seated policies (a person's), so the search
    /// policies replay this turn with it.
    pub fn note_decision(&mut self, k: u8) {
        if self.record {
            self.inputs.push(k);
        }
    }
}

impl<D: Dice> TurnHook for Table<D> {
    fn begin_turn(&mut self, st: &State) {
        if self.record {
            self.turn_start = Some(*st);
            self.inputs.clear();
        }
    }
}

impl<D: Dice> Io for Table<D> {
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
        let rec = TurnRecord { start, inputs: &self.inputs, mark: self.mark.as_ref() };
        let k = self.agents[c.side as usize & 1].choose(c, &rec);
        if self.record {
            self.inputs.push(k);
        }
        Ok(k)
    }
    #[inline]
    fn choose_n(&mut self, side: u8, n: u8) -> Option<Result<u8, Stop>> {
        let k = self.agents[side as usize & 1].choose_n(n)?;
        if self.record {
            self.inputs.push(k);
        }
        Some(Ok(k))
    }
    #[inline]
    fn mark(&mut self, st: &State, at: Resume) {
        if self.record {
            self.mark = Some(Mark { state: *st, at, pos: self.inputs.len() });
        }
    }
}
