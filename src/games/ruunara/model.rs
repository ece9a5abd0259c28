//! Ruunara card format (`spec/other-games.md`): heroes and units.

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::cards::Problem;

/// The playable races; an ally card's race is one of these.
pub const PLAYABLE_RACES: [&str; 3] = ["ardann", "kangara", "sanbari"];

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum FigureKind {
    Hero,
    Unit,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Allegiance {
    Ally,
    Enemy,
    Neutral,
}

/// An attack roll `nD k+`: n dice, each hitting at k or more.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Dice {
    pub count: u32,
    pub min: u8,
}

impl Dice {
    /// Parses `^[1-9][0-9]*D[1-6]\+$`.
    pub fn parse(s: &str) -> Option<Dice> {
        let (n, k) = s.split_once('D')?;
        let k = k.strip_suffix('+')?;
        let valid_n = !n.is_empty() && !n.starts_with('0') && n.bytes().all(|b| b.is_ascii_digit());
        let valid_k = k.len() == 1 && (b'1'..=b'6').contains(&k.as_bytes()[0]);
        if !valid_n || !valid_k {
            return None;
        }
        Some(Dice {
            count: n.parse().ok()?,
            min: k.parse().ok()?,
        })
    }
}

impl fmt::Display for Dice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}D{}+", self.count, self.min)
    }
}

impl Serialize for Dice {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.to_string())
    }
}

impl<'de> Deserialize<'de> for Dice {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        Dice::parse(&s).ok_or_else(|| {
            serde::de::Error::custom(format!(
                "`{s}` is not a dice string; write nD k+ as in \"3D4+\" (n from 1, k from 1 to 6)"
            ))
        })
    }
}

/// A skill of a card. `effect` names what the engine applies (`spec/ruunara.md`, "Skills as
/// data"); its parameters are keys of the skill beside it (`dice`, `attack`, `amount`,
/// `target`, `range`, `radius`, and this format's `damage`). A skill with no `effect` is text
/// only: shown, never applied.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Skill {
    pub name: String,
    /// `N/F` (per fight), `N/G` (per game) or `constant`.
    pub cycle: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trigger: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    /// One of [`EffectKind`]'s names: `instant_kill`, `extra_attack`, `flee`, `heal`, `area`,
    /// `stealth`, `cover`, `reroll`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub effect: Option<EffectKind>,
    /// `extra_attack` and `area`: the dice rolled.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dice: Option<Dice>,
    /// `extra_attack`: a close or a ranged attack.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attack: Option<AttackKind>,
    /// `heal`: hit points restored.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub amount: Option<u32>,
    /// `heal`: the figure itself or an ally.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<EffectTarget>,
    /// `heal` (an ally within it) and `area` (a point within it), inches.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub range: Option<f64>,
    /// `area` (around the point), `stealth` and `cover`, inches.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub radius: Option<f64>,
    /// `extra_attack` and `area`: hit points each hit costs (1 to [`MAX_DAMAGE`]; 1 when
    /// absent). An extension of the spec's forms (`docs/cards.md`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub damage: Option<u32>,
    /// `save`: the attacks whose hits it cancels (both kinds when absent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub against: Option<AttackKind>,
    /// `save`: the first hits of each fight it cancels (every hit when absent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hits: Option<u32>,
    /// `state`, `save` on an ally, `cover`: how long what it does lasts.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lasts: Option<Lasts>,
    /// `state`: the state it puts its targets in.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub state: Option<StateKind>,
    /// `state = "hexed"`: the score its target hits on at best (`6`: only on 6+).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub score: Option<u8>,
    /// `cover` and `hunt`: when it applies (`apart`: no hostile within `distance`;
    /// `wounded`: toward wounded heroes).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub condition: Option<Condition>,
    /// `cover` with `condition = "apart"`: the inches no hostile is within; `flee`: the
    /// most inches the move after it goes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub distance: Option<f64>,
    /// `heal`: the event it answers (`execution`: a hostile executed within `radius`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub when: Option<When>,
    /// `state`: the targets turn to face the figure.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub face: Option<bool>,
}

/// How long a skill's state or protection lasts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Lasts {
    /// Until the next enemy attack on the target.
    Attack,
    /// Until the end of the target's fight (its next one when it is not engaged).
    Fight,
    /// Through this round.
    Round,
    /// Until the figure next moves.
    Move,
}

