//! The event log: small `Copy` records the engine emits (a sink may drop them), rendered as
//! readable sentences or as JSON objects with a `type` and a `text`.

use serde_json::{Value, json};

use crate::games::arcadia::model::{Failure, MeritType, TestKind};

use super::setup::{DIRS, Match};
use super::state::{Ended, State, TrialOf, Winner, kind_name};

/// How a test came out for side 0 (the character whose Day it is).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    Won,
    Stalemate,
    Lost,
}

impl Outcome {
    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::Won => "won",
            Outcome::Stalemate => "stalemate",
            Outcome::Lost => "lost",
        }
    }
}

/// One thing that happened. Players are 0 (a) and 1 (b); merits, flaws, treasures and quests
/// are indices into that player's lists of the [`Match`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Event {
    /// The first-player roll; `first` is `None` on a tie (rolled again).
    FirstRoll {
        p1: u8,
        p2: u8,
        first: Option<u8>,
    },
    /// A league brought is laid at (x, y).
    LeagueLaid {
        player: u8,
        league: u8,
        x: i8,
        y: i8,
    },
    /// `by` chooses the other player's Base Camp.
    BaseChosen {
        by: u8,
        league: u8,
    },
    TreasureHidden {
        player: u8,
        treasure: u8,
        league: u8,
    },
    Day {
        day: u32,
        player: u8,
    },
    SkipsDay {
        player: u8,
    },
    Stays {
        player: u8,
        league: u8,
    },
    Moves {
        player: u8,
        from: u8,
        to: u8,
        dir: u8,
    },
    /// A trial's result (after any bonus merits).
    Trial {
        player: u8,
        of: TrialOf,
        league: u8,
        kind: TestKind,
        die: u8,
        total: i32,
        difficulty: i32,
        pass: bool,
    },
    WaylayPlayed {
        by: u8,
        waylay: u8,
        league: u8,
    },
    Faces {
        player: u8,
        waylay: u8,
        kind: TestKind,
    },
    /// A test type changed by exhausting a merit.
    ChangesTest {
        player: u8,
        merit: u8,
        kind: TestKind,
    },
    Challenges {
        player: u8,
        kind: TestKind,
    },
    /// The test's dice (side 0's two, then side 1's two) and scores.
    TestRoll {
        dice: [u8; 4],
        scores: [i32; 2],
    },
    Bonus {
        player: u8,
        merit: u8,
        amount: i32,
    },
    /// `by` exhausts flaw `flaw` of `on`.
    Penalty {
        by: u8,
        on: u8,
        flaw: u8,
        amount: i32,
    },
    Retest {
        player: u8,
        merit: u8,
    },
    TestResult {
        player: u8,
        kind: TestKind,
        scores: [i32; 2],
        outcome: Outcome,
    },
    WaylayDefeated {
        player: u8,
        waylay: u8,
    },
    Exhausts {
        player: u8,
        merit: u8,
    },
    Discards {
        player: u8,
        merit: u8,
    },
    /// Every merit discarded: skips its next Day and goes to `to` (its Base Camp, or where the opponent put it).
    Ruined {
        player: u8,
        to: u8,
    },
    Pushed {
        player: u8,
        to: u8,
        dir: u8,
    },
    TreasureFound {
        player: u8,
        treasure: u8,
    },
    /// `recovered`: merit mask; `flaw`: a flaw the opponent recovered.
    Rests {
        player: u8,
        league: u8,
        recovered: u32,
        flaw: Option<u8>,
    },
    QuestDone {
        player: u8,
        quest: u8,
    },
    /// A quest's time limit passed before it was done: it can no longer be completed.
    QuestFailed {
        player: u8,
        quest: u8,
    },
    /// `player`, resting, looks at the other player's face-down treasure `treasure` (an index
    /// into that player's treasures) lying in `league` (a league effect, Worlds-Edge Scarp).
    TreasureSeen {
        player: u8,
        treasure: u8,
        league: u8,
    },
    /// A failed waylay trial and what its card makes the character suffer.
    TrialFailure {
        player: u8,
        waylay: u8,
        effect: Failure,
    },
    /// A found treasure lost (a waylay's trial), dropped in `league`.
    TreasureLost {
        player: u8,
        treasure: u8,
        league: u8,
    },
    /// Sent back to its Base Camp (or where the opponent put it) by a waylay's trial.
    SentBack {
        player: u8,
        to: u8,
    },
    End {
        ended: Ended,
        winner: Option<Winner>,
    },
}

