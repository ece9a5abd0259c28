//! What a template binds to: a card's fields as a tree of values (the keys of its card file,
//! `docs/cards.md`, plus a few fields worked out for printing, listed in
//! `docs/templates.md`), paths into it (`actions[2].text`, 1-based like spreadsheet
//! columns), texts with `{path|filter}` bindings, and `show_when` conditions.

use toml::Value;

use crate::cards::Card;
use crate::games::arcadia::model::{ArcadiaCard, Side as Edge};
use crate::print::face::Side;

/// The most characters a bound text may have once its bindings are filled.
pub const MAX_TEXT: usize = 20_000;

/// The Iconica health meter's tiles from Start down to the Skull, for a repeat: each with
/// its `value`, its `shade` (`start`, `skull`, or `even` / `odd` down the meter, for the
/// tiles' colours) and its `marks`: a nullifier's `letter` (`P`, `Cl`) and `nullifier`
/// name, then the reaction's `text` (`R20`), each with its `kind` and the cells it `span`s.
pub fn health_tiles(ch: &crate::games::iconica::model::Character) -> Value {
    let s = |v: &str| Value::String(v.to_string());
    let tiles = super::blocks::meter_tiles(ch);
    Value::Array(
        tiles
            .iter()
            .enumerate()
            .map(|(i, tile)| {
                let shade = if i == 0 {
                    "start"
                } else if tile.value == 0 {
                    "skull"
                } else if i % 2 == 0 {
                    "even"
                } else {
                    "odd"
                };
                let mut marks: Vec<Value> = tile
                    .nullifiers
                    .iter()
                    .map(|n| {
                        let mut m = toml::Table::new();
                        m.insert("kind".into(), s("nullifier"));
                        m.insert("letter".into(), s(crate::print::face::nullifier_icon(*n).1));
                        m.insert("nullifier".into(), s(&format!("{n:?}").to_lowercase()));
                        m.insert("span".into(), Value::Integer(1));
                        Value::Table(m)
                    })
                    .collect();
                if let Some(dmg) = tile.reaction {
                    let mut m = toml::Table::new();
                    m.insert("kind".into(), s("reaction"));
                    m.insert("text".into(), s(&format!("R{dmg}")));
                    m.insert("span".into(), Value::Integer(2));
                    marks.push(Value::Table(m));
                }
                let mut t = toml::Table::new();
                t.insert("value".into(), Value::Integer(tile.value as i64));
                t.insert("shade".into(), s(shade));
                t.insert("marks".into(), Value::Array(marks));
                Value::Table(t)
            })
            .collect(),
    )
}

