//! The event log: what happened, in order, each event self-contained (positions and facings
//! after every move, the faces of every roll, each hit's target, captures, executions,
//! frees), as a sentence and as JSON for `play --json`.

use serde_json::{Value, json};

use super::geom::Pt;
use super::setup::{MAX_DICE, Setup};
use crate::games::game::Ending;
use crate::games::ruunara::mission::Facing;

/// The faces of one roll.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Faces {
    pub f: [u8; MAX_DICE],
    pub n: u8,
}

impl Faces {
    pub fn as_slice(&self) -> &[u8] {
        &self.f[..usize::from(self.n)]
    }
    pub fn from_slice(s: &[u8]) -> Faces {
        let mut f = Faces::default();
        for &x in s.iter().take(MAX_DICE) {
            f.f[usize::from(f.n)] = x;
            f.n += 1;
        }
        f
    }
}

/// What a roll was for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RollKind {
    /// A close-combat attack.
    Close,
    /// A ranged attack.
    Ranged,
    /// An area skill.
    Area,
    /// The failed dice of the attack rolled again.
    Reroll,
    /// One cover die per ranged hit: each 3+ cancels one.
    Cover,
    /// A skill's trigger die: its effect lands on the score or more.
    Trigger,
    /// One save die per hit (a `save` skill's): each at its score or more cancels one.
    Save,
}

impl RollKind {
    pub fn name(self) -> &'static str {
        match self {
            RollKind::Close => "close",
            RollKind::Ranged => "ranged",
            RollKind::Area => "area",
            RollKind::Reroll => "reroll",
            RollKind::Cover => "cover",
            RollKind::Trigger => "trigger",
            RollKind::Save => "save",
        }
    }
}

/// How a figure was captured.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CaptureKind {
    /// Collapsed at 0 hit points from a ranged hit.
    Collapsed,
    /// Engaged for more than 4 consecutive rounds.
    Held,
}

/// Why a figure left play.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DeathKind {
    /// 0 hit points from a close-combat hit.
    Executed,
    /// A captive's clock ran out (the start of the 4th round after its capture).
    ClockRanOut,
    /// An instant-kill die.
    InstantKill,
}

impl DeathKind {
    pub fn name(self) -> &'static str {
        match self {
            DeathKind::Executed => "executed",
            DeathKind::ClockRanOut => "executed_captive",
            DeathKind::InstantKill => "instant_kill",
        }
    }
}

/// Why an enemy moves as it does (the spec's behaviour steps).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Reason {
    /// It saw a hero and goes to engage it.
    Sighted,
    /// It heard combat (close or ranged) and walks 2" toward it.
    Noise,
    /// A nearby ally suffered a ranged attack: it rallies to it.
    Rally,
    /// It follows a hero who fled.
    Pursuit,
    /// It goes back to its post.
    Return,
    /// It goes to guard a collapsed figure.
    Guard,
    /// A hero's move, chosen by the seat.
    Chosen,
}

