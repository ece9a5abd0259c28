//! What search keeps in each card row so that a card can be tested without another seek:
//! `card.search_words` (the words of the name and texts, as FTS5 tokenises them) and
//! `card.search_fields` (every field value, plus each key's smallest and largest value).
//!
//! Both are written with the card (`catalogue::store`), in the same statement. Either is
//! NULL when it cannot be computed exactly (a letter outside ASCII, a non-integral number, a
//! delimiter inside a value); search then tests that card through FTS5 and `card_field`
//! as before, so results never depend on which path a card takes.
//!
//! `search_words`: `" n1 n2 \n t1 t2 ... "`: the name's tokens, a newline, the texts' tokens,
//! each preceded and followed by a space. A word prefix `"w1 w2"*` in any column is the
//! substring `" w1 w2"`; a phrase is `" w1 w2 "`; neither can span the newline.
//!
//! `search_fields`: `US` (0x1f) then, per key and value, `key RS text US` (0x1e, text
//! values) or `key GS number US` (0x1d, integers), each key's values in ascending order (so
//! the first is the smallest), and for a key with several values of a kind `key FS max US`
//! (0x1c, numbers) or `key 0x1b max US` (texts). The card columns (`game`, `id`, `kind`,
//! `name`) are left out: queries name them as columns.

use std::collections::BTreeMap;
use std::fmt::Write;

use rusqlite::{Connection, params};

/// Separates the tokens of `search_fields`.
pub const US: char = '\x1f';
const TEXT: char = '\x1e';
const NUM: char = '\x1d';
const NUM_MAX: char = '\x1c';
const TEXT_MAX: char = '\x1b';

/// Non-ASCII characters that FTS5's `unicode61` tokenizer always treats as separators
/// (punctuation, symbols, spaces, format characters). Text with any other non-ASCII
/// character gets no `search_words`.
fn is_known_separator(c: char) -> bool {
    matches!(c,
        '\u{a0}' | '\u{a1}' | '\u{a7}' | '\u{a9}' | '\u{ab}' | '\u{ae}' | '\u{b0}' | '\u{b1}'
        | '\u{b6}' | '\u{b7}' | '\u{bb}' | '\u{bf}' | '\u{d7}' | '\u{f7}'
        | '\u{2000}'..='\u{206f}' | '\u{2190}'..='\u{21ff}' | '\u{3000}')
}

/// The tokens of `text` as `unicode61` produces them, if that is certain.
fn tokens(text: &str, out: &mut String) -> Option<()> {
    let mut in_word = false;
    for c in text.chars() {
        if c.is_ascii_alphanumeric() {
            if !in_word {
                out.push(' ');
                in_word = true;
            }
            out.push(c.to_ascii_lowercase());
        } else if c.is_ascii() || is_known_separator(c) {
            in_word = false;
        } else {
            return None;
        }
    }
    Some(())
}

/// `search_words` of a card with this name and these texts (joined by newlines).
pub fn words_of(name: &str, texts: &str) -> Option<String> {
    let mut out = String::with_capacity(name.len() + texts.len() + 8);
    tokens(name, &mut out)?;
    out.push_str(" \n");
    tokens(texts, &mut out)?;
    out.push(' ');
    Some(out)
}

/// The in-row pattern of free-text words: `" w1 w2"` (last a prefix) or `" w1 w2 "` (a
/// phrase), if every word is ASCII letters and digits (else FTS5 must decide).
pub fn words_pattern(words: &[String], prefix: bool) -> Option<String> {
    if words.is_empty()
        || !words
            .iter()
            .all(|w| !w.is_empty() && w.bytes().all(|b| b.is_ascii_alphanumeric()))
    {
        return None;
    }
    let mut p = String::new();
    for w in words {
        p.push(' ');
        p.push_str(&w.to_ascii_lowercase());
    }
    if !prefix {
        p.push(' ');
    }
    Some(p)
}

/// An integer that `search_fields` can hold exactly.
fn exact_int(n: f64) -> Option<i64> {
    (n.is_finite() && n.fract() == 0.0 && n.abs() < 9_007_199_254_740_992.0).then_some(n as i64)
}

fn clean(s: &str) -> bool {
    !s.chars()
        .any(|c| c == '\0' || ('\x1b'..='\x1f').contains(&c))
}

/// `search_fields` of a card with these `card_field` rows (key, lower-cased text, number).
pub fn fields_of(rows: &[(String, Option<String>, Option<f64>)]) -> Option<String> {
    let mut keys: BTreeMap<&str, (Vec<&str>, Vec<i64>)> = BTreeMap::new();
    for (k, t, n) in rows {
        if !clean(k) {
            return None;
        }
        if COLUMNS.contains(&k.as_str()) {
            continue;
        }
        let values = keys.entry(k).or_default();
        match (t, n) {
            (Some(t), None) if clean(t) => values.0.push(t),
            (None, Some(n)) => values.1.push(exact_int(*n)?),
            _ => return None,
        }
    }
    let mut out = String::from(US);
    for (k, (mut texts, mut nums)) in keys {
        texts.sort_unstable();
        nums.sort_unstable();
        for t in &texts {
            write!(out, "{k}{TEXT}{t}{US}").ok()?;
        }
        for n in &nums {
            write!(out, "{k}{NUM}{n}{US}").ok()?;
        }
        if let [_, .., last] = texts.as_slice() {
            write!(out, "{k}{TEXT_MAX}{last}{US}").ok()?;
        }
        if let [_, .., last] = nums.as_slice() {
            write!(out, "{k}{NUM_MAX}{last}{US}").ok()?;
        }
    }
    Some(out)
}

