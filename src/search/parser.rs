//! Turns tokens into a `Query`: `or` binds looser than terms side by side, `-` negates the
//! term or group after it, parentheses group, `order:` terms become sort keys.

use super::ast::{Expr, Field, Filter, Op, OrderKey, Query, Span, Term, TermKind, Value};
use super::error::SyntaxError;
use super::lexer::{self, RawOp, Tok, Token};

/// How deeply parentheses and `-` may nest.
pub const MAX_DEPTH: usize = 32;
/// How many terms one query may hold.
pub const MAX_TERMS: usize = 128;

/// Parses a query.
pub fn parse(text: &str) -> Result<Query, SyntaxError> {
    let tokens = lexer::lex(text)?;
    let mut p = Parser {
        text,
        tokens,
        pos: 0,
        terms: 0,
        order: Vec::new(),
    };
    let expr = if p.tokens.is_empty() { None } else { p.or(0)? };
    if let Some(t) = p.peek() {
        let message = match t.tok {
            Tok::RParen => "this ')' has no '(' to close; remove it or add a '(' before it",
            _ => "unexpected text here",
        };
        return Err(p.err_at(t.span, message));
    }
    Ok(Query {
        text: text.to_string(),
        expr,
        order: p.order,
    })
}

struct Parser<'a> {
    text: &'a str,
    tokens: Vec<Token>,
    pos: usize,
    terms: usize,
    /// Sort keys met so far.
    order: Vec<OrderKey>,
}

/// Where a term sits: `order:` is allowed only directly in the top-level list of terms.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Place {
    Top,
    Nested,
}

impl Parser<'_> {
    fn peek(&self) -> Option<&Token> {
        self.tokens.get(self.pos)
    }

    fn err_at(&self, span: Span, message: impl Into<String>) -> SyntaxError {
        SyntaxError {
            column: span.column,
            message: message.into(),
        }
    }

    fn at_end(&self, message: impl Into<String>) -> SyntaxError {
        SyntaxError {
            column: lexer::column(self.text, self.text.len()),
            message: message.into(),
        }
    }

    /// `and ("or" and)*`. `None` only at the top when every term was an `order:` term.
    fn or(&mut self, depth: usize) -> Result<Option<Expr>, SyntaxError> {
        let place = if depth == 0 {
            Place::Top
        } else {
            Place::Nested
        };
        let orders_before = self.order.len();
        let first = self.and(depth, place)?;
        let mut alts = Vec::new();
        while let Some(Token { tok: Tok::Or, span }) = self.peek().cloned() {
            if let Some(o) = self.order.get(orders_before) {
                return Err(self.err_at(o.span, order_misplaced()));
            }
            self.pos += 1;
            match self.peek().map(|t| &t.tok) {
                None => return Err(self.at_end("expected a term after 'or'")),
                Some(Tok::Or) | Some(Tok::RParen) => {
                    return Err(self.err_at(span, "expected a term after 'or'"));
                }
                _ => {}
            }
            alts.extend(self.and(depth, Place::Nested)?);
        }
        Ok(match first {
            Some(f) if !alts.is_empty() => {
                alts.insert(0, f);
                Some(Expr::Or(alts))
            }
            f => f,
        })
    }

    /// One or more unary terms side by side.
    fn and(&mut self, depth: usize, place: Place) -> Result<Option<Expr>, SyntaxError> {
        let mut items = Vec::new();
        let mut any = false;
        while let Some(t) = self.peek() {
            match t.tok {
                Tok::Or | Tok::RParen => break,
                _ => {
                    any = true;
                    items.extend(self.unary(depth, place)?);
                }
            }
        }
        if !any {
            return Err(match self.peek() {
                Some(Token { tok: Tok::Or, span }) => {
                    self.err_at(*span, "expected a term before 'or'")
                }
                Some(Token {
                    tok: Tok::RParen,
                    span,
                }) => self.err_at(*span, "expected a term before ')'"),
                _ => self.at_end("expected a term"),
            });
        }
        Ok(match items.len() {
            0 => None,
            1 => items.pop(),
            _ => Some(Expr::And(items)),
        })
    }

    /// `-` unary | `(` or `)` | term. `None` for an `order:` term.
    fn unary(&mut self, depth: usize, place: Place) -> Result<Option<Expr>, SyntaxError> {
        let Some(token) = self.peek().cloned() else {
            return Err(self.at_end("expected a term"));
        };
        if depth >= MAX_DEPTH {
            return Err(self.err_at(
                token.span,
                format!("the query nests '(' and '-' more than {MAX_DEPTH} deep"),
            ));
        }
        self.pos += 1;
        match token.tok {
            Tok::Minus => {
                let inner = self.unary(depth + 1, Place::Nested)?;
                Ok(inner.map(|e| Expr::Not(Box::new(e))))
            }
            Tok::LParen => {
                if let Some(Tok::RParen) = self.peek().map(|t| &t.tok) {
                    return Err(self.err_at(token.span, "empty parentheses: put a term inside"));
                }
                let inner = self.or(depth + 1)?;
                let unclosed = format!(
                    "expected ')' to close the '(' at column {}",
                    token.span.column
                );
                match self.peek() {
                    Some(Token {
                        tok: Tok::RParen, ..
                    }) => {
                        self.pos += 1;
                        Ok(inner)
                    }
                    Some(t) => Err(self.err_at(t.span, unclosed)),
                    None => Err(self.at_end(unclosed)),
                }
            }
            Tok::Or | Tok::RParen => Err(self.err_at(token.span, "expected a term")),
            Tok::Word(w) => {
                let ws = words(&w, self.err_at(token.span, no_letters(&w)))?;
                self.term(TermKind::Words(ws), token.span).map(Some)
            }
            Tok::Phrase(p) => {
                let ws = words(
                    &p,
                    self.err_at(token.span, "empty quotes: put words between them"),
                )?;
                self.term(TermKind::Phrase(ws), token.span).map(Some)
            }
            Tok::Filter {
                field,
                op,
                value,
                value_span,
            } => {
                let field_lc = field.to_ascii_lowercase();
                if field_lc == "order" {
                    self.order_term(op, &value, token.span, value_span, place)?;
                    return Ok(None);
                }
                let filter = filter(Field::from_name(&field_lc), op, &value, value_span)?;
                self.term(TermKind::Filter(filter), token.span).map(Some)
            }
        }
    }

    fn term(&mut self, kind: TermKind, span: Span) -> Result<Expr, SyntaxError> {
        self.terms += 1;
        if self.terms > MAX_TERMS {
            return Err(self.err_at(
                span,
                format!("too many terms: a query holds at most {MAX_TERMS}"),
            ));
        }
        Ok(Expr::Term(Term { kind, span }))
    }

    /// `order:field` or `order:-field`.
    fn order_term(
        &mut self,
        op: RawOp,
        value: &str,
        span: Span,
        value_span: Span,
        place: Place,
    ) -> Result<(), SyntaxError> {
        if op != RawOp::Colon {
            return Err(self.err_at(
                span,
                format!(
                    "write 'order:{value}' (with ':'), not 'order{}'",
                    op.as_str()
                ),
            ));
        }
        if place != Place::Top {
            return Err(self.err_at(span, order_misplaced()));
        }
        let (descending, name) = match value.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, value),
        };
        if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
            return Err(self.err_at(
                value_span,
                format!("'{value}' is not a field to sort by; write e.g. 'order:cost' or 'order:-health'"),
            ));
        }
        self.order.push(OrderKey {
            field: Field::from_name(&name.to_ascii_lowercase()),
            descending,
            span,
        });
        Ok(())
    }
}