/// A card's fields for drawing `side`: its card file's keys and the worked-out fields.
pub fn card_fields(card: &Card, side: Side) -> toml::Table {
    let mut t = match card.to_value() {
        Value::Table(t) => t,
        _ => toml::Table::new(),
    };
    let s = |v: &str| Value::String(v.to_string());
    t.insert("game_title".into(), s(card.game().title()));
    if let Some(p) = card.art() {
        t.insert("picture".into(), s(p));
    }
    match card {
        Card::Iconica(ch) => {
            t.insert("health_tiles".into(), health_tiles(ch));
            if let Some(Value::Array(acts)) = t.get_mut("actions") {
                for (a, v) in ch.actions.iter().zip(acts.iter_mut()) {
                    if let Value::Table(at) = v {
                        let mut n = a.roll.numbers();
                        n.sort_unstable();
                        at.insert("roll_label".into(), s(&roll_label(&n)));
                        at.insert(
                            "roll_first".into(),
                            Value::Integer(n.first().copied().unwrap_or(0) as i64),
                        );
                        let brk = ch.action_break.is_some_and(|b| a.roll.covers(b));
                        at.insert("is_break".into(), Value::Boolean(brk));
                    }
                }
            }
            if let Some(Value::Array(st)) = t.get_mut("strengths") {
                for (x, v) in ch.strengths.iter().zip(st.iter_mut()) {
                    if let Value::Table(xt) = v {
                        let against = x
                            .against
                            .archetype
                            .clone()
                            .or_else(|| x.against.race.clone())
                            .or_else(|| x.against.class.map(|c| format!("{c:?}").to_lowercase()))
                            .unwrap_or_default();
                        xt.insert("against_text".into(), s(&against));
                        let nums: Vec<String> = x.actions.iter().map(u8::to_string).collect();
                        xt.insert("actions_text".into(), s(&nums.join(", ")));
                    }
                }
            }
        }
        Card::Arcadia(a) => match a {
            ArcadiaCard::Quest(q) => {
                let objective = crate::print::face::objective_text(&q.objective);
                t.insert(
                    "objective_text".into(),
                    s(&match q.time_limit {
                        Some(d) => format!(
                            "{objective} (within {})",
                            crate::count(u64::from(d), "Day", "Days")
                        ),
                        None => objective,
                    }),
                );
            }
            ArcadiaCard::League(l) => {
                let mut sides = toml::Table::new();
                for (name, e) in [
                    ("north", Edge::North),
                    ("east", Edge::East),
                    ("south", Edge::South),
                    ("west", Edge::West),
                ] {
                    let v = l.sides.get(e);
                    let text = if v.is_empty() {
                        "—".to_string()
                    } else {
                        v.join(" · ")
                    };
                    sides.insert(name.into(), s(&text));
                }
                t.insert("side_text".into(), Value::Table(sides));
            }
            _ => {}
        },
        Card::Iconoclasm(e) => {
            let face = match side {
                Side::Front => e.front,
                Side::Back => e.back,
            };
            t.insert("face".into(), s(&format!("{face:?}").to_lowercase()));
        }
        Card::Ruunara(f) => {
            let length = |inches: u32| {
                let cm = crate::games::ruunara::model::inches_to_cm(inches);
                if cm.fract() == 0.0 {
                    format!("{inches}\" / {cm:.0} cm")
                } else {
                    format!("{inches}\" / {cm:.1} cm")
                }
            };
            t.insert("movement_text".into(), s(&length(f.movement)));
            t.insert("vision_text".into(), s(&length(f.vision)));
            t.insert("close_text".into(), s(&f.close.to_string()));
            if let Some(r) = f.ranged {
                t.insert("ranged_text".into(), s(&r.to_string()));
            }
            if let Some(r) = f.ranged_range {
                t.insert("range_text".into(), s(&length(r)));
            }
            if let Some(Value::Array(sk)) = t.get_mut("skills") {
                for (k, v) in f.skills.iter().zip(sk.iter_mut()) {
                    if let Value::Table(kt) = v {
                        let mut tags = vec![k.cycle.clone()];
                        if let Some(tr) = &k.trigger {
                            tags.push(format!("on {tr}"));
                        }
                        kt.insert("tags".into(), s(&tags.join(", ")));
                    }
                }
            }
        }
    }
    t
}

fn roll_label(n: &[u8]) -> String {
    let contiguous = n.windows(2).all(|w| w[1] == w[0] + 1);
    match n {
        [one] => one.to_string(),
        [first, .., last] if contiguous => format!("{first}-{last}"),
        _ => n.iter().map(u8::to_string).collect::<Vec<_>>().join(","),
    }
}

/// Where names are looked up: the item of a repeat or paragraph first, then the card.
#[derive(Debug, Clone, Copy)]
pub struct Scope<'a> {
    pub root: &'a toml::Table,
    pub item: Option<&'a Value>,
    /// The item's place in its list, from 1.
    pub index: Option<usize>,
}

impl<'a> Scope<'a> {
    /// The card's own scope.
    pub fn card(root: &'a toml::Table) -> Scope<'a> {
        Scope {
            root,
            item: None,
            index: None,
        }
    }

    /// The value at `path`, or `None` when the card does not have it.
    pub fn get(&self, path: &str) -> Option<Value> {
        let segs = parse_path(path).ok()?;
        if segs.len() == 1
            && let Seg::Key(k) = &segs[0]
            && k == "index"
            && let Some(i) = self.index
        {
            return Some(Value::Integer(i as i64));
        }
        if let Some(item) = self.item
            && let Some(v) = walk(item, &segs)
        {
            return Some(v.clone());
        }
        let Seg::Key(first) = &segs[0] else {
            return None;
        };
        walk(self.root.get(first)?, &segs[1..]).cloned()
    }
}

fn walk<'v>(mut v: &'v Value, segs: &[Seg]) -> Option<&'v Value> {
    for s in segs {
        v = match s {
            Seg::Key(k) => v.as_table()?.get(k)?,
            Seg::Index(i) => v.as_array()?.get(i.checked_sub(1)?)?,
        };
    }
    Some(v)
}

