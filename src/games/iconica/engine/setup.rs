//! A match-up compiled once: characters as index-based tables (effects in one arena, tiles
//! as bit masks, strengths pre-matched against the board), and the rules in force.

use std::sync::Arc;

use crate::games::iconica::model::{ActionKind, Character, Effect, RollCondition, Status, Target};

/// A card a [`Setup`] is compiled from and keeps (for the match file): a `Character` is
/// copied into the setup, an `Arc<Character>` shared with it, so that a caller compiling
/// many matches of the same characters (balance runs) copies no card per match.
pub trait Member {
    /// The card.
    fn card(&self) -> &Character;
    /// The card as the setup keeps it.
    fn shared(&self) -> Arc<Character>;
}

impl Member for Character {
    fn card(&self) -> &Character {
        self
    }
    fn shared(&self) -> Arc<Character> {
        Arc::new(self.clone())
    }
}

impl Member for Arc<Character> {
    fn card(&self) -> &Character {
        self
    }
    fn shared(&self) -> Arc<Character> {
        Arc::clone(self)
    }
}

/// At most this many characters on the board (two teams of two players, three each).
pub const MAX_CHARS: usize = 12;

/// Which rule text the engine follows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ruleset {
    V2,
    V8,
}

/// v2 Action Break variant (ignored under v8).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Breaks {
    Standard,
    Advanced,
}

/// Rules of a match: ruleset, break variant, house rules (v8 Gameplay Tip 5), turn limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rules {
    pub ruleset: Ruleset,
    pub breaks: Breaks,
    pub reactions: bool,
    pub strengths: bool,
    pub final_acts: bool,
    pub action_breaks: bool,
    pub turn_limit: u32,
}

impl Default for Rules {
    fn default() -> Self {
        Rules {
            ruleset: Ruleset::V2,
            breaks: Breaks::Standard,
            reactions: true,
            strengths: true,
            final_acts: true,
            action_breaks: true,
            turn_limit: 500,
        }
    }
}

impl Rules {
    /// Applies a comma-separated house-rule list (`no-reactions,no-strengths,...`).
    pub fn with_house(mut self, list: &str) -> Result<Rules, SetupError> {
        for item in list.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            match item {
                "no-reactions" => self.reactions = false,
                "no-strengths" => self.strengths = false,
                "no-final-acts" => self.final_acts = false,
                "no-action-breaks" => self.action_breaks = false,
                other => return Err(SetupError::HouseRule(other.to_string())),
            }
        }
        Ok(self)
    }
}

/// Why a match-up cannot be built.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    #[error("a match needs two sides of one or two players each, with 1 to 3 characters a player")]
    Shape,
    #[error("character `{0}` has a Start of {1}; the engine supports Start values up to 1270")]
    StartTooHigh(String, u32),
    #[error("character `{0}` has no action for roll {1}")]
    MissingAction(String, u8),
    #[error(
        "unknown house rule `{0}`; expected no-reactions, no-strengths, no-final-acts or no-action-breaks"
    )]
    HouseRule(String),
}

/// A span of the effect arena.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Span {
    pub start: u16,
    pub len: u16,
}

/// No effect: the `Roll` above a list of its own (see [`Setup::fx_up`]).
pub const NO_FX: u16 = u16::MAX;

/// A compiled effect.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fx {
    Damage(u16, Target),
    Heal(u16, Target),
    Inflict(Status, Target),
    Grant(Status, Target),
    Dispel(Target),
    /// Faces that take `then` (bit f set for face f), `then`, `else`.
    Roll(u8, Span, Span),
    Watch(ActionKind, Span),
}

/// A compiled action.
#[derive(Debug, Clone)]
pub struct CAction {
    /// The slot whose card has it and its index among that card's actions (its name is
    /// read from the card: [`Setup::action_name`]).
    pub slot: u8,
    pub index: u8,
    pub kind: ActionKind,
    /// Roll numbers this action covers (bit n for number n).
    pub numbers: u8,
    pub effects: Span,
}

/// A compiled strength bonus.
#[derive(Debug, Clone, Copy)]
pub struct CStrength {
    /// Action numbers that trigger it (bit n).
    pub numbers: u8,
    /// Board slots it applies against.
    pub against: u16,
    pub effects: Span,
}

/// A set of tiles below 1280 (a Start is at most 1270), one bit per tile value, so a
/// marker's tile is tested with a shift and a mask.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Tiles([u64; 20]);

