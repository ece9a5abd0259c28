//! Small catalogues of made-up cards for the construction-rule tests.
#![allow(dead_code)]

use deckwright::cards::{self, Card};

fn card(text: &str) -> Card {
    cards::parse_card(text, "fixture").unwrap_or_else(|e| panic!("fixture card: {e}\n{text}"))
}

/// An Iconica character with the given faction and type (`common` ... `special`).
pub fn ico(id: &str, name: &str, faction: &str, rarity: &str) -> Card {
    card(&format!(
        r#"game = "iconica"
kind = "character"
id = "{id}"
name = "{name}"
series = "Test"
number = "001"
faction = "{faction}"
race = "human"
archetype = "Tester"
class = "offensive"
type = "{rarity}"
[health]
start = 100
[[actions]]
roll = [1, 2, 3, 4, 5, 6]
name = "Hit"
kind = "melee"
text = "Deal 10 damage."
effects = [ {{ damage = 10, target = "foe" }} ]
"#
    ))
}

/// A Ruunara figure.
pub fn ruu(id: &str, name: &str, race: &str, faction: &str) -> Card {
    card(&format!(
        "game = \"ruunara\"\nkind = \"hero\"\nid = \"{id}\"\nname = \"{name}\"\nrace = \"{race}\"\nfaction = \"{faction}\"\nhp = 3\nmovement = 4\nvision = 8\nclose = \"2D4+\"\n"
    ))
}

pub fn icon(id: &str) -> Card {
    card(&format!(
        "game = \"arcadia\"\nkind = \"icon\"\nid = \"{id}\"\nname = \"Icon {id}\"\ntext = \"\"\nrace = \"naga\"\ngender = \"male\"\nmight = 2\nsavvy = 3\nresolve = 1\nability = \"None\"\n"
    ))
}

/// A merit; `court` is `""` for none (abilities need one).
pub fn merit(id: &str, merit_type: &str, cost: i32, court: &str) -> Card {
    let extra = if merit_type == "ability" {
        format!("attribute = \"might\"\ncourt = \"{court}\"\n")
    } else {
        String::new()
    };
    card(&format!(
        "game = \"arcadia\"\nkind = \"merit\"\nid = \"{id}\"\nname = \"Merit {id}\"\ntext = \"\"\nmerit_type = \"{merit_type}\"\ncost = {cost}\n{extra}"
    ))
}

/// A flaw; weaknesses take a court.
pub fn flaw(id: &str, flaw_type: &str, points: i32, court: &str) -> Card {
    let extra = if flaw_type == "weakness" { format!("court = \"{court}\"\n") } else { String::new() };
    card(&format!(
        "game = \"arcadia\"\nkind = \"flaw\"\nid = \"{id}\"\nname = \"Flaw {id}\"\ntext = \"\"\nflaw_type = \"{flaw_type}\"\npoints = {points}\n{extra}"
    ))
}

pub fn waylay(id: &str, rating: i32) -> Card {
    card(&format!(
        "game = \"arcadia\"\nkind = \"waylay\"\nid = \"{id}\"\nname = \"Waylay {id}\"\ntext = \"\"\nrating = {rating}\nterrain = [\"any\"]\ntests = [\"might\"]\nmight = 3\n"
    ))
}

pub fn quest(id: &str, waylay_rating: i32, treasure_rating: i32) -> Card {
    card(&format!(
        "game = \"arcadia\"\nkind = \"quest\"\nid = \"{id}\"\nname = \"Quest {id}\"\ntext = \"\"\nwaylay_rating = {waylay_rating}\ntreasure_rating = {treasure_rating}\nexperience = 2\nobjective = {{ collect_treasures = 1 }}\n"
    ))
}

/// A league whose four sides are given as TOML lists, e.g. `["forest"]`.
pub fn league(id: &str, unique: bool, north: &str, east: &str, south: &str, west: &str) -> Card {
    card(&format!(
        "game = \"arcadia\"\nkind = \"league\"\nid = \"{id}\"\nname = \"League {id}\"\ntext = \"\"\nterrain = [\"forest\"]\nunique = {unique}\nrest = []\n[sides]\nnorth = {north}\neast = {east}\nsouth = {south}\nwest = {west}\n"
    ))
}

/// A league with the same features on every side.
pub fn plain_league(id: &str, features: &str) -> Card {
    league(id, false, features, features, features, features)
}
