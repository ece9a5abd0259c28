//! The setup played (rules card 3, "Setting the Stage", 3-5), for a setup whose players
//! bring their leagues: after the first-player roll the players take turns laying one of
//! their leagues (the first player first; a player with no league that fits anywhere
//! passes), each beside a laid one and fitting every neighbour by the edge rules
//! (`rules::sides_fit`); a Unique league both players bring is laid only by the player with
//! fewer character points (on equal points, by whoever lays it first) and the other copy is
//! discarded. Then the treasures are hidden as in every match, and each player chooses the
//! other's Base Camp, the first player first. Where the leagues lie is part of the [`State`]:
//! its accessors here ([`State::pos`], [`State::neighbour`], [`State::distance`]) read the
//! [`Match`]'s grid when the setup file laid it.

use crate::games::arcadia::rules::sides_fit;
use crate::games::arcadia::setup::Pos;

use super::events::{Event, Log};
use super::setup::{DIRS, MAX_LEAGUES, Match, NO_BASE};
use super::state::{Opt, Opts, Phase, State};

/// The step from a league to its neighbour in each direction of [`DIRS`].
const STEP: [(i32, i32); 4] = [(0, -1), (1, 0), (0, 1), (-1, 0)];

impl State {
    /// Is league `l` on the board (laid in the file, or laid in play)?
    pub fn in_play(&self, l: u8) -> bool {
        (l as usize) < MAX_LEAGUES && self.laid & (1u64 << l) != 0
    }

    /// Where league `l` lies.
    pub fn pos(&self, m: &Match, l: u8) -> Pos {
        match m.pos.get(l as usize) {
            Some(p) => *p,
            None => Pos {
                x: i32::from(self.lay_x[l as usize]),
                y: i32::from(self.lay_y[l as usize]),
            },
        }
    }

    /// The league laid at `p`, if any.
    pub fn league_at(&self, m: &Match, p: Pos) -> Option<u8> {
        (0..m.leagues.len() as u8).find(|l| self.in_play(*l) && self.pos(m, *l) == p)
    }

    /// The league beside `l` in direction `d` (an index of [`DIRS`]).
    pub fn neighbour(&self, m: &Match, l: u8, d: u8) -> Option<u8> {
        if m.laid {
            return m.next.get(l as usize).and_then(|n| n[d as usize % 4]);
        }
        match self.lay_next.get(l as usize).map(|n| n[d as usize % 4]) {
            Some(o) if o != u8::MAX => Some(o),
            _ => None,
        }
    }

    /// Steps from league `a` to every league (`u8::MAX`: unreachable or not laid).
    pub fn distances_from(&self, m: &Match, a: u8) -> [u8; MAX_LEAGUES] {
        let mut out = [u8::MAX; MAX_LEAGUES];
        let n = m.leagues.len();
        if (a as usize) >= n || !self.in_play(a) {
            return out;
        }
        if m.laid {
            for (b, d) in out.iter_mut().enumerate().take(n) {
                *d = m.distance(a, b as u8);
            }
            return out;
        }
        out[a as usize] = 0;
        // A breadth-first search; each league joins the queue once, so a fixed array holds it.
        let mut queue = [0u8; MAX_LEAGUES];
        queue[0] = a;
        let (mut head, mut tail) = (0, 1);
        while head < tail {
            let u = queue[head];
            head += 1;
            for d in 0..4u8 {
                if let Some(v) = self.neighbour(m, u, d)
                    && out[v as usize] == u8::MAX
                {
                    out[v as usize] = out[u as usize].saturating_add(1);
                    if tail < MAX_LEAGUES {
                        queue[tail] = v;
                        tail += 1;
                    }
                }
            }
        }
        out
    }

    /// Steps from league `a` to league `b` (`u8::MAX` when unreachable).
    pub fn distance(&self, m: &Match, a: u8, b: u8) -> u8 {
        if m.laid {
            return m.distance(a, b);
        }
        self.distances_from(m, a)
            .get(b as usize)
            .copied()
            .unwrap_or(u8::MAX)
    }

