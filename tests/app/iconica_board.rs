//! Iconica on the Match screen's shared match view through the real app: a person plays a
//! match to the end by clicking characters and targets on the board; Undo takes back a
//! decision and the match replays from the seed; a watched match stepped decision by decision
//! shows the engine's state at each step; a saved match reopens and replays the same log; a
//! draft offers only picks that keep the party legal and starts the match with the first
//! picker.

use deckwright::app::DeckwrightApp;
use deckwright::app::matches::iconica_board::{Timeline, option_slot, position};
use deckwright::app::matches::play::Start;
use deckwright::games::ai::Policy;
use deckwright::games::dice::ScriptDice;
use deckwright::games::game::{Game, Turn, replay};
use deckwright::games::iconica::draft::Draft;
use deckwright::games::iconica::engine::{IconicaGame, Setup};
use deckwright::games::iconica::matchfile;
use deckwright::games::iconica::model::Faction;
use deckwright::games::record::MatchRecord;
use deckwright::games::session::{Seat, Session};
use egui::Key;
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};

use crate::support::{app, click, harness_of_height, two_parties};

/// The Play view's match.
fn session(app: &DeckwrightApp) -> &Session {
    app.matches.play.view.session.as_ref().expect("a match")
}

/// The Watch view's match on the board.
fn watched(app: &DeckwrightApp) -> &Session {
    app.matches
        .watch
        .view
        .session
        .as_ref()
        .expect("a match on the board")
}

/// The setup of a session's match.
fn setup(s: &Session) -> Setup {
    position(s.game_at(0).as_ref()).unwrap().setup().clone()
}

/// The log of a session, its lines' text only.
fn lines(s: &Session) -> Vec<String> {
    s.lines().map(|(_, (_, l))| l.clone()).collect()
}

/// A match started on the Play view with seed `seed` (player 1 a person, player 2 greedy),
/// the computer's moves at once.
fn play_started(seed: u64) -> Harness<'static, DeckwrightApp> {
    let mut h = two_parties();
    click(&mut h, "Play against the computer");
    let view = &mut h.state_mut().matches.play.view;
    view.seed = seed;
    view.board.at_once = true;
    assert_eq!(
        view.seats[..2],
        [Seat::Person, Seat::Computer(Policy::Greedy)]
    );
    click(&mut h, "New match");
    assert!(
        h.state().matches.play.view.session.is_some(),
        "a match started"
    );
    h
}

/// Steps frames until `done` holds (the worker thread answers in its own time).
fn wait(h: &mut Harness<'_, DeckwrightApp>, done: impl Fn(&DeckwrightApp) -> bool) {
    crate::support::wait_for(h, "the worker's answer", done);
    h.step();
}

/// One decision of the person: the first option about a character is clicked on the board
/// (its card), any other decision is taken with key 1. Returns the option taken and whether
/// it was a click on the board.
fn decide(h: &mut Harness<'_, DeckwrightApp>) -> (usize, bool) {
    let s = session(h.state());
    let g = s.game_at(s.at);
    let g = position(g.as_ref()).unwrap();
    let on_board = g.asked().and_then(|a| {
        a.options
            .iter()
            .enumerate()
            .find_map(|(i, o)| option_slot(*o).map(|s| (i, s)))
    });
    match on_board {
        Some((i, slot)) => {
            let name = g.setup().label(usize::from(slot)).to_string();
            h.get_by_label(&format!("{name} on the board")).click();
            h.run();
            (i, true)
        }
        None => {
            h.key_press(Key::Num1);
            h.run();
            (0, false)
        }
    }
}

