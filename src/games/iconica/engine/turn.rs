//! One turn of the active player, steps 1 to 8 of `spec/iconica.md`, exactly in the order
//! the spec gives (which is also the order dice are consumed), as a machine that stops at
//! each die, `random_foe` pick and decision it has no input for and goes on from there when
//! given one.
//!
//! Where the turn stands is data ([`Step`]: the step it is at, with what the steps after it
//! need), held by the position ([`IconicaGame`]) beside the board. Every step that takes an
//! input asks for it before it changes anything, so a position stopped at an input is
//! exactly the turn's state there: a copy of it goes on with another input (search), and
//! [`IconicaGame::play_on`] given every input plays the turn straight through (the
//! whole-match fast path).

use super::events::{Cause, Event, Log};
use super::game::IconicaGame;
use super::io::{Choice, ChoiceKind, Io, Opt, Stop};
use super::setup::{Breaks, CChar, Fx, NO_FX, Ruleset, Setup, Span, nullifier_index};
use super::state::*;
use crate::games::iconica::model::{Status, Target};

/// Where an effect list comes from (decides Parry, Reaction, nullifiers and `self`, and
/// what the turn does once the list is done).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Src {
    Action,
    Strength,
    Watch,
    FinalAct,
}

/// The running context of an effect list (eight bytes, so a copy is one move).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(C, align(8))]
struct Act {
    actor: u8,
    side: u8,
    src: Src,
    /// Targets of the most recent targeting effect.
    same: u16,
    /// Targets of the action's first effect that found one (for strengths); 0 until one
    /// does.
    first: u16,
}

/// The step a turn is at. Steps with an input ask for it first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Pc {
    /// The turn's start: the next player, watches armed.
    Begin,
    /// Step 1, slot `slot` of the player: its Fear roll, its Poison roll, its Restoration
    /// roll, its Siphon roll (v8), the target of its Siphon.
    Fear,
    Poison,
    Restoration,
    Siphon,
    SiphonTarget,
    /// Step 2: the Action Roll's white die, then its black die.
    White,
    Black,
    /// Step 3: Action Breaks.
    Breaks,
    /// Step 4: the acting character, its Blind check, its Confusion check, a failed
    /// Confusion's choice, the opponent's heal after it.
    Actor,
    Blind,
    Confusion,
    ConfusionFails,
    HealTarget,
    /// Step 5: slot `x` uses action `n`; its effects, strength bonuses, watches.
    Perform,
    Effects,
    Strengths,
    Watches,
    /// Step 6 (minor statuses end), then step 7's Final Acts, then step 8.
    End,
    FinalActs,
    Check,
}

/// Where a turn stands: the step, and what the steps still to come need.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Step {
    pc: Pc,
    /// Step 1: the slot whose start-of-turn rolls come next.
    slot: u8,
    /// Step 2: the Action Roll.
    white: u8,
    black: u8,
    /// Step 5: the acting slot and the action number it uses.
    x: u8,
    n: u8,
    /// The action's first targets (strengths apply against them).
    first: u16,
    /// Strengths: the next strength of `x`, and the targets of the current one left.
    strength: u8,
    left: u16,
    /// Watches: the next watch to look at.
    watch: u8,
    /// Final Acts: the queue, its length, the next one, the Skulled slots before it.
    queue: [u8; 2 * super::setup::MAX_CHARS],
    queued: u8,
    next_act: u8,
    before: u16,
    /// The effect list under way: its context, the next effect, the end of its (innermost)
    /// list, and the `Roll` whose branch that list is ([`NO_FX`]: the list itself).
    ctx: Act,
    fx: u16,
    fx_end: u16,
    fx_up: u16,
}

impl Step {
    /// A turn's start.
    pub(crate) const START: Step = Step {
        pc: Pc::Begin,
        slot: 0,
        white: 0,
        black: 0,
        x: 0,
        n: 0,
        first: 0,
        strength: 0,
        left: 0,
        watch: 0,
        queue: [0; 2 * super::setup::MAX_CHARS],
        queued: 0,
        next_act: 0,
        before: 0,
        ctx: Act {
            actor: 0,
            side: 0,
            src: Src::Action,
            same: 0,
            first: 0,
        },
        fx: 0,
        fx_end: 0,
        fx_up: NO_FX,
    };

    /// Whether the turn has not begun.
    pub fn at_start(&self) -> bool {
        self.pc == Pc::Begin
    }
}

/// Plays one whole turn of the next player. On `Err(Stop)` the state is left exactly as it
/// was when the input ran out (the caller records `dice_exhausted`).
pub fn play_turn<I: Io, L: Log>(
    setup: &Setup,
    st: &mut State,
    io: &mut I,
    log: &mut L,
) -> Result<(), Stop> {
    if st.ended.is_some() {
        return Ok(());
    }
    let mut g = IconicaGame::at_turn_start(setup, *st);
    let r = g.play_on(io, log);
    *st = *g.state();
    r
}

/// Ends the match when the dice ran out (no further step of the turn is applied).
pub fn stop_exhausted<L: Log>(st: &mut State, log: &mut L) {
    if st.ended.is_none() {
        st.ended = Some((Ended::DiceExhausted, None));
        log.push(Event::End {
            ended: Ended::DiceExhausted,
            winner: None,
        });
    }
}

