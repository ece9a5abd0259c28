//! The enemies, run by the rules (`spec/ruunara.md`, "Enemies, run by the game"), in its
//! order: engaged, it attacks; guarding, it stays; pursuing a hero who fled, it follows 5"
//! a round; it sees a hero, it goes to engage the nearest (or shoots it when in range);
//! it heard close combat, it walks 2" toward it; an ally nearby was shot at, it rallies to
//! it; away from its post, it goes back; otherwise it stays at its post facing as deployed.

use super::events::{Event, Log, Reason};
use super::geom::{CONTACT, EPS, Pt, facing_to, gap};
use super::setup::Setup;
use super::state::{Attack, Mode, NOISE_STEP, PURSUIT_STEP, State, Status};

/// A fight goes on near a noise while a figure this close to it is engaged.
const FIGHT_NEAR: f64 = 3.0;

impl State {
    /// The nearest hero `i` sees (figures block sight).
    fn nearest_seen(&self, s: &Setup, i: usize) -> Option<usize> {
        let at = self.figs[i].at;
        self.ids()
            .filter(|&j| {
                self.figs[j].status == Status::Free
                    && self.hostile(i, j)
                    && self.sees(s, i, j, true)
            })
            .min_by(|&a, &b| {
                at.dist(self.figs[a].at)
                    .total_cmp(&at.dist(self.figs[b].at))
                    .then(a.cmp(&b))
            })
    }

    /// Moves `i` toward `to.0` (stopping `to.1` short, centre to centre) within `budget`.
    fn step_toward(
        &mut self,
        s: &Setup,
        i: usize,
        to: (Pt, f64),
        budget: f64,
        why: Reason,
        log: &mut impl Log,
    ) {
        let (goal, stop) = to;
        if let Some(p) = self.plan(s, i, goal, stop, budget, true) {
            self.move_along(s, i, &p, why, log);
        }
    }

    /// Goes to engage hero `t` (full movement) and attacks it if engaged after the move.
    fn charge(
        &mut self,
        s: &Setup,
        i: usize,
        t: usize,
        budget: f64,
        log: &mut impl Log,
    ) -> Option<Attack> {
        let goal = self.figs[t].at;
        self.step_toward(s, i, (goal, CONTACT), budget, Reason::Sighted, log);
        self.face(i, goal, log);
        self.engaged(i).then(|| self.close_attack(s, i, t, None))
    }

    fn face(&mut self, i: usize, toward: Pt, log: &mut impl Log) {
        if let Some(f) = facing_to(self.figs[i].at, toward)
            && f != self.figs[i].facing
        {
            self.figs[i].facing = f;
            log.push(Event::Turned {
                fig: i as u8,
                facing: f,
                at: self.figs[i].at,
            });
        }
    }

    /// Whether close combat still goes on near `p`.
    fn fight_near(&self, p: Pt) -> bool {
        self.ids().any(|j| {
            self.figs[j].status == Status::Free
                && self.figs[j].engaged_since != 0
                && self.figs[j].at.dist(p) <= FIGHT_NEAR
        })
    }

