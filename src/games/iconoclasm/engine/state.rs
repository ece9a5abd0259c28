//! The game state (a `Copy` value), the legal moves and how a move is applied: placement,
//! then the clashes in the order the placing player chose.

use rand::seq::SliceRandom;
use rand::{Rng, RngExt};
use thiserror::Error;

use super::clash::Clashes;
use super::events::{Event, Log};
use super::grid::{Grid, MAX_OPEN, Placed, Pos, REACH, SIDE, Side};
use super::outcomes::{CountTable, Near, PAIRS, code, count_outcomes, each_outcome, pair};
use super::setup::{CARDS, Goal, Setup};
use crate::games::iconoclasm::model::{Clash, Element};

/// A move: a card from the hand, the face put up, where it goes, and the order in which it
/// clashes with its neighbours (every occupied neighbour exactly once).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move {
    pub card: u8,
    pub side: Side,
    pub pos: Pos,
    order: [Pos; 4],
    len: u8,
}

impl Move {
    /// A move whose clash order is `order` (at most 4 positions; more are ignored).
    pub fn new(card: u8, side: Side, pos: Pos, order: &[Pos]) -> Move {
        let mut o = [Pos::ORIGIN; 4];
        let len = order.len().min(4);
        o[..len].copy_from_slice(&order[..len]);
        Move {
            card,
            side,
            pos,
            order: o,
            len: len as u8,
        }
    }

    /// The move of `card` put down `side` up at `pos`, clashing with the neighbours of `n`
    /// in the order `perm` (their indices in `n`).
    fn at(card: u8, side: Side, pos: Pos, n: &Near, perm: &[usize]) -> Move {
        let mut order = [Pos::ORIGIN; 4];
        for (o, &i) in order.iter_mut().zip(perm) {
            *o = n.pos[i];
        }
        Move {
            card,
            side,
            pos,
            order,
            len: n.len,
        }
    }

    /// The neighbours in clash order.
    pub fn order(&self) -> &[Pos] {
        &self.order[..self.len as usize]
    }
}

/// Why a move cannot be made.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum IllegalMove {
    #[error("the game is over")]
    Over,
    #[error("a card must be drawn first")]
    MustDraw,
    #[error("card {0} is not in the hand of the player to move")]
    NotInHand(u8),
    #[error("{0} is not beside a card, is taken, or would make the grid wider or taller than 7")]
    Position(Pos),
    #[error("the clash order must list every neighbour of the new card exactly once")]
    Order,
}

/// A position of the game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct State {
    pub grid: Grid,
    faces: [[Element; 2]; CARDS],
    clashes: Clashes,
    pub players: u8,
    /// Each player's cards in hand (bit `i` = card `i`).
    pub hands: [u16; 4],
    /// Solo: the cards still in the deck (their order is not part of the state).
    pub undrawn: u16,
    /// The seat (from 0) to play.
    pub to_move: u8,
    /// Placements made by players so far.
    pub turn: u16,
    pub owner: [Option<u8>; 4],
    pub order: [u8; 4],
    pub goal: Option<Goal>,
}

impl State {
    /// The opening position: hands dealt, and (3 players) the undrawn single on the table.
    pub fn new(setup: &Setup, log: &mut impl Log) -> State {
        let mut st = State {
            grid: Grid::default(),
            faces: setup.deck.faces(),
            clashes: setup.clashes,
            players: setup.players,
            hands: setup.hands,
            undrawn: if setup.players == 1 { u16::MAX } else { 0 },
            to_move: 0,
            turn: 0,
            owner: setup.owner,
            order: setup.order,
            goal: setup.goal,
        };
        if log.keeps() && setup.players > 1 {
            for p in 0..setup.players {
                let cards = bits(setup.hands[p as usize]).collect();
                log.push(Event::Deal {
                    player: p,
                    elements: setup.elements_of(p),
                    cards,
                });
            }
        }
        if let Some(card) = setup.table_card {
            st.grid.put(
                Pos::ORIGIN,
                Placed {
                    card,
                    up: Side::Front,
                },
            );
            log.push(Event::TableCard { card });
        }
        st
    }

