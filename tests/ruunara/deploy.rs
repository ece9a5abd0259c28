//! The deployment phase: squad members deployed in a zone are placed by the seat, in squad
//! order, on free spots of the zone's grid (or dropped at any free point of the zone), facing
//! the nearest enemy; every zone mission that validates can be fully deployed whatever is
//! chosen; a dropped deployment replays.

use deckwright::cards::CardLookup;
use deckwright::games::ai::Evaluated;
use deckwright::games::ai::{Agent, Policy};
use deckwright::games::dice::RngDice;
use deckwright::games::game::{Game, Turn};
use deckwright::games::ruunara::engine::RuunaraEval;
use deckwright::games::ruunara::engine::geom::Base;

/// Whether two default (34 mm) bases overlap.
fn overlap(a: Pt, b: Pt) -> bool {
    Base::new(a, BASE_R).overlaps(Base::new(b, BASE_R))
}
use deckwright::games::ruunara::engine::state::MAX_OPTS;
use deckwright::games::ruunara::engine::{
    BASE_R, Event, Opt, Phase, Pt, RuunaraGame, Setup, SetupError, State, Status,
};
use deckwright::games::ruunara::mission::{
    Deploy, Facing, MissionFile, Objective, Placed, SceneryKind, base_on_rect, zone_grid,
};
use deckwright::games::ruunara::squad::SquadFile;
use proptest::prelude::*;

use super::common::*;

fn zoned(
    card: deckwright::games::ruunara::model::Figure,
    x: f64,
    y: f64,
    w: f64,
    d: f64,
) -> Placed {
    Placed {
        card,
        deploy: Deploy::Zone { x, y, w, d },
    }
}

/// The spot an option places the member being deployed on.
fn spot(g: &RuunaraGame<'_>, o: Opt) -> Pt {
    let Phase::Deploy(i) = g.st.phase else {
        panic!("not deploying: {:?}", g.st.phase)
    };
    match o {
        Opt::Place { col, row } => {
            g.st.spot(g.setup, usize::from(i), usize::from(col), usize::from(row))
        }
        Opt::Dropped => g.st.drop,
        _ => panic!("not a deployment option: {o:?}"),
    }
}

/// A 12" x 12" zone in the south-west (64 grid spots), a building over its north-east corner,
/// an enemy standing on its east edge, three heroes to place.
fn big_zone() -> deckwright::games::ruunara::mission::Scenario {
    scenario(
        vec![
            zoned(hero("a", 6, "2D4+"), 1.0, 1.0, 12.0, 12.0),
            zoned(hero("b", 6, "2D4+"), 1.0, 1.0, 12.0, 12.0),
            zoned(hero("c", 6, "2D4+"), 1.0, 1.0, 12.0, 12.0),
        ],
        vec![
            at(enemy("post", 4, "2D4+"), 13.0, 6.0, Facing::W),
            at(enemy("far", 4, "2D4+"), 40.0, 30.0, Facing::S),
        ],
        vec![piece(9.0, 9.0, 6.0, 6.0, 4.0, SceneryKind::Building)],
        Objective::Eliminate,
    )
}

