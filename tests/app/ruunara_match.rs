//! Ruunara on the Match screen through the real app, played in the shared session view: a
//! person plays a mission by dragging heroes on the table and clicking their targets until it
//! ends, an illegal drop is refused, the enemies' dice are drawn by the computer's turn on a
//! job (Stop ends a search without taking it), stepping back and forth shows the engine's
//! state at that step (an enemies' turn die by die), a simulation gives the sim runner's
//! figures, and a saved match (a drag among its inputs) reopens exactly; a squad deployed in a
//! zone is placed by clicks and drags in the highlighted zone, and Undo takes a placement back.

use deckwright::app::matches::MatchGame;
use deckwright::app::matches::job::set_inline_turns;
use deckwright::app::matches::ruunara::{self, BoardMap, MISSIONS, MissionSource};
use deckwright::app::{DeckwrightApp, Screen};
use deckwright::games::ai::Policy;
use deckwright::games::dice::RngDice;
use deckwright::games::game::{Game, Turn};
use deckwright::games::record::MatchRecord;
use deckwright::games::registry;
use deckwright::games::ruunara::engine::{Opt, Phase, PlayMode, Pt, RuunaraGame, Setup};
use deckwright::games::ruunara::squad::SquadFile;
use deckwright::games::session::{Seat, Session};
use deckwright::sim;
use egui::accesskit::Role;
use egui::{Key, PointerButton};
use egui_kittest::Harness;
use egui_kittest::kittest::{By, Queryable};

use crate::support::{app, click, harness};

/// The app on the Match screen's Ruunara view with the eliminate mission deployed for the
/// example squad (seed 1 unless set, the heroes played by a person unless set).
fn new_mission(h: &mut Harness<'static, DeckwrightApp>) {
    h.run();
    click(h, "Match");
    assert_eq!(h.state().screen, Screen::Match);
    click(h, "Ruunara");
    assert_eq!(h.state().matches.game, MatchGame::Ruunara);
    click(h, "New match");
    assert!(
        h.state().matches.ruunara.view.session.is_some(),
        "the mission is deployed: {:?}",
        h.state().matches.ruunara.view.message
    );
}

/// The match of the Ruunara view.
fn session(app: &DeckwrightApp) -> &Session {
    app.matches.ruunara.view.session.as_ref().expect("a match")
}

/// The Ruunara position of a session's position.
fn rg(g: &dyn deckwright::games::any::AnyGame) -> &RuunaraGame<'_> {
    ruunara::position(g).expect("a Ruunara position")
}

/// The position after every input.
fn latest(app: &DeckwrightApp) -> &RuunaraGame<'_> {
    rg(session(app).latest())
}

/// Whether the mission is over.
fn over(app: &DeckwrightApp) -> bool {
    latest(app).outcome().is_some()
}

/// The setup of `mission` for the example squad, made apart from the app.
fn setup_of(app: &DeckwrightApp, mission: usize) -> Setup {
    let squad = SquadFile::parse(ruunara::EXAMPLE_SQUAD, "s").unwrap();
    ruunara::setup_of(&app.cat, MISSIONS[mission].1, MISSIONS[mission].0, &squad).unwrap()
}

/// The setup of the eliminate mission for the example squad.
fn setup(app: &DeckwrightApp) -> Setup {
    setup_of(app, 0)
}

/// The engine after the first `k` inputs of `s`, played apart from the app: each point
/// offered again as the option it was, and each die checked to be the next draw of the
/// match's stream (the dice are drawn by the session and recorded, not by the view).
fn engine_after<'s>(setup: &'s Setup, s: &Session, k: usize) -> RuunaraGame<'s> {
    let mut g = RuunaraGame::new(setup);
    let mut dice = RngDice::new(s.seed);
    for (at, &i) in s.inputs()[..k].iter().enumerate() {
        if let Some(p) = s.points().iter().find(|p| p.step == at) {
            assert_eq!(g.offer_point(p.x, p.y), Some(i), "point at input {at}");
        }
        if let Turn::Chance(c) = g.turn() {
            assert_eq!(Some(i), c.draw(&mut dice), "die {at}");
            assert_eq!(s.mover(at), None, "a die has no seat");
        }
        g.apply(i);
    }
    g
}

fn board(h: &Harness<'_, DeckwrightApp>) -> BoardMap {
    h.state()
        .matches
        .ruunara
        .view
        .board
        .map
        .expect("the board is drawn")
}

/// Why the last drop was refused, if it was.
fn refusal(h: &Harness<'_, DeckwrightApp>) -> Option<String> {
    h.state().matches.ruunara.view.board.refusal.clone()
}

/// Drags with the mouse from table point `from` to table point `to`.
fn drag(h: &mut Harness<'static, DeckwrightApp>, from: Pt, to: Pt) {
    let map = board(h);
    let (a, b) = (map.to_screen(from), map.to_screen(to));
    h.event(egui::Event::PointerMoved(a));
    h.run();
    h.event(egui::Event::PointerButton {
        pos: a,
        button: PointerButton::Primary,
        pressed: true,
        modifiers: Default::default(),
    });
    h.step();
    for k in 1..=4 {
        h.event(egui::Event::PointerMoved(a + (b - a) * (k as f32 / 4.0)));
        h.step();
    }
    h.event(egui::Event::PointerButton {
        pos: b,
        button: PointerButton::Primary,
        pressed: false,
        modifiers: Default::default(),
    });
    h.run();
}