    /// A league's label: its name and where it lies (its name alone while not laid).
    pub fn league_label(&self, m: &Match, l: u8) -> String {
        if !self.in_play(l) {
            return m.leagues[l as usize].name.clone();
        }
        let p = self.pos(m, l);
        format!("{} ({}, {})", m.leagues[l as usize].name, p.x, p.y)
    }

    /// The leagues on the board in the order laid.
    pub fn laid_order(&self, m: &Match) -> Vec<u8> {
        if m.laid {
            return (0..m.leagues.len() as u8).collect();
        }
        self.lay_order[..self.n_laid as usize].to_vec()
    }

    /// May `p` still lay its league `slot`? Not laid, its own, and not a Unique league that
    /// is in play already or that the other player, with fewer character points, brings too.
    pub fn may_lay(&self, m: &Match, p: u8, slot: u8) -> bool {
        let s = slot as usize;
        if m.laid || s >= m.leagues.len() || m.league_owner[s] != p || self.in_play(slot) {
            return false;
        }
        let league = &m.leagues[s];
        if !league.unique {
            return true;
        }
        let same = |l: usize| m.leagues[l].id == league.id && l != s;
        if (0..m.leagues.len()).any(|l| same(l) && self.in_play(l as u8)) {
            return false;
        }
        let o = 1 - p as usize;
        let contested = (0..m.leagues.len()).any(|l| same(l) && m.league_owner[l] as usize == o);
        !(contested && m.players[p as usize].points > m.players[o].points)
    }

    /// Does `slot` fit at `at`: a free position beside a laid league (any position for the
    /// first), every facing side fitting both ways (`rules::sides_fit`)?
    pub fn fits_at(&self, m: &Match, slot: u8, at: Pos) -> bool {
        if self.n_laid == 0 {
            return at == Pos { x: 0, y: 0 };
        }
        if self.league_at(m, at).is_some() {
            return false;
        }
        let new = &m.leagues[slot as usize];
        let mut beside = false;
        for (d, side) in DIRS.iter().enumerate() {
            let (dx, dy) = STEP[d];
            if let Some(o) = self.league_at(
                m,
                Pos {
                    x: at.x + dx,
                    y: at.y + dy,
                },
            ) {
                beside = true;
                let old = &m.leagues[o as usize];
                if sides_fit(new.sides.get(*side), old.sides.get(side.opposite())).is_err() {
                    return false;
                }
            }
        }
        beside
    }

    /// The free positions beside the laid leagues (in the order laid, each league's sides
    /// north, east, south, west) with the league beside each in each direction.
    fn frontier(&self, m: &Match) -> Vec<(Pos, [Option<u8>; 4])> {
        if self.n_laid == 0 {
            return vec![(Pos { x: 0, y: 0 }, [None; 4])];
        }
        let order = self.laid_order(m);
        let at = |p: Pos| order.iter().copied().find(|l| self.pos(m, *l) == p);
        let mut out: Vec<(Pos, [Option<u8>; 4])> = Vec::new();
        for &l in &order {
            let p = self.pos(m, l);
            for (dx, dy) in STEP {
                let q = Pos {
                    x: p.x + dx,
                    y: p.y + dy,
                };
                if q.x.abs() < 100
                    && q.y.abs() < 100
                    && !out.iter().any(|(r, _)| *r == q)
                    && at(q).is_none()
                {
                    let mut next = [None; 4];
                    for (d, (ex, ey)) in STEP.iter().enumerate() {
                        next[d] = at(Pos {
                            x: q.x + ex,
                            y: q.y + ey,
                        });
                    }
                    out.push((q, next));
                }
            }
        }
        out
    }

    /// Does `slot` fit a frontier position with these neighbours?
    fn fits_beside(m: &Match, slot: u8, next: &[Option<u8>; 4]) -> bool {
        let n = m.leagues.len();
        next.iter()
            .enumerate()
            .all(|(d, o)| o.is_none_or(|o| m.fit[slot as usize * n + o as usize] & (1 << d) != 0))
    }

