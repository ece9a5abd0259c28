//! Hostile files, issue 27: spreadsheets (item 6), art (item 7) and the older cases of item
//! 10, each against the real binary with `hostile.rs`'s harness (a timeout, the exit code,
//! no panic or signal, an unchanged catalogue after a refusal). One test per bug; crafted
//! files are built here, small (a bomb is small compressed).

use std::io::Write;
use std::path::Path;

use super::hostile::{MERIT, Ran, dump, fresh, run, run_in, tree};

// ---- crafted files -------------------------------------------------------------------------

fn crc32(data: &[u8]) -> u32 {
    let mut table = [0u32; 256];
    for (i, t) in table.iter_mut().enumerate() {
        let mut c = i as u32;
        for _ in 0..8 {
            c = if c & 1 != 0 {
                0xedb8_8320 ^ (c >> 1)
            } else {
                c >> 1
            };
        }
        *t = c;
    }
    !data.iter().fold(!0u32, |c, &b| {
        table[((c ^ u32::from(b)) & 0xff) as usize] ^ (c >> 8)
    })
}

/// One part of a ZIP package: its name, its bytes, whether to deflate them, and the
/// uncompressed size to declare (`None`: the true one).
struct Part {
    name: String,
    data: Vec<u8>,
    deflate: bool,
    declared: Option<u32>,
}

fn part(name: &str, data: impl Into<Vec<u8>>) -> Part {
    Part {
        name: name.into(),
        data: data.into(),
        deflate: false,
        declared: None,
    }
}

/// A ZIP file of `parts` (written by hand: a bomb's declared size may lie). A deflated
/// part over 1 MiB gets no CRC (nothing may read it to its end).
fn zip(parts: &[Part]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut central = Vec::new();
    for p in parts {
        let (method, body): (u16, Vec<u8>) = if p.deflate {
            (8, miniz_oxide::deflate::compress_to_vec(&p.data, 1))
        } else {
            (0, p.data.clone())
        };
        let crc = if p.deflate && p.data.len() > 1 << 20 {
            0
        } else {
            crc32(&p.data)
        };
        let size = p.declared.unwrap_or(p.data.len() as u32);
        let offset = out.len() as u32;
        let head = |v: &mut Vec<u8>, central: bool| {
            v.extend_from_slice(
                &(if central { 0x0201_4b50u32 } else { 0x0403_4b50 }).to_le_bytes(),
            );
            if central {
                v.extend_from_slice(&20u16.to_le_bytes());
            }
            v.extend_from_slice(&20u16.to_le_bytes());
            v.extend_from_slice(&0u16.to_le_bytes());
            v.extend_from_slice(&method.to_le_bytes());
            v.extend_from_slice(&0u16.to_le_bytes());
            v.extend_from_slice(&0x21u16.to_le_bytes());
            v.extend_from_slice(&crc.to_le_bytes());
            v.extend_from_slice(&(body.len() as u32).to_le_bytes());
            v.extend_from_slice(&size.to_le_bytes());
            v.extend_from_slice(&(p.name.len() as u16).to_le_bytes());
            v.extend_from_slice(&0u16.to_le_bytes());
            if central {
                // Comment length, disk, internal and external attributes; the offset.
                v.extend_from_slice(&[0; 10]);
                v.extend_from_slice(&offset.to_le_bytes());
            }
            v.extend_from_slice(p.name.as_bytes());
        };
        head(&mut out, false);
        out.extend_from_slice(&body);
        head(&mut central, true);
    }
    let cd_offset = out.len() as u32;
    out.extend_from_slice(&central);
    out.extend_from_slice(&0x0605_4b50u32.to_le_bytes());
    out.extend_from_slice(&[0; 4]);
    out.extend_from_slice(&(parts.len() as u16).to_le_bytes());
    out.extend_from_slice(&(parts.len() as u16).to_le_bytes());
    out.extend_from_slice(&(central.len() as u32).to_le_bytes());
    out.extend_from_slice(&cd_offset.to_le_bytes());
    out.extend_from_slice(&0u16.to_le_bytes());
    out
}

const MAIN: &str = "http://schemas.openxmlformats.org/spreadsheetml/2006/main";
const RELS: &str = "http://schemas.openxmlformats.org/package/2006/relationships";
const DOC: &str = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";