/// The states a `state` skill puts its targets in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StateKind {
    /// It cannot use skills.
    Silenced,
    /// It makes no attack.
    Held,
    /// It has no ranged attack.
    Disarmed,
    /// It hits only on `score` or more.
    Hexed,
}

/// When a `cover` or `hunt` skill applies.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Condition {
    /// No hostile within `distance` inches.
    Apart,
    /// Toward wounded heroes (those that lost hit points).
    Wounded,
}

/// The event a skill answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum When {
    /// A hostile executed (killed in close combat or at the end of its captivity).
    Execution,
}

/// The most hit points one hit of a skill may cost.
pub const MAX_DAMAGE: u32 = 10;

/// The effect forms of `spec/ruunara.md`, "Skills as data", by their names in a card.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EffectKind {
    InstantKill,
    ExtraAttack,
    Flee,
    Heal,
    Area,
    Stealth,
    Cover,
    Reroll,
    Save,
    State,
    HitBonus,
    Vision,
    CaptureClock,
    HoldOut,
    Silent,
    Hunt,
    KeepAway,
}

/// Which attack an `extra_attack` adds, or an `instant_kill` serves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum AttackKind {
    Close,
    Ranged,
}

/// Whom a `heal` restores.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum EffectTarget {
    #[serde(rename = "self")]
    Own,
    Ally,
    /// A hostile engaged with the figure.
    Engaged,
    /// One hostile the figure sees within its range (or engaged with it).
    Enemy,
    /// Every hostile within `radius`.
    Enemies,
    /// Other figures of its race and side within `radius`.
    Kin,
}

/// How often a skill may be used: `N/F` per fight, `N/G` per game, or always.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Cycle {
    PerFight(u32),
    PerGame(u32),
    Constant,
}

impl Cycle {
    /// Parses `N/F`, `N/G` or `constant`.
    pub fn parse(c: &str) -> Option<Cycle> {
        if c == "constant" {
            return Some(Cycle::Constant);
        }
        let (n, unit) = c.split_once('/')?;
        if n.is_empty() || !n.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let n = n.parse().ok()?;
        match unit {
            "F" => Some(Cycle::PerFight(n)),
            "G" => Some(Cycle::PerGame(n)),
            _ => None,
        }
    }
}

impl fmt::Display for Cycle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Cycle::PerFight(n) => write!(f, "{n}/F"),
            Cycle::PerGame(n) => write!(f, "{n}/G"),
            Cycle::Constant => f.write_str("constant"),
        }
    }
}

/// A skill's effect with its parameters, as the engine applies it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum SkillEffect {
    /// A die at or above `on` kills its target outright, on the figure's attacks of kind
    /// `attack` (every attack when `None`).
    InstantKill {
        on: u8,
        attack: Option<AttackKind>,
        /// A single-target spell (`target = "enemy"`): one die at a hostile it sees, not a
        /// kill riding on an attack.
        spell: bool,
    },
    /// `damage`: hit points each hit costs.
    ExtraAttack {
        dice: Dice,
        attack: AttackKind,
        damage: u8,
    },
    /// `distance`: the most inches the move after it goes.
    Flee {
        distance: Option<f64>,
    },
    /// `execution`: not used by choice: when a hostile is executed within that many
    /// inches.
    Heal {
        amount: u32,
        target: EffectTarget,
        range: f64,
        execution: Option<f64>,
    },
    /// Every enemy engaged with the figure, or (with `radius`) every enemy within `radius`
    /// of a point within `range`.
    Area {
        dice: Dice,
        radius: Option<f64>,
        range: Option<f64>,
        damage: u8,
    },
    Stealth {
        radius: f64,
    },
    /// Allies within `radius`, or (`own`) the figure itself: while no hostile is within
    /// `apart`, and (`until_move`) from its use until it next moves.
    Cover {
        radius: f64,
        own: bool,
        apart: Option<f64>,
        until_move: bool,
    },
    Reroll,
    /// Hits of attacks of kind `against` (every kind when `None`) cancelled, each on a die
    /// at or above `on` (0: always), the first `hits` of each fight (0: all); `ward`: used
    /// on an ally within that range, for the next enemy attack on it.
    Save {
        against: Option<AttackKind>,
        on: u8,
        hits: u8,
        ward: Option<f64>,
    },
    /// Its targets put in `state` (on a die at or above `on`; 0: no roll) for `lasts`.
    State {
        state: StateKind,
        target: EffectTarget,
        radius: Option<f64>,
        range: Option<f64>,
        on: u8,
        lasts: Lasts,
        score: u8,
        face: bool,
    },
    /// Allies (`kin`: of its race) within `radius` hit on `amount` less (never better
    /// than 2+).
    HitBonus {
        amount: u8,
        radius: f64,
        kin: bool,
    },
    /// Allies within `radius` see `amount` inches farther.
    Vision {
        amount: u8,
        radius: f64,
    },
    /// A hero engaged with the figure counts `amount` more rounds toward capture (on a die
    /// at or above `on`; 0: no roll).
    CaptureClock {
        amount: u8,
        on: u8,
    },
    /// Captured in close combat only after more than `rounds` consecutive rounds engaged.
    HoldOut {
        rounds: u8,
    },
    /// Its close combat makes no noise.
    Silent,
    /// It goes toward the nearest wounded hero it sees before any other.
    Hunt,
    /// No hostile may end its move within `radius` of it.
    KeepAway {
        radius: f64,
    },
}

