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

/// (mission, squad, policy, digest) as recorded from the engine once the enemies moved as
/// the rule text writes it and the log could be checked (issue 29: each enemy move ends
/// nearer its goal, noise from shots, the spec's endings, the guard in its own activation,
/// spells in the combat phase, each roll's target and result, `fight_ended`).
const RECORDED: &[(&str, &str, &str, u64)] = &[
    (
        "eliminate.mission.toml",
        "legal-ardann-story.squad.toml",
        "random",
        0x3488a60bcb26891c,
    ),
    (
        "eliminate.mission.toml",
        "legal-ardann-story.squad.toml",
        "greedy",
        0x46c5e7ac548cc7e9,
    ),
    (
        "eliminate.mission.toml",
        "legal-ardann-story.squad.toml",
        "mcts:24",
        0x6816ea0c7c3f0823,
    ),
    (
        "eliminate.mission.toml",
        "legal-free-play-mix.squad.toml",
        "random",
        0x79bc52db8483dcef,
    ),
    (
        "eliminate.mission.toml",
        "legal-free-play-mix.squad.toml",
        "greedy",
        0xbc27a7276dd4478e,
    ),
    (
        "eliminate.mission.toml",
        "legal-free-play-mix.squad.toml",
        "mcts:24",
        0x1d2f23a829d1c846,
    ),
    (
        "reach.mission.toml",
        "legal-ardann-story.squad.toml",
        "random",
        0xb19317c77ca42bd8,
    ),
    (
        "reach.mission.toml",
        "legal-ardann-story.squad.toml",
        "greedy",
        0x4c13d599e2c11bc4,
    ),
    (
        "reach.mission.toml",
        "legal-ardann-story.squad.toml",
        "mcts:24",
        0xf1bc664537cc8050,
    ),
    (
        "reach.mission.toml",
        "legal-free-play-mix.squad.toml",
        "random",
        0x43b13fda54284552,
    ),
    (
        "reach.mission.toml",
        "legal-free-play-mix.squad.toml",
        "greedy",
        0x804f8b5a116f7d06,
    ),
    (
        "reach.mission.toml",
        "legal-free-play-mix.squad.toml",
        "mcts:24",
        0xd99ec41bed5008bc,
    ),
    (
        "rescue.mission.toml",
        "legal-ardann-story.squad.toml",
        "random",
        0x14ccdab806f8342f,
    ),
    (
        "rescue.mission.toml",
        "legal-ardann-story.squad.toml",
        "greedy",
        0x4b234de9d7d343e2,
    ),
    (
        "rescue.mission.toml",
        "legal-ardann-story.squad.toml",
        "mcts:24",
        0x6e3576993d3c97d2,
    ),
    (
        "rescue.mission.toml",
        "legal-free-play-mix.squad.toml",
        "random",
        0xf0d9bd9f46209f0b,
    ),
    (
        "rescue.mission.toml",
        "legal-free-play-mix.squad.toml",
        "greedy",
        0x38a8b49fbac4fbd4,
    ),
    (
        "rescue.mission.toml",
        "legal-free-play-mix.squad.toml",
        "mcts:24",
        0x923aabbb9028bd3a,
    ),
    (
        "survive.mission.toml",
        "legal-ardann-story.squad.toml",
        "random",
        0x6995e5af28625302,
    ),
    (
        "survive.mission.toml",
        "legal-ardann-story.squad.toml",
        "greedy",
        0x94cb4919f8acbbae,
    ),
    (
        "survive.mission.toml",
        "legal-ardann-story.squad.toml",
        "mcts:24",
        0x933fdc6da8b97cf5,
    ),
    (
        "survive.mission.toml",
        "legal-free-play-mix.squad.toml",
        "random",
        0xd31b9838d6d2afa0,
    ),
    (
        "survive.mission.toml",
        "legal-free-play-mix.squad.toml",
        "greedy",
        0x3b7d968d7f9d1619,
    ),
    (
        "survive.mission.toml",
        "legal-free-play-mix.squad.toml",
        "mcts:24",
        0x657efa4fe648f1f4,
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
