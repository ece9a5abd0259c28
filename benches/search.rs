//! Search over a synthetic catalogue of 100,000 cards (`catalogue::synthetic`): free text,
//! three filters, a negated `or`, with the app's limit (50) and without a limit.
//! Figures and the command: docs/performance/search.md.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use deckwright::catalogue::{Catalogue, synthetic};
use deckwright::search;

const CARDS: u64 = 100_000;

fn catalogue_of(n: u64) -> Catalogue {
    let mut cat = Catalogue::open_empty_in_memory().expect("catalogue");
    synthetic::fill(&mut cat, n, 1).expect("synthetic cards");
    let tx = cat.sql_for_tests_mut().transaction().expect("tx");
    for i in (0..n).step_by(7) {
        tx.execute(
            "INSERT INTO collection(card_id, quantity) VALUES (?1, ?2)",
            rusqlite::params![format!("syn-{i}"), (i % 3 + 1) as i64],
        )
        .expect("collection");
    }
    tx.commit().expect("commit");
    cat
}

const QUERIES: [(&str, &str); 8] = [
    ("free text, rare word", "kazen"),
    ("free text, common word", "quake"),
    ("free text, two words", "frost venom"),
    ("three filters", "game:iconica faction:legion health>=100"),
    (
        "negated or",
        "-(faction:legion or faction:protectorate) class:offensive",
    ),
    ("numeric + owned", "cost<=3 owned>0"),
    ("numeric + owned at least 2", "health>=100 owned>=2"),
    ("order by number", "kind:merit order:-cost"),
];

fn bench(c: &mut Criterion) {
    let cat = catalogue_of(CARDS);
    let conn = cat.sql_for_tests();
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
