//! What a card can end as at one free position: the distinct outcomes of its faces and clash
//! orders there ([`Near`], [`outcome`], [`count_outcomes`]), and a memo of their number
//! ([`CountTable`]), which random play reads instead of trying every face and order of every
//! card at every position at every placement.
//!
//! The number of distinct outcomes of a card at a position depends only on the card's two
//! faces, the clash table and what the occupied neighbours show (each one's element and
//! whether turning it over changes it): not on where the position is or which cards the
//! neighbours are. A table of those numbers, filled as they are first needed, answers every
//! later placement with one read.

use std::sync::{Mutex, OnceLock};

use super::clash::{Clashes, index};
use super::grid::{Pos, Side};
use crate::games::iconoclasm::model::{Clash, Element};

/// A free position's occupied neighbours (north, east, south, west): where each is, the
/// element it shows and whether turning it over changes that element; `sig` numbers what the
/// four sides show ([`Near::sig`]).
#[derive(Debug, Clone, Copy)]
pub(super) struct Near {
    pub pos: [Pos; 4],
    pub theirs: [Element; 4],
    pub changes: [bool; 4],
    pub len: u8,
    /// What the four sides show as one number below [`SIGS`]: the side in direction `d`
    /// (north, east, south, west) adds [`code`] of its card `* 9^d` (an empty side adds 0).
    pub sig: u16,
}

/// A side's part of [`Near::sig`]: 0 for no card, else `1 + 2 * element + changes` (below 9).
#[inline]
pub(super) fn code(theirs: Element, changes: bool) -> u8 {
    1 + 2 * index(theirs) as u8 + u8::from(changes)
}

impl Near {
    pub const EMPTY: Near = Near {
        pos: [Pos::ORIGIN; 4],
        theirs: [Element::Fire; 4],
        changes: [false; 4],
        len: 0,
        sig: 0,
    };

    /// Adds an occupied neighbour at `q`, in direction `dir` (0 north, 1 east, 2 south,
    /// 3 west; added in that order), showing `theirs`, whose other face `changes` it.
    pub fn push(&mut self, dir: usize, q: Pos, theirs: Element, changes: bool) {
        let k = usize::from(self.len);
        if k >= 4 || dir >= 4 {
            return;
        }
        self.pos[k] = q;
        self.theirs[k] = theirs;
        self.changes[k] = changes;
        self.sig += u16::from(code(theirs, changes)) * 9u16.pow(dir as u32);
        self.len += 1;
    }

    /// The neighbour list a [`Near::sig`] stands for (positions left at the origin: what a
    /// count needs is the elements and changes, in order).
    fn of_sig(sig: u16) -> Near {
        let mut n = Near::EMPTY;
        let mut rest = sig;
        for dir in 0..4 {
            let c = (rest % 9) as u8;
            rest /= 9;
            if c > 0 {
                let e = Element::ALL[usize::from((c - 1) / 2)];
                n.push(dir, Pos::ORIGIN, e, (c - 1) % 2 == 1);
            }
        }
        n
    }
}

/// Neighbour lists [`Near::sig`] tells apart: 9 states (none, or 4 elements by 2) for each of 4.
pub const SIGS: usize = 9 * 9 * 9 * 9;

/// The element of the new card (faces `faces`, put down `side` up) at the end and, per
/// neighbour `n.pos[i]`, whether its element changed (bit i+2) when clashing in the order
/// `perm`: a key below 64.
pub(super) fn outcome(
    clashes: &Clashes,
    faces: [Element; 2],
    side: Side,
    n: &Near,
    perm: &[usize],
) -> u8 {
    let mut cur = side;
    let mut key = 0u8;
    for &i in perm {
        match clashes.get(faces[cur as usize], n.theirs[i]) {
            Clash::FlipsOther => key |= u8::from(n.changes[i]) << (i + 2),
            Clash::FlipsSelf => cur = cur.flipped(),
            Clash::Mutual => {
                key |= u8::from(n.changes[i]) << (i + 2);
                cur = cur.flipped();
            }
            Clash::None => {}
        }
    }
    key | index(faces[cur as usize]) as u8
}

/// The faces a card may be put down with: the front, and the back when it differs.
pub(super) fn sides(faces: [Element; 2]) -> &'static [Side] {
    if faces[0] == faces[1] {
        &[Side::Front]
    } else {
        &[Side::Front, Side::Back]
    }
}

