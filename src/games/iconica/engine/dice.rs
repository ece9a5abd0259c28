//! Dice sources: a seeded RNG (ChaCha8) or a script of faces.

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::io::face_to_pick;

/// Where die faces come from.
pub trait Dice {
    /// A face 1-6, or `None` when a script has run out.
    fn die(&mut self) -> Option<u8>;
    /// `random_foe`: an index in `0..n`.
    fn pick(&mut self, n: u8) -> Option<u8>;
}

/// Seeded dice: the same seed rolls the same faces.
#[derive(Debug, Clone)]
pub struct RngDice(pub ChaCha8Rng);

impl RngDice {
    pub fn new(seed: u64) -> RngDice {
        RngDice(ChaCha8Rng::seed_from_u64(seed))
    }
}

impl Dice for RngDice {
    #[inline]
    fn die(&mut self) -> Option<u8> {
        Some(self.0.random_range(1..=6u8))
    }
    #[inline]
    fn pick(&mut self, n: u8) -> Option<u8> {
        Some(self.0.random_range(0..n.max(1)))
    }
}

/// Scripted faces, consumed in order; `random_foe` consumes one face.
#[derive(Debug, Clone, Default)]
pub struct ScriptDice {
    pub faces: Vec<u8>,
    pub pos: usize,
}

/// A dice script that is not a list of faces 1-6.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("dice script: `{0}` is not a die face (1 to 6); write faces separated by spaces or commas, e.g. \"3 5 2 6\"")]
pub struct BadFace(pub String);

impl ScriptDice {
    /// Parses "3 5 2 6" (spaces and/or commas).
    pub fn parse(text: &str) -> Result<ScriptDice, BadFace> {
        let faces = text
            .split(|c: char| c.is_whitespace() || c == ',')
            .filter(|s| !s.is_empty())
            .map(|s| match s.parse::<u8>() {
                Ok(f) if (1..=6).contains(&f) => Ok(f),
                _ => Err(BadFace(s.to_string())),
            })
            .collect::<Result<Vec<u8>, BadFace>>()?;
        Ok(ScriptDice { faces, pos: 0 })
    }
}

impl Dice for ScriptDice {
    fn die(&mut self) -> Option<u8> {
        let f = *self.faces.get(self.pos)?;
        self.pos += 1;
        Some(f)
    }
    fn pick(&mut self, n: u8) -> Option<u8> {
        self.die().map(|f| face_to_pick(f, n.max(1)))
    }
}
