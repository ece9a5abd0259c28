//! The shared policies over [`Game`]: `first`, `random`, `greedy` and `mcts`, each seated as an
//! [`Agent`] with its own random stream, and the seat-view `seat-greedy` and `seat-mcts`,
//! which decide from positions the seat cannot tell from the real one
//! ([`Game::determinize`]) and so never read a fact hidden from it (a hosted match's
//! computer plays them). A game gives only its [`Evaluator`]: a position's
//! worth to a seat, and optionally greedy's values of the options (which also seed the
//! search's root), the options the search expands, and how a search leaf is scored.
//!
//! The search is Monte Carlo tree search with chance nodes (UCT at decisions, sampled
//! outcomes at chance nodes, max-n returns for any number of seats), like OpenSpiel's
//! `algorithms/mcts.h` with its `Evaluator`.

use std::fmt;
use std::str::FromStr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::dice::Dice;
use super::game::{Chance, Game, MAX_SEATS, Returns, Turn};

/// How much search a decision gets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Budget {
    /// Leaves scored per decision (replayable).
    Playouts(u32),
    /// Search until this many milliseconds have passed (reads the clock: not replayable).
    Millis(u64),
}

/// Playouts of plain `mcts`.
pub const DEFAULT_PLAYOUTS: u32 = 48;

/// A policy as the command line and the app name it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Policy {
    /// Option 0 of the game's documented order.
    First,
    /// A uniformly random option.
    Random,
    /// The option with the best value by the game's evaluation.
    Greedy,
    /// Tree search with this budget.
    Mcts(Budget),
    /// Greedy from the seat's own view: its values averaged over [`SEAT_WORLDS`] positions
    /// the seat cannot tell from the real one ([`Game::determinize`]), never the real one.
    SeatGreedy,
    /// Determinized tree search from the seat's own view: [`SEAT_WORLDS`] positions the seat
    /// cannot tell from the real one ([`Game::determinize`]), each searched with this budget
    /// (a time budget shared among them), their root visits added up. It never reads a fact
    /// hidden from the seat; where the game hides nothing it plays exactly as [`Policy::Mcts`].
    SeatMcts(Budget),
}

/// Positions a seat-view policy ([`Policy::SeatGreedy`], [`Policy::SeatMcts`]) draws per
/// decision (measured in `docs/ai.md`).
pub const SEAT_WORLDS: usize = 4;

/// A policy name that is none of `first`, `random`, `greedy`, `mcts`, `mcts:N`, `mcts:Nms`,
/// `seat-greedy`, `seat-mcts`, `seat-mcts:N`, `seat-mcts:Nms`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown policy `{0}`; expected first, random, greedy, mcts, mcts:N, mcts:Nms, seat-greedy, seat-mcts, seat-mcts:N or seat-mcts:Nms"
)]
pub struct UnknownPolicy(pub String);

impl Policy {
    /// The policy of seat `seat` when `policies` lists them in seat order: the last one for
    /// seats past the list, `first` for an empty list.
    pub fn of_seat(policies: &[Policy], seat: usize) -> Policy {
        policies
            .get(seat)
            .or(policies.last())
            .copied()
            .unwrap_or(Policy::First)
    }

    /// Every policy, with `mcts` at its default budget.
    pub const ALL: [Policy; 4] = [
        Policy::First,
        Policy::Random,
        Policy::Greedy,
        Policy::Mcts(Budget::Playouts(DEFAULT_PLAYOUTS)),
    ];

    /// `first`, `random`, `greedy`, `mcts`, `mcts:500` (playouts) or `mcts:50ms`.
    pub fn parse(s: &str) -> Option<Policy> {
        s.parse().ok()
    }

    /// Its name as [`Policy::parse`] reads it (`mcts` with its budget: `mcts:48`).
    pub fn name(&self) -> String {
        self.to_string()
    }

    /// Whether it decides from the number of options alone.
    pub fn blind(&self) -> bool {
        matches!(self, Policy::First | Policy::Random)
    }

    /// The policy that decides from the seat's own view alone: `greedy` and `mcts` become
    /// their seat-view variants; `first`, `random` (which read nothing) and the seat-view
    /// policies stay as they are. What a hosted match's computer seat plays.
    pub fn seat_view(self) -> Policy {
        match self {
            Policy::Greedy => Policy::SeatGreedy,
            Policy::Mcts(b) => Policy::SeatMcts(b),
            other => other,
        }
    }