#[test]
fn deploy_options_are_free_grid_spots_wholly_in_the_zone_spread_over_it() {
    let sc = big_zone();
    let s = setup(&sc);
    let mut d = Drive::new(&s, "");
    assert_eq!(d.g.st.phase, Phase::Deploy(0));
    assert_eq!(d.g.st.round, 0, "deployment comes before round 1");
    assert!(matches!(d.g.turn(), Turn::Seat { seat: 0, .. }));
    assert_eq!(zone_grid(12.0, 12.0, BASE_R), (8, 8));
    for member in 0..3 {
        assert_eq!(d.g.st.phase, Phase::Deploy(member as u8));
        let opts = d.g.options().to_vec();
        assert!(opts.len() > 1 && opts.len() <= MAX_OPTS, "{}", opts.len());
        let mut rows = Vec::new();
        for o in &opts {
            let Opt::Place { row, .. } = *o else {
                panic!("{o:?}")
            };
            rows.push(row);
            let p = spot(&d.g, *o);
            // Wholly in the zone (and so on the table).
            assert!(
                p.x >= 1.0 + BASE_R - 1e-9 && p.x <= 13.0 - BASE_R + 1e-9,
                "{p:?}"
            );
            assert!(
                p.y >= 1.0 + BASE_R - 1e-9 && p.y <= 13.0 - BASE_R + 1e-9,
                "{p:?}"
            );
            assert!(
                !base_on_rect(p.x, p.y, BASE_R, 9.0, 9.0, 6.0, 6.0),
                "on the building: {p:?}"
            );
            for j in d.g.st.ids() {
                if d.g.st.waiting & (1 << j) == 0 {
                    assert!(!overlap(p, d.g.st.figs[j].at), "{p:?} on #{j}");
                }
            }
            assert!(
                d.g.describe(opts.iter().position(|q| q == o).unwrap())
                    .starts_with(&format!(
                        "Deploy {} #{member} at ({:.2}, {:.2}) facing ",
                        s.figs[member].name, p.x, p.y
                    ))
            );
        }
        // More free spots than options: spread from the south row to the north rows.
        assert_eq!(rows.iter().min(), Some(&0));
        assert!(*rows.iter().max().unwrap() >= 6, "{rows:?}");
        // The last option is taken: the next member no longer has that spot.
        let last = *opts.last().unwrap();
        let at = spot(&d.g, last);
        d.pick(|o| *o == last);
        assert_eq!(d.g.st.figs[member].at, at);
        assert!(d.log.contains(&Event::Placed {
            fig: member as u8,
            at,
            facing: d.g.st.figs[member].facing
        }));
    }
    assert_eq!(d.g.st.waiting, 0);
    assert_eq!(d.g.st.round, 1);
    assert_eq!(d.g.st.phase, Phase::Pick);
}

#[test]
fn a_member_faces_the_nearest_enemy_from_its_spot() {
    let sc = big_zone();
    let s = setup(&sc);
    let d = Drive::new(&s, "");
    // From the zone, the enemy at (13, 6) is nearest: east of the middle row, north-east of
    // (8, 2), south-east of (8, 10).
    assert_eq!(d.g.st.deploy_facing(&s, Pt::new(5.0, 6.0)), Facing::E);
    assert_eq!(d.g.st.deploy_facing(&s, Pt::new(8.0, 2.0)), Facing::Ne);
    assert_eq!(d.g.st.deploy_facing(&s, Pt::new(8.0, 10.0)), Facing::Se);
    // Nobody to face: the table's centre.
    let mut sc = big_zone();
    sc.enemies.clear();
    sc.enemies
        .push(at(enemy("dead-soon", 4, "2D4+"), 40.0, 30.0, Facing::S));
    let s2 = setup(&sc);
    let mut g = RuunaraGame::new(&s2);
    g.st.figs[3].status = Status::Dead;
    assert_eq!(g.st.deploy_facing(&s2, Pt::new(2.0, 2.0)), Facing::Ne);
    assert_eq!(g.st.deploy_facing(&s2, Pt::new(46.0, 2.0)), Facing::Nw);
}

#[test]
fn members_deployed_at_points_stand_before_zone_members_are_placed() {
    // Hero 0 at a point inside hero 1's zone; the enemies at their posts.
    let sc = scenario(
        vec![
            at(hero("fixed", 6, "2D4+"), 3.0, 3.0, Facing::N),
            zoned(hero("zoned", 6, "2D4+"), 1.0, 1.0, 4.08, 4.08),
        ],
        vec![at(enemy("e", 4, "2D4+"), 30.0, 3.0, Facing::W)],
        vec![],
        Objective::Eliminate,
    );
    let s = setup(&sc);
    let d = Drive::new(&s, "");
    assert_eq!(d.g.st.phase, Phase::Deploy(1));
    assert_eq!(d.g.st.figs[0].at, Pt::new(3.0, 3.0));
    let opts = d.g.options().to_vec();
    // 3 x 3 spots, those the fixed hero's base overlaps not offered.
    assert!(!opts.is_empty() && opts.len() < 9, "{opts:?}");
    for o in opts {
        assert!(!overlap(spot(&d.g, o), Pt::new(3.0, 3.0)));
    }
    assert!(!d.g.legal_deploy_at(1, 3.5, 3.5), "on the fixed hero");
}

