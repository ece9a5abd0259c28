//! Splits a query into tokens: parentheses, `-`, `or`, bare words, quoted phrases and field
//! filters (`field<op>value`, the value bare or quoted). Every token keeps its span.

use super::ast::Span;
use super::error::SyntaxError;

#[derive(Debug, Clone, PartialEq)]
pub enum Tok {
    LParen,
    RParen,
    /// `-` directly before a term: negation.
    Minus,
    /// The word `or` (any case).
    Or,
    /// A bare word, as written.
    Word(String),
    /// The inside of `"..."`.
    Phrase(String),
    /// `field<op>value`; `field` as written, `value` unquoted.
    Filter {
        field: String,
        op: RawOp,
        value: String,
        value_span: Span,
    },
}

/// An operator as written (`:` and `=` are told apart only for messages).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RawOp {
    Colon,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

impl RawOp {
    pub fn as_str(self) -> &'static str {
        match self {
            RawOp::Colon => ":",
            RawOp::Eq => "=",
            RawOp::Ne => "!=",
            RawOp::Lt => "<",
            RawOp::Le => "<=",
            RawOp::Gt => ">",
            RawOp::Ge => ">=",
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Token {
    pub tok: Tok,
    pub span: Span,
}

/// The 1-based character column of byte offset `at` in `text`.
pub fn column(text: &str, at: usize) -> usize {
    text.get(..at).map_or(at, |s| s.chars().count()) + 1
}

fn span(text: &str, start: usize, end: usize) -> Span {
    Span {
        start,
        end,
        column: column(text, start),
    }
}

fn err(text: &str, at: usize, message: impl Into<String>) -> SyntaxError {
    SyntaxError {
        column: column(text, at),
        message: message.into(),
    }
}

/// Ends a bare word or an unquoted value.
fn is_delimiter(c: char) -> bool {
    c.is_whitespace() || c == '(' || c == ')' || c == '"'
}

fn is_field_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// Reads the operator at the start of `rest`, with its length in bytes.
fn operator(rest: &str) -> Option<(RawOp, usize)> {
    let two = |s: &str| rest.starts_with(s);
    if two("<=") {
        Some((RawOp::Le, 2))
    } else if two(">=") {
        Some((RawOp::Ge, 2))
    } else if two("!=") {
        Some((RawOp::Ne, 2))
    } else {
        match rest.chars().next()? {
            ':' => Some((RawOp::Colon, 1)),
            '=' => Some((RawOp::Eq, 1)),
            '<' => Some((RawOp::Lt, 1)),
            '>' => Some((RawOp::Gt, 1)),
            _ => None,
        }
    }
}

/// Reads a quoted string whose opening `"` is at byte `open`; returns its inside and the
/// byte offset just past the closing quote.
fn quoted(text: &str, open: usize) -> Result<(String, usize), SyntaxError> {
    let inside = open + 1;
    match text[inside..].find('"') {
        Some(len) => Ok((text[inside..inside + len].to_string(), inside + len + 1)),
        None => Err(err(
            text,
            open,
            "this quote is never closed; add a closing \"",
        )),
    }
}

/// Byte offset of the end of the run of non-delimiters starting at `from`.
fn run_end(text: &str, from: usize) -> usize {
    text[from..]
        .find(is_delimiter)
        .map_or(text.len(), |n| from + n)
}

/// Splits `text` into tokens.
pub fn lex(text: &str) -> Result<Vec<Token>, SyntaxError> {
    let mut out = Vec::new();
    let mut at = 0;
    while let Some(c) = text[at..].chars().next() {
        if c.is_whitespace() {
            at += c.len_utf8();
            continue;
        }
        let start = at;
        let tok = match c {
            '(' => {
                at += 1;
                Tok::LParen
            }
            ')' => {
                at += 1;
                Tok::RParen
            }
            '-' => {
                at += 1;
                match text[at..].chars().next() {
                    Some(n) if !n.is_whitespace() && n != ')' => Tok::Minus,
                    _ => {
                        return Err(err(
                            text,
                            start,
                            "expected a term right after '-' (write '-faction:legion')",
                        ));
                    }
                }
            }
            '"' => {
                let (inside, end) = quoted(text, at)?;
                at = end;
                Tok::Phrase(inside)
            }
            _ => {
                let name_end = text[at..]
                    .find(|c: char| !is_field_char(c))
                    .map_or(text.len(), |n| at + n);
                match operator(&text[name_end..]).filter(|_| name_end > at) {
                    Some((op, len)) => {
                        let field = text[at..name_end].to_string();
                        let value_start = name_end + len;
                        let (value, end) = if text[value_start..].starts_with('"') {
                            let (inside, end) = quoted(text, value_start)?;
                            (inside, end)
                        } else {
                            let end = run_end(text, value_start);
                            (text[value_start..end].to_string(), end)
                        };
                        if value.trim().is_empty() {
                            return Err(err(
                                text,
                                value_start,
                                format!("expected a value after '{field}{}'", op.as_str()),
                            ));
                        }
                        at = end;
                        Tok::Filter {
                            field,
                            op,
                            value,
                            value_span: span(text, value_start, end),
                        }
                    }
                    None => {
                        at = run_end(text, at);
                        let word = &text[start..at];
                        if word.eq_ignore_ascii_case("or") {
                            Tok::Or
                        } else {
                            Tok::Word(word.to_string())
                        }
                    }
                }
            }
        };
        out.push(Token {
            tok,
            span: span(text, start, at),
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(s: &str) -> Vec<Tok> {
        lex(s).unwrap().into_iter().map(|t| t.tok).collect()
    }

    #[test]
    fn splits_terms() {
        assert_eq!(
            toks("-(a OR \"b c\") cost<=3"),
            vec![
                Tok::Minus,
                Tok::LParen,
                Tok::Word("a".into()),
                Tok::Or,
                Tok::Phrase("b c".into()),
                Tok::RParen,
                Tok::Filter {
                    field: "cost".into(),
                    op: RawOp::Le,
                    value: "3".into(),
                    value_span: Span {
                        start: 20,
                        end: 21,
                        column: 21
                    }
                },
            ]
        );
    }

    #[test]
    fn hyphen_inside_a_word_is_part_of_it() {
        assert_eq!(toks("ico-hadron"), vec![Tok::Word("ico-hadron".into())]);
    }

    #[test]
    fn quoted_value_and_unclosed_quote() {
        assert!(
            matches!(&toks("affiliation:\"whitefire syndicate\"")[0], Tok::Filter { value, .. } if value == "whitefire syndicate")
        );
        let e = lex("name:\"abc").unwrap_err();
        assert_eq!(e.column, 6);
    }

    #[test]
    fn columns_count_characters() {
        let e = lex("été cost<").unwrap_err();
        assert_eq!(e.column, 10);
    }
}
