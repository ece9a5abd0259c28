//! What a card's text says that the engine does not play, said aloud wherever the card is
//! used (`validate`, `play`, `sim`, `lint`, the match view): card text supersedes the
//! rules, so a text shown and not enforced must never pass for played.
//!
//! A Ruunara skill with no `effect` form is shown and not played (every bundled skill has
//! one: issue #25); texts the data can express only in part, and Arcadia texts no effect
//! form says yet, are listed here by card (and `docs/rulings.md` says each). Iconica's
//! texts are all played, and so are the bundled Arcadia texts and Ruunara skills; an
//! Arcadia league's `special` or waylay trial's `failure` text that no data says is named
//! from the card itself.

use serde::Serialize;

use crate::cards::Card;
use crate::games::arcadia::model::ArcadiaCard;

/// A part of a card's text the engine does not play.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Gap {
    /// The card's id and name.
    pub card: String,
    pub name: String,
    /// Which part: a skill's name, or the words of the text.
    pub part: String,
    /// What the engine does instead.
    pub why: String,
}

impl Gap {
    /// The gap in one line: "Bogspawn Slinger (ru-bogspawn-slinger): Skulk: shown, not played".
    pub fn line(&self) -> String {
        format!("{} ({}): {}: {}", self.name, self.card, self.part, self.why)
    }
}

/// Texts played only in part: (card id, skill name, what is not played). Every bundled
/// skill is played whole (issue #25), so the list is empty; a part found later goes here.
const RUUNARA_PARTS: &[(&str, &str, &str)] = &[];

/// Bundled Arcadia texts whose data a catalogue made before the engine played them may
/// still lack (bundled cards already in a catalogue are kept as they are): (card id, the
/// words, what the engine does without the data, whether `card` says it). The bundled
/// cards say every one, so they have no gap.
type Says = fn(&crate::games::arcadia::model::ArcadiaCard) -> bool;
const ARCADIA: &[(&str, &str, &str, Says)] = &[
    (
        "arc-q-a-choice-of-roads",
        "\"carry them to the mountains\"",
        "the treasures need not still be held when the mountains are reached (no `hold_treasures`; re-import the bundled card)",
        |c| matches!(c, ArcadiaCard::Quest(q) if holds_treasures(&q.objective)),
    ),
    (
        "arc-q-lantern-keepers-errand",
        "\"before the spark in your chest goes out\"",
        "no time limit is played (no `time_limit`; re-import the bundled card)",
        |c| matches!(c, ArcadiaCard::Quest(q) if q.time_limit.is_some()),
    ),
    (
        "arc-q-the-scattered-hoard",
        "\"before the cog armies melt them down\"",
        "no time limit is played (no `time_limit`; re-import the bundled card)",
        |c| matches!(c, ArcadiaCard::Quest(q) if q.time_limit.is_some()),
    ),
];

/// Whether `o` asks for treasures still held somewhere in it.
fn holds_treasures(o: &crate::games::arcadia::model::Objective) -> bool {
    use crate::games::arcadia::model::Objective;
    match o {
        Objective::HoldTreasures(_) => true,
        Objective::All(v) | Objective::Any(v) | Objective::Then(v) => v.iter().any(holds_treasures),
        _ => false,
    }
}

/// The parts of an Arcadia card's text no data says, found from the card itself: a league's
/// `special` text with no `effects`, a waylay trial's `failure` text with no `effect`.
fn arcadia_unplayed(
    card: &crate::games::arcadia::model::ArcadiaCard,
) -> Vec<(String, &'static str)> {
    use crate::games::arcadia::model::ArcadiaCard;
    match card {
        ArcadiaCard::League(l) if l.effects.is_empty() => l
            .special
            .iter()
            .map(|t| {
                (
                    format!("\"{t}\""),
                    "shown, not played (the league has no `effects` saying it)",
                )
            })
            .collect(),
        ArcadiaCard::Waylay(w) => w
            .trial
            .iter()
            .filter(|t| t.effect.is_none())
            .filter_map(|t| t.failure.as_ref())
            .map(|f| {
                (
                    format!("\"{f}\""),
                    "shown, not played (the trial has no failure `effect`: failing costs nothing)",
                )
            })
            .collect(),
        _ => Vec::new(),
    }
}

/// Every part of `card`'s text the engine does not play.
pub fn of_card(card: &Card) -> Vec<Gap> {
    let gap = |part: &str, why: &str| Gap {
        card: card.id().to_string(),
        name: card.name().to_string(),
        part: part.to_string(),
        why: why.to_string(),
    };
    match card {
        Card::Ruunara(f) => f
            .skills
            .iter()
            .filter_map(|s| match s.effect {
                None => Some(gap(&s.name, "shown, not played (no effect form says it)")),
                Some(_) => RUUNARA_PARTS
                    .iter()
                    .find(|(id, skill, _)| *id == f.id && *skill == s.name)
                    .map(|(_, _, why)| gap(&s.name, why)),
            })
            .collect(),
        Card::Arcadia(a) => ARCADIA
            .iter()
            .filter(|(id, _, _, says)| *id == card.id() && !says(a))
            .map(|(_, part, why, _)| gap(part, why))
            .chain(arcadia_unplayed(a).iter().map(|(part, why)| gap(part, why)))
            .collect(),
        Card::Iconica(_) | Card::Iconoclasm(_) => Vec::new(),
    }
}