    /// The positions where `slot` may be laid: beside the laid leagues in the order laid,
    /// each league's sides north, east, south, west.
    pub fn spots(&self, m: &Match, slot: u8) -> Vec<Pos> {
        self.frontier(m)
            .into_iter()
            .filter(|(_, next)| Self::fits_beside(m, slot, next))
            .map(|(p, _)| p)
            .collect()
    }

    /// `p`'s leagues it may lay and that fit somewhere, the first of equal cards only.
    fn layable(&self, m: &Match, p: u8) -> Vec<u8> {
        let frontier = self.frontier(m);
        let mut out: Vec<u8> = Vec::new();
        for s in 0..m.leagues.len() as u8 {
            if out
                .iter()
                .any(|t| m.leagues[*t as usize].id == m.leagues[s as usize].id)
                || !self.may_lay(m, p, s)
            {
                continue;
            }
            if frontier
                .iter()
                .any(|(_, next)| Self::fits_beside(m, s, next))
            {
                out.push(s);
            }
        }
        out
    }

    /// Can `p` lay a league now?
    fn can_lay(&self, m: &Match, p: u8) -> bool {
        !self.layable(m, p).is_empty()
    }

    /// The next player to lay (`prefer` if it can, else the other), or the treasures.
    pub(crate) fn next_layer<L: Log>(&mut self, m: &Match, prefer: u8, log: &mut L) {
        if self.can_lay(m, prefer) {
            self.phase = Phase::LayLeague { player: prefer };
        } else if self.can_lay(m, 1 - prefer) {
            self.phase = Phase::LayLeague { player: 1 - prefer };
        } else {
            self.next_hider(m, self.first, log);
        }
    }

    /// `p`'s leagues that it may lay and that fit somewhere (the first of equal cards).
    pub(crate) fn lay_options(&self, m: &Match, p: u8, out: &mut Opts) {
        for s in self.layable(m, p) {
            out.push(Opt::Lay(s));
        }
    }

    pub(crate) fn lay_at_options(&self, m: &Match, slot: u8, out: &mut Opts) {
        for p in self.spots(m, slot) {
            out.push(Opt::At(p.x as i8, p.y as i8));
        }
    }

    pub(crate) fn on_lay_at<L: Log>(
        &mut self,
        m: &Match,
        player: u8,
        slot: u8,
        x: i8,
        y: i8,
        log: &mut L,
    ) {
        let s = slot as usize;
        self.lay_x[s] = x;
        self.lay_y[s] = y;
        self.laid |= 1u64 << slot;
        self.lay_order[self.n_laid as usize] = slot;
        self.n_laid += 1;
        for (d, (dx, dy)) in STEP.iter().enumerate() {
            let beside = Pos {
                x: i32::from(x) + dx,
                y: i32::from(y) + dy,
            };
            if let Some(o) = self.league_at(m, beside) {
                self.lay_next[s][d] = o;
                self.lay_next[o as usize][(d + 2) % 4] = slot;
            }
        }
        log.push(Event::LeagueLaid {
            player,
            league: slot,
            x,
            y,
        });
        self.next_layer(m, 1 - player, log);
    }

    /// After the treasures: each player chooses the other's Base Camp (the first player
    /// first) when the setup file did not, then the first Day.
    pub(crate) fn next_base<L: Log>(&mut self, m: &Match, log: &mut L) {
        let f = self.first;
        if self.heroes[1 - f as usize].base == NO_BASE {
            self.phase = Phase::ChooseBase { chooser: f };
        } else if self.heroes[f as usize].base == NO_BASE {
            self.phase = Phase::ChooseBase { chooser: 1 - f };
        } else {
            self.active = f;
            self.begin_day(m, log);
        }
    }

    /// Every league on the board, in the order laid.
    pub(crate) fn base_options(&self, m: &Match, out: &mut Opts) {
        for l in self.laid_order(m) {
            out.push(Opt::Place(l));
        }
    }

    pub(crate) fn on_base<L: Log>(&mut self, m: &Match, chooser: u8, l: u8, log: &mut L) {
        let h = &mut self.heroes[1 - chooser as usize];
        h.base = l;
        h.at = l;
        h.came_from = None;
        log.push(Event::BaseChosen {
            by: chooser,
            league: l,
        });
        self.next_base(m, log);
    }
}
