//! What to print: a command-line selection (card ids, a search query, or party, character,
//! setup and squad files) resolved to cards, and `--copies` applied.
//!
//! Files are read with a small TOML read of the keys that name cards (`members`, `icon`,
//! `merits`, `flaws`, `players`, `leagues`); their construction rules are not checked here.

use std::path::{Path, PathBuf};

use crate::cards::{self, Card, CardLookup, Game};
use crate::catalogue::Catalogue;

/// Why a selection cannot be printed.
#[derive(Debug, thiserror::Error)]
pub enum SelectionError {
    #[error("unknown card id{} {}; check the spelling with `deckwright search`", if .0.len() > 1 { "s" } else { "" }, .0.iter().map(|i| format!("`{i}`")).collect::<Vec<_>>().join(", "))]
    UnknownIds(Vec<String>),
    #[error("{file}: unknown card `{member}` (not a card id, nor the exact name of a {game} card)")]
    UnknownMember { file: String, member: String, game: String },
    #[error("{file}: {message}")]
    File { file: String, message: String },
    #[error("the selection `{0}` matches no card, so there is nothing to print")]
    Empty(String),
    #[error("{0}")]
    Query(String),
    #[error("catalogue: {0}")]
    Catalogue(#[from] crate::catalogue::CatalogueError),
}

/// A search: the ids of the cards a query matches, in order.
pub type QueryFn<'a> = dyn Fn(&str) -> Result<Vec<String>, String> + 'a;

/// Resolves the selection arguments to cards, in order (a card listed twice prints twice).
///
/// Arguments that are files (existing paths, or anything ending in `.toml`) are read as
/// party, character, setup or squad files. Otherwise, if every argument looks like a card id
/// and at least one is in the catalogue, they are a list of ids and each must exist; else
/// the arguments, joined by spaces, are a search query.
pub fn resolve(cat: &Catalogue, args: &[String], query: &QueryFn<'_>) -> Result<Vec<Card>, SelectionError> {
    let shown = args.join(" ");
    let is_file = |a: &String| a.ends_with(".toml") || Path::new(a).is_file();
    let mut out = Vec::new();
    if !args.is_empty() && args.iter().all(is_file) {
        for a in args {
            out.extend(from_file(cat, Path::new(a))?);
        }
    } else if !args.is_empty() && args.iter().all(|a| cards::valid_id(a)) && any_known(cat, args)? {
        let mut unknown = Vec::new();
        for a in args {
            match cat.get(a)? {
                Some(c) => out.push(c),
                None => unknown.push(a.clone()),
            }
        }
        if !unknown.is_empty() {
            return Err(SelectionError::UnknownIds(unknown));
        }
    } else {
        let ids = query(&shown).map_err(SelectionError::Query)?;
        for id in ids {
            if let Some(c) = cat.get(&id)? {
                out.push(c);
            }
        }
        if out.is_empty() && args.iter().all(|a| cards::valid_id(a)) {
            return Err(SelectionError::UnknownIds(args.to_vec()));
        }
    }
    if out.is_empty() {
        return Err(SelectionError::Empty(shown));
    }
    Ok(out)
}

fn any_known(cat: &Catalogue, args: &[String]) -> Result<bool, SelectionError> {
    for a in args {
        if cat.get(a)?.is_some() {
            return Ok(true);
        }
    }
    Ok(false)
}

fn file_err(file: &Path, message: impl Into<String>) -> SelectionError {
    SelectionError::File { file: file.display().to_string(), message: message.into() }
}

/// The cards a party, character, setup or squad file names, in file order.
pub fn from_file(cat: &Catalogue, path: &Path) -> Result<Vec<Card>, SelectionError> {
    let text = std::fs::read_to_string(path).map_err(|e| file_err(path, format!("cannot read it: {e}")))?;
    let table: toml::Table = text.parse().map_err(|e: toml::de::Error| {
        let (line, col) = e.span().map(|s| line_col(&text, s.start)).unwrap_or((1, 1));
        file_err(path, format!("line {line}, column {col}: {}", e.message()))
    })?;
    let game = match table.get("game").and_then(|g| g.as_str()) {
        Some(g) => Game::parse(g).ok_or_else(|| file_err(path, format!("unknown game `{g}`")))?,
        None => return Err(file_err(path, "missing key `game`; expected a party, character, setup or squad file")),
    };
    let mut out = Vec::new();
    if let Some(members) = table.get("members") {
        for m in strings(path, "members", members)? {
            out.push(member(cat, path, game, &m)?);
        }
    } else if table.contains_key("icon") || table.contains_key("merits") || table.contains_key("flaws") {
        out.extend(character_cards(cat, path, &table, game)?);
    } else if table.contains_key("players") || table.contains_key("leagues") {
        let base = path.parent().map(Path::to_path_buf).unwrap_or_else(|| PathBuf::from("."));
        if let Some(players) = table.get("players").and_then(|p| p.as_array()) {
            for p in players {
                let Some(p) = p.as_table() else { continue };
                if let Some(ch) = p.get("character").and_then(|c| c.as_str()) {
                    out.extend(from_file(cat, &base.join(ch))?);
                }
                for key in ["quests", "waylays", "treasures"] {
                    if let Some(v) = p.get(key) {
                        for id in strings(path, key, v)? {
                            out.push(member(cat, path, game, &id)?);
                        }
                    }
                }
            }
        }
        if let Some(leagues) = table.get("leagues").and_then(|l| l.as_array()) {
            for l in leagues {
                if let Some(id) = l.as_table().and_then(|t| t.get("id")).and_then(|i| i.as_str()) {
                    out.push(member(cat, path, game, id)?);
                }
            }
        }
    } else {
        return Err(file_err(path, "names no cards: expected `members` (party, squad), `icon`/`merits`/`flaws` (character) or `players`/`leagues` (setup)"));
    }
    Ok(out)
}

fn character_cards(cat: &Catalogue, path: &Path, t: &toml::Table, game: Game) -> Result<Vec<Card>, SelectionError> {
    let mut out = Vec::new();
    if let Some(icon) = t.get("icon") {
        let id = icon.as_str().ok_or_else(|| file_err(path, "`icon` must be a card id"))?;
        out.push(member(cat, path, game, id)?);
    }
    for key in ["merits", "flaws"] {
        if let Some(v) = t.get(key) {
            for id in strings(path, key, v)? {
                out.push(member(cat, path, game, &id)?);
            }
        }
    }
    Ok(out)
}

fn strings(path: &Path, key: &str, v: &toml::Value) -> Result<Vec<String>, SelectionError> {
    let arr = v.as_array().ok_or_else(|| file_err(path, format!("`{key}` must be a list of card ids")))?;
    arr.iter()
        .map(|x| x.as_str().map(str::to_string).ok_or_else(|| file_err(path, format!("`{key}` must hold strings"))))
        .collect()
}

/// A member matches a card id first, then an exact card name of the file's game.
fn member(cat: &Catalogue, path: &Path, game: Game, m: &str) -> Result<Card, SelectionError> {
    if let Some(c) = cat.get(m)? {
        return Ok(c);
    }
    let named = cat.cards_named(game, m);
    if named.len() == 1 {
        return Ok(named[0].clone().into_owned());
    }
    Err(SelectionError::UnknownMember { file: path.display().to_string(), member: m.to_string(), game: game.title().to_string() })
}

fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, col)
}

/// How many copies of each card to print.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Copies {
    /// Each selected card `n` times.
    Each(u32),
    /// As many as the collection holds (cards not owned are left out).
    Owned,
}

impl Copies {
    pub fn parse(s: &str) -> Option<Copies> {
        if s.eq_ignore_ascii_case("owned") {
            return Some(Copies::Owned);
        }
        s.parse::<u32>().ok().filter(|n| (1..=1000).contains(n)).map(Copies::Each)
    }
}

/// Repeats each card as `copies` asks, keeping the selection's order.
pub fn apply_copies(cat: &Catalogue, cards: Vec<Card>, copies: Copies) -> Result<Vec<Card>, SelectionError> {
    let mut out = Vec::new();
    for c in cards {
        let n = match copies {
            Copies::Each(n) => n as i64,
            Copies::Owned => {
                use rusqlite::OptionalExtension;
                cat.conn()
                    .query_row("SELECT quantity FROM collection WHERE card_id = ?1", [c.id()], |r| r.get::<_, i64>(0))
                    .optional()
                    .map_err(crate::catalogue::CatalogueError::from)?
                    .unwrap_or(0)
            }
        };
        for _ in 0..n.max(0) {
            out.push(c.clone());
        }
    }
    Ok(out)
}
