//! The parsed form of a query: an expression tree of terms, each with its place in the text,
//! plus the sort keys given by `order:` terms.

/// A place in the query text: byte offsets `start..end` and the 1-based character column of `start`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Span {
    pub start: usize,
    pub end: usize,
    pub column: usize,
}

/// A parsed query. `expr` is `None` when the query has no filter (it then matches every card).
#[derive(Debug, Clone, PartialEq)]
pub struct Query {
    pub text: String,
    pub expr: Option<Expr>,
    /// Sort keys in the order given; the name (then the id) always breaks ties.
    pub order: Vec<OrderKey>,
}

/// A boolean combination of terms.
#[derive(Debug, Clone, PartialEq)]
pub enum Expr {
    /// Every operand holds (terms side by side).
    And(Vec<Expr>),
    /// At least one operand holds (`a or b`).
    Or(Vec<Expr>),
    /// The operand does not hold (`-term`).
    Not(Box<Expr>),
    Term(Term),
}

/// One search term and where it was written.
#[derive(Debug, Clone, PartialEq)]
pub struct Term {
    pub kind: TermKind,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq)]
pub enum TermKind {
    /// A bare word: its words (letters and digits), the last one a prefix, in the name or a text.
    Words(Vec<String>),
    /// A quoted phrase: these whole words, in this order, in the name or a text.
    Phrase(Vec<String>),
    /// `field<op>value`.
    Filter(Filter),
}

/// A field filter such as `faction:legion` or `cost<=3`.
#[derive(Debug, Clone, PartialEq)]
pub struct Filter {
    /// The field, lower-cased.
    pub field: Field,
    pub op: Op,
    pub value: Value,
}

/// The fields a filter can name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Field {
    /// The game (`iconica`, `arcadia`, ...).
    Game,
    /// The card kind (`character`, `merit`, ...).
    Kind,
    /// Words of the card's name (word prefixes, like bare words).
    Name,
    /// A prefix of the card id.
    Id,
    /// The owned quantity from the collection (0 when absent).
    Owned,
    /// A key of the card's format, lower-cased.
    Key(String),
}

impl Field {
    /// The field as written in queries.
    pub fn name(&self) -> &str {
        match self {
            Field::Game => "game",
            Field::Kind => "kind",
            Field::Name => "name",
            Field::Id => "id",
            Field::Owned => "owned",
            Field::Key(k) => k,
        }
    }

    /// The field named `name` (lower-cased).
    pub fn from_name(name: &str) -> Field {
        match name {
            "game" => Field::Game,
            "kind" => Field::Kind,
            "name" => Field::Name,
            "id" => Field::Id,
            "owned" => Field::Owned,
            other => Field::Key(other.to_string()),
        }
    }
}

/// The comparison of a filter.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    /// `:` or `=`: has that value.
    Eq,
    /// `!=`: has the key, and not that value.
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

impl Op {
    pub fn as_str(self) -> &'static str {
        match self {
            Op::Eq => "=",
            Op::Ne => "!=",
            Op::Lt => "<",
            Op::Le => "<=",
            Op::Gt => ">",
            Op::Ge => ">=",
        }
    }

    /// Does `a <op> b` hold?
    pub fn holds(self, a: f64, b: f64) -> bool {
        match self {
            Op::Eq => a == b,
            Op::Ne => a != b,
            Op::Lt => a < b,
            Op::Le => a <= b,
            Op::Gt => a > b,
            Op::Ge => a >= b,
        }
    }
}

/// The value of a filter: its text (lower-cased) and, when it reads as a number, that number.
#[derive(Debug, Clone, PartialEq)]
pub struct Value {
    pub text: String,
    pub num: Option<f64>,
}

/// One sort key of `order:field` (`order:-field`: descending).
#[derive(Debug, Clone, PartialEq)]
pub struct OrderKey {
    pub field: Field,
    pub descending: bool,
    pub span: Span,
}

impl Query {
    /// Every field a filter or sort key names, with the span where it is named.
    pub fn fields(&self) -> Vec<(&Field, Span)> {
        let mut out = Vec::new();
        if let Some(e) = &self.expr {
            collect_fields(e, &mut out);
        }
        out.extend(self.order.iter().map(|o| (&o.field, o.span)));
        out
    }
}

fn collect_fields<'a>(e: &'a Expr, out: &mut Vec<(&'a Field, Span)>) {
    match e {
        Expr::And(xs) | Expr::Or(xs) => xs.iter().for_each(|x| collect_fields(x, out)),
        Expr::Not(x) => collect_fields(x, out),
        Expr::Term(Term {
            kind: TermKind::Filter(f),
            span,
        }) => out.push((&f.field, *span)),
        Expr::Term(_) => {}
    }
}
