//! Iconoclasm card format (`spec/other-games.md`): double-sided element cards and the clash table.

use serde::{Deserialize, Serialize};

use crate::cards::Problem;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Element {
    Fire,
    Water,
    Earth,
    Air,
}

impl Element {
    pub const ALL: [Element; 4] = [Element::Fire, Element::Water, Element::Earth, Element::Air];
    pub fn name(self) -> &'static str {
        match self {
            Element::Fire => "fire",
            Element::Water => "water",
            Element::Earth => "earth",
            Element::Air => "air",
        }
    }
}

/// An element card (`kind = "element"`): a front face and a back face.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ElementCard {
    pub game: String,
    pub kind: String,
    pub id: String,
    pub name: String,
    pub front: Element,
    pub back: Element,
    pub set: Element,
    /// A picture drawn on both faces in place of the element's sign (see `docs/cards.md`,
    /// "Art"); `portrait` is accepted as another name for it.
    #[serde(default, alias = "portrait", skip_serializing_if = "Option::is_none")]
    pub art: Option<String>,
}

impl ElementCard {
    pub fn is_double(&self) -> bool {
        self.front != self.back
    }
}

/// The clash table (`cards/iconoclasm/clashes.toml`, `kind = "clashes"`): data a user may correct.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClashTable {
    pub game: String,
    pub kind: String,
    pub clash: Vec<ClashRow>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClashRow {
    pub element: Element,
    /// The element this one flips.
    pub flips: Element,
    /// The element this one flips mutually with (both turn over).
    pub mutual: Element,
}

/// What happens when `a` (the placed card's face) clashes with neighbour `b`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Clash {
    /// `b` flips.
    FlipsOther,
    /// `a` flips.
    FlipsSelf,
    /// Both flip.
    Mutual,
    /// Nothing happens.
    None,
}

impl ClashTable {
    /// The table of `spec/other-games.md`.
    pub fn standard() -> ClashTable {
        use Element::*;
        let row = |element, flips, mutual| ClashRow {
            element,
            flips,
            mutual,
        };
        ClashTable {
            game: "iconoclasm".into(),
            kind: "clashes".into(),
            clash: vec![
                row(Fire, Earth, Water),
                row(Earth, Water, Air),
                row(Water, Air, Fire),
                row(Air, Fire, Earth),
            ],
        }
    }

    pub fn clash(&self, a: Element, b: Element) -> Clash {
        let row = |e: Element| self.clash.iter().find(|r| r.element == e);
        if row(a).is_some_and(|r| r.mutual == b) || row(b).is_some_and(|r| r.mutual == a) {
            Clash::Mutual
        } else if row(a).is_some_and(|r| r.flips == b) {
            Clash::FlipsOther
        } else if row(b).is_some_and(|r| r.flips == a) {
            Clash::FlipsSelf
        } else {
            Clash::None
        }
    }

    pub fn problems(&self) -> Vec<Problem> {
        let mut out = Vec::new();
        for e in Element::ALL {
            let n = self.clash.iter().filter(|r| r.element == e).count();
            if n != 1 {
                out.push(Problem::at(
                    &["clash", "element"],
                    format!(
                        "element `{}` has {n} rows in the clash table; it needs exactly one",
                        e.name()
                    ),
                ));
            }
        }
        for r in &self.clash {
            if r.flips == r.element || r.mutual == r.element || r.flips == r.mutual {
                out.push(Problem::at(
                    &["clash", "element"],
                    format!(
                        "row of `{}`: an element flips another element, and flips mutually with a third",
                        r.element.name()
                    ),
                ));
            }
        }
        out
    }
}
