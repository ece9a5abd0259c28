//! Compiles a `Query` to one SQL statement with numbered parameters.
//!
//! Over every card (`Source::All`), each filter becomes a set test on the card's rowid
//! (`c.rowid IN (SELECT card FROM card_field ...)`), served by the `(key, text, card)` and
//! `(key, num, card)` indexes, and the positive bare words and phrases of one group of terms
//! become a single FTS5 `MATCH`, so the most selective test can drive.
//!
//! Over a window of cards read by name (`Source::FirstByName`), each test reads the card's
//! own row: `instr` over `search_words` / `search_fields` (`super::index`), falling back to
//! an FTS5 or `card_field` probe for a card whose columns are NULL. A window of owned cards
//! (`Source::FirstOwnedByName`) reads `card_owned`'s copy of the same columns by name; its
//! `owned` tests read the quantity it carries.
//! `NOT (...)` of a field test also holds for cards without the key.

use rusqlite::types::Value as Sql;

use super::ast::{Expr, Field, Filter, Op, OrderKey, Query, TermKind};
use super::index;

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
    /// Only the first `n` cards by name (read in order from the `card_search_scan` index);
    /// filters are per-card index probes. The first hits of a broad query come fast this way;
    /// when fewer than the limit are found, search again over `All`.
    FirstByName(usize),
    /// Only the first `n` cards by name among the owned cards that pass the query's
    /// top-level `owned` tests (read in order from the `card_owned_name` index). For a
    /// query that needs an owned card (`needs_owned`), whose hits are all among them.
    FirstOwnedByName(usize),
}

/// Compiles `query`. `key_type` says how each `order:` key of a card field sorts.
pub fn compile(
    query: &Query,
    key_type: &dyn Fn(&str) -> KeyType,
    source: Source,
    limit: Option<usize>,
) -> Compiled {
    let probe = matches!(source, Source::FirstByName(_) | Source::FirstOwnedByName(_));
    let mut b = Builder {
        params: Vec::new(),
        probe,
        owned_probe: probe,
        owned_column: matches!(source, Source::FirstOwnedByName(_)),
        fold: Vec::new(),
    };
    // With a limit, `owned` is read after the sort for the hits kept, not for every hit
    // sorted (unless it is a sort key).
    let owned_after = limit.is_some() && !query.order.iter().any(|k| k.field == Field::Owned);
    let mut select = if owned_after {
        String::from("SELECT c.id AS id, c.game AS game, c.kind AS kind, c.name AS name")
    } else {
        format!("SELECT c.id, c.game, c.kind, c.name, {OWNED} AS owned")
    };
    // the sort keys over `c`, and over the inner select's columns `h` (when wrapped)
    let mut order_by = Vec::new();
    let mut order_outer = Vec::new();
    for (i, key) in query.order.iter().enumerate() {
        let (expr, nullable) = b.sort_expr(key, key_type);
        let dir = if key.descending { " DESC" } else { "" };
        if nullable {
            select.push_str(&format!(", {expr} AS s{i}"));
            // one reference to the column: `s{i} IS NULL` would compute it again
            order_by.push(format!("s{i}{dir} NULLS LAST"));
            order_outer.push(format!("h.s{i}{dir} NULLS LAST"));
        } else {
            order_outer.push(format!("{}{dir}", expr.replacen("c.", "h.", 1)));
            order_by.push(format!("{expr}{dir}"));
        }
    }
    order_by.push("c.name COLLATE NOCASE, c.id".into());
    order_outer.push("h.name COLLATE NOCASE, h.id".into());
    let mut sql = select;
    match source {
        Source::All => sql.push_str(" FROM card AS c"),
        Source::FirstByName(n) => {
            let p = b.param(Sql::Integer(i64::try_from(n).unwrap_or(i64::MAX)));
            sql.push_str(&format!(
                " FROM (SELECT rowid, id, game, kind, name, search_words, search_fields FROM card ORDER BY name COLLATE NOCASE, id LIMIT {p}) AS c"
            ));
        }
        Source::FirstOwnedByName(n) => {
            // the top-level `owned` tests hold for every hit: they choose the window's cards
            // from the index entries, before any card row is read
            let mut owned = String::new();
            for f in top_owned(query) {
                let p = b.num(f.value.num.unwrap_or(0.0));
                owned.push_str(&format!(" AND o.quantity {} {p}", f.op.as_str()));
            }
            let p = b.param(Sql::Integer(i64::try_from(n).unwrap_or(i64::MAX)));
            // card_owned holds a copy of the card columns the window reads: one scan of
            // its covering index in name order (INDEXED BY: certain without statistics)
            sql.push_str(&format!(
                " FROM (SELECT o.card AS rowid, o.id AS id, o.game AS game, o.kind AS kind, o.name AS name, \
                 o.search_words AS search_words, o.search_fields AS search_fields, o.quantity AS quantity \
                 FROM card_owned AS o INDEXED BY card_owned_name \
                 WHERE 1{owned} ORDER BY o.name COLLATE NOCASE, o.id LIMIT {p}) AS c"
            ));
        }
    }
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
    if owned_after {
        sql = format!(
            "SELECT h.id, h.game, h.kind, h.name, {} AS owned FROM ({sql}) AS h ORDER BY {}",
            OWNED.replace("c.id", "h.id"),
            order_outer.join(", ")
        );
    }
    Compiled {
        sql,
        params: b.params,
    }
}

