//! Iconica card format: the character card of `spec/iconica.md`, loaded strictly.

use std::collections::BTreeMap;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::cards::Problem;

/// An Iconica character card (`kind = "character"`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Character {
    pub game: String,
    pub kind: String,
    pub id: String,
    pub name: String,
    pub series: String,
    pub number: String,
    pub faction: Faction,
    pub race: String,
    pub archetype: String,
    pub class: Class,
    #[serde(rename = "type")]
    pub rarity: Rarity,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub affiliation: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub influence: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The card's picture, written `art` (`portrait`, the older name, is still read).
    #[serde(
        default,
        rename = "art",
        alias = "portrait",
        skip_serializing_if = "Option::is_none"
    )]
    pub portrait: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub action_break: Option<u8>,
    pub health: Health,
    pub actions: Vec<Action>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub strengths: Vec<Strength>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub final_act: Option<FinalAct>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Faction {
    Legion,
    Protectorate,
    Independent,
}

impl Faction {
    pub const ALL: [Faction; 3] = [Faction::Legion, Faction::Protectorate, Faction::Independent];
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Class {
    Offensive,
    Defensive,
    Disruptive,
    Supportive,
    Adaptive,
}

impl Class {
    pub const ALL: [Class; 5] = [
        Class::Offensive,
        Class::Defensive,
        Class::Disruptive,
        Class::Supportive,
        Class::Adaptive,
    ];
}

/// The card's `type` (common ... special).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Rarity {
    Common,
    Uncommon,
    Rare,
    Legend,
    Special,
}

impl Rarity {
    pub const ALL: [Rarity; 5] = [
        Rarity::Common,
        Rarity::Uncommon,
        Rarity::Rare,
        Rarity::Legend,
        Rarity::Special,
    ];

    /// Legend and Special characters are limited in a party and across a match.
    pub fn is_legend_or_special(self) -> bool {
        matches!(self, Rarity::Legend | Rarity::Special)
    }
}

/// The highest Start value the rules engine supports (a meter of 128 tiles).
pub const MAX_START: u32 = 1270;

/// The health meter: Start down to the Skull at 0, one tile every 10.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Health {
    pub start: u32,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub parry: Vec<u32>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub antidote: Vec<u32>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub courage: Vec<u32>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub evasion: Vec<u32>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub focus: Vec<u32>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub clarity: Vec<u32>,
    /// Tile value (as written, a string key) -> reaction damage.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub reaction: BTreeMap<String, u32>,
}

/// The tile kinds that carry an icon on the health meter.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Nullifier {
    Parry,
    Antidote,
    Courage,
    Evasion,
    Focus,
    Clarity,
}

impl Nullifier {
    pub const ALL: [Nullifier; 6] = [
        Nullifier::Parry,
        Nullifier::Antidote,
        Nullifier::Courage,
        Nullifier::Evasion,
        Nullifier::Focus,
        Nullifier::Clarity,
    ];
    pub fn key(self) -> &'static str {
        match self {
            Nullifier::Parry => "parry",
            Nullifier::Antidote => "antidote",
            Nullifier::Courage => "courage",
            Nullifier::Evasion => "evasion",
            Nullifier::Focus => "focus",
            Nullifier::Clarity => "clarity",
        }
    }
    /// The negative status this nullifier prevents (Parry prevents damage, not a status).
    pub fn prevents(self) -> Option<Status> {
        match self {
            Nullifier::Parry => None,
            Nullifier::Antidote => Some(Status::Poison),
            Nullifier::Courage => Some(Status::Fear),
            Nullifier::Evasion => Some(Status::Stun),
            Nullifier::Focus => Some(Status::Confusion),
            Nullifier::Clarity => Some(Status::Blind),
        }
    }
}

