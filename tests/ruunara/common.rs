//! Figures and scenarios built in code, and a driver that plays a scenario with a scripted
//! choice of options and scripted dice.

#![allow(dead_code)]

use deckwright::games::dice::ScriptDice;
use deckwright::games::game::{Game, Turn};
use deckwright::games::ruunara::engine::{Event, Opt, RuunaraGame, Setup};
use deckwright::games::ruunara::mission::{
    Deploy, Facing, Objective, Placed, PlacedNeutral, Scenario, Scenery, SceneryKind, TableSize,
};
use deckwright::games::ruunara::model::{Allegiance, Dice, Figure, FigureKind, Skill};

/// A figure card: `hp`, `movement`, `vision`, close dice.
pub fn fig(
    id: &str,
    faction: Allegiance,
    hp: u32,
    movement: u32,
    vision: u32,
    close: &str,
) -> Figure {
    Figure {
        game: "ruunara".into(),
        kind: FigureKind::Unit,
        id: id.into(),
        name: id.into(),
        race: if faction == Allegiance::Ally {
            "ardann".into()
        } else {
            "ghoul".into()
        },
        faction,
        hp,
        movement,
        vision,
        close: Dice::parse(close).unwrap(),
        ranged: None,
        ranged_range: None,
        skills: Vec::new(),
        base: None,
        art: None,
    }
}

pub fn hero(id: &str, hp: u32, close: &str) -> Figure {
    fig(id, Allegiance::Ally, hp, 5, 10, close)
}

pub fn enemy(id: &str, hp: u32, close: &str) -> Figure {
    fig(id, Allegiance::Enemy, hp, 5, 8, close)
}

/// The card with a ranged attack.
pub fn with_ranged(mut f: Figure, dice: &str, range: u32) -> Figure {
    f.ranged = Dice::parse(dice);
    f.ranged_range = Some(range);
    f
}

/// The card with one more skill (parsed from a TOML table, as a card writes it).
pub fn with_skill(mut f: Figure, toml_text: &str) -> Figure {
    let s: Skill = toml::from_str(toml_text).unwrap();
    f.skills.push(s);
    f
}

/// `caster` at (10, 18) facing east toward enemies of `hp` hit points at (18, 18) and
/// (19.5, 18), and a third at (`far_x`, 18): an area at a point on the first catches the
/// second and, far enough, not the third.
pub fn row_of_three(caster: Figure, hp: u32, far_x: f64) -> Scenario {
    scenario(
        vec![at(caster, 10.0, 18.0, Facing::E)],
        vec![
            at(enemy("a", hp, "1D6+"), 18.0, 18.0, Facing::E),
            at(enemy("b", hp, "1D6+"), 19.5, 18.0, Facing::E),
            at(enemy("c", hp, "1D6+"), far_x, 18.0, Facing::E),
        ],
        vec![],
        Objective::Eliminate,
    )
}

pub fn at(card: Figure, x: f64, y: f64, facing: Facing) -> Placed {
    Placed {
        card,
        deploy: Deploy::Point { x, y, facing },
    }
}

pub fn piece(x: f64, y: f64, w: f64, d: f64, height: f64, kind: SceneryKind) -> Scenery {
    Scenery {
        x,
        y,
        w,
        d,
        height,
        kind,
    }
}

pub fn scenario(
    heroes: Vec<Placed>,
    enemies: Vec<Placed>,
    scenery: Vec<Scenery>,
    objective: Objective,
) -> Scenario {
    Scenario {
        id: "test".into(),
        name: "Test".into(),
        table: TableSize::default(),
        scenery,
        heroes,
        enemies,
        neutrals: Vec::<PlacedNeutral>::new(),
        objective,
        round_limit: 20,
    }
}

pub fn setup(sc: &Scenario) -> Setup {
    Setup::new(sc).unwrap()
}

/// A match driven by hand: the game, its log, the dice script.
pub struct Drive<'s> {
    pub g: RuunaraGame<'s>,
    pub log: Vec<Event>,
    pub dice: ScriptDice,
}

