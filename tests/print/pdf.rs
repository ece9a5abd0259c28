//! Reads produced PDFs back with lopdf, as a printer would see them: page count and size,
//! where every card face (a vector Form XObject) sits (to 0.1 mm), crop marks outside the
//! cards, backs mirrored behind their fronts, the long-edge duplex request, and the cards'
//! text readable through the fonts' ToUnicode maps.

use deckwright::cards::Card;
use deckwright::catalogue::bundled_cards;
use deckwright::print::export::{ExportOptions, pdf_bytes};
use deckwright::print::layout::{self, Rect};
use lopdf::content::Content;
use lopdf::{Document, Object, ObjectId};

const MM: f32 = 72.0 / 25.4;

fn cards(ids: &[&str]) -> Vec<Card> {
    let all = bundled_cards().unwrap();
    ids.iter()
        .map(|id| {
            all.iter()
                .find(|c| c.id() == *id)
                .unwrap_or_else(|| panic!("{id}"))
                .clone()
        })
        .collect()
}

fn opts(paper: &str) -> ExportOptions {
    ExportOptions::new(layout::paper(paper).unwrap())
}

/// A face (form) or image drawn on a page: its box in mm (top-left origin) and its XObject.
#[derive(Debug, Clone)]
struct Drawn {
    rect: Rect,
    xobject: ObjectId,
}

struct Page {
    width: f32,
    height: f32,
    images: Vec<Drawn>,
    /// Stroked segments in mm, top-left origin.
    lines: Vec<((f32, f32), (f32, f32))>,
}

fn mul(a: [f32; 6], b: [f32; 6]) -> [f32; 6] {
    [
        a[0] * b[0] + a[1] * b[2],
        a[0] * b[1] + a[1] * b[3],
        a[2] * b[0] + a[3] * b[2],
        a[2] * b[1] + a[3] * b[3],
        a[4] * b[0] + a[5] * b[2] + b[4],
        a[4] * b[1] + a[5] * b[3] + b[5],
    ]
}

fn apply(m: [f32; 6], x: f32, y: f32) -> (f32, f32) {
    (m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5])
}

pub(super) fn xobjects(doc: &Document, page: ObjectId) -> Vec<(Vec<u8>, ObjectId)> {
    let (direct, refs) = doc.get_page_resources(page).unwrap();
    let mut dicts: Vec<&lopdf::Dictionary> = direct.into_iter().collect();
    for r in refs {
        if let Ok(d) = doc.get_dictionary(r) {
            dicts.push(d);
        }
    }
    let mut out = Vec::new();
    for d in dicts {
        if let Ok(x) = d.get(b"XObject") {
            let (_, x) = doc.dereference(x).unwrap();
            for (name, v) in x.as_dict().unwrap().iter() {
                out.push((name.clone(), v.as_reference().unwrap()));
            }
        }
    }
    out
}

