//! The Arcadia quest setup file (`*.setup.toml`, `spec/arcadia.md`): two players (their
//! character file, quests, waylays and treasures) and the leagues in the order laid.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::cards::{CardError, Game};
use crate::games::build;

/// A grid position; x grows eastward and y southward.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Pos {
    pub x: i32,
    pub y: i32,
}

/// One player of a setup.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SetupPlayer {
    /// The character file, relative to the setup file.
    pub character: String,
    #[serde(default)]
    pub quests: Vec<String>,
    /// The waylays this player will play on the opponent.
    #[serde(default)]
    pub waylays: Vec<String>,
    /// Treasure merits hidden for this player to find.
    #[serde(default)]
    pub treasures: Vec<String>,
    /// Optional; else the first league the opponent laid.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub base_camp: Option<Pos>,
}

/// A laid league.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LaidLeague {
    pub id: String,
    /// The player (1 or 2) who laid it.
    pub owner: u8,
    pub x: i32,
    pub y: i32,
}

impl LaidLeague {
    pub fn pos(&self) -> Pos {
        Pos { x: self.x, y: self.y }
    }
}

/// A quest setup as written.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SetupFile {
    pub game: String,
    /// The setup's name (optional; shown in messages and the app).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub name: String,
    pub players: Vec<SetupPlayer>,
    /// In the order laid.
    #[serde(default)]
    pub leagues: Vec<LaidLeague>,
}

impl SetupFile {
    /// Reads a setup file: exactly two `[[players]]`, league owners 1 or 2. `file` only
    /// names the file in errors (line, column, key).
    pub fn parse(text: &str, file: &str) -> Result<SetupFile, CardError> {
        let s: SetupFile = build::from_toml(text, file)?;
        build::expect_game(text, file, &s.game, Game::Arcadia, "a quest setup")?;
        if s.players.len() != 2 {
            return Err(CardError::at(
                file,
                text,
                &["players"],
                format!("a quest setup has exactly two [[players]], found {}", s.players.len()),
            ));
        }
        if let Some(bad) = s.leagues.iter().find(|l| l.owner != 1 && l.owner != 2) {
            let (line, column) = owner_place(text, s.leagues.iter().position(|l| l == bad).unwrap_or(0));
            return Err(CardError {
                file: file.to_string(),
                line,
                column,
                key: Some("owner".into()),
                message: format!("league `{}` has owner = {}; the owner is player 1 or 2", bad.id, bad.owner),
            });
        }
        Ok(s)
    }

    /// The file's TOML text.
    pub fn to_toml(&self) -> String {
        build::to_toml(self)
    }

    /// Where each player's character file is, given where this setup file is (the
    /// `character` paths are relative to the setup file's folder).
    pub fn character_paths(&self, setup_path: &Path) -> Vec<PathBuf> {
        let dir = setup_path.parent().unwrap_or(Path::new(""));
        self.players.iter().map(|p| dir.join(&p.character)).collect()
    }
}

/// Line and column of the `owner` key of the n-th `[[leagues]]` table.
fn owner_place(text: &str, n: usize) -> (usize, usize) {
    let mut seen = 0usize;
    let mut in_target = false;
    for (i, line) in text.lines().enumerate() {
        let t = line.trim_start();
        if t.starts_with("[[leagues]]") {
            in_target = seen == n;
            seen += 1;
        } else if t.starts_with('[') {
            in_target = false;
        } else if in_target && t.starts_with("owner") {
            return (i + 1, line.len() - t.len() + 1);
        }
    }
    (1, 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_setup_may_have_a_name_like_every_build_file() {
        let text = "game = \"arcadia\"\nname = \"Moor run\"\n[[players]]\ncharacter = \"a.character.toml\"\n[[players]]\ncharacter = \"b.character.toml\"\n";
        let s = SetupFile::parse(text, "m.setup.toml").unwrap();
        assert_eq!(s.name, "Moor run");
        let back = SetupFile::parse(&s.to_toml(), "again").unwrap();
        assert_eq!(back, s);
        // Without one, none is written.
        let unnamed = SetupFile { name: String::new(), ..s };
        assert!(!unnamed.to_toml().contains("name"));
    }

    const SPEC: &str = r#"game = "arcadia"
[[players]]
character = "esekial.character.toml"
quests = ["arc-q1"]
waylays = ["arc-w1", "arc-w2"]
treasures = ["arc-t1"]
[[players]]
character = "other.character.toml"
quests = ["arc-q2"]
base_camp = { x = 1, y = 0 }
[[leagues]]
id = "arc-l1"
owner = 1
x = 0
y = 0
[[leagues]]
id = "arc-l2"
owner = 2
x = 1
y = 0
"#;

    #[test]
    fn the_spec_example_loads_and_writes_back() {
        let s = SetupFile::parse(SPEC, "s.setup.toml").unwrap();
        assert_eq!(s.players[1].base_camp, Some(Pos { x: 1, y: 0 }));
        assert_eq!(s.leagues[1].pos(), Pos { x: 1, y: 0 });
        assert_eq!(SetupFile::parse(&s.to_toml(), "again").unwrap(), s);
        let paths = s.character_paths(Path::new("games/s.setup.toml"));
        assert_eq!(paths[0], Path::new("games/esekial.character.toml"));
    }

    #[test]
    fn owner_and_player_count_are_checked_with_their_place() {
        let bad = SPEC.replacen("owner = 2", "owner = 3", 1);
        let e = SetupFile::parse(&bad, "s").unwrap_err();
        assert_eq!((e.line, e.key.as_deref()), (18, Some("owner")));
        let one = "game = \"arcadia\"\n[[players]]\ncharacter = \"a\"\n";
        assert!(SetupFile::parse(one, "s").unwrap_err().message.contains("exactly two"));
    }
}
