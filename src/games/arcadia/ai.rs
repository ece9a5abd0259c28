//! Arcadia's evaluation for the shared policies ([`crate::games::ai`]): greedy's values are
//! each option's expected [`evaluate`] once the Day is played out with random dice and first
//! options; the search's root is seeded with them, and its playouts are cut after
//! [`HORIZON_DAYS`] Days and scored by [`evaluate`].

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::engine::quests::holds;
use super::engine::state::{Hero, IN_HAND};
use super::engine::{ArcadiaGame, Decide, Match, NoLog, State, Winner, returns};
use super::model::Objective;
use crate::games::Node;
use crate::games::ai::{Evaluator, Tuning};
use crate::games::game::Returns;

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

/// A seated Arcadia policy: a shared [`crate::games::ai::Agent`] with Arcadia's evaluation.
pub type Agent = crate::games::ai::Agent<ArcadiaEval>;

/// Arcadia's evaluation: [`evaluate`], greedy's Day-long completions, horizon playouts.
#[derive(Debug, Clone, Copy, Default)]
pub struct ArcadiaEval;

impl<'m> Evaluator<ArcadiaGame<'m>> for ArcadiaEval {
    fn value(&mut self, g: &ArcadiaGame<'m>, seat: usize) -> f64 {
        evaluate(g.m, &g.st, seat as u8)
    }

    fn option_values(
        &mut self,
        g: &ArcadiaGame<'m>,
        seat: usize,
        options: usize,
        rng: &mut ChaCha8Rng,
        out: &mut Vec<f64>,
    ) {
        *out = greedy_scores(g.m, &g.st, seat as u8, options, rng);
    }

    fn priors(&self, values: &[f64], out: &mut Vec<f64>) {
        out.clear();
        out.extend(
            values
                .iter()
                .map(|v| 1.0 / (1.0 + (-v / LOGISTIC_SCALE).exp())),
        );
    }

    /// Random play for [`HORIZON_DAYS`] Days, then the logistic of [`evaluate`] for player a.
    fn leaf(&mut self, g: &ArcadiaGame<'m>, rng: &mut ChaCha8Rng) -> Returns {
        let (m, mut st) = (g.m, g.st);
        let stop = st.day + HORIZON_DAYS;
        loop {
            match st.node(m) {
                Node::Terminal => {
                    let [a, b] = returns(&st);
                    return [a, b, 0.0, 0.0];
                }
                Node::Chance(_) => st.apply(m, rng.random_range(0..6), &mut NoLog),
                Node::Decision { actions, .. } => {
                    st.apply(m, rng.random_range(0..actions.max(1)), &mut NoLog)
                }
            }
            if st.day >= stop {
                let p = 1.0 / (1.0 + (-evaluate(m, &st, 0) / LOGISTIC_SCALE).exp());
                return [p, 1.0 - p, 0.0, 0.0];
            }
        }
    }

    fn tuning(&self) -> Tuning {
        Tuning {
            c: MCTS_C,
            prior_visits: MCTS_PRIOR_VISITS,
        }
    }
}

/// Two seated agents, player a's first (the engine's [`Decide`]r).
#[derive(Debug, Clone)]
pub struct Seats(pub [Agent; 2]);

impl Decide for Seats {
    fn decide(&mut self, m: &Match, st: &State, player: u8, n: usize) -> usize {
        self.0[player as usize & 1].decide(m, st, player, n)
    }
}

impl Decide for Agent {
    fn decide(&mut self, m: &Match, st: &State, player: u8, n: usize) -> usize {
        self.choose(&ArcadiaGame { m, st: *st }, usize::from(player), n)
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
    let matching = |f: &dyn Fn(usize) -> bool| {
        (0..n)
            .filter(|l| f(*l))
            .fold(0u64, |acc, l| acc | 1u64 << l)
    };
    let here = h.at as usize;
    let base = m.players[p as usize].base as usize;
    match obj {
        Objective::Reach(id) => matching(&|l| m.leagues[l].id == *id),
        Objective::ReachTerrain(t) => matching(&|l| l != here && m.leagues[l].terrain.contains(t)),
        Objective::CollectTreasures(_) => {
            let k = m.players[p as usize].treasures();
            matching(&|l| h.treasure_at[..k].contains(&(l as u8)))
        }
        Objective::DefeatWaylays(_) => matching(&|l| {
            (0..m.waylays.len()).any(|w| st.waylay_at[w] == l as u8 && st.waylay_at[w] != IN_HAND)
        }),
        Objective::ReturnToBase(_) => {
            if h.left_base {
                1u64 << base
            } else {
                matching(&|l| l != base)
            }
        }
        Objective::All(v) | Objective::Any(v) => {
            v.iter().fold(0, |acc, o| acc | goals(m, st, p, h, o))
        }
    }
}
