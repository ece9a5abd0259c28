//! Every operator of the query language over a small catalogue of every game.


use crate::common::{catalogue, id_set, ids};
use deckwright::search::{self, SearchError};

fn v(ids: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = ids.iter().map(|s| s.to_string()).collect();
    v.sort();
    v
}

#[test]
fn bare_word_is_a_case_insensitive_prefix_of_a_word_in_name_or_text() {
    let cat = catalogue();
    assert_eq!(
        id_set(&cat, "iron"),
        v(&["arc-cold-iron-dread", "arc-iron-key", "ico-iron-maiden"])
    );
    assert_eq!(id_set(&cat, "IRO"), id_set(&cat, "iron"));
    // "Quaker" by name, and "Quake" in its text
    assert_eq!(id_set(&cat, "quak"), v(&["ico-quaker"]));
    // texts only: Kestrel's skill text, Iconica action names
    assert_eq!(id_set(&cat, "twice"), v(&["ruu-kestrel"]));
    assert_eq!(id_set(&cat, "blades"), v(&["ruu-kestrel"]));
    // a prefix of a word, not a substring
    assert!(ids(&cat, "ron").is_empty());
}

#[test]
fn bare_words_side_by_side_must_all_match() {
    let cat = catalogue();
    assert_eq!(id_set(&cat, "shield"), v(&["ico-iron-maiden", "ico-medic"]));
    assert_eq!(id_set(&cat, "shield heal"), v(&["ico-medic"]));
}

#[test]
fn quoted_words_are_a_phrase() {
    let cat = catalogue();
    assert_eq!(id_set(&cat, "\"shield wall\""), v(&["ico-iron-maiden"]));
    assert_eq!(id_set(&cat, "\"wall of shields\""), v(&["ico-medic"]));
    assert!(ids(&cat, "\"wall shield\"").is_empty());
}

#[test]
fn field_value_is_case_insensitive_and_exact() {
    let cat = catalogue();
    assert_eq!(
        id_set(&cat, "faction:legion"),
        v(&["ico-iron-maiden", "ico-quaker"])
    );
    assert_eq!(
        id_set(&cat, "FACTION:Legion"),
        id_set(&cat, "faction:legion")
    );
    assert_eq!(
        id_set(&cat, "faction=legion"),
        id_set(&cat, "faction:legion")
    );
    assert_eq!(
        id_set(&cat, "class:offensive"),
        v(&["ico-hadron", "ico-quaker"])
    );
    assert_eq!(id_set(&cat, "type:legend"), v(&["ico-iron-maiden"]));
    assert_eq!(id_set(&cat, "merit_type:art"), v(&["arc-fire-dance"]));
    assert_eq!(id_set(&cat, "flaw_type:curse"), v(&["arc-cold-iron-dread"]));
    assert_eq!(id_set(&cat, "court:seelie"), v(&["arc-seelie-grace"]));
    assert_eq!(id_set(&cat, "race:sanbari"), v(&["ruu-kestrel"]));
    assert_eq!(id_set(&cat, "series:core").len(), 4);
    assert!(ids(&cat, "faction:leg").is_empty());
}

#[test]
fn list_fields_match_any_member() {
    let cat = catalogue();
    assert_eq!(
        id_set(&cat, "terrain:forest"),
        v(&["arc-deep-wood", "arc-wolves"])
    );
    assert_eq!(id_set(&cat, "terrain:hills"), v(&["arc-wolves"]));
    assert_eq!(id_set(&cat, "terrain:city"), v(&["arc-harbour"]));
}

#[test]
fn game_kind_and_id_prefix() {
    let cat = catalogue();
    assert_eq!(ids(&cat, "game:ruunara"), vec!["ruu-kestrel"]);
    assert_eq!(ids(&cat, "game:ARCADIA").len(), 8);
    assert_eq!(id_set(&cat, "kind:merit").len(), 4);
    assert_eq!(
        id_set(&cat, "kind:league"),
        v(&["arc-deep-wood", "arc-harbour"])
    );
    assert_eq!(id_set(&cat, "id:ico-").len(), 4);
    assert_eq!(ids(&cat, "id:ico-h"), vec!["ico-hadron"]);
    assert_eq!(ids(&cat, "id:ICO-HADRON"), vec!["ico-hadron"]);
    assert!(ids(&cat, "id:ico*").is_empty());
    assert_eq!(id_set(&cat, "game!=arcadia").len(), 5);
}

