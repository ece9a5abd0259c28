//! Arcadia policies, seated as a [`Decide`]r: `first` (option 0 of the engine's documented
//! order), `random`, `greedy` (each option's expected [`evaluate`] once the Day is played out
//! with random dice and first options) and `mcts` (the generic search of `games::ai` over
//! [`ArcadiaGame`], its root seeded with greedy's values, playouts cut after [`HORIZON_DAYS`]
//! Days and scored by [`evaluate`]).

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::engine::quests::holds;
use super::engine::state::{Hero, IN_HAND};
use super::engine::{returns, ArcadiaGame, Decide, Match, NoLog, State, Winner};
use super::model::Objective;
use crate::games::ai::{first_best, mcts_choose_with_prior, MctsConfig, Seated};
use crate::games::iconica::ai::PolicyKind;
use crate::games::{GameState, Node};

/// Samples per option in greedy's expectation (common random numbers across options).
pub const GREEDY_SAMPLES: u32 = 6;
/// Days a search playout runs before the position is scored.
pub const HORIZON_DAYS: u32 = 4;
/// UCT exploration of Arcadia's search (its leaves are win chances spread over 0..1).
pub const MCTS_C: f64 = 1.0;
/// Virtual visits of greedy's values at an MCTS root.
pub const MCTS_PRIOR_VISITS: f64 = 20.0;
/// Evaluation points that make a win chance of 73% (logistic scale).
pub const LOGISTIC_SCALE: f64 = 40.0;

/// A seated policy with its own random stream.
pub type Agent = Seated<PolicyKind>;

/// Two seated agents, player a's first.
#[derive(Debug, Clone)]
pub struct Seats(pub [Agent; 2]);

impl Decide for Seats {
    fn decide(&mut self, m: &Match, st: &State, player: u8, n: usize) -> usize {
        self.0[player as usize & 1].decide(m, st, player, n)
    }
}

impl Decide for Agent {
    fn decide(&mut self, m: &Match, st: &State, player: u8, n: usize) -> usize {
        if n <= 1 {
            return 0;
        }
        match self.kind {
            PolicyKind::First => 0,
            PolicyKind::Random => self.rng.random_range(0..n),
            PolicyKind::Greedy => first_best(&greedy_scores(m, st, player, n, &mut self.rng)),
            PolicyKind::Mcts(cfg) => {
                // Greedy's values seed the root as win chances; the search looks further.
                let prior: Vec<f64> = greedy_scores(m, st, player, n, &mut self.rng)
                    .iter()
                    .map(|v| 1.0 / (1.0 + (-v / LOGISTIC_SCALE).exp()))
                    .collect();
                let g = Searched(ArcadiaGame { m, st: *st });
                mcts_choose_with_prior(&g, &MctsConfig { c: MCTS_C, ..cfg }, &prior, MCTS_PRIOR_VISITS, &mut self.rng)
            }
        }
    }
}

/// Each option's expected evaluation for `player` once the Day is played out (random dice,
/// first options), over the same sampled dice for every option.
fn greedy_scores(m: &Match, st: &State, player: u8, n: usize, rng: &mut ChaCha8Rng) -> Vec<f64> {
    let seeds: Vec<u64> = (0..GREEDY_SAMPLES).map(|_| rng.random()).collect();
    let mut out = Vec::with_capacity(n);
    for a in 0..n {
        let mut total = 0.0;
        for &seed in &seeds {
            let mut r = ChaCha8Rng::seed_from_u64(seed);
            let mut s = *st;
            let day = s.day;
            s.apply(m, a, &mut NoLog);
            let mut steps = 0;
            while s.day == day && steps < 200 {
                match s.node(m) {
                    Node::Terminal => break,
                    Node::Chance(_) => s.apply(m, r.random_range(0..6), &mut NoLog),
                    Node::Decision { .. } => s.apply(m, 0, &mut NoLog),
                }
                steps += 1;
            }
            total += evaluate(m, &s, player);
        }
        out.push(total / f64::from(GREEDY_SAMPLES));
    }
    out
}

