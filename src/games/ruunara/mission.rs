//! The Ruunara mission file (`*.mission.toml`, `spec/ruunara.md`, "Missions"): the table,
//! its scenery, where the squad deploys, the enemies and neutrals with their posts, the
//! objective and the round limit. Lengths are inches, the origin the table's south-west
//! corner, x east and y north.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::engine::MAX_FIGS;
use super::model::{Allegiance, Figure};
use crate::cards::{CardError, CardLookup, Game, Problem};
use crate::games::build::{self, Violation};

/// The table's size in inches (48 x 36 unless the mission says otherwise).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TableSize {
    pub width: f64,
    pub depth: f64,
}

impl Default for TableSize {
    fn default() -> TableSize {
        TableSize {
            width: 48.0,
            depth: 36.0,
        }
    }
}

/// What a scenery piece is: `building` blocks sight whatever its height, nobody ends a move
/// on it; a figure at a `cliff`'s edge cannot be seen from on top of it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SceneryKind {
    Wall,
    Rock,
    Building,
    Cliff,
}

/// An axis-aligned scenery piece: its south-west corner, width (x), depth (y) and height.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scenery {
    pub x: f64,
    pub y: f64,
    pub w: f64,
    pub d: f64,
    pub height: f64,
    pub kind: SceneryKind,
}

/// One of the 8 directions a figure faces, one per face of its octagonal base.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Facing {
    #[default]
    N,
    Ne,
    E,
    Se,
    S,
    Sw,
    W,
    Nw,
}

impl Facing {
    pub const ALL: [Facing; 8] = [
        Facing::N,
        Facing::Ne,
        Facing::E,
        Facing::Se,
        Facing::S,
        Facing::Sw,
        Facing::W,
        Facing::Nw,
    ];

    /// The facing's name as a mission writes it (`n`, `ne`, ...).
    pub fn as_str(self) -> &'static str {
        match self {
            Facing::N => "n",
            Facing::Ne => "ne",
            Facing::E => "e",
            Facing::Se => "se",
            Facing::S => "s",
            Facing::Sw => "sw",
            Facing::W => "w",
            Facing::Nw => "nw",
        }
    }

    /// The direction in degrees counter-clockwise from east (x), as geometry counts.
    pub fn degrees(self) -> f64 {
        match self {
            Facing::E => 0.0,
            Facing::Ne => 45.0,
            Facing::N => 90.0,
            Facing::Nw => 135.0,
            Facing::W => 180.0,
            Facing::Sw => 225.0,
            Facing::S => 270.0,
            Facing::Se => 315.0,
        }
    }
}

impl fmt::Display for Facing {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A rectangle on the table: a deployment zone or an exit.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Zone {
    pub x: f64,
    pub y: f64,
    pub w: f64,
    pub d: f64,
}

/// Where one squad member deploys: a point with a facing, or a zone where the policy places
/// it. Read strictly: a table with `facing` is a point, one with `w` and `d` a zone, and
/// any other key, or a mix, is an error.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Deploy {
    Point { x: f64, y: f64, facing: Facing },
    Zone { x: f64, y: f64, w: f64, d: f64 },
}

/// A `[[deploy]]` table as written, before it is told a point or a zone.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawDeploy {
    x: f64,
    y: f64,
    #[serde(default)]
    facing: Option<Facing>,
    #[serde(default)]
    w: Option<f64>,
    #[serde(default)]
    d: Option<f64>,
}

impl<'de> Deserialize<'de> for Deploy {
    fn deserialize<D: serde::Deserializer<'de>>(de: D) -> Result<Deploy, D::Error> {
        let r = RawDeploy::deserialize(de)?;
        match (r.facing, r.w, r.d) {
            (Some(facing), None, None) => Ok(Deploy::Point {
                x: r.x,
                y: r.y,
                facing,
            }),
            (None, Some(w), Some(d)) => Ok(Deploy::Zone {
                x: r.x,
                y: r.y,
                w,
                d,
            }),
            _ => Err(serde::de::Error::custom(
                "a deploy is a point `{x, y, facing}` or a zone `{x, y, w, d}`, not a mix of both",
            )),
        }
    }
}

