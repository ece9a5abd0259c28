//! The match state (fixed-size, cheap to clone), its decisions and how they are applied:
//! rounds, the heroes' activations (tactical, movement, combat), the enemies' turn run by
//! the rules, captures and their clocks, the objective.

use super::RuunaraEnding;
use super::events::{CaptureKind, DeathKind, Event, Log, Reason};
use super::geom::{BASE_R, Pt, facing_to};
use super::setup::{MAX_DICE, MAX_FIGS, MAX_SKILLS, PlayMode, Setup, Side};
use super::sight::Path;
use crate::games::ruunara::mission::{Facing, Objective};
use crate::games::ruunara::model::{Cycle, Dice, EffectTarget, SkillEffect, StateKind};

/// The most options of one decision.
pub const MAX_OPTS: usize = 32;
/// Rounds a captive is held before its execution (at the start of the 4th round after).
pub const CAPTIVE_ROUNDS: u32 = 4;
/// Engaged rounds after which a figure is captured at the start of its side's turn.
pub const HELD_ROUNDS: u32 = 5;
/// Hit points a figure captured by a ranged defeat returns with.
pub const FREED_HP: i16 = 6;
/// Noise carries this far (base to base) and draws an enemy this far a round.
pub const NOISE_RANGE: f64 = 8.0;
pub const NOISE_STEP: f64 = 2.0;
/// Enemies this close to an ally rally or turn.
pub const GROUP_RANGE: f64 = 4.0;
/// Pursuit after a flee: inches a round and rounds.
pub const PURSUIT_STEP: f64 = 5.0;
pub const PURSUIT_ROUNDS: u8 = 2;
/// A hero this close (base to base) to a neutral is in contact with it.
pub const IN_CONTACT: f64 = 0.1;

/// Where a figure is in the match.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Status {
    Free,
    Captured,
    Dead,
}

/// What an enemy is doing between its turns.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Mode {
    /// At (or back at) its post.
    Post,
    /// Walking 2" a round toward a fight it heard.
    Noise(Pt),
    /// Following a hero who fled, for `left` more rounds.
    Pursue { target: u8, left: u8 },
    /// Going back to its post at `speed` inches a round.
    Return { speed: f64 },
    /// Guarding a captive.
    Guard(u8),
}

/// One figure's state.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Fig {
    pub at: Pt,
    /// Its base's radius, inches (the card's `base`; [`super::geom::BASE_R`] by default).
    pub r: f64,
    pub facing: Facing,
    pub hp: i16,
    pub status: Status,
    /// 0 the squad (and a rescued neutral), 1 the enemies and hostile neutrals, 2 a neutral
    /// waiting to be rescued.
    pub team: u8,
    /// The round its current engagement began (0: not engaged).
    pub engaged_since: u32,
    /// A captive: the round at whose start it is executed.
    pub execute_round: u32,
    /// A captive: captured by a ranged defeat (returns with 6 hp).
    pub collapsed: bool,
    /// A captive's guards (bit per figure).
    pub guards: u32,
    pub used_game: [u8; MAX_SKILLS],
    pub used_fight: [u8; MAX_SKILLS],
    /// Skills used in this activation (bit per slot).
    pub used_now: u8,
    /// Skills readied for this activation's attacks (bit per slot).
    pub armed: u8,
    /// Stealth and cover skills used: on through this round.
    pub on_until: [u32; MAX_SKILLS],
    pub acted: bool,
    /// Its attack of this activation is made.
    pub attacked: bool,
    /// It fled this activation: it may move out of its fight.
    pub fleeing: bool,
    pub mode: Mode,
    /// Combat it heard since its last turn (close, or a shot: `heard_shot`).
    pub heard: Option<Pt>,
    /// What it heard was a shot (a fight for its next turn only, unless one goes on there).
    pub heard_shot: bool,
    /// An ally shot at since its last turn (the ally, the shooter).
    pub rally: Option<(u8, u8)>,
    /// Vision +4" through this round (after an instant kill nearby).
    pub alert_until: u32,
    /// States put on it by skills (`state` effects), each on through the round it holds
    /// ([`FIGHT_LONG`]: until its fight ends), indexed by [`StateKind`] order: silenced,
    /// held, disarmed, hexed.
    pub states: [u32; 4],
    /// The score a hex lets it hit on at best.
    pub hex_score: u8,
    /// An ally's ward: the next enemy attack on it lands no hit.
    pub ward: bool,
    /// Rounds counted toward its capture beyond those it was engaged (`capture_clock`).
    pub extra_rounds: u8,
}

/// A state that lasts until the end of its fight (its next fight when it is not engaged).
pub const FIGHT_LONG: u32 = u32::MAX;

/// The place of a state in [`Fig::states`].
pub fn state_index(k: StateKind) -> usize {
    match k {
        StateKind::Silenced => 0,
        StateKind::Held => 1,
        StateKind::Disarmed => 2,
        StateKind::Hexed => 3,
    }
}

/// A decision's option.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Opt {
    /// The heroes' turn: this ally acts next.
    Activate(u8),
    /// End the tactical phase (no more skills), stay in place, or end the combat phase.
    Done,
    /// Use skill slot `slot` (on figure `target`, or `NONE`).
    Skill { slot: u8, target: u8 },
    /// Move to engage this hostile (or advance as far as it can toward it).
    Engage(u8),
    /// Move toward the rescue target.
    ToTarget,
    /// Move toward the exit zone.
    ToExit,
    /// Move straight in this direction as far as the movement goes.
    Line(Facing),
    /// Turn in place to face this hostile.
    Face(u8),
    /// The path dragged in the app.
    Dragged,
    /// Deploy the member on spot (`col`, `row`) of its zone's grid
    /// ([`crate::games::ruunara::mission::zone_spot`]).
    Place { col: u8, row: u8 },
    /// Deploy the member where it was dropped in the app ([`State::drop`]).
    Dropped,
    /// A close-combat attack on this engaged hostile.
    Close(u8),
    /// A ranged attack at this hostile.
    Ranged(u8),
    /// An extra attack of skill slot `slot` on `target`.
    Extra { slot: u8, target: u8 },
}

/// No target.
pub const NONE: u8 = u8::MAX;

/// What the match waits for.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Phase {
    /// The seat places this squad member in its deployment zone (before round 1).
    Deploy(u8),
    /// The seat picks the next ally to act.
    Pick,
    /// An ally's tactical phase: skills.
    Tactical(u8),
    /// An ally's movement.
    Move(u8),
    /// An ally's combat phase.
    Combat(u8),
    /// Dice for the attack in progress.
    Roll,
    /// The enemies act, from this figure on.
    Enemies(u8),
    Over,
}

