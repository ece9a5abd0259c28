//! Bases of other sizes (`spec/ruunara.md`, "Added in the third round": a card's `base` in
//! mm, default 34): engagement, range, base contact, movement, sight and the setup's checks
//! measure each figure's own base; a card's hostile `base` is refused with a clear error.

use deckwright::cards;
use deckwright::games::ruunara::engine::geom::{BASE_R, Base, Pt, contact};
use deckwright::games::ruunara::engine::{Opt, Setup, SetupError};
use deckwright::games::ruunara::mission::{Facing, Objective, SceneryKind};
use deckwright::games::ruunara::model::Figure;

use super::common::*;

/// A 50 mm base: 1" of radius (1" = 25 mm).
const BIG_R: f64 = 1.0;

fn big(mut f: Figure) -> Figure {
    f.base = Some(50.0);
    f
}

fn far_enemy() -> deckwright::games::ruunara::mission::Placed {
    at(enemy("far", 4, "1D6+"), 44.0, 32.0, Facing::N)
}

#[test]
fn a_card_base_in_mm_is_its_radius_in_inches_and_34_mm_by_default() {
    let h = hero("h", 4, "1D6+");
    assert_eq!(h.base_radius(), BASE_R);
    assert_eq!(big(h.clone()).base_radius(), BIG_R);
    let mut small = h;
    small.base = Some(25.0);
    assert_eq!(small.base_radius(), 0.5);
    assert_eq!(contact(BIG_R, BASE_R), 1.0 + 0.68 + 0.01);
    // Base to base: centre distance minus both radii, never below 0.
    let (a, b) = (Base::new(Pt::new(0.0, 0.0), BIG_R), Pt::new(3.0, 0.0));
    assert!((a.gap(Base::new(b, BASE_R)) - 1.32).abs() < 1e-12);
    assert_eq!(a.gap(Base::new(Pt::new(1.0, 0.0), BASE_R)), 0.0);
    assert!(a.overlaps(Base::new(Pt::new(1.6, 0.0), BASE_R)));
    assert!(!a.overlaps(Base::new(Pt::new(1.7, 0.0), BASE_R)));
}

#[test]
fn a_large_base_engages_from_farther_and_fights_with_scripted_dice() {
    // Centres 2.58" apart: a 50 mm base is 0.9" from the hero's (engaged); a 34 mm one
    // would be 1.22" away (not engaged).
    for (large, engaged) in [(true, true), (false, false)] {
        let e = enemy("ogre", 3, "1D6+");
        let e = if large { big(e) } else { e };
        let sc = scenario(
            vec![at(hero("h", 6, "2D4+"), 10.0, 18.0, Facing::E)],
            vec![at(e, 12.58, 18.0, Facing::W), far_enemy()],
            vec![],
            Objective::Eliminate,
        );
        let s = setup(&sc);
        // The hero's two dice, then the ogre's (a miss).
        let mut d = Drive::new(&s, "4 5 1 1");
        d.roll();
        assert_eq!(d.g.st.engaged(0), engaged, "large {large}");
        assert_eq!(d.g.st.engaged(1), engaged, "large {large}");
        if engaged {
            // No retreat, and the close attack is offered: two hits.
            assert!(d.g.legal_move_to(0, 6.0, 18.0).is_none());
            if !d.offered(|o| *o == Opt::Close(1)) {
                d.pick(|o| *o == Opt::Done);
            }
            d.pick(|o| *o == Opt::Close(1));
            assert_eq!(d.g.st.figs[1].hp, 1, "{}", d.text());
        }
    }
}