/// A workbook of one sheet `cards` whose `<sheetData>` holds `rows` and whose shared
/// strings are `sst` (the whole part).
fn workbook(sheet: Part, sst: &str) -> Vec<u8> {
    zip(&[
        part(
            "[Content_Types].xml",
            r#"<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/><Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/></Types>"#,
        ),
        part(
            "_rels/.rels",
            format!(
                r#"<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="{RELS}"><Relationship Id="rId1" Type="{DOC}/officeDocument" Target="xl/workbook.xml"/></Relationships>"#
            ),
        ),
        part(
            "xl/workbook.xml",
            format!(
                r#"<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="{MAIN}" xmlns:r="{DOC}"><sheets><sheet name="cards" sheetId="1" r:id="rId1"/></sheets></workbook>"#
            ),
        ),
        part(
            "xl/_rels/workbook.xml.rels",
            format!(
                r#"<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="{RELS}"><Relationship Id="rId1" Type="{DOC}/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="{DOC}/sharedStrings" Target="sharedStrings.xml"/></Relationships>"#
            ),
        ),
        sheet,
        part("xl/sharedStrings.xml", sst),
    ])
}

fn sheet_xml(rows: &str) -> String {
    format!(
        r#"<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="{MAIN}"><sheetData>{rows}</sheetData></worksheet>"#
    )
}

fn sheet_part(rows: &str) -> Part {
    part("xl/worksheets/sheet1.xml", sheet_xml(rows))
}

fn letter(mut c: usize) -> String {
    let mut s = Vec::new();
    loop {
        s.push(b'A' + (c % 26) as u8);
        if c < 26 {
            break;
        }
        c = c / 26 - 1;
    }
    s.reverse();
    String::from_utf8(s).unwrap()
}