impl SkillEffect {
    /// The effect's form.
    pub fn kind(&self) -> EffectKind {
        match self {
            SkillEffect::InstantKill { .. } => EffectKind::InstantKill,
            SkillEffect::ExtraAttack { .. } => EffectKind::ExtraAttack,
            SkillEffect::Flee { .. } => EffectKind::Flee,
            SkillEffect::Heal { .. } => EffectKind::Heal,
            SkillEffect::Area { .. } => EffectKind::Area,
            SkillEffect::Stealth { .. } => EffectKind::Stealth,
            SkillEffect::Cover { .. } => EffectKind::Cover,
            SkillEffect::Reroll => EffectKind::Reroll,
            SkillEffect::Save { .. } => EffectKind::Save,
            SkillEffect::State { .. } => EffectKind::State,
            SkillEffect::HitBonus { .. } => EffectKind::HitBonus,
            SkillEffect::Vision { .. } => EffectKind::Vision,
            SkillEffect::CaptureClock { .. } => EffectKind::CaptureClock,
            SkillEffect::HoldOut { .. } => EffectKind::HoldOut,
            SkillEffect::Silent => EffectKind::Silent,
            SkillEffect::Hunt => EffectKind::Hunt,
            SkillEffect::KeepAway { .. } => EffectKind::KeepAway,
        }
    }

    /// The score an `instant_kill` kills on, for an attack of kind `kind`.
    pub fn instant_on(&self, kind: AttackKind) -> Option<u8> {
        match *self {
            SkillEffect::InstantKill {
                on,
                attack,
                spell: false,
            } if attack.is_none_or(|a| a == kind) => Some(on),
            _ => None,
        }
    }

    /// The dice it rolls and the hit points each hit costs (`extra_attack`, `area`).
    pub fn dice_and_damage(&self) -> Option<(Dice, u8)> {
        match *self {
            SkillEffect::ExtraAttack { dice, damage, .. }
            | SkillEffect::Area { dice, damage, .. } => Some((dice, damage)),
            _ => None,
        }
    }
}

impl Skill {
    /// The skill's cycle, `None` when it is malformed (`Figure::problems` reports it).
    pub fn cycle(&self) -> Option<Cycle> {
        Cycle::parse(&self.cycle)
    }

    /// The trigger's score `k` of `k+`.
    pub fn trigger_score(&self) -> Option<u8> {
        let t = self.trigger.as_deref()?;
        valid_trigger(t).then(|| t.as_bytes()[0] - b'0')
    }

    /// Hit points each hit of the skill costs: its `damage`, 1 when absent; `None` when out
    /// of range (`Figure::problems` reports it).
    pub fn damage_per_hit(&self) -> Option<u8> {
        match self.damage {
            None => Some(1),
            Some(d) if (1..=MAX_DAMAGE).contains(&d) => Some(d as u8),
            Some(_) => None,
        }
    }

