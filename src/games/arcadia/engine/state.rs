//! The match position: a small `Copy` [`State`] (each character in play, where every waylay
//! and treasure lies, whose Day it is, the test under way) and the [`Phase`] saying what the
//! engine waits for: a die (chance), a player's decision among [`Opt`]s, or nothing (over).

use crate::games::arcadia::model::TestKind;

use super::setup::{MAX_BROUGHT, MAX_SEQUENCES, MAX_TREASURES, MAX_WAYLAYS, Match, NO_BASE};

/// A waylay still in its player's hand.
pub const IN_HAND: u8 = 255;
/// A waylay defeated and discarded.
pub const DEFEATED: u8 = 254;
/// A treasure not yet hidden.
pub const UNPLACED: u8 = 255;
/// A treasure picked up by its player.
pub const FOUND: u8 = 254;
/// Every merit type (a `model::type_mask`).
pub const ALL_TYPES: u8 = 0b11111;

/// How a match ended (shared by the games' engines).
pub use crate::games::Ended;

/// What a position waits for, in the engine's own terms ([`State::node`]); the game
/// interface's view of it is [`crate::games::game::Turn`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Node {
    /// A player picks one of `actions` options (`0..actions`).
    Decision { player: usize, actions: usize },
    /// Chance picks one of this many equally likely outcomes.
    Chance(usize),
    /// The game is over.
    Terminal,
}

/// Who won.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Winner {
    /// Player 0 (a) or 1 (b).
    Player(u8),
    Draw,
}

/// The experience the winner earns (rules card 4, "Winning the Game").
pub const WINNER_XP: u32 = 2;

/// A character in play.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Hero {
    /// The league it stands in.
    pub at: u8,
    /// Its Base Camp (`setup::NO_BASE` until chosen in play).
    pub base: u8,
    /// The direction (index of `DIRS`) of the league it came from, for a retreat; `None`
    /// after being placed (start, Base Camp return).
    pub came_from: Option<u8>,
    /// Merits held (the character's own, plus treasures found), exhausted, discarded.
    pub owned: u32,
    pub exhausted: u32,
    pub discarded: u32,
    pub flaws_exhausted: u16,
    /// Leagues entered during play (the starting Base Camp counts once re-entered).
    pub visited: u64,
    /// Has it ever stood outside its Base Camp?
    pub left_base: bool,
    /// It skips its next Day (every merit discarded).
    pub skip: bool,
    /// Where each treasure hidden for it lies (league, [`UNPLACED`] or [`FOUND`]).
    pub treasure_at: [u8; MAX_TREASURES],
    pub treasures_found: u8,
    /// Treasures whose face was seen (found at least once, bit t): one lost again lies face
    /// up, and a seat's determinization ([`State::seen_by`]) keeps it where it lies.
    pub shown: u8,
    /// Treasures whose face the other player has looked at (bit t; a league effect,
    /// Worlds-Edge Scarp): that player's determinization keeps each where it lies.
    pub peeked: u8,
    pub waylays_defeated: u8,
    /// Quests completed (bit i = quest i).
    pub quests_done: u8,
    /// Quests failed (bit i): a time limit passed before quest i was done.
    pub quests_failed: u8,
    /// Steps done of each `then` objective of its quests (`quests::sequences` order).
    pub seq_step: [u8; MAX_SEQUENCES],
    /// Leagues a `reach` step of each `then` objective may count: where the step before it
    /// was done, and every league entered since.
    pub seq_seen: [u64; MAX_SEQUENCES],
}

impl Hero {
    /// Merits it can still use: held, not exhausted, not discarded.
    pub fn ready(&self) -> u32 {
        self.owned & !self.exhausted & !self.discarded
    }
    /// Merits held and not discarded.
    pub fn kept(&self) -> u32 {
        self.owned & !self.discarded
    }
}

/// What a trial is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TrialOf {
    Leave,
    Enter,
    Waylay(u8),
    /// A league's extra trial for staying in it.
    Stay,
    /// A league's extra trial for resting in it.
    Rest,
}

/// A trial under way: one die plus the attribute, pass on >= difficulty.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Trial {
    pub of: TrialOf,
    pub kind: TestKind,
    pub difficulty: i32,
    pub die: u8,
    /// Bonuses from merits exhausted after the roll.
    pub bonus: i32,
}

/// What a test is against.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Foe {
    Waylay(u8),
    /// The other character (a challenge).
    Character,
}

/// A test under way: side 0 is the character whose Day it is, side 1 the waylay or the
/// other character. Dice: side 0's two first, then side 1's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Contest {
    pub foe: Foe,
    pub kind: TestKind,
    pub dice: [u8; 4],
    pub rolled: u8,
    /// Bonuses from exhausted merits, per side.
    pub bonus: [i32; 2],
    /// Penalties from exhausted flaws, per side.
    pub penalty: [i32; 2],
}