/// Where play goes on once an attack's dice are in.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum After {
    Tactical(u8),
    Combat(u8),
    Enemies(u8),
}

/// An attack in progress: its dice as they come in.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Attack {
    pub by: u8,
    /// The figure it goes at (the foreground figure for a shot).
    pub target: u8,
    pub kind: super::events::RollKind,
    pub dice: Dice,
    /// Instant kill on this or more (0: none).
    pub instant: u8,
    pub reroll: bool,
    /// Hit points each hit costs (1 but for a skill's `damage`).
    pub damage: u8,
    /// The figure it was aimed at (a shot's `target` is the foreground figure).
    pub aimed: u8,
    /// The roll it waits for (the attack's own, its reroll, or cover).
    pub stage: super::events::RollKind,
    pub faces: [u8; MAX_DICE],
    pub n: u8,
    pub got: u8,
    /// Dice to roll again (their places in `faces`).
    pub redo: [u8; MAX_DICE],
    pub redo_n: u8,
    pub hits: u8,
    pub kills: u8,
    pub cover: [u8; MAX_DICE],
    /// Area: the figures it strikes (bit per figure).
    pub area: u32,
    /// Area at a point (ranged, capture) rather than the fight around it (close).
    pub area_ranged: bool,
    /// A skill's trigger die ([`super::events::RollKind::Trigger`]): the slot of the skill
    /// whose effect lands on a die at or above `dice.min`.
    pub slot: u8,
    /// The save rolled against the hits ([`super::events::RollKind::Save`]): cancels on
    /// this or more.
    pub save_on: u8,
}

/// The match state.
#[derive(Debug, Clone)]
pub struct State {
    pub figs: [Fig; MAX_FIGS],
    pub n: u8,
    pub round: u32,
    pub phase: Phase,
    pub attack: Attack,
    pub after: After,
    pub ended: Option<RuunaraEnding>,
    /// The rescue target has joined the squad.
    pub joined: bool,
    pub(crate) opts: [Opt; MAX_OPTS],
    pub(crate) n_opts: u8,
    /// The dragged path offered as [`Opt::Dragged`].
    pub drag: Path,
    /// Watching the enemies' turn (a face showing it enemy by enemy): how many more enemy
    /// activations run before play pauses in front of the next one; `None` never pauses.
    pub(crate) watch: Option<u8>,
    /// Squad members still to be placed in their zones (bit per figure).
    pub waiting: u32,
    /// The point a member was dropped at, offered as [`Opt::Dropped`].
    pub drop: Pt,
    /// How far the enemy of [`Phase::Enemies`] is in its activation ([`EnemyStep`]).
    pub(crate) estep: EnemyStep,
    /// Free figures whose fight ended since the last `fight_ended` event (bit per figure).
    pub(crate) fights_over: u32,
    /// The seat whose pick [`Phase::Pick`] is (duo and contest alternate it after each
    /// activation; always 0 in solo play).
    pub pick: u8,
}

/// The steps of an enemy's activation (`engine/enemy.rs`); an attack's dice interrupt a
/// step and play resumes at the same one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum EnemyStep {
    /// Its activation begins.
    Start,
    /// Its tactical phase: the skills it uses before it moves.
    Tactical,
    /// The spec's behaviour: attack, shoot or move.
    Act,
    /// Its extra attacks after its attack.
    Extra,
    /// Done: the next enemy.
    End,
}

const BLANK_FIG: Fig = Fig {
    at: Pt::new(0.0, 0.0),
    r: BASE_R,
    facing: Facing::N,
    hp: 0,
    status: Status::Dead,
    team: 2,
    engaged_since: 0,
    execute_round: 0,
    collapsed: false,
    guards: 0,
    used_game: [0; MAX_SKILLS],
    used_fight: [0; MAX_SKILLS],
    used_now: 0,
    armed: 0,
    on_until: [0; MAX_SKILLS],
    acted: false,
    attacked: false,
    fleeing: false,
    mode: Mode::Post,
    heard: None,
    heard_shot: false,
    rally: None,
    alert_until: 0,
    states: [0; 4],
    hex_score: 0,
    ward: false,
    extra_rounds: 0,
};

pub(crate) const BLANK_ATTACK: Attack = Attack {
    by: 0,
    target: 0,
    kind: super::events::RollKind::Close,
    dice: Dice { count: 0, min: 6 },
    instant: 0,
    reroll: false,
    damage: 1,
    aimed: 0,
    stage: super::events::RollKind::Close,
    faces: [0; MAX_DICE],
    n: 0,
    got: 0,
    redo: [0; MAX_DICE],
    redo_n: 0,
    hits: 0,
    kills: 0,
    cover: [0; MAX_DICE],
    area: 0,
    area_ranged: false,
    slot: 0,
    save_on: 0,
};

impl Fig {
    /// Its base where it stands.
    #[inline]
    pub fn base(&self) -> super::geom::Base {
        super::geom::Base::new(self.at, self.r)
    }
}

impl State {
    /// The start of a match: figures deployed, round 1, the heroes' first decision.
    pub fn new(s: &Setup, log: &mut impl Log) -> State {
        let mut figs = [BLANK_FIG; MAX_FIGS];
        for (i, f) in s.figs.iter().enumerate().take(MAX_FIGS) {
            figs[i] = Fig {
                at: f.start,
                r: f.r,
                facing: f.facing,
                hp: f.hp,
                status: Status::Free,
                team: match f.side {
                    Side::Hero => 0,
                    Side::Enemy | Side::Neutral { hostile: true } => 1,
                    Side::Neutral { hostile: false } => 2,
                },
                ..BLANK_FIG
            };
        }
        let mut st = State {
            figs,
            n: s.figs.len().min(MAX_FIGS) as u8,
            round: 0,
            phase: Phase::Pick,
            attack: BLANK_ATTACK,
            after: After::Enemies(0),
            ended: None,
            joined: false,
            opts: [Opt::Done; MAX_OPTS],
            n_opts: 0,
            drag: Path::default(),
            watch: None,
            waiting: 0,
            drop: Pt::new(0.0, 0.0),
            estep: EnemyStep::Start,
            fights_over: 0,
            pick: 0,
        };
        for (i, f) in s.figs.iter().enumerate().take(MAX_FIGS) {
            if f.zone.is_some() {
                st.waiting |= 1 << i;
            }
        }
        if st.waiting != 0 {
            // The squad's zone members are placed first, by the seat, in squad order.
            st.phase = Phase::Deploy(st.waiting.trailing_zeros() as u8);
            st.settle(s, log);
            return st;
        }
        if log.keeps() {
            log.push(Event::Deployed {
                figs: st.figs[..usize::from(st.n)]
                    .iter()
                    .map(|f| (f.at, f.facing, f.hp))
                    .collect(),
            });
        }
        st.refresh();
        st.start_round(s, log);
        st.settle(s, log);
        st
    }

