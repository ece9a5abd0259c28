//! Arcadia card formats (`spec/arcadia.md`): icons, merits, flaws, waylays, leagues, quests.

use serde::{Deserialize, Deserializer, Serialize};

use crate::cards::Problem;

/// Any Arcadia card, by its `kind`.
#[derive(Debug, Clone, PartialEq)]
pub enum ArcadiaCard {
    Icon(Icon),
    Merit(Merit),
    Flaw(Flaw),
    Waylay(Waylay),
    League(League),
    Quest(Quest),
}

pub const KINDS: [&str; 6] = ["icon", "merit", "flaw", "waylay", "league", "quest"];

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Attribute {
    Might,
    Savvy,
    Resolve,
}

impl Attribute {
    pub const ALL: [Attribute; 3] = [Attribute::Might, Attribute::Savvy, Attribute::Resolve];
}

/// What a test, trial or bonus is about: an attribute or combat.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TestKind {
    Might,
    Savvy,
    Resolve,
    Combat,
}

impl TestKind {
    /// In the order the format lists them for waylays.
    pub const ALL: [TestKind; 4] = [
        TestKind::Might,
        TestKind::Resolve,
        TestKind::Savvy,
        TestKind::Combat,
    ];
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Court {
    Seelie,
    Unseelie,
}

impl Court {
    pub const ALL: [Court; 2] = [Court::Seelie, Court::Unseelie];
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum MeritType {
    Ability,
    Advantage,
    Ally,
    Art,
    Treasure,
}

impl MeritType {
    pub const ALL: [MeritType; 5] = [
        MeritType::Ability,
        MeritType::Advantage,
        MeritType::Ally,
        MeritType::Art,
        MeritType::Treasure,
    ];

    /// The type's name as card files write it (`merit_type`, league `rest` lists).
    pub fn as_str(self) -> &'static str {
        match self {
            MeritType::Ability => "ability",
            MeritType::Advantage => "advantage",
            MeritType::Ally => "ally",
            MeritType::Art => "art",
            MeritType::Treasure => "treasure",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum FlawType {
    Curse,
    Enemy,
    Weakness,
}

impl FlawType {
    pub const ALL: [FlawType; 3] = [FlawType::Curse, FlawType::Enemy, FlawType::Weakness];
}

/// What a league's `rest` may list: the merit types, then `flaw`.
pub const REST_TYPES: [&str; 6] = ["ability", "advantage", "ally", "art", "treasure", "flaw"];

/// A merit or flaw effect the engine understands. One table, the keys in use say which form:
/// `{bonus, test, exhaust?}`, `{retest, exhaust}`, `{change_test, exhaust}`, `{penalty, test}`.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Effect {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bonus: Option<i32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub penalty: Option<i32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub test: Option<TestKind>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub retest: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub change_test: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exhaust: Option<bool>,
    /// With `retest`: only a test just lost may be retested (not a Stalemate).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lost_only: Option<bool>,
    /// A condition: the effect counts only while the character stands in a league whose
    /// terrain has this feature (a flaw "while you are in a league with a river").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub terrain: Option<String>,
}

/// A merit, flaw or icon effect read as the forms its table holds, tagged by the key that
/// says each (as Iconica's effects are tagged by their first key and [`LeagueForm`] tags
/// league effects). The engine reads effects only through these, so a new form is a new
/// variant every reader (engine, text templates, the Form view) handles. A table holds one
/// form as the card format writes it; a table that holds more (a bonus and a retest) is read
/// as each of them, as it always was.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EffectForm {
    /// `{ bonus = N, test = T }`: +N to every test of kind T (standing); with
    /// `exhaust = true`, +N to one test of kind T for exhausting the card.
    Bonus {
        by: i32,
        test: TestKind,
        exhaust: bool,
    },
    /// `{ penalty = N, test = T }`: the opponent may exhaust this flaw for -N to one test of
    /// kind T.
    Penalty { by: i32, test: TestKind },
    /// `{ retest = true, exhaust = true }`: exhaust to retest a test; `lost_only = true`:
    /// only a test just lost (not a Stalemate).
    Retest { lost_only: bool },
    /// `{ change_test = true, exhaust = true }`: exhaust to face a waylay with a test it does
    /// not list but has a value for.
    ChangeTest,
}

impl EffectForm {
    /// The form's tag: the key that says it.
    pub fn key(&self) -> &'static str {
        match self {
            EffectForm::Bonus { .. } => "bonus",
            EffectForm::Penalty { .. } => "penalty",
            EffectForm::Retest { .. } => "retest",
            EffectForm::ChangeTest => "change_test",
        }
    }

