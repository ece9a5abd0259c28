//! Table geometry in plain `f64` inches (`spec/ruunara.md`, "The table"): base-to-base
//! distances, base overlap, a segment against a rectangle or a circle, the vision arc and
//! the eight facings.

use crate::games::ruunara::mission::Facing;

/// A base's radius: the 34 mm octagonal base treated as a circle (1.36" across).
pub const BASE_R: f64 = 0.68;
/// A figure's height (58 mm).
pub const FIGURE_H: f64 = 2.32;
/// Tolerance of contacts and overlaps, inches.
pub const EPS: f64 = 1e-6;
/// Two hostile figures within this base-to-base distance are engaged.
pub const ENGAGE: f64 = 1.0;
/// The cosine of half the vision arc (135 degrees: 67.5 on each side of the facing).
pub const ARC_COS: f64 = 0.382_683_432_365_089_8;

/// A point on the table, inches from the south-west corner.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Pt {
    pub x: f64,
    pub y: f64,
}

impl Pt {
    pub const fn new(x: f64, y: f64) -> Pt {
        Pt { x, y }
    }
    pub fn dist(self, o: Pt) -> f64 {
        // Inches on a table never overflow: a plain square root (hypot is far slower).
        let (dx, dy) = (self.x - o.x, self.y - o.y);
        (dx * dx + dy * dy).sqrt()
    }
    /// The point `t` of the way from `self` to `o`.
    pub fn lerp(self, o: Pt, t: f64) -> Pt {
        Pt::new(self.x + (o.x - self.x) * t, self.y + (o.y - self.y) * t)
    }
    /// `self` moved `len` inches toward `o` (never past it).
    pub fn toward(self, o: Pt, len: f64) -> Pt {
        let d = self.dist(o);
        if d <= len || d < EPS {
            o
        } else {
            self.lerp(o, len / d)
        }
    }
}

/// A figure's base on the table: its centre and its radius (inches; [`BASE_R`] for the
/// default 34 mm). Every measurement between figures goes through it: base to base
/// ([`Base::gap`]), overlap ([`Base::overlaps`]), base contact ([`contact`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Base {
    pub at: Pt,
    pub r: f64,
}

impl Base {
    pub const fn new(at: Pt, r: f64) -> Base {
        Base { at, r }
    }

    /// Base-to-base distance: centre distance minus both radii, never below 0
    /// (`spec/ruunara.md`, "The table").
    #[inline]
    pub fn gap(self, o: Base) -> f64 {
        (self.at.dist(o.at) - (self.r + o.r)).max(0.0)
    }

    /// Whether the two bases overlap (touching is not overlapping).
    #[inline]
    pub fn overlaps(self, o: Base) -> bool {
        self.at.dist(o.at) < (self.r + o.r) - 1e-4
    }
}

/// Base contact of bases of radii `a` and `b`: the centre distance at which they touch, with
/// a hair of room so that figures put in contact never overlap by rounding.
#[inline]
pub fn contact(a: f64, b: f64) -> f64 {
    (a + b) + 0.01
}

/// An axis-aligned rectangle.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rect {
    pub x0: f64,
    pub y0: f64,
    pub x1: f64,
    pub y1: f64,
}

impl Rect {
    pub fn new(x: f64, y: f64, w: f64, d: f64) -> Rect {
        Rect {
            x0: x,
            y0: y,
            x1: x + w,
            y1: y + d,
        }
    }
    /// Whether `p` lies inside (edges included).
    pub fn contains(&self, p: Pt) -> bool {
        p.x >= self.x0 && p.x <= self.x1 && p.y >= self.y0 && p.y <= self.y1
    }
    /// Whether `p` lies strictly inside.
    pub fn inside(&self, p: Pt) -> bool {
        p.x > self.x0 + EPS && p.x < self.x1 - EPS && p.y > self.y0 + EPS && p.y < self.y1 - EPS
    }
    /// The distance from `p` to the rectangle (0 inside).
    pub fn dist(&self, p: Pt) -> f64 {
        let dx = (self.x0 - p.x).max(0.0).max(p.x - self.x1);
        let dy = (self.y0 - p.y).max(0.0).max(p.y - self.y1);
        (dx * dx + dy * dy).sqrt()
    }
    /// [`Rect::dist`] when `p` is closer than `r` (`r` at least a thousandth of an inch),
    /// else `None`, without a square root for the points that are plainly farther.
    #[inline]
    pub fn dist_within(&self, p: Pt, r: f64) -> Option<f64> {
        let dx = (self.x0 - p.x).max(0.0).max(p.x - self.x1);
        let dy = (self.y0 - p.y).max(0.0).max(p.y - self.y1);
        let d2 = dx * dx + dy * dy;
        // Past `r` by far more than rounding: no need for the root.
        if d2 >= r * r * (1.0 + 1e-6) {
            return None;
        }
        let d = d2.sqrt();
        (d < r).then_some(d)
    }
    /// Whether segment `a`-`b` stays plainly clear of the rectangle grown by `m`: its
    /// bounding box lies apart from it by more than rounding.
    #[inline]
    pub fn apart(&self, a: Pt, b: Pt, m: f64) -> bool {
        const SLACK: f64 = 1e-6;
        a.x.max(b.x) < self.x0 - m - SLACK
            || a.x.min(b.x) > self.x1 + m + SLACK
            || a.y.max(b.y) < self.y0 - m - SLACK
            || a.y.min(b.y) > self.y1 + m + SLACK
    }
    /// The rectangle grown by `m` on every side.
    pub fn grown(&self, m: f64) -> Rect {
        Rect {
            x0: self.x0 - m,
            y0: self.y0 - m,
            x1: self.x1 + m,
            y1: self.y1 + m,
        }
    }
    pub fn corners(&self) -> [Pt; 4] {
        [
            Pt::new(self.x0, self.y0),
            Pt::new(self.x1, self.y0),
            Pt::new(self.x1, self.y1),
            Pt::new(self.x0, self.y1),
        ]
    }
}