/// Clicks table point `at`.
fn click_at(h: &mut Harness<'static, DeckwrightApp>, at: Pt) {
    let p = board(h).to_screen(at);
    h.event(egui::Event::PointerMoved(p));
    h.step();
    for pressed in [true, false] {
        h.event(egui::Event::PointerButton {
            pos: p,
            button: PointerButton::Primary,
            pressed,
            modifiers: Default::default(),
        });
        h.step();
    }
    h.run();
}

/// Takes option 1 (key 1) until the hero that acts moves: the hero and where it stands.
fn to_the_first_move(h: &mut Harness<'static, DeckwrightApp>) -> (usize, Pt) {
    for _ in 0..5 {
        if matches!(latest(h.state()).st.phase, Phase::Move(_)) {
            break;
        }
        h.key_press(Key::Num1);
        h.run();
    }
    let g = latest(h.state());
    let Phase::Move(i) = g.st.phase else {
        panic!("a hero moves: {:?}", g.st.phase)
    };
    (usize::from(i), g.st.figs[usize::from(i)].at)
}

#[test]
fn a_person_plays_a_mission_by_dragging_heroes_and_clicking_targets_until_it_ends() {
    let mut h = harness(app());
    new_mission(&mut h);
    h.get_by_label("Ruunara table");
    let (mut drags, mut clicks) = (0, 0);
    for _ in 0..600 {
        if over(h.state()) {
            break;
        }
        let (before, points, engage, target) = {
            let s = session(h.state());
            let g = latest(h.state());
            assert!(
                s.person_to_move().is_some(),
                "the dice and the enemies were played"
            );
            // Where the engine would take the hero to engage, and the target of an attack.
            let engage = match g.st.phase {
                Phase::Move(i) => g.options().iter().find_map(|o| match o {
                    Opt::Engage(_) => {
                        g.st.opt_path(g.setup, usize::from(i), *o)
                            .filter(|p| p.n > 0)
                            .and_then(|p| p.end())
                            .map(|end| (g.st.figs[usize::from(i)].at, end))
                    }
                    _ => None,
                }),
                _ => None,
            };
            let target = g.options().iter().find_map(|o| match o {
                Opt::Close(j) | Opt::Ranged(j) => {
                    let j = usize::from(*j);
                    // Only a figure with one option on it is taken by a click.
                    (g.options()
                        .iter()
                        .filter(
                            |o| matches!(o, Opt::Close(k) | Opt::Ranged(k) if usize::from(*k) == j),
                        )
                        .count()
                        == 1)
                        .then_some(g.st.figs[j].at)
                }
                _ => None,
            });
            (s.len(), s.points().len(), engage, target)
        };
        if let Some((from, to)) = engage {
            drag(&mut h, from, to);
            let s = session(h.state());
            if s.len() > before {
                assert_eq!(s.points().len(), points + 1, "the drag is a point");
                assert_eq!(s.points()[points].step, before);
                drags += 1;
                continue;
            }
        } else if let Some(at) = target {
            click_at(&mut h, at);
            if session(h.state()).len() > before {
                clicks += 1;
                continue;
            }
        }
        h.get_by_label_contains("1. ");
        h.key_press(Key::Num1);
        h.run();
        assert!(
            session(h.state()).len() > before,
            "key 1 takes the first option"
        );
    }
    let app = h.state();
    assert!(over(app), "the mission ends");
    assert!(drags > 0, "heroes were dragged");
    assert!(clicks > 0, "targets were clicked");
    // The engine, played apart with the same inputs and dice, agrees on the end.
    let s = setup(app);
    let p = session(app);
    let g = engine_after(&s, p, p.len());
    assert!(matches!(g.turn(), Turn::Over));
    assert_eq!(latest(app).st.figs, g.st.figs);
    let told = if g.won() {
        "The heroes win"
    } else {
        "The heroes lose"
    };
    h.get_by_label_contains(told);
}

#[test]
fn a_drop_beyond_the_movement_is_refused_and_the_hero_stays() {
    let mut h = harness(app());
    new_mission(&mut h);
    let (i, at) = to_the_first_move(&mut h);
    let n = session(h.state()).len();
    // 20" north: beyond any hero's movement.
    drag(&mut h, at, Pt::new(at.x, at.y + 20.0));
    assert_eq!(session(h.state()).len(), n, "nothing is decided");
    assert_eq!(
        latest(h.state()).st.figs[i].at,
        at,
        "the hero is back in its place"
    );
    let m = refusal(&h);
    assert!(
        m.as_deref().is_some_and(|m| m.starts_with("Too far")),
        "{m:?}"
    );
    h.get_by_label_contains("Too far");
    // A legal drop within the movement moves it: the point is the input taken.
    drag(&mut h, at, Pt::new(at.x, at.y + 2.0));
    let s = session(h.state());
    assert!(s.len() > n);
    assert_eq!(s.points().len(), 1);
    assert_eq!(s.points()[0].step, n);
    assert_eq!(refusal(&h), None);
    let moved = rg(s.game_at(n + 1).as_ref()).st.figs[i].at;
    assert!((moved.y - (at.y + 2.0)).abs() < 0.05, "{moved:?}");
}

