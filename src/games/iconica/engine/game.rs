//! Iconica as a [`Game`]: decision and chance nodes found by replaying the current turn's
//! inputs (die faces, `random_foe` picks, option indices) from its latest step boundary
//! ([`Resume`]). Whole matches played by policies take the engine's fast path instead
//! ([`Game::play_out`]: one pass through the turns, the policies asked at each decision),
//! which plays exactly the same match.

use rand::RngExt;
use rand_chacha::ChaCha8Rng;

use serde_json::Value;

use super::events::{Event, NoLog};
use super::io::{Choice, ChoiceKind, Io, Opt, Stop};
use super::setup::Setup;
use super::state::{Ended, State, Winner};
use super::turn::{Resume, play_turn, resume_turn, stop_exhausted};
use crate::games::ai::Agent;
use crate::games::ai::play_nodes;
use crate::games::dice::Dice;
use crate::games::game::{Chance, Game, Outcome, Returns, Seats, Turn, Verdict};
use crate::games::iconica::ai::{IconicaEval, Table};

/// What the engine needs next.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Need {
    Die,
    Pick(u8),
    Choice { side: u8, n: u8 },
    Done,
}

/// Serves recorded inputs, then either notes what is needed (probe) or draws at random.
struct Replay<'a, 'r> {
    inputs: &'a [u8],
    pos: usize,
    need: Need,
    rng: Option<&'r mut ChaCha8Rng>,
    /// With `rng`: take option 0 instead of a random option.
    first: bool,
    /// Probes: have the engine list the options of the decision it stops at.
    list: bool,
    /// Probes note the latest step boundary: (state, where, inputs consumed before it).
    mark: Option<(State, Resume, usize)>,
    /// Probes: the decision it stopped at (kind, options, acting slot), when listed.
    asked: Option<Asked>,
}

/// A decision as the engine put it: what it is about, its options, the acting slot.
#[derive(Debug, Clone)]
pub struct Asked {
    pub kind: ChoiceKind,
    pub options: Vec<Opt>,
    pub actor: Option<u8>,
}

impl<'a, 'r> Replay<'a, 'r> {
    fn new(inputs: &'a [u8], rng: Option<&'r mut ChaCha8Rng>, first: bool) -> Replay<'a, 'r> {
        Replay {
            inputs,
            pos: 0,
            need: Need::Done,
            rng,
            first,
            mark: None,
            asked: None,
            list: false,
        }
    }
}

impl Replay<'_, '_> {
    #[inline]
    fn next(&mut self) -> Option<u8> {
        let v = self.inputs.get(self.pos).copied();
        if v.is_some() {
            self.pos += 1;
        }
        v
    }
}

impl Replay<'_, '_> {
    /// A decision among `n` options of `side`: recorded, first, random, or a stop (probe).
    #[inline]
    fn take(&mut self, side: u8, n: u8) -> Result<u8, Stop> {
        if let Some(v) = self.next() {
            return Ok(v);
        }
        match self.rng.as_deref_mut() {
            Some(_) if self.first => Ok(0),
            Some(r) => Ok(r.random_range(0..n)),
            None => {
                self.need = Need::Choice { side, n };
                Err(Stop)
            }
        }
    }
}

impl Io for Replay<'_, '_> {
    #[inline]
    fn mark(&mut self, st: &State, at: Resume) {
        if self.rng.is_none() {
            self.mark = Some((*st, at, self.pos));
        }
    }
    fn die(&mut self) -> Result<u8, Stop> {
        if let Some(v) = self.next() {
            return Ok(v);
        }
        match self.rng.as_deref_mut() {
            Some(r) => Ok(r.random_range(1..=6u8)),
            None => {
                self.need = Need::Die;
                Err(Stop)
            }
        }
    }
    fn pick(&mut self, n: u8) -> Result<u8, Stop> {
        if let Some(v) = self.next() {
            return Ok(v);
        }
        match self.rng.as_deref_mut() {
            Some(r) => Ok(r.random_range(0..n)),
            None => {
                self.need = Need::Pick(n);
                Err(Stop)
            }
        }
    }
    fn choose(&mut self, c: &Choice<'_>) -> Result<u8, Stop> {
        let r = self.take(c.side, c.options.len() as u8);
        if r.is_err() && self.list {
            self.asked = Some(Asked {
                kind: c.kind,
                options: c.options.to_vec(),
                actor: c.actor,
            });
        }
        r
    }
    #[inline]
    fn choose_n(&mut self, side: u8, n: u8) -> Option<Result<u8, Stop>> {
        if self.list && self.pos >= self.inputs.len() && self.rng.is_none() {
            return None;
        }
        Some(self.take(side, n))
    }
}

