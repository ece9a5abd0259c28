//! Seeded missions play exactly as recorded: for every example mission with both example
//! squads, under `random`, `greedy` and a small `mcts`, a digest of each match's whole log
//! (every event as the engine records it, with each decision's options in words, and the
//! outcome) must equal the one recorded from the engine before its speed work. Work that
//! only makes the engine faster must keep them; a change to the rules changes them on
//! purpose (then update the table from the failure message, saying why in the commit).

use deckwright::games::ai::{Agent, Budget, Policy};
use deckwright::games::dice::{RngDice, game_seed};
use deckwright::games::game::{Game, Turn};
use deckwright::games::ruunara::engine::{RuunaraGame, Setup};

use super::common::example;

const MISSIONS: [&str; 4] = [
    "eliminate.mission.toml",
    "reach.mission.toml",
    "rescue.mission.toml",
    "survive.mission.toml",
];
const SQUADS: [&str; 2] = [
    "legal-ardann-story.squad.toml",
    "legal-free-play-mix.squad.toml",
];

/// FNV-1a, 64 bits.
struct Digest(u64);

impl Digest {
    fn new() -> Digest {
        Digest(0xcbf2_9ce4_8422_2325)
    }
    fn add(&mut self, s: &str) {
        for b in s.bytes().chain([0xff]) {
            self.0 ^= u64::from(b);
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
}

/// Plays `n` seeded matches of `s` under `policy` into `d`: every logged event, every
/// decision's options in words, every choice, and each outcome.
fn play(s: &Setup, policy: Policy, n: u64, d: &mut Digest) {
    for i in 0..n {
        let k = game_seed(7, i);
        let mut log = Vec::new();
        let mut g = RuunaraGame::start(s, &mut log);
        let mut dice = RngDice::new(k);
        let mut agent: Agent<_> = Agent::new(policy, k ^ 0x5eed);
        loop {
            let a = match g.turn() {
                Turn::Over => break,
                Turn::Chance(c) => c.draw(&mut dice).expect("dice never run out"),
                Turn::Seat { seat, options } => {
                    for o in 0..options {
                        d.add(&g.describe(o));
                    }
                    let a = agent.choose(&g, seat, options);
                    d.add(&a.to_string());
                    a
                }
            };
            g.apply_logged(a, &mut log);
        }
        for e in &log {
            d.add(&format!("{e:?}"));
        }
        d.add(&format!("{:?}", g.outcome()));
    }
}

/// (mission, squad, policy, digest) as recorded from the engine once the enemies used their
/// skills and zone members were placed by the seat (before the session 5 speed work).
const RECORDED: &[(&str, &str, &str, u64)] = &[
    (
        "eliminate.mission.toml",
        "legal-ardann-story.squad.toml",
        "random",
        0x0ad94785ed2aebfa,
    ),
    (
        "eliminate.mission.toml",
        "legal-ardann-story.squad.toml",
        "greedy",
        0x6cba00caf6a46f45,
    ),
    (
        "eliminate.mission.toml",
        "legal-ardann-story.squad.toml",
        "mcts:24",
        0x89e873d5c593976a,
    ),
    (
        "eliminate.mission.toml",
        "legal-free-play-mix.squad.toml",
        "random",
        0x4628ce852fb1f82b,
    ),
    (
        "eliminate.mission.toml",
        "legal-free-play-mix.squad.toml",
        "greedy",
        0x24bdee18fbc947bf,
    ),
    (
        "eliminate.mission.toml",
        "legal-free-play-mix.squad.toml",
        "mcts:24",
        0xec851221922e08db,
    ),
    (
        "reach.mission.toml",
        "legal-ardann-story.squad.toml",
        "random",
        0xbe7c4a0af09a99ec,
    ),
    (
        "reach.mission.toml",
        "legal-ardann-story.squad.toml",
        "greedy",
        0xcbc8cd2867cff13f,
    ),
    (
        "reach.mission.toml",
        "legal-ardann-story.squad.toml",
        "mcts:24",
        0xfae8a491d1e83b0f,
    ),
    (
        "reach.mission.toml",
        "legal-free-play-mix.squad.toml",
        "random",
        0x85fdcd87dd8ba22e,
    ),
    (
        "reach.mission.toml",
        "legal-free-play-mix.squad.toml",
        "greedy",
        0xe7cc1f57f3076cf1,
    ),
    (
        "reach.mission.toml",
        "legal-free-play-mix.squad.toml",
        "mcts:24",
        0x7dd395642bef43fe,
    ),
    (
        "rescue.mission.toml",
        "legal-ardann-story.squad.toml",
        "random",
        0xf7e8b54494467aff,
    ),
    (
        "rescue.mission.toml",
        "legal-ardann-story.squad.toml",
        "greedy",
        0xfdb7cb6e11c9e9d2,
    ),
    (
        "rescue.mission.toml",
        "legal-ardann-story.squad.toml",
        "mcts:24",
        0x3a3d3674de9359fd,
    ),
    (
        "rescue.mission.toml",
        "legal-free-play-mix.squad.toml",
        "random",
        0xbccc9d22b0ce5021,
    ),
    (
        "rescue.mission.toml",
        "legal-free-play-mix.squad.toml",
        "greedy",
        0x171ce53811c5d879,
    ),
    (
        "rescue.mission.toml",
        "legal-free-play-mix.squad.toml",
        "mcts:24",
        0x53c6bce6f954876b,
    ),
    (
        "survive.mission.toml",
        "legal-ardann-story.squad.toml",
        "random",
        0xfc1231bb25b248b2,
    ),
    (
        "survive.mission.toml",
        "legal-ardann-story.squad.toml",
        "greedy",
        0x5a0914354eaa84b3,
    ),
    (
        "survive.mission.toml",
        "legal-ardann-story.squad.toml",
        "mcts:24",
        0x7b94fbc1d2154517,
    ),
    (
        "survive.mission.toml",
        "legal-free-play-mix.squad.toml",
        "random",
        0x308912093c30381b,
    ),
    (
        "survive.mission.toml",
        "legal-free-play-mix.squad.toml",
        "greedy",
        0x0c2eaa3769257617,
    ),
    (
        "survive.mission.toml",
        "legal-free-play-mix.squad.toml",
        "mcts:24",
        0xe9a7592043ba8b7e,
    ),
];

#[test]
fn seeded_missions_play_exactly_as_recorded() {
    let policies = [
        ("random", Policy::Random, 40),
        ("greedy", Policy::Greedy, 8),
        ("mcts:24", Policy::Mcts(Budget::Playouts(24)), 2),
    ];
    let mut got = Vec::new();
    for m in MISSIONS {
        for q in SQUADS {
            let s = Setup::new(&example(m, q)).expect("setup");
            for (name, policy, n) in policies {
                let mut d = Digest::new();
                play(&s, policy, n, &mut d);
                got.push((m, q, name, d.0));
            }
        }
    }
    let table: String = got
        .iter()
        .map(|(m, q, p, d)| format!("    ({m:?}, {q:?}, {p:?}, {d:#018x}),\n"))
        .collect();
    assert!(
        got.iter().eq(RECORDED.iter()),
        "the seeded missions no longer play as recorded; now:\n{table}"
    );
}
