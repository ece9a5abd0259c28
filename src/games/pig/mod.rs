//! Pig, the dice game (public domain): on a turn a player rolls a die as often as they like,
//! adding each face to the turn's pot; a 1 loses the pot and ends the turn; holding banks the
//! pot. The first to bank [`GOAL`] wins. It is the small fifth game that shows a game is a
//! folder: its rules, its evaluation and its registration live here, and the faces play it
//! through the registry (`deckwright play pig`, `replay`, the Match screen's generic board)
//! with no change anywhere else but the registry's line.

use serde_json::{Value, json};

use crate::games::ai::{Evaluated, Evaluator};
use crate::games::game::{Chance, Ending, Game, Outcome, Seats, Turn, Verdict};
use crate::games::registry::{NoOptions, Options, Prepared, Registration, Sim, SimReport};

/// Points that win.
pub const GOAL: u32 = 30;
/// Turns after which the game is a draw.
pub const TURN_LIMIT: u32 = 200;

/// Pig as the faces know it.
pub const REGISTRATION: Registration = Registration {
    name: "pig",
    title: "Pig",
    engine: 1,
    replay: crate::games::any::replay::<Pig>,
    generic: Some(|| Box::new(Pig::new())),
    open: |_, _| Ok(crate::games::any::Opened::of(Pig::new(), &[])),
    options: Options {
        about: "Pig, the dice game: two players, no file.",
        args: <NoOptions as clap::Args>::augment_args,
        compile: |_, _, _| Ok(toml::Table::new()),
        solo: false,
        dice: true,
        sim: Some(Sim {
            about: "Pig, the dice game: who reaches the goal first.",
            extra: None,
            prepare: |_, _, ask| {
                let policies = (ask.policies)(2);
                let seats = policies.clone();
                Ok(Prepared {
                    run: Vec::new(),
                    setup: "pig".into(),
                    policies,
                    play: Box::new(move |seed, index| {
                        let s = crate::games::dice::game_seed(seed, index);
                        let dice = crate::games::dice::RngDice::new(s);
                        crate::games::run::at(crate::games::run::play_seeded(
                            Pig::new(),
                            dice,
                            &seats,
                            s,
                        ))
                    }),
                })
            },
            endings: crate::games::run::ending_names::<PigEnding>,
            report: SimReport::Sides { counts: "turns" },
        }),
    },
    balance: None,
};

/// A position of a game of Pig between two players.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pig {
    banked: [u32; 2],
    pot: u32,
    to_move: usize,
    rolling: bool,
    turns: u32,
    stopped: bool,
}

/// How a game of Pig ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PigEnding {
    Goal,
    TurnLimit,
    DiceExhausted,
}

impl Ending for PigEnding {
    const ALL: &'static [PigEnding] = &[
        PigEnding::Goal,
        PigEnding::TurnLimit,
        PigEnding::DiceExhausted,
    ];
    fn name(self) -> &'static str {
        match self {
            PigEnding::Goal => "goal",
            PigEnding::TurnLimit => "turn_limit",
            PigEnding::DiceExhausted => "dice_exhausted",
        }
    }
}

/// What happens in a game of Pig.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Said {
    /// Player (from 0) rolled a face; the pot after it (0: a 1 lost it).
    Rolled { player: usize, face: u32, pot: u32 },
    /// Player banked its pot: its points now.
    Banked { player: usize, points: u32 },
    /// A player reached the goal.
    Won { player: usize },
}

/// Its evaluation: banked points and half the pot, against the opponent's.
#[derive(Debug, Clone, Default)]
pub struct PigEval;

impl Evaluated for Pig {
    type Eval = PigEval;
}

impl Evaluator<Pig> for PigEval {
    fn value(&mut self, g: &Pig, seat: usize) -> f64 {
        let mine = g.banked[seat] + if g.to_move == seat { g.pot / 2 } else { 0 };
        f64::from(mine) - f64::from(g.banked[1 - seat])
    }
}

