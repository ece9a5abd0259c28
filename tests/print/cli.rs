//! `deckwright export` as a user runs it: the files it writes, and the bad input it refuses
//! with exit 2, a clear message and no file left behind.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use lopdf::Document;

struct Env {
    dir: tempfile::TempDir,
}

impl Env {
    fn new() -> Env {
        Env {
            dir: tempfile::tempdir().unwrap(),
        }
    }
    fn path(&self, p: &str) -> PathBuf {
        self.dir.path().join(p)
    }
    fn run(&self, args: &[&str]) -> Output {
        Command::new(env!("CARGO_BIN_EXE_deckwright"))
            .arg("--db")
            .arg(self.path("cat.sqlite"))
            .args(args)
            .current_dir(self.dir.path())
            .output()
            .unwrap()
    }
    /// Files in the folder other than the catalogue.
    fn files(&self) -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(self.dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| !n.starts_with("cat.sqlite"))
            .collect();
        v.sort();
        v
    }
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn images_per_page(pdf: &Path) -> Vec<usize> {
    let doc = Document::load(pdf).unwrap();
    doc.get_pages()
        .values()
        .map(|&id| {
            let ops = lopdf::content::Content::decode(&doc.get_page_content(id))
                .unwrap()
                .operations;
            ops.iter().filter(|o| o.operator == "Do").count()
        })
        .collect()
}

