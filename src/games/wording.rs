//! Whether each card's rules text names what its effects do (`deckwright lint`, the card
//! editor): the numbers, statuses and targets a text names and no effect has, or the
//! reverse. Each game that writes its texts from effect templates checks its own cards
//! (Iconica: `iconica::text`; Arcadia: `arcadia::text`, the tests, terrain and cost too;
//! Ruunara: `ruunara::text`, numbers and distances); a game's cards with no effect forms
//! have nothing to compare (what they leave unplayed is `gaps`' to say).

use serde::Serialize;

use crate::cards::Card;

/// One effect form as `docs/effects.md` lists it: its keys, the template its text is
/// written from, and an example (its table as the card file writes it).
pub struct Form {
    pub name: &'static str,
    pub keys: &'static str,
    pub template: &'static str,
    pub example: &'static str,
}

/// A text and its effects disagreeing.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Mismatch {
    /// The card's id and name.
    pub card: String,
    pub name: String,
    /// Which text: `actions[2] (Rallying Horn)`, `strengths[0]`, `final_act`.
    pub part: String,
    /// What disagrees.
    pub why: String,
}

impl Mismatch {
    /// In one line: "Anwen Halloway (ico-anwen-halloway): actions[0] (Staff Sweep): ...".
    pub fn line(&self) -> String {
        format!("{} ({}): {}: {}", self.name, self.card, self.part, self.why)
    }
}

/// Where `card`'s texts and effects disagree.
pub fn of_card(card: &Card) -> Vec<Mismatch> {
    match card {
        Card::Iconica(c) => super::iconica::text::mismatches(c)
            .into_iter()
            .map(|m| Mismatch {
                card: c.id.clone(),
                name: c.name.clone(),
                part: m.part,
                why: m.why,
            })
            .collect(),
        Card::Arcadia(c) => {
            let (id, name, _) = c.common();
            super::arcadia::text::mismatches(c)
                .into_iter()
                .map(|m| Mismatch {
                    card: id.to_string(),
                    name: name.to_string(),
                    part: m.part,
                    why: m.why,
                })
                .collect()
        }
        Card::Ruunara(f) => super::ruunara::text::mismatches(f)
            .into_iter()
            .map(|(part, why)| Mismatch {
                card: f.id.clone(),
                name: f.name.clone(),
                part,
                why,
            })
            .collect(),
        Card::Iconoclasm(_) => Vec::new(),
    }
}

/// [`of_card`] of each card once (by id).
pub fn of_cards<'a>(cards: impl IntoIterator<Item = &'a Card>) -> Vec<Mismatch> {
    super::gaps::each_once(cards).flat_map(of_card).collect()
}

/// `docs/effects.md`: every effect form with a text template, game by game, with its keys,
/// its template and an example (generated; a test fails when the file is out of date).
pub fn reference() -> String {
    let mut s = String::from(
        "# Effect forms\n\n\
         Generated from the code (`games::wording::reference`); `cargo test effects_md` fails \
         when this file is out of date, and `UPDATE_DOCS=1 cargo test effects_md` writes it \
         again. Each form's text template is what the card editor's *Write text from effects* \
         writes, and what `deckwright lint` holds a card's text to: the numbers, statuses and \
         targets a text names must be its effects' (docs/cards.md has each game's card format).\n\n\
         Iconoclasm's elements have no effects to write.\n\n",
    );
    s.push_str(&super::iconica::text::reference());
    s.push('\n');
    s.push_str(&super::arcadia::text::reference());
    s.push('\n');
    s.push_str(&super::ruunara::text::reference());
    s
}

#[cfg(test)]
mod tests {
    #[test]
    fn effects_md_is_generated_from_the_code() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/effects.md");
        let want = super::reference();
        if std::env::var_os("UPDATE_DOCS").is_some() {
            std::fs::write(&path, &want).unwrap();
        }
        let have = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            have == want,
            "docs/effects.md is out of date: run `UPDATE_DOCS=1 cargo test effects_md`"
        );
    }
}
