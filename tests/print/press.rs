//! The DriveThruCards preset's press PDF, checked from outside: lopdf reads its structure
//! (PDF/X-1a:2003 output intent with the CMYK profile, trim and bleed boxes, embedded fonts,
//! no RGB and no transparency), Ghostscript renders it to CMYK pixels (every pixel's total
//! ink at most 240%) and poppler's pdftoppm to a picture, qpdf checks its syntax and
//! streams, poppler's pdffonts and pdfinfo see every font embedded and the PDF/X boxes, and
//! preflight reads it back clean while it catches an RGB print-and-play PDF. No free PDF/X
//! validator exists in the package registries; `docs/print/press.md` lists which PDF/X-1a
//! requirement each check covers.

use std::process::Command;

use deckwright::catalogue::bundled_cards;
use deckwright::print::export::{ExportOptions, pdf_bytes};
use deckwright::print::face::Assets;
use deckwright::print::layout;
use deckwright::print::preflight::{self, PdfFinding};
use deckwright::print::press::{self, INK_LIMIT};
use deckwright::print::vendor;
use lopdf::{Document, Object};

fn cards(ids: &[&str]) -> Vec<deckwright::cards::Card> {
    let all = bundled_cards().unwrap();
    ids.iter()
        .map(|id| all.iter().find(|c| c.id() == *id).unwrap().clone())
        .collect()
}

fn drivethru(ids: &[&str]) -> Vec<u8> {
    vendor::drivethru_pdf(&cards(ids), &Assets::default()).unwrap()
}

fn name(o: &Object) -> &[u8] {
    o.as_name().unwrap()
}

/// Whether an external tool runs here; CI installs it and sets `var`, so there it must.
fn tool(cmd: &str, arg: &str, var: &str) -> bool {
    if Command::new(cmd).arg(arg).output().is_ok() {
        return true;
    }
    assert!(
        std::env::var_os(var).is_none(),
        "{cmd} is required here ({var} is set): install it"
    );
    eprintln!("{cmd} is not installed: this check is skipped");
    false
}

#[test]
fn the_conversion_keeps_every_colour_under_the_ink_limit() {
    let press = press::Press::get().unwrap();
    // The RGB cube in steps of 17 (16^3 colours), the darkest included.
    let mut rgb = Vec::new();
    for r in (0..=255).step_by(17) {
        for g in (0..=255).step_by(17) {
            for b in (0..=255).step_by(17) {
                rgb.push([r as u8, g as u8, b as u8]);
            }
        }
    }
    let cmyk = press.convert(&rgb);
    let worst = cmyk.iter().map(|p| press::ink(*p)).fold(0.0, f32::max);
    assert!(worst <= INK_LIMIT + 0.5, "{worst}% total ink");
    // Black is deep (near the limit), white is no ink, a pure red has no cyan.
    assert!(press::ink(cmyk[0]) > 200.0, "{:?}", cmyk[0]);
    assert_eq!(press.convert(&[[255, 255, 255]])[0], [0, 0, 0, 0]);
    let red = press.convert(&[[255, 0, 0]])[0];
    assert!(red[0] < 10 && red[1] > 200 && red[2] > 180, "{red:?}");
    // Text in pure black is black ink alone.
    assert_eq!(
        press.cmyk(deckwright::print::canvas::Rgb(0, 0, 0, 255)),
        [0.0, 0.0, 0.0, 1.0]
    );
}