    /// Whether it reads only what its seat sees.
    pub fn seat_only(&self) -> bool {
        matches!(
            self,
            Policy::First | Policy::Random | Policy::SeatGreedy | Policy::SeatMcts(_)
        )
    }
}

/// A budget as `mcts:` and `seat-mcts:` name it: `N` playouts or `Nms`.
fn parse_budget(rest: &str) -> Option<Budget> {
    Some(match rest.strip_suffix("ms") {
        Some(ms) => Budget::Millis(ms.parse().ok().filter(|v| *v > 0)?),
        None => Budget::Playouts(rest.parse().ok().filter(|v| *v > 0)?),
    })
}

impl FromStr for Policy {
    type Err = UnknownPolicy;
    fn from_str(s: &str) -> Result<Policy, UnknownPolicy> {
        let bad = || UnknownPolicy(s.to_string());
        Ok(match s {
            "first" => Policy::First,
            "random" => Policy::Random,
            "greedy" => Policy::Greedy,
            "mcts" => Policy::Mcts(Budget::Playouts(DEFAULT_PLAYOUTS)),
            "seat-greedy" => Policy::SeatGreedy,
            "seat-mcts" => Policy::SeatMcts(Budget::Playouts(DEFAULT_PLAYOUTS)),
            _ => {
                if let Some(rest) = s.strip_prefix("seat-mcts:") {
                    Policy::SeatMcts(parse_budget(rest).ok_or_else(bad)?)
                } else {
                    let rest = s.strip_prefix("mcts:").ok_or_else(bad)?;
                    Policy::Mcts(parse_budget(rest).ok_or_else(bad)?)
                }
            }
        })
    }
}

impl fmt::Display for Policy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Policy::First => f.write_str("first"),
            Policy::Random => f.write_str("random"),
            Policy::Greedy => f.write_str("greedy"),
            Policy::Mcts(Budget::Playouts(n)) => write!(f, "mcts:{n}"),
            Policy::Mcts(Budget::Millis(ms)) => write!(f, "mcts:{ms}ms"),
            Policy::SeatGreedy => f.write_str("seat-greedy"),
            Policy::SeatMcts(Budget::Playouts(n)) => write!(f, "seat-mcts:{n}"),
            Policy::SeatMcts(Budget::Millis(ms)) => write!(f, "seat-mcts:{ms}ms"),
        }
    }
}

/// A game's search settings.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Tuning {
    /// UCT exploration constant.
    pub c: f64,
    /// Virtual visits each root option starts with at its prior win chance (0: no prior).
    pub prior_visits: f64,
}

impl Default for Tuning {
    fn default() -> Self {
        Tuning {
            c: 1.0,
            prior_visits: 0.0,
        }
    }
}

/// A game's own evaluation, named beside its policies (its `ai.rs`), apart from its rules:
/// the engine never names it, so the rules import nothing of the AI. Also the whole match
/// played by policies, which a game may play by a faster path of its own.
pub trait Evaluated: Game {
    /// The evaluation the shared policies use for this game.
    type Eval: Evaluator<Self> + Default + Clone + Send;

    /// Plays to the end: chance from `dice`, each seat's decisions from its agent, every
    /// event into `log` when given. A game may override it with a faster path that plays
    /// exactly the same match (the same dice drawn, the same options chosen).
    fn play_out<D: Dice>(
        &mut self,
        dice: &mut D,
        agents: &mut [Agent<Self::Eval>],
        log: Option<&mut Vec<Self::Event>>,
    ) {
        play_nodes(self, dice, agents, log)
    }
}

/// [`Evaluated::play_out`]'s general path: node by node, chance from `dice`, each seat's
/// decision from its agent (`agents[seat]`).
pub fn play_nodes<G: Game, E: Evaluator<G>, D: Dice>(
    g: &mut G,
    dice: &mut D,
    agents: &mut [Agent<E>],
    log: Option<&mut Vec<G::Event>>,
) {
    play_nodes_choosing(g, dice, agents, log, |g, agent, seat, options| {
        agent.choose(g, seat, options)
    })
}

