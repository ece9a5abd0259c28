//! Arcadia as a [`Game`]: the engine's own state machine ([`State::node`], [`State::apply`])
//! with its options in words.

use rand_chacha::ChaCha8Rng;
use serde_json::Value;

use super::engine::Node;
use super::engine::events::side_name;
use super::engine::setup::DIRS;
use super::engine::state::kind_name;
use super::engine::{
    ArcadiaGame, Ended, Event, Log, Match, NoLog, Opt, Opts, Phase, State, Winner,
};
use crate::games::game::{Chance, Game, Hidden, Outcome, Seats, Turn, Verdict};

impl<'m> ArcadiaGame<'m> {
    /// The start of a match (every decision with a single option already taken).
    pub fn new(m: &'m Match) -> ArcadiaGame<'m> {
        ArcadiaGame::start(m, &mut NoLog)
    }

    /// The start of a match, logging what happens before the first roll or decision.
    pub fn start(m: &'m Match, log: &mut impl Log) -> ArcadiaGame<'m> {
        ArcadiaGame::from_state(m, State::new(m), log)
    }

    /// A match begun from `st` (a test's arranged position, say): every decision with a
    /// single option taken first, as at the start.
    pub fn from_state(m: &'m Match, mut st: State, log: &mut impl Log) -> ArcadiaGame<'m> {
        st.settle(m, log);
        ArcadiaGame { m, st }
    }

    /// The options of the current decision, in `first` order.
    pub fn options(&self) -> Opts {
        let mut o = Opts::default();
        if !matches!(
            self.st.phase,
            Phase::Over | Phase::FirstRoll { .. } | Phase::TrialRoll | Phase::TestRoll
        ) {
            self.st.options(self.m, &mut o);
        }
        o
    }

    /// One option in words, for the player deciding.
    pub fn option_text(&self, o: Opt) -> String {
        let m = self.m;
        let p = usize::from(self.st.decider());
        let q = 1 - p;
        let league = |l: u8| {
            m.leagues
                .get(usize::from(l))
                .map_or("?".to_string(), |x| x.name.clone())
        };
        let merit = |who: usize, i: u8| {
            m.players[who]
                .merits
                .get(usize::from(i))
                .map_or("?".to_string(), |x| x.name.clone())
        };
        let dir = |d: u8| {
            DIRS.get(usize::from(d))
                .map_or("?".to_string(), |s| format!("{s:?}").to_lowercase())
        };
        match o {
            Opt::Lay(l) => format!("Lay {}", league(l)),
            Opt::At(x, y) => format!("Lay it at ({x}, {y})"),
            Opt::Hide(l) => format!("Hide the treasure in {}", league(l)),
            Opt::Go(d) => match self.st.neighbour(m, self.st.heroes[p].at, d) {
                Some(to) => format!("Move {} to {}", dir(d), league(to)),
                None => format!("Move {}", dir(d)),
            },
            Opt::Stay => "Stay".into(),
            Opt::Play(w) => {
                format!(
                    "Play the waylay {}",
                    m.waylays
                        .get(usize::from(w))
                        .map_or("?", |x| x.name.as_str())
                )
            }
            Opt::Hold => "Play no waylay".into(),
            Opt::Treasure => "Search for the treasure".into(),
            Opt::Rest => "Rest".into(),
            Opt::Challenge(k) => {
                format!("Challenge player {} ({})", side_name(q as u8), kind_name(k))
            }
            Opt::Test(k) => format!("Face it with {}", kind_name(k)),
            Opt::Change(k, i) => {
                format!("Exhaust {} to face it with {}", merit(p, i), kind_name(k))
            }
            Opt::Bonus(i) => format!("Exhaust {} for its bonus", merit(p, i)),
            Opt::Retest(i) => format!("Exhaust {} to retest", merit(p, i)),
            Opt::Penalty(f) => format!(
                "Exhaust player {}'s flaw {}",
                side_name(q as u8),
                m.players[q]
                    .flaws
                    .get(usize::from(f))
                    .map_or("?", |x| x.name.as_str())
            ),
            Opt::Accept => "Accept the result".into(),
            Opt::Exhaust(i) => format!("Exhaust {}", merit(self.loser(), i)),
            Opt::Discard(i) => format!("Discard {}", merit(self.loser(), i)),
            Opt::Ruin => "Nothing left to lose".into(),
            Opt::Push(d) => format!("Push player {} {}", side_name(q as u8), dir(d)),
            Opt::Place(l) => format!("Place it in {}", league(l)),
            Opt::Look(l) => format!("Look at the face-down treasure in {}", league(l)),
        }
    }

    /// Whose merit a lost-merit decision takes.
    fn loser(&self) -> usize {
        match self.st.phase {
            Phase::LoseMerit { who, .. } => usize::from(who),
            Phase::Spoils { winner } => usize::from(1 - winner),
            _ => usize::from(self.st.decider()),
        }
    }
}

impl<'m> Game for ArcadiaGame<'m> {
    type Ending = Ended;
    type Event = Event;
    const NAME: &'static str = "arcadia";

    fn seats(&self) -> usize {
        2
    }

    fn turn(&self) -> Turn {
        match self.st.node(self.m) {
            Node::Terminal => Turn::Over,
            Node::Chance(_) => Turn::Chance(Chance::Die),
            Node::Decision { player, actions } => Turn::Seat {
                seat: player,
                options: actions.max(1),
            },
        }
    }

    fn apply(&mut self, action: usize) {
        self.st.apply(self.m, action, &mut NoLog);
    }

    fn apply_logged(&mut self, action: usize, log: &mut Vec<Event>) {
        self.st.apply(self.m, action, log);
    }

    fn exhausted(&mut self, log: &mut Vec<Event>) {
        self.st.stop_exhausted(log);
    }

    fn outcome(&self) -> Option<Outcome<Ended>> {
        let (ended, winner) = self.st.ended?;
        let verdict = match winner {
            Some(Winner::Player(p)) => Verdict::Won(Seats::one(usize::from(p))),
            Some(Winner::Draw) => Verdict::Draw,
            None => Verdict::NoResult,
        };
        Some(Outcome {
            verdict,
            ended,
            turns: self.st.day,
        })
    }

    fn turns(&self) -> u32 {
        self.st.day
    }

    fn fingerprint(&self) -> u64 {
        // The heroes, the board and the phase; not the Day count or the dice used.
        let mut st = self.st;
        st.day = 0;
        st.dice_used = 0;
        crate::games::game::fingerprint_of(&st)
    }

    fn question(&self) -> String {
        let who = format!("Player {}", side_name(self.st.decider()));
        let what = match self.st.phase {
            Phase::LayLeague { .. } => "which league do you lay next?",
            Phase::LayAt { .. } => "where do you lay it?",
            Phase::ChooseBase { .. } => "which league is the other character's Base Camp?",
            Phase::PlaceTreasure { .. } => "where is the treasure hidden?",
            Phase::Move => "move or stay?",
            Phase::TrialWindow => "use a merit to pass the trial?",
            Phase::PlayWaylay => "play a waylay on the league just entered?",
            Phase::Encounter => "what does your character do here?",
            Phase::ChooseTest { .. } => "which test against the waylay?",
            Phase::TestWindow { .. } => "use a merit or flaw, retest, or accept?",
            Phase::LoseMerit { .. } => "which merit is lost?",
            Phase::Spoils { .. } => "take a merit or push the loser?",
            Phase::Relocate { .. } => "where is the character placed?",
            Phase::LookAt { .. } => "which face-down treasure do you look at?",
            _ => return String::new(),
        };
        format!("{who}: {what}")
    }

    fn describe(&self, action: usize) -> String {
        match self.options().as_slice().get(action) {
            Some(o) => self.option_text(*o),
            None => format!("option {}", action + 1),
        }
    }

    fn event_text(&self, e: &Event) -> String {
        e.text_on(self.m, &self.st)
    }

    fn event_json(&self, e: &Event) -> Value {
        e.to_json_on(self.m, &self.st)
    }

    fn hidden(&self, e: &Event) -> Option<Hidden> {
        let (owner, text, json) = e.hidden_on(self.m, &self.st)?;
        Some(Hidden {
            seen_by: Seats::one(usize::from(owner)),
            text,
            json,
        })
    }

    /// Which of the other player's face-down treasures lies where, re-dealt, and the other
    /// player's waylays in hand out of the game ([`State::seen_by`]).
    fn determinize(&self, seat: usize, rng: &mut ChaCha8Rng) -> Option<Self> {
        let seat = u8::try_from(seat).ok().filter(|s| *s < 2)?;
        Some(ArcadiaGame {
            m: self.m,
            st: self.st.seen_by(self.m, seat, rng),
        })
    }

    fn is_heading(&self, e: &Event) -> bool {
        matches!(e, Event::Day { .. })
    }
}
