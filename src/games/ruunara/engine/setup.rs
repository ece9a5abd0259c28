//! What a match starts from, built once from a [`Scenario`]: each figure's card values and
//! skills as the engine applies them, the scenery as rectangles, the objective. Figures are
//! numbered heroes first (squad order), then enemies and neutrals (mission order).

use thiserror::Error;

use super::geom::{BASE_R, Base, Pt, Rect, facing_to};
use crate::games::ruunara::mission::{
    Deploy, Facing, Objective, Scenario, SceneryKind, Zone, base_on_rect, zone_grid, zone_room,
    zone_spot,
};
use crate::games::ruunara::model::{Cycle, Dice, Figure, SkillEffect};

/// The most figures a match holds.
pub const MAX_FIGS: usize = 24;
/// The most applied skills a figure has (a card's own and its race's two).
pub const MAX_SKILLS: usize = 6;
/// The most dice one roll throws.
pub const MAX_DICE: usize = 12;

/// Which side a figure plays.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Side {
    /// A squad member: the seat decides for it.
    Hero,
    /// An enemy, run by the rules.
    Enemy,
    /// A neutral: `hostile` ones act with the enemies; the others wait to be rescued.
    Neutral { hostile: bool },
}

/// Who plays a mission (`play ruunara --mode`, the record's `mode`; spec/ruunara.md, "Added
/// in the third round"; docs/rulings.md, "Ruunara: duo and contest").
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    Default,
    clap::ValueEnum,
    serde::Serialize,
    serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum PlayMode {
    /// One player commands the squad (seat 0); the rules run the enemies (seat 1 only wins).
    #[default]
    Solo,
    /// Two players share the heroes (seats 0 and 1, each commanding every other member in
    /// squad order) and alternate activations in the heroes' turn; the rules run the enemies
    /// (seat 2 only wins).
    Duo,
    /// A two-player contest: the squad (seat 0) against a player commanding the enemies and
    /// hostile neutrals (seat 1), the two sides alternating activations within a round.
    Contest,
}

impl PlayMode {
    /// Every mode, in the order a face lists them.
    pub const ALL: [PlayMode; 3] = [PlayMode::Solo, PlayMode::Duo, PlayMode::Contest];

    /// Its name on the command line and in a record.
    pub fn as_str(self) -> &'static str {
        match self {
            PlayMode::Solo => "solo",
            PlayMode::Duo => "duo",
            PlayMode::Contest => "contest",
        }
    }

    /// The mode named `name` ([`PlayMode::as_str`]).
    pub fn parse(name: &str) -> Option<PlayMode> {
        PlayMode::ALL.into_iter().find(|m| m.as_str() == name)
    }

    /// How many seats a match of it has (the mission's seat included where the rules run
    /// the enemies).
    pub fn seats(self) -> usize {
        match self {
            PlayMode::Solo | PlayMode::Contest => 2,
            PlayMode::Duo => 3,
        }
    }

    /// How many people decide in it (the seats a face offers).
    pub fn players(self) -> usize {
        match self {
            PlayMode::Solo => 1,
            PlayMode::Duo | PlayMode::Contest => 2,
        }
    }
}

impl std::fmt::Display for PlayMode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A skill the engine applies: its effect and cycle.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SkillDef {
    pub effect: SkillEffect,
    pub cycle: Cycle,
    /// Its index among the card's skills (for its name).
    pub index: u8,
}

/// A figure's card as the engine reads it.
#[derive(Debug, Clone, PartialEq)]
pub struct Stat {
    pub name: String,
    pub id: String,
    /// Its card's race (a `hit_bonus` of `target = "kin"` reaches those of its race).
    pub race: String,
    pub side: Side,
    pub hp: i16,
    pub movement: f64,
    pub vision: f64,
    pub close: Dice,
    pub ranged: Option<Dice>,
    pub range: f64,
    pub skills: [Option<SkillDef>; MAX_SKILLS],
    /// Skill names by card index (text-only skills included).
    pub skill_names: Vec<String>,
    /// Where it starts (an enemy's post) and how it faces; a member deployed in a zone
    /// starts at the zone's centre until the seat places it (`zone`).
    pub start: Pt,
    pub facing: Facing,
    /// The deployment zone (an index into [`Setup::zones`]) the seat places it in.
    pub zone: Option<u8>,
    /// Its base's radius, inches ([`Figure::base_radius`]).
    pub r: f64,
}