    /// The effect the engine applies with its parameters: `None` for a text-only skill, or
    /// when a parameter the effect needs is missing (`Figure::problems` reports that).
    pub fn resolved_effect(&self) -> Option<SkillEffect> {
        Some(match self.effect? {
            EffectKind::InstantKill => SkillEffect::InstantKill {
                on: self.trigger_score()?,
                attack: self.attack,
                spell: self.target == Some(EffectTarget::Enemy),
            },
            EffectKind::ExtraAttack => SkillEffect::ExtraAttack {
                dice: self.dice?,
                attack: self.attack?,
                damage: self.damage_per_hit()?,
            },
            EffectKind::Flee => SkillEffect::Flee {
                distance: self.distance,
            },
            EffectKind::Heal => SkillEffect::Heal {
                amount: self.amount?,
                target: self.target.unwrap_or(EffectTarget::Own),
                range: self.range.unwrap_or(0.0),
                execution: match self.when {
                    Some(When::Execution) => Some(self.radius?),
                    None => None,
                },
            },
            EffectKind::Area => SkillEffect::Area {
                dice: self.dice?,
                radius: self.radius,
                range: self.range,
                damage: self.damage_per_hit()?,
            },
            EffectKind::Stealth => SkillEffect::Stealth {
                radius: self.radius?,
            },
            EffectKind::Cover => {
                let own = self.target == Some(EffectTarget::Own);
                SkillEffect::Cover {
                    radius: if own { 0.0 } else { self.radius? },
                    own,
                    apart: match self.condition {
                        Some(Condition::Apart) => Some(self.distance?),
                        _ => None,
                    },
                    until_move: self.lasts == Some(Lasts::Move),
                }
            }
            EffectKind::Reroll => SkillEffect::Reroll,
            EffectKind::Save => SkillEffect::Save {
                against: self.against,
                on: self
                    .trigger
                    .as_ref()
                    .map_or(Some(0), |_| self.trigger_score())?,
                hits: self.hits.map_or(0, |h| h.min(u32::from(u8::MAX)) as u8),
                ward: match self.target {
                    Some(EffectTarget::Ally) => Some(self.range?),
                    _ => None,
                },
            },
            EffectKind::State => SkillEffect::State {
                state: self.state?,
                target: self.target?,
                radius: self.radius,
                range: self.range,
                on: self
                    .trigger
                    .as_ref()
                    .map_or(Some(0), |_| self.trigger_score())?,
                lasts: self.lasts.unwrap_or(Lasts::Round),
                score: self.score.unwrap_or(6),
                face: self.face.unwrap_or(false),
            },
            EffectKind::HitBonus => SkillEffect::HitBonus {
                amount: small(self.amount?),
                radius: self.radius?,
                kin: self.target == Some(EffectTarget::Kin),
            },
            EffectKind::Vision => SkillEffect::Vision {
                amount: small(self.amount?),
                radius: self.radius?,
            },
            EffectKind::CaptureClock => SkillEffect::CaptureClock {
                amount: small(self.amount?),
                on: self
                    .trigger
                    .as_ref()
                    .map_or(Some(0), |_| self.trigger_score())?,
            },
            EffectKind::HoldOut => SkillEffect::HoldOut {
                rounds: small(self.amount?),
            },
            EffectKind::Silent => SkillEffect::Silent,
            EffectKind::Hunt => SkillEffect::Hunt,
            EffectKind::KeepAway => SkillEffect::KeepAway {
                radius: self.radius?,
            },
        })
    }
}

/// A count of a skill as the engine keeps it (at most 99).
fn small(n: u32) -> u8 {
    n.min(99) as u8
}

/// A Ruunara hero or unit card.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Figure {
    pub game: String,
    pub kind: FigureKind,
    pub id: String,
    pub name: String,
    pub race: String,
    pub faction: Allegiance,
    pub hp: u32,
    pub movement: u32,
    pub vision: u32,
    pub close: Dice,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ranged: Option<Dice>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ranged_range: Option<u32>,
    #[serde(default)]
    pub skills: Vec<Skill>,
    /// The figure's base, millimetres across (`spec/ruunara.md`, "Added in the third
    /// round"; [`DEFAULT_BASE_MM`] when absent, from [`MIN_BASE_MM`] to [`MAX_BASE_MM`]):
    /// every distance, contact, sight line and overlap measures this base.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub base: Option<f64>,
    /// The card's picture: a PNG or JPEG file (see `docs/cards.md`, "Art"); `portrait` is
    /// accepted as another name for it.
    #[serde(default, alias = "portrait", skip_serializing_if = "Option::is_none")]
    pub art: Option<String>,
}

