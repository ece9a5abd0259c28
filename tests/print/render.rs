//! The card renderer: every bundled card of every kind draws, long texts stay inside the
//! card, portraits are drawn when their file exists, and the preview has the asked size.

use deckwright::cards::Card;
use deckwright::catalogue::bundled_cards;
use deckwright::print::{Assets, RenderSpec, Side, render, render_card, render_preview};

fn card(id: &str) -> Card {
    bundled_cards()
        .unwrap()
        .into_iter()
        .find(|c| c.id() == id)
        .unwrap()
}

fn px(img: &deckwright::print::CardImage, x: u32, y: u32) -> [u8; 4] {
    let i = ((y * img.width + x) * 4) as usize;
    [
        img.rgba[i],
        img.rgba[i + 1],
        img.rgba[i + 2],
        img.rgba[i + 3],
    ]
}

#[test]
fn every_bundled_card_renders_both_sides() {
    let all = bundled_cards().unwrap();
    let mut kinds = std::collections::BTreeSet::new();
    for c in &all {
        kinds.insert((c.game().as_str(), c.kind()));
        for side in [Side::Front, Side::Back] {
            let img = render(c, side, &RenderSpec::poker(40.0), &Assets::default()).unwrap();
            assert_eq!((img.width, img.height), (99, 139), "{}", c.id());
            assert!(
                img.rgba.chunks(4).all(|p| p[3] == 255),
                "{} has see-through pixels",
                c.id()
            );
            // Something is drawn: not a single flat colour.
            let first = &img.rgba[..4];
            assert!(
                img.rgba.chunks(4).any(|p| p != first),
                "{} is blank",
                c.id()
            );
        }
    }
    // The bundled set covers every kind the renderer draws.
    for k in [
        ("iconica", "character"),
        ("arcadia", "icon"),
        ("arcadia", "merit"),
        ("arcadia", "flaw"),
        ("arcadia", "waylay"),
        ("arcadia", "league"),
        ("arcadia", "quest"),
        ("iconoclasm", "element"),
        ("ruunara", "hero"),
        ("ruunara", "unit"),
    ] {
        assert!(kinds.contains(&k), "no bundled {k:?}");
    }
}

#[test]
fn an_element_card_has_two_faces_and_other_cards_share_their_game_back() {
    let spec = RenderSpec::poker(30.0);
    let a = Assets::default();
    let fw = card("icl-fire-water");
    let wf = card("icl-water-fire");
    let r = |c: &Card, s| render(c, s, &spec, &a).unwrap();
    assert_ne!(r(&fw, Side::Front), r(&fw, Side::Back));
    assert_eq!(r(&fw, Side::Back).rgba[..4], r(&wf, Side::Front).rgba[..4]);
    let g = card("ico-grumbolt");
    let n = card("ico-nyx-ellery");
    assert_eq!(r(&g, Side::Back), r(&n, Side::Back));
    assert_ne!(r(&g, Side::Back), r(&card("ru-fen-wraith"), Side::Back));
}

#[test]
fn long_texts_never_spill_over_the_card_border() {
    let Card::Iconica(mut ch) = card("ico-grumbolt") else {
        panic!()
    };
    let plain = render_card(&Card::Iconica(ch.clone()), 100.0);
    ch.name = "Grumbolt the Unreasonably Long-Named Champion of Everything ".repeat(4);
    for a in &mut ch.actions {
        a.name = "An Extremely Long Action Name".into();
        a.text = "Deal 20 damage to one opposing character and then do it again. ".repeat(40);
    }
    let long = render_card(&Card::Iconica(ch), 100.0);
    // The frame around the panel (2.2 mm at the edge) is untouched by any text.
    let ring = (2.0 / 25.4 * 100.0) as u32;
    for y in 0..long.height {
        for x in 0..long.width {
            if x < ring || y < ring || x >= long.width - ring || y >= long.height - ring {
                assert_eq!(
                    px(&long, x, y),
                    px(&plain, x, y),
                    "pixel ({x}, {y}) of the border changed"
                );
            }
        }
    }
}

#[test]
fn portraits_are_drawn_when_the_file_exists_and_a_placeholder_otherwise() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("p.png");
    image::RgbaImage::from_pixel(16, 16, image::Rgba([255, 0, 255, 255]))
        .save(&file)
        .unwrap();
    let Card::Iconica(mut ch) = card("ico-grumbolt") else {
        panic!()
    };
    let magenta = |img: &deckwright::print::CardImage| {
        img.rgba
            .chunks(4)
            .filter(|p| p[0] > 240 && p[1] < 20 && p[2] > 240)
            .count()
    };
    ch.portrait = None;
    let none = render_preview(&Card::Iconica(ch.clone()), 250, 350, &Assets::default());
    ch.portrait = Some("p.png".into());
    let assets = Assets {
        portrait_root: Some(dir.path().to_path_buf()),
        ..Assets::default()
    };
    let with = render_preview(&Card::Iconica(ch.clone()), 250, 350, &assets);
    assert!(magenta(&with) > 1000, "{}", magenta(&with));
    assert_eq!(magenta(&none), 0);
    // A portrait that cannot be read falls back to the placeholder.
    ch.portrait = Some("missing.png".into());
    assert_eq!(render_preview(&Card::Iconica(ch), 250, 350, &assets), none);
}

#[test]
fn the_preview_has_the_asked_size_and_bleed_grows_the_image() {
    let c = card("arc-l-brassgate-ward");
    let p = render_preview(&c, 250, 350, &Assets::default());
    assert_eq!((p.width, p.height, p.rgba.len()), (250, 350, 250 * 350 * 4));
    let spec = RenderSpec {
        width_mm: 63.0,
        height_mm: 88.0,
        bleed_mm: 3.0,
        dpi: 300.0,
    };
    let img = render(&c, Side::Front, &spec, &Assets::default()).unwrap();
    assert_eq!((img.width, img.height), (744 + 2 * 35, 1039 + 2 * 35));
    // The art extends into the bleed: its corner is the card's frame colour, not white.
    assert_ne!(px(&img, 1, 1), [255, 255, 255, 255]);
    assert_eq!(px(&img, 1, 1), px(&img, 40, 40));
}
