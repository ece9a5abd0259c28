//! End-of-game scoring (rule card 3) and the solo goals.
//!
//! Each element is ranked by its face-up cards; ties go to the larger connected group, then
//! to the element earlier in turn order (an element with no player comes last). Ranks earn
//! 4, 3, 2 and 1 points for the element's player.

use super::clash::index;
use super::eval::{Window, largest};
use super::setup::Goal;
use super::state::State;
use crate::games::iconoclasm::model::Element;

/// Points of ranks 1 to 4.
pub const POINTS: [u8; 4] = [4, 3, 2, 1];

/// How an element stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ElementScore {
    pub element: Element,
    /// Face-up cards showing it.
    pub count: u8,
    /// Its largest orthogonally connected group.
    pub group: u8,
    /// 1 to 4.
    pub rank: u8,
    pub points: u8,
    pub owner: Option<u8>,
}

/// Face-up cards of each element (by [`index`]).
pub fn counts(st: &State) -> [u8; 4] {
    let mut n = [0u8; 4];
    for (_, c) in st.grid.cards() {
        n[index(st.face(c.card, c.up))] += 1;
    }
    n
}

/// The largest connected group of `e` face up.
pub fn group(st: &State, e: Element) -> u8 {
    st.grid.largest_group(|c| st.face(c.card, c.up) == e) as u8
}

/// The largest connected group of each element face up (by [`index`]), in one pass.
pub fn groups(st: &State) -> [u8; 4] {
    // The table as bits (it spans at most 7 by 7), each element's cells grouped.
    let window = Window::of(st);
    window.elements(st).map(largest)
}

/// The four elements, best rank first.
pub fn rank_elements(st: &State) -> [ElementScore; 4] {
    let n = counts(st);
    let g = groups(st);
    let mut all = Element::ALL.map(|e| ElementScore {
        element: e,
        count: n[index(e)],
        group: g[index(e)],
        rank: 0,
        points: 0,
        owner: st.owner[index(e)],
    });
    all.sort_by(|a, b| {
        b.count
            .cmp(&a.count)
            .then(b.group.cmp(&a.group))
            .then(st.order[index(a.element)].cmp(&st.order[index(b.element)]))
    });
    for (i, s) in all.iter_mut().enumerate() {
        s.rank = i as u8 + 1;
        s.points = POINTS[i];
    }
    all
}

/// How a player stands: points, then face-up cards of their elements, then their best rank.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PlayerScore {
    pub player: u8,
    pub points: u8,
    pub face_up: u8,
    pub best_rank: u8,
}

/// Every player's score, by seat (a slice of at most four: no allocation).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Scores {
    all: [PlayerScore; 4],
    len: u8,
}

impl std::ops::Deref for Scores {
    type Target = [PlayerScore];
    fn deref(&self) -> &[PlayerScore] {
        &self.all[..usize::from(self.len)]
    }
}

impl IntoIterator for Scores {
    type Item = PlayerScore;
    type IntoIter = std::iter::Take<std::array::IntoIter<PlayerScore, 4>>;
    fn into_iter(self) -> Self::IntoIter {
        self.all.into_iter().take(usize::from(self.len))
    }
}

impl<'a> IntoIterator for &'a Scores {
    type Item = &'a PlayerScore;
    type IntoIter = std::slice::Iter<'a, PlayerScore>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

/// Every player's score, by seat. Solo: 1 point if the goal is met, else 0.
pub fn player_scores(st: &State) -> Scores {
    let ranks = rank_elements(st);
    let players = st.players.min(4);
    let all = std::array::from_fn(|p| {
        let p = p as u8;
        let mut s = PlayerScore {
            player: p,
            points: 0,
            face_up: 0,
            best_rank: 5,
        };
        for e in ranks.iter().filter(|e| e.owner == Some(p)) {
            s.points += e.points;
            s.face_up += e.count;
            s.best_rank = s.best_rank.min(e.rank);
        }
        if p < players
            && let Some(goal) = st.goal
        {
            s.points = u8::from(goal_met(st, goal));
        }
        s
    });
    Scores { all, len: players }
}

/// The winner (a seat from 0): most points, then most face-up cards of one's elements, then
/// the best-ranked element. Solo: player 1 if the goal is met, else none.
pub fn winner(st: &State) -> Option<u8> {
    if let Some(goal) = st.goal {
        return goal_met(st, goal).then_some(0);
    }
    leader(&player_scores(st))
}

/// The player ahead among `scores` (a game with players): most points, then most face-up
/// cards of their elements, then the best-ranked element; on a whole tie, the later seat.
pub fn leader(scores: &[PlayerScore]) -> Option<u8> {
    scores
        .iter()
        .max_by(|a, b| {
            a.points
                .cmp(&b.points)
                .then(a.face_up.cmp(&b.face_up))
                .then(b.best_rank.cmp(&a.best_rank))
        })
        .map(|s| s.player)
}

/// Whether the table meets a solo goal: Dominance, 7 or more connected cards of one element
/// face up; Balance, exactly 4 of each element face up.
pub fn goal_met(st: &State, goal: Goal) -> bool {
    match goal {
        Goal::Dominance => groups(st).iter().any(|g| *g >= 7),
        Goal::Balance => counts(st) == [4; 4],
    }
}

/// Progress towards a goal in 0..=1 (1 when met): the largest group over 7, or how close the
/// counts are to 4 of each. Guides the solo AI.
pub fn goal_progress(st: &State, goal: Goal) -> f64 {
    match goal {
        Goal::Dominance => {
            let best = groups(st).into_iter().max().unwrap_or(0);
            (best as f64 / 7.0).min(1.0)
        }
        Goal::Balance => {
            let over: u32 = counts(st)
                .iter()
                .map(|&c| u32::from(c.saturating_sub(4)))
                .sum();
            1.0 - over as f64 / 12.0
        }
    }
}