/// A figure's base when its card gives none: 34 mm across ("Miniature Sizes" of the rule
/// text).
pub const DEFAULT_BASE_MM: f64 = 34.0;
/// The smallest base a card may give, mm (half an inch across).
pub const MIN_BASE_MM: f64 = 12.5;
/// The largest base a card may give, mm (8 inches across: larger than any model the rule
/// text's "other creatures may vary in size" could mean, small enough for a 48 x 36 table).
pub const MAX_BASE_MM: f64 = 200.0;

/// Inches to centimetres as the rule text counts them (1" = 2.5 cm).
pub fn inches_to_cm(inches: u32) -> f32 {
    inches as f32 * 2.5
}

fn valid_trigger(t: &str) -> bool {
    t.strip_suffix('+')
        .is_some_and(|k| k.len() == 1 && (b'1'..=b'6').contains(&k.as_bytes()[0]))
}

impl Figure {
    /// The base's radius in inches (1" = 25 mm as the rule text counts; the base treated
    /// as a circle): 0.68" for the default 34 mm. A card's `base` outside its bounds is
    /// refused by [`Figure::problems`]; here it is clamped to them.
    pub fn base_radius(&self) -> f64 {
        let mm = self
            .base
            .filter(|b| b.is_finite())
            .unwrap_or(DEFAULT_BASE_MM)
            .clamp(MIN_BASE_MM, MAX_BASE_MM);
        mm / 50.0
    }

    pub fn texts(&self) -> Vec<&str> {
        let mut t = Vec::new();
        for s in &self.skills {
            t.push(s.name.as_str());
            t.extend(s.text.as_deref());
        }
        t
    }

    pub fn problems(&self) -> Vec<Problem> {
        let mut out = Vec::new();
        if self.ranged.is_some() != self.ranged_range.is_some() {
            out.push(Problem::at(
                &[if self.ranged.is_some() {
                    "ranged"
                } else {
                    "ranged_range"
                }],
                "`ranged` and `ranged_range` go together: give both or neither".to_string(),
            ));
        }
        if let Some(b) = self.base
            && !(b.is_finite() && (MIN_BASE_MM..=MAX_BASE_MM).contains(&b))
        {
            out.push(Problem::at(
                &["base"],
                format!(
                    "`base` is the figure's base in millimetres across, from {MIN_BASE_MM} to {MAX_BASE_MM} (34 when absent), not {b}"
                ),
            ));
        }
        let race_ok = match self.faction {
            Allegiance::Ally => PLAYABLE_RACES.contains(&self.race.as_str()),
            _ => !self.race.is_empty() && self.race.bytes().all(|b| b.is_ascii_lowercase()),
        };
        if !race_ok {
            out.push(Problem::at(
                &["race"],
                match self.faction {
                    Allegiance::Ally => format!(
                        "an ally's race is ardann, kangara or sanbari, not `{}`",
                        self.race
                    ),
                    _ => format!("race `{}` must be one lower-case word", self.race),
                },
            ));
        }
        for (i, s) in self.skills.iter().enumerate() {
            let seg = format!("skills[{i}]");
            if Cycle::parse(&s.cycle).is_none() {
                out.push(Problem::at(
                    &[&seg, "cycle"],
                    format!(
                        "skill `{}`: cycle `{}` is not N/F, N/G or constant",
                        s.name, s.cycle
                    ),
                ));
            }
            if let Some(t) = &s.trigger
                && !valid_trigger(t)
            {
                out.push(Problem::at(
                    &[&seg, "trigger"],
                    format!(
                        "skill `{}`: trigger `{t}` is not k+ with k from 1 to 6",
                        s.name
                    ),
                ));
            }
            s.effect_problems(&seg, &mut out);
        }
        out
    }
}

/// The parameter keys a skill may carry beside `effect`.
pub const EFFECT_PARAMS: [&str; 16] = [
    "dice",
    "attack",
    "amount",
    "target",
    "range",
    "radius",
    "damage",
    "against",
    "hits",
    "lasts",
    "state",
    "score",
    "condition",
    "distance",
    "when",
    "face",
];

