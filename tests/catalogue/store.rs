//! The catalogue file: checks on open, backups before migrations, import (all or nothing),
//! export round trip, the clash table, concurrent connections.

use std::path::{Path, PathBuf};

use deckwright::catalogue::{self, Catalogue, CatalogueError, ImportError, ImportProblem, synthetic};
use deckwright::cards::{self, Card, CardLookup, Game};
use deckwright::games::iconoclasm::model::{ClashTable, Element};
use rusqlite::Connection;

const ELEMENT: &str = "game = \"iconoclasm\"\nkind = \"element\"\nid = \"tst-fire-water\"\nname = \"Fire/Water\"\nfront = \"fire\"\nback = \"water\"\nset = \"fire\"\n";

const MERIT: &str = "game = \"arcadia\"\nkind = \"merit\"\nid = \"tst-fire-dance\"\nname = \"Fire Dance\"\ntext = \"Dance.\"\nmerit_type = \"art\"\ncost = 2\nart = \"pyretics\"\n";

fn write(dir: &Path, rel: &str, text: &str) -> PathBuf {
    let p = dir.join(rel);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(&p, text).unwrap();
    p
}

fn empty_db(dir: &Path) -> Catalogue {
    Catalogue::open(&dir.join("cat.sqlite")).unwrap()
}

fn all_files(dir: &Path) -> Vec<(PathBuf, String)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else {
                out.push((p.strip_prefix(dir).unwrap().to_path_buf(), std::fs::read_to_string(&p).unwrap()));
            }
        }
    }
    out.sort();
    out
}

#[test]
fn new_catalogue_is_migrated_in_wal_with_the_clash_table() {
    let dir = tempfile::tempdir().unwrap();
    let cat = empty_db(dir.path());
    let mode: String = cat.conn().query_row("PRAGMA journal_mode", [], |r| r.get(0)).unwrap();
    assert_eq!(mode, "wal");
    let v: i64 = cat.conn().query_row("PRAGMA user_version", [], |r| r.get(0)).unwrap();
    assert_eq!(v, catalogue::schema_version());
    assert_eq!(cat.clash_table().unwrap().clash.len(), 4);
    assert_eq!(cat.count().unwrap() as usize, catalogue::bundled_cards().unwrap().len());
}

#[test]
fn a_text_file_is_refused_with_a_clear_message_and_left_alone() {
    let dir = tempfile::tempdir().unwrap();
    let p = write(dir.path(), "notes.txt", "shopping list\n");
    let e = Catalogue::open(&p).err().expect("a text file is not a catalogue");
    assert!(matches!(e, CatalogueError::Damaged(_)), "{e}");
    assert!(e.to_string().contains("not a deckwright catalogue"), "{e}");
    assert_eq!(std::fs::read_to_string(&p).unwrap(), "shopping list\n");
}

#[test]
fn a_foreign_sqlite_database_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("other.db");
    Connection::open(&p).unwrap().execute_batch("CREATE TABLE invoices(n INTEGER); INSERT INTO invoices VALUES (1);").unwrap();
    let e = Catalogue::open(&p).err().expect("a foreign database");
    assert!(e.to_string().contains("not a deckwright catalogue"), "{e}");
    assert!(e.to_string().contains("invoices"), "{e}");
    let n: i64 = Connection::open(&p).unwrap().query_row("SELECT count(*) FROM invoices", [], |r| r.get(0)).unwrap();
    assert_eq!(n, 1, "the foreign file is untouched");
}

#[test]
fn a_damaged_catalogue_is_reported_not_a_crash() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("cat.sqlite");
    {
        let mut cat = Catalogue::open(&p).unwrap();
        synthetic::fill(&mut cat, 300, 1).unwrap();
        cat.conn().execute_batch("PRAGMA wal_checkpoint(TRUNCATE);").unwrap();
    }
    // Scribble over the middle of the file, keeping the header.
    let mut bytes = std::fs::read(&p).unwrap();
    assert!(bytes.len() > 40_000);
    for b in &mut bytes[8192..40_000] {
        *b = 0xA5;
    }
    std::fs::write(&p, &bytes).unwrap();
    let e = Catalogue::open(&p).err().expect("damage is found");
    assert!(matches!(e, CatalogueError::Damaged(_)), "{e}");
    assert!(e.to_string().contains("damaged") || e.to_string().contains("cannot be read"), "{e}");
}