fn order_misplaced() -> &'static str {
    "'order:' sorts the whole result: put it among the top-level terms, not inside '(...)', after '-' or next to 'or'"
}

fn no_letters(w: &str) -> String {
    format!("'{w}' has no letters or digits to search for; remove it")
}

/// The words of a bare word or phrase: its runs of letters and digits, lower-cased.
fn words(text: &str, none: SyntaxError) -> Result<Vec<String>, SyntaxError> {
    let ws: Vec<String> = text
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(|w| w.to_lowercase())
        .collect();
    if ws.is_empty() { Err(none) } else { Ok(ws) }
}

/// Reads a number: optional `-`, digits, optional `.` and digits.
fn number(s: &str) -> Option<f64> {
    let digits = s.strip_prefix('-').unwrap_or(s);
    let (int, frac) = match digits.split_once('.') {
        Some((i, f)) => (i, Some(f)),
        None => (digits, None),
    };
    let all_digits = |x: &str| !x.is_empty() && x.bytes().all(|b| b.is_ascii_digit());
    if all_digits(int) && frac.is_none_or(all_digits) && int.len() + frac.map_or(0, str::len) <= 15
    {
        s.parse().ok()
    } else {
        None
    }
}

/// Checks a filter's operator and value against its field.
fn filter(field: Field, raw: RawOp, value: &str, value_span: Span) -> Result<Filter, SyntaxError> {
    let op = match raw {
        RawOp::Colon | RawOp::Eq => Op::Eq,
        RawOp::Ne => Op::Ne,
        RawOp::Lt => Op::Lt,
        RawOp::Le => Op::Le,
        RawOp::Gt => Op::Gt,
        RawOp::Ge => Op::Ge,
    };
    let at = |message: String| SyntaxError {
        column: value_span.column,
        message,
    };
    let num = number(value.trim());
    let name = field.name().to_string();
    let ordering = !matches!(op, Op::Eq | Op::Ne);
    match &field {
        Field::Game | Field::Kind | Field::Name | Field::Id if ordering => {
            return Err(at(format!(
                "'{name}' is text: use '{name}:' or '{name}!=', not '{}'",
                raw.as_str()
            )));
        }
        Field::Owned if num.is_none() => {
            return Err(at(format!(
                "'owned' is a number: write e.g. 'owned>0', not 'owned{}{value}'",
                raw.as_str()
            )));
        }
        Field::Name if words(value, at(String::new())).is_err() => {
            return Err(at(no_letters(value)));
        }
        _ if ordering && num.is_none() => {
            return Err(at(format!(
                "expected a number after '{name}{}', found '{value}'",
                raw.as_str()
            )));
        }
        _ => {}
    }
    Ok(Filter {
        field,
        op,
        value: Value {
            text: value.to_lowercase(),
            num,
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers() {
        assert_eq!(number("3"), Some(3.0));
        assert_eq!(number("-2.5"), Some(-2.5));
        assert_eq!(number("1e5"), None);
        assert_eq!(number("inf"), None);
        assert_eq!(number("."), None);
        assert_eq!(number("5+"), None);
    }

    #[test]
    fn order_is_taken_out_of_the_tree() {
        let q = parse("faction:legion order:-cost").unwrap();
        assert_eq!(q.order.len(), 1);
        assert!(q.order[0].descending);
        assert!(matches!(q.expr, Some(Expr::Term(_))));
        let q = parse("order:name").unwrap();
        assert!(q.expr.is_none());
    }

    #[test]
    fn order_inside_or_is_an_error() {
        assert!(parse("a or order:cost").is_err());
        assert!(parse("order:cost or a").is_err());
        assert!(parse("(order:cost)").is_err());
        assert!(parse("-order:cost").is_err());
    }
}