#[test]
fn a_person_plays_an_iconica_match_on_the_board_to_the_end_by_clicking_characters_and_targets() {
    let mut h = play_started(5);
    let mut taken = Vec::new();
    let mut clicks = 0;
    for _ in 0..2000 {
        let s = session(h.state());
        if matches!(s.latest().turn(), Turn::Over) {
            break;
        }
        assert_eq!(s.person_to_move(), Some(0), "only player 1 (you) waits");
        assert_eq!(s.at, s.len(), "the latest step is shown");
        let before = s.len();
        let (i, click) = decide(&mut h);
        clicks += usize::from(click);
        assert_eq!(
            session(h.state()).inputs()[before],
            i,
            "the click took that option"
        );
        taken.push((before, i));
    }
    let s = session(h.state());
    assert!(matches!(s.latest().turn(), Turn::Over), "the match ends");
    assert!(clicks >= 5, "{clicks} decisions were clicks on the board");
    let log = lines(s);
    let end = log.last().unwrap();
    assert!(end.contains("wins") || end.contains("draw"), "{end}");
    assert!(h.query_all_by_label(end).count() >= 1, "the end is told");
    // The engine, replaying the inputs, agrees on every step the board paints, and each of
    // the person's decisions was player 1's.
    let setup = setup(s);
    let t = Timeline::build(&setup, s.inputs());
    let mut e = IconicaGame::new(&setup);
    for (k, &input) in s.inputs().iter().enumerate() {
        assert_eq!(e.state(), &t.steps[k].state, "step {k}");
        if let Some(&(_, i)) = taken.iter().find(|(at, _)| *at == k) {
            assert!(matches!(Game::turn(&e), Turn::Seat { seat: 0, .. }));
            assert_eq!(input, i);
        }
        e = replay(&e, &[input]);
    }
    assert!(matches!(Game::turn(&e), Turn::Over));
    assert_eq!(e.state(), position(s.latest()).unwrap().state());
}

#[test]
fn undo_takes_back_the_person_s_last_decision_and_the_match_replays_from_the_seed() {
    let mut h = play_started(8);
    for _ in 0..4 {
        decide(&mut h);
    }
    let s = session(h.state());
    let (inputs, n_lines) = (s.inputs().to_vec(), lines(s).len());
    click(&mut h, "Undo");
    let s = session(h.state());
    assert!(s.len() < inputs.len(), "the decision is taken back");
    assert_eq!(
        s.inputs()[..],
        inputs[..s.len()],
        "nothing before it changes"
    );
    assert_eq!(s.person_to_move(), Some(0), "the person decides again");
    assert!(lines(s).len() < n_lines);
    // The same decision again plays the same match (dice and computer from the seed).
    let again = inputs[s.len()];
    h.key_press(match again {
        0 => Key::Num1,
        1 => Key::Num2,
        2 => Key::Num3,
        3 => Key::Num4,
        _ => Key::Num5,
    });
    h.run();
    assert_eq!(session(h.state()).inputs(), inputs);
}

/// The Watch view's match of seed 3 (greedy against first), shown decision by decision.
fn watched_by_decision() -> Harness<'static, DeckwrightApp> {
    let mut h = two_parties();
    h.state_mut().matches.options.policies = ["greedy", "first"];
    h.state_mut().matches.options.seed = 3;
    click(&mut h, "Watch one match");
    h.get_by_label("Play one match").click();
    h.step();
    wait(&mut h, |app| !app.matches.watch.running());
    click(&mut h, "Decision by decision");
    h
}

#[test]
fn a_watched_match_stepped_decision_by_decision_shows_the_engine_state_at_each_step() {
    let mut h = watched_by_decision();
    let w = h.state().matches.watch.watched.clone().unwrap();
    let s = watched(h.state());
    assert_eq!(
        s.inputs(),
        w.inputs,
        "the match played is the one on the board"
    );
    assert_eq!(s.at, 0, "shown from its start");
    assert_eq!(
        s.seats,
        [
            Seat::Computer(Policy::Greedy),
            Seat::Computer(Policy::First)
        ]
    );
    let setup = setup(s);
    let start = IconicaGame::new(&setup);
    let mut shown = Vec::new();
    let keys = [Key::ArrowRight; 12]
        .into_iter()
        .chain([Key::ArrowLeft; 5])
        .chain([Key::ArrowRight; 2]);
    for key in keys {
        h.key_press(key);
        h.run();
        let s = watched(h.state());
        shown.push(s.at);
        let engine = replay(&start, &s.inputs()[..s.at]);
        let g = s.game_at(s.at);
        assert_eq!(
            position(g.as_ref()).unwrap().state(),
            engine.state(),
            "step {}",
            s.at
        );
        h.get_by_label(&format!("Step {} of {}", s.at, s.len()));
        // The step's log lines are those the engine logs for that input.
        let mut e = start.clone();
        let mut log = Vec::new();
        for &i in &s.inputs()[..s.at] {
            log.clear();
            e.apply_logged(i, &mut log);
        }
        let got: Vec<&str> = s
            .lines()
            .filter(|(k, _)| *k == s.at)
            .map(|(_, (_, l))| l.as_str())
            .collect();
        let want: Vec<String> = log.iter().map(|e| e.text(&setup)).collect();
        assert_eq!(got, want, "step {}", s.at);
    }
    assert_eq!(shown[11], 12);
    assert_eq!(shown[16], 7);
    assert_eq!(shown[18], 9);
    // The turn's Action Roll is the one the board shows once rolled.
    let s = watched(h.state());
    let t = Timeline::build(&setup, s.inputs());
    let rolled = t.steps.iter().take(s.at + 1).any(|s| s.roll.is_some());
    assert!(rolled, "an Action Roll within the first steps");
}

