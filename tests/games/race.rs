//! A fifth game in one file: a dice race (Pig). On a turn a seat rolls a die as often as it
//! likes, adding each face to the turn's pot; a 1 loses the pot and ends the turn; holding
//! banks the pot. The first to bank `GOAL` wins. It implements `Game` and gives only its
//! evaluation, and the shared policies, the sim runner and the logged match play it with no
//! change outside this file.

use deckwright::games::ai::{Evaluator, Policy};
use deckwright::games::dice::{RngDice, ScriptDice};
use deckwright::games::game::{Chance, Ending, Game, Outcome, Seats, Turn, Verdict};
use deckwright::sim::{play_logged, play_seeded, run_tally};
use serde_json::{Value, json};
use std::sync::atomic::AtomicBool;

const GOAL: u32 = 30;
const TURN_LIMIT: u32 = 200;

#[derive(Debug, Clone)]
pub struct Race {
    banked: [u32; 2],
    pot: u32,
    to_move: usize,
    rolling: bool,
    turns: u32,
    stopped: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RaceEnd {
    Goal,
    TurnLimit,
    DiceExhausted,
}

impl Ending for RaceEnd {
    const ALL: &'static [RaceEnd] = &[RaceEnd::Goal, RaceEnd::TurnLimit, RaceEnd::DiceExhausted];
    fn name(self) -> &'static str {
        ["goal", "turn_limit", "dice_exhausted"][self as usize]
    }
}

#[derive(Debug, Clone, PartialEq)]
pub enum Said {
    Rolled(usize, u32),
    Banked(usize, u32),
}

/// Its evaluation: banked points and half the pot, against the opponent's.
#[derive(Debug, Clone, Default)]
pub struct RaceEval;

impl Evaluator<Race> for RaceEval {
    fn value(&mut self, g: &Race, seat: usize) -> f64 {
        let mine = g.banked[seat] + if g.to_move == seat { g.pot / 2 } else { 0 };
        f64::from(mine) - f64::from(g.banked[1 - seat])
    }
}

impl Race {
    pub fn new() -> Race {
        Race {
            banked: [0; 2],
            pot: 0,
            to_move: 0,
            rolling: false,
            turns: 1,
            stopped: false,
        }
    }
    fn winner(&self) -> Option<usize> {
        (0..2).find(|s| self.banked[*s] >= GOAL)
    }
    fn pass(&mut self) {
        self.pot = 0;
        self.to_move = 1 - self.to_move;
        self.turns += 1;
    }
}

impl Game for Race {
    type Ending = RaceEnd;
    type Event = Said;
    type Eval = RaceEval;
    const NAME: &'static str = "race";
    fn seats(&self) -> usize {
        2
    }
    fn turn(&self) -> Turn {
        if self.outcome().is_some() {
            Turn::Over
        } else if self.rolling {
            Turn::Chance(Chance::Die)
        } else {
            Turn::Seat {
                seat: self.to_move,
                options: 2,
            }
        }
    }
    fn apply(&mut self, a: usize) {
        self.apply_logged(a, &mut Vec::new())
    }
    fn apply_logged(&mut self, a: usize, log: &mut Vec<Said>) {
        if self.rolling {
            let face = a as u32 + 1;
            log.push(Said::Rolled(self.to_move, face));
            self.rolling = false;
            if face == 1 {
                self.pass()
            } else {
                self.pot += face
            }
        } else if a == 0 {
            self.rolling = true;
        } else {
            self.banked[self.to_move] += self.pot;
            log.push(Said::Banked(self.to_move, self.banked[self.to_move]));
            if self.winner().is_none() {
                self.pass();
            }
        }
    }
    fn exhausted(&mut self, _log: &mut Vec<Said>) {
        self.stopped = true;
    }
    fn outcome(&self) -> Option<Outcome<RaceEnd>> {
        let (verdict, ended) = match self.winner() {
            Some(w) => (Verdict::Won(Seats::one(w)), RaceEnd::Goal),
            None if self.stopped => (Verdict::NoResult, RaceEnd::DiceExhausted),
            None if self.turns > TURN_LIMIT => (Verdict::Draw, RaceEnd::TurnLimit),
            None => return None,
        };
        Some(Outcome {
            verdict,
            ended,
            turns: self.turns,
        })
    }
    fn turns(&self) -> u32 {
        self.turns
    }
    fn question(&self) -> String {
        format!("Seat {}: roll or hold {}?", self.to_move, self.pot)
    }
    fn describe(&self, a: usize) -> String {
        if a == 0 {
            "Roll".into()
        } else {
            format!("Hold and bank {}", self.pot)
        }
    }
    fn event_text(&self, e: &Said) -> String {
        format!("{e:?}")
    }
    fn event_json(&self, e: &Said) -> Value {
        json!({ "said": format!("{e:?}") })
    }
}

