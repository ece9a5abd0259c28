//! The Iconica party file (`*.party.toml`, `spec/iconica.md`): a name and the members in
//! table order, by card id or exact name. Loading is strict; the rules are in `rules.rs`.

use serde::{Deserialize, Serialize};

use crate::cards::{CardError, Game};
use crate::games::build;

/// A party as written by the player.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PartyFile {
    pub game: String,
    /// The party's name (optional; shown in messages and the app).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub name: String,
    /// Card ids or exact card names, left to right on the table.
    #[serde(default)]
    pub members: Vec<String>,
}

impl PartyFile {
    /// A new party of the given members (ids or names).
    pub fn new(name: &str, members: &[&str]) -> PartyFile {
        PartyFile {
            game: Game::Iconica.as_str().to_string(),
            name: name.to_string(),
            members: members.iter().map(|m| m.to_string()).collect(),
        }
    }

    /// Reads a party file; `file` only names the file in errors (line, column, key).
    pub fn parse(text: &str, file: &str) -> Result<PartyFile, CardError> {
        let party: PartyFile = build::from_toml(text, file)?;
        build::expect_game(text, file, &party.game, Game::Iconica, "a party file")?;
        Ok(party)
    }

    /// The file's TOML text.
    pub fn to_toml(&self) -> String {
        build::to_toml(self)
    }

    /// The name to show: the party's name, or `party` when it has none.
    pub fn display_name(&self) -> &str {
        if self.name.is_empty() { "party" } else { &self.name }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_and_writes_back() {
        let text = "game = \"iconica\"\nname = \"Raiders\"\nmembers = [\"ico-a\", \"Bea\"]\n";
        let p = PartyFile::parse(text, "p.party.toml").unwrap();
        assert_eq!(p, PartyFile::new("Raiders", &["ico-a", "Bea"]));
        assert_eq!(PartyFile::parse(&p.to_toml(), "again").unwrap(), p);
    }

    #[test]
    fn an_unknown_key_is_an_error_with_its_place() {
        let e = PartyFile::parse("game = \"iconica\"\nmembers = []\nsize = 4\n", "p.party.toml").unwrap_err();
        assert_eq!((e.line, e.column), (3, 1));
        assert_eq!(e.key.as_deref(), Some("size"));
    }

    #[test]
    fn another_game_is_an_error() {
        let e = PartyFile::parse("game = \"ruunara\"\nmembers = []\n", "p.party.toml").unwrap_err();
        assert_eq!(e.key.as_deref(), Some("game"));
        assert_eq!(e.line, 1);
    }
}
