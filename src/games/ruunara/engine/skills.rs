//! The composed skill forms (`docs/cards.md`, "Skill effects"; issue #25): saves against
//! hits, states put on a target for a time (silenced, held, disarmed, hexed), hit and
//! vision auras, the capture clock, silence in close combat, hunting the wounded, a circle
//! no hostile may end its move in, cover of the figure itself (while apart, or until it
//! moves), a heal answering an execution, and a single-target kill spell. Each is played
//! here, from its data; `combat.rs`, `sight.rs`, `enemy.rs` and `state.rs` ask these
//! functions at the points the rules name.

use super::events::{Event, Faces, Log, RollKind};
use super::geom::{EPS, Pt, facing_to};
use super::setup::{MAX_FIGS, Setup};
use super::state::{
    After, Attack, BLANK_ATTACK, FIGHT_LONG, HELD_ROUNDS, NONE, Opt, Phase, State, Status,
    state_index,
};
use crate::games::ruunara::model::{
    AttackKind, Cycle, Dice, EffectTarget, Lasts, SkillEffect, StateKind,
};

/// A hit of an attack needs at least this, whatever helps it.
pub const BEST_NEED: u8 = 2;

impl State {
    /// Whether figure `i` is in state `k` now.
    pub fn in_state(&self, i: usize, k: StateKind) -> bool {
        let until = self.figs[i].states[state_index(k)];
        until != 0 && until >= self.round
    }

    /// Whether skill slot `slot` of `who` is on now: a constant skill, or one used and
    /// still lasting.
    fn slot_on(&self, s: &Setup, who: usize, slot: usize) -> bool {
        s.figs[who].skills[slot].is_some_and(|d| {
            d.cycle == Cycle::Constant || self.figs[who].on_until[slot] >= self.round.max(1)
        })
    }

