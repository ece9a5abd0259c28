//! Art on every card kind: the `art` key (and its older name `portrait`), read relative to
//! the card file, copied into the catalogue's art folder on import so that the project can
//! move; PNG and JPEG; missing art prints a placeholder.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn run(db: &Path, cwd: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_deckwright"))
        .arg("--db")
        .arg(db)
        .args(args)
        .current_dir(cwd)
        .output()
        .unwrap()
}

fn ok(db: &Path, cwd: &Path, args: &[&str]) -> Output {
    let o = run(db, cwd, args);
    assert!(
        o.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    o
}

fn template(name: &str) -> String {
    std::fs::read_to_string(format!(
        "{}/assets/templates/{name}.toml",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap()
}

/// Pixels of exactly this colour in a PNG.
fn count(png: &Path, rgb: [u8; 3]) -> usize {
    image::open(png)
        .unwrap()
        .to_rgb8()
        .pixels()
        .filter(|p| p.0 == rgb)
        .count()
}

const GREEN: [u8; 3] = [30, 200, 30];
const BLUE: [u8; 3] = [20, 40, 220];

/// A project: cards/ with a Ruunara hero (art relative to its file, PNG) and an Arcadia icon
/// (`portrait`, JPEG-free blue PNG), pictures/ beside it.
fn project(root: &Path) -> PathBuf {
    let p = root.join("project");
    std::fs::create_dir_all(p.join("cards")).unwrap();
    std::fs::create_dir_all(p.join("pictures")).unwrap();
    image::RgbImage::from_pixel(900, 900, image::Rgb(GREEN))
        .save(p.join("pictures/hero.png"))
        .unwrap();
    image::RgbImage::from_pixel(900, 900, image::Rgb(BLUE))
        .save(p.join("pictures/icon.png"))
        .unwrap();
    let hero = template("ruunara-hero").replace(
        "id = \"ru-new-hero\"",
        "id = \"ru-art-hero\"\nart = \"../pictures/hero.png\"",
    );
    std::fs::write(p.join("cards/hero.toml"), hero).unwrap();
    let icon = template("arcadia-icon").replace(
        "id = \"arc-icon-new\"",
        "id = \"arc-icon-art\"\nportrait = \"../pictures/icon.png\"",
    );
    std::fs::write(p.join("cards/icon.toml"), icon).unwrap();
    p
}

#[test]
fn art_is_read_relative_to_the_card_file_and_survives_the_project_moving() {
    let root = tempfile::tempdir().unwrap();
    let p = project(root.path());
    // Imported from elsewhere: the path is the card file's, not the current folder's.
    ok(
        &p.join("cat.sqlite"),
        root.path(),
        &["import", "project/cards"],
    );
    assert!(p.join("art/ru-art-hero.png").is_file());
    assert!(p.join("art/arc-icon-art.png").is_file());

    // The project moves and its pictures folder is gone.
    let moved = root.path().join("moved");
    std::fs::rename(&p, &moved).unwrap();
    std::fs::remove_dir_all(moved.join("pictures")).unwrap();
    let db = moved.join("cat.sqlite");
    let elsewhere = tempfile::tempdir().unwrap();
    let o = run(
        &db,
        elsewhere.path(),
        &["preflight", "ru-art-hero", "arc-icon-art", "--json"],
    );
    let doc: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert!(
        doc["problems"]
            .as_array()
            .unwrap()
            .iter()
            .all(|p| p["problem"] != "missing-art"),
        "{doc}"
    );
    ok(
        &db,
        elsewhere.path(),
        &[
            "export",
            "ru-art-hero",
            "arc-icon-art",
            "--preset",
            "mpc",
            "--out",
            "out",
        ],
    );
    assert!(count(&elsewhere.path().join("out/ru-art-hero.png"), GREEN) > 50_000);
    assert!(count(&elsewhere.path().join("out/arc-icon-art.png"), BLUE) > 50_000);

    // The card keeps the name of its copy under `art` (the alias `portrait` was read).
    ok(&db, elsewhere.path(), &["cards", "export", "back"]);
    let icon =
        std::fs::read_to_string(elsewhere.path().join("back/arcadia/arc-icon-art.toml")).unwrap();
    assert!(icon.contains("art = \"arc-icon-art.png\""), "{icon}");
    assert!(!icon.contains("portrait"), "{icon}");
    // The exported folder carries the pictures beside the cards: another catalogue
    // imports it with its art.
    assert!(
        elsewhere
            .path()
            .join("back/arcadia/arc-icon-art.png")
            .is_file()
    );
    let other = tempfile::tempdir().unwrap();
    let db2 = other.path().join("cat.sqlite");
    ok(
        &db2,
        elsewhere.path(),
        &["import", "back/arcadia/arc-icon-art.toml"],
    );
    ok(
        &db2,
        other.path(),
        &["export", "arc-icon-art", "--preset", "mpc", "--out", "out"],
    );
    assert!(count(&other.path().join("out/arc-icon-art.png"), BLUE) > 50_000);
}

#[test]
fn a_sheet_import_copies_art_relative_to_the_sheet() {
    let root = tempfile::tempdir().unwrap();
    let p = project(root.path());
    let db = p.join("cat.sqlite");
    ok(&db, &p, &["import", "cards"]);
    ok(
        &db,
        &p,
        &["sheet", "export", "ru-art-hero", "--out", "heroes.csv"],
    );
    // A new row whose art is a JPEG beside the sheet.
    image::RgbImage::from_pixel(900, 900, image::Rgb([250, 250, 0]))
        .save(p.join("new.jpg"))
        .unwrap();
    let text = std::fs::read_to_string(p.join("heroes.csv")).unwrap();
    let row = text
        .lines()
        .nth(1)
        .unwrap()
        .replace("ru-art-hero", "ru-art-jpeg")
        .replace("ru-art-hero.png", "new.jpg");
    let row = row.replace(",ru-art-jpeg.png", ",new.jpg");
    std::fs::write(
        p.join("more.csv"),
        format!("{}\n{row}\n", text.lines().next().unwrap()),
    )
    .unwrap();
    ok(&db, &p, &["sheet", "import", "more.csv"]);
    assert!(p.join("art/ru-art-jpeg.jpg").is_file());
    let elsewhere = tempfile::tempdir().unwrap();
    ok(
        &db,
        elsewhere.path(),
        &["export", "ru-art-jpeg", "--preset", "tgc", "--out", "out"],
    );
    let img = image::open(elsewhere.path().join("out/ru-art-jpeg.png"))
        .unwrap()
        .to_rgb8();
    // JPEG colours are near, not exact.
    let yellow = img
        .pixels()
        .filter(|p| p.0[0] > 230 && p.0[1] > 230 && p.0[2] < 30)
        .count();
    assert!(yellow > 50_000, "{yellow}");
}

#[test]
fn missing_art_imports_and_prints_a_placeholder_with_a_preflight_warning() {
    let root = tempfile::tempdir().unwrap();
    let p = project(root.path());
    let db = p.join("cat.sqlite");
    let lost = template("ruunara-unit").replace(
        "id = \"ru-new-unit\"",
        "id = \"ru-art-lost\"\nart = \"nowhere.png\"",
    );
    std::fs::write(p.join("cards/lost.toml"), lost).unwrap();
    ok(&db, &p, &["import", "cards"]);
    let o = run(&db, &p, &["preflight", "ru-art-lost"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stdout).contains("missing-art"));
    ok(
        &db,
        &p,
        &["export", "ru-art-lost", "ru-art-hero", "--out", "both.pdf"],
    );
    assert!(p.join("both.pdf").is_file());
}

/// A league draws its art under its terrain line (it used to keep the picture only in the
/// catalogue), and one without art keeps its whole box for its text.
#[test]
fn a_league_draws_its_art() {
    let root = tempfile::tempdir().unwrap();
    let dir = root.path();
    const ORANGE: [u8; 3] = [240, 120, 10];
    image::RgbImage::from_pixel(600, 400, image::Rgb(ORANGE))
        .save(dir.join("vale.png"))
        .unwrap();
    let league = template("arcadia-league");
    let id_line = league
        .lines()
        .find(|l| l.starts_with("id = "))
        .unwrap()
        .to_string();
    let with = league.replace(&id_line, "id = \"arc-l-art-vale\"\nart = \"vale.png\"");
    let without = league.replace(&id_line, "id = \"arc-l-bare-vale\"");
    std::fs::write(dir.join("with.toml"), with).unwrap();
    std::fs::write(dir.join("without.toml"), without).unwrap();
    let db = dir.join("cat.sqlite");
    ok(&db, dir, &["import", "with.toml", "without.toml"]);
    ok(
        &db,
        dir,
        &[
            "export",
            "arc-l-art-vale",
            "arc-l-bare-vale",
            "--preset",
            "mpc",
            "--out",
            "out",
        ],
    );
    assert!(count(&dir.join("out/arc-l-art-vale.png"), ORANGE) > 20_000);
    assert_eq!(count(&dir.join("out/arc-l-bare-vale.png"), ORANGE), 0);
}

/// An Iconoclasm element with art shows it in place of the element's sign, on both faces.
#[test]
fn an_element_draws_its_art_on_both_faces() {
    let root = tempfile::tempdir().unwrap();
    let dir = root.path();
    const PURPLE: [u8; 3] = [150, 30, 190];
    image::RgbImage::from_pixel(500, 500, image::Rgb(PURPLE))
        .save(dir.join("spark.png"))
        .unwrap();
    let element = template("iconoclasm-element").replace(
        "id = \"icl-new-element\"",
        "id = \"icl-art-spark\"\nart = \"spark.png\"",
    );
    std::fs::write(dir.join("spark.toml"), element).unwrap();
    let db = dir.join("cat.sqlite");
    ok(&db, dir, &["import", "spark.toml"]);
    ok(
        &db,
        dir,
        &["export", "icl-art-spark", "--png", "out", "--backs"],
    );
    assert!(count(&dir.join("out/icl-art-spark.png"), PURPLE) > 20_000);
    assert!(count(&dir.join("out/icl-art-spark-back.png"), PURPLE) > 20_000);
    // Without art, the sign: no picture.
    ok(&db, dir, &["export", "icl-fire-water", "--png", "plain"]);
    assert_eq!(count(&dir.join("plain/icl-fire-water.png"), PURPLE), 0);
}
