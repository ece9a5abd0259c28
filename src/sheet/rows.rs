//! Cards to rows and rows to cards.
//!
//! A card becomes one row: its TOML value flattened, one cell per scalar (see
//! [`super::path`] for the column names). A row becomes a card by writing its cells back as
//! the TOML text of a card file (every top-level key on its own line, nested values inline)
//! and reading that text with the strict card parser, so a sheet is held to exactly the
//! rules of `import`. The byte span of every cell in that text is kept, so the parser's
//! complaint points back at the cell it came from.
//!
//! Cells are typed by what they hold: `true`/`false` a boolean, `12` an integer, `1.5` a
//! float, `[]` an empty list, `{}` an empty table, anything else text. A number, boolean
//! or `[]` where the format wants text (an Iconica
//! `number = "007"`, a name `"1984"`) is read again as the text of the cell, exactly.

use std::collections::HashMap;
use std::ops::Range;

use super::error::CellError;
use super::path::{KeyPath, Seg, column_letter};
use crate::cards::{self, Card};

/// One cell's value.
#[derive(Debug, Clone, PartialEq)]
pub enum Cell {
    /// Text as the sheet holds it (its type is decided when the card is read).
    Text(String),
    Int(i64),
    Float(f64),
    Bool(bool),
}

impl Cell {
    /// The cell as text (what a CSV file holds).
    pub fn to_text(&self) -> String {
        match self {
            Cell::Text(s) => s.clone(),
            Cell::Int(n) => n.to_string(),
            Cell::Float(f) if f.fract() == 0.0 && f.abs() < 1e15 => format!("{f:.1}"),
            Cell::Float(f) => f.to_string(),
            Cell::Bool(b) => b.to_string(),
        }
    }
}

/// The cells of a card: (key path, value) for every scalar, in the format's key order.
pub fn flatten(card: &Card) -> Vec<(KeyPath, Cell)> {
    let mut out = Vec::new();
    let mut path = Vec::new();
    if let toml::Value::Table(t) = card.to_value() {
        for (k, v) in &t {
            path.push(Seg::Key(k.clone()));
            flatten_value(v, &mut path, &mut out);
            path.pop();
        }
    }
    out
}

fn flatten_value(v: &toml::Value, path: &mut Vec<Seg>, out: &mut Vec<(KeyPath, Cell)>) {
    let cell = match v {
        toml::Value::String(s) => Cell::Text(s.clone()),
        toml::Value::Integer(n) => Cell::Int(*n),
        toml::Value::Float(f) => Cell::Float(*f),
        toml::Value::Boolean(b) => Cell::Bool(*b),
        toml::Value::Datetime(d) => Cell::Text(d.to_string()),
        // An empty list or table has a cell of its own: `[]` or `{}`.
        toml::Value::Array(items) if items.is_empty() => Cell::Text("[]".into()),
        toml::Value::Table(t) if t.is_empty() => Cell::Text("{}".into()),
        toml::Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                path.push(Seg::Index(i));
                flatten_value(item, path, out);
                path.pop();
            }
            return;
        }
        toml::Value::Table(t) => {
            for (k, item) in t {
                path.push(Seg::Key(k.clone()));
                flatten_value(item, path, out);
                path.pop();
            }
            return;
        }
    };
    out.push((KeyPath(path.clone()), cell));
}

/// Column order for many cards: a tree of the paths met, keys in the order first met and
/// list members by number, walked depth first (`terrain[1]`, `terrain[2]`, then `text`).
#[derive(Debug, Default)]
pub struct ColumnOrder {
    children: Vec<(Seg, ColumnOrder)>,
    leaf: bool,
}

impl ColumnOrder {
    pub fn add(&mut self, path: &KeyPath) {
        let mut node = self;
        for seg in &path.0 {
            let at = match node.children.iter().position(|(s, _)| s == seg) {
                Some(i) => i,
                None => {
                    let i = match seg {
                        Seg::Index(n) => node
                            .children
                            .iter()
                            .position(|(s, _)| matches!(s, Seg::Index(m) if m > n))
                            .unwrap_or(node.children.len()),
                        Seg::Key(_) => node.children.len(),
                    };
                    node.children
                        .insert(i, (seg.clone(), ColumnOrder::default()));
                    i
                }
            };
            node = &mut node.children[at].1;
        }
        node.leaf = true;
    }

