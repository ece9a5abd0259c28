//! The fields a query can name: the keys present in `card_field` plus the card columns.
//! Used to reject typos such as `facton:legion` with a list of what exists.

use rusqlite::{Connection, OptionalExtension};

use super::compile::KeyType;

/// Fields every catalogue has (card columns and the collection).
pub const BUILT_IN: [&str; 5] = ["game", "id", "kind", "name", "owned"];

/// Does some card have the key `key`?
pub fn key_exists(conn: &Connection, key: &str) -> rusqlite::Result<bool> {
    let mut st = conn.prepare_cached("SELECT 1 FROM card_field WHERE key = ?1 LIMIT 1")?;
    st.query_row([key], |_| Ok(()))
        .optional()
        .map(|r| r.is_some())
}

/// Does some card have a number under `key`? (Then `order:key` sorts by numbers.)
pub fn key_type(conn: &Connection, key: &str) -> rusqlite::Result<KeyType> {
    let mut st =
        conn.prepare_cached("SELECT 1 FROM card_field WHERE key = ?1 AND num IS NOT NULL LIMIT 1")?;
    let numeric = st.query_row([key], |_| Ok(())).optional()?.is_some();
    Ok(if numeric { KeyType::Num } else { KeyType::Text })
}

/// Every field a query can name, sorted: the distinct keys of `card_field` (read by index
/// seeks, one per key) and the built-in fields.
pub fn known_fields(conn: &Connection) -> rusqlite::Result<Vec<String>> {
    let mut out: Vec<String> = BUILT_IN.iter().map(|s| s.to_string()).collect();
    let mut st = conn.prepare_cached("SELECT min(key) FROM card_field WHERE key > ?1")?;
    let mut last = String::new();
    while let Some(k) = st.query_row([&last], |r| r.get::<_, Option<String>>(0))? {
        out.push(k.clone());
        last = k;
    }
    out.sort();
    out.dedup();
    Ok(out)
}

/// The known field closest to `field` by edit distance, if it is close (a likely typo).
pub fn closest<'a>(field: &str, known: &'a [String]) -> Option<&'a str> {
    known
        .iter()
        .map(|k| (distance(field, k), k))
        .filter(|(d, k)| *d <= 2.max(k.len() / 4) && *d < k.len())
        .min_by_key(|(d, _)| *d)
        .map(|(_, k)| k.as_str())
}

/// Levenshtein distance over characters.
fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1; b.len() + 1];
        for (j, cb) in b.iter().enumerate() {
            let cost = usize::from(ca != *cb);
            cur[j + 1] = (prev[j] + cost).min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        prev = cur;
    }
    prev[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggests_near_misses_only() {
        let known: Vec<String> = ["faction", "class", "cost", "name"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        assert_eq!(closest("facton", &known), Some("faction"));
        assert_eq!(closest("cots", &known), Some("cost"));
        assert_eq!(closest("zzzzzz", &known), None);
    }
}