/// A step of a path.
#[derive(Debug, Clone, PartialEq)]
pub enum Seg {
    Key(String),
    /// 1-based.
    Index(usize),
}

/// Splits `actions[2].text` into its steps, or says what is wrong with it.
pub fn parse_path(path: &str) -> Result<Vec<Seg>, String> {
    let path = path.trim();
    if path.is_empty() {
        return Err("an empty field name".into());
    }
    let mut out = Vec::new();
    for part in path.split('.') {
        let (name, mut rest) = match part.find('[') {
            Some(i) => (&part[..i], &part[i..]),
            None => (part, ""),
        };
        if name.is_empty()
            || !name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
        {
            return Err(format!(
                "`{path}` is not a field name (letters, digits, _ and -, steps joined by . and [N])"
            ));
        }
        out.push(Seg::Key(name.to_string()));
        while !rest.is_empty() {
            let close = rest
                .find(']')
                .ok_or_else(|| format!("`{path}`: a [ without its ]"))?;
            let n: usize = rest[1..close]
                .trim()
                .parse()
                .ok()
                .filter(|n| *n >= 1 && *n <= 10_000)
                .ok_or_else(|| {
                    format!("`{path}`: an index is a number from 1 (the first item) to 10000")
                })?;
            out.push(Seg::Index(n));
            rest = &rest[close + 1..];
        }
    }
    Ok(out)
}

/// The path without indexes (`actions.text`), as the field checks name it.
pub fn shape(path: &str) -> String {
    parse_path(path)
        .map(|segs| {
            segs.iter()
                .filter_map(|s| match s {
                    Seg::Key(k) => Some(k.as_str()),
                    Seg::Index(_) => None,
                })
                .collect::<Vec<_>>()
                .join(".")
        })
        .unwrap_or_default()
}

/// A value as text: lists joined with ", ", tables empty.
pub fn to_text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Integer(i) => i.to_string(),
        Value::Float(f) => f.to_string(),
        Value::Boolean(b) => b.to_string(),
        Value::Datetime(d) => d.to_string(),
        Value::Array(a) => a.iter().map(to_text).collect::<Vec<_>>().join(", "),
        Value::Table(_) => String::new(),
    }
}

/// Whether a value counts as set: not empty text, list or table, not `false`.
pub fn truthy(v: Option<&Value>) -> bool {
    match v {
        None => false,
        Some(Value::String(s)) => !s.is_empty(),
        Some(Value::Boolean(b)) => *b,
        Some(Value::Array(a)) => !a.is_empty(),
        Some(Value::Table(t)) => !t.is_empty(),
        Some(_) => true,
    }
}

/// The filters a binding may apply, for the checks and the docs.
pub const FILTERS: [&str; 7] = ["cap", "upper", "lower", "join", "or", "before", "after"];

/// One `{path|filter|filter:arg}` binding.
#[derive(Debug, Clone, PartialEq)]
pub struct Binding {
    pub path: String,
    pub filters: Vec<(String, Option<String>)>,
}

/// A text cut into literal pieces and bindings.
#[derive(Debug, Clone, PartialEq)]
pub enum Piece {
    Lit(String),
    Bind(Binding),
}

/// Reads a text's bindings (`{{` and `}}` are literal braces), or says what is wrong.
pub fn parse_text(s: &str) -> Result<Vec<Piece>, String> {
    let mut out = Vec::new();
    let mut lit = String::new();
    let mut chars = s.char_indices().peekable();
    while let Some((i, ch)) = chars.next() {
        match ch {
            '{' if chars.peek().map(|p| p.1) == Some('{') => {
                chars.next();
                lit.push('{');
            }
            '}' if chars.peek().map(|p| p.1) == Some('}') => {
                chars.next();
                lit.push('}');
            }
            '{' => {
                let end = s[i..]
                    .find('}')
                    .ok_or_else(|| format!("a {{ without its }} in `{}`", excerpt(s)))?;
                let inner = &s[i + 1..i + end];
                while chars.peek().is_some_and(|p| p.0 <= i + end) {
                    chars.next();
                }
                if !lit.is_empty() {
                    out.push(Piece::Lit(std::mem::take(&mut lit)));
                }
                out.push(Piece::Bind(parse_binding(inner)?));
            }
            '}' => return Err(format!("a }} without its {{ in `{}`", excerpt(s))),
            c => lit.push(c),
        }
    }
    if !lit.is_empty() {
        out.push(Piece::Lit(lit));
    }
    Ok(out)
}