/// A row of inline-string cells from column A.
fn row_xml(r: usize, cells: &[&str]) -> String {
    let mut s = format!(r#"<row r="{r}">"#);
    for (c, v) in cells.iter().enumerate() {
        s.push_str(&format!(
            r#"<c r="{}{r}" t="inlineStr"><is><t>{v}</t></is></c>"#,
            letter(c)
        ));
    }
    s.push_str("</row>");
    s
}

const HEAD: [&str; 10] = [
    "game", "kind", "id", "name", "race", "faction", "hp", "movement", "vision", "close",
];

fn unit(id: &str) -> [String; 10] {
    [
        "ruunara", "unit", id, "Alpha", "ardann", "ally", "6", "4", "8", "3D4+",
    ]
    .map(str::to_string)
}

/// The header and one good unit row, as sheet XML rows.
fn good_rows() -> String {
    let u = unit("ru-sheet-a");
    let u: Vec<&str> = u.iter().map(String::as_str).collect();
    row_xml(1, &HEAD) + &row_xml(2, &u)
}

const NO_SST: &str = r#"<?xml version="1.0" encoding="UTF-8"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="0" uniqueCount="0"></sst>"#;

const HEAD_CSV: &str = "game,kind,id,name,race,faction,hp,movement,vision,close";
const ROW_CSV: &str = "ruunara,unit,ru-sheet-a,Alpha,ardann,ally,6,4,8,3D4+";

/// `sheet import file` refused with exit 2, every word of `want` in the message, a short
/// message, and the catalogue as it was.
#[track_caller]
fn refused(db: &Path, file: &Path, want: &[&str]) -> Ran {
    let before = dump(db);
    let r = run(db, &["sheet", "import", file.to_str().unwrap()]);
    r.expect(2);
    for w in want {
        assert!(r.stderr.contains(w), "`{w}` not in: {}", r.stderr);
    }
    assert!(
        r.stderr.len() < 2000,
        "a {}-byte message: {}",
        r.stderr.len(),
        &r.stderr[..500]
    );
    assert_eq!(dump(db), before, "the catalogue changed");
    r
}

// ---- item 6: spreadsheets ------------------------------------------------------------------

#[test]
fn i27_6_a_crafted_good_workbook_imports() {
    // The harness's workbooks are read as workbooks: the refusals below are the limits'.
    let (dir, db) = fresh();
    let f = dir.path().join("good.xlsx");
    std::fs::write(&f, workbook(sheet_part(&good_rows()), NO_SST)).unwrap();
    let r = run(&db, &["sheet", "import", f.to_str().unwrap()]);
    r.expect(0);
    assert!(r.stdout.contains("1 new"), "{}", r.stdout);
}

#[cfg(unix)]
#[test]
fn i27_6_a_fifo_or_a_device_as_a_sheet_is_refused_before_it_is_read() {
    let (dir, db) = fresh();
    let fifo = dir.path().join("cards.xlsx");
    super::hostile::mkfifo(&fifo);
    refused(&db, &fifo, &["not a regular file"]);
    let zero = dir.path().join("zero.csv");
    std::os::unix::fs::symlink("/dev/zero", &zero).unwrap();
    refused(&db, &zero, &["not a regular file"]);
    let big = dir.path().join("big.csv");
    let f = std::fs::File::create(&big).unwrap();
    f.set_len((64 << 20) + 1).unwrap();
    refused(&db, &big, &["64 MiB"]);
}

#[test]
fn i27_6_a_cell_far_away_is_refused_before_the_sheet_is_laid_out() {
    let (dir, db) = fresh();
    let f = dir.path().join("far.xlsx");
    let far_row = good_rows()
        + r#"<row r="1048576"><c r="A1048576" t="inlineStr"><is><t>x</t></is></c></row>"#;
    std::fs::write(&f, workbook(sheet_part(&far_row), NO_SST)).unwrap();
    refused(&db, &f, &["row 1048576", "20000"]);
    let far_column =
        good_rows() + r#"<row r="3"><c r="XFD3" t="inlineStr"><is><t>x</t></is></c></row>"#;
    std::fs::write(&f, workbook(sheet_part(&far_column), NO_SST)).unwrap();
    refused(&db, &f, &["XFD", "1024 columns"]);
}

#[test]
fn i27_6_shared_string_counts_of_1e11_and_u64_max_are_refused() {
    let (dir, db) = fresh();
    let f = dir.path().join("sst.xlsx");
    for count in [
        "100000000000",
        "18446744073709551615",
        "99999999999999999999999999",
    ] {
        let sst = format!(
            r#"<?xml version="1.0" encoding="UTF-8"?><sst xmlns="{MAIN}" count="1" uniqueCount = '{count}'><si><t>x</t></si></sst>"#
        );
        std::fs::write(&f, workbook(sheet_part(&good_rows()), &sst)).unwrap();
        refused(&db, &f, &["uniqueCount", "2000000"]);
    }
}

#[test]
fn i27_6_a_huge_cell_and_a_whitespace_bomb_are_refused_by_the_unpacked_size() {
    let (dir, db) = fresh();
    let f = dir.path().join("bomb.xlsx");
    // 80 MiB of one cell, deflated to about 80 KB; declared honestly, then as 1,000 bytes.
    let cell = format!(
        r#"{}<row r="3"><c r="A3" t="inlineStr"><is><t>{}</t></is></c></row>"#,
        good_rows(),
        "a".repeat((64 << 20) + 1000)
    );
    for declared in [None, Some(1000)] {
        let bomb = Part {
            deflate: true,
            declared,
            ..sheet_part(&cell)
        };
        let bytes = workbook(bomb, NO_SST);
        assert!(bytes.len() < 1 << 20, "{} bytes", bytes.len());
        std::fs::write(&f, bytes).unwrap();
        // Counted by unpacking (the zip reader may also stop at the declared size, and the
        // sheet is then cut short): refused either way.
        let r = refused(&db, &f, &[]);
        if declared.is_none() {
            assert!(r.stderr.contains("64 MiB"), "{}", r.stderr);
        }
    }
    // A gigabyte declared.
    let declared = Part {
        declared: Some(1 << 30),
        ..sheet_part(&good_rows())
    };
    std::fs::write(&f, workbook(declared, NO_SST)).unwrap();
    refused(&db, &f, &["64 MiB"]);
    // Whitespace between the rows, and inside the shared strings.
    let spaces = sheet_xml(&format!("{}{}", " ".repeat((64 << 20) + 1000), good_rows()));
    let ws = Part {
        deflate: true,
        ..part("xl/worksheets/sheet1.xml", spaces)
    };
    std::fs::write(&f, workbook(ws, NO_SST)).unwrap();
    refused(&db, &f, &["64 MiB"]);
}

#[test]
fn i27_6_a_shared_string_bomb_and_a_cell_over_32767_characters_are_refused() {
    let (dir, db) = fresh();
    let f = dir.path().join("sst.xlsx");
    // One 30,000-character string in 3,000 cells: 90 MB of text from a small file.
    let sst = format!(
        r#"<?xml version="1.0" encoding="UTF-8"?><sst xmlns="{MAIN}" count="3000" uniqueCount="1"><si><t>{}</t></si></sst>"#,
        "w".repeat(30_000)
    );
    let mut rows = good_rows();
    for r in 3..3003 {
        rows.push_str(&format!(
            r#"<row r="{r}"><c r="K{r}" t="s"><v>0</v></c></row>"#
        ));
    }
    std::fs::write(&f, workbook(sheet_part(&rows), &sst)).unwrap();
    refused(&db, &f, &["64 MiB of text"]);
    let sst = format!(
        r#"<?xml version="1.0" encoding="UTF-8"?><sst xmlns="{MAIN}" count="1" uniqueCount="1"><si><t>{}</t></si></sst>"#,
        "w".repeat(40_000)
    );
    let rows = good_rows() + r#"<row r="3"><c r="D3" t="s"><v>0</v></c></row>"#;
    std::fs::write(&f, workbook(sheet_part(&rows), &sst)).unwrap();
    refused(&db, &f, &["column D", "40000 characters", "32767"]);
}

#[test]
fn i27_6_200000_rows_and_a_million_columns_are_refused_at_the_limit() {
    let (dir, db) = fresh();
    let f = dir.path().join("rows.csv");
    let mut w = std::io::BufWriter::new(std::fs::File::create(&f).unwrap());
    writeln!(w, "{HEAD_CSV}").unwrap();
    for i in 0..200_000 {
        writeln!(w, "ruunara,unit,ru-r{i},Alpha,ardann,ally,6,4,8,3D4+").unwrap();
    }
    drop(w);
    refused(&db, &f, &["row 20002", "20000 card rows"]);
    let cols = dir.path().join("cols.csv");
    let mut header = String::from(HEAD_CSV);
    for i in 0..1_000_000 {
        header.push_str(&format!(",k{i}"));
    }
    std::fs::write(&cols, format!("{header}\n{ROW_CSV}\n")).unwrap();
    refused(&db, &cols, &["row 1", "1024 columns"]);
    // 20,000 header columns in a workbook.
    let names: Vec<String> = (0..20_000).map(|i| format!("k{i}")).collect();
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    let wide = dir.path().join("wide.xlsx");
    std::fs::write(&wide, workbook(sheet_part(&row_xml(1, &names)), NO_SST)).unwrap();
    refused(&db, &wide, &["1024 columns"]);
}

#[test]
fn i27_6_unknown_empty_columns_and_shapes_a_row_cannot_fill_are_refused() {
    let (dir, db) = fresh();
    let f = dir.path().join("cols.csv");
    for (column, want) in [
        // A key the format does not have, with no value in any row.
        ("colour", "unknown field `colour`"),
        // A list under a text, a table under a text.
        ("skills[1].name[1]", "sequence"),
        ("name.first", "map"),
    ] {
        std::fs::write(&f, format!("{HEAD_CSV},{column}\n{ROW_CSV},\n")).unwrap();
        refused(&db, &f, &[column, want]);
    }
    // A list member and a key under one path: the value used to be dropped.
    std::fs::write(
        &f,
        format!(
            "{HEAD_CSV},skills[1].name,skills[1].cycle,skills[1].text,skills[1][1]\n{ROW_CSV},Bite,constant,Bites.,ignored\n"
        ),
    )
    .unwrap();
    refused(&db, &f, &["skills[1][1]", "one shape"]);
    // Deep brackets, and a 1 MiB column name: refused with a short message.
    let deep = format!("skills{}", "[1]".repeat(40));
    std::fs::write(&f, format!("{HEAD_CSV},{deep}\n{ROW_CSV},x\n")).unwrap();
    refused(&db, &f, &["16 keys"]);
    let long = "k".repeat(30_000);
    std::fs::write(&f, format!("{HEAD_CSV},{long}\n{ROW_CSV},x\n")).unwrap();
    refused(&db, &f, &["256 characters"]);
    let long = "k".repeat(1 << 20);
    std::fs::write(&f, format!("{HEAD_CSV},{long}\n{ROW_CSV},x\n")).unwrap();
    refused(&db, &f, &["row 1, column K", "32767"]);
    // The same columns, filled properly, import.
    std::fs::write(
        &f,
        format!("{HEAD_CSV},skills[1].name,skills[1].cycle,skills[1].text\n{ROW_CSV},Bite,constant,Bites.\n"),
    )
    .unwrap();
    run(&db, &["sheet", "import", f.to_str().unwrap()]).expect(0);
}

#[test]
fn i27_6_copies_are_at_most_what_the_collection_holds() {
    let (dir, db) = fresh();
    let f = dir.path().join("copies.csv");
    for n in ["1000000", "10000"] {
        std::fs::write(&f, format!("{HEAD_CSV},copies\n{ROW_CSV},{n}\n")).unwrap();
        refused(&db, &f, &["0 to 9999"]);
    }
    std::fs::write(&f, format!("{HEAD_CSV},copies\n{ROW_CSV},9999\n")).unwrap();
    run(&db, &["sheet", "import", f.to_str().unwrap()]).expect(0);
    // Everything the issue saw fail afterwards works.
    let out = dir.path().join("back.csv");
    run(
        &db,
        &[
            "sheet",
            "export",
            "ru-sheet-a",
            "--out",
            out.to_str().unwrap(),
        ],
    )
    .expect(0);
    let coll = dir.path().join("coll.csv");
    run(&db, &["collection", "export", coll.to_str().unwrap()]).expect(0);
    run(&db, &["collection", "import", coll.to_str().unwrap()]).expect(0);
}

#[test]
fn i27_6_a_sheet_import_killed_at_any_point_leaves_all_its_rows_or_none() {
    use std::process::{Command, Stdio};
    use std::time::Duration;
    let (dir, db) = fresh();
    let f = dir.path().join("many.csv");
    let mut w = std::io::BufWriter::new(std::fs::File::create(&f).unwrap());
    writeln!(w, "{HEAD_CSV},copies").unwrap();
    const N: i64 = 3000;
    for i in 0..N {
        writeln!(w, "ruunara,unit,ru-zkill{i},Alpha,ardann,ally,6,4,8,3D4+,2").unwrap();
    }
    drop(w);
    // The delays only pick where the run is cut; what is asserted is the catalogue after.
    for ms in [50, 300, 700, 1500, 3000] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_deckwright"))
            .env_remove("DECKWRIGHT_DB")
            .args([
                "--db",
                db.to_str().unwrap(),
                "sheet",
                "import",
                f.to_str().unwrap(),
            ])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(Duration::from_millis(ms));
        let _ = child.kill();
        child.wait().unwrap();
        let conn = rusqlite::Connection::open(&db).unwrap();
        let ok: String = conn
            .query_row("PRAGMA integrity_check", [], |r| r.get(0))
            .unwrap();
        assert_eq!(ok, "ok");
        let cards: i64 = conn
            .query_row(
                "SELECT count(*) FROM card WHERE id LIKE 'ru-zkill%'",
                [],
                |r| r.get(0),
            )
            .unwrap();
        let owned: i64 = conn
            .query_row(
                "SELECT count(*) FROM collection WHERE card_id LIKE 'ru-zkill%' AND quantity = 2",
                [],
                |r| r.get(0),
            )
            .unwrap();
        assert!(
            cards == 0 || cards == N,
            "killed after {ms} ms: {cards} cards"
        );
        assert_eq!(
            owned, cards,
            "killed after {ms} ms: quantities with their cards"
        );
        if cards == N {
            break;
        }
    }
}