#[test]
fn a_saved_match_reopens_and_replays_the_same_log() {
    let mut h = play_started(11);
    for _ in 0..400 {
        if matches!(session(h.state()).latest().turn(), Turn::Over) {
            break;
        }
        h.key_press(Key::Num1);
        h.run();
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("duel.match.toml");
    h.state_mut().matches.play.view.path = path.display().to_string();
    h.run();
    click(&mut h, "Save match");
    let s = session(h.state());
    let (inputs, log) = (s.inputs().to_vec(), lines(s));
    let end = *position(s.latest()).unwrap().state();
    // A small TOML file: the game, its seats, seed, inputs and options.
    let text = std::fs::read_to_string(&path).unwrap();
    let r = MatchRecord::parse(&text).unwrap();
    assert_eq!(r.game, "iconica");
    assert_eq!(r.seed, 11);
    assert_eq!(r.seats, ["person", "greedy"]);
    assert_eq!(r.inputs, inputs);
    // The six characters' cards are kept, so the file replays without the catalogue.
    assert!(r.options["cards"].as_array().unwrap().len() == 6);
    assert!(text.len() < 64 * 1024, "{} bytes", text.len());
    let replayed = deckwright::games::registry::replay(&r, None, &Vec::new()).unwrap();
    assert_eq!(
        replayed
            .log
            .iter()
            .map(|(_, l)| l.clone())
            .collect::<Vec<_>>(),
        log
    );
    // Another app opens it.
    let mut h = two_parties();
    click(&mut h, "Play against the computer");
    h.state_mut().matches.play.view.path = path.display().to_string();
    h.run();
    click(&mut h, "Open match");
    let s = session(h.state());
    assert_eq!(s.inputs(), inputs);
    assert_eq!(lines(s), log);
    assert_eq!(*position(s.latest()).unwrap().state(), end);
    assert_eq!(s.seats, [Seat::Person, Seat::Computer(Policy::Greedy)]);
    // A damaged file is refused with a message, and the open match stays.
    let mut bad = r.clone();
    bad.inputs.push(99);
    let bad_path = dir.path().join("bad.match.toml");
    bad.save(&bad_path).unwrap();
    h.state_mut().matches.play.view.path = bad_path.display().to_string();
    h.run();
    click(&mut h, "Open match");
    h.get_by_label_contains("Not opened");
    assert_eq!(session(h.state()).inputs(), inputs);
}

#[test]
fn a_draft_offers_legal_picks_only_and_starts_the_match_with_the_first_picker() {
    let mut h = harness_of_height(app(), 900.0);
    h.run();
    click(&mut h, "Match");
    click(&mut h, "Play against the computer");
    click(&mut h, "Draft");
    assert_eq!(h.state().matches.play.start, Start::Draft);
    h.state_mut().matches.play.view.seed = 4;
    click(&mut h, "New draft");
    h.get_by_label_contains("first and play");
    for _ in 0..3 {
        let d = h.state().matches.play.draft.draft.clone().unwrap();
        assert_eq!(d.to_pick(), Some(0), "the computer picked in its turns");
        let legal = d.legal();
        // Every offered pick is enabled, every other is not.
        for (i, c) in d.pool.iter().enumerate().filter(|(i, _)| !d.taken(*i)) {
            let disabled = h.get_by_label(&c.name).accesskit_node().is_disabled();
            assert_eq!(!disabled, legal.contains(&i), "{}", c.name);
        }
        let last = *legal.last().unwrap();
        click(&mut h, &d.pool[last].name.clone());
    }
    let d = h.state().matches.play.draft.draft.clone().unwrap();
    assert!(d.done());
    click(&mut h, "Play the drafted parties");
    let s = session(h.state());
    // The first picker is side A (player 1); the person's seat is where its picks went.
    let person = if d.first == 0 { 0 } else { 1 };
    assert_eq!(s.seats[person], Seat::Person);
    assert_eq!(s.seats[1 - person], Seat::Computer(Policy::Greedy));
    let ids: Vec<&str> = d.picks[0].iter().map(|&i| d.pool[i].id.as_str()).collect();
    let parties = matchfile::parties_of(&s.options).unwrap();
    assert_eq!(parties[person].1, ids);
    // The board shows the drafted characters.
    h.get_by_label(&format!("{} on the board", d.pool[d.picks[0][0]].name));
}

/// The Draft view of a new draft with `seed`, the computer drafting greedily, at 1024 x 700.
fn new_draft(seed: u64) -> Harness<'static, DeckwrightApp> {
    let mut h = harness_of_height(app(), 700.0);
    h.set_size(egui::vec2(1024.0, 700.0));
    h.run();
    click(&mut h, "Match");
    click(&mut h, "Play against the computer");
    click(&mut h, "Draft");
    h.state_mut().matches.play.view.seed = seed;
    h.state_mut().matches.play.view.seats[1] = Seat::Computer(Policy::Greedy);
    click(&mut h, "New draft");
    // Hover texts at once, as a still pointer shows them.
    h.ctx.all_styles_mut(|s| s.interaction.tooltip_delay = 0.0);
    h.run();
    h
}

