//! Ruunara speed: whole missions per second on one core, the squad played by `random` and by
//! `greedy`, on the bundled `eliminate` example mission with the Ardann story squad. Figures
//! go in docs/performance/ruunara.md.

use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};

use deckwright::games::ai::Policy;
use deckwright::games::dice::{RngDice, game_seed};
use deckwright::games::ruunara::engine::{RuunaraGame, Setup};
use deckwright::games::ruunara::mission::MissionFile;
use deckwright::games::ruunara::squad::SquadFile;
use deckwright::sim::play_seeded;

fn setup() -> Setup {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/ruunara/");
    let read = |f: &str| std::fs::read_to_string(format!("{dir}{f}")).expect("example file");
    let cards = deckwright::catalogue::bundled_cards().expect("bundled cards");
    let m = MissionFile::parse(&read("eliminate.mission.toml"), "eliminate.mission.toml")
        .expect("mission");
    let sq = SquadFile::parse(&read("legal-ardann-story.squad.toml"), "squad").expect("squad");
    let members = deckwright::games::ruunara::rules::check_squad(&sq, &cards).members;
    Setup::new(&m.resolve(&members, &cards).expect("resolves")).expect("setup")
}

fn missions(c: &mut Criterion) {
    let s = setup();
    let mut g = c.benchmark_group("ruunara_mission");
    g.measurement_time(Duration::from_secs(3))
        .sample_size(20)
        .warm_up_time(Duration::from_secs(1));
    for (name, policy, n) in [
        ("random_x1000", Policy::Random, 1000u64),
        ("greedy_x100", Policy::Greedy, 100u64),
    ] {
        g.throughput(Throughput::Elements(n));
        g.bench_function(name, |b| {
            let mut seed = 0;
            b.iter(|| {
                seed += 1;
                (0..n)
                    .map(|i| {
                        let k = game_seed(seed, i);
                        play_seeded(RuunaraGame::new(&s), RngDice::new(k), &[policy], k).turns
                            as u64
                    })
                    .sum::<u64>()
            })
        });
    }
    g.finish();
}

criterion_group!(benches, missions);
criterion_main!(benches);