/// What follows a lost merit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum After {
    /// Face the test of this waylay (after a failed waylay trial).
    TestWaylay(u8),
    /// The next waylay of the league, or the end of the Day.
    NextWaylay,
    EndDay,
}

/// What the engine waits for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    /// Chance: the first-player roll (player 1's die, then player 2's).
    FirstRoll { p1: Option<u8> },
    /// Decision of `player`: which of its leagues it lays next (a setup laid in play).
    LayLeague { player: u8 },
    /// Decision of `player`: where it lays league `slot`.
    LayAt { player: u8, slot: u8 },
    /// Decision of `chooser`: the other player's Base Camp (a setup laid in play).
    ChooseBase { chooser: u8 },
    /// Decision of `player`: where its next treasure is hidden.
    PlaceTreasure { player: u8 },
    /// Decision of the active player: move or stay.
    Move,
    /// Chance: the trial's die.
    TrialRoll,
    /// Decision of the active player: exhaust a bonus merit to pass a failing trial, or accept.
    TrialWindow,
    /// Decision of the opponent: play a waylay on the league just entered, or hold.
    PlayWaylay,
    /// Decision of the active player: what it encounters (treasure, rest, the other character).
    Encounter,
    /// Decision of the active player: the test type against a waylay.
    ChooseTest { waylay: u8 },
    /// Chance: the test's dice.
    TestRoll,
    /// Decision of `side` of the test (0 active, 1 opponent) that is not winning: use a
    /// merit or flaw, retest, or accept.
    TestWindow { side: u8 },
    /// Decision of `chooser`: which merit `who` exhausts (or discards), among the merit
    /// `types` (a `model::type_mask`; [`ALL_TYPES`] after a lost test); `exhaust` false: a
    /// merit of them to discard.
    LoseMerit {
        who: u8,
        chooser: u8,
        after: After,
        types: u8,
        exhaust: bool,
    },
    /// Decision of the winner of a test between characters: the loser's merit, or a push.
    Spoils { winner: u8 },
    /// Decision of the active player, resting in a league that lets it look at `left` more
    /// of the other player's face-down treasures: which one it looks at.
    LookAt { left: u8 },
    /// Decision of the opponent of `who`: where `who` is placed instead of a Base Camp that
    /// would complete its quest (`ruined`: every merit discarded, else sent back by a waylay).
    Relocate { who: u8, after: After, ruined: bool },
    /// The match is over.
    Over,
}

/// One option of a decision.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Opt {
    /// Lay this league (of the leagues brought).
    Lay(u8),
    /// At this position.
    At(i8, i8),
    /// Hide the treasure in this league.
    Hide(u8),
    /// Move in this direction (index of `DIRS`).
    Go(u8),
    Stay,
    /// Play this waylay.
    Play(u8),
    Hold,
    Treasure,
    Rest,
    Challenge(TestKind),
    /// Face the waylay with this test.
    Test(TestKind),
    /// Face the waylay with this test by exhausting this merit (change test).
    Change(TestKind, u8),
    /// Exhaust this own merit for its bonus.
    Bonus(u8),
    /// Exhaust this own merit to retest.
    Retest(u8),
    /// Exhaust this flaw of the other side for its penalty.
    Penalty(u8),
    Accept,
    /// The merit to exhaust, or to discard.
    Exhaust(u8),
    Discard(u8),
    /// Nothing left to lose: every merit is discarded.
    Ruin,
    /// Push the loser one league in this direction.
    Push(u8),
    /// Place the character in this league.
    Place(u8),
    /// Look at the other player's face-down treasure in this league.
    Look(u8),
}

/// A decision's options, in the `first` order.
#[derive(Debug, Clone, Copy)]
pub struct Opts {
    /// Room for the places beside a line of `MAX_BROUGHT` leagues (2n + 2), the largest
    /// decision.
    items: [Opt; 96],
    len: u8,
}

impl Default for Opts {
    fn default() -> Self {
        Opts {
            items: [Opt::Accept; 96],
            len: 0,
        }
    }
}

impl Opts {
    pub fn push(&mut self, o: Opt) {
        if (self.len as usize) < self.items.len() {
            self.items[self.len as usize] = o;
            self.len += 1;
        }
    }
    pub fn as_slice(&self) -> &[Opt] {
        &self.items[..self.len as usize]
    }
    pub fn len(&self) -> usize {
        self.len as usize
    }
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    /// Empties the list (the room is kept; nothing past the length is read).
    pub fn clear(&mut self) {
        self.len = 0;
    }
}