#[test]
fn ids_with_backs_give_a_fronts_and_a_backs_page() {
    let e = Env::new();
    let o = e.run(&[
        "export",
        "ico-grumbolt",
        "icl-fire-water",
        "ru-fen-wraith",
        "--out",
        "x.pdf",
        "--backs",
        "--dpi",
        "50",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(images_per_page(&e.path("x.pdf")), vec![3, 3]);
    assert_eq!(e.files(), vec!["x.pdf"]);
}

#[test]
fn a_party_file_prints_its_members() {
    let e = Env::new();
    std::fs::write(
        e.path("raid.party.toml"),
        "game = \"iconica\"\nname = \"Raid\"\nmembers = [\"ico-grumbolt\", \"Anwen Halloway\", \"ico-nyx-ellery\"]\n",
    )
    .unwrap();
    let o = e.run(&[
        "export",
        "raid.party.toml",
        "--out",
        "party.pdf",
        "--dpi",
        "50",
        "--paper",
        "letter",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(images_per_page(&e.path("party.pdf")), vec![3]);
}

/// One card on one page is said so: "(1 card, 1 page)", not "(1 cards, 1 pages)" (issue
/// 27, item 5).
#[test]
fn the_summary_says_one_card_and_one_page_in_the_singular() {
    let e = Env::new();
    let o = e.run(&["export", "ico-grumbolt", "--out", "one.pdf", "--dpi", "40"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("(1 card, 1 page)"), "{}", stderr(&o));
    let o = e.run(&["export", "ico-grumbolt", "--tts", "tts"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("wrote 1 Tabletop Simulator sheet and deck.json")
            && stderr(&o).contains("(1 card)"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn a_query_selects_every_matching_card() {
    let e = Env::new();
    let o = e.run(&[
        "export",
        "game:iconoclasm",
        "--out",
        "icl.pdf",
        "--dpi",
        "40",
        "--backs",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    // 16 element cards: 9 + 7, each fronts page followed by its backs page.
    assert_eq!(images_per_page(&e.path("icl.pdf")), vec![9, 9, 7, 7]);
}

#[test]
fn copies_owned_prints_what_the_collection_holds() {
    let e = Env::new();
    {
        let cat = deckwright::catalogue::Catalogue::open(&e.path("cat.sqlite")).unwrap();
        cat.sql_for_tests()
            .execute_batch("INSERT INTO collection(card_id, quantity) VALUES ('ico-grumbolt', 3), ('ru-fen-wraith', 0), ('icl-air', 2);")
            .unwrap();
    }
    let o = e.run(&[
        "export",
        "ico-grumbolt",
        "ru-fen-wraith",
        "icl-air",
        "--copies",
        "owned",
        "--out",
        "c.pdf",
        "--dpi",
        "40",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(images_per_page(&e.path("c.pdf")), vec![5]);
    let o = e.run(&[
        "export",
        "ru-fen-wraith",
        "--copies",
        "owned",
        "--out",
        "none.pdf",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("collection"), "{}", stderr(&o));
    assert!(!e.path("none.pdf").exists());
}

#[test]
fn png_mode_writes_one_image_per_card_at_the_asked_resolution() {
    let e = Env::new();
    let o = e.run(&[
        "export",
        "ico-grumbolt",
        "icl-fire-water",
        "ico-grumbolt",
        "--png",
        "pngs",
        "--dpi",
        "100",
        "--backs",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let mut names: Vec<String> = std::fs::read_dir(e.path("pngs"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(
        names,
        [
            "icl-fire-water-back.png",
            "icl-fire-water.png",
            "ico-grumbolt-back.png",
            "ico-grumbolt.png"
        ]
    );
    let img = image::open(e.path("pngs/ico-grumbolt.png")).unwrap();
    // 63 x 88 mm at 100 dpi.
    assert_eq!((img.width(), img.height()), (248, 346));
}

#[test]
fn the_calibration_sheet_has_a_front_and_a_back() {
    let e = Env::new();
    let o = e.run(&[
        "export",
        "--calibration",
        "--out",
        "cal.pdf",
        "--back-offset",
        "1x-0.5",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let doc = Document::load(e.path("cal.pdf")).unwrap();
    assert_eq!(doc.get_pages().len(), 2);
}

fn assert_refused(e: &Env, args: &[&str], says: &str) {
    let o = e.run(args);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
    let msg = stderr(&o);
    assert!(
        msg.starts_with("error: ") && msg.contains(says),
        "{args:?}: {msg}"
    );
    assert!(o.stdout.is_empty());
    assert_eq!(
        e.files(),
        Vec::<String>::new(),
        "{args:?} left files behind"
    );
}

#[test]
fn bad_input_is_refused_with_exit_2_and_nothing_written() {
    let e = Env::new();
    assert_refused(
        &e,
        &[
            "export",
            "ico-grumbolt",
            "ico-no-such-card",
            "--out",
            "a.pdf",
        ],
        "unknown card id `ico-no-such-card`",
    );
    assert_refused(
        &e,
        &["export", "ico-no-such-card", "--out", "a.pdf"],
        "ico-no-such-card",
    );
    assert_refused(
        &e,
        &["export", "game:iconica", "zzqx", "--out", "a.pdf"],
        "matches no card",
    );
    assert_refused(
        &e,
        &["export", "nosuchfield:3", "--out", "a.pdf"],
        "search query",
    );
    assert_refused(
        &e,
        &[
            "export",
            "ico-grumbolt",
            "--size",
            "250x300",
            "--out",
            "a.pdf",
        ],
        "does not fit",
    );
    assert_refused(
        &e,
        &["export", "ico-grumbolt", "--out", "missing-folder/a.pdf"],
        "does not exist",
    );
    assert_refused(
        &e,
        &["export", "ico-grumbolt", "--paper", "a9", "--out", "a.pdf"],
        "unknown paper",
    );
    assert_refused(
        &e,
        &[
            "export",
            "ico-grumbolt",
            "--card",
            "jumbo",
            "--out",
            "a.pdf",
        ],
        "unknown card size",
    );
    assert_refused(
        &e,
        &["export", "missing.party.toml", "--out", "a.pdf"],
        "missing.party.toml",
    );
    // A PNG is one pixel buffer: a giant card at a high resolution is refused, not attempted.
    assert_refused(
        &e,
        &[
            "export",
            "ico-grumbolt",
            "--size",
            "2000x2000",
            "--dpi",
            "1200",
            "--png",
            "out",
        ],
        "megapixels",
    );
    std::fs::write(
        e.path("bad.party.toml"),
        "game = \"iconica\"\nmembers = [\"ico-grumbolt\",\n",
    )
    .unwrap();
    let o = e.run(&["export", "bad.party.toml", "--out", "a.pdf"]);
    assert_eq!(o.status.code(), Some(2));
    // file:line:column, as `validate` reports it (the file is read by the same parser).
    assert!(stderr(&o).contains("bad.party.toml:2:"), "{}", stderr(&o));
    assert!(!e.path("a.pdf").exists());
    // As strict as `validate`: a key a party file does not have is refused, at its line.
    std::fs::write(
        e.path("odd.party.toml"),
        "game = \"iconica\"\nmembers = [\"ico-grumbolt\"]\ncolour = \"red\"\n",
    )
    .unwrap();
    let o = e.run(&["export", "odd.party.toml", "--out", "a.pdf"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("odd.party.toml:3:") && stderr(&o).contains("colour"),
        "{}",
        stderr(&o)
    );
    std::fs::write(
        e.path("who.squad.toml"),
        "game = \"ruunara\"\nmode = \"free\"\nmembers = [\"Nobody At All\"]\n",
    )
    .unwrap();
    let o = e.run(&["export", "who.squad.toml", "--out", "a.pdf"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("who.squad.toml")
            && stderr(&o).contains("`Nobody At All` is not in the catalogue"),
        "{}",
        stderr(&o)
    );
    assert!(!e.path("a.pdf").exists());
}

#[test]
fn an_unwritable_output_keeps_the_old_file_and_leaves_no_temporary() {
    let e = Env::new();
    std::fs::write(e.path("plain-file"), "x").unwrap();
    let o = e.run(&["export", "ico-grumbolt", "--out", "plain-file/a.pdf"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("cannot write"), "{}", stderr(&o));
    assert_eq!(e.files(), vec!["plain-file"]);
    // A failing export over an existing PDF leaves that PDF as it was.
    std::fs::write(e.path("keep.pdf"), "old").unwrap();
    let o = e.run(&[
        "export",
        "ico-grumbolt",
        "--size",
        "300x300",
        "--out",
        "keep.pdf",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(std::fs::read_to_string(e.path("keep.pdf")).unwrap(), "old");
    assert_eq!(e.files(), vec!["keep.pdf", "plain-file"]);
}