/// The app with the eliminate mission played to its end by `greedy` for the heroes.
fn played_by_greedy() -> Harness<'static, DeckwrightApp> {
    let mut h = harness(app());
    h.state_mut().matches.ruunara.view.seats[0] = Seat::Computer(Policy::Greedy);
    new_mission(&mut h);
    crate::support::wait_for(&mut h, "the mission's end", over);
    h
}

#[test]
fn stepping_back_and_forth_shows_the_engine_state_at_that_step() {
    let mut h = played_by_greedy();
    let n = {
        let p = session(h.state());
        assert_eq!(p.at, p.len(), "the last step is shown");
        p.len()
    };
    assert!(n > 6);
    let s = setup(h.state());
    // Back walks the inputs one by one, dice among them.
    for k in (n - 5..n).rev() {
        h.key_press(Key::ArrowLeft);
        h.run();
        assert_eq!(session(h.state()).at, k);
    }
    click(&mut h, "Forward");
    let p = session(h.state());
    assert_eq!(p.at, n - 4);
    let want = engine_after(&s, p, p.at);
    let shown = p.game_at(p.at);
    let shown = rg(shown.as_ref());
    assert_eq!(shown.st.figs, want.st.figs);
    assert_eq!(shown.st.round, want.st.round);
    assert_eq!(shown.st.phase, want.st.phase);
    h.get_by_label_contains(&format!("Step {} of {n}", n - 4));
    h.get_by_label_contains(&format!("round {} of", want.st.round));
    // Every step's log lines are the engine's.
    let mut g = RuunaraGame::new(&s);
    for (k, &i) in p.inputs().iter().enumerate() {
        let mut log = Vec::new();
        if let Some(q) = p.points().iter().find(|q| q.step == k) {
            g.offer_point(q.x, q.y);
        }
        g.apply_logged(i, &mut log);
        let texts: Vec<String> = log.iter().map(|e| g.event_text(e)).collect();
        let logged: Vec<&str> = p.steps()[k].lines.iter().map(|(_, l)| l.as_str()).collect();
        assert_eq!(logged, texts, "step {k}");
    }
    // The lines of the step shown are in the log panel.
    let line = &p.steps()[p.at - 1].lines;
    if let Some((_, l)) = line.first() {
        assert!(h.query_all_by_label(l).next().is_some(), "{l}");
    }
}

#[test]
fn the_enemies_turn_is_stepped_die_by_die_as_the_engine_plays_it() {
    let mut h = played_by_greedy();
    let s = setup(h.state());
    // The first die of an enemy's attack, and the steps to the heroes' next decision.
    let (k, by, target, end) = {
        let p = session(h.state());
        let k = (0..p.len())
            .find(|&k| {
                let b = p.game_at(k);
                let g = rg(b.as_ref());
                matches!(g.turn(), Turn::Chance(_))
                    && s.figs[usize::from(g.st.attack.by)].run_by_rules()
            })
            .expect("an enemy attacks");
        let b = p.game_at(k);
        let g = rg(b.as_ref());
        let end = (k..p.len())
            .find(|&j| p.mover(j).is_some())
            .unwrap_or(p.len());
        (
            k,
            usize::from(g.st.attack.by),
            usize::from(g.st.attack.target),
            end,
        )
    };
    let n = session(h.state()).len();
    for _ in k..n {
        h.key_press(Key::ArrowLeft);
        h.run();
    }
    assert_eq!(session(h.state()).at, k);
    h.get_by_label_contains(&format!(
        "{} #{by} attacks {} #{target}: the dice are rolled.",
        s.figs[by].name, s.figs[target].name
    ));
    // Forward walks the rest of that turn die by die, the board the engine's at each.
    for j in k + 1..=end {
        h.key_press(Key::ArrowRight);
        h.run();
        let p = session(h.state());
        assert_eq!(p.at, j);
        let shown = p.game_at(j);
        assert_eq!(rg(shown.as_ref()).st.figs, engine_after(&s, p, j).st.figs);
    }
    // How it looks at that die, at 1024 x 700.
    h.set_size(egui::vec2(1024.0, 700.0));
    for _ in k..end {
        h.key_press(Key::ArrowLeft);
        h.run();
    }
    assert_eq!(session(h.state()).at, k);
    h.run();
    h.snapshot("board-ruunara-enemy-turn");
}

/// Steps frames until the mission is over or a person decides (the computer's turn, played on
/// its own thread, has appended what it took).
fn until_a_person_decides(h: &mut Harness<'static, DeckwrightApp>) {
    crate::support::wait_for(h, "the computer's turn to end", |a| {
        !a.matches.ruunara.view.turn.running() && (over(a) || session(a).person_to_move().is_some())
    });
}

