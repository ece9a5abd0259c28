//! What every game's construction rules share: the `Violation` a check reports, resolving a
//! list entry (an id, else an exact name) to a catalogue card, and reading build files
//! (parties, characters, setups, squads) strictly with positioned errors.

use std::borrow::Cow;
use std::collections::HashMap;

use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::cards::{Card, CardError, CardLookup, Game};

/// One broken construction rule: the rule id of the spec, a sentence a player understands
/// naming the cards involved, those cards (ids, or the entry as written when it names no
/// card), and where the rule comes from (rule text and section).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Violation {
    pub rule: &'static str,
    pub message: String,
    pub cards: Vec<String>,
    pub source: &'static str,
}

impl Violation {
    pub fn new(
        rule: &'static str,
        message: String,
        cards: Vec<String>,
        source: &'static str,
    ) -> Violation {
        Violation {
            rule,
            message,
            cards,
            source,
        }
    }
}

/// Where the `unknown-card` and `wrong-kind` rules come from: the project's contract.
pub const SOURCE_LISTS: &str =
    "deckwright spec: a listed card must be in the catalogue and of the kind its list needs";

/// What a list entry names.
#[derive(Debug, Clone, PartialEq)]
#[allow(clippy::large_enum_variant)] // short-lived; boxing would cost an allocation per entry
pub enum Resolved<'a> {
    /// A card: of the entry's game when one matched, else the card of another game whose id
    /// the entry is (the caller reports it as of the wrong kind or game).
    Found(Cow<'a, Card>),
    /// No card has this id, and no card of the game has this name.
    NotFound,
    /// Several cards of the game share this name (their ids).
    Ambiguous(Vec<String>),
}

/// Resolves a list entry: a card id first (of `game`), then an exact, case-sensitive name
/// among the cards of `game` (a name shared by several cards is ambiguous), then an id of a
/// card of another game.
pub fn resolve<'a>(lookup: &'a dyn CardLookup, game: Game, entry: &str) -> Resolved<'a> {
    let by_id = match lookup.card(entry) {
        Some(card) if card.game() == game => return Resolved::Found(card),
        other => other,
    };
    let mut named = lookup.cards_named(game, entry);
    match named.len() {
        0 => match by_id {
            Some(card) => Resolved::Found(card),
            None => Resolved::NotFound,
        },
        1 => Resolved::Found(named.pop().expect("one")),
        _ => {
            let mut ids: Vec<String> = named.iter().map(|c| c.id().to_string()).collect();
            ids.sort();
            Resolved::Ambiguous(ids)
        }
    }
}

/// `Name (id)`, the way messages name a card.
pub fn label(card: &Card) -> String {
    format!("{} ({})", card.name(), card.id())
}

/// The sentence of an `unknown-card` violation for an entry that resolved to no card.
pub fn unknown_message(entry: &str, what: &str, game: Game, resolved: &Resolved<'_>) -> String {
    match resolved {
        Resolved::Ambiguous(ids) => format!(
            "`{entry}` is the name of {} {} cards ({}); write the id of the one you mean",
            ids.len(),
            game.title(),
            ids.join(", ")
        ),
        _ => format!(
            "`{entry}` is not in the catalogue: no card has this id and no {} card has this exact name; check the spelling or import the card ({what})",
            game.title()
        ),
    }
}

/// Cards held in memory with id and name indexes: a pre-resolved set for builders that
/// check on every keystroke (a `Vec<Card>` lookup scans the list).
#[derive(Debug, Clone, Default)]
pub struct CardIndex {
    cards: Vec<Card>,
    by_id: HashMap<String, usize>,
    by_name: HashMap<(Game, String), Vec<usize>>,
}

impl CardIndex {
    pub fn new(cards: Vec<Card>) -> CardIndex {
        let mut by_id = HashMap::new();
        let mut by_name: HashMap<(Game, String), Vec<usize>> = HashMap::new();
        for (i, c) in cards.iter().enumerate() {
            by_id.insert(c.id().to_string(), i);
            by_name
                .entry((c.game(), c.name().to_string()))
                .or_default()
                .push(i);
        }
        CardIndex {
            cards,
            by_id,
            by_name,
        }
    }

    pub fn cards(&self) -> &[Card] {
        &self.cards
    }
}

impl CardLookup for CardIndex {
    fn card(&self, id: &str) -> Option<Cow<'_, Card>> {
        self.by_id.get(id).map(|&i| Cow::Borrowed(&self.cards[i]))
    }
    fn cards_named(&self, game: Game, name: &str) -> Vec<Cow<'_, Card>> {
        self.by_name
            .get(&(game, name.to_string()))
            .map(|ix| ix.iter().map(|&i| Cow::Borrowed(&self.cards[i])).collect())
            .unwrap_or_default()
    }
}

/// A lookup that keeps every card it answers with: what a match was built from, so its
/// record rebuilds it without the catalogue.
pub struct Keeping<'a> {
    inner: &'a dyn CardLookup,
    kept: std::cell::RefCell<Vec<Card>>,
}

