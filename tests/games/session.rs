//! The one match session (`games::session::Session`) over every registered game: a kept
//! record of each game reopens as a session that writes the same record and reports what
//! `replay` reports; the authority's checks refuse a stale, out-of-turn, computer's or
//! unknown decision and change nothing; undo goes back to the person's last decision; a
//! session played on by the computer and reopened from its record plays on the same.

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use deckwright::games::ai::Policy;
use deckwright::games::dice::RngDice;
use deckwright::games::game::Turn;
use deckwright::games::record::MatchRecord;
use deckwright::games::registry;
use deckwright::games::session::{Refused, Seat, Session, TurnEnd};

fn kept() -> Vec<(PathBuf, MatchRecord)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/games/records");
    let mut v: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| {
            let p = e.unwrap().path();
            let r = MatchRecord::load(&p).unwrap();
            (p, r)
        })
        .collect();
    v.sort_by(|a, b| a.0.cmp(&b.0));
    v
}

#[test]
fn every_kept_record_reopens_as_a_session_that_writes_it_again() {
    let mut games = Vec::new();
    for (path, r) in kept() {
        let s = registry::session(&r, &Vec::new())
            .unwrap_or_else(|e| panic!("{}: {}", path.display(), deckwright::error_chain(&e)));
        assert_eq!(s.len(), r.inputs.len(), "{}", path.display());
        let again = s.record();
        assert_eq!(again.inputs, r.inputs, "{}", path.display());
        assert_eq!(again.points, r.points, "{}", path.display());
        assert_eq!(again.checks, r.checks, "{}", path.display());
        assert_eq!(again.seats, r.seats, "{}", path.display());
        // The session's log is the replay's, line for line.
        let replayed = registry::replay(&r, None, &Vec::new()).unwrap();
        let lines: Vec<String> = s.lines().map(|(_, (_, l))| l.clone()).collect();
        let want: Vec<String> = replayed.log.iter().map(|(_, l)| l.clone()).collect();
        assert_eq!(lines, want, "{}", path.display());
        // Part way: the position after 3 inputs is the replay's at 3.
        let mut part = r.clone();
        part.inputs.truncate(3);
        part.checks.truncate(3);
        part.points.retain(|p| p.step < 3);
        part.exhausted = false;
        let at3 = registry::session(&part, &Vec::new()).unwrap();
        assert_eq!(
            at3.latest().question(),
            s.game_at(3).question(),
            "{}",
            path.display()
        );
        games.push(r.game);
    }
    games.dedup();
    assert_eq!(games.len(), 5, "{games:?}");
}

#[test]
fn a_record_that_plays_differently_is_refused_at_its_first_differing_step() {
    let (_, mut r) = kept()
        .into_iter()
        .find(|(_, r)| r.game == "iconica")
        .unwrap();
    r.checks[5] ^= 1;
    let e = registry::session(&r, &Vec::new()).err().unwrap();
    assert!(e.to_string().contains("step 5"), "{e}");
    r.engine += 1;
    let e = registry::session(&r, &Vec::new()).err().unwrap();
    assert!(e.to_string().contains("engine version"), "{e}");
}

fn pig(seats: Vec<Seat>) -> Session {
    Session::generic(registry::find("pig").unwrap(), seats, 7).unwrap()
}

#[test]
fn the_authority_refuses_what_a_seat_may_not_do_and_changes_nothing() {
    let mut s = pig(vec![Seat::Person, Seat::Person]);
    let Turn::Seat { seat: 0, options } = s.latest().turn() else {
        panic!("Pig opens with player 1's decision")
    };
    let before = s.record();
    assert_eq!(
        s.decide_as(1, 0, 0),
        Err(Refused::NotYourTurn { seat: 2, turn: 1 })
    );
    assert_eq!(
        s.decide_as(0, 0, options),
        Err(Refused::NoSuchOption {
            option: options,
            options
        })
    );
    assert_eq!(
        s.decide_as(0, 3, 0),
        Err(Refused::Stale { step: 3, latest: 0 })
    );
    assert_eq!(s.record(), before);
    // A replayed decision (the same step twice) is stale the second time.
    s.decide_as(0, 0, 0).unwrap();
    assert_eq!(
        s.decide_as(0, 0, 0),
        Err(Refused::Stale { step: 0, latest: 1 })
    );
    // A computer's seat takes no remote decision.
    let mut c = pig(vec![Seat::Computer(Policy::Random), Seat::Person]);
    assert_eq!(c.decide_as(0, 0, 0), Err(Refused::Computer { seat: 1 }));
    assert!(c.is_empty());
    // Chance is drawn, never decided.
    let mut s = pig(vec![Seat::Person, Seat::Person]);
    while !matches!(s.latest().turn(), Turn::Chance(_)) {
        s.decide(0).unwrap();
    }
    let k = s.len();
    assert_eq!(s.decide(0), Err(Refused::Chance));
    assert_eq!(s.point(1.0, 1.0), Err(Refused::Chance));
    assert_eq!(s.len(), k);
}