    /// The options of the current decision.
    pub fn options(&self) -> &[Opt] {
        &self.opts[..usize::from(self.n_opts)]
    }

    /// Whether the match waits for a die.
    pub fn needs_die(&self) -> bool {
        self.phase == Phase::Roll
    }

    pub fn is_over(&self) -> bool {
        self.phase == Phase::Over
    }

    /// The figure whose activation is under way.
    pub fn active(&self) -> Option<usize> {
        match self.phase {
            Phase::Tactical(i) | Phase::Move(i) | Phase::Combat(i) => Some(usize::from(i)),
            _ => None,
        }
    }

    /// Figure indices `0..n`.
    pub fn ids(&self) -> std::ops::Range<usize> {
        0..usize::from(self.n)
    }

    /// Applies option `a` of the decision, or a die face `a + 1`.
    pub fn apply(&mut self, s: &Setup, a: usize, log: &mut impl Log) {
        match self.phase {
            Phase::Over | Phase::Enemies(_) => return,
            Phase::Roll => self.die(s, (a.min(5) + 1) as u8, log),
            _ => {
                if self.n_opts == 0 {
                    return;
                }
                let o = self.opts[a.min(usize::from(self.n_opts) - 1)];
                self.take(s, o, log);
            }
        }
        self.settle(s, log);
    }

    /// Runs what needs no decision: single options, the enemies' turn, round changes.
    pub(crate) fn settle(&mut self, s: &Setup, log: &mut impl Log) {
        loop {
            self.flush_fights(log);
            if let Some(e) = self.ended
                && self.phase != Phase::Over
            {
                self.phase = Phase::Over;
                self.n_opts = 0;
                log.push(Event::Ended {
                    ending: e,
                    round: self.round,
                });
            }
            match self.phase {
                Phase::Over | Phase::Roll => {
                    self.n_opts = 0;
                    return;
                }
                Phase::Enemies(_) => {
                    if self.run_enemies(s, log) {
                        self.n_opts = 0;
                        return;
                    }
                }
                _ => {
                    self.fill_opts(s);
                    match self.n_opts {
                        0 => self.no_options(s, log),
                        1 => {
                            let o = self.opts[0];
                            self.take(s, o, log);
                        }
                        _ => return,
                    }
                }
            }
        }
    }

    fn no_options(&mut self, s: &Setup, log: &mut impl Log) {
        match self.phase {
            // Never with a setup that checked its zones' room: the member stays out.
            Phase::Deploy(i) => {
                self.figs[usize::from(i)].status = Status::Dead;
                self.figs[usize::from(i)].hp = 0;
                self.placed(s, usize::from(i), log);
            }
            // In a contest both sides have acted: the round is over.
            Phase::Pick if s.mode == PlayMode::Contest => self.end_round(s, log),
            Phase::Pick => self.start_enemies(s, log),
            Phase::Tactical(i) => self.phase = Phase::Move(i),
            Phase::Move(i) => self.phase = Phase::Combat(i),
            Phase::Combat(i) => self.end_activation(s, usize::from(i), log),
            _ => {}
        }
    }

    // ----- rounds -----

    pub(crate) fn start_round(&mut self, s: &Setup, log: &mut impl Log) {
        self.round += 1;
        if self.round > s.round_limit {
            self.round = s.round_limit;
            self.ended = Some(RuunaraEnding::RoundLimit);
            return;
        }
        log.push(Event::Round { round: self.round });
        for i in self.ids() {
            if self.figs[i].status == Status::Captured && self.figs[i].execute_round <= self.round {
                self.kill(s, i, None, DeathKind::ClockRanOut, log);
            }
        }
        self.refresh();
        let contest = s.mode == PlayMode::Contest;
        // A contest has no turn of a side: the sides alternate activations in the round.
        if !contest {
            log.push(Event::TurnOf { heroes: true });
        }
        for i in self.ids() {
            if self.figs[i].team == 0 || (contest && self.figs[i].team == 1) {
                self.figs[i].acted = false;
            }
        }
        self.hold_captures(s, 0, log);
        if contest {
            self.hold_captures(s, 1, log);
        }
        self.check_end(s);
        self.pick = 0;
        self.phase = Phase::Pick;
    }

    fn start_enemies(&mut self, s: &Setup, log: &mut impl Log) {
        log.push(Event::TurnOf { heroes: false });
        self.hold_captures(s, 1, log);
        self.check_end(s);
        self.phase = Phase::Enemies(0);
        self.estep = EnemyStep::Start;
    }

    fn end_round(&mut self, s: &Setup, log: &mut impl Log) {
        if let Objective::Survive { rounds } = s.objective
            && self.round >= rounds
            && self.squad_free(s)
        {
            self.ended = Some(RuunaraEnding::Survived);
            return;
        }
        self.start_round(s, log);
    }

    /// The enemies act in mission order until one needs dice or all have acted. Each
    /// enemy's activation goes through [`EnemyStep`]s; an attack's dice interrupt it and play
    /// resumes at the same enemy and step once they are in. True when it paused in front of
    /// an enemy for a watcher ([`State::watch`]).
    fn run_enemies(&mut self, s: &Setup, log: &mut impl Log) -> bool {
        while let Phase::Enemies(k) = self.phase {
            let i = usize::from(k);
            if self.ended.is_some() {
                return false;
            }
            if i >= usize::from(self.n) {
                self.end_round(s, log);
                return false;
            }
            if self.figs[i].team != 1 || self.figs[i].status != Status::Free {
                self.phase = Phase::Enemies(k + 1);
                self.estep = EnemyStep::Start;
                continue;
            }
            let attack = match self.estep {
                EnemyStep::Start => {
                    if let Some(w) = self.watch {
                        if w == 0 {
                            return true;
                        }
                        self.watch = Some(w - 1);
                    }
                    log.push(Event::Activate { fig: k });
                    let f = &mut self.figs[i];
                    f.used_now = 0;
                    f.armed = 0;
                    f.attacked = false;
                    self.estep = EnemyStep::Tactical;
                    None
                }
                EnemyStep::Tactical => {
                    let a = self.enemy_tactical(s, i, log);
                    if a.is_none() {
                        self.estep = EnemyStep::Act;
                    }
                    a
                }
                EnemyStep::Act => {
                    self.estep = EnemyStep::Extra;
                    let a = self.enemy_act(s, i, log);
                    a.map(|a| self.enemy_arms(s, i, a, log))
                }
                EnemyStep::Extra => {
                    let a = self.enemy_extra(s, i, log);
                    if a.is_none() {
                        self.estep = EnemyStep::End;
                    }
                    a.map(|a| self.enemy_arms(s, i, a, log))
                }
                EnemyStep::End => {
                    self.figs[i].armed = 0;
                    self.check_end(s);
                    self.phase = Phase::Enemies(k + 1);
                    self.estep = EnemyStep::Start;
                    None
                }
            };
            if let Some(a) = attack {
                self.begin_attack(a, After::Enemies(k), log);
                return false;
            }
        }
        false
    }

