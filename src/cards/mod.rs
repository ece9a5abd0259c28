//! Cards of every game: the one `Card` type, strict loading from TOML with positioned
//! errors, writing back, and the fields search sees.
//!
//! Loading is two steps: the `game` and `kind` keys pick the format, then the whole file is
//! read into that format's struct, which rejects unknown keys, wrong types and values
//! outside their set. `problems()` of each format adds the checks types cannot express
//! (roll coverage, tile values...). Every error names the file, line, column and key.

mod error;
pub(crate) mod locate;
pub mod templates;

use std::borrow::Cow;
use std::fmt;

use serde::Deserialize;

pub use error::{CardError, Problem};

use crate::games::arcadia::model::{self as arc, ArcadiaCard};
use crate::games::iconica::model::Character;
use crate::games::iconoclasm::model::{ClashTable, ElementCard};
use crate::games::ruunara::model::Figure;

/// The four games deckwright knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Game {
    Iconica,
    Arcadia,
    Iconoclasm,
    Ruunara,
}

impl Game {
    pub const ALL: [Game; 4] = [
        Game::Iconica,
        Game::Arcadia,
        Game::Iconoclasm,
        Game::Ruunara,
    ];

    /// The lower-case name used in files, folders and queries.
    pub fn as_str(self) -> &'static str {
        match self {
            Game::Iconica => "iconica",
            Game::Arcadia => "arcadia",
            Game::Iconoclasm => "iconoclasm",
            Game::Ruunara => "ruunara",
        }
    }

    /// The name shown to people.
    pub fn title(self) -> &'static str {
        match self {
            Game::Iconica => "Iconica",
            Game::Arcadia => "Arcadia",
            Game::Iconoclasm => "Iconoclasm",
            Game::Ruunara => "Ruunara",
        }
    }

    pub fn parse(s: &str) -> Option<Game> {
        Game::ALL.into_iter().find(|g| g.as_str() == s)
    }

    /// The card kinds this game has (Iconoclasm's clash table is a file, not a card).
    pub fn kinds(self) -> &'static [&'static str] {
        match self {
            Game::Iconica => &["character"],
            Game::Arcadia => &arc::KINDS,
            Game::Iconoclasm => &["element"],
            Game::Ruunara => &["hero", "unit"],
        }
    }
}

impl fmt::Display for Game {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One card of any game. Cards are held in lists of one game each, where the variants'
/// different sizes cost little; boxing them would cost an allocation per card.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq)]
pub enum Card {
    Iconica(Character),
    Arcadia(ArcadiaCard),
    Iconoclasm(ElementCard),
    Ruunara(Figure),
}

/// What a card file holds: a card, or Iconoclasm's clash table.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq)]
pub enum CardFile {
    Card(Card),
    Clashes(ClashTable),
}

/// A value of a searchable field.
#[derive(Debug, Clone, PartialEq)]
pub enum FieldValue {
    Text(String),
    Num(f64),
}

impl Card {
    pub fn game(&self) -> Game {
        match self {
            Card::Iconica(_) => Game::Iconica,
            Card::Arcadia(_) => Game::Arcadia,
            Card::Iconoclasm(_) => Game::Iconoclasm,
            Card::Ruunara(_) => Game::Ruunara,
        }
    }

    pub fn id(&self) -> &str {
        match self {
            Card::Iconica(c) => &c.id,
            Card::Arcadia(c) => c.common().0,
            Card::Iconoclasm(c) => &c.id,
            Card::Ruunara(c) => &c.id,
        }
    }

    pub fn name(&self) -> &str {
        match self {
            Card::Iconica(c) => &c.name,
            Card::Arcadia(c) => c.common().1,
            Card::Iconoclasm(c) => &c.name,
            Card::Ruunara(c) => &c.name,
        }
    }

    pub fn kind(&self) -> &'static str {
        match self {
            Card::Iconica(_) => "character",
            Card::Arcadia(c) => c.kind(),
            Card::Iconoclasm(_) => "element",
            Card::Ruunara(f) => match f.kind {
                crate::games::ruunara::model::FigureKind::Hero => "hero",
                crate::games::ruunara::model::FigureKind::Unit => "unit",
            },
        }
    }