/// [`play_nodes`] with each seat's decision made by `choose(g, agent, seat, options)`: for
/// a game that reaches the option an agent would choose by a faster way of its own.
pub fn play_nodes_choosing<G: Game, E: Evaluator<G>, D: Dice>(
    g: &mut G,
    dice: &mut D,
    agents: &mut [Agent<E>],
    mut log: Option<&mut Vec<G::Event>>,
    mut choose: impl FnMut(&G, &mut Agent<E>, usize, usize) -> usize,
) {
    loop {
        let a = match g.turn() {
            Turn::Over => return,
            Turn::Chance(c) => match c.draw(dice) {
                Some(o) => o,
                None => {
                    let mut sink = Vec::new();
                    g.exhausted(log.as_deref_mut().unwrap_or(&mut sink));
                    return;
                }
            },
            Turn::Seat { seat, options } => {
                choose(g, &mut agents[seat % agents.len()], seat, options)
                    .min(options.saturating_sub(1))
            }
        };
        match log.as_deref_mut() {
            Some(l) => g.apply_logged(a, l),
            None => g.apply(a),
        }
    }
}

/// What a game gives the shared policies: how good a position is for a seat. Only
/// [`Evaluator::value`] is required; the rest have general defaults a game may sharpen.
pub trait Evaluator<G: Game> {
    /// A position's worth to `seat`: higher is better, on any scale.
    fn value(&mut self, g: &G, seat: usize) -> f64;

    /// Greedy's value of each of the `options` of `seat`'s decision at `g`, into `out`.
    /// Default: the [`Evaluator::value`] after the option, with any chance that follows
    /// before the next decision drawn from `rng`.
    fn option_values(
        &mut self,
        g: &G,
        seat: usize,
        options: usize,
        rng: &mut ChaCha8Rng,
        out: &mut Vec<f64>,
    ) {
        out.clear();
        let seed: u64 = rng.random();
        for a in 0..options {
            let mut next = g.clone();
            next.apply(a);
            let mut r = ChaCha8Rng::seed_from_u64(seed);
            while let Turn::Chance(c) = next.turn() {
                next.apply(r.random_range(0..c.outcomes()));
            }
            out.push(self.value(&next, seat));
        }
    }

    /// Turns the values of the search's root options into prior win chances (0..=1).
    /// Default: the logistic of each value.
    fn priors(&self, values: &[f64], out: &mut Vec<f64>) {
        out.clear();
        out.extend(values.iter().map(|v| 1.0 / (1.0 + (-v).exp())));
    }

    /// The options the search expands at a decision of `seat` with `options` options, best
    /// first or in order (default: all, in order).
    fn candidates(&mut self, _g: &G, _seat: usize, options: usize, out: &mut Vec<usize>) {
        out.clear();
        out.extend(0..options);
    }

    /// The returns a search leaf is worth. Default: uniformly random play to the end.
    fn leaf(&mut self, g: &G, rng: &mut ChaCha8Rng) -> Returns {
        random_playout(g, rng)
    }

    /// The search's settings for this game.
    fn tuning(&self) -> Tuning {
        Tuning::default()
    }
}

/// Plays uniformly at random (decisions and chance) to the end; the final returns.
pub fn random_playout<G: Game>(g: &G, rng: &mut ChaCha8Rng) -> Returns {
    let mut s = g.clone();
    loop {
        match s.turn() {
            Turn::Over => return s.returns(),
            Turn::Seat { options, .. } => s.apply(rng.random_range(0..options.max(1))),
            Turn::Chance(c) => s.apply(sample(c, rng)),
        }
    }
}

/// How long a tree search runs: its budget, and a flag that ends it early when set (a face's
/// Stop; a search ended so is not a decision to take).
#[derive(Debug, Clone, Copy)]
pub struct Limit<'a> {
    pub budget: Budget,
    pub stop: Option<&'a AtomicBool>,
}

impl From<Budget> for Limit<'_> {
    fn from(budget: Budget) -> Self {
        Limit { budget, stop: None }
    }
}

/// A seated policy: the policy, its own random stream and the game's evaluation.
#[derive(Debug, Clone)]
pub struct Agent<E> {
    pub policy: Policy,
    pub rng: ChaCha8Rng,
    pub eval: E,
    values: Vec<f64>,
    /// Ends a search early when set ([`Agent::stopped_by`]).
    stop: Option<Arc<AtomicBool>>,
}