impl<'s> Drive<'s> {
    pub fn new(s: &'s Setup, dice: &str) -> Drive<'s> {
        let mut log = Vec::new();
        let g = RuunaraGame::start(s, &mut log);
        Drive {
            g,
            log,
            dice: ScriptDice::parse(dice).unwrap(),
        }
    }

    /// Rolls scripted dice until a decision (or the end); panics if the script runs out.
    pub fn roll(&mut self) {
        while let Turn::Chance(c) = self.g.turn() {
            let o = c.draw(&mut self.dice).expect("the dice script ran out");
            self.g.apply_logged(o, &mut self.log);
        }
    }

    /// Takes the first option matching `pred` (panics with the options when none does).
    pub fn pick(&mut self, pred: impl Fn(&Opt) -> bool) {
        self.roll();
        let k = self.g.options().iter().position(&pred).unwrap_or_else(|| {
            panic!(
                "no such option among {:?} ({})",
                self.g.options(),
                self.g.question()
            )
        });
        self.g.apply_logged(k, &mut self.log);
        self.roll();
    }

    /// Whether an option matching `pred` is offered.
    pub fn offered(&self, pred: impl Fn(&Opt) -> bool) -> bool {
        self.g.options().iter().any(pred)
    }

    /// Does nothing (no skill, stays, no attack) until a heroes' decision of round `r` or
    /// later, or the end.
    pub fn idle_until(&mut self, r: u32) {
        loop {
            self.roll();
            if !matches!(self.g.turn(), Turn::Seat { .. }) {
                return;
            }
            if self.round() >= r {
                return;
            }
            let o = self.g.options().to_vec();
            let k = o.iter().position(|x| *x == Opt::Done).unwrap_or(0);
            self.g.apply_logged(k, &mut self.log);
        }
    }

    /// The round now.
    pub fn round(&self) -> u32 {
        self.g.st.round
    }

    /// The log's texts (for failure messages).
    pub fn text(&self) -> String {
        self.log
            .iter()
            .map(|e| self.g.event_text(e))
            .collect::<Vec<_>>()
            .join("\n")
    }
}

/// An eliminate mission of the bundled example's shape: three heroes in the west, five
/// enemies at their posts in the east among walls, rocks and a building.
pub fn sample_mission() -> Scenario {
    let archer = with_ranged(hero("archer", 6, "2D4+"), "2D4+", 10);
    let slinger = with_ranged(enemy("slinger", 4, "1D4+"), "2D4+", 10);
    scenario(
        vec![
            at(hero("haskar", 10, "4D4+"), 4.0, 14.0, Facing::E),
            at(hero("yrsa", 8, "3D4+"), 4.0, 18.0, Facing::E),
            at(archer, 4.0, 22.0, Facing::E),
        ],
        vec![
            at(enemy("ghoul-a", 4, "2D4+"), 30.0, 12.0, Facing::W),
            at(enemy("ghoul-b", 4, "2D4+"), 32.0, 20.0, Facing::W),
            at(slinger, 40.0, 16.0, Facing::W),
            at(enemy("wraith", 5, "2D3+"), 36.0, 28.0, Facing::S),
            at(enemy("ghoul-c", 4, "2D4+"), 42.0, 8.0, Facing::N),
        ],
        vec![
            piece(14.0, 10.0, 1.0, 6.0, 3.0, SceneryKind::Wall),
            piece(20.0, 20.0, 3.0, 3.0, 1.5, SceneryKind::Rock),
            piece(34.0, 14.0, 4.0, 4.0, 4.0, SceneryKind::Building),
            piece(24.0, 4.0, 6.0, 2.0, 0.5, SceneryKind::Rock),
        ],
        Objective::Eliminate,
    )
}

/// An example mission of `examples/ruunara/` resolved against an example squad, on the
/// bundled cards.
pub fn example(mission: &str, squad: &str) -> Scenario {
    use deckwright::games::ruunara::mission::MissionFile;
    use deckwright::games::ruunara::squad::SquadFile;
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/ruunara/");
    let cards = deckwright::catalogue::bundled_cards().unwrap();
    let m = MissionFile::parse(
        &std::fs::read_to_string(format!("{dir}{mission}")).unwrap(),
        mission,
    )
    .unwrap();
    let sq = SquadFile::parse(
        &std::fs::read_to_string(format!("{dir}{squad}")).unwrap(),
        squad,
    )
    .unwrap();
    let members = deckwright::games::ruunara::rules::check_squad(&sq, &cards).members;
    m.resolve(&members, &cards).unwrap()
}
