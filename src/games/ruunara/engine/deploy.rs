//! The deployment phase: squad members given a zone are placed by the seat, in squad order,
//! after every figure deployed at a point is on the table and before round 1. The options are
//! spots of the zone's grid (bases side by side, [`zone_spot`]) that are wholly on the table,
//! off buildings and clear of every figure already standing; with more free spots than
//! options, the options are spread evenly over them. A member faces the nearest enemy (or
//! hostile neutral) from where it stands, else the table's centre (`docs/rulings.md`).
//!
//! A face may also drop a member at any legal free point of its zone ([`State::can_drop`])
//! as long as the members still to place in that zone keep room on its grid, so a mission
//! that validated can always be deployed whatever is chosen.

use super::events::{Event, Log};
use super::geom::{Base, Pt, facing_to};
use super::setup::{Setup, zone_radius};
use super::state::{MAX_OPTS, Opt, Phase, State, Status};
use crate::games::ruunara::mission::{Facing, Zone, base_on_rect, zone_grid, zone_spot};

/// Tolerance of a base against the table's and the zone's edges, inches.
const EDGE: f64 = 1e-6;
/// The most grid spots offered: one option is kept for a dropped member.
pub const MAX_SPOTS: usize = MAX_OPTS - 1;

impl State {
    /// The zone figure `i` is placed in, if any.
    pub fn zone_of(s: &Setup, i: usize) -> Option<Zone> {
        s.figs
            .get(i)?
            .zone
            .and_then(|k| s.zones.get(usize::from(k)).copied())
    }

    /// The radius of the bases the grid of `i`'s zone is laid out for (the largest of its
    /// members').
    fn grid_r(s: &Setup, i: usize) -> f64 {
        let k = s.figs.get(i).and_then(|f| f.zone).map_or(0, usize::from);
        zone_radius(&s.figs, k)
    }

    /// The grid of `i`'s zone: columns and rows (at most 256 each).
    fn grid(s: &Setup, i: usize) -> (Zone, usize, usize) {
        match State::zone_of(s, i) {
            Some(z) => {
                let (c, r) = zone_grid(z.w, z.d, State::grid_r(s, i));
                (z, c.min(256), r.min(256))
            }
            None => (
                Zone {
                    x: 0.0,
                    y: 0.0,
                    w: 0.0,
                    d: 0.0,
                },
                0,
                0,
            ),
        }
    }

    /// Spot (`col`, `row`) of the grid of `i`'s zone.
    pub fn spot(&self, s: &Setup, i: usize, col: usize, row: usize) -> Pt {
        let (z, _, _) = State::grid(s, i);
        let (x, y) = zone_spot(z, col, row, State::grid_r(s, i));
        Pt::new(x, y)
    }

    /// Whether member `i` may stand at `p` now: its base wholly in its zone and on the table,
    /// not on a building, not overlapping a figure already standing.
    pub fn spot_free(&self, s: &Setup, i: usize, p: Pt) -> bool {
        self.spot_free_for(s, i, p, self.figs[i].r)
    }

    /// [`State::spot_free`] for a base of radius `r` in `i`'s zone (a later member's, whose
    /// base may be larger).
    fn spot_free_for(&self, s: &Setup, i: usize, p: Pt, r: f64) -> bool {
        let Some(z) = State::zone_of(s, i) else {
            return false;
        };
        if !(p.x.is_finite() && p.y.is_finite()) {
            return false;
        }
        let inside = |x0: f64, y0: f64, x1: f64, y1: f64| {
            p.x >= x0 + r - EDGE
                && p.y >= y0 + r - EDGE
                && p.x <= x1 - r + EDGE
                && p.y <= y1 - r + EDGE
        };
        if !inside(0.0, 0.0, s.width, s.depth) || !inside(z.x, z.y, z.x + z.w, z.y + z.d) {
            return false;
        }
        if s.pieces.iter().any(|b| {
            b.kind == crate::games::ruunara::mission::SceneryKind::Building
                && base_on_rect(
                    p.x,
                    p.y,
                    r,
                    b.rect.x0,
                    b.rect.y0,
                    b.rect.x1 - b.rect.x0,
                    b.rect.y1 - b.rect.y0,
                )
        }) {
            return false;
        }
        !self.ids().any(|j| {
            j != i
                && self.waiting & (1 << j) == 0
                && self.figs[j].status != Status::Dead
                && Base::new(p, r).overlaps(self.base(j))
        })
    }

