//! Arcadia card formats (`spec/arcadia.md`): icons, merits, flaws, waylays, leagues, quests.

use serde::{Deserialize, Deserializer, Serialize};

use crate::cards::Problem;

/// Any Arcadia card, by its `kind`.
#[derive(Debug, Clone, PartialEq)]
pub enum ArcadiaCard {
    Icon(Icon),
    Merit(Merit),
    Flaw(Flaw),
    Waylay(Waylay),
    League(League),
    Quest(Quest),
}

pub const KINDS: [&str; 6] = ["icon", "merit", "flaw", "waylay", "league", "quest"];

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Attribute {
    Might,
    Savvy,
    Resolve,
}

impl Attribute {
    pub const ALL: [Attribute; 3] = [Attribute::Might, Attribute::Savvy, Attribute::Resolve];
}

/// What a test, trial or bonus is about: an attribute or combat.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TestKind {
    Might,
    Savvy,
    Resolve,
    Combat,
}

impl TestKind {
    /// In the order the format lists them for waylays.
    pub const ALL: [TestKind; 4] = [
        TestKind::Might,
        TestKind::Resolve,
        TestKind::Savvy,
        TestKind::Combat,
    ];
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Court {
    Seelie,
    Unseelie,
}

impl Court {
    pub const ALL: [Court; 2] = [Court::Seelie, Court::Unseelie];
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum MeritType {
    Ability,
    Advantage,
    Ally,
    Art,
    Treasure,
}

impl MeritType {
    pub const ALL: [MeritType; 5] = [
        MeritType::Ability,
        MeritType::Advantage,
        MeritType::Ally,
        MeritType::Art,
        MeritType::Treasure,
    ];

