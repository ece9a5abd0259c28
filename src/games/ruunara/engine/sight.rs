//! Movement, vision, line of sight and cover on the table, as the state sees them
//! (`spec/ruunara.md`, "Vision and line of sight", "Rounds and turns").

use super::geom::{
    Base, ENGAGE, EPS, FIGURE_H, Pt, contact, facing_to, in_arc, seg_circle, seg_rect,
};
use super::setup::Setup;
use super::state::{State, Status};
use crate::games::ruunara::mission::{Facing, SceneryKind};
use crate::games::ruunara::model::SkillEffect;

/// Pieces at most this high are flat ground.
pub const FLAT: f64 = 1.0;
/// A base this close to a cliff's edge touches it.
pub const TOUCH: f64 = 0.1;
/// A ranged target is under cover behind a piece this high within this distance of its base.
pub const COVER_H: f64 = FIGURE_H / 2.0;
pub const COVER_NEAR: f64 = 1.0;

/// The most pieces [`RayBars`] keeps.
const MAX_CLIMBS: usize = 8;

/// What certainly bars a straight walk (see [`State::ray_bars`]).
struct RayBars {
    /// Segments at least this long run into a base.
    base: f64,
    /// Segments at least this long climb this high piece (in the setup's order).
    climbs: [(f64, f64); MAX_CLIMBS],
}

impl RayBars {
    /// Whether a segment `len` long along the ray is certainly illegal or over `budget`.
    fn fails(&self, len: f64, budget: f64) -> bool {
        if len >= self.base {
            return true;
        }
        let mut climb = 0.0;
        for &(at, h) in &self.climbs {
            if len >= at {
                climb += h;
            }
        }
        len + climb > budget + 1e-9 + 1e-6
    }
}

/// A move: up to 3 straight segments (each segment's end) and what it costs (distance plus
/// climbing).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Path {
    pub pts: [Pt; 3],
    pub n: u8,
    pub cost: f64,
}

impl Path {
    pub fn points(&self) -> &[Pt] {
        &self.pts[..usize::from(self.n)]
    }
    pub fn end(&self) -> Option<Pt> {
        self.points().last().copied()
    }
    fn push(&mut self, p: Pt, c: f64) {
        if usize::from(self.n) < self.pts.len() {
            self.pts[usize::from(self.n)] = p;
            self.n += 1;
            self.cost += c;
        }
    }
}

/// Whether `g` is free, hostile to `f` and within 1" of it (`f` free and on a side):
/// [`State::engaged_with`] of two distinct figures.
#[inline]
pub(crate) fn engages(f: &super::state::Fig, g: &super::state::Fig) -> bool {
    g.status == Status::Free && g.team != f.team && g.team < 2 && within_engage(f, g)
}

/// Whether the bases of `f` and `g` are within 1" of each other (engagement's distance).
#[inline]
pub(crate) fn within_engage(f: &super::state::Fig, g: &super::state::Fig) -> bool {
    // Centres farther apart than this on either axis are plainly not engaged.
    let apart = (f.r + g.r) + ENGAGE + 0.01;
    (f.at.x - g.at.x).abs() <= apart
        && (f.at.y - g.at.y).abs() <= apart
        && f.base().gap(g.base()) <= ENGAGE + EPS
}

impl State {
    /// Whether figures `a` and `b` are on opposing sides.
    #[inline]
    pub fn hostile(&self, a: usize, b: usize) -> bool {
        let (ta, tb) = (self.figs[a].team, self.figs[b].team);
        ta != tb && ta < 2 && tb < 2
    }

    /// Whether free figures `a` and `b` are hostile and within 1".
    #[inline]
    pub fn engaged_with(&self, a: usize, b: usize) -> bool {
        a != b
            && self.figs[b].status == Status::Free
            && self.hostile(a, b)
            && within_engage(&self.figs[a], &self.figs[b])
    }

    /// Figure `i`'s base where it stands.
    #[inline]
    pub fn base(&self, i: usize) -> Base {
        self.figs[i].base()
    }

    /// The distance between the bases of figures `i` and `j` (base to base, never below 0):
    /// every measurement between two figures goes through it or [`Base::gap`].
    #[inline]
    pub fn gap(&self, i: usize, j: usize) -> f64 {
        self.base(i).gap(self.base(j))
    }

