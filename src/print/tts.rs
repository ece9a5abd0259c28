//! Tabletop Simulator: a selection as deck sheets and the saved object that loads them.
//!
//! A deck sheet is a 10 x 7 grid of card faces ([`COLS`] x [`ROWS`], each [`CELL`] pixels);
//! it holds at most [`PER_SHEET`] = 69 cards, its last slot being the picture Tabletop
//! Simulator shows for a hidden card (the game's back is drawn there). Each sheet holds one
//! game's cards, and has that game's back (`back-<game>.png`) or, for Iconoclasm elements
//! whose back is their other face, a sheet of backs in the same grid (`sheet-N-back.png`,
//! `UniqueBack`). `deck.json` is the saved object: one deck whose cards reference the sheets
//! by absolute `file:///` address, so it loads from the local files (copy the folder into
//! Tabletop Simulator's `Saves/Saved Objects`).

use std::path::{Path, PathBuf};

use rayon::prelude::*;
use serde_json::{Value, json};

use super::export::{ExportError, write_dir};
use super::face::{Assets, Side};
use super::render::{self, CardImage};
use crate::cards::{Card, Game};

/// Columns of a deck sheet.
pub const COLS: u32 = 10;
/// Rows of a deck sheet.
pub const ROWS: u32 = 7;
/// Cards a sheet holds: every slot but the last, which is the hidden card's.
pub const PER_SHEET: usize = (COLS * ROWS) as usize - 1;
/// One card's cell in pixels: 63 x 88 mm at about 161 dpi (a sheet is 4000 x 3910 px,
/// under Tabletop Simulator's 4096 px limit).
pub const CELL: (u32, u32) = (400, 559);

/// One sheet: a game's cards (indices into the selection's distinct cards).
#[derive(Debug, Clone, PartialEq)]
pub struct Sheet {
    pub game: Game,
    pub cards: Vec<usize>,
    /// Whether each card has its own back (a back sheet is written).
    pub unique_back: bool,
}

/// Splits distinct cards into sheets: by game in order first met, at most [`PER_SHEET`] each.
pub fn sheets(cards: &[&Card]) -> Vec<Sheet> {
    let mut games: Vec<Game> = Vec::new();
    for c in cards {
        if !games.contains(&c.game()) {
            games.push(c.game());
        }
    }
    let mut out = Vec::new();
    for g in games {
        let idx: Vec<usize> = (0..cards.len()).filter(|&i| cards[i].game() == g).collect();
        for chunk in idx.chunks(PER_SHEET) {
            out.push(Sheet {
                game: g,
                cards: chunk.to_vec(),
                unique_back: g == Game::Iconoclasm,
            });
        }
    }
    out
}

/// The top-left pixel of slot `k` of a sheet.
pub fn slot_origin(k: usize) -> (u32, u32) {
    ((k as u32 % COLS) * CELL.0, (k as u32 / COLS) * CELL.1)
}

/// Draws a sheet: each card's `side` in its slot, the game's back in the hidden slot,
/// white elsewhere.
fn sheet_image(
    sheet: &Sheet,
    cards: &[&Card],
    side: Side,
    assets: &Assets,
) -> Result<CardImage, ExportError> {
    let (w, h) = (CELL.0 * COLS, CELL.1 * ROWS);
    let mut rgba = vec![255u8; (w * h * 4) as usize];
    let too_large = || ExportError::TooLarge {
        w: 63.0,
        h: 88.0,
        dpi: 161.0,
    };
    let faces: Vec<Option<CardImage>> = sheet
        .cards
        .par_iter()
        .map(|&i| render::render_pixels(cards[i], side, CELL, 0, assets))
        .collect();
    let mut blit = |k: usize, img: &CardImage| {
        let (x0, y0) = slot_origin(k);
        for row in 0..img.height.min(CELL.1) {
            let src = &img.rgba[(row * img.width * 4) as usize
                ..((row * img.width + img.width.min(CELL.0)) * 4) as usize];
            let at = (((y0 + row) * w + x0) * 4) as usize;
            rgba[at..at + src.len()].copy_from_slice(src);
        }
    };
    for (k, f) in faces.iter().enumerate() {
        blit(k, f.as_ref().ok_or_else(too_large)?);
    }
    let hidden = render::render_back_pixels(sheet.game, CELL, 0).ok_or_else(too_large)?;
    blit(PER_SHEET, &hidden);
    Ok(CardImage {
        width: w,
        height: h,
        rgba,
    })
}

