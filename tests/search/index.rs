//! The columns search keeps in each card row (`search_words`, `search_fields`) never change
//! a result: every query gives the same hits, in the same order, as with those columns
//! empty (when search falls back to FTS5 and `card_field` probes for every card). They are
//! kept in step when a card changes, and filled when an older catalogue is migrated.

use crate::common;

use deckwright::cards::{self, Card};
use deckwright::catalogue::{self, Catalogue, synthetic};
use deckwright::search;
use proptest::prelude::*;
use rusqlite::params;

/// Cards whose words or values the row cannot hold exactly (they take the fallback).
fn unusual() -> Vec<Card> {
    let texts = [
        common::merit(
            "arc-cafe",
            "Café Noir",
            "art",
            2,
            None,
            "Quake the café — twice.",
        ),
        common::merit(
            "arc-dash",
            "Iron — Quake",
            "art",
            7,
            None,
            "Strike… then “heal” ×2.",
        ),
        common::ruunara("ruu-frost", "Frost Fang", "sanbari", 5, "Venom Bite"),
    ];
    texts
        .iter()
        .map(|t| cards::parse_card(t, "test card").expect(t))
        .collect()
}

fn catalogue() -> Catalogue {
    let mut cat = Catalogue::open_empty_in_memory().expect("catalogue");
    cat.upsert(&common::cards()).expect("cards");
    cat.upsert(&unusual()).expect("unusual cards");
    cat.upsert(&synthetic::cards(400, 3))
        .expect("synthetic cards");
    let tx = cat.conn_mut().transaction().expect("tx");
    for i in (0..400).step_by(5) {
        tx.execute(
            "INSERT INTO collection(card_id, quantity) VALUES (?1, ?2)",
            params![format!("syn-{i}"), i % 4],
        )
        .expect("collection");
    }
    tx.execute_batch(
        "INSERT INTO collection(card_id, quantity) VALUES ('ico-hadron', 2), ('arc-cafe', 1);",
    )
    .expect("collection");
    tx.commit().expect("commit");
    cat
}

/// The same catalogue with the search columns emptied: the reference behaviour.
fn without_columns() -> Catalogue {
    let cat = catalogue();
    cat.conn()
        .execute(
            "UPDATE card SET search_words = NULL, search_fields = NULL",
            [],
        )
        .expect("empty the columns");
    // so does card_owned's copy of them (a window of owned cards falls back as well)
    assert_owned_in_step(cat.conn());
    cat
}