impl<E: Default> Agent<E> {
    /// A policy seeded with `seed`, with the game's default evaluation.
    pub fn new(policy: Policy, seed: u64) -> Agent<E> {
        Agent::with_eval(policy, seed, E::default())
    }
}

impl<E> Agent<E> {
    pub fn with_eval(policy: Policy, seed: u64, eval: E) -> Agent<E> {
        Agent {
            policy,
            rng: ChaCha8Rng::seed_from_u64(seed),
            eval,
            values: Vec::new(),
            stop: None,
        }
    }

    /// The agent with its searches ended early when `stop` is set: its choice is then not
    /// the policy's, and the caller drops it.
    pub fn stopped_by(mut self, stop: Arc<AtomicBool>) -> Agent<E> {
        self.stop = Some(stop);
        self
    }

    /// The choice of a policy that needs only the number of options (`first`, `random`);
    /// `None` for the others.
    #[inline]
    pub fn choose_n(&mut self, options: usize) -> Option<usize> {
        match self.policy {
            Policy::First => Some(0),
            Policy::Random => Some(if options <= 1 {
                0
            } else {
                self.rng.random_range(0..options)
            }),
            _ => None,
        }
    }

    /// The option `seat` takes at `g` (a decision with `options` options).
    pub fn choose<G: Game>(&mut self, g: &G, seat: usize, options: usize) -> usize
    where
        E: Evaluator<G>,
    {
        if options <= 1 {
            return 0;
        }
        if let Some(a) = self.choose_n(options) {
            return a;
        }
        if let Policy::SeatGreedy | Policy::SeatMcts(_) = self.policy {
            return self.choose_seen(g, seat, options);
        }
        self.eval
            .option_values(g, seat, options, &mut self.rng, &mut self.values);
        match self.policy {
            Policy::Mcts(budget) => mcts(
                g,
                seat,
                options,
                &self.values,
                Limit {
                    budget,
                    stop: self.stop.as_deref(),
                },
                &mut self.eval,
                &mut self.rng,
            ),
            _ => first_best(&self.values),
        }
    }
}

impl<E> Agent<E> {
    /// A seat-view policy's choice: from [`SEAT_WORLDS`] determinizations of `g` for `seat`
    /// ([`Game::determinize`]), never from `g` itself; greedy's values or the search's root
    /// visits added up over them, the best taken (the lower option on a tie). Where the game
    /// hides nothing from the seat (`determinize` gives `None`), the plain policy at `g`.
    fn choose_seen<G: Game>(&mut self, g: &G, seat: usize, options: usize) -> usize
    where
        E: Evaluator<G>,
    {
        let plain = match self.policy {
            Policy::SeatMcts(b) => Policy::Mcts(b),
            _ => Policy::Greedy,
        };
        // Asked with a copy of the stream, so a game that hides nothing plays exactly as the
        // plain policy (the same draws from the agent's own stream).
        if g.determinize(seat, &mut self.rng.clone()).is_none() {
            let policy = std::mem::replace(&mut self.policy, plain);
            let a = self.choose(g, seat, options);
            self.policy = policy;
            return a;
        }
        let budget = match self.policy {
            Policy::SeatMcts(Budget::Millis(ms)) => {
                Some(Budget::Millis((ms / SEAT_WORLDS as u64).max(1)))
            }
            Policy::SeatMcts(b) => Some(b),
            _ => None,
        };
        let mut total = vec![0.0; options];
        for _ in 0..SEAT_WORLDS {
            if self
                .stop
                .as_deref()
                .is_some_and(|s| s.load(Ordering::Relaxed))
            {
                break;
            }
            let Some(world) = g.determinize(seat, &mut self.rng) else {
                continue;
            };
            // A world that puts another decision to the seat is not one it cannot tell apart
            // (a game's bug, which the conformance check catches): it is skipped.
            if world.turn() != (Turn::Seat { seat, options }) {
                continue;
            }
            self.eval
                .option_values(&world, seat, options, &mut self.rng, &mut self.values);
            match budget {
                Some(budget) => {
                    let visits = mcts_visits(
                        &world,
                        seat,
                        options,
                        &self.values,
                        Limit {
                            budget,
                            stop: self.stop.as_deref(),
                        },
                        &mut self.eval,
                        &mut self.rng,
                    );
                    for (a, v) in visits {
                        if let Some(t) = total.get_mut(a) {
                            *t += v;
                        }
                    }
                }
                None => {
                    for (t, v) in total.iter_mut().zip(&self.values) {
                        *t += v;
                    }
                }
            }
        }
        first_best(&total)
    }
}

