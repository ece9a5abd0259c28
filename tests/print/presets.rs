//! Vendor presets, Tabletop Simulator sheets and preflight, as a user runs them: the files
//! are read back (pixel sizes, pages, a sheet's grid probed pixel by pixel against each
//! card's own picture), and preflight catches a card made to overflow.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use deckwright::catalogue::bundled_cards;
use deckwright::print::face::{Assets, Side};
use deckwright::print::render;
use deckwright::print::tts;
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
    fn ok(&self, args: &[&str]) -> Output {
        let o = self.run(args);
        assert!(
            o.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        o
    }
}

fn png(path: &Path) -> image::RgbImage {
    let img = image::open(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    assert!(
        matches!(img, image::DynamicImage::ImageRgb8(_)),
        "{} is not 8-bit RGB",
        path.display()
    );
    img.to_rgb8()
}

fn names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

/// The resolution a PNG records (pHYs), in dots per inch.
fn png_dpi(path: &Path) -> f32 {
    let dec = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(path).unwrap()));
    let r = dec.read_info().unwrap();
    let d = r.info().pixel_dims.expect("a pHYs chunk");
    assert_eq!(d.unit, png::Unit::Meter);
    d.xppu as f32 * 0.0254
}

#[test]
fn mpc_writes_822_by_1122_pngs_at_300_dpi_with_a_back_per_game() {
    let e = Env::new();
    e.ok(&[
        "export",
        "ico-grumbolt",
        "ru-fen-wraith",
        "icl-fire-water",
        "--preset",
        "mpc",
        "--out",
        "mpc",
    ]);
    let files = names(&e.path("mpc"));
    assert_eq!(
        files,
        [
            "back-iconica.png",
            "back-ruunara.png",
            "icl-fire-water-back.png",
            "icl-fire-water.png",
            "ico-grumbolt.png",
            "ru-fen-wraith.png"
        ]
    );
    for f in &files {
        let p = e.path("mpc").join(f);
        let img = png(&p);
        assert_eq!(img.dimensions(), (822, 1122), "{f}");
        assert!((png_dpi(&p) - 300.0).abs() < 0.5, "{f}");
    }
    // The bleed is painted: the outermost pixels are the card's frame, not white.
    let img = png(&e.path("mpc/ico-grumbolt.png"));
    assert_ne!(img.get_pixel(0, 0).0, [255, 255, 255]);
    assert_eq!(
        img.get_pixel(0, 0),
        img.get_pixel(35, 35),
        "the bleed continues the frame"
    );
}

#[test]
fn tgc_writes_825_by_1125_rgb_pngs() {
    let e = Env::new();
    e.ok(&["export", "kind:merit", "--preset", "tgc", "--out", "tgc"]);
    let files = names(&e.path("tgc"));
    assert!(files.len() > 10);
    assert!(files.contains(&"back-arcadia.png".to_string()));
    for f in &files {
        assert_eq!(png(&e.path("tgc").join(f)).dimensions(), (825, 1125), "{f}");
    }
}

#[test]
fn drivethru_writes_a_pdf_of_card_pages_back_then_front() {
    let e = Env::new();
    e.ok(&[
        "export",
        "ico-grumbolt",
        "ico-kethra-voss",
        "ru-fen-wraith",
        "--preset",
        "drivethru",
        "--out",
        "dtc.pdf",
    ]);
    let doc = Document::load(e.path("dtc.pdf")).unwrap();
    let pages = doc.get_pages();
    assert_eq!(pages.len(), 6);
    let mut forms = Vec::new();
    for &id in pages.values() {
        let page = doc.get_object(id).unwrap().as_dict().unwrap();
        let mb: Vec<f32> = page
            .get(b"MediaBox")
            .unwrap()
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_float().unwrap())
            .collect();
        // 2.5 x 3.5 in plus 1/8 in of bleed each side: 2.75 x 3.75 in.
        assert!((mb[2] - mb[0] - 2.75 * 72.0).abs() < 0.1, "{mb:?}");
        assert!((mb[3] - mb[1] - 3.75 * 72.0).abs() < 0.1, "{mb:?}");
        let x = super::pdf::xobjects(&doc, id);
        assert_eq!(x.len(), 2, "one card face a page: its art and its text");
        let art = x.iter().find(|(n, _)| n == b"Art").expect("the art layer");
        forms.push(art.1);
    }
    // Back, front for each card: the two Iconica cards share their back (pages 1 and 3),
    // Ruunara's back (page 5) is another, and every front differs from every back.
    assert_eq!(forms[0], forms[2]);
    assert_ne!(forms[0], forms[4]);
    for front in [1, 3, 5] {
        for back in [0, 2, 4] {
            assert_ne!(forms[front], forms[back]);
        }
    }
    assert_ne!(forms[1], forms[3]);
}