impl super::TurnHook for Replay<'_, '_> {}

/// A match position: the state at the start of the current turn plus this turn's inputs.
#[derive(Debug, Clone)]
pub struct IconicaGame<'s> {
    setup: &'s Setup,
    turn_start: State,
    inputs: Vec<u8>,
    /// The turn's latest step boundary: the state there, where it resumes, and how many of
    /// `inputs` came before it. Replays start here instead of at the turn's start.
    mark: (State, Resume, usize),
    need: Need,
    /// The state where the replay stopped (for evaluation and display).
    now: State,
    /// Events of the current turn already handed to a log by [`Game::apply_logged`].
    logged: usize,
}

impl<'s> IconicaGame<'s> {
    /// The position at `turn_start` after the given inputs of that turn.
    pub fn at(setup: &'s Setup, turn_start: State, inputs: &[u8]) -> IconicaGame<'s> {
        let mut g = IconicaGame {
            setup,
            turn_start,
            mark: (turn_start, Resume::Start, 0),
            inputs: inputs.to_vec(),
            need: Need::Done,
            now: turn_start,
            logged: 0,
        };
        g.advance();
        g
    }

    /// The start of a match.
    ///
    /// No replay is needed to know what comes first: every match opens with the first
    /// player's Action Roll (no character has a status yet), so the first input is a die.
    /// `state()` shows the board before that turn begins.
    pub fn new(setup: &'s Setup) -> IconicaGame<'s> {
        let start = State::new(setup);
        let g = IconicaGame {
            setup,
            turn_start: start,
            mark: (start, Resume::Start, 0),
            inputs: Vec::new(),
            need: Need::Die,
            now: start,
            logged: 0,
        };
        debug_assert_eq!(
            g.need,
            IconicaGame::at(setup, start, &[]).need,
            "a match opens with a die"
        );
        g
    }

    /// The position at a decision of `side` among `n` options, known without a replay: the
    /// turn's start, its inputs so far, its latest boundary (`None`: the turn's start), and
    /// the state now (the fast path's view for its policies).
    pub(crate) fn at_decision(
        setup: &'s Setup,
        turn_start: State,
        inputs: Vec<u8>,
        mark: Option<(State, Resume, usize)>,
        side: u8,
        n: u8,
        now: State,
    ) -> IconicaGame<'s> {
        IconicaGame {
            setup,
            turn_start,
            inputs,
            mark: mark.unwrap_or((turn_start, Resume::Start, 0)),
            need: Need::Choice { side, n },
            now,
            logged: 0,
        }
    }

    /// Gives back the buffer of the turn's inputs (to be reused).
    pub(crate) fn into_inputs(self) -> Vec<u8> {
        self.inputs
    }

    pub fn setup(&self) -> &'s Setup {
        self.setup
    }

    /// The turn's latest step boundary (state, where it resumes) and the inputs since it.
    pub fn boundary(&self) -> (&State, Resume, &[u8]) {
        let (st, at, pos) = &self.mark;
        (st, *at, &self.inputs[(*pos).min(self.inputs.len())..])
    }

    /// Random play to the end of the match from here.
    pub fn playout(&self, rng: &mut ChaCha8Rng) -> [f64; 2] {
        let (mut st, at, pos) = self.mark;
        let mut io = Replay::new(&self.inputs[pos..], Some(rng), false);
        if st.ended.is_none() {
            let _ = resume_turn(self.setup, &mut st, at, &mut io, &mut NoLog);
            io.inputs = &[];
            io.pos = 0;
        }
        while st.ended.is_none() {
            let _ = play_turn(self.setup, &mut st, &mut io, &mut NoLog);
        }
        scores(&st)
    }

    /// The state where play currently stands.
    pub fn state(&self) -> &State {
        &self.now
    }

    /// The decision play stands at, as the engine puts it (`None` at chance or the end).
    pub fn asked(&self) -> Option<Asked> {
        if !matches!(self.need, Need::Choice { .. }) {
            return None;
        }
        let (mut st, at, pos) = self.mark;
        let mut io = Replay::new(&self.inputs[pos..], None, false);
        io.list = true;
        let _ = resume_turn(self.setup, &mut st, at, &mut io, &mut NoLog);
        io.asked
    }