#[test]
fn the_enemies_dice_and_the_computers_heroes_are_played_on_a_job_and_stop() {
    let mut h = harness(app());
    set_inline_turns(&h.ctx, false);
    new_mission(&mut h);
    // A person's heroes: each decision is taken at once; the dice after it, and the enemies'
    // turn they belong to, come from the computer's turn on its own thread.
    let mut enemy_die = None;
    for _ in 0..200 {
        until_a_person_decides(&mut h);
        let p = session(h.state());
        let s = setup(h.state());
        enemy_die = (0..p.len()).find(|&k| {
            let b = p.game_at(k);
            let g = rg(b.as_ref());
            matches!(g.turn(), Turn::Chance(_))
                && s.figs[usize::from(g.st.attack.by)].run_by_rules()
        });
        if enemy_die.is_some() || over(h.state()) {
            break;
        }
        h.key_press(Key::Num1);
        h.step();
    }
    assert!(enemy_die.is_some(), "an enemy attacked, its dice drawn");
    let s = setup(h.state());
    let p = session(h.state());
    engine_after(&s, p, p.len());
    // The computer's heroes with a search far too long to end: frames are drawn while it
    // thinks, and Stop ends it without taking a decision.
    h.state_mut().matches.ruunara.view.seats[0] =
        Seat::Computer(Policy::parse("mcts:1000000").unwrap());
    h.get_by_label("New match").click();
    h.step();
    for _ in 0..10 {
        h.step();
        assert!(
            h.state().matches.ruunara.view.turn.running(),
            "still thinking"
        );
    }
    h.get_by_label_contains("The computer is thinking");
    assert!(
        session(h.state()).is_empty(),
        "nothing taken on the UI thread"
    );
    h.get_by_label("Stop").click();
    crate::support::wait_for(&mut h, "the stop", |a| {
        !a.matches.ruunara.view.turn.running()
    });
    h.run_steps(3);
    assert!(
        session(h.state()).is_empty(),
        "a stopped search is not a decision"
    );
    assert!(h.state().matches.ruunara.view.turn.paused());
    h.get_by_label("The computer was stopped.");
}

fn wait(h: &mut Harness<'_, DeckwrightApp>, done: impl Fn(&DeckwrightApp) -> bool) {
    crate::support::wait_for(h, "the run's end", done);
    h.run_steps(10);
}

#[test]
fn simulate_gives_the_sim_runners_figures() {
    let mut h = harness(app());
    h.run();
    click(&mut h, "Match");
    click(&mut h, "Ruunara");
    click(&mut h, "Simulate missions");
    {
        let r = &mut h.state_mut().matches.ruunara;
        r.view.seats[0] = Seat::Computer(Policy::Random);
        r.view.seed = 7;
        r.sim.games = 40;
        r.sim.threads = 2;
    }
    h.run_steps(5);
    h.get_by_label("Run").click();
    h.step();
    wait(&mut h, |a| !a.matches.ruunara.simulating());
    let got = h
        .state()
        .matches
        .ruunara
        .sim
        .result
        .clone()
        .expect("a result")
        .figures;
    let s = setup(h.state());
    let never = std::sync::atomic::AtomicBool::new(false);
    let want = sim::run_tally(
        40,
        Some(1),
        |i| ruunara::outcome(&s, Policy::Random, 7, i),
        |_| {},
        &never,
    )
    .unwrap()
    .unwrap();
    assert_eq!(got.games, 40);
    assert_eq!(got.seats[0].1, want.wins[0]);
    assert_eq!(got.seats[1].1, want.wins[1]);
    assert_eq!(got.endings, want.endings().collect::<Vec<_>>());
    assert_eq!(got.turns, want.turns);
    assert_eq!(got.lengths.values().sum::<u64>(), 40);
    // A mission is counted in rounds, not turns (issue 27, item 5).
    h.get_by_label_contains(&format!(
        "mean length {:.1} rounds",
        want.turns as f64 / 40.0
    ));
    h.get_by_label("Match lengths (rounds)");
    h.get_by_label("Win rates chart");
    h.get_by_label("Match lengths histogram");
}

/// The board at 1024 x 700 stays readable: the whole table shows at a usable scale.
#[test]
fn the_board_fits_at_1024_by_700() {
    let mut h = harness(app());
    h.set_size(egui::vec2(1024.0, 700.0));
    new_mission(&mut h);
    let map = board(&h);
    assert!(map.scale >= 6.0, "{map:?}");
    assert!(map.rect.max.x <= 1024.0 && map.rect.max.y <= 700.0);
    h.snapshot("board-ruunara-1024");
}

/// The board at 1920 x 1080 fourteen decisions in, every vision arc shown, as a snapshot
/// image (`tests/snapshots/board-ruunara.png`, copied to `docs/screenshots/board-ruunara.png`).
#[test]
fn ruunara_board_snapshot() {
    let mut h = harness(app());
    h.set_size(egui::vec2(1920.0, 1080.0));
    h.state_mut().matches.ruunara.view.seats[0] = Seat::Computer(Policy::Greedy);
    new_mission(&mut h);
    crate::support::wait_for(&mut h, "the mission's end", over);
    {
        let r = &mut h.state_mut().matches.ruunara.view;
        r.board.all_arcs = true;
        let p = r.session.as_mut().unwrap();
        // The step after the fourteenth decision of the heroes.
        let decisions: Vec<usize> = (0..p.len()).filter(|&k| p.mover(k).is_some()).collect();
        p.at = decisions.get(14).copied().unwrap_or(p.len());
    }
    h.run();
    let map = board(&h);
    // The options panel keeps its size and the refusal line its room (issue #27 item 3), so
    // the table does not grow when the match ends.
    assert!(map.scale > 17.0, "{map:?}");
    h.snapshot("board-ruunara");
}

