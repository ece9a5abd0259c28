//! Regressions of what a new user found in the browser, the Setup screen, the pickers and the
//! Match screen: each test is named after the fix (the search's late answers are tested in
//! `src/app/browser.rs`, where answers can be given in any order).

use deckwright::app::{DeckwrightApp, Screen};
use deckwright::games::arcadia::setup::SetupFile;
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};

use crate::support::{app, click, harness, harness_of_height};

/// Every text the last frame painted (labels and painter text alike).
fn painted_texts(h: &Harness<'_, DeckwrightApp>) -> Vec<String> {
    fn walk(shape: &egui::Shape, out: &mut Vec<String>) {
        match shape {
            egui::Shape::Text(t) => out.push(t.galley.text().to_string()),
            egui::Shape::Vec(v) => v.iter().for_each(|s| walk(s, out)),
            _ => {}
        }
    }
    let mut out = Vec::new();
    for clipped in &h.output().shapes {
        walk(&clipped.shape, &mut out);
    }
    out
}

#[test]
fn browser_columns_stay_in_view_after_the_window_grows_and_shrinks() {
    let mut h = harness(app());
    h.run();
    assert!(h.state().browser.rows().len() > 50);
    h.set_size(egui::vec2(1920.0, 800.0));
    h.run();
    h.set_size(egui::vec2(1024.0, 700.0));
    h.run();
    // The card detail on the right keeps at least 240 points; every column of the list stays
    // left of it, and the name column keeps its minimum.
    let name = h.get_by_label("Name").rect();
    let id = h.get_by_label("Id").rect();
    for title in ["Game", "Kind", "Owned", "Id"] {
        let r = h.get_by_label(title).rect();
        assert!(
            r.right() <= 1024.0 - 240.0,
            "column {title} out of view at 1024 wide: {r:?}"
        );
    }
    assert!(id.left() - name.left() >= 160.0, "{name:?} {id:?}");
    // And back to wide: the name takes the room again.
    h.set_size(egui::vec2(1920.0, 800.0));
    h.run();
    let wide_id = h.get_by_label("Id").rect();
    assert!(wide_id.left() > id.left() + 400.0, "{wide_id:?}");
}

/// The app on the Setup screen with the long-road example setup (ten leagues in a 5 x 2 grid).
fn long_road_setup(width: f32, height: f32) -> Harness<'static, DeckwrightApp> {
    let mut a = app();
    let path = "examples/arcadia/legal-long-road.setup.toml";
    a.docs.setup = SetupFile::parse(&std::fs::read_to_string(path).unwrap(), path).unwrap();
    let mut h = harness_of_height(a, 800.0);
    h.set_size(egui::vec2(width, height));
    h.run();
    click(&mut h, "Setup");
    assert_eq!(h.state().screen, Screen::Setup);
    h
}

#[test]
fn setup_league_grid_does_not_overlap_the_verdict_at_1280_and_1024() {
    for (w, ht) in [(1280.0, 800.0), (1024.0, 700.0)] {
        let h = long_road_setup(w, ht);
        let grid = h.get_by_label("League grid").rect();
        let verdict = h.get_by_label_contains("Not legal:").rect();
        assert!(
            !grid.intersects(verdict),
            "at {w} wide the grid {grid:?} overlaps the verdict {verdict:?}"
        );
        assert!(
            grid.right() <= w,
            "at {w} wide the grid {grid:?} leaves the window"
        );
        for f in h.query_all_by_label_contains("[").map(|n| n.rect()) {
            assert!(
                !grid.intersects(f),
                "a violation {f:?} under the grid {grid:?}"
            );
        }
    }
}

#[test]
fn league_tiles_and_pickers_show_side_features_and_merit_pickers_costs() {
    let mut h = long_road_setup(1280.0, 800.0);
    // Cinderforge Pits is laid: its east side (road, city-wall) is written along its square's
    // east edge.
    let texts = painted_texts(&h);
    assert!(
        texts.iter().any(|t| t == "road, city-wall"),
        "the east side of Cinderforge Pits on the grid: {texts:?}"
    );
    assert!(
        texts.iter().any(|t| t == "border"),
        "Worlds-Edge Scarp's north"
    );
    // The Leagues picker names each league's sides.
    h.get_by_role_and_label(egui::accesskit::Role::Button, "Leagues")
        .click();
    h.run();
    h.get_by_label(
        "Brassgate Ward  ·  league  ·  N city-wall · E road, city-wall · S road · W city-wall",
    );
    // Quests and waylays show their ratings.
    h.get_by_role_and_label(egui::accesskit::Role::Button, "Waylays")
        .click();
    h.run();
    h.get_by_label_contains("Hedge Bandits  ·  waylay  ·  rating ");
    // The Character screen's merit picker shows each merit's type and cost.
    click(&mut h, "Character");
    h.get_by_role_and_label(egui::accesskit::Role::Button, "Merits")
        .click();
    h.run();
    h.get_by_label_contains("Lucky Star  ·  merit  ·  ");
    let lucky = h
        .get_by_label_contains("Lucky Star  ·  merit  ·  ")
        .accesskit_node()
        .label()
        .unwrap();
    assert!(lucky.ends_with(", cost 4"), "{lucky}");
}

#[test]
fn match_screen_says_the_problems_are_listed_above() {
    let mut h = harness_of_height(app(), 900.0);
    h.run();
    click(&mut h, "Party");
    for name in ["Anwen Halloway", "Gorm Ashcairn", "Kethra Voss"] {
        click(&mut h, &format!("{name}  ·  character"));
    }
    click(&mut h, "Match");
    let why = h.get_by_label_contains("Party A is not legal (1 problem");
    // A label keeps its text in AccessKit's value.
    let text = why.accesskit_node().value().unwrap();
    assert!(text.contains("listed above"), "{text}");
    assert!(!text.contains("below"), "{text}");
    let problem = h.get_by_label("[faction-mix]").rect();
    assert!(
        why.rect().top() >= problem.bottom(),
        "the problem {problem:?} is above the message {:?}",
        why.rect()
    );
}
