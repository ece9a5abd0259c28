//! Structured edits of Arcadia cards, as the card editor's form makes them: reading a card
//! whose keys and value types are right but which may still break the format's rules (the
//! form keeps working on it while the strict parser says what is wrong), writing it back,
//! and the edits that keep the fields of a card consistent (a merit's type and the keys that
//! go with it, a waylay's tests, a league's sides and rest types).

use super::model::{
    ArcadiaCard, Attribute, Court, Flaw, FlawType, KINDS, League, Merit, MeritType, REST_TYPES,
    Side, TestKind, Waylay,
};
use crate::cards::{Card, CardError};

pub use crate::games::word;

/// Why a text cannot be edited as an Arcadia card form.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FormError {
    /// The text is another game's card, or no Arcadia card kind.
    #[error(
        "the form edits Arcadia cards; this text is a `{game}` `{kind}`: edit it in the Source view"
    )]
    NotArcadia { game: String, kind: String },
    /// The text does not read as the card (bad TOML, a missing key, a value of the wrong type).
    #[error("{0}")]
    Unreadable(CardError),
}

/// Reads `text` as an Arcadia card of its `kind`, keys and value types checked but not the
/// rules of `ArcadiaCard::problems` (an ability merit's court...): the strict parser
/// (`cards::parse_card`) reports those.
pub fn read(text: &str, file: &str) -> Result<ArcadiaCard, FormError> {
    let unreadable =
        |e: &toml::de::Error| FormError::Unreadable(CardError::from_toml(file, text, e));
    let table: toml::Table = toml::from_str(text).map_err(|e| unreadable(&e))?;
    let key = |k: &str| {
        table
            .get(k)
            .and_then(|v| v.as_str())
            .unwrap_or("")
            .to_string()
    };
    let (game, kind) = (key("game"), key("kind"));
    if game != "arcadia" || !KINDS.contains(&kind.as_str()) {
        return Err(FormError::NotArcadia { game, kind });
    }
    let card = match kind.as_str() {
        "icon" => toml::from_str(text).map(ArcadiaCard::Icon),
        "merit" => toml::from_str(text).map(ArcadiaCard::Merit),
        "flaw" => toml::from_str(text).map(ArcadiaCard::Flaw),
        "waylay" => toml::from_str(text).map(ArcadiaCard::Waylay),
        "league" => toml::from_str(text).map(ArcadiaCard::League),
        _ => toml::from_str(text).map(ArcadiaCard::Quest),
    };
    card.map_err(|e| unreadable(&e))
}

/// The card as the TOML of its card file (the catalogue's writer: comments and the layout
/// of a hand-written file are not kept).
pub fn write(c: &ArcadiaCard) -> String {
    Card::Arcadia(c.clone()).to_toml()
}

/// The name, id and text of any Arcadia card, to edit.
pub fn common_mut(c: &mut ArcadiaCard) -> (&mut String, &mut String, &mut String) {
    match c {
        ArcadiaCard::Icon(x) => (&mut x.name, &mut x.id, &mut x.text),
        ArcadiaCard::Merit(x) => (&mut x.name, &mut x.id, &mut x.text),
        ArcadiaCard::Flaw(x) => (&mut x.name, &mut x.id, &mut x.text),
        ArcadiaCard::Waylay(x) => (&mut x.name, &mut x.id, &mut x.text),
        ArcadiaCard::League(x) => (&mut x.name, &mut x.id, &mut x.text),
        ArcadiaCard::Quest(x) => (&mut x.name, &mut x.id, &mut x.text),
    }
}

impl Merit {
    /// Makes the merit of type `t`, keeping only the keys that type has: an ability gets an
    /// attribute and a court (might / seelie unless it had them), an art keeps its art, an ally
    /// its combat.
    pub fn set_type(&mut self, t: MeritType) {
        self.merit_type = t;
        if t == MeritType::Ability {
            self.attribute.get_or_insert(Attribute::Might);
            self.court.get_or_insert(Court::Seelie);
        } else {
            self.attribute = None;
            self.court = None;
        }
        if t != MeritType::Art {
            self.art = None;
        }
        if t != MeritType::Ally {
            self.combat = None;
        }
    }
}