impl Tiles {
    /// The tiles of a mask of tile/10 bits (see [`CChar::on_tile`]).
    pub fn of(mask: u128) -> Tiles {
        let mut t = Tiles::default();
        let mut rest = mask;
        while rest != 0 {
            let i = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            // i < 128, so tile i * 10 < 1280 always fits.
            t.0[i * 10 / 64] |= 1 << (i * 10 % 64);
        }
        t
    }
    /// Same answer as `CChar::on_tile(mask, tile)` for the mask it was made of.
    #[inline]
    pub fn has(&self, tile: u16) -> bool {
        let t = tile as usize;
        t < 1280 && (self.0[t >> 6] >> (t & 63)) & 1 != 0
    }
}

/// A compiled character (its id and name are read from the card: [`Setup::id`],
/// [`Setup::label`]).
#[derive(Debug, Clone)]
pub struct CChar {
    pub start: u16,
    /// Bit t/10 set when tile t carries the nullifier.
    pub parry: u128,
    /// Nullifier masks by status: poison, fear, confusion, blind, stun.
    pub nullifier: [u128; 5],
    /// (tile, damage) pairs.
    pub reactions: Vec<(u16, u16)>,
    /// Bit t/10 set when tile t carries a Reaction (a quick test before the lookup).
    pub react: u128,
    /// `parry`, `nullifier` and `react` as [`Tiles`] (what the turn tests).
    pub parry_tiles: Tiles,
    pub nullifier_tiles: [Tiles; 5],
    pub react_tiles: Tiles,
    pub action_break: u8,
    /// Index into `Setup::actions` by roll number - 1.
    pub actions: [u16; 6],
    pub strengths: Vec<CStrength>,
    pub final_act: Option<Span>,
    pub sarion: bool,
}

impl CChar {
    #[inline]
    pub fn on_tile(mask: u128, tile: u16) -> bool {
        tile.is_multiple_of(10) && (tile / 10) < 128 && mask & (1u128 << (tile / 10)) != 0
    }
    #[inline]
    pub fn reaction_at(&self, tile: u16) -> Option<u16> {
        if self.react != u128::MAX && !self.react_tiles.has(tile) {
            return None;
        }
        self.reactions.iter().find(|r| r.0 == tile).map(|r| r.1)
    }
}

/// A compiled match-up: board slots (side 0 first, each side left to right), players, rules.
#[derive(Debug, Clone)]
pub struct Setup {
    pub rules: Rules,
    pub chars: Vec<CChar>,
    pub actions: Vec<CAction>,
    pub fx: Vec<Fx>,
    /// For each effect of `fx`: the end of the list it belongs to.
    pub fx_end: Vec<u16>,
    /// For each effect of `fx`: the `Roll` whose branch its list is ([`NO_FX`] for a list
    /// of its own: an action's, a strength's, a Final Act's or a watch's). A turn that
    /// finishes a branch goes on after that `Roll`.
    pub fx_up: Vec<u16>,
    /// Side (0 = a, 1 = b) of each slot.
    pub side: [u8; MAX_CHARS],
    /// Player of each slot (index into `players`).
    pub owner: [u8; MAX_CHARS],
    /// Slot masks of each side.
    pub side_mask: [u16; 2],
    /// Slot masks of each player.
    pub player_mask: Vec<u16>,
    /// Side of each player.
    pub player_side: Vec<u8>,
    /// Players in turn order (side a's players in seating order, then side b's).
    pub turn_order: Vec<u8>,
    /// Slots whose Action Break number is n, by n (index 0 and 7 unused).
    pub break_mask: [u16; 8],
    /// The card of each slot as written: what a match file keeps.
    pub cards: Vec<Arc<Character>>,
}

/// Index of the status bit for the five negative statuses in nullifier tables.
pub fn nullifier_index(s: Status) -> Option<usize> {
    match s {
        Status::Poison => Some(0),
        Status::Fear => Some(1),
        Status::Confusion => Some(2),
        Status::Blind => Some(3),
        Status::Stun => Some(4),
        Status::Restoration | Status::Siphon => None,
    }
}

impl Setup {
    /// Two sides of one party each (the usual match).
    pub fn duel<A: Member, B: Member>(a: &[A], b: &[B], rules: Rules) -> Result<Setup, SetupError> {
        Setup::teams(&[a], &[b], rules)
    }

