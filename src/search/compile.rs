//! Compiles a `Query` to one SQL statement with numbered parameters.
//!
//! Each filter becomes a set test on the card's rowid (`c.rowid IN (SELECT card FROM
//! card_field ...)`), served by the `(key, text, card)` and `(key, num, card)` indexes; the
//! positive bare words and phrases of one group of terms become a single FTS5 `MATCH`.
//! `NOT (...)` of a set test also holds for cards without the key.

use rusqlite::types::Value as Sql;

use super::ast::{Expr, Field, Filter, Op, OrderKey, Query, TermKind};

/// A statement ready to run: its SQL and its parameters (`?1`, `?2`, ...).
#[derive(Debug, Clone, PartialEq)]
pub struct Compiled {
    pub sql: String,
    pub params: Vec<Sql>,
}

/// How a sort key of a card field compares: by its numbers or by its texts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeyType {
    Num,
    Text,
}

/// Where the cards come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// Every card; filters are set tests, so the most selective one can drive the search.
    All,
    /// Only the first `n` cards by name (read in order from the `card_search_name` index);
    /// filters are per-card index probes. The first hits of a broad query come fast this way;
    /// when fewer than the limit are found, search again over `All`.
    FirstByName(usize),
}

/// Compiles `query`. `key_type` says how each `order:` key of a card field sorts.
pub fn compile(
    query: &Query,
    key_type: &dyn Fn(&str) -> KeyType,
    source: Source,
    limit: Option<usize>,
) -> Compiled {
    let mut b = Builder {
        params: Vec::new(),
        probe: matches!(source, Source::FirstByName(_)),
    };
    let mut select =
        String::from("SELECT c.id, c.game, c.kind, c.name, COALESCE(o.quantity, 0) AS owned");
    let mut order_by = Vec::new();
    for (i, key) in query.order.iter().enumerate() {
        let (expr, nullable) = b.sort_expr(key, key_type);
        let dir = if key.descending { " DESC" } else { "" };
        if nullable {
            select.push_str(&format!(", {expr} AS s{i}"));
            order_by.push(format!("s{i} IS NULL, s{i}{dir}"));
        } else {
            order_by.push(format!("{expr}{dir}"));
        }
    }
    order_by.push("c.name COLLATE NOCASE, c.id".into());
    let mut sql = select;
    match source {
        Source::All => sql.push_str(" FROM card AS c"),
        Source::FirstByName(n) => {
            let p = b.param(Sql::Integer(i64::try_from(n).unwrap_or(i64::MAX)));
            sql.push_str(&format!(
                " FROM (SELECT rowid, id, game, kind, name FROM card ORDER BY name COLLATE NOCASE, id LIMIT {p}) AS c"
            ));
        }
    }
    sql.push_str(" LEFT JOIN collection AS o ON o.card_id = c.id");
    if let Some(e) = &query.expr {
        let cond = b.expr(e);
        sql.push_str(" WHERE ");
        sql.push_str(&cond);
    }
    sql.push_str(" ORDER BY ");
    sql.push_str(&order_by.join(", "));
    if let Some(n) = limit {
        let p = b.param(Sql::Integer(i64::try_from(n).unwrap_or(i64::MAX)));
        sql.push_str(&format!(" LIMIT {p}"));
    }
    Compiled {
        sql,
        params: b.params,
    }
}

struct Builder {
    params: Vec<Sql>,
    /// Test card fields by a probe per card (`EXISTS`) rather than as a set (`IN`).
    probe: bool,
}

/// The FTS5 query of a bare word (`"w1 w2"*`: the last word a prefix) or phrase.
fn fts_words(words: &[String], prefix: bool) -> String {
    format!("\"{}\"{}", words.join(" "), if prefix { "*" } else { "" })
}

/// The FTS5 text of a positive free-text term, if `e` is one.
fn fts_of(e: &Expr) -> Option<String> {
    match e {
        Expr::Term(t) => match &t.kind {
            TermKind::Words(w) => Some(fts_words(w, true)),
            TermKind::Phrase(w) => Some(fts_words(w, false)),
            TermKind::Filter(Filter {
                field: Field::Name,
                op: Op::Eq,
                value,
            }) => Some(name_fts(&value.text)),
            TermKind::Filter(_) => None,
        },
        _ => None,
    }
}

/// `name : "w1 w2"*`: words of the name only.
fn name_fts(value: &str) -> String {
    let words: Vec<String> = value
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_string)
        .collect();
    format!("name : {}", fts_words(&words, true))
}

/// The order in which the operands of an AND are tested: card columns, then fields, then
/// groups, then negations (which rarely narrow much).
fn cost_rank(e: &Expr) -> u8 {
    match e {
        Expr::Term(t) => match &t.kind {
            TermKind::Filter(Filter {
                field: Field::Game | Field::Kind | Field::Id,
                ..
            }) => 0,
            _ => 1,
        },
        Expr::And(_) => 1,
        Expr::Or(_) => 2,
        Expr::Not(_) => 3,
    }
}

impl Builder {
    /// Adds a parameter; returns its placeholder.
    fn param(&mut self, v: Sql) -> String {
        self.params.push(v);
        format!("?{}", self.params.len())
    }

    fn text(&mut self, s: &str) -> String {
        self.param(Sql::Text(s.to_string()))
    }

    fn num(&mut self, n: f64) -> String {
        self.param(Sql::Real(n))
    }