#[test]
fn i27_6_rows_of_many_numbers_where_text_goes_are_read_in_few_attempts() {
    // 256 skills a row whose names and texts are numbers: each cell used to be read again
    // as text one at a time (257 readings of the whole card a row, minutes for 40 rows);
    // the same key of a list's other members is now read as text at once. The harness's
    // timeout is the bound; what is asserted is the cards.
    let (dir, db) = fresh();
    let f = dir.path().join("numbers.csv");
    let mut w = std::io::BufWriter::new(std::fs::File::create(&f).unwrap());
    write!(w, "{HEAD_CSV}").unwrap();
    for i in 1..=256 {
        write!(w, ",skills[{i}].name,skills[{i}].cycle,skills[{i}].text").unwrap();
    }
    writeln!(w).unwrap();
    for r in 0..40 {
        write!(
            w,
            "{}",
            ROW_CSV.replace("ru-sheet-a", &format!("ru-num-{r}"))
        )
        .unwrap();
        for i in 1..=256 {
            write!(w, ",{i},constant,{}", i * 2).unwrap();
        }
        writeln!(w).unwrap();
    }
    drop(w);
    run(&db, &["sheet", "import", f.to_str().unwrap()]).expect(0);
    let body: String = rusqlite::Connection::open(&db)
        .unwrap()
        .query_row("SELECT body FROM card WHERE id = 'ru-num-39'", [], |r| {
            r.get(0)
        })
        .unwrap();
    assert!(body.contains("name = \"256\""), "{body}");
    assert!(body.contains("text = \"512\""), "{body}");
}