#[test]
fn drivethru_is_pdf_x_1a_in_cmyk_with_embedded_fonts() {
    let bytes = drivethru(&["ico-grumbolt", "icl-fire-water", "arc-l-brassgate-ward"]);
    assert!(bytes.starts_with(b"%PDF-1.4"), "PDF/X-1a:2003 is PDF 1.4");
    let doc = Document::load_mem(&bytes).unwrap();
    // The output intent: GTS_PDFX, the condition, and the CMYK profile embedded.
    let cat = doc.catalog().unwrap();
    let intents = cat.get(b"OutputIntents").unwrap().as_array().unwrap();
    assert_eq!(intents.len(), 1);
    let oi = doc.dereference(&intents[0]).unwrap().1.as_dict().unwrap();
    assert_eq!(name(oi.get(b"S").unwrap()), b"GTS_PDFX");
    assert_eq!(
        oi.get(b"OutputConditionIdentifier")
            .unwrap()
            .as_str()
            .unwrap(),
        b"CGATS TR 003"
    );
    let icc = doc
        .get_object(
            oi.get(b"DestOutputProfile")
                .unwrap()
                .as_reference()
                .unwrap(),
        )
        .unwrap()
        .as_stream()
        .unwrap();
    assert_eq!(icc.dict.get(b"N").unwrap().as_i64().unwrap(), 4);
    let profile = icc.decompressed_content().unwrap();
    assert_eq!(&profile[16..20], b"CMYK", "a CMYK profile");
    assert_eq!(&profile[12..16], b"prtr", "an output (printer) profile");
    // The information PDF/X asks for.
    let info_id = doc.trailer.get(b"Info").unwrap().as_reference().unwrap();
    let info = doc.get_dictionary(info_id).unwrap();
    assert_eq!(
        info.get(b"GTS_PDFXVersion").unwrap().as_str().unwrap(),
        b"PDF/X-1a:2003"
    );
    assert_eq!(name(info.get(b"Trapped").unwrap()), b"False");
    assert!(info.has(b"CreationDate") && info.has(b"ModDate"));
    assert!(doc.trailer.has(b"ID"));
    // Pages: back then front for each card; each with its trim box 1/8 in inside the bleed box.
    let pages = doc.get_pages();
    assert_eq!(pages.len(), 6);
    for &id in pages.values() {
        let p = doc.get_dictionary(id).unwrap();
        let rect = |k: &[u8]| -> Vec<f32> {
            p.get(k)
                .unwrap()
                .as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_float().unwrap())
                .collect()
        };
        let (media, bleed, trim) = (rect(b"MediaBox"), rect(b"BleedBox"), rect(b"TrimBox"));
        assert_eq!(media, bleed);
        for (t, m, sign) in [
            (trim[0], media[0], 1.0),
            (trim[1], media[1], 1.0),
            (trim[2], media[2], -1.0),
            (trim[3], media[3], -1.0),
        ] {
            assert!(((t - m) * sign - 9.0).abs() < 0.01, "{trim:?} in {media:?}");
        }
        assert!(
            (trim[2] - trim[0] - 180.0).abs() < 0.01 && (trim[3] - trim[1] - 252.0).abs() < 0.01
        );
    }
    // Nothing in RGB, nothing translucent, every font embedded.
    assert!(
        !bytes.windows(9).any(|w| w == b"DeviceRGB"),
        "an RGB colour space is left"
    );
    for o in doc.objects.values() {
        let d = match o {
            Object::Stream(s) => &s.dict,
            Object::Dictionary(d) => d,
            _ => continue,
        };
        assert!(!d.has(b"SMask") && !d.has(b"CA") && !d.has(b"ca"), "{d:?}");
        if d.get(b"Type").ok().map(name) == Some(b"FontDescriptor") {
            assert!(d.has(b"FontFile2"), "a font not embedded: {d:?}");
        }
    }
    // The faces' text is real text (selectable), not pixels.
    let fonts = doc
        .objects
        .values()
        .filter(|o| {
            o.as_dict()
                .is_ok_and(|d| d.get(b"Subtype").ok().map(name) == Some(b"Type0"))
        })
        .count();
    assert!(fonts >= 2, "{fonts} Type0 fonts");
    // Preflight reads it back clean.
    assert_eq!(preflight::check_pdf(&bytes, INK_LIMIT).unwrap(), vec![]);
}

