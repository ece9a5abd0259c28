//! The one game interface every engine speaks, in the spirit of OpenSpiel's `State`: whose
//! turn it is (a seat, or chance), the legal decisions (option indices `0..n` in the game's
//! documented `first` order, each with words a person can read), applying a decision or a
//! chance outcome, and a typed [`Outcome`] (winner seats or a draw, how it ended, turns).
//!
//! Chance outcomes are never drawn by a game: a whole match played by policies
//! ([`super::ai::Evaluated::play_out`]) and the faces that step a match take them from a [`Dice`] source handed in (seeded or scripted), so a seed or a dice
//! script replays a match exactly. Policies ([`super::ai`]), the sim runner (`crate::sim`),
//! the command line and the app's Match screen use only this trait. A game's evaluation
//! ([`super::ai::Evaluator`]) lies beside its policies, apart from its rules: its
//! [`super::ai::Evaluated`] names it, and the rules never do.

use std::fmt::Debug;

use rand_chacha::ChaCha8Rng;
use serde_json::Value;

use super::dice::Dice;

/// The most seats a game may have (Iconoclasm: four players).
pub const MAX_SEATS: usize = 4;

/// Each seat's return at the end of a match (1 win, 0 loss; a draw shares), or a search's
/// estimate of it; seats past [`Game::seats`] are 0.
pub type Returns = [f64; MAX_SEATS];

/// A chance event: what a [`Dice`] source is asked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Chance {
    /// One die: outcome `face - 1` for faces 1 to 6.
    Die,
    /// One of `n` equally likely picks (outcome `0..n`); a dice script gives it a face
    /// (`dice::face_to_pick`).
    Pick(u8),
}

impl Chance {
    /// How many outcomes it has (each equally likely).
    pub fn outcomes(self) -> usize {
        match self {
            Chance::Die => 6,
            Chance::Pick(n) => usize::from(n.max(1)),
        }
    }

    /// Its outcome drawn from `dice`, or `None` when a script has run out.
    pub fn draw(self, dice: &mut impl Dice) -> Option<usize> {
        match self {
            Chance::Die => dice.die().map(|f| usize::from(f.clamp(1, 6) - 1)),
            Chance::Pick(n) => dice.pick(n.max(1)).map(usize::from),
        }
    }
}

/// Who acts next.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Turn {
    /// A seat (from 0) picks one of `options` (`0..options`, at least 1).
    Seat { seat: usize, options: usize },
    /// Chance picks an outcome.
    Chance(Chance),
    /// The match is over: see [`Game::outcome`].
    Over,
}

/// Seats as a bit set (bit `i` = seat `i`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Seats(pub u8);

impl Seats {
    pub fn one(seat: usize) -> Seats {
        Seats(1 << seat)
    }
    pub fn contains(self, seat: usize) -> bool {
        seat < 8 && self.0 & (1 << seat) != 0
    }
    pub fn iter(self) -> impl Iterator<Item = usize> {
        (0..8).filter(move |s| self.0 & (1 << s) != 0)
    }
    pub fn len(self) -> usize {
        self.0.count_ones() as usize
    }
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }
}

/// Who won a finished match.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Verdict {
    /// These seats won (a team's players, or one seat).
    Won(Seats),
    Draw,
    /// The match stopped with no result (a dice script ran out, or a solo goal was missed).
    NoResult,
}

/// How a match ended, per game: an enum whose every value has a stable name (the `ended` of
/// `play --json` and the endings of `sim`).
pub trait Ending: Copy + Eq + Debug + Send + Sync + 'static {
    /// Every ending, in the order reports list them.
    const ALL: &'static [Self];
    /// Its stable name (`victory`, `turn_limit`, ...).
    fn name(self) -> &'static str;
    /// Its place in [`Ending::ALL`].
    fn index(self) -> usize {
        Self::ALL.iter().position(|e| *e == self).unwrap_or(0)
    }
}

