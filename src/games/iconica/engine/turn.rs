//! One turn of the active player, steps 1 to 8 of `spec/iconica.md`, exactly in the order
//! the spec gives (which is also the order dice are consumed).

use super::events::{Cause, Event, Log};
use super::io::{Choice, ChoiceKind, Io, Opt, Stop};
use super::setup::{nullifier_index, CChar, Fx, Ruleset, Breaks, Setup, Span};
use super::state::*;
use crate::games::iconica::model::{Status, Target};

/// Where an effect list comes from (decides Parry, Reaction, nullifiers and `self`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Src {
    Action,
    Strength,
    Watch,
    FinalAct,
}

/// The running context of an effect list.
#[derive(Debug, Clone, Copy)]
struct Act {
    actor: u8,
    side: u8,
    src: Src,
    /// Targets of the most recent targeting effect.
    same: u16,
    /// Targets of the action's first effect that found one (for strengths).
    first: Option<u16>,
}

/// A step boundary of a turn, where it can be resumed from a copy of the state (what
/// search policies use instead of replaying the turn from its start).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Resume {
    /// The turn's start (the whole turn).
    Start,
    /// Step 3 (Action Breaks), after the Action Roll.
    Breaks { white: u8, black: u8 },
    /// Step 4 (the acting character).
    Actor { white: u8 },
    /// Step 5: slot `x` uses action `n`.
    Perform { x: u8, n: u8 },
    /// Steps 6 to 8.
    End,
}

/// Plays the rest of the current turn from a step boundary the engine reported through
/// [`Io::mark`], given the state it reported there.
pub fn resume_turn<I: Io, L: Log>(setup: &Setup, st: &mut State, at: Resume, io: &mut I, log: &mut L) -> Result<(), Stop> {
    let mut t = Turn { setup, st, io, log };
    match at {
        Resume::Start => t.run(),
        _ => t.from(at),
    }
}

/// Plays one whole turn of the next player. On `Err(Stop)` the state is left exactly as it
/// was when the input ran out (the caller records `dice_exhausted`).
pub fn play_turn<I: Io, L: Log>(setup: &Setup, st: &mut State, io: &mut I, log: &mut L) -> Result<(), Stop> {
    if st.ended.is_some() {
        return Ok(());
    }
    let mut t = Turn { setup, st, io, log };
    t.run()
}

/// Ends the match when the dice ran out (no further step of the turn is applied).
pub fn stop_exhausted<L: Log>(st: &mut State, log: &mut L) {
    if st.ended.is_none() {
        st.ended = Some((Ended::DiceExhausted, None));
        log.push(Event::End { ended: Ended::DiceExhausted, winner: None });
    }
}

struct Turn<'a, I: Io, L: Log> {
    setup: &'a Setup,
    st: &'a mut State,
    io: &'a mut I,
    log: &'a mut L,
}

#[inline]
fn nth_slot(mask: u16, k: u32) -> usize {
    let mut m = mask;
    for _ in 0..k {
        m &= m - 1;
    }
    m.trailing_zeros() as usize
}

