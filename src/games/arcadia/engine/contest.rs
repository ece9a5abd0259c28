//! Tests and trials (rules card 4, "Tests and Trials"; card 3, "Exhausting All of Your
//! Merits"). A test: each side rolls 2 dice plus its attribute (the active character's dice
//! first); after the roll the side that is not winning may exhaust merits for bonuses, a
//! retest, or the other side's flaws for penalties, until it accepts. Higher wins, equal is a
//! Stalemate. A trial: one die plus the attribute, pass on >= difficulty. A lost test costs a
//! merit (exhausted, or discarded); a character with every merit discarded skips its next
//! Day and goes back to its Base Camp.

use crate::games::arcadia::model::{Effect, EffectForm, Failure, MeritType, TestKind};

use super::events::{Event, Log, Outcome};
use super::setup::Match;
use super::state::{
    ALL_TYPES, After, Contest, DEFEATED, Foe, Opt, Opts, Phase, State, Trial, TrialOf,
};

/// Does effect `e` count for a character standing in league `at` (its `terrain` condition)?
fn applies_at(m: &Match, at: u8, e: &Effect) -> bool {
    e.terrain
        .as_ref()
        .is_none_or(|t| m.leagues[at as usize].terrain.contains(t))
}

/// The forms of `effects` that count for a character standing in league `at`. It borrows
/// only the match (no copy of the position is carried, which the iterators of the hot
/// test-scoring loop used to make once per merit).
fn forms_at<'e>(
    m: &'e Match,
    at: u8,
    effects: &'e [Effect],
) -> impl Iterator<Item = EffectForm> + use<'e> {
    effects
        .iter()
        .filter(move |e| applies_at(m, at, e))
        .flat_map(Effect::forms)
}