/// A position's worth to `player`: +/-1000 for a decided match, else its quest progress,
/// ready merits and distance to its goals against the opponent's.
pub fn evaluate(m: &Match, st: &State, player: u8) -> f64 {
    if let Some((_, Some(w))) = st.ended {
        return match w {
            Winner::Player(p) if p == player => 1000.0,
            Winner::Player(_) => -1000.0,
            Winner::Draw => 0.0,
        };
    }
    worth(m, st, player) - worth(m, st, 1 - player)
}

fn worth(m: &Match, st: &State, p: u8) -> f64 {
    let h = &st.heroes[p as usize];
    let mut v = 100.0 * f64::from(h.quests_done.count_ones());
    v += 4.0 * f64::from(h.ready().count_ones()) + 2.0 * f64::from(h.kept().count_ones());
    v += 10.0 * f64::from(h.treasures_found) + 10.0 * f64::from(h.waylays_defeated);
    if h.skip {
        v -= 20.0;
    }
    for (i, q) in m.players[p as usize].quests.iter().enumerate() {
        if h.quests_done & (1 << i) != 0 {
            continue;
        }
        let goals = goals(m, st, p, h, &q.objective);
        let d = (0..m.leagues.len() as u8)
            .filter(|l| goals & (1u64 << l) != 0)
            .map(|l| m.distance(h.at, l))
            .min()
            .unwrap_or(8);
        v -= 6.0 * f64::from(d.min(20));
    }
    v
}

/// Leagues worth heading for to advance an objective that does not hold yet.
fn goals(m: &Match, st: &State, p: u8, h: &Hero, obj: &Objective) -> u64 {
    if holds(m, p, h, obj) {
        return 0;
    }
    let n = m.leagues.len();
    let matching = |f: &dyn Fn(usize) -> bool| (0..n).filter(|l| f(*l)).fold(0u64, |acc, l| acc | 1u64 << l);
    let here = h.at as usize;
    let base = m.players[p as usize].base as usize;
    match obj {
        Objective::Reach(id) => matching(&|l| m.leagues[l].id == *id),
        Objective::ReachTerrain(t) => matching(&|l| l != here && m.leagues[l].terrain.contains(t)),
        Objective::CollectTreasures(_) => {
            let k = m.players[p as usize].treasures();
            matching(&|l| h.treasure_at[..k].contains(&(l as u8)))
        }
        Objective::DefeatWaylays(_) => {
            matching(&|l| (0..m.waylays.len()).any(|w| st.waylay_at[w] == l as u8 && st.waylay_at[w] != IN_HAND))
        }
        Objective::ReturnToBase(_) => {
            if h.left_base { 1u64 << base } else { matching(&|l| l != base) }
        }
        Objective::All(v) | Objective::Any(v) => v.iter().fold(0, |acc, o| acc | goals(m, st, p, h, o)),
    }
}

/// [`ArcadiaGame`] whose playouts stop after [`HORIZON_DAYS`] Days and score the position.
#[derive(Debug, Clone, Copy)]
struct Searched<'m>(ArcadiaGame<'m>);

impl GameState for Searched<'_> {
    fn node(&self) -> Node {
        self.0.node()
    }
    fn apply(&mut self, action: usize) {
        self.0.apply(action)
    }
    fn returns(&self) -> [f64; 2] {
        returns(&self.0.st)
    }
    fn rollout(&mut self, rng: &mut ChaCha8Rng) -> [f64; 2] {
        let (m, st) = (self.0.m, &mut self.0.st);
        let stop = st.day + HORIZON_DAYS;
        loop {
            match st.node(m) {
                Node::Terminal => return returns(st),
                Node::Chance(_) => st.apply(m, rng.random_range(0..6), &mut NoLog),
                Node::Decision { actions, .. } => st.apply(m, rng.random_range(0..actions.max(1)), &mut NoLog),
            }
            if st.day >= stop {
                let p = 1.0 / (1.0 + (-evaluate(m, st, 0) / LOGISTIC_SCALE).exp());
                return [p, 1.0 - p];
            }
        }
    }
}