/// An enemy at its post.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EnemyPlacement {
    /// A Ruunara card id (or exact name).
    pub card: String,
    pub x: f64,
    pub y: f64,
    pub facing: Facing,
}

/// A neutral figure: hostile neutrals act with the enemies; the others wait to be rescued.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NeutralPlacement {
    pub card: String,
    pub x: f64,
    pub y: f64,
    #[serde(default)]
    pub hostile: bool,
    #[serde(default)]
    pub facing: Facing,
}

/// The objective's name as a mission writes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ObjectiveKind {
    Eliminate,
    Rescue,
    Reach,
    Survive,
}

/// A mission file as written. `target` and `exit` belong to `rescue`, `exit` alone to
/// `reach`, `rounds` to `survive`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MissionFile {
    pub game: String,
    pub kind: String,
    pub id: String,
    pub name: String,
    #[serde(default)]
    pub table: TableSize,
    #[serde(default)]
    pub scenery: Vec<Scenery>,
    #[serde(default)]
    pub deploy: Vec<Deploy>,
    #[serde(default)]
    pub enemies: Vec<EnemyPlacement>,
    #[serde(default)]
    pub neutrals: Vec<NeutralPlacement>,
    pub objective: ObjectiveKind,
    /// `rescue`: the card of the neutral to rescue.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<String>,
    /// `rescue` and `reach`: the zone to reach.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exit: Option<Zone>,
    /// `survive`: the rounds to hold out.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rounds: Option<u32>,
    #[serde(default = "default_round_limit")]
    pub round_limit: u32,
}

fn default_round_limit() -> u32 {
    20
}

/// The objective with its parameters, as the engine checks it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Objective {
    /// Every enemy dead.
    Eliminate,
    /// A hero ends a turn in contact with the neutral at index `target` of
    /// [`Scenario::neutrals`], then that neutral reaches `exit`.
    Rescue { target: usize, exit: Zone },
    /// Every surviving hero in `exit`.
    Reach { exit: Zone },
    /// Hold out for `rounds` rounds.
    Survive { rounds: u32 },
}

/// A figure and where it starts.
#[derive(Debug, Clone, PartialEq)]
pub struct Placed {
    pub card: Figure,
    pub deploy: Deploy,
}

/// A neutral figure, where it starts and whether it fights with the enemies.
#[derive(Debug, Clone, PartialEq)]
pub struct PlacedNeutral {
    pub card: Figure,
    pub x: f64,
    pub y: f64,
    pub facing: Facing,
    pub hostile: bool,
}

/// A mission with every card looked up: what an engine starts from.
#[derive(Debug, Clone, PartialEq)]
pub struct Scenario {
    pub id: String,
    pub name: String,
    pub table: TableSize,
    pub scenery: Vec<Scenery>,
    /// The squad in squad order, each with its deployment.
    pub heroes: Vec<Placed>,
    /// The enemies in mission order, each deployed at its post (a `Deploy::Point`).
    pub enemies: Vec<Placed>,
    pub neutrals: Vec<PlacedNeutral>,
    pub objective: Objective,
    pub round_limit: u32,
}

/// A figure's base is treated as a circle of this radius, inches (34 mm across).
pub const BASE_RADIUS: f64 = 0.68;
/// The widest or deepest table a mission may have, inches.
pub const MAX_TABLE_INCHES: f64 = 240.0;
/// The longest round limit a mission may set.
pub const MAX_ROUND_LIMIT: u32 = 1000;
/// Two lengths closer than this are equal (positions are printed to 0.01").
const EPS: f64 = 1e-9;

fn finite_all(v: &[f64]) -> bool {
    v.iter().all(|x| x.is_finite())
}

/// Does a base of radius `r` centred at (x, y) overlap the rectangle (touching is not
/// overlapping)?
pub fn base_on_rect(x: f64, y: f64, r: f64, rx: f64, ry: f64, rw: f64, rd: f64) -> bool {
    let cx = x.clamp(rx, rx + rw);
    let cy = y.clamp(ry, ry + rd);
    let (dx, dy) = (x - cx, y - cy);
    dx * dx + dy * dy < r * r - EPS
}