    /// Figures of `team` engaged for more than 4 rounds are captured by those engaged with
    /// them.
    fn hold_captures(&mut self, s: &Setup, team: u8, log: &mut impl Log) {
        for i in self.ids() {
            let f = &self.figs[i];
            if f.team != team || f.status != Status::Free || f.engaged_since == 0 {
                continue;
            }
            let held = self.round + 1 - f.engaged_since + u32::from(f.extra_rounds);
            if held >= self.held_rounds(s, i) {
                let mut guards = 0u32;
                for j in self.ids() {
                    if self.engaged_with(i, j) {
                        guards |= 1 << j;
                    }
                }
                self.capture(i, CaptureKind::Held, guards, log);
            }
        }
    }

    pub(crate) fn capture(&mut self, i: usize, how: CaptureKind, guards: u32, log: &mut impl Log) {
        let execute = self.round + CAPTIVE_ROUNDS;
        let f = &mut self.figs[i];
        f.status = Status::Captured;
        f.collapsed = how == CaptureKind::Collapsed;
        f.guards = guards;
        f.execute_round = execute;
        f.engaged_since = 0;
        for j in 0..usize::from(self.n) {
            if guards & (1 << j) != 0 && self.figs[j].team == 1 {
                self.figs[j].mode = Mode::Guard(i as u8);
            }
        }
        if log.keeps() {
            log.push(Event::Captured {
                fig: i as u8,
                how,
                guards: bits(guards),
                execute,
            });
        }
        self.refresh();
    }

    /// Figure `i` leaves play; captives it guarded lose a guard (freed when none is left).
    pub(crate) fn kill(
        &mut self,
        s: &Setup,
        i: usize,
        by: Option<usize>,
        how: DeathKind,
        log: &mut impl Log,
    ) {
        self.figs[i].status = Status::Dead;
        self.figs[i].hp = 0;
        log.push(Event::Died {
            fig: i as u8,
            by: by.map(|b| b as u8),
            how,
        });
        if matches!(how, DeathKind::Executed | DeathKind::ClockRanOut) {
            self.executed(s, i, log);
        }
        for c in self.ids() {
            if self.figs[c].status == Status::Captured && self.figs[c].guards & (1 << i) != 0 {
                self.figs[c].guards &= !(1 << i);
                if self.figs[c].guards == 0 {
                    self.free(s, c, log);
                }
            }
        }
        self.refresh();
        self.flush_fights(log);
    }

    /// A captive is free again: 6 hp after a ranged defeat, else the hp it had.
    pub(crate) fn free(&mut self, s: &Setup, c: usize, log: &mut impl Log) {
        let max = s.figs[c].hp;
        let f = &mut self.figs[c];
        f.status = Status::Free;
        if f.collapsed {
            f.hp = FREED_HP.min(max).max(1);
        }
        f.hp = f.hp.max(1);
        f.collapsed = false;
        f.guards = 0;
        f.execute_round = 0;
        f.acted = true;
        f.mode = Mode::Post;
        log.push(Event::Freed {
            fig: c as u8,
            hp: f.hp,
        });
        for j in 0..usize::from(self.n) {
            if self.figs[j].mode == Mode::Guard(c as u8) {
                self.figs[j].mode = Mode::Return {
                    speed: s.figs[j].movement,
                };
            }
        }
        self.refresh();
    }

    /// Updates who is engaged since when; a fight that ends resets per-fight skill uses.
    pub(crate) fn refresh(&mut self) {
        let n = usize::from(self.n);
        // Only a free figure of one side and a free figure of the other engage
        // (`sight::engages`), and engagement is mutual: the free figures of each side are
        // listed once and each pair across them is checked once.
        let (mut side0, mut side1) = ([0u8; MAX_FIGS], [0u8; MAX_FIGS]);
        let (mut n0, mut n1) = (0, 0);
        for (i, f) in self.figs[..n].iter().enumerate() {
            if f.status != Status::Free {
                continue;
            }
            match f.team {
                0 => {
                    side0[n0] = i as u8;
                    n0 += 1;
                }
                1 => {
                    side1[n1] = i as u8;
                    n1 += 1;
                }
                _ => {}
            }
        }
        let mut engaged = 0u32;
        for &a in &side0[..n0] {
            let f = &self.figs[usize::from(a)];
            for &b in &side1[..n1] {
                if engaged & (1 << a) != 0 && engaged & (1 << b) != 0 {
                    continue;
                }
                if super::sight::within_engage(f, &self.figs[usize::from(b)]) {
                    engaged |= (1 << a) | (1 << b);
                }
            }
        }
        for i in 0..n {
            if self.figs[i].status != Status::Free {
                continue;
            }
            let e = engaged & (1 << i) != 0;
            let f = &mut self.figs[i];
            if e && f.engaged_since == 0 {
                f.engaged_since = self.round.max(1);
            } else if !e && f.engaged_since != 0 {
                f.engaged_since = 0;
                f.used_fight = [0; MAX_SKILLS];
                f.extra_rounds = 0;
                for st in &mut f.states {
                    if *st == FIGHT_LONG {
                        *st = 0;
                    }
                }
                self.fights_over |= 1 << i;
            }
        }
    }

    /// Logs the fights that ended since the last call (`fight_ended`, the figures whose
    /// fight it was that are still free).
    pub(crate) fn flush_fights(&mut self, log: &mut impl Log) {
        if self.fights_over == 0 {
            return;
        }
        if log.keeps() {
            log.push(Event::FightEnded {
                figs: bits(self.fights_over),
                round: self.round,
            });
        }
        self.fights_over = 0;
    }

    /// Whether a squad member is free.
    pub fn squad_free(&self, s: &Setup) -> bool {
        (0..s.heroes.min(usize::from(self.n))).any(|i| self.figs[i].status == Status::Free)
    }

