//! The table: cards placed orthogonally beside each other, never spanning more than 7 by 7.
//!
//! Positions are relative to the first card placed, which sits at row 0, column 0; rows grow
//! downwards and columns to the right. A 7-wide grid can reach at most 6 cells from the first
//! card, so the grid is a fixed 13 x 13 array (a `Copy` value).

use serde::Serialize;

/// The most columns (and rows) the grid may span.
pub const MAX_SPAN: i8 = 7;
/// The farthest a card may lie from the first card, in rows or in columns.
pub const REACH: i8 = MAX_SPAN - 1;
/// Cells across the grid's array (and down it): the first card's and [`REACH`] each way.
pub const SIDE: usize = (2 * REACH + 1) as usize;
/// The most free positions a grid may offer (every cell of its bounds grown by one).
pub const MAX_OPEN: usize = ((MAX_SPAN + 2) * (MAX_SPAN + 2)) as usize;
/// The most cards on a grid (the whole set).
pub const MAX_CARDS: usize = 16;
/// Classes [`Grid::largest_groups`] tells apart (the four elements).
pub const GROUPS: usize = 4;

/// A cell, relative to the first card.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub struct Pos {
    pub row: i8,
    pub col: i8,
}

impl Pos {
    pub const ORIGIN: Pos = Pos { row: 0, col: 0 };

    pub fn new(row: i8, col: i8) -> Pos {
        Pos { row, col }
    }

    /// The four orthogonal neighbours in the documented order: north, east, south, west.
    pub fn around(self) -> [Pos; 4] {
        let Pos { row, col } = self;
        [
            Pos::new(row - 1, col),
            Pos::new(row, col + 1),
            Pos::new(row + 1, col),
            Pos::new(row, col - 1),
        ]
    }

    fn index(self) -> Option<usize> {
        let (r, c) = (self.row + REACH, self.col + REACH);
        ((0..SIDE as i8).contains(&r) && (0..SIDE as i8).contains(&c))
            .then(|| r as usize * SIDE + c as usize)
    }
}

impl std::fmt::Display for Pos {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "({}, {})", self.row, self.col)
    }
}

/// Which face of a card is up.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Side {
    Front,
    Back,
}

impl Side {
    pub fn flipped(self) -> Side {
        match self {
            Side::Front => Side::Back,
            Side::Back => Side::Front,
        }
    }
    pub fn name(self) -> &'static str {
        match self {
            Side::Front => "front",
            Side::Back => "back",
        }
    }
}

/// A card on the table: its index in the deck and the side that is up.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Placed {
    pub card: u8,
    pub up: Side,
}

/// The inclusive bounds of the occupied cells.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Bounds {
    pub top: i8,
    pub bottom: i8,
    pub left: i8,
    pub right: i8,
}

impl Bounds {
    pub fn width(&self) -> i8 {
        self.right - self.left + 1
    }
    pub fn height(&self) -> i8 {
        self.bottom - self.top + 1
    }
    fn with(self, p: Pos) -> Bounds {
        Bounds {
            top: self.top.min(p.row),
            bottom: self.bottom.max(p.row),
            left: self.left.min(p.col),
            right: self.right.max(p.col),
        }
    }
}

/// The placed cards.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Grid {
    cells: [Option<Placed>; SIDE * SIDE],
    /// The occupied cells, a row a number (bit `c`: column index `c` of [`Pos::index`]'s).
    occupied: [u16; SIDE],
    bounds: Option<Bounds>,
    count: u8,
}

impl Default for Grid {
    fn default() -> Self {
        Grid {
            cells: [None; SIDE * SIDE],
            occupied: [0; SIDE],
            bounds: None,
            count: 0,
        }
    }
}

impl Grid {
    pub fn get(&self, p: Pos) -> Option<Placed> {
        p.index().and_then(|i| self.cells[i])
    }

    /// Number of cards on the table.
    pub fn count(&self) -> usize {
        self.count as usize
    }

    /// Bounds of the occupied cells (`None` while the table is empty).
    pub fn bounds(&self) -> Option<Bounds> {
        self.bounds
    }

