//! The Play view: you play side A against the computer's side B. The core plays the match
//! (`games::iconica::human::play_against`, seeded as `play` seeds one) on a background
//! thread that waits at each of your decisions: the view shows the question, the legal
//! options and both sides' health, and sends your answer back.

use std::sync::Arc;
use std::sync::mpsc::{Receiver, Sender, channel};

use super::job::{Job, Progress};
use super::watch::sides_panel;
use super::{Asked, MatchOptions};
use crate::games::iconica::engine::{Choice, Event, Log, Setup};
use crate::games::iconica::human;
use crate::sim::iconica::{self as matches, MemberEnd};

/// A decision put to you.
#[derive(Debug, Clone, PartialEq)]
pub struct Decision {
    pub question: String,
    /// The legal options in words, in the spec's order.
    pub options: Vec<String>,
    /// Both sides at the moment of the decision.
    pub sides: [Vec<MemberEnd>; 2],
}

/// What the match thread tells the view.
enum Msg {
    Line {
        heading: bool,
        text: String,
    },
    Ask(Decision),
    Done {
        summary: String,
        sides: [Vec<MemberEnd>; 2],
    },
}

/// The match thread's log: each event, in words, to the view.
struct SendLog<'a> {
    setup: &'a Setup,
    tx: &'a Sender<Msg>,
    progress: &'a Progress,
}

impl Log for SendLog<'_> {
    fn push(&mut self, e: Event) {
        let heading = matches!(e, Event::Turn { .. } | Event::End { .. });
        let _ = self.tx.send(Msg::Line {
            heading,
            text: e.text(self.setup),
        });
        self.progress.wake();
    }
}

/// A match being played (or played out).
pub struct Game {
    rx: Receiver<Msg>,
    reply: Sender<u8>,
    _job: Job<()>,
    /// The log so far: (is a heading, text).
    pub lines: Vec<(bool, String)>,
    /// The decision waiting for your answer.
    pub decision: Option<Decision>,
    /// How it ended, and both sides at the end.
    pub done: Option<(String, [Vec<MemberEnd>; 2])>,
    pub seed: u64,
    pub opponent: String,
    /// The parties' names when the match started.
    pub names: [String; 2],
}

impl Game {
    /// Takes what the match thread sent since the last frame.
    fn poll(&mut self) {
        while let Ok(msg) = self.rx.try_recv() {
            match msg {
                Msg::Line { heading, text } => self.lines.push((heading, text)),
                Msg::Ask(d) => self.decision = Some(d),
                Msg::Done { summary, sides } => self.done = Some((summary, sides)),
            }
        }
    }

    /// Answers the decision with option `k`.
    pub fn answer(&mut self, k: usize) {
        if let Some(d) = &self.decision
            && k < d.options.len()
            && self.reply.send(k as u8).is_ok()
        {
            self.decision = None;
        }
    }
}

/// The Play view's state.
#[derive(Default)]
pub struct PlayPanel {
    pub game: Option<Game>,
    pub message: Option<String>,
}

impl PlayPanel {
    pub fn ui(&mut self, ui: &mut egui::Ui, now: &Asked) {
        if let Some(g) = &mut self.game {
            g.poll();
        }
        self.controls_ui(ui, now);
        if let Some(m) = &self.message {
            ui.label(m);
        }
        let Some(g) = &mut self.game else {
            ui.add_space(8.0);
            ui.weak(format!(
                "You play side A ({}); the computer plays side B ({}, {}). The dice come from the seed: \
                 the same seed and the same answers play the same match.",
                now.names[0], now.names[1], now.options.policies[1]
            ));
            return;
        };
        let sides = match (&g.done, &g.decision) {
            (Some((_, sides)), _) => Some(("At the end", sides.clone())),
            (None, Some(Decision { sides, .. })) => Some(("Now", sides.clone())),
            (None, None) => None,
        };
        if let Some((heading, sides)) = sides {
            sides_panel(ui, "play-sides", heading, &sides, &g.names);
        }
        egui::CentralPanel::default().show(ui, |ui| {
            decision_ui(ui, g);
            log_ui(ui, g);
        });
    }

    fn controls_ui(&mut self, ui: &mut egui::Ui, now: &Asked) {
        ui.horizontal(|ui| {
            let playing = self.game.as_ref().is_some_and(|g| g.done.is_none());
            let start = ui
                .add_enabled(
                    now.setup.is_ok(),
                    egui::Button::new(if playing {
                        "Start again"
                    } else {
                        "Start a match"
                    }),
                )
                .on_hover_text(format!(
                    "A new match with seed {}; you play side A",
                    now.options.seed
                ))
                .on_disabled_hover_text(now.setup.as_ref().err().map_or("", String::as_str));
            if start.clicked()
                && let Ok(setup) = now.setup
            {
                self.start(ui.ctx(), setup.clone(), now.options, now.names.map(str::to_string));
            }
            if playing
                && ui
                    .button("Resign")
                    .on_hover_text("Leave this match")
                    .clicked()
            {
                self.game = None;
                self.message = Some("You left the match.".into());
            }
        });
    }