#[test]
fn name_field_matches_words_of_the_name_only() {
    let cat = catalogue();
    assert_eq!(
        id_set(&cat, "name:iron"),
        v(&["arc-cold-iron-dread", "arc-iron-key", "ico-iron-maiden"])
    );
    assert_eq!(ids(&cat, "name:\"iron maiden\""), vec!["ico-iron-maiden"]);
    // "Quake" is in Quaker's text, "Shield" in Medic's: not names
    assert!(ids(&cat, "name:shield").is_empty());
    assert_eq!(
        id_set(&cat, "name!=iron kind:merit"),
        v(&["arc-fire-dance", "arc-seelie-grace", "arc-unseelie-guile"])
    );
}

#[test]
fn numeric_comparisons() {
    let cat = catalogue();
    assert_eq!(
        id_set(&cat, "cost<=3"),
        v(&["arc-fire-dance", "arc-iron-key"])
    );
    assert_eq!(id_set(&cat, "cost<3"), v(&["arc-iron-key"]));
    assert_eq!(id_set(&cat, "cost=3"), v(&["arc-fire-dance"]));
    assert_eq!(id_set(&cat, "cost:3"), v(&["arc-fire-dance"]));
    assert_eq!(id_set(&cat, "cost>4"), v(&["arc-seelie-grace"]));
    assert_eq!(
        id_set(&cat, "cost>=4"),
        v(&["arc-seelie-grace", "arc-unseelie-guile"])
    );
    assert_eq!(
        id_set(&cat, "health>=100"),
        v(&["ico-hadron", "ico-iron-maiden"])
    );
    assert_eq!(ids(&cat, "health:90"), vec!["ico-medic"]);
    assert_eq!(ids(&cat, "points>1"), vec!["arc-cold-iron-dread"]);
    assert_eq!(ids(&cat, "rating<5"), vec!["arc-wolves"]);
    assert_eq!(ids(&cat, "hp>=4"), vec!["ruu-kestrel"]);
    assert_eq!(id_set(&cat, "cost>=2.5 cost<3.5"), v(&["arc-fire-dance"]));
}

#[test]
fn not_equal_matches_only_cards_with_the_key() {
    let cat = catalogue();
    assert_eq!(
        id_set(&cat, "cost!=3"),
        v(&["arc-iron-key", "arc-seelie-grace", "arc-unseelie-guile"])
    );
    assert_eq!(
        id_set(&cat, "faction!=legion"),
        v(&["ico-hadron", "ico-medic", "ruu-kestrel"])
    );
    // a list: no member may be forest
    assert_eq!(id_set(&cat, "terrain!=forest"), v(&["arc-harbour"]));
}

#[test]
fn text_value_of_a_number_field_and_number_value_of_a_text_field() {
    let cat = catalogue();
    // `number` is a text ("007"): matched as written
    assert_eq!(id_set(&cat, "number:007").len(), 4);
    assert!(ids(&cat, "number:7").is_empty());
    // a word on a numeric field matches nothing
    assert!(ids(&cat, "cost:three").is_empty());
}

#[test]
fn owned_comes_from_the_collection_and_absent_is_zero() {
    let cat = catalogue();
    assert_eq!(id_set(&cat, "owned>0"), v(&["arc-wolves", "ico-hadron"]));
    assert_eq!(ids(&cat, "owned:2"), vec!["ico-hadron"]);
    assert_eq!(ids(&cat, "owned>=3"), vec!["arc-wolves"]);
    assert_eq!(ids(&cat, "owned=0").len(), 11);
    assert_eq!(ids(&cat, "owned<1").len(), 11);
    assert_eq!(ids(&cat, "owned!=0").len(), 2);
    let hits = search::search(cat.conn(), "id:ico-hadron", None).unwrap();
    assert_eq!(hits[0].owned, 2);
    assert_eq!(hits[0].game, "iconica");
    assert_eq!(hits[0].kind, "character");
    assert_eq!(hits[0].name, "Hadron");
}