/// For a query that needs cards owned (a top-level `owned` test that 0 fails) and a card
/// field (a top-level positive field test): the number of `card_field` entries of that field
/// (the smallest when several, each counted up to `cap`). Over every card such a query reads
/// only these index entries, one integer `card_owned` probe each (the `owned` test is folded
/// into the field's set), and reads card rows for owned cards only: when they are few, that
/// is cheaper than testing windows of cards by name. None for any other query.
pub fn owned_field_counts(query: &Query, cap: usize) -> Option<Vec<Compiled>> {
    let Some(Expr::And(xs)) = &query.expr else {
        return None;
    };
    if !needs_owned(query) {
        return None;
    }
    let cap = Sql::Integer(i64::try_from(cap).unwrap_or(i64::MAX));
    let counts: Vec<Compiled> = xs
        .iter()
        .filter(|x| field_set(x))
        .filter_map(|x| match x {
            Expr::Term(t) => match &t.kind {
                TermKind::Filter(f) => Some(f),
                _ => None,
            },
            _ => None,
        })
        .filter_map(|f| {
            let Field::Key(k) = &f.field else { return None };
            let (cond, params) = match (f.op, f.value.num) {
                (Op::Eq, Some(n)) => (
                    "(text = ?2 OR num = ?3)",
                    vec![Sql::Text(f.value.text.clone()), Sql::Real(n)],
                ),
                (Op::Eq, None) => ("text = ?2", vec![Sql::Text(f.value.text.clone())]),
                (op, Some(n)) => (op.as_str(), vec![Sql::Real(n)]),
                (_, None) => return None,
            };
            let cond = if matches!(f.op, Op::Eq) {
                cond.to_string()
            } else {
                format!("num {cond} ?2")
            };
            let mut all = vec![Sql::Text(k.clone())];
            all.extend(params);
            all.push(cap.clone());
            let pc = all.len();
            Some(Compiled {
                sql: format!(
                    "SELECT count(*) FROM (SELECT 1 FROM card_field WHERE key = ?1 AND {cond} LIMIT ?{pc})"
                ),
                params: all,
            })
        })
        .collect();
    (!counts.is_empty()).then_some(counts)
}

/// The `owned` tests at the query's top level, which every hit passes.
fn top_owned(query: &Query) -> Vec<&Filter> {
    match &query.expr {
        Some(Expr::And(xs)) => xs.iter().filter_map(owned_filter).collect(),
        Some(e) => owned_filter(e).into_iter().collect(),
        None => Vec::new(),
    }
}

/// Does every hit of `query` have to be an owned card (a top-level `owned` test that 0
/// fails, such as `owned>0` or `owned>=2`)? Then its hits are all in `card_owned`.
pub fn needs_owned(query: &Query) -> bool {
    top_owned(query)
        .iter()
        .any(|f| !f.op.holds(0.0, f.value.num.unwrap_or(0.0)))
}

/// A card's owned quantity (0 when it is not in the collection).
const OWNED: &str = "COALESCE((SELECT quantity FROM collection WHERE card_id = c.id), 0)";

/// The owned quantity of the card whose rowid is `card` (0 when it is not in the
/// collection): an integer probe of `card_owned` (migration 0015), which needs no card row.
fn owned_by_row(card: &str) -> String {
    format!("COALESCE((SELECT o.quantity FROM card_owned AS o WHERE o.card = {card}), 0)")
}

