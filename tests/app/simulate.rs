//! The Match screen's Simulate view through the real app: Iconica's run of the two parties
//! and Iconoclasm's run give the core's figures (the same at any thread count) with the
//! win-rate chart and the histogram of match lengths; Iconica's field table is the core's,
//! sorts by a click on each header and exports to CSV, through the system's dialog or, when
//! none can open, the in-app path field; a run and a field can be cancelled.

use std::path::PathBuf;
use std::sync::Arc;

use deckwright::app::files::{self, Answer, Backend, Dialog, NoDialogs};
use deckwright::app::matches::MatchGame;
use deckwright::app::matches::simulate::FieldColumn;
use deckwright::app::{DeckwrightApp, Screen};
use deckwright::cards::{Card, CardLookup};
use deckwright::games::ai::Policy;
use deckwright::games::iconica::ai::PolicyKind;
use deckwright::games::iconica::model::Character;
use deckwright::sim;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;

use crate::support::app;

const A: [&str; 3] = [
    "ico-teodric-vale",
    "ico-anwen-halloway",
    "ico-gorm-ashcairn",
];
const B: [&str; 3] = ["ico-varek-solenne", "ico-kethra-voss", "ico-nyx-ellery"];

/// The app at `w` x `h` on the Match screen's Simulate view with two legal parties.
fn iconica(w: f32, h: f32) -> Harness<'static, DeckwrightApp> {
    let mut app = app();
    app.docs.party_a.name = "Wardens".into();
    app.docs.party_a.members = A.map(String::from).to_vec();
    app.docs.party_b.name = "Raiders".into();
    app.docs.party_b.members = B.map(String::from).to_vec();
    app.screen = Screen::Match;
    let mut h = crate::support::builder()
        .with_size(egui::vec2(w, h))
        .build_ui_state(|ui, app: &mut DeckwrightApp| app.ui_root(ui), app);
    h.run_steps(30);
    h
}

/// Steps frames until `done` holds (the run answers from its own thread).
fn wait(h: &mut Harness<'_, DeckwrightApp>, done: impl Fn(&DeckwrightApp) -> bool) {
    crate::support::wait_for(h, "the run's end", done);
    h.run_steps(30);
}

fn run_iconica(h: &mut Harness<'_, DeckwrightApp>, threads: usize) -> sim_view::Figures {
    h.state_mut().matches.sim.threads = threads;
    h.run_steps(30);
    h.get_by_label("Run").click();
    h.step();
    wait(h, |a| !a.matches.sim.running());
    h.state()
        .matches
        .sim
        .result
        .clone()
        .expect("a result")
        .figures
}

use deckwright::app::matches::sim_view;

