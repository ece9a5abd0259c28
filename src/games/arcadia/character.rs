//! The Arcadia character file (`*.character.toml`, `spec/arcadia.md`): an icon, merits,
//! flaws, a declared court for ties, and chronicle experience. Loading is strict; the build
//! rules are in `rules.rs`.

use serde::{Deserialize, Serialize};

use crate::cards::{CardError, Game};
use crate::games::arcadia::model::Court;
use crate::games::build;

/// A character as written by the player.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CharacterFile {
    pub game: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub name: String,
    /// The Character Icon (id or exact name); a file without one breaks `icon-count`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub icon: Option<String>,
    #[serde(default)]
    pub merits: Vec<String>,
    #[serde(default)]
    pub flaws: Vec<String>,
    /// Only needed when the court count is tied.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub court: Option<Court>,
    /// Chronicle play: experience earned so far.
    #[serde(default)]
    pub xp_earned: u32,
    /// Flaws removed with experience (each also stays listed in `flaws`).
    #[serde(default)]
    pub flaws_bought_off: Vec<String>,
}

impl CharacterFile {
    /// Reads a character file; `file` only names the file in errors (line, column, key).
    pub fn parse(text: &str, file: &str) -> Result<CharacterFile, CardError> {
        let c: CharacterFile = build::from_toml(text, file)?;
        build::expect_game(text, file, &c.game, Game::Arcadia, "a character file")?;
        Ok(c)
    }

    /// The file's TOML text.
    pub fn to_toml(&self) -> String {
        build::to_toml(self)
    }

    /// The name to show: the character's name, or `the character`.
    pub fn display_name(&self) -> &str {
        if self.name.is_empty() { "the character" } else { &self.name }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_spec_example_loads_and_writes_back() {
        let text = r#"game = "arcadia"
name = "Esekial"
icon = "arc-naga-male"
merits = ["arc-fire-dance", "arc-iron-key"]
flaws = ["arc-cold-iron-dread"]
court = "seelie"
xp_earned = 0
flaws_bought_off = []
"#;
        let c = CharacterFile::parse(text, "e.character.toml").unwrap();
        assert_eq!(c.icon.as_deref(), Some("arc-naga-male"));
        assert_eq!(c.court, Some(Court::Seelie));
        assert_eq!(CharacterFile::parse(&c.to_toml(), "again").unwrap(), c);
    }

    #[test]
    fn a_bad_court_or_unknown_key_is_positioned() {
        let e = CharacterFile::parse("game = \"arcadia\"\ncourt = \"neutral\"\n", "c").unwrap_err();
        assert_eq!(e.line, 2);
        let e = CharacterFile::parse("game = \"arcadia\"\n\nxp = 3\n", "c").unwrap_err();
        assert_eq!((e.line, e.key.as_deref()), (3, Some("xp")));
    }
}