#[test]
fn the_calculators_beside_the_squad_show_the_cores_numbers() {
    use deckwright::games::ruunara::duel::{DuelEnd, duel};
    use deckwright::games::ruunara::model::Dice;
    use deckwright::games::ruunara::odds::{Attack, odds};
    use deckwright::games::ruunara::rules::resolve_member;

    let mut h = harness(app());
    h.run();
    click(&mut h, "Squad");
    h.get_by_label("Attack odds");
    {
        let c = &mut h.state_mut().squad.calc;
        c.dice = 4;
        c.min = 3;
        c.cover = false;
        c.hp = 3;
    }
    h.run();
    click(&mut h, "Target under cover");
    h.get_by_role_and_label(egui::accesskit::Role::CheckBox, "Instant kill on")
        .click();
    h.run();
    // Each hit costs 2 hit points (a skill's damage).
    h.get_by_label("Hit points a hit").set_value_accesskit(2.0);
    h.run();
    assert!(h.state().squad.calc.cover, "cover");
    assert!(h.state().squad.calc.kill, "kill");
    assert_eq!(h.state().squad.calc.damage, 2, "damage");
    let want = odds(&Attack {
        dice: Dice { count: 4, min: 3 },
        cover: true,
        kill_on: Some(6),
        hp: Some(3),
        damage: 2,
    });
    h.get_by_label(&format!(
        "Chance to kill: {:.1}%",
        want.kill_chance.unwrap() * 100.0
    ));
    h.get_by_label(&format!("4D3+: {:.2} hits expected", want.expected_hits));
    assert_eq!(want.distribution.len(), 5);
    for p in &want.distribution {
        h.get_by_label(&format!("{:.1}%", p * 100.0));
    }

    // The duel: a hero against two ghouls, as the core plays it.
    {
        let c = &mut h.state_mut().squad.calc;
        c.a = "ru-haskar-emberfist".into();
        c.bs = "ru-ghoul-gnawer, ru-ghoul-gnawer".into();
        c.games = 300;
        c.seed = 5;
    }
    h.run();
    click(&mut h, "Play the duels");
    let cat = &h.state().cat;
    let a = resolve_member(cat, "ru-haskar-emberfist").unwrap();
    let b = resolve_member(cat, "ru-ghoul-gnawer").unwrap();
    let r = duel(&a, &[b.clone(), b], 300, 5).unwrap();
    assert_eq!(
        h.state()
            .squad
            .calc
            .duel
            .as_ref()
            .unwrap()
            .1
            .as_ref()
            .unwrap(),
        &r
    );
    h.get_by_label(&format!("Mean rounds: {:.2}", r.mean_rounds()));
    h.get_by_label_contains(&format!("{:.1}%", r.chance(DuelEnd::AWins) * 100.0));
    // An unknown opponent is named, not played.
    h.state_mut().squad.calc.bs = "no-such-card".into();
    h.run();
    click(&mut h, "Play the duels");
    assert!(h.state().squad.calc.duel.as_ref().unwrap().1.is_err());
}

#[test]
fn a_mission_file_is_played_and_a_broken_one_is_named() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/ruunara");
    let mut h = harness(app());
    h.run();
    click(&mut h, "Match");
    click(&mut h, "Ruunara");
    h.state_mut().matches.ruunara.view.board.mission =
        MissionSource::File(dir.join("rescue.mission.toml"));
    h.run();
    click(&mut h, "New match");
    let g = latest(h.state());
    assert!(g.setup.rescue_target().is_some(), "the rescue mission");
    let name = g.setup.name.clone();
    h.get_by_label_contains(&format!("{name}: round 0 of"));
    // The exit zone is drawn with its word.
    h.get_by_label("Ruunara table");
    // A mission with an unknown key is refused with its file, line and key; the match shown
    // stays.
    h.state_mut().matches.ruunara.view.board.mission =
        MissionSource::File(dir.join("illegal-unknown-key.mission.toml"));
    h.run();
    click(&mut h, "New match");
    let r = &h.state().matches.ruunara.view;
    let m = r.message.clone().unwrap();
    assert!(m.contains("illegal-unknown-key.mission.toml"), "{m}");
    assert_eq!(latest(h.state()).setup.name, name);
    h.get_by_label(&m);
}

/// The log of a session, in words.
fn log_of(s: &Session) -> Vec<(usize, String)> {
    s.lines().map(|(k, (_, l))| (k, l.clone())).collect()
}