impl Stat {
    /// An enemy or a hostile neutral: the rules run it, in the enemies' turn.
    pub fn run_by_rules(&self) -> bool {
        matches!(self.side, Side::Enemy | Side::Neutral { hostile: true })
    }

    /// The applied skills with their slots.
    pub fn skills(&self) -> impl Iterator<Item = (usize, SkillDef)> + '_ {
        self.skills
            .iter()
            .enumerate()
            .filter_map(|(i, s)| s.map(|s| (i, s)))
    }

    /// The name of skill slot `slot`.
    pub fn skill_name(&self, slot: usize) -> &str {
        self.skills[slot]
            .and_then(|s| self.skill_names.get(usize::from(s.index)))
            .map_or("?", |s| s.as_str())
    }
}

/// A scenery piece as a rectangle.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Piece {
    pub rect: Rect,
    pub height: f64,
    pub kind: SceneryKind,
}

/// A match's fixed part.
#[derive(Debug, Clone, PartialEq)]
pub struct Setup {
    pub id: String,
    pub name: String,
    pub width: f64,
    pub depth: f64,
    pub pieces: Vec<Piece>,
    pub figs: Vec<Stat>,
    pub heroes: usize,
    pub objective: Objective,
    pub round_limit: u32,
    /// The squad's deployment zones, each once: the members deployed in one are placed by
    /// the seat, in squad order, before round 1.
    pub zones: Vec<Zone>,
    /// Who plays ([`Setup::with_mode`]; solo unless set).
    pub mode: PlayMode,
    /// Figures with a skill that reaches others or holds ground (`hit_bonus`, `vision`,
    /// `keep_away`), bit per figure: the engine looks at these only.
    pub auras: u32,
}

/// A scenario the engine cannot start from.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SetupError {
    #[error("a match holds at most {MAX_FIGS} figures; this one has {0}")]
    TooManyFigures(usize),
    #[error("the squad has no member")]
    NoHero,
    #[error("{0} is deployed off the table")]
    OffTable(String),
    #[error("{0} and {1} are deployed on top of each other")]
    Overlap(String, String),
    #[error("a deployment zone has no room left for {0}")]
    NoRoom(String),
    #[error("the rescue target is not one of the mission's neutrals")]
    NoTarget,
    /// A duel of more figures than fit in base contact around A.
    #[error("at most {0} figures fit in base contact around one; the duel puts {1} around A")]
    NoRoomAround(usize, usize),
    /// Duo play with a squad of one: the second player would command no one.
    #[error("duo play shares the heroes between two players: the squad needs at least two members")]
    DuoOfOne,
}

/// The figures with an aura skill, bit per figure.
fn auras(figs: &[Stat]) -> u32 {
    let mut mask = 0u32;
    for (i, f) in figs.iter().enumerate().take(MAX_FIGS) {
        if f.skills().any(|(_, d)| {
            matches!(
                d.effect,
                SkillEffect::HitBonus { .. }
                    | SkillEffect::Vision { .. }
                    | SkillEffect::KeepAway { .. }
            )
        }) {
            mask |= 1 << i;
        }
    }
    mask
}

fn stat(card: &Figure, side: Side, start: Pt, facing: Facing) -> Stat {
    let mut skills = [None; MAX_SKILLS];
    let mut k = 0;
    for (i, s) in card.skills.iter().enumerate() {
        if k == MAX_SKILLS {
            break;
        }
        if let (Some(effect), Some(cycle)) = (s.resolved_effect(), s.cycle()) {
            skills[k] = Some(SkillDef {
                effect,
                cycle,
                index: i as u8,
            });
            k += 1;
        }
    }
    Stat {
        name: card.name.clone(),
        id: card.id.clone(),
        race: card.race.clone(),
        side,
        hp: card.hp.min(99) as i16,
        movement: f64::from(card.movement),
        vision: f64::from(card.vision),
        close: cap(card.close),
        ranged: card.ranged.map(cap),
        range: f64::from(card.ranged_range.unwrap_or(0)),
        skills,
        skill_names: card.skills.iter().map(|s| s.name.clone()).collect(),
        start,
        facing,
        zone: None,
        r: card.base_radius(),
    }
}

