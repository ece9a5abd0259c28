//! Attacks (`spec/ruunara.md`, "Combat"): the dice come in one chance node at a time, then
//! the reroll, then cover; hits and instant kills land, close defeats execute, ranged
//! defeats collapse and are captured (the nearest enemy that can reach goes to guard), and
//! the noise and group responses are recorded for the enemies' next turn.

use super::events::{CaptureKind, DeathKind, Event, Faces, Log, RollKind};
use super::geom::{Pt, facing_to};
use super::setup::{MAX_DICE, MAX_FIGS, Setup};
use super::state::{
    After, Attack, BLANK_ATTACK, GROUP_RANGE, Mode, NOISE_RANGE, Phase, State, Status,
};
use crate::games::ruunara::model::{AttackKind, Cycle, Dice, SkillEffect};

/// A cover die cancels a hit on this or more.
pub const COVER_ON: u8 = 3;

impl State {
    /// Instant kill and reroll as they apply to `i`'s attacks of kind `kind` now: constant,
    /// or readied.
    pub(crate) fn attack_skills(&self, s: &Setup, i: usize, kind: AttackKind) -> (u8, bool) {
        let mut instant = 0u8;
        let mut reroll = false;
        for (slot, d) in s.figs[i].skills() {
            let on = d.cycle == Cycle::Constant || self.figs[i].armed & (1 << slot) != 0;
            if !on {
                continue;
            }
            if let Some(k) = d.effect.instant_on(kind) {
                instant = if instant == 0 { k } else { instant.min(k) };
            } else if d.effect == SkillEffect::Reroll {
                reroll = true;
            }
        }
        (instant, reroll)
    }

    /// A close attack by `i` at `target` (its own dice, or an extra attack's).
    pub(crate) fn close_attack(
        &self,
        s: &Setup,
        i: usize,
        target: usize,
        dice: Option<Dice>,
    ) -> Attack {
        let (instant, reroll) = self.attack_skills(s, i, AttackKind::Close);
        let dice = dice.unwrap_or(s.figs[i].close);
        Attack {
            by: i as u8,
            target: target as u8,
            aimed: target as u8,
            kind: RollKind::Close,
            stage: RollKind::Close,
            dice: Dice {
                min: self.hit_need(s, i, dice.min),
                ..dice
            },
            instant,
            reroll,
            ..BLANK_ATTACK
        }
    }

    /// A shot by `i` at `aimed`: it goes into the foreground figure.
    pub(crate) fn ranged_attack(
        &mut self,
        s: &Setup,
        i: usize,
        aimed: usize,
        dice: Option<Dice>,
        log: &mut impl Log,
    ) -> Attack {
        let (instant, reroll) = self.attack_skills(s, i, AttackKind::Ranged);
        let target = self.foreground(i, aimed);
        // The shooter turns to face its target (logged: its facing after it turns).
        if let Some(f) = facing_to(self.figs[i].at, self.figs[aimed].at)
            && f != self.figs[i].facing
        {
            self.figs[i].facing = f;
            log.push(Event::Turned {
                fig: i as u8,
                facing: f,
                at: self.figs[i].at,
            });
        }
        if target != aimed {
            log.push(Event::Foreground {
                by: i as u8,
                aimed: aimed as u8,
                target: target as u8,
            });
        }
        Attack {
            by: i as u8,
            target: target as u8,
            aimed: aimed as u8,
            kind: RollKind::Ranged,
            stage: RollKind::Ranged,
            dice: {
                let d = dice
                    .or(s.figs[i].ranged)
                    .unwrap_or(Dice { count: 1, min: 6 });
                Dice {
                    min: self.hit_need(s, i, d.min),
                    ..d
                }
            },
            instant,
            reroll,
            ..BLANK_ATTACK
        }
    }

