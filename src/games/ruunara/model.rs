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
    },
    /// `damage`: hit points each hit costs.
    ExtraAttack {
        dice: Dice,
        attack: AttackKind,
        damage: u8,
    },
    Flee,
    Heal {
        amount: u32,
        target: EffectTarget,
        range: f64,
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
    Cover {
        radius: f64,
    },
    Reroll,
}

impl SkillEffect {
    /// The effect's form.
    pub fn kind(&self) -> EffectKind {
        match self {
            SkillEffect::InstantKill { .. } => EffectKind::InstantKill,
            SkillEffect::ExtraAttack { .. } => EffectKind::ExtraAttack,
            SkillEffect::Flee => EffectKind::Flee,
            SkillEffect::Heal { .. } => EffectKind::Heal,
            SkillEffect::Area { .. } => EffectKind::Area,
            SkillEffect::Stealth { .. } => EffectKind::Stealth,
            SkillEffect::Cover { .. } => EffectKind::Cover,
            SkillEffect::Reroll => EffectKind::Reroll,
        }
    }

    /// The score an `instant_kill` kills on, for an attack of kind `kind`.
    pub fn instant_on(&self, kind: AttackKind) -> Option<u8> {
        match *self {
            SkillEffect::InstantKill { on, attack } if attack.is_none_or(|a| a == kind) => Some(on),
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
            },
            EffectKind::ExtraAttack => SkillEffect::ExtraAttack {
                dice: self.dice?,
                attack: self.attack?,
                damage: self.damage_per_hit()?,
            },
            EffectKind::Flee => SkillEffect::Flee,
            EffectKind::Heal => SkillEffect::Heal {
                amount: self.amount?,
                target: self.target.unwrap_or(EffectTarget::Own),
                range: self.range.unwrap_or(0.0),
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
            EffectKind::Cover => SkillEffect::Cover {
                radius: self.radius?,
            },
            EffectKind::Reroll => SkillEffect::Reroll,
        })
    }
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
pub const EFFECT_PARAMS: [&str; 7] = [
    "dice", "attack", "amount", "target", "range", "radius", "damage",
];

impl EffectKind {
    /// Every effect, in the order of `spec/ruunara.md`, "Skills as data".
    pub const ALL: [EffectKind; 8] = [
        EffectKind::InstantKill,
        EffectKind::ExtraAttack,
        EffectKind::Flee,
        EffectKind::Heal,
        EffectKind::Area,
        EffectKind::Stealth,
        EffectKind::Cover,
        EffectKind::Reroll,
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
        }
    }

    /// The parameters the effect needs (`trigger` for `instant_kill` is checked apart: any
    /// skill may have a trigger).
    pub fn required(self) -> &'static [&'static str] {
        match self {
            EffectKind::ExtraAttack => &["dice", "attack"],
            EffectKind::Heal => &["amount"],
            EffectKind::Area => &["dice"],
            EffectKind::Stealth | EffectKind::Cover => &["radius"],
            EffectKind::InstantKill | EffectKind::Flee | EffectKind::Reroll => &[],
        }
    }

    /// Every parameter the effect takes, required or optional.
    pub fn takes(self) -> &'static [&'static str] {
        match self {
            EffectKind::ExtraAttack => &["dice", "attack", "damage"],
            EffectKind::Heal => &["amount", "target", "range"],
            EffectKind::Area => &["dice", "range", "radius", "damage"],
            EffectKind::Stealth | EffectKind::Cover => &["radius"],
            EffectKind::InstantKill => &["attack"],
            EffectKind::Flee | EffectKind::Reroll => &[],
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
            if !given.contains(k) {
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
        for (k, v) in [("range", self.range), ("radius", self.radius)] {
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
        if effect == EffectKind::Heal {
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

/// The longest `range` or `radius` of a skill effect, inches (a table edge of 20 feet).
pub const MAX_EFFECT_INCHES: f64 = 240.0;

fn param_hint(key: &str) -> &'static str {
    match key {
        "dice" => "a dice string such as \"1D4+\"",
        "attack" => "\"close\" or \"ranged\"",
        "amount" => "hit points restored",
        "radius" => "inches",
        _ => "see docs/cards.md",
    }
}
