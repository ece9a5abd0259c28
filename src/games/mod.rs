//! The games: each folder holds one game's card model, construction rules, engine and
//! evaluation. Every engine implements the one game interface, [`game::Game`] (OpenSpiel-like:
//! whose turn, legal decisions in words, apply, chance from a [`dice::Dice`] source handed in,
//! a typed outcome), so the shared policies of [`ai`], the sim runner, the command line and
//! the app serve every game alike. No game imports another game's code.

pub mod ai;
pub mod any;
pub mod arcadia;
pub mod build;
pub mod conformance;
pub mod dice;
pub mod files;
pub mod game;
pub mod gaps;
pub mod iconica;
pub mod iconoclasm;
pub mod owned;
pub mod pig;
pub mod record;
pub mod registry;
pub mod report;
pub mod run;
pub mod ruunara;
pub mod session;
pub mod wording;

use serde_json::Value;

/// The word a card format writes for a value (`"legion"`, `"melee"`, `"rare"`...).
pub fn word<T: serde::Serialize>(value: &T) -> String {
    match toml::Value::try_from(value) {
        Ok(toml::Value::String(s)) => s,
        Ok(other) => other.to_string(),
        Err(_) => String::new(),
    }
}

/// One event of a match log as `play --json` prints it: its own fields (`fields`, an
/// object), its `type` and its `text` (a sentence).
pub fn event_json(kind: &str, fields: Value, text: String) -> Value {
    match fields {
        Value::Object(mut map) => {
            map.insert("type".into(), Value::String(kind.into()));
            map.insert("text".into(), Value::String(text));
            Value::Object(map)
        }
        other => other,
    }
}

/// How a match ended: its JSON names are the `ended` values of `play --json` and `sim`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Ended {
    Victory,
    DiceExhausted,
    TurnLimit,
}

impl Ended {
    pub fn as_str(self) -> &'static str {
        match self {
            Ended::Victory => "victory",
            Ended::DiceExhausted => "dice_exhausted",
            Ended::TurnLimit => "turn_limit",
        }
    }
}

impl game::Ending for Ended {
    const ALL: &'static [Ended] = &[Ended::Victory, Ended::TurnLimit, Ended::DiceExhausted];
    fn name(self) -> &'static str {
        self.as_str()
    }
}
