//! The match flow (rules cards 3-4): the first-player roll, hiding treasures, and each Day
//! in its order: move or stay (leave trial, enter trial), the opponent's waylay, then
//! exactly one encounter (the waylays, or the other character, a treasure, the Rest).
//! [`State::apply`] takes a die face or a decision option and runs on to the next node;
//! a decision with a single option is taken at once.

use crate::games::arcadia::model::{Side, TrialOn, type_mask};

use super::events::{Event, Log};
use super::setup::{DIRS, Match};
use super::state::{
    ALL_TYPES, Ended, FOUND, Opt, Opts, Phase, State, TrialOf, UNPLACED, Winner, mask,
};

impl State {
    /// The options of the current decision (empty at chance and terminal nodes), in the
    /// `first` order.
    pub fn options(&self, m: &Match, out: &mut Opts) {
        out.clear();
        match self.phase {
            Phase::LayLeague { player } => self.lay_options(m, player, out),
            Phase::LayAt { slot, .. } => self.lay_at_options(m, slot, out),
            Phase::ChooseBase { .. } => self.base_options(m, out),
            Phase::PlaceTreasure { .. } => self.hide_options(m, out),
            Phase::Move => self.move_options(m, out),
            Phase::TrialWindow => self.trial_window_options(m, out),
            Phase::PlayWaylay => self.play_options(m, out),
            Phase::Encounter => self.encounter_options(m, out),
            Phase::ChooseTest { waylay } => self.test_options(m, waylay, out),
            Phase::TestWindow { side } => self.window_options(m, side, out),
            Phase::LoseMerit {
                who,
                types: ALL_TYPES,
                exhaust: true,
                ..
            } => self.lose_options(m, who, out),
            Phase::LoseMerit {
                who,
                types,
                exhaust,
                ..
            } => self.typed_lose_options(m, who, types, exhaust, out),
            Phase::Spoils { winner } => self.spoils_options(m, winner, out),
            Phase::Relocate { who, .. } => self.relocate_options(m, who, out),
            Phase::LookAt { .. } => self.look_options(m, out),
            Phase::FirstRoll { .. } | Phase::TrialRoll | Phase::TestRoll | Phase::Over => {}
        }
    }

    /// Applies a chance outcome (`action` = face - 1) or a decision option (its index; an
    /// index past the end takes the first option), then runs to the next node.
    pub fn apply<L: Log>(&mut self, m: &Match, action: usize, log: &mut L) {
        match self.phase {
            Phase::Over => return,
            Phase::FirstRoll { .. } | Phase::TrialRoll | Phase::TestRoll => {
                self.dice_used += 1;
                self.on_die(m, (action.min(5) + 1) as u8, log);
            }
            _ => {
                let mut o = Opts::default();
                self.options(m, &mut o);
                let opts = o.as_slice();
                if let Some(opt) = opts.get(action).or(opts.first()).copied() {
                    self.on_opt(m, opt, log);
                }
            }
        }
        self.settle(m, log);
    }

    /// Stops the match because the dice ran out.
    pub fn stop_exhausted<L: Log>(&mut self, log: &mut L) {
        self.finish(Ended::DiceExhausted, None, log);
    }

    /// Takes every decision that has a single option.
    pub(crate) fn settle<L: Log>(&mut self, m: &Match, log: &mut L) {
        loop {
            if matches!(
                self.phase,
                Phase::Over | Phase::FirstRoll { .. } | Phase::TrialRoll | Phase::TestRoll
            ) {
                return;
            }
            let mut o = Opts::default();
            self.options(m, &mut o);
            match o.as_slice() {
                [only] => self.on_opt(m, *only, log),
                [] => self.end_day(m, log),
                _ => return,
            }
        }
    }

    fn on_die<L: Log>(&mut self, m: &Match, face: u8, log: &mut L) {
        match self.phase {
            Phase::FirstRoll { p1: None } => self.phase = Phase::FirstRoll { p1: Some(face) },
            Phase::FirstRoll { p1: Some(a) } => {
                if a == face {
                    log.push(Event::FirstRoll {
                        p1: a,
                        p2: face,
                        first: None,
                    });
                    self.phase = Phase::FirstRoll { p1: None };
                } else {
                    let first = if a < face { 0 } else { 1 };
                    log.push(Event::FirstRoll {
                        p1: a,
                        p2: face,
                        first: Some(first),
                    });
                    self.first = first;
                    self.active = first;
                    if m.laid {
                        self.next_hider(m, first, log);
                    } else {
                        self.next_layer(m, first, log);
                    }
                }
            }
            Phase::TrialRoll => {
                self.trial.die = face;
                self.trial_check(m, log);
            }
            Phase::TestRoll => {
                let c = &mut self.contest;
                c.dice[c.rolled as usize] = face;
                c.rolled += 1;
                if c.rolled == 4 {
                    let scores = [self.score(m, 0), self.score(m, 1)];
                    log.push(Event::TestRoll {
                        dice: self.contest.dice,
                        scores,
                    });
                    self.window(m);
                }
            }
            _ => {}
        }
    }

