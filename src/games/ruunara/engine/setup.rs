//! What a match starts from, built once from a [`Scenario`]: each figure's card values and
//! skills as the engine applies them, the scenery as rectangles, the objective. Figures are
//! numbered heroes first (squad order), then enemies and neutrals (mission order).

use thiserror::Error;

use super::geom::{BASE_R, CONTACT, Pt, Rect, facing_to, overlap};
use crate::games::ruunara::mission::{Deploy, Facing, Objective, Scenario, SceneryKind};
use crate::games::ruunara::model::{Cycle, Dice, Figure, SkillEffect};

/// The most figures a match holds.
pub const MAX_FIGS: usize = 24;
/// The most applied skills a figure has.
pub const MAX_SKILLS: usize = 4;
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
    /// Where it starts (an enemy's post) and how it faces.
    pub start: Pt,
    pub facing: Facing,
}

impl Stat {
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
    }
}

fn cap(d: Dice) -> Dice {
    Dice {
        count: d.count.min(MAX_DICE as u32),
        min: d.min,
    }
}

impl Setup {
    /// The match of `sc`: squad members deployed in a zone are placed in rows from its
    /// south-west corner, facing the table's centre (`docs/rulings.md`).
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
        let fixed: Vec<Pt> = sc
            .heroes
            .iter()
            .chain(&sc.enemies)
            .filter_map(|p| match p.deploy {
                Deploy::Point { x, y, .. } => Some(Pt::new(x, y)),
                Deploy::Zone { .. } => None,
            })
            .chain(sc.neutrals.iter().map(|n| Pt::new(n.x, n.y)))
            .collect();
        let mut zoned: Vec<Pt> = Vec::new();
        for (side, list) in [(Side::Hero, &sc.heroes), (Side::Enemy, &sc.enemies)] {
            for p in list {
                let (at, facing) = match p.deploy {
                    Deploy::Point { x, y, facing } => (Pt::new(x, y), facing),
                    Deploy::Zone { x, y, w: zw, d: zd } => {
                        let at = place_in_zone(Rect::new(x, y, zw, zd), &fixed, &zoned)
                            .ok_or_else(|| SetupError::NoRoom(p.card.name.clone()))?;
                        zoned.push(at);
                        (at, facing_to(at, centre).unwrap_or(Facing::N))
                    }
                };
                figs.push(stat(&p.card, side, at, facing));
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
        for f in &figs {
            let p = f.start;
            if p.x < BASE_R - 1e-9
                || p.y < BASE_R - 1e-9
                || p.x > w - BASE_R + 1e-9
                || p.y > d - BASE_R + 1e-9
            {
                return Err(SetupError::OffTable(f.name.clone()));
            }
        }
        for i in 0..figs.len() {
            for j in i + 1..figs.len() {
                if overlap(figs[i].start, figs[j].start) {
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
        Ok(Setup {
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
        })
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

/// The first free spot of a zone, in rows from its south-west corner.
fn place_in_zone(z: Rect, fixed: &[Pt], placed: &[Pt]) -> Option<Pt> {
    let step = CONTACT + 0.1;
    let mut y = z.y0 + BASE_R;
    while y <= z.y1 - BASE_R + 1e-9 {
        let mut x = z.x0 + BASE_R;
        while x <= z.x1 - BASE_R + 1e-9 {
            let p = Pt::new(x, y);
            if !fixed.iter().chain(placed).any(|q| overlap(p, *q)) {
                return Some(p);
            }
            x += step;
        }
        y += step;
    }
    None
}
