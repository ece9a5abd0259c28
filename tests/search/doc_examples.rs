//! Every search example of the README and the docs finds what the text says it finds, over the
//! bundled catalogue (a new user tried `faction:legion cost<=3 ...` from the README and found
//! nothing: Iconica cards have no cost).

use std::collections::BTreeSet;

use deckwright::catalogue::Catalogue;

fn found(cat: &Catalogue, q: &str) -> BTreeSet<String> {
    cat.search(q, None)
        .unwrap_or_else(|e| panic!("{q}: {e}"))
        .into_iter()
        .map(|h| h.id)
        .collect()
}

fn doc(path: &str) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The bundled catalogue with one Iconica character owned, as after the README's
/// `deckwright collection set ico-kethra-voss 2`.
fn catalogue() -> Catalogue {
    let mut cat = Catalogue::open_in_memory().unwrap();
    cat.set_owned("ico-kethra-voss", 2).unwrap();
    cat
}

/// The queries of the lines that start with `deckwright search` (not the `$ ` lines showing
/// an error): the quoted query, or the bare words after `search` and its options.
fn command_lines(text: &str) -> Vec<String> {
    text.lines()
        .filter_map(|l| l.trim_start().strip_prefix("deckwright search "))
        .map(|rest| {
            let rest = rest.split("  #").next().unwrap_or(rest);
            match (rest.find('\''), rest.rfind('\'')) {
                (Some(a), Some(b)) if b > a => rest[a + 1..b].to_string(),
                _ => rest
                    .split_whitespace()
                    .filter(|w| !w.starts_with("--"))
                    .collect::<Vec<_>>()
                    .join(" "),
            }
        })
        .collect()
}

#[test]
fn readme_search_examples_find_what_they_say() {
    let cat = catalogue();
    let readme = doc("README.md");
    let mut queries = command_lines(&readme);
    queries.extend(command_lines(&doc("docs/search.md")));
    assert!(queries.len() >= 6, "{queries:?}");
    for q in &queries {
        assert!(!found(&cat, q).is_empty(), "`{q}` finds no card");
    }

    // The first example of the README, in its feature list.
    let first = "faction:legion health>=100 -class:offensive order:-health";
    assert!(readme.contains(&format!("(`{first}`)")));
    let ids = found(&cat, first);
    assert!(ids.contains("ico-kethra-voss"), "{ids:?}");
    assert!(
        !readme.contains("faction:legion cost<=3"),
        "Iconica cards have no cost"
    );
}

#[test]
fn the_examples_table_of_docs_search_finds_a_card_for_every_row() {
    let cat = catalogue();
    let text = doc("docs/search.md");
    let table = text
        .split("## Examples")
        .nth(1)
        .expect("docs/search.md has an Examples section");
    let mut rows = 0;
    for line in table.lines().filter(|l| l.starts_with("| `")) {
        let first_cell = line.split(" | ").next().unwrap();
        // `"next turn"` or `"all opposing"`: each quoted query of the cell.
        for q in first_cell.split('`').skip(1).step_by(2) {
            assert!(!found(&cat, q).is_empty(), "`{q}` finds no card");
            rows += 1;
        }
    }
    assert!(rows >= 12, "{rows} examples read");
    // The first table (what you write, what you find).
    let head = text.split("## Free text").next().unwrap();
    for line in head.lines().filter(|l| l.starts_with("| `")) {
        let q = line.split('`').nth(1).unwrap();
        assert!(!found(&cat, q).is_empty(), "`{q}` finds no card");
    }
}

/// The cards the prose of docs/search.md names as found, and as not found.
#[test]
fn the_cards_docs_search_names_are_the_ones_found() {
    let cat = catalogue();
    let text = doc("docs/search.md")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    let claims: [(&str, &[&str], &[&str]); 9] = [
        ("quake", &["ico-grumbolt"], &[]),
        ("stone fist", &["ico-gorm-ashcairn"], &[]),
        ("\"shield wall\"", &["ru-ardann-smithguard"], &[]),
        ("iron", &["ico-anwen-halloway"], &[]),
        (
            "ward",
            &[
                "arc-l-brassgate-ward",
                "ru-kangara-spirit-warden",
                "ico-anwen-halloway",
            ],
            &[],
        ),
        (
            "name:ward",
            &["arc-l-brassgate-ward", "ru-kangara-spirit-warden"],
            &["ico-anwen-halloway"],
        ),
        ("name:\"brassgate ward\"", &["arc-l-brassgate-ward"], &[]),
        (
            "affiliation:\"seventh shieldwall\"",
            &["ico-kethra-voss", "ico-ossra-tain"],
            &[],
        ),
        ("id:ico-kethra", &["ico-kethra-voss"], &[]),
    ];
    for (q, yes, no) in claims {
        assert!(
            text.contains(&format!("`{q}`")),
            "docs/search.md shows `{q}`"
        );
        let ids = found(&cat, q);
        for id in yes {
            assert!(ids.contains(*id), "`{q}` finds {id}: {ids:?}");
        }
        for id in no {
            assert!(!ids.contains(*id), "`{q}` does not find {id}: {ids:?}");
        }
    }
    // The examples that find nothing on purpose.
    assert!(found(&cat, "faction:leg").is_empty());
    assert!(found(&cat, "cost<=3 game:iconica").is_empty());
}
