//! One seeded match of a run, as `sim` plays many of them: the seats' agents, the match
//! played to its end, and its outcome with the game's ending as its place in the game's
//! list ([`EndingAt`]), so a run of any registered game is tallied by one runner.

use super::ai::{Agent, Evaluated, Policy};
use super::dice::{Dice, game_seed};
use super::game::{Ending, Outcome, Verdict};

/// The seed of seat `k`'s policy in a game seeded `s`.
pub fn seat_seed(s: u64, k: usize) -> u64 {
    match k {
        0 => s ^ 0xA5A5_A5A5_A5A5_A5A5,
        1 => s ^ 0x5A5A_5A5A_5A5A_5A5A,
        _ => game_seed(s, k as u64 + 1),
    }
}

/// The agents of `seats` seats: seat `k` plays `policies[k]` (the last one for seats past the
/// list, `first` for none) seeded with `seed_of(k)`.
pub fn seat_agents<E: Default>(
    seats: usize,
    policies: &[Policy],
    seed_of: impl Fn(usize) -> u64,
) -> Vec<Agent<E>> {
    (0..seats)
        .map(|k| Agent::new(Policy::of_seat(policies, k), seed_of(k)))
        .collect()
}

/// Plays one match of a run to its end: chance from `dice`, seat `k` played by
/// `policies[k]` (the last one for seats past the list) seeded with [`seat_seed`] of `s`.
pub fn play_seeded<G: Evaluated, D: Dice>(
    mut game: G,
    mut dice: D,
    policies: &[Policy],
    s: u64,
) -> Outcome<G::Ending> {
    let mut agents = seat_agents(game.seats(), policies, |k| seat_seed(s, k));
    game.play_out(&mut dice, &mut agents, None);
    game.outcome().unwrap_or(Outcome {
        verdict: Verdict::NoResult,
        ended: *<G::Ending as Ending>::ALL
            .last()
            .expect("a game has endings"),
        turns: game.turns(),
    })
}

/// The most endings a game may list.
pub const MAX_ENDINGS: usize = 8;

/// A game's ending by its place in the game's list ([`Ending::ALL`]): what a runner that
/// serves every game tallies; the game's registration names them
/// ([`super::registry::Sim::endings`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EndingAt(pub u8);

impl Ending for EndingAt {
    const ALL: &'static [EndingAt] = &[
        EndingAt(0),
        EndingAt(1),
        EndingAt(2),
        EndingAt(3),
        EndingAt(4),
        EndingAt(5),
        EndingAt(6),
        EndingAt(7),
    ];
    fn name(self) -> &'static str {
        ["0", "1", "2", "3", "4", "5", "6", "7"][usize::from(self.0).min(MAX_ENDINGS - 1)]
    }
    fn index(self) -> usize {
        usize::from(self.0).min(MAX_ENDINGS - 1)
    }
}

/// `o` with its ending as its place in its game's list.
pub fn at<E: Ending>(o: Outcome<E>) -> Outcome<EndingAt> {
    Outcome {
        verdict: o.verdict,
        ended: EndingAt(o.ended.index().min(MAX_ENDINGS - 1) as u8),
        turns: o.turns,
    }
}

/// The names of `E`'s endings, in order (a registration's [`super::registry::Sim::endings`]).
pub fn ending_names<E: Ending>() -> Vec<&'static str> {
    E::ALL.iter().map(|e| e.name()).collect()
}