/// The result of a finished match.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Outcome<E> {
    pub verdict: Verdict,
    pub ended: E,
    /// Turns played, as the game counts them (Iconica turns, Arcadia Days, placements).
    pub turns: u32,
}

impl<E> Outcome<E> {
    /// Each seat's return: a share of 1 for the winners, 0 for the others; a draw or no
    /// result shares evenly.
    pub fn returns(&self, seats: usize) -> Returns {
        let mut r = [0.0; MAX_SEATS];
        let seats = seats.min(MAX_SEATS);
        match self.verdict {
            Verdict::Won(w) if !w.is_empty() => {
                for s in w.iter().filter(|s| *s < seats) {
                    r[s] = 1.0 / w.len() as f64;
                }
            }
            _ => r[..seats].fill(1.0 / seats.max(1) as f64),
        }
        r
    }
}

/// A log entry that not every seat may see whole: the seats it belongs to see it as it is,
/// every other seat and every spectator is told it with the hidden facts left out
/// ([`Game::hidden`]).
#[derive(Debug, Clone, PartialEq)]
pub struct Hidden {
    /// The seats that see the entry whole.
    pub seen_by: Seats,
    /// The entry's sentence with the hidden facts left out.
    pub text: String,
    /// The entry's JSON (`type`, `text` and the fields that are not hidden).
    pub json: Value,
}

impl Hidden {
    /// Whether `seat` (`None`: a spectator) sees the entry whole.
    pub fn seen(&self, seat: Option<usize>) -> bool {
        seat.is_some_and(|s| self.seen_by.contains(s))
    }
}

/// A match position of one game.
pub trait Game: Clone {
    /// How its matches end.
    type Ending: Ending;
    /// One entry of its event log.
    type Event: Clone + Debug + PartialEq;
    /// Its name on the command line (`iconica`, `arcadia`, ...).
    const NAME: &'static str;

    /// How many seats play.
    fn seats(&self) -> usize;
    /// Who acts next.
    fn turn(&self) -> Turn;
    /// Applies a decision (an option index) or a chance outcome.
    fn apply(&mut self, action: usize);
    /// [`Game::apply`], logging what happens.
    fn apply_logged(&mut self, action: usize, log: &mut Vec<Self::Event>);
    /// The chance source ran out (a dice script): the match stops here, logged.
    fn exhausted(&mut self, log: &mut Vec<Self::Event>);
    /// The result, once [`Turn::Over`].
    fn outcome(&self) -> Option<Outcome<Self::Ending>>;
    /// Turns played so far, as the game counts them.
    fn turns(&self) -> u32;

    /// The decision put to the seat, in words.
    fn question(&self) -> String;
    /// Option `action` of the current decision, in words.
    fn describe(&self, action: usize) -> String;
    /// One log entry as a sentence.
    fn event_text(&self, e: &Self::Event) -> String;
    /// One log entry as `play --json` prints it (`type`, `text` and its own fields).
    fn event_json(&self, e: &Self::Event) -> Value;
    /// A point on the table taken as a decision (Ruunara: the hero moving dragged to it, the
    /// member deploying dropped there): the option index it is offered as, which the
    /// position then holds for [`Game::apply`]; `None` where the game takes no point, or not
    /// this one. A record keeps such inputs as points ([`super::record::PointInput`]).
    fn offer_point(&mut self, _x: f64, _y: f64) -> Option<usize> {
        None
    }

    /// The outcome of chance `c` when the position itself fixes it (a solo Iconoclasm game
    /// draws the next card of its dealt pile): what a match session's computer's turn draws
    /// there. `None` (the default) for chance drawn from the match's stream
    /// ([`super::dice::RngDice`]).
    fn dealt(&self, _c: Chance) -> Option<usize> {
        None
    }

    /// What a log entry hides, and from whom: the seats that see it whole and the entry as
    /// the others are told it (Arcadia: where a player hid which treasure). `None`, the
    /// default: every seat and spectator sees it whole. A game's hidden facts are listed in
    /// `docs/rulings.md`; one person watching a whole match (`play`, `replay`) sees
    /// everything, a seat of a hosted match only what this lets it.
    fn hidden(&self, _e: &Self::Event) -> Option<Hidden> {
        None
    }

