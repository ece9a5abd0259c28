//! How good a move looks right after it is made: greedy's values, also the move ordering
//! and pruning of the search.

use super::clash::index;
use super::events::NoLog;
use super::grid::{Pos, REACH};
use super::outcomes::{CountTable, pair};
use super::scoring::{POINTS, goal_progress, rank_elements};
use super::setup::CARDS;
use super::state::{Move, State};
use super::state::{bits, sig_at};
use crate::games::iconoclasm::model::Clash;

/// The value of each move for the player making it, taken right after the move: with
/// players, the points they would score if the game ended now, then (as fractions below 1)
/// the face-up cards of their elements minus everyone else's, then their best element rank
/// (the winner's tie-breaks); solo, the progress towards
/// the goal (0 to 1).
///
/// A value depends only on the elements showing after the move, which the move's position,
/// the new card's element at the end and which neighbours changed element fix
/// ([`layout_key`]): moves of different cards (or faces, or orders) that leave the same
/// elements showing are valued once ([`Memo`]).
pub fn move_values(st: &State, moves: &[Move]) -> Vec<f64> {
    let mut out = Vec::with_capacity(moves.len());
    move_values_into(st, moves, &mut out);
    out
}

/// [`move_values`] into `out` (cleared first), whose room is reused.
pub fn move_values_into(st: &State, moves: &[Move], out: &mut Vec<f64>) {
    let mut memo = Memo::new();
    let valuer = Valuer::new(st);
    out.clear();
    out.extend(moves.iter().map(|mv| match layout(st, mv) {
        Some((key, elem, changed)) => memo.get_or(key, || match &valuer {
            Some(v) => v.value_of_layout(st, mv.pos, elem, changed),
            None => move_value(st, mv),
        }),
        None => move_value(st, mv),
    }));
}

/// [`move_values`]' value of one move, worked out on a copy of the state.
fn move_value(st: &State, mv: &Move) -> f64 {
    let me = st.to_move;
    let mut after = *st;
    if after.apply(mv, &mut NoLog).is_err() {
        return f64::MIN;
    }
    if let Some(goal) = st.goal {
        return goal_progress(&after, goal);
    }
    // One ranking gives both the player's score and the face-up margin.
    let ranks = rank_elements(&after);
    let (mut points, mut best_rank, mut margin) = (0u8, 5u8, 0i32);
    for e in &ranks {
        if e.owner == Some(me) {
            points += e.points;
            best_rank = best_rank.min(e.rank);
            margin += i32::from(e.count);
        } else {
            margin -= i32::from(e.count);
        }
    }
    f64::from(points) + f64::from(margin + 16) / 64.0 + f64::from(5 - best_rank.min(5)) / 1024.0
}

/// What the table shows after `mv`, as a number below 2^14: the move's position (its cell,
/// 7 bits of each coordinate folded to one number below 169), the new card's element at the
/// end, and which of its neighbours (north, east, south, west) changed element. The clashes
/// played as [`State::apply`] plays them, without changing the state; `None` for a move that
/// is not legal here (valued the long way, which says so).
pub fn layout_key(st: &State, mv: &Move) -> Option<u16> {
    layout(st, mv).map(|(key, _, _)| key)
}

/// [`layout_key`], with the new card's element at the end (by [`index`]) and which of its
/// neighbours changed element (bit `d`: direction `d` of [`Pos::around`]).
fn layout(st: &State, mv: &Move) -> Option<(u16, usize, u8)> {
    st.check(mv).ok()?;
    let clashes = st.clashes();
    let around = mv.pos.around();
    let mut side = mv.side;
    let mut changed = 0u16;
    for &p in mv.order() {
        let them = st.grid.get(p)?;
        let theirs = st.face(them.card, them.up);
        let dir = around.iter().position(|q| *q == p)?;
        let mine = st.face(mv.card, side);
        let result = clashes.get(mine, theirs);
        if matches!(result, Clash::FlipsOther | Clash::Mutual)
            && st.face(them.card, them.up.flipped()) != theirs
        {
            changed |= 1 << dir;
        }
        if matches!(result, Clash::FlipsSelf | Clash::Mutual) {
            side = side.flipped();
        }
    }
    let cell = (i32::from(mv.pos.row) + 6) * 13 + (i32::from(mv.pos.col) + 6);
    let cell = u16::try_from(cell).ok().filter(|c| *c < 169)?;
    let elem = index(st.face(mv.card, side));
    Some((
        (cell << 6) | (changed << 2) | elem as u16,
        elem,
        changed as u8,
    ))
}