#[test]
fn range_is_measured_to_a_large_base_edge() {
    // A 6" bow; the target's centre 7.63" away: a 50 mm base is 5.95" from the archer's,
    // in range; a 34 mm one 6.27", out of range.
    let archer = with_ranged(hero("archer", 6, "1D4+"), "2D4+", 6);
    for (large, shot) in [(true, true), (false, false)] {
        let e = enemy("ogre", 4, "1D6+");
        let e = if large { big(e) } else { e };
        let sc = scenario(
            vec![at(archer.clone(), 10.0, 18.0, Facing::E)],
            vec![at(e, 17.63, 18.0, Facing::W), far_enemy()],
            vec![],
            Objective::Eliminate,
        );
        let s = setup(&sc);
        // The archer's two dice, then the ogre's (it charges and misses).
        let mut d = Drive::new(&s, "5 6 1 1");
        d.pick(|o| *o == Opt::Done);
        assert_eq!(d.offered(|o| *o == Opt::Ranged(1)), shot, "large {large}");
        if shot {
            d.pick(|o| *o == Opt::Ranged(1));
            assert_eq!(d.g.st.figs[1].hp, 2, "{}", d.text());
        }
    }
}

#[test]
fn a_move_to_engage_a_large_base_stops_in_contact_with_it() {
    let sc = scenario(
        vec![at(hero("h", 6, "2D4+"), 10.0, 18.0, Facing::E)],
        vec![
            at(big(enemy("ogre", 4, "1D6+")), 14.0, 18.0, Facing::W),
            far_enemy(),
        ],
        vec![],
        Objective::Eliminate,
    );
    let s = setup(&sc);
    let mut d = Drive::new(&s, "");
    d.pick(|o| *o == Opt::Engage(1));
    let (h, o) = (d.g.st.figs[0].at, d.g.st.figs[1].at);
    let centre = h.dist(o);
    // Base contact: touching (within the 0.1" tolerance), never overlapping.
    assert!(centre >= BIG_R + BASE_R - 1e-4, "{centre}");
    assert!(d.g.st.gap(0, 1) <= 0.1, "{centre}");
    assert!(d.g.st.engaged(0));
    // No move may end on the large base, though it would clear a 34 mm one.
    let mut d = Drive::new(&s, "");
    d.roll();
    assert!(d.g.legal_move_to(0, 14.0 - 1.5, 18.0).is_none());
    assert!(d.g.legal_move_to(0, 14.0 - 1.7, 18.0).is_some());
}

#[test]
fn an_enemy_with_a_large_base_charges_into_contact() {
    let sc = scenario(
        vec![at(hero("h", 6, "2D4+"), 10.0, 18.0, Facing::E)],
        vec![at(big(enemy("ogre", 4, "1D6+")), 15.0, 18.0, Facing::W)],
        vec![],
        Objective::Eliminate,
    );
    let s = setup(&sc);
    // The hero waits; the ogre sees it, charges and attacks (a miss: 1).
    let mut d = Drive::new(&s, "1");
    d.idle_until(2);
    let centre = d.g.st.figs[0].at.dist(d.g.st.figs[1].at);
    assert!(
        (BIG_R + BASE_R - 1e-4..=BIG_R + BASE_R + 0.1).contains(&centre),
        "{centre}\n{}",
        d.text()
    );
    assert!(d.g.st.engaged(0), "{}", d.text());
}

#[test]
fn a_large_base_cannot_squeeze_between_two_bases_a_small_one_passes() {
    // Two figures 3.2" apart across the way (centres 1.6" from it): a 34 mm base keeps
    // 1.36" from their centres and walks between them; a 50 mm base needs 1.68" and does
    // not. A wall beside the way is passed as before (the centre line is what crosses).
    for (large, passes) in [(false, true), (true, false)] {
        let h = hero("h", 6, "2D4+");
        let h = if large { big(h) } else { h };
        let sc = scenario(
            vec![at(h, 10.0, 18.0, Facing::E)],
            vec![
                at(enemy("n", 4, "1D6+"), 13.0, 19.6, Facing::E),
                at(enemy("s", 4, "1D6+"), 13.0, 16.4, Facing::E),
            ],
            vec![piece(12.0, 10.0, 1.0, 4.0, 3.0, SceneryKind::Building)],
            Objective::Eliminate,
        );
        let s = setup(&sc);
        let mut d = Drive::new(&s, "");
        d.roll();
        assert_eq!(
            d.g.legal_move_to(0, 15.0, 18.0).is_some(),
            passes,
            "large {large}"
        );
    }
}

