//! Iconoclasm on the Match screen through the real app: a person plays a 2-player game against
//! the computer to the end with the keys, every position shown is the engine's at that step,
//! and stepping back and forth shows the engine's state at each step.

use deckwright::app::matches::MatchGame;
use deckwright::app::matches::iconoclasm::position;
use deckwright::app::{DeckwrightApp, Screen};
use deckwright::games::game::{Game, Turn, replay};
use deckwright::games::iconoclasm::engine::{IconoclasmGame, NoLog, State, winner};
use deckwright::games::session::Session;
use egui::Key;
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};

use crate::support::{app, click, harness};

/// The app on the Match screen's Iconoclasm view with a new 2-player game dealt (seed 1,
/// player 1 a person, player 2 the computer).
fn new_game() -> Harness<'static, DeckwrightApp> {
    let mut h = harness(app());
    h.run();
    click(&mut h, "Match");
    assert_eq!(h.state().screen, Screen::Match);
    click(&mut h, "Iconoclasm");
    assert_eq!(h.state().matches.game, MatchGame::Iconoclasm);
    click(&mut h, "New match");
    assert!(
        h.state().matches.iconoclasm.view.session.is_some(),
        "a game is dealt"
    );
    h
}

/// The match of the Iconoclasm view.
fn session(app: &DeckwrightApp) -> &Session {
    app.matches.iconoclasm.view.session.as_ref().unwrap()
}

/// Whether the match is over at its latest step.
fn over(s: &Session) -> bool {
    matches!(s.latest().turn(), Turn::Over)
}

/// The state at step `k` of the match.
fn state_at(s: &Session, k: usize) -> State {
    position(s.game_at(k).as_ref()).unwrap().st
}

/// The engine's game after `inputs` on the same deal, made apart from the app.
fn engine_state(
    app: &DeckwrightApp,
    inputs: &[usize],
) -> deckwright::games::iconoclasm::engine::State {
    let setup = deckwright::app::core::iconoclasm_setup(&app.cat, 2, 1).unwrap();
    let start = IconoclasmGame::start(&setup, &mut NoLog);
    replay(&start, inputs).st
}

#[test]
fn a_person_plays_a_two_player_iconoclasm_game_to_the_end_with_the_keys() {
    let mut h = new_game();
    h.get_by_label("Iconoclasm board");
    for _ in 0..40 {
        if over(session(h.state())) {
            break;
        }
        h.get_by_label_contains("which card, where, and which face up?");
        h.key_press(Key::Num1);
        h.run();
    }
    let app = h.state();
    let p = session(app);
    assert!(over(p), "the game ends");
    assert_eq!(p.at, p.len(), "the last step is shown");
    // The engine, on the same deal, agrees on every position; player 1's decisions were the
    // first option each time (key 1), and both players decided.
    let setup = deckwright::app::core::iconoclasm_setup(&app.cat, 2, 1).unwrap();
    let mut g = IconoclasmGame::start(&setup, &mut NoLog);
    let mut seats_seen = [0, 0];
    for &i in p.inputs() {
        let Turn::Seat { seat, options } = g.turn() else {
            panic!("no chance in a 2-player game")
        };
        assert!(i < options);
        if seat == 0 {
            assert_eq!(i, 0, "the person took option 1");
        }
        seats_seen[seat] += 1;
        g.apply(i);
    }
    assert!(matches!(g.turn(), Turn::Over));
    assert!(seats_seen[0] > 3 && seats_seen[1] > 3, "{seats_seen:?}");
    assert_eq!(state_at(p, p.len()), g.st);
    // The end is told with the engine's winner.
    let told = match winner(&g.st) {
        Some(w) => format!("Player {} wins", w + 1),
        None => "No winner".into(),
    };
    h.get_by_label(&told);
}

