//! The enemies, run by the rules (`spec/ruunara.md`, "Enemies, run by the game"), in its
//! order: engaged, it attacks; guarding, it stays; pursuing a hero who fled, it follows 5"
//! a round; it sees a hero, it goes to engage the nearest (or shoots it when in range);
//! it heard close combat, it walks 2" toward it; an ally nearby was shot at, it rallies to
//! it; away from its post, it goes back; otherwise it stays at its post facing as deployed.
//!
//! Its skills with a cycle, by one fixed rule each (`docs/rulings.md`, "Ruunara engine"),
//! counted in the heroes' bookkeeping (`State::can_use`, `State::use_skill`): before it
//! acts (its tactical phase, in skill order) a `heal` when it or an ally in range has lost
//! hit points, an `area` when it strikes a hero, a `stealth` or a `cover` when a hero sees
//! it; on its first attack an `instant_kill`; on an attack with failed dice a `reroll`;
//! after its attack an `extra_attack` of that kind. It never flees.

use super::events::{Event, Log, Reason, RollKind};
use super::geom::{BASE_R, EPS, Pt, contact, facing_to};
use super::setup::Setup;
use super::state::{Attack, GROUP_RANGE, Mode, NOISE_STEP, PURSUIT_STEP, State, Status};
use crate::games::ruunara::model::{AttackKind, Cycle, EffectTarget, SkillEffect, StateKind};

/// A fight goes on near a noise while a figure this close to it is engaged.
const FIGHT_NEAR: f64 = 3.0;

impl State {
    /// Enemy `i`'s tactical phase: the first skill with a cycle (in skill order) that is
    /// useful now and has a use left. Heal, stealth and cover apply at once (and the next
    /// is looked for); an area's roll is returned (its dice interrupt the phase, which
    /// resumes after them). `None`: nothing more to use.
    pub(crate) fn enemy_tactical(
        &mut self,
        s: &Setup,
        i: usize,
        log: &mut impl Log,
    ) -> Option<Attack> {
        // Skills fill the slots from the first: a figure without any has nothing to do.
        s.figs[i].skills[0]?;
        for (slot, d) in s.figs[i].skills() {
            if d.cycle == Cycle::Constant || !self.can_use(s, i, slot) {
                continue;
            }
            match d.effect {
                SkillEffect::Heal {
                    amount,
                    target,
                    range,
                    execution: None,
                } => {
                    let wound = |j: usize| s.figs[j].hp - self.figs[j].hp;
                    let t = match target {
                        EffectTarget::Own => Some(i).filter(|&j| wound(j) > 0),
                        // The most wounded (most hit points lost), then the lowest index.
                        _ => self
                            .ids()
                            .filter(|&j| wound(j) > 0 && self.heal_reaches(s, i, j, range))
                            .max_by_key(|&j| (wound(j), std::cmp::Reverse(j))),
                    };
                    if let Some(t) = t {
                        self.enemy_uses(i, slot, Some(t), log);
                        self.heal(s, i, t, amount, log);
                    }
                }
                SkillEffect::Area {
                    dice,
                    radius,
                    range,
                    damage,
                } => {
                    let engaged = self.engaged(i);
                    let (mask, at) = match radius {
                        None if engaged => (self.area_mask(i, None, i), None),
                        Some(r) if !engaged => match self.area_point(s, i, r, range) {
                            Some((mask, j)) => (mask, Some(j)),
                            None => continue,
                        },
                        _ => continue,
                    };
                    if mask == 0 {
                        continue;
                    }
                    self.enemy_uses(i, slot, at, log);
                    return Some(self.area_attack(i, dice, mask, radius.is_some(), damage));
                }
                // On through the next round: the heroes' turn in which it matters.
                SkillEffect::Stealth { radius } => {
                    let seen = self.ids().any(|j| {
                        self.figs[j].status == Status::Free
                            && self.hostile(j, i)
                            && self.gap(j, i) > radius + EPS
                            && self.sight(s, j, i, false, false)
                    });
                    if seen && self.figs[i].on_until[slot] <= self.round {
                        self.enemy_uses(i, slot, None, log);
                        self.figs[i].on_until[slot] = self.round + 1;
                    }
                }
                SkillEffect::Cover { radius, .. } => {
                    let seen = self.ids().any(|k| {
                        self.figs[k].status == Status::Free
                            && self.figs[k].team == self.figs[i].team
                            && (k == i || self.gap(k, i) <= radius + EPS)
                            && self.ids().any(|j| {
                                self.figs[j].status == Status::Free
                                    && self.hostile(j, k)
                                    && self.sees(s, j, k, false)
                            })
                    });
                    if seen && self.figs[i].on_until[slot] <= self.round {
                        self.enemy_uses(i, slot, None, log);
                        self.figs[i].on_until[slot] = self.round + 1;
                    }
                }
                SkillEffect::State { .. }
                | SkillEffect::CaptureClock { .. }
                | SkillEffect::InstantKill { spell: true, .. } => {
                    if let Some(a) = self.enemy_composed(s, i, slot, d.effect, log) {
                        return Some(a);
                    }
                }
                _ => {}
            }
        }
        None
    }