/// The first index of the largest value (0 for none).
pub fn first_best(values: &[f64]) -> usize {
    let mut b = 0;
    for (i, v) in values.iter().enumerate() {
        if *v > values[b] {
            b = i;
        }
    }
    b
}

struct TNode {
    visits: f64,
    /// Sum of returns of the seat that moved into this node.
    value: f64,
    /// Seat that moved into this node (decision children only; `usize::MAX` otherwise).
    mover: usize,
    /// (option or outcome, node id) of the children made so far.
    children: Vec<(usize, u32)>,
    /// At a decision: the options the search expands, in expansion order.
    options: Vec<usize>,
}

impl TNode {
    fn new(mover: usize) -> TNode {
        TNode {
            visits: 0.0,
            value: 0.0,
            mover,
            children: Vec::new(),
            options: Vec::new(),
        }
    }
}

/// Tree search from `root`, a decision of `seat` with `options` options whose greedy values
/// are `values` (the priors' source; ignored unless one per root candidate), within `limit`.
/// Returns the option chosen: the root child visited most (the lower option on a tie).
pub fn mcts<'a, G: Game, E: Evaluator<G>>(
    root: &G,
    seat: usize,
    options: usize,
    values: &[f64],
    limit: impl Into<Limit<'a>>,
    eval: &mut E,
    rng: &mut ChaCha8Rng,
) -> usize {
    most_visited(&mcts_visits(root, seat, options, values, limit, eval, rng))
}

/// The option visited most (the lower option on a tie; 0 for none).
fn most_visited(visits: &[(usize, f64)]) -> usize {
    visits
        .iter()
        .max_by(|x, y| {
            x.1.partial_cmp(&y.1)
                .unwrap_or(std::cmp::Ordering::Equal)
                .then(y.0.cmp(&x.0))
        })
        .map(|c| c.0)
        .unwrap_or(0)
}