#[test]
fn a_catalogue_from_a_newer_build_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("cat.sqlite");
    drop(Catalogue::open(&p).unwrap());
    Connection::open(&p).unwrap().execute_batch("PRAGMA user_version = 999;").unwrap();
    let e = Catalogue::open(&p).err().expect("too new");
    assert!(e.to_string().contains("newer deckwright"), "{e}");
}

/// A catalogue at schema 1 (the first migration only), with a card and an owned quantity.
fn old_catalogue(p: &Path) {
    let conn = Connection::open(p).unwrap();
    conn.execute_batch(include_str!("../../migrations/0001_catalogue.sql")).unwrap();
    conn.execute_batch(
        "INSERT INTO card(id, game, kind, name, body, texts) VALUES ('icl-x', 'iconoclasm', 'element', 'X', 'game = \"iconoclasm\"\nkind = \"element\"\nid = \"icl-x\"\nname = \"X\"\nfront = \"fire\"\nback = \"fire\"\nset = \"fire\"\n', '');
         INSERT INTO collection VALUES ('icl-x', 3);
         PRAGMA user_version = 1;",
    )
    .unwrap();
}

#[test]
fn migrating_an_existing_catalogue_takes_a_backup_and_keeps_three() {
    assert!(catalogue::schema_version() >= 2, "this test needs a migration after the first");
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("cat.sqlite");
    old_catalogue(&p);
    let cat = Catalogue::open(&p).unwrap();
    assert_eq!(cat.owned("icl-x").unwrap(), 3, "data survives the migration");
    drop(cat);
    let backups = || -> Vec<PathBuf> {
        let mut v: Vec<PathBuf> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.file_name().unwrap().to_string_lossy().starts_with("cat.sqlite.backup-"))
            .collect();
        v.sort();
        v
    };
    let first = backups();
    assert_eq!(first.len(), 1);
    let b = Connection::open(&first[0]).unwrap();
    let v: i64 = b.query_row("PRAGMA user_version", [], |r| r.get(0)).unwrap();
    assert_eq!(v, 1, "the backup is the catalogue before the migration");
    let q: i64 = b.query_row("SELECT quantity FROM collection WHERE card_id = 'icl-x'", [], |r| r.get(0)).unwrap();
    assert_eq!(q, 3);
    // No migration pending: no backup.
    drop(Catalogue::open(&p).unwrap());
    assert_eq!(backups().len(), 1);
    // Four more migrations of an old catalogue at this path: only the newest three backups stay.
    for _ in 0..4 {
        for ext in ["", "-wal", "-shm"] {
            let _ = std::fs::remove_file(format!("{}{ext}", p.display()));
        }
        old_catalogue(&p);
        drop(Catalogue::open(&p).unwrap());
    }
    let left = backups();
    assert_eq!(left.len(), 3, "{left:?}");
    assert!(!left.contains(&first[0]), "the oldest backup was removed");
}

#[test]
fn import_is_all_or_nothing_and_names_file_line_and_column() {
    let dir = tempfile::tempdir().unwrap();
    let mut cat = empty_db(dir.path());
    let before = cat.count().unwrap();
    let cards_dir = dir.path().join("in");
    write(&cards_dir, "a/element.toml", ELEMENT);
    write(&cards_dir, "b/deep/merit.toml", MERIT);
    let bad = write(&cards_dir, "b/bad.toml", &MERIT.replace("tst-fire-dance", "tst-other").replace("cost = 2", "cots = 2"));
    let e = cat.import_paths(std::slice::from_ref(&cards_dir)).unwrap_err();
    let msg = e.to_string();
    assert!(msg.contains(&format!("{}:7:1", bad.display())), "{msg}");
    assert!(msg.contains("`cots`"), "{msg}");
    assert_eq!(cat.count().unwrap(), before, "nothing imported");
    assert!(cat.get("tst-fire-water").unwrap().is_none());

    std::fs::remove_file(&bad).unwrap();
    let r = cat.import_paths(&[cards_dir]).unwrap();
    assert_eq!((r.files, r.added, r.updated), (2, 2, 0));
    assert_eq!(cat.count().unwrap(), before + 2);
    assert_eq!(cat.get("tst-fire-dance").unwrap().unwrap().name(), "Fire Dance");
}

