//! The Ruunara squad file (`*.squad.toml`, `spec/other-games.md`): a name, the game mode and
//! the members by card id or exact name. Loading is strict; the rules are in `rules.rs`.

use serde::{Deserialize, Serialize};

use crate::cards::{CardError, Game};
use crate::games::build;

/// Story Mode (one race) or Free Play (any mix).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    Story,
    Free,
}

/// A squad as written by the player.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SquadFile {
    pub game: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub name: String,
    pub mode: Mode,
    #[serde(default)]
    pub members: Vec<String>,
}

impl SquadFile {
    pub fn new(name: &str, mode: Mode, members: &[&str]) -> SquadFile {
        SquadFile {
            game: Game::Ruunara.as_str().to_string(),
            name: name.to_string(),
            mode,
            members: members.iter().map(|m| m.to_string()).collect(),
        }
    }

    /// Reads a squad file; `file` only names the file in errors (line, column, key).
    pub fn parse(text: &str, file: &str) -> Result<SquadFile, CardError> {
        let s: SquadFile = build::from_toml(text, file)?;
        build::expect_game(text, file, &s.game, Game::Ruunara, "a squad file")?;
        Ok(s)
    }

    /// The file's TOML text.
    pub fn to_toml(&self) -> String {
        build::to_toml(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_and_writes_back() {
        let text = "game = \"ruunara\"\nname = \"Forge\"\nmode = \"story\"\nmembers = [\"ru-a\", \"Bea\"]\n";
        let s = SquadFile::parse(text, "s.squad.toml").unwrap();
        assert_eq!(s, SquadFile::new("Forge", Mode::Story, &["ru-a", "Bea"]));
        assert_eq!(SquadFile::parse(&s.to_toml(), "again").unwrap(), s);
    }

    #[test]
    fn a_mode_outside_its_set_is_positioned() {
        let e = SquadFile::parse("game = \"ruunara\"\nmode = \"campaign\"\n", "s").unwrap_err();
        assert_eq!(e.line, 2);
        assert!(SquadFile::parse("game = \"ruunara\"\nmembers = []\n", "s").unwrap_err().message.contains("mode"));
    }
}