/// A match position.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct State {
    pub heroes: [Hero; 2],
    /// Where each waylay of [`Match::waylays`] lies: a league, [`IN_HAND`] or [`DEFEATED`].
    pub waylay_at: [u8; MAX_WAYLAYS],
    /// Whose Day it is (0 = player 1, a).
    pub active: u8,
    /// Who moves first (after the roll).
    pub first: u8,
    /// Days begun (a skipped Day included).
    pub day: u32,
    pub dice_used: u32,
    pub phase: Phase,
    /// Waylays faced this Day.
    pub faced: u32,
    /// The move under way: destination and direction.
    pub dest: (u8, u8),
    pub trial: Trial,
    pub contest: Contest,
    pub ended: Option<(Ended, Option<Winner>)>,
    /// Leagues on the board (bit l: league l of [`Match::leagues`]); every league when the
    /// setup file laid them.
    pub laid: u64,
    /// Where each league brought was laid in play, and in what order.
    pub lay_x: [i8; MAX_BROUGHT],
    pub lay_y: [i8; MAX_BROUGHT],
    pub lay_order: [u8; MAX_BROUGHT],
    pub n_laid: u8,
    /// The league laid in play beside each in each direction of `DIRS` (`u8::MAX`: none).
    pub lay_next: [[u8; 4]; MAX_BROUGHT],
}

impl State {
    /// The start of a match: both characters in their Base Camps, every merit ready, the
    /// first-player roll pending.
    pub fn new(m: &Match) -> State {
        let hero = |p: usize| {
            let pl = &m.players[p];
            Hero {
                at: if pl.base == NO_BASE { 0 } else { pl.base },
                base: pl.base,
                came_from: None,
                owned: mask(pl.own),
                exhausted: 0,
                discarded: 0,
                flaws_exhausted: 0,
                visited: 0,
                left_base: false,
                skip: false,
                treasure_at: [UNPLACED; MAX_TREASURES],
                treasures_found: 0,
                shown: 0,
                peeked: 0,
                waylays_defeated: 0,
                quests_done: 0,
                quests_failed: 0,
                seq_step: [0; MAX_SEQUENCES],
                seq_seen: [0; MAX_SEQUENCES],
            }
        };
        let mut waylay_at = [DEFEATED; MAX_WAYLAYS];
        for w in waylay_at.iter_mut().take(m.waylays.len()) {
            *w = IN_HAND;
        }
        State {
            heroes: [hero(0), hero(1)],
            waylay_at,
            active: 0,
            first: 0,
            day: 0,
            dice_used: 0,
            phase: Phase::FirstRoll { p1: None },
            faced: 0,
            dest: (0, 0),
            trial: Trial {
                of: TrialOf::Leave,
                kind: TestKind::Might,
                difficulty: 0,
                die: 0,
                bonus: 0,
            },
            contest: Contest {
                foe: Foe::Character,
                kind: TestKind::Might,
                dice: [0; 4],
                rolled: 0,
                bonus: [0; 2],
                penalty: [0; 2],
            },
            ended: None,
            laid: if m.laid { mask64(m.leagues.len()) } else { 0 },
            lay_x: [0; MAX_BROUGHT],
            lay_y: [0; MAX_BROUGHT],
            lay_order: [0; MAX_BROUGHT],
            n_laid: 0,
            lay_next: [[u8::MAX; 4]; MAX_BROUGHT],
        }
    }

    /// The other player.
    pub fn other(&self) -> u8 {
        1 - self.active
    }

    /// What happens next.
    pub fn node(&self, m: &Match) -> Node {
        match self.phase {
            Phase::Over => Node::Terminal,
            Phase::FirstRoll { .. } | Phase::TrialRoll | Phase::TestRoll => Node::Chance(6),
            _ => {
                let mut o = Opts::default();
                self.options(m, &mut o);
                Node::Decision {
                    player: self.decider() as usize,
                    actions: o.len(),
                }
            }
        }
    }

    /// Does the position wait for a die? ([`State::node`]'s `Chance`, without listing a
    /// decision's options as `node` does to count them.)
    pub fn at_chance(&self) -> bool {
        matches!(
            self.phase,
            Phase::FirstRoll { .. } | Phase::TrialRoll | Phase::TestRoll
        )
    }

    /// The player who decides in the current phase.
    pub fn decider(&self) -> u8 {
        match self.phase {
            Phase::PlaceTreasure { player }
            | Phase::LayLeague { player }
            | Phase::LayAt { player, .. } => player,
            Phase::ChooseBase { chooser } => chooser,
            Phase::PlayWaylay => self.other(),
            Phase::TestWindow { side } => {
                if side == 0 {
                    self.active
                } else {
                    self.other()
                }
            }
            Phase::LoseMerit { chooser, .. } => chooser,
            Phase::Spoils { winner } => winner,
            Phase::Relocate { who, .. } => 1 - who,
            _ => self.active,
        }
    }