    /// Every path added, in column order.
    pub fn columns(&self) -> Vec<KeyPath> {
        let mut out = Vec::new();
        self.walk(&mut Vec::new(), &mut out);
        out
    }

    fn walk(&self, path: &mut Vec<Seg>, out: &mut Vec<KeyPath>) {
        if self.leaf {
            out.push(KeyPath(path.clone()));
        }
        for (s, child) in &self.children {
            path.push(s.clone());
            child.walk(path, out);
            path.pop();
        }
    }
}

/// The header of a sheet: how each column is used.
#[derive(Debug, Clone, PartialEq)]
pub enum Column {
    /// A card key.
    Key(KeyPath),
    /// `copies`: the owned quantity.
    Copies,
    /// A column without a name and without values (ignored).
    Blank,
}

/// Where a row sits, for error messages.
#[derive(Debug, Clone)]
pub struct Place<'a> {
    pub file: &'a str,
    pub sheet: Option<&'a str>,
    /// 1-based row number of the row.
    pub row: usize,
    /// Spreadsheet column (0-based) of each header entry.
    pub first_column: usize,
}

impl Place<'_> {
    pub fn error(
        &self,
        column: Option<(usize, &str)>,
        key: Option<String>,
        message: String,
    ) -> CellError {
        CellError {
            file: self.file.to_string(),
            sheet: self.sheet.map(str::to_string),
            row: self.row,
            // A column's name is quoted in at most 60 characters (a 1 MiB name makes a short
            // message).
            column: column.map(|(c, h)| {
                (
                    column_letter(self.first_column + c),
                    crate::safe_io::excerpt(h, 60),
                )
            }),
            key,
            message,
        }
    }
}

/// The name of the column holding the owned quantity.
pub const COPIES: &str = "copies";

/// Reads a header row. Every named column must be a card key (or `copies`), every key in
/// one column only. A key may have a column of its own and columns for its parts (an
/// action's `roll` is a number on one card, a list on another); a row fills one or the other.
pub fn header(names: &[String], place: &Place) -> Result<Vec<Column>, Vec<CellError>> {
    let mut errors = Vec::new();
    let mut cols = Vec::new();
    let mut seen: HashMap<KeyPath, usize> = HashMap::new();
    let mut shapes: HashMap<Vec<Seg>, (bool, usize)> = HashMap::new();
    for (i, name) in names.iter().enumerate() {
        let name = name.trim();
        if name.is_empty() {
            cols.push(Column::Blank);
            continue;
        }
        if name == COPIES {
            cols.push(Column::Copies);
            continue;
        }
        match KeyPath::parse(name) {
            Ok(p) => {
                if let Some(&j) = seen.get(&p) {
                    errors.push(place.error(
                        Some((i, name)),
                        p.last_key().map(str::to_string),
                        format!(
                            "the key is also column {}; each key has one column",
                            column_letter(place.first_column + j)
                        ),
                    ));
                }
                // Below one path, every column has a list member or every column a key: a
                // row could not fill both (`skills[1].name` and `skills[1][1]`).
                for (at, seg) in p.0.iter().enumerate().skip(1) {
                    let member = matches!(seg, Seg::Index(_));
                    match shapes.get(&p.0[..at]) {
                        Some(&(m, j)) if m != member => {
                            let parent = KeyPath(p.0[..at].to_vec());
                            errors.push(place.error(
                                Some((i, name)),
                                p.last_key().map(str::to_string),
                                format!(
                                    "`{parent}` is a list here and a table in column {} ({}), or the other way round; each key has one shape",
                                    column_letter(place.first_column + j),
                                    crate::safe_io::excerpt(names[j].trim(), 60)
                                ),
                            ));
                            break;
                        }
                        Some(_) => {}
                        None => {
                            shapes.insert(p.0[..at].to_vec(), (member, i));
                        }
                    }
                }
                seen.insert(p.clone(), i);
                cols.push(Column::Key(p));
            }
            Err(m) => {
                errors.push(place.error(Some((i, name)), None, m));
                cols.push(Column::Blank);
            }
        }
    }
    if !cols.iter().any(|c| matches!(c, Column::Key(_))) && !names.is_empty() {
        errors.push(place.error(None, None, "the header names no card key; the first row names each column's key (game, kind, id, ...)".into()));
    }
    if errors.is_empty() {
        Ok(cols)
    } else {
        Err(errors)
    }
}