    fn on_opt<L: Log>(&mut self, m: &Match, opt: Opt, log: &mut L) {
        match (self.phase, opt) {
            (Phase::LayLeague { player }, Opt::Lay(slot)) => {
                self.phase = Phase::LayAt { player, slot }
            }
            (Phase::LayAt { player, slot }, Opt::At(x, y)) => {
                self.on_lay_at(m, player, slot, x, y, log)
            }
            (Phase::ChooseBase { chooser }, Opt::Place(l)) => self.on_base(m, chooser, l, log),
            (Phase::PlaceTreasure { player }, Opt::Hide(l)) => {
                let h = &mut self.heroes[player as usize];
                if let Some(t) = h.treasure_at.iter().position(|x| *x == UNPLACED) {
                    h.treasure_at[t] = l;
                    log.push(Event::TreasureHidden {
                        player,
                        treasure: t as u8,
                        league: l,
                    });
                }
                self.next_hider(m, 1 - player, log);
            }
            (Phase::Move, Opt::Go(d)) => self.go(m, d, log),
            (Phase::Move, Opt::Stay) => {
                let here = self.heroes[self.active as usize].at;
                log.push(Event::Stays {
                    player: self.active,
                    league: here,
                });
                match m.leagues[here as usize].extra_trial(TrialOn::Stay) {
                    Some(t) => self.start_trial(TrialOf::Stay, t.attribute, t.difficulty),
                    None => self.face_next(m, log),
                }
            }
            (Phase::TrialWindow, o) => self.on_trial_window(m, o, log),
            (Phase::PlayWaylay, o) => self.on_play(m, o, log),
            (Phase::Encounter, o) => self.on_encounter(m, o, log),
            (Phase::ChooseTest { waylay }, o) => self.on_choose_test(m, waylay, o, log),
            (Phase::TestWindow { side }, o) => self.on_window(m, side, o, log),
            (Phase::LoseMerit { who, after, .. }, o) => self.apply_loss(m, who, o, after, log),
            (Phase::Spoils { winner }, o) => self.on_spoils(m, winner, o, log),
            (Phase::Relocate { who, after, ruined }, Opt::Place(l)) => {
                self.ruin_to(m, who, l, ruined, after, log)
            }
            (Phase::LookAt { left }, Opt::Look(l)) => self.look_at(m, l, left, log),
            _ => {}
        }
    }

    /// The next player to hide a treasure (`prefer` if it has one left, else the other),
    /// or, when all are hidden, the Base Camps to choose or the first Day.
    pub(crate) fn next_hider<L: Log>(&mut self, m: &Match, prefer: u8, log: &mut L) {
        let left = |p: u8| {
            let n = m.players[p as usize].treasures();
            self.heroes[p as usize].treasure_at[..n].contains(&UNPLACED)
        };
        if left(prefer) {
            self.phase = Phase::PlaceTreasure { player: prefer };
        } else if left(1 - prefer) {
            self.phase = Phase::PlaceTreasure { player: 1 - prefer };
        } else {
            self.next_base(m, log);
        }
    }

    /// Leagues without a treasure (every league once all hold one), in the order laid.
    fn hide_options(&self, m: &Match, out: &mut Opts) {
        let mut taken = 0u64;
        for (p, h) in self.heroes.iter().enumerate() {
            for t in &h.treasure_at[..m.players[p].treasures()] {
                if (*t as usize) < m.leagues.len() {
                    taken |= 1 << t;
                }
            }
        }
        let board = self.laid_order(m);
        let free = board.iter().filter(|l| taken & (1 << **l) == 0).count();
        for l in board {
            if free == 0 || taken & (1 << l) == 0 {
                out.push(Opt::Hide(l));
            }
        }
    }

    pub(crate) fn begin_day<L: Log>(&mut self, m: &Match, log: &mut L) {
        if self.day >= m.turn_limit {
            self.finish(Ended::TurnLimit, Some(Winner::Draw), log);
            return;
        }
        self.day += 1;
        self.faced = 0;
        log.push(Event::Day {
            day: self.day,
            player: self.active,
        });
        let h = &mut self.heroes[self.active as usize];
        if h.skip {
            h.skip = false;
            log.push(Event::SkipsDay {
                player: self.active,
            });
            self.end_day(m, log);
        } else {
            self.phase = Phase::Move;
        }
    }

