//! Shared helpers of the engine tests: characters from short specs, scripted matches.
#![allow(dead_code)]

use deckwright::cards::{self, Card};
use deckwright::games::iconica::ai::{Agent, PolicyKind, Table};
use deckwright::games::iconica::engine::*;
use deckwright::games::iconica::model::Character;

/// A test character: `start` health, six actions (effects TOML per roll number; kind melee
/// unless `kinds` says otherwise), extra `[health]` lines and extra tables.
#[derive(Clone)]
pub struct C {
    pub id: String,
    pub start: u32,
    pub health: String,
    pub actions: [String; 6],
    pub kinds: [&'static str; 6],
    pub action_break: Option<u8>,
    pub race: String,
    pub archetype: String,
    pub extra: String,
}

pub fn c(id: &str) -> C {
    C {
        id: id.to_string(),
        start: 100,
        health: String::new(),
        actions: std::array::from_fn(|_| r#"[ { damage = 10, target = "foe" } ]"#.to_string()),
        kinds: ["melee"; 6],
        action_break: None,
        race: "human".into(),
        archetype: "Mercenary".into(),
        extra: String::new(),
    }
}

impl C {
    pub fn start(mut self, s: u32) -> C {
        self.start = s;
        self
    }
    pub fn health(mut self, h: &str) -> C {
        self.health.push_str(h);
        self.health.push('\n');
        self
    }
    pub fn act(mut self, n: usize, fx: &str) -> C {
        self.actions[n - 1] = fx.to_string();
        self
    }
    pub fn all(mut self, fx: &str) -> C {
        for a in self.actions.iter_mut() {
            *a = fx.to_string();
        }
        self
    }
    pub fn kind(mut self, n: usize, k: &'static str) -> C {
        self.kinds[n - 1] = k;
        self
    }
    pub fn brk(mut self, n: u8) -> C {
        self.action_break = Some(n);
        self
    }
    pub fn race(mut self, r: &str) -> C {
        self.race = r.into();
        self
    }
    pub fn archetype(mut self, r: &str) -> C {
        self.archetype = r.into();
        self
    }
    pub fn extra(mut self, t: &str) -> C {
        self.extra.push_str(t);
        self.extra.push('\n');
        self
    }
    pub fn build(&self) -> Character {
        let mut t = format!(
            "game = \"iconica\"\nkind = \"character\"\nid = \"{}\"\nname = \"{}\"\nseries = \"T\"\nnumber = \"1\"\nfaction = \"independent\"\nrace = \"{}\"\narchetype = \"{}\"\nclass = \"offensive\"\ntype = \"common\"\n",
            self.id, self.id, self.race, self.archetype
        );
        if let Some(b) = self.action_break {
            t.push_str(&format!("action_break = {b}\n"));
        }
        t.push_str(&format!(
            "[health]\nstart = {}\n{}\n",
            self.start, self.health
        ));
        for (i, fx) in self.actions.iter().enumerate() {
            t.push_str(&format!(
                "[[actions]]\nroll = {}\nname = \"A{}\"\nkind = \"{}\"\ntext = \"t\"\neffects = {}\n",
                i + 1,
                i + 1,
                self.kinds[i],
                fx
            ));
        }
        t.push_str(&self.extra);
        match cards::parse_card(&t, "test.toml") {
            Ok(Card::Iconica(ch)) => ch,
            Ok(_) => panic!("not an iconica card"),
            Err(e) => panic!("bad test card: {e}\n{t}"),
        }
    }
}

/// The outcome of a scripted match.
pub struct Run {
    pub setup: Setup,
    pub st: State,
    pub log: Vec<Event>,
}

impl Run {
    pub fn slot(&self, id: &str) -> usize {
        (0..self.setup.chars.len())
            .position(|s| self.setup.id(s) == id)
            .expect("no such character")
    }
    pub fn hp(&self, id: &str) -> u16 {
        self.st.hp[self.slot(id)]
    }
    pub fn alive(&self, id: &str) -> bool {
        self.st.is_alive(self.slot(id))
    }
    pub fn statuses(&self, id: &str) -> Vec<&'static str> {
        self.st.statuses(self.slot(id)).map(|s| s.name()).collect()
    }
    pub fn texts(&self) -> Vec<String> {
        self.log.iter().map(|e| e.text(&self.setup)).collect()
    }
    pub fn has_text(&self, needle: &str) -> bool {
        self.texts().iter().any(|t| t.contains(needle))
    }
    pub fn ended(&self) -> Option<Ended> {
        self.st.ended.map(|e| e.0)
    }
    pub fn winner(&self) -> Option<Winner> {
        self.st.ended.and_then(|e| e.1)
    }
}

pub fn v2() -> Rules {
    Rules::default()
}

pub fn v8() -> Rules {
    Rules {
        ruleset: Ruleset::V8,
        ..Rules::default()
    }
}

/// Plays a match of `first` policies on scripted dice.
pub fn play(a: &[C], b: &[C], rules: Rules, dice: &str) -> Run {
    let a: Vec<Character> = a.iter().map(C::build).collect();
    let b: Vec<Character> = b.iter().map(C::build).collect();
    let setup = Setup::duel(&a, &b, rules).expect("setup");
    run_setup(setup, dice)
}

pub fn run_setup(setup: Setup, dice: &str) -> Run {
    let mut st = State::new(&setup);
    let mut log = Vec::new();
    let mut io = Table::new(
        ScriptDice::parse(dice).expect("dice"),
        Agent::new(PolicyKind::First, 1),
        Agent::new(PolicyKind::First, 2),
    );
    play_match(&setup, &mut st, &mut io, &mut log);
    Run { setup, st, log }
}
