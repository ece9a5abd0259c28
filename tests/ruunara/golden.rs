//! Seeded missions play exactly as recorded: for every example mission with both example
//! squads, under `random`, `greedy` and a small `mcts`, a digest of each match's whole log
//! (every event as the engine records it, with each decision's options in words, and the
//! outcome) must equal the one recorded from the engine before its speed work. Work that
//! only makes the engine faster must keep them; a change to the rules changes them on
//! purpose (then update the table from the failure message, saying why in the commit).

use deckwright::games::ai::{Agent, Budget, Policy};
use deckwright::games::dice::{RngDice, game_seed};
use deckwright::games::game::{Game, Turn};
use deckwright::games::ruunara::engine::RuunaraEval;
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
        let mut agent: Agent<RuunaraEval> = Agent::new(policy, k ^ 0x5eed);
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

/// (mission, squad, policy, digest) as recorded from the engine once the squad's members had
/// their races' skills (engine version 2).
const RECORDED: &[(&str, &str, &str, u64)] = &[
    (
        "eliminate.mission.toml",
        "legal-ardann-story.squad.toml",
        "random",
        0x7936a2fbac5e6e6a,
    ),
    (
        "eliminate.mission.toml",
        "legal-ardann-story.squad.toml",
        "greedy",
        0xe2c6edc197db413a,
    ),
    (
        "eliminate.mission.toml",
        "legal-ardann-story.squad.toml",
        "mcts:24",
        0x5d26fa8ff563e97f,
    ),
    (
        "eliminate.mission.toml",
        "legal-free-play-mix.squad.toml",
        "random",
        0xfe5549e80f59ef35,
    ),
    (
        "eliminate.mission.toml",
        "legal-free-play-mix.squad.toml",
        "greedy",
        0x69b7ab4d24707fe3,
    ),
    (
        "eliminate.mission.toml",
        "legal-free-play-mix.squad.toml",
        "mcts:24",
        0x8e1389d11054964f,
    ),
    (
        "reach.mission.toml",
        "legal-ardann-story.squad.toml",
        "random",
        0x5ae8cdd659ee8222,
    ),
    (
        "reach.mission.toml",
        "legal-ardann-story.squad.toml",
        "greedy",
        0x57da5676d17a6dbf,
    ),
    (
        "reach.mission.toml",
        "legal-ardann-story.squad.toml",
        "mcts:24",
        0x65429981109572eb,
    ),
    (
        "reach.mission.toml",
        "legal-free-play-mix.squad.toml",
        "random",
        0x34c5c15fc0a6116c,
    ),
    (
        "reach.mission.toml",
        "legal-free-play-mix.squad.toml",
        "greedy",
        0x2861d6f7585c1722,
    ),
    (
        "reach.mission.toml",
        "legal-free-play-mix.squad.toml",
        "mcts:24",
        0xf644023f2bb6cb95,
    ),
    (
        "rescue.mission.toml",
        "legal-ardann-story.squad.toml",
        "random",
        0x8229dae6c23b1a69,
    ),
    (
        "rescue.mission.toml",
        "legal-ardann-story.squad.toml",
        "greedy",
        0x13a60f06dac20c89,
    ),
    (
        "rescue.mission.toml",
        "legal-ardann-story.squad.toml",
        "mcts:24",
        0x4c2f1bf866f94108,
    ),
    (
        "rescue.mission.toml",
        "legal-free-play-mix.squad.toml",
        "random",
        0x472ebdccfb626a95,
    ),
    (
        "rescue.mission.toml",
        "legal-free-play-mix.squad.toml",
        "greedy",
        0x27b89f6bd09f5226,
    ),
    (
        "rescue.mission.toml",
        "legal-free-play-mix.squad.toml",
        "mcts:24",
        0x8d8a938a35cd7004,
    ),
    (
        "survive.mission.toml",
        "legal-ardann-story.squad.toml",
        "random",
        0xd65b639e22ad0b25,
    ),
    (
        "survive.mission.toml",
        "legal-ardann-story.squad.toml",
        "greedy",
        0x678980bf5ca6763d,
    ),
    (
        "survive.mission.toml",
        "legal-ardann-story.squad.toml",
        "mcts:24",
        0x995543c3e4956e72,
    ),
    (
        "survive.mission.toml",
        "legal-free-play-mix.squad.toml",
        "random",
        0xe6101f333105bdde,
    ),
    (
        "survive.mission.toml",
        "legal-free-play-mix.squad.toml",
        "greedy",
        0x09d2273cc601aed8,
    ),
    (
        "survive.mission.toml",
        "legal-free-play-mix.squad.toml",
        "mcts:24",
        0x5208439692e27682,
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