    /// A position as `seat` may know it: every fact hidden from `seat` (what
    /// [`Game::hidden`] keeps from it, and whatever else the position holds that the seat has
    /// not seen: a hand held, a pile's order) re-drawn from `rng`, everything the seat has
    /// seen kept (its view of the log, whose turn it is, its question and options). The
    /// result must depend only on what `seat` sees and on `rng`, never on the hidden facts
    /// themselves, so a search over it cannot read them ([`super::ai::Policy::SeatMcts`]).
    /// `None`, the default: the position hides nothing from `seat` that a policy reads.
    fn determinize(&self, _seat: usize, _rng: &mut ChaCha8Rng) -> Option<Self> {
        None
    }

    /// A cheap hash of the position as the rules see it: the board, the hands, whose
    /// decision it is and where the turn stands, but not the counters that only grow (turns,
    /// rounds, Days, dice used), so a match that comes back to a position it has been in
    /// gives the same fingerprint again (`deckwright health`'s repeated states). Equal
    /// positions give equal fingerprints; [`fingerprint_of`] hashes a value's `Debug` form.
    fn fingerprint(&self) -> u64;

    /// Whether a log entry opens a new turn (a heading in the text log).
    fn is_heading(&self, _e: &Self::Event) -> bool {
        false
    }

    /// Each seat's return (see [`Outcome::returns`]); unfinished positions share evenly.
    fn returns(&self) -> Returns {
        match self.outcome() {
            Some(o) => o.returns(self.seats()),
            None => Outcome {
                verdict: Verdict::NoResult,
                ended: (),
                turns: 0,
            }
            .returns(self.seats()),
        }
    }
}

/// A 64-bit FNV-1a hash of `x`'s `Debug` form, written straight into the hash (nothing
/// allocated): what a game's [`Game::fingerprint`] hashes its position with, its growing
/// counters set aside first. Stable within one build of the program.
pub fn fingerprint_of(x: &impl Debug) -> u64 {
    struct Fnv(u64);
    impl std::fmt::Write for Fnv {
        fn write_str(&mut self, s: &str) -> std::fmt::Result {
            for &b in s.as_bytes() {
                self.0 ^= u64::from(b);
                self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
            }
            Ok(())
        }
    }
    let mut h = Fnv(0xcbf2_9ce4_8422_2325);
    // Writing into the hash cannot fail.
    let _ = std::fmt::write(&mut h, format_args!("{x:?}"));
    h.0
}

/// Steps a match node by node, recording each input: what a face shows a person and what a
/// replay needs. `inputs` alone, applied to the same start, reproduce the match.
#[derive(Debug, Clone)]
pub struct Stepper<G: Game> {
    pub game: G,
    pub log: Vec<G::Event>,
    pub inputs: Vec<usize>,
}

impl<G: Game> Stepper<G> {
    pub fn new(game: G, log: Vec<G::Event>) -> Stepper<G> {
        Stepper {
            game,
            log,
            inputs: Vec::new(),
        }
    }

    /// Applies one input (a decision or a chance outcome), logging it.
    pub fn apply(&mut self, action: usize) {
        self.inputs.push(action);
        self.game.apply_logged(action, &mut self.log);
    }

    /// Plays chance from `dice` until a seat must decide or the match ends; `false` when the
    /// dice ran out (the match is then stopped, logged).
    pub fn roll(&mut self, dice: &mut impl Dice) -> bool {
        while let Turn::Chance(c) = self.game.turn() {
            match c.draw(dice) {
                Some(o) => self.apply(o),
                None => {
                    self.game.exhausted(&mut self.log);
                    return false;
                }
            }
        }
        true
    }
}

/// Replays recorded inputs from a start: the position after them.
pub fn replay<G: Game>(start: &G, inputs: &[usize]) -> G {
    let mut g = start.clone();
    for &a in inputs {
        g.apply(a);
    }
    g
}