impl Default for Pig {
    fn default() -> Self {
        Pig::new()
    }
}

impl Pig {
    /// A new game: player 1 to roll, nothing banked.
    pub fn new() -> Pig {
        Pig {
            banked: [0; 2],
            pot: 0,
            to_move: 0,
            rolling: false,
            turns: 1,
            stopped: false,
        }
    }

    /// Each player's banked points.
    pub fn banked(&self) -> [u32; 2] {
        self.banked
    }

    /// The pot of the turn under way.
    pub fn pot(&self) -> u32 {
        self.pot
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

impl Game for Pig {
    type Ending = PigEnding;
    type Event = Said;
    const NAME: &'static str = "pig";

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
        if self.outcome().is_some() {
            return;
        }
        let player = self.to_move;
        if self.rolling {
            let face = a as u32 + 1;
            self.rolling = false;
            if face == 1 {
                log.push(Said::Rolled {
                    player,
                    face,
                    pot: 0,
                });
                self.pass();
            } else {
                self.pot += face;
                log.push(Said::Rolled {
                    player,
                    face,
                    pot: self.pot,
                });
            }
        } else if a == 0 {
            self.rolling = true;
        } else {
            self.banked[player] += self.pot;
            log.push(Said::Banked {
                player,
                points: self.banked[player],
            });
            if self.winner().is_some() {
                log.push(Said::Won { player });
            } else {
                self.pass();
            }
        }
    }

    fn exhausted(&mut self, _log: &mut Vec<Said>) {
        self.stopped = true;
    }

    fn outcome(&self) -> Option<Outcome<PigEnding>> {
        let (verdict, ended) = match self.winner() {
            Some(w) => (Verdict::Won(Seats::one(w)), PigEnding::Goal),
            None if self.stopped => (Verdict::NoResult, PigEnding::DiceExhausted),
            None if self.turns > TURN_LIMIT => (Verdict::Draw, PigEnding::TurnLimit),
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

    fn fingerprint(&self) -> u64 {
        // The banks, the pot and who rolls; not the turn count.
        let mut p = self.clone();
        p.turns = 0;
        crate::games::game::fingerprint_of(&p)
    }

    fn question(&self) -> String {
        format!(
            "Player {}: roll, or hold and bank {} (banked {} of {GOAL})?",
            self.to_move + 1,
            self.pot,
            self.banked[self.to_move]
        )
    }

    fn describe(&self, a: usize) -> String {
        if a == 0 {
            "Roll".into()
        } else {
            format!("Hold and bank {}", self.pot)
        }
    }

    fn event_text(&self, e: &Said) -> String {
        match *e {
            Said::Rolled {
                player, face: 1, ..
            } => {
                format!("Player {} rolls a 1 and loses the pot", player + 1)
            }
            Said::Rolled { player, face, pot } => {
                format!("Player {} rolls {face}: the pot is {pot}", player + 1)
            }
            Said::Banked { player, points } => {
                format!("Player {} banks the pot: {points} points", player + 1)
            }
            Said::Won { player } => format!("Player {} reaches {GOAL} and wins", player + 1),
        }
    }

    fn event_json(&self, e: &Said) -> Value {
        let (kind, fields) = match *e {
            Said::Rolled { player, face, pot } => (
                "rolled",
                json!({"player": player + 1, "face": face, "pot": pot}),
            ),
            Said::Banked { player, points } => {
                ("banked", json!({"player": player + 1, "points": points}))
            }
            Said::Won { player } => ("won", json!({"player": player + 1})),
        };
        crate::games::event_json(kind, fields, self.event_text(e))
    }

    fn is_heading(&self, e: &Said) -> bool {
        matches!(e, Said::Won { .. })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pig_keeps_every_promise_of_the_interface() {
        for seed in 0..30 {
            crate::games::conformance::check_random_match(&Pig::new(), &[], seed, 100_000).unwrap();
        }
    }
}