impl IconicaGame<'_> {
    /// Plays on from where the turn stands, asking `io` for each input: `Ok` once the turn
    /// is over (the position is then at the next turn's start), `Err(Stop)` when `io` has
    /// no input for a step (the position then waits at that step, unchanged by it).
    pub fn play_on<I: Io, L: Log>(&mut self, io: &mut I, log: &mut L) -> Result<(), Stop> {
        let setup = self.setup;
        Turn {
            setup,
            g: self,
            io,
            log,
            whole: false,
        }
        .run()
    }

    /// Plays on from where the turn stands, turn after turn, asking `io` for each input:
    /// `Ok` once the match is over, `Err(Stop)` when `io` has no input for a step (the
    /// position then waits at that step, as with [`IconicaGame::play_on`]). The same play
    /// as calling `play_on` until the match ends, in one pass.
    pub fn play_to_end<I: Io, L: Log>(&mut self, io: &mut I, log: &mut L) -> Result<(), Stop> {
        if self.st.ended.is_some() {
            return Ok(());
        }
        let setup = self.setup;
        Turn {
            setup,
            g: self,
            io,
            log,
            whole: true,
        }
        .run()
    }
}

struct Turn<'a, 's, I: Io, L: Log> {
    setup: &'s Setup,
    g: &'a mut IconicaGame<'s>,
    io: &'a mut I,
    log: &'a mut L,
    /// Whether to go on to the next turn when one ends (until the match is over).
    whole: bool,
}

#[inline]
fn nth_slot(mask: u16, k: u32) -> usize {
    let mut m = mask;
    for _ in 0..k {
        m &= m - 1;
    }
    m.trailing_zeros() as usize
}

/// The slots of `mask` after `slot`.
#[inline]
fn after(mask: u16, slot: u8) -> u16 {
    mask & !(((2u32 << slot) - 1) as u16)
}

impl<I: Io, L: Log> Turn<'_, '_, I, L> {
    fn run(&mut self) -> Result<(), Stop> {
        loop {
            match self.g.at.pc {
                Pc::Begin => {
                    self.begin();
                    self.main_line()?;
                }
                Pc::Fear => self.fear()?,
                Pc::Poison => self.poison()?,
                Pc::Restoration => self.restoration()?,
                Pc::Siphon => self.siphon()?,
                Pc::SiphonTarget => self.siphon_target()?,
                Pc::White | Pc::Breaks | Pc::Actor => self.main_line()?,
                Pc::Black => {
                    self.black()?;
                    self.main_line()?;
                }
                Pc::Blind => self.blind()?,
                Pc::Confusion => self.confusion()?,
                Pc::ConfusionFails => self.confusion_fails()?,
                Pc::HealTarget => self.heal_target()?,
                Pc::Perform => {
                    self.perform();
                    self.effects()?;
                }
                Pc::Effects => self.effects()?,
                Pc::Strengths => self.strengths(),
                Pc::Watches => self.watches(),
                Pc::End => {
                    // No Final Act: straight to step 8, and on to the next turn's start.
                    if !self.end() {
                        if self.turn_over() {
                            return Ok(());
                        }
                        self.begin();
                        self.main_line()?;
                    }
                }
                Pc::FinalActs => self.final_acts(),
                Pc::Check => {
                    if self.turn_over() {
                        return Ok(());
                    }
                }
            }
        }
    }

    /// The common run of a turn as straight-line code: the Action Roll, the breaks, the
    /// acting character and its action's effects, each step taken when the turn stands at it
    /// (so the same steps in the same order as the dispatch loop in [`Turn::run`] would take
    /// them, without an indirect jump per step); the loop takes over at any other step.
    fn main_line(&mut self) -> Result<(), Stop> {
        if self.g.at.pc == Pc::White {
            let w = self.die()?;
            self.g.at.white = w;
            self.g.at.pc = Pc::Black;
            self.black()?;
        }
        if self.g.at.pc == Pc::Breaks {
            self.breaks()?;
        }
        if self.g.at.pc == Pc::Actor {
            self.actor()?;
        }
        if self.g.at.pc == Pc::Perform {
            self.perform();
            self.effects()?;
        }
        Ok(())
    }

    /// Step 8, then the next turn's start: whether to stop here (one turn was asked for, or
    /// the match is over).
    #[inline]
    fn turn_over(&mut self) -> bool {
        self.check();
        self.g.at.pc = Pc::Begin;
        !self.whole || self.g.st.ended.is_some()
    }

    /// Step 2's black die, then step 3.
    #[inline]
    fn black(&mut self) -> Result<(), Stop> {
        let black = self.die()?;
        let white = self.g.at.white;
        self.g.at.black = black;
        self.log.push(Event::ActionRoll { white, black });
        self.go(Pc::Breaks);
        Ok(())
    }

    #[inline]
    fn go(&mut self, pc: Pc) {
        self.g.at.pc = pc;
    }

    /// The player of the turn and its side.
    #[inline]
    fn player(&self) -> (u8, u8) {
        let p = self.g.st.player;
        (p, self.setup.player_side[p as usize])
    }

