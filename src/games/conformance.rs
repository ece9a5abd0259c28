//! What every [`Game`] must do, checked the same way for each (like OpenSpiel's
//! `RandomSimTest`): from a start, a seeded random match whose every decision is applicable and
//! described, that ends within a bound, whose replay from its recorded inputs reproduces its
//! log and outcome, and whose play through [`Game::play_out`] (a game's own fast path, if it
//! has one) equals the node-by-node path. Tests of every game call [`check_random_match`].

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::ai::{Agent, Policy};
use super::ai::{Evaluated, play_nodes};
use super::dice::{Dice, RngDice};
use super::game::{Game, Stepper, Turn, Verdict};

/// What went wrong in a conformance check.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{game}, seed {seed}: {what}")]
pub struct Violation {
    pub game: &'static str,
    pub seed: u64,
    pub what: String,
}

/// Plays one seeded random match from `start` (at most `max_steps` inputs) and checks the
/// interface's promises; `start_log` is what the start logged.
pub fn check_random_match<G: Evaluated>(
    start: &G,
    start_log: &[G::Event],
    seed: u64,
    max_steps: usize,
) -> Result<(), Violation> {
    let fail = |what: String| Violation {
        game: G::NAME,
        seed,
        what,
    };
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut dice = RngDice::new(seed ^ 0x5EED);
    let mut step = Stepper::new(start.clone(), start_log.to_vec());
    let mut steps = 0;
    loop {
        match step.game.turn() {
            Turn::Over => break,
            Turn::Chance(c) => {
                let o = c
                    .draw(&mut dice)
                    .ok_or_else(|| fail("seeded dice ran out".into()))?;
                if o >= c.outcomes() {
                    return Err(fail(format!("chance outcome {o} of {}", c.outcomes())));
                }
                step.apply(o);
            }
            Turn::Seat { seat, options } => {
                if seat >= step.game.seats() {
                    return Err(fail(format!("seat {seat} of {}", step.game.seats())));
                }
                if options == 0 {
                    return Err(fail("a decision with no option".into()));
                }
                for a in 0..options {
                    if step.game.describe(a).trim().is_empty() {
                        return Err(fail(format!("option {a} of {options} has no words")));
                    }
                    // Every legal decision can be applied.
                    let mut probe = step.game.clone();
                    probe.apply(a);
                }
                step.apply(rng.random_range(0..options));
            }
        }
        steps += 1;
        if steps > max_steps {
            return Err(fail(format!("no end after {max_steps} inputs")));
        }
    }
    let outcome = step
        .game
        .outcome()
        .ok_or_else(|| fail("over without an outcome".into()))?;
    if let Verdict::Won(w) = outcome.verdict
        && (w.is_empty() || w.iter().any(|s| s >= step.game.seats()))
    {
        return Err(fail(format!(
            "winners {w:?} of {} seats",
            step.game.seats()
        )));
    }
    let r = step.game.returns();
    if (r.iter().sum::<f64>() - 1.0).abs() > 1e-9 {
        return Err(fail(format!("returns {r:?} do not sum to 1")));
    }
    // A replay of the recorded inputs reproduces the log and the outcome.
    let mut again = Stepper::new(start.clone(), start_log.to_vec());
    for &a in &step.inputs {
        again.apply(a);
    }
    if again.log != step.log {
        return Err(fail("the replay of the inputs logged another match".into()));
    }
    if again.game.outcome() != Some(outcome) {
        return Err(fail("the replay ended otherwise".into()));
    }
    // The game's own `play_out` plays what node-by-node play plays.
    let policies = [Policy::Random, Policy::Greedy];
    let agents = |n: usize| -> Vec<Agent<G::Eval>> {
        (0..n)
            .map(|k| Agent::new(policies[k % 2], seed.wrapping_add(k as u64)))
            .collect()
    };
    let seats = start.seats();
    let (mut fast, mut slow) = (start.clone(), start.clone());
    let (mut fast_log, mut slow_log) = (start_log.to_vec(), start_log.to_vec());
    fast.play_out(
        &mut RngDice::new(seed),
        &mut agents(seats),
        Some(&mut fast_log),
    );
    play_nodes(
        &mut slow,
        &mut RngDice::new(seed),
        &mut agents(seats),
        Some(&mut slow_log),
    );
    if fast_log != slow_log || fast.outcome() != slow.outcome() {
        return Err(fail("play_out and node-by-node play differ".into()));
    }
    Ok(())
}

