//! Iconoclasm's evaluation for the shared policies ([`crate::games::ai`]): `greedy` takes the
//! best score right after the move ([`move_values`](super::engine::eval::move_values)); the search expands only greedy's
//! [`SEARCH_WIDTH`] best moves at each decision, starts the root from greedy's values, and
//! scores a leaf as the position stands (with players) or by random play to the end (solo).

use rand::RngExt;
use rand_chacha::ChaCha8Rng;

use super::engine::eval::move_values_into;
use super::engine::game::search_moves;
use super::engine::scoring::{goal_met, goal_progress, leader, player_scores};
use super::engine::{IconoclasmGame, PlayerScore, SEARCH_WIDTH, State};
use crate::games::ai::{Evaluated, Evaluator, Tuning, play_nodes_choosing};
use crate::games::dice::Dice;
use crate::games::game::{Game, MAX_SEATS, Returns, Turn};

/// UCT exploration for Iconoclasm's returns.
pub const MCTS_C: f64 = 0.7;

/// Virtual visits of greedy's values at an MCTS root.
pub const MCTS_PRIOR_VISITS: f64 = 20.0;

/// A seated Iconoclasm policy: a shared [`crate::games::ai::Agent`] with Iconoclasm's evaluation.
pub type Agent = crate::games::ai::Agent<IconoclasmEval>;

/// The shared policies, by their command-line names.
pub use crate::games::ai::Policy as PolicyKind;

/// Iconoclasm's evaluation.
#[derive(Debug, Clone, Copy, Default)]
pub struct IconoclasmEval;

/// A position's worth to seat `me` in 0..=1: 0.75 for a win plus a quarter of the points
/// margin over the best other player scaled to 0..=1; solo, 1 for a met goal, else half the
/// progress towards it.
pub fn worth(st: &State, me: u8) -> f64 {
    match st.goal {
        Some(g) if goal_met(st, g) => 1.0,
        Some(g) => 0.5 * goal_progress(st, g),
        None => worth_of(&player_scores(st), me),
    }
}

/// [`worth`] with players, from the players' scores.
fn worth_of(scores: &[PlayerScore], me: u8) -> f64 {
    // A win counts most; the points margin over the best other player breaks the
    // flatness of win/loss (margins lie within -10..=10).
    let mine = scores
        .get(usize::from(me))
        .map_or(0, |s| i32::from(s.points));
    let best_other = scores
        .iter()
        .filter(|s| s.player != me)
        .map(|s| i32::from(s.points))
        .max()
        .unwrap_or(0);
    // The winner from the same scores (`winner` would rank the table again).
    let win = f64::from(u8::from(leader(scores) == Some(me)));
    0.75 * win + 0.25 * (0.5 + f64::from(mine - best_other) / 20.0)
}

impl Evaluated for IconoclasmGame<'_> {
    type Eval = IconoclasmEval;

    /// [`crate::games::ai::play_nodes`]' match, with a greedy seat's choice found without listing and valuing
    /// every move ([`IconoclasmGame::greedy_choice`]: the same option, and greedy draws
    /// nothing from its stream); every other decision, chance and the log as there.
    fn play_out<D: Dice>(
        &mut self,
        dice: &mut D,
        agents: &mut [Agent],
        log: Option<&mut Vec<Self::Event>>,
    ) {
        play_nodes_choosing(self, dice, agents, log, |g, agent, seat, options| {
            let fast = match agent.policy {
                PolicyKind::Greedy | PolicyKind::SeatGreedy if options > 1 => g.greedy_choice(),
                _ => None,
            };
            fast.unwrap_or_else(|| agent.choose(g, seat, options))
        })
    }
}

impl<'s> Evaluator<IconoclasmGame<'s>> for IconoclasmEval {
    fn value(&mut self, g: &IconoclasmGame<'s>, seat: usize) -> f64 {
        worth(&g.st, seat as u8)
    }

    fn option_values(
        &mut self,
        g: &IconoclasmGame<'s>,
        _seat: usize,
        _options: usize,
        _rng: &mut ChaCha8Rng,
        out: &mut Vec<f64>,
    ) {
        move_values_into(&g.st, g.moves(), out);
    }

    /// Greedy's values of the root's candidates, spread over 0.25..=0.75.
    fn priors(&self, values: &[f64], out: &mut Vec<f64>) {
        let (lo, hi) = values
            .iter()
            .fold((f64::MAX, f64::MIN), |(l, h), v| (l.min(*v), h.max(*v)));
        out.clear();
        out.extend(values.iter().map(|v| {
            if hi > lo {
                0.25 + 0.5 * (v - lo) / (hi - lo)
            } else {
                0.5
            }
        }));
    }

    fn candidates(
        &mut self,
        g: &IconoclasmGame<'s>,
        _seat: usize,
        _options: usize,
        out: &mut Vec<usize>,
    ) {
        search_moves(g, SEARCH_WIDTH, out);
    }

    /// With players, the position scored as it stands (as if the game ended now), which
    /// judges a position better than random play does; solo, random play to the end.
    fn leaf(&mut self, g: &IconoclasmGame<'s>, rng: &mut ChaCha8Rng) -> Returns {
        let mut r = [0.0; MAX_SEATS];
        if g.st.goal.is_none() {
            // With players, the position as it stands (no copy), the table ranked once for
            // every seat.
            let scores = player_scores(&g.st);
            for (s, v) in r.iter_mut().enumerate().take(g.seats()) {
                *v = worth_of(&scores, s as u8);
            }
            return r;
        }
        let mut end = g.clone();
        loop {
            match end.turn() {
                Turn::Over => break,
                Turn::Seat { options, .. } => end.apply(rng.random_range(0..options.max(1))),
                Turn::Chance(c) => end.apply(rng.random_range(0..c.outcomes())),
            }
        }
        for (s, v) in r.iter_mut().enumerate().take(end.seats()) {
            *v = worth(&end.st, s as u8);
        }
        r
    }

    fn tuning(&self) -> Tuning {
        Tuning {
            c: MCTS_C,
            prior_visits: MCTS_PRIOR_VISITS,
        }
    }
}

impl Agent {
    /// The index of the chosen move among the legal moves of `g`.
    pub fn choose_move(&mut self, g: &IconoclasmGame<'_>) -> usize {
        let seat = usize::from(g.st.to_move);
        self.choose(g, seat, g.moves().len())
    }
}
