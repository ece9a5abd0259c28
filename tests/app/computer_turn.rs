//! The computer's turn runs on its own thread: with both seats a slow search (mcts with a
//! million playouts a decision), frames keep being drawn while it thinks, the window says so,
//! and Stop ends the search mid-decision without taking it; Continue thinks again. Nothing
//! here waits on a clock: the search is far too long to end within the frames stepped, and
//! the stop is waited for by a bounded count of frames.

use std::path::Path;
use std::time::Duration;

use deckwright::app::DeckwrightApp;
use deckwright::app::docs::Slot;
use deckwright::app::files;
use deckwright::app::matches::job::set_inline_turns;
use deckwright::games::ai::Policy;
use deckwright::games::session::Seat as SessionSeat;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;

use crate::support::{app, click, harness};

/// A search far longer than any test runs.
const SLOW: &str = "mcts:1000000";

/// Steps frames until `done` holds, at most ~60 s of 10 ms naps (the stop is seen between
/// two playouts, so this waits for one playout at most).
fn wait(h: &mut Harness<'_, DeckwrightApp>, done: impl Fn(&DeckwrightApp) -> bool) {
    for _ in 0..6000 {
        h.step();
        if done(h.state()) {
            h.run_steps(3);
            return;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    panic!("the computer's turn did not stop");
}

/// Steps a few frames while the computer thinks: each is drawn (the UI thread is free),
/// the row says the computer is thinking, and Stop is there.
fn frames_drawn_while_thinking(
    h: &mut Harness<'_, DeckwrightApp>,
    thinking: impl Fn(&DeckwrightApp) -> bool,
) {
    // The frame of the click starts the turn; the frames after it draw while it thinks.
    h.step();
    for _ in 0..10 {
        h.step();
        assert!(thinking(h.state()), "still thinking: a million playouts");
    }
    h.get_by_label_contains("The computer is thinking");
    h.get_by_label("Stop");
}

#[test]
fn iconoclasm_computer_against_computer_thinks_off_the_ui_thread_and_stops() {
    let mut h = harness(app());
    set_inline_turns(&h.ctx, false);
    h.run();
    click(&mut h, "Match");
    click(&mut h, "Iconoclasm");
    h.state_mut().matches.iconoclasm.view.seats =
        vec![SessionSeat::Computer(Policy::parse(SLOW).unwrap()); 4];
    h.run();
    h.get_by_label("New match").click();
    frames_drawn_while_thinking(&mut h, |a| a.matches.iconoclasm.view.turn.running());
    let p = h.state().matches.iconoclasm.view.session.as_ref().unwrap();
    assert!(p.is_empty(), "no decision taken on the UI thread");
    h.get_by_label("Stop").click();
    wait(&mut h, |a| !a.matches.iconoclasm.view.turn.running());
    let p = h.state().matches.iconoclasm.view.session.as_ref().unwrap();
    assert!(p.is_empty(), "a stopped search is not a decision");
    assert!(h.state().matches.iconoclasm.view.turn.paused());
    h.get_by_label("The computer was stopped.");
    // It stays stopped until asked.
    h.run_steps(5);
    assert!(!h.state().matches.iconoclasm.view.turn.running());
    h.get_by_label("Continue").click();
    frames_drawn_while_thinking(&mut h, |a| a.matches.iconoclasm.view.turn.running());
    h.key_press(egui::Key::Escape);
    wait(&mut h, |a| !a.matches.iconoclasm.view.turn.running());
    assert!(
        h.state().matches.iconoclasm.view.turn.paused(),
        "Escape stops it too"
    );
}

#[test]
fn arcadia_computer_against_computer_thinks_off_the_ui_thread_and_stops() {
    let mut a = app();
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/arcadia/legal-long-road.setup.toml");
    for action in files::setup_characters(&path) {
        a.apply(action);
    }
    a.apply(files::open_doc_path(&path, Slot::Setup));
    a.matches.arcadia.view.seats = vec![SessionSeat::Computer(Policy::parse(SLOW).unwrap()); 2];
    let mut h = harness(a);
    set_inline_turns(&h.ctx, false);
    h.run();
    click(&mut h, "Match");
    click(&mut h, "Arcadia");
    h.get_by_label("New match").click();
    frames_drawn_while_thinking(&mut h, |a| a.matches.arcadia.view.turn.running());
    h.get_by_label("Stop").click();
    wait(&mut h, |a| !a.matches.arcadia.view.turn.running());
    h.get_by_label("The computer was stopped.");
    let s = h.state().matches.arcadia.view.session.as_ref().unwrap();
    // The dice before the first decision were rolled; no decision of the search was taken.
    assert!(matches!(
        s.latest().turn(),
        deckwright::games::game::Turn::Seat { .. }
    ));
    assert!(
        (0..s.len()).all(|k| s.mover(k).is_none()),
        "only chance was drawn"
    );
    assert!(h.state().matches.arcadia.view.turn.paused());
}

#[test]
fn iconica_computer_against_computer_thinks_off_the_ui_thread_and_stops() {
    use deckwright::games::game::Turn;
    let mut h = crate::support::two_parties();
    set_inline_turns(&h.ctx, false);
    click(&mut h, "Play against the computer");
    h.state_mut().matches.play.view.seats =
        vec![SessionSeat::Computer(Policy::parse(SLOW).unwrap()); 2];
    h.run();
    h.get_by_label("New match").click();
    frames_drawn_while_thinking(&mut h, |a| a.matches.play.view.turn.running());
    h.get_by_label("Stop").click();
    wait(&mut h, |a| !a.matches.play.view.turn.running());
    h.get_by_label("The computer was stopped.");
    assert!(h.state().matches.play.view.turn.paused());
    // The dice before the first decision were rolled; no decision of the search was taken.
    let s = h.state().matches.play.view.session.as_ref().unwrap();
    assert!(
        (0..s.len()).all(|k| s.mover(k).is_none()),
        "only chance inputs"
    );
    assert!(matches!(s.latest().turn(), Turn::Seat { seat: 0, .. }));
    h.get_by_label("Continue").click();
    frames_drawn_while_thinking(&mut h, |a| a.matches.play.view.turn.running());
    h.key_press(egui::Key::Escape);
    wait(&mut h, |a| !a.matches.play.view.turn.running());
    assert!(
        h.state().matches.play.view.turn.paused(),
        "Escape stops it too"
    );
}

#[test]
fn a_watched_iconica_match_on_the_session_view_stops_mid_match() {
    use deckwright::games::game::Turn;
    let mut h = crate::support::two_parties();
    set_inline_turns(&h.ctx, false);
    click(&mut h, "Watch one match");
    // Player 1 plays at once, player 2 searches far longer than the test runs.
    h.state_mut().matches.watch.view.seats = vec![
        SessionSeat::Computer(Policy::First),
        SessionSeat::Computer(Policy::parse(SLOW).unwrap()),
    ];
    h.run();
    h.get_by_label("New match").click();
    frames_drawn_while_thinking(&mut h, |a| a.matches.watch.view.turn.running());
    h.get_by_label("Stop").click();
    wait(&mut h, |a| !a.matches.watch.view.turn.running());
    h.get_by_label("The computer was stopped.");
    // Stopped mid-match: player 1's decisions were taken, player 2's search was not.
    let s = h.state().matches.watch.view.session.as_ref().unwrap();
    assert!(
        (0..s.len()).any(|k| s.mover(k) == Some(0)),
        "player 1 played"
    );
    assert!(
        (0..s.len()).all(|k| s.mover(k) != Some(1)),
        "player 2 took nothing"
    );
    assert!(matches!(s.latest().turn(), Turn::Seat { seat: 1, .. }));
}
