//! The close-combat duel (`spec/ruunara.md`, "Command line and log", `duel ruunara`): figure
//! A engaged with figures B... on an empty table, played by the engine round by round with
//! capture and execution. A strikes the weakest engaged foe and uses its skills when it can
//! (never fleeing); the Bs are run by the rules. Each game's dice come from its own seed, so
//! a report replays exactly by seed.

use super::engine::geom::{Pt, contact, facing_to};
use super::engine::{
    DeathKind, Event, NoLog, Opt, RuunaraEnding, RuunaraGame, Setup, SetupError, Status,
};
use super::mission::{Deploy, Facing, Objective, Placed, Scenario, TableSize};
use super::model::{Figure, SkillEffect};
use crate::games::dice::{Dice, RngDice, game_seed};
use crate::games::game::{Game, Turn};

/// The round limit of a duel.
pub const DUEL_ROUNDS: u32 = 20;

/// How one duel ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DuelEnd {
    /// Every B is dead.
    AWins,
    /// A was executed at 0 hit points in close combat (or killed outright).
    AExecuted,
    /// A was held more than 4 rounds, captured, and executed 4 rounds later (nobody can free
    /// it in a duel).
    ACapturedExecuted,
    /// The round limit passed.
    RoundLimit,
}

impl DuelEnd {
    pub const ALL: [DuelEnd; 4] = [
        DuelEnd::AWins,
        DuelEnd::AExecuted,
        DuelEnd::ACapturedExecuted,
        DuelEnd::RoundLimit,
    ];
    pub fn name(self) -> &'static str {
        match self {
            DuelEnd::AWins => "a_wins",
            DuelEnd::AExecuted => "a_executed",
            DuelEnd::ACapturedExecuted => "a_captured_executed",
            DuelEnd::RoundLimit => "round_limit",
        }
    }
}

/// The result of many duels.
#[derive(Debug, Clone, PartialEq)]
pub struct DuelReport {
    pub games: u32,
    /// Duels by ending, in [`DuelEnd::ALL`] order.
    pub counts: [u32; 4],
    /// Rounds summed over every duel (the round A was executed, for a capture).
    pub rounds: u64,
}

impl DuelReport {
    /// The chance of an ending.
    pub fn chance(&self, e: DuelEnd) -> f64 {
        let k = DuelEnd::ALL.iter().position(|x| *x == e).unwrap_or(0);
        f64::from(self.counts[k]) / f64::from(self.games.max(1))
    }
    /// The mean rounds a duel lasts.
    pub fn mean_rounds(&self) -> f64 {
        self.rounds as f64 / f64::from(self.games.max(1))
    }
}

/// The most figures a duel puts around A: six bases fit in base contact around one (60
/// degrees apart, their bases just clear of each other).
pub const MAX_AROUND: usize = 6;

/// Where B number `k` of `n` stands around A, in degrees (0 is east): up to four at the
/// compass points (east, west, north, south, as ever), five or six evenly spaced so that
/// no two bases overlap.
pub fn around_angle(k: usize, n: usize) -> f64 {
    if n <= 4 {
        [0.0, 180.0, 90.0, 270.0][k]
    } else {
        360.0 * k as f64 / n as f64
    }
}

/// The duel's table: A in the middle facing east, the Bs in base contact around it, each
/// facing A (at most [`MAX_AROUND`], on free spots: see [`around_angle`]).
pub fn duel_setup(a: &Figure, bs: &[Figure]) -> Result<Setup, SetupError> {
    if bs.len() > MAX_AROUND {
        return Err(SetupError::NoRoomAround(MAX_AROUND, bs.len()));
    }
    let table = TableSize::default();
    let c = Pt::new(table.width / 2.0, table.depth / 2.0);
    let mut enemies = Vec::new();
    for (k, b) in bs.iter().enumerate() {
        let ang = f64::to_radians(around_angle(k, bs.len()));
        let touch = contact(a.base_radius(), b.base_radius());
        let at = Pt::new(c.x + touch * ang.cos(), c.y + touch * ang.sin());
        enemies.push(Placed {
            card: b.clone(),
            deploy: Deploy::Point {
                x: at.x,
                y: at.y,
                facing: facing_to(at, c).unwrap_or(Facing::W),
            },
        });
    }
    let sc = Scenario {
        id: "duel".into(),
        name: "Duel".into(),
        table,
        scenery: Vec::new(),
        heroes: vec![Placed {
            card: a.clone(),
            deploy: Deploy::Point {
                x: c.x,
                y: c.y,
                facing: Facing::E,
            },
        }],
        enemies,
        neutrals: Vec::new(),
        objective: Objective::Eliminate,
        round_limit: DUEL_ROUNDS,
    };
    Setup::new(&sc)
}

