//! The bundled face templates draw today's faces: every bundled card's front (and a copy of
//! one card of each kind with art), every game's back and every Iconoclasm element's other
//! face, compared with the pictures the per-game Rust faces drew before they became
//! templates (`tests/snapshots/faces/`), within a small pixel tolerance.
//!
//! `UPDATE_FACES=1 cargo test --test print faces` writes the pictures anew.

use std::path::{Path, PathBuf};

use deckwright::cards::{Card, Game};
use deckwright::catalogue::bundled_cards;
use deckwright::print::{Assets, CardImage, RenderSpec, Side, render, render_back};

const DPI: f32 = 72.0;

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/snapshots/faces")
}

/// A fixed picture for the cards with art: a gradient with a disc, so a misplaced or
/// mis-cropped picture shows.
fn art_file() -> PathBuf {
    let p = std::env::temp_dir().join(format!("deckwright-faces-art-{}.png", std::process::id()));
    if !p.exists() {
        let img = image::RgbImage::from_fn(120, 90, |x, y| {
            let d = ((x as i32 - 60).pow(2) + (y as i32 - 45).pow(2)) as f32;
            if d < 900.0 {
                image::Rgb([240, 220, 40])
            } else {
                image::Rgb([(x * 2) as u8, (y * 2) as u8, 120])
            }
        });
        img.save(&p).unwrap();
    }
    p
}

/// Every picture compared: a name and the image.
fn pictures() -> Vec<(String, CardImage)> {
    let spec = RenderSpec::poker(DPI);
    let assets = Assets::default();
    let mut out = Vec::new();
    let all = bundled_cards().unwrap();
    let mut with_art = std::collections::BTreeSet::new();
    for c in &all {
        out.push((
            format!("{}-front", c.id()),
            render(c, Side::Front, &spec, &assets).unwrap(),
        ));
        if let Card::Iconoclasm(_) = c {
            out.push((
                format!("{}-back", c.id()),
                render(c, Side::Back, &spec, &assets).unwrap(),
            ));
        }
        if c.art().is_none() && with_art.insert((c.game(), c.kind())) {
            let mut a = c.clone();
            a.set_art(Some(art_file().display().to_string()));
            out.push((
                format!("{}-art", c.id()),
                render(&a, Side::Front, &spec, &assets).unwrap(),
            ));
        }
    }
    for g in [
        Game::Iconica,
        Game::Arcadia,
        Game::Iconoclasm,
        Game::Ruunara,
    ] {
        out.push((
            format!("back-{}", g.as_str()),
            render_back(g, &spec).unwrap(),
        ));
    }
    out
}

/// How far two pictures differ: the share of pixels whose largest channel difference is
/// over 48, and the mean channel difference.
fn difference(a: &CardImage, b: &image::RgbaImage) -> (f64, f64) {
    assert_eq!((a.width, a.height), b.dimensions());
    let mut off = 0usize;
    let mut sum = 0u64;
    for (p, q) in a.rgba.chunks_exact(4).zip(b.as_raw().chunks_exact(4)) {
        let d = (0..3).map(|i| p[i].abs_diff(q[i])).max().unwrap_or(0);
        sum += (0..3).map(|i| p[i].abs_diff(q[i]) as u64).sum::<u64>();
        if d > 48 {
            off += 1;
        }
    }
    let n = (a.width * a.height) as f64;
    (off as f64 / n, sum as f64 / (3.0 * n))
}

#[test]
fn the_bundled_templates_draw_the_faces_they_replaced() {
    let update = std::env::var_os("UPDATE_FACES").is_some();
    std::fs::create_dir_all(dir()).unwrap();
    let mut bad = Vec::new();
    for (name, img) in pictures() {
        let path = dir().join(format!("{name}.png"));
        if update {
            std::fs::write(&path, img.encode_png(None)).unwrap();
            continue;
        }
        let want = image::open(&path)
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
            .to_rgba8();
        let (share, mean) = difference(&img, &want);
        // At most 1.5% of the pixels visibly off, and a mean difference under 3 of 255.
        if share > 0.015 || mean > 3.0 {
            std::fs::write(
                std::env::temp_dir().join(format!("face-{name}.png")),
                img.encode_png(None),
            )
            .unwrap();
            bad.push(format!("{name}: {:.2}% off, mean {mean:.2}", share * 100.0));
        }
    }
    assert!(bad.is_empty(), "faces that differ:\n{}", bad.join("\n"));
}