/// The draft's characters left, as the rectangles of their card pictures.
fn pool_cards(h: &Harness<'_, DeckwrightApp>, d: &Draft) -> Vec<(usize, egui::Rect, bool)> {
    (0..d.pool.len())
        .filter(|&i| !d.taken(i))
        .map(|i| {
            let n = h.get_by_label(&d.pool[i].name);
            (i, n.rect(), n.accesskit_node().is_disabled())
        })
        .collect()
}

/// Cards a row (the pictures' distinct tops) and the widest card.
fn rows(cards: &[(usize, egui::Rect, bool)]) -> (usize, usize, f32) {
    let mut tops: Vec<i32> = cards
        .iter()
        .map(|(_, r, _)| r.top().round() as i32)
        .collect();
    tops.dedup();
    let first = cards
        .iter()
        .filter(|(_, r, _)| r.top().round() as i32 == tops[0])
        .count();
    let w = cards.iter().map(|(_, r, _)| r.width()).fold(0.0, f32::max);
    (tops.len(), first, w)
}

#[test]
fn the_draft_pool_is_card_pictures_a_click_on_one_picks_it_and_a_refused_one_says_why() {
    let mut h = new_draft(4);
    let before = h.state().matches.play.draft.draft.clone().unwrap();
    assert_eq!(before.to_pick(), Some(0));
    let legal = before.legal();
    // Every character left is a card picture: offered ones enabled, refused ones greyed.
    let cards = pool_cards(&h, &before);
    assert_eq!(cards.len(), before.pool.len() - before.picks[1].len());
    for (i, r, disabled) in &cards {
        assert_eq!(!disabled, legal.contains(i), "{}", before.pool[*i].name);
        assert!(r.right() <= 1024.0 && r.width() >= 90.0, "{r:?}");
        assert!(r.height() > r.width() * 1.3, "a card's shape: {r:?}");
    }
    let (n_rows, per_row, w) = rows(&cards);
    assert!(n_rows >= 2 && per_row >= 6, "{n_rows} rows of {per_row}");
    // Textures are made once a card: more frames keep the same ones (a texture made again
    // would have a new id) and make no others.
    let textures = |h: &Harness<'_, DeckwrightApp>| -> std::collections::HashSet<egui::TextureId> {
        h.ctx
            .tex_manager()
            .read()
            .allocated()
            .map(|(id, _)| *id)
            .collect()
    };
    h.run_steps(5);
    let made = textures(&h);
    assert!(made.len() > cards.len(), "{} textures", made.len());
    h.run_steps(20);
    assert_eq!(textures(&h), made);
    // A click on an offered card picks it; the computer answers with its greedy pick.
    let mine = *legal
        .iter()
        .find(|&&i| before.pool[i].faction != Faction::Independent)
        .expect("a Legion or Protectorate character");
    let name = before.pool[mine].name.clone();
    h.get_by_label(&name).hover();
    h.run();
    h.get_by_label_contains(&format!("Pick {name}"));
    click(&mut h, &name);
    let after = h.state().matches.play.draft.draft.clone().unwrap();
    let mut want = before.clone();
    assert!(want.pick(mine));
    let computer = want
        .choose(Policy::Greedy, &mut ScriptDice::parse("").unwrap())
        .unwrap();
    assert!(want.pick(computer));
    assert_eq!(after.picks, want.picks);
    // Both picks are small pictures in their side's row, out of the pool.
    h.get_by_label(&format!("{name}, picked by you"));
    let theirs = &before.pool[computer].name;
    h.get_by_label(&format!("{theirs}, picked by the computer"));
    assert!(h.query_by_label(&name).is_none() && h.query_by_label(theirs).is_none());
    // A refused character (the other faction, say) is greyed; its hover gives the core's reason.
    let bad = pool_cards(&h, &after)
        .into_iter()
        .find(|c| c.2)
        .map(|c| c.0)
        .expect("a refused character");
    let why = after
        .refusal(bad, ["Your draft", "The computer's draft"])
        .unwrap();
    h.get_by_label(&after.pool[bad].name).hover();
    h.run();
    h.get_by_label_contains(&why.to_string());
    h.snapshot("draft-iconica");
    // A keyboard pick: the card focused (Tab reaches it) and Enter.
    let next = after.legal()[0];
    h.get_by_label(&after.pool[next].name).focus();
    h.run();
    h.key_press(Key::Enter);
    h.run();
    let d = h.state().matches.play.draft.draft.clone().unwrap();
    assert_eq!(d.picks[0], [mine, next]);
    // A wider window holds more and larger cards a row.
    h.set_size(egui::vec2(1920.0, 1080.0));
    h.hover_at(egui::pos2(1900.0, 1000.0));
    h.run_steps(10);
    let (_, wide_row, wide_w) = rows(&pool_cards(&h, &d));
    assert!(
        wide_row > per_row && wide_w > w,
        "{wide_row} of {wide_w} vs {per_row} of {w}"
    );
    h.snapshot("draft-iconica-1920");
}

