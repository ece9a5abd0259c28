//! Finding places in TOML text for error messages.

/// 1-based line and column (in characters) of a byte offset.
pub fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let offset = offset.min(text.len());
    let before = &text[..floor_char(text, offset)];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map(|i| i + 1).unwrap_or(0);
    (line, before[line_start..].chars().count() + 1)
}

fn floor_char(text: &str, mut i: usize) -> usize {
    while i > 0 && !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// The key named by serde's "unknown field `x`" message.
pub fn unknown_field(message: &str) -> Option<String> {
    let rest = message.split("unknown field `").nth(1)?;
    Some(rest.split('`').next()?.to_string())
}

/// The nearest `key =` before `offset` on its line (or the line's dotted key).
pub fn key_before(text: &str, offset: usize) -> Option<String> {
    let offset = floor_char(text, offset.min(text.len()));
    let line_start = text[..offset].rfind('\n').map(|i| i + 1).unwrap_or(0);
    let head = &text[line_start..offset];
    let eq = head.rfind('=')?;
    let before = head[..eq].trim_end();
    let start = before
        .char_indices()
        .rev()
        .find(|&(_, c)| !(c.is_ascii_alphanumeric() || c == '_' || c == '-' || c == '"' || c == '.'))
        .map(|(i, c)| i + c.len_utf8())
        .unwrap_or(0);
    let key = before[start..].trim_matches('"');
    (!key.is_empty()).then(|| key.rsplit('.').next().unwrap_or(key).to_string())
}

/// Where the key at `path` is written: each segment is searched after the previous one, as a
/// table header (`[a]`, `[[a]]`, `[x.a]`) or as a key (`a =`, `a.b =`, `{ a = ... }`).
/// A segment `a[i]` is the `i`-th (0-based) `[[a]]` header (else the first `a`).
/// Falls back to the last segment found, or the file's start.
pub fn find_key(text: &str, path: &[&str]) -> (usize, usize) {
    let mut pos = 0usize;
    let mut found = 0usize;
    for seg in path {
        match find_segment(&text[pos..], seg) {
            Some(i) => {
                pos += i;
                found = pos;
            }
            None => break,
        }
    }
    line_col(text, found)
}

fn find_segment(text: &str, seg: &str) -> Option<usize> {
    if let Some((name, index)) = indexed(seg) {
        return nth_header(text, name, index).or_else(|| find_segment(text, name));
    }
    let mut offset = 0usize;
    for line in text.split_inclusive('\n') {
        let trimmed = line.trim_start();
        let indent = line.len() - trimmed.len();
        if trimmed.starts_with('[') {
            let name = trimmed.trim_start_matches('[');
            let name = name.split(']').next().unwrap_or("").trim();
            if name == seg || name.rsplit('.').next() == Some(seg) {
                return Some(offset + indent);
            }
        } else if let Some(i) = key_in_line(line, seg) {
            return Some(offset + i);
        }
        offset += line.len();
    }
    None
}

/// `name[i]` split into name and index.
fn indexed(seg: &str) -> Option<(&str, usize)> {
    let (name, rest) = seg.split_once('[')?;
    let index = rest.strip_suffix(']')?.parse().ok()?;
    Some((name, index))
}

/// Byte offset of the `index`-th `[[name]]` header.
fn nth_header(text: &str, name: &str, index: usize) -> Option<usize> {
    let mut offset = 0usize;
    let mut seen = 0usize;
    for line in text.split_inclusive('\n') {
        let trimmed = line.trim_start();
        if let Some(inner) = trimmed.strip_prefix("[[") {
            let header = inner.split("]]").next().unwrap_or("").trim();
            if header == name {
                if seen == index {
                    return Some(offset + line.len() - trimmed.len());
                }
                seen += 1;
            }
        }
        offset += line.len();
    }
    None
}

/// Byte index of `seg` used as a key in this line (`seg =`, `seg.x =`, `"seg" =`).
fn key_in_line(line: &str, seg: &str) -> Option<usize> {
    let bytes = line.as_bytes();
    let mut from = 0;
    while let Some(i) = line[from..].find(seg) {
        let at = from + i;
        let before_ok = at == 0 || {
            let b = bytes[at - 1];
            !(b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
        };
        let after = line[at + seg.len()..].trim_start_matches('"').trim_start();
        if before_ok && (after.starts_with('=') || after.starts_with('.')) {
            let at = if at > 0 && bytes[at - 1] == b'"' { at - 1 } else { at };
            return Some(at);
        }
        from = at + seg.len();
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_and_column_are_one_based() {
        assert_eq!(line_col("a = 1\nbb = 2\n", 6), (2, 1));
        assert_eq!(line_col("a = 1\nbb = 2\n", 11), (2, 6));
    }

    #[test]
    fn finds_keys_inside_tables() {
        let t = "id = \"x\"\n[health]\nstart = 100\nparry = [90]\n";
        assert_eq!(find_key(t, &["health", "parry"]), (4, 1));
        assert_eq!(find_key(t, &["start"]), (3, 1));
        assert_eq!(find_key(t, &["nothing"]), (1, 1));
    }

    #[test]
    fn indexed_segments_find_the_nth_array_table() {
        let t = "[[actions]]\nroll = 1\n\n[[actions]]\nroll = 1\n";
        assert_eq!(find_key(t, &["actions[1]", "roll"]), (5, 1));
        assert_eq!(find_key(t, &["actions[0]", "roll"]), (2, 1));
        assert_eq!(find_key(t, &["actions[7]", "roll"]), (2, 1));
    }

    #[test]
    fn key_before_survives_multibyte_text() {
        assert_eq!(key_before("é= 1", 3), None);
        assert_eq!(key_before("aé b = 1", 7), Some("b".into()));
    }

    #[test]
    fn key_before_reads_the_key_of_a_value() {
        let t = "a = 1\nstart = \"x\"\n";
        assert_eq!(key_before(t, t.find("\"x").unwrap()), Some("start".into()));
    }
}