    /// The card's picture file as written in the card (`art`; `portrait` on an Arcadia
    /// merit, whose `art` names its art), if any.
    pub fn art(&self) -> Option<&str> {
        match self {
            Card::Iconica(c) => c.portrait.as_deref(),
            Card::Arcadia(a) => match a {
                ArcadiaCard::Icon(x) => x.art.as_deref(),
                ArcadiaCard::Merit(x) => x.portrait.as_deref(),
                ArcadiaCard::Flaw(x) => x.art.as_deref(),
                ArcadiaCard::Waylay(x) => x.art.as_deref(),
                ArcadiaCard::League(x) => x.art.as_deref(),
                ArcadiaCard::Quest(x) => x.art.as_deref(),
            },
            Card::Ruunara(f) => f.art.as_deref(),
            Card::Iconoclasm(e) => e.art.as_deref(),
        }
    }

    /// Sets (or removes) the card's picture file.
    pub fn set_art(&mut self, art: Option<String>) {
        match self {
            Card::Iconica(c) => c.portrait = art,
            Card::Arcadia(a) => match a {
                ArcadiaCard::Icon(x) => x.art = art,
                ArcadiaCard::Merit(x) => x.portrait = art,
                ArcadiaCard::Flaw(x) => x.art = art,
                ArcadiaCard::Waylay(x) => x.art = art,
                ArcadiaCard::League(x) => x.art = art,
                ArcadiaCard::Quest(x) => x.art = art,
            },
            Card::Ruunara(f) => f.art = art,
            Card::Iconoclasm(e) => e.art = art,
        }
    }

    /// Every text of the card (names of actions and skills included), for free-text search.
    pub fn texts(&self) -> Vec<&str> {
        match self {
            Card::Iconica(c) => c.texts(),
            Card::Arcadia(c) => c.texts(),
            Card::Iconoclasm(_) => Vec::new(),
            Card::Ruunara(c) => c.texts(),
        }
    }

    /// The card as the TOML file it is written to (`cards/<game>/<id>.toml`).
    pub fn to_toml(&self) -> String {
        let r = match self {
            Card::Iconica(c) => toml::to_string(c),
            Card::Arcadia(c) => match c {
                ArcadiaCard::Icon(x) => toml::to_string(x),
                ArcadiaCard::Merit(x) => toml::to_string(x),
                ArcadiaCard::Flaw(x) => toml::to_string(x),
                ArcadiaCard::Waylay(x) => toml::to_string(x),
                ArcadiaCard::League(x) => toml::to_string(x),
                ArcadiaCard::Quest(x) => toml::to_string(x),
            },
            Card::Iconoclasm(c) => toml::to_string(c),
            Card::Ruunara(c) => toml::to_string(c),
        };
        r.expect("every card format serialises to TOML")
    }

    /// The card as JSON (its TOML keys, same shape).
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::to_value(self.to_value()).expect("TOML values are JSON values")
    }

    /// The card as a TOML value (a table of its keys), without going through text.
    pub fn to_value(&self) -> toml::Value {
        let r = match self {
            Card::Iconica(c) => toml::Value::try_from(c),
            Card::Arcadia(c) => match c {
                ArcadiaCard::Icon(x) => toml::Value::try_from(x),
                ArcadiaCard::Merit(x) => toml::Value::try_from(x),
                ArcadiaCard::Flaw(x) => toml::Value::try_from(x),
                ArcadiaCard::Waylay(x) => toml::Value::try_from(x),
                ArcadiaCard::League(x) => toml::Value::try_from(x),
                ArcadiaCard::Quest(x) => toml::Value::try_from(x),
            },
            Card::Iconoclasm(c) => toml::Value::try_from(c),
            Card::Ruunara(c) => toml::Value::try_from(c),
        };
        r.expect("every card format serialises to TOML")
    }

    /// The searchable fields: every top-level key of the card's format under its own name,
    /// lists giving one value per member; Iconica's `health` is its Start value.
    pub fn fields(&self) -> Vec<(String, FieldValue)> {
        let mut out = Vec::new();
        let toml::Value::Table(map) = self.to_value() else {
            return out;
        };
        for (k, v) in &map {
            push_field(&mut out, k, v);
        }
        if let Card::Iconica(c) = self {
            out.push(("health".into(), FieldValue::Num(c.health.start as f64)));
        }
        out
    }

    fn problems(&self) -> Vec<Problem> {
        match self {
            Card::Iconica(c) => c.problems(),
            Card::Arcadia(c) => c.problems(),
            Card::Iconoclasm(_) => Vec::new(),
            Card::Ruunara(c) => c.problems(),
        }
    }
}