fn cap(d: Dice) -> Dice {
    Dice {
        count: d.count.min(MAX_DICE as u32),
        min: d.min,
    }
}

impl Setup {
    /// The match of `sc`. Squad members deployed in a zone are placed by the seat when the
    /// match starts ([`super::state::Phase::Deploy`]); each zone must have room for its
    /// members whatever is chosen ([`zone_room`]). An enemy given a zone (only a scenario
    /// built in code can) stands on its zone's first free spot, facing the table's centre.
    pub fn new(sc: &Scenario) -> Result<Setup, SetupError> {
        let total = sc.heroes.len() + sc.enemies.len() + sc.neutrals.len();
        if total > MAX_FIGS {
            return Err(SetupError::TooManyFigures(total));
        }
        if sc.heroes.is_empty() {
            return Err(SetupError::NoHero);
        }
        let (w, d) = (sc.table.width, sc.table.depth);
        let centre = Pt::new(w / 2.0, d / 2.0);
        let mut figs: Vec<Stat> = Vec::with_capacity(total);
        let mut fixed: Vec<(f64, f64, f64)> = sc
            .heroes
            .iter()
            .chain(&sc.enemies)
            .filter_map(|p| match p.deploy {
                Deploy::Point { x, y, .. } => Some((x, y, p.card.base_radius())),
                Deploy::Zone { .. } => None,
            })
            .chain(sc.neutrals.iter().map(|n| (n.x, n.y, n.card.base_radius())))
            .collect();
        let buildings: Vec<Zone> = sc
            .scenery
            .iter()
            .filter(|p| p.kind == SceneryKind::Building)
            .map(|p| Zone {
                x: p.x,
                y: p.y,
                w: p.w,
                d: p.d,
            })
            .collect();
        let mut zones: Vec<Zone> = Vec::new();
        for p in &sc.heroes {
            let (at, facing, zone) = match p.deploy {
                Deploy::Point { x, y, facing } => (Pt::new(x, y), facing, None),
                Deploy::Zone { x, y, w: zw, d: zd } => {
                    let z = Zone { x, y, w: zw, d: zd };
                    if !(x >= -1e-9 && y >= -1e-9 && x + zw <= w + 1e-9 && y + zd <= d + 1e-9) {
                        return Err(SetupError::OffTable(p.card.name.clone()));
                    }
                    let k = zones.iter().position(|q| *q == z).unwrap_or_else(|| {
                        zones.push(z);
                        zones.len() - 1
                    });
                    let c = Pt::new(x + zw / 2.0, y + zd / 2.0);
                    (c, Facing::N, Some(k as u8))
                }
            };
            let mut st = stat(&p.card, Side::Hero, at, facing);
            st.zone = zone;
            figs.push(st);
        }
        for p in &sc.enemies {
            let (at, facing) = match p.deploy {
                Deploy::Point { x, y, facing } => (Pt::new(x, y), facing),
                Deploy::Zone { x, y, w: zw, d: zd } => {
                    let z = Zone { x, y, w: zw, d: zd };
                    let r = p.card.base_radius();
                    let at = first_free(z, r, &fixed, &buildings)
                        .ok_or_else(|| SetupError::NoRoom(p.card.name.clone()))?;
                    fixed.push((at.x, at.y, r));
                    (at, facing_to(at, centre).unwrap_or(Facing::N))
                }
            };
            figs.push(stat(&p.card, Side::Enemy, at, facing));
        }
        for (k, z) in zones.iter().enumerate() {
            let others: Vec<Zone> = zones
                .iter()
                .enumerate()
                .filter(|(j, _)| *j != k)
                .map(|(_, q)| *q)
                .collect();
            let room = zone_room(*z, zone_radius(&figs, k), &fixed, &buildings, &others);
            let members = figs.iter().filter(|f| f.zone == Some(k as u8));
            if let Some(f) = members.clone().nth(room) {
                return Err(SetupError::NoRoom(f.name.clone()));
            }
        }
        for n in &sc.neutrals {
            figs.push(stat(
                &n.card,
                Side::Neutral { hostile: n.hostile },
                Pt::new(n.x, n.y),
                n.facing,
            ));
        }
        for f in figs.iter().filter(|f| f.zone.is_none()) {
            let (p, r) = (f.start, f.r);
            if p.x < r - 1e-9 || p.y < r - 1e-9 || p.x > w - r + 1e-9 || p.y > d - r + 1e-9 {
                return Err(SetupError::OffTable(f.name.clone()));
            }
        }
        for i in 0..figs.len() {
            for j in i + 1..figs.len() {
                if figs[i].zone.is_none()
                    && figs[j].zone.is_none()
                    && Base::new(figs[i].start, figs[i].r)
                        .overlaps(Base::new(figs[j].start, figs[j].r))
                {
                    return Err(SetupError::Overlap(
                        figs[i].name.clone(),
                        figs[j].name.clone(),
                    ));
                }
            }
        }
        if let Objective::Rescue { target, .. } = sc.objective
            && target >= sc.neutrals.len()
        {
            return Err(SetupError::NoTarget);
        }
        let auras = auras(&figs);
        Ok(Setup {
            auras,
            id: sc.id.clone(),
            name: sc.name.clone(),
            width: w,
            depth: d,
            pieces: sc
                .scenery
                .iter()
                .map(|s| Piece {
                    rect: Rect::new(s.x, s.y, s.w, s.d),
                    height: s.height,
                    kind: s.kind,
                })
                .collect(),
            figs,
            heroes: sc.heroes.len(),
            objective: sc.objective,
            round_limit: sc.round_limit.max(1),
            zones,
            mode: PlayMode::Solo,
        })
    }

