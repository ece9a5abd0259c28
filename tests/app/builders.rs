//! Drives the builders through their widgets: an illegal party and its violation, fixed to
//! legal, undo and redo; a match's shared Legend/Special rule; an Arcadia character's points;
//! a Ruunara squad's mode; saving and restoring documents.

use deckwright::app::{DeckwrightApp, Screen};
use deckwright::catalogue::saved::DocKind;
use egui::{Key, Modifiers};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;

use crate::support::{app, click, harness_of_height};

/// The builders want a taller window.
fn harness(app: DeckwrightApp) -> Harness<'static, DeckwrightApp> {
    harness_of_height(app, 900.0)
}

/// Clicks a picker's row: the name, the kind and what the picker shows after them (a merit's
/// cost, a league's sides).
fn pick(h: &mut Harness<'_, DeckwrightApp>, name: &str, kind: &str) {
    let row = format!("{name}  ·  {kind}");
    h.get_by(move |n| n.label().is_some_and(|l| l.starts_with(&row)))
        .click();
    h.run();
}

#[test]
fn illegal_party_shows_its_violation_then_is_fixed_and_undo_redo_walk_the_edits() {
    let mut h = harness(app());
    h.run();
    click(&mut h, "Party");
    assert_eq!(h.state().screen, Screen::Party);
    pick(&mut h, "Anwen Halloway", "character");
    pick(&mut h, "Gorm Ashcairn", "character");
    pick(&mut h, "Kethra Voss", "character");
    assert_eq!(
        h.state().docs.party_a.members,
        ["ico-anwen-halloway", "ico-gorm-ashcairn", "ico-kethra-voss"]
    );
    h.get_by_label("Not legal: 1 problem");
    h.get_by_label("[faction-mix]");
    let msg = h
        .get_by_label_contains("Legion")
        .value()
        .unwrap_or_default();
    assert!(
        msg.contains("Kethra Voss") && msg.contains("Anwen Halloway"),
        "{msg}"
    );

    // Fix it: select Kethra Voss, Delete, then add Ivo Quillon.
    click(&mut h, "3. Kethra Voss");
    h.key_press(Key::Delete);
    h.run();
    assert_eq!(h.state().docs.party_a.members.len(), 2);
    h.get_by_label("[party-size]");
    pick(&mut h, "Ivo Quillon", "character");
    h.get_by_label("Legal");
    assert!(h.query_by_label("[faction-mix]").is_none());

    // Undo: Ivo goes, then Kethra comes back with the violation; redo makes it legal again.
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run();
    h.get_by_label("[party-size]");
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run();
    h.get_by_label("[faction-mix]");
    assert_eq!(h.state().docs.party_a.members.len(), 3);
    h.key_press_modifiers(Modifiers::COMMAND | Modifiers::SHIFT, Key::Z);
    h.run();
    h.key_press_modifiers(Modifiers::COMMAND | Modifiers::SHIFT, Key::Z);
    h.run();
    h.get_by_label("Legal");
    assert_eq!(
        h.state().docs.party_a.members,
        ["ico-anwen-halloway", "ico-gorm-ashcairn", "ico-ivo-quillon"]
    );
}

#[test]
fn members_reorder_with_buttons_and_keys() {
    let mut h = harness(app());
    h.run();
    click(&mut h, "Party");
    pick(&mut h, "Anwen Halloway", "character");
    pick(&mut h, "Gorm Ashcairn", "character");
    click(&mut h, "2. Gorm Ashcairn");
    h.key_press_modifiers(Modifiers::ALT, Key::ArrowUp);
    h.run();
    assert_eq!(
        h.state().docs.party_a.members,
        ["ico-gorm-ashcairn", "ico-anwen-halloway"]
    );
    h.get_by_label("1. Gorm Ashcairn");
}

#[test]
fn a_match_reports_a_special_character_used_by_both_parties() {
    let mut h = harness(app());
    h.run();
    click(&mut h, "Party");
    click(&mut h, "Match: a second party");
    pick(&mut h, "Grumbolt", "character");
    click(&mut h, "B");
    pick(&mut h, "Grumbolt", "character");
    assert_eq!(h.state().docs.party_b.members, ["ico-grumbolt"]);
    h.get_by_label("[shared-legend-special]");
}