    fn advance(&mut self) {
        loop {
            let (mut st, at, pos) = self.mark;
            if st.ended.is_some() {
                self.now = st;
                self.need = Need::Done;
                return;
            }
            let mut io = Replay::new(&self.inputs[pos..], None, false);
            match resume_turn(self.setup, &mut st, at, &mut io, &mut NoLog) {
                Ok(()) => {
                    self.turn_start = st;
                    self.mark = (st, Resume::Start, 0);
                    self.inputs.clear();
                    self.logged = 0;
                }
                Err(Stop) => {
                    if let Some((m, at, used)) = io.mark {
                        self.mark = (m, at, pos + used);
                    }
                    self.need = io.need;
                    self.now = st;
                    return;
                }
            }
        }
    }

    /// Hands `log` the events of the current turn not handed yet (the turn replayed from its
    /// start with every input), turn after turn while turns complete.
    fn log_new_events(&mut self, log: &mut Vec<Event>) {
        let mut start = self.turn_start;
        let mut inputs: &[u8] = &self.inputs;
        let mut logged = self.logged;
        let mut turn = Vec::new();
        while start.ended.is_none() {
            turn.clear();
            let mut io = Replay::new(inputs, None, false);
            let done =
                resume_turn(self.setup, &mut start, Resume::Start, &mut io, &mut turn).is_ok();
            log.extend(turn.drain(logged.min(turn.len())..));
            if !done {
                break;
            }
            // Only inputs of the current turn are kept, so a finished turn is the last with
            // inputs; the turns after it are replayed with none.
            inputs = &[];
            logged = 0;
        }
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
        let v = match self.need {
            Need::Die => action as u8 + 1,
            Need::Done => return,
            _ => action as u8,
        };
        self.inputs.push(v);
        self.advance();
    }

    fn apply_logged(&mut self, action: usize, log: &mut Vec<Event>) {
        if self.need == Need::Done {
            return;
        }
        let before = log.len();
        let v = if self.need == Need::Die {
            action as u8 + 1
        } else {
            action as u8
        };
        self.inputs.push(v);
        self.log_new_events(log);
        let turn_before = self.turn_start.turn;
        self.advance();
        // The events of a turn that is still under way are the ones handed over now.
        if self.turn_start.turn == turn_before {
            self.logged += log.len() - before;
        } else {
            let mut start = self.turn_start;
            let mut tmp = Vec::new();
            let mut io = Replay::new(&self.inputs, None, false);
            let _ = resume_turn(self.setup, &mut start, Resume::Start, &mut io, &mut tmp);
            self.logged = tmp.len();
        }
    }

    fn exhausted(&mut self, log: &mut Vec<Event>) {
        stop_exhausted(&mut self.now, log);
        self.mark = (self.now, Resume::Start, self.inputs.len());
        self.need = Need::Done;
    }

    fn outcome(&self) -> Option<Outcome<Ended>> {
        let (ended, winner) = self.now.ended?;
        let verdict = match winner {
            Some(Winner::Side(s)) => Verdict::Won(Seats::one(usize::from(s))),
            Some(Winner::Draw) => Verdict::Draw,
            None => Verdict::NoResult,
        };
        Some(Outcome {
            verdict,
            ended,
            turns: self.now.turn,
        })
    }

    fn turns(&self) -> u32 {
        self.now.turn
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
        let [a, b] = scores(&self.now);
        [a, b, 0.0, 0.0]
    }
}

impl<'s> IconicaGame<'s> {
    /// From a turn's start, the engine's fast path: one pass through the turns with the
    /// agents asked at each decision (`first` and `random` from the number of options alone).
    pub(crate) fn play_fast<D: Dice>(
        &mut self,
        dice: &mut D,
        agents: &mut [Agent<IconicaEval>],
        log: Option<&mut Vec<Event>>,
    ) {
        if self.need == Need::Done {
            return;
        }
        if !self.inputs.is_empty() || agents.len() != 2 {
            return play_nodes(self, dice, agents, log);
        }
        let mut st = self.turn_start;
        let mut table = Table::seating(&mut *dice, agents);
        match log {
            Some(log) => super::play_match(self.setup, &mut st, &mut table, log),
            None => super::play_match(self.setup, &mut st, &mut table, &mut NoLog),
        }
        // The match is over (the turn engine plays until it ends).
        self.turn_start = st;
        self.now = st;
        self.mark = (st, Resume::Start, 0);
        self.inputs.clear();
        self.need = Need::Done;
    }
}

fn scores(st: &State) -> [f64; 2] {
    match st.ended.and_then(|e| e.1) {
        Some(Winner::Side(0)) => [1.0, 0.0],
        Some(Winner::Side(_)) => [0.0, 1.0],
        _ => [0.5, 0.5],
    }
}