/// Gives `f` each distinct outcome of a card with `faces` at a position with neighbours `n`,
/// in the documented order (the front face before the back, clash orders in lexicographic
/// order of the neighbours; an outcome already reached is skipped), as (side, order of the
/// neighbours by their index in `n`), until `f` returns false; false if it did.
pub(super) fn each_outcome(
    clashes: &Clashes,
    faces: [Element; 2],
    n: &Near,
    mut f: impl FnMut(Side, &[usize]) -> bool,
) -> bool {
    let len = usize::from(n.len);
    let mut seen = 0u64;
    for &side in sides(faces) {
        let mut perm = [0usize, 1, 2, 3];
        loop {
            let key = outcome(clashes, faces, side, n, &perm[..len]);
            if seen & (1 << key) == 0 {
                seen |= 1 << key;
                if !f(side, &perm[..len]) {
                    return false;
                }
            }
            if !next_permutation(&mut perm[..len]) {
                break;
            }
        }
    }
    true
}

/// How many distinct outcomes [`each_outcome`] gives (tried one by one).
pub(super) fn count_outcomes(clashes: &Clashes, faces: [Element; 2], n: &Near) -> u8 {
    let mut k = 0u8;
    each_outcome(clashes, faces, n, |_, _| {
        k += 1;
        true
    });
    k
}

/// Face pairs a [`SigRow`] tells apart: a card's faces as `4 * front + back` ([`pair`]).
pub(super) const PAIRS: usize = 16;

/// A card's faces as one number below [`PAIRS`]: `4 * front + back` by [`index`].
#[inline]
pub(super) fn pair(faces: [Element; 2]) -> usize {
    index(faces[0]) * 4 + index(faces[1])
}

/// The outcomes of every card (by its faces) at one neighbour list ([`Near::sig`]): how many
/// there are for each face pair, and their keys ([`outcome`]) in [`each_outcome`]'s order.
#[derive(Debug)]
pub(super) struct SigRow {
    /// Distinct outcomes by face pair ([`pair`]).
    pub counts: [u8; PAIRS],
    /// Where each face pair's keys start in `keys` (and end: the next pair's start).
    start: [u16; PAIRS + 1],
    keys: Box<[u8]>,
    /// Beside each key, the first face and clash order that reach it: the face in bit 7,
    /// the order's rank among the orders of the neighbours in lexicographic order below.
    ways: Box<[u8]>,
    /// Neighbours in the list.
    len: u8,
}

impl SigRow {
    /// The row of neighbour list `sig` under `clashes`, every face pair tried.
    fn work(clashes: &Clashes, sig: u16) -> SigRow {
        let n = Near::of_sig(sig);
        let len = n.len;
        let mut counts = [0u8; PAIRS];
        let mut start = [0u16; PAIRS + 1];
        let mut keys = Vec::new();
        let mut ways = Vec::new();
        for (p, count) in counts.iter_mut().enumerate() {
            let faces = [Element::ALL[p / 4], Element::ALL[p % 4]];
            each_outcome(clashes, faces, &n, |side, perm| {
                keys.push(outcome(clashes, faces, side, &n, perm));
                ways.push((side as u8) << 7 | perm_rank(perm));
                *count += 1;
                true
            });
            start[p + 1] = keys.len() as u16;
        }
        SigRow {
            counts,
            start,
            keys: keys.into(),
            ways: ways.into(),
            len,
        }
    }

    /// The face and clash order (the neighbours by their place in the list, the first
    /// [`Near::len`] of them) of outcome `k` of a card with face pair `p`, in
    /// [`each_outcome`]'s order.
    #[inline]
    pub fn way(&self, p: usize, k: usize) -> Option<(Side, [usize; 4])> {
        let (a, b) = (self.start[p % PAIRS], self.start[p % PAIRS + 1]);
        if k >= usize::from(b - a) {
            return None;
        }
        let w = *self.ways.get(usize::from(a) + k)?;
        let side = if w & 0x80 != 0 {
            Side::Back
        } else {
            Side::Front
        };
        Some((side, perm_of_rank(w & 0x7f, self.len)))
    }

    /// The outcome keys of a card with face pair `p`, in [`each_outcome`]'s order.
    #[inline]
    pub fn keys(&self, p: usize) -> &[u8] {
        let (a, b) = (self.start[p % PAIRS], self.start[p % PAIRS + 1]);
        self.keys.get(usize::from(a)..usize::from(b)).unwrap_or(&[])
    }
}

/// The outcomes of every card (by its faces, front and back) at every neighbour list
/// ([`Near::sig`]) under one clash table: a [`SigRow`] per list, worked out the first time it
/// is asked for ([`each_outcome`] over the 16 face pairs) and kept. Shared by the threads of
/// a run (a row is made once).
pub struct CountTable {
    clashes: Clashes,
    rows: Box<[OnceLock<SigRow>]>,
}