    /// The base-to-base distance of `i` and `j` not clamped at 0 (negative when they
    /// overlap): what "nearest" ranks by.
    #[inline]
    pub fn reach(&self, i: usize, j: usize) -> f64 {
        let (a, b) = (&self.figs[i], &self.figs[j]);
        a.at.dist(b.at) - (a.r + b.r)
    }

    /// Figure `i`'s base as it would stand at `at`.
    #[inline]
    pub fn base_at(&self, i: usize, at: Pt) -> Base {
        Base::new(at, self.figs[i].r)
    }

    /// Whether free figure `i` is engaged with any hostile.
    pub fn engaged(&self, i: usize) -> bool {
        // `engaged_with(i, j)` for every `j`, with `i`'s side and place read once.
        let f = &self.figs[i];
        if f.status != Status::Free || f.team >= 2 {
            return false;
        }
        self.figs[..usize::from(self.n)]
            .iter()
            .enumerate()
            .any(|(j, g)| j != i && engages(f, g))
    }

    /// The cost of the straight segment `a`-`b` for figure `who` (its length plus the height
    /// of every piece over 1" high it crosses or gets onto; a piece it starts on was paid for
    /// on the way up, so leaving it costs nothing more), or `None` when it is illegal: it leaves the
    /// table, ends on a building, or passes through or ends on another base.
    pub fn seg_cost(&self, s: &Setup, who: usize, a: Pt, b: Pt) -> Option<f64> {
        let r = self.figs[who].r;
        if b.x < r - 1e-9 || b.y < r - 1e-9 || b.x > s.width - r + 1e-9 || b.y > s.depth - r + 1e-9
        {
            return None;
        }
        let mut climb = 0.0;
        for p in &s.pieces {
            let building = p.kind == SceneryKind::Building;
            // Flat ground neither bars nor costs; a piece plainly more than a base's radius
            // from every point of the segment neither bars its end nor is crossed.
            if !(building || p.height > FLAT) || p.rect.apart(a, b, r) {
                continue;
            }
            // A base ends on top of a piece (its centre on it) or clear of it: never half
            // into a piece over 1" high, never on a building.
            if let Some(dist) = p.rect.dist_within(b, r - 1e-6)
                && (building || dist > 0.0)
            {
                return None;
            }
            // Up and down once: the climb is charged where the segment gets onto (or over)
            // the piece, never again where a segment starting on it leaves it (a path's
            // waypoint on a piece would otherwise pay for it twice).
            let (on_a, on_b) = (p.rect.contains(a), p.rect.contains(b));
            if !on_a && (on_b || seg_rect(a, b, &p.rect).is_some()) {
                climb += p.height;
            }
        }
        for j in 0..usize::from(self.n) {
            let f = &self.figs[j];
            if j != who
                && f.status != Status::Dead
                && seg_circle(a, b, f.at, (r + f.r) - 1e-4).is_some()
            {
                return None;
            }
        }
        Some(a.dist(b) + climb)
    }

    /// The farthest point toward `dest` that `who` can reach from `a` in one segment within
    /// `budget` (stepping back a quarter inch at a time), with its cost.
    pub fn walk(&self, s: &Setup, who: usize, a: Pt, dest: Pt, budget: f64) -> Option<(Pt, f64)> {
        let mut len = a.dist(dest).min(budget);
        // The whole length first: most walks are open and need no bars (a length the bars
        // would skip fails its check all the same).
        if len > 0.05 {
            let p = a.toward(dest, len);
            if let Some(c) = self.seg_cost(s, who, a, p)
                && c <= budget + 1e-9
            {
                return Some((p, c));
            }
            len -= 0.25;
        }
        let bars = self.ray_bars(s, who, a, dest);
        while len > 0.05 {
            // Lengths that certainly fail are not checked (the result is the same).
            if !bars.fails(len, budget) {
                let p = a.toward(dest, len);
                if let Some(c) = self.seg_cost(s, who, a, p)
                    && c <= budget + 1e-9
                {
                    return Some((p, c));
                }
            }
            len -= 0.25;
        }
        None
    }

