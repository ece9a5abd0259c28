//! The board state: plain fixed-size arrays, `Copy`, so search can clone it for free.

use super::setup::{MAX_CHARS, Setup};
use crate::games::iconica::model::{ActionKind, Status};

/// Status bits.
pub const POISON: u8 = 1 << 0;
pub const FEAR: u8 = 1 << 1;
pub const CONFUSION: u8 = 1 << 2;
pub const BLIND: u8 = 1 << 3;
pub const STUN: u8 = 1 << 4;
pub const RESTORATION: u8 = 1 << 5;
pub const SIPHON: u8 = 1 << 6;
/// Every negative status (what `dispel` removes).
pub const NEGATIVE: u8 = POISON | FEAR | CONFUSION | BLIND | STUN;
/// Statuses that end at the end of their owner's turn.
pub const MINOR: u8 = CONFUSION | BLIND | STUN;

pub fn bit(s: Status) -> u8 {
    match s {
        Status::Poison => POISON,
        Status::Fear => FEAR,
        Status::Confusion => CONFUSION,
        Status::Blind => BLIND,
        Status::Stun => STUN,
        Status::Restoration => RESTORATION,
        Status::Siphon => SIPHON,
    }
}

/// Status names in the JSON's fixed order: the card model's order.
pub const STATUS_ORDER: [Status; 7] = Status::ALL;

/// How a match ended (shared by the games' engines).
pub use crate::games::Ended;

/// The winner of a finished match: a side (0 = a, 1 = b) or a draw.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Winner {
    Side(u8),
    Draw,
}

/// A pending `watch` condition.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Watch {
    pub watcher: u8,
    pub kind: ActionKind,
    pub then: super::setup::Span,
    /// Turn number in which it was set.
    pub set_in: u32,
    /// Turn number in which it is armed (0: not yet).
    pub armed: u32,
}

pub const MAX_WATCHES: usize = 8;

/// The whole mutable state of a match.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct State {
    /// Tile value each marker rests on.
    pub hp: [u16; MAX_CHARS],
    pub status: [u8; MAX_CHARS],
    /// Slots whose marker reached the Skull.
    pub skulled: u16,
    /// Slots held by Fear this turn.
    pub held: u16,
    /// Slots Skulled during the current turn (waiting for their Final Act).
    pub skulled_now: u16,
    /// Turns begun.
    pub turn: u32,
    /// Index into `Setup::turn_order` of the next player.
    pub next: u8,
    /// Player of the current (or last) turn.
    pub player: u8,
    pub dice_used: u32,
    pub watches: [Option<Watch>; MAX_WATCHES],
    /// Bit i set when `watches[i]` is occupied (lets turns skip the list when it is empty).
    pub watching: u8,
    pub ended: Option<(Ended, Option<Winner>)>,
}

impl State {
    /// Every marker on its Start tile, no statuses, side a's first player to move.
    pub fn new(setup: &Setup) -> State {
        let mut hp = [0u16; MAX_CHARS];
        for (i, c) in setup.chars.iter().enumerate() {
            hp[i] = c.start;
        }
        let all: u16 = (1u16 << setup.n()) - 1;
        State {
            hp,
            status: [0; MAX_CHARS],
            // Empty slots count as Skulled so masks of the living never include them.
            skulled: !all,
            held: 0,
            skulled_now: 0,
            turn: 0,
            next: 0,
            player: 0,
            dice_used: 0,
            watches: [None; MAX_WATCHES],
            watching: 0,
            ended: None,
        }
    }

    /// Unskulled slots.
    #[inline]
    pub fn alive(&self) -> u16 {
        !self.skulled
    }

    #[inline]
    pub fn is_alive(&self, slot: usize) -> bool {
        self.skulled & (1 << slot) == 0
    }

    #[inline]
    pub fn has(&self, slot: usize, s: u8) -> bool {
        self.status[slot] & s != 0
    }

    pub fn is_over(&self) -> bool {
        self.ended.is_some()
    }

    /// The slots whose statuses include any of `bits` (every slot tested without a branch,
    /// which the compiler turns into a few vector instructions).
    #[inline]
    pub fn marked(&self, bits: u8) -> u16 {
        let mut m = 0u16;
        for (i, s) in self.status.iter().enumerate() {
            m |= u16::from(s & bits != 0) << i;
        }
        m
    }

    /// Statuses of a slot, in the JSON's fixed order.
    pub fn statuses(&self, slot: usize) -> impl Iterator<Item = Status> + '_ {
        STATUS_ORDER
            .into_iter()
            .filter(move |s| self.status[slot] & bit(*s) != 0)
    }
}

/// Iterates the set bits of a slot mask from left to right.
#[inline]
pub fn slots(mask: u16) -> impl Iterator<Item = usize> {
    let mut m = mask;
    std::iter::from_fn(move || {
        if m == 0 {
            None
        } else {
            let i = m.trailing_zeros() as usize;
            m &= m - 1;
            Some(i)
        }
    })
}