/// A one-page PDF with each fault preflight looks for: paint and an image over the ink
/// limit, an RGB image and RGB paint, a font it does not carry, a translucent state.
fn faulty_pdf() -> Vec<u8> {
    use pdf_writer::{Content, Finish, Name, Pdf, Rect, Ref, Str};
    let mut pdf = Pdf::new();
    let (cat, tree, page, content, font, rgb, cmyk, gs) = (
        Ref::new(1),
        Ref::new(2),
        Ref::new(3),
        Ref::new(4),
        Ref::new(5),
        Ref::new(6),
        Ref::new(7),
        Ref::new(8),
    );
    pdf.catalog(cat).pages(tree);
    pdf.pages(tree).kids([page]).count(1);
    let mut p = pdf.page(page);
    p.media_box(Rect::new(0.0, 0.0, 100.0, 100.0))
        .parent(tree)
        .contents(content);
    let mut res = p.resources();
    res.fonts().pair(Name(b"F1"), font);
    res.x_objects()
        .pair(Name(b"Rgb"), rgb)
        .pair(Name(b"Cmyk"), cmyk);
    res.ext_g_states().pair(Name(b"Half"), gs);
    res.finish();
    p.finish();
    let mut c = Content::new();
    c.set_fill_cmyk(0.9, 0.9, 0.9, 1.0);
    c.rect(0.0, 0.0, 10.0, 10.0).fill_nonzero();
    c.set_fill_rgb(1.0, 0.0, 0.0);
    c.begin_text()
        .set_font(Name(b"F1"), 12.0)
        .show(Str(b"Hi"))
        .end_text();
    c.set_parameters(Name(b"Half"));
    c.x_object(Name(b"Rgb")).x_object(Name(b"Cmyk"));
    pdf.stream(content, &c.finish());
    pdf.type1_font(font).base_font(Name(b"Helvetica"));
    let mut x = pdf.image_xobject(rgb, &[255, 0, 0, 0, 255, 0]);
    x.width(2).height(1).bits_per_component(8);
    x.color_space().device_rgb();
    x.finish();
    let mut x = pdf.image_xobject(cmyk, &[0, 0, 0, 0, 255, 255, 255, 255]);
    x.width(2).height(1).bits_per_component(8);
    x.color_space().device_cmyk();
    x.finish();
    pdf.ext_graphics(gs).non_stroking_alpha(0.5);
    pdf.finish()
}

#[test]
fn preflight_names_each_fault_of_a_pdf_for_the_press() {
    let found = preflight::check_pdf(&faulty_pdf(), INK_LIMIT).unwrap();
    let codes: Vec<&str> = found.iter().map(|f| f.code()).collect();
    for code in [
        "no-output-intent",
        "font-not-embedded",
        "rgb-image",
        "rgb-colour",
        "transparency",
        "ink-over-limit",
    ] {
        assert!(codes.contains(&code), "{code} missing from {codes:?}");
    }
    // Both the paint (370%) and the image (400%) are over the limit.
    let inks: Vec<f32> = found
        .iter()
        .filter_map(|f| match f {
            PdfFinding::InkOverLimit { ink, .. } => Some(*ink),
            _ => None,
        })
        .collect();
    assert_eq!(inks.len(), 2, "{found:?}");
    assert!(
        inks.iter().any(|i| (i - 370.0).abs() < 0.5)
            && inks.iter().any(|i| (i - 400.0).abs() < 0.5),
        "{inks:?}"
    );
    assert!(
        found
            .iter()
            .any(|f| matches!(f, PdfFinding::FontNotEmbedded { name } if name == "Helvetica"))
    );
    // The print-and-play PDF is RGB with no output intent: not for this press.
    let opts = ExportOptions::new(layout::paper("a4").unwrap());
    let pnp = pdf_bytes(&cards(&["ico-grumbolt"]), &opts).unwrap();
    let codes: Vec<String> = preflight::check_pdf(&pnp, INK_LIMIT)
        .unwrap()
        .iter()
        .map(|f| f.code().to_string())
        .collect();
    assert!(
        codes.contains(&"rgb-colour".to_string())
            && codes.contains(&"no-output-intent".to_string()),
        "{codes:?}"
    );
    // Not a PDF at all: said, not a panic.
    assert!(
        preflight::check_pdf(b"hello", INK_LIMIT)
            .unwrap_err()
            .contains("not a readable PDF")
    );
}

