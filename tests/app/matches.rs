//! Drives the Match screen: two parties built on the Party screen, a small seeded sim run
//! on the worker thread whose figures equal the core's `sim::run` and `deckwright sim
//! iconica`, and one watched match whose log is `deckwright play iconica`'s.

use deckwright::app::DeckwrightApp;
use deckwright::games::iconica::ai::PolicyKind;
use deckwright::sim;
use egui::Key;
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use serde_json::Value;

use crate::support::{app, click, harness_of_height, pick_character, two_parties};

#[path = "../common/cli.rs"]
mod cli;

const PARTY_A: &str = "examples/iconica/legal-protectorate-wardens.party.toml";
const PARTY_B: &str = "examples/iconica/legal-legion-raiders.party.toml";

/// Steps frames until `done` holds (the worker thread answers in its own time).
fn wait(h: &mut Harness<'_, DeckwrightApp>, done: impl Fn(&DeckwrightApp) -> bool) {
    crate::support::wait_for(h, "the worker's answer", done);
    h.step();
}

fn json_of(out: std::process::Output) -> Value {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn a_match_needs_two_legal_parties_and_says_what_is_missing() {
    let mut h = harness_of_height(app(), 900.0);
    h.run();
    click(&mut h, "Match");
    h.get_by_label_contains("Party A is empty");
    assert!(
        h.get_by_label("Run").accesskit_node().is_disabled(),
        "no run without parties"
    );
    click(&mut h, "Party");
    pick_character(&mut h, "Anwen Halloway");
    pick_character(&mut h, "Gorm Ashcairn");
    pick_character(&mut h, "Kethra Voss");
    click(&mut h, "Match");
    h.get_by_label_contains("Party A is not legal (1 problem");
    h.get_by_label("[faction-mix]");
    assert!(h.get_by_label("Run").accesskit_node().is_disabled());
}

/// The compiled match-up of the app's two parties, as the core builds it.
fn setup_of(app: &DeckwrightApp) -> std::sync::Arc<deckwright::games::iconica::engine::Setup> {
    let rules = app.matches.options.rules();
    deckwright::app::core::match_ready(&app.cat, &app.docs.party_a, &app.docs.party_b, rules)
        .setup
        .expect("both parties are legal")
}

#[test]
fn a_seeded_run_gives_the_core_s_and_the_cli_s_figures() {
    let mut h = two_parties();
    assert_eq!(
        h.query_all_by_label("Legal").count(),
        2,
        "both parties are legal"
    );
    {
        let app = h.state_mut();
        app.matches.options.policies = ["greedy", "random"];
        app.matches.options.seed = 7;
        app.matches.sim.games = 40;
        app.matches.sim.threads = 2;
    }
    h.run();
    h.get_by_label("Run").click();
    h.step();
    wait(&mut h, |app| !app.matches.sim.running());
    let got = h.state().matches.sim.result.clone().expect("a result");

    let setup = setup_of(h.state());
    let (pa, pb) = (PolicyKind::Greedy, PolicyKind::Random);
    let want = sim::run(
        40,
        Some(1),
        |i| sim::iconica::play_one(&setup, pa, pb, 7, i),
        |_| {},
    )
    .unwrap();
    let f = &got.figures;
    assert_eq!(
        (
            f.games,
            f.seats[0].1,
            f.seats[1].1,
            f.draws,
            f.no_result,
            f.turns
        ),
        (
            want.games,
            want.wins[0],
            want.wins[1],
            want.draws,
            want.no_result,
            want.turns
        )
    );
    assert_eq!(want.games, 40);

    // The figures on screen are the core's.
    let (lo, hi) = want.ci95_a();
    let pct = |x: f64| format!("{:.1}%", x * 100.0);
    h.get_by_label_contains(&format!(
        "won {} of 40 games: {} (95% CI {} to {})",
        want.wins[0],
        pct(want.win_rate_a()),
        pct(lo),
        pct(hi)
    ));
    h.get_by_label_contains(&format!("mean length {:.1} turns", want.mean_turns()));

    // And `deckwright sim iconica` with the same seed says the same.
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("cat.sqlite");
    let root = env!("CARGO_MANIFEST_DIR");
    let (a, b) = (format!("{root}/{PARTY_A}"), format!("{root}/{PARTY_B}"));
    let args = [
        "sim", "iconica", &a, &b, "--games", "40", "--seed", "7", "--ai-a", "greedy", "--ai-b",
        "random", "--json",
    ];
    let doc = json_of(cli::deckwright(&db, &args));
    assert_eq!(doc["wins"]["a"], want.wins[0]);
    assert_eq!(doc["wins"]["b"], want.wins[1]);
    assert_eq!(doc["wins"]["draw"], want.draws);
    assert_eq!(doc["mean_turns"].as_f64(), Some(want.mean_turns()));
    assert_eq!(doc["ended"]["victory"], want.ended[0]);
}

/// Two parties and a run long enough (100,000 mcts games on one thread) to be going on
/// while a test acts.
fn long_run_started() -> Harness<'static, DeckwrightApp> {
    let mut h = two_parties();
    {
        let app = h.state_mut();
        app.matches.options.policies = ["mcts", "mcts"];
        app.matches.sim.games = 100_000;
        app.matches.sim.threads = 1;
    }
    h.run();
    h.get_by_label("Run").click();
    h.step();
    assert!(h.state().matches.sim.running());
    h
}