#[test]
fn a_large_base_between_blocks_a_sight_line_a_small_one_leaves_open() {
    // The line from viewer to target passes 0.9" from the middle figure's centre.
    for (large, seen) in [(false, true), (true, false)] {
        let m = enemy("mid", 4, "1D6+");
        let m = if large { big(m) } else { m };
        let sc = scenario(
            vec![at(hero("h", 6, "2D4+"), 10.0, 18.0, Facing::E)],
            vec![
                at(enemy("target", 4, "1D6+"), 20.0, 18.0, Facing::W),
                at(m, 15.0, 18.9, Facing::N),
            ],
            vec![],
            Objective::Eliminate,
        );
        let s = setup(&sc);
        let d = Drive::new(&s, "");
        assert_eq!(d.g.st.sees(&s, 0, 1, true), seen, "large {large}");
    }
}

#[test]
fn the_setup_checks_each_base_at_its_size() {
    // 1.6" apart: two 34 mm bases clear each other; a 50 mm base overlaps the other.
    let sc = |large: bool| {
        let e = enemy("ogre", 4, "1D6+");
        scenario(
            vec![at(hero("h", 6, "2D4+"), 10.0, 18.0, Facing::E)],
            vec![
                at(if large { big(e) } else { e }, 11.6, 18.0, Facing::W),
                far_enemy(),
            ],
            vec![],
            Objective::Eliminate,
        )
    };
    assert!(Setup::new(&sc(false)).is_ok());
    assert_eq!(
        Setup::new(&sc(true)).unwrap_err(),
        SetupError::Overlap("h".into(), "ogre".into())
    );
    // 0.8" from the table's edge: a 34 mm base is on the table, a 50 mm one reaches past it.
    let edge = |large: bool| {
        let h = hero("h", 6, "2D4+");
        scenario(
            vec![at(if large { big(h) } else { h }, 0.8, 18.0, Facing::E)],
            vec![far_enemy()],
            vec![],
            Objective::Eliminate,
        )
    };
    assert!(Setup::new(&edge(false)).is_ok());
    assert_eq!(
        Setup::new(&edge(true)).unwrap_err(),
        SetupError::OffTable("h".into())
    );
}

#[test]
fn the_default_base_plays_as_before() {
    // A card that says `base = 34` is the same figure as one that says nothing.
    let mut h = hero("h", 6, "2D4+");
    let plain = setup(&scenario(
        vec![at(h.clone(), 10.0, 18.0, Facing::E)],
        vec![far_enemy()],
        vec![],
        Objective::Eliminate,
    ));
    h.base = Some(34.0);
    let said = setup(&scenario(
        vec![at(h, 10.0, 18.0, Facing::E)],
        vec![far_enemy()],
        vec![],
        Objective::Eliminate,
    ));
    assert_eq!(plain.figs[0].r, said.figs[0].r);
    assert_eq!(plain.figs[0].r, BASE_R);
}

const CARD: &str = "game = \"ruunara\"\nkind = \"unit\"\nid = \"ruu-ogre\"\nname = \"Ogre\"\nrace = \"ogre\"\nfaction = \"enemy\"\nhp = 6\nmovement = 5\nvision = 8\nclose = \"3D4+\"\n";

#[test]
fn a_card_base_loads_and_hostile_values_are_refused_whole() {
    let ok = format!("{CARD}base = 50\n");
    match cards::parse_card(&ok, "ogre.toml").unwrap() {
        cards::Card::Ruunara(f) => {
            assert_eq!(f.base, Some(50.0));
            assert_eq!(f.base_radius(), 1.0);
        }
        other => panic!("{other:?}"),
    }
    for bad in ["0", "-5", "1e9", "nan", "inf", "12", "201"] {
        let text = format!("{CARD}base = {bad}\n");
        let e = cards::parse(&text, "ogre.toml").expect_err(bad);
        let s = e.to_string();
        assert!(s.starts_with("ogre.toml:11:"), "{bad}: {s}");
        assert!(s.contains("base"), "{bad}: {s}");
        assert!(s.contains("millimetres"), "{bad}: {s}");
    }
    // Not a number at all: the reader says what it wanted.
    let e = cards::parse(&format!("{CARD}base = \"large\"\n"), "ogre.toml").expect_err("text");
    assert!(e.to_string().contains("base"), "{e}");
}
