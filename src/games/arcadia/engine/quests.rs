//! Quest objectives (`spec/arcadia.md`): checked at the end of every Day for both
//! characters, the active one first; a quest once complete stays complete. `reach` and
//! `reach_terrain` count leagues entered during play (the starting Base Camp once
//! re-entered); `return_to_base` holds in the Base Camp after having left it;
//! `hold_treasures` and `in_terrain` hold while the character holds the treasures, stands in
//! the terrain. A quest with a `time_limit` not done by the end of that many of the
//! character's own Days fails and can no longer be completed. A `then`
//! objective is done step by step: a step counts only once the steps before it are done,
//! and a `reach` step counts the league the character stands in when the step before it was
//! done and the leagues it enters after.

use crate::games::arcadia::model::Objective;

use super::events::{Event, Log};
use super::setup::Match;
use super::state::{Hero, State};

/// Does `obj` hold for player `p` whose character is `h`? (A `then` objective of `p`'s
/// quests holds once its steps were done in order; one that is not part of them holds when
/// all its steps hold.)
pub fn holds(m: &Match, p: u8, h: &Hero, obj: &Objective) -> bool {
    eval(m, p, h, obj, h.visited)
}

/// `obj` with `seen` the leagues a `reach` may count.
fn eval(m: &Match, p: u8, h: &Hero, obj: &Objective, seen: u64) -> bool {
    let visited =
        |f: &dyn Fn(usize) -> bool| (0..m.leagues.len()).any(|l| seen & (1u64 << l) != 0 && f(l));
    match obj {
        Objective::Reach(id) => visited(&|l| m.leagues[l].id == *id),
        Objective::ReachTerrain(t) => visited(&|l| m.leagues[l].terrain.contains(t)),
        Objective::CollectTreasures(n) => u32::from(h.treasures_found) >= *n,
        Objective::DefeatWaylays(n) => u32::from(h.waylays_defeated) >= *n,
        Objective::ReturnToBase(want) => !*want || (h.at == h.base && h.left_base),
        Objective::HoldTreasures(n) => held_treasures(m, p, h) >= *n,
        Objective::InTerrain(t) => m
            .leagues
            .get(usize::from(h.at))
            .is_some_and(|l| h.base != super::setup::NO_BASE && l.terrain.contains(t)),
        Objective::All(v) => v.iter().all(|o| eval(m, p, h, o, seen)),
        Objective::Any(v) => v.iter().any(|o| eval(m, p, h, o, seen)),
        Objective::Then(v) => match sequence_index(m, p, obj) {
            Some(i) => h.seq_step[i] as usize >= v.len(),
            None => v.iter().all(|o| eval(m, p, h, o, seen)),
        },
    }
}

/// How many quest treasures `p`'s character found and still holds (not lost again, not
/// discarded).
pub fn held_treasures(m: &Match, p: u8, h: &Hero) -> u32 {
    let pl = &m.players[p as usize];
    (0..pl.treasures())
        .filter(|&t| {
            h.treasure_at[t] == super::state::FOUND && h.kept() & (1u32 << (pl.own + t)) != 0
        })
        .count() as u32
}

/// How many of its own Days `p` has begun (a skipped one included).
pub fn own_days(st: &State, p: u8) -> u32 {
    if p == st.first {
        st.day.div_ceil(2)
    } else {
        st.day / 2
    }
}

/// Every `then` objective of `p`'s quests, in the order they are numbered (quest by quest,
/// depth first).
pub fn sequences(m: &Match, p: u8) -> Vec<&Objective> {
    fn walk<'a>(o: &'a Objective, out: &mut Vec<&'a Objective>) {
        match o {
            Objective::All(v) | Objective::Any(v) => v.iter().for_each(|x| walk(x, out)),
            Objective::Then(v) => {
                out.push(o);
                v.iter().for_each(|x| walk(x, out));
            }
            _ => {}
        }
    }
    let mut out = Vec::new();
    for q in &m.players[p as usize].quests {
        walk(&q.objective, &mut out);
    }
    out
}

/// The number of `obj` among `p`'s `then` objectives, when it is one of them.
fn sequence_index(m: &Match, p: u8, obj: &Objective) -> Option<usize> {
    // The walk of [`sequences`], counting instead of collecting (this is asked at every
    // end of Day and by every evaluation).
    fn find(o: &Objective, obj: &Objective, n: &mut usize) -> Option<usize> {
        match o {
            Objective::All(v) | Objective::Any(v) => v.iter().find_map(|x| find(x, obj, n)),
            Objective::Then(v) => {
                if std::ptr::eq(o, obj) {
                    return Some(*n);
                }
                *n += 1;
                v.iter().find_map(|x| find(x, obj, n))
            }
            _ => None,
        }
    }
    let mut n = 0;
    m.players[p as usize]
        .quests
        .iter()
        .find_map(|q| find(&q.objective, obj, &mut n))
}

