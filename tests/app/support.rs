//! What the app tests share: the real app over an empty in-memory catalogue, driven in a
//! kittest harness.

use deckwright::app::DeckwrightApp;
use deckwright::catalogue::Catalogue;
use egui::{Key, Modifiers};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;

/// The snapshot renderer, patient with a busy machine: kittest's wgpu renderer gives up on
/// a frame after waiting 10 s for the (software) GPU, which a loaded machine can exceed for a
/// 1920 x 1080 frame; a frame that timed out is drawn again, up to five times, so a snapshot
/// test fails on what the image shows, not on how busy the machine is.
///
/// It makes its wgpu renderer itself, on the first frame, and keeps it: kittest's
/// `LazyRenderer` hands its builder over on the first frame and, when that frame times out,
/// has none left to draw it again with ("No default renderer available"; a clean-clone run
/// under load failed a board snapshot so).
#[derive(Default)]
pub struct Patient {
    renderer: Option<egui_kittest::wgpu::WgpuTestRenderer>,
    /// Texture changes that came before the renderer was made.
    pending: egui::TexturesDelta,
}

impl Drop for Patient {
    fn drop(&mut self) {
        // Texture changes never drawn (a test that takes no snapshot) are dropped quietly:
        // egui's `TexturesDelta` panics when dropped holding any.
        self.pending.clear();
    }
}

/// A harness builder whose snapshots use [`Patient`].
pub fn builder<S>() -> egui_kittest::HarnessBuilder<S> {
    Harness::builder().renderer(Patient::default())
}

impl egui_kittest::TestRenderer for Patient {
    fn handle_delta(&mut self, delta: &mut egui::TexturesDelta) {
        match &mut self.renderer {
            Some(r) => r.handle_delta(delta),
            None => self.pending.append(std::mem::take(delta)),
        }
    }

    fn render(
        &mut self,
        ctx: &egui::Context,
        output: &egui::FullOutput,
    ) -> Result<image::RgbaImage, String> {
        let r = self
            .renderer
            .get_or_insert_with(egui_kittest::wgpu::WgpuTestRenderer::new);
        if !self.pending.is_empty() {
            let mut pending = std::mem::take(&mut self.pending);
            r.handle_delta(&mut pending);
        }
        let mut tries = 0;
        loop {
            match r.render(ctx, output) {
                Err(e) if tries < 5 && e_timed_out(&e) => tries += 1,
                done => return done,
            }
        }
    }
}

/// Whether a render error is the renderer's wait running out.
fn e_timed_out(e: &str) -> bool {
    let e = e.to_lowercase();
    e.contains("timed out") || e.contains("timeout")
}

/// A 1280 x `height` harness around the app's whole UI, the computer's turns played in the
/// frame ([`inline_turns`]), with the card editor's Balance
/// panel off (on for users; a test of the panel turns it on): a measurement keeps the
/// window repainting and both cores busy, so other tests would not settle quickly.
pub fn harness_of_height(mut app: DeckwrightApp, height: f32) -> Harness<'static, DeckwrightApp> {
    app.editor.set_balance_on(false);
    let h = builder()
        .with_size(egui::vec2(1280.0, height))
        .build_ui_state(|ui, app: &mut DeckwrightApp| app.ui_root(ui), app);
    inline_turns(&h);
    h
}

/// Has the match views play the computer's turn inside the frame that starts it, so a step
/// sees the computer's answer (the tests of the background turn, `computer_turn.rs`, do not).
pub fn inline_turns(h: &Harness<'_, DeckwrightApp>) {
    deckwright::app::matches::job::set_inline_turns(&h.ctx, true);
}

/// A 1280 x 800 harness around the app's whole UI.
pub fn harness(app: DeckwrightApp) -> Harness<'static, DeckwrightApp> {
    harness_of_height(app, 800.0)
}

/// The app over an empty in-memory catalogue.
pub fn app() -> DeckwrightApp {
    DeckwrightApp::new(Catalogue::open_in_memory().expect("in-memory catalogue"))
}

/// The most frames [`wait_until`] steps: a guard against a job that never answers, far
/// beyond what any job here takes on the slowest machine (each frame also yields the CPU for
/// a millisecond or more, so this is minutes at the very least). Never a deadline a busy
/// machine could miss.
pub const MOST_FRAMES: u32 = 300_000;