    pub(crate) fn end_day<L: Log>(&mut self, m: &Match, log: &mut L) {
        for p in [self.active, self.other()] {
            if self.check_quests(m, p, log) {
                self.finish(Ended::Victory, Some(Winner::Player(p)), log);
                return;
            }
        }
        // A quest failed (its time limit passed) and neither character can complete its
        // quests any more: the match is decided, a draw (docs/rulings.md).
        let stuck = |p: usize| m.players[p].quests.is_empty() || self.heroes[p].quests_failed != 0;
        if (self.heroes[0].quests_failed | self.heroes[1].quests_failed) != 0
            && stuck(0)
            && stuck(1)
        {
            self.finish(Ended::Victory, Some(Winner::Draw), log);
            return;
        }
        self.active = self.other();
        self.begin_day(m, log);
    }

    pub(crate) fn finish<L: Log>(&mut self, ended: Ended, winner: Option<Winner>, log: &mut L) {
        self.ended = Some((ended, winner));
        self.phase = Phase::Over;
        log.push(Event::End { ended, winner });
    }

    /// Moves (directions in `DIRS` order), then staying. From a league holding an undefeated
    /// waylay the only move is back the way the character came (any way if it was placed there).
    fn move_options(&self, m: &Match, out: &mut Opts) {
        let h = &self.heroes[self.active as usize];
        let blocked = self.waylays_in(m, h.at) != 0;
        for d in 0..4u8 {
            if self.neighbour(m, h.at, d).is_some()
                && (!blocked || h.came_from.is_none_or(|c| c == d))
            {
                out.push(Opt::Go(d));
            }
        }
        out.push(Opt::Stay);
    }

    fn go<L: Log>(&mut self, m: &Match, d: u8, log: &mut L) {
        let here = self.heroes[self.active as usize].at;
        let Some(to) = self.neighbour(m, here, d) else {
            return self.end_day(m, log);
        };
        self.dest = (to, d);
        match &m.leagues[here as usize].leave {
            Some(t) => self.start_trial(TrialOf::Leave, t.attribute, t.difficulty),
            None => self.enter_step(m, log),
        }
    }

    /// After leaving: the destination's enter trial, if any.
    pub(crate) fn enter_step<L: Log>(&mut self, m: &Match, log: &mut L) {
        match &m.leagues[self.dest.0 as usize].enter {
            Some(t) => self.start_trial(TrialOf::Enter, t.attribute, t.difficulty),
            None => self.arrive(m, log),
        }
    }

    /// The character is in the new league; the opponent may play a waylay on it.
    pub(crate) fn arrive<L: Log>(&mut self, m: &Match, log: &mut L) {
        let (to, d) = self.dest;
        let p = self.active;
        let from = self.heroes[p as usize].at;
        self.enter_league(m, p, to, Some(opposite(d)));
        log.push(Event::Moves {
            player: p,
            from,
            to,
            dir: d,
        });
        self.phase = Phase::PlayWaylay;
    }

    /// Puts a character in a league (moved, pushed or placed).
    pub(crate) fn enter_league(&mut self, _m: &Match, who: u8, l: u8, came_from: Option<u8>) {
        let h = &mut self.heroes[who as usize];
        h.at = l;
        h.came_from = came_from;
        h.visited |= 1u64 << l;
        for s in &mut h.seq_seen {
            *s |= 1u64 << l;
        }
        if l != h.base {
            h.left_base = true;
        }
    }

    /// Treasure (when one of the character's own lies here), Rest, then a challenge of each
    /// test type when the other character is here and not in its own Base Camp.
    fn encounter_options(&self, m: &Match, out: &mut Opts) {
        let p = self.active as usize;
        let h = &self.heroes[p];
        if h.treasure_at[..m.players[p].treasures()].contains(&h.at) {
            out.push(Opt::Treasure);
        }
        out.push(Opt::Rest);
        let o = &self.heroes[1 - p];
        if o.at == h.at && o.at != o.base {
            for k in super::state::KINDS {
                out.push(Opt::Challenge(k));
            }
        }
    }