/// A small PNG of one colour.
fn png(w: u32, h: u32, rgb: [u8; 3]) -> Vec<u8> {
    let mut out = Vec::new();
    image::RgbImage::from_pixel(w, h, image::Rgb(rgb))
        .write_to(&mut std::io::Cursor::new(&mut out), image::ImageFormat::Png)
        .unwrap();
    out
}

#[test]
fn i27_6_a_refused_sheet_whose_second_row_art_fails_changes_no_art() {
    let (dir, db) = fresh();
    let d = dir.path();
    std::fs::write(d.join("old.png"), png(4, 4, [0, 0, 255])).unwrap();
    std::fs::write(d.join("new.png"), png(4, 4, [255, 0, 0])).unwrap();
    std::fs::write(d.join("notes.txt"), "not a picture").unwrap();
    let f = d.join("a.csv");
    std::fs::write(&f, format!("{HEAD_CSV},art\n{ROW_CSV},old.png\n")).unwrap();
    run(&db, &["sheet", "import", f.to_str().unwrap()]).expect(0);
    let art = d.join("art/ru-sheet-a.png");
    let before_art = std::fs::read(&art).unwrap();
    let before_tree = tree(&d.join("art"));
    // Row 2 replaces the first card's art, row 3's art is not a picture: nothing changes.
    std::fs::write(
        &f,
        format!(
            "{HEAD_CSV},art\n{ROW_CSV},new.png\n{},notes.txt\n",
            ROW_CSV.replace("ru-sheet-a", "ru-sheet-b")
        ),
    )
    .unwrap();
    refused(&db, &f, &["ru-sheet-b", "not a PNG or JPEG"]);
    assert_eq!(std::fs::read(&art).unwrap(), before_art);
    assert_eq!(tree(&d.join("art")), before_tree, "no file left in art/");
}