#[test]
fn negation_also_matches_cards_without_the_key() {
    let cat = catalogue();
    let all = ids(&cat, "").len();
    assert_eq!(all, 13);
    let not_legion = id_set(&cat, "-faction:legion");
    assert_eq!(not_legion.len(), all - 2);
    assert!(not_legion.contains(&"arc-wolves".to_string()));
    assert!(!not_legion.contains(&"ico-quaker".to_string()));
    assert_eq!(
        id_set(&cat, "-cost>3 kind:merit"),
        v(&["arc-fire-dance", "arc-iron-key"])
    );
    assert_eq!(id_set(&cat, "-iron game:arcadia").len(), 6);
    assert_eq!(ids(&cat, "--faction:legion").len(), 2);
}

#[test]
fn negated_group() {
    let cat = catalogue();
    assert_eq!(
        id_set(&cat, "game:iconica -(class:offensive or class:defensive)"),
        v(&["ico-medic"])
    );
}

#[test]
fn or_and_parentheses() {
    let cat = catalogue();
    assert_eq!(
        id_set(&cat, "faction:legion or faction:protectorate"),
        v(&["ico-iron-maiden", "ico-medic", "ico-quaker"])
    );
    assert_eq!(
        id_set(&cat, "faction:legion OR court:seelie"),
        v(&["arc-seelie-grace", "ico-iron-maiden", "ico-quaker"])
    );
    // terms side by side bind tighter than `or`
    assert_eq!(
        id_set(&cat, "faction:legion class:offensive or race:sanbari"),
        v(&["ico-quaker", "ruu-kestrel"])
    );
    assert_eq!(
        id_set(
            &cat,
            "(faction:legion or faction:independent) class:offensive"
        ),
        v(&["ico-hadron", "ico-quaker"])
    );
    assert_eq!(
        id_set(&cat, "wolves or harbour or \"fire dance\""),
        v(&["arc-fire-dance", "arc-harbour", "arc-wolves"])
    );
}

#[test]
fn default_order_is_by_name() {
    let cat = catalogue();
    let hits = search::search(cat.conn(), "game:iconica", None).unwrap();
    let names: Vec<&str> = hits.iter().map(|h| h.name.as_str()).collect();
    assert_eq!(names, ["Hadron", "Iron Maiden", "Medic", "Quaker"]);
}

#[test]
fn order_by_number_ascending_and_descending_cards_without_it_last() {
    let cat = catalogue();
    assert_eq!(
        ids(&cat, "kind:merit order:cost"),
        [
            "arc-iron-key",
            "arc-fire-dance",
            "arc-unseelie-guile",
            "arc-seelie-grace"
        ]
    );
    assert_eq!(
        ids(&cat, "order:-cost kind:merit"),
        [
            "arc-seelie-grace",
            "arc-unseelie-guile",
            "arc-fire-dance",
            "arc-iron-key"
        ]
    );
    let by_health = ids(&cat, "order:-health");
    assert_eq!(
        &by_health[..4],
        ["ico-hadron", "ico-iron-maiden", "ico-medic", "ico-quaker"]
    );
    assert_eq!(by_health.len(), 13);
    let by_name_desc = ids(&cat, "game:iconica order:-name");
    assert_eq!(
        by_name_desc,
        ["ico-quaker", "ico-medic", "ico-iron-maiden", "ico-hadron"]
    );
    assert_eq!(
        ids(&cat, "owned>0 order:-owned"),
        ["arc-wolves", "ico-hadron"]
    );
}

#[test]
fn order_by_text_field() {
    let cat = catalogue();
    assert_eq!(
        ids(&cat, "game:iconica order:faction"),
        ["ico-hadron", "ico-iron-maiden", "ico-quaker", "ico-medic"]
    );
}

#[test]
fn limit_keeps_the_first_hits() {
    let cat = catalogue();
    let all = ids(&cat, "");
    let first = search::search(cat.conn(), "", Some(3)).unwrap();
    assert_eq!(
        first.iter().map(|h| h.id.clone()).collect::<Vec<_>>(),
        all[..3]
    );
    assert!(search::search(cat.conn(), "", Some(0)).unwrap().is_empty());
}