    /// An extra attack of `i` at `target` with a skill's dice, kind and damage a hit.
    pub(crate) fn extra_attack(
        &mut self,
        s: &Setup,
        i: usize,
        target: usize,
        (dice, attack, damage): (Dice, AttackKind, u8),
        log: &mut impl Log,
    ) -> Attack {
        let mut a = match attack {
            AttackKind::Close => self.close_attack(s, i, target, Some(dice)),
            AttackKind::Ranged => self.ranged_attack(s, i, target, Some(dice), log),
        };
        a.damage = damage.max(1);
        a
    }

    /// An area skill of `i`: the dice rolled for each figure of `mask` in turn (lowest index
    /// first), its hits dealt to that figure, each hit costing `damage` hit points.
    pub(crate) fn area_attack(
        &self,
        i: usize,
        dice: Dice,
        mask: u32,
        ranged: bool,
        damage: u8,
    ) -> Attack {
        Attack {
            by: i as u8,
            target: mask.trailing_zeros().min(31) as u8,
            kind: RollKind::Area,
            stage: RollKind::Area,
            dice: Dice {
                count: dice.count.min(MAX_DICE as u32),
                min: dice.min,
            },
            area: mask,
            area_ranged: ranged,
            damage: damage.max(1),
            ..BLANK_ATTACK
        }
    }

    /// Starts rolling an attack; play goes on at `after` once it is resolved.
    pub(crate) fn begin_attack(&mut self, mut a: Attack, after: After, log: &mut impl Log) {
        a.n = (a.dice.count as usize).min(MAX_DICE) as u8;
        a.got = 0;
        self.after = after;
        self.attack = a;
        self.phase = Phase::Roll;
        let _ = log;
    }

    /// One die of the attack in progress.
    pub(crate) fn die(&mut self, s: &Setup, face: u8, log: &mut impl Log) {
        let a = &mut self.attack;
        match a.stage {
            RollKind::Trigger => self.trigger_die(s, face, log),
            RollKind::Save => {
                a.cover[usize::from(a.got)] = face;
                a.got += 1;
                let need = a.hits + a.kills;
                if a.got < need {
                    return;
                }
                let a = self.attack;
                let faces = &a.cover[..usize::from(need)];
                let saved = faces.iter().filter(|&&f| f >= a.save_on).count() as u8;
                log.push(Event::Rolled {
                    fig: a.target,
                    kind: RollKind::Save,
                    need: a.save_on,
                    faces: Faces::from_slice(faces),
                    on: None,
                    target: Some(a.target),
                    hits: saved,
                    facing: None,
                });
                log.push(Event::Saved {
                    target: a.target,
                    cancelled: saved,
                });
                // The kill dice are saved first, then the hits.
                let kills = a.kills.saturating_sub(saved);
                let hits = a.hits.saturating_sub(saved.saturating_sub(a.kills));
                self.land(s, hits, kills, log);
            }
            RollKind::Close | RollKind::Ranged | RollKind::Area => {
                a.faces[usize::from(a.got)] = face;
                a.got += 1;
                if a.got < a.n {
                    return;
                }
                let a = self.attack;
                let faces = &a.faces[..usize::from(a.n)];
                log.push(Event::Rolled {
                    fig: a.by,
                    kind: a.kind,
                    need: a.dice.min,
                    faces: Faces::from_slice(faces),
                    on: (a.kind == RollKind::Area && a.area != 0).then_some(a.target),
                    target: Some(a.target),
                    hits: scoring(&a, faces),
                    facing: self.shooter_facing(&a),
                });
                let mut redo = [0u8; MAX_DICE];
                let mut k = 0;
                for (p, f) in a.faces[..usize::from(a.n)].iter().enumerate() {
                    if *f < a.dice.min {
                        redo[k] = p as u8;
                        k += 1;
                    }
                }
                // An enemy uses a reroll skill with a cycle on an attack with failed dice.
                if k > 0 && (a.reroll || self.enemy_reroll(s, &a, log)) {
                    let at = &mut self.attack;
                    at.stage = RollKind::Reroll;
                    at.redo = redo;
                    at.redo_n = k as u8;
                    at.got = 0;
                } else {
                    self.count_hits(s, log);
                }
            }
            RollKind::Reroll => {
                let p = usize::from(a.redo[usize::from(a.got)]);
                a.faces[p] = face;
                a.got += 1;
                if a.got < a.redo_n {
                    return;
                }
                let a = self.attack;
                let mut f = Faces::default();
                for &p in &a.redo[..usize::from(a.redo_n)] {
                    f.f[usize::from(f.n)] = a.faces[usize::from(p)];
                    f.n += 1;
                }
                log.push(Event::Rolled {
                    fig: a.by,
                    kind: RollKind::Reroll,
                    need: a.dice.min,
                    faces: f,
                    on: (a.kind == RollKind::Area && a.area != 0).then_some(a.target),
                    target: Some(a.target),
                    hits: scoring(&a, f.as_slice()),
                    facing: self.shooter_facing(&a),
                });
                self.count_hits(s, log);
            }
            RollKind::Cover => {
                a.cover[usize::from(a.got)] = face;
                a.got += 1;
                let need = a.hits + a.kills;
                if a.got < need {
                    return;
                }
                let a = self.attack;
                let faces = &a.cover[..usize::from(need)];
                log.push(Event::Rolled {
                    fig: a.target,
                    kind: RollKind::Cover,
                    need: COVER_ON,
                    faces: Faces::from_slice(faces),
                    on: None,
                    target: Some(a.target),
                    hits: faces.iter().filter(|&&f| f >= COVER_ON).count() as u8,
                    facing: None,
                });
                // The kill dice are covered first, then the hits, one cover die each.
                let mut kills = a.kills;
                let mut hits = a.hits;
                let mut cancelled = 0;
                for (k, f) in faces.iter().enumerate() {
                    if *f >= COVER_ON {
                        cancelled += 1;
                        if k < usize::from(a.kills) {
                            kills -= 1;
                        } else {
                            hits -= 1;
                        }
                    }
                }
                log.push(Event::Covered {
                    target: a.target,
                    cancelled,
                });
                self.saves(s, hits, kills, log);
            }
        }
    }

