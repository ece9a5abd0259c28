//! Shared fixtures of the Arcadia engine tests: small test cards, a 5 x 2 league grid, a
//! scripted decider (options named, not numbered) and a runner over scripted dice.
#![allow(dead_code)]

use deckwright::cards::{parse_card, Card};
use deckwright::games::arcadia::character::CharacterFile;
use deckwright::games::arcadia::engine::{play_match, Decide, Event, Match, Opt, Opts, ScriptDice, State};
use deckwright::games::arcadia::model::Court;
use deckwright::games::arcadia::setup::{LaidLeague, Pos, SetupFile, SetupPlayer};

const CARDS: &[&str] = &[
    r#"game = "arcadia"
kind = "icon"
id = "t-icon"
name = "Test Icon"
text = ""
race = "test"
gender = "any"
might = 3
savvy = 2
resolve = 1
ability = ""
"#,
    r#"game = "arcadia"
kind = "icon"
id = "t-icon-b"
name = "Other Icon"
text = ""
race = "test"
gender = "any"
might = 2
savvy = 2
resolve = 2
ability = ""
"#,
    r#"game = "arcadia"
kind = "merit"
id = "t-plain"
name = "Plain Advantage"
text = ""
merit_type = "advantage"
cost = 1
"#,
    r#"game = "arcadia"
kind = "merit"
id = "t-plain-2"
name = "Second Advantage"
text = ""
merit_type = "advantage"
cost = 1
"#,
    r#"game = "arcadia"
kind = "merit"
id = "t-art"
name = "Plain Art"
text = ""
merit_type = "art"
cost = 1
"#,
    r#"game = "arcadia"
kind = "merit"
id = "t-bonus"
name = "Might Bonus"
text = ""
merit_type = "advantage"
cost = 1
effects = [ { bonus = 2, test = "might", exhaust = true } ]
"#,
    r#"game = "arcadia"
kind = "merit"
id = "t-steady"
name = "Steady Might"
text = ""
merit_type = "advantage"
cost = 1
effects = [ { bonus = 1, test = "might" } ]
"#,
    r#"game = "arcadia"
kind = "merit"
id = "t-retest"
name = "Retest Charm"
text = ""
merit_type = "advantage"
cost = 1
effects = [ { retest = true, exhaust = true } ]
"#,
    r#"game = "arcadia"
kind = "merit"
id = "t-change"
name = "Change Charm"
text = ""
merit_type = "advantage"
cost = 1
effects = [ { change_test = true, exhaust = true } ]
"#,
    r#"game = "arcadia"
kind = "merit"
id = "t-ally"
name = "Big Ally"
text = ""
merit_type = "ally"
cost = 1
combat = 7
"#,
    r#"game = "arcadia"
kind = "merit"
id = "t-treasure"
name = "Test Treasure"
text = ""
merit_type = "treasure"
cost = 1
"#,
    r#"game = "arcadia"
kind = "flaw"
id = "t-flaw"
name = "Might Flaw"
text = ""
flaw_type = "curse"
points = 1
effects = [ { penalty = 2, test = "might" } ]
"#,
    r#"game = "arcadia"
kind = "waylay"
id = "t-w-forest"
name = "Forest Waylay"
text = ""
rating = 1
terrain = ["forest"]
tests = ["might"]
might = 3
combat = 8
savvy = 1
"#,
    r#"game = "arcadia"
kind = "waylay"
id = "t-w-high"
name = "High Waylay"
text = ""
rating = 2
terrain = ["forest"]
tests = ["might"]
might = 3
"#,
    r#"game = "arcadia"
kind = "waylay"
id = "t-w-combat"
name = "Combat Waylay"
text = ""
rating = 1
terrain = ["forest"]
tests = ["combat"]
combat = 1
might = 9
"#,
    r#"game = "arcadia"
kind = "waylay"
id = "t-w-trial"
name = "Trial Waylay"
text = ""
rating = 1
terrain = ["forest"]
tests = ["might"]
might = 3
trial = { attribute = "might", difficulty = 6 }
"#,
    r#"game = "arcadia"
kind = "waylay"
id = "t-w-city"
name = "City Waylay"
text = ""
rating = 1
terrain = ["city"]
tests = ["might"]
might = 3
"#,
    r#"game = "arcadia"
kind = "waylay"
id = "t-w-any"
name = "Anywhere Waylay"
text = ""
rating = 1
terrain = ["any"]
tests = ["might"]
might = 3
"#,
    r#"game = "arcadia"
kind = "league"
id = "t-l"
name = "Plain Wood"
text = ""
terrain = ["forest"]
sides = { north = ["forest"], east = ["forest"], south = ["forest"], west = ["forest"] }
rest = ["art"]
"#,
    r#"game = "arcadia"
kind = "league"
id = "t-l-city"
name = "Test City"
text = ""
terrain = ["city"]
sides = { north = ["forest"], east = ["forest"], south = ["forest"], west = ["forest"] }
rest = []
"#,
    r#"game = "arcadia"
kind = "league"
id = "t-l-steep"
name = "Steep Wood"
text = ""
terrain = ["forest"]
sides = { north = ["forest"], east = ["forest"], south = ["forest"], west = ["forest"] }
leave = { attribute = "might", difficulty = 6 }
rest = []
"#,
    r#"game = "arcadia"
kind = "league"
id = "t-l-gate"
name = "Gated Wood"
text = ""
terrain = ["forest"]
sides = { north = ["forest"], east = ["forest"], south = ["forest"], west = ["forest"] }
enter = { attribute = "savvy", difficulty = 6 }
rest = []
"#,
    r#"game = "arcadia"
kind = "league"
id = "t-l-goal"
name = "Goal Wood"
text = ""
terrain = ["forest", "goal"]
sides = { north = ["forest"], east = ["forest"], south = ["forest"], west = ["forest"] }
rest = ["flaw"]
"#,
    r#"game = "arcadia"
kind = "quest"
id = "t-q-never"
name = "Endless Quest"
text = ""
waylay_rating = 20
treasure_rating = 5
experience = 2
objective = { reach = "nowhere" }
"#,
    r#"game = "arcadia"
kind = "quest"
id = "t-q-goal"
name = "Reach the Goal"
text = ""
waylay_rating = 20
treasure_rating = 5
experience = 2
objective = { reach = "t-l-goal" }
"#,
    r#"game = "arcadia"
kind = "quest"
id = "t-q-home"
name = "There and Back"
text = ""
waylay_rating = 20
treasure_rating = 5
experience = 2
objective = { all = [ { reach_terrain = "goal" }, { return_to_base = true } ] }
"#,
];