    /// Sets [`State::ended`] when the objective is met or the mission lost.
    pub(crate) fn check_end(&mut self, s: &Setup) {
        if self.ended.is_some() {
            return;
        }
        let won = match s.objective {
            // Every enemy dead, or captured with no figure of the enemies' side (an enemy or
            // a hostile neutral) left free to rescue it.
            Objective::Eliminate => {
                let mut left = false;
                let mut held = false;
                let mut rescuer = false;
                for i in self.ids() {
                    let free = self.figs[i].status == Status::Free;
                    if s.figs[i].side == Side::Enemy {
                        left |= free;
                        // An enemy still free: not won, whatever the rest.
                        if left {
                            break;
                        }
                        held |= self.figs[i].status == Status::Captured;
                    }
                    rescuer |= free && self.figs[i].team == 1;
                }
                (!(left || held && rescuer)).then_some(RuunaraEnding::Eliminated)
            }
            Objective::Rescue { exit, .. } => {
                let t = s.rescue_target().unwrap_or(0);
                if self.figs[t].status == Status::Dead {
                    self.ended = Some(RuunaraEnding::TargetLost);
                    return;
                }
                let z = super::geom::Rect::new(exit.x, exit.y, exit.w, exit.d);
                (self.joined && self.figs[t].status == Status::Free && z.contains(self.figs[t].at))
                    .then_some(RuunaraEnding::Rescued)
            }
            // A captured hero must be freed (or executed) first.
            Objective::Reach { exit } => {
                let z = super::geom::Rect::new(exit.x, exit.y, exit.w, exit.d);
                let held = (0..s.heroes).any(|i| self.figs[i].status == Status::Captured);
                let mut free = (0..s.heroes)
                    .filter(|&i| self.figs[i].status == Status::Free)
                    .filter(|_| !held);
                let first = free.next();
                (first.is_some_and(|i| z.contains(self.figs[i].at))
                    && free.all(|i| z.contains(self.figs[i].at)))
                .then_some(RuunaraEnding::Reached)
            }
            Objective::Survive { .. } => None,
        };
        if won.is_some() {
            self.ended = won;
        } else if !self.squad_free(s) {
            self.ended = Some(RuunaraEnding::SquadLost);
        }
    }

    // ----- the heroes' decisions -----

    pub(crate) fn push_opt(&mut self, o: Opt) {
        if usize::from(self.n_opts) < MAX_OPTS {
            self.opts[usize::from(self.n_opts)] = o;
            self.n_opts += 1;
        }
    }

    /// Whether skill slot `slot` of `i` has a use left (and was not used this activation).
    pub fn can_use(&self, s: &Setup, i: usize, slot: usize) -> bool {
        let Some(d) = s.figs[i].skills[slot] else {
            return false;
        };
        let f = &self.figs[i];
        if f.used_now & (1 << slot) != 0 {
            return false;
        }
        // Silenced: no skill used by choice (its constant skills go on).
        if d.cycle != Cycle::Constant && self.in_state(i, StateKind::Silenced) {
            return false;
        }
        match d.cycle {
            Cycle::PerFight(n) => u32::from(f.used_fight[slot]) < n,
            Cycle::PerGame(n) => u32::from(f.used_game[slot]) < n,
            Cycle::Constant => true,
        }
    }

    pub(crate) fn use_skill(&mut self, i: usize, slot: usize) {
        let f = &mut self.figs[i];
        f.used_now |= 1 << slot;
        f.used_fight[slot] = f.used_fight[slot].saturating_add(1);
        f.used_game[slot] = f.used_game[slot].saturating_add(1);
    }

    /// The range of a skill that reaches a point or an ally: its own, else the figure's
    /// ranged attack's, else its vision.
    pub fn skill_range(s: &Setup, i: usize, own: Option<f64>) -> f64 {
        own.filter(|r| *r > 0.0)
            .unwrap_or(if s.figs[i].range > 0.0 {
                s.figs[i].range
            } else {
                s.figs[i].vision
            })
    }

    /// Whether `j` is a figure `i`'s heal of an ally reaches: a free figure of its side
    /// (itself included) within the skill's range.
    pub(crate) fn heal_reaches(&self, s: &Setup, i: usize, j: usize, range: f64) -> bool {
        self.figs[j].status == Status::Free
            && self.figs[j].team == self.figs[i].team
            && self.gap(i, j) <= State::skill_range(s, i, Some(range)).max(range)
    }

    /// The figures an area skill of `i` strikes: every hostile engaged with it (`radius`
    /// `None`), or every free hostile within `radius` of figure `at`'s centre.
    pub(crate) fn area_mask(&self, i: usize, radius: Option<f64>, at: usize) -> u32 {
        let mut mask = 0u32;
        match radius {
            None => {
                for j in self.ids() {
                    if self.engaged_with(i, j) {
                        mask |= 1 << j;
                    }
                }
            }
            Some(r) => {
                let p = self.figs[at].at;
                for j in self.ids() {
                    if self.figs[j].status == Status::Free
                        && self.hostile(i, j)
                        && (p.dist(self.figs[j].at) - self.figs[j].r).max(0.0) <= r + 1e-9
                    {
                        mask |= 1 << j;
                    }
                }
            }
        }
        mask
    }

    /// Heals `target` by `amount` (never above its card's hit points), logged.
    pub(crate) fn heal(
        &mut self,
        s: &Setup,
        i: usize,
        target: usize,
        amount: u32,
        log: &mut impl Log,
    ) {
        let max = s.figs[target].hp;
        let before = self.figs[target].hp;
        self.figs[target].hp = (before + amount.min(99) as i16).min(max);
        log.push(Event::Healed {
            fig: i as u8,
            target: target as u8,
            amount: self.figs[target].hp - before,
            hp: self.figs[target].hp,
        });
    }

    /// Free hostiles of `i`, nearest first (at most `out.len()`); how many.
    fn nearest_hostiles(&self, i: usize, out: &mut [u8; MAX_FIGS]) -> usize {
        let mut k = 0;
        // Each distance worked out once, not in every comparison.
        let mut by = [(0.0, 0u8); MAX_FIGS];
        for j in self.ids() {
            if self.figs[j].status == Status::Free && self.hostile(i, j) {
                by[k] = (self.reach(i, j), j as u8);
                k += 1;
            }
        }
        by[..k].sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        for (o, (_, j)) in out.iter_mut().zip(&by[..k]) {
            *o = *j;
        }
        k
    }

    pub(crate) fn fill_opts(&mut self, s: &Setup) {
        self.n_opts = 0;
        match self.phase {
            Phase::Pick => {
                // The seat whose pick it is activates one of its figures; when it has none
                // left to act, the other seat goes on (duo and contest).
                let seats: &[u8] = match s.mode {
                    PlayMode::Solo => &[0],
                    PlayMode::Duo | PlayMode::Contest => &[self.pick, 1 - self.pick.min(1)],
                };
                for &seat in seats {
                    for i in self.ids() {
                        let f = &self.figs[i];
                        if f.status == Status::Free
                            && !f.acted
                            && s.seat_of(i, f.team) == Some(usize::from(seat))
                        {
                            self.push_opt(Opt::Activate(i as u8));
                        }
                    }
                    if self.n_opts > 0 {
                        self.pick = seat;
                        break;
                    }
                }
            }
            Phase::Deploy(i) => self.deploy_opts(s, usize::from(i)),
            Phase::Tactical(i) => self.tactical_opts(s, usize::from(i)),
            Phase::Move(i) => self.move_opts(s, usize::from(i)),
            Phase::Combat(i) => self.combat_opts(s, usize::from(i)),
            _ => {}
        }
    }

