//! Small caches that keep the core's answers between frames: card names for the builders'
//! lists, and a builder's verdict until its document changes. A frame then draws from
//! memory; the core runs only when something changed.

use std::cell::RefCell;
use std::collections::HashMap;

use super::core;
use crate::catalogue::Catalogue;

/// Card names by id (`None`: no such card), cleared when the catalogue's cards change.
#[derive(Default)]
pub struct CardNames {
    map: RefCell<HashMap<String, Option<String>>>,
}

impl CardNames {
    /// The name of the card `id` (looked up once).
    pub fn name(&self, cat: &Catalogue, id: &str) -> Option<String> {
        if let Some(n) = self.map.borrow().get(id) {
            return n.clone();
        }
        let n = core::card(cat, id).map(|c| c.name().to_string());
        self.map.borrow_mut().insert(id.to_string(), n.clone());
        n
    }

    pub fn clear(&self) {
        self.map.borrow_mut().clear();
    }
}

/// A value computed from a key (a document's TOML), kept until the key changes.
pub struct Memo<T> {
    key: Option<(u64, String)>,
    value: Option<T>,
}

impl<T> Default for Memo<T> {
    fn default() -> Self {
        Memo {
            key: None,
            value: None,
        }
    }
}

impl<T: Clone> Memo<T> {
    /// The value for `key` under catalogue `generation`, computed by `f` when either changed.
    pub fn get(&mut self, generation: u64, key: String, f: impl FnOnce() -> T) -> T {
        let k = (generation, key);
        if self.key.as_ref() != Some(&k) || self.value.is_none() {
            self.value = Some(f());
            self.key = Some(k);
        }
        self.value.clone().expect("set above")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn memo_recomputes_only_when_the_key_or_generation_changes() {
        let mut m = Memo::default();
        let mut runs = 0;
        for (g, k) in [(0, "a"), (0, "a"), (0, "b"), (1, "b"), (1, "b")] {
            m.get(g, k.to_string(), || {
                runs += 1;
                runs
            });
        }
        assert_eq!(runs, 3);
    }

    #[test]
    fn names_are_looked_up_and_unknown_ids_remembered() {
        let cat = Catalogue::open_in_memory().unwrap();
        let names = CardNames::default();
        assert_eq!(
            names.name(&cat, "ico-grumbolt").as_deref(),
            Some("Grumbolt")
        );
        assert_eq!(names.name(&cat, "no-such-card"), None);
        names.clear();
        assert_eq!(
            names.name(&cat, "ico-grumbolt").as_deref(),
            Some("Grumbolt")
        );
    }
}