/// Where events go. `NoLog` drops them; `Vec<Event>` keeps them.
pub trait Log {
    fn push(&mut self, e: Event);
}

/// Drops every event.
#[derive(Debug, Default, Clone, Copy)]
pub struct NoLog;

impl Log for NoLog {
    #[inline(always)]
    fn push(&mut self, _: Event) {}
}

impl Log for Vec<Event> {
    fn push(&mut self, e: Event) {
        Vec::push(self, e)
    }
}

/// `a` or `b`.
pub fn side_name(p: u8) -> &'static str {
    if p == 0 { "a" } else { "b" }
}

fn trial_name(of: TrialOf) -> &'static str {
    match of {
        TrialOf::Leave => "leave",
        TrialOf::Enter => "enter",
        TrialOf::Waylay(_) => "waylay",
        TrialOf::Stay => "stay",
        TrialOf::Rest => "rest",
    }
}

fn cap(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().collect::<String>() + c.as_str(),
        None => String::new(),
    }
}

/// A grid position in words: leagues are laid around the first one, at (0, 0); x grows to
/// the east and y to the south ("(-1, 1), 1 west and 1 south of the first league").
pub fn place_words(x: i32, y: i32) -> String {
    let mut parts = Vec::new();
    if x != 0 {
        parts.push(format!(
            "{} {}",
            x.abs(),
            if x < 0 { "west" } else { "east" }
        ));
    }
    if y != 0 {
        parts.push(format!(
            "{} {}",
            y.abs(),
            if y < 0 { "north" } else { "south" }
        ));
    }
    if parts.is_empty() {
        "(0, 0), the first league's place".to_string()
    } else {
        format!("({x}, {y}), {} of the first league", parts.join(" and "))
    }
}

