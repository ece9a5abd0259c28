//! Shared fixtures of the Arcadia engine tests: small test cards, a 5 x 2 league grid, a
//! scripted decider (options named, not numbered) and a runner over scripted dice.
#![allow(dead_code)]

use deckwright::cards::{Card, parse_card};
use deckwright::games::arcadia::character::CharacterFile;
use deckwright::games::arcadia::engine::{ArcadiaGame, Event, Match, Opt, Opts, ScriptDice, State};
use deckwright::games::arcadia::model::Court;
use deckwright::games::arcadia::setup::{LaidLeague, Pos, SetupFile, SetupPlayer};
use deckwright::games::game::{Game, Turn};

/// The sides of every test league: forest all round.
const SIDES: &str =
    r#"sides = { north = ["forest"], east = ["forest"], south = ["forest"], west = ["forest"] }"#;

/// A test card's TOML: the keys every Arcadia card has, then `body` (its own keys, one a line).
fn card(kind: &str, id: &str, name: &str, body: &str) -> String {
    format!(
        "game = \"arcadia\"\nkind = \"{kind}\"\nid = \"{id}\"\nname = \"{name}\"\ntext = \"\"\n{body}\n"
    )
}

fn icon(id: &str, name: &str, might: i32, savvy: i32, resolve: i32) -> String {
    let body = format!(
        "race = \"test\"\ngender = \"any\"\nmight = {might}\nsavvy = {savvy}\nresolve = {resolve}\nability = \"\""
    );
    card("icon", id, name, &body)
}

/// A merit of cost 1; `extra`: more keys (effects, combat) or nothing.
fn merit(id: &str, name: &str, merit_type: &str, extra: &str) -> String {
    card(
        "merit",
        id,
        name,
        &format!("merit_type = \"{merit_type}\"\ncost = 1\n{extra}"),
    )
}

/// A waylay of one terrain and one test; `stats`: its attributes.
fn waylay(id: &str, name: &str, rating: i32, terrain: &str, test: &str, stats: &str) -> String {
    card(
        "waylay",
        id,
        name,
        &format!("rating = {rating}\nterrain = [\"{terrain}\"]\ntests = [\"{test}\"]\n{stats}"),
    )
}

/// A league with forest on every side; `terrain`: the items of its terrain list.
fn league(id: &str, name: &str, terrain: &str, extra: &str) -> String {
    card(
        "league",
        id,
        name,
        &format!("terrain = [{terrain}]\n{SIDES}\n{extra}"),
    )
}

/// A forest waylay (Might 3) with a Might 6 trial whose failure `effect` is given ("" for none).
fn trial_waylay(id: &str, effect: &str) -> String {
    let effect = if effect.is_empty() {
        String::new()
    } else {
        format!(", effect = {effect}")
    };
    waylay(
        id,
        id,
        1,
        "forest",
        "might",
        &format!("might = 3\ntrial = {{ attribute = \"might\", difficulty = 6{effect} }}"),
    )
}

fn quest(id: &str, name: &str, objective: &str) -> String {
    card(
        "quest",
        id,
        name,
        &format!(
            "waylay_rating = 20\ntreasure_rating = 5\nexperience = 2\nobjective = {objective}"
        ),
    )
}