#[test]
fn a_saved_match_with_a_drag_reopens_at_its_last_step_and_a_damaged_one_is_refused() {
    let mut h = harness(app());
    h.state_mut().matches.ruunara.view.seed = 4;
    new_mission(&mut h);
    // Skip to the first hero's movement, drag it 2" north, then a few more decisions.
    let (_, at) = to_the_first_move(&mut h);
    drag(&mut h, at, Pt::new(at.x, at.y + 2.0));
    for _ in 0..4 {
        h.key_press(Key::Num1);
        h.run();
    }
    let p = session(h.state());
    assert_eq!(p.points().len(), 1, "a drag");
    assert!(p.len() >= 5, "{:?}", p.inputs());
    let (inputs, log, figs) = (p.inputs().to_vec(), log_of(p), latest(h.state()).st.figs);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("mission.match.toml");
    h.state_mut().matches.ruunara.view.path = path.display().to_string();
    h.run();
    click(&mut h, "Save match");
    h.get_by_label(&format!("Saved to {}.", path.display()));
    let r = MatchRecord::load(&path).unwrap();
    assert_eq!((r.game.as_str(), r.seed), ("ruunara", 4));
    assert_eq!(r.seats, ["person"]);
    // Format 2: the dice are inputs too, and the drag is a point on the table.
    assert_eq!(r.format, 2);
    assert_eq!(r.inputs, inputs);
    assert_eq!(r.checks.len(), r.inputs.len());
    assert_eq!(r.points.len(), 1);
    // The command line's replay plays the app's record through to the same log.
    let replayed = registry::replay(&r, None, &Vec::new()).unwrap();
    assert_eq!(
        replayed
            .log
            .iter()
            .map(|(_, l)| l.as_str())
            .collect::<Vec<_>>(),
        log.iter().map(|(_, l)| l.as_str()).collect::<Vec<_>>()
    );
    // A new match on another seed and mission, then the saved one opened again.
    h.state_mut().matches.ruunara.view.seed = 9;
    h.state_mut().matches.ruunara.view.board.mission = MissionSource::Bundled(2);
    click(&mut h, "New match");
    assert!(session(h.state()).is_empty());
    click(&mut h, "Open match");
    let p = session(h.state());
    assert_eq!(p.seed, 4);
    assert_eq!(h.state().matches.ruunara.view.seed, 4);
    assert_eq!(p.inputs(), inputs, "the drag's point replays exactly");
    assert_eq!(p.at, inputs.len(), "shown at its last step");
    assert_eq!(log_of(p), log);
    assert_eq!(latest(h.state()).st.figs, figs);
    h.get_by_label_contains("inputs replayed");
    // The record alone rebuilds it: no catalogue, no Squad screen.
    let again = registry::session(&r, &Vec::new()).unwrap();
    assert_eq!(log_of(&again), log);
    // Damaged files are refused with a message naming what is wrong; the match stays.
    let bad_path = dir.path().join("bad.match.toml");
    let mut too_far = r.clone();
    too_far.points[0].y += 30.0;
    let mut extra = r.clone();
    extra.inputs.push(99);
    extra.checks.push(0);
    let mut no_cards = r.clone();
    no_cards
        .options
        .insert("cards".into(), toml::Value::Array(vec![]));
    for (bad, says) in [
        (too_far, "is not a legal point there"),
        (extra, "is not a legal input there"),
        (no_cards, "options are not valid"),
    ] {
        bad.save(&bad_path).unwrap();
        h.state_mut().matches.ruunara.view.path = bad_path.display().to_string();
        h.run();
        click(&mut h, "Open match");
        h.get_by_label_contains("Not opened");
        h.get_by_label_contains(says);
        assert_eq!(session(h.state()).inputs(), inputs);
    }
    std::fs::write(&bad_path, "format = 1\ngame = \"ruunara\"\nseed = ").unwrap();
    click(&mut h, "Open match");
    h.get_by_label_contains("not a match record");
    // A record of format 1 (its dice left to the seed, its drags kept apart) is refused,
    // saying so.
    let mut v1 = r.clone();
    v1.format = 1;
    v1.points.clear();
    v1.checks.clear();
    v1.options
        .insert("drags".into(), toml::Value::Array(vec![]));
    v1.save(&bad_path).unwrap();
    click(&mut h, "Open match");
    h.get_by_label_contains("has format 1");
    assert_eq!(session(h.state()).inputs(), inputs);
}

/// The inputs taken and the position at the step shown.
fn shown(h: &Harness<'static, DeckwrightApp>) -> (usize, RuunaraGame<'static>) {
    let p = session(h.state());
    let b = p.game_at(p.at);
    let g = rg(b.as_ref());
    // The setup lives as long as the match: leak a copy for the test's borrow.
    let setup: &'static Setup = Box::leak(Box::new(g.setup.clone()));
    (p.len(), RuunaraGame::at(setup, g.st.clone()))
}