/// Columns 0 and 7 of a [`Window`]'s rows.
const COL0: u64 = 0x0101_0101_0101_0101;
const COL7: u64 = 0x8080_8080_8080_8080;

/// The table as bits: 8 rows of 8 cells from (`r0`, `c0`), bit `8 * row + col`, which hold
/// every card and every free position (a grid spans at most 7 and grows by one).
#[derive(Debug, Clone, Copy)]
pub(super) struct Window {
    r0: i8,
    c0: i8,
}

impl Window {
    /// The window of `st`'s table and its free positions.
    pub fn of(st: &State) -> Window {
        match st.grid.bounds() {
            Some(b) => Window {
                r0: (b.top - 1).max(b.bottom - 6),
                c0: (b.left - 1).max(b.right - 6),
            },
            None => Window { r0: 0, c0: 0 },
        }
    }

    /// The bit of `p` (0 outside the window).
    #[inline]
    pub fn bit(&self, p: Pos) -> u64 {
        let (r, c) = (p.row - self.r0, p.col - self.c0);
        if (0..8).contains(&r) && (0..8).contains(&c) {
            1 << (r * 8 + c)
        } else {
            0
        }
    }

    /// The cells showing each element (by [`index`]).
    pub fn elements(&self, st: &State) -> [u64; 4] {
        let mut m = [0u64; 4];
        for (p, c) in st.grid.cards() {
            m[index(st.face(c.card, c.up))] |= self.bit(p);
        }
        m
    }
}

/// The size of the largest orthogonally connected group of the cells of `m` (a
/// [`Window`]'s bits): each group grown from one cell until it stops growing.
#[inline]
pub(super) fn largest(mut m: u64) -> u8 {
    let mut best = 0;
    while m != 0 && m.count_ones() > best {
        let mut g = m & m.wrapping_neg();
        loop {
            let n = (g | g << 8 | g >> 8 | (g << 1 & !COL0) | (g >> 1 & !COL7)) & m;
            if n == g {
                break;
            }
            g = n;
        }
        best = best.max(g.count_ones());
        m &= !g;
    }
    best as u8
}

/// Greedy's value of a layout ([`move_values`]) with players, from the position before the
/// move: the cells showing each element and their largest groups, worked out once a
/// decision; a layout then changes the few cells the move changes and groups again only the
/// elements whose cells changed. No copy of the state, no move made.
#[derive(Debug, Clone)]
pub(super) struct Valuer {
    window: Window,
    masks: [u64; 4],
    groups: [u8; 4],
    owner: [Option<u8>; 4],
    order: [u8; 4],
    me: u8,
}

impl Valuer {
    /// The valuer of `st`'s decision; `None` solo (a goal's progress is valued the long way).
    pub fn new(st: &State) -> Option<Valuer> {
        if st.goal.is_some() {
            return None;
        }
        let window = Window::of(st);
        let masks = window.elements(st);
        Some(Valuer {
            window,
            masks,
            groups: masks.map(largest),
            owner: st.owner,
            order: st.order,
            me: st.to_move,
        })
    }

    /// The value of the layout where a card at `pos` ends showing element `elem` (by
    /// [`index`]) and the neighbours in the directions of `changed` ([`Pos::around`]) turned
    /// over (each to its other face).
    pub fn value_of_layout(&self, st: &State, pos: Pos, elem: usize, changed: u8) -> f64 {
        let mut m = self.masks;
        let mut touched = 0u8;
        m[elem % 4] |= self.window.bit(pos);
        touched |= 1 << (elem % 4);
        for (d, q) in pos.around().into_iter().enumerate() {
            if changed & (1 << d) == 0 {
                continue;
            }
            let Some(c) = st.grid.get(q) else { continue };
            let (from, to) = (
                index(st.face(c.card, c.up)),
                index(st.face(c.card, c.up.flipped())),
            );
            let b = self.window.bit(q);
            m[from] &= !b;
            m[to] |= b;
            touched |= (1 << from) | (1 << to);
        }
        self.value_of(&m, touched)
    }

