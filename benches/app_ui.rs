//! Frame times of the desktop app, headless: the browser listing 100,000 cards (idle, and
//! while the user types in the search box, the query running on the worker thread) and
//! the party builder. A frame is egui's pass over the app plus tessellation (what the CPU
//! does before the GPU draws).
//!
//!   CARGO_TARGET_DIR=/work/target-release cargo bench --bench app_ui

use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use deckwright::app::{DeckwrightApp, Screen};
use deckwright::catalogue::Catalogue;

const CARDS: usize = 100_000;

struct Frames {
    ctx: egui::Context,
    app: DeckwrightApp,
    size: egui::Vec2,
}

impl Frames {
    fn frame(&mut self, events: Vec<egui::Event>) {
        let input = egui::RawInput {
            screen_rect: Some(egui::Rect::from_min_size(egui::Pos2::ZERO, self.size)),
            events,
            ..Default::default()
        };
        let app = &mut self.app;
        let mut out = self.ctx.run_ui(input, |ui| app.ui_root(ui));
        // A window would upload these to the GPU; here they are consumed.
        out.textures_delta.clear();
        let prims = self.ctx.tessellate(out.shapes, out.pixels_per_point);
        std::hint::black_box(prims);
    }
}

fn bench(c: &mut Criterion) {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("bench.sqlite");
    {
        let mut cat = Catalogue::open(&path).expect("catalogue");
        deckwright::catalogue::synthetic::fill(&mut cat, CARDS as u64, 7).expect("fill");
    }
    let cat = Catalogue::open(&path).expect("catalogue");
    let mut f = Frames {
        ctx: egui::Context::default(),
        app: DeckwrightApp::with_path(cat, Some(path.clone())),
        size: egui::vec2(1280.0, 800.0),
    };
    // Until the worker has listed every card.
    for _ in 0..2000 {
        f.frame(Vec::new());
        if f.app.browser.rows().len() >= CARDS {
            break;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    assert!(
        f.app.browser.rows().len() >= CARDS,
        "the browser lists {} cards",
        f.app.browser.rows().len()
    );
    let id = f.app.browser.rows()[CARDS / 2].id.clone();
    f.app.browser.select(&id);
    f.frame(Vec::new());

    let mut g = c.benchmark_group("app_frame");
    g.measurement_time(Duration::from_secs(3)).sample_size(20);
    g.bench_function("browser_100k_idle", |b| b.iter(|| f.frame(Vec::new())));
    g.bench_function("browser_100k_scroll", |b| {
        b.iter(|| {
            f.frame(vec![
                egui::Event::PointerMoved(egui::pos2(400.0, 400.0)),
                egui::Event::MouseWheel {
                    source: egui::MouseWheelSource::Wheel,
                    unit: egui::MouseWheelUnit::Point,
                    delta: egui::vec2(0.0, -120.0),
                    phase: egui::TouchPhase::Move,
                    modifiers: egui::Modifiers::NONE,
                },
            ])
        })
    });
    f.app.browser.focus_search = true;
    f.frame(Vec::new());
    let mut n = 0u32;
    g.bench_function("browser_100k_typing", |b| {
        b.iter(|| {
            n += 1;
            // Type a letter, or clear the box now and then so results keep coming.
            let ev = if n.is_multiple_of(4) {
                vec![
                    egui::Event::Key {
                        key: egui::Key::A,
                        physical_key: None,
                        pressed: true,
                        repeat: false,
                        modifiers: egui::Modifiers::COMMAND,
                    },
                    egui::Event::Key {
                        key: egui::Key::Backspace,
                        physical_key: None,
                        pressed: true,
                        repeat: false,
                        modifiers: egui::Modifiers::NONE,
                    },
                ]
            } else {
                vec![egui::Event::Text(["g", "r", "u"][(n % 3) as usize].into())]
            };
            f.frame(ev)
        })
    });
    f.app.screen = Screen::Party;
    f.app.party.match_mode = true;
    f.app.docs.party_a.members = vec![
        "ico-anwen-halloway".into(),
        "ico-kethra-voss".into(),
        "ico-grumbolt".into(),
    ];
    f.app.docs.party_b.members = vec![
        "ico-gorm-ashcairn".into(),
        "ico-grumbolt".into(),
        "ico-nyx-ellery".into(),
    ];
    f.frame(Vec::new());
    g.bench_function("party_builder_match", |b| b.iter(|| f.frame(Vec::new())));
    g.finish();
}

/// The Iconoclasm board at 1920 x 1080, half-way through a game computer against computer
/// (the position replayed from the recorded inputs every frame, the log beside it); the
/// Arcadia board likewise (its position replayed likewise, the log beside it).
fn boards(c: &mut Criterion) {
    use deckwright::app::matches::MatchGame;
    use deckwright::games::ai::Policy;
    use deckwright::games::game::Turn;
    use deckwright::games::session::Seat as SessionSeat;
    let mut f = Frames {
        ctx: egui::Context::default(),
        app: DeckwrightApp::new(Catalogue::open_in_memory().expect("catalogue")),
        size: egui::vec2(1920.0, 1080.0),
    };
    f.app.screen = Screen::Match;
    f.app.matches.game = MatchGame::Iconoclasm;
    let view = &mut f.app.matches.iconoclasm.view;
    view.seats = vec![SessionSeat::Computer(Policy::Greedy); 4];
    view.new_match(&f.app.cat);
    f.frame(Vec::new());
    let p = f
        .app
        .matches
        .iconoclasm
        .view
        .session
        .as_mut()
        .expect("dealt");
    assert!(
        matches!(p.latest().turn(), Turn::Over),
        "the computer played the game out"
    );
    p.at = p.len() / 2;
    f.frame(Vec::new());
    let mut g = c.benchmark_group("app_frame");
    g.measurement_time(Duration::from_secs(3)).sample_size(20);
    g.bench_function("iconoclasm_board_1920", |b| b.iter(|| f.frame(Vec::new())));

    // Arcadia: the leagues laid in play, half-way through a match computer against computer.
    use deckwright::app::docs::Slot;
    use deckwright::app::files;
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("examples/arcadia/legal-laid-in-play.setup.toml");
    for a in files::setup_characters(&path) {
        f.app.apply(a);
    }
    f.app.apply(files::open_doc_path(&path, Slot::Setup));
    f.app.matches.game = MatchGame::Arcadia;
    let view = &mut f.app.matches.arcadia.view;
    view.seats = vec![SessionSeat::Computer(Policy::Greedy); 2];
    view.board.setup = f.app.docs.setup.clone();
    view.new_match(&f.app.cat);
    f.frame(Vec::new());
    let p = f
        .app
        .matches
        .arcadia
        .view
        .session
        .as_mut()
        .expect("started");
    assert!(
        matches!(p.latest().turn(), Turn::Over),
        "the computer played the match out"
    );
    p.at = p.len() / 2;
    f.frame(Vec::new());
    g.bench_function("arcadia_board_1920", |b| b.iter(|| f.frame(Vec::new())));

    // Ruunara: the eliminate mission for the example squad, half-way through, the heroes
    // played by the computer.
    f.app.matches.game = MatchGame::Ruunara;
    let view = &mut f.app.matches.ruunara.view;
    view.seats[0] = SessionSeat::Computer(Policy::Greedy);
    view.new_match(&f.app.cat);
    let over = |app: &DeckwrightApp| {
        app.matches
            .ruunara
            .view
            .session
            .as_ref()
            .is_some_and(|s| matches!(s.latest().turn(), Turn::Over))
    };
    // The computer's turn answers in its own time.
    for _ in 0..60_000 {
        f.frame(Vec::new());
        if over(&f.app) {
            break;
        }
        std::thread::sleep(Duration::from_millis(1));
    }
    assert!(over(&f.app), "the computer played the mission out");
    let p = f
        .app
        .matches
        .ruunara
        .view
        .session
        .as_mut()
        .expect("deployed");
    p.at = p.len() / 2;
    f.frame(Vec::new());
    g.bench_function("ruunara_board_1920", |b| b.iter(|| f.frame(Vec::new())));
    g.finish();
}

/// The app on the Match screen at 1920 x 1080 with the two example parties.
fn match_screen() -> Frames {
    let mut f = Frames {
        ctx: egui::Context::default(),
        app: DeckwrightApp::new(Catalogue::open_in_memory().expect("catalogue")),
        size: egui::vec2(1920.0, 1080.0),
    };
    f.app.screen = Screen::Match;
    f.app.docs.party_a.members = vec![
        "ico-teodric-vale".into(),
        "ico-anwen-halloway".into(),
        "ico-gorm-ashcairn".into(),
    ];
    f.app.docs.party_b.members = vec![
        "ico-varek-solenne".into(),
        "ico-kethra-voss".into(),
        "ico-nyx-ellery".into(),
    ];
    f.frame(Vec::new());
    f
}

/// Frames until `done` holds (a background job answers in its own time).
fn until(f: &mut Frames, done: impl Fn(&DeckwrightApp) -> bool) {
    for _ in 0..60_000 {
        f.frame(Vec::new());
        if done(&f.app) {
            f.frame(Vec::new());
            return;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    panic!("the job did not finish");
}

/// The Iconica watch view's board at 1920 x 1080, stepped to the middle of a match; and the
/// Simulate view with a 1000-game run's chart and histogram and the field table.
fn match_views(c: &mut Criterion) {
    use deckwright::app::matches::View;
    let mut f = match_screen();
    let rules = f.app.matches.options.rules();
    let setup = deckwright::app::core::match_ready(
        &f.app.cat,
        &f.app.docs.party_a,
        &f.app.docs.party_b,
        rules,
    )
    .setup
    .expect("the example parties are legal");
    let options = f.app.matches.options.clone();
    let names = ["Wardens".to_string(), "Raiders".to_string()];
    f.app.matches.view = View::Watch;
    f.app
        .matches
        .watch
        .start(&f.ctx, setup.clone(), &options, String::new(), names);
    until(&mut f, |a| a.matches.watch.watched.is_some());
    let w = &mut f.app.matches.watch;
    w.step = true;
    w.turn = w.watched.as_ref().expect("watched").turns.len() / 2;
    f.frame(Vec::new());
    let mut g = c.benchmark_group("app_frame");
    g.measurement_time(Duration::from_secs(3)).sample_size(20);
    g.bench_function("iconica_board_1920", |b| b.iter(|| f.frame(Vec::new())));

    f.app.matches.view = View::Simulate;
    f.app.matches.sim.games = 1000;
    f.app.matches.sim.start(
        &f.ctx,
        setup,
        &options,
        String::new(),
        ["Wardens", "Raiders"],
    );
    until(&mut f, |a| !a.matches.sim.running());
    let party_b = f.app.docs.party_b.members.clone();
    f.app.matches.sim.field.games = 2;
    f.app
        .matches
        .sim
        .field
        .start(&f.ctx, &f.app.cat, &party_b, &options, 2, String::new());
    until(&mut f, |a| !a.matches.sim.field.running());
    assert!(f.app.matches.sim.result.is_some() && f.app.matches.sim.field.table.is_some());
    g.bench_function("simulate_results_1920", |b| b.iter(|| f.frame(Vec::new())));
    g.finish();
}

criterion_group!(benches, bench, boards, match_views);
criterion_main!(benches);