#[test]
fn two_files_with_one_id_name_both_files() {
    let dir = tempfile::tempdir().unwrap();
    let mut cat = empty_db(dir.path());
    let a = write(dir.path(), "x/a.toml", ELEMENT);
    let b = write(dir.path(), "x/b.toml", &ELEMENT.replace("Fire/Water", "Other"));
    let e = cat.import_paths(&[a.clone(), b.clone()]).unwrap_err();
    let ImportError::Invalid(problems) = &e else { panic!("{e}") };
    assert!(matches!(&problems[0], ImportProblem::Duplicate { id, line: 3, .. } if id == "tst-fire-water"), "{problems:?}");
    let msg = e.to_string();
    assert!(msg.contains(&a.display().to_string()) && msg.contains(&b.display().to_string()), "{msg}");
    assert!(cat.get("tst-fire-water").unwrap().is_none());
}

#[test]
fn reimport_replaces_a_changed_card_and_keeps_its_quantity() {
    let dir = tempfile::tempdir().unwrap();
    let mut cat = empty_db(dir.path());
    let f = write(dir.path(), "m.toml", MERIT);
    cat.import_paths(std::slice::from_ref(&f)).unwrap();
    cat.set_owned("tst-fire-dance", 2).unwrap();
    let same = cat.import_paths(std::slice::from_ref(&f)).unwrap();
    assert_eq!((same.added, same.updated, same.unchanged), (0, 0, 1));
    std::fs::write(&f, MERIT.replace("cost = 2", "cost = 5").replace("Dance.", "A burning dance.")).unwrap();
    let r = cat.import_paths(std::slice::from_ref(&f)).unwrap();
    assert_eq!((r.added, r.updated), (0, 1));
    let Some(Card::Arcadia(deckwright::games::arcadia::model::ArcadiaCard::Merit(m))) = cat.get("tst-fire-dance").unwrap() else {
        panic!("merit expected")
    };
    assert_eq!(m.cost, 5);
    assert_eq!(cat.owned("tst-fire-dance").unwrap(), 2);
    // The searchable rows follow the card.
    let cost: f64 = cat
        .conn()
        .query_row(
            "SELECT num FROM card_field JOIN card ON card.rowid = card_field.card WHERE card.id = 'tst-fire-dance' AND key = 'cost'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(cost, 5.0);
    let hits: i64 = cat
        .conn()
        .query_row("SELECT count(*) FROM card_fts WHERE card_fts MATCH 'burning'", [], |r| r.get(0))
        .unwrap();
    assert_eq!(hits, 1);
    let stale: i64 =
        cat.conn().query_row("SELECT count(*) FROM card_fts WHERE card_fts MATCH 'dance NOT burning'", [], |r| r.get(0)).unwrap();
    assert_eq!(stale, 0, "the old text left the index");
}

#[test]
fn export_import_export_gives_identical_files() {
    let dir = tempfile::tempdir().unwrap();
    let mut cat = empty_db(dir.path());
    synthetic::fill(&mut cat, 200, 3).unwrap();
    let mut table = ClashTable::standard();
    table.clash.swap(0, 1);
    table.clash[0].mutual = Element::Air;
    table.clash[0].flips = Element::Water;
    cat.set_clash_table(&table).unwrap();
    let out1 = dir.path().join("out1");
    let r = cat.export_dir(&out1).unwrap();
    assert_eq!(r.cards as u64, cat.count().unwrap());
    assert!(out1.join("iconoclasm/clashes.toml").is_file());
    assert!(out1.join("iconica").is_dir() && out1.join("arcadia").is_dir() && out1.join("ruunara").is_dir());

    let mut fresh = Catalogue::open(&dir.path().join("fresh.sqlite")).unwrap();
    let imported = fresh.import_paths(std::slice::from_ref(&out1)).unwrap();
    assert!(imported.clash_table);
    assert_eq!(fresh.clash_table().unwrap(), table);
    let out2 = dir.path().join("out2");
    fresh.export_dir(&out2).unwrap();
    let (a, b) = (all_files(&out1), all_files(&out2));
    assert_eq!(a.len(), b.len());
    assert!(a == b, "exported files differ after a round trip");
    assert!(a.iter().all(|(p, _)| !p.file_name().unwrap().to_string_lossy().starts_with('.')), "no temporary files left");
}

#[test]
fn lookup_by_id_and_name() {
    let mut cat = Catalogue::open_empty_in_memory().unwrap();
    let card = cards::parse_card(ELEMENT, "e.toml").unwrap();
    cat.upsert(std::slice::from_ref(&card)).unwrap();
    assert_eq!(cat.card("tst-fire-water").map(|c| c.into_owned()), Some(card.clone()));
    assert!(cat.card("nope").is_none());
    assert_eq!(cat.cards_named(Game::Iconoclasm, "Fire/Water").len(), 1);
    assert!(cat.cards_named(Game::Arcadia, "Fire/Water").is_empty());
    assert!(cat.cards_named(Game::Iconoclasm, "fire/water").is_empty(), "names are case-sensitive");
}

#[test]
fn two_connections_writing_at_once_do_not_corrupt_the_catalogue() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("cat.sqlite");
    drop(Catalogue::open(&p).unwrap());
    let files = dir.path().join("files");
    synthetic::write_files(&files, 400, 9).unwrap();
    let writers: Vec<_> = (0..2)
        .map(|w| {
            let (p, files) = (p.clone(), files.clone());
            std::thread::spawn(move || {
                let mut cat = Catalogue::open(&p).unwrap();
                for round in 0..5 {
                    cat.import_paths(std::slice::from_ref(&files)).unwrap();
                    cat.set_owned(&format!("syn-{}", w * 10 + round), round + 1).unwrap();
                }
            })
        })
        .collect();
    for w in writers {
        w.join().unwrap();
    }
    let cat = Catalogue::open(&p).unwrap();
    let ok: String = cat.conn().query_row("PRAGMA integrity_check", [], |r| r.get(0)).unwrap();
    assert_eq!(ok, "ok");
    assert_eq!(cat.count().unwrap() as usize, 400 + catalogue::bundled_cards().unwrap().len());
    assert_eq!(cat.owned("syn-4").unwrap(), 5);
    assert_eq!(cat.owned("syn-14").unwrap(), 5);
}