/// The gaps of `cards`, each card once (in the order first met).
pub fn of_cards<'a>(cards: impl IntoIterator<Item = &'a Card>) -> Vec<Gap> {
    each_once(cards).flat_map(of_card).collect()
}

/// `cards`, each id once (the first met): a card in use twice is said once.
pub fn each_once<'a>(cards: impl IntoIterator<Item = &'a Card>) -> impl Iterator<Item = &'a Card> {
    let mut seen = std::collections::HashSet::new();
    cards
        .into_iter()
        .filter(move |c| seen.insert(c.id().to_string()))
}

/// A note for a face to print when `gaps` is not empty: how many texts, then each.
pub fn note(gaps: &[Gap]) -> Option<String> {
    if gaps.is_empty() {
        return None;
    }
    let mut s = format!(
        "{} in use {} not fully played (card text supersedes the rules; docs/rulings.md):",
        crate::count(gaps.len() as u64, "card text", "card texts"),
        if gaps.len() == 1 { "is" } else { "are" }
    );
    for g in gaps {
        s.push_str("\n  ");
        s.push_str(&g.line());
    }
    Some(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bundled() -> Vec<Card> {
        crate::cards::bundled()
            .into_iter()
            .filter(|(f, _)| f.ends_with(".toml"))
            .filter_map(|(f, text)| match crate::cards::parse(text, &f) {
                Ok(crate::cards::CardFile::Card(c)) => Some(c),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn every_listed_card_is_bundled_and_every_bundled_skill_without_a_form_is_named() {
        let cards = bundled();
        let ids: Vec<&str> = cards.iter().map(|c| c.id()).collect();
        for id in RUUNARA_PARTS
            .iter()
            .map(|x| x.0)
            .chain(ARCADIA.iter().map(|x| x.0))
        {
            assert!(ids.contains(&id), "{id} is listed but not bundled");
        }
        let gaps = of_cards(&cards);
        // Every bundled Ruunara skill is played, racial skills included (issue #25).
        assert!(!gaps.iter().any(|g| g.card.starts_with("ru-")), "{gaps:?}");
        for race in crate::games::ruunara::races::races() {
            for s in &race.skills {
                assert!(s.resolved_effect().is_some(), "{}", s.name);
            }
        }
        // A designer's skill with no effect form is named.
        let text_only = crate::cards::parse(
            "game = \"ruunara\"\nkind = \"unit\"\nid = \"ru-x\"\nname = \"X\"\nrace = \"ghoul\"\nfaction = \"enemy\"\nhp = 1\nmovement = 1\nvision = 1\nclose = \"1D6+\"\n[[skills]]\nname = \"Skulk\"\ncycle = \"constant\"\ntext = \"Hides.\"\n",
            "x.toml",
        );
        let Ok(crate::cards::CardFile::Card(c)) = text_only else {
            panic!("{text_only:?}");
        };
        assert_eq!(of_card(&c)[0].part, "Skulk");
        // Every bundled Arcadia text is played (issue #25).
        assert!(!gaps.iter().any(|g| g.card.starts_with("arc-")), "{gaps:?}");
        // Iconica's texts are all played.
        assert!(!gaps.iter().any(|g| g.card.starts_with("ico-")));
        // A designer's league with a special text and no effects, a waylay with a failure
        // text and no effect: each named.
        let league = crate::cards::parse(
            "game = \"arcadia\"\nkind = \"league\"\nid = \"arc-l-x\"\nname = \"X\"\ntext = \"\"\nterrain = [\"forest\"]\nrest = []\nspecial = \"No one sleeps here.\"\n[sides]\nnorth = [\"forest\"]\neast = [\"forest\"]\nsouth = [\"forest\"]\nwest = [\"forest\"]\n",
            "x.toml",
        );
        let waylay = crate::cards::parse(
            "game = \"arcadia\"\nkind = \"waylay\"\nid = \"arc-w-x\"\nname = \"Y\"\ntext = \"\"\nrating = 1\nterrain = [\"any\"]\ntests = [\"might\"]\nmight = 2\ntrial = { attribute = \"might\", difficulty = 4, failure = \"Lose a boot.\" }\n",
            "y.toml",
        );
        for (file, part) in [
            (league, "\"No one sleeps here.\""),
            (waylay, "\"Lose a boot.\""),
        ] {
            let Ok(crate::cards::CardFile::Card(c)) = file else {
                panic!("{file:?}");
            };
            let g = of_card(&c);
            assert_eq!(g.len(), 1, "{g:?}");
            assert_eq!(g[0].part, part);
        }
        let two = [of_card(&c), of_card(&c)].concat();
        assert!(note(&two).unwrap().starts_with("2 card texts in use are"));
        assert_eq!(note(&[]), None);
    }
}