    /// The effects of `who`'s skills that are on now (constant, or used and lasting).
    fn effects_on<'a>(
        &'a self,
        s: &'a Setup,
        who: usize,
    ) -> impl Iterator<Item = (usize, SkillEffect)> + 'a {
        s.figs[who]
            .skills()
            .filter(move |(slot, _)| self.slot_on(s, who, *slot))
            .map(|(slot, d)| (slot, d.effect))
    }

    /// Engaged rounds after which `i` is captured at the start of its side's turn: more
    /// than 4, or more than a `hold_out`'s rounds.
    pub(crate) fn held_rounds(&self, s: &Setup, i: usize) -> u32 {
        self.effects_on(s, i)
            .filter_map(|(_, e)| match e {
                SkillEffect::HoldOut { rounds } => Some(u32::from(rounds) + 1),
                _ => None,
            })
            .fold(HELD_ROUNDS, u32::max)
    }

    /// The score an attack of `i` with dice needing `min` hits on: one less for each
    /// `hit_bonus` of an ally within its radius (never better than 2+), at least a hex's
    /// score.
    pub(crate) fn hit_need(&self, s: &Setup, i: usize, min: u8) -> u8 {
        let mut need = min;
        if s.auras != 0 {
            let mut bonus = 0u8;
            for k in super::state::bits(s.auras) {
                let k = usize::from(k);
                if k == i
                    || self.figs[k].status != Status::Free
                    || self.figs[k].team != self.figs[i].team
                {
                    continue;
                }
                for (_, e) in self.effects_on(s, k) {
                    if let SkillEffect::HitBonus {
                        amount,
                        radius,
                        kin,
                    } = e
                        && (!kin || s.figs[k].race == s.figs[i].race)
                        && self.gap(k, i) <= radius + EPS
                    {
                        bonus = bonus.max(amount);
                    }
                }
            }
            if bonus > 0 {
                need = need.saturating_sub(bonus).max(BEST_NEED.min(min));
            }
        }
        if self.in_state(i, StateKind::Hexed) {
            need = need.max(self.figs[i].hex_score);
        }
        need
    }

    /// Inches `viewer` sees farther: the best `vision` aura of another free figure of its
    /// side within that aura's radius.
    pub(crate) fn vision_bonus(&self, s: &Setup, viewer: usize) -> f64 {
        if s.auras == 0 {
            return 0.0;
        }
        let mut best = 0u8;
        for k in super::state::bits(s.auras) {
            let k = usize::from(k);
            if k == viewer
                || self.figs[k].status != Status::Free
                || self.figs[k].team != self.figs[viewer].team
            {
                continue;
            }
            for (_, e) in self.effects_on(s, k) {
                if let SkillEffect::Vision { amount, radius } = e
                    && self.gap(k, viewer) <= radius + EPS
                {
                    best = best.max(amount);
                }
            }
        }
        f64::from(best)
    }

    /// Whether `mover` may end a move at `end`: no free hostile figure's `keep_away` circle
    /// holds it.
    pub(crate) fn may_end_at(&self, s: &Setup, mover: usize, end: Pt) -> bool {
        if s.auras == 0 {
            return true;
        }
        super::state::bits(s.auras).into_iter().all(|k| {
            let k = usize::from(k);
            k == mover
                || self.figs[k].status != Status::Free
                || self.figs[k].team == self.figs[mover].team
                || !self.effects_on(s, k).any(|(_, e)| {
                    matches!(e, SkillEffect::KeepAway { radius }
                        if self.base(k).gap(self.base_at(mover, end)) <= radius + EPS)
                })
        })
    }

    /// Whether close combat of `i` makes no noise (`silent`).
    pub(crate) fn silent(&self, s: &Setup, i: usize) -> bool {
        i < usize::from(self.n) && self.effects_on(s, i).any(|(_, e)| e == SkillEffect::Silent)
    }

    /// Whether `i` hunts the wounded (`hunt`).
    pub(crate) fn hunts(&self, s: &Setup, i: usize) -> bool {
        self.effects_on(s, i).any(|(_, e)| e == SkillEffect::Hunt)
    }

    /// Whether `t` is under the cover of its own skill: while no hostile is within the
    /// skill's `apart` distance, or used and lasting (until it moves).
    pub(crate) fn own_cover(&self, s: &Setup, t: usize) -> bool {
        self.effects_on(s, t).any(|(_, e)| match e {
            SkillEffect::Cover {
                own: true, apart, ..
            } => apart.is_none_or(|d| {
                !self.ids().any(|j| {
                    self.figs[j].status == Status::Free
                        && self.hostile(t, j)
                        && self.gap(t, j) <= d + EPS
                })
            }),
            _ => false,
        })
    }

    /// `i` moved: a cover that lasts until it moves ends.
    pub(crate) fn moved(&mut self, s: &Setup, i: usize) {
        for (slot, d) in s.figs[i].skills() {
            if let SkillEffect::Cover {
                until_move: true, ..
            } = d.effect
            {
                self.figs[i].on_until[slot] = 0;
            }
        }
    }

    /// A hit of kind `kind` on `t` is cancelled by a save with no roll of `t` that has a
    /// hit left this fight (the first hits of each fight); the use is counted.
    pub(crate) fn absorb(&mut self, s: &Setup, t: usize, kind: AttackKind) -> bool {
        let mut slot_hit = None;
        for (slot, e) in self.effects_on(s, t) {
            if let SkillEffect::Save {
                against,
                on: 0,
                hits,
                ward: None,
            } = e
                && against.is_none_or(|a| a == kind)
                && (hits == 0 || self.figs[t].used_fight[slot] < hits)
            {
                slot_hit = Some((slot, hits));
                break;
            }
        }
        let Some((slot, hits)) = slot_hit else {
            return false;
        };
        if hits > 0 {
            let f = &mut self.figs[t];
            f.used_fight[slot] = f.used_fight[slot].saturating_add(1);
        }
        true
    }

    /// The score a save of `t` against hits of kind `kind` cancels each on (0: none).
    pub(crate) fn save_on(&self, s: &Setup, t: usize, kind: AttackKind) -> u8 {
        self.effects_on(s, t)
            .filter_map(|(_, e)| match e {
                SkillEffect::Save {
                    against,
                    on,
                    ward: None,
                    ..
                } if on > 0 && against.is_none_or(|a| a == kind) => Some(on),
                _ => None,
            })
            .min()
            .unwrap_or(0)
    }

    /// A hero at `t` was executed: each free hostile of it within a `heal`'s radius that
    /// answers executions (and has a use left) heals.
    pub(crate) fn executed(&mut self, s: &Setup, t: usize, log: &mut impl Log) {
        for k in self.ids() {
            if self.figs[k].status != Status::Free || !self.hostile(k, t) {
                continue;
            }
            for (slot, d) in s.figs[k].skills() {
                if let SkillEffect::Heal {
                    amount,
                    execution: Some(r),
                    ..
                } = d.effect
                    && self.can_use(s, k, slot)
                    && self.gap(k, t) <= r + EPS
                {
                    self.use_skill(k, slot);
                    self.figs[k].used_now &= !(1 << slot);
                    log.push(Event::Skill {
                        fig: k as u8,
                        slot: slot as u8,
                        target: Some(t as u8),
                    });
                    self.heal(s, k, k, amount, log);
                }
            }
        }
    }

    /// The figures a `state` or `capture_clock` of `i` may go at: `target` read as the
    /// form says (engaged hostiles; one hostile seen within reach, or engaged; every
    /// hostile within `radius`).
    pub(crate) fn effect_targets(
        &self,
        s: &Setup,
        i: usize,
        target: EffectTarget,
        range: Option<f64>,
    ) -> u32 {
        let mut mask = 0u32;
        let engaged = self.engaged(i);
        for j in self.ids() {
            let ok = match target {
                EffectTarget::Engaged => self.engaged_with(i, j),
                EffectTarget::Enemy if engaged => self.engaged_with(i, j),
                EffectTarget::Enemy => {
                    self.figs[j].status == Status::Free
                        && self.hostile(i, j)
                        && self.gap(i, j) <= State::skill_range(s, i, range) + EPS
                        && self.sees(s, i, j, false)
                }
                _ => false,
            };
            if ok {
                mask |= 1 << j;
            }
        }
        mask
    }

    /// The free hostiles within `radius` of `i` (base to base).
    fn around(&self, i: usize, radius: f64) -> u32 {
        let mut mask = 0u32;
        for j in self.ids() {
            if self.figs[j].status == Status::Free
                && self.hostile(i, j)
                && self.gap(i, j) <= radius + EPS
            {
                mask |= 1 << j;
            }
        }
        mask
    }

    /// The options of a composed skill of `i` in slot `slot` (its tactical phase, or the
    /// combat phase's spells).
    pub(crate) fn composed_opts(&mut self, s: &Setup, i: usize, slot: usize, e: SkillEffect) {
        let sl = slot as u8;
        let each = |st: &mut State, mask: u32| {
            for j in super::state::bits(mask) {
                st.push_opt(Opt::Skill {
                    slot: sl,
                    target: j,
                });
            }
        };
        match e {
            SkillEffect::Save { ward: Some(r), .. } => {
                let mut mask = 0;
                for j in self.ids() {
                    if !self.figs[j].ward && self.heal_reaches(s, i, j, r) {
                        mask |= 1 << j;
                    }
                }
                each(self, mask);
            }
            SkillEffect::State {
                target: EffectTarget::Enemies,
                radius: Some(r),
                ..
            } if self.around(i, r) != 0 => {
                self.push_opt(Opt::Skill {
                    slot: sl,
                    target: NONE,
                });
            }
            SkillEffect::State {
                target: EffectTarget::Enemies,
                ..
            } => {}
            SkillEffect::State { target, range, .. } => {
                let m = self.effect_targets(s, i, target, range);
                each(self, m);
            }
            SkillEffect::CaptureClock { .. } => {
                let m = self.effect_targets(s, i, EffectTarget::Engaged, None);
                each(self, m);
            }
            SkillEffect::InstantKill { spell: true, .. } => {
                let m = self.effect_targets(s, i, EffectTarget::Enemy, None);
                each(self, m);
            }
            // A passive form given a cycle: on through the round it is used.
            SkillEffect::HitBonus { .. }
            | SkillEffect::Vision { .. }
            | SkillEffect::HoldOut { .. }
            | SkillEffect::Silent
            | SkillEffect::Hunt
            | SkillEffect::KeepAway { .. }
            | SkillEffect::Save { .. } => self.push_opt(Opt::Skill {
                slot: sl,
                target: NONE,
            }),
            _ => {}
        }
    }

    /// `i` uses composed skill slot `slot` on `target` (already counted and logged): a
    /// roll of its trigger die begins, or the effect lands at once.
    pub(crate) fn use_composed(
        &mut self,
        s: &Setup,
        i: usize,
        slot: usize,
        target: u8,
        log: &mut impl Log,
    ) {
        let Some(d) = s.figs[i].skills[slot] else {
            return;
        };
        let on = match d.effect {
            SkillEffect::State { on, .. } | SkillEffect::CaptureClock { on, .. } => on,
            SkillEffect::InstantKill {
                on, spell: true, ..
            } => on,
            SkillEffect::Save { ward: Some(_), .. } => {
                if target != NONE {
                    self.figs[usize::from(target)].ward = true;
                    log.push(Event::Affected {
                        by: i as u8,
                        target,
                        what: "warded",
                    });
                }
                return;
            }
            _ => {
                self.figs[i].on_until[slot] = self.round;
                return;
            }
        };
        if on > 0 {
            let a = self.trigger_roll(i, slot, target, on);
            let after = match self.phase {
                Phase::Combat(_) => After::Combat(i as u8),
                Phase::Enemies(k) => After::Enemies(k),
                _ => After::Tactical(i as u8),
            };
            self.begin_attack(a, after, log);
        } else {
            self.lands(s, i, slot, target, log);
        }
    }

    /// The trigger die of skill slot `slot` of `i` at `target`: its effect lands on `on`
    /// or more.
    pub(crate) fn trigger_roll(&self, i: usize, slot: usize, target: u8, on: u8) -> Attack {
        Attack {
            by: i as u8,
            target: if target == NONE { i as u8 } else { target },
            aimed: if target == NONE { i as u8 } else { target },
            kind: RollKind::Trigger,
            stage: RollKind::Trigger,
            dice: Dice { count: 1, min: on },
            slot: slot as u8,
            ..BLANK_ATTACK
        }
    }

    /// A trigger die came in: logged; on its score the skill's effect lands; then play
    /// goes on where it stopped.
    pub(crate) fn trigger_die(&mut self, s: &Setup, face: u8, log: &mut impl Log) {
        let a = self.attack;
        let hit = face >= a.dice.min;
        log.push(Event::Rolled {
            fig: a.by,
            kind: RollKind::Trigger,
            need: a.dice.min,
            faces: Faces::from_slice(&[face]),
            on: None,
            target: Some(a.target),
            hits: u8::from(hit),
            facing: None,
        });
        if hit {
            let target = if a.target == a.by { NONE } else { a.target };
            self.lands(s, usize::from(a.by), usize::from(a.slot), target, log);
        }
        self.resume(s, log);
    }

    /// The effect of skill slot `slot` of `i` lands on `target` (`NONE`: every figure its
    /// form reaches).
    fn lands(&mut self, s: &Setup, i: usize, slot: usize, target: u8, log: &mut impl Log) {
        let Some(d) = s.figs[i].skills[slot] else {
            return;
        };
        let t = usize::from(target);
        match d.effect {
            SkillEffect::InstantKill { .. }
                if target != NONE && self.figs[t].status == Status::Free =>
            {
                self.instant_kill(s, i, t, log);
            }
            SkillEffect::CaptureClock { amount, .. } if target != NONE => {
                let f = &mut self.figs[t];
                f.extra_rounds = f.extra_rounds.saturating_add(amount);
                log.push(Event::Affected {
                    by: i as u8,
                    target,
                    what: "dragged toward capture",
                });
            }
            SkillEffect::State {
                state,
                target: kind,
                radius,
                lasts,
                score,
                face,
                ..
            } => {
                let mask = match (kind, radius) {
                    (EffectTarget::Enemies, Some(r)) => self.around(i, r),
                    _ if target != NONE => 1 << t,
                    _ => 0,
                };
                // "This turn": through this round when a hero puts it on (the enemies'
                // turn follows), through the next when an enemy does.
                let until = match lasts {
                    Lasts::Fight | Lasts::Move => FIGHT_LONG,
                    Lasts::Round | Lasts::Attack => self.round + u32::from(self.figs[i].team != 0),
                };
                for j in super::state::bits(mask) {
                    let j = usize::from(j);
                    if self.figs[j].status != Status::Free {
                        continue;
                    }
                    let f = &mut self.figs[j];
                    f.states[state_index(state)] = until;
                    if state == StateKind::Hexed {
                        f.hex_score = score;
                    }
                    if face && let Some(fc) = facing_to(self.figs[j].at, self.figs[i].at) {
                        self.figs[j].facing = fc;
                        log.push(Event::Turned {
                            fig: j as u8,
                            facing: fc,
                            at: self.figs[j].at,
                        });
                    }
                    log.push(Event::Affected {
                        by: i as u8,
                        target: j as u8,
                        what: state.name(),
                    });
                }
            }
            _ => {}
        }
        self.refresh();
        self.flush_fights(log);
        self.check_end(s);
    }

    /// Play goes on where the roll in progress stopped.
    pub(crate) fn resume(&mut self, s: &Setup, log: &mut impl Log) {
        let _ = (s, log);
        self.phase = match self.after {
            After::Tactical(i) => Phase::Tactical(i),
            After::Combat(i) => Phase::Combat(i),
            After::Enemies(k) => Phase::Enemies(k),
        };
        if let Phase::Tactical(i) | Phase::Combat(i) = self.phase
            && self.figs[usize::from(i)].status != Status::Free
        {
            self.phase = Phase::Pick;
        }
    }

    /// Enemy `i`'s composed skills with a cycle, before it acts: a state or a capture
    /// clock on the engaged hero with the fewest hit points; a ward on the ally with the
    /// fewest; a state on enemies around when one is there. The trigger roll, if any.
    pub(crate) fn enemy_composed(
        &mut self,
        s: &Setup,
        i: usize,
        slot: usize,
        e: SkillEffect,
        log: &mut impl Log,
    ) -> Option<Attack> {
        let weakest = |st: &State, mask: u32| {
            super::state::bits(mask)
                .into_iter()
                .min_by_key(|&j| (st.figs[usize::from(j)].hp, j))
        };
        let target = match e {
            SkillEffect::State {
                target: EffectTarget::Enemies,
                radius: Some(r),
                ..
            } => (self.around(i, r) != 0).then_some(NONE),
            SkillEffect::State { target, range, .. } => {
                weakest(self, self.effect_targets(s, i, target, range))
            }
            SkillEffect::CaptureClock { .. } => {
                weakest(self, self.effect_targets(s, i, EffectTarget::Engaged, None))
            }
            SkillEffect::InstantKill { spell: true, .. } => {
                weakest(self, self.effect_targets(s, i, EffectTarget::Enemy, None))
            }
            _ => None,
        }?;
        self.use_skill(i, slot);
        log.push(Event::Skill {
            fig: i as u8,
            slot: slot as u8,
            target: (target != NONE).then_some(target),
        });
        let on = match e {
            SkillEffect::State { on, .. }
            | SkillEffect::CaptureClock { on, .. }
            | SkillEffect::InstantKill { on, .. } => on,
            _ => 0,
        };
        if on > 0 {
            return Some(self.trigger_roll(i, slot, target, on));
        }
        self.lands(s, i, slot, target, log);
        None
    }
}

impl StateKind {
    /// The state's name in a card and in the log.
    pub fn name(self) -> &'static str {
        match self {
            StateKind::Silenced => "silenced",
            StateKind::Held => "held",
            StateKind::Disarmed => "disarmed",
            StateKind::Hexed => "hexed",
        }
    }
}

/// The most figures a mask holds.
const _: () = assert!(MAX_FIGS <= 32);
