//! Duo play and the two-player contest (spec/ruunara.md, "Added in the third round";
//! docs/rulings.md, "Ruunara: duo and contest"): who decides each step, the alternation of
//! activations, the enemies' player choosing where its hits go, and who wins.

use deckwright::games::game::{Game, Seats, Turn, Verdict};
use deckwright::games::ruunara::engine::{Opt, PlayMode, Setup, SetupError};
use deckwright::games::ruunara::matchfile;
use deckwright::games::ruunara::mission::{Facing, Objective};
use deckwright::games::ruunara::squad::{Mode, SquadFile};

use super::common::*;

fn seat(d: &Drive) -> usize {
    match d.g.turn() {
        Turn::Seat { seat, .. } => seat,
        t => panic!("no seat decides: {t:?}\n{}", d.text()),
    }
}

/// Three heroes in the west, one enemy of 1 hp engaged with the first.
fn three_heroes() -> Setup {
    let sc = scenario(
        vec![
            at(hero("a", 10, "1D6+"), 20.0, 18.0, Facing::E),
            at(hero("b", 10, "1D6+"), 4.0, 4.0, Facing::N),
            at(hero("c", 10, "1D6+"), 4.0, 10.0, Facing::N),
        ],
        vec![at(enemy("e", 1, "1D6+"), 21.37, 18.0, Facing::W)],
        vec![],
        Objective::Eliminate,
    );
    setup(&sc).with_mode(PlayMode::Duo).unwrap()
}

/// Takes "stay" / "no attack" until figure `i`'s activation is over.
fn end_activation(d: &mut Drive, i: usize) {
    while d.g.st.active() == Some(i) && matches!(d.g.turn(), Turn::Seat { .. }) {
        d.pick(|o| *o == Opt::Done);
    }
}

#[test]
fn duo_players_alternate_activating_their_own_heroes_and_win_together() {
    let s = three_heroes();
    let mut d = Drive::new(&s, "1 1 6");
    assert_eq!(d.g.seats(), 3);
    // Player 1 (seat 0) commands members 0 and 2, player 2 (seat 1) member 1.
    assert_eq!(seat(&d), 0);
    assert_eq!(d.g.options(), &[Opt::Activate(0), Opt::Activate(2)]);
    d.pick(|o| *o == Opt::Activate(2));
    // Member 2's decisions are its player's.
    assert_eq!((seat(&d), d.g.st.active()), (0, Some(2)), "{}", d.text());
    end_activation(&mut d, 2);
    // The other player's pick: its one hero is activated (a single option is taken), and
    // its decisions are seat 1's.
    assert_eq!((seat(&d), d.g.st.active()), (1, Some(1)), "{}", d.text());
    end_activation(&mut d, 1);
    // Back to player 1, whose last hero attacks and misses (1); the enemy, run by the
    // rules in the enemies' turn, misses (1).
    assert_eq!((seat(&d), d.g.st.active()), (0, Some(0)), "{}", d.text());
    d.pick(|o| *o == Opt::Close(3));
    assert_eq!(d.round(), 2, "{}", d.text());
    // Round 2 opens with player 1's pick; its hero's 6 kills the enemy: both players win.
    assert_eq!(seat(&d), 0);
    d.pick(|o| *o == Opt::Activate(0));
    d.pick(|o| *o == Opt::Close(3));
    assert_eq!(d.g.turn(), Turn::Over, "{}", d.text());
    let o = d.g.outcome().unwrap();
    assert_eq!(o.verdict, Verdict::Won(Seats(0b011)));
    assert_eq!(d.g.returns()[..3], [0.5, 0.5, 0.0]);
}

#[test]
fn duo_needs_two_heroes_and_its_mission_seat_wins_a_loss() {
    let one = scenario(
        vec![at(hero("a", 1, "1D6+"), 20.0, 18.0, Facing::E)],
        vec![at(enemy("e", 5, "1D6+"), 21.37, 18.0, Facing::W)],
        vec![],
        Objective::Eliminate,
    );
    assert_eq!(
        setup(&one).with_mode(PlayMode::Duo).unwrap_err(),
        SetupError::DuoOfOne
    );
    // Two heroes of 1 hp, both engaged: the enemy's 6s kill them; seat 2 (the mission) wins.
    let sc = scenario(
        vec![
            at(hero("a", 1, "1D6+"), 20.0, 18.0, Facing::E),
            at(hero("b", 1, "1D6+"), 22.74, 18.0, Facing::W),
        ],
        vec![at(enemy("e", 9, "2D6+"), 21.37, 18.0, Facing::W)],
        vec![],
        Objective::Eliminate,
    );
    let s = setup(&sc).with_mode(PlayMode::Duo).unwrap();
    let mut d = Drive::new(&s, "6 6");
    d.idle_until(2);
    assert_eq!(d.g.turn(), Turn::Over, "{}", d.text());
    assert_eq!(d.g.outcome().unwrap().verdict, Verdict::Won(Seats::one(2)));
}

