//! The app's one door into the core: searching and listing cards, the collection, and the
//! construction rules of each game. Screens call these functions and hold no SQL and no
//! game rules themselves.

use rusqlite::Connection;

use super::docs::{CharacterDoc, PartyDoc, SetupDoc, SquadDoc};
use crate::cards::Card;
use crate::catalogue::{Catalogue, saved};

/// A card as a result list shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    pub id: String,
    pub game: String,
    pub kind: String,
    pub name: String,
    pub owned: i64,
}

/// A query the core could not read: its message and, when known, the 1-based column.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QueryError {
    pub message: String,
    pub column: Option<usize>,
}

/// Cards matching `text` (the query language of `docs/search.md`), at most `limit`.
pub fn search(conn: &Connection, text: &str, limit: usize) -> Result<Vec<Row>, QueryError> {
    let mut game = None;
    let mut kind = None;
    let mut words = Vec::new();
    for tok in text.split_whitespace() {
        if let Some(g) = tok.strip_prefix("game:") {
            game = Some(g.to_lowercase());
        } else if let Some(k) = tok.strip_prefix("kind:") {
            kind = Some(k.to_lowercase());
        } else if !tok.contains(':') {
            words.push(tok.trim_matches(|c| c == '(' || c == ')'));
        }
    }
    let words: Vec<&str> = words.into_iter().filter(|w| !w.is_empty()).collect();
    saved::list_cards(conn, game.as_deref(), kind.as_deref(), &words, limit)
        .map(|rows| {
            rows.into_iter()
                .map(|c| Row { id: c.id, game: c.game, kind: c.kind, name: c.name, owned: c.owned })
                .collect()
        })
        .map_err(|e| QueryError { message: e.to_string(), column: None })
}

/// The card with this id.
pub fn card(cat: &Catalogue, id: &str) -> Option<Card> {
    cat.get(id).ok().flatten()
}

/// The owned quantity of a card.
pub fn owned(cat: &Catalogue, id: &str) -> u32 {
    saved::owned(cat.conn(), id).unwrap_or(0)
}

/// Sets the owned quantity of a card.
pub fn set_owned(cat: &mut Catalogue, id: &str, quantity: u32) -> Result<(), String> {
    saved::set_owned(cat.conn(), id, quantity).map_err(|e| e.to_string())
}

/// Cards owned, all copies counted.
pub fn collection_total(cat: &Catalogue) -> u64 {
    saved::collection_total(cat.conn()).unwrap_or(0)
}

/// One broken construction rule, as the builders list it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    pub rule: String,
    pub message: String,
    /// The cards involved (ids, or entries as written when they name no card).
    pub cards: Vec<String>,
}

/// What a builder shows beside the violations: figures the rules derive (points...).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Figures {
    pub lines: Vec<(String, String)>,
    /// Points available / spent, for a bar (Arcadia characters).
    pub points: Option<(i64, i64)>,
}

/// A builder's verdict: violations and derived figures. `checked` is false while the
/// core has no rules for this kind of document.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Verdict {
    pub checked: bool,
    pub findings: Vec<Finding>,
    pub figures: Figures,
}

/// Checks a party alone.
pub fn check_party(_cat: &Catalogue, _party: &PartyDoc) -> Verdict {
    Verdict::default()
}

/// Checks the two parties of a match (each party's own rules and the shared rule).
pub fn check_match(_cat: &Catalogue, _a: &PartyDoc, _b: &PartyDoc) -> (Verdict, Verdict) {
    (Verdict::default(), Verdict::default())
}

/// Checks an Arcadia character and derives its points, court and experience.
pub fn check_character(_cat: &Catalogue, _c: &CharacterDoc) -> Verdict {
    Verdict::default()
}

/// Checks a quest setup; `characters` resolves a player's `character` entry to its document.
pub fn check_setup(_cat: &Catalogue, _s: &SetupDoc, _characters: &dyn Fn(&str) -> Option<CharacterDoc>) -> Verdict {
    Verdict::default()
}

/// Checks a Ruunara squad.
pub fn check_squad(_cat: &Catalogue, _s: &SquadDoc) -> Verdict {
    Verdict::default()
}

/// Imports card files and folders, all or nothing; a summary for the status bar.
pub fn import_cards(cat: &mut Catalogue, paths: &[std::path::PathBuf]) -> Result<String, String> {
    let _ = (cat, paths);
    Err("importing from the app needs the catalogue's import (not merged yet)".into())
}

/// Writes every card to `dir/<game>/<id>.toml`.
pub fn export_cards(cat: &Catalogue, dir: &std::path::Path) -> Result<String, String> {
    let _ = (cat, dir);
    Err("exporting from the app needs the catalogue's export (not merged yet)".into())
}

/// Reads owned quantities from a collection CSV, all or nothing.
pub fn import_collection(cat: &mut Catalogue, path: &std::path::Path) -> Result<String, String> {
    let _ = (cat, path);
    Err("the collection CSV needs the catalogue's collection module (not merged yet)".into())
}

/// Writes owned quantities to a collection CSV.
pub fn export_collection(cat: &Catalogue, path: &std::path::Path) -> Result<String, String> {
    let _ = (cat, path);
    Err("the collection CSV needs the catalogue's collection module (not merged yet)".into())
}

/// For each laid league of a setup (in order), whether its north, east, south and west
/// sides fit the neighbour there (`None`: no neighbour).
pub fn league_fits(_cat: &Catalogue, _s: &SetupDoc) -> Vec<[Option<bool>; 4]> {
    Vec::new()
}

/// The card drawn by the print renderer, for the preview (`None` when it cannot be drawn).
pub fn render_card(_cat: &Catalogue, _card: &Card) -> Option<egui::ColorImage> {
    None
}

/// Exports the cards (one copy per id) to a print-and-play PDF.
pub fn export_pdf(_cat: &Catalogue, _ids: &[String], _path: &std::path::Path, _crop_marks: bool) -> Result<String, String> {
    Err("PDF export needs the print module (not merged yet)".into())
}
