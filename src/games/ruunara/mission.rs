//! The Ruunara mission file (`*.mission.toml`, `spec/ruunara.md`, "Missions"): the table,
//! its scenery, where the squad deploys, the enemies and neutrals with their posts, the
//! objective and the round limit. Lengths are inches, the origin the table's south-west
//! corner, x east and y north.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::model::Figure;

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
/// it.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Deploy {
    Point { x: f64, y: f64, facing: Facing },
    Zone { x: f64, y: f64, w: f64, d: f64 },
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
