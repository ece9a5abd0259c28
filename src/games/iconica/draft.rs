//! Party Member selection as the rule text describes it (Iconica v8, "Party Member
//! Selection"; v2 "Selecting Your Party Members"): each player rolls a die, the lowest
//! picks first, then the players alternate one character at a time until each has three.
//! Only picks that keep the picker's party legal (the construction rules of [`super::rules`],
//! checked on the party so far) and leave it a legal way to three are offered.
//!
//! Ties are rolled again (docs/rulings.md). The player who picked first plays first: the
//! parties come out in play order ([`Draft::parties`]). Pure: the dice are handed in.

use crate::cards::{Card, CardLookup};
use crate::games::ai::Policy;
use crate::games::build::Violation;
use crate::games::dice::Dice;
use crate::games::iconica::model::Character;
use crate::games::iconica::party::PartyFile;
use crate::games::iconica::rules::check_match;

/// Characters in a finished party.
pub const PARTY: usize = 3;
/// Rolls before a draft gives up on breaking a tie (a scripted die that always ties).
const MAX_ROLLS: usize = 100;

/// A draft between two players (0 and 1) over a pool of characters.
#[derive(Debug, Clone, PartialEq)]
pub struct Draft {
    /// The characters that may be picked, in the order offered.
    pub pool: Vec<Character>,
    /// Each round of the opening roll (player 0's die, player 1's die); the last has no tie.
    pub rolls: Vec<(u8, u8)>,
    /// The player who rolled lowest: picks first, and plays first.
    pub first: usize,
    /// Each player's picks so far, as indices into `pool`, in the order picked.
    pub picks: [Vec<usize>; 2],
}

/// Why a draft cannot start.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DraftError {
    #[error("the dice ran out before the opening roll was decided")]
    NoDice,
    #[error("the opening roll tied {0} times in a row")]
    Tied(usize),
    #[error("the catalogue has {0} Iconica characters; a draft needs at least six")]
    SmallPool(usize),
}

impl Draft {
    /// Rolls for the first pick (ties rolled again) over `pool`.
    pub fn start(pool: Vec<Character>, dice: &mut impl Dice) -> Result<Draft, DraftError> {
        if pool.len() < 2 * PARTY {
            return Err(DraftError::SmallPool(pool.len()));
        }
        let mut rolls = Vec::new();
        for _ in 0..MAX_ROLLS {
            let (a, b) = (
                dice.die().ok_or(DraftError::NoDice)?,
                dice.die().ok_or(DraftError::NoDice)?,
            );
            rolls.push((a, b));
            if a != b {
                return Ok(Draft {
                    pool,
                    rolls,
                    first: usize::from(b < a),
                    picks: [Vec::new(), Vec::new()],
                });
            }
        }
        Err(DraftError::Tied(MAX_ROLLS))
    }

    /// The player whose pick it is, or `None` when both have three.
    pub fn to_pick(&self) -> Option<usize> {
        let n = self.picks[0].len() + self.picks[1].len();
        if n >= 2 * PARTY {
            return None;
        }
        // Alternate from the first picker; a player with three waits (never happens with
        // strict alternation, but keeps the count right).
        let p = (self.first + n) % 2;
        if self.picks[p].len() >= PARTY {
            Some(1 - p)
        } else {
            Some(p)
        }
    }

    /// Whether the draft is over.
    pub fn done(&self) -> bool {
        self.to_pick().is_none()
    }

    /// Whether pool index `i` has been picked by either player.
    pub fn taken(&self, i: usize) -> bool {
        self.picks.iter().any(|p| p.contains(&i))
    }

    /// The picks the player to pick may make (pool indices, in pool order): a character not
    /// yet taken that keeps the party legal and leaves it a legal way to three.
    pub fn legal(&self) -> Vec<usize> {
        let Some(p) = self.to_pick() else {
            return Vec::new();
        };
        let cards: Vec<Card> = self.pool.iter().cloned().map(Card::Iconica).collect();
        let free: Vec<usize> = (0..self.pool.len()).filter(|&i| !self.taken(i)).collect();
        free.iter()
            .copied()
            .filter(|&i| {
                let mut mine = self.picks[p].clone();
                mine.push(i);
                completable(
                    &cards as &dyn CardLookup,
                    &self.pool,
                    &mine,
                    &self.picks[1 - p],
                    &free,
                )
            })
            .collect()
    }

    /// Why pool index `i` is not offered to the player to pick, or `None` when it is: the
    /// construction rule the party with it would break (the rule's own sentence, the parties
    /// named `names`, player 0's first), else that the party could no longer reach three
    /// legal members. The same test as [`Draft::legal`], with its reason.
    pub fn refusal(&self, i: usize, names: [&str; 2]) -> Option<Refusal> {
        let Some(p) = self.to_pick() else {
            return Some(Refusal::Over);
        };
        if i >= self.pool.len() || self.taken(i) {
            return Some(Refusal::Taken);
        }
        let cards: Vec<Card> = self.pool.iter().cloned().map(Card::Iconica).collect();
        let cards = &cards as &dyn CardLookup;
        let mut mine = self.picks[p].clone();
        mine.push(i);
        let other = &self.picks[1 - p];
        if let Some(v) = breaks(cards, &self.pool, &mine, other, [names[p], names[1 - p]])
            .into_iter()
            .next()
        {
            return Some(Refusal::Breaks(v));
        }
        let free: Vec<usize> = (0..self.pool.len()).filter(|&j| !self.taken(j)).collect();
        if completable(cards, &self.pool, &mine, other, &free) {
            None
        } else {
            Some(Refusal::NoWayToThree)
        }
    }