    /// Turn start: the next player who still has a character in play; then step 1.
    fn begin(&mut self) {
        let setup = self.setup;
        let st = &mut self.g.st;
        let order = setup.turn_order.len();
        let mut p = setup.turn_order[st.next as usize];
        for _ in 0..order {
            p = setup.turn_order[st.next as usize];
            let next = st.next as usize + 1;
            st.next = if next == order { 0 } else { next as u8 };
            if setup.player_mask[p as usize] & st.alive() != 0 {
                break;
            }
        }
        let me = setup.player_side[p as usize];
        st.player = p;
        st.turn += 1;
        st.held = 0;
        st.skulled_now = 0;
        let turn = st.turn;
        if st.watching != 0 {
            for w in st.watches.iter_mut().flatten() {
                if w.armed == 0 && w.set_in < turn && setup.side[w.watcher as usize] != me {
                    w.armed = turn;
                }
            }
        }
        self.log.push(Event::Turn {
            turn,
            player: p,
            side: me,
        });
        // Step 1: start-of-turn rolls, when any of P's characters has a status that rolls.
        let mine = setup.player_mask[p as usize];
        let rolling = self.g.st.marked(FEAR | POISON | RESTORATION | SIPHON);
        if mine & self.g.st.alive() & rolling == 0 {
            self.go(Pc::White);
        } else {
            self.g.at.slot = mine.trailing_zeros() as u8;
            self.go(Pc::Fear);
        }
    }

    /// Step 1's rolls of the slot after `slot` in `pc`, or `then` after the last slot.
    #[inline]
    fn next_slot(&mut self, pc: Pc, then: Pc) {
        let mine = self.setup.player_mask[self.g.st.player as usize];
        let rest = after(mine, self.g.at.slot);
        if rest != 0 {
            self.g.at.slot = rest.trailing_zeros() as u8;
            self.go(pc);
        } else {
            self.g.at.slot = mine.trailing_zeros() as u8;
            self.go(then);
        }
    }

    fn fear(&mut self) -> Result<(), Stop> {
        let c = self.g.at.slot as usize;
        if self.g.st.is_alive(c) && self.g.st.has(c, FEAR) {
            let f = self.die()?;
            let kept = f % 2 == 0;
            if kept {
                self.g.st.held |= 1 << c;
            } else {
                self.g.st.status[c] &= !FEAR;
            }
            self.log.push(Event::StatusRoll {
                slot: c as u8,
                status: Status::Fear,
                face: f,
                kept,
            });
        }
        self.go(Pc::Poison);
        Ok(())
    }

    fn poison(&mut self) -> Result<(), Stop> {
        let c = self.g.at.slot as usize;
        if self.g.st.is_alive(c) && self.g.st.has(c, POISON) {
            let f = self.die()?;
            let kept = f % 2 == 0;
            self.log.push(Event::StatusRoll {
                slot: c as u8,
                status: Status::Poison,
                face: f,
                kept,
            });
            if kept {
                self.deal(c, 10, None, Cause::Poison, false);
            } else {
                self.g.st.status[c] &= !POISON;
            }
        }
        self.next_slot(Pc::Fear, Pc::Restoration);
        Ok(())
    }

    fn restoration(&mut self) -> Result<(), Stop> {
        let setup = self.setup;
        let c = self.g.at.slot as usize;
        if self.g.st.is_alive(c) && self.g.st.has(c, RESTORATION) {
            let f = self.die()?;
            let kept = f % 2 == 1;
            self.log.push(Event::StatusRoll {
                slot: c as u8,
                status: Status::Restoration,
                face: f,
                kept,
            });
            if kept {
                let amount = if setup.rules.ruleset == Ruleset::V8 {
                    20
                } else {
                    10
                };
                self.heal(c, amount, Cause::Restoration);
            } else {
                self.g.st.status[c] &= !RESTORATION;
            }
        }
        if setup.rules.ruleset == Ruleset::V8 {
            self.next_slot(Pc::Restoration, Pc::Siphon);
        } else {
            self.next_slot(Pc::Restoration, Pc::White);
        }
        Ok(())
    }

    fn siphon(&mut self) -> Result<(), Stop> {
        let c = self.g.at.slot as usize;
        if self.g.st.is_alive(c) && self.g.st.has(c, SIPHON) {
            let f = self.die()?;
            let kept = f % 2 == 1;
            self.log.push(Event::StatusRoll {
                slot: c as u8,
                status: Status::Siphon,
                face: f,
                kept,
            });
            if kept {
                self.heal(c, 10, Cause::Siphon);
                let (_, me) = self.player();
                if self.setup.side_mask[1 - me as usize] & self.g.st.alive() != 0 {
                    self.go(Pc::SiphonTarget);
                    return Ok(());
                }
            } else {
                self.g.st.status[c] &= !SIPHON;
            }
        }
        self.next_slot(Pc::Siphon, Pc::White);
        Ok(())
    }

    fn siphon_target(&mut self) -> Result<(), Stop> {
        let c = self.g.at.slot;
        let (_, me) = self.player();
        let foes = self.setup.side_mask[1 - me as usize] & self.g.st.alive();
        let t = self.choose_char(me, ChoiceKind::SiphonTarget, foes, Some(c))?;
        self.deal(t, 10, None, Cause::Siphon, false);
        self.next_slot(Pc::Siphon, Pc::White);
        Ok(())
    }

