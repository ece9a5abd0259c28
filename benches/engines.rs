//! Every registered game's engine side by side (issue #28), on one core: whole matches a
//! second with every seat played by random, greedy and mcts (a fixed budget of 32 playouts a
//! decision), and the cost of cloning a position and of listing a decision's options in
//! words. Each game starts from its regression record's options (`tests/games/records/`),
//! opened through the registry and driven through `AnyGame`, so every game is measured the
//! same way (`AnyGame::play_on` is what `play` runs). Figures go in docs/performance.md.
//!
//! `cargo bench --bench engines` (all), `cargo bench --bench engines -- arcadia` (one game).

use std::hint::black_box;
use std::path::Path;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};

use deckwright::cards::Card;
use deckwright::games::ai::{Budget, Policy};
use deckwright::games::any::AnyGame;
use deckwright::games::dice::RngDice;
use deckwright::games::game::Turn;
use deckwright::games::record::MatchRecord;
use deckwright::games::registry;

/// Each regression record's game at its start: (game, position).
fn starts() -> Vec<(String, Box<dyn AnyGame>)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/games/records");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("the records folder")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.to_string_lossy().ends_with(".match.toml"))
        .collect();
    files.sort();
    let none: Vec<Card> = Vec::new();
    files
        .iter()
        .map(|p| {
            let r = MatchRecord::load(p).expect("a regression record");
            let game = registry::find(&r.game).expect("a registered game");
            let opened = (game.open)(&r.options, &none).expect("its start");
            (r.game.clone(), opened.game)
        })
        .collect()
}

/// The first decision of a match from `start` (chance drawn as the position fixes it, or
/// from seeded dice: the same outcome every time could tie a first-player roll forever).
fn first_decision(start: &dyn AnyGame) -> Box<dyn AnyGame> {
    let mut g = start.clone_box();
    let mut dice = RngDice::new(1);
    loop {
        match g.turn() {
            Turn::Seat { .. } | Turn::Over => return g,
            Turn::Chance(c) => {
                let o = g.dealt(c).or_else(|| c.draw(&mut dice)).unwrap_or(0);
                g.apply(o);
            }
        }
    }
}

fn engines(c: &mut Criterion) {
    for (name, start) in starts() {
        let mut group = c.benchmark_group(format!("engines/{name}"));
        group.throughput(Throughput::Elements(1));
        group.sample_size(10);
        group.warm_up_time(Duration::from_millis(500));
        group.measurement_time(Duration::from_secs(3));
        for policy in [
            Policy::Random,
            Policy::Greedy,
            Policy::Mcts(Budget::Playouts(32)),
        ] {
            group.bench_function(format!("match/{policy}"), |b| {
                let mut seed = 0u64;
                b.iter(|| {
                    seed += 1;
                    let mut g = start.clone_box();
                    let (inputs, _) =
                        g.play_on(&mut RngDice::new(seed), &[policy], seed, &mut |_| {});
                    black_box(inputs.len())
                })
            });
        }
        let at = first_decision(start.as_ref());
        group.bench_function("clone", |b| b.iter(|| black_box(at.clone_box())));
        group.bench_function("options", |b| {
            b.iter(|| match at.turn() {
                Turn::Seat { options, .. } => (0..options).map(|i| at.describe(i).len()).sum(),
                _ => 0usize,
            })
        });
        group.finish();
    }
}

criterion_group!(benches, engines);
criterion_main!(benches);