#[test]
fn character_builder_shows_points_and_court() {
    let mut h = harness(app());
    h.run();
    click(&mut h, "Character");
    click(&mut h, "Icon");
    let icon = h.state().docs.character.icon.clone();
    assert!(icon.is_none());
    pick(&mut h, "Thornling (Female)", "icon");
    assert!(h.state().docs.character.icon.is_some());
    h.get_by_label_contains("Points: 10 available, 0 spent, 10 left");
    click(&mut h, "Merits");
    pick(&mut h, "Lucky Star", "merit");
    assert_eq!(h.state().docs.character.merits.len(), 1);
    assert!(
        h.query_by_label_contains("Points: 10 available, 0 spent")
            .is_none(),
        "spending a merit moves the bar"
    );
    h.get_by_label("Court:");
}

#[test]
fn squad_mode_decides_the_single_race_rule() {
    let mut h = harness(app());
    h.run();
    click(&mut h, "Squad");
    pick(&mut h, "Ardann Smithguard", "unit");
    pick(&mut h, "Sanbari Tracker", "unit");
    h.get_by_label("[story-single-race]");
    click(&mut h, "free");
    assert_eq!(
        h.state().docs.squad.mode,
        deckwright::games::ruunara::squad::Mode::Free
    );
    h.get_by_label("Legal");
}

#[test]
fn saved_documents_and_drafts_come_back_after_a_restart() {
    let mut h = harness(app());
    h.run();
    click(&mut h, "Party");
    pick(&mut h, "Anwen Halloway", "character");
    h.key_press_modifiers(Modifiers::COMMAND, Key::S);
    h.run();
    assert!(
        h.state().status().contains("Saved party"),
        "{}",
        h.state().status()
    );
    pick(&mut h, "Gorm Ashcairn", "character");
    let cat = h.into_state().cat;
    assert_eq!(cat.list_docs(DocKind::Party).unwrap(), ["New party"]);
    let saved_body = cat.load_doc(DocKind::Party, "New party").unwrap().unwrap();
    assert!(saved_body.contains("ico-anwen-halloway") && !saved_body.contains("ico-gorm-ashcairn"));

    let mut h = harness(DeckwrightApp::new(cat));
    h.run();
    assert_eq!(
        h.state().screen,
        Screen::Party,
        "the last screen is restored"
    );
    assert_eq!(
        h.state().docs.party_a.members,
        ["ico-anwen-halloway", "ico-gorm-ashcairn"],
        "the unsaved draft is kept"
    );
}

#[test]
fn members_reorder_by_drag_and_drop() {
    let mut h = harness(app());
    h.run();
    click(&mut h, "Party");
    for name in ["Anwen Halloway", "Gorm Ashcairn", "Ivo Quillon"] {
        pick(&mut h, name, "character");
    }
    let handles: Vec<egui::Pos2> = h
        .get_all_by_label("::")
        .map(|n| n.rect().center())
        .collect();
    assert_eq!(handles.len(), 3);
    let (from, to) = (handles[0], handles[2]);
    h.hover_at(from);
    h.run();
    h.drag_at(from);
    h.run();
    for k in 1..=8 {
        h.hover_at(from + (to - from) * (k as f32 / 8.0));
        h.run();
    }
    h.drop_at(to);
    h.run();
    assert_eq!(
        h.state().docs.party_a.members,
        ["ico-gorm-ashcairn", "ico-ivo-quillon", "ico-anwen-halloway"],
        "the first member dropped on the third place"
    );
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run();
    assert_eq!(
        h.state().docs.party_a.members,
        ["ico-anwen-halloway", "ico-gorm-ashcairn", "ico-ivo-quillon"]
    );
}