    /// A shooter's facing, logged with its ranged rolls.
    fn shooter_facing(&self, a: &Attack) -> Option<crate::games::ruunara::mission::Facing> {
        (a.kind == RollKind::Ranged).then(|| self.figs[usize::from(a.by)].facing)
    }

    /// Hits and instant kills of the attack's faces; a covered target rolls cover first.
    fn count_hits(&mut self, s: &Setup, log: &mut impl Log) {
        let a = self.attack;
        let mut hits = 0u8;
        let mut kills = 0u8;
        for &f in &a.faces[..usize::from(a.n)] {
            if a.instant > 0 && f >= a.instant {
                kills += 1;
            } else if f >= a.dice.min {
                hits += 1;
            }
        }
        // A ward given by an ally: the next enemy attack on the figure lands no hit (and
        // is spent on it, hit or miss).
        let t = usize::from(a.target);
        if self.figs[t].ward && self.hostile(usize::from(a.by), t) {
            self.figs[t].ward = false;
            if hits + kills > 0 {
                log.push(Event::Saved {
                    target: a.target,
                    cancelled: hits + kills,
                });
            }
            self.land(s, 0, 0, log);
            return;
        }
        if a.kind == RollKind::Ranged
            && hits + kills > 0
            && self.covered(s, usize::from(a.by), usize::from(a.target))
        {
            let at = &mut self.attack;
            at.hits = hits;
            at.kills = kills;
            at.stage = RollKind::Cover;
            at.got = 0;
            return;
        }
        self.saves(s, hits, kills, log);
    }

