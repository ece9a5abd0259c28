//! Iconica as a [`Game`]: a position is the board and where the turn stands ([`Step`]), so
//! the node that comes next (a die, a `random_foe` pick, a seat's decision) is known without
//! replaying anything, and an input moves the turn on to the next node
//! ([`IconicaGame::play_on`]). Whole matches played by policies run the same turn machine
//! with the policies asked at each decision ([`Game::play_out`]), which plays exactly the
//! match node-by-node play gives.

use rand::RngExt;
use rand_chacha::ChaCha8Rng;

use serde_json::Value;

use super::events::{Event, Log, NoLog};
use super::io::{Choice, ChoiceKind, Io, Opt, Stop};
use super::setup::Setup;
use super::state::{Ended, State, Winner};
use super::turn::{Step, stop_exhausted};
use crate::games::ai::Agent;
use crate::games::ai::play_nodes;
use crate::games::dice::Dice;
use crate::games::game::{Chance, Game, Outcome, Returns, Seats, Turn, Verdict};
use crate::games::iconica::ai::{IconicaEval, Table};

/// What the position waits for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Need {
    Die,
    Pick(u8),
    Choice { side: u8, n: u8 },
    Done,
}

/// A decision as the engine put it: what it is about, its options, the acting slot.
#[derive(Debug, Clone)]
pub struct Asked {
    pub kind: ChoiceKind,
    pub options: Vec<Opt>,
    pub actor: Option<u8>,
}

/// A match position: the board, where the current turn stands, and the node it waits at
/// (plain data: a clone is a copy).
#[derive(Debug, Clone)]
pub struct IconicaGame<'s> {
    pub(super) setup: &'s Setup,
    pub(super) st: State,
    pub(super) at: Step,
    need: Need,
}

/// One input (a die face, a pick or an option index); then it notes what is asked next.
struct Once {
    input: Option<u8>,
    need: Need,
}

impl Io for Once {
    #[inline]
    fn die(&mut self) -> Result<u8, Stop> {
        self.input.take().ok_or_else(|| {
            self.need = Need::Die;
            Stop
        })
    }
    #[inline]
    fn pick(&mut self, n: u8) -> Result<u8, Stop> {
        self.input.take().ok_or_else(|| {
            self.need = Need::Pick(n);
            Stop
        })
    }
    fn choose(&mut self, c: &Choice<'_>) -> Result<u8, Stop> {
        self.choose_n(c.side, c.options.len() as u8)
            .unwrap_or(Err(Stop))
    }
    #[inline]
    fn choose_n(&mut self, side: u8, n: u8) -> Option<Result<u8, Stop>> {
        Some(self.input.take().ok_or_else(|| {
            self.need = Need::Choice { side, n };
            Stop
        }))
    }
}

/// No input: notes the decision the position waits at, as the engine lists it.
struct Probe {
    asked: Option<Asked>,
}

impl Io for Probe {
    fn die(&mut self) -> Result<u8, Stop> {
        Err(Stop)
    }
    fn pick(&mut self, _n: u8) -> Result<u8, Stop> {
        Err(Stop)
    }
    fn choose(&mut self, c: &Choice<'_>) -> Result<u8, Stop> {
        self.asked = Some(Asked {
            kind: c.kind,
            options: c.options.to_vec(),
            actor: c.actor,
        });
        Err(Stop)
    }
}

/// Random dice and decisions from one generator (a playout).
struct Random<'r>(&'r mut ChaCha8Rng);

impl Io for Random<'_> {
    #[inline]
    fn die(&mut self) -> Result<u8, Stop> {
        Ok(self.0.random_range(1..=6u8))
    }
    #[inline]
    fn pick(&mut self, n: u8) -> Result<u8, Stop> {
        Ok(self.0.random_range(0..n))
    }
    fn choose(&mut self, c: &Choice<'_>) -> Result<u8, Stop> {
        Ok(self.0.random_range(0..c.options.len() as u8))
    }
    #[inline]
    fn choose_n(&mut self, _side: u8, n: u8) -> Option<Result<u8, Stop>> {
        Some(Ok(self.0.random_range(0..n)))
    }
}

impl<'s> IconicaGame<'s> {
    /// The start of a match: every match opens with the first player's Action Roll (no
    /// character has a status yet), so the first input is a die. `state()` shows the board
    /// before that turn begins.
    pub fn new(setup: &'s Setup) -> IconicaGame<'s> {
        IconicaGame::at_turn_start(setup, State::new(setup))
    }

    /// The position at the start of a turn with the board `st`: every turn's first input is
    /// a die (a start-of-turn roll or the Action Roll).
    pub fn at_turn_start(setup: &'s Setup, st: State) -> IconicaGame<'s> {
        IconicaGame {
            setup,
            st,
            at: Step::START,
            need: if st.ended.is_some() {
                Need::Done
            } else {
                Need::Die
            },
        }
    }

    pub fn setup(&self) -> &'s Setup {
        self.setup
    }

    /// The board where play currently stands.
    pub fn state(&self) -> &State {
        &self.st
    }

    /// Where the current turn stands.
    pub fn step(&self) -> &Step {
        &self.at
    }

    /// The position waiting at the decision `side` is asked among `n` options, where the
    /// turn machine stands while it asks (what a policy seated at an [`Io`] is shown).
    pub(crate) fn deciding(&self, side: u8, n: u8) -> IconicaGame<'s> {
        IconicaGame {
            need: Need::Choice { side, n },
            ..self.clone()
        }
    }