/// Do two bases, each a centre and a radius, overlap (touching is not overlapping)?
pub fn bases_overlap(a: (f64, f64, f64), b: (f64, f64, f64)) -> bool {
    let (dx, dy) = (a.0 - b.0, a.1 - b.1);
    let reach = a.2 + b.2;
    dx * dx + dy * dy < reach * reach - EPS
}

/// How many bases of radius `r` a zone holds side by side on a square grid (what a policy
/// can always place).
pub fn zone_capacity(w: f64, d: f64, r: f64) -> usize {
    let (c, rows) = zone_grid(w, d, r);
    c * rows
}

/// The grid of spots a deployment zone offers to bases of radius `r`: bases side by side on
/// a square grid (as [`zone_capacity`] counts them), centred in the zone; its columns and
/// rows.
pub fn zone_grid(w: f64, d: f64, r: f64) -> (usize, usize) {
    let per = |l: f64| (l / (r + r) + EPS).floor().max(0.0) as usize;
    (per(w), per(d))
}

/// The centre of spot (`col`, `row`) of zone `z`'s grid for bases of radius `r`
/// ([`zone_grid`]).
pub fn zone_spot(z: Zone, col: usize, row: usize, r: f64) -> (f64, f64) {
    let (c, rows) = zone_grid(z.w, z.d, r);
    let step = r + r;
    let x0 = z.x + (z.w - c as f64 * step).max(0.0) / 2.0 + r;
    let y0 = z.y + (z.d - rows as f64 * step).max(0.0) / 2.0 + r;
    (x0 + col as f64 * step, y0 + row as f64 * step)
}

/// How many of zone `z`'s grid spots stay free for its own members whatever is placed
/// elsewhere: not on a building, not on a base placed at a point (`fixed`), and not
/// reaching into another deployment zone (`others`, whose members could stand there). A
/// member placed on a grid spot takes exactly one spot (grid bases only touch), so a zone
/// with this room for each of its members can always be filled, whatever the choices. The
/// grid is for bases of radius `r` (the largest of the zone's members); `fixed` holds each
/// base's centre and radius.
pub fn zone_room(
    z: Zone,
    r: f64,
    fixed: &[(f64, f64, f64)],
    buildings: &[Zone],
    others: &[Zone],
) -> usize {
    let (c, rows) = zone_grid(z.w, z.d, r);
    let mut n = 0;
    for row in 0..rows {
        for col in 0..c {
            let p = zone_spot(z, col, row, r);
            let blocked = buildings
                .iter()
                .chain(others)
                .any(|b| base_on_rect(p.0, p.1, r, b.x, b.y, b.w, b.d))
                || fixed.iter().any(|&q| bases_overlap((p.0, p.1, r), q));
            if !blocked {
                n += 1;
            }
        }
    }
    n
}

/// A figure placed at a point by the mission, for the checks: its key path and position.
struct Piece {
    path: Vec<String>,
    label: String,
    x: f64,
    y: f64,
}

impl MissionFile {
    /// Reads a mission file strictly (unknown keys, wrong types, values outside their sets)
    /// and checks what types cannot say (`game`, `kind`, `id`, positions on the table,
    /// overlapping bases, zone sizes, the objective's parameters, the round limit). Every
    /// error names `file`, the line, the column and the key.
    pub fn parse(text: &str, file: &str) -> Result<MissionFile, CardError> {
        let m: MissionFile = build::from_toml(text, file)?;
        build::expect_game(text, file, &m.game, Game::Ruunara, "a mission file")?;
        match m.problems().into_iter().next() {
            Some(p) => Err(CardError::at(file, text, &p.path_refs(), p.message.clone())),
            None => Ok(m),
        }
    }

    /// The file's TOML text.
    pub fn to_toml(&self) -> String {
        build::to_toml(self)
    }

