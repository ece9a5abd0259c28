//! Templates for new cards: one valid card file per kind of every game, kept as data in
//! `assets/templates/<game>-<kind>.toml` and built into the binary. The card editor starts a
//! new card from one of them.

use super::Game;

/// A card file to start a new card from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Template {
    pub game: Game,
    pub kind: &'static str,
    /// The card file's text (a valid card, with comments saying what to change).
    pub text: &'static str,
}

static DIR: include_dir::Dir<'static> =
    include_dir::include_dir!("$CARGO_MANIFEST_DIR/assets/templates");

/// The template for every kind of every game, in the order of [`Game::ALL`] and
/// [`Game::kinds`].
pub fn all() -> Vec<Template> {
    Game::ALL
        .into_iter()
        .flat_map(|game| game.kinds().iter().map(move |&kind| (game, kind)))
        .filter_map(|(game, kind)| get(game, kind))
        .collect()
}

/// The template for one kind of card, if there is one.
pub fn get(game: Game, kind: &str) -> Option<Template> {
    let file = DIR.get_file(format!("{}-{kind}.toml", game.as_str()))?;
    let kind = game.kinds().iter().find(|k| **k == kind)?;
    Some(Template {
        game,
        kind,
        text: file.contents_utf8()?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::bundled;

    #[test]
    fn every_kind_of_every_game_has_a_template() {
        let n: usize = Game::ALL.iter().map(|g| g.kinds().len()).sum();
        assert_eq!(all().len(), n);
        assert!(get(Game::Iconica, "no-such-kind").is_none());
    }

    #[test]
    fn every_template_is_a_card_the_strict_parser_accepts() {
        for t in all() {
            let file = format!("{}-{}.toml", t.game, t.kind);
            let card = super::super::parse_card(t.text, &file).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!((card.game(), card.kind()), (t.game, t.kind), "{file}");
            assert!(!card.name().is_empty(), "{file}");
            // Saving a template unchanged adds a card; it never replaces a bundled one.
            assert!(
                !bundled()
                    .iter()
                    .any(|(_, text)| text.contains(&format!("id = \"{}\"", card.id()))),
                "{file}"
            );
        }
    }
}
