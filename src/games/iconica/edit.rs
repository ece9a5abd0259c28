//! Structured edits of an Iconica character, as a card form makes them: the health meter's
//! tiles and what each carries, nullifiers and reactions set tile by tile, roll numbers
//! toggled per action, the names the format writes for each value; and reading a character
//! whose values have the right types but may still break the format's rules (a form keeps
//! working on it while the strict parser says what is wrong).

use super::model::{Character, Health, Nullifier, Roll};
use crate::cards::{Card, CardError};

/// Why a text cannot be edited as an Iconica character form.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FormError {
    /// The text is another game's card, or not a character.
    #[error(
        "the form edits Iconica characters, Arcadia cards and Ruunara figures; this text is a `{game}` `{kind}`: edit it in the Source view"
    )]
    NotACharacter { game: String, kind: String },
    /// The text does not read as a character (bad TOML, a missing key, a value of the wrong type).
    #[error("{0}")]
    Unreadable(CardError),
}

/// Reads `text` as an Iconica character, its keys and value types checked but not the rules
/// of `Character::problems` (tile values, roll coverage...): the strict parser
/// (`cards::parse_card`) reports those.
pub fn read(text: &str, file: &str) -> Result<Character, FormError> {
    let table: toml::Table = toml::from_str(text)
        .map_err(|e| FormError::Unreadable(CardError::from_toml(file, text, &e)))?;
    let word = |k: &str| {
        table
            .get(k)
            .and_then(|v| v.as_str())
            .unwrap_or("")
            .to_string()
    };
    let (game, kind) = (word("game"), word("kind"));
    if game != "iconica" || kind != "character" {
        return Err(FormError::NotACharacter { game, kind });
    }
    toml::from_str(text).map_err(|e| FormError::Unreadable(CardError::from_toml(file, text, &e)))
}

/// The character as the TOML of its card file (the catalogue's writer: comments and the
/// layout of a hand-written file are not kept).
pub fn write(c: &Character) -> String {
    Card::Iconica(c.clone()).to_toml()
}

pub use crate::games::word;

impl Health {
    /// The meter as the card shows it: Start, then every multiple of 10 down to the Skull (0).
    /// Empty when `start` is not a positive multiple of 10.
    pub fn meter(&self) -> Vec<u32> {
        if self.start == 0 || !self.start.is_multiple_of(10) {
            return Vec::new();
        }
        (0..=self.start / 10).rev().map(|i| i * 10).collect()
    }

    /// True when `tile` may carry a nullifier or a reaction (strictly between 0 and Start).
    pub fn is_marked_tile(&self, tile: u32) -> bool {
        tile > 0 && tile < self.start && tile.is_multiple_of(10)
    }

    /// The nullifiers on `tile`, in the format's order.
    pub fn nullifiers_at(&self, tile: u32) -> Vec<Nullifier> {
        Nullifier::ALL
            .into_iter()
            .filter(|&n| self.has(n, tile))
            .collect()
    }

    fn tiles_mut(&mut self, n: Nullifier) -> &mut Vec<u32> {
        match n {
            Nullifier::Parry => &mut self.parry,
            Nullifier::Antidote => &mut self.antidote,
            Nullifier::Courage => &mut self.courage,
            Nullifier::Evasion => &mut self.evasion,
            Nullifier::Focus => &mut self.focus,
            Nullifier::Clarity => &mut self.clarity,
        }
    }

    /// Puts nullifier `n` on `tile` (`on`) or takes it off; the list is kept from the top of
    /// the meter down, each tile once.
    pub fn set_nullifier(&mut self, n: Nullifier, tile: u32, on: bool) {
        let tiles = self.tiles_mut(n);
        tiles.retain(|&t| t != tile);
        if on {
            tiles.push(tile);
            tiles.sort_unstable_by(|a, b| b.cmp(a));
        }
    }

