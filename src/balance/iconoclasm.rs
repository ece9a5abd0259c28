//! Iconoclasm balance: each seat's win rate and the first player's edge under a clash table
//! (`spec/balance.md`), with sequential stopping. Game `i` is the sim's game `i` (a fresh
//! deal seeded from (seed, i)); every seat is played by the same policy.

use crate::games::game::Verdict;
use crate::sim::iconoclasm::Run;

use super::{BalanceError, Rate, Runner, Stopped};

/// A game's result as one byte: bits 0-3 the winning seats, bit 4 a draw (at most 31, so a
/// shard's tally keeps it: `shard::MAX_SCORE`).
const DRAW: u8 = 0x10;

/// Seat `seat`'s score in half-wins from a game's result byte (a draw is half a win).
fn seat_score(r: u8, seat: usize) -> u8 {
    if r & DRAW != 0 {
        1
    } else if r & (1 << seat) != 0 {
        2
    } else {
        0
    }
}

/// Each seat's rate and the first player's edge over the fair share (1 / players).
#[derive(Debug, Clone, PartialEq)]
pub struct Seats {
    pub games: u64,
    pub stopped: Stopped,
    /// Seat 1 first.
    pub seats: Vec<Rate>,
    /// Seat 1's win rate minus 1 / players, with its interval.
    pub first_edge: (f64, (f64, f64)),
}

/// Plays games of `run` (2 to 4 players) until every seat's interval is narrow enough.
pub fn seats(run: &Run, seed: u64, runner: &Runner<'_>) -> Result<Seats, BalanceError> {
    let n_seats = usize::from(run.players);
    if !(2..=4).contains(&n_seats) {
        return Err(BalanceError::Field(format!(
            "seat balance needs 2 to 4 players, not {n_seats}"
        )));
    }
    run.outcome(seed, 0)
        .map_err(|e| BalanceError::Field(e.to_string()))?;
    let play = |i: u64| match run.outcome(seed, i).map(|o| o.verdict) {
        Ok(Verdict::Won(w)) => w.iter().fold(0u8, |m, s| m | (1 << s.min(3))),
        _ => DRAW,
    };
    let stopping = runner.stopping;
    let mut results = Vec::new();
    let mut n = 0;
    loop {
        n = (n + super::BATCH).min(stopping.max_games);
        runner.extend(&mut results, n, &play)?;
        let rates: Vec<Rate> = (0..n_seats)
            .map(|s| {
                let scores: Vec<u8> = results[..n as usize]
                    .iter()
                    .map(|&r| seat_score(r, s))
                    .collect();
                Rate::of(&scores, Stopped::Precision)
            })
            .collect();
        let widest = rates.iter().map(Rate::half_width).fold(0.0, f64::max);
        let stopped = if widest <= stopping.precision {
            Some(Stopped::Precision)
        } else if n >= stopping.max_games {
            Some(Stopped::MaxGames)
        } else {
            None
        };
        if let Some(stopped) = stopped {
            let fair = 1.0 / n_seats as f64;
            let first = rates[0];
            let seats = rates.into_iter().map(|r| Rate { stopped, ..r }).collect();
            return Ok(Seats {
                games: n,
                stopped,
                seats,
                first_edge: (
                    first.win_rate - fair,
                    (first.ci95.0 - fair, first.ci95.1 - fair),
                ),
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_draw_is_half_a_win_for_every_seat_and_a_win_only_for_its_seat() {
        assert_eq!(seat_score(DRAW, 0), 1);
        assert_eq!(seat_score(DRAW, 3), 1);
        assert_eq!(seat_score(0b0010, 1), 2);
        assert_eq!(seat_score(0b0010, 0), 0);
    }
}