    /// The same match played in `mode`; duo play needs a squad of two or more.
    pub fn with_mode(mut self, mode: PlayMode) -> Result<Setup, SetupError> {
        if mode == PlayMode::Duo && self.heroes < 2 {
            return Err(SetupError::DuoOfOne);
        }
        self.mode = mode;
        Ok(self)
    }

    /// The seat that commands figure `i` while it is of `team` (0 the squad and a rescued
    /// neutral, 1 the enemies and hostile neutrals): squad member `i` in duo play is seat
    /// `i % 2` (a rescued neutral seat 0's); the enemies are seat 1's in a contest. `None`:
    /// the rules run it (or it waits to be rescued).
    pub fn seat_of(&self, i: usize, team: u8) -> Option<usize> {
        match (team, self.mode) {
            (0, PlayMode::Duo) if i < self.heroes => Some(i % 2),
            (0, _) => Some(0),
            (1, PlayMode::Contest) => Some(1),
            _ => None,
        }
    }

    /// Whether `seat` plays for the heroes (wins with them).
    pub fn heroes_seat(&self, seat: usize) -> bool {
        seat == 0 || (seat == 1 && self.mode == PlayMode::Duo)
    }

    /// The figure index of the rescue target, if the objective has one.
    pub fn rescue_target(&self) -> Option<usize> {
        match self.objective {
            Objective::Rescue { target, .. } => Some(self.heroes + self.enemies_count() + target),
            _ => None,
        }
    }

    /// How many enemies (not neutrals) the mission has.
    pub fn enemies_count(&self) -> usize {
        self.figs.iter().filter(|f| f.side == Side::Enemy).count()
    }
}

/// The radius of the bases the grid of deployment zone `k` is laid out for: the largest of
/// its members' (`docs/rulings.md`, "Ruunara: bases of other sizes").
pub fn zone_radius(figs: &[Stat], k: usize) -> f64 {
    figs.iter()
        .filter(|f| f.zone == Some(k as u8))
        .map(|f| f.r)
        .reduce(f64::max)
        .unwrap_or(BASE_R)
}

/// The first free spot of a zone's grid for a base of radius `r` (rows from its south-west
/// corner).
fn first_free(z: Zone, r: f64, fixed: &[(f64, f64, f64)], buildings: &[Zone]) -> Option<Pt> {
    let (c, rows) = zone_grid(z.w, z.d, r);
    (0..rows)
        .flat_map(|row| (0..c).map(move |col| (col, row)))
        .map(|(col, row)| zone_spot(z, col, row, r))
        .find(|&(x, y)| {
            !buildings
                .iter()
                .any(|b| base_on_rect(x, y, r, b.x, b.y, b.w, b.d))
                && !fixed.iter().any(|&(qx, qy, qr)| {
                    Base::new(Pt::new(x, y), r).overlaps(Base::new(Pt::new(qx, qy), qr))
                })
        })
        .map(|(x, y)| Pt::new(x, y))
}