#[test]
fn cancel_stops_a_run_without_a_result() {
    let mut h = long_run_started();
    h.get_by_label("Cancel").click();
    h.step();
    wait(&mut h, |app| !app.matches.sim.running());
    assert!(h.state().matches.sim.result.is_none());
    h.get_by_label("Cancelled: no result.");
}

#[test]
fn a_watched_match_shows_the_log_of_deckwright_play() {
    let mut h = two_parties();
    h.state_mut().matches.options.policies = ["greedy", "first"];
    h.state_mut().matches.options.seed = 3;
    click(&mut h, "Watch one match");
    h.get_by_label("Play one match").click();
    h.step();
    wait(&mut h, |app| !app.matches.watch.running());
    let watched = h
        .state()
        .matches
        .watch
        .watched
        .clone()
        .expect("a watched match");

    let setup = setup_of(h.state());
    let played = sim::iconica::play_logged(
        &setup,
        PolicyKind::Greedy,
        PolicyKind::First,
        3,
        sim::iconica::seeded_dice(3),
    );
    let want: Vec<String> = played.log.iter().map(|e| e.text(&setup)).collect();
    let got: Vec<&str> = watched.lines().collect();
    assert_eq!(got, want);
    assert!(got[0].starts_with("Turn 1: side A to play"), "{}", got[0]);
    h.get_by_label(got[0]);
    h.get_by_label(got[1]);

    // `deckwright play iconica` with the same seed logs the same events.
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("cat.sqlite");
    let root = env!("CARGO_MANIFEST_DIR");
    let (a, b) = (format!("{root}/{PARTY_A}"), format!("{root}/{PARTY_B}"));
    let args = [
        "play",
        "iconica",
        &a,
        &b,
        "--seed",
        "3",
        "--policy-a",
        "greedy",
        "--policy-b",
        "first",
        "--json",
    ];
    let doc = json_of(cli::deckwright(&db, &args));
    let cli_log: Vec<&str> = doc["log"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["text"].as_str().unwrap())
        .collect();
    assert_eq!(got, cli_log);
    let ids: Vec<&str> = doc["sides"]["a"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["id"].as_str().unwrap())
        .collect();
    let health: Vec<u64> = doc["sides"]["b"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["health"].as_u64().unwrap())
        .collect();
    assert_eq!(
        ids,
        watched.sides[0]
            .iter()
            .map(|m| m.id.as_str())
            .collect::<Vec<_>>()
    );
    assert_eq!(
        health,
        watched.sides[1]
            .iter()
            .map(|m| u64::from(m.health))
            .collect::<Vec<_>>()
    );

    // Turn by turn: the first turn alone, then the next.
    click(&mut h, "Turn by turn");
    h.get_by_label(&watched.turns[0].heading);
    assert!(h.query_by_label(&watched.turns[1].heading).is_none());
    click(&mut h, "Next turn");
    h.get_by_label(&watched.turns[1].heading);
    assert!(h.query_by_label(&watched.turns[0].heading).is_none());
    h.key_press(Key::ArrowLeft);
    h.run();
    assert_eq!(h.state().matches.watch.turn, 0);
    h.get_by_label(&watched.turns[0].heading);
}

