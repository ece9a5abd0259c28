//! The clash table as a compact lookup (built from the data in `cards/iconoclasm/clashes.toml`).

use crate::games::iconoclasm::model::{Clash, ClashTable, Element};

/// Index of an element in [`Element::ALL`].
pub fn index(e: Element) -> usize {
    match e {
        Element::Fire => 0,
        Element::Water => 1,
        Element::Earth => 2,
        Element::Air => 3,
    }
}

/// `Clash` for every (placed face, neighbour face) pair.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Clashes([[Clash; 4]; 4]);

impl Clashes {
    pub fn new(table: &ClashTable) -> Clashes {
        let mut m = [[Clash::None; 4]; 4];
        for a in Element::ALL {
            for b in Element::ALL {
                m[index(a)][index(b)] = if a == b { Clash::None } else { table.clash(a, b) };
            }
        }
        Clashes(m)
    }

    /// What happens when the placed card's face `mine` clashes with a neighbour showing `theirs`.
    pub fn get(&self, mine: Element, theirs: Element) -> Clash {
        self.0[index(mine)][index(theirs)]
    }
}

/// Short lower-case name of a clash result.
pub fn clash_name(c: Clash) -> &'static str {
    match c {
        Clash::FlipsOther => "flips_other",
        Clash::FlipsSelf => "flips_self",
        Clash::Mutual => "mutual",
        Clash::None => "none",
    }
}