    /// Random play to the end of the match from here.
    pub fn playout(&self, rng: &mut ChaCha8Rng) -> [f64; 2] {
        let mut g = self.clone();
        let mut io = Random(rng);
        while g.st.ended.is_none() {
            let _ = g.play_to_end(&mut io, &mut NoLog);
        }
        scores(&g.st)
    }

    /// The decision play stands at, as the engine puts it (`None` at chance or the end).
    pub fn asked(&self) -> Option<Asked> {
        if !matches!(self.need, Need::Choice { .. }) {
            return None;
        }
        // The step waiting for the decision asks for it before it changes anything: a copy
        // run with no input stops at the same question.
        let mut g = self.clone();
        let mut io = Probe { asked: None };
        let _ = g.play_on(&mut io, &mut NoLog);
        io.asked
    }

    /// Gives the position one input and plays on to the next node, logged.
    fn feed<L: Log>(&mut self, input: u8, log: &mut L) {
        let mut io = Once {
            input: Some(input),
            need: Need::Done,
        };
        // Turn after turn until an input is missing (the next node) or the match is over.
        match self.play_to_end(&mut io, log) {
            Ok(()) => self.need = Need::Done,
            Err(Stop) => self.need = io.need,
        }
    }

    /// Plays to the end with `io` (turn after turn); a stop ends the match as if the dice
    /// ran out.
    fn play_all<I: Io, L: Log>(&mut self, io: &mut I, log: &mut L) {
        while self.st.ended.is_none() {
            if self.play_to_end(io, log).is_err() {
                stop_exhausted(&mut self.st, log);
            }
        }
        self.need = Need::Done;
    }
}

impl<'s> Game for IconicaGame<'s> {
    type Ending = Ended;
    type Event = Event;
    const NAME: &'static str = "iconica";

    fn seats(&self) -> usize {
        2
    }

    fn turn(&self) -> Turn {
        match self.need {
            Need::Die => Turn::Chance(Chance::Die),
            Need::Pick(n) => Turn::Chance(Chance::Pick(n)),
            Need::Choice { side, n } => Turn::Seat {
                seat: usize::from(side),
                options: usize::from(n),
            },
            Need::Done => Turn::Over,
        }
    }

    fn apply(&mut self, action: usize) {
        self.apply_logged_to(action, &mut NoLog);
    }

    fn apply_logged(&mut self, action: usize, log: &mut Vec<Event>) {
        self.apply_logged_to(action, log);
    }

    fn exhausted(&mut self, log: &mut Vec<Event>) {
        stop_exhausted(&mut self.st, log);
        self.need = Need::Done;
    }

    fn outcome(&self) -> Option<Outcome<Ended>> {
        let (ended, winner) = self.st.ended?;
        let verdict = match winner {
            Some(Winner::Side(s)) => Verdict::Won(Seats::one(usize::from(s))),
            Some(Winner::Draw) => Verdict::Draw,
            None => Verdict::NoResult,
        };
        Some(Outcome {
            verdict,
            ended,
            turns: self.st.turn,
        })
    }

    fn turns(&self) -> u32 {
        self.st.turn
    }

    fn fingerprint(&self) -> u64 {
        // The board and where the turn stands; not the turn count or the dice used.
        let mut st = self.st;
        st.turn = 0;
        st.dice_used = 0;
        crate::games::game::fingerprint_of(&(st, &self.at, self.need))
    }

    fn question(&self) -> String {
        match self.asked() {
            Some(a) => crate::games::iconica::human::question_of(self.setup, a.kind, a.actor),
            None => String::new(),
        }
    }

    fn describe(&self, action: usize) -> String {
        match self.asked().and_then(|a| a.options.get(action).copied()) {
            Some(o) => crate::games::iconica::human::option_text(self.setup, o),
            None => format!("option {}", action + 1),
        }
    }

    fn event_text(&self, e: &Event) -> String {
        e.text(self.setup)
    }

    fn event_json(&self, e: &Event) -> Value {
        e.to_json(self.setup)
    }

    fn is_heading(&self, e: &Event) -> bool {
        matches!(e, Event::Turn { .. })
    }

    fn returns(&self) -> Returns {
        let [a, b] = scores(&self.st);
        [a, b, 0.0, 0.0]
    }
}

impl<'s> IconicaGame<'s> {
    /// The fast path: the turn machine played straight through with the agents asked at
    /// each decision (`first` and `random` from the number of options alone).
    pub(crate) fn play_fast<D: Dice>(
        &mut self,
        dice: &mut D,
        agents: &mut [Agent<IconicaEval>],
        log: Option<&mut Vec<Event>>,
    ) {
        if self.need == Need::Done {
            return;
        }
        if agents.len() != 2 {
            return play_nodes(self, dice, agents, log);
        }
        let mut table = Table::seating(&mut *dice, agents);
        match log {
            Some(log) => self.play_all(&mut table, log),
            None => self.play_all(&mut table, &mut NoLog),
        }
    }
}

impl IconicaGame<'_> {
    fn apply_logged_to<L: Log>(&mut self, action: usize, log: &mut L) {
        let v = match self.need {
            Need::Die => action as u8 + 1,
            Need::Done => return,
            _ => action as u8,
        };
        self.feed(v, log);
    }
}

fn scores(st: &State) -> [f64; 2] {
    match st.ended.and_then(|e| e.1) {
        Some(Winner::Side(0)) => [1.0, 0.0],
        Some(Winner::Side(_)) => [0.0, 1.0],
        _ => [0.5, 0.5],
    }
}