    /// Step 3: Action Breaks. A break goes on at step 5 (the breaking character acts) or
    /// ends the turn's action; otherwise step 4.
    fn breaks(&mut self) -> Result<(), Stop> {
        let setup = self.setup;
        let (p, me) = self.player();
        let (white, black) = (self.g.at.white, self.g.at.black);
        if !setup.rules.action_breaks {
            self.go(Pc::Actor);
            return Ok(());
        }
        let mine = setup.player_mask[p as usize] & self.g.st.alive();
        let matching = |n: u8| -> u16 { mine & setup.break_mask[n as usize & 7] };
        match (setup.rules.ruleset, setup.rules.breaks) {
            (Ruleset::V8, _) => {
                let m = matching(black);
                if m != 0 {
                    let mut opts = [Opt::Decline; 13];
                    let mut k = 0;
                    for s in slots(m) {
                        opts[k] = Opt::Break(s as u8);
                        k += 1;
                    }
                    opts[k] = Opt::Decline;
                    k += 1;
                    if let Opt::Break(x) = self.choose(me, ChoiceKind::V8Break, &opts[..k], None)? {
                        self.do_break(x, black, true);
                        self.perform_next(x, black);
                        return Ok(());
                    }
                }
            }
            (Ruleset::V2, breaks) if white == black || breaks == Breaks::Standard => {
                if white == black {
                    let m = matching(white);
                    if m != 0 {
                        let x = self.choose_char(me, ChoiceKind::BreakChar, m, None)? as u8;
                        self.do_break(x, white, true);
                        self.perform_next(x, white);
                        return Ok(());
                    }
                }
            }
            (Ruleset::V2, _) => {
                let m = matching(black);
                if m != 0 {
                    let can_act = self.able(p) != 0;
                    let mut opts = [Opt::Act; 13];
                    let mut k = 0;
                    if can_act {
                        k += 1;
                    }
                    for s in slots(m) {
                        opts[k] = Opt::Break(s as u8);
                        k += 1;
                    }
                    if !can_act {
                        opts[k] = Opt::Act;
                        k += 1;
                    }
                    if let Opt::Break(x) =
                        self.choose(me, ChoiceKind::AdvancedBreak, &opts[..k], None)?
                    {
                        self.do_break(x, black, false);
                        self.go(Pc::End);
                        return Ok(());
                    }
                }
            }
        }
        self.go(Pc::Actor);
        Ok(())
    }

    #[inline]
    fn perform_next(&mut self, x: u8, n: u8) {
        self.g.at.x = x;
        self.g.at.n = n;
        self.go(Pc::Perform);
    }

    /// Steps 6 (minor statuses end) and the start of step 7 (Final Acts, P's side first,
    /// each side left to right; chains append): whether any character waits for its Final
    /// Act (`false`: step 8 is next).
    fn end(&mut self) -> bool {
        let setup = self.setup;
        let (p, me) = self.player();
        let turn = self.g.st.turn;
        for c in slots(setup.player_mask[p as usize] & self.g.st.marked(MINOR)) {
            let minor = self.g.st.status[c] & MINOR;
            if minor != 0 {
                if self.log.on() {
                    for s in [Status::Confusion, Status::Blind, Status::Stun] {
                        if minor & bit(s) != 0 {
                            self.log.push(Event::StatusEnds {
                                slot: c as u8,
                                status: s,
                            });
                        }
                    }
                }
                self.g.st.status[c] &= !MINOR;
            }
        }
        self.g.st.held = 0;
        if self.g.st.watching != 0 {
            for i in 0..MAX_WATCHES {
                if self.g.st.watches[i].is_some_and(|w| w.armed == turn) {
                    self.clear_watch(i);
                }
            }
        }
        if self.g.st.skulled_now == 0 {
            self.go(Pc::Check);
            return false;
        }
        self.g.at.queued = 0;
        self.g.at.next_act = 0;
        self.enqueue(me, self.g.st.skulled_now);
        self.go(Pc::FinalActs);
        true
    }

    /// Step 8: the only win check; then the turn limit.
    fn check(&mut self) {
        let setup = self.setup;
        let a = setup.side_mask[0] & self.g.st.alive() != 0;
        let b = setup.side_mask[1] & self.g.st.alive() != 0;
        let end = match (a, b) {
            (false, false) => Some((Ended::Victory, Winner::Draw)),
            (true, false) => Some((Ended::Victory, Winner::Side(0))),
            (false, true) => Some((Ended::Victory, Winner::Side(1))),
            (true, true) if self.g.st.turn >= setup.rules.turn_limit => {
                Some((Ended::TurnLimit, Winner::Draw))
            }
            _ => None,
        };
        if let Some((ended, winner)) = end {
            self.g.st.ended = Some((ended, Some(winner)));
            self.log.push(Event::End {
                ended,
                winner: Some(winner),
            });
        }
    }

    #[inline]
    fn clear_watch(&mut self, i: usize) {
        self.g.st.watches[i] = None;
        self.g.st.watching &= !(1 << i);
    }

    #[inline]
    fn die(&mut self) -> Result<u8, Stop> {
        let f = self.io.die()?;
        self.g.st.dice_used += 1;
        Ok(f)
    }