fn read(bytes: &[u8]) -> (Document, Vec<Page>) {
    let doc = Document::load_mem(bytes).expect("the PDF reads back");
    let mut pages = Vec::new();
    for (_, id) in doc.get_pages() {
        let page = doc.get_dictionary(id).unwrap();
        let mb = page.get(b"MediaBox").unwrap().as_array().unwrap();
        let f = |o: &Object| o.as_float().unwrap();
        let (w, h) = (f(&mb[2]) - f(&mb[0]), f(&mb[3]) - f(&mb[1]));
        let names = xobjects(&doc, id);
        let content = Content::decode(&doc.get_page_content(id)).unwrap();
        let mut ctm = [1.0, 0.0, 0.0, 1.0, 0.0, 0.0];
        let mut stack = Vec::new();
        let mut images = Vec::new();
        let mut lines = Vec::new();
        let mut cur = (0.0, 0.0);
        let to_mm = |p: (f32, f32)| (p.0 / MM, h / MM - p.1 / MM);
        for op in content.operations {
            let nums: Vec<f32> = op
                .operands
                .iter()
                .filter_map(|o| o.as_float().ok())
                .collect();
            match op.operator.as_str() {
                "q" => stack.push(ctm),
                "Q" => ctm = stack.pop().unwrap(),
                "cm" => ctm = mul([nums[0], nums[1], nums[2], nums[3], nums[4], nums[5]], ctm),
                "m" => cur = apply(ctm, nums[0], nums[1]),
                "l" => {
                    let p = apply(ctm, nums[0], nums[1]);
                    lines.push((to_mm(cur), to_mm(p)));
                    cur = p;
                }
                "Do" => {
                    let name = op.operands[0].as_name().unwrap().to_vec();
                    let xobject = names.iter().find(|(n, _)| *n == name).unwrap().1;
                    // A form maps its bounding box through its matrix, an image the unit square.
                    let x = doc.get_object(xobject).unwrap().as_stream().unwrap();
                    let (m, bbox) = if x.dict.get(b"Subtype").unwrap().as_name().unwrap() == b"Form"
                    {
                        let nums = |key: &[u8]| -> Vec<f32> {
                            x.dict
                                .get(key)
                                .unwrap()
                                .as_array()
                                .unwrap()
                                .iter()
                                .map(|o| o.as_float().unwrap())
                                .collect()
                        };
                        let m = x
                            .dict
                            .get(b"Matrix")
                            .map(|_| nums(b"Matrix"))
                            .unwrap_or(vec![1.0, 0.0, 0.0, 1.0, 0.0, 0.0]);
                        ([m[0], m[1], m[2], m[3], m[4], m[5]], nums(b"BBox"))
                    } else {
                        ([1.0, 0.0, 0.0, 1.0, 0.0, 0.0], vec![0.0, 0.0, 1.0, 1.0])
                    };
                    let full = mul(m, ctm);
                    let corners: Vec<(f32, f32)> = [
                        (bbox[0], bbox[1]),
                        (bbox[2], bbox[3]),
                        (bbox[0], bbox[3]),
                        (bbox[2], bbox[1]),
                    ]
                    .into_iter()
                    .map(|(x, y)| to_mm(apply(full, x, y)))
                    .collect();
                    let (x0, x1) = corners
                        .iter()
                        .fold((f32::MAX, f32::MIN), |(a, b), c| (a.min(c.0), b.max(c.0)));
                    let (y0, y1) = corners
                        .iter()
                        .fold((f32::MAX, f32::MIN), |(a, b), c| (a.min(c.1), b.max(c.1)));
                    images.push(Drawn {
                        rect: Rect {
                            x: x0,
                            y: y0,
                            w: x1 - x0,
                            h: y1 - y0,
                        },
                        xobject,
                    });
                }
                _ => {}
            }
        }
        pages.push(Page {
            width: w / MM,
            height: h / MM,
            images,
            lines,
        });
    }
    (doc, pages)
}

fn close(a: f32, b: f32) -> bool {
    (a - b).abs() < 0.1
}

fn assert_rect(r: &Rect, x: f32, y: f32, w: f32, h: f32) {
    assert!(
        close(r.x, x) && close(r.y, y) && close(r.w, w) && close(r.h, h),
        "{r:?} is not ({x}, {y}, {w} x {h})"
    );
}

const TEN: [&str; 10] = [
    "ico-grumbolt",
    "ico-anwen-halloway",
    "arc-l-brassgate-ward",
    "arc-icon-hobgallant-male",
    "icl-fire-water",
    "icl-air",
    "ru-haskar-emberfist",
    "ru-ardann-smithguard",
    "arc-q-a-choice-of-roads",
    "ico-nyx-ellery",
];

#[test]
fn nine_poker_cards_a_page_on_a4_at_their_exact_places() {
    let (_, pages) = read(&pdf_bytes(&cards(&TEN), &opts("a4")).unwrap());
    assert_eq!(pages.len(), 2);
    for p in &pages {
        assert!(
            close(p.width, 210.0) && close(p.height, 297.0),
            "{} x {}",
            p.width,
            p.height
        );
    }
    assert_eq!(pages[0].images.len(), 9);
    assert_eq!(pages[1].images.len(), 1);
    // 3 x 63 = 189 mm of 210, 3 x 88 = 264 of 297: centred at (10.5, 16.5).
    for (k, d) in pages[0].images.iter().enumerate() {
        let (c, r) = ((k % 3) as f32, (k / 3) as f32);
        assert_rect(&d.rect, 10.5 + 63.0 * c, 16.5 + 88.0 * r, 63.0, 88.0);
    }
    assert_rect(&pages[1].images[0].rect, 10.5, 16.5, 63.0, 88.0);
}