impl<'a> Keeping<'a> {
    pub fn new(inner: &'a dyn CardLookup) -> Keeping<'a> {
        Keeping {
            inner,
            kept: std::cell::RefCell::new(Vec::new()),
        }
    }

    fn keep(&self, c: &Card) {
        let mut kept = self.kept.borrow_mut();
        if !kept.iter().any(|k| k == c) {
            kept.push(c.clone());
        }
    }

    /// Every card answered with, in the order first asked.
    pub fn into_kept(self) -> Vec<Card> {
        self.kept.into_inner()
    }
}

impl CardLookup for Keeping<'_> {
    fn card(&self, id: &str) -> Option<Cow<'_, Card>> {
        let c = self.inner.card(id)?;
        self.keep(&c);
        Some(c)
    }
    fn cards_named(&self, game: Game, name: &str) -> Vec<Cow<'_, Card>> {
        let cs = self.inner.cards_named(game, name);
        for c in &cs {
            self.keep(c);
        }
        cs
    }
    fn take_error(&self) -> Option<Box<dyn std::error::Error + Send + Sync>> {
        self.inner.take_error()
    }
}

/// Cards as a match record keeps them: each card's TOML text.
pub fn cards_value(cards: &[Card]) -> toml::Value {
    toml::Value::Array(cards.iter().map(|c| c.to_toml().into()).collect())
}

/// The cards a match record keeps (`options.cards`), each read as strictly as an imported
/// card file and of `game`.
pub fn cards_of(options: &toml::Table, game: Game) -> Result<Vec<Card>, String> {
    options
        .get("cards")
        .and_then(toml::Value::as_array)
        .ok_or("`cards` is not a list")?
        .iter()
        .enumerate()
        .map(|(k, c)| {
            let t = c.as_str().ok_or(format!("card {k} is not a text"))?;
            match crate::cards::parse_card(t, "the match file") {
                Ok(c) if c.game() == game => Ok(c),
                Ok(c) => Err(format!("card {k} ({}) is not of {}", c.id(), game.title())),
                Err(e) => Err(format!("card {k}: {e}")),
            }
        })
        .collect()
}

/// Reads a build file's TOML into its struct: unknown keys, wrong types and bad syntax are
/// errors naming the file, line, column and key.
pub fn from_toml<T: DeserializeOwned>(text: &str, file: &str) -> Result<T, CardError> {
    toml::from_str(text).map_err(|e| CardError::from_toml(file, text, &e))
}

/// Checks the `game` key of a build file: it must be present and name `game`.
pub fn expect_game(
    text: &str,
    file: &str,
    got: &str,
    game: Game,
    what: &str,
) -> Result<(), CardError> {
    if got == game.as_str() {
        Ok(())
    } else {
        Err(CardError::at(
            file,
            text,
            &["game"],
            format!(
                "{what} must have game = \"{}\", found `{got}`",
                game.as_str()
            ),
        ))
    }
}

/// Serialises a build file back to TOML (the app saves builders this way).
pub fn to_toml<T: Serialize>(value: &T) -> String {
    toml::to_string(value).expect("build files serialise to TOML")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn squad_card(id: &str, name: &str) -> Card {
        let text = format!(
            "game = \"ruunara\"\nkind = \"unit\"\nid = \"{id}\"\nname = \"{name}\"\nrace = \"ardann\"\nfaction = \"ally\"\nhp = 3\nmovement = 4\nvision = 8\nclose = \"2D4+\"\n"
        );
        crate::cards::parse_card(&text, "test").expect("test card parses")
    }

    #[test]
    fn id_wins_over_name_and_shared_names_are_ambiguous() {
        let cards = vec![
            squad_card("ru-a", "Twin"),
            squad_card("ru-b", "Twin"),
            squad_card("ru-twin", "ru-a"),
        ];
        match resolve(&cards, Game::Ruunara, "ru-a") {
            Resolved::Found(c) => assert_eq!(c.id(), "ru-a"),
            other => panic!("expected ru-a, got {other:?}"),
        }
        assert_eq!(
            resolve(&cards, Game::Ruunara, "Twin"),
            Resolved::Ambiguous(vec!["ru-a".into(), "ru-b".into()])
        );
        assert_eq!(resolve(&cards, Game::Ruunara, "Nobody"), Resolved::NotFound);
        assert_eq!(resolve(&cards, Game::Iconica, "Twin"), Resolved::NotFound);
    }

    #[test]
    fn the_index_finds_what_the_list_finds() {
        let cards = vec![
            squad_card("ru-a", "Twin"),
            squad_card("ru-b", "Twin"),
            squad_card("ru-c", "C"),
        ];
        let index = CardIndex::new(cards.clone());
        for entry in ["ru-a", "Twin", "C", "nobody"] {
            assert_eq!(
                resolve(&index, Game::Ruunara, entry),
                resolve(&cards, Game::Ruunara, entry),
                "{entry}"
            );
        }
    }

    #[test]
    fn an_id_of_another_game_is_found_for_the_caller_to_reject() {
        let cards = vec![squad_card("ru-a", "A")];
        match resolve(&cards, Game::Iconica, "ru-a") {
            Resolved::Found(c) => assert_eq!(c.game(), Game::Ruunara),
            other => panic!("expected the Ruunara card, got {other:?}"),
        }
    }
}