    /// Starts a match of `setup`: you are side A, the computer side B with the options' policy.
    pub fn start(
        &mut self,
        ctx: &egui::Context,
        setup: Arc<Setup>,
        o: &MatchOptions,
        names: [String; 2],
    ) {
        let (other, seed) = (o.policy(1), o.seed);
        let (tx, rx) = channel::<Msg>();
        let (reply, answers) = channel::<u8>();
        let job = Job::spawn(ctx, "deckwright-play", 1, move |p| {
            let mut log = SendLog {
                setup: &setup,
                tx: &tx,
                progress: p,
            };
            let ask = |c: &Choice<'_>| {
                let d = Decision {
                    question: human::question(c),
                    options: c
                        .options
                        .iter()
                        .map(|&o| human::option_text(&setup, o))
                        .collect(),
                    sides: matches::sides(&setup, c.state),
                };
                tx.send(Msg::Ask(d)).ok()?;
                p.wake();
                answers.recv().ok()
            };
            let st = human::play_against(
                &setup,
                0,
                other,
                seed,
                matches::seeded_dice(seed),
                ask,
                &mut log,
            );
            let _ = tx.send(Msg::Done {
                summary: format!("{} turns, {} dice", st.turn, st.dice_used),
                sides: matches::sides(&setup, &st),
            });
            p.wake();
        });
        match job {
            Ok(job) => {
                self.message = None;
                self.game = Some(Game {
                    rx,
                    reply,
                    _job: job,
                    lines: Vec::new(),
                    decision: None,
                    done: None,
                    seed,
                    opponent: other.name(),
                    names,
                });
            }
            Err(e) => self.message = Some(format!("The match did not start: {e}")),
        }
    }
}

/// Your decision: the question and one button an option (keys 1 to 9 too); or how it ended.
fn decision_ui(ui: &mut egui::Ui, g: &mut Game) {
    if let Some((summary, _)) = &g.done {
        let end = g.lines.last().map(|l| l.1.as_str()).unwrap_or_default();
        ui.heading(format!("{end}; {summary}"));
        ui.weak(format!(
            "Seed {}; you took every decision of side A against {}.",
            g.seed, g.opponent
        ));
        ui.separator();
        return;
    }
    let Some(d) = &g.decision else {
        ui.horizontal(|ui| {
            ui.spinner();
            ui.label("The computer is playing…");
        });
        ui.separator();
        return;
    };
    ui.label(egui::RichText::new(&d.question).strong().size(16.0));
    let mut chosen = None;
    ui.horizontal_wrapped(|ui| {
        for (i, o) in d.options.iter().enumerate() {
            let button = ui.button(format!("[{}] {o}", i + 1));
            if button.clicked() {
                chosen = Some(i);
            }
        }
    });
    let keys = [
        egui::Key::Num1,
        egui::Key::Num2,
        egui::Key::Num3,
        egui::Key::Num4,
        egui::Key::Num5,
        egui::Key::Num6,
        egui::Key::Num7,
        egui::Key::Num8,
        egui::Key::Num9,
    ];
    // A digit typed into a text field (the seed, the turn limit) is not an answer.
    let typing = ui.ctx().text_edit_focused();
    for (i, key) in keys.iter().enumerate().take(d.options.len()) {
        if !typing && ui.input(|inp| inp.key_pressed(*key)) {
            chosen = Some(i);
        }
    }
    ui.weak("Click an option, or press its number.");
    ui.separator();
    if let Some(k) = chosen {
        g.answer(k);
    }
}

/// The log so far, newest at the bottom.
fn log_ui(ui: &mut egui::Ui, g: &Game) {
    egui::ScrollArea::vertical()
        .id_salt("play-log")
        .auto_shrink([false, false])
        .stick_to_bottom(true)
        .show(ui, |ui| {
            ui.spacing_mut().item_spacing.y = 2.0;
            for (heading, text) in &g.lines {
                if *heading {
                    ui.add_space(4.0);
                    ui.label(egui::RichText::new(text).strong());
                } else {
                    ui.horizontal(|ui| {
                        ui.add_space(16.0);
                        ui.add(egui::Label::new(text).wrap());
                    });
                }
            }
        });
}
