//! An Iconica match as a file and as a report: the record's `options` (the rules, the
//! parties in play order and every character's card) written and read back, the match
//! compiled from them, and the report `play` and `replay` print.

use crate::games::any::{Opened, Step};
use crate::games::owned::{OnSetup, Owned};
use serde_json::{Value, json};

use crate::cards::{Card, CardLookup};
use crate::games::build::{cards_of, cards_value};
use crate::games::iconica::engine::{
    Breaks, Ended, Event, IconicaGame, Rules, Ruleset, Setup, State, Winner,
};
use crate::games::iconica::model::Character;
use crate::games::record::{MatchRecord, RecordError, replay_record};
use crate::games::report::{Line, Report};

/// The version of the Iconica engine: a record of another is refused.
pub const ENGINE: u32 = 1;

/// The parties' keys in a record, in play order (four for a team game: side a's two
/// players in seating order, then side b's).
const PARTY_KEYS: [&str; 4] = ["party_a", "party_b", "party_c", "party_d"];

/// The house rules in force, as `--house` names them.
pub fn house(rules: &Rules) -> Vec<&'static str> {
    [
        (!rules.reactions, "no-reactions"),
        (!rules.strengths, "no-strengths"),
        (!rules.final_acts, "no-final-acts"),
        (!rules.action_breaks, "no-action-breaks"),
    ]
    .into_iter()
    .filter_map(|(on, name)| on.then_some(name))
    .collect()
}

/// The rules' keys of a record's options.
pub fn rules_table(rules: &Rules) -> toml::Table {
    let mut t = toml::Table::new();
    t.insert(
        "ruleset".into(),
        (if rules.ruleset == Ruleset::V8 {
            "v8"
        } else {
            "v2"
        })
        .into(),
    );
    t.insert(
        "breaks".into(),
        (if rules.breaks == Breaks::Advanced {
            "advanced"
        } else {
            "standard"
        })
        .into(),
    );
    let house: Vec<toml::Value> = house(rules).into_iter().map(toml::Value::from).collect();
    t.insert("house".into(), house.into());
    t.insert("turn_limit".into(), i64::from(rules.turn_limit).into());
    t
}

/// A record's options: the rules, the parties (name and member ids) in play order and the
/// cards of every member, so the record replays without the catalogue.
pub fn options(rules: &Rules, parties: &[(String, Vec<Character>)]) -> toml::Table {
    let mut t = rules_table(rules);
    let mut cards: Vec<Card> = Vec::new();
    for ((name, members), key) in parties.iter().zip(PARTY_KEYS) {
        let mut p = toml::Table::new();
        p.insert("name".into(), name.clone().into());
        let ids: Vec<toml::Value> = members.iter().map(|m| m.id.clone().into()).collect();
        p.insert("members".into(), ids.into());
        t.insert(key.into(), p.into());
        for m in members {
            let card = Card::Iconica(m.clone());
            if !cards.contains(&card) {
                cards.push(card);
            }
        }
    }
    t.insert("cards".into(), cards_value(&cards));
    t
}

/// A record's options of the match `setup`, the parties named `names` in play order
/// ([`options`] with each player's cards taken from the setup).
pub fn options_of(setup: &Setup, names: &[String]) -> toml::Table {
    let parties: Vec<(String, Vec<Character>)> = (0..setup.player_side.len())
        .map(|p| {
            let members = (0..setup.cards.len())
                .filter(|&slot| usize::from(setup.owner[slot]) == p)
                .map(|slot| Character::clone(&setup.cards[slot]))
                .collect();
            (names.get(p).cloned().unwrap_or_default(), members)
        })
        .collect();
    options(&setup.rules, &parties)
}