    /// The attack's target rolls a save with a roll against its kind, one die a hit
    /// ([`RollKind::Save`]); otherwise its hits land.
    fn saves(&mut self, s: &Setup, hits: u8, kills: u8, log: &mut impl Log) {
        let a = self.attack;
        let kind = match a.kind {
            RollKind::Ranged => AttackKind::Ranged,
            RollKind::Area if a.area_ranged => AttackKind::Ranged,
            _ => AttackKind::Close,
        };
        let on = self.save_on(s, usize::from(a.target), kind);
        if on > 0 && hits + kills > 0 {
            let at = &mut self.attack;
            at.hits = hits;
            at.kills = kills;
            at.save_on = on;
            at.stage = RollKind::Save;
            at.got = 0;
            return;
        }
        self.land(s, hits, kills, log);
    }

    /// The engaged hostile of `i` with the fewest hit points (then the lowest index).
    fn weakest_engaged(&self, i: usize) -> Option<usize> {
        self.ids()
            .filter(|&j| self.engaged_with(i, j))
            .min_by_key(|&j| (self.figs[j].hp, j))
    }

    /// The attack's hits and kills land; then play goes on where it stopped.
    fn land(&mut self, s: &Setup, hits: u8, kills: u8, log: &mut impl Log) {
        let a = self.attack;
        let by = usize::from(a.by);
        let mut took = [0u8; MAX_FIGS];
        let mut order = [0u8; MAX_FIGS];
        let mut no = 0;
        match a.kind {
            RollKind::Close => {
                // The rules spread an enemy's hits; a contest's enemies' player chooses.
                let enemy = self.figs[by].team == 1 && s.mode != super::setup::PlayMode::Contest;
                for k in 0..(kills + hits) {
                    let chosen = usize::from(a.target);
                    let t = if !enemy && self.engaged_with(by, chosen) {
                        Some(chosen)
                    } else {
                        self.weakest_engaged(by)
                    };
                    let Some(t) = t else {
                        break;
                    };
                    if self.absorb(s, t, AttackKind::Close) {
                        log.push(Event::Saved {
                            target: t as u8,
                            cancelled: 1,
                        });
                        continue;
                    }
                    if k < kills {
                        self.instant_kill(s, by, t, log);
                    } else {
                        self.figs[t].hp -= i16::from(a.damage);
                        if took[t] == 0 {
                            order[no] = t as u8;
                            no += 1;
                        }
                        took[t] += 1;
                        if self.figs[t].hp <= 0 {
                            self.figs[t].hp = 0;
                            self.log_hits(by, &took, &order[..no], false, log);
                            took = [0; MAX_FIGS];
                            no = 0;
                            self.kill(s, t, Some(by), DeathKind::Executed, log);
                        }
                    }
                }
                self.log_hits(by, &took, &order[..no], false, log);
                self.noise(s, by, usize::from(a.target), false);
            }
            RollKind::Ranged => {
                let t = usize::from(a.target);
                let (mut hits, mut kills) = (hits, kills);
                let mut saved = 0;
                while hits + kills > 0 && self.absorb(s, t, AttackKind::Ranged) {
                    if kills > 0 {
                        kills -= 1;
                    } else {
                        hits -= 1;
                    }
                    saved += 1;
                }
                if saved > 0 {
                    log.push(Event::Saved {
                        target: t as u8,
                        cancelled: saved,
                    });
                }
                if self.figs[t].status == Status::Free {
                    if kills > 0 {
                        self.instant_kill(s, by, t, log);
                    } else if hits > 0 {
                        self.figs[t].hp -= i16::from(hits) * i16::from(a.damage);
                        self.figs[t].hp = self.figs[t].hp.max(0);
                        log.push(Event::Hit {
                            by: a.by,
                            target: a.target,
                            hits,
                            damage: a.damage,
                            ranged: true,
                            hp: self.figs[t].hp,
                        });
                        if self.figs[t].hp <= 0 {
                            self.collapse(s, t, log);
                        }
                    }
                    self.rally(by, t);
                }
                self.noise(s, by, t, true);
            }
            _ => {
                // This roll was the current figure's; the next one rolls anew.
                let t = usize::from(a.target);
                let kind = if a.area_ranged {
                    AttackKind::Ranged
                } else {
                    AttackKind::Close
                };
                let mut hits = hits;
                let mut saved = 0;
                while hits > 0 && a.area & (1 << t) != 0 && self.absorb(s, t, kind) {
                    hits -= 1;
                    saved += 1;
                }
                if saved > 0 {
                    log.push(Event::Saved {
                        target: t as u8,
                        cancelled: saved,
                    });
                }
                if a.area & (1 << t) != 0 && self.figs[t].status == Status::Free && hits > 0 {
                    self.figs[t].hp =
                        (self.figs[t].hp - i16::from(hits) * i16::from(a.damage)).max(0);
                    log.push(Event::Hit {
                        by: a.by,
                        target: t as u8,
                        hits,
                        damage: a.damage,
                        ranged: a.area_ranged,
                        hp: self.figs[t].hp,
                    });
                    if self.figs[t].hp <= 0 {
                        if a.area_ranged {
                            self.collapse(s, t, log);
                        } else {
                            self.kill(s, t, Some(by), DeathKind::Executed, log);
                        }
                    }
                    if a.area_ranged {
                        self.rally(by, t);
                    }
                }
                let mut rest = a.area & !(1u32 << t) & !((1u32 << t) - 1);
                while rest != 0 {
                    let next = rest.trailing_zeros() as usize;
                    if self.figs[next].status == Status::Free {
                        break;
                    }
                    rest &= !(1 << next);
                }
                if rest != 0 {
                    let at = &mut self.attack;
                    at.area = rest;
                    at.target = rest.trailing_zeros() as u8;
                    at.stage = RollKind::Area;
                    at.got = 0;
                    return;
                }
                self.noise(s, by, usize::from(a.target), a.area_ranged);
            }
        }
        self.refresh();
        self.flush_fights(log);
        self.check_end(s);
        self.phase = match self.after {
            After::Tactical(i) => Phase::Tactical(i),
            After::Combat(i) => Phase::Combat(i),
            After::Enemies(k) => Phase::Enemies(k),
        };
        // A figure captured or killed mid-activation ends it.
        if let Phase::Tactical(i) | Phase::Combat(i) = self.phase
            && self.figs[usize::from(i)].status != Status::Free
        {
            self.phase = Phase::Pick;
        }
    }