#[test]
fn a_preset_with_a_bad_name_or_no_out_is_bad_input() {
    let e = Env::new();
    let o = e.run(&["export", "ico-grumbolt", "--preset", "kinkos", "--out", "x"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("mpc (MakePlayingCards)"));
    let o = e.run(&["export", "ico-grumbolt", "--preset", "mpc"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(!e.path("x").exists());
}

/// The path a `file:///` address of `deck.json` names: the %XX escapes decoded.
fn file_url_path(url: &str) -> PathBuf {
    let rest = url
        .strip_prefix("file://")
        .unwrap_or_else(|| panic!("{url}"));
    let b = rest.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' {
            let hex = std::str::from_utf8(&b[i + 1..i + 3]).unwrap();
            out.push(u8::from_str_radix(hex, 16).unwrap());
            i += 3;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    PathBuf::from(String::from_utf8(out).unwrap())
}

#[test]
fn tts_addresses_are_percent_encoded_and_name_the_files_in_a_folder_with_a_hash_and_spaces() {
    let e = Env::new();
    let dir = e.path("my #1 deck/100% done?");
    e.ok(&[
        "export",
        "ico-grumbolt",
        "ico-anwen-halloway",
        "--tts",
        dir.to_str().unwrap(),
    ]);
    let deck: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.join("deck.json")).unwrap()).unwrap();
    let abs = dir.canonicalize().unwrap();
    let obj = &deck["ObjectStates"][0];
    for d in obj["CustomDeck"].as_object().unwrap().values() {
        for u in ["FaceURL", "BackURL"] {
            let url = d[u].as_str().unwrap();
            assert!(
                url.contains("my%20%231%20deck/100%25%20done%3F/"),
                "the folder is percent-encoded: {url}"
            );
            assert!(!url.contains([' ', '#', '?']), "{url}");
            let path = file_url_path(url);
            assert!(path.starts_with(&abs) && path.is_file(), "{url}");
        }
    }
}

#[test]
fn a_killed_tts_export_leaves_no_output_folder() {
    let e = Env::new();
    let parent = e.path("killed");
    let dir = parent.join("tts");
    let mut child = Command::new(env!("CARGO_BIN_EXE_deckwright"))
        .arg("--db")
        .arg(e.path("cat.sqlite"))
        .args(["export", "game:arcadia", "--tts", dir.to_str().unwrap()])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // Wait (on the condition, not the clock) until the export is writing its stage, then
    // kill it there; an export that ended first must have written the whole folder.
    let stage_in = |d: &Path| {
        std::fs::read_dir(d).is_ok_and(|mut d| {
            d.any(|x| {
                x.unwrap()
                    .file_name()
                    .to_string_lossy()
                    .starts_with(".deckwright-")
            })
        })
    };
    let staging = || stage_in(&parent) || stage_in(&dir);
    let mut ended = None;
    for _ in 0..1_000_000 {
        if let Some(status) = child.try_wait().unwrap() {
            ended = Some(status);
            break;
        }
        if staging() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
    let _ = child.kill();
    let status = child.wait().unwrap();
    match ended {
        Some(s) => {
            assert!(s.success());
            assert!(
                dir.join("deck.json").is_file(),
                "a finished export is whole"
            );
        }
        None => {
            assert!(!status.success(), "killed while it wrote its stage");
            assert!(
                !dir.exists(),
                "a killed export leaves no output folder: {:?}",
                names(&parent)
            );
        }
    }
}

#[test]
fn tts_sheets_hold_69_cards_in_a_10_by_7_grid_with_the_hidden_card_last() {
    let e = Env::new();
    // 72 Arcadia cards: a full sheet of 69 and a sheet of 3, and Iconica's 16 on a third.
    e.ok(&[
        "export",
        "game:arcadia",
        "or",
        "game:iconica",
        "--tts",
        "tts",
    ]);
    let files = names(&e.path("tts"));
    assert_eq!(
        files,
        [
            "back-arcadia.png",
            "back-iconica.png",
            "deck.json",
            "sheet-1.png",
            "sheet-2.png",
            "sheet-3.png"
        ]
    );
    let deck: serde_json::Value =
        serde_json::from_slice(&std::fs::read(e.path("tts/deck.json")).unwrap()).unwrap();
    let obj = &deck["ObjectStates"][0];
    assert_eq!(obj["Name"], "DeckCustom");
    let contained = obj["ContainedObjects"].as_array().unwrap();
    assert_eq!(contained.len(), 88);
    assert_eq!(obj["DeckIDs"].as_array().unwrap().len(), 88);
    // The sheets and backs are referenced by absolute file address and exist.
    let abs = e.path("tts").canonicalize().unwrap();
    for (key, d) in obj["CustomDeck"].as_object().unwrap() {
        assert_eq!(d["NumWidth"], 10);
        assert_eq!(d["NumHeight"], 7);
        for u in ["FaceURL", "BackURL"] {
            let url = d[u].as_str().unwrap();
            let path = file_url_path(url);
            assert!(
                path.starts_with(&abs) && path.is_file(),
                "deck {key}: {url}"
            );
        }
    }
    // CardID is the sheet's key times 100 plus the slot; slot 69 is never a card's.
    for c in contained {
        let id = c["CardID"].as_u64().unwrap();
        assert!(id % 100 < 69, "{id}");
        assert!(obj["CustomDeck"].get((id / 100).to_string()).is_some());
    }

    // Probe the grid: each slot of sheet 2 shows that card's own picture, slot 69 the back,
    // the slots between are blank.
    let sheet = png(&e.path("tts/sheet-2.png"));
    assert_eq!(sheet.dimensions(), (tts::CELL.0 * 10, tts::CELL.1 * 7));
    let sheet2_ids: Vec<String> = contained
        .iter()
        .filter(|c| c["CardID"].as_u64().unwrap() / 100 == 2)
        .map(|c| {
            c["Description"]
                .as_str()
                .unwrap()
                .rsplit(' ')
                .next()
                .unwrap()
                .to_string()
        })
        .collect();
    assert_eq!(sheet2_ids.len(), 3);
    let cards = bundled_cards().unwrap();
    let probes = [(0.5, 0.05), (0.1, 0.5), (0.5, 0.5), (0.9, 0.9), (0.3, 0.3)];
    let check_slot = |k: usize, want: &image::RgbaImage| {
        let (x0, y0) = tts::slot_origin(k);
        for (fx, fy) in probes {
            let (x, y) = (
                (fx * tts::CELL.0 as f32) as u32,
                (fy * tts::CELL.1 as f32) as u32,
            );
            let got = sheet.get_pixel(x0 + x, y0 + y).0;
            let w = want.get_pixel(x, y).0;
            assert_eq!(got, [w[0], w[1], w[2]], "slot {k} at ({x}, {y})");
        }
    };
    for (k, id) in sheet2_ids.iter().enumerate() {
        let card = cards.iter().find(|c| c.id() == id).unwrap();
        let own = render::render_pixels(card, Side::Front, tts::CELL, 0, &Assets::default())
            .unwrap()
            .to_rgba_image();
        check_slot(k, &own);
    }
    let back = render::render_back_pixels(deckwright::Game::Arcadia, tts::CELL, 0)
        .unwrap()
        .to_rgba_image();
    check_slot(69, &back);
    for k in [3, 10, 35, 68] {
        let (x0, y0) = tts::slot_origin(k);
        assert_eq!(
            sheet
                .get_pixel(x0 + tts::CELL.0 / 2, y0 + tts::CELL.1 / 2)
                .0,
            [255, 255, 255],
            "slot {k} is blank"
        );
    }
    // The full sheet's last card slot (68) holds a card, its hidden slot the back.
    let full = png(&e.path("tts/sheet-1.png"));
    let (x0, y0) = tts::slot_origin(68);
    assert_ne!(
        full.get_pixel(x0 + tts::CELL.0 / 2, y0 + tts::CELL.1 / 2).0,
        [255, 255, 255]
    );
    let (x0, y0) = tts::slot_origin(69);
    let b = back.get_pixel(tts::CELL.0 / 2, 5).0;
    assert_eq!(
        full.get_pixel(x0 + tts::CELL.0 / 2, y0 + 5).0,
        [b[0], b[1], b[2]]
    );
}

#[test]
fn tts_gives_iconoclasm_elements_a_sheet_of_their_own_backs() {
    let e = Env::new();
    e.ok(&["export", "game:iconoclasm", "--tts", "tts"]);
    let files = names(&e.path("tts"));
    assert_eq!(files, ["deck.json", "sheet-1-back.png", "sheet-1.png"]);
    let deck: serde_json::Value =
        serde_json::from_slice(&std::fs::read(e.path("tts/deck.json")).unwrap()).unwrap();
    assert_eq!(
        deck["ObjectStates"][0]["CustomDeck"]["1"]["UniqueBack"],
        true
    );
}

// ---- preflight ----

const HUGE: &str =
    "The wind carries every word you ever said back to you, and each word asks a question. ";

fn card_files(e: &Env) {
    let ico = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/assets/templates/iconica-character.toml"
    ))
    .unwrap();
    let with_art = |id: &str, art: &str| {
        ico.replace(
            "id = \"ico-new-character\"",
            &format!("id = \"{id}\"\nportrait = \"{art}\""),
        )
    };
    std::fs::write(
        e.path("missing.toml"),
        with_art("ico-pf-missing", "nowhere/face.png"),
    )
    .unwrap();
    std::fs::write(e.path("small.toml"), with_art("ico-pf-small", "small.png")).unwrap();
    std::fs::write(e.path("sharp.toml"), with_art("ico-pf-sharp", "sharp.png")).unwrap();
    image::RgbImage::from_pixel(40, 40, image::Rgb([200, 30, 30]))
        .save(e.path("small.png"))
        .unwrap();
    image::RgbImage::from_pixel(1200, 1200, image::Rgb([30, 200, 30]))
        .save(e.path("sharp.png"))
        .unwrap();
    let merit = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/assets/templates/arcadia-merit.toml"
    ))
    .unwrap();
    let long = merit
        .replace("id = \"arc-m-new-merit\"", "id = \"arc-m-pf-overflow\"")
        .replace(
            "text = \"What the merit is. +1 to every Might test.\"",
            &format!("text = \"{}\"", HUGE.repeat(45)),
        );
    std::fs::write(e.path("overflow.toml"), long).unwrap();
    e.ok(&[
        "import",
        "missing.toml",
        "small.toml",
        "sharp.toml",
        "overflow.toml",
    ]);
}

