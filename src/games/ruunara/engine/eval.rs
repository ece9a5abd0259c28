//! The squad's evaluation for the shared policies: a won mission is worth most, a lost one
//! least; otherwise the squad's free hit points against the enemies', captives counted
//! little, and the objective's progress (closing on the enemy, the rescue target or the
//! exit). During the deployment only the members already placed count for the distances,
//! each with its own small term, so greedy places each member toward the objective (far from
//! the hostiles when the squad must survive).

use super::game::RuunaraGame;
use super::geom::Rect;
use super::setup::{MAX_FIGS, Side};
use super::state::{Phase, Status};
use crate::games::ai::{Agent, Evaluated, Evaluator};
use crate::games::dice::Dice;
use crate::games::ruunara::mission::Objective;

/// The evaluation of a position for the squad's seats ([`super::Setup::heroes_seat`]); the
/// other seat's is its negation.
#[derive(Debug, Clone, Copy, Default)]
pub struct RuunaraEval;

impl Evaluated for RuunaraGame<'_> {
    type Eval = RuunaraEval;

    fn play_out<D: Dice>(
        &mut self,
        dice: &mut D,
        agents: &mut [Agent<RuunaraEval>],
        log: Option<&mut Vec<super::events::Event>>,
    ) {
        self.play_fast(dice, agents, log)
    }
}

/// The worth of a won mission (a lost one is its negation).
pub const WIN: f64 = 1000.0;

/// The squad's worth of `g` (higher is better for the heroes).
pub fn squad_value(g: &RuunaraGame<'_>) -> f64 {
    let (s, st) = (g.setup, &g.st);
    if let Some(e) = st.ended {
        let v = if e.heroes_win() { WIN } else { -WIN };
        // Sooner wins and later losses are better.
        return v - f64::from(st.round) * v.signum();
    }
    let mut v = 0.0;
    // The members counted for distances, on the stack (greedy values every option).
    let mut placed = [0usize; MAX_FIGS];
    let mut n = 0;
    for i in st.ids() {
        let f = &st.figs[i];
        let mine = f.team == 0;
        let w = match f.status {
            Status::Free => 4.0 + f64::from(f.hp),
            Status::Captured => 1.0,
            Status::Dead => 0.0,
        };
        if mine {
            v += w * 2.0;
            // A member still to deploy stands nowhere yet: no distance counts for it.
            if f.status == Status::Free
                && s.figs[i].side == Side::Hero
                && st.waiting & (1 << i) == 0
            {
                placed[n] = i;
                n += 1;
            }
        } else if f.team == 1 {
            v -= w;
        }
    }
    let heroes = &placed[..n];
    let nearest = |j| {
        heroes
            .iter()
            .map(|&h| st.gap(h, j))
            .fold(f64::INFINITY, f64::min)
    };
    match s.objective {
        Objective::Eliminate => {
            let d = st
                .ids()
                .filter(|&j| s.figs[j].side == Side::Enemy && st.figs[j].status == Status::Free)
                .map(nearest)
                .fold(f64::INFINITY, f64::min);
            if d.is_finite() {
                v -= 0.2 * d;
            }
        }
        Objective::Rescue { exit, .. } => {
            if let Some(t) = s.rescue_target() {
                if st.joined {
                    let z = Rect::new(exit.x, exit.y, exit.w, exit.d);
                    v += 20.0 - 0.5 * z.dist(st.figs[t].at);
                    // Heroes crowding the figure they escort hem it in: give it room.
                    let crowding = heroes.iter().filter(|&&h| st.gap(h, t) < 1.0).count();
                    v -= 0.3 * crowding as f64;
                } else {
                    let d = nearest(t);
                    if d.is_finite() {
                        v -= 0.5 * d;
                    }
                }
            }
        }
        Objective::Reach { exit } => {
            let z = Rect::new(exit.x, exit.y, exit.w, exit.d);
            for &h in heroes {
                v -= 0.5 * z.dist(st.figs[h].at);
            }
        }
        Objective::Survive { .. } => v += f64::from(st.round),
    }
    // At the deployment the terms above see only the nearest member: each placed member's
    // own standing counts a little too, so the later members of a zone are placed with
    // purpose (the first decision after the deployment included: its last placement leads
    // there).
    if st.round == 0
        || (st.round == 1 && st.phase == Phase::Pick && heroes.iter().all(|&h| !st.figs[h].acted))
    {
        v += deploy_term(g, heroes);
    }
    v
}

/// Each placed member's standing toward the objective: near the enemy to eliminate, the
/// figure to rescue or the exit; far from every hostile when the squad must survive.
fn deploy_term(g: &RuunaraGame<'_>, heroes: &[usize]) -> f64 {
    let (s, st) = (g.setup, &g.st);
    let hostile = |h| {
        st.ids()
            .filter(|&j| st.figs[j].team == 1 && st.figs[j].status == Status::Free)
            .map(|j| st.gap(j, h))
            .fold(f64::INFINITY, f64::min)
    };
    let mut v = 0.0;
    for &h in heroes {
        let p = st.figs[h].at;
        let d = match s.objective {
            Objective::Eliminate => hostile(h),
            Objective::Rescue { .. } => s.rescue_target().map_or(0.0, |t| st.gap(t, h)),
            Objective::Reach { exit } => Rect::new(exit.x, exit.y, exit.w, exit.d).dist(p),
            Objective::Survive { .. } => -hostile(h).min(24.0),
        };
        if d.is_finite() {
            v -= 0.05 * d;
        }
    }
    v
}

impl<'s> Evaluator<RuunaraGame<'s>> for RuunaraEval {
    fn value(&mut self, g: &RuunaraGame<'s>, seat: usize) -> f64 {
        let v = squad_value(g);
        if g.setup.heroes_seat(seat) { v } else { -v }
    }
}