#[test]
fn unknown_field_is_an_error_listing_known_fields() {
    let cat = catalogue();
    let e = search::search(cat.conn(), "game:iconica facton:legion", None).unwrap_err();
    let SearchError::UnknownField(u) = &e else {
        panic!("{e}")
    };
    assert_eq!(u.field, "facton");
    assert_eq!(u.column, 14);
    assert_eq!(u.suggestion.as_deref(), Some("faction"));
    for k in [
        "faction", "cost", "terrain", "owned", "game", "id", "kind", "name", "health",
    ] {
        assert!(
            u.known.iter().any(|x| x == k),
            "{k} missing from {:?}",
            u.known
        );
    }
    let msg = e.to_string();
    assert!(msg.contains("facton") && msg.contains("faction"), "{msg}");
    // sort keys are checked too
    assert!(matches!(
        search::search(cat.conn(), "order:cots", None),
        Err(SearchError::UnknownField(_))
    ));
}

#[test]
fn syntax_errors_come_back_from_search() {
    let cat = catalogue();
    let e = search::search(cat.conn(), "(faction:legion", None).unwrap_err();
    assert_eq!(e.column(), Some(16));
    assert!(matches!(e, SearchError::Syntax(_)));
}

#[test]
fn limited_search_gives_the_first_hits_of_the_full_search() {
    // a limited search reads the cards in name order and tests each one; it must agree
    // with the full search for every kind of term
    let cat = catalogue();
    let queries = [
        "",
        "iron",
        "\"shield wall\"",
        "shield heal",
        "faction:legion",
        "-faction:legion",
        "faction!=legion",
        "terrain!=forest",
        "cost<=3",
        "cost:3",
        "cost!=3",
        "-cost>3",
        "number:007",
        "owned>0",
        "owned=0",
        "owned<1",
        "-owned:2",
        "game:arcadia -(kind:merit or kind:flaw)",
        "name:iron",
        "name!=iron",
        "id:arc-",
        "-id:arc-",
        "a or b or faction:legion",
        "(health>=100 or hp>3) -class:defensive",
    ];
    for q in queries {
        let all = search::search(cat.conn(), q, None).unwrap();
        for k in [1, 2, 5, 50] {
            let first = search::search(cat.conn(), q, Some(k)).unwrap();
            assert_eq!(first, all[..k.min(all.len())], "query `{q}` limit {k}");
        }
    }
}

/// A catalogue of `n` bare card rows (no TOML body), quick to build in bulk.
fn bulk(n: usize) -> deckwright::catalogue::Catalogue {
    let mut cat = deckwright::catalogue::Catalogue::open_empty_in_memory().unwrap();
    let tx = cat.conn_mut().transaction().unwrap();
    for i in 0..n {
        let name = format!("Card {:05}", (i * 7919) % n);
        let texts = if i % 5 == 0 {
            "alpha strike"
        } else {
            "beta guard"
        };
        tx.execute(
            "INSERT INTO card(id, game, kind, name, body, texts) VALUES (?1, 'iconica', 'character', ?2, '', ?3)",
            rusqlite::params![format!("ico-{i}"), name, texts],
        )
        .unwrap();
        let row = tx.last_insert_rowid();
        let faction = ["legion", "protectorate", "independent"][i % 3];
        tx.execute(
            "INSERT INTO card_field(card, key, text) VALUES (?1, 'faction', ?2)",
            rusqlite::params![row, faction],
        )
        .unwrap();
        tx.execute(
            "INSERT INTO card_field(card, key, num) VALUES (?1, 'health', ?2)",
            rusqlite::params![row, ((i % 13) * 10) as i64],
        )
        .unwrap();
    }
    tx.commit().unwrap();
    cat
}

#[test]
fn limited_search_over_many_cards_agrees_with_the_full_search() {
    // more cards than a limited search reads first by name, so both of its ways are taken:
    // enough hits among the first cards, or too few and a search of them all
    let cat = bulk(6500);
    for q in [
        "faction:legion",
        "alpha -faction:independent",
        "health>=120",
        "health>=120 faction:legion alpha",
        "card 064",
        "name:\"card 06499\"",
        "-(faction:legion or faction:protectorate) health<30",
    ] {
        let all = search::search(cat.conn(), q, None).unwrap();
        for k in [1, 50, 200] {
            let first = search::search(cat.conn(), q, Some(k)).unwrap();
            assert_eq!(first, all[..k.min(all.len())], "query `{q}` limit {k}");
        }
    }
}