/// Two heroes (10 hp and 2 hp) engaged on both sides of an enemy.
fn flanked(mode: PlayMode) -> Setup {
    let sc = scenario(
        vec![
            at(hero("strong", 10, "1D6+"), 18.63, 18.0, Facing::E),
            at(hero("weak", 2, "1D6+"), 21.37, 18.0, Facing::W),
        ],
        vec![at(enemy("e", 9, "1D6+"), 20.0, 18.0, Facing::W)],
        vec![],
        Objective::Eliminate,
    );
    setup(&sc).with_mode(mode).unwrap()
}

#[test]
fn in_a_contest_the_sides_alternate_and_the_enemies_player_chooses_where_its_hits_go() {
    let s = flanked(PlayMode::Contest);
    let mut d = Drive::new(&s, "6 1");
    assert_eq!(d.g.seats(), 2);
    assert_eq!(seat(&d), 0);
    assert_eq!(d.g.options(), &[Opt::Activate(0), Opt::Activate(1)]);
    d.pick(|o| *o == Opt::Activate(0));
    d.pick(|o| *o == Opt::Done); // no attack
    // The enemies' player's pick: its one figure acts, and it decides its attack.
    assert_eq!(seat(&d), 1, "{}", d.text());
    assert_eq!(d.g.st.active(), Some(2));
    assert!(d.offered(|o| *o == Opt::Close(1)));
    d.pick(|o| *o == Opt::Close(0));
    // The hit goes to the hero it chose, not to the weakest one (the rules' choice).
    assert_eq!(d.g.st.figs[0].hp, 9, "{}", d.text());
    assert_eq!(d.g.st.figs[1].hp, 2);
    // Then the heroes' other figure, then the round is over (no enemies' turn): round 2
    // opens with the heroes' pick.
    assert_eq!((seat(&d), d.g.st.active()), (0, Some(1)));
    d.pick(|o| matches!(o, Opt::Close(2)));
    assert_eq!(d.round(), 2, "{}", d.text());
    assert_eq!(seat(&d), 0);
    assert_eq!(d.g.options(), &[Opt::Activate(0), Opt::Activate(1)]);
}

#[test]
fn solo_spreads_the_same_hit_to_the_weakest_engaged_hero() {
    let s = flanked(PlayMode::Solo);
    let mut d = Drive::new(&s, "6");
    d.idle_until(2);
    assert_eq!(d.g.st.figs[1].hp, 1, "{}", d.text());
    assert_eq!(d.g.st.figs[0].hp, 10);
}

#[test]
fn a_contest_is_won_by_the_enemies_player_when_the_squad_is_lost() {
    let sc = scenario(
        vec![at(hero("a", 1, "1D6+"), 20.0, 18.0, Facing::E)],
        vec![at(enemy("e", 9, "1D6+"), 21.37, 18.0, Facing::W)],
        vec![],
        Objective::Eliminate,
    );
    let s = setup(&sc).with_mode(PlayMode::Contest).unwrap();
    let mut d = Drive::new(&s, "6");
    d.pick(|o| *o == Opt::Done);
    assert_eq!(seat(&d), 1);
    d.pick(|o| *o == Opt::Close(0));
    assert_eq!(d.g.turn(), Turn::Over, "{}", d.text());
    assert_eq!(d.g.outcome().unwrap().verdict, Verdict::Won(Seats::one(1)));
}

#[test]
fn a_record_keeps_the_mode_and_refuses_an_unknown_one() {
    let mut o = toml::Table::new();
    o.insert("mission_file".into(), "m.mission.toml".into());
    o.insert("mission".into(), "".into());
    o.insert(
        "squad".into(),
        toml::Value::try_from(SquadFile::new("s", Mode::Free, &[])).unwrap(),
    );
    o.insert("cards".into(), toml::Value::Array(vec![]));
    assert_eq!(matchfile::source_of(&o).unwrap().mode, PlayMode::Solo);
    o.insert("mode".into(), "contest".into());
    assert_eq!(matchfile::source_of(&o).unwrap().mode, PlayMode::Contest);
    o.insert("mode".into(), "trio".into());
    let e = matchfile::source_of(&o).unwrap_err().to_string();
    assert!(e.contains("`mode` is not one of solo, duo, contest"), "{e}");
}