#[test]
fn a_game_stepped_back_and_forth_shows_the_engine_state_at_each_step() {
    let mut h = new_game();
    for _ in 0..4 {
        h.key_press(Key::Num1);
        h.run();
    }
    let n = session(h.state()).len();
    assert!(
        n >= 8,
        "four of the person's decisions and the computer's answers: {n}"
    );
    for back in 1..=5 {
        h.key_press(Key::ArrowLeft);
        h.run();
        let p = session(h.state());
        assert_eq!(p.at, n - back);
        assert_eq!(p.len(), n, "stepping back keeps the game");
        assert_eq!(
            state_at(p, p.at),
            engine_state(h.state(), &p.inputs()[..n - back])
        );
    }
    h.get_by_label(&format!("Step {} of {n}", n - 5));
    click(&mut h, "Forward");
    let p = session(h.state());
    assert_eq!(p.at, n - 4);
    assert_eq!(
        state_at(p, p.at),
        engine_state(h.state(), &p.inputs()[..n - 4])
    );
    // At an earlier step of the person, taking another option plays on from there: an undo.
    while {
        let p = session(h.state());
        !matches!(p.game_at(p.at).turn(), Turn::Seat { seat: 0, .. })
    } {
        h.key_press(Key::ArrowLeft);
        h.run();
    }
    let at = session(h.state()).at;
    h.key_press(Key::Num2);
    h.run();
    let p = session(h.state());
    assert_eq!(p.inputs()[at], 1, "option 2 taken at step {at}");
    assert_eq!(p.at, p.len(), "the computer answered and the end is shown");
    assert_eq!(state_at(p, p.len()), engine_state(h.state(), p.inputs()));
}

/// The board at 1024 x 700 after six decisions, as a snapshot image
/// (`tests/snapshots/board-iconoclasm.png`): a change of drawing shows in review.
#[test]
fn iconoclasm_board_snapshot() {
    let mut h = new_game();
    h.set_size(egui::vec2(1024.0, 700.0));
    for _ in 0..3 {
        h.key_press(Key::Num1);
        h.run();
    }
    h.snapshot("board-iconoclasm");
}

#[test]
fn clicking_a_lit_cell_of_the_board_lists_only_the_options_placing_there() {
    let mut h = new_game();
    for _ in 0..2 {
        h.key_press(Key::Num1);
        h.run();
    }
    let board = h.get_by_label("Iconoclasm board").rect();
    let (cell, want, n_at_cell, cols, rows, left, top) = {
        let p = session(h.state());
        let shown = p.game_at(p.at);
        let g = position(shown.as_ref()).unwrap();
        let moves = g.moves();
        let cells: Vec<_> = moves.iter().map(|m| m.pos).collect();
        let b = g.st.grid.bounds().unwrap();
        let top = cells.iter().map(|c| c.row).chain([b.top]).min().unwrap();
        let bottom = cells.iter().map(|c| c.row).chain([b.bottom]).max().unwrap();
        let left = cells.iter().map(|c| c.col).chain([b.left]).min().unwrap();
        let right = cells.iter().map(|c| c.col).chain([b.right]).max().unwrap();
        // A lit cell other than the first option's.
        let cell = *cells.iter().rev().find(|c| **c != cells[0]).unwrap();
        let first_there = moves.iter().position(|m| m.pos == cell).unwrap();
        (
            cell,
            g.describe(first_there),
            cells.iter().filter(|c| **c == cell).count(),
            (right - left + 1) as f32,
            (bottom - top + 1) as f32,
            left,
            top,
        )
    };
    let side = board.width() / cols;
    assert!((board.height() / rows - side).abs() < 0.5, "square cells");
    let at = board.min
        + egui::vec2(
            (f32::from(cell.col - left) + 0.5) * side,
            (f32::from(cell.row - top) + 0.5) * side,
        );
    h.hover_at(at);
    h.drag_at(at);
    h.event(egui::Event::PointerButton {
        pos: at,
        button: egui::PointerButton::Primary,
        pressed: false,
        modifiers: egui::Modifiers::NONE,
    });
    h.run();
    assert_eq!(h.state().matches.iconoclasm.view.board.cell, Some(cell));
    h.get_by_label(&format!("1. {want}"));
    // The option buttons ("1. Earth over Air earth up at (-5, 0)"), not the log's lines.
    let listed: Vec<String> = h
        .query_all_by(|n| {
            n.role() == egui::accesskit::Role::Button
                && n.label().is_some_and(|l| l.contains(" at ("))
        })
        .map(|n| n.accesskit_node().label().unwrap())
        .collect();
    assert_eq!(
        listed.len(),
        n_at_cell,
        "only the options at {cell:?}: {listed:?}"
    );
    let there = format!(" at ({}, {})", cell.row, cell.col);
    assert!(
        listed.iter().all(|l| l.ends_with(&there)),
        "{listed:?} {there}"
    );
    // Key 1 now takes the first option there.
    h.key_press(Key::Num1);
    h.run();
    let p = session(h.state());
    let g = position(p.game_at(5).as_ref()).unwrap().st;
    assert!(g.grid.get(cell).is_some(), "a card was placed at {cell:?}");
}