#[test]
fn iconica_board_snapshots() {
    let mut h = watched_by_decision();
    // A step where a character acts on a target with the Action Roll shown.
    let s = watched(h.state());
    let t = Timeline::build(&setup(s), s.inputs());
    let at = (1..s.len())
        .find(|&k| {
            let s = &t.steps[k];
            s.target.is_some() && s.roll.is_some() && k > 40
        })
        .expect("an action on a target");
    h.state_mut()
        .matches
        .watch
        .view
        .session
        .as_mut()
        .unwrap()
        .at = at;
    h.set_size(egui::vec2(1024.0, 700.0));
    h.run_steps(30);
    for name in ["Teodric Vale", "Kethra Voss"] {
        let r = h.get_by_label(&format!("{name} on the board")).rect();
        assert!(r.width() >= 60.0 && r.right() <= 1024.0, "{name}: {r:?}");
    }
    h.snapshot("board-iconica");
    h.set_size(egui::vec2(1920.0, 1080.0));
    h.run_steps(30);
    let r = h.get_by_label("Teodric Vale on the board").rect();
    assert!(r.height() >= 250.0, "the cards use the room: {r:?}");
    h.snapshot("board-iconica-1920");
    // Issue #27 item 2: at 1024 x 700 nothing on the board screen overlaps, all is reachable.
    h.set_size(egui::vec2(1024.0, 700.0));
    h.run_steps(30);
    crate::support::assert_laid_out(&mut h, "Iconica board");
}

