//! Iconoclasm as a [`Game`] ([`IconoclasmGame`]):
//! seats place cards; solo, the next card is a chance event (a [`Chance::Pick`] among the
//! cards still in the deck, in card order), which [`Pile`] answers from the dealt draw pile.

use std::cell::OnceCell;
use std::sync::Arc;

use serde_json::Value;

use super::events::{Event, Log, NoLog};
use super::outcomes::CountTable;
use super::scoring::winner;
use super::setup::{CARDS, Setup};
use super::state::{Move, State};
use crate::games::dice::Dice;
use crate::games::game::{Chance, Ending, Game, Outcome, Seats, Turn, Verdict};

/// How an Iconoclasm game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum IconoclasmEnding {
    /// Every card was placed.
    AllPlaced,
    /// Play stopped before (no legal move, or the draws ran out).
    Incomplete,
}

impl Ending for IconoclasmEnding {
    const ALL: &'static [IconoclasmEnding] =
        &[IconoclasmEnding::AllPlaced, IconoclasmEnding::Incomplete];
    fn name(self) -> &'static str {
        match self {
            IconoclasmEnding::AllPlaced => "all_placed",
            IconoclasmEnding::Incomplete => "incomplete",
        }
    }
}

/// A position of a game: the state, how many legal moves it has, the moves themselves (in
/// the documented order) once something asks for them, and the setup it was dealt from.
/// Random play never lists the moves: it counts them and takes the one it picked
/// ([`State::move_counts_in`], by card, and [`State::nth_move_in`], which tries only the
/// picked move's card at the picked move's position), each card's number of moves at a
/// position read from the clash table's [`CountTable`].
#[derive(Debug, Clone)]
pub struct IconoclasmGame<'s> {
    pub setup: &'s Setup,
    pub st: State,
    /// How many legal moves `st` has.
    options: u16,
    /// How many of them each card has ([`State::move_counts`]).
    counts: [u16; CARDS],
    /// The numbers of moves of a card at a position under `st`'s clash table (`None`: past
    /// [`CountTable::of`]'s bound, worked out each time).
    table: Option<&'static CountTable>,
    /// `st`'s legal moves, listed when first asked for.
    moves: OnceCell<Arc<[Move]>>,
    /// Play stopped early (the draws ran out).
    stopped: bool,
}

