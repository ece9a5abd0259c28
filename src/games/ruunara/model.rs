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

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Skill {
    pub name: String,
    /// `N/F` (per fight), `N/G` (per game) or `constant`.
    pub cycle: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trigger: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
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
    /// The card's picture: a PNG or JPEG file (see `docs/cards.md`, "Art"); `portrait` is
    /// accepted as another name for it.
    #[serde(default, alias = "portrait", skip_serializing_if = "Option::is_none")]
    pub art: Option<String>,
}

/// Inches to centimetres as the rule text counts them (1" = 2.5 cm).
pub fn inches_to_cm(inches: u32) -> f32 {
    inches as f32 * 2.5
}

fn valid_cycle(c: &str) -> bool {
    if c == "constant" {
        return true;
    }
    match c.split_once('/') {
        Some((n, unit)) => {
            !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) && (unit == "F" || unit == "G")
        }
        None => false,
    }
}

fn valid_trigger(t: &str) -> bool {
    t.strip_suffix('+')
        .is_some_and(|k| k.len() == 1 && (b'1'..=b'6').contains(&k.as_bytes()[0]))
}

impl Figure {
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
            if !valid_cycle(&s.cycle) {
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
        }
        out
    }
}