/// Steps frames until `done` holds: a background job (a query, a run, a measurement)
/// answers in its own time, however loaded the machine. Between frames the thread sleeps a
/// millisecond so the job's threads get the cores. Panics, saying `what` was awaited, only
/// after [`MOST_FRAMES`] frames without it.
pub fn wait_until(
    h: &mut Harness<'_, DeckwrightApp>,
    what: &str,
    mut done: impl FnMut(&Harness<'_, DeckwrightApp>) -> bool,
) {
    for _ in 0..MOST_FRAMES {
        h.step();
        if done(h) {
            return;
        }
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
    panic!("waited {MOST_FRAMES} frames for {what}; it never came");
}

/// [`wait_until`] on the app's state.
pub fn wait_for(
    h: &mut Harness<'_, DeckwrightApp>,
    what: &str,
    done: impl Fn(&DeckwrightApp) -> bool,
) {
    wait_until(h, what, |h| done(h.state()));
}

/// Clicks `label`, a button that starts or stops a background job, and takes two frames
/// (the click, then the job's controls drawn). Not [`click`]: `run()` steps until no frame
/// is asked for, and a running job asks for one at each progress, so on a busy machine
/// `run()` could exceed its steps.
pub fn click_job(h: &mut Harness<'_, DeckwrightApp>, label: &str) {
    h.get_by_label(label).click();
    h.step();
    h.step();
}

/// Clicks the widget labelled `label` and lets the app answer.
pub fn click(h: &mut Harness<'_, DeckwrightApp>, label: &str) {
    h.get_by_label(label).click();
    h.run();
}

/// Ctrl+F, then types `text` into the browser's search box.
pub fn type_in_search(h: &mut Harness<'_, DeckwrightApp>, text: &str) {
    h.key_press_modifiers(Modifiers::COMMAND, Key::F);
    h.run();
    assert!(
        h.get_by_label("Search:").is_focused(),
        "Ctrl+F focuses the search box"
    );
    h.get_by_label("Search:").type_text(text);
    h.run();
}

/// Picks the Iconica character `name` in the Party screen's list.
pub fn pick_character(h: &mut Harness<'_, DeckwrightApp>, name: &str) {
    click(h, &format!("{name}  ·  character"));
}

/// The app with two legal parties (the example parties' members) built on the Party
/// screen, on the Match screen.
pub fn two_parties() -> Harness<'static, DeckwrightApp> {
    let mut h = harness_of_height(app(), 900.0);
    h.run();
    click(&mut h, "Party");
    click(&mut h, "Match: a second party");
    for name in ["Teodric Vale", "Anwen Halloway", "Gorm Ashcairn"] {
        pick_character(&mut h, name);
    }
    click(&mut h, "B");
    for name in ["Varek Solenne", "Kethra Voss", "Nyx Ellery"] {
        pick_character(&mut h, name);
    }
    h.key_press_modifiers(Modifiers::COMMAND, Key::M);
    h.run();
    assert_eq!(h.state().screen, deckwright::app::Screen::Match);
    h
}

/// A widget this long along an axis is reachable when this much of it shows along that axis.
pub const BIG: f32 = 150.0;

/// An interactive widget (it takes a click or the keyboard focus) of the last frame, as egui
/// hit-tests it.
#[derive(Debug, Clone)]
pub struct Widget {
    pub id: egui::Id,
    /// Its accessible name (or its role when it has none).
    pub name: String,
    /// The whole widget.
    pub rect: egui::Rect,
    /// The part a pointer reaches: the rect clipped by the panel or scroll area it is in.
    pub reach: egui::Rect,
    pub layer: egui::LayerId,
    /// The ids of the widgets it is drawn inside (a drag handle inside its row).
    pub inside: Vec<egui::Id>,
}

impl Widget {
    /// The widget can be pointed at inside `window`: whole, or, along an axis where it is
    /// big (a text area, a board, a grid), over at least [`BIG`] points of it.
    fn whole_in(&self, window: egui::Rect) -> bool {
        let slack = 1.0;
        let shown = self.reach.intersect(window);
        let covers = |whole: egui::Rangef, part: egui::Rangef| {
            (part.min <= whole.min + slack && part.max >= whole.max - slack) || part.span() >= BIG
        };
        shown.is_positive()
            && covers(self.rect.x_range(), shown.x_range())
            && covers(self.rect.y_range(), shown.y_range())
    }
}

/// Turns the wheel over the edge of the view nearest to the widget `w`, towards it (shift held
/// for sideways), until it shows whole or forty turns are made.
fn wheel_toward(h: &mut Harness<'_, DeckwrightApp>, w: &Widget, window: egui::Rect) {
    for _ in 0..40 {
        let Some(r) = h.ctx.read_response(w.id) else {
            return;
        };
        let now = Widget {
            rect: r.rect,
            reach: r.interact_rect,
            ..w.clone()
        };
        if now.whole_in(window) {
            return;
        }
        // Per axis: where the view is, and which way the widget lies from it.
        let axis = |whole: egui::Rangef, part: egui::Rangef| {
            if whole.max < part.min || (part.min > part.max && whole.max <= part.min) {
                (part.min + 2.0, 1.0)
            } else if whole.min > part.max || part.min > part.max {
                (part.max - 2.0, -1.0)
            } else if whole.min < part.min - 1.0 {
                (part.center(), 1.0)
            } else if whole.max > part.max + 1.0 {
                (part.center(), -1.0)
            } else {
                (part.center(), 0.0)
            }
        };
        let (x, dx) = axis(now.rect.x_range(), now.reach.x_range());
        let (y, dy) = axis(now.rect.y_range(), now.reach.y_range());
        let (delta, modifiers) = if dy != 0.0 {
            (egui::vec2(0.0, 100.0 * dy), Modifiers::NONE)
        } else if dx != 0.0 {
            (egui::vec2(0.0, 100.0 * dx), Modifiers::SHIFT)
        } else {
            return;
        };
        h.hover_at(egui::pos2(x, y).clamp(window.min, window.max));
        h.event_modifiers(
            egui::Event::MouseWheel {
                unit: egui::MouseWheelUnit::Point,
                delta,
                phase: egui::TouchPhase::Move,
                source: egui::MouseWheelSource::Wheel,
                modifiers,
            },
            modifiers,
        );
        settle(h);
    }
}

/// Runs the app until it settles, and one frame more: egui answers `read_response` from the
/// frame before the last one first, so both must show the settled screen.
pub fn settle(h: &mut Harness<'_, DeckwrightApp>) {
    // A scroll animates over a few frames more than one run allows.
    for _ in 0..10 {
        if h.try_run().is_ok() {
            break;
        }
    }
    h.step();
}

/// The interactive widgets of the last frame, read from the accessibility tree and placed by
/// egui's own record of each widget (its rect, and the part of it the clip leaves).
pub fn widgets(h: &Harness<'_, DeckwrightApp>) -> Vec<Widget> {
    use egui::accesskit::Action;
    use egui::accesskit::Role;
    use egui_kittest::kittest::{By, NodeT};
    // Floating scroll bars lie over the content's edge by design, and containers (a table's
    // cells, a drag source around its handle, a column's resize line) hold widgets.
    let interactive = |n: &egui_kittest::kittest::AccessKitNode<'_>| {
        let d = n.data();
        (d.supports_action(Action::Click) || d.supports_action(Action::Focus))
            && !matches!(
                n.role(),
                Role::ScrollBar | Role::GenericContainer | Role::Unknown
            )
    };
    // SAFETY (both uses): not a memory matter; the value is an egui `Id`'s (egui names each
    // accessibility node by its widget's id), so it has the entropy egui needs.
    let id_of = |n: &egui_kittest::kittest::AccessKitNode<'_>| unsafe {
        egui::Id::from_high_entropy_bits(n.locate().0.0)
    };
    h.query_all(By::new().predicate(interactive))
        .filter_map(|node| {
            let n = node.accesskit_node();
            let id = id_of(&n);
            let mut inside = Vec::new();
            let mut up = n.parent();
            while let Some(p) = up {
                inside.push(id_of(&p));
                up = p.parent();
            }
            let r = h.ctx.read_response(id)?;
            // An empty label has nothing to show or to point at.
            if r.rect.width() < 0.5 || r.rect.height() < 0.5 {
                return None;
            }
            let name = n
                .label()
                .filter(|l| !l.is_empty())
                .or_else(|| n.value().map(|v| format!("{v:?}")))
                .unwrap_or_else(|| format!("{:?}", n.role()));
            Some(Widget {
                id,
                name,
                rect: r.rect,
                reach: r.interact_rect,
                layer: r.layer_id,
                inside,
            })
        })
        .collect()
}

