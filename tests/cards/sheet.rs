//! Cards as spreadsheet rows: the bundled cards and generated cards of every kind go to CSV
//! and XLSX and come back identical; a bad sheet is refused whole, every problem named by
//! sheet, row, column and key; `deckwright sheet export/import` as a user runs them.

use std::path::Path;
use std::process::{Command, Output};

use deckwright::cards::{self, Card};
use deckwright::catalogue::bundled_cards;
use deckwright::sheet::{self, Format, SheetCard, SheetError};
use proptest::prelude::*;

fn with_copies(cards: Vec<Card>) -> Vec<SheetCard> {
    cards
        .into_iter()
        .enumerate()
        .map(|(i, card)| SheetCard {
            card,
            copies: (i % 4) as u32,
        })
        .collect()
}

/// Writes `cards` in `format` and reads them back.
fn round_trip(cards: &[SheetCard], format: Format) -> Result<Vec<SheetCard>, SheetError> {
    let bytes = match format {
        Format::Csv => sheet::to_csv(cards),
        Format::Xlsx => sheet::to_xlsx(cards)?,
    };
    let tables = sheet::read_tables(&bytes, format, "cards")?;
    Ok(sheet::cards_from_tables(&tables, "cards")?
        .into_iter()
        .map(|r| SheetCard {
            card: r.card,
            copies: r.copies.expect("every exported row has copies"),
        })
        .collect())
}

#[test]
fn bundled_cards_round_trip_exactly_through_csv_and_xlsx() {
    let cards = with_copies(bundled_cards().unwrap());
    assert!(cards.len() > 100);
    for format in [Format::Csv, Format::Xlsx] {
        let back = round_trip(&cards, format).unwrap();
        // XLSX groups rows by game and kind; compare as sets keyed by id.
        let mut want: Vec<_> = cards.iter().map(|c| (c.card.id().to_string(), c)).collect();
        let mut got: Vec<_> = back.iter().map(|c| (c.card.id().to_string(), c)).collect();
        want.sort_by(|a, b| a.0.cmp(&b.0));
        got.sort_by(|a, b| a.0.cmp(&b.0));
        assert_eq!(want.len(), got.len(), "{format:?}");
        for ((_, w), (_, g)) in want.iter().zip(&got) {
            assert_eq!(w, g, "{format:?}");
            // The catalogue stores the canonical TOML: it is the same text.
            assert_eq!(w.card.to_toml(), g.card.to_toml());
        }
    }
}

#[test]
fn a_workbook_has_a_worksheet_per_game_and_kind() {
    let cards = with_copies(bundled_cards().unwrap());
    let bytes = sheet::to_xlsx(&cards).unwrap();
    let tables = sheet::read_tables(&bytes, Format::Xlsx, "cards.xlsx").unwrap();
    let names: Vec<_> = tables.iter().map(|t| t.name.clone().unwrap()).collect();
    for want in [
        "iconica character",
        "arcadia merit",
        "arcadia league",
        "iconoclasm element",
        "ruunara hero",
    ] {
        assert!(
            names.iter().any(|n| n == want),
            "{want} missing from {names:?}"
        );
    }
    let ico = tables
        .iter()
        .find(|t| t.name.as_deref() == Some("iconica character"))
        .unwrap();
    assert_eq!(&ico.header[..5], ["game", "kind", "id", "name", "copies"]);
    assert!(ico.header.iter().any(|h| h == "health.start"));
    assert!(
        ico.header
            .iter()
            .any(|h| h == "actions[1].effects[1].damage"),
        "{:?}",
        ico.header
    );
    // Numbers are numbers in the workbook, not text.
    let col = ico.header.iter().position(|h| h == "health.start").unwrap();
    assert!(
        matches!(ico.rows[0][col], Some(sheet::Cell::Int(_))),
        "{:?}",
        ico.rows[0][col]
    );
}

/// Empty texts have no cell (an empty cell is an absent key): generated cards get a word
/// instead of an empty text.
fn no_empty_texts(card: Card) -> Option<Card> {
    fn fill(v: &mut toml::Value) {
        match v {
            toml::Value::String(s) if s.is_empty() => *s = "x".into(),
            toml::Value::Array(a) => a.iter_mut().for_each(fill),
            toml::Value::Table(t) => t.iter_mut().for_each(|(_, v)| fill(v)),
            _ => {}
        }
    }
    let mut v = card.to_value();
    fill(&mut v);
    cards::parse_card(&toml::to_string(&v).ok()?, "generated").ok()
}