    /// The zone a `rescue` or `reach` must reach, the rounds a `survive` must hold.
    fn objective_problems(&self, out: &mut Vec<Problem>) {
        let name = crate::games::word(&self.objective);
        let (wants_target, wants_exit, wants_rounds) = match self.objective {
            ObjectiveKind::Eliminate => (false, false, false),
            ObjectiveKind::Rescue => (true, true, false),
            ObjectiveKind::Reach => (false, true, false),
            ObjectiveKind::Survive => (false, false, true),
        };
        for (key, wanted, given, what) in [
            (
                "target",
                wants_target,
                self.target.is_some(),
                "the card of the neutral to rescue",
            ),
            (
                "exit",
                wants_exit,
                self.exit.is_some(),
                "a zone `{x, y, w, d}`",
            ),
            (
                "rounds",
                wants_rounds,
                self.rounds.is_some(),
                "the rounds to hold out",
            ),
        ] {
            if wanted && !given {
                out.push(Problem::at(
                    &["objective"],
                    format!("objective `{name}` needs `{key}` ({what})"),
                ));
            } else if given && !wanted {
                out.push(Problem::at(
                    &[key],
                    format!(
                        "objective `{name}` takes no `{key}` (`target` belongs to rescue, `exit` to rescue and reach, `rounds` to survive)"
                    ),
                ));
            }
        }
        if wants_target && let Some(t) = &self.target {
            let matching: Vec<&NeutralPlacement> =
                self.neutrals.iter().filter(|n| &n.card == t).collect();
            match matching.as_slice() {
                [] => out.push(Problem::at(
                    &["target"],
                    format!(
                        "target `{t}` is none of the mission's neutrals; write it as a `[[neutrals]]` card is written"
                    ),
                )),
                [n] if n.hostile => out.push(Problem::at(
                    &["target"],
                    format!("target `{t}` is a hostile neutral; only a peaceful neutral can be rescued"),
                )),
                [_] => {}
                _ => out.push(Problem::at(
                    &["target"],
                    format!("target `{t}` names {} neutrals; a rescue has one target", matching.len()),
                )),
            }
        }
        if wants_rounds
            && let Some(r) = self.rounds
            && (r == 0 || r > self.round_limit)
        {
            out.push(Problem::at(
                &["rounds"],
                format!(
                    "rounds is {r}; a survive objective holds out from 1 to round_limit ({}) rounds",
                    self.round_limit
                ),
            ));
        }
    }

