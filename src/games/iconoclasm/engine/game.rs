//! Playing a whole game ([`play_match`]) and the two-sided search view of a position
//! ([`SearchView`], the [`GameState`] the generic MCTS of `games::ai` runs on).

use rand::RngExt;
use rand_chacha::ChaCha8Rng;

use super::events::{Event, Log, NoLog};
use super::scoring::{goal_met, goal_progress, winner};
use super::setup::Setup;
use super::state::{bits, Move, State};
use crate::games::{GameState, Node};

/// Plays a game to its end: `choose(seat, state, moves)` picks an option index for the player
/// to move (an index past the end counts as the last option); solo, cards are drawn from the
/// setup's shuffled deck. Ends with [`Event::End`].
pub fn play_match(
    setup: &Setup,
    choose: &mut dyn FnMut(u8, &State, &[Move]) -> usize,
    log: &mut impl Log,
) -> State {
    let mut st = State::new(setup, log);
    let mut pile = setup.draw_pile.iter();
    while !st.is_over() {
        if st.needs_draw() {
            match pile.next() {
                Some(&card) => st.draw(card, log),
                None => break,
            }
            continue;
        }
        let moves = st.moves();
        if moves.is_empty() {
            break;
        }
        let i = choose(st.to_move, &st, &moves).min(moves.len() - 1);
        if st.apply(&moves[i], log).is_err() {
            break;
        }
    }
    log.push(Event::End { winner: winner(&st) });
    st
}

/// A position seen by one player (`me`) for search: `me` is side 0 and every other player
/// side 1 (the paranoid reduction: with 3 or 4 players the others are taken to play
/// together against `me`). Solo, the next card of the deck is a chance event over the cards
/// not yet drawn, so the search does not know the deck order. Returns: 1 for a win of `me`,
/// else 0; solo, 1 for a met goal, else half the progress towards it.
#[derive(Debug, Clone)]
pub struct SearchView {
    pub st: State,
    pub me: u8,
    moves: Vec<Move>,
}

impl SearchView {
    pub fn new(st: State, me: u8) -> SearchView {
        let moves = st.moves();
        SearchView { st, me, moves }
    }

    /// The view when the legal moves of `st` are already known.
    pub fn with_moves(st: State, me: u8, moves: Vec<Move>) -> SearchView {
        SearchView { st, me, moves }
    }

    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    fn value(&self) -> f64 {
        match self.st.goal {
            Some(g) if goal_met(&self.st, g) => 1.0,
            Some(g) => 0.5 * goal_progress(&self.st, g),
            None => f64::from(u8::from(winner(&self.st) == Some(self.me))),
        }
    }
}

impl GameState for SearchView {
    fn node(&self) -> Node {
        if self.st.is_over() || (self.moves.is_empty() && !self.st.needs_draw()) {
            Node::Terminal
        } else if self.st.needs_draw() {
            Node::Chance(self.st.undrawn.count_ones() as usize)
        } else {
            Node::Decision { player: usize::from(self.st.to_move != self.me), actions: self.moves.len() }
        }
    }

    fn apply(&mut self, action: usize) {
        if self.st.needs_draw() {
            if let Some(card) = self.st.deck().nth(action) {
                self.st.draw(card, &mut NoLog);
            }
        } else if let Some(mv) = self.moves.get(action).copied() {
            let _ = self.st.apply(&mv, &mut NoLog);
        }
        self.moves = self.st.moves();
    }

    fn returns(&self) -> [f64; 2] {
        let v = self.value();
        [v, 1.0 - v]
    }

    fn rollout(&mut self, rng: &mut ChaCha8Rng) -> [f64; 2] {
        while !self.st.is_over() {
            if self.st.needs_draw() {
                let n = self.st.undrawn.count_ones() as usize;
                let k = rng.random_range(0..n);
                if let Some(card) = bits(self.st.undrawn).nth(k) {
                    self.st.draw(card, &mut NoLog);
                }
                continue;
            }
            let Some(mv) = self.st.random_move(rng) else { break };
            if self.st.apply(&mv, &mut NoLog).is_err() {
                break;
            }
        }
        self.moves.clear();
        self.returns()
    }
}
