//! `deckwright search`: output lines, JSON shape, exit codes, `--` before a leading `-`.

use crate::common;

use std::path::Path;
use std::process::{Command, Output};

use deckwright::cards::Card;
use deckwright::catalogue::Catalogue;

/// A catalogue file holding only the test cards.
fn db(dir: &Path) -> std::path::PathBuf {
    let path = dir.join("cat.sqlite");
    let mut cat = Catalogue::open(&path).unwrap();
    cat.sql_for_tests()
        .execute_batch("DELETE FROM card; DELETE FROM collection;")
        .unwrap();
    cat.upsert(&common::cards()).unwrap();
    cat.sql_for_tests()
        .execute_batch("INSERT INTO collection(card_id, quantity) VALUES ('ico-hadron', 2)")
        .unwrap();
    path
}

fn run(db: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_deckwright"))
        .arg("--db")
        .arg(db)
        .arg("search")
        .args(args)
        .env_remove("DECKWRIGHT_DB")
        .output()
        .unwrap()
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

#[test]
fn prints_one_card_a_line_and_a_count_on_stderr() {
    let dir = tempfile::tempdir().unwrap();
    let out = run(&db(dir.path()), &["faction:legion"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 2, "{stdout}");
    let cols: Vec<&str> = lines[0].split_whitespace().collect();
    assert_eq!(
        cols,
        [
            "ico-iron-maiden",
            "iconica",
            "character",
            "Iron",
            "Maiden",
            "0"
        ]
    );
    assert!(lines[1].starts_with("ico-quaker "));
    assert_eq!(text(&out.stderr).trim(), "2 cards");
}

#[test]
fn json_has_the_query_and_the_results() {
    let dir = tempfile::tempdir().unwrap();
    let out = run(&db(dir.path()), &["--json", "id:ico-hadron"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["query"], "id:ico-hadron");
    assert_eq!(
        v["results"],
        serde_json::json!([{"id": "ico-hadron", "game": "iconica", "kind": "character", "name": "Hadron", "owned": 2}])
    );
}

#[test]
fn several_arguments_are_one_query() {
    let dir = tempfile::tempdir().unwrap();
    let out = run(
        &db(dir.path()),
        &["--json", "game:iconica", "class:offensive"],
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["query"], "game:iconica class:offensive");
    assert_eq!(v["results"].as_array().unwrap().len(), 2);
}

#[test]
fn a_query_starting_with_minus_goes_after_double_dash() {
    let dir = tempfile::tempdir().unwrap();
    let db = db(dir.path());
    let out = run(&db, &["--json", "--", "-faction:legion", "game:iconica"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let ids: Vec<&str> = v["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["ico-hadron", "ico-medic"]);
    // the same with --json after the query
    let out = run(&db, &["--", "-faction:legion"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout).lines().count(), 11);
}

#[test]
fn syntax_error_is_bad_input_with_column_and_caret() {
    let dir = tempfile::tempdir().unwrap();
    let out = run(&db(dir.path()), &["--json", "game:iconica (faction:legion"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty(), "no JSON on bad input");
    let err = text(&out.stderr);
    let lines: Vec<&str> = err.lines().collect();
    assert!(
        lines[0].starts_with("error: query column 29: expected ')'"),
        "{err}"
    );
    assert_eq!(lines[1], "  game:iconica (faction:legion");
    assert_eq!(lines[2], format!("  {}^", " ".repeat(28)));
}

#[test]
fn unknown_field_is_bad_input_naming_it_and_the_known_fields() {
    let dir = tempfile::tempdir().unwrap();
    let out = run(&db(dir.path()), &["facton:legion"]);
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(
        err.contains("'facton'") && err.contains("did you mean 'faction'"),
        "{err}"
    );
    assert!(
        err.contains("known fields:") && err.contains("terrain") && err.contains("owned"),
        "{err}"
    );
    assert!(out.stdout.is_empty());
}

#[test]
fn no_match_is_success_with_zero_count() {
    let dir = tempfile::tempdir().unwrap();
    let out = run(&db(dir.path()), &["zzzzzz"]);
    assert!(out.status.success());
    assert!(out.stdout.is_empty());
    assert_eq!(text(&out.stderr).trim(), "0 cards");
}

#[test]
fn search_escapes_control_characters_in_names() {
    let dir = tempfile::tempdir().unwrap();
    let path = db(dir.path());
    let mut cat = Catalogue::open(&path).unwrap();
    let hostile =
        "Evil\x1b]0;pwned\x07\x1b[2J\rico-forged  iconica  character  Forged\n\u{9b}31m\u{202e}x";
    let mut cards = common::cards();
    let card = cards.iter_mut().find(|c| c.id() == "ico-hadron").unwrap();
    let Card::Iconica(ch) = card else {
        panic!("an Iconica card")
    };
    ch.name = hostile.to_string();
    cat.upsert(&cards).unwrap();
    drop(cat);

    let out = run(&path, &["id:ico-hadron"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert_eq!(
        stdout.lines().count(),
        1,
        "one row, none forged: {stdout:?}"
    );
    for raw in ['\x1b', '\x07', '\r', '\u{9b}', '\u{202e}'] {
        assert!(!stdout.contains(raw), "{raw:?} in {stdout:?}");
    }
    assert!(
        stdout.contains("Evil\\x1b]0;pwned\\x07\\x1b[2J\\rico-forged  iconica  character  Forged\\n\\u{9b}31m\\u{202e}x"),
        "{stdout}"
    );
    assert!(
        stdout.ends_with(" 2\n"),
        "the owned column stays last: {stdout:?}"
    );

    // JSON stays exact: the name as stored, escaped only as JSON escapes it.
    let out = run(&path, &["--json", "id:ico-hadron"]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["results"][0]["name"], hostile);
}

#[test]
fn a_query_beyond_the_limit_is_refused_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    let path = db(dir.path());
    let long = "x".repeat(4097);
    let out = run(&path, &[&long]);
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    assert!(
        text(&out.stderr).contains("a query holds at most 4096"),
        "{}",
        text(&out.stderr)
    );
    // At the limit it is a query like any other.
    let out = run(&path, &[&"x".repeat(4096)]);
    assert!(out.status.success(), "{}", text(&out.stderr));
}

#[test]
fn search_into_closed_pipe_does_not_panic() {
    let dir = tempfile::tempdir().unwrap();
    let path = db(dir.path());
    crate::run_cli::closed_pipe::assert_quiet(&path, &["search", "game:iconica"], 0);
    crate::run_cli::closed_pipe::assert_quiet(&path, &["search", "--json", "game:iconica"], 0);
}