#[test]
fn undo_goes_back_to_the_persons_last_decision() {
    let stop = Arc::new(AtomicBool::new(false));
    let mut s = pig(vec![Seat::Person, Seat::Computer(Policy::Greedy)]);
    assert_eq!(s.play_computer(&stop), TurnEnd::Person);
    assert!(!s.undo(), "nothing to take back yet");
    // Hold (the last option) at once: the computer then plays its whole turn.
    let Turn::Seat { options, .. } = s.latest().turn() else {
        panic!()
    };
    s.decide(options - 1).unwrap();
    let after_decision = s.len();
    s.play_computer(&stop);
    assert!(s.len() > after_decision, "the computer played");
    assert!(s.undo());
    assert_eq!(s.len(), after_decision - 1);
    assert_eq!(s.person_to_move(), Some(0));
}

#[test]
fn a_session_reopened_from_its_record_plays_on_the_same() {
    let stop = Arc::new(AtomicBool::new(false));
    let seats = vec![
        Seat::Computer(Policy::Greedy),
        Seat::Computer(Policy::Random),
    ];
    let mut whole = pig(seats.clone());
    assert_eq!(whole.play_computer(&stop), TurnEnd::Over);
    let mut half = whole.record();
    let cut = half.inputs.len() / 2;
    half.inputs.truncate(cut);
    half.checks.truncate(cut);
    let mut reopened = registry::session(&half, &Vec::new()).unwrap();
    reopened.play_computer(&stop);
    assert_eq!(reopened.record(), whole.record());
    assert!(
        whole.report().tail.contains("wins"),
        "{}",
        whole.report().tail
    );
}

/// One chance convention for every face: a session whose seats are all the computer plays,
/// input for input, the match `deckwright play --seed` plays with the same policies
/// (`AnyGame::play_on` from the match's stream), for every kept record's start.
#[test]
fn a_session_of_computer_seats_plays_the_match_play_plays() {
    let stop = Arc::new(AtomicBool::new(false));
    for (path, r) in kept() {
        let game = registry::of_record(&r).unwrap();
        let open = || (game.open)(&r.options, &Vec::new()).unwrap();
        let seats = r.seats.len().max(1);
        let policies: Vec<Policy> = (0..seats)
            .map(|k| [Policy::Random, Policy::Greedy][k % 2])
            .collect();
        for seed in [3, 11] {
            let mut s = Session::opened(
                open(),
                game.engine,
                policies.iter().map(|&p| Seat::Computer(p)).collect(),
                seed,
                r.options.clone(),
            );
            assert_eq!(s.play_computer(&stop), TurnEnd::Over, "{}", path.display());
            let mut g = open().game;
            let (inputs, ran_out) =
                g.play_on(&mut RngDice::new(seed), &policies, seed, &mut |_| {});
            assert!(!ran_out);
            assert_eq!(s.inputs(), &inputs[..], "{} seed {seed}", path.display());
        }
    }
}