    fn log_hits(
        &self,
        by: usize,
        took: &[u8; MAX_FIGS],
        order: &[u8],
        ranged: bool,
        log: &mut impl Log,
    ) {
        let damage = self.attack.damage;
        for &t in order {
            log.push(Event::Hit {
                by: by as u8,
                target: t,
                hits: took[usize::from(t)],
                damage,
                ranged,
                hp: self.figs[usize::from(t)].hp.max(0),
            });
        }
    }

    /// `t` dies outright; enemies within 4" of it turn toward where it fell, vision +4" for
    /// a round.
    pub(crate) fn instant_kill(&mut self, s: &Setup, by: usize, t: usize, log: &mut impl Log) {
        let fell = self.figs[t].at;
        let team = self.figs[t].team;
        self.kill(s, t, Some(by), DeathKind::InstantKill, log);
        if team != 1 {
            return;
        }
        // During the heroes' turn the enemies' next turn is this round's.
        let until = if self.figs[by].team == 0 {
            self.round
        } else {
            self.round + 1
        };
        let mut figs = Vec::new();
        for j in self.ids() {
            if j != t
                && self.figs[j].team == 1
                && self.figs[j].status == Status::Free
                && self.base(j).gap(self.base_at(t, fell)) <= GROUP_RANGE
            {
                if let Some(f) = facing_to(self.figs[j].at, fell) {
                    self.figs[j].facing = f;
                }
                self.figs[j].alert_until = until;
                if log.keeps() {
                    figs.push(j as u8);
                }
            }
        }
        if !figs.is_empty() {
            log.push(Event::Alerted { figs, toward: fell });
        }
    }