impl<'s> IconoclasmGame<'s> {
    /// The opening position of a deal, logging the deal.
    pub fn start(setup: &'s Setup, log: &mut impl Log) -> IconoclasmGame<'s> {
        IconoclasmGame::at(setup, State::new(setup, log))
    }

    /// The game at a position `st` of `setup`.
    pub fn at(setup: &'s Setup, st: State) -> IconoclasmGame<'s> {
        let table = CountTable::of(&st.clashes());
        let counts = st.move_counts_in(table);
        IconoclasmGame {
            setup,
            st,
            options: counts.iter().sum(),
            counts,
            table,
            moves: OnceCell::new(),
            stopped: false,
        }
    }

    /// The legal moves, in the documented order (the options of a decision).
    pub fn moves(&self) -> &[Move] {
        self.moves.get_or_init(|| self.st.moves().into())
    }

    /// Legal move `k`, from the list if it was made, else found without making it.
    fn nth_move(&self, k: usize) -> Option<Move> {
        match self.moves.get() {
            Some(all) => all.get(k).copied(),
            None => self.st.nth_move_in(self.table, &self.counts, k),
        }
    }

    /// The option greedy takes here ([`super::eval::greedy_choice`]: the first of the best
    /// values, found without listing the moves); `None` where that path does not serve (solo,
    /// no clash table memo, a draw or the end), and greedy lists and values the moves.
    pub fn greedy_choice(&self) -> Option<usize> {
        if self.over() {
            return None;
        }
        super::eval::greedy_choice(&self.st, self.table?)
    }

    fn over(&self) -> bool {
        self.stopped || self.st.is_over() || (!self.st.needs_draw() && self.options == 0)
    }

    fn step(&mut self, action: usize, log: &mut impl Log) {
        if self.over() {
            return;
        }
        if self.st.needs_draw() {
            if let Some(card) = self.st.deck().nth(action) {
                self.st.draw(card, log);
            }
        } else if let Some(mv) = self.nth_move(action) {
            // A move this state listed or found is legal here: made without a second check.
            self.st.play(&mv, log);
        }
        self.counts = self.st.move_counts_in(self.table);
        self.options = self.counts.iter().sum();
        self.moves = OnceCell::new();
        if self.over() {
            log.push(Event::End {
                winner: winner(&self.st),
            });
        }
    }
}

impl<'s> Game for IconoclasmGame<'s> {
    type Ending = IconoclasmEnding;
    type Event = Event;
    const NAME: &'static str = "iconoclasm";

    fn seats(&self) -> usize {
        usize::from(self.st.players)
    }

    fn turn(&self) -> Turn {
        if self.over() {
            Turn::Over
        } else if self.st.needs_draw() {
            Turn::Chance(Chance::Pick(self.st.undrawn.count_ones() as u8))
        } else {
            Turn::Seat {
                seat: usize::from(self.st.to_move),
                options: usize::from(self.options),
            }
        }
    }

    /// Solo, the next card of the dealt draw pile (the first still in the deck), as its index
    /// among the cards still in the deck (as [`Pile`] answers).
    fn dealt(&self, _c: Chance) -> Option<usize> {
        let deck: Vec<u8> = self.st.deck().collect();
        self.setup
            .draw_pile
            .iter()
            .find_map(|c| deck.iter().position(|d| d == c))
    }

    /// Nothing to re-draw: with players, every card is dealt face up (rulings, "What each
    /// seat sees"); solo, the draw pile's order lies in the setup, read only by
    /// [`Game::dealt`] (which a session's chance asks, never a policy): the position leaves
    /// the next card a chance event (a pick among the cards still in the deck), so a search
    /// from it already draws the future pile afresh and reads no card not yet drawn.
    fn determinize(&self, _seat: usize, _rng: &mut rand_chacha::ChaCha8Rng) -> Option<Self> {
        None
    }

    fn apply(&mut self, action: usize) {
        self.step(action, &mut NoLog);
    }

    fn apply_logged(&mut self, action: usize, log: &mut Vec<Event>) {
        self.step(action, log);
    }

    fn exhausted(&mut self, log: &mut Vec<Event>) {
        if !self.over() {
            self.stopped = true;
            log.push(Event::End {
                winner: winner(&self.st),
            });
        }
    }

    fn outcome(&self) -> Option<Outcome<IconoclasmEnding>> {
        if !self.over() {
            return None;
        }
        let verdict = match winner(&self.st) {
            Some(w) if self.st.is_over() || self.st.goal.is_some() => {
                Verdict::Won(Seats::one(usize::from(w)))
            }
            _ if self.st.players > 1 && self.st.is_over() => Verdict::Draw,
            _ => Verdict::NoResult,
        };
        let ended = if self.st.is_over() {
            IconoclasmEnding::AllPlaced
        } else {
            IconoclasmEnding::Incomplete
        };
        Some(Outcome {
            verdict,
            ended,
            turns: u32::from(self.st.turn),
        })
    }

    fn turns(&self) -> u32 {
        u32::from(self.st.turn)
    }

    fn fingerprint(&self) -> u64 {
        // The grid, the hands, the draw pile and who moves; not the turn count.
        let mut st = self.st;
        st.turn = 0;
        crate::games::game::fingerprint_of(&(st, self.stopped))
    }

    fn question(&self) -> String {
        format!(
            "Player {}: which card, where, and which face up?",
            self.st.to_move + 1
        )
    }

    fn describe(&self, action: usize) -> String {
        let Some(mv) = self.moves().get(action) else {
            return format!("option {}", action + 1);
        };
        let card = &self.setup.deck.cards[usize::from(mv.card)];
        let face = self.st.face(mv.card, mv.side);
        let order = if mv.order().len() > 1 {
            let o: Vec<String> = mv
                .order()
                .iter()
                .map(|p| format!("({}, {})", p.row, p.col))
                .collect();
            format!(", clashes in order {}", o.join(" "))
        } else {
            String::new()
        };
        format!(
            "{} {} up at ({}, {}){}",
            card.name,
            face.name(),
            mv.pos.row,
            mv.pos.col,
            order
        )
    }

    fn event_text(&self, e: &Event) -> String {
        e.text(self.setup)
    }

    fn event_json(&self, e: &Event) -> Value {
        e.to_json(self.setup)
    }
}

/// The dealt draw pile as a chance source: each solo draw is the pile's next card, given as
/// its index among the cards still in the deck (a game with players draws nothing).
#[derive(Debug, Clone)]
pub struct Pile {
    cards: Vec<u8>,
    pos: usize,
    undrawn: u16,
}

impl Pile {
    pub fn new(setup: &Setup) -> Pile {
        Pile {
            cards: setup.draw_pile.clone(),
            pos: 0,
            undrawn: setup.draw_pile.iter().fold(0, |m, c| m | 1 << c),
        }
    }
}

impl Dice for Pile {
    fn die(&mut self) -> Option<u8> {
        None
    }
    fn pick(&mut self, n: u8) -> Option<u8> {
        let card = *self.cards.get(self.pos)?;
        self.pos += 1;
        let below = (self.undrawn & ((1u16 << card) - 1)).count_ones() as u8;
        self.undrawn &= !(1 << card);
        (below < n).then_some(below)
    }
}

/// The seats' search view helper: the options at `g` worth searching, best first.
pub(crate) fn search_moves(g: &IconoclasmGame<'_>, width: usize, out: &mut Vec<usize>) {
    out.clear();
    out.extend(
        super::eval::best_moves(&g.st, g.moves(), width)
            .into_iter()
            .map(|(i, _)| i),
    );
}

/// Moves the search considers at each decision: greedy's best.
pub const SEARCH_WIDTH: usize = 8;