// ---- item 7: art ---------------------------------------------------------------------------

fn chunk(out: &mut Vec<u8>, kind: &[u8; 4], data: &[u8]) {
    out.extend_from_slice(&(data.len() as u32).to_be_bytes());
    let mut c = kind.to_vec();
    c.extend_from_slice(data);
    out.extend_from_slice(&c);
    out.extend_from_slice(&crc32(&c).to_be_bytes());
}

/// A PNG whose header says `w` x `h` at `depth` bits (RGBA) but whose data holds only a few
/// rows (the header is what makes it a bomb; it is refused, or caught lying, either way).
fn png_header(w: u32, h: u32, depth: u8) -> Vec<u8> {
    let mut out = b"\x89PNG\r\n\x1a\n".to_vec();
    let mut ihdr = Vec::new();
    ihdr.extend_from_slice(&w.to_be_bytes());
    ihdr.extend_from_slice(&h.to_be_bytes());
    ihdr.extend_from_slice(&[depth, 6, 0, 0, 0]);
    chunk(&mut out, b"IHDR", &ihdr);
    let row = 1 + w as usize * 4 * (depth as usize / 8);
    let data = vec![0u8; row * 4];
    chunk(
        &mut out,
        b"IDAT",
        &miniz_oxide::deflate::compress_to_vec_zlib(&data, 6),
    );
    chunk(&mut out, b"IEND", &[]);
    out
}

/// A JPEG whose header says 65,500 x 65,500.
fn jpeg_65500() -> Vec<u8> {
    let mut out = Vec::new();
    image::RgbImage::from_pixel(16, 16, image::Rgb([9, 9, 9]))
        .write_to(
            &mut std::io::Cursor::new(&mut out),
            image::ImageFormat::Jpeg,
        )
        .unwrap();
    let sof = out
        .windows(2)
        .position(|w| w == [0xff, 0xc0])
        .expect("a baseline JPEG");
    out[sof + 5..sof + 9].copy_from_slice(&[0xff, 0xdc, 0xff, 0xdc]);
    out
}