    fn choose(
        &mut self,
        side: u8,
        kind: ChoiceKind,
        options: &[Opt],
        actor: Option<u8>,
    ) -> Result<Opt, Stop> {
        if options.len() == 1 {
            return Ok(options[0]);
        }
        if let Some(i) = self.io.choose_n(side, options.len() as u8) {
            let i = i?;
            return Ok(options[(i as usize).min(options.len() - 1)]);
        }
        let c = Choice {
            side,
            kind,
            options,
            actor,
            state: &self.g.st,
            setup: self.setup,
            game: &*self.g,
        };
        let i = self.io.choose(&c)? as usize;
        Ok(options[i.min(options.len() - 1)])
    }

    /// One character of `mask` (not empty), asked only when there are several.
    fn choose_char(
        &mut self,
        side: u8,
        kind: ChoiceKind,
        mask: u16,
        actor: Option<u8>,
    ) -> Result<usize, Stop> {
        if mask & mask.wrapping_sub(1) == 0 {
            return Ok(mask.trailing_zeros() as usize);
        }
        let n = mask.count_ones();
        if let Some(i) = self.io.choose_n(side, n as u8) {
            let i = i?;
            return Ok(nth_slot(mask, (i as u32).min(n - 1)));
        }
        let mut opts = [Opt::Act; 12];
        let mut k = 0;
        for s in slots(mask) {
            opts[k] = Opt::Char(s as u8);
            k += 1;
        }
        match self.choose(side, kind, &opts[..k], actor)? {
            Opt::Char(s) => Ok(s as usize),
            _ => Ok(mask.trailing_zeros() as usize),
        }
    }

    /// P's characters able to act in the step-4 sense.
    fn able(&self, p: u8) -> u16 {
        self.setup.player_mask[p as usize]
            & self.g.st.alive()
            & !self.g.st.held
            & !self.g.st.marked(STUN)
    }

    fn do_break(&mut self, x: u8, number: u8, acts: bool) {
        self.log.push(Event::Break {
            slot: x,
            number,
            acts,
        });
        self.heal(x as usize, 20, Cause::Break);
        self.dispel(x as usize);
    }

    /// Step 4: the acting character.
    fn actor(&mut self) -> Result<(), Stop> {
        let (p, me) = self.player();
        let able = self.able(p);
        if able == 0 {
            self.log.push(Event::NoActor);
            self.go(Pc::End);
            return Ok(());
        }
        let x = self.choose_char(me, ChoiceKind::Actor, able, None)?;
        self.g.at.x = x as u8;
        if self.g.st.has(x, BLIND) {
            self.go(Pc::Blind);
        } else if self.g.st.has(x, CONFUSION) {
            self.go(Pc::Confusion);
        } else {
            self.perform_next(x as u8, self.g.at.white);
        }
        Ok(())
    }

    fn blind(&mut self) -> Result<(), Stop> {
        let x = self.g.at.x as usize;
        if self.g.st.has(x, BLIND) {
            let f = self.die()?;
            let pass = f % 2 == 1;
            self.log.push(Event::Check {
                slot: x as u8,
                status: Status::Blind,
                face: f,
                pass,
            });
            if !pass {
                self.go(Pc::End);
                return Ok(());
            }
            self.g.st.status[x] &= !BLIND;
        }
        self.go(Pc::Confusion);
        Ok(())
    }

    fn confusion(&mut self) -> Result<(), Stop> {
        let x = self.g.at.x as usize;
        if self.g.st.has(x, CONFUSION) {
            let f = self.die()?;
            let pass = f % 2 == 1;
            self.log.push(Event::Check {
                slot: x as u8,
                status: Status::Confusion,
                face: f,
                pass,
            });
            if !pass {
                self.go(Pc::ConfusionFails);
                return Ok(());
            }
            self.g.st.status[x] &= !CONFUSION;
        }
        self.perform_next(x as u8, self.g.at.white);
        Ok(())
    }

    fn confusion_fails(&mut self) -> Result<(), Stop> {
        let setup = self.setup;
        let (p, me) = self.player();
        let mine = setup.player_mask[p as usize] & self.g.st.alive();
        let opp = 1 - me as usize;
        let theirs = setup.side_mask[opp] & self.g.st.alive();
        let can_heal = slots(theirs).any(|s| self.g.st.hp[s] < setup.chars[s].start);
        let mut opts = [Opt::LetHeal; 13];
        let mut k = 0;
        for s in slots(mine) {
            opts[k] = Opt::SelfDamage(s as u8);
            k += 1;
        }
        if setup.rules.ruleset == Ruleset::V2 || can_heal {
            opts[k] = Opt::LetHeal;
            k += 1;
        }
        if k == 0 {
            self.go(Pc::End);
            return Ok(());
        }
        match self.choose(me, ChoiceKind::Confusion, &opts[..k], None)? {
            Opt::SelfDamage(s) => {
                self.deal(s as usize, 10, None, Cause::Confusion, false);
                self.go(Pc::End);
            }
            _ => {
                self.log.push(Event::LetHeal { by: opp as u8 });
                self.go(if theirs != 0 { Pc::HealTarget } else { Pc::End });
            }
        }
        Ok(())
    }

    fn heal_target(&mut self) -> Result<(), Stop> {
        let (_, me) = self.player();
        let opp = 1 - me as usize;
        let theirs = self.setup.side_mask[opp] & self.g.st.alive();
        let t = self.choose_char(opp as u8, ChoiceKind::HealTarget, theirs, None)?;
        self.heal(t, 10, Cause::Confusion);
        self.go(Pc::End);
        Ok(())
    }