    /// The checks types cannot express, each with its key path (`deploy[1]`, `x`).
    pub fn problems(&self) -> Vec<Problem> {
        let mut out = Vec::new();
        if self.kind != "mission" {
            out.push(Problem::at(
                &["kind"],
                format!(
                    "a mission file has kind = \"mission\", found `{}`",
                    self.kind
                ),
            ));
        }
        if !crate::cards::valid_id(&self.id) {
            out.push(Problem::at(
                &["id"],
                format!(
                    "id `{}` may hold only a-z, 0-9 and -, 1 to {} characters",
                    crate::safe_io::excerpt(&self.id, 40),
                    crate::cards::MAX_ID_LEN
                ),
            ));
        }
        let TableSize { width, depth } = self.table;
        for (k, v) in [("width", width), ("depth", depth)] {
            if !(4.0 * BASE_RADIUS..=MAX_TABLE_INCHES).contains(&v) {
                out.push(Problem::at(
                    &["table", k],
                    format!(
                        "table.{k} is {v}; a table is from {} to {MAX_TABLE_INCHES} inches",
                        4.0 * BASE_RADIUS
                    ),
                ));
                return out;
            }
        }
        for (list, n) in [
            ("scenery", self.scenery.len()),
            ("deploy", self.deploy.len()),
            ("enemies", self.enemies.len()),
            ("neutrals", self.neutrals.len()),
        ] {
            if n > crate::cards::MAX_LIST_LEN {
                out.push(Problem::at(
                    &[list],
                    format!(
                        "`{list}` lists {n} entries; at most {}",
                        crate::cards::MAX_LIST_LEN
                    ),
                ));
                return out;
            }
        }
        let fixed = self.enemies.len() + self.neutrals.len();
        if fixed >= MAX_FIGS {
            out.push(Problem::at(
                &[if self.enemies.len() >= self.neutrals.len() {
                    "enemies"
                } else {
                    "neutrals"
                }],
                format!(
                    "the mission has {} and {}: {fixed} figures, and a match holds at most {MAX_FIGS} \
                     with the squad, so a mission brings at most {} enemies and neutrals together",
                    crate::count(self.enemies.len() as u64, "enemy", "enemies"),
                    crate::count(self.neutrals.len() as u64, "neutral", "neutrals"),
                    MAX_FIGS - 1
                ),
            ));
            return out;
        }
        if self.round_limit == 0 || self.round_limit > MAX_ROUND_LIMIT {
            out.push(Problem::at(
                &["round_limit"],
                format!(
                    "round_limit is {}; it is from 1 to {MAX_ROUND_LIMIT}",
                    self.round_limit
                ),
            ));
        }
        let on_table = |x: f64, y: f64, w: f64, d: f64| {
            x >= -EPS && y >= -EPS && x + w <= width + EPS && y + d <= depth + EPS
        };
        let rect = |out: &mut Vec<Problem>, path: &[&str], what: &str, r: [f64; 4], min: f64| {
            let [x, y, w, d] = r;
            let shown = path.join(".");
            if !finite_all(&r) {
                out.push(Problem::at(
                    path,
                    format!("{shown}: {what} has a position or size that is not a number"),
                ));
            } else if w < min - EPS || d < min - EPS || w <= 0.0 || d <= 0.0 {
                out.push(Problem::at(
                    &[path, &["w"]].concat(),
                    format!(
                        "{shown}: {what} is {w} x {d} inches; each side is at least {}",
                        if min > 0.0 {
                            format!("{min} (one base)")
                        } else {
                            "more than 0".to_string()
                        }
                    ),
                ));
            } else if !on_table(x, y, w, d) {
                out.push(Problem::at(
                    &[path, &["x"]].concat(),
                    format!(
                        "{shown}: {what} from ({x}, {y}) to ({}, {}) lies outside the {width} x {depth} table",
                        x + w,
                        y + d
                    ),
                ));
            }
        };
        for (i, p) in self.scenery.iter().enumerate() {
            let seg = format!("scenery[{i}]");
            rect(&mut out, &[&seg], "the piece", [p.x, p.y, p.w, p.d], 0.0);
            if !(p.height.is_finite() && p.height >= 0.0 && p.height <= MAX_TABLE_INCHES) {
                out.push(Problem::at(
                    &[&seg, "height"],
                    format!(
                        "{seg}.height is {}; a height is from 0 to {MAX_TABLE_INCHES} inches",
                        p.height
                    ),
                ));
            }
        }
        if let Some(z) = &self.exit {
            rect(
                &mut out,
                &["exit"],
                "the exit",
                [z.x, z.y, z.w, z.d],
                2.0 * BASE_RADIUS,
            );
        }
        // Every figure placed at a point: on the table, off buildings, not on another base.
        let mut pieces: Vec<Piece> = Vec::new();
        for (i, d) in self.deploy.iter().enumerate() {
            let seg = format!("deploy[{i}]");
            match *d {
                Deploy::Point { x, y, .. } => pieces.push(Piece {
                    path: vec![seg, "x".into()],
                    label: format!("deploy {}", i + 1),
                    x,
                    y,
                }),
                Deploy::Zone { x, y, w, d } => rect(
                    &mut out,
                    &[&seg],
                    "the deployment zone",
                    [x, y, w, d],
                    2.0 * BASE_RADIUS,
                ),
            }
        }
        for (i, e) in self.enemies.iter().enumerate() {
            pieces.push(Piece {
                path: vec![format!("enemies[{i}]"), "x".into()],
                label: format!("enemy {} ({})", i + 1, e.card),
                x: e.x,
                y: e.y,
            });
        }
        for (i, n) in self.neutrals.iter().enumerate() {
            pieces.push(Piece {
                path: vec![format!("neutrals[{i}]"), "x".into()],
                label: format!("neutral {} ({})", i + 1, n.card),
                x: n.x,
                y: n.y,
            });
        }
        for (i, p) in pieces.iter().enumerate() {
            let shown = p.path[0].clone();
            let at = || p.path.iter().map(String::as_str).collect::<Vec<_>>();
            if !finite_all(&[p.x, p.y]) {
                out.push(Problem::at(
                    &at(),
                    format!("{shown}: the position of {} is not a number", p.label),
                ));
                continue;
            }
            let r = BASE_RADIUS;
            if p.x - r < -EPS || p.y - r < -EPS || p.x + r > width + EPS || p.y + r > depth + EPS {
                out.push(Problem::at(
                    &at(),
                    format!(
                        "{shown}: the base of {} at ({}, {}) reaches past the {width} x {depth} table (a base's radius is {r}\")",
                        p.label, p.x, p.y
                    ),
                ));
                continue;
            }
            if let Some((j, _)) = self.scenery.iter().enumerate().find(|(_, s)| {
                s.kind == SceneryKind::Building
                    && base_on_rect(p.x, p.y, BASE_RADIUS, s.x, s.y, s.w, s.d)
            }) {
                out.push(Problem::at(
                    &at(),
                    format!(
                        "{shown}: the base of {} at ({}, {}) stands on the building scenery[{j}]; no base may stand on a building",
                        p.label, p.x, p.y
                    ),
                ));
            }
            if let Some(q) = pieces[..i].iter().find(|q| {
                finite_all(&[q.x, q.y])
                    && bases_overlap((p.x, p.y, BASE_RADIUS), (q.x, q.y, BASE_RADIUS))
            }) {
                out.push(Problem::at(
                    &at(),
                    format!(
                        "{shown}: the base of {} at ({}, {}) overlaps the base of {} at ({}, {}); bases are {}\" across",
                        p.label,
                        p.x,
                        p.y,
                        q.label,
                        q.x,
                        q.y,
                        2.0 * BASE_RADIUS
                    ),
                ));
            }
        }
        self.objective_problems(&mut out);
        out
    }
}