#[test]
fn synthetic_fill_adds_searchable_cards() {
    let mut cat = Catalogue::open_empty_in_memory().unwrap();
    synthetic::fill(&mut cat, 1000, 5).unwrap();
    assert_eq!(cat.count().unwrap(), 1000);
    let fields: i64 = cat.conn().query_row("SELECT count(DISTINCT card) FROM card_field", [], |r| r.get(0)).unwrap();
    assert_eq!(fields, 1000);
    let fts: i64 = cat.conn().query_row("SELECT count(*) FROM card_fts", [], |r| r.get(0)).unwrap();
    assert_eq!(fts, 1000);
}

#[test]
fn bundled_cards_and_clash_table_fill_a_new_catalogue_and_missing_ones_return() {
    let bundled = catalogue::bundled_cards().unwrap();
    assert!(!bundled.is_empty(), "the binary bundles the cards/ folder");
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("cat.sqlite");
    let cat = Catalogue::open(&p).unwrap();
    for c in &bundled {
        assert_eq!(cat.get(c.id()).unwrap().as_ref(), Some(c));
    }
    let file = cards::bundled().into_iter().find(|(p, _)| p.ends_with("iconoclasm/clashes.toml"));
    if let Some((path, text)) = file {
        let cards::CardFile::Clashes(t) = cards::parse(text, &path).unwrap() else { panic!("clash table") };
        assert_eq!(cat.clash_table().unwrap(), t);
    }
    // A catalogue made before a card was bundled (simulated: the card and the fingerprint
    // are gone) gets it on its next start; a card the user changed is kept.
    let first = bundled[0].id().to_string();
    let second = bundled[1].clone();
    cat.conn().execute("DELETE FROM card WHERE id = ?1", [&first]).unwrap();
    cat.conn().execute("UPDATE card SET name = 'Renamed' WHERE id = ?1", [second.id()]).unwrap();
    cat.conn().execute("DELETE FROM meta WHERE key = 'bundled.fingerprint'", []).unwrap();
    drop(cat);
    let cat = Catalogue::open(&p).unwrap();
    assert!(cat.get(&first).unwrap().is_some());
    let name: String = cat.conn().query_row("SELECT name FROM card WHERE id = ?1", [second.id()], |r| r.get(0)).unwrap();
    assert_eq!(name, "Renamed");
    assert_eq!(cat.count().unwrap() as usize, bundled.len());
}