    /// Is the card exhausted to use it (by its holder, or for a penalty by the opponent)?
    pub fn exhausts(&self) -> bool {
        match self {
            EffectForm::Bonus { exhaust, .. } => *exhaust,
            EffectForm::Penalty { .. } | EffectForm::Retest { .. } | EffectForm::ChangeTest => true,
        }
    }

    /// The table of exactly this form with the condition `terrain`, as a card file writes it.
    pub fn table(&self, terrain: Option<&str>) -> Effect {
        let mut e = Effect {
            terrain: terrain.map(str::to_string),
            ..Effect::default()
        };
        match *self {
            EffectForm::Bonus { by, test, exhaust } => {
                e.bonus = Some(by);
                e.test = Some(test);
                e.exhaust = exhaust.then_some(true);
            }
            EffectForm::Penalty { by, test } => {
                e.penalty = Some(by);
                e.test = Some(test);
            }
            EffectForm::Retest { lost_only } => {
                e.retest = Some(true);
                e.exhaust = Some(true);
                e.lost_only = lost_only.then_some(true);
            }
            EffectForm::ChangeTest => {
                e.change_test = Some(true);
                e.exhaust = Some(true);
            }
        }
        e
    }
}

impl Effect {
    /// The forms this table holds, in the order bonus, penalty, retest, change of test (a
    /// bonus or a penalty without a `test` is no form: it applies to no test).
    pub fn forms(&self) -> impl Iterator<Item = EffectForm> + use<> {
        let test = self.test;
        let bonus = self.bonus.zip(test).map(|(by, test)| EffectForm::Bonus {
            by,
            test,
            exhaust: self.exhaust == Some(true),
        });
        let penalty = self
            .penalty
            .zip(test)
            .map(|(by, test)| EffectForm::Penalty { by, test });
        let retest = (self.retest == Some(true)).then_some(EffectForm::Retest {
            lost_only: self.lost_only == Some(true),
        });
        let change = (self.change_test == Some(true)).then_some(EffectForm::ChangeTest);
        [bonus, penalty, retest, change].into_iter().flatten()
    }

    /// The condition on the table: the terrain feature of the league the character must
    /// stand in for its forms to count.
    pub fn condition(&self) -> Option<&str> {
        self.terrain.as_deref()
    }

