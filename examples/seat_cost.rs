//! The cost of a decision by the seat-view search against the all-seeing one (`docs/ai.md`,
//! "Deciding from the seat's own view"): Arcadia's `legal-long-road` matches played by
//! `greedy` at both seats, and at each decision with more than one option both policies timed
//! on the same position (the clock is read here only, to report; no decision depends on it).
//!
//! ```sh
//! cargo run --release --example seat_cost -- 20 mcts seat-mcts greedy seat-greedy
//! ```
//! Arguments: matches (default 20), then the policies (default `mcts seat-mcts`).

use std::time::Instant;

use deckwright::cards::{Card, parse_card};
use deckwright::games::ai::{Agent, Policy};
use deckwright::games::arcadia::ai::ArcadiaEval;
use deckwright::games::arcadia::character::CharacterFile;
use deckwright::games::arcadia::engine::{ArcadiaGame, Match};
use deckwright::games::arcadia::setup::SetupFile;
use deckwright::games::dice::{RngDice, derive_seed};
use deckwright::games::game::{Game, Turn};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let matches: u64 = args.first().and_then(|g| g.parse().ok()).unwrap_or(20);
    let mut policies: Vec<Policy> = args.iter().skip(1).filter_map(|p| p.parse().ok()).collect();
    if policies.is_empty() {
        policies = vec!["mcts".parse().unwrap(), "seat-mcts".parse().unwrap()];
    }
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("examples/arcadia/legal-long-road.setup.toml");
    let setup = SetupFile::parse(&std::fs::read_to_string(&path).unwrap(), "long-road").unwrap();
    let chars: Vec<CharacterFile> = setup
        .character_paths(&path)
        .iter()
        .map(|p| CharacterFile::parse(&std::fs::read_to_string(p).unwrap(), "c").unwrap())
        .collect();
    let cards: Vec<Card> = deckwright::cards::bundled()
        .into_iter()
        .filter_map(|(p, t)| parse_card(t, &p).ok())
        .collect();
    let m = Match::new(&setup, &chars, &cards, 500).unwrap();
    let mut spent = vec![0.0f64; policies.len()];
    let mut decisions = 0u64;
    for i in 0..matches {
        let mut g = ArcadiaGame::new(&m);
        let mut dice = RngDice::new(derive_seed(21, i));
        let mut play = Agent::<ArcadiaEval>::new(Policy::Greedy, derive_seed(22, i));
        let mut k = 0u64;
        loop {
            match g.turn() {
                Turn::Over => break,
                Turn::Chance(c) => match c.draw(&mut dice) {
                    Some(o) => g.apply(o),
                    None => break,
                },
                Turn::Seat { seat, options } => {
                    if options > 1 {
                        decisions += 1;
                        for (p, t) in policies.iter().zip(spent.iter_mut()) {
                            let t0 = Instant::now();
                            let mut a = Agent::<ArcadiaEval>::new(*p, derive_seed(23, k));
                            std::hint::black_box(a.choose(&g, seat, options));
                            *t += t0.elapsed().as_secs_f64();
                        }
                    }
                    k += 1;
                    g.apply(play.choose(&g, seat, options));
                }
            }
        }
    }
    println!("| policy | decisions | ms a decision |");
    println!("| --- | --- | --- |");
    for (p, t) in policies.iter().zip(&spent) {
        println!(
            "| {p} | {decisions} | {:.2} |",
            1000.0 * t / decisions.max(1) as f64
        );
    }
}