    /// Two teams; each team is one or two players' parties, in seating order.
    pub fn teams<A: Member, B: Member>(
        a: &[&[A]],
        b: &[&[B]],
        rules: Rules,
    ) -> Result<Setup, SetupError> {
        if a.is_empty() || b.is_empty() || a.len() > 2 || b.len() > 2 {
            return Err(SetupError::Shape);
        }
        let sizes = a.iter().map(|p| p.len()).chain(b.iter().map(|p| p.len()));
        if sizes.clone().any(|n| n == 0 || n > 3) {
            return Err(SetupError::Shape);
        }
        let players: Vec<u8> = a.iter().map(|_| 0).chain(b.iter().map(|_| 1)).collect();
        // (side, player, card, as kept) of each slot.
        let board: Vec<(u8, u8, &Character, Arc<Character>)> = a
            .iter()
            .map(|p| p.iter().map(|m| (m.card(), m.shared())).collect::<Vec<_>>())
            .chain(
                b.iter()
                    .map(|p| p.iter().map(|m| (m.card(), m.shared())).collect::<Vec<_>>()),
            )
            .enumerate()
            .flat_map(|(pi, p)| {
                let side = players[pi];
                p.into_iter().map(move |(c, k)| (side, pi as u8, c, k))
            })
            .collect();
        let mut setup = Setup {
            rules,
            chars: Vec::with_capacity(board.len()),
            actions: Vec::with_capacity(board.len() * 6),
            fx: Vec::with_capacity(board.len() * 16),
            fx_end: Vec::with_capacity(board.len() * 16),
            fx_up: Vec::with_capacity(board.len() * 16),
            side: [0; MAX_CHARS],
            owner: [0; MAX_CHARS],
            side_mask: [0; 2],
            player_mask: vec![0; players.len()],
            player_side: players.clone(),
            turn_order: (0..players.len() as u8).collect(),
            break_mask: [0; 8],
            cards: board.iter().map(|b| Arc::clone(&b.3)).collect(),
        };
        let board: Vec<(u8, u8, &Character)> = board.iter().map(|b| (b.0, b.1, b.2)).collect();
        for (slot, (s, pi, _)) in board.iter().enumerate() {
            setup.side[slot] = *s;
            setup.owner[slot] = *pi;
            setup.side_mask[*s as usize] |= 1 << slot;
            setup.player_mask[*pi as usize] |= 1 << slot;
        }
        for (_, _, c) in &board {
            let cc = setup.compile_char(c, &board)?;
            setup.chars.push(cc);
        }
        for (slot, c) in setup.chars.iter().enumerate() {
            if c.action_break != 0 {
                setup.break_mask[c.action_break as usize] |= 1 << slot;
            }
        }
        Ok(setup)
    }

    fn compile_char(
        &mut self,
        c: &Character,
        board: &[(u8, u8, &Character)],
    ) -> Result<CChar, SetupError> {
        let h = &c.health;
        if h.start > 1270 {
            return Err(SetupError::StartTooHigh(c.id.clone(), h.start));
        }
        let mask = |tiles: &[u32]| {
            tiles
                .iter()
                .filter(|t| **t % 10 == 0 && **t / 10 < 128)
                .fold(0u128, |m, t| m | 1u128 << (t / 10))
        };
        let mut actions = [u16::MAX; 6];
        let slot = self.chars.len() as u8;
        for (index, a) in c.actions.iter().enumerate() {
            let numbers = a
                .roll
                .numbers()
                .iter()
                .filter(|x| (1..=6).contains(*x))
                .fold(0u8, |m, x| m | 1 << x);
            let effects = self.compile_list(&a.effects);
            self.actions.push(CAction {
                slot,
                index: index as u8,
                kind: a.kind,
                numbers,
                effects,
            });
            let idx = (self.actions.len() - 1) as u16;
            for n in 1..=6u8 {
                if numbers & (1 << n) != 0 && actions[n as usize - 1] == u16::MAX {
                    actions[n as usize - 1] = idx;
                }
            }
        }
        if let Some(n) = (1..=6u8).find(|n| actions[*n as usize - 1] == u16::MAX) {
            return Err(SetupError::MissingAction(c.id.clone(), n));
        }
        let strengths = c
            .strengths
            .iter()
            .map(|s| {
                let numbers = s
                    .actions
                    .iter()
                    .filter(|x| (1..=6).contains(*x))
                    .fold(0u8, |m, x| m | 1 << x);
                let against = board
                    .iter()
                    .enumerate()
                    .filter(|(_, (_, _, o))| s.against.matches(o))
                    .fold(0u16, |m, (i, _)| m | 1 << i);
                CStrength {
                    numbers,
                    against,
                    effects: self.compile_list(&s.effects),
                }
            })
            .collect();
        let final_act = c.final_act.as_ref().map(|f| self.compile_list(&f.effects));
        let parry = mask(&h.parry);
        let nullifier = [
            mask(&h.antidote),
            mask(&h.courage),
            mask(&h.focus),
            mask(&h.clarity),
            mask(&h.evasion),
        ];
        let react = h.reactions().fold(0u128, |m, (t, _)| {
            // A tile the mask cannot hold sets every bit: the lookup then decides.
            if t % 10 == 0 && t / 10 < 128 {
                m | 1u128 << (t / 10)
            } else {
                u128::MAX
            }
        });
        Ok(CChar {
            parry_tiles: Tiles::of(parry),
            nullifier_tiles: nullifier.map(Tiles::of),
            react_tiles: Tiles::of(react),
            start: h.start as u16,
            parry,
            nullifier,
            reactions: h
                .reactions()
                .map(|(t, d)| (t as u16, d.min(u16::MAX as u32) as u16))
                .collect(),
            react,
            action_break: c.action_break.filter(|b| (1..=6).contains(b)).unwrap_or(0),
            actions,
            strengths,
            final_act,
            sarion: c.race.trim().eq_ignore_ascii_case("sarion"),
        })
    }