impl Reason {
    pub fn name(self) -> &'static str {
        match self {
            Reason::Sighted => "sighted",
            Reason::Noise => "noise",
            Reason::Rally => "rally",
            Reason::Pursuit => "pursuit",
            Reason::Return => "return",
            Reason::Guard => "guard",
            Reason::Chosen => "chosen",
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub enum Event {
    /// Every figure where it starts.
    Deployed { figs: Vec<(Pt, Facing, i16)> },
    /// A squad member placed in its deployment zone (before `Deployed`).
    Placed { fig: u8, at: Pt, facing: Facing },
    /// A round begins.
    Round { round: u32 },
    /// The heroes' (`heroes`) or the enemies' turn begins.
    TurnOf { heroes: bool },
    /// A figure's activation begins.
    Activate { fig: u8 },
    /// A figure used skill slot `slot`, on `target` if it has one.
    Skill {
        fig: u8,
        slot: u8,
        target: Option<u8>,
    },
    /// A figure moved along `path` (its start, then each segment's end), to face `facing`,
    /// spending `cost` inches of movement (distance plus climbing), for reason `why`:
    /// toward figure `toward` (the hero it sighted or pursues, the ally it rallies to, the
    /// captive it guards) and the point `goal` it made for (that figure's place, the fight
    /// it heard, its post). A hero's chosen move has neither.
    Moved {
        fig: u8,
        path: Vec<Pt>,
        facing: Facing,
        cost: f64,
        why: Reason,
        toward: Option<u8>,
        goal: Option<Pt>,
    },
    /// A figure turned in place.
    Turned { fig: u8, facing: Facing, at: Pt },
    /// An enemy heard combat (close or ranged) at `at`.
    Heard { fig: u8, at: Pt },
    /// The faces of a roll by `fig` (an area's roll for each figure it strikes: `on`), at
    /// figure `target` (the figure the attack goes at: a shot's foreground figure; for a
    /// cover roll, the covered figure), `hits` of them scoring (hits and instant kills of
    /// an attack before cover; hits a cover roll cancels): a hit when more than 0, else a
    /// miss. `facing`: a shooter's facing after it turned to its target.
    Rolled {
        fig: u8,
        kind: RollKind,
        need: u8,
        faces: Faces,
        on: Option<u8>,
        target: Option<u8>,
        hits: u8,
        facing: Option<Facing>,
    },
    /// `hits` hits land on `target` (`ranged` or close), each costing `damage` hit points
    /// (1 but for a skill's `damage`), leaving it `hp`.
    Hit {
        by: u8,
        target: u8,
        hits: u8,
        damage: u8,
        ranged: bool,
        hp: i16,
    },
    /// Cover cancelled `cancelled` hits on `target`.
    Covered { target: u8, cancelled: u8 },
    /// A save (a skill's, or an ally's ward) cancelled `cancelled` hits on `target`.
    Saved { target: u8, cancelled: u8 },
    /// A skill of `by` put `target` in a state (`what`: silenced, held, disarmed, hexed,
    /// warded, dragged toward capture).
    Affected {
        by: u8,
        target: u8,
        what: &'static str,
    },
    /// The shot at `aimed` went into `target`, the figure in the foreground.
    Foreground { by: u8, aimed: u8, target: u8 },
    /// `fig` left play.
    Died {
        fig: u8,
        by: Option<u8>,
        how: DeathKind,
    },
    /// `fig` is captured, guarded by `guards`, executed at the start of round `execute`.
    Captured {
        fig: u8,
        how: CaptureKind,
        guards: Vec<u8>,
        execute: u32,
    },
    /// A captive is free again with `hp` hit points.
    Freed { fig: u8, hp: i16 },
    /// `fig` healed `target` by `amount`, to `hp`.
    Healed {
        fig: u8,
        target: u8,
        amount: i16,
        hp: i16,
    },
    /// `fig` fled its fight; `pursuers` follow.
    Fled { fig: u8, pursuers: Vec<u8> },
    /// Enemies near an instant kill turn toward where it fell (vision +4" for a round).
    Alerted { figs: Vec<u8>, toward: Pt },
    /// The rescue target joins the squad.
    Joined { fig: u8 },
    /// The fight of `figs` is over: none of them is engaged any longer (a kill, a capture,
    /// a flight or a move took the last hostile out of reach); their `N/F` uses renew.
    FightEnded { figs: Vec<u8>, round: u32 },
    /// The mission is over.
    Ended {
        ending: super::RuunaraEnding,
        round: u32,
    },
    /// The dice script ran out: the match stops here.
    Exhausted,
}

/// Where events go: `NoLog` drops them (search, sims), `Vec<Event>` keeps them.
pub trait Log {
    fn push(&mut self, e: Event);
    /// Whether pushed events are kept (lets callers skip building them).
    fn keeps(&self) -> bool {
        true
    }
}

/// Drops every event.
pub struct NoLog;

impl Log for NoLog {
    #[inline]
    fn push(&mut self, _e: Event) {}
    #[inline]
    fn keeps(&self) -> bool {
        false
    }
}

impl Log for Vec<Event> {
    fn push(&mut self, e: Event) {
        Vec::push(self, e);
    }
}

fn pt(p: Pt) -> Value {
    json!({"x": round2(p.x), "y": round2(p.y)})
}

fn round2(v: f64) -> f64 {
    (v * 100.0).round() / 100.0
}

fn fmt_pt(p: Pt) -> String {
    format!("({:.2}, {:.2})", p.x, p.y)
}

impl Event {
    /// The event's `type` in JSON.
    pub fn kind(&self) -> &'static str {
        match self {
            Event::Deployed { .. } => "deployed",
            Event::Placed { .. } => "placed",
            Event::Round { .. } => "round",
            Event::TurnOf { .. } => "turn",
            Event::Activate { .. } => "activate",
            Event::Skill { .. } => "skill",
            Event::Moved { .. } => "move",
            Event::Turned { .. } => "turn_in_place",
            Event::Heard { .. } => "heard",
            Event::Rolled { .. } => "roll",
            Event::Hit { .. } => "hit",
            Event::Covered { .. } => "cover",
            Event::Saved { .. } => "saved",
            Event::Affected { .. } => "affected",
            Event::Foreground { .. } => "foreground",
            Event::Died { .. } => "died",
            Event::Captured { .. } => "captured",
            Event::Freed { .. } => "freed",
            Event::Healed { .. } => "healed",
            Event::Fled { .. } => "fled",
            Event::Alerted { .. } => "alerted",
            Event::Joined { .. } => "joined",
            Event::FightEnded { .. } => "fight_ended",
            Event::Ended { .. } => "ended",
            Event::Exhausted => "dice_exhausted",
        }
    }

    /// The event as a sentence.
    pub fn text(&self, s: &Setup) -> String {
        let name = |i: &u8| {
            s.figs
                .get(usize::from(*i))
                .map_or("?".to_string(), |f| format!("{} #{}", f.name, i))
        };
        let names = |v: &[u8]| v.iter().map(name).collect::<Vec<_>>().join(", ");
        match self {
            Event::Deployed { figs } => {
                let parts: Vec<String> = figs
                    .iter()
                    .enumerate()
                    .map(|(i, (p, f, hp))| {
                        format!("{} at {} facing {f}, {hp} hp", name(&(i as u8)), fmt_pt(*p))
                    })
                    .collect();
                format!("Deployed: {}", parts.join("; "))
            }
            Event::Placed { fig, at, facing } => {
                format!("{} is placed at {} facing {facing}", name(fig), fmt_pt(*at))
            }
            Event::Round { round } => format!("Round {round}"),
            Event::TurnOf { heroes } => {
                if *heroes {
                    "The heroes' turn".into()
                } else {
                    "The enemies' turn".into()
                }
            }
            Event::Activate { fig } => format!("{} acts", name(fig)),
            Event::Skill { fig, slot, target } => {
                let skill = s.figs[usize::from(*fig)].skill_name(usize::from(*slot));
                match target {
                    Some(t) => format!("{} uses {skill} on {}", name(fig), name(t)),
                    None => format!("{} uses {skill}", name(fig)),
                }
            }
            Event::Moved {
                fig,
                path,
                facing,
                cost,
                why,
                toward,
                goal,
            } => {
                let pts: Vec<String> = path.iter().map(|p| fmt_pt(*p)).collect();
                let aim = match (toward, goal) {
                    (Some(t), _) => format!(" toward {}", name(t)),
                    (None, Some(g)) => format!(" toward {}", fmt_pt(*g)),
                    _ => String::new(),
                };
                format!(
                    "{} moves {} ({}{aim}, {cost:.2}\"), facing {facing}",
                    name(fig),
                    pts.join(" -> "),
                    why.name()
                )
            }
            Event::Turned { fig, facing, at } => {
                format!("{} at {} turns to face {facing}", name(fig), fmt_pt(*at))
            }
            Event::Heard { fig, at } => {
                format!("{} hears fighting at {}", name(fig), fmt_pt(*at))
            }
            Event::Rolled {
                fig,
                kind,
                need,
                faces,
                on,
                target,
                hits,
                facing,
            } => format!(
                "{} rolls {} ({}+){}{}: {:?}, {}",
                name(fig),
                kind.name(),
                need,
                match (on, target) {
                    (Some(t), _) => format!(" on {}", name(t)),
                    (None, Some(t)) if *kind != RollKind::Cover => format!(" at {}", name(t)),
                    _ => String::new(),
                },
                facing.map_or(String::new(), |f| format!(" facing {f}")),
                faces.as_slice(),
                match (kind, hits) {
                    (RollKind::Cover, n) => format!("{n} cancelled"),
                    (_, 0) => "a miss".to_string(),
                    (_, n) => format!("{n} hit(s)"),
                }
            ),
            Event::Hit {
                by,
                target,
                hits,
                damage,
                ranged,
                hp,
            } => format!(
                "{} hits {} {hits} time(s) {}{}: {hp} hp left",
                name(by),
                name(target),
                if *ranged {
                    "at range"
                } else {
                    "in close combat"
                },
                if *damage > 1 {
                    format!(", {damage} hp each")
                } else {
                    String::new()
                }
            ),
            Event::Covered { target, cancelled } => {
                format!("Cover cancels {cancelled} hit(s) on {}", name(target))
            }
            Event::Saved { target, cancelled } => {
                format!("{} saves {cancelled} hit(s)", name(target))
            }
            Event::Affected { by, target, what } => {
                format!("{} is {what} by {}", name(target), name(by))
            }
            Event::Foreground { by, aimed, target } => format!(
                "{}'s shot at {} is taken by {} in the foreground",
                name(by),
                name(aimed),
                name(target)
            ),
            Event::Died { fig, by, how } => match (how, by) {
                (DeathKind::InstantKill, Some(b)) => {
                    format!("{} kills {} outright", name(b), name(fig))
                }
                (DeathKind::ClockRanOut, _) => {
                    format!("{} is executed by its captors", name(fig))
                }
                (_, Some(b)) => format!("{} executes {}", name(b), name(fig)),
                _ => format!("{} dies", name(fig)),
            },
            Event::Captured {
                fig,
                how,
                guards,
                execute,
            } => format!(
                "{} is captured ({}), guarded by [{}]; executed at the start of round {execute}",
                name(fig),
                match how {
                    CaptureKind::Collapsed => "collapsed",
                    CaptureKind::Held => "held in close combat",
                },
                names(guards)
            ),
            Event::Freed { fig, hp } => format!("{} is freed with {hp} hp", name(fig)),
            Event::Healed {
                fig,
                target,
                amount,
                hp,
            } => format!("{} heals {} by {amount}: {hp} hp", name(fig), name(target)),
            Event::Fled { fig, pursuers } => {
                format!("{} flees; [{}] pursue", name(fig), names(pursuers))
            }
            Event::Alerted { figs, toward } => format!(
                "[{}] turn toward {} (vision +4\" for a round)",
                names(figs),
                fmt_pt(*toward)
            ),
            Event::Joined { fig } => format!("{} joins the squad", name(fig)),
            Event::FightEnded { figs, round } => {
                format!("The fight of [{}] is over (round {round})", names(figs))
            }
            Event::Ended { ending, round } => {
                format!("The mission ends in round {round}: {}", ending.name())
            }
            Event::Exhausted => "The dice script ran out".into(),
        }
    }

    /// The event's own fields as JSON.
    pub fn fields(&self) -> Value {
        match self {
            Event::Deployed { figs } => {
                json!({"figures": figs.iter().enumerate().map(|(i, (p, f, hp))| {
                json!({"fig": i, "at": pt(*p), "facing": f.as_str(), "hp": hp})
            }).collect::<Vec<_>>()})
            }
            Event::Placed { fig, at, facing } => {
                json!({"fig": fig, "at": pt(*at), "facing": facing.as_str()})
            }
            Event::Round { round } => json!({"round": round}),
            Event::TurnOf { heroes } => json!({"side": if *heroes { "heroes" } else { "enemies" }}),
            Event::Activate { fig } => json!({"fig": fig}),
            Event::Skill { fig, slot, target } => {
                json!({"fig": fig, "slot": slot, "target": target})
            }
            Event::Moved {
                fig,
                path,
                facing,
                cost,
                why,
                toward,
                goal,
            } => json!({
                "fig": fig,
                "path": path.iter().map(|p| pt(*p)).collect::<Vec<_>>(),
                "at": path.last().map(|p| pt(*p)),
                "facing": facing.as_str(),
                "cost": round2(*cost),
                "why": why.name(),
                "toward": toward,
                "goal": goal.map(pt),
            }),
            Event::Turned { fig, facing, at } => {
                json!({"fig": fig, "facing": facing.as_str(), "at": pt(*at)})
            }
            Event::Heard { fig, at } => json!({"fig": fig, "at": pt(*at)}),
            Event::Rolled {
                fig,
                kind,
                need,
                faces,
                on,
                target,
                hits,
                facing,
            } => {
                let mut v = json!({"fig": fig, "kind": kind.name(), "need": need, "dice": faces.as_slice()});
                if let Some(t) = on {
                    v["on"] = json!(t);
                }
                v["target"] = json!(target);
                if *kind == RollKind::Cover {
                    v["cancelled"] = json!(hits);
                } else {
                    v["hits"] = json!(hits);
                    v["result"] = json!(if *hits > 0 { "hit" } else { "miss" });
                }
                if let Some(f) = facing {
                    v["facing"] = json!(f.as_str());
                }
                v
            }
            Event::Hit {
                by,
                target,
                hits,
                damage,
                ranged,
                hp,
            } => {
                json!({"by": by, "target": target, "hits": hits, "damage": damage, "ranged": ranged, "hp": hp})
            }
            Event::Covered { target, cancelled } | Event::Saved { target, cancelled } => {
                json!({"target": target, "cancelled": cancelled})
            }
            Event::Affected { by, target, what } => {
                json!({"by": by, "target": target, "what": what})
            }
            Event::Foreground { by, aimed, target } => {
                json!({"by": by, "aimed": aimed, "target": target})
            }
            Event::Died { fig, by, how } => json!({"fig": fig, "by": by, "how": how.name()}),
            Event::Captured {
                fig,
                how,
                guards,
                execute,
            } => json!({
                "fig": fig,
                "how": match how { CaptureKind::Collapsed => "collapsed", CaptureKind::Held => "held" },
                "guards": guards,
                "execute_round": execute,
            }),
            Event::Freed { fig, hp } => json!({"fig": fig, "hp": hp}),
            Event::Healed {
                fig,
                target,
                amount,
                hp,
            } => json!({"fig": fig, "target": target, "amount": amount, "hp": hp}),
            Event::Fled { fig, pursuers } => json!({"fig": fig, "pursuers": pursuers}),
            Event::Alerted { figs, toward } => json!({"figs": figs, "toward": pt(*toward)}),
            Event::Joined { fig } => json!({"fig": fig}),
            Event::FightEnded { figs, round } => json!({"figs": figs, "round": round}),
            Event::Ended { ending, round } => json!({"ended": ending.name(), "round": round}),
            Event::Exhausted => json!({}),
        }
    }
}