#[test]
fn ghostscript_renders_the_press_pdf_in_cmyk_under_the_ink_limit() {
    if !tool("gs", "--version", "DECKWRIGHT_REQUIRE_GHOSTSCRIPT") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let pdf = dir.path().join("dtc.pdf");
    std::fs::write(&pdf, drivethru(&["ico-grumbolt", "ru-haskar-emberfist"])).unwrap();
    // Each page as CMYK pixels (PAM), as a press's RIP would separate it.
    let out = dir.path().join("page-%d.pam");
    let o = Command::new("gs")
        .args(["-q", "-dSAFER", "-dBATCH", "-dNOPAUSE", "-dPDFSTOPONERROR"])
        .args(["-sDEVICE=pamcmyk32", "-r100"])
        .arg(format!("-sOutputFile={}", out.display()))
        .arg(&pdf)
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "gs: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(
        !String::from_utf8_lossy(&o.stderr).contains("rror"),
        "gs reports: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    for page in 1..=4 {
        let bytes = std::fs::read(dir.path().join(format!("page-{page}.pam"))).unwrap();
        let header_end = bytes.windows(7).position(|w| w == b"ENDHDR\n").unwrap() + 7;
        let header = String::from_utf8_lossy(&bytes[..header_end]).into_owned();
        assert!(
            header.contains("DEPTH 4") && header.contains("TUPLTYPE CMYK"),
            "{header}"
        );
        let px: Vec<[u8; 4]> = bytes[header_end..]
            .chunks_exact(4)
            .map(|c| [c[0], c[1], c[2], c[3]])
            .collect();
        // 2.75 x 3.75 in at 100 dpi.
        assert_eq!(px.len(), 275 * 375, "page {page}");
        let worst = px.iter().map(|p| press::ink(*p)).fold(0.0, f32::max);
        assert!(worst <= INK_LIMIT + 1.0, "page {page}: {worst}% total ink");
        // A card is printed: plenty of ink, not a blank page.
        let inked = px.iter().filter(|p| press::ink(**p) > 20.0).count();
        assert!(inked > px.len() / 4, "page {page}: {inked} inked pixels");
    }
    // Ghostscript's ink coverage device (ink_cov: the mean of each ink over the page, in percent) reads
    // every page, each with ink and under the limit.
    let o = Command::new("gs")
        .args([
            "-q",
            "-dSAFER",
            "-dBATCH",
            "-dNOPAUSE",
            "-sDEVICE=ink_cov",
            "-o",
            "-",
        ])
        .arg(&pdf)
        .output()
        .unwrap();
    assert!(o.status.success());
    let report = String::from_utf8_lossy(&o.stdout);
    let lines: Vec<&str> = report.lines().filter(|l| l.contains("CMYK")).collect();
    assert_eq!(lines.len(), 4, "{report}");
    for l in lines {
        let v: Vec<f32> = l
            .split_whitespace()
            .take(4)
            .map(|x| x.parse().unwrap())
            .collect();
        let total = v.iter().sum::<f32>();
        assert!(total > 10.0 && total <= INK_LIMIT, "{l}");
    }
}

#[test]
fn pdftoppm_renders_the_press_pdf() {
    if !tool("pdftoppm", "-v", "DECKWRIGHT_REQUIRE_PDFTOPPM") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let pdf = dir.path().join("dtc.pdf");
    std::fs::write(&pdf, drivethru(&["arc-l-brassgate-ward"])).unwrap();
    let st = Command::new("pdftoppm")
        .args(["-r", "100", "-png"])
        .arg(&pdf)
        .arg(dir.path().join("p"))
        .status()
        .unwrap();
    assert!(st.success());
    let front = image::open(dir.path().join("p-2.png")).unwrap().to_rgb8();
    assert_eq!(front.dimensions(), (275, 375));
    // The front is not blank: many distinct colours.
    let distinct: std::collections::HashSet<[u8; 3]> = front.pixels().map(|p| p.0).collect();
    assert!(distinct.len() > 50, "{}", distinct.len());
}

#[test]
fn preflight_for_drivethru_checks_the_safe_area_and_the_press_pdf() {
    let cs = cards(&["ico-grumbolt", "arc-l-brassgate-ward"]);
    let (found, pdf) =
        vendor::preflight(&cs, vendor::Preset::DriveThru, &Assets::default()).unwrap();
    assert_eq!(pdf, vec![], "the press PDF is clean");
    let near = |safe: f32| -> Vec<f32> {
        preflight::check_safe(&cs, 63.5, 88.9, Some(safe), &Assets::default())
            .into_iter()
            .flat_map(|(_, f)| f)
            .filter_map(|f| match f {
                preflight::Finding::OutsideSafeArea { distance_mm, .. } => Some(distance_mm),
                _ => None,
            })
            .collect()
    };
    // No text is off the card; a safe area of a third of the card's width takes all of it.
    assert!(near(0.0).is_empty());
    let all = near(21.0);
    assert!(all.len() >= 6, "{all:?}");
    assert!(all.iter().all(|d| (0.0..21.0).contains(d)), "{all:?}");
    // What the preset found is exactly what its 1/8 in safe area finds.
    let preset: Vec<f32> = found
        .into_iter()
        .flat_map(|(_, f)| f)
        .filter_map(|f| match f {
            preflight::Finding::OutsideSafeArea { distance_mm, .. } => Some(distance_mm),
            _ => None,
        })
        .collect();
    assert_eq!(preset, near(vendor::SAFE_MM));
}