/// Issue #27: on the screen shown, no two interactive widgets overlap (each one's reachable
/// part is its own), and every interactive widget can be pointed at whole inside the window,
/// at once or after scrolling it into view (asked as a screen reader asks, one widget at a
/// time). `what` names the screen in the messages.
pub fn assert_laid_out(h: &mut Harness<'_, DeckwrightApp>, what: &str) {
    settle(h);
    let window = h.ctx.content_rect();
    let all = widgets(h);
    assert!(!all.is_empty(), "{what}: no interactive widget");
    let mut overlaps = Vec::new();
    for (i, a) in all.iter().enumerate() {
        for b in &all[i + 1..] {
            if a.layer != b.layer
                || a.id == b.id
                || a.inside.contains(&b.id)
                || b.inside.contains(&a.id)
            {
                continue;
            }
            // Two panels' resize handles meet where the panels' edges do.
            if a.name == "Resize panel" && b.name == "Resize panel" {
                continue;
            }
            let common = a.reach.intersect(b.reach);
            if common.width() > 1.0 && common.height() > 1.0 {
                overlaps.push(format!(
                    "“{}” {:?} and “{}” {:?}",
                    a.name, a.reach, b.name, b.reach
                ));
            }
        }
    }
    assert!(
        overlaps.is_empty(),
        "{what}: widgets overlap:\n{}",
        overlaps.join("\n")
    );
    let mut unreachable = Vec::new();
    for w in all.iter().filter(|w| !w.whole_in(window)) {
        let node = h
            .query_all(
                egui_kittest::kittest::By::new().predicate(|n| n.locate().0.0 == w.id.value()),
            )
            .next();
        let Some(node) = node else { continue };
        node.scroll_to_me();
        settle(h);
        // egui gives a scroll request to the innermost scroll area (a table's own, say):
        // what lies beyond an outer one is then wheeled to, as a person would.
        wheel_toward(h, w, window);
        let now = h.ctx.read_response(w.id);
        let after = now.as_ref().map(|r| (r.rect, r.interact_rect));
        let whole = now.is_some_and(|r| {
            Widget {
                rect: r.rect,
                reach: r.interact_rect,
                ..w.clone()
            }
            .whole_in(window)
        });
        if !whole {
            unreachable.push(format!(
                "“{}” {:?} (reachable {:?}; scrolled into view: {after:?})",
                w.name, w.rect, w.reach
            ));
        }
    }
    assert!(
        unreachable.is_empty(),
        "{what}: widgets that cannot be pointed at whole in the {window:?} window, even \
         scrolled into view:\n{}",
        unreachable.join("\n")
    );
}

