//! Racial skills (rule text 003, "Racial Skills"; `spec/ruunara.md`, "Added in the third
//! round"): each playable race's two skills, data in `races.toml` (`[[races]]`, each skill
//! written as a card's `[[skills]]`), applied to every hero of that race beside its card's
//! own skills when a mission deploys the squad ([`with_racial_skills`]).

use std::sync::OnceLock;

use serde::Deserialize;

use super::model::{Figure, Skill};

/// The bundled races data.
pub const RACES_TOML: &str = include_str!("races.toml");

/// One race and its skills.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Race {
    /// The race as a card's `race` names it.
    pub race: String,
    /// The race's name shown to people.
    pub name: String,
    /// Its two skills.
    pub skills: Vec<Skill>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RacesFile {
    races: Vec<Race>,
}

/// Reads races data (the bundled file, or a test's); the error says where it is wrong.
pub fn parse(text: &str) -> Result<Vec<Race>, String> {
    toml::from_str::<RacesFile>(text)
        .map(|f| f.races)
        .map_err(|e| format!("races.toml: {e}"))
}

/// The bundled races (their file is checked by the tests, so it always reads).
pub fn races() -> &'static [Race] {
    static RACES: OnceLock<Vec<Race>> = OnceLock::new();
    RACES.get_or_init(|| parse(RACES_TOML).unwrap_or_default())
}

/// The racial skills of `race` (none for a race without any: an enemy's or a neutral's).
pub fn racial_skills(race: &str) -> &'static [Skill] {
    races()
        .iter()
        .find(|r| r.race == race)
        .map_or(&[], |r| r.skills.as_slice())
}

/// A squad member's card with its race's skills after its own (the card's skill names
/// first, as a match's log numbers them).
pub fn with_racial_skills(mut card: Figure) -> Figure {
    card.skills
        .extend(racial_skills(&card.race).iter().cloned());
    card
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::ruunara::model::PLAYABLE_RACES;

    #[test]
    fn every_playable_race_has_two_applied_skills_one_a_fight_and_one_a_game() {
        let races = parse(RACES_TOML).unwrap();
        assert_eq!(races.len(), PLAYABLE_RACES.len());
        for r in PLAYABLE_RACES {
            let skills = racial_skills(r);
            assert_eq!(skills.len(), 2, "{r}");
            for s in skills {
                assert!(s.resolved_effect().is_some(), "{r}: {}", s.name);
                assert!(s.cycle().is_some(), "{r}: {}", s.name);
            }
            let mut cycles: Vec<&str> = skills.iter().map(|s| s.cycle.as_str()).collect();
            cycles.sort();
            assert_eq!(cycles, ["1/F", "1/G"], "{r}");
        }
        assert!(racial_skills("ghoul").is_empty());
    }

    #[test]
    fn races_data_with_an_unknown_key_is_refused_naming_it() {
        let e =
            parse("[[races]]\nrace = \"x\"\nname = \"X\"\nskills = []\ncolour = 1\n").unwrap_err();
        assert!(e.contains("colour"), "{e}");
    }
}