/// The rules a record's options say (defaults for keys not written).
pub fn rules_of(t: &toml::Table) -> Result<Rules, RecordError> {
    let bad = |what: String| RecordError::Options(what);
    let word = |k: &str, default: &'static str| -> Result<String, RecordError> {
        match t.get(k) {
            None => Ok(default.to_string()),
            Some(toml::Value::String(s)) => Ok(s.clone()),
            Some(_) => Err(bad(format!("`{k}` is not text"))),
        }
    };
    let mut rules = Rules {
        ruleset: match word("ruleset", "v2")?.as_str() {
            "v2" => Ruleset::V2,
            "v8" => Ruleset::V8,
            other => return Err(bad(format!("unknown ruleset `{other}`"))),
        },
        breaks: match word("breaks", "standard")?.as_str() {
            "standard" => Breaks::Standard,
            "advanced" => Breaks::Advanced,
            other => return Err(bad(format!("unknown breaks `{other}`"))),
        },
        ..Rules::default()
    };
    if let Some(h) = t.get("house") {
        let list = h
            .as_array()
            .ok_or_else(|| bad("`house` is not a list".into()))?;
        for v in list {
            match v.as_str() {
                Some("no-reactions") => rules.reactions = false,
                Some("no-strengths") => rules.strengths = false,
                Some("no-final-acts") => rules.final_acts = false,
                Some("no-action-breaks") => rules.action_breaks = false,
                _ => return Err(bad(format!("unknown house rule {v}"))),
            }
        }
    }
    if let Some(v) = t.get("turn_limit") {
        rules.turn_limit = v
            .as_integer()
            .and_then(|n| u32::try_from(n).ok())
            .filter(|n| (1..=100_000).contains(n))
            .ok_or_else(|| bad("`turn_limit` is not a number from 1 to 100000".into()))?;
    }
    Ok(rules)
}

/// The parties a record's options list, in play order: each one's name and member ids.
pub fn parties_of(t: &toml::Table) -> Result<Vec<(String, Vec<String>)>, RecordError> {
    let bad = |what: String| RecordError::Options(what);
    let mut parties = Vec::new();
    for key in PARTY_KEYS {
        let Some(p) = t.get(key) else { break };
        let p = p
            .as_table()
            .ok_or_else(|| bad(format!("`{key}` is not a table")))?;
        let name = match p.get("name") {
            None => String::new(),
            Some(v) => v
                .as_str()
                .ok_or_else(|| bad(format!("`{key}.name` is not text")))?
                .to_string(),
        };
        let members = p
            .get("members")
            .and_then(toml::Value::as_array)
            .ok_or_else(|| bad(format!("`{key}.members` is not a list")))?
            .iter()
            .map(|m| {
                m.as_str()
                    .map(str::to_string)
                    .ok_or_else(|| bad(format!("a member of `{key}` is not an id")))
            })
            .collect::<Result<Vec<_>, _>>()?;
        parties.push((name, members));
    }
    if parties.len() != 2 && parties.len() != 4 {
        return Err(bad(format!(
            "{} parties; a match has two (or four for a team game)",
            parties.len()
        )));
    }
    Ok(parties)
}

/// The match a record's options describe: the rules, and each party's characters from the
/// record's `cards` (a format-1 record keeps none: they come from `lookup`).
pub fn compile(t: &toml::Table, lookup: &dyn CardLookup) -> Result<Setup, RecordError> {
    let bad = RecordError::Options;
    let rules = rules_of(t)?;
    let kept = match t.get("cards") {
        Some(_) => Some(cards_of(t, crate::cards::Game::Iconica).map_err(bad)?),
        None => None,
    };
    let character = |id: &str| -> Result<Character, RecordError> {
        let card = match &kept {
            Some(cards) => cards.iter().find(|c| c.id() == id).cloned(),
            None => lookup.card(id).map(|c| c.into_owned()),
        };
        match card {
            Some(Card::Iconica(c)) => Ok(c),
            Some(_) => Err(bad(format!("`{id}` is not an Iconica character"))),
            None => Err(bad(format!(
                "no card `{id}` in the match file or the catalogue"
            ))),
        }
    };
    let parties = parties_of(t)?
        .into_iter()
        .map(|(_, ids)| ids.iter().map(|id| character(id)).collect())
        .collect::<Result<Vec<Vec<Character>>, _>>()?;
    let setup = match parties.as_slice() {
        [a, b] => Setup::duel(a, b, rules),
        [a, b, c, d] => Setup::teams(&[a, b], &[c, d], rules),
        _ => unreachable!("parties_of lists two or four"),
    };
    setup.map_err(|e| bad(format!("these parties cannot play: {e}")))
}

/// Iconica's positions, which borrow their [`Setup`].
pub struct Iconica;

impl OnSetup for Iconica {
    type Setup = Setup;
    type Game<'s> = IconicaGame<'s>;
}

/// The start of the match a record's options describe.
pub fn open(o: &toml::Table, lookup: &dyn CardLookup) -> Result<Opened, RecordError> {
    let game = Owned::<Iconica>::new(compile(o, lookup)?, |s| IconicaGame::new(s));
    Ok(Opened {
        game: Box::new(game),
        opening: Step::default(),
    })
}