/// A's choice: a skill that is not a flight, else the weakest foe.
fn choose(g: &RuunaraGame<'_>) -> usize {
    let st = &g.st;
    let opts = st.options();
    let mut best = 0;
    let mut best_key = (i32::MIN, i32::MIN);
    for (k, o) in opts.iter().enumerate() {
        let key = match *o {
            Opt::Skill { slot, .. } => {
                let i = st.active().unwrap_or(0);
                match g.setup.figs[i].skills[usize::from(slot)].map(|d| d.effect) {
                    Some(SkillEffect::Flee { .. }) => (-1, 0),
                    _ => (2, 0),
                }
            }
            Opt::Close(j) | Opt::Extra { target: j, .. } => {
                (1, -i32::from(st.figs[usize::from(j)].hp))
            }
            _ => (0, 0),
        };
        if key > best_key {
            best_key = key;
            best = k;
        }
    }
    best
}

/// Plays one duel from `setup` with `dice`: its ending and its rounds.
pub fn play_duel(
    setup: &Setup,
    dice: &mut impl Dice,
    log: Option<&mut Vec<Event>>,
) -> (DuelEnd, u32) {
    let mut sink = Vec::new();
    let logging = log.is_some();
    let log = log.unwrap_or(&mut sink);
    let mut g = if logging {
        RuunaraGame::start(setup, log)
    } else {
        RuunaraGame::new(setup)
    };
    loop {
        let a = match g.turn() {
            Turn::Over => break,
            Turn::Chance(c) => match c.draw(dice) {
                Some(o) => o,
                None => {
                    g.exhausted(log);
                    break;
                }
            },
            Turn::Seat { .. } => choose(&g),
        };
        if logging {
            g.step(a, log);
        } else {
            g.step(a, &mut NoLog);
        }
    }
    let st = &g.st;
    let a = &st.figs[0];
    match st.ended {
        Some(RuunaraEnding::Eliminated) => (DuelEnd::AWins, st.round),
        Some(RuunaraEnding::SquadLost) if a.status == Status::Captured => {
            (DuelEnd::ACapturedExecuted, a.execute_round)
        }
        Some(RuunaraEnding::SquadLost) => (DuelEnd::AExecuted, st.round),
        _ => (DuelEnd::RoundLimit, st.round),
    }
}

/// `games` duels of A against the Bs, game `k` rolled from `game_seed(seed, k)`.
pub fn duel(a: &Figure, bs: &[Figure], games: u32, seed: u64) -> Result<DuelReport, SetupError> {
    let setup = duel_setup(a, bs)?;
    let mut r = DuelReport {
        games,
        counts: [0; 4],
        rounds: 0,
    };
    for k in 0..games {
        let mut dice = RngDice::new(game_seed(seed, u64::from(k)));
        let (end, rounds) = play_duel(&setup, &mut dice, None);
        r.counts[DuelEnd::ALL.iter().position(|x| *x == end).unwrap_or(3)] += 1;
        r.rounds += u64::from(rounds);
    }
    Ok(r)
}

/// Whether a logged death was an execution of a captive (for readers of a duel's log).
pub fn executed_captive(e: &Event) -> bool {
    matches!(
        e,
        Event::Died {
            how: DeathKind::ClockRanOut,
            ..
        }
    )
}