#[test]
fn an_iconica_run_draws_its_chart_and_histogram_and_gives_the_core_s_figures_at_any_thread_count() {
    let mut h = iconica(1920.0, 1080.0);
    {
        let o = &mut h.state_mut().matches;
        o.options.policies = ["greedy", "random"];
        o.options.seed = 11;
        o.sim.games = 60;
    }
    let two = run_iconica(&mut h, 2);
    h.get_by_label("Win rates chart");
    h.get_by_label("Match lengths histogram");
    let one = run_iconica(&mut h, 1);
    assert_eq!(one, two, "the same figures on one thread and on two");

    // The core's run of the same match-up and seeds.
    let setup = deckwright::app::core::match_ready(
        &h.state().cat,
        &h.state().docs.party_a,
        &h.state().docs.party_b,
        h.state().matches.options.rules(),
    )
    .setup
    .unwrap();
    let never = std::sync::atomic::AtomicBool::new(false);
    let (pa, pb) = (PolicyKind::Greedy, PolicyKind::Random);
    let play = |i| sim::iconica::outcome_of(&setup, pa, pb, 11, i);
    let want = sim::run_tally(60, Some(1), play, |_| {}, &never)
        .unwrap()
        .unwrap();
    assert_eq!(two.games, 60);
    assert_eq!(
        (two.seats[0].1, two.seats[1].1),
        (want.wins[0], want.wins[1])
    );
    assert_eq!((two.draws, two.no_result), (want.draws, want.no_result));
    let endings: Vec<_> = want.endings().collect();
    assert_eq!(two.endings, endings);
    assert_eq!(
        two.endings.iter().map(|e| e.0).collect::<Vec<_>>(),
        ["victory", "turn_limit", "dice_exhausted"],
        "the endings by their stable names"
    );
    // The histogram holds every match at its own length.
    let mut lengths = std::collections::BTreeMap::new();
    for i in 0..60 {
        *lengths.entry(play(i).turns).or_insert(0u64) += 1;
    }
    assert_eq!(two.lengths, lengths);
    assert_eq!(two.lengths.values().sum::<u64>(), 60);

    // In words on the screen, as the core counts them.
    let (rate, (lo, hi)) = two.win_rate(0);
    let pct = |x: f64| format!("{:.1}%", x * 100.0);
    h.get_by_label_contains(&format!(
        "A (Wardens, greedy) won {} of 60 games: {} (95% CI {} to {})",
        want.wins[0],
        pct(rate),
        pct(lo),
        pct(hi)
    ));
    h.get_by_label_contains(&format!(
        "Draws: {} · no result: {}",
        want.draws, want.no_result
    ));
    for (name, _) in &endings {
        h.get_by_label(name);
    }
}

/// Every character's (id, parties, games, wins) in the field of the catalogue's characters
/// against party B, as `sim iconica --field` computes it.
fn core_field(app: &DeckwrightApp, games: u64, seed: u64) -> Vec<(String, usize, u64, u64)> {
    let pool: Vec<Character> = app
        .cat
        .all()
        .unwrap()
        .into_iter()
        .filter_map(|c| match c {
            Card::Iconica(c) => Some(c),
            _ => None,
        })
        .collect();
    let opponent: Vec<Character> = B
        .iter()
        .map(|id| match app.cat.card(id).unwrap().into_owned() {
            Card::Iconica(c) => c,
            _ => unreachable!(),
        })
        .collect();
    let parties = sim::iconica::field_parties(&pool, &opponent);
    let rules = app.matches.options.rules();
    let results: Vec<_> = parties
        .iter()
        .enumerate()
        .map(|(k, p)| {
            let members: Vec<Character> = p.iter().map(|&i| pool[i].clone()).collect();
            let setup = deckwright::games::iconica::engine::Setup::duel(&members, &opponent, rules)
                .unwrap();
            let s = sim::iconica::field_seed(seed, k);
            let f = PolicyKind::First;
            sim::run(
                games,
                Some(1),
                |i| sim::iconica::play_one(&setup, f, f, s, i),
                |_| {},
            )
            .unwrap()
        })
        .collect();
    sim::iconica::field_rows(pool.len(), &parties, &results)
        .iter()
        .map(|r| {
            (
                pool[r.character].id.clone(),
                r.parties,
                r.summary.games,
                r.summary.wins[0],
            )
        })
        .collect()
}

