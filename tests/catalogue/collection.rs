//! The collection: owned quantities, CSV import (our header and common dialects) and export.

use std::path::{Path, PathBuf};

use deckwright::catalogue::{Catalogue, CatalogueError, CollectionError};
use deckwright::cards;

fn card(game: &str, id: &str, name: &str) -> String {
    match game {
        "iconoclasm" => format!(
            "game = \"iconoclasm\"\nkind = \"element\"\nid = \"{id}\"\nname = \"{name}\"\nfront = \"fire\"\nback = \"air\"\nset = \"fire\"\n"
        ),
        _ => format!(
            "game = \"arcadia\"\nkind = \"merit\"\nid = \"{id}\"\nname = \"{name}\"\ntext = \"t\"\nmerit_type = \"treasure\"\ncost = 1\n"
        ),
    }
}

/// A catalogue with: arc-key "Iron Key" (arcadia), icl-key "Iron Key" (iconoclasm),
/// arc-lamp "Lamp", icl-ember "Ember".
fn catalogue() -> Catalogue {
    let mut cat = Catalogue::open_empty_in_memory().unwrap();
    let cards: Vec<_> = [
        ("arcadia", "arc-key", "Iron Key"),
        ("iconoclasm", "icl-key", "Iron Key"),
        ("arcadia", "arc-lamp", "Lamp"),
        ("iconoclasm", "icl-ember", "Ember"),
    ]
    .iter()
    .map(|(g, i, n)| cards::parse_card(&card(g, i, n), "t.toml").unwrap())
    .collect();
    cat.upsert(&cards).unwrap();
    cat
}

fn csv(dir: &Path, text: &str) -> PathBuf {
    let p = dir.join("c.csv");
    std::fs::write(&p, text).unwrap();
    p
}

#[test]
fn set_owned_and_totals() {
    let mut cat = catalogue();
    assert_eq!(cat.owned("arc-lamp").unwrap(), 0);
    cat.set_owned("arc-lamp", 3).unwrap();
    cat.set_owned("icl-ember", 2).unwrap();
    assert_eq!(cat.owned("arc-lamp").unwrap(), 3);
    assert_eq!(cat.collection_total().unwrap(), 5);
    cat.set_owned("arc-lamp", 0).unwrap();
    assert_eq!(cat.owned("arc-lamp").unwrap(), 0);
    assert_eq!(cat.collection_total().unwrap(), 2);
    let e = cat.set_owned("no-such-card", 1).unwrap_err();
    assert!(matches!(e, CatalogueError::UnknownCard(_)), "{e}");
}

#[test]
fn own_header_round_trips_through_export() {
    let dir = tempfile::tempdir().unwrap();
    let mut cat = catalogue();
    cat.set_owned("arc-key", 4).unwrap();
    cat.set_owned("icl-ember", 1).unwrap();
    let out = dir.path().join("out.csv");
    assert_eq!(cat.export_collection_csv(&out).unwrap(), 2);
    let text = std::fs::read_to_string(&out).unwrap();
    assert_eq!(text, "id,name,game,quantity\narc-key,Iron Key,arcadia,4\nicl-ember,Ember,iconoclasm,1\n");

    let mut other = catalogue();
    let r = other.import_collection_csv(&out, false).unwrap();
    assert_eq!((r.cards, r.rows), (2, 2));
    assert_eq!(other.owned("arc-key").unwrap(), 4);
    assert_eq!(other.owned("icl-key").unwrap(), 0);
    assert_eq!(other.owned("icl-ember").unwrap(), 1);
}