fn push_field(out: &mut Vec<(String, FieldValue)>, key: &str, v: &toml::Value) {
    match v {
        toml::Value::String(s) => out.push((key.to_string(), FieldValue::Text(s.clone()))),
        toml::Value::Integer(n) => out.push((key.to_string(), FieldValue::Num(*n as f64))),
        toml::Value::Float(f) => out.push((key.to_string(), FieldValue::Num(*f))),
        toml::Value::Boolean(b) => out.push((key.to_string(), FieldValue::Text(b.to_string()))),
        toml::Value::Array(items) => {
            for i in items {
                if !i.is_table() && !i.is_array() {
                    push_field(out, key, i);
                }
            }
        }
        toml::Value::Datetime(d) => out.push((key.to_string(), FieldValue::Text(d.to_string()))),
        toml::Value::Table(_) => {}
    }
}

/// The longest card id, in characters (ids are also file names: `<id>.toml`).
pub const MAX_ID_LEN: usize = 64;
/// The longest card name, in characters.
pub const MAX_NAME_LEN: usize = 200;
/// The longest text value of a card (rules text, flavour, a portrait path), in characters.
pub const MAX_TEXT_LEN: usize = 4000;
/// The most entries of any list of a card (actions, tiles, effects, ...).
pub const MAX_LIST_LEN: usize = 256;
/// Every whole number of a card lies in `-MAX_NUMBER..=MAX_NUMBER` (each game may bound a
/// value further, e.g. Iconica's `start` to 1270).
pub const MAX_NUMBER: i64 = 10_000;

/// Is this a valid card id (`[a-z0-9-]+`, at most [`MAX_ID_LEN`] characters)?
pub fn valid_id(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= MAX_ID_LEN
        && id
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
}

/// The first value of `card` outside the bounds every card keeps (text lengths, list
/// lengths, numbers): the key path and what is wrong.
fn bounds_problem(card: &Card) -> Option<Problem> {
    fn walk(v: &toml::Value, path: &mut Vec<String>, out: &mut Option<Problem>) {
        if out.is_some() {
            return;
        }
        let key = path.last().cloned().unwrap_or_default();
        fn refs(path: &[String]) -> Vec<&str> {
            path.iter().map(String::as_str).collect()
        }
        match v {
            toml::Value::String(s) => {
                let max = if key == "name" {
                    MAX_NAME_LEN
                } else {
                    MAX_TEXT_LEN
                };
                let n = s.chars().count();
                if n > max {
                    *out = Some(Problem::at(
                        &refs(path),
                        format!("`{key}` is {n} characters long; at most {max}"),
                    ));
                }
            }
            toml::Value::Integer(n) => {
                if n.unsigned_abs() > MAX_NUMBER as u64 {
                    *out = Some(Problem::at(
                        &refs(path),
                        format!(
                            "`{key}` is {n}; numbers of a card lie between -{MAX_NUMBER} and {MAX_NUMBER}"
                        ),
                    ));
                }
            }
            toml::Value::Float(f) => {
                if !f.is_finite() || f.abs() > MAX_NUMBER as f64 {
                    *out = Some(Problem::at(
                        &refs(path),
                        format!(
                            "`{key}` is {f}; numbers of a card lie between -{MAX_NUMBER} and {MAX_NUMBER}"
                        ),
                    ));
                }
            }
            toml::Value::Array(items) => {
                if items.len() > MAX_LIST_LEN {
                    *out = Some(Problem::at(
                        &refs(path),
                        format!(
                            "`{key}` lists {} entries; at most {MAX_LIST_LEN}",
                            items.len()
                        ),
                    ));
                    return;
                }
                for (i, item) in items.iter().enumerate() {
                    if item.is_table() {
                        path.pop();
                        path.push(format!("{key}[{i}]"));
                        walk(item, path, out);
                        path.pop();
                        path.push(key.clone());
                    } else {
                        walk(item, path, out);
                    }
                }
            }
            toml::Value::Table(t) => {
                if t.len() > MAX_LIST_LEN {
                    *out = Some(Problem::at(
                        &refs(path),
                        format!("`{key}` has {} keys; at most {MAX_LIST_LEN}", t.len()),
                    ));
                    return;
                }
                for (k, item) in t {
                    if k.chars().count() > MAX_NAME_LEN {
                        *out = Some(Problem::at(
                            &refs(path),
                            format!(
                                "a key of `{key}` is {} characters long; at most {MAX_NAME_LEN}",
                                k.chars().count()
                            ),
                        ));
                        return;
                    }
                    path.push(k.clone());
                    walk(item, path, out);
                    path.pop();
                }
            }
            toml::Value::Boolean(_) | toml::Value::Datetime(_) => {}
        }
    }
    let mut out = None;
    walk(&card.to_value(), &mut Vec::new(), &mut out);
    out
}