/// Writes the press PDF of a few cards to a temporary file.
fn press_file() -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let pdf = dir.path().join("dtc.pdf");
    std::fs::write(
        &pdf,
        drivethru(&["ico-grumbolt", "icl-fire-water", "arc-l-brassgate-ward"]),
    )
    .unwrap();
    (dir, pdf)
}

#[test]
fn qpdf_finds_no_syntax_or_stream_error_in_the_press_pdf() {
    if !tool("qpdf", "--version", "DECKWRIGHT_REQUIRE_QPDF") {
        return;
    }
    let (_dir, pdf) = press_file();
    let o = Command::new("qpdf")
        .arg("--check")
        .arg(&pdf)
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    // Exit 0: no errors; 3 would be warnings (a damaged file qpdf had to recover), also a fault.
    assert_eq!(
        o.status.code(),
        Some(0),
        "qpdf --check: {out}{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(
        out.contains("No syntax or stream encoding errors found"),
        "{out}"
    );
    assert!(out.contains("PDF Version: 1.4"), "{out}");
    // A broken file is caught: the check is not a formality.
    let mut bytes = std::fs::read(&pdf).unwrap();
    let at = bytes.windows(9).rposition(|w| w == b"startxref").unwrap();
    bytes.truncate(at);
    std::fs::write(&pdf, &bytes).unwrap();
    let o = Command::new("qpdf")
        .arg("--check")
        .arg(&pdf)
        .output()
        .unwrap();
    assert_ne!(o.status.code(), Some(0), "a cut file passes qpdf --check");
}

#[test]
fn poppler_sees_every_font_embedded_and_the_pdf_x_boxes() {
    if !tool("pdffonts", "-v", "DECKWRIGHT_REQUIRE_PDFTOPPM") {
        return;
    }
    let (_dir, pdf) = press_file();
    let o = Command::new("pdffonts").arg(&pdf).output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = String::from_utf8_lossy(&o.stdout);
    // name, type, encoding, emb, sub, uni, object, id: after the two header lines.
    let rows: Vec<&str> = out
        .lines()
        .skip(2)
        .filter(|l| !l.trim().is_empty())
        .collect();
    assert!(!rows.is_empty(), "the cards' text is in fonts: {out}");
    for row in &rows {
        let cols: Vec<&str> = row.split_whitespace().collect();
        let n = cols.len();
        assert!(n >= 7, "{row}");
        // emb, sub, uni are the 5th, 4th and 3rd columns from the end.
        assert_eq!(cols[n - 5], "yes", "not embedded: {row}");
    }
    let o = Command::new("pdfinfo")
        .arg("-box")
        .arg(&pdf)
        .output()
        .unwrap();
    let info = String::from_utf8_lossy(&o.stdout);
    let field = |name: &str| {
        info.lines()
            .find_map(|l| l.strip_prefix(name))
            .map(str::trim)
            .unwrap_or_else(|| panic!("no {name}: {info}"))
            .to_string()
    };
    assert_eq!(field("PDF version:"), "1.4", "{info}");
    // Poppler reads the PDF/X key (GTS_PDFXVersion) as the file's subtype.
    assert_eq!(field("PDF subtype:"), "PDF/X-1a:2003", "{info}");
    assert_eq!(field("Pages:"), "6", "{info}");
    // PDF/X-1a forbids encryption and, in practice, forms and scripts.
    assert_eq!(field("Encrypted:"), "no", "{info}");
    assert_eq!(field("JavaScript:"), "no", "{info}");
    assert_eq!(field("Form:"), "none", "{info}");
    // 2.75 x 3.75 in of bleed box, the trim box 1/8 in inside it.
    let boxes = |name: &str| -> Vec<f64> {
        let line = info
            .lines()
            .find(|l| l.starts_with(name))
            .unwrap_or_else(|| panic!("no {name}: {info}"));
        line[name.len()..]
            .split_whitespace()
            .map(|v| v.parse().unwrap())
            .collect()
    };
    let close = |a: &[f64], b: &[f64]| a.iter().zip(b).all(|(x, y)| (x - y).abs() < 0.01);
    assert!(
        close(&boxes("MediaBox:"), &[0.0, 0.0, 198.0, 270.0]),
        "{info}"
    );
    assert!(
        close(&boxes("BleedBox:"), &[0.0, 0.0, 198.0, 270.0]),
        "{info}"
    );
    assert!(
        close(&boxes("TrimBox:"), &[9.0, 9.0, 189.0, 261.0]),
        "{info}"
    );
}