/// The part of segment `a`-`b` inside `r`, as parameters `(t0, t1)` in `0..=1` (Liang-Barsky);
/// `None` when the segment misses it or only grazes an edge.
#[inline]
pub fn seg_rect(a: Pt, b: Pt, r: &Rect) -> Option<(f64, f64)> {
    // Most segments are plainly clear of most pieces: told here, without a call.
    if r.apart(a, b, 0.0) {
        return None;
    }
    seg_rect_near(a, b, r)
}

/// [`seg_rect`] for a segment whose bounding box meets the rectangle.
fn seg_rect_near(a: Pt, b: Pt, r: &Rect) -> Option<(f64, f64)> {
    let (dx, dy) = (b.x - a.x, b.y - a.y);
    let mut t0: f64 = 0.0;
    let mut t1: f64 = 1.0;
    for (p, q) in [
        (-dx, a.x - r.x0),
        (dx, r.x1 - a.x),
        (-dy, a.y - r.y0),
        (dy, r.y1 - a.y),
    ] {
        if p.abs() < 1e-12 {
            if q <= EPS {
                return None;
            }
        } else {
            let t = q / p;
            if p < 0.0 {
                t0 = t0.max(t);
            } else {
                t1 = t1.min(t);
            }
        }
    }
    (t1 - t0 > 1e-9).then_some((t0, t1))
}

/// Whether segment `a`-`b` passes within `r` of `c` (strictly), and where it first comes
/// that close (a parameter in `0..=1`).
#[inline]
pub fn seg_circle(a: Pt, b: Pt, c: Pt, r: f64) -> Option<f64> {
    // A circle plainly clear of the segment's bounding box (most are): told here, without
    // a call.
    const SLACK: f64 = 1e-6;
    if c.x + r < a.x.min(b.x) - SLACK
        || c.x - r > a.x.max(b.x) + SLACK
        || c.y + r < a.y.min(b.y) - SLACK
        || c.y - r > a.y.max(b.y) + SLACK
    {
        return None;
    }
    seg_circle_near(a, b, c, r)
}

/// [`seg_circle`] for a circle that meets the segment's bounding box.
fn seg_circle_near(a: Pt, b: Pt, c: Pt, r: f64) -> Option<f64> {
    let (dx, dy) = (b.x - a.x, b.y - a.y);
    let (fx, fy) = (a.x - c.x, a.y - c.y);
    let aa = dx * dx + dy * dy;
    if aa < 1e-18 {
        return ((fx * fx + fy * fy).sqrt() < r).then_some(0.0);
    }
    let bb = 2.0 * (fx * dx + fy * dy);
    let cc = fx * fx + fy * fy - r * r;
    let disc = bb * bb - 4.0 * aa * cc;
    if disc <= 0.0 {
        return None;
    }
    let s = disc.sqrt();
    let (t0, t1) = ((-bb - s) / (2.0 * aa), (-bb + s) / (2.0 * aa));
    if t1 < 0.0 || t0 > 1.0 {
        return None;
    }
    Some(t0.max(0.0))
}

/// The unit vector of a facing.
pub fn facing_vec(f: Facing) -> (f64, f64) {
    const D: f64 = std::f64::consts::FRAC_1_SQRT_2;
    match f {
        Facing::E => (1.0, 0.0),
        Facing::Ne => (D, D),
        Facing::N => (0.0, 1.0),
        Facing::Nw => (-D, D),
        Facing::W => (-1.0, 0.0),
        Facing::Sw => (-D, -D),
        Facing::S => (0.0, -1.0),
        Facing::Se => (D, -D),
    }
}