    /// Why these keys make none of the effects `docs/cards.md` lists, if they do not: an
    /// effect does something (a bonus, a penalty, a retest or a change of test), and a retest
    /// or a change of test exhausts the card (`exhaust = true`).
    pub fn problem(&self) -> Option<String> {
        let does = self.bonus.is_some()
            || self.penalty.is_some()
            || self.retest == Some(true)
            || self.change_test == Some(true);
        if !does {
            return Some(
                "an effect needs one of `bonus`, `penalty`, `retest = true` or `change_test = true`"
                    .into(),
            );
        }
        for (key, on) in [("retest", self.retest), ("change_test", self.change_test)] {
            if on == Some(true) && self.exhaust != Some(true) {
                return Some(format!(
                    "`{key} = true` goes with `exhaust = true`: the card is exhausted to use it"
                ));
            }
        }
        None
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Icon {
    pub game: String,
    pub kind: String,
    pub id: String,
    pub name: String,
    pub text: String,
    pub race: String,
    pub gender: String,
    pub might: i32,
    pub savvy: i32,
    pub resolve: i32,
    pub ability: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub effects: Vec<Effect>,
    /// The card's picture: a PNG or JPEG file (see `docs/cards.md`, "Art"); `portrait` is
    /// accepted as another name for it.
    #[serde(default, alias = "portrait", skip_serializing_if = "Option::is_none")]
    pub art: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Merit {
    pub game: String,
    pub kind: String,
    pub id: String,
    pub name: String,
    pub text: String,
    pub merit_type: MeritType,
    pub cost: i32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attribute: Option<Attribute>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub court: Option<Court>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub art: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub combat: Option<i32>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub effects: Vec<Effect>,
    /// The card's picture (a merit's `art` names its art): a PNG or JPEG file.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub portrait: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Flaw {
    pub game: String,
    pub kind: String,
    pub id: String,
    pub name: String,
    pub text: String,
    pub flaw_type: FlawType,
    pub points: i32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub court: Option<Court>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub effects: Vec<Effect>,
    /// The card's picture: a PNG or JPEG file (see `docs/cards.md`, "Art"); `portrait` is
    /// accepted as another name for it.
    #[serde(default, alias = "portrait", skip_serializing_if = "Option::is_none")]
    pub art: Option<String>,
}

/// A trial: one die plus the attribute, pass on >= difficulty.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Trial {
    pub attribute: TestKind,
    pub difficulty: i32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failure: Option<String>,
    /// What failing the trial does (the `failure` text as data); absent: nothing.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub effect: Option<FailureEffect>,
}

/// A waylay trial's failure effect as written: one table, exactly one key says which form
/// (`{ exhaust = [types] }`, `{ discard = [types] }`, `{ skip_day = true }`,
/// `{ return_to_base = true }`, `{ lose_treasure = true }`, `{ none = true }`); a types list
/// that is empty means a merit of any type.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FailureEffect {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exhaust: Option<Vec<MeritType>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub discard: Option<Vec<MeritType>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub skip_day: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub return_to_base: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lose_treasure: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub none: Option<bool>,
}

/// What a failed waylay trial does, as the engine reads a [`FailureEffect`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Failure {
    /// Exhaust one ready merit of these types (a mask of [`MeritType::ALL`]; with none ready,
    /// discard an exhausted one of them).
    Exhaust(u8),
    /// Discard one merit of these types.
    Discard(u8),
    /// Skip the next Day.
    SkipDay,
    /// Go back to the Base Camp; the Day ends.
    ReturnToBase,
    /// A found quest treasure drops where the character stands.
    LoseTreasure,
    Nothing,
}

/// The mask of merit types in `types` (bit i: `MeritType::ALL[i]`); empty means every type.
pub fn type_mask(types: &[MeritType]) -> u8 {
    if types.is_empty() {
        return 0b11111;
    }
    types.iter().fold(0, |acc, t| {
        acc | 1 << MeritType::ALL.iter().position(|x| x == t).unwrap_or(0)
    })
}

impl MeritType {
    /// This type's bit in a [`type_mask`].
    pub fn bit(self) -> u8 {
        type_mask(&[self])
    }
}

impl FailureEffect {
    /// The form in use: `None` when the table has no form or more than one.
    pub fn form(&self) -> Option<Failure> {
        let mut forms = Vec::new();
        if let Some(t) = &self.exhaust {
            forms.push(Failure::Exhaust(type_mask(t)));
        }
        if let Some(t) = &self.discard {
            forms.push(Failure::Discard(type_mask(t)));
        }
        for (on, f) in [
            (self.skip_day, Failure::SkipDay),
            (self.return_to_base, Failure::ReturnToBase),
            (self.lose_treasure, Failure::LoseTreasure),
            (self.none, Failure::Nothing),
        ] {
            match on {
                Some(true) => forms.push(f),
                // `false` is no form: the table says nothing.
                Some(false) => return None,
                None => {}
            }
        }
        if forms.len() == 1 { forms.pop() } else { None }
    }
}

impl Trial {
    /// What failing this trial does (nothing without an `effect`).
    pub fn on_failure(&self) -> Failure {
        self.effect
            .as_ref()
            .and_then(FailureEffect::form)
            .unwrap_or(Failure::Nothing)
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Waylay {
    pub game: String,
    pub kind: String,
    pub id: String,
    pub name: String,
    pub text: String,
    pub rating: i32,
    /// Terrain features it may be played on, or `["any"]`.
    pub terrain: Vec<String>,
    pub tests: Vec<TestKind>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub might: Option<i32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resolve: Option<i32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub savvy: Option<i32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub combat: Option<i32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trial: Option<Trial>,
    /// The card's picture: a PNG or JPEG file (see `docs/cards.md`, "Art"); `portrait` is
    /// accepted as another name for it.
    #[serde(default, alias = "portrait", skip_serializing_if = "Option::is_none")]
    pub art: Option<String>,
}

impl Waylay {
    /// The waylay's value for a test kind; `None` means that test can never be used.
    pub fn value(&self, t: TestKind) -> Option<i32> {
        match t {
            TestKind::Might => self.might,
            TestKind::Savvy => self.savvy,
            TestKind::Resolve => self.resolve,
            TestKind::Combat => self.combat,
        }
    }
    pub fn fits_terrain(&self, features: &[String]) -> bool {
        self.terrain
            .iter()
            .any(|t| t == "any" || features.contains(t))
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Sides {
    pub north: Vec<String>,
    pub east: Vec<String>,
    pub south: Vec<String>,
    pub west: Vec<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Side {
    North,
    East,
    South,
    West,
}

impl Side {
    /// Clockwise from the top of the card.
    pub const ALL: [Side; 4] = [Side::North, Side::East, Side::South, Side::West];

    pub fn opposite(self) -> Side {
        match self {
            Side::North => Side::South,
            Side::South => Side::North,
            Side::East => Side::West,
            Side::West => Side::East,
        }
    }
    pub fn name(self) -> &'static str {
        match self {
            Side::North => "north",
            Side::East => "east",
            Side::South => "south",
            Side::West => "west",
        }
    }
}

impl Sides {
    pub fn get(&self, s: Side) -> &[String] {
        match s {
            Side::North => &self.north,
            Side::East => &self.east,
            Side::South => &self.south,
            Side::West => &self.west,
        }
    }

    pub fn get_mut(&mut self, s: Side) -> &mut Vec<String> {
        match s {
            Side::North => &mut self.north,
            Side::East => &mut self.east,
            Side::South => &mut self.south,
            Side::West => &mut self.west,
        }
    }
}

/// When a league's extra trial is rolled.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TrialOn {
    /// By a character that stays in the league: failing ends its Day.
    Stay,
    /// Before resting here: failing ends the Day without the Rest.
    Rest,
}

/// A league's `special` text as data: one table, the keys present say which form.
/// `{ forbid_merits = [types] }` (no merit of these types may be used in the league),
/// `{ forbid_ratings = [N, ..] }` (no waylay of these ratings may be played here),
/// `{ modify = N, test = T }` (every test of kind T taken here, +N or -N),
/// `{ trial = { attribute, difficulty }, on = "stay" | "rest" }` (an extra trial),
/// `{ rest_extra = N, types = [types] }` (resting here also recovers N exhausted merits of
/// these types; an empty list: any type), `{ look_at_treasures = N }` (a character who rests
/// here looks at N of the other player's face-down treasures).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LeagueEffect {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub forbid_merits: Option<Vec<MeritType>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub forbid_ratings: Option<Vec<i32>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub modify: Option<i32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub test: Option<TestKind>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trial: Option<LeagueTrial>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub on: Option<TrialOn>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rest_extra: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub types: Option<Vec<MeritType>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub look_at_treasures: Option<u32>,
}

impl LeagueEffect {
    /// Why the table is not exactly one form, if it is not.
    pub fn problem(&self) -> Option<String> {
        let forms = [
            self.forbid_merits.is_some(),
            self.forbid_ratings.is_some(),
            self.modify.is_some(),
            self.trial.is_some(),
            self.rest_extra.is_some(),
            self.look_at_treasures.is_some(),
        ];
        let n = forms.iter().filter(|x| **x).count();
        if n != 1 {
            return Some(format!(
                "a league effect has exactly one of forbid_merits, forbid_ratings, modify, trial, rest_extra, look_at_treasures (found {n})"
            ));
        }
        let extra = |key: &str, form: &str| Some(format!("`{key}` goes with `{form}` only"));
        if self.modify.is_some() != self.test.is_some() {
            return if self.modify.is_some() {
                Some("`modify` needs `test`".into())
            } else {
                extra("test", "modify")
            };
        }
        if self.trial.is_some() != self.on.is_some() {
            return if self.trial.is_some() {
                Some("`trial` needs `on` (\"stay\" or \"rest\")".into())
            } else {
                extra("on", "trial")
            };
        }
        if self.rest_extra.is_some() != self.types.is_some() {
            return if self.rest_extra.is_some() {
                Some("`rest_extra` needs `types`".into())
            } else {
                extra("types", "rest_extra")
            };
        }
        None
    }
}

/// An enter or leave trial of a league.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LeagueTrial {
    pub attribute: TestKind,
    pub difficulty: i32,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct League {
    pub game: String,
    pub kind: String,
    pub id: String,
    pub name: String,
    pub text: String,
    pub terrain: Vec<String>,
    pub sides: Sides,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub enter: Option<LeagueTrial>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub leave: Option<LeagueTrial>,
    /// Merit types recoverable here (may include `flaw`).
    #[serde(default)]
    pub rest: Vec<String>,
    #[serde(default)]
    pub unique: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub special: Option<String>,
    /// The card's picture: a PNG or JPEG file (see `docs/cards.md`, "Art"); `portrait` is
    /// accepted as another name for it.
    #[serde(default, alias = "portrait", skip_serializing_if = "Option::is_none")]
    pub art: Option<String>,
    /// The `special` text as data the engine applies.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub effects: Vec<LeagueEffect>,
}

impl League {
    /// The forms of its effects (a table that is no single form is left out: the reader
    /// refuses such a card).
    pub fn forms(&self) -> impl Iterator<Item = LeagueForm<'_>> {
        self.effects.iter().filter_map(LeagueEffect::form)
    }
    /// May a merit of type `t` be used here?
    pub fn allows(&self, t: MeritType) -> bool {
        !self
            .forms()
            .any(|f| matches!(f, LeagueForm::ForbidMerits(types) if types.contains(&t)))
    }
    /// May a waylay of this rating be played here?
    pub fn allows_rating(&self, rating: i32) -> bool {
        !self
            .forms()
            .any(|f| matches!(f, LeagueForm::ForbidRatings(r) if r.contains(&rating)))
    }
    /// The change to tests of `kind` taken here.
    pub fn modifier(&self, kind: TestKind) -> i32 {
        self.forms()
            .map(|f| match f {
                LeagueForm::Modify { by, test } if test == kind => by,
                _ => 0,
            })
            .sum()
    }
    /// How many of the other player's face-down treasures a character resting here looks at.
    pub fn looks(&self) -> u32 {
        self.forms()
            .map(|f| match f {
                LeagueForm::LookAtTreasures(n) => n,
                _ => 0,
            })
            .sum()
    }
    /// The extra trial rolled `on` this occasion, if any (the first listed).
    pub fn extra_trial(&self, on: TrialOn) -> Option<&LeagueTrial> {
        self.forms().find_map(|f| match f {
            LeagueForm::Trial { trial, on: o } if o == on => Some(trial),
            _ => None,
        })
    }
    /// The `rest_extra` effects: (how many more merits, of which types), in card order.
    pub fn rest_extras(&self) -> impl Iterator<Item = (u32, &[MeritType])> {
        self.forms().filter_map(|f| match f {
            LeagueForm::RestExtra { more, types } => Some((more, types)),
            _ => None,
        })
    }
}

/// A league effect read as its one form: the table of [`LeagueEffect`] with the key that
/// says the form as the tag (as Iconica's effects are tagged by their first key). The
/// engine reads leagues through this, so a new form is a new variant every reader handles.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum LeagueForm<'a> {
    /// `{ forbid_merits = [types] }`
    ForbidMerits(&'a [MeritType]),
    /// `{ forbid_ratings = [N, ..] }`
    ForbidRatings(&'a [i32]),
    /// `{ modify = N, test = T }`
    Modify { by: i32, test: TestKind },
    /// `{ trial = { attribute, difficulty }, on = "stay" | "rest" }`
    Trial { trial: &'a LeagueTrial, on: TrialOn },
    /// `{ rest_extra = N, types = [types] }`
    RestExtra { more: u32, types: &'a [MeritType] },
    /// `{ look_at_treasures = N }`
    LookAtTreasures(u32),
}

impl LeagueForm<'_> {
    /// The form's tag: the key that says it.
    pub fn key(&self) -> &'static str {
        match self {
            LeagueForm::ForbidMerits(_) => "forbid_merits",
            LeagueForm::ForbidRatings(_) => "forbid_ratings",
            LeagueForm::Modify { .. } => "modify",
            LeagueForm::Trial { .. } => "trial",
            LeagueForm::RestExtra { .. } => "rest_extra",
            LeagueForm::LookAtTreasures(_) => "look_at_treasures",
        }
    }

    /// The table of exactly this form, as a card file writes it.
    pub fn table(&self) -> LeagueEffect {
        let mut e = LeagueEffect::default();
        match *self {
            LeagueForm::ForbidMerits(t) => e.forbid_merits = Some(t.to_vec()),
            LeagueForm::ForbidRatings(r) => e.forbid_ratings = Some(r.to_vec()),
            LeagueForm::Modify { by, test } => {
                e.modify = Some(by);
                e.test = Some(test);
            }
            LeagueForm::Trial { trial, on } => {
                e.trial = Some(trial.clone());
                e.on = Some(on);
            }
            LeagueForm::RestExtra { more, types } => {
                e.rest_extra = Some(more);
                e.types = Some(types.to_vec());
            }
            LeagueForm::LookAtTreasures(n) => e.look_at_treasures = Some(n),
        }
        e
    }
}

impl LeagueEffect {
    /// The form this table is; `None` when it is not exactly one ([`LeagueEffect::problem`]
    /// says why).
    pub fn form(&self) -> Option<LeagueForm<'_>> {
        if self.problem().is_some() {
            return None;
        }
        Some(match self {
            LeagueEffect {
                forbid_merits: Some(t),
                ..
            } => LeagueForm::ForbidMerits(t),
            LeagueEffect {
                forbid_ratings: Some(r),
                ..
            } => LeagueForm::ForbidRatings(r),
            LeagueEffect {
                modify: Some(by),
                test: Some(test),
                ..
            } => LeagueForm::Modify {
                by: *by,
                test: *test,
            },
            LeagueEffect {
                trial: Some(trial),
                on: Some(on),
                ..
            } => LeagueForm::Trial { trial, on: *on },
            LeagueEffect {
                rest_extra: Some(more),
                types: Some(types),
                ..
            } => LeagueForm::RestExtra { more: *more, types },
            LeagueEffect {
                look_at_treasures: Some(n),
                ..
            } => LeagueForm::LookAtTreasures(*n),
            _ => return None,
        })
    }
}

/// A quest objective, checked by the engine.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Objective {
    Reach(String),
    ReachTerrain(String),
    CollectTreasures(u32),
    DefeatWaylays(u32),
    ReturnToBase(bool),
    /// Holds while the character still holds this many quest treasures it found (found, not
    /// lost again and not discarded): a "while held" condition ("carry them to ...").
    HoldTreasures(u32),
    /// Holds while the character stands in a league whose terrain has this feature.
    InTerrain(String),
    All(Vec<Objective>),
    Any(Vec<Objective>),
    /// Each objective in turn: a step counts only once the steps before it are done.
    Then(Vec<Objective>),
}

impl<'de> Deserialize<'de> for Objective {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        use serde::de::Error;
        let table = toml::Table::deserialize(d)?;
        if table.len() != 1 {
            return Err(D::Error::custom(
                "an objective is a table with exactly one of the keys reach, reach_terrain, collect_treasures, defeat_waylays, return_to_base, hold_treasures, in_terrain, all, any, then",
            ));
        }
        let (k, v) = table.into_iter().next().expect("one entry");
        let want = |what: &str| D::Error::custom(format!("objective `{k}` takes {what}"));
        let count = |v: &toml::Value| {
            v.as_integer()
                .filter(|n| *n >= 0)
                .map(|n| n as u32)
                .ok_or_else(|| want("a whole number"))
        };
        let list = |v: toml::Value| -> Result<Vec<Objective>, D::Error> {
            let toml::Value::Array(a) = v else {
                return Err(want("a list of objectives"));
            };
            a.into_iter()
                .map(|x| {
                    x.try_into::<Objective>()
                        .map_err(|e| D::Error::custom(e.message().to_string()))
                })
                .collect()
        };
        Ok(match k.as_str() {
            "reach" => Objective::Reach(v.as_str().ok_or_else(|| want("a league id"))?.to_string()),
            "reach_terrain" => Objective::ReachTerrain(
                v.as_str()
                    .ok_or_else(|| want("a terrain feature"))?
                    .to_string(),
            ),
            "collect_treasures" => Objective::CollectTreasures(count(&v)?),
            "defeat_waylays" => Objective::DefeatWaylays(count(&v)?),
            "return_to_base" => {
                Objective::ReturnToBase(v.as_bool().ok_or_else(|| want("true or false"))?)
            }
            "hold_treasures" => Objective::HoldTreasures(count(&v)?),
            "in_terrain" => Objective::InTerrain(
                v.as_str()
                    .ok_or_else(|| want("a terrain feature"))?
                    .to_string(),
            ),
            "all" => Objective::All(list(v)?),
            "any" => Objective::Any(list(v)?),
            "then" => Objective::Then(list(v)?),
            other => {
                return Err(D::Error::custom(format!(
                    "unknown objective `{other}`; expected reach, reach_terrain, collect_treasures, defeat_waylays, return_to_base, hold_treasures, in_terrain, all, any or then"
                )));
            }
        })
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Quest {
    pub game: String,
    pub kind: String,
    pub id: String,
    pub name: String,
    pub text: String,
    pub waylay_rating: i32,
    pub treasure_rating: i32,
    pub experience: i32,
    pub objective: Objective,
    /// A time limit: the objective must hold by the end of the character's `time_limit`-th
    /// Day (its own Days, a skipped one included), or the quest fails and can no longer be
    /// completed ("before the spark in your chest goes out"). Absent: no limit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time_limit: Option<u32>,
    /// The card's picture: a PNG or JPEG file (see `docs/cards.md`, "Art"); `portrait` is
    /// accepted as another name for it.
    #[serde(default, alias = "portrait", skip_serializing_if = "Option::is_none")]
    pub art: Option<String>,
}

impl ArcadiaCard {
    pub fn common(&self) -> (&str, &str, &str) {
        match self {
            ArcadiaCard::Icon(c) => (&c.id, &c.name, &c.text),
            ArcadiaCard::Merit(c) => (&c.id, &c.name, &c.text),
            ArcadiaCard::Flaw(c) => (&c.id, &c.name, &c.text),
            ArcadiaCard::Waylay(c) => (&c.id, &c.name, &c.text),
            ArcadiaCard::League(c) => (&c.id, &c.name, &c.text),
            ArcadiaCard::Quest(c) => (&c.id, &c.name, &c.text),
        }
    }
    pub fn kind(&self) -> &'static str {
        match self {
            ArcadiaCard::Icon(_) => "icon",
            ArcadiaCard::Merit(_) => "merit",
            ArcadiaCard::Flaw(_) => "flaw",
            ArcadiaCard::Waylay(_) => "waylay",
            ArcadiaCard::League(_) => "league",
            ArcadiaCard::Quest(_) => "quest",
        }
    }