/// The app with a finished field (`policy` on both sides, 2 games a party, seed 5).
fn field_done(w: f32, h: f32, policy: &'static str) -> Harness<'static, DeckwrightApp> {
    let mut h = iconica(w, h);
    {
        let m = &mut h.state_mut().matches;
        m.options.policies = [policy, policy];
        m.options.seed = 5;
        m.sim.field.games = 2;
    }
    h.run_steps(30);
    settle_click(&mut h, "Run field");
    wait(&mut h, |a| !a.matches.sim.field.running());
    assert!(h.state().matches.sim.field.table.is_some(), "a field table");
    h
}

/// A backend that answers every dialog with one path, and counts the questions.
struct Answers(PathBuf, std::sync::Mutex<Vec<Dialog>>);

impl Backend for Answers {
    fn ask(&self, d: &Dialog) -> Answer {
        self.1.lock().unwrap().push(d.clone());
        Answer::Chosen(vec![self.0.clone()])
    }
}

fn read_csv(path: &std::path::Path) -> Vec<Vec<String>> {
    let mut r = csv::Reader::from_path(path).unwrap();
    assert_eq!(
        r.headers().unwrap().iter().collect::<Vec<_>>(),
        [
            "id",
            "name",
            "parties",
            "games",
            "wins",
            "win_rate",
            "ci95_low",
            "ci95_high"
        ]
    );
    r.records()
        .map(|x| x.unwrap().iter().map(String::from).collect())
        .collect()
}

/// Clicks `label` and lets the table settle (its columns take the new widths over frames).
fn settle_click(h: &mut Harness<'_, DeckwrightApp>, label: &str) {
    h.get_by_label(label).click();
    h.run_steps(30);
}

#[test]
fn the_field_table_is_the_core_s_sorts_by_each_header_and_exports_to_csv() {
    let mut h = field_done(1920.0, 1080.0, "first");
    let want = core_field(h.state(), 2, 5);
    let field = &h.state().matches.sim.field;
    let got: Vec<_> = field
        .sorted()
        .iter()
        .map(|r| (r.id.clone(), r.parties, r.summary.games, r.summary.wins[0]))
        .collect();
    let mut a = got.clone();
    let mut b = want.clone();
    a.sort();
    b.sort();
    assert_eq!(a, b, "each character's figures are the core's");
    assert!(want.len() > 3, "{} characters in the field", want.len());

    // The header sorts: by name A to Z, by wins highest first, again lowest first.
    settle_click(&mut h, "Name");
    let names: Vec<String> = h
        .state()
        .matches
        .sim
        .field
        .sorted()
        .iter()
        .map(|r| r.name.clone())
        .collect();
    let mut sorted = names.clone();
    sorted.sort();
    assert_eq!(names, sorted);
    h.get_by_label("Name (A to Z)");
    settle_click(&mut h, "Wins");
    let wins = |h: &Harness<'_, DeckwrightApp>| -> Vec<u64> {
        h.state()
            .matches
            .sim
            .field
            .sorted()
            .iter()
            .map(|r| r.summary.wins[0])
            .collect()
    };
    let w = wins(&h);
    assert!(w.windows(2).all(|p| p[0] >= p[1]), "{w:?}");
    settle_click(&mut h, "Wins (high first)");
    let w = wins(&h);
    assert!(w.windows(2).all(|p| p[0] <= p[1]), "{w:?}");
    assert_eq!(h.state().matches.sim.field.sort, (FieldColumn::Wins, false));
    // The first row shown is the first of the order.
    let first = h.state().matches.sim.field.sorted()[0].name.clone();
    let header = h.get_by_label("Wins (low first)").rect();
    let below = h
        .get_all_by_label(&first)
        .map(|n| n.rect())
        .find(|r| r.top() > header.bottom())
        .expect("the first row under the headers");
    assert!(below.top() - header.bottom() < 40.0, "{below:?} {header:?}");

    // Export CSV through the (stand-in) system dialog, read back: the rows shown, in order.
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("field.csv");
    let answers = Arc::new(Answers(out.clone(), Default::default()));
    files::set_backend(&h.ctx, answers.clone());
    settle_click(&mut h, "Export CSV…");
    let asked = answers.1.lock().unwrap().clone();
    assert_eq!(asked.len(), 1);
    assert_eq!(asked[0].file_name.as_deref(), Some("field.csv"));
    let rows = read_csv(&out);
    let shown = h.state().matches.sim.field.sorted();
    assert_eq!(rows.len(), shown.len());
    for (row, r) in rows.iter().zip(&shown) {
        assert_eq!(row[0], r.id);
        assert_eq!(row[1], r.name);
        assert_eq!(row[2], r.parties.to_string());
        assert_eq!(row[3], r.summary.games.to_string());
        assert_eq!(row[4], r.summary.wins[0].to_string());
        let rate: f64 = row[5].parse().unwrap();
        assert!((rate - r.summary.win_rate_a()).abs() < 1e-6);
        let lo: f64 = row[6].parse().unwrap();
        assert!((lo - r.summary.ci95_a().0).abs() < 1e-6);
    }
    assert!(
        h.state().status().contains("Wrote the field table"),
        "{}",
        h.state().status()
    );
}