    /// Step 5: slot `x` uses action `n`; its effects first.
    fn perform(&mut self) {
        let setup = self.setup;
        let (x, n) = (self.g.at.x, self.g.at.n);
        let ai = setup.chars[x as usize].actions[n as usize - 1];
        let action = &setup.actions[ai as usize];
        self.log.push(Event::Action {
            slot: x,
            number: n,
            action: ai,
        });
        self.start(
            action.effects,
            Act {
                actor: x,
                side: setup.side[x as usize],
                src: Src::Action,
                same: 0,
                first: 0,
            },
        );
    }

    /// Starts an effect list.
    #[inline]
    fn start(&mut self, span: Span, ctx: Act) {
        let at = &mut self.g.at;
        at.ctx = ctx;
        at.fx = span.start;
        at.fx_end = span.start + span.len;
        at.fx_up = NO_FX;
        at.pc = Pc::Effects;
    }

    /// The action's strength bonuses, one (strength, target) at a time.
    fn strengths(&mut self) {
        let setup = self.setup;
        let x = self.g.at.x as usize;
        let c = &setup.chars[x];
        loop {
            let at = &mut self.g.at;
            if at.left == 0 {
                let Some(s) = c.strengths.get(at.strength as usize) else {
                    at.watch = 0;
                    at.pc = if self.g.st.watching != 0 {
                        Pc::Watches
                    } else {
                        Pc::End
                    };
                    return;
                };
                at.strength += 1;
                if s.numbers & setup.action(x, at.n).numbers != 0 {
                    at.left = at.first & s.against;
                }
                continue;
            }
            let t = at.left.trailing_zeros() as usize;
            at.left &= at.left - 1;
            if !self.g.st.is_alive(t) {
                continue;
            }
            let s = &c.strengths[self.g.at.strength as usize - 1];
            self.log.push(Event::Strength {
                slot: x as u8,
                target: t as u8,
            });
            self.start(
                s.effects,
                Act {
                    actor: x as u8,
                    side: setup.side[x],
                    src: Src::Strength,
                    same: 1 << t,
                    first: 0,
                },
            );
            return;
        }
    }

    /// Watches of the other side armed for this turn, first action of their kind.
    fn watches(&mut self) {
        let setup = self.setup;
        let x = self.g.at.x as usize;
        let side = setup.side[x];
        let kind = setup.action(x, self.g.at.n).kind;
        let turn = self.g.st.turn;
        while (self.g.at.watch as usize) < MAX_WATCHES {
            if self.g.st.watching == 0 {
                break;
            }
            let i = self.g.at.watch as usize;
            self.g.at.watch += 1;
            let Some(w) = self.g.st.watches[i] else {
                continue;
            };
            if w.armed != turn || setup.side[w.watcher as usize] == side || w.kind != kind {
                continue;
            }
            self.clear_watch(i);
            if !self.g.st.is_alive(w.watcher as usize) {
                continue;
            }
            self.log.push(Event::WatchTriggered {
                slot: w.watcher,
                kind: w.kind,
            });
            self.start(
                w.then,
                Act {
                    actor: w.watcher,
                    side: setup.side[w.watcher as usize],
                    src: Src::Watch,
                    same: 0,
                    first: 0,
                },
            );
            return;
        }
        self.go(Pc::End);
    }

    /// Appends the slots of `mask` to the Final Acts' queue, `me`'s side first.
    fn enqueue(&mut self, me: u8, mask: u16) {
        let setup = self.setup;
        let at = &mut self.g.at;
        for side in [me as usize, 1 - me as usize] {
            for s in slots(mask & setup.side_mask[side]) {
                if (at.queued as usize) < at.queue.len() {
                    at.queue[at.queued as usize] = s as u8;
                    at.queued += 1;
                }
            }
        }
    }

    /// Step 7: the next Final Act in the queue; step 8 once it is empty.
    fn final_acts(&mut self) {
        let setup = self.setup;
        while self.g.at.next_act < self.g.at.queued {
            let c = self.g.at.queue[self.g.at.next_act as usize] as usize;
            self.g.at.next_act += 1;
            if !setup.rules.final_acts {
                continue;
            }
            let Some(span) = setup.chars[c].final_act else {
                continue;
            };
            self.log.push(Event::FinalAct { slot: c as u8 });
            self.g.at.before = self.g.st.skulled;
            self.start(
                span,
                Act {
                    actor: c as u8,
                    side: setup.side[c],
                    src: Src::FinalAct,
                    same: 0,
                    first: 0,
                },
            );
            return;
        }
        if self.log.on() {
            for i in 0..self.g.at.queued as usize {
                self.log.push(Event::LeavesPlay {
                    slot: self.g.at.queue[i],
                });
            }
        }
        self.g.st.skulled_now = 0;
        self.go(Pc::Check);
    }