impl Health {
    pub fn tiles(&self, n: Nullifier) -> &[u32] {
        match n {
            Nullifier::Parry => &self.parry,
            Nullifier::Antidote => &self.antidote,
            Nullifier::Courage => &self.courage,
            Nullifier::Evasion => &self.evasion,
            Nullifier::Focus => &self.focus,
            Nullifier::Clarity => &self.clarity,
        }
    }
    pub fn has(&self, n: Nullifier, tile: u32) -> bool {
        self.tiles(n).contains(&tile)
    }
    /// Reaction damage of a tile, if it is a Reaction tile.
    pub fn reaction_at(&self, tile: u32) -> Option<u32> {
        self.reactions().find(|&(t, _)| t == tile).map(|(_, d)| d)
    }
    /// Reaction tiles as numbers (keys that are not numbers are rejected at load).
    pub fn reactions(&self) -> impl Iterator<Item = (u32, u32)> + '_ {
        self.reaction
            .iter()
            .filter_map(|(k, v)| k.trim().parse::<u32>().ok().map(|t| (t, *v)))
    }
}

/// One action of the six (a `roll` may cover several numbers).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Action {
    pub roll: Roll,
    pub name: String,
    pub kind: ActionKind,
    pub text: String,
    #[serde(default)]
    pub effects: Vec<Effect>,
}

/// One roll number or a list of them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Roll {
    One(u8),
    Many(Vec<u8>),
}

impl Roll {
    pub fn numbers(&self) -> Vec<u8> {
        match self {
            Roll::One(n) => vec![*n],
            Roll::Many(v) => v.clone(),
        }
    }
    pub fn covers(&self, n: u8) -> bool {
        match self {
            Roll::One(x) => *x == n,
            Roll::Many(v) => v.contains(&n),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ActionKind {
    Melee,
    Ranged,
    Status,
    Stance,
    Support,
    Healing,
}

impl ActionKind {
    /// The kind as card files and logs write it.
    pub fn name(self) -> &'static str {
        match self {
            ActionKind::Melee => "melee",
            ActionKind::Ranged => "ranged",
            ActionKind::Status => "status",
            ActionKind::Stance => "stance",
            ActionKind::Support => "support",
            ActionKind::Healing => "healing",
        }
    }

    pub const ALL: [ActionKind; 6] = [
        ActionKind::Melee,
        ActionKind::Ranged,
        ActionKind::Status,
        ActionKind::Stance,
        ActionKind::Support,
        ActionKind::Healing,
    ];
}

/// Negative statuses (`inflict`) and positive ones (`grant`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    Poison,
    Fear,
    Confusion,
    Blind,
    Stun,
    Restoration,
    Siphon,
}

impl Status {
    pub const ALL: [Status; 7] = [
        Status::Poison,
        Status::Fear,
        Status::Confusion,
        Status::Blind,
        Status::Stun,
        Status::Restoration,
        Status::Siphon,
    ];
    pub fn is_negative(self) -> bool {
        !matches!(self, Status::Restoration | Status::Siphon)
    }
    pub fn name(self) -> &'static str {
        match self {
            Status::Poison => "poison",
            Status::Fear => "fear",
            Status::Confusion => "confusion",
            Status::Blind => "blind",
            Status::Stun => "stun",
            Status::Restoration => "restoration",
            Status::Siphon => "siphon",
        }
    }
    /// The nullifier tile that prevents this status, if any.
    pub fn nullifier(self) -> Option<Nullifier> {
        Nullifier::ALL
            .into_iter()
            .find(|n| n.prevents() == Some(self))
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Target {
    Foe,
    AllFoes,
    RandomFoe,
    #[serde(rename = "self")]
    Myself,
    Ally,
    Friend,
    AllAllies,
    AllFriends,
    Same,
}

/// The condition of a `roll` effect: `"odd"`, `"even"`, `"N+"` or a list of faces.
#[derive(Debug, Clone, PartialEq)]
pub enum RollCondition {
    Odd,
    Even,
    AtLeast(u8),
    Faces(Vec<u8>),
}

impl RollCondition {
    pub fn holds(&self, face: u8) -> bool {
        match self {
            RollCondition::Odd => face % 2 == 1,
            RollCondition::Even => face.is_multiple_of(2),
            RollCondition::AtLeast(n) => face >= *n,
            RollCondition::Faces(v) => v.contains(&face),
        }
    }
}

impl Serialize for RollCondition {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            RollCondition::Odd => s.serialize_str("odd"),
            RollCondition::Even => s.serialize_str("even"),
            RollCondition::AtLeast(n) => s.serialize_str(&format!("{n}+")),
            RollCondition::Faces(v) => v.serialize(s),
        }
    }
}