/// [`mcts`]'s search: each root option it made a child for, with its visits (prior visits
/// included); a decision the search does not weigh (one option, or one candidate) is that
/// option with one visit.
pub fn mcts_visits<'a, G: Game, E: Evaluator<G>>(
    root: &G,
    seat: usize,
    options: usize,
    values: &[f64],
    limit: impl Into<Limit<'a>>,
    eval: &mut E,
    rng: &mut ChaCha8Rng,
) -> Vec<(usize, f64)> {
    let Limit { budget, stop } = limit.into();
    if options <= 1 {
        return vec![(0, 1.0)];
    }
    let tuning = eval.tuning();
    // Room for a node a playout (the most a playout adds past a decision), so the tree is
    // not moved as it grows.
    let room = match budget {
        Budget::Playouts(n) => n as usize + options.min(256) + 1,
        Budget::Millis(_) => 1024,
    };
    let mut tree = Vec::with_capacity(room.min(1 << 16));
    tree.push(TNode::new(usize::MAX));
    eval.candidates(root, seat, options, &mut tree[0].options);
    let cands = tree[0].options.clone();
    if cands.len() <= 1 {
        return vec![(cands.first().copied().unwrap_or(0), 1.0)];
    }
    let cand_values: Vec<f64> = if values.len() == options {
        cands.iter().map(|&a| values[a]).collect()
    } else {
        values.to_vec()
    };
    let mut prior = Vec::new();
    eval.priors(&cand_values, &mut prior);
    if prior.len() == cands.len() && tuning.prior_visits > 0.0 {
        let w = tuning.prior_visits;
        for (&a, p) in cands.iter().zip(&prior) {
            let mut n = TNode::new(seat);
            n.visits = w;
            n.value = w * p;
            tree.push(n);
            let id = (tree.len() - 1) as u32;
            tree[0].children.push((a, id));
        }
        tree[0].visits = w * cands.len() as f64;
    }
    let started = Instant::now();
    let mut path: Vec<u32> = Vec::with_capacity(64);
    let mut done = 0u32;
    loop {
        if stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
            break;
        }
        match budget {
            Budget::Playouts(n) if done >= n => break,
            Budget::Millis(ms) if done > 0 && started.elapsed() >= Duration::from_millis(ms) => {
                break;
            }
            _ => {}
        }
        done += 1;
        let mut state = root.clone();
        path.clear();
        path.push(0);
        let mut cur = 0u32;
        let rewards = loop {
            match state.turn() {
                Turn::Over => break state.returns(),
                Turn::Seat {
                    seat: mover,
                    options,
                } => {
                    let node = cur as usize;
                    if tree[node].options.is_empty() {
                        let mut opts = std::mem::take(&mut tree[node].options);
                        eval.candidates(&state, mover, options, &mut opts);
                        if opts.is_empty() {
                            opts.push(0);
                        }
                        tree[node].options = opts;
                    }
                    let tried = tree[node].children.len();
                    if tried < tree[node].options.len() {
                        let a = tree[node].options[tried];
                        tree.push(TNode::new(mover));
                        let id = (tree.len() - 1) as u32;
                        tree[node].children.push((a, id));
                        state.apply(a);
                        path.push(id);
                        break eval.leaf(&state, rng);
                    }
                    let ln = tree[node].visits.max(1.0).ln();
                    let mut best = (f64::NEG_INFINITY, 0usize, 0u32);
                    for &(a, id) in &tree[node].children {
                        let ch = &tree[id as usize];
                        let n = ch.visits.max(1e-9);
                        let u = ch.value / n + tuning.c * (ln / n).sqrt();
                        if u > best.0 {
                            best = (u, a, id);
                        }
                    }
                    state.apply(best.1);
                    cur = best.2;
                    path.push(cur);
                }
                Turn::Chance(c) => {
                    let a = sample(c, rng);
                    let found = tree[cur as usize]
                        .children
                        .iter()
                        .find(|ch| ch.0 == a)
                        .map(|ch| ch.1);
                    let id = match found {
                        Some(id) => id,
                        None => {
                            tree.push(TNode::new(usize::MAX));
                            let id = (tree.len() - 1) as u32;
                            tree[cur as usize].children.push((a, id));
                            id
                        }
                    };
                    state.apply(a);
                    cur = id;
                    path.push(cur);
                }
            }
        };
        for &id in &path {
            let nd = &mut tree[id as usize];
            nd.visits += 1.0;
            if nd.mover < MAX_SEATS {
                nd.value += rewards[nd.mover];
            }
        }
    }
    tree[0]
        .children
        .iter()
        .map(|&(a, id)| (a, tree[id as usize].visits))
        .collect()
}