    /// Where enemy `i` (not engaged) puts an area of `radius` inches: on the seen hero
    /// within the skill's range whose circle catches the most heroes (then the nearest,
    /// then the lowest index); the figures struck and that hero.
    fn area_point(
        &self,
        s: &Setup,
        i: usize,
        radius: f64,
        range: Option<f64>,
    ) -> Option<(u32, usize)> {
        let reach = State::skill_range(s, i, range);
        self.ids()
            .filter(|&j| {
                self.figs[j].status == Status::Free
                    && self.hostile(i, j)
                    && self.gap(i, j) <= reach
                    && self.sees(s, i, j, false)
            })
            .map(|j| (self.area_mask(i, Some(radius), j), j))
            .min_by(|(ma, a), (mb, b)| {
                mb.count_ones()
                    .cmp(&ma.count_ones())
                    .then(self.reach(i, *a).total_cmp(&self.reach(i, *b)))
                    .then(a.cmp(b))
            })
    }

    /// Enemy `i` uses skill slot `slot` (on `target`), logged.
    fn enemy_uses(&mut self, i: usize, slot: usize, target: Option<usize>, log: &mut impl Log) {
        self.use_skill(i, slot);
        log.push(Event::Skill {
            fig: i as u8,
            slot: slot as u8,
            target: target.map(|t| t as u8),
        });
    }

    /// Enemy `i` makes attack `a`: an `instant_kill` with a cycle is readied on it while
    /// uses remain (it then serves every attack of the activation).
    pub(crate) fn enemy_arms(
        &mut self,
        s: &Setup,
        i: usize,
        mut a: Attack,
        log: &mut impl Log,
    ) -> Attack {
        self.figs[i].attacked = true;
        if s.figs[i].skills[0].is_none() {
            return a;
        }
        let kind = if a.kind == RollKind::Ranged {
            AttackKind::Ranged
        } else {
            AttackKind::Close
        };
        for (slot, d) in s.figs[i].skills() {
            if d.effect.instant_on(kind).is_some()
                && d.cycle != Cycle::Constant
                && self.figs[i].armed & (1 << slot) == 0
                && self.can_use(s, i, slot)
            {
                self.enemy_uses(i, slot, Some(usize::from(a.aimed)), log);
                self.figs[i].armed |= 1 << slot;
            }
        }
        (a.instant, a.reroll) = self.attack_skills(s, i, kind);
        a
    }

    /// After enemy `i`'s attack: an `extra_attack` of the same kind (close after close,
    /// ranged after a shot) with a use left, at the same target if it can still be
    /// attacked, else the engaged hero with the fewest hit points (close) or the nearest
    /// hero it can shoot (ranged).
    pub(crate) fn enemy_extra(
        &mut self,
        s: &Setup,
        i: usize,
        log: &mut impl Log,
    ) -> Option<Attack> {
        s.figs[i].skills[0]?;
        let last = self.attack;
        if !self.figs[i].attacked || usize::from(last.by) != i {
            return None;
        }
        for (slot, d) in s.figs[i].skills() {
            let SkillEffect::ExtraAttack {
                dice,
                attack,
                damage,
            } = d.effect
            else {
                continue;
            };
            if !self.can_use(s, i, slot) {
                continue;
            }
            let aimed = usize::from(last.aimed);
            let t = match (attack, last.kind) {
                (AttackKind::Close, RollKind::Close) => {
                    if self.engaged_with(i, aimed) {
                        Some(aimed)
                    } else {
                        self.ids()
                            .filter(|&j| self.engaged_with(i, j))
                            .min_by_key(|&j| (self.figs[j].hp, j))
                    }
                }
                (AttackKind::Ranged, RollKind::Ranged) if !self.engaged(i) => {
                    let reach = State::skill_range(s, i, None);
                    if self.can_shoot(s, i, aimed, reach) {
                        Some(aimed)
                    } else {
                        self.ids()
                            .filter(|&j| self.can_shoot(s, i, j, reach))
                            .min_by(|&a, &b| {
                                self.reach(i, a)
                                    .total_cmp(&self.reach(i, b))
                                    .then(a.cmp(&b))
                            })
                    }
                }
                _ => None,
            };
            if let Some(t) = t {
                self.enemy_uses(i, slot, Some(t), log);
                return Some(self.extra_attack(s, i, t, (dice, attack, damage), log));
            }
        }
        None
    }