    fn tactical_opts(&mut self, s: &Setup, i: usize) {
        // Only a flight or an area reads whether `i` is engaged: worked out for those alone.
        let engaged = s.figs[i].skills().any(|(_, d)| {
            matches!(
                d.effect,
                SkillEffect::Flee { .. } | SkillEffect::Area { .. }
            )
        }) && self.engaged(i);
        self.tactical_opts_engaged(s, i, engaged);
    }

    /// [`State::tactical_opts`] with whether `i` is engaged already known.
    fn tactical_opts_engaged(&mut self, s: &Setup, i: usize, engaged: bool) {
        self.push_opt(Opt::Done);
        for (slot, d) in s.figs[i].skills() {
            if !self.can_use(s, i, slot) {
                continue;
            }
            let sl = slot as u8;
            let constant = d.cycle == Cycle::Constant;
            match d.effect {
                // A heal answering an event is not used by choice.
                SkillEffect::Heal {
                    execution: Some(_), ..
                } => {}
                SkillEffect::Heal { target, range, .. } => {
                    for j in self.ids() {
                        let ok = match target {
                            EffectTarget::Own => j == i,
                            _ => self.heal_reaches(s, i, j, range),
                        };
                        if ok
                            && self.figs[j].status == Status::Free
                            && self.figs[j].hp < s.figs[j].hp
                        {
                            self.push_opt(Opt::Skill {
                                slot: sl,
                                target: j as u8,
                            });
                        }
                    }
                }
                SkillEffect::Flee { .. } if engaged => self.push_opt(Opt::Skill {
                    slot: sl,
                    target: NONE,
                }),
                SkillEffect::Area { radius: None, .. } if engaged => self.push_opt(Opt::Skill {
                    slot: sl,
                    target: NONE,
                }),
                SkillEffect::Area {
                    radius: Some(_),
                    range,
                    ..
                } if !engaged => {
                    let reach = State::skill_range(s, i, range);
                    for j in self.ids() {
                        if self.hostile(i, j)
                            && self.gap(i, j) <= reach
                            && self.sees(s, i, j, false)
                        {
                            self.push_opt(Opt::Skill {
                                slot: sl,
                                target: j as u8,
                            });
                        }
                    }
                }
                SkillEffect::InstantKill { spell: true, .. } => {
                    self.composed_opts(s, i, slot, d.effect)
                }
                SkillEffect::InstantKill { .. }
                | SkillEffect::Reroll
                | SkillEffect::Stealth { .. }
                | SkillEffect::Cover { .. }
                    if !constant =>
                {
                    self.push_opt(Opt::Skill {
                        slot: sl,
                        target: NONE,
                    })
                }
                SkillEffect::Save { .. }
                | SkillEffect::State { .. }
                | SkillEffect::HitBonus { .. }
                | SkillEffect::Vision { .. }
                | SkillEffect::CaptureClock { .. }
                | SkillEffect::HoldOut { .. }
                | SkillEffect::Silent
                | SkillEffect::Hunt
                | SkillEffect::KeepAway { .. }
                    if !constant =>
                {
                    self.composed_opts(s, i, slot, d.effect)
                }
                _ => {}
            }
        }
    }

    fn move_opts(&mut self, s: &Setup, i: usize) {
        let f = &self.figs[i];
        let (fleeing, team, at, facing) = (f.fleeing, f.team, f.at, f.facing);
        if !fleeing && self.engaged(i) {
            return;
        }
        let mut near = [0u8; MAX_FIGS];
        let k = self.nearest_hostiles(i, &mut near);
        if !fleeing {
            for &j in near[..k].iter().take(6) {
                self.push_opt(Opt::Engage(j));
            }
        }
        match s.objective {
            // The objective's moves are the squad's (a contest's enemies have none).
            _ if team != 0 => {}
            Objective::Rescue { .. } if !self.joined => self.push_opt(Opt::ToTarget),
            // Once the figure to rescue walks with the squad, only it needs the exit (heroes
            // walking in would stand in its way).
            Objective::Rescue { .. } if Some(i) == s.rescue_target() => self.push_opt(Opt::ToExit),
            Objective::Reach { .. } => self.push_opt(Opt::ToExit),
            _ => {}
        }
        for d in Facing::ALL {
            self.push_opt(Opt::Line(d));
        }
        if k > 0 && facing_to(at, self.figs[usize::from(near[0])].at) != Some(facing) {
            self.push_opt(Opt::Face(near[0]));
        }
        self.push_opt(Opt::Done);
    }

    fn combat_opts(&mut self, s: &Setup, i: usize) {
        let engaged = self.engaged(i);
        // Held: no attack this turn; disarmed: no ranged attack.
        let held = self.in_state(i, StateKind::Held);
        let disarmed = self.in_state(i, StateKind::Disarmed);
        let attacked = self.figs[i].attacked || held;
        if !attacked {
            if engaged {
                for j in self.ids() {
                    if self.engaged_with(i, j) {
                        self.push_opt(Opt::Close(j as u8));
                    }
                }
            } else if s.figs[i].ranged.is_some() && !disarmed {
                for j in self.ids() {
                    if self.can_shoot(s, i, j, s.figs[i].range) {
                        self.push_opt(Opt::Ranged(j as u8));
                    }
                }
            }
        }
        for (slot, d) in s.figs[i].skills() {
            if let SkillEffect::ExtraAttack { attack, .. } = d.effect
                && self.can_use(s, i, slot)
                && !held
                && !(disarmed && attack == crate::games::ruunara::model::AttackKind::Ranged)
            {
                for j in self.ids() {
                    let ok = match attack {
                        crate::games::ruunara::model::AttackKind::Close => {
                            engaged && self.engaged_with(i, j)
                        }
                        crate::games::ruunara::model::AttackKind::Ranged => {
                            !engaged && self.can_shoot(s, i, j, State::skill_range(s, i, None))
                        }
                    };
                    if ok {
                        self.push_opt(Opt::Extra {
                            slot: slot as u8,
                            target: j as u8,
                        });
                    }
                }
            }
        }
        self.combat_spells(s, i, engaged);
        if self.n_opts > 0 {
            self.push_opt(Opt::Done);
        }
    }

