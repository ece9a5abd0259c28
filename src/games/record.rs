//! A match as a small file: the game, its options, who sat at each seat, the seed and every
//! input (decisions and chance outcomes) in order. The inputs alone, applied to the same start
//! through the [`Game`] interface, replay the match exactly, so a record is the same for every
//! game: each game only says what its `options` table holds (docs/cards.md, "Match records").
//!
//! Records are TOML, written through the one durable write path ([`crate::safe_io`]) and read
//! back with a size limit; [`checked_replay`] refuses an input a position does not have
//! instead of trusting the file.

use std::path::Path;

use serde::{Deserialize, Serialize};
use thiserror::Error;

use super::game::{Game, Turn};

/// The record format this program writes (and the only one it reads).
pub const FORMAT: u32 = 1;
/// The largest record file read (bytes).
pub const MAX_RECORD_FILE: u64 = 8 << 20;
/// The most inputs a record may hold.
pub const MAX_INPUTS: usize = 1_000_000;

/// One match: enough to replay it exactly.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MatchRecord {
    /// [`FORMAT`].
    pub format: u32,
    /// The game's command-line name ([`Game::NAME`]: `iconica`, `iconoclasm`, ...).
    pub game: String,
    /// The seed the match was played with (chance and the computer's decisions).
    pub seed: u64,
    /// Who took each seat's decisions: `person`, or a policy name (`greedy`, ...).
    #[serde(default)]
    pub seats: Vec<String>,
    /// Every input from the start, in order: option indices and chance outcomes.
    pub inputs: Vec<usize>,
    /// The game's own options (parties, rules, deal), as the game documents them.
    #[serde(default)]
    pub options: toml::Table,
}

/// Why a record cannot be read or replayed.
#[derive(Debug, Error)]
pub enum RecordError {
    #[error("the match file cannot be read")]
    Read(#[from] crate::safe_io::InputError),
    #[error("the match file cannot be written")]
    Write(#[from] std::io::Error),
    #[error("the match file is not a match record")]
    Toml(#[from] toml::de::Error),
    #[error("the match file has format {0}; this program reads format {FORMAT}")]
    Format(u32),
    #[error("the match file is of {found}, not {wanted}")]
    Game { found: String, wanted: String },
    #[error("the match file has {0} inputs; at most {MAX_INPUTS} are read")]
    TooLong(usize),
    #[error("input {at} of the match file ({input}) is not a legal input there")]
    Illegal { at: usize, input: usize },
    #[error("the match file's options are not valid: {0}")]
    Options(String),
}

impl MatchRecord {
    /// A record of `game` with `seed`, no seats, inputs or options yet.
    pub fn new(game: &str, seed: u64) -> MatchRecord {
        MatchRecord {
            format: FORMAT,
            game: game.to_string(),
            seed,
            seats: Vec::new(),
            inputs: Vec::new(),
            options: toml::Table::new(),
        }
    }

    /// The record as TOML text.
    pub fn to_toml(&self) -> String {
        toml::to_string(self).expect("a record is plain data")
    }

    /// Reads a record from TOML text, checking its format and size.
    pub fn parse(text: &str) -> Result<MatchRecord, RecordError> {
        let r: MatchRecord = toml::from_str(text)?;
        if r.format != FORMAT {
            return Err(RecordError::Format(r.format));
        }
        if r.inputs.len() > MAX_INPUTS {
            return Err(RecordError::TooLong(r.inputs.len()));
        }
        Ok(r)
    }

    /// Checks that the record is of `game`.
    pub fn expect_game(&self, game: &str) -> Result<(), RecordError> {
        if self.game == game {
            Ok(())
        } else {
            Err(RecordError::Game {
                found: self.game.clone(),
                wanted: game.to_string(),
            })
        }
    }

    /// Writes the record to `path` atomically (a reader sees the old file or the new one).
    pub fn save(&self, path: &Path) -> Result<(), RecordError> {
        crate::safe_io::write_atomic(path, self.to_toml().as_bytes())?;
        Ok(())
    }

    /// Reads the record at `path` (a regular file of at most [`MAX_RECORD_FILE`] bytes).
    pub fn load(path: &Path) -> Result<MatchRecord, RecordError> {
        let text = crate::safe_io::read_text(path, MAX_RECORD_FILE, "a match file")?;
        MatchRecord::parse(&text)
    }
}

/// `start` with `inputs` applied, each checked against what the position takes (an option
/// index below the seat's count, a chance outcome below the chance's count, nothing after the
/// end): a record from a file never drives the engine outside its legal inputs.
pub fn checked_replay<G: Game>(start: &G, inputs: &[usize]) -> Result<G, RecordError> {
    let mut g = start.clone();
    for (at, &input) in inputs.iter().enumerate() {
        let legal = match g.turn() {
            Turn::Seat { options, .. } => options,
            Turn::Chance(c) => c.outcomes(),
            Turn::Over => 0,
        };
        if input >= legal {
            return Err(RecordError::Illegal { at, input });
        }
        g.apply(input);
    }
    Ok(g)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_record_reads_back_as_written() {
        let mut r = MatchRecord::new("iconica", 7);
        r.seats = vec!["person".into(), "greedy".into()];
        r.inputs = vec![3, 0, 1, 5];
        r.options.insert("ruleset".into(), "v2".into());
        let back = MatchRecord::parse(&r.to_toml()).unwrap();
        assert_eq!(back, r);
    }

    #[test]
    fn another_format_or_an_unknown_key_is_refused() {
        let mut r = MatchRecord::new("iconica", 1);
        r.format = 2;
        assert!(matches!(
            MatchRecord::parse(&r.to_toml()),
            Err(RecordError::Format(2))
        ));
        let text = "format = 1\ngame = \"iconica\"\nseed = 1\ninputs = []\nspeed = 3\n";
        assert!(matches!(
            MatchRecord::parse(text),
            Err(RecordError::Toml(_))
        ));
    }
}