    /// The waylays lying in league `l`.
    pub fn waylays_in(&self, m: &Match, l: u8) -> u32 {
        let mut out = 0;
        for i in 0..m.waylays.len() {
            if self.waylay_at[i] == l {
                out |= 1 << i;
            }
        }
        out
    }

    /// Checks the invariants every reachable state keeps; `Err` says which is broken.
    pub fn check(&self, m: &Match) -> Result<(), String> {
        for (p, h) in self.heroes.iter().enumerate() {
            let pl = &m.players[p];
            let all = mask(pl.merits.len());
            if h.owned & !all != 0 || (h.exhausted | h.discarded) & !h.owned != 0 {
                return Err(format!("player {p}: merit masks outside its merits"));
            }
            if h.exhausted & h.discarded != 0 {
                return Err(format!("player {p}: a merit both exhausted and discarded"));
            }
            if h.base != NO_BASE && (h.at as usize >= m.leagues.len() || !self.in_play(h.at)) {
                return Err(format!("player {p}: stands in no league"));
            }
            let n = m.players[p].treasures();
            for t in &h.treasure_at[..n] {
                if (*t as usize) < m.leagues.len() && !self.in_play(*t) {
                    return Err(format!(
                        "player {p}: a treasure hidden in a league not laid"
                    ));
                }
            }
            if u32::from(h.quests_done | h.quests_failed) & !mask(pl.quests.len()) != 0 {
                return Err(format!("player {p}: a quest done that it does not have"));
            }
            if h.quests_done & h.quests_failed != 0 {
                return Err(format!("player {p}: a quest both done and failed"));
            }
            if h.owned.count_ones() as usize != pl.own + h.treasures_found as usize {
                return Err(format!(
                    "player {p}: merits held do not match treasures found"
                ));
            }
        }
        for l in 0..m.leagues.len() as u8 {
            if self.waylays_in(m, l).count_ones() > 1 {
                return Err(format!("league {l} holds more than one waylay"));
            }
        }
        let d = m.turn_limit;
        if self.day > d {
            return Err(format!("day {} beyond the turn limit {d}", self.day));
        }
        Ok(())
    }
}

impl State {
    /// The position as player `seat` may know it, every fact hidden from it re-drawn from
    /// `rng` (rulings, "What each seat sees"): which of the other player's face-down
    /// treasures lies in which of the leagues holding them (the leagues are seen, the faces
    /// not; one `seat` has looked at stays) is dealt anew, and the other player's waylays still in hand are taken out of the
    /// game, since a seat knows no card the other might hold and the engine none but the ones
    /// it holds (so the world a seat searches is one where no waylay is played on it). The
    /// result depends only on what `seat` sees and on `rng`.
    pub fn seen_by(&self, m: &Match, seat: u8, rng: &mut impl rand::Rng) -> State {
        use rand::seq::SliceRandom;
        let mut st = *self;
        if seat > 1 {
            return st;
        }
        let q = 1 - seat;
        for (w, at) in st.waylay_at.iter_mut().enumerate().take(m.waylays.len()) {
            if m.waylay_owner.get(w) == Some(&q) && *at == IN_HAND {
                *at = DEFEATED;
            }
        }
        let n = m.players[usize::from(q)].treasures().min(MAX_TREASURES);
        let h = &mut st.heroes[usize::from(q)];
        let down: Vec<usize> = (0..n)
            .filter(|&t| {
                usize::from(h.treasure_at[t]) < m.leagues.len()
                    && (h.shown | h.peeked) & (1 << t) == 0
            })
            .collect();
        let mut leagues: Vec<u8> = down.iter().map(|&t| h.treasure_at[t]).collect();
        leagues.sort_unstable();
        leagues.shuffle(rng);
        for (&t, l) in down.iter().zip(leagues) {
            h.treasure_at[t] = l;
        }
        st
    }
}

/// The lowest `n` bits set.
pub fn mask(n: usize) -> u32 {
    if n >= 32 { u32::MAX } else { (1u32 << n) - 1 }
}

/// The lowest `n` bits of a `u64` set.
pub fn mask64(n: usize) -> u64 {
    if n >= 64 { u64::MAX } else { (1u64 << n) - 1 }
}

/// A test kind's name.
pub fn kind_name(k: TestKind) -> &'static str {
    match k {
        TestKind::Might => "might",
        TestKind::Savvy => "savvy",
        TestKind::Resolve => "resolve",
        TestKind::Combat => "combat",
    }
}

/// The four test kinds in the order they are offered.
pub const KINDS: [TestKind; 4] = [
    TestKind::Might,
    TestKind::Savvy,
    TestKind::Resolve,
    TestKind::Combat,
];