    /// The value of the table whose cells show `m` (by element), `touched` the elements whose
    /// cells differ from the position's.
    #[inline]
    pub fn value_of(&self, m: &[u64; 4], touched: u8) -> f64 {
        let count = m.map(|x| x.count_ones());
        // Each element's place as `rank_elements` sorts: more face up, then the larger group,
        // then the element earlier in turn order, then (the sort being stable) the element
        // order, packed into one number (higher: ahead). A group is worked out again only for
        // a changed element that ties another on face-up cards (else it ranks nothing).
        let mut key = [0u32; 4];
        for e in 0..4 {
            let tied = (0..4).any(|f| f != e && count[f] == count[e]);
            let group = if touched & (1 << e) == 0 {
                u32::from(self.groups[e])
            } else if tied {
                u32::from(largest(m[e]))
            } else {
                0
            };
            key[e] =
                count[e] << 24 | group << 16 | u32::from(255 - self.order[e]) << 8 | (3 - e as u32);
        }
        let (mut points, mut best_rank, mut margin) = (0u8, 5u8, 0i32);
        for e in 0..4 {
            let ahead = key.iter().filter(|&&k| k > key[e]).count();
            if self.owner[e] == Some(self.me) {
                points += POINTS[ahead.min(3)];
                best_rank = best_rank.min(ahead as u8 + 1);
                margin += count[e] as i32;
            } else {
                margin -= count[e] as i32;
            }
        }
        f64::from(points) + f64::from(margin + 16) / 64.0 + f64::from(5 - best_rank.min(5)) / 1024.0
    }
}

/// Values already worked out this decision, by [`layout_key`]: an open-addressed table of
/// fixed size (a decision leaves far fewer distinct layouts than it has slots; when it is
/// full a value is worked out again, never lost).
struct Memo {
    keys: [u16; MEMO_SLOTS],
    values: [f64; MEMO_SLOTS],
}

/// Slots of a [`Memo`] (a power of two).
const MEMO_SLOTS: usize = 512;

impl Memo {
    fn new() -> Memo {
        Memo {
            keys: [0; MEMO_SLOTS],
            values: [0.0; MEMO_SLOTS],
        }
    }

    /// The value kept under `key`, else `work()` kept and returned.
    fn get_or(&mut self, key: u16, work: impl FnOnce() -> f64) -> f64 {
        let stored = key + 1;
        let mut i = usize::from(key).wrapping_mul(0x9E37) % MEMO_SLOTS;
        for _ in 0..MEMO_SLOTS {
            match self.keys[i] {
                0 => {
                    let v = work();
                    self.keys[i] = stored;
                    self.values[i] = v;
                    return v;
                }
                k if k == stored => return self.values[i],
                _ => i = (i + 1) % MEMO_SLOTS,
            }
        }
        work()
    }
}

/// The indices of the `k` best moves by [`move_values`], best first (ties: earlier first),
/// with their values.
pub fn best_moves(st: &State, moves: &[Move], k: usize) -> Vec<(usize, f64)> {
    let values = move_values(st, moves);
    let mut ranked: Vec<(usize, f64)> = values.into_iter().enumerate().collect();
    ranked.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    ranked.truncate(k);
    ranked
}