    /// What certainly bars the ray from `a` toward `dest` for `who`, well clear of rounding:
    /// the length past which it runs into a base, and where it enters the pieces it must
    /// climb (so that a segment that long costs at least their heights).
    fn ray_bars(&self, s: &Setup, who: usize, a: Pt, dest: Pt) -> RayBars {
        let mut bars = RayBars {
            base: f64::INFINITY,
            climbs: [(f64::INFINITY, 0.0); MAX_CLIMBS],
        };
        let d = a.dist(dest);
        if d < 1e-3 {
            return bars;
        }
        let (ux, uy) = ((dest.x - a.x) / d, (dest.y - a.y) / d);
        let rw = self.figs[who].r;
        for j in 0..usize::from(self.n) {
            let f = &self.figs[j];
            if j == who || f.status == Status::Dead {
                continue;
            }
            // The radius `seg_cost` keeps this base at; crossings shallower than 1e-3 are
            // left to it.
            let r = (rw + f.r) - 1e-4;
            let m = r - 1e-3;
            let (cx, cy) = (f.at.x - a.x, f.at.y - a.y);
            let proj = cx * ux + cy * uy;
            let perp2 = cx * cx + cy * cy - proj * proj;
            if perp2 < m * m {
                let h = (r * r - perp2).sqrt();
                if proj + h > 1e-3 {
                    bars.base = bars.base.min((proj - h).max(0.0) + 1e-4);
                }
            }
        }
        let mut k = 0;
        for p in &s.pieces {
            if k == MAX_CLIMBS {
                break;
            }
            if !(p.height > FLAT || p.kind == SceneryKind::Building) {
                continue;
            }
            let q = p.rect;
            // Only from well outside the piece.
            if !(a.x < q.x0 - 1e-3 || a.x > q.x1 + 1e-3 || a.y < q.y0 - 1e-3 || a.y > q.y1 + 1e-3) {
                continue;
            }
            let mut enter = 0.0_f64;
            let mut leave = f64::INFINITY;
            let mut open = true;
            for (u, o, lo, hi) in [(ux, a.x, q.x0, q.x1), (uy, a.y, q.y0, q.y1)] {
                if u.abs() < 1e-9 {
                    open &= o > lo + 1e-3 && o < hi - 1e-3;
                } else {
                    let (t0, t1) = ((lo - o) / u, (hi - o) / u);
                    enter = enter.max(t0.min(t1));
                    leave = leave.min(t0.max(t1));
                }
            }
            if open && enter > 0.0 && leave - enter > 1e-3 {
                bars.climbs[k] = (enter + 1e-4, p.height);
                k += 1;
            }
        }
        bars
    }