impl EffectKind {
    /// Every effect, in the order of `spec/ruunara.md`, "Skills as data".
    pub const ALL: [EffectKind; 17] = [
        EffectKind::InstantKill,
        EffectKind::ExtraAttack,
        EffectKind::Flee,
        EffectKind::Heal,
        EffectKind::Area,
        EffectKind::Stealth,
        EffectKind::Cover,
        EffectKind::Reroll,
        EffectKind::Save,
        EffectKind::State,
        EffectKind::HitBonus,
        EffectKind::Vision,
        EffectKind::CaptureClock,
        EffectKind::HoldOut,
        EffectKind::Silent,
        EffectKind::Hunt,
        EffectKind::KeepAway,
    ];

    /// The effect's name as a card writes it.
    pub fn as_str(self) -> &'static str {
        match self {
            EffectKind::InstantKill => "instant_kill",
            EffectKind::ExtraAttack => "extra_attack",
            EffectKind::Flee => "flee",
            EffectKind::Heal => "heal",
            EffectKind::Area => "area",
            EffectKind::Stealth => "stealth",
            EffectKind::Cover => "cover",
            EffectKind::Reroll => "reroll",
            EffectKind::Save => "save",
            EffectKind::State => "state",
            EffectKind::HitBonus => "hit_bonus",
            EffectKind::Vision => "vision",
            EffectKind::CaptureClock => "capture_clock",
            EffectKind::HoldOut => "hold_out",
            EffectKind::Silent => "silent",
            EffectKind::Hunt => "hunt",
            EffectKind::KeepAway => "keep_away",
        }
    }

    /// The parameters the effect needs (`trigger` for `instant_kill` is checked apart: any
    /// skill may have a trigger).
    pub fn required(self) -> &'static [&'static str] {
        match self {
            EffectKind::ExtraAttack => &["dice", "attack"],
            EffectKind::Heal => &["amount"],
            EffectKind::Area => &["dice"],
            EffectKind::Stealth | EffectKind::Cover | EffectKind::KeepAway => &["radius"],
            EffectKind::State => &["state", "target"],
            EffectKind::HitBonus | EffectKind::Vision => &["amount", "radius"],
            EffectKind::CaptureClock | EffectKind::HoldOut => &["amount"],
            EffectKind::InstantKill
            | EffectKind::Flee
            | EffectKind::Reroll
            | EffectKind::Save
            | EffectKind::Silent
            | EffectKind::Hunt => &[],
        }
    }

    /// Every parameter the effect takes, required or optional.
    pub fn takes(self) -> &'static [&'static str] {
        match self {
            EffectKind::ExtraAttack => &["dice", "attack", "damage"],
            EffectKind::Heal => &["amount", "target", "range", "when", "radius"],
            EffectKind::Area => &["dice", "range", "radius", "damage"],
            EffectKind::Stealth | EffectKind::KeepAway => &["radius"],
            EffectKind::Cover => &["radius", "target", "condition", "distance", "lasts"],
            EffectKind::InstantKill => &["attack", "target"],
            EffectKind::Flee => &["distance"],
            EffectKind::Reroll | EffectKind::Silent => &[],
            EffectKind::Save => &["against", "hits", "target", "range"],
            EffectKind::State => &[
                "state", "target", "radius", "range", "lasts", "score", "face",
            ],
            EffectKind::HitBonus => &["amount", "radius", "target"],
            EffectKind::Vision => &["amount", "radius"],
            EffectKind::CaptureClock => &["amount", "target"],
            EffectKind::HoldOut => &["amount"],
            EffectKind::Hunt => &["condition"],
        }
    }
}