/// Cards `ico-bad-N` whose art is each of `files` (written after the import, as art
/// replaced later or kept by an older version would be).
fn cards_with_art(dir: &Path, db: &Path, files: &[(&str, Vec<u8>)]) -> Vec<String> {
    let mut ids = Vec::new();
    for (i, (name, _)) in files.iter().enumerate() {
        let id = format!("ico-bad-{i}");
        let card =
            super::hostile::iconica_with("id = \"ico-anwen-halloway\"", &format!("id = \"{id}\""))
                .replacen(
                    "action_break = 4",
                    &format!(
                        "action_break = 4\nportrait = \"{}\"",
                        dir.join("pictures").join(name).display()
                    ),
                    1,
                );
        let f = dir.join(format!("{id}.toml"));
        std::fs::write(&f, card).unwrap();
        run(db, &["import", f.to_str().unwrap()]).expect(0);
        ids.push(id);
    }
    std::fs::create_dir_all(dir.join("pictures")).unwrap();
    for (name, bytes) in files {
        std::fs::write(dir.join("pictures").join(name), bytes).unwrap();
    }
    ids
}

#[test]
fn i27_7_art_bombs_print_the_placeholder_and_preflight_names_every_card() {
    let (dir, db) = fresh();
    let d = dir.path();
    let mut over = png(4, 4, [1, 2, 3]);
    over.resize((32 << 20) + 10, 0);
    let files = [
        ("bomb-16bit.png", png_header(8192, 8192, 16)),
        ("huge.png", png_header(30_000, 30_000, 8)),
        ("lying.png", png_header(4000, 4000, 8)),
        ("wide.jpg", jpeg_65500()),
        ("over.png", over),
        ("text.png", b"root:x:0:0:root:/root:/bin/sh\n".to_vec()),
    ];
    let ids = cards_with_art(d, &db, &files);
    let ids: Vec<&str> = ids.iter().map(String::as_str).collect();
    let r = run_in(
        &db,
        &[&["preflight"], &ids[..], &["--json"]].concat(),
        Some(d),
    );
    r.expect(1);
    let doc: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    for id in &ids {
        let found: Vec<&serde_json::Value> = doc["problems"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|p| p["id"] == *id && p["problem"] == "unreadable-art")
            .collect();
        assert_eq!(found.len(), 1, "{id}: {doc}");
    }
    let message = |id: &str| {
        doc["problems"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["id"] == id && p["problem"] == "unreadable-art")
            .unwrap()["message"]
            .as_str()
            .unwrap()
            .to_string()
    };
    assert!(message(ids[0]).contains("512 MiB"), "{}", message(ids[0]));
    assert!(
        message(ids[1]).contains("30000 x 30000"),
        "{}",
        message(ids[1])
    );
    assert!(
        message(ids[2]).contains("not a whole PNG"),
        "{}",
        message(ids[2])
    );
    assert!(message(ids[4]).contains("32 MiB"), "{}", message(ids[4]));
    // Every export finishes, all cards at once (several threads each decoding), each card
    // with the placeholder.
    let pdf = d.join("x.pdf");
    run(
        &db,
        &[&["export"], &ids[..], &["--out", pdf.to_str().unwrap()]].concat(),
    )
    .expect(0);
    let pngs = d.join("pngs");
    run(
        &db,
        &[&["export"], &ids[..], &["--png", pngs.to_str().unwrap()]].concat(),
    )
    .expect(0);
    let dtc = d.join("dtc.pdf");
    run(
        &db,
        &[
            &["export"],
            &ids[..],
            &["--preset", "drivethru", "--out", dtc.to_str().unwrap()],
        ]
        .concat(),
    )
    .expect(0);
    assert!(pdf.is_file() && dtc.is_file() && pngs.join("ico-bad-0.png").is_file());
}