/// What a Tabletop Simulator export wrote.
#[derive(Debug, Clone, PartialEq)]
pub struct TtsReport {
    pub files: Vec<PathBuf>,
    pub sheets: usize,
    pub cards: usize,
}

/// Writes the deck sheets, backs and `deck.json` of `cards` (copies included: a card listed
/// twice is two cards of the deck, one picture) into `dir`. All or nothing.
pub fn export(cards: &[Card], assets: &Assets, dir: &Path) -> Result<TtsReport, ExportError> {
    if cards.is_empty() {
        return Err(ExportError::Empty);
    }
    let mut seen = std::collections::HashMap::new();
    let mut distinct: Vec<&Card> = Vec::new();
    for c in cards {
        seen.entry(c.id()).or_insert_with(|| {
            distinct.push(c);
            distinct.len() - 1
        });
    }
    let sheets = sheets(&distinct);
    // Files: sheet-N.png (and sheet-N-back.png), back-<game>.png, deck.json.
    enum File {
        Sheet(usize, Side),
        Back(Game),
        Json,
    }
    let mut files: Vec<(String, File)> = Vec::new();
    let mut backs: Vec<Game> = Vec::new();
    for (n, s) in sheets.iter().enumerate() {
        files.push((format!("sheet-{}.png", n + 1), File::Sheet(n, Side::Front)));
        if s.unique_back {
            files.push((
                format!("sheet-{}-back.png", n + 1),
                File::Sheet(n, Side::Back),
            ));
        } else if !backs.contains(&s.game) {
            backs.push(s.game);
            files.push((format!("back-{}.png", s.game.as_str()), File::Back(s.game)));
        }
    }
    files.push(("deck.json".into(), File::Json));
    // The folder is made by the staged write (whole or not at all): its address is worked
    // out without making it.
    let abs = absolute_folder(dir).map_err(|e| ExportError::Write {
        path: dir.display().to_string(),
        message: e.to_string(),
    })?;
    let json = saved_object(cards, &distinct, &sheets, &abs);
    let names: Vec<String> = files.iter().map(|f| f.0.clone()).collect();
    let written = write_dir(dir, &names, |i| match &files[i].1 {
        File::Sheet(n, side) => {
            Ok(sheet_image(&sheets[*n], &distinct, *side, assets)?.encode_png(None))
        }
        File::Back(g) => Ok(render::render_back_pixels(*g, CELL, 0)
            .ok_or(ExportError::TooLarge {
                w: 63.0,
                h: 88.0,
                dpi: 161.0,
            })?
            .encode_png(None)),
        File::Json => Ok(serde_json::to_vec_pretty(&json).expect("JSON values serialise")),
    })?;
    Ok(TtsReport {
        files: written,
        sheets: sheets.len(),
        cards: cards.len(),
    })
}

/// The absolute path `dir` will have, symbolic links resolved, whether or not it exists
/// yet: its deepest existing ancestor canonicalised, the missing rest appended (`.` and
/// `..` in the missing part resolved by name).
fn absolute_folder(dir: &Path) -> std::io::Result<PathBuf> {
    let abs = std::path::absolute(dir)?;
    let mut base = abs.as_path();
    let mut missing = Vec::new();
    loop {
        match base.canonicalize() {
            Ok(real) => {
                let mut out = real;
                for part in missing.iter().rev() {
                    match part {
                        std::path::Component::ParentDir => {
                            out.pop();
                        }
                        std::path::Component::Normal(n) => out.push(n),
                        _ => {}
                    }
                }
                return Ok(out);
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                let Some(parent) = base.parent() else {
                    return Err(e);
                };
                missing.push(base.components().next_back().expect("a last part"));
                base = parent;
            }
            Err(e) => return Err(e),
        }
    }
}

