//! Game-independent policies over [`GameState`]: Monte Carlo tree search with chance nodes
//! (UCT at decisions, sampled outcomes at chance nodes, random playouts); a seated policy
//! with its own random stream ([`Seated`]); greedy's pick of the best value ([`first_best`]).

use std::time::{Duration, Instant};

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::{GameState, Node};

/// How much search a decision gets.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Budget {
    Playouts(u32),
    Millis(u64),
}

/// MCTS settings.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MctsConfig {
    pub budget: Budget,
    /// UCT exploration constant.
    pub c: f64,
}

impl Default for MctsConfig {
    fn default() -> Self {
        MctsConfig { budget: Budget::Playouts(200), c: 1.0 }
    }
}

struct TNode {
    visits: f64,
    /// Sum of returns of the player who moved into this node.
    value: f64,
    /// Player who moved into this node (decision children only).
    mover: usize,
    children: Vec<(usize, u32)>,
}

/// A seated policy (`kind`) with its own random stream; each game says how it chooses.
#[derive(Debug, Clone)]
pub struct Seated<K> {
    pub kind: K,
    pub(crate) rng: ChaCha8Rng,
}

impl<K> Seated<K> {
    pub fn new(kind: K, seed: u64) -> Seated<K> {
        Seated { kind, rng: ChaCha8Rng::seed_from_u64(seed) }
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

/// Picks an option at a decision node by MCTS; returns 0 if the node is not a decision.
pub fn mcts_choose<G: GameState>(root: &G, cfg: &MctsConfig, rng: &mut ChaCha8Rng) -> usize {
    mcts_choose_with_prior(root, cfg, &[], 0.0, rng)
}

/// MCTS whose root options start with `weight` virtual visits at the values in `prior`
/// (win chances of the deciding player, one per option; empty: no prior). A search that
/// finds nothing better keeps the prior's choice.
pub fn mcts_choose_with_prior<G: GameState>(
    root: &G,
    cfg: &MctsConfig,
    prior: &[f64],
    weight: f64,
    rng: &mut ChaCha8Rng,
) -> usize {
    let Node::Decision { actions, .. } = root.node() else { return 0 };
    if actions <= 1 {
        return 0;
    }
    let mut tree = vec![TNode { visits: 0.0, value: 0.0, mover: usize::MAX, children: Vec::new() }];
    if prior.len() == actions && weight > 0.0 {
        let Node::Decision { player, .. } = root.node() else { return 0 };
        for (a, p) in prior.iter().enumerate() {
            tree.push(TNode { visits: weight, value: weight * p, mover: player, children: Vec::new() });
            let id = (tree.len() - 1) as u32;
            tree[0].children.push((a, id));
        }
        tree[0].visits = weight * actions as f64;
    }
    let started = Instant::now();
    let mut path: Vec<u32> = Vec::with_capacity(64);
    let mut probs: Vec<f64> = Vec::with_capacity(8);
    let mut done = 0u32;
    loop {
        match cfg.budget {
            Budget::Playouts(n) if done >= n => break,
            Budget::Millis(ms) if done > 0 && started.elapsed() >= Duration::from_millis(ms) => break,
            _ => {}
        }
        done += 1;
        let mut state = root.clone();
        path.clear();
        path.push(0);
        let mut cur = 0u32;
        let rewards = loop {
            match state.node() {
                Node::Terminal => break state.returns(),
                Node::Decision { player, actions } => {
                    let tried = tree[cur as usize].children.len();
                    if tried < actions {
                        let a = tried;
                        tree.push(TNode { visits: 0.0, value: 0.0, mover: player, children: Vec::new() });
                        let id = (tree.len() - 1) as u32;
                        tree[cur as usize].children.push((a, id));
                        state.apply(a);
                        path.push(id);
                        break state.rollout(rng);
                    }
                    let parent_n = tree[cur as usize].visits.max(1.0);
                    let ln = parent_n.ln();
                    let mut best = (f64::NEG_INFINITY, 0usize, 0u32);
                    for &(a, id) in &tree[cur as usize].children {
                        let ch = &tree[id as usize];
                        let n = ch.visits.max(1e-9);
                        let u = ch.value / n + cfg.c * (ln / n).sqrt();
                        if u > best.0 {
                            best = (u, a, id);
                        }
                    }
                    state.apply(best.1);
                    cur = best.2;
                    path.push(cur);
                }
                Node::Chance(n) => {
                    state.chance_probs(&mut probs);
                    let a = sample(&probs, n, rng);
                    let found = tree[cur as usize].children.iter().find(|c| c.0 == a).map(|c| c.1);
                    let id = match found {
                        Some(id) => id,
                        None => {
                            tree.push(TNode { visits: 0.0, value: 0.0, mover: usize::MAX, children: Vec::new() });
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
            if nd.mover < 2 {
                nd.value += rewards[nd.mover];
            }
        }
    }
    tree[0]
        .children
        .iter()
        .max_by(|x, y| {
            let (a, b) = (&tree[x.1 as usize], &tree[y.1 as usize]);
            a.visits.partial_cmp(&b.visits).unwrap_or(std::cmp::Ordering::Equal).then(y.0.cmp(&x.0))
        })
        .map(|c| c.0)
        .unwrap_or(0)
}

/// An outcome index drawn from `probs` (uniform over `n` when `probs` is empty).
fn sample(probs: &[f64], n: usize, rng: &mut ChaCha8Rng) -> usize {
    if probs.len() != n || n == 0 {
        return rng.random_range(0..n.max(1));
    }
    let mut x: f64 = rng.random_range(0.0..1.0);
    for (i, p) in probs.iter().enumerate() {
        if x < *p {
            return i;
        }
        x -= p;
    }
    n - 1
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    /// Pick a number 0..3; chance adds 0 or 1; player 0 wins on a total of 3 or more.
    #[derive(Clone)]
    struct Toy {
        picked: Option<usize>,
        total: Option<usize>,
    }

    impl GameState for Toy {
        fn node(&self) -> Node {
            match (self.picked, self.total) {
                (None, _) => Node::Decision { player: 0, actions: 3 },
                (Some(_), None) => Node::Chance(2),
                _ => Node::Terminal,
            }
        }
        fn apply(&mut self, a: usize) {
            match self.picked {
                None => self.picked = Some(a),
                Some(p) => self.total = Some(p + a),
            }
        }
        fn returns(&self) -> [f64; 2] {
            if self.total.unwrap_or(0) >= 3 { [1.0, 0.0] } else { [0.0, 1.0] }
        }
    }

    #[test]
    fn mcts_finds_the_best_option_through_chance() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let cfg = MctsConfig { budget: Budget::Playouts(300), c: 1.0 };
        assert_eq!(mcts_choose(&Toy { picked: None, total: None }, &cfg, &mut rng), 2);
    }

    #[test]
    fn first_best_takes_the_first_of_equal_bests() {
        assert_eq!(first_best(&[1.0, 3.0, 2.0, 3.0]), 1);
        assert_eq!(first_best(&[f64::MIN, f64::MIN]), 0);
        assert_eq!(first_best(&[-5.0]), 0);
        assert_eq!(first_best(&[]), 0);
    }
}
