//! A compiled quest setup ([`Match`]): the two characters with their resolved cards, the
//! league grid with neighbours and distances, every waylay, and each Base Camp. Built once
//! from a legal setup (`rules::check_setup`); the engine only reads it. A setup whose
//! players bring their leagues compiles to the leagues brought (player 1's, then player
//! 2's), with no grid and no Base Camps: the match's setup phases lay them (`engine::lay`).

use crate::cards::CardLookup;
use crate::games::arcadia::character::CharacterFile;
use crate::games::arcadia::model::{
    ArcadiaCard, Flaw, Icon, League, Merit, MeritType, Quest, Side, Waylay,
};
use crate::games::arcadia::rules::{check_character, check_setup, resolve_kind};
use crate::games::arcadia::setup::{Pos, SetupFile};

/// Merits a character may hold in play: its own plus the treasures hidden for it (bit masks are `u32`).
pub const MAX_MERITS: usize = 24;
/// Treasures hidden for one player.
pub const MAX_TREASURES: usize = 8;
/// Flaws of one character (bit masks are `u16`).
pub const MAX_FLAWS: usize = 16;
/// Waylays of both players together (bit masks are `u32`).
pub const MAX_WAYLAYS: usize = 32;
/// Leagues in play (bit masks are `u64`).
pub const MAX_LEAGUES: usize = 64;
/// Leagues both players bring to lay in play (their positions live in the `State`).
pub const MAX_BROUGHT: usize = 40;
/// No Base Camp chosen yet.
pub const NO_BASE: u8 = u8::MAX;
/// Quests of one player (bit masks are `u8`).
pub const MAX_QUESTS: usize = 8;
/// `then` objectives in one player's quests.
pub const MAX_SEQUENCES: usize = 4;

/// The four directions, in the order moves are offered: north, east, south, west.
pub const DIRS: [Side; 4] = [Side::North, Side::East, Side::South, Side::West];

/// The index of a direction in [`DIRS`].
pub fn dir_index(s: Side) -> u8 {
    match s {
        Side::North => 0,
        Side::East => 1,
        Side::South => 2,
        Side::West => 3,
    }
}

/// Why a setup cannot be played.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MatchError {
    #[error("illegal setup: {rule}: {message}{}", if *.more > 0 { format!(" (and {} more; run `deckwright validate`)", .more) } else { String::new() })]
    Illegal {
        rule: &'static str,
        message: String,
        more: usize,
    },
    #[error(
        "player {player}: `base_camp = {{ x = {x}, y = {y} }}` names no laid league; give the position of a league in `[[leagues]]`"
    )]
    BaseCamp { player: usize, x: i32, y: i32 },
    #[error("{what}: {n} is more than the engine plays ({max})")]
    TooMany {
        what: &'static str,
        n: usize,
        max: usize,
    },
    #[error("a quest setup needs two characters, got {0}")]
    Characters(usize),
    #[error("a quest setup needs at least one league")]
    NoLeagues,
}

/// One player as compiled.
#[derive(Debug, Clone, PartialEq)]
pub struct Player {
    pub name: String,
    pub icon: Icon,
    /// The character's merits, then the treasures hidden for it (index `own..`).
    pub merits: Vec<Merit>,
    /// How many of `merits` the character owns from the start.
    pub own: usize,
    /// Flaws in play (bought-off flaws are gone).
    pub flaws: Vec<Flaw>,
    pub quests: Vec<Quest>,
    /// The league index of the Base Camp ([`NO_BASE`] when it is chosen in play).
    pub base: u8,
    pub xp_earned: u32,
    /// The character's points: the cost of its own merits (a contested Unique league goes to
    /// the player with fewer).
    pub points: i32,
}

impl Player {
    /// How many treasures are hidden for this player.
    pub fn treasures(&self) -> usize {
        self.merits.len() - self.own
    }
}

/// A playable match-up.
#[derive(Debug, Clone, PartialEq)]
pub struct Match {
    pub players: [Player; 2],
    /// In the order laid (or, when `laid` is false, the leagues brought: player 1's, then
    /// player 2's).
    pub leagues: Vec<League>,
    /// Were the leagues laid in the setup file? Else `pos`, `next` and `dist` are empty and
    /// the leagues are laid in play (`State::pos`, `State::neighbour`, `State::distance`).
    pub laid: bool,
    /// The player (0 or 1) who laid, or brings, each league.
    pub league_owner: Vec<u8>,
    /// For leagues laid in play: `fit[a * n + b]` has bit d set when league `a` may lie with
    /// league `b` beside it in direction d of [`DIRS`] (the facing sides fit both ways).
    pub fit: Vec<u8>,
    pub pos: Vec<Pos>,
    /// The league beside each league in each direction of [`DIRS`].
    pub next: Vec<[Option<u8>; 4]>,
    /// Every waylay, player 1's list first; `waylay_owner[i]` (0 or 1) plays it.
    pub waylays: Vec<Waylay>,
    pub waylay_owner: Vec<u8>,
    /// Steps between leagues (row-major, `u8::MAX` when unreachable).
    pub dist: Vec<u8>,
    /// A match reaching this many Days ends as a draw.
    pub turn_limit: u32,
}

