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

/// (mission, squad, policy, digest) as recorded from the engine once the enemies used their
/// skills and zone members were placed by the seat (before the session 5 speed work).
const RECORDED: &[(&str, &str, &str, u64)] = &[
    (
        "eliminate.mission.toml",
        "legal-ardann-story.squad.toml",
        "random",
        0x27a37c661a3a301a,
    ),
    (
        "eliminate.mission.toml",
        "legal-ardann-story.squad.toml",
        "greedy",
        0x183469d0756f7987,
    ),
    (
        "eliminate.mission.toml",
        "legal-ardann-story.squad.toml",
        "mcts:24",
        0x996064facea92c6e,
    ),
    (
        "eliminate.mission.toml",
        "legal-free-play-mix.squad.toml",
        "random",
        0x5b7f2bc5ff8a5dbb,
    ),
    (
        "eliminate.mission.toml",
        "legal-free-play-mix.squad.toml",
        "greedy",
        0xcfb473193531f2ab,
    ),
    (
        "eliminate.mission.toml",
        "legal-free-play-mix.squad.toml",
        "mcts:24",
        0x0f1829768d447988,
    ),
    (
        "reach.mission.toml",
        "legal-ardann-story.squad.toml",
        "random",
        0xed8bdb0d5a25f51b,
    ),
    (
        "reach.mission.toml",
        "legal-ardann-story.squad.toml",
        "greedy",
        0x8856aae1645adc68,
    ),
    (
        "reach.mission.toml",
        "legal-ardann-story.squad.toml",
        "mcts:24",
        0x4bef1fd2f1da5068,
    ),
    (
        "reach.mission.toml",
        "legal-free-play-mix.squad.toml",
        "random",
        0x6b0dd24ddfec6860,
    ),
    (
        "reach.mission.toml",
        "legal-free-play-mix.squad.toml",
        "greedy",
        0x60209243cfca0812,
    ),
    (
        "reach.mission.toml",
        "legal-free-play-mix.squad.toml",
        "mcts:24",
        0x6f657f7fdb2b5cba,
    ),
    (
        "rescue.mission.toml",
        "legal-ardann-story.squad.toml",
        "random",
        0xa08a87cb64034bc1,
    ),
    (
        "rescue.mission.toml",
        "legal-ardann-story.squad.toml",
        "greedy",
        0x1dcd02413eaaebf8,
    ),
    (
        "rescue.mission.toml",
        "legal-ardann-story.squad.toml",
        "mcts:24",
        0xb5e205671bf77161,
    ),
    (
        "rescue.mission.toml",
        "legal-free-play-mix.squad.toml",
        "random",
        0xb6237ad8fc007811,
    ),
    (
        "rescue.mission.toml",
        "legal-free-play-mix.squad.toml",
        "greedy",
        0x6d5d51c70cb1799b,
    ),
    (
        "rescue.mission.toml",
        "legal-free-play-mix.squad.toml",
        "mcts:24",
        0x91860969ee64e990,
    ),
    (
        "survive.mission.toml",
        "legal-ardann-story.squad.toml",
        "random",
        0x42329df7cc9b578b,
    ),
    (
        "survive.mission.toml",
        "legal-ardann-story.squad.toml",
        "greedy",
        0xe668df3bd540d0a7,
    ),
    (
        "survive.mission.toml",
        "legal-ardann-story.squad.toml",
        "mcts:24",
        0x3185e5cb6df8806f,
    ),
    (
        "survive.mission.toml",
        "legal-free-play-mix.squad.toml",
        "random",
        0x6b752599ab71ca73,
    ),
    (
        "survive.mission.toml",
        "legal-free-play-mix.squad.toml",
        "greedy",
        0x8863c9b65c9a6898,
    ),
    (
        "survive.mission.toml",
        "legal-free-play-mix.squad.toml",
        "mcts:24",
        0x8a0c1b7884e8d743,
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
