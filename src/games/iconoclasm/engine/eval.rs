//! How good a move looks right after it is made: greedy's values, also the move ordering
//! and pruning of the search.

use super::clash::index;
use super::events::NoLog;
use super::scoring::{goal_progress, rank_elements};
use super::state::{Move, State};
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
    out.clear();
    out.extend(moves.iter().map(|mv| match layout_key(st, mv) {
        Some(key) => memo.get_or(key, || move_value(st, mv)),
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
    Some((cell << 6) | (changed << 2) | index(st.face(mv.card, side)) as u16)
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
