//! The documents the builders edit, in the shape of their TOML files (`*.party.toml`,
//! `*.character.toml`, `*.setup.toml`, `*.squad.toml`). Plain data: the construction
//! rules that judge them live in the core (`games::*`).

use serde::{Deserialize, Serialize};

use crate::catalogue::saved::DocKind;

/// An Iconica party: members in table order, left to right.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PartyDoc {
    #[serde(default = "iconica")]
    pub game: String,
    #[serde(default)]
    pub name: String,
    #[serde(default)]
    pub members: Vec<String>,
}

/// An Arcadia character.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CharacterDoc {
    #[serde(default = "arcadia")]
    pub game: String,
    #[serde(default)]
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub icon: Option<String>,
    #[serde(default)]
    pub merits: Vec<String>,
    #[serde(default)]
    pub flaws: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub court: Option<String>,
    #[serde(default)]
    pub xp_earned: u32,
    #[serde(default)]
    pub flaws_bought_off: Vec<String>,
}

/// A player of an Arcadia quest setup. `character` names a character file, relative to the
/// setup file (the app writes `<saved character name>.character.toml`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct SetupPlayer {
    #[serde(default)]
    pub character: String,
    #[serde(default)]
    pub quests: Vec<String>,
    #[serde(default)]
    pub waylays: Vec<String>,
    #[serde(default)]
    pub treasures: Vec<String>,
}

/// A league laid on the grid, in the order laid.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LaidLeague {
    pub id: String,
    pub owner: u8,
    pub x: i32,
    pub y: i32,
}

/// An Arcadia quest setup: two players and the leagues they laid.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SetupDoc {
    #[serde(default = "arcadia")]
    pub game: String,
    /// The app's name for the setup (an extra key; the core ignores what it does not know
    /// only if it allows it, so it is kept out of exported files).
    #[serde(default, skip_serializing)]
    pub name: String,
    #[serde(default)]
    pub players: Vec<SetupPlayer>,
    #[serde(default)]
    pub leagues: Vec<LaidLeague>,
}

/// A Ruunara squad.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SquadDoc {
    #[serde(default = "ruunara")]
    pub game: String,
    #[serde(default)]
    pub name: String,
    #[serde(default = "story")]
    pub mode: String,
    #[serde(default)]
    pub members: Vec<String>,
}

fn iconica() -> String {
    "iconica".into()
}
fn arcadia() -> String {
    "arcadia".into()
}
fn ruunara() -> String {
    "ruunara".into()
}
fn story() -> String {
    "story".into()
}

impl Default for PartyDoc {
    fn default() -> Self {
        PartyDoc {
            game: iconica(),
            name: "New party".into(),
            members: Vec::new(),
        }
    }
}

impl Default for CharacterDoc {
    fn default() -> Self {
        CharacterDoc {
            game: arcadia(),
            name: "New character".into(),
            icon: None,
            merits: Vec::new(),
            flaws: Vec::new(),
            court: None,
            xp_earned: 0,
            flaws_bought_off: Vec::new(),
        }
    }
}

impl Default for SetupDoc {
    fn default() -> Self {
        SetupDoc {
            game: arcadia(),
            name: "New setup".into(),
            players: vec![SetupPlayer::default(), SetupPlayer::default()],
            leagues: Vec::new(),
        }
    }
}

impl Default for SquadDoc {
    fn default() -> Self {
        SquadDoc {
            game: ruunara(),
            name: "New squad".into(),
            mode: story(),
            members: Vec::new(),
        }
    }
}

/// Where an edited document lives in the app: the slot a command of the history names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Slot {
    /// The party being built (side A of a match).
    PartyA,
    /// The second party of a match (side B).
    PartyB,
    Character,
    Setup,
    Squad,
}

impl Slot {
    pub const ALL: [Slot; 5] = [
        Slot::PartyA,
        Slot::PartyB,
        Slot::Character,
        Slot::Setup,
        Slot::Squad,
    ];

    pub fn kind(self) -> DocKind {
        match self {
            Slot::PartyA | Slot::PartyB => DocKind::Party,
            Slot::Character => DocKind::Character,
            Slot::Setup => DocKind::Setup,
            Slot::Squad => DocKind::Squad,
        }
    }

    pub fn key(self) -> &'static str {
        match self {
            Slot::PartyA => "party-a",
            Slot::PartyB => "party-b",
            Slot::Character => "character",
            Slot::Setup => "setup",
            Slot::Squad => "squad",
        }
    }
}

/// The documents open in the app, one per slot.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Docs {
    pub party_a: PartyDoc,
    pub party_b: PartyDoc,
    pub character: CharacterDoc,
    pub setup: SetupDoc,
    pub squad: SquadDoc,
}

