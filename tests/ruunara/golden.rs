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

/// (mission, squad, policy, digest) as recorded from the engine of commit `e927e99`.
const RECORDED: &[(&str, &str, &str, u64)] = &[
    (
        "eliminate.mission.toml",
        "legal-ardann-story.squad.toml",
        "random",
        0x97c6e01a078d27af,
    ),
    (
        "eliminate.mission.toml",
        "legal-ardann-story.squad.toml",
        "greedy",
        0xa17584db8e774623,
    ),
    (
        "eliminate.mission.toml",
        "legal-ardann-story.squad.toml",
        "mcts:24",
        0x6d063de78f04790a,
    ),
    (
        "eliminate.mission.toml",
        "legal-free-play-mix.squad.toml",
        "random",
        0xb6e6211eb8d7dcd3,
    ),
    (
        "eliminate.mission.toml",
        "legal-free-play-mix.squad.toml",
        "greedy",
        0x6a3a76efd7051136,
    ),
    (
        "eliminate.mission.toml",
        "legal-free-play-mix.squad.toml",
        "mcts:24",
        0x16217f4b364419c8,
    ),
    (
        "reach.mission.toml",
        "legal-ardann-story.squad.toml",
        "random",
        0x50e754ecab4dafc1,
    ),
    (
        "reach.mission.toml",
        "legal-ardann-story.squad.toml",
        "greedy",
        0x8f2a0911ff81ac7f,
    ),
    (
        "reach.mission.toml",
        "legal-ardann-story.squad.toml",
        "mcts:24",
        0x95afb7c08a2c72ff,
    ),
    (
        "reach.mission.toml",
        "legal-free-play-mix.squad.toml",
        "random",
        0x499246b7f6420736,
    ),
    (
        "reach.mission.toml",
        "legal-free-play-mix.squad.toml",
        "greedy",
        0x1c263dbbccc8424b,
    ),
    (
        "reach.mission.toml",
        "legal-free-play-mix.squad.toml",
        "mcts:24",
        0xc15976d21c0bc162,
    ),
    (
        "rescue.mission.toml",
        "legal-ardann-story.squad.toml",
        "random",
        0x09fc7611e3abfa99,
    ),
    (
        "rescue.mission.toml",
        "legal-ardann-story.squad.toml",
        "greedy",
        0x9dfb0127df96f220,
    ),
    (
        "rescue.mission.toml",
        "legal-ardann-story.squad.toml",
        "mcts:24",
        0x7e1b134de1649d81,
    ),
    (
        "rescue.mission.toml",
        "legal-free-play-mix.squad.toml",
        "random",
        0xc5a457a95b6bfedb,
    ),
    (
        "rescue.mission.toml",
        "legal-free-play-mix.squad.toml",
        "greedy",
        0x4bc4f2dacd17b8b9,
    ),
    (
        "rescue.mission.toml",
        "legal-free-play-mix.squad.toml",
        "mcts:24",
        0x7711c3f3ba6dac06,
    ),
    (
        "survive.mission.toml",
        "legal-ardann-story.squad.toml",
        "random",
        0xebf724bb801ce5bc,
    ),
    (
        "survive.mission.toml",
        "legal-ardann-story.squad.toml",
        "greedy",
        0xbf145042b4b190cb,
    ),
    (
        "survive.mission.toml",
        "legal-ardann-story.squad.toml",
        "mcts:24",
        0x4db64fe90674f4c0,
    ),
    (
        "survive.mission.toml",
        "legal-free-play-mix.squad.toml",
        "random",
        0x27e62abbbacbbec8,
    ),
    (
        "survive.mission.toml",
        "legal-free-play-mix.squad.toml",
        "greedy",
        0x7ed40b0d69958dc6,
    ),
    (
        "survive.mission.toml",
        "legal-free-play-mix.squad.toml",
        "mcts:24",
        0x6fb6fec19b9b5e7c,
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