#[test]
fn letter_paper_also_takes_nine_poker_cards() {
    let (_, pages) = read(&pdf_bytes(&cards(&TEN[..9]), &opts("letter")).unwrap());
    assert_eq!(pages.len(), 1);
    assert!(close(pages[0].width, 215.9) && close(pages[0].height, 279.4));
    let x0 = (215.9 - 189.0) / 2.0;
    let y0 = (279.4 - 264.0) / 2.0;
    assert_rect(&pages[0].images[8].rect, x0 + 126.0, y0 + 176.0, 63.0, 88.0);
}

#[test]
fn bleed_gutter_and_other_sizes_move_the_cards() {
    let mut o = opts("a4");
    o.card_w = 44.0;
    o.card_h = 63.0;
    o.bleed = 2.0;
    o.gutter = 3.0;
    let (_, pages) = read(&pdf_bytes(&cards(&TEN[..5]), &o).unwrap());
    // Cells of 48 x 67 mm (44 x 63 plus 2 mm bleed all round) with 3 mm between, inside
    // 5 mm margins: 3 across (150 mm, from x = 30) and 4 down (277 mm, from y = 10).
    let imgs = &pages[0].images;
    assert_rect(&imgs[0].rect, 30.0, 10.0, 48.0, 67.0);
    assert_rect(&imgs[1].rect, 81.0, 10.0, 48.0, 67.0);
    assert_rect(&imgs[4].rect, 81.0, 80.0, 48.0, 67.0);
}

#[test]
fn crop_marks_lie_outside_every_card() {
    let mut o = opts("a4");
    o.crop_marks = true;
    o.gutter = 2.0;
    let (_, pages) = read(&pdf_bytes(&cards(&TEN[..7]), &o).unwrap());
    let p = &pages[0];
    assert!(p.lines.len() >= 12, "{} marks", p.lines.len());
    for (a, b) in &p.lines {
        for img in &p.images {
            let r = img.rect;
            for t in [0.0, 0.25, 0.5, 0.75, 1.0] {
                let (x, y) = (a.0 + (b.0 - a.0) * t, a.1 + (b.1 - a.1) * t);
                let inside = x > r.x + 0.01
                    && x < r.right() - 0.01
                    && y > r.y + 0.01
                    && y < r.bottom() - 0.01;
                assert!(!inside, "mark {a:?}-{b:?} crosses card at {r:?}");
            }
        }
        // Each mark lines up with a trim edge of some card.
        let vertical = close(a.0, b.0);
        let on_edge = p.images.iter().any(|i| {
            if vertical {
                close(a.0, i.rect.x) || close(a.0, i.rect.right())
            } else {
                close(a.1, i.rect.y) || close(a.1, i.rect.bottom())
            }
        });
        assert!(on_edge, "mark {a:?}-{b:?} is on no card edge");
        assert!(a.0 >= 0.0 && a.1 >= 0.0 && b.0 <= 210.0 && b.1 <= 297.0);
    }
}

#[test]
fn backs_sit_mirrored_behind_their_fronts_with_duplex_requested() {
    let mut o = opts("a4");
    o.backs = true;
    o.gutter = 1.0;
    let (doc, pages) = read(&pdf_bytes(&cards(&TEN), &o).unwrap());
    assert_eq!(pages.len(), 4, "fronts, backs, fronts, backs");
    for (fronts, backs) in [(&pages[0], &pages[1]), (&pages[2], &pages[3])] {
        assert_eq!(fronts.images.len(), backs.images.len());
        for (f, b) in fronts.images.iter().zip(&backs.images) {
            // Flipped on the long edge, x mirrors and y stays.
            assert_rect(
                &b.rect,
                210.0 - f.rect.x - f.rect.w,
                f.rect.y,
                f.rect.w,
                f.rect.h,
            );
        }
    }
    let vp = doc
        .catalog()
        .unwrap()
        .get(b"ViewerPreferences")
        .expect("viewer preferences");
    let (_, vp) = doc.dereference(vp).unwrap();
    assert_eq!(
        vp.as_dict()
            .unwrap()
            .get(b"Duplex")
            .unwrap()
            .as_name()
            .unwrap(),
        b"DuplexFlipLongEdge"
    );
}