impl<'de> Deserialize<'de> for RollCondition {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Raw {
            Text(String),
            Faces(Vec<u8>),
        }
        let bad = || {
            serde::de::Error::custom(
                "a roll condition is \"odd\", \"even\", \"N+\" (N from 1 to 6) or a list of faces 1-6",
            )
        };
        match Raw::deserialize(d).map_err(|_| bad())? {
            Raw::Text(t) => match t.as_str() {
                "odd" => Ok(RollCondition::Odd),
                "even" => Ok(RollCondition::Even),
                other => match other.strip_suffix('+').and_then(|n| n.parse::<u8>().ok()) {
                    Some(n) if (1..=6).contains(&n) => Ok(RollCondition::AtLeast(n)),
                    _ => Err(bad()),
                },
            },
            Raw::Faces(v) if !v.is_empty() && v.iter().all(|f| (1..=6).contains(f)) => {
                Ok(RollCondition::Faces(v))
            }
            Raw::Faces(_) => Err(bad()),
        }
    }
}

/// One effect of an action, strength or final act (`spec/iconica.md`, "Effects").
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Effect {
    Damage {
        damage: u32,
        target: Target,
    },
    Heal {
        heal: u32,
        target: Target,
    },
    Inflict {
        inflict: Status,
        target: Target,
    },
    Grant {
        grant: Status,
        target: Target,
    },
    Dispel {
        dispel: bool,
        target: Target,
    },
    Roll {
        roll: RollCondition,
        then: Vec<Effect>,
        #[serde(rename = "else", default, skip_serializing_if = "Vec::is_empty")]
        otherwise: Vec<Effect>,
    },
    Watch {
        watch: ActionKind,
        then: Vec<Effect>,
    },
}

impl Effect {
    /// The effect's target, for the forms that have one.
    pub fn target(&self) -> Option<Target> {
        match self {
            Effect::Damage { target, .. }
            | Effect::Heal { target, .. }
            | Effect::Inflict { target, .. }
            | Effect::Grant { target, .. }
            | Effect::Dispel { target, .. } => Some(*target),
            Effect::Roll { .. } | Effect::Watch { .. } => None,
        }
    }
}

impl<'de> Deserialize<'de> for Effect {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        use serde::de::Error;
        #[derive(Deserialize)]
        #[serde(deny_unknown_fields)]
        struct DamageE {
            damage: u32,
            target: Target,
        }
        #[derive(Deserialize)]
        #[serde(deny_unknown_fields)]
        struct HealE {
            heal: u32,
            target: Target,
        }
        #[derive(Deserialize)]
        #[serde(deny_unknown_fields)]
        struct InflictE {
            inflict: Status,
            target: Target,
        }
        #[derive(Deserialize)]
        #[serde(deny_unknown_fields)]
        struct GrantE {
            grant: Status,
            target: Target,
        }
        #[derive(Deserialize)]
        #[serde(deny_unknown_fields)]
        struct DispelE {
            dispel: bool,
            target: Target,
        }
        #[derive(Deserialize)]
        #[serde(deny_unknown_fields)]
        struct RollE {
            roll: RollCondition,
            then: Vec<Effect>,
            #[serde(rename = "else", default)]
            otherwise: Vec<Effect>,
        }
        #[derive(Deserialize)]
        #[serde(deny_unknown_fields)]
        struct WatchE {
            watch: ActionKind,
            then: Vec<Effect>,
        }