    /// An enemy's attack `a` has failed dice: the enemy uses a `reroll` with a cycle and a
    /// use left on it (logged); whether it did.
    pub(crate) fn enemy_reroll(&mut self, s: &Setup, a: &Attack, log: &mut impl Log) -> bool {
        let i = usize::from(a.by);
        if self.figs[i].team != 1
            || !matches!(a.kind, RollKind::Close | RollKind::Ranged)
            || s.figs[i].skills[0].is_none()
        {
            return false;
        }
        let slot = s.figs[i].skills().find_map(|(slot, d)| {
            (d.effect == SkillEffect::Reroll
                && d.cycle != Cycle::Constant
                && self.can_use(s, i, slot))
            .then_some(slot)
        });
        if let Some(slot) = slot {
            self.enemy_uses(i, slot, Some(usize::from(a.target)), log);
        }
        slot.is_some()
    }

    /// The nearest hero `i` sees (figures block sight).
    fn nearest_seen(&self, s: &Setup, i: usize) -> Option<usize> {
        // A hunter (`hunt`) goes for the wounded first.
        let hunts = self.hunts(s, i);
        let whole = |j: usize| hunts && self.figs[j].hp >= s.figs[j].hp;
        self.ids()
            .filter(|&j| {
                self.figs[j].status == Status::Free
                    && self.hostile(i, j)
                    && self.sees(s, i, j, true)
            })
            .min_by(|&a, &b| {
                whole(a)
                    .cmp(&whole(b))
                    .then(self.reach(i, a).total_cmp(&self.reach(i, b)))
                    .then(a.cmp(&b))
            })
    }

    /// Moves `i` toward `to.0` (stopping `to.1` short, centre to centre) within `budget`,
    /// ending nearer it ([`State::advance`]); logged with its reason and the figure it
    /// goes toward (`why.1`).
    fn step_toward(
        &mut self,
        s: &Setup,
        i: usize,
        to: (Pt, f64),
        budget: f64,
        why: (Reason, Option<usize>),
        log: &mut impl Log,
    ) {
        let (goal, stop) = to;
        // A move may not end in a hostile's `keep_away` circle: the longest shorter move
        // (by eighths of the budget) that ends outside it, else none.
        let p = (1..=8).rev().find_map(|k| {
            let p = self.advance(s, i, goal, stop, budget * f64::from(k) / 8.0)?;
            let end = p.end().unwrap_or(self.figs[i].at);
            self.may_end_at(s, i, end).then_some(p)
        });
        if let Some(p) = p {
            self.move_toward(s, i, &p, (why.0, why.1, Some(goal)), log);
        }
    }

    /// Goes to engage hero `t` (full movement) and attacks it if engaged after the move
    /// (the engaged hero with the fewest hit points when `t` is not one of them).
    fn charge(
        &mut self,
        s: &Setup,
        i: usize,
        t: usize,
        budget: f64,
        log: &mut impl Log,
    ) -> Option<Attack> {
        let goal = self.figs[t].at;
        if !self.engaged(i) {
            self.step_toward(
                s,
                i,
                (goal, self.contact(i, t)),
                budget,
                (Reason::Sighted, Some(t)),
                log,
            );
            self.face(i, goal, log);
        }
        self.engaged_attack(s, i, Some(t))
    }

