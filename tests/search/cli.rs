//! `deckwright search`: output lines, JSON shape, exit codes, `--` before a leading `-`.

use crate::common;

use std::path::Path;
use std::process::{Command, Output};

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
