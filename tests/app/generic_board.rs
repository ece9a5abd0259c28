//! A registered game with no view of its own (Pig) is played on the Match screen's generic
//! board: its name is in the game selector, its options are buttons (keys 1-9), the computer
//! answers, and the match ends with its result; saved, it replays through `replay`.

use deckwright::app::matches::MatchGame;
use deckwright::games::game::Turn;
use deckwright::games::record::MatchRecord;
use deckwright::games::registry;
use egui::Key;
use egui_kittest::kittest::Queryable;

use crate::support::{app, click, harness};

#[test]
fn pig_is_played_on_the_generic_board_to_its_end_and_its_file_replays() {
    let mut h = harness(app());
    h.run();
    click(&mut h, "Match");
    click(&mut h, "Pig");
    assert_eq!(h.state().matches.game, MatchGame::Generic("pig"));
    click(&mut h, "New match");
    h.get_by_label_contains("Player 1: roll, or hold");
    // The person rolls (key 1) until the pot is worth banking, then holds (key 2).
    for _ in 0..2000 {
        let m = h.state().matches.generic[0].session.as_ref().unwrap();
        let g = m.game_at(m.len());
        if matches!(g.turn(), Turn::Over) {
            break;
        }
        let hold = g.describe(1);
        let pot: u32 = hold.rsplit(' ').next().unwrap().parse().unwrap();
        h.key_press(if pot >= 12 { Key::Num2 } else { Key::Num1 });
        h.run();
    }
    let m = h.state().matches.generic[0].session.as_ref().unwrap();
    assert!(matches!(m.game_at(m.len()).turn(), Turn::Over));
    assert!(m.len() > 10);
    let lines: Vec<String> = m
        .steps()
        .iter()
        .flat_map(|s| s.lines.iter().map(|(_, l)| l.clone()))
        .collect();
    h.get_by_label_contains("after");
    // Saved, the file replays to the same log.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("pig.match.toml");
    h.state_mut().matches.generic[0].path = path.display().to_string();
    h.run();
    click(&mut h, "Save match");
    let r = MatchRecord::load(&path).unwrap();
    let report = registry::replay(&r, None, &Vec::new()).unwrap();
    assert_eq!(
        report.log.into_iter().map(|(_, l)| l).collect::<Vec<_>>(),
        lines
    );
}

#[test]
fn undo_on_the_session_view_takes_back_the_persons_last_decision() {
    let mut h = harness(app());
    h.run();
    click(&mut h, "Match");
    click(&mut h, "Pig");
    click(&mut h, "New match");
    for _ in 0..3 {
        h.key_press(Key::Num1);
        h.run();
    }
    let (last, len) = {
        let s = h.state().matches.generic[0].session.as_ref().unwrap();
        let person = (0..s.len()).rev().find(|&k| s.mover(k) == Some(0));
        (person.expect("the person rolled"), s.len())
    };
    assert!(len > last, "the roll's die follows the decision");
    click(&mut h, "Undo");
    let s = h.state().matches.generic[0].session.as_ref().unwrap();
    assert_eq!(s.len(), last, "the decision and what followed it are gone");
    assert_eq!(s.at, last);
    assert_eq!(s.person_to_move(), Some(0), "the person decides again");
}
