//! Search over the bundled cards, checked against the cards' own fields.

use std::collections::BTreeSet;

use deckwright::cards::FieldValue;
use deckwright::catalogue::Catalogue;

fn found(cat: &Catalogue, q: &str) -> BTreeSet<String> {
    cat.search(q, None)
        .unwrap_or_else(|e| panic!("{q}: {e}"))
        .into_iter()
        .map(|h| h.id)
        .collect()
}

#[test]
fn every_text_field_value_finds_exactly_the_cards_that_have_it() {
    let cat = Catalogue::open_in_memory().unwrap();
    let cards = cat.all().unwrap();
    assert!(!cards.is_empty(), "bundled cards");
    let mut pairs = BTreeSet::new();
    for c in &cards {
        for (k, v) in c.fields() {
            if let FieldValue::Text(t) = v
                && !t.contains('"')
                && !["game", "kind", "id", "name"].contains(&k.as_str())
            {
                pairs.insert((k, t.to_lowercase()));
            }
        }
    }
    assert!(pairs.len() > 50);
    for (k, t) in pairs.iter().take(250) {
        let expected: BTreeSet<String> = cards
            .iter()
            .filter(|c| {
                c.fields().iter().any(|(ck, cv)| {
                    ck == k && matches!(cv, FieldValue::Text(x) if x.to_lowercase() == *t)
                })
            })
            .map(|c| c.id().to_string())
            .collect();
        let q = format!("{k}:\"{t}\"");
        assert_eq!(found(&cat, &q), expected, "{q}");
        // negation is the complement
        let not = found(&cat, &format!("-{q}"));
        assert_eq!(not.len() + expected.len(), cards.len(), "-{q}");
    }
}

#[test]
fn numeric_comparisons_agree_with_the_cards() {
    let cat = Catalogue::open_in_memory().unwrap();
    let cards = cat.all().unwrap();
    for (k, n) in [
        ("health", 100.0),
        ("cost", 3.0),
        ("points", 2.0),
        ("rating", 4.0),
        ("hp", 3.0),
    ] {
        for (op, f) in [
            ("<", f64::lt as fn(&f64, &f64) -> bool),
            ("<=", f64::le),
            (">", f64::gt),
            (">=", f64::ge),
        ] {
            let expected: BTreeSet<String> = cards
                .iter()
                .filter(|c| {
                    c.fields()
                        .iter()
                        .any(|(ck, cv)| ck == k && matches!(cv, FieldValue::Num(x) if f(x, &n)))
                })
                .map(|c| c.id().to_string())
                .collect();
            assert_eq!(found(&cat, &format!("{k}{op}{n}")), expected, "{k}{op}{n}");
        }
    }
}

#[test]
fn spec_examples_run_on_the_bundled_cards() {
    let cat = Catalogue::open_in_memory().unwrap();
    for q in [
        "game:iconica faction:legion",
        "class:offensive",
        "kind:merit merit_type:art",
        "flaw_type:curse",
        "terrain:forest",
        "cost<=3",
        "health>=100",
        "owned>0",
        "-faction:legion",
        "-(class:offensive or class:defensive)",
        "(faction:legion or faction:protectorate)",
        "order:cost",
        "order:-health",
        "id:ico-",
    ] {
        cat.search(q, None).unwrap_or_else(|e| panic!("{q}: {e}"));
    }
    assert!(!found(&cat, "game:iconica faction:legion").is_empty());
    assert!(!found(&cat, "terrain:forest").is_empty());
    let by_health = cat.search("game:iconica order:-health", None).unwrap();
    let healths: Vec<f64> = by_health
        .iter()
        .map(|h| {
            let c = cat.get(&h.id).unwrap().unwrap();
            c.fields()
                .into_iter()
                .find_map(|(k, v)| match v {
                    FieldValue::Num(n) if k == "health" => Some(n),
                    _ => None,
                })
                .unwrap()
        })
        .collect();
    assert!(healths.windows(2).all(|w| w[0] >= w[1]), "{healths:?}");
}

#[test]
fn accents_are_ignored_in_free_text() {
    let mut cat = Catalogue::open_empty_in_memory().unwrap();
    let text = "game = \"arcadia\"\nkind = \"flaw\"\nid = \"arc-x\"\nname = \"Épée Rouillée\"\ntext = \"Un coup d'épée.\"\nflaw_type = \"curse\"\npoints = 1\n";
    cat.upsert(&[deckwright::cards::parse_card(text, "x").unwrap()])
        .unwrap();
    assert_eq!(found(&cat, "epee").len(), 1);
    assert_eq!(found(&cat, "ÉPÉE").len(), 1);
    assert_eq!(found(&cat, "name:rouill").len(), 1);
}
