//! Column names: a card key's path written as one header cell.
//!
//! Nested tables are joined with `.` (`health.start`), list members are numbered from 1 in
//! brackets (`terrain[2]`, `actions[1].effects[1].damage`). Brackets keep numbered members
//! apart from table keys that are themselves numbers (`health.reaction.30`).

use std::fmt;

/// The longest column name read, in characters (the longest key path of a bundled card
/// is 42).
pub const MAX_NAME_CHARS: usize = 256;
/// The most keys and list members one column name holds (`actions[1].effects[2].damage`
/// is 5; the deepest bundled card's is 7).
pub const MAX_DEPTH: usize = 16;

/// One step of a key path: a table key, or a list member (0-based here, 1-based in names).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Seg {
    Key(String),
    Index(usize),
}

/// A key path, as one column holds it.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct KeyPath(pub Vec<Seg>);

impl fmt::Display for KeyPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, s) in self.0.iter().enumerate() {
            match s {
                Seg::Key(k) if i == 0 => f.write_str(k)?,
                Seg::Key(k) => write!(f, ".{k}")?,
                Seg::Index(n) => write!(f, "[{}]", n + 1)?,
            }
        }
        Ok(())
    }
}

impl KeyPath {
    /// The last table key of the path (`damage` for `actions[1].effects[2].damage`).
    pub fn last_key(&self) -> Option<&str> {
        self.0.iter().rev().find_map(|s| match s {
            Seg::Key(k) => Some(k.as_str()),
            Seg::Index(_) => None,
        })
    }

    /// Does this path start with `prefix`?
    pub fn starts_with(&self, prefix: &[Seg]) -> bool {
        self.0.starts_with(prefix)
    }

    /// Reads a column name. Keys hold letters, digits, `_` and `-`; members are `[1]`, `[2]`...
    /// A name is at most [`MAX_NAME_CHARS`] characters and [`MAX_DEPTH`] keys and members
    /// deep; messages quote at most 60 characters of it.
    pub fn parse(name: &str) -> Result<KeyPath, String> {
        let shown = crate::safe_io::excerpt(name, 60);
        let bad = |why: &str| format!("column name `{shown}` is not a card key: {why}");
        if name.chars().nth(MAX_NAME_CHARS).is_some() {
            return Err(bad(&format!(
                "a column name is at most {MAX_NAME_CHARS} characters"
            )));
        }
        let mut segs = Vec::new();
        let mut rest = name.trim();
        if rest.is_empty() {
            return Err(
                "an empty column name; every column with values needs a card key as its name"
                    .into(),
            );
        }
        let mut first = true;
        while !rest.is_empty() {
            if let Some(r) = rest.strip_prefix('[') {
                let end = r.find(']').ok_or_else(|| bad("a `[` without its `]`"))?;
                let n: usize = r[..end]
                    .parse()
                    .map_err(|_| bad("a list member is numbered [1], [2], ..."))?;
                if n == 0 {
                    return Err(bad("list members are numbered from [1]"));
                }
                if first {
                    return Err(bad("it starts with a list member number"));
                }
                segs.push(Seg::Index(n - 1));
                rest = &r[end + 1..];
            } else {
                let r = if first {
                    rest
                } else {
                    rest.strip_prefix('.')
                        .ok_or_else(|| bad("expected `.` or `[` after a key or a `]`"))?
                };
                let end = r.find(['.', '[', ']']).unwrap_or(r.len());
                let key = &r[..end];
                if key.is_empty() {
                    return Err(bad("an empty key between separators"));
                }
                if !key
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
                {
                    return Err(bad("keys hold only letters, digits, `_` and `-`"));
                }
                segs.push(Seg::Key(key.to_string()));
                rest = &r[end..];
            }
            first = false;
            if segs.len() > MAX_DEPTH {
                return Err(bad(&format!(
                    "more than {MAX_DEPTH} keys and list members deep; card keys nest less"
                )));
            }
        }
        Ok(KeyPath(segs))
    }
}

/// The spreadsheet letter of a 0-based column (0 -> A, 26 -> AA).
pub fn column_letter(mut col: usize) -> String {
    let mut s = Vec::new();
    loop {
        s.push(b'A' + (col % 26) as u8);
        if col < 26 {
            break;
        }
        col = col / 26 - 1;
    }
    s.reverse();
    String::from_utf8(s).expect("ASCII letters")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_read_back_as_the_same_path() {
        for name in [
            "name",
            "health.start",
            "health.reaction.30",
            "terrain[2]",
            "actions[1].effects[12].damage",
            "a[1][2]",
        ] {
            assert_eq!(KeyPath::parse(name).unwrap().to_string(), name);
        }
    }

    #[test]
    fn bad_names_say_why() {
        assert!(
            KeyPath::parse("actions[0].name")
                .unwrap_err()
                .contains("from [1]")
        );
        assert!(
            KeyPath::parse("actions[x]")
                .unwrap_err()
                .contains("numbered")
        );
        assert!(KeyPath::parse("a..b").unwrap_err().contains("empty key"));
        assert!(KeyPath::parse("[1]").unwrap_err().contains("starts with"));
        assert!(KeyPath::parse("na me").unwrap_err().contains("letters"));
    }

    #[test]
    fn letters() {
        assert_eq!(column_letter(0), "A");
        assert_eq!(column_letter(25), "Z");
        assert_eq!(column_letter(26), "AA");
        assert_eq!(column_letter(27), "AB");
        assert_eq!(column_letter(701), "ZZ");
        assert_eq!(column_letter(702), "AAA");
    }
}
