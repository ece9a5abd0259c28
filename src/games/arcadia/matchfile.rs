//! An Arcadia match as a file and as a report: the record's `options` (the quest setup and
//! both characters as written, the Day limit, and every card the match looked up) written
//! and read back, the match compiled from them, and the report `play` and `replay` print.

use crate::games::any::{Opened, opening};
use crate::games::owned::{OnSetup, Owned};
use serde_json::{Value, json};

use crate::cards::{Card, CardLookup};
use crate::games::arcadia::character::CharacterFile;
use crate::games::arcadia::engine::setup::NO_BASE;
use crate::games::arcadia::engine::state::{IN_HAND, WINNER_XP, mask};
use crate::games::arcadia::engine::{
    ArcadiaGame, Ended, Event, Match, State, Winner, events::side_name,
};
use crate::games::arcadia::setup::SetupFile;
use crate::games::build::{Keeping, cards_of, cards_value};
use crate::games::record::{MatchRecord, RecordError, replay_record};
use crate::games::report::{Line, Report};

/// The version of the Arcadia engine: a record of another is refused.
pub const ENGINE: u32 = 1;

/// What a match was compiled from, kept for its record.
#[derive(Debug, Clone, PartialEq)]
pub struct Source {
    pub setup: SetupFile,
    pub characters: Vec<CharacterFile>,
    pub day_limit: u32,
    /// Every card the compiling looked up (empty: a format-1 record, the catalogue's).
    pub cards: Vec<Card>,
}

/// Compiles `setup` with `characters`, the cards from `lookup`, keeping the cards it looked up.
pub fn compile(
    setup: &SetupFile,
    characters: &[CharacterFile],
    lookup: &dyn CardLookup,
    day_limit: u32,
) -> Result<(Match, Source), String> {
    let keeping = Keeping::new(lookup);
    let m = Match::new(setup, characters, &keeping, day_limit).map_err(|e| e.to_string())?;
    Ok((
        m,
        Source {
            setup: setup.clone(),
            characters: characters.to_vec(),
            day_limit,
            cards: keeping.into_kept(),
        },
    ))
}

fn table<T: serde::Serialize>(v: &T) -> toml::Table {
    toml::Table::try_from(v).expect("a file is plain data")
}

/// The record's `options` of a match compiled from `src`.
pub fn options(src: &Source) -> toml::Table {
    let mut o = toml::Table::new();
    o.insert("day_limit".into(), i64::from(src.day_limit).into());
    o.insert("setup".into(), table(&src.setup).into());
    o.insert(
        "characters".into(),
        toml::Value::Array(src.characters.iter().map(|c| table(c).into()).collect()),
    );
    o.insert("cards".into(), cards_value(&src.cards));
    o
}