#[test]
fn the_action_break_icon_is_lit_exactly_in_the_turns_the_engine_applies_an_action_break() {
    use deckwright::app::matches::iconica_board::break_lit;
    use deckwright::app::matches::watch::play_stepped;
    use deckwright::games::iconica::ai::PolicyKind;
    use deckwright::games::iconica::party::PartyFile;
    let cat = deckwright::catalogue::Catalogue::open_in_memory().unwrap();
    let a = PartyFile::new(
        "A",
        &[
            "ico-teodric-vale",
            "ico-anwen-halloway",
            "ico-gorm-ashcairn",
        ],
    );
    let b = PartyFile::new(
        "B",
        &["ico-varek-solenne", "ico-kethra-voss", "ico-nyx-ellery"],
    );
    let rules = deckwright::app::matches::MatchOptions::default().rules();
    let setup = deckwright::app::core::match_ready(&cat, &a, &b, rules)
        .setup
        .unwrap();
    let (mut lit_turns, mut turns) = (0, 0);
    for seed in 0..12 {
        let stepped = play_stepped(&setup, PolicyKind::Greedy, PolicyKind::First, seed);
        let t = Timeline::build(&setup, &stepped.inputs);
        // The first step of each turn with its Action Roll, and the turn's log.
        let mut seen = std::collections::BTreeSet::new();
        for (k, s) in t.steps.iter().enumerate() {
            if s.roll.is_none() || !seen.insert(s.state.turn) {
                continue;
            }
            turns += 1;
            let lit = (0..setup.chars.len()).any(|c| break_lit(&setup, &s.state, s.roll, c));
            // The turn's lines: from the step of the roll to the next heading.
            let broke = t
                .lines
                .iter()
                .skip_while(|l| l.step < k)
                .take_while(|l| !l.heading)
                .any(|l| l.text.starts_with("Action Break:"));
            assert_eq!(lit, broke, "seed {seed}, turn {}", s.state.turn);
            lit_turns += usize::from(lit);
        }
    }
    assert!(lit_turns > 0 && turns > 100, "{lit_turns} of {turns} turns");
}

#[test]
fn the_computer_s_decisions_are_shown_one_at_a_time_and_the_person_waits_for_them() {
    let mut h = two_parties();
    click(&mut h, "Play against the computer");
    let view = &mut h.state_mut().matches.play.view;
    view.seed = 2;
    view.seats[1] = Seat::Computer(Policy::First);
    assert!(!view.board.at_once, "one at a time is the default");
    click(&mut h, "New match");
    // Player 1 (the person) decides first; then the computer's turn is shown step by step.
    let mut walked = 0;
    for _ in 0..3 {
        let s = session(h.state());
        if s.at == s.len() && s.person_to_move() == Some(0) {
            h.key_press(Key::Num1);
            h.step();
        }
        let mut seen = Vec::new();
        for _ in 0..2000 {
            let s = session(h.state());
            seen.push(s.at);
            if s.at == s.len() {
                break;
            }
            // While the view catches up, the step shown is no decision of the person's.
            let g = s.game_at(s.at);
            assert!(
                !matches!(g.turn(), Turn::Seat { seat: 0, .. }),
                "no decision while the view catches up"
            );
            let offered = h
                .query_all_by(|n| {
                    n.role() == egui::accesskit::Role::Button
                        && n.label().is_some_and(|l| l.starts_with("1. "))
                })
                .count();
            assert_eq!(offered, 0, "no option offered");
            h.step();
        }
        let s = session(h.state());
        assert_eq!(s.at, s.len(), "the view reaches where play stands");
        // Each computer decision was shown on its own frame.
        let decisions = (seen[0]..s.len()).filter(|&k| s.mover(k).is_some()).count();
        let distinct: std::collections::BTreeSet<_> = seen.iter().collect();
        assert!(distinct.len() > decisions, "{seen:?}");
        walked += decisions;
        if matches!(s.latest().turn(), Turn::Over) {
            break;
        }
    }
    assert!(
        walked >= 2,
        "{walked} of the computer's decisions were walked through"
    );
}