#[test]
fn placing_then_playing_logs_each_placement_then_the_deployment_then_round_1() {
    let sc = scenario(
        vec![
            zoned(hero("a", 6, "3D4+"), 20.0, 8.0, 4.0, 4.0),
            zoned(hero("b", 6, "3D4+"), 20.0, 8.0, 4.0, 4.0),
        ],
        vec![at(enemy("e", 1, "1D6+"), 26.4, 9.0, Facing::W)],
        vec![],
        Objective::Eliminate,
    );
    let s = setup(&sc);
    let mut d = Drive::new(&s, "4 4 4");
    // A 2 x 2 grid centred in the zone: the member placed on its south-east spot.
    d.pick(|o| matches!(o, Opt::Place { col: 1, row: 0 }));
    d.pick(|o| matches!(o, Opt::Place { col: 0, row: 0 }));
    let a = d.g.st.figs[0].at;
    assert!(
        (a.x - 22.68).abs() < 1e-9 && (a.y - 9.32).abs() < 1e-9,
        "{a:?}"
    );
    assert_eq!(d.g.st.figs[0].facing, Facing::E);
    let kinds: Vec<&str> = d.log.iter().map(|e| e.kind()).collect();
    assert_eq!(
        &kinds[..4],
        ["placed", "placed", "deployed", "round"],
        "{}",
        d.text()
    );
    // Round 1: hero 0 engages and kills the enemy.
    d.pick(|o| *o == Opt::Activate(0));
    d.pick(|o| *o == Opt::Engage(2));
    d.pick(|o| *o == Opt::Close(2));
    assert_eq!(
        d.g.outcome().map(|o| o.ended),
        Some(deckwright::games::ruunara::engine::RuunaraEnding::Eliminated),
        "{}",
        d.text()
    );
}

#[test]
fn a_dropped_member_stands_anywhere_free_in_its_zone_and_the_drop_replays() {
    let sc = big_zone();
    let s = setup(&sc);
    let mut d = Drive::new(&s, "");
    // Not a grid spot, but free and in the zone.
    assert!(d.g.legal_deploy_at(0, 2.1, 5.3));
    assert!(!d.g.legal_deploy_at(1, 2.1, 5.3), "not member 1's turn");
    assert!(
        !d.g.legal_deploy_at(0, 1.2, 5.3),
        "base reaches past the zone"
    );
    assert!(!d.g.legal_deploy_at(0, 10.0, 10.0), "on the building");
    assert!(!d.g.legal_deploy_at(0, 12.0, 6.0), "on the enemy's base");
    assert!(!d.g.legal_deploy_at(0, 20.0, 6.0), "outside the zone");
    assert!(d.g.offer_drop(Pt::new(20.0, 6.0)).is_none());
    let n = d.g.options().len();
    let k = d.g.offer_drop(Pt::new(2.1, 5.3)).expect("offered");
    assert_eq!(k, n, "one past the listed options");
    assert!(d.g.describe(k).contains("at (2.10, 5.30)"));
    let mut inputs = vec![k];
    d.g.apply_logged(k, &mut d.log);
    assert_eq!(d.g.st.figs[0].at, Pt::new(2.1, 5.3));
    assert_eq!(d.g.st.phase, Phase::Deploy(1));
    // The next member cannot be dropped on it.
    assert!(!d.g.legal_deploy_at(1, 2.5, 5.3));
    inputs.push(3);
    d.g.apply_logged(3, &mut d.log);
    assert!(d.g.apply_drop(Pt::new(7.77, 7.77), &mut d.log));
    inputs.push(d.g.options().len());
    // A replay offering the same drop at the same input reproduces the log.
    let mut log = Vec::new();
    let mut g = RuunaraGame::start(&s, &mut log);
    g.offer_drop(Pt::new(2.1, 5.3)).unwrap();
    g.apply_logged(inputs[0], &mut log);
    g.apply_logged(inputs[1], &mut log);
    let m = g.offer_drop(Pt::new(7.77, 7.77)).unwrap();
    g.apply_logged(m, &mut log);
    assert_eq!(log, d.log);
    assert_eq!(g.st.phase, Phase::Pick);
}