struct Builder {
    params: Vec<Sql>,
    /// Test card fields by a probe per card (`EXISTS`) rather than as a set (`IN`).
    probe: bool,
    /// Test `owned` by a probe per card: in a window, or where another test drives.
    owned_probe: bool,
    /// The cards are owned ones that carry their quantity (`c.quantity`): test `owned` on it.
    owned_column: bool,
    /// `owned` tests (operator, placeholder) that hold for every card of the set tests being
    /// built: each set then keeps only the cards that pass them (tested on the set's rowid),
    /// so the card rows that fail are never read.
    fold: Vec<(Op, String)>,
}

/// Is `e` an `owned` comparison?
fn owned_filter(e: &Expr) -> Option<&Filter> {
    match e {
        Expr::Term(t) => match &t.kind {
            TermKind::Filter(f) if f.field == Field::Owned => Some(f),
            _ => None,
        },
        _ => None,
    }
}

/// Is `e` a positive card-field test, which is one or two `card_field` sets over every card
/// (an `owned` test may be folded into them)?
fn field_set(e: &Expr) -> bool {
    match e {
        Expr::Term(t) => matches!(
            &t.kind,
            TermKind::Filter(Filter { field: Field::Key(_), op, .. }) if *op != Op::Ne
        ),
        _ => false,
    }
}

/// Can `e` drive a search over every card (a positive test served by an index)?
fn drives(e: &Expr) -> bool {
    match e {
        Expr::Term(t) => match &t.kind {
            TermKind::Words(_) | TermKind::Phrase(_) => true,
            TermKind::Filter(f) => match f.field {
                Field::Owned => false,
                Field::Name | Field::Id | Field::Game | Field::Kind | Field::Key(_) => {
                    f.op != Op::Ne || matches!(f.field, Field::Key(_))
                }
            },
        },
        Expr::And(xs) => xs.iter().any(drives),
        Expr::Or(xs) => xs.iter().all(drives),
        Expr::Not(_) => false,
    }
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
    format!("name : {}", fts_words(&name_words(value), true))
}

fn name_words(value: &str) -> Vec<String> {
    value
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_string)
        .collect()
}