    /// Makes `tile` a Reaction tile dealing `damage`, or no Reaction tile (`None`); any other
    /// spelling of the same tile (`" 80"`) is replaced.
    pub fn set_reaction(&mut self, tile: u32, damage: Option<u32>) {
        self.reaction
            .retain(|k, _| k.trim().parse::<u32>().ok() != Some(tile));
        if let Some(d) = damage {
            self.reaction.insert(tile.to_string(), d);
        }
    }

    /// Tile values the card lists (nullifiers, reactions) that are not on its meter or not
    /// allowed there: what a change of Start left behind.
    pub fn stray_tiles(&self) -> Vec<u32> {
        let mut out: Vec<u32> = Nullifier::ALL
            .into_iter()
            .flat_map(|n| self.tiles(n).iter().copied())
            .chain(self.reactions().map(|(t, _)| t))
            .filter(|&t| !self.is_marked_tile(t))
            .collect();
        out.sort_unstable_by(|a, b| b.cmp(a));
        out.dedup();
        out
    }

    /// Takes every nullifier and the reaction off `tile`.
    pub fn clear_tile(&mut self, tile: u32) {
        for n in Nullifier::ALL {
            self.set_nullifier(n, tile, false);
        }
        self.set_reaction(tile, None);
    }
}

impl Roll {
    /// This roll with number `n` added (`on`) or removed; one number is written as a number,
    /// several as a list in order.
    pub fn with(&self, n: u8, on: bool) -> Roll {
        let mut v = self.numbers();
        v.retain(|&x| x != n);
        if on {
            v.push(n);
        }
        v.sort_unstable();
        v.dedup();
        match v.as_slice() {
            [one] => Roll::One(*one),
            _ => Roll::Many(v),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::parse_card;
    use crate::games::iconica::model::{ActionKind, Class, Faction, Rarity};
    use proptest::prelude::*;

    fn kethra() -> Character {
        crate::games::iconica::bundled_characters()
            .into_iter()
            .find(|c| c.id == "ico-kethra-voss")
            .expect("Kethra Voss is bundled")
    }

    fn strict(text: &str) -> Character {
        match parse_card(text, "t.toml") {
            Ok(Card::Iconica(c)) => c,
            other => panic!("{other:?}\n{text}"),
        }
    }

    #[test]
    fn the_meter_runs_from_start_to_the_skull_one_tile_every_ten() {
        let mut h = kethra().health;
        assert_eq!(h.start, 120);
        let m = h.meter();
        assert_eq!(m.len(), 13);
        assert_eq!((m[0], m[12]), (120, 0));
        assert!(m.windows(2).all(|w| w[0] == w[1] + 10));
        assert!(!h.is_marked_tile(120) && !h.is_marked_tile(0) && h.is_marked_tile(110));
        h.start = 125;
        assert!(h.meter().is_empty());
    }

    #[test]
    fn nullifiers_are_set_and_cleared_per_tile_top_down_once_each() {
        let mut h = kethra().health;
        assert_eq!(h.nullifiers_at(100), vec![Nullifier::Parry]);
        h.set_nullifier(Nullifier::Parry, 70, true);
        h.set_nullifier(Nullifier::Parry, 70, true);
        assert_eq!(h.parry, vec![100, 70, 40]);
        h.set_nullifier(Nullifier::Focus, 70, true);
        assert_eq!(
            h.nullifiers_at(70),
            vec![Nullifier::Parry, Nullifier::Focus]
        );
        h.set_nullifier(Nullifier::Parry, 100, false);
        assert_eq!(h.parry, vec![70, 40]);
        h.clear_tile(70);
        assert!(h.nullifiers_at(70).is_empty());
    }

    #[test]
    fn a_reaction_replaces_other_spellings_of_its_tile() {
        let mut h = kethra().health;
        h.reaction.insert(" 50".into(), 10);
        h.set_reaction(50, Some(30));
        assert_eq!(h.reaction.get("50"), Some(&30));
        assert_eq!(h.reaction.len(), 2);
        h.set_reaction(20, None);
        assert_eq!(h.reaction_at(20), None);
        assert_eq!(h.reactions().collect::<Vec<_>>(), vec![(50, 30)]);
    }

    #[test]
    fn lowering_start_leaves_stray_tiles_that_the_strict_parser_rejects() {
        let mut c = kethra();
        c.health.start = 70;
        assert_eq!(c.health.stray_tiles(), vec![100, 80]);
        let err = parse_card(&write(&c), "t.toml").unwrap_err();
        assert!(
            err.message.contains("strictly between 0 and start (70)"),
            "{err}"
        );
        assert_eq!(
            read(&write(&c), "t.toml").unwrap(),
            c,
            "the form still reads it"
        );
        for t in c.health.stray_tiles() {
            c.health.clear_tile(t);
        }
        strict(&write(&c));
    }

    #[test]
    fn rolls_toggle_numbers_one_written_as_a_number() {
        let r = Roll::Many(vec![3, 4]);
        assert_eq!(r.with(4, false), Roll::One(3));
        assert_eq!(Roll::One(3).with(1, true), Roll::Many(vec![1, 3]));
        assert_eq!(Roll::One(3).with(3, false), Roll::Many(vec![]));
        let mut c = kethra();
        c.actions[2].roll = c.actions[2].roll.with(4, false);
        let err = parse_card(&write(&c), "t.toml").unwrap_err();
        assert!(err.message.contains("no action covers roll 4"), "{err}");
    }

    #[test]
    fn words_are_the_formats_and_other_cards_are_not_forms() {
        assert_eq!(word(&Faction::Protectorate), "protectorate");
        assert_eq!(word(&Rarity::Legend), "legend");
        assert_eq!(word(&ActionKind::Healing), "healing");
        assert_eq!(word(&Class::Adaptive), "adaptive");
        let arcadia = crate::cards::templates::all()
            .into_iter()
            .find(|t| t.game == crate::cards::Game::Arcadia)
            .expect("an Arcadia template");
        assert!(matches!(
            read(arcadia.text, "t.toml"),
            Err(FormError::NotACharacter { game, .. }) if game == "arcadia"
        ));
        let err = read("game = \"iconica\"\nkind = \"character\"\n", "t.toml").unwrap_err();
        assert!(matches!(err, FormError::Unreadable(_)), "{err}");
    }

    proptest! {
        /// Form edits written through the core read back, strictly, as the edited card.
        #[test]
        fn form_edits_round_trip_through_toml(
            who in 0usize..64,
            faction in 0usize..3,
            class in 0usize..5,
            rarity in 0usize..5,
            kind in 0usize..6,
            name in "[A-Za-z][A-Za-z '\"#\\\\-]{0,20}",
            marks in proptest::collection::vec((0usize..6, 1u32..40, any::<bool>()), 0..8),
            reactions in proptest::collection::vec((1u32..40, proptest::option::of(1u32..6)), 0..4),
        ) {
            let all = crate::games::iconica::bundled_characters();
            let mut c = all[who % all.len()].clone();
            c.faction = Faction::ALL[faction];
            c.class = Class::ALL[class];
            c.rarity = Rarity::ALL[rarity];
            c.actions[0].kind = ActionKind::ALL[kind];
            c.name = name;
            let top = c.health.start / 10;
            for (n, t, on) in marks {
                c.health.set_nullifier(Nullifier::ALL[n], (1 + t % (top - 1)) * 10, on);
            }
            for (t, d) in reactions {
                c.health.set_reaction((1 + t % (top - 1)) * 10, d.map(|d| d * 10));
            }
            let text = write(&c);
            prop_assert_eq!(strict(&text), c.clone());
            prop_assert_eq!(read(&text, "t.toml").unwrap(), c);
        }
    }
}
