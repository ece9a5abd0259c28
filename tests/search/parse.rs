//! The query parser: structure of what parses, and the column and message of what does not.

use deckwright::search::{self, Expr, Field, Op, TermKind};

fn err(q: &str) -> (usize, String) {
    match search::parse(q) {
        Err(e) => (e.column, e.message),
        Ok(parsed) => panic!("`{q}` parsed: {parsed:?}"),
    }
}

#[test]
fn and_binds_tighter_than_or() {
    let q = search::parse("a b or c").unwrap();
    let Some(Expr::Or(alts)) = q.expr else {
        panic!("{q:?}")
    };
    assert_eq!(alts.len(), 2);
    assert!(matches!(&alts[0], Expr::And(xs) if xs.len() == 2));
    assert!(matches!(&alts[1], Expr::Term(_)));
}

#[test]
fn or_is_case_insensitive_and_quoted_or_is_a_word() {
    assert!(matches!(
        search::parse("a OR b").unwrap().expr,
        Some(Expr::Or(_))
    ));
    let q = search::parse("\"or\"").unwrap();
    assert!(matches!(q.expr, Some(Expr::Term(t)) if t.kind == TermKind::Phrase(vec!["or".into()])));
}

#[test]
fn negation_applies_to_the_next_term_or_group() {
    let q = search::parse("-(a or b) c").unwrap();
    let Some(Expr::And(xs)) = q.expr else {
        panic!()
    };
    assert!(matches!(&xs[0], Expr::Not(inner) if matches!(**inner, Expr::Or(_))));
}

#[test]
fn filters_keep_field_op_and_lower_cased_value() {
    let q = search::parse("Faction:Legion cost<=3 health>=100 owned>0 rating<5 points>2 hp!=4")
        .unwrap();
    let Some(Expr::And(xs)) = q.expr else {
        panic!()
    };
    let filters: Vec<(String, Op, String)> = xs
        .iter()
        .map(|x| match x {
            Expr::Term(t) => match &t.kind {
                TermKind::Filter(f) => (f.field.name().to_string(), f.op, f.value.text.clone()),
                other => panic!("{other:?}"),
            },
            other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(filters[0], ("faction".into(), Op::Eq, "legion".into()));
    assert_eq!(filters[1], ("cost".into(), Op::Le, "3".into()));
    assert_eq!(filters[2].1, Op::Ge);
    assert_eq!(filters[3], ("owned".into(), Op::Gt, "0".into()));
    assert_eq!(filters[4].1, Op::Lt);
    assert_eq!(filters[5].1, Op::Gt);
    assert_eq!(filters[6].1, Op::Ne);
}

#[test]
fn terms_know_their_column() {
    let q = search::parse("iron  faction:legion").unwrap();
    let Some(Expr::And(xs)) = q.expr else {
        panic!()
    };
    let Expr::Term(t) = &xs[1] else { panic!() };
    assert_eq!(t.span.column, 7);
}

#[test]
fn order_terms_become_sort_keys() {
    let q = search::parse("game:iconica order:-health order:name").unwrap();
    assert_eq!(q.order.len(), 2);
    assert_eq!(q.order[0].field, Field::Key("health".into()));
    assert!(q.order[0].descending);
    assert_eq!(q.order[1].field, Field::Name);
    assert!(!q.order[1].descending);
    assert!(matches!(q.expr, Some(Expr::Term(_))));
}

#[test]
fn empty_query_matches_everything() {
    assert_eq!(search::parse("   ").unwrap().expr, None);
    assert_eq!(search::parse("").unwrap().expr, None);
}

#[test]
fn unclosed_parenthesis_points_past_the_end() {
    let (col, msg) = err("game:iconica (faction:legion");
    assert_eq!(col, 29);
    assert!(msg.starts_with("expected ')'"), "{msg}");
    assert!(msg.contains("column 14"), "{msg}");
}

#[test]
fn stray_closing_parenthesis() {
    let (col, msg) = err("a) b");
    assert_eq!(col, 2);
    assert!(msg.contains("')'"), "{msg}");
}

#[test]
fn misplaced_or() {
    assert_eq!(err("or a").0, 1);
    assert_eq!(err("a or").0, 5);
    assert_eq!(err("a or or b").0, 3);
    assert_eq!(err("(a or) b").0, 4);
}

#[test]
fn empty_parentheses_and_dangling_minus() {
    assert_eq!(err("a ()").0, 3);
    let (col, msg) = err("a - b");
    assert_eq!(col, 3);
    assert!(msg.contains("'-'"), "{msg}");
}

#[test]
fn missing_value() {
    let (col, msg) = err("faction: legion");
    assert_eq!(col, 9);
    assert!(msg.contains("faction:"), "{msg}");
    assert_eq!(err("cost<=").0, 7);
}

#[test]
fn comparison_needs_a_number() {
    let (col, msg) = err("cost<=three");
    assert_eq!(col, 7);
    assert!(msg.contains("number"), "{msg}");
    assert_eq!(err("owned:lots").0, 7);
    assert_eq!(err("game>2").0, 6);
}

#[test]
fn unclosed_quote_points_at_it() {
    assert_eq!(err("iron \"shield wall").0, 6);
    assert_eq!(err("name:\"iron").0, 6);
    assert_eq!(err("a \"\"").0, 3);
}

#[test]
fn word_without_letters() {
    let (col, msg) = err("iron !!");
    assert_eq!(col, 6);
    assert!(msg.contains("!!"), "{msg}");
}

#[test]
fn order_must_be_a_top_level_term() {
    assert_eq!(err("a or order:cost").0, 6);
    assert_eq!(err("order:cost or a").0, 1);
    assert_eq!(err("(order:cost)").0, 2);
    assert_eq!(err("-order:cost").0, 2);
    assert_eq!(err("order:").0, 7);
    assert_eq!(err("order:--cost").0, 7);
    assert_eq!(err("order<cost").0, 1);
}

#[test]
fn depth_and_size_are_bounded() {
    let deep = "(".repeat(500) + "a" + &")".repeat(500);
    assert!(err(&deep).1.contains("deep"));
    let negs = "-".repeat(100) + "a";
    assert!(search::parse(&negs).is_err());
    let many = vec!["a"; search::MAX_TERMS + 1].join(" ");
    assert!(err(&many).1.contains("too many"));
    assert!(search::parse(&vec!["a"; search::MAX_TERMS].join(" ")).is_ok());
}

#[test]
fn columns_count_characters_not_bytes() {
    // "é" is two bytes, one column
    assert_eq!(err("épée (a").0, 8);
}
