//! The real binary: `import`, `cards export`, `collection`, `--db` / `DECKWRIGHT_DB`, exit
//! codes, a process killed mid-import, two processes at once.

use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::Duration;

use deckwright::catalogue::{Catalogue, synthetic};

const MERIT: &str = "game = \"arcadia\"\nkind = \"merit\"\nid = \"tst-fire-dance\"\nname = \"Fire Dance\"\ntext = \"Dance.\"\nmerit_type = \"art\"\ncost = 2\n";

fn bin() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_deckwright"));
    c.env_remove("DECKWRIGHT_DB");
    c
}

fn run(db: &Path, args: &[&str]) -> Output {
    bin().arg("--db").arg(db).args(args).output().unwrap()
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

#[test]
fn import_export_and_collection_through_the_cli() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("cat.sqlite");
    let cards = dir.path().join("cards");
    std::fs::create_dir_all(cards.join("sub")).unwrap();
    std::fs::write(cards.join("sub/merit.toml"), MERIT).unwrap();
    std::fs::write(cards.join("README.md"), "not a card").unwrap();

    let out = run(&db, &["import", cards.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("1 new"), "{}", text(&out.stdout));

    let out = run(&db, &["collection", "set", "tst-fire-dance", "3"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let csv = dir.path().join("owned.csv");
    let out = run(&db, &["collection", "export", csv.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(std::fs::read_to_string(&csv).unwrap(), "id,name,game,quantity\ntst-fire-dance,Fire Dance,arcadia,3\n");

    let exported = dir.path().join("exported");
    let out = run(&db, &["cards", "export", exported.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(std::fs::read_to_string(exported.join("arcadia/tst-fire-dance.toml")).unwrap(), MERIT);
    assert!(exported.join("iconoclasm/clashes.toml").is_file());

    // Unknown card and negative quantity are bad input.
    let out = run(&db, &["collection", "set", "nope", "1"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).starts_with("error: ") && text(&out.stderr).contains("nope"));
    let out = run(&db, &["collection", "set", "tst-fire-dance", "-1"]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));

    let bad_csv = dir.path().join("bad.csv");
    std::fs::write(&bad_csv, "Count,Name\n2,Fire Dance\n1,Nobody\n").unwrap();
    let out = run(&db, &["collection", "import", bad_csv.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("Nobody"), "{}", text(&out.stderr));
    let out = run(&db, &["collection", "import", "--skip-unknown", bad_csv.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(Catalogue::open(&db).unwrap().owned("tst-fire-dance").unwrap(), 2);
}

#[test]
fn a_bad_card_file_exits_2_naming_file_line_column_and_key() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("cat.sqlite");
    let good = dir.path().join("good.toml");
    let bad = dir.path().join("bad.toml");
    std::fs::write(&good, MERIT).unwrap();
    std::fs::write(&bad, MERIT.replace("tst-fire-dance", "arc-x").replace("cost = 2", "cost = \"two\"")).unwrap();
    let out = run(&db, &["import", good.to_str().unwrap(), bad.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(err.contains(&format!("{}:7:", bad.display())), "{err}");
    assert!(err.contains("`cost`"), "{err}");
    assert!(out.stdout.is_empty());
    assert!(Catalogue::open(&db).unwrap().get("tst-fire-dance").unwrap().is_none(), "all or nothing");
}

#[test]
fn the_environment_variable_chooses_the_catalogue_and_bad_files_are_reported() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("env.sqlite");
    let f = dir.path().join("m.toml");
    std::fs::write(&f, MERIT).unwrap();
    let out = bin().env("DECKWRIGHT_DB", &db).args(["import", f.to_str().unwrap()]).output().unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(Catalogue::open(&db).unwrap().get("tst-fire-dance").unwrap().is_some());

    let notes = dir.path().join("notes.txt");
    std::fs::write(&notes, "hello\n").unwrap();
    let out = run(&notes, &["collection", "set", "tst-fire-dance", "1"]);
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(err.contains("not a deckwright catalogue") && !err.contains("panicked"), "{err}");
}

fn consistent(db: &Path) -> u64 {
    let cat = Catalogue::open(db).unwrap();
    let ok: String = cat.conn().query_row("PRAGMA integrity_check", [], |r| r.get(0)).unwrap();
    assert_eq!(ok, "ok");
    let n = cat.count().unwrap();
    let fields: i64 = cat.conn().query_row("SELECT count(DISTINCT card) FROM card_field", [], |r| r.get(0)).unwrap();
    let fts: i64 = cat.conn().query_row("SELECT count(*) FROM card_fts", [], |r| r.get(0)).unwrap();
    assert_eq!((fields as u64, fts as u64), (n, n), "fields and text index follow the cards");
    n
}

#[test]
fn a_process_killed_mid_import_leaves_the_catalogue_as_it_was() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("cat.sqlite");
    let files = dir.path().join("many");
    synthetic::write_files(&files, 3000, 11).unwrap();
    let base = consistent(&db);
    let mut outcomes = Vec::new();
    for delay_ms in [150u64, 400, 800, 1500] {
        let mut child = bin()
            .arg("--db")
            .arg(&db)
            .arg("import")
            .arg(&files)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(Duration::from_millis(delay_ms));
        let killed = child.try_wait().unwrap().is_none();
        let _ = child.kill();
        let status = child.wait().unwrap();
        let n = consistent(&db);
        assert!(n == base || n == base + 3000, "after kill at {delay_ms} ms: {n} cards (all or nothing)");
        outcomes.push((killed, status.success(), n));
        if n == base + 3000 {
            // Imported in full before the kill: start again from an empty catalogue.
            std::fs::remove_file(&db).unwrap();
            let _ = std::fs::remove_file(db.with_extension("sqlite-wal"));
            let _ = std::fs::remove_file(db.with_extension("sqlite-shm"));
            consistent(&db);
        }
    }
    assert!(outcomes.iter().any(|(killed, ..)| *killed), "no run was killed mid-import: {outcomes:?}");
}

#[test]
fn two_processes_import_and_set_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("cat.sqlite");
    let a = dir.path().join("a");
    synthetic::write_files(&a, 500, 21).unwrap();
    // Both processes create the catalogue too: neither has run yet.
    let children: Vec<_> = (0..2)
        .map(|_| bin().arg("--db").arg(&db).arg("import").arg(&a).stdout(Stdio::null()).stderr(Stdio::piped()).spawn().unwrap())
        .collect();
    for c in children {
        let out = c.wait_with_output().unwrap();
        assert!(out.status.success(), "{}", text(&out.stderr));
    }
    let setters: Vec<_> = (0..2)
        .map(|i| {
            bin()
                .arg("--db")
                .arg(&db)
                .args(["collection", "set", &format!("syn-{i}"), "7"])
                .stderr(Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    for c in setters {
        let out = c.wait_with_output().unwrap();
        assert!(out.status.success(), "{}", text(&out.stderr));
    }
    let n = consistent(&db);
    assert_eq!(n as usize, 500 + deckwright::catalogue::bundled_cards().unwrap().len());
    let cat = Catalogue::open(&db).unwrap();
    assert_eq!((cat.owned("syn-0").unwrap(), cat.owned("syn-1").unwrap()), (7, 7));
}