#[test]
fn iconica_play_snapshot_with_a_target_to_click() {
    let mut h = play_started(5);
    let question = |h: &Harness<'_, DeckwrightApp>| {
        let s = session(h.state());
        s.game_at(s.at).question()
    };
    // Play on (first options) until the person is asked for a target.
    for _ in 0..200 {
        if question(&h).contains("target") {
            break;
        }
        h.key_press(Key::Num1);
        h.run();
    }
    h.set_size(egui::vec2(1024.0, 700.0));
    h.run_steps(30);
    assert!(question(&h).contains("target"), "{}", question(&h));
    // The options in words, with their keys, are on screen beside the board.
    let s = session(h.state());
    let first = format!("1. {}", s.game_at(s.at).describe(0));
    let r = h
        .get_by_role_and_label(egui::accesskit::Role::Button, &first)
        .rect();
    assert!(r.bottom() <= 700.0 && r.right() <= 1024.0, "{r:?}");
    h.snapshot("board-iconica-play");
}

#[test]
fn an_iconoclasm_game_saved_reopens_and_replays_the_same_log() {
    use crate::support::harness;
    use deckwright::app::matches::MatchGame;
    use deckwright::games::game::Turn;
    use deckwright::games::session::Session;
    fn session(app: &deckwright::app::DeckwrightApp) -> &Session {
        app.matches.iconoclasm.view.session.as_ref().unwrap()
    }
    fn lines(s: &Session) -> Vec<(usize, String)> {
        s.lines().map(|(k, (_, l))| (k, l.clone())).collect()
    }
    let mut h = harness(app());
    h.run();
    click(&mut h, "Match");
    click(&mut h, "Iconoclasm");
    assert_eq!(h.state().matches.game, MatchGame::Iconoclasm);
    h.state_mut().matches.iconoclasm.view.seed = 6;
    click(&mut h, "New match");
    for _ in 0..40 {
        if matches!(session(h.state()).latest().turn(), Turn::Over) {
            break;
        }
        h.key_press(Key::Num1);
        h.run();
    }
    let p = session(h.state());
    assert!(matches!(p.latest().turn(), Turn::Over));
    let (inputs, log) = (p.inputs().to_vec(), lines(p));
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("game.match.toml");
    h.state_mut().matches.iconoclasm.view.path = path.display().to_string();
    h.run();
    click(&mut h, "Save match");
    h.get_by_label(&format!("Saved to {}.", path.display()));
    let r = MatchRecord::load(&path).unwrap();
    assert_eq!(r.game, "iconoclasm");
    assert_eq!(r.seats, ["person", "greedy"]);
    assert_eq!(r.inputs, inputs);
    // A new game on another seed, then the saved one opened again.
    h.state_mut().matches.iconoclasm.view.seed = 9;
    click(&mut h, "New match");
    assert_ne!(session(h.state()).seed, 6);
    click(&mut h, "Open match");
    let p = session(h.state());
    assert_eq!(p.seed, 6);
    assert_eq!(p.inputs(), inputs);
    assert_eq!(lines(p), log);
    assert!(matches!(p.latest().turn(), Turn::Over));
    // An Iconica record is not an Iconoclasm game.
    let mut other = r.clone();
    other.game = "iconica".into();
    other.save(&path).unwrap();
    click(&mut h, "Open match");
    h.get_by_label_contains("Not opened");
}

#[test]
fn a_played_match_stepped_back_stays_on_that_step_and_a_decision_there_is_a_new_line() {
    let mut h = play_started(5);
    for _ in 0..3 {
        h.key_press(Key::Num1);
        h.run();
    }
    let n = session(h.state()).len();
    // Back to a step where the computer or the dice moved: it stays shown, and a digit there
    // takes nothing.
    let mut back = 0;
    loop {
        h.key_press(Key::ArrowLeft);
        h.run();
        back += 1;
        let s = session(h.state());
        if s.mover(s.at) != Some(0) {
            break;
        }
    }
    h.run_steps(120);
    let s = session(h.state());
    assert_eq!(s.at, n - back, "the step stays where the person went");
    h.key_press(Key::Num1);
    h.run();
    assert_eq!(
        session(h.state()).len(),
        n,
        "nothing taken on a computer's step"
    );
    // Forward to the end: the person's decision waits there.
    for _ in 0..back {
        h.key_press(Key::ArrowRight);
        h.run();
    }
    let s = session(h.state());
    assert_eq!((s.at, s.person_to_move()), (n, Some(0)));
    // Back to the person's last decision: another option there is a new line of play.
    let k = (0..n).rev().find(|&k| s.mover(k) == Some(0)).unwrap();
    let (inputs, options) = (s.inputs().to_vec(), {
        let g = s.game_at(k);
        match g.turn() {
            Turn::Seat { options, .. } => options,
            _ => unreachable!("a decision"),
        }
    });
    for _ in k..n {
        h.key_press(Key::ArrowLeft);
        h.run();
    }
    assert_eq!(session(h.state()).at, k);
    if options >= 2 {
        let other = if inputs[k] == 0 { Key::Num2 } else { Key::Num1 };
        h.key_press(other);
        h.run();
        let s = session(h.state());
        assert_eq!(s.inputs()[..k], inputs[..k], "the steps before it stay");
        assert_ne!(s.inputs()[k], inputs[k], "the other option was taken");
    }
}

