//! Chance for every game: where die faces come from (a seeded RNG or a script of faces),
//! and the seeds of a run's games and of a match's streams. An engine never makes its own
//! randomness: every die comes from the [`Dice`] source handed in, so a seed or a script
//! replays a match exactly.
//!
//! One convention for every face: the chance of a match seeded `s` that its position does
//! not fix ([`super::game::Game::dealt`]) is drawn in order from one stream,
//! [`RngDice::new`]`(s)`. `play --seed s`, the Match screen's session, a hosted match,
//! `health`'s reproductions and match `i` of a `sim` run (seeded `game_seed(run, i)`) all
//! draw so; a session keeps the stream's position at every input ([`RngDice::position`]), so
//! an undo or a reopened match draws the same again.

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Maps a die face to a pick among `n` (`random_foe`, a drawn card) as a dice script does.
#[inline]
pub fn face_to_pick(face: u8, n: u8) -> u8 {
    (face.max(1) - 1) % n.max(1)
}

/// The seed of game `index` of a run seeded `seed` (SplitMix64 of both).
pub fn game_seed(seed: u64, index: u64) -> u64 {
    let mut z =
        seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ index.wrapping_add(0x632B_E59B_D9B4_E019);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Derives independent seeds from one (SplitMix64 of seed and stream): the streams of one
/// played match (dice, each seat's policy).
pub fn derive_seed(seed: u64, stream: u64) -> u64 {
    let mut z = seed
        ^ stream
            .wrapping_mul(0x9E37_79B9_7F4A_7C15)
            .wrapping_add(0xD1B5_4A32_D192_ED03);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Where die faces come from.
pub trait Dice {
    /// A face 1-6, or `None` when a script has run out.
    fn die(&mut self) -> Option<u8>;
    /// `random_foe`: an index in `0..n`.
    fn pick(&mut self, n: u8) -> Option<u8>;
}

impl<D: Dice + ?Sized> Dice for &mut D {
    #[inline]
    fn die(&mut self) -> Option<u8> {
        (**self).die()
    }
    #[inline]
    fn pick(&mut self, n: u8) -> Option<u8> {
        (**self).pick(n)
    }
}

/// Seeded dice: the same seed rolls the same faces.
#[derive(Debug, Clone)]
pub struct RngDice(pub ChaCha8Rng);

impl RngDice {
    /// The stream of a match seeded `seed`, at its start.
    pub fn new(seed: u64) -> RngDice {
        RngDice(ChaCha8Rng::seed_from_u64(seed))
    }

    /// How far the stream has been drawn (in 32-bit words): with [`RngDice::seek`], the
    /// stream as it was at an earlier input.
    pub fn position(&self) -> u128 {
        self.0.get_word_pos()
    }

    /// The stream put back (or on) to `position` ([`RngDice::position`]).
    pub fn seek(&mut self, position: u128) {
        self.0.set_word_pos(position);
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
#[error(
    "dice script: `{0}` is not a die face (1 to 6); write faces separated by spaces or commas, e.g. \"3 5 2 6\""
)]
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
        self.die().map(|f| face_to_pick(f, n))
    }
}