/// What a record's `options` say the match was compiled from.
pub fn source_of(o: &toml::Table) -> Result<Source, RecordError> {
    let bad = RecordError::Options;
    let day_limit = o
        .get("day_limit")
        .and_then(toml::Value::as_integer)
        .and_then(|n| u32::try_from(n).ok())
        .filter(|n| (1..=100_000).contains(n))
        .ok_or_else(|| bad("`day_limit` is not a whole number from 1 to 100000".into()))?;
    let text = |v: &toml::Value, what: &str| -> Result<String, RecordError> {
        v.as_table()
            .map(|t| toml::to_string(t).expect("a table is plain data"))
            .ok_or_else(|| bad(format!("`{what}` is not a table")))
    };
    let setup = o.get("setup").ok_or_else(|| bad("no `setup`".into()))?;
    let setup = SetupFile::parse(&text(setup, "setup")?, "the record's setup")
        .map_err(|e| bad(e.to_string()))?;
    let characters = o
        .get("characters")
        .and_then(toml::Value::as_array)
        .ok_or_else(|| bad("no `characters` list".into()))?
        .iter()
        .enumerate()
        .map(|(i, v)| {
            let what = format!("the record's character {}", i + 1);
            CharacterFile::parse(&text(v, &what)?, &what).map_err(|e| bad(e.to_string()))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let cards = match o.get("cards") {
        Some(_) => cards_of(o, crate::cards::Game::Arcadia).map_err(bad)?,
        None => Vec::new(),
    };
    Ok(Source {
        setup,
        characters,
        day_limit,
        cards,
    })
}

/// The match a record's options describe: its cards the record's (a format-1 record keeps
/// none: they come from `lookup`).
pub fn compile_record(o: &toml::Table, lookup: &dyn CardLookup) -> Result<Match, RecordError> {
    let src = source_of(o)?;
    let lookup: &dyn CardLookup = if o.contains_key("cards") {
        &src.cards
    } else {
        lookup
    };
    Match::new(&src.setup, &src.characters, lookup, src.day_limit)
        .map_err(|e| RecordError::Options(e.to_string()))
}

/// Arcadia's positions, which borrow their [`Match`].
pub struct Arcadia;

impl OnSetup for Arcadia {
    type Setup = Match;
    type Game<'s> = ArcadiaGame<'s>;
}

/// The start of the match a record's options describe.
pub fn open(o: &toml::Table, lookup: &dyn CardLookup) -> Result<Opened, RecordError> {
    let mut log = Vec::new();
    let game = Owned::<Arcadia>::new(compile_record(o, lookup)?, |m| {
        ArcadiaGame::start(m, &mut log)
    });
    Ok(Opened {
        opening: opening(game.game(), &log),
        game: Box::new(game),
    })
}

/// Replays a record of an Arcadia match up to `to` inputs (all when `None`), each checked.
pub fn replay(
    r: &MatchRecord,
    to: Option<usize>,
    lookup: &dyn CardLookup,
) -> Result<Report, RecordError> {
    r.expect_game("arcadia")?;
    r.expect_engine(ENGINE)?;
    let m = compile_record(&r.options, lookup)?;
    let mut start_log = Vec::new();
    let start = ArcadiaGame::start(&m, &mut start_log);
    let done = replay_record(start, start_log, r, to)?;
    let log: Vec<Event> = done.log.into_iter().map(|(_, e)| e).collect();
    Ok(report(&m, &done.game.st, &log))
}

/// The report of a match at `st` with its whole `log`.
pub fn report(m: &Match, st: &State, log: &[Event]) -> Report {
    let (ended, _) = st.ended.unwrap_or((Ended::DiceExhausted, None));
    let json = crate::games::report::match_json(
        "arcadia",
        winner_json(st),
        ended,
        st.day,
        st.dice_used,
        sides_json(m, st),
        log.iter().map(|e| e.to_json_on(m, st)).collect(),
    );
    let lines = log
        .iter()
        .map(|e| {
            let kind = match e {
                Event::Day { .. } => Line::Heading,
                Event::End { .. } => Line::Apart,
                _ => Line::Item,
            };
            (kind, e.text_on(m, st))
        })
        .collect();
    Report {
        log: lines,
        tail: tail(m, st),
        json,
    }
}

/// The `sides` object: each player's character state.
fn sides_json(m: &Match, st: &State) -> Value {
    let side = |p: usize| {
        let pl = &m.players[p];
        let h = &st.heroes[p];
        let ids = |mask: u32| -> Vec<&str> {
            (0..pl.merits.len())
                .filter(|i| mask & (1 << i) != 0)
                .map(|i| pl.merits[i].id.as_str())
                .collect()
        };
        let won = matches!(st.ended, Some((_, Some(Winner::Player(w)))) if w as usize == p);
        let gained = if won { WINNER_XP } else { 0 };
        // Before its Base Camp is chosen (a setup laid in play) a character is nowhere.
        let placed = h.base != NO_BASE;
        let pos = st.pos(m, h.at);
        json!({
            "character": pl.name,
            "icon": pl.icon.id,
            "league": placed.then(|| m.leagues[h.at as usize].id.as_str()),
            "position": placed.then(|| json!({"x": pos.x, "y": pos.y})),
            "base_camp": m.leagues.get(h.base as usize).map(|l| l.id.as_str()),
            "at_base_camp": h.at == h.base,
            "merits": (0..pl.merits.len()).filter(|i| h.owned & (1 << i) != 0).map(|i| json!({
                "id": pl.merits[i].id,
                "exhausted": h.exhausted & (1 << i) != 0,
                "discarded": h.discarded & (1 << i) != 0,
                "found": i >= pl.own,
            })).collect::<Vec<_>>(),
            "merits_exhausted": ids(h.exhausted & h.owned),
            "merits_discarded": ids(h.discarded & h.owned),
            "flaws_exhausted": (0..pl.flaws.len()).filter(|i| h.flaws_exhausted & (1 << i) != 0)
                .map(|i| pl.flaws[i].id.as_str()).collect::<Vec<_>>(),
            "quests": pl.quests.iter().enumerate().map(|(i, q)| json!({
                "id": q.id, "done": h.quests_done & (1 << i) != 0,
                "failed": h.quests_failed & (1 << i) != 0
            })).collect::<Vec<_>>(),
            "quests_done": pl.quests.iter().enumerate().filter(|(i, _)| h.quests_done & (1 << i) != 0)
                .map(|(_, q)| q.id.as_str()).collect::<Vec<_>>(),
            "quests_failed": pl.quests.iter().enumerate().filter(|(i, _)| h.quests_failed & (1 << i) != 0)
                .map(|(_, q)| q.id.as_str()).collect::<Vec<_>>(),
            "treasures_found": ids(h.owned & !mask(pl.own)),
            "waylays_defeated": h.waylays_defeated,
            "waylays_in_hand": m.waylays.iter().enumerate()
                .filter(|(w, _)| m.waylay_owner[*w] as usize == p && st.waylay_at[*w] == IN_HAND)
                .map(|(_, w)| w.id.as_str()).collect::<Vec<_>>(),
            "skips_next_day": h.skip,
            "experience": pl.xp_earned + gained,
            "experience_gained": gained,
        })
    };
    json!({"a": side(0), "b": side(1)})
}

fn winner_json(st: &State) -> Value {
    match st.ended.and_then(|e| e.1) {
        Some(Winner::Player(p)) => json!(side_name(p)),
        Some(Winner::Draw) => json!("draw"),
        None => Value::Null,
    }
}

/// The final state in words: each character, then the Days and dice.
fn tail(m: &Match, st: &State) -> String {
    use std::fmt::Write;
    let mut out = String::from("\n");
    for p in 0..2usize {
        let pl = &m.players[p];
        let h = &st.heroes[p];
        let names = |mask: u32| -> String {
            let v: Vec<&str> = (0..pl.merits.len())
                .filter(|i| mask & (1 << i) != 0)
                .map(|i| pl.merits[i].name.as_str())
                .collect();
            if v.is_empty() {
                "none".into()
            } else {
                v.join(", ")
            }
        };
        let at = if h.base == NO_BASE {
            "no league yet".to_string()
        } else {
            st.league_label(m, h.at)
        };
        let _ = writeln!(out, "Side {} ({}): in {}", side_name(p as u8), pl.name, at);
        let _ = writeln!(out, "  ready:     {}", names(h.ready()));
        let _ = writeln!(out, "  exhausted: {}", names(h.exhausted & h.owned));
        let _ = writeln!(out, "  discarded: {}", names(h.discarded & h.owned));
        let _ = writeln!(
            out,
            "  quests done {}/{}, treasures found {}, waylays defeated {}",
            h.quests_done.count_ones(),
            pl.quests.len(),
            h.treasures_found,
            h.waylays_defeated
        );
        if h.quests_failed != 0 {
            let _ = writeln!(
                out,
                "  quests failed (time limit passed): {}",
                h.quests_failed.count_ones()
            );
        }
    }
    let _ = writeln!(
        out,
        "{}, {}",
        crate::count(st.day, "Day", "Days"),
        crate::count(st.dice_used, "die", "dice")
    );
    out
}