/// Replaces the in-app path field's text with `text`.
fn type_path(h: &mut Harness<'_, DeckwrightApp>, text: &str) {
    h.get_by_label("Path").focus();
    h.run_steps(30);
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    h.run_steps(30);
    h.get_by_label("Path").type_text(text);
    h.run_steps(30);
}

#[test]
fn with_no_dialog_the_csv_export_asks_for_a_path_in_the_app_and_says_why() {
    let mut h = field_done(1024.0, 700.0, "first");
    files::set_backend(&h.ctx, Arc::new(NoDialogs));
    settle_click(&mut h, "Export CSV…");
    assert!(
        files::path_field_open(&h.ctx),
        "the in-app path field opens"
    );
    assert!(
        h.state().status().contains("The file dialog cannot open"),
        "{}",
        h.state().status()
    );
    h.get_by_label_contains("Relative to");
    // A folder that does not exist is refused, and said.
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("nowhere").join("field.csv");
    type_path(&mut h, bad.to_str().unwrap());
    settle_click(&mut h, "OK");
    h.get_by_label_contains("does not exist");
    assert!(files::path_field_open(&h.ctx));
    // A good path without an extension takes the filter's, and the table is written.
    let good = dir.path().join("table");
    type_path(&mut h, good.to_str().unwrap());
    settle_click(&mut h, "OK");
    assert!(!files::path_field_open(&h.ctx), "the path field closes");
    let rows = read_csv(&dir.path().join("table.csv"));
    assert_eq!(rows.len(), h.state().matches.sim.field.sorted().len());
}

#[test]
fn with_no_dialog_the_file_menu_asks_for_a_path_in_the_app() {
    let mut h = iconica(1280.0, 800.0);
    files::set_backend(&h.ctx, Arc::new(NoDialogs));
    settle_click(&mut h, "File");
    settle_click(&mut h, "Export collection CSV…");
    assert!(files::path_field_open(&h.ctx));
    h.get_by_label("Save as");
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("owned.csv");
    type_path(&mut h, out.to_str().unwrap());
    settle_click(&mut h, "OK");
    assert!(out.is_file(), "the collection CSV is written");
    // Cancel closes the field and does nothing.
    settle_click(&mut h, "File");
    settle_click(&mut h, "Import collection CSV…");
    assert!(files::path_field_open(&h.ctx));
    h.get_by_label("Open a file");
    settle_click(&mut h, "Cancel");
    assert!(!files::path_field_open(&h.ctx));
}

#[test]
fn a_field_and_a_run_can_be_cancelled() {
    let mut h = iconica(1280.0, 800.0);
    {
        let m = &mut h.state_mut().matches;
        m.options.policies = ["mcts", "mcts"];
        m.sim.field.games = 10_000;
    }
    h.run_steps(30);
    settle_click(&mut h, "Run field");
    assert!(h.state().matches.sim.field.running());
    settle_click(&mut h, "Cancel field");
    wait(&mut h, |a| !a.matches.sim.field.running());
    h.get_by_label("Field cancelled: no result.");
    assert!(h.state().matches.sim.field.table.is_none());
}