/// Undo puts the chance stream back: the same decision after an undo draws the same dice,
/// and the session's dice are the stream's draws in order.
#[test]
fn after_an_undo_the_same_decision_draws_the_same_dice() {
    let stop = Arc::new(AtomicBool::new(false));
    let mut s = pig(vec![Seat::Person, Seat::Computer(Policy::Greedy)]);
    s.play_computer(&stop);
    for _ in 0..6 {
        if s.person_to_move().is_none() {
            break;
        }
        s.decide(0).unwrap();
        s.play_computer(&stop);
    }
    let first = s.inputs().to_vec();
    assert!(first.len() > 6, "{first:?}");
    while s.undo() {}
    assert!(s.len() < first.len());
    while s.person_to_move().is_some() && s.len() < first.len() {
        s.decide(first[s.len()]).unwrap();
        s.play_computer(&stop);
    }
    assert_eq!(s.inputs(), &first[..s.len()]);
    assert!(s.len() >= first.len());
}

#[test]
fn a_stopped_computer_turn_takes_nothing_more() {
    let stop = Arc::new(AtomicBool::new(true));
    let mut s = pig(vec![
        Seat::Computer(Policy::parse("mcts").unwrap()),
        Seat::Computer(Policy::parse("mcts").unwrap()),
    ]);
    assert_eq!(s.play_computer(&stop), TurnEnd::Stopped);
    assert!(s.is_empty());
}

/// Each seat's view of a kept record's log, and a spectator's: line for line the whole log
/// but for what the game hides. Only Arcadia hides anything (which treasure a player hid,
/// until found); Iconica, Iconoclasm, Ruunara and Pig hide nothing.
#[test]
fn each_seat_sees_the_log_but_what_the_game_hides_from_it() {
    for (path, r) in kept() {
        let s = registry::session(&r, &Vec::new()).unwrap();
        let whole: Vec<(usize, String)> = s.lines().map(|(k, l)| (k, l.1.clone())).collect();
        let seats = s.latest().seats();
        let views: Vec<Vec<(usize, String)>> = (0..seats)
            .map(Some)
            .chain([None])
            .map(|seat| {
                s.lines_for(seat, 0)
                    .into_iter()
                    .map(|(k, l)| (k, l.1))
                    .collect()
            })
            .collect();
        for v in &views {
            assert_eq!(v.len(), whole.len(), "{}", path.display());
        }
        // From a line on: the same lines.
        let later: Vec<(usize, String)> = s
            .lines_for(Some(0), 5)
            .into_iter()
            .map(|(k, l)| (k, l.1))
            .collect();
        assert_eq!(later, views[0][5..].to_vec());
        if r.game != "arcadia" {
            for v in &views {
                assert_eq!(v, &whole, "{}", path.display());
            }
            continue;
        }
        let differ = |v: &Vec<(usize, String)>| -> Vec<(String, String)> {
            whole
                .iter()
                .zip(v)
                .filter(|(a, b)| a != b)
                .map(|(a, b)| (a.1.clone(), b.1.clone()))
                .collect()
        };
        // Sir Bramwell (seat 0) hid one treasure, Lumen Ashgrove (seat 1) two.
        assert_eq!(
            differ(&views[0]),
            vec![
                (
                    "Lumen Ashgrove hides Glasswing Blade in Saltmarrow Strand (1, 0)".to_string(),
                    "Lumen Ashgrove hides a treasure in Saltmarrow Strand (1, 0)".to_string()
                ),
                (
                    "Lumen Ashgrove hides Moonwell Flask in Gloaming Wood (2, 0)".to_string(),
                    "Lumen Ashgrove hides a treasure in Gloaming Wood (2, 0)".to_string()
                ),
            ]
        );
        assert_eq!(
            differ(&views[1]),
            vec![(
                "Sir Bramwell hides Thistledown Cloak in Worlds-Edge Scarp (0, 0)".to_string(),
                "Sir Bramwell hides a treasure in Worlds-Edge Scarp (0, 0)".to_string()
            )]
        );
        assert_eq!(differ(&views[2]).len(), 3);
        // The JSON a seat is not shown names neither the treasure nor anything but the place.
        let hidden = s
            .steps()
            .iter()
            .flat_map(|st| st.hidden.iter())
            .map(|(_, h)| h.json.clone())
            .collect::<Vec<_>>();
        assert_eq!(hidden.len(), 3);
        for j in hidden {
            assert_eq!(j["type"], "treasure_hidden");
            assert!(j.get("treasure").is_none(), "{j}");
            assert!(j["text"].as_str().unwrap().contains("hides a treasure in"));
        }
    }
}