    /// The effect list under way, effect by effect (a `Roll` goes into its branch and on
    /// after it); then what follows the list.
    fn effects(&mut self) -> Result<(), Stop> {
        let setup = self.setup;
        loop {
            let at = &mut self.g.at;
            if at.fx == at.fx_end {
                if at.fx_up == NO_FX {
                    self.done_effects();
                    return Ok(());
                }
                let r = at.fx_up as usize;
                at.fx = r as u16 + 1;
                at.fx_end = setup.fx_end[r];
                at.fx_up = setup.fx_up[r];
                continue;
            }
            let i = at.fx as usize;
            let fx = setup.fx[i];
            match fx {
                Fx::Roll(faces, then, otherwise) => {
                    let f = self.die()?;
                    let taken = faces & (1 << f) != 0;
                    let actor = self.g.at.ctx.actor;
                    self.log.push(Event::EffectRoll {
                        slot: actor,
                        face: f,
                        taken,
                    });
                    let b = if taken { then } else { otherwise };
                    let at = &mut self.g.at;
                    if b.len == 0 {
                        at.fx = i as u16 + 1;
                    } else {
                        at.fx = b.start;
                        at.fx_end = b.start + b.len;
                        at.fx_up = i as u16;
                    }
                }
                Fx::Watch(kind, then) => {
                    let ctx = self.g.at.ctx;
                    if ctx.src != Src::FinalAct && self.g.st.is_alive(ctx.actor as usize) {
                        let w = Watch {
                            watcher: ctx.actor,
                            kind,
                            then,
                            set_in: self.g.st.turn,
                            armed: 0,
                        };
                        if let Some(free) = self.g.st.watches.iter().position(|w| w.is_none()) {
                            self.g.st.watches[free] = Some(w);
                            self.g.st.watching |= 1 << free;
                            self.log.push(Event::WatchSet {
                                slot: ctx.actor,
                                kind,
                            });
                        }
                    }
                    self.g.at.fx = i as u16 + 1;
                }
                Fx::Damage(_, t)
                | Fx::Heal(_, t)
                | Fx::Inflict(_, t)
                | Fx::Grant(_, t)
                | Fx::Dispel(t) => {
                    let targets = self.resolve(t)?;
                    let ctx = &mut self.g.at.ctx;
                    ctx.same = targets;
                    if ctx.first == 0 {
                        ctx.first = targets;
                    }
                    let ctx = *ctx;
                    for s in slots(targets) {
                        if !self.g.st.is_alive(s) {
                            continue;
                        }
                        match fx {
                            Fx::Damage(n, _) => {
                                let hostile = ctx.src != Src::FinalAct && setup.side[s] != ctx.side;
                                let cause = match ctx.src {
                                    Src::Action => Cause::Action,
                                    Src::Strength => Cause::Strength,
                                    Src::Watch => Cause::Watch,
                                    Src::FinalAct => Cause::FinalAct,
                                };
                                let by = if hostile { Some(ctx.actor) } else { None };
                                self.deal_from(s, n, by, Some(ctx.actor), cause, hostile);
                            }
                            Fx::Heal(n, _) => {
                                let cause = if ctx.src == Src::FinalAct {
                                    Cause::FinalAct
                                } else {
                                    Cause::Action
                                };
                                self.heal(s, n, cause);
                            }
                            Fx::Inflict(status, _) => {
                                self.inflict(s, status, ctx.src == Src::FinalAct)
                            }
                            Fx::Grant(status, _) => self.grant(s, status),
                            Fx::Dispel(_) => self.dispel(s),
                            _ => {}
                        }
                    }
                    let alive = self.g.st.alive();
                    let at = &mut self.g.at;
                    at.ctx.same &= alive;
                    at.fx = i as u16 + 1;
                }
            }
        }
    }

    /// An effect list is done: what its source does next.
    fn done_effects(&mut self) {
        let setup = self.setup;
        match self.g.at.ctx.src {
            Src::Action => {
                let at = &mut self.g.at;
                at.first = at.ctx.first;
                at.strength = 0;
                at.left = 0;
                at.watch = 0;
                at.pc = if setup.rules.strengths && !setup.chars[at.x as usize].strengths.is_empty()
                {
                    Pc::Strengths
                } else if self.g.st.watching != 0 {
                    Pc::Watches
                } else {
                    Pc::End
                };
            }
            Src::Strength => self.go(Pc::Strengths),
            Src::Watch => self.go(Pc::Watches),
            Src::FinalAct => {
                let new = self.g.st.skulled & !self.g.at.before;
                let (_, me) = self.player();
                self.enqueue(me, new);
                self.go(Pc::FinalActs);
            }
        }
    }

    fn resolve(&mut self, t: Target) -> Result<u16, Stop> {
        let setup = self.setup;
        let ctx = self.g.at.ctx;
        let alive = self.g.st.alive();
        let friends = setup.side_mask[ctx.side as usize] & alive;
        let foes = setup.side_mask[1 - ctx.side as usize] & alive;
        let me = 1u16 << ctx.actor;
        let one = |this: &mut Self, mask: u16| -> Result<u16, Stop> {
            if mask == 0 {
                return Ok(0);
            }
            let s = this.choose_char(ctx.side, ChoiceKind::Target, mask, Some(ctx.actor))?;
            Ok(1 << s)
        };
        Ok(match t {
            Target::Foe => one(self, foes)?,
            Target::AllFoes => foes,
            Target::RandomFoe => {
                let n = foes.count_ones();
                if n == 0 {
                    0
                } else {
                    let k = self.io.pick(n as u8)?;
                    self.g.st.dice_used += 1;
                    let s = nth_slot(foes, (k as u32).min(n - 1));
                    self.log.push(Event::RandomFoe {
                        slot: ctx.actor,
                        target: s as u8,
                    });
                    1 << s
                }
            }
            Target::Myself => {
                if ctx.src != Src::FinalAct {
                    me & alive
                } else {
                    0
                }
            }
            Target::Ally => one(self, friends & !me)?,
            Target::Friend => one(self, friends)?,
            Target::AllAllies => friends & !me,
            Target::AllFriends => friends,
            Target::Same => ctx.same & alive,
        })
    }