#[test]
fn playing_side_a_by_always_taking_the_first_option_plays_the_first_policy_s_match() {
    use deckwright::games::game::Turn;
    use deckwright::games::session::Session;
    fn session(app: &DeckwrightApp) -> &Session {
        app.matches.play.view.session.as_ref().expect("a match")
    }
    let mut h = two_parties();
    click(&mut h, "Play against the computer");
    h.state_mut().matches.play.view.seed = 5;
    h.state_mut().matches.play.view.board.at_once = true;
    h.get_by_label("New match").click();
    h.run();
    let mut questions = Vec::new();
    for _ in 0..2000 {
        let s = session(h.state());
        if matches!(s.latest().turn(), Turn::Over) {
            break;
        }
        assert_eq!(s.person_to_move(), Some(0), "only player 1 waits");
        let g = s.game_at(s.at);
        questions.push(g.question());
        let first = format!("1. {}", g.describe(0));
        h.get_by_label(&g.question());
        h.get_by_role_and_label(egui::accesskit::Role::Button, &first)
            .click();
        h.run();
    }
    let s = session(h.state());
    assert!(matches!(s.latest().turn(), Turn::Over), "the match ended");
    assert!(
        questions.iter().any(|q| q == "Which character acts?"),
        "{questions:?}"
    );
    // The core's session of the same match, seed and seats, player 1 played by the `first`
    // policy, logs the same match.
    let mut r = s.record();
    (r.inputs, r.checks) = (Vec::new(), Vec::new());
    r.seats = vec!["first".into(), "greedy".into()];
    let mut core = deckwright::games::registry::session(&r, &h.state().cat).unwrap();
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    core.play_computer(&stop);
    let text = |s: &Session| s.lines().map(|(_, (_, l))| l.clone()).collect::<Vec<_>>();
    assert_eq!(text(s), text(&core));
    assert_eq!(s.inputs(), core.inputs());
}

#[test]
fn the_progress_counts_the_games_of_the_run_even_when_the_games_field_changes() {
    let mut h = long_run_started();
    // The user types another number of games while the run goes on.
    h.state_mut().matches.sim.games = 5;
    h.step();
    h.get_by_label_contains("/ 100000 games");
    assert!(h.query_by_label_contains("/ 5 games").is_none());
    h.get_by_label("Cancel").click();
    h.step();
    wait(&mut h, |app| !app.matches.sim.running());
}

#[test]
fn a_digit_typed_into_the_seed_while_playing_is_not_an_answer() {
    let mut h = two_parties();
    click(&mut h, "Play against the computer");
    h.state_mut().matches.play.view.board.at_once = true;
    h.get_by_label("New match").click();
    h.run();
    let inputs = |h: &Harness<'_, DeckwrightApp>| {
        let s = h.state().matches.play.view.session.as_ref().unwrap();
        assert_eq!(s.person_to_move(), Some(0), "a decision waits");
        s.len()
    };
    let asked = inputs(&h);
    // Editing the seed: a DragValue becomes a text field when clicked.
    h.get_by_label("Seed").click();
    h.run();
    assert!(h.ctx.text_edit_focused(), "the seed is being edited");
    h.key_press(Key::Num2);
    h.run();
    assert_eq!(inputs(&h), asked, "the decision is still waiting");
    // Out of the field, the digit answers.
    h.key_press(Key::Escape);
    h.run();
    h.key_press(Key::Num1);
    h.run();
    let s = h.state().matches.play.view.session.as_ref().unwrap();
    assert!(s.len() > asked, "answered with 1");
}

#[test]
fn on_the_smallest_window_the_watched_log_keeps_room_beside_the_setup_and_the_sides() {
    let mut h = two_parties();
    h.state_mut().matches.options.policies = ["greedy", "first"];
    click(&mut h, "Watch one match");
    h.get_by_label("Play one match").click();
    h.step();
    wait(&mut h, |app| !app.matches.watch.running());
    // The window's minimum size (`app::run`).
    h.set_size(egui::vec2(720.0, 480.0));
    h.run();
    let log_left = h.get_by_label("Whole log").rect().left();
    let sides_left = h.get_by_label("At the end").rect().left();
    assert!(
        sides_left - log_left >= 200.0,
        "the log is {} px wide on a 720 px window",
        sides_left - log_left
    );
    // The longest line wraps inside the log: it does not run under the sides.
    let watched = h.state().matches.watch.watched.clone().unwrap();
    let longest = watched.turns[0]
        .lines
        .iter()
        .max_by_key(|l| l.len())
        .unwrap();
    let right = h.get_by_label(longest).rect().right();
    assert!(
        right <= sides_left,
        "`{longest}` ends at {right}, the sides start at {sides_left}"
    );
    // The sides' widest name is not cut by the window's edge.
    let name = h.get_by_label("Anwen Halloway").rect();
    assert!(
        name.left() >= sides_left - 1.0 && name.right() <= 720.0,
        "{name:?}"
    );
}