#[test]
fn the_race_keeps_every_promise_of_the_interface() {
    for seed in 0..30 {
        deckwright::games::conformance::check_random_match(&Race::new(), &[], seed, 100_000)
            .unwrap();
    }
}

#[test]
fn the_shared_runner_plays_the_race_the_same_at_any_thread_count() {
    let play = |i: u64| {
        let s = deckwright::games::dice::game_seed(5, i);
        play_seeded(
            Race::new(),
            RngDice::new(s),
            &[Policy::Greedy, Policy::Random],
            s,
        )
    };
    let never = AtomicBool::new(false);
    let one = run_tally(2000, Some(1), play, |_| {}, &never)
        .unwrap()
        .unwrap();
    let two = run_tally(2000, Some(2), play, |_| {}, &never)
        .unwrap()
        .unwrap();
    assert_eq!(one, two);
    assert_eq!(one.games, 2000);
    assert_eq!(one.wins[0] + one.wins[1] + one.draws + one.no_result, 2000);
    let names: Vec<&str> = one.endings().map(|(n, _)| n).collect();
    assert_eq!(names, ["goal", "turn_limit", "dice_exhausted"]);
    // Greedy banks whenever its pot is worth more than half of nothing: it beats random.
    let (rate, (lo, _)) = one.win_rate(0);
    assert!(lo > 0.5, "greedy against random: {rate}");
}

#[test]
fn mcts_beats_greedy_at_the_race() {
    let play = |i: u64| {
        let s = deckwright::games::dice::game_seed(9, i);
        let mcts = Policy::parse("mcts:200").unwrap();
        // Half the games in each seat.
        if i.is_multiple_of(2) {
            play_seeded(Race::new(), RngDice::new(s), &[mcts, Policy::Greedy], s)
        } else {
            let mut o = play_seeded(Race::new(), RngDice::new(s), &[Policy::Greedy, mcts], s);
            if let Verdict::Won(w) = o.verdict {
                o.verdict = Verdict::Won(Seats::one(1 - w.iter().next().unwrap()));
            }
            o
        }
    };
    let never = AtomicBool::new(false);
    let t = run_tally(400, None, play, |_| {}, &never).unwrap().unwrap();
    let (rate, (lo, _)) = t.win_rate(0);
    assert!(
        lo > 0.5,
        "mcts against greedy: {rate:.3}, interval from {lo:.3}"
    );
}

#[test]
fn a_scripted_logged_race_replays_its_dice_and_stops_when_they_run_out() {
    let dice = ScriptDice::parse("6 6 1 5 4").unwrap();
    let (game, log) = play_logged(Race::new(), Vec::new(), dice, &[Policy::First], 0);
    // `first` always rolls: 6, 6, then a 1 loses the pot; seat 1 rolls 5 and 4; the script ends.
    assert_eq!(
        log,
        [
            Said::Rolled(0, 6),
            Said::Rolled(0, 6),
            Said::Rolled(0, 1),
            Said::Rolled(1, 5),
            Said::Rolled(1, 4)
        ]
    );
    let o = game.outcome().unwrap();
    assert_eq!(
        (o.verdict, o.ended),
        (Verdict::NoResult, RaceEnd::DiceExhausted)
    );
    assert_eq!(game.describe(1), "Hold and bank 9");
}