    /// Whether a card may go at `p`: the first card goes at the origin; later cards go on an
    /// empty cell orthogonally beside a card, without the grid growing past 7 by 7.
    pub fn can_place(&self, p: Pos) -> bool {
        let Some(b) = self.bounds else {
            return p == Pos::ORIGIN;
        };
        if p.index().is_none() || self.get(p).is_some() {
            return false;
        }
        let grown = b.with(p);
        grown.width() <= MAX_SPAN
            && grown.height() <= MAX_SPAN
            && p.around().iter().any(|q| self.get(*q).is_some())
    }

    /// Every legal position, row by row from the top, left to right.
    pub fn legal_positions(&self) -> Vec<Pos> {
        let (all, n) = self.legal_position_array();
        all[..n].to_vec()
    }

    /// [`Grid::legal_positions`] in a fixed array: the first `n` of it (no allocation).
    pub fn legal_position_array(&self) -> ([Pos; MAX_OPEN], usize) {
        let mut out = [Pos::ORIGIN; MAX_OPEN];
        let mut n = 0;
        for p in self.free().take(MAX_OPEN) {
            out[n] = p;
            n += 1;
        }
        (out, n)
    }

    /// The legal positions, row by row from the top, left to right, as an iterator (no
    /// allocation, nothing copied): [`Grid::free_rows`]' bits.
    pub fn free(&self) -> impl Iterator<Item = Pos> + use<> {
        let rows = self.free_rows();
        (0..SIDE).flat_map(move |r| {
            let mut left = rows[r];
            std::iter::from_fn(move || {
                (left != 0).then(|| {
                    let c = left.trailing_zeros() as i8;
                    left &= left - 1;
                    Pos::new(r as i8 - REACH, c - REACH)
                })
            })
        })
    }

    /// The legal positions as bits, a row a number (bit `c` of row `r`: the cell at row
    /// `r - 6`, column `c - 6`). Read off the occupied cells a row at a time: a free cell
    /// beside a card in a row and column the grid may still grow to; the origin alone on an
    /// empty table.
    pub fn free_rows(&self) -> [u16; SIDE] {
        let mut out = [0u16; SIDE];
        let Some(b) = self.bounds else {
            out[REACH as usize] = 1 << REACH;
            return out;
        };
        // The rows and columns the grid may span: at most 7 with the bounds, and within the
        // array (the first card is at the origin, so the bounds hold it).
        let rows = (b.top - 1).max(b.bottom - REACH).max(-REACH)
            ..=(b.bottom + 1).min(b.top + REACH).min(REACH);
        let (left, right) = (
            (b.left - 1).max(b.right - REACH).max(-REACH),
            (b.right + 1).min(b.left + REACH).min(REACH),
        );
        let cols: u16 = if left > right {
            0
        } else {
            (((1u32 << (right - left + 1)) - 1) as u16) << (left + REACH)
        };
        for row in rows {
            let r = (row + REACH) as usize;
            let here = self.occupied[r];
            let above = if r > 0 { self.occupied[r - 1] } else { 0 };
            let below = self.occupied.get(r + 1).copied().unwrap_or(0);
            out[r] = (above | below | here << 1 | here >> 1) & !here & cols;
        }
        out
    }

    /// The occupied cells, a row a number (bit `c` of row `r`: the cell at row `r - 6`,
    /// column `c - 6`).
    pub fn occupied_rows(&self) -> &[u16; SIDE] {
        &self.occupied
    }

    /// The card on the cell of row `r`, column `c` of [`Grid::occupied_rows`]' numbering.
    #[inline]
    pub(crate) fn at_cell(&self, r: usize, c: usize) -> Option<Placed> {
        self.cells.get(r * SIDE + c).copied().flatten()
    }

