//! Ruunara as a [`Game`]. Solo play: seat 0 is the squad (every decision is its); seat 1 is
//! the mission, which never decides: the enemies are run by the rules inside `apply`, and
//! the seat only wins when the heroes lose. Duo play: seats 0 and 1 share the squad (each
//! commands every other member, [`Setup::seat_of`]) and win together; seat 2 is the
//! mission. A contest: seat 0 the squad, seat 1 the enemies' player, alternating
//! activations. Every die is a chance node.

use serde_json::Value;

use super::RuunaraEnding;
use super::events::{Event, Log, NoLog};
use super::geom::Pt;
use super::setup::{PlayMode, Setup};
use super::sight::Path;
use super::state::{Opt, Phase, State, Status};
use crate::games::ai::{Agent, Evaluator, play_nodes};
use crate::games::game::{Chance, Ending, Game, Outcome, Seats, Turn, Verdict};
use crate::games::ruunara::model::{AttackKind, SkillEffect};

/// A position of a mission: its setup and the state.
#[derive(Debug, Clone)]
pub struct RuunaraGame<'s> {
    pub setup: &'s Setup,
    pub st: State,
    /// The dice ran out: the match stopped.
    pub stopped: bool,
}

impl<'s> RuunaraGame<'s> {
    /// The start of a mission (every decision with a single option already taken).
    pub fn new(setup: &'s Setup) -> RuunaraGame<'s> {
        RuunaraGame::start(setup, &mut NoLog)
    }

    /// The start of a mission, logging the deployment and what happens before the first
    /// decision.
    pub fn start(setup: &'s Setup, log: &mut impl Log) -> RuunaraGame<'s> {
        RuunaraGame {
            setup,
            st: State::new(setup, log),
            stopped: false,
        }
    }

    /// The game at a position `st` of `setup`.
    pub fn at(setup: &'s Setup, st: State) -> RuunaraGame<'s> {
        RuunaraGame {
            setup,
            st,
            stopped: false,
        }
    }

    fn over(&self) -> bool {
        self.stopped || self.st.is_over()
    }

    /// Applies an option or a die, logged into any [`Log`].
    pub fn step(&mut self, action: usize, log: &mut impl Log) {
        if !self.over() {
            self.st.apply(self.setup, action, log);
        }
    }

    /// The options of the current decision.
    pub fn options(&self) -> &[Opt] {
        self.st.options()
    }

    /// The path that moves `fig` to the point (`x`, `y`) in its movement phase, if it is
    /// legal: straight or around one corner, within what it may move now
    /// ([`State::move_budget`]: its movement, or a limited flight's distance), ending where
    /// asked.
    pub fn legal_move_to(&self, fig: usize, x: f64, y: f64) -> Option<Path> {
        if self.st.phase != Phase::Move(fig as u8) || self.st.options().is_empty() {
            return None;
        }
        if self.st.engaged(fig) && !self.st.figs[fig].fleeing {
            return None;
        }
        let goal = Pt::new(x, y);
        // Its movement, or less in a limited flight (Windstep's 4"): what the engine's own
        // movement options are held to.
        let budget = self.st.move_budget(self.setup, fig);
        let p = self.st.plan(self.setup, fig, goal, 0.0, budget, false)?;
        (p.end()?.dist(goal) < 0.01 && p.cost <= budget + 1e-9).then_some(p)
    }

    /// Offers a dragged path (from [`RuunaraGame::legal_move_to`]) as one more option of the
    /// movement decision; its index, to apply like any other (`None` when no movement
    /// decision is open). A replay needs the same path offered again before that input.
    pub fn offer_path(&mut self, path: Path) -> Option<usize> {
        let Phase::Move(_) = self.st.phase else {
            return None;
        };
        let n = usize::from(self.st.n_opts);
        if n == 0 || n >= super::state::MAX_OPTS {
            return None;
        }
        self.st.drag = path;
        self.st.opts[n] = Opt::Dragged;
        self.st.n_opts += 1;
        Some(n)
    }

    /// Moves the active hero along a dragged path, logged: [`RuunaraGame::offer_path`] and
    /// applying it. `false` when no movement decision is open.
    pub fn apply_path(&mut self, path: Path, log: &mut impl Log) -> bool {
        match self.offer_path(path) {
            Some(k) => {
                self.step(k, log);
                true
            }
            None => false,
        }
    }

    /// Whether squad member `fig` may be dropped at the point (`x`, `y`) in its deployment
    /// decision: anywhere its base fits wholly in its zone, off buildings, clear of the
    /// figures standing, leaving a grid spot for each member of the zone still to place
    /// ([`State::can_drop`]).
    pub fn legal_deploy_at(&self, fig: usize, x: f64, y: f64) -> bool {
        !self.over() && self.st.can_drop(self.setup, fig, Pt::new(x, y))
    }

    /// Offers a dropped deployment (a point where [`RuunaraGame::legal_deploy_at`] holds) as
    /// one more option of the deployment decision ([`Opt::Dropped`]); its index, to apply
    /// like any other (`None` when no deployment decision is open or the point is not legal).
    /// A replay needs the same point offered again before that input.
    pub fn offer_drop(&mut self, at: Pt) -> Option<usize> {
        let Phase::Deploy(i) = self.st.phase else {
            return None;
        };
        let n = usize::from(self.st.n_opts);
        if n == 0
            || n >= super::state::MAX_OPTS
            || !self.legal_deploy_at(usize::from(i), at.x, at.y)
        {
            return None;
        }
        self.st.drop = at;
        self.st.opts[n] = Opt::Dropped;
        self.st.n_opts += 1;
        Some(n)
    }

    /// Places the member being deployed where it was dropped, logged:
    /// [`RuunaraGame::offer_drop`] and applying it. `false` when it cannot go there.
    pub fn apply_drop(&mut self, at: Pt, log: &mut impl Log) -> bool {
        match self.offer_drop(at) {
            Some(k) => {
                self.step(k, log);
                true
            }
            None => false,
        }
    }

    /// The member whose deployment is decided now, if any.
    pub fn deploying(&self) -> Option<usize> {
        match self.st.phase {
            Phase::Deploy(i) => Some(usize::from(i)),
            _ => None,
        }
    }

    fn name(&self, i: usize) -> String {
        format!("{} #{i}", self.setup.figs[i].name)
    }

    fn path_words(&self, i: usize, p: &Path) -> String {
        let pts: Vec<String> = p
            .points()
            .iter()
            .map(|q| format!("({:.2}, {:.2})", q.x, q.y))
            .collect();
        format!("to {} ({:.2}\")", pts.join(" -> "), p.cost)
            + if p.cost > self.st.move_budget(self.setup, i) + 1e-9 {
                " (too far)"
            } else {
                ""
            }
    }

    /// Option `o` in words.
    pub fn opt_text(&self, o: Opt) -> String {
        let s = self.setup;
        let st = &self.st;
        let i = st.active().unwrap_or(0);
        match o {
            Opt::Place { .. } | Opt::Dropped => {
                let Phase::Deploy(k) = st.phase else {
                    return "Deploy".into();
                };
                let k = usize::from(k);
                let p = match o {
                    Opt::Place { col, row } => st.spot(s, k, usize::from(col), usize::from(row)),
                    _ => st.drop,
                };
                format!(
                    "Deploy {} at ({:.2}, {:.2}) facing {}{}",
                    self.name(k),
                    p.x,
                    p.y,
                    st.deploy_facing(s, p),
                    if o == Opt::Dropped {
                        " (where it was dropped)"
                    } else {
                        ""
                    }
                )
            }
            Opt::Activate(j) => {
                let j = usize::from(j);
                let f = &st.figs[j];
                format!(
                    "Activate {} ({} hp, at ({:.2}, {:.2}) facing {})",
                    self.name(j),
                    f.hp,
                    f.at.x,
                    f.at.y,
                    f.facing
                )
            }
            Opt::Done => match st.phase {
                Phase::Tactical(_) => "Use no skill now".into(),
                Phase::Move(_) => "Stay in place".into(),
                _ => "End the activation".into(),
            },
            Opt::Skill { slot, target } => {
                let name = s.figs[i].skill_name(usize::from(slot));
                if target == super::state::NONE {
                    format!("Use {name}")
                } else {
                    format!("Use {name} on {}", self.name(usize::from(target)))
                }
            }
            Opt::Engage(_) | Opt::ToTarget | Opt::ToExit | Opt::Line(_) | Opt::Dragged => {
                let what = match o {
                    Opt::Engage(j) => format!("Move to engage {}", self.name(usize::from(j))),
                    Opt::ToTarget => "Move toward the figure to rescue".into(),
                    Opt::ToExit => "Move toward the exit".into(),
                    Opt::Line(d) => format!("Move {d}"),
                    _ => "Move along the dragged path".into(),
                };
                match st.opt_path(s, i, o) {
                    Some(p) if p.n > 0 => format!("{what} {}", self.path_words(i, &p)),
                    _ => format!("{what} (blocked: stays)"),
                }
            }
            Opt::Face(j) => format!("Turn to face {}", self.name(usize::from(j))),
            Opt::Close(j) => format!(
                "Attack {} in close combat ({})",
                self.name(usize::from(j)),
                s.figs[i].close
            ),
            Opt::Ranged(j) => {
                let j = usize::from(j);
                let fg = st.foreground(i, j);
                let dice = s.figs[i].ranged.map(|d| d.to_string()).unwrap_or_default();
                let mut t = format!(
                    "Shoot at {} ({dice}, {:.2}\" away)",
                    self.name(j),
                    st.gap(i, j)
                );
                if fg != j {
                    t += &format!("; {} is in the foreground", self.name(fg));
                }
                if st.covered(s, i, fg) {
                    t += "; under cover";
                }
                t
            }
            Opt::Extra { slot, target } => {
                let (kind, dice) = match s.figs[i].skills[usize::from(slot)].map(|d| d.effect) {
                    Some(SkillEffect::ExtraAttack {
                        dice,
                        attack,
                        damage,
                    }) => (
                        if attack == AttackKind::Close {
                            "close"
                        } else {
                            "ranged"
                        },
                        if damage > 1 {
                            format!("{dice}, {damage} hp a hit")
                        } else {
                            dice.to_string()
                        },
                    ),
                    _ => ("", String::new()),
                };
                format!(
                    "Use {} for an extra {kind} attack ({dice}) on {}",
                    s.figs[i].skill_name(usize::from(slot)),
                    self.name(usize::from(target))
                )
            }
        }
    }

    /// Watches the enemies' turn enemy by enemy: from now on, play pauses in front of an
    /// enemy once `n` enemies have acted (a face shows the turn one enemy at a time by
    /// replaying it with `n` = 0, 1, 2...). The position reached is the one play reaches
    /// unwatched, stopped earlier; a paused game takes no input ([`RuunaraGame::paused`]).
    pub fn watch_enemies(&mut self, n: usize) {
        self.st.watch = Some(u8::try_from(n).unwrap_or(u8::MAX));
    }

    /// The enemy play paused in front of ([`RuunaraGame::watch_enemies`]).
    pub fn paused(&self) -> Option<usize> {
        match self.st.phase {
            Phase::Enemies(k) if !self.over() => Some(usize::from(k)),
            _ => None,
        }
    }

    /// The heroes won.
    pub fn won(&self) -> bool {
        self.st.ended.is_some_and(|e| e.heroes_win())
    }

    /// The seat that decides now (the chance node and the end say 0).
    pub fn seat_now(&self) -> usize {
        match self.st.phase {
            Phase::Pick => usize::from(self.st.pick),
            Phase::Deploy(i) | Phase::Tactical(i) | Phase::Move(i) | Phase::Combat(i) => {
                let i = usize::from(i);
                self.setup.seat_of(i, self.st.figs[i].team).unwrap_or(0)
            }
            _ => 0,
        }
    }

    /// The seats that play for the heroes (win with them).
    pub fn heroes_seats(&self) -> Seats {
        match self.setup.mode {
            PlayMode::Duo => Seats(0b011),
            PlayMode::Solo | PlayMode::Contest => Seats::one(0),
        }
    }

    /// Free figures, for faces that draw the board.
    pub fn free(&self, i: usize) -> bool {
        self.st.figs[i].status == Status::Free
    }
}

impl<'s> Game for RuunaraGame<'s> {
    type Ending = RuunaraEnding;
    type Event = Event;
    const NAME: &'static str = "ruunara";

    fn seats(&self) -> usize {
        self.setup.mode.seats()
    }

    fn turn(&self) -> Turn {
        if self.over() {
            Turn::Over
        } else if self.st.needs_die() {
            Turn::Chance(Chance::Die)
        } else {
            Turn::Seat {
                seat: self.seat_now(),
                options: usize::from(self.st.n_opts).max(1),
            }
        }
    }

    fn apply(&mut self, action: usize) {
        self.step(action, &mut NoLog);
    }

    fn apply_logged(&mut self, action: usize, log: &mut Vec<Event>) {
        self.step(action, log);
    }

    fn exhausted(&mut self, log: &mut Vec<Event>) {
        if !self.over() {
            self.stopped = true;
            log.push(Event::Exhausted);
        }
    }

    fn outcome(&self) -> Option<Outcome<RuunaraEnding>> {
        if !self.over() {
            return None;
        }
        let ended = if self.stopped {
            RuunaraEnding::DiceExhausted
        } else {
            self.st.ended.unwrap_or(RuunaraEnding::RoundLimit)
        };
        let verdict = if ended == RuunaraEnding::DiceExhausted {
            Verdict::NoResult
        } else if ended.heroes_win() {
            Verdict::Won(self.heroes_seats())
        } else {
            Verdict::Won(Seats::one(self.setup.mode.seats() - 1))
        };
        Some(Outcome {
            verdict,
            ended,
            turns: self.st.round,
        })
    }

    fn turns(&self) -> u32 {
        self.st.round
    }

    fn fingerprint(&self) -> u64 {
        // The figures, the phase and what is pending; not the round count.
        let mut st = self.st.clone();
        st.round = 0;
        crate::games::game::fingerprint_of(&(st, self.stopped))
    }

    fn question(&self) -> String {
        match self.st.phase {
            Phase::Deploy(i) => format!("Where does {} deploy?", self.name(usize::from(i))),
            Phase::Pick => match self.setup.mode {
                PlayMode::Contest if self.st.pick == 1 => "Which enemy acts next?".into(),
                PlayMode::Duo => format!(
                    "Player {}: which of your heroes acts next?",
                    self.st.pick + 1
                ),
                _ => "Which ally acts next?".into(),
            },
            Phase::Tactical(i) => format!("{}: use a skill?", self.name(usize::from(i))),
            Phase::Move(i) => format!("{}: where does it move?", self.name(usize::from(i))),
            Phase::Combat(i) => format!("{}: which attack?", self.name(usize::from(i))),
            _ => String::new(),
        }
    }

    fn describe(&self, action: usize) -> String {
        match self.st.options().get(action) {
            Some(o) => self.opt_text(*o),
            None => format!("option {}", action + 1),
        }
    }

    fn event_text(&self, e: &Event) -> String {
        e.text(self.setup)
    }

    fn event_json(&self, e: &Event) -> Value {
        crate::games::event_json(e.kind(), e.fields(), e.text(self.setup))
    }

    fn is_heading(&self, e: &Event) -> bool {
        matches!(e, Event::Round { .. })
    }

    /// A member dropped at the point while it deploys, or the hero moving dragged there
    /// (the legal path to it: [`RuunaraGame::legal_move_to`]).
    fn offer_point(&mut self, x: f64, y: f64) -> Option<usize> {
        if self.deploying().is_some() {
            return self.offer_drop(Pt::new(x, y));
        }
        let Phase::Move(fig) = self.st.phase else {
            return None;
        };
        let path = self.legal_move_to(usize::from(fig), x, y)?;
        self.offer_path(path)
    }
}

impl<'s> RuunaraGame<'s> {
    /// The whole match played by `agents`: with no log, a fast path (blind policies without
    /// the trait's detour) that plays exactly what [`play_nodes`] plays.
    pub fn play_fast<D: crate::games::dice::Dice, E: Evaluator<Self>>(
        &mut self,
        dice: &mut D,
        agents: &mut [Agent<E>],
        log: Option<&mut Vec<Event>>,
    ) {
        match log {
            Some(l) => play_nodes(self, dice, agents, Some(l)),
            None => {
                // The fast path: no log, blind policies without the trait's detour.
                loop {
                    let a = match self.turn() {
                        Turn::Over => return,
                        Turn::Chance(c) => match c.draw(dice) {
                            Some(o) => o,
                            None => {
                                self.stopped = true;
                                return;
                            }
                        },
                        Turn::Seat { seat, options } => agents[seat % agents.len()]
                            .choose(self, seat, options)
                            .min(options.saturating_sub(1)),
                    };
                    self.st.apply(self.setup, a, &mut NoLog);
                }
            }
        }
    }
}

impl Ending for RuunaraEnding {
    const ALL: &'static [RuunaraEnding] = &[
        RuunaraEnding::Eliminated,
        RuunaraEnding::Rescued,
        RuunaraEnding::Reached,
        RuunaraEnding::Survived,
        RuunaraEnding::SquadLost,
        RuunaraEnding::TargetLost,
        RuunaraEnding::RoundLimit,
        RuunaraEnding::DiceExhausted,
    ];
    fn name(self) -> &'static str {
        match self {
            RuunaraEnding::Eliminated => "eliminated",
            RuunaraEnding::Rescued => "rescued",
            RuunaraEnding::Reached => "reached",
            RuunaraEnding::Survived => "survived",
            RuunaraEnding::SquadLost => "squad_lost",
            RuunaraEnding::TargetLost => "target_lost",
            RuunaraEnding::RoundLimit => "round_limit",
            RuunaraEnding::DiceExhausted => "dice_exhausted",
        }
    }
}