        let table = toml::Table::deserialize(d)?;
        let v = toml::Value::Table(table.clone());
        let conv = |e: toml::de::Error| D::Error::custom(format!("in effect: {}", e.message()));
        let forms = [
            "damage", "heal", "inflict", "grant", "dispel", "roll", "watch",
        ];
        let Some(form) = forms.iter().find(|k| table.contains_key(**k)) else {
            return Err(D::Error::custom(format!(
                "an effect needs one of the keys {}",
                forms.join(", ")
            )));
        };
        let effect = match *form {
            "damage" => {
                let e: DamageE = v.try_into().map_err(conv)?;
                Effect::Damage {
                    damage: e.damage,
                    target: e.target,
                }
            }
            "heal" => {
                let e: HealE = v.try_into().map_err(conv)?;
                Effect::Heal {
                    heal: e.heal,
                    target: e.target,
                }
            }
            "inflict" => {
                let e: InflictE = v.try_into().map_err(conv)?;
                if !e.inflict.is_negative() {
                    return Err(D::Error::custom(format!(
                        "`inflict` takes a negative status (poison, fear, confusion, blind, stun), not `{}`; use `grant`",
                        e.inflict.name()
                    )));
                }
                Effect::Inflict {
                    inflict: e.inflict,
                    target: e.target,
                }
            }
            "grant" => {
                let e: GrantE = v.try_into().map_err(conv)?;
                if e.grant.is_negative() {
                    return Err(D::Error::custom(format!(
                        "`grant` takes a positive status (restoration, siphon), not `{}`; use `inflict`",
                        e.grant.name()
                    )));
                }
                Effect::Grant {
                    grant: e.grant,
                    target: e.target,
                }
            }
            "dispel" => {
                let e: DispelE = v.try_into().map_err(conv)?;
                Effect::Dispel {
                    dispel: e.dispel,
                    target: e.target,
                }
            }
            "roll" => {
                let e: RollE = v.try_into().map_err(conv)?;
                Effect::Roll {
                    roll: e.roll,
                    then: e.then,
                    otherwise: e.otherwise,
                }
            }
            _ => {
                let e: WatchE = v.try_into().map_err(conv)?;
                Effect::Watch {
                    watch: e.watch,
                    then: e.then,
                }
            }
        };
        Ok(effect)
    }
}

/// A strength bonus: extra effects when an action hits a matching character.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Strength {
    pub against: Against,
    pub actions: Vec<u8>,
    pub text: String,
    #[serde(default)]
    pub effects: Vec<Effect>,
}

/// What a strength applies against: exactly one of archetype, race or class.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Against {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub archetype: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub race: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub class: Option<Class>,
}