    /// Puts a card on an empty cell; the caller checks legality with [`Grid::can_place`].
    pub(crate) fn put(&mut self, p: Pos, placed: Placed) {
        let Some(i) = p.index() else { return };
        if self.cells[i].is_none() {
            self.count += 1;
        }
        self.cells[i] = Some(placed);
        self.occupied[i / SIDE] |= 1 << (i % SIDE);
        self.bounds = Some(match self.bounds {
            Some(b) => b.with(p),
            None => Bounds {
                top: p.row,
                bottom: p.row,
                left: p.col,
                right: p.col,
            },
        });
    }

    /// Turns the card at `p` over (nothing if the cell is empty).
    pub(crate) fn flip(&mut self, p: Pos) {
        if let Some(i) = p.index()
            && let Some(c) = &mut self.cells[i]
        {
            c.up = c.up.flipped();
        }
    }

    /// The occupied orthogonal neighbours of `p`, north, east, south, west.
    pub fn neighbours(&self, p: Pos) -> impl Iterator<Item = Pos> + '_ {
        p.around().into_iter().filter(|q| self.get(*q).is_some())
    }

    /// Every occupied cell with its card, row by row (read off the occupied cells' rows).
    pub fn cards(&self) -> impl Iterator<Item = (Pos, Placed)> + '_ {
        self.occupied.iter().enumerate().flat_map(move |(r, &row)| {
            let mut left = row;
            std::iter::from_fn(move || {
                while left != 0 {
                    let c = left.trailing_zeros() as usize;
                    left &= left - 1;
                    if let Some(placed) = self.cells[r * SIDE + c] {
                        let p = Pos::new(r as i8 - REACH, c as i8 - REACH);
                        return Some((p, placed));
                    }
                }
                None
            })
        })
    }

    /// Size of the largest orthogonally connected group of cells for which `keep` holds.
    pub fn largest_group(&self, keep: impl Fn(Placed) -> bool) -> usize {
        self.largest_groups(|c| if keep(c) { 0 } else { GROUPS })[0]
    }

    /// The size of the largest orthogonally connected group of each class `0..4` of cards,
    /// `class` telling a card's (a class of 4 or more: the card is in no group), found in one
    /// pass over the table (no allocation: a grid holds at most [`MAX_CARDS`] cards).
    pub fn largest_groups(&self, class: impl Fn(Placed) -> usize) -> [usize; GROUPS] {
        let mut seen = [false; SIDE * SIDE];
        let mut best = [0; GROUPS];
        let mut stack = [Pos::ORIGIN; MAX_CARDS];
        for (p, c) in self.cards() {
            let i = p.index().unwrap_or(0);
            let k = class(c);
            if seen[i] || k >= GROUPS {
                continue;
            }
            seen[i] = true;
            stack[0] = p;
            let mut top = 1;
            let mut size = 0;
            while top > 0 {
                top -= 1;
                let q = stack[top];
                size += 1;
                for n in q.around() {
                    if let (Some(j), Some(nc)) = (n.index(), self.get(n))
                        && !seen[j]
                        && class(nc) == k
                        && top < MAX_CARDS
                    {
                        seen[j] = true;
                        stack[top] = n;
                        top += 1;
                    }
                }
            }
            best[k] = best[k].max(size);
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn card(n: u8) -> Placed {
        Placed {
            card: n,
            up: Side::Front,
        }
    }

    #[test]
    fn the_first_card_goes_at_the_origin_and_the_next_beside_it() {
        let mut g = Grid::default();
        assert_eq!(g.legal_positions(), vec![Pos::ORIGIN]);
        g.put(Pos::ORIGIN, card(0));
        assert_eq!(
            g.legal_positions(),
            vec![
                Pos::new(-1, 0),
                Pos::new(0, -1),
                Pos::new(0, 1),
                Pos::new(1, 0)
            ]
        );
    }

    #[test]
    fn a_row_of_seven_cannot_grow_wider() {
        let mut g = Grid::default();
        for c in 0..7 {
            g.put(Pos::new(0, c), card(c as u8));
        }
        assert!(!g.can_place(Pos::new(0, 7)));
        assert!(!g.can_place(Pos::new(0, -1)));
        assert!(g.can_place(Pos::new(1, 3)));
    }
}