#[test]
fn a_drop_that_leaves_no_room_for_the_members_still_to_place_is_refused() {
    // Two bases side by side exactly: a drop in the middle would leave no room for the second.
    let w = 4.0 * BASE_R;
    let sc = scenario(
        vec![
            zoned(hero("a", 6, "2D4+"), 2.0, 2.0, w, 2.0 * BASE_R),
            zoned(hero("b", 6, "2D4+"), 2.0, 2.0, w, 2.0 * BASE_R),
        ],
        vec![at(enemy("e", 4, "2D4+"), 30.0, 3.0, Facing::W)],
        vec![],
        Objective::Eliminate,
    );
    let s = setup(&sc);
    let d = Drive::new(&s, "");
    assert_eq!(d.g.options().len(), 2);
    let y = 2.0 + BASE_R;
    assert!(
        !d.g.legal_deploy_at(0, 2.0 + w / 2.0, y),
        "the middle blocks both spots"
    );
    assert!(
        d.g.legal_deploy_at(0, 2.0 + BASE_R, y),
        "a grid spot leaves the other"
    );
    // The same zone for three members does not start.
    let mut sc3 = sc.clone();
    sc3.heroes
        .push(zoned(hero("c", 6, "2D4+"), 2.0, 2.0, w, 2.0 * BASE_R));
    assert_eq!(Setup::new(&sc3).err(), Some(SetupError::NoRoom("c".into())));
}

/// The squad placed by greedy: each member's spot.
fn greedy_deployment(
    sc: &deckwright::games::ruunara::mission::Scenario,
) -> (Vec<Pt>, Vec<Vec<Pt>>) {
    let s = setup(sc);
    let mut g = RuunaraGame::new(&s);
    let (mut chosen, mut offered) = (Vec::new(), Vec::new());
    while let Phase::Deploy(_) = g.st.phase {
        let opts = g.options().to_vec();
        let a = Agent::<RuunaraEval>::new(Policy::Greedy, 1).choose(&g, 0, opts.len());
        chosen.push(spot(&g, opts[a]));
        offered.push(opts.iter().map(|o| spot(&g, *o)).collect());
        g.apply(a);
    }
    (chosen, offered)
}

#[test]
fn greedy_places_the_squad_toward_its_objective() {
    // The rescue target is north-east of the zone: each member takes the free spot nearest
    // to it.
    let sc = example("rescue.mission.toml", "legal-free-play-mix.squad.toml");
    let s = setup(&sc);
    let target = s.figs[s.rescue_target().unwrap()].start;
    let (chosen, offered) = greedy_deployment(&sc);
    assert_eq!(chosen.len(), 3);
    for (p, opts) in chosen.iter().zip(&offered) {
        let best = opts
            .iter()
            .map(|q| q.dist(target))
            .fold(f64::INFINITY, f64::min);
        assert!(
            (p.dist(target) - best).abs() < 1e-9,
            "greedy took {p:?} of {opts:?}"
        );
    }
    // Holding out, each member takes the offered spot farthest from every hostile (the
    // Marrow King's ghouls in the north, the hermit in the east).
    let sc = example("survive.mission.toml", "legal-ardann-story.squad.toml");
    let s = setup(&sc);
    let hostiles: Vec<Pt> = s
        .figs
        .iter()
        .filter(|f| {
            matches!(
                f.side,
                deckwright::games::ruunara::engine::Side::Enemy
                    | deckwright::games::ruunara::engine::Side::Neutral { hostile: true }
            )
        })
        .map(|f| f.start)
        .collect();
    let away = |p: &Pt| {
        hostiles
            .iter()
            .map(|h| h.dist(*p))
            .fold(f64::INFINITY, f64::min)
    };
    let (chosen, offered) = greedy_deployment(&sc);
    assert_eq!(chosen.len(), 3);
    for (p, opts) in chosen.iter().zip(&offered) {
        let best = opts.iter().map(away).fold(f64::MIN, f64::max);
        assert!(
            (away(p) - best).abs() < 1e-9,
            "greedy took {p:?} of {opts:?}"
        );
    }
}

