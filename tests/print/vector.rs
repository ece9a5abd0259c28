//! The print PDF is vector: the cards' text is real text in embedded fonts (readable back
//! through ToUnicode), portraits are images embedded once, and a page rasterised by a PDF
//! reader (poppler's pdftoppm) looks like the pixel renderer's card.

use std::collections::BTreeSet;
use std::process::Command;

use deckwright::cards::Card;
use deckwright::catalogue::bundled_cards;
use deckwright::print::export::{ExportOptions, pdf_bytes};
use deckwright::print::layout;
use deckwright::print::{Assets, RenderSpec, Side, render};
use lopdf::content::Content;
use lopdf::{Dictionary, Document, Object, ObjectId};

fn card(id: &str) -> Card {
    bundled_cards()
        .unwrap()
        .into_iter()
        .find(|c| c.id() == id)
        .unwrap_or_else(|| panic!("{id}"))
}

fn a4() -> ExportOptions {
    ExportOptions::new(layout::paper("a4").unwrap())
}

fn subtype_is(o: &Object, t: &[u8]) -> bool {
    o.as_stream().is_ok_and(|s| {
        s.dict
            .get(b"Subtype")
            .is_ok_and(|v| v.as_name().is_ok_and(|n| n == t))
    })
}

/// The ids of the form XObjects, in the order the first page draws them.
fn forms_on_first_page(doc: &Document) -> Vec<ObjectId> {
    let page = *doc.get_pages().values().next().unwrap();
    let (res, _) = doc.get_page_resources(page).unwrap();
    let xo = res
        .unwrap()
        .get(b"XObject")
        .unwrap()
        .as_dict()
        .unwrap()
        .clone();
    let ops = Content::decode(&doc.get_page_content(page))
        .unwrap()
        .operations;
    ops.iter()
        .filter(|o| o.operator == "Do")
        .map(|o| {
            xo.get(o.operands[0].as_name().unwrap())
                .unwrap()
                .as_reference()
                .unwrap()
        })
        .collect()
}

/// The text a form shows, decoded through its fonts' ToUnicode maps, one string per
/// show operator.
fn form_text(doc: &Document, form: ObjectId) -> Vec<String> {
    let s = doc.get_object(form).unwrap().as_stream().unwrap();
    let res = s.dict.get(b"Resources").unwrap().as_dict().unwrap();
    let fonts: Dictionary = match res.get(b"Fonts").or_else(|_| res.get(b"Font")) {
        Ok(f) => f.as_dict().unwrap().clone(),
        Err(_) => return Vec::new(),
    };
    let ops = Content::decode(&s.decompressed_content().unwrap())
        .unwrap()
        .operations;
    let mut out = Vec::new();
    let mut font: Option<Vec<u8>> = None;
    for op in ops {
        match op.operator.as_str() {
            "Tf" => font = Some(op.operands[0].as_name().unwrap().to_vec()),
            "TJ" | "Tj" => {
                let f = doc
                    .get_dictionary(
                        fonts
                            .get(font.as_deref().unwrap())
                            .unwrap()
                            .as_reference()
                            .unwrap(),
                    )
                    .unwrap();
                let enc = f.get_font_encoding(doc).unwrap();
                let mut text = String::new();
                let items = match &op.operands[0] {
                    Object::Array(a) => a.clone(),
                    other => vec![other.clone()],
                };
                for it in items {
                    if let Object::String(bytes, _) = it {
                        text.push_str(&Document::decode_text(&enc, &bytes).unwrap());
                    }
                }
                out.push(text);
            }
            _ => {}
        }
    }
    out
}

