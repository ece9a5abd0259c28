//! Waylays (rules card 3, "Playing and Encountering Waylays"): the opponent may play one on
//! a league the character has just entered (terrain sharing a feature, or `any`; never in
//! the character's own Base Camp; never where a waylay already lies). A character in a
//! league with waylays faces each of them that Day, lowest rating first, with a trial first
//! when the waylay has one, then a test of a type the waylay lists (or another type it has a
//! value for, by exhausting a change-test merit).

use crate::games::arcadia::model::EffectForm;

use super::events::{Event, Log};
use super::setup::Match;
use super::state::{Foe, IN_HAND, KINDS, Opt, Opts, Phase, State, TrialOf};

impl State {
    /// The opponent's waylays that fit the league just entered (their list order; not a
    /// rating the league forbids), then hold.
    pub(crate) fn play_options(&self, m: &Match, out: &mut Opts) {
        let p = self.active as usize;
        let here = self.heroes[p].at;
        if here != self.heroes[p].base && self.waylays_in(m, here) == 0 {
            let league = &m.leagues[here as usize];
            for (w, waylay) in m.waylays.iter().enumerate() {
                if m.waylay_owner[w] == self.other()
                    && self.waylay_at[w] == IN_HAND
                    && waylay.fits_terrain(&league.terrain)
                    && league.allows_rating(waylay.rating)
                {
                    out.push(Opt::Play(w as u8));
                }
            }
        }
        out.push(Opt::Hold);
    }

    pub(crate) fn on_play<L: Log>(&mut self, m: &Match, opt: Opt, log: &mut L) {
        if let Opt::Play(w) = opt {
            let here = self.heroes[self.active as usize].at;
            self.waylay_at[w as usize] = here;
            log.push(Event::WaylayPlayed {
                by: self.other(),
                waylay: w,
                league: here,
            });
        }
        self.face_next(m, log);
    }

    /// The next waylay of the league not yet faced this Day (lowest rating, then list order);
    /// with none, the encounter choice, or the end of the Day once a waylay was faced.
    pub(crate) fn face_next<L: Log>(&mut self, m: &Match, log: &mut L) {
        let here = self.heroes[self.active as usize].at;
        let pending = self.waylays_in(m, here) & !self.faced;
        if pending == 0 {
            if self.faced != 0 {
                self.end_day(m, log);
            } else {
                self.phase = Phase::Encounter;
            }
            return;
        }
        let w = (0..m.waylays.len())
            .filter(|w| pending & (1 << w) != 0)
            .min_by_key(|w| (m.waylays[*w].rating, *w))
            .unwrap_or(0) as u8;
        self.faced |= 1 << w;
        match &m.waylays[w as usize].trial {
            Some(t) => self.start_trial(TrialOf::Waylay(w), t.attribute, t.difficulty),
            None => self.phase = Phase::ChooseTest { waylay: w },
        }
    }

    /// The waylay's listed tests it has a value for (card order; a listed test without a
    /// value can never be used), then each other test it has a value for, paid with the
    /// character's first ready change-test merit.
    pub(crate) fn test_options(&self, m: &Match, w: u8, out: &mut Opts) {
        let waylay = &m.waylays[w as usize];
        for k in &waylay.tests {
            if waylay.value(*k).is_some() {
                out.push(Opt::Test(*k));
            }
        }
        if let Some(i) = self
            .merits_with(m, self.active, |f| f == EffectForm::ChangeTest)
            .next()
        {
            for k in KINDS {
                if !waylay.tests.contains(&k) && waylay.value(k).is_some() {
                    out.push(Opt::Change(k, i));
                }
            }
        }
        if out.is_empty() {
            // A waylay listing no test is faced with the first test it has a value for.
            let k = KINDS
                .into_iter()
                .find(|k| waylay.value(*k).is_some())
                .unwrap_or(KINDS[0]);
            out.push(Opt::Test(k));
        }
    }

    pub(crate) fn on_choose_test<L: Log>(&mut self, _m: &Match, w: u8, opt: Opt, log: &mut L) {
        let p = self.active;
        let kind = match opt {
            Opt::Test(k) => k,
            Opt::Change(k, i) => {
                self.heroes[p as usize].exhausted |= 1 << i;
                log.push(Event::ChangesTest {
                    player: p,
                    merit: i,
                    kind: k,
                });
                k
            }
            _ => return,
        };
        log.push(Event::Faces {
            player: p,
            waylay: w,
            kind,
        });
        self.start_contest(Foe::Waylay(w), kind);
    }
}