fn filled_count(cat: &Catalogue) -> (i64, i64) {
    cat.conn()
        .query_row(
            "SELECT count(search_words), count(search_fields) FROM card",
            [],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .expect("count")
}

fn term() -> impl Strategy<Value = String> {
    prop_oneof![
        1 => Just("quake".to_string()),
        1 => Just("qu".to_string()),
        1 => Just("q".to_string()),
        1 => Just("frost".to_string()),
        1 => Just("venom".to_string()),
        1 => Just("\"shield wall\"".to_string()),
        1 => Just("\"fire shield\"".to_string()),
        1 => Just("iron".to_string()),
        1 => Just("cafe".to_string()),
        1 => Just("café".to_string()),
        1 => Just("ka".to_string()),
        1 => Just("name:iron".to_string()),
        1 => Just("name:frost".to_string()),
        1 => Just("name!=iron".to_string()),
        1 => Just("game:iconica".to_string()),
        1 => Just("kind:merit".to_string()),
        1 => Just("id:syn-1".to_string()),
        1 => Just("faction:legion".to_string()),
        1 => Just("faction!=legion".to_string()),
        1 => Just("class:offensive".to_string()),
        1 => Just("terrain:forest".to_string()),
        1 => Just("merit_type:art".to_string()),
        1 => Just("number:007".to_string()),
        1 => Just("number=7".to_string()),
        3 => "(health|cost|hp|points|rating|might)(<|<=|>|>=|=|!=)[0-9]{1,3}",
        3 => "owned(<|<=|>|>=|=|!=)[0-3]",
    ]
}

fn query() -> impl Strategy<Value = String> {
    let atom = prop_oneof![
        3 => term(),
        2 => term().prop_map(|t| format!("-{t}")),
        1 => (term(), term()).prop_map(|(a, b)| format!("({a} or {b})")),
        1 => (term(), term()).prop_map(|(a, b)| format!("-({a} or -{b})")),
    ];
    let order = prop_oneof![
        3 => Just(String::new()),
        1 => Just(" order:cost".to_string()),
        1 => Just(" order:-health".to_string()),
        1 => Just(" order:faction".to_string()),
        1 => Just(" order:-terrain".to_string()),
        1 => Just(" order:owned".to_string()),
    ];
    // a top-level `owned` test that 0 fails: a limited search reads owned cards by name
    let owned = prop_oneof![
        4 => Just(""),
        1 => Just("owned>0 "),
        1 => Just("owned>=2 "),
        1 => Just("owned=1 "),
        1 => Just("owned!=0 "),
    ];
    (owned, prop::collection::vec(atom, 1..4), order)
        .prop_map(|(owned, atoms, order)| format!("{owned}{}{order}", atoms.join(" ")))
}

/// Windows small enough that a limited search on the test catalogue takes each path: enough
/// hits in the first window, in the second, or neither (a search of every card).
const SMALL_WINDOWS: [search::Windows; 3] = [
    search::Windows {
        cards_per_hit: 1,
        min: 1,
        max_growth: 100,
    },
    search::Windows {
        cards_per_hit: 2,
        min: 4,
        max_growth: 5,
    },
    search::Windows {
        cards_per_hit: 5,
        min: 20,
        max_growth: 3,
    },
];

/// Every limited search with small windows gives the start of the whole list `all`.
fn assert_pages_start(conn: &rusqlite::Connection, q: &str, all: &[search::Hit]) {
    let query = search::parse(q).expect("valid query");
    for windows in SMALL_WINDOWS {
        for k in [1, 3, 50] {
            let page =
                search::run_with(conn, &query, Some(k), windows).expect("page of a valid query");
            assert_eq!(
                page,
                all[..k.min(all.len())],
                "query `{q}` limit {k}, {windows:?}"
            );
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 500, ..ProptestConfig::default() })]

    #[test]
    fn the_row_columns_never_change_a_result(q in query()) {
        thread_local! {
            static CATS: (Catalogue, Catalogue) = (catalogue(), without_columns());
        }
        CATS.with(|(fast, reference)| {
            // a page is the start of the whole list (with a limit, `owned` is read last)
            if let Ok(all) = search::search(fast.conn(), &q, None) {
                for k in [1, 3, 50] {
                    let page = search::search(fast.conn(), &q, Some(k)).expect("page of a valid query");
                    assert_eq!(page, all[..k.min(all.len())], "query `{q}` limit {k} against the full list");
                }
                assert_pages_start(fast.conn(), &q, &all);
            }
            for limit in [None, Some(3), Some(50)] {
                let got = search::search(fast.conn(), &q, limit);
                let want = search::search(reference.conn(), &q, limit);
                match (got, want) {
                    (Ok(g), Ok(w)) => assert_eq!(g, w, "query `{q}` limit {limit:?}"),
                    (g, w) => assert_eq!(g.is_ok(), w.is_ok(), "query `{q}`: {g:?} / {w:?}"),
                }
            }
        });
    }
}

#[test]
fn every_ordinary_card_has_its_columns_and_unusual_ones_fall_back() {
    let cat = catalogue();
    let words_null: Vec<String> = cat
        .conn()
        .prepare("SELECT id FROM card WHERE search_words IS NULL ORDER BY id")
        .and_then(|mut st| st.query_map([], |r| r.get(0))?.collect())
        .expect("ids");
    assert_eq!(
        words_null,
        ["arc-cafe"],
        "only the accented card needs FTS5"
    );
    let fields_null: i64 = cat
        .conn()
        .query_row(
            "SELECT count(*) FROM card WHERE search_fields IS NULL",
            [],
            |r| r.get(0),
        )
        .expect("count");
    assert_eq!(fields_null, 0);
    let hits = search::search(cat.conn(), "cafe", Some(50)).expect("search");
    assert_eq!(
        hits.iter().map(|h| h.id.as_str()).collect::<Vec<_>>(),
        ["arc-cafe"]
    );
}

#[test]
fn a_changed_card_is_found_by_its_new_words_and_values_only() {
    let mut cat = catalogue();
    let old =
        search::search(cat.conn(), "name:medic faction:protectorate", Some(50)).expect("search");
    assert_eq!(old.len(), 1);
    let text = common::iconica(
        "ico-medic",
        "Zephyr Mender",
        "legion",
        "supportive",
        "uncommon",
        140,
        "Mend a friend.",
    );
    cat.upsert(&[cards::parse_card(&text, "changed card").expect("card")])
        .expect("re-import");
    for (q, want) in [
        ("name:medic", 0),
        ("zephyr faction:legion health>=140", 1),
        ("faction:protectorate name:zephyr", 0),
        ("mend health=140", 1),
        ("\"wall of shields\" name:zephyr", 0),
    ] {
        for limit in [None, Some(50)] {
            let n = search::search(cat.conn(), q, limit).expect(q).len();
            assert_eq!(n, want, "query `{q}` limit {limit:?}");
        }
    }
}