/// What `seat` is told of log entry `e` at position `g`: the entry whole where it sees it,
/// else as [`Game::hidden`] tells it (text and JSON).
fn seat_line<G: Game>(g: &G, e: &G::Event, seat: usize) -> (String, serde_json::Value) {
    match g.hidden(e) {
        Some(h) if !h.seen(Some(seat)) => (h.text, h.json),
        _ => (g.event_text(e), g.event_json(e)),
    }
}

/// Whose turn it is as `seat` sees it: another seat's decision without its options (which
/// go to that seat alone), its own with them.
fn seen_turn(t: Turn, seat: usize) -> Turn {
    match t {
        Turn::Seat { seat: s, .. } if s != seat => Turn::Seat {
            seat: s,
            options: 0,
        },
        other => other,
    }
}

/// Plays one seeded random match from `start` (at most `max_steps` inputs) and checks
/// [`Game::determinize`] at every decision, for every seat and three seeds: a determinization
/// keeps everything the seat sees (each log entry as the seat is told it, whose turn it is,
/// the seats, and for the seat that decides the number of options, its question and every
/// option in words), and
/// plays on: every option can be applied, and (every 8th decision) random play from it ends.
/// Returns how many determinizations it checked (0 for a game that hides nothing).
pub fn check_determinization<G: Game>(
    start: &G,
    start_log: &[G::Event],
    seed: u64,
    max_steps: usize,
) -> Result<usize, Violation> {
    let fail = |what: String| Violation {
        game: G::NAME,
        seed,
        what,
    };
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut dice = RngDice::new(seed ^ 0x5EED);
    let mut step = Stepper::new(start.clone(), start_log.to_vec());
    let (mut steps, mut decisions, mut checked) = (0usize, 0usize, 0usize);
    loop {
        match step.game.turn() {
            Turn::Over => break,
            Turn::Chance(c) => {
                let o = c
                    .draw(&mut dice)
                    .ok_or_else(|| fail("seeded dice ran out".into()))?;
                step.apply(o);
            }
            Turn::Seat {
                seat: mover,
                options,
            } => {
                decisions += 1;
                let g = &step.game;
                for seat in 0..g.seats() {
                    for k in 0..3u64 {
                        let mut r = ChaCha8Rng::seed_from_u64(seed ^ ((k + 1) * 0x9E37));
                        let Some(world) = g.determinize(seat, &mut r) else {
                            continue;
                        };
                        checked += 1;
                        let at = format!("input {}, seat {seat}", step.inputs.len());
                        if world.seats() != g.seats()
                            || seen_turn(world.turn(), seat) != seen_turn(g.turn(), seat)
                        {
                            return Err(fail(format!("{at}: the turn changed")));
                        }
                        for (i, e) in step.log.iter().enumerate() {
                            if seat_line(&world, e, seat) != seat_line(g, e, seat) {
                                return Err(fail(format!("{at}: log entry {i} is told otherwise")));
                            }
                        }
                        if seat == mover {
                            if world.question() != g.question() {
                                return Err(fail(format!("{at}: the question changed")));
                            }
                            for a in 0..options {
                                if world.describe(a) != g.describe(a) {
                                    return Err(fail(format!("{at}: option {a} changed")));
                                }
                                let mut probe = world.clone();
                                probe.apply(a);
                            }
                        }
                        if k == 0 && decisions % 8 == 1 {
                            let mut w = world.clone();
                            let mut n = 0;
                            while w.turn() != Turn::Over {
                                w.apply(match w.turn() {
                                    Turn::Seat { options, .. } => rng.random_range(0..options),
                                    Turn::Chance(c) => rng.random_range(0..c.outcomes()),
                                    Turn::Over => 0,
                                });
                                n += 1;
                                if n > max_steps {
                                    return Err(fail(format!(
                                        "{at}: a determinization played on does not end"
                                    )));
                                }
                            }
                        }
                    }
                }
                step.apply(rng.random_range(0..options));
            }
        }
        steps += 1;
        if steps > max_steps {
            return Err(fail(format!("no end after {max_steps} inputs")));
        }
    }
    Ok(checked)
}

/// A dice source that runs out after `n` draws (a short script), to check that a game stops
/// cleanly when its chance source is exhausted.
#[derive(Debug, Clone)]
pub struct Short {
    pub inner: RngDice,
    pub left: usize,
}

impl Dice for Short {
    fn die(&mut self) -> Option<u8> {
        self.left = self.left.checked_sub(1)?;
        self.inner.die()
    }
    fn pick(&mut self, n: u8) -> Option<u8> {
        self.left = self.left.checked_sub(1)?;
        self.inner.pick(n)
    }
}
