//! Golden behaviour of the engine and its policies: the full event logs and final boards of
//! many seeded and scripted matches (every ruleset, break mode and house rule; `first`,
//! `random`, `greedy` and `mcts` policies; duels, a mirror and a team game) hashed and
//! compared with the hashes the engine gave before its speed work. Any change of a die
//! drawn, an option chosen or an event logged changes a hash; a deliberate rule change must
//! re-record them (the failure message prints the new values).

use std::hash::{Hash, Hasher};
use std::sync::OnceLock;

use deckwright::games::iconica::ai::{Agent, PolicyKind, Table};
use deckwright::games::iconica::engine::*;
use deckwright::games::iconica::model::Character;

/// FNV-1a over the bytes fed to it (a fixed algorithm, unlike std's default hasher).
struct Fnv(u64);

impl Fnv {
    fn new() -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
}

impl Hasher for Fnv {
    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.0 ^= *b as u64;
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    fn finish(&self) -> u64 {
        self.0
    }
}

fn bundled(ids: &[&str]) -> Vec<Character> {
    let all: Vec<Character> = deckwright::games::iconica::bundled_characters();
    ids.iter().map(|id| all.iter().find(|c| c.id == *id).expect("bundled card").clone()).collect()
}

fn parties() -> &'static [Vec<Character>; 5] {
    static P: OnceLock<[Vec<Character>; 5]> = OnceLock::new();
    P.get_or_init(|| [
        bundled(&["ico-kethra-voss", "ico-mirel-dask", "ico-vexid-stalker"]),
        bundled(&["ico-anwen-halloway", "ico-gorm-ashcairn", "ico-ivo-quillon"]),
        bundled(&["ico-brannoch-hale", "ico-orsolya-kest", "ico-pip-tallowmere"]),
        bundled(&["ico-grumbolt", "ico-rukka-tidecaller", "ico-sessaly-renn"]),
        bundled(&["ico-ossra-tain", "ico-nyx-ellery", "ico-varek-solenne"]),
    ])
}

/// Every rules variant: v2 standard, v2 advanced, v8, each with no house rule, with each
/// house rule alone and with all four.
fn all_rules() -> Vec<Rules> {
    let mut v = Vec::new();
    for base in [
        Rules::default(),
        Rules { breaks: Breaks::Advanced, ..Rules::default() },
        Rules { ruleset: Ruleset::V8, ..Rules::default() },
    ] {
        for house in ["", "no-reactions", "no-strengths", "no-final-acts", "no-action-breaks"] {
            v.push(base.with_house(house).expect("house rule"));
        }
        v.push(base.with_house("no-reactions,no-strengths,no-final-acts,no-action-breaks").expect("house rules"));
    }
    v
}

fn setups(rules: Rules) -> Vec<Setup> {
    let p = parties();
    vec![
        Setup::duel(&p[0], &p[1], rules).expect("setup"),
        Setup::duel(&p[2], &p[3], rules).expect("setup"),
        Setup::duel(&p[4], &p[0], rules).expect("setup"),
        Setup::duel(&p[0], &p[0], rules).expect("setup"),
        Setup::teams(&[&p[0], &p[1]], &[&p[2], &p[3]], rules).expect("setup"),
    ]
}

/// The log and the board as players see it (not the engine's internal bookkeeping).
fn feed(h: &mut Fnv, st: &State, log: &[Event]) {
    log.hash(h);
    for i in 0..st.hp.len() {
        (st.hp[i], st.status[i], st.is_alive(i)).hash(h);
    }
    (st.turn, st.dice_used, st.ended).hash(h);
}

fn seeded(h: &mut Fnv, setup: &Setup, seed: u64, a: PolicyKind, b: PolicyKind) {
    let mut st = State::new(setup);
    let mut log = Vec::new();
    let mut io = Table::new(RngDice::new(seed), Agent::new(a, seed ^ 0x11), Agent::new(b, seed ^ 0x22));
    play_match(setup, &mut st, &mut io, &mut log);
    feed(h, &st, &log);
}

fn scripted(h: &mut Fnv, setup: &Setup, faces: &[u8], a: PolicyKind, b: PolicyKind) {
    let text: Vec<String> = faces.iter().map(|f| f.to_string()).collect();
    let mut st = State::new(setup);
    let mut log = Vec::new();
    let mut io = Table::new(ScriptDice::parse(&text.join(" ")).expect("dice"), Agent::new(a, 3), Agent::new(b, 4));
    play_match(setup, &mut st, &mut io, &mut log);
    feed(h, &st, &log);
}

/// Deterministic die faces for scripts (a SplitMix64 stream).
fn faces(seed: u64, n: usize) -> Vec<u8> {
    let mut z = seed;
    (0..n)
        .map(|_| {
            z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut x = z;
            x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            ((x ^ (x >> 31)) % 6) as u8 + 1
        })
        .collect()
}

use PolicyKind::{First, Greedy, Random};

/// One hash per policy pairing, over every rules variant, setup and seed.
fn seeded_hashes(pairs: &[(PolicyKind, PolicyKind)], seeds: u64) -> Vec<u64> {
    pairs
        .iter()
        .map(|&(a, b)| {
            let mut h = Fnv::new();
            for rules in all_rules() {
                for setup in setups(rules) {
                    for seed in 0..seeds {
                        seeded(&mut h, &setup, seed, a, b);
                    }
                }
            }
            h.0
        })
        .collect()
}

#[test]
fn seeded_matches_of_first_and_random_play_as_recorded() {
    let got = seeded_hashes(&[(First, First), (Random, Random), (Random, First)], 3);
    assert_eq!(got, [0x544e_c4a5_e02b_b196, 0x22ba_4619_94c4_dc69, 0xfb42_9ccc_0143_74a4], "new hashes: {got:#x?}");
}

#[test]
fn seeded_matches_of_greedy_play_as_recorded() {
    let got = seeded_hashes(&[(Greedy, Greedy), (Greedy, Random), (First, Greedy)], 2);
    assert_eq!(got, [0x55d0_7ee0_6f2e_68c0, 0x07c9_18bc_6ce1_441b, 0x826a_7277_83b0_57b9], "new hashes: {got:#x?}");
}

#[test]
fn scripted_matches_play_as_recorded() {
    let mut got = Vec::new();
    for (a, b) in [(First, First), (Greedy, Greedy), (Random, Greedy)] {
        let mut h = Fnv::new();
        for (ri, rules) in all_rules().into_iter().enumerate() {
            for (si, setup) in setups(rules).iter().enumerate() {
                for k in 0..4u64 {
                    let n = ((ri * 31 + si * 7 + k as usize * 53) % 150) + 2;
                    scripted(&mut h, setup, &faces(k * 1000 + ri as u64 * 10 + si as u64, n), a, b);
                }
            }
        }
        got.push(h.0);
    }
    assert_eq!(got, [0x6b2d_3cd2_20b5_aff4, 0x27d8_ec66_2f20_fca9, 0x4311_6ec7_5cc4_2915], "new hashes: {got:#x?}");
}

#[test]
fn seeded_mcts_matches_play_as_recorded() {
    let m = PolicyKind::parse("mcts:12").expect("policy");
    let mut h = Fnv::new();
    let rules = all_rules();
    for (i, r) in [rules[0], rules[6], rules[12]].into_iter().enumerate() {
        let setup = &setups(r)[i];
        seeded(&mut h, setup, 7 + i as u64, m, Greedy);
    }
    assert_eq!(h.0, 0x5896_9310_90d3_d1fa, "new hash: {:#x}", h.0);
}