/// The test cards.
pub fn cards() -> Vec<Card> {
    CARDS.iter().enumerate().map(|(i, t)| parse_card(t, &format!("card{i}.toml")).unwrap()).collect()
}

/// One player of a scenario.
#[derive(Clone, Default)]
pub struct Who {
    pub icon: &'static str,
    pub merits: Vec<&'static str>,
    pub flaws: Vec<&'static str>,
    pub quests: Vec<&'static str>,
    pub waylays: Vec<&'static str>,
    pub treasures: Vec<&'static str>,
    pub base: (i32, i32),
}

impl Who {
    pub fn new(base: (i32, i32)) -> Who {
        Who { icon: "t-icon", quests: vec!["t-q-never"], base, ..Who::default() }
    }
    pub fn merits(mut self, m: &[&'static str]) -> Who {
        self.merits = m.to_vec();
        self
    }
    pub fn flaws(mut self, f: &[&'static str]) -> Who {
        self.flaws = f.to_vec();
        self
    }
    pub fn waylays(mut self, w: &[&'static str]) -> Who {
        self.waylays = w.to_vec();
        self
    }
    pub fn quests(mut self, q: &[&'static str]) -> Who {
        self.quests = q.to_vec();
        self
    }
    pub fn treasures(mut self, t: &[&'static str]) -> Who {
        self.treasures = t.to_vec();
        self
    }
    pub fn icon(mut self, i: &'static str) -> Who {
        self.icon = i;
        self
    }
}

/// A match on a 5 x 2 grid: `grid[y][x]` league ids (x 0..4, y 0..1), laid row by row with
/// alternating owners.
pub fn game(grid: [[&str; 5]; 2], a: Who, b: Who) -> Match {
    game_limit(grid, a, b, 200)
}

pub fn game_limit(grid: [[&str; 5]; 2], a: Who, b: Who, turn_limit: u32) -> Match {
    let mut leagues = Vec::new();
    for (y, row) in grid.iter().enumerate() {
        for (x, id) in row.iter().enumerate() {
            leagues.push(LaidLeague { id: id.to_string(), owner: 1 + (leagues.len() % 2) as u8, x: x as i32, y: y as i32 });
        }
    }
    let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
    let player = |w: &Who, i: usize| SetupPlayer {
        character: format!("p{i}.character.toml"),
        quests: s(&w.quests),
        waylays: s(&w.waylays),
        treasures: s(&w.treasures),
        base_camp: Some(Pos { x: w.base.0, y: w.base.1 }),
    };
    let setup = SetupFile { game: "arcadia".into(), name: String::new(), players: vec![player(&a, 1), player(&b, 2)], leagues };
    let character = |w: &Who, name: &str| CharacterFile {
        game: "arcadia".into(),
        name: name.into(),
        icon: Some(w.icon.into()),
        merits: s(&w.merits),
        flaws: s(&w.flaws),
        court: Some(Court::Seelie),
        xp_earned: 0,
        flaws_bought_off: Vec::new(),
    };
    Match::new(&setup, &[character(&a, "Ann"), character(&b, "Bob")], &cards(), turn_limit).unwrap()
}

/// All plain woods.
pub const WOODS: [[&str; 5]; 2] = [["t-l"; 5], ["t-l"; 5]];

/// Decides by naming options: each decision takes the next option of the queue, which must
/// be offered; with the queue empty, the first option.
pub struct Script {
    pub queue: std::collections::VecDeque<Opt>,
    /// Every decision put: who decided and the options offered.
    pub seen: Vec<(u8, Vec<Opt>)>,
}

impl Decide for Script {
    fn decide(&mut self, m: &Match, st: &State, player: u8, _n: usize) -> usize {
        let mut o = Opts::default();
        st.options(m, &mut o);
        self.seen.push((player, o.as_slice().to_vec()));
        match self.queue.pop_front() {
            Some(want) => o.as_slice().iter().position(|x| *x == want).unwrap_or_else(|| {
                panic!("option {want:?} not offered to player {player}; offered {:?}", o.as_slice())
            }),
            None => 0,
        }
    }
}

/// A run's end: the final state, the log, and every decision put (who, options).
pub type Ran = (State, Vec<Event>, Vec<(u8, Vec<Opt>)>);

/// Plays `m` with scripted dice and named decisions until the dice run out or the match ends.
pub fn run(m: &Match, dice: &str, choices: &[Opt]) -> Ran {
    run_from(m, State::new(m), dice, choices)
}

/// [`run`] from a given starting state (e.g. with merits already exhausted).
pub fn run_from(m: &Match, mut st: State, dice: &str, choices: &[Opt]) -> Ran {
    let mut log = Vec::new();
    let mut script = Script { queue: choices.iter().copied().collect(), seen: Vec::new() };
    play_match(m, &mut st, &mut ScriptDice::parse(dice).unwrap(), &mut script, &mut log);
    assert!(script.queue.is_empty(), "choices left unused: {:?}", script.queue);
    st.check(m).unwrap();
    (st, log, script.seen)
}

/// The events of one kind.
pub fn of_kind<'a>(log: &'a [Event], kind: &str) -> Vec<&'a Event> {
    log.iter().filter(|e| e.kind() == kind).collect()
}
