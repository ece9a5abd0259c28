//! A screen's background job: a closure run on its own thread, with a count of work done, a
//! stop flag, and its result picked up by a later frame. The UI never waits for it.

use crate::app::commands::UiCommand;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, TryRecvError, channel};

use crate::games::session::TurnEnd;

/// What the job's closure reports to (and reads the stop flag from).
pub struct Progress {
    done: Arc<AtomicU64>,
    stop: Arc<AtomicBool>,
    ctx: egui::Context,
}

impl Progress {
    /// Counts `n` more units of work done and asks for a frame.
    pub fn add(&self, n: u64) {
        self.done.fetch_add(n, Ordering::Relaxed);
        self.ctx.request_repaint();
    }

    /// Asks for a frame (the job has something new to show).
    pub fn wake(&self) {
        self.ctx.request_repaint();
    }

    /// Set when the user cancelled: the closure should stop soon.
    pub fn stop_flag(&self) -> &AtomicBool {
        &self.stop
    }

    /// The stop flag, shared (a search holds it to end early).
    pub fn stop_arc(&self) -> Arc<AtomicBool> {
        self.stop.clone()
    }
}

/// A job running on its own thread.
pub struct Job<T> {
    rx: Receiver<T>,
    done: Arc<AtomicU64>,
    stop: Arc<AtomicBool>,
    total: u64,
}

/// What polling a job found.
pub enum Poll<T> {
    Running,
    Finished(T),
    /// The thread ended without a result (it panicked).
    Lost,
}

impl<T: Send + 'static> Job<T> {
    /// Starts `work` on a thread named `name`; `total` units of work make 100%.
    pub fn spawn(
        ctx: &egui::Context,
        name: &str,
        total: u64,
        work: impl FnOnce(&Progress) -> T + Send + 'static,
    ) -> Result<Job<T>, String> {
        let (tx, rx) = channel();
        let done = Arc::new(AtomicU64::new(0));
        let stop = Arc::new(AtomicBool::new(false));
        let progress = Progress {
            done: done.clone(),
            stop: stop.clone(),
            ctx: ctx.clone(),
        };
        std::thread::Builder::new()
            .name(name.into())
            .spawn(move || {
                let result = work(&progress);
                let _ = tx.send(result);
                progress.ctx.request_repaint();
            })
            .map_err(|e| format!("cannot start a thread: {e}"))?;
        Ok(Job {
            rx,
            done,
            stop,
            total,
        })
    }

    /// Runs `work` on this thread, now: a job already finished (a test's frame sees its
    /// result as a person would after waiting).
    pub fn inline(ctx: &egui::Context, total: u64, work: impl FnOnce(&Progress) -> T) -> Job<T> {
        let (tx, rx) = channel();
        let done = Arc::new(AtomicU64::new(0));
        let stop = Arc::new(AtomicBool::new(false));
        let progress = Progress {
            done: done.clone(),
            stop: stop.clone(),
            ctx: ctx.clone(),
        };
        let _ = tx.send(work(&progress));
        Job {
            rx,
            done,
            stop,
            total,
        }
    }

    /// The result, once the job has finished.
    pub fn poll(&self) -> Poll<T> {
        match self.rx.try_recv() {
            Ok(t) => Poll::Finished(t),
            Err(TryRecvError::Empty) => Poll::Running,
            Err(TryRecvError::Disconnected) => Poll::Lost,
        }
    }

    /// Units of work done so far.
    pub fn done(&self) -> u64 {
        self.done.load(Ordering::Relaxed)
    }

    /// Units of work that make the whole job.
    pub fn total(&self) -> u64 {
        self.total
    }

    /// Done as a fraction of the total.
    pub fn fraction(&self) -> f32 {
        (self.done() as f64 / self.total.max(1) as f64).min(1.0) as f32
    }

    /// Asks the job to stop.
    pub fn cancel(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    pub fn cancelled(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }
}

impl<T> Drop for Job<T> {
    /// A job nobody waits for any more stops.
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

/// The computer's turn of a match view: played on its own thread, so the window keeps
/// drawing while a search thinks, with progress and Stop; or, when a test asks for it
/// ([`set_inline_turns`]), inside the frame that starts it, so a test's frame sees the
/// computer's answer as a person would after waiting.
pub struct Thinking {
    job: Option<Job<(Vec<usize>, TurnEnd)>>,
    inline: Option<(Vec<usize>, TurnEnd)>,
    /// How many inputs the match had when the turn began: its inputs follow those.
    pub from: usize,
}

fn inline_id() -> egui::Id {
    egui::Id::unique("deckwright-inline-computer-turns")
}

/// Whether the match views play the computer's turn inside the frame (a test's setting).
pub fn inline_turns(ctx: &egui::Context) -> bool {
    ctx.data(|d| d.get_temp::<bool>(inline_id()).unwrap_or(false))
}

/// Asks the match views to play the computer's turn inside the frame (`true`) or on its
/// own thread (`false`, the app's way).
pub fn set_inline_turns(ctx: &egui::Context, inline: bool) {
    ctx.data_mut(|d| d.insert_temp(inline_id(), inline));
}

impl Thinking {
    /// Starts the computer's turn from a match of `from` inputs: `work` is given the stop flag
    /// and a counter of the inputs it has taken.
    pub fn start(
        ctx: &egui::Context,
        from: usize,
        work: impl FnOnce(&Arc<AtomicBool>, &dyn Fn(usize)) -> (Vec<usize>, TurnEnd) + Send + 'static,
    ) -> Result<Thinking, String> {
        if inline_turns(ctx) {
            let stop = Arc::new(AtomicBool::new(false));
            return Ok(Thinking {
                job: None,
                inline: Some(work(&stop, &|_| {})),
                from,
            });
        }
        let job = Job::spawn(ctx, "computer-turn", 0, move |p| {
            let seen = AtomicU64::new(0);
            work(&p.stop_arc(), &|n| {
                let n = n as u64;
                let before = seen.swap(n, Ordering::Relaxed);
                p.add(n.saturating_sub(before));
            })
        })?;
        Ok(Thinking {
            job: Some(job),
            inline: None,
            from,
        })
    }