/// The facing nearest the direction from `a` to `b` (`None` when they coincide).
pub fn facing_to(a: Pt, b: Pt) -> Option<Facing> {
    let (dx, dy) = (b.x - a.x, b.y - a.y);
    if dx.abs() < EPS && dy.abs() < EPS {
        return None;
    }
    // A direction plainly inside one facing's 45-degree sector is told by its slope (tan
    // 22.5 degrees, with a margin far above rounding); only one within a hair of a sector's
    // edge needs the angle.
    const TAN: f64 = std::f64::consts::SQRT_2 - 1.0;
    const LO: f64 = TAN * (1.0 - 1e-9);
    const HI: f64 = TAN * (1.0 + 1e-9);
    let (ax, ay) = (dx.abs(), dy.abs());
    if ay < ax * LO {
        return Some(if dx > 0.0 { Facing::E } else { Facing::W });
    }
    if ax < ay * LO {
        return Some(if dy > 0.0 { Facing::N } else { Facing::S });
    }
    if ay > ax * HI && ax > ay * HI {
        return Some(match (dx > 0.0, dy > 0.0) {
            (true, true) => Facing::Ne,
            (false, true) => Facing::Nw,
            (false, false) => Facing::Sw,
            (true, false) => Facing::Se,
        });
    }
    let deg = dy.atan2(dx).to_degrees().rem_euclid(360.0);
    let k = ((deg / 45.0).round() as usize) % 8;
    Some(
        [
            Facing::E,
            Facing::Ne,
            Facing::N,
            Facing::Nw,
            Facing::W,
            Facing::Sw,
            Facing::S,
            Facing::Se,
        ][k],
    )
}

/// Whether `target`'s centre is inside the 135-degree arc of a figure at `from` facing `f`.
pub fn in_arc(from: Pt, f: Facing, target: Pt) -> bool {
    let (dx, dy) = (target.x - from.x, target.y - from.y);
    let d = (dx * dx + dy * dy).sqrt();
    if d < EPS {
        return true;
    }
    let (fx, fy) = facing_vec(f);
    (dx * fx + dy * fy) / d >= ARC_COS - 1e-12
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn segments_cross_rectangles_and_circles() {
        let r = Rect::new(2.0, -1.0, 1.0, 2.0);
        let (t0, t1) = seg_rect(Pt::new(0.0, 0.0), Pt::new(4.0, 0.0), &r).unwrap();
        assert!((t0 - 0.5).abs() < 1e-9 && (t1 - 0.75).abs() < 1e-9);
        assert!(seg_rect(Pt::new(0.0, 2.0), Pt::new(4.0, 2.0), &r).is_none());
        assert!(
            seg_circle(
                Pt::new(0.0, 0.0),
                Pt::new(4.0, 0.0),
                Pt::new(2.0, 0.5),
                0.68
            )
            .is_some()
        );
        assert!(
            seg_circle(
                Pt::new(0.0, 0.0),
                Pt::new(4.0, 0.0),
                Pt::new(2.0, 0.7),
                0.68
            )
            .is_none()
        );
    }

    #[test]
    fn a_facing_by_its_slope_is_the_nearest_by_the_angle() {
        // The angle's rule, as `facing_to` falls back on.
        let by_angle = |dx: f64, dy: f64| {
            let deg = dy.atan2(dx).to_degrees().rem_euclid(360.0);
            ((deg / 45.0).round() as usize) % 8
        };
        let order = [
            Facing::E,
            Facing::Ne,
            Facing::N,
            Facing::Nw,
            Facing::W,
            Facing::Sw,
            Facing::S,
            Facing::Se,
        ];
        let o = Pt::new(10.0, 10.0);
        // Every tenth of a degree, and a hair either side of each sector's edge.
        let mut degs: Vec<f64> = (0..3600).map(|k| f64::from(k) / 10.0).collect();
        for e in 0..8 {
            let edge = 22.5 + 45.0 * f64::from(e);
            degs.extend([edge - 1e-6, edge - 1e-12, edge, edge + 1e-12, edge + 1e-6]);
        }
        for deg in degs {
            for len in [0.01, 1.0, 7.3, 40.0] {
                let r = deg.to_radians();
                let b = Pt::new(o.x + len * r.cos(), o.y + len * r.sin());
                let (dx, dy) = (b.x - o.x, b.y - o.y);
                let want = order[by_angle(dx, dy)];
                assert_eq!(facing_to(o, b), Some(want), "{deg} degrees, {len} inches");
            }
        }
    }

    #[test]
    fn the_arc_is_135_degrees_about_the_facing() {
        let o = Pt::new(0.0, 0.0);
        assert!(in_arc(o, Facing::N, Pt::new(0.0, 5.0)));
        assert!(in_arc(o, Facing::N, Pt::new(2.0, 5.0)));
        // 60 degrees off the facing: inside; 70 degrees: outside.
        let at = |deg: f64| Pt::new(deg.to_radians().sin(), deg.to_radians().cos());
        assert!(in_arc(o, Facing::N, at(60.0)));
        assert!(!in_arc(o, Facing::N, at(70.0)));
        assert!(!in_arc(o, Facing::N, Pt::new(0.0, -5.0)));
        assert_eq!(facing_to(o, Pt::new(1.0, 1.0)), Some(Facing::Ne));
        assert_eq!(facing_to(o, Pt::new(-1.0, 0.1)), Some(Facing::W));
    }
}
