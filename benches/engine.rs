//! Engine speed: full Iconica matches per second on one core (random and greedy policies)
//! and MCTS playouts per second. Figures go in docs/performance/engine.md.

use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use deckwright::games::iconica::ai::PolicyKind;
use deckwright::games::iconica::engine::{IconicaGame, Rules, Setup};
use deckwright::games::iconica::model::Character;
use deckwright::games::GameState;
use deckwright::sim::iconica::play_one;

fn party(ids: &[&str]) -> Vec<Character> {
    let all: Vec<Character> = deckwright::games::iconica::bundled_characters();
    ids.iter().map(|id| all.iter().find(|c| c.id == *id).expect("bundled card").clone()).collect()
}

fn setup() -> Setup {
    let a = party(&["ico-kethra-voss", "ico-mirel-dask", "ico-vexid-stalker"]);
    let b = party(&["ico-anwen-halloway", "ico-gorm-ashcairn", "ico-ivo-quillon"]);
    Setup::duel(&a, &b, Rules::default()).expect("setup")
}

fn matches(c: &mut Criterion) {
    let s = setup();
    let mut g = c.benchmark_group("iconica_match");
    g.measurement_time(Duration::from_secs(3)).sample_size(20).warm_up_time(Duration::from_secs(1));
    const N: u64 = 1000;
    g.throughput(Throughput::Elements(N));
    g.bench_function("random_vs_random_x1000", |b| {
        let mut seed = 0;
        b.iter(|| {
            seed += 1;
            (0..N).map(|i| play_one(&s, PolicyKind::Random, PolicyKind::Random, seed, i).turns as u64).sum::<u64>()
        })
    });
    g.bench_function("greedy_vs_greedy_x1000", |b| {
        let mut seed = 0;
        b.iter(|| {
            seed += 1;
            (0..N).map(|i| play_one(&s, PolicyKind::Greedy, PolicyKind::Greedy, seed, i).turns as u64).sum::<u64>()
        })
    });
    g.finish();
}

fn playouts(c: &mut Criterion) {
    let s = setup();
    let mut g = c.benchmark_group("mcts");
    g.measurement_time(Duration::from_secs(3)).sample_size(20).warm_up_time(Duration::from_secs(1));
    const N: u64 = 1000;
    g.throughput(Throughput::Elements(N));
    let root = IconicaGame::new(&s);
    g.bench_function("playouts_x1000", |b| {
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        b.iter(|| (0..N).map(|_| root.clone().rollout(&mut rng)[0]).sum::<f64>())
    });
    g.finish();
}

criterion_group!(benches, matches, playouts);
criterion_main!(benches);