    /// Lays cards on the table as they are, without clashes (scenarios and tools). Each must go
    /// on a legal position; it leaves the hand or deck it was in.
    pub fn with_table(mut self, cards: &[(u8, Side, Pos)]) -> Result<State, IllegalMove> {
        for &(card, side, pos) in cards {
            if card as usize >= CARDS || self.grid.cards().any(|(_, c)| c.card == card) {
                return Err(IllegalMove::NotInHand(card));
            }
            if !self.grid.can_place(pos) {
                return Err(IllegalMove::Position(pos));
            }
            for h in &mut self.hands {
                *h &= !(1 << card);
            }
            self.undrawn &= !(1 << card);
            self.grid.put(pos, Placed { card, up: side });
        }
        Ok(self)
    }

    /// The clash table the game is played with.
    pub fn clashes(&self) -> Clashes {
        self.clashes
    }

    /// The element a card shows with `side` up.
    pub fn face(&self, card: u8, side: Side) -> Element {
        self.faces[card as usize][side as usize]
    }

    /// The element showing at `p`, if a card is there.
    pub fn element_at(&self, p: Pos) -> Option<Element> {
        self.grid.get(p).map(|c| self.face(c.card, c.up))
    }

    /// All cards are on the table.
    pub fn is_over(&self) -> bool {
        self.grid.count() == CARDS
    }

    /// Solo: the hand is empty and a card must be drawn before the next move.
    pub fn needs_draw(&self) -> bool {
        self.players == 1 && self.hands[0] == 0 && self.undrawn != 0
    }

    /// Solo: draws `card` from the deck into the hand (nothing if it is not in the deck).
    pub fn draw(&mut self, card: u8, log: &mut impl Log) {
        if self.undrawn & (1 << card) != 0 {
            self.undrawn &= !(1 << card);
            self.hands[0] |= 1 << card;
            log.push(Event::Draw { card });
        }
    }

    /// The cards still in the solo deck, in card order.
    pub fn deck(&self) -> impl Iterator<Item = u8> + use<> {
        bits(self.undrawn)
    }

    /// A card's two faces (front, back).
    pub(super) fn faces_of(&self, card: u8) -> [Element; 2] {
        self.faces[usize::from(card) % CARDS]
    }

