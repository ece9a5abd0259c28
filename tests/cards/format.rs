//! Card files: the spec's examples load, errors are positioned, write -> load is identity.

use deckwright::cards::{self, Card, CardFile};

const HADRON: &str = r#"
game = "iconica"
kind = "character"
id = "ico-hadron"
name = "Hadron"
series = "Core"
number = "001"
faction = "independent"
race = "human"
archetype = "Mercenary"
class = "offensive"
type = "rare"
affiliation = "Whitefire Syndicate"
influence = 2
description = "..."
action_break = 4

[health]
start = 120
parry = [90, 40]
antidote = [100]
courage = []
evasion = [60]
focus = []
clarity = []
reaction = { "80" = 10, "30" = 20 }

[[actions]]
roll = [1, 2]
name = "Quick Shot"
kind = "ranged"
text = "Deal 20 damage to one opposing character."
effects = [ { damage = 20, target = "foe" } ]

[[actions]]
roll = 3
name = "Gas"
kind = "status"
text = "Poison, then a roll."
effects = [ { inflict = "poison", target = "foe" }, { roll = "odd", then = [ { damage = 10, target = "same" } ], else = [ { heal = 10, target = "self" } ] } ]

[[actions]]
roll = [4, 5, 6]
name = "Watch"
kind = "stance"
text = "Watch for melee."
effects = [ { watch = "melee", then = [ { damage = 10, target = "foe" } ] }, { roll = "5+", then = [] }, { roll = [1, 2], then = [] } ]

[[strengths]]
against = { archetype = "Carapid" }
actions = [2]
text = "+20 damage against Carapid."
effects = [ { damage = 20, target = "same" } ]

[final_act]
text = "Roll a die. On 5 or 6, deal 40 damage to all opposing characters."
effects = [ { roll = [5, 6], then = [ { damage = 40, target = "all_foes" } ] } ]
"#;

fn load(text: &str) -> Card {
    match cards::parse(text, "hadron.toml") {
        Ok(CardFile::Card(c)) => c,
        Ok(other) => panic!("not a card: {other:?}"),
        Err(e) => panic!("{e}"),
    }
}

#[test]
fn spec_character_loads_and_round_trips() {
    let card = load(HADRON);
    assert_eq!(card.id(), "ico-hadron");
    let again = load(&card.to_toml());
    assert_eq!(card, again);
}

#[test]
fn unknown_key_names_line_column_and_key() {
    let text = HADRON.replace("influence = 2", "influense = 2");
    let e = cards::parse(&text, "h.toml").unwrap_err();
    assert_eq!(e.key.as_deref(), Some("influense"));
    assert_eq!(e.line, 14, "{e}");
    assert_eq!(e.file, "h.toml");
}

#[test]
fn wrong_type_and_bad_tiles_are_errors() {
    let e = cards::parse(&HADRON.replace("start = 120", "start = \"120\""), "h.toml").unwrap_err();
    assert_eq!(e.key.as_deref(), Some("start"), "{e}");
    let e = cards::parse(&HADRON.replace("parry = [90, 40]", "parry = [95]"), "h.toml").unwrap_err();
    assert_eq!(e.key.as_deref(), Some("parry"), "{e}");
    assert_eq!(e.line, 20, "{e}");
    let e = cards::parse(&HADRON.replace("roll = 3", "roll = 2"), "h.toml").unwrap_err();
    assert!(e.message.contains("roll"), "{e}");
    let e = cards::parse(&HADRON.replace("\"foe\" } ]\n\n[[actions]]\nroll = 3", "\"foes\" } ]\n\n[[actions]]\nroll = 3"), "h.toml").unwrap_err();
    assert!(e.message.contains("foes"), "{e}");
}

#[test]
fn catalogue_stores_and_reads_back_a_card() {
    let mut cat = deckwright::catalogue::Catalogue::open_empty_in_memory().unwrap();
    let card = load(HADRON);
    cat.upsert(std::slice::from_ref(&card)).unwrap();
    assert_eq!(cat.get("ico-hadron").unwrap(), Some(card));
    assert_eq!(cat.count().unwrap(), 1);
}

#[test]
fn every_bundled_card_loads_and_round_trips() {
    let files = cards::bundled();
    assert!(files.len() > 100, "only {} bundled files", files.len());
    let mut ids = std::collections::HashSet::new();
    for (path, text) in files {
        match cards::parse(text, &path) {
            Ok(CardFile::Card(c)) => {
                assert!(ids.insert(c.id().to_string()), "duplicate id {}", c.id());
                assert_eq!(load(&c.to_toml()), c, "{path} does not round-trip");
            }
            Ok(CardFile::Clashes(t)) => assert_eq!(t, deckwright::games::iconoclasm::model::ClashTable::standard()),
            Err(e) => panic!("{e}"),
        }
    }
}
