//! The documents the builders edit: the core's own file types (`*.party.toml`,
//! `*.character.toml`, `*.setup.toml`, `*.squad.toml`), read and written with the core's
//! strict readers, so a document the app saves is one `validate` reads. The construction
//! rules that judge them live in the core (`games::*`).

use serde::{Deserialize, Serialize};

use crate::cards::{CardError, Game};
use crate::catalogue::saved::DocKind;
use crate::games::arcadia::character::CharacterFile;
use crate::games::arcadia::setup::{SetupFile, SetupPlayer};
use crate::games::iconica::party::PartyFile;
use crate::games::ruunara::squad::{Mode, SquadFile};

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
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Docs {
    pub party_a: PartyFile,
    pub party_b: PartyFile,
    pub character: CharacterFile,
    pub setup: SetupFile,
    pub squad: SquadFile,
}

impl Default for Docs {
    fn default() -> Self {
        Docs {
            party_a: PartyFile::fresh(),
            party_b: PartyFile::fresh(),
            character: CharacterFile::fresh(),
            setup: SetupFile::fresh(),
            squad: SquadFile::fresh(),
        }
    }
}

/// A document the app edits: a new one, its TOML file, and its name.
pub trait TomlDoc: Sized + Clone + PartialEq {
    /// The kind of file it is (and its extension).
    const KIND: DocKind;
    /// A new, empty document, named `New ...`.
    fn fresh() -> Self;
    /// The file's TOML text.
    fn to_toml(&self) -> String;
    /// Reads the file strictly, as `validate` does; the message names the line, column
    /// and key. `file` only names the file in the message.
    fn parse(text: &str, file: &str) -> Result<Self, CardError>;
    fn name(&self) -> &str;
    fn name_mut(&mut self) -> &mut String;
    /// [`TomlDoc::parse`] with the message as text, the file named after the kind.
    fn from_toml(text: &str) -> Result<Self, String> {
        Self::parse(text, &format!("document{}", Self::KIND.extension())).map_err(|e| e.to_string())
    }
}

/// The name an earlier version of the app kept in a first line `# name = "..."` (setups had
/// no `name` key then), so drafts and files it wrote keep their names.
fn legacy_name(text: &str) -> Option<String> {
    let rest = text.lines().next()?.strip_prefix("# name = ")?;
    match toml::from_str::<toml::Table>(&format!("n = {rest}")).ok()?.remove("n")? {
        toml::Value::String(n) => Some(n),
        _ => None,
    }
}

/// Implements [`TomlDoc`] for a core file type with `parse`, `to_toml` and a `name` field.
macro_rules! toml_doc {
    ($ty:ty, $kind:expr, $fresh:expr) => {
        impl TomlDoc for $ty {
            const KIND: DocKind = $kind;
            fn fresh() -> Self {
                $fresh
            }
            fn to_toml(&self) -> String {
                <$ty>::to_toml(self)
            }
            fn parse(text: &str, file: &str) -> Result<Self, CardError> {
                let mut doc = <$ty>::parse(text, file)?;
                if doc.name.is_empty() {
                    doc.name = legacy_name(text).unwrap_or_default();
                }
                Ok(doc)
            }
            fn name(&self) -> &str {
                &self.name
            }
            fn name_mut(&mut self) -> &mut String {
                &mut self.name
            }
        }
    };
}

toml_doc!(PartyFile, DocKind::Party, PartyFile::new("New party", &[]));
toml_doc!(
    CharacterFile,
    DocKind::Character,
    CharacterFile {
        game: Game::Arcadia.as_str().into(),
        name: "New character".into(),
        ..Default::default()
    }
);
toml_doc!(
    SetupFile,
    DocKind::Setup,
    SetupFile {
        game: Game::Arcadia.as_str().into(),
        name: "New setup".into(),
        players: vec![SetupPlayer::default(), SetupPlayer::default()],
        leagues: Vec::new(),
    }
);
toml_doc!(SquadFile, DocKind::Squad, SquadFile::new("New squad", Mode::Story, &[]));

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
        let file = format!("document{}", slot.kind().extension());
        self.read(slot, text, &file).map_err(|e| e.to_string())
    }

    /// Replaces the document in `slot` with the one the file `file` holds (`text`); the
    /// error names the file, line, column and key.
    pub fn read(&mut self, slot: Slot, text: &str, file: &str) -> Result<(), CardError> {
        match slot {
            Slot::PartyA => self.party_a = PartyFile::parse(text, file)?,
            Slot::PartyB => self.party_b = PartyFile::parse(text, file)?,
            Slot::Character => self.character = CharacterFile::parse(text, file)?,
            Slot::Setup => self.setup = SetupFile::parse(text, file)?,
            Slot::Squad => self.squad = SquadFile::parse(text, file)?,
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
        let p = PartyFile::new("Raiders", &["ico-a", "ico-b"]);
        let text = TomlDoc::to_toml(&p);
        assert!(text.contains("game = \"iconica\""), "{text}");
        assert!(text.contains("members = [\"ico-a\", \"ico-b\"]"), "{text}");
        assert_eq!(<PartyFile as TomlDoc>::from_toml(&text).unwrap(), p);
    }

    #[test]
    fn a_setup_keeps_its_name_in_the_file() {
        let mut s = SetupFile::fresh();
        s.name = "Moor \"run\"".into();
        s.leagues.push(crate::games::arcadia::setup::LaidLeague {
            id: "arc-l1".into(),
            owner: 1,
            x: 0,
            y: 0,
        });
        let text = TomlDoc::to_toml(&s);
        assert!(text.contains("[[leagues]]"));
        assert_eq!(<SetupFile as TomlDoc>::from_toml(&text).unwrap(), s);
    }

    #[test]
    fn a_setup_written_by_an_earlier_app_keeps_its_name() {
        let old = "# name = \"Moor \\\"run\\\"\"\ngame = \"arcadia\"\n[[players]]\ncharacter = \"\"\n[[players]]\ncharacter = \"\"\n";
        let s = <SetupFile as TomlDoc>::from_toml(old).unwrap();
        assert_eq!(s.name, "Moor \"run\"");
        // A name key wins over the comment.
        let both = old.replace("game = \"arcadia\"\n", "game = \"arcadia\"\nname = \"New\"\n");
        assert_eq!(<SetupFile as TomlDoc>::from_toml(&both).unwrap().name, "New");
    }

    #[test]
    fn documents_are_read_as_strictly_as_validate_reads_them() {
        let err = <PartyFile as TomlDoc>::from_toml("game = \"iconica\"\nmembrs = []\n").unwrap_err();
        assert!(err.contains("membrs"), "{err}");
        assert!(<SquadFile as TomlDoc>::from_toml("game = \"ruunara\"\nmode = \"story\"\n").is_ok());
        assert!(<SquadFile as TomlDoc>::from_toml("game = \"ruunara\"\nmode = \"epic\"\n").is_err());
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
            assert_eq!(other.name(slot), docs.name(slot));
        }
    }
}