    /// Enemy `i`'s activation: its move, and the attack it makes (rolled by the caller).
    pub(crate) fn enemy_act(&mut self, s: &Setup, i: usize, log: &mut impl Log) -> Option<Attack> {
        let stat = &s.figs[i];
        let movement = stat.movement;
        // 1. Engaged: it attacks (hits go to the engaged hero with the fewest hit points).
        if self.engaged(i) {
            self.figs[i].heard = None;
            self.figs[i].rally = None;
            if let Mode::Pursue { .. } = self.figs[i].mode {
                self.figs[i].mode = Mode::Return { speed: movement };
            }
            let t = self
                .ids()
                .filter(|&j| self.engaged_with(i, j))
                .min_by_key(|&j| (self.figs[j].hp, j))?;
            return Some(self.close_attack(s, i, t, None));
        }
        // A guard stays with its captive.
        if let Mode::Guard(c) = self.figs[i].mode {
            if self.figs[usize::from(c)].status == Status::Captured {
                return None;
            }
            self.figs[i].mode = Mode::Return { speed: movement };
        }
        // Pursuit of a hero who fled: 5" a round for 2 rounds, then back at 5" a round.
        if let Mode::Pursue { target, left } = self.figs[i].mode {
            let t = usize::from(target);
            if self.figs[t].status == Status::Free && left > 0 {
                let goal = self.figs[t].at;
                self.step_toward(s, i, (goal, CONTACT), PURSUIT_STEP, Reason::Pursuit, log);
                self.face(i, goal, log);
                if self.engaged(i) {
                    self.figs[i].mode = Mode::Return { speed: movement };
                    return Some(self.close_attack(s, i, t, None));
                }
                self.figs[i].mode = if left > 1 {
                    Mode::Pursue {
                        target,
                        left: left - 1,
                    }
                } else {
                    Mode::Return {
                        speed: PURSUIT_STEP,
                    }
                };
                return None;
            }
            self.figs[i].mode = Mode::Return {
                speed: PURSUIT_STEP,
            };
        }
        // 2. It sees a hero: it shoots it when in range, else goes to engage it.
        if let Some(t) = self.nearest_seen(s, i) {
            self.figs[i].heard = None;
            self.figs[i].rally = None;
            self.figs[i].mode = Mode::Return { speed: movement };
            if stat.ranged.is_some() && self.can_shoot(s, i, t, stat.range) {
                return Some(self.ranged_attack(s, i, t, None, log));
            }
            return self.charge(s, i, t, movement, log);
        }
        // 3. Noise: 2" toward the fight; once a hero is in sight, the rest of its move
        // engages it.
        if let Some(p) = self.figs[i].heard.take() {
            self.figs[i].mode = Mode::Noise(p);
            log.push(Event::Heard {
                fig: i as u8,
                at: p,
            });
        }
        if let Mode::Noise(p) = self.figs[i].mode {
            if self.fight_near(p) {
                let before = self.figs[i].at;
                self.step_toward(s, i, (p, CONTACT), NOISE_STEP, Reason::Noise, log);
                self.face(i, p, log);
                let spent = before.dist(self.figs[i].at);
                if let Some(t) = self.nearest_seen(s, i) {
                    self.figs[i].mode = Mode::Return { speed: movement };
                    if stat.ranged.is_some() && self.can_shoot(s, i, t, stat.range) {
                        return Some(self.ranged_attack(s, i, t, None, log));
                    }
                    return self.charge(s, i, t, (movement - spent).max(0.0), log);
                }
                return None;
            }
            self.figs[i].mode = Mode::Return { speed: NOISE_STEP };
        }
        // 4. Group: an ally within 4" was shot at: rally to it, facing the shooter.
        if let Some((ally, shooter)) = self.figs[i].rally.take() {
            let goal = self.figs[usize::from(ally)].at;
            let from = self.figs[usize::from(shooter)].at;
            self.step_toward(s, i, (goal, CONTACT), movement, Reason::Rally, log);
            self.face(i, from, log);
            self.figs[i].mode = Mode::Return { speed: movement };
            return None;
        }
        // Away from its post: back at its return speed.
        let post = stat.start;
        if let Mode::Return { speed } = self.figs[i].mode {
            if self.figs[i].at.dist(post) > EPS {
                self.step_toward(s, i, (post, 0.0), speed, Reason::Return, log);
            }
            if self.figs[i].at.dist(post) <= 0.05 {
                self.figs[i].mode = Mode::Post;
            } else {
                return None;
            }
        }
        // 5. At its post, facing as deployed (once an alert has passed).
        if self.figs[i].alert_until < self.round
            && self.figs[i].facing != stat.facing
            && gap(self.figs[i].at, post) < 1.0
        {
            self.figs[i].facing = stat.facing;
            log.push(Event::Turned {
                fig: i as u8,
                facing: stat.facing,
                at: self.figs[i].at,
            });
        }
        None
    }
}