#[test]
fn a_person_deploys_the_squad_in_its_zone_by_clicking_and_dragging_and_the_match_reopens() {
    let mut h = harness(app());
    h.run();
    click(&mut h, "Match");
    click(&mut h, "Ruunara");
    // The rescue mission deploys the squad in a zone (x 1-7, y 12-18).
    h.state_mut().matches.ruunara.view.board.mission = MissionSource::Bundled(1);
    h.state_mut().matches.ruunara.view.seed = 6;
    h.run();
    click(&mut h, "New match");
    let (n, g) = shown(&h);
    assert_eq!((n, g.st.phase), (0, Phase::Deploy(0)));
    h.get_by_label_contains("Where does");
    h.get_by_label_contains("Click or drag into the highlighted zone");
    // A click outside the zone is refused and says why; nothing is decided.
    click_at(&mut h, Pt::new(20.0, 20.0));
    assert_eq!(shown(&h).0, 0);
    let m = refusal(&h).unwrap();
    assert!(m.contains("inside the highlighted zone"), "{m}");
    h.get_by_label(&m);
    // A click in the zone, off the grid, places the first member there.
    click_at(&mut h, Pt::new(2.3, 13.1));
    let (n, g) = shown(&h);
    assert_eq!(n, 1);
    assert!(refusal(&h).is_none());
    let a = g.st.figs[0].at;
    assert!(a.dist(Pt::new(2.3, 13.1)) < 0.05, "{a:?}");
    assert_eq!(g.st.phase, Phase::Deploy(1));
    // A drop on the member just placed is refused as an overlap.
    click_at(&mut h, Pt::new(2.6, 13.3));
    assert_eq!(shown(&h).0, 1);
    let m = refusal(&h).unwrap();
    assert!(m.contains("overlap"), "{m}");
    // The second member is dragged in from beside the zone.
    drag(&mut h, Pt::new(10.0, 10.0), Pt::new(5.5, 16.5));
    let (n, g) = shown(&h);
    assert_eq!(n, 2);
    assert!(g.st.figs[1].at.dist(Pt::new(5.5, 16.5)) < 0.05);
    // The third takes the first listed spot (key 1).
    h.key_press(Key::Num1);
    h.run();
    let (n, g) = shown(&h);
    assert_eq!(n, 3);
    assert_eq!(g.st.phase, Phase::Pick, "round 1 begins");
    assert_eq!(g.st.round, 1);
    let p = session(h.state());
    // The two placements on the table are points; the third an option.
    assert_eq!(
        p.points().iter().map(|q| q.step).collect::<Vec<_>>(),
        [0, 1]
    );
    assert!(
        log_of(p)
            .iter()
            .any(|(k, l)| *k == 1 && l.contains("is placed at"))
    );
    let (inputs, log) = (p.inputs().to_vec(), log_of(p));
    // Saved and opened again, the drops replay exactly.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("zone.match.toml");
    h.state_mut().matches.ruunara.view.path = path.display().to_string();
    h.run();
    click(&mut h, "Save match");
    let r = MatchRecord::load(&path).unwrap();
    assert_eq!(r.points.len(), 2, "two drops");
    click(&mut h, "New match");
    assert!(session(h.state()).is_empty());
    click(&mut h, "Open match");
    let p = session(h.state());
    assert_eq!(p.inputs(), inputs);
    assert_eq!(log_of(p), log);
    // A drop moved out of the zone is refused.
    let mut bad = r.clone();
    (bad.points[0].x, bad.points[0].y) = (20.0, 20.0);
    assert!(registry::session(&bad, &Vec::new()).is_err());
    // Undo takes back the last placement: the third member is to place again.
    click(&mut h, "Undo");
    let (n, g) = shown(&h);
    assert_eq!((n, g.st.phase), (2, Phase::Deploy(2)));
}

#[test]
fn the_computer_deploys_a_zone_mission_by_its_policy() {
    let mut h = harness(app());
    h.run();
    click(&mut h, "Match");
    click(&mut h, "Ruunara");
    h.state_mut().matches.ruunara.view.board.mission = MissionSource::Bundled(3);
    h.state_mut().matches.ruunara.view.seats[0] = Seat::Computer(Policy::Greedy);
    h.run();
    click(&mut h, "New match");
    crate::support::wait_for(&mut h, "three decisions of the computer", |a| {
        session(a).len() >= 3
    });
    let placed: Vec<_> = log_of(session(h.state()))
        .into_iter()
        .filter(|(_, l)| l.contains("is placed at"))
        .collect();
    assert_eq!(placed.len(), 3, "{placed:?}");
    assert_eq!(
        placed.iter().map(|(k, _)| *k).collect::<Vec<_>>(),
        [1, 2, 3]
    );
    // The survive mission is the one deployed.
    assert_eq!(latest(h.state()).setup.name, setup_of(h.state(), 3).name);
}

/// The deployment at 1024 x 700: the zone highlighted with its offered spots, one member
/// already placed (`tests/snapshots/board-ruunara-deploy.png`).
#[test]
fn ruunara_deploy_snapshot() {
    let mut h = harness(app());
    h.set_size(egui::vec2(1024.0, 700.0));
    h.run();
    click(&mut h, "Match");
    click(&mut h, "Ruunara");
    h.state_mut().matches.ruunara.view.board.mission = MissionSource::Bundled(1);
    h.run();
    click(&mut h, "New match");
    click_at(&mut h, Pt::new(4.0, 15.0));
    let (n, g) = shown(&h);
    assert_eq!((n, g.st.phase), (1, Phase::Deploy(1)));
    h.snapshot("board-ruunara-deploy");
}

/// Issue #27 item 2: at 1024 x 700 no widget of the table screen overlaps another and each
/// can be reached.
#[test]
fn ruunara_board_laid_out_at_1024_by_700() {
    let mut h = harness(app());
    h.set_size(egui::vec2(1024.0, 700.0));
    new_mission(&mut h);
    crate::support::assert_laid_out(&mut h, "Ruunara table");
}