/// The test cards.
pub fn cards() -> Vec<Card> {
    let texts = [
        icon("t-icon", "Test Icon", 3, 2, 1),
        icon("t-icon-b", "Other Icon", 2, 2, 2),
        merit("t-plain", "Plain Advantage", "advantage", ""),
        merit("t-plain-2", "Second Advantage", "advantage", ""),
        merit("t-art", "Plain Art", "art", ""),
        merit(
            "t-bonus",
            "Might Bonus",
            "advantage",
            r#"effects = [ { bonus = 2, test = "might", exhaust = true } ]"#,
        ),
        merit(
            "t-steady",
            "Steady Might",
            "advantage",
            r#"effects = [ { bonus = 1, test = "might" } ]"#,
        ),
        merit(
            "t-retest",
            "Retest Charm",
            "advantage",
            "effects = [ { retest = true, exhaust = true } ]",
        ),
        merit(
            "t-change",
            "Change Charm",
            "advantage",
            "effects = [ { change_test = true, exhaust = true } ]",
        ),
        merit("t-ally", "Big Ally", "ally", "combat = 7"),
        merit("t-treasure", "Test Treasure", "treasure", ""),
        card(
            "flaw",
            "t-flaw",
            "Might Flaw",
            "flaw_type = \"curse\"\npoints = 1\neffects = [ { penalty = 2, test = \"might\" } ]",
        ),
        waylay(
            "t-w-forest",
            "Forest Waylay",
            1,
            "forest",
            "might",
            "might = 3\ncombat = 8\nsavvy = 1",
        ),
        waylay("t-w-high", "High Waylay", 2, "forest", "might", "might = 3"),
        waylay(
            "t-w-combat",
            "Combat Waylay",
            1,
            "forest",
            "combat",
            "combat = 1\nmight = 9",
        ),
        waylay(
            "t-w-trial",
            "Trial Waylay",
            1,
            "forest",
            "might",
            "might = 3\ntrial = { attribute = \"might\", difficulty = 6, effect = { exhaust = [] } }",
        ),
        waylay("t-w-city", "City Waylay", 1, "city", "might", "might = 3"),
        waylay("t-w-any", "Anywhere Waylay", 1, "any", "might", "might = 3"),
        // Lists Savvy but has no Savvy value: that test can never be used.
        card(
            "waylay",
            "t-w-listed",
            "Listed Waylay",
            "rating = 1\nterrain = [\"forest\"]\ntests = [\"savvy\", \"might\"]\nmight = 3",
        ),
        league("t-l", "Plain Wood", r#""forest""#, r#"rest = ["art"]"#),
        league("t-l-city", "Test City", r#""city""#, "rest = []"),
        league(
            "t-l-steep",
            "Steep Wood",
            r#""forest""#,
            "leave = { attribute = \"might\", difficulty = 6 }\nrest = []",
        ),
        league(
            "t-l-gate",
            "Gated Wood",
            r#""forest""#,
            "enter = { attribute = \"savvy\", difficulty = 6 }\nrest = []",
        ),
        league(
            "t-l-goal",
            "Goal Wood",
            r#""forest", "goal""#,
            r#"rest = ["flaw"]"#,
        ),
        quest("t-q-never", "Endless Quest", r#"{ reach = "nowhere" }"#),
        quest("t-q-goal", "Reach the Goal", r#"{ reach = "t-l-goal" }"#),
        quest(
            "t-q-home",
            "There and Back",
            r#"{ all = [ { reach_terrain = "goal" }, { return_to_base = true } ] }"#,
        ),
        // Card text as data (issue 14).
        merit(
            "t-art-retest",
            "Retest Art",
            "art",
            "effects = [ { retest = true, exhaust = true } ]",
        ),
        merit(
            "t-art-steady",
            "Steady Art",
            "art",
            r#"effects = [ { bonus = 1, test = "might" } ]"#,
        ),
        merit("t-ally-2", "Small Ally", "ally", "combat = 1"),
        merit(
            "t-river-bonus",
            "River Bonus",
            "advantage",
            r#"effects = [ { bonus = 2, test = "might", terrain = "river" } ]"#,
        ),
        card(
            "flaw",
            "t-flaw-river",
            "River Flaw",
            "flaw_type = \"curse\"\npoints = 1\neffects = [ { penalty = 2, test = \"might\", terrain = \"river\" } ]",
        ),
        trial_waylay("t-w-ex-art", r#"{ exhaust = ["art"] }"#),
        trial_waylay("t-w-discard", r#"{ discard = ["advantage"] }"#),
        trial_waylay("t-w-skip", "{ skip_day = true }"),
        trial_waylay("t-w-home", "{ return_to_base = true }"),
        trial_waylay("t-w-lose-t", "{ lose_treasure = true }"),
        trial_waylay("t-w-none", "{ none = true }"),
        trial_waylay("t-w-silent", ""),
        league(
            "t-l-noart",
            "Artless Wood",
            r#""forest""#,
            "rest = []\neffects = [ { forbid_merits = [\"art\"] } ]",
        ),
        league(
            "t-l-norate",
            "Calm Wood",
            r#""forest""#,
            "rest = []\neffects = [ { forbid_ratings = [1] } ]",
        ),
        league(
            "t-l-mod",
            "Heavy Wood",
            r#""forest""#,
            "rest = []\neffects = [ { modify = -2, test = \"might\" } ]",
        ),
        league(
            "t-l-stay",
            "Restless Wood",
            r#""forest""#,
            "rest = []\neffects = [ { trial = { attribute = \"resolve\", difficulty = 5 }, on = \"stay\" } ]",
        ),
        league(
            "t-l-stay-twice",
            "Twice Restless Wood",
            r#""forest""#,
            "rest = []\neffects = [ { trial = { attribute = \"resolve\", difficulty = 5 }, on = \"stay\" }, { trial = { attribute = \"resolve\", difficulty = 2 }, on = \"stay\" } ]",
        ),
        league(
            "t-l-resttrial",
            "Wakeful Wood",
            r#""forest""#,
            "rest = [\"art\", \"advantage\"]\neffects = [ { trial = { attribute = \"resolve\", difficulty = 5 }, on = \"rest\" } ]",
        ),
        league(
            "t-l-restextra",
            "Kind Wood",
            r#""forest""#,
            "rest = []\neffects = [ { rest_extra = 1, types = [\"ally\"] } ]",
        ),
        league(
            "t-l-wild",
            "Wild Wood",
            r#""forest", "river", "fields", "mountains", "swamp""#,
            "rest = []",
        ),
        quest(
            "t-q-then",
            "One Then Goal",
            r#"{ then = [ { collect_treasures = 1 }, { reach_terrain = "goal" } ] }"#,
        ),
        quest(
            "t-q-then-nested",
            "One Then (Goal)",
            r#"{ then = [ { collect_treasures = 1 }, { then = [ { reach_terrain = "goal" } ] } ] }"#,
        ),
        quest(
            "t-q-then-inside",
            "(One)",
            r#"{ then = [ { then = [ { collect_treasures = 1 } ] } ] }"#,
        ),
        card(
            "quest",
            "t-q-timed",
            "Goal in Two Days",
            "waylay_rating = 20\ntreasure_rating = 5\nexperience = 2\ntime_limit = 2\nobjective = { reach_terrain = \"goal\" }",
        ),
        quest(
            "t-q-carry",
            "Carry One to the Goal",
            r#"{ all = [ { hold_treasures = 1 }, { in_terrain = "goal" } ] }"#,
        ),
        league(
            "t-l-lookout",
            "Lookout Wood",
            r#""forest""#,
            "rest = []\neffects = [ { look_at_treasures = 1 } ]",
        ),
    ];
    let mut out: Vec<Card> = texts
        .iter()
        .enumerate()
        .map(|(i, t)| parse_card(t, &format!("card{i}.toml")).unwrap())
        .collect();
    // The bundled Arcadia cards, for scenarios of the cards' own texts.
    for (file, text) in deckwright::cards::bundled() {
        if file.contains("arcadia") && file.ends_with(".toml") {
            out.push(parse_card(text, &file).unwrap());
        }
    }
    out
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
        Who {
            icon: "t-icon",
            quests: vec!["t-q-never"],
            base,
            ..Who::default()
        }
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
            leagues.push(LaidLeague {
                id: id.to_string(),
                owner: 1 + (leagues.len() % 2) as u8,
                x: x as i32,
                y: y as i32,
            });
        }
    }
    let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
    let player = |w: &Who, i: usize| SetupPlayer {
        character: format!("p{i}.character.toml"),
        quests: s(&w.quests),
        waylays: s(&w.waylays),
        treasures: s(&w.treasures),
        base_camp: Some(Pos {
            x: w.base.0,
            y: w.base.1,
        }),
        leagues: Vec::new(),
    };
    let setup = SetupFile {
        game: "arcadia".into(),
        name: String::new(),
        players: vec![player(&a, 1), player(&b, 2)],
        leagues,
    };
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
    Match::new(
        &setup,
        &[character(&a, "Ann"), character(&b, "Bob")],
        &cards(),
        turn_limit,
    )
    .unwrap()
}

/// A match whose players bring their leagues (`la`, `lb`) to lay in play; no Base Camps.
pub fn brought(a: Who, b: Who, la: &[&str], lb: &[&str], turn_limit: u32) -> Match {
    let (setup, characters) = brought_setup(a, b, la, lb);
    Match::new(&setup, &characters, &cards(), turn_limit).unwrap()
}

/// The setup file and characters of [`brought`].
pub fn brought_setup(a: Who, b: Who, la: &[&str], lb: &[&str]) -> (SetupFile, Vec<CharacterFile>) {
    let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
    let player = |w: &Who, i: usize, leagues: &[&str]| SetupPlayer {
        character: format!("p{i}.character.toml"),
        quests: s(&w.quests),
        waylays: s(&w.waylays),
        treasures: s(&w.treasures),
        base_camp: None,
        leagues: s(leagues),
    };
    let setup = SetupFile {
        game: "arcadia".into(),
        name: String::new(),
        players: vec![player(&a, 1, la), player(&b, 2, lb)],
        leagues: Vec::new(),
    };
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
    (setup, vec![character(&a, "Ann"), character(&b, "Bob")])
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

impl Script {
    /// The index of the next option of the queue among `player`'s options at `st`.
    pub fn decide(&mut self, m: &Match, st: &State, player: u8) -> usize {
        let mut o = Opts::default();
        st.options(m, &mut o);
        self.seen.push((player, o.as_slice().to_vec()));
        match self.queue.pop_front() {
            Some(want) => o
                .as_slice()
                .iter()
                .position(|x| *x == want)
                .unwrap_or_else(|| {
                    panic!(
                        "option {want:?} not offered to player {player}; offered {:?}",
                        o.as_slice()
                    )
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
pub fn run_from(m: &Match, st: State, dice: &str, choices: &[Opt]) -> Ran {
    run_arranged(m, st, dice, choices, |_, _| {})
}

/// [`run_from`], with `arrange` given the state (to change it) and the option named before
/// each named decision is taken: a scenario that needs a position play does not reach.
pub fn run_arranged(
    m: &Match,
    st: State,
    dice: &str,
    choices: &[Opt],
    mut arrange: impl FnMut(&mut State, Opt),
) -> Ran {
    let mut log = Vec::new();
    let mut script = Script {
        queue: choices.iter().copied().collect(),
        seen: Vec::new(),
    };
    // Through the game interface: what holds at the start is settled first, as a match
    // begins; the dice script's faces are the chance inputs.
    let mut g = ArcadiaGame::from_state(m, st, &mut log);
    let mut dice = ScriptDice::parse(dice).unwrap();
    loop {
        match g.turn() {
            Turn::Over => break,
            Turn::Chance(c) => match c.draw(&mut dice) {
                Some(face) => g.apply_logged(face, &mut log),
                None => {
                    g.exhausted(&mut log);
                    break;
                }
            },
            Turn::Seat { seat, options } => {
                if let Some(&next) = script.queue.front() {
                    arrange(&mut g.st, next);
                }
                let a = script.decide(m, &g.st, seat as u8);
                assert!(a < options);
                g.apply_logged(a, &mut log);
            }
        }
    }
    let st = g.st;
    assert!(
        script.queue.is_empty(),
        "choices left unused: {:?}",
        script.queue
    );
    st.check(m).unwrap();
    (st, log, script.seen)
}

/// The events of one kind.
pub fn of_kind<'a>(log: &'a [Event], kind: &str) -> Vec<&'a Event> {
    log.iter().filter(|e| e.kind() == kind).collect()
}