    /// Spells in the combat phase ("spells can be used either during the tactical phase or
    /// the combat phase"): the tactical phase's skill options, but a flight (the move is
    /// over) and, once it has attacked, a skill that readies its attacks.
    fn combat_spells(&mut self, s: &Setup, i: usize, engaged: bool) {
        let from = usize::from(self.n_opts);
        self.tactical_opts_engaged(s, i, engaged);
        let attacked = self.figs[i].attacked;
        let mut k = from;
        for m in from..usize::from(self.n_opts) {
            let o = self.opts[m];
            let keep = match o {
                Opt::Skill { slot, .. } => match s.figs[i].skills[usize::from(slot)] {
                    Some(d) => match d.effect {
                        SkillEffect::Flee { .. } => false,
                        SkillEffect::InstantKill { spell: true, .. } => true,
                        SkillEffect::InstantKill { .. } | SkillEffect::Reroll => !attacked,
                        _ => true,
                    },
                    None => false,
                },
                _ => false,
            };
            if keep {
                self.opts[k] = o;
                k += 1;
            }
        }
        self.n_opts = k as u8;
    }

    /// Whether `i` (not engaged) may shoot at `j`: a free hostile seen (scenery only), within
    /// `range` base to base.
    pub fn can_shoot(&self, s: &Setup, i: usize, j: usize, range: f64) -> bool {
        self.figs[j].status == Status::Free
            && self.hostile(i, j)
            && self.gap(i, j) <= range + 1e-9
            && self.sees(s, i, j, false)
    }

    /// The path a movement option takes (`None`: it stays).
    pub fn opt_path(&self, s: &Setup, i: usize, o: Opt) -> Option<Path> {
        let budget = self.move_budget(s, i);
        match o {
            Opt::Engage(j) => {
                let j = usize::from(j);
                self.plan(s, i, self.figs[j].at, self.contact(i, j), budget, true)
            }
            Opt::ToTarget => {
                let t = s.rescue_target()?;
                self.plan(s, i, self.figs[t].at, self.contact(i, t), budget, true)
            }
            Opt::ToExit => {
                let (Objective::Reach { exit } | Objective::Rescue { exit, .. }) = s.objective
                else {
                    return None;
                };
                let z = super::geom::Rect::new(exit.x, exit.y, exit.w, exit.d);
                let r = self.figs[i].r;
                let c = Pt::new(
                    self.figs[i].at.x.clamp(z.x0 + r, (z.x1 - r).max(z.x0 + r)),
                    self.figs[i].at.y.clamp(z.y0 + r, (z.y1 - r).max(z.y0 + r)),
                );
                let path = self.plan(s, i, c, 0.0, budget, true);
                let inside = |p: &Option<Path>| {
                    p.as_ref()
                        .is_some_and(|p| z.contains(p.end().unwrap_or(self.figs[i].at)))
                };
                // Near the exit but the nearest spot is taken (friends stand there): the
                // cheapest free grid spot of the exit within reach, else the way toward the
                // nearest free one.
                let at = self.figs[i].at;
                if inside(&path) || at.dist(c) > budget + (r + r) {
                    return path;
                }
                let (cols, rows) = crate::games::ruunara::mission::zone_grid(exit.w, exit.d, r);
                let mut best: Option<Path> = None;
                let mut nearest: Option<(f64, Pt)> = None;
                for row in 0..rows.min(32) {
                    for col in 0..cols.min(32) {
                        let (x, y) = crate::games::ruunara::mission::zone_spot(exit, col, row, r);
                        let spot = Pt::new(x, y);
                        if self.ids().any(|j| {
                            j != i
                                && self.figs[j].status != Status::Dead
                                && self.base_at(i, spot).overlaps(self.base(j))
                        }) {
                            continue;
                        }
                        let d = at.dist(spot);
                        if nearest.is_none_or(|(n, _)| d < n) {
                            nearest = Some((d, spot));
                        }
                        if d <= budget + 1e-9
                            && let Some(p) = self.plan(s, i, spot, 0.0, budget, false)
                            && best.is_none_or(|b| p.cost < b.cost)
                        {
                            best = Some(p);
                        }
                    }
                }
                best.or_else(|| {
                    let (_, spot) = nearest?;
                    self.plan(s, i, spot, 0.0, budget, true)
                })
                .or(path)
            }
            Opt::Line(d) => self.line_path(s, i, d, budget),
            Opt::Dragged => Some(self.drag),
            _ => None,
        }
    }

    pub(crate) fn take(&mut self, s: &Setup, o: Opt, log: &mut impl Log) {
        match (self.phase, o) {
            (Phase::Deploy(i), Opt::Place { col, row }) => {
                let p = self.spot(s, usize::from(i), usize::from(col), usize::from(row));
                self.place(s, usize::from(i), p, log);
            }
            (Phase::Deploy(i), Opt::Dropped) => self.place(s, usize::from(i), self.drop, log),
            (Phase::Pick, Opt::Activate(i)) => {
                let f = &mut self.figs[usize::from(i)];
                f.acted = true;
                f.used_now = 0;
                f.armed = 0;
                f.attacked = false;
                f.fleeing = false;
                log.push(Event::Activate { fig: i });
                self.phase = Phase::Tactical(i);
            }
            (Phase::Tactical(i), Opt::Done) => self.phase = Phase::Move(i),
            (Phase::Tactical(i), Opt::Skill { slot, target }) => {
                self.tactical_skill(s, usize::from(i), usize::from(slot), target, log)
            }
            (Phase::Move(i), Opt::Face(j)) => {
                let iu = usize::from(i);
                if let Some(f) = facing_to(self.figs[iu].at, self.figs[usize::from(j)].at) {
                    self.figs[iu].facing = f;
                    log.push(Event::Turned {
                        fig: i,
                        facing: f,
                        at: self.figs[iu].at,
                    });
                }
                self.phase = Phase::Combat(i);
            }
            (Phase::Move(i), Opt::Done) => self.phase = Phase::Combat(i),
            (Phase::Move(i), o) => {
                let iu = usize::from(i);
                if let Some(p) = self.opt_path(s, iu, o) {
                    self.move_along(s, iu, &p, Reason::Chosen, log);
                }
                if self.figs[iu].fleeing {
                    self.figs[iu].fleeing = false;
                }
                self.phase = Phase::Combat(i);
            }
            (Phase::Combat(i), Opt::Done) => self.end_activation(s, usize::from(i), log),
            (Phase::Combat(i), Opt::Skill { slot, target }) => {
                self.tactical_skill(s, usize::from(i), usize::from(slot), target, log)
            }
            (Phase::Combat(i), Opt::Close(j)) => {
                self.figs[usize::from(i)].attacked = true;
                let a = self.close_attack(s, usize::from(i), usize::from(j), None);
                self.begin_attack(a, After::Combat(i), log);
            }
            (Phase::Combat(i), Opt::Ranged(j)) => {
                self.figs[usize::from(i)].attacked = true;
                let a = self.ranged_attack(s, usize::from(i), usize::from(j), None, log);
                self.begin_attack(a, After::Combat(i), log);
            }
            (Phase::Combat(i), Opt::Extra { slot, target }) => {
                let (iu, su) = (usize::from(i), usize::from(slot));
                self.use_skill(iu, su);
                log.push(Event::Skill {
                    fig: i,
                    slot,
                    target: Some(target),
                });
                if let Some(SkillEffect::ExtraAttack {
                    dice,
                    attack,
                    damage,
                }) = s.figs[iu].skills[su].map(|d| d.effect)
                {
                    let a =
                        self.extra_attack(s, iu, usize::from(target), (dice, attack, damage), log);
                    self.begin_attack(a, After::Combat(i), log);
                }
            }
            _ => {}
        }
    }