impl State {
    /// The forms of `effects` (of `p`'s cards) that count where `p` stands: every effect is
    /// read through its [`EffectForm`]s, its `terrain` condition checked.
    fn forms<'e>(
        &self,
        m: &'e Match,
        p: u8,
        effects: &'e [Effect],
    ) -> impl Iterator<Item = EffectForm> + use<'e> {
        forms_at(m, self.heroes[p as usize].at, effects)
    }

    /// Does effect `e` of `p`'s cards count where `p` stands (its `terrain` condition)?
    pub fn applies(&self, m: &Match, p: u8, e: &Effect) -> bool {
        applies_at(m, self.heroes[p as usize].at, e)
    }

    /// Merits `p` may use: ready, and of a type the league it stands in allows.
    pub fn usable(&self, m: &Match, p: u8) -> u32 {
        let league = &m.leagues[self.heroes[p as usize].at as usize];
        let mut out = self.heroes[p as usize].ready();
        for (i, merit) in m.players[p as usize].merits.iter().enumerate() {
            if !league.allows(merit.merit_type) {
                out &= !(1 << i);
            }
        }
        out
    }

    /// The attribute side `p` uses for a test or trial of `kind`: Combat uses Might. A
    /// challenged character (`answering`) in a Combat test answers with the Combat of its best
    /// ready Ally when that is higher than its Might.
    pub fn attribute(&self, m: &Match, p: u8, kind: TestKind, answering: bool) -> i32 {
        let pl = &m.players[p as usize];
        match kind {
            TestKind::Might => pl.icon.might,
            TestKind::Savvy => pl.icon.savvy,
            TestKind::Resolve => pl.icon.resolve,
            TestKind::Combat => {
                let mut v = pl.icon.might;
                if answering {
                    let ready = self.usable(m, p);
                    for (i, merit) in pl.merits.iter().enumerate() {
                        if ready & (1 << i) != 0 && merit.merit_type == MeritType::Ally {
                            v = v.max(merit.combat.unwrap_or(0));
                        }
                    }
                }
                v
            }
        }
    }

    /// Standing bonuses to `kind`: the icon's, and those of ready merits that need no exhausting.
    pub fn passive(&self, m: &Match, p: u8, kind: TestKind) -> i32 {
        let pl = &m.players[p as usize];
        let ready = self.usable(m, p);
        // An icon's bonus always stands (it has no card to exhaust).
        let icon: i32 = self
            .forms(m, p, &pl.icon.effects)
            .map(|f| match f {
                EffectForm::Bonus { by, test, .. } if test == kind => by,
                _ => 0,
            })
            .sum();
        let merits: i32 = pl
            .merits
            .iter()
            .enumerate()
            .filter(|(i, _)| ready & (1 << i) != 0)
            .flat_map(|(_, merit)| self.forms(m, p, &merit.effects))
            .map(|f| match f {
                EffectForm::Bonus {
                    by,
                    test,
                    exhaust: false,
                } if test == kind => by,
                _ => 0,
            })
            .sum();
        icon + merits
    }

    /// Ready merits of `p` that give an exhaust bonus to `kind` (index, amount).
    fn bonus_merits<'m>(
        &self,
        m: &'m Match,
        p: u8,
        kind: TestKind,
    ) -> impl Iterator<Item = (u8, i32)> + use<'m> {
        let ready = self.usable(m, p);
        let at = self.heroes[p as usize].at;
        m.players[p as usize]
            .merits
            .iter()
            .enumerate()
            .filter_map(move |(i, merit)| {
                if ready & (1 << i) == 0 {
                    return None;
                }
                forms_at(m, at, &merit.effects).find_map(|f| match f {
                    EffectForm::Bonus {
                        by,
                        test,
                        exhaust: true,
                    } if test == kind => Some((i as u8, by)),
                    _ => None,
                })
            })
    }

    /// Ready merits of `p` with an effect form (counting where `p` stands) for which `f`
    /// holds.
    pub(crate) fn merits_with<'m, F: Fn(EffectForm) -> bool + 'm>(
        &self,
        m: &'m Match,
        p: u8,
        f: F,
    ) -> impl Iterator<Item = u8> + use<'m, F> {
        let ready = self.usable(m, p);
        let at = self.heroes[p as usize].at;
        m.players[p as usize]
            .merits
            .iter()
            .enumerate()
            .filter(move |(i, merit)| {
                ready & (1 << i) != 0 && forms_at(m, at, &merit.effects).any(&f)
            })
            .map(|(i, _)| i as u8)
    }

    /// Unexhausted flaws of `p` with a penalty to `kind` (index, amount).
    fn penalty_flaws<'m>(
        &self,
        m: &'m Match,
        p: u8,
        kind: TestKind,
    ) -> impl Iterator<Item = (u8, i32)> + use<'m> {
        let tired = self.heroes[p as usize].flaws_exhausted;
        let at = self.heroes[p as usize].at;
        m.players[p as usize]
            .flaws
            .iter()
            .enumerate()
            .filter_map(move |(i, f)| {
                if tired & (1 << i) != 0 {
                    return None;
                }
                forms_at(m, at, &f.effects).find_map(|f| match f {
                    EffectForm::Penalty { by, test } if test == kind => Some((i as u8, by)),
                    _ => None,
                })
            })
    }

    // ---- trials ----

    pub(crate) fn start_trial(&mut self, of: TrialOf, kind: TestKind, difficulty: i32) {
        self.trial = Trial {
            of,
            kind,
            difficulty,
            die: 0,
            bonus: 0,
        };
        self.phase = Phase::TrialRoll;
    }

    /// The trial's total: die, attribute, standing bonuses, bonuses paid.
    pub fn trial_total(&self, m: &Match) -> i32 {
        let t = &self.trial;
        i32::from(t.die)
            + self.attribute(m, self.active, t.kind, false)
            + self.passive(m, self.active, t.kind)
            + t.bonus
    }

    pub(crate) fn trial_check<L: Log>(&mut self, m: &Match, log: &mut L) {
        if self.trial_total(m) >= self.trial.difficulty {
            self.trial_done(m, true, log);
        } else {
            self.phase = Phase::TrialWindow;
        }
    }

    /// A failing trial: exhaust a bonus merit of the trial's kind, or accept the failure.
    pub(crate) fn trial_window_options(&self, m: &Match, out: &mut Opts) {
        for (i, _) in self.bonus_merits(m, self.active, self.trial.kind) {
            out.push(Opt::Bonus(i));
        }
        out.push(Opt::Accept);
    }

    pub(crate) fn on_trial_window<L: Log>(&mut self, m: &Match, opt: Opt, log: &mut L) {
        match opt {
            Opt::Bonus(i) => {
                let amount = self
                    .bonus_merits(m, self.active, self.trial.kind)
                    .find(|(j, _)| *j == i)
                    .map_or(0, |x| x.1);
                self.heroes[self.active as usize].exhausted |= 1 << i;
                self.trial.bonus += amount;
                log.push(Event::Bonus {
                    player: self.active,
                    merit: i,
                    amount,
                });
                self.trial_check(m, log);
            }
            _ => self.trial_done(m, false, log),
        }
    }

    fn trial_done<L: Log>(&mut self, m: &Match, pass: bool, log: &mut L) {
        let t = self.trial;
        let league = if t.of == TrialOf::Enter {
            self.dest.0
        } else {
            self.heroes[self.active as usize].at
        };
        let p = self.active;
        log.push(Event::Trial {
            player: self.active,
            of: t.of,
            league,
            kind: t.kind,
            die: t.die,
            total: self.trial_total(m),
            difficulty: t.difficulty,
            pass,
        });
        match (t.of, pass) {
            (TrialOf::Leave, true) => self.enter_step(m, log),
            (TrialOf::Enter, true) => self.arrive(m, log),
            (TrialOf::Leave | TrialOf::Enter | TrialOf::Stay | TrialOf::Rest, false) => {
                self.end_day(m, log)
            }
            (TrialOf::Stay, true) => self.face_next(m, log),
            (TrialOf::Rest, true) => self.rest_and_end(m, log),
            (TrialOf::Waylay(w), true) => self.phase = Phase::ChooseTest { waylay: w },
            (TrialOf::Waylay(w), false) => {
                let effect = m.waylays[w as usize]
                    .trial
                    .as_ref()
                    .map_or(Failure::Nothing, |t| t.on_failure());
                log.push(Event::TrialFailure {
                    player: p,
                    waylay: w,
                    effect,
                });
                self.fail_waylay_trial(m, w, effect, log);
            }
        }
    }

    /// A failed waylay trial's effect (the waylay's card says which); its test follows,
    /// unless the character is sent back to its Base Camp.
    fn fail_waylay_trial<L: Log>(&mut self, m: &Match, w: u8, effect: Failure, log: &mut L) {
        let p = self.active;
        let after = After::TestWaylay(w);
        match effect {
            // A merit of any type to exhaust: as a lost test (with no merit left, ruined).
            Failure::Exhaust(ALL_TYPES) => self.lose_merit(m, p, p, after, log),
            Failure::Exhaust(types) | Failure::Discard(types) => {
                let exhaust = matches!(effect, Failure::Exhaust(_));
                if self.typed_losses(m, p, types, exhaust) == 0 {
                    self.proceed(m, after, log);
                } else {
                    self.phase = Phase::LoseMerit {
                        who: p,
                        chooser: p,
                        after,
                        types,
                        exhaust,
                    };
                }
            }
            Failure::SkipDay => {
                self.heroes[p as usize].skip = true;
                self.proceed(m, after, log);
            }
            Failure::ReturnToBase => self.send_home(m, p, false, after, log),
            Failure::LoseTreasure => {
                let pl = &m.players[p as usize];
                let h = &mut self.heroes[p as usize];
                // A treasure still held: a discarded one is out of the game until the next
                // (rule card 4), not lost again onto the board.
                if let Some(t) = (0..pl.treasures()).find(|t| {
                    h.treasure_at[*t] == super::state::FOUND
                        && h.kept() & (1u32 << (pl.own + t)) != 0
                }) {
                    let bit = 1u32 << (pl.own + t);
                    h.owned &= !bit;
                    h.exhausted &= !bit;
                    h.treasures_found -= 1;
                    h.treasure_at[t] = h.at;
                    log.push(Event::TreasureLost {
                        player: p,
                        treasure: t as u8,
                        league: h.at,
                    });
                }
                self.proceed(m, after, log);
            }
            Failure::Nothing => self.proceed(m, after, log),
        }
    }

    /// The merits `who` could lose to a loss limited to `types`: every kept one of them (to
    /// exhaust if ready and `exhaust`, else to discard).
    pub(crate) fn typed_losses(&self, m: &Match, who: u8, types: u8, _exhaust: bool) -> u32 {
        let h = &self.heroes[who as usize];
        let mut of = 0u32;
        for (i, merit) in m.players[who as usize].merits.iter().enumerate() {
            if types & merit.merit_type.bit() != 0 {
                of |= 1 << i;
            }
        }
        h.kept() & of
    }

    // ---- tests ----

    pub(crate) fn start_contest(&mut self, foe: Foe, kind: TestKind) {
        self.contest = Contest {
            foe,
            kind,
            dice: [0; 4],
            rolled: 0,
            bonus: [0; 2],
            penalty: [0; 2],
        };
        self.phase = Phase::TestRoll;
    }

    /// A side's score in the test under way (side 0: the active character).
    pub fn score(&self, m: &Match, side: u8) -> i32 {
        let c = &self.contest;
        let s = side as usize;
        let dice = i32::from(c.dice[2 * s]) + i32::from(c.dice[2 * s + 1]);
        let here = |p: u8| m.leagues[self.heroes[p as usize].at as usize].modifier(c.kind);
        let base = if side == 0 {
            self.attribute(m, self.active, c.kind, false)
                + self.passive(m, self.active, c.kind)
                + here(self.active)
        } else {
            match c.foe {
                Foe::Waylay(w) => m.waylays[w as usize].value(c.kind).unwrap_or(0),
                Foe::Character => {
                    self.attribute(m, self.other(), c.kind, true)
                        + self.passive(m, self.other(), c.kind)
                        + here(self.other())
                }
            }
        };
        base + dice + c.bonus[s] - c.penalty[s]
    }

    /// After the roll: the side that is not winning may act (side 0 on a tie).
    pub(crate) fn window(&mut self, m: &Match) {
        let side = if self.score(m, 0) > self.score(m, 1) {
            1
        } else {
            0
        };
        self.phase = Phase::TestWindow { side };
    }

    /// The player deciding for a side of the test.
    fn side_player(&self, side: u8) -> u8 {
        if side == 0 { self.active } else { self.other() }
    }

    /// Own bonus merits of the test's kind, own retests, the other character's penalty flaws,
    /// then accept. A waylay's side only has the active character's flaws.
    pub(crate) fn window_options(&self, m: &Match, side: u8, out: &mut Opts) {
        let kind = self.contest.kind;
        let me = self.side_player(side);
        let them = 1 - me;
        let character_side = side == 0 || self.contest.foe == Foe::Character;
        if character_side {
            for (i, _) in self.bonus_merits(m, me, kind) {
                out.push(Opt::Bonus(i));
            }
            // A retest only for a lost test (`lost_only`) is not offered on a Stalemate.
            let lost = self.score(m, side) < self.score(m, 1 - side);
            for i in self.merits_with(
                m,
                me,
                move |f| matches!(f, EffectForm::Retest { lost_only } if lost || !lost_only),
            ) {
                out.push(Opt::Retest(i));
            }
        }
        // Side 1 of a waylay test may always use the character's flaws; a character may use
        // the other character's.
        if side == 1 || self.contest.foe == Foe::Character {
            for (f, _) in self.penalty_flaws(m, them, kind) {
                out.push(Opt::Penalty(f));
            }
        }
        out.push(Opt::Accept);
    }

    pub(crate) fn on_window<L: Log>(&mut self, m: &Match, side: u8, opt: Opt, log: &mut L) {
        let me = self.side_player(side);
        let them = 1 - me;
        let kind = self.contest.kind;
        match opt {
            Opt::Bonus(i) => {
                let amount = self
                    .bonus_merits(m, me, kind)
                    .find(|(j, _)| *j == i)
                    .map_or(0, |x| x.1);
                self.heroes[me as usize].exhausted |= 1 << i;
                self.contest.bonus[side as usize] += amount;
                log.push(Event::Bonus {
                    player: me,
                    merit: i,
                    amount,
                });
                self.window(m);
            }
            Opt::Retest(i) => {
                self.heroes[me as usize].exhausted |= 1 << i;
                log.push(Event::Retest {
                    player: me,
                    merit: i,
                });
                self.contest.rolled = 0;
                self.phase = Phase::TestRoll;
            }
            Opt::Penalty(f) => {
                let amount = self
                    .penalty_flaws(m, them, kind)
                    .find(|(j, _)| *j == f)
                    .map_or(0, |x| x.1);
                self.heroes[them as usize].flaws_exhausted |= 1 << f;
                self.contest.penalty[1 - side as usize] += amount;
                log.push(Event::Penalty {
                    by: me,
                    on: them,
                    flaw: f,
                    amount,
                });
                self.window(m);
            }
            _ => self.resolve(m, log),
        }
    }

    fn resolve<L: Log>(&mut self, m: &Match, log: &mut L) {
        let scores = [self.score(m, 0), self.score(m, 1)];
        let outcome = match scores[0].cmp(&scores[1]) {
            std::cmp::Ordering::Greater => Outcome::Won,
            std::cmp::Ordering::Equal => Outcome::Stalemate,
            std::cmp::Ordering::Less => Outcome::Lost,
        };
        let p = self.active;
        log.push(Event::TestResult {
            player: p,
            kind: self.contest.kind,
            scores,
            outcome,
        });
        match (self.contest.foe, outcome) {
            (Foe::Waylay(w), Outcome::Won) => {
                self.waylay_at[w as usize] = DEFEATED;
                self.heroes[p as usize].waylays_defeated += 1;
                log.push(Event::WaylayDefeated {
                    player: p,
                    waylay: w,
                });
                self.face_next(m, log);
            }
            (Foe::Waylay(_), Outcome::Stalemate) => self.face_next(m, log),
            (Foe::Waylay(_), Outcome::Lost) => self.lose_merit(m, p, p, After::NextWaylay, log),
            (Foe::Character, Outcome::Won) => self.phase = Phase::Spoils { winner: p },
            (Foe::Character, Outcome::Lost) => {
                self.phase = Phase::Spoils {
                    winner: self.other(),
                }
            }
            (Foe::Character, Outcome::Stalemate) => self.end_day(m, log),
        }
    }

    // ---- losing merits ----

    /// A loss limited to merit `types` (a failed waylay trial): with `exhaust`, a ready merit
    /// of them to exhaust, then an exhausted one of them to discard (as for a lost test);
    /// else any kept one of them to discard (merit order).
    pub(crate) fn typed_lose_options(
        &self,
        m: &Match,
        who: u8,
        types: u8,
        exhaust: bool,
        out: &mut Opts,
    ) {
        let h = &self.heroes[who as usize];
        let can = self.typed_losses(m, who, types, exhaust);
        let n = m.players[who as usize].merits.len() as u8;
        if exhaust {
            for i in (0..n).filter(|i| can & h.ready() & (1 << i) != 0) {
                out.push(Opt::Exhaust(i));
            }
            for i in (0..n).filter(|i| can & h.exhausted & (1 << i) != 0) {
                out.push(Opt::Discard(i));
            }
        } else {
            for i in (0..n).filter(|i| can & (1 << i) != 0) {
                out.push(Opt::Discard(i));
            }
        }
    }

    /// Exhaust a ready merit, or discard an exhausted one (merit order).
    pub(crate) fn lose_options(&self, m: &Match, who: u8, out: &mut Opts) {
        let h = &self.heroes[who as usize];
        let n = m.players[who as usize].merits.len();
        for i in 0..n as u8 {
            if h.ready() & (1 << i) != 0 {
                out.push(Opt::Exhaust(i));
            }
        }
        for i in 0..n as u8 {
            if h.kept() & h.exhausted & (1 << i) != 0 {
                out.push(Opt::Discard(i));
            }
        }
    }

    /// `who` lost: `chooser` picks the merit; with none left, `who` is ruined.
    pub(crate) fn lose_merit<L: Log>(
        &mut self,
        m: &Match,
        who: u8,
        chooser: u8,
        after: After,
        log: &mut L,
    ) {
        if self.heroes[who as usize].kept() == 0 {
            self.ruin(m, who, after, log);
        } else {
            self.phase = Phase::LoseMerit {
                who,
                chooser,
                after,
                types: ALL_TYPES,
                exhaust: true,
            };
        }
    }

    pub(crate) fn apply_loss<L: Log>(
        &mut self,
        m: &Match,
        who: u8,
        opt: Opt,
        after: After,
        log: &mut L,
    ) {
        let h = &mut self.heroes[who as usize];
        match opt {
            Opt::Exhaust(i) => {
                h.exhausted |= 1 << i;
                log.push(Event::Exhausts {
                    player: who,
                    merit: i,
                });
            }
            Opt::Discard(i) => {
                h.exhausted &= !(1 << i);
                h.discarded |= 1 << i;
                log.push(Event::Discards {
                    player: who,
                    merit: i,
                });
            }
            _ => {}
        }
        if opt == Opt::Ruin || self.heroes[who as usize].kept() == 0 {
            self.ruin(m, who, after, log);
        } else {
            self.proceed(m, after, log);
        }
    }

    pub(crate) fn proceed<L: Log>(&mut self, m: &Match, after: After, log: &mut L) {
        match after {
            After::TestWaylay(w) => self.phase = Phase::ChooseTest { waylay: w },
            After::NextWaylay => self.face_next(m, log),
            After::EndDay => self.end_day(m, log),
        }
    }

    /// Every merit discarded: back to the Base Camp, skipping the next Day; when the Base
    /// Camp would complete one of its quests, the opponent places it instead.
    fn ruin<L: Log>(&mut self, m: &Match, who: u8, after: After, log: &mut L) {
        self.send_home(m, who, true, after, log);
    }

    /// Back to the Base Camp (`ruined`: every merit discarded, skipping the next Day); when
    /// the Base Camp would complete one of its quests, the opponent places it instead.
    pub(crate) fn send_home<L: Log>(
        &mut self,
        m: &Match,
        who: u8,
        ruined: bool,
        after: After,
        log: &mut L,
    ) {
        let base = self.heroes[who as usize].base;
        if self.would_complete(m, who, base) {
            self.phase = Phase::Relocate { who, after, ruined };
        } else {
            self.ruin_to(m, who, base, ruined, after, log);
        }
    }

    pub(crate) fn ruin_to<L: Log>(
        &mut self,
        m: &Match,
        who: u8,
        l: u8,
        ruined: bool,
        after: After,
        log: &mut L,
    ) {
        self.enter_league(m, who, l, None);
        if ruined {
            self.heroes[who as usize].skip = true;
            log.push(Event::Ruined { player: who, to: l });
        } else {
            log.push(Event::SentBack { player: who, to: l });
        }
        if who == self.active {
            self.end_day(m, log);
        } else {
            self.proceed(m, after, log);
        }
    }

    /// Leagues where placing `who` completes none of its quests (every league if none is).
    pub(crate) fn relocate_options(&self, m: &Match, who: u8, out: &mut Opts) {
        let board = self.laid_order(m);
        for &l in &board {
            if !self.would_complete(m, who, l) {
                out.push(Opt::Place(l));
            }
        }
        if out.is_empty() {
            for l in board {
                out.push(Opt::Place(l));
            }
        }
    }

    /// The winner of a test between characters: which merit the loser loses (or `Ruin` when
    /// it has none), then a push in each direction the loser's league has a neighbour.
    pub(crate) fn spoils_options(&self, m: &Match, winner: u8, out: &mut Opts) {
        let loser = 1 - winner;
        self.lose_options(m, loser, out);
        if out.is_empty() {
            out.push(Opt::Ruin);
        }
        let at = self.heroes[loser as usize].at as usize;
        for d in 0..4u8 {
            if self.neighbour(m, at as u8, d).is_some() {
                out.push(Opt::Push(d));
            }
        }
    }

    pub(crate) fn on_spoils<L: Log>(&mut self, m: &Match, winner: u8, opt: Opt, log: &mut L) {
        let loser = 1 - winner;
        match opt {
            Opt::Push(d) => {
                let at = self.heroes[loser as usize].at as usize;
                if let Some(to) = self.neighbour(m, at as u8, d) {
                    self.enter_league(m, loser, to, Some(super::days::opposite(d)));
                    log.push(Event::Pushed {
                        player: loser,
                        to,
                        dir: d,
                    });
                }
                self.end_day(m, log);
            }
            o => self.apply_loss(m, loser, o, After::EndDay, log),
        }
    }
}
