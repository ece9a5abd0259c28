//! The app's one door into the core: searching and listing cards, the collection, and the
//! construction rules of each game. Screens call these functions and hold no SQL and no
//! game rules themselves.

use std::path::PathBuf;

use crate::cards::templates::{self, Template};
use crate::cards::{Card, CardError};
use crate::catalogue::Catalogue;
use crate::games::arcadia::character::CharacterFile;
use crate::games::arcadia::model::{ArcadiaCard, Sides};
use crate::games::arcadia::rules::CourtBasis;
use crate::games::arcadia::setup::SetupFile;
use crate::games::build::Violation;
use crate::games::iconica::party::PartyFile;
use crate::games::ruunara::squad::SquadFile;
use crate::games::{arcadia, iconica, ruunara};

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

/// Why an app action failed: the core's typed error, kept whole (its causes are shown by
/// [`AppError::chain`]).
#[derive(Debug, thiserror::Error)]
pub enum AppError {
    #[error(transparent)]
    Catalogue(#[from] crate::catalogue::CatalogueError),
    #[error(transparent)]
    Import(#[from] crate::catalogue::ImportError),
    #[error(transparent)]
    Collection(#[from] crate::catalogue::CollectionError),
    #[error(transparent)]
    Card(#[from] CardError),
    #[error(transparent)]
    Export(#[from] crate::print::export::ExportError),
    #[error(transparent)]
    Layout(#[from] crate::print::layout::LayoutError),
    /// A file the action wrote.
    #[error("{}: cannot write the file", path.display())]
    Write {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// A card of the selection is not in the catalogue.
    #[error("`{0}` is not in the catalogue; remove it from the selection")]
    NotInCatalogue(String),
    /// A paper name the print layout does not know.
    #[error("unknown paper `{0}`")]
    UnknownPaper(String),
    /// A card size the print layout does not know.
    #[error("unknown card size `{0}`")]
    UnknownCardSize(String),
    /// An action the app refuses, with its reason.
    #[error("{0}")]
    Refused(String),
}

/// For the screens whose messages are plain text: the error with its whole chain.
impl From<AppError> for String {
    fn from(e: AppError) -> String {
        e.chain()
    }
}

impl AppError {
    /// The message with every cause (each once): what the app shows.
    pub fn chain(&self) -> String {
        crate::error_chain(self)
    }
}

/// Cards matching `text` (the query language of `docs/search.md`), at most `limit`.
pub fn search(cat: &Catalogue, text: &str, limit: usize) -> Result<Vec<Row>, QueryError> {
    cat.search(text, Some(limit))
        .map(|hits| {
            hits.into_iter()
                .map(|h| Row {
                    id: h.id,
                    game: h.game,
                    kind: h.kind,
                    name: h.name,
                    owned: h.owned,
                })
                .collect()
        })
        .map_err(|e| QueryError {
            column: e.column(),
            message: e.to_string(),
        })
}

/// Checks the query syntax alone (no catalogue): the error with its column, if any.
pub fn query_syntax(text: &str) -> Option<QueryError> {
    crate::search::parse(text).err().map(|e| QueryError {
        column: Some(e.column),
        message: e.message,
    })
}

/// The catalogue's Iconoclasm deck and clash table (the table is data a user may correct), as
/// `deckwright play iconoclasm` and the Match screen deal from.
pub fn iconoclasm_deck(
    cat: &Catalogue,
) -> Result<
    (
        crate::games::iconoclasm::engine::Deck,
        crate::games::iconoclasm::model::ClashTable,
    ),
    String,
> {
    let table = cat
        .clash_table()
        .map_err(|e| format!("the catalogue's clash table: {e}"))?;
    let cards = cat
        .all()
        .map_err(|e| format!("reading the catalogue: {e}"))?;
    crate::games::iconoclasm::matchfile::deck(&cards, table)
        .map_err(|e| format!("the catalogue's {e}"))
}

/// A game of `players` dealt with `seed` from the catalogue's deck (as `play iconoclasm`
/// deals it).
pub fn iconoclasm_setup(
    cat: &Catalogue,
    players: u8,
    seed: u64,
) -> Result<crate::games::iconoclasm::engine::Setup, String> {
    iconoclasm_dealt(cat, players, seed).map(|(setup, _)| setup)
}

/// [`iconoclasm_setup`], and the clash table it was dealt with (what its record keeps).
pub fn iconoclasm_dealt(
    cat: &Catalogue,
    players: u8,
    seed: u64,
) -> Result<
    (
        crate::games::iconoclasm::engine::Setup,
        crate::games::iconoclasm::model::ClashTable,
    ),
    String,
> {
    use rand::SeedableRng;
    let (deck, table) = iconoclasm_deck(cat)?;
    let setup = crate::games::iconoclasm::engine::deal(
        deck,
        &table,
        players,
        crate::games::iconoclasm::engine::Goal::Dominance,
        &mut rand_chacha::ChaCha8Rng::seed_from_u64(crate::sim::derive_seed(seed, 0)),
    )
    .map_err(|e| e.to_string())?;
    Ok((setup, table))
}

/// The card with this id.
pub fn card(cat: &Catalogue, id: &str) -> Option<Card> {
    cat.get(id).ok().flatten()
}

/// What a picker shows beside a card's name so that a choice can be made from the list: a
/// merit's type and cost, a league's side features (`N road · E road, city-wall · ...`), a
/// quest's or waylay's rating. `None` for cards whose name says enough.
pub fn card_facts(card: &Card) -> Option<String> {
    let Card::Arcadia(c) = card else { return None };
    match c {
        ArcadiaCard::Merit(m) => Some(format!("{}, cost {}", m.merit_type.as_str(), m.cost)),
        ArcadiaCard::League(l) => Some(side_features(&l.sides)),
        ArcadiaCard::Waylay(w) => Some(format!("rating {}", w.rating)),
        ArcadiaCard::Quest(q) => Some(format!(
            "waylays {}, treasures {}",
            q.waylay_rating, q.treasure_rating
        )),
        ArcadiaCard::Flaw(f) => Some(format!("{} points", f.points)),
        ArcadiaCard::Icon(_) => None,
    }
}

/// A league's side features in words, clockwise from the top: `N city-wall · E road, ...`.
pub fn side_features(sides: &Sides) -> String {
    use crate::games::arcadia::model::Side;
    Side::ALL
        .iter()
        .zip(["N", "E", "S", "W"])
        .map(|(&side, letter)| format!("{letter} {}", sides.get(side).join(", ")))
        .collect::<Vec<_>>()
        .join(" · ")
}

/// The side features of league `id` (north, east, south, west), when it is a league.
pub fn league_sides(cat: &Catalogue, id: &str) -> Option<[Vec<String>; 4]> {
    match card(cat, id)? {
        Card::Arcadia(ArcadiaCard::League(l)) => {
            Some([l.sides.north, l.sides.east, l.sides.south, l.sides.west])
        }
        _ => None,
    }
}

/// The owned quantity of a card.
pub fn owned(cat: &Catalogue, id: &str) -> u32 {
    cat.owned(id).unwrap_or(0)
}

/// Sets the owned quantity of a card.
pub fn set_owned(cat: &mut Catalogue, id: &str, quantity: u32) -> Result<(), AppError> {
    Ok(cat.set_owned(id, quantity)?)
}

/// Cards owned, all copies counted.
pub fn collection_total(cat: &Catalogue) -> u64 {
    cat.collection_total().unwrap_or(0)
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

/// The violations as findings, after a `catalogue-error` finding when the catalogue failed
/// to answer a card lookup (its "no such card" answers were then not the truth).
fn findings(cat: &Catalogue, violations: &[Violation]) -> Vec<Finding> {
    let failed = crate::cards::CardLookup::take_error(cat).map(|e| Finding {
        rule: "catalogue-error".into(),
        message: format!("the catalogue could not be read, so cards may be missing here: {e}"),
        cards: Vec::new(),
    });
    failed
        .into_iter()
        .chain(violations.iter().map(|v| Finding {
            rule: v.rule.to_string(),
            message: v.message.clone(),
            cards: v.cards.clone(),
        }))
        .collect()
}

/// Checks a party alone.
pub fn check_party(cat: &Catalogue, party: &PartyFile) -> Verdict {
    let r = iconica::rules::check_party(party, cat);
    Verdict {
        checked: true,
        findings: findings(cat, &r.violations),
        figures: Figures::default(),
    }
}

/// Checks the two parties of a match (each party's own rules and the shared rule).
pub fn check_match(cat: &Catalogue, a: &PartyFile, b: &PartyFile) -> (Verdict, Verdict) {
    let reports = iconica::rules::check_match(&[a, b], cat);
    let v = |i: usize| Verdict {
        checked: true,
        findings: reports
            .get(i)
            .map(|r| findings(cat, &r.violations))
            .unwrap_or_default(),
        figures: Figures::default(),
    };
    (v(0), v(1))
}

/// Whether two parties can play a match under `rules`: each party's verdict (as
/// [`check_match`] gives it), and the compiled match-up when both are legal, else why not.
#[derive(Debug, Clone)]
pub struct MatchReady {
    pub a: Verdict,
    pub b: Verdict,
    pub setup: Result<std::sync::Arc<iconica::engine::Setup>, String>,
}

/// Checks the two parties of a match and, when both are legal, compiles their match-up.
pub fn match_ready(
    cat: &Catalogue,
    a: &PartyFile,
    b: &PartyFile,
    rules: iconica::engine::Rules,
) -> MatchReady {
    let reports = iconica::rules::check_match(&[a, b], cat);
    let verdict = |i: usize| Verdict {
        checked: true,
        findings: reports
            .get(i)
            .map(|r| findings(cat, &r.violations))
            .unwrap_or_default(),
        figures: Figures::default(),
    };
    let (va, vb) = (verdict(0), verdict(1));
    let not_ready = |side: &str, v: &Verdict, doc: &PartyFile| {
        if doc.members.is_empty() {
            format!(
                "Party {side} is empty: build it on the Party screen (tick “Match: a second party” for party B)."
            )
        } else {
            let n = v.findings.len();
            format!(
                "Party {side} is not legal ({n} problem{}, listed above under Party {side}): fix it on the Party screen.",
                if n == 1 { "" } else { "s" }
            )
        }
    };
    let setup = if a.members.is_empty() || !va.findings.is_empty() {
        Err(not_ready("A", &va, a))
    } else if b.members.is_empty() || !vb.findings.is_empty() {
        Err(not_ready("B", &vb, b))
    } else {
        match (reports.first(), reports.get(1)) {
            (Some(ra), Some(rb)) => iconica::engine::Setup::duel(&ra.members, &rb.members, rules)
                .map(std::sync::Arc::new)
                .map_err(|e| format!("These parties cannot play: {e}")),
            _ => Err("The rules gave no verdict for the two parties.".into()),
        }
    };
    MatchReady {
        a: va,
        b: vb,
        setup,
    }
}

/// Checks an Arcadia character and derives its points, court and experience.
pub fn check_character(cat: &Catalogue, c: &CharacterFile) -> Verdict {
    let r = arcadia::rules::check_character(c, cat);
    let d = &r.derived;
    let court = match (d.court, d.court_decided_by) {
        (Some(court), CourtBasis::Majority) => format!(
            "{court:?} (majority {} to {})",
            d.seelie.max(d.unseelie),
            d.seelie.min(d.unseelie)
        ),
        (Some(court), _) => format!(
            "{court:?} (declared; {} to {} is a tie)",
            d.seelie, d.unseelie
        ),
        (None, _) => format!(
            "undecided ({} Seelie, {} Unseelie): declare one",
            d.seelie, d.unseelie
        ),
    };
    let figures = Figures {
        lines: vec![
            ("Flaw points:".into(), d.flaw_points.to_string()),
            ("Court:".into(), court),
            (
                "Experience:".into(),
                format!(
                    "{} earned, {} spent, {} saved",
                    d.xp_earned, d.xp_spent, d.xp_saved
                ),
            ),
            (
                "Waylay Rating bonus:".into(),
                format!("+{} on this character's quests", d.waylay_bonus),
            ),
        ],
        points: Some((d.points_available as i64, d.points_spent as i64)),
    };
    Verdict {
        checked: true,
        findings: findings(cat, &r.violations),
        figures,
    }
}

/// Checks a quest setup; `characters` resolves a player's `character` entry to its document.
pub fn check_setup(
    cat: &Catalogue,
    file: &SetupFile,
    characters: &dyn Fn(&str) -> Option<CharacterFile>,
) -> Verdict {
    let mut missing = Vec::new();
    let mut missing_players = Vec::new();
    let mut chars = Vec::new();
    for (i, p) in file.players.iter().enumerate() {
        match characters(&p.character) {
            Some(c) => chars.push(c),
            None => {
                missing_players.push(i);
                missing.push(Finding {
                    rule: "character-file".into(),
                    message: if p.character.is_empty() {
                        format!("player {} has no character: choose a saved one", i + 1)
                    } else {
                        format!("player {}: no saved character `{}`", i + 1, p.character)
                    },
                    cards: Vec::new(),
                });
                chars.push(CharacterFile {
                    game: "arcadia".into(),
                    ..Default::default()
                });
            }
        }
    }
    let r = arcadia::rules::check_setup(file, &chars, cat);
    // The report lists each player's character violations first, player by player; those
    // of a stand-in for a missing character say nothing the missing-file finding does not.
    let mut skip = vec![false; r.violations.len()];
    let mut at = 0;
    for (i, c) in r.characters.iter().enumerate() {
        let n = c.violations.len();
        if missing_players.contains(&i) {
            let end = (at + n).min(skip.len());
            skip[at..end].iter_mut().for_each(|s| *s = true);
        }
        at += n;
    }
    let kept: Vec<Violation> = r
        .violations
        .iter()
        .zip(skip)
        .filter(|(_, s)| !s)
        .map(|(v, _)| v.clone())
        .collect();
    let mut all = missing;
    all.extend(findings(cat, &kept));
    let mut lines = Vec::new();
    for (i, c) in r.characters.iter().enumerate() {
        lines.push((
            format!("Player {}:", i + 1),
            format!(
                "Waylay Rating bonus +{}, {} experience spent",
                c.derived.waylay_bonus, c.derived.xp_spent
            ),
        ));
    }
    Verdict {
        checked: true,
        findings: all,
        figures: Figures {
            lines,
            points: None,
        },
    }
}

/// Checks a Ruunara squad.
pub fn check_squad(cat: &Catalogue, s: &SquadFile) -> Verdict {
    let r = ruunara::rules::check_squad(s, cat);
    Verdict {
        checked: true,
        findings: findings(cat, &r.violations),
        figures: Figures::default(),
    }
}

/// Imports card files and folders, all or nothing; a summary for the status bar.
pub fn import_cards(cat: &mut Catalogue, paths: &[std::path::PathBuf]) -> Result<String, AppError> {
    let r = cat.import_paths(paths)?;
    Ok(format!(
        "Imported {}: {} added, {} updated, {} unchanged.",
        crate::count(r.files as u64, "file", "files"),
        crate::count(r.added as u64, "card", "cards"),
        r.updated,
        r.unchanged
    ))
}

/// Writes every card to `dir/<game>/<id>.toml`.
pub fn export_cards(cat: &Catalogue, dir: &std::path::Path) -> Result<String, AppError> {
    let r = cat.export_dir(dir)?;
    Ok(format!(
        "Wrote {} card files to {}.",
        r.cards,
        dir.display()
    ))
}

/// Reads owned quantities from a collection CSV, all or nothing.
pub fn import_collection(cat: &mut Catalogue, path: &std::path::Path) -> Result<String, AppError> {
    let r = cat.import_collection_csv(path, false)?;
    Ok(format!(
        "Read {} rows of {}: {} quantities set.",
        r.rows,
        path.display(),
        r.cards
    ))
}

/// Writes owned quantities to a collection CSV.
pub fn export_collection(cat: &Catalogue, path: &std::path::Path) -> Result<String, AppError> {
    let n = cat.export_collection_csv(path)?;
    Ok(format!("Wrote {n} rows to {}.", path.display()))
}

/// For each laid league of a setup (in order), whether its north, east, south and west
/// sides fit the neighbour there (`None`: no neighbour, or a card that is not a league).
pub fn league_fits(cat: &Catalogue, s: &SetupFile) -> Vec<[Option<bool>; 4]> {
    let sides: Vec<Option<Sides>> = s
        .leagues
        .iter()
        .map(|l| match card(cat, &l.id) {
            Some(Card::Arcadia(ArcadiaCard::League(league))) => Some(league.sides.clone()),
            _ => None,
        })
        .collect();
    let at = |x: i32, y: i32| s.leagues.iter().position(|l| l.x == x && l.y == y);
    s.leagues
        .iter()
        .enumerate()
        .map(|(i, l)| {
            let Some(me) = &sides[i] else {
                return [None; 4];
            };
            let dirs = [(0, -1), (1, 0), (0, 1), (-1, 0)];
            let mut out = [None; 4];
            for (k, (dx, dy)) in dirs.into_iter().enumerate() {
                let Some(j) = at(l.x + dx, l.y + dy) else {
                    continue;
                };
                let Some(other) = &sides[j] else { continue };
                let (mine, theirs) = match k {
                    0 => (&me.north, &other.south),
                    1 => (&me.east, &other.west),
                    2 => (&me.south, &other.north),
                    _ => (&me.west, &other.east),
                };
                out[k] = Some(arcadia::rules::sides_fit(mine, theirs).is_ok());
            }
            out
        })
        .collect()
}

/// The card as the print renderer draws it, `width` x `height` pixels, for the preview.
pub fn render_card(cat: &Catalogue, card: &Card, width: u32, height: u32) -> egui::ColorImage {
    let assets = crate::print::Assets {
        art_dir: cat.art_dir(),
        ..Default::default()
    };
    let img = crate::print::render_preview(card, width, height, &assets);
    egui::ColorImage::from_rgba_unmultiplied([img.width as usize, img.height as usize], &img.rgba)
}

/// How the print screen prints: every option of `deckwright export`. Kept in the session,
/// so the screen prints as it did after a restart.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct PrintSettings {
    /// A paper name of `print::layout::PAPERS`.
    pub paper: String,
    /// A card size name of `print::layout::CARD_PRESETS`.
    pub card: String,
    pub crop_marks: bool,
    pub backs: bool,
    /// Bleed around each card, mm.
    pub bleed: f32,
    /// Space between cards, mm.
    pub gutter: f32,
    /// Copies of each selected card: a number, or the owned quantities.
    pub copies: Copies,
    /// Shift of the backs, mm (x right, y down on the backs page).
    pub back_offset: (f32, f32),
    /// Copies of single cards, by id, instead of `copies` (0 leaves the card out).
    pub per_card: std::collections::BTreeMap<String, u32>,
    /// The print vendor the export is for (a `print::vendor::Preset` name), or none for the
    /// print-and-play sheets.
    pub preset: Option<String>,
}

impl Default for PrintSettings {
    fn default() -> Self {
        PrintSettings {
            paper: "a4".into(),
            card: "poker".into(),
            crop_marks: true,
            backs: false,
            bleed: 0.0,
            gutter: 0.0,
            copies: Copies::Each(1),
            back_offset: (0.0, 0.0),
            per_card: Default::default(),
            preset: None,
        }
    }
}

pub use crate::catalogue::selection::Copies;

/// The paper names the print screen offers.
pub fn papers() -> Vec<&'static str> {
    crate::print::layout::PAPERS
        .iter()
        .map(|p| p.name)
        .collect()
}

/// The card sizes the print screen offers: name and size in mm.
pub fn card_sizes() -> Vec<(&'static str, f32, f32)> {
    crate::print::layout::CARD_PRESETS
        .iter()
        .map(|p| (p.name, p.width, p.height))
        .collect()
}

fn export_options(
    settings: &PrintSettings,
) -> Result<crate::print::export::ExportOptions, AppError> {
    let paper = crate::print::layout::paper(&settings.paper)
        .ok_or_else(|| AppError::UnknownPaper(settings.paper.clone()))?;
    let card = crate::print::layout::card_preset(&settings.card)
        .ok_or_else(|| AppError::UnknownCardSize(settings.card.clone()))?;
    let mut opts = crate::print::export::ExportOptions::new(paper);
    opts.card_w = card.width;
    opts.card_h = card.height;
    opts.bleed = settings.bleed.clamp(0.0, 20.0);
    opts.gutter = settings.gutter.clamp(0.0, 100.0);
    opts.crop_marks = settings.crop_marks;
    opts.backs = settings.backs;
    opts.back_offset = (
        settings.back_offset.0.clamp(-50.0, 50.0),
        settings.back_offset.1.clamp(-50.0, 50.0),
    );
    Ok(opts)
}

/// The ids to print, in order, each repeated as `copies` asks (cards not owned are left out
/// with `Copies::Owned`).
pub fn print_list(cat: &Catalogue, ids: &[String], settings: &PrintSettings) -> Vec<String> {
    let mut out = Vec::new();
    for id in ids {
        let n = copies_of(cat, id, settings);
        out.extend(std::iter::repeat_n(id.clone(), n as usize));
    }
    out
}

/// The copies of card `id` the print makes: its own count, else the settings' copies.
pub fn copies_of(cat: &Catalogue, id: &str, settings: &PrintSettings) -> u32 {
    match (settings.per_card.get(id), settings.copies) {
        (Some(n), _) => *n,
        (None, Copies::Each(n)) => n,
        (None, Copies::Owned) => cat.owned(id).unwrap_or(0),
    }
}

/// Adds the entries of `more` to the print selection `ids`, leaving out the cards already
/// in it (adding the same search twice adds nothing; a party's two copies of a card stay
/// two entries). Returns how many entries were added.
pub fn add_to_print(ids: &mut Vec<String>, more: impl IntoIterator<Item = String>) -> usize {
    let before: std::collections::HashSet<String> = ids.iter().cloned().collect();
    let mut added = 0;
    for id in more {
        if !before.contains(&id) {
            ids.push(id);
            added += 1;
        }
    }
    added
}

/// A sheet of the print layout: paper size and the trim box of every card place (mm,
/// top-left origin), row by row, and where each card's back goes on the backs page.
#[derive(Debug, Clone, PartialEq)]
pub struct Sheet {
    pub width: f32,
    pub height: f32,
    pub places: Vec<[f32; 4]>,
    pub backs: Vec<[f32; 4]>,
}

/// The sheet the export lays cards on.
pub fn sheet(settings: &PrintSettings) -> Result<Sheet, AppError> {
    let opts = export_options(settings)?;
    let layout = opts.layout()?;
    let rect = |r: crate::print::layout::Rect| [r.x, r.y, r.w, r.h];
    let places = (0..layout.per_page())
        .map(|k| rect(layout.front(k)))
        .collect();
    let backs = (0..layout.per_page())
        .map(|k| rect(layout.back(k, opts.back_offset)))
        .collect();
    Ok(Sheet {
        width: opts.paper.width,
        height: opts.paper.height,
        places,
        backs,
    })
}

fn cards_of(cat: &Catalogue, ids: &[String]) -> Result<Vec<Card>, String> {
    ids.iter()
        .map(|id| {
            card(cat, id).ok_or_else(|| {
                format!("`{id}` is not in the catalogue; remove it from the selection")
            })
        })
        .collect()
}

/// Exports the selection (each card as `settings.copies` asks) to a print-and-play PDF; a
/// summary for the status bar.
pub fn export_pdf(
    cat: &Catalogue,
    ids: &[String],
    path: &std::path::Path,
    settings: &PrintSettings,
) -> Result<String, AppError> {
    let mut cards = Vec::new();
    for id in print_list(cat, ids, settings) {
        let card = cat
            .get(&id)?
            .ok_or_else(|| AppError::NotInCatalogue(id.clone()))?;
        cards.push(card);
    }
    if cards.is_empty() {
        return Err(AppError::Refused(
            "Nothing to print: none of the selected cards is owned.".into(),
        ));
    }
    let mut opts = export_options(settings)?;
    opts.assets.art_dir = cat.art_dir();
    let pages = crate::print::export::export_pdf(&cards, &opts, path)?;
    Ok(format!(
        "Wrote {} ({}, {}).",
        path.display(),
        crate::count(cards.len() as u64, "card", "cards"),
        crate::count(pages as u64, "page", "pages")
    ))
}

/// Writes the calibration sheet (for measuring the back offset) with the paper and back
/// offset of `settings`.
pub fn export_calibration(
    path: &std::path::Path,
    settings: &PrintSettings,
) -> Result<String, String> {
    let opts = export_options(settings)?;
    crate::print::export::export_calibration(&opts, path).map_err(|e| e.to_string())?;
    Ok(format!(
        "Wrote the calibration sheet {}: print it double-sided and read the back offset.",
        path.display()
    ))
}

/// Exports the selection for a print vendor (a folder of PNGs, or DriveThruCards' PDF).
pub fn export_preset(
    cat: &Catalogue,
    ids: &[String],
    preset: crate::print::vendor::Preset,
    out: &std::path::Path,
    settings: &PrintSettings,
) -> Result<String, String> {
    let cards = cards_of(cat, &print_list(cat, ids, settings))?;
    let assets = crate::print::Assets {
        art_dir: cat.art_dir(),
        ..Default::default()
    };
    let r =
        crate::print::vendor::export(&cards, preset, &assets, out).map_err(|e| e.to_string())?;
    Ok(format!(
        "Wrote {} file{} for {} to {}.",
        r.files.len(),
        if r.files.len() == 1 { "" } else { "s" },
        preset.title(),
        out.display()
    ))
}

/// Exports the selection as Tabletop Simulator deck sheets and `deck.json` into `dir`.
pub fn export_tts(
    cat: &Catalogue,
    ids: &[String],
    dir: &std::path::Path,
    settings: &PrintSettings,
) -> Result<String, String> {
    let cards = cards_of(cat, &print_list(cat, ids, settings))?;
    let assets = crate::print::Assets {
        art_dir: cat.art_dir(),
        ..Default::default()
    };
    let r = crate::print::tts::export(&cards, &assets, dir).map_err(|e| e.to_string())?;
    Ok(format!(
        "Wrote {} Tabletop Simulator sheet{} and deck.json to {}.",
        r.sheets,
        if r.sheets == 1 { "" } else { "s" },
        dir.display()
    ))
}

/// A side of a card as the print renderer draws it, `width` x `height` pixels (the back is
/// the game's back, or an Iconoclasm element's other face).
pub fn render_side(
    cat: &Catalogue,
    card: &Card,
    back: bool,
    width: u32,
    height: u32,
) -> egui::ColorImage {
    let assets = crate::print::Assets {
        art_dir: cat.art_dir(),
        ..Default::default()
    };
    let side = if back {
        crate::print::Side::Back
    } else {
        crate::print::Side::Front
    };
    let img = crate::print::render::render_pixels(
        card,
        side,
        (width.clamp(16, 4096), height.clamp(16, 4096)),
        0,
        &assets,
    )
    .expect("a card of at most 4096 x 4096 pixels can be allocated");
    egui::ColorImage::from_rgba_unmultiplied([img.width as usize, img.height as usize], &img.rgba)
}

/// Reads a CSV or XLSX sheet of cards into the catalogue, all or nothing; art is read
/// relative to the sheet and copied into the catalogue's art folder.
pub fn import_sheet(cat: &mut Catalogue, path: &std::path::Path) -> Result<String, String> {
    let rows = crate::sheet::read(path).map_err(|e| e.to_string())?;
    if rows.is_empty() {
        return Err(format!("{}: no card rows", path.display()));
    }
    let cards: Vec<(Card, Option<u32>)> = rows.into_iter().map(|r| (r.card, r.copies)).collect();
    let base = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(std::path::Path::new("."));
    let r = cat
        .import_cards(&cards, Some(base))
        .map_err(|e| e.to_string())?;
    Ok(format!(
        "Imported {} from {}: {} added, {} updated, {} unchanged.",
        crate::count(cards.len() as u64, "card", "cards"),
        path.display(),
        r.added,
        r.updated,
        r.unchanged
    ))
}

/// Writes the cards `ids` (with their owned quantities as `copies`) to a CSV or XLSX sheet.
pub fn export_sheet(
    cat: &Catalogue,
    ids: &[String],
    path: &std::path::Path,
) -> Result<String, String> {
    let mut rows = Vec::new();
    for c in cards_of(cat, ids)? {
        let copies = cat.owned(c.id()).map_err(|e| e.to_string())?;
        rows.push(crate::sheet::SheetCard { card: c, copies });
    }
    let n = crate::sheet::export(&rows, path).map_err(|e| e.to_string())?;
    Ok(format!(
        "Wrote {} to {}.",
        crate::count(n as u64, "card", "cards"),
        path.display()
    ))
}

/// The file name card errors name while a card is edited in the app.
pub const EDITED_CARD: &str = "card.toml";

/// Reads an edited card's text with the strict card parser; the error names the line,
/// column and key.
pub fn check_card(text: &str) -> Result<Card, CardError> {
    crate::cards::parse_card(text, EDITED_CARD)
}

/// The card as [`save_card`] stores it, without writing anything: art named by a path outside
/// the catalogue's art folder names the copy there once that copy holds the same picture. The
/// editor compares this with the catalogue's card, so a card saved with art reads as saved.
pub fn as_stored(cat: &Catalogue, card: &Card) -> Card {
    match cat.art_dir() {
        Some(dir) => crate::catalogue::as_adopted(card, std::path::Path::new("."), &dir),
        None => card.clone(),
    }
}

/// True when the catalogue holds `card` as [`save_card`] would store it.
pub fn is_stored(cat: &Catalogue, card: &Card) -> bool {
    matches!(cat.get(card.id()), Ok(Some(stored)) if stored == as_stored(cat, card))
}

/// Puts the card `text` holds into the catalogue, replacing the card with its id (its owned
/// quantity is kept); nothing changes when the text is not a valid card.
pub fn save_card(cat: &mut Catalogue, text: &str) -> Result<String, AppError> {
    let mut card = check_card(text)?;
    // Art named by a path outside the catalogue is copied into its art folder.
    if let Some(dir) = cat.art_dir() {
        crate::catalogue::adopt_art(&mut card, std::path::Path::new("."), &dir).map_err(|e| {
            AppError::Refused(format!(
                "cannot copy the card's art into {}: {e}",
                dir.display()
            ))
        })?;
    }
    let verb = match cat.get(card.id())? {
        Some(old) if old == card => "Unchanged:",
        Some(_) => "Replaced",
        None => "Added",
    };
    cat.upsert(std::slice::from_ref(&card))?;
    Ok(format!(
        "{verb} {} “{}” in the catalogue.",
        card.id(),
        card.name()
    ))
}

/// Writes the card `text` holds to `path` (through a temporary file, so nothing is left half
/// written); nothing is written when the text is not a valid card.
pub fn write_card_file(text: &str, path: &std::path::Path) -> Result<String, AppError> {
    check_card(text)?;
    crate::catalogue::write_atomic(path, text.as_bytes()).map_err(|source| AppError::Write {
        path: path.to_path_buf(),
        source,
    })?;
    Ok(format!("Wrote {}.", path.display()))
}

/// The templates for new cards: every kind of every game.
pub fn card_templates() -> Vec<Template> {
    templates::all()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn saving_a_card_replaces_it_and_keeps_its_owned_quantity() {
        let mut cat = Catalogue::open_in_memory().unwrap();
        set_owned(&mut cat, "ico-grumbolt", 3).unwrap();
        let text = card(&cat, "ico-grumbolt")
            .unwrap()
            .to_toml()
            .replace("name = \"Grumbolt\"", "name = \"Grumbolt II\"");
        let before = cat.count().unwrap();
        assert!(
            save_card(&mut cat, &text)
                .unwrap()
                .starts_with("Replaced ico-grumbolt")
        );
        assert_eq!(card(&cat, "ico-grumbolt").unwrap().name(), "Grumbolt II");
        assert!(
            save_card(&mut cat, &text)
                .unwrap()
                .starts_with("Unchanged: ico-grumbolt")
        );
        assert_eq!(
            (owned(&cat, "ico-grumbolt"), cat.count().unwrap()),
            (3, before)
        );
        let bad = text.replace("name = ", "nme = ");
        let e = save_card(&mut cat, &bad).unwrap_err().chain();
        assert!(e.contains("card.toml:") && e.contains("nme"), "{e}");
        assert_eq!(card(&cat, "ico-grumbolt").unwrap().name(), "Grumbolt II");
    }

    #[test]
    fn a_card_file_is_written_whole_and_only_when_valid() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x.toml");
        let text = card_templates()[0].text;
        write_card_file(text, &path).unwrap();
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            text,
            "the text as typed, comments kept"
        );
        let bad = format!("{text}oops = 1\n");
        assert!(write_card_file(&bad, &path).is_err());
        assert_eq!(std::fs::read_to_string(&path).unwrap(), text);
        assert_eq!(
            std::fs::read_dir(dir.path()).unwrap().count(),
            1,
            "no temporary file left"
        );
    }
}

/// The keys the browser's sheet view edits in place: top-level keys holding one text,
/// number or yes/no in the cards shown (not `game`, `kind` or `id`), in the order met.
pub fn simple_keys(cards: &[Card]) -> Vec<String> {
    let mut keys: Vec<String> = Vec::new();
    let mut complex: Vec<String> = Vec::new();
    for c in cards {
        if let toml::Value::Table(t) = c.to_value() {
            for (k, v) in t {
                if matches!(k.as_str(), "game" | "kind" | "id") {
                    continue;
                }
                let simple = matches!(
                    v,
                    toml::Value::String(_) | toml::Value::Integer(_) | toml::Value::Boolean(_)
                );
                if !simple {
                    complex.push(k);
                } else if !keys.contains(&k) {
                    keys.push(k);
                }
            }
        }
    }
    keys.retain(|k| !complex.contains(k));
    keys
}

/// A simple key's value as the sheet view shows it (empty when the card has no such key).
pub fn key_text(card: &Card, key: &str) -> String {
    match card.to_value().get(key) {
        Some(toml::Value::String(s)) => s.clone(),
        Some(v) => v.to_string(),
        None => String::new(),
    }
}

/// Sets one simple key of a card from the text typed in the sheet view (empty removes the
/// key), read with the strict card rules, and stores it. Returns the card's TOML before
/// and after (for undo). The value keeps the type the key has (a number stays a number).
pub fn set_card_key(
    cat: &mut Catalogue,
    id: &str,
    key: &str,
    text: &str,
) -> Result<(String, String), String> {
    let old = card(cat, id).ok_or_else(|| format!("`{id}` is not in the catalogue"))?;
    let mut value = old.to_value();
    let table = value.as_table_mut().ok_or("the card is not a table")?;
    let text = text.trim();
    if text.is_empty() {
        table.remove(key);
    } else {
        let typed = match table.get(key) {
            Some(toml::Value::Integer(_)) => toml::Value::Integer(
                text.parse()
                    .map_err(|_| format!("`{key}` is a whole number; `{text}` is not"))?,
            ),
            Some(toml::Value::Boolean(_)) => toml::Value::Boolean(match text {
                "true" | "yes" => true,
                "false" | "no" => false,
                _ => return Err(format!("`{key}` is true or false; `{text}` is not")),
            }),
            _ => toml::Value::String(text.to_string()),
        };
        table.insert(key.to_string(), typed);
    }
    let after_text = toml::to_string(&value).map_err(|e| e.to_string())?;
    let new = crate::cards::parse_card(&after_text, &format!("{id}.toml"))
        .map_err(|e| format!("key `{key}`: {}", e.message))?;
    if new == old {
        return Ok((old.to_toml(), old.to_toml()));
    }
    cat.upsert(std::slice::from_ref(&new))
        .map_err(|e| e.to_string())?;
    Ok((old.to_toml(), new.to_toml()))
}

/// Whether a file looks like an image the renderer draws (PNG or JPEG, by its extension).
pub fn is_image(path: &std::path::Path) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| matches!(e.to_ascii_lowercase().as_str(), "png" | "jpg" | "jpeg"))
}

/// The card text with its picture set to `path`: the `art` line (`portrait` on an Arcadia
/// merit, whose `art` names its art) replaced, or added after the `id` line. The rest of
/// the text, comments included, is kept.
pub fn set_art_in_text(text: &str, path: &std::path::Path) -> Result<String, String> {
    let table: toml::Table = toml::from_str(text).map_err(|e| {
        format!(
            "The art was not set: the card text does not read ({}).",
            e.message()
        )
    })?;
    let word = |k: &str| table.get(k).and_then(|v| v.as_str()).unwrap_or("");
    if word("game") == "iconoclasm" {
        return Err("An Iconoclasm element has no art: its face is its element.".into());
    }
    let key = if word("game") == "arcadia" && word("kind") == "merit" {
        "portrait"
    } else {
        "art"
    };
    let value = serde_json::to_string(&path.display().to_string()).map_err(|e| e.to_string())?;
    let line = format!("{key} = {value}");
    let mut out: Vec<String> = Vec::new();
    let mut done = false;
    let mut in_top = true;
    for l in text.lines() {
        let t = l.trim_start();
        if t.starts_with('[') {
            in_top = false;
        }
        let is_art = in_top
            && (t.starts_with(key) || (key == "art" && t.starts_with("portrait")))
            && t.split_once('=').is_some_and(|(k, _)| {
                matches!(k.trim(), "art" | "portrait") && (k.trim() == key || key == "art")
            });
        if is_art && !done {
            out.push(line.clone());
            done = true;
        } else if !is_art {
            out.push(l.to_string());
        }
    }
    if !done {
        let at = out
            .iter()
            .position(|l| {
                l.trim_start().starts_with("id")
                    && l.split_once('=').is_some_and(|(k, _)| k.trim() == "id")
            })
            .map(|i| i + 1)
            .unwrap_or(out.len());
        out.insert(at, line);
    }
    let mut s = out.join("\n");
    if text.ends_with('\n') {
        s.push('\n');
    }
    Ok(s)
}

/// A warning for the card editor when the card's art cannot be read.
pub fn art_warning(cat: &Catalogue, card: &Card) -> Option<String> {
    let art = card.art()?;
    let assets = crate::print::Assets {
        art_dir: cat.art_dir(),
        ..Default::default()
    };
    crate::print::face::art_readable(art, &assets)
        .err()
        .map(|why| {
            format!("Art “{art}” cannot be read ({why}): the card prints with a placeholder.")
        })
}

/// One problem preflight found: the card, the problem's code and what is wrong.
#[derive(Debug, Clone, PartialEq)]
pub struct PreflightProblem {
    pub id: String,
    pub name: String,
    pub code: &'static str,
    pub message: String,
}

/// Preflight of the selection at the print screen's card size: text shrunk past reading
/// or cut, art under 300 dpi, missing art; with a vendor preset, at its size with its safe
/// area, and for DriveThruCards the press PDF's problems (id empty, name "the press PDF").
pub fn preflight(
    cat: &Catalogue,
    ids: &[String],
    settings: &PrintSettings,
) -> Result<Vec<PreflightProblem>, String> {
    preflight_job(cat, ids, settings)?()
}

/// [`preflight`] in two steps: the cards read from the catalogue now, and the check (which
/// for DriveThruCards draws and reads back the whole press PDF) as a job for a thread.
pub fn preflight_job(
    cat: &Catalogue,
    ids: &[String],
    settings: &PrintSettings,
) -> Result<impl FnOnce() -> Result<Vec<PreflightProblem>, String> + Send + 'static, String> {
    let cards = cards_of(cat, ids)?;
    let opts = export_options(settings)?;
    let assets = crate::print::Assets {
        art_dir: cat.art_dir(),
        ..Default::default()
    };
    let preset = settings
        .preset
        .as_deref()
        .and_then(crate::print::vendor::Preset::parse);
    Ok(move || run_preflight(&cards, preset, (opts.card_w, opts.card_h), &assets))
}

fn run_preflight(
    cards: &[Card],
    preset: Option<crate::print::vendor::Preset>,
    (card_w, card_h): (f32, f32),
    assets: &crate::print::Assets,
) -> Result<Vec<PreflightProblem>, String> {
    let (found, press) = match preset {
        Some(p) if !cards.is_empty() => {
            crate::print::vendor::preflight(cards, p, assets).map_err(|e| e.to_string())?
        }
        _ => (
            crate::print::preflight::check(cards, card_w, card_h, assets),
            Vec::new(),
        ),
    };
    let press = press.into_iter().map(|f| PreflightProblem {
        id: String::new(),
        name: "the press PDF".into(),
        code: f.code(),
        message: f.message(),
    });
    Ok(found
        .into_iter()
        .flat_map(|(i, found)| {
            let c = &cards[i];
            found.into_iter().map(move |f| PreflightProblem {
                id: c.id().to_string(),
                name: c.name().to_string(),
                code: f.code(),
                message: f.message(),
            })
        })
        .chain(press)
        .collect())
}