    /// The deployment options of member `i`: free grid spots, at most [`MAX_SPOTS`],
    /// spread evenly over the free ones. Allocates nothing.
    pub(crate) fn deploy_opts(&mut self, s: &Setup, i: usize) {
        let (_, c, r) = State::grid(s, i);
        let mut free = 0usize;
        for row in 0..r {
            for col in 0..c {
                if self.spot_free(s, i, self.spot(s, i, col, row)) {
                    free += 1;
                }
            }
        }
        let take = free.min(MAX_SPOTS);
        let (mut t, mut seen) = (0usize, 0usize);
        for row in 0..r {
            for col in 0..c {
                if t == take {
                    return;
                }
                if !self.spot_free(s, i, self.spot(s, i, col, row)) {
                    continue;
                }
                if seen == t * free / take {
                    self.push_opt(Opt::Place {
                        col: col as u8,
                        row: row as u8,
                    });
                    t += 1;
                }
                seen += 1;
            }
        }
    }

    /// How a member standing at `p` faces: the nearest enemy or hostile neutral standing,
    /// else the table's centre.
    pub fn deploy_facing(&self, s: &Setup, p: Pt) -> Facing {
        let mut best: Option<(f64, Pt)> = None;
        for j in self.ids() {
            let f = &self.figs[j];
            if f.team == 1 && f.status == Status::Free && self.waiting & (1 << j) == 0 {
                let d = p.dist(f.at);
                if best.is_none_or(|(b, _)| d < b) {
                    best = Some((d, f.at));
                }
            }
        }
        best.and_then(|(_, q)| facing_to(p, q))
            .or_else(|| facing_to(p, Pt::new(s.width / 2.0, s.depth / 2.0)))
            .unwrap_or(Facing::N)
    }

    /// Whether member `i` may be dropped at `p` now: its deployment decision is open, the spot
    /// is free ([`State::spot_free`]), and the members of its zone still to place keep a free
    /// grid spot each (spots reaching into another zone not counted).
    pub fn can_drop(&self, s: &Setup, i: usize, p: Pt) -> bool {
        if self.phase != Phase::Deploy(i as u8) || !self.spot_free(s, i, p) {
            return false;
        }
        let zone = s.figs[i].zone;
        let after = self
            .ids()
            .filter(|&j| j != i && self.waiting & (1 << j) != 0 && s.figs[j].zone == zone)
            .count();
        if after == 0 {
            return true;
        }
        let (z, c, r) = State::grid(s, i);
        let gr = State::grid_r(s, i);
        let mut room = 0;
        for row in 0..r {
            for col in 0..c {
                let q = self.spot(s, i, col, row);
                let elsewhere = s
                    .zones
                    .iter()
                    .any(|o| *o != z && base_on_rect(q.x, q.y, gr, o.x, o.y, o.w, o.d));
                if !elsewhere
                    && !Base::new(q, gr).overlaps(self.base_at(i, p))
                    && self.spot_free_for(s, i, q, gr)
                {
                    room += 1;
                    if room >= after {
                        return true;
                    }
                }
            }
        }
        false
    }

    /// Places member `i` at `p`, facing by [`State::deploy_facing`], logged; the next member
    /// is placed next, or round 1 begins.
    pub(crate) fn place(&mut self, s: &Setup, i: usize, p: Pt, log: &mut impl Log) {
        let facing = self.deploy_facing(s, p);
        self.figs[i].at = p;
        self.figs[i].facing = facing;
        log.push(Event::Placed {
            fig: i as u8,
            at: p,
            facing,
        });
        self.placed(s, i, log);
    }

    /// Member `i` is done with: the next waiting member's decision, or (all placed) the
    /// whole deployment logged and round 1.
    pub(crate) fn placed(&mut self, s: &Setup, i: usize, log: &mut impl Log) {
        self.waiting &= !(1 << i);
        if self.waiting != 0 {
            self.phase = Phase::Deploy(self.waiting.trailing_zeros() as u8);
            return;
        }
        if log.keeps() {
            log.push(Event::Deployed {
                figs: self.figs[..usize::from(self.n)]
                    .iter()
                    .map(|f| (f.at, f.facing, f.hp))
                    .collect(),
            });
        }
        self.refresh();
        self.start_round(s, log);
    }
}