/// The `search_words` pattern of a positive free-text term and whether it must lie in the
/// name, if the term can be tested in the card's row.
fn words_of_term(e: &Expr) -> Option<(String, bool)> {
    match e {
        Expr::Term(t) => match &t.kind {
            TermKind::Words(w) => Some((index::words_pattern(w, true)?, false)),
            TermKind::Phrase(w) => Some((index::words_pattern(w, false)?, false)),
            TermKind::Filter(Filter {
                field: Field::Name,
                op: Op::Eq,
                value,
            }) => Some((index::words_pattern(&name_words(&value.text), true)?, true)),
            TermKind::Filter(_) => None,
        },
        _ => None,
    }
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

/// `CASE` over the card's `search_fields`: `in_row` when the card has them, else `probe`.
fn by_fields(in_row: String, probe: String) -> String {
    format!("CASE WHEN c.search_fields IS NULL THEN {probe} ELSE {in_row} END")
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
        let fold = self.folded("card_fts.rowid");
        format!("c.rowid IN (SELECT rowid FROM card_fts WHERE card_fts MATCH {p}{fold})")
    }

    /// The folded `owned` tests on the set's rowid column `card` (` AND ...`, or empty).
    fn folded(&self, card: &str) -> String {
        self.fold
            .iter()
            .map(|(op, p)| format!(" AND {} {} {p}", owned_by_row(card), op.as_str()))
            .collect()
    }

    /// Free text tested in the card's row (FTS5 for a card without `search_words`).
    fn words(&mut self, fts: String, pattern: &str, name_only: bool) -> String {
        let probe = self.fts(fts);
        let p = self.text(pattern);
        let test = if name_only {
            // the first match lies before the newline that ends the name's words
            format!("instr(c.search_words, {p}) BETWEEN 1 AND instr(c.search_words, char(10))")
        } else {
            format!("instr(c.search_words, {p}) > 0")
        };
        format!("CASE WHEN c.search_words IS NULL THEN {probe} ELSE {test} END")
    }

    fn expr(&mut self, e: &Expr) -> String {
        match e {
            Expr::And(xs) => {
                let owned_probe = self.owned_probe;
                self.owned_probe = owned_probe || xs.iter().any(drives);
                let sql = self.and(xs);
                self.owned_probe = owned_probe;
                sql
            }
            Expr::Or(xs) => {
                let parts: Vec<String> = xs.iter().map(|x| self.expr(x)).collect();
                format!("({})", parts.join(" OR "))
            }
            Expr::Not(x) => format!("NOT ({})", self.expr(x)),
            Expr::Term(t) => match (&t.kind, fts_of(e)) {
                (_, Some(q)) => match words_of_term(e).filter(|_| self.probe) {
                    Some((pattern, name_only)) => self.words(q, &pattern, name_only),
                    None => self.fts(q),
                },
                (TermKind::Filter(f), None) => self.filter(f),
                // fts_of covers every free-text term
                (_, None) => "0".into(),
            },
        }
    }

    fn and(&mut self, xs: &[Expr]) -> String {
        // in a window, free text the row can answer is tested term by term
        let probe = self.probe;
        let in_row = |x: &Expr| probe && words_of_term(x).is_some();
        let fts: Vec<String> = xs
            .iter()
            .filter(|x| !in_row(x))
            .filter_map(fts_of)
            .collect();
        // Over every card, `owned` tests go inside each positive set (free text, card
        // fields), whichever drives: only owned cards' rows are read.
        let fold_owned = !probe && (!fts.is_empty() || xs.iter().any(field_set));
        let mut fold = Vec::new();
        if fold_owned {
            for f in xs.iter().filter_map(owned_filter) {
                // the parser guarantees a number
                let p = self.num(f.value.num.unwrap_or(0.0));
                fold.push((f.op, p));
            }
        }
        let mut parts = Vec::new();
        for x in xs.iter().filter(|x| in_row(x)) {
            parts.push(self.expr(x));
        }
        if !fts.is_empty() {
            let outer = std::mem::replace(&mut self.fold, fold.clone());
            parts.push(self.fts(fts.join(" AND ")));
            self.fold = outer;
        }
        // cheap and narrowing tests first, negations last
        let mut rest: Vec<&Expr> = xs
            .iter()
            .filter(|x| fts_of(x).is_none())
            .filter(|x| !(fold_owned && owned_filter(x).is_some()))
            .collect();
        rest.sort_by_key(|x| cost_rank(x));
        for x in rest {
            let inner = if field_set(x) {
                fold.clone()
            } else {
                Vec::new()
            };
            let outer = std::mem::replace(&mut self.fold, inner);
            parts.push(self.expr(x));
            self.fold = outer;
        }
        format!("({})", parts.join(" AND "))
    }

    fn filter(&mut self, f: &Filter) -> String {
        let v = &f.value;
        match (&f.field, f.op) {
            (Field::Name, _) => {
                // `name:` is free text (fts_of); here only `name!=`
                let q = name_fts(&v.text);
                match index::words_pattern(&name_words(&v.text), true).filter(|_| self.probe) {
                    Some(pattern) => format!("NOT ({})", self.words(q, &pattern, true)),
                    None => format!("NOT {}", self.fts(q)),
                }
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
                if self.owned_column {
                    format!("c.quantity {} {p}", op.as_str())
                } else if self.owned_probe {
                    // a probe per card; no join, so SQLite cannot turn the loops around
                    format!("{} {} {p}", owned_by_row("c.rowid"), op.as_str())
                } else if op.holds(0.0, n) {
                    // `+c.id`: never an index constraint, else SQLite may pair each id of this
                    // list with each rowid of another filter's list.
                    // Cards missing from the collection (owned 0) match: exclude the others.
                    format!(
                        "+c.id NOT IN (SELECT card_id FROM collection WHERE NOT (quantity {} {p}))",
                        op.as_str()
                    )
                } else {
                    format!(
                        "+c.id IN (SELECT card_id FROM collection WHERE quantity {} {p})",
                        op.as_str()
                    )
                }
            }
            (Field::Key(k), Op::Eq) => {
                let probe = self.key_equals(k, v.text.as_str(), v.num);
                if !self.probe {
                    return probe;
                }
                let in_row = self.row_equals(k, v.text.as_str(), v.num);
                by_fields(in_row, probe)
            }
            (Field::Key(k), Op::Ne) => {
                let has = self.has_field(k, "");
                let equals = self.key_equals(k, v.text.as_str(), v.num);
                let probe = format!("({has} AND NOT {equals})");
                if !self.probe {
                    return probe;
                }
                let has = self.row_has(k);
                let equals = self.row_equals(k, v.text.as_str(), v.num);
                by_fields(format!("({has} AND NOT {equals})"), probe)
            }
            (Field::Key(k), op) => {
                // the parser guarantees a number for an ordering comparison
                let n = v.num.unwrap_or(0.0);
                let pn = self.num(n);
                let probe = self.has_field(k, &format!(" AND num {} {pn}", op.as_str()));
                if !self.probe {
                    return probe;
                }
                // some member compares: the smallest for < and <=, the largest for > and >=
                let largest = matches!(op, Op::Gt | Op::Ge);
                let in_row = match self.row_extreme(k, true, largest) {
                    Some((at, value)) => format!("({at} > 0 AND {value} {} {pn})", op.as_str()),
                    None => "0".into(),
                };
                by_fields(in_row, probe)
            }
        }
    }

    /// In the row: the card has key `k`.
    fn row_has(&mut self, k: &str) -> String {
        match index::key_tokens(k) {
            Some((text, num)) => {
                let pt = self.text(&text);
                let pn = self.text(&num);
                format!("(instr(c.search_fields, {pt}) > 0 OR instr(c.search_fields, {pn}) > 0)")
            }
            None => "0".into(),
        }
    }

    /// In the row: the card's key `k` has this text (or this number).
    fn row_equals(&mut self, k: &str, text: &str, num: Option<f64>) -> String {
        let mut tests = Vec::new();
        for token in [
            index::text_token(k, text),
            num.and_then(|n| index::num_token(k, n)),
        ]
        .into_iter()
        .flatten()
        {
            let p = self.text(&token);
            tests.push(format!("instr(c.search_fields, {p}) > 0"));
        }
        if tests.is_empty() {
            "0".into()
        } else {
            format!("({})", tests.join(" OR "))
        }
    }

    /// In the row: where the card's first (smallest) number (or text) of key `k` is (0 when
    /// it has none), and its smallest or largest value (only meaningful when it has one).
    fn row_extreme(&mut self, k: &str, numeric: bool, largest: bool) -> Option<(String, String)> {
        let (first, max) = index::extreme_tokens(k, numeric)?;
        let value_after = |b: &mut Self, token: &str| {
            let len = i64::try_from(token.chars().count()).unwrap_or(i64::MAX);
            let pt = b.text(token);
            let pl = b.param(Sql::Integer(len));
            let at = format!("instr(c.search_fields, {pt})");
            let value = if numeric {
                // CAST reads the number's digits and stops at the US that ends them
                format!("CAST(substr(c.search_fields, {at} + {pl}) AS REAL)")
            } else {
                let rest = format!("substr(c.search_fields, {at} + {pl})");
                format!("substr({rest}, 1, instr({rest}, char(31)) - 1)")
            };
            (at, value)
        };
        let (at, smallest) = value_after(self, &first);
        if !largest {
            return Some((at, smallest));
        }
        // several values: the token of the largest; one value: that value
        let (at_max, max_value) = value_after(self, &max);
        Some((
            at,
            format!("(CASE WHEN {at_max} > 0 THEN {max_value} ELSE {smallest} END)"),
        ))
    }

    /// The card has key `k` with a row meeting `cond` (SQL starting with ` AND`, or empty).
    fn has_field(&mut self, k: &str, cond: &str) -> String {
        let pk = self.text(k);
        if self.probe {
            // INDEXED BY: without statistics SQLite may pick the (key, num) index and scan a
            // whole range for each card
            format!(
                "EXISTS (SELECT 1 FROM card_field INDEXED BY card_field_probe WHERE card = c.rowid AND key = {pk}{cond})"
            )
        } else {
            let fold = self.folded("card_field.card");
            format!("c.rowid IN (SELECT card FROM card_field WHERE key = {pk}{cond}{fold})")
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
                let numeric = key_type(k) == KeyType::Num;
                let col = if numeric { "num" } else { "text" };
                let agg = if key.descending { "max" } else { "min" };
                let pk = self.text(k);
                let probe = format!(
                    "(SELECT {agg}({col}) FROM card_field INDEXED BY card_field_probe WHERE card = c.rowid AND key = {pk})"
                );
                let in_row = self.row_extreme(k, numeric, key.descending).map_or_else(
                    || "NULL".into(),
                    |(at, value)| format!("CASE WHEN {at} > 0 THEN {value} END"),
                );
                (format!("({})", by_fields(in_row, probe)), true)
            }
        }
    }
}