/// A card read from a row, with its `copies` cell if it had one.
#[derive(Debug, Clone, PartialEq)]
pub struct RowCard {
    pub card: Card,
    pub copies: Option<u32>,
}

/// The largest `copies` a row may ask for: the most copies of one card the collection
/// holds (`collection set`), so a sheet never stores a quantity that sheet export, the
/// collection CSV and printing owned cards refuse.
pub const MAX_COPIES: i64 = crate::catalogue::MAX_QUANTITY as i64;

/// Reads one row (cells in header order; `None` for empty) as a card. Returns `Ok(None)`
/// for a row with no value at all.
pub fn card_from_row(
    cols: &[Column],
    cells: &[Option<Cell>],
    names: &[String],
    place: &Place,
) -> Result<Option<RowCard>, Box<CellError>> {
    let mut leaves: Vec<(usize, &KeyPath, &Cell)> = Vec::new();
    let mut copies = None;
    for (i, (col, cell)) in cols.iter().zip(cells).enumerate() {
        let Some(cell) = cell else { continue };
        match col {
            Column::Key(p) => leaves.push((i, p, cell)),
            Column::Copies => {
                let n = match cell {
                    Cell::Int(n) => Some(*n),
                    Cell::Float(f) if f.fract() == 0.0 => Some(*f as i64),
                    Cell::Text(s) => s.trim().parse::<i64>().ok(),
                    _ => None,
                };
                match n {
                    Some(n) if (0..=MAX_COPIES).contains(&n) => copies = Some(n as u32),
                    _ => {
                        return Err(Box::new(place.error(
                            Some((i, &names[i])),
                            Some(COPIES.into()),
                            format!(
                                "`{}` is not a number of copies (0 to {MAX_COPIES})",
                                crate::safe_io::excerpt(&cell.to_text(), 60)
                            ),
                        )));
                    }
                }
            }
            Column::Blank => {
                return Err(Box::new(place.error(
                    Some((i, &names[i])),
                    None,
                    format!(
                        "a value (`{}`) in a column without a card key as its name",
                        crate::safe_io::excerpt(&cell.to_text(), 60)
                    ),
                )));
            }
        }
    }
    if leaves.is_empty() {
        if copies.is_some() {
            return Err(Box::new(place.error(
                None,
                None,
                "a row with `copies` but no card".into(),
            )));
        }
        return Ok(None);
    }
    // A key given both as one value and by parts.
    for &(i, p, _) in &leaves {
        if let Some(&(j, q, _)) = leaves
            .iter()
            .find(|(_, q, _)| q.0.len() > p.0.len() && q.starts_with(&p.0))
        {
            return Err(Box::new(place.error(
                Some((i, &names[i])),
                p.last_key().map(str::to_string),
                format!("column {} ({q}) is a part of this key; fill either this cell or its parts' cells", column_letter(place.first_column + j)),
            )));
        }
    }
    let mut as_text = vec![false; cols.len()];
    let mut first_error: HashMap<usize, CellError> = HashMap::new();
    // Cells read as text on speculation (the same key of the other members of a list), and
    // whether speculating is still allowed in this row (once it fails, never again).
    let mut speculated: Vec<usize> = Vec::new();
    let mut speculate = true;
    // Each retry turns one more cell into text (or, once, undoes a speculation): at most
    // about two attempts per cell.
    for _ in 0..=2 * leaves.len() + 1 {
        let doc = Doc::write(&leaves, &as_text);
        let err = match cards::parse_card(&doc.text, place.file) {
            Ok(card) => return Ok(Some(RowCard { card, copies })),
            Err(e) => e,
        };
        let offset = offset_of(&doc.text, err.line, err.column);
        let hit = doc
            .at(offset)
            .map(|(col, on_key)| match (&err.key, on_key) {
                // On a key that holds others: the part the parser names, if a column holds it.
                (Some(k), true) => {
                    let top = match cols.get(col) {
                        Some(Column::Key(p)) => p.0.first().cloned(),
                        _ => None,
                    };
                    leaves
                        .iter()
                        .find(|(_, p, _)| {
                            top.as_ref() == p.0.first() && p.last_key() == Some(k.as_str())
                        })
                        .map(|(c, _, _)| *c)
                        .unwrap_or(col)
                }
                _ => col,
            });
        // A cell read as text only on speculation does not fit: every speculation of the
        // row is undone, and the cells are retyped one at a time from there.
        if let Some(col) = hit
            && speculated.contains(&col)
        {
            for c in speculated.drain(..) {
                as_text[c] = false;
            }
            speculate = false;
            continue;
        }
        let e = match hit {
            Some(col) => place.error(
                Some((col, &names[col])),
                err.key.clone(),
                err.message.clone(),
            ),
            None => place.error(None, err.key.clone(), err.message.clone()),
        };
        match hit {
            // A number or boolean where text is wanted: read the cell again as its text.
            Some(col)
                if !as_text[col]
                    && retypable(&err.message)
                    && !matches!(cells[col], Some(Cell::Text(ref s)) if s.is_empty()) =>
            {
                as_text[col] = true;
                first_error.insert(col, e);
                // The same key in the other members of its lists (`skills[*].name`) is
                // most likely text too: read as text at once, so a row of 256 numeric
                // names takes a few attempts, not 257 (undone above if one does not fit).
                if speculate && let Some(Column::Key(p)) = cols.get(col) {
                    let shape = list_shape(p);
                    if shape.iter().any(Option::is_none) {
                        for &(c, q, cell) in &leaves {
                            if !as_text[c]
                                && list_shape(q) == shape
                                && literal(cell, false) != literal(cell, true)
                            {
                                as_text[c] = true;
                                speculated.push(c);
                            }
                        }
                    }
                }
            }
            // Read as text it still does not fit: the first complaint says more.
            Some(col) if as_text[col] => {
                return Err(Box::new(first_error.remove(&col).unwrap_or(e)));
            }
            _ => return Err(Box::new(e)),
        }
    }
    Err(Box::new(place.error(
        None,
        None,
        "the row's cells do not make a card".into(),
    )))
}