    /// `t` collapses at 0 hp from a ranged hit: captured; the nearest of its enemies that can
    /// reach it within its movement is its guard, and moves into base contact in its own
    /// next activation (`engine/enemy.rs`), not inside the shooter's.
    fn collapse(&mut self, s: &Setup, t: usize, log: &mut impl Log) {
        self.figs[t].status = Status::Captured;
        let mut cands = [0u8; MAX_FIGS];
        let mut k = 0;
        for j in self.ids() {
            if self.figs[j].status == Status::Free
                && self.hostile(t, j)
                && !self.engaged(j)
                && self.figs[j].team == 1
            {
                cands[k] = j as u8;
                k += 1;
            }
        }
        let at = self.figs[t].at;
        cands[..k].sort_by(|a, b| {
            self.reach(t, usize::from(*a))
                .total_cmp(&self.reach(t, usize::from(*b)))
                .then(a.cmp(b))
        });
        let mut guards = 0u32;
        for &j in &cands[..k] {
            let j = usize::from(j);
            if self
                .plan(s, j, at, self.contact(j, t), s.figs[j].movement, false)
                .is_some()
            {
                guards = 1 << j;
                break;
            }
        }
        self.capture(t, CaptureKind::Collapsed, guards, log);
    }

    /// Combat by `by` on `t`, close or ranged (`shot`): enemies within 8" of either fighter
    /// that see neither hear it: at the midpoint of a close fight, at the nearer fighter of
    /// a shot (`docs/rulings.md`, "Noise").
    fn noise(&mut self, s: &Setup, by: usize, t: usize, shot: bool) {
        // A silent fighter's close combat draws no one.
        if !shot && (self.silent(s, by) || self.silent(s, t)) {
            return;
        }
        let tb = t.min(usize::from(self.n) - 1);
        let (a, b) = (self.figs[by].at, self.figs[tb].at);
        let mid = Pt::new((a.x + b.x) / 2.0, (a.y + b.y) / 2.0);
        for j in 0..usize::from(self.n) {
            if j == by || j == t || self.figs[j].team != 1 || self.figs[j].status != Status::Free {
                continue;
            }
            // An ally within 4" of the figure shot at rallies to it instead.
            if shot && self.figs[j].rally == Some((t as u8, by as u8)) {
                continue;
            }
            let at = self.figs[j].at;
            let near = self.gap(j, by).min(self.gap(j, tb)) <= NOISE_RANGE;
            if near && !self.sees(s, j, by, true) && !self.sees(s, j, t, true) {
                let p = if !shot {
                    mid
                } else if at.dist(a) <= at.dist(b) {
                    a
                } else {
                    b
                };
                self.figs[j].heard = Some(p);
                self.figs[j].heard_shot = shot;
            }
        }
    }

    /// A ranged attack by `by` on `t`: `t`'s side within 4" of it rally to it.
    fn rally(&mut self, by: usize, t: usize) {
        if self.figs[t].team != 1 {
            return;
        }
        for j in 0..usize::from(self.n) {
            if j != t
                && self.figs[j].team == 1
                && self.figs[j].status == Status::Free
                && self.gap(j, t) <= GROUP_RANGE
                && !matches!(self.figs[j].mode, Mode::Guard(_))
            {
                self.figs[j].rally = Some((t as u8, by as u8));
            }
        }
    }
}

/// How many of `faces` score for attack `a`: instant kills and hits (before cover).
fn scoring(a: &Attack, faces: &[u8]) -> u8 {
    faces
        .iter()
        .filter(|&&f| (a.instant > 0 && f >= a.instant) || f >= a.dice.min)
        .count() as u8
}