#[test]
fn preflight_finds_overflowing_text_and_low_resolution_and_missing_art() {
    let e = Env::new();
    card_files(&e);
    let o = e.run(&[
        "preflight",
        "ico-pf-missing",
        "ico-pf-small",
        "ico-pf-sharp",
        "arc-m-pf-overflow",
        "--json",
    ]);
    assert_eq!(
        o.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let doc: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(doc["cards"], 4);
    assert_eq!(doc["ok"], false);
    let problems = doc["problems"].as_array().unwrap();
    let of = |id: &str| -> Vec<&str> {
        problems
            .iter()
            .filter(|p| p["id"] == id)
            .map(|p| p["problem"].as_str().unwrap())
            .collect()
    };
    assert_eq!(of("ico-pf-missing"), ["missing-art"]);
    assert_eq!(of("ico-pf-small"), ["low-resolution-art"]);
    assert_eq!(of("ico-pf-sharp"), Vec::<&str>::new());
    assert_eq!(of("arc-m-pf-overflow"), ["text-overflow"]);
    let over = problems
        .iter()
        .find(|p| p["id"] == "arc-m-pf-overflow")
        .unwrap();
    // Text at the longest a card may hold (4,000 characters) is shrunk below a readable size.
    assert!(
        over["cut"] == true || over["size_pt"].as_f64().unwrap() < 4.0,
        "{over}"
    );
    assert!(
        over["text"]
            .as_str()
            .unwrap()
            .starts_with("The wind carries")
    );
    let small = problems.iter().find(|p| p["id"] == "ico-pf-small").unwrap();
    assert!(small["dpi"].as_f64().unwrap() < 300.0);

    // Text lines without --json, and a clean selection exits 0.
    let o = e.run(&["preflight", "arc-m-pf-overflow"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&o.stdout)
            .starts_with("arc-m-pf-overflow (New Merit): text-overflow: text "),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
    let o = e.run(&["preflight", "ico-pf-sharp", "ico-grumbolt"]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
    assert!(String::from_utf8_lossy(&o.stderr).contains("ready to print"));
}

#[test]
fn preflight_for_drivethru_reads_back_the_press_pdf() {
    let e = Env::new();
    card_files(&e);
    let o = e.run(&[
        "preflight",
        "ico-pf-small",
        "ico-grumbolt",
        "--preset",
        "drivethru",
        "--json",
    ]);
    assert_eq!(
        o.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let doc: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    // The art is still too coarse; the press PDF itself is clean (CMYK, ink, fonts).
    let problems: Vec<&str> = doc["problems"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["problem"].as_str().unwrap())
        .collect();
    assert_eq!(problems, ["low-resolution-art"]);
    assert_eq!(doc["press"], serde_json::json!([]));
    let o = e.run(&["preflight", "ico-grumbolt", "--preset", "drivethru"]);
    assert_eq!(o.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&o.stderr).contains("ready to print"));
    let o = e.run(&["preflight", "ico-grumbolt", "--preset", "kinkos"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("unknown preset `kinkos`"));
}

#[test]
fn missing_art_is_a_placeholder_not_a_failed_export() {
    let e = Env::new();
    card_files(&e);
    e.ok(&[
        "export",
        "ico-pf-missing",
        "ico-pf-sharp",
        "--preset",
        "mpc",
        "--out",
        "mpc",
    ]);
    let missing = png(&e.path("mpc/ico-pf-missing.png"));
    let sharp = png(&e.path("mpc/ico-pf-sharp.png"));
    // The portrait box of the card with art is the art's green; the other is not.
    let green = sharp.pixels().filter(|p| p.0 == [30, 200, 30]).count();
    assert!(green > 10_000, "{green}");
    assert_eq!(missing.pixels().filter(|p| p.0 == [30, 200, 30]).count(), 0);
}