#[test]
fn generated_cards_of_every_kind_round_trip_through_csv_and_xlsx() {
    super::roundtrip::check(
        64,
        || proptest::collection::vec(super::roundtrip::any_card(), 1..6),
        |cards| {
            let mut seen = std::collections::HashSet::new();
            let cards: Vec<Card> = cards
                .into_iter()
                .filter_map(no_empty_texts)
                .filter(|c| seen.insert(c.id().to_string()))
                .collect();
            // The generator makes cards the strict reader refuses (an effect that does
            // nothing, since ea69821); a batch of only those leaves nothing to round-trip
            // (an empty selection's sheet has no card key to read back).
            if cards.is_empty() {
                return Ok(());
            }
            let cards = with_copies(cards);
            for format in [Format::Csv, Format::Xlsx] {
                let mut back = round_trip(&cards, format)
                    .map_err(|e| TestCaseError::fail(format!("{format:?}: {e}")))?;
                let mut want = cards.clone();
                back.sort_by(|a, b| a.card.id().cmp(b.card.id()));
                want.sort_by(|a, b| a.card.id().cmp(b.card.id()));
                prop_assert_eq!(&want, &back, "{:?}", format);
            }
            Ok(())
        },
    );
}

fn csv_rows(text: &str) -> Result<Vec<sheet::RowCard>, SheetError> {
    let t = sheet::read_tables(text.as_bytes(), Format::Csv, "cards.csv")?;
    sheet::cards_from_tables(&t, "cards.csv")
}

fn problems(text: &str) -> Vec<String> {
    match csv_rows(text) {
        Err(SheetError::Invalid(v)) => v.iter().map(ToString::to_string).collect(),
        other => panic!("expected problems, got {other:?}"),
    }
}

const HEAD: &str = "game,kind,id,name,copies,race,faction,hp,movement,vision,close\n";
const ROW: &str = "ruunara,unit,ru-a,Alpha,2,ardann,ally,6,4,8,3D4+\n";

#[test]
fn a_good_row_reads_with_its_copies() {
    let rows = csv_rows(&format!("{HEAD}{ROW}")).unwrap();
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0].card.id(), "ru-a");
    assert_eq!(rows[0].copies, Some(2));
}

#[test]
fn every_bad_cell_is_named_by_row_column_and_key_and_nothing_is_read() {
    let text = format!(
        "{HEAD}{ROW}ruunara,unit,ru-b,Beta,1,ardann,ally,many,4,8,3D4+\nruunara,unit,ru-a,Again,1,ardann,ally,6,4,8,3D4+\nruunara,unit,ru-c,Gamma,x,ardann,ally,6,4,8,3D4+\n"
    );
    let p = problems(&text);
    assert_eq!(p.len(), 3, "{p:#?}");
    assert!(
        p[0].starts_with("cards.csv: row 3, column H (hp): key `hp`:"),
        "{}",
        p[0]
    );
    assert!(
        p[1].starts_with(
            "cards.csv: row 4, column C (id): key `id`: duplicate id `ru-a`, also in row 2"
        ),
        "{}",
        p[1]
    );
    assert!(
        p[2].starts_with("cards.csv: row 5, column E (copies): key `copies`:"),
        "{}",
        p[2]
    );
}

#[test]
fn an_unknown_column_is_named_with_the_keys_the_format_has() {
    let p = problems(&format!(
        "{}colour\n{}red\n",
        HEAD.trim_end().to_string() + ",",
        ROW.trim_end().to_string() + ","
    ));
    assert_eq!(p.len(), 1, "{p:?}");
    assert!(
        p[0].starts_with(
            "cards.csv: row 2, column L (colour): key `colour`: unknown field `colour`"
        ),
        "{}",
        p[0]
    );
}

#[test]
fn a_value_outside_its_set_is_named() {
    let p = problems(&format!(
        "{HEAD}ruunara,unit,ru-a,Alpha,2,ardann,enemyish,6,4,8,3D4+\n"
    ));
    assert!(
        p[0].starts_with("cards.csv: row 2, column G (faction): key `faction`:"),
        "{}",
        p[0]
    );
}

#[test]
fn a_bad_column_name_is_named_in_the_header_row() {
    let p = problems("game,kind,id,skills[0].name\nruunara,unit,ru-a,x\n");
    assert!(
        p[0].starts_with("cards.csv: row 1, column D (skills[0].name):"),
        "{}",
        p[0]
    );
    assert!(p[0].contains("from [1]"), "{}", p[0]);
}

#[test]
fn a_value_without_a_column_name_is_refused() {
    let p = problems(&format!(
        "{HEAD}{}",
        ROW.trim_end().to_string() + ",stray\n"
    ));
    assert!(
        p[0].starts_with("cards.csv: row 2, column L ():"),
        "{}",
        p[0]
    );
}

#[test]
fn text_that_looks_like_a_number_stays_text() {
    // An Iconica card number "007" and a name "1984".
    let card = bundled_cards()
        .unwrap()
        .into_iter()
        .find(|c| matches!(c, Card::Iconica(_)))
        .unwrap();
    let mut v = card.to_value();
    v["number"] = toml::Value::String("007".into());
    v["name"] = toml::Value::String("1984".into());
    let card = cards::parse_card(&toml::to_string(&v).unwrap(), "x").unwrap();
    let back = round_trip(&with_copies(vec![card.clone()]), Format::Csv).unwrap();
    assert_eq!(back[0].card, card);
}

