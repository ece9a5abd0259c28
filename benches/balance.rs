//! Balance: from an edit of an Iconica character to a verdict within +/-0.02 (95%) against
//! the bundled field with `greedy` (the card editor's loop: the field is built and the
//! edited card measured until its interval is narrow enough), on every core; and an Arcadia
//! merit's paired verdict against what its points buy otherwise, over the built-in setups.
//!
//!   cargo bench --bench balance

use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use deckwright::balance::arcadia::{self as arc, Subject};
use deckwright::balance::iconica::{Balance, NEVER, Settings};
use deckwright::balance::{Runner, Stopping};
use deckwright::catalogue::bundled_cards;
use deckwright::games::ai::Policy;
use deckwright::games::build::CardIndex;
use deckwright::games::iconica::bundled_characters;
use deckwright::games::iconica::engine::Rules;

fn bench(c: &mut Criterion) {
    let pool = bundled_characters();
    let mut card = pool
        .iter()
        .find(|c| c.id == "ico-kethra-voss")
        .unwrap()
        .clone();
    // The edit: 10 more Start health.
    card.health.start += 10;
    let runner = Runner::new(None, Stopping::default(), &NEVER).unwrap();
    let mut g = c.benchmark_group("balance");
    g.sample_size(10).measurement_time(Duration::from_secs(20));
    for (name, ai) in [("greedy", Policy::Greedy), ("random", Policy::Random)] {
        let settings = Settings {
            rules: Rules::default(),
            ai,
            seed: 1,
        };
        g.bench_function(format!("edit_to_verdict_0.02_{name}"), |b| {
            b.iter(|| {
                let mut bal = Balance::new(&pool, &card, None, settings, &runner).unwrap();
                let r = bal.rate().unwrap();
                assert!(r.half_width() <= 0.02);
                r
            })
        });
    }
    g.finish();
}

/// Lucky Star (cost 4) against the builder's spending of its 4 points, paired, until the
/// difference is known to +/-0.02 (or 100,000 games), over every legal built-in setup: what
/// `balance arcadia arc-m-lucky-star --no-worth` measures.
fn arcadia(c: &mut Criterion) {
    let index = CardIndex::new(bundled_cards().unwrap());
    let shop = arc::shop(index.cards());
    let star = shop
        .iter()
        .find(|m| m.id == "arc-m-lucky-star")
        .unwrap()
        .clone();
    let field = arc::example_field(&index);
    let runner = Runner::new(None, Stopping::default(), &NEVER).unwrap();
    let mut g = c.benchmark_group("balance");
    g.sample_size(10).measurement_time(Duration::from_secs(20));
    for (name, ai) in [("greedy", Policy::Greedy), ("random", Policy::Random)] {
        let settings = arc::Settings {
            ai,
            seed: 1,
            turn_limit: 500,
        };
        g.bench_function(format!("arcadia_merit_verdict_0.02_{name}"), |b| {
            b.iter(|| {
                let subject = Subject::Merit(star.clone());
                arc::report(&field, &subject, &shop, &index, settings, &runner, false).unwrap()
            })
        });
    }
    g.finish();
}

criterion_group!(benches, bench, arcadia);
criterion_main!(benches);