const SRC_MISSION: &str =
    "deckwright spec (spec/ruunara.md), \"Missions\": deploy, enemies and neutrals of a mission";

impl MissionFile {
    /// `mission-zone-capacity`: every deployment zone has room ([`zone_room`]) for the
    /// members it deploys, clear of buildings, of the bases placed at points and of the
    /// other zones, so any sequence of placements fills it.
    fn zone_room_violations(
        &self,
        deploys: &[Deploy],
        squad: &[Figure],
        cards: (&[Option<Figure>], &[Option<Figure>]),
        violations: &mut Vec<Violation>,
    ) {
        // Each base by its card (the default where a card is unknown); a zone's grid is for
        // the largest base among its members.
        let radius = |f: Option<&Figure>| f.map_or(BASE_RADIUS, Figure::base_radius);
        let mut zones: Vec<(Zone, usize, f64)> = Vec::new();
        let mut fixed: Vec<(f64, f64, f64)> = Vec::new();
        for (m, d) in deploys.iter().enumerate() {
            let r = radius(squad.get(m));
            match *d {
                Deploy::Point { x, y, .. } => fixed.push((x, y, r)),
                Deploy::Zone { x, y, w, d } => {
                    let z = Zone { x, y, w, d };
                    match zones.iter_mut().find(|(q, _, _)| *q == z) {
                        Some((_, k, big)) => {
                            *k += 1;
                            *big = big.max(r);
                        }
                        None => zones.push((z, 1, r)),
                    }
                }
            }
        }
        let (enemies, neutrals) = cards;
        fixed.extend(
            self.enemies
                .iter()
                .enumerate()
                .map(|(i, e)| (e.x, e.y, radius(enemies.get(i).and_then(Option::as_ref)))),
        );
        fixed.extend(
            self.neutrals
                .iter()
                .enumerate()
                .map(|(i, n)| (n.x, n.y, radius(neutrals.get(i).and_then(Option::as_ref)))),
        );
        let buildings: Vec<Zone> = self
            .scenery
            .iter()
            .filter(|s| s.kind == SceneryKind::Building)
            .map(|s| Zone {
                x: s.x,
                y: s.y,
                w: s.w,
                d: s.d,
            })
            .collect();
        for (k, &(z, members, r)) in zones.iter().enumerate() {
            let others: Vec<Zone> = zones
                .iter()
                .enumerate()
                .filter(|(j, _)| *j != k)
                .map(|(_, (q, _, _))| *q)
                .collect();
            let room = zone_room(z, r, &fixed, &buildings, &others);
            if room < members {
                violations.push(Violation::new(
                    "mission-zone-capacity",
                    format!(
                        "the deployment zone at ({}, {}) of {} x {} inches holds {room} base{} side by side clear of buildings, figures and other zones; it deploys {members} member{}",
                        z.x,
                        z.y,
                        z.w,
                        z.d,
                        if room == 1 { "" } else { "s" },
                        if members == 1 { "" } else { "s" },
                    ),
                    squad.iter().map(|f| f.id.clone()).collect(),
                    SRC_MISSION,
                ));
            }
        }
    }
}