/// The index among [`State::moves`] of greedy's choice (the first of the best values of
/// [`move_values`]), found without listing the moves: the free positions in order, each
/// card's outcomes there read from `table` (for `st`'s clash table) as layout keys, each
/// layout at a position valued once. `None` solo (valued the long way) and where no move is
/// left.
pub fn greedy_choice(st: &State, table: &CountTable) -> Option<usize> {
    if st.is_over() || st.needs_draw() {
        return None;
    }
    let valuer = Valuer::new(st)?;
    // The cards of the hand in card order, each with its face pair, its moves counted so far,
    // and its best value and the index of that move among its own.
    let mut cards = [(0u8, 0usize, 0usize, f64::MIN, usize::MAX); CARDS];
    let mut held = 0;
    for card in bits(st.hands[usize::from(st.to_move)]) {
        cards[held] = (card, pair(st.faces_of(card)), 0, f64::MIN, usize::MAX);
        held += 1;
    }
    let cards = &mut cards[..held];
    let shown = st.shown();
    for (r, &row) in st.grid.free_rows().iter().enumerate() {
        let mut free = row;
        while free != 0 {
            let c = free.trailing_zeros() as usize;
            free &= free - 1;
            let outcomes = table.row(sig_at(&shown, r, c));
            let pos = Pos::new(r as i8 - REACH, c as i8 - REACH);
            let near = st.near(pos);
            // The neighbours' directions, by their place in `near`.
            let mut dirs = [0u8; 4];
            let mut k = 0;
            for (d, q) in pos.around().into_iter().enumerate() {
                if k < usize::from(near.len) && near.pos[k] == q {
                    dirs[k] = d as u8;
                    k += 1;
                }
            }
            let mut values = [0f64; 64];
            let mut valued = 0u64;
            for (_, p, done, best, at) in cards.iter_mut() {
                for (i, &key) in outcomes.keys(*p).iter().enumerate() {
                    let key = usize::from(key) % 64;
                    let v = if valued & (1 << key) != 0 {
                        values[key]
                    } else {
                        let mut changed = 0u8;
                        for (j, d) in dirs.iter().enumerate().take(usize::from(near.len)) {
                            if key & (1 << (j + 2)) != 0 {
                                changed |= 1 << d;
                            }
                        }
                        let v = valuer.value_of_layout(st, pos, key & 3, changed);
                        values[key] = v;
                        valued |= 1 << key;
                        v
                    };
                    if *at == usize::MAX || v > *best {
                        *best = v;
                        *at = *done + i;
                    }
                }
                *done += usize::from(outcomes.counts[*p]);
            }
        }
    }
    // The first card whose best beats every earlier card's: the first best of the list.
    let mut before = 0;
    let mut choice: Option<(f64, usize)> = None;
    for &(_, _, done, best, at) in cards.iter() {
        if at != usize::MAX && choice.is_none_or(|(b, _)| best > b) {
            choice = Some((best, before + at));
        }
        before += done;
    }
    choice.map(|(_, i)| i)
}
#[cfg(test)]
mod tests {
    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    use super::*;
    use crate::games::ai::first_best;
    use crate::games::iconoclasm::engine::{Deck, Goal, deal};
    use crate::games::iconoclasm::model::ClashTable;

    /// Positions of seeded random games (2 to 4 players) under the catalogue's clash table
    /// and another (each element's flips and mutual swapped), every placement of each.
    fn positions(games: u64) -> Vec<State> {
        let mut out = Vec::new();
        for seed in 0..games {
            let mut table = ClashTable::standard();
            if seed % 2 == 1 {
                for r in &mut table.clash {
                    std::mem::swap(&mut r.flips, &mut r.mutual);
                }
            }
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let players = 2 + (seed % 3) as u8;
            let setup = deal(Deck::standard(), &table, players, Goal::Dominance, &mut rng)
                .expect("a deal of the standard set");
            let mut st = State::new(&setup, &mut NoLog);
            loop {
                let moves = st.moves();
                if moves.is_empty() {
                    break;
                }
                out.push(st);
                let mv = moves[rng.random_range(0..moves.len())];
                st.apply(&mv, &mut NoLog).expect("a listed move is legal");
            }
            out.push(st);
        }
        out
    }

    #[test]
    fn layouts_valued_from_the_position_are_the_moves_own_values() {
        for st in positions(60) {
            let moves = st.moves();
            let values = move_values(&st, &moves);
            for (mv, v) in moves.iter().zip(&values) {
                assert_eq!(*v, move_value(&st, mv), "{mv:?} at {st:?}");
            }
        }
    }

    #[test]
    fn greedys_choice_unlisted_is_the_first_best_of_the_list() {
        for st in positions(120) {
            let moves = st.moves();
            let table = CountTable::of(&st.clashes()).expect("a kept table");
            let got = greedy_choice(&st, table);
            if moves.is_empty() {
                assert_eq!(got, None);
            } else {
                assert_eq!(got, Some(first_best(&move_values(&st, &moves))), "{st:?}");
            }
        }
    }

    #[test]
    fn groups_off_the_bits_are_the_grids_groups() {
        for st in positions(60) {
            let plain = st
                .grid
                .largest_groups(|c| index(st.face(c.card, c.up)))
                .map(|g| g as u8);
            assert_eq!(super::super::scoring::groups(&st), plain);
        }
    }
}