    /// A path for `who` to within `stop` (centre to centre) of `goal` in at most `budget`
    /// inches: straight, or around one corner of a piece; `partial` advances as far as it
    /// can when the goal is out of reach. `None` when it cannot move toward it at all.
    pub fn plan(
        &self,
        s: &Setup,
        who: usize,
        goal: Pt,
        stop: f64,
        budget: f64,
        partial: bool,
    ) -> Option<Path> {
        let a = self.figs[who].at;
        let d = a.dist(goal);
        if d <= stop + 1e-6 {
            return Some(Path::default());
        }
        let base = (a.y - goal.y).atan2(a.x - goal.x);
        let spots: &[f64] = if stop > 0.0 {
            &[0.0, 1.0, -1.0, 2.0, -2.0, 3.0, -3.0, 4.0]
        } else {
            &[0.0]
        };
        let spot = |k: f64| {
            let ang = base + k * std::f64::consts::FRAC_PI_4;
            Pt::new(goal.x + stop * ang.cos(), goal.y + stop * ang.sin())
        };
        let mut best: Option<Path> = None;
        let consider = |p: Path, best: &mut Option<Path>| {
            if best.is_none_or(|b| p.cost < b.cost - 1e-9) {
                *best = Some(p);
            }
        };
        // The nearest spot straight ahead is the cheapest way when it is open; a goal out of
        // reach across open ground is walked toward straight.
        let t0 = spot(0.0);
        let direct = self.seg_cost(s, who, a, t0);
        if let Some(c) = direct {
            if c <= budget + 1e-9 {
                let mut p = Path::default();
                p.push(t0, c);
                return Some(p);
            }
            if partial && c <= a.dist(t0) + 1e-9 {
                let (q, c) = self.walk(s, who, a, t0, budget)?;
                let mut p = Path::default();
                p.push(q, c);
                return Some(p);
            }
        }
        // The spots, each worked out once. Every spot lies `stop` from the goal: when the
        // goal is plainly farther than the budget and `stop`, none is in reach, and only the
        // two beside the nearest are worked out (routes around a corner end there too).
        let far = d - stop > budget + 1e-6;
        let mut at = [t0; 8];
        for (m, &k) in spots.iter().enumerate().skip(1) {
            if far && m >= 3 {
                break;
            }
            let t = spot(k);
            at[m] = t;
            // A segment costs at least its length.
            if a.dist(t) > budget + 1e-9 {
                continue;
            }
            if let Some(c) = self.seg_cost(s, who, a, t)
                && c <= budget + 1e-9
            {
                let mut p = Path::default();
                p.push(t, c);
                consider(p, &mut best);
            }
        }
        if best.is_some() {
            return best;
        }
        // Around one corner of a piece in the way, or past either side of a base in the way.
        let mut route: Option<(Pt, f64, f64, Pt)> = None;
        let (ux, uy) = {
            let d = a.dist(t0).max(EPS);
            ((t0.x - a.x) / d, (t0.y - a.y) / d)
        };
        let rw = self.figs[who].r;
        let bases = (0..usize::from(self.n))
            .filter(|&j| {
                j != who
                    && self.figs[j].status != Status::Dead
                    && seg_circle(a, t0, self.figs[j].at, rw + self.figs[j].r).is_some()
            })
            .flat_map(|j| {
                let c = self.figs[j].at;
                let side = (rw + self.figs[j].r) + 0.3;
                // Beside it, and a step aside from where the mover stands (a base in
                // contact is left sideways).
                let far = 2.0 * side;
                [
                    Pt::new(c.x - uy * side, c.y + ux * side),
                    Pt::new(c.x + uy * side, c.y - ux * side),
                    Pt::new(a.x - uy * far, a.y + ux * far),
                    Pt::new(a.x + uy * far, a.y - ux * far),
                ]
            });
        let corners = s
            .pieces
            .iter()
            .filter(|p| p.height > FLAT || p.kind == SceneryKind::Building)
            .flat_map(|p| p.rect.grown(rw + 0.05).corners());
        for w in corners.chain(bases) {
            {
                // A leg costs at least its length: a route that can neither fit the budget
                // nor be a cheaper fallback needs no check.
                let hopeless = |least: f64,
                                best: &Option<Path>,
                                route: &Option<(Pt, f64, f64, Pt)>| {
                    least > budget + 1e-9
                        && (!partial || best.is_some() || route.is_some_and(|r| least >= r.1 + r.2))
                };
                let ends = &at[..spots.len().min(3)];
                let reach = a.dist(w);
                if ends
                    .iter()
                    .all(|&t| hopeless(reach + w.dist(t), &best, &route))
                {
                    continue;
                }
                let Some(c1) = self.seg_cost(s, who, a, w) else {
                    continue;
                };
                for &t in ends {
                    if hopeless(c1 + w.dist(t), &best, &route) {
                        continue;
                    }
                    if let Some(c2) = self.seg_cost(s, who, w, t) {
                        if c1 + c2 <= budget + 1e-9 {
                            let mut p = Path::default();
                            p.push(w, c1);
                            p.push(t, c2);
                            consider(p, &mut best);
                        } else if route.is_none_or(|r| c1 + c2 < r.1 + r.2) {
                            route = Some((w, c1, c2, t));
                        }
                    }
                }
            }
        }
        if best.is_some() || !partial {
            return best;
        }
        // As far as it goes: around a corner when the straight way is barred or climbs,
        // else straight at the goal.
        let mut p = Path::default();
        let straight = direct.is_some_and(|c| c <= a.dist(t0) + 1e-9);
        match route {
            Some((w, c1, _, t)) if !straight => {
                if c1 <= budget {
                    p.push(w, c1);
                    if let Some((q, c)) = self.walk(s, who, w, t, budget - c1) {
                        p.push(q, c);
                    }
                } else if let Some((q, c)) = self.walk(s, who, a, w, budget) {
                    p.push(q, c);
                }
            }
            _ => {
                if let Some((q, c)) = self.walk(s, who, a, t0, budget) {
                    p.push(q, c);
                }
            }
        }
        (p.n > 0).then_some(p)
    }