/// Keys that are card columns, which queries never read as fields.
const COLUMNS: [&str; 4] = ["game", "id", "kind", "name"];

/// The token of `key` having the text `text`.
pub fn text_token(key: &str, text: &str) -> Option<String> {
    (clean(key) && clean(text)).then(|| format!("{US}{key}{TEXT}{text}{US}"))
}

/// The token of `key` having the number `n` (none when no in-row card can have it).
pub fn num_token(key: &str, n: f64) -> Option<String> {
    let n = exact_int(n)?;
    clean(key).then(|| format!("{US}{key}{NUM}{n}{US}"))
}

/// The starts of the tokens of `key` having any text and any number.
pub fn key_tokens(key: &str) -> Option<(String, String)> {
    clean(key).then(|| (format!("{US}{key}{TEXT}"), format!("{US}{key}{NUM}")))
}

/// The starts of the tokens of `key`'s values of one kind (numbers or texts; the first is
/// the smallest) and of its largest value when it has several; each value follows its
/// token's start up to the next `US`.
pub fn extreme_tokens(key: &str, numeric: bool) -> Option<(String, String)> {
    let (value, max) = if numeric {
        (NUM, NUM_MAX)
    } else {
        (TEXT, TEXT_MAX)
    };
    clean(key).then(|| (format!("{US}{key}{value}"), format!("{US}{key}{max}")))
}

/// Fills `search_words` and `search_fields` of every card (the migration that adds them).
pub fn backfill(conn: &Connection) -> rusqlite::Result<()> {
    let mut fields: BTreeMap<i64, Vec<(String, Option<String>, Option<f64>)>> = BTreeMap::new();
    {
        let mut st = conn.prepare("SELECT card, key, text, num FROM card_field ORDER BY rowid")?;
        let mut rows = st.query([])?;
        while let Some(r) = rows.next()? {
            fields
                .entry(r.get(0)?)
                .or_default()
                .push((r.get(1)?, r.get(2)?, r.get(3)?));
        }
    }
    let mut cards = conn.prepare("SELECT rowid, name, texts FROM card")?;
    let cards: Vec<(i64, String, String)> = cards
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?
        .collect::<Result<_, _>>()?;
    let mut set =
        conn.prepare("UPDATE card SET search_words = ?2, search_fields = ?3 WHERE rowid = ?1")?;
    for (rowid, name, texts) in cards {
        let f = fields
            .get(&rowid)
            .map_or_else(|| fields_of(&[]), |rows| fields_of(rows));
        set.execute(params![rowid, words_of(&name, &texts), f])?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_keep_name_and_texts_apart() {
        assert_eq!(
            words_of("Iron Fist", "Deal 10 — to a FOE.\nHeal"),
            Some(" iron fist \n deal 10 to a foe heal ".into())
        );
        assert_eq!(words_of("Café", ""), None);
        let w = words_of("ab cd", "ef gh").unwrap_or_default();
        let has = |words: &[&str], prefix: bool| {
            let words: Vec<String> = words.iter().map(|s| s.to_string()).collect();
            w.contains(&words_pattern(&words, prefix).unwrap_or_else(|| "?".into()))
        };
        assert!(has(&["c"], true) && !has(&["cd", "e"], false));
        assert!(has(&["AB", "c"], true), "case-insensitive, the last word a prefix");
        assert!(!has(&["ab", "c"], false), "a phrase is of whole words");
        assert!(!has(&["cd", "ef"], true), "no phrase spans the name and the texts");
        assert!(has(&["ef", "gh"], false));
        assert_eq!(words_pattern(&["café".into()], true), None);
    }

    #[test]
    fn fields_hold_values_smallest_first_and_the_largest() {
        let rows = vec![
            ("game".to_string(), Some("arcadia".to_string()), None),
            ("terrain".to_string(), Some("forest".to_string()), None),
            ("terrain".to_string(), Some("bog".to_string()), None),
            ("cost".to_string(), None, Some(3.0)),
        ];
        let f = fields_of(&rows).unwrap_or_default();
        assert!(!f.contains("arcadia"), "card columns are left out: {f:?}");
        assert!(f.contains(&text_token("terrain", "bog").unwrap_or_default()));
        assert!(f.contains(&num_token("cost", 3.0).unwrap_or_default()));
        let (first, max) = extreme_tokens("terrain", false).unwrap_or_default();
        assert!(f.find(&format!("{first}bog{US}")) < f.find(&format!("{first}forest{US}")));
        assert!(f.contains(&format!("{max}forest{US}")));
        let (_, max) = extreme_tokens("cost", true).unwrap_or_default();
        assert!(!f.contains(&max), "one value: no separate largest");
        assert_eq!(fields_of(&[("x".into(), None, Some(0.5))]), None);
        assert_eq!(num_token("cost", 2.5), None);
    }
}
