//! No query, however malformed, panics: not the parser, not the whole search.

use crate::common;

use deckwright::search;
use proptest::prelude::*;

/// Text made of the query language's own pieces, so that much of it nearly parses.
fn queryish() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        Just("(".to_string()),
        Just(")".to_string()),
        Just("-".to_string()),
        Just(" or ".to_string()),
        Just(" ".to_string()),
        Just("\"".to_string()),
        Just("order:".to_string()),
        Just("order:-".to_string()),
        "[a-z_]{1,8}[:=<>!]{1,2}[a-z0-9.-]{0,6}",
        "[a-zA-Z0-9éü\\-]{1,8}",
        "(faction|cost|health|owned|id|name|game|kind|terrain|facton):",
        "\\PC{1,3}",
    ];
    prop::collection::vec(piece, 0..24).prop_map(|v| v.concat())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn parser_never_panics_on_any_text(text in "\\PC{0,80}") {
        if let Err(e) = search::parse(&text) {
            prop_assert!(e.column >= 1 && e.column <= text.chars().count() + 1, "{e} for {text:?}");
        }
    }

    #[test]
    fn parser_never_panics_on_queryish_text(text in queryish()) {
        if let Err(e) = search::parse(&text) {
            prop_assert!(e.column >= 1 && e.column <= text.chars().count() + 1, "{e} for {text:?}");
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn search_never_panics_and_only_bad_queries_fail(text in prop_oneof![queryish(), "\\PC{0,40}".boxed()]) {
        thread_local! { static CAT: deckwright::catalogue::Catalogue = common::catalogue(); }
        CAT.with(|cat| {
            for limit in [None, Some(3)] {
                match cat.search(&text, limit) {
                    Ok(hits) => assert!(limit.is_none_or(|n| hits.len() <= n)),
                    Err(e) => assert!(e.is_bad_query(), "database error for {text:?}: {e}"),
                }
            }
        });
    }
}