    /// The type's name as card files write it (`merit_type`, league `rest` lists).
    pub fn as_str(self) -> &'static str {
        match self {
            MeritType::Ability => "ability",
            MeritType::Advantage => "advantage",
            MeritType::Ally => "ally",
            MeritType::Art => "art",
            MeritType::Treasure => "treasure",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum FlawType {
    Curse,
    Enemy,
    Weakness,
}

impl FlawType {
    pub const ALL: [FlawType; 3] = [FlawType::Curse, FlawType::Enemy, FlawType::Weakness];
}

/// What a league's `rest` may list: the merit types, then `flaw`.
pub const REST_TYPES: [&str; 6] = ["ability", "advantage", "ally", "art", "treasure", "flaw"];

/// A merit or flaw effect the engine understands. One table, the keys in use say which form:
/// `{bonus, test, exhaust?}`, `{retest, exhaust}`, `{change_test, exhaust}`, `{penalty, test}`.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Effect {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bonus: Option<i32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub penalty: Option<i32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub test: Option<TestKind>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub retest: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub change_test: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exhaust: Option<bool>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Icon {
    pub game: String,
    pub kind: String,
    pub id: String,
    pub name: String,
    pub text: String,
    pub race: String,
    pub gender: String,
    pub might: i32,
    pub savvy: i32,
    pub resolve: i32,
    pub ability: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub effects: Vec<Effect>,
    /// The card's picture: a PNG or JPEG file (see `docs/cards.md`, "Art"); `portrait` is
    /// accepted as another name for it.
    #[serde(default, alias = "portrait", skip_serializing_if = "Option::is_none")]
    pub art: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Merit {
    pub game: String,
    pub kind: String,
    pub id: String,
    pub name: String,
    pub text: String,
    pub merit_type: MeritType,
    pub cost: i32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attribute: Option<Attribute>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub court: Option<Court>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub art: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub combat: Option<i32>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub effects: Vec<Effect>,
    /// The card's picture (a merit's `art` names its art): a PNG or JPEG file.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub portrait: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Flaw {
    pub game: String,
    pub kind: String,
    pub id: String,
    pub name: String,
    pub text: String,
    pub flaw_type: FlawType,
    pub points: i32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub court: Option<Court>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub effects: Vec<Effect>,
    /// The card's picture: a PNG or JPEG file (see `docs/cards.md`, "Art"); `portrait` is
    /// accepted as another name for it.
    #[serde(default, alias = "portrait", skip_serializing_if = "Option::is_none")]
    pub art: Option<String>,
}

/// A trial: one die plus the attribute, pass on >= difficulty.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Trial {
    pub attribute: TestKind,
    pub difficulty: i32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failure: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Waylay {
    pub game: String,
    pub kind: String,
    pub id: String,
    pub name: String,
    pub text: String,
    pub rating: i32,
    /// Terrain features it may be played on, or `["any"]`.
    pub terrain: Vec<String>,
    pub tests: Vec<TestKind>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub might: Option<i32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resolve: Option<i32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub savvy: Option<i32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub combat: Option<i32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trial: Option<Trial>,
    /// The card's picture: a PNG or JPEG file (see `docs/cards.md`, "Art"); `portrait` is
    /// accepted as another name for it.
    #[serde(default, alias = "portrait", skip_serializing_if = "Option::is_none")]
    pub art: Option<String>,
}

impl Waylay {
    /// The waylay's value for a test kind; `None` means that test can never be used.
    pub fn value(&self, t: TestKind) -> Option<i32> {
        match t {
            TestKind::Might => self.might,
            TestKind::Savvy => self.savvy,
            TestKind::Resolve => self.resolve,
            TestKind::Combat => self.combat,
        }
    }
    pub fn fits_terrain(&self, features: &[String]) -> bool {
        self.terrain
            .iter()
            .any(|t| t == "any" || features.contains(t))
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Sides {
    pub north: Vec<String>,
    pub east: Vec<String>,
    pub south: Vec<String>,
    pub west: Vec<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Side {
    North,
    East,
    South,
    West,
}

impl Side {
    /// Clockwise from the top of the card.
    pub const ALL: [Side; 4] = [Side::North, Side::East, Side::South, Side::West];

    pub fn opposite(self) -> Side {
        match self {
            Side::North => Side::South,
            Side::South => Side::North,
            Side::East => Side::West,
            Side::West => Side::East,
        }
    }
    pub fn name(self) -> &'static str {
        match self {
            Side::North => "north",
            Side::East => "east",
            Side::South => "south",
            Side::West => "west",
        }
    }
}

impl Sides {
    pub fn get(&self, s: Side) -> &[String] {
        match s {
            Side::North => &self.north,
            Side::East => &self.east,
            Side::South => &self.south,
            Side::West => &self.west,
        }
    }

    pub fn get_mut(&mut self, s: Side) -> &mut Vec<String> {
        match s {
            Side::North => &mut self.north,
            Side::East => &mut self.east,
            Side::South => &mut self.south,
            Side::West => &mut self.west,
        }
    }
}

/// An enter or leave trial of a league.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LeagueTrial {
    pub attribute: TestKind,
    pub difficulty: i32,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct League {
    pub game: String,
    pub kind: String,
    pub id: String,
    pub name: String,
    pub text: String,
    pub terrain: Vec<String>,
    pub sides: Sides,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub enter: Option<LeagueTrial>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub leave: Option<LeagueTrial>,
    /// Merit types recoverable here (may include `flaw`).
    #[serde(default)]
    pub rest: Vec<String>,
    #[serde(default)]
    pub unique: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub special: Option<String>,
    /// The card's picture: a PNG or JPEG file (see `docs/cards.md`, "Art"); `portrait` is
    /// accepted as another name for it.
    #[serde(default, alias = "portrait", skip_serializing_if = "Option::is_none")]
    pub art: Option<String>,
}

/// A quest objective, checked by the engine.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Objective {
    Reach(String),
    ReachTerrain(String),
    CollectTreasures(u32),
    DefeatWaylays(u32),
    ReturnToBase(bool),
    All(Vec<Objective>),
    Any(Vec<Objective>),
}

impl<'de> Deserialize<'de> for Objective {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        use serde::de::Error;
        let table = toml::Table::deserialize(d)?;
        if table.len() != 1 {
            return Err(D::Error::custom(
                "an objective is a table with exactly one of the keys reach, reach_terrain, collect_treasures, defeat_waylays, return_to_base, all, any",
            ));
        }
        let (k, v) = table.into_iter().next().expect("one entry");
        let want = |what: &str| D::Error::custom(format!("objective `{k}` takes {what}"));
        let count = |v: &toml::Value| {
            v.as_integer()
                .filter(|n| *n >= 0)
                .map(|n| n as u32)
                .ok_or_else(|| want("a whole number"))
        };
        let list = |v: toml::Value| -> Result<Vec<Objective>, D::Error> {
            let toml::Value::Array(a) = v else {
                return Err(want("a list of objectives"));
            };
            a.into_iter()
                .map(|x| {
                    x.try_into::<Objective>()
                        .map_err(|e| D::Error::custom(e.message().to_string()))
                })
                .collect()
        };
        Ok(match k.as_str() {
            "reach" => Objective::Reach(v.as_str().ok_or_else(|| want("a league id"))?.to_string()),
            "reach_terrain" => Objective::ReachTerrain(
                v.as_str()
                    .ok_or_else(|| want("a terrain feature"))?
                    .to_string(),
            ),
            "collect_treasures" => Objective::CollectTreasures(count(&v)?),
            "defeat_waylays" => Objective::DefeatWaylays(count(&v)?),
            "return_to_base" => {
                Objective::ReturnToBase(v.as_bool().ok_or_else(|| want("true or false"))?)
            }
            "all" => Objective::All(list(v)?),
            "any" => Objective::Any(list(v)?),
            other => {
                return Err(D::Error::custom(format!(
                    "unknown objective `{other}`; expected reach, reach_terrain, collect_treasures, defeat_waylays, return_to_base, all or any"
                )));
            }
        })
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Quest {
    pub game: String,
    pub kind: String,
    pub id: String,
    pub name: String,
    pub text: String,
    pub waylay_rating: i32,
    pub treasure_rating: i32,
    pub experience: i32,
    pub objective: Objective,
    /// The card's picture: a PNG or JPEG file (see `docs/cards.md`, "Art"); `portrait` is
    /// accepted as another name for it.
    #[serde(default, alias = "portrait", skip_serializing_if = "Option::is_none")]
    pub art: Option<String>,
}

impl ArcadiaCard {
    pub fn common(&self) -> (&str, &str, &str) {
        match self {
            ArcadiaCard::Icon(c) => (&c.id, &c.name, &c.text),
            ArcadiaCard::Merit(c) => (&c.id, &c.name, &c.text),
            ArcadiaCard::Flaw(c) => (&c.id, &c.name, &c.text),
            ArcadiaCard::Waylay(c) => (&c.id, &c.name, &c.text),
            ArcadiaCard::League(c) => (&c.id, &c.name, &c.text),
            ArcadiaCard::Quest(c) => (&c.id, &c.name, &c.text),
        }
    }
    pub fn kind(&self) -> &'static str {
        match self {
            ArcadiaCard::Icon(_) => "icon",
            ArcadiaCard::Merit(_) => "merit",
            ArcadiaCard::Flaw(_) => "flaw",
            ArcadiaCard::Waylay(_) => "waylay",
            ArcadiaCard::League(_) => "league",
            ArcadiaCard::Quest(_) => "quest",
        }
    }

    /// Every text of the card, for free-text search.
    pub fn texts(&self) -> Vec<&str> {
        let mut t = vec![self.common().2];
        match self {
            ArcadiaCard::Icon(c) => t.push(&c.ability),
            ArcadiaCard::Waylay(w) => t.extend(w.trial.as_ref().and_then(|t| t.failure.as_deref())),
            ArcadiaCard::League(l) => t.extend(l.special.as_deref()),
            _ => {}
        }
        t
    }

    /// Checks beyond the types.
    pub fn problems(&self) -> Vec<Problem> {
        let mut out = Vec::new();
        match self {
            ArcadiaCard::Merit(m) => {
                if m.cost < 0 {
                    out.push(Problem::at(
                        &["cost"],
                        format!("`cost` cannot be negative ({})", m.cost),
                    ));
                }
                if m.merit_type == MeritType::Ability
                    && (m.attribute.is_none() || m.court.is_none())
                {
                    out.push(Problem::at(
                        &["merit_type"],
                        "an ability merit needs `attribute` (might/savvy/resolve) and `court` (seelie/unseelie)"
                            .to_string(),
                    ));
                }
            }
            ArcadiaCard::Flaw(f) => {
                if f.points < 0 {
                    out.push(Problem::at(
                        &["points"],
                        format!("`points` cannot be negative ({})", f.points),
                    ));
                }
                if f.flaw_type == FlawType::Weakness && f.court.is_none() {
                    out.push(Problem::at(
                        &["flaw_type"],
                        "a weakness needs `court` (seelie/unseelie)".to_string(),
                    ));
                }
            }
            ArcadiaCard::League(l) => {
                for r in &l.rest {
                    if !REST_TYPES.contains(&r.as_str()) {
                        out.push(Problem::at(
                            &["rest"],
                            format!("`rest` lists merit types or `flaw`; `{r}` is neither"),
                        ));
                    }
                }
            }
            _ => {}
        }
        out
    }
}
