//! Quest objectives (`spec/arcadia.md`): checked at the end of every Day for both
//! characters, the active one first; a quest once complete stays complete. `reach` and
//! `reach_terrain` count leagues entered during play (the starting Base Camp once
//! re-entered); `return_to_base` holds in the Base Camp after having left it.

use crate::games::arcadia::model::Objective;

use super::events::{Event, Log};
use super::setup::Match;
use super::state::{Hero, State};

/// Does `obj` hold for player `p` whose character is `h`?
pub fn holds(m: &Match, p: u8, h: &Hero, obj: &Objective) -> bool {
    let visited = |f: &dyn Fn(usize) -> bool| (0..m.leagues.len()).any(|l| h.visited & (1u64 << l) != 0 && f(l));
    match obj {
        Objective::Reach(id) => visited(&|l| m.leagues[l].id == *id),
        Objective::ReachTerrain(t) => visited(&|l| m.leagues[l].terrain.contains(t)),
        Objective::CollectTreasures(n) => u32::from(h.treasures_found) >= *n,
        Objective::DefeatWaylays(n) => u32::from(h.waylays_defeated) >= *n,
        Objective::ReturnToBase(want) => !*want || (h.at == m.players[p as usize].base && h.left_base),
        Objective::All(v) => v.iter().all(|o| holds(m, p, h, o)),
        Objective::Any(v) => v.iter().any(|o| holds(m, p, h, o)),
    }
}

/// The quests of `p` that are not done and whose objective holds for `h`.
pub fn newly_done(m: &Match, p: u8, h: &Hero) -> u8 {
    let mut out = 0u8;
    for (i, q) in m.players[p as usize].quests.iter().enumerate() {
        if h.quests_done & (1 << i) == 0 && holds(m, p, h, &q.objective) {
            out |= 1 << i;
        }
    }
    out
}

impl State {
    /// Marks the quests of `p` now complete; true when all of them are (a player with no
    /// quest never completes them).
    pub(crate) fn check_quests<L: Log>(&mut self, m: &Match, p: u8, log: &mut L) -> bool {
        let h = &mut self.heroes[p as usize];
        let new = newly_done(m, p, h);
        h.quests_done |= new;
        for i in 0..8u8 {
            if new & (1 << i) != 0 {
                log.push(Event::QuestDone { player: p, quest: i });
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
        if l != m.players[who as usize].base {
            h.left_base = true;
        }
        newly_done(m, who, &h) != 0
    }
}
