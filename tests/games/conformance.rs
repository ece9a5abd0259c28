//! The interface's promises (every decision applicable and described, every match ends, a
//! replay of the inputs reproduces the log, a game's fast path plays what node-by-node play
//! plays) checked for each game on seeded random matches.

use deckwright::cards::{Card, parse_card};
use deckwright::games::ai::Policy;
use deckwright::games::arcadia::character::CharacterFile;
use deckwright::games::arcadia::engine::{ArcadiaGame, Match};
use deckwright::games::arcadia::setup::SetupFile;
use deckwright::games::conformance::{Short, check_random_match};
use deckwright::games::dice::RngDice;
use deckwright::games::game::{Game, Turn};
use deckwright::games::iconica::engine::{IconicaGame, Rules, Setup};
use deckwright::games::iconoclasm::engine::{Deck, Goal, IconoclasmGame, Setup as Deal, deal};
use deckwright::games::iconoclasm::model::ClashTable;
use deckwright::sim::play_logged;
use proptest::prelude::*;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

fn bundled() -> Vec<Card> {
    deckwright::cards::bundled()
        .into_iter()
        .filter_map(|(p, t)| parse_card(t, &p).ok())
        .collect()
}

fn iconica() -> Setup {
    let all = deckwright::games::iconica::bundled_characters();
    Setup::duel(&all[0..3], &all[3..6], Rules::default()).unwrap()
}

fn arcadia(file: &str) -> Match {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("examples/arcadia")
        .join(file);
    let setup = SetupFile::parse(&std::fs::read_to_string(&path).unwrap(), file).unwrap();
    let chars: Vec<CharacterFile> = setup
        .character_paths(&path)
        .iter()
        .map(|p| CharacterFile::parse(&std::fs::read_to_string(p).unwrap(), "c").unwrap())
        .collect();
    Match::new(&setup, &chars, &bundled(), 60).unwrap()
}

fn iconoclasm(players: u8, seed: u64) -> Deal {
    let goal = if players == 1 {
        Goal::Balance
    } else {
        Goal::Dominance
    };
    deal(
        Deck::standard(),
        &ClashTable::standard(),
        players,
        goal,
        &mut ChaCha8Rng::seed_from_u64(seed),
    )
    .unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(12))]

    #[test]
    fn iconica_keeps_the_interface_s_promises(seed in any::<u64>()) {
        let setup = iconica();
        prop_assert_eq!(check_random_match(&IconicaGame::new(&setup), &[], seed, 200_000), Ok(()));
    }

    #[test]
    fn arcadia_keeps_the_interface_s_promises(seed in any::<u64>(), long in any::<bool>()) {
        let m = arcadia(if long { "legal-long-road.setup.toml" } else { "legal-starter.setup.toml" });
        let mut log = Vec::new();
        let g = ArcadiaGame::start(&m, &mut log);
        prop_assert_eq!(check_random_match(&g, &log, seed, 200_000), Ok(()));
    }

    #[test]
    fn iconoclasm_keeps_the_interface_s_promises(seed in any::<u64>(), players in 1u8..=4) {
        let setup = iconoclasm(players, seed);
        let mut log = Vec::new();
        let g = IconoclasmGame::start(&setup, &mut log);
        prop_assert_eq!(g.seats(), usize::from(players));
        prop_assert_eq!(check_random_match(&g, &log, seed, 10_000), Ok(()));
    }
}

#[test]
fn a_game_whose_dice_run_out_stops_with_no_result() {
    let setup = iconica();
    let (g, log) = play_logged(
        IconicaGame::new(&setup),
        Vec::new(),
        Short {
            inner: RngDice::new(1),
            left: 7,
        },
        &[Policy::Random],
        1,
    );
    assert_eq!(g.turn(), Turn::Over);
    assert_eq!(g.outcome().unwrap().ended.as_str(), "dice_exhausted");
    assert!(
        log.last().is_some_and(
            |e| g.event_text(e).contains("ran out") || g.event_json(e)["type"] == "end"
        ),
        "{log:?}"
    );
    let m = arcadia("legal-starter.setup.toml");
    let (g, _) = play_logged(
        ArcadiaGame::new(&m),
        Vec::new(),
        Short {
            inner: RngDice::new(1),
            left: 9,
        },
        &[Policy::Random],
        1,
    );
    assert_eq!(g.outcome().unwrap().ended.as_str(), "dice_exhausted");
}

#[test]
fn every_decision_of_every_game_reads_as_words() {
    let setup = iconica();
    let g = IconicaGame::new(&setup);
    let mut step = g.clone();
    let mut dice = RngDice::new(3);
    let mut seen = 0;
    while seen < 5 && step.turn() != Turn::Over {
        match step.turn() {
            Turn::Chance(c) => step.apply(c.draw(&mut dice).unwrap()),
            Turn::Seat { options, .. } => {
                assert!(!step.question().is_empty());
                let words: Vec<String> = (0..options).map(|a| step.describe(a)).collect();
                assert!(words.iter().all(|w| !w.starts_with("option ")), "{words:?}");
                seen += 1;
                step.apply(0);
            }
            Turn::Over => {}
        }
    }
    assert_eq!(seen, 5);
}