/// A document that reads from and writes to its TOML file.
pub trait TomlDoc: Sized + Serialize + for<'de> Deserialize<'de> {
    fn to_toml(&self) -> String {
        toml::to_string(self).unwrap_or_default()
    }
    fn from_toml(text: &str) -> Result<Self, String> {
        toml::from_str(text).map_err(|e| e.to_string())
    }
    fn name(&self) -> &str;
    fn name_mut(&mut self) -> &mut String;
}

impl TomlDoc for PartyDoc {
    fn name(&self) -> &str {
        &self.name
    }
    fn name_mut(&mut self) -> &mut String {
        &mut self.name
    }
}
impl TomlDoc for CharacterDoc {
    fn name(&self) -> &str {
        &self.name
    }
    fn name_mut(&mut self) -> &mut String {
        &mut self.name
    }
}
impl TomlDoc for SetupDoc {
    fn name(&self) -> &str {
        &self.name
    }
    fn name_mut(&mut self) -> &mut String {
        &mut self.name
    }
    /// A setup's file has no name key: the app keeps it in a comment line.
    fn to_toml(&self) -> String {
        let body = toml::to_string(self).unwrap_or_default();
        format!(
            "# name = {}\n{body}",
            toml::Value::String(self.name.clone())
        )
    }
    fn from_toml(text: &str) -> Result<Self, String> {
        let mut doc: SetupDoc = toml::from_str(text).map_err(|e| e.to_string())?;
        if let Some(rest) = text
            .lines()
            .next()
            .and_then(|l| l.strip_prefix("# name = "))
            && let Ok(toml::Value::String(n)) =
                toml::from_str::<toml::Table>(&format!("n = {rest}")).map(|t| t["n"].clone())
        {
            doc.name = n;
        }
        Ok(doc)
    }
}
impl TomlDoc for SquadDoc {
    fn name(&self) -> &str {
        &self.name
    }
    fn name_mut(&mut self) -> &mut String {
        &mut self.name
    }
}

impl Docs {
    /// The TOML of the document in `slot`.
    pub fn get_toml(&self, slot: Slot) -> String {
        match slot {
            Slot::PartyA => self.party_a.to_toml(),
            Slot::PartyB => self.party_b.to_toml(),
            Slot::Character => self.character.to_toml(),
            Slot::Setup => self.setup.to_toml(),
            Slot::Squad => self.squad.to_toml(),
        }
    }

    /// Replaces the document in `slot` with the one `text` holds.
    pub fn set_toml(&mut self, slot: Slot, text: &str) -> Result<(), String> {
        match slot {
            Slot::PartyA => self.party_a = PartyDoc::from_toml(text)?,
            Slot::PartyB => self.party_b = PartyDoc::from_toml(text)?,
            Slot::Character => self.character = CharacterDoc::from_toml(text)?,
            Slot::Setup => self.setup = SetupDoc::from_toml(text)?,
            Slot::Squad => self.squad = SquadDoc::from_toml(text)?,
        }
        Ok(())
    }

    /// The name of the document in `slot`.
    pub fn name(&self, slot: Slot) -> &str {
        match slot {
            Slot::PartyA => &self.party_a.name,
            Slot::PartyB => &self.party_b.name,
            Slot::Character => &self.character.name,
            Slot::Setup => &self.setup.name,
            Slot::Squad => &self.squad.name,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn party_toml_is_the_spec_shape() {
        let p = PartyDoc {
            game: "iconica".into(),
            name: "Raiders".into(),
            members: vec!["ico-a".into(), "ico-b".into()],
        };
        let text = p.to_toml();
        assert!(text.contains("game = \"iconica\""), "{text}");
        assert!(text.contains("members = [\"ico-a\", \"ico-b\"]"), "{text}");
        assert_eq!(PartyDoc::from_toml(&text).unwrap(), p);
    }

    #[test]
    fn setup_name_survives_the_round_trip_outside_the_format() {
        let mut s = SetupDoc {
            name: "Moor \"run\"".into(),
            ..Default::default()
        };
        s.leagues.push(LaidLeague {
            id: "arc-l1".into(),
            owner: 1,
            x: 0,
            y: 0,
        });
        let text = s.to_toml();
        assert!(text.contains("[[leagues]]"));
        let back = SetupDoc::from_toml(&text).unwrap();
        assert_eq!(back, s);
    }

    #[test]
    fn every_slot_round_trips() {
        let mut docs = Docs::default();
        docs.squad.members.push("ru-x".into());
        for slot in Slot::ALL {
            let t = docs.get_toml(slot);
            let mut other = Docs::default();
            other.set_toml(slot, &t).unwrap();
            assert_eq!(other.get_toml(slot), t);
        }
    }
}