#[test]
fn a_person_plays_a_solo_iconoclasm_game_with_the_draws_of_the_dealt_pile() {
    use deckwright::games::iconoclasm::engine::Pile;
    let mut h = harness(app());
    h.run();
    click(&mut h, "Match");
    click(&mut h, "Iconoclasm");
    h.state_mut().matches.iconoclasm.view.players = 1;
    h.run();
    click(&mut h, "New match");
    for _ in 0..40 {
        if over(session(h.state())) {
            break;
        }
        h.key_press(Key::Num1);
        h.run();
    }
    let app = h.state();
    let p = session(app);
    assert!(over(p), "the solo game ends");
    // Every chance input is the pile's draw, every decision the person's option 1.
    let setup = deckwright::app::core::iconoclasm_setup(&app.cat, 1, 1).unwrap();
    let mut pile = Pile::new(&setup);
    let mut g = IconoclasmGame::start(&setup, &mut NoLog);
    let (mut draws, mut decisions) = (0, 0);
    for &i in p.inputs() {
        match g.turn() {
            Turn::Chance(c) => {
                assert_eq!(Some(i), c.draw(&mut pile), "draw {draws}");
                draws += 1;
            }
            Turn::Seat { .. } => {
                assert_eq!(i, 0);
                decisions += 1;
            }
            Turn::Over => panic!("inputs after the end"),
        }
        g.apply(i);
    }
    assert!(
        draws > 3 && decisions > 3,
        "{draws} draws, {decisions} decisions"
    );
    assert!(matches!(g.turn(), Turn::Over));
    assert_eq!(state_at(p, p.len()), g.st);
}

/// Issue #27 item 2: at 1024 x 700, a few decisions in, no widget of the board screen overlaps
/// another and each can be reached.
#[test]
fn iconoclasm_board_laid_out_at_1024_by_700() {
    let mut h = new_game();
    h.set_size(egui::vec2(1024.0, 700.0));
    for _ in 0..3 {
        h.key_press(Key::Num1);
        h.run();
    }
    crate::support::assert_laid_out(&mut h, "Iconoclasm board");
}

/// Issue #27 item 3: each seat's hand is shown on the board screen, under the table: one row
/// a seat naming the cards the engine says it holds, the table above the rows, none over
/// another; as cards are placed, the hand shown follows.
#[test]
fn each_seats_hand_is_shown_under_the_board() {
    let mut h = new_game();
    h.set_size(egui::vec2(1024.0, 700.0));
    for _ in 0..4 {
        h.run();
        let p = session(h.state());
        let st = state_at(p, p.at);
        let setup = deckwright::app::core::iconoclasm_setup(&h.state().cat, 2, 1).unwrap();
        let board = h.get_by_label("Iconoclasm board").rect();
        let mut rows = Vec::new();
        for seat in 0..usize::from(st.players) {
            let names: Vec<&str> =
                deckwright::games::iconoclasm::engine::state::bits(st.hands[seat])
                    .map(|c| setup.deck.cards[usize::from(c)].name.as_str())
                    .collect();
            assert!(!names.is_empty(), "seat {seat} holds cards");
            let said = format!("Player {}'s hand: {}", seat + 1, names.join(", "));
            let r = h.get_by_label(&said).rect();
            assert!(
                r.top() >= board.bottom(),
                "under the table: {r:?} {board:?}"
            );
            assert!(r.bottom() <= 700.0, "in the window: {r:?}");
            rows.push(r);
        }
        assert!(!rows[0].intersects(rows[1].shrink(0.5)));
        h.key_press(Key::Num1);
    }
}