    /// Damage; `by` is the opposing character for Parry and Reaction (None: no Parry).
    fn deal(&mut self, t: usize, n: u16, by: Option<u8>, cause: Cause, may_react: bool) {
        self.deal_from(t, n, by, by, cause, may_react)
    }

    fn deal_from(
        &mut self,
        t: usize,
        n: u16,
        parry_by: Option<u8>,
        _src: Option<u8>,
        cause: Cause,
        may_react: bool,
    ) {
        let setup = self.setup;
        let c: &CChar = &setup.chars[t];
        let from = self.g.st.hp[t];
        let mut to = from.saturating_sub(n);
        self.g.st.hp[t] = to;
        if to == 0 {
            self.log.push(Event::Damage {
                slot: t as u8,
                amount: n,
                from,
                to,
                parried: false,
                by: parry_by,
                cause,
            });
            self.skull(t);
            return;
        }
        let mut parried = false;
        if parry_by.is_some() && n > 0 && c.parry_tiles.has(to) {
            to = (to + 10).min(c.start);
            self.g.st.hp[t] = to;
            parried = true;
        }
        self.log.push(Event::Damage {
            slot: t as u8,
            amount: n,
            from,
            to,
            parried,
            by: parry_by,
            cause,
        });
        let v8 = setup.rules.ruleset == Ruleset::V8;
        if v8 && cause != Cause::FinalAct && to != from {
            self.remove_on_rest(t);
        }
        if may_react
            && setup.rules.reactions
            && let Some(a) = parry_by
            && let Some(r) = c.reaction_at(to)
            && (v8 || !parried)
            && self.g.st.is_alive(a as usize)
        {
            self.deal(a as usize, r, Some(t as u8), Cause::Reaction, false);
        }
    }

    fn skull(&mut self, t: usize) {
        let b = 1u16 << t;
        self.g.st.hp[t] = 0;
        self.g.st.status[t] = 0;
        self.g.st.skulled |= b;
        self.g.st.skulled_now |= b;
        self.g.st.held &= !b;
        if self.g.st.watching != 0 {
            for i in 0..MAX_WATCHES {
                if self.g.st.watches[i].is_some_and(|w| w.watcher as usize == t) {
                    self.clear_watch(i);
                }
            }
        }
        self.log.push(Event::Skulled { slot: t as u8 });
    }

    fn heal(&mut self, t: usize, n: u16, cause: Cause) {
        let start = self.setup.chars[t].start;
        let from = self.g.st.hp[t];
        let to = from.saturating_add(n).min(start).max(from);
        self.g.st.hp[t] = to;
        self.log.push(Event::Heal {
            slot: t as u8,
            from,
            to,
            cause,
        });
        if self.setup.rules.ruleset == Ruleset::V8 && cause != Cause::FinalAct && to != from {
            self.remove_on_rest(t);
        }
    }

    /// v8: the nullifier tile a marker came to rest on removes its status.
    fn remove_on_rest(&mut self, t: usize) {
        let c = &self.setup.chars[t];
        let tile = self.g.st.hp[t];
        for s in [
            Status::Poison,
            Status::Fear,
            Status::Confusion,
            Status::Blind,
            Status::Stun,
        ] {
            let idx = nullifier_index(s).unwrap_or(0);
            if self.g.st.status[t] & bit(s) != 0 && c.nullifier_tiles[idx].has(tile) {
                self.g.st.status[t] &= !bit(s);
                self.log.push(Event::Removed {
                    slot: t as u8,
                    status: s,
                });
            }
        }
    }

    fn inflict(&mut self, t: usize, s: Status, final_act: bool) {
        let c = &self.setup.chars[t];
        let prevented = !final_act
            && nullifier_index(s).is_some_and(|i| c.nullifier_tiles[i].has(self.g.st.hp[t]));
        if !prevented {
            self.g.st.status[t] |= bit(s);
        }
        self.log.push(Event::Inflict {
            slot: t as u8,
            status: s,
            prevented,
        });
    }

    fn grant(&mut self, t: usize, s: Status) {
        let took = match s {
            Status::Siphon => self.setup.rules.ruleset == Ruleset::V8 && self.setup.chars[t].sarion,
            _ => true,
        };
        if took {
            self.g.st.status[t] |= bit(s);
        }
        self.log.push(Event::Grant {
            slot: t as u8,
            status: s,
            took,
        });
    }

    fn dispel(&mut self, t: usize) {
        let removed = self.g.st.status[t] & NEGATIVE;
        self.g.st.status[t] &= !NEGATIVE;
        self.log.push(Event::Dispel {
            slot: t as u8,
            removed,
        });
    }
}
