//! An Iconoclasm match as a file and as a report: the deck and clash table a game is dealt
//! from, the record's `options` (the players, the solo goal, the deal itself and every card
//! with the clash table, so the record replays without the catalogue and with no chance
//! left to the seed), and the report `play` and `replay` print.

use crate::games::any::{Opened, opening};
use crate::games::owned::{OnSetup, Owned};
use serde_json::{Value, json};

use crate::cards::{Card, CardLookup};
use crate::games::build::{cards_of, cards_value};
use crate::games::iconoclasm::engine::render::picture;
use crate::games::iconoclasm::engine::{
    Deck, Event, Goal, IconoclasmGame, Pos, Setup, State, goal_met, player_scores, rank_elements,
    winner,
};
use crate::games::iconoclasm::model::{ClashTable, Element, ElementCard};
use crate::games::record::{MatchRecord, RecordError, replay_record};
use crate::games::report::{Line, Report};

/// The version of the Iconoclasm engine: a record of another is refused.
pub const ENGINE: u32 = 1;

/// The deck a game is dealt from, picked out of `cards` (other games' cards ignored), and
/// the clash table checked for use.
pub fn deck(cards: &[Card], table: ClashTable) -> Result<(Deck, ClashTable), String> {
    if let Some(p) = table.problems().first() {
        return Err(format!("the clash table is not usable: {}", p.message));
    }
    let elements: Vec<ElementCard> = cards
        .iter()
        .filter_map(|c| match c {
            Card::Iconoclasm(e) => Some(e.clone()),
            _ => None,
        })
        .collect();
    let deck = Deck::from_cards(&elements).map_err(|e| e.to_string())?;
    Ok((deck, table))
}

/// The record's `options` of a game dealt as `setup` from `table`.
pub fn options(setup: &Setup, table: &ClashTable) -> toml::Table {
    let mut o = toml::Table::new();
    o.insert("players".into(), i64::from(setup.players).into());
    if let Some(g) = setup.goal {
        o.insert("goal".into(), g.name().into());
    }
    let drawn: Vec<toml::Value> = setup.drawn.iter().map(|e| e.name().into()).collect();
    o.insert("drawn".into(), drawn.into());
    if setup.players == 1 {
        let pile: Vec<toml::Value> = setup
            .draw_pile
            .iter()
            .map(|c| i64::from(*c).into())
            .collect();
        o.insert("pile".into(), pile.into());
    }
    let cards: Vec<Card> = setup
        .deck
        .cards
        .iter()
        .map(|c| Card::Iconoclasm(c.clone()))
        .collect();
    o.insert("cards".into(), cards_value(&cards));
    o.insert(
        "clash".into(),
        toml::Value::try_from(table).expect("a clash table is plain data"),
    );
    o
}

/// The game a record's options deal: a format-2 record says the deal (`drawn`, `pile`),
/// the cards and the clash table; a format-1 record only the players, its deal the seed's
/// from `deck` (the catalogue's).
pub fn setup_of(o: &toml::Table) -> Result<Setup, RecordError> {
    let bad = RecordError::Options;
    let players = o
        .get("players")
        .and_then(toml::Value::as_integer)
        .and_then(|n| u8::try_from(n).ok())
        .filter(|n| (1..=4).contains(n))
        .ok_or_else(|| bad("`players` is not 1 to 4".into()))?;
    let goal = match o.get("goal") {
        None if players == 1 => return Err(bad("a solo game needs its `goal`".into())),
        None => Goal::Dominance,
        Some(v) => v
            .as_str()
            .and_then(Goal::parse)
            .ok_or_else(|| bad(format!("`goal` {v} is not dominance or balance")))?,
    };
    let drawn: Vec<Element> = o
        .get("drawn")
        .and_then(toml::Value::as_array)
        .ok_or_else(|| bad("`drawn` is not a list".into()))?
        .iter()
        .map(|v| {
            Element::ALL
                .into_iter()
                .find(|e| v.as_str() == Some(e.name()))
                .ok_or_else(|| bad(format!("`drawn`: {v} is not an element")))
        })
        .collect::<Result<_, _>>()?;
    let drawn: [Element; 4] = drawn
        .try_into()
        .map_err(|_| bad("`drawn` does not list the four elements".into()))?;
    if Element::ALL.iter().any(|e| !drawn.contains(e)) {
        return Err(bad("`drawn` does not list the four elements".into()));
    }
    let pile: Vec<u8> = match o.get("pile") {
        None => (0..crate::games::iconoclasm::engine::CARDS as u8).collect(),
        Some(v) => v
            .as_array()
            .ok_or_else(|| bad("`pile` is not a list".into()))?
            .iter()
            .map(|c| {
                c.as_integer()
                    .and_then(|n| u8::try_from(n).ok())
                    .filter(|n| usize::from(*n) < crate::games::iconoclasm::engine::CARDS)
                    .ok_or_else(|| bad(format!("`pile`: {c} is not a card of the deck")))
            })
            .collect::<Result<_, _>>()?,
    };
    let mut seen = pile.clone();
    seen.sort_unstable();
    seen.dedup();
    if seen.len() != pile.len() || pile.len() != crate::games::iconoclasm::engine::CARDS {
        return Err(bad("`pile` is not the deck's cards, each once".into()));
    }
    let cards = cards_of(o, crate::cards::Game::Iconoclasm).map_err(bad)?;
    let table: ClashTable = o
        .get("clash")
        .cloned()
        .ok_or_else(|| bad("`clash` is missing".into()))?
        .try_into()
        .map_err(|e| bad(format!("`clash`: {e}")))?;
    let (deck, table) = deck(&cards, table).map_err(bad)?;
    Setup::new(deck, &table, players, drawn, goal, pile).map_err(|e| bad(e.to_string()))
}