#[test]
fn a_played_match_keeps_the_names_its_parties_had_when_a_party_is_renamed() {
    let mut h = two_parties();
    h.state_mut().matches.options.policies = ["greedy", "first"];
    let before = h.state().docs.party_b.name.clone();
    click(&mut h, "Watch one match");
    h.get_by_label("Play one match").click();
    h.step();
    wait(&mut h, |app| !app.matches.watch.running());
    h.get_by_label(&format!("Side B: {before}"));
    // Party B is renamed (and so changed) after the match: the match's sides keep its name.
    h.state_mut().docs.party_b.name = "Someone else".into();
    h.run();
    h.get_by_label_contains("The parties or options changed since this match");
    h.get_by_label(&format!("Side B: {before}"));
    assert!(h.query_by_label("Side B: Someone else").is_none());
}

/// Each side's health (skulled: 0) in party order, as the Watch view's side panel shows it.
fn healths(sides: &[Vec<deckwright::sim::iconica::MemberEnd>; 2]) -> Vec<Vec<u16>> {
    sides
        .iter()
        .map(|s| s.iter().map(|m| m.health).collect())
        .collect()
}

#[test]
fn a_watched_match_stepped_back_and_forth_shows_the_engine_state_at_each_step() {
    use deckwright::games::game::replay;
    use deckwright::games::iconica::engine::IconicaGame;
    let mut h = two_parties();
    h.state_mut().matches.options.policies = ["greedy", "first"];
    h.state_mut().matches.options.seed = 3;
    click(&mut h, "Watch one match");
    h.get_by_label("Play one match").click();
    h.step();
    wait(&mut h, |app| !app.matches.watch.running());
    let w = h.state().matches.watch.watched.clone().unwrap();
    let setup = setup_of(h.state());
    assert_eq!(w.turn_inputs.len(), w.turns.len());
    assert_eq!(w.turn_sides.len(), w.turns.len());
    assert!(w.turns.len() > 4);
    // The recorded inputs replay the same match (the log of `deckwright play`).
    let start = IconicaGame::new(&setup);
    let end = replay(&start, &w.inputs);
    assert_eq!(
        deckwright::sim::iconica::sides(&setup, end.state()),
        w.sides
    );
    click(&mut h, "Turn by turn");
    let mut shown = Vec::new();
    // Forward three turns, back two: each time the panel shows the engine's state after the
    // inputs of that turn.
    for key in [
        None,
        Some(Key::ArrowRight),
        Some(Key::ArrowRight),
        Some(Key::ArrowRight),
        Some(Key::ArrowLeft),
        Some(Key::ArrowLeft),
    ] {
        if let Some(k) = key {
            h.key_press(k);
            h.run();
        }
        let t = h.state().matches.watch.turn;
        shown.push(t);
        let at = replay(&start, &w.inputs[..w.turn_inputs[t]]);
        let engine = deckwright::sim::iconica::sides(&setup, at.state());
        assert_eq!(w.turn_sides[t], engine, "turn entry {t}");
        h.get_by_label(&format!("After {}", w.turns[t].heading));
        // The panel's figures are those of that step.
        for m in engine.iter().flatten().filter(|m| !m.skulled) {
            assert!(
                h.query_all_by_label(&format!("{} / {}", m.health, m.start))
                    .count()
                    >= 1,
                "{} at {} / {} in turn entry {t}",
                m.name,
                m.health,
                m.start
            );
        }
    }
    assert_eq!(shown, [0, 1, 2, 3, 2, 1]);
    // Each turn's Action Roll is drawn as its two dice, the roll of the log line.
    assert_eq!(w.turn_rolls.len(), w.turns.len());
    let t = h.state().matches.watch.turn;
    let (white, black) = w.turn_rolls[t].expect("turn 1 has an Action Roll");
    assert!(
        w.turns[t]
            .lines
            .iter()
            .any(|l| l.contains(&format!("white {white}")) && l.contains(&format!("black {black}"))),
        "{:?}",
        w.turns[t].lines
    );
    h.get_by_label("Action Roll");
    // The state does change over the match: the first and the last entries differ.
    assert_ne!(healths(&w.turn_sides[0]), healths(&w.sides));
}