/// A mission file: a 24" x 24" table, a building, two enemies and the squad's deploys.
fn mission_text(deploys: &[[f64; 4]], building: [f64; 4], enemies: &[[f64; 2]]) -> String {
    let mut t = String::from(
        "game = \"ruunara\"\nkind = \"mission\"\nid = \"p\"\nname = \"P\"\ntable = { width = 24.0, depth = 24.0 }\nobjective = \"eliminate\"\n",
    );
    let [bx, by, bw, bd] = building;
    t += &format!(
        "[[scenery]]\nkind = \"building\"\nx = {bx:?}\ny = {by:?}\nw = {bw:?}\nd = {bd:?}\nheight = 3.0\n"
    );
    for [x, y, w, d] in deploys {
        t += &format!("[[deploy]]\nx = {x:?}\ny = {y:?}\nw = {w:?}\nd = {d:?}\n");
    }
    for [x, y] in enemies {
        t += &format!(
            "[[enemies]]\ncard = \"ru-ghoul-gnawer\"\nx = {x:?}\ny = {y:?}\nfacing = \"w\"\n"
        );
    }
    t
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    /// Every zone mission that validates deploys its whole squad whatever the seat chooses
    /// (grid spots or drops at random points), each member wholly in its zone, no two bases
    /// overlapping, none on a building.
    #[test]
    fn every_zone_mission_that_validates_deploys_fully_for_any_choices(
        zone in (0.0f64..8.0, 0.0f64..8.0, 1.36f64..7.0, 1.36f64..7.0),
        other in (0.0f64..12.0, 0.0f64..12.0, 1.36f64..5.0, 1.36f64..5.0),
        two_zones in any::<bool>(),
        building in (0.0f64..12.0, 0.0f64..12.0, 0.5f64..5.0, 0.5f64..5.0),
        enemies in proptest::collection::vec((0.7f64..23.3, 0.7f64..23.3), 1..3),
        seed in any::<u64>(),
    ) {
        let a = [zone.0, zone.1, zone.2, zone.3];
        let deploys: Vec<[f64; 4]> = if two_zones {
            vec![a, [other.0, other.1, other.2, other.3], a]
        } else {
            vec![a]
        };
        let es: Vec<[f64; 2]> = enemies.iter().map(|&(x, y)| [x, y]).collect();
        let text = mission_text(&deploys, [building.0, building.1, building.2, building.3], &es);
        let Ok(m) = MissionFile::parse(&text, "p.mission.toml") else {
            // Off the table, on the building, overlapping: not a mission.
            return Ok(());
        };
        let cards = deckwright::catalogue::bundled_cards().unwrap();
        let sq = SquadFile::parse(
            "game = \"ruunara\"\nname = \"S\"\nmode = \"free\"\nmembers = [\"ru-miri-stormcall\", \"ru-sethe-nightquill\", \"ru-haskar-emberfist\"]\n",
            "s.squad.toml",
        ).unwrap();
        let members = deckwright::games::ruunara::rules::check_squad(&sq, &cards).members;
        let Ok(sc) = m.resolve(&members, &cards) else {
            prop_assert!(!m.check(Some(&members), &cards as &dyn CardLookup).is_empty());
            return Ok(());
        };
        let s = Setup::new(&sc).expect("a mission that validates starts");
        let mut g = RuunaraGame::start(&s, &mut Vec::new());
        // A small generator of its own: any number of choices.
        let mut x = seed | 1;
        let mut r = |n: usize| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x % n as u64) as usize
        };
        let mut steps = 0;
        while let Phase::Deploy(i) = g.st.phase {
            let i = usize::from(i);
            steps += 1;
            prop_assert!(steps <= 3);
            let n = g.options().len();
            prop_assert!(n >= 1);
            let z = State::zone_of(&s, i).unwrap();
            if r(2) == 0 {
                let p = Pt::new(z.x + z.w * r(1000) as f64 / 999.0, z.y + z.d * r(1000) as f64 / 999.0);
                if g.apply_drop(p, &mut Vec::new()) {
                    continue;
                }
            }
            g.apply(r(n));
        }
        prop_assert_eq!(g.st.waiting, 0);
        prop_assert_eq!(g.st.round, 1);
        for i in 0..s.heroes {
            let p = g.st.figs[i].at;
            prop_assert_eq!(g.st.figs[i].status, Status::Free, "member {} was never placed", i);
            let z = State::zone_of(&s, i).unwrap();
            prop_assert!(p.x >= z.x + BASE_R - 1e-6 && p.x <= z.x + z.w - BASE_R + 1e-6, "{:?} {:?}", p, z);
            prop_assert!(p.y >= z.y + BASE_R - 1e-6 && p.y <= z.y + z.d - BASE_R + 1e-6, "{:?} {:?}", p, z);
            prop_assert!(!base_on_rect(p.x, p.y, BASE_R, building.0, building.1, building.2, building.3));
            for j in g.st.ids() {
                if j != i {
                    prop_assert!(!overlap(p, g.st.figs[j].at), "{} on {}", i, j);
                }
            }
        }
    }
}