#[test]
fn a_file_named_twice_is_read_once_and_a_byte_order_mark_is_accepted() {
    let dir = tempfile::tempdir().unwrap();
    let mut cat = empty_db(dir.path());
    let folder = dir.path().join("in");
    let f = write(&folder, "merit.toml", &format!("\u{feff}{MERIT}"));
    let r = cat.import_paths(&[folder.clone(), f.clone(), f]).unwrap();
    assert_eq!((r.files, r.added), (1, 1));
    assert!(cat.get("tst-fire-dance").unwrap().is_some());
}

#[test]
fn a_missing_path_is_bad_input_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    let mut cat = empty_db(dir.path());
    let missing = dir.path().join("nowhere.toml");
    let e = cat.import_paths(std::slice::from_ref(&missing)).unwrap_err();
    assert!(matches!(e, ImportError::Invalid(_)));
    assert!(e.to_string().contains(&missing.display().to_string()), "{e}");
}

/// Writes generated card files for manual timing: `DW_SYNTH_DIR=/tmp/x DW_SYNTH_N=10000
/// cargo test --test catalogue write_synthetic_files -- --ignored`.
#[test]
#[ignore]
fn write_synthetic_files() {
    let dir = std::env::var("DW_SYNTH_DIR").expect("DW_SYNTH_DIR");
    let n = std::env::var("DW_SYNTH_N").ok().and_then(|n| n.parse().ok()).unwrap_or(10_000);
    let paths = synthetic::write_files(Path::new(&dir), n, 1).unwrap();
    assert_eq!(paths.len() as u64, n);
}

#[test]
fn a_big_import_indexes_its_text_and_keeps_the_triggers() {
    let dir = tempfile::tempdir().unwrap();
    let mut cat = empty_db(dir.path());
    let files = dir.path().join("many");
    synthetic::write_files(&files, 600, 4).unwrap();
    let r = cat.import_paths(std::slice::from_ref(&files)).unwrap();
    assert_eq!(r.added, 600);
    let triggers: i64 = cat
        .conn()
        .query_row("SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name IN ('card_ai', 'card_ad', 'card_au')", [], |r| r.get(0))
        .unwrap();
    assert_eq!(triggers, 3);
    let name = cat.get("syn-123").unwrap().unwrap().name().to_string();
    let word = name.split(' ').next().unwrap().to_string();
    let hit: i64 = cat
        .conn()
        .query_row(
            "SELECT count(*) FROM card_fts JOIN card ON card.rowid = card_fts.rowid WHERE card_fts MATCH ?1 AND card.id = 'syn-123'",
            [format!("\"{word}\"")],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(hit, 1, "{name}");
    let check: Result<(), _> = cat.conn().execute_batch("INSERT INTO card_fts(card_fts, rank) VALUES ('integrity-check', 1)");
    assert!(check.is_ok(), "{check:?}");
    // A card added afterwards, one at a time, is indexed by the trigger again.
    cat.upsert(&[cards::parse_card(ELEMENT, "e.toml").unwrap()]).unwrap();
    let hit: i64 = cat.conn().query_row("SELECT count(*) FROM card_fts WHERE card_fts MATCH 'water'", [], |r| r.get(0)).unwrap();
    assert!(hit >= 1);
}