    /// The turn's inputs once it has ended (stopped or not).
    pub fn poll(&mut self) -> Poll<(Vec<usize>, TurnEnd)> {
        if let Some(done) = self.inline.take() {
            return Poll::Finished(done);
        }
        match &self.job {
            Some(job) => job.poll(),
            None => Poll::Lost,
        }
    }

    /// Asks the turn to stop before its next input.
    pub fn stop(&self) {
        if let Some(job) = &self.job {
            job.cancel();
        }
    }

    /// Whether Stop was asked.
    pub fn stopping(&self) -> bool {
        self.job.as_ref().is_some_and(Job::cancelled)
    }

    /// Inputs taken so far.
    pub fn taken(&self) -> u64 {
        self.job.as_ref().map_or(0, Job::done)
    }
}

/// What a view does with its computer's turn this frame.
pub enum TurnStep {
    /// Nothing to do: no computer to move, a person's turn, or the computer stopped.
    Idle,
    /// The computer is thinking (a row with Stop is shown).
    Thinking,
    /// The turn ended: its inputs, to append to the match of [`Thinking::from`] inputs.
    Done(usize, Vec<usize>),
    /// The turn could not start, or its thread ended without an answer.
    Failed(String),
}

/// A match view's computer's turn, polled once a frame.
#[derive(Default)]
pub struct ComputerTurn {
    thinking: Option<Thinking>,
    /// Stop was clicked: the computer plays on only when asked (Continue) or after a
    /// person's decision.
    paused: bool,
}

impl ComputerTurn {
    /// Forgets the turn under way (a new or reopened match, a person's decision or an undo:
    /// the computer then plays from the new end).
    pub fn reset(&mut self) {
        *self = ComputerTurn::default();
    }

    /// Whether the computer is thinking.
    pub fn running(&self) -> bool {
        self.thinking.is_some()
    }

    /// Whether the computer was stopped.
    pub fn paused(&self) -> bool {
        self.paused
    }

    /// Starts a turn with `start` when none runs and the computer was not stopped (`start`
    /// gives `None` when no computer is to move), polls it and shows its row: a spinner,
    /// the moves so far and Stop while it thinks; Continue once stopped.
    pub fn ui(
        &mut self,
        ui: &mut egui::Ui,
        start: impl FnOnce() -> Option<Result<Thinking, String>>,
    ) -> TurnStep {
        if self.thinking.is_none() && !self.paused {
            match start() {
                Some(Ok(t)) => self.thinking = Some(t),
                Some(Err(e)) => return TurnStep::Failed(format!("The computer cannot play: {e}")),
                None => {}
            }
        }
        let Some(t) = self.thinking.as_mut() else {
            if self.paused {
                ui.horizontal(|ui| {
                    ui.label("The computer was stopped.");
                    if ui
                        .button("Continue")
                        .on_hover_text("Let the computer play on from here")
                        .clicked()
                    {
                        self.paused = false;
                        ui.ctx().request_repaint();
                    }
                });
            }
            return TurnStep::Idle;
        };
        match t.poll() {
            Poll::Finished((inputs, end)) => {
                let from = t.from;
                self.thinking = None;
                self.paused = end == TurnEnd::Stopped;
                ui.ctx().request_repaint();
                TurnStep::Done(from, inputs)
            }
            Poll::Lost => {
                self.thinking = None;
                self.paused = true;
                TurnStep::Failed("The computer's turn ended without an answer.".into())
            }
            Poll::Running => {
                ui.horizontal(|ui| {
                    ui.spinner();
                    let n = t.taken();
                    ui.label(format!(
                        "The computer is thinking… ({n} move{} so far)",
                        if n == 1 { "" } else { "s" }
                    ));
                    let stop = ui
                        .add_enabled(!t.stopping(), egui::Button::new("Stop"))
                        .on_hover_text(UiCommand::StopComputer.hover(ui.ctx()));
                    if stop.clicked() || UiCommand::StopComputer.pressed(ui) {
                        t.stop();
                    }
                });
                TurnStep::Thinking
            }
        }
    }
}
