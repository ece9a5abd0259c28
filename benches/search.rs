//! Search over a synthetic catalogue of 100,000 cards: free text, three filters, a negated
//! `or`, with the app's limit (50) and without a limit. Figures: docs/performance/search.md.
//!
//! The cards are the bundled ones cloned with new ids, a generated word in front of the name
//! and varied faction, class, cost, rating and hp.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use deckwright::cards::{self, Card};
use deckwright::catalogue::{self, Catalogue};
use deckwright::search;

const CARDS: usize = 100_000;

/// A pronounceable word for card `i` (deterministic).
fn word(i: usize) -> String {
    const SYL: [&str; 16] = [
        "ka", "ro", "ven", "dal", "mir", "tho", "sel", "gar", "un", "bri", "os", "le", "quin",
        "tar", "ez", "fy",
    ];
    let mut n = i.wrapping_mul(2_654_435_761) % 65_536;
    let mut w = String::new();
    for _ in 0..3 {
        w.push_str(SYL[n % 16]);
        n /= 16;
    }
    let mut c = w.chars();
    c.next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}

/// Card `i`: a bundled card with a new id and name and some fields varied.
fn synthetic(base: &Card, i: usize) -> Card {
    let mut t: toml::Table = toml::from_str(&base.to_toml()).expect("bundled card TOML");
    let set = |t: &mut toml::Table, k: &str, v: toml::Value| {
        t.insert(k.to_string(), v);
    };
    set(&mut t, "id", format!("{}-{i:06}", base.id()).into());
    set(
        &mut t,
        "name",
        format!("{} {}", word(i), base.name()).into(),
    );
    match base {
        Card::Iconica(_) => {
            set(
                &mut t,
                "faction",
                ["legion", "protectorate", "independent"][i % 3].into(),
            );
            set(
                &mut t,
                "class",
                [
                    "offensive",
                    "defensive",
                    "disruptive",
                    "supportive",
                    "adaptive",
                ][i / 3 % 5]
                    .into(),
            );
        }
        Card::Arcadia(_) if base.kind() == "merit" => set(&mut t, "cost", ((i % 8) as i64).into()),
        Card::Arcadia(_) if base.kind() == "waylay" => {
            set(&mut t, "rating", ((i % 6 + 1) as i64).into())
        }
        Card::Ruunara(_) => set(&mut t, "hp", ((i % 6 + 1) as i64).into()),
        _ => {}
    }
    let text = toml::to_string(&t).expect("TOML");
    cards::parse_card(&text, "synthetic").unwrap_or_else(|e| panic!("{e}\n{text}"))
}

fn catalogue_of(n: usize) -> Catalogue {
    let base = catalogue::bundled_cards().expect("bundled cards");
    let cards: Vec<Card> = (0..n)
        .map(|i| synthetic(&base[i % base.len()], i))
        .collect();
    let mut cat = Catalogue::open_empty_in_memory().expect("catalogue");
    cat.upsert(&cards).expect("upsert");
    let tx = cat.conn_mut().transaction().expect("tx");
    for (i, c) in cards.iter().enumerate().filter(|(i, _)| i % 7 == 0) {
        tx.execute(
            "INSERT INTO collection(card_id, quantity) VALUES (?1, ?2)",
            rusqlite::params![c.id(), (i % 3 + 1) as i64],
        )
        .expect("collection");
    }
    tx.commit().expect("commit");
    cat.conn().execute_batch("ANALYZE").expect("analyze");
    cat
}

const QUERIES: [(&str, &str); 7] = [
    ("free text, rare word", "kavendal"),
    ("free text, common word", "damage"),
    ("free text, two words", "heal friendly"),
    ("three filters", "game:iconica faction:legion health>=100"),
    (
        "negated or",
        "-(faction:legion or faction:protectorate) class:offensive",
    ),
    ("numeric + owned", "cost<=3 owned>0"),
    ("order by number", "kind:merit order:-cost"),
];

fn bench(c: &mut Criterion) {
    let cat = catalogue_of(CARDS);
    let conn = cat.conn();
    for (label, q) in QUERIES {
        let n = search::search(conn, q, None).expect(q).len();
        eprintln!("{label}: `{q}` finds {n} cards");
    }
    let mut g = c.benchmark_group("search 100k");
    g.measurement_time(Duration::from_secs(3))
        .sample_size(20)
        .warm_up_time(Duration::from_secs(1));
    for (label, q) in QUERIES {
        g.bench_function(format!("{label}, limit 50"), |b| {
            b.iter(|| search::search(conn, black_box(q), Some(50)).expect(q))
        });
        g.bench_function(format!("{label}, all"), |b| {
            b.iter(|| search::search(conn, black_box(q), None).expect(q))
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