impl Match {
    /// Compiles a legal setup: `characters[i]` is player i+1's file. An illegal setup is an
    /// error naming its first violation.
    pub fn new(
        setup: &SetupFile,
        characters: &[CharacterFile],
        lookup: &dyn CardLookup,
        turn_limit: u32,
    ) -> Result<Match, MatchError> {
        Match::varied(setup, characters, characters, lookup, turn_limit)
    }

    /// Compiles `setup` with `characters` in it, the setup checked with `as_built` in
    /// their places: each of `characters` must be legal alone, and the setup legal with
    /// `as_built`. A balance run varies one character's merits while holding the opponent
    /// (its waylays included) fixed, so the opponent's waylay budget is the one of the
    /// character as built, not of each variant (`docs/balance.md`).
    pub fn varied(
        setup: &SetupFile,
        characters: &[CharacterFile],
        as_built: &[CharacterFile],
        lookup: &dyn CardLookup,
        turn_limit: u32,
    ) -> Result<Match, MatchError> {
        if characters.len() != 2 || setup.players.len() != 2 || as_built.len() != 2 {
            return Err(MatchError::Characters(
                characters.len().min(setup.players.len()),
            ));
        }
        let report = check_setup(setup, as_built, lookup);
        let illegal = |v: &crate::games::build::Violation, more: usize| MatchError::Illegal {
            rule: v.rule,
            message: v.message.clone(),
            more,
        };
        if let Some(v) = report.violations.first() {
            return Err(illegal(v, report.violations.len() - 1));
        }
        let mut reports = Vec::new();
        for (i, c) in characters.iter().enumerate() {
            let r = if c == &as_built[i] {
                report.characters[i].clone()
            } else {
                check_character(c, lookup)
            };
            if let Some(v) = r.violations.first() {
                let mut e = illegal(v, r.violations.len() - 1);
                if let MatchError::Illegal { message, .. } = &mut e {
                    *message = format!("player {}: {message}", i + 1);
                }
                return Err(e);
            }
            reports.push(r);
        }
        let laid = !setup.brings_leagues();
        if laid && setup.leagues.is_empty() {
            return Err(MatchError::NoLeagues);
        }
        let many = |what, n: usize, max| {
            if n > max {
                Err(MatchError::TooMany { what, n, max })
            } else {
                Ok(())
            }
        };
        many("leagues", setup.leagues.len(), MAX_LEAGUES)?;

        let pick = |list: &str, e: &str| resolve_kind(lookup, e, list, "", |a| Some(a)).ok();
        let league = |id: &str| match pick("leagues", id) {
            Some(ArcadiaCard::League(x)) => Some(x),
            _ => None,
        };
        let (leagues, league_owner): (Vec<League>, Vec<u8>) = if laid {
            setup
                .leagues
                .iter()
                .filter_map(|l| Some((league(&l.id)?, l.owner.saturating_sub(1))))
                .unzip()
        } else {
            let brought: Vec<(League, u8)> = setup
                .players
                .iter()
                .enumerate()
                .flat_map(|(i, p)| {
                    p.leagues
                        .iter()
                        .filter_map(move |id| Some((league(id)?, i as u8)))
                })
                .collect();
            many("leagues brought to lay in play", brought.len(), MAX_BROUGHT)?;
            if brought.is_empty() {
                return Err(MatchError::NoLeagues);
            }
            brought.into_iter().unzip()
        };
        let pos: Vec<Pos> = if laid {
            setup.leagues.iter().map(|l| l.pos()).collect()
        } else {
            Vec::new()
        };
        let at = |p: Pos| pos.iter().position(|q| *q == p).map(|i| i as u8);
        let next: Vec<[Option<u8>; 4]> = pos
            .iter()
            .map(|p| {
                [
                    at(Pos { x: p.x, y: p.y - 1 }),
                    at(Pos { x: p.x + 1, y: p.y }),
                    at(Pos { x: p.x, y: p.y + 1 }),
                    at(Pos { x: p.x - 1, y: p.y }),
                ]
            })
            .collect();
        let n = next.len();
        let mut dist = vec![u8::MAX; n * n];
        for s in 0..n {
            dist[s * n + s] = 0;
            let mut queue = std::collections::VecDeque::from([s]);
            while let Some(u) = queue.pop_front() {
                for v in next[u].iter().flatten() {
                    let v = *v as usize;
                    if dist[s * n + v] == u8::MAX {
                        dist[s * n + v] = dist[s * n + u] + 1;
                        queue.push_back(v);
                    }
                }
            }
        }

        let mut waylays = Vec::new();
        let mut waylay_owner = Vec::new();
        let mut players = Vec::new();
        for (i, (sp, cf)) in setup.players.iter().zip(characters).enumerate() {
            let cr = &reports[i];
            let icon = cr.icon.clone().ok_or(MatchError::Illegal {
                rule: "icon-count",
                message: format!("player {}: no Character Icon", i + 1),
                more: 0,
            })?;
            let mut merits = cr.merits.clone();
            let own = merits.len();
            for t in &sp.treasures {
                if let Some(ArcadiaCard::Merit(m)) = pick("treasures", t)
                    && m.merit_type == MeritType::Treasure
                {
                    merits.push(m);
                }
            }
            many("treasures of a player", merits.len() - own, MAX_TREASURES)?;
            many(
                "merits of a character (with its treasures)",
                merits.len(),
                MAX_MERITS,
            )?;
            let flaws: Vec<Flaw> = cr
                .flaws
                .iter()
                .filter(|f| !cf.flaws_bought_off.contains(&f.id))
                .cloned()
                .collect();
            many("flaws of a character", flaws.len(), MAX_FLAWS)?;
            let quests: Vec<Quest> = sp
                .quests
                .iter()
                .filter_map(|q| match pick("quests", q) {
                    Some(ArcadiaCard::Quest(x)) => Some(x),
                    _ => None,
                })
                .collect();
            many("quests of a player", quests.len(), MAX_QUESTS)?;
            let sequences: usize = quests.iter().map(|q| count_sequences(&q.objective)).sum();
            many(
                "`then` objectives in a player's quests",
                sequences,
                MAX_SEQUENCES,
            )?;
            for w in &sp.waylays {
                if let Some(ArcadiaCard::Waylay(x)) = pick("waylays", w) {
                    waylays.push(x);
                    waylay_owner.push(i as u8);
                }
            }
            let base = match sp.base_camp {
                _ if !laid => NO_BASE,
                Some(p) => at(p).ok_or(MatchError::BaseCamp {
                    player: i + 1,
                    x: p.x,
                    y: p.y,
                })?,
                None => {
                    let opponent = 2 - i as u8;
                    setup
                        .leagues
                        .iter()
                        .position(|l| l.owner == opponent)
                        .unwrap_or(0) as u8
                }
            };
            let name = if cf.name.is_empty() {
                format!("Player {}", i + 1)
            } else {
                cf.name.clone()
            };
            let points = merits[..own].iter().map(|m| m.cost).sum();
            players.push(Player {
                name,
                icon,
                merits,
                own,
                flaws,
                quests,
                base,
                xp_earned: cf.xp_earned,
                points,
            });
        }
        many("waylays", waylays.len(), MAX_WAYLAYS)?;
        let [a, b]: [Player; 2] = players
            .try_into()
            .map_err(|p: Vec<Player>| MatchError::Characters(p.len()))?;
        let n = leagues.len();
        let mut fit = Vec::new();
        if !laid {
            fit = vec![0u8; n * n];
            for a in 0..n {
                for b in 0..n {
                    for (d, side) in DIRS.iter().enumerate() {
                        let (mine, theirs) = (
                            leagues[a].sides.get(*side),
                            leagues[b].sides.get(side.opposite()),
                        );
                        if crate::games::arcadia::rules::sides_fit(mine, theirs).is_ok() {
                            fit[a * n + b] |= 1 << d;
                        }
                    }
                }
            }
        }
        Ok(Match {
            players: [a, b],
            leagues,
            laid,
            league_owner,
            fit,
            pos,
            next,
            waylays,
            waylay_owner,
            dist,
            turn_limit: turn_limit.max(1),
        })
    }

    /// Steps from league `a` to league `b`.
    pub fn distance(&self, a: u8, b: u8) -> u8 {
        self.dist[a as usize * self.leagues.len() + b as usize]
    }

    /// A league's label: its name and grid position (its name alone when the leagues are
    /// laid in play: see `State::league_label`).
    pub fn league_label(&self, l: u8) -> String {
        match self.pos.get(l as usize) {
            Some(p) => format!("{} ({}, {})", self.leagues[l as usize].name, p.x, p.y),
            None => self.leagues[l as usize].name.clone(),
        }
    }
}

/// The `then` objectives in `o`, nested ones included.
fn count_sequences(o: &crate::games::arcadia::model::Objective) -> usize {
    use crate::games::arcadia::model::Objective;
    match o {
        Objective::All(v) | Objective::Any(v) => v.iter().map(count_sequences).sum(),
        Objective::Then(v) => 1 + v.iter().map(count_sequences).sum::<usize>(),
        _ => 0,
    }
}