#[derive(Deserialize)]
struct Header {
    game: Option<toml::Value>,
    kind: Option<toml::Value>,
    id: Option<toml::Value>,
}

/// Reads one card file. `file` is only used to name the file in errors.
pub fn parse(text: &str, file: &str) -> Result<CardFile, CardError> {
    // One byte-order mark is an editor's and dropped when the file is read; another one
    // after it is not TOML (the TOML reader skips it, so it is refused here).
    if text.starts_with('\u{feff}') {
        return Err(CardError::at(
            file,
            text,
            &[],
            "a second byte-order mark (U+FEFF) at the start of the file; a card file starts with at most one".into(),
        ));
    }
    let header: Header = toml::from_str(text).map_err(|e| CardError::from_toml(file, text, &e))?;
    let at = |path: &[&str], msg: String| CardError::at(file, text, path, msg);
    let game = match &header.game {
        Some(toml::Value::String(g)) => Game::parse(g).ok_or_else(|| {
            at(
                &["game"],
                format!("unknown game `{g}`; expected iconica, arcadia, iconoclasm or ruunara"),
            )
        })?,
        Some(_) => return Err(at(&["game"], "`game` must be a string".into())),
        None => {
            return Err(at(
                &[],
                "missing key `game` (iconica, arcadia, iconoclasm or ruunara)".into(),
            ));
        }
    };
    let kind = match &header.kind {
        Some(toml::Value::String(k)) => k.clone(),
        Some(_) => return Err(at(&["kind"], "`kind` must be a string".into())),
        None => {
            return Err(at(
                &[],
                format!("missing key `kind` ({})", game.kinds().join(", ")),
            ));
        }
    };
    if game == Game::Iconoclasm && kind == "clashes" {
        let table: ClashTable = from_toml(text, file)?;
        return match table.problems().into_iter().next() {
            Some(p) => Err(CardError::at(file, text, &p.path_refs(), p.message.clone())),
            None => Ok(CardFile::Clashes(table)),
        };
    }
    if !game.kinds().contains(&kind.as_str()) {
        return Err(at(
            &["kind"],
            format!(
                "{} has no card kind `{kind}`; expected {}",
                game.title(),
                game.kinds().join(", ")
            ),
        ));
    }
    match &header.id {
        Some(toml::Value::String(id)) if valid_id(id) => {}
        Some(toml::Value::String(id)) if id.len() > MAX_ID_LEN => {
            return Err(at(
                &["id"],
                format!(
                    "id `{}` is {} characters long; at most {MAX_ID_LEN}",
                    crate::safe_io::excerpt(id, 40),
                    id.chars().count()
                ),
            ));
        }
        Some(toml::Value::String(id)) => {
            return Err(at(
                &["id"],
                format!(
                    "id `{}` may hold only a-z, 0-9 and -",
                    crate::safe_io::excerpt(id, 40)
                ),
            ));
        }
        Some(_) => return Err(at(&["id"], "`id` must be a string".into())),
        None => return Err(at(&[], "missing key `id`".into())),
    }
    let card = match game {
        Game::Iconica => Card::Iconica(from_toml(text, file)?),
        Game::Arcadia => Card::Arcadia(match kind.as_str() {
            "icon" => ArcadiaCard::Icon(from_toml(text, file)?),
            "merit" => ArcadiaCard::Merit(from_toml(text, file)?),
            "flaw" => ArcadiaCard::Flaw(from_toml(text, file)?),
            "waylay" => ArcadiaCard::Waylay(from_toml(text, file)?),
            "league" => ArcadiaCard::League(from_toml(text, file)?),
            _ => ArcadiaCard::Quest(from_toml(text, file)?),
        }),
        Game::Iconoclasm => Card::Iconoclasm(from_toml(text, file)?),
        Game::Ruunara => Card::Ruunara(from_toml(text, file)?),
    };
    if let Some(p) = card
        .problems()
        .into_iter()
        .next()
        .or_else(|| bounds_problem(&card))
    {
        return Err(CardError::at(file, text, &p.path_refs(), p.message.clone()));
    }
    Ok(CardFile::Card(card))
}

