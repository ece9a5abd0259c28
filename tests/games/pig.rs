//! Pig (`src/games/pig/`), the fifth game, from the outside: it implements `Game` and gives
//! only its evaluation, and the shared policies, the sim runner and the logged match play it
//! with no code of their own for it.

use deckwright::games::ai::Policy;
use deckwright::games::dice::{RngDice, ScriptDice};
use deckwright::games::game::{Game, Seats, Verdict};
use deckwright::games::pig::{Pig, PigEnding, Said};
use deckwright::sim::{play_logged, play_seeded, run_tally};
use std::sync::atomic::AtomicBool;

#[test]
fn pig_keeps_every_promise_of_the_interface_from_outside() {
    for seed in 0..30 {
        deckwright::games::conformance::check_random_match(&Pig::new(), &[], seed, 100_000)
            .unwrap();
    }
}

#[test]
fn the_shared_runner_plays_pig_the_same_at_any_thread_count() {
    let play = |i: u64| {
        let s = deckwright::games::dice::game_seed(5, i);
        play_seeded(
            Pig::new(),
            RngDice::new(s),
            &[Policy::Greedy, Policy::Random],
            s,
        )
    };
    let never = AtomicBool::new(false);
    let one = run_tally(2000, Some(1), play, |_| {}, &never)
        .unwrap()
        .unwrap();
    let two = run_tally(2000, Some(2), play, |_| {}, &never)
        .unwrap()
        .unwrap();
    assert_eq!(one, two);
    assert_eq!(one.games, 2000);
    assert_eq!(one.wins[0] + one.wins[1] + one.draws + one.no_result, 2000);
    let names: Vec<&str> = one.endings().map(|(n, _)| n).collect();
    assert_eq!(names, ["goal", "turn_limit", "dice_exhausted"]);
    // Greedy banks whenever its pot is worth more than half of nothing: it beats random.
    let (rate, (lo, _)) = one.win_rate(0);
    assert!(lo > 0.5, "greedy against random: {rate}");
}

#[test]
fn mcts_beats_greedy_at_pig() {
    let play = |i: u64| {
        let s = deckwright::games::dice::game_seed(9, i);
        let mcts = Policy::parse("mcts:200").unwrap();
        // Half the games in each seat.
        if i.is_multiple_of(2) {
            play_seeded(Pig::new(), RngDice::new(s), &[mcts, Policy::Greedy], s)
        } else {
            let mut o = play_seeded(Pig::new(), RngDice::new(s), &[Policy::Greedy, mcts], s);
            if let Verdict::Won(w) = o.verdict {
                o.verdict = Verdict::Won(Seats::one(1 - w.iter().next().unwrap()));
            }
            o
        }
    };
    let never = AtomicBool::new(false);
    let t = run_tally(400, None, play, |_| {}, &never).unwrap().unwrap();
    let (rate, (lo, _)) = t.win_rate(0);
    assert!(
        lo > 0.5,
        "mcts against greedy: {rate:.3}, interval from {lo:.3}"
    );
}

#[test]
fn a_scripted_logged_game_of_pig_replays_its_dice_and_stops_when_they_run_out() {
    let dice = ScriptDice::parse("6 6 1 5 4").unwrap();
    let (game, log) = play_logged(Pig::new(), Vec::new(), dice, &[Policy::First], 0);
    // `first` always rolls: 6, 6, then a 1 loses the pot; seat 1 rolls 5 and 4; the script ends.
    let rolled = |player, face, pot| Said::Rolled { player, face, pot };
    assert_eq!(
        log,
        [
            rolled(0, 6, 6),
            rolled(0, 6, 12),
            rolled(0, 1, 0),
            rolled(1, 5, 5),
            rolled(1, 4, 9)
        ]
    );
    let o = game.outcome().unwrap();
    assert_eq!(
        (o.verdict, o.ended),
        (Verdict::NoResult, PigEnding::DiceExhausted)
    );
    assert_eq!(game.describe(1), "Hold and bank 9");
}
