//! The strength table of `docs/ai.md`: each policy against each other in one game, N games a
//! row, half with the row's policy in each seat, with the 95% Wilson interval of its win rate.
//!
//! ```sh
//! cargo run --release --example ai_strength -- iconica 10000
//! cargo run --release --example ai_strength -- arcadia 10000 greedy/random mcts/greedy
//! cargo run --release --example ai_strength -- iconoclasm 10000
//! ```
//! Arguments: the game, games a row (default 10000), then the rows as `X/Y` (default: every
//! pair of first, random, greedy and mcts). Seeds 11 (row policy in seat 0) and 12 (seat 1).

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use deckwright::cards::{Card, parse_card};
use deckwright::games::ai::Policy;
use deckwright::games::arcadia::character::CharacterFile;
use deckwright::games::arcadia::engine::{ArcadiaGame, Match};
use deckwright::games::arcadia::setup::SetupFile;
use deckwright::games::dice::{RngDice, game_seed};
use deckwright::games::game::{Ending, Outcome, Seats, Verdict};
use deckwright::games::iconica::engine::{IconicaGame, Rules, Setup};
use deckwright::games::iconoclasm::engine::{Deck, Goal, IconoclasmGame, NoLog, Pile, deal};
use deckwright::games::iconoclasm::model::ClashTable;
use deckwright::sim::{Tally, play_seeded, run_tally, wilson};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// Seat 0's result seen from the other seat (two seats).
fn swapped<E>(mut o: Outcome<E>) -> Outcome<E> {
    if let Verdict::Won(w) = o.verdict {
        o.verdict = Verdict::Won(Seats(((w.0 & 1) << 1) | ((w.0 >> 1) & 1)));
    }
    o
}

fn row<E: Ending>(
    games: u64,
    x: Policy,
    y: Policy,
    play: impl Fn(u64, [Policy; 2]) -> Outcome<E> + Sync,
) -> Tally<E> {
    let half = games / 2;
    let never = AtomicBool::new(false);
    let a = run_tally(
        half,
        None,
        |i| play(game_seed(11, i), [x, y]),
        |_| {},
        &never,
    )
    .unwrap()
    .unwrap();
    let b = run_tally(
        games - half,
        None,
        |i| swapped(play(game_seed(12, i), [y, x])),
        |_| {},
        &never,
    )
    .unwrap()
    .unwrap();
    a.merge(b)
}

fn bundled() -> Vec<Card> {
    deckwright::cards::bundled()
        .into_iter()
        .filter_map(|(p, t)| parse_card(t, &p).ok())
        .collect()
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let game = args.first().map(String::as_str).unwrap_or("iconica");
    let games: u64 = args.get(1).and_then(|g| g.parse().ok()).unwrap_or(10_000);
    let mut pairs: Vec<(Policy, Policy)> = args
        .iter()
        .skip(2)
        .filter_map(|p| {
            p.split_once('/')
                .map(|(x, y)| (x.parse().ok(), y.parse().ok()))
        })
        .filter_map(|(x, y)| Some((x?, y?)))
        .collect();
    if pairs.is_empty() {
        let all = Policy::ALL;
        for i in 0..all.len() {
            for j in 0..i {
                pairs.push((all[i], all[j]));
            }
        }
    }
    let iconica = {
        let all = deckwright::games::iconica::bundled_characters();
        let ids = ["ico-kethra-voss", "ico-mirel-dask", "ico-vexid-stalker"];
        let party: Vec<_> = ids
            .iter()
            .map(|id| all.iter().find(|c| c.id == *id).unwrap().clone())
            .collect();
        Setup::duel(&party, &party, Rules::default()).unwrap()
    };
    let arcadia = {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("examples/arcadia/legal-long-road.setup.toml");
        let setup =
            SetupFile::parse(&std::fs::read_to_string(&path).unwrap(), "long-road").unwrap();
        let chars: Vec<CharacterFile> = setup
            .character_paths(&path)
            .iter()
            .map(|p| CharacterFile::parse(&std::fs::read_to_string(p).unwrap(), "c").unwrap())
            .collect();
        Match::new(&setup, &chars, &bundled(), 500).unwrap()
    };
    println!("| policy | against | games | wins | losses | draws | win rate | 95% CI | games/s |");
    println!("| --- | --- | --- | --- | --- | --- | --- | --- | --- |");
    for (x, y) in pairs {
        let t0 = Instant::now();
        let (g, wins, losses, draws) = match game {
            "iconica" => {
                let t = row(games, x, y, |s, p| {
                    play_seeded(IconicaGame::new(&iconica), RngDice::new(s), &p, s)
                });
                (t.games, t.wins[0], t.wins[1], t.draws + t.no_result)
            }
            "arcadia" => {
                let t = row(games, x, y, |s, p| {
                    play_seeded(ArcadiaGame::new(&arcadia), RngDice::new(s), &p, s)
                });
                (t.games, t.wins[0], t.wins[1], t.draws + t.no_result)
            }
            "iconoclasm" => {
                let t = row(games, x, y, |s, p| {
                    let setup = deal(
                        Deck::standard(),
                        &ClashTable::standard(),
                        2,
                        Goal::Dominance,
                        &mut ChaCha8Rng::seed_from_u64(s),
                    )
                    .unwrap();
                    play_seeded(
                        IconoclasmGame::start(&setup, &mut NoLog),
                        Pile::new(&setup),
                        &p,
                        s,
                    )
                });
                (t.games, t.wins[0], t.wins[1], t.draws + t.no_result)
            }
            other => panic!("unknown game {other}"),
        };
        let (lo, hi) = wilson(wins, g, 1.96);
        let rate = wins as f64 / g as f64;
        let per_s = g as f64 / t0.elapsed().as_secs_f64();
        println!(
            "| {x} | {y} | {g} | {wins} | {losses} | {draws} | {rate:.3} | [{lo:.3}, {hi:.3}] | {per_s:.0} |"
        );
    }
}