/// The rule ids a mission checked against a squad reports, in order.
pub const MISSION_RULES: [&str; 7] = [
    "unknown-card",
    "mission-enemy-faction",
    "mission-neutral-faction",
    "mission-deploy",
    "mission-zone-capacity",
    "mission-figures",
    "mission-objective",
];

fn figure_of(lookup: &dyn CardLookup, entry: &str) -> Result<Figure, String> {
    super::rules::resolve_member(lookup, entry)
}

impl MissionFile {
    /// The mission with every card looked up (by id, else exact name) and the squad
    /// deployed: one `[[deploy]]` per member in squad order, or a single zone they all share.
    /// Every broken rule is reported (enemies must be enemy cards, neutrals neutral ones,
    /// the deploys must fit the squad).
    pub fn resolve(
        &self,
        squad: &[Figure],
        lookup: &dyn CardLookup,
    ) -> Result<Scenario, Vec<Violation>> {
        self.resolve_with(Some(squad), lookup)
    }

    /// The rules a mission breaks: its cards alone (`squad` = `None`), or its cards and
    /// its deployment of `squad`.
    pub fn check(&self, squad: Option<&[Figure]>, lookup: &dyn CardLookup) -> Vec<Violation> {
        self.resolve_with(squad, lookup).err().unwrap_or_default()
    }