#[test]
fn names_match_within_their_game_and_ambiguous_names_are_reported() {
    let dir = tempfile::tempdir().unwrap();
    let mut cat = catalogue();
    let p = csv(dir.path(), "id,name,game,quantity\n,Iron Key,iconoclasm,2\n,Lamp,,1\n");
    cat.import_collection_csv(&p, false).unwrap();
    assert_eq!(cat.owned("icl-key").unwrap(), 2);
    assert_eq!(cat.owned("arc-key").unwrap(), 0);
    assert_eq!(cat.owned("arc-lamp").unwrap(), 1);

    let p = csv(dir.path(), "Count,Name\n5,Iron Key\n1,Ember\n");
    let e = cat.import_collection_csv(&p, false).unwrap_err();
    let msg = e.to_string();
    assert!(msg.contains("ambiguous") && msg.contains("line 2"), "{msg}");
    assert!(msg.contains("arc-key") && msg.contains("icl-key"), "{msg}");
    assert_eq!(cat.owned("icl-ember").unwrap(), 0, "nothing imported");
}

#[test]
fn unknown_rows_are_all_reported_and_nothing_is_imported() {
    let dir = tempfile::tempdir().unwrap();
    let mut cat = catalogue();
    let p = csv(dir.path(), "id,name,game,quantity\narc-lamp,Lamp,arcadia,2\nnope,,,1\n,Ghost,arcadia,1\n");
    let e = cat.import_collection_csv(&p, false).unwrap_err();
    let CollectionError::Unknown { rows, .. } = &e else { panic!("{e}") };
    assert_eq!(rows.iter().map(|r| r.line).collect::<Vec<_>>(), vec![3, 4]);
    assert!(e.to_string().contains("nope") && e.to_string().contains("Ghost"), "{e}");
    assert_eq!(cat.owned("arc-lamp").unwrap(), 0);

    let r = cat.import_collection_csv(&p, true).unwrap();
    assert_eq!(r.cards, 1);
    assert_eq!(r.skipped.len(), 2);
    assert_eq!(cat.owned("arc-lamp").unwrap(), 2);
}

#[test]
fn common_dialects_are_read_from_their_header() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        // Deckbox / Moxfield
        "Count,Tradelist Count,Name,Edition,Card Number,Condition,Language,Foil\n3,0,Lamp,Core,1,Near Mint,English,\n1,0,Ember,Core,2,Near Mint,English,foil\n1,0,Ember,Core,2,Near Mint,English,\n",
        // Archidekt
        "Quantity,Name,Finish,Condition,Date Added\n3,Lamp,Normal,NM,2024-01-01\n2,Ember,Foil,NM,2024-01-01\n",
        // TCGplayer
        "\u{feff}Quantity,Name,Simple Name,Set,Card Number,Set Code,Printing,Condition,Language,Rarity,Product ID,SKU\n3,Lamp,Lamp,Core,1,CORE,Normal,Near Mint,English,Common,1,2\n2,\"Ember\",Ember,Core,2,CORE,Foil,Near Mint,English,Rare,3,4\n",
    ];
    for text in cases {
        let mut cat = catalogue();
        let p = csv(dir.path(), text);
        let r = cat.import_collection_csv(&p, false).unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert_eq!(r.cards, 2, "{text}");
        assert_eq!(cat.owned("arc-lamp").unwrap(), 3, "{text}");
        assert_eq!(cat.owned("icl-ember").unwrap(), 2, "rows of one card add up: {text}");
    }
}

#[test]
fn malformed_csv_is_bad_input_naming_the_line() {
    let dir = tempfile::tempdir().unwrap();
    let mut cat = catalogue();
    let p = csv(dir.path(), "Name,Edition\nLamp,Core\n");
    let e = cat.import_collection_csv(&p, false).unwrap_err();
    assert!(e.to_string().contains("c.csv: line 1") && e.to_string().contains("not a collection header"), "{e}");
    let p = csv(dir.path(), "id,quantity\narc-lamp,two\n");
    let e = cat.import_collection_csv(&p, true).unwrap_err();
    assert!(e.to_string().contains("line 2") && e.to_string().contains("`two`"), "{e}");
    assert_eq!(cat.owned("arc-lamp").unwrap(), 0);
}