/// A text painted in the last frame: its galley, where it is (turned text included) and the
/// part of that its clip shows.
pub type Painted = (std::sync::Arc<egui::Galley>, egui::Rect, egui::Rect);

/// The texts painted in the last frame.
pub fn painted_texts(h: &Harness<'_, DeckwrightApp>) -> Vec<Painted> {
    fn walk(shape: &egui::Shape, clip: egui::Rect, out: &mut Vec<Painted>) {
        match shape {
            egui::Shape::Text(t) => {
                let r = t.visual_bounding_rect();
                out.push((t.galley.clone(), r, r.intersect(clip)));
            }
            egui::Shape::Vec(v) => v.iter().for_each(|s| walk(s, clip, out)),
            _ => {}
        }
    }
    let mut out = Vec::new();
    for c in &h.output().shapes {
        walk(&c.shape, c.clip_rect, &mut out);
    }
    out
}

/// The places a galley's lines were broken inside a word (not after a space or a hyphen), as
/// the two halves.
pub fn broken_words(g: &egui::Galley) -> Vec<(String, String)> {
    g.rows
        .windows(2)
        .filter(|w| !w[0].ends_with_newline)
        .map(|w| (w[0].row.text(), w[1].row.text()))
        .filter(|(a, b)| {
            !(a.ends_with(char::is_whitespace)
                || a.ends_with('-')
                || b.starts_with(char::is_whitespace)
                || a.is_empty())
        })
        .collect()
}