fn words(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[test]
fn a_cards_text_is_real_text_that_reads_back() {
    let c = card("ico-grumbolt");
    let doc = Document::load_mem(&pdf_bytes(std::slice::from_ref(&c), &a4()).unwrap()).unwrap();
    let forms = forms_on_first_page(&doc);
    assert_eq!(forms.len(), 1);
    let text = words(&form_text(&doc, forms[0]).concat());
    let Card::Iconica(ch) = &c else { panic!() };
    assert!(text.contains(&ch.name), "{text}");
    for a in &ch.actions {
        let head = format!("{} ({})", a.name, format!("{:?}", a.kind).to_lowercase());
        assert!(text.contains(&head), "{head} in {text}");
        assert!(text.contains(&words(&a.text)), "{} in {text}", a.text);
    }
    // The health meter's values and the type line's middle dots are text too.
    assert!(
        text.contains(&ch.health.start.to_string()) && text.contains("Protectorate"),
        "{text}"
    );
    assert!(text.contains('·'), "{text}");
}

#[test]
fn each_weight_is_embedded_once_as_a_subset_cid_font_with_a_unicode_map() {
    let all = bundled_cards().unwrap();
    let doc = Document::load_mem(&pdf_bytes(&all, &a4()).unwrap()).unwrap();
    let type0: Vec<&Dictionary> = doc
        .objects
        .values()
        .filter_map(|o| o.as_dict().ok())
        .filter(|d| {
            d.get(b"Subtype")
                .is_ok_and(|s| s.as_name().is_ok_and(|n| n == b"Type0"))
        })
        .collect();
    let names: BTreeSet<String> = type0
        .iter()
        .map(|d| {
            String::from_utf8(d.get(b"BaseFont").unwrap().as_name().unwrap().to_vec()).unwrap()
        })
        .collect();
    assert_eq!(type0.len(), 3, "{names:?}");
    for n in &names {
        let (tag, base) = n.split_once('+').expect("a subset's name has a tag");
        assert!(
            tag.len() == 6 && tag.chars().all(|c| c.is_ascii_uppercase()),
            "{n}"
        );
        assert!(base.starts_with("DejaVuSans"), "{n}");
    }
    for d in &type0 {
        assert_eq!(
            d.get(b"Encoding").unwrap().as_name().unwrap(),
            b"Identity-H"
        );
        assert!(d.get(b"ToUnicode").unwrap().as_reference().is_ok());
    }
    let files = doc
        .objects
        .values()
        .filter(|o| o.as_stream().is_ok_and(|s| s.dict.get(b"Length1").is_ok()))
        .count();
    assert_eq!(files, 3, "one embedded font file per weight");
    // Subset: each font file is far smaller than the 0.6-0.75 MB bundled fonts.
    for o in doc.objects.values() {
        if let Ok(s) = o.as_stream()
            && let Ok(l) = s.dict.get(b"Length1")
        {
            assert!(
                l.as_i64().unwrap() < 150_000,
                "font file of {} bytes",
                l.as_i64().unwrap()
            );
        }
    }
}

#[test]
fn a_portrait_is_embedded_once_and_drawn_by_every_face_that_shows_it() {
    let dir = tempfile::tempdir().unwrap();
    image::RgbaImage::from_pixel(8, 12, image::Rgba([255, 0, 255, 255]))
        .save(dir.path().join("p.png"))
        .unwrap();
    let mut cards = Vec::new();
    for id in ["ico-grumbolt", "ico-anwen-halloway"] {
        let Card::Iconica(mut ch) = card(id) else {
            panic!()
        };
        ch.portrait = Some("p.png".into());
        cards.push(Card::Iconica(ch));
    }
    let mut o = a4();
    o.assets = Assets {
        portrait_root: Some(dir.path().to_path_buf()),
        ..Assets::default()
    };
    let doc = Document::load_mem(&pdf_bytes(&cards, &o).unwrap()).unwrap();
    let images: Vec<ObjectId> = doc
        .objects
        .iter()
        .filter(|(_, o)| subtype_is(o, b"Image"))
        .map(|(id, _)| *id)
        .collect();
    assert_eq!(images.len(), 1);
    let img = doc.get_object(images[0]).unwrap().as_stream().unwrap();
    assert_eq!(img.dict.get(b"Width").unwrap().as_i64().unwrap(), 8);
    assert_eq!(&img.decompressed_content().unwrap()[..3], &[255, 0, 255]);
    for form in forms_on_first_page(&doc) {
        let s = doc.get_object(form).unwrap().as_stream().unwrap();
        let xo = s
            .dict
            .get(b"Resources")
            .unwrap()
            .as_dict()
            .unwrap()
            .get(b"XObject")
            .unwrap()
            .as_dict()
            .unwrap();
        assert_eq!(
            xo.iter()
                .map(|(_, v)| v.as_reference().unwrap())
                .collect::<Vec<_>>(),
            images
        );
        let ops = Content::decode(&s.decompressed_content().unwrap())
            .unwrap()
            .operations;
        assert_eq!(ops.iter().filter(|o| o.operator == "Do").count(), 1);
    }
}

/// Share of the 0.5 mm squares (5 x 5 pixels at 254 dpi) whose mean colour differs by more
/// than `tolerance` in a channel. Averaging over squares forgives what readers do
/// differently at the pixel level (poppler puts glyphs on whole pixel rows, anti-aliasing)
/// and still sees a word on another line or a shape missing.
fn differing(
    a: &[u8],
    b: &[u8],
    width: usize,
    channels_a: usize,
    channels_b: usize,
    tolerance: f64,
) -> f64 {
    let height = a.len() / channels_a / width;
    let (bw, bh) = (width / 5, height / 5);
    let mean = |img: &[u8], ch: usize, bx: usize, by: usize, k: usize| {
        let mut s = 0u32;
        for y in by * 5..by * 5 + 5 {
            for x in bx * 5..bx * 5 + 5 {
                s += img[(y * width + x) * ch + k] as u32;
            }
        }
        s as f64 / 25.0
    };
    let mut far = 0;
    for by in 0..bh {
        for bx in 0..bw {
            if (0..3).any(|k| {
                (mean(a, channels_a, bx, by, k) - mean(b, channels_b, bx, by, k)).abs() > tolerance
            }) {
                far += 1;
            }
        }
    }
    far as f64 / (bw * bh) as f64
}

#[test]
fn a_page_rasterised_by_a_pdf_reader_matches_the_pixel_renderer() {
    if Command::new("pdftoppm").arg("-v").output().is_err() {
        // CI installs poppler-utils and sets this, so there the comparison always runs.
        assert!(
            std::env::var_os("DECKWRIGHT_REQUIRE_PDFTOPPM").is_none(),
            "pdftoppm (poppler-utils) is required here: install it"
        );
        eprintln!("pdftoppm (poppler-utils) is not installed: vector-raster comparison skipped");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    // At 254 dpi a millimetre is 10 pixels, so the cards sit on whole pixels.
    let dpi = 254.0;
    let ids = [
        "ico-grumbolt",
        "arc-l-brassgate-ward",
        "icl-fire-water",
        "ru-haskar-emberfist",
        "arc-q-a-choice-of-roads",
    ];
    let cards: Vec<Card> = ids.iter().map(|i| card(i)).collect();
    let pdf = dir.path().join("cards.pdf");
    std::fs::write(&pdf, pdf_bytes(&cards, &a4()).unwrap()).unwrap();
    for (k, c) in cards.iter().enumerate() {
        // Nine poker cards a page, centred at (10.5, 16.5) mm.
        let (x, y) = (105 + 630 * (k % 3), 165 + 880 * (k / 3));
        let out = dir.path().join(format!("card{k}"));
        let st = Command::new("pdftoppm")
            .args(["-r", "254", "-f", "1", "-l", "1", "-singlefile", "-png"])
            .args([
                "-x",
                &x.to_string(),
                "-y",
                &y.to_string(),
                "-W",
                "630",
                "-H",
                "880",
            ])
            .arg(&pdf)
            .arg(&out)
            .status()
            .unwrap();
        assert!(st.success());
        let read = image::open(out.with_extension("png")).unwrap().to_rgb8();
        let ours = render(c, Side::Front, &RenderSpec::poker(dpi), &Assets::default()).unwrap();
        assert_eq!((read.width(), read.height()), (ours.width, ours.height));
        let d = differing(read.as_raw(), &ours.rgba, 630, 3, 4, 40.0);
        // Measured: 0.2 % at most for the bundled cards; the same card with one word more,
        // which moves the words of one action, 0.5 %.
        assert!(
            d < 0.0035,
            "{}: {:.2} % of the card differs",
            c.id(),
            d * 100.0
        );
        // The measure sees a small change: the same card with one word more in an action.
        if let Card::Iconica(ch) = c {
            let mut ch = ch.clone();
            ch.actions[0].text.insert_str(0, "Then ");
            let other = render(
                &Card::Iconica(ch),
                Side::Front,
                &RenderSpec::poker(dpi),
                &Assets::default(),
            )
            .unwrap();
            let d = differing(read.as_raw(), &other.rgba, 630, 3, 4, 40.0);
            assert!(
                d > 0.0035,
                "one word more changes only {:.2} % of the card",
                d * 100.0
            );
        }
    }
}