    /// Every text of the card, for free-text search.
    pub fn texts(&self) -> Vec<&str> {
        let mut t = vec![self.common().2];
        match self {
            ArcadiaCard::Icon(c) => t.push(&c.ability),
            ArcadiaCard::Waylay(w) => t.extend(w.trial.as_ref().and_then(|t| t.failure.as_deref())),
            ArcadiaCard::League(l) => t.extend(l.special.as_deref()),
            _ => {}
        }
        t
    }

    /// Checks beyond the types.
    pub fn problems(&self) -> Vec<Problem> {
        let mut out = Vec::new();
        let effects = match self {
            ArcadiaCard::Icon(c) => c.effects.as_slice(),
            ArcadiaCard::Merit(m) => &m.effects,
            ArcadiaCard::Flaw(f) => &f.effects,
            _ => &[],
        };
        for e in effects {
            if let Some(why) = e.problem() {
                out.push(Problem::at(&["effects"], why));
            }
        }
        match self {
            ArcadiaCard::Merit(m) => {
                if m.cost < 0 {
                    out.push(Problem::at(
                        &["cost"],
                        format!("`cost` cannot be negative ({})", m.cost),
                    ));
                }
                if m.merit_type == MeritType::Ability
                    && (m.attribute.is_none() || m.court.is_none())
                {
                    out.push(Problem::at(
                        &["merit_type"],
                        "an ability merit needs `attribute` (might/savvy/resolve) and `court` (seelie/unseelie)"
                            .to_string(),
                    ));
                }
            }
            ArcadiaCard::Flaw(f) => {
                if f.points < 0 {
                    out.push(Problem::at(
                        &["points"],
                        format!("`points` cannot be negative ({})", f.points),
                    ));
                }
                if f.flaw_type == FlawType::Weakness && f.court.is_none() {
                    out.push(Problem::at(
                        &["flaw_type"],
                        "a weakness needs `court` (seelie/unseelie)".to_string(),
                    ));
                }
            }
            ArcadiaCard::Waylay(w) => {
                if let Some(e) = w.trial.as_ref().and_then(|t| t.effect.as_ref())
                    && e.form().is_none()
                {
                    out.push(Problem::at(
                        &["trial"],
                        "a trial `effect` has exactly one of exhaust, discard, skip_day = true, return_to_base = true, lose_treasure = true, none = true"
                            .to_string(),
                    ));
                }
            }
            ArcadiaCard::League(l) => {
                for e in &l.effects {
                    if let Some(why) = e.problem() {
                        out.push(Problem::at(&["effects"], why));
                    }
                }
                for r in &l.rest {
                    if !REST_TYPES.contains(&r.as_str()) {
                        out.push(Problem::at(
                            &["rest"],
                            format!("`rest` lists merit types or `flaw`; `{r}` is neither"),
                        ));
                    }
                }
            }
            _ => {}
        }
        out
    }
}