#[test]
fn a_two_against_two_team_match_opens_on_the_play_view_and_the_person_plays_its_side() {
    use deckwright::cards::Card;
    use deckwright::games::iconica::engine::Rules;
    use deckwright::games::iconica::model::Character;
    let cat = deckwright::catalogue::Catalogue::open_in_memory().unwrap();
    let party = |name: &str, ids: [&str; 3]| -> (String, Vec<Character>) {
        let chars = ids
            .iter()
            .map(|id| match cat.get(id).unwrap() {
                Some(Card::Iconica(c)) => c,
                other => panic!("{id}: {other:?}"),
            })
            .collect();
        (name.to_string(), chars)
    };
    // Side a: players 1 and 2; side b: players 3 and 4 (seating order in each team). The
    // engine's seats are the sides: the person plays both of side a's players.
    let parties = [
        party(
            "North",
            ["ico-kethra-voss", "ico-mirel-dask", "ico-vexid-stalker"],
        ),
        party(
            "East",
            ["ico-anwen-halloway", "ico-gorm-ashcairn", "ico-ivo-quillon"],
        ),
        party(
            "South",
            [
                "ico-brannoch-hale",
                "ico-orsolya-kest",
                "ico-pip-tallowmere",
            ],
        ),
        party(
            "West",
            ["ico-grumbolt", "ico-rukka-tidecaller", "ico-sessaly-renn"],
        ),
    ];
    let mut r = MatchRecord::new("iconica", 4);
    r.engine = matchfile::ENGINE;
    r.seats = vec!["person".into(), "greedy".into()];
    r.options = matchfile::options(&Rules::default(), &parties);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("teams.match.toml");
    r.save(&path).unwrap();
    let mut h = two_parties();
    click(&mut h, "Play against the computer");
    h.state_mut().matches.play.view.board.at_once = true;
    h.state_mut().matches.play.view.path = path.display().to_string();
    h.run();
    click(&mut h, "Open match");
    h.run();
    let s = session(h.state());
    assert_eq!(s.person_to_move(), Some(0));
    let setup = setup(s);
    assert_eq!(setup.player_side, [0, 0, 1, 1], "two teams of two");
    // Both teams' twelve characters are on the board.
    for (_, chars) in &parties {
        for c in chars {
            h.get_by_label(&format!("{} on the board", c.name));
        }
    }
    // The person decides for both players of side a in turn; the computer plays side b.
    let (mut players, mut computer) = (std::collections::BTreeSet::new(), false);
    for _ in 0..300 {
        let s = session(h.state());
        if players.len() == 2 && computer || matches!(s.latest().turn(), Turn::Over) {
            break;
        }
        assert_eq!(s.person_to_move(), Some(0), "only side a waits");
        let g = s.game_at(s.at);
        // Which character acts (no actor chosen yet): only the player in turn's characters.
        if let Some(a) = position(g.as_ref())
            .unwrap()
            .asked()
            .filter(|a| a.actor.is_none())
        {
            for o in &a.options {
                if let Some(slot) = option_slot(*o).filter(|&c| setup.side[usize::from(c)] == 0) {
                    players.insert(setup.owner[usize::from(slot)]);
                }
            }
        }
        decide(&mut h);
        let s = session(h.state());
        computer |= (0..s.len()).any(|k| s.mover(k) == Some(1));
    }
    assert_eq!(
        players.len(),
        2,
        "both of side a's players' characters were offered"
    );
    assert!(computer, "the computer played side b");
}