    /// How an enemy moves toward `goal` (to within `stop`, centre to centre) in at most
    /// `budget` inches: the planned path ([`State::plan`], around pieces and bases) when it
    /// ends nearer the goal; else the straight walk along the bearing or fanned off it (up
    /// to 67.5 degrees either side) that ends nearest the goal, if that is nearer than where
    /// it starts (`spec/ruunara.md`: each move ends nearer its goal). `None`: it stays.
    pub fn advance(&self, s: &Setup, who: usize, goal: Pt, stop: f64, budget: f64) -> Option<Path> {
        /// The bearing, then 22.5, 45 and 67.5 degrees off it either side.
        use std::f64::consts::{FRAC_PI_4, FRAC_PI_8};
        const FAN: [f64; 7] = [
            0.0,
            FRAC_PI_8,
            -FRAC_PI_8,
            FRAC_PI_4,
            -FRAC_PI_4,
            3.0 * FRAC_PI_8,
            -3.0 * FRAC_PI_8,
        ];
        let a = self.figs[who].at;
        let d0 = a.dist(goal);
        if d0 <= stop + 1e-6 {
            return None;
        }
        let planned = self.plan(s, who, goal, stop, budget, true);
        let mut best = planned.and_then(|p| p.end().map(|e| (e.dist(goal), p)));
        // The planned way (around pieces and bases) when it ends nearer.
        if best.is_some_and(|(d, _)| d < d0 - 1e-6) {
            return best.map(|(_, p)| p);
        }
        let len = (d0 - stop).min(budget);
        let bearing = (goal.y - a.y).atan2(goal.x - a.x);
        for k in FAN {
            let ang = bearing + k;
            let dest = Pt::new(a.x + len * ang.cos(), a.y + len * ang.sin());
            if let Some((q, c)) = self.walk(s, who, a, dest, budget) {
                let dq = q.dist(goal);
                if best.is_none_or(|(b, _)| dq < b - 1e-9) {
                    let mut p = Path::default();
                    p.push(q, c);
                    best = Some((dq, p));
                }
            }
        }
        best.filter(|(d, _)| *d < d0 - 1e-6).map(|(_, p)| p)
    }

    /// The farthest `who` goes in a straight line facing `dir`, within its movement.
    pub fn line_path(&self, s: &Setup, who: usize, dir: Facing, budget: f64) -> Option<Path> {
        let a = self.figs[who].at;
        let (dx, dy) = super::geom::facing_vec(dir);
        // Clip the ray to the table (centres stay a base radius inside).
        let r = self.figs[who].r;
        let mut len = budget;
        if dx > EPS {
            len = len.min((s.width - r - a.x) / dx);
        } else if dx < -EPS {
            len = len.min((r - a.x) / dx);
        }
        if dy > EPS {
            len = len.min((s.depth - r - a.y) / dy);
        } else if dy < -EPS {
            len = len.min((r - a.y) / dy);
        }
        if len <= 0.05 {
            return None;
        }
        let dest = Pt::new(a.x + dx * len, a.y + dy * len);
        let (q, c) = self.walk(s, who, a, dest, budget)?;
        let mut p = Path::default();
        p.push(q, c);
        Some(p)
    }

    /// Whether a skill of `who` with this effect is on now (constant, or used this round).
    pub fn skill_on(
        &self,
        s: &Setup,
        who: usize,
        pred: impl Fn(&SkillEffect) -> bool,
    ) -> Option<SkillEffect> {
        let f = &self.figs[who];
        s.figs[who].skills().find_map(|(slot, d)| {
            let on = matches!(d.cycle, crate::games::ruunara::model::Cycle::Constant)
                || f.on_until[slot] >= self.round;
            (on && pred(&d.effect)).then_some(d.effect)
        })
    }

    /// Whether `viewer` sees `target`: its centre within the arc and the viewer's vision
    /// (base to base), no piece that hides a figure (or a building) between, not hidden at a
    /// cliff's foot from on top of it, not beyond its stealth radius; `figures_block`: no other
    /// base between (a ranged shot ignores them: the foreground figure takes its hits).
    #[inline]
    pub fn sees(&self, s: &Setup, viewer: usize, target: usize, figures_block: bool) -> bool {
        self.sight(s, viewer, target, figures_block, true)
    }