/// A chance outcome drawn uniformly (the way the search always has: a uniform `f64` walked
/// along equal probabilities, so searches replay as before).
fn sample(c: Chance, rng: &mut ChaCha8Rng) -> usize {
    let n = c.outcomes();
    let p = 1.0 / n as f64;
    let mut x: f64 = rng.random_range(0.0..1.0);
    for i in 0..n {
        if x < p {
            return i;
        }
        x -= p;
    }
    n - 1
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::game::{Ending, Outcome, Seats, Verdict};

    /// Pick a number 0..3; chance adds 0..=5 (a die); seat 0 wins on a total of 6 or more.
    #[derive(Clone, Debug)]
    struct Toy {
        picked: Option<usize>,
        total: Option<usize>,
    }

    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    struct Done;
    impl Ending for Done {
        const ALL: &'static [Done] = &[Done];
        fn name(self) -> &'static str {
            "done"
        }
    }

    #[derive(Default, Clone)]
    struct ToyEval;
    impl Evaluator<Toy> for ToyEval {
        fn value(&mut self, g: &Toy, seat: usize) -> f64 {
            let v = g.picked.unwrap_or(0) as f64;
            if seat == 0 { v } else { -v }
        }
    }

    impl Evaluated for Toy {
        type Eval = ToyEval;
    }

    impl Game for Toy {
        type Ending = Done;
        type Event = ();
        const NAME: &'static str = "toy";
        fn seats(&self) -> usize {
            2
        }
        fn fingerprint(&self) -> u64 {
            crate::games::game::fingerprint_of(&(self.picked, self.total))
        }
        fn turn(&self) -> Turn {
            match (self.picked, self.total) {
                (None, _) => Turn::Seat {
                    seat: 0,
                    options: 3,
                },
                (Some(_), None) => Turn::Chance(Chance::Die),
                _ => Turn::Over,
            }
        }
        fn apply(&mut self, a: usize) {
            match self.picked {
                None => self.picked = Some(a),
                Some(p) => self.total = Some(p + a),
            }
        }
        fn apply_logged(&mut self, a: usize, _log: &mut Vec<()>) {
            self.apply(a)
        }
        fn exhausted(&mut self, _log: &mut Vec<()>) {
            self.total = Some(0);
        }
        fn outcome(&self) -> Option<Outcome<Done>> {
            let t = self.total?;
            Some(Outcome {
                verdict: Verdict::Won(Seats::one(if t >= 6 { 0 } else { 1 })),
                ended: Done,
                turns: 1,
            })
        }
        fn turns(&self) -> u32 {
            1
        }
        fn question(&self) -> String {
            "pick".into()
        }
        fn describe(&self, a: usize) -> String {
            a.to_string()
        }
        fn event_text(&self, _e: &()) -> String {
            String::new()
        }
        fn event_json(&self, _e: &()) -> serde_json::Value {
            serde_json::Value::Null
        }
    }

    #[test]
    fn mcts_finds_the_best_option_through_chance() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let root = Toy {
            picked: None,
            total: None,
        };
        assert_eq!(
            mcts(
                &root,
                0,
                3,
                &[],
                Budget::Playouts(400),
                &mut ToyEval,
                &mut rng
            ),
            2
        );
    }

    #[test]
    fn greedy_takes_the_best_value_and_first_takes_option_zero() {
        let root = Toy {
            picked: None,
            total: None,
        };
        assert_eq!(
            Agent::<ToyEval>::new(Policy::Greedy, 1).choose(&root, 0, 3),
            2
        );
        assert_eq!(
            Agent::<ToyEval>::new(Policy::First, 1).choose(&root, 0, 3),
            0
        );
        let picks: Vec<usize> = {
            let mut a = Agent::<ToyEval>::new(Policy::Random, 5);
            (0..60).map(|_| a.choose(&root, 0, 3)).collect()
        };
        assert!((0..3).all(|k| picks.contains(&k)), "{picks:?}");
    }

    #[test]
    fn policies_parse_and_print_their_names() {
        for s in [
            "first",
            "random",
            "greedy",
            "mcts:48",
            "mcts:7",
            "mcts:20ms",
            "seat-greedy",
            "seat-mcts:48",
            "seat-mcts:5",
            "seat-mcts:30ms",
        ] {
            assert_eq!(Policy::parse(s).map(|p| p.name()), Some(s.to_string()));
        }
        assert_eq!(
            Policy::parse("mcts"),
            Some(Policy::Mcts(Budget::Playouts(48)))
        );
        assert_eq!(
            Policy::parse("seat-mcts"),
            Some(Policy::SeatMcts(Budget::Playouts(48)))
        );
        for bad in [
            "",
            "mcts:",
            "mcts:0",
            "mcts:0ms",
            "mcts:x",
            "clever",
            "Greedy",
            "seat-mcts:",
            "seat-mcts:0",
            "seat-greedy:3",
            "seat-first",
        ] {
            assert!(Policy::parse(bad).is_none(), "{bad}");
        }
        assert_eq!(
            "clever"
                .parse::<Policy>()
                .unwrap_err()
                .to_string()
                .split(';')
                .next(),
            Some("unknown policy `clever`")
        );
    }

    #[test]
    fn seat_view_turns_the_reading_policies_into_their_seat_view_variants() {
        for (p, q) in [
            ("first", "first"),
            ("random", "random"),
            ("greedy", "seat-greedy"),
            ("mcts:9", "seat-mcts:9"),
            ("mcts:9ms", "seat-mcts:9ms"),
            ("seat-mcts:9", "seat-mcts:9"),
        ] {
            let v = Policy::parse(p).unwrap().seat_view();
            assert_eq!(v.name(), q);
            assert!(v.seat_only());
        }
        assert!(!Policy::Greedy.seat_only() && !Policy::Mcts(Budget::Playouts(1)).seat_only());
    }

    /// The toy hides nothing: seat-mcts chooses what mcts chooses, seed for seed.
    #[test]
    fn seat_mcts_is_mcts_where_nothing_is_hidden() {
        let root = Toy {
            picked: None,
            total: None,
        };
        for seed in 0..8 {
            let choose = |p| Agent::<ToyEval>::new(p, seed).choose(&root, 0, 3);
            assert_eq!(
                choose(Policy::SeatMcts(Budget::Playouts(30))),
                choose(Policy::Mcts(Budget::Playouts(30)))
            );
        }
    }

    /// The toy with a hidden fact: a coin seat 0 never sees, which adds 3 to the total when
    /// heads. Its determinization re-draws the coin; the search over the worlds still finds
    /// the best pick, whatever the coin.
    #[derive(Clone, Debug)]
    struct Coin {
        toy: Toy,
        heads: bool,
    }

    #[derive(Default, Clone)]
    struct CoinEval;
    impl Evaluator<Coin> for CoinEval {
        fn value(&mut self, g: &Coin, seat: usize) -> f64 {
            ToyEval.value(&g.toy, seat)
        }
    }

    impl Game for Coin {
        type Ending = Done;
        type Event = ();
        const NAME: &'static str = "coin";
        fn seats(&self) -> usize {
            2
        }
        fn fingerprint(&self) -> u64 {
            crate::games::game::fingerprint_of(&(self.toy.picked, self.toy.total, self.heads))
        }
        fn turn(&self) -> Turn {
            self.toy.turn()
        }
        fn apply(&mut self, a: usize) {
            let bonus = if self.heads && self.toy.picked.is_some() {
                3
            } else {
                0
            };
            self.toy.apply(a + bonus);
        }
        fn apply_logged(&mut self, a: usize, _log: &mut Vec<()>) {
            self.apply(a)
        }
        fn exhausted(&mut self, log: &mut Vec<()>) {
            self.toy.exhausted(log)
        }
        fn outcome(&self) -> Option<Outcome<Done>> {
            self.toy.outcome()
        }
        fn turns(&self) -> u32 {
            1
        }
        fn question(&self) -> String {
            self.toy.question()
        }
        fn describe(&self, a: usize) -> String {
            self.toy.describe(a)
        }
        fn event_text(&self, _e: &()) -> String {
            String::new()
        }
        fn event_json(&self, _e: &()) -> serde_json::Value {
            serde_json::Value::Null
        }
        fn determinize(&self, _seat: usize, rng: &mut ChaCha8Rng) -> Option<Self> {
            Some(Coin {
                toy: self.toy.clone(),
                heads: rng.random(),
            })
        }
    }

    #[test]
    fn seat_mcts_finds_the_best_option_whatever_the_hidden_coin() {
        for heads in [false, true] {
            let root = Coin {
                toy: Toy {
                    picked: None,
                    total: None,
                },
                heads,
            };
            for seed in 0..4 {
                let mut agent =
                    Agent::<CoinEval>::new(Policy::SeatMcts(Budget::Playouts(300)), seed);
                assert_eq!(agent.choose(&root, 0, 3), 2, "heads {heads}, seed {seed}");
            }
        }
        // The same seed chooses the same whatever the coin (the worlds never read it).
        let choose = |heads| {
            let root = Coin {
                toy: Toy {
                    picked: None,
                    total: None,
                },
                heads,
            };
            (0..8)
                .map(|seed| {
                    Agent::<CoinEval>::new(Policy::SeatMcts(Budget::Playouts(4)), seed)
                        .choose(&root, 0, 3)
                })
                .collect::<Vec<_>>()
        };
        assert_eq!(choose(false), choose(true));
    }

    #[test]
    fn first_best_takes_the_first_of_equal_bests() {
        assert_eq!(first_best(&[1.0, 3.0, 2.0, 3.0]), 1);
        assert_eq!(first_best(&[f64::MIN, f64::MIN]), 0);
        assert_eq!(first_best(&[-5.0]), 0);
        assert_eq!(first_best(&[]), 0);
    }
}
