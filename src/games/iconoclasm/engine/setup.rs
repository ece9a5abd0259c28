//! The 16-card deck and the deal for 1 to 4 players (rule card 1 and the solo rules).
//!
//! Randomness comes only from the source passed to [`deal`]: the singles are drawn in a
//! shuffled order (the draw gives each player an element) and, solo, the deck is shuffled.

use std::sync::Arc;

use rand::Rng;
use rand::seq::SliceRandom;
use thiserror::Error;

use super::clash::{Clashes, index};
use crate::games::iconoclasm::model::{ClashTable, Element, ElementCard};

/// Cards in a full set.
pub const CARDS: usize = 16;

/// Why a game cannot be set up.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SetupError {
    #[error("Iconoclasm is for 1 to 4 players, not {0}; use --players 1, 2, 3 or 4")]
    Players(u8),
    #[error("the solo deck order must list each of the 16 cards once")]
    Pile,
    #[error("the Iconoclasm cards lack {0}; import it (the bundled set is in cards/iconoclasm/)")]
    Missing(String),
}

/// The solo goals.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Goal {
    /// End with 7 connected cards of one element.
    Dominance,
    /// End with 4 of each element face up.
    Balance,
}

impl Goal {
    pub fn name(self) -> &'static str {
        match self {
            Goal::Dominance => "dominance",
            Goal::Balance => "balance",
        }
    }
    pub fn parse(s: &str) -> Option<Goal> {
        match s {
            "dominance" => Some(Goal::Dominance),
            "balance" => Some(Goal::Balance),
            _ => None,
        }
    }
}

/// The 16 cards in a fixed order: for each element of [`Element::ALL`] (its set), the single,
/// then its doubles by their other element in [`Element::ALL`] order. Card `i` is in set `i / 4`.
/// The cards are shared: every game of a run deals from one deck, and a clone copies none.
#[derive(Debug, Clone, PartialEq)]
pub struct Deck {
    pub cards: Arc<[ElementCard]>,
}

impl Deck {
    /// Picks the set out of `cards` (other games' cards are ignored): per element, a single of
    /// its set and one double of its set with each other element on the other face. Where
    /// several cards fit, the lowest id is taken.
    pub fn from_cards(cards: &[ElementCard]) -> Result<Deck, SetupError> {
        let mut out = Vec::with_capacity(CARDS);
        for set in Element::ALL {
            let others = Element::ALL.into_iter().filter(|e| *e != set);
            for other in std::iter::once(set).chain(others) {
                let fits = |c: &&ElementCard| {
                    c.game == "iconoclasm"
                        && c.set == set
                        && ((c.front == set && c.back == other)
                            || (c.back == set && c.front == other))
                };
                let found = cards.iter().filter(fits).min_by(|a, b| a.id.cmp(&b.id));
                match found {
                    Some(c) => out.push(c.clone()),
                    None if other == set => {
                        return Err(SetupError::Missing(format!(
                            "the single {} card (set {0})",
                            set.name()
                        )));
                    }
                    None => {
                        return Err(SetupError::Missing(format!(
                            "a double card of the {} set with {} on its other face",
                            set.name(),
                            other.name()
                        )));
                    }
                }
            }
        }
        Ok(Deck { cards: out.into() })
    }

    /// The standard set built from the rules (for tests and tools): the ids and faces of the
    /// bundled `cards/iconoclasm/` files (`icl-<set>`, `icl-<set>-<other>`, the set's element
    /// on the front), with plain names.
    pub fn standard() -> Deck {
        let mut cards = Vec::new();
        for set in Element::ALL {
            for other in Element::ALL {
                let (id, name) = if other == set {
                    (
                        format!("icl-{}", set.name()),
                        format!("{} Single", cap(set)),
                    )
                } else {
                    (
                        format!("icl-{}-{}", set.name(), other.name()),
                        format!("{} over {}", cap(set), cap(other)),
                    )
                };
                cards.push(ElementCard {
                    game: "iconoclasm".into(),
                    kind: "element".into(),
                    id,
                    name,
                    front: set,
                    back: other,
                    set,
                    art: None,
                });
            }
        }
        Deck::from_cards(&cards).unwrap_or(Deck {
            cards: cards.into(),
        })
    }

    /// The two faces of every card, front then back.
    pub fn faces(&self) -> [[Element; 2]; CARDS] {
        std::array::from_fn(|i| {
            self.cards
                .get(i)
                .map_or([Element::Fire; 2], |c| [c.front, c.back])
        })
    }