/// 1-based line and column where the key at `path` (tables, then the key; `name[i]` for the
/// i-th `[[name]]`) is written in `text`, as errors report it.
pub fn key_position(text: &str, path: &[&str]) -> (usize, usize) {
    locate::find_key(text, path)
}

/// Reads a file that must hold a card (not a clash table).
pub fn parse_card(text: &str, file: &str) -> Result<Card, CardError> {
    match parse(text, file)? {
        CardFile::Card(c) => Ok(c),
        CardFile::Clashes(_) => Err(CardError::at(
            file,
            text,
            &["kind"],
            "expected a card, found the clash table".into(),
        )),
    }
}

fn from_toml<T: serde::de::DeserializeOwned>(text: &str, file: &str) -> Result<T, CardError> {
    toml::from_str(text).map_err(|e| CardError::from_toml(file, text, &e))
}

impl ClashTable {
    pub fn to_toml(&self) -> String {
        toml::to_string(self).expect("the clash table serialises")
    }
}

/// Finds cards by id or name: the catalogue, or a plain list in tests.
pub trait CardLookup {
    /// The card with this id, of any game.
    fn card(&self, id: &str) -> Option<Cow<'_, Card>>;
    /// The cards of a game with exactly this (case-sensitive) name.
    fn cards_named(&self, game: Game, name: &str) -> Vec<Cow<'_, Card>>;
    /// A failure of the lookup itself since the last call (a catalogue that could not be
    /// read): `card` and `cards_named` then answered "none", which is not the truth, so a
    /// caller reports this error instead of "unknown card". Lists in memory never fail.
    fn take_error(&self) -> Option<Box<dyn std::error::Error + Send + Sync>> {
        None
    }
}

impl CardLookup for [Card] {
    fn card(&self, id: &str) -> Option<Cow<'_, Card>> {
        self.iter().find(|c| c.id() == id).map(Cow::Borrowed)
    }
    fn cards_named(&self, game: Game, name: &str) -> Vec<Cow<'_, Card>> {
        self.iter()
            .filter(|c| c.game() == game && c.name() == name)
            .map(Cow::Borrowed)
            .collect()
    }
}

impl CardLookup for Vec<Card> {
    fn card(&self, id: &str) -> Option<Cow<'_, Card>> {
        self.as_slice().card(id)
    }
    fn cards_named(&self, game: Game, name: &str) -> Vec<Cow<'_, Card>> {
        self.as_slice().cards_named(game, name)
    }
}

/// The starter cards built into the binary: (path under `cards/`, file text).
pub fn bundled() -> Vec<(String, &'static str)> {
    static DIR: include_dir::Dir<'static> = include_dir::include_dir!("$CARGO_MANIFEST_DIR/cards");
    let mut out = Vec::new();
    let mut stack = vec![&DIR];
    while let Some(d) = stack.pop() {
        for e in d.entries() {
            match e {
                include_dir::DirEntry::Dir(sub) => stack.push(sub),
                include_dir::DirEntry::File(f) => {
                    if f.path().extension().is_some_and(|x| x == "toml")
                        && let Some(t) = f.contents_utf8()
                    {
                        out.push((format!("cards/{}", f.path().display()), t));
                    }
                }
            }
        }
    }
    out.sort();
    out
}