impl Flaw {
    /// Makes the flaw of type `t`: a weakness gets a court (seelie unless it had one), the
    /// others have none.
    pub fn set_type(&mut self, t: FlawType) {
        self.flaw_type = t;
        if t == FlawType::Weakness {
            self.court.get_or_insert(Court::Seelie);
        } else {
            self.court = None;
        }
    }
}

impl Waylay {
    /// Lets the player choose test `t` (`on`) or not; the list keeps the format's order
    /// (might, resolve, savvy, combat).
    pub fn set_test(&mut self, t: TestKind, on: bool) {
        self.tests.retain(|&x| x != t);
        if on {
            self.tests.push(t);
        }
        self.tests
            .sort_by_key(|x| TestKind::ALL.iter().position(|a| a == x));
    }

    /// Sets the waylay's value for test `t` (`None`: that test can never be used).
    pub fn set_value(&mut self, t: TestKind, value: Option<i32>) {
        *match t {
            TestKind::Might => &mut self.might,
            TestKind::Savvy => &mut self.savvy,
            TestKind::Resolve => &mut self.resolve,
            TestKind::Combat => &mut self.combat,
        } = value;
    }
}

/// Adds `feature` (trimmed) to `list` unless it is empty or already there; true when added.
pub fn add_feature(list: &mut Vec<String>, feature: &str) -> bool {
    let f = feature.trim();
    if f.is_empty() || list.iter().any(|x| x == f) {
        return false;
    }
    list.push(f.to_string());
    true
}

impl League {
    /// Adds `feature` to `side`; true when it was not there.
    pub fn add_side_feature(&mut self, side: Side, feature: &str) -> bool {
        add_feature(self.sides.get_mut(side), feature)
    }

    /// Takes `feature` off `side`; true when it was there.
    pub fn remove_side_feature(&mut self, side: Side, feature: &str) -> bool {
        let list = self.sides.get_mut(side);
        let before = list.len();
        list.retain(|f| f != feature);
        list.len() != before
    }