#[test]
fn i27_7_only_files_that_decode_as_pictures_are_adopted_as_art() {
    let (dir, db) = fresh();
    let d = dir.path();
    let before = dump(&db);
    // A card file and a sheet row naming /etc/passwd as art.
    let card = super::hostile::iconica_with(
        "action_break = 4",
        "action_break = 4\nportrait = \"/etc/passwd\"",
    );
    let f = d.join("c.toml");
    std::fs::write(&f, card).unwrap();
    let r = run(&db, &["import", f.to_str().unwrap()]);
    r.expect(2);
    assert!(r.stderr.contains("not a PNG or JPEG"), "{}", r.stderr);
    let sheet = d.join("s.csv");
    std::fs::write(&sheet, format!("{HEAD_CSV},art\n{ROW_CSV},/etc/passwd\n")).unwrap();
    refused(&db, &sheet, &["not a PNG or JPEG"]);
    assert_eq!(dump(&db), before);
    assert!(!d.join("art").exists(), "{:?}", tree(d));
    // A picture is adopted under the name its bytes call for, whatever its own.
    std::fs::write(d.join("face.dat"), png(4, 4, [0, 9, 0])).unwrap();
    std::fs::write(&sheet, format!("{HEAD_CSV},art\n{ROW_CSV},face.dat\n")).unwrap();
    run(&db, &["sheet", "import", sheet.to_str().unwrap()]).expect(0);
    assert_eq!(tree(&d.join("art")), ["ru-sheet-a.png"]);
}

// ---- item 10: older cases ------------------------------------------------------------------

#[test]
fn i27_10_a_card_file_with_two_byte_order_marks_is_refused() {
    let (dir, db) = fresh();
    let before = dump(&db);
    let f = dir.path().join("bom.toml");
    std::fs::write(&f, format!("\u{feff}\u{feff}{MERIT}")).unwrap();
    let r = run(&db, &["import", f.to_str().unwrap()]);
    r.expect(2);
    assert!(r.stderr.contains("byte-order mark"), "{}", r.stderr);
    assert_eq!(dump(&db), before);
    // One is an editor's, and fine.
    std::fs::write(&f, format!("\u{feff}{MERIT}")).unwrap();
    run(&db, &["import", f.to_str().unwrap()]).expect(0);
}

#[test]
fn i27_10_art_named_like_a_card_file_neither_changes_a_refused_import_nor_breaks_export() {
    let (dir, db) = fresh();
    let d = dir.path();
    let cards = d.join("cards");
    std::fs::create_dir_all(&cards).unwrap();
    // The merit's picture (its `portrait`) is a PNG named `<id>.toml`, beside the card files.
    std::fs::write(cards.join("tst-fire-dance.toml"), png(4, 4, [200, 0, 0])).unwrap();
    std::fs::write(
        cards.join("merit.toml"),
        format!("{MERIT}portrait = \"tst-fire-dance.toml\"\n"),
    )
    .unwrap();
    // The folder: the picture is read as a card file and refused, and nothing is adopted.
    let before = dump(&db);
    run(&db, &["import", cards.to_str().unwrap()]).expect(2);
    assert_eq!(dump(&db), before);
    assert!(!d.join("art").exists(), "{:?}", tree(d));
    // The card file alone: its art is kept as a picture's name, and the export works.
    run(&db, &["import", cards.join("merit.toml").to_str().unwrap()]).expect(0);
    assert_eq!(tree(&d.join("art")), ["tst-fire-dance.png"]);
    let out = d.join("out");
    run(&db, &["cards", "export", out.to_str().unwrap()]).expect(0);
    assert!(out.join("arcadia/tst-fire-dance.png").is_file());
    // A catalogue whose art an older version kept as `<id>.toml` exports it as a picture.
    std::fs::rename(
        d.join("art/tst-fire-dance.png"),
        d.join("art/tst-fire-dance.toml"),
    )
    .unwrap();
    rusqlite::Connection::open(&db)
        .unwrap()
        .execute(
            "UPDATE card SET body = replace(body, 'tst-fire-dance.png', 'tst-fire-dance.toml') WHERE id = 'tst-fire-dance'",
            [],
        )
        .unwrap();
    let out2 = d.join("out2");
    run(&db, &["cards", "export", out2.to_str().unwrap()]).expect(0);
    let text = std::fs::read_to_string(out2.join("arcadia/tst-fire-dance.toml")).unwrap();
    assert!(text.contains("portrait = \"tst-fire-dance.png\""), "{text}");
    assert!(out2.join("arcadia/tst-fire-dance.png").is_file());
    // And it imports back elsewhere.
    let (_other, db2) = fresh();
    run(&db2, &["import", out2.join("arcadia").to_str().unwrap()]).expect(0);
}