    /// The close attack of engaged enemy `i`: at `t` if engaged with it, else at the engaged
    /// hero with the fewest hit points. `None` when it is not engaged.
    fn engaged_attack(&self, s: &Setup, i: usize, t: Option<usize>) -> Option<Attack> {
        // Held: it makes no attack this turn.
        if self.in_state(i, StateKind::Held) {
            return None;
        }
        let t = t.filter(|&t| self.engaged_with(i, t)).or_else(|| {
            self.ids()
                .filter(|&j| self.engaged_with(i, j))
                .min_by_key(|&j| (self.figs[j].hp, j))
        })?;
        Some(self.close_attack(s, i, t, None))
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
    /// What it heard and the rally it was called to are read once here, in this turn
    /// only ("since its last turn"): never carried to a later one.
    pub(crate) fn enemy_act(&mut self, s: &Setup, i: usize, log: &mut impl Log) -> Option<Attack> {
        let stat = &s.figs[i];
        let movement = stat.movement;
        let heard = self.figs[i].heard.take();
        let heard_shot = std::mem::take(&mut self.figs[i].heard_shot);
        let rally = self.figs[i].rally.take();
        // 1. Engaged: it attacks (hits go to the engaged hero with the fewest hit points).
        if self.engaged(i) {
            if let Mode::Pursue { .. } | Mode::Noise(_) = self.figs[i].mode {
                self.figs[i].mode = Mode::Return { speed: movement };
            }
            return self.engaged_attack(s, i, None);
        }
        let shoots = stat.ranged.is_some() && !self.in_state(i, StateKind::Disarmed);
        // A guard goes to its captive (in its own activation) and stays with it.
        if let Mode::Guard(c) = self.figs[i].mode {
            let c = usize::from(c);
            if self.figs[c].status == Status::Captured {
                let at = self.figs[c].at;
                let stop = self.contact(i, c);
                if self.figs[i].at.dist(at) > stop + 0.05 {
                    self.step_toward(s, i, (at, stop), movement, (Reason::Guard, Some(c)), log);
                }
                return None;
            }
            self.figs[i].mode = Mode::Return { speed: movement };
        }
        // Pursuit of a hero who fled: 5" a round for 2 rounds, then back at 5" a round.
        if let Mode::Pursue { target, left } = self.figs[i].mode {
            let t = usize::from(target);
            if self.figs[t].status == Status::Free && left > 0 {
                let goal = self.figs[t].at;
                self.step_toward(
                    s,
                    i,
                    (goal, self.contact(i, t)),
                    PURSUIT_STEP,
                    (Reason::Pursuit, Some(t)),
                    log,
                );
                self.face(i, goal, log);
                if self.engaged(i) {
                    self.figs[i].mode = Mode::Return { speed: movement };
                    return self.engaged_attack(s, i, Some(t));
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
            self.figs[i].mode = Mode::Return { speed: movement };
            if shoots && self.can_shoot(s, i, t, stat.range) {
                return Some(self.ranged_attack(s, i, t, None, log));
            }
            return self.charge(s, i, t, movement, log);
        }
        // 3. Noise: 2" toward the fight; once a hero is in sight, the rest of its move
        // engages it (or, engaged by the walk, it fights where it stands).
        if let Some(p) = heard {
            self.figs[i].mode = Mode::Noise(p);
            log.push(Event::Heard {
                fig: i as u8,
                at: p,
            });
        }
        if let Mode::Noise(p) = self.figs[i].mode {
            // A shot heard is a fight for this turn; close combat while it goes on.
            if (heard.is_some() && heard_shot) || self.fight_near(p) {
                let before = self.figs[i].at;
                // The fight's spot stands for a base of the default size.
                let stop = contact(self.figs[i].r, BASE_R);
                self.step_toward(s, i, (p, stop), NOISE_STEP, (Reason::Noise, None), log);
                self.face(i, p, log);
                let spent = before.dist(self.figs[i].at);
                if self.engaged(i) {
                    self.figs[i].mode = Mode::Return { speed: movement };
                    return self.engaged_attack(s, i, None);
                }
                if let Some(t) = self.nearest_seen(s, i) {
                    self.figs[i].mode = Mode::Return { speed: movement };
                    if shoots && self.can_shoot(s, i, t, stat.range) {
                        return Some(self.ranged_attack(s, i, t, None, log));
                    }
                    return self.charge(s, i, t, (movement - spent).max(0.0), log);
                }
                return None;
            }
            self.figs[i].mode = Mode::Return { speed: NOISE_STEP };
        }
        // 4. Group: an ally within 4" (now) was shot at since its last turn: rally to it,
        // facing the shooter.
        if let Some((ally, shooter)) = rally {
            let goal = self.figs[usize::from(ally)].at;
            if self.gap(i, usize::from(ally)) <= GROUP_RANGE + EPS {
                let from = self.figs[usize::from(shooter)].at;
                self.step_toward(
                    s,
                    i,
                    (goal, self.contact(i, usize::from(ally))),
                    movement,
                    (Reason::Rally, Some(usize::from(ally))),
                    log,
                );
                self.face(i, from, log);
                self.figs[i].mode = Mode::Return { speed: movement };
                return None;
            }
        }
        // Away from its post: back at its return speed.
        let post = stat.start;
        if let Mode::Return { speed } = self.figs[i].mode {
            if self.figs[i].at.dist(post) > EPS {
                self.step_toward(s, i, (post, 0.0), speed, (Reason::Return, None), log);
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
            && self.base(i).gap(self.base_at(i, post)) < 1.0
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