    fn on_encounter<L: Log>(&mut self, m: &Match, opt: Opt, log: &mut L) {
        let p = self.active;
        match opt {
            Opt::Treasure => {
                let pl = &m.players[p as usize];
                let h = &mut self.heroes[p as usize];
                for t in 0..pl.treasures() {
                    if h.treasure_at[t] == h.at {
                        h.treasure_at[t] = FOUND;
                        h.shown |= 1 << t;
                        h.owned |= 1 << (pl.own + t);
                        h.treasures_found += 1;
                        log.push(Event::TreasureFound {
                            player: p,
                            treasure: t as u8,
                        });
                    }
                }
                self.end_day(m, log);
            }
            Opt::Rest => {
                match m.leagues[self.heroes[p as usize].at as usize].extra_trial(TrialOn::Rest) {
                    Some(t) => self.start_trial(TrialOf::Rest, t.attribute, t.difficulty),
                    None => self.rest_and_end(m, log),
                }
            }
            Opt::Challenge(k) => {
                log.push(Event::Challenges { player: p, kind: k });
                self.start_contest(super::state::Foe::Character, k);
            }
            _ => {}
        }
    }

    /// The Rest, then (in a league that lets a resting character look at face-down
    /// treasures) the looking, then the end of the Day.
    pub(crate) fn rest_and_end<L: Log>(&mut self, m: &Match, log: &mut L) {
        self.rest(m, log);
        let looks = m.leagues[self.heroes[self.active as usize].at as usize].looks();
        if looks > 0 {
            self.phase = Phase::LookAt {
                left: looks.min(u32::from(u8::MAX)) as u8,
            };
            // `settle` ends the Day when there is nothing to look at.
        } else {
            self.end_day(m, log);
        }
    }

    /// The other player's face-down treasure (hidden, never found, not yet looked at) in
    /// `l`, by its index.
    fn face_down_in(&self, m: &Match, l: u8) -> Option<usize> {
        let q = usize::from(self.other());
        let h = &self.heroes[q];
        (0..m.players[q].treasures())
            .find(|&t| h.treasure_at[t] == l && (h.shown | h.peeked) & (1 << t) == 0)
    }

    /// The leagues holding a face-down treasure of the other player, in the order laid.
    fn look_options(&self, m: &Match, out: &mut Opts) {
        for l in self.laid_order(m) {
            if self.face_down_in(m, l).is_some() {
                out.push(Opt::Look(l));
            }
        }
    }

    /// The active player looks at the other's face-down treasure in `l`; with looks `left`
    /// after this one and treasures still face down, it looks again, else the Day ends.
    fn look_at<L: Log>(&mut self, m: &Match, l: u8, left: u8, log: &mut L) {
        let Some(t) = self.face_down_in(m, l) else {
            return self.end_day(m, log);
        };
        let q = usize::from(self.other());
        self.heroes[q].peeked |= 1 << t;
        log.push(Event::TreasureSeen {
            player: self.active,
            treasure: t as u8,
            league: l,
        });
        if left > 1 {
            self.phase = Phase::LookAt { left: left - 1 };
        } else {
            self.end_day(m, log);
        }
    }

    /// Rest: every exhausted merit of a type the league lists; in the character's own Base
    /// Camp also its first other exhausted merit; where the league lists `flaw`, the opponent
    /// recovers the character's first exhausted flaw.
    pub(crate) fn rest<L: Log>(&mut self, m: &Match, log: &mut L) {
        let p = self.active as usize;
        let pl = &m.players[p];
        let h = &mut self.heroes[p];
        let league = &m.leagues[h.at as usize];
        let tired = h.exhausted & !h.discarded & h.owned;
        let mut rec = 0u32;
        for (i, merit) in pl.merits.iter().enumerate() {
            if tired & (1 << i) != 0 && league.rest.iter().any(|r| r == merit.merit_type.as_str()) {
                rec |= 1 << i;
            }
        }
        if h.at == h.base {
            let rest = tired & !rec;
            if rest != 0 {
                rec |= 1 << rest.trailing_zeros();
            }
        }
        // League effects: `rest_extra` more merits of their types, first in merit order.
        for (n, types) in league.rest_extras() {
            let types = type_mask(types);
            let mut left = n;
            for (i, merit) in pl.merits.iter().enumerate() {
                if left > 0 && tired & !rec & (1 << i) != 0 && types & merit.merit_type.bit() != 0 {
                    rec |= 1 << i;
                    left -= 1;
                }
            }
        }
        h.exhausted &= !rec;
        let mut flaw = None;
        if league.rest.iter().any(|r| r == "flaw") && h.flaws_exhausted != 0 {
            let f = h.flaws_exhausted.trailing_zeros() as u8;
            h.flaws_exhausted &= !(1 << f);
            flaw = Some(f);
        }
        log.push(Event::Rests {
            player: p as u8,
            league: h.at,
            recovered: rec,
            flaw,
        });
        debug_assert!(rec & !mask(pl.merits.len()) == 0);
    }
}

/// The direction opposite `d` (indices of `DIRS`).
pub fn opposite(d: u8) -> u8 {
    let s: Side = DIRS[d as usize % 4].opposite();
    super::setup::dir_index(s)
}