    fn fts(&mut self, query: String) -> String {
        let p = self.param(Sql::Text(query));
        format!("c.rowid IN (SELECT rowid FROM card_fts WHERE card_fts MATCH {p})")
    }

    fn expr(&mut self, e: &Expr) -> String {
        match e {
            Expr::And(xs) => {
                let fts: Vec<String> = xs.iter().filter_map(fts_of).collect();
                let mut parts = Vec::new();
                if !fts.is_empty() {
                    parts.push(self.fts(fts.join(" AND ")));
                }
                // cheap and narrowing tests first, negations last
                let mut rest: Vec<&Expr> = xs.iter().filter(|x| fts_of(x).is_none()).collect();
                rest.sort_by_key(|x| cost_rank(x));
                for x in rest {
                    parts.push(self.expr(x));
                }
                format!("({})", parts.join(" AND "))
            }
            Expr::Or(xs) => {
                let parts: Vec<String> = xs.iter().map(|x| self.expr(x)).collect();
                format!("({})", parts.join(" OR "))
            }
            Expr::Not(x) => format!("NOT ({})", self.expr(x)),
            Expr::Term(t) => match (&t.kind, fts_of(e)) {
                (_, Some(q)) => self.fts(q),
                (TermKind::Filter(f), None) => self.filter(f),
                // fts_of covers every free-text term
                (_, None) => "0".into(),
            },
        }
    }

    fn filter(&mut self, f: &Filter) -> String {
        let v = &f.value;
        match (&f.field, f.op) {
            (Field::Name, _) => {
                // `name:` is free text (fts_of); here only `name!=`
                let q = name_fts(&v.text);
                format!("NOT {}", self.fts(q))
            }
            (Field::Game | Field::Kind, op) => {
                let col = if f.field == Field::Game {
                    "c.game"
                } else {
                    "c.kind"
                };
                let p = self.text(&v.text);
                let sql_op = if op == Op::Ne { "!=" } else { "=" };
                format!("{col} {sql_op} {p}")
            }
            (Field::Id, op) => {
                let valid = v
                    .text
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-');
                let test = if valid {
                    let p = self.text(&format!("{}*", v.text));
                    format!("c.id GLOB {p}")
                } else {
                    "0".to_string()
                };
                if op == Op::Ne {
                    format!("NOT ({test})")
                } else {
                    test
                }
            }
            (Field::Owned, op) => {
                // the parser guarantees a number
                let n = v.num.unwrap_or(0.0);
                let p = self.num(n);
                if self.probe {
                    format!("COALESCE(o.quantity, 0) {} {p}", op.as_str())
                } else if op.holds(0.0, n) {
                    // cards missing from the collection (owned 0) match: exclude the others
                    format!(
                        "c.id NOT IN (SELECT card_id FROM collection WHERE NOT (quantity {} {p}))",
                        op.as_str()
                    )
                } else {
                    format!(
                        "c.id IN (SELECT card_id FROM collection WHERE quantity {} {p})",
                        op.as_str()
                    )
                }
            }
            (Field::Key(k), Op::Eq) => self.key_equals(k, v.text.as_str(), v.num),
            (Field::Key(k), Op::Ne) => {
                let has = self.has_field(k, "");
                let equals = self.key_equals(k, v.text.as_str(), v.num);
                format!("({has} AND NOT {equals})")
            }
            (Field::Key(k), op) => {
                // the parser guarantees a number for an ordering comparison
                let pn = self.num(v.num.unwrap_or(0.0));
                self.has_field(k, &format!(" AND num {} {pn}", op.as_str()))
            }
        }
    }

    /// The card has key `k` with a row meeting `cond` (SQL starting with ` AND`, or empty).
    fn has_field(&mut self, k: &str, cond: &str) -> String {
        let pk = self.text(k);
        if self.probe {
            format!("EXISTS (SELECT 1 FROM card_field WHERE key = {pk}{cond} AND card = c.rowid)")
        } else {
            format!("c.rowid IN (SELECT card FROM card_field WHERE key = {pk}{cond})")
        }
    }

    /// The card's key `k` has this text (or this number).
    fn key_equals(&mut self, k: &str, text: &str, num: Option<f64>) -> String {
        let pt = self.text(text);
        let by_text = self.has_field(k, &format!(" AND text = {pt}"));
        match num {
            Some(n) => {
                let pn = self.num(n);
                let by_num = self.has_field(k, &format!(" AND num = {pn}"));
                format!("({by_text} OR {by_num})")
            }
            None => by_text,
        }
    }

    /// The expression a sort key sorts by, and whether it can be NULL (cards without the key,
    /// which sort last in both directions).
    fn sort_expr(&mut self, key: &OrderKey, key_type: &dyn Fn(&str) -> KeyType) -> (String, bool) {
        match &key.field {
            Field::Name => ("c.name COLLATE NOCASE".into(), false),
            Field::Id => ("c.id".into(), false),
            Field::Game => ("c.game".into(), false),
            Field::Kind => ("c.kind".into(), false),
            Field::Owned => ("owned".into(), false),
            Field::Key(k) => {
                let col = match key_type(k) {
                    KeyType::Num => "num",
                    KeyType::Text => "text",
                };
                let agg = if key.descending { "max" } else { "min" };
                let pk = self.text(k);
                (
                    format!(
                        "(SELECT {agg}({col}) FROM card_field WHERE card = c.rowid AND key = {pk})"
                    ),
                    true,
                )
            }
        }
    }
}