#[test]
fn back_offset_moves_every_back() {
    let mut o = opts("a4");
    o.backs = true;
    let (_, plain) = read(&pdf_bytes(&cards(&TEN[..3]), &o).unwrap());
    o.back_offset = (1.5, -0.7);
    let (_, moved) = read(&pdf_bytes(&cards(&TEN[..3]), &o).unwrap());
    for (a, b) in plain[1].images.iter().zip(&moved[1].images) {
        assert_rect(&b.rect, a.rect.x + 1.5, a.rect.y - 0.7, a.rect.w, a.rect.h);
    }
    for (a, b) in plain[0].images.iter().zip(&moved[0].images) {
        assert_rect(&b.rect, a.rect.x, a.rect.y, a.rect.w, a.rect.h);
    }
}

/// The first fill colour a face sets: its background (the bleed box is painted first).
fn background(doc: &Document, id: ObjectId) -> [f32; 3] {
    let s = doc.get_object(id).unwrap().as_stream().unwrap();
    let ops = Content::decode(&s.decompressed_content().unwrap())
        .unwrap()
        .operations;
    let rg = ops
        .iter()
        .find(|o| o.operator == "rg")
        .expect("the face sets a fill colour");
    let v: Vec<f32> = rg.operands.iter().map(|o| o.as_float().unwrap()).collect();
    [v[0], v[1], v[2]]
}

#[test]
fn an_element_card_is_backed_by_its_other_face_others_by_their_game_back() {
    let mut o = opts("a4");
    o.backs = true;
    let ids = [
        "icl-fire-water",
        "ico-grumbolt",
        "ico-anwen-halloway",
        "icl-water",
    ];
    let (doc, pages) = read(&pdf_bytes(&cards(&ids), &o).unwrap());
    let fronts = &pages[0].images;
    let backs = &pages[1].images;
    let corner = |d: &Drawn| background(&doc, d.xobject);
    // Fire front is red, its back is water blue; the single water card is blue on both sides.
    let [r, _, b] = corner(&fronts[0]);
    assert!(r > 0.6 && b < 0.3, "fire front {:?}", corner(&fronts[0]));
    let [r, _, b] = corner(&backs[0]);
    assert!(b > 0.5 && r < 0.3, "water back {:?}", corner(&backs[0]));
    assert_eq!(corner(&fronts[3]), corner(&backs[3]));
    // Two Iconica cards share one embedded back face; their fronts differ.
    assert_eq!(backs[1].xobject, backs[2].xobject);
    assert_ne!(fronts[1].xobject, fronts[2].xobject);
}

#[test]
fn one_thousand_cards_make_112_pages_with_each_face_embedded_once() {
    let all = bundled_cards().unwrap();
    let many: Vec<Card> = all.iter().cycle().take(1000).cloned().collect();
    let o = opts("a4");
    let (doc, pages) = read(&pdf_bytes(&many, &o).unwrap());
    assert_eq!(pages.len(), 112);
    assert_eq!(pages.iter().map(|p| p.images.len()).sum::<usize>(), 1000);
    let distinct: std::collections::BTreeSet<ObjectId> = pages
        .iter()
        .flat_map(|p| p.images.iter().map(|i| i.xobject))
        .collect();
    assert_eq!(distinct.len(), all.len().min(1000));
    let forms = doc
        .objects
        .values()
        .filter(|o| {
            o.as_stream().is_ok_and(|s| {
                s.dict
                    .get(b"Subtype")
                    .is_ok_and(|t| t.as_name().is_ok_and(|n| n == b"Form"))
            })
        })
        .count();
    assert_eq!(forms, all.len());
    // No card is a picture: the faces are vector drawing and text.
    let images = doc
        .objects
        .values()
        .filter(|o| {
            o.as_stream().is_ok_and(|s| {
                s.dict
                    .get(b"Subtype")
                    .is_ok_and(|t| t.as_name().is_ok_and(|n| n == b"Image"))
            })
        })
        .count();
    assert_eq!(images, 0);
}