    /// Lets characters recover `rest` type `r` here (`on`) or not; the list keeps the order
    /// of [`REST_TYPES`] (unknown words the text had stay, last, for the parser to report).
    pub fn set_rest(&mut self, r: &str, on: bool) {
        self.rest.retain(|x| x != r);
        if on {
            self.rest.push(r.to_string());
        }
        self.rest.sort_by_key(|x| {
            REST_TYPES
                .iter()
                .position(|a| a == x)
                .unwrap_or(REST_TYPES.len())
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::parse_card;
    use crate::games::arcadia::model::{LeagueTrial, Quest};
    use proptest::prelude::*;

    fn bundled() -> Vec<ArcadiaCard> {
        crate::cards::bundled()
            .into_iter()
            .filter_map(|(file, text)| match parse_card(text, &file) {
                Ok(Card::Arcadia(c)) => Some(c),
                _ => None,
            })
            .collect()
    }

    fn bundled_of(kind: &str) -> Vec<ArcadiaCard> {
        bundled().into_iter().filter(|c| c.kind() == kind).collect()
    }

    fn strict(text: &str) -> ArcadiaCard {
        match parse_card(text, "t.toml") {
            Ok(Card::Arcadia(c)) => c,
            other => panic!("{other:?}\n{text}"),
        }
    }

    fn league(id: &str) -> League {
        match bundled().into_iter().find(|c| c.common().0 == id) {
            Some(ArcadiaCard::League(l)) => l,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn every_bundled_card_reads_and_writes_back_as_itself() {
        let all = bundled();
        assert!(all.len() > 60, "{}", all.len());
        for kind in KINDS {
            assert!(all.iter().any(|c| c.kind() == kind), "a bundled {kind}");
        }
        for c in all {
            let text = write(&c);
            assert_eq!(read(&text, "t.toml").unwrap(), c);
            assert_eq!(strict(&text), c);
        }
    }

    #[test]
    fn side_features_are_added_once_and_removed() {
        let mut l = league("arc-l-brassgate-ward");
        assert_eq!(l.sides.north, vec!["city-wall"]);
        assert!(l.add_side_feature(Side::North, " road "));
        assert!(!l.add_side_feature(Side::North, "road"));
        assert!(!l.add_side_feature(Side::North, "  "));
        assert_eq!(l.sides.north, vec!["city-wall", "road"]);
        assert!(l.remove_side_feature(Side::North, "city-wall"));
        assert!(!l.remove_side_feature(Side::North, "city-wall"));
        assert_eq!(l.sides.get(Side::North), ["road"]);
        assert_eq!(
            l.sides.east,
            vec!["road", "city-wall"],
            "other sides untouched"
        );
        let c = ArcadiaCard::League(l);
        assert!(write(&c).contains("north = [\"road\"]"), "{}", write(&c));
        assert_eq!(strict(&write(&c)), c);
    }

    #[test]
    fn rest_types_keep_the_formats_order_and_an_unknown_one_is_the_parsers_to_report() {
        let mut l = league("arc-l-brassgate-ward");
        assert_eq!(l.rest, vec!["treasure", "advantage", "flaw"]);
        l.set_rest("ability", true);
        l.set_rest("flaw", false);
        assert_eq!(l.rest, vec!["ability", "advantage", "treasure"]);
        l.rest.push("nap".into());
        l.set_rest("ally", true);
        assert_eq!(
            l.rest,
            vec!["ability", "advantage", "ally", "treasure", "nap"]
        );
        let text = write(&ArcadiaCard::League(l.clone()));
        let err = parse_card(&text, "t.toml").unwrap_err();
        assert!(err.message.contains("`nap` is neither"), "{err}");
        assert_eq!(
            read(&text, "t.toml").unwrap(),
            ArcadiaCard::League(l),
            "the form still reads it"
        );
    }

    #[test]
    fn a_merits_type_brings_and_drops_the_keys_that_go_with_it() {
        let Some(ArcadiaCard::Merit(mut m)) = bundled()
            .into_iter()
            .find(|c| c.common().0 == "arc-m-bramble-grip")
        else {
            panic!("Bramble Grip is bundled")
        };
        assert_eq!(
            (m.attribute, m.court),
            (Some(Attribute::Might), Some(Court::Unseelie))
        );
        m.set_type(MeritType::Ally);
        assert_eq!((m.attribute, m.court, m.combat), (None, None, None));
        m.combat = Some(4);
        strict(&write(&ArcadiaCard::Merit(m.clone())));
        m.set_type(MeritType::Ability);
        assert_eq!(
            (m.attribute, m.court, m.combat),
            (Some(Attribute::Might), Some(Court::Seelie), None)
        );
        strict(&write(&ArcadiaCard::Merit(m.clone())));
        // Written by hand without a court, the strict parser says what is missing.
        m.court = None;
        let text = write(&ArcadiaCard::Merit(m.clone()));
        assert!(
            parse_card(&text, "t.toml")
                .unwrap_err()
                .message
                .contains("needs `attribute`")
        );
        assert_eq!(read(&text, "t.toml").unwrap(), ArcadiaCard::Merit(m));
    }

    #[test]
    fn a_weakness_has_a_court_and_other_flaws_none() {
        let Some(ArcadiaCard::Flaw(mut f)) = bundled_of("flaw").into_iter().next() else {
            panic!("a bundled flaw")
        };
        f.set_type(FlawType::Weakness);
        assert!(f.court.is_some());
        strict(&write(&ArcadiaCard::Flaw(f.clone())));
        f.set_type(FlawType::Enemy);
        assert_eq!(f.court, None);
        strict(&write(&ArcadiaCard::Flaw(f)));
    }

    #[test]
    fn waylay_tests_keep_the_formats_order() {
        let Some(ArcadiaCard::Waylay(mut w)) = bundled_of("waylay").into_iter().next() else {
            panic!("a bundled waylay")
        };
        w.tests.clear();
        w.set_test(TestKind::Combat, true);
        w.set_test(TestKind::Might, true);
        w.set_test(TestKind::Savvy, true);
        w.set_test(TestKind::Combat, false);
        assert_eq!(w.tests, vec![TestKind::Might, TestKind::Savvy]);
        w.set_value(TestKind::Resolve, Some(7));
        assert_eq!(w.value(TestKind::Resolve), Some(7));
        w.set_value(TestKind::Resolve, None);
        assert_eq!(w.value(TestKind::Resolve), None);
    }

    #[test]
    fn other_cards_are_not_forms_and_unreadable_text_says_why() {
        let iconica = crate::cards::templates::all()
            .into_iter()
            .find(|t| t.game == crate::cards::Game::Iconica)
            .expect("an Iconica template");
        assert!(matches!(
            read(iconica.text, "t.toml"),
            Err(FormError::NotArcadia { game, .. }) if game == "iconica"
        ));
        let err = read("game = \"arcadia\"\nkind = \"league\"\n", "t.toml").unwrap_err();
        assert!(matches!(err, FormError::Unreadable(_)), "{err}");
        assert!(err.to_string().contains("id"), "{err}");
    }

    proptest! {
        /// Form edits written through the core read back, strictly, as the edited card.
        #[test]
        fn form_edits_round_trip_through_toml(
            who in 0usize..64,
            name in "[A-Za-z][A-Za-z '\"#\\\\-]{0,20}",
            side in 0usize..4,
            feature in "[a-z][a-z-]{0,10}",
            drop in 0usize..4,
            rest in proptest::collection::vec((0usize..6, any::<bool>()), 0..6),
            trial in proptest::option::of((0usize..4, 1i32..12)),
            merit_type in 0usize..5,
            flaw_type in 0usize..3,
            tests in proptest::collection::vec((0usize..4, any::<bool>()), 0..6),
            value in proptest::option::of(0i32..12),
            number in 0i32..20,
        ) {
            let all = bundled();
            let mut c = all[who % all.len()].clone();
            match &mut c {
                ArcadiaCard::League(l) => {
                    l.name = name;
                    l.add_side_feature(Side::ALL[side], &feature);
                    if let Some(f) = l.sides.get(Side::ALL[drop]).first().cloned() {
                        l.remove_side_feature(Side::ALL[drop], &f);
                    }
                    for (r, on) in rest {
                        l.set_rest(REST_TYPES[r], on);
                    }
                    l.leave = trial.map(|(a, d)| LeagueTrial { attribute: TestKind::ALL[a], difficulty: d });
                    l.unique = !l.unique;
                }
                ArcadiaCard::Merit(m) => {
                    m.text = name;
                    m.set_type(MeritType::ALL[merit_type]);
                    m.cost = number;
                }
                ArcadiaCard::Flaw(f) => {
                    f.name = name;
                    f.set_type(FlawType::ALL[flaw_type]);
                    f.points = number;
                }
                ArcadiaCard::Waylay(w) => {
                    w.name = name;
                    for (t, on) in tests {
                        w.set_test(TestKind::ALL[t], on);
                        w.set_value(TestKind::ALL[t], value);
                    }
                    add_feature(&mut w.terrain, &feature);
                    w.rating = number;
                }
                ArcadiaCard::Icon(i) => {
                    i.race = name;
                    i.might = number;
                    i.ability = feature;
                }
                ArcadiaCard::Quest(Quest { name: n, experience, .. }) => {
                    *n = name;
                    *experience = number;
                }
            }
            let text = write(&c);
            prop_assert_eq!(strict(&text), c.clone());
            prop_assert_eq!(read(&text, "t.toml").unwrap(), c);
        }
    }
}