    fn sides(&self, card: u8) -> &'static [Side] {
        super::outcomes::sides(self.faces[card as usize])
    }

    /// The free positions, row by row, and each one's occupied neighbours: the first `n` of
    /// each array.
    fn nears(&self) -> ([Pos; MAX_OPEN], [Near; MAX_OPEN], usize) {
        let (positions, count) = self.grid.legal_position_array();
        let mut near = [Near::EMPTY; MAX_OPEN];
        for (n, &pos) in near.iter_mut().zip(&positions[..count]) {
            *n = self.near(pos);
        }
        (positions, near, count)
    }

    /// The occupied neighbours of `pos` (north, east, south, west), the element each shows
    /// and whether a flip would change it: the same for every card tried there.
    pub(super) fn near(&self, pos: Pos) -> Near {
        let mut n = Near::EMPTY;
        for (dir, q) in pos.around().into_iter().enumerate() {
            let Some(c) = self.grid.get(q) else { continue };
            let theirs = self.face(c.card, c.up);
            n.push(dir, q, theirs, self.face(c.card, c.up.flipped()) != theirs);
        }
        n
    }

    /// What each cell shows as [`code`] (0: empty), on the grid's array with a border of one
    /// empty cell all round ([`PAD`] across): a free cell's [`Near::sig`] is four reads of it
    /// ([`sig_at`]).
    pub(super) fn shown(&self) -> [u8; PAD * PAD] {
        let mut out = [0u8; PAD * PAD];
        for (r, &row) in self.grid.occupied_rows().iter().enumerate() {
            let mut left = row;
            while left != 0 {
                let c = left.trailing_zeros() as usize;
                left &= left - 1;
                if let (Some(p), Some(cell)) =
                    (self.grid.at_cell(r, c), out.get_mut((r + 1) * PAD + c + 1))
                {
                    let f = self.faces[usize::from(p.card) % CARDS];
                    let theirs = f[p.up as usize];
                    *cell = code(theirs, f[p.up.flipped() as usize] != theirs);
                }
            }
        }
        out
    }

    /// Each card's number of moves ([`State::move_counts`]) read from `table`: the free
    /// positions off the grid's row bits, each one's neighbour list off [`State::shown`],
    /// the numbers of every face pair there added up at once, then each card's pair read.
    fn move_counts_read(&self, table: &CountTable) -> [u16; CARDS] {
        let mut n = [0u16; CARDS];
        let shown = self.shown();
        let mut sums = [0u16; PAIRS];
        for (r, &row) in self.grid.free_rows().iter().enumerate() {
            let mut left = row;
            while left != 0 {
                let c = left.trailing_zeros() as usize;
                left &= left - 1;
                let counts = &table.row(sig_at(&shown, r, c)).counts;
                for (s, k) in sums.iter_mut().zip(counts) {
                    *s += u16::from(*k);
                }
            }
        }
        for card in bits(self.hands[self.to_move as usize]) {
            n[usize::from(card)] = sums[pair(self.faces[usize::from(card)])];
        }
        n
    }

    /// Every legal move of the player to move, in the documented order: cards in card order,
    /// positions row by row from the top and left to right, the front face before the back,
    /// clash orders in lexicographic order of the neighbours listed north, east, south, west.
    /// Moves of one card at one position that end with the same elements showing are kept
    /// once (the first in that order).
    pub fn moves(&self) -> Vec<Move> {
        let mut out = Vec::new();
        self.each_move(|mv| {
            out.push(mv);
            true
        });
        out
    }

    /// How many legal moves [`State::moves`] lists (without listing them).
    pub fn move_count(&self) -> usize {
        let mut n = 0;
        self.each_move(|_| {
            n += 1;
            true
        });
        n
    }

    /// Move `k` of [`State::moves`] (without listing the others), if there are that many.
    pub fn nth_move(&self, k: usize) -> Option<Move> {
        let mut left = k;
        let mut found = None;
        self.each_move(|mv| {
            if left == 0 {
                found = Some(mv);
                false
            } else {
                left -= 1;
                true
            }
        });
        found
    }

    /// How many legal moves each card of the hand has (by card; 0 for a card not in the
    /// hand): what [`State::nth_move_by`] needs to skip the cards before the move it finds.
    pub fn move_counts(&self) -> [u16; CARDS] {
        self.move_counts_in(None)
    }

    /// [`State::move_counts`], each card's number at each position read from `table` (which
    /// must be for this state's clash table) when given, else worked out.
    pub fn move_counts_in(&self, table: Option<&CountTable>) -> [u16; CARDS] {
        let mut n = [0u16; CARDS];
        if self.is_over() || self.needs_draw() {
            return n;
        }
        if let Some(t) = table {
            return self.move_counts_read(t);
        }
        let (_, near, count) = self.nears();
        for card in bits(self.hands[self.to_move as usize]) {
            let faces = self.faces[usize::from(card)];
            n[usize::from(card)] = near[..count]
                .iter()
                .map(|at| u16::from(self.count_at(table, faces, at)))
                .sum();
        }
        n
    }

    /// The distinct outcomes of a card with `faces` at `at`: from `table` or worked out.
    #[inline]
    fn count_at(&self, table: Option<&CountTable>, faces: [Element; 2], at: &Near) -> u8 {
        match table {
            Some(t) => t.count(faces, at),
            None => count_outcomes(&self.clashes, faces, at),
        }
    }

    /// [`State::nth_move`] given [`State::move_counts`] of this state: only the moves of the
    /// card that holds move `k` are tried.
    pub fn nth_move_by(&self, counts: &[u16; CARDS], k: usize) -> Option<Move> {
        self.nth_move_in(None, counts, k)
    }

    /// [`State::nth_move_by`], the numbers of the picked card's outcomes at each position
    /// read from `table` (for this state's clash table) when given: only the position that
    /// holds move `k` is tried.
    pub fn nth_move_in(
        &self,
        table: Option<&CountTable>,
        counts: &[u16; CARDS],
        k: usize,
    ) -> Option<Move> {
        if self.is_over() || self.needs_draw() {
            return None;
        }
        let mut left = k;
        let card = bits(self.hands[self.to_move as usize]).find(|&card| {
            let n = usize::from(counts[usize::from(card)]);
            if left < n {
                true
            } else {
                left -= n;
                false
            }
        })?;
        let faces = self.faces[usize::from(card)];
        if let Some(t) = table {
            // The position that holds move `k`, off the grid's row bits and the table.
            let shown = self.shown();
            let p = pair(faces);
            for (r, &row) in self.grid.free_rows().iter().enumerate() {
                let mut free = row;
                while free != 0 {
                    let c = free.trailing_zeros() as usize;
                    free &= free - 1;
                    let n = usize::from(t.row(sig_at(&shown, r, c)).counts[p]);
                    if left >= n {
                        left -= n;
                        continue;
                    }
                    let pos = Pos::new(r as i8 - REACH, c as i8 - REACH);
                    let at = self.near(pos);
                    let (side, perm) = t.row(sig_at(&shown, r, c)).way(p, left)?;
                    return Some(Move::at(card, side, pos, &at, &perm[..usize::from(at.len)]));
                }
            }
            return None;
        }
        let (positions, near, count) = self.nears();
        for (&pos, at) in positions[..count].iter().zip(&near) {
            let n = usize::from(self.count_at(table, faces, at));
            if left >= n {
                left -= n;
                continue;
            }
            let mut found = None;
            each_outcome(&self.clashes, faces, at, |side, perm| {
                if left == 0 {
                    found = Some(Move::at(card, side, pos, at, perm));
                    false
                } else {
                    left -= 1;
                    true
                }
            });
            return found;
        }
        None
    }

    /// Gives `f` each legal move in [`State::moves`]' order until it returns false.
    fn each_move(&self, f: impl FnMut(Move) -> bool) {
        self.each_move_of(u16::MAX, f)
    }

    /// [`State::each_move`] for the cards of the hand in `cards` alone. Allocates nothing:
    /// the positions and each position's neighbours live in fixed arrays, the clash orders
    /// tried are permutations of at most four, and the outcomes already seen at a position
    /// are bits of a `u64` (an outcome key is below 64).
    fn each_move_of(&self, cards: u16, mut f: impl FnMut(Move) -> bool) {
        if self.is_over() || self.needs_draw() {
            return;
        }
        let (positions, near, count) = self.nears();
        for card in bits(self.hands[self.to_move as usize] & cards) {
            let faces = self.faces[usize::from(card)];
            for (&pos, n) in positions[..count].iter().zip(&near) {
                let more = each_outcome(&self.clashes, faces, n, |side, perm| {
                    f(Move::at(card, side, pos, n, perm))
                });
                if !more {
                    return;
                }
            }
        }
    }

    /// A uniformly drawn card, position, face and clash order (rollouts; not deduplicated).
    pub fn random_move<R: Rng + ?Sized>(&self, rng: &mut R) -> Option<Move> {
        if self.is_over() || self.needs_draw() {
            return None;
        }
        let hand: Vec<u8> = bits(self.hands[self.to_move as usize]).collect();
        let card = *hand.get(rng.random_range(0..hand.len().max(1)))?;
        let positions = self.grid.legal_positions();
        let pos = *positions.get(rng.random_range(0..positions.len().max(1)))?;
        let sides = self.sides(card);
        let side = sides[rng.random_range(0..sides.len())];
        let mut order: Vec<Pos> = self.grid.neighbours(pos).collect();
        order.shuffle(rng);
        Some(Move::new(card, side, pos, &order))
    }

    /// Checks a move without making it.
    pub fn check(&self, mv: &Move) -> Result<(), IllegalMove> {
        if self.is_over() {
            return Err(IllegalMove::Over);
        }
        if self.needs_draw() {
            return Err(IllegalMove::MustDraw);
        }
        if mv.card as usize >= CARDS || self.hands[self.to_move as usize] & (1 << mv.card) == 0 {
            return Err(IllegalMove::NotInHand(mv.card));
        }
        if !self.grid.can_place(mv.pos) {
            return Err(IllegalMove::Position(mv.pos));
        }
        // The order must be the occupied neighbours, each once: as many, and each of them
        // listed (the neighbours are distinct, so none is then listed twice).
        let got = mv.order();
        let mut want = 0usize;
        for q in self.grid.neighbours(mv.pos) {
            want += 1;
            if !got.contains(&q) {
                return Err(IllegalMove::Order);
            }
        }
        if want != got.len() {
            return Err(IllegalMove::Order);
        }
        Ok(())
    }

    /// Makes a move: the card goes down with the chosen face up, then clashes with each
    /// neighbour in the chosen order. A flipped new card clashes on with its new face; a
    /// flipped neighbour starts no clash. The turn passes to the next player.
    pub fn apply(&mut self, mv: &Move, log: &mut impl Log) -> Result<(), IllegalMove> {
        self.check(mv)?;
        self.play(mv, log);
        Ok(())
    }

    /// [`State::apply`] of a move known to be legal here (one this state listed or found:
    /// [`State::moves`], [`State::nth_move_in`]), without checking it again.
    pub(super) fn play(&mut self, mv: &Move, log: &mut impl Log) {
        let player = self.to_move;
        self.hands[player as usize] &= !(1 << mv.card);
        self.turn += 1;
        self.grid.put(
            mv.pos,
            Placed {
                card: mv.card,
                up: mv.side,
            },
        );
        log.push(Event::Place {
            turn: self.turn,
            player,
            card: mv.card,
            side: mv.side,
            face: self.face(mv.card, mv.side),
            pos: mv.pos,
        });
        for &p in mv.order() {
            let (Some(mine), Some(theirs), Some(them)) = (
                self.element_at(mv.pos),
                self.element_at(p),
                self.grid.get(p),
            ) else {
                continue;
            };
            let result = self.clashes.get(mine, theirs);
            log.push(Event::Clash {
                pos: p,
                card: them.card,
                mine,
                theirs,
                result,
            });
            if matches!(result, Clash::FlipsOther | Clash::Mutual) {
                self.flip(p, log);
            }
            if matches!(result, Clash::FlipsSelf | Clash::Mutual) {
                self.flip(mv.pos, log);
            }
        }
        if self.players > 1 {
            self.to_move = (self.to_move + 1) % self.players;
        }
    }

    fn flip(&mut self, p: Pos, log: &mut impl Log) {
        let (Some(c), Some(from)) = (self.grid.get(p), self.element_at(p)) else {
            return;
        };
        self.grid.flip(p);
        let to = self.face(c.card, c.up.flipped());
        log.push(Event::Flip {
            card: c.card,
            pos: p,
            from,
            to,
        });
    }
}

/// Cells across [`State::shown`]'s array: the grid's and a border of one each side.
pub(super) const PAD: usize = SIDE + 2;

/// The [`Near::sig`] of the free cell at row `r`, column `c` of the grid's array, from
/// [`State::shown`]: what its north, east, south and west sides show.
#[inline]
pub(super) fn sig_at(shown: &[u8; PAD * PAD], r: usize, c: usize) -> u16 {
    let i = (r + 1) * PAD + c + 1;
    let at = |j: usize| u16::from(shown.get(j).copied().unwrap_or(0));
    at(i - PAD) + 9 * at(i + 1) + 81 * at(i + PAD) + 729 * at(i - 1)
}

/// The set bits of a mask, lowest first.
pub fn bits(mask: u16) -> impl Iterator<Item = u8> {
    (0..16u8).filter(move |i| mask & (1 << i) != 0)
}