    /// [`State::sees`], with the target's stealth counted (`stealth`) or not (would the
    /// viewer see it without its stealth?).
    pub fn sight(
        &self,
        s: &Setup,
        viewer: usize,
        target: usize,
        figures_block: bool,
        stealth: bool,
    ) -> bool {
        let (v, t) = (&self.figs[viewer], &self.figs[target]);
        if t.status != Status::Free {
            return false;
        }
        let bonus = if v.alert_until >= self.round && v.alert_until > 0 {
            4.0
        } else {
            0.0
        } + self.vision_bonus(s, viewer);
        let g = v.base().gap(t.base());
        if g > s.figs[viewer].vision + bonus + EPS {
            return false;
        }
        if !in_arc(v.at, v.facing, t.at) {
            return false;
        }
        if stealth
            && self.hostile(viewer, target)
            && let Some(SkillEffect::Stealth { radius }) =
                self.skill_on(s, target, |e| matches!(e, SkillEffect::Stealth { .. }))
            && g > radius + EPS
        {
            return false;
        }
        for p in &s.pieces {
            if p.kind == SceneryKind::Cliff
                && p.rect.contains(v.at)
                && !p.rect.contains(t.at)
                && p.rect.dist(t.at) <= t.r + TOUCH
            {
                return false;
            }
            if (p.height >= FIGURE_H - 1e-9 || p.kind == SceneryKind::Building)
                && !p.rect.contains(v.at)
                && !p.rect.contains(t.at)
                && seg_rect(v.at, t.at, &p.rect).is_some()
            {
                return false;
            }
        }
        // A captive lies out of the fight: it neither takes nor stops a shot, nor hides.
        if figures_block {
            for k in 0..usize::from(self.n) {
                if k != viewer
                    && k != target
                    && self.figs[k].status == Status::Free
                    && seg_circle(v.at, t.at, self.figs[k].at, self.figs[k].r).is_some()
                {
                    return false;
                }
            }
        }
        true
    }

    /// The figure a shot from `shooter` at `aimed` hits: the first free base the firing
    /// segment crosses, else `aimed`.
    pub fn foreground(&self, shooter: usize, aimed: usize) -> usize {
        let (a, b) = (self.figs[shooter].at, self.figs[aimed].at);
        let mut best = (f64::INFINITY, aimed);
        for k in 0..usize::from(self.n) {
            if k == shooter || k == aimed || self.figs[k].status != Status::Free {
                continue;
            }
            if let Some(t) = seg_circle(a, b, self.figs[k].at, self.figs[k].r)
                && t < best.0
            {
                best = (t, k);
            }
        }
        best.1
    }

    /// Whether `target` is under cover against a shot from `shooter`: a piece at least half
    /// a figure high crossed within 1" of its base, or an ally's cover skill around it.
    pub fn covered(&self, s: &Setup, shooter: usize, target: usize) -> bool {
        let (a, b) = (self.figs[shooter].at, self.figs[target].at);
        for p in &s.pieces {
            if p.height >= COVER_H - 1e-9
                && !p.rect.contains(b)
                && !p.rect.contains(a)
                && let Some((_, t1)) = seg_rect(a, b, &p.rect)
                && a.lerp(b, t1).dist(b) <= self.figs[target].r + COVER_NEAR + EPS
            {
                return true;
            }
        }
        if self.own_cover(s, target) {
            return true;
        }
        let team = self.figs[target].team;
        (0..usize::from(self.n)).any(|k| {
            self.figs[k].status == Status::Free
                && self.figs[k].team == team
                && matches!(
                    self.skill_on(s, k, |e| matches!(e, SkillEffect::Cover { .. })),
                    Some(SkillEffect::Cover { radius, own: false, .. }) if self.gap(k, target) <= radius + EPS
                )
        })
    }

    /// The facing at the end of a path (its last segment's direction), else `keep`.
    pub fn path_facing(&self, from: Pt, p: &Path, keep: Facing) -> Facing {
        let pts = p.points();
        let prev = if pts.len() >= 2 {
            pts[pts.len() - 2]
        } else {
            from
        };
        pts.last().and_then(|e| facing_to(prev, *e)).unwrap_or(keep)
    }

    /// The contact distance (centre to centre) at which figure `i`'s base touches `j`'s: a
    /// move to engage stops there.
    pub fn contact(&self, i: usize, j: usize) -> f64 {
        contact(self.figs[i].r, self.figs[j].r)
    }
}