/// A `file:///` address of a file in `dir`: the path's bytes percent-encoded (RFC 3986)
/// except the unreserved characters and the `/` between names (and a Windows drive's `:`),
/// so a space, `#`, `?` or `%` in a folder name stays part of the path.
pub fn url(dir: &Path, name: &str) -> String {
    let p = dir.join(name);
    #[cfg(unix)]
    let s: Vec<u8> = {
        use std::os::unix::ffi::OsStrExt;
        p.as_os_str().as_bytes().to_vec()
    };
    #[cfg(not(unix))]
    let s: Vec<u8> = p.to_string_lossy().replace('\\', "/").into_bytes();
    let mut out = String::from(if s.starts_with(b"/") {
        "file://"
    } else {
        "file:///"
    });
    let drive = s.get(1) == Some(&b':') && s[0].is_ascii_alphabetic();
    for (i, &b) in s.iter().enumerate() {
        let keep = b.is_ascii_alphanumeric()
            || matches!(b, b'-' | b'.' | b'_' | b'~' | b'/')
            || (drive && i == 1);
        if keep {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

fn transform(y: f32) -> Value {
    json!({"posX": 0.0, "posY": y, "posZ": 0.0, "rotX": 0.0, "rotY": 180.0, "rotZ": 180.0,
           "scaleX": 1.0, "scaleY": 1.0, "scaleZ": 1.0})
}

/// The saved object: one deck (or one card, for a selection of one) of every card in order.
fn saved_object(cards: &[Card], distinct: &[&Card], sheets: &[Sheet], dir: &Path) -> Value {
    // Where each distinct card sits: its deck key (sheet number, from 1) and slot.
    let mut place = std::collections::HashMap::new();
    let mut custom = serde_json::Map::new();
    for (n, s) in sheets.iter().enumerate() {
        let key = n + 1;
        let back = if s.unique_back {
            format!("sheet-{key}-back.png")
        } else {
            format!("back-{}.png", s.game.as_str())
        };
        custom.insert(
            key.to_string(),
            json!({
                "FaceURL": url(dir, &format!("sheet-{key}.png")),
                "BackURL": url(dir, &back),
                "NumWidth": COLS,
                "NumHeight": ROWS,
                "BackIsHidden": true,
                "UniqueBack": s.unique_back,
                "Type": 0
            }),
        );
        for (k, &i) in s.cards.iter().enumerate() {
            place.insert(distinct[i].id(), (key, k));
        }
    }
    let card_object = |c: &Card| {
        let (key, k) = place[c.id()];
        let id = key * 100 + k;
        let mut one = serde_json::Map::new();
        one.insert(key.to_string(), custom[&key.to_string()].clone());
        json!({
            "Name": "Card",
            "Transform": transform(1.0),
            "Nickname": c.name(),
            "Description": format!("{} {} {}", c.game().title(), c.kind(), c.id()),
            "CardID": id,
            "CustomDeck": Value::Object(one),
            "SidewaysCard": false,
            "Hands": true
        })
    };
    let object = if cards.len() == 1 {
        card_object(&cards[0])
    } else {
        let ids: Vec<Value> = cards
            .iter()
            .map(|c| {
                let (key, k) = place[c.id()];
                json!(key * 100 + k)
            })
            .collect();
        json!({
            "Name": "DeckCustom",
            "Transform": transform(1.0),
            "Nickname": "deckwright deck",
            "Description": format!("{} cards", cards.len()),
            "DeckIDs": ids,
            "CustomDeck": Value::Object(custom.clone()),
            "ContainedObjects": cards.iter().map(card_object).collect::<Vec<_>>(),
            "Hands": false,
            "SidewaysCard": false
        })
    };
    json!({
        "SaveName": "",
        "GameMode": "",
        "Date": "",
        "Table": "",
        "Sky": "",
        "Note": "",
        "Rules": "",
        "XmlUI": "",
        "LuaScript": "",
        "LuaScriptState": "",
        "ObjectStates": [object],
        "TabStates": {},
        "VersionNumber": ""
    })
}
