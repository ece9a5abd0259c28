//! Catalogue benchmarks: importing 10,000 generated card files into a new catalogue,
//! filling a catalogue with generated cards, looking cards up, and the cold start of the
//! CLI (`deckwright search` end to end on the bundled catalogue).
//!
//! Run: `cargo bench --bench catalogue`. Figures: docs/performance/catalogue.md.

use std::path::Path;
use std::process::Command;
use std::time::Duration;

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use deckwright::cards::CardLookup;
use deckwright::catalogue::{Catalogue, synthetic};

fn import_10k(c: &mut Criterion) {
    let dir = tempfile::tempdir().unwrap();
    let files = dir.path().join("cards");
    synthetic::write_files(&files, 10_000, 1).unwrap();
    let mut g = c.benchmark_group("import");
    g.sample_size(10).measurement_time(Duration::from_secs(20)).warm_up_time(Duration::from_secs(1));
    let mut n = 0;
    g.bench_function("10k_files_into_new_catalogue", |b| {
        b.iter_batched(
            || {
                n += 1;
                let db = dir.path().join(format!("cat-{n}.sqlite"));
                Catalogue::open(&db).unwrap()
            },
            |mut cat| {
                let r = cat.import_paths(std::slice::from_ref(&files)).unwrap();
                assert_eq!(r.added, 10_000);
                cat
            },
            BatchSize::PerIteration,
        )
    });
    g.finish();
}

fn fill_and_lookup(c: &mut Criterion) {
    let mut g = c.benchmark_group("catalogue");
    g.sample_size(10).measurement_time(Duration::from_secs(10)).warm_up_time(Duration::from_secs(1));
    g.bench_function("synthetic_fill_10k_in_memory", |b| {
        b.iter_batched(
            || Catalogue::open_empty_in_memory().unwrap(),
            |mut cat| {
                synthetic::fill(&mut cat, 10_000, 2).unwrap();
                cat
            },
            BatchSize::PerIteration,
        )
    });
    let mut cat = Catalogue::open_empty_in_memory().unwrap();
    synthetic::fill(&mut cat, 10_000, 2).unwrap();
    g.sample_size(20).measurement_time(Duration::from_secs(3));
    let mut i = 0u64;
    g.bench_function("card_by_id_in_10k", |b| {
        b.iter(|| {
            i = (i + 7919) % 10_000;
            cat.card(&format!("syn-{i}")).unwrap()
        })
    });
    g.finish();
}

/// `deckwright --db <bundled catalogue> search <query>` as a new process, end to end.
fn cold_start(c: &mut Criterion) {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("bundled.sqlite");
    let run = |db: &Path| {
        let out = Command::new(env!("CARGO_BIN_EXE_deckwright"))
            .arg("--db")
            .arg(db)
            .args(["search", "fire"])
            .output()
            .unwrap();
        out.status.code()
    };
    run(&db); // first use: create, migrate, fill
    let mut g = c.benchmark_group("cli");
    g.sample_size(30).measurement_time(Duration::from_secs(5)).warm_up_time(Duration::from_secs(1));
    g.bench_function("search_cold_start_bundled", |b| b.iter(|| run(&db)));
    g.bench_function("first_use_create_migrate_fill", |b| {
        let mut n = 0;
        b.iter(|| {
            n += 1;
            run(&dir.path().join(format!("new-{n}.sqlite")))
        })
    });
    g.finish();
}

criterion_group!(benches, import_10k, fill_and_lookup, cold_start);
criterion_main!(benches);