fn excerpt(s: &str) -> String {
    crate::safe_io::excerpt(s, 80)
}

fn parse_binding(inner: &str) -> Result<Binding, String> {
    let mut parts = inner.split('|');
    let path = parts.next().unwrap_or("").trim().to_string();
    parse_path(&path)?;
    let mut filters = Vec::new();
    for f in parts {
        let (name, arg) = match f.split_once(':') {
            Some((n, a)) => (n.trim(), Some(a.to_string())),
            None => (f.trim(), None),
        };
        if !FILTERS.contains(&name) {
            return Err(format!(
                "unknown filter `{name}` in `{{{inner}}}`; the filters are {}",
                FILTERS.join(", ")
            ));
        }
        filters.push((name.to_string(), arg));
    }
    Ok(Binding { path, filters })
}

fn map_text(v: Value, f: &dyn Fn(&str) -> String) -> Value {
    match v {
        Value::Array(a) => Value::Array(a.into_iter().map(|x| map_text(x, f)).collect()),
        Value::Table(t) => Value::Table(t),
        other => Value::String(f(&to_text(&other))),
    }
}

/// Capitalises the first letter (`"melee"` -> `"Melee"`).
pub fn cap(s: &str) -> String {
    let mut ch = s.chars();
    match ch.next() {
        Some(f) => f.to_uppercase().chain(ch).collect(),
        None => String::new(),
    }
}

/// Fills a binding's value in `scope` (empty when the card has no such field).
pub fn eval(b: &Binding, scope: &Scope) -> String {
    let mut v = scope.get(&b.path);
    for (name, arg) in &b.filters {
        let arg = arg.as_deref().unwrap_or("");
        v = match name.as_str() {
            "cap" => v.map(|v| map_text(v, &cap)),
            "upper" => v.map(|v| map_text(v, &|s| s.to_uppercase())),
            "lower" => v.map(|v| map_text(v, &|s| s.to_lowercase())),
            "join" => v.map(|v| match v {
                Value::Array(a) => Value::String(
                    a.iter()
                        .map(to_text)
                        .collect::<Vec<_>>()
                        .join(if arg.is_empty() { ", " } else { arg }),
                ),
                other => other,
            }),
            "or" => {
                if truthy(v.as_ref()) {
                    v
                } else {
                    Some(Value::String(arg.to_string()))
                }
            }
            "before" | "after" => {
                if truthy(v.as_ref()) {
                    let t = to_text(v.as_ref().expect("truthy is set"));
                    Some(Value::String(if name == "before" {
                        format!("{arg}{t}")
                    } else {
                        format!("{t}{arg}")
                    }))
                } else {
                    None
                }
            }
            _ => v,
        };
    }
    v.map(|v| to_text(&v)).unwrap_or_default()
}

/// Fills every binding of a parsed text.
pub fn fill(pieces: &[Piece], scope: &Scope) -> String {
    let mut out = String::new();
    for p in pieces {
        match p {
            Piece::Lit(s) => out.push_str(s),
            Piece::Bind(b) => out.push_str(&eval(b, scope)),
        }
        if let Some((cut, _)) = out.char_indices().nth(MAX_TEXT) {
            out.truncate(cut);
            break;
        }
    }
    out
}

/// Fills a text's bindings; a text that does not parse is drawn as written (templates are
/// checked when loaded, so this is a template built in code).
pub fn fill_text(s: &str, scope: &Scope) -> String {
    match parse_text(s) {
        Ok(p) => fill(&p, scope),
        Err(_) => s.to_string(),
    }
}

/// A `show_when` condition: terms joined by ` or `, each of atoms joined by ` and `; an atom
/// is `field`, `not field`, or `field OP value` with OP one of `=`, `!=`, `<`, `<=`, `>`, `>=`.
#[derive(Debug, Clone, PartialEq)]
pub struct Condition {
    any: Vec<Vec<Atom>>,
}