#[test]
fn workbook_problems_name_the_sheet() {
    let cards = with_copies(bundled_cards().unwrap());
    let bytes = sheet::to_xlsx(&cards).unwrap();
    let mut tables = sheet::read_tables(&bytes, Format::Xlsx, "cards.xlsx").unwrap();
    let t = tables
        .iter_mut()
        .find(|t| t.name.as_deref() == Some("arcadia merit"))
        .unwrap();
    let col = t.header.iter().position(|h| h == "cost").unwrap();
    t.rows[2][col] = Some(sheet::Cell::Text("cheap".into()));
    let Err(SheetError::Invalid(p)) = sheet::cards_from_tables(&tables, "cards.xlsx") else {
        panic!("accepted")
    };
    let letter = sheet::path::column_letter(col);
    assert_eq!(p.len(), 1);
    assert!(
        p[0].to_string().starts_with(&format!(
            "cards.xlsx: sheet `arcadia merit`, row 4, column {letter} (cost): key `cost`:"
        )),
        "{}",
        p[0]
    );
}

// ---- the command line ----

fn run(db: &Path, dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_deckwright"))
        .arg("--db")
        .arg(db)
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap()
}

fn owned(db: &Path, dir: &Path, id: &str) -> u64 {
    let o = run(db, dir, &["search", &format!("id:{id}"), "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    v["results"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["id"] == id)
        .map(|r| r["owned"].as_u64().unwrap())
        .unwrap_or(0)
}

#[test]
fn cli_exports_a_selection_and_imports_an_edited_sheet() {
    let dir = tempfile::tempdir().unwrap();
    let (d, db) = (dir.path(), dir.path().join("cat.sqlite"));
    for out in ["merits.xlsx", "merits.csv"] {
        let o = run(&db, d, &["sheet", "export", "kind:merit", "--out", out]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    }
    let text = std::fs::read_to_string(d.join("merits.csv")).unwrap();
    let rows: Vec<&str> = text.lines().collect();
    assert!(
        rows[0].starts_with("game,kind,id,name,copies,"),
        "{}",
        rows[0]
    );
    assert!(rows[1..].iter().all(|r| r.starts_with("arcadia,merit,")));

    // A designer renames a card, adds a new one and sets copies.
    let first_id = rows[1].split(',').nth(2).unwrap().to_string();
    let mut edited = String::from(rows[0]);
    edited.push('\n');
    let mut renamed: Vec<String> = rows[1].split(',').map(str::to_string).collect();
    renamed[3] = "Renamed Merit".into();
    renamed[4] = "3".into();
    edited.push_str(&renamed.join(","));
    edited.push('\n');
    let mut new = renamed.clone();
    new[2] = "arc-m-sheet-new".into();
    new[4] = "".into();
    edited.push_str(&new.join(","));
    edited.push('\n');
    std::fs::write(d.join("edited.csv"), &edited).unwrap();
    let o = run(&db, d, &["sheet", "import", "edited.csv"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(
        String::from_utf8_lossy(&o.stdout).contains("1 new, 1 updated"),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
    assert_eq!(owned(&db, d, &first_id), 3);
    let o = run(&db, d, &["search", "id:arc-m-sheet-new", "--json"]);
    assert!(
        String::from_utf8_lossy(&o.stdout).contains("\"name\":\"Renamed Merit\""),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );

    // The workbook exported earlier imports back unchanged.
    let o = run(&db, d, &["sheet", "import", "merits.xlsx"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

#[test]
fn cli_refuses_a_bad_sheet_whole_with_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let (d, db) = (dir.path(), dir.path().join("cat.sqlite"));
    std::fs::write(d.join("bad.csv"), format!("{HEAD}ruunara,unit,ru-new-one,One,5,ardann,ally,6,4,8,3D4+\nruunara,unit,ru-new-two,Two,1,ardann,ally,6,4,8,3D4+,extra\n")).unwrap();
    let o = run(&db, d, &["sheet", "import", "bad.csv"]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("bad.csv: row 3, column L ()"), "{err}");
    assert!(err.contains("nothing was imported"), "{err}");
    // The good row was not imported either.
    let o = run(&db, d, &["search", "id:ru-new-", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["results"].as_array().map(Vec::len), Some(0), "{v}");
    // A file that is not a sheet, and an unknown extension.
    std::fs::write(d.join("junk.xlsx"), b"not a zip").unwrap();
    let o = run(&db, d, &["sheet", "import", "junk.xlsx"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("junk.xlsx"));
    let o = run(
        &db,
        d,
        &["sheet", "export", "kind:merit", "--out", "cards.ods"],
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(!d.join("cards.ods").exists());
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    /// Any text read as a CSV sheet gives cards or problems, never a panic.
    #[test]
    fn arbitrary_csv_never_panics_the_sheet_reader(
        head in "[a-z_.\\[\\]0-9,]{0,40}",
        body in "[a-z0-9 ,\"\\n.\\[\\]{}+-]{0,200}",
    ) {
        let text = format!("game,kind,id,{head}\n{body}");
        if let Ok(t) = sheet::read_tables(text.as_bytes(), Format::Csv, "x.csv") {
            let _ = sheet::cards_from_tables(&t, "x.csv");
        }
    }
}