/// Iconoclasm's positions, which borrow their [`Setup`].
pub struct Iconoclasm;

impl OnSetup for Iconoclasm {
    type Setup = Setup;
    type Game<'s> = IconoclasmGame<'s>;
}

/// The start of the game a record's options describe.
pub fn open(o: &toml::Table, _lookup: &dyn CardLookup) -> Result<Opened, RecordError> {
    let mut log = Vec::new();
    let game = Owned::<Iconoclasm>::new(setup_of(o)?, |s| IconoclasmGame::start(s, &mut log));
    Ok(Opened {
        opening: opening(game.game(), &log),
        game: Box::new(game),
    })
}

/// Replays a record of an Iconoclasm game up to `to` inputs (all when `None`), each checked.
pub fn replay(
    r: &MatchRecord,
    to: Option<usize>,
    _lookup: &dyn CardLookup,
) -> Result<Report, RecordError> {
    r.expect_game("iconoclasm")?;
    if r.format < 2 {
        return Err(RecordError::Legacy("deal"));
    }
    r.expect_engine(ENGINE)?;
    let setup = setup_of(&r.options)?;
    let mut start_log = Vec::new();
    let start = IconoclasmGame::start(&setup, &mut start_log);
    let done = replay_record(start, start_log, r, to)?;
    let log: Vec<Event> = done.log.into_iter().map(|(_, e)| e).collect();
    Ok(report(&setup, &done.game.st, &log, r.seed, &r.seats))
}

/// The report of a game at `st` with its whole `log`, dealt with `seed`, each seat played
/// by `policies`.
pub fn report(setup: &Setup, st: &State, log: &[Event], seed: u64, policies: &[String]) -> Report {
    let lines = log
        .iter()
        .map(|e| {
            let kind = match e {
                Event::Place { .. } => Line::Heading,
                Event::End { .. } => Line::Apart,
                _ => Line::Item,
            };
            (kind, e.text(setup))
        })
        .collect();
    Report {
        log: lines,
        tail: tail(setup, st),
        json: document(setup, st, log, seed, policies),
    }
}

/// The `play --json` document.
fn document(setup: &Setup, st: &State, log: &[Event], seed: u64, policies: &[String]) -> Value {
    let winner = winner(st);
    json!({
        "game": "iconoclasm",
        "players": setup.players,
        "seed": seed,
        "policies": policies,
        "goal": setup.goal.map(|g| g.name()),
        "goal_met": setup.goal.map(|_| winner.is_some()),
        "winner": winner.map(|w| w + 1),
        "ended": if st.is_over() { "all_placed" } else { "incomplete" },
        "turns": st.turn,
        "scores": player_scores(st).iter().map(|s| json!({
            "player": s.player + 1,
            "elements": setup.elements_of(s.player).iter().map(|e| e.name()).collect::<Vec<_>>(),
            "points": s.points,
            "face_up": s.face_up,
        })).collect::<Vec<_>>(),
        "elements": rank_elements(st).iter().map(|e| json!({
            "element": e.element.name(),
            "count": e.count,
            "group": e.group,
            "rank": e.rank,
            "points": e.points,
            "player": if setup.goal.is_some() { None } else { e.owner.map(|o| o + 1) },
        })).collect::<Vec<_>>(),
        "grid": grid_json(setup, st),
        "log": log.iter().map(|e| e.to_json(setup)).collect::<Vec<_>>(),
    })
}

/// The final table: bounds relative to the first card and the rows, top first (`null`: empty).
fn grid_json(setup: &Setup, st: &State) -> Value {
    let Some(b) = st.grid.bounds() else {
        return json!({"top": 0, "left": 0, "width": 0, "height": 0, "rows": []});
    };
    let rows: Vec<Vec<Value>> = (b.top..=b.bottom)
        .map(|row| {
            (b.left..=b.right)
                .map(|col| match st.grid.get(Pos::new(row, col)) {
                    Some(c) => json!({
                        "id": setup.deck.cards[c.card as usize].id,
                        "face": st.face(c.card, c.up).name(),
                        "side": c.up.name(),
                    }),
                    None => Value::Null,
                })
                .collect()
        })
        .collect();
    json!({"top": b.top, "left": b.left, "width": b.width(), "height": b.height(), "rows": rows})
}

/// The final state in words: the table, each element's group, and the scores.
fn tail(setup: &Setup, st: &State) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "\nFinal table (rows and columns from the first card; CAPITALS: double cards):\n"
    );
    out.push_str(&picture(st));
    let _ = writeln!(out);
    for e in rank_elements(st) {
        let who = match (setup.goal, e.owner) {
            (Some(_), _) => String::new(),
            (None, Some(o)) => format!(" -> player {}", o + 1),
            (None, None) => " -> no player".to_string(),
        };
        let pts = if setup.goal.is_some() {
            String::new()
        } else {
            format!(", {} pts", e.points)
        };
        let _ = writeln!(
            out,
            "  {:<6} {:>2} face up, group of {}{pts}{who}",
            e.element.name(),
            e.count,
            e.group
        );
    }
    match setup.goal {
        Some(g) => {
            let met = goal_met(st, g);
            let _ = writeln!(
                out,
                "Solo goal {}: {}",
                g.name(),
                if met { "met" } else { "missed" }
            );
        }
        None => {
            for s in player_scores(st) {
                let _ = writeln!(
                    out,
                    "Player {}: {} point{} ({} face up)",
                    s.player + 1,
                    s.points,
                    if s.points == 1 { "" } else { "s" },
                    s.face_up
                );
            }
        }
    }
    out
}