#[derive(Debug, Clone, PartialEq)]
struct Atom {
    negate: bool,
    path: String,
    test: Option<(String, String)>,
}

const OPS: [&str; 6] = ["!=", "<=", ">=", "=", "<", ">"];

impl Condition {
    /// Reads a condition, or says what is wrong with it.
    pub fn parse(s: &str) -> Result<Condition, String> {
        if s.len() > 1000 {
            return Err("a condition longer than 1000 characters".into());
        }
        let mut any = Vec::new();
        for term in s.split(" or ") {
            let mut all = Vec::new();
            for atom in term.split(" and ") {
                let atom = atom.trim();
                let (negate, rest) = match atom.strip_prefix("not ") {
                    Some(r) => (true, r.trim()),
                    None => (false, atom),
                };
                let op = OPS
                    .iter()
                    .filter_map(|op| rest.find(op).map(|i| (i, *op)))
                    .min_by_key(|(i, op)| (*i, std::cmp::Reverse(op.len())));
                let (path, test) = match op {
                    Some((i, op)) => (
                        rest[..i].trim(),
                        Some((
                            op.to_string(),
                            rest[i + op.len()..].trim().trim_matches('"').to_string(),
                        )),
                    ),
                    None => (rest, None),
                };
                parse_path(path).map_err(|e| format!("in the condition `{s}`: {e}"))?;
                all.push(Atom {
                    negate,
                    path: path.to_string(),
                    test,
                });
            }
            any.push(all);
        }
        Ok(Condition { any })
    }

    /// The fields the condition reads.
    pub fn paths(&self) -> impl Iterator<Item = &str> {
        self.any.iter().flatten().map(|a| a.path.as_str())
    }

    /// Whether the condition holds for the card (and item) in `scope`.
    pub fn holds(&self, scope: &Scope) -> bool {
        self.any.iter().any(|all| {
            all.iter().all(|a| {
                let v = scope.get(&a.path);
                let r = match &a.test {
                    None => truthy(v.as_ref()),
                    Some((op, want)) => {
                        let have = v.as_ref().map(to_text).unwrap_or_default();
                        let num = |s: &str| s.trim().parse::<f64>().ok();
                        match (op.as_str(), num(&have), num(want)) {
                            ("=", _, _) => have.eq_ignore_ascii_case(want),
                            ("!=", _, _) => !have.eq_ignore_ascii_case(want),
                            ("<", Some(x), Some(y)) => x < y,
                            ("<=", Some(x), Some(y)) => x <= y,
                            (">", Some(x), Some(y)) => x > y,
                            (">=", Some(x), Some(y)) => x >= y,
                            _ => false,
                        }
                    }
                };
                r != a.negate
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn card() -> Card {
        crate::cards::parse_card(
            include_str!("../../../cards/iconica/ico-grumbolt.toml"),
            "grumbolt",
        )
        .unwrap()
    }

    #[test]
    fn paths_filters_and_conditions_read_the_card() {
        let t = card_fields(&card(), Side::Front);
        let s = Scope::card(&t);
        assert_eq!(fill_text("{name}", &s), "Grumbolt");
        assert_eq!(fill_text("{faction|cap}!", &s), "Protectorate!");
        assert_eq!(fill_text("{actions[2].roll_label}", &s), "3");
        assert_eq!(fill_text("{affiliation|before: · }", &s), "");
        assert_eq!(fill_text("{nothing|or:—}", &s), "—");
        assert_eq!(fill_text("{{literal}}", &s), "{literal}");
        assert!(
            Condition::parse("faction = protectorate")
                .unwrap()
                .holds(&s)
        );
        assert!(!Condition::parse("faction = legion").unwrap().holds(&s));
        assert!(
            Condition::parse("not nothing and influence >= 2")
                .unwrap()
                .holds(&s)
        );
        assert!(
            Condition::parse("strengths or influence")
                .unwrap()
                .holds(&s)
        );
        assert!(parse_text("{name").is_err());
        assert!(
            parse_text("{name|shout}")
                .unwrap_err()
                .contains("unknown filter")
        );
        assert!(parse_path("actions[0].text").is_err());
    }
}