    /// Player `to_pick()` takes pool index `i` (ignored unless legal).
    pub fn pick(&mut self, i: usize) -> bool {
        match self.to_pick() {
            Some(p) if self.legal().contains(&i) => {
                self.picks[p].push(i);
                true
            }
            _ => false,
        }
    }

    /// The computer's pick with `policy`: `first` the first legal character, `random` one
    /// at random (from `dice`), `greedy` and `mcts` the legal character with the highest
    /// Start (the first of equals).
    pub fn choose(&self, policy: Policy, dice: &mut impl Dice) -> Option<usize> {
        let legal = self.legal();
        if legal.is_empty() {
            return None;
        }
        match policy {
            Policy::First => legal.first().copied(),
            Policy::Random => {
                let n = u8::try_from(legal.len()).unwrap_or(u8::MAX);
                let k = dice.pick(n).map_or(0, usize::from);
                legal.get(k).copied()
            }
            Policy::Greedy | Policy::Mcts(_) | Policy::SeatGreedy | Policy::SeatMcts(_) => legal
                .iter()
                .copied()
                .rev()
                .max_by_key(|&i| self.pool[i].health.start),
        }
    }

    /// Player `p`'s party so far.
    pub fn party(&self, p: usize, name: &str) -> PartyFile {
        let ids: Vec<&str> = self.picks[p]
            .iter()
            .map(|&i| self.pool[i].id.as_str())
            .collect();
        PartyFile::new(name, &ids)
    }

    /// Both parties in play order (the first picker's first) with the player each came from.
    pub fn parties(&self, names: [&str; 2]) -> [(usize, PartyFile); 2] {
        let (f, s) = (self.first, 1 - self.first);
        [(f, self.party(f, names[f])), (s, self.party(s, names[s]))]
    }
}

/// Why a pick is not offered ([`Draft::refusal`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// The draft is over.
    Over,
    /// Either player already has the character.
    Taken,
    /// The party with it breaks this construction rule.
    Breaks(Violation),
    /// The party with it breaks no rule yet, but no characters left would make it three.
    NoWayToThree,
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refusal::Over => f.write_str("the draft is over"),
            Refusal::Taken => f.write_str("already picked"),
            Refusal::Breaks(v) => f.write_str(&v.message),
            Refusal::NoWayToThree => f.write_str(
                "your party would have no legal way to three members with the characters left",
            ),
        }
    }
}

/// Whether `mine` (pool indices) is legal with `other`'s party, and can still reach three
/// legally with characters of `free` not in it.
fn completable(
    cards: &dyn CardLookup,
    pool: &[Character],
    mine: &[usize],
    other: &[usize],
    free: &[usize],
) -> bool {
    if !legal_so_far(cards, pool, mine, other) {
        return false;
    }
    if mine.len() >= PARTY {
        return true;
    }
    free.iter().filter(|i| !mine.contains(i)).any(|&j| {
        let mut next = mine.to_vec();
        next.push(j);
        completable(cards, pool, &next, other, free)
    })
}

/// The construction rules `mine` breaks, its size apart, beside `other`'s party (the
/// picker's party checked second, as in [`legal_so_far`]); `names`: mine, then other's.
fn breaks(
    cards: &dyn CardLookup,
    pool: &[Character],
    mine: &[usize],
    other: &[usize],
    names: [&str; 2],
) -> Vec<Violation> {
    let party = |ix: &[usize], name: &str| {
        let ids: Vec<&str> = ix.iter().map(|&i| pool[i].id.as_str()).collect();
        PartyFile::new(name, &ids)
    };
    let (a, b) = (party(other, names[1]), party(mine, names[0]));
    let mut reports = check_match(&[&a, &b], cards);
    reports
        .swap_remove(1)
        .violations
        .into_iter()
        .filter(|v| v.rule != "party-size")
        .collect()
}

/// The construction rules on a party still being picked: every rule but its size.
fn legal_so_far(
    cards: &dyn CardLookup,
    pool: &[Character],
    mine: &[usize],
    other: &[usize],
) -> bool {
    let party = |ix: &[usize]| {
        let ids: Vec<&str> = ix.iter().map(|&i| pool[i].id.as_str()).collect();
        PartyFile::new("", &ids)
    };
    let (a, b) = (party(other), party(mine));
    // The picker's party second: a Legend or Special the other player has is theirs.
    let reports = check_match(&[&a, &b], cards);
    reports[1].violations.iter().all(|v| v.rule == "party-size")
}
