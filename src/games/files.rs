//! Which build file a text is: an Iconica party, an Arcadia character or quest setup, or a
//! Ruunara squad, told by its `game` key (and, for Arcadia, by the file's suffix, else by
//! its keys), read strictly with positioned errors. `validate` and print selections share it.

use crate::cards::{CardError, Game};
use crate::games::arcadia::character::CharacterFile;
use crate::games::arcadia::setup::SetupFile;
use crate::games::build;
use crate::games::iconica::party::PartyFile;
use crate::games::ruunara::squad::SquadFile;

/// A build file of any game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BuildFile {
    Party(PartyFile),
    Character(CharacterFile),
    Setup(SetupFile),
    Squad(SquadFile),
}

impl BuildFile {
    /// Reads `text`, the contents of the file named `file`. An Arcadia file is a setup when
    /// its name ends in `.setup.toml`, a character when it ends in `.character.toml`, else a
    /// setup when it has `players` or `leagues`. A missing or unknown `game`, and Iconoclasm
    /// (which has no build files), are errors naming the file.
    pub fn parse(text: &str, file: &str) -> Result<BuildFile, CardError> {
        let header: toml::Table = build::from_toml(text, file)?;
        let game = match header.get("game") {
            Some(toml::Value::String(g)) => Game::parse(g).ok_or_else(|| {
                CardError::at(
                    file,
                    text,
                    &["game"],
                    format!("unknown game `{g}`; build files are iconica parties, arcadia characters and setups, ruunara squads"),
                )
            })?,
            Some(_) => return Err(CardError::at(file, text, &["game"], "`game` must be a string".into())),
            None => {
                return Err(CardError::at(
                    file,
                    text,
                    &[],
                    "missing key `game` (iconica for a party, arcadia for a character or setup, ruunara for a squad)".into(),
                ));
            }
        };
        Ok(match game {
            Game::Iconica => BuildFile::Party(PartyFile::parse(text, file)?),
            Game::Ruunara => BuildFile::Squad(SquadFile::parse(text, file)?),
            Game::Arcadia if is_setup(file, &header) => BuildFile::Setup(SetupFile::parse(text, file)?),
            Game::Arcadia => BuildFile::Character(CharacterFile::parse(text, file)?),
            Game::Iconoclasm => {
                return Err(CardError::at(
                    file,
                    text,
                    &["game"],
                    "Iconoclasm has no party, character, setup or squad files; select or play its cards directly".into(),
                ));
            }
        })
    }
}

fn is_setup(file: &str, header: &toml::Table) -> bool {
    if file.ends_with(".setup.toml") {
        true
    } else if file.ends_with(".character.toml") {
        false
    } else {
        header.contains_key("players") || header.contains_key("leagues")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const CHARACTER: &str = "game = \"arcadia\"\nname = \"Esekial\"\n";
    const SETUP: &str = "game = \"arcadia\"\n[[players]]\ncharacter = \"a.character.toml\"\n[[players]]\ncharacter = \"b.character.toml\"\n";

    #[test]
    fn the_game_key_and_the_suffix_tell_the_kind() {
        let party = "game = \"iconica\"\nmembers = [\"ico-a\"]\n";
        assert!(matches!(BuildFile::parse(party, "p.toml"), Ok(BuildFile::Party(_))));
        let squad = "game = \"ruunara\"\nmode = \"free\"\n";
        assert!(matches!(BuildFile::parse(squad, "s.toml"), Ok(BuildFile::Squad(_))));
        assert!(matches!(BuildFile::parse(CHARACTER, "e.toml"), Ok(BuildFile::Character(_))));
        // Without a telling suffix, `players` makes a setup.
        assert!(matches!(BuildFile::parse(SETUP, "q.toml"), Ok(BuildFile::Setup(_))));
        // The suffix wins over the keys: a character file with `players` is a bad character.
        assert!(BuildFile::parse(SETUP, "q.character.toml").unwrap_err().message.contains("players"));
        assert!(matches!(BuildFile::parse(CHARACTER, "e.setup.toml"), Err(_)));
    }

    #[test]
    fn a_file_of_no_build_kind_is_an_error_at_its_game_key() {
        let e = BuildFile::parse("name = \"x\"\n", "x.toml").unwrap_err();
        assert!(e.message.contains("missing key `game`"), "{e}");
        let e = BuildFile::parse("\ngame = \"chess\"\n", "x.toml").unwrap_err();
        assert_eq!((e.line, e.key.as_deref()), (2, Some("game")));
        let e = BuildFile::parse("game = \"iconoclasm\"\n", "x.toml").unwrap_err();
        assert!(e.message.contains("Iconoclasm has no"), "{e}");
    }
}
