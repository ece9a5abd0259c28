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
//! `search_fields`: `US` (0x1f) then, per value, `key RS text US` (0x1e, text values) or
//! `key GS number US` (0x1d, integers); then per key `key FS min US` and `key 0x1b max US` of
//! its numbers and `key 0x1a min US`, `key 0x19 max US` of its texts.

use std::collections::BTreeMap;
use std::fmt::Write;

use rusqlite::{Connection, params};

/// Separates the tokens of `search_fields`.
pub const US: char = '\x1f';
const TEXT: char = '\x1e';
const NUM: char = '\x1d';
const NUM_MIN: char = '\x1c';
const NUM_MAX: char = '\x1b';
const TEXT_MIN: char = '\x1a';
const TEXT_MAX: char = '\x19';

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
    if words.is_empty() || !words.iter().all(|w| !w.is_empty() && w.bytes().all(|b| b.is_ascii_alphanumeric())) {
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
    !s.chars().any(|c| c == '\0' || ('\x19'..='\x1f').contains(&c))
}

/// `search_fields` of a card with these `card_field` rows (key, lower-cased text, number).
pub fn fields_of(rows: &[(String, Option<String>, Option<f64>)]) -> Option<String> {
    let mut out = String::from(US);
    let mut nums: BTreeMap<&str, (i64, i64)> = BTreeMap::new();
    let mut texts: BTreeMap<&str, (&str, &str)> = BTreeMap::new();
    for (k, t, n) in rows {
        if !clean(k) {
            return None;
        }
        match (t, n) {
            (Some(t), None) if clean(t) => {
                write!(out, "{k}{TEXT}{t}{US}").ok()?;
                let e = texts.entry(k).or_insert((t, t));
                e.0 = e.0.min(t);
                e.1 = e.1.max(t);
            }
            (None, Some(n)) => {
                let n = exact_int(*n)?;
                write!(out, "{k}{NUM}{n}{US}").ok()?;
                let e = nums.entry(k).or_insert((n, n));
                e.0 = e.0.min(n);
                e.1 = e.1.max(n);
            }
            _ => return None,
        }
    }
    for (k, (lo, hi)) in nums {
        write!(out, "{k}{NUM_MIN}{lo}{US}{k}{NUM_MAX}{hi}{US}").ok()?;
    }
    for (k, (lo, hi)) in texts {
        write!(out, "{k}{TEXT_MIN}{lo}{US}{k}{TEXT_MAX}{hi}{US}").ok()?;
    }
    Some(out)
}

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

/// The start of the token holding the smallest (or largest) number or text of `key`;
/// the value follows it up to the next `US`.
pub fn extreme_token(key: &str, numeric: bool, largest: bool) -> Option<String> {
    let mark = match (numeric, largest) {
        (true, false) => NUM_MIN,
        (true, true) => NUM_MAX,
        (false, false) => TEXT_MIN,
        (false, true) => TEXT_MAX,
    };
    clean(key).then(|| format!("{US}{key}{mark}"))
}

/// Fills `search_words` and `search_fields` of every card (the migration that adds them).
pub fn backfill(conn: &Connection) -> rusqlite::Result<()> {
    let mut fields: BTreeMap<i64, Vec<(String, Option<String>, Option<f64>)>> = BTreeMap::new();
    {
        let mut st = conn.prepare("SELECT card, key, text, num FROM card_field ORDER BY rowid")?;
        let mut rows = st.query([])?;
        while let Some(r) = rows.next()? {
            fields.entry(r.get(0)?).or_default().push((r.get(1)?, r.get(2)?, r.get(3)?));
        }
    }
    let mut cards = conn.prepare("SELECT rowid, name, texts FROM card")?;
    let cards: Vec<(i64, String, String)> =
        cards.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?.collect::<Result<_, _>>()?;
    let mut set = conn.prepare("UPDATE card SET search_words = ?2, search_fields = ?3 WHERE rowid = ?1")?;
    for (rowid, name, texts) in cards {
        let f = fields.get(&rowid).map_or_else(|| fields_of(&[]), |rows| fields_of(rows));
        set.execute(params![rowid, words_of(&name, &texts), f])?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_keep_name_and_texts_apart() {
        assert_eq!(words_of("Iron Fist", "Deal 10 — to a FOE.\nHeal"), Some(" iron fist \n deal 10 to a foe heal ".into()));
        assert_eq!(words_of("Café", ""), None);
        let w = words_of("a b", "c d").unwrap_or_default();
        assert!(w.contains(&words_pattern(&["b".into()], true).unwrap_or_default()));
        assert!(!w.contains(&words_pattern(&["b".into(), "c".into()], true).unwrap_or_default()));
        assert!(!w.contains(&words_pattern(&["c".into()], false).unwrap_or_default().replace(" c ", " c d ")));
    }

    #[test]
    fn fields_hold_values_and_extremes() {
        let rows = vec![
            ("terrain".to_string(), Some("forest".to_string()), None),
            ("terrain".to_string(), Some("bog".to_string()), None),
            ("cost".to_string(), None, Some(3.0)),
        ];
        let f = fields_of(&rows).unwrap_or_default();
        assert!(f.contains(&text_token("terrain", "bog").unwrap_or_default()));
        assert!(f.contains(&num_token("cost", 3.0).unwrap_or_default()));
        assert!(f.contains(&format!("{}bog{US}", extreme_token("terrain", false, false).unwrap_or_default())));
        assert!(f.contains(&format!("{}forest{US}", extreme_token("terrain", false, true).unwrap_or_default())));
        assert_eq!(fields_of(&[("x".into(), None, Some(0.5))]), None);
        assert_eq!(num_token("cost", 2.5), None);
    }
}