impl Event {
    /// The event's `type` in JSON.
    pub fn kind(&self) -> &'static str {
        match self {
            Event::FirstRoll { .. } => "first_roll",
            Event::LeagueLaid { .. } => "league_laid",
            Event::BaseChosen { .. } => "base_chosen",
            Event::TreasureHidden { .. } => "treasure_hidden",
            Event::Day { .. } => "day",
            Event::SkipsDay { .. } => "skips_day",
            Event::Stays { .. } => "stays",
            Event::Moves { .. } => "moves",
            Event::Trial { .. } => "trial",
            Event::WaylayPlayed { .. } => "waylay_played",
            Event::Faces { .. } => "faces_waylay",
            Event::ChangesTest { .. } => "changes_test",
            Event::Challenges { .. } => "challenges",
            Event::TestRoll { .. } => "test_roll",
            Event::Bonus { .. } => "bonus",
            Event::Penalty { .. } => "penalty",
            Event::Retest { .. } => "retest",
            Event::TestResult { .. } => "test_result",
            Event::WaylayDefeated { .. } => "waylay_defeated",
            Event::Exhausts { .. } => "exhausts",
            Event::Discards { .. } => "discards",
            Event::Ruined { .. } => "ruined",
            Event::Pushed { .. } => "pushed",
            Event::TreasureFound { .. } => "treasure_found",
            Event::Rests { .. } => "rests",
            Event::QuestDone { .. } => "quest_done",
            Event::QuestFailed { .. } => "quest_failed",
            Event::TreasureSeen { .. } => "treasure_seen",
            Event::TrialFailure { .. } => "trial_failure",
            Event::TreasureLost { .. } => "treasure_lost",
            Event::SentBack { .. } => "sent_back",
            Event::End { .. } => "end",
        }
    }

    /// A readable sentence (leagues labelled by [`Match::league_label`]).
    pub fn text(&self, m: &Match) -> String {
        self.text_with(m, &|l| m.league_label(l))
    }

    /// A readable sentence with the leagues where `st` has them: the positions of leagues laid
    /// in play (they never move once laid, so the final state labels the whole log).
    pub fn text_on(&self, m: &Match, st: &State) -> String {
        self.text_with(m, &|l| st.league_label(m, l))
    }

    /// The JSON object of [`Event::to_json`] with the `text` of [`Event::text_on`].
    pub fn to_json_on(&self, m: &Match, st: &State) -> Value {
        let mut v = self.to_json(m);
        v["text"] = Value::String(self.text_on(m, st));
        v
    }

    /// What the event hides from the other player (and spectators): the player it belongs
    /// to, and its sentence and JSON with the secret left out. A hidden treasure lies face
    /// down: which treasure it is stays the hider's until found (where it lies is seen, as
    /// a card slipped under a league is, and the rule of one treasure a league needs it
    /// seen). Waylays held in hand are never logged until played.
    pub fn hidden_on(&self, m: &Match, st: &State) -> Option<(u8, String, Value)> {
        match self {
            Event::TreasureHidden { player, league, .. } => {
                let text = format!(
                    "{} hides a treasure in {}",
                    m.players[*player as usize].name,
                    st.league_label(m, *league)
                );
                let json = json!({
                    "type": self.kind(),
                    "player": side_name(*player),
                    "league": m.leagues[*league as usize].id,
                    "text": text,
                });
                Some((*player, text, json))
            }
            // Seen by the player who looks; the owner knows its own treasures anyway.
            Event::TreasureSeen { player, league, .. } => {
                let text = format!(
                    "{} looks at {}'s face-down treasure in {}",
                    m.players[*player as usize].name,
                    m.players[1 - *player as usize].name,
                    st.league_label(m, *league)
                );
                let json = json!({
                    "type": self.kind(),
                    "player": side_name(*player),
                    "owner": side_name(1 - *player),
                    "league": m.leagues[*league as usize].id,
                    "text": text,
                });
                Some((*player, text, json))
            }
            _ => None,
        }
    }

    fn text_with(&self, m: &Match, label: &dyn Fn(u8) -> String) -> String {
        let who = |p: &u8| m.players[*p as usize].name.clone();
        let lg = |l: &u8| label(*l);
        let merit = |p: &u8, i: &u8| m.players[*p as usize].merits[*i as usize].name.clone();
        let wl = |w: &u8| m.waylays[*w as usize].name.clone();
        match self {
            Event::FirstRoll { p1, p2, first } => match first {
                Some(f) => format!(
                    "First-player roll: {} {p1}, {} {p2}; {} goes first",
                    who(&0),
                    who(&1),
                    who(f)
                ),
                None => format!(
                    "First-player roll: {} {p1}, {} {p2}; a tie, rolled again",
                    who(&0),
                    who(&1)
                ),
            },
            Event::LeagueLaid {
                player,
                league,
                x,
                y,
            } => {
                format!(
                    "{} lays {} at {}",
                    who(player),
                    m.leagues[*league as usize].name,
                    place_words(i32::from(*x), i32::from(*y))
                )
            }
            Event::BaseChosen { by, league } => {
                format!(
                    "{} chooses {} as {}'s Base Camp",
                    who(by),
                    lg(league),
                    who(&(1 - by))
                )
            }
            Event::TreasureHidden {
                player,
                treasure,
                league,
            } => {
                format!(
                    "{} hides {} in {}",
                    who(player),
                    merit(player, &(m.players[*player as usize].own as u8 + treasure)),
                    lg(league)
                )
            }
            Event::Day { day, player } => {
                format!("Day {day}: {} ({})", who(player), side_name(*player))
            }
            Event::SkipsDay { player } => format!("{} skips this Day", who(player)),
            Event::Stays { player, league } => format!("{} stays in {}", who(player), lg(league)),
            Event::Moves {
                player, to, dir, ..
            } => {
                format!(
                    "{} moves {} to {}",
                    who(player),
                    DIRS[*dir as usize].name(),
                    lg(to)
                )
            }
            Event::Trial {
                player,
                of,
                league,
                kind,
                die,
                total,
                difficulty,
                pass,
            } => {
                let what = match of {
                    TrialOf::Waylay(w) => format!("the trial of {}", wl(w)),
                    TrialOf::Leave => format!("the leave trial of {}", lg(league)),
                    TrialOf::Enter => format!("the enter trial of {}", lg(league)),
                    TrialOf::Stay => format!("the trial for staying in {}", lg(league)),
                    TrialOf::Rest => format!("the trial for resting in {}", lg(league)),
                };
                format!(
                    "{} rolls {die} for {what} ({} {difficulty}): {total}, {}",
                    who(player),
                    cap(kind_name(*kind)),
                    if *pass { "passed" } else { "failed" }
                )
            }
            Event::WaylayPlayed { by, waylay, league } => {
                format!("{} plays {} in {}", who(by), wl(waylay), lg(league))
            }
            Event::Faces {
                player,
                waylay,
                kind,
            } => {
                format!(
                    "{} faces {} ({} test)",
                    who(player),
                    wl(waylay),
                    cap(kind_name(*kind))
                )
            }
            Event::ChangesTest {
                player,
                merit: i,
                kind,
            } => {
                format!(
                    "{} exhausts {} to make it a {} test",
                    who(player),
                    merit(player, i),
                    cap(kind_name(*kind))
                )
            }
            Event::Challenges { player, kind } => {
                format!(
                    "{} challenges {} to a {} test",
                    who(player),
                    who(&(1 - player)),
                    cap(kind_name(*kind))
                )
            }
            Event::TestRoll { dice, scores } => format!(
                "Test roll: {} + {} -> {}, against {} + {} -> {}",
                dice[0], dice[1], scores[0], dice[2], dice[3], scores[1]
            ),
            Event::Bonus {
                player,
                merit: i,
                amount,
            } => {
                format!(
                    "{} exhausts {} for +{amount}",
                    who(player),
                    merit(player, i)
                )
            }
            Event::Penalty {
                by,
                on,
                flaw,
                amount,
            } => format!(
                "{} exhausts {}'s flaw {}: -{amount}",
                who(by),
                who(on),
                m.players[*on as usize].flaws[*flaw as usize].name
            ),
            Event::Retest { player, merit: i } => {
                format!("{} exhausts {} to retest", who(player), merit(player, i))
            }
            Event::TestResult {
                player,
                kind,
                scores,
                outcome,
            } => format!(
                "{} {} the {} test, {} to {}",
                who(player),
                match outcome {
                    Outcome::Won => "wins",
                    Outcome::Stalemate => "is in Stalemate in",
                    Outcome::Lost => "loses",
                },
                cap(kind_name(*kind)),
                scores[0],
                scores[1]
            ),
            Event::WaylayDefeated { player, waylay } => {
                format!("{} defeats {}", who(player), wl(waylay))
            }
            Event::Exhausts { player, merit: i } => {
                format!("{} exhausts {}", who(player), merit(player, i))
            }
            Event::Discards { player, merit: i } => {
                format!("{} discards {}", who(player), merit(player, i))
            }
            Event::Ruined { player, to } => format!(
                "{} has every merit discarded: skips the next Day and is put in {}",
                who(player),
                lg(to)
            ),
            Event::Pushed { player, to, dir } => {
                format!(
                    "{} is pushed {} to {}",
                    who(player),
                    DIRS[*dir as usize].name(),
                    lg(to)
                )
            }
            Event::TreasureFound { player, treasure } => format!(
                "{} finds {}",
                who(player),
                merit(player, &(m.players[*player as usize].own as u8 + treasure))
            ),
            Event::Rests {
                player,
                league,
                recovered,
                flaw,
            } => {
                let mut names: Vec<String> = (0..32u8)
                    .filter(|i| recovered & (1 << i) != 0)
                    .map(|i| merit(player, &i))
                    .collect();
                if names.is_empty() {
                    names.push("nothing".into());
                }
                let mut s = format!(
                    "{} rests in {}, recovering {}",
                    who(player),
                    lg(league),
                    names.join(", ")
                );
                if let Some(f) = flaw {
                    s += &format!(
                        "; {} recovers the flaw {}",
                        who(&(1 - player)),
                        m.players[*player as usize].flaws[*f as usize].name
                    );
                }
                s
            }
            Event::QuestDone { player, quest } => {
                format!(
                    "{} completes the quest {}",
                    who(player),
                    m.players[*player as usize].quests[*quest as usize].name
                )
            }
            Event::QuestFailed { player, quest } => {
                let q = &m.players[*player as usize].quests[*quest as usize];
                format!(
                    "{} fails the quest {}: its time limit of {} has passed",
                    who(player),
                    q.name,
                    crate::count(q.time_limit.unwrap_or(0), "Day", "Days")
                )
            }
            Event::TreasureSeen {
                player,
                treasure,
                league,
            } => {
                let owner = 1 - *player;
                format!(
                    "{} looks at {}'s face-down treasure in {}: {}",
                    who(player),
                    who(&owner),
                    lg(league),
                    merit(&owner, &(m.players[owner as usize].own as u8 + treasure))
                )
            }
            Event::TrialFailure {
                player,
                waylay,
                effect,
            } => {
                format!(
                    "{} fails the trial of {}: {}",
                    who(player),
                    wl(waylay),
                    failure_text(*effect)
                )
            }
            Event::TreasureLost {
                player,
                treasure,
                league,
            } => format!(
                "{} loses {}, which drops in {}",
                who(player),
                merit(player, &(m.players[*player as usize].own as u8 + treasure)),
                lg(league)
            ),
            Event::SentBack { player, to } => format!("{} is sent back to {}", who(player), lg(to)),
            Event::End { ended, winner } => match winner {
                Some(Winner::Player(p)) => format!(
                    "{} ({}) wins ({}) and earns 2 experience",
                    who(p),
                    side_name(*p),
                    ended.as_str()
                ),
                Some(Winner::Draw) => format!("Draw ({})", ended.as_str()),
                None => format!("The match stops ({})", ended.as_str()),
            },
        }
    }

    /// The JSON object: `type`, the event's fields (cards by id, players as `a`/`b`), `text`.
    pub fn to_json(&self, m: &Match) -> Value {
        let lid = |l: &u8| Value::String(m.leagues[*l as usize].id.clone());
        let mid =
            |p: &u8, i: &u8| Value::String(m.players[*p as usize].merits[*i as usize].id.clone());
        let tid = |p: &u8, t: &u8| mid(p, &(m.players[*p as usize].own as u8 + t));
        let wid = |w: &u8| Value::String(m.waylays[*w as usize].id.clone());
        let s = |p: &u8| side_name(*p);
        let v = match self {
            Event::FirstRoll { p1, p2, first } => {
                json!({"a": p1, "b": p2, "first": first.map(side_name)})
            }
            Event::LeagueLaid {
                player,
                league,
                x,
                y,
            } => {
                json!({"player": s(player), "league": lid(league), "x": x, "y": y})
            }
            Event::BaseChosen { by, league } => {
                json!({"player": s(by), "for": s(&(1 - by)), "league": lid(league)})
            }
            Event::TreasureHidden {
                player,
                treasure,
                league,
            } => {
                json!({"player": s(player), "treasure": tid(player, treasure), "league": lid(league)})
            }
            Event::Day { day, player } => json!({"day": day, "player": s(player)}),
            Event::SkipsDay { player } => json!({"player": s(player)}),
            Event::Stays { player, league } => json!({"player": s(player), "league": lid(league)}),
            Event::Moves {
                player,
                from,
                to,
                dir,
            } => json!({
                "player": s(player), "from": lid(from), "to": lid(to), "direction": DIRS[*dir as usize].name()
            }),
            Event::Trial {
                player,
                of,
                league,
                kind,
                die,
                total,
                difficulty,
                pass,
            } => {
                let mut o = json!({
                    "player": s(player), "trial": trial_name(*of), "league": lid(league),
                    "attribute": kind_name(*kind), "die": die, "total": total,
                    "difficulty": difficulty, "pass": pass
                });
                if let TrialOf::Waylay(w) = of {
                    o["waylay"] = wid(w);
                }
                o
            }
            Event::WaylayPlayed { by, waylay, league } => {
                json!({"player": s(by), "waylay": wid(waylay), "league": lid(league)})
            }
            Event::Faces {
                player,
                waylay,
                kind,
            } => {
                json!({"player": s(player), "waylay": wid(waylay), "test": kind_name(*kind)})
            }
            Event::ChangesTest {
                player,
                merit,
                kind,
            } => {
                json!({"player": s(player), "merit": mid(player, merit), "test": kind_name(*kind)})
            }
            Event::Challenges { player, kind } => {
                json!({"player": s(player), "test": kind_name(*kind)})
            }
            Event::TestRoll { dice, scores } => json!({"dice": dice, "scores": scores}),
            Event::Bonus {
                player,
                merit,
                amount,
            } => {
                json!({"player": s(player), "merit": mid(player, merit), "amount": amount})
            }
            Event::Penalty {
                by,
                on,
                flaw,
                amount,
            } => json!({
                "player": s(by), "on": s(on),
                "flaw": m.players[*on as usize].flaws[*flaw as usize].id, "amount": amount
            }),
            Event::Retest { player, merit } => {
                json!({"player": s(player), "merit": mid(player, merit)})
            }
            Event::TestResult {
                player,
                kind,
                scores,
                outcome,
            } => json!({
                "player": s(player), "test": kind_name(*kind), "scores": scores, "outcome": outcome.as_str()
            }),
            Event::WaylayDefeated { player, waylay } => {
                json!({"player": s(player), "waylay": wid(waylay)})
            }
            Event::Exhausts { player, merit } | Event::Discards { player, merit } => {
                json!({"player": s(player), "merit": mid(player, merit)})
            }
            Event::Ruined { player, to } => json!({"player": s(player), "to": lid(to)}),
            Event::Pushed { player, to, dir } => {
                json!({"player": s(player), "to": lid(to), "direction": DIRS[*dir as usize].name()})
            }
            Event::TreasureFound { player, treasure } => {
                json!({"player": s(player), "treasure": tid(player, treasure)})
            }
            Event::Rests {
                player,
                league,
                recovered,
                flaw,
            } => json!({
                "player": s(player), "league": lid(league),
                "recovered": (0..32u8).filter(|i| recovered & (1 << i) != 0).map(|i| mid(player, &i)).collect::<Vec<_>>(),
                "flaw": flaw.map(|f| m.players[*player as usize].flaws[f as usize].id.clone()),
            }),
            Event::QuestDone { player, quest } => json!({
                "player": s(player), "quest": m.players[*player as usize].quests[*quest as usize].id
            }),
            Event::QuestFailed { player, quest } => json!({
                "player": s(player), "quest": m.players[*player as usize].quests[*quest as usize].id
            }),
            Event::TreasureSeen {
                player,
                treasure,
                league,
            } => json!({
                "player": s(player), "owner": s(&(1 - *player)),
                "treasure": tid(&(1 - *player), treasure), "league": lid(league)
            }),
            Event::TrialFailure {
                player,
                waylay,
                effect,
            } => {
                json!({"player": s(player), "waylay": wid(waylay), "effect": failure_text(*effect)})
            }
            Event::TreasureLost {
                player,
                treasure,
                league,
            } => {
                json!({"player": s(player), "treasure": tid(player, treasure), "league": lid(league)})
            }
            Event::SentBack { player, to } => json!({"player": s(player), "to": lid(to)}),
            Event::End { ended, winner } => json!({
                "ended": ended.as_str(),
                "winner": match winner {
                    Some(Winner::Player(p)) => Value::String(side_name(*p).into()),
                    Some(Winner::Draw) => Value::String("draw".into()),
                    None => Value::Null,
                }
            }),
        };
        crate::games::event_json(self.kind(), v, self.text(m))
    }
}

/// A failure effect in words.
pub fn failure_text(f: Failure) -> String {
    let types = |mask: u8| {
        if mask & 0b11111 == 0b11111 {
            return "merit of its choice".to_string();
        }
        let names: Vec<&str> = MeritType::ALL
            .iter()
            .filter(|t| mask & t.bit() != 0)
            .map(|t| t.as_str())
            .collect();
        names.join(" or ")
    };
    match f {
        Failure::Exhaust(t) => format!("exhaust one {}", types(t)),
        Failure::Discard(t) => format!("discard one {}", types(t)),
        Failure::SkipDay => "skip the next Day".into(),
        Failure::ReturnToBase => "go back to Base Camp".into(),
        Failure::LoseTreasure => "lose a treasure".into(),
        Failure::Nothing => "no effect".into(),
    }
}