impl Against {
    /// Case-insensitive match against a character.
    pub fn matches(&self, c: &Character) -> bool {
        if let Some(a) = &self.archetype {
            return a.eq_ignore_ascii_case(&c.archetype);
        }
        if let Some(r) = &self.race {
            return r.eq_ignore_ascii_case(&c.race);
        }
        if let Some(cl) = self.class {
            return cl == c.class;
        }
        false
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FinalAct {
    pub text: String,
    #[serde(default)]
    pub effects: Vec<Effect>,
}

impl Character {
    /// The action used on roll number `n` (1-6). Always present on a loaded card.
    pub fn action(&self, n: u8) -> Option<&Action> {
        self.actions.iter().find(|a| a.roll.covers(n))
    }

    /// Every text of the card, for free-text search.
    pub fn texts(&self) -> Vec<&str> {
        let mut t: Vec<&str> = Vec::new();
        t.extend(self.description.as_deref());
        for a in &self.actions {
            t.push(&a.name);
            t.push(&a.text);
        }
        for s in &self.strengths {
            t.push(&s.text);
        }
        if let Some(f) = &self.final_act {
            t.push(&f.text);
        }
        t
    }

    /// Checks beyond the types: roll coverage, tile values, strengths, action break.
    /// Paths name the offending `[[actions]]` / `[[strengths]]` entry as `actions[i]`.
    pub fn problems(&self) -> Vec<Problem> {
        let mut out = Vec::new();
        let start = self.health.start;
        if start == 0 || !start.is_multiple_of(10) {
            out.push(Problem::at(
                &["health", "start"],
                format!("`start` must be a positive multiple of 10, not {start}"),
            ));
        } else if start > MAX_START {
            out.push(Problem::at(
                &["health", "start"],
                format!("`start` is {start}; the rules engine supports at most {MAX_START}"),
            ));
        }
        for n in Nullifier::ALL {
            let tiles = self.health.tiles(n);
            for (i, &t) in tiles.iter().enumerate() {
                if t % 10 != 0 || t == 0 || t >= start {
                    out.push(Problem::at(
                        &["health", n.key()],
                        format!(
                            "{} tile {t} must be a multiple of 10 strictly between 0 and start ({start})",
                            n.key()
                        ),
                    ));
                } else if tiles[..i].contains(&t) {
                    out.push(Problem::at(
                        &["health", n.key()],
                        format!("{} lists tile {t} twice", n.key()),
                    ));
                }
            }
        }
        let mut reaction_tiles = Vec::new();
        for k in self.health.reaction.keys() {
            match k.trim().parse::<u32>() {
                Ok(t) if t % 10 == 0 && t > 0 && t < start => {
                    if reaction_tiles.contains(&t) {
                        out.push(Problem::at(
                            &["health", "reaction"],
                            format!("reaction tile {t} is given twice (as \"{k}\" and another spelling)"),
                        ));
                    }
                    reaction_tiles.push(t);
                }
                _ => out.push(Problem::at(
                    &["health", "reaction"],
                    format!(
                        "reaction tile \"{k}\" must be a multiple of 10 strictly between 0 and start ({start})"
                    ),
                )),
            }
        }
        for (i, a) in self.actions.iter().enumerate() {
            let seg = format!("actions[{i}]");
            let numbers = a.roll.numbers();
            if numbers.is_empty() {
                out.push(Problem::at(
                    &[&seg, "roll"],
                    format!("action `{}` has an empty roll list", a.name),
                ));
            }
            for (j, &n) in numbers.iter().enumerate() {
                if !(1..=6).contains(&n) {
                    out.push(Problem::at(
                        &[&seg, "roll"],
                        format!("action `{}` has roll {n}; rolls are 1 to 6", a.name),
                    ));
                } else if numbers[..j].contains(&n) {
                    out.push(Problem::at(
                        &[&seg, "roll"],
                        format!("action `{}` lists roll {n} twice", a.name),
                    ));
                } else if let Some(first) = self.actions[..i].iter().position(|b| b.roll.covers(n))
                {
                    out.push(Problem::at(
                        &[&seg, "roll"],
                        format!(
                            "roll {n} is covered twice (actions `{}` and `{}`); each of 1-6 exactly once",
                            self.actions[first].name, a.name
                        ),
                    ));
                }
            }
        }
        let missing: Vec<String> = (1..=6u8)
            .filter(|&n| !self.actions.iter().any(|a| a.roll.covers(n)))
            .map(|n| n.to_string())
            .collect();
        if !missing.is_empty() {
            out.push(Problem::at(
                &["actions", "roll"],
                format!(
                    "no action covers roll {}; every number 1-6 needs exactly one action",
                    missing.join(", ")
                ),
            ));
        }
        if let Some(b) = self.action_break
            && !(1..=6).contains(&b)
        {
            out.push(Problem::at(
                &["action_break"],
                format!("`action_break` is 1 to 6, not {b}"),
            ));
        }
        for (i, s) in self.strengths.iter().enumerate() {
            let seg = format!("strengths[{i}]");
            let n = [
                s.against.archetype.is_some(),
                s.against.race.is_some(),
                s.against.class.is_some(),
            ]
            .iter()
            .filter(|x| **x)
            .count();
            if n != 1 {
                out.push(Problem::at(
                    &[&seg, "against"],
                    "`against` needs exactly one of archetype, race or class".to_string(),
                ));
            }
            for &n in &s.actions {
                if !(1..=6).contains(&n) {
                    out.push(Problem::at(
                        &[&seg, "actions"],
                        format!("strength action number {n} is not 1 to 6"),
                    ));
                }
            }
        }
        out
    }
}