/// The step a `then` objective of `p` is at (its number of steps once done); `None` for an
/// objective that is not one of `p`'s `then` objectives.
pub fn step_of(m: &Match, p: u8, h: &Hero, obj: &Objective) -> Option<usize> {
    sequence_index(m, p, obj).map(|i| h.seq_step[i] as usize)
}

/// Moves every `then` objective of `p` past the steps that now hold, each step seen from
/// the league where the one before it was done. A `then` that is a step of another `then`
/// is that many steps more of it (docs/rulings.md): it begins once the steps before it are
/// done, and when its last step is done the outer one moves on at once.
pub fn advance(m: &Match, p: u8, h: &mut Hero) {
    let mut next = 0;
    for q in &m.players[p as usize].quests {
        advance_in(m, p, h, &q.objective, &mut next, true);
    }
}

/// How many `then` objectives `o` holds, itself included (their numbering, depth first).
fn count_sequences(o: &Objective) -> usize {
    match o {
        Objective::All(v) | Objective::Any(v) => v.iter().map(count_sequences).sum(),
        Objective::Then(v) => 1 + v.iter().map(count_sequences).sum::<usize>(),
        _ => 0,
    }
}

/// [`advance`] within `o`, whose first `then` is numbered `*next` (moved past `o`'s); `live`:
/// whether `o` may make progress now (a step of a `then` is live once the steps before it
/// are done).
fn advance_in(m: &Match, p: u8, h: &mut Hero, o: &Objective, next: &mut usize, live: bool) {
    match o {
        Objective::All(v) | Objective::Any(v) => {
            for x in v {
                advance_in(m, p, h, x, next, live);
            }
        }
        Objective::Then(steps) => {
            let i = *next;
            // The number of the first `then` within step `k` (the steps before it hold the
            // ones numbered from `i + 1`).
            let start = |k: usize| i + 1 + steps[..k].iter().map(count_sequences).sum::<usize>();
            *next = i + count_sequences(o);
            if !live || i >= h.seq_step.len() {
                return;
            }
            while let Some(step) = steps.get(h.seq_step[i] as usize) {
                // The current step's own sequences first, so that one done now counts now.
                let mut at = start(h.seq_step[i] as usize);
                advance_in(m, p, h, step, &mut at, true);
                if !eval(m, p, h, step, h.seq_seen[i]) {
                    break;
                }
                h.seq_step[i] += 1;
                h.seq_seen[i] = 1u64 << h.at;
                // The next step's sequences begin here, as the next step of this one does.
                if (h.seq_step[i] as usize) < steps.len() {
                    let from = start(h.seq_step[i] as usize);
                    let n = count_sequences(&steps[h.seq_step[i] as usize]);
                    for s in h.seq_seen.iter_mut().skip(from).take(n) {
                        *s = 1u64 << h.at;
                    }
                }
            }
        }
        _ => {}
    }
}

/// The quests of `p` that are neither done nor failed and whose objective holds for `h`.
pub fn newly_done(m: &Match, p: u8, h: &Hero) -> u8 {
    let mut out = 0u8;
    for (i, q) in m.players[p as usize].quests.iter().enumerate() {
        if (h.quests_done | h.quests_failed) & (1 << i) == 0 && holds(m, p, h, &q.objective) {
            out |= 1 << i;
        }
    }
    out
}

impl State {
    /// Marks the quests of `p` now complete, and at the end of `p`'s own Day those whose
    /// time limit (in `p`'s own Days) has come without them done as failed; true when all
    /// of them are complete (a player with no quest never completes them).
    pub(crate) fn check_quests<L: Log>(&mut self, m: &Match, p: u8, log: &mut L) -> bool {
        let days = own_days(self, p);
        let own_day = self.active == p;
        let h = &mut self.heroes[p as usize];
        advance(m, p, h);
        let new = newly_done(m, p, h);
        h.quests_done |= new;
        for i in 0..8u8 {
            if new & (1 << i) != 0 {
                log.push(Event::QuestDone {
                    player: p,
                    quest: i,
                });
            }
        }
        for (i, q) in m.players[p as usize].quests.iter().enumerate().take(8) {
            let open = (h.quests_done | h.quests_failed) & (1 << i) == 0;
            if open && own_day && q.time_limit.is_some_and(|d| days >= d) {
                h.quests_failed |= 1 << i;
                log.push(Event::QuestFailed {
                    player: p,
                    quest: i as u8,
                });
            }
        }
        let n = m.players[p as usize].quests.len();
        n > 0 && h.quests_done.count_ones() as usize == n
    }

    /// Would putting `who` in league `l` complete one of its quests?
    pub(crate) fn would_complete(&self, m: &Match, who: u8, l: u8) -> bool {
        let mut h = self.heroes[who as usize];
        h.at = l;
        h.visited |= 1u64 << l;
        for s in &mut h.seq_seen {
            *s |= 1u64 << l;
        }
        if l != h.base {
            h.left_base = true;
        }
        advance(m, who, &mut h);
        newly_done(m, who, &h) != 0
    }
}