/// Replays a record of an Iconica match up to `to` inputs (all when `None`), each checked.
pub fn replay(
    r: &MatchRecord,
    to: Option<usize>,
    lookup: &dyn CardLookup,
) -> Result<Report, RecordError> {
    r.expect_game("iconica")?;
    r.expect_engine(ENGINE)?;
    let setup = compile(&r.options, lookup)?;
    let done = replay_record(IconicaGame::new(&setup), Vec::new(), r, to)?;
    let log: Vec<Event> = done.log.into_iter().map(|(_, e)| e).collect();
    Ok(report(&setup, done.game.state(), &log))
}

/// One character at the end of a match.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MemberEnd {
    pub id: String,
    pub name: String,
    /// 0 when skulled.
    pub health: u16,
    pub start: u16,
    pub skulled: bool,
    pub statuses: Vec<&'static str>,
}

/// Each side's characters (a, then b) in party order at a position.
pub fn sides(setup: &Setup, st: &State) -> [Vec<MemberEnd>; 2] {
    let mut sides = [Vec::new(), Vec::new()];
    for (i, c) in setup.chars.iter().enumerate() {
        let skulled = !st.is_alive(i);
        sides[usize::from(setup.side[i].min(1))].push(MemberEnd {
            id: setup.id(i).to_string(),
            name: setup.label(i).to_string(),
            health: if skulled { 0 } else { st.hp[i] },
            start: c.start,
            skulled,
            statuses: st.statuses(i).map(|s| s.name()).collect(),
        });
    }
    sides
}

/// The report of a match at `st` with its whole `log`.
pub fn report(setup: &Setup, st: &State, log: &[Event]) -> Report {
    let (ended, _) = st.ended.unwrap_or((Ended::DiceExhausted, None));
    let json = crate::games::report::match_json(
        "iconica",
        winner_json(st),
        ended,
        st.turn,
        st.dice_used,
        sides_json(setup, st),
        log.iter().map(|e| e.to_json(setup)).collect(),
    );
    let lines = log
        .iter()
        .map(|e| {
            let kind = if matches!(e, Event::Turn { .. }) {
                Line::Heading
            } else {
                Line::Item
            };
            (kind, e.text(setup))
        })
        .collect();
    Report {
        log: lines,
        tail: tail(setup, st, log),
        json,
    }
}

/// The final state in words: each side's characters, then how the match ended.
fn tail(setup: &Setup, st: &State, log: &[Event]) -> String {
    use std::fmt::Write;
    let mut out = String::from("\n");
    for side in 0..2u8 {
        let _ = writeln!(out, "Side {}:", if side == 0 { "a" } else { "b" });
        for (i, c) in setup
            .chars
            .iter()
            .enumerate()
            .filter(|(i, _)| setup.side[*i] == side)
        {
            let statuses: Vec<&str> = st.statuses(i).map(|s| s.name()).collect();
            if st.is_alive(i) {
                let _ = writeln!(
                    out,
                    "  {:<24} {:>4}/{:<4} {}",
                    setup.label(i),
                    st.hp[i],
                    c.start,
                    statuses.join(", ")
                );
            } else {
                let _ = writeln!(out, "  {:<24} Skulled", setup.label(i));
            }
        }
    }
    let end = if st.ended.is_some() {
        log.last().map(|e| e.text(setup)).unwrap_or_default()
    } else {
        "The match goes on".to_string()
    };
    let _ = writeln!(out, "{end}; {} turns, {} dice", st.turn, st.dice_used);
    out
}

/// The `sides` object of the JSON: every member in party order.
fn sides_json(setup: &Setup, st: &State) -> Value {
    let [a, b] = sides(setup, st).map(|side| {
        side.into_iter()
            .map(|m| json!({"id": m.id, "health": m.health, "skulled": m.skulled, "statuses": m.statuses}))
            .collect::<Vec<_>>()
    });
    json!({"a": a, "b": b})
}

fn winner_json(st: &State) -> Value {
    match st.ended.and_then(|e| e.1) {
        Some(Winner::Side(0)) => json!("a"),
        Some(Winner::Side(_)) => json!("b"),
        Some(Winner::Draw) => json!("draw"),
        None => Value::Null,
    }
}