    /// Compiles a list so that its effects are contiguous in the arena.
    fn compile_list(&mut self, list: &[Effect]) -> Span {
        // Children first (they need their own contiguous spans), then this list.
        let compiled: Vec<Fx> = list
            .iter()
            .map(|e| match e {
                Effect::Damage { damage, target } => {
                    Fx::Damage((*damage).min(u16::MAX as u32) as u16, *target)
                }
                Effect::Heal { heal, target } => {
                    Fx::Heal((*heal).min(u16::MAX as u32) as u16, *target)
                }
                Effect::Inflict { inflict, target } => Fx::Inflict(*inflict, *target),
                Effect::Grant { grant, target } => Fx::Grant(*grant, *target),
                Effect::Dispel { target, .. } => Fx::Dispel(*target),
                Effect::Roll {
                    roll,
                    then,
                    otherwise,
                } => {
                    let faces = (1..=6u8)
                        .filter(|f| roll_holds(roll, *f))
                        .fold(0u8, |m, f| m | 1 << f);
                    let t = self.compile_list(then);
                    let o = self.compile_list(otherwise);
                    Fx::Roll(faces, t, o)
                }
                Effect::Watch { watch, then } => {
                    let t = self.compile_list(then);
                    Fx::Watch(*watch, t)
                }
            })
            .collect();
        let start = self.fx.len() as u16;
        let end = start + list.len() as u16;
        for (i, fx) in compiled.iter().enumerate() {
            if let Fx::Roll(_, t, o) = fx {
                for k in (t.start..t.start + t.len).chain(o.start..o.start + o.len) {
                    self.fx_up[k as usize] = start + i as u16;
                }
            }
        }
        self.fx.extend(compiled);
        self.fx_end.resize(self.fx.len(), end);
        self.fx_up.resize(self.fx.len(), NO_FX);
        Span {
            start,
            len: list.len() as u16,
        }
    }

    pub fn n(&self) -> usize {
        self.chars.len()
    }

    /// The action a slot uses on roll number `n`.
    #[inline]
    pub fn action(&self, slot: usize, n: u8) -> &CAction {
        &self.actions[self.chars[slot].actions[n as usize - 1] as usize]
    }

    /// The slot's label for logs: the character's name.
    pub fn label(&self, slot: usize) -> &str {
        &self.cards[slot].name
    }

    /// The slot's card id.
    pub fn id(&self, slot: usize) -> &str {
        &self.cards[slot].id
    }

    /// The name of action `a` (an index into `actions`) as its card writes it.
    pub fn action_name(&self, a: usize) -> &str {
        let act = &self.actions[a];
        &self.cards[act.slot as usize].actions[act.index as usize].name
    }
}

fn roll_holds(r: &RollCondition, face: u8) -> bool {
    r.holds(face)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tiles_agree_with_on_tile() {
        let mask: u128 = (1 << 0) | (1 << 3) | (1 << 9) | (1 << 64) | (1 << 127) | (1 << 100);
        let t = Tiles::of(mask);
        for tile in 0..=u16::MAX {
            assert_eq!(t.has(tile), CChar::on_tile(mask, tile), "tile {tile}");
        }
    }

    #[test]
    fn house_rules_parse_and_reject_unknown_names() {
        let r = Rules::default()
            .with_house("no-reactions, no-final-acts")
            .unwrap();
        assert!(!r.reactions && !r.final_acts && r.strengths && r.action_breaks);
        assert_eq!(
            Rules::default().with_house("no-dice"),
            Err(SetupError::HouseRule("no-dice".into()))
        );
        assert_eq!(Rules::default().with_house(""), Ok(Rules::default()));
    }
}