impl Skill {
    /// The effect parameters written in this skill, by key.
    fn given_params(&self) -> Vec<&'static str> {
        let given = [
            self.dice.is_some(),
            self.attack.is_some(),
            self.amount.is_some(),
            self.target.is_some(),
            self.range.is_some(),
            self.radius.is_some(),
            self.damage.is_some(),
            self.against.is_some(),
            self.hits.is_some(),
            self.lasts.is_some(),
            self.state.is_some(),
            self.score.is_some(),
            self.condition.is_some(),
            self.distance.is_some(),
            self.when.is_some(),
            self.face.is_some(),
        ];
        EFFECT_PARAMS
            .iter()
            .zip(given)
            .filter(|(_, g)| *g)
            .map(|(k, _)| *k)
            .collect()
    }

    /// The checks of `effect` and its parameters; `seg` is the skill's path (`skills[1]`),
    /// and each message names the key path (`skills[1].dice`).
    fn effect_problems(&self, seg: &str, out: &mut Vec<Problem>) {
        let given = self.given_params();
        let Some(effect) = self.effect else {
            if let Some(k) = given.first() {
                out.push(Problem::at(
                    &[seg, k],
                    format!(
                        "{seg}.{k}: skill `{}` has no `effect`, so `{k}` applies to nothing; add `effect` or remove `{k}`",
                        self.name
                    ),
                ));
            }
            return;
        };
        let name = effect.as_str();
        for k in &given {
            if !effect.takes().contains(k) {
                let takes = effect.takes();
                out.push(Problem::at(
                    &[seg, k],
                    format!(
                        "{seg}.{k}: effect `{name}` does not take `{k}`; it takes {}",
                        if takes.is_empty() {
                            "no parameter".to_string()
                        } else {
                            takes
                                .iter()
                                .map(|t| format!("`{t}`"))
                                .collect::<Vec<_>>()
                                .join(", ")
                        }
                    ),
                ));
            }
        }
        for k in effect.required() {
            // A cover of the figure itself has no radius.
            let own_cover = effect == EffectKind::Cover
                && *k == "radius"
                && self.target == Some(EffectTarget::Own);
            if !given.contains(k) && !own_cover {
                out.push(Problem::at(
                    &[seg, "effect"],
                    format!("{seg}.{k}: effect `{name}` needs `{k}` ({})", param_hint(k)),
                ));
            }
        }
        if effect == EffectKind::InstantKill && self.trigger.is_none() {
            out.push(Problem::at(
                &[seg, "effect"],
                format!(
                    "{seg}.trigger: effect `instant_kill` needs `trigger` (`k+`: a die at or above k kills)"
                ),
            ));
        }
        self.composed_problems(effect, seg, out);
        for (k, v) in [
            ("range", self.range),
            ("radius", self.radius),
            ("distance", self.distance),
        ] {
            if let Some(v) = v
                && !(v.is_finite() && v > 0.0 && v <= MAX_EFFECT_INCHES)
            {
                out.push(Problem::at(
                    &[seg, k],
                    format!(
                        "{seg}.{k}: {k} is {v}; it must be more than 0 and at most {MAX_EFFECT_INCHES} inches"
                    ),
                ));
            }
        }
        if let Some(d) = self.damage
            && !(1..=MAX_DAMAGE).contains(&d)
        {
            out.push(Problem::at(
                &[seg, "damage"],
                format!(
                    "{seg}.damage: damage is {d}; a hit costs from 1 to {MAX_DAMAGE} hit points"
                ),
            ));
        }
        if self.amount == Some(0) {
            out.push(Problem::at(
                &[seg, "amount"],
                format!("{seg}.amount: a heal restores at least 1 hit point"),
            ));
        }
        if effect == EffectKind::Heal && self.when.is_none() {
            let to_ally = self.target == Some(EffectTarget::Ally);
            if to_ally && self.range.is_none() {
                out.push(Problem::at(
                    &[seg, "target"],
                    format!("{seg}.range: a heal with target = \"ally\" needs `range` (inches)"),
                ));
            }
            if !to_ally && self.range.is_some() {
                out.push(Problem::at(
                    &[seg, "range"],
                    format!(
                        "{seg}.range: a heal of the figure itself has no `range`; write target = \"ally\" to heal another figure"
                    ),
                ));
            }
        }
        if effect == EffectKind::Area && self.range.is_some() != self.radius.is_some() {
            let (has, lacks) = if self.range.is_some() {
                ("range", "radius")
            } else {
                ("radius", "range")
            };
            out.push(Problem::at(
                &[seg, has],
                format!(
                    "{seg}.{lacks}: an `area` around a point needs both `range` (to the point) and `radius` (around it); with neither it strikes every enemy engaged with the figure"
                ),
            ));
        }
    }
}