/// The collection of the migrated catalogue: owned cards, one with quantity 0, one not in
/// the catalogue.
const OWNED_IN_MIGRATED: [(&str, i64); 5] =
    [("syn-3", 2), ("syn-10", 1), ("syn-11", 0), ("ico-hadron", 3), ("gone", 4)];

#[test]
fn migrating_an_older_catalogue_fills_the_columns() {
    let cards: Vec<Card> = common::cards()
        .into_iter()
        .chain(unusual())
        .chain(synthetic::cards(200, 5))
        .collect();
    let mut conn = rusqlite::Connection::open_in_memory().expect("db");
    let migrations = catalogue::migrations();
    // the schema before the search columns: migrations 0001, 0002, 0010, 0011, 0012
    migrations.to_version(&mut conn, 5).expect("older schema");
    {
        // cards written the way the older build wrote them
        let tx = conn.transaction().expect("tx");
        for c in &cards {
            tx.execute(
                "INSERT INTO card(id, game, kind, name, body, texts) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                params![c.id(), c.game().as_str(), c.kind(), c.name(), c.to_toml(), c.texts().join("\n")],
            )
            .expect("card");
            let row = tx.last_insert_rowid();
            for (k, t, n) in catalogue::field_rows(c) {
                tx.execute(
                    "INSERT INTO card_field(card, key, text, num) VALUES (?1, ?2, ?3, ?4)",
                    params![row, k, t, n],
                )
                .expect("field");
            }
        }
        for (id, q) in OWNED_IN_MIGRATED {
            tx.execute(
                "INSERT INTO collection(card_id, quantity) VALUES (?1, ?2)",
                params![id, q],
            )
            .expect("collection");
        }
        tx.commit().expect("commit");
    }
    migrations.to_latest(&mut conn).expect("migrate");
    assert_owned_in_step(&conn);
    assert_eq!(
        search::search(&conn, "owned>=1 cost>=0", None)
            .expect("search")
            .iter()
            .map(|h| (h.id.as_str(), h.owned))
            .collect::<Vec<_>>()
            .len(),
        search::search(&conn, "cost>=0", None)
            .expect("search")
            .iter()
            .filter(|h| h.owned >= 1)
            .count(),
        "owned cards with a cost after the migration"
    );
    let (words, fields): (i64, i64) = conn
        .query_row(
            "SELECT count(search_words), count(search_fields) FROM card",
            [],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .expect("count");
    assert_eq!(
        (words, fields),
        (cards.len() as i64 - 1, cards.len() as i64),
        "all but the accented card"
    );

    let mut fresh = Catalogue::open_empty_in_memory().expect("catalogue");
    fresh.upsert(&cards).expect("cards");
    assert_eq!(filled_count(&fresh), (words, fields));
    let same: i64 = {
        let mut n = 0;
        let mut st = fresh
            .conn()
            .prepare("SELECT id, search_words, search_fields FROM card")
            .expect("select");
        let rows: Vec<(String, Option<String>, Option<String>)> = st
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
            .expect("rows")
            .map(|r| r.expect("row"))
            .collect();
        for (id, w, f) in rows {
            let got: (Option<String>, Option<String>) = conn
                .query_row(
                    "SELECT search_words, search_fields FROM card WHERE id = ?1",
                    [&id],
                    |r| Ok((r.get(0)?, r.get(1)?)),
                )
                .expect("migrated card");
            assert_eq!(got, (w, f), "card {id}");
            n += 1;
        }
        n
    };
    assert_eq!(same, cards.len() as i64);
    for (id, q) in OWNED_IN_MIGRATED {
        fresh
            .conn()
            .execute(
                "INSERT INTO collection(card_id, quantity) VALUES (?1, ?2)",
                params![id, q],
            )
            .expect("collection");
    }
    for q in [
        "quake",
        "faction:legion health>=100",
        "cost<=3 owned>0",
        "health>=0 owned>=2",
        "kind:merit order:-cost",
        "terrain:forest -rating>3",
    ] {
        assert_eq!(
            search::search(&conn, q, Some(50)).expect(q),
            search::search(fresh.conn(), q, Some(50)).expect(q),
            "query `{q}`"
        );
    }
}

/// `card_owned` (search's copy of the collection by card rowid) holds exactly the owned
/// quantity of every collection entry whose card is in the catalogue, with a copy of the
/// card's columns that a window of owned cards reads.
fn assert_owned_in_step(conn: &rusqlite::Connection) {
    const COLUMNS: &str = "id, game, kind, name, search_words, search_fields";
    let rows = |sql: &str| -> Vec<Vec<rusqlite::types::Value>> {
        conn.prepare(sql)
            .and_then(|mut st| {
                let n = st.column_count();
                st.query_map([], |r| (0..n).map(|i| r.get(i)).collect())?
                    .collect()
            })
            .expect(sql)
    };
    let c_columns = COLUMNS.replace(", ", ", c.");
    assert_eq!(
        rows(&format!(
            "SELECT card, quantity, {COLUMNS} FROM card_owned ORDER BY card"
        )),
        rows(&format!(
            "SELECT c.rowid, co.quantity, c.{c_columns} FROM collection AS co JOIN card AS c ON c.id = co.card_id ORDER BY c.rowid"
        )),
        "card_owned against the collection"
    );
}

/// A change to the collection or to the cards.
#[derive(Debug, Clone)]
enum Change {
    /// The app's way: set a card's quantity (0 removes it); unknown cards are refused.
    SetOwned(u64, u32),
    /// Straight SQL (e.g. a CSV import of cards not yet in the catalogue).
    InsertOwned(u64, u32),
    RenameOwned(u64, u64),
    DeleteOwned(u64),
    /// Import cards `from..from + n` (new ones, or re-imports with other content).
    Import(u64, u64, u64),
    DeleteCard(u64),
    RenameCard(u64, u64),
}

fn change() -> impl Strategy<Value = Change> {
    prop_oneof![
        3 => (0..30u64, 0..4u32).prop_map(|(i, q)| Change::SetOwned(i, q)),
        2 => (0..30u64, 0..4u32).prop_map(|(i, q)| Change::InsertOwned(i, q)),
        1 => (0..30u64, 0..30u64).prop_map(|(a, b)| Change::RenameOwned(a, b)),
        1 => (0..30u64).prop_map(Change::DeleteOwned),
        2 => (0..30u64, 1..8u64, 0..3u64).prop_map(|(a, n, s)| Change::Import(a, n, s)),
        1 => (0..30u64).prop_map(Change::DeleteCard),
        1 => (0..30u64, 30..40u64).prop_map(|(a, b)| Change::RenameCard(a, b)),
    ]
}

fn apply(cat: &mut Catalogue, c: &Change) {
    let id = |i: &u64| format!("syn-{i}");
    let sql = |cat: &Catalogue, sql: &str, p: &[&dyn rusqlite::ToSql]| {
        // a constraint (a duplicate id) may refuse the change: nothing changes then
        let _ = cat.conn().execute(sql, p);
    };
    match c {
        Change::SetOwned(i, q) => {
            let _ = cat.set_owned(&id(i), *q);
        }
        Change::InsertOwned(i, q) => sql(
            cat,
            "INSERT OR REPLACE INTO collection(card_id, quantity) VALUES (?1, ?2)",
            &[&id(i), q],
        ),
        Change::RenameOwned(a, b) => sql(
            cat,
            "UPDATE collection SET card_id = ?2 WHERE card_id = ?1",
            &[&id(a), &id(b)],
        ),
        Change::DeleteOwned(i) => sql(cat, "DELETE FROM collection WHERE card_id = ?1", &[&id(i)]),
        Change::Import(from, n, seed) => {
            let cards: Vec<Card> = (*from..from + n)
                .map(|i| synthetic::card(i, *seed))
                .collect();
            cat.upsert(&cards).expect("import");
        }
        Change::DeleteCard(i) => sql(cat, "DELETE FROM card WHERE id = ?1", &[&id(i)]),
        Change::RenameCard(a, b) => sql(
            cat,
            "UPDATE card SET id = ?2 WHERE id = ?1",
            &[&id(a), &id(b)],
        ),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// Whatever changes the collection or the cards, `owned` tests see the collection.
    #[test]
    fn owned_follows_the_collection_and_the_cards(changes in prop::collection::vec(change(), 1..25)) {
        let mut cat = Catalogue::open_empty_in_memory().expect("catalogue");
        cat.upsert(&synthetic::cards(20, 1)).expect("cards");
        for c in &changes {
            apply(&mut cat, c);
        }
        assert_owned_in_step(cat.conn());
        // each `owned` test next to a field test (folded into its set) against the owned
        // quantity every hit shows (read from the collection by id)
        for (test, holds) in [
            ("owned>0", (|q| q > 0) as fn(i64) -> bool),
            ("owned>=2", |q| q >= 2),
            ("owned=0", |q| q == 0),
            ("owned!=1", |q| q != 1),
        ] {
            for field in ["cost>=0", "health>=0", "faction:legion"] {
                let Ok(all) = search::search(cat.conn(), field, None) else { continue };
                let want: Vec<_> = all.into_iter().filter(|h| holds(h.owned)).collect();
                let q = format!("{field} {test}");
                prop_assert_eq!(&search::search(cat.conn(), &q, None).expect("search"), &want, "query `{}`", q);
                // windows of owned cards by name (`owned>0`, `owned>=2`) after the changes
                assert_pages_start(cat.conn(), &q, &want);
            }
        }
    }
}