/// Whether an empty column's key is one the card's format has, in that shape: `Err` with
/// the card reader's complaint when the format has no such key, or has it as another shape
/// (a list where a text is: `skills[1][1]`; a table under a text: `name.first`), found by
/// reading `card` again with the column filled. A value the key refuses (a word where a
/// number goes) means the key exists: `Ok`.
pub fn column_fits(card: &Card, path: &KeyPath) -> Result<(), String> {
    const PROBE: usize = 0;
    let flat = flatten(card);
    let probe = Cell::Text("x".into());
    let mut leaves: Vec<(usize, &KeyPath, &Cell)> = vec![(PROBE, path, &probe)];
    let mut as_text = vec![false; flat.len() + 1];
    for (i, (p, c)) in flat.iter().enumerate() {
        // The card's own value at the column's key, or at a part or a parent of it, gives
        // way to the probe.
        if p.starts_with(&path.0) || path.starts_with(&p.0) {
            continue;
        }
        as_text[i + 1] = matches!(c, Cell::Text(t) if t != "[]" && t != "{}");
        leaves.push((i + 1, p, c));
    }
    let doc = Doc::write(&leaves, &as_text);
    let Err(e) = cards::parse_card(&doc.text, "sheet") else {
        return Ok(());
    };
    let shape = e.message.starts_with("unknown field")
        || e.message.starts_with("invalid type: sequence")
        || e.message.starts_with("invalid type: map");
    let here = doc
        .at(offset_of(&doc.text, e.line, e.column))
        .map(|(c, _)| c)
        == Some(PROBE);
    if shape && here {
        Err(e.message)
    } else {
        Ok(())
    }
}