#[test]
fn an_iconoclasm_run_gives_the_core_s_figures_in_the_shared_view_and_can_be_cancelled() {
    let mut h = iconica(1920.0, 1080.0);
    settle_click(&mut h, "Iconoclasm");
    assert_eq!(h.state().matches.game, MatchGame::Iconoclasm);
    settle_click(&mut h, "Simulate");
    h.state_mut().matches.iconoclasm.sim.games = 30;
    h.run_steps(30);
    settle_click(&mut h, "Run");
    wait(&mut h, |a| !a.matches.iconoclasm.simulating());
    let got = h
        .state()
        .matches
        .iconoclasm
        .sim
        .result
        .clone()
        .expect("a result")
        .figures;
    h.get_by_label("Win rates chart");
    h.get_by_label("Match lengths histogram");

    // The same run straight through the core.
    let (deck, table) = deckwright::app::core::iconoclasm_deck(&h.state().cat).unwrap();
    let run = deckwright::sim::iconoclasm::Run {
        deck,
        table,
        players: 2,
        goal: deckwright::games::iconoclasm::engine::Goal::Dominance,
        policies: vec![Policy::Greedy; 2],
    };
    let never = std::sync::atomic::AtomicBool::new(false);
    let want = sim::run_tally(30, Some(1), |i| run.outcome(1, i).unwrap(), |_| {}, &never)
        .unwrap()
        .unwrap();
    assert_eq!(got.games, 30);
    assert_eq!(
        (got.seats[0].1, got.seats[1].1),
        (want.wins[0], want.wins[1])
    );
    assert_eq!((got.draws, got.no_result), (want.draws, want.no_result));
    assert_eq!(got.endings, want.endings().collect::<Vec<_>>());
    assert_eq!(got.turns, want.turns);
    assert_eq!(got.lengths.values().sum::<u64>(), 30);
    let (rate, (lo, hi)) = got.win_rate(0);
    h.get_by_label_contains(&format!(
        "Player 1 (greedy) won {} of 30 games: {:.1}% (95% CI {:.1}% to {:.1}%)",
        want.wins[0],
        rate * 100.0,
        lo * 100.0,
        hi * 100.0
    ));

    // A long run stops on Cancel and keeps the last figures.
    h.state_mut().matches.iconoclasm.sim.games = 1_000_000;
    h.run_steps(30);
    settle_click(&mut h, "Run");
    assert!(h.state().matches.iconoclasm.simulating());
    settle_click(&mut h, "Cancel");
    wait(&mut h, |a| !a.matches.iconoclasm.simulating());
    h.get_by_label_contains("Cancelled: no result");
    assert_eq!(
        h.state()
            .matches
            .iconoclasm
            .sim
            .result
            .as_ref()
            .unwrap()
            .figures,
        got
    );
}

/// The Simulate view at 1920 x 1080 with a run and a field, as a snapshot image
/// (`tests/snapshots/sim-plot.png`, copied to `docs/screenshots/sim-plot.png`).
#[test]
fn sim_plot_snapshot() {
    let mut h = field_done(1920.0, 1080.0, "greedy");
    h.state_mut().matches.sim.games = 400;
    h.run_steps(30);
    let _ = run_iconica(&mut h, 2);
    // The speed varies from run to run; the picture should not.
    h.state_mut()
        .matches
        .sim
        .view
        .result
        .as_mut()
        .unwrap()
        .seconds = 1.0;
    h.run_steps(30);
    h.snapshot("sim-plot");
}

/// Regression: the match file row's Browse… called the system dialog directly, so a test's
/// backend was bypassed and no portal meant only "No file was chosen".
#[test]
fn the_match_file_row_browses_through_the_app_s_dialog_backend() {
    let mut h = iconica(1280.0, 800.0);
    h.state_mut().matches.game = MatchGame::Iconoclasm;
    h.run_steps(5);
    files::set_backend(&h.ctx, Arc::new(NoDialogs));
    settle_click(&mut h, "Browse…");
    h.get_by_label_contains("The file dialog cannot open: file dialogs are turned off");
    assert_eq!(h.state().matches.iconoclasm.view.path, "");
    let chosen = PathBuf::from("/tmp/chosen.match.toml");
    let backend = Arc::new(Answers(chosen.clone(), Default::default()));
    files::set_backend(&h.ctx, backend.clone());
    settle_click(&mut h, "Browse…");
    assert_eq!(
        h.state().matches.iconoclasm.view.path,
        chosen.display().to_string()
    );
    let asked = backend.1.lock().unwrap();
    assert_eq!(asked.len(), 1);
    assert_eq!(asked[0].file_name.as_deref(), Some("match.match.toml"));
}