    /// The four cards of a set (the single first).
    pub fn set(&self, e: Element) -> [u8; 4] {
        let s = index(e) as u8 * 4;
        [s, s + 1, s + 2, s + 3]
    }

    /// The double of `set` whose other face is `other`.
    pub fn double(&self, set: Element, other: Element) -> u8 {
        let s = index(set) * 4;
        (s + 1..s + 4)
            .find(|&i| self.cards[i].front == other || self.cards[i].back == other)
            .unwrap_or(s) as u8
    }
}

fn cap(e: Element) -> String {
    let n = e.name();
    n[..1].to_uppercase() + &n[1..]
}

/// Everything fixed at the start of a game.
#[derive(Debug, Clone, PartialEq)]
pub struct Setup {
    pub deck: Deck,
    pub clashes: Clashes,
    /// 1 to 4.
    pub players: u8,
    /// The singles in the order they were drawn.
    pub drawn: [Element; 4],
    /// The player owning each element (by [`index`]); `None`: no player (3 players: the undrawn one).
    pub owner: [Option<u8>; 4],
    /// Each element's place in turn order for scoring ties (lower is earlier; no owner is last).
    pub order: [u8; 4],
    /// Each player's cards (bit `i` = card `i`).
    pub hands: [u16; 4],
    /// 3 players: the undrawn single, placed on the table first.
    pub table_card: Option<u8>,
    /// Solo: the goal.
    pub goal: Option<Goal>,
    /// Solo: the shuffled deck, top card first.
    pub draw_pile: Vec<u8>,
}

/// Deals a game: shuffles the singles (their order is the draw) and, solo, the deck.
pub fn deal<R: Rng + ?Sized>(
    deck: Deck,
    table: &ClashTable,
    players: u8,
    goal: Goal,
    rng: &mut R,
) -> Result<Setup, SetupError> {
    let mut drawn = Element::ALL;
    drawn.shuffle(rng);
    let mut pile: Vec<u8> = (0..CARDS as u8).collect();
    if players == 1 {
        pile.shuffle(rng);
    }
    Setup::new(deck, table, players, drawn, goal, pile)
}

impl Setup {
    /// A game with the singles drawn in the order `drawn`: player `i` draws `drawn[i]` (2 players:
    /// player 1 draws `drawn[0]` and `drawn[2]`, player 2 `drawn[1]` and `drawn[3]`; 3 players:
    /// `drawn[3]` stays undrawn). `pile` is the solo deck, top first (ignored otherwise).
    pub fn new(
        deck: Deck,
        table: &ClashTable,
        players: u8,
        drawn: [Element; 4],
        goal: Goal,
        pile: Vec<u8>,
    ) -> Result<Setup, SetupError> {
        if !(1..=4).contains(&players) {
            return Err(SetupError::Players(players));
        }
        let mut owner = [None; 4];
        let mut order = [u8::MAX; 4];
        let mut hands = [0u16; 4];
        let mut table_card = None;
        let bits = |cards: &[u8]| cards.iter().fold(0u16, |m, c| m | 1 << c);
        match players {
            1 => owner = [Some(0); 4],
            2 | 4 => {
                for (k, e) in drawn.iter().enumerate() {
                    let p = (k % players as usize) as u8;
                    owner[index(*e)] = Some(p);
                    order[index(*e)] = p * 4 + k as u8;
                    hands[p as usize] |= bits(&deck.set(*e));
                }
            }
            _ => {
                let absent = drawn[3];
                for (p, e) in drawn[..3].iter().enumerate() {
                    owner[index(*e)] = Some(p as u8);
                    order[index(*e)] = p as u8;
                    hands[p] = bits(&deck.set(*e)) | 1 << deck.double(absent, *e);
                }
                table_card = Some(deck.set(absent)[0]);
            }
        }
        let draw_pile = if players == 1 {
            let mut sorted = pile.clone();
            sorted.sort_unstable();
            if sorted != (0..CARDS as u8).collect::<Vec<_>>() {
                return Err(SetupError::Pile);
            }
            pile
        } else {
            Vec::new()
        };
        let goal = (players == 1).then_some(goal);
        Ok(Setup {
            clashes: Clashes::new(table),
            deck,
            players,
            drawn,
            owner,
            order,
            hands,
            table_card,
            goal,
            draw_pile,
        })
    }

    /// The elements a player drew, in draw order.
    pub fn elements_of(&self, player: u8) -> Vec<Element> {
        self.drawn
            .iter()
            .copied()
            .filter(|e| self.owner[index(*e)] == Some(player))
            .collect()
    }
}
