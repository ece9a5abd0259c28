//! Cards of every game for the search tests, and a catalogue holding them.
#![allow(dead_code)]

use deckwright::cards::{self, Card};
use deckwright::catalogue::Catalogue;

/// An Iconica character.
pub fn iconica(
    id: &str,
    name: &str,
    faction: &str,
    class: &str,
    rarity: &str,
    start: u32,
    text: &str,
) -> String {
    format!(
        r#"game = "iconica"
kind = "character"
id = "{id}"
name = "{name}"
series = "Core"
number = "007"
faction = "{faction}"
race = "human"
archetype = "Mercenary"
class = "{class}"
type = "{rarity}"

[health]
start = {start}

[[actions]]
roll = [1, 2, 3]
name = "Strike"
kind = "melee"
text = "{text}"
effects = [ {{ damage = 20, target = "foe" }} ]

[[actions]]
roll = [4, 5, 6]
name = "Guard"
kind = "stance"
text = "Hold the line."
effects = []
"#
    )
}

pub fn merit(
    id: &str,
    name: &str,
    merit_type: &str,
    cost: i32,
    court: Option<&str>,
    text: &str,
) -> String {
    let court = court
        .map(|c| format!("court = \"{c}\"\nattribute = \"might\"\n"))
        .unwrap_or_default();
    format!(
        "game = \"arcadia\"\nkind = \"merit\"\nid = \"{id}\"\nname = \"{name}\"\ntext = \"{text}\"\nmerit_type = \"{merit_type}\"\ncost = {cost}\n{court}"
    )
}

pub fn flaw(id: &str, name: &str, flaw_type: &str, points: i32) -> String {
    format!(
        "game = \"arcadia\"\nkind = \"flaw\"\nid = \"{id}\"\nname = \"{name}\"\ntext = \"A burden.\"\nflaw_type = \"{flaw_type}\"\npoints = {points}\n"
    )
}

pub fn waylay(id: &str, name: &str, rating: i32, terrain: &[&str]) -> String {
    let t: Vec<String> = terrain.iter().map(|t| format!("\"{t}\"")).collect();
    format!(
        "game = \"arcadia\"\nkind = \"waylay\"\nid = \"{id}\"\nname = \"{name}\"\ntext = \"Something lurks.\"\nrating = {rating}\nterrain = [{}]\ntests = [\"might\"]\nmight = 4\n",
        t.join(", ")
    )
}

pub fn league(id: &str, name: &str, terrain: &[&str]) -> String {
    let t: Vec<String> = terrain.iter().map(|t| format!("\"{t}\"")).collect();
    format!(
        "game = \"arcadia\"\nkind = \"league\"\nid = \"{id}\"\nname = \"{name}\"\ntext = \"A place.\"\nterrain = [{}]\n\n[sides]\nnorth = [\"road\"]\neast = [\"road\"]\nsouth = [\"road\"]\nwest = [\"road\"]\n",
        t.join(", ")
    )
}

pub fn ruunara(id: &str, name: &str, race: &str, hp: u32, skill: &str) -> String {
    format!(
        r#"game = "ruunara"
kind = "hero"
id = "{id}"
name = "{name}"
race = "{race}"
faction = "ally"
hp = {hp}
movement = 6
vision = 12
close = "3D4+"

[[skills]]
name = "{skill}"
cycle = "1/F"
text = "Strike twice."
"#
    )
}

/// The test cards.
pub fn cards() -> Vec<Card> {
    let texts = [
        iconica(
            "ico-hadron",
            "Hadron",
            "independent",
            "offensive",
            "rare",
            120,
            "Deal 20 damage to one opposing character.",
        ),
        iconica(
            "ico-iron-maiden",
            "Iron Maiden",
            "legion",
            "defensive",
            "legend",
            100,
            "Raise a shield wall against all foes.",
        ),
        iconica(
            "ico-quaker",
            "Quaker",
            "legion",
            "offensive",
            "common",
            80,
            "Quake the ground beneath the foe.",
        ),
        iconica(
            "ico-medic",
            "Medic",
            "protectorate",
            "supportive",
            "uncommon",
            90,
            "Heal a friend. The wall of shields holds.",
        ),
        merit(
            "arc-fire-dance",
            "Fire Dance",
            "art",
            3,
            None,
            "A dance of flame.",
        ),
        merit(
            "arc-iron-key",
            "Iron Key",
            "treasure",
            1,
            None,
            "Opens any door.",
        ),
        merit(
            "arc-seelie-grace",
            "Seelie Grace",
            "ability",
            5,
            Some("seelie"),
            "Grace of the court.",
        ),
        merit(
            "arc-unseelie-guile",
            "Unseelie Guile",
            "ability",
            4,
            Some("unseelie"),
            "Guile of the night.",
        ),
        flaw("arc-cold-iron-dread", "Cold Iron Dread", "curse", 2),
        waylay("arc-wolves", "Wolves", 4, &["forest", "hills"]),
        league("arc-deep-wood", "Deep Wood", &["forest"]),
        league("arc-harbour", "Harbour", &["ocean", "city"]),
        ruunara("ruu-kestrel", "Kestrel", "sanbari", 4, "Twin Blades"),
    ];
    texts
        .iter()
        .map(|t| cards::parse_card(t, "test card").unwrap_or_else(|e| panic!("{e}\n{t}")))
        .collect()
}

/// A catalogue holding the test cards; Hadron owned 2, Quaker owned 0 (listed), Wolves owned 3.
pub fn catalogue() -> Catalogue {
    let mut cat = Catalogue::open_empty_in_memory().expect("in-memory catalogue");
    cat.upsert(&cards()).expect("upsert");
    cat.sql_for_tests()
        .execute_batch(
            "INSERT INTO collection(card_id, quantity) VALUES ('ico-hadron', 2), ('ico-quaker', 0), ('arc-wolves', 3);",
        )
        .expect("collection");
    cat
}

/// The ids a query finds, in order.
pub fn ids(cat: &Catalogue, query: &str) -> Vec<String> {
    match cat.search(query, None) {
        Ok(hits) => hits.into_iter().map(|h| h.id).collect(),
        Err(e) => panic!("query `{query}`: {e}"),
    }
}

/// The ids a query finds, sorted (for tests where order does not matter).
pub fn id_set(cat: &Catalogue, query: &str) -> Vec<String> {
    let mut v = ids(cat, query);
    v.sort();
    v
}
