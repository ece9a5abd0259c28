//! A screen's background job: a closure run on its own thread, with a count of work done, a
//! stop flag, and its result picked up by a later frame. The UI never waits for it.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, TryRecvError, channel};

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
