//! Playing a whole game ([`play_match`]) and the two-sided search view of a position
//! ([`SearchView`], the [`GameState`] the generic MCTS of `games::ai` runs on).

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use rand::RngExt;
use rand_chacha::ChaCha8Rng;

use super::eval::best_moves;
use super::events::{Event, Log, NoLog};
use super::scoring::{goal_met, goal_progress, player_scores, winner};
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

/// Moves the search considers at each decision: greedy's best.
pub const SEARCH_WIDTH: usize = 8;

/// A position seen by one player (`me`) for search: at every decision only the
/// [`SEARCH_WIDTH`] best moves by greedy's values are options, best first; `me` is side 0 and every other player
/// side 1 (the paranoid reduction: with 3 or 4 players the others are taken to play
/// together against `me`). Solo, the next card of the deck is a chance event over the cards
/// not yet drawn, so the search does not know the deck order. Returns (of `me`): 0.75 for a
/// win plus a quarter of the points margin over the best other player scaled to 0..=1; solo,
/// 1 for a met goal, else half the progress towards it.
#[derive(Debug, Clone)]
pub struct SearchView {
    pub st: State,
    pub me: u8,
    /// The options at `st` when already known (else looked up in, or added to, `cache`).
    moves: Option<Rc<[Move]>>,
    /// Options of positions already met in this search (shared by the clones of one search).
    cache: Rc<RefCell<HashMap<State, Rc<[Move]>>>>,
}

impl SearchView {
    pub fn new(st: State, me: u8) -> SearchView {
        SearchView { st, me, moves: None, cache: Rc::default() }
    }

    /// The view when the options at `st` are already chosen.
    pub fn with_moves(st: State, me: u8, moves: Vec<Move>) -> SearchView {
        SearchView { st, me, moves: Some(moves.into()), cache: Rc::default() }
    }

    /// The options at this position.
    pub fn moves(&self) -> Rc<[Move]> {
        if let Some(m) = &self.moves {
            return m.clone();
        }
        if let Some(m) = self.cache.borrow().get(&self.st) {
            return m.clone();
        }
        let m: Rc<[Move]> = candidates(&self.st).into();
        self.cache.borrow_mut().insert(self.st, m.clone());
        m
    }

    fn value(&self) -> f64 {
        match self.st.goal {
            Some(g) if goal_met(&self.st, g) => 1.0,
            Some(g) => 0.5 * goal_progress(&self.st, g),
            None => {
                // A win counts most; the points margin over the best other player breaks
                // the flatness of win/loss (margins lie within -10..=10).
                let scores = player_scores(&self.st);
                let mine = scores.get(self.me as usize).map_or(0, |s| i32::from(s.points));
                let best_other =
                    scores.iter().filter(|s| s.player != self.me).map(|s| i32::from(s.points)).max().unwrap_or(0);
                let win = f64::from(u8::from(winner(&self.st) == Some(self.me)));
                0.75 * win + 0.25 * (0.5 + f64::from(mine - best_other) / 20.0)
            }
        }
    }
}

/// The options of the search at `st`.
fn candidates(st: &State) -> Vec<Move> {
    let all = st.moves();
    best_moves(st, &all, SEARCH_WIDTH).into_iter().map(|(i, _)| all[i]).collect()
}

impl GameState for SearchView {
    fn node(&self) -> Node {
        if self.st.is_over() {
            Node::Terminal
        } else if self.st.needs_draw() {
            Node::Chance(self.st.undrawn.count_ones() as usize)
        } else {
            match self.moves().len() {
                0 => Node::Terminal,
                n => Node::Decision { player: usize::from(self.st.to_move != self.me), actions: n },
            }
        }
    }

    fn apply(&mut self, action: usize) {
        if self.st.needs_draw() {
            if let Some(card) = self.st.deck().nth(action) {
                self.st.draw(card, &mut NoLog);
            }
        } else if let Some(mv) = self.moves().get(action).copied() {
            let _ = self.st.apply(&mv, &mut NoLog);
        }
        self.moves = None;
    }

    fn returns(&self) -> [f64; 2] {
        let v = self.value();
        [v, 1.0 - v]
    }

    /// Solo: random play to the end. With players: the position is scored as it stands
    /// (as if the game ended now), which judges a position better than random play does.
    fn rollout(&mut self, rng: &mut ChaCha8Rng) -> [f64; 2] {
        while !self.st.is_over() && self.st.goal.is_some() {
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
        self.moves = None;
        self.returns()
    }
}