/// Clash tables whose [`CountTable`] is kept for the life of the process: a run measures a
/// few (the catalogue's, a candidate); past this many a game counts without one.
const KEPT_TABLES: usize = 16;

/// The kept tables ([`CountTable::of`]).
static TABLES: Mutex<Vec<&'static CountTable>> = Mutex::new(Vec::new());

impl CountTable {
    /// The table of `clashes`, made the first time it is asked for and kept (each a few
    /// hundred KB once filled, at most [`KEPT_TABLES`] of them); `None` past that bound.
    pub fn of(clashes: &Clashes) -> Option<&'static CountTable> {
        let mut kept = TABLES.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(t) = kept.iter().find(|t| t.clashes == *clashes) {
            return Some(t);
        }
        if kept.len() >= KEPT_TABLES {
            return None;
        }
        let table: &'static CountTable = Box::leak(Box::new(CountTable {
            clashes: *clashes,
            rows: (0..SIGS).map(|_| OnceLock::new()).collect(),
        }));
        kept.push(table);
        Some(table)
    }

    /// The outcomes at neighbour list `sig` (below [`SIGS`]; a larger one is read as 0, no
    /// neighbours, which no caller passes).
    #[inline]
    pub(super) fn row(&self, sig: u16) -> &SigRow {
        let cell = self.rows.get(usize::from(sig)).unwrap_or(&self.rows[0]);
        cell.get_or_init(|| {
            SigRow::work(&self.clashes, if usize::from(sig) < SIGS { sig } else { 0 })
        })
    }

    /// The number of distinct outcomes of a card with `faces` at `n` (whose clash table must
    /// be this table's).
    #[inline]
    pub(super) fn count(&self, faces: [Element; 2], n: &Near) -> u8 {
        self.row(n.sig).counts[pair(faces)]
    }

    /// Whether this is the table of `clashes`.
    pub fn is_for(&self, clashes: &Clashes) -> bool {
        self.clashes == *clashes
    }
}

impl std::fmt::Debug for CountTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CountTable")
            .field("clashes", &self.clashes)
            .finish_non_exhaustive()
    }
}

/// The rank of an order of `0..n` (n at most 4) among them all in lexicographic order.
fn perm_rank(perm: &[usize]) -> u8 {
    let n = perm.len();
    let mut rank = 0usize;
    for i in 0..n {
        let smaller_after = perm[i + 1..].iter().filter(|&&x| x < perm[i]).count();
        rank = rank * (n - i) + smaller_after;
    }
    rank as u8
}

/// The order of `0..n` (n at most 4; the rest of the array in place) of lexicographic rank
/// `rank` ([`perm_rank`]'s inverse).
fn perm_of_rank(rank: u8, n: u8) -> [usize; 4] {
    let n = usize::from(n).min(4);
    let mut left = [0usize, 1, 2, 3];
    let mut out = [0usize, 1, 2, 3];
    let mut r = usize::from(rank);
    let fact = [1usize, 1, 2, 6];
    for i in 0..n {
        let f = fact[n - 1 - i];
        let j = (r / f).min(n - 1 - i);
        r %= f;
        out[i] = left[j];
        left.copy_within(j + 1..n, j);
    }
    out
}

/// Rearranges `v` into the next permutation in lexicographic order; false after the last.
pub(super) fn next_permutation(v: &mut [usize]) -> bool {
    let n = v.len();
    if n < 2 {
        return false;
    }
    let Some(i) = (0..n - 1).rev().find(|&i| v[i] < v[i + 1]) else {
        return false;
    };
    let j = (i + 1..n).rev().find(|&j| v[j] > v[i]).unwrap_or(i + 1);
    v.swap(i, j);
    v[i + 1..].reverse();
    true
}

#[cfg(test)]
mod tests {
    use super::next_permutation;

    #[test]
    fn a_permutations_rank_gives_it_back() {
        for n in 0..=4usize {
            let mut v: Vec<usize> = (0..n).collect();
            let mut rank = 0u8;
            loop {
                assert_eq!(super::perm_rank(&v), rank);
                assert_eq!(&super::perm_of_rank(rank, n as u8)[..n], v.as_slice());
                rank += 1;
                if !next_permutation(&mut v) {
                    break;
                }
            }
        }
    }

    #[test]
    fn permutations_come_in_lexicographic_order() {
        let mut v = vec![0, 1, 2];
        let mut all = vec![v.clone()];
        while next_permutation(&mut v) {
            all.push(v.clone());
        }
        assert_eq!(
            all,
            vec![
                [0, 1, 2],
                [0, 2, 1],
                [1, 0, 2],
                [1, 2, 0],
                [2, 0, 1],
                [2, 1, 0]
            ]
        );
    }
}