    fn tactical_skill(&mut self, s: &Setup, i: usize, slot: usize, target: u8, log: &mut impl Log) {
        let Some(d) = s.figs[i].skills[slot] else {
            return;
        };
        self.use_skill(i, slot);
        log.push(Event::Skill {
            fig: i as u8,
            slot: slot as u8,
            target: (target != NONE).then_some(target),
        });
        match d.effect {
            SkillEffect::Heal { amount, .. } => self.heal(s, i, usize::from(target), amount, log),
            SkillEffect::Flee { .. } => {
                self.figs[i].fleeing = true;
                let mut pursuers = Vec::new();
                for j in self.ids() {
                    if self.engaged_with(i, j) && self.figs[j].team == 1 {
                        self.figs[j].mode = Mode::Pursue {
                            target: i as u8,
                            left: PURSUIT_ROUNDS,
                        };
                        if log.keeps() {
                            pursuers.push(j as u8);
                        }
                    }
                }
                log.push(Event::Fled {
                    fig: i as u8,
                    pursuers,
                });
            }
            SkillEffect::Area {
                dice,
                radius,
                damage,
                ..
            } => {
                let mask = self.area_mask(i, radius, usize::from(target).min(MAX_FIGS - 1));
                let a = self.area_attack(i, dice, mask, radius.is_some(), damage);
                // Cast in the combat phase, play goes on there once its dice are in.
                let after = match self.phase {
                    Phase::Combat(_) => After::Combat(i as u8),
                    _ => After::Tactical(i as u8),
                };
                self.begin_attack(a, after, log);
            }
            SkillEffect::InstantKill { spell: true, .. } => {
                self.use_composed(s, i, slot, target, log)
            }
            SkillEffect::InstantKill { .. } | SkillEffect::Reroll => {
                self.figs[i].armed |= 1 << slot;
            }
            // Until it next moves, or through this round.
            SkillEffect::Cover {
                until_move: true, ..
            } => self.figs[i].on_until[slot] = u32::MAX,
            SkillEffect::Stealth { .. } | SkillEffect::Cover { .. } => {
                self.figs[i].on_until[slot] = self.round;
            }
            SkillEffect::ExtraAttack { .. } => {}
            SkillEffect::Save { .. }
            | SkillEffect::State { .. }
            | SkillEffect::HitBonus { .. }
            | SkillEffect::Vision { .. }
            | SkillEffect::CaptureClock { .. }
            | SkillEffect::HoldOut { .. }
            | SkillEffect::Silent
            | SkillEffect::Hunt
            | SkillEffect::KeepAway { .. } => self.use_composed(s, i, slot, target, log),
        }
    }

    /// Inches `i` may move now: its movement, or less after a flight whose move is
    /// limited (`flee` with `distance`).
    pub fn move_budget(&self, s: &Setup, i: usize) -> f64 {
        let mut budget = s.figs[i].movement;
        if self.figs[i].fleeing {
            for (_, d) in s.figs[i].skills() {
                if let SkillEffect::Flee { distance: Some(d) } = d.effect {
                    budget = budget.min(d);
                }
            }
        }
        budget
    }

    /// Moves `i` along `p`, facing its last segment's direction, logged.
    pub(crate) fn move_along(
        &mut self,
        s: &Setup,
        i: usize,
        p: &Path,
        why: Reason,
        log: &mut impl Log,
    ) {
        self.move_toward(s, i, p, (why, None, None), log);
    }

    /// [`State::move_along`] for a reason, toward a figure and a goal (logged with the move).
    pub(crate) fn move_toward(
        &mut self,
        s: &Setup,
        i: usize,
        p: &Path,
        (why, toward, goal): (Reason, Option<usize>, Option<Pt>),
        log: &mut impl Log,
    ) {
        let Some(end) = p.end() else {
            return;
        };
        let from = self.figs[i].at;
        let facing = self.path_facing(from, p, self.figs[i].facing);
        if end.dist(from) > 1e-9 {
            self.moved(s, i);
        }
        self.figs[i].at = end;
        self.figs[i].facing = facing;
        if log.keeps() {
            let mut path = Vec::with_capacity(4);
            path.push(from);
            path.extend_from_slice(p.points());
            log.push(Event::Moved {
                fig: i as u8,
                path,
                facing,
                cost: p.cost,
                why,
                toward: toward.map(|t| t as u8),
                goal,
            });
        }
        self.refresh();
        self.flush_fights(log);
    }

    fn end_activation(&mut self, s: &Setup, i: usize, log: &mut impl Log) {
        self.figs[i].fleeing = false;
        self.figs[i].armed = 0;
        // A hero in contact with the rescue target: it joins the squad.
        if let Some(t) = s.rescue_target()
            && !self.joined
            && self.figs[i].team == 0
            && self.figs[t].status == Status::Free
            && self.gap(i, t) <= IN_CONTACT
        {
            self.joined = true;
            self.figs[t].team = 0;
            self.figs[t].acted = true;
            log.push(Event::Joined { fig: t as u8 });
            self.refresh();
        }
        // A captive of its side with no guard left, in contact: freed.
        for c in self.ids() {
            let f = &self.figs[c];
            if f.status == Status::Captured
                && f.team == self.figs[i].team
                && f.guards == 0
                && self.gap(i, c) <= IN_CONTACT
            {
                self.free(s, c, log);
            }
        }
        self.check_end(s);
        // Duo and contest: the other seat picks next.
        if s.mode != PlayMode::Solo {
            self.pick = 1 - self.pick.min(1);
        }
        self.phase = Phase::Pick;
    }
}

/// The figure indices of a bit set.
pub fn bits(mask: u32) -> Vec<u8> {
    (0..32u8).filter(|b| mask & (1 << b) != 0).collect()
}