/// Issue #27 item 3: the table keeps its place and scale while the option list under it and
/// the refusal line above it change (decisions with more or fewer options, a drop refused),
/// so the figures do not jump and a drag started on a figure lands where it was aimed.
#[test]
fn the_table_keeps_its_place_and_scale_as_the_options_and_refusals_change() {
    let mut h = harness(app());
    h.set_size(egui::vec2(1024.0, 700.0));
    new_mission(&mut h);
    let first = board(&h);
    let mut counts = std::collections::BTreeSet::new();
    for _ in 0..6 {
        let (n, moving) = {
            let g = latest(h.state());
            (g.options().len(), matches!(g.st.phase, Phase::Move(_)))
        };
        counts.insert(n);
        let now = board(&h);
        assert_eq!(
            (now.rect, now.scale),
            (first.rect, first.scale),
            "with {n} options"
        );
        if moving {
            // A drop refused: the refusal line shows, the table stays.
            let (i, at) = {
                let g = latest(h.state());
                let Phase::Move(i) = g.st.phase else {
                    unreachable!()
                };
                (usize::from(i), g.st.figs[usize::from(i)].at)
            };
            drag(&mut h, at, Pt::new(at.x, at.y + 20.0));
            assert!(refusal(&h).is_some());
            let now = board(&h);
            assert_eq!((now.rect, now.scale), (first.rect, first.scale), "refused");
            assert_eq!(latest(h.state()).st.figs[i].at, at);
        }
        h.key_press(Key::Num1);
        h.run();
    }
    assert!(counts.len() > 1, "the option list changed: {counts:?}");
}

/// Card text supersedes the rules: a match whose cards say what the engine does not play
/// says so above the board, each text by card and part (issue #25), and the list is the
/// one `deckwright lint` gives for those cards. The bundled cards are all played: nothing is
/// said; a catalogue holding Haskar's Tempered Hide as text only (as one made before the
/// engine played it) names it.
#[test]
fn the_match_says_which_card_texts_it_does_not_play() {
    let mut h = harness(app());
    new_mission(&mut h);
    assert_eq!(h.state().matches.ruunara.view.gaps, Vec::<String>::new());
    assert!(h.query_by_label_contains("in this match").is_none());

    let mut cat = deckwright::catalogue::Catalogue::open_in_memory().unwrap();
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/cards/ruunara/ru-haskar-emberfist.toml"
    ))
    .unwrap();
    let text_only = &text[..text.find("effect = \"save\"").unwrap()];
    let card = deckwright::cards::parse_card(text_only, "h.toml").unwrap();
    cat.upsert(&[card]).unwrap();
    let mut h = harness(deckwright::app::DeckwrightApp::new(cat));
    new_mission(&mut h);
    let gaps = h.state().matches.ruunara.view.gaps.clone();
    assert_eq!(gaps.len(), 1, "{gaps:?}");
    assert!(gaps[0].contains("Tempered Hide"), "{gaps:?}");
    let title = format!(
        "{} in this match",
        deckwright::count(gaps.len() as u64, "card text", "card texts")
    );
    h.get_by_label_contains(&title).click();
    h.run();
    for g in &gaps {
        h.get_by_label(g);
    }
    // The same lines as the core's list for the match's own cards.
    let options = &session(h.state()).options;
    let cards = deckwright::games::build::cards_of(options, deckwright::cards::Game::Ruunara)
        .expect("the match keeps its cards");
    let lines: Vec<String> = deckwright::games::gaps::of_cards(&cards)
        .iter()
        .map(|g| g.line())
        .collect();
    assert_eq!(gaps, lines);
}

#[test]
fn a_contest_is_chosen_on_the_board_and_the_computer_commands_the_enemies_between_the_heroes() {
    let mut h = harness(app());
    h.run();
    click(&mut h, "Match");
    click(&mut h, "Ruunara");
    // The mode combo: a contest gives the seats row the heroes and the enemies.
    h.get(By::new().label("Mode").role(Role::ComboBox)).click();
    h.run();
    click(&mut h, "contest");
    h.get_by_label("Heroes");
    h.get_by_label("Enemies");
    click(&mut h, "New match");
    {
        let app = h.state();
        let s = session(app);
        assert_eq!(s.seats, vec![Seat::Person, Seat::Computer(Policy::Greedy)]);
        assert_eq!(latest(app).setup.mode, PlayMode::Contest);
    }
    h.get_by_label("Heroes decides");
    // The person plays a hero's activation (key 1 each time); the computer then activates an
    // enemy at once, before the next hero: no enemies' turn.
    let heroes = latest(h.state()).setup.heroes;
    let enemy_acted = |app: &DeckwrightApp| {
        let g = latest(app);
        log_of(session(app)).iter().any(|(_, l)| {
            (heroes..g.setup.figs.len())
                .any(|i| l.contains(&format!("{} #{i} acts", g.setup.figs[i].name)))
        })
    };
    for _ in 0..50 {
        if enemy_acted(h.state()) || over(h.state()) {
            break;
        }
        h.key_press(Key::Num1);
        h.run();
    }
    let app = h.state();
    assert!(enemy_acted(app), "{:?}", log_of(session(app)));
    assert!(
        !log_of(session(app))
            .iter()
            .any(|(_, l)| l.contains("enemies' turn")),
        "{:?}",
        log_of(session(app))
    );
    assert_eq!(latest(app).st.round, 1);
}