/// A key path with its list members' numbers left out (`skills[*].name`).
fn list_shape(p: &KeyPath) -> Vec<Option<&str>> {
    p.0.iter()
        .map(|s| match s {
            Seg::Key(k) => Some(k.as_str()),
            Seg::Index(_) => None,
        })
        .collect()
}

fn retypable(message: &str) -> bool {
    message.starts_with("invalid type: integer")
        || message.starts_with("invalid type: floating point")
        || message.starts_with("invalid type: boolean")
        || message.starts_with("invalid type: sequence")
        || message.starts_with("invalid type: map")
        || message.ends_with("must be a string")
}

/// Byte offset of a 1-based line and character column in `text`.
fn offset_of(text: &str, line: usize, column: usize) -> usize {
    let start: usize = text
        .split_inclusive('\n')
        .take(line.saturating_sub(1))
        .map(str::len)
        .sum();
    let rest = &text[start.min(text.len())..];
    start
        + rest
            .char_indices()
            .nth(column.saturating_sub(1))
            .map(|(i, _)| i)
            .unwrap_or(rest.len())
}

/// The TOML text written for a row, with the span of each cell's value and of each key.
struct Doc {
    text: String,
    /// (span, column, is the span a key's name?)
    spans: Vec<(Range<usize>, usize, bool)>,
}

/// Cells gathered into the card's shape.
enum Node {
    Leaf(usize),
    Table(Vec<(String, Node, usize)>),
    Array(Vec<(usize, Node, usize)>),
}

impl Doc {
    fn write(leaves: &[(usize, &KeyPath, &Cell)], as_text: &[bool]) -> Doc {
        let mut root: Vec<(String, Node, usize)> = Vec::new();
        for &(col, path, _) in leaves {
            insert_table(&mut root, &path.0, col);
        }
        let cells: HashMap<usize, &Cell> = leaves.iter().map(|&(c, _, v)| (c, v)).collect();
        let mut d = Doc {
            text: String::new(),
            spans: Vec::new(),
        };
        for (k, node, col) in &root {
            let s = d.text.len();
            d.text.push_str(&key(k));
            d.spans.push((s..d.text.len(), *col, true));
            d.text.push_str(" = ");
            d.value(node, &cells, as_text);
            d.text.push('\n');
        }
        d
    }

    fn value(&mut self, node: &Node, cells: &HashMap<usize, &Cell>, as_text: &[bool]) {
        match node {
            Node::Leaf(col) => {
                let s = self.text.len();
                self.text.push_str(&literal(cells[col], as_text[*col]));
                self.spans.push((s..self.text.len(), *col, false));
            }
            Node::Table(items) => {
                self.text.push('{');
                for (i, (k, n, col)) in items.iter().enumerate() {
                    self.text.push_str(if i == 0 { " " } else { ", " });
                    let s = self.text.len();
                    self.text.push_str(&key(k));
                    self.spans.push((s..self.text.len(), *col, true));
                    self.text.push_str(" = ");
                    self.value(n, cells, as_text);
                }
                self.text
                    .push_str(if items.is_empty() { "}" } else { " }" });
            }
            Node::Array(items) => {
                self.text.push('[');
                for (i, (_, n, _)) in items.iter().enumerate() {
                    if i > 0 {
                        self.text.push_str(", ");
                    }
                    self.value(n, cells, as_text);
                }
                self.text.push(']');
            }
        }
    }

    /// The column of the cell at `offset`: a value there, else a key there (then `true`).
    fn at(&self, offset: usize) -> Option<(usize, bool)> {
        let containing = |want_key: bool| {
            self.spans
                .iter()
                .filter(|(r, _, k)| {
                    *k == want_key && r.start <= offset && offset < r.end.max(r.start + 1)
                })
                .min_by_key(|(r, _, _)| r.len())
                .map(|(r, c, _)| (r.clone(), *c))
        };
        if let Some((_, c)) = containing(false) {
            return Some((c, false));
        }
        if let Some((_, c)) = containing(true) {
            return Some((c, true));
        }
        // Past every span (e.g. the end of an inline table): the nearest span before.
        self.spans
            .iter()
            .filter(|(r, _, _)| r.start <= offset)
            .max_by_key(|(r, _, _)| r.start)
            .map(|(_, c, k)| (*c, *k))
    }
}

