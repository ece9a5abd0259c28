//! Print speed: a 1,000-card vector PDF with backs, one 300 dpi PNG per card, the live
//! preview of one card at screen size, and 1,000 cards to MakePlayingCards PNGs and to
//! Tabletop Simulator sheets.
//!
//! `CARGO_TARGET_DIR=/work/target-print-rel cargo bench --bench print`

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use deckwright::cards::Card;
use deckwright::catalogue::bundled_cards;
use deckwright::print::export::{ExportOptions, export_pngs, pdf_bytes};
use deckwright::print::layout;
use deckwright::print::vendor::{self, Preset};
use deckwright::print::{Assets, RenderSpec, Side, render, render_preview, tts, vector};

fn a4_backs() -> ExportOptions {
    let mut o = ExportOptions::new(layout::paper("a4").expect("a4 is a paper"));
    o.backs = true;
    o.crop_marks = true;
    o
}

/// 1,000 cards: the bundled set repeated (each distinct card rendered once).
fn thousand_repeated(all: &[Card]) -> Vec<Card> {
    all.iter().cycle().take(1000).cloned().collect()
}

/// 1,000 distinct cards: the bundled set with new ids (every card rendered).
fn thousand_distinct(all: &[Card]) -> Vec<Card> {
    (0..1000)
        .map(|i| {
            let mut c = all[i % all.len()].clone();
            let id = format!("{}-{i}", c.id());
            match &mut c {
                Card::Iconica(x) => x.id = id,
                Card::Iconoclasm(x) => x.id = id,
                Card::Ruunara(x) => x.id = id,
                Card::Arcadia(a) => {
                    use deckwright::games::arcadia::model::ArcadiaCard as A;
                    match a {
                        A::Icon(x) => x.id = id,
                        A::Merit(x) => x.id = id,
                        A::Flaw(x) => x.id = id,
                        A::Waylay(x) => x.id = id,
                        A::League(x) => x.id = id,
                        A::Quest(x) => x.id = id,
                    }
                }
            }
            c
        })
        .collect()
}

fn benches(c: &mut Criterion) {
    let all = bundled_cards().expect("bundled cards load");
    let heavy = all
        .iter()
        .find(|c| matches!(c, Card::Iconica(_)))
        .expect("an Iconica card")
        .clone();
    let assets = Assets::default();

    c.bench_function("preview_250x350_iconica", |b| {
        b.iter(|| black_box(render_preview(&heavy, 250, 350, &assets)))
    });
    c.bench_function("render_300dpi_iconica", |b| {
        b.iter(|| {
            black_box(render(
                &heavy,
                Side::Front,
                &RenderSpec::poker(300.0),
                &assets,
            ))
        })
    });
    c.bench_function("png_300dpi_one_card_render_and_encode", |b| {
        b.iter(|| {
            black_box(
                render(&heavy, Side::Front, &RenderSpec::poker(300.0), &assets)
                    .map(|i| i.encode_png(Some(300.0))),
            )
        })
    });

    c.bench_function("vector_face_iconica", |b| {
        b.iter(|| {
            black_box(
                vector::draw(&heavy, Side::Front, 63.0, 88.0, 0.0, &assets)
                    .content
                    .len(),
            )
        })
    });

    let mut slow = c.benchmark_group("sheets");
    slow.sample_size(10)
        .measurement_time(Duration::from_secs(20))
        .warm_up_time(Duration::from_secs(1));
    let opts = a4_backs();
    let repeated = thousand_repeated(&all);
    slow.bench_function("pdf_1000_cards_backs_bundled_repeated", |b| {
        b.iter(|| black_box(pdf_bytes(&repeated, &opts).expect("pdf").len()))
    });
    let distinct = thousand_distinct(&all);
    for (name, cards) in [("bundled repeated", &repeated), ("distinct", &distinct)] {
        let bytes = pdf_bytes(cards, &opts).expect("pdf").len();
        eprintln!(
            "1,000 cards with backs ({name}): {:.1} MB",
            bytes as f64 / 1e6
        );
    }
    slow.bench_function("pdf_1000_distinct_cards_backs", |b| {
        b.iter(|| black_box(pdf_bytes(&distinct, &opts).expect("pdf").len()))
    });
    let dir = std::env::temp_dir().join(format!("deckwright-bench-png-{}", std::process::id()));
    slow.bench_function("png_300dpi_bundled_set", |b| {
        b.iter(|| black_box(export_pngs(&all, &opts, &dir).expect("pngs").len()))
    });
    slow.finish();
    let _ = std::fs::remove_dir_all(&dir);

    // Vendor files: 1,000 distinct cards to MakePlayingCards PNGs (822 x 1122 px each, every
    // face rendered, encoded and written) and to Tabletop Simulator sheets (15 sheets of
    // 4000 x 3913 px, each of 69 cards, and deck.json).
    let mut vendors = c.benchmark_group("vendors");
    vendors
        .sample_size(10)
        .sampling_mode(criterion::SamplingMode::Flat)
        .measurement_time(Duration::from_secs(60))
        .warm_up_time(Duration::from_secs(1));
    let out = std::env::temp_dir().join(format!("deckwright-bench-vendors-{}", std::process::id()));
    let mpc = out.join("mpc");
    vendors.bench_function("mpc_pngs_1000_distinct_cards", |b| {
        b.iter(|| {
            black_box(
                vendor::export(&distinct, Preset::Mpc, &assets, &mpc)
                    .expect("mpc")
                    .files
                    .len(),
            )
        })
    });
    let tts_dir = out.join("tts");
    vendors.bench_function("tts_sheets_1000_distinct_cards", |b| {
        b.iter(|| {
            black_box(
                tts::export(&distinct, &assets, &tts_dir)
                    .expect("tts")
                    .sheets,
            )
        })
    });
    vendors.finish();
    let size = |d: &std::path::Path| -> u64 {
        std::fs::read_dir(d)
            .map(|r| {
                r.filter_map(|e| e.ok()?.metadata().ok())
                    .map(|m| m.len())
                    .sum()
            })
            .unwrap_or(0)
    };
    eprintln!(
        "1,000 cards: MakePlayingCards PNGs {:.0} MB, Tabletop Simulator sheets {:.0} MB",
        size(&mpc) as f64 / 1e6,
        size(&tts_dir) as f64 / 1e6
    );
    let _ = std::fs::remove_dir_all(&out);
}

criterion_group! {
    name = print;
    config = Criterion::default().measurement_time(Duration::from_secs(3)).sample_size(20);
    targets = benches
}
criterion_main!(print);