    fn resolve_with(
        &self,
        squad_given: Option<&[Figure]>,
        lookup: &dyn CardLookup,
    ) -> Result<Scenario, Vec<Violation>> {
        let squad = squad_given.unwrap_or(&[]);
        let mut violations = Vec::new();
        let mut look = |entry: &str, want: Allegiance, what: &str| -> Option<Figure> {
            match figure_of(lookup, entry) {
                Ok(f) if f.faction == want => Some(f),
                Ok(f) => {
                    let (rule, side) = match want {
                        Allegiance::Enemy => ("mission-enemy-faction", "an enemy"),
                        _ => ("mission-neutral-faction", "a neutral"),
                    };
                    violations.push(Violation::new(
                        rule,
                        format!(
                            "{what} `{entry}` is {} ({}), {} card; it must be {side} card",
                            f.name,
                            f.id,
                            match f.faction {
                                Allegiance::Ally => "an ally",
                                Allegiance::Enemy => "an enemy",
                                Allegiance::Neutral => "a neutral",
                            }
                        ),
                        vec![f.id.clone()],
                        SRC_MISSION,
                    ));
                    None
                }
                Err(message) => {
                    violations.push(Violation::new(
                        "unknown-card",
                        format!("{what}: {message}"),
                        vec![entry.to_string()],
                        build::SOURCE_LISTS,
                    ));
                    None
                }
            }
        };
        let enemies: Vec<Option<Figure>> = self
            .enemies
            .iter()
            .enumerate()
            .map(|(i, e)| look(&e.card, Allegiance::Enemy, &format!("enemy {}", i + 1)))
            .collect();
        let neutrals: Vec<Option<Figure>> = self
            .neutrals
            .iter()
            .enumerate()
            .map(|(i, n)| look(&n.card, Allegiance::Neutral, &format!("neutral {}", i + 1)))
            .collect();

        let shared_zone = matches!(self.deploy.as_slice(), [Deploy::Zone { .. }]);
        let deploys: Vec<Deploy> = if shared_zone {
            vec![self.deploy[0]; squad.len()]
        } else {
            self.deploy.clone()
        };
        if squad_given.is_none() {
            // The cards alone: no squad to deploy.
        } else if squad.is_empty() {
            violations.push(Violation::new(
                "mission-deploy",
                "the squad has no member to deploy".to_string(),
                Vec::new(),
                SRC_MISSION,
            ));
        } else if deploys.len() != squad.len() {
            violations.push(Violation::new(
                "mission-deploy",
                format!(
                    "the mission deploys {} figure{} and the squad has {} member{}; give one [[deploy]] per member in squad order, or a single zone",
                    self.deploy.len(),
                    if self.deploy.len() == 1 { "" } else { "s" },
                    squad.len(),
                    if squad.len() == 1 { "" } else { "s" },
                ),
                squad.iter().map(|f| f.id.clone()).collect(),
                SRC_MISSION,
            ));
        } else {
            self.zone_room_violations(&deploys, squad, (&enemies, &neutrals), &mut violations);
        }
        let total = squad.len() + self.enemies.len() + self.neutrals.len();
        if squad_given.is_some() && total > MAX_FIGS {
            violations.push(Violation::new(
                "mission-figures",
                format!(
                    "the squad's {} with the mission's {} and {} make {total} figures; a match holds at most {MAX_FIGS}",
                    crate::count(squad.len() as u64, "member", "members"),
                    crate::count(self.enemies.len() as u64, "enemy", "enemies"),
                    crate::count(self.neutrals.len() as u64, "neutral", "neutrals"),
                ),
                squad.iter().map(|f| f.id.clone()).collect(),
                SRC_MISSION,
            ));
        }
        let objective = match self.objective {
            ObjectiveKind::Eliminate => Some(Objective::Eliminate),
            ObjectiveKind::Rescue => self
                .neutrals
                .iter()
                .position(|n| Some(&n.card) == self.target.as_ref())
                .zip(self.exit)
                .map(|(target, exit)| Objective::Rescue { target, exit }),
            ObjectiveKind::Reach => self.exit.map(|exit| Objective::Reach { exit }),
            ObjectiveKind::Survive => self.rounds.map(|rounds| Objective::Survive { rounds }),
        };
        let Some(objective) = objective else {
            violations.push(Violation::new(
                "mission-objective",
                format!(
                    "objective `{}` lacks its parameters (see docs/cards.md, \"Missions\")",
                    crate::games::word(&self.objective)
                ),
                Vec::new(),
                SRC_MISSION,
            ));
            return Err(violations);
        };
        if !violations.is_empty() {
            return Err(violations);
        }
        let heroes = squad
            .iter()
            .zip(deploys)
            .map(|(f, deploy)| Placed {
                // Each member plays with its race's skills beside its own.
                card: super::races::with_racial_skills(f.clone()),
                deploy,
            })
            .collect();
        let enemies = self
            .enemies
            .iter()
            .zip(enemies.into_iter().flatten())
            .map(|(e, card)| Placed {
                card,
                deploy: Deploy::Point {
                    x: e.x,
                    y: e.y,
                    facing: e.facing,
                },
            })
            .collect();
        let neutrals: Vec<PlacedNeutral> = self
            .neutrals
            .iter()
            .zip(neutrals.into_iter().flatten())
            .map(|(n, card)| PlacedNeutral {
                card,
                x: n.x,
                y: n.y,
                facing: n.facing,
                hostile: n.hostile,
            })
            .collect();
        Ok(Scenario {
            id: self.id.clone(),
            name: self.name.clone(),
            table: self.table,
            scenery: self.scenery.clone(),
            heroes,
            enemies,
            neutrals,
            objective,
            round_limit: self.round_limit,
        })
    }
}