fn insert_table(items: &mut Vec<(String, Node, usize)>, path: &[Seg], col: usize) {
    let Some((Seg::Key(k), rest)) = path.split_first() else {
        return;
    };
    let at = match items.iter().position(|(name, _, _)| name == k) {
        Some(i) => i,
        None => {
            items.push((k.clone(), empty_for(rest, col), col));
            items.len() - 1
        }
    };
    insert_node(&mut items[at].1, rest, col);
}

fn insert_array(items: &mut Vec<(usize, Node, usize)>, path: &[Seg], col: usize) {
    let Some((Seg::Index(n), rest)) = path.split_first() else {
        return;
    };
    let at = match items.iter().position(|(m, _, _)| m == n) {
        Some(i) => i,
        None => {
            let i = items
                .iter()
                .position(|(m, _, _)| m > n)
                .unwrap_or(items.len());
            items.insert(i, (*n, empty_for(rest, col), col));
            i
        }
    };
    insert_node(&mut items[at].1, rest, col);
}

fn empty_for(rest: &[Seg], col: usize) -> Node {
    match rest.first() {
        None => Node::Leaf(col),
        Some(Seg::Key(_)) => Node::Table(Vec::new()),
        Some(Seg::Index(_)) => Node::Array(Vec::new()),
    }
}

fn insert_node(node: &mut Node, rest: &[Seg], col: usize) {
    match node {
        Node::Table(items) => insert_table(items, rest, col),
        Node::Array(items) => insert_array(items, rest, col),
        // The header check makes a leaf's path the prefix of no other.
        Node::Leaf(_) => {}
    }
}

fn key(k: &str) -> String {
    if !k.is_empty()
        && k.chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
    {
        k.to_string()
    } else {
        serde_json::to_string(k).expect("a string serialises")
    }
}

/// A cell as a TOML value: typed by its look unless `as_text`.
fn literal(cell: &Cell, as_text: bool) -> String {
    let quote = |s: &str| serde_json::to_string(s).expect("a string serialises");
    if as_text {
        return quote(&cell.to_text());
    }
    match cell {
        Cell::Int(n) => n.to_string(),
        Cell::Float(f) => toml::Value::Float(*f).to_string(),
        Cell::Bool(b) => b.to_string(),
        Cell::Text(s) => {
            let t = s.as_str();
            let literal = matches!(t, "true" | "false" | "[]" | "{}")
                || (is_int(t) && t.parse::<i64>().is_ok())
                || is_float(t);
            if literal { t.to_string() } else { quote(t) }
        }
    }
}

fn is_int(s: &str) -> bool {
    let d = s.strip_prefix('-').unwrap_or(s);
    !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()) && (d == "0" || !d.starts_with('0'))
}

fn is_float(s: &str) -> bool {
    let d = s.strip_prefix('-').unwrap_or(s);
    match d.split_once('.') {
        Some((a, b)) => is_int(a) && !b.is_empty() && b.bytes().all(|x| x.is_ascii_digit()),
        None => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_are_typed_by_their_look() {
        assert_eq!(literal(&Cell::Text("12".into()), false), "12");
        assert_eq!(literal(&Cell::Text("-3".into()), false), "-3");
        assert_eq!(literal(&Cell::Text("007".into()), false), "\"007\"");
        assert_eq!(literal(&Cell::Text("1.5".into()), false), "1.5");
        assert_eq!(literal(&Cell::Text("true".into()), false), "true");
        assert_eq!(
            literal(&Cell::Text("a \"b\"\nc".into()), false),
            "\"a \\\"b\\\"\\nc\""
        );
        assert_eq!(literal(&Cell::Int(12), true), "\"12\"");
    }

    #[test]
    fn offsets_invert_line_and_column() {
        let t = "a = 1\nbé = \"x\"\n";
        assert_eq!(offset_of(t, 1, 1), 0);
        assert_eq!(offset_of(t, 2, 1), 6);
        assert_eq!(&t[offset_of(t, 2, 6)..offset_of(t, 2, 6) + 1], "\"");
    }
}