#[test]
fn a_zone_mission_plays_to_its_end_under_every_policy_and_replays() {
    use deckwright::games::conformance::check_random_match;
    let sc = example("rescue.mission.toml", "legal-ardann-story.squad.toml");
    let s = setup(&sc);
    let mut log = Vec::new();
    let start = RuunaraGame::start(&s, &mut log);
    assert!(matches!(start.st.phase, Phase::Deploy(0)));
    for seed in 0..4 {
        check_random_match(&start, &log, seed, 50_000).unwrap();
    }
    for policy in [
        Policy::First,
        Policy::Random,
        Policy::Greedy,
        Policy::Mcts(deckwright::games::ai::Budget::Playouts(8)),
    ] {
        let mut g = start.clone();
        let mut agents = vec![Agent::new(policy, 1), Agent::new(Policy::First, 2)];
        g.play_out(&mut RngDice::new(9), &mut agents, None);
        assert!(g.outcome().is_some(), "{policy}");
        assert_eq!(g.st.waiting, 0);
    }
}

#[test]
fn a_zone_whose_spots_a_building_or_a_post_takes_has_no_room_for_the_squad() {
    let cards = deckwright::catalogue::bundled_cards().unwrap();
    let sq = SquadFile::parse(
        "game = \"ruunara\"\nname = \"S\"\nmode = \"free\"\nmembers = [\"ru-miri-stormcall\", \"ru-sethe-nightquill\", \"ru-haskar-emberfist\"]\n",
        "s.squad.toml",
    )
    .unwrap();
    let members = deckwright::games::ruunara::rules::check_squad(&sq, &cards).members;
    let rules = |text: &str| -> Vec<String> {
        let m = MissionFile::parse(text, "z.mission.toml").unwrap();
        m.check(Some(&members), &cards)
            .iter()
            .map(|v| v.rule.to_string())
            .collect()
    };
    // Three spots side by side, the building far away, the enemy far away: room.
    let zone = [[2.0, 2.0, 3.0 * 2.0 * BASE_R, 2.0 * BASE_R]];
    assert!(
        rules(&mission_text(
            &zone,
            [16.0, 16.0, 2.0, 2.0],
            &[[20.0, 20.0]]
        ))
        .is_empty()
    );
    // The building over the east spot: two left.
    assert_eq!(
        rules(&mission_text(&zone, [5.5, 2.0, 2.0, 2.0], &[[20.0, 20.0]])),
        ["mission-zone-capacity"]
    );
    // An enemy's post on the west spot's base: two left.
    assert_eq!(
        rules(&mission_text(&zone, [16.0, 16.0, 2.0, 2.0], &[[1.5, 2.2]])),
        ["mission-zone-capacity"]
    );
}