impl<I: Io, L: Log> Turn<'_, I, L> {
    fn run(&mut self) -> Result<(), Stop> {
        self.io.mark(self.st, Resume::Start);
        let (white, black) = self.begin()?;
        self.from(Resume::Breaks { white, black })
    }

    /// Turn start, step 1 (start-of-turn rolls) and step 2 (the Action Roll).
    fn begin(&mut self) -> Result<(u8, u8), Stop> {
        let setup = self.setup;
        // The next player who still has a character in play.
        let order = setup.turn_order.len();
        let mut p = setup.turn_order[self.st.next as usize];
        for _ in 0..order {
            p = setup.turn_order[self.st.next as usize];
            let next = self.st.next as usize + 1;
            self.st.next = if next == order { 0 } else { next as u8 };
            if setup.player_mask[p as usize] & self.st.alive() != 0 {
                break;
            }
        }
        let me = setup.player_side[p as usize];
        self.st.player = p;
        self.st.turn += 1;
        self.st.held = 0;
        self.st.skulled_now = 0;
        let turn = self.st.turn;
        if self.st.watching != 0 {
            for w in self.st.watches.iter_mut().flatten() {
                if w.armed == 0 && w.set_in < turn && setup.side[w.watcher as usize] != me {
                    w.armed = turn;
                }
            }
        }
        self.log.push(Event::Turn { turn, player: p, side: me });

        self.start_of_turn_rolls(p, me)?;

        // Step 2: the Action Roll, white then black.
        let white = self.die()?;
        let black = self.die()?;
        self.log.push(Event::ActionRoll { white, black });
        Ok((white, black))
    }

    /// The rest of the turn from a step boundary (see [`Resume`]).
    fn from(&mut self, mut at: Resume) -> Result<(), Stop> {
        let setup = self.setup;
        let p = self.st.player;
        let me = setup.player_side[p as usize];
        loop {
            self.io.mark(self.st, at);
            at = match at {
                Resume::Breaks { white, black } => match self.breaks(p, me, white, black)? {
                    Some(act) => act,
                    None => Resume::Actor { white },
                },
                // Step 4: the acting character, Blind then Confusion.
                Resume::Actor { white } => match self.pick_actor(p, me, white)? {
                    Some((x, n)) => Resume::Perform { x, n },
                    None => Resume::End,
                },
                // Step 5: the action, its strength bonuses, then watches it triggers.
                Resume::Perform { x, n } => {
                    self.perform(x, n)?;
                    Resume::End
                }
                Resume::End => return self.end(p, me),
                Resume::Start => return self.run(),
            };
        }
    }

    /// Step 3: Action Breaks. `Some` when the turn goes on at step 5 or ends (no step 4).
    fn breaks(&mut self, p: u8, me: u8, white: u8, black: u8) -> Result<Option<Resume>, Stop> {
        let setup = self.setup;
        if !setup.rules.action_breaks {
            return Ok(None);
        }
        let mine = setup.player_mask[p as usize] & self.st.alive();
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
                        return Ok(Some(Resume::Perform { x, n: black }));
                    }
                }
            }
            (Ruleset::V2, breaks) if white == black || breaks == Breaks::Standard => {
                if white == black {
                    let m = matching(white);
                    if m != 0 {
                        let x = self.choose_char(me, ChoiceKind::BreakChar, m, None)?;
                        self.do_break(x as u8, white, true);
                        return Ok(Some(Resume::Perform { x: x as u8, n: white }));
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
                    if let Opt::Break(x) = self.choose(me, ChoiceKind::AdvancedBreak, &opts[..k], None)? {
                        self.do_break(x, black, false);
                        return Ok(Some(Resume::End));
                    }
                }
            }
        }
        Ok(None)
    }

    /// Steps 6 (minor statuses end), 7 (Final Acts) and 8 (win check, turn limit).
    fn end(&mut self, p: u8, me: u8) -> Result<(), Stop> {
        let setup = self.setup;
        let turn = self.st.turn;
        // Step 6: minor statuses of P's characters end.
        for c in slots(setup.player_mask[p as usize]) {
            let minor = self.st.status[c] & MINOR;
            if minor != 0 {
                if self.log.on() {
                    for s in [Status::Confusion, Status::Blind, Status::Stun] {
                        if minor & bit(s) != 0 {
                            self.log.push(Event::StatusEnds { slot: c as u8, status: s });
                        }
                    }
                }
                self.st.status[c] &= !MINOR;
            }
        }
        self.st.held = 0;
        if self.st.watching != 0 {
            for i in 0..MAX_WATCHES {
                if self.st.watches[i].is_some_and(|w| w.armed == turn) {
                    self.clear_watch(i);
                }
            }
        }

        // Step 7: Final Acts, P's side first, each side left to right; chains append.
        self.final_acts(me)?;

        // Step 8: the only win check; then the turn limit.
        let a = setup.side_mask[0] & self.st.alive() != 0;
        let b = setup.side_mask[1] & self.st.alive() != 0;
        let end = match (a, b) {
            (false, false) => Some((Ended::Victory, Winner::Draw)),
            (true, false) => Some((Ended::Victory, Winner::Side(0))),
            (false, true) => Some((Ended::Victory, Winner::Side(1))),
            (true, true) if self.st.turn >= setup.rules.turn_limit => Some((Ended::TurnLimit, Winner::Draw)),
            _ => None,
        };
        if let Some((ended, winner)) = end {
            self.st.ended = Some((ended, Some(winner)));
            self.log.push(Event::End { ended, winner: Some(winner) });
        }
        Ok(())
    }

    #[inline]
    fn clear_watch(&mut self, i: usize) {
        self.st.watches[i] = None;
        self.st.watching &= !(1 << i);
    }

    #[inline]
    fn die(&mut self) -> Result<u8, Stop> {
        let f = self.io.die()?;
        self.st.dice_used += 1;
        Ok(f)
    }

    fn choose(&mut self, side: u8, kind: ChoiceKind, options: &[Opt], actor: Option<u8>) -> Result<Opt, Stop> {
        if options.len() == 1 {
            return Ok(options[0]);
        }
        if let Some(i) = self.io.choose_n(side, options.len() as u8) {
            let i = i?;
            return Ok(options[(i as usize).min(options.len() - 1)]);
        }
        let c = Choice { side, kind, options, actor, state: self.st, setup: self.setup };
        let i = self.io.choose(&c)? as usize;
        Ok(options[i.min(options.len() - 1)])
    }

    /// One character of `mask` (not empty), asked only when there are several.
    fn choose_char(&mut self, side: u8, kind: ChoiceKind, mask: u16, actor: Option<u8>) -> Result<usize, Stop> {
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
        let mut m = self.setup.player_mask[p as usize] & self.st.alive() & !self.st.held;
        for s in slots(m) {
            if self.st.has(s, STUN) {
                m &= !(1 << s);
            }
        }
        m
    }

    fn start_of_turn_rolls(&mut self, p: u8, me: u8) -> Result<(), Stop> {
        let setup = self.setup;
        let mine = setup.player_mask[p as usize];
        let mut any = 0u8;
        for c in slots(mine & self.st.alive()) {
            any |= self.st.status[c];
        }
        if any & (FEAR | POISON | RESTORATION | SIPHON) == 0 {
            return Ok(());
        }
        for c in slots(mine) {
            if !self.st.is_alive(c) {
                continue;
            }
            if self.st.has(c, FEAR) {
                let f = self.die()?;
                let kept = f % 2 == 0;
                if kept {
                    self.st.held |= 1 << c;
                } else {
                    self.st.status[c] &= !FEAR;
                }
                self.log.push(Event::StatusRoll { slot: c as u8, status: Status::Fear, face: f, kept });
            }
            if self.st.has(c, POISON) {
                let f = self.die()?;
                let kept = f % 2 == 0;
                self.log.push(Event::StatusRoll { slot: c as u8, status: Status::Poison, face: f, kept });
                if kept {
                    self.deal(c, 10, None, Cause::Poison, false);
                } else {
                    self.st.status[c] &= !POISON;
                }
            }
        }
        for c in slots(mine) {
            if self.st.is_alive(c) && self.st.has(c, RESTORATION) {
                let f = self.die()?;
                let kept = f % 2 == 1;
                self.log.push(Event::StatusRoll { slot: c as u8, status: Status::Restoration, face: f, kept });
                if kept {
                    let amount = if setup.rules.ruleset == Ruleset::V8 { 20 } else { 10 };
                    self.heal(c, amount, Cause::Restoration);
                } else {
                    self.st.status[c] &= !RESTORATION;
                }
            }
        }
        if setup.rules.ruleset == Ruleset::V8 {
            for c in slots(mine) {
                if self.st.is_alive(c) && self.st.has(c, SIPHON) {
                    let f = self.die()?;
                    let kept = f % 2 == 1;
                    self.log.push(Event::StatusRoll { slot: c as u8, status: Status::Siphon, face: f, kept });
                    if kept {
                        self.heal(c, 10, Cause::Siphon);
                        let foes = setup.side_mask[1 - me as usize] & self.st.alive();
                        if foes != 0 {
                            let t = self.choose_char(me, ChoiceKind::SiphonTarget, foes, Some(c as u8))?;
                            self.deal(t, 10, None, Cause::Siphon, false);
                        }
                    } else {
                        self.st.status[c] &= !SIPHON;
                    }
                }
            }
        }
        Ok(())
    }

    fn do_break(&mut self, x: u8, number: u8, acts: bool) {
        self.log.push(Event::Break { slot: x, number, acts });
        self.heal(x as usize, 20, Cause::Break);
        self.dispel(x as usize);
    }

    fn pick_actor(&mut self, p: u8, me: u8, white: u8) -> Result<Option<(u8, u8)>, Stop> {
        let able = self.able(p);
        if able == 0 {
            self.log.push(Event::NoActor);
            return Ok(None);
        }
        let x = self.choose_char(me, ChoiceKind::Actor, able, None)?;
        if self.st.has(x, BLIND) {
            let f = self.die()?;
            let pass = f % 2 == 1;
            self.log.push(Event::Check { slot: x as u8, status: Status::Blind, face: f, pass });
            if !pass {
                return Ok(None);
            }
            self.st.status[x] &= !BLIND;
        }
        if self.st.has(x, CONFUSION) {
            let f = self.die()?;
            let pass = f % 2 == 1;
            self.log.push(Event::Check { slot: x as u8, status: Status::Confusion, face: f, pass });
            if !pass {
                self.confusion_fails(p, me)?;
                return Ok(None);
            }
            self.st.status[x] &= !CONFUSION;
        }
        Ok(Some((x as u8, white)))
    }

    fn confusion_fails(&mut self, p: u8, me: u8) -> Result<(), Stop> {
        let setup = self.setup;
        let mine = setup.player_mask[p as usize] & self.st.alive();
        let opp = 1 - me as usize;
        let theirs = setup.side_mask[opp] & self.st.alive();
        let can_heal = slots(theirs).any(|s| self.st.hp[s] < setup.chars[s].start);
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
            return Ok(());
        }
        match self.choose(me, ChoiceKind::Confusion, &opts[..k], None)? {
            Opt::SelfDamage(s) => self.deal(s as usize, 10, None, Cause::Confusion, false),
            _ => {
                self.log.push(Event::LetHeal { by: opp as u8 });
                if theirs != 0 {
                    let t = self.choose_char(opp as u8, ChoiceKind::HealTarget, theirs, None)?;
                    self.heal(t, 10, Cause::Confusion);
                }
            }
        }
        Ok(())
    }

    fn perform(&mut self, x: u8, n: u8) -> Result<(), Stop> {
        let setup = self.setup;
        let ai = setup.chars[x as usize].actions[n as usize - 1];
        let action = &setup.actions[ai as usize];
        self.log.push(Event::Action { slot: x, number: n, action: ai });
        let mut ctx = Act { actor: x, side: setup.side[x as usize], src: Src::Action, same: 0, first: None };
        self.effects(action.effects, &mut ctx)?;
        if setup.rules.strengths {
            let first = ctx.first.unwrap_or(0);
            for s in &setup.chars[x as usize].strengths {
                if s.numbers & action.numbers == 0 {
                    continue;
                }
                for t in slots(first & s.against) {
                    if !self.st.is_alive(t) {
                        continue;
                    }
                    self.log.push(Event::Strength { slot: x, target: t as u8 });
                    let mut c2 = Act { actor: x, side: ctx.side, src: Src::Strength, same: 1 << t, first: None };
                    self.effects(s.effects, &mut c2)?;
                }
            }
        }
        // Watches of the other side armed for this turn, first action of their kind.
        let turn = self.st.turn;
        for i in 0..MAX_WATCHES {
            if self.st.watching == 0 {
                break;
            }
            let Some(w) = self.st.watches[i] else { continue };
            if w.armed != turn || setup.side[w.watcher as usize] == ctx.side || w.kind != action.kind {
                continue;
            }
            self.clear_watch(i);
            if !self.st.is_alive(w.watcher as usize) {
                continue;
            }
            self.log.push(Event::WatchTriggered { slot: w.watcher, kind: w.kind });
            let mut c3 = Act {
                actor: w.watcher,
                side: setup.side[w.watcher as usize],
                src: Src::Watch,
                same: 0,
                first: None,
            };
            self.effects(w.then, &mut c3)?;
        }
        Ok(())
    }

    fn effects(&mut self, span: Span, ctx: &mut Act) -> Result<(), Stop> {
        let setup = self.setup;
        for i in span.start..span.start + span.len {
            let fx = setup.fx[i as usize];
            match fx {
                Fx::Roll(faces, then, otherwise) => {
                    let f = self.die()?;
                    let taken = faces & (1 << f) != 0;
                    self.log.push(Event::EffectRoll { slot: ctx.actor, face: f, taken });
                    self.effects(if taken { then } else { otherwise }, ctx)?;
                }
                Fx::Watch(kind, then) => {
                    if ctx.src != Src::FinalAct && self.st.is_alive(ctx.actor as usize) {
                        let w = Watch { watcher: ctx.actor, kind, then, set_in: self.st.turn, armed: 0 };
                        if let Some(free) = self.st.watches.iter().position(|w| w.is_none()) {
                            self.st.watches[free] = Some(w);
                            self.st.watching |= 1 << free;
                            self.log.push(Event::WatchSet { slot: ctx.actor, kind });
                        }
                    }
                }
                Fx::Damage(_, t) | Fx::Heal(_, t) | Fx::Inflict(_, t) | Fx::Grant(_, t) | Fx::Dispel(t) => {
                    let targets = self.resolve(t, ctx)?;
                    ctx.same = targets;
                    if ctx.first.is_none() && targets != 0 {
                        ctx.first = Some(targets);
                    }
                    for s in slots(targets) {
                        if !self.st.is_alive(s) {
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
                                let cause = if ctx.src == Src::FinalAct { Cause::FinalAct } else { Cause::Action };
                                self.heal(s, n, cause);
                            }
                            Fx::Inflict(status, _) => self.inflict(s, status, ctx.src == Src::FinalAct),
                            Fx::Grant(status, _) => self.grant(s, status),
                            Fx::Dispel(_) => self.dispel(s),
                            _ => {}
                        }
                    }
                    ctx.same &= self.st.alive();
                }
            }
        }
        Ok(())
    }

    fn resolve(&mut self, t: Target, ctx: &Act) -> Result<u16, Stop> {
        let setup = self.setup;
        let alive = self.st.alive();
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
                    self.st.dice_used += 1;
                    let s = nth_slot(foes, (k as u32).min(n - 1));
                    self.log.push(Event::RandomFoe { slot: ctx.actor, target: s as u8 });
                    1 << s
                }
            }
            Target::Myself => {
                if ctx.src != Src::FinalAct { me & alive } else { 0 }
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

    fn deal_from(&mut self, t: usize, n: u16, parry_by: Option<u8>, _src: Option<u8>, cause: Cause, may_react: bool) {
        let setup = self.setup;
        let c: &CChar = &setup.chars[t];
        let from = self.st.hp[t];
        let mut to = from.saturating_sub(n);
        self.st.hp[t] = to;
        if to == 0 {
            self.log.push(Event::Damage { slot: t as u8, amount: n, from, to, parried: false, by: parry_by, cause });
            self.skull(t);
            return;
        }
        let mut parried = false;
        if parry_by.is_some() && n > 0 && c.parry_tiles.has(to) {
            to = (to + 10).min(c.start);
            self.st.hp[t] = to;
            parried = true;
        }
        self.log.push(Event::Damage { slot: t as u8, amount: n, from, to, parried, by: parry_by, cause });
        let v8 = setup.rules.ruleset == Ruleset::V8;
        if v8 && cause != Cause::FinalAct && to != from {
            self.remove_on_rest(t);
        }
        if may_react
            && setup.rules.reactions
            && let Some(a) = parry_by
            && let Some(r) = c.reaction_at(to)
            && (v8 || !parried)
            && self.st.is_alive(a as usize)
        {
            self.deal(a as usize, r, Some(t as u8), Cause::Reaction, false);
        }
    }

    fn skull(&mut self, t: usize) {
        let b = 1u16 << t;
        self.st.hp[t] = 0;
        self.st.status[t] = 0;
        self.st.skulled |= b;
        self.st.skulled_now |= b;
        self.st.held &= !b;
        if self.st.watching != 0 {
            for i in 0..MAX_WATCHES {
                if self.st.watches[i].is_some_and(|w| w.watcher as usize == t) {
                    self.clear_watch(i);
                }
            }
        }
        self.log.push(Event::Skulled { slot: t as u8 });
    }

    fn heal(&mut self, t: usize, n: u16, cause: Cause) {
        let start = self.setup.chars[t].start;
        let from = self.st.hp[t];
        let to = from.saturating_add(n).min(start).max(from);
        self.st.hp[t] = to;
        self.log.push(Event::Heal { slot: t as u8, from, to, cause });
        if self.setup.rules.ruleset == Ruleset::V8 && cause != Cause::FinalAct && to != from {
            self.remove_on_rest(t);
        }
    }

    /// v8: the nullifier tile a marker came to rest on removes its status.
    fn remove_on_rest(&mut self, t: usize) {
        let c = &self.setup.chars[t];
        let tile = self.st.hp[t];
        for s in [Status::Poison, Status::Fear, Status::Confusion, Status::Blind, Status::Stun] {
            let idx = nullifier_index(s).unwrap_or(0);
            if self.st.status[t] & bit(s) != 0 && c.nullifier_tiles[idx].has(tile) {
                self.st.status[t] &= !bit(s);
                self.log.push(Event::Removed { slot: t as u8, status: s });
            }
        }
    }

    fn inflict(&mut self, t: usize, s: Status, final_act: bool) {
        let c = &self.setup.chars[t];
        let prevented = !final_act
            && nullifier_index(s).is_some_and(|i| c.nullifier_tiles[i].has(self.st.hp[t]));
        if !prevented {
            self.st.status[t] |= bit(s);
        }
        self.log.push(Event::Inflict { slot: t as u8, status: s, prevented });
    }

    fn grant(&mut self, t: usize, s: Status) {
        let took = match s {
            Status::Siphon => self.setup.rules.ruleset == Ruleset::V8 && self.setup.chars[t].sarion,
            _ => true,
        };
        if took {
            self.st.status[t] |= bit(s);
        }
        self.log.push(Event::Grant { slot: t as u8, status: s, took });
    }

    fn dispel(&mut self, t: usize) {
        let removed = self.st.status[t] & NEGATIVE;
        self.st.status[t] &= !NEGATIVE;
        self.log.push(Event::Dispel { slot: t as u8, removed });
    }

    fn final_acts(&mut self, me: u8) -> Result<(), Stop> {
        let setup = self.setup;
        if self.st.skulled_now == 0 {
            return Ok(());
        }
        let mut queue = [0u8; 2 * super::setup::MAX_CHARS];
        let mut len = 0;
        let push = |queue: &mut [u8; 24], len: &mut usize, mask: u16| {
            for side in [me as usize, 1 - me as usize] {
                for s in slots(mask & setup.side_mask[side]) {
                    if *len < queue.len() {
                        queue[*len] = s as u8;
                        *len += 1;
                    }
                }
            }
        };
        push(&mut queue, &mut len, self.st.skulled_now);
        let mut pos = 0;
        while pos < len {
            let c = queue[pos] as usize;
            pos += 1;
            if !setup.rules.final_acts {
                continue;
            }
            let Some(span) = setup.chars[c].final_act else { continue };
            self.log.push(Event::FinalAct { slot: c as u8 });
            let before = self.st.skulled;
            let mut ctx = Act { actor: c as u8, side: setup.side[c], src: Src::FinalAct, same: 0, first: None };
            self.effects(span, &mut ctx)?;
            let new = self.st.skulled & !before;
            push(&mut queue, &mut len, new);
        }
        if self.log.on() {
            for &c in &queue[..len] {
                self.log.push(Event::LeavesPlay { slot: c });
            }
        }
        self.st.skulled_now = 0;
        Ok(())
    }
}