/// The Party screen's health check of the two parties' match shows what `deckwright health`
/// prints for the same parties, and says when the parties changed since.
#[test]
fn the_party_screens_health_check_is_the_command_lines() {
    // Tall enough that the panel stays in view as party B grows.
    let mut h = harness_of_height(app(), 1400.0);
    h.run();
    crate::support::inline_turns(&h);
    click(&mut h, "Party");
    click(&mut h, "Match: a second party");
    for name in ["Teodric Vale", "Anwen Halloway", "Gorm Ashcairn"] {
        crate::support::pick_character(&mut h, name);
    }
    click(&mut h, "B");
    for name in ["Varek Solenne", "Kethra Voss", "Nyx Ellery"] {
        crate::support::pick_character(&mut h, name);
    }
    click(&mut h, "Check health");
    h.run();
    let ex = |p: &str| format!("{}/examples/iconica/{p}", env!("CARGO_MANIFEST_DIR"));
    let dir = tempfile::tempdir().unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_deckwright"))
        .arg("--db")
        .arg(dir.path().join("c.sqlite"))
        .args(["health", "iconica"])
        .arg(ex("legal-protectorate-wardens.party.toml"))
        .arg(ex("legal-legion-raiders.party.toml"))
        .args(["--games", "100"])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("  random:") || l.starts_with("  greedy:"))
        .map(str::trim)
        .collect();
    assert_eq!(lines.len(), 2, "{text}");
    for line in lines {
        h.get_by_label(line);
    }
    // A change to a party: the result is kept, and said to be for the parties before it.
    crate::support::pick_character(&mut h, "Grumbolt");
    assert_eq!(h.state().docs.party_b.members.len(), 4);
    h.get_by_label_contains("(for an earlier version");
}

/// The Party screen's "Find strongest builds" runs `deckwright health --builds`'s search on
/// a job (progress and Stop, run inline here) and shows the three strongest parties found
/// for the first party against the second: the ones the core's search finds.
#[test]
fn the_party_screen_finds_the_strongest_builds_the_core_finds() {
    use deckwright::balance::builds::{Settings, search};
    use deckwright::cards::Card;
    let mut h = harness_of_height(app(), 1400.0);
    h.run();
    crate::support::inline_turns(&h);
    click(&mut h, "Party");
    click(&mut h, "Match: a second party");
    let mine = ["Teodric Vale", "Anwen Halloway", "Gorm Ashcairn"];
    let theirs = ["Varek Solenne", "Kethra Voss", "Nyx Ellery"];
    for name in mine {
        crate::support::pick_character(&mut h, name);
    }
    click(&mut h, "B");
    for name in theirs {
        crate::support::pick_character(&mut h, name);
    }
    click(&mut h, "Find strongest builds");
    h.run();
    h.get_by_label_contains("Strongest builds found for seat 1");
    // The same search through the core, on the same match.
    let cards = deckwright::catalogue::bundled_cards().unwrap();
    let party = |names: &[&str]| -> Vec<_> {
        names
            .iter()
            .map(|n| {
                cards
                    .iter()
                    .find_map(|c| match c {
                        Card::Iconica(ch) if ch.name == *n => Some(ch.clone()),
                        _ => None,
                    })
                    .unwrap()
            })
            .collect()
    };
    let options = deckwright::games::iconica::matchfile::options(
        &Default::default(),
        &[
            (String::new(), party(&mine)),
            (String::new(), party(&theirs)),
        ],
    );
    let never = std::sync::atomic::AtomicBool::new(false);
    let runner = deckwright::balance::Runner::new(Some(1), Default::default(), &never).unwrap();
    let found = search(
        deckwright::games::registry::Builds::Parties,
        &options,
        &cards,
        Settings {
            ai: deckwright::games::ai::Policy::Greedy,
            seed: 1,
            seat: 0,
        },
        &deckwright::app::health_panel::climb(),
        &runner,
        &|_| {},
    )
    .unwrap();
    assert_eq!(found.builds.len(), 3);
    for b in &found.builds {
        h.get_by_label(&format!(
            "{:.1}% ({:.1}% to {:.1}%): {}",
            b.rate.win_rate * 100.0,
            b.rate.ci95.0 * 100.0,
            b.rate.ci95.1 * 100.0,
            b.name
        ));
    }
    h.snapshot("builder-party-strongest-builds");
}
