//! Iconica matches: one seeded AI-vs-AI match of a sim run, and one match played as `play`
//! plays it, with its event log and each side's characters at the end.

use crate::games::game::Outcome;
use crate::games::iconica::ai::PolicyKind;
use crate::games::iconica::engine::{Dice, Ended, Event, IconicaGame, RngDice, Setup, State};

use super::{Summary, game_seed, play_seeded};
use crate::games::iconica::model::Character;
use crate::games::iconica::rules::legal_against;

/// Endings in [`super::Tally::ended`] order.
pub const ENDINGS: [&str; 3] = ["victory", "turn_limit", "dice_exhausted"];

/// The index of an ending in [`ENDINGS`] (Iconica's and Arcadia's).
pub fn ending(e: Ended) -> u8 {
    match e {
        Ended::Victory => 0,
        Ended::TurnLimit => 1,
        Ended::DiceExhausted => 2,
    }
}

/// Plays game `index` of a run: dice and both policies seeded from (seed, index).
pub fn play_one(
    setup: &Setup,
    a: PolicyKind,
    b: PolicyKind,
    seed: u64,
    index: u64,
) -> Outcome<Ended> {
    outcome_of(setup, a, b, seed, index)
}

/// The typed outcome of game `index` of a run (see [`play_one`]).
pub fn outcome_of(
    setup: &Setup,
    a: PolicyKind,
    b: PolicyKind,
    seed: u64,
    index: u64,
) -> Outcome<Ended> {
    let s = game_seed(seed, index);
    play_seeded(IconicaGame::new(setup), RngDice::new(s), &[a, b], s)
}

/// One match played to its end, with every event.
#[derive(Debug, Clone)]
pub struct Played {
    pub state: State,
    pub log: Vec<Event>,
}

/// Plays one match as `deckwright play iconica --seed SEED` does: side a's policy seeded from
/// stream 1 of `seed`, side b's from stream 2, the dice from `dice` ([`seeded_dice`] unless
/// scripted).
pub fn play_logged<D: Dice>(
    setup: &Setup,
    a: PolicyKind,
    b: PolicyKind,
    seed: u64,
    dice: D,
) -> Played {
    let (game, log) = super::play_logged(IconicaGame::new(setup), Vec::new(), dice, &[a, b], seed);
    Played {
        state: *game.state(),
        log,
    }
}

/// The dice of a match played with `seed`.
pub fn seeded_dice(seed: u64) -> RngDice {
    RngDice::new(seed)
}

pub use crate::games::iconica::matchfile::{MemberEnd, sides};

/// The parties of a field (`sim iconica --field`): every party of three of `pool` (by
/// index, ascending) legal against `opponent` in one match.
pub fn field_parties(pool: &[Character], opponent: &[Character]) -> Vec<[usize; 3]> {
    let mut parties = Vec::new();
    for i in 0..pool.len() {
        for j in i + 1..pool.len() {
            for k in j + 1..pool.len() {
                if legal_against(&[&pool[i], &pool[j], &pool[k]], opponent) {
                    parties.push([i, j, k]);
                }
            }
        }
    }
    parties
}

/// The seed of the games of party `k` of a field run seeded `seed`.
pub fn field_seed(seed: u64, k: usize) -> u64 {
    game_seed(seed, 1 << 40 | k as u64)
}

/// One character of a field: every game of every party it is in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FieldRow {
    /// The character's index in the pool.
    pub character: usize,
    /// The field's parties it is in.
    pub parties: usize,
    /// The games of those parties (side a is the field's party).
    pub summary: Summary,
}

/// Per character of a pool of `pool` characters, the sums of the parties it is in
/// (`results[k]` are party `k`'s), best win rate first (ties by pool order); characters in
/// no party are left out.
pub fn field_rows(pool: usize, parties: &[[usize; 3]], results: &[Summary]) -> Vec<FieldRow> {
    let mut per: Vec<FieldRow> = (0..pool)
        .map(|character| FieldRow {
            character,
            parties: 0,
            summary: Summary::default(),
        })
        .collect();
    for (p, s) in parties.iter().zip(results) {
        for &i in p {
            per[i].summary = per[i].summary.merge(*s);
            per[i].parties += 1;
        }
    }
    per.retain(|r| r.parties > 0);
    per.sort_by(|x, y| {
        y.summary
            .win_rate_a()
            .total_cmp(&x.summary.win_rate_a())
            .then(x.character.cmp(&y.character))
    });
    per
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::games::iconica::bundled_duel as duel;

    #[test]
    fn a_logged_match_repeats_with_its_seed_and_ends_as_its_log_says() {
        let setup = duel();
        let one = play_logged(
            &setup,
            PolicyKind::Greedy,
            PolicyKind::Random,
            9,
            seeded_dice(9),
        );
        let two = play_logged(
            &setup,
            PolicyKind::Greedy,
            PolicyKind::Random,
            9,
            seeded_dice(9),
        );
        assert_eq!(one.log, two.log);
        assert!(
            matches!(one.log.first(), Some(Event::Turn { turn: 1, .. })),
            "{:?}",
            one.log.first()
        );
        let (ended, winner) = one.state.ended.expect("the match ended");
        assert_eq!(one.log.last(), Some(&Event::End { ended, winner }));
        let other = play_logged(
            &setup,
            PolicyKind::Greedy,
            PolicyKind::Random,
            10,
            seeded_dice(10),
        );
        assert_ne!(one.log, other.log);
    }

    #[test]
    fn sides_list_each_party_in_order_with_health_zero_when_skulled() {
        let setup = duel();
        let played = play_logged(
            &setup,
            PolicyKind::First,
            PolicyKind::First,
            0,
            seeded_dice(0),
        );
        let [a, b] = sides(&setup, &played.state);
        assert_eq!(a.len(), 3);
        assert_eq!(b.len(), 3);
        assert_eq!(a[0].id, setup.id(0));
        assert_eq!(b[0].id, setup.id(3));
        for m in a.iter().chain(&b) {
            assert_eq!(m.skulled, m.health == 0, "{m:?}");
        }
        if let Some(crate::games::iconica::engine::Winner::Side(w)) =
            played.state.ended.and_then(|e| e.1)
        {
            let loser = if w == 0 { &b } else { &a };
            assert!(loser.iter().all(|m| m.skulled), "{loser:?}");
        }
    }

    #[test]
    fn ending_indexes_the_name_of_the_ending() {
        for e in [Ended::Victory, Ended::TurnLimit, Ended::DiceExhausted] {
            assert_eq!(ENDINGS[usize::from(ending(e))], e.as_str());
        }
    }
}