impl Skill {
    /// The checks of the composed keys (`target`, `condition`, `when`, `state`, `lasts`,
    /// `hits`, `score`) for the effects that take them.
    fn composed_problems(&self, effect: EffectKind, seg: &str, out: &mut Vec<Problem>) {
        let mut bad = |key: &str, msg: String| out.push(Problem::at(&[seg, key], msg));
        let name = effect.as_str();
        if let Some(t) = self.target {
            let allowed: &[EffectTarget] = match effect {
                EffectKind::Heal | EffectKind::Save => &[EffectTarget::Own, EffectTarget::Ally],
                EffectKind::Cover => &[EffectTarget::Own, EffectTarget::Ally],
                EffectKind::InstantKill => &[EffectTarget::Enemy],
                EffectKind::State => &[
                    EffectTarget::Engaged,
                    EffectTarget::Enemy,
                    EffectTarget::Enemies,
                ],
                EffectKind::HitBonus => &[EffectTarget::Ally, EffectTarget::Kin],
                EffectKind::CaptureClock => &[EffectTarget::Engaged],
                _ => &[],
            };
            if !allowed.contains(&t) {
                bad(
                    "target",
                    format!(
                        "{seg}.target: effect `{name}` does not take target `{}`; it takes {}",
                        crate::games::word(&t),
                        allowed
                            .iter()
                            .map(|a| format!("`{}`", crate::games::word(a)))
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                );
            }
        }
        if effect == EffectKind::State
            && self.target == Some(EffectTarget::Enemies)
            && self.radius.is_none()
        {
            bad(
                "target",
                format!("{seg}.radius: a state on every enemy around needs `radius` (inches)"),
            );
        }
        if effect == EffectKind::Heal && self.when.is_some() && self.radius.is_none() {
            bad(
                "when",
                format!(
                    "{seg}.radius: a heal when a hostile is executed needs `radius`: how near (inches)"
                ),
            );
        }
        if effect == EffectKind::Save
            && self.target == Some(EffectTarget::Ally)
            && self.range.is_none()
        {
            bad(
                "target",
                format!("{seg}.range: a save given to an ally needs `range` (inches)"),
            );
        }
        match (effect, self.condition) {
            (EffectKind::Cover, Some(Condition::Apart)) if self.distance.is_none() => bad(
                "condition",
                format!(
                    "{seg}.distance: condition `apart` needs `distance`: no hostile within it (inches)"
                ),
            ),
            (EffectKind::Cover, Some(Condition::Wounded))
            | (EffectKind::Hunt, Some(Condition::Apart)) => bad(
                "condition",
                format!(
                    "{seg}.condition: effect `{name}` takes condition `{}`",
                    if effect == EffectKind::Hunt {
                        "wounded"
                    } else {
                        "apart"
                    }
                ),
            ),
            _ => {}
        }
        if effect == EffectKind::Cover
            && self.distance.is_some()
            && self.condition != Some(Condition::Apart)
        {
            bad(
                "distance",
                format!("{seg}.distance: a cover's `distance` goes with condition = \"apart\""),
            );
        }
        if effect == EffectKind::Cover
            && self.target == Some(EffectTarget::Own)
            && self.radius.is_some()
        {
            bad(
                "radius",
                format!("{seg}.radius: a cover of the figure itself has no `radius`"),
            );
        }
        if let Some(score) = self.score
            && !(2..=6).contains(&score)
        {
            bad(
                "score",
                format!("{seg}.score: a score is from 2 to 6, not {score}"),
            );
        }
        if self.score.is_some() && self.state != Some(StateKind::Hexed) {
            bad(
                "score",
                format!("{seg}.score: `score` goes with state = \"hexed\""),
            );
        }
        if self.hits == Some(0) {
            bad(
                "hits",
                format!("{seg}.hits: a save cancels at least 1 hit a fight"),
            );
        }
    }
}

/// The longest `range` or `radius` of a skill effect, inches (a table edge of 20 feet).
pub const MAX_EFFECT_INCHES: f64 = 240.0;

fn param_hint(key: &str) -> &'static str {
    match key {
        "dice" => "a dice string such as \"1D4+\"",
        "attack" => "\"close\" or \"ranged\"",
        "amount" => "a number: hit points, inches or rounds",
        "state" => "\"silenced\", \"held\", \"disarmed\" or \"hexed\"",
        "target" => "whom it applies to, such as \"engaged\"",
        "radius" => "inches",
        _ => "see docs/cards.md",
    }
}
